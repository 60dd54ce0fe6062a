"""The kept answers of ``situations``: move plans are kept by table, unit, options and
destination in the battle's store (``table.store("will_awi: plans")``), routs per table.
Each kept answer must be the answer worked out afresh on
the table as it stands, and each move read off the positions (``open_move``, ``steady_go``)
the one the table's ``furthest`` and ``route`` give."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

import attrs
import pytest

from smoothbore.core import Deferred, IllegalActionError
from smoothbore.table import Feature, Table, furthest, route
from smoothbore.will_awi import RULESET, situations
from smoothbore.will_awi.actions import Move
from smoothbore.will_awi.charges import check_charge
from smoothbore.will_awi.movement import Leg, Terrain, move_distance
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.situations import (
    CHARGE_REACH,
    SIGHT_REACH,
    WAYS,
    _place,
    all_reaches,
    all_sightings,
    bombard_facts,
    charge_facts,
    destinations,
    destinations_on,
    destinations_toward,
    facing_to_nearest,
    plan_of,
    plan_on,
    plan_routed,
    rate_table,
    reach_of,
    reaches_of,
    rout_facts,
    sighting_of,
    sightings_of,
    steady_go,
)
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.steps_charges import candidates_declare_charge, check_declare_charge
from smoothbore.will_awi.steps_firing import candidates_change_facing
from smoothbore.will_awi.steps_movement import movers, movers_afresh
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, Status, TroopType, Unit

from .turn_helpers import to_phase

T = TypeVar("T")

FOOT = Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH)
FRIEND = Unit("r2", "Grenadiers", "red", TroopType.GRENADIERS, Nationality.BRITISH)
ENEMY = Unit("b1", "Continentals", "blue", TroopType.LINE)
ENEMY2 = Unit("b2", "Dragoons", "blue", TroopType.LIGHT_CAVALRY)


def _layout(places: dict[str, Place], *features: Feature) -> State:
    units = tuple(u for u in (FOOT, FRIEND, ENEMY, ENEMY2) if u.id in places)
    table = deploy(units, places, width=48, depth=36, features=features)
    state = new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                       table=table)
    return to_phase(state, "C")


def _stranded(places: dict[str, Place], *features: Feature) -> State:
    """``_layout`` with the ground laid under the units afterwards: a unit standing in
    ground it may not enter, which ``new_battle`` and a load refuse (``validity``), set by
    hand to see what the table's moves make of it."""
    state = _layout(places)
    units = tuple(u for u in (FOOT, FRIEND, ENEMY, ENEMY2) if u.id in places)
    return state.with_extra(table=deploy(units, places, width=48, depth=36, features=features))


def _uncached_places(state: State, unit: Unit, allowance: float) -> tuple[Place, ...]:
    """The destinations worked out afresh on a new table, every route asked of the table
    (no move read off the positions)."""
    table = state.extra.table
    assert table is not None
    fresh = attrs.evolve(table)
    here = fresh.footprint(unit.id)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(situations, "open_move", lambda *_, **__: False)
        patch.setattr(situations, "steady_go", lambda *_, **__: None)
        found = destinations_on(fresh, unit, allowance, state.options)
    return tuple(_place(here, d) for d in found)


def test_a_friend_in_the_way_changes_the_destinations_a_far_one_does_not() -> None:
    """The foot's 6" straight ahead: open at first; a friend put 4" ahead stops it (the
    answer of the first layout must not be given); a friend 30" off leaves the same places."""
    open_ground = _layout({"r1": (20.0, 8.0, 0.0), "b1": (20.0, 30.0, 180.0)})
    ahead = max(destinations(open_ground, FOOT, 6.0), key=lambda p: p[1])
    assert ahead == pytest.approx((20.0, 14.0, 0.0))
    blocked = _layout({"r1": (20.0, 8.0, 0.0), "r2": (20.0, 12.0 + BASE, 0.0),
                       "b1": (20.0, 30.0, 180.0)})
    places = destinations(blocked, FOOT, 6.0)
    assert places == _uncached_places(blocked, FOOT, 6.0)
    # the foot's front edge (8 + BASE/2) meets the friend's rear edge (12 + BASE/2) after 4"
    assert max(p[1] for p in places) == pytest.approx(12.0)
    far = _layout({"r1": (20.0, 8.0, 0.0), "r2": (44.0, 30.0, 0.0), "b1": (20.0, 30.0, 180.0)})
    assert destinations(far, FOOT, 6.0) == destinations(open_ground, FOOT, 6.0)


