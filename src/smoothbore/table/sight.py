"""Range, arcs and sight: what a firer sees of a target.

- Range is measured between the nearest points of the two footprints.
- The arc: a target is in a unit's arc when some part of it lies straight ahead of the
  unit's front edge or within ``half_angle`` degrees (45 in the texts) either side of it,
  measured at the front corners (see ``layout`` for the angle rule); ``base_in_arc`` asks
  for one whole target base within it (Will's "whole of the target base").
- The line of fire starts at the middle of the stretch of the firer's front edge nearest the
  target and ends at the target's point nearest that start (two equal lines facing each
  other square fire middle to middle). It is clear when it crosses no terrain that blocks
  sight and no other unit. ``base_visible``: some target base wholly within the arc is
  seen whole from the start of the line of fire (the cone from that point to the base
  crosses nothing that blocks).
- Woods are measured along the line of fire (the length inside light and dense woods).

``sightings`` answers for many pairs at once, vectorised (Shapely's STRtree and array
functions); ``sighting`` is one pair."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import check_number

from . import vectorised as vec
from .cover import OBSTACLES, Cover, covers_with_own
from .footprints import Face, Point, bearing_vectors
from .layout import (
    FRONT,
    LEFT,
    REAR,
    RIGHT,
    Layout,
    face_codes,
    fire_lines,
    off_front_local,
)
from .tabletop import Table
from .terrain import TerrainIndex, TerrainKind, terrain_kind

__all__ = [
    "DEFAULT_SIGHT",
    "SightLine",
    "SightRules",
    "Sighting",
    "angle_off_front",
    "arc_polygon",
    "distance",
    "enemy_pairs",
    "line_of_fire",
    "point_distance",
    "sight_lines",
    "sighting",
    "sightings",
    "visible_enemies",
    "woods_along",
]

Geometries = npt.NDArray[np.object_]
IntArray = npt.NDArray[np.intp]
FACES = {FRONT: Face.FRONT, LEFT: Face.LEFT, RIGHT: Face.RIGHT, REAR: Face.REAR}
_EPS = 1e-9


def _kinds(value: Any) -> frozenset[TerrainKind]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidValueError("SightRules.blocking", value, "a set of terrain kinds")
    return frozenset(terrain_kind(v, "SightRules.blocking") for v in value)


def _limits(value: Any) -> tuple[tuple[TerrainKind, float], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    try:
        pairs = tuple((terrain_kind(k, "SightRules.see_into"), v) for k, v in items)
    except (TypeError, ValueError):
        raise InvalidValueError(
            "SightRules.see_into", value, "a mapping of terrain kind to a length") from None
    for _, limit in pairs:
        check_number("SightRules.see_into", limit, 0)
    return tuple(sorted(pairs, key=lambda pair: pair[0].value))


@attrs.frozen(cache_hash=True)
class SightRules:
    """What blocks sight, as each rule book has it. ``blocking``: kinds that block any line
    entering them, unless one end stands inside that feature (buildings by default; the texts
    name buildings, hills "and other such obstacles"); ``hills_block``: a hill blocks a line
    crossing it when it stands higher than both ends (so never when one end is on it);
    ``units_block``: other units block; ``see_into``: a line longer than this inside a kind
    (Will's 4" into dense woods, McKie's 20 mm) is blocked."""

    blocking: frozenset[TerrainKind] = attrs.field(
        default=frozenset({TerrainKind.BUILDING}), converter=_kinds)
    hills_block: bool = True
    units_block: bool = True
    see_into: tuple[tuple[TerrainKind, float], ...] = attrs.field(default=(), converter=_limits)


DEFAULT_SIGHT = SightRules()


@attrs.frozen
class SightLine:
    """What a shot at ``target`` needs to know of the firer's sight of it (``sight_lines``;
    a ``Sighting`` knows more).

    ``distance``: nearest points; ``angle``: degrees off the firer's front (0: straight
    ahead of its front edge); ``in_arc``: some part of the target within the arc; ``line``:
    the line of fire; ``line_clear``: nothing blocks it; ``blocked_by``: the terrain
    features blocking the line; ``units_between``: the units it passes through; ``face``:
    the target's face the firer stands off (a flank: enfilade); ``cover``: the target's
    cover against this firer."""

    firer: str
    target: str
    distance: float
    angle: float
    in_arc: bool
    line: LineString = attrs.field(eq=False, repr=False)
    line_clear: bool
    blocked_by: tuple[str, ...]
    units_between: tuple[str, ...]
    face: Face
    cover: Cover

    @property
    def enfilade(self) -> bool:
        """The firer stands off the target's flank."""
        return self.face.is_flank


