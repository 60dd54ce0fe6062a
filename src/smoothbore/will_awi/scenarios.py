"""Embedded battles: a small action for demonstrations."""

from __future__ import annotations

from .turn_state import WillState, new_battle
from .units import Nationality, Rank, TroopType, WillGeneral, WillUnit


def example_battle(seed: int = 0) -> WillState:
    """A British foot regiment and dragoons under a capable general against Continentals,
    militia and a light gun under a brigadier, at the start of the British move."""
    units = (
        WillUnit("r1", "23rd Foot", "British", TroopType.LINE, Nationality.BRITISH,
                 commander="rg"),
        WillUnit("r2", "17th Light Dragoons", "British", TroopType.LIGHT_CAVALRY,
                 Nationality.BRITISH, commander="rg"),
        WillUnit("b1", "1st Maryland", "American", TroopType.LINE, commander="bg"),
        WillUnit("b2", "North Carolina Militia", "American", TroopType.MILITIA, commander="bg"),
        WillUnit("b3", "Continental Artillery", "American", TroopType.LIGHT_GUN, commander="bg"),
    )
    generals = (
        WillGeneral("rg", "Lord Rawdon", "British", rating=8),
        WillGeneral("bg", "Greene", "American", Rank.BRIGADIER, attached_to="b1"),
    )
    return new_battle(("British", "American"), units, generals, seed=seed)
