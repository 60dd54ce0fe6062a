"""Shooting: shots, to-hit modifiers, exact hits and wounds against brute force, a whole
attack against an oracle."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.boltaction_acw.morale import check_for
from smoothbore.boltaction_acw.options import BeyondSix, CannonDamage, Options
from smoothbore.boltaction_acw.shooting import (
    Cover,
    Firing,
    ShotFacts,
    WoundCheck,
    fire_problem,
    roll_hits,
    shoot,
    shots,
    to_hit,
)
from smoothbore.boltaction_acw.units import (
    CONFEDERATE,
    UNION,
    Experience,
    Formation,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import odds

from .oracle import hits_distribution, wounds_distribution

FOOT = Unit("f", "Foot", UNION)
TARGET = Unit("t", "Target", CONFEDERATE)


def test_shots_by_formation_and_type() -> None:
    assert shots(FOOT) == 10
    assert shots(attrs.evolve(FOOT, formation=Formation.COLUMN)) == 2
    assert shots(Unit("s", "S", UNION, UnitType.SKIRMISHERS)) == 5
    cavalry = Unit("c", "C", UNION, UnitType.CAVALRY)
    assert shots(cavalry) == 6
    assert shots(attrs.evolve(cavalry, formation=Formation.COLUMN)) == 1
    assert shots(Unit("c", "C", UNION, UnitType.CAVALRY, mounted=False)) == 5
    assert shots(Unit("g", "G", UNION, UnitType.ARTILLERY)) == 0
    assert shots(Unit("g", "G", UNION, UnitType.ARTILLERY, formation=Formation.UNLIMBERED)) == 1


def test_every_to_hit_modifier() -> None:
    assert to_hit(FOOT, TARGET, ShotFacts(12)).total == 3
    assert to_hit(FOOT, TARGET, ShotFacts(6)).total == 2
    assert to_hit(FOOT, TARGET, ShotFacts(13)).total == 4
    pinned = attrs.evolve(FOOT, pins=2, experience=Experience.INEXPERIENCED)
    down = attrs.evolve(TARGET, down=True)
    need = to_hit(pinned, down, ShotFacts(20, Cover.HARD),
                  Firing(moving=True, after_failed_charge=True, interpenetrated=True))
    assert need.total == 3 + 2 + 1 + 1 + 1 + 1 + 1 + 2 + 1
    gun = Unit("g", "G", UNION, UnitType.ARTILLERY, formation=Formation.UNLIMBERED,
               casualties=1)
    assert to_hit(gun, gun, ShotFacts(24)).total == 3 + 1 + 1
    assert to_hit(Unit("c", "C", UNION, UnitType.CAVALRY), TARGET, ShotFacts(9)).total == 4


def test_range_and_arc() -> None:
    assert "beyond" in fire_problem(FOOT, TARGET, ShotFacts(25))
    assert "arc" in fire_problem(FOOT, TARGET, ShotFacts(12, in_arc=False))
    skirmishers = Unit("s", "S", UNION, UnitType.SKIRMISHERS)
    assert fire_problem(skirmishers, TARGET, ShotFacts(12, in_arc=False)) == ""


@pytest.mark.parametrize(("count", "need"), [(1, 1), (2, 3), (3, 5), (2, 6), (2, 7), (2, 8),
                                             (2, 9), (1, 10)])
def test_hits_match_enumeration(count: int, need: int) -> None:
    dist = odds(roll_hits, count, need)
    oracle = hits_distribution(count, need)
    for hits in range(count + 1):
        assert dist.probability(hits) == oracle.get(hits, 0)


def test_beyond_six_options() -> None:
    natural = odds(roll_hits, 1, 8, options=Options(beyond_six=BeyondSix.NATURAL_SIX))
    assert natural.probability(1) == Fraction(1, 6)
    assert odds(roll_hits, 1, 7, options=Options(beyond_six=BeyondSix.NO_HIT)).probability(0) == 1


@pytest.mark.parametrize(("count", "need"), [(1, 4), (3, 3), (4, 5), (3, 6)])
def test_wound_check_matches_enumeration(count: int, need: int) -> None:
    dist = WoundCheck(count, need).distribution()
    for key, weight in wounds_distribution(count, need).items():
        assert dist.probability(key) == weight


def test_a_whole_attack_against_an_oracle() -> None:
    """One base (2 shots) at 12" on a target with 3 casualties marked and no colonel: each
    wound loses a base (4 casualties), then a morale test at 8 -1 pin -1 base."""
    firer = attrs.evolve(FOOT, bases=1)
    target = attrs.evolve(TARGET, casualties=3, colonel=False)
    dist = odds(lambda dice: shoot(firer, target, ShotFacts(12), dice=dice)[0].morale)
    p_hit, p_wound = Fraction(4, 6), Fraction(3, 6)
    p_no_wound = (1 - p_hit * p_wound) ** 2
    p_hold = check_for(6).distribution().probability(True)
    assert dist.probability("") == p_no_wound
    assert dist.probability("routs") == (1 - p_no_wound) * (1 - p_hold)


def test_a_hit_pins_and_enfilade_pins_again() -> None:
    result, after = shoot(attrs.evolve(FOOT, bases=6), TARGET, ShotFacts(6, enfilade=True),
                          dice=_Always(6))
    assert result.hits == 12 and result.pins == 2 and after.pins == 2
    assert result.colonel_killed and not after.colonel


def test_cannon_damage_hits_or_casualties() -> None:
    gun = Unit("g", "G", UNION, UnitType.ARTILLERY, weapon=Weapon.SMOOTHBORE_CANNON,
               formation=Formation.UNLIMBERED)
    as_hits = odds(lambda dice: shoot(gun, TARGET, ShotFacts(12), dice=dice)[0].wounds)
    direct = odds(lambda dice: shoot(gun, TARGET, ShotFacts(12), dice=dice,
                                     options=Options(cannon_damage=CannonDamage.CASUALTIES)
                                     )[0].wounds)
    assert direct.probability(12) == Fraction(2, 3) * Fraction(1, 36)
    assert as_hits.probability(12) == Fraction(2, 3) * Fraction(1, 36) * Fraction(1, 2) ** 12


class _Always:
    """Dice that show ``face`` on every die (a worked example, not odds)."""

    def __init__(self, face: int) -> None:
        self.face = face

    def roll(self, check, *, reason: str, rule: str):  # type: ignore[no-untyped-def]
        return check.draw(lambda n: n - 1 if self.face == 6 else 0)[0]


def test_the_plain_need_is_the_explained_need() -> None:
    from itertools import product

    from smoothbore.boltaction_acw.shooting import hit_need

    firers = [FOOT, attrs.evolve(FOOT, pins=2, experience=Experience.INEXPERIENCED),
              Unit("h", "Horse", UNION, UnitType.CAVALRY),
              attrs.evolve(Unit("g", "Gun", UNION, UnitType.ARTILLERY,
                                formation=Formation.UNLIMBERED), casualties=1)]
    targets = [TARGET, attrs.evolve(TARGET, down=True),
               Unit("tg", "Gun", CONFEDERATE, UnitType.ARTILLERY)]
    for firer, target, distance, cover, moving, failed, through in product(
        firers, targets, (3, 6, 7, 12, 13), Cover, (False, True), (False, True),
        (False, True),
    ):
        facts, firing = ShotFacts(distance, cover), Firing(moving, failed, through)
        assert hit_need(firer, target, facts, firing) == to_hit(firer, target, facts,
                                                                firing).total


def test_wound_check_refuses_impossible_needs_and_samples_from_its_distribution() -> None:
    import numpy as np

    from smoothbore.core import InvalidValueError

    for count, need in ((-1, 4), (2, 1), (2, 7)):
        with pytest.raises(InvalidValueError, match="a need of 2 to 6"):
            WoundCheck(count, need)
    check = WoundCheck(4, 5)
    assert str(check) == check.describe() == "4d6 at or over 5, 6s counted"
    drawn = check.sample(np.random.default_rng(7), 300)
    support = wounds_distribution(4, 5)
    assert len(drawn) == 300 and all(support.get(tuple(x), 0) > 0 for x in drawn)


def test_units_with_no_shot() -> None:
    """Shooting: a destroyed unit, limbered guns and wagons fire nothing."""
    assert shots(attrs.evolve(FOOT, bases=0)) == 0
    assert shots(Unit("g", "Limbered gun", UNION, UnitType.ARTILLERY)) == 0
    assert shots(Unit("w", "Wagon", UNION, UnitType.WAGON)) == 0
    assert "has no shot" in fire_problem(Unit("w", "Wagon", UNION, UnitType.WAGON), TARGET,
                                         ShotFacts(6))
