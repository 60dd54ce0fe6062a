"""Issue 28, "Load held at 500 units a side": what the candidates of a large battle leave out
or work out at once is what the plain, one-at-a-time reading gives (``legal_actions`` and
``step`` are unchanged; ``benchmarks/load_boltaction_acw.py`` gives the speed)."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from smoothbore.boltaction_acw import TURN, situations
from smoothbore.boltaction_acw.actions import MoveCommander, RideTo
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.scenarios import brawners_farm, mcphersons_ridge
from smoothbore.boltaction_acw.state import State, situation
from smoothbore.boltaction_acw.steps_orders import (
    candidates_move_commander,
    candidates_ride_to,
    nearest_others,
)
from smoothbore.boltaction_acw.units import Rank
from smoothbore.boltaction_acw.validity import MAX_REACH
from smoothbore.core import Deferred, IllegalActionError
from smoothbore.table import Table, charges, distance, short_of_units

from .battle import random_states

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load_boltaction_acw.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_boltaction_acw", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_load_benchmarks_battle_is_a_whole_legal_battle() -> None:
    """``benchmarks/load_boltaction_acw.py`` (issue 28) builds a battle the whole-battle
    check passes (loaded back from its data, it is the same battle), with the book's
    brigades (a commander each), independent batteries and an army commander a side, in the
    orders phase of a brigade; ``legal_actions`` lists what ``step`` accepts."""
    state = _load().big_battle(30, 4)
    assert TURN.load(state.to_json()) == state  # BattleState.from_data and its check
    assert state.phase == ORDERS and state.extra.group.startswith("brigade:")
    assert len(state.units) == 60
    ranks = [c.rank for c in state.commanders]
    assert ranks.count(Rank.ARMY) == 2
    assert ranks.count(Rank.BRIGADE) == len({u.brigade for u in state.units if u.brigade})
    assert {u.kind.value for u in state.units} == {"infantry", "artillery", "skirmishers",
                                                   "cavalry"}
    legal = TURN.legal_actions(state)
    assert len(legal) > 50
    for action in legal[::7]:
        TURN.step(state, action)


def _commanders_offered(state: State) -> list[str]:
    out = []
    for rule in (candidates_move_commander, candidates_ride_to):
        for item in rule(state):
            assert isinstance(item, Deferred)
            out += [a.commander_id for a in item.actions()]
    return out


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_only_the_active_brigades_commander_and_the_army_commander_are_offered_rides(
        make: object) -> None:
    """A brigade commander moves with his own brigade's die (A14; Movement): the rides of the
    others are not offered, and every one of them the check is asked about is refused, so
    the legal actions are those of offering them all (a large army's brigade commanders
    each measured every ride before)."""
    assert callable(make)
    refused = offered = 0
    for state in random_states(make(3), 3, 150):
        side = situation(state).side
        if state.phase != ORDERS or side is None:
            continue
        group = state.extra.group
        riders = set(_commanders_offered(state))
        offered += len(riders)
        for leader in state.commanders:
            if leader.side != side or leader.id in state.extra.commanders_moved:
                continue
            own = leader.rank is Rank.ARMY or group == "brigade:" + leader.brigade
            if own:
                continue
            assert leader.id not in riders
            table = state.extra.table
            assert table is not None
            x, y = table.commander_point(leader.id)
            asked = [RideTo(leader.id, min(x + 1.0, table.width), y)] + [
                MoveCommander(leader.id, u.id) for u in state.units
                if u.side == side and u.brigade == leader.brigade and u.in_the_fight
                and u.id != leader.with_unit]
            for action in asked:
                with pytest.raises(IllegalActionError, match="own brigade's die"):
                    TURN.check(state, action)
                refused += 1
    assert refused > 20
    assert offered > 20


def _plain_nearest(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The nearest other point of each, one at a time (the loop ``nearest_others`` keeps)."""
    out = []
    for i, (ux, uy) in enumerate(points):
        others = points[:i] + points[i + 1:]
        out.append(min(others, key=lambda c: math.hypot(c[0] - ux, c[1] - uy)))
    return out


