"""Core benchmarks, run on demand: ``python benchmarks/bench_core.py`` (needs the ``bench``
extra, icepool). What each part measures:

1. Cold exact pools against icepool. For every n from 1 to 60, a fresh Python process asks
   each (n, need) once (need 1..12; naturals 1 pass and 12 fail, the Bloodybacks pool) of
   smoothbore and then of icepool, so no cache of either library holds the answer. The
   ratio is icepool's time over smoothbore's for the 12 queries of that n, measured in the
   same process; results are compared outcome by outcome.
2. Cold 2d6 + modifier >= target against icepool: every modifier -3..3 and target 2..14
   asked once in a fresh process (91 queries), the same way.
3. Warm sampling: 1,000,000 six-die d12 pool checks (one table lookup each) against numpy
   drawing the 6,000,000 d12 faces raw as ``uint8``; the target is at least 1/3 of numpy's
   rate in checks' worth.

Every figure is a median of repeated runs in this one invocation. For n = 1 and for the
thresholds it also prints the first query's time apart from the later ones': in a fresh
interpreter the first run of every function on the path costs several times its later
runs (cold code, before CPython specialises it), and with 12 queries that share weighs.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from smoothbore.core import PoolCheck

MAX_N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
NEEDS = range(1, 13)
RUNS = 3
"""Fresh processes per n (the median is reported)."""

_CHILD = r"""
import json, sys, time
from fractions import Fraction
kind, n = sys.argv[1], int(sys.argv[2])
import icepool
from smoothbore.core import D6, PoolCheck, ThresholdCheck
if kind == "pool":
    queries = [(n, need) for need in range(1, 13)]
    def ours(q):
        return PoolCheck(q[0], q[1], auto_pass={1}, auto_fail={12}).distribution()
    def theirs(q):
        need = q[1]
        return q[0] @ icepool.d12.map(lambda f: 1 if f == 1 or (f <= need and f != 12) else 0)
else:
    queries = [(m, t) for m in range(-3, 4) for t in range(2, 15)]
    def ours(q):
        return ThresholdCheck((D6, D6), q[1], q[0]).distribution()
    def theirs(q):
        return (2 @ icepool.d6 + q[0]) >= q[1]
def each(function, queries):
    out, times = [], []
    for q in queries:
        start = time.perf_counter()
        out.append(function(q))
        times.append(time.perf_counter() - start)
    return out, times
mine, ours_each = each(ours, queries)
other, theirs_each = each(theirs, queries)
t_ours, t_theirs = sum(ours_each), sum(theirs_each)
same = True
for d, i in zip(mine, other):
    total = i.denominator()
    a = {int(k): Fraction(w, d.denominator) for k, w in d.items() if w}
    b = {int(k): Fraction(w, total) for k, w in i.items() if w}
    same = same and a == b
print(json.dumps([t_ours, t_theirs, same, ours_each, theirs_each]))
"""


def cold(kind: str, n: int) -> tuple[float, float, bool, list[float], list[float]]:
    """(smoothbore seconds, icepool seconds, equal results, and each query's seconds for
    both) in a fresh process."""
    out = subprocess.run([sys.executable, "-c", _CHILD, kind, str(n)], check=True,
                         capture_output=True, text=True).stdout
    ours, theirs, same, ours_each, theirs_each = json.loads(out)
    return ours, theirs, same, ours_each, theirs_each


FIRSTS: dict[tuple[str, int], tuple[float, float, float, float]] = {}
"""Per (kind, n): the first query's microseconds and the median of the later ones, for
smoothbore and icepool (medians over the runs): how much is the first call's."""


def median_cold(kind: str, n: int) -> tuple[float, float, float, bool]:
    runs = [cold(kind, n) for _ in range(RUNS)]
    ours = statistics.median(r[0] for r in runs)
    theirs = statistics.median(r[1] for r in runs)
    FIRSTS[kind, n] = (
        statistics.median(r[3][0] for r in runs) * 1e6,
        statistics.median(statistics.median(r[3][1:]) for r in runs) * 1e6,
        statistics.median(r[4][0] for r in runs) * 1e6,
        statistics.median(statistics.median(r[4][1:]) for r in runs) * 1e6,
    )
    return ours, theirs, statistics.median(r[1] / r[0] for r in runs), all(r[2] for r in runs)


def _firsts(kind: str, n: int) -> str:
    first, later, their_first, their_later = FIRSTS[kind, n]
    return (f"first query {first:.1f} us then {later:.1f} us (icepool {their_first:.0f} then "
            f"{their_later:.0f})")


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def main() -> None:
    import os

    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print(f"1. cold exact n-d12 pools, 12 needs each, fresh process per n (median of {RUNS})")
    print("    n  smoothbore us/query  icepool us/query  ratio  equal")
    ratios = []
    for n in range(1, MAX_N + 1):
        ours, theirs, ratio, same = median_cold("pool", n)
        ratios.append(ratio)
        if n <= 12 or n % 6 == 0:
            print(f"  {n:3d}  {ours / 12 * 1e6:19.1f}  {theirs / 12 * 1e6:16.1f}  "
                  f"{ratio:5.0f}x  {same}")
    print(f"  ratio over n = 1..{MAX_N}: min {min(ratios):.0f}x, median "
          f"{statistics.median(ratios):.0f}x (target >= 50x for every n)")
    print(f"  n = 1: {_firsts('pool', 1)}")

    ours, theirs, ratio, same = median_cold("threshold", 0)
    print("\n2. cold 2d6 + modifier >= target, 91 queries, fresh process")
    print(f"  smoothbore {ours / 91 * 1e6:.1f} us/query, icepool {theirs / 91 * 1e6:.1f} "
          f"us/query, ratio {ratio:.0f}x (target >= 50x), equal {same}")
    print(f"  {_firsts('threshold', 0)}")

    size = 1_000_000
    check = PoolCheck(6, 7, auto_pass={1}, auto_fail={12})
    rng = np.random.default_rng(2026)
    check.sample(rng, 10)  # build the cumulative table once
    checks_times, faces_times = [], []
    for _ in range(15):
        checks_times.append(median_seconds(lambda: check.sample(rng, size), 1))
        faces_times.append(median_seconds(
            lambda: rng.integers(1, 13, size=6 * size, dtype=np.uint8), 1))
    t_checks = statistics.median(checks_times)
    t_faces = statistics.median(faces_times)
    print(f"\n3. warm sampling of {size:,} six-die d12 pool checks vs numpy drawing "
          f"{6 * size:,} uint8 d12 faces")
    print(f"  smoothbore: {t_checks * 1e3:8.2f} ms ({size / t_checks / 1e6:.1f} M checks/s)")
    print(f"  numpy:      {t_faces * 1e3:8.2f} ms ({size / t_faces / 1e6:.1f} M checks' worth/s)")
    print(f"  ratio:      {t_faces / t_checks:.2f} of numpy's rate (target >= 0.33)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
