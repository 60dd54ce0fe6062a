"""Instructions a step, counted by callgrind (issue 29's table of targets): for every embedded
battle of every book, the instructions of a random step on the table battle and on its
no-table twin (``<name>-no-table``) and their ratio, the engine's own work a step, the fixed
cost of a ``smoothbore.table.sightings`` call, and ``import smoothbore.core``.

    PYTHONPATH=src python benchmarks/instructions.py [--books B ...] [--steps 30]
                                                     [--seed 7001] [--battles NAME ...]

Needs ``valgrind`` (the system package). Instruction counts do not depend on the machine's
load; every child runs with ``PYTHONHASHSEED=0`` so a run repeats exactly.

How it counts. Each battle is played in a child process of its own under
``valgrind --tool=callgrind --dump-before=os_getppid``: the child calls ``os.getppid()`` as a
marker between the parts it measures, so callgrind writes one dump per part and the
instructions of each part are that dump's total (the marker's own cost, measured between two
markers with nothing between, is taken off each part). The parts:

- a step: choosing the action as ``smoothbore.battle.random_policy`` does (``choose_action``:
  the engine's ``choose_legal`` when it has one) and then ``Engine.step``; "instr/step" is
  the median over the steps played (and the mean beside it: a few steps cost far more);
- the engine's own work: inside ``Engine.step``, what is neither the rule's check nor its
  handler. The child wraps the check and the handler that ``Engine.step`` calls (the rule
  the engine looks up, ``Engine._table``) with markers, so the step splits into engine,
  check, engine, handler, engine; the three engine parts are summed (median over the steps).
  "-" when the engine's private lookup is not there to wrap (a later engine contract);
- ``sightings`` on the table battle's first table: a call for one pair on a new table value
  of the same units (``cold``: its layout worked out afresh; the ground's memos may answer),
  then one pair on the same table (``1``) and eight pairs (``8``): the fixed cost of a call
  is the warm one-pair figure;
- ``import smoothbore.core`` in a fresh interpreter, and whether it loaded Shapely.

``--sightings``: only the fixed cost of ``sightings``, every table battle in one child,
after a warm-up call (a first call that meets a lazily imported module, such as numpy's
``np.unique`` importing ``numpy.ma``, counts tens of millions of instructions once): the
median of five one-pair calls and of three eight-pair calls, different pairs each.

Cold: each battle is made from ``--seed`` (not one the test suite or the other benchmarks
play) and its units and commanders renamed before the first step, so no answer remembered
on a unit, a commander or a footprint serves it; the child process is new, so nothing is
remembered from another battle either.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

MARKER = "os_getppid"
"""The C function whose every call makes callgrind dump (``os.getppid``: nothing else in the
library calls it)."""

_labels: list[str] = []


def mark(label: str) -> None:
    """End the part being counted and start one called ``label``."""
    _labels.append(label)
    os.getppid()


# --- the child: one battle under callgrind --------------------------------------------------
def renamed(state: Any, tag: int) -> Any:
    """``state`` with its units and commanders renamed (as ``bench_engine.renamed``)."""
    import attrs

    units = [attrs.evolve(u, name=f"{u.name} #{tag}") for u in state.units]
    commanders = [attrs.evolve(c, name=f"{c.name} #{tag}") for c in state.commanders]
    return state.with_units(*units).with_commanders(*commanders)


class _Marked:
    """A check or handler with a marker before it and after it."""

    def __init__(self, inner: Callable[..., Any], label: str, back: str) -> None:
        self.inner, self.label, self.back = inner, label, back

    def __call__(self, *args: Any) -> Any:
        mark(self.label)
        try:
            return self.inner(*args)
        finally:
            mark(self.back)


def instrument(turn: Any) -> bool:
    """Wrap the checks and handlers ``Engine.step`` looks up (``Engine._table``) in markers;
    False when the engine has no such lookup."""
    table = getattr(turn, "_table", None)
    if not isinstance(table, dict):
        return False
    import attrs

    for key, rule in list(table.items()):
        try:
            table[key] = attrs.evolve(rule, check=_Marked(rule.check, "check", "engine"),
                                      handler=_Marked(rule.handler, "handler", "engine"))
        except Exception:
            return False
    return True


def child(book: str, battle: str, steps: int, seed: int) -> dict[str, Any]:
    """Play ``battle`` of ``book`` for ``steps`` random steps, marking each part."""
    from smoothbore.battle import random_policy
    from smoothbore.rulesets import get_ruleset

    ruleset = get_ruleset(book)
    turn = ruleset.turn
    state = renamed(ruleset.battle(battle)(seed), seed)
    start = state
    wrapped = instrument(turn)
    policy = random_policy(seed)
    played = 0
    for i in range(steps):
        mark(f"choose:{i}")
        action = policy.choose_action(turn, state)
        if action is None:
            break
        mark(f"engine:{i}")
        state, _events = turn.step(state, action)
        played += 1
    mark("idle")
    for _ in range(5):
        mark("empty")
    table = getattr(getattr(start, "extra", None), "table", None)
    if table is not None:
        from smoothbore.table import enemy_pairs, sightings

        pairs = enemy_pairs(table)
        fresh = table.on_same_ground(table.footprints, table.commanders)  # the line's next
        if len(pairs) >= 10:
            mark("sight:cold")
            sightings(fresh, pairs[:1])
            mark("sight:1")
            sightings(fresh, pairs[1:2])
            mark("sight:8")
            sightings(fresh, pairs[2:10])
    mark("end")
    return {"played": played, "wrapped": wrapped, "labels": list(_labels)}


def child_sightings(seed: int) -> dict[str, Any]:
    """The fixed cost of ``sightings`` on every embedded table battle's first table: after a
    warm-up call on another table (so that no first use of a module is counted), a call of
    one pair on a new table value of the same ground (``cold``: ``Table.on_same_ground``, as
    a battle's next table is, whose terrain index is the line's), then five calls of one pair
    each and three of eight pairs each on it, different pairs every call (the medians are
    the figures)."""

    from smoothbore.rulesets import available_rulesets
    from smoothbore.table import enemy_pairs, sightings

    tables = []
    for ruleset in available_rulesets():
        for name, make in ruleset.battles():
            if name.endswith("-no-table"):
                continue
            table = getattr(getattr(make(seed), "extra", None), "table", None)
            if table is not None and len(enemy_pairs(table)) >= 40:
                tables.append((ruleset.name, name, table))
    names = []
    for i, (book, name, table) in enumerate(tables):
        pairs = enemy_pairs(table)
        other = tables[i - 1][2]
        sightings(other, enemy_pairs(other)[:9])  # warm-up: first uses of modules
        fresh = table.on_same_ground(table.footprints, table.commanders)  # the line's next
        mark(f"cold:{i}")
        sightings(fresh, pairs[:1])
        for k in range(5):
            mark(f"one:{i}")
            sightings(fresh, pairs[1 + k:2 + k])
        for k in range(3):
            mark(f"eight:{i}")
            sightings(fresh, pairs[6 + 8 * k:14 + 8 * k])
        mark("idle")
        names.append((book, name))
    for _ in range(5):
        mark("empty")
    mark("end")
    return {"labels": list(_labels), "battles": names}


def sightings_counts() -> list[tuple[str, str, float, float, float]]:
    """Per table battle: the cold one-pair call, the median one-pair and eight-pair call."""
    reported, counts = counted(["--sightings"], _env())
    labels: list[str] = reported["labels"]
    empty = min(c for label, c in zip(labels, counts, strict=False) if label == "empty")
    by: dict[str, list[int]] = {}
    for label, count in zip(labels, counts, strict=False):
        by.setdefault(label, []).append(count - empty)
    return [(book, name, by[f"cold:{i}"][0], statistics.median(by[f"one:{i}"]),
             statistics.median(by[f"eight:{i}"]))
            for i, (book, name) in enumerate(reported["battles"])]


def child_import() -> dict[str, Any]:
    mark("import")
    import smoothbore.core  # noqa: F401

    mark("end")
    return {"labels": list(_labels), "shapely": "shapely" in sys.modules,
            "table": "smoothbore.table" in sys.modules}


# --- the parent: run the children, read the dumps -----------------------------------------
def _total(path: Path) -> int:
    with path.open() as file:
        for line in file:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    return 0


def counted(args: Sequence[str], env: dict[str, str]) -> tuple[dict[str, Any], list[int]]:
    """Run ``instructions.py --child ARGS`` under callgrind: what the child reported and the
    instructions of each part after the first marker, in the order of its labels."""
    out = Path(tempfile.mkdtemp(prefix="instr-"))
    try:
        report = out / "report.json"
        command = ["valgrind", "--tool=callgrind", f"--dump-before={MARKER}",
                   "--dump-instr=no", "--dump-line=no",
                   f"--callgrind-out-file={out}/cg.out", sys.executable, __file__, "--child",
                   str(report), *args]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not report.exists():
            raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}: "
                               f"{done.stderr.strip().splitlines()[-3:]}")
        reported = json.loads(report.read_text())
        parts = sorted((int(p.name.rsplit(".", 1)[1]), p) for p in out.glob("cg.out.*"))
        totals = [_total(p) for _, p in parts]
        # dump k (k >= 1) ends at the k-th marker: part k-1 is the one the (k-1)-th label
        # named; the last part (after the last marker) is in cg.out itself
        counts = [*totals[1:], _total(out / "cg.out")]
        return reported, counts
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    return env


def battle_counts(book: str, battle: str, steps: int, seed: int) -> dict[str, Any]:
    """A battle's figures: instructions a step (median, mean), the engine's own a step, the
    sightings calls."""
    reported, counts = counted([book, battle, str(steps), str(seed)], _env())
    labels: list[str] = reported["labels"]
    by: dict[str, list[int]] = {}
    for label, count in zip(labels, counts, strict=False):
        by.setdefault(label, []).append(count)
    empty = min(by.get("empty", [0]))
    step_totals: dict[int, int] = {}
    engine: dict[int, int] = {}
    step = -1
    for label, count in zip(labels, counts, strict=False):
        kind, _, index = label.partition(":")
        if kind == "choose" or (kind == "engine" and index):
            step = int(index)
        elif kind not in ("check", "handler", "engine"):
            step = -1  # after the steps: idle, empty, sight, end
            continue
        step_totals[step] = step_totals.get(step, 0) + count - empty
        if kind == "engine":
            engine[step] = engine.get(step, 0) + count - empty
    played = [step_totals[i] for i in sorted(step_totals)][: reported["played"]]
    own = [engine[i] for i in sorted(engine)][: reported["played"]]
    return {
        "played": reported["played"],
        "median": statistics.median(played) if played else None,
        "mean": statistics.fmean(played) if played else None,
        "engine": statistics.median(own) if own and reported["wrapped"] else None,
        "sight": {k: by[f"sight:{k}"][0] - empty for k in ("cold", "1", "8")
                  if f"sight:{k}" in by},
    }


def import_counts() -> tuple[int, bool, bool]:
    reported, counts = counted(["--import"], _env())
    by = dict(zip(reported["labels"], counts, strict=False))
    return by["import"], reported["shapely"], reported["table"]


def _k(value: float | None) -> str:
    return "-" if value is None else f"{value / 1e3:,.0f} k"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        report = Path(argv[1])
        rest = argv[2:]
        if rest == ["--import"]:
            result = child_import()
        elif rest[:1] == ["--sightings"]:
            result = child_sightings(int(rest[1]) if len(rest) > 1 else 7001)
        else:
            book, battle, steps, seed = rest
            result = child(book, battle, int(steps), int(seed))
        report.write_text(json.dumps(result))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", nargs="+", default=None)
    parser.add_argument("--battles", nargs="+", default=None,
                        help="only the table battles of these names (and their twins)")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--sightings", action="store_true",
                        help="only the sightings fixed cost, every table battle in one child")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (apt-get install valgrind)")
    from smoothbore.rulesets import available_rulesets

    if args.sightings:
        print("sightings on each embedded table battle's first table, callgrind, "
              "PYTHONHASHSEED=0 (k = 1,000 instructions): cold 1 pair | median of 5 calls "
              "of 1 pair (the fixed cost) | median of 3 calls of 8 pairs", flush=True)
        rows = sightings_counts()
        for book, name, cold, one, eight in rows:
            print(f"{book:<14} | {name:<20} | {_k(cold)} | {_k(one)} | {_k(eight)}",
                  flush=True)
        print(f"median fixed cost (1 pair): {_k(statistics.median(r[3] for r in rows))}",
              flush=True)
        return 0
    print(f"callgrind, PYTHONHASHSEED=0, seed {args.seed}, up to {args.steps} random steps a "
          "battle, units renamed; instructions (k = 1,000)", flush=True)
    print("book           | battle               | steps | instr/step median (mean) | "
          "no-table twin median (mean) | ratio | engine own/step (twin) | "
          "sightings cold 1 pair / 1 pair / 8 pairs", flush=True)
    ratios: list[float] = []
    table_steps: list[float] = []
    plain_steps: list[float] = []
    engines: list[float] = []
    fixed: list[float] = []
    for ruleset in available_rulesets():
        if args.books and ruleset.name not in args.books:
            continue
        names = [n for n, _ in ruleset.battles()]
        for name in names:
            if name.endswith("-no-table") or (args.battles and name not in args.battles):
                continue
            twin = f"{name}-no-table"
            try:
                on = battle_counts(ruleset.name, name, args.steps, args.seed)
                off = (battle_counts(ruleset.name, twin, args.steps, args.seed)
                       if twin in names else None)
            except RuntimeError as error:
                print(f"{ruleset.name:<14} | {name:<20} | failed: {error}", flush=True)
                continue
            ratio = (on["median"] / off["median"]
                     if off and on["median"] and off["median"] else None)
            if ratio is not None:
                ratios.append(ratio)
            if on["median"] is not None:
                table_steps.append(on["median"])
            if off and off["median"] is not None:
                plain_steps.append(off["median"])
            for e in (on["engine"], off["engine"] if off else None):
                if e is not None:
                    engines.append(e)
            sight = on["sight"]
            if "1" in sight:
                fixed.append(sight["1"])
            print(f"{ruleset.name:<14} | {name:<20} | {on['played']:>5} | "
                  f"{_k(on['median']):>9} ({_k(on['mean'])}) | "
                  f"{_k(off['median']) if off else '-':>9} ({_k(off['mean']) if off else '-'}) "
                  f"| {'-' if ratio is None else f'{ratio:.2f}':>5} | "
                  f"{_k(on['engine'])} ({_k(off['engine']) if off else '-'}) | "
                  f"{' / '.join(_k(sight.get(k)) for k in ('cold', '1', '8'))}", flush=True)

    def med(values: list[float]) -> str:
        return _k(statistics.median(values)) if values else "-"

    print(f"medians: table battles {med(table_steps)} a step; no-table {med(plain_steps)}; "
          f"ratio {statistics.median(ratios) if ratios else float('nan'):.2f}; engine's own "
          f"{med(engines)}; sightings fixed cost (1 pair, warm) {med(fixed)}", flush=True)
    count, shapely_loaded, table_loaded = import_counts()
    print(f"import smoothbore.core: {count / 1e6:,.1f} M instructions; loads Shapely: "
          f"{'yes' if shapely_loaded else 'no'}; loads smoothbore.table: "
          f"{'yes' if table_loaded else 'no'}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

