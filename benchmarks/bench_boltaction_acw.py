"""Bolt Action ACW benchmarks (on demand): a ten-shot shooting attack sampled with cold
caches (new units every iteration), and random battles to the end per second on each
embedded battle; medians; and the default charge's exact odds in a fresh process, cold.
Targets (issue 8): under 30 us; at least 50 battles a second; (issue 28) the default
``odds boltaction_acw charge`` under one second, and at 500 units a side
(``load_boltaction_acw.py``, beside this file) the first ``legal_actions`` under 0.5 s and a
random step under 50 ms."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

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


def charge_odds() -> float:
    """Seconds of CPU a fresh process spends on the default charge's exact odds (no cache
    warmed by an earlier call)."""
    script = ("import time\n"
              "from smoothbore.boltaction_acw import RULESET\n"
              "from smoothbore.core import odds\n"
              "m = RULESET.mechanism('charge')\n"
              "start = time.process_time()\n"
              "odds(m.function, **m.defaults())\n"
              "print(time.process_time() - start)\n")
    done = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                          text=True, timeout=600)
    return float(done.stdout)


def load(units_a_side: int = 500) -> dict[str, float]:
    """``benchmarks/load.py``'s measure of ``load_boltaction_acw`` at this many units a side:
    build, legal actions, the first ``legal_actions`` and the median and max of 20 random
    steps, in seconds."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import load_boltaction_acw
    from load import measure

    figures: dict[str, float] = measure(load_boltaction_acw, units_a_side, seed=1000, steps=20,
                                        sightings=False)
    return figures


if __name__ == "__main__":
    m = load()
    print(f"500 units a side: first legal_actions {m['first']:.3f} s ({int(m['legal'])} "
          f"actions), random step median {m['median'] * 1e3:.1f} ms, max "
          f"{m['max'] * 1e3:.1f} ms")
    print(f"default charge odds: {charge_odds():.2f} s of CPU (cold, fresh process)")
    print(f"ten-shot shooting attack: {shooting_attack():.1f} us median")
    for battle, _ in RULESET.battles():
        print(f"random battles ({battle}): {battles(battle):.1f} a second (median)")
