"""The boxes round units (their ``Footprint.bounds``) as a first cut: which units could
matter to something happening inside a box (what might block a line of sight, stand in a
charge's way, be within an inch of where a move ends), and which units might stand within a
distance of a unit. Boxes are never further apart than the shapes inside them, so what they
leave out is out for certain; the caller measures the rest exactly.

Worked out once a table (``Table.derived``): a plain walk on small tables, numpy over all the
boxes at once on large ones, with the same answers."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import check_number

from .footprints import Footprint
from .tabletop import Table

__all__ = ["FEW", "Box", "box_gap", "footprints_near", "gap_over", "unit_boxes",
           "units_within_box"]

Box = tuple[float, float, float, float]
"""(min x, min y, max x, max y) in the table's measure."""

FloatArray = npt.NDArray[np.float64]

FEW = 48
"""On a table of at most this many units a Python walk over the boxes costs less than
asking numpy; the answers are the same."""

MARGIN = 1e-3
"""What ``units_within_box`` adds to the distance asked: a unit exactly at the distance (as
measured between shapes, which may round a hair above it) is in."""


def unit_boxes(table: Table) -> Mapping[str, Box]:
    """The box round each unit on the table (its ``Footprint.bounds``), by id."""
    return table.derived(_unit_boxes)


def _unit_boxes(table: Table) -> dict[str, Box]:
    return {f.unit_id: f.bounds for f in table.footprints}


def _box_array(table: Table) -> FloatArray:
    boxes = table.derived(_unit_boxes)
    found = np.array([boxes[f.unit_id] for f in table.footprints], dtype=float)
    return found.reshape(-1, 4)


def _rows(table: Table) -> dict[str, int]:
    return {f.unit_id: i for i, f in enumerate(table.footprints)}


def _plain(*values: object) -> bool:
    """Whether every value is a finite float (what ``Footprint.bounds`` holds)."""
    return all(type(v) is float and -_INF < v < _INF for v in values)


_INF = math.inf


def _box(value: object, field: str) -> Box:
    if not (isinstance(value, tuple | list) and len(value) == 4):
        raise InvalidValueError(field, value, "a box (min x, min y, max x, max y)")
    x0, y0, x1, y1 = (check_number(f"{field}[{i}]", v) for i, v in enumerate(value))
    if x0 > x1 or y0 > y1:
        raise InvalidValueError(field, value, "a box with min x <= max x and min y <= max y")
    return (x0, y0, x1, y1)


def footprints_near(table: Table, box: Box, reach: float = 0.0) -> tuple[Footprint, ...]:
    """The footprints (in the table's order) whose boxes reach within ``reach`` of ``box``
    along both axes: every unit whose box comes that near, and a few more at the corners
    (the caller's own measure judges those)."""
    if not (type(box) is tuple and len(box) == 4 and _plain(*box) and _plain(reach)
            and reach >= 0.0 and box[0] <= box[2] and box[1] <= box[3]):
        box = _box(box, "box")  # checked in full only when not a box of floats already
        check_number("reach", reach, 0)
    x0, y0, x1, y1 = box
    footprints = table.footprints
    if len(footprints) <= FEW:  # the boxes the footprints keep, walked
        return tuple(f for f in footprints
                     if (one := f.bounds)[0] <= x1 + reach and one[2] >= x0 - reach
                     and one[1] <= y1 + reach and one[3] >= y0 - reach)
    b = table.derived(_box_array)
    hit = ((b[:, 0] <= x1 + reach) & (b[:, 2] >= x0 - reach)
           & (b[:, 1] <= y1 + reach) & (b[:, 3] >= y0 - reach))
    return tuple(footprints[i] for i in np.flatnonzero(hit).tolist())


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they meet): never more than the distance
    between any shapes inside them."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def gap_over(a: Box, b: Box, limit: float) -> bool:
    """``box_gap(a, b) > limit`` (``limit`` not negative), the distance measured only where
    neither axis settles it alone (the gap is never less than either axis's)."""
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


def units_within_box(table: Table, unit_id: str, distance: float) -> frozenset[str]:
    """The other units whose box comes within ``distance`` (+ ``MARGIN``) of the box round
    ``unit_id``: the units that might stand within ``distance`` of it (a weapon's range, a
    charge's reach); those left out are further for certain."""
    if not (_plain(distance) and distance >= 0.0):
        check_number("distance", distance, 0)
    footprints = table.footprints
    if len(footprints) <= FEW:  # the boxes the footprints keep, walked
        box = table.footprint(unit_id).bounds
        limit = distance + MARGIN
        return frozenset([f.unit_id for f in footprints
                          if f.unit_id != unit_id and not gap_over(box, f.bounds, limit)])
    boxes = table.derived(_unit_boxes)
    if unit_id not in boxes:
        table.footprint(unit_id)  # the table's own error, naming the ids it holds
    limit = distance + MARGIN
    array = table.derived(_box_array)
    row = table.derived(_rows)[unit_id]
    box_row = array[row]
    dx = np.maximum(box_row[0] - array[:, 2], array[:, 0] - box_row[2])
    dy = np.maximum(box_row[1] - array[:, 3], array[:, 1] - box_row[3])
    gap = np.hypot(np.maximum(dx, 0.0), np.maximum(dy, 0.0))
    near = gap <= limit
    # those within a hair of the limit: the plain walk's own measure settles them
    for other in np.flatnonzero(np.abs(gap - limit) <= 1e-9).tolist():
        near[other] = not gap_over(boxes[unit_id], boxes[footprints[other].unit_id], limit)
    near[row] = False
    return frozenset(footprints[i].unit_id for i in np.flatnonzero(near).tolist())
