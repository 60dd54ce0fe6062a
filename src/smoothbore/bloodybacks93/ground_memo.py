"""Answers about a table kept across the tables of one battle.

A move makes a new table, and ``Table.derived`` starts afresh on it; yet most of what was
asked of the old one still holds, because each answer reads only a few footprints: where a
unit may go reads its own footprint, the enemies' and the friends within its reach; what a
firer sees of a target reads the two and whatever stands between them. Such an answer is
kept here under a key made of everything it reads (the footprints themselves, which carry
their unit ids, positions and facings), so a later table with the same footprints in those
places finds it, and a table where any of them differs does not. One store per ground (the
features and the size of the table); a store is emptied when it grows past
``MOST_ANSWERS`` and only the ``MOST_GROUNDS`` grounds asked last are kept. What a store
answers is what working it out again would give: nothing in it depends on the order of
play."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from smoothbore.table import Footprint, Table

MOST_GROUNDS = 4
"""How many grounds keep their answers (the grounds of the battles being played)."""
MOST_ANSWERS = 4_000
"""A ground's answers are forgotten when they grow past this many (a battle of the embedded
action asks some 200; about 5 kB each)."""

GroundKey = tuple[Hashable, ...]
_STORES: dict[GroundKey, dict[Hashable, Any]] = {}


def ground_memo(table: Table) -> dict[Hashable, Any]:
    """The store of answers for the table's ground (a query for ``Table.derived``: looked up
    once per table)."""
    key: GroundKey = (table.features, table.width, table.depth, table.measure)
    store = _STORES.pop(key, None)
    if store is None:
        store = {}
        while len(_STORES) >= MOST_GROUNDS:
            del _STORES[next(iter(_STORES))]
    elif len(store) > MOST_ANSWERS:
        store = {}
    _STORES[key] = store  # the latest ground last
    return store


T = TypeVar("T")


def _layout_memo(table: Table) -> dict[Callable[[Table], Any], Any]:
    """The answers kept for the table's footprints on its ground (looked up once per
    table)."""
    store = table.derived(ground_memo)
    key = ("layout", table.footprints)
    found = store.get(key)
    if found is None:
        found = store[key] = {}
    return found


def by_layout(table: Table, query: Callable[[Table], T]) -> T:
    """``query(table)``, kept for every table with the same ground and the same footprints
    (``Table.derived`` keeps it for one table: a commander riding elsewhere, or the same
    layout reached again, makes another). ``query`` must be a pure, module-level function of
    the ground and the footprints (never of the commanders or traces)."""
    memo = table.derived(_layout_memo)
    try:
        answer: T = memo[query]
    except KeyError:
        answer = memo[query] = query(table)
    return answer


Box = tuple[float, float, float, float]


def within(table: Table, box: Box, leave_out: tuple[str, ...]) -> tuple[Footprint, ...]:
    """The footprints on the table (in the table's order) whose bounds meet ``box`` (min x,
    min y, max x, max y), but for the units left out (one array test over every footprint's
    bounds)."""
    x0, y0, x1, y1 = box
    footprints, bounds = by_layout(table, _bounds)
    meet = np.flatnonzero((bounds[:, 0] <= x1) & (bounds[:, 2] >= x0)
                          & (bounds[:, 1] <= y1) & (bounds[:, 3] >= y0))
    found = []
    for i in meet.tolist():
        footprint = footprints[i]
        if footprint.unit_id not in leave_out:
            found.append(footprint)
    return tuple(found)


def _bounds(table: Table) -> tuple[tuple[Footprint, ...], npt.NDArray[np.float64]]:
    """The footprints on the table, and their bounds as an (n, 4) array."""
    footprints = table.footprints
    bounds = np.array([f.bounds for f in footprints], dtype=float).reshape(len(footprints), 4)
    return footprints, bounds


def around(footprint: Footprint, reach: float) -> Box:
    """The box of every point within ``reach`` of the footprint's centre or its outline,
    whatever its facing: a square about the centre of half side ``reach`` plus the
    footprint's half diagonal."""
    half = reach + 0.5 * (footprint.width**2 + footprint.length**2) ** 0.5
    return (footprint.x - half, footprint.y - half, footprint.x + half, footprint.y + half)


def spanning(*footprints: Footprint, margin: float = 0.01) -> Box:
    """The box of the footprints' bounds, ``margin`` wider all round."""
    boxes = [f.bounds for f in footprints]
    return (min(b[0] for b in boxes) - margin, min(b[1] for b in boxes) - margin,
            max(b[2] for b in boxes) + margin, max(b[3] for b in boxes) + margin)
