"""units.py: validation naming the field, and what a unit's state means in the rules."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.mckie_acw.units import Arm, Ground, Status, Unit, Weapon, changed

from .support import A, foot, guns


@pytest.mark.parametrize(("field", "value", "match"), [
    ("figures", 61, r"Unit.figures.*0 to 60"),
    ("figures", True, r"Unit.figures"),
    ("initial_figures", 0, r"Unit.initial_figures"),
    ("ammo", -1, r"Unit.ammo.*0 to 96"),
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


_UNIT_CHANGES = st.fixed_dictionaries({}, optional={
    "figures": st.integers(0, 16),
    "ammo": st.integers(0, 96),
    "effort": st.integers(0, 20),
    "dug": st.integers(0, 4),
    "status": st.sampled_from(Status),
    "ground": st.sampled_from([g for g in Ground if g is not Ground.DENSE_WOODS]),
    "has_fired": st.booleans(),
    "resting": st.booleans(),
})


@given(_UNIT_CHANGES)
def test_changed_makes_what_attrs_evolve_makes(changes: dict[str, object]) -> None:
    unit = foot("a1", A)
    assert changed(unit, **changes) == attrs.evolve(unit, **changes)


def test_changed_runs_every_check_of_a_unit() -> None:
    with pytest.raises(InvalidValueError, match=r"Unit.figures.*initial_figures"):
        changed(foot("a1", A), figures=17)
    with pytest.raises(InvalidValueError, match="Unit.ground"):
        changed(guns("g1", A), ground=Ground.DENSE_WOODS)
    with pytest.raises(InvalidValueError, match="Unit field"):
        changed(foot("a1", A), figuers=3)
