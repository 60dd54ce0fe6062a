"""smoothbore: a pure rules engine for horse-and-musket miniature wargames.

Each rule is written once as a pure function that rolls through a ``Dice`` and is used three
ways: to play (sampling dice that record every roll), for exact odds (``odds``), and for Monte
Carlo. ``smoothbore.core`` holds what the rulesets share; ``get_ruleset`` finds a rule book;
``play`` drives a battle to its end and ``simulate`` plays many to say who wins.
"""

from smoothbore.battle import Played, RandomPolicy, play, random_policy, replay
from smoothbore.core import Distribution, SamplingDice, odds
from smoothbore.rulesets import available_rulesets, default_registry, get_ruleset
from smoothbore.simulation import Simulation, simulate

__all__ = [
    "Distribution",
    "Played",
    "RandomPolicy",
    "SamplingDice",
    "Simulation",
    "__version__",
    "available_rulesets",
    "default_registry",
    "get_ruleset",
    "odds",
    "play",
    "random_policy",
    "replay",
    "simulate",
]

__version__ = "0.1.0"
