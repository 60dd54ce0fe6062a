"""Chance: sampling dice record every roll; odds enumerates multi-step rules exactly."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import (
    D6,
    D12,
    Dice,
    EnumerationLimitError,
    InvalidValueError,
    PoolCheck,
    SamplingDice,
    ThresholdCheck,
    TotalCheck,
    make_rng,
    monte_carlo,
    odds,
)


def volley(*, dice: Dice, firers: int = 2) -> str:
    """A toy multi-step rule: each firer hits on 2d6 >= 7; with any hit the target rolls a
    d6 save, needing more than the number of hits."""
    hits = sum(
        dice.roll(ThresholdCheck((D6, D6), 7), reason="fire", rule="toy 1") for _ in range(firers)
    )
    if hits == 0:
        return "unhurt"
    save = dice.roll(TotalCheck((D6,)), reason="save", rule="toy 2")
    return "saved" if save > hits else f"{hits} lost"


def test_odds_equals_hand_enumeration_of_a_dependent_sequence() -> None:
    counts: Counter[str] = Counter()
    for a1, a2, b1, b2, save in product(range(1, 7), repeat=5):
        hits = (a1 + a2 >= 7) + (b1 + b2 >= 7)
        if hits == 0:
            counts["unhurt"] += 1
        else:
            counts["saved" if save > hits else f"{hits} lost"] += 1
    dist = odds(volley)
    for result, n in counts.items():
        assert dist.probability(result) == Fraction(n, 6**5)
    assert sum(w for _, w in dist.items()) == dist.denominator


def test_odds_passes_arguments_and_handles_rules_without_rolls() -> None:
    assert odds(volley, firers=0).probability("unhurt") == 1
    assert odds(volley, firers=1).probability("1 lost") == Fraction(21, 36) * Fraction(1, 6)


def test_odds_stops_past_the_branch_limit() -> None:
    def deep(*, dice: Dice) -> int:
        return sum(dice.roll(TotalCheck((D12,)), reason="x", rule="toy") for _ in range(6))

    with pytest.raises(EnumerationLimitError, match="1,000"):
        odds(deep, max_branches=1000)


def test_sampling_dice_records_check_faces_reason_and_rule() -> None:
    dice = SamplingDice(7)
    result = volley(dice=dice)
    records = dice.records
    assert [r.reason for r in records[:2]] == ["fire", "fire"]
    assert all(r.rule.startswith("toy") for r in records)
    for record in records[:2]:
        assert len(record.faces) == 2
        assert record.outcome == (sum(record.faces) >= 7)
    assert "->" in records[0].narrate()
    assert result in odds(volley).outcomes
    assert dice.records_since(len(records)) == ()
    assert dice.records == records and dice.records_since(1) == records[1:]
    assert records[0].check == "2d6 at least 7"  # the check as words, written when read


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**63 - 1))
def test_same_seed_same_rolls(seed: int) -> None:
    first, second = SamplingDice(seed), SamplingDice(seed)
    for _ in range(5):
        volley(dice=first)
        volley(dice=second)
    assert first.records == second.records


def test_sampling_dice_agree_with_exact_odds() -> None:
    dice = SamplingDice(np.random.default_rng(99))
    size = 60_000
    counts = Counter(volley(dice=dice) for _ in range(size))
    for result, weight in odds(volley).items():
        p = weight / odds(volley).denominator
        assert abs(counts[result] / size - p) <= 5 * (p * (1 - p) / size) ** 0.5


def test_sampling_dice_faces_are_uniform() -> None:
    dice = SamplingDice(3)
    check = PoolCheck(1, 12)
    faces = Counter()  # type: Counter[int]
    for _ in range(24_000):
        dice.roll(check, reason="face", rule="toy")
    for record in dice.records:
        faces[record.faces[0]] += 1
    assert set(faces) == set(range(1, 13))
    assert max(faces.values()) - min(faces.values()) < 300


def test_make_rng_follows_spec_7() -> None:
    generator = np.random.default_rng(5)
    assert make_rng(generator) is generator
    assert make_rng(5).integers(1000) == np.random.default_rng(5).integers(1000)
    assert isinstance(make_rng(None), np.random.Generator)
    with pytest.raises(InvalidValueError, match="rng"):
        make_rng("seed")  # type: ignore[arg-type]


def test_monte_carlo_agrees_with_exact_and_is_seeded() -> None:
    estimate = monte_carlo(volley, samples=20_000, rng=8, firers=2)
    exact = odds(volley, firers=2)
    assert estimate.samples == 20_000
    assert sum(n for _, n in estimate.counts) == 20_000
    assert estimate.agrees_with(exact)
    assert monte_carlo(volley, samples=500, rng=8, firers=2) == monte_carlo(
        volley, samples=500, rng=8, firers=2
    )
    # a distribution the rule does not follow is caught
    wrong = odds(volley, firers=3)
    assert not estimate.agrees_with(wrong)
    assert estimate.standard_error("unhurt") > 0
    with pytest.raises(InvalidValueError, match="samples"):
        monte_carlo(volley, samples=0)


@pytest.mark.parametrize(
    "check",
    [
        PoolCheck(6, 7, auto_pass={1}, auto_fail={12}),  # one pick for the whole pool
        PoolCheck(10, 5),  # 12**10 is past one 32-bit pick: a pick per die
        PoolCheck(3, 3, D6, reroll_failures=True),
    ],
    ids=lambda c: c.describe(),
)
def test_rolled_pools_show_their_faces_and_follow_the_exact_odds(check: PoolCheck) -> None:
    def roll(*, dice: Dice) -> int:
        return dice.roll(check, reason="pool", rule="toy")

    dice = SamplingDice(21)
    for _ in range(300):
        successes = roll(dice=dice)
        faces = dice.records[-1].faces
        if not check.reroll_failures:
            assert len(faces) == check.count
            assert successes == sum(check.succeeds(face) for face in faces)
    assert monte_carlo(roll, samples=30_000, rng=5).agrees_with(check.distribution())


def test_dice_without_records_roll_the_same_faces() -> None:
    recording, silent = SamplingDice(13), SamplingDice(13, record=False)
    results = [volley(dice=recording, firers=3) for _ in range(50)]
    assert [volley(dice=silent, firers=3) for _ in range(50)] == results
    assert silent.records == ()
    assert len(recording.records) >= 150


def test_odds_reports_the_share_of_the_tree_walked() -> None:
    """Every 256 branches the walk says how far it is: 6d6 read die by die has 46,656
    branches, so 182 reports, rising, the last one past 99%."""
    from smoothbore.core import D6, TotalCheck

    def faces(*, dice: Dice) -> int:
        return sum(dice.roll(TotalCheck((D6,)), reason="die", rule="test") for _ in range(6))

    shares: list[float] = []
    dist = odds(faces, progress=shares.append)
    assert dist.probability(6) == Fraction(1, 6**6)
    assert len(shares) == 1 + 46_656 // 256
    assert shares == sorted(shares) and shares[0] > 0 and shares[-1] > 0.99
