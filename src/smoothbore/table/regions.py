"""Areas and lines of the table, in the words of the game: the ground a unit's bases cover,
the ground a straight move sweeps, a strip ahead of a front, a road's line, a point where a
commander stands. Rule books ask these questions of the table, never of a geometry library:
how far apart two things are, whether they share ground (their interiors overlap) or only
touch (they meet, interiors apart), what ground a move sweeps, where the nearest points are.

A ``Region`` is opaque: it is made by the functions here (``region_of``, ``hull_of``,
``polygon``, ``segment``, ``line``, ``point``...) and by its own methods, pickles, and never
shows the geometry underneath (Shapely's today) in a signature. Wherever a method takes
``other``, that may be a Region, a ``Footprint`` (the ground its bases cover, its ``shape``),
a terrain ``Feature`` (the ground it covers, its ``area``) or a point ``(x, y)``.

Batch first: ``gaps``, ``sharing_ground``, ``within_of``, ``intersecting`` and ``nearest_of``
answer for many things in one call, and ``Regions`` holds many areas at once (one spatial
index, one vectorised call per question); a rule that asks about one neighbour at a time in a
loop should ask here once instead."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from smoothbore.core import InvalidValueError

from .cover import OBSTACLES
from .footprints import Face, Footprint, Point
from .sight import arc_polygon
from .terrain import Feature, TerrainKind

if TYPE_CHECKING:
    from .tabletop import Edge, Table

__all__ = [
    "Place",
    "Region",
    "Regions",
    "arc_of",
    "area_shares",
    "crossing_line",
    "edge_of",
    "edges_of_ground",
    "gaps",
    "ground_of",
    "holding",
    "hull_of",
    "intersecting",
    "line",
    "nearest_many",
    "nearest_of",
    "outline_of",
    "point",
    "polygon",
    "region_of",
    "regions_of",
    "segment",
    "sharing_ground",
    "swept",
    "table_edge",
    "union_of",
    "within_of",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_INTERIORS_MEET = "T********"
"""The DE-9IM pattern of two shapes whose interiors share ground."""

_PLACE = "a Region, a Footprint, a terrain Feature or a point (x, y) of two finite numbers"


@attrs.frozen(eq=False, repr=False)
class Region:
    """An area, a line or a point of the table (or several of them, or none). Made by
    ``region_of``, ``hull_of``, ``polygon``, ``segment``, ``line``, ``point`` and by the
    methods of other regions; compared by value (the same corners in the same order)."""

    _geometry: BaseGeometry = attrs.field(alias="geometry")

    # -- what it is ------------------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        """Nothing at all (the intersection of regions apart, say)."""
        return bool(self._geometry.is_empty)

    @property
    def area(self) -> float:
        """Its area (0 for a line or a point)."""
        return float(self._geometry.area)

    @property
    def length(self) -> float:
        """Its length: a line's, or the perimeter of an area."""
        return float(self._geometry.length)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y); NaNs for an empty region."""
        x0, y0, x1, y1 = self._geometry.bounds
        return (float(x0), float(y0), float(x1), float(y1))

    @property
    def coordinates(self) -> FloatArray:
        """Every corner (vertex) as an (n, 2) array, read-only: an area's ring closes on its
        first corner again."""
        found = shapely.get_coordinates(self._geometry)
        found.setflags(write=False)
        return found

    @property
    def centre(self) -> Point:
        """Its centroid (the middle of a line, the point itself)."""
        c = self._geometry.centroid
        return (float(c.x), float(c.y))

    # -- points in it ----------------------------------------------------------------------

    def contains(self, x: float, y: float, *, edge: bool = False) -> bool:
        """Whether (x, y) lies inside it (``edge``: or on its boundary)."""
        if edge:
            return bool(shapely.intersects_xy(self._geometry, x, y))
        return bool(shapely.contains_xy(self._geometry, x, y))

    def contains_many(self, xs: npt.ArrayLike, ys: npt.ArrayLike, *,
                      edge: bool = False) -> BoolArray:
        """``contains`` for many points at once (arrays of the same shape)."""
        x = np.asarray(xs, dtype=float)
        y = np.asarray(ys, dtype=float)
        if edge:
            return np.asarray(shapely.intersects_xy(self._geometry, x, y), dtype=bool)
        return np.asarray(shapely.contains_xy(self._geometry, x, y), dtype=bool)

    # -- against another place -------------------------------------------------------------

    def distance(self, other: Place) -> float:
        """The shortest distance between them (0 when they meet)."""
        return float(shapely.distance(self._geometry, _geometry(other)))

    def within(self, other: Place, d: float) -> bool:
        """Whether they come within ``d`` of each other (closer than or exactly ``d``)."""
        return bool(shapely.dwithin(self._geometry, _geometry(other), d))

    def intersects(self, other: Place) -> bool:
        """Whether they have any point in common (touching counts)."""
        return bool(shapely.intersects(self._geometry, _geometry(other)))

    def shares_ground(self, other: Place) -> bool:
        """Whether their interiors overlap: two areas sharing some ground, or a line running
        through an area's inside (a move through a unit, not past its edge)."""
        return bool(shapely.relate_pattern(self._geometry, _geometry(other), _INTERIORS_MEET))

    def touches(self, other: Place) -> bool:
        """Whether they meet with their interiors apart (units in base contact)."""
        return bool(shapely.touches(self._geometry, _geometry(other)))

    def covers(self, other: Place) -> bool:
        """Whether no point of ``other`` lies outside it."""
        return bool(shapely.covers(self._geometry, _geometry(other)))

    def shared_area(self, other: Place) -> float:
        """The area of the ground they share."""
        return float(shapely.area(shapely.intersection(self._geometry, _geometry(other))))

    def nearest(self, other: Place) -> tuple[Point, Point]:
        """The nearest points: (the one on this region, the one on ``other``)."""
        a, b = shapely.get_coordinates(
            shapely.shortest_line(self._geometry, _geometry(other))).tolist()
        return (a[0], a[1]), (b[0], b[1])

    # -- new regions -----------------------------------------------------------------------

    def union(self, *others: Place) -> Region:
        """The ground of this region and every other."""
        if not others:
            return self
        return Region(shapely.union_all([self._geometry, *map(_geometry, others)]))

    def intersection(self, other: Place) -> Region:
        """The ground they share (lines: the stretch or the points where they cross)."""
        return Region(shapely.intersection(self._geometry, _geometry(other)))

    def difference(self, other: Place) -> Region:
        """This region less ``other``."""
        return Region(shapely.difference(self._geometry, _geometry(other)))

    def buffered(self, d: float, *, square: bool = False) -> Region:
        """Every point within ``d`` of it (``d`` < 0: the region shrunk by ``-d``);
        ``square``: corners kept sharp (mitred), else rounded (8 segments a quarter)."""
        if square:
            return Region(shapely.buffer(self._geometry, d, join_style="mitre"))
        return Region(shapely.buffer(self._geometry, d, quad_segs=8))

    def hull(self) -> Region:
        """Its convex hull (the ground a rope round it encloses)."""
        return Region(shapely.convex_hull(self._geometry))

    def boundary(self) -> Region:
        """Its edge: an area's ring(s), a line's two ends."""
        return Region(shapely.boundary(self._geometry))

    # -- value semantics -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Region):
            return NotImplemented
        return bool(shapely.equals_exact(self._geometry, other._geometry, 0.0))

    def __hash__(self) -> int:
        # + 0.0: -0.0 and 0.0 are the same corner (equal regions hash alike)
        return hash((self._geometry.geom_type, (self.coordinates + 0.0).tobytes()))

    def __repr__(self) -> str:
        g = self._geometry
        if g.is_empty:
            return "Region(empty)"
        x0, y0, x1, y1 = self.bounds
        return (f"Region({g.geom_type.lower()}, bounds=({x0:g}, {y0:g}, {x1:g}, {y1:g}), "
                f"area={self.area:g})")


