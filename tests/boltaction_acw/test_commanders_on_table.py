"""Commanders on the table (A14): placed as points, with a unit or riding alone; their help
to a unit's tests measured from where they stand (brigade commander 6", army commander 12");
``MoveCommander`` rides at most 24" to join a unit, and he moves with it afterwards."""

from __future__ import annotations

import math

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Advance, Move, MoveCommander
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.state import State, command_for, commander_distance, new_battle
from smoothbore.boltaction_acw.steps_orders import (
    candidates_move_commander,
    check_move_commander,
)
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Commander, Rank, Unit
from smoothbore.core import IllegalActionError, InvalidValueError
from smoothbore.table import CommanderMark, Table

from .battle import expanded, random_states

UNITS = (
    Unit("a", "1st Line", UNION, bases=5, brigade="x"),
    Unit("b", "2nd Line", UNION, bases=5, brigade="x"),
    Unit("e", "Enemy line", CONFEDERATE, bases=5, brigade="y"),
)
PLACES = {"a": (20.0, 10.0, 0.0), "b": (38.0 - 3.75, 30.0, 0.0), "e": (20.0, 38.0, 180.0)}
COLONEL = Commander("col", "Col. X", UNION, Rank.BRIGADE, "x")
GENERAL = Commander("gen", "Gen. Z", UNION, Rank.ARMY)
RIVAL = Commander("riv", "Col. Y", CONFEDERATE, Rank.BRIGADE, "y", with_unit="e")


def battle(col: tuple[float, float], gen: tuple[float, float]) -> State:
    """The three lines on a 40" x 40" table, the colonel and the general riding alone at
    these points, the rival colonel with his line; brigade x in action."""
    feet = tuple(footprint(u, *PLACES[u.id]) for u in UNITS)
    marks = (CommanderMark("col", *col, side=UNION), CommanderMark("gen", *gen, side=UNION))
    table = Table(40, 40, footprints=feet, commanders=marks)
    state = new_battle(UNITS, (COLONEL, GENERAL, RIVAL), table=table)
    return state.replace(phase=ORDERS).with_extra(group="brigade:x")


def test_a_commander_with_a_unit_is_put_with_it_and_one_without_needs_a_mark() -> None:
    state = battle((2.0, 2.0), (2.0, 3.0))
    table = state.extra.table
    assert table.commander("riv").attached_to == "e"
    assert table.commander_point("riv") == (20.0, 38.0)
    feet = tuple(footprint(u, *PLACES[u.id]) for u in UNITS)
    with pytest.raises(InvalidValueError, match="a mark where the commander stands"):
        new_battle(UNITS, (COLONEL, GENERAL), table=Table(40, 40, footprints=feet))
    wrong = Table(40, 40, footprints=feet,
                  commanders=(CommanderMark("riv", attached_to="a", side=CONFEDERATE),))
    with pytest.raises(InvalidValueError, match="the unit he is with"):
        new_battle(UNITS, (RIVAL,), table=wrong)


def test_brigade_commander_helps_within_6_inches_and_army_commander_within_12() -> None:
    # line a: 7.5" wide, 1" deep, centred on (20, 10): front edge y = 10.5, flanks x = 16.25
    # and x = 23.75. The colonel 6" ahead of its front, the general 12" off its right flank
    state = battle((20.0, 16.5), (35.75, 10.0))
    a = state.unit("a")
    assert commander_distance(state.extra.table, "col", "a") == pytest.approx(6.0)
    assert commander_distance(state.extra.table, "gen", "a") == pytest.approx(12.0)
    assert (command_for(state, a).brigade, command_for(state, a).army) == (True, True)
    # a tenth of an inch further each: out of range (6.1" counts as 7", A23)
    far = battle((20.0, 16.6), (35.85, 10.0))
    assert (command_for(far, a).brigade, command_for(far, a).army) == (False, False)
    # off a corner: 3" right and 4" ahead of the front right corner (23.75, 10.5) is 5"
    corner = battle((26.75, 14.5), (2.0, 2.0))
    assert commander_distance(corner.extra.table, "col", "a") == pytest.approx(5.0)
    assert command_for(corner, a).brigade
    # the rival colonel is with line e; the general helps only his own side
    assert (command_for(state, state.unit("e")).brigade,
            command_for(state, state.unit("e")).army) == (True, False)


