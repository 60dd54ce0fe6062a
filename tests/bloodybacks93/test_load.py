"""Issue 28, "Load held at 500 units a side", for Bloodybacks 9.3: the battle of
``benchmarks/load_bloodybacks93.py`` is a legal battle on a table; the candidates of a big
battle offer only what the checks may accept, and the table is asked of the pairs that can
matter only, with the answers of the full walk (counted calls and exact comparisons: speed
itself is the benchmark's business, never a clock here)."""

from __future__ import annotations

import functools
import importlib.util
import math
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import numpy as np
import pytest
import shapely

from smoothbore.bloodybacks93 import TURN, situations
from smoothbore.bloodybacks93 import command as command_rules
from smoothbore.bloodybacks93 import steps_charges as charges_steps
from smoothbore.bloodybacks93 import steps_units as units_steps
from smoothbore.bloodybacks93.actions import Activate, Charge, SpendCommandPoint
from smoothbore.bloodybacks93.answers import within
from smoothbore.bloodybacks93.phases import ACTIVATION
from smoothbore.bloodybacks93.state import (
    Activated,
    ActivityEntry,
    State,
    activity_of,
)
from smoothbore.bloodybacks93.units import UnitType
from smoothbore.bloodybacks93.validity import check_battle
from smoothbore.table import Footprint, Table, in_contact, touching_faces

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load_bloodybacks93.py"


@functools.cache
def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_bloodybacks93", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def big(units_a_side: int, seed: int = 0) -> State:
    battle: State = _load().big_battle(units_a_side, seed)
    return battle


def table_of(state: State) -> Table:
    table = state.extra.table
    assert table is not None
    return table


def with_points(state: State, points: int = 2) -> State:
    """The state with every commander's command points set to ``points`` (his activity
    level kept)."""
    return state.with_extra(activity=tuple(
        ActivityEntry(e.commander_id, e.level, points) for e in state.extra.activity))


def shuffled(state: State, seed: int, share: float = 0.3) -> Table:
    """The state's table with a ``share`` of its units moved up to 20" and turned at random
    (overlaps allowed: the bounds below read footprints, not the rules)."""
    table = table_of(state)
    rng = np.random.default_rng(seed)
    moved = []
    for footprint in table.footprints:
        if rng.random() < share:
            x = min(table.width - 8, max(8.0, footprint.x + rng.uniform(-20, 20)))
            y = min(table.depth - 8, max(8.0, footprint.y + rng.uniform(-20, 20)))
            moved.append(footprint.moved_to(x, y, float(rng.uniform(0, 360))))
    return table.placed(*moved)


# --- the load battle -------------------------------------------------------------------------
def test_the_load_battle_is_a_legal_battle_on_a_table_at_its_first_card() -> None:
    """``big_battle``: N units a side in brigades of line, grenadiers, a gun, riflemen and a
    troop of horse under their colonels, a commander-in-chief a side, on a table, at the
    first card of turn 1 that activates a commander; it passes the whole-battle check and
    round-trips through the loader; a new seed names new units."""
    module = _load()
    assert module.RULESET == "bloodybacks93"
    state = big(30, 3)
    check_battle(state)
    assert state.phase == ACTIVATION and state.turn == 1 and state.extra.active
    table = table_of(state)
    assert set(table.units) == {u.id for u in state.units}
    for side in state.sides:
        army = state.units_of(side)
        assert len(army) == 30
        assert Counter(u.kind for u in army) == {
            UnitType.INFANTRY: 20, UnitType.FIELD_ARTILLERY: 3, UnitType.LIGHT_ARTILLERY: 2,
            UnitType.CAVALRY: 5}
        chiefs = [c for c in state.commanders if c.side == side]
        assert sum(c.cinc for c in chiefs) == 1 and len(chiefs) == 6
        assert {u.brigade for u in army} == {c.brigade for c in chiefs if not c.cinc}
    assert TURN.load(state.to_json()) == state
    assert not {u.id for u in big(30, 4).units} & {u.id for u in state.units}
    with pytest.raises(ValueError, match="units_a_side"):
        module.big_battle(0)


def test_the_load_battle_fronts_stand_within_musket_range() -> None:
    """The front lines stand 14" apart, centre to centre (inside the musket's 16" band), and
    the table holds every footprint (Shooting: Musketry)."""
    state = big(60, 0)
    table = table_of(state)
    assert all(table.holds(f) for f in table.footprints)
    near = {round(f.y, 6) for f in table.footprints if f.side == "british"}
    far = {round(f.y, 6) for f in table.footprints if f.side == "american"}
    assert min(far) - max(near) == pytest.approx(14.0)


