"""Phases A and B (Rules - Move Sequence): the moving player's morale tests, then the
compulsory rout and retire moves."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from smoothbore.core import Log, enter_phase, revised
from smoothbore.table import Footprint, MoveTrace

from . import rules
from .actions import CompulsoryMove, EndPhase, TestMorale
from .charges import test_surrender
from .morale import (
    RoutingResult,
    ShakenResult,
    apply_routing_result,
    apply_shaken_result,
    test_routing,
    test_shaken,
)
from .movement import retire_distance, rout_distance
from .narration import inches, place, short_of
from .phases import B, C
from .positions import kept_traces
from .situations import MEASURED, Retirement, RoutSituation, retirement, rout_facts
from .state import (
    State,
    building_entered,
    compulsory_units,
    illegal,
    mark_done,
    needs_test,
    rank_with,
    with_extra,
)
from .units import Status, TroopType, Unit
from .variants import end_highland_charge

SHAKEN_TEXT: Mapping[ShakenResult, str] = MappingProxyType({
    ShakenResult.CARRY_ON: "carries on",
    ShakenResult.RETIRE: "must retire a full move",
    ShakenResult.ROUT: "routs",
    ShakenResult.ROUT_LOSE_1: "routs, losing 1 strength point",
})
"""The result of a shaken test as the narration says it (Testing shaken units)."""

ROUTING_TEXT: Mapping[RoutingResult, str] = MappingProxyType({
    RoutingResult.HALT_SHAKEN: "halts, shaken, facing as it chooses: it does not move this move",
    RoutingResult.CONTINUE: "routs on",
    RoutingResult.CONTINUE_LOSE_1: "routs on, losing 1 strength point",
})
"""The result of a routing test as the narration says it (Testing routing units; FAQs (1)
Q1: a rallied unit halts shaken for that move)."""


# --- A: morale tests ------------------------------------------------------------------------
def candidates_test_morale(state: State) -> Iterator[TestMorale]:
    """Every shaken or routing unit of the moving player still to test."""
    for unit in needs_test(state):
        yield TestMorale(unit.id)


def check_test_morale(state: State, action: TestMorale) -> None:
    """A: the unit is the moving player's, shaken or routing, and has not tested (nor routed
    in the enemy's charge or melee phases: note (a))."""
    unit = state.unit(action.unit)
    if unit not in needs_test(state):
        raise illegal(action, f"{unit.name} has no test to take", rules.SEQUENCE_NOTE_A)


def apply_test_morale(state: State, action: TestMorale, log: Log) -> State:
    """Roll the shaken or routing test and apply the result; a unit that rallies halts for
    the move."""
    unit = state.unit(action.unit)
    opts = state.options
    rank = rank_with(state, unit.id)
    if unit.shaken:
        result = test_shaken(unit, rank, dice=log.dice, in_open=action.in_open, options=opts)
        after = apply_shaken_result(unit, result, opts)
        adverse = result is not ShakenResult.CARRY_ON
        text = f"{unit.name} tests shaken and {SHAKEN_TEXT[result]}"
        log.add("morale", text, rules.MORALE_SHAKEN, unit.id,
                facts={"test": "shaken", "result": result.value, "status": after.status.value})
        if result is ShakenResult.ROUT_LOSE_1 and after.status is Status.ELIMINATED:
            log.add(
                "eliminated",
                f"{unit.name} falls to 0 strength points and is removed",
                rules.INTRO_STRENGTH,
                unit.id,
            )
    else:
        routing = test_routing(unit, rank, dice=log.dice, options=opts)
        after = apply_routing_result(unit, routing)
        adverse = False
        rule = rules.FAQ1 if routing is RoutingResult.HALT_SHAKEN else rules.MORALE_ROUTING
        text = f"{unit.name} tests routing and {ROUTING_TEXT[routing]}"
        log.add("morale", text, rule, unit.id,
                facts={"test": "routing", "result": routing.value,
                       "status": after.status.value})
        if routing is RoutingResult.HALT_SHAKEN:
            state = with_extra(state, rallied=state.extra.rallied | {unit.id})
        if routing is RoutingResult.CONTINUE_LOSE_1 and after.status is Status.ELIMINATED:
            log.add(
                "eliminated",
                f"{unit.name} falls to 0 strength points and is removed",
                rules.INTRO_STRENGTH,
                unit.id,
            )
    after = end_highland_charge(after, after.strength < unit.strength, adverse)
    if after.routing and unit.troop is TroopType.WAGON:
        after = revised(after, immobilised=True)
    return mark_done(state.with_units(after), unit.id)


