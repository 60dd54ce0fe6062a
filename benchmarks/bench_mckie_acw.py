"""Benchmark McKie ACW: a sampled firing resolution with new units every iteration (target:
under 20 microseconds median), and random battles played to their end on every embedded battle
(target: at least 50 a second on one core), and the battle of ``load_mckie_acw`` at 200 units a
side (issue 28: its first legal actions and 20 random steps; the full table at 100 to 1,000
units a side is ``load_mckie_acw.py``'s own run).

Run: python benchmarks/bench_mckie_acw.py"""

from __future__ import annotations

import statistics
import time

from smoothbore.battle import play, random_policy
from smoothbore.core import SamplingDice
from smoothbore.mckie_acw import RULESET, TURN
from smoothbore.mckie_acw.firing import FireFacts, casualties, figures_lost, fire_total
from smoothbore.mckie_acw.units import Arm, Formation, Unit, Weapon

BATTLES = 50


def fire_once(dice: SamplingDice, i: int) -> int:
    """One firing resolution with units made afresh (cold caches)."""
    firer = Unit(f"f{i}", "Rifles", "A", Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE, figures=16)
    target = Unit(f"t{i}", "Column", "B", Arm.FOOT, Weapon.SMOOTHBORE_MUSKET,
                  formation=Formation.COLUMN)
    factor = fire_total(firer, target, FireFacts(range=40), moved=False, target_moved=True)
    return figures_lost(casualties(factor, 8), dice=dice)


def main() -> None:
    dice = SamplingDice(2024, record=False)
    times = []
    for repeat in range(25):
        start = time.perf_counter()
        for i in range(2000):
            fire_once(dice, repeat * 2000 + i)
        times.append((time.perf_counter() - start) / 2000 * 1e6)
    print(f"firing resolution, sampled:   {statistics.median(times):8.2f} us median (target < 20)")
    for name, make in RULESET.battles():
        rates = []
        for block in range(3):
            start = time.perf_counter()
            for seed in range(block * BATTLES, (block + 1) * BATTLES):
                assert play(TURN, make(seed), random_policy(seed)).outcome is not None
            rates.append(BATTLES / (time.perf_counter() - start))
        print(f"random battles ({name}):  {statistics.median(rates):8.1f} a second (target >= 50)")
    import load_mckie_acw  # beside this file
    from load import measure

    load = measure(load_mckie_acw, 200, seed=7, steps=20, sightings=False)
    print(f"200 units a side: first legal_actions {load['first']:6.3f} s ({int(load['legal'])} "
          f"actions), random step median {load['median'] * 1e3:5.1f} ms, max "
          f"{load['max'] * 1e3:5.1f} ms (targets at 500: 0.5 s, 50 ms)")


if __name__ == "__main__":
    main()
