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
from .terrain import Feature, TerrainKind

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
    index = table.layout.index
    n = len(unit_ids)
    every = [index[u] for u in [*unit_ids, *others]]
    unique = sorted(set(every))
    slot = {r: j for j, r in enumerate(unique)}
    back = [slot[r] for r in every]
    plain = _plain(table, np.array(unique, dtype=np.intp))
    held = [cover.holds for cover in plain]
    found: list[tuple[Cover, ...]] = []
    for part, probes in ((slice(0, n), lines), (slice(n, None), None)):
        these, where = every[part], back[part]
        if not these:
            found.append(())
            continue
        if probes is None:
            behind = _ahead(table, these, where, obstacles, held, near)
        else:
            behind = _crossing(table, probes, these, where, obstacles, held, near)
        found.append(tuple(_behind(plain[j], behind[k]) if behind[k] else plain[j]
                           for k, j in enumerate(where)))
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


def _ahead(table: Table, rows: list[int], where: list[int],
           obstacles: frozenset[TerrainKind], held: list[str | None], near: float
           ) -> list[tuple[str, ...]]:
    """The obstacles within ``near`` ahead of each row's front edge (the unit's own cover
    from its front), once for each footprint on this ground."""
    layout, terrain = table.layout, table.terrain
    if not terrain.subset(obstacles)[0]:
        return [()] * len(rows)
    keys = [(_AHEAD, near, obstacles, layout.footprints[r]) for r in rows]
    found: list[tuple[str, ...] | None] = [terrain.recalled(key) for key in keys]
    new = [i for i, known in enumerate(found) if known is None]
    if new:
        these = np.array([rows[i] for i in new], dtype=np.intp)
        worked = _touching(table, layout.strips(these, near), these, obstacles, held,
                           [where[i] for i in new])
        for i, behind in zip(new, worked, strict=True):
            found[i] = behind
            terrain.remember(keys[i], behind)
    return found  # type: ignore[return-value]


def _close(table: Table, rows: list[int], obstacles: frozenset[TerrainKind],
           near: float) -> list[tuple[int, ...]]:
    """For each row, the obstacles (rows of ``terrain.subset(obstacles)``) within ``near``
    of its unit: the only ones that can stand in front of it. Once for each footprint on
    this ground."""
    layout, terrain = table.layout, table.terrain
    keys = [(_CLOSE, near, obstacles, layout.footprints[r]) for r in rows]
    found: list[tuple[int, ...] | None] = [terrain.recalled(key) for key in keys]
    new = [i for i, known in enumerate(found) if known is None]
    if new:
        _, _, tree = terrain.subset(obstacles)
        shapes = layout.shapes[np.array([rows[i] for i in new], dtype=np.intp)]
        u, k = tree.query(shapes, predicate="dwithin", distance=near)
        each: list[list[int]] = [[] for _ in new]
        for j, feature in zip(u.tolist(), k.tolist(), strict=True):
            each[j].append(feature)
        for i, ks in zip(new, each, strict=True):
            found[i] = tuple(ks)
            terrain.remember(keys[i], found[i])
    return found  # type: ignore[return-value]


_PLAIN, _AHEAD, _CLOSE = (
    "cover: ground under", "cover: obstacles ahead", "cover: obstacles close")


def _behind(cover: Cover, behind: tuple[str, ...]) -> Cover:
    return Cover(cover.unit_id, cover.inside, cover.holds, cover.strength, behind)


def _shares(table: Table, rows: npt.NDArray[np.intp]) -> list[tuple[tuple[TerrainKind, float],
                                                                     ...]]:
    """For each row, (kind, share of its area) for every kind of area under it."""
    shapes = table.layout.shapes[rows]
    areas = shapely.area(shapes)
    found: list[list[tuple[TerrainKind, float]]] = [[] for _ in range(len(rows))]
    kinds = list(table.terrain.unions.items())  # (a union without area gives no share)
    if not kinds:
        return [()] * len(rows)
    unions = np.empty(len(kinds), dtype=object)
    unions[:] = [union for _, union in kinds]
    # every kind against every unit in one question (the unions are prepared), then the
    # ground each unit shares with each kind it meets, kind by kind, in one question too
    k, i = shapely.intersects(unions[:, np.newaxis], shapes[np.newaxis, :]).nonzero()
    if len(k):
        common = shapely.area(shapely.intersection(shapes[i], unions[k]))
        for kind, unit, a in zip(k.tolist(), i.tolist(), common, strict=True):
            if a > 0:
                found[unit].append((kinds[kind][0], min(1.0, float(a / areas[unit]))))
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
              back: list[int]) -> list[tuple[str, ...]]:
    """The obstacles each probe (a zone in front of the unit in its row) meets, leaving out
    the work its unit holds."""
    features, _, tree = table.terrain.subset(obstacles)
    if not features:
        return [()] * len(probes)
    p, k = tree.query(probes, predicate="intersects")
    return _named(features, len(probes), p.tolist(), k.tolist(), held, back)


def _crossing(table: Table, lines: Geometries, rows: list[int], back: list[int],
              obstacles: frozenset[TerrainKind], held: list[str | None],
              near: float) -> list[tuple[str, ...]]:
    """The obstacles each line of fire crosses within ``near`` of the unit in its row,
    leaving out the work that unit holds."""
    features, geoms, _ = table.terrain.subset(obstacles)
    if not features:
        return [()] * len(lines)
    p: list[int] = []
    k: list[int] = []
    distinct = sorted(set(rows))
    near_each = dict(zip(distinct, _close(table, distinct, obstacles, near), strict=True))
    for q, row in enumerate(rows):
        close = near_each[row]
        if close:
            p.extend([q] * len(close))
            k.extend(close)
    if not p:
        return [()] * len(lines)
    pa, ka = np.array(p, dtype=np.intp), np.array(k, dtype=np.intp)
    meet = shapely.intersection(lines[pa], geoms[ka])
    shapes = table.layout.shapes[np.array(rows, dtype=np.intp)[pa]]
    met = ~shapely.is_empty(meet) & shapely.dwithin(meet, shapes, near)
    return _named(features, len(lines), pa[met].tolist(), ka[met].tolist(), held, back)


def _named(features: tuple[Feature, ...], count: int, p: list[int], k: list[int],
           held: list[str | None], back: list[int]) -> list[tuple[str, ...]]:
    """The ids of the obstacles met by each of ``count`` probes, from (probe, obstacle)
    pairs, leaving out the work held by the unit of each probe."""
    found: list[list[str]] = [[] for _ in range(count)]
    for q, j in zip(p, k, strict=True):
        fid = features[j].feature_id
        if fid != held[back[q]] and fid not in found[q]:
            found[q].append(fid)
    return [tuple(sorted(items)) for items in found]
