"""What a move carries from one table to the next (``carry``): every judgement of a move,
sighting and charge kept on the new table is the one worked out afresh there, on the
states of random battles (a zone drawn too small would keep a stale answer and fail)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import attrs
import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.battle import random_policy
from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Move
from smoothbore.boltaction_acw.carry import (
    Change,
    arc_memo,
    box_gap,
    carried,
    charge_memo,
    gap_over,
    ground_memo,
    hulls_of,
    move_memo,
    near_in,
    near_memo,
    nearest_enemy,
    nearest_memo,
    offer_memo,
    radii,
    radius_memo,
    sight_memo,
    unit_boxes,
    zone_of,
)
from smoothbore.boltaction_acw.melee import MeleeFacts
from smoothbore.boltaction_acw.movement import move_distance
from smoothbore.boltaction_acw.scenarios import brawners_farm, mcphersons_ridge
from smoothbore.boltaction_acw.situations import (
    DISTANCES,
    HEADINGS,
    MoveSituation,
    _feature_shapes,
    _judge,
    _outside_arc,
    closing_move,
    feature_shapes,
)
from smoothbore.boltaction_acw.state import Engaged, State, find, situation
from smoothbore.boltaction_acw.units import Formation
from smoothbore.core import Deferred
from smoothbore.table import Footprint, Table, charges, sight_lines
from smoothbore.table import Formation as Layout

from .battle import expanded, random_states


def _fresh(table: Table) -> Table:
    """The same table with nothing derived from it."""
    return attrs.evolve(table)


def _check_moves(state: State, table: Table) -> int:
    fresh, checked = _fresh(table), 0
    for key, judged in table.derived(move_memo).items():
        if key[0] == "destinations" or key[0] not in table.units:
            continue
        assert isinstance(judged, MoveSituation)
        uid, pace, to = key[0], key[4], key[5]
        unit = attrs.evolve(find(state, uid), kind=key[1], formation=key[2], mounted=key[3])
        again = _judge(fresh, unit, pace, to)  # type: ignore[arg-type]
        assert (again.problem, again.through, again.terrain, again.cost, again.end,
                again.path) == (judged.problem, judged.through, judged.terrain, judged.cost,
                                judged.end, judged.path), key
        checked += 1
    return checked


def _check_offers(state: State, table: Table) -> int:
    """The moves offered and kept on the new table are those offered afresh: the fixed set
    and the move towards the nearest enemy, worked out on a table that knows nothing."""
    fresh, checked = _fresh(table), 0
    for key, moves in table.derived(offer_memo).items():
        uid, pace = key[0], key[4]
        unit = attrs.evolve(find(state, uid), kind=key[1], formation=key[2], mounted=key[3])
        allowance = move_distance(unit, pace)  # type: ignore[arg-type]
        limit = allowance * (2 if unit.formation is Formation.COLUMN else 1)
        closing = closing_move(fresh, uid, float(allowance))  # type: ignore[arg-type]
        assert moves == (*(Move(d, h) for h in HEADINGS[pace] for d in DISTANCES  # type: ignore[index]
                           if d <= limit), *(() if closing is None else (closing,))), key
        checked += 1
    return checked


def _check_arcs(table: Table) -> int:
    """Whether a target stands outside a firer's arc, kept on the new table, is what the
    footprints there say."""
    kept = table.derived(arc_memo)
    for (a, b), outside in kept.items():
        assert outside == _outside_arc(table.footprint(a), table.footprint(b)), (a, b)
    return len(kept)


def _check_near(table: Table) -> int:
    """The units near a unit, kept on the new table, are those the boxes there say."""
    kept, boxes = table.derived(near_memo), unit_boxes(_fresh(table))
    for (uid, inches), found in kept.items():
        assert found == near_in(boxes, uid, inches), (uid, inches)
    return len(kept)


def _check_boxes(table: Table) -> int:
    """The radii of the units that stayed, carried to the new table, are those worked out
    afresh there (``Layout.radius``); the boxes are each footprint's own (read afresh: that
    costs less than carrying them, issue 28)."""
    kept = len(table.derived(radius_memo))
    fresh = _fresh(table)
    assert unit_boxes(table) == {f.unit_id: f.bounds for f in table.footprints}
    assert list(unit_boxes(table)) == list(unit_boxes(fresh))
    assert radii(table) == radii(fresh) == dict(zip(
        table.unit_ids, table.layout.radius.tolist(), strict=True))
    return kept


def _check_nearest(table: Table) -> int:
    """The nearest enemy of each unit, carried to the new table, is the one found afresh
    there among all its enemies."""
    kept, fresh = table.derived(nearest_memo), _fresh(table)
    for uid, found in kept.items():
        assert found == nearest_enemy(fresh, uid), uid
    return len(kept)


def _check_ground(table: Table) -> int:
    """The ground's shapes carried to the new table are those worked out afresh there."""
    if "feature_shapes" not in table.derived(ground_memo):
        return 0
    kept, again = feature_shapes(table), _feature_shapes(_fresh(table))
    assert kept.keys() == again.keys()
    for rates, (boxes, areas) in kept.items():
        assert boxes == again[rates][0]
        assert [a.wkb for a in areas] == [a.wkb for a in again[rates][1]]
    return 1


