"""The tables missing from the text, rebuilt as data (data/*.toml, data/casualties.csv),
loaded and validated at import (McKie ACW: see NOTES.md and docs/rulesets/mckie_acw.md).

``DEFAULT_TABLES`` holds the library's reconstructions. A player with the original tables
replaces any of them with ``with_table(tables, name, path)``, which is pure: it returns a new
``Tables`` to pass into ``Options(tables=...)`` (and so into a battle); nothing global changes.
Every error names the file, the table, the row and the field."""

from __future__ import annotations

import bisect
import csv
import functools
import io
import itertools
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from smoothbore.core import InvalidValueError, NamedEnum

from .units import Weapon

__all__ = [
    "DEFAULT_TABLES",
    "TABLE_FILES",
    "CasualtyTable",
    "Cell",
    "CounterBatteryRow",
    "GeneralRating",
    "MoraleBand",
    "MoraleResult",
    "PiecesLost",
    "RangeBand",
    "Tables",
    "WeaponRow",
    "load_tables",
    "with_table",
]


class MoraleResult(NamedEnum):
    """The results of the (reconstructed) morale results table."""

    CARRY_ON = "carry-on"
    HALT = "halt"
    RETREAT = "retreat"
    ROUT = "rout"


@attrs.frozen
class RangeBand:
    """Up to ``to`` millimetres a weapon's basic factor is ``factor``."""

    to: int
    factor: int


@attrs.frozen(cache_hash=True)
class WeaponRow:
    """One row of the weapon/range factor table; ``optional``: the sniper line."""

    weapon: Weapon
    bands: tuple[RangeBand, ...]
    optional: bool = False

    @property
    def reach(self) -> int:
        """The longest range the weapon fires at."""
        return self.bands[-1].to

    def factor(self, range_mm: float) -> int | None:
        """The basic factor at a range (None: out of reach)."""
        for band in self.bands:
            if range_mm <= band.to:
                return band.factor
        return None


@attrs.frozen
class Cell:
    """A casualty table cell: figures lost for certain, per cent chance of one more."""

    definite: int
    percent: int

    def __str__(self) -> str:
        return f"{self.definite}/{self.percent}"


@attrs.frozen(cache_hash=True)
class CasualtyTable:
    """The casualty table: rows by final factor, columns by figures or guns firing."""

    factors: tuple[int, ...]
    columns: tuple[int, ...]
    cells: tuple[tuple[Cell, ...], ...]

    def cell(self, factor: int, firing: int) -> Cell:
        """The cell for a final factor and a number firing: below the first row or column
        nothing; above the last row the last row; the largest column not above the number
        firing."""
        return _cell(self, factor, firing)


NOTHING = Cell(0, 0)


@functools.lru_cache(maxsize=4096)
def _cell(table: CasualtyTable, factor: int, firing: int) -> Cell:
    if factor < table.factors[0] or firing < table.columns[0]:
        return NOTHING
    row = min(factor, table.factors[-1]) - table.factors[0]
    column = bisect.bisect_right(table.columns, firing) - 1
    return table.cells[row][column]


@attrs.frozen
class PiecesLost:
    """A counter-battery result: a d10 from ``low`` to ``high`` loses ``pieces``."""

    low: int
    high: int
    pieces: int


@attrs.frozen(cache_hash=True)
class CounterBatteryRow:
    """The counter-battery results for enemy fire of final factor ``low`` to ``high``."""

    low: int
    high: int
    results: tuple[PiecesLost, ...]

    def pieces(self, score: int) -> int:
        """Pieces lost on a d10 score."""
        return next((r.pieces for r in self.results if r.low <= score <= r.high), 0)


@attrs.frozen
class MoraleBand:
    """Totals from ``low`` to ``high`` (None: open) give ``result``."""

    result: MoraleResult
    low: int | None = None
    high: int | None = None


@attrs.frozen
class GeneralRating:
    """A general's initiative and activation ratings."""

    name: str
    side: str
    initiative: int
    activation: int


MELEE_BASIC = ("infantry", "dismounted-cavalry", "mounted-cavalry", "artillery-crew",
               "skirmishers")
