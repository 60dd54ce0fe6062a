"""Benchmarks of smoothbore.table, run on demand (not in the tests):

    python benchmarks/bench_table.py [--calls N]

All figures are medians over N calls (default 60), in this one process on one core, with the
garbage collector off while a call is timed. Every call is cold: it gets new footprints
(new unit ids, made just before the clock starts, so nothing keyed on them can answer),
builds a new Table from them (timed: its arrays and spatial tree are part of the answer),
then asks. The terrain
of a battle does not change, so its index (spatial trees, unions) is built once for a line of
tables: every call's table is made ``on_same_ground`` of one bare table of the layout (there
is no process-wide index since issue 29); the "terrain cold" rows build the features and a
new line every call.

1. All shooting situations: ``sightings`` for every unit against every enemy (range, arc,
   whole-base arc, line of fire, blockers, whole-base visibility, woods along the line,
   faces, levels, cover), 20 units a side (800 ordered pairs), on three layouts:
   ``lines`` (two lines a side, 12" to 30" apart, among woods, a hill, a farm, fences and a
   stream), ``scattered`` (random places and facings over the same terrain) and
   ``woods-wall`` (facing lines with dense woods and a hill straight between them: every
   line of fire crosses terrain). Target: under 20 ms.
2. One pair: ``sighting`` of one firer and one target on the ``lines`` table.
3. Charges: ``charges`` for every unit against every enemy (800 pairs).
4. Moves: ``reachable`` for one unit (6 headings) and one ``route`` through terrain.
5. ``--scaling 50 100 200 400 800`` (only that is run): ``sightings`` on a big battle of N
   units a side (``big``: lines of units facing each other 12" apart across a table sized to
   hold them, woods and hills between), for the pairs within 24" of each other (centre to
   centre: what a book asks when it shoots) and, up to ``--all-pairs-up-to`` units a side,
   for every enemy pair; one call each on a table built before the clock starts, seconds and
   microseconds a pair. Near-linear in the pairs asked: the microseconds a pair stay flat.
6. ``--many N`` (only that is run): issue 29's batched forms beside the calls they batch,
   in one process (compare the ratios): ``furthest`` for every unit of two dense lines of N
   units a side (heading 0 and 180, a clearance of 1": units blocked by friends ahead and
   behind, as Will's AWI's movement phase at 500 a side) one call a way against one
   ``furthest_many`` for all of them (the answers asserted equal), and ``short_of_units``
   (a rout ending on a unit, tried back 0.1 a time) against the plain walk it equals.
8. ``--visible N`` (only that is run): ``visible_enemies`` (what ``rout`` asks) from 20
   units of a big battle of N units a side, against ``_visible_enemies_plain`` (every line
   asked everything), the answers asserted equal; milliseconds a call, CPU, one process.
7. ``--shares [BOOK ...]`` (only that is run): where a default table battle's time goes,
   by cProfile's own CPU time over 60 random steps (seed 7001) after a warm-up battle: the
   table's Python by module, GEOS (Shapely's C), numpy, the book's and core's Python. The
   measure behind issue 29's item 5 (is a compiled kernel for sight and reach worth it?).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from smoothbore.table import (
    CrossingCost,
    Feature,
    Footprint,
    RateTable,
    Table,
    TerrainKind,
    charges,
    enemy_pairs,
    reachable,
    route,
    sighting,
    sightings,
)

WIDTH, DEPTH = 72.0, 48.0


def terrain(tag: str = "") -> tuple[Feature, ...]:
    """A table's terrain: two woods, a hill, a farm, two fences and a stream."""
    return (
        Feature(f"wood-a{tag}", "dense woods",
                outline=((8, 20), (16, 18), (19, 24), (14, 29), (7, 27))),
        Feature(f"wood-b{tag}", "light woods",
                outline=((50, 22), (58, 21), (60, 27), (53, 29))),
        Feature(f"hill{tag}", "gentle hill",
                outline=((28, 20), (38, 19), (42, 24), (36, 28), (27, 26))),
        Feature.rectangle(f"farm{tag}", "building", 45, 25, 3, 2, facing=15, strength=8),
        Feature(f"fence-a{tag}", "fence", line=((20, 16), (34, 16.5))),
        Feature(f"fence-b{tag}", "wall", line=((40, 31), (52, 32))),
        Feature(f"stream{tag}", "stream", line=((0, 35), (30, 33), (72, 37)), width=1.5),
    )


