"""table_moves.py and the measures kept for speed (situations.py): every answer kept on a
sheet, a pair or a table agrees with the same question measured afresh, one move or one pair
at a time, on states of random battles on the embedded tables."""

from __future__ import annotations

import functools
import math
import random

import attrs
import pytest
import shapely

from smoothbore.battle import random_policy
from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN, positions
from smoothbore.mckie_acw.actions import AttachHelpers, Move
from smoothbore.mckie_acw.movement import Manoeuvre, Mover, max_move, rate
from smoothbore.mckie_acw.phases import CHARGES, FIRING, MOVEMENT
from smoothbore.mckie_acw.positions import FOOT_RATES, MOUNTED_RATES, kept, synced
from smoothbore.mckie_acw.scenarios import example_battle, sharpshooters_battle
from smoothbore.mckie_acw.situations import (
    beyond_reach,
    charge_facts,
    charge_lines,
    shot_facts,
    shots,
    surely_apart,
)
from smoothbore.mckie_acw.state import State, may_advance, with_extra
from smoothbore.mckie_acw.steps_movement import candidates_move, free_units
from smoothbore.mckie_acw.table_moves import (
    Field,
    MoveFacts,
    Place,
    _around,
    _bounds,
    _corners,
    _in_the_open,
    _over_open_ground,
    enemies_of,
    field_of,
    measure_moves,
    measured,
    move_advances,
    move_facts,
    nearest_enemy,
    not_surely_advancing,
    passes_nearer,
    place_of,
    proposed,
    table_of,
    wanted,
)
from smoothbore.mckie_acw.units import Arm, Formation
from smoothbore.table import ImpassableError, Table, TerrainKind, route
from tests.mckie_acw.support import B, at, foot, guns
from tests.mckie_acw.test_situations import battle


def fresh(state: State) -> State:
    """The same state on a copy of its table with nothing worked out yet (nor kept for its
    footprints: the state's table keeps what it was given, the copy starts afresh)."""
    return with_extra(state, table=attrs.evolve(table_of(state)))  # a new line: new stores


@functools.cache
def states() -> tuple[State, ...]:
    """States of random battles on both embedded tables, in the steps that measure (every
    movement step, every charge and firing step)."""
    out = []
    for make in (example_battle, sharpshooters_battle):
        for seed in (3, 11):
            state = make(seed)
            policy = random_policy(seed)
            while not TURN.is_over(state):
                actions = TURN.legal_actions(state)
                if state.phase in (MOVEMENT, CHARGES, FIRING):
                    out.append(state)
                state, _ = TURN.step(state, policy(state, actions))
    return tuple(out)


def movement_states() -> list[State]:
    return [s for s in states() if s.phase == MOVEMENT][::3]


def test_the_random_battles_give_states_to_measure() -> None:
    assert len(movement_states()) > 40
    assert len([s for s in states() if s.phase == FIRING]) > 20


def test_offered_moves_agree_with_each_move_measured_alone() -> None:
    """Every move proposed to every unit free to act, measured at its place (the places are
    shared by the states where the unit stands there, the crossings and distances by the
    states where the other units stand where they stood) and afresh, alone, on a copy of
    the table: the same facts, or the same refusal."""
    compared = refused = advancing = 0
    for state in movement_states():
        alone = fresh(state)
        for unit in state.derived(free_units).values():
            moves, wants = proposed(state, unit)
            assert {(m.to, m.manoeuvre, m.double) for m in moves} == wants
            place = place_of(state, unit)
            around = _around(state, unit.id)
            for want in sorted(wants, key=repr):
                to, m, double = want
                reference = measured(alone, unit, to, m, double)
                found = place.facts(want, around)
                assert found == reference
                try:
                    ahead = move_advances(state, unit, to, m, double, "move")
                except IllegalActionError:
                    assert not isinstance(reference, MoveFacts)
                    refused += 1
                    continue
                assert isinstance(reference, MoveFacts) and ahead == reference.advancing
                assert move_facts(state, unit, to, m, double, "move") == reference
                compared += 1
                advancing += reference.advancing
    assert compared > 500 and refused > 50 and advancing > 50


