"""Answers carried from table to table through the table's stores (issue 29, item 2:
``Table.store("boltaction_acw: ...")``, each answer kept under a key made of everything it
reads): every answer a table's stores give is the one worked out afresh on a table that
knows nothing, on the states of random battles (a key missing something its answer reads
would hand over a stale answer and fail), and answers do carry over to the next table."""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import pytest

from smoothbore.boltaction_acw import state as state_module
from smoothbore.boltaction_acw.movement import Pace
from smoothbore.boltaction_acw.scenarios import brawners_farm, mcphersons_ridge
from smoothbore.boltaction_acw.situations import (
    _towards_nearest,
    beyond,
    feature_shapes,
    in_arc_doubt,
    move_situation,
    near,
    offered_moves,
    reach_of,
    shot_situation,
)
from smoothbore.boltaction_acw.state import State, situation
from smoothbore.boltaction_acw.steps_charges import candidates_charge
from smoothbore.boltaction_acw.steps_orders import (
    candidates_advance,
    candidates_fire,
    candidates_run,
)
from smoothbore.core import Deferred
from smoothbore.table import Footprint, Table
from smoothbore.table.boxes import gap_over

from .battle import expanded, random_states


def _fresh(state: State) -> State:
    """The same state on the same table with nothing derived nor stored."""
    table = state.extra.table
    assert table is not None
    return state.with_extra(table=attrs.evolve(table))


def _counts(table: Table) -> dict[str, tuple[int, int]]:
    return {c.name: (c.hits, c.misses) for c in table.stores()}


def _ask_all(state: State) -> list[object]:
    """Everything the candidates and checks of a state ask of its table: each ready unit's
    offered moves judged, its shots, charges, ranges and arcs, and its way to the nearest
    enemy."""
    table = state.extra.table
    assert table is not None
    known = situation(state)
    out: list[object] = []
    for unit in known.ready.values():
        if unit.id not in table.units:
            continue
        for pace in (Pace.ADVANCE, Pace.RUN):
            for move in offered_moves(state, unit.id, pace):
                found = move_situation(state, unit.id, pace, move)
                out.append((found.problem, found.cost, found.end, found.path, found.through,
                            found.terrain))
        enemies = [e for e in known.enemies.get(unit.side, ()) if e in table.units]
        out.append(sorted(near(table, unit.id, 24.0)))
        out.append(in_arc_doubt(table, unit.id, enemies))
        out.append(_towards_nearest(table, unit.id))
        for enemy in enemies[:4]:
            out.append(shot_situation(state, unit.id, enemy))
            out.append(reach_of(table, unit.id, enemy))
    out.append(feature_shapes(table))
    return out


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_what_the_stores_give_is_what_a_fresh_table_works_out(make: object) -> None:
    hits = 0
    for seed in range(2):
        for state in random_states(make(seed), seed, 60):  # type: ignore[operator]
            before = _counts(state.extra.table)
            kept = _ask_all(state)
            after = _counts(state.extra.table)
            hits += sum(after[n][0] - before.get(n, (0, 0))[0] for n in after)
            assert kept == _ask_all(_fresh(state))
    assert hits > 500


def _bounds(candidates: Iterable[object]) -> list[int | None]:
    return [item.bound if isinstance(item, Deferred) else None for item in candidates]


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_the_candidates_kept_are_those_made_afresh(make: object) -> None:
    """The targets, advances, runs and charges the candidates keep in the table's store
    (``candidates_kept``) are those made on a table that knows nothing, in the same order."""
    rules = (candidates_fire, candidates_advance, candidates_run, candidates_charge)
    for seed in range(2):
        for state in random_states(make(seed), seed, 60):  # type: ignore[operator]
            fresh = _fresh(state)
            assert [expanded(f(state)) for f in rules] == [expanded(f(fresh)) for f in rules]
            assert [_bounds(f(state)) for f in rules] == [_bounds(f(fresh)) for f in rules]


def test_a_move_carries_the_answers_it_cannot_change_to_the_next_table() -> None:
    # "u" at (10, 10) facing north; enemy "a" 10" north of it, enemy "b" 30" east.
    u = Footprint("u", 10.0, 10.0, bases=1, side="blue")
    a = Footprint("a", 10.0, 20.0, facing=180.0, bases=1, side="red")
    b = Footprint("b", 40.0, 10.0, bases=1, side="red")
    old = Table(60, 60, footprints=(u, a, b))
    assert in_arc_doubt(old, "u", ["a", "b"]) == ["a"]  # b is off u's 45-degree arc
    store = old.store("boltaction_acw: arc")
    assert (store.hits, store.misses) == (0, 2)
    far = old.placed(b.moved_to(25.0, 40.0))  # b moves into doubt: a's arc is carried
    assert in_arc_doubt(far, "u", ["a", "b"]) == ["a", "b"]
    assert (store.hits, store.misses) == (1, 3)
    assert near(old, "u", 12.0) == frozenset({"a"})
    assert near(far.placed(b.moved_to(20.0, 10.0)), "u", 12.0) == frozenset({"a", "b"})


def test_the_nearest_enemy_is_worked_out_again_when_an_enemy_moves() -> None:
    u = Footprint("u", 10.0, 10.0, bases=1, side="blue")
    a = Footprint("a", 10.0, 20.0, bases=1, side="red")
    b = Footprint("b", 40.0, 10.0, bases=1, side="red")
    old = Table(60, 60, footprints=(u, a, b))
    radius = (0.5 ** 2 + 0.5 ** 2) ** 0.5  # a 1" base: its half diagonal
    room, heading = _towards_nearest(old, "u")  # type: ignore[misc]
    assert (round(room, 9), heading) == (round(10.0 - 2 * radius - 1.5, 9), 0.0)
    closer = old.placed(b.moved_to(15.0, 10.0))
    room, heading = _towards_nearest(closer, "u")  # type: ignore[misc]
    assert (round(room, 9), heading) == (round(5.0 - 2 * radius - 1.5, 9), 90.0)
    assert _towards_nearest(old, "u") == _towards_nearest(attrs.evolve(old), "u")


def test_box_tests_never_rule_out_what_might_be_near() -> None:
    # 3" apart across: over 2.9, not over 3; 3" and 4" apart on the two axes: a 5" gap
    assert gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 0.5, 5.0, 2.0), 2.9)
    assert not gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 0.5, 5.0, 2.0), 3.0)
    assert gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 5.0, 5.0, 6.0), 4.99)
    assert not gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 5.0, 5.0, 6.0), 5.0)
    table = Table(60, 60, footprints=(Footprint("u", 10.0, 10.0, bases=1, side="blue"),
                                      Footprint("a", 10.0, 16.0, bases=1, side="red")))
    assert beyond(table, "u", "a", 4.9) and not beyond(table, "u", "a", 5.0)


def test_no_answers_are_kept_for_the_whole_process() -> None:
    # issue 29: the one store is the table's; the state's answers are the state's own
    assert not hasattr(state_module, "_KEPT") and not hasattr(state_module, "of_units")


def test_a_step_on_a_table_finds_answers_the_step_before_worked_out() -> None:
    last = list(random_states(brawners_farm(3), 3, 40))[-1]
    counts = {c.name: c for c in last.extra.table.stores()}
    assert {"boltaction_acw: moves", "boltaction_acw: sight", "boltaction_acw: arc"} <= set(
        counts)
    assert counts["boltaction_acw: moves"].hits > 0
    assert all(c.answers <= c.most for c in counts.values())
