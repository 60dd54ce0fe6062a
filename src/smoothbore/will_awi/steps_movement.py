"""Phase C (Rules - Move Sequence C, Rules - Movement): the moves of all other units, formation
changes, limbering, Highland charges and the generals' rides.

"All other units": a unit that rallied in A (it halts shaken for the move, FAQs (1) Q1) or
routed or retired in B does not move again in C."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from smoothbore.core import Deferred, Log, enter_phase, revised
from smoothbore.table import MoveTrace

from . import rules
from .actions import (
    NO_PLAN,
    ChangeFormation,
    Deploy,
    EndPhase,
    HighlandChargeMove,
    Limber,
    Move,
    MoveAway,
    MoveGeneral,
)
from .fortifications import Defence
from .generals import general_move
from .movement import (
    FOOT_AND_HORSE,
    SLOW_DRAGOONS,
    WHEELED,
    Crossing,
    Leg,
    MoveCheck,
    MovePlan,
    check_formation_change,
    check_limber,
    check_move,
    move_distance,
    retire_deduction,
)
from .narration import degrees, inches, listed, place, stopper
from .options import Options
from .phases import D
from .positions import Place, kept_traces
from .situations import (
    AHEAD,
    MEASURED,
    WAYS,
    destinations_toward,
    goes_ahead,
    measures_ride,
    plan_of,
    relaid_clash,
    ride,
    rush_end,
    units_within_ride,
    worked_out,
)
from .state import (
    State,
    building_entered,
    command_rule,
    illegal,
    mark_done,
    own_unit,
    with_extra,
)
from .units import Nationality, Status, TroopType, Unit
from .variants import highland_charge_move


def check_mover(state: State, unit_id: str, action: object) -> Unit:
    """The unit of the moving player that may act in C: not routing, not rallied in A, not
    moved in B, not yet moved in C, with an order when command and control is on; a Highland
    charge only makes its charge move."""
    unit = state.unit(unit_id)
    extra = state.extra
    if unit.routing:
        raise illegal(action, f"{unit.name} is routing: it moves in B")
    if unit.id in extra.rallied:
        raise illegal(action, f"{unit.name} rallied and halts shaken for this move", rules.FAQ1)
    if unit.id in extra.compelled:
        raise illegal(action, f"{unit.name} made its compulsory move in B: C moves all other "
                      "units")
    if unit.id in extra.done:
        raise illegal(action, f"{unit.name} has already moved")
    if unit.highland_charge:
        # A Highland charge is a compulsory move: it needs no order.
        if not isinstance(action, HighlandChargeMove):
            raise illegal(action, "a Highland charge must move at the enemy", rules.FORTY_FIVE)
        return unit
    if state.options.command_control and unit.id not in extra.ordered:
        raise illegal(action, f"{unit.name} has no order to move", command_rule(state))
    return unit


def movers(state: State, *, highland: bool = False) -> tuple[Unit, ...]:
    """The moving player's units that might still act in C (the cheap part of
    ``check_mover``: candidates for the steps of C): ordered ones under command and control,
    and only those in a Highland charge (``highland``) or only the others. Worked out once
    per state (every action type of C asks)."""
    return state.derived(_highland_movers if highland else _movers)


def _movers(state: State) -> tuple[Unit, ...]:
    return tuple(movers_afresh(state))


def _highland_movers(state: State) -> tuple[Unit, ...]:
    return tuple(movers_afresh(state, highland=True))


def movers_afresh(state: State, *, highland: bool = False) -> Iterator[Unit]:
    """``movers`` worked out afresh."""
    extra = state.extra
    moving, done, rallied, compelled = extra.moving, extra.done, extra.rallied, extra.compelled
    ordered = extra.ordered if state.options.command_control else None
    for unit in state.units:
        if (
            unit.side == moving
            and unit.highland_charge is highland
            and (unit.status is Status.STEADY or unit.status is Status.SHAKEN)
            and unit.id not in done
            and unit.id not in rallied
            and unit.id not in compelled
            and (highland or ordered is None or unit.id in ordered)
        ):
            yield unit


def full_moves(unit: Unit, options: Options) -> tuple[int, ...]:
    """Every full move in open ground the move tables give the unit's kind (line and column,
    or limbered and deployed): the moves worth offering, each legal when it is within the
    unit's present allowance."""
    values: tuple[int | None, ...]
    if unit.troop in WHEELED:
        limbered, deployed, _ = WHEELED[unit.troop]
        if unit.troop is TroopType.GRASSHOPPER_GUN:
            deployed = options.grasshopper_deployed_move
        values = (limbered, deployed)
    elif unit.troop.is_cavalry and options.variant.slow_dragoons and (
        unit.dragoons or unit.nationality is Nationality.BRITISH
    ):
        values = SLOW_DRAGOONS[:2]
    else:
        values = FOOT_AND_HORSE[unit.arm][:2]
    return tuple(sorted({v for v in values if v}))


