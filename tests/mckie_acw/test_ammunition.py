"""ammunition.py: the corps train, firing rounds away, refilling."""

from __future__ import annotations

from smoothbore.mckie_acw.ammunition import reserve_for, resupply, spend

from .support import foot, guns


def test_trains_spending_and_refilling() -> None:
    assert reserve_for((foot("a"), guns("g")), 6) == 6 * 17
    assert reserve_for((foot("a"),), 9) == 96  # never more than 6 a figure
    assert spend(foot("a", ammo=5), 8).ammo == 0
    filled, left = resupply(foot("a", ammo=90), 100)
    assert (filled.ammo, left) == (96, 94)
    short, none_left = resupply(foot("a", ammo=0), 10)
    assert (short.ammo, none_left) == (10, 0)