@attrs.frozen
class Sighting(SightLine):
    """What ``firer`` sees of ``target``: its ``SightLine``, and ``base_in_arc``: some whole
    target base within the arc; ``base_visible``: some target base wholly within the arc is
    seen whole (Will: "the whole of the target base is visible ... within angle");
    ``woods``: the line of fire's length inside each kind of woods; ``rise``: the target's
    ground level less the firer's (above 0: shooting uphill); ``firer_cover``: the ground
    the firer stands in."""

    base_in_arc: bool
    base_visible: bool
    woods: tuple[tuple[TerrainKind, float], ...]
    rise: int
    firer_cover: Cover

    def woods_length(self, kind: TerrainKind | None = None) -> float:
        """The length of the line of fire inside woods of ``kind`` (None: any woods)."""
        return sum(length for k, length in self.woods if kind is None or k is kind)

    @property
    def can_fire(self) -> bool:
        """In the arc and visible (the line of fire clear and a base seen whole)."""
        return self.in_arc and self.line_clear and self.base_visible


def distance(table: Table, a: str, b: str) -> float:
    """The distance between the nearest points of two units."""
    layout = table.layout
    return float(shapely.distance(layout.shapes[layout.index[_known(table, a)]],
                                  layout.shapes[layout.index[_known(table, b)]]))


def _known(table: Table, unit_id: str) -> str:
    table.footprint(unit_id)
    return unit_id


def angle_off_front(table: Table, firer: str, target: str) -> float:
    """The target's angle off the firer's front, in degrees (0: some of it straight ahead of
    the front edge); in the arc when at most the arc's half-angle."""
    return sighting(table, firer, target).angle


def line_of_fire(table: Table, firer: str, target: str) -> LineString:
    """The line of fire: from the middle of the stretch of the firer's front edge nearest
    the target, to the target's nearest point."""
    layout = table.layout
    lines, _, _ = fire_lines(layout, layout.rows([_known(table, firer)]),
                             layout.rows([_known(table, target)]), table.diagonal)
    line = lines[0]
    assert isinstance(line, LineString)
    return line


def arc_polygon(table: Table, unit_id: str, half_angle: float = 45.0,
                length: float | None = None) -> Polygon:
    """The unit's arc of fire as a polygon ``length`` long (default: across the table), for
    drawing and for asking Shapely directly (half-angles below 90 degrees)."""
    check_number("half_angle", half_angle, 0, 89.999)
    footprint = table.footprint(unit_id)
    reach = table.diagonal if length is None else length
    fl, fr = footprint.corners[0], footprint.corners[1]
    (lx, ly), _ = bearing_vectors(footprint.facing - half_angle)
    (rx, ry), _ = bearing_vectors(footprint.facing + half_angle)
    scale = reach / np.cos(np.radians(half_angle))
    return Polygon([tuple(fl), tuple(fr), (fr[0] + rx * scale, fr[1] + ry * scale),
                    (fl[0] + lx * scale, fl[1] + ly * scale)])


def enemy_pairs(table: Table, units: Iterable[str] | None = None) -> tuple[tuple[str, str], ...]:
    """(unit, enemy) for each of ``units`` (None: every unit) and each enemy on the table."""
    chosen = table.unit_ids if units is None else tuple(units)
    return tuple((u, e) for u in chosen for e in table.enemies_of(u))


def sighting(table: Table, firer: str, target: str, *, half_angle: float = 45.0,
             rules: SightRules = DEFAULT_SIGHT, near: float | None = None,
             front_arc: float = 90.0, rear_arc: float = 90.0) -> Sighting:
    """What ``firer`` sees of ``target`` (see ``sightings``)."""
    return sightings(table, [(firer, target)], half_angle=half_angle, rules=rules, near=near,
                     front_arc=front_arc, rear_arc=rear_arc)[0]


def sightings(
    table: Table,
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    half_angle: float | Mapping[str, float] = 45.0,
    rules: SightRules = DEFAULT_SIGHT,
    near: float | None = None,
    front_arc: float = 90.0,
    rear_arc: float = 90.0,
) -> tuple[Sighting, ...]:
    """What each firer sees of each target, for the (firer, target) ``pairs`` (None: every
    unit and every enemy, ``enemy_pairs``), all at once.

    ``half_angle``: the arc either side of straight ahead (45 in the texts; a mapping by
    firer id for units that differ, as skirmishers firing all round at 180); ``rules``: what
    blocks sight; ``near``: how close in front of the target an obstacle must be to cover it
    (default 1 inch); ``front_arc``/``rear_arc``: the zones of the target's faces (see
    ``contact.face_from``)."""
    return _sightings(table, pairs, half_angle, rules, near, front_arc, rear_arc)


