"""Bloodybacks! 9.3: American War of Independence rules with d12 hands, unit density and an
activation deck (text: ../shared/rules/bloodybacks-9.3.txt).

``RULESET`` lists every random mechanism; ``TURN`` plays the sequence of play on the core
engine; ``example_battle`` is the embedded battle.
"""

from smoothbore.core import Ruleset

from .mechanisms import MECHANISMS
from .options import DEFAULT_OPTIONS, Options
from .phases import PHASES
from .scenarios import SCENARIOS, example_battle
from .state import Extra, State, new_battle
from .turn import TURN
from .units import Commander, Unit

RULESET = Ruleset(
    name="bloodybacks93",
    title="Bloodybacks!",
    period="American War of Independence",
    edition="version 9.3 (the author's web page)",
    aliases=("bloodybacks", "bb93"),
    dice=("d12", "dAv (average die 2,3,3,4,4,5)", "d3", "activation deck of 10 cards"),
    phases=PHASES,
    mechanisms=MECHANISMS,
    turn=TURN,
    source="bloodybacks-9.3.txt",
    example=example_battle,
    scenarios=SCENARIOS,
    colours={"british": "#c0282d", "american": "#2f5aa8"},
)

__all__ = [
    "DEFAULT_OPTIONS",
    "PHASES",
    "RULESET",
    "TURN",
    "Commander",
    "Extra",
    "Options",
    "State",
    "Unit",
    "example_battle",
    "new_battle",
]
