"""A faster d12 pool for the hot paths of a charge (private helper, a candidate for core).

``FastPool`` is a ``PoolCheck`` with the same fields and exact distribution. To roll, it draws
one uniform integer below sides**count (when that fits the 32-bit picker) and reads the faces
as its base-``sides`` digits, which is the same as rolling each die; it reads each face's
success from a precomputed table and caches its description, which the core rebuilds on every
roll. The lead may fold these into ``smoothbore.core.PoolCheck``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from smoothbore.core import PoolCheck

ONE_PICK = 1 << 32
"""The largest range the core's sampling picker draws from in one go."""


@functools.lru_cache(maxsize=4096)
def _describe(check: PoolCheck) -> str:
    return PoolCheck.describe(check)


@functools.lru_cache(maxsize=4096)
def _table(check: PoolCheck) -> tuple[tuple[int, ...], tuple[int, ...]]:
    faces = check.die.faces
    return faces, tuple(int(check.succeeds(face)) for face in faces)


LOOKUP_LIMIT = 12**3
"""The most face combinations read from one table (three d12)."""


@functools.lru_cache(maxsize=512)
def _lookup(check: PoolCheck) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(successes, faces) for every value of a pick over all the pool's faces, the faces read
    as the value's digits, lowest first."""
    faces, hits = _table(check)
    sides = len(faces)
    rows = []
    for value in range(sides**check.count):
        digits = []
        for _ in range(check.count):
            value, digit = divmod(value, sides)
            digits.append(digit)
        rows.append((sum(hits[d] for d in digits), tuple(faces[d] for d in digits)))
    return tuple(rows)


Plan = tuple[int, tuple[tuple[int, tuple[tuple[int, tuple[int, ...]], ...]], ...]]


@functools.lru_cache(maxsize=1024)
def _plan(check: PoolCheck) -> Plan | None:
    """How to read a roll from one pick: the pick's span and the tables of its chunks of dice
    (each at most LOOKUP_LIMIT rows); None when the span is beyond one pick."""
    faces, _ = _table(check)
    sides = len(faces)
    span = sides**check.count
    if span > ONE_PICK:
        return None
    per = 1
    while sides ** (per + 1) <= LOOKUP_LIMIT:
        per += 1
    chunks = []
    left = check.count
    while left:
        size = min(per, left)
        chunks.append((sides**size, _lookup(attrs.evolve(check, count=size))))
        left -= size
    return span, tuple(chunks)


@attrs.frozen(cache_hash=True)
class FastPool(PoolCheck):
    """``PoolCheck`` without rerolls, drawn through tables of faces."""

    def draw(self, pick: Callable[[int], int]) -> tuple[int, tuple[int, ...]]:
        if self.reroll_failures:
            return PoolCheck.draw(self, pick)
        plan = _plan(self)
        if plan is None:
            faces, hits = _table(self)
            rolled = [pick(len(faces)) for _ in range(self.count)]
            return sum(map(hits.__getitem__, rolled)), tuple(map(faces.__getitem__, rolled))
        span, chunks = plan
        if not chunks:
            return 0, ()
        value = pick(span)
        if len(chunks) == 1:
            return chunks[0][1][value]
        successes = 0
        shown: tuple[int, ...] = ()
        for size, rows in chunks:
            value, part = divmod(value, size)
            part_hits, part_faces = rows[part]
            successes += part_hits
            shown += part_faces
        return successes, shown

    def describe(self) -> str:
        return _describe(self)
