"""Charges and contact: whether a unit can reach another straight ahead, how far, which face
it strikes (front, flank or rear), whether two units touch and on which faces, and how far
one overlaps the other.

The face struck is decided by where the charger's centre stands before it moves, in the
target's zones: the front zone is what lies within ``front_arc`` of the target's front (90
degrees: anywhere level with or ahead of the line of its front edge), the rear zone what lies
within ``rear_arc`` of its rear (90: behind the line of its rear edge), the flanks what is
between. ``front_arc=45, rear_arc=45`` gives the zones cut by 45-degree lines from the
corners instead. Units holding buildings have only a front."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt
import shapely

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import check_number

from . import vectorised as vec
from .footprints import Face, Footprint, Point
from .layout import face_codes
from .sight import FACES, enemy_pairs
from .tabletop import Table

__all__ = [
    "ChargeReach",
    "charge_reach",
    "charges",
    "contact_position",
    "face_from",
    "in_contact",
    "overlap",
    "touching_faces",
]

_EPS = 1e-9


@attrs.frozen
class ChargeReach:
    """What ``charger`` can do against ``target``: ``distance`` between nearest points;
    ``ahead``, how far its front edge must go straight ahead to touch the target (None: the
    target is not directly to its front); ``face``, the target's face it would strike;
    ``blocked_by``, other units in the way of that straight advance; ``reach``, the charge
    reach asked about."""

    charger: str
    target: str
    distance: float
    ahead: float | None
    face: Face
    blocked_by: tuple[str, ...]
    reach: float

    @property
    def directly_ahead(self) -> bool:
        """Some of the target lies straight ahead of the charger's front edge."""
        return self.ahead is not None

    @property
    def in_reach(self) -> bool:
        """Directly ahead, within reach, and nothing in the way."""
        return self.ahead is not None and self.ahead <= self.reach + _EPS and not self.blocked_by

    @property
    def near_enough(self) -> bool:
        """The nearest points are within reach (for rules that let a charge turn)."""
        return self.distance <= self.reach + _EPS


def charge_reach(table: Table, charger: str, target: str, reach: float, *,
                 front_arc: float = 90.0, rear_arc: float = 90.0) -> ChargeReach:
    """Whether ``charger`` reaches ``target`` within ``reach`` (see ``charges``)."""
    return charges(table, [(charger, target)], reach, front_arc=front_arc,
                   rear_arc=rear_arc)[0]


def charges(table: Table, pairs: Sequence[tuple[str, str]] | None, reach: float | Mapping[
        str, float], *, front_arc: float = 90.0, rear_arc: float = 90.0) -> tuple[
            ChargeReach, ...]:
    """For each (charger, target) pair (None: every unit and every enemy), how it can
    charge: ``reach`` is one distance for all or a mapping by charger id (3" infantry, 6"
    cavalry in Will's rules)."""
    check_number("front_arc", front_arc, 0, 180)
    check_number("rear_arc", rear_arc, 0, 180)
    if pairs is None:
        pairs = enemy_pairs(table)
    if not pairs:
        return ()
    layout = table.layout
    for a, b in pairs:
        table.footprint(a), table.footprint(b)
        if a == b:
            raise InvalidValueError("pairs", (a, b), "a charger and a different target")
    reaches = [reach.get(a) if isinstance(reach, Mapping) else reach for a, _ in pairs]
    for (a, _), value in zip(pairs, reaches, strict=True):
        if value is None:
            raise InvalidValueError("reach", a, "a reach for every charger")
        check_number("reach", value, 0)
    ci = layout.rows([a for a, _ in pairs])
    ti = layout.rows([b for _, b in pairs])
    shapes = layout.shapes
    gap = shapely.distance(shapes[ci], shapes[ti])
    strips = layout.strips(ci, 2 * table.diagonal + 1.0)
    meet = shapely.intersection(strips, shapes[ti])
    has = ~shapely.is_empty(meet)
    ahead = np.full(len(ci), np.inf)
    if has.any():
        coords, which = shapely.get_coordinates(meet[has], return_index=True)
        rows = np.flatnonzero(has)[which]
        _, v = layout.local(ci[rows], coords)
        np.minimum.at(ahead, rows, np.maximum(v - layout.half_l[ci[rows]], 0.0))
    blocked = _in_the_way(table, ci, ti, np.where(has, ahead, 0.0), has)
    faces = face_codes(layout, ti, layout.centre[ci], front_arc, rear_arc)
    return tuple(
        ChargeReach(a, b, float(gap[p]), float(ahead[p]) if has[p] else None,
                    FACES[int(faces[p])], blocked[p], float(reaches[p]))  # type: ignore[arg-type]
        for p, (a, b) in enumerate(pairs))


