"""Benchmarks of the core turn engine, run on demand (not in the tests):

    python benchmarks/bench_engine.py [RULESET ...] [--battles N]

RULESET is a registered name or a ``module:ATTRIBUTE`` reference (default: every registered
ruleset). All figures are medians (battles also give the mean of the cold ones), measured
in this one process on one core, with the garbage collector off while a block of calls is
timed (as ``timeit`` does). Each is given warm (the same values again and again, so every
cache keyed on them hits) next to cold (new units every iteration: each unit and commander
renamed, so every cache keyed on them misses and every hash is computed afresh).

1. Battles: a whole battle to its end (``play`` with ``random_policy``, as ``simulate``
   plays it: ``choose_action`` checks candidates only until one passes; ``--listing``: a
   uniform pick from every legal action listed instead) on each embedded battle of each
   ruleset, seeds 0..N-1: milliseconds a battle and battles a second on one core (target:
   50 a second or more; 20 on a table). Warm plays the same N
   seeds a second time; cold plays each seed first, with renamed units, before any other
   play of that seed (renaming alone is not enough: a table's footprints do not carry
   names, so a seed played before would answer from memos kept on the ground).
2. The fixed cost of a step: ``Engine.step`` against calling the action's check and handler
   directly with the step's dice, on a step that rolls nothing (the first in a random
   battle; typically ending a phase) and on one that makes exactly one roll. The difference
   is the engine's own overhead (finding the rule, asking whether the battle is over, the
   log, the dice state advanced into a new state): target 5 us or less. Two of its parts are
   timed alone: making the step's dice (``dice``), and rebuilding the handler's state with the
   next dice state as ``Engine.step`` does (``rebuild``); the ruleset's own ``is_over``, which
   the engine asks before every step, is shown beside them (part of the overhead, but the
   ruleset's cost).
4. The engine's own work a step, in instructions (``--instructions``: callgrind, run with
   ``PYTHONHASHSEED=0``; needs ``valgrind``): ``Engine.step`` on a tiny engine whose check and
   handler do nothing, against calling that check and handler directly (with the log made
   beforehand), over 500 steps: the difference a step is what the engine itself does (the
   phase's rule looked up, the end asked, the guards, the log and dice made, the dice state
   advanced into the new state). Given without the engine's declared guards and with them
   (``decided``, ``actor`` and ``stands``), and with the rulings of ``legal_rulings`` handed to
   ``step`` (the check skipped). Target (issue 29): 10 k instructions or fewer.
3. The battle state's id checks: ``BattleState(...)`` with 10, 100 and 1000 units (every id
   checked unique and every side known) and ``with_units`` replacing one unit and all of
   them; nanoseconds per unit stay flat when the cost is linear.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from smoothbore import available_rulesets
from smoothbore.battle import play, random_policy
from smoothbore.core import BattleState, DiceState, Log, Ruleset, SamplingDice
from smoothbore.simulation import resolve_ruleset


def with_dice(state: Any, dice: DiceState) -> Any:
    """How ``Engine.step`` puts the next dice state into the handler's state."""
    return state.replace(dice=dice)