Place = Region | Footprint | Feature | tuple[float, float]
"""Where a question may be asked about: a Region, a Footprint (the ground its bases cover),
a terrain Feature (the ground it covers) or a point (x, y)."""


def _geometry(place: object, field: str = "other") -> BaseGeometry:
    """The geometry under a place (see ``Place``)."""
    kind = type(place)
    if kind is Region:
        return cast(Region, place)._geometry
    if kind is Footprint:
        return cast(Footprint, place).shape
    if kind is Feature:
        return cast(Feature, place).area
    if kind is tuple and len(cast(tuple[Any, ...], place)) == 2:
        x, y = cast(tuple[Any, Any], place)
        if _finite(x) and _finite(y):
            return _point(float(x), float(y))
    if isinstance(place, Region):
        return place._geometry
    raise InvalidValueError(field, place, _PLACE)


def _one(made: object) -> BaseGeometry:
    # Shapely's constructors are typed "one geometry or an array"; here always one
    return cast(BaseGeometry, made)


def _finite(value: object) -> bool:
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, bool) and math.isfinite(value))


def _point(x: float, y: float) -> BaseGeometry:
    return shapely.Point(x, y)


def _geometries(places: Iterable[Place], field: str) -> npt.NDArray[np.object_]:
    """The geometries of many places as one array (footprints' shapes, regions'...)."""
    found = [_geometry(p, field) for p in places]
    array = np.empty(len(found), dtype=object)
    array[:] = found
    return array