MELEE_FACTORS = ("charging", "veteran", "raw", "general-with-unit", "won-last-period",
                 "defending-cover", "defending-permanent-defenses", "attacked-in-flank",
                 "attacked-in-rear", "tired", "exhausted")
MOVEMENT_RATES = ("foot-line", "foot-column", "foot-skirmish", "cavalry-line", "cavalry-column",
                  "cavalry-skirmish", "field-artillery-limbered", "siege-artillery-limbered",
                  "general-mounted")
BASES = ("foot", "cavalry", "gun", "general")


@attrs.frozen(cache_hash=True)
class Tables:
    """Every reconstructed table, as one value (see the files in data/)."""

    weapons: tuple[WeaponRow, ...]
    casualties: CasualtyTable
    counter_battery: tuple[CounterBatteryRow, ...]
    melee_basic: tuple[tuple[str, int], ...]
    melee_factors: tuple[tuple[str, int], ...]
    morale: tuple[MoraleBand, ...]
    movement: tuple[tuple[str, int], ...]
    bases: tuple[tuple[str, int, int], ...]
    generals: tuple[GeneralRating, ...]

    def __attrs_post_init__(self) -> None:
        # the keyed tables name every key their rules read, once, with a value in range (as
        # the data files are read): a loaded state's tables may not name an unknown kind
        for field, keys, low, high in (("melee_basic", MELEE_BASIC, 0, 20),
                                       ("melee_factors", MELEE_FACTORS, -20, 20),
                                       ("movement", MOVEMENT_RATES, 1, 5000)):
            rows = getattr(self, field)
            if sorted(k for k, _v in rows) != sorted(keys):
                raise InvalidValueError(f"Tables.{field}", [k for k, _v in rows],
                                        "each of " + ", ".join(keys) + " once")
            for key, value in rows:
                if not (type(value) is int and low <= value <= high):
                    raise InvalidValueError(f"Tables.{field}[{key}]", value,
                                            f"an integer from {low} to {high}")
        if sorted(k for k, _f, _d in self.bases) != sorted(BASES):
            raise InvalidValueError("Tables.bases", [k for k, _f, _d in self.bases],
                                    "each of " + ", ".join(BASES) + " once")
        for key, frontage, depth in self.bases:
            for name, value in (("frontage", frontage), ("depth", depth)):
                if not (type(value) is int and 1 <= value <= 500):
                    raise InvalidValueError(f"Tables.bases[{key}].{name}", value,
                                            "an integer from 1 to 500 (mm)")
        if {row.weapon for row in self.weapons} != set(Weapon):
            raise InvalidValueError("Tables.weapons", [r.weapon.value for r in self.weapons],
                                    "a row for each weapon")

    def weapon(self, weapon: Weapon) -> WeaponRow:
        """The weapon/range factor row of a weapon."""
        return _index(self).weapons[weapon]

    def rate(self, key: str) -> int:
        """A movement rate in millimetres (data/movement.toml)."""
        return _index(self).movement[key]

    def melee_factor(self, key: str) -> int:
        """A melee tactical factor (data/melee.toml)."""
        return _index(self).melee_factors[key]

    def basic_fighting(self, key: str) -> int:
        """A basic fighting factor (data/melee.toml)."""
        return _index(self).melee_basic[key]

    def base(self, key: str) -> tuple[int, int]:
        """The frontage and depth of a figure's base (data/bases.toml)."""
        return next((f, d) for name, f, d in self.bases if name == key)

    def morale_result(self, total: int) -> MoraleResult:
        """The morale results table read at a total."""
        for band in self.morale:
            low, high = band.low, band.high
            if (low is None or total >= low) and (high is None or total <= high):
                return band.result
        raise InvalidValueError("morale total", total, "a total some band covers")

    def counter_battery_row(self, factor: int) -> CounterBatteryRow | None:
        """The counter-battery row for a final factor (None: below the table, no risk)."""
        return next((r for r in self.counter_battery if r.low <= factor <= r.high), None)

    def rating(self, name: str) -> GeneralRating:
        """A listed general's ratings."""
        for g in self.generals:
            if g.name == name:
                return g
        raise InvalidValueError("general", name, "one of " + ", ".join(g.name for g in
                                                                       self.generals))


