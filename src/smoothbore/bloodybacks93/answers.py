"""Answers about a table carried from table to table of one battle, in the table's own stores
(``Table.store``, the table seam: bounded, named, with hit and miss counts, belonging to the
battle's line of tables and never to the process).

A move makes a new table, and ``Table.derived`` starts afresh on it; yet most of what was
asked of the old one still holds, because each answer reads only a few footprints. Two
stores keep them:

- ``LAYOUT``: answers that read every footprint (where a unit may go, what it sees...), kept
  under the layout (the footprints, ``layout_of``: a commander riding elsewhere does not make
  it anew) and the question's arguments;
- ``GROUND``: answers kept under exactly what they read (the footprints themselves, which
  carry their unit ids, positions and facings, and the arguments), so a later layout where
  those few footprints stand as they stood finds them.

What a store answers is what working it out again would give: nothing in it depends on the
order of play, and an entry is never changed once written."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import attrs

from smoothbore.table import AnswerStore, Footprint, Table, footprints_near

LAYOUT = "bloodybacks93: layout"
"""The store of answers that read every footprint, by layout and question."""
GROUND = "bloodybacks93: ground"
"""The store of answers kept under the few footprints they read."""
MOST_ANSWERS = 16_384
"""How many answers each store keeps (the oldest forgotten 1,024 at a time): a battle of
the embedded action asks some thousands of the layout store."""
_CHUNK = 1_024

T = TypeVar("T")


@attrs.frozen(cache_hash=True)
class Layout:
    """The footprints of a table, as a key (its hash worked out once per table)."""

    footprints: tuple[Footprint, ...]


def layout_of(table: Table) -> Layout:
    """The table's layout key (a query for ``Table.derived``: made once per table)."""
    return Layout(table.footprints)


def per_layout(table: Table, what: str, key: Hashable, work: Callable[[], T]) -> T:
    """``work()``, kept for every table of the battle with the same footprints under
    ``(what, key)``: ``work`` must read only the ground, the footprints and ``key``."""
    store = table.store(LAYOUT, MOST_ANSWERS, _CHUNK)
    return store.ask((what, table.derived(layout_of), key), work)


def layout_store(table: Table) -> tuple[AnswerStore, Layout]:
    """The layout store and the table's layout key, for questions asked many at once
    (``store.get((what, layout, key))``, ``store.put``)."""
    return table.store(LAYOUT, MOST_ANSWERS, _CHUNK), table.derived(layout_of)


def ground_store(table: Table) -> AnswerStore:
    """The ground store (``on_ground``), for questions asked many at once."""
    return table.store(GROUND, MOST_ANSWERS, _CHUNK)


def on_ground(table: Table, key: Hashable, work: Callable[[], T]) -> T:
    """``work()``, kept for every table of the battle under ``key``, which names everything
    ``work`` reads besides the ground (the footprints themselves, the arguments)."""
    return table.store(GROUND, MOST_ANSWERS, _CHUNK).ask(key, work)


Box = tuple[float, float, float, float]


def within(table: Table, box: Box, leave_out: tuple[str, ...]) -> tuple[Footprint, ...]:
    """The footprints on the table (in the table's order) whose bounds meet ``box`` (min x,
    min y, max x, max y), but for the units left out (``smoothbore.table.footprints_near``)."""
    return tuple(f for f in footprints_near(table, box) if f.unit_id not in leave_out)


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
