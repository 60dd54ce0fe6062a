"""Will's AWI under load (issue 28, "Nothing hangs"): the battle of ``benchmarks/
load_will_awi.py`` is a legal battle on a table, and what a step asks of the table grows with
the units near each unit, not with every pair: a unit's sightings and charge reaches hold
the enemies within the longest range and reach, a move's plan reads the enemies that may be
nearest where it ends, a general's rides are measured to the units within his ride, and the
cheap bounds (``situations.Spread``) never leave out a unit the exact tests would keep.
Counts, not clocks: the speed itself is in ``benchmarks/load_will_awi.py``."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.table import Footprint, Formation, Table, Way, distance, route
from smoothbore.will_awi import situations, steps_movement
from smoothbore.will_awi.actions import ChangeFacing, EndPhase, Fire
from smoothbore.will_awi.phases import C, D
from smoothbore.will_awi.positions import BASE, deploy
from smoothbore.will_awi.situations import (
    CHARGE_REACH,
    SIGHT_REACH,
    Spread,
    _not_apart,
    _swept_apart,
    facing_to_nearest,
    plan_of,
    reaches_of,
    sightings_of,
    spread,
)
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.steps_firing import _LONGEST, candidates_fire, check_fire
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, Rank, TroopType, Unit
from smoothbore.will_awi.validity import battle_faults

from .turn_helpers import to_phase

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load_will_awi.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_will_awi_under_test", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def load() -> ModuleType:
    return _load()


@pytest.fixture(scope="module")
def hundred(load: ModuleType) -> State:
    """100 units a side: two lines of 50, a 324" table."""
    state: State = load.big_battle(100, seed=4)
    return state


def test_the_load_battle_is_a_legal_battle_on_a_table(load: ModuleType) -> None:
    """``big_battle(30)``: 30 units a side of foot, light troops, guns and light cavalry,
    each side's brigadiers under senior generals under a commander in chief, laid out on a
    table, passing the whole-battle check, at the British movement phase, and read back by
    the loader as it was."""
    assert load.RULESET == "will_awi"
    state: State = load.big_battle(30, seed=3)
    assert state.phase == C and state.extra.moving == "British"
    assert battle_faults(state) == ()
    table = state.extra.table
    assert table is not None and len(table.footprints) == 60
    for side in state.sides:
        own = state.units_of(side)
        assert len(own) == 30
        arms = Counter("gun" if u.troop.is_gun else "horse" if u.troop.is_cavalry else "foot"
                       for u in own)
        assert arms == {"foot": 20, "gun": 5, "horse": 5}
        ranks = Counter(c.rank for c in state.commanders if c.side == side)
        assert ranks == {Rank.CINC: 1, Rank.SENIOR: 2, Rank.BRIGADIER: 5}
    assert TURN.load(state.to_json()) == state
    with pytest.raises(ValueError, match="units_a_side"):
        load.big_battle(0)


def test_a_units_sightings_and_reaches_hold_the_enemies_near_it(hundred: State) -> None:
    """A flank unit of the 100-a-side battle: its sightings hold every enemy within the
    54" of the longest range and not the far flank's (all 100 before: the whole side's
    every pair), its charge reaches every enemy within 6" (all 100 before)."""
    table = hundred.extra.table
    assert table is not None
    unit = "b4-0"
    seen = sightings_of(table, unit)
    reach = reaches_of(table, unit)
    assert {k[0] for k in seen} == {unit} and {k[0] for k in reach} <= {unit}
    enemies = table.enemies_of(unit)
    assert len(enemies) == 100
    near = {e for e in enemies if distance(table, unit, e) <= SIGHT_REACH}
    assert near <= {k[1] for k in seen} and len(seen) < 40
    close = {e for e in enemies if distance(table, unit, e) <= CHARGE_REACH}
    assert close <= {k[1] for k in reach} and len(reach) < 10


