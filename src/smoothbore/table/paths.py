"""Moves through terrain: the route a unit's centre follows, split into legs by the ground
under it and the lines it crosses; its cost under a rule book's movement rates (given as
data: a ``RateTable``); the furthest a unit can go in a direction with a move allowance;
wheels and facing changes as geometry; retiring; the direction of a rout, away from every
visible enemy; and where a compulsory move stops so as not to end on another unit.

The ground a move pays for is the ground under the unit's centre as it moves (``Route.legs``);
the kinds any part of the moving footprint touches are listed too (``Route.swept``), for
rules that slow the whole unit when any of it enters difficult ground."""

from __future__ import annotations

import enum
import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, cast

import attrs
import numpy as np
import numpy.typing as npt
import shapely
from shapely import affinity
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from smoothbore.core import IllegalActionError, InvalidValueError, NamedEnum
from smoothbore.core.validate import check_number, finite

from . import vectorised as vec
from .footprints import Footprint, Point, bearing_vectors, normal_degrees
from .sight import DEFAULT_SIGHT, SightRules, visible_enemies
from .tabletop import Edge, Table
from .terrain import Feature, TerrainKind, mask_crossings, terrain_kind

__all__ = [
    "Combine",
    "CrossingCost",
    "Destination",
    "ImpassableError",
    "Leg",
    "Passage",
    "PassageKind",
    "RateTable",
    "Rout",
    "Route",
    "Turn",
    "Wheel",
    "furthest",
    "percent",
    "reachable",
    "retire",
    "rout",
    "rout_options",
    "route",
    "short_of_units",
    "sweep",
    "turn",
    "wheel",
]

_EPS = 1e-9
_NONE: npt.NDArray[np.intp] = np.zeros(0, dtype=np.intp)
Rate = Fraction | None


class PassageKind(NamedEnum):
    """What a move does at a feature's edge: crosses a line, enters or leaves an area."""

    CROSS = "crosses"
    ENTER = "enters"
    LEAVE = "leaves"


class Combine(enum.Enum):
    """How the rates of several kinds of ground in one place combine: MULTIPLY (Will:
    the effects of combined terrain combine) or SLOWEST (the slowest applies)."""

    MULTIPLY = "multiply"
    SLOWEST = "slowest"


def percent(value: int | float) -> Fraction:
    """A rate printed as a percentage of normal speed: ``percent(66)`` is 66/100."""
    check_number("percent", value, 0, 1000)
    return Fraction(value).limit_denominator(10_000) / 100


@attrs.frozen
class Leg:
    """A stretch of a route over one kind of ground: from ``start`` to ``end``,
    ``length`` long, over ``kinds`` (empty: open ground), inside ``features``."""

    start: Point
    end: Point
    length: float
    kinds: frozenset[TerrainKind]
    features: tuple[str, ...]


@attrs.frozen
class Passage:
    """A feature's edge on a route: ``event`` (crossing a line, entering or leaving an
    area) at ``at`` along the route."""

    feature: str
    kind: TerrainKind
    event: PassageKind
    at: float


@attrs.frozen
class Route:
    """A unit's move: the ``points`` its centre passes (first: where it stands), the
    ``legs`` and ``passages`` along them, the ``swept`` kinds any part of it touches, the
    other units it passes through or ends on (``units_crossed``), whether it moves backwards
    (``retiring``: the move goes more than 90 degrees off its facing), and where it ends
    (``end``, the same facing; ``on_table``: still wholly on the table)."""

    unit_id: str
    points: tuple[Point, ...]
    legs: tuple[Leg, ...]
    passages: tuple[Passage, ...]
    swept: frozenset[TerrainKind]
    units_crossed: tuple[str, ...]
    retiring: bool
    end: Footprint
    on_table: bool

    @property
    def length(self) -> float:
        """How far the centre goes."""
        return sum(leg.length for leg in self.legs)


class ImpassableError(IllegalActionError):
    """A move into ground (or across a line) that the rates make impassable; names the
    feature and its kind."""

    def __init__(self, action: object, feature: str, kind: TerrainKind, rule: str) -> None:
        self.feature = feature
        self.kind = kind
        super().__init__(action, f"{feature} ({kind.value}) is impassable", rule)

    def __reduce__(self) -> tuple[type, tuple[object, str, TerrainKind, str]]:  # type: ignore[override]
        return (type(self), (self.action, self.feature, self.kind, self.rule))


def _fraction(value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise InvalidValueError("CrossingCost.share", value, "a share of a move (a number)")
    if isinstance(value, float):
        check_number("CrossingCost.share", value, 0)
    return Fraction(value).limit_denominator(10_000)


@attrs.frozen
class CrossingCost:
    """The price of one passage: ``extra`` distance (in the table's measure) and a
    ``share`` of the unit's full move (Will: crossing a fence takes half a move)."""

    extra: float = attrs.field(default=0.0, validator=finite(0))
    share: Fraction = attrs.field(default=Fraction(0), converter=_fraction)

    def __attrs_post_init__(self) -> None:
        if self.share < 0:
            raise InvalidValueError("CrossingCost.share", self.share, "a share of at least 0")


def _rate(value: Any, field: str) -> Rate:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise InvalidValueError(field, value, "a share of normal speed (a number above 0) or "
                                "None (impassable)")
    if isinstance(value, float):
        check_number(field, value, 0)
    fraction = Fraction(value).limit_denominator(10_000)
    if fraction <= 0:
        raise InvalidValueError(field, value, "a share of normal speed above 0, or None")
    return fraction


def _speeds(value: Any) -> tuple[tuple[TerrainKind, Rate], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    pairs = tuple((terrain_kind(k, "RateTable.speeds"), _rate(v, f"RateTable.speeds[{k!r}]"))
                  for k, v in items)
    return tuple(sorted(pairs, key=lambda pair: pair[0].value))


def _passage_key(key: Any) -> tuple[TerrainKind, PassageKind]:
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], PassageKind):
        return terrain_kind(key[0], "RateTable.passages"), key[1]
    kind = terrain_kind(key, "RateTable.passages")
    return kind, PassageKind.CROSS


def _passages(value: Any) -> tuple[tuple[tuple[TerrainKind, PassageKind], CrossingCost | None],
                                   ...]:
    items = value.items() if isinstance(value, Mapping) else value
    pairs = []
    for key, cost in items:
        if cost is not None and not isinstance(cost, CrossingCost):
            raise InvalidValueError(f"RateTable.passages[{key!r}]", cost,
                                    "a CrossingCost or None (impassable)")
        pairs.append((_passage_key(key), cost))
    return tuple(sorted(pairs, key=lambda pair: (pair[0][0].value, pair[0][1].value)))