def _in_the_way(table: Table, ci: npt.NDArray[np.intp], ti: npt.NDArray[np.intp],
                ahead: npt.NDArray[np.float64],
                has: npt.NDArray[np.bool_]) -> list[tuple[str, ...]]:
    """Units other than charger and target whose interior the straight advance crosses."""
    layout = table.layout
    found: list[list[str]] = [[] for _ in range(len(ci))]
    rows = np.flatnonzero(has & (ahead > 0))
    if not len(rows):
        return [()] * len(ci)
    c = ci[rows]
    f, r = layout.fwd[c], layout.right[c]
    w, h = layout.half_w[c, None], layout.half_l[c, None]
    centre = layout.centre[c]
    go = ahead[rows, None]
    corners = np.stack([centre + f * (h + go) - r * w, centre + f * (h + go) + r * w,
                        centre - f * h + r * w, centre - f * h - r * w], axis=1)
    swept = vec.polygons(corners)
    p, u = layout.tree.query(swept, predicate="intersects")
    mine = (u == c[p]) | (u == ti[rows][p])
    p, u = p[~mine], u[~mine]
    if len(p):
        inner = shapely.relate_pattern(swept[p], layout.shapes[u], "T********")
        for j in np.flatnonzero(inner):
            found[rows[p[j]]].append(layout.footprints[u[j]].unit_id)
    return [tuple(sorted(items)) for items in found]


def contact_position(table: Table, charger: str, target: str) -> Footprint:
    """The charger moved straight ahead until it touches the target."""
    result = charge_reach(table, charger, target, 0.0)
    if result.ahead is None:
        raise InvalidValueError(
            "target", target, f"a unit directly to the front of {charger!r}")
    return table.footprint(charger).advanced(result.ahead)


def face_from(table: Table, unit_id: str, point: Point, *, front_arc: float = 90.0,
              rear_arc: float = 90.0) -> Face:
    """The face of ``unit_id`` that a point lies off (see the module's docstring)."""
    check_number("front_arc", front_arc, 0, 180)
    check_number("rear_arc", rear_arc, 0, 180)
    x, y = check_number("point[0]", point[0]), check_number("point[1]", point[1])
    layout = table.layout
    rows = layout.rows([_known(table, unit_id)])
    code = face_codes(layout, rows, np.array([[x, y]]), front_arc, rear_arc)[0]
    return FACES[int(code)]


def _known(table: Table, unit_id: str) -> str:
    table.footprint(unit_id)
    return unit_id


def _tolerance(table: Table, tolerance: float | None) -> float:
    if tolerance is None:
        return table.measure.from_inches(0.01)
    return check_number("tolerance", tolerance, 0)


def in_contact(table: Table, a: str, b: str, tolerance: float | None = None) -> bool:
    """Whether two units touch (their nearest points within ``tolerance``, by default a
    hundredth of an inch in the table's measure)."""
    gap = shapely.distance(table.footprint(a).shape, table.footprint(b).shape)
    return bool(gap <= _tolerance(table, tolerance))


def touching_faces(table: Table, unit_id: str, other: str,
                   tolerance: float | None = None) -> tuple[Face, ...]:
    """The faces of ``unit_id`` that ``other`` touches along some length (front first); a
    unit touched only at a corner touches the two faces that meet there; a unit holding a
    building has only a front."""
    footprint = table.footprint(unit_id)
    shape = table.footprint(other).shape
    tol = _tolerance(table, tolerance)
    near = shapely.buffer(shape, tol)
    lengths = {face: float(shapely.length(shapely.intersection(footprint.edge(face), near)))
               for face in Face}
    faces = tuple(face for face in Face if lengths[face] > 2.5 * tol)
    if not faces:
        faces = tuple(face for face in Face
                      if shapely.distance(footprint.edge(face), shape) <= tol)
    if faces and not footprint.has_flanks:
        return (Face.FRONT,)
    return faces


def overlap(table: Table, unit_id: str, other: str) -> tuple[float, float]:
    """How far ``unit_id`` reaches past the flanks of ``other``, measured along the line of
    other's front: (past its left flank, past its right flank); zeros when it does not reach
    past them. McKie's overlap of one figure and Will's line against a column read this."""
    mine = table.footprint(unit_id)
    theirs = table.footprint(other)
    u, _ = theirs.local(mine.corners)
    half = theirs.width / 2
    return (max(0.0, float(-half - u.min())), max(0.0, float(u.max() - half)))
