"""The steps of an activated unit and its commander: activation, the routing unit's test,
moves, manoeuvres, shooting, rally and command points (Bloodybacks 9.3, Activating Units;
Movement; Shooting; Rally; Command point tariff)."""

from __future__ import annotations

import attrs

from smoothbore.core import Event, IllegalActionError, SamplingDice

from . import activation as act
from . import command, commanders, morale, movement, sequence, shooting
from .actions import Activate, Manoeuvre, Move, Rally, RoutTest, Shoot, SpendCommandPoint
from .battle import (
    Activated,
    Extra,
    State,
    activated_entry,
    activity_of,
    leader_attached,
    with_activated,
    with_activity,
)
from .guards import check_commander, need_phase, spend_actions
from .phases import ACTIVATION
from .reports import event_since, fate_after_test, move_events, risk_events
from .units import Commander, Formation, Unit, remove_disruption, with_density


def _pay_for_other_brigade(
    state: State,
    action: Activate | RoutTest,
    unit: Unit,
    leader: Commander | None,
    outside_radius: bool,
) -> Extra:
    """The extra state after the commander pays the command point for taking up a unit not of
    his own brigade, the CinC included (Command point tariff: activate unit not of own brigade;
    B44); a point is used only within the radius (Command Radius). Nothing to pay otherwise."""
    if leader is None or leader.brigade == unit.brigade:
        return state.extra
    entry = activity_of(state, leader.id)
    if entry is None or entry.command_points < 1 or outside_radius:
        raise IllegalActionError(
            action,
            f"{leader.name} must spend a command point, within his radius, to take up "
            f"{unit.name} of another brigade",
            command.RULE_CP_TARIFF,
        )
    return with_activity(
        state.extra, attrs.evolve(entry, command_points=entry.command_points - 1)
    )


