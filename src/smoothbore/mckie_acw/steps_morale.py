"""Steps 5, 6 and 8: the morale tests of charging units 20% down to fire, of units standing
to receive a charge, and all others: 10% lost in a period, friends routing past, rallies
(McKie ACW, Battle period 5, 6 and 8; Morale)."""

from __future__ import annotations

from collections.abc import Iterator

from smoothbore.core import Log
from smoothbore.table import Table, sight_lines

from . import rules
from .actions import TestMorale
from .effects import apply_result, tested
from .morale import Circumstance, test_morale
from .options import PlusOrMinus
from .phases import CHARGER_TESTS, MORALE, RECEIVE_TESTS
from .positions import SIGHT, kept
from .situations import surely_apart
from .state import (
    State,
    amount,
    illegal,
    in_cover,
    live_charges,
    morale_facts,
)
from .table_moves import table_of
from .units import Status, Unit

C = Circumstance


def fire_share(state: State, unit: Unit) -> tuple[int, int]:
    """(figures lost to fire this period, figures at the start of the period)."""
    x = state.extra
    return amount(x.fire_lost, unit.id), unit.figures + amount(x.lost, unit.id)


def charger_due(state: State, unit: Unit) -> bool:
    """Step 5: a unit charging or counter charging this period that has lost 20% of its
    figures to firing this period."""
    if not unit.steady or tested(state, unit.id, C.CHARGER_FIRED_ON):
        return False
    if not any(c.charger == unit.id for c in live_charges(state)):
        return False
    lost, start = fire_share(state, unit)
    return lost * 5 >= start > 0 and lost > 0


def receiver_due(state: State, unit: Unit) -> bool:
    """Step 6: a steady unit standing to receive a charge still going in (not itself
    counter charging)."""
    if not unit.steady or tested(state, unit.id, C.RECEIVING):
        return False
    charges = live_charges(state)
    if any(c.charger == unit.id for c in charges):
        return False
    return any(c.target == unit.id and not c.counter for c in charges)


def losses_due(state: State, unit: Unit) -> bool:
    """Step 8: a unit on the table that has lost 10% of its original strength this period."""
    if not unit.on_table or unit.status is Status.ROUTING or tested(state, unit.id, C.LOSSES):
        return False
    lost = amount(state.extra.lost, unit.id)
    return lost > 0 and lost * 10 >= unit.initial_figures


def rally_open(state: State, unit: Unit) -> bool:
    """Step 8: a retreating or routing unit may test to rally once a period, but not one
    that began to rout this period (it has yet to make its rout move)."""
    return (unit.status in (Status.RETREATING, Status.ROUTING)
            and unit.id not in state.extra.routed and not tested(state, unit.id, C.RALLY))


def friend_routed_open(state: State, unit: Unit) -> int:
    """Step 8: how many friendly units routed this period (0: no such test to take); on a
    table, how many of them the table finds routing past it (``routing_past``)."""
    if not unit.steady or tested(state, unit.id, C.FRIEND_ROUTED):
        return 0
    if state.extra.table is not None:
        return routing_past(state, unit)
    return friends_routed(state, unit)


def friends_routed(state: State, unit: Unit) -> int:
    """The friendly units (not the unit itself) that routed this period: without a table,
    the most the player may count as routing past it in any test."""
    return sum(1 for uid in state.extra.routed
               if uid != unit.id and state.unit(uid).side == unit.side)


def measured_past(state: State, unit: Unit) -> int:
    """The tactical factor "each friendly unit in sight routing past within 200mm: -1"
    (Morale: Tactical factors), a factor of every morale test: on a table the friends the
    table finds routing past the unit (``routing_past``, M37); without a table none unless
    the player counts them in his ``TestMorale`` (M42)."""
    return routing_past(state, unit) if state.extra.table is not None else 0


ROUTING_PAST_WITHIN = 200
"""Morale: friendly units in sight routing past within 200 mm."""


def routing_past(state: State, unit: Unit) -> int:
    """On a table: the friendly units that routed this period, still on the table, whose
    outline stands within 200 mm of the unit's and in its sight (nothing that blocks sight
    between them: buildings, hills higher than both, more than 20 mm of dense woods or
    town), whichever way either faces (interpretation M37)."""
    table = table_of(state)
    on = table.units
    if unit.id not in on:
        return 0
    routed = state.extra.routed
    memo = kept(table, _routing_memo)
    counts = memo.get(routed)
    if counts is None:
        counts = memo[routed] = {}
    found = counts.get(unit.id)
    if found is None:
        friends = [uid for uid in sorted(routed) if uid != unit.id and uid in on
                   and state.unit(uid).side == unit.side
                   and not surely_apart(state, unit.id, uid, ROUTING_PAST_WITHIN)]
        found = 0
        if friends:
            seen = sight_lines(table, [(unit.id, uid) for uid in friends], rules=SIGHT)
            found = sum(1 for s in seen if s.line_clear and s.distance <= ROUTING_PAST_WITHIN)
        counts[unit.id] = found
    return found


def _routing_memo(table: Table) -> dict[frozenset[str], dict[str, int]]:
    """``routing_past`` on this table's footprints (sight and distance read nothing else),
    by the units that routed this period, then by unit."""
    return {}


def due_tests(state: State) -> tuple[tuple[Unit, Circumstance], ...]:
    """The acting side's compulsory tests still to take in this step (worked out once a
    state: ending the step and each candidate test ask)."""
    return state.derived(_due_tests)