def test_a_friend_beside_the_lanes_leaves_the_places_alone() -> None:
    """A friend 10" to the side of the foot's lanes ahead and back, or 1.5" beside the lane
    ahead: the places are those every route asked of the table gives."""
    off = _layout({"r1": (20.0, 8.0, 0.0), "r2": (30.0, 12.0, 0.0), "b1": (20.0, 30.0, 180.0)})
    beside = _layout({"r1": (20.0, 8.0, 0.0), "r2": (20.0 + 2 * BASE + 1.5, 12.0, 0.0),
                      "b1": (20.0, 30.0, 180.0)})
    for state in (off, beside):
        assert destinations(state, FOOT, 6.0) == _uncached_places(state, FOOT, 6.0)


def test_a_plan_reads_every_enemy_and_destinations_follow_the_enemy() -> None:
    """A plan reads every enemy (the nearest one to where it ends): an enemy moved far away
    changes it. The destinations of each layout, with a second enemy far off, near the
    lanes or the nearest moved, are those every route asked of the table gives; a shaken or
    weakened unit's are the steady one's (its rates and retirement are its troop type's)."""
    a = _layout({"r1": (20.0, 8.0, 0.0), "b1": (20.0, 30.0, 180.0)})
    b = _layout({"r1": (20.0, 8.0, 0.0), "b1": (40.0, 30.0, 180.0)})
    pa = plan_of(a, FOOT, (20.0, 12.0, 0.0))
    pb = plan_of(b, FOOT, (20.0, 12.0, 0.0))
    assert pa.nearest_enemy != pb.nearest_enemy
    for where in ((44.0, 34.0, 180.0), (4.0, 34.0, 90.0), (20.0, 16.0, 180.0)):
        state = _layout({"r1": (20.0, 8.0, 0.0), "b1": (20.0, 30.0, 180.0), "b2": where})
        assert destinations(state, FOOT, 6.0) == _uncached_places(state, FOOT, 6.0)
    moved = _layout({"r1": (20.0, 8.0, 0.0), "b1": (30.0, 30.0, 180.0),
                     "b2": (44.0, 34.0, 180.0)})
    assert destinations(moved, FOOT, 6.0) == _uncached_places(moved, FOOT, 6.0)
    shaken = attrs.evolve(FOOT, status=Status.SHAKEN, strength=3)
    assert destinations(a, shaken, 6.0) == destinations(a, FOOT, 6.0) == _uncached_places(
        a, shaken, 6.0)


def test_plans_are_kept_in_the_battles_store_by_table_unit_and_place() -> None:
    """A plan asked twice on one table is worked out once (the store's miss, then its hit);
    on a table where a unit moved it is worked out again, and a move's handler is handed
    its check's plan (engine contract v2: nothing measured twice in a step)."""
    state = _layout({"r1": (20.0, 8.0, 0.0), "b1": (20.0, 30.0, 180.0)})
    table = state.extra.table
    assert table is not None
    to = (20.0, 12.0, 0.0)
    first = plan_of(state, FOOT, to)
    assert plan_of(state, FOOT, to) is first
    counts = {c.name: c for c in table.stores()}["will_awi: plans"]
    assert (counts.misses, counts.hits) == (1, 1)
    moved = state.with_extra(table=table.placed(table.footprint("b1").moved_to(40.0, 30.0)))
    assert plan_of(moved, FOOT, to).nearest_enemy != first.nearest_enemy
    from smoothbore.will_awi.actions import Move

    asked: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(situations, "plan_on", lambda *a: asked.append(a) or plan_on(*a))
        fresh = state.with_extra(table=attrs.evolve(table))
        after, _ = TURN.step(fresh, Move("r1", to=to))
    assert len(asked) == 1 and after.extra.table is not None
    assert after.extra.table.footprint("r1").centre == (20.0, 12.0)