def _sightings(table: Table, pairs: Sequence[tuple[str, str]] | None,
               half_angle: float | Mapping[str, float] = 45.0,
               rules: SightRules = DEFAULT_SIGHT, near: float | None = None,
               front_arc: float = 90.0, rear_arc: float = 90.0, *,
               plain: bool = False) -> tuple[Sighting, ...]:
    """``sightings``; ``plain``: with the reference sifting of candidates (``_hits``)."""
    seen = _Seen(table, pairs, half_angle, rules, near, front_arc, rear_arc, whole=True,
                 plain=plain)
    deep = seen.deep
    return tuple(Sighting(*(*line, base_arc, visible and p not in deep, wood, up, own))
                 for p, (line, base_arc, visible, wood, up, own) in enumerate(zip(
                     seen.lines_fields(), seen.base_in_arc, seen.base_visible, seen.woods,
                     seen.rise, seen.firer_cover, strict=True)))


def sight_lines(
    table: Table,
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    half_angle: float | Mapping[str, float] = 45.0,
    rules: SightRules = DEFAULT_SIGHT,
    near: float | None = None,
    front_arc: float = 90.0,
    rear_arc: float = 90.0,
) -> tuple[SightLine, ...]:
    """What a shot needs of each firer's sight of each target (the ``SightLine`` of each
    pair, the same as the ``Sighting``'s), leaving out what only a ``Sighting`` holds (whole
    bases in arc and seen, woods crossed unless the rules limit sight into them, the rise,
    the firer's own ground): about a third fewer instructions. The arguments are
    ``sightings``'s."""
    seen = _Seen(table, pairs, half_angle, rules, near, front_arc, rear_arc, whole=False)
    return tuple(SightLine(*line) for line in seen.lines_fields())


class _Seen:
    """The arrays of one question of many pairs (``sightings``, and without the parts only a
    ``Sighting`` holds unless ``whole``, ``sight_lines``)."""

    def __init__(self, table: Table, pairs: Sequence[tuple[str, str]] | None,
                 half_angle: float | Mapping[str, float], rules: SightRules,
                 near: float | None, front_arc: float, rear_arc: float, *,
                 whole: bool, plain: bool = False) -> None:
        check_number("front_arc", front_arc, 0, 180)
        check_number("rear_arc", rear_arc, 0, 180)
        if pairs is None:
            pairs = enemy_pairs(table)
        self.pairs = pairs
        self.firer_cover: list[Cover] = []
        self.base_in_arc: list[bool] = []
        self.base_visible: list[bool] = []
        self.woods: list[tuple[tuple[TerrainKind, float], ...]] = []
        self.rise: list[int] = []
        self.deep: dict[int, list[str]] = {}
        if not pairs:
            return
        _check_pairs(table, pairs)
        layout = table.layout
        fi = layout.rows([a for a, _ in pairs])
        ti = layout.rows([b for _, b in pairs])
        halves = _halves(half_angle, pairs)
        shapes = layout.shapes
        gap = shapely.distance(shapes[fi], shapes[ti])

        angle, base_max, base_rows, base_pair = _angles(table, layout, fi, ti)
        all_round = layout.building[fi]
        in_arc = (angle <= halves + _EPS) | all_round
        angle = np.where(all_round, 0.0, angle)

        lines, starts, ends = fire_lines(layout, fi, ti, table.diagonal, gap)
        probes = _Probes(lines, starts, ends, np.zeros(len(fi)))
        if whole:
            base_ok = (base_max <= halves[base_pair] + _EPS) | all_round[base_pair]
            base_in_arc = np.zeros(len(fi), dtype=bool)
            base_in_arc[base_pair[base_ok]] = True
            base_visible, ((tp, tk), (up, uu)) = _base_visible(
                table, rules, fi, ti, probes, base_rows[base_ok], base_pair[base_ok], plain)
            self.base_in_arc, self.base_visible = base_in_arc.tolist(), base_visible.tolist()
        else:
            (tp, tk), (up, uu) = _hits(table, rules, probes, fi, ti, plain)
        woods: list[tuple[tuple[TerrainKind, float], ...]] = (
            _woods(table.terrain, lines) if whole or rules.see_into else [()] * len(lines))
        too_deep = _too_deep(table, rules, lines, woods)

        faces = face_codes(layout, ti, layout.centre[fi], front_arc, rear_arc)
        firer_ids = sorted({a for a, _ in pairs}) if whole else []
        cover, own = covers_with_own(table, [b for _, b in pairs], lines, firer_ids,
                                     near=near, obstacles=OBSTACLES)
        if whole:
            self.woods = woods
            self.rise = (layout.levels[ti] - layout.levels[fi]).tolist()
            by_firer = {c.unit_id: c for c in own}
            self.firer_cover = [by_firer[a] for a, _ in pairs]

        blocked: list[list[str]] = [[] for _ in pairs]
        between: list[list[str]] = [[] for _ in pairs]
        features = table.terrain.blockers(rules.blocking, rules.hills_block).features
        for p, k in zip(tp.tolist(), tk.tolist(), strict=True):
            blocked[p].append(features[k].feature_id)
        for p, u in zip(up.tolist(), uu.tolist(), strict=True):
            between[p].append(layout.footprints[u].unit_id)
        for p, fids in too_deep.items():
            blocked[p].extend(fids)
        self.deep = too_deep
        self.gap, self.angle, self.in_arc = gap.tolist(), angle.tolist(), in_arc.tolist()
        self.lines, self.blocked, self.between = lines, blocked, between
        self.units_block = rules.units_block
        self.faces, self.cover = faces.tolist(), cover

    def lines_fields(self) -> Iterator[tuple[Any, ...]]:
        """The fields of each pair's ``SightLine``, in order."""
        if not self.pairs:
            return
        units_block = self.units_block
        for (a, b), gap, angle, arc, line, stop, units, face, cover in zip(
                self.pairs, self.gap, self.angle, self.in_arc, self.lines, self.blocked,
                self.between, self.faces, self.cover, strict=True):
            yield (a, b, gap, angle, arc, line, not stop and not (units_block and units),
                   _ids(stop), _ids(units), FACES[face], cover)


