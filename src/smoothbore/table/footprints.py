"""Units on the table as footprints: bases laid out in a formation, at a position, facing a
direction; commanders as points, riding alone or attached to a unit.

Coordinates: ``x`` runs right along the near edge of the table, ``y`` away from it, both in
the table's measure. A facing is a compass bearing in degrees: 0 faces straight up the
table (+y), 90 faces right (+x), clockwise positive. A footprint's position is the centre of
the rectangle its bases fill."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, cast

import attrs
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon

from smoothbore.core import InvalidValueError, NamedEnum
from smoothbore.core.validate import at_least, finite, maybe, one_of, text

__all__ = [
    "MAX_COORDINATE",
    "CommanderMark",
    "Face",
    "Footprint",
    "Formation",
    "Point",
    "bearing_vectors",
    "normal_degrees",
    "stacked",
]

Point = tuple[float, float]
"""A point on the table: (x, y) in the table's measure."""

FloatArray = npt.NDArray[np.float64]

MAX_COORDINATE = 1e6
"""The bound of every coordinate and length on a table, in its measure: a point lies within
±MAX_COORDINATE on each axis, a length (a table's side, a footprint's frontage, a band's
width) at most MAX_COORDINATE. Far beyond any table (a million inches is 16 miles), and
far inside where the geometry's squares and sums lose their precision or overflow (issue
28: a river 1e308 wide raised GEOSException, outlines at 1e308 gave NaN answers)."""

_COORD = finite(-MAX_COORDINATE, MAX_COORDINATE)
_FACING = finite(-3600, 3600)
_LENGTH = finite(0, MAX_COORDINATE)


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _LENGTH(instance, attribute, value)
    if value <= 0:
        raise InvalidValueError(
            f"{type(instance).__name__}.{attribute.name}", value, "a length greater than 0"
        )


class Formation(NamedEnum):
    """How a unit's bases are laid out (each rule book's formations map onto these).

    LINE, SKIRMISH and DEPLOYED put the bases side by side (SKIRMISH with a gap between
    them); COLUMN and LIMBERED put them one behind another; BUILDING: the unit fills the
    building it holds (one rectangle, the building's own), with no flank or rear."""

    LINE = "line"
    COLUMN = "column"
    SKIRMISH = "skirmish order"
    LIMBERED = "limbered"
    DEPLOYED = "deployed"
    BUILDING = "building held"

    @property
    def side_by_side(self) -> bool:
        """Bases abreast (a line, skirmishers, guns deployed), not one behind another."""
        return self in (Formation.LINE, Formation.SKIRMISH, Formation.DEPLOYED)


class Face(NamedEnum):
    """A face of a footprint: where a charge strikes or a shot comes from."""

    FRONT = "front"
    LEFT = "left flank"
    RIGHT = "right flank"
    REAR = "rear"

    @property
    def is_flank(self) -> bool:
        """The left or the right flank."""
        return self is Face.LEFT or self is Face.RIGHT


def normal_degrees(degrees: float) -> float:
    """An angle brought into (-180, 180]."""
    value = math.fmod(degrees, 360.0)
    if value <= -180.0:
        value += 360.0
    elif value > 180.0:
        value -= 360.0
    return value


def bearing_vectors(facing: float) -> tuple[Point, Point]:
    """The unit vectors (forward, right) of a compass facing in degrees."""
    radians = math.radians(facing)
    s, c = math.sin(radians), math.cos(radians)
    return (s, c), (c, -s)


