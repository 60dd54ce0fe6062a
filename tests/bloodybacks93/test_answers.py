"""Answers kept across the tables of a battle in the table's stores (``answers``; the table
seam, issue 29; B58): on states of random battles they equal the answers worked out afresh on
an unremembered copy of the table (a new table starts its own stores), a unit moved into the
way of a kept answer changes it, and nothing is kept outside a battle's line of tables."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

from smoothbore.battle import RandomPolicy, play
from smoothbore.bloodybacks93 import TURN, answers, situations, steps_units
from smoothbore.bloodybacks93.placement import refit
from smoothbore.bloodybacks93.scenarios import example_battle
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.state import State, new_battle
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Commander, Formation, Unit
from smoothbore.core import InvalidValueError
from smoothbore.table import CommanderMark, Edge, Feature, Footprint, Table, TerrainKind


def _states(seeds: range, every: int) -> Iterator[State]:
    """Every ``every``-th state of random battles on the embedded table."""
    for seed in seeds:
        state = example_battle(seed)
        played = play(TURN, state, RandomPolicy(seed))
        for n, step in enumerate(played.steps):
            state, _ = TURN.step(state, step.action)
            if n % every == 0:
                yield state


def _answers(state: State) -> dict[str, object]:
    """Every kept question asked of the state's table, for every unit on it."""
    table = state.extra.table
    assert table is not None
    found: dict[str, object] = {}
    for unit_id in table.unit_ids:
        unit = state.unit(unit_id)
        found[f"woods {unit_id}"] = situations.stands_in_woods(state, unit_id)
        found[f"sight {unit_id}"] = {
            t: (s.distance, s.angle, s.in_arc, s.line_clear, s.blocked_by, s.units_between,
                s.cover, s.face, s.line.wkt, situations.ground_between(table, s))
            for t, s in situations.seen_by(table, unit_id).items()}
        shapes = ((Formation.LIMBERED, Formation.UNLIMBERED) if unit.is_artillery
                  else (Formation.DEPLOYED, Formation.COLUMN))
        for formation in shapes:
            found[f"refit {unit_id} {formation}"] = situations.refit_blocked(
                table, attrs.evolve(unit, formation=formation))
        if unit.gone:
            continue
        found[f"proposed {unit_id}"] = situations.proposed(state, unit_id)
        found[f"moves {unit_id}"] = steps_units._proposed_moves(state, table, unit)
        found[f"near {unit_id}"] = situations.enemies_near(table, unit_id, 16)
        offered = situations.destinations(state, unit_id)
        found[f"destinations {unit_id}"] = offered
        for to in offered:
            plan = situations.planned(state, unit_id, to)
            found[f"plan {unit_id} {to}"] = (plan.end, plan.facts, plan.wheel, plan.cost,
                                             plan.route.points, plan.route.length)
    return found


def _afresh(state: State) -> dict[str, object]:
    """The answers worked out with nothing remembered: an empty store, a copy of the table
    with nothing derived."""
    table = state.extra.table
    assert table is not None
    return _answers(state.with_extra(table=attrs.evolve(table)))


def test_kept_answers_equal_answers_worked_out_afresh() -> None:
    compared = 0
    for state in _states(range(4), 7):
        kept = _answers(state)
        assert kept == _afresh(state)
        compared += len(kept)
    assert compared > 500


BASE_TABLE = Table(48, 48, home_edges={BRITISH: Edge.NEAR, AMERICAN: Edge.FAR})


def _battle(places: dict[str, tuple[float, float, float]],
            features: tuple[Feature, ...] = ()) -> State:
    units = (Unit("b1", "b1", BRITISH, size=6, density=6),
             Unit("b2", "b2", BRITISH, size=6, density=6),
             Unit("a1", "a1", AMERICAN, size=6, density=6))
    leaders = (Commander("cb", "Webster", BRITISH, attached_to="b1"),
               Commander("ca", "Stevens", AMERICAN, attached_to="a1"))
    table = attrs.evolve(BASE_TABLE, features=features, footprints=tuple(
        Footprint(u, *p, side=BRITISH if u[0] == "b" else AMERICAN) for u, p in places.items()))
    return new_battle(units, leaders, table=table)


