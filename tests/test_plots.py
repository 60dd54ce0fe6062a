"""The plots a mathhammer user expects (issue 31): P(at least X) curves and distributions
side by side on one axis, checked on the data drawn (matplotlib's Agg backend)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import D6, TotalCheck, odds
from smoothbore.core.chance import Dice
from smoothbore.core.errors import InvalidValueError

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def two_d6(*, dice: Dice) -> int:
    return dice.roll(TotalCheck((D6, D6)), reason="2d6", rule="test")


def one_d6(*, dice: Dice) -> int:
    return dice.roll(TotalCheck((D6,)), reason="d6", rule="test")


def test_at_least_curves_on_one_axis() -> None:
    from smoothbore.views.plots import at_least_plot

    two, one = odds(two_d6), odds(one_d6)
    ax = at_least_plot({"2d6": two, "d6": one})
    first, second = ax.get_lines()
    assert list(first.get_xdata()) == list(range(2, 13))
    # P(2d6 >= 7) = 21/36, P(2d6 >= 12) = 1/36, P(d6 >= 4) = 1/2: exact, by enumeration
    assert first.get_ydata()[5] == pytest.approx(float(Fraction(21, 36)))
    assert first.get_ydata()[-1] == pytest.approx(1 / 36)
    assert list(second.get_ydata()) == pytest.approx([1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["2d6", "d6"]


def test_two_distributions_side_by_side_on_one_axis() -> None:
    from smoothbore.views.plots import compare_plot

    ax = compare_plot({"2d6": odds(two_d6), "d6": odds(one_d6)})
    bars = ax.patches
    assert len(bars) == 2 * 12  # every result of either, for each
    heights = [b.get_height() for b in bars]
    # results in order of first appearance: 2..12 then 1; the d6's bar at 7 is 0
    assert heights[5] == pytest.approx(6 / 36) and heights[12 + 5] == 0
    assert heights[12 + 11] == pytest.approx(1 / 6)  # the d6's 1
    assert [t.get_text() for t in ax.get_xticklabels()][:3] == ["2", "3", "4"]


def test_curves_refuse_outcomes_that_are_not_numbers() -> None:
    from smoothbore.views.plots import at_least_plot

    words = odds(one_d6).map(lambda n: "high" if n > 3 else "low")
    with pytest.raises(InvalidValueError, match="numeric outcomes"):
        at_least_plot(words)
    with pytest.raises(InvalidValueError, match="a Distribution, or a mapping"):
        at_least_plot({})
