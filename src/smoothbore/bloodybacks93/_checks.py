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
"""Pools with at most this many face combinations read their whole roll from a table."""


@functools.lru_cache(maxsize=512)
def _lookup(check: PoolCheck) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(successes, faces) for every value of the single pick, in the order the digits give."""
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


@attrs.frozen(cache_hash=True)
class FastPool(PoolCheck):
    """``PoolCheck`` without rerolls, drawn through a face table."""

    def draw(self, pick: Callable[[int], int]) -> tuple[int, tuple[int, ...]]:
        if self.reroll_failures:
            return PoolCheck.draw(self, pick)
        faces, hits = _table(self)
        sides = len(faces)
        count = self.count
        span = sides**count
        if span <= LOOKUP_LIMIT:
            return _lookup(self)[pick(span)]
        if span <= ONE_PICK:
            value = pick(span)
            rolled = []
            for _ in range(count):
                value, digit = divmod(value, sides)
                rolled.append(digit)
        else:
            rolled = [pick(sides) for _ in range(count)]
        return sum(map(hits.__getitem__, rolled)), tuple(map(faces.__getitem__, rolled))

    def describe(self) -> str:
        return _describe(self)
