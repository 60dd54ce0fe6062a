"""Situations measured on hand-drawn tables, worked out by hand: ranges, cover, arcs, sight
and enfilade; charge distances and the face struck; the cost and legality of moves."""

from __future__ import annotations

import math

import attrs
import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Advance, Charge, Fire, Move, Respond, RideTo, Run
from smoothbore.boltaction_acw.charges import ChargeFacts, Response
from smoothbore.boltaction_acw.movement import Pace, Terrain
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.rules import RULE_RIVERS, RULE_TABLE
from smoothbore.boltaction_acw.shooting import Cover, ShotFacts
from smoothbore.boltaction_acw.situations import (
    charge_situation,
    destination,
    destinations,
    move_situation,
    offered_moves,
    shot_situation,
)
from smoothbore.boltaction_acw.state import State, new_battle
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Formation, Unit, UnitType
from smoothbore.core import DiceState, IllegalActionError, InvalidValueError
from smoothbore.table import Feature, Table, in_contact
from smoothbore.table import Formation as Layout

from .battle import random_states

UNITS = {
    "a": Unit("a", "Union line", UNION, bases=5),
    "b": Unit("b", "Confederate line", CONFEDERATE, bases=5),
    "c": Unit("c", "Union column", UNION, bases=5, formation=Formation.COLUMN),
    "s": Unit("s", "Union skirmishers", UNION, UnitType.SKIRMISHERS, bases=5),
}


def on_table(places: dict[str, tuple[float, float, float]],
             features: tuple[Feature, ...] = ()) -> State:
    """A battle of the units named at their places (centre x, y, facing) on a 40" x 40"
    table, the first unit's group in action."""
    units = tuple(UNITS[uid] for uid in places)
    feet = tuple(footprint(UNITS[uid], *place) for uid, place in places.items())
    state = new_battle(units, (), table=Table(40, 40, features=features, footprints=feet))
    return state.replace(phase=ORDERS).with_extra(group=units[0].id)


def test_footprints_follow_the_bases_and_formation() -> None:
    line = footprint(UNITS["a"], 20, 10, 0)
    assert (line.width, line.length, line.formation) == (7.5, 1.0, Layout.LINE)
    column = footprint(UNITS["c"], 20, 10, 0)
    assert (column.width, column.length) == (1.5, 5.0)
    skirmish = footprint(UNITS["s"], 20, 10, 0)
    assert (skirmish.width, skirmish.length) == (9.0, 1.0)  # 5 bases of 1" with 1" gaps


def test_range_is_between_nearest_points_rounded_up() -> None:
    # fronts at y = 10.5 and y = 20.5: 10" apart, straight ahead, no cover
    state = on_table({"a": (20, 10, 0), "b": (20, 21, 180)})
    found = shot_situation(state, "a", "b")
    assert found.distance == pytest.approx(10.0)
    assert found.facts == ShotFacts(10, Cover.NONE, False, True)
    # 6.2" is not within 6": the range counts as 7
    near = on_table({"a": (20, 10, 0), "b": (20, 17.2, 180)})
    assert shot_situation(near, "a", "b").facts == ShotFacts(7)


def test_cover_from_a_fence_a_wall_and_woods() -> None:
    places = {"a": (20, 10, 0), "b": (20, 21, 180)}
    fence = Feature("f", "fence", line=((10, 20.2), (30, 20.2)))
    wall = Feature("w", "wall", line=((10, 20.2), (30, 20.2)))
    woods = Feature.rectangle("wood", "light woods", 20, 22, 12, 4)
    assert shot_situation(on_table(places, (fence,)), "a", "b").facts.cover is Cover.SOFT
    assert shot_situation(on_table(places, (wall,)), "a", "b").facts.cover is Cover.HARD
    assert shot_situation(on_table(places, (woods,)), "a", "b").facts.cover is Cover.SOFT
    # the fence behind the target (from the firer's side) gives nothing
    behind = Feature("f", "fence", line=((10, 22.5), (30, 22.5)))
    assert shot_situation(on_table(places, (behind,)), "a", "b").facts.cover is Cover.NONE


def test_arc_sight_and_enfilade() -> None:
    # the target well off to the right: 20" right and 1" ahead, outside the 45 degree arc
    state = on_table({"a": (10, 10, 0), "b": (35, 11, 180)})
    found = shot_situation(state, "a", "b")
    assert found.facts is not None and not found.facts.in_arc
    # a friend between them blocks the line of sight
    blocked = on_table({"a": (20, 10, 0), "b": (20, 30, 180), "c": (20, 20, 90)})
    assert shot_situation(blocked, "a", "b").problem.startswith("no line of sight: c")
    # a target facing across the firer's front is fired on from its flank: enfilade
    flank = on_table({"a": (20, 10, 0), "b": (20, 25, 90)})
    assert shot_situation(flank, "a", "b").facts.enfilade