# --- lookups by id ----------------------------------------------------------------------------
def test_activity_is_found_by_id_as_a_walk_finds_it() -> None:
    """``activity_of`` gives what a walk through the activity entries gives (units and
    commanders are core's indexed ``state.unit`` and ``state.commander``: the book keeps no
    lookup of its own, issue 29)."""
    from smoothbore.bloodybacks93 import state as book_state

    state = big(30, 1)
    for leader in state.commanders:
        walked = next((e for e in state.extra.activity if e.commander_id == leader.id), None)
        assert activity_of(state, leader.id) == walked
    assert activity_of(state, "nobody") is None
    assert not hasattr(book_state, "unit_of") and not hasattr(book_state, "commander_of")


# --- candidates that the checks accept --------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_units_of_other_brigades_are_offered_only_near_the_commanders_radius(
        seed: int) -> None:
    """Command point tariff: a commander takes up a unit of another brigade for a point,
    within his radius (Command Radius: 24", 12" attached). With every active commander
    holding points, the Activate candidates of a big battle hold every legal one, in the
    same order, and of the units of other brigades only those whose centre lies within his
    radius and their half diagonal (a cheap bound: the check measures the nearest point),
    not the whole army."""
    state = with_points(big(60, seed))
    offered = list(units_steps.candidates_activate(state))
    legal = [a for a in TURN.legal_actions(state) if isinstance(a, Activate)]
    assert legal == [a for a in offered if TURN.is_legal(state, a)]
    card = state.extra.card
    assert card is not None
    waiting = [u for u in state.units if u.side == card.side]
    assert len(offered) < len(waiting) * len(state.extra.active) / 4
    table = table_of(state)
    others = 0
    for action in offered:
        assert action.commander_id is not None
        leader = state.commander(action.commander_id)
        if leader.brigade == state.unit(action.unit_id).brigade:
            continue
        others += 1
        footprint = table.footprint(action.unit_id)
        reach = command_rules.command_radius(leader)
        away = math.dist(table.commander_point(leader.id), footprint.centre)
        assert away <= reach + situations._radius(footprint) + situations._SLACK
    assert others  # some units of other brigades are offered


@pytest.mark.parametrize("seed", [0, 1])
def test_commanders_are_offered_the_units_near_their_move_only(seed: int) -> None:
    """Command point tariff, "move commander 12 inches, attaching or detaching": the joins
    offered hold every one the check accepts (each unit's nearest point within 12" of where
    he stands), in the same order, and only units whose centre lies within 12" and their
    half diagonal; the points he may ride to are those of the full walk."""
    state = with_points(big(60, seed))
    offered = [a for a in units_steps.candidates_spend_command_point(state)
               if a.attach_to is not None]
    legal = [a for a in TURN.legal_actions(state)
             if isinstance(a, SpendCommandPoint) and a.attach_to is not None]
    assert legal and legal == [a for a in offered if TURN.is_legal(state, a)]
    table = table_of(state)
    for commander_id in state.extra.active:
        where = table.commander_point(commander_id)
        leader = state.commander(commander_id)
        joined = {a.attach_to for a in legal if a.commander_id == commander_id}
        within_move = {u.id for u in state.units if u.side == leader.side
                       and _gap(table, u.id, where) <= command_rules.COMMANDER_MOVE + 1e-9
                       and leader.attached_to != u.id}
        assert joined == within_move
        for action in offered:
            if action.commander_id == commander_id and action.attach_to is not None:
                footprint = table.footprint(action.attach_to)
                assert math.dist(where, footprint.centre) <= (
                    command_rules.COMMANDER_MOVE + situations._radius(footprint) + 0.01)
        assert situations.commander_points(state, commander_id) == _points_walked(
            state, commander_id)


def _gap(table: Table, unit_id: str, point: tuple[float, float]) -> float:
    return float(shapely.distance(table.footprint(unit_id).shape, shapely.Point(*point)))


def _points_walked(state: State, commander_id: str) -> tuple[tuple[float, float], ...]:
    """``commander_points`` as the full walk makes them: every unit of his side measured."""
    table = table_of(state)
    leader = state.commander(commander_id)
    where = table.commander_point(commander_id)
    most = command_rules.COMMANDER_MOVE - situations._SHORT
    ours = [u.id for u in state.units if u.side == leader.side and u.id in table.units]
    brigade = [u for u in ours if state.unit(u).brigade == leader.brigade]
    targets: list[tuple[float, float]] = []
    if brigade:
        centres = [table.footprint(u).centre for u in brigade]
        middle = (sum(c[0] for c in centres) / len(centres),
                  sum(c[1] for c in centres) / len(centres))
        if math.dist(where, middle) > 1.0:
            targets.append(middle)
    for unit_id in ours if leader.cinc else brigade:
        if _gap(table, unit_id, where) > command_rules.COMMANDER_MOVE:
            targets.append(table.footprint(unit_id).centre)
    points = []
    for x, y in targets:
        share = min(1.0, most / math.dist(where, (x, y)))
        points.append((round(where[0] + (x - where[0]) * share, 3),
                       round(where[1] + (y - where[1]) * share, 3)))
    return tuple(dict.fromkeys(points))


