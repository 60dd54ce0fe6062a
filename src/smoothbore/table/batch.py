"""Many moves asked at once: ``furthest_many`` answers what ``paths.furthest`` answers for
each of many ways (a unit, a heading and an allowance), with one spatial query for all of
them and the contacts worked out together: the rays of every pair in one Shapely call, the
rough filter of which rays to cast in numpy over all pairs. Each answer is exactly
``furthest``'s (the same operations on the same numbers, only grouped), which stays the
reference (tests compare the two on random layouts).

Issue 28: at 500 units a side a rule book asks ``furthest`` about 540 times for one listing
of moves, most of them units stopped by a friend just ahead in a dense line."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import shapely

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import check_number

from .footprints import Footprint, Point, bearing_vectors, normal_degrees
from .paths import (
    _EPS,
    _NONE,
    _POLYGON,
    _TOUCHING,
    _WATER,
    Destination,
    Leg,
    Passage,
    RateTable,
    Route,
    _dry_here,
    _edge_limit,
    _hair,
    _legs,
    _lookups,
    _Near,
    _path,
    _segments,
    _touched_contact,
    _walk,
)
from .tabletop import Table
from .terrain import TerrainKind, mask_crossings

__all__ = ["Way", "first_contacts", "furthest_many"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


def _through(value: Iterable[str]) -> frozenset[str]:
    if isinstance(value, str):
        raise InvalidValueError("through", value, "unit ids (a tuple or set of them)")
    return frozenset(value)


@attrs.frozen
class Way:
    """One question for ``furthest_many``: how far ``unit_id`` goes straight towards
    ``heading`` degrees off its facing with an allowance of ``budget`` under ``rates``
    (``full_move``, ``through`` and ``clearance`` as ``paths.furthest`` takes them)."""

    unit_id: str
    heading: float
    budget: float
    rates: RateTable
    full_move: float | None = None
    through: frozenset[str] = attrs.field(default=frozenset(), converter=_through)
    clearance: float = 0.0


@attrs.frozen
class _Ask:
    """A way with what its first contact needs worked out (the footprint, the direction,
    how far it may go at most and why)."""

    footprint: Footprint
    dx: float
    dy: float
    limit: float
    why: str
    through: frozenset[str]
    clearance: float
    rates: RateTable


def _checked(table: Table, way: Way, i: int) -> _Ask:
    if not isinstance(way, Way):
        raise InvalidValueError(f"ways[{i}]", way, "a Way (unit, heading, budget, rates)")
    check_number("heading", way.heading, -360, 360)
    check_number("budget", way.budget, 0)
    check_number("clearance", way.clearance, 0)
    footprint = table.footprint(way.unit_id)
    (dx, dy), _ = bearing_vectors(footprint.facing + way.heading)
    limit, why = _edge_limit(table, footprint, dx, dy), "table edge"
    fastest = _lookups(way.rates)[2]
    if way.budget * float(fastest) < limit:
        limit, why = way.budget * float(fastest), "allowance"
    return _Ask(footprint, dx, dy, limit, why, way.through, way.clearance, way.rates)


def furthest_many(table: Table, ways: Sequence[Way]) -> tuple[Destination, ...]:
    """``paths.furthest`` for each of ``ways`` (in order), on one table: the same
    Destinations, worked out together."""
    asks = [_checked(table, way, i) for i, way in enumerate(ways)]
    contacts = _first_contacts(table, asks)
    paths = []
    for ask, (block, _) in zip(asks, contacts, strict=True):
        footprint, limit = ask.footprint, min(ask.limit, block)
        paths.append(_path(footprint, ((footprint.x + ask.dx * limit,
                                        footprint.y + ask.dy * limit),)))
    nears = _nears(table, [a.footprint for a in asks], paths)
    walked = [_walked(table, way, ask, contact, path, near) for way, ask, contact, path, near
              in zip(ways, asks, contacts, paths, nears, strict=True)]
    sweeps = _sweeps(table, [a.footprint for a in asks], [w.path for w in walked], nears)
    return tuple(_destination(table, way, ask, walk, near, sweep) for way, ask, walk, near, sweep
                 in zip(ways, asks, walked, nears, sweeps, strict=True))


def first_contacts(table: Table, ways: Sequence[Way]) -> tuple[tuple[float, str], ...]:
    """For each of ``ways``: how far its unit goes along its heading before touching another
    unit or ground it cannot enter (inf: nothing before the table edge or the allowance at
    its fastest), and what it touches (an id; "" for nothing)."""
    asks = [_checked(table, way, i) for i, way in enumerate(ways)]
    return tuple(_first_contacts(table, asks))


@attrs.frozen
class _Walked:
    """How far a way goes (``limit``), what it costs, what stopped it, the point it reaches,
    its final path and that path's legs and passages when known (None: to be worked out)."""

    limit: float
    spent: float
    why: str
    point: Point
    path: tuple[Point, ...]
    found: tuple[tuple[Leg, ...], tuple[Passage, ...]] | None