def test_fire_on_a_table_takes_no_facts_and_is_offered_only_in_range() -> None:
    state = on_table({"a": (20, 10, 0), "b": (20, 21, 180)})
    assert Fire("a", "b") in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError) as error:
        TURN.step(state, Fire("a", "b", ShotFacts(3)))
    assert error.value.rule == RULE_TABLE
    far = on_table({"a": (20, 5, 0), "b": (20, 35.5, 180)})  # 29.5" > 24" rifled musket
    assert Fire("a", "b") not in TURN.legal_actions(far)
    with pytest.raises(IllegalActionError, match="beyond the rifled musket's range"):
        TURN.step(far, Fire("a", "b"))
    _, events = TURN.step(state, Fire("a", "b"))
    assert any("range measured 10.0 in." in e.text for e in events)


def test_charge_distance_and_the_face_struck() -> None:
    # fronts at y = 10.5 and y = 15.5: 5" straight ahead, into the front
    state = on_table({"a": (20, 10, 0), "b": (20, 16, 180)})
    assert charge_situation(state, "a", "b").facts == ChargeFacts(5)
    rear = on_table({"a": (20, 10, 0), "b": (20, 16, 0)})
    assert charge_situation(rear, "a", "b").facts == ChargeFacts(5, rear=True)
    # a line facing right (90) lies along y, from 12.25 to 19.75: its right flank is 1.75"
    # ahead of the charger's front, counted as 2"
    flank = on_table({"a": (20, 10, 0), "b": (20, 16, 90)})
    found = charge_situation(flank, "a", "b")
    assert found.reach.ahead == pytest.approx(1.75)
    assert (found.facts.distance, found.facts.flank, found.facts.rear) == (2, True, False)
    fence = Feature("f", "fence", line=((10, 15.2), (30, 15.2)))
    assert charge_situation(on_table({"a": (20, 10, 0), "b": (20, 16, 180)}, (fence,)),
                            "a", "b").facts.obstacle
    # a target off to the side is not to the direct front
    side = on_table({"a": (10, 10, 0), "b": (30, 12, 180)})
    assert not charge_situation(side, "a", "b").facts.in_front
    assert Charge("a", "b") not in TURN.legal_actions(side)
    assert Charge("a", "b") in TURN.legal_actions(state)


RIVER = Feature("river", "river", line=((0, 20), (40, 20)), width=2)
FORD = Feature("ford", "ford", line=((30, 17), (30, 23)), width=3)


def test_a_river_blocks_a_move_but_not_at_the_ford() -> None:
    state = on_table({"a": (10, 15, 0), "b": (20, 36, 180)}, (RIVER, FORD))
    blocked = move_situation(state, "a", Pace.RUN, Move(9))
    assert "river" in blocked.problem and blocked.rule == RULE_RIVERS
    with pytest.raises(IllegalActionError) as error:
        TURN.step(state, Run("a", move=Move(9)))
    assert "river (river) cannot be crossed" in error.value.why
    state = on_table({"a": (30, 15, 0), "b": (10, 36, 180)}, (RIVER, FORD))
    at_ford = move_situation(state, "a", Pace.RUN, Move(9))
    assert at_ford.problem == ""
    assert at_ford.cost == pytest.approx(9.0)
    new, events = TURN.step(state, Run("a", move=Move(9)))
    assert new.extra.table.footprint("a").centre == (30, 24)
    assert any("runs 9.0 in. to (30.0, 24.0), facing 0°" in e.text for e in events)


def test_woods_and_fences_cost_half_a_move() -> None:
    woods = Feature.rectangle("wood", "light woods", 20, 16, 20, 4)  # y 14 to 18
    state = on_table({"a": (20, 10, 0), "b": (20, 36, 180)}, (woods,))
    # 4" of open ground then 2" in woods counted double: 8" of a 6" allowance
    costly = move_situation(state, "a", Pace.ADVANCE, Move(6))
    assert costly.cost == pytest.approx(8.0) and "8.0\" of an allowance of 6\"" in costly.problem
    ok = move_situation(state, "a", Pace.ADVANCE, Move(5))
    assert ok.cost == pytest.approx(6.0) and ok.terrain is Terrain.WOODS
    fence = Feature("f", "fence", line=((0, 12), (40, 12)))
    fenced = on_table({"a": (20, 10, 0), "b": (20, 36, 180)}, (fence,))
    # 2" and a fence (half of 6") and 1" more: 6"
    crossing = move_situation(fenced, "a", Pace.ADVANCE, Move(3))
    assert crossing.cost == pytest.approx(6.0)
    assert crossing.terrain is Terrain.LINEAR_OBSTACLE
    assert move_situation(fenced, "a", Pace.ADVANCE, Move(3.5)).problem