@attrs.frozen
class _Index:
    """The keyed tables of a ``Tables`` as dictionaries, made once for each value."""

    weapons: Mapping[Weapon, WeaponRow]
    movement: Mapping[str, int]
    melee_factors: Mapping[str, int]
    melee_basic: Mapping[str, int]


@functools.lru_cache(maxsize=16)
def _index(tables: Tables) -> _Index:
    return _Index({row.weapon: row for row in tables.weapons}, dict(tables.movement),
                  dict(tables.melee_factors), dict(tables.melee_basic))


# --- reading and checking ---------------------------------------------------------------
class _Where:
    """Names the place of a bad value: file, table, row, field."""

    def __init__(self, file: str, table: str) -> None:
        self.file, self.table = file, table

    def error(self, row: object, field: str, value: object, allowed: str) -> InvalidValueError:
        return InvalidValueError(f"{self.file} [{self.table}] row {row} field {field}", value,
                                 allowed)

    def int(self, row: object, field: str, value: object, low: int = -99, high: int = 999) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.error(row, field, value, f"an integer from {low} to {high}")
        return value

    def get(self, data: Mapping[str, Any], row: object, field: str) -> Any:
        key = field.rsplit(".", 1)[-1]
        if not isinstance(data, Mapping) or key not in data:
            raise self.error(row, field, None, "a value (the field is missing)")
        return data[key]


