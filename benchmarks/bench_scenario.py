"""Loading and checking a scenario file (issue 30), run on demand (not in the tests):

    PYTHONPATH=src python benchmarks/bench_scenario.py [--units N] [--calls K]

For each book, the battle of ``benchmarks/load_<book>.py`` at N units in all (default 100:
N/2 a side) is written as a scenario file (``Scenario.from_state(...).to_toml()``), then read
back K times (default 15): ``read_scenario`` parses the TOML, reads every word, builds the
units, commanders, terrain and table, and runs the book's whole-battle check by starting the
battle (``new_battle``). Figures are medians in this one process, with the garbage collector
off while a call is timed: the wall time, the CPU time (``cpu``: what the machine's other
work does not add to), ``tomllib.loads`` alone (the standard library's parser, pure Python)
and ``new_battle`` alone on the table already built (what any battle costs to start, file or
not). Target: under 50 ms for 100 units. Timings on a shared machine are noisy: compare
ratios in one run."""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from smoothbore.scenario import Scenario, read_scenario

BOOKS = ("bloodybacks93", "boltaction_acw", "mckie_acw", "will_awi")
TARGET = 0.050


def _median(call: Any, calls: int, clock: Any = time.perf_counter) -> float:
    times = []
    for _ in range(calls):
        gc.disable()
        start = clock()
        call()
        times.append(clock() - start)
        gc.enable()
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=100, help="units in all (default 100)")
    parser.add_argument("--calls", type=int, default=15, help="timed calls (default 15)")
    args = parser.parse_args(argv)
    print(f"load and check a scenario file of {args.units} units (median of {args.calls})")
    print(f"{'book':<16}{'units':>6}{'bytes':>9}{'read+check':>12}{'(cpu)':>9}{'tomllib':>10}"
          f"{'new_battle':>12}  target {TARGET * 1000:.0f} ms")
    worst = 0.0
    for book in BOOKS:
        load = importlib.import_module(f"load_{book}")
        words = importlib.import_module(f"smoothbore.{book}.scenarios")
        played = load.big_battle(args.units // 2)  # perhaps played on to a later phase
        state = words.start(played.sides, played.units, played.commanders, seed=0,
                            options=played.options, scenario=played.scenario,
                            table=played.extra.table, setup=words.setup_of(played))
        scenario = Scenario.from_state(state)
        text = scenario.to_toml()
        assert read_scenario(text).start(0) == state

        def start_only(s: Scenario = scenario, w: Any = words) -> Any:
            return w.start(s.sides, s.units, s.commanders, seed=0, options=s.options,
                           scenario=s.conditions, table=s.table, setup=dict(s.setup))

        read = _median(lambda t=text: read_scenario(t), args.calls)
        cpu = _median(lambda t=text: read_scenario(t), args.calls, time.process_time)
        parse = _median(lambda t=text: tomllib.loads(t), args.calls)
        alone = _median(start_only, args.calls)
        worst = max(worst, read)
        print(f"{book:<16}{len(state.units):>6}{len(text.encode()):>9}{read * 1000:>10.1f}ms"
              f"{cpu * 1000:>7.1f}ms{parse * 1000:>8.1f}ms{alone * 1000:>10.1f}ms"
              f"  {'ok' if read < TARGET else 'OVER'}")
    return 0 if worst < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
