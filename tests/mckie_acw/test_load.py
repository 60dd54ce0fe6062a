"""Issue 28, "Load held at 500 units a side": the battle of ``benchmarks/load_mckie_acw.py`` is
a legal battle on a table, and the candidates of a big battle ask the table of the pairs that
can matter only, with the answers of the full walk (bounded walks, counted: speed itself is
the benchmark's business, never a clock here)."""

from __future__ import annotations

import functools
import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import numpy as np
import pytest
import shapely

from smoothbore.core import BattleState, IllegalActionError
from smoothbore.mckie_acw import TURN, Commander, Extra, Options, Unit, positions
from smoothbore.mckie_acw import steps_firing as firing
from smoothbore.mckie_acw import steps_movement as movement
from smoothbore.mckie_acw.actions import AttachHelpers, EndPhase, Fire, Move, MoveGeneral
from smoothbore.mckie_acw.phases import FIRING, MOVEMENT, ORDER
from smoothbore.mckie_acw.positions import footprints_key
from smoothbore.mckie_acw.situations import beyond_reach
from smoothbore.mckie_acw.state import State, check_battle, with_extra
from smoothbore.mckie_acw.table_moves import (
    enemies_of,
    measure_moves,
    near_enemies,
    not_surely_advancing,
    placed,
    proposed_at,
    table_of,
)
from smoothbore.mckie_acw.units import Arm, Rank
from smoothbore.table import Footprint, Table
from smoothbore.table.paths import short_of_units

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load_mckie_acw.py"


@functools.cache
def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_mckie_acw", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def big(units_a_side: int, seed: int = 0) -> State:
    battle: State = _load().big_battle(units_a_side, seed)
    return battle


def fresh(state: State) -> State:
    """The state on a copy of its table with nothing worked out or kept for it."""
    return with_extra(state, table=attrs.evolve(table_of(state)))  # a new line: new stores


