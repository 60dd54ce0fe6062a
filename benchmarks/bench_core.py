"""Core benchmarks, run on demand: ``python benchmarks/bench_core.py``.

1. Exact success-count distribution of n d12 (n = 1..12) at every need 1..12, naturals 1 pass
   and 12 fail (the Bloodybacks pool), smoothbore against icepool on the same queries, with
   the results compared outcome by outcome.
2. Vectorised sampling of 1,000,000 six-die d12 pool checks against numpy alone drawing the
   same number of d12 faces (6,000,000).

Medians over repeated runs, all measured in this one process. Needs the ``bench`` extra
(icepool).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from smoothbore.core import Distribution, PoolCheck

COUNTS = range(1, 13)
NEEDS = range(1, 13)


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


NATURAL_PASS = frozenset({1})
NATURAL_FAIL = frozenset({12})


def smoothbore_sweep() -> list[Distribution[int]]:
    # _compute bypasses the per-check cache, so every query is computed afresh
    return [
        PoolCheck(n, need, auto_pass=NATURAL_PASS, auto_fail=NATURAL_FAIL)._compute()
        for n in COUNTS
        for need in NEEDS
    ]


def icepool_sweep() -> list[Any]:
    import icepool

    results = []
    for n in COUNTS:
        for need in NEEDS:
            success = icepool.d12.map(
                lambda face, need=need: 1 if face == 1 or (face <= need and face != 12) else 0
            )
            results.append(n @ success)
    return results


def as_fractions(ours: list[Distribution[int]], theirs: list[Any]) -> bool:
    """Whether every query gives the same exact probabilities in both libraries."""
    for dist, die in zip(ours, theirs, strict=True):
        total = die.denominator()
        mine = {k: Fraction(w, dist.denominator) for k, w in dist.items()}
        if mine != {int(k): Fraction(q, total) for k, q in die.items() if q}:
            return False
    return True


def main() -> None:
    assert as_fractions(smoothbore_sweep(), icepool_sweep()), "smoothbore and icepool disagree"
    queries = len(COUNTS) * len(NEEDS)
    # interleaved, so both libraries see the same machine load
    ours_times, theirs_times = [], []
    for _ in range(15):
        ours_times.append(median_seconds(smoothbore_sweep, 3))
        theirs_times.append(median_seconds(icepool_sweep, 1))
    t_ours = statistics.median(ours_times)
    t_theirs = statistics.median(theirs_times)
    print(f"exact pool distributions, {queries} queries (n=1..12 d12, need 1..12), equal results")
    print(f"  smoothbore: {t_ours * 1e3:8.3f} ms per sweep ({t_ours / queries * 1e6:.2f} us/query)")
    print(f"  icepool:    {t_theirs * 1e3:8.3f} ms per sweep "
          f"({t_theirs / queries * 1e6:.2f} us/query)")
    print(f"  ratio:      smoothbore is {t_theirs / t_ours:.1f}x faster")

    size = 1_000_000
    check = PoolCheck(6, 7, auto_pass={1}, auto_fail={12})
    rng = np.random.default_rng(2026)
    check.sample(rng, 10)  # build the cumulative table once
    checks_times, faces_times = [], []
    for _ in range(15):
        checks_times.append(median_seconds(lambda: check.sample(rng, size), 1))
        faces_times.append(median_seconds(lambda: rng.integers(1, 13, size=6 * size), 1))
    t_checks = statistics.median(checks_times)
    t_faces = statistics.median(faces_times)
    print(f"\nsampling {size:,} six-die d12 pool checks vs numpy drawing {6 * size:,} d12 faces")
    print(f"  smoothbore: {t_checks * 1e3:8.2f} ms ({size / t_checks / 1e6:.1f} M checks/s)")
    print(f"  numpy:      {t_faces * 1e3:8.2f} ms ({6 * size / t_faces / 1e6:.1f} M faces/s, "
          f"{size / t_faces / 1e6:.1f} M checks' worth/s)")
    print(f"  ratio:      smoothbore checks per second / numpy checks' worth per second = "
          f"{t_faces / t_checks:.2f}")


if __name__ == "__main__":
    main()
