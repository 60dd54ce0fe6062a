"""Distribution: exact weights, probabilities, tables, composition."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import D6, Distribution, InvalidValueError


def two_d6() -> Distribution[int]:
    return Distribution.from_weights(
        {a + b: 0 for a in range(1, 7) for b in range(1, 7)}
        | {t: 6 - abs(t - 7) for t in range(2, 13)}
    )


def test_probability_mean_and_tails() -> None:
    dist = two_d6()
    assert dist.denominator == 36
    assert dist.probability(7) == Fraction(1, 6)
    assert dist.probability(lambda t: t >= 10) == Fraction(6, 36)
    assert dist.at_least(10) == Fraction(1, 6)
    assert dist.at_most(3) == Fraction(3, 36)
    assert dist.mean() == 7
    assert dist.p(7) == pytest.approx(1 / 6)
    assert dist.probability(13) == 0
    assert dict(dist.at_least_table())[2] == 1
    assert dict(dist.at_most_table())[12] == 1


def test_map_merges_and_then_composes() -> None:
    parity = two_d6().map(lambda t: t % 2 == 0)
    assert parity.probability(True) == Fraction(1, 2)
    # roll a d6; on 4+ roll another d6 and add it
    step = D6.distribution().then(
        lambda a: D6.distribution().map(lambda b: a + b) if a >= 4 else Distribution.certain(a)
    )
    assert step.probability(1) == Fraction(1, 6)
    assert step.probability(5) == Fraction(1, 36)  # only 4 then 1: a 5 rolls again
    assert step.probability(7) == Fraction(3, 36)  # 4+3, 5+2, 6+1
    assert step.probability(12) == Fraction(1, 36)


def test_equality_ignores_denominator_scale() -> None:
    assert Distribution.from_weights({1: 1, 2: 1}) == Distribution.from_weights({1: 3, 2: 3})
    assert Distribution.from_weights({1: 1, 2: 1}) != Distribution.from_weights({1: 1, 2: 2})
    assert Distribution.from_weights({1: 2, 2: 4}).reduced().denominator == 3


def test_from_probabilities_and_uniform() -> None:
    dist = Distribution.from_probabilities({"a": Fraction(1, 3), "b": Fraction(2, 3)})
    assert dist.weight("b") == 2 * dist.weight("a")
    assert Distribution.uniform([2, 3, 3]).probability(3) == Fraction(2, 3)
    with pytest.raises(InvalidValueError, match="probabilities"):
        Distribution.from_probabilities({"a": Fraction(1, 3)})


def test_rejects_bad_weights() -> None:
    with pytest.raises(InvalidValueError, match="denominator"):
        Distribution.from_weights({1: 1}, denominator=3)
    with pytest.raises(InvalidValueError, match="weight"):
        Distribution(((1, -1), (2, 2)), 1)


def test_presentation() -> None:
    dist = two_d6()
    text = str(dist)
    assert "1/6" in text and "16.67%" in text
    assert "<table>" in dist._repr_html_()
    assert "P(&ge;)" in dist._repr_html_()
    assert "P(>=)" in text
    labels = Distribution.from_weights({"rout": 1, "stand": 5})
    assert "P(>=)" not in str(labels) and "P(&ge;)" not in labels._repr_html_()
    assert str(labels).splitlines()[1].split() == ["rout", "1/6", "16.67%"]
    data = dist.to_dict()
    assert data["denominator"] == 36
    assert data["outcomes"][0] == {
        "outcome": 2, "weight": 1, "fraction": "1/36", "probability": 1 / 36
    }
    assert "Distribution({2: 1" in repr(dist)


@given(st.dictionaries(st.integers(-50, 50), st.integers(1, 10**12), min_size=1, max_size=20))
def test_weights_sum_to_denominator(weights: dict[int, int]) -> None:
    dist = Distribution.from_weights(weights)
    assert sum(w for _, w in dist.items()) == dist.denominator
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    assert list(dist.outcomes) == sorted(weights)


def test_outcomes_that_do_not_compare_keep_their_first_order() -> None:
    class Result:
        def __init__(self, name: str) -> None:
            self.name = name

    a, b = Result("a"), Result("b")
    dist = Distribution.from_weights({b: 1, a: 3})
    assert dist.outcomes == (b, a)
    assert dist.probability(a) == Fraction(3, 4)
