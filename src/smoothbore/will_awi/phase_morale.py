"""Phases A and B (Rules - Move Sequence): the moving player's morale tests and the compulsory
rout and retire moves."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

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
from .movement import move_distance, rout_move
from .turn_effects import Handler, Log, enter_building, illegal, inches, own_unit
from .turn_state import (
    A,
    B,
    C,
    WillState,
    compulsory_units,
    mark_done,
    needs_test,
    rank_with,
    with_extra,
)
from .units import Status, TroopType
from .variants import end_highland_charge

SHAKEN_TEXT = MappingProxyType({
    ShakenResult.CARRY_ON: "carries on",
    ShakenResult.RETIRE: "must retire a full move",
    ShakenResult.ROUT: "routs",
    ShakenResult.ROUT_LOSE_1: "routs, losing 1 strength point",
})
"""The result of a shaken test as the narration says it (Testing shaken units)."""

ROUTING_TEXT = MappingProxyType({
    RoutingResult.HALT_SHAKEN: "halts, shaken",
    RoutingResult.CONTINUE: "routs on",
    RoutingResult.CONTINUE_LOSE_1: "routs on, losing 1 strength point",
})
"""The result of a routing test as the narration says it (Testing routing units)."""


def _test_morale(state: WillState, action: TestMorale, log: Log) -> WillState:
    unit = own_unit(state, action.unit, state.extra.moving, action)
    if unit not in needs_test(state):
        raise illegal(action, f"{unit.name} has no test to take", rules.SEQUENCE_NOTE_A)
    opts = state.extra.options
    rank = rank_with(state, unit.id)
    if unit.shaken:
        result = test_shaken(unit, rank, dice=log.dice, in_open=action.in_open, options=opts)
        after = apply_shaken_result(unit, result, opts)
        adverse = result is not ShakenResult.CARRY_ON
        text = f"{unit.name} tests shaken and {SHAKEN_TEXT[result]}"
        log.add("morale", text, rules.MORALE_SHAKEN, unit.id)
        if result is ShakenResult.ROUT_LOSE_1 and after.status is Status.ELIMINATED:
            log.add(
                "eliminated",
                f"{unit.name} falls to 0 strength points and is removed",
                rules.INTRO_STRENGTH,
                unit.id,
            )
    else:
        r = test_routing(unit, rank, dice=log.dice, options=opts)
        after = apply_routing_result(unit, r)
        adverse = False
        text = f"{unit.name} tests routing and {ROUTING_TEXT[r]}"
        log.add("morale", text, rules.MORALE_ROUTING, unit.id)
    after = end_highland_charge(after, after.strength < unit.strength, adverse)
    if after.routing and unit.troop is TroopType.WAGON:
        after = attrs.evolve(after, immobilised=True)
    state = state.with_units(after)
    return mark_done(state, unit.id)


def _end_a(state: WillState, action: EndPhase, log: Log) -> WillState:
    if needs_test(state):
        raise illegal(action, "every shaken and routing unit of the moving player must test")
    return attrs.evolve(with_extra(state, done=frozenset()), phase=B)


def _compulsory_move(state: WillState, action: CompulsoryMove, log: Log) -> WillState:
    unit = own_unit(state, action.unit, state.extra.moving, action)
    if unit not in compulsory_units(state):
        raise illegal(action, f"{unit.name} has no compulsory move")
    building = enter_building(state, unit, action.enters, action)
    into = "" if building is None else f" into the {building.work.value}"
    if unit.routing:
        if action.blocked:
            if action.enemy_within_6 and test_surrender(unit, dice=log.dice, why="cannot move"):
                state = state.with_units(attrs.evolve(unit, status=Status.SURRENDERED))
                log.add(
                    "surrender", f"{unit.name} cannot move and surrenders", rules.SURRENDER, unit.id
                )
            else:
                log.add("rout", f"{unit.name} cannot move", rules.ROUT, unit.id)
        else:
            rout_move(unit, action.inches, action.ends_farther, action)
            text = (
                f"{unit.name} routs {inches(action.inches)}{into}"
                if action.inches
                else f"{unit.name} routs but does not get away"
            )
            log.add("rout", text, rules.ROUT, unit.id)
    else:
        limit = move_distance(unit, options=state.extra.options, action=action)
        if action.inches > limit:
            raise illegal(action, f'a retirement is a full move ({limit}")', rules.MORALE_SHAKEN)
        state = state.with_units(attrs.evolve(unit, must_retire=False))
        text = (
            f"{unit.name} retires {inches(action.inches)}{into}"
            if action.inches
            else f"{unit.name} stays where it is instead of retiring"
        )
        log.add("retire", text, rules.MORALE_SHAKEN, unit.id)
    return mark_done(state, unit.id)


def _end_b(state: WillState, action: EndPhase, log: Log) -> WillState:
    if compulsory_units(state):
        raise illegal(action, "every routing or retiring unit must move first")
    cleared = tuple(
        attrs.evolve(u, routed_last_move=False, must_retire=False)
        for u in state.units_of(state.extra.moving)
        if u.routed_last_move or u.must_retire
    )
    state = state.with_units(*cleared) if cleared else state
    return attrs.evolve(with_extra(state, done=frozenset()), phase=C)


HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType({
    (A, TestMorale): _test_morale,
    (A, EndPhase): _end_a,
    (B, CompulsoryMove): _compulsory_move,
    (B, EndPhase): _end_b,
})
