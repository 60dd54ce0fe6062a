"""A unit's cover: the ground it stands in (the share of its footprint inside each kind of
terrain), the building or work it holds with that work's strength points, and the obstacles
it stands behind as seen from a firer (fences, walls, streams, fieldworks crossing the line
of fire close to it). Each rule book turns these into its own cover classes."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt
import shapely

from smoothbore.core.validate import check_number

from .layout import fire_lines
from .tabletop import Table
from .terrain import TerrainKind

__all__ = ["OBSTACLES", "WORKS", "Cover", "cover_of", "covers"]

OBSTACLES = frozenset(
    {TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.STREAM, TerrainKind.FIELDWORK})
"""Kinds a unit can stand behind."""
WORKS = frozenset({TerrainKind.BUILDING, TerrainKind.FIELDWORK})
"""Kinds a unit can hold (when its centre is inside one)."""

Geometries = npt.NDArray[np.object_]


@attrs.frozen
class Cover:
    """What covers ``unit_id``: ``inside``, the share (0 to 1) of its footprint's area in
    each kind of ground present under it; ``holds``, the building or fieldwork its centre
    stands in (None: none) with that work's ``strength`` points; ``behind``, the obstacles
    close in front of it (towards the firer, when there is one)."""

    unit_id: str
    inside: tuple[tuple[TerrainKind, float], ...] = ()
    holds: str | None = None
    strength: int | None = None
    behind: tuple[str, ...] = ()

    def share(self, kind: TerrainKind) -> float:
        """The share of the footprint inside ``kind`` (0 to 1)."""
        for k, share in self.inside:
            if k is kind:
                return share
        return 0.0

    def stands_in(self, kind: TerrainKind, at_least: float = 0.5) -> bool:
        """Whether the unit counts as in ``kind``: at least half its footprint there (or the
        share given)."""
        return self.share(kind) >= at_least - 1e-12

    @property
    def behind_obstacle(self) -> bool:
        """Some obstacle lies close in front of the unit."""
        return bool(self.behind)


def _near(table: Table, near: float | None) -> float:
    if near is None:
        return table.measure.from_inches(1.0)
    return check_number("near", near, 0)


def cover_of(table: Table, unit_id: str, firer: str | None = None, *,
             near: float | None = None,
             obstacles: frozenset[TerrainKind] = OBSTACLES) -> Cover:
    """The cover of ``unit_id``; with a ``firer``, the obstacles are those the line of fire
    from the firer's front crosses within ``near`` of the unit (default 1 inch in the table's
    measure); without one, those within ``near`` ahead of the unit's front edge."""
    table.footprint(unit_id)
    lines = None
    if firer is not None:
        layout = table.layout
        f, t = layout.rows([firer]), layout.rows([unit_id])
        lines, _, _ = fire_lines(layout, f, t, table.diagonal)
    return covers(table, [unit_id], lines, near=near, obstacles=obstacles)[0]


def covers(table: Table, unit_ids: Sequence[str], lines: Geometries | None = None, *,
           near: float | None = None,
           obstacles: frozenset[TerrainKind] = OBSTACLES) -> tuple[Cover, ...]:
    """The cover of each unit in ``unit_ids`` (ids may repeat); ``lines``: the line of fire
    reaching each (None: no firer)."""
    return covers_with_own(table, unit_ids, lines, (), near=near, obstacles=obstacles)[0]


def covers_with_own(table: Table, unit_ids: Sequence[str], lines: Geometries | None,
                    others: Sequence[str], *, near: float | None = None,
                    obstacles: frozenset[TerrainKind] = OBSTACLES) -> tuple[
                        tuple[Cover, ...], tuple[Cover, ...]]:
    """``covers(table, unit_ids, lines)`` and ``covers(table, others)`` (no firer: the
    firers' own ground), with the ground under each unit measured once."""
    near = _near(table, near)
    layout = table.layout
    n = len(unit_ids)
    rows = layout.rows([*unit_ids, *others])
    unique, back = np.unique(rows, return_inverse=True)
    plain = _plain(table, unique)
    held = [cover.holds for cover in plain]
    found: list[tuple[Cover, ...]] = []
    for part, probes in ((slice(0, n), lines), (slice(n, None), None)):
        these, where = rows[part], back[part]
        if not len(these):
            found.append(())
            continue
        if probes is None:
            behind = _ahead(table, these, where, obstacles, held, near)
        else:
            behind = _touching(table, probes, these, obstacles, held, where, near=near)
        found.append(tuple(_behind(plain[j], behind[k]) if behind[k] else plain[j]
                           for k, j in enumerate(where.tolist())))
    return found[0], found[1]


def _plain(table: Table, rows: npt.NDArray[np.intp]) -> list[Cover]:
    """Each row's cover from the ground under it (no firer): worked out once for each
    footprint on this ground (``TerrainIndex.remember``), whichever table it stands on."""
    layout, terrain = table.layout, table.terrain
    found: list[Cover | None] = [
        terrain.recalled((_PLAIN, layout.footprints[r])) for r in rows.tolist()]
    new = np.array([r for r, cover in zip(rows.tolist(), found, strict=True) if cover is None],
                   dtype=np.intp)
    if len(new):
        inside = _shares(table, new)
        held = _held(table, new)
        by_id = terrain.by_id
        worked = iter([Cover(layout.footprints[r].unit_id, inside[j], work,
                             None if work is None else by_id[work].strength)
                       for j, (r, work) in enumerate(zip(new.tolist(), held, strict=True))])
        for i, r in enumerate(rows.tolist()):
            if found[i] is None:
                cover = found[i] = next(worked)
                terrain.remember((_PLAIN, layout.footprints[r]), cover)
    return found  # type: ignore[return-value]