def test_the_load_battle_is_a_legal_battle_on_a_table_at_its_movement_step() -> None:
    """``big_battle``: N units a side of the three arms under divisional, corps and army
    commanders, on a table, at the first period's movement step; it passes the whole-battle
    check and round-trips through the loader; a new seed names new units."""
    module = _load()
    assert module.RULESET == "mckie_acw"
    state = big(40, 3)
    check_battle(state)
    assert state.extra.table is not None and state.phase == MOVEMENT and state.turn == 1
    for side in state.sides:
        units = state.units_of(side)
        assert len(units) == 40
        assert Counter(u.arm for u in units) == {Arm.FOOT: 27, Arm.ARTILLERY: 7, Arm.CAVALRY: 6}
    assert Counter(c.rank for c in state.commanders) == {
        Rank.CINC: 2, Rank.CORPS: 6, Rank.DIVISION: 14}
    assert len(table_of(state).footprints) == 80
    back = BattleState.from_json(state.to_json(), Unit, Commander, Extra, Options,
                                 ruleset="mckie_acw", phases=ORDER)
    assert back == state
    assert not {u.id for u in big(40, 4).units} & {u.id for u in state.units}
    assert len(TURN.legal_actions(state)) > 100


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the outline pairs ``shapely.distance`` measures (each element of its arrays)."""
    measured = [0]
    original = shapely.distance

    def distance(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        measured[0] += int(np.broadcast(np.asarray(a, dtype=object),
                                        np.asarray(b, dtype=object)).size)
        return original(a, b, *args, **kwargs)

    monkeypatch.setattr(shapely, "distance", distance)
    return measured


def test_helpers_are_offered_within_a_move_measuring_only_the_pairs_near_enough(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """M11 (Formation and strength of units: helpers): the helpers offered are exactly the
    pairs ``helpers_reach`` passes, battery after battery; only the pairs whose bounds come
    within the donor's move are measured, not every battery and donor (the reporter's 900
    units a side that never finished)."""
    state = fresh(big(120, 1))
    acting = state.extra.acting
    batteries = [u for u in state.units if u.side == acting and u.arm is Arm.ARTILLERY]
    donors = [u for u in state.derived(movement.free_units).values()
              if u.arm is not Arm.ARTILLERY and u.figures > 1]
    expected = [AttachHelpers(b.id, d.id, 1) for b in batteries for d in donors
                if movement.helpers_reach(state, d, b)]
    measured = _counting(monkeypatch)
    offered = list(movement.candidates_attach_helpers(state))
    assert offered == expected and len(offered) > 50
    assert measured[0] <= 2 * len(offered) and measured[0] < len(batteries) * len(donors) // 4


def test_rides_are_offered_within_a_ride_only() -> None:
    """Movement (generals ride 600 mm, M38): on a table every ride offered is legal, and
    every legal ride is offered: the units beyond 600 mm of a general are not offered to
    him (all of them were)."""
    state = big(120, 2)
    table = table_of(state)
    acting = state.extra.acting
    offered = movement.candidates_move_general(state)
    generals = [g for g in state.commanders if g.side == acting]
    units = [u for u in state.units if u.side == acting]
    legal = set()
    for g in generals:
        for unit in units:
            ride = MoveGeneral(g.id, unit.id)
            try:
                movement.check_move_general(state, ride)
            except IllegalActionError:
                continue
            legal.add(ride)
    alone = {MoveGeneral(g.id, "") for g in generals if g.attached_to}
    assert set(offered) == legal | alone and len(offered) == len(set(offered))
    assert len(offered) < len(generals) * len(units) // 4
    assert all(table.ride(r.commander, r.attach_to) <= 600 for r in offered if r.attach_to)


def _firing_state() -> State:
    state = big(120, 5)
    while state.phase != FIRING:
        state = TURN.step(state, EndPhase())[0]
    return state


def test_volleys_are_offered_to_the_targets_not_surely_beyond_reach(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Firing procedure 1 (the weapon's reach): the volleys offered on a table are those of
    the full walk (each firer at each enemy not surely beyond its reach, in order), and the
    exact test is asked of the enemies an array over them all leaves, not of every pair."""
    state = fresh(_firing_state())
    able = state.derived(firing.firers)
    enemies = [u.id for u in state.units if u.side != state.extra.acting and u.on_table]
    expected = [Fire(f.id, t, firing.FireFacts(figures=0)) for f in state.units
                if f.id in able for t in enemies
                if not beyond_reach(state, f.id, t, state.options.tables.weapon(f.weapon).reach)]
    asked = [0]
    original = firing.beyond_reach

    def counted(*args: Any) -> bool:
        asked[0] += 1
        return original(*args)

    monkeypatch.setattr(firing, "beyond_reach", counted)
    offered = list(firing.candidates_fire(state))
    assert offered == expected and len(offered) > 20
    assert asked[0] <= 2 * len(offered) < len(able) * len(enemies) // 10


def test_a_unit_measured_alone_asks_the_gaps_of_its_own_outline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move to a destination not offered is measured alone (``measure_moves``): the gaps
    from its own outline to the others, not between every two units of the table."""
    state = fresh(big(120, 6))
    unit = next(iter(state.derived(movement.free_units).values()))
    fp = table_of(state).footprint(unit.id)
    measured = _counting(monkeypatch)
    measure_moves(state, ((unit, (fp.x + 3.0, fp.y + 7.0, fp.facing), movement.Manoeuvre.NONE,
                           False),))
    n = len(table_of(state).footprints)
    assert 0 < measured[0] <= 2 * n < n * n // 10


def test_the_enemies_near_a_unit_answer_as_all_of_them() -> None:
    """Movement (M34, the moves offered): the enemies that may be nearest to a unit's moves
    are a few of them, and the moves offered and those a unit that may not advance keeps are
    the same as asked of every enemy on the table."""
    state = big(120, 7)
    table = table_of(state)
    tables = state.options.tables
    fewer = 0
    for unit in state.derived(movement.free_units).values():
        fp = table.footprint(unit.id)
        everyone, near = enemies_of(state, unit.id), near_enemies(state, unit)
        assert set(near) <= set(everyone)
        fewer += len(near) < len(everyone) // 4
        moves, wants = proposed_at(unit, tables, fp, near)
        assert (moves, wants) == proposed_at(unit, tables, fp, everyone)
        assert not_surely_advancing(fp, moves, near) == not_surely_advancing(fp, moves,
                                                                             everyone)
    assert fewer > 60


def test_a_compulsory_move_asks_only_the_units_near_its_way() -> None:
    """Battle period 1, a rout or retreat ends on no unit (M35): ``short_of_units`` asked of
    the footprints near the way (``near_the_way``) gives what the whole table gives, and
    those are a few of the table's."""
    state = big(120, 8)
    table = table_of(state)
    rng = np.random.default_rng(8)
    asked = stopped = 0
    for fp in table.footprints[::9]:
        heading = float(rng.uniform(0.0, 360.0))
        (dx, dy), _ = movement.bearing_vectors(heading)
        length = float(rng.uniform(20.0, 300.0))
        end = movement.fit_on(table, fp.moved_to(fp.x + dx * length, fp.y + dy * length,
                                                 heading))
        near = movement.near_the_way(table, fp, end)
        assert short_of_units(near, fp, end) == short_of_units(table, fp, end)
        assert len(near.footprints) < len(table.footprints) // 10
        asked += 1
        stopped += short_of_units(table, fp, end)[1] != ""
    assert asked > 20 and stopped > 5


