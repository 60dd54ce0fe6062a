"""A commander rides to a point of the table (A14), worked out on a drawn 40" x 40" table:
brigade x's lines a (centre (10, 10)) and b (centre (22, 10)), 7.5" wide, 1" deep, facing up
the table; the enemy line e at (16, 30) facing them (x 12.25 to 19.75, y 29.5 to 30.5). The
colonel is with line a; the general rides alone at (2, 2)."""

from __future__ import annotations

import math

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Advance, Move, MoveCommander, RideTo
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.rules import RULE_MOVEMENT
from smoothbore.boltaction_acw.state import State, command_for, new_battle
from smoothbore.boltaction_acw.steps_orders import check_ride_to, ride_points
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Commander, Rank, Unit
from smoothbore.core import IllegalActionError
from smoothbore.table import CommanderMark, Table

UNITS = (
    Unit("a", "1st Line", UNION, bases=5, brigade="x"),
    Unit("b", "2nd Line", UNION, bases=5, brigade="x"),
    Unit("e", "Enemy line", CONFEDERATE, bases=5, brigade="y"),
)
PLACES = {"a": (10.0, 10.0, 0.0), "b": (22.0, 10.0, 0.0), "e": (16.0, 30.0, 180.0)}
COMMANDERS = (
    Commander("col", "Col. X", UNION, Rank.BRIGADE, "x", with_unit="a"),
    Commander("gen", "Gen. Z", UNION, Rank.ARMY),
    Commander("riv", "Col. Y", CONFEDERATE, Rank.BRIGADE, "y", with_unit="e"),
)


def battle(*, on_table: bool = True) -> State:
    """The three lines, brigade x in action."""
    table = None
    if on_table:
        feet = tuple(footprint(u, *PLACES[u.id]) for u in UNITS)
        table = Table(40, 40, footprints=feet,
                      commanders=(CommanderMark("gen", 2.0, 2.0, side=UNION),))
    state = new_battle(UNITS, COMMANDERS, table=table)
    return state.replace(phase=ORDERS).with_extra(group="brigade:x")


def test_the_points_offered_towards_the_enemy_and_between_his_units() -> None:
    """The colonel at a's centre (10, 10): the enemy's centre (16, 30) is sqrt(436) = 20.88"
    away, so 6" and 12" towards it (10 + 6 x 6/20.88, 10 + 6 x 20/20.88) = (11.724, 15.747)
    and (13.448, 21.494) are offered and 24" is not; a and b are each other's nearest,
    halfway (16, 10). The general at (2, 2): the enemy sqrt(980) = 31.30" away, so 6", 12"
    and 24" ((4.683, 7.367), (7.367, 12.733), (12.733, 23.467)), and (16, 10), 16.1" from
    him. All are legal: the 24" ride exactly his move."""
    state = battle()
    table = state.extra.table
    points = ride_points(table, "col", ("b", "a"))
    assert [c for p in points for c in p] == pytest.approx(
        [11.724, 15.747, 13.448, 21.494, 16.0, 10.0], abs=1e-3)
    rides = sorted((a.commander_id, a.x, a.y) for a in TURN.legal_actions(state)
                   if isinstance(a, RideTo))
    assert [r[0] for r in rides] == ["col"] * 3 + ["gen"] * 4
    assert [c for r in rides for c in r[1:]] == pytest.approx(
        [11.724, 15.747, 13.448, 21.494, 16.0, 10.0, 4.683, 7.367, 7.367, 12.733,
         12.733, 23.467, 16.0, 10.0], abs=1e-3)


def test_riding_between_his_lines_the_colonel_helps_both() -> None:
    """From a's centre line b's nearest point (18.25, 10) is 8.25" away (9" rounded up):
    out of his 6". Halfway, at (16, 10), both lines are 2.25" (3") away. He rides alone:
    a advancing leaves him there."""
    state = battle()
    assert command_for(state, state.unit("a")).brigade
    assert not command_for(state, state.unit("b")).brigade
    new, events = TURN.step(state, RideTo("col", 16.0, 10.0))
    assert events[-1].text == "Col. X rides 6.0\" to (16.0, 10.0)"
    assert events[-1].rule == RULE_MOVEMENT
    table = new.extra.table
    assert new.commander("col").with_unit is None
    assert table.commander("col").attached_to is None
    assert table.commander_point("col") == (16.0, 10.0)
    assert command_for(new, new.unit("a")).brigade and command_for(new, new.unit("b")).brigade
    with pytest.raises(IllegalActionError, match="has moved this turn"):
        TURN.check(new, RideTo("col", 16.0, 12.0))
    with pytest.raises(IllegalActionError, match="has moved this turn"):
        TURN.check(new, MoveCommander("col", "a"))
    moved, _ = TURN.step(new, Advance("a", move=Move(6.0)))
    assert moved.extra.table.commander_point("col") == (16.0, 10.0)


@pytest.mark.parametrize(("x", "y", "why"), [
    (41.0, 10.0, "(41.0, 10.0) is off the table"),
    (10.0, 35.0, "(10.0, 35.0) is 25.0\" away: a commander moves 24\""),
    (16.0, 28.8, "(16.0, 28.8) is within 1\" of the enemy (e)"),
    (10.0, 10.0, "col stands at (10.0, 10.0)"),
    (16.0, 32.5, "the ride to (16.0, 32.5) passes through the enemy (e)"),
])
def test_a_ride_stays_on_the_table_within_24_inches_and_clear_of_the_enemy(
        x: float, y: float, why: str) -> None:
    """(10, 35) is 25" from a's centre; (16, 28.8) is 0.7" short of e's front edge, and
    sqrt(6² + 18.8²) = 19.7" from the colonel; (16, 32.5), sqrt(6² + 22.5²) = 23.3" away and
    2" behind e, is reached only through it (the way crosses y 30 at x 15.3)."""
    state = battle()
    with pytest.raises(IllegalActionError) as raised:
        check_ride_to(state, RideTo("col", x, y))
    assert raised.value.why == why and raised.value.rule == RULE_MOVEMENT
    assert math.dist((10.0, 10.0), (16.0, 28.8)) < 24.0


def test_without_a_table_a_commander_joins_a_unit() -> None:
    state = battle(on_table=False)
    assert not any(isinstance(a, RideTo) for a in TURN.legal_actions(state))
    with pytest.raises(IllegalActionError, match="without a table"):
        TURN.check(state, RideTo("col", 16.0, 10.0))


def test_no_enemy_and_no_other_unit_leave_no_point() -> None:
    """With the enemy off the table there is no front; a command of one unit has no
    neighbour to share him with."""
    table = battle().extra.table.removed("e")
    assert ride_points(table, "col", ("a",)) == ()
    assert ride_points(table, "col", ("b", "a")) == ((16.0, 10.0),)


def test_a_commander_rides_with_his_own_side_s_die() -> None:
    state = battle().with_extra(group="brigade:y")
    with pytest.raises(IllegalActionError, match="Col. X is not of the acting side"):
        TURN.check(state, RideTo("col", 16.0, 10.0))
