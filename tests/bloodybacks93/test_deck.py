"""Bloodybacks 9.3, Activation deck; Sequence of Play; Activating Commanders (deck.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.bloodybacks93.deck import (
    BLACK,
    DECK,
    RED,
    Card,
    activates,
    activates_leaderless,
    draw_card,
    first_card,
    long_turn,
    turn_minutes,
    without,
)
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH
from smoothbore.core import IllegalActionError, InvalidValueError, odds


def test_deck_is_ace_to_five_in_two_colours() -> None:
    """Activation deck: ace to 5 of a red suit and of a black suit, ten cards."""
    assert len(DECK) == 10
    assert sorted((c.colour, c.value) for c in DECK) == sorted(
        [(RED, v) for v in range(1, 6)] + [(BLACK, v) for v in range(1, 6)]
    )


@pytest.mark.parametrize(("value", "minutes"), [(1, 10), (2, 15), (3, 20), (4, 25), (5, 30)])
def test_turn_length(value: int, minutes: int) -> None:
    """Activating Commanders: (value + 1) x 5 minutes; an ace is 10, a 5 is 30."""
    assert turn_minutes(Card(RED, value)) == minutes
    assert long_turn(minutes) is (minutes >= 25)


def test_red_three_activates_british_level_three() -> None:
    """Activating Commanders: a red 3 activates British commanders of activity level 3."""
    card = Card(RED, 3)
    assert activates(card, BRITISH, 3)
    assert not activates(card, AMERICAN, 3)
    assert not activates(card, BRITISH, 2)
    assert activates(Card(BLACK, 2), AMERICAN, 2)


def test_leaderless_units_act_on_their_ace() -> None:
    """Activating Units: units of a killed commander try on the next appropriate ace."""
    assert activates_leaderless(Card(BLACK, 1), AMERICAN)
    assert not activates_leaderless(Card(RED, 1), AMERICAN)
    assert not activates_leaderless(Card(BLACK, 2), AMERICAN)


def test_first_card_distribution() -> None:
    """Sequence of Play: the first card is any of ten, so each turn length has 1/5."""
    dist = odds(lambda *, dice: first_card(dice=dice)[1])
    assert all(dist.probability(m) == Fraction(1, 5) for m in (10, 15, 20, 25, 30))


def test_draws_without_replacement() -> None:
    """Sequence of Play: cards are drawn until the deck is empty, each once."""
    remaining = DECK[:3]
    dist = odds(draw_card, remaining)
    assert set(dist.outcomes) == set(remaining)
    assert all(dist.probability(c) == Fraction(1, 3) for c in remaining)
    assert without(remaining, remaining[0]) == remaining[1:]
    with pytest.raises(InvalidValueError):
        without(remaining[1:], remaining[0])
    with pytest.raises(IllegalActionError):
        odds(draw_card, ())


def test_card_validation() -> None:
    """Activation deck: values ace (1) to 5, red or black."""
    with pytest.raises(InvalidValueError):
        Card(RED, 6)
    with pytest.raises(InvalidValueError):
        Card("green", 1)