def _array(made: object) -> npt.NDArray[np.object_]:
    found: npt.NDArray[np.object_] = np.asarray(made, dtype=object).reshape(-1)
    return found


def _rows_of_points(points: npt.ArrayLike, field: str) -> FloatArray:
    array = np.asarray(points, dtype=float)
    if array.ndim != 2 or array.shape[1] != 2 or not np.isfinite(array).all():
        raise InvalidValueError(field, points, "an (n, 2) array of finite points")
    return array


def _points(points: Iterable[Any], field: str) -> FloatArray:
    try:
        array = np.asarray([(float(x), float(y)) for x, y in points], dtype=float)
    except (TypeError, ValueError):
        raise InvalidValueError(field, points, "points (x, y) of finite numbers") from None
    if array.size and not np.isfinite(array).all():
        raise InvalidValueError(field, points, "points (x, y) of finite numbers")
    return array.reshape(-1, 2)


# -- making regions ---------------------------------------------------------------------------

def region_of(place: Place) -> Region:
    """The region of a place: a footprint's ground (what its bases cover; skirmishers' bases
    apart), a terrain feature's ground (a road with its width, a fence's line), a point."""
    if isinstance(place, Region):
        return place
    return Region(_geometry(place, "place"))


def outline_of(footprint: Footprint) -> Region:
    """A footprint's outer rectangle, flank to flank and front to rear (skirmishers' gaps
    included)."""
    if not isinstance(footprint, Footprint):
        raise InvalidValueError("footprint", footprint, "a Footprint")
    return Region(footprint.outline)


def point(x: float, y: float) -> Region:
    """A point of the table."""
    if not (_finite(x) and _finite(y)):
        raise InvalidValueError("point", (x, y), "two finite numbers (x, y)")
    return Region(_point(float(x), float(y)))


def segment(a: Point, b: Point) -> Region:
    """The straight line from ``a`` to ``b`` (a line of fire, a path's leg)."""
    ends = _points((a, b), "segment")
    return Region(_one(shapely.linestrings(ends)))


def line(points: Sequence[Point]) -> Region:
    """A line through ``points`` in order (at least two)."""
    array = _points(points, "line")
    if len(array) < 2:
        raise InvalidValueError("line", points, "at least two points (x, y)")
    return Region(_one(shapely.linestrings(array)))


def polygon(points: Sequence[Point]) -> Region:
    """The area inside the corners ``points`` (at least three, in order round it)."""
    array = _points(points, "polygon")
    if len(array) < 3:
        raise InvalidValueError("polygon", points, "at least three corners (x, y)")
    return Region(_one(shapely.polygons(array)))


def _corners(place: Any, field: str) -> FloatArray:
    if type(place) is Footprint:
        corners: FloatArray = place.corners
        return corners
    if type(place) is tuple and len(place) == 2 and _finite(place[0]) and _finite(place[1]):
        return np.array([place], dtype=float)
    if isinstance(place, (Region, Feature)):
        return shapely.get_coordinates(_geometry(place, field))
    raise InvalidValueError(field, place, _PLACE)


def hull_of(*places: Place) -> Region:
    """The convex hull of footprints (their outlines' corners), points and regions: the
    ground a straight move sweeps is ``hull_of(before, after)``."""
    if not places:
        raise InvalidValueError("places", places, "at least one footprint, point or region")
    corners = np.concatenate([_corners(p, "places") for p in places])
    return Region(_one(shapely.convex_hull(shapely.multipoints(corners))))


def swept(start: Footprint, end: Footprint) -> Region:
    """The ground a unit sweeps moving straight from ``start`` to ``end`` (keeping its
    facing, or turning where the hull of the two outlines covers the turn)."""
    return Region(_one(shapely.convex_hull(
        shapely.multipoints(np.concatenate([start.corners, end.corners])))))


