"""A scenario file: read (``load_scenario``, ``read_scenario``), checked whole before anything
is played, started as a battle (``Scenario.start``) and written back (``Scenario.to_toml``).

The format is documented in ``docs/scenarios.md`` and described by ``schema.json`` beside this
module. A book takes part through its ``scenarios`` module (``BookWords``): its unit,
commander and options classes, the codecs of the fields words cannot spell, the footprint of a
unit placed at a point, and how its battle starts."""

from __future__ import annotations

import importlib
import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

from smoothbore.core.errors import InvalidValueError, LoadError
from smoothbore.core.ruleset import spell
from smoothbore.core.state import DiceState
from smoothbore.core.state import Scenario as Conditions
from smoothbore.table import CommanderMark, Edge, Feature, Footprint, Measure, Table

from . import toml
from .lines import key_lines, line_of
from .words import (
    Codec,
    Problem,
    from_words,
    nearest,
    read_setting,
    read_value,
    to_words,
    vocabulary,
    write_setting,
)

__all__ = [
    "MAX_BYTES",
    "MAX_COORDINATE",
    "Fault",
    "Scenario",
    "ScenarioError",
    "book_words",
    "load_scenario",
    "packaged",
    "read_scenario",
]

MAX_BYTES = 1_000_000
"""The largest scenario file read (bytes): a 500-unit battle takes some 100 kB. The size is
checked before the text is read or parsed."""

MAX_NESTING = 32
"""The deepest nesting of arrays and tables read (a scenario needs four)."""

MAX_COORDINATE = 100_000.0
"""The largest coordinate or size a file may give (100 m in millimetres)."""

Path_ = tuple[str | int, ...]

TOP = ("book", "title", "date", "sources", "on_table", "options", "setup", "victory", "table",
       "side")
TABLE = ("width", "depth", "measure", "terrain")
TERRAIN = ("id", "kind", "outline", "line", "rectangle", "facing", "width", "strength", "level",
           "label")
SIDE = ("name", "home", "zone", "commander", "unit")
ZONE = ("id", "rectangle", "facing", "label")
PLACE = ("at", "facing")
VICTORY = ("turn_limit", "players_may_end", "break_point")
ARRAYS = frozenset({"side", "unit", "commander", "terrain"})


@attrs.frozen
class Fault:
    """One fault of a file, as its writer reads it: the file, the line (None when the scan did
    not find it), the field as written, the value found and what is allowed."""

    file: str
    line: int | None
    field: str
    value: object
    allowed: str

    def __str__(self) -> str:
        shown = repr(self.value)
        if len(shown) > 80:
            shown = shown[:79] + "…"
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field} = {shown} is invalid: allowed is {self.allowed}"


class ScenarioError(LoadError):
    """A scenario file refused: every fault found (``faults``), the first as the error's
    field, value and allowed. Nothing of the file was played."""

    def __init__(self, faults: Sequence[Fault]) -> None:
        self.faults = tuple(faults)
        first = self.faults[0]
        super().__init__(first.field, first.value, first.allowed)
        count = len(self.faults)
        head = f"{first.file}: {count} fault{'s' if count > 1 else ''} in the scenario"
        self.args = ("\n".join([head, *(f"  {f}" for f in self.faults)]),)

    def __reduce__(self) -> tuple[type, tuple[tuple[Fault, ...]]]:  # type: ignore[override]
        return (type(self), (self.faults,))


def book_words(book: str) -> ModuleType:
    """The book's scenario words (``smoothbore.<book>.scenarios``), found by its name."""
    return importlib.import_module(f"smoothbore.{book}.scenarios")


def _books(word: object = None) -> dict[str, str]:
    """The books by every name they answer to: the built-in ones at once when ``word`` names
    one (no registry to scan), else every registered ruleset and its aliases."""
    from smoothbore.rulesets import BUILTIN_RULESETS, available_rulesets

    builtin = {spell(name): name for name, _ in BUILTIN_RULESETS}
    if isinstance(word, str) and spell(word) in builtin:
        return builtin

    names: dict[str, str] = {}
    for ruleset in available_rulesets():
        for name in (ruleset.name, *ruleset.aliases):
            names[spell(name)] = ruleset.name
    return names


def _field(path: Path_, document: Mapping[str, Any]) -> str:
    """A path as the file's writer reads it: ``side["british"].unit["b1"].quality`` (an
    item of an array by its id or name, else by its place from 1: ``side[3]``)."""
    out = ""
    node: Any = document
    for part in path:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            ident = item.get("id", item.get("name")) if isinstance(item, Mapping) else None
            out += f"[{json.dumps(ident, ensure_ascii=False)}]" if isinstance(
                ident, str) else f"[{part + 1}]"
            node = item
            continue
        out += f".{part}" if out else str(part)
        node = node.get(part) if isinstance(node, Mapping) else None
    return out or "(the file)"


