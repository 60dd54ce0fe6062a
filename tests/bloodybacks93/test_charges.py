"""Bloodybacks 9.3, Charges and melee: Evade, Determine impetus, Check to stand, Pursuit."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given

from smoothbore.bloodybacks93.charges import (
    ChargeFacts,
    Contact,
    check_to_stand,
    evade,
    impetus_dice,
    may_evade,
    must_evade,
    pursuit_distance,
    roll_impetus,
)
from smoothbore.bloodybacks93.morale import TestResult
from smoothbore.bloodybacks93.shooting import Cover
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Troops, Unit, UnitType
from smoothbore.core import IllegalActionError, InvalidValueError, odds

from .oracle import AV_FACES, D12_FACES, pool, results_of, totals
from .strategies import infantry

CHARGER = Unit("c", "Foot", BRITISH, quality=3, density=6, size=20, troops=Troops.MILITIA)
TARGET = Unit("t", "Target", AMERICAN, quality=3, density=6, size=20)


def test_impetus_base_and_every_modifier() -> None:
    """Determine impetus: 4 d12; +1 per target DRP; -1 per charger DRP; +1 commander; +2
    flank, +3 rear; +/- size steps; -1 uphill; +1 cold steel; +1 heavy cavalry; -3 cavalry
    countercharged by cavalry."""
    assert impetus_dice((CHARGER,), (TARGET,), ChargeFacts()).total == 4
    shaken = attrs.evolve(TARGET, disruption=2)
    tired = attrs.evolve(CHARGER, disruption=1)
    facts = ChargeFacts(charger_commander_attached=True, contact=Contact.REAR, uphill=True)
    assert impetus_dice((tired,), (shaken,), facts).total == 4 + 2 - 1 + 1 + 3 - 1
    assert impetus_dice((CHARGER,), (TARGET,), ChargeFacts(contact=Contact.FLANK)).total == 6
    big = attrs.evolve(CHARGER, size=60)
    assert impetus_dice((big,), (TARGET,), ChargeFacts()).total == 7
    small = attrs.evolve(CHARGER, size=13)
    assert impetus_dice((small,), (TARGET,), ChargeFacts()).total == 3
    regular = attrs.evolve(CHARGER, troops=Troops.REGULAR)
    assert impetus_dice((regular,), (TARGET,), ChargeFacts()).total == 5
    assert impetus_dice((regular,), (TARGET,), ChargeFacts(use_cold_steel=False)).total == 4
    horse = Unit("h", "Horse", BRITISH, kind=UnitType.CAVALRY, quality=2, heavy_cavalry=True)
    counter = ChargeFacts(countercharged_by_cavalry=True)
    assert impetus_dice((horse,), (TARGET,), counter).total == 4 + 1 - 3
    text = impetus_dice((tired,), (shaken,), facts).explain()
    assert "Determine impetus" in text


def test_impetus_never_negative_dice() -> None:
    """Determine impetus: dice taken away below none leave no impetus."""
    wreck = attrs.evolve(CHARGER, disruption=3, size=5)
    dist = odds(roll_impetus, (wreck,), (TARGET,), ChargeFacts(uphill=True))
    assert dist.probability(0) == 1


@pytest.mark.parametrize("quality", [1, 3, 5])
def test_impetus_exact(quality: int) -> None:
    """Determine impetus: each die succeeds at or under twice the charger's quality."""
    charger = attrs.evolve(CHARGER, quality=quality)
    dist = odds(roll_impetus, (charger,), (TARGET,), ChargeFacts())
    assert {o: dist.probability(o) for o in dist.outcomes} == pool(4, 2 * quality, False)


def test_multiple_chargers_combine_size() -> None:
    """Multiple unit melee: the combined size of all attacking units."""
    second = attrs.evolve(CHARGER, id="c2")
    assert impetus_dice((CHARGER, second), (TARGET,), ChargeFacts()).total == 4 + 2
    with pytest.raises(IllegalActionError):
        impetus_dice((CHARGER,), (attrs.evolve(TARGET, side=BRITISH),), ChargeFacts())
    with pytest.raises(InvalidValueError):
        impetus_dice((), (TARGET,), ChargeFacts())


@pytest.mark.parametrize("impetus", [2, 3, 4, 6])
def test_check_to_stand(impetus: int) -> None:
    """Check to stand: impetus above the defender's quality forces a cohesion test at -1
    per point above; the defender abides by the result."""
    dist = odds(check_to_stand, (TARGET,), impetus, ChargeFacts()).map(
        lambda s: str(s.tests[0].result) if s.tests else "no test")
    got = {o: dist.probability(o) for o in dist.outcomes}
    if impetus <= 3:
        assert got == {"no test": 1}
    else:
        assert got == results_of(3 + 6 - (impetus - 3))