def _ahead(table: Table, rows: npt.NDArray[np.intp], where: npt.NDArray[np.intp],
           obstacles: frozenset[TerrainKind], held: list[str | None], near: float
           ) -> list[tuple[str, ...]]:
    """The obstacles within ``near`` ahead of each row's front edge (the unit's own cover
    from its front), once for each footprint on this ground."""
    layout, terrain = table.layout, table.terrain
    keys = [(_AHEAD, near, obstacles, layout.footprints[r]) for r in rows.tolist()]
    found: list[tuple[str, ...] | None] = [terrain.recalled(key) for key in keys]
    new = [i for i, known in enumerate(found) if known is None]
    if new:
        picked = np.array(new, dtype=np.intp)
        these = rows[picked]
        worked = _touching(table, layout.strips(these, near), these, obstacles, held,
                           where[picked], near=None)
        for i, behind in zip(new, worked, strict=True):
            found[i] = behind
            terrain.remember(keys[i], behind)
    return found  # type: ignore[return-value]


_PLAIN, _AHEAD = "cover: ground under", "cover: obstacles ahead"


def _behind(cover: Cover, behind: tuple[str, ...]) -> Cover:
    return Cover(cover.unit_id, cover.inside, cover.holds, cover.strength, behind)


def _shares(table: Table, rows: npt.NDArray[np.intp]) -> list[tuple[tuple[TerrainKind, float],
                                                                     ...]]:
    """For each row, (kind, share of its area) for every kind of area under it."""
    shapes = table.layout.shapes[rows]
    areas = shapely.area(shapes)
    found: list[list[tuple[TerrainKind, float]]] = [[] for _ in range(len(rows))]
    for kind, union in table.terrain.unions.items():
        if union.area <= 0:
            continue
        hit = np.flatnonzero(shapely.intersects(union, shapes))  # the union is prepared
        if not len(hit):
            continue
        common = shapely.area(shapely.intersection(shapes[hit], union))
        for i, a in zip(hit, common, strict=True):
            if a > 0:
                found[i].append((kind, min(1.0, float(a / areas[i]))))
    return [tuple(items) for items in found]


def _held(table: Table, rows: npt.NDArray[np.intp]) -> list[str | None]:
    """The strongest building or areal work containing each row's centre."""
    terrain = table.terrain
    centres = table.layout.centre[rows]
    held: list[str | None] = [None] * len(rows)
    if not len(rows) or not len(terrain.areas):
        return held
    points = shapely.points(centres)
    hits = terrain.area_tree.query(points, predicate="intersects")
    best: dict[int, int] = {}
    for i, k in zip(hits[0], hits[1], strict=True):
        feature = terrain.area_features[k]
        if feature.kind not in WORKS:
            continue
        old = best.get(int(i))
        strength = feature.strength or 0
        if old is None or strength > (terrain.area_features[old].strength or 0):
            best[int(i)] = int(k)
    for i, k in best.items():
        held[i] = terrain.area_features[k].feature_id
    return held


def _touching(table: Table, probes: Geometries, rows: npt.NDArray[np.intp],
              obstacles: frozenset[TerrainKind], held: list[str | None],
              back: npt.NDArray[np.intp], near: float | None) -> list[tuple[str, ...]]:
    """Obstacles each probe meets: the probes are lines of fire (the obstacle must cross one
    within ``near`` of its unit) or zones in front of the units (``near`` None)."""
    features, geoms, tree = table.terrain.subset(obstacles)
    found: list[list[str]] = [[] for _ in range(len(probes))]
    if not features:
        return [()] * len(probes)
    layout = table.layout
    if near is None:
        p, k = tree.query(probes, predicate="intersects")
    else:
        # only obstacles within reach of the unit can stand in front of it
        units = np.unique(rows)
        u, k = tree.query(layout.shapes[units], predicate="dwithin", distance=near)
        if not len(u):
            return [()] * len(probes)
        # each probe against every obstacle close to its unit (``units[u]`` ascending)
        order = np.argsort(u, kind="stable")
        beside, k = units[u[order]], k[order]
        lo = np.searchsorted(beside, rows, "left")
        counts = np.searchsorted(beside, rows, "right") - lo
        p = np.repeat(np.arange(len(rows)), counts)
        k = k[np.arange(len(p)) - np.repeat(np.cumsum(counts) - counts - lo, counts)]
        if not len(p):
            return [()] * len(probes)
        meet = shapely.intersection(probes[p], geoms[k])
        close = ~shapely.is_empty(meet) & shapely.dwithin(meet, layout.shapes[rows[p]], near)
        p, k = p[close], k[close]
    for q, j in zip(p, k, strict=True):
        fid = features[j].feature_id
        if fid != held[int(back[q])] and fid not in found[q]:
            found[q].append(fid)
    return [tuple(sorted(items)) for items in found]
