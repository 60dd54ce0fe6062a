"""What is worked out on one table and holds on the next: a move changes a few units'
footprints, and every judgement of a move, sighting or charge whose ground none of them
comes near is the same on the new table, so it is carried there instead of worked out
afresh (``Table.derived`` keeps each table's own answers; these are the dictionaries it
keeps them in)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from smoothbore.table import ChargeReach, Footprint, Point, SightLine, Table

KEEP_OFF = 1.0
"""A move that is not a charge ends at least 1" from every enemy (A26)."""
_TOUCH = 0.01
"""How near a changed unit must come to a zone to count as touching it."""

Box = tuple[float, float, float, float]
"""(min x, min y, max x, max y)."""
FloatArray = npt.NDArray[np.float64]


@attrs.frozen(eq=False)
class Zone:
    """The ground an answer looked at: the convex hull of ``points`` (12 of them, an
    array of shape (12, 2)), with the ``box`` round them for a quick first test."""

    box: Box
    points: FloatArray


def zone_of(*corners: Sequence[Point] | FloatArray) -> Zone:
    """The zone round these rectangles' corners (padded to 12 points by repeating the
    last, so that zones stack into one array)."""
    points = np.asarray(np.vstack(corners), dtype=float)
    if len(points) < 12:
        points = np.vstack([points, np.repeat(points[-1:], 12 - len(points), axis=0)])
    lo, hi = points.min(axis=0), points.max(axis=0)
    return Zone((float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), points)


def unit_boxes(table: Table) -> dict[str, Box]:
    """The box round each unit on the table (``Footprint.bounds``, kept with each
    footprint), by id. Made afresh for each table: reading the boxes the footprints keep
    costs half what carrying them from the table before did (issue 28: 0.5 ms against 1.2
    ms for 2,000 units, measured under load)."""
    return {f.unit_id: f.bounds for f in table.footprints}


FEW = 48
"""On a table of at most this many units, a Python walk over the boxes costs less than
asking numpy (``rows_near``, ``near_on``): the answers are the same."""


def box_array(table: Table) -> FloatArray:
    """``unit_boxes`` as one array of shape (units, 4), a row a footprint in the table's
    order: the few units near a box are found among many in one comparison (``rows_near``)
    instead of a Python test a unit (issue 28)."""
    boxes = table.derived(unit_boxes)
    found = np.array([boxes[f.unit_id] for f in table.footprints], dtype=float)
    return found.reshape(-1, 4)


def rows_near(table: Table, box: Box, reach: float) -> list[int]:
    """The rows of ``box_array`` (the footprints, in the table's order) whose box reaches
    within ``reach`` of ``box`` along both axes: every unit whose box comes that near, and a
    few more at the corners (the callers' own tests judge those)."""
    x0, y0, x1, y1 = box
    if len(table.footprints) <= FEW:
        boxes = table.derived(unit_boxes)
        return [i for i, f in enumerate(table.footprints)
                if (one := boxes[f.unit_id])[0] <= x1 + reach and one[2] >= x0 - reach
                and one[1] <= y1 + reach and one[3] >= y0 - reach]
    b = table.derived(box_array)
    hit = ((b[:, 0] <= x1 + reach) & (b[:, 2] >= x0 - reach)
           & (b[:, 1] <= y1 + reach) & (b[:, 3] >= y0 - reach))
    found: list[int] = np.flatnonzero(hit).tolist()
    return found


def radii(table: Table) -> dict[str, float]:
    """The radius of the circle round each unit's footprint (its half diagonal), by id:
    ``Layout.radius``, worked out the same way without building the layout; those of the
    units that stayed, or moved keeping their size, carried from the table before
    (``radius_memo``)."""
    known = table.derived(radius_memo)
    footprints = table.footprints
    if len(known) < len(footprints):
        fresh = [f for f in footprints if f.unit_id not in known]
        half_w = np.fromiter((f.width / 2 for f in fresh), float, len(fresh))
        half_l = np.fromiter((f.length / 2 for f in fresh), float, len(fresh))
        known.update(zip((f.unit_id for f in fresh), np.hypot(half_w, half_l).tolist(),
                         strict=True))
    return known


