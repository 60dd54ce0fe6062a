"""The table: its size and measure, its terrain, and the units and commanders on it, by id.

A ``Table`` is a frozen value; moving a unit makes a new table (``placed``). What is derived
from it (ranges, arcs, sight, cover, contact, paths) lives in the modules named after those
things, each taking a table and unit ids."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from smoothbore.core import InvalidValueError, NamedEnum
from smoothbore.core.derived import Memo, derive, derived_field
from smoothbore.core.validate import finite

from .footprints import MAX_COORDINATE, CommanderMark, Footprint, Point
from .layout import Layout
from .measure import Measure
from .store import AnswerStore, StoreCounts, Stores
from .terrain import Feature, TerrainIndex, TerrainKind
from .traces import MoveTrace, ShotTrace, Trace

__all__ = ["Edge", "Table", "table_of"]

T = TypeVar("T")


class Edge(NamedEnum):
    """A table edge: NEAR is y = 0, FAR is y = depth, LEFT is x = 0, RIGHT is x = width."""

    NEAR = "near edge"
    FAR = "far edge"
    LEFT = "left edge"
    RIGHT = "right edge"


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    finite(0, MAX_COORDINATE)(instance, attribute, value)
    if value <= 0:
        raise InvalidValueError(f"Table.{attribute.name}", value, "a length greater than 0")


def _tuple_of(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, Mapping):
        value = tuple(value.values())
    if isinstance(value, list | tuple):
        value = tuple(value)
        for item in value:
            if not isinstance(item, kind):
                raise InvalidValueError(f"Table.{what}", item, _ALLOWED[what])
        return value
    raise InvalidValueError(f"Table.{what}", value, _ALLOWED[what])


def _measure(value: Any) -> Measure:
    return Measure.of(value)


def _features(value: Any) -> tuple[Feature, ...]:
    return _tuple_of(value, Feature, "features")  # type: ignore[no-any-return]


def _footprints(value: Any) -> tuple[Footprint, ...]:
    return _tuple_of(value, Footprint, "footprints")  # type: ignore[no-any-return]


def _commanders(value: Any) -> tuple[CommanderMark, ...]:
    return _tuple_of(value, CommanderMark, "commanders")  # type: ignore[no-any-return]


def _traces(value: Any) -> tuple[Trace, ...]:
    return _tuple_of(value, (MoveTrace, ShotTrace), "traces")  # type: ignore[no-any-return]


_ALLOWED = {
    "features": "a tuple of terrain Features",
    "footprints": "a tuple (or mapping by id) of Footprints",
    "commanders": "a tuple (or mapping by id) of CommanderMarks",
    "traces": "a tuple of MoveTrace and ShotTrace",
}


def _home_edges(value: Any) -> tuple[tuple[str, Edge], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    try:
        pairs = tuple((side, edge) for side, edge in items)
    except (TypeError, ValueError):
        raise InvalidValueError("Table.home_edges", value, "a mapping of side to Edge") from None
    for side, edge in pairs:
        if not isinstance(side, str) or not side or not isinstance(edge, Edge):
            raise InvalidValueError("Table.home_edges", (side, edge), "side name to an Edge")
    return tuple(sorted(pairs, key=lambda pair: pair[0]))


_TOLERANCE = 1e-7


@attrs.frozen(cache_hash=True)
class Table:
    """A table ``width`` x ``depth`` in ``measure``, with terrain ``features``, the units'
    ``footprints`` and the ``commanders`` on it, and the ``traces`` of the last moves and
    shots (for drawing). ``home_edges``: the friendly table edge of each side (routs leave
    by it). Every footprint must lie on the table; ids must be unique."""

    width: float = attrs.field(validator=_positive)
    depth: float = attrs.field(validator=_positive)
    measure: Measure = attrs.field(default=Measure.INCHES, converter=_measure)
    features: tuple[Feature, ...] = attrs.field(
        default=(), converter=_features)
    footprints: tuple[Footprint, ...] = attrs.field(
        default=(), converter=_footprints)
    commanders: tuple[CommanderMark, ...] = attrs.field(
        default=(), converter=_commanders)
    traces: tuple[Trace, ...] = attrs.field(
        default=(), converter=_traces)
    home_edges: tuple[tuple[str, Edge], ...] = attrs.field(default=(), converter=_home_edges)
    _derived: Memo = derived_field()
    _stores: Stores = attrs.field(factory=Stores, init=False, eq=False, repr=False,
                                  hash=False)

    def __attrs_post_init__(self) -> None:
        _unique("Table.features", [f.feature_id for f in self.features])
        _unique("Table.footprints", [f.unit_id for f in self.footprints])
        _unique("Table.commanders", [c.commander_id for c in self.commanders])
        self._check_footprints(self.footprints)
        self._check_commanders(self.commanders)

    def _check_footprints(self, footprints: Iterable[Footprint]) -> None:
        for footprint in footprints:
            if not self.holds(footprint):
                x0, y0, x1, y1 = footprint.bounds
                raise InvalidValueError(
                    f"footprints[{footprint.unit_id!r}]", (footprint.x, footprint.y),
                    f"a position whose footprint lies on the {_n(self.width)} x "
                    f"{_n(self.depth)} {self.measure.value} table (it spans x {x0:.2f} to "
                    f"{x1:.2f}, y {y0:.2f} to {y1:.2f})")

    def _check_commanders(self, marks: Iterable[CommanderMark]) -> None:
        units = self.units
        for mark in marks:
            if mark.attached_to is not None and mark.attached_to not in units:
                raise InvalidValueError(
                    f"commanders[{mark.commander_id!r}].attached_to", mark.attached_to,
                    "the id of a unit on the table")
            if mark.attached_to is None and not (
                    0 <= mark.x <= self.width and 0 <= mark.y <= self.depth):
                raise InvalidValueError(
                    f"commanders[{mark.commander_id!r}]", (mark.x, mark.y),
                    f"a point on the {_n(self.width)} x {_n(self.depth)} table")

    # -- lookups -----------------------------------------------------------------------------

    @functools.cached_property
    def units(self) -> Mapping[str, Footprint]:
        """The footprints by unit id (read-only)."""
        return MappingProxyType({f.unit_id: f for f in self.footprints})

    @property
    def unit_ids(self) -> tuple[str, ...]:
        """The ids of the units on the table, in the order given."""
        return tuple(f.unit_id for f in self.footprints)

    def footprint(self, unit_id: str) -> Footprint:
        """The footprint of a unit on the table."""
        found = self.units.get(unit_id)
        if found is None:
            raise InvalidValueError("unit_id", unit_id, _known(self.units))
        return found

    def feature(self, feature_id: str) -> Feature:
        """A terrain feature by id."""
        found = self.terrain.by_id.get(feature_id)
        if found is None:
            raise InvalidValueError("feature_id", feature_id, _known(self.terrain.by_id))
        return found

    @functools.cached_property
    def marks(self) -> Mapping[str, CommanderMark]:
        """The commanders' marks by commander id (read-only)."""
        return MappingProxyType({m.commander_id: m for m in self.commanders})

    def commander(self, commander_id: str) -> CommanderMark:
        """A commander's mark by id."""
        found = self.marks.get(commander_id)
        if found is None:
            raise InvalidValueError("commander_id", commander_id, _known(self.marks))
        return found

    def commander_point(self, commander_id: str) -> Point:
        """Where a commander is: his own point, or the centre of the unit he is with."""
        mark = self.commander(commander_id)
        if mark.attached_to is not None:
            return self.footprint(mark.attached_to).centre
        return (mark.x, mark.y)

    def ride(self, commander_id: str, unit_id: str) -> float:
        """How far a commander rides to join a unit: from his point to the unit's centre."""
        x, y = self.commander_point(commander_id)
        found = self.footprint(unit_id)
        return math.hypot(found.x - x, found.y - y)

    def enemies_of(self, unit_id: str) -> tuple[str, ...]:
        """The units of another side (units with no side are nobody's enemies)."""
        side = self.footprint(unit_id).side
        if not side:
            return ()
        return self._enemies_by_side[side]

    @functools.cached_property
    def _enemies_by_side(self) -> Mapping[str, tuple[str, ...]]:
        """``enemies_of`` for a unit of each side, in the order the units are given."""
        sides = dict.fromkeys(f.side for f in self.footprints if f.side)
        return MappingProxyType({side: tuple(f.unit_id for f in self.footprints
                                             if f.side and f.side != side)
                                 for side in sides})

    def friends_of(self, unit_id: str) -> tuple[str, ...]:
        """The other units of the same side."""
        side = self.footprint(unit_id).side
        return tuple(f.unit_id for f in self.footprints
                     if f.side == side and side and f.unit_id != unit_id)

    def home_edge(self, side: str) -> Edge | None:
        """A side's friendly table edge (None: not given)."""
        return dict(self.home_edges).get(side)

    def derived(self, query: Callable[[Table], T]) -> T:
        """``query(self)``, worked out once for this table's ground and units: a rule book
        asks its questions of a table (every shooting situation, every charge in reach)
        through this, and the answer is shared by every step until a unit moves. Tables that
        differ only in their traces (``with_traces``) share the answers, so a query reads
        the ground, the footprints and the commanders, never the traces. ``query`` must be a
        pure, module-level function of the table."""
        return derive(self._derived, query, self)

    def store(self, name: str, most: int = 4096, chunk: int = 256) -> AnswerStore:
        """The store of answers called ``name`` of this table's line: the tables made from
        it (``placed``, ``removed``, ``with_commanders``, ``with_traces``) hand it on, a
        new table starts its own (``smoothbore.table.seam``: keys name everything an answer
        reads). Made on first use, holding at most ``most`` answers."""
        return self._stores.get(name, most, chunk)

    def stores(self) -> tuple[StoreCounts, ...]:
        """Each store of this table's line: its size, bound, hits and misses."""
        return tuple(s.counts() for s in self._stores)

    def __getstate__(self) -> dict[str, Any]:
        # pickled without what was derived from it: that is worked out again on demand
        return {f.name: getattr(self, f.name) for f in attrs.fields(Table) if f.init}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_derived", {})
        object.__setattr__(self, "_stores", Stores())

    # -- geometry the other modules share -----------------------------------------------------

    @functools.cached_property
    def terrain(self) -> TerrainIndex:
        """The terrain arranged for queries: built once for a line of tables (the tables
        made from this one share it, and ``on_same_ground``'s), remembering in the line's
        stores."""
        return TerrainIndex(self.features, self._stores)

    @functools.cached_property
    def layout(self) -> Layout:
        """The footprints as arrays, for questions about many units at once."""
        return Layout(self.footprints, self.terrain)

    @functools.cached_property
    def rectangle(self) -> Polygon:
        """The table top as a polygon."""
        return shapely.box(0.0, 0.0, self.width, self.depth)

    @functools.cached_property
    def diagonal(self) -> float:
        """The longest line on the table."""
        return float(np.hypot(self.width, self.depth))

    def holds(self, footprint: Footprint) -> bool:
        """Whether a footprint lies wholly on the table."""
        x0, y0, x1, y1 = footprint.bounds
        tol = _TOLERANCE * max(self.width, self.depth)
        return x0 >= -tol and y0 >= -tol and x1 <= self.width + tol and y1 <= self.depth + tol

    def edge_line(self, edge: Edge) -> LineString:
        """A table edge as a line."""
        w, d = self.width, self.depth
        ends = {Edge.NEAR: ((0, 0), (w, 0)), Edge.FAR: ((0, d), (w, d)),
                Edge.LEFT: ((0, 0), (0, d)), Edge.RIGHT: ((w, 0), (w, d))}
        return LineString(ends[edge])

    def kinds_at(self, x: float, y: float) -> frozenset[TerrainKind]:
        """The kinds of ground at a point."""
        return self.terrain.kinds_at(x, y)

    def level_at(self, x: float, y: float) -> int:
        """The height of the ground at a point (0 off every hill)."""
        return self.terrain.level_at(x, y)

    # -- new tables --------------------------------------------------------------------------

    def placed(self, *footprints: Footprint) -> Table:
        """The table with these footprints put down (replacing the units' old ones)."""
        new = {f.unit_id: f for f in _footprints(footprints)}
        self._check_footprints(new.values())  # the others were checked when they were put
        kept = [new.pop(f.unit_id, f) for f in self.footprints]
        return self._copy(_MARKS, footprints=(*kept, *new.values()))

    def _copy(self, kept: tuple[str, ...], **changes: Any) -> Table:
        """This table with ``changes`` (already checked), sharing the cached properties named
        in ``kept``."""
        new = object.__new__(Table)
        put = object.__setattr__
        for name in _INIT:
            put(new, name, changes[name] if name in changes else getattr(self, name))
        put(new, "_derived", {})
        put(new, "_attrs_cached_hash", None)
        put(new, "_stores", self._stores)
        return self._sharing(new, kept)

    def _sharing(self, new: Table, kept: tuple[str, ...]) -> Table:
        """``new`` (the same ground) with what this table has already worked out of what
        the two share: ``kept`` names the cached properties that still hold."""
        # the terrain index is the line's: worked out here if not yet, so that every table
        # made from this one shares it (none builds its own)
        object.__setattr__(new, "terrain", self.terrain)
        for name in kept:
            try:
                value = object.__getattribute__(self, name)
            except AttributeError:  # not worked out here either
                continue
            object.__setattr__(new, name, value)
        object.__setattr__(new, "_stores", self._stores)  # the same line of tables
        return new

    def on_same_ground(self, footprints: Iterable[Footprint] = (),
                       commanders: Iterable[CommanderMark] = ()) -> Table:
        """A table of this size, measure, terrain and home edges with exactly these
        footprints and commanders' marks (and no traces), in this table's line: it shares
        the terrain index and what it remembers, and the stores (``Table(...)`` with the
        same features starts a line of its own and builds its index anew). Checked as a new
        table is."""
        fps = _footprints(tuple(footprints))
        marks = _commanders(tuple(commanders))
        _unique("Table.footprints", [f.unit_id for f in fps])
        _unique("Table.commanders", [m.commander_id for m in marks])
        self._check_footprints(fps)
        new = self._copy(_GROUND, footprints=fps, commanders=marks, traces=())
        new._check_commanders(marks)
        return new

    def removed(self, *unit_ids: str) -> Table:
        """The table without these units (and with their commanders riding alone where they
        stood)."""
        for unit_id in unit_ids:
            self.footprint(unit_id)
        gone = set(unit_ids)
        marks = tuple(
            attrs.evolve(m, attached_to=None, x=self.units[m.attached_to].x,
                         y=self.units[m.attached_to].y)
            if m.attached_to in gone else m for m in self.commanders)
        return self._sharing(attrs.evolve(
            self, footprints=tuple(f for f in self.footprints if f.unit_id not in gone),
            commanders=marks), _GROUND)

    def with_commanders(self, *marks: CommanderMark) -> Table:
        """The table with these commanders' marks put down (replacing old ones)."""
        new = {m.commander_id: m for m in _commanders(marks)}
        self._check_commanders(new.values())
        kept = [new.pop(m.commander_id, m) for m in self.commanders]
        return self._copy(_UNITS, commanders=(*kept, *new.values()))

    def with_only_commanders(self, *marks: CommanderMark) -> Table:
        """The table with exactly these commanders' marks (those left out leave it)."""
        marks = _commanders(marks)
        _unique("Table.commanders", [m.commander_id for m in marks])
        self._check_commanders(marks)
        return self._copy(_UNITS, commanders=tuple(marks))

    def with_traces(self, *traces: Trace) -> Table:
        """The table with these traces as the last moves and shots (sharing what was derived
        from this one: the ground and the units are the same)."""
        new = self._copy((*_UNITS, "marks"), traces=_traces(traces))
        object.__setattr__(new, "_derived", self._derived)
        return new

    def in_measure(self, measure: Measure | str) -> Table:
        """The same table expressed in another measure (every length converted)."""
        target = Measure.of(measure)
        k = self.measure.to(target, 1.0)
        if target is self.measure:
            return self
        return Table(
            self.width * k, self.depth * k, target,
            tuple(f.scaled(k) for f in self.features),
            tuple(f.scaled(k) for f in self.footprints),
            tuple(c.scaled(k) for c in self.commanders),
            tuple(t.scaled(k) for t in self.traces), self.home_edges)

    def _repr_svg_(self) -> str:
        """The table drawn, for notebooks."""
        from .svg import draw  # the drawing module imports this one

        return draw(self)


_INIT = tuple(f.name for f in attrs.fields(Table) if f.init)
_GROUND = ("terrain", "rectangle", "diagonal")
"""What a table works out of its size and terrain alone."""
_UNITS = (*_GROUND, "units", "layout", "_enemies_by_side")
"""... and of its footprints too."""
_MARKS = (*_GROUND, "marks")
"""... and of its commanders' marks (the footprints changed)."""


def _unique(field: str, ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise InvalidValueError(field, item, "ids that appear once each")
        seen.add(item)


def _known(found: Mapping[str, object]) -> str:
    names = sorted(found)
    if not names:
        return "none: the table has none"
    shown = ", ".join(repr(n) for n in names[:12])
    return "one of " + shown + (" ..." if len(names) > 12 else "")


def _n(value: float) -> str:
    return f"{value:g}"


def table_of(state: object) -> Table | None:
    """The table a battle state is played on (a rule book keeps it in its ``extra``), or
    None for a battle whose facts the caller gives."""
    table = getattr(getattr(state, "extra", None), "table", None)
    return table if isinstance(table, Table) else None