HILL = Feature.rectangle("knoll", "gentle hill", 20, 14, 30, 16)
RIVER = Feature("brook", "river", line=((0, 30), (48, 30)), width=2.0)


def _furthest_reach(state: State, unit: Unit, heading: float, budget: float) -> tuple[
        tuple[float, float], float]:
    table = state.extra.table
    assert table is not None
    found = furthest(attrs.evolve(table), unit.id, heading, budget,
                     rate_table(unit, state.options), full_move=budget, clearance=1.0)
    return found.point, found.distance


def test_a_move_over_one_ground_is_read_off_the_positions() -> None:
    """Foot on a gentle hill (two thirds speed, Rules - Movement: Effects of terrain) going
    6" ahead within it goes 4", exactly where the table's ``furthest`` puts it; straight back
    it would leave the hill (an edge crossed): left to ``furthest``. A unit in a river goes
    nowhere, as ``furthest`` finds; one in contact with an enemy ahead goes back as
    ``furthest`` lets it (the enemy it starts by does not stop it); an enemy within 1" of the
    way, or the river beside the way, leaves it to ``furthest``."""
    state = _layout({"r1": (20.0, 14.0, 0.0), "b1": (40.0, 34.0, 180.0)}, HILL)
    table = state.extra.table
    assert table is not None
    here = table.footprint("r1")
    rates = rate_table(FOOT, state.options)
    steady = steady_go(table, here, 0.0, 1.0, 6.0, rates)
    assert steady is not None and steady.route is None
    assert (steady.point, steady.distance) == _furthest_reach(state, FOOT, 0.0, 6.0)
    assert steady.distance == pytest.approx(4.0)
    assert steady_go(table, here, 0.0, -1.0, 15.0, rates) is None  # 10" back: off at 6
    assert destinations(state, FOOT, 6.0) == _uncached_places(state, FOOT, 6.0)
    wet = _stranded({"r1": (20.0, 30.0, 0.0), "b1": (40.0, 10.0, 180.0)}, RIVER)
    wet_table = wet.extra.table
    assert wet_table is not None
    stuck = steady_go(wet_table, wet_table.footprint("r1"), 0.0, 1.0, 6.0, rates)
    assert stuck is not None and stuck.distance == 0.0
    assert (stuck.point, stuck.distance) == _furthest_reach(wet, FOOT, 0.0, 6.0)
    near = _layout({"r1": (20.0, 14.0, 0.0), "b1": (20.0, 18.0 + BASE + 0.5, 180.0)}, HILL)
    near_table = near.extra.table
    assert near_table is not None
    assert steady_go(near_table, near_table.footprint("r1"), 0.0, 1.0, 6.0, rates) is None
    assert destinations(near, FOOT, 6.0) == _uncached_places(near, FOOT, 6.0)
    # in contact with an enemy ahead, straight back: the table does not stop it for the
    # enemy it starts within 1" of, and neither does the reading off the positions
    touching = _layout({"r1": (20.0, 14.0, 0.0), "b1": (20.0, 14.0 + BASE, 180.0)}, HILL)
    touching_table = touching.extra.table
    assert touching_table is not None
    back = steady_go(touching_table, touching_table.footprint("r1"), 0.0, -1.0, 3.0, rates)
    assert back is not None and back.distance == pytest.approx(2.0)
    assert (back.point, back.distance) == _furthest_reach(touching, FOOT, 180.0, 3.0)
    assert destinations(touching, FOOT, 6.0) == _uncached_places(touching, FOOT, 6.0)
    beside = _layout({"r1": (20.0, 30.0 - 1.0 - BASE / 2 - 0.2, 90.0),
                      "b1": (20.0, 10.0, 0.0)}, RIVER)
    beside_table = beside.extra.table
    assert beside_table is not None
    assert steady_go(beside_table, beside_table.footprint("r1"), 1.0, 0.0, 6.0, rates) is None