WALL = (
    Feature.rectangle("wood", "dense woods", 36, 22, 30, 4),
    Feature.rectangle("hill", "gentle hill", 50, 27, 12, 6),
)


def lines(tag: int) -> list[Footprint]:
    """Two lines a side: the front lines 12" apart, second lines 6" behind them."""
    units = []
    for k in range(10):
        x = 6 + k * 6.6
        units.append(Footprint(f"r{k}-{tag}", x, 14, 0, 2, 2, 1, side="red"))
        units.append(Footprint(f"rr{k}-{tag}", x + 3, 8, 0, 2, 2, 1, side="red"))
        units.append(Footprint(f"b{k}-{tag}", x + 1, 36, 180, 2, 2, 1, side="blue"))
        units.append(Footprint(f"bb{k}-{tag}", x + 4, 42, 180, 2, 2, 1, side="blue"))
    return units


def scattered(tag: int) -> list[Footprint]:
    """20 units a side at random places and facings (seeded), none overlapping."""
    rng = np.random.default_rng(7)
    placed: list[Footprint] = []
    while len(placed) < 40:
        side = "red" if len(placed) % 2 else "blue"
        x, y = rng.uniform(4, WIDTH - 4), rng.uniform(4, DEPTH - 4)
        fp = Footprint(f"u{len(placed)}-{tag}", float(x), float(y),
                       float(rng.uniform(0, 360)), int(rng.integers(1, 4)), 2, 1, side=side)
        if all(not fp.outline.intersects(o.outline) for o in placed):
            placed.append(fp)
    return placed


def woods_wall(tag: int) -> list[Footprint]:
    """20 a side in single lines 24" apart, dense woods and a hill between them."""
    units = []
    for k in range(20):
        units.append(Footprint(f"r{k}-{tag}", 3 + k * 3.4, 12, 0, 2, 1.5, 1, side="red"))
        units.append(Footprint(f"b{k}-{tag}", 3 + k * 3.4, 36, 180, 2, 1.5, 1, side="blue"))
    return units


