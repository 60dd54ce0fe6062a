"""Staged composition: exact odds carried stage to stage equal the brute-force branch walk
of the same definition; play uses the same stages; limits answer fast."""

from __future__ import annotations

import functools
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
from smoothbore.core.stages import Again, Done, Roll, Staged

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


# --- limits counted over deterministic stages, the staged check, kept distributions ---------
def _one_die(_: None) -> tuple[None, int]:
    return None, 0


def _roll_d6(context: None, value: int, *, dice: Dice) -> int:
    return dice.roll(TotalCheck.of(1, D6), reason="d6", rule="test")


def _double(context: None, value: int, *, dice: Dice) -> int:
    return value * 2


DOUBLE = Staged("doubled d6", "test", _one_die, (_roll_d6, _double), lambda c, v: v)


def test_a_stage_without_rolls_still_counts_one_branch_per_value() -> None:
    """A d6 (6 branches) then a doubling run once per face (6 more): 12 branches exactly;
    one fewer is refused, whether the budget runs out inside a walk or between values."""
    assert odds(DOUBLE, None, max_branches=12) == TotalCheck.of(1, D6).distribution().map(
        lambda face: 2 * face)
    for short in (6, 11):
        with pytest.raises(EnumerationLimitError, match="max_branches"):
            odds(DOUBLE, None, max_branches=short)


def test_a_rule_needs_a_stage() -> None:
    with pytest.raises(InvalidValueError) as refused:
        Staged("empty", "test", _one_die, (), lambda c, v: v)
    assert (refused.value.field, refused.value.allowed) == ("Staged.stages", "at least one stage")
    assert repr(SUM) == "Staged('sum of d6', 2 stages)"


def test_composing_leaves_a_disabled_collector_disabled() -> None:
    """The cyclic collector is paused while composing and restored as it was found."""
    import gc

    assert gc.isenabled()
    odds(SUM, 2)
    assert gc.isenabled()
    gc.disable()
    try:
        assert SUM.exact_distribution(3) == odds(SUM, 3)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_staged_check_is_the_rule_with_its_arguments() -> None:
    """Equal for the same rule and arguments, its distribution the composed one, and its
    draw reads every stage from one source of uniform integers."""
    check = SUM.check(3)
    assert check == SUM.check(3) and hash(check) == hash(SUM.check(3))
    assert check != SUM.check(4) and check != DOUBLE.check(3) and check != "SUM"
    assert check.distribution() == odds(SUM, 3)
    assert check.describe() == "sum of d6, every stage"
    assert SUM.check(3).draw(lambda n: 0) == (3, (1, 1, 1))  # every die its lowest face
    assert SUM.check(3).draw(lambda n: n - 1) == ("high", (6, 6, 6))
    faces = iter([1, 3, 0])  # 2, 4 and 1: 7
    assert SUM.check(3).draw(lambda n: next(faces)) == (7, (2, 4, 1))


def test_staged_check_samples_within_five_sigma_of_the_exact_mean() -> None:
    import numpy as np

    check = DOUBLE.check(None)
    drawn = check.sample(np.random.default_rng(3), 6000)
    assert len(drawn) == 6000 and set(drawn) <= {2, 4, 6, 8, 10, 12}
    # mean 7, variance 4 * 35/12 per draw
    assert abs(float(np.mean(drawn.astype(float))) - 7) < 5 * (4 * 35 / 12 / 6000) ** 0.5