def _same_by_side(table: Table) -> None:
    """Each unit's sightings and reaches are the entries of every pair's for the enemies
    near it: every enemy within ``SIGHT_REACH`` (``CHARGE_REACH``) and none of another
    unit; each pair's sighting and reach asked alone (also one further off) are every
    pair's entry."""
    fresh = attrs.evolve(table)
    every_sighting, every_reach = all_sightings(fresh), all_reaches(fresh)
    for footprint in table.footprints:
        unit = footprint.unit_id
        seen, reach = sightings_of(table, unit), reaches_of(table, unit)
        assert all(k[0] == unit and seen[k] == every_sighting[k] for k in seen)
        assert {k for k, v in every_sighting.items()
                if k[0] == unit and v.distance <= SIGHT_REACH} <= set(seen)
        assert all(k[0] == unit and reach[k] == every_reach[k] for k in reach)
        assert {k for k, v in every_reach.items()
                if k[0] == unit and v.distance <= CHARGE_REACH} <= set(reach)
    assert sightings_of(table, "nobody") == {} and reaches_of(table, "nobody") == {}
    # one pair at a time, on a table with no unit asked (each pair asked alone and kept)
    # and on the table as it stands: every pair's entry; None for two units not enemies
    alone = attrs.evolve(table)
    for _ in range(2):
        for a in table.units:
            for b in table.units:
                expected = every_sighting.get((a, b))
                assert sighting_of(alone, a, b) == expected
                assert sighting_of(table, a, b) == expected
                assert reach_of(alone, a, b) == every_reach.get((a, b))
                assert reach_of(table, a, b) == every_reach.get((a, b))
    assert sighting_of(table, "nobody", table.footprints[0].unit_id) is None
    assert reach_of(table, "nobody", table.footprints[0].unit_id) is None


def _same(found: object, expected: object) -> bool:
    """The same plan, or the same refusal (errors compare by type, reason and rule)."""
    if isinstance(expected, Exception):
        return (type(found) is type(expected)
                and getattr(found, "why", None) == getattr(expected, "why", None)
                and getattr(found, "rule", None) == getattr(expected, "rule", None))
    return found == expected


@pytest.mark.parametrize("battle", ["default", "germantown", "prestonpans"])
def test_kept_moves_are_the_moves_worked_out_afresh(battle: str) -> None:
    """Random play of an embedded battle: in every move phase, every mover's destinations and
    the plan of each (and of a random point within its reach) are what a new table with no
    kept answers gives."""
    build = dict(RULESET.battles())[battle]
    rng = random.Random(3)
    state = build(3)
    compared = 0
    steps = 0
    while not TURN.is_over(state) and steps < 400:
        table = state.extra.table
        if state.phase == "C" and table is not None:
            for unit in list(movers(state))[:4]:
                if unit.busy_moves:
                    continue
                allowance = float(move_distance(unit, options=state.options))
                places = destinations(state, unit, allowance)
                assert places == _uncached_places(state, unit, allowance)
                _each_way_apart(state, unit, allowance, places)
                here = table.footprint(unit.id)
                pick = (here.x + rng.uniform(-allowance, allowance),
                        here.y + rng.uniform(-allowance, allowance), here.facing)
                for place in (*places, pick):
                    fresh = attrs.evolve(table)
                    expected = plan_routed(fresh, unit, place, state.options)
                    assert _same(plan_on(attrs.evolve(table), unit, place, state.options),
                                 expected)
                    try:
                        found: object = plan_of(state, unit, place)
                    except Exception as error:  # the same refusal, raised
                        found = error
                    assert _same(found, expected)
                    compared += 1
        if steps % 7 == 0 and table is not None:
            _same_by_side(table)
        if state.phase == "B" and table is not None:
            for unit in state.units:
                if unit.routing and unit.on_table and unit.id in table.units:
                    kept = rout_facts(state, unit, 12.0)
                    fresh_state = state.with_extra(table=attrs.evolve(table))
                    assert kept == rout_facts(fresh_state, unit, 12.0)
        state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
        steps += 1
    assert compared > 20


