"""Benchmark of a whole Bloodybacks 9.3 charge (impetus, check to stand, melee, cohesion
tests) and of a charge step. What each line measures:

- one sampled charge (``resolve_charge`` with seeded ``SamplingDice`` keeping every roll),
  warm (the same charge repeated, the ruleset's caches hit) and COLD (defenders of a new
  size every call, so every cache misses, as in a game where units change; target < 50 us);
- its exact distribution (``odds(resolve_charge, ...)``: the default result, each unit
  after the charge with its fate, who won and the fall back) for 1x1, 2x2 and 3x3 units,
  COLD (every memoised rule and kept distribution cleared before each call), median of
  three, with the peak memory traced by tracemalloc (targets: 2x2 < 50 ms, 3x3 < 300 ms and
  < 100 MiB); the same charges in detail (``charge_in_detail``: every roll kept in the
  result, so many more outcomes), for comparison;
- the exact odds of the first charge offered in the embedded battle (``odds_of_step``, by
  each unit's status), COLD (caches cleared) and warm, median of three (target < 100 ms):
  the battle of the first seed from 0 whose random play offers a charge (many offer none),
  skipped with a line saying so when none of the first 50 does;
- random battles played to the end on the embedded battle (target: 50 a second).

Run: python benchmarks/bench_bloodybacks93.py

Each call is timed on its own with time.perf_counter and the median is printed. As ``timeit``
does by default, the garbage collector is off while a block of timed calls runs (and on
between blocks).
"""

from __future__ import annotations

import functools
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

import attrs

from smoothbore.battle import play, random_policy
from smoothbore.bloodybacks93 import TURN, example_battle
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.melee import charge_in_detail, resolve_charge
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Troops, Unit
from smoothbore.core import SamplingDice, odds, odds_of_step
from smoothbore.core import stages as _stages

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


def _clear_caches() -> None:
    """Forget every memoised rule and kept distribution, so the next exact call is cold."""
    import smoothbore.bloodybacks93.charges as charges_module
    import smoothbore.bloodybacks93.commanders as commanders_module
    import smoothbore.bloodybacks93.melee as melee_module
    import smoothbore.bloodybacks93.morale as morale_module
    import smoothbore.bloodybacks93.shooting as shooting_module
    import smoothbore.bloodybacks93.units as units_module
    import smoothbore.core.checks as checks_module

    _stages._kept.clear()
    for module in (checks_module, melee_module, charges_module, morale_module, units_module,
                   shooting_module, commanders_module):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if clear is not None:
                clear()


def exact_cold(size: int, rule: Callable[..., Any] = resolve_charge) -> tuple[float, float, int]:
    """Seconds, peak MiB (tracemalloc) and outcomes of the exact distribution of a
    ``size`` x ``size`` charge, every cache cleared first (median of three)."""
    import tracemalloc

    chargers = tuple(attrs.evolve(CHARGERS[0], id=f"c{i}") for i in range(size))
    defenders = tuple(attrs.evolve(DEFENDERS[0], id=f"d{i}") for i in range(size))
    times, outcomes = [], 0
    for _ in range(3):
        _clear_caches()
        gc.collect()
        start = time.perf_counter()
        outcomes = len(odds(rule, chargers, defenders, FACTS))
        times.append(time.perf_counter() - start)
    _clear_caches()
    gc.collect()
    tracemalloc.start()
    odds(rule, chargers, defenders, FACTS)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return statistics.median(times), peak, outcomes


SEEDS_FOR_A_CHARGE = range(50)
"""The battle seeds ``first_charge`` tries, in order, for a state that offers a charge."""


def charge_offered(seed: int) -> tuple[Any, Any] | None:
    """The first state of the embedded battle played with seed ``seed`` (its battle and its
    random policy) in which a charge (not deferred) is offered, with that charge; None when
    the battle ends, or no action is legal, before any charge is offered (a seed's battle
    may offer none: the embedded battle's forces often shoot it out)."""
    from smoothbore.bloodybacks93.actions import Charge

    state = example_battle(seed)
    policy = random_policy(seed)
    while not TURN.is_over(state):
        legal = TURN.legal_actions(state)
        if not legal:
            return None
        charges = [a for a in legal if isinstance(a, Charge) and not a.defer]
        if charges:
            return state, charges[0]
        state, _ = TURN.step(state, policy(state, legal))
    return None