def big(units_a_side: int, tag: str = "") -> Table:
    """A big battle's table: ``units_a_side`` units a side (2 bases of 2" x 1") in lines
    3" apart across, 2" apart back, about four times as wide as deep; the front lines 12"
    apart, a patch of woods or a hill every 12 units between them."""
    rows = max(1, round(units_a_side ** 0.5 / 4))
    slots = -(-units_a_side // rows)
    margin, gap = 6.0, 12.0
    width = 2 * margin + 3.0 * slots
    depth = 2 * (margin + 2.0 * rows) + gap
    near = margin + 2.0 * rows - 1.0
    far = near + gap
    units = []
    for side, y0, step, facing in (("red", near, -2.0, 0.0), ("blue", far, 2.0, 180.0)):
        for i in range(units_a_side):
            row, slot = divmod(i, slots)
            units.append(Footprint(f"{side[0]}{i}{tag}", margin + 1.5 + 3.0 * slot,
                                   y0 + step * row, facing, 2, 1.0, 1.0, side=side))
    middle = (near + far) / 2
    features = tuple(
        Feature.rectangle(f"patch{k}{tag}", "light woods" if k % 2 else "gentle hill",
                          margin + 3.0 * (12 * k + 6), middle, 12.0, 4.0)
        for k in range(max(1, slots // 12)))
    return Table(width, depth, features=features, footprints=units)


def in_range(table: Table, reach: float) -> list[tuple[str, str]]:
    """The (unit, enemy) pairs whose centres are within ``reach``."""
    fps = table.footprints
    xy = np.array([(f.x, f.y) for f in fps])
    sides = np.array([f.side for f in fps])
    ids = [f.unit_id for f in fps]
    found = []
    for i, f in enumerate(fps):
        near = (np.hypot(*(xy - xy[i]).T) <= reach) & (sides != f.side)
        found += [(f.unit_id, ids[j]) for j in near.nonzero()[0].tolist()]
    return found


def scaling(sizes: list[int], all_up_to: int) -> None:
    print("5. sightings on a big battle (one call, table built first; seconds, us a pair)")
    print("   units a side | pairs within 24\" |      s | us/pair | all enemy pairs |      s "
          "| us/pair")
    for n in sizes:
        table = build = big(n, f"-{n}")
        assert build.layout is not None and build.layout.tree is not None
        near = in_range(table, 24.0)
        gc.collect()
        start = time.perf_counter()
        sightings(table, near)
        near_s = time.perf_counter() - start
        line = (f"   {n:>13} | {len(near):>17} | {near_s:6.2f} | "
                f"{near_s / max(len(near), 1) * 1e6:7.1f}")
        if n <= all_up_to:
            every = enemy_pairs(table)
            gc.collect()
            start = time.perf_counter()
            sightings(table, every)
            all_s = time.perf_counter() - start
            line += (f" | {len(every):>15} | {all_s:6.2f} | "
                     f"{all_s / len(every) * 1e6:7.1f}")
        print(line, flush=True)


def median_ms(ask: Callable[[Any], object], calls: int,
              inputs: Callable[[int], Any] = lambda tag: tag) -> float:
    """The median milliseconds of ``ask(inputs(i))``, each call with fresh inputs made
    before the clock starts."""
    times = []
    counter = itertools.count(1_000_000)
    ask(inputs(next(counter)))  # imports and first-use costs
    gc.collect()
    gc.disable()
    try:
        for _ in range(calls):
            given = inputs(next(counter))
            start = time.perf_counter()
            ask(given)
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return statistics.median(times) * 1e3


def dense_lines(units_a_side: int) -> Table:
    """Two lines a side of 3" units 3.5" apart (friends 0.5" off each flank, the second
    line 3.5" behind), the sides' front lines 8" apart."""
    per_line = (units_a_side + 1) // 2
    fps = []
    for side, y0, facing, step in (("red", 10.0, 0.0, -3.5), ("blue", 10.0 + 8 + 3.5, 180.0,
                                                                  3.5)):
        for i in range(units_a_side):
            row, col = divmod(i, per_line)
            fps.append(Footprint(f"{side}{i}", 5 + col * 3.5, y0 + row * step + 3.5,
                                 facing, 2, 1.5, 1, side=side))
    return Table(10 + per_line * 3.5, 40, footprints=fps)


def many(units_a_side: int) -> None:
    """Item 6 of the docstring."""
    from smoothbore.table import Way, furthest, furthest_many
    from smoothbore.table.paths import _short_of_units_stepped, short_of_units

    table = dense_lines(units_a_side)
    rates = RateTable(rule="bench")
    ways = [Way(f.unit_id, h, 6.0, rates, 6.0, clearance=1.0)
            for f in table.footprints for h in (0.0, 180.0)]
    assert table.layout.tree is not None and table.terrain is not None
    start = time.process_time()
    one_by_one = [furthest(table, w.unit_id, w.heading, w.budget, w.rates,
                           full_move=w.full_move, clearance=w.clearance) for w in ways]
    single = time.process_time() - start
    start = time.process_time()
    batched = furthest_many(table, ways)
    together = time.process_time() - start
    assert tuple(one_by_one) == batched
    stopped = sum(d.stopped_by not in ("allowance", "table edge") for d in batched)
    print(f"furthest, {len(ways)} ways ({stopped} stopped by a unit), CPU: one by one "
          f"{single:.3f} s, furthest_many {together:.3f} s ({single / together:.1f}x)")
    start_fp = table.footprint("red0")
    end = start_fp.moved_to(start_fp.x, start_fp.y - 3.0, 180.0)  # onto the line behind
    for name, walk in (("short_of_units", short_of_units),
                       ("the plain walk", _short_of_units_stepped)):
        begin = time.process_time()
        for _ in range(5):
            found = walk(table, start_fp, end)
        print(f"{name}: {(time.process_time() - begin) / 5 * 1e3:.2f} ms CPU a call "
              f"(stopped short of {found[1]!r})")


def shares(books: list[str]) -> None:
    """Item 7 of the docstring."""
    import collections
    import cProfile
    import pstats

    from smoothbore.battle import random_policy
    from smoothbore.rulesets import get_ruleset

    def play(book: str, seed: int, steps: int) -> None:
        ruleset = get_ruleset(book)
        turn = ruleset.turn
        assert turn is not None
        state = ruleset.battle("default")(seed)
        policy = random_policy(seed)
        for _ in range(steps):
            action = policy.choose_action(turn, state)
            if action is None:
                break
            state, _ = turn.step(state, action)

    for book in books:
        profile = cProfile.Profile(time.process_time)  # CPU time: the load does not count
        try:
            play(book, 1, 60)  # imports and first uses out of the count
            profile.enable()
            play(book, 7001, 60)
        except Exception as error:  # a book under construction: say so, go on
            print(f"{book}: not measured ({type(error).__name__}: {error})")
            continue
        finally:
            profile.disable()
        groups: collections.Counter[str] = collections.Counter()
        modules: collections.Counter[str] = collections.Counter()
        total = 0.0
        for (path, _, name), (_, _, own, _, _) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
            total += own
            if "shapely" in path or "shapely" in name:
                group = "GEOS (Shapely)"
            elif "numpy" in path or "numpy" in name or "ufunc" in name or "ndarray" in name:
                group = "numpy"
            elif "smoothbore/table/" in path:
                group = "table Python"
                modules[path.rsplit("/", 1)[1]] += own
            elif f"smoothbore/{book}/" in path:
                group = "book Python"
            elif "smoothbore/core/" in path:
                group = "core Python"
            else:
                group = "other (stdlib, attrs, builtins, other packages)"
            groups[group] += own
        print(f"{book}: {total:.2f} s profiled")
        for group, own in groups.most_common():
            print(f"   {group:<48} {100 * own / total:5.1f} %")
        print("   table modules: " + ", ".join(f"{m} {100 * t / total:.1f} %"
                                               for m, t in modules.most_common(6)))
        geometry = sum(t for m, t in modules.items() if m in _GEOMETRY)
        kernel = geometry + groups["GEOS (Shapely)"] + groups["numpy"]
        print(f"   what a geometry kernel could replace (the table's geometry modules, GEOS, "
              f"numpy): {100 * kernel / total:.1f} %; the table's bookkeeping "
              f"{100 * (groups['table Python'] - geometry) / total:.1f} %")


_GEOMETRY = frozenset({"sight.py", "layout.py", "paths.py", "contact.py", "cover.py",
                       "regions.py", "batch.py", "near.py", "boxes.py", "terrain.py"})
"""The table's modules that measure (the rest keep the table: tabletop, seam, store,
footprints, deployment, svg)."""


def visible(units_a_side: int) -> None:
    """Item 8 of the docstring."""
    from smoothbore.table import visible_enemies
    from smoothbore.table.sight import _visible_enemies_plain

    table = big(units_a_side)
    chosen = table.unit_ids[::max(1, len(table.unit_ids) // 20)]
    assert [visible_enemies(table, u) for u in chosen] == [
        _visible_enemies_plain(table, u) for u in chosen]
    for _ in range(3):
        for name, ask in (("visible_enemies", visible_enemies),
                          ("every line asked everything", _visible_enemies_plain)):
            start = time.process_time()
            for u in chosen:
                ask(table, u)
            ms = (time.process_time() - start) / len(chosen) * 1e3
            print(f"   {name:<28} {ms:7.2f} ms a call ({units_a_side} a side)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--scaling", nargs="*", type=int, default=None)
    parser.add_argument("--all-pairs-up-to", type=int, default=200)
    parser.add_argument("--many", type=int, default=None)
    parser.add_argument("--shares", nargs="*", default=None)
    parser.add_argument("--visible", type=int, default=None)
    args = parser.parse_args()
    calls = args.calls
    if args.visible is not None:
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        visible(args.visible)
        return
    if args.many is not None:
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        many(args.many)
        return
    if args.shares is not None:
        shares(args.shares or ["bloodybacks93", "will_awi", "mckie_acw", "boltaction_acw"])
        return
    if args.scaling is not None:
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        scaling(args.scaling or [50, 100, 200, 400, 800], args.all_pairs_up_to)
        return
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    fixed = terrain()
    layouts = {"lines": (lines, fixed), "scattered": (scattered, fixed),
               "woods-wall": (woods_wall, WALL)}
    print("1. all shooting situations, 20 units a side, cold (median ms; target < 20)")
    for name, (units, features) in layouts.items():
        bare = Table(WIDTH, DEPTH, features=features)
        sample = sightings(bare.on_same_ground(units(0)))
        in_play = sum(s.in_arc and s.line_clear for s in sample)
        ms = median_ms(lambda given, b=bare: sightings(  # type: ignore[misc]
            b.on_same_ground(given)), calls, units)
        print(f"   {name:<11} {len(sample)} pairs ({in_play} in arc with a clear line): "
              f"{ms:6.2f} ms")
    ms = median_ms(lambda given: sightings(Table(
        WIDTH, DEPTH, features=given[0], footprints=given[1])), calls,
        lambda tag: (terrain(f"-{tag}"), lines(tag)))
    print(f"   lines, terrain cold too: {ms:6.2f} ms")

    print("2. one pair, cold")
    ground = Table(WIDTH, DEPTH, features=fixed)
    ms = median_ms(lambda given: sighting(ground.on_same_ground(given[1]), f"r4-{given[0]}",
        f"b4-{given[0]}"), calls, lambda tag: (tag, lines(tag)))
    print(f"   sighting: {ms:6.3f} ms (table and its arrays built: the same call on a built "
          f"table is below)")
    table = Table(WIDTH, DEPTH, features=fixed, footprints=lines(1))
    assert table.layout is not None  # built before the clock starts
    ms = median_ms(lambda _: sighting(table, "r4-1", "b4-1"), calls)
    print(f"   sighting on a built table: {ms:6.3f} ms")

    print("3. all charges (800 pairs), cold")
    ms = median_ms(lambda given: charges(ground.on_same_ground(given), None, 6.0), calls,
                   lines)
    print(f"   charges: {ms:6.2f} ms")

    print("4. moves, cold")
    rates = RateTable(
        speeds={TerrainKind.DENSE_WOODS: Fraction(1, 3), TerrainKind.LIGHT_WOODS:
                Fraction(2, 3), TerrainKind.GENTLE_HILL: Fraction(2, 3)},
        passages={TerrainKind.FENCE: CrossingCost(share=Fraction(1, 2)),
                  TerrainKind.WALL: CrossingCost(share=Fraction(1, 2)),
                  TerrainKind.STREAM: CrossingCost(share=Fraction(1, 2))})
    ms = median_ms(lambda given: reachable(
        ground.on_same_ground(given[1]), f"r3-{given[0]}", 12.0, rates,
        full_move=6.0), calls, lambda tag: (tag, lines(tag)))
    print(f"   reachable (6 headings): {ms:6.2f} ms")
    ms = median_ms(lambda given: route(
        ground.on_same_ground(given[1]), f"r3-{given[0]}", (28, 22),
        (30, 30)), calls, lambda tag: (tag, lines(tag)))
    print(f"   route (2 legs, through a fence and a hill): {ms:6.3f} ms")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