def candidates_end(state: State) -> Iterator[EndPhase]:
    """Ending the phase is always worth offering; its check says when it is allowed."""
    yield EndPhase()


def check_end_a(state: State, action: EndPhase) -> None:
    """A ends once every shaken and routing unit of the moving player has tested."""
    if needs_test(state):
        raise illegal(action, "every shaken and routing unit of the moving player must test")


def apply_end_a(state: State, action: EndPhase, log: Log) -> State:
    """On to B."""
    return enter_phase(state, B)


# --- B: compulsory moves --------------------------------------------------------------------
def candidates_compulsory_move(state: State) -> Iterator[CompulsoryMove]:
    """Each unit that must rout, at rout speed; each unit that must retire, keeping its
    facing or turning about."""
    for unit in compulsory_units(state):
        yield CompulsoryMove(unit.id)
        if not unit.routing:
            yield CompulsoryMove(unit.id, about_face=True)


def check_compulsory_move(state: State, action: CompulsoryMove) -> None:
    """B: the unit must rout or retire and has not yet moved; a rout goes at rout speed away
    from the enemy (a blocked rout does not move); a retirement is a full move (less the
    deduction for keeping its facing) with none of a rout's facts."""
    unit = state.unit(action.unit)
    if unit not in compulsory_units(state):
        raise illegal(action, f"{unit.name} has no compulsory move")
    action = measured_move(state, action)
    building_entered(state, unit, action.enters, action)
    if unit.routing:
        if action.about_face:
            raise illegal(action, "a routing unit turns to rout: about_face is for retirements",
                          rules.ROUT)
        if not action.blocked:
            rout_distance(
                unit, action.terrain, ends_farther=action.ends_farther,
                options=state.options, action=action,
            )
        return
    if action.blocked or action.enemy_within_6 or action.leaves_table:
        raise illegal(action, f"{unit.name} retires: blocked, enemy_within_6 and leaves_table "
                      "are facts of a rout", rules.MORALE_SHAKEN)
    retire_distance(unit, action.about_face, action.terrain, options=state.options,
                    action=action)


def apply_compulsory_move(state: State, action: CompulsoryMove, log: Log) -> State:
    """Make the rout (testing surrender when it cannot move with an enemy near) or the
    retirement; either way the unit has used its move (it does not move again in C)."""
    unit = state.unit(action.unit)
    action = measured_move(state, action)
    building = building_entered(state, unit, action.enters, action)
    into = "" if building is None else f" into the {building.work.value}"
    state, went = _moved_on_table(state, unit, action)
    if unit.routing:
        if action.blocked:
            if action.enemy_within_6 and test_surrender(unit, dice=log.dice, why="cannot move"):
                state = state.with_units(revised(unit, status=Status.SURRENDERED))
                log.add(
                    "surrender", f"{unit.name} cannot move and surrenders", rules.SURRENDER,
                    unit.id, facts={"test": "surrender", "result": "surrenders"},
                )
            elif action.enemy_within_6:
                log.add("rout", f"{unit.name} cannot move", rules.ROUT, unit.id,
                        facts={"test": "surrender", "result": "does not surrender"})
            else:
                log.add("rout", f"{unit.name} cannot move", rules.ROUT, unit.id)
        else:
            distance = rout_distance(unit, action.terrain, options=state.options)
            if action.leaves_table:
                state = state.with_units(revised(unit, status=Status.OFF_TABLE))
                text = f"{unit.name} routs off the table"
            else:
                text = f"{unit.name} routs {inches(distance)}{into}"
            log.add("rout", text, rules.ROUT, unit.id)
    else:
        distance = retire_distance(unit, action.about_face, action.terrain, options=state.options)
        state = state.with_units(revised(unit, must_retire=False))
        how, short = inches(distance), ""
        if went is not None and distance:
            how, short = short_of(distance, went.distance, went.stopped_by,
                                  {u.id: u.name for u in state.units})
        if action.about_face:
            text = f"{unit.name} turns about and retires {how}{into}{short}"
        elif distance:
            text = f"{unit.name} retires {how}{into}, keeping its facing{short}"
        else:
            text = f"{unit.name} keeps its facing, which takes its whole retirement"
        log.add("retire", text, rules.MORALE_SHAKEN, unit.id)
    state = with_extra(state, compelled=state.extra.compelled | {unit.id})
    return mark_done(state, unit.id)


_DEFAULT_FACTS = CompulsoryMove("-")


