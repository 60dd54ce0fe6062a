"""The generic dice mechanisms: exact odds equal brute-force enumeration of every face, and
bad values are refused under the parameter the user typed."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError, SamplingDice, odds
from smoothbore.core.catalogue import DICE_MECHANISMS, MAX_POOL, pool, threshold, total, versus
from smoothbore.core.dice import MAX_SIDES


def _brute(counts: Counter[object]) -> dict[object, Fraction]:
    whole = sum(counts.values())
    return {outcome: Fraction(n, whole) for outcome, n in counts.items()}


def _as_fractions(dist: object) -> dict[object, Fraction]:
    return {o: Fraction(w, dist.denominator) for o, w in dist.items()}  # type: ignore[attr-defined]


@st.composite
def _pools(draw: st.DrawFn) -> tuple[int, int, int, bool, frozenset[int], frozenset[int]]:
    sides = draw(st.integers(2, 6))
    count = draw(st.integers(0, 3))
    need = draw(st.integers(-1, sides + 1))
    over = draw(st.booleans())
    faces = list(range(1, sides + 2))  # a natural off the die is allowed and never shows
    passes = frozenset(draw(st.lists(st.sampled_from(faces), max_size=2)))
    fails = frozenset(draw(st.lists(st.sampled_from(faces), max_size=2))) - passes
    return sides, count, need, over, passes, fails


def _text(faces: frozenset[int]) -> str:
    return ",".join(map(str, sorted(faces)))


@settings(max_examples=60, deadline=None)
@given(_pools())
def test_pool_equals_counting_every_roll(
    case: tuple[int, int, int, bool, frozenset[int], frozenset[int]],
) -> None:
    """Successes counted face by face over every roll of the pool: naturals first, then the
    need, at or under (or at or over with ``over``)."""
    sides, count, need, over, passes, fails = case

    def success(face: int) -> bool:
        if face in fails:
            return False
        if face in passes:
            return True
        return face >= need if over else face <= need

    counts = Counter(
        sum(map(success, roll)) for roll in itertools.product(range(1, sides + 1), repeat=count)
    )
    dist = odds(pool, count=count, sides=sides, need=need, over=over,
                auto_pass=_text(passes), auto_fail=_text(fails))
    assert _as_fractions(dist) == _brute(counts)


def test_pool_default_is_six_d12_with_natural_one_and_twelve() -> None:
    """Six d12 at or under 7: a die succeeds on 1-7 (7 of 12), the 12 always fails."""
    dist = odds(pool)
    assert dist.probability(6) == Fraction(7, 12) ** 6
    assert dist.probability(0) == Fraction(5, 12) ** 6


@pytest.mark.parametrize(
    ("roll", "modifier", "dice_sides"),
    [("2d6", 0, (6, 6)), ("d4+d6-2", -2, (4, 6)), ("3d3+10", 10, (3, 3, 3)), ("d10-2", -2, (10,))],
)
def test_total_equals_summing_every_roll(roll: str, modifier: int,
                                         dice_sides: tuple[int, ...]) -> None:
    counts = Counter(
        sum(faces) + modifier
        for faces in itertools.product(*(range(1, s + 1) for s in dice_sides))
    )
    assert _as_fractions(odds(total, roll=roll)) == _brute(counts)


def test_total_of_average_dice() -> None:
    """dAv shows 2, 3, 3, 4, 4, 5: two of them total 4 only as 2+2, once in 36."""
    faces = (2, 3, 3, 4, 4, 5)
    counts = Counter(a + b for a in faces for b in faces)
    assert _as_fractions(odds(total, roll="2dAv")) == _brute(counts)
    assert odds(total, roll="2dAv").probability(4) == Fraction(1, 36)


@pytest.mark.parametrize("under", [False, True])
@pytest.mark.parametrize("target", [2, 7, 12, 13])
def test_threshold_equals_counting_every_roll(target: int, under: bool) -> None:
    rolls = list(itertools.product(range(1, 7), repeat=2))
    passed = sum(1 for a, b in rolls if (a + b + 1 <= target if under else a + b + 1 >= target))
    dist = odds(threshold, roll="2d6+1", target=target, under=under)
    assert dist.probability(True) == Fraction(passed, 36)


def test_versus_is_the_difference_of_every_pair_of_rolls() -> None:
    counts = Counter(a + 1 - b for a in range(1, 9) for b in range(1, 7))
    dist = odds(versus, roll="d8+1", against="d6")
    assert _as_fractions(dist) == _brute(counts)
    assert dist.probability(lambda d: d > 0) == Fraction(sum(
        n for d, n in counts.items() if d > 0), 48)


def test_mechanisms_play_with_sampling_dice_within_their_range() -> None:
    dice = SamplingDice(5)
    assert 0 <= pool(dice=dice, count=4, sides=6, need=3) <= 4
    assert 3 <= total(dice=dice, roll="3d6") <= 18
    assert -5 <= versus(dice=dice) <= 5


@pytest.mark.parametrize(
    ("function", "arguments", "field", "allowed"),
    [
        (pool, {"sides": -5}, "sides", f"an integer from 1 to {MAX_SIDES}"),
        (pool, {"auto_pass": "1,x"}, "auto_pass", "comma-separated faces"),
        (pool, {"auto_fail": "twelve"}, "auto_fail", "comma-separated faces"),
        (pool, {"auto_pass": "1,6", "auto_fail": "6"}, "auto_pass", "not also in auto_fail"),
        (total, {"roll": "2d6++1"}, "roll", "an expression such as 2d6+1"),
        (threshold, {"roll": "d0"}, "roll", f"dice of 1 to {MAX_SIDES} sides"),
        (versus, {"against": "2d6-"}, "against", "an expression such as 2d6+1"),
        (versus, {"roll": "d6-d4"}, "roll", "dice added, not subtracted"),
    ],
)
def test_bad_values_are_refused_under_the_parameter_typed(
    function: object, arguments: dict[str, object], field: str, allowed: str
) -> None:
    """The error names the parameter as written (never ``dice`` or ``PoolCheck.auto_pass``),
    the value given and what is allowed."""
    with pytest.raises(InvalidValueError) as caught:
        odds(function, **arguments)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert caught.value.value == next(iter(arguments.values())) or field == "auto_pass"
    assert allowed in caught.value.allowed


@pytest.mark.parametrize(
    ("mechanism", "parameter", "text", "allowed"),
    [
        ("pool", "count", str(MAX_POOL + 1), f"an integer from 0 to {MAX_POOL}"),
        ("pool", "count", "-3", f"an integer from 0 to {MAX_POOL}"),
        ("pool", "sides", "0", f"an integer from 1 to {MAX_SIDES}"),
        ("pool", "over", "perhaps", "yes or no"),
        ("threshold", "target", "seven", "an integer"),
    ],
)
def test_command_line_values_out_of_range_are_refused(
    mechanism: str, parameter: str, text: str, allowed: str
) -> None:
    found = next(m for m in DICE_MECHANISMS if m.name == mechanism)
    with pytest.raises(InvalidValueError) as caught:
        found.arguments({parameter: text})
    assert (caught.value.field, str(caught.value.value)) == (parameter, text)
    assert caught.value.allowed.startswith(allowed)


def test_bounds_are_accepted_at_their_edges() -> None:
    found = next(m for m in DICE_MECHANISMS if m.name == "pool")
    values = found.arguments({"count": "0", "sides": str(MAX_SIDES)})
    assert odds(found.function, **values).probability(0) == 1