def _walked(table: Table, way: Way, ask: _Ask, contact: tuple[float, str],
            path: tuple[Point, ...], near: _Near) -> _Walked:
    """``furthest`` from its first contact to the path it ends with (its own code, in
    order): the ray's legs, how far the allowance lasts on them, the final path."""
    footprint, dx, dy = ask.footprint, ask.dx, ask.dy
    limit, why = ask.limit, ask.why
    block, what = contact
    if block < limit:
        limit, why = block, what
    ray = _legs(table, path, quick=True, near=near)
    go, spent, reason = _walk(ray, way.rates, table, way.budget, way.full_move)
    if go < limit - _EPS or reason != "allowance":
        limit, why = go, reason
    point = (footprint.x + dx * limit, footprint.y + dy * limit)
    if 0 < limit < sum(leg.length for leg in ray[0]) - _EPS:
        return _Walked(limit, spent, why, point, _path(footprint, (point,)), None)
    return _Walked(limit, spent, why, point, path, ray)


def _destination(table: Table, way: Way, ask: _Ask, walked: _Walked, near: _Near,
                 sweep: tuple[frozenset[TerrainKind], tuple[str, ...]]) -> Destination:
    """``furthest``'s answer once the final path and what it sweeps are known (``_route``'s
    code, in order)."""
    footprint, path = ask.footprint, walked.path
    legs, passages = walked.found or _legs(table, path, quick=True, near=near)
    end = footprint.moved_to(*path[-1])
    dx, dy = path[-1][0] - path[0][0], path[-1][1] - path[0][1]
    (fx, fy), _ = footprint.frame
    retiring = dx * fx + dy * fy < -_EPS * max(1.0, math.hypot(dx, dy))
    route = Route(footprint.unit_id, path, legs, passages, sweep[0], sweep[1], retiring, end,
                  table.holds(end))
    limit = walked.limit
    return Destination(normal_degrees(way.heading), walked.point, limit,
                       walked.spent if limit > 0 else 0.0, walked.why, route)