def on_activate(
    state: State, action: Activate, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Roll a unit's activation hand under a commander activated by the card (Activating Units)."""
    need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    leader = check_commander(state, action, unit, action.commander_id)
    if unit.routing:
        raise IllegalActionError(
            action, f"{unit.name} is routing: it takes a morale test instead", morale.RULE_ROUTING
        )
    if not unit.can_act:
        raise IllegalActionError(
            action, f"{unit.name} recovered from rout this turn or is gone", act.RULE_ACTIVATION
        )
    other_brigade = leader is not None and leader.brigade != unit.brigade
    extra = _pay_for_other_brigade(state, action, unit, leader, action.outside_radius)
    mark = len(dice.records)
    attached = leader_attached(state, unit)
    result = act.activate(
        unit,
        leader,
        dice=dice,
        outside_radius=action.outside_radius,
        other_brigade=other_brigade,
        long_turn=sequence.long_turn(extra.minutes),
        in_woods=action.in_woods,
        commander_attached=attached,
        options=extra.options,
    )
    event = event_since(
        "activation", f"{unit.name}: {result}", act.RULE_ACTIVATION, unit.id, dice, mark
    )
    extra = attrs.evolve(extra, attempted=extra.attempted | {unit.id})
    after = unit
    moves: tuple[Event, ...] = ()
    if result.morale is not None:
        after = morale.apply_result(unit, result.morale.result)
        moves = move_events((after,), (fate_after_test(after, result.morale.result),), dice)
    if result.actions:
        extra = with_activated(
            extra, Activated(unit.id, leader.id if leader else "", result.actions)
        )
    return attrs.evolve(state.with_units(after), extra=extra), (event, *moves)


def on_rout_test(
    state: State, action: RoutTest, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """A routing unit's morale test instead of activating (Morale). The test takes the place of
    the activation roll, so a commander of another brigade pays the command point he would pay
    to activate the unit (Command point tariff; B28, B46)."""
    need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    leader = check_commander(state, action, unit, action.commander_id)
    if not unit.routing:
        raise IllegalActionError(action, f"{unit.name} is not routing", morale.RULE_ROUTING)
    paid = _pay_for_other_brigade(state, action, unit, leader, action.outside_radius)
    mark = len(dice.records)
    test = morale.take_test(
        unit,
        morale.TestKind.MORALE,
        dice=dice,
        commander_attached=leader_attached(state, unit),
        in_woods=action.in_woods,
        reason=f"{unit.name} is routing",
    )
    after = morale.apply_result(unit, test.result)
    extra = attrs.evolve(paid, attempted=paid.attempted | {unit.id})
    event = event_since("rout", f"{unit.name}: {test}", morale.RULE_ROUTING, unit.id, dice, mark)
    moves = move_events((after,), (fate_after_test(after, test.result),), dice)
    return attrs.evolve(state.with_units(after), extra=extra), (event, *moves)


def on_move(state: State, action: Move, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    """One move action, through a friendly unit if asked (Movement; Interpenetration; Passage of
    lines)."""
    need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    movement.check_move(unit, action.facts)
    other = state.unit(action.through) if action.through is not None else None
    if other is not None and (other.side != unit.side or other.id == unit.id):
        raise IllegalActionError(
            action, "units pass only through other friendly units", movement.RULE_INTERPENETRATION
        )
    if other is not None and not (
        movement.may_interpenetrate(unit, other) or movement.passage_allowed(unit, other)
    ):
        raise IllegalActionError(
            action,
            f"{unit.name} may neither interpenetrate nor pass through {other.name}",
            movement.RULE_PASSAGE,
        )
    extra = spend_actions(state, action, unit.id, act.ActionKind.MOVE.cost)
    mark = len(dice.records)
    result = movement.move(
        unit, action.facts, dice=dice, commander_attached=leader_attached(state, unit)
    )
    events = [
        event_since("move", f"{unit.name} {result}", movement.RULE_MOVEMENT, unit.id, dice, mark)
    ]
    if result.morale is not None:
        events += move_events(
            (result.unit,), (fate_after_test(result.unit, result.morale.result),), dice
        )
    moved: tuple[Unit, ...] = (result.unit,)
    if other is not None and not movement.may_interpenetrate(unit, other):
        mark = len(dice.records)
        passage = movement.passage_of_lines(
            result.unit,
            other,
            dice=dice,
            mover_commander_attached=leader_attached(state, unit),
            static_commander_attached=leader_attached(state, other),
        )
        moved = (passage.mover, passage.static)
        events.append(
            event_since(
                "passage",
                f"{unit.name} through {other.name}: {passage}",
                movement.RULE_PASSAGE,
                unit.id,
                dice,
                mark,
            )
        )
        tested = tuple(u for u, t in zip(moved, passage.tests_by_unit, strict=True) if t)
        fates = tuple(
            fate_after_test(u, t.result)
            for u, t in zip(moved, passage.tests_by_unit, strict=True)
            if t
        )
        events += move_events(tested, fates, dice)
    return attrs.evolve(state.with_units(*moved), extra=extra), tuple(events)


def on_manoeuvre(
    state: State, action: Manoeuvre, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """About face, change formation or density, limber or unlimber: one action each (Action
    tariff)."""
    need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    allowed = (act.ActionKind.ABOUT_FACE, act.ActionKind.CHANGE_FORMATION, act.ActionKind.LIMBER)
    if action.kind not in allowed:
        raise IllegalActionError(action, f"{action.kind} is not a manoeuvre", act.RULE_TARIFF)
    after = unit
    if action.kind is act.ActionKind.LIMBER:
        if not unit.is_artillery:
            raise IllegalActionError(action, "only artillery limbers", act.RULE_TARIFF)
        flip = Formation.UNLIMBERED if unit.formation is Formation.LIMBERED else Formation.LIMBERED
        after = attrs.evolve(unit, formation=flip)
    elif action.kind is act.ActionKind.CHANGE_FORMATION:
        if (action.formation is None and action.density is None) or unit.is_artillery:
            raise IllegalActionError(
                action,
                "infantry or cavalry change to a given formation or density",
                act.RULE_TARIFF,
            )
        after = attrs.evolve(unit, formation=action.formation or unit.formation)
        if action.density is not None:
            after = with_density(after, action.density)
    extra = spend_actions(state, action, unit.id, action.kind.cost)
    event = Event("manoeuvre", f"{unit.name}: {action.kind}", act.RULE_TARIFF, unit.id)
    return attrs.evolve(state.with_units(after), extra=extra), (event,)


def on_shoot(state: State, action: Shoot, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    """Shoot at one target, or split fire between two (Shooting)."""
    need_phase(state, action, ACTIVATION)
    shooter = state.unit(action.unit_id)
    shots = [(action.target_id, action.facts)]
    if action.split_target_id is not None or action.split_facts is not None:
        if action.split_target_id is None or action.split_facts is None:
            raise IllegalActionError(
                action, "split fire names a second target and its facts", shooting.RULE_SPLIT
            )
        sizes = (action.facts.size, action.split_facts.size)
        full = shooting.shooting_size(shooter, state.extra.options)
        if None in sizes or sum(s or 0 for s in sizes) > full:
            raise IllegalActionError(
                action,
                f"split fire divides the unit's size ({full}) between the targets",
                shooting.RULE_SPLIT,
            )
        shots.append((action.split_target_id, action.split_facts))
    if shooter.is_artillery and shooter.formation is not Formation.UNLIMBERED:
        raise IllegalActionError(action, "artillery shoots unlimbered", shooting.RULE_ARTILLERY)
    targets = []
    for target_id, facts in shots:
        target = state.unit(target_id)
        if shooter.side == target.side or target.destroyed:
            raise IllegalActionError(
                action, "shoot only at an enemy unit on the table", shooting.RULE_SHOOTING
            )
        targets.append((target, facts, shooting.chosen_fire(shooter, facts)))
    cost = max(shooting.shooting_cost(fire, facts.extra_orders) for _, facts, fire in targets)
    extra = spend_actions(state, action, shooter.id, cost, shooting_now=True)
    new = attrs.evolve(state, extra=extra)
    events: list[Event] = []
    for target, facts, fire in targets:
        mark = len(dice.records)
        current = new.unit(target.id)
        shot = shooting.shoot(shooter, current, facts, dice=dice, options=extra.options)
        hit = shooting.apply_hits(current, shot.hits)
        events.append(
            event_since(
                "shooting",
                f"{shooter.name} at {target.name}: {shot}",
                shooting.RULE_SHOOTING,
                shooter.id,
                dice,
                mark,
            )
        )
        new = new.with_units(hit)
        new, risks = risk_events(new, (current,), (hit,), dice, rifles=fire is shooting.Fire.RIFLE)
        events.extend(risks)
    return new, tuple(events)


def on_rally(state: State, action: Rally, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    """Rally off one DRP (Rally)."""
    need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    if unit.disruption == 0:
        raise IllegalActionError(action, f"{unit.name} has no DRP to rally off", morale.RULE_RALLY)
    extra = spend_actions(state, action, unit.id, act.ActionKind.RALLY.cost)
    after = remove_disruption(unit, 1)
    event = Event("rally", f"{unit.name} rallies off 1 DRP", morale.RULE_RALLY, unit.id)
    return attrs.evolve(state.with_units(after), extra=extra), (event,)


def on_spend_command_point(
    state: State, action: SpendCommandPoint, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Spend a command point: an extra action, or move the commander (Command point tariff)."""
    need_phase(state, action, ACTIVATION)
    leader = state.commander(action.commander_id)
    entry = activity_of(state, leader.id)
    if leader.removed:
        raise IllegalActionError(
            action, f"{leader.name} has been removed from the battle", commanders.RULE_RISK
        )
    if action.commander_id not in state.extra.active or entry is None:
        raise IllegalActionError(action, f"{leader.name} is not active now", command.RULE_CP_TARIFF)
    if entry.command_points < 1:
        raise IllegalActionError(
            action, f"{leader.name} has no command points left", command.RULE_CP_TARIFF
        )
    extra = with_activity(state.extra, attrs.evolve(entry, command_points=entry.command_points - 1))
    new = state
    if action.use.needs_radius and action.outside_radius:
        raise IllegalActionError(
            action,
            "command points are used on units within the command radius",
            command.RULE_RADIUS,
        )
    if action.use is command.CommandPointUse.EXTRA_ACTION:
        target = activated_entry(state, action.unit_id or "")
        if target is None or target.commander_id != leader.id:
            raise IllegalActionError(
                action,
                "an extra action goes to a unit this commander activated this turn",
                command.RULE_CP_TARIFF,
            )
        extra = with_activated(extra, attrs.evolve(target, actions=target.actions + 1))
        text = f"{leader.name} gives {action.unit_id} an extra action"
    elif action.use is command.CommandPointUse.MOVE_COMMANDER:
        if action.attach_to is not None:
            unit = state.unit(action.attach_to)
            if unit.side != leader.side:
                raise IllegalActionError(
                    action, "commanders attach to their own side's units", command.RULE_CP_TARIFF
                )
        new = state.with_commanders(attrs.evolve(leader, attached_to=action.attach_to))
        where = f"attaches to {action.attach_to}" if action.attach_to else "moves unattached"
        text = f'{leader.name} moves {command.COMMANDER_MOVE}" and {where}'
    else:
        raise IllegalActionError(
            action, "a unit of another brigade is activated with Activate", command.RULE_CP_TARIFF
        )
    return attrs.evolve(new, extra=extra), (
        Event("command point", text, command.RULE_CP_TARIFF, leader.id),
    )
