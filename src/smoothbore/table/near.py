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

__all__ = [
    "SLACK",
    "ahead_in_reach",
    "enemies_in_reach",
    "lines_crossed",
    "nearest_enemies",
    "nearest_enemy",
    "nearest_enemy_by_circles",
    "stands_on_many",
    "surely_outside_arc",
]

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


def surely_outside_arc(firer: Footprint, target: Footprint, half_angle: float = 45.0,
                       margin: float = 1e-3) -> bool:
    """Whether every corner of ``target`` lies more than ``margin`` outside ``firer``'s arc
    of ``half_angle`` degrees on the same side (behind its front edge, or beyond the arc's
    edge through its right or its left front corner): then no part of it is in the arc (a
    corner test, no geometry). Never for an arc of 90 degrees or more, nor for a unit
    holding a building (it sees all round)."""
    check_number("half_angle", half_angle, 0, 180)
    if half_angle >= 90.0 or not firer.has_flanks:
        return False
    (fx, fy), (rx, ry) = firer.frame
    w, h, x, y = firer.width / 2, firer.length / 2, firer.x, firer.y
    plain = half_angle == 45.0  # the texts' arc: the plain sums
    c, s_ = math.cos(math.radians(half_angle)), math.sin(math.radians(half_angle))
    behind = right = left = True
    for px, py in target.corners.tolist():
        dx, dy = px - x, py - y
        u, v = dx * rx + dy * ry, dx * fx + dy * fy - h  # v: ahead of the front edge
        behind = behind and v < -margin
        if plain:
            right = right and v < u - w - margin
            left = left and v < -u - w - margin
        else:
            right = right and v * s_ < (u - w) * c - margin
            left = left and v * s_ < (-u - w) * c - margin
    return behind or right or left


def nearest_enemy_by_circles(table: Table, unit_id: str) -> tuple[float, str] | None:
    """The unit's nearest enemy by the circles round them: how far its centre lies from the
    enemy's circle (the distance between centres less the enemy's half diagonal), and the
    enemy (the first id of those as near); None with no enemy on the table."""
    start = table.footprint(unit_id)
    enemies = table.enemies_of(unit_id)
    if not enemies:
        return None
    radius = table.derived(_radii)
    units = table.units
    here = start.centre
    return min((math.dist(here, units[e].centre) - radius[e], e) for e in enemies)


def _radii(table: Table) -> dict[str, float]:
    """Each unit's half diagonal, by id (once a table)."""
    footprints = table.footprints
    half_w = np.fromiter((f.width / 2 for f in footprints), float, len(footprints))
    half_l = np.fromiter((f.length / 2 for f in footprints), float, len(footprints))
    return dict(zip((f.unit_id for f in footprints), np.hypot(half_w, half_l).tolist(),
                    strict=True))


def stands_on_many(table: Table, footprints: Iterable[Footprint]) -> tuple[tuple[str, ...],
                                                                          ...]:
    """For each footprint (a place a unit would end, on this table or not): the other units
    on the table whose ground it shares (their insides meet; touching is not standing on),
    in the order the table's tree gives them: one query and one test of every pair."""
    ends = tuple(footprints)
    if not ends:
        return ()
    layout = table.layout
    shapes = np.empty(len(ends), dtype=object)
    shapes[:] = [e.shape for e in ends]
    ia, ib = layout.tree.query(shapes, predicate="intersects")
    ids = [f.unit_id for f in layout.footprints]
    keep = np.fromiter((ids[b] != ends[a].unit_id for a, b in zip(ia.tolist(), ib.tolist(),
                                                                   strict=True)),
                       bool, len(ia))
    ia, ib = ia[keep], ib[keep]
    found: list[list[str]] = [[] for _ in ends]
    if len(ia):
        inside = shapely.relate_pattern(shapes[ia], layout.shapes[ib], "T********")
        for a, b in zip(ia[inside].tolist(), ib[inside].tolist(), strict=True):
            found[a].append(ids[b])
    return tuple(tuple(f) for f in found)


def nearest_enemies(table: Table, footprints: Iterable[Footprint]
                    ) -> tuple[tuple[float, str] | None, ...]:
    """For each footprint (a place a unit of its side would stand): the nearest enemy on the
    table (units of another side) and how far, nearest points (the first id of those as
    near); None with no enemy. The enemies that may be nearest each are found by an array
    bound (centres and half diagonals), their distances in one call for all."""
    ends = tuple(footprints)
    out: list[tuple[float, str] | None] = [None] * len(ends)
    if not ends:
        return ()
    layout = table.layout
    ids = [f.unit_id for f in layout.footprints]
    sides = [f.side for f in layout.footprints]
    for side in dict.fromkeys(e.side for e in ends):
        mine = [i for i, e in enumerate(ends) if e.side == side]
        rows = np.array([r for r, s in enumerate(sides) if s and side and s != side],
                        dtype=np.intp)
        if not side or not len(rows):
            continue
        xs = np.array([ends[i].x for i in mine])
        ys = np.array([ends[i].y for i in mine])
        half = np.array([math.hypot(ends[i].width / 2, ends[i].length / 2) for i in mine])
        apart = np.hypot(layout.centre[rows, 0][None, :] - xs[:, None],
                         layout.centre[rows, 1][None, :] - ys[:, None])
        reach = layout.radius[rows][None, :] + half[:, None]
        most = (apart + reach).min(axis=1)
        ii, jj = np.nonzero(apart - reach <= most[:, None] + SLACK)
        shapes = np.empty(len(mine), dtype=object)
        shapes[:] = [ends[i].shape for i in mine]
        gaps = shapely.distance(shapes[ii], layout.shapes[rows[jj]]).tolist()
        best: dict[int, tuple[float, str]] = {}
        for i, j, gap in zip(ii.tolist(), jj.tolist(), gaps, strict=True):
            candidate = (float(gap), ids[int(rows[j])])
            if i not in best or candidate < best[i]:
                best[i] = candidate
        for i, found in best.items():
            out[mine[i]] = found
    return tuple(out)