def _sweeps(table: Table, footprints: Sequence[Footprint], paths: Sequence[tuple[Point, ...]],
            nears: Sequence[_Near]) -> list[tuple[frozenset[TerrainKind], tuple[str, ...]]]:
    """``paths._sweep`` of each footprint along a straight path (two points), with what lies
    near it known: every hull in one call, every (hull, candidate) test in one call."""
    n = len(footprints)
    empty: tuple[frozenset[TerrainKind], tuple[str, ...]] = (frozenset(), ())
    found = [empty] * n
    todo = [i for i in range(n) if nears[i].areas or nears[i].lines or nears[i].units]
    if not todo:
        return found
    places = []
    for i in todo:
        footprint = footprints[i]
        corners = footprint.corners - (footprint.x, footprint.y)
        places.append(np.concatenate([corners + p for p in paths[i]]))
    hulls = np.asarray(shapely.convex_hull(shapely.multipoints(np.stack(places))))
    terrain, layout = table.terrain, table.layout
    kinds: list[set[TerrainKind]] = [set() for _ in todo]
    units: list[list[str]] = [[] for _ in todo]
    if terrain.area_features:
        owner, rows = _pairs([nears[i].area_rows for i in todo])
        if len(rows):
            inside = shapely.relate_pattern(hulls[owner], terrain.areas[rows], "T********")
            for k, r in zip(owner[inside].tolist(), rows[inside].tolist(), strict=True):
                kinds[k].add(terrain.area_features[r].kind)
    if terrain.crossed_features:
        owner, rows = _pairs([nears[i].line_rows for i in todo])
        if len(rows):
            inside = shapely.relate_pattern(hulls[owner], terrain.lines[rows], "T********")
            for k, r in zip(owner[inside].tolist(), rows[inside].tolist(), strict=True):
                kinds[k].add(terrain.crossed_features[r].kind)
    owner, rows = _pairs([nears[i].unit_rows for i in todo])
    if len(rows):
        inside = shapely.relate_pattern(hulls[owner], layout.shapes[rows], "T********")
        ids = [f.unit_id for f in layout.footprints]
        for k, r in zip(owner[inside].tolist(), rows[inside].tolist(), strict=True):
            units[k].append(ids[r])
    for k, i in enumerate(todo):
        found[i] = (mask_crossings(frozenset(kinds[k])), tuple(sorted(units[k])))
    return found


def _pairs(rows: list[IntArray | None]) -> tuple[IntArray, IntArray]:
    """(which of ``rows``, row) for every row of each (``_nears`` always knows them)."""
    known = [r if r is not None else _NONE for r in rows]
    owners = [np.full(len(r), k, dtype=np.intp) for k, r in enumerate(known)]
    if not owners:
        return _NONE, _NONE
    return np.concatenate(owners), np.concatenate(known).astype(np.intp)


def _nears(table: Table, footprints: Sequence[Footprint],
           paths: Sequence[tuple[Point, ...]]) -> list[_Near]:
    """``paths._near`` of each footprint and path: the boxes' rows from one query of each
    tree (a tree answers each box in the order it answers it alone)."""
    n = len(footprints)
    if not n:
        return []
    terrain, layout = table.terrain, table.layout
    lows, highs = [], []
    for footprint, path in zip(footprints, paths, strict=True):
        x0, y0, x1, y1 = footprint.bounds
        ex, ey = (x1 - x0) / 2, (y1 - y0) / 2
        xs, ys = [p[0] for p in path], [p[1] for p in path]
        pad = _EPS * (1.0 + ex + ey + max(map(abs, xs)) + max(map(abs, ys)))
        lows.append((min(xs) - ex - pad, min(ys) - ey - pad))
        highs.append((max(xs) + ex + pad, max(ys) + ey + pad))
    low, high = np.array(lows), np.array(highs)
    boxes = shapely.box(low[:, 0], low[:, 1], high[:, 0], high[:, 1])

    def split(tree: shapely.STRtree, wanted: bool) -> list[IntArray]:
        if not wanted:
            return [_NONE] * n
        which, rows = tree.query(boxes)
        cuts = np.searchsorted(which, np.arange(n + 1)).tolist()
        return [rows[cuts[i]:cuts[i + 1]] for i in range(n)]

    units = split(layout.tree, True)
    areas = split(terrain.area_tree, bool(len(terrain.areas)))
    lines = split(terrain.line_tree, bool(len(terrain.lines)))
    ids = [f.unit_id for f in layout.footprints]
    found = []
    for footprint, mine, area, line in zip(footprints, units, areas, lines, strict=True):
        own = footprint.unit_id
        others = mine[np.fromiter((ids[u] != own for u in mine.tolist()), bool, len(mine))]
        found.append(_Near(area, line, others))
    return found


