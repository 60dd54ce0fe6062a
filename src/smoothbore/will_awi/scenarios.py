"""Will's AWI scenario words, and its embedded battles as files.

``smoothbore.scenario`` reads and writes scenario files; this module gives it what only this
book knows: the unit, commander and options classes whose fields a file writes in the book's
own words (``troop = "light infantry"``, ``nationality = "british"``, ``formation =
"column"``; ``variant = "fortyfive"`` among the options), a unit's footprint where a file
places it (``positions.footprint``), the unit a general is with, the works and demolitions a
battle starts with (``[setup] works``, ``demolitions``, W46-W49) and how a battle starts
(``new_battle``). The book never imports the scenario package: its embedded battles below
are data (core's ``PackagedBattle``: the book and the file) that the scenario reader reads
when a battle is made.

The embedded battles are the files of ``battles/`` (one source, no Python twin): small
actions that between them bring every part of the rules into play (command and control,
works and demolitions, the '45 and Ireland 1798 variants, second cavalry charges and
evasion), each on a 48" x 36" table and, as ``<name>-no-table``, the same file measured by
the players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from smoothbore.core import PackagedBattle, Scenario
from smoothbore.core.errors import InvalidValueError
from smoothbore.table import Footprint, Table

from .fortifications import Defence, Demolition
from .options import Options, Variant, variant_named
from .positions import footprint
from .state import State, new_battle
from .units import Commander, Unit

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options


def _read_variant(word: Any) -> Variant:
    """A variant by its name: base, ireland1798 or fortyfive."""
    if not isinstance(word, str):
        raise InvalidValueError("variant", word, "base, ireland1798 or fortyfive")
    return variant_named(word)


def _write_variant(variant: Variant) -> str:
    return variant.name


OPTIONS_CODECS = {"variant": (_read_variant, _write_variant)}
SETUP: Mapping[str, tuple[Any, str]] = {
    "works": (tuple[Defence, ...], "the works on the table at the start (W46-W49): "
              "{ work, points, id }"),
    "demolitions": (tuple[Demolition, ...], "charges already laid against a work (W49): "
                    "{ work, unit, charges }"),
}
"""The book's own settings of a battle's start: works and demolitions under way."""


def place(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """Where a file places a unit: its centre and facing (``positions.footprint``)."""
    return footprint(unit, x, y, facing)


def lost(unit: Unit) -> bool:
    """Whether a unit counts as lost for a scenario's break point:
    off the table (eliminated, surrendered, routed off)."""
    return bool(not unit.on_table)


def riding_with(commander: Commander) -> str | None:
    """The unit a general is with (his mark follows it), or None."""
    return commander.attached_to or None


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: Mapping[str, Any]) -> State:
    """The battle a file describes (``new_battle``), the first side moving first."""
    if len(sides) != 2:
        raise InvalidValueError("side", tuple(sides), "two sides")
    return new_battle((sides[0], sides[1]), units, commanders, seed=seed, options=options,
                      works=setup.get("works", ()), demolitions=setup.get("demolitions", ()),
                      scenario=scenario, table=table)


def setup_of(state: State) -> dict[str, Any]:
    """The works and the demolitions under way, where there are any."""
    out: dict[str, Any] = {}
    if state.extra.works:
        out["works"] = state.extra.works
    if state.extra.demolitions:
        out["demolitions"] = state.extra.demolitions
    return out


example_battle = PackagedBattle("will_awi", "hobkirks-hill")
"""Hobkirk's Hill in miniature: a British foot regiment and dragoons under Lord Rawdon
against Greene's Continentals, militia and a light gun; six turns."""
command_battle = PackagedBattle("will_awi", "command-and-control")
"""Guilford Courthouse in miniature, played with command and control; six turns."""
works_battle = PackagedBattle("will_awi", "germantown")
"""Germantown: the Chew House and a timber fieldwork, the Delaware Regiment at the work with
its charge laid and its tool wagon beside it (W35, W49); six turns."""
forty_five_battle = PackagedBattle("will_awi", "prestonpans")
"""Prestonpans (Battles of the '45); five turns."""
cavalry_battle = PackagedBattle("will_awi", "cowpens")
"""Cowpens, with evasion allowed; six turns."""
ireland_battle = PackagedBattle("will_awi", "vinegar-hill")
"""Vinegar Hill (Ireland 1798); five turns."""

_FILES = (("command-and-control", "command-and-control"), ("germantown", "germantown"),
          ("prestonpans", "prestonpans"), ("cowpens", "cowpens"),
          ("vinegar-hill", "vinegar-hill"))

SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    *((name, PackagedBattle("will_awi", file)) for name, file in _FILES),
    ("default-no-table", PackagedBattle("will_awi", "hobkirks-hill", on_table=False)),
    *((f"{name}-no-table", PackagedBattle("will_awi", file, on_table=False))
      for name, file in _FILES),
)
"""The embedded battles beside the default ``example_battle``, by name: each on its table,
and the same battle measured by the players (``<name>-no-table``)."""
