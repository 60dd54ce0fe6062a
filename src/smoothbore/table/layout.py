"""The units of a table as arrays, for questions asked of many pairs at once: centres,
facings, half sizes, outlines and shapes, bases, and a spatial tree of the outlines. Built
once per table (``Table.layout``), vectorised with numpy and Shapely.

The angle rule shared by arcs and faces: a point's angle off a footprint's front is 0
anywhere straight ahead of its front edge (between the lines that extend its flanks),
otherwise the angle at the nearer front corner between straight ahead and the point; points
level with or behind the front edge between the flanks are 180. A point is inside the arc
of half-angle ``a`` (45 in the texts) exactly when its angle is at most ``a``."""

from __future__ import annotations

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
    """The footprints of one table as arrays, row ``i`` for ``footprints[i]``."""

    __slots__ = (
        "base_centre",
        "base_corners",
        "base_half",
        "base_owner",
        "base_start",
        "base_valid",
        "building",
        "centre",
        "corners",
        "footprints",
        "front_lines",
        "fwd",
        "half_l",
        "half_w",
        "index",
        "inner",
        "levels",
        "outlines",
        "part_centre",
        "part_half",
        "part_valid",
        "radius",
        "right",
        "shapes",
        "tree",
    )

    def __init__(self, footprints: Sequence[Footprint], terrain: TerrainIndex) -> None:
        # built from what each footprint has worked out of itself (its frame, corners,
        # outline, shape and bases, each cached on it): a unit that has not moved since the
        # last table costs a few list entries here, not its geometry again
        self.footprints = tuple(footprints)
        fps = self.footprints
        n = len(fps)
        self.index = {f.unit_id: i for i, f in enumerate(fps)}
        numbers = np.array([(f.x, f.y, *f.frame[0], *f.frame[1], f.width / 2, f.length / 2)
                            for f in fps], dtype=float).reshape(n, 8)
        self.centre = numbers[:, 0:2].copy()
        self.fwd = numbers[:, 2:4].copy()
        self.right = numbers[:, 4:6].copy()
        self.half_w = numbers[:, 6].copy()
        self.half_l = numbers[:, 7].copy()
        self.radius: FloatArray = np.hypot(self.half_w, self.half_l)
        self.building = np.array([f.formation is Formation.BUILDING for f in fps],
                                 dtype=bool).reshape(n)
        corners = np.array([f.corners for f in fps], dtype=float).reshape(n, 4, 2)
        self.corners: FloatArray = corners
        self.outlines: Geometries = _objects([f.outline for f in fps])
        self._bases(fps)
        self.shapes: Geometries = _objects([f.shape for f in fps])
        apart = [i for i, f in enumerate(fps) if f.shape is not f.outline]
        # the rectangles each shape is made of: its outline, or its bases when they stand apart
        if apart:
            whole = np.setdiff1d(np.arange(n), apart)
            self.part_centre = self.base_centre.copy()
            self.part_half = self.base_half.copy()
            self.part_valid = self.base_valid.copy()
            self.part_valid[whole] = False
            self.part_valid[whole, 0] = True
            self.part_centre[whole, 0] = self.centre[whole]
            self.part_half[whole, 0, 0] = self.half_w[whole]
            self.part_half[whole, 0, 1] = self.half_l[whole]
        else:
            self.part_centre = self.centre[:, np.newaxis, :].copy()
            self.part_half = np.stack([self.half_w, self.half_l], axis=-1)[:, np.newaxis, :]
            self.part_valid = np.ones((n, 1), dtype=bool)
        # a unit in a building fires and is seen from every side: its "front" is its outline
        fronts = vec.linestrings(corners[:, :2]) if n else _empty()
        if self.building.any():
            fronts[self.building] = shapely.boundary(self.outlines[self.building])
        self.front_lines: Geometries = fronts
        self.tree = shapely.STRtree(self.outlines)
        # the shapes shrunk by a hair: a line or cone that meets these crosses the unit
        # rather than grazing its edge (Shapely's plain test, prepared, instead of relate)
        hair = INNER * (1.0 + float(np.abs(self.centre).max(initial=1.0)))
        inner = vec.polygons(_corners(self.centre, self.fwd, self.right,
                                      np.maximum(self.half_w - hair, hair / 2),
                                      np.maximum(self.half_l - hair, hair / 2))) if n else _empty()
        for i in apart:
            inner[i] = shapely.buffer(self.shapes[i], -hair, join_style="mitre")
        shapely.prepare(inner)
        self.inner: Geometries = inner
        self.levels: IntArray = terrain.levels_at(self.centre)

    def _bases(self, fps: tuple[Footprint, ...]) -> None:
        """Every base: corners (flat, row by row), and padded per unit: centres, half sizes
        (across, deep), and which slots hold a base."""
        n = len(fps)
        each = [f.base_corners for f in fps]
        counts = np.array([len(c) for c in each], dtype=np.intp).reshape(n)
        self.base_start: IntArray = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
        self.base_owner: IntArray = np.repeat(np.arange(n), counts)
        owner = self.base_owner
        step = np.arange(len(owner)) - self.base_start[owner]
        halves = np.array([(f.width / 2, f.length / 2) if f.formation is Formation.BUILDING
                           else (f.frontage / 2, f.depth / 2) for f in fps],
                          dtype=float).reshape(n, 2)
        self.base_corners: FloatArray = (np.concatenate(each) if n
                                         else np.zeros((0, 4, 2)))
        centres = (self.base_corners[:, 0] + self.base_corners[:, 2]) / 2
        most = int(counts.max()) if n else 1
        self.base_centre: FloatArray = np.zeros((n, most, 2))
        self.base_half: FloatArray = np.zeros((n, most, 2))
        self.base_valid: BoolArray = np.zeros((n, most), dtype=bool)
        self.base_centre[owner, step] = centres
        self.base_half[owner, step] = halves[owner]
        self.base_valid[owner, step] = True

    def rows(self, unit_ids: Sequence[str]) -> IntArray:
        """The rows of these units."""
        return np.fromiter((self.index[u] for u in unit_ids), np.intp, len(unit_ids))

    def strips(self, rows: IntArray, length: float) -> Geometries:
        """The ground straight ahead of each unit's front edge, ``length`` long."""
        c, f, r = self.centre[rows], self.fwd[rows], self.right[rows]
        w, h = self.half_w[rows, None], self.half_l[rows, None]
        fl = c + f * h - r * w
        fr = c + f * h + r * w
        points = np.stack([fl, fr, fr + f * length, fl + f * length], axis=1)
        return vec.polygons(points)

    def local(self, rows: IntArray, points: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Points (one per row) in each row's frame: (u right of the centre, v ahead)."""
        d = points - self.centre[rows]
        return (np.einsum("ij,ij->i", d, self.right[rows]),
                np.einsum("ij,ij->i", d, self.fwd[rows]))


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
    """``off_front`` of points already in each row's frame (``Layout.local``)."""
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
    centre = layout.part_centre if parts else layout.base_centre
    halves = layout.part_half if parts else layout.base_half
    valid = layout.part_valid if parts else layout.base_valid
    cx, cy = centre[rows, :, 0], centre[rows, :, 1]  # (m, B)
    fx, fy = layout.fwd[rows, 0, np.newaxis], layout.fwd[rows, 1, np.newaxis]
    rx, ry = layout.right[rows, 0, np.newaxis], layout.right[rows, 1, np.newaxis]
    dx, dy = points[:, 0, np.newaxis] - cx, points[:, 1, np.newaxis] - cy
    u, v = dx * rx + dy * ry, dx * fx + dy * fy
    hu, hv = halves[rows, :, 0], halves[rows, :, 1]
    cu, cv = np.clip(u, -hu, hu), np.clip(v, -hv, hv)
    gap = np.where(valid[rows], np.hypot(u - cu, v - cv), np.inf)
    best = gap.argmin(axis=1)
    pick = np.arange(len(rows))
    bu, bv = cu[pick, best], cv[pick, best]
    nearest = np.stack([cx[pick, best] + rx[:, 0] * bu + fx[:, 0] * bv,
                        cy[pick, best] + ry[:, 0] * bu + fy[:, 0] * bv], axis=-1)
    return gap[pick, best], nearest, best


def fire_lines(layout: Layout, fi: IntArray, ti: IntArray, scale: float,
               apart: FloatArray | None = None) -> tuple[Geometries, FloatArray, FloatArray]:
    """Each pair's line of fire and its start: from the middle of the stretch of the firer's
    front edge nearest the target, to the target's nearest point (``scale``: the table's
    size, for the tolerance of "nearest"; ``apart``: the distances between the two units,
    when known). Distances to bases are
    exact for rectangles, so the nearest stretch of front edge is found among the edge's
    ends and the feet of the target's corners on it."""
    fl, fr = layout.corners[fi, 0], layout.corners[fi, 1]
    edge = fr - fl
    length2 = np.maximum((edge**2).sum(axis=1), 1e-300)
    c = layout.part_centre[ti]
    r = layout.right[ti][:, np.newaxis, np.newaxis, :]
    f = layout.fwd[ti][:, np.newaxis, np.newaxis, :]
    signs = np.array([[-1.0, 1.0], [1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
    half = layout.part_half[ti][:, :, np.newaxis, :] * signs
    corners = c[:, :, np.newaxis, :] + r * half[..., :1] + f * half[..., 1:]
    feet = ((corners - fl[:, np.newaxis, np.newaxis, :]) * edge[:, np.newaxis, np.newaxis, :]
            ).sum(-1) / length2[:, np.newaxis, np.newaxis]
    feet = np.where(layout.part_valid[ti][..., np.newaxis], np.clip(feet, 0.0, 1.0), 0.0)
    ts = np.concatenate([np.zeros((len(fi), 1)), np.ones((len(fi), 1)),
                         feet.reshape(len(fi), -1)], axis=1)
    k = ts.shape[1]
    points = fl[:, np.newaxis, :] + ts[..., np.newaxis] * edge[:, np.newaxis, :]
    gaps, _, _ = base_distances(layout, np.repeat(ti, k), points.reshape(-1, 2))
    gaps = gaps.reshape(len(fi), k)
    least = gaps.min(axis=1)
    tol = 1e-9 * (1.0 + scale)
    near = gaps <= least[:, np.newaxis] + tol
    t0 = np.where(near, ts, np.inf).min(axis=1)
    t1 = np.where(near, ts, -np.inf).max(axis=1)
    starts = fl + ((t0 + t1) / 2)[:, np.newaxis] * edge
    gap, ends, _ = base_distances(layout, ti, starts)
    off = gap > least + tol  # the middle is not nearest (targets with gaps): the first end
    if off.any():
        starts[off] = fl[off] + t0[off, np.newaxis] * edge[off]
        _, ends[off], _ = base_distances(layout, ti[off], starts[off])
    lines = vec.linestrings(np.stack([starts, ends], axis=1))
    # a front edge reaching into the target: only where the units touch or overlap
    touching = np.flatnonzero((least > tol) & (
        (shapely.distance(layout.shapes[fi], layout.shapes[ti]) if apart is None else apart)
        <= tol))
    if len(touching):
        exact = shapely.distance(layout.front_lines[fi[touching]], layout.shapes[ti[touching]])
        touching = touching[exact < least[touching] - tol]
    odd = layout.building[fi]
    if len(touching):
        odd = odd.copy()
        odd[touching] = True
    other = np.flatnonzero(odd)
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
    front = off_front_local(layout, rows, u, v) <= front_arc
    rear = off_front_local(layout, rows, u, v, backwards=True) <= rear_arc
    codes = np.where(front, FRONT, np.where(rear, REAR, np.where(u < 0, LEFT, RIGHT)))
    codes[layout.building[rows]] = FRONT
    return codes.astype(np.intp)
