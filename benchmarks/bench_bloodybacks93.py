"""Benchmark of a whole Bloodybacks 9.3 charge (impetus, check to stand, melee, cohesion
tests): one sampled charge, and its exact distribution composed stage by stage.

Run: python benchmarks/bench_bloodybacks93.py

Timings are medians over many repetitions with time.perf_counter; the garbage collector is
paused while a block of sampled charges runs, as ``timeit`` does.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.melee import charge_distribution, clear_caches, resolve_charge
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Troops, Unit
from smoothbore.core import SamplingDice

CHARGERS = (Unit("c", "Grenadiers", BRITISH, quality=4, density=5, size=20),)
DEFENDERS = (Unit("d", "Continentals", AMERICAN, quality=3, density=6, size=20,
                  troops=Troops.CONTINENTAL),)
FACTS = ChargeFacts()


def median_seconds(
    function: Callable[[], object], repetitions: int, setup: Callable[[], object] = lambda: None
) -> float:
    """Median wall time of ``function()`` over ``repetitions`` calls, ``setup()`` untimed
    before each."""
    times = []
    for _ in range(repetitions):
        setup()
        gc.collect()
        gc.disable()  # as timeit does
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
        gc.enable()
    return statistics.median(times)


def sampled_medians(repetitions: int, per_dice: int = 1_000) -> float:
    """Median time of one sampled charge. A SamplingDice keeps a record of every roll, so a
    fresh one (seeded, outside the timing) serves each block of ``per_dice`` charges, as one
    would per battle; otherwise millions of records pile up and the timing measures them."""
    times = []
    for block in range(repetitions // per_dice):
        dice = SamplingDice(block)
        gc.collect()
        gc.disable()  # as timeit does
        for _ in range(per_dice):
            start = time.perf_counter()
            resolve_charge(CHARGERS, DEFENDERS, FACTS, dice=dice)
            times.append(time.perf_counter() - start)
        gc.enable()
    return statistics.median(times)


def main() -> None:
    dice = SamplingDice(20260101)

    def exact() -> None:
        charge_distribution(CHARGERS, DEFENDERS, FACTS)

    sampled_medians(2_000)  # warm up
    melees = 0
    for _ in range(2_000):
        melees += resolve_charge(CHARGERS, DEFENDERS, FACTS, dice=dice).fought
    print(f"charge: {CHARGERS[0]} v {DEFENDERS[0]} ({melees / 20:.0f}% reach melee)")
    print(f"sampled charge, median: {sampled_medians(50_000) * 1e6:8.1f} us "
          "(target < 50 us)")
    print(f"exact distribution (all caches cleared), median: "
          f"{median_seconds(exact, 40, clear_caches) * 1e3:8.2f} ms (target < 20 ms)")
    print(f"exact distribution (stage caches warm), median: "
          f"{median_seconds(exact, 200, charge_distribution.cache_clear) * 1e3:8.2f} ms")
    dist = charge_distribution(CHARGERS, DEFENDERS, FACTS)
    print(f"exact outcomes: {len(dist)}; P(defender breaks) = "
          f"{float(dist.probability(lambda o: o.verdict().defender.value != 'holds')):.4f}")


if __name__ == "__main__":
    main()
