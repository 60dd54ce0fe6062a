"""Bloodybacks 9.3, Risk to commanders."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.bloodybacks93.commanders import (
    Fate,
    after_fate,
    commander_fate,
    risk_to_commander,
    struck,
)
from smoothbore.bloodybacks93.units import BRITISH, Commander
from smoothbore.core import InvalidValueError, odds

from .oracle import D12_FACES

LEADER = Commander("k", "Colonel", BRITISH, attached_to="u")


def test_struck_rule() -> None:
    """Risk to commanders: struck on a d12 at or under the losses; 2 off the roll for
    rifles; no losses, no risk."""
    assert struck(3, 3) and not struck(4, 3)
    assert struck(5, 3, rifles=True) and not struck(6, 3, rifles=True)
    assert not struck(1, 0)


@pytest.mark.parametrize(("losses", "rifles", "constitution"), [(2, False, 9), (3, True, 4)])
def test_risk_exact(losses: int, rifles: bool, constitution: int) -> None:
    """Risk to commanders: if struck, a d12 comes off the constitution; below 1 he is
    removed."""
    commander = Commander("k", "K", BRITISH, constitution=constitution, attached_to="u")
    expected: dict[str, Fraction] = {}
    for roll in D12_FACES:
        if roll - (2 if rifles else 0) > losses:
            key = "unhurt"
            expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 12)
            continue
        for wound in D12_FACES:
            key = "removed" if constitution - wound < 1 else "struck"
            expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 144)
    dist = odds(risk_to_commander, commander, losses, rifles=rifles).map(
        lambda r: "unhurt" if not r.struck else "removed" if r.commander.removed else "struck")
    assert {o: dist.probability(o) for o in dist.outcomes} == expected
    for risk in odds(risk_to_commander, commander, losses, rifles=rifles).outcomes:
        if risk.commander.removed:
            assert risk.commander.attached_to is None
    with pytest.raises(InvalidValueError):
        odds(risk_to_commander, commander, -1)


def test_fate_table() -> None:
    """Risk to commanders: end of battle: 1-4 stunned, 5-7 light wound (constitution -1),
    8-10 serious wound, 11-12 transition to glory."""
    removed = Commander("k", "K", BRITISH, constitution=-2, removed=True)
    dist = odds(commander_fate, removed)
    assert dist.probability(Fate.STUNNED) == Fraction(4, 12)
    assert dist.probability(Fate.LIGHT_WOUND) == Fraction(3, 12)
    assert dist.probability(Fate.SERIOUS_WOUND) == Fraction(3, 12)
    assert dist.probability(Fate.GLORY) == Fraction(2, 12)
    assert after_fate(removed, Fate.LIGHT_WOUND) == Commander("k", "K", BRITISH, constitution=8)
    assert after_fate(removed, Fate.STUNNED, base_constitution=7).constitution == 7
    assert after_fate(removed, Fate.SERIOUS_WOUND).removed
    assert after_fate(removed, Fate.GLORY).removed
    healthy = Commander("k", "K", BRITISH)
    with pytest.raises(InvalidValueError):
        odds(commander_fate, healthy)


@pytest.mark.parametrize(("losses", "rifles", "constitution"),
                         [(0, False, 9), (2, False, 9), (5, True, 3), (12, False, 12)])
def test_risk_composed_equals_every_branch(losses: int, rifles: bool, constitution: int
                                           ) -> None:
    """Risk to commanders, written as stages (the risk roll, then the wound): composed, the
    same distribution as the walk of every branch of the same stages."""
    commander = Commander("k", "K", BRITISH, constitution=constitution, attached_to="u")
    composed = odds(risk_to_commander, commander, losses, rifles=rifles)
    assert composed == odds(risk_to_commander.play, commander, losses, rifles=rifles)
    unhurt = sum(1 for roll in D12_FACES if roll - (2 if rifles else 0) > losses or not losses)
    assert composed.probability(lambda r: not r.struck) == Fraction(unhurt, 12)