def union_of(places: Iterable[Place]) -> Region:
    """The ground of all of them together (empty for none)."""
    found = _geometries(places, "places")
    return Region(shapely.union_all(found))


def edge_of(footprint: Footprint, face: Face) -> Region:
    """One edge of a footprint's outline (the front runs left to right, the others round
    clockwise)."""
    if not isinstance(footprint, Footprint):
        raise InvalidValueError("footprint", footprint, "a Footprint")
    if not isinstance(face, Face):
        raise InvalidValueError("face", face, "one of " + ", ".join(repr(f.value) for f in Face))
    return Region(footprint.edge(face))


def crossing_line(feature: Feature) -> Region | None:
    """The line a move crosses, for a crossed feature (stream, fence, wall, linear
    fieldwork); None for a feature that is entered."""
    found = feature.centre_line
    return None if found is None else Region(found)


def ground_of(table: Table, *kinds: TerrainKind) -> Region:
    """The ground of the table's features of these kinds, together (empty when it has
    none)."""
    shapes = [g for g in (table.terrain.union(k) for k in kinds) if g is not None]
    if len(shapes) == 1:
        return Region(shapes[0])
    return Region(shapely.union_all(shapes) if shapes else shapely.Polygon())


def edges_of_ground(table: Table) -> Region:
    """The edges of every area of the table's terrain and every line a move crosses, as one
    region (empty on a bare table): where a unit's centre changes ground or meets a
    passage (a move whose centre's path stays clear of these stays on one ground)."""
    return table.derived(_edges_of_ground)


def _edges_of_ground(table: Table) -> Region:
    terrain = table.terrain
    parts = [*shapely.boundary(terrain.areas).tolist(), *terrain.lines.tolist()]
    if not parts:
        return Region(shapely.Polygon())
    union = _one(shapely.union_all(parts))
    shapely.prepare(union)
    return Region(union)


def table_edge(table: Table, edge: Edge) -> Region:
    """One edge of the table as a line."""
    return Region(table.edge_line(edge))


def arc_of(table: Table, unit_id: str, half_angle: float = 45.0,
           length: float | None = None) -> Region:
    """The ground of a unit's arc of fire, ``length`` long (None: across the table), from its
    front edge out at ``half_angle`` degrees either side of its facing (below 90)."""
    return Region(arc_polygon(table, unit_id, half_angle, length))


# -- many at once ----------------------------------------------------------------------------

def gaps(place: Place, others: Sequence[Place]) -> FloatArray:
    """The shortest distance from ``place`` to each of ``others``, in one call."""
    target = _geometry(place, "place")
    if not len(others):
        return np.zeros(0)
    return np.asarray(shapely.distance(target, _geometries(others, "others")), dtype=float)


def within_of(place: Place, others: Sequence[Place], d: float) -> BoolArray:
    """For each of ``others``: whether it comes within ``d`` of ``place``."""
    target = _geometry(place, "place")
    if not len(others):
        return np.zeros(0, dtype=bool)
    return np.asarray(shapely.dwithin(target, _geometries(others, "others"), d), dtype=bool)


def intersecting(place: Place, others: Sequence[Place]) -> BoolArray:
    """For each of ``others``: whether it has any point in common with ``place``."""
    target = _geometry(place, "place")
    if not len(others):
        return np.zeros(0, dtype=bool)
    return np.asarray(shapely.intersects(target, _geometries(others, "others")), dtype=bool)


def sharing_ground(place: Place, footprints: Iterable[Footprint], *,
                   outlines: bool = False) -> tuple[str, ...]:
    """The ids of the footprints whose ground (``outlines``: outer rectangle) shares ground
    with ``place`` (interiors overlapping; touching is not sharing), in the order given."""
    fps = tuple(footprints)
    if not fps:
        return ()
    target = _geometry(place, "place")
    shapes = np.empty(len(fps), dtype=object)
    shapes[:] = [f.outline if outlines else f.shape for f in fps]
    hit = shapely.relate_pattern(target, shapes, _INTERIORS_MEET)
    return tuple(f.unit_id for f, h in zip(fps, np.asarray(hit).tolist(), strict=True) if h)