def _check_pairs(table: Table) -> int:
    fresh, checked = _fresh(table), 0
    half = {f.unit_id: 180.0 for f in table.footprints if f.formation is Layout.SKIRMISH}
    seen = table.derived(sight_memo)
    if seen:
        pairs = list(seen)
        assert list(sight_lines(fresh, pairs, half_angle=half)) == [seen[p] for p in pairs]
        checked += len(pairs)
    reached = table.derived(charge_memo)
    if reached:
        pairs = list(reached)
        assert list(charges(fresh, pairs, fresh.diagonal)) == [reached[p] for p in pairs]
        checked += len(pairs)
    return checked


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_what_a_move_carries_is_what_the_new_table_works_out(make: object) -> None:
    kept = offered = grounds = arcs = nears = boxes = nearest = 0
    for seed in range(2):
        for was, state in itertools.pairwise(random_states(make(seed), seed, 71)):  # type: ignore[operator]
            before, table = was.extra.table, state.extra.table
            if table is not before and table._derived is not before._derived:
                # only what was carried is there yet: nothing has been asked of the table
                # (a commander riding off carries everything: no unit moved)
                kept += _check_moves(state, table) + _check_pairs(table)
                offered += _check_offers(state, table)
                grounds += _check_ground(table)
                arcs += _check_arcs(table)
                nears += _check_near(table)
                boxes += _check_boxes(table)
                nearest += _check_nearest(table)
    assert kept > 100
    assert nearest > 20
    assert boxes > 100
    assert offered > 20
    assert grounds > 20
    assert arcs > 100
    assert nears > 100


_COORD = st.floats(-60.0, 60.0, allow_nan=False)


@given(st.tuples(_COORD, _COORD, _COORD, _COORD), st.tuples(_COORD, _COORD, _COORD, _COORD),
       st.floats(0.0, 30.0, allow_nan=False))
def test_gap_over_is_the_box_gap_compared(a: tuple[float, ...], b: tuple[float, ...],
                                          limit: float) -> None:
    """``gap_over`` says what ``box_gap(a, b) > limit`` says, boxes apart, touching,
    overlapping, or at the limit exactly."""
    a = (min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3]))
    b = (min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3]))
    assert gap_over(a, b, limit) is (box_gap(a, b) > limit)  # type: ignore[arg-type]
    exact = box_gap(a, b)  # type: ignore[arg-type]
    assert gap_over(a, b, exact) is False  # type: ignore[arg-type]


def test_gap_over_on_boxes_apart_on_one_axis_and_on_both() -> None:
    # 3" apart across: over 2.9, not over 3; 3" and 4" apart on the two axes: a 5" gap
    assert gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 0.5, 5.0, 2.0), 2.9)
    assert not gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 0.5, 5.0, 2.0), 3.0)
    assert gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 5.0, 5.0, 6.0), 4.99)
    assert not gap_over((0.0, 0.0, 1.0, 1.0), (4.0, 5.0, 5.0, 6.0), 5.0)
    assert not gap_over((0.0, 0.0, 1.0, 1.0), (0.5, 0.5, 2.0, 2.0), 0.0)


@given(st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), min_size=8, max_size=8),
       st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), min_size=8, max_size=8))