def nearest_memo(table: Table) -> dict[str, tuple[float, str] | None]:
    """For each unit asked (``situations.closing_move``), its ``nearest_enemy`` on this
    table, worked out or carried to it."""
    return {}


def nearest_enemy(table: Table, unit_id: str) -> tuple[float, str] | None:
    """The unit's nearest enemy by the circles round them: how far its centre lies from the
    enemy's circle (the distance between centres less the enemy's radius, ``radii``), and
    the enemy (the first id of those as near); None with no enemy. Kept with the table."""
    memo = table.derived(nearest_memo)
    if unit_id in memo:
        return memo[unit_id]
    enemies = table.enemies_of(unit_id)
    found = memo[unit_id] = (_nearest(table, table.footprint(unit_id).centre, enemies)
                             if enemies else None)
    return found


def _nearest(table: Table, here: Point, enemies: Sequence[str]) -> tuple[float, str]:
    radius, units = radii(table), table.units
    return min((math.dist(here, units[e].centre) - radius[e], e) for e in enemies)


def radius_memo(table: Table) -> dict[str, float]:
    """The radii worked out on this table (``radii``), or carried to it for the units that
    stand as they stood on the table before, or moved keeping their size."""
    return {}


def near_memo(table: Table) -> dict[tuple[str, float], frozenset[str]]:
    """The units near each unit on this table (``near_in``), by unit and distance."""
    return {}


def near_in(boxes: dict[str, Box], unit_id: str, inches: float) -> frozenset[str]:
    """The other units whose box (of ``boxes``, by id) comes within ``inches`` of the box
    round ``unit_id``: the units that might stand within ``inches`` of it (those further
    apart are so for certain: the nearest points are at least as far apart as the boxes)."""
    box, limit = boxes[unit_id], inches + 1e-3
    return frozenset([other for other, b in boxes.items()
                      if not gap_over(box, b, limit) and other != unit_id])


def near_on(table: Table, unit_id: str, inches: float) -> frozenset[str]:
    """``near_in`` of the table's boxes, the gaps of all of them at once (``box_array``): the
    axes settle most, and ``gap_over``'s own measure settles those within a hair of the
    limit, so the answer is the plain walk's (issue 28: one walk a unit and range, in
    Python, over every unit of the table before)."""
    footprints = table.footprints
    if len(footprints) <= FEW:
        return near_in(table.derived(unit_boxes), unit_id, inches)
    boxes = table.derived(box_array)
    row = table.derived(unit_rows)[unit_id]
    box, limit = boxes[row], inches + 1e-3
    dx = np.maximum(box[0] - boxes[:, 2], boxes[:, 0] - box[2])
    dy = np.maximum(box[1] - boxes[:, 3], boxes[:, 1] - box[3])
    gap = np.hypot(np.maximum(dx, 0.0), np.maximum(dy, 0.0))
    near = gap <= limit
    near[row] = False
    doubt = np.flatnonzero(np.abs(gap - limit) <= 1e-9).tolist()
    if doubt:
        mine = _box(box.tolist())
        for other in doubt:
            near[other] = other != row and not gap_over(mine, _box(boxes[other].tolist()),
                                                        limit)
    return frozenset([footprints[i].unit_id for i in np.flatnonzero(near).tolist()])


def _box(values: list[float]) -> Box:
    return (values[0], values[1], values[2], values[3])


def unit_rows(table: Table) -> dict[str, int]:
    """Each unit's row in the table's arrays (``box_array``), by id."""
    return {f.unit_id: i for i, f in enumerate(table.footprints)}


def boxes_within(a: Box, b: Box, inches: float) -> bool:
    """Whether boxes ``a`` and ``b`` might hold shapes within ``inches`` of each other as
    measured (A23): false only when they are for certain further apart."""
    return not gap_over(a, b, inches + 1e-3)


def move_memo(table: Table) -> dict[tuple[object, ...], object]:
    """The moves judged and the destinations offered on this table, by unit, its way of
    moving (type, formation, mounted), pace and destination: they depend on nothing else, so
    every state with this table shares them."""
    return {}