def test_legal_facing_changes_ask_the_table_for_the_pairs_near_each_unit(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """D at 100 units a side: every facing change of the firing side listed, the table is
    asked the sightings of fewer than 4,000 pairs (every enemy pair of the side, 10,000,
    before)."""
    asked: list[int] = []
    real = situations.sightings

    def counted(table: object, pairs: object = None, **kwargs: object) -> object:
        asked.append(10_000 if pairs is None else len(pairs))  # type: ignore[arg-type]
        return real(table, pairs, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(situations, "sightings", counted)
    state = to_phase(hundred.with_extra(table=attrs.evolve(hundred.extra.table)), D)
    legal = TURN.legal_actions(state)
    assert EndPhase() in legal
    assert 0 < sum(asked) < 4_000


def test_legal_facing_changes_ask_the_nearest_enemies_first_in_few_calls(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """D at 100 units a side: each unit's few nearest enemies are asked first, the side's
    in one call, and only a unit that sees none of them in its arc asks the rest: 23 calls
    of 1,190 pairs in all (103 calls of 3,440 pairs before: one call per unit, every enemy
    within 54")."""
    asked: list[int] = []
    real = situations.sightings

    def counted(table: object, pairs: object = None, **kwargs: object) -> object:
        asked.append(10_000 if pairs is None else len(pairs))  # type: ignore[arg-type]
        return real(table, pairs, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(situations, "sightings", counted)
    state = to_phase(hundred.with_extra(table=attrs.evolve(hundred.extra.table)), D)
    TURN.legal_actions(state)
    assert len(asked) < 30 and sum(asked) < 2_000


def _facing_by_every_pair(state: State, unit_id: str) -> float | None:
    """W55's turn worked out from all the unit's sightings (``facing_to_nearest`` before
    it asked the nearest first)."""
    table = state.extra.table
    assert table is not None
    visible = [s for s in sightings_of(table, unit_id).values()
               if s.line_clear and s.distance <= SIGHT_REACH]
    if not visible or any(s.in_arc for s in visible):
        return None
    nearest = min(visible, key=lambda s: s.distance)
    here, there = table.footprint(unit_id), table.footprint(nearest.target)
    bearing = math.degrees(math.atan2(there.x - here.x, there.y - here.y))
    return float(round(situations.normal_degrees(bearing - here.facing)))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_facing_asked_nearest_first_is_the_facing_of_every_pair(
        hundred: State, seed: int) -> None:
    """Every unit of both sides, the lines as laid out and with each unit turned at random
    (so that many see no enemy in their arc and ask the rest): ``facing_to_nearest`` is the
    turn worked out from all its sightings, and some units are offered one."""
    rng = random.Random(seed)
    table = hundred.extra.table
    assert table is not None
    turned = table.placed(*(f.turned(rng.choice((0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360))))
                            for f in table.footprints))
    offered = 0
    for layout in (table, turned):
        state = to_phase(hundred.with_extra(table=attrs.evolve(layout)), D)
        assert state.extra.table is not None
        fresh = state.with_extra(table=attrs.evolve(state.extra.table))
        for f in layout.footprints:
            found = facing_to_nearest(state, f.unit_id)
            assert found == _facing_by_every_pair(fresh, f.unit_id), f.unit_id
            offered += found is not None
    assert offered > 10


def _face_off(gap: float) -> State:
    """A red foot facing up the table with a blue foot ``gap`` inches behind it (centre to
    centre), facing it: the only enemy it sees is outside its arc."""
    red = Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH)
    blue = Unit("b1", "Continentals", "blue", TroopType.LINE)
    table = deploy((red, blue), {"r1": (24.0, 70.0, 0.0), "b1": (24.0, 70.0 - gap, 0.0)},
                   width=48, depth=80)
    state = new_battle(("blue", "red"), (red, blue), (Commander("rg", "Webster", "red"),),
                       table=table)
    return to_phase(state, D)


def test_a_facing_change_is_offered_towards_an_enemy_within_54_only() -> None:
    """W55: the turn to face the nearest enemy a unit sees outside its arc is offered when
    that enemy is within 54" (the longest range), not when it stands 60" off (offered
    before); the turn stays legal when a player asks it."""
    near, far = _face_off(50.0), _face_off(60.0 + BASE / 2)
    assert facing_to_nearest(near, "r1") == 180.0
    assert ChangeFacing("r1", 180.0) in TURN.legal_actions(near)
    assert facing_to_nearest(far, "r1") is None
    assert not any(isinstance(a, ChangeFacing) for a in TURN.legal_actions(far))
    assert TURN.is_legal(far, ChangeFacing("r1", 180.0))


def test_a_plan_finds_the_nearest_enemy_where_it_ends(hundred: State) -> None:
    """The plan of a front-line unit's move straight ahead at 100 units a side measures the
    nearest enemy to where it ends (of the 100 of the other side)."""
    table = hundred.extra.table
    assert table is not None
    unit = next(u for u in hundred.units if u.id == "b4-20")
    here = table.footprint(unit.id)
    end = here.moved_to(here.x, here.y + 3.0)
    nearest = min(end.shape.distance(table.footprint(e).shape)
                  for e in table.enemies_of(unit.id))
    plan = plan_of(hundred, unit, (here.x, here.y + 3.0, here.facing))
    assert plan.nearest_enemy == pytest.approx(round(nearest, 6), abs=1e-6)


def test_a_generals_rides_are_measured_only_to_units_within_reach(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """C at 100 units a side: the generals' rides offered are measured to the units whose
    squares come within a ride (21") of each general, fewer than 25 a general for the 23
    British generals (each of the 100 units for each general before), and each general is
    offered exactly the units of his side within 21" of him."""
    looked: list[int] = []
    real = Spread.near_rows

    def counted(self: Spread, *box: float) -> list[int]:
        rows = real(self, *box)
        looked.append(len(rows))
        return rows

    offered = list(steps_movement.candidates_move_general(hundred))
    monkeypatch.setattr(Spread, "near_rows", counted)
    again = list(steps_movement.candidates_move_general(
        hundred.with_extra(table=attrs.evolve(hundred.extra.table))))
    assert again == offered
    generals = [g for g in hundred.commanders if g.side == "British"]
    assert len(generals) == len(looked) == 23
    assert sum(looked) < 25 * len(generals)
    table = hundred.extra.table
    assert table is not None
    for g in generals:  # every unit within his 21" is offered, none further
        x, y = table.commander_point(g.id)
        within = {f.unit_id for f in table.footprints if f.side == "British"
                  and round(math.hypot(f.x - x, f.y - y), 6) <= 21}
        assert {a.attach_to for a in offered if a.general == g.id} - {""} == within


def _random_footprint(rng: random.Random, uid: str) -> Footprint:
    formation = rng.choice([Formation.LINE, Formation.COLUMN])
    return Footprint(uid, rng.uniform(10, 90), rng.uniform(10, 90), rng.uniform(0, 360), 2,
                     BASE, BASE, formation, side=rng.choice(["red", "blue"]))


@pytest.mark.parametrize("seed", range(4))
def test_the_cheap_bounds_leave_out_no_unit_the_exact_tests_keep(seed: int) -> None:
    """Random units at random facings: every unit whose box comes within a gap of a box is
    among ``Spread.near_rows``; every unit a swept outline is not ``_swept_apart`` from is
    among ``_not_apart``; the enemies at the least distance from a place are among
    ``Spread.nearest_rows``."""
    rng = random.Random(seed)
    table = Table(100.0, 100.0, footprints=tuple(
        _random_footprint(rng, f"u{i}") for i in range(60)))
    found = spread(table)
    fps = table.footprints
    for _ in range(40):
        x0, y0 = rng.uniform(0, 100), rng.uniform(0, 100)
        x1, y1 = x0 + rng.uniform(0, 20), y0 + rng.uniform(0, 20)
        gap = rng.uniform(0, 10)
        rows = found.near_rows(x0, y0, x1, y1, gap)
        assert rows == sorted(rows)
        for i, f in enumerate(fps):
            a0, b0, a1, b1 = f.bounds
            if not (a0 > x1 + gap or a1 < x0 - gap or b0 > y1 + gap or b1 < y0 - gap):
                assert i in rows
        here = rng.choice(fps)
        dx, dy = rng.uniform(-15, 15), rng.uniform(-15, 15)
        kept = {f.unit_id for f in _not_apart(table, here, dx, dy, gap)}
        for f in fps:
            if not _swept_apart(here, dx, dy, f, gap):
                assert f.unit_id in kept
        rows = found.nearest_rows(here.side, here.x + dx, here.y + dy, 2.0)
        enemies = [i for i, f in enumerate(fps) if f.side != here.side]
        end = here.moved_to(min(max(here.x + dx, 5), 95), min(max(here.y + dy, 5), 95))
        if (end.x, end.y) != (here.x + dx, here.y + dy):
            continue
        gaps = [end.shape.distance(fps[i].shape) for i in enemies]
        least = min(gaps)
        assert {i for i, g in zip(enemies, gaps, strict=True) if g <= least} <= set(rows)


@pytest.mark.parametrize("seed", range(3))
def test_a_sweep_surely_into_a_unit_is_one_whose_route_crosses_it(seed: int) -> None:
    """Random units at random facings, random straight moves: each move
    ``_sweeps_into_a_unit`` says goes into another unit has a route (the table's) that
    crosses one, so asking the route first could not have taken the whole move; most that
    cross one are found."""
    rng = random.Random(seed)
    table = Table(100.0, 100.0, footprints=tuple(
        _random_footprint(rng, f"u{i}") for i in range(60)))
    into = crossing = 0
    for _ in range(200):
        here = rng.choice(table.footprints)
        dx, dy = rng.uniform(-12, 12), rng.uniform(-12, 12)
        surely = situations._sweeps_into_a_unit(table, here, dx, dy)
        crossed = route(table, here.unit_id, (here.x + dx, here.y + dy)).units_crossed
        assert crossed or not surely
        into += surely
        crossing += bool(crossed)
    assert crossing > 0 and into >= 0.9 * crossing


def test_legal_moves_ask_no_route_of_a_move_surely_into_a_friend(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """C at 100 units a side: the units whose way a friend blocks are stopped by
    ``furthest`` (88 ways) without first asking the route of their whole move: the table
    is asked 11 routes (62 before). The listing asks the first movers' ways one by one, then
    every other mover's in one ``furthest_many`` (issue 28)."""
    routes: list[str] = []
    stops: list[str] = []
    batches: list[int] = []
    real_route, real_furthest = situations.route, situations.furthest
    real_many = situations.furthest_many

    def counted_route(table: Table, unit_id: str, *points: object) -> object:
        routes.append(unit_id)
        return real_route(table, unit_id, *points)  # type: ignore[arg-type]

    def counted_furthest(table: Table, unit_id: str, *args: object, **kwargs: object) -> object:
        stops.append(unit_id)
        return real_furthest(table, unit_id, *args, **kwargs)  # type: ignore[arg-type]

    def counted_many(table: Table, ways: list[Way]) -> object:
        batches.append(len(ways))
        stops.extend(way.unit_id for way in ways)
        return real_many(table, ways)

    monkeypatch.setattr(situations, "route", counted_route)
    monkeypatch.setattr(situations, "furthest", counted_furthest)
    monkeypatch.setattr(situations, "furthest_many", counted_many)
    state = hundred.with_extra(table=attrs.evolve(hundred.extra.table))
    assert len(TURN.legal_actions(state)) == 777
    assert len(stops) == 88 and len(routes) < 20
    assert len(batches) == 1 and batches[0] > 80


def test_the_fire_of_a_phase_asks_each_firer_as_far_as_its_weapon_reaches(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """D to E at 100 units a side: which units of the firing side could fire as E begins
    (every firer's fire checked) asks the table the sightings of fewer than 2,000 pairs
    (each firer as far as its weapon reaches: muskets 6", guns 36" and 45"; every enemy
    pair of the side, 10,000, before), and the same units are found able to fire as when
    every pair is asked."""
    asked: list[int] = []
    real = situations.sightings

    def counted(table: object, pairs: object = None, **kwargs: object) -> object:
        asked.append(10_000 if pairs is None else len(pairs))  # type: ignore[arg-type]
        return real(table, pairs, **kwargs)  # type: ignore[arg-type]

    state = to_phase(hundred.with_extra(table=attrs.evolve(hundred.extra.table)), D)
    monkeypatch.setattr(situations, "sightings", counted)
    fired = TURN.step(state, EndPhase())[0]
    assert 0 < sum(asked) < 2_000
    monkeypatch.setattr(situations, "sightings", real)
    table = state.extra.table
    assert table is not None
    every = situations.all_sightings(attrs.evolve(table))
    able = set()
    for (firer, _), seen in every.items():
        unit = next(u for u in state.units if u.id == firer)
        weapon = unit.fires_with
        if (unit.side == "American" and weapon is not None and not unit.limbered
                and seen.line_clear and seen.in_arc and seen.distance <= _LONGEST[weapon]):
            able.add(firer)
    assert fired.extra.could_fire <= able and len(fired.extra.could_fire) > 10


def test_the_units_able_to_fire_are_asked_of_the_table_in_two_calls(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """D to E at 100 units a side (``steps_firing.able_to_fire``): the table is asked the
    sightings in two calls, each firer's two nearest candidate targets then the rest of the
    firers still without a shot (before: 20 calls, one a gun, 45" round each), and
    the units found able to fire are those of judging every candidate of E with
    ``check_fire`` (issue 28)."""
    asked: list[int] = []
    real = situations.sightings

    def counted(table: object, pairs: object = None, **kwargs: object) -> object:
        asked.append(10_000 if pairs is None else len(pairs))  # type: ignore[arg-type]
        return real(table, pairs, **kwargs)  # type: ignore[arg-type]

    state = to_phase(hundred.with_extra(table=attrs.evolve(hundred.extra.table)), D)
    monkeypatch.setattr(situations, "sightings", counted)
    fired = TURN.step(state, EndPhase())[0]
    assert len(asked) == 2 and sum(asked) < 300
    monkeypatch.setattr(situations, "sightings", real)
    fresh = fired.with_extra(table=attrs.evolve(fired.extra.table))
    every = set()
    for action in candidates_fire(fresh):
        try:
            check_fire(fresh, action)
        except IllegalActionError:
            continue
        every.add(action.firer)
    assert fired.extra.could_fire == every and len(every) == 16


def test_the_fire_of_the_firing_phase_is_asked_of_the_table_in_one_call(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """E at 100 units a side, on a table no question was asked of: listing every fire asks
    the table the sightings of every firer with a candidate, as far as its weapon reaches,
    in one call (before: one call a gun, 45" round each; issue 28), and the same fire is
    legal as when each firer's sightings are asked alone (``sightings_of``)."""
    fired = TURN.step(to_phase(hundred, D), EndPhase())[0]
    fresh = fired.with_extra(table=attrs.evolve(fired.extra.table))
    asked: list[int] = []
    real = situations.sightings

    def counted(table: object, pairs: object = None, **kwargs: object) -> object:
        asked.append(10_000 if pairs is None else len(pairs))  # type: ignore[arg-type]
        return real(table, pairs, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(situations, "sightings", counted)
    legal = TURN.legal_actions(fresh)
    assert len(asked) == 1 and 0 < asked[0] < 2_000
    monkeypatch.setattr(situations, "sightings", real)
    alone = fired.with_extra(table=attrs.evolve(fired.extra.table))
    table = alone.extra.table
    assert table is not None
    for unit in alone.units_of("American"):
        if unit.fires_with is not None and unit.on_table:
            sightings_of(table, unit.id, float(_LONGEST[unit.fires_with]))
    assert legal == TURN.legal_actions(alone)
    assert sum(isinstance(a, Fire) for a in legal) == 44


def test_a_listing_worked_out_at_once_is_the_listing_one_by_one(
        hundred: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """C at 100 units a side: the moves listed when every mover's ways are worked out at
    once (``goes_ahead``) are those listed when each is worked out as it is drawn."""
    at_once = TURN.legal_actions(hundred.with_extra(table=attrs.evolve(hundred.extra.table)))
    monkeypatch.setattr(steps_movement, "LISTING", 10**9)
    one_by_one = TURN.legal_actions(hundred.with_extra(table=attrs.evolve(hundred.extra.table)))
    assert at_once == one_by_one and len(at_once) == 777