def _each_way_apart(state: State, unit: Unit, allowance: float,
                    places: tuple[Place, ...]) -> None:
    """Each way's places are at most its bound and no other way's (each way is one
    ``Deferred`` group of moves), and together they are the unit's destinations."""
    ways = {way: destinations_toward(state, unit, allowance, way) for way in WAYS}
    for way, found in ways.items():
        assert len(found) <= WAYS[way]
    every = [p for found in ways.values() for p in found]
    assert len(set(every)) == len(every) and tuple(every) == places


@pytest.mark.parametrize("battle", ["prestonpans", "germantown", "cowpens"])
def test_what_the_deferred_and_short_checks_read_gives_the_full_answer(battle: str) -> None:
    """Random play of an embedded battle: in D each unit's deferred group is its facing
    change towards the nearest enemy it sees; in F the check of each charge proposed
    (which reads only the reach, ``charge_ahead``) passes exactly when the book's
    ``check_charge`` passes on all the facts the table measures (``charge_facts``)."""
    build = dict(RULESET.battles())[battle]
    seen = {"D": 0, "F": 0}
    for seed in range(5, 9):  # until some charge has been proposed
        if seen["D"] > 5 and seen["F"] > 0:
            break
        _compare_reads(build(seed), random.Random(seed), seen)
    assert seen["D"] > 5 and seen["F"] > 0


def _compare_reads(state: State, rng: random.Random, seen: dict[str, int]) -> None:
    """One random play of the test above, counting the checks compared in ``seen``."""
    steps = 0
    while not TURN.is_over(state) and steps < 400:
        if state.extra.table is not None and state.phase == "D":
            for item in candidates_change_facing(state):
                assert isinstance(item, Deferred) and item.bound == 1
                found = item.actions()
                assert len(found) <= 1
                for action in found:
                    assert action.degrees == facing_to_nearest(state, action.unit)
                seen["D"] += 1
        if state.extra.table is not None and state.phase == "F":
            for action in candidates_declare_charge(state):
                charger = state.unit(action.charger)
                target = state.unit(action.target)
                try:
                    facts = charge_facts(state, charger.id, target.id)
                    check_charge(charger, target, facts.distance or 0.0, facts.in_front)
                    expected = True
                except IllegalActionError:
                    expected = False
                try:
                    check_declare_charge(state, action)
                    passed = True
                except IllegalActionError:
                    passed = False
                assert passed is expected
                seen["F"] += 1
        state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
        steps += 1


def test_the_kept_layouts_and_rates_are_those_worked_out_afresh() -> None:
    """``positions.layout_of`` keeps its answer by troop type, limbering and formation, and
    ``rate_table`` by kind of mover: for every unit of the embedded battles and each
    formation it can take, the kept answers are the ones worked out afresh."""
    from smoothbore.will_awi.movement import mover_of
    from smoothbore.will_awi.options import Options
    from smoothbore.will_awi.positions import _layout, layout_of
    from smoothbore.will_awi.situations import _rate_table
    from smoothbore.will_awi.units import Formation

    fresh = _layout.__wrapped__
    fresh_rates = _rate_table.__wrapped__
    units = {u for _, build in RULESET.battles() for u in build(0).units}
    compared = 0
    for unit in sorted(units, key=lambda u: u.id):
        for changed in (unit, attrs.evolve(unit, limbered=not unit.limbered)
                        if unit.troop.is_gun else
                        attrs.evolve(unit, formation=Formation.COLUMN)):
            assert layout_of(changed) == fresh(changed.troop, changed.limbered,
                                               changed.formation)
            assert rate_table(changed, Options()) == fresh_rates(mover_of(changed))
            compared += 1
    assert compared > 20