def measured_move(state: State, action: CompulsoryMove) -> CompulsoryMove:
    """The compulsory move with the facts of the table (the action must give none but
    ``about_face``): a rout that finds no way further from every visible enemy is blocked
    (Rules - Charging: Rout), one that runs off the table leaves it, an enemy within 6" is
    measured; the ground is open (W49). Without a table, the action as given."""
    if state.extra.table is None:
        return action
    given = revised(action, unit="-", about_face=False)
    if given != _DEFAULT_FACTS:
        raise illegal(action, MEASURED, rules.ROUT)
    unit = state.unit(action.unit)
    if not unit.routing or unit.troop is TroopType.WAGON:
        return action
    distance = float(rout_distance(unit, options=state.options, action=action))
    found = rout_facts(state, unit, distance)
    return revised(action, blocked=found.end is None and not found.leaves_table,
                        enemy_within_6=found.enemy_within_6, leaves_table=found.leaves_table)


def _moved_on_table(state: State, unit: Unit,
                    action: CompulsoryMove) -> tuple[State, Retirement | None]:
    """On a table, the footprint of a unit that routs or retires goes where the move ends
    (a unit routing off the table is taken off by the table's sync); with the retirement
    as the table found it."""
    table = state.extra.table
    if table is None or (unit.troop is TroopType.WAGON and unit.routing):
        return state, None
    if unit.routing:
        if action.blocked or action.leaves_table:
            return state, None
        return _ran(state, unit.id, _rout_on_table(state, unit).end), None
    distance = float(retire_distance(unit, action.about_face, options=state.options))
    went = retirement(state, unit, distance, action.about_face)
    return _ran(state, unit.id, went.end), went


def _rout_on_table(state: State, unit: Unit) -> RoutSituation:
    """The rout of ``unit`` at rout speed as the table finds it (Rules - Charging: Rout)."""
    return rout_facts(state, unit, float(rout_distance(unit, options=state.options)))


def _ran(state: State, unit_id: str, end: Footprint | None) -> State:
    """The unit's footprint placed where its move ends, with a trace (None: it stays)."""
    table = state.extra.table
    if table is None or end is None:
        return state
    trace = MoveTrace(unit_id, (table.footprint(unit_id).centre, end.centre))
    return with_extra(state, table=table.placed(end).with_traces(*kept_traces(table), trace))


def rout_at_once(state: State, unit_id: str, log: Log) -> State:
    """A unit that routs at its charged test (G) or in a melee (J) routs then (Move Sequence
    H, J: "immediately rout"): on a table it makes the rout move of phase B at once, at rout
    speed away from every enemy it sees, or off its side's edge (then out of the battle);
    when no way leaves it further from every visible enemy it cannot move and stays where
    it is. Routed wagons are immobilised (note (h)); without a table the players move it."""
    unit = state.unit(unit_id)
    table = state.extra.table
    if table is None or not unit.on_table or not unit.routing or unit.troop is TroopType.WAGON:
        return state
    found = _rout_on_table(state, unit)
    if found.leaves_table:
        state = state.with_units(revised(unit, status=Status.OFF_TABLE))
        text = f"{unit.name} routs off the table"
    elif found.end is None:
        text = (f"{unit.name} cannot rout: no way takes it further from every enemy it sees, "
                "so it stays where it is")
    else:
        start = table.footprint(unit.id)
        state = _ran(state, unit.id, found.end)
        text = _rout_text(state, unit, start, found,
                          float(rout_distance(unit, options=state.options)))
    log.add("rout", text, rules.ROUT, unit.id)
    return state


def _rout_text(state: State, unit: Unit, start: Footprint, found: RoutSituation,
               speed: float) -> str:
    """A rout at once as the referee measures it: how far the centre went and where the unit
    ends, facing the way it ran; the rout speed too when it went less, and the unit it
    stopped short of, not to end on it (W24, table T21)."""
    end = found.end
    assert end is not None
    went = math.dist(start.centre, end.centre)
    of = "" if went >= speed - 1e-6 else f" of its {inches(speed)} rout"
    short = (f", stopped short of {state.unit(found.stopped_by).name}, not to end on it"
             if found.stopped_by else "")
    return f"{unit.name} routs {inches(went)}{of} to {place(end.x, end.y, end.facing)}{short}"


def check_end_b(state: State, action: EndPhase) -> None:
    """B ends once every routing and retiring unit has moved."""
    if compulsory_units(state):
        raise illegal(action, "every routing or retiring unit must move first")


def apply_end_b(state: State, action: EndPhase, log: Log) -> State:
    """On to C; note (a)'s mark and the retirement orders of the moving side are spent."""
    cleared = tuple(
        revised(u, routed_last_move=False, must_retire=False)
        for u in state.units_of(state.extra.moving)
        if u.routed_last_move or u.must_retire
    )
    state = state.with_units(*cleared) if cleared else state
    return enter_phase(state, C)