def arc_memo(table: Table) -> dict[tuple[str, str], bool]:
    """Whether each (firer, target) pair asked stands for certain outside the firer's arc
    on this table (``situations.outside_arc``): it depends on the two footprints alone."""
    return {}


def ground_memo(table: Table) -> dict[str, Any]:
    """What is worked out of the ground alone (the features and the table's size), by
    name: the same on every table with that ground."""
    return {}


def offer_memo(table: Table) -> dict[tuple[object, ...], Any]:
    """The moves offered on this table, by the unit's way of moving (its id first): the
    fixed set and the move towards the nearest enemy, which depends on nothing but the
    unit's footprint and its enemies'."""
    return {}


def sight_memo(table: Table) -> dict[tuple[str, str], SightLine]:
    """The sightings worked out on this table, or carried to it, by (firer, target)."""
    return {}


def charge_memo(table: Table) -> dict[tuple[str, str], ChargeReach]:
    """The charges worked out on this table, or carried to it, by (charger, target)."""
    return {}


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they meet): never more than the distance
    between any shapes inside them."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def gap_over(a: Box, b: Box, limit: float) -> bool:
    """``box_gap(a, b) > limit`` (``limit`` not negative), the distance measured only
    where neither axis settles it alone (the gap is never less than either axis's)."""
    dx, other = a[0] - b[2], b[0] - a[2]
    if other > dx:
        dx = other
    if dx > limit:
        return True
    dy, other = a[1] - b[3], b[1] - a[3]
    if other > dy:
        dy = other
    if dy > limit:
        return True
    if dx <= 0.0 and dy <= 0.0:
        return False
    return math.hypot(max(0.0, dx), max(0.0, dy)) > limit


@attrs.frozen
class Change:
    """The units a new table changed (moved, reformed, put down or taken off): their ids,
    and where each stood and stands (boxes and shapes)."""

    ids: frozenset[str]
    boxes: tuple[Box, ...]
    places: tuple[Footprint, ...]

    @property
    def shapes(self) -> tuple[BaseGeometry, ...]:
        """What the changed units covered and cover."""
        return tuple(f.shape for f in self.places)

    @classmethod
    def between(cls, old: Table, new: Table) -> Change:
        """What changed from ``old`` to ``new``."""
        before, after = old.units, new.units
        ids = _changed(old.footprints, new.footprints)
        if ids is None:  # units came, went or changed places in the order
            ids = frozenset(u for u in before.keys() | after.keys()
                            if (a := before.get(u)) is not (b := after.get(u)) and a != b)
        places = [f for u in sorted(ids) for f in (before.get(u), after.get(u))
                  if f is not None]
        return cls(ids, tuple(f.bounds for f in places), tuple(places))

    def untouched(self, zones: Sequence[Zone], reach: float) -> list[bool]:
        """For each zone, whether every changed unit stays more than ``reach`` from it
        (the boxes first; only zones a box comes near are tested exactly)."""
        return self.clear_of([z.box for z in zones], lambda doubt: hulls_of(
            np.stack([zones[i].points for i in doubt])), reach)

    def clear_of(self, boxes: Sequence[Box],
                 shapes: Callable[[list[int]], npt.NDArray[np.object_]],
                 reach: float) -> list[bool]:
        """``untouched`` for zones given as their ``boxes`` and, asked only for those a
        changed unit's box comes near, their ``shapes`` (for those indices at once, an
        array of geometries)."""
        mine = self.boxes
        out = [all([gap_over(box, b, reach) for b in mine]) for box in boxes]
        doubt = [i for i, ok in enumerate(out) if not ok]
        if doubt:
            hulls = shapes(doubt)
            near = np.zeros(len(doubt), dtype=bool)
            for place in self.places:
                near |= shapely.dwithin(hulls, place.shape, reach)
            for i, hit in zip(doubt, near.tolist(), strict=True):
                out[i] = not hit
        return out


def _changed(before: Sequence[Footprint], after: Sequence[Footprint]) -> frozenset[str] | None:
    """The units whose footprints differ between two tables listing the same units in the
    same order (a move puts the new footprint where the old one was); None when they do
    not."""
    if len(before) != len(after):
        return None
    ids = []
    for a, b in zip(before, after, strict=True):
        if a is not b:
            if a.unit_id != b.unit_id:
                return None
            if a != b:
                ids.append(a.unit_id)
    return frozenset(ids)