def test_moves_keep_off_the_enemy_and_the_table_edge() -> None:
    state = on_table({"a": (20, 10, 0), "b": (20, 16, 180)})
    # fronts 5" apart: advancing 4.5" leaves them 0.5" apart, inside 1"
    assert "within 1\"" in move_situation(state, "a", Pace.ADVANCE, Move(4.5)).problem
    assert move_situation(state, "a", Pace.ADVANCE, Move(4)).problem == ""
    assert "leave the table" in move_situation(state, "a", Pace.ADVANCE, Move(18, -90)).problem


def test_offered_moves_are_legal_and_the_same_wherever_the_unit_stands() -> None:
    state = on_table({"a": (20, 5, 0), "b": (30, 35, 180)})
    offered = destinations(state, "a", Pace.ADVANCE)
    # 3" and 6" (within a 6" move), ahead and 45 degrees either side; and 6" at b, whose
    # centre lies atan(10 / 30) = 18.4 degrees off a's front, turning to face it
    assert offered == (Move(3), Move(6), Move(3, 45), Move(6, 45), Move(3, -45), Move(6, -45),
                       Move(6, 18.4, 18.4))
    assert destination(state.extra.table, "a", Move(6, 45)) == pytest.approx(
        (20 + 6 / math.sqrt(2), 5 + 6 / math.sqrt(2), 0))
    for move in offered:
        assert Advance("a", move=move) in TURN.legal_actions(state)
    # woods ahead (y 10 to 14): 5" in the open and 1" in woods counted double cost 7";
    # the 3" move and the oblique moves, clear of the woods, are still offered
    woods = Feature.rectangle("wood", "light woods", 20, 12, 20, 4)
    slowed = on_table({"a": (20, 5, 0), "b": (30, 35, 180)}, (woods,))
    assert Move(6) not in destinations(slowed, "a", Pace.ADVANCE)
    assert move_situation(slowed, "a", Pace.ADVANCE, Move(6)).cost == pytest.approx(7.0)
    assert destinations(slowed, "a", Pace.ADVANCE)[:2] == (Move(3), Move(3, 45))
    with pytest.raises(IllegalActionError) as error:
        TURN.step(state, Advance("a", terrain=Terrain.WOODS, move=Move(6)))
    assert error.value.rule == RULE_TABLE
    with pytest.raises(IllegalActionError, match="says where it goes"):
        TURN.step(state, Advance("a"))
    with pytest.raises(InvalidValueError):
        Move(-1)


def test_a_table_must_hold_every_unit_of_the_battle() -> None:
    feet = (footprint(UNITS["a"], 20, 10, 0),)
    with pytest.raises(InvalidValueError, match="every unit"):
        new_battle((UNITS["a"], UNITS["b"]), (), table=Table(40, 40, footprints=feet))


def test_a_charge_home_ends_in_contact_with_the_face_it_struck() -> None:
    """Charger and target 5" apart, the target side on: the charge strikes its flank, and
    when the target holds (it passes its order test) the charger moves straight ahead into
    contact; when it fails, it retreats a full move straight away from the charger."""
    homes = retreats = 0
    for seed in range(30):
        state = on_table({"a": (20, 10, 0), "b": (20, 16, 90)})
        state = state.replace(dice=DiceState(seed))
        charged, events = TURN.step(state, Charge("a", "b"))
        if charged.extra.charge is None:
            continue  # the chargers failed their order test
        assert charged.extra.charge.facts == ChargeFacts(2, flank=True)
        assert any("charges Confederate line in the flank from 2\"" in e.text for e in events)
        after, events = TURN.step(charged, Respond("b", Response.HOLD))
        table = after.extra.table
        if any("falls back to" in e.text for e in events):
            continue  # the melee's victors failed their test and fell back (A31)
        if any("moves into contact" in e.text for e in events):
            met = table.placed(*(table.footprint(u).reformed(
                table.footprint(u).formation, 5) for u in ("a", "b")))
            assert in_contact(met, "a", "b")
            assert table.footprint("a").centre == pytest.approx((20, 11.75))
            homes += 1
        elif any("retreats 6.0\" of its 6\"" in e.text for e in events):
            # straight away from the charger's centre (20, 10): up the table
            assert table.footprint("b").centre == pytest.approx((20, 22))
            retreats += 1
    assert homes and retreats


