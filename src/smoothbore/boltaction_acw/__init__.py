"""Bolt Action ACW: American Civil War rules on Bolt Action's order dice, pins and 2D6 order
tests (text: ../shared/rules/boltaction-acw.txt).

``RULESET`` lists every random mechanism; ``TURN`` plays the turn on the core engine;
``example_battle`` is the embedded battle.
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
    name="boltaction_acw",
    title="Bolt Action ACW Rules",
    period="American Civil War",
    edition="the author's web page (blog post)",
    aliases=("boltaction", "ba_acw"),
    dice=("d6", "2d6 (order and morale tests)", "order dice bag"),
    phases=PHASES,
    mechanisms=MECHANISMS,
    turn=TURN,
    source="boltaction-acw.txt",
    example=example_battle,
    scenarios=SCENARIOS,
    colours={"union": "#2b4c9b", "confederate": "#8a8d91"},
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