def test_hulls_of_are_the_hulls_of_the_points(a: list[tuple[int, int]],
                                              b: list[tuple[int, int]]) -> None:
    """The hull of the ring through the points is the hull of the points themselves, to the
    bit: corners of footprints, repeated points, points in a line, all in one place."""
    points = np.array([a, b], dtype=float) / 4.0
    expected = shapely.convex_hull(shapely.multipoints(points))
    assert list(shapely.to_wkb(hulls_of(points))) == list(shapely.to_wkb(expected))


def test_hulls_of_footprint_corners_on_a_diagonal() -> None:
    # two 1" squares centred on (5, 5) and (12, 12): the hull is their 8" x 8" box less
    # two triangles with 7" legs, a hexagon of 64 - 2 * 24.5 = 15 square inches
    first = Footprint("m", 5.0, 5.0, 0.0, bases=1).corners
    second = Footprint("m", 12.0, 12.0, 0.0, bases=1).corners
    hull = hulls_of(np.concatenate([first, second])[np.newaxis])[0]
    assert len(hull.exterior.coords) == 7
    assert hull.area == pytest.approx(15.0)


def test_the_nearest_enemy_carried_is_the_nearer_of_the_one_kept_and_those_that_moved() -> None:
    # "u" at (10, 10); enemy "a" 10" north of it, enemy "b" 30" east; "b" moves to 5" east
    u = Footprint("u", 10.0, 10.0, bases=1, side="blue")
    a = Footprint("a", 10.0, 20.0, bases=1, side="red")
    b = Footprint("b", 40.0, 10.0, bases=1, side="red")
    old = Table(60, 60, footprints=(u, a, b))
    radius = radii(old)["a"]
    assert nearest_enemy(old, "u") == (10.0 - radius, "a")
    closer = carried(old, old.placed(b.moved_to(15.0, 10.0)))
    assert closer.derived(nearest_memo)["u"] == (5.0 - radius, "b")
    assert nearest_enemy(closer, "u") == nearest_enemy(_fresh(closer), "u")
    # "b" moves away again: "a" stays the nearest; "a" moves: "u" is worked out afresh
    farther = carried(old, old.placed(b.moved_to(50.0, 10.0)))
    assert farther.derived(nearest_memo)["u"] == (10.0 - radius, "a")
    gone = carried(old, old.placed(a.moved_to(10.0, 50.0)))
    assert "u" not in gone.derived(nearest_memo)
    assert nearest_enemy(gone, "u") == (30.0 - radius, "b")


def test_a_zone_is_touched_only_by_a_unit_that_comes_near_its_hull() -> None:
    # a diagonal zone from (0, 0) to (10, 10), 1" wide: its box holds (8, 1), its hull not
    zone = zone_of([(0.0, 0.0), (1.0, 0.0), (10.0, 10.0), (9.0, 10.0)])
    assert zone.box == (0.0, 0.0, 10.0, 10.0)
    assert zone.points.shape == (12, 2)
    old = Table(48, 48, footprints=(Footprint("m", 8.0, 1.0, bases=1),))
    near = Table(48, 48, footprints=(Footprint("m", 5.4, 4.0, bases=1),))
    for new, untouched in ((old.placed(Footprint("m", 30.0, 30.0)), True),
                           (near, False)):
        change = Change.between(old, new)
        assert change.ids == frozenset({"m"})
        assert change.untouched([zone], 0.01) == [untouched]
    # within reach: the nearest corner of the unit at (8, 3), (7.5, 3.5), lies
    # (10 * 7.5 - 9 * 3.5 - 10) / sqrt(10² + 9²) from the zone's edge through (1, 0), (10, 10)
    far = Table(48, 48, footprints=(Footprint("m", 8.0, 2.0),))
    change = Change.between(far, far.placed(Footprint("m", 8.0, 3.0)))
    gap = 33.5 / float(np.sqrt(181))
    assert change.untouched([zone], gap - 0.01) == [True]
    assert change.untouched([zone], gap + 0.01) == [False]


