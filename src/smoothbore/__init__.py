"""smoothbore: a pure rules engine for horse-and-musket miniature wargames.

Each rule is written once as a pure function that rolls through a ``Dice`` and is used three
ways: to play (sampling dice that record every roll), for exact odds (``odds``), and for Monte
Carlo. ``smoothbore.core`` holds what the rulesets share; ``get_ruleset`` finds a rule book.
"""

from smoothbore.core import Distribution, SamplingDice, odds
from smoothbore.rulesets import available_rulesets, default_registry, get_ruleset

__all__ = [
    "Distribution",
    "SamplingDice",
    "__version__",
    "available_rulesets",
    "default_registry",
    "get_ruleset",
    "odds",
]

__version__ = "0.1.0"