def nearest_of(place: Place, others: Sequence[Place]) -> tuple[int, float]:
    """Which of ``others`` lies nearest ``place`` (its index; the first of equals) and how
    far; ``others`` must not be empty."""
    if not len(others):
        raise InvalidValueError("others", others, "at least one place")
    found = gaps(place, others)
    k = int(np.argmin(found))
    return k, float(found[k])


def nearest_many(points: npt.ArrayLike, places: Sequence[Place]) -> tuple[FloatArray,
                                                                          FloatArray]:
    """For each point ((n, 2)) and the place in the same row: the shortest distance and
    the shortest line's ends, (n, 2, 2): the point, then the place's nearest point (a
    firer's centre to each target's nearest base)."""
    xy = _rows_of_points(points, "points")
    if len(xy) != len(places):
        raise InvalidValueError("places", places, f"as many places as points ({len(xy)})")
    if not len(xy):
        return np.zeros(0), np.zeros((0, 2, 2))
    lines = shapely.shortest_line(shapely.points(xy), _geometries(places, "places"))
    lengths = np.asarray(shapely.length(lines), dtype=float)
    return lengths, shapely.get_coordinates(lines).reshape(-1, 2, 2)


def area_shares(table: Table, footprint: Footprint,
                kinds: Iterable[TerrainKind]) -> dict[TerrainKind, float]:
    """The share of the footprint's outline in each of ``kinds`` of area (0 where none):
    each area of the kind it meets adds the area they share over the outline's, in the
    order the terrain's index finds them."""
    wanted = frozenset(kinds)
    shares = dict.fromkeys(sorted(wanted, key=lambda k: k.value), 0.0)
    terrain = table.terrain
    if not len(terrain.areas):
        return shares
    outline = footprint.outline
    for k in terrain.area_tree.query(outline, predicate="intersects").tolist():
        feature = terrain.area_features[k]
        if feature.kind in wanted:
            shares[feature.kind] += shapely.area(
                shapely.intersection(outline, feature.area)) / outline.area
    return shares


def holding(table: Table, x: float, y: float,
            kinds: Iterable[TerrainKind]) -> Feature | None:
    """The first area of ``kinds`` (in the order the terrain's index finds them) whose
    inside holds the point (a unit's centre in a building or a work); None for none."""
    wanted = frozenset(kinds)
    terrain = table.terrain
    if not len(terrain.areas):
        return None
    for k in terrain.area_tree.query(_point(float(x), float(y)),
                                     predicate="intersects").tolist():
        feature: Feature = terrain.area_features[k]
        if feature.kind in wanted and shapely.contains_xy(feature.area, x, y):
            return feature
    return None


def regions_of(places: Iterable[Place], *, outlines: bool = False) -> Regions:
    """Many places as one ``Regions`` (footprints: their ground, or ``outlines``)."""
    items = tuple(places)
    array = np.empty(len(items), dtype=object)
    array[:] = [p.outline if outlines and type(p) is Footprint else _geometry(p, "places")
                for p in items]
    return Regions(array)


