"""units.py: validation naming the field, and what a unit's state means in the rules."""

from __future__ import annotations

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.mckie_acw.units import Arm, Ground, Status, Unit, Weapon

from .support import foot, guns


@pytest.mark.parametrize(("field", "value", "match"), [
    ("figures", 61, r"Unit.figures.*0 to 60"),
    ("figures", True, r"Unit.figures"),
    ("initial_figures", 0, r"Unit.initial_figures"),
    ("ammo", -1, r"Unit.ammo.*at least 0"),
    ("effort", -1, r"Unit.effort"),
    ("dug", 5, r"Unit.dug.*0 to 4"),
])
def test_bad_numbers_name_the_field(field: str, value: object, match: str) -> None:
    with pytest.raises(InvalidValueError, match=match):
        foot("x", **{field: value})


def test_guns_and_small_arms_fit_their_arm() -> None:
    with pytest.raises(InvalidValueError, match="Unit.weapon"):
        Unit("x", "x", "A", Arm.FOOT, Weapon.SMOOTHBORE_12LB)
    with pytest.raises(InvalidValueError, match="Unit.pieces"):
        guns("g", pieces=21)
    with pytest.raises(InvalidValueError, match="Unit.helpers"):
        guns("g", helpers=4)
    with pytest.raises(InvalidValueError, match="a crew of 1 to 4"):
        guns("g", figures=5)
    with pytest.raises(InvalidValueError, match="foot only"):
        foot("c", arm=Arm.CAVALRY, ground=Ground.DENSE_WOODS)


def test_effort_ammunition_and_crews() -> None:
    assert (foot("x", effort=6).tired, foot("x", effort=7).tired) == (False, True)
    assert (foot("x", effort=12).tired, foot("x", effort=12).exhausted) == (False, True)
    assert foot("x").ammo == 96 and guns("g").ammo == 6
    assert guns("g", figures=2, initial_figures=4, helpers=3).crew == 4
    assert foot("x", figures=10, initial_figures=16).lost == 6
    assert [s.on_table for s in Status] == [True, True, True, False, False, False]