def test_distributions_are_kept_for_arguments_met_again(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A check made afresh with arguments met before answers with the kept distribution;
    past the bound on kept outcomes the oldest is dropped, never the newest."""
    from collections import OrderedDict

    from smoothbore.core import stages

    monkeypatch.setattr(stages, "_kept", OrderedDict())
    first = SUM.check(2).distribution()
    assert SUM.check(2).distribution() is first
    monkeypatch.setattr(stages, "KEPT_OUTCOMES", len(first) + 1)
    SUM.check(3).distribution()
    assert list(stages._kept) == [SUM.check(3)]
    assert SUM.check(2).distribution() is not first  # dropped, composed again
    assert SUM.check(2).distribution() == first


def _listed_begin(faces: list[int]) -> tuple[list[int], int]:
    return faces, 0


def _add_listed(context: list[int], value: int, *, dice: Dice) -> int:
    return value + context[dice.roll(TotalCheck.of(1, D6), reason="index", rule="t") % 2]


def test_arguments_that_do_not_hash_are_composed_afresh() -> None:
    """A list argument cannot key the kept distributions: composed each time, still exact
    (a d6 picks the first item on odd faces, the second on even ones)."""
    rule = Staged("listed", "test", _listed_begin, (_add_listed,), lambda c, v: v)
    dist = rule.check([10, 20]).distribution()
    assert dist.probability(10) == dist.probability(20) == Fraction(1, 2)


def test_odds_of_step_replays_apply_when_the_check_gives_no_handler() -> None:
    """A turn whose check returns no action rule: every branch runs ``turn.apply``; the
    default view is the units."""
    from smoothbore.core.stages import odds_of_step

    class _Units:
        units: tuple[int, ...] = (0,)

        def __init__(self, units: tuple[int, ...]) -> None:
            self.units = units

    class _Turn:
        def __init__(self) -> None:
            self.checked: list[object] = []

        def check(self, state: object, action: object) -> None:
            self.checked.append(action)

        def apply(self, state: _Units, action: int, dice: Dice) -> tuple[_Units, tuple[()]]:
            rolled = dice.roll(TotalCheck.of(action, D6), reason="loss", rule="t")
            return _Units((state.units[0] + (rolled >= 10),)), ()

    turn = _Turn()
    dist = odds_of_step(turn, _Units((1,)), 3)
    assert turn.checked == [3]  # checked once, not once per branch
    at_least_ten = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
                       if a + b + c >= 10)
    assert dist.probability((2,)) == Fraction(at_least_ten, 216) == Fraction(5, 8)


# --- a stage handing over a check (Roll), results without a finish, one-to-one finishes ----
def _pair_begin(count: int) -> tuple[int, tuple[int, ...]]:
    return count, ()


def _roll_pair(count: int, value: tuple[int, ...], *, dice: Dice) -> Roll[tuple[int, ...]]:
    """A die handed over as a check: the stage's value is the faces so far and this one."""
    return Roll(TotalCheck.of(1, D6), "a die", "test", functools.partial(_append, value))


def _append(value: tuple[int, ...], face: int) -> tuple[int, ...] | Again[tuple[int, ...]]:
    faces = (*value, face)
    return faces if len(faces) == 2 else Again(faces)


PAIR = Staged("two d6 in order", "test", _pair_begin, (_roll_pair,))


def test_a_stage_may_hand_over_a_check() -> None:
    """A stage that returns Roll(check, ...) composes without being run again per outcome:
    the same distribution as the branch walk of the same stages; in play the check is
    rolled through the dice and recorded with the reason and rule given; without a finish
    the last value is the result."""
    dist = odds(PAIR, 2)
    assert dist == odds(PAIR.play, 2)
    assert len(dist) == 36 and dist.probability((6, 1)) == Fraction(1, 36)
    dice = SamplingDice(5)
    faces = PAIR(2, dice=dice)
    assert tuple(r.faces[0] for r in dice.records) == faces
    assert {(r.reason, r.rule) for r in dice.records} == {("a die", "test")}


def test_a_handed_over_check_without_then_gives_the_value_itself() -> None:
    rule = Staged("one d6", "test", lambda: (None, None),
                  (lambda c, v, *, dice: Roll(TotalCheck.of(1, D6), "d6", "t"),))
    assert odds(rule) == TotalCheck.of(1, D6).distribution()
    assert odds(rule.play) == odds(rule)


def test_a_one_to_one_finish_gives_the_same_distribution() -> None:
    """A finish vouched one-to-one skips looking for equal results: the same distribution
    as the same rule merging them, with the results a stage gave with Done beside it."""

    def finish(count: int, total: int) -> str:
        return f"total {total}"

    plain = Staged("sum", "test", _begin, (_add_die, _cap), finish)
    vouched = Staged("sum", "test", _begin, (_add_die, _cap), finish, one_to_one=True)
    assert odds(vouched, 3) == odds(plain, 3) == odds(plain.play, 3)
    assert odds(vouched, 3).probability("high") == Fraction(20, 216)