@attrs.frozen(eq=False)
class Regions:
    """Many regions at once, each question answered for all of them in one call, with a
    spatial index built the first time a question needs one. Index ``i`` is the ``i``-th
    place given to ``regions_of``."""

    _geometries: npt.NDArray[np.object_] = attrs.field(alias="geometries", repr=False)

    def __len__(self) -> int:
        return len(self._geometries)

    def __getitem__(self, i: int) -> Region:
        return Region(self._geometries[i])

    @classmethod
    def segments(cls, starts: npt.ArrayLike, ends: npt.ArrayLike) -> Regions:
        """A straight line from each start to the end in the same row ((n, 2) arrays)."""
        a = _rows_of_points(starts, "starts")
        b = _rows_of_points(ends, "ends")
        if a.shape != b.shape:
            raise InvalidValueError("ends", ends, f"as many points as starts ({len(a)})")
        return cls(_array(shapely.linestrings(np.stack([a, b], axis=1))) if len(a)
                   else np.empty(0, dtype=object))

    @classmethod
    def polygons(cls, corners: npt.ArrayLike) -> Regions:
        """An area inside each row's corners ((n, k, 2), k at least 3, in order round it)."""
        c = np.asarray(corners, dtype=float)
        if c.ndim != 3 or c.shape[2] != 2 or (len(c) and c.shape[1] < 3) or not np.isfinite(
                c).all():
            raise InvalidValueError("corners", corners,
                                    "an (n, k, 2) array of finite corners, k at least 3")
        return cls(_array(shapely.polygons(c)) if len(c) else np.empty(0, dtype=object))

    @classmethod
    def hulls(cls, points: npt.ArrayLike) -> Regions:
        """The convex hull of each row's points ((n, k, 2)): the ground swept by a straight
        move is the hull of the footprint's corners before and after."""
        c = np.asarray(points, dtype=float)
        if c.ndim != 3 or c.shape[2] != 2 or not np.isfinite(c).all():
            raise InvalidValueError("points", points, "an (n, k, 2) array of finite points")
        return cls(_array(shapely.convex_hull(shapely.multipoints(c))) if len(c)
                   else np.empty(0, dtype=object))

    def _paired(self, other: Regions) -> npt.NDArray[np.object_]:
        if not isinstance(other, Regions) or len(other) != len(self):
            raise InvalidValueError("other", other, f"Regions of as many ({len(self)})")
        return other._geometries

    def distances_each(self, other: Regions) -> FloatArray:
        """The distance from each region to the region of ``other`` in the same row."""
        theirs = self._paired(other)
        if not len(self):
            return np.zeros(0)
        return np.asarray(shapely.distance(self._geometries, theirs), dtype=float)

    def shares_ground_each(self, other: Regions) -> BoolArray:
        """For each row: whether its region and ``other``'s share ground (insides meet)."""
        theirs = self._paired(other)
        if not len(self):
            return np.zeros(0, dtype=bool)
        return np.asarray(shapely.relate_pattern(self._geometries, theirs, _INTERIORS_MEET),
                          dtype=bool)

    def intersects_each(self, other: Regions) -> BoolArray:
        """For each row: whether its region and ``other``'s have any point in common."""
        theirs = self._paired(other)
        if not len(self):
            return np.zeros(0, dtype=bool)
        return np.asarray(shapely.intersects(self._geometries, theirs), dtype=bool)

    def crossing_obstacles(self, table: Table,
                           kinds: frozenset[TerrainKind] = OBSTACLES) -> BoolArray:
        """For each region (a line of fire's last stretch, a strip before a front edge):
        whether a crossed line of the table of these ``kinds`` (fences, walls, streams,
        linear works) meets it."""
        out = np.zeros(len(self), dtype=bool)
        terrain = table.terrain
        if not len(self) or not terrain.crossed_features:
            return out
        wanted = np.array([f.kind in kinds for f in terrain.crossed_features], dtype=bool)
        found, lines = terrain.line_tree.query(self._geometries, predicate="intersects")
        out[found[wanted[lines]]] = True
        return out

    @functools.cached_property
    def _tree(self) -> shapely.STRtree:
        # built once, on first use; the tree is never changed afterwards
        return shapely.STRtree(self._geometries)

    def distances(self, other: Place) -> FloatArray:
        """The distance from each region to ``other``."""
        if not len(self):
            return np.zeros(0)
        return np.asarray(shapely.distance(self._geometries, _geometry(other)), dtype=float)

    def within(self, other: Place, d: float) -> BoolArray:
        """For each region: whether it comes within ``d`` of ``other``."""
        if not len(self):
            return np.zeros(0, dtype=bool)
        return np.asarray(shapely.dwithin(self._geometries, _geometry(other), d), dtype=bool)

    def intersects(self, other: Place) -> BoolArray:
        """For each region: whether it has any point in common with ``other``."""
        if not len(self):
            return np.zeros(0, dtype=bool)
        return np.asarray(shapely.intersects(self._geometries, _geometry(other)), dtype=bool)

    def shares_ground(self, other: Place) -> BoolArray:
        """For each region: whether its interior overlaps ``other``'s."""
        if not len(self):
            return np.zeros(0, dtype=bool)
        return np.asarray(
            shapely.relate_pattern(self._geometries, _geometry(other), _INTERIORS_MEET),
            dtype=bool)

    def near(self, other: Place, d: float = 0.0) -> tuple[int, ...]:
        """The indices of the regions within ``d`` of ``other`` (touching counts), in
        increasing order, through the spatial index."""
        if not len(self):
            return ()
        g = _geometry(other)
        hits = self._tree.query(g, predicate="dwithin", distance=d) if d > 0 else \
            self._tree.query(g, predicate="intersects")
        return tuple(sorted(np.asarray(hits).tolist()))

    def union(self) -> Region:
        """The ground of all of them together."""
        return Region(shapely.union_all(self._geometries))