def test_the_nearest_other_point_is_the_plain_loops_ties_and_repeats_alike() -> None:
    """The halfway points a commander is offered (A14) need each unit's nearest other: on a
    grid (every point has two to four others at the same distance: the first in order is
    taken), with points repeated, and at random over more points than one block of rows,
    the answer is the plain loop's, point for point."""
    grid = [(11.0 * i + 5.5, 6.0 * j + 3.0) for j in range(7) for i in range(9)]
    repeated = [(1.0, 1.0), (4.0, 5.0), (1.0, 1.0), (7.0, 1.0), (4.0, 5.0)]
    rng = random.Random(28)
    scattered = [(rng.uniform(0, 800), rng.uniform(0, 120)) for _ in range(700)]
    rounded = [(round(x), round(y)) for x, y in scattered[:400]]  # many exact ties
    column = [(5.0, 3.0 * (j % 150)) for j in range(300)]  # one x, every point twice
    clusters = [(400.0 * (k % 3) + rng.gauss(0, 2), rng.gauss(0, 2)) for k in range(300)]
    for points in (grid, repeated, scattered, [(float(x), float(y)) for x, y in rounded],
                   [(0.0, 0.0), (3.0, 4.0)], column, clusters):
        assert nearest_others(points) == _plain_nearest(points)
    assert nearest_others([(2.0, 2.0)]) == []
    square = [(5.0 * i, 5.0 * j) for j in range(3) for i in range(3)]
    # the middle point has four others 5 away: the first of them in order, below it
    assert nearest_others(square)[4] == (5.0, 0.0)
    assert nearest_others(square)[0] == (5.0, 0.0)  # right and above tie: right is first


def test_a_compulsory_move_asks_only_the_units_near_its_way_and_stops_where_it_did() -> None:
    """Where a rout or a retreat stops short of a unit (``short_of_units``, T21) is asked of
    a table holding only the units whose box meets the box its way sweeps: in a battle of 60
    units a side, for runs of 6" to 24" from every unit straight back through its own lines,
    the answer is that of the whole table, and the table asked holds a few units, not 119."""
    state = _load().big_battle(60, 2)
    table: Table = state.extra.table
    asked: list[int] = []

    def counted(small: Table, start: Any, end: Any) -> Any:
        asked.append(len(small.footprints))
        return short_of_units(small, start, end)

    stopped = 0
    for f in table.footprints[::3]:
        for run in (6.0, 12.0, 24.0):
            end = f.advanced(run, 180.0)
            if not table.holds(end):
                continue
            whole = short_of_units(table, f, end)
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(situations, "short_of_units", counted)
                assert situations._short_of_units(table, f, end) == whole
            stopped += bool(whole[1])
    assert stopped > 10
    assert len(asked) > 40
    assert max(asked) < 20


def test_a_charge_measures_the_enemies_within_the_longest_charge_and_any_asked() -> None:
    """A charge asked of the table (``reach_of``) is measured with every enemy of the
    charger that might stand within the longest charge (36", A37), not every enemy of the
    army; an enemy further off is measured when asked, with the answer of the pair alone."""
    state = _load().big_battle(60, 2)
    table: Table = state.extra.table
    charger = table.footprints[70]  # a regiment in the second Union line
    enemies = table.enemies_of(charger.unit_id)
    assert len(enemies) == 60
    nearest = min(enemies, key=lambda e: math.dist(charger.centre, table.units[e].centre))
    store = table.store("boltaction_acw: charge")
    situations.reach_of(table, charger.unit_id, nearest)
    asked = store.counts().answers  # the pairs measured with the one asked
    assert 5 < asked < 30
    within = [t for t in enemies if distance(table, charger.unit_id, t) <= MAX_REACH]
    assert nearest in within and len(within) <= asked
    for target in within:  # measured with the first: found in the store
        misses = store.misses
        assert situations.reach_of(table, charger.unit_id, target) == charges(
            table, [(charger.unit_id, target)], table.diagonal)[0]
        assert store.misses == misses
    furthest = max(enemies, key=lambda e: math.dist(charger.centre, table.units[e].centre))
    alone = charges(table, [(charger.unit_id, furthest)], table.diagonal)[0]
    assert situations.reach_of(table, charger.unit_id, furthest) == alone
    assert store.counts().answers == asked + 1  # measured when asked, alone


def test_the_army_commanders_rides_to_points_are_worked_out_once_a_table() -> None:
    """Random play draws the army commander's rides to points (A14) in state after state on
    one table: they are worked out once for the table (``ride_points``), and the rides
    offered are those worked out afresh."""
    from smoothbore.boltaction_acw import steps_orders

    state = _load().big_battle(30, 1)
    army = next(c for c in state.commanders
                if c.rank is Rank.ARMY and c.side == situation(state).side)
    calls: list[str] = []
    plain = steps_orders.ride_points

    def counted(table: Table, commander_id: str, command: tuple[str, ...]) -> Any:
        calls.append(commander_id)
        return plain(table, commander_id, command)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(steps_orders, "ride_points", counted)
        first = [g.actions() for g in candidates_ride_to(state)]
        again = [g.actions() for g in candidates_ride_to(state)]
    assert calls.count(army.id) == 1
    assert first == again
    table = state.extra.table
    command = tuple(a.unit_id for a in steps_orders._joins(state, army, army.side)) + ((
        army.with_unit,) if army.with_unit else ())
    fresh = {(a.x, a.y) for group in first for a in group if a.commander_id == army.id}
    assert fresh == set(plain(table, army.id, command))
    assert len(fresh) > 10


