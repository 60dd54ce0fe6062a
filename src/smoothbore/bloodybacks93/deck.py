"""The activation deck: its ten cards, drawing them, the turn length and the commanders a card
activates (Bloodybacks 9.3, Activation deck; Sequence of Play; Activating Commanders)."""

from __future__ import annotations

import attrs

from smoothbore.core import Dice, DrawCheck, IllegalActionError, InvalidValueError
from smoothbore.core.validate import in_range, one_of

from .rules import RULE_DECK, RULE_SEQUENCE
from .units import AMERICAN, BRITISH

RED = "red"
BLACK = "black"


@attrs.frozen(order=True)
class Card:
    """A card of the activation deck: a value (ace = 1 to 5) and a colour."""

    colour: str = attrs.field(validator=one_of(RED, BLACK))
    value: int = attrs.field(validator=in_range(1, 5))

    @property
    def side(self) -> str:
        """Red activates the British and allies, black the Americans and French."""
        return BRITISH if self.colour == RED else AMERICAN

    @property
    def turn_minutes(self) -> int:
        """As the first card of a turn: (value + 1) x 5 minutes."""
        return (self.value + 1) * 5

    def __str__(self) -> str:
        name = "ace" if self.value == 1 else str(self.value)
        return f"{self.colour} {name}"


DECK: tuple[Card, ...] = tuple(Card(c, v) for c in (RED, BLACK) for v in range(1, 6))
"""Ace to 5 of a red suit and ace to 5 of a black suit."""


def turn_minutes(first_card: Card) -> int:
    """Turn length set by the first card: (value + 1) x 5 minutes (Activating Commanders)."""
    return first_card.turn_minutes


def long_turn(minutes: int) -> bool:
    """25- and 30-minute turns give each activating unit an extra action (Activating Units)."""
    return minutes >= 25


def draw_card(remaining: tuple[Card, ...], *, dice: Dice) -> Card:
    """Draw one card at random from the cards not yet drawn this turn (Sequence of Play)."""
    if not remaining:
        raise IllegalActionError("draw card", "the activation deck is empty", RULE_SEQUENCE)
    (card,) = dice.roll(
        DrawCheck(tuple(remaining), 1), reason="draw from the activation deck", rule=RULE_DECK
    )
    if not isinstance(card, Card):  # pragma: no cover - DrawCheck returns the items given
        raise InvalidValueError("card", card, "a Card")
    return card


def without(remaining: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The deck after ``card`` is drawn."""
    if card not in remaining:
        raise InvalidValueError("card", card, "a card still in the deck")
    cards = list(remaining)
    cards.remove(card)
    return tuple(cards)


def activates(card: Card, side: str, activity_level: int) -> bool:
    """Whether the card activates a commander of ``side`` with this activity level."""
    return card.side == side and card.value == activity_level


def activates_leaderless(card: Card, side: str) -> bool:
    """Units whose commander is dead and not replaced try to activate on their side's ace
    (Activating Units)."""
    return card.side == side and card.value == 1


def first_card(*, dice: Dice) -> tuple[Card, int]:
    """Draw the first card of a turn from the full deck: the card and the turn length."""
    card = draw_card(DECK, dice=dice)
    return card, card.turn_minutes
