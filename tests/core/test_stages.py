"""Staged composition: exact odds carried stage to stage equal the brute-force branch walk
of the same definition; play uses the same stages; limits answer fast."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from smoothbore.core import (
    D6,
    D12,
    EnumerationLimitError,
    InvalidValueError,
    PoolCheck,
    SamplingDice,
    TotalCheck,
    odds,
)
from smoothbore.core.chance import Dice
from smoothbore.core.stages import Again, Done, Staged

HANG_GUARD = 30.0
"""Seconds: these tests catch a hang, not slowness (speed is measured in benchmarks/)."""


def _begin(count: int) -> tuple[int, tuple[int, int]]:
    return count, (0, 0)


def _add_die(count: int, value: tuple[int, int], *, dice: Dice) -> tuple[int, int] | Again[
        tuple[int, int]]:
    rolled, total = value
    total += dice.roll(TotalCheck.of(1, D6), reason="a die", rule="test")
    value = (rolled + 1, total)
    return value if rolled + 1 == count else Again(value)


def _cap(count: int, value: tuple[int, int], *, dice: Dice) -> int | Done[str]:
    if value[1] >= 5 * count:
        return Done("high")
    return value[1]


SUM = Staged("sum of d6", "test", _begin, (_add_die, _cap), lambda count, total: total)


def test_staged_sum_equals_the_exact_total() -> None:
    """Three d6 a die at a time, merged by total: the exact 3d6 below 15, 'high' above."""
    dist = odds(SUM, 3)
    want = TotalCheck.of(3, D6).distribution().map(lambda t: "high" if t >= 15 else t)
    assert dist == want
    assert dist.probability("high") == Fraction(20, 216)


def test_staged_equals_branch_walk_of_the_same_stages() -> None:
    """Composed stage by stage or walked branch by branch, the same definition gives the
    same distribution."""
    assert odds(SUM, 4) == odds(SUM.play, 4)


def test_play_rolls_every_stage_through_the_dice() -> None:
    """Play: the same seed gives the same result, and every roll is recorded."""
    dice = SamplingDice(7)
    result = SUM(3, dice=dice)
    assert len(dice.records) == 3
    again = SamplingDice(7)
    assert SUM(3, dice=again) == result
    faces = sum(r.faces[0] for r in dice.records)
    assert result == ("high" if faces >= 15 else faces)


def _inner(*, dice: Dice) -> int:
    return SUM(2, dice=dice) if dice.roll(PoolCheck(1, 6, D12), reason="x", rule="t") else 0


def test_staged_rule_inside_a_plain_rule_is_one_chance_node() -> None:
    """A staged rule called while a plain rule is enumerated answers with its distribution."""
    dist = odds(_inner)
    half = TotalCheck.of(2, D6).distribution()
    assert dist.probability(0) == Fraction(1, 2)
    assert dist.probability(7) == Fraction(1, 2) * half.probability(7)


def test_many_stages_merge_equal_values() -> None:
    """Sixty d6 one at a time: 301 totals, composed without walking 6**60 branches."""
    start = time.perf_counter()
    dist = odds(SUM, 60)
    assert time.perf_counter() - start < HANG_GUARD
    want = TotalCheck.of(60, D6).distribution().map(lambda t: "high" if t >= 300 else t)
    assert dist == want


def test_branch_limit_counts_every_stage() -> None:
    """max_branches bounds the branches enumerated over all the stages."""
    with pytest.raises(EnumerationLimitError):
        odds(SUM, 10, max_branches=20)


def test_limits_are_checked() -> None:
    """max_branches must be a positive integer (issue 12: a string gave a TypeError)."""
    with pytest.raises(InvalidValueError, match="max_branches"):
        odds(SUM, 2, max_branches="10")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="max_depth"):
        odds(SUM, 2, max_depth=0)


def _until_six(*, dice: Dice) -> int:
    rolls = 1
    while dice.roll(TotalCheck.of(1, D6), reason="until a 6", rule="t") != 6:
        rolls += 1
    return rolls


def test_rolling_without_bound_stops_at_the_depth_limit() -> None:
    """Roll until a 6: no exact distribution; the depth limit stops it at once."""
    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError, match="max_depth"):
        odds(_until_six, max_depth=50)
    assert time.perf_counter() - start < HANG_GUARD


def test_huge_walk_is_refused_from_its_estimate() -> None:
    """Twelve d12 read one by one (12**12 branches): refused in well under a second, with
    the estimate and the setting to raise."""

    def faces(*, dice: Dice) -> int:
        return sum(dice.roll(TotalCheck.of(1, D12), reason="d", rule="t") for _ in range(12))

    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError, match="max_branches") as raised:
        odds(faces)
    assert time.perf_counter() - start < HANG_GUARD
    assert raised.value.estimate > 10**12
