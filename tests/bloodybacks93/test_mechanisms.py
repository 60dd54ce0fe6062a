"""Bloodybacks 9.3: every random mechanism is listed with parameters and gives an exact,
printable distribution."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.bloodybacks93 import RULESET
from smoothbore.core import monte_carlo, odds

from .oracle import pool, pool_by_convolution, results_of

NAMES = (
    "activity", "first-card", "turn-length", "activation", "actions", "test", "rout-move",
    "push-back", "move", "passage", "shooting", "evade", "impetus", "stand", "melee",
    "charge", "pursuit", "commander-risk", "commander-fate",
)


def test_every_mechanism_is_listed() -> None:
    """Each section's random mechanism is in RULESET.mechanisms."""
    assert tuple(m.name for m in RULESET.mechanisms) == NAMES
    for mechanism in RULESET.mechanisms:
        assert mechanism.rule.startswith("Bloodybacks 9.3")


@pytest.mark.parametrize("name", NAMES)
def test_each_mechanism_gives_an_exact_distribution(name: str) -> None:
    """Every mechanism's default distribution sums to one and prints readably."""
    mechanism = RULESET.mechanism(name)
    dist = odds(mechanism.function, **mechanism.arguments({}))
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    assert all(str(o) and hash(o) is not None for o in dist.outcomes)
    assert dist.table()


def test_parameters_reach_the_rules() -> None:
    """Morale; Charges and melee: Resolve melee: parameters change the distribution as the
    text says."""
    test = RULESET.mechanism("test")
    dist = odds(test.function, **test.arguments({"kind": "cohesion", "quality": "2",
                                                 "density": "8", "lost_by": "3"}))
    got = {str(o): dist.probability(o) for o in dist.outcomes}
    assert got == results_of(2 + 8 - 3)
    melee = RULESET.mechanism("melee")
    rolls = odds(melee.function, **melee.arguments({"count": "7", "need": "5"}))
    want = {f"{k}-{7 - k}": p for k, p in pool_by_convolution(7, 5).items()}
    assert {str(o): rolls.probability(o) for o in rolls.outcomes} == want
    assert sum(want.values()) == Fraction(1)
    actions = RULESET.mechanism("actions")
    earned = odds(actions.function, **actions.arguments({"disruption": "3", "quality": "1",
                                                         "command_quality": "1"}))
    assert earned.probability(0) == pool(3, 2, naturals=False)[0]


@pytest.mark.parametrize(("name", "given"), [
    ("charge", {}), ("charge", {"charger_kind": "cavalry", "experiment": "true"}),
    ("activation", {"disruption": "1"}), ("shooting", {"weapon": "field", "range": "10"}),
    ("move", {}), ("evade", {"spare_move": "9"}),
])
def test_monte_carlo_agrees_with_exact(name: str, given: dict[str, str]) -> None:
    """Each mechanism played with seeded dice agrees with its exact distribution."""
    mechanism = RULESET.mechanism(name)
    arguments = mechanism.arguments(given)
    exact = odds(mechanism.function, **arguments)
    estimate = monte_carlo(mechanism.function, samples=2000, rng=93, **arguments)
    assert estimate.agrees_with(exact)
