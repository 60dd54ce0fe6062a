"""The phases of a Bloodybacks turn and the sequence of play, as data (Bloodybacks 9.3,
Sequence of Play)."""

from __future__ import annotations

from smoothbore.core import NamedEnum, Phase

from .rules import RULE_ACTIVATION, RULE_ACTIVITY, RULE_FATE, RULE_SEQUENCE

ACTIVITY = "activity"
DRAW = "draw"
ACTIVATION = "activation"
DEFERRED = "deferred melees"
ENDED = "ended"

PHASES: tuple[Phase, ...] = (
    Phase(
        ACTIVITY,
        RULE_ACTIVITY,
        "roll an average die for each commander: activity level and command points",
    ),
    Phase(
        DRAW,
        RULE_SEQUENCE,
        "draw a card from the activation deck (the first sets the turn length)",
    ),
    Phase(
        ACTIVATION,
        RULE_ACTIVATION,
        "commanders activated by the card activate units, which spend their actions",
    ),
    Phase(
        DEFERRED,
        RULE_SEQUENCE,
        "resolve the melees deferred during the turn, then start the next turn or end the "
        "battle",
    ),
    Phase(
        ENDED,
        RULE_FATE,
        "the battle is over: the fate of removed commanders has been rolled",
    ),
)


class Step(NamedEnum):
    """The sequence of play, in order."""

    ACTIVITY = "determine activity level for each commander"
    SHUFFLE = "shuffle the activation deck"
    FIRST_CARD = "draw the first card: turn length and random events"
    ACTIVATE = "act with the commanders activated by the card"
    DRAW = "draw cards and activate commanders until the deck is empty"
    DEFERRED = "resolve deferred melees"
    NEXT = "start the next turn"


SEQUENCE: tuple[Step, ...] = tuple(Step)
"""The text's sequence of play; ``PHASES`` are its steps as the turn plays them (the deck is
shuffled as the activity is rolled, and the first card is drawn like any other)."""
