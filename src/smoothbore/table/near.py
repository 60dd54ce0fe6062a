"""Cheap first cuts and nearest things, the same for every book: which enemies may be within
a weapon's reach and arc, which units may lie straight ahead within a charge's reach (bounds
from centres and sizes over the layout's arrays: never leaving out one the exact measure
accepts, so a book's candidates ask the exact measure only of these), the nearest enemy,
and the lines a move crosses.

Each bound widens the exact test by the far unit's half diagonal and ``slack`` (rounding):
a unit it leaves out is out for certain."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import shapely

from smoothbore.core.validate import check_number

from .footprints import Footprint
from .paths import Route
from .tabletop import Table
from .terrain import LINEAR_KINDS, TerrainKind

__all__ = ["SLACK", "ahead_in_reach", "enemies_in_reach", "lines_crossed", "nearest_enemy"]

SLACK = 0.01
"""What the bounds allow beyond the exact measures (rounding), in the table's measure."""

_DRY = (TerrainKind.FORD, TerrainKind.BRIDGE)
_HAIR = 1e-6


def enemies_in_reach(table: Table, unit_id: str, reach: float, half_angle: float = 45.0,
                     slack: float = SLACK) -> tuple[str, ...]:
    """The enemies (in the table's order) that may lie within ``reach`` of the unit's
    nearest point and in its arc of ``half_angle`` degrees (the angle off its front measured
    at the nearer front corner, as ``sightings`` measures it): those whose centres are too
    far for any part to be near enough, or lie where no part can be ahead of the front edge
    within the arc, are left out. A unit holding a building sees all round."""
    check_number("reach", reach, 0)
    check_number("half_angle", half_angle, 0, 180)
    enemies = table.enemies_of(unit_id)
    if not enemies:
        return ()
    layout = table.layout
    i = layout.index[unit_id]
    rows = layout.rows(enemies)
    dx = layout.centre[rows, 0] - layout.centre[i, 0]
    dy = layout.centre[rows, 1] - layout.centre[i, 1]
    spread = layout.radius[rows] + slack
    out = np.hypot(dx, dy) > reach + layout.radius[i] + spread
    if not layout.building[i] and half_angle < 90.0:
        (fx, fy), (rx, ry) = layout.fwd[i], layout.right[i]
        ahead = dx * fx + dy * fy - layout.half_l[i]
        beside = np.abs(dx * rx + dy * ry) - layout.half_w[i]
        if half_angle == 45.0:  # the texts' arc: the plain bound
            wide = beside - ahead > math.sqrt(2) * spread
        else:  # further than ``spread`` beyond the arc's edge through the front corner
            a = math.radians(half_angle)
            wide = beside * math.cos(a) - ahead * math.sin(a) > spread
        out |= (ahead < -spread) | wide
    return tuple(enemies[k] for k in np.flatnonzero(~out).tolist())


def ahead_in_reach(table: Table, unit_id: str, targets: Iterable[str], longest: float,
                   slack: float = SLACK) -> frozenset[str]:
    """Those of ``targets`` (units on the table) some part of which may lie in the strip
    straight ahead of the unit's front edge within ``longest`` (a charge's reach): the
    centre close enough to that strip, in the unit's frame."""
    check_number("longest", longest, 0)
    ids = tuple(targets)
    if not ids:
        return frozenset()
    layout = table.layout
    rows = layout.rows(ids)
    i = layout.index[unit_id]
    (fx, fy), (rx, ry) = layout.fwd[i], layout.right[i]
    dx = layout.centre[rows, 0] - layout.centre[i, 0]
    dy = layout.centre[rows, 1] - layout.centre[i, 1]
    side, ahead = dx * rx + dy * ry, dx * fx + dy * fy
    spread = layout.radius[rows] + slack
    front = layout.half_l[i]
    keep = ((np.abs(side) <= layout.half_w[i] + spread) & (front - spread <= ahead)
            & (ahead <= front + longest + spread))
    return frozenset(ids[k] for k in np.flatnonzero(keep).tolist())


def nearest_enemy(table: Table, unit_id: str) -> tuple[Footprint, float] | None:
    """The footprint of the enemy nearest the unit (nearest points; the first by id of
    those as near) and how far it is; None with no enemy on the table. Only the enemies
    that may be nearest are measured (by the centres' distances and half diagonals)."""
    enemies = table.enemies_of(unit_id)
    if not enemies:
        return None
    layout = table.layout
    i = layout.index[unit_id]
    rows = layout.rows(enemies)
    away = np.hypot(layout.centre[rows, 0] - layout.centre[i, 0],
                    layout.centre[rows, 1] - layout.centre[i, 1])
    least = away - layout.radius[rows] - layout.radius[i]
    most = float(np.min(away + layout.radius[rows] + layout.radius[i]))
    chosen = np.flatnonzero(least <= most + SLACK)
    gaps = shapely.distance(layout.shapes[i], layout.shapes[rows[chosen]]).tolist()
    found = {enemies[k]: g for k, g in zip(chosen.tolist(), gaps, strict=True)}
    near = min(found, key=lambda e: (found[e], e))
    return table.footprint(near), float(found[near])


def lines_crossed(table: Table, route: Route) -> tuple[str, ...]:
    """The crossed features (fences, walls, streams, linear works: their ids, in the
    table's order) that some part of the unit's footprint passes over on ``route``, where it
    did not already stand astride them; a stream counts only away from its fords and
    bridges. A line the footprint only comes up to (along its edge) is not crossed."""
    if not route.swept & (LINEAR_KINDS | set(_DRY)):
        return ()
    terrain = table.terrain
    if not terrain.crossed_features:
        return ()
    start = table.footprint(route.unit_id)
    offsets = start.corners - (start.x, start.y)
    hulls: list[Any] = [shapely.convex_hull(shapely.multipoints(np.concatenate((offsets + a,
                                                                     offsets + b))))
             for a, b in itertools.pairwise(route.points)]
    swept = hulls[0] if len(hulls) == 1 else shapely.union_all(hulls)
    swept = shapely.buffer(swept, -_HAIR, join_style="mitre")  # a hair inside
    dry = [u for kind in _DRY if (u := terrain.union(kind)) is not None]
    outline = start.outline
    found = []
    for feature, line in zip(terrain.crossed_features, terrain.lines.tolist(), strict=True):
        if feature.kind is TerrainKind.STREAM:
            for crossing in dry:
                line = shapely.difference(line, crossing)
        line = shapely.difference(line, outline)  # where it already stands astride it
        if shapely.relate_pattern(swept, line, "T********"):
            found.append(feature.feature_id)
    return tuple(found)
