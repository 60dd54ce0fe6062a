"""First cuts and nearest things every book asks (issue 29: the books' own copies moved to
the table): exact numbers, and Hypothesis that a bound never leaves out what the exact
measure accepts."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.table import (
    Feature,
    Footprint,
    Formation,
    Table,
    ahead_in_reach,
    charge_reach,
    enemies_in_reach,
    lines_crossed,
    nearest_enemy,
    route,
    sightings,
)


def unit(uid: str, x: float, y: float, facing: float = 0.0, side: str = "red") -> Footprint:
    # two 1.5" x 1" bases abreast: 3" wide, 1" deep
    return Footprint(uid, x, y, facing, 2, 1.5, 1, side=side)


def test_enemies_in_reach_by_centres_and_sizes() -> None:
    me = unit("A", 20, 10)
    near = unit("E1", 20, 20, 180, "blue")  # 9" ahead, front to front
    far = unit("E2", 20, 35, 180, "blue")  # 24" ahead
    behind = unit("E3", 20, 2, 0, "blue")  # behind the front edge
    wide = unit("E4", 40, 12, 180, "blue")  # 18.5" right of the right flank, 1.5" ahead
    t = Table(60, 40, footprints=(me, near, far, behind, wide))
    assert enemies_in_reach(t, "A", 12.0) == ("E1",)
    assert enemies_in_reach(t, "A", 30.0) == ("E1", "E2")
    assert enemies_in_reach(t, "A", 30.0, half_angle=180.0) == ("E1", "E2", "E3", "E4")
    assert enemies_in_reach(t, "A", 30.0, half_angle=89.0) == ("E1", "E2", "E4")
    assert enemies_in_reach(t, "E1", 12.0) == ("A", "E3")[:1]  # E3 is a friend of E1


def test_ahead_in_reach_is_the_strip_before_the_front_edge() -> None:
    me = unit("A", 20, 10)
    t = Table(60, 40, footprints=(me, unit("B", 20, 16, 180, "blue"),
                                  unit("C", 26, 16, 180, "blue"), unit("D", 20, 30, 180,
                                                                         "blue")))
    # B 5" ahead in the strip; C 6" right (its 1.68" half diagonal cannot reach the
    # strip's 1.5"); D 19" ahead
    assert ahead_in_reach(t, "A", ["B", "C", "D"], 6.0) == {"B"}
    assert ahead_in_reach(t, "A", ["B", "C", "D"], 20.0) == {"B", "D"}
    assert ahead_in_reach(t, "A", [], 6.0) == frozenset()


def test_nearest_enemy_first_by_id_among_equals() -> None:
    t = Table(60, 40, footprints=(unit("A", 20, 10), unit("Z", 20, 16, 180, "blue"),
                                  unit("B", 20, 4, 0, "blue"), unit("F", 40, 30, 0, "blue")))
    fp, gap = nearest_enemy(t, "A")  # type: ignore[misc]
    assert (fp.unit_id, gap) == ("B", 5.0)  # B and Z both 5" off: B first by id
    assert nearest_enemy(Table(60, 40, footprints=(unit("A", 20, 10),)), "A") is None


def test_lines_crossed_by_a_move() -> None:
    fence = Feature("fence", "fence", line=((0, 14), (60, 14)))
    stream = Feature("s", "stream", line=((0, 20), (60, 20)))
    ford = Feature.rectangle("ford", "ford", 20, 20, 6, 2)
    astride = Feature("wall", "wall", line=((0, 10), (60, 10)))  # under A where it stands
    t = Table(60, 40, features=(fence, stream, ford, astride),
              footprints=(unit("A", 20, 10),))
    assert lines_crossed(t, route(t, "A", (20, 12))) == ()  # up to y 12.5: short of it
    assert lines_crossed(t, route(t, "A", (20, 16))) == ("fence",)
    assert lines_crossed(t, route(t, "A", (20, 24))) == ("fence",)  # the stream at its ford
    # off to the right: away from the ford, and over the wall beyond where it stood astride
    assert lines_crossed(t, route(t, "A", (40, 24))) == ("fence", "s", "wall")
    assert lines_crossed(t, route(t, "A", (20, 13.5))) == ()  # the front edge on it


@st.composite
def crowds(draw: st.DrawFn) -> Table:
    fps = []
    for i in range(draw(st.integers(2, 8))):
        fps.append(Footprint(f"u{i}", draw(st.floats(4, 56)), draw(st.floats(4, 36)),
                             draw(st.floats(-180, 180)), draw(st.integers(1, 3)),
                             draw(st.sampled_from([1.0, 1.5])), 1.0,
                             draw(st.sampled_from([Formation.LINE, Formation.COLUMN,
                                                   Formation.SKIRMISH])),
                             side=draw(st.sampled_from(["red", "blue"]))))
    return Table(60, 40, footprints=tuple(fps))


@settings(max_examples=80, deadline=None)
@given(crowds(), st.floats(1, 30), st.sampled_from([30.0, 45.0, 60.0, 90.0, 180.0]))
def test_the_bounds_never_leave_out_what_the_exact_measure_accepts(
        t: Table, reach: float, half: float) -> None:
    for firer in t.unit_ids:
        kept = set(enemies_in_reach(t, firer, reach, half))
        for seen in sightings(t, [(firer, e) for e in t.enemies_of(firer)], half_angle=half):
            if seen.distance <= reach and seen.in_arc:
                assert seen.target in kept
        ahead = ahead_in_reach(t, firer, t.enemies_of(firer), reach)
        for target in t.enemies_of(firer):
            r = charge_reach(t, firer, target, reach)
            if r.in_reach:
                assert target in ahead
        found = nearest_enemy(t, firer)
        if found is not None:
            gaps = [s.distance for s in sightings(t, [(firer, e) for e in t.enemies_of(firer)])]
            assert found[1] == pytest.approx(min(gaps), abs=1e-12) and math.isfinite(found[1])



def test_surely_outside_the_arc_by_corners() -> None:
    from smoothbore.table import surely_outside_arc

    me = unit("A", 20, 10)  # front edge y 10.5, x 18.5 to 21.5
    ahead = unit("B", 20, 16, 180, "blue")
    behind = unit("C", 20, 4, 0, "blue")
    wide = unit("D", 30, 11.5, 180, "blue")  # 1.5" ahead of the front, 7" past the flank
    assert not surely_outside_arc(me, ahead)
    assert surely_outside_arc(me, behind) and surely_outside_arc(me, wide)
    assert not surely_outside_arc(me, wide, 80.0)  # a wide arc takes it in
    assert not surely_outside_arc(me, behind, 90.0)  # all round: never surely out
    house = Footprint("H", 20, 10, 0, 1, 3, 3, Formation.BUILDING)
    assert not surely_outside_arc(house, behind)


def test_nearest_enemy_by_circles_and_many_at_once() -> None:
    from smoothbore.table import nearest_enemies, nearest_enemy_by_circles, stands_on_many

    a = unit("A", 20, 10)
    z = unit("Z", 20, 16, 180, "blue")
    b = unit("B", 20, 4, 0, "blue")
    t = Table(60, 40, footprints=(a, z, b, unit("F", 40, 30, 0, "blue")))
    r = math.hypot(1.5, 0.5)  # a 3 x 1 unit's half diagonal
    gap, near_id = nearest_enemy_by_circles(t, "A")  # type: ignore[misc]
    assert near_id == "B" and gap == pytest.approx(6.0 - r)
    assert nearest_enemy_by_circles(Table(60, 40, footprints=(a,)), "A") is None
    # A where it stands, and a place for it 10" right: nearest points to the enemies
    found = nearest_enemies(t, [a, a.moved_to(40, 25)])
    assert found == ((5.0, "B"), (pytest.approx(4.0), "F"))
    assert nearest_enemies(t, [Footprint("N", 5, 5)]) == (None,)  # no side: no enemies
    # A moved onto Z and onto nothing: what each would stand on
    assert stands_on_many(t, [a.moved_to(20, 15.5), a.moved_to(5, 35), a]) == (
        ("Z",), (), ())


def test_the_edges_of_the_ground() -> None:
    from smoothbore.table import edges_of_ground

    woods = Feature.rectangle("w", "light woods", 10, 10, 4, 4)
    fence = Feature("f", "fence", line=((0, 20), (30, 20)))
    edges = edges_of_ground(Table(40, 30, features=(woods, fence)))
    assert edges.length == pytest.approx(16.0 + 30.0)
    assert edges.within((12, 10), 1e-9) and not edges.within((10, 10), 1.9)
    assert edges_of_ground(Table(40, 30)).is_empty


@settings(max_examples=60, deadline=None)
@given(crowds(), st.lists(st.tuples(st.floats(4, 56), st.floats(4, 36), st.floats(-180, 180),
                                    st.sampled_from(["red", "blue"])), max_size=6))
def test_many_places_answer_as_each_alone(t: Table,
                                          places: list[tuple[float, float, float, str]]) -> None:
    from smoothbore.table import gaps, nearest_enemies, sharing_ground, stands_on_many

    ends = [Footprint(f"p{i}", x, y, f, 2, 1.5, 1, side=side)
            for i, (x, y, f, side) in enumerate(places)]
    near = nearest_enemies(t, ends)
    on = stands_on_many(t, ends)
    for end, found, stood in zip(ends, near, on, strict=True):
        enemies = [f for f in t.footprints if f.side and f.side != end.side]
        if not enemies:
            assert found is None
        else:
            apart = gaps(end, enemies).tolist()
            assert found == min(zip(apart, [e.unit_id for e in enemies], strict=True))
        assert sorted(stood) == sorted(sharing_ground(end, t.footprints))
