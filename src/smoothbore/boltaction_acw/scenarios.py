"""Black Powder Bolt Action's scenario words, and its embedded battles as files.

``smoothbore.scenario`` reads and writes scenario files; this module gives it what only this
book knows: the unit, commander and options classes whose fields a file writes in the book's
own words (``kind = "skirmishers"``, ``experience = "veteran"``, ``weapon =
"smoothbore-musket"``, ``formation = "unlimbered"``), a unit's footprint where a file places
it (``placing.footprint``), the unit a commander rides with, the objective a file may name
(``[victory] objective``, A21), and how a battle starts (``new_battle``). The book never
imports the scenario package; the embedded battles below read their files through it when
called.

The embedded battles are the files of ``battles/`` (one source, no Python twin), a brigade a
side from the historical order of battle, each played on its table (A30) and, as
``<name>-no-table``, the same file measured by the players: ``default`` (Brawner's Farm,
``brawners-farm.toml``), ``mcphersons-ridge`` and ``maryes-heights`` (Fredericksburg)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from smoothbore.core import PackagedBattle, Scenario
from smoothbore.core.errors import InvalidValueError
from smoothbore.table import Footprint, Table

from .options import Options
from .placing import footprint
from .state import State, new_battle
from .units import SIDES, Commander, Unit

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options
VICTORY: Mapping[str, tuple[Any, str]] = {
    "objective": (str, "the id of the table's feature the side holding it wins by (A21)"),
}
"""The book's own victory setting: an objective on the table (A21)."""


def place(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """Where a file places a unit: its centre and facing (``placing.footprint``)."""
    return footprint(unit, x, y, facing)


def lost(unit: Unit) -> bool:
    """Whether a unit counts as lost for a scenario's break point:
    destroyed or gone home (``Unit.lost``)."""
    return bool(unit.lost)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander rides with (his mark follows it), or None."""
    return commander.with_unit


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: Mapping[str, Any]) -> State:
    """The battle a file describes (``new_battle``); its sides are the book's own. The
    commanders riding with a unit are put with it by ``new_battle`` (A14)."""
    if tuple(sides) != SIDES:
        raise InvalidValueError("side", tuple(sides), "the sides " + " and ".join(SIDES)
                                + ", in that order")
    objective = setup.get("objective") if table is not None else None
    if table is not None:
        table = attrs.evolve(table, commanders=tuple(
            m for m in table.commanders if m.attached_to is None))
    return new_battle(units, commanders, seed=seed, options=options, scenario=scenario,
                      table=table, objective=objective)


def setup_of(state: State) -> dict[str, Any]:
    """The objective, where the battle has one."""
    return {"objective": state.extra.objective} if state.extra.objective else {}


brawners_farm = PackagedBattle("boltaction_acw", "brawners-farm")
"""Gibbon's brigade against the Stonewall Brigade at Brawner's Farm (28 August 1862), six
turns at most (A20, A21); ``on_table=False``: the players measure."""

mcphersons_ridge = PackagedBattle("boltaction_acw", "mcphersons-ridge")
"""Gamble's cavalry brigade against Archer's brigade on the morning of Gettysburg (1 July
1863), six turns at most; the side holding McPherson's Ridge after the last turn wins (A21)."""

maryes_heights = PackagedBattle("boltaction_acw", "maryes-heights")
"""Meagher's Irish Brigade against Cobb's brigade at the stone wall below Marye's Heights
(Fredericksburg, 13 December 1862), six turns; the side holding the heights wins (A21)."""

example_battle = brawners_farm
"""The default embedded battle: Brawner's Farm on its table."""

SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("mcphersons-ridge", mcphersons_ridge),
    ("maryes-heights", maryes_heights),
    ("default-no-table", PackagedBattle("boltaction_acw", "brawners-farm", on_table=False)),
    ("mcphersons-ridge-no-table",
     PackagedBattle("boltaction_acw", "mcphersons-ridge", on_table=False)),
    ("maryes-heights-no-table",
     PackagedBattle("boltaction_acw", "maryes-heights", on_table=False)),
)
"""The embedded battles besides ``example_battle`` (Brawner's Farm)."""
