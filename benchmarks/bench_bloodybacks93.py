"""Benchmark of a whole Bloodybacks 9.3 charge (impetus, check to stand, melee, cohesion
tests): one sampled charge, and its exact distribution composed stage by stage; then random
battles played to the end on the embedded battle (target: 50 a second on one core).

Run: python benchmarks/bench_bloodybacks93.py

Each call is timed on its own with time.perf_counter and the median is printed. As ``timeit``
does by default, the garbage collector is off while a block of timed calls runs (and on
between blocks). The ruleset memoises a few pure rules on their frozen arguments and the core
keeps each distinct check's exact distribution, so repeating one charge runs with warm caches:
the benchmark also times charges whose defenders are new every call (every ruleset cache
misses), and reports the first exact call in the process apart from the median of the others.
"""

from __future__ import annotations

import functools
import gc
import statistics
import time
from collections.abc import Callable

import attrs

from smoothbore.battle import play, random_policy
from smoothbore.bloodybacks93 import TURN, example_battle
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.melee import resolve_charge
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Troops, Unit
from smoothbore.core import SamplingDice, odds

CHARGERS = (Unit("c", "Grenadiers", BRITISH, quality=4, density=5, size=20,
                 troops=Troops.REGULAR),)
DEFENDERS = (Unit("d", "Continentals", AMERICAN, quality=3, density=6, size=20,
                  troops=Troops.CONTINENTAL),)
FACTS = ChargeFacts()


def timed_block(function: Callable[[], object], calls: int) -> list[float]:
    """Seconds taken by each of ``calls`` calls of ``function``, the collector off."""
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


def sampled_median(charges: int, *, record: bool, per_dice: int = 1_000) -> float:
    """Median time of one sampled charge. A fresh seeded SamplingDice (made outside the
    timing) serves each block of ``per_dice`` charges, as one would per battle; with
    ``record`` it keeps every roll with its faces, reason and rule, as in play."""
    times: list[float] = []
    for block in range(charges // per_dice):
        charge = functools.partial(resolve_charge, CHARGERS, DEFENDERS, FACTS,
                                   dice=SamplingDice(block, record=record))
        times += timed_block(charge, per_dice)
    return statistics.median(times)


def fresh_median(charges: int) -> float:
    """Median time of one sampled charge against defenders not met before (their size is
    new each call), so the ruleset's caches miss as in a game where units change."""
    dice = SamplingDice(7)
    times: list[float] = []
    for block in range(charges // 1_000):
        defenders = [(attrs.evolve(DEFENDERS[0], size=10_000 * (block + 1) + i),)
                     for i in range(1_000)]
        pending = iter(defenders)

        def charge() -> object:
            return resolve_charge(CHARGERS, next(pending), FACTS, dice=dice)  # noqa: B023

        times += timed_block(charge, 1_000)
    return statistics.median(times)


def random_battles(battles: int) -> tuple[float, float]:
    """Random battles from the embedded one, played to their end: battles a second and steps
    a battle (every step lists the legal actions and applies one)."""
    steps = 0
    start = time.perf_counter()
    for seed in range(battles):
        played = play(TURN, example_battle(seed), random_policy(seed), max_steps=5_000)
        assert TURN.is_over(played.end)
        steps += len(played.steps)
    elapsed = time.perf_counter() - start
    return battles / elapsed, steps / battles


def main() -> None:
    first = timed_block(lambda: odds(resolve_charge, CHARGERS, DEFENDERS, FACTS), 1)[0]
    exact = statistics.median(
        timed_block(lambda: odds(resolve_charge, CHARGERS, DEFENDERS, FACTS), 50))
    sampled_median(2_000, record=True)  # warm up
    dist = odds(resolve_charge, CHARGERS, DEFENDERS, FACTS)
    print(f"charge: {CHARGERS[0]} v {DEFENDERS[0]}")
    print(f"sampled charge, rolls recorded, median: "
          f"{sampled_median(50_000, record=True) * 1e6:8.1f} us (target < 50 us)")
    print(f"sampled charge, record=False, median:   "
          f"{sampled_median(50_000, record=False) * 1e6:8.1f} us")
    print(f"sampled charge, new defenders, median:  "
          f"{fresh_median(20_000) * 1e6:8.1f} us")
    print(f"exact distribution, median of 50:       {exact * 1e3:8.2f} ms (target < 20 ms)")
    print(f"exact distribution, first call:         {first * 1e3:8.2f} ms")
    rate, steps = random_battles(200)
    print(f"random battles to the end:              {rate:8.1f} a second (target > 50), "
          f"{steps:.0f} steps a battle")
    print(f"exact outcomes: {len(dist)}; P(reach melee) = "
          f"{float(dist.probability(lambda o: o.fought)):.4f}; P(defender breaks) = "
          f"{float(dist.probability(lambda o: o.verdict().defender.value != 'holds')):.4f}")


if __name__ == "__main__":
    main()