@attrs.frozen
class BreakPoint:
    """A scenario's break point as the turn engine's end and result (module-level, so that
    the engine pickles): a side that has lost ``percent`` of the units it began with loses at
    once (``[victory] break_point``); the book's own end and result otherwise."""

    percent: int
    book: str
    base_over: Any
    base_result: Any

    def broken(self, state: Any) -> list[tuple[str, int, int]]:
        """Each side past its break point: (side, units lost, units it began with)."""
        lost = book_words(self.book).lost
        out = []
        for side in state.sides:
            own = [u for u in state.units if u.side == side]
            gone = sum(1 for u in own if lost(u))
            if own and gone * 100 >= self.percent * len(own):
                out.append((side, gone, len(own)))
        return out

    def over(self, state: Any) -> bool:
        return bool(self.broken(state)) or bool(self.base_over(state))

    def result(self, state: Any) -> Any:
        broken = self.broken(state)
        base = self.base_result(state)
        if not broken:
            return base
        from smoothbore.core.engine import Outcome

        words = "; ".join(f"{side} has lost {gone} of its {total} units" for side, gone, total
                          in broken)
        standing = [s for s in state.sides if s not in {b[0] for b in broken}]
        winner = standing[0] if len(standing) == 1 else None
        return Outcome(winner, base.scores, f"{words}, past the scenario's break point of "
                       f"{self.percent}%", "scenario: [victory] break_point")


def _pairs(value: Mapping[str, Any] | Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    return tuple(dict(value).items())


@attrs.frozen
class Scenario:
    """A battle as a file describes it, before it is played: its book and options, title,
    date and sources, the table (None: the players measure), each side's units and
    commanders with where they stand, and the conditions that end it. ``start(seed)`` makes
    the battle; ``to_toml()`` writes the file back (the same text for the same battle)."""

    book: str
    title: str
    sides: tuple[str, ...]
    units: tuple[Any, ...]
    commanders: tuple[Any, ...]
    options: Any
    conditions: Conditions
    table: Table | None = None
    """The table with its terrain, home edges, footprints and commanders' marks as the file
    places them (before the book lays them)."""
    on_table: bool = True
    """False: the file keeps its table for the picture, but the players measure."""
    date: str = ""
    sources: tuple[str, ...] = ()
    setup: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_pairs)
    """The book's own settings of the start (``[setup]``, and ``[victory]`` beyond the turn
    limit), by key: read-only pairs, so that a scenario pickles (worker processes)."""
    break_point: int | None = None
    """``[victory] break_point``: a side that has lost this percentage of the units it began
    with (lost by its book's own measure, ``lost`` of its scenario words) loses the battle at
    once; both at once: a draw. None: the book's own end."""
    source: str = attrs.field(default="(text)", eq=False)
    _state: Any = attrs.field(default=None, eq=False, repr=False)

    def start(self, seed: int = 0, *, on_table: bool | None = None) -> Any:
        """The battle at its start, its dice from ``seed``; ``on_table`` False: the same
        battle measured by the players (the file's own choice when None)."""
        played = self.on_table if on_table is None else on_table
        if played == self.on_table and self._state is not None:
            return self._state.replace(dice=DiceState(seed))
        words = book_words(self.book)
        return words.start(self.sides, self.units, self.commanders, seed=seed,
                           options=self.options, scenario=self.conditions,
                           table=self.table if played else None, setup=dict(self.setup))

    def turn(self, base: Any) -> Any:
        """The book's turn (an ``Engine``) with this scenario's own victory conditions: its
        break point, which ends the battle before the book's own end (``with_outcome``)."""
        if self.break_point is None:
            return base
        rule = BreakPoint(self.break_point, self.book, base.over, base.result)
        return base.with_outcome(rule.over, rule.result)

    def to_toml(self) -> str:
        """The scenario as a file: the same text for the same scenario, read back to an equal
        one (``read_scenario(s.to_toml()) == s``)."""
        return toml.dumps(_document(self), tables=ARRAYS)

    @classmethod
    def from_state(cls, state: Any, *, title: str | None = None, date: str = "",
                   sources: Sequence[str] = (), on_table: bool = True,
                   setup: Mapping[str, Any] | None = None) -> Scenario:
        """The scenario of a battle at its start (turn 1, before a step): its units,
        commanders, options, table and conditions, in the book's words."""
        words = book_words(state.ruleset)
        table = getattr(state.extra, "table", None)
        scenario = cls(
            book=state.ruleset, title=state.scenario.name if title is None else title,
            sides=state.sides, units=state.units, commanders=state.commanders,
            options=state.options, conditions=state.scenario, table=table,
            on_table=on_table, date=date, sources=tuple(sources),
            setup={**words.setup_of(state), **dict(setup or {})},
            state=None,
        )
        again = scenario.start(0)
        if again.replace(dice=state.dice) != state:
            raise InvalidValueError(
                "state", repr(state), "a battle at its start (turn 1, before its first step, "
                "as its book's new_battle makes it): a scenario file describes a start")
        return attrs.evolve(scenario, state=again) if on_table or table is None else scenario