def test_a_line_passes_through_one_friend_at_walking_pace_only() -> None:
    # a column lying across the line's path, 2.5" ahead of its front: y 12.25 to 13.75
    state = on_table({"a": (20, 10, 0), "c": (20, 13, 90), "b": (20, 36, 180)})
    walk = move_situation(state, "a", Pace.ADVANCE, Move(6))
    assert (walk.through, walk.problem) == ("c", "")
    assert Advance("a", move=Move(6)) in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError, match="only units in line pass through"):
        TURN.step(state, Run("a", move=Move(6)))
    # stopping on the friend is refused
    assert "ends on c" in move_situation(state, "a", Pace.ADVANCE, Move(3)).problem
    new, events = TURN.step(state, Advance("a", move=Move(6)))
    texts = " ".join(e.text for e in events)
    if "passes through Union column" in texts:
        assert new.extra.table.footprint("a").centre == pytest.approx((20, 16))
        assert "a" in new.extra.interpenetrated
    else:  # failed the interpolation test: both pinned, the line 1" behind the column
        assert "fails its interpolation test" in texts
        assert new.extra.table.footprint("a").centre == pytest.approx((20, 10.75))


def test_moves_judged_before_a_move_and_kept_are_those_judged_afresh() -> None:
    from smoothbore.boltaction_acw.scenarios import brawners_farm

    state = brawners_farm(0).replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    units = ("u2wi", "u6wi", "u7wi", "u19in", "ub4us")
    for uid in units:
        for pace in Pace:
            destinations(state, uid, pace)
    new, _ = TURN.step(state, Advance("u6wi", move=Move(6)))
    if new.extra.table.footprint("u6wi").centre == state.extra.table.footprint("u6wi").centre:
        new, _ = TURN.step(state.replace(dice=DiceState(1)), Advance("u6wi", move=Move(6)))
    table = new.extra.table
    store = table.store("boltaction_acw: moves")
    fresh = new.with_extra(table=attrs.evolve(table))  # the same table, nothing stored
    hits = store.hits
    for uid in units:
        for pace in Pace:
            kept = [move_situation(new, uid, pace, m) for m in offered_moves(new, uid, pace)]
            again = [move_situation(fresh, uid, pace, m)
                     for m in offered_moves(fresh, uid, pace)]
            assert [(k.problem, k.through, k.terrain, k.cost, k.end, k.path) for k in kept] == [
                (a.problem, a.through, a.terrain, a.cost, a.end, a.path) for a in again], uid
    assert store.hits - hits > 10  # judgements far from the move are kept
    assert store.misses > 0  # the mover's own and its neighbours' are judged again


def _heading(facing: float, start: tuple[float, float], end: tuple[float, float]) -> float:
    bearing = math.degrees(math.atan2(end[0] - start[0], end[1] - start[1]))
    return (bearing - facing + 180.0) % 360.0 - 180.0


def test_a_closing_move_goes_at_the_nearest_enemy_and_turns_to_face_it() -> None:
    from smoothbore.boltaction_acw.situations import closing_move

    # a and b: lines 7.5" x 1", each round by a circle of hypot(3.75, 0.5) = 3.783"; b's
    # centre sqrt(10² + 20²) = 22.36" away at 26.57° off a's front: the circles 14.79" apart,
    # so a may close 13.29" and stay 1.5" off; advancing it goes its 6", running its 12"
    state = on_table({"a": (20, 10, 0), "b": (30, 30, 180)})
    table = state.extra.table
    assert closing_move(table, "a", 6.0) == Move(6.0, 26.6, 26.6)
    assert Move(6.0, 26.6, 26.6) in destinations(state, "a", Pace.ADVANCE)
    assert Move(12.0, 26.6, 26.6) in destinations(state, "a", Pace.RUN)
    assert closing_move(table, "a", 20.0) == Move(13.3, 26.6, 26.6)
    moved, _ = TURN.step(state, Advance("a", move=Move(6.0, 26.6, 26.6)))
    assert moved.extra.table.footprint("a").facing == pytest.approx(26.6)
    # b 10" away straight ahead: the circles 2.43" apart, less than 1" to close
    assert closing_move(on_table({"a": (20, 10, 0), "b": (20, 20, 180)}).extra.table,
                        "a", 6.0) is None