def timed(function: Callable[[], object], calls: int) -> list[float]:
    """Seconds taken by each of ``calls`` calls, the collector off."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(calls):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def per_call(function: Callable[[], object], calls: int, inner: int = 200) -> float:
    """Median seconds of one call, from blocks of ``inner`` calls (for calls of a few us,
    where one perf_counter pair would weigh as much as the call)."""

    block = functools.partial(_block, function, inner)
    return statistics.median(timed(block, max(3, calls // inner))) / inner


def paired(first: Callable[[], object], second: Callable[[], object], calls: int,
           inner: int = 200) -> tuple[float, float]:
    """Median seconds of one call of each, their blocks interleaved so that both see the
    same machine load (the difference of two close figures is what matters)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(max(3, calls // inner)):
        for function, out in ((first, times[0]), (second, times[1])):
            out += timed(functools.partial(_block, function, inner), 1)
    return statistics.median(times[0]) / inner, statistics.median(times[1]) / inner


def _block(function: Callable[[], object], inner: int) -> None:
    for _ in range(inner):
        function()


def renamed(state: Any, tag: int) -> Any:
    """``state`` with new units and commanders: the same, but for a name."""
    units = [attrs.evolve(u, name=f"{u.name} #{tag}") for u in state.units]
    commanders = [attrs.evolve(c, name=f"{c.name} #{tag}") for c in state.commanders]
    return state.with_units(*units).with_commanders(*commanders)


# --- 1. battles -----------------------------------------------------------------------------
def bench_battles(ruleset: Ruleset, count: int, listing: bool = False) -> list[str]:
    turn = ruleset.turn
    assert turn is not None
    return [f"{ruleset.name:<14} {name:<20} " + bench_battle(turn, make, count, listing)
            for name, make in ruleset.battles()]


def listing_policy(seed: int) -> Callable[[Any, Any], Any]:
    """A uniform random pick from every legal action listed (``legal_actions``), as random
    play chose before ``choose_action``: a plain function, so ``play`` lists for it."""
    policy = random_policy(seed)
    return lambda state, actions: policy(state, actions)


def bench_battle(turn: Any, make: Callable[[int], Any], count: int,
                 listing: bool = False) -> str:
    starts = [make(seed) for seed in range(count)]
    cold = [renamed(state, 1_000_000 + i) for i, state in enumerate(starts)]
    steps = []
    policy = listing_policy if listing else random_policy

    def battle(start: Any, seed: int) -> None:
        steps.append(len(play(turn, start, policy(seed)).steps))

    warm_times, cold_times = [], []
    for seed in range(count):  # interleaved, so both see the same machine load
        # cold first: no battle of this seed has been played yet, so no cache keyed on
        # anything it reaches (units, footprints, tables) can answer from an earlier play;
        # only what every battle of the scenario shares (its terrain, its start) is known
        cold_times += timed(functools.partial(battle, cold[seed], seed), 1)
        battle(starts[seed], seed)  # fills the caches
        warm_times += timed(functools.partial(battle, starts[seed], seed), 1)
    warm, chilled = statistics.median(warm_times), statistics.median(cold_times)
    mean = statistics.fmean(cold_times)  # what a run of many battles takes, long ones and all
    return (f"{statistics.fmean(steps):>7.0f} {warm * 1e3:>9.2f} {1 / warm:>9.0f} "
            f"{chilled * 1e3:>9.2f} {1 / chilled:>9.0f} {mean * 1e3:>9.2f} {1 / mean:>9.0f}")


# --- 2. the fixed cost of a step ------------------------------------------------------------
def rolls(turn: Any, state: Any, action: Any) -> int:
    """How many rolls a step makes."""
    dice = SamplingDice(0)
    turn.apply(state, action, dice)
    return len(dice.records)


def sample_steps(ruleset: Ruleset) -> dict[int, tuple[Any, Any]]:
    """A step that rolls nothing and one that rolls once, from random battles."""
    turn: Any = ruleset.turn
    make = ruleset.battles()[0][1]
    found: dict[int, tuple[Any, Any]] = {}
    for seed in range(20):
        played = play(turn, make(seed), random_policy(seed))
        state = played.start
        for step in played.steps:
            n = rolls(turn, state, step.action)
            if n in (0, 1) and n not in found:
                found[n] = (state, step.action)
            state = turn.step(state, step.action)[0]
        if len(found) == 2:
            break
    return found


def bench_step(ruleset: Ruleset, calls: int) -> list[str]:
    return [f"{ruleset.name:<14} {type(action).__name__:<20} {n:>5} "
            + bench_one_step(ruleset.turn, state, action, calls)
            for n, (state, action) in sorted(sample_steps(ruleset).items())]


def bench_one_step(turn: Any, state: Any, action: Any, calls: int) -> str:
    rule = turn.check(state, action)
    colds = [renamed(state, 2_000_000 + i) for i in range(64)]
    cycle = itertools.cycle(colds)

    def direct(on: Any) -> None:
        rule.check(on, action)
        rule.handler(on, action, Log(on.dice.dice()))

    figures = []
    for step_f, direct_f in (
        (lambda: turn.step(state, action), lambda: direct(state)),
        (lambda: turn.step(next(cycle), action), lambda: direct(next(cycle))),
    ):
        whole, alone = paired(step_f, direct_f, calls)
        figures += [whole, alone, whole - alone]
    dice = per_call(state.dice.dice, calls)
    advanced = state.dice.advanced()
    rebuild = per_call(lambda: with_dice(state, advanced), calls)
    over = per_call(lambda: turn.is_over(state), calls)
    return " ".join(f"{t * 1e6:>8.1f}" for t in figures) + "".join(
        f" {t * 1e6:>7.2f}" for t in (dice, rebuild, over))


# --- 3. the state's id checks ---------------------------------------------------------------
@attrs.frozen
class Soldier:
    id: str
    name: str
    side: str
    strength: int = 3


def soldiers(n: int, tag: int) -> tuple[Soldier, ...]:
    return tuple(Soldier(f"u{i}", f"Unit {i} #{tag}", ("a", "b")[i % 2]) for i in range(n))


def make_state(units: tuple[Soldier, ...]) -> BattleState[Soldier, Soldier, None, None]:
    return BattleState("bench", ("a", "b"), units, (), None, None, DiceState(0))


def bench_state(calls: int) -> list[str]:
    return [f"{n:>6} " + bench_state_size(n, max(100, calls * 10 // n)) for n in (10, 100, 1000)]


def bench_state_size(n: int, calls: int) -> str:
    inner = max(1, 2000 // n)
    fresh = [soldiers(n, i) for i in range(inner * 4)]
    cycle = itertools.cycle(fresh)
    state = make_state(fresh[0])
    one = attrs.evolve(fresh[0][n // 2], strength=1)
    everyone = tuple(attrs.evolve(u, strength=1) for u in fresh[0])
    figures = [
        per_call(lambda: make_state(fresh[0]), calls, inner),
        per_call(lambda: make_state(next(cycle)), calls, inner),
        per_call(lambda: state.with_units(one), calls, inner),
        per_call(lambda: state.with_units(*everyone), calls, inner),
    ]
    return " ".join(f"{t * 1e6:>10.1f} {t * 1e9 / n:>7.0f}" for t in figures)


# --- 4. the engine's own work, in instructions ----------------------------------------------
@attrs.frozen
class _Unit:
    id: str
    name: str
    side: str


@attrs.frozen
class _Act:
    unit: str


@attrs.frozen
class _Nothing:
    pass


def _no_check(state: Any, action: Any) -> None:
    return None


def _no_handler(state: Any, action: Any, log: Log) -> Any:
    """A new state, as a handler's is (the engine carries its dice onto a state that only
    the step holds; a handler returning the state it was given makes the engine copy it)."""
    return state.replace(phase=state.phase)


def _tiny(guards: bool) -> tuple[Any, Any, Any]:
    """A tiny engine (one phase, one action type, a check and a handler that do nothing),
    a state of 20 units and an action."""
    from smoothbore.core import ActionRule, Engine, Outcome, Phase

    extra: dict[str, Any] = {}
    if guards:
        extra = {"decided": _never, "actor": _actor, "stands": _always}
    engine = Engine(
        name="tiny", phases=(Phase("p", "r", "a phase"),),
        actions=(ActionRule(_Act, ("p",), _one_act, _no_check, _no_handler),),
        who_acts=_red, over=_never_over, result=_no_outcome,
        types=(_Unit, _Unit, _Nothing, _Nothing), rule="r", **extra)
    units = tuple(_Unit(f"u{i}", f"unit {i}", "red" if i % 2 else "blue") for i in range(20))
    state = BattleState("tiny", ("red", "blue"), units, (), _Nothing(), _Nothing(),
                        DiceState(1), phase="p")
    del Outcome
    return engine, state, _Act("u1")


def _never(state: Any) -> None:
    return None


def _never_over(state: Any) -> bool:
    return False


def _always(unit: Any) -> bool:
    return True


def _actor(action: Any) -> str:
    return str(action.unit)


def _red(state: Any) -> str:
    return "red"


def _one_act(state: Any) -> tuple[_Act, ...]:
    return (_Act("u1"),)


def _no_outcome(state: Any) -> Any:
    raise AssertionError("never over")


def _engine_child(calls: int) -> None:
    """Under callgrind: the parts, each between two ``os.getppid`` markers."""
    import os

    for guards in (False, True):
        engine, state, action = _tiny(guards)
        rule = engine._table[("p", _Act)]
        rulings = engine.legal_rulings(state)
        logs = [Log(state.dice.dice()) for _ in range(calls)]
        engine.step(state, action)  # the state's memo warmed, as the choice of a step does
        gc.disable()
        os.getppid()
        for _ in range(calls):
            engine.step(state, action)
        os.getppid()
        for log in logs:
            rule.check(state, action)
            rule.handler(state, action, log)
        os.getppid()
        chosen = rulings.actions[0]  # the very action kept, as ``play`` passes it
        for _ in range(calls):
            engine.step(state, chosen, rulings)
        os.getppid()
        for log in logs:
            rule.handler(state, action, log)
        os.getppid()
        gc.enable()


def bench_engine_instructions(calls: int = 500) -> list[str]:
    """The engine's own instructions a step, by callgrind (see 4. above)."""
    import os
    import re
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    if shutil.which("valgrind") is None:
        return ["valgrind not found: install it (apt-get install valgrind)"]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cg.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=os_getppid",
             f"--callgrind-out-file={out}", sys.executable, __file__, "--engine-child",
             str(calls)],
            check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        dumps = sorted(Path(folder).glob("cg.out.*"), key=lambda p: int(p.name.split(".")[-1]))
        totals = []
        for dump in dumps:
            text = dump.read_text()
            found = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
            totals.append(int(found.group(1)) if found else 0)
    # dumps: [before the first marker, then the four parts, the marker after each], twice
    parts = totals[1:]
    lines = []
    for index, label in enumerate(("no guards", "with guards")):
        step, direct, ruled, handler = parts[index * 5: index * 5 + 4]
        lines.append(f"{label:<12} {(step - direct) / calls:>10,.0f} "
                     f"{(ruled - handler) / calls:>16,.0f}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--engine-child":
        _engine_child(int(argv[1]))
        return
    if argv and argv[0] == "--instructions":
        print("4. The engine's own work a step, instructions (callgrind, PYTHONHASHSEED=0; "
              "target <= 10 k)")
        print(f"{'engine':<12} {'step':>10} {'step (rulings)':>16}")
        for line in bench_engine_instructions():
            print(line, flush=True)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", help="names or module:ATTRIBUTE references")
    parser.add_argument("--battles", type=int, default=50, help="battles per embedded battle")
    parser.add_argument("--calls", type=int, default=20_000, help="calls per step timing")
    parser.add_argument("--listing", action="store_true",
                        help="battles: random play from every legal action listed, not "
                             "choose_action (which checks candidates only until one passes)")
    args = parser.parse_args(argv)
    rulesets = ([resolve_ruleset(r) for r in args.rulesets] if args.rulesets
                else [r for r in available_rulesets() if r.turn is not None])
    print("1. Battles to the end with random legal actions, one core (target >= 50/s)")
    print(f"{'ruleset':<14} {'battle':<20} {'actions':>7} {'warm ms':>9} {'warm /s':>9} "
          f"{'cold ms':>9} {'cold /s':>9} {'cold mean':>9} {'mean /s':>9}")
    for ruleset in rulesets:
        for line in bench_battles(ruleset, args.battles, args.listing):
            print(line, flush=True)
    print("\n2. The fixed cost of a step, us (engine overhead = step - check and handler; "
          "target <= 5)")
    print(f"{'ruleset':<14} {'action':<20} {'rolls':>5} {'step':>8} {'direct':>8} "
          f"{'overhead':>8} {'cold stp':>8} {'direct':>8} {'overhead':>8} {'dice':>7} "
          f"{'rebuild':>7} {'is_over':>7}")
    for ruleset in rulesets:
        for line in bench_step(ruleset, args.calls):
            print(line, flush=True)
    print("\n3. BattleState with n units: us, and ns per unit (flat: linear)")
    print(f"{'units':>6} {'new (same units)':>18} {'new (new units)':>18} "
          f"{'with_units(one)':>18} {'with_units(all)':>18}")
    for line in bench_state(args.calls):
        print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