def hulls_of(points: FloatArray) -> npt.NDArray[np.object_]:
    """The convex hull of each set of points (an array of shape (sets, points, 2)): the
    hull of the ring through them (the hull of a shape is the hull of its points), made in
    one call for every set instead of a point at a time."""
    return np.asarray(shapely.convex_hull(shapely.polygons(points)), dtype=object)


def carried(old: Table, new: Table) -> Table:
    """``new`` (``old`` with some units moved, reformed or taken off) with what was worked
    out on ``old`` that the change cannot alter: the moves judged of units that stayed whose
    zone is more than 1" from where every changed unit stood and stands; the sightings and
    charges of pairs of units that stayed, whose ground no changed unit touches. The same
    answers as working them out afresh (each depends only on the ground and the units
    inside its zone), kept instead."""
    if new is old:
        return new
    if new.features != old.features or new.width != old.width or new.depth != old.depth:
        return new
    ground = new.derived(ground_memo)
    for key, value in old.derived(ground_memo).items():
        ground.setdefault(key, value)
    change = Change.between(old, new)
    _carry_radii(old, new, change)
    if not change.ids:  # only commanders or traces changed: every answer holds
        memos: tuple[Callable[[Table], dict[Any, Any]], ...] = (
            move_memo, offer_memo, sight_memo, charge_memo, arc_memo, near_memo,
            nearest_memo)
        for memo in memos:
            after, before = new.derived(memo), old.derived(memo)
            if after:  # what the new table knows already stands
                before = {key: value for key, value in before.items() if key not in after}
            after.update(before)
        return new
    _carry_near(old, new, change)
    _carry_nearest(old, new, change)
    _carry_moves(old, new, change)
    _carry_offers(old, new, change)
    _carry_arcs(old, new, change)
    _carry_sightings(old, new, change)
    _carry_charges(old, new, change)
    return new


def _carry_radii(old: Table, new: Table, change: Change) -> None:
    """The radius of each unit (``radii``), which a unit moved keeps while its width and
    depth stay the same."""
    ids = change.ids
    after_radii = new.derived(radius_memo)
    before, now = old.units, new.units
    for uid, radius in old.derived(radius_memo).items():
        if uid in ids:
            a, b = before.get(uid), now.get(uid)
            if a is None or b is None or a.width != b.width or a.length != b.length:
                continue
        after_radii.setdefault(uid, radius)


def _carry_near(old: Table, new: Table, change: Change) -> None:
    """The units near a unit that stayed: those that were, less the changed units, and the
    changed units near it now."""
    kept = old.derived(near_memo)
    if not kept:
        return
    ids = change.ids
    boxes = new.derived(unit_boxes)
    moved = [uid for uid in sorted(ids) if uid in boxes]
    after = new.derived(near_memo)
    for key, found in kept.items():
        uid, inches = key
        if uid in ids or uid not in boxes or key in after:
            continue
        box, limit = boxes[uid], inches + 1e-3
        close = [other for other in moved if not gap_over(box, boxes[other], limit)]
        after[key] = found.difference(ids).union(close) if close else found.difference(ids)


def _carry_nearest(old: Table, new: Table, change: Change) -> None:
    """The nearest enemy of a unit that stayed, when that enemy stayed too: it is still
    nearer than every enemy that stayed, so only the enemies that moved or came may be
    nearer now."""
    kept = old.derived(nearest_memo)
    if not kept:
        return
    ids, units = change.ids, new.units
    after = new.derived(nearest_memo)
    came = [uid for uid in sorted(ids) if uid in units]
    for uid, found in kept.items():
        if found is None or uid in ids or found[1] in ids or uid in after:
            continue
        side = units[uid].side
        others = [e for e in came if units[e].side and units[e].side != side]
        after[uid] = min(found, _nearest(new, units[uid].centre, others)) if others else found