def _ids(items: list[str]) -> tuple[str, ...]:
    return tuple(sorted(set(items))) if items else ()


def _check_pairs(table: Table, pairs: Sequence[tuple[str, str]]) -> None:
    """Every pair names two different units on the table."""
    units = table.layout.index
    for a, b in pairs:
        if a not in units or b not in units or a == b:
            table.footprint(a), table.footprint(b)
            raise InvalidValueError("pairs", (a, b), "two different units on the table")


def _halves(half_angle: float | Mapping[str, float],
            pairs: Sequence[tuple[str, str]]) -> npt.NDArray[np.float64]:
    if isinstance(half_angle, Mapping):
        values = [half_angle.get(a, 45.0) for a, _ in pairs]
        for value in set(values):
            check_number("half_angle", value, 0, 180)
        return np.asarray(values, dtype=float)
    return np.full(len(pairs), check_number("half_angle", half_angle, 0, 180))


def _angles(table: Table, layout: Layout, fi: IntArray, ti: IntArray) -> tuple[
        npt.NDArray[np.float64], npt.NDArray[np.float64], IntArray, IntArray]:
    """Each pair's angle off the firer's front; for every base of every target, its largest
    angle, its row in ``layout.base_corners`` and its pair. The least angle over a target is
    that of one of its corners, unless the target crosses the strip straight ahead without a
    corner in it: only targets that might, Shapely asks."""
    # each pair's bases are one run of rows (every target has a base), slot 0 first
    base_pair, slot = layout.base_valid[ti].nonzero()
    base_rows = layout.base_start[ti[base_pair]] + slot
    offsets = (slot == 0).nonzero()[0]
    corners = layout.base_corners[base_rows].reshape(-1, 2)
    rows = fi[base_pair].repeat(4)
    u, v = layout.local(rows, corners)
    angles = off_front_local(layout, rows, u, v)
    least = np.minimum(np.minimum.reduceat(angles, 4 * offsets), 180.0)
    if _any(least > 0):
        v = v - layout.half_l[rows]
        w = layout.half_w[rows]
        low = np.minimum.reduceat(u - w, 4 * offsets)
        high = np.maximum.reduceat(u + w, 4 * offsets)
        far = np.maximum.reduceat(v, 4 * offsets)
        # corners on both sides of the strip, some of them ahead: the target may cross it
        doubt = ((least > 0) & (low < 0) & (high > 0) & (far >= 0)).nonzero()[0]
        if len(doubt):
            strips = layout.strips(fi[doubt], 2 * table.diagonal + 1.0)
            ahead = shapely.intersects(strips, layout.shapes[ti[doubt]])
            least[doubt[ahead]] = 0.0
    return least, np.maximum.reduce(angles.reshape(-1, 4), axis=1), base_rows, base_pair