def _due_tests(state: State) -> tuple[tuple[Unit, Circumstance], ...]:
    phase = state.phase
    if phase != CHARGER_TESTS and phase != RECEIVE_TESTS and phase != MORALE:
        return ()
    acting = state.extra.acting
    units = [u for u in state.units if u.side == acting and u.on_table]
    if state.phase == CHARGER_TESTS:
        return tuple((u, C.CHARGER_FIRED_ON) for u in units if charger_due(state, u))
    if state.phase == RECEIVE_TESTS:
        return tuple((u, C.RECEIVING) for u in units if receiver_due(state, u))
    if state.phase == MORALE:
        due = [(u, C.LOSSES) for u in units if losses_due(state, u)]
        if state.extra.table is not None:
            # Morale, when to test 5: compulsory when the table finds friends routing past
            due.extend((u, C.FRIEND_ROUTED) for u in units if friend_routed_open(state, u))
        return tuple(due)
    return ()


def _signs(state: State, unit: Unit) -> tuple[tuple[bool, bool], ...]:
    """The "+ or -" choices open to a unit: only under option ``choose``, and only for a
    factor the unit has (a quality worth a point, cover)."""
    if state.options.plus_or_minus is not PlusOrMinus.CHOOSE:
        return ((False, False),)
    quality = (False, True) if unit.quality.morale else (False,)
    cover = (False, True) if in_cover(unit) else (False,)
    return tuple((q, c) for q in quality for c in cover)


def candidates_test_morale(state: State) -> Iterator[TestMorale]:
    """The due tests; in step 8 also each rally and, for steady units of a side one of whose
    units routed this period, the test for friends routing past (counting each). Friends
    routing past count in every test (Morale: Tactical factors): on a table the table counts
    them (``routing_past`` 0); without one each test is offered with each count the player
    may give (none up to the friends that routed this period; at least one for the test for
    friends routing past, M42)."""
    table = state.extra.table is not None
    for unit, circumstance in due_tests(state):
        counts = (0,) if table else range(friends_routed(state, unit) + 1)
        for count in counts:
            for q, c in _signs(state, unit):
                yield TestMorale(unit.id, circumstance, count, q, c)
    if state.phase != MORALE:
        return
    for unit in state.units_of(state.extra.acting):
        rally = rally_open(state, unit)
        routed = 0 if table else friend_routed_open(state, unit)
        if not rally and not routed:
            continue
        signs = _signs(state, unit)
        if rally:
            for count in (0,) if table else range(friends_routed(state, unit) + 1):
                for q, c in signs:
                    yield TestMorale(unit.id, C.RALLY, count, q, c)
        for count in range(1, routed + 1):
            for q, c in signs:
                yield TestMorale(unit.id, C.FRIEND_ROUTED, count, q, c)


_PHASE_OF = {
    C.CHARGER_FIRED_ON: CHARGER_TESTS,
    C.RECEIVING: RECEIVE_TESTS,
    C.LOSSES: MORALE,
    C.RALLY: MORALE,
    C.FRIEND_ROUTED: MORALE,
}


def check_test_morale(state: State, action: TestMorale) -> None:
    """A test in its step, for a unit that is due or entitled to it, once; friends routing
    past are counted among those that routed this period; subtracting the "+ or -" factors
    only with the option ``choose``."""
    unit = state.unit(action.unit)  # of the side acting, on the table: the guard
    circumstance = action.circumstance
    r = rules.MORALE_WHEN
    if _PHASE_OF.get(circumstance) != state.phase:
        raise illegal(action, f"a {circumstance} test is not taken in step {state.phase}", r)
    if (action.subtract_quality or action.subtract_cover) and (
            state.options.plus_or_minus is not PlusOrMinus.CHOOSE):
        raise illegal(action, "the + or - factors are added (option plus_or_minus=add)",
                      rules.MORALE_FACTORS)
    if action.subtract_quality and not unit.quality.morale:
        raise illegal(action, f"{unit.name} is {unit.quality}: no quality factor to subtract",
                      rules.MORALE_FACTORS)
    if action.subtract_cover and not in_cover(unit):
        raise illegal(action, f"{unit.name} is not behind or in cover", rules.MORALE_FACTORS)
    ok = {
        C.CHARGER_FIRED_ON: charger_due,
        C.RECEIVING: receiver_due,
        C.LOSSES: losses_due,
        C.RALLY: rally_open,
    }
    table = state.extra.table is not None
    if table and action.routing_past:
        raise illegal(action, "the table measures this: the friends routing past in "
                      "sight within 200 mm (leave routing_past at 0)", rules.MORALE_FACTORS)
    if circumstance is C.FRIEND_ROUTED and table:
        if not friend_routed_open(state, unit):
            raise illegal(action, f"no friendly unit routed past {unit.name} this period "
                          "within 200 mm in its sight", r)
    elif circumstance is C.FRIEND_ROUTED:
        routed = friend_routed_open(state, unit)
        if not 1 <= action.routing_past <= routed:
            raise illegal(action, f"{routed} friendly unit(s) routed this period and "
                          "none is counted twice", r)
    else:
        if not ok[circumstance](state, unit):
            raise illegal(action, f"{unit.name} has no {circumstance} test to take", r)
        routed = friends_routed(state, unit)
        if action.routing_past > routed:
            raise illegal(action, f"{routed} friendly unit(s) routed this period and "
                          "none is counted twice", rules.MORALE_FACTORS)


def apply_test_morale(state: State, action: TestMorale, log: Log) -> State:
    """The test (an average die plus the factors) and what its result does."""
    unit = state.unit(action.unit)
    past = action.routing_past
    if state.extra.table is not None:
        past = routing_past(state, unit)  # every test counts them (Morale: Tactical factors)
    facts = morale_facts(state, unit, action.circumstance, past,
                         action.subtract_quality, action.subtract_cover)
    result = test_morale(facts, dice=log.dice, tables=state.options.tables,
                         reason=f"{unit.name}, {action.circumstance}")
    return apply_result(state, unit.id, action.circumstance, result, log)
