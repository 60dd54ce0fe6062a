"""Horse holders on the table (Unit Sizes; A32): dismounted cavalry leave their horses where
they dismount (or where they start, dismounted), and remount only within 6" of them."""

from __future__ import annotations

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Advance, Mount
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.state import State, holders_distance, new_battle
from smoothbore.boltaction_acw.steps_orders import check_advance
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Formation, Unit, UnitType
from smoothbore.core import IllegalActionError
from smoothbore.table import Table

TROOPERS = Unit("t", "Troopers", UNION, UnitType.CAVALRY, bases=5, mounted=False,
                formation=Formation.SKIRMISH)
RIDERS = Unit("r", "Riders", UNION, UnitType.CAVALRY, bases=5)
ENEMY = Unit("e", "Enemy line", CONFEDERATE, bases=5)


def battle(unit: Unit) -> State:
    feet = (footprint(unit, 20, 10, 0), footprint(ENEMY, 20, 38, 180))
    state = new_battle((unit, ENEMY), (), table=Table(40, 40, footprints=feet))
    return state.replace(phase=ORDERS).with_extra(group=unit.id)


def moved(state: State, x: float, y: float) -> State:
    table = state.extra.table
    return state.with_extra(table=table.placed(table.footprint("t").moved_to(x, y)))


def test_troopers_starting_dismounted_hold_their_horses_where_they_start() -> None:
    state = battle(TROOPERS)
    assert state.extra.holders == (("t", 20.0, 10.0),)
    assert holders_distance(state, "t") == 0.0
    # skirmishers 9" wide, 1" deep: 6" ahead of the holders their rear edge is 5.5" away
    near = moved(state, 20, 16)
    assert holders_distance(near, "t") == pytest.approx(5.5)
    check_advance(near, Advance("t", mount=Mount.REMOUNT))
    after, _ = TURN.step(near, Advance("t", mount=Mount.REMOUNT))
    assert after.extra.holders == ()
    # 7" ahead: 6.5" away, too far to remount
    far = moved(state, 20, 17)
    with pytest.raises(IllegalActionError, match="holders are 6.5\" away"):
        check_advance(far, Advance("t", mount=Mount.REMOUNT))
    assert Advance("t", mount=Mount.REMOUNT) not in TURN.legal_actions(far)
    assert Advance("t", mount=Mount.REMOUNT) in TURN.legal_actions(near)


def test_cavalry_dismounting_leave_their_horses_where_they_stand() -> None:
    state = battle(RIDERS)
    assert state.extra.holders == ()
    after, _ = TURN.step(state, Advance("r", mount=Mount.DISMOUNT))
    assert after.extra.holders == (("r", 20.0, 10.0),)
    assert holders_distance(after, "r") == 0.0
    assert TURN.load(after.to_json()).extra.holders == (("r", 20.0, 10.0),)  # saved too