def _holds(plan: MovePlan) -> bool:
    return not plan.legs and not plan.crossings and abs(plan.facing_change) <= 45


# --- Move ---------------------------------------------------------------------------------
def candidates_move(state: State) -> Iterator[Move | Deferred[Move]]:
    """Each unit that may move: standing, or a full move in open ground; on a table,
    standing or going to one of a few places the rules let it reach
    (``situations.destinations``), each way's worked out only when random play draws it (a
    listing of them all works every mover's ways out at once: ``_moves_to``)."""
    table = state.extra.table
    if table is not None:
        going = tuple((unit, float(_allowance(unit, state.options))) for unit in movers(state)
                      if not (unit.busy_moves or unit.immobilised))
    at = 0
    for unit in movers(state):
        yield _stand(unit.id)
        if unit.busy_moves or unit.immobilised:
            continue
        if table is not None:
            for way, bound in WAYS.items():
                yield Deferred(bound, functools.partial(_moves_to, state, going, at, way))
            at += 1
            continue
        allowance = _allowance(unit, state.options)
        for distance in full_moves(unit, state.options):
            if distance <= allowance:
                yield Move(unit.id, MovePlan(legs=(Leg(float(distance)),)))


@functools.lru_cache(maxsize=1024)
def _stand(unit_id: str) -> Move:
    """The unit stands (one action per unit id, shared: every step of C offers it)."""
    return Move(unit_id)


@functools.lru_cache(maxsize=1024)
def _allowance(unit: Unit, options: Options) -> int:
    """``move_distance`` in the unit's present mode, kept by unit and options."""
    return move_distance(unit, options=options)


LISTING = 2
"""How many movers' ways before this one, found already worked out on this table, show a
listing of every move (``legal_actions``), not a random draw of one: the rest are then
worked out at once (``situations.goes_ahead``)."""


LISTING = 2
"""How many movers' ways before this one, found already worked out on this table, show a
listing of every move (``legal_actions``), not a random draw of one: the rest are then
worked out at once (``situations.goes_ahead``)."""


def _moves_to(state: State, going: tuple[tuple[Unit, float], ...], at: int,
              way: str) -> tuple[Move, ...]:
    """The moves of the mover ``going[at]`` (each mover that may go somewhere, with its
    allowance, in the candidates' order) to each of its destinations one way
    (``destinations_toward``). When its way ahead is not yet worked out on this table and
    those of the ``LISTING`` movers before it are, the ways of it and every mover after it
    are worked out at once (``goes_ahead``); the answers are those worked out one by one."""
    unit, allowance = going[at]
    if way == AHEAD and at >= LISTING and not worked_out(state, unit, allowance) and all(
            worked_out(state, *going[at - k]) for k in range(1, LISTING + 1)):
        goes_ahead(state, going[at:])
    return tuple(Move(unit.id, to=place)
                 for place in destinations_toward(state, unit, allowance, way))


@attrs.frozen
class MoveRuling:
    """What a move's check measured, handed to its handler (engine contract v2): the
    ``plan`` (on a table: read off the route), and for a move that goes somewhere the
    allowance it fits (``checked``) and the building it enters (None: none, or it holds)."""

    plan: MovePlan
    checked: MoveCheck | None = None
    building: Defence | None = None


def check_move_action(state: State, action: Move) -> MoveRuling:
    """C: a mover (``check_mover``) whose plan fits its allowance, entering a building only
    where there is room; standing is always allowed. The ruling is what was measured."""
    unit = check_mover(state, action.unit, action)
    plan = plan_for(state, unit, action)
    if _holds(plan):
        return MoveRuling(plan)
    checked = check_move(unit, plan, options=state.options, action=action)
    return MoveRuling(plan, checked, building_entered(state, unit, action.enters, action))