def first_charge(seeds: range = SEEDS_FOR_A_CHARGE) -> tuple[int, Any, Any] | None:
    """The first of ``seeds`` whose battle offers a charge (``charge_offered``): the seed,
    the state and the charge; None when none of them offers one."""
    for seed in seeds:
        found = charge_offered(seed)
        if found is not None:
            return (seed, *found)
    return None


def step_odds(cold: bool, seeds: range = SEEDS_FOR_A_CHARGE
              ) -> tuple[float, int, str] | None:
    """Seconds and outcomes of the exact odds of the first charge offered in the embedded
    battle (each unit's status), caches cleared first when ``cold`` (median of three): the
    first of ``seeds`` that offers a charge (``first_charge``); None (skipped) when none
    does."""
    found = first_charge(seeds)
    if found is None:
        return None
    seed, state, charge = found

    def view(s: object) -> object:
        return tuple((u.id, u.disruption, u.stamina_losses, u.routing, u.destroyed)
                     for u in s.units)  # type: ignore[attr-defined]

    times, outcomes = [], 0
    for _ in range(3):
        if cold:
            _clear_caches()
        start = time.perf_counter()
        outcomes = len(odds_of_step(TURN, state, charge, view=view))
        times.append(time.perf_counter() - start)
    names = f"{'+'.join(charge.unit_ids)} v {'+'.join(charge.target_ids)} (seed {seed})"
    return statistics.median(times), outcomes, names


def main() -> None:
    import os

    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    first = timed_block(lambda: odds(resolve_charge, CHARGERS, DEFENDERS, FACTS), 1)[0]
    exact = statistics.median(
        timed_block(lambda: odds(resolve_charge, CHARGERS, DEFENDERS, FACTS), 50))
    sampled_median(2_000, record=True)  # warm up
    dist = odds(resolve_charge, CHARGERS, DEFENDERS, FACTS)
    print(f"charge: {CHARGERS[0]} v {DEFENDERS[0]}")
    print(f"sampled charge, warm, rolls recorded:   "
          f"{sampled_median(50_000, record=True) * 1e6:8.1f} us")
    print(f"sampled charge, warm, record=False:     "
          f"{sampled_median(50_000, record=False) * 1e6:8.1f} us")
    print(f"sampled charge, COLD (new defenders):   "
          f"{fresh_median(20_000) * 1e6:8.1f} us (target < 50 us)")
    print(f"exact 1x1, warm median of 50:           {exact * 1e3:8.2f} ms")
    print(f"exact 1x1, first call in the process:   {first * 1e3:8.2f} ms")
    for size, target in ((1, ""), (2, " (target < 50 ms)"), (3, " (target < 300 ms, 100 MiB)")):
        seconds, peak, outcomes = exact_cold(size)
        print(f"exact {size}x{size}, COLD median of 3:        {seconds * 1e3:8.1f} ms, peak "
              f"{peak:6.1f} MiB, {outcomes} outcomes{target}")
    for size in (1, 2, 3):
        seconds, peak, outcomes = exact_cold(size, charge_in_detail)
        print(f"in detail {size}x{size}, COLD median of 3:    {seconds * 1e3:8.1f} ms, peak "
              f"{peak:6.1f} MiB, {outcomes} outcomes")
    cold_step = step_odds(cold=True)
    if cold_step is None:
        print(f"odds_of_step: skipped, no battle seed of {SEEDS_FOR_A_CHARGE} offers a charge")
    else:
        seconds, outcomes, names = cold_step
        print(f"odds_of_step, charge {names}, COLD:     {seconds * 1e3:8.1f} ms, {outcomes} "
              "outcomes (target < 100 ms)")
        warm_step = step_odds(cold=False)
        assert warm_step is not None  # the same seeds, the same battles
        seconds, outcomes, names = warm_step
        print(f"odds_of_step, charge {names}, warm:     {seconds * 1e3:8.1f} ms")
    rate, steps = random_battles(200)
    print(f"random battles to the end:              {rate:8.1f} a second (target > 50), "
          f"{steps:.0f} steps a battle")
    print(f"exact outcomes: {len(dist)}; P(reach melee) = "
          f"{float(dist.probability(lambda o: o.fought)):.4f}; P(defender breaks) = "
          f"{float(dist.probability(lambda o: o.verdict().defender.value != 'holds')):.4f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
