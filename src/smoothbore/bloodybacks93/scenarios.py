"""Embedded battles: a small action from the text's own commanders, for demonstrations."""

from __future__ import annotations

from .battle import State, new_battle
from .units import AMERICAN, BRITISH, Commander, Formation, Unit, UnitType, Weapon


def example_battle(seed: int = 0) -> State:
    """Colonel Webster's British brigade (line, Hessians, guns) against Colonel Stevens's
    Continentals and riflemen, at the start of turn 1 (the commanders of the text's examples,
    Bloodybacks 9.3, Determine commander activation level)."""
    units = (
        Unit("b1", "33rd Foot", BRITISH, quality=4, density=5, size=20, brigade="1"),
        Unit("b2", "Hessian Grenadiers", BRITISH, quality=4, density=8, size=18, brigade="1"),
        Unit("b3", "Royal Artillery", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
             brigade="1", formation=Formation.UNLIMBERED, weapon=Weapon.CANNON),
        Unit("a1", "1st Maryland", AMERICAN, quality=3, density=6, size=20, brigade="x"),
        Unit("a2", "Virginia Riflemen", AMERICAN, quality=3, density=3, size=10, brigade="x",
             weapon=Weapon.RIFLE),
    )
    commanders = (
        Commander("cb", "Colonel Webster", BRITISH, command_quality=4, activity_rating=4,
                  brigade="1"),
        Commander("ca", "Colonel Stevens", AMERICAN, command_quality=3, activity_rating=2,
                  brigade="x", attached_to="a1"),
    )
    return new_battle(units, commanders, seed=seed)
