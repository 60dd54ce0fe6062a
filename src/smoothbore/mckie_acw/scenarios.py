"""McKie's ACW scenario words, and its embedded battles as files.

``smoothbore.scenario`` reads and writes scenario files; this module gives it what only this
book knows: the unit, commander and options classes whose fields a file writes in the book's
own words (``arm = "cavalry"``, ``weapon = "repeating-rifle"``, ``quality = "veteran"``,
``formation = "column"``; a commander's written ``order``), a unit's footprint where a file
places it (millimetres, ``positions.footprint``), the unit a commander is with, the settings
of a battle's start (``[setup] army_figures``, ``reserve_rounds``) and how a battle starts
(``new_battle``). The book never imports the scenario package: its embedded battles below
are data (core's ``PackagedBattle``: the book and the file) that the scenario reader reads
when a battle is made.

The embedded battles are the files of ``battles/`` (one source, no Python twin), each on its
table and, as ``<name>-no-table``, the same file measured by the players: ``default``
(Chickamauga, ``chickamauga.toml``) and ``sharpshooters`` (the same field with Berdan's
snipers and the "+ or -" morale factors), and ``champion-hill`` (a division's attack)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from smoothbore.core import PackagedBattle, Scenario
from smoothbore.core.errors import InvalidValueError
from smoothbore.table import Footprint, Table

from .options import Options
from .positions import footprint
from .state import State, new_battle
from .tables import DEFAULT_TABLES
from .units import Commander, Order, OrderKind, Unit

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options


def _read_order(word: Any) -> Order:
    """A written order: its kind (``"attack"``) or a table ``{ kind, issued_by, started }``."""
    kinds = ", ".join(k.value for k in OrderKind)
    if isinstance(word, str):
        word = {"kind": word}
    if not isinstance(word, dict) or set(word) - {"kind", "issued_by", "started"}:
        raise InvalidValueError("order", word, f"an order's kind ({kinds}) or a table "
                                "{ kind, issued_by, started }")
    try:
        kind = OrderKind(str(word.get("kind", "hold")))
    except ValueError:
        raise InvalidValueError("order.kind", word.get("kind"), "one of " + kinds) from None
    by, started = word.get("issued_by", ""), word.get("started", False)
    if not isinstance(by, str) or not isinstance(started, bool):
        raise InvalidValueError("order", word, "issued_by in quotes, started true or false")
    return Order(kind, by, started)


def _write_order(order: Order) -> Any:
    out: dict[str, Any] = {"kind": order.kind.value}
    if order.issued_by:
        out["issued_by"] = order.issued_by
    if order.started:
        out["started"] = True
    return out if len(out) > 1 else order.kind.value


def _read_tables(word: Any) -> Any:
    if word == "default":
        return DEFAULT_TABLES
    raise InvalidValueError("tables", word, '"default" (the reconstructed tables; a '
                            "player's own copies are given in Python, Options.with_table)")


def _write_tables(tables: Any) -> Any:
    if tables != DEFAULT_TABLES:
        raise InvalidValueError("tables", "(a player's own tables)",
                                "the default tables: a file cannot hold a player's copies")
    return "default"


MEASURED = frozenset({"ground"})
"""The unit fields a table measures (a unit's cover, M-Cover): written only for a battle the
players measure."""

COMMANDER_CODECS = {"order": (_read_order, _write_order)}
OPTIONS_CODECS = {"tables": (_read_tables, _write_tables)}
SETUP: Mapping[str, tuple[Any, str]] = {
    "army_figures": (tuple[int, int], "the figures of each whole army, where the battle "
                     "fields part of it (the 1-in-200 sniper limit)"),
    "reserve_rounds": (int, "the rounds per figure in each corps' ammunition train, 0 to 6"),
}
"""The book's own settings of a battle's start (``new_battle``)."""


def place(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """Where a file places a unit: its centre and facing, mm (``positions.footprint``)."""
    return footprint(unit, x, y, facing)


def lost(unit: Unit) -> bool:
    """Whether a unit counts as lost for a scenario's break point:
    off the table (surrendered, destroyed, routed away)."""
    return bool(not unit.on_table)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander is with (his mark follows it), or None."""
    return commander.attached_to or None


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: Mapping[str, Any]) -> State:
    """The battle a file describes (``new_battle``), the first side named first."""
    if len(sides) != 2:
        raise InvalidValueError("side", tuple(sides), "two sides")
    return new_battle((sides[0], sides[1]), units, commanders, seed=seed, options=options,
                      reserve_rounds=setup.get("reserve_rounds", 6),
                      army_figures=setup.get("army_figures"), scenario=scenario, table=table)


def setup_of(state: State) -> dict[str, Any]:
    """Nothing the state keeps beside its units (army figures are the file's own)."""
    return {}


example_battle = PackagedBattle("mckie_acw", "chickamauga")
"""Chickamauga in miniature: Hood's division against Baird's, Wilder's mounted brigade with
Spencer repeaters; six periods; ``table=False``: the players measure."""

sharpshooters_battle = PackagedBattle("mckie_acw", "sharpshooters")
"""The same field with two figures of Berdan's Sharpshooters and the "+ or -" morale factors
at each player's choice; six periods."""

champion_hill = PackagedBattle("mckie_acw", "champion-hill")
"""Champion Hill (16 May 1863): Hovey's division, with Boomer's brigade, attacks Stevenson's
division on the hill; six periods."""

SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("sharpshooters", sharpshooters_battle),
    ("champion-hill", champion_hill),
    ("default-no-table", PackagedBattle("mckie_acw", "chickamauga", on_table=False)),
    ("sharpshooters-no-table", PackagedBattle("mckie_acw", "sharpshooters", on_table=False)),
    ("champion-hill-no-table", PackagedBattle("mckie_acw", "champion-hill", on_table=False)),
)
"""The embedded battles beside the default ``example_battle``."""
