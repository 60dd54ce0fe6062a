"""Soak: random play of every embedded battle of every registered rule book over many seeds,
reporting every exception with its book, battle, seed and step, and the time taken.

Run on demand (it is not part of the test suite):

    .venv/bin/python benchmarks/soak.py                 # 2000 seeds, every book, one process
    .venv/bin/python benchmarks/soak.py --seeds 20 --jobs 2
    .venv/bin/python benchmarks/soak.py --books will_awi --battles cowpens --first-seed 11

Battle ``b`` of seed ``s`` is ``ruleset.battle(b)(s)`` played by ``RandomPolicy(s)`` (as
``smoothbore battle BOOK --battle b --seed s`` plays it), for at most ``--max-steps``
actions. After every step the table's footprints are checked to be exactly the units that
stand (``Engine.stands``: lost units leave the table, issue 27); ``--no-checks`` skips that.
A run that raises is reported with the step it failed at (counted from 1), the turn, the
phase, the action and the exception; the other runs go on. The exit status is 1 when a run
failed, 0 otherwise. ``--json FILE`` writes every failure and the timings as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from smoothbore import available_rulesets
from smoothbore.battle import MAX_STEPS, RandomPolicy
from smoothbore.rulesets import get_ruleset
from smoothbore.table import table_of

SEEDS = 2000
CHUNK = 25
"""Seeds of one battle a worker plays in one task."""


@attrs.frozen
class Failure:
    """One run that raised (or broke the table check)."""

    book: str
    battle: str
    seed: int
    step: int
    turn: int
    phase: str
    action: str
    error: str
    trace: str

    def line(self) -> str:
        return (f"{self.book} {self.battle} seed {self.seed}, step {self.step} (turn "
                f"{self.turn}, {self.phase}): {self.error}\n    action: {self.action}")


@attrs.frozen
class Tally:
    """What one task played: runs, how many ended, steps taken, seconds, failures."""

    book: str
    battle: str
    runs: int
    finished: int
    steps: int
    seconds: float
    failures: tuple[Failure, ...]


def _standing_check(turn: Any, state: Any) -> str | None:
    """Why the table is out of step with the units (None: it is not, or there is no
    table or no ``stands``)."""
    table = table_of(state)
    stands = getattr(turn, "stands", None)
    if table is None or stands is None:
        return None
    standing = {unit.id for unit in state.units if stands(unit)}
    placed = set(table.units)
    if placed == standing:
        return None
    return (f"table out of step: footprints of units that do not stand "
            f"{sorted(placed - standing)}, standing units without one "
            f"{sorted(standing - placed)}")


def play_one(turn: Any, make: Any, book: str, battle: str, seed: int, max_steps: int,
             checks: bool) -> tuple[bool, int, Failure | None]:
    """One seeded random battle: (ended by its rules, steps taken, failure or None)."""
    state: Any = None
    action: Any = None
    step = 0
    try:
        state = make(seed)
        policy = RandomPolicy(seed)
        while step < max_steps:
            if turn.is_over(state):
                turn.outcome(state)
                return True, step, None
            action = policy.choose_action(turn, state)
            if action is None:
                break
            state, _ = turn.step(state, action)
            step += 1
            if checks:
                problem = _standing_check(turn, state)
                if problem is not None:
                    raise AssertionError(problem)
        return bool(turn.is_over(state)), step, None
    except Exception as error:  # the soak reports every exception, whatever it is
        failure = Failure(
            book, battle, seed, step + 1 if action is not None else step,
            getattr(state, "turn", 0), str(getattr(state, "phase", "")),
            repr(action)[:300], f"{type(error).__name__}: {error}"[:500],
            "".join(traceback.format_exception(error)[-6:]))
        return False, step, failure


def play_chunk(book: str, battle: str, seeds: Sequence[int], max_steps: int,
               checks: bool) -> Tally:
    """Play ``seeds`` of one battle (a worker's task: the ruleset is found by name)."""
    ruleset = get_ruleset(book)
    turn = ruleset.turn
    make = ruleset.battle(battle)
    started = time.perf_counter()
    finished = steps = 0
    failures = []
    for seed in seeds:
        ended, taken, failure = play_one(turn, make, book, battle, seed, max_steps, checks)
        finished += ended
        steps += taken
        if failure is not None:
            failures.append(failure)
    return Tally(book, battle, len(seeds), finished, steps, time.perf_counter() - started,
                 tuple(failures))


def tasks(books: Sequence[str], battles: Sequence[str], first: int, count: int,
          chunk: int) -> Iterator[tuple[str, str, tuple[int, ...]]]:
    """(book, battle, seeds) for every embedded battle of every chosen book."""
    for ruleset in available_rulesets():
        if ruleset.turn is None or (books and ruleset.name not in books):
            continue
        for name, _ in ruleset.battles():
            if battles and name not in battles:
                continue
            for start in range(first, first + count, chunk):
                yield ruleset.name, name, tuple(range(start, min(first + count, start + chunk)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=SEEDS, help="seeds per battle (2000)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed (0)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (1: this process; 0: one per core)")
    parser.add_argument("--books", default="", help="comma-separated books (default: all)")
    parser.add_argument("--battles", default="", help="comma-separated battles (default: all)")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS,
                        help=f"actions per battle at most ({MAX_STEPS})")
    parser.add_argument("--chunk", type=int, default=CHUNK, help="seeds per task (25)")
    parser.add_argument("--no-checks", action="store_true",
                        help="skip the table check after each step")
    parser.add_argument("--json", metavar="FILE", help="write failures and timings as JSON")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.first_seed < 0 or args.chunk < 1 or args.max_steps < 1:
        parser.error("--seeds, --chunk and --max-steps take 1 or more, --first-seed 0 or more")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    books = [b.strip() for b in args.books.split(",") if b.strip()]
    battles = [b.strip() for b in args.battles.split(",") if b.strip()]
    work = list(tasks(books, battles, args.first_seed, args.seeds, args.chunk))
    if not work:
        parser.error("no battle to play: check --books and --battles")
    checks = not args.no_checks
    started = time.perf_counter()
    tallies: list[Tally] = []
    if jobs == 1:
        for book, battle, seeds in work:
            tallies.append(play_chunk(book, battle, seeds, args.max_steps, checks))
            _progress(tallies[-1])
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(play_chunk, book, battle, seeds, args.max_steps, checks)
                       for book, battle, seeds in work]
            for future in as_completed(futures):
                tallies.append(future.result())
                _progress(tallies[-1])
    wall = time.perf_counter() - started
    return _report(tallies, wall, jobs, args)


