"""Brute-force oracles: exact distributions worked out by enumerating dice faces with
itertools.product, independent of the code under test."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

D12_FACES = tuple(range(1, 13))
AV_FACES = (2, 3, 3, 4, 4, 5)


@functools.cache
def pool(count: int, need: int, naturals: bool = True) -> dict[int, Fraction]:
    """P(successes) for ``count`` d12 each succeeding at or under ``need`` (with naturals:
    1 always succeeds, 12 always fails)."""
    counts: dict[int, int] = {}
    for faces in itertools.product(D12_FACES, repeat=count):
        hits = 0
        for face in faces:
            if naturals and face == 1:
                hits += 1
            elif naturals and face == 12:
                continue
            elif face <= need:
                hits += 1
        counts[hits] = counts.get(hits, 0) + 1
    total = 12**count
    return {k: Fraction(v, total) for k, v in counts.items()}


def results_of(need: int) -> dict[str, Fraction]:
    """Morale/cohesion results by enumeration of three d12."""
    names = ("destroyed", "rout", "pushed back", "carry on")
    return {names[k]: p for k, p in pool(3, need).items()}


def totals(faces: tuple[int, ...], count: int, plus: int = 0) -> dict[int, Fraction]:
    """Distribution of the sum of ``count`` dice with these faces, plus a constant."""
    out: dict[int, Fraction] = {}
    n = len(faces) ** count
    for roll in itertools.product(faces, repeat=count):
        out[sum(roll) + plus] = out.get(sum(roll) + plus, Fraction(0)) + Fraction(1, n)
    return out


def one_die(need: int, naturals: bool = True) -> tuple[Fraction, Fraction]:
    """(P(failure), P(success)) of one d12, by enumerating its faces."""
    good = 0
    for face in D12_FACES:
        if naturals and face == 1:
            good += 1
        elif naturals and face == 12:
            continue
        elif face <= need:
            good += 1
    return Fraction(12 - good, 12), Fraction(good, 12)


def pool_by_convolution(count: int, need: int, naturals: bool = True) -> dict[int, Fraction]:
    """P(successes) for a large pool: each die enumerated over its faces, the dice combined
    one at a time (independent dice), so no closed formula is used."""
    fail, succeed = one_die(need, naturals)
    dist = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for k, p in dist.items():
            nxt[k] = nxt.get(k, Fraction(0)) + p * fail
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + p * succeed
        dist = {k: p for k, p in nxt.items() if p}
    return dist