def plan_for(state: State, unit: Unit, action: Move | MoveAway,
             rule: str = rules.MOVEMENT) -> MovePlan:
    """The plan of a move (or of the layers' move away, ``rule`` naming its section): the
    player's, or on a table the plan of the route to ``action.to`` as the table measures it
    (the action then gives no plan); the check and the handler both read it here."""
    if state.extra.table is None:
        if action.to is not None:
            raise illegal(action, "to: a destination needs a table (give a plan)",
                          rules.MOVEMENT)
        return action.plan
    if action.plan != NO_PLAN or action.enters is not None:
        raise illegal(action, MEASURED, rule)
    if action.to is None:
        return action.plan
    return plan_of(state, unit, action.to, action)


def apply_move(state: State, action: Move, log: Log, ruling: MoveRuling) -> State:
    """Move (or stand: a busy unit spends one of its busy moves), as the check measured it
    (``ruling``)."""
    unit = state.unit(action.unit)
    plan, checked, building = ruling.plan, ruling.checked, ruling.building
    if checked is None and action.to is None:
        if unit.busy_moves:
            state = state.with_units(revised(unit, busy_moves=unit.busy_moves - 1))
        log.add("move", f"{unit.name} holds its position", rules.MOVEMENT, unit.id)
        return mark_done(state, unit.id)
    if checked is None:  # a turn of 45 degrees or less where it stands, read off the table
        checked = check_move(unit, plan, options=state.options, action=action)
    if checked.busy_after != unit.busy_moves:
        state = state.with_units(revised(unit, busy_moves=checked.busy_after))
    text = move_text(unit, plan, checked, building)
    if action.to is not None:
        state, text = placed_at(state, unit, action.to, text)
    log.add("move", text, rules.MOVEMENT, unit.id)
    return mark_done(state, unit.id)


def placed_at(state: State, unit: Unit, to: Place, text: str) -> tuple[State, str]:
    """The footprint put down at its destination, the move traced and said (``text`` with
    where it ended)."""
    table = state.extra.table
    assert table is not None
    start = table.footprint(unit.id)
    x, y, facing = to
    trace = MoveTrace(unit.id, (start.centre, (x, y)))
    moved = table.placed(start.moved_to(x, y, facing)).with_traces(*kept_traces(table), trace)
    where = f" to {place(x, y, facing)}"
    return with_extra(state, table=moved), text + where