def test_a_place_answers_as_a_new_one_wherever_the_others_stand() -> None:
    """The place kept for a unit standing still answers, on every state of the battles, as
    a place made afresh for that state (its memos keyed by the other units' footprints)."""
    kept = 0
    for state in movement_states():
        table = table_of(state)
        for unit in state.derived(free_units).values():
            place = place_of(state, unit)
            new = Place(field_of(table), table.footprint(unit.id), Mover.of(unit),
                        state.options.tables)
            kept += bool(place.crossing)  # asked on an earlier state
            around = _around(state, unit.id)
            others, boxes, enemies = _around(fresh(state), unit.id)
            assert around[0] == others and around[2] == enemies
            assert around[1].tolist() == boxes.tolist()  # the bounds, row by row
            assert proposed(state, unit) == proposed(fresh(state), unit)
            for want in sorted(proposed(state, unit)[1], key=repr):
                assert place.verdict(want, around) == new.verdict(want, around)
    assert kept > 20


def test_the_listed_moves_are_those_measured_alone_allow() -> None:
    for state in movement_states():
        listed = set(a for a in TURN.legal_actions(state) if isinstance(a, Move) and a.to)
        expected = set()
        alone = fresh(state)
        table = table_of(state)
        for unit in state.derived(free_units).values():
            if unit.resting:
                continue
            fp = table.footprint(unit.id)
            full = rate(unit, state.options.tables)
            wants = wanted(fp.x, fp.y, fp.facing, fp.length, full,
                           max_move(unit, Manoeuvre.FACE, double=False, dense_woods=False,
                                    formation=None, tables=state.options.tables,
                                    action="face"),
                           nearest_enemy(table, fp))
            measure_moves(alone, [(unit, to, m, d) for to, m, d in wants])
            for to, m, d in wants:
                facts = measured(alone, unit, to, m, d)
                if isinstance(facts, MoveFacts) and (
                        not (facts.advancing or passes_nearer(state, unit, to))  # M34
                        or may_advance(state, unit)):
                    expected.add(Move(unit.id, None, double=d, manoeuvre=m, to=to,
                                      at=(fp.x, fp.y, fp.facing)))
        assert listed == expected


def test_move_facts_of_a_destination_not_offered_is_measured_alone() -> None:
    state = movement_states()[0]
    unit = next(iter(state.derived(free_units).values()))
    fp = table_of(state).footprint(unit.id)
    to = (fp.x + 7.5, fp.y + 3.25, fp.facing)
    assert (to, Manoeuvre.NONE, False) not in proposed(state, unit)[1]
    facts = move_facts(state, unit, to, Manoeuvre.NONE, False, "move")
    assert facts == measured(fresh(state), unit, to, Manoeuvre.NONE, False)
    assert facts.distance == math.ceil(math.hypot(7.5, 3.25))


def _alone_table(field: Field, x: float, y: float) -> Table:
    from smoothbore.table import Footprint, Measure
    return Table(field.width, field.depth, Measure.MILLIMETRES, field.features,
                 (Footprint("move", x, y, 0.0, 1, 1e-3, 1e-3),))


def test_a_move_over_open_ground_costs_what_the_route_finds() -> None:
    """Random straight moves all over the field, and across Kelly's fence (280-580 mm
    along y = 460): where the move touches no terrain, or crosses only the fence, its cost
    is worked out without a route, and is the route's to the last bit."""
    field = field_of(table_of(example_battle(0)))
    rng = random.Random(5)
    found = {"open": 0, "fence": 0, "at the fence": 0, "route": 0}
    for i in range(600):
        if i % 2:
            x0, y0 = rng.uniform(1, 1199), rng.uniform(1, 799)
        else:
            x0, y0 = rng.uniform(250, 610), rng.choice([460.0, rng.uniform(330, 590)])
        x1, y1 = x0 + rng.uniform(-150, 150), y0 + rng.uniform(-150, 150)
        if not (0 < x1 < 1200 and 0 < y1 < 800):
            continue
        length = math.hypot(x1 - x0, y1 - y0)
        path = route(_alone_table(field, x0, y0), "move", (x1, y1))
        for rates in (FOOT_RATES, MOUNTED_RATES):
            try:
                cost = rates.cost(path, _alone_table(field, x0, y0), 120.0)
            except ImpassableError:
                cost = None
            woods = any(TerrainKind.DENSE_WOODS in leg.kinds for leg in path.legs)
            quick = _over_open_ground(field, x0, y0, x1, y1, length, rates, 120.0)
            if quick is None:  # touching an area or a stream, or two lines: the route decides
                found["route"] += 1
                continue
            assert quick == (cost, woods)
            if _in_the_open(field, x0, y0, x1, y1):
                found["open"] += 1
                assert cost == length and not path.passages
            elif path.passages:
                found["fence"] += 1
                assert cost == length + 30.0  # a quarter of the 120 mm move
            else:
                found["at the fence"] += 1
                assert y0 == 460.0 and cost == length
    assert min(found.values()) > 0 and found["fence"] > 50 and found["open"] > 100


