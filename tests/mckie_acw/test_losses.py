"""losses.py, effort.py, ammunition.py: prisoners' guards, the day's breakdown, effort points
and rounds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from smoothbore.mckie_acw import effort
from smoothbore.mckie_acw.ammunition import reserve_for, resupply, spend
from smoothbore.mckie_acw.losses import battle_losses, guards_needed
from smoothbore.mckie_acw.units import Arm, Unit, Weapon


def test_guards_one_per_five() -> None:
    assert [guards_needed(n) for n in (0, 1, 5, 6, 10, 11)] == [0, 1, 1, 2, 2, 3]


def test_the_texts_breakdown() -> None:
    day = battle_losses(20)  # 2,000 men
    assert (day.dead, day.badly_wounded, day.slightly_wounded) == (300, 700, 1000)
    assert day.returning == 1000


@given(st.integers(0, 500))
def test_breakdown_adds_up(figures: int) -> None:
    day = battle_losses(figures)
    assert day.dead + day.badly_wounded + day.slightly_wounded == figures * 100


def test_effort_thresholds_and_rest() -> None:
    u = Unit("u", "u", "A", Arm.FOOT, Weapon.SMOOTHBORE_MUSKET)
    u = effort.earn(u, 6)
    assert not u.tired
    u = effort.earn(u, effort.FIRING)
    assert u.tired and not u.exhausted
    u = effort.earn(u, 5)
    assert u.exhausted and not u.tired
    assert effort.rest(effort.rest(u)).effort == 8
    assert effort.rest(effort.earn(u, -11)).effort == 0


def test_ammunition_running_total_and_train() -> None:
    u = Unit("u", "u", "A", Arm.FOOT, Weapon.SMOOTHBORE_MUSKET, figures=16)
    assert u.ammo == 96 and reserve_for((u,)) == 96
    u = spend(u, 90)
    full, left = resupply(u, 50)
    assert (full.ammo, left) == (56, 0)
    full, left = resupply(u, 500)
    assert (full.ammo, left) == (96, 410)
    g = Unit("g", "g", "A", Arm.ARTILLERY, Weapon.RODMAN_3IN, figures=4)
    assert g.ammo == 6  # 6 rounds per gun model