def _point(value: Any, path: Path_, problems: list[Problem], what: str = "a point") -> tuple[
        float, float] | None:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        problems.append(Problem(path, value, f"{what}: [x, y], two numbers"))
        return None
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in value):
        problems.append(Problem(path, value,
                                f"{what} of finite numbers within ±{MAX_COORDINATE:,.0f}"))
        return None
    return float(value[0]), float(value[1])


def _number(value: Any, path: Path_, problems: list[Problem], low: float, high: float,
            what: str) -> float | None:
    if (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and low <= value <= high):
        return float(value)
    problems.append(Problem(path, value, f"{what}: a finite number from {low:g} to {high:g}"))
    return None


def _unknown(table: Mapping[str, Any], allowed: Sequence[str], path: Path_,
             problems: list[Problem]) -> None:
    for key in table:
        if key not in allowed:
            problems.append(Problem((*path, key), "(an unknown key)",
                                    "one of " + ", ".join(allowed) + nearest(key, allowed)))


def _tables(value: Any, path: Path_, problems: list[Problem], what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        problems.append(Problem(path, value, f"{what} ([[{path[-1]}]] sections)"))
        return []
    return value


def _text(data: Mapping[str, Any], key: str, path: Path_, problems: list[Problem],
          default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        problems.append(Problem((*path, key), value, "text in quotes"))
        return default
    return value


def _terrain(data: Mapping[str, Any], path: Path_, problems: list[Problem],
             kinds: list[str]) -> Feature | None:
    _unknown(data, TERRAIN, path, problems)
    before = len(problems)
    ident = _text(data, "id", path, problems)
    if "id" not in data:
        problems.append(Problem((*path, "id"), "(missing)", "an id for the feature"))
    kind = data.get("kind")
    if not isinstance(kind, str) or spell(kind) not in {spell(k) for k in kinds}:
        problems.append(Problem((*path, "kind"), "(missing)" if kind is None else kind,
                                "one of " + ", ".join(kinds)
                                + (nearest(kind, kinds) if isinstance(kind, str) else "")))
    shapes = [k for k in ("outline", "line", "rectangle") if k in data]
    if len(shapes) != 1:
        problems.append(Problem(path, shapes or "(no shape)",
                                "exactly one of outline, line, rectangle"))
    points: list[tuple[float, float]] = []
    for shape in ("outline", "line"):
        if shape in data:
            raw = data[shape]
            if not isinstance(raw, list) or len(raw) < (3 if shape == "outline" else 2):
                problems.append(Problem((*path, shape), raw,
                                        "a list of [x, y] points (3 or more for an outline, "
                                        "2 or more for a line)"))
            elif len(raw) > 1000:
                problems.append(Problem((*path, shape), f"({len(raw)} points)",
                                        "at most 1,000 points"))
            else:
                for i, p in enumerate(raw):
                    got = _point(p, (*path, shape, i), problems)
                    if got is not None:
                        points.append(got)
    rect: list[float] = []
    if "rectangle" in data:
        raw = data["rectangle"]
        if (not isinstance(raw, list) or len(raw) != 4):
            problems.append(Problem((*path, "rectangle"), raw,
                                    "[x, y, width, depth]: the centre and the size"))
        else:
            for i, v in enumerate(raw):
                got_n = _number(v, (*path, "rectangle", i), problems, 0.0 if i > 1 else
                                -MAX_COORDINATE, MAX_COORDINATE, "a coordinate or size")
                if got_n is not None:
                    rect.append(got_n)
    numbers: dict[str, Any] = {}
    for key, low, high in (("facing", -360.0, 360.0), ("width", 0.0, MAX_COORDINATE)):
        if key in data:
            numbers[key] = _number(data[key], (*path, key), problems, low, high, key)
    for key in ("strength", "level"):
        if key in data:
            value, problem = read_value(data[key], int, (*path, key))
            if problem:
                problems.append(problem)
            numbers[key] = value
    label = _text(data, "label", path, problems)
    if len(problems) > before:
        return None
    try:
        if rect:
            return Feature.rectangle(ident, str(kind), *rect, facing=numbers.get("facing") or 0.0,
                                     strength=numbers.get("strength"),
                                     level=numbers.get("level") or 1, label=label)
        if "facing" in data:
            problems.append(Problem((*path, "facing"), data["facing"],
                                    "no facing, except for a rectangle"))
            return None
        shape = "outline" if "outline" in data else "line"
        return Feature(ident, str(kind), **{shape: tuple(points)},
                       width=numbers.get("width") or 0.0, strength=numbers.get("strength"),
                       level=numbers.get("level") or 1, label=label)
    except InvalidValueError as error:
        name = error.field.rsplit(".", 1)[-1]
        at = (*path, name) if name in data else path
        problems.append(Problem(at, error.value, error.allowed))
        return None


def _conditions(data: Any, extra: Mapping[str, Any], problems: list[Problem]
                ) -> tuple[int | None, bool, dict[str, Any]]:
    if not isinstance(data, dict):
        problems.append(Problem(("victory",), data, "a [victory] table"))
        return None, False, {}
    if "break_point" in data:
        point = data["break_point"]
        if isinstance(point, bool) or not isinstance(point, int) or not 1 <= point <= 100:
            problems.append(Problem(("victory", "break_point"), point,
                                    "a whole percentage from 1 to 100 of a side's units"))
    _unknown(data, (*VICTORY, *extra), ("victory",), problems)
    limit: int | None = None
    if "turn_limit" in data:
        value = data["turn_limit"]
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1000:
            limit = value
        else:
            problems.append(Problem(("victory", "turn_limit"), value,
                                    "a whole number of turns from 1 to 1000"))
    may_end = data.get("players_may_end", False)
    if not isinstance(may_end, bool):
        problems.append(Problem(("victory", "players_may_end"), may_end, "true or false"))
        may_end = False
    return limit, may_end, {k: v for k, v in data.items() if k in extra}


def _settings(raw: Mapping[str, Any], keys: Mapping[str, tuple[Any, str]], path: Path_,
              problems: list[Problem]) -> dict[str, Any]:
    """The book's settings of one section, read by their types (``SETUP``, ``VICTORY``)."""
    out: dict[str, Any] = {}
    for key, word in raw.items():
        if key not in keys:
            continue
        value, found = read_setting(word, keys[key][0], (*path, key))
        problems.extend(found)
        if not found:
            out[key] = value
    return out


def _zones(raw: Any, path: Path_, problems: list[Problem]
           ) -> dict[str, tuple[float, float, float, float, float]]:
    """A side's deployment zones by id: (x, y, width, depth, facing) of each rectangle."""
    out: dict[str, tuple[float, float, float, float, float]] = {}
    for i, zone in enumerate(_tables(raw, (*path, "zone"), problems, "deployment zones")):
        here = (*path, "zone", i)
        _unknown(zone, ZONE, here, problems)
        ident = zone.get("id")
        if not isinstance(ident, str) or not ident or ident in out:
            problems.append(Problem((*here, "id"), ident, "an id no other zone of the side has"))
            continue
        rect = zone.get("rectangle")
        if not isinstance(rect, list) or len(rect) != 4:
            problems.append(Problem((*here, "rectangle"), rect,
                                    "[x, y, width, depth]: the zone's centre and size"))
            continue
        numbers = [_number(v, (*here, "rectangle", k), problems, 0.0 if k > 1 else
                           -MAX_COORDINATE, MAX_COORDINATE, "a coordinate or size")
                   for k, v in enumerate(rect)]
        facing = _number(zone.get("facing", 0.0), (*here, "facing"), problems, -360.0, 360.0,
                         "a facing in degrees")
        if None in numbers or facing is None:
            continue
        x, y, width, depth = (float(n) for n in numbers if n is not None)
        out[ident] = (x, y, width, depth, facing)
    return out


def _placed(pending: list[tuple[Any, tuple[float, float] | None, float, str | None, Path_]],
            zones: Mapping[str, tuple[float, float, float, float, float]], words: Any,
            problems: list[Problem]) -> list[Footprint]:
    """The footprints of a side's units: at their places, or abreast in their zone (in the
    file's order, evenly across the zone's width, on its centre line, facing its way)."""
    counts: dict[str, int] = {}
    for _, _, _, zone, _ in pending:
        if zone is not None:
            counts[zone] = counts.get(zone, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for unit, at, facing, zone, path in pending:
        if zone is not None:
            x, y, width, _, facing = zones[zone]
            k = seen[zone] = seen.get(zone, -1) + 1
            offset = width * ((k + 0.5) / counts[zone] - 0.5)
            turn = math.radians(facing)
            at = (x + offset * math.cos(turn), y + offset * math.sin(turn))
        assert at is not None
        try:
            out.append(words.place(unit, at[0], at[1], facing))
        except InvalidValueError as error:
            problems.append(Problem((*path, "zone" if zone else "at"), zone or list(at),
                                    error.allowed))
    return out


def _too_deep(text: str) -> bool:
    """Whether brackets or braces nest past ``MAX_NESTING`` (strings ignored roughly: a
    bracket in a string only makes the count safer)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    return False


def read_scenario(text: str, source: str = "(text)") -> Scenario:
    """A scenario from the text of a file (``source`` names it in errors). The whole file is
    checked before anything is made: every fault is reported at once, each with its line,
    field, value and what is allowed (``ScenarioError``)."""

    def refuse(problems: Sequence[Problem], document: Mapping[str, Any] | None = None,
               lines: Mapping[Path_, int] | None = None) -> ScenarioError:
        return ScenarioError([
            Fault(source, line_of(lines or {}, p.path) if p.path else None,
                  _field(p.path, document or {}), p.value, p.allowed) for p in problems])

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise refuse([Problem((), f"({len(text):,} characters)",
                              f"a scenario file of at most {MAX_BYTES:,} bytes")])
    if not text.strip():
        raise refuse([Problem(("book",), "(an empty file)",
                              "a scenario: at least book, title, two [[side]] sections")])
    if _too_deep(text):
        raise refuse([Problem((), "(arrays or tables nested too deep)",
                              f"at most {MAX_NESTING} levels of nesting")])
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        line = int(found.group(1)) if found else None
        raise ScenarioError([Fault(source, line, "(TOML)", str(error).split(" (at")[0],
                                   "TOML text (https://toml.io)")]) from None
    except RecursionError:
        raise refuse([Problem((), "(nested too deep)",
                              f"at most {MAX_NESTING} levels of nesting")]) from None
    if not document:
        raise refuse([Problem(("book",), "(an empty file)",
                              "a scenario: at least book, title, two [[side]] sections")])
    problems: list[Problem] = []
    scenario = _read(document, problems, source)
    if problems or scenario is None:  # the lines are found only for a file refused
        raise refuse(problems, document, key_lines(text))
    return scenario


def _read(document: dict[str, Any], problems: list[Problem], source: str) -> Scenario | None:
    _unknown(document, TOP, (), problems)
    book_word = document.get("book")
    books = _books(book_word)
    if not isinstance(book_word, str) or spell(book_word) not in books:
        known = sorted(set(books.values()))
        problems.append(Problem(("book",), "(missing)" if book_word is None else book_word,
                                "one of " + ", ".join(known)
                                + (nearest(book_word, known) if isinstance(book_word, str)
                                   else "")))
        # what can be checked without the book, so that every fault is named at once
        _text(document, "title", (), problems)
        given = _tables(document.get("side"), ("side",), problems, "the sides")
        if len(given) != 2:
            problems.append(Problem(("side",), f"({len(given)} [[side]] sections)",
                                    "two sides, each a [[side]] section"))
        for s, side in enumerate(given):
            _unknown(side, SIDE, ("side", s), problems)
        return None
    book = books[spell(book_word)]
    words = book_words(book)
    title = _text(document, "title", (), problems)
    if "title" not in document:
        problems.append(Problem(("title",), "(missing)", "the battle's title, in quotes"))
    date = _text(document, "date", (), problems)
    sources_raw = document.get("sources", [])
    if not isinstance(sources_raw, list) or not all(isinstance(s, str) for s in sources_raw):
        problems.append(Problem(("sources",), sources_raw, "a list of texts in quotes"))
        sources_raw = []
    on_table = document.get("on_table", True)
    if not isinstance(on_table, bool):
        problems.append(Problem(("on_table",), on_table, "true or false"))
        on_table = True
    options_raw = document.get("options", {})
    options = None
    if not isinstance(options_raw, dict):
        problems.append(Problem(("options",), options_raw, "an [options] table"))
    else:
        options, found = from_words(words.OPTIONS, options_raw, ("options",),
                                    codecs=getattr(words, "OPTIONS_CODECS", {}))
        problems.extend(found)
    setup_keys: Mapping[str, tuple[Any, str]] = getattr(words, "SETUP", {})
    victory_keys: Mapping[str, tuple[Any, str]] = getattr(words, "VICTORY", {})
    setup_raw = document.get("setup", {})
    setup: dict[str, Any] = {}
    if not isinstance(setup_raw, dict):
        problems.append(Problem(("setup",), setup_raw, "a [setup] table"))
    else:
        _unknown(setup_raw, tuple(setup_keys), ("setup",), problems)
        setup.update(_settings(setup_raw, setup_keys, ("setup",), problems))
    victory_raw = document.get("victory", {})
    limit, may_end, extra = _conditions(victory_raw, victory_keys, problems)
    setup.update(_settings(extra, victory_keys, ("victory",), problems))
    conditions = Conditions(title, turn_limit=limit, players_may_end=may_end)

    table: Table | None = None
    table_raw = document.get("table")
    features: list[Feature] = []
    size: dict[str, float] = {}
    measure: Measure = Measure.INCHES
    if table_raw is not None and not isinstance(table_raw, dict):
        problems.append(Problem(("table",), table_raw, "a [table] section"))
        table_raw = None
    if table_raw is not None:
        _unknown(table_raw, TABLE, ("table",), problems)
        for key in ("width", "depth"):
            got = _number(table_raw.get(key, "(missing)"), ("table", key), problems, 1.0,
                          MAX_COORDINATE, f"the table's {key}")
            if got is not None:
                size[key] = got
        measures = [m.value for m in Measure]
        word = table_raw.get("measure", "inches")
        if not isinstance(word, str) or word not in measures:
            problems.append(Problem(("table", "measure"), word, "one of " + ", ".join(measures)
                                    + (nearest(word, measures) if isinstance(word, str) else "")))
        else:
            measure = Measure(word)
        from smoothbore.table.terrain import TerrainKind

        kinds = [k.value for k in TerrainKind]
        ids: set[str] = set()
        for i, item in enumerate(_tables(table_raw.get("terrain"), ("table", "terrain"),
                                         problems, "terrain features")):
            feature = _terrain(item, ("table", "terrain", i), problems, kinds)
            if feature is not None:
                if feature.feature_id in ids:
                    problems.append(Problem(("table", "terrain", i, "id"), feature.feature_id,
                                            "an id no other feature has"))
                ids.add(feature.feature_id)
                features.append(feature)

    sides_raw = _tables(document.get("side"), ("side",), problems, "the sides")
    if len(sides_raw) != 2:
        problems.append(Problem(("side",), f"({len(sides_raw)} [[side]] sections)",
                                "two sides, each a [[side]] section"))
    sides: list[str] = []
    homes: dict[str, Edge] = {}
    units: list[Any] = []
    commanders: list[Any] = []
    footprints: list[Footprint] = []
    marks: list[CommanderMark] = []
    owner: dict[str, str] = {}
    edges = [e.value for e in Edge]
    unit_codecs: Mapping[str, Codec] = getattr(words, "UNIT_CODECS", {})
    commander_codecs: Mapping[str, Codec] = getattr(words, "COMMANDER_CODECS", {})
    vocabularies = {"unit": vocabulary(words.UNIT), "commander": vocabulary(words.COMMANDER)}
    for s, side_raw in enumerate(sides_raw):
        here: Path_ = ("side", s)
        _unknown(side_raw, SIDE, here, problems)
        name = _text(side_raw, "name", here, problems)
        if not name:
            problems.append(Problem((*here, "name"), side_raw.get("name", "(missing)"),
                                    "the side's name, in quotes"))
        elif name in sides:
            problems.append(Problem((*here, "name"), name, "a name no other side has"))
        sides.append(name)
        if "home" in side_raw:
            home = side_raw["home"]
            if not isinstance(home, str) or home not in edges:
                problems.append(Problem((*here, "home"), home, "one of " + ", ".join(edges)
                                        + (nearest(home, edges) if isinstance(home, str)
                                           else "")))
            else:
                homes[name] = Edge(home)
        zones = _zones(side_raw.get("zone"), here, problems)
        pending: list[tuple[Any, tuple[float, float] | None, float, str | None, Path_]] = []
        for group, cls, codecs, out in (
                ("unit", words.UNIT, unit_codecs, units),
                ("commander", words.COMMANDER, commander_codecs, commanders)):
            for i, raw in enumerate(_tables(side_raw.get(group), (*here, group), problems,
                                            f"{group}s")):
                path = (*here, group, i)
                ident = raw.get("id")
                if isinstance(ident, str) and ident in owner:
                    problems.append(Problem((*path, "id"), ident,
                                            f"an id of one {group} on one side (it is "
                                            f"already on {owner[ident]!r})"))
                    continue
                skip = frozenset(PLACE) | (frozenset({"label"}) if group == "commander"
                                           else frozenset({"zone"}))
                value, found = from_words(cls, raw, path, given={"side": name}, skip=skip,
                                          codecs=codecs, known=vocabularies[group])
                problems.extend(found)
                if isinstance(ident, str):
                    owner[ident] = name
                at = _point(raw["at"], (*path, "at"), problems) if "at" in raw else None
                facing = 0.0
                if "facing" in raw:
                    facing = _number(raw["facing"], (*path, "facing"), problems, -360.0, 360.0,
                                     "a facing in degrees") or 0.0
                    if group == "commander":
                        problems.append(Problem((*path, "facing"), raw["facing"],
                                                "no facing for a commander (his mark is a "
                                                "point)"))
                if value is None:
                    continue
                out.append(value)
                if table_raw is None:
                    if at is not None:
                        problems.append(Problem((*path, "at"), raw["at"],
                                                "no position: the file has no [table]"))
                    continue
                if group == "unit":
                    zone = raw.get("zone")
                    if zone is not None and (at is not None or "facing" in raw):
                        problems.append(Problem((*path, "zone"), zone,
                                                "a zone or a place (at, facing), not both"))
                    elif zone is not None and (not isinstance(zone, str) or zone not in zones):
                        known = sorted(zones)
                        problems.append(Problem((*path, "zone"), zone, "one of the side's "
                                                "zones: " + (", ".join(known) or "none")
                                                + (nearest(zone, known) if isinstance(
                                                    zone, str) else "")))
                    elif zone is not None or at is not None:
                        pending.append((value, at, facing, zone, path))
                elif group == "commander":
                    label = raw.get("label", value.name)
                    if not isinstance(label, str):
                        problems.append(Problem((*path, "label"), label, "text in quotes"))
                        continue
                    attached = words.riding_with(value)
                    if at is not None:
                        marks.append(CommanderMark(value.id, at[0], at[1], side=name,
                                                   label=label))
                    elif attached:
                        marks.append(CommanderMark(value.id, attached_to=attached, side=name,
                                                   label=label))
        footprints.extend(_placed(pending, zones, words, problems))
    if problems:
        return None
    if table_raw is not None:
        try:
            table = Table(size["width"], size["depth"], measure, tuple(features),
                          tuple(footprints), tuple(marks), home_edges=homes)
        except InvalidValueError as error:
            problems.extend(_battle_faults(error, sides, units, commanders,
                                           [f.unit_id for f in footprints]))
            return None
    point = victory_raw.get("break_point") if isinstance(victory_raw, dict) else None
    scenario = Scenario(book, title, tuple(sides), tuple(units), tuple(commanders), options,
                        conditions, table, on_table, date, tuple(sources_raw), setup,
                        point, source)
    try:
        state = scenario.start(0)
    except InvalidValueError as error:
        feet = [f.unit_id for f in table.footprints] if table is not None else []
        problems.extend(_battle_faults(error, scenario.sides, scenario.units,
                                       scenario.commanders, feet))
        return None
    return attrs.evolve(scenario, state=state)


_QUOTED = re.compile(r"""['"]([^'"]+)['"]""")
_INDEX = re.compile(r"footprints\[(\d+)\]")


def _battle_faults(error: InvalidValueError, sides: Sequence[str], units: Sequence[Any],
                   commanders: Sequence[Any], feet: Sequence[str]) -> list[Problem]:
    """The whole-battle check's faults (``check_battle``: units stacked, off the table, in
    impassable ground...), each at the unit or commander it names: by a footprint's place in
    the table, else by the first id quoted in its field, value or allowed."""
    found = getattr(error, "faults", None) or ((error.field, error.value, error.allowed),)
    where: dict[str, Path_] = {}
    for s, side in enumerate(sides):
        for group, items in (("unit", units), ("commander", commanders)):
            own = [x for x in items if x.side == side]
            for i, item in enumerate(own):
                where.setdefault(item.id, ("side", s, group, i))
    problems: list[Problem] = []
    for field, value, allowed in found:
        path: Path_ = ()
        index = _INDEX.search(field)
        if index and int(index.group(1)) < len(feet):
            path = where.get(feet[int(index.group(1))], ())
        if not path:
            for text in (field, repr(value), allowed):
                names = [n for n in _QUOTED.findall(text) if n in where]
                if isinstance(value, str) and value in where and text is not allowed:
                    names.insert(0, value)
                if names:
                    path = where[names[0]]
                    break
        text = allowed if path else f"{field}: {allowed}"
        if path:
            text = f"{allowed} ({field.removeprefix('extra.')})"
        problems.append(Problem(path, value, text))
    return problems


def packaged(book: str, name: str) -> Scenario:
    """A battle shipped inside a book (``smoothbore/<book>/battles/<name>.toml``)."""
    from importlib.resources import files

    folder = files(f"smoothbore.{book}").joinpath("battles")
    resource = folder.joinpath(f"{name}.toml")
    if not resource.is_file():
        known = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))
        raise InvalidValueError(f"{book} battle file", name, "one of " + ", ".join(known))
    return read_scenario(resource.read_text("utf-8"), f"{book}/battles/{name}.toml")


def load_scenario(path: str | Path) -> Scenario:
    """The scenario of a file (TOML), checked whole: a ``ScenarioError`` names every fault
    with the file, line, field, value and what is allowed. A file over ``MAX_BYTES`` is
    refused before it is read."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError([Fault(str(file), None, "(the file)", f"({size:,} bytes)",
                                       f"a scenario file of at most {MAX_BYTES:,} bytes")])
        with file.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise ScenarioError([Fault(str(file), None, "(the file)", str(file),
                                   f"a file that can be read ({error.strerror})")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError([Fault(str(file), None, "(the file)", f"(byte {error.start})",
                                   "UTF-8 text")]) from None
    return read_scenario(text, str(file))


# writing --------------------------------------------------------------------------------------

def _feature_words(feature: Feature) -> dict[str, Any]:
    out: dict[str, Any] = {"id": feature.feature_id, "kind": feature.kind.value}
    rect = _as_rectangle(feature)
    if rect is not None:
        out["rectangle"] = [float(v) for v in rect[:4]]
        if rect[4]:
            out["facing"] = float(rect[4])
    elif feature.outline:
        out["outline"] = [[float(x), float(y)] for x, y in feature.outline]
    else:
        out["line"] = [[float(x), float(y)] for x, y in feature.line]
    if feature.width and not feature.outline:
        out["width"] = float(feature.width)
    if feature.strength is not None:
        out["strength"] = feature.strength
    if feature.level != 1:
        out["level"] = feature.level
    if feature.label:
        out["label"] = feature.label
    return out


def _as_rectangle(feature: Feature) -> tuple[float, float, float, float, float] | None:
    """(x, y, width, depth, facing) when ``Feature.rectangle`` gives exactly this outline."""
    corners = feature.outline
    if len(corners) != 4:
        return None
    x = sum(p[0] for p in corners) / 4
    y = sum(p[1] for p in corners) / 4
    width = math.dist(corners[0], corners[1])
    depth = math.dist(corners[1], corners[2])
    for candidate in _candidates(x, y, width, depth, corners):
        try:
            made = Feature.rectangle(feature.feature_id, feature.kind, *candidate[:4],
                                     facing=candidate[4], strength=feature.strength,
                                     level=feature.level, label=feature.label)
        except InvalidValueError:
            continue
        if made == feature:
            return candidate
    return None


def _candidates(x: float, y: float, width: float, depth: float,
                corners: tuple[tuple[float, float], ...]
                ) -> list[tuple[float, float, float, float, float]]:
    facings = [0.0]
    dx, dy = corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]
    angle = round(math.degrees(math.atan2(dy, dx)), 6)
    facings += [angle % 360, (angle + 180) % 360, (-angle) % 360, (180 - angle) % 360,
                round(angle), round(angle) % 360]
    out = []
    for w, d in ((round(width, 6), round(depth, 6)), (round(depth, 6), round(width, 6)),
                 (width, depth)):
        for f in facings:
            out.append((round(x, 6), round(y, 6), w, d, f))
    return out


def _document(scenario: Scenario) -> dict[str, Any]:
    words = book_words(scenario.book)
    doc: dict[str, Any] = {"book": scenario.book, "title": scenario.title}
    if scenario.date:
        doc["date"] = scenario.date
    if scenario.sources:
        doc["sources"] = list(scenario.sources)
    if not scenario.on_table:
        doc["on_table"] = False
    options = to_words(scenario.options, codecs=getattr(words, "OPTIONS_CODECS", {}))
    if options:
        doc["options"] = options
    setup_keys: Mapping[str, tuple[Any, str]] = getattr(words, "SETUP", {})
    victory_keys: Mapping[str, tuple[Any, str]] = getattr(words, "VICTORY", {})
    setup = {k: write_setting(v) for k, v in scenario.setup if k in setup_keys}
    if setup:
        doc["setup"] = setup
    victory: dict[str, Any] = {}
    if scenario.conditions.turn_limit is not None:
        victory["turn_limit"] = scenario.conditions.turn_limit
    if scenario.conditions.players_may_end:
        victory["players_may_end"] = True
    if scenario.break_point is not None:
        victory["break_point"] = scenario.break_point
    victory.update({k: write_setting(v) for k, v in scenario.setup
                    if k in victory_keys})
    if victory:
        doc["victory"] = victory
    table = scenario.table
    feet: dict[str, Footprint] = {}
    marks: dict[str, CommanderMark] = {}
    if table is not None:
        doc["table"] = {"width": float(table.width), "depth": float(table.depth),
                        "measure": table.measure.value}
        if table.features:
            doc["table"]["terrain"] = [_feature_words(f) for f in table.features]
        feet = {f.unit_id: f for f in table.footprints}
        marks = {m.commander_id: m for m in table.commanders}
    homes = dict(table.home_edges) if table is not None else {}
    # what the table measures is not the file's to say when the battle has a table
    measured: frozenset[str] = getattr(words, "MEASURED", frozenset()) if table else frozenset()
    sides = []
    for side in scenario.sides:
        entry: dict[str, Any] = {"name": side}
        if side in homes:
            entry["home"] = homes[side].value
        chiefs = []
        for commander in scenario.commanders:
            if commander.side != side:
                continue
            item = {"id": commander.id, "name": commander.name,
                    **to_words(commander, given=frozenset({"id", "name", "side"}),
                               codecs=getattr(words, "COMMANDER_CODECS", {}))}
            mark = marks.get(commander.id)
            if mark is not None:
                if mark.attached_to is None:
                    item["at"] = [float(mark.x), float(mark.y)]
                if mark.label != commander.name:
                    item["label"] = mark.label
            chiefs.append(item)
        if chiefs:
            entry["commander"] = chiefs
        troops = []
        for unit in scenario.units:
            if unit.side != side:
                continue
            item = {"id": unit.id, "name": unit.name,
                    **to_words(unit, given=frozenset({"id", "name", "side"}) | measured,
                               codecs=getattr(words, "UNIT_CODECS", {}))}
            foot = feet.get(unit.id)
            if foot is not None:
                item["at"] = [float(foot.x), float(foot.y)]
                item["facing"] = float(foot.facing)
            troops.append(item)
        if troops:
            entry["unit"] = troops
        sides.append(entry)
    doc["side"] = sides
    return doc

