"""smoothbore: a pure rules engine for horse-and-musket miniature wargames.

Each rule is written once as a pure function that rolls through a ``Dice`` and is used three
ways: to play (sampling dice that record every roll), for exact odds (``odds``), and for Monte
Carlo. ``smoothbore.core`` holds what the rulesets share; ``get_ruleset`` finds a rule book;
``load_scenario`` reads a battle from a scenario file; ``play`` drives a battle to its end and
``simulate`` plays many to say who wins.

The names below load on first use (PEP 562), so ``import smoothbore.core`` loads neither the
battle loop, the table nor Shapely.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smoothbore.battle import Played, RandomPolicy, play, random_policy, replay
    from smoothbore.core import Distribution, SamplingDice, odds
    from smoothbore.rulesets import available_rulesets, default_registry, get_ruleset
    from smoothbore.scenario import Scenario, load_scenario
    from smoothbore.simulation import Simulation, simulate

__all__ = [
    "Distribution",
    "Played",
    "RandomPolicy",
    "SamplingDice",
    "Scenario",
    "Simulation",
    "__version__",
    "available_rulesets",
    "default_registry",
    "get_ruleset",
    "load_scenario",
    "odds",
    "play",
    "random_policy",
    "replay",
    "simulate",
]

__version__ = "0.1.0"

_WHERE = {
    "Distribution": "smoothbore.core",
    "SamplingDice": "smoothbore.core",
    "odds": "smoothbore.core",
    "Played": "smoothbore.battle",
    "RandomPolicy": "smoothbore.battle",
    "play": "smoothbore.battle",
    "random_policy": "smoothbore.battle",
    "replay": "smoothbore.battle",
    "available_rulesets": "smoothbore.rulesets",
    "default_registry": "smoothbore.rulesets",
    "get_ruleset": "smoothbore.rulesets",
    "Scenario": "smoothbore.scenario",
    "load_scenario": "smoothbore.scenario",
    "Simulation": "smoothbore.simulation",
    "simulate": "smoothbore.simulation",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module when first asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'smoothbore' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
