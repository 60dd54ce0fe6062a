"""Bloodybacks 9.3, Morale; Rally."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given

from smoothbore.bloodybacks93.morale import (
    TestKind,
    TestResult,
    apply_result,
    holds_ground,
    need_for_test,
    push_back_distance,
    rally,
    result_for,
    rout_distance,
    take_test,
)
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType
from smoothbore.core import InvalidValueError, SamplingDice, odds

from .oracle import AV_FACES, results_of, totals
from .strategies import units


def test_morale_base_is_twice_quality() -> None:
    """Morale: MORALE TESTS use 2 x unit quality."""
    assert need_for_test(Unit("a", "A", BRITISH, quality=4), TestKind.MORALE).total == 8


def test_cohesion_base_is_quality_plus_density() -> None:
    """Morale: COHESION TESTS use unit quality + unit density."""
    unit = Unit("a", "A", BRITISH, quality=4, density=8)
    assert need_for_test(unit, TestKind.COHESION).total == 12


def test_every_modifier() -> None:
    """Morale: Modifiers: -2 per full 6 stamina, -1 per impetus point above quality,
    -difference in losses, +1 commander attached."""
    unit = Unit("a", "A", BRITISH, quality=3, density=6, stamina_losses=12)
    need = need_for_test(unit, TestKind.COHESION, charger_impetus=5, lost_melee_by=2,
                     commander_attached=True)
    assert need.total == 9 - 4 - 2 - 2 + 1
    assert need.explain().count("Morale: Modifiers") == 4
    assert need_for_test(unit, TestKind.COHESION, charger_impetus=3).total == 9 - 4
    with pytest.raises(InvalidValueError):
        need_for_test(unit, TestKind.MORALE, lost_melee_by=-1)


@pytest.mark.parametrize(("quality", "density", "commander", "impetus", "need"), [
    (1, 3, False, 7, 4 - 6),  # cohesion 1 + 3, impetus 7 is 6 above quality 1
    (1, 3, False, 4, 4 - 3),
    (1, 3, False, None, 4),
    (2, 3, False, None, 5),
    (3, 5, False, None, 8),
    (5, 6, False, None, 11),
    (5, 8, False, None, 13),
    (5, 8, True, None, 14),  # 1s always succeed, 12s always fail even at need 14
])
def test_exact_test_by_enumeration(
    quality: int, density: int, commander: bool, impetus: int | None, need: int
) -> None:
    """Morale: a cohesion test needs quality + density, -1 per impetus point above quality,
    +1 with a commander; three d12, 1s always succeed and 12s always fail; 0-3 successes give
    destroyed, rout, pushed back, carry on."""
    unit = Unit("a", "A", BRITISH, quality=quality, density=density)
    dist = odds(take_test, unit, TestKind.COHESION, commander_attached=commander,
                charger_impetus=impetus)
    assert {t.need for t in dist.outcomes} == {need}
    results = dist.map(lambda t: str(t.result))
    assert {o: results.probability(o) for o in results.outcomes} == results_of(need)


def test_results_table() -> None:
    """Morale: results by successes."""
    assert [result_for(k) for k in range(4)] == [
        TestResult.DESTROYED, TestResult.ROUT, TestResult.PUSHED_BACK, TestResult.CARRY_ON]
    with pytest.raises(InvalidValueError):
        result_for(4)


def test_apply_results() -> None:
    """Morale: rout raises DRPs to 3; push back destroys deployed artillery unless in works;
    a routing unit that rolls push back or carry on recovers (the turn keeps it from acting
    that turn: test_steps_units)."""
    unit = Unit("a", "A", BRITISH, disruption=1)
    routed = apply_result(unit, TestResult.ROUT)
    assert routed.routing and routed.disruption == 3
    assert apply_result(unit, TestResult.DESTROYED).destroyed
    guns = Unit("g", "Guns", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3,
                formation=Formation.UNLIMBERED)
    assert apply_result(guns, TestResult.PUSHED_BACK).destroyed
    assert not apply_result(guns, TestResult.PUSHED_BACK,
                            fortified_or_behind_obstacle=True).destroyed
    recovered = apply_result(routed, TestResult.PUSHED_BACK)
    assert not recovered.routing and not recovered.destroyed
    assert apply_result(routed, TestResult.CARRY_ON) == attrs.evolve(routed, routing=False)
    assert apply_result(routed, TestResult.ROUT) == routed
    assert holds_ground(TestResult.PUSHED_BACK, fortified_or_behind_obstacle=True)
    assert not holds_ground(TestResult.PUSHED_BACK)


def test_rout_and_push_back_moves() -> None:
    """Morale: Push Back 2dAv"; Rout infantry 6"+dAv, cavalry 12"+dAv, artillery destroyed."""
    push = odds(push_back_distance)
    assert {o: push.probability(o) for o in push.outcomes} == totals(AV_FACES, 2)
    foot = odds(rout_distance, Unit("a", "A", BRITISH))
    assert {o: foot.probability(o) for o in foot.outcomes} == totals(AV_FACES, 1, 6)
    horse = odds(rout_distance, Unit("c", "C", BRITISH, kind=UnitType.CAVALRY))
    assert {o: horse.probability(o) for o in horse.outcomes} == totals(AV_FACES, 1, 12)
    guns = Unit("g", "G", BRITISH, kind=UnitType.LIGHT_ARTILLERY, density=3,
                formation=Formation.LIMBERED)
    assert odds(rout_distance, guns).probability(None) == Fraction(1)
    assert apply_result(guns, TestResult.ROUT).destroyed


def test_rally_removes_one_drp() -> None:
    """Rally: a rally action removes one DRP."""
    assert rally(Unit("a", "A", BRITISH, disruption=2)).disruption == 1
    assert rally(Unit("a", "A", BRITISH)).disruption == 0


@given(units())
def test_test_distributions_sum_to_one(unit: Unit) -> None:
    """Morale: every test's exact distribution sums to one and names the rule."""
    dist = odds(take_test, unit, TestKind.MORALE)
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    dice = SamplingDice(1)
    take_test(unit, TestKind.COHESION, dice=dice)
    assert dice.records[0].rule.startswith("Bloodybacks 9.3, Morale")
