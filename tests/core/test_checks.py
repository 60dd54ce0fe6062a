"""Checks: every exact distribution equals plain enumeration of all faces."""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import (
    AVERAGE_DIE,
    D6,
    D10,
    D12,
    Band,
    DrawCheck,
    EnumerationLimitError,
    FacesCheck,
    InvalidValueError,
    OpposedCheck,
    PoolCheck,
    TableCheck,
    ThresholdCheck,
    TotalCheck,
)
from tests.strategies import pools, totals

HANG_GUARD = 30.0
"""Seconds: these tests catch a hang, not slowness (speed is measured in benchmarks/)."""

NEEDS = range(-1, 15)


def _all_faces(count: int, sides: int) -> np.ndarray:
    """Every combination of ``count`` faces of a d``sides``, one row each."""
    grids = np.indices((sides,) * count).reshape(count, -1).T + 1
    return grids.astype(np.int8)


@pytest.mark.parametrize("count", range(1, 7))
def test_pool_of_d12_equals_enumeration_of_every_face(count: int) -> None:
    rolls = _all_faces(count, 12)
    for need in NEEDS:
        for at_or_under in (True, False):
            base = rolls <= need if at_or_under else rolls >= need
            success = (base | (rolls == 1)) & (rolls != 12)
            counts = np.bincount(success.sum(axis=1), minlength=count + 1)
            check = PoolCheck(count, need, D12, at_or_under, {1}, {12})
            dist = check.distribution()
            assert dist.denominator == 12**count
            for k in range(count + 1):
                assert dist.probability(k) == Fraction(int(counts[k]), 12**count), (need, k)


def test_pool_without_naturals_and_need_outside_range() -> None:
    assert PoolCheck(3, 20).distribution().probability(3) == 1
    assert PoolCheck(3, 0).distribution().probability(0) == 1
    assert PoolCheck(3, 0, auto_pass={1}).distribution().probability(3) == Fraction(1, 12**3)
    assert PoolCheck(0, 5).distribution().probability(0) == 1


def test_pool_rerolling_failures_matches_enumeration() -> None:
    check = PoolCheck(2, 4, D6, reroll_failures=True)
    counts: Counter[int] = Counter()
    for a1, a2, b1, b2 in product(range(1, 7), repeat=4):
        first = a1 <= 4 or a2 <= 4
        second = b1 <= 4 or b2 <= 4
        counts[first + second] += 1
    for k, n in counts.items():
        assert check.distribution().probability(k) == Fraction(n, 6**4)


def test_pool_rejects_bad_values() -> None:
    with pytest.raises(InvalidValueError, match="PoolCheck.count"):
        PoolCheck(-1, 5)
    with pytest.raises(InvalidValueError, match="auto_pass"):
        PoolCheck(2, 5, auto_pass={1}, auto_fail={1})


def test_total_of_mixed_dice_matches_enumeration() -> None:
    check = TotalCheck((D6, AVERAGE_DIE, D10), 2)
    counts = Counter(
        a + b + c + 2 for a, b, c in product(D6.faces, AVERAGE_DIE.faces, D10.faces)
    )
    for total, n in counts.items():
        assert check.distribution().probability(total) == Fraction(n, 360)


def test_threshold_with_naturals_matches_enumeration() -> None:
    # 2d6 + 1 at least 9, but a natural 2 always fails and a natural 12 always passes.
    check = ThresholdCheck((D6, D6), 9, 1, auto_pass={12}, auto_fail={2})
    passes = sum(
        1 for a, b in product(range(1, 7), repeat=2)
        if a + b != 2 and (a + b == 12 or a + b + 1 >= 9)
    )
    assert check.distribution().probability(True) == Fraction(passes, 36)
    assert ThresholdCheck((D6, D6), 7).distribution().probability(True) == Fraction(21, 36)
    assert ThresholdCheck((D6,), 2, at_least=False).distribution().probability(True) == Fraction(
        2, 6
    )


def test_table_check_reads_bands() -> None:
    bands = (Band("rout", None, 3), Band("shaken", 4, 6), Band("steady", 7, None))
    check = TableCheck((D6, D6), bands, -1)
    counts = Counter(
        "rout" if a + b - 1 <= 3 else "shaken" if a + b - 1 <= 6 else "steady"
        for a, b in product(range(1, 7), repeat=2)
    )
    for result, n in counts.items():
        assert check.distribution().probability(result) == Fraction(n, 36)


def test_table_check_rejects_gaps_and_overlaps() -> None:
    with pytest.raises(InvalidValueError, match="bands"):
        TableCheck((D6,), (Band("low", None, 2), Band("high", 4, None)))
    with pytest.raises(InvalidValueError, match="bands"):
        TableCheck((D6,), (Band("low", None, 4), Band("high", 3, None)))


def test_opposed_matches_enumeration() -> None:
    check = OpposedCheck(TotalCheck((D6,), 1), TotalCheck((AVERAGE_DIE,)))
    counts = Counter(a + 1 - b for a, b in product(D6.faces, AVERAGE_DIE.faces))
    for difference, n in counts.items():
        assert check.distribution().probability(difference) == Fraction(n, 36)