def _toml(file: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidValueError(file, str(error), "valid TOML") from None


def _list(where: _Where, data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise where.error("-", key, value, f"a non-empty list of [[{key}]] rows")
    for i, item in enumerate(value, 1):
        if not isinstance(item, dict):
            raise where.error(i, key, item, "a table of fields")
    return value


def _weapons(file: str, text: str) -> tuple[WeaponRow, ...]:
    where = _Where(file, "weapon")
    rows: dict[Weapon, WeaponRow] = {}
    for i, item in enumerate(_list(where, _toml(file, text), "weapon"), 1):
        name = where.get(item, i, "name")
        try:
            weapon = Weapon(name)
        except ValueError:
            allowed = "one of " + ", ".join(w.value for w in Weapon)
            raise where.error(i, "name", name, allowed) from None
        if weapon in rows:
            raise where.error(i, "name", name, "each weapon once")
        bands_data = where.get(item, i, "bands")
        if not isinstance(bands_data, list) or not bands_data:
            raise where.error(i, "bands", bands_data, "a non-empty list of {to, factor}")
        bands: list[RangeBand] = []
        for b in bands_data:
            if not isinstance(b, dict):
                raise where.error(i, "bands", b, "{ to = mm, factor = n }")
            to = where.int(i, "bands.to", where.get(b, i, "bands.to"),
                           1, 5000)
            factor = where.int(i, "bands.factor", where.get(b, i, "bands.factor"), -10, 20)
            if bands and to <= bands[-1].to:
                raise where.error(i, "bands.to", to, f"more than the band before ({bands[-1].to})")
            bands.append(RangeBand(to, factor))
        optional = item.get("optional", False)
        if not isinstance(optional, bool):
            raise where.error(i, "optional", optional, "true or false")
        rows[weapon] = WeaponRow(weapon, tuple(bands), optional)
    missing = [w.value for w in Weapon if w not in rows]
    if missing:
        raise where.error("-", "name", None,
                          "a row for every weapon; missing " + ", ".join(missing))
    return tuple(rows[w] for w in Weapon)


def _casualties(file: str, text: str) -> CasualtyTable:
    where = _Where(file, "casualties")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows or not rows[0] or rows[0][0].strip() != "factor":
        raise where.error("header", "factor", rows[0][0] if rows and rows[0] else None,
                          "a header 'factor,<figures firing>...'")
    columns: list[int] = []
    for text_value in rows[0][1:]:
        value = _parse_int(where, "header", "columns", text_value, 1, 1000)
        if columns and value <= columns[-1]:
            raise where.error("header", "columns", value, f"more than {columns[-1]}")
        columns.append(value)
    if not columns:
        raise where.error("header", "columns", None, "at least one column")
    factors: list[int] = []
    cells: list[tuple[Cell, ...]] = []
    for row in rows[1:]:
        factor = _parse_int(where, row[0], "factor", row[0], -50, 50)
        if factors and factor != factors[-1] + 1:
            raise where.error(factor, "factor", factor, f"{factors[-1] + 1} (rows one apart)")
        if len(row) != len(columns) + 1:
            raise where.error(factor, "cells", len(row) - 1, f"{len(columns)} cells")
        parsed = []
        for column, cell in zip(columns, row[1:], strict=True):
            parts = cell.strip().split("/")
            if len(parts) != 2:
                raise where.error(factor, str(column), cell, "D/P: figures lost / per cent")
            definite = _parse_int(where, factor, str(column), parts[0], 0, 100)
            percent = _parse_int(where, factor, str(column), parts[1], 0, 99)
            parsed.append(Cell(definite, percent))
        factors.append(factor)
        cells.append(tuple(parsed))
    if not factors:
        raise where.error("-", "factor", None, "at least one row")
    return CasualtyTable(tuple(factors), tuple(columns), tuple(cells))


def _parse_int(where: _Where, row: object, field: str, text: str, low: int, high: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise where.error(row, field, text, f"an integer from {low} to {high}") from None
    return where.int(row, field, value, low, high)


def _counter_battery(file: str, text: str) -> tuple[CounterBatteryRow, ...]:
    where = _Where(file, "row")
    out: list[CounterBatteryRow] = []
    for i, item in enumerate(_list(where, _toml(file, text), "row"), 1):
        low = where.int(i, "low", where.get(item, i, "low"), 1, 99)
        high = where.int(i, "high", where.get(item, i, "high"), low, 999)
        if out and low != out[-1].high + 1:
            raise where.error(i, "low", low, f"{out[-1].high + 1} (rows follow each other)")
        results: list[PiecesLost] = []
        for r in where.get(item, i, "results"):
            r_low = where.int(i, "results.low", where.get(r, i, "results.low"), 1, 10)
            r_high = where.int(i, "results.high", where.get(r, i, "results.high"), r_low, 10)
            if results and r_low <= results[-1].high:
                raise where.error(i, "results.low", r_low, f"above {results[-1].high}")
            pieces = where.int(i, "results.pieces", where.get(r, i, "results.pieces"), 1, 20)
            results.append(PiecesLost(r_low, r_high, pieces))
        out.append(CounterBatteryRow(low, high, tuple(results)))
    return tuple(out)


def _named_ints(where: _Where, data: Mapping[str, Any], keys: tuple[str, ...], low: int,
                high: int) -> tuple[tuple[str, int], ...]:
    if not isinstance(data, dict):
        raise where.error("-", where.table, data, "a table of name = value")
    extra = sorted(set(data) - set(keys))
    if extra:
        raise where.error(extra[0], "name", extra[0], "one of " + ", ".join(keys))
    return tuple((k, where.int(k, "value", where.get(data, k, k), low, high)) for k in keys)


def _melee(file: str, text: str) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    data = _toml(file, text)
    basic = _named_ints(_Where(file, "basic"), data.get("basic", {}), MELEE_BASIC, 0, 20)
    factors = _named_ints(_Where(file, "factors"), data.get("factors", {}), MELEE_FACTORS, -20, 20)
    return basic, factors


def _morale(file: str, text: str) -> tuple[MoraleBand, ...]:
    where = _Where(file, "band")
    bands: list[MoraleBand] = []
    for i, item in enumerate(_list(where, _toml(file, text), "band"), 1):
        name = where.get(item, i, "result")
        try:
            result = MoraleResult(name)
        except ValueError:
            raise where.error(i, "result", name,
                              "one of " + ", ".join(r.value for r in MoraleResult)) from None
        low = item.get("low")
        high = item.get("high")
        if low is not None:
            where.int(i, "low", low)
        if high is not None:
            where.int(i, "high", high)
        if low is None and high is None:
            raise where.error(i, "low", None, "low, high or both")
        if low is not None and high is not None and high < low:
            raise where.error(i, "high", high, f"at least low ({low})")
        bands.append(MoraleBand(result, low, high))
    ordered = sorted(bands, key=lambda b: -10**6 if b.low is None else b.low)
    if ordered[0].low is not None or ordered[-1].high is not None:
        raise where.error("-", "low/high", None, "bands open at both ends (every total covered)")
    for before, after in itertools.pairwise(ordered):
        if before.high is None or after.low != before.high + 1:
            raise where.error("-", "low", after.low, "bands that follow each other exactly")
    return tuple(bands)


def _movement(file: str, text: str) -> tuple[tuple[str, int], ...]:
    data = _toml(file, text)
    return _named_ints(_Where(file, "rates"), data.get("rates", {}), MOVEMENT_RATES, 1, 5000)


def _bases(file: str, text: str) -> tuple[tuple[str, int, int], ...]:
    data = _toml(file, text)
    out = []
    for key in BASES:
        where = _Where(file, key)
        item = data.get(key)
        if not isinstance(item, dict):
            raise where.error("-", key, item, "a [" + key + "] table with frontage and depth")
        out.append((key, where.int(key, "frontage", where.get(item, key, "frontage"), 1, 500),
                    where.int(key, "depth", where.get(item, key, "depth"), 1, 500)))
    return tuple(out)


def _generals(file: str, text: str) -> tuple[GeneralRating, ...]:
    where = _Where(file, "general")
    out: list[GeneralRating] = []
    for i, item in enumerate(_list(where, _toml(file, text), "general"), 1):
        name = where.get(item, i, "name")
        if not isinstance(name, str) or not name or any(g.name == name for g in out):
            raise where.error(i, "name", name, "a name not used before")
        side = where.get(item, i, "side")
        if not isinstance(side, str) or not side:
            raise where.error(i, "side", side, "a side")
        out.append(GeneralRating(
            name, side,
            where.int(i, "initiative", where.get(item, i, "initiative"), 0, 10),
            where.int(i, "activation", where.get(item, i, "activation"), 0, 10),
        ))
    return tuple(out)


TABLE_FILES: Mapping[str, str] = {
    "weapons": "weapons.toml",
    "casualties": "casualties.csv",
    "counter_battery": "counter_battery.toml",
    "melee": "melee.toml",
    "morale": "morale.toml",
    "movement": "movement.toml",
    "bases": "bases.toml",
    "generals": "generals.toml",
}
"""Each replaceable table's name and its file in the package's data folder."""


def _fields(name: str, file: str, text: str) -> dict[str, Any]:
    readers: dict[str, Callable[[str, str], Any]] = {
        "weapons": _weapons, "casualties": _casualties, "counter_battery": _counter_battery,
        "morale": _morale, "movement": _movement, "bases": _bases, "generals": _generals,
    }
    if name == "melee":
        basic, factors = _melee(file, text)
        return {"melee_basic": basic, "melee_factors": factors}
    return {name: readers[name](file, text)}


def _packaged(file: str) -> str:
    folder = resources.files("smoothbore.mckie_acw").joinpath("data")
    return folder.joinpath(file).read_text("utf-8")


def load_tables() -> Tables:
    """The library's default tables, read and checked from the package's data files."""
    fields: dict[str, Any] = {}
    for name, file in TABLE_FILES.items():
        fields.update(_fields(name, file, _packaged(file)))
    return Tables(**fields)


def with_table(tables: Tables, name: str, path: str | Path) -> Tables:
    """``tables`` with one table replaced by the player's own copy, a file in the same format
    as the packaged one (``TABLE_FILES``), checked as the defaults are. Pure: the result is a
    new value to pass as ``Options(tables=...)``."""
    if name not in TABLE_FILES:
        raise InvalidValueError("table", name, "one of " + ", ".join(TABLE_FILES))
    file = Path(path)
    try:
        text = file.read_text("utf-8")
    except OSError as error:
        raise InvalidValueError("path", str(path), f"a readable file ({error.strerror})") from None
    return attrs.evolve(tables, **_fields(name, file.name, text))


DEFAULT_TABLES = load_tables()
"""The reconstructed default tables (every one marked RECONSTRUCTION in its file)."""