def test_the_groups_a_die_may_go_to_are_found_in_one_walk_through_the_army() -> None:
    """The drawn die goes to a group of its side still to act (The Turn, 1): with 300
    independent units a side, listing and checking every ``Activate`` walks the army once,
    not once a group, and the groups offered are those still to act."""
    from smoothbore.boltaction_acw import state as state_module
    from smoothbore.boltaction_acw.actions import Activate, DrawDie
    from smoothbore.boltaction_acw.state import group_of, groups_to_activate, may_activate

    load = _load()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(load, "BLOCK", tuple(("independent", kind) for _, kind in load.BLOCK))
        patch.setattr(load, "to_orders", lambda state: state)
        start = load.big_battle(300, 6)
    state = TURN.step(start, DrawDie())[0]
    side = state.extra.drawn
    walked: list[str] = []

    def counted(unit: Any) -> str:
        walked.append(unit.id)
        return group_of(unit)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state_module, "group_of", counted)
        legal = TURN.legal_actions(state)
    assert len(legal) == 300
    assert len(walked) <= 600  # every unit of both sides once
    assert legal == tuple(Activate(u.id) for u in state.units if u.side == side)
    assert groups_to_activate(state, side) == tuple(a.group for a in legal)
    assert may_activate(state, side, legal[0].group)
    assert not may_activate(state, side, "brigade:nobody")
    other = next(u.id for u in state.units if u.side != side)
    assert not may_activate(state, side, other)
    with pytest.raises(IllegalActionError):
        TURN.check(state, Activate(other))


def test_a_large_armys_rides_find_the_commanders_marks_in_an_index() -> None:
    """Every join and ride to a point of the army commander (A14) is checked in
    ``legal_actions``: where he stands is read from an index of the marks made once a
    table, not found by a walk through every commander's mark for each ride (the table's
    ``commander`` and ``commander_point``); the rides are those the table measures."""
    from smoothbore.boltaction_acw.steps_orders import ride

    state = _load().big_battle(100, 3)
    table: Table = state.extra.table
    walks: list[str] = []
    plain_commander, plain_point = Table.commander, Table.commander_point

    def commander(self: Table, commander_id: str) -> Any:
        walks.append(commander_id)
        return plain_commander(self, commander_id)

    def point(self: Table, commander_id: str) -> Any:
        walks.append(commander_id)
        return plain_point(self, commander_id)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Table, "commander", commander)
        patch.setattr(Table, "commander_point", point)
        legal = TURN.legal_actions(state)
    assert sum(isinstance(a, MoveCommander | RideTo) for a in legal) > 10
    assert len(walks) <= 2
    army = next(c for c in state.commanders
                if c.rank is Rank.ARMY and c.side == situation(state).side)
    for unit in state.units[::7]:
        assert ride(state, army.id, unit.id) == table.ride(army.id, unit.id)


def test_the_units_near_a_unit_are_the_plain_walks_over_the_boxes() -> None:
    """The units that might stand within a range of a unit (``situations.near``: a weapon's
    range, a charge's reach) are found from all the boxes at once (``near_on``), and are
    those of the plain walk over every box (``near_in``), for every unit of a 60-a-side
    battle, at ranges that fall short of, on and past the gaps of its grid."""
    from smoothbore.boltaction_acw.situations import near as near_of
    from smoothbore.table.boxes import gap_over, unit_boxes

    state = _load().big_battle(60, 5)
    table: Table = state.extra.table
    boxes = unit_boxes(table)
    found = 0
    for unit_id in table.units:
        for inches in (0.0, 1.0, 2.0 - 1e-3, 6.0, 12.0, 18.0, 24.0, 36.0, 60.0):
            near = near_of(table, unit_id, inches)
            assert near == {o for o, b in boxes.items() if o != unit_id
                            and not gap_over(boxes[unit_id], b, inches + 1e-3)}
            found += len(near)
    assert found > 10_000
