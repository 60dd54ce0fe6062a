"""Terrain as shapes with a kind: woods, rough ground, swamps, hills, rivers, streams, fords,
roads, bridges, fences, walls, buildings and fieldworks (with their strength points).

A feature is an area (``outline``: its corners) or a line (``line``: its centre line, with a
``width``). Streams, fences, walls and linear fieldworks are *crossed* (a move pays for
crossing them); every other feature is *entered* (a move pays for the ground inside it).
Rivers, roads, bridges and fords may be drawn as a centre line with a width, and are then the
area that line covers."""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Any

import attrs
import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from smoothbore.core import InvalidValueError, NamedEnum
from smoothbore.core.validate import finite, in_range, maybe, text

from .footprints import MAX_COORDINATE, Footprint, Point
from .store import Stores

__all__ = ["LINEAR_KINDS", "MAX_LEVEL", "MAX_STRENGTH", "Feature", "TerrainKind", "terrain_kind"]


class TerrainKind(NamedEnum):
    """The kinds of ground the rule books name (printed as their words)."""

    LIGHT_WOODS = "light woods"
    DENSE_WOODS = "dense woods"
    ROUGH = "rough ground"
    SWAMP = "swamp"
    GENTLE_HILL = "gentle hill"
    STEEP_HILL = "steep hill"
    IMPASSABLE = "impassable ground"
    RIVER = "river"
    STREAM = "stream"
    FORD = "ford"
    ROAD = "road"
    BRIDGE = "bridge"
    FENCE = "fence"
    WALL = "wall"
    BUILDING = "building"
    FIELDWORK = "fieldwork"

    @property
    def is_hill(self) -> bool:
        """A gentle or steep hill (these have a level)."""
        return self is TerrainKind.GENTLE_HILL or self is TerrainKind.STEEP_HILL

    @property
    def is_woods(self) -> bool:
        """Light or dense woods."""
        return self is TerrainKind.LIGHT_WOODS or self is TerrainKind.DENSE_WOODS

    @property
    def has_strength(self) -> bool:
        """Buildings, fieldworks and bridges may carry strength points (Will's works)."""
        return self in (TerrainKind.BUILDING, TerrainKind.FIELDWORK, TerrainKind.BRIDGE)


LINEAR_KINDS = frozenset(
    {TerrainKind.STREAM, TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.FIELDWORK})
"""Kinds that may be drawn as a line and are then crossed, not entered."""
_BANDS = frozenset({TerrainKind.RIVER, TerrainKind.ROAD, TerrainKind.BRIDGE, TerrainKind.FORD})
"""Kinds that may be drawn as a centre line with a width, and are then areas."""
_LINE_ONLY = frozenset({TerrainKind.STREAM, TerrainKind.FENCE, TerrainKind.WALL})
_ALLOWED_KINDS = ", ".join(repr(k.value) for k in TerrainKind)


def terrain_kind(value: object, field: str = "kind") -> TerrainKind:
    """``value`` as a TerrainKind (the member or its words, as "dense woods")."""
    if isinstance(value, TerrainKind):
        return value
    if isinstance(value, str):
        for kind in TerrainKind:
            if kind.value == value or kind.name == value.upper().replace(" ", "_"):
                return kind
    raise InvalidValueError(field, value, "one of " + _ALLOWED_KINDS)


def _kind(value: object) -> TerrainKind:
    return terrain_kind(value, "Feature.kind")


_POINT = (f"an (x, y) pair of finite numbers from {-MAX_COORDINATE:,.0f} to "
          f"{MAX_COORDINATE:,.0f} (MAX_COORDINATE)")
MAX_LEVEL = 100
"""The highest hill level (steps above the ground): far above any table's hills."""
MAX_STRENGTH = 10_000
"""The most strength points a building, fieldwork or bridge may carry (the books give a
handful)."""


def _points(minimum: int) -> Any:
    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        name = f"Feature.{attribute.name}"
        if not isinstance(value, tuple):
            raise InvalidValueError(name, value, "a tuple of (x, y) points")
        if value and len(value) < minimum:
            raise InvalidValueError(name, value, f"at least {minimum} (x, y) points")
        for point in value:
            if not (isinstance(point, tuple) and len(point) == 2):
                raise InvalidValueError(name, point, _POINT)
            for item in point:
                if (isinstance(item, bool) or not isinstance(item, int | float)
                        or not -MAX_COORDINATE <= item <= MAX_COORDINATE):  # NaN fails too
                    raise InvalidValueError(name, point, _POINT)

    return validate