def test_a_commander_rides_24_inches_to_join_a_unit_and_moves_with_it() -> None:
    # the colonel at (2, 2): line a's centre (20, 10) is sqrt(18² + 8²) = 19.7" away, line
    # b's (34.25, 30) sqrt(32.25² + 28²) = 42.7"
    state = battle((2.0, 2.0), (2.0, 3.0))
    offered = {(m.commander_id, m.unit_id) for m in expanded(candidates_move_commander(state))
               if isinstance(m, MoveCommander)}
    assert ("col", "a") in offered and ("col", "b") not in offered
    assert ("gen", "a") in offered and ("gen", "b") not in offered  # 42.1" from (2, 3)
    with pytest.raises(IllegalActionError, match="42.7\" away: a commander moves 24\""):
        check_move_commander(state, MoveCommander("col", "b"))
    new, events = TURN.step(state, MoveCommander("col", "a"))
    assert f"({math.hypot(18, 8):.1f} in.)" in events[-1].narrate()
    table = new.extra.table
    assert table.commander("col").attached_to == "a"
    assert new.unit("a") and new.commander("col").with_unit == "a"
    assert command_for(new, new.unit("a")).brigade
    # line a advances 6": the colonel goes with it
    moved, _ = TURN.step(new, Advance("a", move=Move(6.0)))
    assert moved.extra.table.footprint("a").centre == pytest.approx((20.0, 16.0))
    assert moved.extra.table.commander_point("col") == pytest.approx((20.0, 16.0))


def test_rides_kept_with_a_table_are_the_distances_measured_afresh() -> None:
    """``ride`` keeps each ride with its table: on the states of a random battle, every
    ride kept is the distance from the commander's point to the unit's centre; the units
    kept as too far for a commander (``out_of_ride``, what the candidates leave out) are
    those of his side ``ride_problem`` refuses on a table that knows nothing yet."""
    import attrs

    from smoothbore.boltaction_acw.scenarios import brawners_farm
    from smoothbore.boltaction_acw.steps_orders import out_of_ride, ride, ride_problem

    checked = far = 0
    for state in random_states(brawners_farm(6), 6, 80):
        table = state.extra.table
        fresh = attrs.evolve(table)
        afresh = state.with_extra(table=attrs.evolve(table))
        for leader in state.commanders:
            units = out_of_ride(table, leader.id, leader.side)
            refused = {u.id for u in state.units if u.side == leader.side
                       and u.id in table.units and ride_problem(afresh, leader.id, u.id)}
            assert units == refused, leader.id
            far += len(units)
            for unit in state.units:
                expected = (math.dist(fresh.commander_point(leader.id),
                                      fresh.footprint(unit.id).centre)
                            if unit.id in fresh.units else None)
                assert ride(state, leader.id, unit.id) == expected, (leader.id, unit.id)
                checked += 1
    assert checked > 500
    assert far > 50


def test_the_joins_offered_are_the_legal_rides_however_often_they_are_made() -> None:
    """The commanders' joins are made once for each set of units (``_rides_to``): on the
    states of a random battle, the joins a commander is offered are, in order, one to each
    unit of his command in the fight that he does not stand with, less those more than
    24" away (``ride_problem``)."""
    from smoothbore.boltaction_acw.scenarios import brawners_farm
    from smoothbore.boltaction_acw.state import situation
    from smoothbore.boltaction_acw.steps_orders import ride_problem
    from smoothbore.core import Deferred

    offered = 0
    for state in random_states(brawners_farm(7), 7, 120):
        side = situation(state).side
        groups = list(candidates_move_commander(state))
        if side is not None and not state.extra.routs and groups:
            leaders = [c for c in state.commanders
                       if c.side == side and c.id not in state.extra.commanders_moved
                       and (c.rank is Rank.ARMY or state.extra.group == "brigade:" + c.brigade)]
            for leader, group in zip(leaders, groups, strict=True):
                assert isinstance(group, Deferred)
                brigade = leader.brigade if leader.rank is Rank.BRIGADE else None
                every = [MoveCommander(leader.id, u.id) for u in state.units
                         if u.side == side and u.in_the_fight and u.id != leader.with_unit
                         and brigade in (None, u.brigade)]
                assert group.bound == len(every)
                kept = list(group.actions())
                assert kept == [join for join in every if join in kept]
                for join in every:  # left out: the rides over 24" (ride_problem)
                    assert (join in kept) is not bool(ride_problem(state, leader.id,
                                                                   join.unit_id))
                offered += len(kept)
    assert offered > 50