def _carry_moves(old: Table, new: Table, change: Change) -> None:
    before = old.derived(move_memo)
    kept = [(key, judged) for key, judged in before.items()
            if key[0] != "destinations" and key[0] not in change.ids
            and isinstance(getattr(judged, "zone", None), Zone)]
    if not kept:
        return
    after = new.derived(move_memo)
    zones = [judged.zone for _, judged in kept]  # type: ignore[attr-defined]
    for (key, judged), ok in zip(kept, change.untouched(zones, KEEP_OFF + _TOUCH),
                                 strict=True):
        if ok:
            after.setdefault(key, judged)


def _carry_offers(old: Table, new: Table, change: Change) -> None:
    """The moves offered to a unit that stayed, when none of its enemies changed."""
    offered = old.derived(offer_memo)
    if not offered:
        return
    sides = {f.side for f in change.places}
    units = old.units
    after = new.derived(offer_memo)
    for key, moves in offered.items():
        uid = str(key[0])
        if uid in change.ids or uid not in units:
            continue
        side = units[uid].side
        if not side or all(s in ("", side) for s in sides):
            after.setdefault(key, moves)


def _carry_arcs(old: Table, new: Table, change: Change) -> None:
    """Whether a target is outside a firer's arc, for pairs that both stayed."""
    ids = change.ids
    after = new.derived(arc_memo)
    for pair, outside in old.derived(arc_memo).items():
        if pair[0] not in ids and pair[1] not in ids:
            after.setdefault(pair, outside)


def _carry_sightings(old: Table, new: Table, change: Change) -> None:
    """A sighting depends on the ground, the firer and the target, and on the other units
    only where they cross its line of fire (``SightLine.line``, inside the box round the
    two): carried where no changed unit comes near that line."""
    seen = old.derived(sight_memo)
    ids = change.ids
    kept = [(pair, found) for pair, found in seen.items()
            if pair[0] not in ids and pair[1] not in ids]
    if not kept:
        return
    boxes = old.derived(unit_boxes)

    def lines(doubt: list[int]) -> npt.NDArray[np.object_]:
        found = np.empty(len(doubt), dtype=object)
        found[:] = [kept[i][1].line for i in doubt]
        return found

    zones = [_union(boxes[a], boxes[b]) for (a, b), _ in kept]
    after = new.derived(sight_memo)
    for (pair, found), ok in zip(kept, change.clear_of(zones, lines, _TOUCH), strict=True):
        if ok:
            after.setdefault(pair, found)


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _carry_charges(old: Table, new: Table, change: Change) -> None:
    """A charge looks at other units only on the ground its charger's straight advance to
    contact covers (the units in the way): carried where no changed unit touches that."""
    charged = old.derived(charge_memo)
    if not charged or new.diagonal != old.diagonal:
        return
    after = new.derived(charge_memo)
    units = old.units
    doubt: list[tuple[tuple[str, str], ChargeReach, Footprint, float]] = []
    for pair, reached in charged.items():
        if pair[0] in change.ids or pair[1] in change.ids:
            continue
        if reached.ahead is None or reached.ahead <= 0:
            after.setdefault(pair, reached)
            continue
        doubt.append((pair, reached, units[pair[0]], reached.ahead))
    if not doubt:
        return
    boxes = old.derived(unit_boxes)

    def shifted(charger: Footprint, ahead: float) -> tuple[float, float]:
        (fx, fy), _ = charger.frame
        return fx * ahead, fy * ahead

    zones = []
    for _, _, charger, ahead in doubt:
        x0, y0, x1, y1 = boxes[charger.unit_id]
        dx, dy = shifted(charger, ahead)
        zones.append(_union((x0, y0, x1, y1), (x0 + dx, y0 + dy, x1 + dx, y1 + dy)))

    def points(indices: list[int]) -> FloatArray:
        corners = np.stack([doubt[i][2].corners for i in indices])
        moved = np.array([shifted(doubt[i][2], doubt[i][3]) for i in indices])
        return np.concatenate([corners, corners + moved[:, np.newaxis, :]], axis=1)

    for (pair, reached, _, _), ok in zip(doubt, change.clear_of(
            zones, lambda indices: hulls_of(points(indices)), _TOUCH),
                                         strict=True):
        if ok:
            after.setdefault(pair, reached)