def test_faces_check_keeps_order() -> None:
    dist = FacesCheck((D12, D12)).distribution()
    assert dist.probability((3, 9)) == Fraction(1, 144)
    assert len(dist) == 144
    with pytest.raises(EnumerationLimitError):
        FacesCheck((D12,) * 7).distribution()


def test_draw_without_replacement_matches_permutations() -> None:
    deck = ("A", "A", "B", "C")
    ordered = DrawCheck(deck, 2).distribution()
    counts = Counter(permutations(deck, 2))
    for drawn, n in counts.items():
        assert ordered.probability(drawn) == Fraction(n, 12)
    unordered = DrawCheck(deck, 2, ordered=False).distribution()
    assert unordered.probability(("A", "A")) == Fraction(2, 12)
    assert unordered.probability(("A", "B")) == Fraction(4, 12)
    with pytest.raises(InvalidValueError, match="DrawCheck.count"):
        DrawCheck(deck, 5)


CHECKS = [
    PoolCheck(6, 7, auto_pass={1}, auto_fail={12}),
    TotalCheck((D6, D6)),
    ThresholdCheck((D6, D6), 7),
    TableCheck((AVERAGE_DIE,), (Band("low", None, 3), Band("high", 4, None))),
    OpposedCheck(TotalCheck((D6,)), TotalCheck((D6,))),
    DrawCheck(("red", "red", "black"), 1),
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.describe())
def test_vectorised_sampling_agrees_with_exact(check: object) -> None:
    """200,000 seeded samples: every outcome within 5 standard errors of its exact chance."""
    size = 200_000
    samples = check.sample(np.random.default_rng(2026), size)  # type: ignore[attr-defined]
    counts = Counter(tuple(s) if isinstance(s, tuple) else s.item() if hasattr(s, "item") else s
                     for s in samples)
    for outcome, weight in check.distribution().items():  # type: ignore[attr-defined]
        p = weight / check.distribution().denominator  # type: ignore[attr-defined]
        sigma = (p * (1 - p) / size) ** 0.5
        assert abs(counts[outcome] / size - p) <= 5 * sigma + 1e-12, outcome


def test_face_sampling_fallback_agrees_for_huge_pools() -> None:
    check = PoolCheck(40, 6)  # 12**40 is too large for integer inverse-CDF sampling
    samples = check.sample(np.random.default_rng(1), 50_000)
    assert abs(samples.mean() - float(check.distribution().mean())) < 0.05


@settings(max_examples=60, deadline=None)
@given(pools())
def test_pool_weights_sum_to_denominator(check: PoolCheck) -> None:
    dist = check.distribution()
    assert sum(w for _, w in dist.items()) == dist.denominator
    assert set(dist.outcomes) <= set(range(check.count + 1))


@settings(max_examples=60, deadline=None)
@given(totals(), st.integers(0, 2**32 - 1))
def test_rolled_totals_are_possible_outcomes(check: TotalCheck, seed: int) -> None:
    outcome, faces = check.roll(np.random.default_rng(seed))
    assert check.distribution().probability(outcome) > 0
    assert outcome == sum(faces) + check.modifier


@settings(max_examples=200, deadline=None)
@given(pools())
def test_success_count_equals_face_by_face_count(check: PoolCheck) -> None:
    good, sides = check.success_weight()
    plain = sum(1 for face in check.die.faces if check.succeeds(face))
    if check.reroll_failures:
        n = check.die.sides
        assert (good, sides) == (plain * n + (n - plain) * plain, n * n)
    else:
        assert (good, sides) == (plain, check.die.sides)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(0, 13),
    st.sampled_from([D6, D10, D12, AVERAGE_DIE]),
    st.integers(0, 2**40),
)
def test_a_pool_reads_one_pick_as_base_sides_digits(
    count: int, need: int, die: object, seed: int
) -> None:
    """A pool rolls with one uniform pick below sides**count; its faces are that number's
    base-sides digits, lowest first, and its successes are counted from those faces."""
    check = PoolCheck(count, need, die, auto_pass={1}, auto_fail={12})  # type: ignore[arg-type]
    sides = check.die.sides
    value = seed % sides**count
    asked: list[int] = []

    def pick(n: int) -> int:
        asked.append(n)
        return value

    successes, faces = check.draw(pick)
    digits, rest = [], value
    for _ in range(count):
        rest, digit = divmod(rest, sides)
        digits.append(digit)
    assert asked == [sides**count]
    assert faces == tuple(check.die.faces[d] for d in digits)
    assert successes == sum(check.succeeds(face) for face in faces)


