"""Memory over many table battles in one process (issue 29's target: resident memory flat
after the first 100 battles of 10,000).

    python benchmarks/memory.py [--battles 10000] [--every 100] [--books B ...]
                                [--first-seed 900000] [--trace A B] [--top 25]
                                [--frames 12]

Plays ``--battles`` battles one after another in this one process, cycling over the embedded
table battles of the rule books (every battle whose name does not end ``-no-table``, book
by book, in the registry's order), each from a new seed (``--first-seed`` plus the battle's
number: seeds no test or other benchmark plays), to its end with ``RandomPolicy(seed)`` as
``smoothbore battle`` plays it. Every ``--every`` battles it prints the resident memory (RSS,
from ``/proc/self/statm``; the peak from ``resource`` where there is no ``/proc``), the
battles a second since the last line, and the growth since battle 100.

``--trace A B`` also takes a ``tracemalloc`` snapshot after battle A and after battle B
(``--frames`` deep, 12 unless told) and prints the ``--top`` lines that grew most between
them, by file and line, and the same grouped by traceback (where the growth was allocated
from, the library's frames only): the growers to find. Tracing slows the play by a factor
of 2-4 and its own bookkeeping is not counted.

The garbage collector runs as it would; ``gc.collect()`` before each snapshot and RSS line,
so that what is counted is what is still reachable.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

from smoothbore.battle import RandomPolicy, play
from smoothbore.rulesets import available_rulesets

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_mb() -> float:
    """This process's resident memory now, in MB (the peak where ``/proc`` is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE / 1e6
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 1e6 if sys.platform == "darwin" else peak / 1e3


def table_battles(books: list[str] | None) -> list[tuple[str, str, Any, Any]]:
    """(book, battle, turn, make) for every embedded table battle."""
    found = []
    for ruleset in available_rulesets():
        if books and ruleset.name not in books:
            continue
        for name, make in ruleset.battles():
            if not name.endswith("-no-table"):
                found.append((ruleset.name, name, ruleset.turn, make))
    return found


def battles(books: list[str] | None, count: int, first_seed: int
            ) -> Iterator[tuple[int, str, str, int]]:
    """Play ``count`` battles cycling over the table battles; yield (number, book, battle,
    steps) after each (numbered from 1)."""
    cycle = table_battles(books)
    if not cycle:
        raise SystemExit("no table battle in the books asked for")
    for number in range(1, count + 1):
        book, name, turn, make = cycle[(number - 1) % len(cycle)]
        seed = first_seed + number
        played = play(turn, make(seed), RandomPolicy(seed))
        yield number, book, name, len(played.steps)


def grown(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, key: str, top: int
          ) -> list[str]:
    """The ``top`` entries that grew most from ``before`` to ``after``, grouped by ``key``."""
    lines = []
    grew = sorted((s for s in after.compare_to(before, key) if s.size_diff > 0),
                  key=lambda s: -s.size_diff)
    for stat in grew[:top]:
        if key == "traceback":
            frames = [f"{frame.filename}:{frame.lineno}" for frame in stat.traceback
                      if "smoothbore" in frame.filename][-6:]
            where = " <- ".join(reversed(frames)) or str(stat.traceback[0])
        else:
            where = str(stat.traceback[0])
        lines.append(f"{stat.size_diff / 1e6:+9.3f} MB {stat.count_diff:+9,d} blocks  {where}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--books", nargs="+", default=None)
    parser.add_argument("--first-seed", type=int, default=900_000)
    parser.add_argument("--trace", type=int, nargs=2, metavar=("A", "B"), default=None)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--frames", type=int, default=12,
                        help="frames kept of each allocation's traceback (--trace)")
    args = parser.parse_args(argv)
    cycle = table_battles(args.books)
    print(f"{args.battles:,} table battles in one process, cycling over {len(cycle)}: "
          + ", ".join(f"{book} {name}" for book, name, _, _ in cycle), flush=True)
    print(f"python {sys.version.split()[0]}, pid {os.getpid()}; RSS at start "
          f"{rss_mb():.1f} MB", flush=True)
    if args.trace:
        tracemalloc.start(args.frames)
    snapshots: dict[int, tracemalloc.Snapshot] = {}
    at_100: float | None = None
    last, steps = time.perf_counter(), 0
    for number, _book, _name, played in battles(args.books, args.battles, args.first_seed):
        steps += played
        if args.trace and number in args.trace:
            gc.collect()
            snapshots[number] = tracemalloc.take_snapshot()
        if number % args.every == 0 or number == args.battles:
            gc.collect()
            rss = rss_mb()
            if number >= 100 and at_100 is None:
                at_100 = rss
            now = time.perf_counter()
            rate = args.every / (now - last) if now > last else float("nan")
            since = f"{rss - at_100:+.1f} MB since battle 100" if at_100 is not None else ""
            traced = (f"; traced {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB"
                      if args.trace else "")
            print(f"battle {number:>6,}: RSS {rss:7.1f} MB {since}; {rate:5.1f} battles/s; "
                  f"{steps:,} steps{traced}", flush=True)
            last = now
    if args.trace and len(snapshots) == 2:
        first, second = sorted(snapshots)
        for key in ("lineno", "traceback"):
            print(f"\ngrown from battle {first} to battle {second}, by {key}:")
            for line in grown(snapshots[first], snapshots[second], key, args.top):
                print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
