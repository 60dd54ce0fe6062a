"""Bolt Action ACW benchmarks (on demand): a ten-shot shooting attack sampled with cold
caches (new units every iteration), and random battles to the end per second on each
embedded battle; medians. Targets (issue 8): under 30 us; at least 50 battles a second."""

from __future__ import annotations

import statistics
import time

from smoothbore.battle import RandomPolicy, play
from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.shooting import ShotFacts, shoot
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Unit
from smoothbore.core import SamplingDice


def shooting_attack(samples: int = 5_000) -> float:
    """Median microseconds of one ten-shot attack (5 bases in line), new units each time so
    that no cache keyed on a unit helps."""
    dice = SamplingDice(1)
    times = []
    for i in range(samples):
        firer = Unit(f"f{i}", "Firers", UNION, bases=5)
        target = Unit(f"t{i}", "Target", CONFEDERATE, pins=i % 3)
        start = time.perf_counter()
        shoot(firer, target, ShotFacts(12), dice=dice)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def battles(name: str = "default", count: int = 40) -> float:
    """Median random battles to the end per second on one embedded battle."""
    make = RULESET.battle(name)
    times = []
    for seed in range(count):
        start = time.perf_counter()
        play(TURN, make(seed), RandomPolicy(seed), max_steps=5_000)
        times.append(time.perf_counter() - start)
    return 1 / statistics.median(times)


if __name__ == "__main__":
    print(f"ten-shot shooting attack: {shooting_attack():.1f} us median")
    for battle, _ in RULESET.battles():
        print(f"random battles ({battle}): {battles(battle):.1f} a second (median)")