def _progress(tally: Tally) -> None:
    for failure in tally.failures:
        print("FAIL " + failure.line(), file=sys.stderr, flush=True)


def _report(tallies: list[Tally], wall: float, jobs: int, args: argparse.Namespace) -> int:
    rows: dict[tuple[str, str], list[Tally]] = {}
    for tally in tallies:
        rows.setdefault((tally.book, tally.battle), []).append(tally)
    print(f"soak: seeds {args.first_seed} to {args.first_seed + args.seeds - 1}, "
          f"{jobs} job(s), at most {args.max_steps} actions a battle")
    print(f"{'book':<16}{'battle':<30}{'runs':>6}{'ended':>7}{'failed':>7}{'steps':>9}"
          f"{'cpu s':>9}{'ms/run':>8}")
    failures: list[Failure] = []
    summary = []
    for (book, battle), parts in sorted(rows.items()):
        runs = sum(p.runs for p in parts)
        ended = sum(p.finished for p in parts)
        failed = [f for p in parts for f in p.failures]
        steps = sum(p.steps for p in parts)
        seconds = sum(p.seconds for p in parts)
        failures.extend(failed)
        print(f"{book:<16}{battle:<30}{runs:>6}{ended:>7}{len(failed):>7}{steps:>9}"
              f"{seconds:>9.1f}{1000 * seconds / runs:>8.0f}")
        summary.append({"book": book, "battle": battle, "runs": runs, "ended": ended,
                        "failed": len(failed), "steps": steps, "cpu_seconds": seconds})
    cpu = sum(t.seconds for t in tallies)
    print(f"total: {sum(t.runs for t in tallies)} runs, {len(failures)} failed, "
          f"{cpu:.1f} s of play, {wall:.1f} s wall")
    for failure in sorted(failures, key=lambda f: (f.book, f.battle, f.seed)):
        print("\n" + failure.line())
        print("    " + failure.trace.replace("\n", "\n    ").rstrip())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seeds": args.seeds, "first_seed": args.first_seed, "jobs": jobs,
                       "wall_seconds": wall, "cpu_seconds": cpu, "battles": summary,
                       "failures": [attrs.asdict(f) for f in failures]}, out, indent=2)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