# -- first contacts, all at once -----------------------------------------------------------

def _first_contacts(table: Table, asks: Sequence[_Ask]) -> list[tuple[float, str]]:
    """``paths._first_contact`` for every ask: the candidates of all of them from one query
    of the layout's tree, the sweeps and their tests in one call each, the contact distances
    of every (ask, candidate) pair together."""
    n = len(asks)
    if not n:
        return []
    corners = np.stack([a.footprint.corners for a in asks])  # (n, 4, 2)
    shift = np.array([(a.dx * a.limit, a.dy * a.limit) for a in asks])  # (n, 2)
    places = np.concatenate((corners, corners + shift[:, np.newaxis, :]), axis=1)  # (n, 8, 2)
    lows, highs = places.min(axis=1), places.max(axis=1)
    x0s, y0s = lows[:, 0].tolist(), lows[:, 1].tolist()
    x1s, y1s = highs[:, 0].tolist(), highs[:, 1].tolist()
    pads = [a.clearance * (1.0 + 1e-6) + _EPS * (1.0 + abs(x0) + abs(y0) + abs(x1) + abs(y1))
            if a.clearance else 0.0
            for a, x0, y0, x1, y1 in zip(asks, x0s, y0s, x1s, y1s, strict=True)]
    layout = table.layout
    boxes = shapely.box([x0 - p for x0, p in zip(x0s, pads, strict=True)],
                        [y0 - p for y0, p in zip(y0s, pads, strict=True)],
                        [x1 + p for x1, p in zip(x1s, pads, strict=True)],
                        [y1 + p for y1, p in zip(y1s, pads, strict=True)])
    which, rows = layout.tree.query(boxes)
    ids = [f.unit_id for f in layout.footprints]
    keep = [ids[r] != asks[w].footprint.unit_id and ids[r] not in asks[w].through
            for w, r in zip(which.tolist(), rows.tolist(), strict=True)]
    which, rows = which[keep], rows[keep]
    # the sweeps (only of asks with a candidate), widened by their clearance
    swept: list[Any] = [None] * n
    asked = sorted(set(which.tolist()))
    if asked:
        hulls = np.asarray(shapely.convex_hull(shapely.multipoints(places[asked])))
        for k, hull in zip(asked, hulls.tolist(), strict=True):
            swept[k] = hull
        widen = [k for k in asked if asks[k].clearance]
        reached = list(swept)
        if widen:
            for k, hull in zip(widen, shapely.buffer(
                    np.array([swept[k] for k in widen], dtype=object),
                    [asks[k].clearance for k in widen]).tolist(), strict=True):
                reached[k] = hull
        meets = shapely.intersects(np.array([reached[k] for k in which.tolist()],
                                            dtype=object), layout.shapes[rows])
        which, rows = which[meets], rows[meets]
    names: list[list[str]] = [[] for _ in range(n)]
    shapes: list[list[Any]] = [[] for _ in range(n)]
    widened: dict[tuple[int, float], Any] = {}
    enemies: dict[str, frozenset[str]] = {}
    wanted: list[tuple[int, int, int, float]] = []  # (ask, place, row, clearance) of foes
    for w, r in zip(which.tolist(), rows.tolist(), strict=True):
        ask = asks[w]
        names[w].append(ids[r])
        shapes[w].append(layout.shapes[r])
        if ask.clearance:
            own = ask.footprint.unit_id
            foes = enemies.get(own)
            if foes is None:
                foes = enemies[own] = frozenset(table.enemies_of(own))
            if ids[r] in foes:  # an enemy kept off: its ground widened by the clearance
                wanted.append((w, len(shapes[w]) - 1, r, ask.clearance))
                widened[(r, ask.clearance)] = None
    if wanted:
        keys = list(widened)
        grown = shapely.buffer(np.array([layout.shapes[r] for r, _ in keys], dtype=object),
                               [c for _, c in keys])
        widened = dict(zip(keys, grown.tolist(), strict=True))
        for w, j, r, c in wanted:
            shapes[w][j] = widened[(r, c)]
    _terrain_contacts(table, asks, places, lows, highs, swept, names, shapes)
    return _nearest_contacts(asks, names, shapes)