def _cones(layout: Layout, starts: npt.NDArray[np.float64], ti: IntArray,
           base_rows: IntArray) -> _Probes:
    """The cone from each start to a base (a row of ``layout.base_corners``) of the target
    in the same row: the triangle from the start to the two corners that bound the base as
    seen from there. With the base itself it makes the convex hull of start and base, and
    nothing that blocks can stand inside a base."""
    corners = layout.base_corners[base_rows]  # (n, 4, 2)
    centre = layout.base_middle[base_rows]
    m = centre - starts
    d = corners - starts[:, np.newaxis, :]
    cross = m[:, np.newaxis, 0] * d[..., 1] - m[:, np.newaxis, 1] * d[..., 0]
    dot = m[:, np.newaxis, 0] * d[..., 0] + m[:, np.newaxis, 1] * d[..., 1]
    bearing = np.arctan2(cross, dot)
    pick = np.arange(len(base_rows))
    left, right = corners[pick, bearing.argmax(axis=1)], corners[pick, bearing.argmin(axis=1)]
    points = np.empty((len(base_rows), 3, 2))
    points[:, 0], points[:, 1], points[:, 2] = starts, left, right
    cones = vec.polygons(points)
    return _Probes(cones, starts, centre, layout.base_reach[ti])


def _base_visible(table: Table, rules: SightRules, fi: IntArray, ti: IntArray,
                  lines: _Probes, rows: IntArray, pair: IntArray,
                  plain: bool = False) -> tuple[
                      npt.NDArray[np.bool_], _Hits]:
    """Whether, for each pair, one of the target bases given (``rows`` of
    ``layout.base_corners``, with their ``pair``: those wholly in the arc) is seen whole
    from the start of the line of fire; and what the lines of fire cross (``_hits``, asked
    together with the first cones). The base nearest the end of the line is looked at
    first, the others only where that one is hidden."""
    layout = table.layout
    seen = np.zeros(len(fi), dtype=bool)
    if not len(rows):
        return seen, _hits(table, rules, lines, fi, ti, plain)
    starts, n = lines.start, len(fi)
    # the base looked at first: of those given for a pair, the one whose centre is nearest
    # the end of its line of fire (any would do: this one is most often seen)
    off = layout.base_middle[rows] - lines.end[pair]
    order = np.lexsort((np.add.reduce(off * off, axis=1), pair))
    lead = np.ones(len(order), dtype=bool)
    lead[1:] = pair[order[1:]] != pair[order[:-1]]
    chosen = order[lead]
    first = np.full(n, -1, dtype=np.intp)
    first[pair[chosen]] = rows[chosen]
    look = (first >= 0).nonzero()[0]
    cones = _cones(layout, starts[look], ti[look], first[look])
    both = _Probes(np.concatenate([lines.shapes, cones.shapes]),
                   np.concatenate([lines.start, cones.start]),
                   np.concatenate([lines.end, cones.end]),
                   np.concatenate([lines.reach, cones.reach]))
    (tp, tk), (up, uu) = _hits(table, rules, both, np.concatenate([fi, fi[look]]),
                               np.concatenate([ti, ti[look]]), plain)
    mine, theirs = tp < n, up < n
    clear = _clear_of(rules, len(look), tp[~mine] - n, up[~theirs] - n)
    seen[look[clear]] = True
    rest = (rows != first[pair]) & ~seen[pair]
    if _any(rest):
        p, r = pair[rest], rows[rest]
        clear = _clear(table, rules, _cones(layout, starts[p], ti[p], r), fi[p], ti[p],
                       plain)
        seen[p[clear]] = True
    return seen, ((tp[mine], tk[mine]), (up[theirs], uu[theirs]))


def _clear(table: Table, rules: SightRules, probes: _Probes, fi: IntArray,
           ti: IntArray, plain: bool = False) -> npt.NDArray[np.bool_]:
    """Whether each probe crosses nothing that blocks."""
    (tp, _), (up, _) = _hits(table, rules, probes, fi, ti, plain)
    return _clear_of(rules, len(fi), tp, up)


def _clear_of(rules: SightRules, count: int, terrain: IntArray,
              units: IntArray) -> npt.NDArray[np.bool_]:
    """Which of ``count`` probes cross nothing that blocks, given the probes that cross
    terrain and those that cross units."""
    clear = np.ones(count, dtype=bool)
    clear[terrain] = False
    if rules.units_block:
        clear[units] = False
    return clear