def test_a_friend_moved_into_the_way_changes_the_moves_offered() -> None:
    # b1 moves 6" (12 - density 6) at most: full 6" ahead to y 16, half to 13, back to 7
    clear = _battle({"b1": (20, 10, 0), "b2": (40, 10, 0), "a1": (20, 40, 180)})
    assert (20.0, 16.0, 0) in situations.destinations(clear, "b1")
    # b2 now stands 4" ahead of b1: the full move would end on it, the half move not
    blocked = _battle({"b1": (20, 10, 0), "b2": (20, 16, 0), "a1": (20, 40, 180)})
    offered = situations.destinations(blocked, "b1")
    assert (20.0, 16.0, 0) not in offered and (20.0, 13.0, 0) in offered
    # a friend far beyond b1's reach, moved on the same line of tables, changes nothing: the
    # same answer object is kept in the ground store
    table = clear.extra.table
    assert table is not None
    far = clear.with_extra(table=table.placed(table.footprint("b2").moved_to(40, 30)))
    assert situations.destinations(far, "b1") is situations.destinations(clear, "b1")


def test_a_friend_stepping_between_blocks_a_sight_kept_clear() -> None:
    clear = _battle({"b1": (20, 10, 0), "b2": (40, 10, 0), "a1": (20, 20, 180)})
    table = clear.extra.table
    assert table is not None and situations.seen_by(table, "b1")["a1"].line_clear
    between = _battle({"b1": (20, 10, 0), "b2": (20, 15, 0), "a1": (20, 20, 180)})
    inner = between.extra.table
    assert inner is not None
    seen = situations.seen_by(inner, "b1")["a1"]
    assert not seen.line_clear and seen.units_between == ("b2",)


def test_a_new_formation_blocked_by_a_friend_is_not_answered_from_an_open_table() -> None:
    column = attrs.evolve(Unit("b1", "b1", BRITISH, size=24, density=6),
                          formation=Formation.COLUMN)  # 4 bases one behind another
    clear = _battle({"b1": (20, 10, 0), "b2": (40, 10, 0), "a1": (20, 40, 180)})
    table = clear.extra.table
    assert table is not None and situations.refit_blocked(table, column) == ""
    # b2 right behind b1: the column's rear bases would stand on it
    behind = _battle({"b1": (20, 10, 0), "b2": (20, 8, 0), "a1": (20, 40, 180)}).extra.table
    assert behind is not None
    assert refit(column, behind.footprint("b1")).bounds[1] < 8
    assert "overlap b2" in situations.refit_blocked(behind, column)


def test_no_answer_is_kept_outside_a_battles_line_of_tables() -> None:
    """Two battles on the same ground share no store (before issue 29 a process-wide store
    per ground did); a table moved from another keeps its stores, and counts its hits."""
    places = {"b1": (20.0, 10.0, 0.0), "b2": (40.0, 10.0, 0.0), "a1": (20.0, 40.0, 180.0)}
    one, two = _battle(places), _battle(places)
    first, second = one.extra.table, two.extra.table
    assert first is not None and second is not None
    offered = situations.destinations(one, "b1")
    assert situations.destinations(two, "b1") is not offered  # worked out again
    assert situations.destinations(two, "b1") == offered
    counts = {c.name: c for c in first.stores()}
    assert {n for n in counts if n.startswith("bloodybacks93")} == {answers.LAYOUT,
                                                                  answers.GROUND}
    layout_misses = counts[answers.LAYOUT].misses
    ridden = first.with_commanders(CommanderMark("cb", 30.0, 5.0, side=BRITISH))
    assert situations.destinations(one.with_extra(table=ridden), "b1") is offered
    after = {c.name: c for c in ridden.stores()}[answers.LAYOUT]
    assert (after.misses, after.hits) == (layout_misses, counts[answers.LAYOUT].hits + 1)


