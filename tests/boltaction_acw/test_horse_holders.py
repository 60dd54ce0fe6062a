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


def test_dismounting_riders_fire_all_round_and_are_offered_every_such_shot() -> None:
    # the enemy 10" off the riders' right flank: outside a mounted unit's 45 degree arc,
    # but dismounted cavalry fire in skirmish order, all round; legal_actions lists the
    # shot step accepts (and no mounted shot at it, nor a shot while remaining mounted)
    feet = (footprint(RIDERS, 10, 20, 0), footprint(ENEMY, 24, 20, 0))
    state = new_battle((RIDERS, ENEMY), (), table=Table(40, 40, footprints=feet))
    state = state.replace(phase=ORDERS).with_extra(group="r")
    dismount_and_fire = Advance("r", target_id="e", mount=Mount.DISMOUNT)
    check_advance(state, dismount_and_fire)
    legal = TURN.legal_actions(state)
    assert dismount_and_fire in legal
    assert not any(isinstance(a, Advance) and a.target_id == "e" and a.mount is Mount.NONE
                   for a in legal)
    after, events = TURN.step(state, dismount_and_fire)
    assert any("fires at" in e.text for e in events)
    assert after.extra.holders == (("r", 10.0, 20.0),)  # dismounted where they stand