def _terrain_contacts(table: Table, asks: Sequence[_Ask], places: FloatArray,
                      lows: FloatArray, highs: FloatArray, swept: list[Any],
                      names: list[list[str]], shapes: list[list[Any]]) -> None:
    """Add to each ask's candidates the areas its unit cannot enter that its sweep meets
    (``paths._first_contact``'s terrain part, ask by ask: rates differ between asks)."""
    terrain = table.terrain
    if not len(terrain.areas):
        return
    for k, ask in enumerate(asks):
        rates = ask.rates
        if not any(rates.rate(f.kind) is None for f in terrain.area_features):
            continue
        x0, y0 = (float(v) for v in lows[k])
        x1, y1 = (float(v) for v in highs[k])
        found = terrain.area_tree.query(shapely.box(x0, y0, x1, y1))
        found = found[np.fromiter(
            (rates.rate(terrain.area_features[j].kind) is None and not (
                terrain.area_features[j].kind in _WATER
                and _dry_here(table, terrain.area_features[j])) for j in found),
            bool, len(found))]
        if len(found):
            if swept[k] is None:
                swept[k] = shapely.convex_hull(shapely.multipoints(places[k]))
            for j in found[shapely.intersects(swept[k], terrain.areas[found])]:
                names[k].append(terrain.area_features[j].feature_id)
                shapes[k].append(terrain.area_features[j].area)


def _nearest_contacts(asks: Sequence[_Ask], names: list[list[str]],
                      shapes: list[list[Any]]) -> list[tuple[float, str]]:
    """The nearest contact of each ask among its candidates, as ``_first_contact`` finds it:
    overlaps where it stands left out (unless a sliver), then the contact distances of all
    pairs together."""
    pair_ask: list[int] = []
    pair_shape: list[Any] = []
    for k, found in enumerate(shapes):
        pair_ask += [k] * len(found)
        pair_shape += found
    results = [(math.inf, "")] * len(asks)
    if not pair_ask:
        return results
    every = np.empty(len(pair_shape), dtype=object)
    every[:] = pair_shape
    outlines = np.array([asks[k].footprint.outline for k in pair_ask], dtype=object)
    overlapping = np.asarray(shapely.relate_pattern(outlines, every, "T********"), dtype=bool)
    sliver = np.zeros(len(every), dtype=bool)
    if overlapping.any():
        at = np.flatnonzero(overlapping)
        areas = shapely.area(shapely.intersection(outlines[at], every[at])).tolist()
        for i, area in zip(at.tolist(), areas, strict=True):
            f = asks[pair_ask[i]].footprint
            sliver[i] = area <= _hair(f.corners) * (f.width + f.length)
    cast = [i for i in range(len(every)) if not (overlapping[i] or sliver[i])]
    distances = dict(zip(cast, _contact_distances(
        [asks[pair_ask[i]] for i in cast], [pair_shape[i] for i in cast]), strict=True))
    best = [math.inf] * len(asks)
    what = [""] * len(asks)
    j = 0
    for k, found in enumerate(shapes):
        ask = asks[k]
        for m, shape in enumerate(found):
            i = j + m
            if overlapping[i] and not sliver[i]:
                continue
            t = 0.0 if sliver[i] else distances[i]
            if t <= _TOUCHING * (1.0 + ask.limit):
                t = _touched_contact(ask.footprint, shape, ask.dx, ask.dy, ask.limit)
            if t < best[k]:
                best[k], what[k] = t, names[k][m]
        j += len(found)
    return [(b, w) for b, w in zip(best, what, strict=True)]


