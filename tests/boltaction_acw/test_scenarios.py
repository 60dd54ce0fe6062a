"""The embedded battles: historical orders of battle, a brigade a side, a turn limit."""

from __future__ import annotations

from collections import Counter

import pytest

from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Experience, UnitType


def test_brawners_farm_order_of_battle() -> None:
    state = RULESET.example(0)
    assert state.scenario.turn_limit == 6
    assert {u.brigade for u in state.units if u.side == UNION} == {"gibbon"}
    union = [u for u in state.units if u.side == UNION and u.kind is UnitType.INFANTRY]
    rebels = [u for u in state.units if u.side == CONFEDERATE and u.kind is UnitType.INFANTRY]
    assert len(union) == 4 and all(u.bases == 6 for u in union)
    assert len(rebels) == 5 and all(u.experience is Experience.VETERAN and u.bases == 4
                                    for u in rebels)
    assert Counter(state.extra.bag) == {UNION: 1, CONFEDERATE: 2}


@pytest.mark.parametrize("name", [name for name, _ in RULESET.battles()])
def test_every_battle_starts_playable(name: str) -> None:
    state = RULESET.battle(name)(3)
    assert state.scenario.turn_limit is not None
    assert TURN.legal_actions(state)
    assert {u.side for u in state.units} == {UNION, CONFEDERATE}


def test_mcphersons_ridge_fights_dismounted() -> None:
    state = RULESET.battle("mcphersons-ridge")(0)
    troopers = [u for u in state.units if u.kind is UnitType.CAVALRY]
    assert sum(not u.mounted for u in troopers) == 2 and any(u.mounted for u in troopers)
    assert any(u.kind is UnitType.SKIRMISHERS for u in state.units)