def move_text(
    unit: Unit, plan: MovePlan, checked: MoveCheck, building: Defence | None = None
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
    if plan.retiring:
        gone = sum(leg.inches for leg in plan.legs)
        text = (f"{name} retires {inches(gone)}, keeping its facing (using "
                f"{inches(checked.used)} of its {inches(checked.allowance)}, "
                f"{inches(retire_deduction(unit))} of it for retiring)")
    else:
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


# --- ChangeFormation and Limber --------------------------------------------------------------
def check_idle_mover(state: State, unit_id: str, action: object) -> Unit:
    """A mover that is not busy: formation changes and limbering take the whole move."""
    unit = check_mover(state, unit_id, action)
    if unit.busy_moves:
        raise illegal(action, f"{unit.name} is busy", rules.MOVEMENT)
    return unit


def candidates_change_formation(state: State) -> Iterator[ChangeFormation]:
    """Each foot or cavalry unit that may move: line to column or back."""
    for unit in movers(state):
        if unit.troop.is_foot or unit.troop.is_cavalry:
            yield ChangeFormation(unit.id)


def check_change_formation(state: State, action: ChangeFormation) -> None:
    """C, note (b): an idle mover of foot or cavalry, no base moving further than a line
    move."""
    unit = check_idle_mover(state, action.unit, action)
    formation = check_formation_change(unit, action.base_distance, action)
    _check_relaid(state, revised(unit, formation=formation), action)


def _check_relaid(state: State, after: Unit, action: object) -> None:
    """On a table, a formation change or limbering may not leave the unit's new footprint on
    another unit or within 1" of an enemy (Move Sequence C; W49)."""
    if state.extra.table is None:
        return
    clash = relaid_clash(state, after)
    if clash:
        raise illegal(action, f"{after.name} cannot change formation here: {clash}",
                      rules.SEQUENCE)


def apply_change_formation(state: State, action: ChangeFormation, log: Log) -> State:
    """Form column from line, or line from column: the unit's move."""
    unit = state.unit(action.unit)
    formation = check_formation_change(unit, action.base_distance, action)
    log.add("formation", f"{unit.name} forms {formation.value}", rules.MOVEMENT, unit.id)
    return mark_done(state.with_units(revised(unit, formation=formation)), unit.id)


def candidates_limber(state: State) -> Iterator[Limber]:
    """Each deployed gun that may move: limber it."""
    for unit in movers(state):
        if unit.troop.is_gun and not unit.limbered:
            yield Limber(unit.id)


def candidates_deploy(state: State) -> Iterator[Deploy]:
    """Each limbered gun that may move: deploy it."""
    for unit in movers(state):
        if unit.troop.is_gun and unit.limbered:
            yield Deploy(unit.id)


def check_limber_action(state: State, action: Limber | Deploy) -> None:
    """C, note (c): an idle gun, deployed to limber or limbered to deploy, whose new
    footprint is clear on a table."""
    unit = check_idle_mover(state, action.unit, action)
    check_limber(unit, action)
    if unit.limbered is isinstance(action, Limber):
        have = "limbered" if unit.limbered else "deployed"
        raise illegal(action, f"{unit.name} is already {have}", rules.MOVEMENT_WHEELED)
    _check_relaid(state, revised(unit, limbered=not unit.limbered), action)


def apply_limber(state: State, action: Limber | Deploy, log: Log) -> State:
    """Limber or deploy the gun: a whole move stationary."""
    unit = state.unit(action.unit)
    limbered = isinstance(action, Limber)
    verb = "limbers" if limbered else "deploys"
    log.add("limber", f"{unit.name} {verb}", rules.MOVEMENT_WHEELED, unit.id)
    return mark_done(state.with_units(revised(unit, limbered=limbered)), unit.id)


# --- HighlandChargeMove ------------------------------------------------------------------
def candidates_highland_charge_move(state: State) -> Iterator[HighlandChargeMove]:
    """Each unit in a Highland charge still to make its charge move."""
    for unit in movers(state, highland=True):
        yield HighlandChargeMove(unit.id)


def check_highland_charge_move(state: State, action: HighlandChargeMove) -> None:
    """C ('45): a mover in a Highland charge."""
    unit = check_mover(state, action.unit, action)
    if not unit.highland_charge:
        raise illegal(action, f"{unit.name} is not in a Highland charge", rules.FORTY_FIVE)


def apply_highland_charge_move(state: State, action: HighlandChargeMove, log: Log) -> State:
    """Its move plus 1d6 inches, all of it at the nearest enemy."""
    unit = state.unit(action.unit)
    distance = highland_charge_move(unit, dice=log.dice, options=state.options)
    text = f"{unit.name} makes its Highland charge: {inches(distance)} at the nearest enemy"
    table = state.extra.table
    rush = None if table is None else rush_end(state, unit, float(distance))
    if table is not None and rush is not None:
        end = rush.end
        start = table.footprint(unit.id)
        trace = MoveTrace(unit.id, (start.centre, end.centre))
        state = with_extra(state, table=table.placed(end).with_traces(
            *kept_traces(table), trace))
        text = rush_text(state, unit, float(distance), rush.distance, rush.stopped_by,
                         place(end.x, end.y, end.facing))
    log.add("move", text, rules.FORTY_FIVE, unit.id)
    return mark_done(state, unit.id)


def rush_text(state: State, unit: Unit, allowance: float, went: float, by: str,
              where: str) -> str:
    """A Highland charge on a table as the referee measures it: the distance moved (of the
    rolled allowance when something stopped it short: the enemy it reaches, the ground or
    the table edge) and where it ends."""
    names = {u.id: u.name for u in state.units}
    if not by:
        return (f"{unit.name} makes its Highland charge at the nearest enemy: "
                f"{inches(went)}, to {where}")
    reached = by in names and state.unit(by).side != unit.side
    why = f", reaching {names[by]}" if reached else f": {stopper(by, names)} stops it"
    if inches(went) == inches(0.0):  # stopped where it stands: no move of nothing said
        return (f"{unit.name} makes its Highland charge at the nearest enemy but cannot go "
                f"forward of its {inches(allowance)}, at {where}{why}")
    return (f"{unit.name} makes its Highland charge at the nearest enemy: {inches(went)} of "
            f"its {inches(allowance)}, to {where}{why}")


# --- MoveGeneral -------------------------------------------------------------------------
def candidates_move_general(state: State) -> Iterator[MoveGeneral]:
    """Each active general of the moving side still to move: to join any of his side's units,
    or to ride alone."""
    moving = state.extra.moving
    own = [u.id for u in state.units if u.side == moving and u.on_table]
    order: dict[str, int] | None = None
    for g in state.commanders:
        if g.side == moving and g.active and "general:" + g.id not in state.extra.done:
            yield _ride_to(g.id, "")
            limit = general_move(g)
            near = units_within_ride(state, g.id, limit)
            if near is None:  # the players measure: every unit of his side
                for unit_id in own:
                    yield _ride_to(g.id, unit_id)
                continue
            if order is None:
                order = {unit_id: i for i, unit_id in enumerate(own)}
            for unit_id in sorted((u for u in near if u in order), key=order.__getitem__):
                yield _ride_to(g.id, unit_id)


@functools.lru_cache(maxsize=4096)
def _ride_to(general_id: str, unit_id: str) -> MoveGeneral:
    """The general rides to join the unit ("": alone), as the table measures it (one action
    per general and unit, shared: every step of C offers them)."""
    return MoveGeneral(general_id, 0.0, unit_id)


def check_move_general(state: State, action: MoveGeneral) -> None:
    """C: an active general of the moving side, once, up to 21" (half with a light wound),
    joining a unit of his side on the table."""
    general = state.commander(action.general)
    if general.side != state.extra.moving or not general.active:
        raise illegal(action, f"{general.name} cannot move now", rules.MOVEMENT)
    if "general:" + general.id in state.extra.done:
        raise illegal(action, f"{general.name} has already moved", rules.MOVEMENT)
    limit = general_move(general)
    measured = measures_ride(state, general.id)
    if measured and action.inches:
        raise illegal(action, "the table measures this: the ride from where the general is "
                      "(leave inches at 0)", rules.MOVEMENT)
    if not 0 <= action.inches <= limit:
        raise illegal(action, f'generals move up to {inches(limit)}', rules.MOVEMENT)
    if action.attach_to:
        unit = own_unit(state, action.attach_to, general.side, action)
        gap = ride(state, general.id, unit.id) if measured else None
        if measured and gap is None:
            raise illegal(action, f"{unit.name} is not on the table", rules.MOVEMENT)
        if gap is not None and gap > limit:
            raise illegal(action, f"{unit.name} is {inches(gap)} from {general.name}: generals "
                          f"move up to {inches(limit)}", rules.MOVEMENT)


def apply_move_general(state: State, action: MoveGeneral, log: Log) -> State:
    """The general rides and joins a unit, or rides alone."""
    general = state.commander(action.general)
    ridden = ride(state, general.id, action.attach_to)
    distance = action.inches if ridden is None else ridden
    ride_text = f"rides {inches(distance)}" if distance else ""
    joined = state.unit(general.attached_to) if general.attached_to else None
    with_unit = joined.name if joined is not None and joined.on_table else ""
    if action.attach_to:
        unit = state.unit(action.attach_to)
        if action.attach_to != general.attached_to:
            text = f"{general.name} {ride_text + ' and ' if ride_text else ''}joins {unit.name}"
        elif ride_text:
            text = f"{general.name} {ride_text} and rejoins {unit.name}"
        else:
            text = f"{general.name} stays with {unit.name}"
    elif ride_text:
        text = f"{general.name} {ride_text}"
        if with_unit:
            text += f", leaving {with_unit}"
    elif with_unit:
        text = f"{general.name} leaves {with_unit}"
    else:
        text = f"{general.name} stays where he is"
    log.add("general", text, rules.MOVEMENT, general.id)
    state = state.with_commanders(revised(general, attached_to=action.attach_to))
    return mark_done(state, "general:" + general.id)


# --- the end of C ------------------------------------------------------------------------
def check_end_c(state: State, action: EndPhase) -> None:
    """C ends once every Highland charge that can move has made its charge move."""
    unmoved = [u.name for u in movers(state, highland=True)]
    if unmoved:
        raise illegal(
            action, f"{listed(unmoved)} must make the Highland charge move", rules.FORTY_FIVE
        )


def apply_end_c(state: State, action: EndPhase, log: Log) -> State:
    """On to D; a busy unit that did not act spends one of its busy moves."""
    busy = tuple(
        revised(u, busy_moves=u.busy_moves - 1)
        for u in state.units_of(state.extra.moving)
        if u.busy_moves and u.id not in state.extra.done
    )
    state = state.with_units(*busy) if busy else state
    return enter_phase(state, D)