# -- contact distances of many pairs -------------------------------------------------------

def _contact_distances(asks: Sequence[_Ask], shapes: Sequence[Any]) -> list[float]:
    """``paths._contact_distance`` of each (ask's outline, shape) pair: the same rays chosen
    by the same sums (``_worth_casting_arrays`` with a leading axis of pairs, pairs of one
    size together), then cast in one Shapely call for all pairs."""
    p = len(asks)
    if not p:
        return []
    geoms = np.empty(p, dtype=object)
    geoms[:] = list(shapes)
    boundaries = shapely.boundary(geoms)
    coords, owner = shapely.get_coordinates(geoms, return_index=True)
    starts = np.searchsorted(owner, np.arange(p + 1))
    simple = (shapely.get_type_id(geoms) == _POLYGON) & (
        shapely.get_num_interior_rings(geoms) == 0)
    corners = np.stack([a.footprint.corners for a in asks])  # (p, 4, 2)
    direction = np.array([(a.dx, a.dy) for a in asks])  # (p, 2)
    limits = [a.limit for a in asks]
    reach = [limit + 1.0 for limit in limits]
    corner_max = np.abs(corners).max(axis=(1, 2)).tolist()
    vertices = [coords[starts[i]:starts[i + 1]] for i in range(p)]
    segments: list[tuple[FloatArray, FloatArray]] = []
    scales = []
    for i in range(p):
        v = vertices[i]
        segments.append((v[:-1], v[1:]) if simple[i] else _segments(boundaries[i]))
        scales.append(1.0 + reach[i] + float(corner_max[i])
                      + float(np.abs(v).max(initial=0)))
    # a polygon's ring closes on its first vertex again: the same ray twice, cast once
    origins = [v[:-1] if simple[i] and len(v) > 1 else v for i, v in enumerate(vertices)]
    forward, back = _worth_casting_many(corners, origins, segments, direction, reach,
                                        limits, scales)
    best = [math.inf] * p
    # forward rays from the outline's corners onto the shapes' boundaries
    _cast(best, forward, corners, direction, reach, boundaries, 1.0)
    # back rays from the shapes' vertices onto the outline's ring
    rings = shapely.linearrings(corners)
    _cast(best, back, origins, direction, reach, rings, -1.0)
    return [b if b <= limit else math.inf for b, limit in zip(best, limits, strict=True)]


def _cast(best: list[float], chosen: list[BoolArray], origins: Any, direction: FloatArray,
          reach: list[float], targets: Any, sign: float) -> None:
    """Cast the chosen rays of every pair (from ``origins``, ``sign`` 1 forward along the
    pair's direction, -1 back) onto the pair's target and lower ``best`` to the nearest hit,
    measured as ``_contact_distance`` measures it."""
    pieces, ends, owners = [], [], []
    for i, mask in enumerate(chosen):
        if mask.any():
            starts = origins[i][mask]
            step = direction[i] * reach[i]
            pieces.append(starts)
            ends.append(starts + step if sign > 0 else starts - step)
            owners.append(np.full(len(starts), i))
    if not pieces:
        return
    starts = np.concatenate(pieces)
    rays = shapely.linestrings(np.stack([starts, np.concatenate(ends)], axis=1))
    owner = np.concatenate(owners)
    meet = shapely.intersection(rays, targets[owner])
    coords, which = shapely.get_coordinates(meet, return_index=True)
    if not len(coords):
        return
    pair = owner[which]
    dx, dy = direction[pair, 0], direction[pair, 1]
    if sign > 0:
        d = (coords[:, 0] - starts[which, 0]) * dx + (coords[:, 1] - starts[which, 1]) * dy
    else:
        d = (starts[which, 0] - coords[:, 0]) * dx + (starts[which, 1] - coords[:, 1]) * dy
    nearest = np.full(len(best), np.inf)
    np.minimum.at(nearest, pair, d)
    for i, value in enumerate(nearest.tolist()):
        if value < best[i]:
            best[i] = value


