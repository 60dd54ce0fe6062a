"""The phases of a Bloodybacks turn, as data (Bloodybacks 9.3, Sequence of Play)."""

from __future__ import annotations

from smoothbore.core import Phase

from . import sequence
from .units import TEXT

RULE_SEQUENCE = sequence.RULE_SEQUENCE


ACTIVITY = "activity"


DRAW = "draw"


ACTIVATION = "activation"


DEFERRED = "deferred melees"


ENDED = "ended"


PHASES: tuple[Phase, ...] = (
    Phase(
        ACTIVITY,
        f"{TEXT}, Determine commander activation level",
        "roll an average die for each commander: activity level and command points",
    ),
    Phase(
        DRAW,
        f"{TEXT}, Sequence of Play",
        "draw a card from the activation deck (the first sets the turn length)",
    ),
    Phase(
        ACTIVATION,
        f"{TEXT}, Activating Units",
        "commanders activated by the card activate units, which spend their actions",
    ),
    Phase(
        DEFERRED,
        f"{TEXT}, Sequence of Play",
        "resolve the melees deferred during the turn, then start the next turn",
    ),
    Phase(
        ENDED,
        f"{TEXT}, Risk to commanders",
        "the battle is over: the fate of removed commanders is rolled",
    ),
)
