"""Brute-force oracles: enumerate the dice faces directly, independently of the library."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

FACES = range(1, 7)


def two_d6_at_most(need: int, *, doubles: bool = True) -> Fraction:
    """P(2D6 <= need), a natural 2 passing and 12 failing with ``doubles``."""
    good = 0
    for a, b in product(FACES, FACES):
        total = a + b
        if doubles and total == 2:
            good += 1
        elif doubles and total == 12:
            continue
        elif total <= need:
            good += 1
    return Fraction(good, 36)


def hits_distribution(count: int, need: int) -> dict[int, Fraction]:
    """Hits from ``count`` d6 at ``need`` (1 always misses; 7-9: a 6 then 4+/5+/6)."""
    weights: dict[int, Fraction] = {}
    per_die = []
    for first in FACES:
        for second in FACES:
            if need <= 6:
                hit = first != 1 and first >= need
            else:
                hit = first == 6 and second >= need - 3 and need <= 9
            per_die.append(hit)
    for combo in product(per_die, repeat=count):
        hits = sum(combo)
        weights[hits] = weights.get(hits, Fraction(0)) + Fraction(1, 36**count)
    return weights


def wounds_distribution(count: int, need: int) -> dict[tuple[int, int], Fraction]:
    """(wounds, sixes) from ``count`` d6 at ``need``."""
    weights: dict[tuple[int, int], Fraction] = {}
    for faces in product(FACES, repeat=count):
        key = (sum(f >= need for f in faces), faces.count(6))
        weights[key] = weights.get(key, Fraction(0)) + Fraction(1, 6**count)
    return weights