# --- limits that answer fast (issue 11) ---------------------------------------------------
def test_a_sum_of_2000_d12_is_refused_at_once_with_its_estimate() -> None:
    """2000d12 would fill 22 million convolution cells: refused before any work, naming
    the estimate, the limit and the setting that raises it; sampling still works."""
    from smoothbore.core.checks import MAX_CONVOLUTION_CELLS, convolution_cells

    check = TotalCheck.of(2000, D12)
    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError) as raised:
        check.distribution()
    assert time.perf_counter() - start < HANG_GUARD
    error = raised.value
    assert error.estimate == convolution_cells(check.dice) > MAX_CONVOLUTION_CELLS
    assert error.limit == MAX_CONVOLUTION_CELLS
    assert error.setting == "checks.MAX_CONVOLUTION_CELLS"
    assert "22,013,000" in str(error) and "raise checks.MAX_CONVOLUTION_CELLS" in str(error)
    totals = check.sample(np.random.default_rng(3), 200)
    assert totals.min() >= 2000 and totals.max() <= 24000
    assert abs(totals.mean() - 13000) < 5 * (2000 * 143 / 12) ** 0.5


def test_a_large_sum_within_the_limit_convolves_exactly() -> None:
    """500d12 is within the limit: its exact distribution by convolution, in well under
    a second, symmetric about 3250 with 12**500 outcomes in all."""
    start = time.perf_counter()
    dist = TotalCheck.of(500, D12).distribution()
    assert time.perf_counter() - start < HANG_GUARD
    assert dist.denominator == 12**500
    assert len(dist) == 5501
    assert dist.weight(500) == 1 and dist.weight(3000) == dist.weight(3500)


def test_a_pool_of_a_million_dice_samples_from_the_binomial() -> None:
    """PoolCheck(10**6, 7).sample draws from the binomial (no exact table): fast, with
    the mean 7/12 of a million within five standard errors."""
    check = PoolCheck(10**6, 7)
    start = time.perf_counter()
    successes = check.sample(np.random.default_rng(11), 1000)
    assert time.perf_counter() - start < HANG_GUARD
    p = 7 / 12
    error = (10**6 * p * (1 - p) / 1000) ** 0.5
    assert abs(successes.mean() - 10**6 * p) < 5 * error


def test_a_pool_table_past_the_limit_is_refused_at_once() -> None:
    """The exact table of a million dice would take 4 * 10**12 bits: refused from the
    estimate before a weight is computed; a pool of 60 dice is well within it."""
    from smoothbore.core.checks import MAX_EXACT_BITS

    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError, match="raise checks.MAX_EXACT_BITS") as raised:
        PoolCheck(10**6, 7).distribution()
    assert time.perf_counter() - start < HANG_GUARD
    assert raised.value.estimate == PoolCheck(10**6, 7).exact_bits() > MAX_EXACT_BITS
    assert PoolCheck(60, 7).distribution().probability(60) == Fraction(7**60, 12**60)


def test_face_combinations_past_the_limit_are_refused_with_the_estimate() -> None:
    """Twelve d12 read face by face (12**12 combinations): refused at once."""
    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError) as raised:
        FacesCheck((D12,) * 12).distribution()
    assert time.perf_counter() - start < HANG_GUARD
    assert raised.value.estimate == 12**12
    assert raised.value.setting == "checks.MAX_FACE_COMBINATIONS"


def test_enumeration_limit_error_pickles_with_its_estimate() -> None:
    """The error keeps its estimate and setting through pickling (executors)."""
    import pickle

    error = EnumerationLimitError(10, "chance branches", 99, "max_branches")
    again = pickle.loads(pickle.dumps(error))
    assert (again.limit, again.estimate, again.setting) == (10, 99, "max_branches")
    assert str(again) == str(error)


@pytest.mark.parametrize("dice", [(D6, D6), (D6,), (D10, AVERAGE_DIE), (D12, D6, D6)])
@pytest.mark.parametrize("at_least", [True, False])
def test_threshold_read_off_running_sums_matches_enumeration(
    dice: tuple[object, ...], at_least: bool
) -> None:
    """A threshold without natural passes or fails is read off the running sums of the
    dice's totals: the same as counting every face, for every modifier and target, up to
    a certain pass and a certain fail."""
    faces = [d.faces for d in dice]  # type: ignore[attr-defined]
    combos = list(product(*faces))
    for modifier in (-3, 0, 2):
        for target in range(-2, 40):
            passes = sum(1 for c in combos
                         if (sum(c) + modifier >= target if at_least
                             else sum(c) + modifier <= target))
            dist = ThresholdCheck(dice, target, modifier,  # type: ignore[arg-type]
                                  at_least=at_least).distribution()
            assert dist.probability(True) == Fraction(passes, len(combos))
            assert len(dist) == (2 if 0 < passes < len(combos) else 1)


def test_draw_samples_rolls_one_draw_after_another() -> None:
    """Each sample is the check's own draw from the same stream, in order, kept as objects."""
    import numpy as np

    from smoothbore.core.checks import draw_samples

    check = TotalCheck.of(2, D6)
    drawn = draw_samples(check, np.random.default_rng(7), 50)
    rng = np.random.default_rng(7)
    by_hand = [check.draw(lambda n: int(rng.integers(n)))[0] for _ in range(50)]
    assert drawn.dtype == object and list(drawn) == by_hand
    assert set(by_hand) <= set(range(2, 13)) and len(set(by_hand)) > 5