def _count(table: Table) -> list[str]:
    """A query that records being asked (a new list each time it is worked out)."""
    return [f.unit_id for f in table.footprints]


def test_answers_are_kept_per_layout_whatever_the_commanders() -> None:
    state = _battle({"b1": (20, 10, 0), "b2": (40, 10, 0), "a1": (20, 40, 180)})
    table = state.extra.table
    assert table is not None
    first = answers.per_layout(table, "count", None, lambda: _count(table))
    ridden = table.with_commanders(CommanderMark("cb", 30.0, 5.0, side=BRITISH))
    assert ridden != table
    assert answers.per_layout(ridden, "count", None, lambda: _count(ridden)) is first
    moved = table.placed(table.footprint("b2").moved_to(40.0, 12.0))
    again = answers.per_layout(moved, "count", None, lambda: _count(moved))
    assert again == first and again is not first


def test_the_command_points_spent_made_once_equal_those_made_afresh() -> None:
    # the candidates with the lru-kept actions against the same candidates made afresh (the
    # kept function unwrapped), on states of random battles
    compared = 0
    for state in _states(range(3), 1):
        kept = list(steps_units.candidates_spend_command_point(state))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(steps_units, "command_points_spent",
                          steps_units.command_points_spent.__wrapped__)
            assert list(steps_units.candidates_spend_command_point(state)) == kept
        compared += len(kept)
    assert compared > 400


def test_the_manoeuvres_made_once_equal_those_made_afresh() -> None:
    compared = 0
    for state in _states(range(2), 5):
        for unit in state.units:
            facts = (unit.id, unit.is_artillery, unit.formation, unit.density,
                     unit.based_density)
            assert steps_units.manoeuvres(*facts) == steps_units.manoeuvres.__wrapped__(*facts)
            compared += 1
    assert compared > 100


def test_what_a_firer_sees_is_the_same_asked_pair_by_pair_or_all_at_once() -> None:
    compared = 0
    for state in _states(range(2), 9):
        table = state.extra.table
        assert table is not None
        for unit_id in table.unit_ids:
            fresh = attrs.evolve(table)
            one_by_one = {t: situations.seen_of(fresh, unit_id, (t,))[t]
                          for t in reversed(fresh.enemies_of(unit_id))}
            assert one_by_one == situations.seen_by(table, unit_id)
            compared += len(one_by_one)
    assert compared > 100


def test_the_shots_made_once_equal_those_made_afresh() -> None:
    compared = 0
    for state in _states(range(2), 5):
        table = state.extra.table
        assert table is not None
        for entry in state.extra.activated:
            unit = state.unit(entry.unit_id)
            lines = tuple(dict.fromkeys(f for f, _, _ in steps_units.shooting.bands(unit)))
            if unit.gone or not lines:
                continue
            for enemy in table.enemies_of(unit.id):
                facts = (unit.id, enemy, entry.actions, lines)
                made = steps_units._proposed_shots(*facts)
                assert made == steps_units._proposed_shots.__wrapped__(*facts)
                cheapest = min(steps_units.shooting.TARIFF[f].cost for f in lines)
                offered = {enemy} if entry.actions >= cheapest else set()
                assert {s.target_id for s in made} == offered
                compared += len(made)
    assert compared > 50