@pytest.mark.parametrize("phase", [FIRING])
def test_shots_measured_a_few_at_a_time_agree_with_all_at_once(phase: str) -> None:
    compared = 0
    for state in [s for s in states() if s.phase == phase]:
        table = table_of(state)
        every = shots(attrs.evolve(table))
        alone = fresh(state)
        for (firer, target), shot in sorted(every.items())[::4]:
            assert shot_facts(alone, firer, target) == shot
            compared += 1
    assert compared > 100


def test_a_target_beyond_reach_is_never_one_in_reach() -> None:
    skipped = kept = 0
    for state in [s for s in states() if s.phase == FIRING]:
        for (firer, target), shot in shots(attrs.evolve(table_of(state))).items():
            for reach in (100, 200, 320, 370):
                if beyond_reach(state, firer, target, reach):
                    assert shot.range > reach
                    skipped += 1
                else:
                    kept += 1
    assert skipped > 100 and kept > 20


def test_charges_measured_one_at_a_time_agree_with_all_at_once() -> None:
    compared = apart = 0
    for state in [s for s in states() if s.phase == CHARGES][::2]:
        every = charge_lines(attrs.evolve(table_of(state)))
        alone = fresh(state)
        for (charger, target), facts in every.items():
            assert charge_facts(alone, charger, target) == facts
            compared += 1
            unit = state.unit(charger)
            reach = rate(unit, state.options.tables) if unit.arm is not Arm.ARTILLERY else 300
            if surely_apart(state, charger, target, reach):
                assert not facts.reaches(reach)
                apart += 1
    assert compared > 100 and apart > 50


def test_ends_are_bounded_and_cornered_as_the_footprints_moved_there() -> None:
    rng = random.Random(8)
    for state in movement_states()[:10]:
        for fp in table_of(state).footprints:
            poses = [(fp.x + rng.uniform(-200, 200), fp.y + rng.uniform(-200, 200),
                      rng.choice([fp.facing, rng.uniform(0, 360), 45.0, 180.0]))
                     for _ in range(6)]
            corners = _corners(fp, poses)
            for pose, found in zip(poses, corners, strict=True):
                moved = fp.moved_to(*pose)
                assert (found == moved.corners).all()
                assert _bounds(fp, *pose) == moved.bounds


