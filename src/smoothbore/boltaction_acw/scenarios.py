"""The embedded battles: a brigade a side, from the order of battle where history gives it,
each with a scenario that ends it (A20, A21)."""

from __future__ import annotations

from collections.abc import Callable

from smoothbore.core import Scenario

from .state import State, new_battle
from .units import (
    CONFEDERATE,
    UNION,
    Commander,
    Experience,
    Formation,
    Rank,
    Unit,
    UnitType,
    Weapon,
)

EXAMPLE_TURNS = 6
EXAMPLE_SCENARIO = Scenario("Brawner's Farm, 28 August 1862", turn_limit=EXAMPLE_TURNS)

INFANTRY = UnitType.INFANTRY


def example_battle(seed: int = 0) -> State:
    """Gibbon's brigade against the Stonewall Brigade at Brawner's Farm (28 August 1862), six
    turns at most (A20, A21). The order of battle is the historical one: Gibbon's four
    regiments, large (6 bases) and new to battle but for the 2nd Wisconsin, which had fought
    at First Bull Run (veteran), with Battery B, 4th US (regulars, 12lb Napoleons); Baylor's
    five Virginia regiments, worn down to small regiments (4 bases) of veterans, the 4th and
    27th still with smoothbore muskets, and Wooding's Danville Artillery, an independent
    battery with rifled guns. King's division commander and Jackson are the army
    commanders."""
    units = (
        Unit("u2wi", "2nd Wisconsin", UNION, INFANTRY, Experience.VETERAN, bases=6,
             brigade="gibbon"),
        Unit("u6wi", "6th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("u7wi", "7th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("u19in", "19th Indiana", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("ub4us", "Battery B, 4th US", UNION, UnitType.ARTILLERY, Experience.VETERAN,
             Weapon.SMOOTHBORE_CANNON, brigade="gibbon", formation=Formation.UNLIMBERED),
        Unit("c2va", "2nd Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("c4va", "4th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN,
             Weapon.SMOOTHBORE_MUSKET, bases=4, brigade="stonewall"),
        Unit("c5va", "5th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("c27va", "27th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN,
             Weapon.SMOOTHBORE_MUSKET, bases=4, brigade="stonewall"),
        Unit("c33va", "33rd Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("cwood", "Wooding's Danville Artillery", CONFEDERATE, UnitType.ARTILLERY,
             Experience.REGULAR, Weapon.RIFLED_CANNON, formation=Formation.UNLIMBERED),
    )
    commanders = (
        Commander("gibbon", "Brig. Gen. John Gibbon", UNION, Rank.BRIGADE, "gibbon",
                  with_unit="u6wi"),
        Commander("king", "Brig. Gen. Rufus King", UNION, Rank.ARMY),
        Commander("baylor", "Col. William Baylor", CONFEDERATE, Rank.BRIGADE, "stonewall",
                  with_unit="c2va", experience=Experience.VETERAN),
        Commander("jackson", "Maj. Gen. Thomas J. Jackson", CONFEDERATE, Rank.ARMY),
    )
    return new_battle(units, commanders, seed=seed, scenario=EXAMPLE_SCENARIO)


MCPHERSONS_RIDGE = Scenario("McPherson's Ridge, 1 July 1863", turn_limit=EXAMPLE_TURNS)


def mcphersons_ridge(seed: int = 0) -> State:
    """Gamble's cavalry brigade against Archer's brigade on the morning of Gettysburg
    (1 July 1863), six turns at most (A21): Gamble's troopers fight dismounted in skirmish
    order with their breech-loading carbines (rifled carbines), one regiment held mounted in
    reserve, with Calef's battery (Battery A, 2nd US, 3-inch rifles); Archer's four
    veteran regiments in line, the 5th Alabama Battalion out as skirmishers, and Marye's
    Fredericksburg Artillery as an independent battery. Buford and Heth are the army
    commanders."""
    cavalry, dismounted = UnitType.CAVALRY, Formation.SKIRMISH
    units = (
        Unit("u8il", "8th Illinois Cavalry", UNION, cavalry, Experience.VETERAN,
             Weapon.RIFLED_CARBINE, brigade="gamble", mounted=False, formation=dismounted),
        Unit("u8ny", "8th New York Cavalry", UNION, cavalry, Experience.VETERAN,
             Weapon.RIFLED_CARBINE, brigade="gamble", mounted=False, formation=dismounted),
        Unit("u12il", "12th Illinois and 3rd Indiana Cavalry", UNION, cavalry,
             Experience.VETERAN, Weapon.RIFLED_CARBINE, brigade="gamble"),
        Unit("ucalef", "Calef's Battery A, 2nd US", UNION, UnitType.ARTILLERY,
             Experience.VETERAN, Weapon.RIFLED_CANNON, brigade="gamble",
             formation=Formation.UNLIMBERED),
        Unit("c1tn", "1st Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c7tn", "7th Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c14tn", "14th Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c13al", "13th Alabama", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c5al", "5th Alabama Battalion", CONFEDERATE, UnitType.SKIRMISHERS,
             Experience.VETERAN, bases=5, brigade="archer"),
        Unit("cmarye", "Marye's Fredericksburg Artillery", CONFEDERATE, UnitType.ARTILLERY,
             Experience.REGULAR, Weapon.RIFLED_CANNON, formation=Formation.UNLIMBERED),
    )
    commanders = (
        Commander("gamble", "Col. William Gamble", UNION, Rank.BRIGADE, "gamble",
                  with_unit="u8il", experience=Experience.VETERAN),
        Commander("buford", "Brig. Gen. John Buford", UNION, Rank.ARMY, with_unit="u8ny"),
        Commander("archer", "Brig. Gen. James J. Archer", CONFEDERATE, Rank.BRIGADE,
                  "archer", with_unit="c1tn", experience=Experience.VETERAN),
        Commander("heth", "Maj. Gen. Henry Heth", CONFEDERATE, Rank.ARMY),
    )
    return new_battle(units, commanders, seed=seed, scenario=MCPHERSONS_RIDGE)


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("mcphersons-ridge", mcphersons_ridge),
)
"""The embedded battles besides ``example_battle`` (Brawner's Farm)."""
