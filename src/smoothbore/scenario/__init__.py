"""Scenario files: a battle a wargamer writes, shares, plays and simulates (TOML).

``load_scenario(path)`` reads a file and checks it whole (``ScenarioError`` names every fault
with its file, line, field, value and what is allowed); ``Scenario.start(seed)`` gives the
battle; ``Scenario.to_toml()`` writes it back; ``Scenario.from_state(state)`` describes a
battle at its start. ``packaged_battles()`` lists the battles shipped inside the books. This
package sits above the rule books and below ``smoothbore.battle``: a book gives what it needs
through its ``scenarios`` module (``document.book_words``)."""

import json
from importlib.resources import files
from typing import Any

from smoothbore.scenario.commands import packaged_battles, ruleset_of
from smoothbore.scenario.document import (
    MAX_BYTES,
    Fault,
    Scenario,
    ScenarioError,
    load_scenario,
    read_scenario,
)

__all__ = [
    "MAX_BYTES",
    "Fault",
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "packaged_battles",
    "read_scenario",
    "ruleset_of",
    "schema",
]


def schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file (``schema.json`` in this package)."""
    loaded: dict[str, Any] = json.loads(
        files("smoothbore.scenario").joinpath("schema.json").read_text("utf-8"))
    return loaded
