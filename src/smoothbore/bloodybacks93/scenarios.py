"""Bloodybacks' scenario words, and its embedded battles as files.

``smoothbore.scenario`` reads and writes scenario files; this module gives it what only this
book knows: the unit, commander and options classes whose fields a file writes in the book's
own words (``kind = "field artillery"``, ``troops = "continental"``, ``formation =
"unlimbered"``, ``weapon = "rifle"``), a unit's footprint where a file places it, the unit a
commander rides with, and how a battle starts (``new_battle``). The book never imports the
scenario package: its embedded battles below are data (core's ``PackagedBattle``: the book
and the file) that the scenario reader reads when a battle is made.

The embedded battles are the files of ``battles/`` (one source, no Python twin):
``default`` is ``webster-stevens.toml`` and ``camden`` is ``camden.toml``, each played on its
table; ``<name>-no-table`` is the same file measured by the players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from smoothbore.core import PackagedBattle, Scenario
from smoothbore.core.errors import InvalidValueError
from smoothbore.table import Footprint, Table

from .options import Options
from .state import State, new_battle
from .units import SIDES, Commander, Unit

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options

EXAMPLE_TURNS = 6
"""The embedded action lasts at most six turns (its file's ``turn_limit``)."""


def place(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """Where a file places a unit: its centre and facing (the battle lays its bases)."""
    return Footprint(unit.id, x, y, facing, side=unit.side)


def lost(unit: Unit) -> bool:
    """Whether a unit counts as lost for a scenario's break point:
    destroyed or routing (the book's own ``gone``)."""
    return bool(unit.destroyed or unit.routing)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander rides with (his mark follows it), or None."""
    return commander.attached_to


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: Mapping[str, Any]) -> State:
    """The battle a file describes (``new_battle``); its sides are the book's own."""
    if tuple(sides) != SIDES:
        raise InvalidValueError("side", tuple(sides), "the sides " + " and ".join(SIDES)
                                + ", in that order")
    return new_battle(units, commanders, seed=seed, options=options, scenario=scenario,
                      table=table)


def setup_of(state: State) -> dict[str, Any]:
    """Nothing beside the units, commanders, options and table sets a battle up."""
    return {}


example_battle = PackagedBattle("bloodybacks93", "webster-stevens")
"""Colonel Webster's British brigade against Colonel Stevens's Continentals and riflemen
(the commanders of the text's examples, 9.3) on a 6' x 4' table; six turns."""

example_battle_no_table = PackagedBattle("bloodybacks93", "webster-stevens", on_table=False)
"""The same action, the players measuring."""

camden = PackagedBattle("bloodybacks93", "camden")
"""Camden (16 August 1780): Webster's and Rawdon's brigades under Cornwallis against Gist's
Continentals and Stevens's militia under Gates, between the swamps; eight turns."""

SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("camden", camden),
    ("default-no-table", example_battle_no_table),
    ("camden-no-table", PackagedBattle("bloodybacks93", "camden", on_table=False)),
)
"""The embedded battles besides the default (Webster against Stevens on a table)."""