def test_stand_in_works_holds_on_push_back() -> None:
    """Check to stand: defenders in fortifications or behind an obstacle are not pushed back."""
    facts = ChargeFacts(cover=Cover.FORTIFICATIONS)
    dist = odds(check_to_stand, (TARGET,), 5, facts)
    for stand in dist.outcomes:
        if stand.tests[0] is not None and stand.tests[0].result is TestResult.PUSHED_BACK:
            assert stand.standing(facts) == (True,)


def test_who_may_or_must_evade() -> None:
    """Evade: infantry of density 3-4 charged by infantry of density 5+ may evade, must in
    the open, not from hard cover."""
    skirmish = attrs.evolve(TARGET, density=3)
    assert may_evade(skirmish, CHARGER)
    assert must_evade(skirmish, CHARGER, in_open=True)
    assert not must_evade(skirmish, CHARGER, in_open=False)
    assert not may_evade(skirmish, CHARGER, hard_cover=True)
    assert not may_evade(TARGET, CHARGER)
    assert not may_evade(skirmish, attrs.evolve(CHARGER, density=4))
    horse = Unit("h", "Horse", BRITISH, kind=UnitType.CAVALRY)
    assert not may_evade(skirmish, horse)
    with pytest.raises(IllegalActionError):
        odds(evade, TARGET, CHARGER)


@pytest.mark.parametrize("spare", [0, 7, 9])
def test_evade_exact(spare: int) -> None:
    """Evade: 2dAv + quality inches, a DRP and a morale test; caught evaders are
    destroyed."""
    skirmish = attrs.evolve(TARGET, density=3, quality=2)
    expected: dict[str, Fraction] = {}
    for distance, p in totals(AV_FACES, 2, 2).items():
        if spare >= distance:
            expected["caught"] = expected.get("caught", Fraction(0)) + p
        else:
            for result, q in results_of(4).items():
                expected[result] = expected.get(result, Fraction(0)) + p * q
    dist = odds(evade, skirmish, CHARGER, charger_spare_move=spare).map(
        lambda e: "caught" if e.caught else str(e.morale.result))
    assert {o: dist.probability(o) for o in dist.outcomes} == expected
    sample = odds(evade, skirmish, CHARGER).outcomes[0]
    assert sample.unit.disruption == 1 or sample.unit.destroyed


def test_pursuit() -> None:
    """Pursuit: infantry dAv + quality, cavalry dAv + d12 inches."""
    foot = odds(pursuit_distance, attrs.evolve(CHARGER, quality=4))
    assert {o: foot.probability(o) for o in foot.outcomes} == totals(AV_FACES, 1, 4)
    horse = odds(pursuit_distance, Unit("h", "H", BRITISH, kind=UnitType.CAVALRY))
    expected: dict[int, Fraction] = {}
    for a in AV_FACES:
        for b in D12_FACES:
            expected[a + b] = expected.get(a + b, Fraction(0)) + Fraction(1, 72)
    assert {o: horse.probability(o) for o in horse.outcomes} == expected


@given(infantry(AMERICAN), infantry(BRITISH))
def test_evade_eligibility_property(defender: Unit, charger: Unit) -> None:
    """Evade: exactly density 3-4 infantry charged by density 5+ infantry may evade; compulsory
    only in the open."""
    expected = defender.density <= 4 and charger.density >= 5
    assert may_evade(defender, charger) is expected
    assert must_evade(defender, charger, in_open=False) is False


def test_indians_in_woods() -> None:
    """Concepts and definitions: Quality: indians use their woods quality for impetus (2 x
    quality) and for the check to stand when the charge says they are in woods."""
    indians = Unit("i", "Mohawks", BRITISH, quality=1, woods_quality=5, density=4,
                   troops=Troops.INDIAN)
    assert odds(roll_impetus, (indians,), (TARGET,), ChargeFacts(charger_in_woods=True)) == (
        odds(roll_impetus, (attrs.evolve(indians, quality=5),), (TARGET,), ChargeFacts()))
    defending = attrs.evolve(indians, side=AMERICAN)
    in_woods = odds(check_to_stand, (defending,), 4, ChargeFacts(defender_in_woods=True))
    assert in_woods.probability(lambda s: not s.tests) == 1  # 4 is not above quality 5
    in_open = odds(check_to_stand, (defending,), 4, ChargeFacts())
    got = in_open.map(lambda s: str(s.tests[0].result))
    assert {o: got.probability(o) for o in got.outcomes} == results_of(1 + 4 - 3)