def test_the_ground_between_a_pair_is_what_its_sighting_says() -> None:
    # ground_between (firer in heavier woods, the line's inches in them, the rise) against
    # the Sighting of the same pair, with units walked through and around Big Wood (7-17 x
    # 22-28) and the rise (29-43 x 7-13) of the embedded table; and the line seen_of keeps
    # equals the Sighting's own fields
    base = example_battle(0).extra.table
    assert base is not None
    woods = rises = in_woods = 0
    for x, y, facing in [(x, y, f) for x in (9.0, 12.0, 15.0, 24.0) for y in (17.0, 25.0, 31.0)
                         for f in (0.0, 180.0)]:
        try:
            table = base.placed(base.footprint("a1").moved_to(x, y, facing),
                                base.footprint("b1").moved_to(12.0 + (x - 12.0) / 2,
                                                              y + (6.0 if facing else -6.0),
                                                              (facing + 180.0) % 360.0))
        except InvalidValueError:
            continue
        for (firer, target), whole in situations.sightings_of(table).items():
            seen = situations.seen_of(table, firer, (target,))[target]
            ground = situations.ground_between(table, seen)
            assert ground == situations.GroundBetween(
                whole.firer_cover.stands_in(TerrainKind.DENSE_WOODS),
                whole.woods_length(TerrainKind.DENSE_WOODS), whole.rise)
            assert (seen.distance, seen.angle, seen.in_arc, seen.line_clear, seen.blocked_by,
                    seen.units_between, seen.face, seen.cover, seen.line.wkt) == (
                whole.distance, whole.angle, whole.in_arc, whole.line_clear, whole.blocked_by,
                whole.units_between, whole.face, whole.cover, whole.line.wkt)
            woods += ground.woods_inches > 0
            rises += ground.rise != 0
            in_woods += ground.firer_in_woods
    assert woods > 5 and rises > 5 and in_woods > 5


def test_the_terrain_bounds_kept_for_a_ground_are_its_own() -> None:
    # kept per ground: after the embedded table's ground is asked, a table of another ground
    # (no woods, one wall) gets its own bounds, each equal to those worked out afresh
    embedded = example_battle(0).extra.table
    assert embedded is not None
    wall = Feature("wall", TerrainKind.WALL, line=((10.0, 30.0), (30.0, 30.0)))
    other = attrs.evolve(embedded, features=(wall,))
    for table in (embedded, other, attrs.evolve(embedded)):
        assert situations._terrain_bounds(table) == situations._feature_bounds(table)
    assert len(situations._terrain_bounds(embedded)) == 7
    assert situations._terrain_bounds(other) == ((10.0, 30.0, 30.0, 30.0),)


def test_the_enemies_near_kept_per_layout_are_those_worked_out_afresh() -> None:
    # kept by unit and reach: asked at a short, a middling and a long reach in turn, each
    # answer is the direct filter of out_of_shot; the reaches give different answers
    differ = compared = 0
    for state in _states(range(2), 7):
        table = state.extra.table
        assert table is not None
        for unit_id in table.unit_ids:
            answers = []
            for reach in (4.0, 16.0, 40.0):
                fresh = tuple(e for e in table.enemies_of(unit_id)
                              if not situations.out_of_shot(table, unit_id, e, reach))
                assert situations.enemies_near(table, unit_id, reach) == fresh
                answers.append(fresh)
                compared += 1
            differ += len(set(answers)) > 1
    assert compared > 100 and differ > 10


def test_the_shots_measured_once_per_layout_equal_those_measured_afresh() -> None:
    # kept by firer, target and the player's facts: each equals measured_shot on an
    # unremembered copy of the table, for plain facts, extra orders and a part of the unit
    compared = 0
    choices = (ShotFacts(), ShotFacts(extra_orders=1), ShotFacts(size=3))
    for state in _states(range(2), 7):
        table = state.extra.table
        assert table is not None
        for firer in table.unit_ids:
            near = situations.enemies_near(table, firer, 30)
            for target, seen in situations.seen_of(table, firer, near).items():
                for facts in choices:
                    kept = situations.shot_on_table(table, firer, target, facts, seen)
                    fresh = attrs.evolve(table)
                    assert kept == situations.measured_shot(fresh, firer, target, facts)
                    assert (kept.extra_orders, kept.size) == (facts.extra_orders, facts.size)
                    compared += 1
    assert compared > 100