def test_a_plan_over_one_ground_is_read_off_the_positions() -> None:
    """Foot on a gentle hill moving 3" ahead within it: one leg of gentle slope, nothing
    crossed, read without asking the table for a route and the same as the route's plan;
    3" back leaves the hill (an edge crossed) and the route is asked."""
    state = _layout({"r1": (20.0, 14.0, 0.0), "b1": (40.0, 34.0, 180.0)}, HILL)
    table = state.extra.table
    assert table is not None
    ahead = (20.0, 17.0, 0.0)
    expected = plan_routed(attrs.evolve(table), FOOT, ahead, state.options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(situations, "route", lambda *_, **__: pytest.fail("route asked"))
        found = plan_on(attrs.evolve(table), FOOT, ahead, state.options)
    assert found == expected
    assert found.legs == (Leg(3.0, (Terrain.GENTLE_SLOPE,)),) and not found.crossings
    back = (20.0, 5.0, 0.0)
    asked = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(situations, "route", lambda *a: asked.append(a) or route(*a))
        found = plan_on(attrs.evolve(table), FOOT, back, state.options)
    assert asked and found == plan_routed(attrs.evolve(table), FOOT, back, state.options)
    assert len(found.legs) == 2 and found.retiring


@pytest.mark.parametrize(("battle", "seed"), [("default", 4), ("germantown", 1)])
def test_every_step_leaves_the_table_in_step_with_the_units(battle: str, seed: int) -> None:
    """Random play of an embedded battle: after every step the table's footprints and
    generals' marks are those the table seam's ``keep_in_step`` gives afresh (on a new
    table, nothing kept, every unit compared) for the step's units and generals, though
    the engine's keeping skips the units and footprints a step left as they were; the
    battles remove units from the table."""
    from smoothbore.table import keep_in_step
    from smoothbore.will_awi.on_table import RULES

    rng = random.Random(seed)
    state = dict(RULESET.battles())[battle](seed)
    removed = steps = 0
    while not TURN.is_over(state) and steps < 600:
        state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
        steps += 1
        table = state.extra.table
        assert table is not None
        fresh = keep_in_step(RULES, None, state.with_extra(table=attrs.evolve(table)))
        afresh = fresh.extra.table
        assert afresh is not None
        assert afresh.footprints == table.footprints
        assert afresh.commanders == table.commanders
        removed = max(removed, sum(not u.on_table for u in state.units))
    assert removed > 0 and steps > 100


def test_kept_bombardments_are_those_worked_out_afresh() -> None:
    """Random play of Germantown (two guns, two works): in every phase E, each gun's fire at
    each work, asked twice on the table as it stands, is what a new table gives when
    worked out with nothing kept."""
    rng = random.Random(7)
    state = dict(RULESET.battles())["germantown"](7)
    guns = [u.id for u in state.units if u.troop.is_gun]
    works = [w.id for w in state.extra.works]
    compared = steps = 0
    while not TURN.is_over(state) and steps < 400:
        table = state.extra.table
        if state.phase == "E" and table is not None:
            fresh = attrs.evolve(table)
            for _ in range(2):
                for gun in guns:
                    for work in works:
                        if gun in table.units:
                            afresh = situations._bombard_facts(
                                fresh, fresh.terrain.by_id[work], fresh.footprint(gun))
                            assert bombard_facts(state, gun, work) == afresh
                            compared += 1
        state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
        steps += 1
    assert compared > 20


def test_kept_allowances_and_stands_are_those_worked_out_afresh() -> None:
    """Random play of the default battle, Germantown and Prestonpans: in every phase C the
    kept movers (Highland charges and the others) are those worked out afresh; each
    mover's kept allowance is ``move_distance`` worked out afresh, its kept standing move
    is ``Move(unit id)``, and each general's kept ride to it (or alone), its kept works at
    (and bombardments of) each work and its kept fire at each unit the actions made afresh,
    for several units and kinds of troops; the generals marked on the table are those of
    its marks."""
    from smoothbore.will_awi.actions import Bombard, Engineer, Fire, Move, MoveGeneral
    from smoothbore.will_awi.steps_firing import _fire_at
    from smoothbore.will_awi.steps_movement import _allowance, _ride_to, _stand
    from smoothbore.will_awi.steps_works import _bombard, _engineer

    kinds = set()
    for battle in ("default", "germantown", "prestonpans"):
        rng = random.Random(11)
        state = dict(RULESET.battles())[battle](11)
        steps = 0
        while not TURN.is_over(state) and steps < 300:
            if state.phase == "C":
                for highland in (False, True):
                    assert movers(state, highland=highland) == tuple(
                        movers_afresh(state, highland=highland))
                for unit in movers(state):
                    assert _allowance(unit, state.options) == move_distance(
                        unit, options=state.options)
                    assert _stand(unit.id) == Move(unit.id)
                    for general in state.commanders:
                        assert _ride_to(general.id, unit.id) == MoveGeneral(
                            general.id, 0.0, unit.id)
                        assert _ride_to(general.id, "") == MoveGeneral(general.id)
                    for work in state.extra.works:
                        for build in (False, True):
                            assert _engineer(unit.id, work.id, build) == Engineer(
                                unit.id, work.id, build=build)
                        assert _bombard(unit.id, work.id) == Bombard(unit.id, work.id)
                    for enemy in state.units:
                        assert _fire_at(unit.id, enemy.id) == Fire(unit.id, enemy.id)
                    kinds.add((unit.troop, _allowance(unit, state.options)))
                table = state.extra.table
                assert table is not None
                assert situations.marked(table) == frozenset(
                    m.commander_id for m in attrs.evolve(table).commanders)
            state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
            steps += 1
    assert len({allowance for _, allowance in kinds}) > 2


def test_wagons_at_hand_and_formation_clashes_are_asked_once_per_table() -> None:
    """Field Engineering (W35) and Move Sequence C (W49): which wagon is at hand and what a
    formation change would strike are asked once per table and unit: the legal actions of
    a phase C asked twice ask the table nothing more the second time. The wagon moved 3"
    off (a new table), it is no longer at hand."""
    from smoothbore.will_awi import steps_works
    from smoothbore.will_awi.steps_works import wagon_at_hand

    wagon = Unit("r9", "Tool wagon", "red", TroopType.WAGON)
    units = (FOOT, FRIEND, ENEMY, wagon)
    places: dict[str, Place] = {"r1": (20.0, 10.0, 0.0), "r2": (30.0, 10.0, 0.0),
                                "b1": (20.0, 30.0, 180.0),
                                "r9": (20.0 + 1.5 * BASE + 0.5, 10.0, 0.0)}  # 0.5" off r1
    table = deploy(units, places, width=48, depth=36)
    s = to_phase(new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                            table=table), "C")
    asked = {"within": 0, "relaid": 0}

    def counted(name: str, ask: Callable[..., T]) -> Callable[..., T]:
        def counting(*args: object) -> T:
            asked[name] += 1
            return ask(*args)
        return counting

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(steps_works, "units_within",
                      counted("within", steps_works.units_within))
        patch.setattr(situations, "relaid", counted("relaid", situations.relaid))
        first = TURN.legal_actions(s)
        once = dict(asked)
        assert TURN.legal_actions(s) == first and asked == once
    assert once == {"within": 2, "relaid": 2}  # r1 and r2: at hand, and reformed
    assert wagon_at_hand(s, s.unit("r1")) == "r9"
    assert wagon_at_hand(s, s.unit("r2")) is None  # 4.2" off
    moved = s.with_extra(table=table.placed(
        table.footprint("r9").moved_to(20.0 + BASE + 3.0, 10.0)))
    assert wagon_at_hand(moved, moved.unit("r1")) is None


def test_what_the_book_reads_of_the_ground_is_kept_in_the_battles_store() -> None:
    """The ground's shape, boxes and edges are worked out once for a battle's line of tables
    (``table.store("will_awi: ground")``: no process-wide cache), whatever steps follow."""
    state = _layout({"r1": (20.0, 8.0, 0.0), "b1": (20.0, 34.0, 180.0)}, HILL, RIVER)
    TURN.legal_actions(state)
    after, _ = TURN.step(state, Move("r1", to=(20.0, 10.0, 0.0)))
    TURN.legal_actions(after)
    table = after.extra.table
    assert table is not None
    counts = {c.name: c for c in table.stores()}
    ground = counts["will_awi: ground"]
    assert ground.misses <= 4 < ground.hits
    assert {"will_awi: goes", "will_awi: plans"} <= set(counts)
