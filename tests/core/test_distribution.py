"""Distribution: exact weights, probabilities, tables, composition."""

from __future__ import annotations

import pathlib
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
def test_each_outcome_keeps_its_share_of_the_weights(weights: dict[int, int]) -> None:
    """Each outcome's probability is its weight over the sum of the weights given (not a
    total the constructor enforces: a weight moved to the wrong outcome fails), the tails
    are partial sums, and reducing or scaling the weights changes no probability."""
    dist = Distribution.from_weights(weights)
    whole = sum(weights.values())
    assert {o: dist.probability(o) for o in dist.outcomes} == {
        o: Fraction(w, whole) for o, w in weights.items()}
    assert list(dist.outcomes) == sorted(weights)
    pivot = sorted(weights)[len(weights) // 2]
    assert dist.at_least(pivot) == Fraction(
        sum(w for o, w in weights.items() if o >= pivot), whole)
    scaled = Distribution.from_weights({o: 3 * w for o, w in weights.items()})
    assert scaled == dist == dist.reduced() and hash(scaled) == hash(dist)


def test_outcomes_that_do_not_compare_keep_their_first_order() -> None:
    class Result:
        def __init__(self, name: str) -> None:
            self.name = name

    a, b = Result("a"), Result("b")
    dist = Distribution.from_weights({b: 1, a: 3})
    assert dist.outcomes == (b, a)
    assert dist.probability(a) == Fraction(3, 4)


def test_equality_needs_the_same_outcomes_with_the_same_chances() -> None:
    dist = two_d6()
    assert (dist == 7) is False and dist != "2d6"
    assert dist != dist.map(lambda t: min(t, 11))  # one outcome fewer
    assert dist != Distribution.from_weights({t: 1 for t in range(2, 13)})  # same outcomes
    assert hash(dist) != hash(Distribution.from_weights({t: 1 for t in range(2, 13)}))


def test_standard_deviation_and_headline_of_two_d6() -> None:
    """Var(2d6) = 2 * 35/12: the standard deviation is sqrt(35/6)."""
    dist = two_d6()
    assert dist.std() == pytest.approx((35 / 6) ** 0.5, abs=1e-12)
    assert dist.headline() == "mean 7.00, standard deviation 2.42"
    assert dist.map(lambda t: t >= 10).headline() == "yes 16.67%"


def test_table_shows_fractions_only_when_asked_or_short() -> None:
    dist = two_d6()
    assert "1/36" in dist.table() and "1/36" in dist.table(exact=True)
    plain = dist.table(exact=False)
    assert "1/36" not in plain and "2.78%" in plain and "exact" not in plain
    assert str(dist) == dist.table()


def test_grouping_by_a_key_adds_the_weights_of_each_group() -> None:
    dist = two_d6()
    parity = dist.by(lambda t: t % 2)
    assert parity.probability(0) == parity.probability(1) == Fraction(1, 2)
    high = dist.summary(lambda t: "high" if t >= 9 else "low")
    assert high.probability("high") == Fraction(10, 36)


def test_to_dict_writes_weights_fractions_and_json_ready_outcomes() -> None:
    """Tuples become lists, other outcomes text; each row carries its exact fraction."""

    class Side:
        def __str__(self) -> str:
            return "british"

    dist = Distribution.from_weights({(1, "rout"): 1, (2, None): 2, Side(): 3})
    rows = dist.to_dict()
    assert rows["denominator"] == 6
    assert [(r["outcome"], r["weight"], r["fraction"]) for r in rows["outcomes"]] == [
        ([1, "rout"], 1, "1/6"), ([2, None], 2, "1/3"), ("british", 3, "1/2")]
    assert rows["outcomes"][2]["probability"] == 0.5


def test_csv_is_written_where_asked(tmp_path: pathlib.Path) -> None:
    target = tmp_path / "odds.csv"
    text = D6.distribution().to_csv(str(target))
    assert target.read_text() == text
    lines = text.splitlines()
    assert lines[0].startswith("outcome,weight,fraction,probability")
    assert lines[1].startswith("1,1,1/6,")
    assert len(lines) == 7


def test_pandas_and_comparison_views_carry_the_same_probabilities() -> None:
    pytest.importorskip("pandas")
    dist = two_d6()
    frame = dist.to_pandas()
    assert list(frame["weight"]) == [w for _, w in dist.items()]
    both = Distribution.compare({"2d6": dist, "d6": D6.distribution()})
    rows = dict(both.rows())
    assert rows[7] == (Fraction(1, 6), Fraction(0))
    assert rows[1] == (Fraction(0), Fraction(1, 6))
    view = dist.view("two dice", {"roll": "2d6"})
    assert view.caption == "two dice" and view.parameters == {"roll": "2d6"}


def test_plot_draws_one_bar_per_outcome() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ax = two_d6().plot(title="2d6")
    assert len(ax.patches) == 11
    assert ax.get_title() == "2d6"
    import matplotlib.pyplot as plt

    plt.close("all")


def test_weights_kept_in_the_order_given_when_asked() -> None:
    """``order=False`` keeps the outcomes as given (zero weights still dropped); a reduced
    distribution already in lowest terms is itself."""
    dist = Distribution.from_weights({3: 2, 1: 0, 2: 4}, order=False)
    assert dist.outcomes == (3, 2) and dist.denominator == 6
    assert Distribution.from_weights({3: 2, 2: 4}).outcomes == (2, 3)
    lowest = Distribution.from_weights({1: 1, 2: 2})
    assert lowest.reduced() is lowest
    assert dist.reduced() == dist and dist.reduced().denominator == 3
    with pytest.raises(InvalidValueError):
        Distribution.from_weights({1: 1.5})  # type: ignore[dict-item]
