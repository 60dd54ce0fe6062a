"""The tests' battle: a fixed mixed-arms battle (brigades, independent cavalry,
sharpshooters, batteries, commanders with units) that the step tests are written against."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from smoothbore.battle import random_policy
from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.state import State, new_battle
from smoothbore.boltaction_acw.units import (
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
from smoothbore.core import Deferred, Scenario

SCENARIO = Scenario("a test battle", turn_limit=6)
INFANTRY = UnitType.INFANTRY


def sample_battle(seed: int = 0) -> State:
    """A brigade a side with every kind of unit: each side with an army commander, a
    battery, an independent cavalry regiment, and for the Union sharpshooters with Sharps
    rifles; six turns at most. The tests' own battle, fixed whatever the embedded battles
    become."""
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
    return new_battle(units, commanders, seed=seed, scenario=SCENARIO)


def expanded(candidates: Iterable[object]) -> list[object]:
    """A rule's candidates with each ``Deferred`` group replaced by its actions (what
    ``legal_actions`` tries), checking that no group lists more than its bound."""
    out: list[object] = []
    for item in candidates:
        if isinstance(item, Deferred):
            actions = item.actions()
            assert len(actions) <= item.bound
            out.extend(actions)
        else:
            out.append(item)
    return out


def random_states(state: State, seed: int, steps: int) -> Iterator[State]:
    """``state`` and the states random play (seeded ``seed``) leads it through, at most
    ``steps`` of them, stopping early when no action is legal."""
    policy = random_policy(seed)
    for _ in range(steps):
        yield state
        actions = TURN.legal_actions(state)
        if not actions:
            return
        state, _ = TURN.step(state, policy(state, actions))