def _offers_counts(table: Table) -> tuple[int, int]:
    (counts,) = [c for c in table.stores() if c.name == movement.OFFERS_STORE]
    return counts.hits, counts.misses


def test_a_move_carries_the_offers_it_cannot_change_in_the_store() -> None:
    """After a move, the new table's store holds the moves offered to most units already
    (``carry_offers``: those of the mover's side away from it), written once under its
    footprints; after a formation change (a footprint re-laid) the offers are found unit by
    unit in the store; both offer what a table with nothing kept offers."""
    state = big(120, 9)
    table = table_of(state)
    before = list(movement.candidates_move(state))
    hits, misses = _offers_counts(table)
    assert hits == 0 and misses > 100  # a new battle: every unit's offers worked out
    mover = next(m for m in before if m.to is not None and m.manoeuvre.value == "none"
                 and _legal(state, m))
    relay = next(m for m in before if m.to is None and m.formation is not None
                 and _legal(state, m))
    after, _ = TURN.step(state, mover)
    new = table_of(after)
    carried = new.store(movement.OFFERS_STORE).get(("carried", new.derived(footprints_key)))
    assert carried is not None and len(carried) > 60  # of 120 a side
    assert list(movement.candidates_move(after)) == list(movement.candidates_move(
        fresh(after)))
    after, _ = TURN.step(state, relay)
    was = _offers_counts(table_of(after))
    offered = list(movement.candidates_move(after))
    now = _offers_counts(table_of(after))
    found, worked = now[0] - was[0], now[1] - was[1]
    assert found > 100 and worked < found // 4
    assert offered == list(movement.candidates_move(fresh(after)))


def test_the_offers_kept_read_the_enemies_and_the_ground_under_manoeuvres() -> None:
    """A unit's offers are worked out again after a move of an enemy that may be its
    nearest (its enemies decide which of its moves advance), and after a friend's move onto
    the ground its manoeuvres in place cover; the offers are those of a fresh table."""
    state = big(30, 10)
    table = table_of(state)
    offered = list(movement.candidates_move(state))
    assert offered
    enemy = next(f for f in table.footprints if f.side != state.extra.acting)
    moved = placed(state, enemy.unit_id, enemy.moved_to(enemy.x + 1.0, enemy.y))
    there = table_of(moved).footprint(enemy.unit_id)
    near = {u.id for u in moved.derived(movement.free_units).values()
            if not u.resting and there in near_enemies(moved, u)}
    was = _offers_counts(table_of(moved))
    assert list(movement.candidates_move(moved)) == list(movement.candidates_move(fresh(moved)))
    assert _offers_counts(table_of(moved))[1] - was[1] >= len(near) > 0
    friend = next(f for f in table.footprints if f.side == state.extra.acting)
    shifted = placed(state, friend.unit_id, friend.moved_to(friend.x + 0.5, friend.y))
    assert list(movement.candidates_move(shifted)) == list(movement.candidates_move(
        fresh(shifted)))


def _legal(state: State, action: Move) -> bool:
    try:
        TURN.check(state, action)
    except IllegalActionError:
        return False
    return True


def test_footprint_boxes_are_the_footprints_bounds() -> None:
    table: Table = table_of(big(12, 11))
    boxes = positions.footprint_boxes(table)
    assert boxes.shape == (24, 4)
    assert [tuple(row) for row in boxes.tolist()] == [f.bounds for f in table.footprints]
    assert isinstance(table.footprints[0], Footprint)