@attrs.frozen(cache_hash=True)
class Footprint:
    """One unit on the table: ``bases`` bases of ``frontage`` x ``depth`` each (in the
    table's measure) laid out in ``formation`` with ``spacing`` between neighbouring bases
    (None: a frontage apart in skirmish order, touching otherwise); its centre at (``x``,
    ``y``) and its front towards ``facing`` (degrees, compass). ``side`` names the army it
    belongs to (units of different non-empty sides are enemies); ``label`` is drawn on it."""

    unit_id: str = attrs.field(validator=text())
    x: float = attrs.field(validator=_COORD)
    y: float = attrs.field(validator=_COORD)
    facing: float = attrs.field(default=0.0, validator=_FACING)
    bases: int = attrs.field(default=1, validator=at_least(1))
    frontage: float = attrs.field(default=1.0, validator=_positive)
    depth: float = attrs.field(default=1.0, validator=_positive)
    formation: Formation = attrs.field(default=Formation.LINE, validator=one_of(*Formation))
    spacing: float | None = attrs.field(default=None, validator=maybe(_LENGTH))
    side: str = attrs.field(default="", validator=text(empty=True))
    label: str = attrs.field(default="", validator=text(empty=True))

    # -- the layout, in the footprint's own frame (u to its right, v forward) ---------------

    @property
    def gap(self) -> float:
        """The space between neighbouring bases."""
        if self.spacing is not None:
            return self.spacing
        return self.frontage if self.formation is Formation.SKIRMISH else 0.0

    @property
    def files(self) -> int:
        """Bases abreast in the layout (1 for a column or a building)."""
        if self.formation is Formation.BUILDING:
            return 1
        return self.bases if self.formation.side_by_side else 1

    @property
    def ranks(self) -> int:
        """Bases one behind another (1 for a line or a building)."""
        if self.formation is Formation.BUILDING:
            return 1
        return 1 if self.formation.side_by_side else self.bases

    @functools.cached_property
    def width(self) -> float:
        """The frontage of the whole footprint, flank to flank."""
        n = self.files
        return n * self.frontage + (n - 1) * self.gap

    @functools.cached_property
    def length(self) -> float:
        """The depth of the whole footprint, front to rear."""
        n = self.ranks
        return n * self.depth + (n - 1) * self.gap

    @property
    def has_flanks(self) -> bool:
        """False for a unit holding a building (Will: such units have no flank or rear)."""
        return self.formation is not Formation.BUILDING

    @functools.cached_property
    def frame(self) -> tuple[Point, Point]:
        """The unit vectors (forward, right) of the facing."""
        return bearing_vectors(self.facing)

    def to_table(self, u: float, v: float) -> Point:
        """A point given in the footprint's frame (``u`` right of the centre, ``v`` ahead of
        it) in table coordinates."""
        (fx, fy), (rx, ry) = self.frame
        return (self.x + u * rx + v * fx, self.y + u * ry + v * fy)

    def local(self, points: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Table points (an (n, 2) array) in the footprint's frame: (u right of the centre,
        v ahead of the centre)."""
        p = np.asarray(points, dtype=float).reshape(-1, 2)
        (fx, fy), (rx, ry) = self.frame
        dx, dy = p[:, 0] - self.x, p[:, 1] - self.y
        return dx * rx + dy * ry, dx * fx + dy * fy

    @functools.cached_property
    def corners(self) -> FloatArray:
        """The outer rectangle's corners in table coordinates: front left, front right, rear
        right, rear left."""
        (fx, fy), (rx, ry) = self.frame
        w, h, x, y = self.width / 2, self.length / 2, self.x, self.y
        wx, wy, hx, hy = w * rx, w * ry, h * fx, h * fy
        return np.array([(x - wx + hx, y - wy + hy), (x + wx + hx, y + wy + hy),
                         (x + wx - hx, y + wy - hy), (x - wx - hx, y - wy - hy)])

    @functools.cached_property
    def base_corners(self) -> FloatArray:
        """Every base's corners in table coordinates, shape (bases, 4, 2), front rank and
        left file first; a building held is one base, the building."""
        fw, fd, gap = self.frontage, self.depth, self.gap
        w, h = self.width / 2, self.length / 2
        if self.formation is Formation.BUILDING:
            return self.corners[np.newaxis]
        # plain floats, then one array: numpy's per-call cost would outweigh a few bases
        n = self.bases
        if self.formation.side_by_side:  # files side by side, or ranks one behind another
            step = fw + gap
            lefts = [-w + i * step for i in range(n)]
            fronts = [h] * n
        else:
            step = fd + gap
            fronts = [h - i * step for i in range(n)]
            lefts = [-w] * n
        (fx, fy), (rx, ry) = self.frame
        x, y = self.x, self.y
        points = []
        for left, front in zip(lefts, fronts, strict=True):
            right, rear = left + fw, front - fd
            points += [(x + left * rx + front * fx, y + left * ry + front * fy),
                       (x + right * rx + front * fx, y + right * ry + front * fy),
                       (x + right * rx + rear * fx, y + right * ry + rear * fy),
                       (x + left * rx + rear * fx, y + left * ry + rear * fy)]
        found: FloatArray = np.array(points, dtype=float).reshape(n, 4, 2)
        return found

    # -- shapes ------------------------------------------------------------------------------

    @functools.cached_property
    def outline(self) -> Polygon:
        """The outer rectangle, flank to flank and front to rear."""
        return cast(Polygon, shapely.polygons(self.corners))

    @functools.cached_property
    def shape(self) -> Polygon | MultiPolygon:
        """What the bases cover: the outline when they touch, the separate bases when they
        stand apart (skirmishers); ranges and contacts are measured to this."""
        if self.gap == 0 or self.bases == 1 or self.formation is Formation.BUILDING:
            return self.outline
        # every base at once (one Shapely call, not a Polygon built per base)
        bases = cast(npt.NDArray[np.object_], shapely.polygons(self.base_corners))
        return cast(MultiPolygon, shapely.multipolygons(bases))

    def base_shapes(self) -> tuple[Polygon, ...]:
        """Each base as a polygon."""
        return tuple(Polygon(c) for c in self.base_corners)

    @property
    def area(self) -> float:
        """The area the bases cover."""
        return float(self.shape.area)

    @property
    def centre(self) -> Point:
        """The centre of the footprint."""
        return (self.x, self.y)

    @property
    def front_centre(self) -> Point:
        """The middle of the front edge."""
        return self.to_table(0.0, self.length / 2)

    def edge(self, face: Face) -> LineString:
        """One edge of the outline: the front edge runs from the left front corner to the
        right, the others run round clockwise."""
        fl, fr, rr, rl = self.corners
        pairs = {Face.FRONT: (fl, fr), Face.RIGHT: (fr, rr), Face.REAR: (rr, rl),
                 Face.LEFT: (rl, fl)}
        return LineString(pairs[face])

    @property
    def front_edge(self) -> LineString:
        """The front edge, left to right."""
        return self.edge(Face.FRONT)

    @functools.cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the outline."""
        (fx, fy), (rx, ry) = self.frame
        w, h = self.width / 2, self.length / 2
        ex, ey = abs(w * rx) + abs(h * fx), abs(w * ry) + abs(h * fy)
        return (self.x - ex, self.y - ey, self.x + ex, self.y + ey)

    # -- new positions -----------------------------------------------------------------------

    def moved_to(self, x: float, y: float, facing: float | None = None) -> Footprint:
        """The same unit with its centre at (x, y), facing ``facing`` (None: as before)."""
        _COORD(self, _X, x)
        _COORD(self, _Y, y)
        if facing is None:
            facing = self.facing
        else:
            _FACING(self, _FACINGS, facing)
        # a copy slot by slot: the other fields were checked when this footprint was made
        new = object.__new__(Footprint)
        put = object.__setattr__
        for name in _KEPT:
            put(new, name, getattr(self, name))
        put(new, "x", x)
        put(new, "y", y)
        put(new, "facing", facing)
        put(new, "_attrs_cached_hash", None)
        put(new, "width", self.width)  # sizes do not change with the place
        put(new, "length", self.length)
        if facing == self.facing:
            put(new, "frame", self.frame)
        return new

    def advanced(self, distance: float, heading: float = 0.0) -> Footprint:
        """The unit moved ``distance`` towards ``heading`` degrees off its facing (0 ahead,
        180 straight back), keeping its facing."""
        (fx, fy), _ = bearing_vectors(self.facing + heading)
        return self.moved_to(self.x + distance * fx, self.y + distance * fy)

    def turned(self, degrees: float) -> Footprint:
        """The unit turned ``degrees`` clockwise about its centre (a facing change)."""
        return self.moved_to(self.x, self.y, normal_degrees(self.facing + degrees))

    def reformed(self, formation: Formation, bases: int | None = None) -> Footprint:
        """The unit in another formation about the same centre and facing."""
        return attrs.evolve(
            self, formation=formation, bases=self.bases if bases is None else bases)

    def scaled(self, factor: float) -> Footprint:
        """The footprint with every length and position multiplied by ``factor`` (a change of
        measure)."""
        return attrs.evolve(
            self, x=self.x * factor, y=self.y * factor, frontage=self.frontage * factor,
            depth=self.depth * factor,
            spacing=None if self.spacing is None else self.spacing * factor)

    @classmethod
    def holding(cls, unit_id: str, building: Any, *, bases: int = 1, side: str = "",
                label: str = "") -> Footprint:
        """A unit holding ``building`` (a terrain ``Feature``): its footprint is the
        building's smallest enclosing rectangle, with no flank or rear."""
        rectangle = shapely.oriented_envelope(building.area)
        coords = np.asarray(rectangle.exterior.coords)[:4]
        if np.hypot(*(coords[1] - coords[0])) < np.hypot(*(coords[2] - coords[1])):
            coords = np.roll(coords, -1, axis=0)  # the longer side is the frontage
        side_a, side_b = coords[1] - coords[0], coords[2] - coords[1]
        frontage, depth = float(np.hypot(*side_a)), float(np.hypot(*side_b))
        centre = coords.mean(axis=0)
        # the front faces along side_b's reverse: the bearing of the normal to side_a
        facing = math.degrees(math.atan2(-side_b[0], -side_b[1]))
        return cls(unit_id, float(centre[0]), float(centre[1]), facing, bases, frontage, depth,
                   Formation.BUILDING, side=side, label=label)