def _tuple_points(value: Any) -> Any:
    """Lists of lists become tuples of pairs (anything else is left for the validator)."""
    if isinstance(value, list | tuple):
        return tuple(tuple(p) if isinstance(p, list | tuple) else p for p in value)
    return value


@attrs.frozen(cache_hash=True)
class Feature:
    """One terrain feature: ``kind``, and either an ``outline`` (an area's corners, at least
    3) or a ``line`` (a centre line, at least 2 points) of ``width`` (0: a thin line such as
    a fence). ``strength``: the strength points of a building, fieldwork or bridge (Will's
    Defence Values); ``level``: a hill's height in steps above the ground (1 for a hill,
    2 for a hill on a hill)."""

    feature_id: str = attrs.field(validator=text())
    kind: TerrainKind = attrs.field(converter=_kind)
    outline: tuple[Point, ...] = attrs.field(
        default=(), converter=_tuple_points, validator=_points(3))
    line: tuple[Point, ...] = attrs.field(
        default=(), converter=_tuple_points, validator=_points(2))
    width: float = attrs.field(default=0.0, validator=finite(0, MAX_COORDINATE))
    strength: int | None = attrs.field(default=None,
                                       validator=maybe(in_range(0, MAX_STRENGTH)))
    level: int = attrs.field(default=1, validator=in_range(1, MAX_LEVEL))
    label: str = attrs.field(default="", validator=text(empty=True))

    def __attrs_post_init__(self) -> None:
        kind = self.kind
        if bool(self.outline) == bool(self.line):
            raise InvalidValueError(
                "Feature.outline", self.outline, "an outline or a line, exactly one of them")
        if self.line and kind not in LINEAR_KINDS | _BANDS:
            raise InvalidValueError(
                "Feature.line", self.line,
                f"no line for {kind.value} (an area: give its outline); lines are for "
                + ", ".join(sorted(k.value for k in LINEAR_KINDS | _BANDS)))
        if self.outline and kind in _LINE_ONLY:
            raise InvalidValueError(
                "Feature.outline", self.outline, f"no outline for a {kind.value}: give its line")
        if self.line and kind in _BANDS and self.width <= 0:
            raise InvalidValueError(
                "Feature.width", self.width, f"a width greater than 0 for a {kind.value} line")
        if self.strength is not None and not kind.has_strength:
            raise InvalidValueError(
                "Feature.strength", self.strength,
                "None, except for a building, fieldwork or bridge")
        if self.level != 1 and not kind.is_hill:
            raise InvalidValueError("Feature.level", self.level, "1, except for a hill")
        if self.outline:
            polygon = self.area
            if not polygon.is_valid or polygon.area <= 0:
                raise InvalidValueError(
                    "Feature.outline", self.outline,
                    "corners of a simple polygon with an area (no crossing sides)")

    @property
    def crossed(self) -> bool:
        """A line that moves cross (stream, fence, wall, linear fieldwork), not an area."""
        return bool(self.line) and self.kind in LINEAR_KINDS

    @functools.cached_property
    def area(self) -> BaseGeometry:
        """The ground the feature covers: its outline, or its line widened to ``width``
        (flat ends); a thin line is just the line."""
        if self.outline:
            return Polygon(self.outline)
        line = LineString(self.line)
        if self.width > 0:
            return shapely.buffer(line, self.width / 2, cap_style="flat", join_style="mitre")
        return line

    @functools.cached_property
    def centre_line(self) -> LineString | None:
        """The line a move crosses, for a crossed feature (None for areas)."""
        return LineString(self.line) if self.crossed else None

    def scaled(self, factor: float) -> Feature:
        """The feature with every coordinate and its width multiplied by ``factor``."""
        return attrs.evolve(
            self,
            outline=tuple((x * factor, y * factor) for x, y in self.outline),
            line=tuple((x * factor, y * factor) for x, y in self.line),
            width=self.width * factor,
        )

    @classmethod
    def rectangle(cls, feature_id: str, kind: TerrainKind | str, x: float, y: float,
                  width: float, depth: float, *, facing: float = 0.0,
                  strength: int | None = None, level: int = 1, label: str = "") -> Feature:
        """An area ``width`` x ``depth`` centred on (x, y), its ``width`` across ``facing``
        (a building, a redoubt, a field)."""
        corners = Footprint("_", x, y, facing, 1, width, depth).corners  # the same rectangle
        outline = tuple((float(px), float(py)) for px, py in corners)
        return cls(feature_id, terrain_kind(kind), outline=outline, strength=strength,
                   level=level, label=label)