def test_the_commander_in_chief_rides_towards_every_unit_too_far_to_join() -> None:
    """Command Radius; B60: the commander-in-chief commands his whole side, so he is offered
    a ride towards each of its units beyond his 12" move: the points of the full walk,
    every one of them, though only the units near him are measured."""
    state = big(60, 2)
    for chief in (c for c in state.commanders if c.cinc):
        points = situations.commander_points(state, chief.id)
        assert points == _points_walked(state, chief.id)
        assert len(points) > 50


# --- bounds over the layout's arrays ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_the_cheap_bounds_over_arrays_answer_as_the_pair_by_pair_walk(seed: int) -> None:
    """The enemies that may be in shot (``enemies_near``), that a charge may reach
    (``reachable``), the footprints meeting a box (``within``), the units whose nearest
    point may lie near a point (``near_point``) and the nearest enemy (``nearest_enemy``),
    asked over every unit at once, give the answers of the walk over each pair (B52, B56;
    Command Radius), on a table with a third of its units moved and turned at random."""
    state = big(40, seed)
    table = shuffled(state, seed)
    rng = np.random.default_rng(seed)
    ids = table.unit_ids
    for unit_id in rng.choice(ids, 12, replace=False).tolist():
        enemies = table.enemies_of(unit_id)
        for reach in (6.0, 16.0, 96.0):
            assert situations.enemies_near(table, unit_id, reach) == tuple(
                e for e in enemies if not situations.out_of_shot(table, unit_id, e, reach))
        for longest in (0.0, 8.0, 24.0):
            assert situations.reachable(table, unit_id, enemies, longest) == frozenset(
                e for e in enemies if situations.may_reach(table, unit_id, e, longest))
        near = situations.nearest_enemy(table, unit_id)
        gaps = {e: float(shapely.distance(table.footprint(unit_id).shape,
                                          table.footprint(e).shape)) for e in enemies}
        walked = min(gaps, key=lambda e: (gaps[e], e))
        assert near is not None and near[0] == table.footprint(walked)
        assert near[1] == gaps[walked]
        point = (float(rng.uniform(0, table.width)), float(rng.uniform(0, table.depth)))
        for reach in (12.0, 24.0):
            found = set(situations.near_point(table, point, reach))
            assert {u for u in ids if _gap(table, u, point) <= reach} <= found
        box = table.footprint(unit_id).bounds
        grown = (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)
        assert within(table, grown, (unit_id,)) == tuple(
            f for f in table.footprints if f.unit_id != unit_id
            and f.bounds[0] <= grown[2] and f.bounds[2] >= grown[0]
            and f.bounds[1] <= grown[3] and f.bounds[3] >= grown[1])


def test_near_point_leaves_out_only_units_beyond_the_reach() -> None:
    """``near_point`` is a bound: it may name a unit just beyond the reach (its centre near
    enough, its nearest point not), never leave out one within; at 500 units it names a
    handful."""
    state = big(100, 5)
    table = table_of(state)
    where = table.footprint(table.unit_ids[40]).centre
    found = situations.near_point(table, where, 12.0)
    assert 0 < len(found) < 20
    assert all(_gap(table, u, where) <= 12.0 + 2 * situations._radius(table.footprint(u))
               for u in found)


# --- charges and pushes asked of the pairs that matter ---------------------------------------
def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the pairs each call of ``situations.<name>`` is given (the wrapped table
    function still answers)."""
    asked: list[int] = []
    real = getattr(situations, name)

    def counted(table: Table, pairs: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(len(pairs))
        return real(table, pairs, *args, **kwargs)

    monkeypatch.setattr(situations, name, counted)
    return asked


def test_a_charge_is_measured_with_its_own_pairs_with_the_answers_of_every_pair(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Charges and melee (B56): measuring a charge asks the table's ``charges`` for the
    charger and target pairs of that charge only (not every enemy pair of the table), and
    their reaches are those of the walk over every pair (``reaches_of``); pairs of one side
    have none."""
    state = big(40, 1)
    table = shuffled(state, 1, share=0.0)
    everyone = situations.reaches_of(table)
    asked = _counting(monkeypatch, "charges")
    british = [f.unit_id for f in table.footprints if f.side == "british"][:6]
    american = [f.unit_id for f in table.footprints if f.side == "american"][:6]
    pairs = [(c, t) for c in british for t in american] + [(british[0], british[1])]
    found = situations.reaches_among(table, pairs)
    assert found == {p: everyone[p] for p in pairs if p in everyone}
    assert (british[0], british[1]) not in found
    assert asked == [36]
    assert situations.reaches_among(table, pairs[:5]) == {p: found[p] for p in pairs[:5]}
    assert asked == [36]  # kept with the layout: asked once