def _segment_gap(points: npt.NDArray[np.float64], a: npt.NDArray[np.float64],
                 b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Distance from each point to the segment from a to b (row by row)."""
    ab = b - a
    t = np.minimum(np.maximum(
        np.add.reduce((points - a) * ab, axis=1)
        / np.maximum(np.add.reduce(ab**2, axis=1), 1e-300), 0.0), 1.0)
    gap = a + ab * t[:, np.newaxis] - points
    result: npt.NDArray[np.float64] = np.hypot(gap[:, 0], gap[:, 1])
    return result


class _Probes:
    """Lines or cones to test for blockers: the shapes, and for each the segment from its
    start to its far end and how far the shape reaches off that segment (0 for a line, the
    base's half diagonal for a cone), which bounds the shape for a quick first sifting."""

    def __init__(self, shapes: Geometries, start: npt.NDArray[np.float64],
                 end: npt.NDArray[np.float64], reach: npt.NDArray[np.float64]) -> None:
        self.shapes, self.start, self.end, self.reach = shapes, start, end, reach


class _Slabs:
    """Each probe's line as a unit normal and an offset (``n . x = c``), so the distance of
    a point from it is one product: a probe lies within its reach of its segment, hence of
    its line, and a unit within its radius of its centre, so a unit whose centre is further
    from the line than the two together cannot meet the probe. A zero-length probe gets a
    zero normal: every unit passes."""

    def __init__(self, probes: _Probes) -> None:
        d = probes.end - probes.start
        length = np.hypot(d[:, 0], d[:, 1])
        scale = np.where(length > 0, length, 1.0)
        self.nx = np.where(length > 0, -d[:, 1] / scale, 0.0)
        self.ny = np.where(length > 0, d[:, 0] / scale, 0.0)
        self.c = self.nx * probes.start[:, 0] + self.ny * probes.start[:, 1]
        # the reach and a tolerance for rounding (relative to the coordinates)
        self.room = probes.reach + 1e-9 * (1.0 + np.abs(probes.start).max(axis=1)
                                           + np.abs(probes.end).max(axis=1))

    def near(self, p: IntArray, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
             radius: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """Whether the circle (x, y, radius) of each candidate may meet its probe ``p``."""
        gap = self.nx[p] * x
        gap += self.ny[p] * y
        gap -= self.c[p]
        np.abs(gap, out=gap)
        gap -= self.room[p]
        return gap <= radius


_Hits = tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]


def _hits(table: Table, rules: SightRules, probes: _Probes, fi: IntArray,
          ti: IntArray, plain: bool = False) -> _Hits:
    """What each probe crosses: (probe, blocker) index arrays for terrain (rows of
    ``terrain.blockers``) and (probe, unit row) for units, leaving out the firer and target
    themselves, features either stands in, and hills no higher than both. Candidates come
    from the spatial trees' boxes, are sifted by bounding circles when many, and only then
    tested exactly (against shapes shrunk by a hair, so that grazing an edge is not crossing).

    Units: the candidates (every unit whose outline's box meets the probe's box: a long
    line across a big battle has hundreds) are sifted first by the distance of each unit's
    centre from the probe's line (``_Slabs``: one product a candidate against numbers
    worked out once a probe), then the firer and target dropped, then the few left tested
    exactly (issue 28: the sifting was the cost of all-pairs sightings). A bound, so the
    crossings are those of the plain sifting (``plain``: by each candidate's distance from
    the probe's segment, after dropping firer and target: the reference the tests hold this
    to)."""
    layout = table.layout
    terrain = _terrain_hits(table, rules, probes, fi, ti)
    p, u = layout.tree.query(probes.shapes)
    if not plain and len(p) > _SIFT:
        near = _Slabs(probes).near(p, layout.centre_x[u], layout.centre_y[u],
                                   layout.radius[u])
        p, u = p[near], u[near]
        keep = (u != fi[p]) & (u != ti[p])
        p, u = p[keep], u[keep]
        if not len(p):
            return terrain, (_NONE, _NONE)
        cross = shapely.intersects(layout.inner_of(u), probes.shapes[p])
        return terrain, (p[cross], u[cross])
    keep = (u != fi[p]) & (u != ti[p])
    if not _any(keep):
        return terrain, (_NONE, _NONE)
    p, u = p[keep], u[keep]
    if len(p) > _SIFT:
        near = _segment_gap(layout.centre[u], probes.start[p], probes.end[p]) <= (
            layout.radius[u] + probes.reach[p] + 1e-9)
        if not _any(near):
            return terrain, (_NONE, _NONE)
        p, u = p[near], u[near]
    cross = shapely.intersects(layout.inner_of(u), probes.shapes[p])
    return terrain, (p[cross], u[cross])


def _terrain_hits(table: Table, rules: SightRules, probes: _Probes, fi: IntArray,
                  ti: IntArray) -> tuple[IntArray, IntArray]:
    """The terrain part of ``_hits``: (probe, blocker) for each blocker a probe crosses."""
    layout = table.layout
    blockers = table.terrain.blockers(rules.blocking, rules.hills_block)
    if not blockers.features:
        return _NONE, _NONE
    p, k = blockers.tree.query(probes.shapes)
    if len(p) and blockers.hills_by_level:  # hills no higher than both ends: never
        top = np.maximum(layout.levels[fi[p]], layout.levels[ti[p]])
        high = ~(blockers.hill[k] & (blockers.levels[k] <= top))
        p, k = p[high], k[high]
    if len(p) > _SIFT:
        near = _segment_gap(blockers.centres[k], probes.start[p], probes.end[p]) <= (
            blockers.radii[k] + probes.reach[p] + 1e-9)
        p, k = p[near], k[near]
    if not len(p):
        return _NONE, _NONE
    cross = shapely.intersects(blockers.inner[k], probes.shapes[p])
    p, k = p[cross], k[cross]
    fc, tc = layout.centre[fi[p]], layout.centre[ti[p]]
    own = (shapely.intersects_xy(blockers.geoms[k], fc[:, 0], fc[:, 1])
           | shapely.intersects_xy(blockers.geoms[k], tc[:, 0], tc[:, 1]))
    return p[~own], k[~own]


def _hidden_by_stretches(layout: Layout, probes: _Probes, fi: IntArray,
                         ti: IntArray) -> npt.NDArray[np.bool_]:
    """Whether each line (probes of no reach) crosses some unit other than its firer and
    target, what ``_hits`` finds of units, asked only until a line is found crossed: each
    line cut into
    ``_STRETCHES`` stretches end to end (the first and last points its own ends), asked one
    stretch at a time from both ends inwards, of the lines not yet found crossed: the units
    whose boxes meet a stretch, tested exactly against the whole line as ``_hits`` does.
    The stretches cover the line, and a unit's box in the tree is its whole outline's,
    wider by a hair than the shrunk shape tested (far more than a rounding at a joint), so
    every unit the line crosses is tested: a first cut that leaves none out, each query's
    boxes a fraction of the whole line's."""
    n, k = len(fi), _STRETCHES
    hidden = np.zeros(n, dtype=bool)
    start, end = probes.start, probes.end
    d = end - start
    joints = start[:, np.newaxis, :] + d[:, np.newaxis, :] * (
        np.arange(k + 1) / k)[np.newaxis, :, np.newaxis]
    joints[:, 0], joints[:, k] = start, end
    order = [j for pair in zip(range(k), range(k - 1, -1, -1), strict=True)
             for j in pair][:k]
    for j in order:
        rest = (~hidden).nonzero()[0]
        if not len(rest):
            break
        q, u = layout.tree.query(shapely.linestrings(joints[rest, j:j + 2]))
        p = rest[q]
        keep = (u != fi[p]) & (u != ti[p])
        p, u = p[keep], u[keep]
        if len(p):
            cross = shapely.intersects(layout.inner_of(u), probes.shapes[p])
            hidden[p[cross]] = True
    return hidden


_STRETCHES = 16
"""How many stretches ``_hidden_by_stretches`` cuts a line into."""
_MANY_LINES = 48
"""Above this many enemies, ``visible_enemies`` asks a stretch at a time (below, the whole
lines' boxes hold few units: ``_hits``'s one query costs less than sixteen)."""
_NONE: IntArray = np.zeros(0, dtype=np.intp)
_any = np.logical_or.reduce
"""Whether any of a boolean array holds (the ufunc itself: ``ndarray.any`` goes through
numpy's Python wrappers, a cost that counts on the few elements asked here)."""
_SIFT = 12
"""Above this many candidates from the boxes, sift them by bounding circles before the exact
test (a bound, so the answer is the same either way; a few exact tests cost less)."""


_WOODS = (TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS)


def _woods(terrain: TerrainIndex,
           lines: Geometries) -> list[tuple[tuple[TerrainKind, float], ...]]:
    kinds = [kind for kind in _WOODS if terrain.union(kind) is not None]
    if not kinds:  # no woods on the table
        return [()] * len(lines)
    found: list[list[tuple[TerrainKind, float]]] = [[] for _ in range(len(lines))]
    unions = np.empty(len(kinds), dtype=object)
    unions[:] = [terrain.union(kind) for kind in kinds]
    # each kind's union (prepared) against every line, then the lengths inside, kind by kind
    k, i = shapely.intersects(unions[:, np.newaxis], lines[np.newaxis, :]).nonzero()
    if len(k):
        lengths = shapely.length(shapely.intersection(lines[i], unions[k]))
        for kind, line, length in zip(k.tolist(), i.tolist(), lengths.tolist(), strict=True):
            if length > 0:
                found[line].append((kinds[kind], length))
    return [tuple(items) for items in found]


def woods_along(table: Table, line: LineString) -> tuple[tuple[TerrainKind, float], ...]:
    """The length of ``line`` inside each kind of woods it enters, light then dense (what a
    ``Sighting`` holds as ``woods`` for its line of fire)."""
    lines = np.empty(1, dtype=object)
    lines[0] = line
    return _woods(table.terrain, lines)[0]


def _too_deep(table: Table, rules: SightRules, lines: Geometries,
              woods: list[tuple[tuple[TerrainKind, float], ...]]) -> dict[int, list[str]]:
    """Pairs whose line runs further into some kind than the rules let sight reach, with the
    features of that kind it enters."""
    if not rules.see_into:
        return {}
    terrain = table.terrain
    found: dict[int, list[str]] = {}
    for kind, limit in rules.see_into:
        union = terrain.union(kind)
        if union is None:
            continue
        if kind in _WOODS:
            lengths = np.array([sum(x for k, x in w if k is kind) for w in woods])
        else:
            lengths = shapely.length(shapely.intersection(lines, union))
        for p in np.flatnonzero(lengths > limit + _EPS):
            ids = [f.feature_id for f in terrain.area_features
                   if f.kind is kind and shapely.intersects(f.area, lines[p])]
            found.setdefault(int(p), []).extend(ids)
    return found


def visible_enemies(table: Table, unit_id: str, *,
                    rules: SightRules = DEFAULT_SIGHT) -> tuple[str, ...]:
    """The enemies ``unit_id`` can see, looking any way: the line between the nearest
    points of the two crosses nothing that blocks sight."""
    enemies = table.enemies_of(unit_id)
    if len(enemies) <= _MANY_LINES:
        return _visible_enemies_plain(table, unit_id, rules=rules)
    layout = table.layout
    me = layout.index[unit_id]
    ti = layout.rows(enemies)
    fi = np.full(len(ti), me, dtype=np.intp)
    lines = shapely.shortest_line(layout.shapes[fi], layout.shapes[ti])
    coords = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    probes = _Probes(lines, coords[:, 0], coords[:, 1], np.zeros(len(ti)))
    # a line is hidden by a unit, by terrain or by going too deep into woods: each is asked
    # only of the lines the ones before left clear (the same answer as asking them all,
    # ``_visible_enemies_plain``; at 500 a side most lines cross a friend in front)
    hidden = (_hidden_by_stretches(layout, probes, fi, ti) if rules.units_block
              else np.zeros(len(ti), dtype=bool))
    rest = (~hidden).nonzero()[0]
    if len(rest):
        if len(rest) < len(ti):
            probes = _Probes(lines[rest], probes.start[rest], probes.end[rest],
                             probes.reach[rest])
        tp, _ = _terrain_hits(table, rules, probes, fi[rest], ti[rest])
        hidden[rest[tp]] = True
        if rules.see_into:
            rest = (~hidden).nonzero()[0]
            deep = _too_deep(table, rules, lines[rest], _woods(table.terrain, lines[rest]))
            hidden[rest[list(deep)]] = True
    return tuple(e for p, e in enumerate(enemies) if not hidden[p])


def _visible_enemies_plain(table: Table, unit_id: str, *,
                           rules: SightRules = DEFAULT_SIGHT) -> tuple[str, ...]:
    """``visible_enemies`` asking every line everything (the reference its tests hold it
    to, and the way for up to ``_MANY_LINES`` enemies)."""
    enemies = table.enemies_of(unit_id)
    if not enemies:
        return ()
    layout = table.layout
    me = layout.index[unit_id]
    ti = layout.rows(enemies)
    fi = np.full(len(ti), me, dtype=np.intp)
    lines = shapely.shortest_line(layout.shapes[fi], layout.shapes[ti])
    coords = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    probes = _Probes(lines, coords[:, 0], coords[:, 1], np.zeros(len(ti)))
    (tp, _), (up, _) = _hits(table, rules, probes, fi, ti)
    woods = _woods(table.terrain, lines)
    hidden = set(tp.tolist()) | set(_too_deep(table, rules, lines, woods))
    if rules.units_block:
        hidden |= set(up.tolist())
    return tuple(e for p, e in enumerate(enemies) if p not in hidden)


def point_distance(table: Table, unit_id: str, point: Point) -> float:
    """The distance from a unit's nearest point to a point (a commander, a marker)."""
    footprint = table.footprint(unit_id)
    x, y = check_number("point[0]", point[0]), check_number("point[1]", point[1])
    return float(shapely.distance(footprint.shape, shapely.Point(x, y)))