def test_the_judgements_routes_and_shots_kept_on_a_table_are_those_asked_afresh() -> None:
    """And the ways towards the nearest enemy (``closings``)."""
    from smoothbore.boltaction_acw.situations import (
        _towards_nearest,
        closings,
        move_situation,
        moves_asked,
        routes_taken,
        shot_memo,
        shot_situation,
    )
    from smoothbore.table import route

    state = brawners_farm(3)
    policy = random_policy(3)
    asked = routes = shots = closes = 0
    for _ in range(60):
        actions = TURN.legal_actions(state)
        if not actions:
            break
        table = state.extra.table
        fresh = state.with_extra(table=_fresh(table))
        for (mover, move), judged in table.derived(moves_asked).items():
            again = move_situation(fresh, mover[0], mover[4], move)  # type: ignore[arg-type]
            assert (again.problem, again.cost, again.end, again.path, again.through) == (
                judged.problem, judged.cost, judged.end, judged.path, judged.through)
            asked += 1
        for (uid, x, y), way in table.derived(routes_taken).items():
            assert route(_fresh(table), uid, (x, y)) == way
            routes += 1
        for (firer, target), shot in table.derived(shot_memo).items():
            assert shot_situation(fresh, firer, target) == shot
            shots += 1
        for uid, towards in table.derived(closings).items():
            assert _towards_nearest(_fresh(table), uid) == towards
            closes += 1
        state, _ = TURN.step(state, policy(state, actions))
    assert asked > 100 and routes > 10 and shots > 10 and closes > 20


def _bounds(candidates: Iterable[object]) -> list[int | None]:
    """The bound of each ``Deferred`` group among a rule's candidates (None: an action):
    the slots random play draws from."""
    return [item.bound if isinstance(item, Deferred) else None for item in candidates]


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_the_candidates_kept_with_a_table_are_those_made_afresh(make: object) -> None:
    """The targets, advances, runs and charges the candidates keep with a table
    (``candidate_memo``) are those made on a table that knows nothing, in the same order, on
    every state of random battles (a key missing something they read would hand one unit's
    or state's candidates to another)."""
    from smoothbore.boltaction_acw.steps_charges import candidates_charge
    from smoothbore.boltaction_acw.steps_orders import (
        candidate_memo,
        candidates_advance,
        candidates_fire,
        candidates_run,
    )

    rules = (candidates_fire, candidates_advance, candidates_run, candidates_charge)

    kept = locks = 0
    for seed in range(2):
        for state in random_states(make(seed), seed, 90):  # type: ignore[operator]
            table = state.extra.table
            made = [expanded(f(state)) for f in rules]
            fresh = state.with_extra(table=_fresh(table))
            assert made == [expanded(f(fresh)) for f in rules]
            assert [_bounds(f(state)) for f in rules] == [_bounds(f(fresh)) for f in rules]
            kept += len(table.derived(candidate_memo))
            known = situation(state)
            enemies = [e for u in known.ready.values() for e in known.enemies[u.side]]
            if len(enemies) > 2:  # the same table, two enemies locked in melee
                locked = state.with_extra(melees=(*state.extra.melees, Engaged(
                    enemies[0], enemies[-1], MeleeFacts())))
                again = locked.with_extra(table=_fresh(table))
                assert [expanded(f(locked)) for f in rules] == [
                    expanded(f(again)) for f in rules]
                assert [_bounds(f(locked)) for f in rules] == [_bounds(f(again)) for f in rules]
                locks += 1
    assert kept > 200 and locks > 20


def test_what_changed_is_told_the_same_way_whatever_the_order_of_the_units() -> None:
    a = Footprint("a", 10.0, 10.0, bases=1, side="blue")
    b = Footprint("b", 20.0, 10.0, bases=1, side="red")
    c = Footprint("c", 30.0, 10.0, bases=1, side="red")
    old = Table(60, 60, footprints=(a, b, c))
    moved = old.placed(b.moved_to(25.0, 10.0))
    assert Change.between(old, moved).ids == frozenset({"b"})
    same = Table(60, 60, footprints=(a, Footprint("b", 20.0, 10.0, bases=1, side="red"), c))
    assert Change.between(old, same).ids == frozenset()  # equal, not the same: unchanged
    shuffled = Table(60, 60, footprints=(c, a, b.moved_to(25.0, 10.0)))
    assert Change.between(old, shuffled).ids == frozenset({"b"})
    assert Change.between(old, old.removed("a")).ids == frozenset({"a"})
    assert Change.between(old.removed("a"), old).ids == frozenset({"a"})
