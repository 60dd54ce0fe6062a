"""generalship.py: initiative, activation and the risk to generals, by enumerating the d10s."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import odds
from smoothbore.mckie_acw.generalship import activate, risk_to_general, roll_initiative
from smoothbore.mckie_acw.units import Fate

D10 = range(1, 11)


@pytest.mark.parametrize(("a", "b", "tie"), [(3, 4, 0), (5, 5, 1), (0, 10, 0)])
def test_initiative(a: int, b: int, tie: int) -> None:
    wins = Fraction(0)
    for x, y in product(D10, D10):
        first = x + a > y + b or (x + a == y + b and (a > b or (a == b and tie == 0)))
        wins += Fraction(first, 100)
    assert odds(roll_initiative, a, b, tie_goes_to=tie).probability(0) == wins


@pytest.mark.parametrize("rating", range(11))
def test_activation_is_d10_plus_rating_over_10(rating: int) -> None:
    expected = Fraction(sum(1 for x in D10 if x + rating > 10), 10)
    assert odds(activate, rating).probability(True) == expected


def test_bragg_activates_half_the_time() -> None:
    assert odds(activate, 5).probability(True) == Fraction(1, 2)


def test_risk_to_generals() -> None:
    dist = odds(risk_to_general)
    assert dist.probability(Fate.KILLED) == Fraction(1, 10)
    assert dist.probability(Fate.WOUNDED) == Fraction(2, 10)
    assert dist.probability(Fate.ACTIVE) == Fraction(7, 10)
