"""Benchmark Will's AWI: a sampled firing resolution, cold (a target new every call, so
every cache misses, as in a game; target: under 20 microseconds median) next to warm (the
same fire repeated); exact odds of the charge-to-melee sequence, a step of the Turn, and
random battles played to their end on every embedded battle (target: at least 50 a second
on one core). Medians of repeated batches.

Run: python benchmarks/bench_will_awi.py"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import attrs

from smoothbore.battle import play, random_policy
from smoothbore.core import SamplingDice, odds
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.actions import EndPhase, Fire
from smoothbore.will_awi.firing import Cover, FireFacts, resolve_fire
from smoothbore.will_awi.state import new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Nationality, TroopType, Unit

BATTLES = 50
"""Random battles played per embedded battle."""


def median_us(fn: Callable[[], object], inner: int, repeats: int) -> float:
    """Median over ``repeats`` batches of ``inner`` calls, in microseconds per call."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner * 1e6)
    return statistics.median(times)


def battles_per_second(name: str, count: int = BATTLES) -> tuple[float, float]:
    """Random-policy battles of one embedded battle played to the end: battles a second and
    steps a battle."""
    make = RULESET.battle(name)
    steps = 0
    start = time.perf_counter()
    for seed in range(count):
        played = play(TURN, make(seed), random_policy(seed))
        assert played.outcome is not None
        steps += len(played.steps)
    return count / (time.perf_counter() - start), steps / count


def main() -> None:
    firer = Unit("b", "British foot", "red", TroopType.LINE, Nationality.BRITISH, strength=4)
    target = Unit("m", "Militia", "blue", TroopType.MILITIA, militia_morale=2)
    facts = FireFacts(5.0, Cover.SOFT)
    dice = SamplingDice(2024)
    fire = median_us(lambda: resolve_fire(firer, target, facts, dice=dice), 2000, 25)
    print(f"firing resolution, sampled, warm:   {fire:8.2f} us median")
    fresh = iter([attrs.evolve(target, name=f"Militia {i}") for i in range(2000 * 26)])
    cold = median_us(lambda: resolve_fire(firer, next(fresh), facts, dice=dice), 2000, 25)
    print(f"firing resolution, sampled, COLD:   {cold:8.2f} us median (target < 20)")

    m = RULESET.mechanism("charge-to-melee")
    args = m.arguments({})
    exact = median_us(lambda: odds(m.function, **args), 1, 15)
    print(f"charge-to-melee exact odds:         {exact / 1000:8.2f} ms median")

    state = new_battle(("red", "blue"), (firer, target), seed=1)
    for _ in range(4):
        state, _ = TURN.step(state, EndPhase())
    action = Fire("m", "b", FireFacts(5.0))
    step = median_us(lambda: TURN.step(state, action), 200, 15)
    print(f"Turn.step, one Fire action:         {step:8.2f} us median")

    for name, _ in RULESET.battles():
        rate, steps = battles_per_second(name)
        print(f"random battles, {name:20s} {rate:8.1f} a second ({steps:.0f} steps each;"
              " target >= 50)")


if __name__ == "__main__":
    main()