def _enemy_face_walked(state: State, table: Table, unit_id: str) -> Any:
    """``enemy_face`` as the walk over every enemy works it out (B57)."""
    from smoothbore.table import Face
    from smoothbore.table.footprints import bearing_vectors

    side = state.unit(unit_id).side
    enemies = tuple(u.id for u in state.units
                    if u.side != side and not u.destroyed and u.id in table.units)
    touched = [face for enemy in enemies if in_contact(table, unit_id, enemy)
               for face in touching_faces(table, unit_id, enemy)]
    if touched:
        return Face.FRONT if Face.FRONT in touched else touched[0]
    seen = [s for s in situations.seen_of(table, unit_id, enemies).values() if s.line_clear]
    if not seen:
        return None
    nearest = min(seen, key=lambda s: (s.distance, s.target))
    me, there = table.footprint(unit_id), table.footprint(nearest.target)
    forward, right = bearing_vectors(me.facing)
    dx, dy = there.x - me.x, there.y - me.y
    ahead = dx * forward[0] + dy * forward[1]
    aside = dx * right[0] + dy * right[1]
    if abs(ahead) >= abs(aside):
        return Face.FRONT if ahead >= 0 else Face.REAR
    return Face.RIGHT if aside > 0 else Face.LEFT


@pytest.mark.parametrize("seed", range(3))
def test_the_face_pushed_back_is_that_of_the_walk_over_every_enemy(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Morale: pushed back (B57): the face towards the enemy that pushes a unit back is the
    one the walk over every enemy finds (touching, else the nearest seen), on a table with
    units moved and turned at random; the sight of a few enemies is asked, nearest first,
    not that of the whole army."""
    state = big(40, seed)
    table = shuffled(state, seed + 10, share=0.5)
    placed = state.with_extra(table=table)
    rng = np.random.default_rng(seed)
    for unit_id in rng.choice(table.unit_ids, 10, replace=False).tolist():
        assert situations.enemy_face(placed, table, unit_id) == _enemy_face_walked(
            placed, table, unit_id)
    fresh = attrs.evolve(table)  # nothing kept for it yet
    asked = _counting(monkeypatch, "sight_lines")
    unit_id = table.unit_ids[0]
    situations.enemy_face(state.with_extra(table=fresh), fresh, unit_id)
    assert 0 < sum(asked) <= 32 < len(fresh.enemies_of(unit_id))


def test_footprints_keep_their_unit_ids_in_the_bounds_array() -> None:
    """``within`` reads the footprints in the table's order: its answer is footprints of
    the table, never copies."""
    table = table_of(big(20, 0))
    box = (0.0, 0.0, table.width, table.depth)
    assert within(table, box, ()) == table.footprints
    assert all(isinstance(f, Footprint) for f in within(table, box, ()))


def test_charges_at_a_crowded_front_are_offered_one_against_many_or_many_against_one(
        ) -> None:
    """Multiple unit melee (B13): eight units of the card's front line, activated together
    with the enemy's front line 7" nearer, may charge the enemy each in front of it: 18 legal
    charges, each one charger against its target (fought, pursuing or deferred), from 33
    candidates. Offering several against several too made 32,448 candidates and 2,016 legal
    charges here, and grew as the powers of two of the chargers."""
    state = big(60, 0)
    table = table_of(state)
    card = state.extra.card
    assert card is not None
    mine = [f for f in table.footprints if f.side == card.side]
    theirs = [f for f in table.footprints if f.side != card.side]
    front = (max if card.side == "british" else min)(f.y for f in mine)
    facing = (min if card.side == "british" else max)(f.y for f in theirs)
    table = table.placed(*[f.advanced(7.0) for f in theirs if f.y == facing])
    chargers = [f.unit_id for f in mine
                if f.y == front and not state.unit(f.unit_id).is_artillery][:8]
    crowded = state.with_extra(table=table, activated=tuple(
        Activated(u, "", 2) for u in chargers))
    offered = list(charges_steps.candidates_charge(crowded))
    legal = [a for a in TURN.legal_actions(crowded) if isinstance(a, Charge)]
    assert (len(offered), len(legal)) == (33, 18)
    assert legal == [a for a in offered if TURN.is_legal(crowded, a)]
    assert all(len(a.unit_ids) == 1 or len(a.target_ids) == 1 for a in offered)
