"""Embedded battles: a small action from the text's own commanders, for demonstrations and
for the conformance suite, with a scenario that ends it."""

from __future__ import annotations

from smoothbore.core import Scenario

from .state import State, new_battle
from .units import AMERICAN, BRITISH, Commander, Formation, Troops, Unit, UnitType, Weapon

EXAMPLE_TURNS = 6
"""The embedded action lasts at most six turns (an hour to three of the text's time)."""

EXAMPLE_SCENARIO = Scenario("Webster against Stevens", turn_limit=EXAMPLE_TURNS)


def example_battle(seed: int = 0) -> State:
    """Colonel Webster's British brigade (line, Hessian grenadiers, guns) against Colonel
    Stevens's Continentals and riflemen, at the start of turn 1 (the commanders of the text's
    examples, Bloodybacks 9.3, Determine commander activation level). The 1st Maryland are
    Continentals of quality 3 and the riflemen carry no bayonets, so neither has the cold
    steel ability; the battle ends when a side breaks or after six turns (B48)."""
    units = (
        Unit("b1", "33rd Foot", BRITISH, quality=4, density=5, size=20, brigade="1",
             troops=Troops.REGULAR),
        Unit("b2", "Hessian Grenadiers", BRITISH, quality=4, density=8, size=18, brigade="1",
             troops=Troops.REGULAR),
        Unit("b3", "Royal Artillery", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
             brigade="1", formation=Formation.UNLIMBERED, weapon=Weapon.CANNON),
        Unit("a1", "1st Maryland", AMERICAN, quality=3, density=6, size=20, brigade="x",
             troops=Troops.CONTINENTAL),
        Unit("a2", "Virginia Riflemen", AMERICAN, quality=3, density=3, size=10, brigade="x",
             weapon=Weapon.RIFLE, troops=Troops.CONTINENTAL, bayonets=False),
    )
    commanders = (
        Commander("cb", "Colonel Webster", BRITISH, command_quality=4, activity_rating=4,
                  brigade="1"),
        Commander("ca", "Colonel Stevens", AMERICAN, command_quality=3, activity_rating=2,
                  brigade="x", attached_to="a1"),
    )
    return new_battle(units, commanders, seed=seed, scenario=EXAMPLE_SCENARIO)
