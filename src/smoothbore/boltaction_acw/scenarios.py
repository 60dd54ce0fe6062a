"""The embedded battle: a brigade a side of 1862, with independent cavalry, sharpshooters
and a battery, for demonstrations and the conformance suite, with a scenario that ends it."""

from __future__ import annotations

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
    """Gibbon's brigade against the Stonewall Brigade at Brawner's Farm (28 August 1862),
    each side with an army commander, a battery, an independent cavalry regiment, and for
    the Union Berdan's sharpshooters with Sharps rifles; six turns at most (A20)."""
    units = (
        Unit("u2wi", "2nd Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=5,
             brigade="gibbon"),
        Unit("u6wi", "6th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("u7wi", "7th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=5,
             brigade="gibbon"),
        Unit("u19in", "19th Indiana", UNION, INFANTRY, Experience.INEXPERIENCED, bases=5,
             brigade="gibbon"),
        Unit("ub4us", "Battery B, 4th US", UNION, UnitType.ARTILLERY, Experience.VETERAN,
             Weapon.SMOOTHBORE_CANNON, brigade="gibbon", formation=Formation.UNLIMBERED),
        Unit("uusss", "Berdan's Sharpshooters", UNION, UnitType.SKIRMISHERS,
             Experience.VETERAN, Weapon.SHARPS_RIFLE, bases=5),
        Unit("u1mi", "1st Michigan Cavalry", UNION, UnitType.CAVALRY, Experience.REGULAR,
             Weapon.RIFLED_CARBINE),
        Unit("c2va", "2nd Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="stonewall"),
        Unit("c4va", "4th Virginia", CONFEDERATE, INFANTRY, Experience.REGULAR,
             Weapon.SMOOTHBORE_MUSKET, bases=5, brigade="stonewall"),
        Unit("c5va", "5th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=6,
             brigade="stonewall"),
        Unit("c27va", "27th Virginia", CONFEDERATE, INFANTRY, Experience.REGULAR,
             Weapon.SMOOTHBORE_MUSKET, bases=5, brigade="stonewall"),
        Unit("c33va", "33rd Virginia", CONFEDERATE, INFANTRY, Experience.REGULAR, bases=5,
             brigade="stonewall"),
        Unit("cwood", "Wooding's Danville Artillery", CONFEDERATE, UnitType.ARTILLERY,
             Experience.REGULAR, Weapon.RIFLED_CANNON, formation=Formation.UNLIMBERED),
        Unit("c2vac", "2nd Virginia Cavalry", CONFEDERATE, UnitType.CAVALRY,
             Experience.VETERAN, Weapon.SMOOTHBORE_CARBINE),
    )
    commanders = (
        Commander("gibbon", "Brig. Gen. John Gibbon", UNION, Rank.BRIGADE, "gibbon",
                  with_unit="u6wi"),
        Commander("king", "Brig. Gen. Rufus King", UNION, Rank.ARMY),
        Commander("baylor", "Col. William Baylor", CONFEDERATE, Rank.BRIGADE, "stonewall",
                  with_unit="c2va", experience=Experience.VETERAN),
        Commander("jackson", "Maj. Gen. Thomas J. Jackson", CONFEDERATE, Rank.ARMY,
                  with_unit="c5va"),
    )
    return new_battle(units, commanders, seed=seed, scenario=EXAMPLE_SCENARIO)