def test_ground_in_the_open_is_found_as_the_terrain_finds_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Footprints all over the field: the ground measured asking only the terrain near the
    footprint (its areas by their bounds, its obstacles within 20 mm) is the ground measured
    asking all of it."""
    from smoothbore.mckie_acw import positions
    table = table_of(example_battle(0))
    rng = random.Random(2)
    fps = []
    for fp in table.footprints:
        for _ in range(40):
            moved = fp.moved_to(rng.uniform(60, 1140), rng.uniform(60, 740),
                                rng.uniform(0, 360))
            if table.holds(moved):
                fps.append(moved)
    arms = [Arm.FOOT, Arm.CAVALRY]
    quick = [positions.ground_at(table, fp, arm) for fp in fps for arm in arms]
    near = [positions._nearby(table.terrain, fp) for fp in fps]
    opened = sum(near == ([], []) for near in near)
    everything = (list(range(len(table.terrain.areas))), list(range(len(table.terrain.lines))))
    monkeypatch.setattr(positions, "_nearby", lambda terrain, fp: everything)
    assert quick == [positions.ground_at(table, fp, arm) for fp in fps for arm in arms]
    assert 50 < opened < len(fps) and len(set(quick)) >= 3
    assert {(bool(a), bool(b)) for a, b in near} == {(False, False), (True, False),
                                                     (False, True), (True, True)}
    woods = {k for k, f in enumerate(table.terrain.area_features)
             if f.kind in (TerrainKind.DENSE_WOODS, TerrainKind.LIGHT_WOODS)}
    assert any(a and not woods & set(a) for a, _ in near)  # areas without woods: no outline


def test_what_a_table_keeps_answers_as_a_fresh_table() -> None:
    """On every state of the random battles, the moves offered (kept on the table for each
    unit), the table kept in step with the units (the units and commanders last found in
    step), and a move made (the table's placed footprint) are those of a copy of the table
    with nothing kept."""
    moved = 0
    for state in states():
        alone = fresh(state)
        assert synced(state) is state  # every handler leaves the state in step
        again = synced(alone)
        assert again.extra.table == table_of(state) and again.units == state.units
        if state.phase != MOVEMENT:
            continue
        offered = list(candidates_move(state))
        assert offered == list(candidates_move(state)) == list(candidates_move(alone))
        table = table_of(state)
        for unit in state.derived(free_units).values():  # the proposals worked out afresh
            fp = table.footprint(unit.id)
            wants = wanted(fp.x, fp.y, fp.facing, fp.length, rate(unit, state.options.tables),
                           max_move(unit, Manoeuvre.FACE, double=False, dense_woods=False,
                                    formation=None, tables=state.options.tables,
                                    action="face"),
                           nearest_enemy(table, fp))
            moves = tuple(Move(unit.id, None, double=d, manoeuvre=m, to=to,
                               at=(fp.x, fp.y, fp.facing)) for to, m, d in wants)
            assert repr(proposed(state, unit)[0]) == repr(moves)
            if not unit.resting:
                mine = {a for a in offered if a.unit == unit.id and a.to is not None}
                assert mine == (set(moves) if may_advance(state, unit) else set(
                    not_surely_advancing(fp, moves, enemies_of(state, unit.id))))
        for move in offered[::7]:
            if move.to is None:
                continue
            try:
                after, _ = TURN.step(state, move)
            except IllegalActionError:
                continue
            again = TURN.step(fresh(state), move)[0]
            assert after == again and after.extra.table == again.extra.table
            moved += 1
    assert moved > 50


def test_a_move_passed_over_as_surely_advancing_advances() -> None:
    """The moves not offered to a unit that may not advance (surely advancing, in plain
    arithmetic) are refused, or advance, measured alone; and some are kept that advance."""
    dropped = kept = 0
    for state in movement_states():
        alone = fresh(state)
        for unit in state.derived(free_units).values():
            offered = set(not_surely_advancing(table_of(state).footprint(unit.id),
                                               proposed(state, unit)[0],
                                               enemies_of(state, unit.id)))
            for move in proposed(state, unit)[0]:
                assert move.to is not None
                facts = measured(alone, unit, move.to, move.manoeuvre, move.double)
                if move not in offered:
                    assert not isinstance(facts, MoveFacts) or facts.advancing
                    dropped += 1
                elif isinstance(facts, MoveFacts) and facts.advancing:
                    kept += 1
    assert dropped > 100 and kept > 20


def test_what_is_kept_for_the_footprints_is_shared_by_a_table_a_general_rides_off() -> None:
    """A general who rides makes a new table with every unit where it stood: it shares what
    was kept for the footprints (the moves offered, the places), and offers what a copy
    with nothing kept offers; a table where a unit stands elsewhere keeps its own."""
    from smoothbore.mckie_acw.positions import footprint_boxes as _boxes
    shared = 0
    for state in movement_states():
        table = table_of(state)
        if not table.commanders:
            continue
        offered = list(candidates_move(state))
        mark = table.commanders[0]
        ridden, again = (table.with_commanders(attrs.evolve(
            mark, attached_to=None, x=mark.x + step, y=mark.y + step)) for step in (1.0, 2.0))
        assert ridden.footprints is table.footprints and ridden != again
        assert kept(ridden, _boxes) is kept(again, _boxes)
        after = with_extra(state, table=ridden)
        assert list(candidates_move(after)) == offered == list(candidates_move(fresh(after)))
        assert list(candidates_move(with_extra(state, table=again))) == offered
        fp = table.footprints[0]
        moved = table.placed(fp.moved_to(fp.x, fp.y, fp.facing + 90.0))
        assert kept(moved, _boxes) is not kept(table, _boxes)
        shared += 1
    assert shared > 20


def test_the_table_kept_in_step_lays_each_unit_in_its_shape() -> None:
    """After a formation change (a footprint re-laid by the table seam's ``keep_in_step``
    with McKie's ``RULES``, the engine's ``after`` hook): every unit on the table has the
    footprint its formation, mount, limber and strength give, and the table is the one a
    copy with nothing kept makes."""
    relaid = 0
    for state in movement_states():
        changes = [m for m in candidates_move(state)
                   if m.manoeuvre is Manoeuvre.CHANGE_FORMATION][:2]
        for move in changes:
            try:
                after, _ = TURN.step(state, move)
            except IllegalActionError:
                continue
            table = table_of(after)
            assert synced(after) is after
            assert synced(with_extra(fresh(after), table=attrs.evolve(
                table_of(state)))).extra.table == table
            tables = after.options.tables
            for unit in after.units:
                if unit.id in table.units:
                    assert positions.unit_shape(unit, tables).matches(table.footprint(unit.id))
            assert table.footprint(move.unit).formation.value != table_of(state).footprint(
                move.unit).formation.value
            relaid += 1
    assert relaid > 20


def test_the_rectangles_distance_is_shapelys() -> None:
    """The distance between two outlines in plain arithmetic (``Place.advances`` decides on
    it where the answer is clear by more than a hair) is Shapely's, to rounding: apart,
    touching, crossing and one inside the other."""
    from smoothbore.mckie_acw.table_moves import _rect_distance, _rect_of
    from smoothbore.table import Footprint
    rng = random.Random(5)
    met = 0
    for _ in range(3000):
        a, b = (Footprint(uid, rng.uniform(0, 300), rng.uniform(0, 300),
                          rng.choice([0.0, 90.0, rng.uniform(0, 360)]), rng.randint(1, 8),
                          rng.uniform(5, 40), rng.uniform(5, 30)) for uid in "ab")
        exact = float(shapely.distance(a.outline, b.outline))
        assert abs(_rect_distance(_rect_of(a), _rect_of(b)) - exact) < 1e-9
        met += exact == 0.0
    assert 100 < met < 2900


def test_a_formation_change_may_not_lay_a_unit_on_another() -> None:
    # a1, a line of 16 (96 x 24 mm) at (300, 100): y 88 to 112. a2, a column of 16 (48 x 48
    # mm) at (300, 140): y 116 to 164. In column a1 would be 48 x 48 about its centre, y 76
    # to 124, on a2; in skirmish order 282 x 12 mm (16 bases, 15 gaps of 6), y 94 to 106.
    state = at(battle({foot("a1"): (300, 100, 0),
                       foot("a2", formation=Formation.COLUMN): (300, 140, 0),
                       foot("b1", B): (300, 350, 180)}), MOVEMENT)
    changes = {m.formation: m for m in TURN.legal_actions(state) if isinstance(m, Move)
               and m.unit == "a1" and m.manoeuvre is Manoeuvre.CHANGE_FORMATION}
    assert set(changes) == {Formation.SKIRMISH}
    column = attrs.evolve(changes[Formation.SKIRMISH], formation=Formation.COLUMN)
    with pytest.raises(IllegalActionError, match="would stand on a2"):
        TURN.step(state, column)
    after, _ = TURN.step(state, changes[Formation.SKIRMISH])
    table = after.extra.table
    assert table is not None and table.footprint("a1").width == 282


@pytest.mark.parametrize(("y", "reaches"), [(250, True), (254, False)])
def test_helpers_come_only_from_a_unit_within_a_move_of_the_battery(y: float,
                                                                    reaches: bool) -> None:
    # the gun model (30 x 40 mm) at (300, 100): its far edge y = 120. a1, a line (24 mm deep,
    # a move of 120 mm) at y = 250 stands 118 mm off it, at y = 254 122 mm (M11)
    state = at(battle({guns("g"): (300, 100, 180), foot("a1"): (300, y, 180),
                       foot("b1", B): (300, 380, 180)}), MOVEMENT)
    offered = AttachHelpers("g", "a1", 1) in TURN.legal_actions(state)
    assert offered is reaches
    if not reaches:
        with pytest.raises(IllegalActionError, match="beyond a move \\(120 mm\\) of g"):
            TURN.step(state, AttachHelpers("g", "a1", 1))
    else:
        assert TURN.step(state, AttachHelpers("g", "a1", 1))[0].unit("g").helpers == 1


def test_the_ground_alone_is_measured_on_the_battles_terrain_index() -> None:
    """A route over the ground alone is found on a table with the centre alone on it that
    shares the battle's terrain index (``Table.on_same_ground``; a fresh ``Table`` builds its
    own index), and the terrain's bounds are read from that index: the same places in the
    same order as its areas and crossed lines."""
    from smoothbore.mckie_acw import table_moves
    from smoothbore.table import Footprint

    table = table_of(example_battle(0))
    field = field_of(table)
    marker = Footprint("move", 300.0, 400.0, 0.0, 1, 1e-3, 1e-3)
    alone = table_moves._alone(field, marker)
    assert alone.terrain is table.terrain
    assert alone.footprints == (marker,) and (alone.width, alone.depth) == (1200, 800)
    boxes, places, (areas, lines) = table_moves._boxes_of(field)
    terrain = table.terrain
    assert (areas, lines) == (len(terrain.areas), terrain.crossed_features)
    assert len(boxes) == len(places) == len(terrain.areas) + len(terrain.lines) > 3
    assert [p.bounds for p in places] == [tuple(b) for b in
                                          shapely.bounds(list(terrain.areas)
                                                         + list(terrain.lines)).tolist()]