_X, _Y, _FACINGS = (attrs.fields(Footprint).x, attrs.fields(Footprint).y,
                    attrs.fields(Footprint).facing)
_KEPT = tuple(f.name for f in attrs.fields(Footprint) if f.name not in ("x", "y", "facing"))


@attrs.frozen(cache_hash=True)
class CommanderMark:
    """A commander on the table: at (``x``, ``y``) when riding alone, or with the unit
    ``attached_to`` (then his point is that unit's centre, and x, y are ignored)."""

    commander_id: str = attrs.field(validator=text())
    x: float = attrs.field(default=0.0, validator=_COORD)
    y: float = attrs.field(default=0.0, validator=_COORD)
    attached_to: str | None = attrs.field(default=None, validator=maybe(text()))
    side: str = attrs.field(default="", validator=text(empty=True))
    label: str = attrs.field(default="", validator=text(empty=True))

    def scaled(self, factor: float) -> CommanderMark:
        """The mark with its position multiplied by ``factor``."""
        return attrs.evolve(self, x=self.x * factor, y=self.y * factor)


def stacked(footprints: Sequence[Footprint], speck: float, *,
            bases: bool = False) -> tuple[tuple[int, int, float], ...]:
    """Units standing on each other: every pair (i, j), i < j in the order given, whose
    outlines (``bases``: the ground their bases cover, ``Footprint.shape``) share more than
    ``speck`` square units of the table's measure, with the area they share. Units in
    contact share an edge, no area; every book ends a move clear of other units, so a pair
    here is a position no step makes (a loaded state's fault, a conformance failure)."""
    if len(footprints) < 2:
        return ()
    geoms = [f.shape if bases else f.outline for f in footprints]
    near, other = shapely.STRtree(geoms).query(geoms, predicate="intersects")
    pairs = [(i, j) for i, j in zip(near.tolist(), other.tolist(), strict=True) if i < j]
    if not pairs:
        return ()
    shared = shapely.area(shapely.intersection([geoms[i] for i, _ in pairs],
                                               [geoms[j] for _, j in pairs])).tolist()
    return tuple((i, j, area) for (i, j), area in zip(pairs, shared, strict=True)
                 if area > speck)
