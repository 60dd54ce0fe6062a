"""Phase C (Rules - Move Sequence, Rules - Movement): moves, formation changes, limbering, command
and control orders, Highland charges, generals, field engineering and demolition charges."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from . import rules
from .actions import (
    ChangeFormation,
    EndPhase,
    Engineer,
    HighlandChargeMove,
    IndependentTest,
    LayCharge,
    Limber,
    Move,
    MoveAway,
    MoveGeneral,
    Order,
)
from .command import give_order, test_independent
from .fortifications import Defence, Demolition, construct, dismantle, laying_moves
from .generals import general_move, in_chain_of_command
from .movement import (
    Crossing,
    MoveCheck,
    MovePlan,
    check_formation_change,
    check_limber,
    check_move,
)
from .turn_effects import (
    Handler,
    Log,
    command_rule,
    degrees,
    enter_building,
    illegal,
    inches,
    listed,
    own_unit,
    points,
    work_named,
)
from .turn_state import C, D, WillState, mark_done, with_extra, with_work
from .units import WillUnit
from .variants import highland_charge_move


def mover(state: WillState, unit_id: str, action: object) -> WillUnit:
    """The unit of the moving player that may act in C: not routing, not yet moved, with an
    order when command and control is on; a Highland charge only makes its charge move."""
    unit = own_unit(state, unit_id, state.extra.moving, action)
    if unit.routing:
        raise illegal(action, f"{unit.name} is routing: it moves in B")
    if unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} has already moved")
    if unit.highland_charge:
        # A Highland charge is a compulsory move: it needs no order.
        if not isinstance(action, HighlandChargeMove):
            raise illegal(action, "a Highland charge must move at the enemy", rules.FORTY_FIVE)
        return unit
    if state.extra.options.command_control and unit.id not in state.extra.ordered:
        raise illegal(action, f"{unit.name} has no order to move", command_rule(state))
    return unit


def _move(state: WillState, action: Move, log: Log) -> WillState:
    unit = mover(state, action.unit, action)
    if not action.plan.legs and not action.plan.crossings and abs(action.plan.facing_change) <= 45:
        if unit.busy_moves:
            state = state.with_units(attrs.evolve(unit, busy_moves=unit.busy_moves - 1))
        log.add("move", f"{unit.name} holds its position", rules.MOVEMENT, unit.id)
        return mark_done(state, unit.id)
    checked = check_move(unit, action.plan, options=state.extra.options, action=action)
    building = enter_building(state, unit, action.enters, action)
    state = state.with_units(attrs.evolve(unit, busy_moves=checked.busy_after))
    text = _move_text(unit, action.plan, checked, building)
    log.add("move", text, rules.MOVEMENT, unit.id)
    return mark_done(state, unit.id)


def _move_text(
    unit: WillUnit, plan: MovePlan, checked: MoveCheck, building: Defence | None = None
) -> str:
    """A move as the referee says it: how far of how far, or the turn or crossing that took
    the whole move."""
    name = unit.name
    if checked.busy_after:
        more = f"{checked.busy_after} more move{'s' if checked.busy_after > 1 else ''}"
        return f"{name} spends the move {plan.crossings[0].value} ({more} to go)"
    if not plan.legs or not any(leg.inches for leg in plan.legs):
        if abs(plan.facing_change) > 45:
            return f"{name} turns {degrees(abs(plan.facing_change))}, taking the whole move"
        if not plan.crossings:
            return f"{name} spends its move without advancing"
    text = f"{name} moves {inches(checked.used)} of its {inches(checked.allowance)}"
    crossings = [
        c.value for c in plan.crossings if building is None or c is not Crossing.ENTER_BUILDING
    ]
    if crossings:
        text += f", {listed(crossings)}"
    if plan.facing_change:
        text += f", turning {degrees(abs(plan.facing_change))}"
    if building is not None:
        text += f", into the {building.work.value}"
    return text


def _idle_mover(state: WillState, unit_id: str, action: object) -> WillUnit:
    """A mover that is not busy: formation changes and limbering take the whole move."""
    unit = mover(state, unit_id, action)
    if unit.busy_moves:
        raise illegal(action, f"{unit.name} is busy", rules.MOVEMENT)
    return unit


def _change_formation(state: WillState, action: ChangeFormation, log: Log) -> WillState:
    unit = _idle_mover(state, action.unit, action)
    formation = check_formation_change(unit, action.base_distance, action)
    log.add("formation", f"{unit.name} forms {formation.value}", rules.MOVEMENT, unit.id)
    return mark_done(state.with_units(attrs.evolve(unit, formation=formation)), unit.id)


def _limber(state: WillState, action: Limber, log: Log) -> WillState:
    unit = _idle_mover(state, action.unit, action)
    limbered = check_limber(unit, action)
    verb = "limbers" if limbered else "deploys"
    log.add("limber", f"{unit.name} {verb}", rules.MOVEMENT_WHEELED, unit.id)
    return mark_done(state.with_units(attrs.evolve(unit, limbered=limbered)), unit.id)


def _order(state: WillState, action: Order, log: Log) -> WillState:
    opts = state.extra.options
    rule = command_rule(state)
    if not opts.command_control:
        raise illegal(action, "command and control is not in play", rule)
    if state.extra.independents:
        raise illegal(action, "the independent tests come after all command rolls", rule)
    general = state.commander(action.general)
    if general.id in state.extra.failed:
        raise illegal(action, f"{general.name} has failed: no more orders", rule)
    ids = (action.unit, *action.with_units)
    if len(set(ids)) != len(ids):
        raise illegal(action, "a unit appears twice in the group", rule)
    group = tuple(own_unit(state, uid, state.extra.moving, action) for uid in ids)
    for unit in group:
        if general.side != unit.side or not general.active:
            raise illegal(action, f"{general.name} cannot command {unit.name}", rule)
        if unit.commander != general.id and not in_chain_of_command(
            unit, general, state.commanders
        ):
            raise illegal(action, f"{unit.name} is not under {general.name}", rule)
        if unit.id in state.extra.ordered or unit.id in state.extra.done:
            raise illegal(action, f"{unit.name} has already been tested", rule)
        if unit.routing or unit.highland_charge:
            raise illegal(action, f"{unit.name} makes a compulsory move, not an order", rule)
    facts = action.facts
    if general.attached_to in ids and not facts.attached:
        # The state knows he rides with the unit: +2 without the player saying so.
        facts = attrs.evolve(facts, attached=True)
    ok = give_order(general, group[0], facts, dice=log.dice, options=opts, also=group[1:])
    names = listed([u.name for u in group])
    if ok:
        text = f"{general.name} orders {names} to move"
    else:
        text = f"{general.name}'s order to {names} fails: he gives no more orders this move"
    log.add("order", text, rule, ids[0])
    if ok:
        return with_extra(state, ordered=state.extra.ordered | set(ids))
    return with_extra(
        state, failed=state.extra.failed | {general.id}, done=state.extra.done | set(ids)
    )


def _independent(state: WillState, action: IndependentTest, log: Log) -> WillState:
    opts = state.extra.options
    rule = command_rule(state)
    if not opts.command_control:
        raise illegal(action, "command and control is not in play", rule)
    unit = own_unit(state, action.unit, state.extra.moving, action)
    if unit.id in state.extra.ordered or unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} has already been tested", rule)
    if unit.routing or unit.highland_charge:
        raise illegal(action, f"{unit.name} makes a compulsory move, not an order", rule)
    failed = unit.commander in state.extra.failed
    ok = test_independent(unit, failed, dice=log.dice, options=opts)
    if ok:
        text = f"{unit.name}, with no orders, tests alone and may move"
    else:
        text = f"{unit.name}, with no orders, tests alone and stays where it is"
    log.add("order", text, rule, unit.id)
    state = with_extra(state, independents=True)
    if ok:
        return with_extra(state, ordered=state.extra.ordered | {unit.id})
    return mark_done(state, unit.id)


def _highland_move(state: WillState, action: HighlandChargeMove, log: Log) -> WillState:
    unit = mover(state, action.unit, action)
    if not unit.highland_charge:
        raise illegal(action, f"{unit.name} is not in a Highland charge", rules.FORTY_FIVE)
    distance = highland_charge_move(unit, dice=log.dice, options=state.extra.options)
    log.add(
        "move",
        f"{unit.name} makes its Highland charge: {inches(distance)} at the nearest enemy",
        rules.FORTY_FIVE,
        unit.id,
    )
    return mark_done(state, unit.id)


def _move_general(state: WillState, action: MoveGeneral, log: Log) -> WillState:
    general = state.commander(action.general)
    key = "general:" + general.id
    if general.side != state.extra.moving or not general.active:
        raise illegal(action, f"{general.name} cannot move now", rules.MOVEMENT)
    if key in state.extra.done:
        raise illegal(action, f"{general.name} has already moved", rules.MOVEMENT)
    limit = general_move(general)
    if not 0 <= action.inches <= limit:
        raise illegal(action, f'generals move up to {limit}"', rules.MOVEMENT)
    ride = f"rides {inches(action.inches)}" if action.inches else ""
    if action.attach_to:
        unit = own_unit(state, action.attach_to, general.side, action)
        if action.attach_to != general.attached_to:
            text = f"{general.name} {ride + ' and ' if ride else ''}joins {unit.name}"
        elif ride:
            text = f"{general.name} {ride} and rejoins {unit.name}"
        else:
            text = f"{general.name} stays with {unit.name}"
    elif ride:
        text = f"{general.name} {ride}"
        if general.attached_to:
            text += f", leaving {state.unit(general.attached_to).name}"
    elif general.attached_to:
        text = f"{general.name} leaves {state.unit(general.attached_to).name}"
    else:
        text = f"{general.name} stays where he is"
    log.add("general", text, rules.MOVEMENT, general.id)
    state = state.with_commanders(attrs.evolve(general, attached_to=action.attach_to))
    return mark_done(state, key)


def _engineer(state: WillState, action: Engineer, log: Log) -> WillState:
    unit = mover(state, action.unit, action)
    if unit.arm.value != "close order foot":
        raise illegal(action, "only close order infantry work with tools", rules.FIELD_ENGINEERING)
    work = work_named(state, action.work, action)
    if action.build:
        after = construct(work, action.has_tools, action)
        if after.points > work.points:
            text = f"{unit.name} builds up the {work.work.value} to {points(after.points)}"
        else:
            text = f"{unit.name} begins another defence point on the {work.work.value}"
    else:
        after = dismantle(work, action.has_tools, action)
        left = points(after.points)
        text = f"{unit.name} dismantles part of the {work.work.value}: {left} left"
    log.add("work", text, rules.FIELD_ENGINEERING, work.id)
    return with_extra(with_work(state, after), done=state.extra.done | {unit.id})


def _lay_charge(state: WillState, action: LayCharge, log: Log) -> WillState:
    unit = mover(state, action.unit, action)
    work = work_named(state, action.work, action)
    laying_moves(action.charges)
    current = next((d for d in state.extra.demolitions if d.work == work.id), None)
    if current is None:
        new = Demolition(work.id, unit.id, action.charges)
    elif current.unit != unit.id or current.charges != action.charges or current.away:
        raise illegal(action, "another demolition is under way there", rules.DEMOLITION)
    elif current.laid >= current.charges:
        raise illegal(action, "every charge is laid: move away", rules.DEMOLITION)
    else:
        new = attrs.evolve(current, laid=current.laid + 1)
    others = tuple(d for d in state.extra.demolitions if d.work != work.id)
    log.add(
        "demolition",
        f"{unit.name} lays demolition charge {new.laid} of {new.charges} at the {work.work.value}",
        rules.DEMOLITION,
        work.id,
    )
    return with_extra(state, demolitions=(*others, new), done=state.extra.done | {unit.id})


def _move_away(state: WillState, action: MoveAway, log: Log) -> WillState:
    unit = mover(state, action.unit, action)
    current = next((d for d in state.extra.demolitions if d.unit == unit.id), None)
    if current is None or current.laid < current.charges or current.away:
        raise illegal(action, "move away only when every charge is laid", rules.DEMOLITION)
    if action.plan.legs or action.plan.crossings:
        check_move(unit, action.plan, options=state.extra.options, action=action)
    building = enter_building(state, unit, action.enters, action)
    others = tuple(d for d in state.extra.demolitions if d is not current)
    text = f"{unit.name} moves away from the charges"
    if building is not None:
        text += f" into the {building.work.value}"
    log.add("demolition", text, rules.DEMOLITION, unit.id)
    return with_extra(
        state,
        demolitions=(*others, attrs.evolve(current, away=True)),
        done=state.extra.done | {unit.id},
    )


def _end_c(state: WillState, action: EndPhase, log: Log) -> WillState:
    unmoved = [
        u.name
        for u in state.units_of(state.extra.moving)
        if u.highland_charge and u.id not in state.extra.done
    ]
    if unmoved:
        raise illegal(
            action, f"{', '.join(unmoved)} must make the Highland charge move", rules.FORTY_FIVE
        )
    busy = tuple(
        attrs.evolve(u, busy_moves=u.busy_moves - 1)
        for u in state.units_of(state.extra.moving)
        if u.busy_moves and u.id not in state.extra.done
    )
    state = state.with_units(*busy) if busy else state
    return attrs.evolve(
        with_extra(
            state, done=frozenset(), ordered=frozenset(), failed=frozenset(), independents=False
        ),
        phase=D,
    )


HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType(
    {
        (C, Move): _move,
        (C, ChangeFormation): _change_formation,
        (C, Limber): _limber,
        (C, Order): _order,
        (C, IndependentTest): _independent,
        (C, HighlandChargeMove): _highland_move,
        (C, MoveGeneral): _move_general,
        (C, Engineer): _engineer,
        (C, LayCharge): _lay_charge,
        (C, MoveAway): _move_away,
        (C, EndPhase): _end_c,
    }
)
