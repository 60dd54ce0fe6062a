"""The units of a table as arrays, for questions asked of many pairs at once: centres,
facings, half sizes, outlines and shapes, bases, and a spatial tree of the outlines. Built
once per table (``Table.layout``), vectorised with numpy and Shapely.

The angle rule shared by arcs and faces: a point's angle off a footprint's front is 0
anywhere straight ahead of its front edge (between the lines that extend its flanks),
otherwise the angle at the nearer front corner between straight ahead and the point; points
level with or behind the front edge between the flanks are 180. A point is inside the arc
of half-angle ``a`` (45 in the texts) exactly when its angle is at most ``a``."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from . import vectorised as vec
from .footprints import Footprint, Formation
from .terrain import TerrainIndex

__all__ = ["FRONT", "LEFT", "REAR", "RIGHT", "Layout", "base_distances", "face_codes",
           "fire_lines", "off_front"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
Geometries = vec.Geometries

INNER = 1e-7
"""How far (relative to the table's size) shapes are shrunk to tell crossing from grazing."""

FRONT, LEFT, RIGHT, REAR = 0, 1, 2, 3
"""Face codes in arrays (``Face`` members in values)."""


class Layout:
    """The footprints of one table as arrays, row ``i`` for ``footprints[i]``. What only
    some questions need (bases, front edges, the spatial tree, the shrunk shapes, ground
    levels) is worked out on first use."""

    def __init__(self, footprints: Sequence[Footprint], terrain: TerrainIndex) -> None:
        # built from what each footprint has worked out of itself (its frame, corners,
        # outline, shape and bases, each cached on it): a unit that has not moved since the
        # last table costs a few list entries here, not its geometry again
        self.footprints = tuple(footprints)
        self._terrain = terrain
        fps = self.footprints
        n = len(fps)
        self.index = {f.unit_id: i for i, f in enumerate(fps)}
        numbers = np.array([(f.x, f.y, *f.frame[0], *f.frame[1], f.width / 2, f.length / 2)
                            for f in fps], dtype=float).reshape(n, 8)
        self.centre: FloatArray = numbers[:, 0:2]
        self.fwd: FloatArray = numbers[:, 2:4]
        self.right: FloatArray = numbers[:, 4:6]
        self.half_w: FloatArray = numbers[:, 6]
        self.half_l: FloatArray = numbers[:, 7]
        self.radius: FloatArray = np.hypot(self.half_w, self.half_l)
        self.building: BoolArray = np.array(
            [f.formation is Formation.BUILDING for f in fps], dtype=bool).reshape(n)
        self.outlines: Geometries = _objects([f.outline for f in fps])
        self.shapes: Geometries = _objects([f.shape for f in fps])

    @functools.cached_property
    def corners(self) -> FloatArray:
        """Each unit's front left, front right, rear right and rear left corners (n, 4, 2)."""
        n = len(self.footprints)
        return np.array([f.corners for f in self.footprints], dtype=float).reshape(n, 4, 2)

    @functools.cached_property
    def _apart(self) -> list[int]:
        """The rows whose shape is their bases standing apart rather than their outline."""
        return [i for i, f in enumerate(self.footprints) if f.shape is not f.outline]

    @functools.cached_property
    def _base_arrays(self) -> tuple[IntArray, IntArray, FloatArray, FloatArray, FloatArray,
                                    BoolArray, FloatArray, FloatArray]:
        """Every base: where each unit's start in the flat rows, their owners, corners (flat,
        row by row), and padded per unit: centres, half sizes (across, deep), and which
        slots hold a base; then the centres flat, and each unit's half diagonal of a
        base."""
        fps = self.footprints
        n = len(fps)
        each = [f.base_corners for f in fps]
        counts = [len(c) for c in each]
        start: IntArray = np.array([0, *itertools.accumulate(counts)], dtype=np.intp)
        owner: IntArray = np.repeat(np.arange(n), counts)
        halves = np.array([(f.width / 2, f.length / 2) if f.formation is Formation.BUILDING
                           else (f.frontage / 2, f.depth / 2) for f in fps],
                          dtype=float).reshape(n, 2)
        corners: FloatArray = np.concatenate(each) if n else np.zeros((0, 4, 2))
        centres = (corners[:, 0] + corners[:, 2]) / 2
        most = max(counts, default=1)
        if min(counts, default=1) == most:  # every unit has as many bases
            centre: FloatArray = centres.reshape(n, most, 2)
            half: FloatArray = np.repeat(halves[:, np.newaxis, :], most, axis=1)
            valid: BoolArray = np.ones((n, most), dtype=bool)
        else:
            step = np.arange(len(owner)) - start[owner]
            centre = np.zeros((n, most, 2))
            half = np.zeros((n, most, 2))
            valid = np.zeros((n, most), dtype=bool)
            centre[owner, step] = centres
            half[owner, step] = halves[owner]
            valid[owner, step] = True
        reach: FloatArray = np.hypot(halves[:, 0], halves[:, 1])
        return start, owner, corners, centre, half, valid, centres, reach

    @property
    def base_start(self) -> IntArray:
        """Where each unit's bases start among the rows of ``base_corners`` (n + 1)."""
        return self._base_arrays[0]

    @property
    def base_owner(self) -> IntArray:
        """The unit of each row of ``base_corners``."""
        return self._base_arrays[1]

    @property
    def base_corners(self) -> FloatArray:
        """Every base's corners, unit after unit (bases, 4, 2)."""
        return self._base_arrays[2]

    @property
    def base_centre(self) -> FloatArray:
        """Each unit's base centres, padded (n, most bases, 2)."""
        return self._base_arrays[3]

    @property
    def base_half(self) -> FloatArray:
        """Each unit's base half sizes (across, deep), padded like ``base_centre``."""
        return self._base_arrays[4]

    @property
    def base_valid(self) -> BoolArray:
        """Which slots of ``base_centre`` hold a base."""
        return self._base_arrays[5]

    @property
    def base_middle(self) -> FloatArray:
        """The centre of every base, unit after unit (rows of ``base_corners``)."""
        return self._base_arrays[6]

    @property
    def base_reach(self) -> FloatArray:
        """Each unit's half diagonal of one of its bases (all of a unit's bases are alike)."""
        return self._base_arrays[7]

    @functools.cached_property
    def _part_arrays(self) -> tuple[FloatArray, FloatArray, BoolArray]:
        """The rectangles each shape is made of: its outline, or its bases when they stand
        apart (centres, half sizes, which slots hold one; padded per unit)."""
        apart, n = self._apart, len(self.footprints)
        if apart:
            whole = np.ones(n, dtype=bool)
            whole[apart] = False
            centre, half, valid = (self.base_centre.copy(), self.base_half.copy(),
                                   self.base_valid.copy())
            valid[whole] = False
            valid[whole, 0] = True
            centre[whole, 0] = self.centre[whole]
            half[whole, 0, 0] = self.half_w[whole]
            half[whole, 0, 1] = self.half_l[whole]
            return centre, half, valid
        return (self.centre[:, np.newaxis, :],
                np.stack([self.half_w, self.half_l], axis=-1)[:, np.newaxis, :],
                np.ones((n, 1), dtype=bool))

    @property
    def part_centre(self) -> FloatArray:
        """The centres of the rectangles each shape is made of, padded (n, parts, 2)."""
        return self._part_arrays[0]

    @property
    def part_half(self) -> FloatArray:
        """Their half sizes (across, deep), padded like ``part_centre``."""
        return self._part_arrays[1]

    @property
    def part_valid(self) -> BoolArray:
        """Which slots of ``part_centre`` hold a rectangle."""
        return self._part_arrays[2]

    @functools.cached_property
    def _part_frames(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """For ``base_distances`` over parts: each unit's (right x, ahead x) and (right y,
        ahead y) (n, 1, 2), and its parts' negated half sizes."""
        return _frames(self, self.part_half)

    @functools.cached_property
    def _base_frames(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """As ``_part_frames``, with the bases' negated half sizes."""
        return _frames(self, self.base_half)

    @functools.cached_property
    def part_corners(self) -> FloatArray:
        """The corners of the rectangles each shape is made of (n, parts, 4, 2): front
        left, front right, rear right, rear left (padding slots: their centre)."""
        c = self.part_centre
        r = self.right[:, np.newaxis, np.newaxis, :]
        f = self.fwd[:, np.newaxis, np.newaxis, :]
        half = self.part_half[:, :, np.newaxis, :] * _SIGNS
        result: FloatArray = c[:, :, np.newaxis, :] + r * half[..., :1] + f * half[..., 1:]
        return result

    @functools.cached_property
    def front_lines(self) -> Geometries:
        """Each unit's front edge; a unit in a building fires and is seen from every side:
        its "front" is its outline."""
        fronts = vec.linestrings(self.corners[:, :2]) if len(self.footprints) else _empty()
        if self.building.any():
            fronts[self.building] = shapely.boundary(self.outlines[self.building])
        return fronts

    @functools.cached_property
    def tree(self) -> shapely.STRtree:
        """A spatial tree of the outlines."""
        return shapely.STRtree(self.outlines)

    @functools.cached_property
    def centre_x(self) -> FloatArray:
        """The centres' x, contiguous (for gathers of many candidates)."""
        return np.ascontiguousarray(self.centre[:, 0])

    @functools.cached_property
    def centre_y(self) -> FloatArray:
        """The centres' y, contiguous."""
        return np.ascontiguousarray(self.centre[:, 1])

    @functools.cached_property
    def _inner(self) -> tuple[Geometries, BoolArray]:
        """``inner_of`` as made so far, row by row, and which rows are made."""
        n = len(self.footprints)
        return np.full(n, None, dtype=object), np.zeros(n, dtype=bool)

    def inner_of(self, rows: IntArray) -> Geometries:
        """The shapes of these rows shrunk by a hair, prepared: a line or cone that meets
        these crosses the unit rather than grazing its edge (Shapely's plain test instead of
        relate). Each is made on first use, once for each footprint and hair on this ground
        (``TerrainIndex.remember``): a unit that has not moved keeps its shape."""
        made, done = self._inner
        if not _every(done[rows]):
            terrain = self._terrain
            hair = INNER * (1.0 + float(np.abs(self.centre).max(initial=1.0)))
            # each row not yet made, once (a question of many probes names a row many times:
            # marked in an array, not walked in Python, nor ``np.unique``, whose first call
            # imports numpy.ma)
            wanted = np.zeros(len(done), dtype=bool)
            wanted[rows] = True
            wanted &= ~done
            keys = {r: (_INNER, self.footprints[r], hair) for r in wanted.nonzero()[0].tolist()}
            new = []
            for r, key in keys.items():
                known = terrain.recalled(key)
                if known is None:
                    new.append(r)
                else:
                    made[r] = known
            if new:
                need = np.array(sorted(new), dtype=np.intp)
                shrunk = vec.polygons(_corners(
                    self.centre[need], self.fwd[need], self.right[need],
                    np.maximum(self.half_w[need] - hair, hair / 2),
                    np.maximum(self.half_l[need] - hair, hair / 2)))
                apart = set(self._apart)
                for j, r in enumerate(need.tolist()):
                    if r in apart:
                        shrunk[j] = shapely.buffer(self.shapes[r], -hair, join_style="mitre")
                shapely.prepare(shrunk)
                made[need] = shrunk
                for r, shape in zip(need.tolist(), shrunk, strict=True):
                    terrain.remember(keys[r], shape)
            done[list(keys)] = True
        found: Geometries = made[rows]
        return found

    @functools.cached_property
    def levels(self) -> IntArray:
        """The ground's height at each unit's centre (once for each centre on this ground,
        ``TerrainIndex.remember``)."""
        terrain = self._terrain
        keys = [(_LEVEL, f.x, f.y) for f in self.footprints]
        known: list[int | None] = [terrain.recalled(key) for key in keys]
        new = [i for i, level in enumerate(known) if level is None]
        if new:
            for i, level in zip(new, terrain.levels_at(self.centre[new]).tolist(),
                                strict=True):
                known[i] = level
                terrain.remember(keys[i], level)
        return np.array(known, dtype=np.intp).reshape(len(keys))

    def rows(self, unit_ids: Sequence[str]) -> IntArray:
        """The rows of these units."""
        return np.fromiter((self.index[u] for u in unit_ids), np.intp, len(unit_ids))

    def strips(self, rows: IntArray, length: float) -> Geometries:
        """The ground straight ahead of each unit's front edge, ``length`` long."""
        c, f, r = self.centre[rows], self.fwd[rows], self.right[rows]
        w, h = self.half_w[rows, None], self.half_l[rows, None]
        points = np.empty((len(rows), 4, 2))
        points[:, 0] = fl = c + f * h - r * w
        points[:, 1] = fr = c + f * h + r * w
        points[:, 2] = fr + f * length
        points[:, 3] = fl + f * length
        return vec.polygons(points)

    def local(self, rows: IntArray, points: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Points (one per row) in each row's frame: (u right of the centre, v ahead)."""
        d = points - self.centre[rows]
        return (np.einsum("ij,ij->i", d, self.right[rows]),
                np.einsum("ij,ij->i", d, self.fwd[rows]))


_INNER, _LEVEL = "layout: shape shrunk by a hair", "layout: ground level"
"""Keys of what a layout remembers on the ground, per footprint."""
_every = np.logical_and.reduce
"""Whether all of a boolean array holds (the ufunc: fewer Python wrappers than ``all``)."""

_SIGNS = np.array([[-1.0, 1.0], [1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
"""Front left, front right, rear right, rear left: the signs of (across, deep)."""


def _frames(layout: Layout, halves: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    axes = np.empty((2, len(layout.footprints), 1, 2))
    axes[:, :, 0, 0] = layout.right.T
    axes[:, :, 0, 1] = layout.fwd.T
    return axes[0], axes[1], -halves


def _corners(centre: FloatArray, fwd: FloatArray, right: FloatArray, half_w: FloatArray,
             half_l: FloatArray) -> FloatArray:
    """Front left, front right, rear right, rear left corners: shape (n, 4, 2)."""
    f = fwd * half_l[:, None]
    r = right * half_w[:, None]
    return np.stack([centre + f - r, centre + f + r, centre - f + r, centre - f - r], axis=1)


def _empty() -> Geometries:
    return np.empty(0, dtype=object)


def _objects(items: list[object]) -> Geometries:
    """A one-dimensional array of these objects (geometries)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def off_front(layout: Layout, rows: IntArray, points: FloatArray,
              backwards: bool = False) -> FloatArray:
    """Each point's angle off the front of the unit in the same row (degrees, 0 to 180), by
    the rule in this module's docstring; ``backwards``: off its rear edge, looking back."""
    u, v = layout.local(rows, points)
    return off_front_local(layout, rows, u, v, backwards)


def off_front_local(layout: Layout, rows: IntArray, u: FloatArray, v: FloatArray,
                    backwards: bool = False) -> FloatArray:
    """``off_front`` of points already in each row's frame (``Layout.local``); ``v`` may
    hold several rows of points, one a row of it, for the same units."""
    if backwards:
        v = -v
    v = v - layout.half_l[rows]
    excess = np.abs(u) - layout.half_w[rows]
    inside = np.where(v >= 0, 0.0, 180.0)
    with np.errstate(invalid="ignore"):
        beside = np.degrees(np.arctan2(excess, v))
    return np.where(excess <= 0, inside, beside)


def base_distances(layout: Layout, rows: IntArray, points: FloatArray,
                   parts: bool = True) -> tuple[FloatArray, FloatArray, IntArray]:
    """For each point, its distance to the unit in the same row, the nearest point of that
    unit, and which of its rectangles that point is on: the rectangles its shape is made of
    (``parts``) or its bases. Exact, since these are rectangles."""
    gap, c, centre = _to_rectangles(layout, rows, points[:, np.newaxis, :], parts)
    gap, c, centre = gap[:, 0], c[:, 0], centre[:, 0]
    if gap.shape[1] == 1:
        best = np.zeros(len(rows), dtype=np.intp)
        gaps, nearest_c, nearest_centre = gap[:, 0], c[:, 0], centre[:, 0]
    else:
        best = gap.argmin(axis=1)
        pick = np.arange(len(rows))
        gaps, nearest_c, nearest_centre = gap[pick, best], c[pick, best], centre[pick, best]
    nearest = (nearest_centre + layout.right[rows] * nearest_c[:, :1]
               + layout.fwd[rows] * nearest_c[:, 1:])
    return gaps, nearest, best


def _to_rectangles(layout: Layout, rows: IntArray, points: FloatArray, parts: bool) -> tuple[
        FloatArray, FloatArray, FloatArray]:
    """For ``points`` (m, k, 2), k of them for the unit in each row: the distance of each to
    each of that unit's rectangles (its parts or its bases; padding slots: infinity), the
    nearest point of each rectangle in its frame (m, k, B, 2), and their centres
    (m, 1, B, 2)."""
    if parts:
        centres, valid = layout.part_centre, layout.part_valid
        (xs, ys, low), halves = layout._part_frames, layout.part_half
    else:
        centres, valid = layout.base_centre, layout.base_valid
        (xs, ys, low), halves = layout._base_frames, layout.base_half
    centre = centres[rows][:, np.newaxis]  # (m, 1, B, 2)
    d = points[:, :, np.newaxis, :] - centre
    # (u, v): right of each rectangle's centre and ahead of it; c: the nearest point in it
    uv = d[..., :1] * xs[rows][:, np.newaxis] + d[..., 1:] * ys[rows][:, np.newaxis]
    c = np.minimum(np.maximum(uv, low[rows][:, np.newaxis]), halves[rows][:, np.newaxis])
    off = uv - c
    gap = np.hypot(off[..., 0], off[..., 1])
    if gap.shape[2] > 1:
        gap[~valid[rows][:, np.newaxis].repeat(gap.shape[1], axis=1)] = np.inf
    return gap, c, centre


def fire_lines(layout: Layout, fi: IntArray, ti: IntArray, scale: float,
               apart: FloatArray | None = None) -> tuple[Geometries, FloatArray, FloatArray]:
    """Each pair's line of fire and its start: from the middle of the stretch of the firer's
    front edge nearest the target, to the target's nearest point (``scale``: the table's
    size, for the tolerance of "nearest"; ``apart``: the distances between the two units,
    when known). Distances to bases are
    exact for rectangles, so the nearest stretch of front edge is found among the edge's
    ends and the feet of the target's corners on it."""
    m = len(fi)
    front = layout.corners[fi]
    fl, fr = front[:, 0], front[:, 1]
    edge = fr - fl
    length2 = np.maximum(np.add.reduce(edge**2, axis=1), 1e-300)
    corners = layout.part_corners[ti]
    feet = np.add.reduce(
        (corners - fl[:, np.newaxis, np.newaxis, :]) * edge[:, np.newaxis, np.newaxis, :],
        axis=-1) / length2[:, np.newaxis, np.newaxis]
    feet = np.minimum(np.maximum(feet, 0.0), 1.0)
    if feet.shape[1] > 1:
        feet[~layout.part_valid[ti]] = 0.0
    k = 2 + feet.shape[1] * 4
    ts = np.empty((m, k))
    ts[:, 0] = 0.0
    ts[:, 1] = 1.0
    ts[:, 2:] = feet.reshape(m, -1)
    points = fl[:, np.newaxis, :] + ts[..., np.newaxis] * edge[:, np.newaxis, :]
    gaps = np.minimum.reduce(_to_rectangles(layout, ti, points, parts=True)[0], axis=2)
    least = np.minimum.reduce(gaps, axis=1)
    tol = 1e-9 * (1.0 + scale)
    near = gaps <= least[:, np.newaxis] + tol
    t0 = np.minimum.reduce(np.where(near, ts, np.inf), axis=1)
    t1 = np.maximum.reduce(np.where(near, ts, -np.inf), axis=1)
    starts = fl + ((t0 + t1) / 2)[:, np.newaxis] * edge
    gap, ends, _ = base_distances(layout, ti, starts)
    off = gap > least + tol  # the middle is not nearest (targets with gaps): the first end
    if np.logical_or.reduce(off):
        starts[off] = fl[off] + t0[off, np.newaxis] * edge[off]
        _, ends[off], _ = base_distances(layout, ti[off], starts[off])
    ends_at = np.empty((m, 2, 2))
    ends_at[:, 0], ends_at[:, 1] = starts, ends
    lines = vec.linestrings(ends_at)
    # a front edge reaching into the target: only where the units touch or overlap
    touching = ((least > tol) & (
        (shapely.distance(layout.shapes[fi], layout.shapes[ti]) if apart is None else apart)
        <= tol)).nonzero()[0]
    if len(touching):
        exact = shapely.distance(layout.front_lines[fi[touching]], layout.shapes[ti[touching]])
        touching = touching[exact < least[touching] - tol]
    odd = layout.building[fi]
    if len(touching):
        odd[touching] = True
    other = odd.nonzero()[0]
    if len(other):  # a unit in a building, or a front edge that overlaps the target
        lines[other] = shapely.shortest_line(layout.front_lines[fi[other]],
                                             layout.shapes[ti[other]])
        coords = shapely.get_coordinates(lines[other]).reshape(-1, 2, 2)
        starts[other], ends[other] = coords[:, 0], coords[:, 1]
    return lines, starts, ends


def face_codes(layout: Layout, rows: IntArray, points: FloatArray, front_arc: float,
               rear_arc: float) -> IntArray:
    """Which face of the unit in each row a point lies off: FRONT when its angle off the
    front is at most ``front_arc``, REAR when its angle off the rear is at most
    ``rear_arc``, otherwise the flank on its side (LEFT or RIGHT). Units holding buildings
    have only a front."""
    u, v = layout.local(rows, points)
    both = np.empty((2, len(rows)))
    both[0] = v
    np.negative(v, out=both[1])  # looking back off the rear edge
    angles = off_front_local(layout, rows, u, both)
    front, rear = angles[0] <= front_arc, angles[1] <= rear_arc
    codes = np.where(front, FRONT, np.where(rear, REAR, np.where(u < 0, LEFT, RIGHT)))
    codes[layout.building[rows]] = FRONT
    return codes.astype(np.intp)
