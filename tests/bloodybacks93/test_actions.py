"""Bloodybacks 9.3: the actions a player takes, as frozen values carrying the facts measured at
the table (actions.py)."""

from __future__ import annotations

import typing

import attrs
import numpy as np
import pytest

from smoothbore.bloodybacks93.actions import (
    Action,
    Activate,
    Charge,
    Manoeuvre,
    Move,
    Rally,
    ResolveDeferred,
    RoutTest,
    Shoot,
    SpendCommandPoint,
    lead_first,
)
from smoothbore.bloodybacks93.activation import ActionKind
from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.core import IllegalActionError, InvalidValueError

from .turn_setup import start, step


def test_actions_are_frozen_values() -> None:
    """Sequence of Play: an action is a value, so the same action replays the same step and can
    be found among the legal actions."""
    assert Activate("b1", "cb") == Activate("b1", "cb")
    assert hash(Charge(("b1",), ("a1",))) == hash(Charge(("b1",), ("a1",)))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Move("b1").through = "b2"  # type: ignore[misc]


def test_defaults_are_the_plain_table_facts() -> None:
    """Command Radius: a unit is inside the radius unless measured outside; Evade: the target
    evades only when it must (evade None); Charges and melee: the melee is resolved at once
    unless deferred, and routed defenders are pursued only when asked."""
    assert not Activate("b1", "cb").outside_radius
    assert not RoutTest("b1", "cb").outside_radius
    assert not SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER).outside_radius
    charge = Charge(("b1",), ("a1",))
    assert charge.evade is None and charge.target_in_open and not charge.hard_cover
    assert not charge.defer and not charge.pursue and charge.distance is None
    assert Move("b1").through is None
    assert ResolveDeferred() == ResolveDeferred(reverse=False, pursue=False)


def test_a_charge_keeps_its_first_units_first() -> None:
    """Multiple unit melee: the first charger and the first target are kept; the others are
    put in one order, whatever order they are given in."""
    assert lead_first(["c", "b", "a"]) == ("c", "a", "b")
    assert lead_first(()) == ()
    assert Charge(["b2", "b3", "b1"], ["a2", "a1"]).unit_ids == ("b2", "b1", "b3")


def test_every_action_kind_is_handled_by_step() -> None:
    """Sequence of Play: each of the fourteen action kinds reaches the step; out of its phase
    it raises an IllegalActionError naming the rule (never an unhandled type)."""
    kinds = typing.get_args(Action)
    assert len(kinds) == 14
    samples: dict[type, object] = {
        Activate: Activate("b1", "cb"),
        RoutTest: RoutTest("b1", "cb"),
        Move: Move("b1"),
        Charge: Charge(("b1",), ("a1",)),
        SpendCommandPoint: SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER),
        Manoeuvre: Manoeuvre("b1", ActionKind.ABOUT_FACE),
        Shoot: Shoot("b1", "a1"),
    }
    state = start()  # activity phase: only DetermineActivity is allowed
    for kind in kinds:
        action = samples.get(kind)
        if action is None:
            action = kind("b1") if kind is Rally else kind()
        if kind.__name__ == "DetermineActivity":
            after, _ = step(state, action)  # type: ignore[arg-type]
            assert after.phase == "draw"
            continue
        with pytest.raises(IllegalActionError) as info:
            step(state, action)  # type: ignore[arg-type]
        assert info.value.rule.startswith("Bloodybacks 9.3")


@pytest.mark.parametrize("place", [
    (1.0, 2.0, True), (1.0, float("nan"), 0.0), (float("inf"), 2.0, 0.0), (1.0, 2.0),
    [1.0, 2.0, 0.0], (1.0, "2", 0.0), (1.0, None, 0.0)])
def test_a_destination_is_three_finite_numbers(place: object) -> None:
    with pytest.raises(InvalidValueError) as info:
        Move("u1", to=place)  # type: ignore[arg-type]
    assert info.value.field == "to"
    with pytest.raises(InvalidValueError):
        Move("u1", at=place)  # type: ignore[arg-type]


@pytest.mark.parametrize("point", [
    (1.0, False), (float("nan"), 0.0), (1.0, float("-inf")), (1.0, 2.0, 0.0), [1.0, 2.0],
    ("1", 2.0)])
def test_a_point_ridden_to_is_two_finite_numbers(point: object) -> None:
    with pytest.raises(InvalidValueError) as info:
        SpendCommandPoint("c1", CommandPointUse.MOVE_COMMANDER,
                          to=point)  # type: ignore[arg-type]
    assert info.value.field == "to"


def test_a_destination_takes_whole_and_numpy_numbers() -> None:
    assert Move("u1", to=(1, 2, 90)).to == (1, 2, 90)
    assert Move("u1", at=(np.float64(1.5), 2.0, 0)).at == (1.5, 2.0, 0)
    assert SpendCommandPoint("c1", CommandPointUse.MOVE_COMMANDER, to=(3, 4.5)).to == (3, 4.5)