def _masks(value: Any) -> tuple[tuple[TerrainKind, frozenset[TerrainKind]], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    pairs = tuple((terrain_kind(k, "RateTable.masks"),
                   frozenset(terrain_kind(x, "RateTable.masks") for x in v)) for k, v in items)
    return tuple(sorted(pairs, key=lambda pair: pair[0].value))


@attrs.frozen(cache_hash=True)
class RateTable:
    """A rule book's movement rates as data, for one kind of mover.

    ``speeds``: the share of normal speed in each kind of ground (a Fraction, ``percent(66)``,
    or None where the mover cannot go); kinds not listed are open ground. ``passages``: the
    price of crossing a line kind (key: the kind) or entering or leaving an area (key: (kind,
    PassageKind.ENTER)), None where it cannot; ``combine``: how rates in one place combine;
    ``masks``: a kind that hides others where it is (a road through woods); ``rule``: the
    citation an impassable move's error names."""

    speeds: tuple[tuple[TerrainKind, Rate], ...] = attrs.field(default=(), converter=_speeds)
    passages: tuple[tuple[tuple[TerrainKind, PassageKind], CrossingCost | None], ...] = (
        attrs.field(default=(), converter=_passages))
    combine: Combine = Combine.MULTIPLY
    masks: tuple[tuple[TerrainKind, frozenset[TerrainKind]], ...] = attrs.field(
        default=(), converter=_masks)
    rule: str = ""

    @functools.cached_property
    def _by_key(self) -> tuple[Mapping[TerrainKind, Rate],
                               Mapping[tuple[TerrainKind, PassageKind], CrossingCost | None],
                               Fraction]:
        """The speeds and passages by key (read-only) and the fastest speed, worked out once
        for this rate table (a mover's table is asked again and again)."""
        fastest = max([_FULL_SPEED] + [r for _, r in self.speeds if r is not None])
        return (MappingProxyType(dict(self.speeds)), MappingProxyType(dict(self.passages)),
                fastest)

    def rate(self, kind: TerrainKind) -> Rate:
        """The share of normal speed in ``kind`` (None: impassable)."""
        return self._by_key[0].get(kind, _FULL_SPEED)

    def passage(self, kind: TerrainKind, event: PassageKind) -> CrossingCost | None:
        """The price of a passage (no price: CrossingCost(); None: impassable)."""
        return self._by_key[1].get((kind, event), _FREE)

    def counted(self, kinds: frozenset[TerrainKind]) -> frozenset[TerrainKind]:
        """The kinds that count where these are (after masks)."""
        for kind, hidden in self.masks:
            if kind in kinds:
                kinds = kinds - hidden
        return kinds

    def speed(self, kinds: frozenset[TerrainKind]) -> Rate:
        """The share of normal speed where these kinds are (None: impassable)."""
        return _speed(self, kinds)

    def _speed(self, kinds: frozenset[TerrainKind]) -> Rate:
        rates = [self.rate(k) for k in self.counted(kinds)]
        if any(r is None for r in rates):
            return None
        known = [r for r in rates if r is not None]
        if not known:
            return Fraction(1)
        if self.combine is Combine.SLOWEST:
            return min(known)
        product = Fraction(1)
        for r in known:
            product *= r
        return product

    def impassable(self, leg: Leg, table: Table) -> tuple[str, TerrainKind] | None:
        """The feature that makes a leg impassable (None: passable)."""
        counted = self.counted(leg.kinds)
        for fid in leg.features:
            kind = table.feature(fid).kind
            if kind in counted and self.rate(kind) is None:
                return fid, kind
        return None

    def cost(self, route: Route, table: Table, full_move: float | None = None) -> float:
        """The allowance a route uses: each leg's length divided by the speed over it, plus
        each passage's price (shares of ``full_move``). An impassable leg or passage raises
        ImpassableError naming the feature."""
        action = f"move of {route.unit_id}"
        total = 0.0
        for leg in route.legs:
            speed = self.speed(leg.kinds)
            if speed is None:
                fid, kind = self.impassable(leg, table) or ("?", next(iter(leg.kinds)))
                raise ImpassableError(action, fid, kind, self.rule)
            total += leg.length / float(speed)
        for passage in route.passages:
            price = self.passage(passage.kind, passage.event)
            if price is None:
                raise ImpassableError(action, passage.feature, passage.kind, self.rule)
            total += price.extra + _share(price.share, full_move)
        return total


_FULL_SPEED = Fraction(1)
_FREE = CrossingCost()


def _lookups(rates: RateTable) -> tuple[Mapping[TerrainKind, Rate],
                                        Mapping[tuple[TerrainKind, PassageKind],
                                                CrossingCost | None], Fraction]:
    """A rate table's speeds and passages by key, and its fastest speed (worked out once,
    kept on the rate table itself: ``RateTable._by_key``)."""
    return rates._by_key


@functools.lru_cache(maxsize=1024)
def _speed(rates: RateTable, kinds: frozenset[TerrainKind]) -> Rate:
    """``RateTable.speed`` (a cache over small immutable values: a frozen rate table and a
    frozenset of kinds give a Fraction or None; nothing in it is changed in place)."""
    return rates._speed(kinds)


def _share(share: Fraction, full_move: float | None) -> float:
    if not share:
        return 0.0
    if full_move is None:
        raise InvalidValueError("full_move", None, "the unit's full move, for a price given "
                                "as a share of a move")
    return float(share) * full_move


# -- routes ---------------------------------------------------------------------------------


def _point(value: Any, field: str) -> Point:
    if not (isinstance(value, tuple | list) and len(value) == 2):
        raise InvalidValueError(field, value, "an (x, y) point")
    return (check_number(f"{field}[0]", value[0]), check_number(f"{field}[1]", value[1]))


IntArray = npt.NDArray[np.intp]


@attrs.frozen(eq=False)
class _Near:
    """The areas, lines and other units (rows of the terrain's and the layout's arrays, in
    their trees' order) whose boxes meet the box round a move: nothing else can be touched.
    None: not asked (anything may be)."""

    area_rows: IntArray | None
    line_rows: IntArray | None
    unit_rows: IntArray | None

    @property
    def areas(self) -> bool:
        """Whether some area may be touched."""
        return self.area_rows is None or len(self.area_rows) > 0

    @property
    def lines(self) -> bool:
        """Whether some line may be touched."""
        return self.line_rows is None or len(self.line_rows) > 0

    @property
    def units(self) -> bool:
        """Whether some other unit may be touched."""
        return self.unit_rows is None or len(self.unit_rows) > 0


_ANYTHING = _Near(None, None, None)


def _near(table: Table, footprint: Footprint, path: Sequence[Point]) -> _Near:
    """What lies in a box round every place of the footprint on the way, widened against
    rounding: a bounding-box question to each tree, no exact geometry."""
    terrain, layout = table.terrain, table.layout
    x0, y0, x1, y1 = footprint.bounds
    ex, ey = (x1 - x0) / 2, (y1 - y0) / 2
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    pad = _EPS * (1.0 + ex + ey + max(map(abs, xs)) + max(map(abs, ys)))
    box = shapely.box(min(xs) - ex - pad, min(ys) - ey - pad, max(xs) + ex + pad,
                      max(ys) + ey + pad)
    units = layout.tree.query(box)
    own = footprint.unit_id
    others = units[np.fromiter((layout.footprints[u].unit_id != own for u in units), bool,
                               len(units))]
    return _Near(terrain.area_tree.query(box) if len(terrain.areas) else _NONE,
                 terrain.line_tree.query(box) if len(terrain.lines) else _NONE, others)


def _meeting(tree: shapely.STRtree, geoms: Any, rows: IntArray | None,
             geometry: BaseGeometry) -> IntArray:
    """The rows of ``geoms`` that ``geometry`` intersects, in the tree's order: of ``rows``
    (those whose boxes meet a box holding ``geometry``) when known, else asking the tree."""
    if rows is None:
        found: IntArray = tree.query(geometry, predicate="intersects")
        return found
    if not len(rows):
        return rows
    meeting: IntArray = rows[shapely.intersects(geometry, geoms[rows])]
    return meeting


def route(table: Table, unit_id: str, *points: Point) -> Route:
    """The route of ``unit_id``'s centre through ``points`` (each (x, y); the unit keeps its
    facing): its legs over the ground, the lines it crosses and the areas it enters and
    leaves, what it sweeps, and where it ends."""
    footprint = table.footprint(unit_id)
    return _route(table, footprint, _path(footprint, points), quick=True)


def sweep(table: Table, unit_id: str,
          *points: Point) -> tuple[frozenset[TerrainKind], tuple[str, ...]]:
    """What any part of ``unit_id``'s footprint touches moving through ``points`` keeping its
    facing: the kinds of ground and the other units (ids, sorted), as ``route`` gives them in
    ``Route.swept`` and ``Route.units_crossed`` (without working out the legs)."""
    footprint = table.footprint(unit_id)
    path = _path(footprint, points)
    return _sweep(table, footprint, path, _near(table, footprint, path))


def _route_exact(table: Table, unit_id: str, *points: Point) -> Route:
    """``route`` without the shortcuts for open ground (the two must agree)."""
    footprint = table.footprint(unit_id)
    return _route(table, footprint, _path(footprint, points), quick=False)


def _path(footprint: Footprint, points: tuple[Point, ...]) -> tuple[Point, ...]:
    """Where the centre goes: where it stands, then each point (checked)."""
    if not points:
        raise InvalidValueError("points", points, "at least one point to move to")
    return (footprint.centre, *(_point(p, f"points[{i}]") for i, p in enumerate(points)))


def _route(table: Table, footprint: Footprint, path: tuple[Point, ...], *, quick: bool,
           near: _Near | None = None,
           found: tuple[tuple[Leg, ...], tuple[Passage, ...]] | None = None) -> Route:
    """The route along ``path``; ``quick``: taking the shortcuts for open ground, ``near``
    (what lies round the move, or round a longer move on the same line) when known,
    ``found``: its legs and passages when known (``_legs``)."""
    if near is None:
        near = _near(table, footprint, path) if quick else _ANYTHING
    legs, passages = found or _legs(table, path, quick=quick, near=near)
    end = footprint.moved_to(*path[-1])
    swept, crossed = _sweep(table, footprint, path, near)
    dx, dy = path[-1][0] - path[0][0], path[-1][1] - path[0][1]
    (fx, fy), _ = footprint.frame
    retiring = dx * fx + dy * fy < -_EPS * max(1.0, math.hypot(dx, dy))
    return Route(footprint.unit_id, path, legs, passages, swept, crossed, retiring, end,
                 table.holds(end))


def _legs(table: Table, path: tuple[Point, ...], *, quick: bool,
          near: _Near) -> tuple[tuple[Leg, ...], tuple[Passage, ...]]:
    """The legs along ``path`` and the passages, in order along it."""
    legs: list[Leg] = []
    passages: list[Passage] = []
    along = 0.0
    inside: tuple[str, ...] | None = None
    for a, b in itertools.pairwise(path):
        if near.areas or near.lines or not math.dist(a, b) > _EPS:
            seg_legs, seg_passages, inside = _segment(table, a, b, along, inside, quick=quick,
                                                      near=near)
        else:  # the box round the move holds the centre's path: it meets nothing
            seg_legs, seg_passages, inside = _open_segment(table, a, b, along, inside)
        legs.extend(seg_legs)
        passages.extend(seg_passages)
        along += math.dist(a, b)
    return tuple(legs), tuple(sorted(passages, key=lambda p: p.at))


def retire(table: Table, unit_id: str, distance: float) -> Route:
    """Moving straight back ``distance``, keeping the facing."""
    check_number("distance", distance, 0)
    footprint = table.footprint(unit_id)
    return route(table, unit_id, footprint.advanced(distance, 180.0).centre)


def _segment(table: Table, a: Point, b: Point, along: float,
             before: tuple[str, ...] | None, *, quick: bool,
             near: _Near = _ANYTHING) -> tuple[list[Leg], list[Passage], tuple[str, ...]]:
    """The legs and passages of one straight stretch, and the areas it ends in (``quick``:
    one open leg at once when it meets no area and no line; ``near``: what lies round it)."""
    terrain = table.terrain
    length = math.dist(a, b)
    segment = LineString([a, b])
    ts = [0.0, 1.0]
    candidates = _meeting(terrain.area_tree, terrain.areas, near.area_rows, segment) if len(
        terrain.areas) else _NONE
    hits = _meeting(terrain.line_tree, terrain.lines, near.line_rows, segment) if (
        length > 0 and len(terrain.lines)) else _NONE
    if quick and length > _EPS and not len(candidates) and not len(hits):
        return _open_segment(table, a, b, along, before)
    areas = terrain.areas[candidates]
    if length > 0 and len(candidates):
        rings = shapely.boundary(areas)
        crossing = shapely.intersects(segment, rings)  # not those it lies wholly inside
        if crossing.any():
            meet = shapely.intersection(segment, rings[crossing])
            coords = shapely.get_coordinates(meet)
            if len(coords):
                ts.extend(_along(a, b, coords, length))
    ts = _merge(sorted(t for t in ts if -_EPS <= t <= 1 + _EPS))
    pieces: list[tuple[float, float, tuple[str, ...]]] = []
    if len(ts) == 1:
        ts = [0.0, 1.0]
    mids = np.array([(ts[i] + ts[i + 1]) / 2 for i in range(len(ts) - 1)])
    xs = a[0] + (b[0] - a[0]) * mids
    ys = a[1] + (b[1] - a[1]) * mids
    member = shapely.intersects_xy(areas[:, np.newaxis], xs[np.newaxis, :],
                                   ys[np.newaxis, :]).T.tolist()
    names = [terrain.area_features[k].feature_id for k in candidates]
    for i in range(len(mids)):
        ids = tuple(sorted(name for name, inside in zip(names, member[i], strict=True)
                           if inside))
        if pieces and pieces[-1][2] == ids:
            pieces[-1] = (pieces[-1][0], ts[i + 1], ids)
        else:
            pieces.append((ts[i], ts[i + 1], ids))
    by_id = terrain.by_id
    legs = []
    passages: list[Passage] = []
    previous = before if before is not None else (pieces[0][2] if pieces else ())
    for t0, t1, ids in pieces:
        start = (float(a[0] + (b[0] - a[0]) * t0), float(a[1] + (b[1] - a[1]) * t0))
        end = (float(a[0] + (b[0] - a[0]) * t1), float(a[1] + (b[1] - a[1]) * t1))
        kinds = mask_crossings(frozenset(by_id[i].kind for i in ids))
        if (t1 - t0) * length > _EPS or length == 0:
            legs.append(Leg(start, end, float((t1 - t0) * length), kinds, ids))
        passages.extend(_edges(by_id, previous, ids, float(along + t0 * length)))
        previous = ids
    if len(hits):
        passages.extend(_crossings(table, segment, hits, a, b, length, along))
    return legs, passages, previous


def _open_segment(table: Table, a: Point, b: Point, along: float,
                  before: tuple[str, ...] | None) -> tuple[list[Leg], list[Passage],
                                                           tuple[str, ...]]:
    """``_segment`` of a stretch longer than _EPS that meets no area and no line: one leg of
    open ground (the same sums as there, so the same numbers)."""
    length = math.dist(a, b)
    t0, t1 = 0.0, 1.0
    start = (float(a[0] + (b[0] - a[0]) * t0), float(a[1] + (b[1] - a[1]) * t0))
    end = (float(a[0] + (b[0] - a[0]) * t1), float(a[1] + (b[1] - a[1]) * t1))
    leg = Leg(start, end, float((t1 - t0) * length), mask_crossings(frozenset()), ())
    passages = _edges(table.terrain.by_id, before or (), (), float(along + t0 * length))
    return [leg], passages, ()


def _along(a: Point, b: Point, coords: npt.NDArray[np.float64], length: float) -> list[float]:
    dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    values = ((coords[:, 0] - a[0]) * dx + (coords[:, 1] - a[1]) * dy) / length
    return [float(v) for v in values]


def _merge(ts: list[float]) -> list[float]:
    merged: list[float] = []
    for t in ts:
        t = min(1.0, max(0.0, t))
        if not merged or t - merged[-1] > 1e-12:
            merged.append(t)
    return merged


_WATER = frozenset({TerrainKind.RIVER, TerrainKind.STREAM})
_DRY = frozenset({TerrainKind.FORD, TerrainKind.BRIDGE})


def _edges(by_id: Mapping[str, Feature], before: tuple[str, ...], after: tuple[str, ...],
           at: float) -> list[Passage]:
    """ENTER and LEAVE passages between two sets of areas (water at a ford or bridge is
    neither entered nor left)."""
    if before == after:
        return []
    kinds = {by_id[i].kind for i in before} | {by_id[i].kind for i in after}
    dry = bool(kinds & _DRY)
    found = []
    for fid in sorted(set(after) - set(before)):
        kind = by_id[fid].kind
        if not (dry and kind in _WATER):
            found.append(Passage(fid, kind, PassageKind.ENTER, at))
    for fid in sorted(set(before) - set(after)):
        kind = by_id[fid].kind
        if not (dry and kind in _WATER):
            found.append(Passage(fid, kind, PassageKind.LEAVE, at))
    return found


def _crossings(table: Table, segment: LineString, hits: npt.NDArray[np.intp], a: Point,
               b: Point, length: float, along: float) -> list[Passage]:
    """CROSS passages where the segment crosses a line feature (``hits``: the lines it
    meets; not at a ford or bridge for streams)."""
    terrain = table.terrain
    found = []
    for k in hits:
        feature = terrain.crossed_features[k]
        coords = shapely.get_coordinates(shapely.intersection(segment, terrain.lines[k]))
        for t in _merge(sorted(_along(a, b, coords, length))):
            if t <= 1e-12:
                continue
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            if feature.kind is TerrainKind.STREAM and terrain.kinds_at(x, y) & _DRY:
                continue
            found.append(Passage(feature.feature_id, feature.kind, PassageKind.CROSS,
                                 float(along + t * length)))
    return found


def _sweep(table: Table, footprint: Footprint, path: Sequence[Point],
           near: _Near) -> tuple[frozenset[TerrainKind], tuple[str, ...]]:
    """The kinds of ground and the other units the footprint touches on its way (``near``:
    what may be touched)."""
    if not (near.areas or near.lines or near.units):
        return frozenset(), ()
    terrain, layout = table.terrain, table.layout
    kinds_in = ((near.areas and bool(terrain.area_features), near.area_rows,
                 terrain.area_features, terrain.area_tree, terrain.areas),
                (near.lines and bool(terrain.crossed_features), near.line_rows,
                 terrain.crossed_features, terrain.line_tree, terrain.lines))
    corners = footprint.corners - (footprint.x, footprint.y)
    placed = [corners + p for p in path]
    # a convex outline moved in a straight line sweeps the hull of where it starts and ends
    hulls: list[Any] = [shapely.convex_hull(shapely.multipoints(np.concatenate((a, b))))
                        for a, b in itertools.pairwise(placed)]
    swept = hulls[0] if len(hulls) == 1 else shapely.union_all(hulls)
    kinds: set[TerrainKind] = set()
    for wanted, rows, features, tree, geoms in kinds_in:
        if wanted:
            # what the swept area's interior meets also meets its box: ``rows`` holds it
            found = tree.query(swept, predicate="intersects") if rows is None else rows
            if len(found):
                inside = shapely.relate_pattern(swept, geoms[found], "T********")
                kinds.update(features[k].kind for k in found[inside])
    units: list[str] = []
    if near.units:
        if near.unit_rows is None:
            found = layout.tree.query(swept, predicate="intersects")
            found = found[np.array([layout.footprints[u].unit_id != footprint.unit_id
                                    for u in found], dtype=bool)]
        else:
            found = near.unit_rows
        if len(found):
            inside = shapely.relate_pattern(swept, layout.shapes[found], "T********")
            units = [layout.footprints[u].unit_id for u in found[inside]]
    return mask_crossings(frozenset(kinds)), tuple(sorted(units))


# -- how far a unit can go ------------------------------------------------------------------


@attrs.frozen
class Destination:
    """Where a unit can get to: ``heading`` (degrees off its facing), the ``point`` its
    centre reaches, the ``distance`` it goes, the allowance it ``cost``, what stopped it
    (``stopped_by``: "allowance", "table edge", a unit id or a feature id), and the
    ``route``."""

    heading: float
    point: Point
    distance: float
    cost: float
    stopped_by: str
    route: Route


def furthest(table: Table, unit_id: str, heading: float, budget: float, rates: RateTable, *,
             full_move: float | None = None, through: Iterable[str] = (),
             clearance: float = 0.0) -> Destination:
    """The furthest ``unit_id`` goes straight towards ``heading`` degrees off its facing
    (keeping its facing) with an allowance of ``budget``: it stops when the allowance is
    spent, before ground or a line it cannot pass, before another unit (except those in
    ``through``; within ``clearance`` of an enemy counts as touching it) and at the table
    edge."""
    check_number("heading", heading, -360, 360)
    check_number("budget", budget, 0)
    check_number("clearance", clearance, 0)
    footprint = table.footprint(unit_id)
    (dx, dy), _ = bearing_vectors(footprint.facing + heading)
    limit, why = _edge_limit(table, footprint, dx, dy), "table edge"
    fastest = _lookups(rates)[2]
    if budget * float(fastest) < limit:  # nothing beyond this can be paid for
        limit, why = budget * float(fastest), "allowance"
    block, what = _first_contact(table, footprint, dx, dy, limit, rates, set(through),
                                 clearance)
    if block < limit:
        limit, why = block, what
    path = _path(footprint, ((footprint.x + dx * limit, footprint.y + dy * limit),))
    near = _near(table, footprint, path)
    ray = _legs(table, path, quick=True, near=near)
    go, spent, reason = _walk(ray, rates, table, budget, full_move)
    if go < limit - _EPS or reason != "allowance":
        limit, why = go, reason
    point = (footprint.x + dx * limit, footprint.y + dy * limit)
    # a shorter move on the ray lies in the ray's box: what is near it is near the ray
    final = _route(table, footprint, _path(footprint, (point,)), quick=True, near=near) if (
        0 < limit < sum(leg.length for leg in ray[0]) - _EPS) else _route(
            table, footprint, path, quick=True, near=near, found=ray)
    return Destination(normal_degrees(heading), point, limit, spent if limit > 0 else 0.0, why,
                       final)


def _edge_limit(table: Table, footprint: Footprint, dx: float, dy: float) -> float:
    """How far the footprint can go along (dx, dy) staying on the table."""
    x0, y0, x1, y1 = footprint.bounds
    limits = [math.inf]
    if dx > _EPS:
        limits.append((table.width - x1) / dx)
    elif dx < -_EPS:
        limits.append(-x0 / dx)
    if dy > _EPS:
        limits.append((table.depth - y1) / dy)
    elif dy < -_EPS:
        limits.append(-y0 / dy)
    return max(0.0, min(limits))


def _first_contact(table: Table, footprint: Footprint, dx: float, dy: float, limit: float,
                   rates: RateTable, through: set[str],
                   clearance: float) -> tuple[float, str]:
    """How far the footprint goes along (dx, dy) before touching another unit or an area
    it cannot enter (inf: nothing within ``limit``), and what it touches."""
    corners = footprint.corners
    places = np.concatenate((corners, np.add(corners, (dx * limit, dy * limit))))
    # the box round the sweep first (the swept hull's own box): most moves meet nothing
    x0, y0 = (float(v) for v in places.min(axis=0))
    x1, y1 = (float(v) for v in places.max(axis=0))
    pad = clearance * (1.0 + 1e-6) + _EPS * (1.0 + abs(x0) + abs(y0) + abs(x1) + abs(y1)) if (
        clearance) else 0.0  # enemies kept off: the sweep widened by ``clearance``
    layout = table.layout
    own = footprint.unit_id
    rows = layout.tree.query(shapely.box(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
    rows = rows[np.fromiter((layout.footprints[u].unit_id != own
                             and layout.footprints[u].unit_id not in through for u in rows),
                            bool, len(rows))]
    swept: BaseGeometry | None = None
    if len(rows):  # what the (widened) sweep meets lies in that box: the same rows, in order
        swept = cast(BaseGeometry, shapely.convex_hull(shapely.multipoints(places)))
        reached = shapely.buffer(swept, clearance) if clearance else swept
        rows = rows[shapely.intersects(reached, layout.shapes[rows])]
    names = [layout.footprints[u].unit_id for u in rows]
    shapes = list(layout.shapes[rows])
    if clearance and names:
        enemies = set(table.enemies_of(own))
        widened = [i for i, name in enumerate(names) if name in enemies]
        if widened:
            for i, shape in zip(widened, shapely.buffer(
                    np.array([shapes[i] for i in widened], dtype=object), clearance),
                    strict=True):
                shapes[i] = shape
    terrain = table.terrain
    if len(terrain.areas) and any(rates.rate(f.kind) is None for f in terrain.area_features):
        found = terrain.area_tree.query(shapely.box(x0, y0, x1, y1))
        found = found[np.fromiter(
            (rates.rate(terrain.area_features[k].kind) is None and not (
                terrain.area_features[k].kind in _WATER
                and _dry_here(table, terrain.area_features[k])) for k in found),
            bool, len(found))]
        if len(found):
            if swept is None:
                swept = cast(BaseGeometry, shapely.convex_hull(shapely.multipoints(places)))
            for k in found[shapely.intersects(swept, terrain.areas[found])]:
                names.append(terrain.area_features[k].feature_id)
                shapes.append(terrain.area_features[k].area)
    best, what = math.inf, ""
    if not names:
        return best, what
    # already overlapping at the start: moving off it is allowed; but an overlap a hair
    # thin is rounding, and counts as touching
    outline, every = footprint.outline, np.array(shapes, dtype=object)
    overlapping = shapely.relate_pattern(outline, every, "T********")
    sliver = np.zeros(len(shapes), dtype=bool)
    if overlapping.any():
        sliver[overlapping] = shapely.area(shapely.intersection(
            outline, every[overlapping])) <= _hair(corners) * (footprint.width + footprint.length)
    for name, shape, start, thin in zip(names, shapes, overlapping, sliver, strict=True):
        if start and not thin:
            continue
        t = 0.0 if thin else _contact_distance(corners, shape, dx, dy, limit)
        if t <= _TOUCHING * (1.0 + limit):  # touching where it stands: into it, or away?
            t = _touched_contact(footprint, shape, dx, dy, limit)
        if t < best:
            best, what = t, name
    return best, what


_TOUCHING = 1e-9
"""A contact this near the start (relative to the move) is touching where the unit stands."""


def _hair(corners: npt.NDArray[np.float64]) -> float:
    """A step far below anything measured on a table, far above rounding: how far a unit
    is tried along its way to tell moving into what it touches from moving off it."""
    return _TOUCHING * 1e3 * (1.0 + float(np.abs(corners).max()))


def _touched_contact(footprint: Footprint, shape: BaseGeometry, dx: float, dy: float,
                     limit: float) -> float:
    """How far the footprint goes along (dx, dy) before it runs into ``shape``, which it
    touches where it stands: at once if a hair's move along the way goes into a part it
    touches; else the first contact with the parts it does not touch. A part it touches and
    moves off or slides along is not met again: exact for units (their bases are rectangles,
    and a convex part left behind by a straight move stays behind); an impassable area bent
    back across the move after it was left would be missed."""
    corners = footprint.corners
    hair = _hair(corners)
    stepped = Polygon(np.add(corners, (dx * hair, dy * hair)))
    outline = footprint.outline
    best = math.inf
    for part in shapely.get_parts(shape):
        if float(shapely.distance(outline, part)) <= hair:
            if shapely.relate_pattern(stepped, part, "T********"):
                return 0.0
            continue
        best = min(best, _contact_distance(corners, part, dx, dy, limit))
    return best


def _dry_here(table: Table, feature: Feature) -> bool:
    """Whether some ford or bridge crosses this water (then contact is judged by route)."""
    terrain = table.terrain
    for kind in _DRY:
        union = terrain.union(kind)
        if union is not None and shapely.intersects(union, feature.area):
            return True
    return False


def _contact_distance(corners: npt.NDArray[np.float64], shape: BaseGeometry, dx: float,
                      dy: float, limit: float) -> float:
    """How far a convex outline (its corners) moves along (dx, dy) before it touches
    ``shape`` (inf: not within ``limit``): the nearest hit of rays from the outline's
    corners forward onto the shape and from the shape's vertices back onto the outline.
    Only the rays that may give the nearest hit within ``limit`` are cast (``_worth_casting``);
    the distance is Shapely's hit on them."""
    reach = limit + 1.0
    best = math.inf
    boundary = shapely.boundary(shape)
    vertices = shapely.get_coordinates(shape)
    ring = np.concatenate((corners, corners[:1]))
    scale = 1.0 + reach + float(np.abs(corners).max()) + float(np.abs(vertices).max(initial=0))
    direction = np.array([dx, dy])
    # a polygon without holes (a unit's base): its boundary's pieces join its vertices
    segments = (vertices[:-1], vertices[1:]) if (
        shapely.get_type_id(shape) == _POLYGON and shapely.get_num_interior_rings(shape) == 0
    ) else _segments(boundary)
    forward, back = _worth_casting(
        (corners, segments), (vertices, (ring[:-1], ring[1:])), direction, reach,
        limit, scale)
    if forward.any():
        starts = corners[forward]
        rays = shapely.linestrings(np.stack([starts, starts + direction * reach], axis=1))
        meet = shapely.intersection(rays, boundary)
        coords, which = shapely.get_coordinates(meet, return_index=True)
        if len(coords):
            d = (coords[:, 0] - starts[which, 0]) * dx + (coords[:, 1] - starts[which, 1]) * dy
            best = min(best, float(d.min()))
    if back.any():
        starts = vertices[back]
        rays = shapely.linestrings(np.stack([starts, starts - direction * reach], axis=1))
        meet = shapely.intersection(rays, shapely.linearrings(corners))
        coords, which = shapely.get_coordinates(meet, return_index=True)
        if len(coords):
            d = (starts[which, 0] - coords[:, 0]) * dx + (starts[which, 1] - coords[:, 1]) * dy
            best = min(best, float(d.min()))
    return best if best <= limit else math.inf


_POLYGON = 3
"""Shapely's type id of a polygon."""


def _segments(boundary: BaseGeometry) -> tuple[npt.NDArray[np.float64],
                                               npt.NDArray[np.float64]]:
    """The straight pieces of a boundary: their starts and ends."""
    coords, which = shapely.get_coordinates(shapely.get_parts(boundary), return_index=True)
    same = which[:-1] == which[1:]
    return coords[:-1][same], coords[1:][same]


def _worth_casting(forward: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                   back: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                   direction: npt.NDArray[np.float64], reach: float, limit: float,
                   scale: float) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """``_worth_casting_arrays``'s answer: for a few rays and segments (a unit's base against
    another's: 4 corners by 4 sides, 5 vertices by 4 sides) worked out in plain floats
    (``_worth_casting_floats``), the same operations in the same order, which numpy costs
    several times more on arrays so small (issue 28: 0.2 ms a contact at 500 units a
    side); else with numpy."""
    pairs = sum(len(origins) * len(segs[0]) for origins, segs in (forward, back))
    if pairs <= _FEW_PAIRS:
        return _worth_casting_floats(forward, back, direction, reach, limit, scale)
    return _worth_casting_arrays(forward, back, direction, reach, limit, scale)


_FEW_PAIRS = 64
"""Up to how many ray and segment pairs ``_worth_casting`` works in plain floats."""


def _worth_casting_floats(forward: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                          back: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                          direction: npt.NDArray[np.float64], reach: float, limit: float,
                          scale: float) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """``_worth_casting_arrays`` in plain floats, operation for operation (the segments'
    lengths still by ``np.hypot``): the same rays, to the last bit."""
    tol = 1e-6 * scale
    inf = math.inf
    dx0, dy0 = (float(v) for v in direction)
    found = []
    for (origins, (p, q)), sign in ((forward, 1.0), (back, -1.0)):
        d0, d1 = dx0 * sign, dy0 * sign
        e = q - p
        lengths = np.hypot(e[:, 0], e[:, 1]).tolist()
        segs = []
        for (p0, p1), (e0, e1), length in zip(p.tolist(), e.tolist(), lengths, strict=True):
            denom = d0 * e1 - d1 * e0
            parallel = abs(denom) <= 1e-6 * length
            segs.append((p0, p1, e0, e1, parallel, 1.0 if parallel else denom,
                         e0 * d1 - e1 * d0))
        maybes, surelies, alongs = [], [], []
        for o0, o1 in origins.tolist():
            maybe_min = surely_min = inf
            along = False
            for p0, p1, e0, e1, parallel, safe, turn in segs:
                w0, w1 = p0 - o0, p1 - o1
                off_p = w0 * d1 - w1 * d0
                if parallel:
                    off_q = off_p + turn
                    if off_p * off_q <= 0 or min(abs(off_p), abs(off_q)) <= tol:
                        along = True
                    continue
                t = (w0 * e1 - w1 * e0) / safe
                u = off_p / safe
                if -tol <= t <= reach + tol and -1e-6 <= u <= 1 + 1e-6 and t < maybe_min:
                    maybe_min = t
                if tol <= t <= reach - tol and 1e-6 <= u <= 1 - 1e-6 and t < surely_min:
                    surely_min = t
            maybes.append(maybe_min)
            surelies.append(surely_min)
            alongs.append(along)
        found.append((maybes, surelies, alongs))
    nearest = min(min(s, default=inf) for _, s, _ in found)
    cut = min(nearest, limit) + tol
    ahead, behind = (np.array([m <= cut or a for m, a in zip(ms, al, strict=True)], dtype=bool)
                     for ms, _, al in found)
    return ahead, behind


def _worth_casting_arrays(forward: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                          back: tuple[npt.NDArray[np.float64], tuple[Any, Any]],
                          direction: npt.NDArray[np.float64], reach: float, limit: float,
                          scale: float) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which rays (forward from the first points, back from the second, each ``reach`` long)
    may give the nearest hit on the other's segments within ``limit``, judged from hits
    worked out roughly (a few parts in a million of ``scale``: far wider than their error):
    a ray is cast unless it surely misses, or surely hits only further than some ray surely
    hits, or further than ``limit``; rays nearly along a segment are always cast."""
    tol = 1e-6 * scale
    found = []
    for (origins, (p, q)), sign in ((forward, 1.0), (back, -1.0)):
        d = direction * sign
        e = q - p
        w = p[np.newaxis, :, :] - origins[:, np.newaxis, :]
        denom = d[0] * e[:, 1] - d[1] * e[:, 0]
        length = np.hypot(e[:, 0], e[:, 1])
        parallel = np.abs(denom) <= 1e-6 * length
        safe = np.where(parallel, 1.0, denom)
        t = (w[:, :, 0] * e[:, 1] - w[:, :, 1] * e[:, 0]) / safe
        u = (w[:, :, 0] * d[1] - w[:, :, 1] * d[0]) / safe
        maybe = ~parallel & (t >= -tol) & (t <= reach + tol) & (u >= -1e-6) & (u <= 1 + 1e-6)
        surely = ~parallel & (t >= tol) & (t <= reach - tol) & (u >= 1e-6) & (u <= 1 - 1e-6)
        # a segment nearly along the ray: cast it unless the segment lies well to one side
        off_p = w[:, :, 0] * d[1] - w[:, :, 1] * d[0]
        off_q = off_p + (e[:, 0] * d[1] - e[:, 1] * d[0])[np.newaxis, :]
        near = (off_p * off_q <= 0) | (np.minimum(np.abs(off_p), np.abs(off_q)) <= tol)
        found.append((np.where(maybe, t, np.inf), np.where(surely, t, np.inf),
                      (parallel[np.newaxis, :] & near).any(axis=1)))
    nearest = min(float(s.min(initial=np.inf)) for _, s, _ in found)
    cut = min(nearest, limit) + tol
    ahead, behind = ((m.min(axis=1, initial=np.inf) <= cut) | along for m, _, along in found)
    return ahead, behind


def _walk(ray: tuple[tuple[Leg, ...], tuple[Passage, ...]], rates: RateTable, table: Table,
          budget: float, full_move: float | None) -> tuple[float, float, str]:
    """How far along a straight route (its legs and passages in order) the allowance lasts:
    (distance, cost, what stopped it), stopping before impassable ground or lines and before
    a passage it cannot pay."""
    legs, events = ray
    spent, along = 0.0, 0.0
    e = 0
    for leg in legs:
        while e < len(events) and events[e].at <= along + _EPS:
            price = rates.passage(events[e].kind, events[e].event)
            if price is None:
                return along, spent, events[e].feature
            fee = price.extra + _share(price.share, full_move)
            if spent + fee > budget + _EPS:
                return along, spent, "allowance"
            spent += fee
            e += 1
        speed = rates.speed(leg.kinds)
        if speed is None:
            blocker = rates.impassable(leg, table)
            return along, spent, blocker[0] if blocker else "impassable"
        # crossings inside this leg
        inner = [p for p in events[e:] if p.at < along + leg.length - _EPS]
        position = along
        for passage in inner:
            step = passage.at - position
            if spent + step / float(speed) > budget + _EPS:
                return position + (budget - spent) * float(speed), budget, "allowance"
            spent += step / float(speed)
            position = passage.at
            price = rates.passage(passage.kind, passage.event)
            if price is None:
                return position, spent, passage.feature
            fee = price.extra + _share(price.share, full_move)
            if spent + fee > budget + _EPS:
                return position, spent, "allowance"
            spent += fee
            e += 1
        rest = along + leg.length - position
        if spent + rest / float(speed) > budget + _EPS:
            return position + (budget - spent) * float(speed), budget, "allowance"
        spent += rest / float(speed)
        along += leg.length
    return along, spent, "allowance"


def reachable(table: Table, unit_id: str, budget: float, rates: RateTable, *,
              headings: Sequence[float] = (0.0, 45.0, -45.0, 90.0, -90.0, 180.0),
              fractions: Sequence[float] = (1.0,), full_move: float | None = None,
              through: Iterable[str] = (), clearance: float = 0.0) -> tuple[Destination, ...]:
    """Destinations ``unit_id`` can reach with ``budget``: for each heading (degrees off its
    facing), the furthest point (``furthest``) and the points at the given ``fractions`` of
    that distance; destinations that go nowhere are left out."""
    passing = tuple(through)
    found = []
    for heading in headings:
        far = furthest(table, unit_id, heading, budget, rates, full_move=full_move,
                       through=passing, clearance=clearance)
        for fraction in fractions:
            check_number("fractions", fraction, 0, 1)
            go = far.distance * fraction
            if go <= _EPS:
                continue
            if fraction == 1.0:
                found.append(far)
                continue
            footprint = table.footprint(unit_id)
            (dx, dy), _ = bearing_vectors(footprint.facing + heading)
            point = (footprint.x + dx * go, footprint.y + dy * go)
            path = route(table, unit_id, point)
            found.append(Destination(far.heading, point, go,
                                     rates.cost(path, table, full_move), "choice", path))
    return tuple(found)


# -- wheels, turns, routs -------------------------------------------------------------------


@attrs.frozen
class Wheel:
    """A wheel: the unit afterwards (``end``), the distance its outer front corner travels,
    and the area it sweeps."""

    end: Footprint
    distance: float
    swept: Polygon = attrs.field(eq=False, repr=False)


def wheel(footprint: Footprint, degrees: float, pivot_gap: float = 0.0) -> Wheel:
    """Wheel ``degrees`` (positive: clockwise, to the right, pivoting on the right front
    corner; negative: to the left on the left corner). The pivot stands ``pivot_gap``
    beyond that corner along the front line (Will: wheel round a 3" circle: a gap of 1.5");
    the distance is that travelled by the outer front corner, (width + gap) x angle."""
    check_number("degrees", degrees, -360, 360)
    check_number("pivot_gap", pivot_gap, 0)
    half = footprint.width / 2 + pivot_gap
    u = half if degrees >= 0 else -half
    pivot = footprint.to_table(u, footprint.length / 2)
    end_centre = _rotate(footprint.centre, pivot, degrees)
    end = footprint.moved_to(end_centre[0], end_centre[1],
                             normal_degrees(footprint.facing + degrees))
    swept = _rotation_sweep(footprint.outline, pivot, degrees)
    distance = (footprint.width + pivot_gap) * math.radians(abs(degrees))
    return Wheel(end, distance, swept)


def _rotate(point: Point, pivot: Point, degrees: float) -> Point:
    """A point turned clockwise about a pivot."""
    r = math.radians(degrees)
    x, y = point[0] - pivot[0], point[1] - pivot[1]
    return (pivot[0] + x * math.cos(r) + y * math.sin(r),
            pivot[1] - x * math.sin(r) + y * math.cos(r))


def _rotation_sweep(outline: Polygon, pivot: Point, degrees: float) -> Polygon:
    """The area an outline covers turning clockwise by ``degrees`` about ``pivot``: the
    outlines every 5 degrees or less, joined pairwise by their hulls."""
    steps = max(1, math.ceil(abs(degrees) / 5.0))
    shapes = [affinity.rotate(outline, -degrees * i / steps, origin=pivot)
              for i in range(steps + 1)]
    hulls = [shapely.convex_hull(shapely.union(a, b)) for a, b in itertools.pairwise(shapes)]
    swept = shapely.union_all(hulls)
    if isinstance(swept, Polygon):
        return swept
    hull = shapely.convex_hull(swept)
    assert isinstance(hull, Polygon)
    return hull


@attrs.frozen
class Turn:
    """A facing change about the unit's centre: the unit afterwards, and the units and
    features of the ``blocking`` kinds the turning footprint would strike."""

    end: Footprint
    blocked_by: tuple[str, ...]


_SOLID = frozenset({TerrainKind.BUILDING, TerrainKind.IMPASSABLE, TerrainKind.WALL,
                    TerrainKind.FENCE, TerrainKind.FIELDWORK})


def turn(table: Table, unit_id: str, degrees: float, *,
         blocking: frozenset[TerrainKind] = _SOLID) -> Turn:
    """Turn ``unit_id`` ``degrees`` clockwise about its centre (Will: up to 180 degrees;
    the turn cannot be made when an obstacle or another unit is in the way)."""
    check_number("degrees", degrees, -360, 360)
    footprint = table.footprint(unit_id)
    swept = _rotation_sweep(footprint.outline, footprint.centre, degrees)
    found = []
    layout = table.layout
    for u in layout.tree.query(swept, predicate="intersects"):
        other = layout.footprints[u]
        if other.unit_id != unit_id and shapely.relate_pattern(
                swept, layout.shapes[u], "T********"):
            found.append(other.unit_id)
    terrain = table.terrain
    for features, tree in ((terrain.area_features, terrain.area_tree),
                           (terrain.crossed_features, terrain.line_tree)):
        for k in tree.query(swept, predicate="intersects") if features else ():
            feature = features[k]
            geometry = feature.centre_line if feature.crossed else feature.area
            if feature.kind in blocking and geometry is not None and shapely.relate_pattern(
                    swept, geometry, "T********"):
                found.append(feature.feature_id)
    return Turn(footprint.turned(degrees), tuple(sorted(found)))


@attrs.frozen
class Rout:
    """A rout move: the compass ``heading`` it runs (and now faces), the unit afterwards
    (``end``), how much further it ends from each visible enemy (``gains``, by id), and
    whether it ends off the table (``leaves_table``)."""

    heading: float
    end: Footprint
    gains: tuple[tuple[str, float], ...]
    leaves_table: bool


def rout(table: Table, unit_id: str, distance: float, *, rules: SightRules = DEFAULT_SIGHT,
         steps: int = 72) -> Rout | None:
    """Where ``unit_id`` routs ``distance``: of ``steps`` compass headings, the one that
    leaves it further from every enemy it can see (Will: the routing unit may not end nearer
    any visible enemy), taking the heading that gains most from the nearest-gaining enemy;
    None when no heading does. With no enemy in sight it runs for its side's home edge (or
    straight back). ``rout_options`` gives every heading that may be taken."""
    flight = _Flight(table, unit_id, distance, rules, steps)
    if flight.homeward is not None:
        return flight.homeward
    return flight.option(flight.order[0]) if len(flight.order) else None


def rout_options(table: Table, unit_id: str, distance: float, *,
                 rules: SightRules = DEFAULT_SIGHT, steps: int = 72) -> tuple[Rout, ...]:
    """Every heading of ``steps`` that leaves ``unit_id`` further from every visible enemy
    after a rout of ``distance``, best first (the most gained from the nearest-gaining
    enemy, then the most in all): a rule book may prefer one towards cover among them."""
    flight = _Flight(table, unit_id, distance, rules, steps)
    if flight.homeward is not None:
        return (flight.homeward,)
    return tuple(flight.option(i) for i in flight.order)


class _Flight:
    """The headings of a rout and what each gains from every visible enemy, best first
    (``order``: only those that gain from all), or the run home (``homeward``) when no enemy
    is in sight. The ends are worked out as corners, and as footprints only for the headings
    asked (``option``)."""

    def __init__(self, table: Table, unit_id: str, distance: float, rules: SightRules,
                 steps: int) -> None:
        check_number("distance", distance, 0)
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 4:
            raise InvalidValueError("steps", steps, "an integer of at least 4")
        self.table, self.distance = table, distance
        self.footprint = footprint = table.footprint(unit_id)
        self.seen = seen = visible_enemies(table, unit_id, rules=rules)
        self.homeward: Rout | None = None
        if not seen:
            heading = _homeward(table, footprint)
            end = _run(footprint, heading, distance)
            self.homeward = Rout(heading, end, (), not table.holds(end))
            return
        self.headings = headings = np.arange(steps) * (360.0 / steps)
        layout = table.layout
        enemy_shapes = layout.shapes[layout.rows(seen)]
        before = shapely.distance(footprint.shape, enemy_shapes)
        if footprint.shape is footprint.outline:  # one rectangle: all the outlines at once
            shapes = vec.polygons(_run_corners(footprint, headings.tolist(), distance))
        else:
            shapes = np.array([_run(footprint, float(h), distance).shape for h in headings],
                              dtype=object)
        after = shapely.distance(shapes[:, np.newaxis], enemy_shapes[np.newaxis, :])
        self.gains = gains = after - before[np.newaxis, :]
        worst = gains.min(axis=1)
        order = np.lexsort((-gains.sum(axis=1), -worst))
        self.order = order[worst[order] > _EPS]

    def option(self, i: int) -> Rout:
        """The rout along heading number ``i``."""
        end = _run(self.footprint, float(self.headings[i]), self.distance)
        return Rout(float(self.headings[i]), end,
                    tuple((e, float(g)) for e, g in zip(self.seen, self.gains[i], strict=True)),
                    not self.table.holds(end))


FLIGHT_STEP = 0.1
"""How far back along its way (in the table's measure) a move that would end on a unit is
tried at a time (``short_of_units``), before the exact point is found between the last two
tries."""


def short_of_units(table: Table, start: Footprint, end: Footprint,
                   step: float = FLIGHT_STEP) -> tuple[Footprint, str]:
    """Where a compulsory move (a rout, a retreat) from ``start`` straight to ``end`` stops
    so as to stand on no other unit, and the unit it would have ended on ("" if none):
    ``end`` itself when it stands on none, else the furthest point of its way short of that
    unit, keeping ``end``'s facing (it may move through units, never stop on one); where it
    stood (``start``) when no point of the way is clear. Units touching are not on each
    other: their insides must meet.

    The way is tried back from its end ``step`` at a time, and the exact point is found
    between the last two tries by halving; which tries stand on a unit is read off the
    stretches of the way where the unit's bases and each other unit's overlap (worked out
    in closed form, each base and unit being a rectangle), the geometry asked only of the
    few tries within a hair of a stretch's ends, so a step a tenth of a millimetre long
    costs nothing (issue 28). ``_short_of_units_stepped`` is the plain walk it equals."""
    check_number("step", step, 1e-6)
    (sx, sy), (ex, ey) = start.centre, end.centre
    length = math.dist(start.centre, end.centre)
    if length <= _EPS:
        return end, ""
    others = _in_the_way(table, start, end)
    ids = [uid for uid, _ in others]
    shapes = np.empty(len(others), dtype=object)
    shapes[:] = [shape for _, shape in others]

    def at(t: float) -> Footprint:
        share = t / length
        return end.moved_to(sx + (ex - sx) * share, sy + (ey - sy) * share)

    def stood_on(t: float) -> str:
        if not len(ids):
            return ""
        shape = at(t).shape if t < length else end.shape
        hits = np.flatnonzero(shapely.relate_pattern(shape, shapes, "T********"))
        return ids[int(hits[0])] if len(hits) else ""

    landed = stood_on(length)
    if not landed:
        return end, ""
    stretches = _stretches(start, end, length, [uid for uid, _ in others], table)
    hair = 1e-9 * (1.0 + length + abs(sx) + abs(sy) + abs(ex) + abs(ey))

    def on_some(t: float) -> bool:
        for lo, hi in stretches:
            if abs(t - lo) <= hair or abs(t - hi) <= hair:
                return bool(stood_on(t))  # too near a stretch's end to read it off
        return any(lo < t < hi for lo, hi in stretches)

    blocked = length
    clear = max(0.0, length - step)
    while on_some(clear):
        if clear <= 0.0:
            return start, landed
        blocked, clear = clear, max(0.0, clear - step)
    for _ in range(30):
        middle = (clear + blocked) / 2
        if on_some(middle):
            blocked = middle
        else:
            clear = middle
    return (at(clear) if clear > 0.0 else start), landed


def _short_of_units_stepped(table: Table, start: Footprint, end: Footprint,
                            step: float = FLIGHT_STEP) -> tuple[Footprint, str]:
    """``short_of_units`` as a plain walk: every try a footprint asked of every other unit
    (the reference it is tested against)."""
    check_number("step", step, 1e-6)
    others = [(f.unit_id, f.shape) for f in table.footprints if f.unit_id != start.unit_id]
    (sx, sy), (ex, ey) = start.centre, end.centre
    length = math.dist(start.centre, end.centre)

    def at(t: float) -> Footprint:
        share = t / length
        return end.moved_to(sx + (ex - sx) * share, sy + (ey - sy) * share)

    def stood_on(t: float) -> str:
        shape = at(t).shape if t < length else end.shape
        return next((uid for uid, other in others
                     if shapely.relate_pattern(shape, other, "T********")), "")

    if length <= _EPS:
        return end, ""
    landed = stood_on(length)
    if not landed:
        return end, ""
    blocked = length
    clear = max(0.0, length - step)
    while stood_on(clear):
        if clear <= 0.0:
            return start, landed
        blocked, clear = clear, max(0.0, clear - step)
    for _ in range(30):
        middle = (clear + blocked) / 2
        if stood_on(middle):
            blocked = middle
        else:
            clear = middle
    return (at(clear) if clear > 0.0 else start), landed


def _in_the_way(table: Table, start: Footprint, end: Footprint) -> list[tuple[str, Any]]:
    """The other units (id and shape, in the table's order) whose boxes meet the box round
    every place of the way from ``start`` to ``end`` (``end``'s facing all along): no other
    unit can be stood on."""
    x0, y0, x1, y1 = end.bounds
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2
    (sx, sy), (ex, ey) = start.centre, end.centre
    pad = _EPS * (1.0 + hx + hy + abs(sx) + abs(sy) + abs(ex) + abs(ey))
    lo_x, hi_x = min(sx, ex) - hx - pad, max(sx, ex) + hx + pad
    lo_y, hi_y = min(sy, ey) - hy - pad, max(sy, ey) + hy + pad
    return [(f.unit_id, f.shape) for f in table.footprints
            if f.unit_id != start.unit_id and (b := f.bounds)[0] <= hi_x and b[2] >= lo_x
            and b[1] <= hi_y and b[3] >= lo_y]


def _parts(footprint: Footprint) -> npt.NDArray[np.float64]:
    """The rectangles a footprint's shape is made of: its outline, or its bases standing
    apart, as corners (parts, 4, 2)."""
    if footprint.shape is footprint.outline:
        return footprint.corners[np.newaxis]
    return footprint.base_corners


def _stretches(start: Footprint, end: Footprint, length: float, unit_ids: list[str],
               table: Table) -> list[tuple[float, float]]:
    """The open stretches (from, to: distances along the way from ``start``'s centre to
    ``end``'s) where the unit, laid as ``end`` and moved along the way, shares ground with
    one of ``unit_ids``: for each rectangle of its and of theirs, where their projections
    overlap on every side's normal (two rectangles' insides meet exactly then)."""
    if not unit_ids:
        return []
    (sx, sy), (ex, ey) = start.centre, end.centre
    ux, uy = (ex - sx) / length, (ey - sy) / length
    mine = _parts(end) - (ex, ey) + (sx, sy)  # (m, 4, 2): the parts at the way's start
    theirs = np.concatenate([_parts(table.footprint(uid)) for uid in unit_ids])  # (o, 4, 2)
    found: list[tuple[float, float]] = []
    for p in mine:
        for q in theirs:
            lo, hi = -math.inf, math.inf
            for n in (*_normals(p), *_normals(q)):
                pa, qa = p @ n, q @ n
                w = ux * n[0] + uy * n[1]
                low, high = float(qa.min() - pa.max()), float(qa.max() - pa.min())
                if abs(w) <= 1e-12 * (abs(n[0]) + abs(n[1])):
                    if not low < 0.0 < high:
                        lo, hi = math.inf, -math.inf
                        break
                    continue
                a, b = low / w, high / w
                if a > b:
                    a, b = b, a
                lo, hi = max(lo, a), min(hi, b)
                if lo >= hi:
                    break
            if lo < hi:
                found.append((lo, hi))
    return found


def _normals(corners: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    """A rectangle's two side normals (from its corners in order)."""
    (ax, ay), (bx, by), (cx, cy) = corners[0], corners[1], corners[2]
    return np.array((ay - by, bx - ax)), np.array((by - cy, cx - bx))


def _run_corners(footprint: Footprint, headings: list[float],
                 distance: float) -> npt.NDArray[np.float64]:
    """The corners of ``_run``'s footprint for each heading (the same sums as
    ``Footprint.corners`` of it, without making the footprints), shape (headings, 4, 2)."""
    w, h = footprint.width / 2, footprint.length / 2
    rows = []
    for heading in headings:
        (dx, dy), _ = bearing_vectors(heading)
        x, y = footprint.x + dx * distance, footprint.y + dy * distance
        (fx, fy), (rx, ry) = bearing_vectors(normal_degrees(heading) % 360.0)
        wx, wy, hx, hy = w * rx, w * ry, h * fx, h * fy
        rows.append(((x - wx + hx, y - wy + hy), (x + wx + hx, y + wy + hy),
                     (x + wx - hx, y + wy - hy), (x - wx - hx, y - wy - hy)))
    return np.array(rows, dtype=float).reshape(len(headings), 4, 2)


def _run(footprint: Footprint, heading: float, distance: float) -> Footprint:
    (dx, dy), _ = bearing_vectors(heading)
    return footprint.moved_to(footprint.x + dx * distance, footprint.y + dy * distance,
                              normal_degrees(heading) % 360.0)


def _homeward(table: Table, footprint: Footprint) -> float:
    edge = table.home_edge(footprint.side)
    headings = {Edge.NEAR: 180.0, Edge.FAR: 0.0, Edge.LEFT: 270.0, Edge.RIGHT: 90.0}
    if edge is None:
        return normal_degrees(footprint.facing + 180.0) % 360.0
    return headings[edge]
