"""The actions of the Turn (actions): the facts they carry are checked when they are made
(Rules - Terrain: Buildings; Rules - Movement: Effects of terrain; Rules - Charging)."""

from __future__ import annotations

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.will_awi.actions import (
    CompulsoryMove,
    Contact,
    Entering,
    Fire,
    Move,
    MoveAway,
)
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.movement import Crossing, Leg, MovePlan

INTO = MovePlan(legs=(Leg(2),), crossings=(Crossing.ENTER_BUILDING,))


def test_entering_names_a_building_and_distinct_occupants() -> None:
    """Buildings: the player says which building and which units are already in it."""
    assert Entering("farm", ("r2",)).occupants == ("r2",)
    with pytest.raises(InvalidValueError):
        Entering("")
    with pytest.raises(InvalidValueError):
        Entering("farm", ("r2", "r2"))
    with pytest.raises(InvalidValueError):
        Entering("farm", ("",))


def test_a_move_into_a_building_pays_the_entering_cost() -> None:
    """Effects of terrain: entering buildings takes half a move (foot): a move or a move away
    that enters a building has that crossing in its plan."""
    assert Move("r1", INTO, Entering("farm")).enters == Entering("farm")
    with pytest.raises(InvalidValueError, match="ENTER_BUILDING"):
        Move("r1", MovePlan(legs=(Leg(2),)), Entering("farm"))
    assert MoveAway("r1", INTO, Entering("farm")).enters == Entering("farm")
    with pytest.raises(InvalidValueError):
        MoveAway("r1", MovePlan(), Entering("farm"))


def test_only_a_moving_unit_enters() -> None:
    """Charging: a blocked routing unit does not move, and a charger whose target is still in
    reach moves into contact with it, not into the target's place."""
    assert CompulsoryMove("r1", enters=Entering("farm")).enters is not None
    with pytest.raises(InvalidValueError):
        CompulsoryMove("r1", blocked=True, enters=Entering("farm"))
    assert Contact("r2", False, Entering("farm")).enters is not None
    with pytest.raises(InvalidValueError):
        Contact("r2", True, Entering("farm"))


def test_fire_defaults() -> None:
    """Rules - Firing: by default a fire is in the firing phase, not a second-charge fire."""
    fire = Fire("b1", "r1", FireFacts(4))
    assert not fire.could_not_have_fired and fire.work == "" and not fire.chain_within_18