MOST_REMEMBERED = 4096
"""How many footprint answers a terrain index keeps (``TerrainIndex.remember``)."""
MOST_KINDS = 64
"""How many sets of kinds (their features, trees and sight blockers) an index keeps."""
TERRAIN_STORE = "table: terrain"
"""The store of a table's line where its terrain index remembers footprints' answers."""
TERRAIN_KINDS_STORE = "table: terrain kinds"
"""... and the features, trees and sight blockers of each set of kinds asked."""


class TerrainIndex:
    """The features of a table arranged for queries: areas and crossed lines in spatial
    trees, and the union of each kind's areas. A table's line builds one (``Table.terrain``)
    and hands it on to every table made from it; what it remembers (answers that read one
    footprint and this ground; the features of a set of kinds) is kept in that line's stores
    (``TERRAIN_STORE``, ``TERRAIN_KINDS_STORE``), never in the process."""

    __slots__ = (
        "_answers",
        "_hill_levels",
        "_kept",
        "area_features",
        "area_tree",
        "areas",
        "by_id",
        "crossed_features",
        "line_tree",
        "lines",
        "unions",
    )

    def __init__(self, features: tuple[Feature, ...], stores: Stores | None = None) -> None:
        self.by_id = {f.feature_id: f for f in features}
        self.area_features = tuple(f for f in features if not f.crossed)
        self.areas = np.array([f.area for f in self.area_features], dtype=object)
        self.area_tree = shapely.STRtree(self.areas)
        self._hill_levels = np.fromiter(
            (f.level if f.kind.is_hill else 0 for f in self.area_features), np.intp,
            len(self.area_features))
        self.crossed_features = tuple(f for f in features if f.crossed)
        self.lines = np.array([f.centre_line for f in self.crossed_features], dtype=object)
        self.line_tree = shapely.STRtree(self.lines)
        unions: dict[TerrainKind, BaseGeometry] = {}
        for kind in TerrainKind:
            shapes = [f.area for f in features if f.kind is kind]
            if shapes:
                unions[kind] = shapely.union_all(shapes)
        self.unions = unions
        for union in unions.values():
            shapely.prepare(union)
        if stores is None:  # an index of its own (a test, a caller's features)
            stores = Stores()
        self._answers = stores.get(TERRAIN_STORE, MOST_REMEMBERED)
        self._kept = stores.get(TERRAIN_KINDS_STORE, MOST_KINDS, MOST_KINDS)

    def recalled(self, key: Hashable) -> Any:
        """What was remembered under ``key`` (None: nothing): answers that read only one
        footprint and this ground, kept for whichever table of the line the footprint
        stands on next."""
        return self._answers.get(key)

    def remember(self, key: Hashable, answer: Any) -> None:
        """Keep ``answer`` under ``key`` (a footprint's answer; at most
        ``MOST_REMEMBERED``, the oldest forgotten first)."""
        self._answers.put(key, answer)

    def subset(self, kinds: frozenset[TerrainKind]) -> tuple[tuple[Feature, ...], Any, Any]:
        """The features of these kinds, their shapes (lines for crossed features, areas
        otherwise) as an array, and a spatial tree of them (remembered per set of kinds)."""
        found: tuple[tuple[Feature, ...], Any, Any] = self._kept.ask(
            (_SUBSET, kinds), functools.partial(self._subset, kinds))
        return found

    def _subset(self, kinds: frozenset[TerrainKind]) -> tuple[tuple[Feature, ...], Any, Any]:
        chosen = tuple(f for f in self.by_id.values() if f.kind in kinds)
        geoms = np.array([f.centre_line if f.crossed else f.area for f in chosen],
                         dtype=object)
        return chosen, geoms, shapely.STRtree(geoms)

    def union(self, kind: TerrainKind) -> BaseGeometry | None:
        """Everything of ``kind`` as one shape (None: the table has none)."""
        return self.unions.get(kind)

    def kinds_at(self, x: float, y: float) -> frozenset[TerrainKind]:
        """The kinds of area at a point (fords and bridges hide the river or stream there;
        once for each point on this ground, ``remember``: units that stay put are asked
        again on every table)."""
        key = (_KINDS, x, y)
        found: frozenset[TerrainKind] | None = self._answers.get(key)
        if found is None:
            hits = self.area_tree.query(shapely.Point(x, y), predicate="intersects")
            found = mask_crossings(frozenset(self.area_features[i].kind for i in hits))
            self.remember(key, found)
        return found

    def levels_at(self, points: Any) -> Any:
        """The ground's height at each of an (n, 2) array of points."""
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        levels = np.zeros(len(points), dtype=np.intp)
        if len(points) and _any(self._hill_levels):  # no hill: level ground everywhere
            i, k = self.area_tree.query(shapely.points(points), predicate="intersects")
            if len(i) > _FEW:
                np.maximum.at(levels, i, self._hill_levels[k])
            else:  # the same highest level, without the cost of a ufunc's ``at`` call
                for at, level in zip(i.tolist(), self._hill_levels[k].tolist(), strict=True):
                    if level > levels[at]:
                        levels[at] = level
        return levels

    def blockers(self, kinds: frozenset[TerrainKind], hills: bool) -> Blockers:
        """The features that block sight: those of ``kinds``, and hills when ``hills``
        (remembered per choice)."""
        found: Blockers = self._kept.ask((_BLOCKERS, kinds, hills),
                                         functools.partial(self._blockers, kinds, hills))
        return found

    def _blockers(self, kinds: frozenset[TerrainKind], hills: bool) -> Blockers:
        chosen = tuple(f for f in self.area_features
                       if f.kind in kinds or (hills and f.kind.is_hill))
        return Blockers(chosen, hills and not (kinds & _HILLS))

    def level_at(self, x: float, y: float) -> int:
        """The ground's height at a point: the highest level of the hills there (0: none)."""
        point = shapely.Point(x, y)
        hits = self.area_tree.query(point, predicate="intersects")
        return max((self.area_features[i].level for i in hits
                    if self.area_features[i].kind.is_hill), default=0)