def _worth_casting_many(corners: FloatArray, vertices: list[FloatArray],
                        segments: list[tuple[FloatArray, FloatArray]],
                        direction: FloatArray, reach: list[float], limits: list[float],
                        scales: list[float]) -> tuple[list[BoolArray], list[BoolArray]]:
    """``paths._worth_casting_arrays`` of every pair: pairs whose shapes have as many
    vertices and segments go through numpy together, each operation the one of the
    reference on the same numbers."""
    p = len(vertices)
    groups: dict[tuple[int, int], list[int]] = {}
    for i in range(p):
        groups.setdefault((len(vertices[i]), len(segments[i][0])), []).append(i)
    forward: list[BoolArray] = [np.zeros(0, dtype=bool)] * p
    back: list[BoolArray] = [np.zeros(0, dtype=bool)] * p
    ring = np.concatenate((corners, corners[:, :1]), axis=1)  # (p, 5, 2)
    for members in groups.values():
        g = np.array(members)
        d0 = direction[g]  # (G, 2)
        r = np.array([reach[i] for i in members])[:, np.newaxis, np.newaxis]
        tol = (1e-6 * np.array([scales[i] for i in members]))[:, np.newaxis, np.newaxis]
        found = []
        sides = (
            (corners[g], np.stack([segments[i][0] for i in members]),
             np.stack([segments[i][1] for i in members]), 1.0),
            (np.stack([vertices[i] for i in members]), ring[g][:, :-1], ring[g][:, 1:], -1.0))
        for origins, ps, qs, sign in sides:
            d = d0 * sign  # (G, 2)
            e = qs - ps  # (G, S, 2)
            w = ps[:, np.newaxis, :, :] - origins[:, :, np.newaxis, :]  # (G, O, S, 2)
            denom = d[:, 0:1] * e[:, :, 1] - d[:, 1:2] * e[:, :, 0]  # (G, S)
            length = np.hypot(e[:, :, 0], e[:, :, 1])
            parallel = np.abs(denom) <= 1e-6 * length
            safe = np.where(parallel, 1.0, denom)[:, np.newaxis, :]
            t = (w[..., 0] * e[:, np.newaxis, :, 1] - w[..., 1] * e[:, np.newaxis, :, 0]) / safe
            u = (w[..., 0] * d[:, np.newaxis, 1:2] - w[..., 1] * d[:, np.newaxis, 0:1]) / safe
            par = parallel[:, np.newaxis, :]
            maybe = ~par & (t >= -tol) & (t <= r + tol) & (u >= -1e-6) & (u <= 1 + 1e-6)
            surely = ~par & (t >= tol) & (t <= r - tol) & (u >= 1e-6) & (u <= 1 - 1e-6)
            off_p = w[..., 0] * d[:, np.newaxis, 1:2] - w[..., 1] * d[:, np.newaxis, 0:1]
            off_q = off_p + (e[:, :, 0] * d[:, 1:2] - e[:, :, 1] * d[:, 0:1])[:, np.newaxis, :]
            near = (off_p * off_q <= 0) | (np.minimum(np.abs(off_p), np.abs(off_q)) <= tol)
            found.append((np.where(maybe, t, np.inf), np.where(surely, t, np.inf),
                          (par & near).any(axis=2)))
        nearest = np.minimum(found[0][1].min(axis=(1, 2), initial=np.inf),
                             found[1][1].min(axis=(1, 2), initial=np.inf))
        limit = np.array([limits[i] for i in members])
        cut = (np.minimum(nearest, limit) + tol[:, 0, 0])[:, np.newaxis]
        ahead, behind = ((m.min(axis=2, initial=np.inf) <= cut) | along
                         for m, _, along in found)
        for k, i in enumerate(members):
            forward[i] = ahead[k]
            back[i] = behind[k]
    return forward, back
