"""scenarios.py: the embedded battles: their armies, orders, limits, and play to the end."""

from __future__ import annotations

import pytest

from smoothbore.battle import play, random_policy
from smoothbore.mckie_acw import RULESET, TURN
from smoothbore.mckie_acw.scenarios import example_battle, sharpshooters_battle
from smoothbore.mckie_acw.units import Arm, OrderKind, Rank, Weapon


def test_the_example_is_a_division_a_side_under_a_corps_and_an_army() -> None:
    state = example_battle(0)
    assert state.sides == ("Confederate", "Union") and state.scenario.turn_limit == 6
    for side in state.sides:
        ranks = sorted(c.rank.value for c in state.commanders if c.side == side)
        assert ranks == ["commander-in-chief", "corps", "division"]
        assert any(u.arm is Arm.ARTILLERY for u in state.units_of(side))
    bragg = state.commander("bragg")
    assert (bragg.initiative, bragg.activation) == (3, 5)  # the text's own example
    assert state.commander("hood").order.kind is OrderKind.ATTACK
    assert state.commander("baird").order.kind is OrderKind.HOLD
    assert state.unit("wilder").weapon is Weapon.REPEATING_RIFLE and state.unit("wilder").mounted
    assert all(c.superior for c in state.commanders if c.rank is not Rank.CINC)


def test_the_sharpshooters_keep_the_one_in_200_limit() -> None:
    state = sharpshooters_battle(0)
    assert state.options.snipers and state.unit("berdan").figures == 2  # 800 figures: 4 allowed


@pytest.mark.parametrize("name", ["default", "sharpshooters"])
def test_each_battle_plays_to_its_end(name: str) -> None:
    make = dict(RULESET.battles())[name]
    for seed in (1, 2):
        played = play(TURN, make(seed), random_policy(seed))
        assert played.finished and played.end.turn <= 7 and played.outcome is not None