_HILLS = frozenset({TerrainKind.GENTLE_HILL, TerrainKind.STEEP_HILL})
_KINDS = "terrain: kinds at a point"
_SUBSET = "terrain: features of kinds"
_BLOCKERS = "terrain: sight blockers"
_any = np.logical_or.reduce
_FEW = 16
"""Up to this many (point, hill) hits, the highest level at each point is found in plain
Python (cheaper than ``np.maximum.at`` on a few)."""


class Blockers:
    """Features that block sight, arranged for sifting many lines at once: their areas,
    the same shrunk by a hair (prepared), bounding circles, levels, and a spatial tree.
    ``hills_by_level``: hills block only lines between lower ground."""

    __slots__ = ("centres", "features", "geoms", "hill", "hills_by_level", "inner", "levels",
                 "radii", "tree")

    def __init__(self, features: tuple[Feature, ...], hills_by_level: bool) -> None:
        self.features = features
        self.hills_by_level = hills_by_level
        self.geoms = np.array([f.area for f in features], dtype=object)
        bounds = np.asarray(shapely.bounds(self.geoms), dtype=float).reshape(-1, 4)
        self.centres = (bounds[:, :2] + bounds[:, 2:]) / 2
        self.radii = np.hypot(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1]) / 2
        size = float(np.abs(bounds).max(initial=1.0))
        self.inner = np.asarray(
            shapely.buffer(self.geoms, -1e-7 * (1.0 + size), join_style="mitre"), dtype=object)
        shapely.prepare(self.inner)
        shapely.prepare(self.geoms)
        self.hill = np.fromiter((f.kind.is_hill for f in features), bool, len(features))
        self.levels = np.fromiter((f.level for f in features), np.intp, len(features))
        self.tree = shapely.STRtree(self.geoms)


_CROSSINGS = frozenset({TerrainKind.FORD, TerrainKind.BRIDGE})
_WATER = frozenset({TerrainKind.RIVER, TerrainKind.STREAM})


def mask_crossings(kinds: frozenset[TerrainKind]) -> frozenset[TerrainKind]:
    """Where a ford or bridge is, the river or stream it crosses does not count."""
    if kinds & _CROSSINGS and kinds & _WATER:
        return kinds - _WATER
    return kinds


def terrain_index(features: tuple[Feature, ...]) -> TerrainIndex:
    """A new index of a set of features, remembering nothing yet (nothing is kept in the
    process: a table's own is ``Table.terrain``, built once for its line of tables)."""
    return TerrainIndex(features)
