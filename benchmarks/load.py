"""Every book under load (issue 28, "Nothing hangs"): one table of timings, a row per book and
size, from the books' own ``benchmarks/load_<book>.py`` modules.

Each ``load_<book>.py`` (written by the book's engineer) exposes ``RULESET: str`` and
``big_battle(units_a_side: int, seed: int = 0) -> state``. A book whose module is missing (or
fails to import) is reported as such and left out; the others are measured.

    PYTHONPATH=src python benchmarks/load.py [--books B ...] [--units 100 200 500]
                                             [--steps 20] [--no-sightings]

Columns, wall-clock seconds or milliseconds as measured, with the process's CPU time beside
the first ``legal_actions`` and the step median (on a shared machine the CPU time is the
steadier figure; compare rows of one run, not runs of different days):

- build: ``big_battle(n, seed)``;
- legal: the number of legal actions in the battle as built;
- first legal_actions: the first ``legal_actions`` call (cold: a seed of its own, so the
  units are new to every remembered answer);
- step median / max: ``--steps`` random steps, each chosen as ``smoothbore.battle.
  random_policy`` chooses (``choose_action``: the engine's ``choose_legal`` when it has one)
  then played with the turn's ``step``;
- sightings: one ``smoothbore.table.sightings`` call over every enemy pair of the table as
  built (``--no-sightings`` leaves it out, ``--sightings-up-to N`` above N units a side; "-"
  when left out or the battle has no table).

Targets (issue 28): ``legal_actions`` under 0.5 s and a random step under 50 ms at 500 units a
side, in every book; sightings near-linear in the pairs asked.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
BOOKS = ("bloodybacks93", "will_awi", "mckie_acw", "boltaction_acw")


def load_module(book: str) -> ModuleType | str:
    """``benchmarks/load_<book>.py`` as a module, or why not (a sentence)."""
    path = HERE / f"load_{book}.py"
    if not path.exists():
        return f"no {path.name}"
    spec = importlib.util.spec_from_file_location(f"load_{book}", path)
    if spec is None or spec.loader is None:
        return f"{path.name} cannot be loaded"
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # a book's module under construction: report, go on
        del sys.modules[spec.name]
        return f"{path.name} failed to import: {type(error).__name__}: {error}"
    if not hasattr(module, "big_battle") or not hasattr(module, "RULESET"):
        return f"{path.name} lacks RULESET or big_battle"
    return module


def _turn(ruleset: str) -> Any:
    from smoothbore.rulesets import get_ruleset

    turn = get_ruleset(ruleset).turn
    if turn is None:
        raise SystemExit(f"{ruleset}: the ruleset has no turn to play")
    return turn


def table_of(state: Any) -> Any:
    """The battle's table (``state.extra.table`` in the four books, or ``state.table``), or
    None."""
    table = getattr(getattr(state, "extra", None), "table", None)
    return table if table is not None else getattr(state, "table", None)


def measure(module: ModuleType, units_a_side: int, seed: int, steps: int,
            sightings: bool) -> dict[str, float]:
    """The row of one book and size (seconds; ``legal`` a count; NaN where not measured)."""
    from smoothbore.battle import random_policy

    turn = _turn(module.RULESET)
    start = time.perf_counter()
    state = module.big_battle(units_a_side, seed)
    built = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    legal = turn.legal_actions(state)
    first, first_cpu = time.perf_counter() - start, time.process_time() - cpu
    seen = math.nan
    pairs = math.nan
    table = table_of(state)
    if sightings and table is not None:
        from smoothbore.table import enemy_pairs
        from smoothbore.table import sightings as sight

        asked = enemy_pairs(table)
        pairs = float(len(asked))
        start = time.perf_counter()
        sight(table, asked)
        seen = time.perf_counter() - start
    policy = random_policy(seed)
    times: list[float] = []
    cpus: list[float] = []
    for _ in range(steps):
        start, cpu = time.perf_counter(), time.process_time()
        action = policy.choose_action(turn, state)
        if action is None:
            break
        state, _events = turn.step(state, action)
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return {"build": built, "legal": float(len(legal)), "first": first, "first_cpu": first_cpu,
            "median": statistics.median(times) if times else math.nan,
            "median_cpu": statistics.median(cpus) if cpus else math.nan,
            "max": max(times) if times else math.nan, "pairs": pairs, "sightings": seen}


def _cell(value: float, scale: float, width: int, digits: int) -> str:
    return f"{'-':>{width}}" if math.isnan(value) else f"{value * scale:{width}.{digits}f}"


HEADER = ("book           | units a side | build s | legal actions | first legal_actions s "
          "(< 0.5) | its CPU s | step median ms | its CPU ms | step max ms (< 50) | enemy pairs "
          "| sightings s")


def row(book: str, size: int, m: dict[str, float]) -> str:
    pairs = "-" if math.isnan(m["pairs"]) else str(int(m["pairs"]))
    return (f"{book:<14} | {size:>12} | {_cell(m['build'], 1, 7, 2)} | {int(m['legal']):>13} | "
            f"{_cell(m['first'], 1, 29, 3)} | {_cell(m['first_cpu'], 1, 9, 3)} | "
            f"{_cell(m['median'], 1e3, 14, 1)} | {_cell(m['median_cpu'], 1e3, 10, 1)} | "
            f"{_cell(m['max'], 1e3, 18, 1)} | {pairs:>11} | {_cell(m['sightings'], 1, 11, 3)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", nargs="+", default=list(BOOKS), choices=BOOKS)
    parser.add_argument("--units", nargs="+", type=int, default=[100, 200, 500])
    parser.add_argument("--steps", type=int, default=20, help="random steps a row (20)")
    parser.add_argument("--no-sightings", action="store_true",
                        help="leave out the sightings call over all enemy pairs")
    parser.add_argument("--sightings-up-to", type=int, default=None, metavar="N",
                        help="the sightings call only up to N units a side (all enemy pairs "
                             "of 500 a side are 500,000 sightings: minutes and gigabytes)")
    args = parser.parse_args(argv)
    modules: list[tuple[str, ModuleType]] = []
    for book in args.books:
        loaded = load_module(book)
        if isinstance(loaded, str):
            print(f"{book}: left out ({loaded})", flush=True)
        else:
            modules.append((book, loaded))
    print(HEADER, flush=True)
    for b, (book, module) in enumerate(modules):
        for n, size in enumerate(args.units):
            try:
                m = measure(module, size, seed=1000 + 100 * b + n, steps=args.steps,
                            sightings=not args.no_sightings and (
                                args.sightings_up_to is None or size <= args.sightings_up_to))
            except Exception as error:  # one book's failure does not hide the others' rows
                print(f"{book:<14} | {size:>12} | failed: {type(error).__name__}: {error}",
                      flush=True)
                continue
            print(row(book, size, m), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