def test_moves_outside_the_fixed_set_are_samples_of_a_continuous_choice() -> None:
    from smoothbore.boltaction_acw.turn import sampled

    state = on_table({"a": (20, 10, 0), "b": (30, 30, 180)})
    assert not sampled(state, Advance("a", move=Move(6, 45)))
    assert not sampled(state, Run("a", move=Move(12, 180)))
    assert sampled(state, Advance("a", move=Move(6.0, 26.6, 26.6)))  # towards b
    assert sampled(state, Run("a", move=Move(6, 45)))  # runs go ahead or back only
    assert not sampled(state, Charge("a", "b"))
    assert not sampled(state.with_extra(table=None), Advance("a", move=Move(5)))
    # a ride to a point: any point within the ride is the commander's choice (A14)
    assert sampled(state, RideTo("c", 20.0, 15.0))
    assert not sampled(state.with_extra(table=None), RideTo("c", 20.0, 15.0))


def test_near_and_radii_kept_with_a_table_are_what_is_measured_afresh() -> None:
    """``near`` (the units a box test cannot rule out within a distance) is ``beyond``
    asked of each unit, and every unit it leaves out is truly farther than that; ``radii``
    is the layout's circle round each footprint, to the last bit; on the states of a random
    battle."""
    from smoothbore.boltaction_acw.scenarios import brawners_farm
    from smoothbore.boltaction_acw.situations import beyond, near, radii

    checked = 0
    for state in random_states(brawners_farm(3), 3, 60):
        table = state.extra.table
        fresh = attrs.evolve(table)
        assert table.derived(radii) == dict(zip(table.unit_ids,
                                                fresh.layout.radius.tolist(), strict=True))
        for uid in table.unit_ids:
            for inches in (6, 12, 24):
                close = near(table, uid, inches)
                assert close == {o for o in table.unit_ids
                                 if o != uid and not beyond(fresh, uid, o, inches)}
                for other in set(table.unit_ids) - close - {uid}:
                    assert table.footprint(uid).shape.distance(
                        table.footprint(other).shape) > inches
                checked += 1
    assert checked > 1000


def test_outside_arc_is_told_by_corners_and_never_wrongly() -> None:
    """``outside_arc`` (the pairs the checks refuse before measuring): a line at (20, 10)
    facing up the table, 7.5" wide and 1" deep, its front edge at y = 10.5 from x = 16.25
    to 23.75; the arc's lines leave its front corners at 45 degrees."""
    from smoothbore.boltaction_acw.situations import outside_arc

    def outside(x: float, y: float, facing: float = 180) -> bool:
        state = on_table({"a": (20, 10, 0), "b": (x, y, facing)})
        return outside_arc(state.extra.table, "a", "b")

    assert outside(20, 2)  # behind the front edge
    assert not outside(20, 20)  # straight ahead
    # b (facing down the table) 3" right of a's right front corner (23.75, 10.5): its
    # near corner 4" ahead of that corner lies inside the 45 degree line
    assert not outside(26.75 + 3.75, 15)
    # 2.5" ahead (b from y 12 to 13) every corner lies beyond it
    assert outside(26.75 + 3.75, 12.5)
    assert outside(13.25 - 3.75, 12.5)  # and beyond the left one
    # the front corners themselves: a corner on a line is not beyond it
    assert not outside(23.75 + 3.75, 10.5 + 0.5 + 0.0005)
    # skirmishers fire all round
    skirmishers = on_table({"s": (20, 10, 0), "b": (20, 2, 0)})
    assert not outside_arc(skirmishers.extra.table, "s", "b")


def test_what_outside_arc_refuses_the_table_measures_out_of_arc() -> None:
    """On the states of random battles, every pair ``outside_arc`` settles is out of the
    arc as ``sight_lines`` measures it, on a table that knows nothing."""
    from smoothbore.boltaction_acw.scenarios import brawners_farm, mcphersons_ridge
    from smoothbore.boltaction_acw.situations import outside_arc
    from smoothbore.table import sight_lines

    settled = 0
    for make, seed in ((brawners_farm, 4), (mcphersons_ridge, 5)):
        for state in random_states(make(seed), seed, 50):
            table = state.extra.table
            pairs = [(u, e) for u in table.unit_ids for e in table.enemies_of(u)
                     if outside_arc(table, u, e)]
            if pairs:
                half = {f.unit_id: 180.0 for f in table.footprints
                        if f.formation is Layout.SKIRMISH}
                seen = sight_lines(attrs.evolve(table), pairs, half_angle=half)
                assert not any(s.in_arc for s in seen), pairs
                settled += len(pairs)
    assert settled > 300
