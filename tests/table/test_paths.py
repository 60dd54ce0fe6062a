"""Moves: routes through terrain, their cost under rate tables, how far a unit gets with its
allowance, wheels, facing changes, retiring and routs."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import attrs
import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from smoothbore.core import IllegalActionError, InvalidValueError
from smoothbore.table import (
    Combine,
    CrossingCost,
    Edge,
    Feature,
    Footprint,
    Formation,
    ImpassableError,
    PassageKind,
    RateTable,
    Route,
    Table,
    TerrainKind,
    furthest,
    percent,
    reachable,
    retire,
    rout,
    rout_options,
    route,
    short_of_units,
    sweep,
    turn,
    wheel,
)
from smoothbore.table.footprints import bearing_vectors, normal_degrees
from smoothbore.table.paths import (
    Destination,
    _contact_distance,
    _edge_limit,
    _near,
    _route_exact,
    _run,
    _run_corners,
    _segments,
    _walk,
    _worth_casting_arrays,
    _worth_casting_floats,
)

K = TerrainKind
# Will's close order foot (Rules - Movement, terrain effects), as data
WILL_CO_FOOT = RateTable(
    speeds={K.ROUGH: Fraction(2, 3), K.DENSE_WOODS: Fraction(1, 3), K.RIVER: None,
            K.FORD: Fraction(2, 3), K.IMPASSABLE: None},
    passages={K.FENCE: CrossingCost(share=Fraction(1, 2)),
              K.STREAM: CrossingCost(share=Fraction(1, 2))},
    rule="Will's AWI, Rules - Movement")


def a_unit(x: float = 20, y: float = 10, facing: float = 0, side: str = "red",
           uid: str = "A") -> Footprint:
    # 4" wide (two 2" bases), 1" deep
    return Footprint(uid, x, y, facing, 2, 2, 1, side=side)


def table(*features: Feature, others: tuple[Footprint, ...] = (), **kw: object) -> Table:
    return Table(60, 40, features=features, footprints=(a_unit(), *others), **kw)  # type: ignore[arg-type]


WOODS = Feature.rectangle("w1", "dense woods", 20, 15, 10, 3)  # y 13.5 to 16.5


def test_a_route_through_three_inches_of_dense_woods() -> None:
    r = route(table(WOODS), "A", (20, 30))
    assert [round(leg.length, 9) for leg in r.legs] == [3.5, 3.0, 13.5]
    assert [leg.kinds for leg in r.legs] == [frozenset(), {K.DENSE_WOODS}, frozenset()]
    assert [(p.feature, p.event, p.at) for p in r.passages] == [
        ("w1", PassageKind.ENTER, pytest.approx(3.5)),
        ("w1", PassageKind.LEAVE, pytest.approx(6.5))]
    assert r.length == pytest.approx(20.0) and not r.retiring and r.on_table
    assert r.swept == {K.DENSE_WOODS} and r.end.centre == (20, 30)
    # at a third of speed in dense woods: 3.5 + 3 * 3 + 13.5 = 26
    assert WILL_CO_FOOT.cost(r, table(WOODS)) == pytest.approx(26.0)


def test_rates_in_one_place_combine() -> None:
    # rough ground (y 14.5 to 15.5) inside the woods: 1" of both
    rough = Feature.rectangle("r1", "rough ground", 20, 15, 10, 1)
    t = table(WOODS, rough)
    r = route(t, "A", (20, 30))
    assert [leg.kinds for leg in r.legs][2] == {K.DENSE_WOODS, K.ROUGH}
    # multiplied: 1 / (2/3 * 1/3) = 4.5 for that inch: 3.5 + 3 + 4.5 + 3 + 13.5 = 27.5
    assert WILL_CO_FOOT.cost(r, t) == pytest.approx(27.5)
    slowest = RateTable(speeds=dict(WILL_CO_FOOT.speeds), combine=Combine.SLOWEST)
    assert slowest.cost(r, t) == pytest.approx(26.0)
    # a road through the woods, where the rates let roads hide the ground
    road = Feature("road", "road", line=((20, 0), (20, 40)), width=2)
    by_road = RateTable(speeds={K.DENSE_WOODS: Fraction(1, 3)}, masks={K.ROAD: {K.DENSE_WOODS}})
    assert by_road.cost(route(table(WOODS, road), "A", (20, 30)), t) == pytest.approx(20.0)


def test_crossing_a_fence_costs_half_a_move() -> None:
    fence = Feature("f1", "fence", line=((0, 25), (60, 25)))
    t = table(fence)
    r = route(t, "A", (20, 30))
    assert [(p.feature, p.event, p.at) for p in r.passages] == [
        ("f1", PassageKind.CROSS, pytest.approx(15.0))]
    # close order foot moving 6": 20" of open ground and half of 6" for the fence
    assert WILL_CO_FOOT.cost(r, t, full_move=6) == pytest.approx(23.0)
    with pytest.raises(InvalidValueError) as error:
        WILL_CO_FOOT.cost(r, t)
    assert error.value.field == "full_move"


def test_a_river_is_impassable_except_at_a_ford() -> None:
    river = Feature("r", "river", line=((0, 30), (60, 30)), width=6)  # y 27 to 33
    t = table(river)
    with pytest.raises(ImpassableError) as error:
        WILL_CO_FOOT.cost(route(t, "A", (20, 38)), t)
    assert error.value.feature == "r" and error.value.kind is K.RIVER
    assert isinstance(error.value, IllegalActionError)
    assert "r (river) is impassable" in str(error.value)
    assert "Will's AWI, Rules - Movement" in str(error.value)
    ford = Feature.rectangle("ford", "ford", 20, 30, 4, 8)
    t = table(river, ford)
    r = route(t, "A", (20, 38))
    assert K.RIVER not in set().union(*(leg.kinds for leg in r.legs))
    assert [p.feature for p in r.passages] == ["ford", "ford"]  # in and out of the ford
    # y 10 to 26 open, 26 to 34 in the ford at 2/3, 34 to 38 open: 16 + 12 + 4
    assert WILL_CO_FOOT.cost(r, t) == pytest.approx(32.0)


def test_a_bridge_carries_a_move_over_a_stream() -> None:
    stream = Feature("s", "stream", line=((0, 25), (60, 25)), width=2)
    bridge = Feature.rectangle("b", "bridge", 20, 25, 3, 4)
    t = table(stream, bridge)
    assert [p.kind for p in route(t, "A", (20, 30)).passages] == [K.BRIDGE, K.BRIDGE]
    assert [p.kind for p in route(t, "A", (30, 30)).passages] == [K.STREAM]


def test_how_far_with_an_allowance() -> None:
    assert furthest(table(), "A", 0, 6, WILL_CO_FOOT).distance == pytest.approx(6.0)
    # 3.5" of open ground, then the other 2.5" of allowance at a third of speed
    far = furthest(table(WOODS), "A", 0, 6, WILL_CO_FOOT)
    assert far.distance == pytest.approx(3.5 + 2.5 / 3)
    assert far.cost == pytest.approx(6.0) and far.stopped_by == "allowance"
    assert far.point == pytest.approx((20, 10 + 3.5 + 2.5 / 3))


def test_stopped_by_units_edges_and_impassable_ground() -> None:
    # P: its lower edge at y = 13.5, 3" beyond A's front edge (y = 10.5)
    p = a_unit(20, 14, 180, side="blue", uid="P")
    stop = furthest(table(others=(p,)), "A", 0, 12, WILL_CO_FOOT)
    assert stop.distance == pytest.approx(3.0) and stop.stopped_by == "P"
    # keeping 1" from enemies (Will: moves may not end within 1" of an enemy)
    assert furthest(table(others=(p,)), "A", 0, 12, WILL_CO_FOOT,
                    clearance=1).distance == pytest.approx(2.0)
    # a friend may be passed through when the rules allow
    friend = a_unit(20, 14, 0, uid="F")
    assert furthest(table(others=(friend,)), "A", 0, 12, WILL_CO_FOOT,
                    through=("F",)).distance == pytest.approx(12.0)
    # straight back: the rear edge (y = 9.5) reaches the table edge after 9.5"
    back = furthest(table(), "A", 180, 20, WILL_CO_FOOT)
    assert back.distance == pytest.approx(9.5) and back.stopped_by == "table edge"
    assert back.route.retiring
    # impassable ground from y = 13: the front edge meets it after 2.5"
    cliff = Feature.rectangle("cliff", "impassable ground", 20, 14, 30, 2)
    stop = furthest(table(cliff), "A", 0, 12, WILL_CO_FOOT)
    assert stop.distance == pytest.approx(2.5) and stop.stopped_by == "cliff"


def test_destinations_within_an_allowance() -> None:
    found = reachable(table(), "A", 6, WILL_CO_FOOT, headings=(0, 90), fractions=(1.0, 0.5))
    assert [(d.heading, round(d.distance, 9)) for d in found] == [
        (0, 6), (0, 3), (90, 6), (90, 3)]
    assert found[2].point == pytest.approx((26, 10))
    assert found[3].cost == pytest.approx(3.0)


def test_retiring_keeps_the_facing() -> None:
    r = retire(table(), "A", 3)
    assert r.retiring and r.end.centre == pytest.approx((20, 7)) and r.end.facing == 0


def test_wheels() -> None:
    # to the right about the right front corner (22, 10.5): the outer corner travels the
    # quarter circle of radius 4, 2 pi; the centre goes from (20, 10) to (21.5, 12.5)
    w = wheel(a_unit(), 90)
    assert w.distance == pytest.approx(2 * math.pi)
    assert w.end.facing == 90 and w.end.centre == pytest.approx((21.5, 12.5))
    # to the left round a 3" circle (the pivot 1.5" beyond the left corner, at (16.5, 10.5)):
    # the outer corner travels (4 + 1.5) pi / 2; the centre ends at (17, 14), facing left
    w = wheel(a_unit(), -90, pivot_gap=1.5)
    assert w.distance == pytest.approx(5.5 * math.pi / 2)
    assert w.end.centre == pytest.approx((17, 14)) and w.end.facing == -90
    assert w.swept.area > a_unit().area


def test_facing_changes_are_blocked_by_what_they_would_strike() -> None:
    # turning about its centre, A's corners sweep out to hypot(2, 0.5) = 2.06": a unit whose
    # edge is 2" from A's centre is struck, a wall 3" away is not
    q = a_unit(20, 12.5, 0, side="blue", uid="Q")
    wall = Feature("wall", "wall", line=((10, 13), (30, 13)))
    t = table(wall, others=(q,))
    turned = turn(t, "A", 90)
    assert turned.blocked_by == ("Q",) and turned.end.facing == 90
    assert turn(table(wall), "A", 180).blocked_by == ()
    near_wall = Feature("wall", "wall", line=((10, 11.5), (30, 11.5)))
    assert turn(table(near_wall), "A", 45).blocked_by == ("wall",)


def test_a_rout_runs_away_from_the_enemy() -> None:
    north = a_unit(20, 30, 180, side="blue", uid="N")
    r = rout(table(others=(north,)), "A", 6)
    assert r is not None and r.heading == 180
    assert r.gains == (("N", pytest.approx(6.0)),)
    assert r.end.centre == pytest.approx((20, 4)) and not r.leaves_table
    # with enemies to the north and the east it runs south-west, further from both
    east = a_unit(50, 10, 270, side="blue", uid="E")
    r = rout(table(others=(north, east)), "A", 6)
    assert r is not None and 215 <= r.heading <= 235
    assert all(gain > 0 for _, gain in r.gains)
    # every heading that gains from both lies between south and west, best first
    options = rout_options(table(others=(north, east)), "A", 6)
    assert options[0] == r and all(180 <= o.heading < 270 for o in options)
    assert len(options) > 5


@settings(max_examples=60, deadline=None)
@given(st.floats(10, 50), st.floats(10, 30), st.floats(-180, 180), st.floats(0, 12),
       st.sampled_from([(20, 30, 180), (50, 10, 270), (5, 35, 135)]))
def test_a_rout_ends_where_its_footprint_would(x: float, y: float, facing: float,
                                               distance: float,
                                               enemy: tuple[float, float, float]) -> None:
    # the headings are priced from corners worked out without making footprints: they must
    # be the footprints' own to the bit, and each option's gains the distances gained
    # measured from those footprints
    a = a_unit(x, y, facing)
    headings = [i * 5.0 for i in range(72)]
    corners = _run_corners(a, headings, distance)
    for h, row in zip(headings, corners, strict=True):
        assert (row == _run(a, h, distance).corners).all()
    t = table(others=(a_unit(*enemy, side="blue", uid="N"),))
    t = t.placed(a)
    options = rout_options(t, "A", distance)
    assert rout(t, "A", distance) == (options[0] if options else None)
    before = shapely.distance(a.shape, t.footprint("N").shape)
    for option in options:
        assert option.end == _run(a, option.heading, distance)
        (_, gain), = option.gains
        assert gain == shapely.distance(option.end.shape, t.footprint("N").shape) - before
        assert gain > 0


def test_a_compulsory_move_stops_short_of_a_unit_it_would_end_on() -> None:
    # A (4" wide, 1" deep, y 9.5-10.5) runs 10" north, to y 19.5-20.5; a friend F stands
    # across its way at y 18-20 (2" deep): A stops with its front edge on F's rear edge,
    # its centre at y 17.5 (7.5" run)
    friend = Footprint("F", 20, 19, 0, 2, 2, 2, side="red")
    t = table(others=(friend,))
    start = t.footprint("A")
    end, landed = short_of_units(t, start, start.moved_to(20, 20, 0))
    assert landed == "F" and end.centre == pytest.approx((20, 17.5), abs=1e-6)
    assert end.facing == 0 and not shapely.relate_pattern(end.shape, friend.shape, "T********")
    # the end keeps its own facing (a rout turned to run): turned about, the same stop
    run, _ = short_of_units(t, start, start.moved_to(20, 20, 180))
    assert run.facing == 180 and run.centre == pytest.approx((20, 17.5), abs=1e-6)
    # an end clear of every unit is kept, touching is not standing on
    assert short_of_units(t, start, start.moved_to(20, 17.5, 0)) == (
        start.moved_to(20, 17.5, 0), "")
    # a unit along the whole way (y 10.5-21, its rear edge on A's front edge): no point of
    # the way is clear, and A stays where it stood
    wall = Footprint("W", 20, 15.75, 0, 1, 4, 10.5, side="blue")
    blocked = table(others=(wall,))
    assert short_of_units(blocked, start, start.moved_to(20, 20, 0)) == (start, "W")
    with pytest.raises(InvalidValueError, match="step"):
        short_of_units(t, start, start, step=0)


def test_a_surrounded_unit_cannot_rout() -> None:
    a = a_unit(30, 20)
    ring = (a_unit(30, 28, 180, "blue", "N"), a_unit(30, 12, 0, "blue", "S"),
            a_unit(40, 20, 270, "blue", "E"), a_unit(20, 20, 90, "blue", "W"))
    assert rout(Table(60, 40, footprints=(a, *ring)), "A", 6) is None


def test_unseen_enemies_do_not_steer_a_rout() -> None:
    # the enemy to the north is behind a house: only the one to the east counts
    house = Feature.rectangle("house", "building", 20, 20, 10, 2)
    north = a_unit(20, 30, 180, side="blue", uid="N")
    east = a_unit(50, 10, 270, side="blue", uid="E")
    r = rout(table(house, others=(north, east)), "A", 6)
    assert r is not None and r.heading == 270 and [e for e, _ in r.gains] == ["E"]


def test_with_no_enemy_in_sight_it_runs_for_home() -> None:
    r = rout(table(home_edges={"red": Edge.NEAR}), "A", 12)
    assert r is not None and r.heading == 180 and r.leaves_table
    assert rout(table(), "A", 3).heading == 180  # type: ignore[union-attr]


def test_percentages_and_bad_rate_tables() -> None:
    assert percent(66) == Fraction(33, 50)
    assert RateTable(speeds={"swamp": percent(33)}).rate(K.SWAMP) == Fraction(33, 100)
    for bad, field in [({"swamp": 0}, "RateTable.speeds['swamp']"),
                       ({"swamp": "slow"}, "RateTable.speeds['swamp']"),
                       ({"bog": 1}, "RateTable.speeds")]:
        with pytest.raises(InvalidValueError) as error:
            RateTable(speeds=bad)
        assert error.value.field == field
    with pytest.raises(InvalidValueError) as error:
        RateTable(passages={K.FENCE: 3})
    assert error.value.field == "RateTable.passages[<TerrainKind.FENCE: 'fence'>]"
    with pytest.raises(InvalidValueError):
        CrossingCost(share=-1)
    with pytest.raises(InvalidValueError) as error:
        route(table(), "A", (math.nan, 3))
    assert error.value.field == "points[0][0]"
    with pytest.raises(InvalidValueError):
        route(table(), "A")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(3, 57), st.floats(3, 37)), min_size=1, max_size=4))
def test_in_open_ground_a_route_costs_its_length(points: list[tuple[float, float]]) -> None:
    t = table()
    r = route(t, "A", *points)
    path = [(20.0, 10.0), *points]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(path))
    assert r.length == pytest.approx(length, abs=1e-9)
    assert WILL_CO_FOOT.cost(r, t) == pytest.approx(length, abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(3, 57), st.floats(3, 37)), min_size=1, max_size=4))
def test_legs_cover_the_route(points: list[tuple[float, float]]) -> None:
    rough = Feature("r", "rough ground", outline=((5, 5), (40, 8), (30, 30), (8, 25)))
    t = table(WOODS, rough)
    r = route(t, "A", *points)
    path = [(20.0, 10.0), *points]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(path))
    assert r.length == pytest.approx(length, abs=1e-9)
    assert WILL_CO_FOOT.cost(r, t) >= r.length - 1e-9  # nothing is faster than open ground
    enters = [p for p in r.passages if p.event is PassageKind.ENTER]
    leaves = [p for p in r.passages if p.event is PassageKind.LEAVE]
    assert abs(len(enters) - len(leaves)) <= 2  # it may start or end inside


def test_what_a_move_sweeps() -> None:
    # A spans x 18 to 22, y 9.5 to 10.5; the woods x 15 to 25, y 13.5 to 16.5
    t = table(WOODS)
    assert sweep(t, "A", (20, 12)) == (frozenset(), ())  # the front edge stops at 12.5
    assert sweep(t, "A", (20, 13)) == (frozenset(), ())  # the front edge on the woods' edge
    assert sweep(t, "A", (20, 13.5)) == ({K.DENSE_WOODS}, ())  # half an inch into them
    # straight to (30, 30) the footprint passes over the woods' right-hand part (at y 15 its
    # centre is at x 22.5, it spans 20.5 to 24.5); right to x 30 first (28 to 32) it does not
    assert sweep(t, "A", (30, 30)) == ({K.DENSE_WOODS}, ())
    assert sweep(t, "A", (30, 10), (30, 30)) == (frozenset(), ())
    for points in [((20, 12),), ((20, 13.5),), ((30, 30),), ((30, 10), (30, 30))]:
        r = route(t, "A", *points)
        assert sweep(t, "A", *points) == (r.swept, r.units_crossed)


def test_the_units_and_lines_a_move_sweeps() -> None:
    # P's near edge at y 13.5; a fence along y = 25
    p = a_unit(20, 14, 180, side="blue", uid="P")
    fence = Feature("f1", "fence", line=((0, 25), (60, 25)))
    t = table(fence, others=(p,))
    assert sweep(t, "A", (20, 13)) == (frozenset(), ())  # front edges touch: not into P
    assert sweep(t, "A", (20, 13.2)) == (frozenset(), ("P",))  # 0.2" into P
    # to (40, 13.2) its left front corner runs (18, 10.5) to (38, 13.7): at P's right edge
    # (x 22) it is at y 11.14, below P; to (26, 18) it passes (20.625, 14), inside P
    assert sweep(t, "A", (40, 13.2)) == (frozenset(), ())
    assert sweep(t, "A", (26, 18)) == (frozenset(), ("P",))
    assert sweep(t, "A", (40, 24.4)) == (frozenset(), ())  # the front edge at 24.9
    assert sweep(t, "A", (40, 24.6)) == ({K.FENCE}, ())  # at 25.1: over the fence
    with pytest.raises(InvalidValueError) as error:
        sweep(t, "A")
    assert error.value.field == "points"


def test_open_ground_is_answered_by_the_boxes_alone() -> None:
    # nothing in the box round A's move from y 10 to 12 (x 18 to 22, y 9.5 to 12.5)
    t = table(WOODS, others=(a_unit(30, 12, uid="B"),))
    fp = t.footprint("A")
    near = _near(t, fp, (fp.centre, (20.0, 12.0)))
    assert not (near.areas or near.lines or near.units)
    near = _near(t, fp, (fp.centre, (20.0, 14.0)))  # the box reaches the woods
    assert near.areas and not near.units
    r = route(t, "A", (20, 12))
    assert [(leg.start, leg.end, leg.length, leg.kinds) for leg in r.legs] == [
        ((20, 10), (20, 12), 2.0, frozenset())]
    assert r.passages == () and r == _route_exact(t, "A", (20, 12))


# a busy table: areas and lines with edges on the half-inch grid (so moves on the grid touch
# them), water with a bridge and a ford, a road through woods, friends and enemies
BUSY = (
    WOODS,
    Feature("rough", "rough ground", outline=((30, 5), (40, 8), (36, 14), (31, 12))),
    Feature("hill", "gentle hill", outline=((5, 18), (14, 17), (12, 24), (6, 23))),
    Feature("fence", "fence", line=((5, 25), (35, 25))),
    Feature("wall", "wall", line=((42, 8), (42, 20), (48, 22))),
    Feature("stream", "stream", line=((0, 32), (30, 32), (60, 34)), width=2),
    Feature.rectangle("bridge", "bridge", 20, 32, 3, 4),
    Feature("river", "river", line=((52, 0), (52, 28)), width=4),
    Feature.rectangle("ford", "ford", 52, 10, 6, 3),
    Feature.rectangle("house", "building", 45, 28, 4, 3),
    Feature("road", "road", line=((20, 0), (20, 40)), width=2),
    Feature.rectangle("cliff", "impassable ground", 8, 36, 6, 2),
)
CROWD = (
    a_unit(30, 20, 180, side="blue", uid="P"),
    Footprint("Q", 10, 8, 90, 3, 2, 1, Formation.SKIRMISH, side="blue"),
    Footprint("F", 45, 15, 0, 3, 2, 1, Formation.COLUMN, side="red"),
    a_unit(25, 28, 45, side="red", uid="G"),
)
coordinate = st.one_of(st.integers(0, 120).map(lambda n: n / 2), st.floats(0, 60))
facing = st.one_of(st.sampled_from([0.0, 45.0, 90.0, 180.0, 270.0]), st.floats(-180, 360))


@settings(max_examples=300, deadline=None)
@given(coordinate, coordinate, facing,
       st.lists(st.tuples(coordinate, coordinate.map(lambda v: v * 2 / 3)), min_size=1,
                max_size=3),
       st.floats(-180, 180), st.floats(0, 30))
def test_the_quick_route_is_the_exact_route(x: float, y: float, face: float,
                                            points: list[tuple[float, float]],
                                            heading: float, budget: float) -> None:
    mover = Footprint("M", x, y * 2 / 3, face, 2, 2, 1, side="red")
    assume(Table(60, 40).holds(mover))
    t = Table(60, 40, features=BUSY, footprints=(mover, *CROWD))
    for moves in ([points[0]], points):
        quick, exact = route(t, "M", *moves), _route_exact(t, "M", *moves)
        for field in attrs.fields(Route):
            assert getattr(quick, field.name) == getattr(exact, field.name), field.name
        assert repr(quick.legs) == repr(exact.legs)  # the same floats, signs of zero too
        assert sweep(t, "M", *moves) == (exact.swept, exact.units_crossed)
    far = furthest(t, "M", heading, budget, WILL_CO_FOOT, full_move=6.0)
    assert far.route == _route_exact(t, "M", *far.route.points[1:])


# -- furthest against a straightforward reference: every ray cast, every tree asked ----------


def _reference_contact_distance(corners: Any, shape: Any, dx: float, dy: float,
                                limit: float) -> float:
    """The nearest hit of every ray from the outline's corners forward onto the shape and
    from every vertex of the shape back onto the outline (inf: none within ``limit``)."""
    reach = limit + 1.0
    best = math.inf
    rays = shapely.linestrings(np.stack([corners, corners + np.array([dx, dy]) * reach], axis=1))
    coords, which = shapely.get_coordinates(
        shapely.intersection(rays, shapely.boundary(shape)), return_index=True)
    if len(coords):
        d = (coords[:, 0] - corners[which, 0]) * dx + (coords[:, 1] - corners[which, 1]) * dy
        best = min(best, float(d.min()))
    vertices = shapely.get_coordinates(shape)
    back = shapely.linestrings(
        np.stack([vertices, vertices - np.array([dx, dy]) * reach], axis=1))
    coords, which = shapely.get_coordinates(
        shapely.intersection(back, Polygon(corners).exterior), return_index=True)
    if len(coords):
        d = (vertices[which, 0] - coords[:, 0]) * dx + (vertices[which, 1] - coords[:, 1]) * dy
        best = min(best, float(d.min()))
    return best if best <= limit else math.inf


def _reference_contact(t: Table, fp: Footprint, dx: float, dy: float, limit: float,
                       rates: RateTable, through: set[str],
                       clearance: float) -> tuple[float, str]:
    """What the moving footprint touches first: every unit and impassable area the (widened)
    swept hull meets, by the trees, in their order; each asked for its contact distance."""
    corners = fp.corners
    swept = shapely.convex_hull(shapely.multipoints(
        np.concatenate((corners, np.add(corners, (dx * limit, dy * limit))))))
    reached = shapely.buffer(swept, clearance) if clearance else swept
    enemies = set(t.enemies_of(fp.unit_id))
    obstacles = []
    for u in t.layout.tree.query(reached, predicate="intersects"):
        other = t.layout.footprints[u]
        if other.unit_id == fp.unit_id or other.unit_id in through:
            continue
        shape = t.layout.shapes[u]
        if clearance and other.unit_id in enemies:
            shape = shapely.buffer(shape, clearance)
        obstacles.append((other.unit_id, shape))
    terrain = t.terrain
    for k in terrain.area_tree.query(swept, predicate="intersects"):
        feature = terrain.area_features[k]
        if rates.rate(feature.kind) is None and not (
                feature.kind in {K.RIVER, K.STREAM} and any(
                    t.terrain.union(kind) is not None
                    and shapely.intersects(t.terrain.union(kind), feature.area)
                    for kind in (K.FORD, K.BRIDGE))):
            obstacles.append((feature.feature_id, feature.area))
    best, what = math.inf, ""
    for name, shape in obstacles:
        common = shapely.area(shapely.intersection(fp.outline, shape))
        hair = 1e-6 * (1 + float(np.abs(corners).max()))
        if common > hair * (fp.width + fp.length):  # standing in it (not a rounding sliver)
            continue
        # each part on its own: one it touches blocks at once if a small step along the
        # move enters it, and is left behind otherwise (the parts are convex)
        step = Polygon(np.add(corners, (dx * 1e-6, dy * 1e-6)))
        for part in shapely.get_parts(shape):
            if shapely.distance(fp.outline, part) > 1e-9:
                d = _reference_contact_distance(corners, part, dx, dy, limit)
            elif shapely.relate_pattern(step, part, "T********"):
                d = 0.0
            else:
                continue
            if d < best:
                best, what = d, name
    return best, what


def _reference_furthest(t: Table, uid: str, heading: float, budget: float, rates: RateTable,
                        full_move: float, through: set[str], clearance: float) -> Destination:
    """``furthest`` the long way: the exact route of the whole ray, walked; then the exact
    route to where the walk stops."""
    fp = t.footprint(uid)
    (dx, dy), _ = bearing_vectors(fp.facing + heading)
    limit, why = _edge_limit(t, fp, dx, dy), "table edge"
    fastest = max([Fraction(1)] + [r for _, r in rates.speeds if r is not None])
    if budget * float(fastest) < limit:
        limit, why = budget * float(fastest), "allowance"
    block, what = _reference_contact(t, fp, dx, dy, limit, rates, through, clearance)
    if block < limit:
        limit, why = block, what
    ray = _route_exact(t, uid, (fp.x + dx * limit, fp.y + dy * limit))
    go, spent, reason = _walk((ray.legs, ray.passages), rates, t, budget, full_move)
    if go < limit - 1e-9 or reason != "allowance":
        limit, why = go, reason
    point = (fp.x + dx * limit, fp.y + dy * limit)
    final = _route_exact(t, uid, point) if 0 < limit < ray.length - 1e-9 else ray
    return Destination(normal_degrees(heading), point, limit, spent if limit > 0 else 0.0, why,
                       final)


WILL_IN_WOODS = RateTable(speeds={**dict(WILL_CO_FOOT.speeds), K.DENSE_WOODS: None},
                          passages=dict(WILL_CO_FOOT.passages), rule="no woods")


def test_a_unit_touching_others_moves_off_them_but_not_into_them() -> None:
    # A (4" x 1" at (20, 10), facing north) with a friend touching its rear (B) and one
    # touching its right flank (C): ahead it slides past C and leaves B (the whole 6"), to
    # its left it leaves both; back, right and ahead-right go into a unit at once
    b = a_unit(20, 9, side="red", uid="B")
    c = a_unit(24, 10, side="red", uid="C")
    t = table(others=(b, c))
    for heading, distance, stopper in [(0, 6.0, "allowance"), (-90, 6.0, "allowance"),
                                       (-45, 6.0, "allowance"), (180, 0.0, "B"),
                                       (90, 0.0, "C"), (45, 0.0, "C"), (135, 0.0, "B")]:
        went = furthest(t, "A", heading, 6, WILL_CO_FOOT)
        assert (went.distance, went.stopped_by) == (pytest.approx(distance), stopper), heading
    # a friend whose front is rounded a hair into A's rear touches it, as one exactly there
    sliver = table(others=(a_unit(20, 9 + 4e-15, side="red", uid="B"),))
    assert shapely.area(shapely.intersection(sliver.footprint("A").outline,
                                             sliver.footprint("B").shape)) > 0
    assert furthest(sliver, "A", 180, 6, WILL_CO_FOOT).distance == 0.0
    assert furthest(sliver, "A", 0, 6, WILL_CO_FOOT).distance == pytest.approx(6.0)
    # a friend touching at a corner only: moving away diagonally is free, into it is not
    d = a_unit(16, 11, side="red", uid="D")  # its right rear corner on A's left front one
    t = table(others=(d,))
    assert furthest(t, "A", 135, 3, WILL_CO_FOOT).distance == pytest.approx(3.0)
    assert furthest(t, "A", -45, 3, WILL_CO_FOOT).stopped_by == "D"
    assert furthest(t, "A", -45, 3, WILL_CO_FOOT).distance == 0.0


@settings(max_examples=400, deadline=None)
@given(coordinate, coordinate, facing,
       st.one_of(st.sampled_from([0.0, 45.0, -45.0, 90.0, -90.0, 180.0]), st.floats(-180, 180)),
       st.floats(0, 30), st.sampled_from([0.0, 1.0, 0.5]), st.sets(st.sampled_from("PQFG")),
       st.booleans())
def test_furthest_is_the_reference_walk(x: float, y: float, face: float, heading: float,
                                        budget: float, clearance: float, through: set[str],
                                        woods: bool) -> None:
    mover = Footprint("M", x, y * 2 / 3, face, 2, 2, 1, side="red")
    assume(Table(60, 40).holds(mover))
    t = Table(60, 40, features=BUSY, footprints=(mover, *CROWD))
    rates = WILL_IN_WOODS if woods else WILL_CO_FOOT
    far = furthest(t, "M", heading, budget, rates, full_move=6.0, through=through,
                   clearance=clearance)
    slow = _reference_furthest(t, "M", heading, budget, rates, 6.0, through, clearance)
    assert repr(far) == repr(slow)  # every field, to the last bit
    assert far == slow


@settings(max_examples=300, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), facing,
       st.one_of(st.sampled_from([0.0, 90.0, 45.0, 180.0]), st.floats(-180, 180)),
       st.integers(0, 40).map(lambda n: n / 4), st.sampled_from([0.0, 1.0, 0.25]),
       st.sampled_from(["rectangle", "buffered", "polygon"]))
def test_casting_only_the_rays_that_may_be_nearest(x: int, y: int, face: float,
                                                   heading: float, limit: float,
                                                   clearance: float, kind: str) -> None:
    # obstacles on the half-inch grid, edges parallel to the move, vertices on its lines
    mover = Footprint("M", 0, 0, face, 2, 2, 1)
    shape: Any = shapely.box(x / 2, y / 2, x / 2 + 2, y / 2 + 1)
    if kind == "buffered":
        shape = shapely.buffer(shape, clearance or 1.0)
    elif kind == "polygon":
        shape = Polygon([(x / 2, y / 2), (x / 2 + 3, y / 2), (x / 2 + 1, y / 2 + 2)])
    (dx, dy), _ = bearing_vectors(face + heading)
    assert _contact_distance(mover.corners, shape, dx, dy, limit) == \
        _reference_contact_distance(mover.corners, shape, dx, dy, limit)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(list(K)), st.one_of(st.none(), st.fractions(
    Fraction(1, 10), Fraction(2), max_denominator=100))),
    st.sets(st.sampled_from(list(K)), max_size=3), st.sampled_from(list(Combine)))
def test_remembered_rates_are_the_rates(speeds: dict[TerrainKind, Fraction | None],
                                        kinds: set[TerrainKind], combine: Combine) -> None:
    # two tables that differ in one rate answer apart: the memo's key is the whole table
    rates = RateTable(speeds=speeds, combine=combine, masks={K.ROAD: {K.DENSE_WOODS}})
    other = RateTable(speeds={**speeds, K.SWAMP: Fraction(1, 7)}, combine=combine,
                      masks={K.ROAD: {K.DENSE_WOODS}})
    for table_, given_speeds in ((rates, speeds), (other, {**speeds, K.SWAMP: Fraction(1, 7)})):
        for kind in K:
            assert table_.rate(kind) == given_speeds.get(kind, Fraction(1))
        counted = [k for k in kinds if not (K.ROAD in kinds and k is K.DENSE_WOODS)]
        listed = [given_speeds.get(k, Fraction(1)) for k in counted]
        if any(r is None for r in listed):
            expected = None
        elif combine is Combine.SLOWEST:
            expected = min(listed, default=Fraction(1))
        else:
            expected = math.prod(listed, start=Fraction(1))
        assert table_.speed(frozenset(kinds)) == expected
    assert rates.passage(K.FENCE, PassageKind.CROSS) == CrossingCost()
    assert WILL_CO_FOOT.passage(K.FENCE, PassageKind.CROSS) == CrossingCost(share=Fraction(1, 2))


@settings(max_examples=400, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), facing,
       st.one_of(st.sampled_from([0.0, 90.0, 45.0, 180.0, -90.0]), st.floats(-180, 180)),
       st.integers(0, 40).map(lambda n: n / 4), st.floats(0.5, 4), st.floats(0.5, 3),
       st.floats(-90, 90), st.sampled_from(["rectangle", "turned", "polygon"]))
def test_the_rays_worth_casting_in_plain_floats_are_numpys(
        x: int, y: int, face: float, heading: float, limit: float, wide: float, deep: float,
        tilt: float, kind: str) -> None:
    """Issue 28: ``_worth_casting`` on a base against another (a few rays and segments)
    works in plain floats; the rays it casts are the numpy reference's, ray for ray, on
    bases on the half-inch grid (edges along the move, corners on its lines) and turned
    ones."""
    mover = Footprint("M", 0, 0, face, 2, 2, 1)
    shape: Any = shapely.box(x / 2, y / 2, x / 2 + wide, y / 2 + deep)
    if kind == "turned":
        shape = Footprint("O", x / 2, y / 2, tilt, 1, wide, deep).outline
    elif kind == "polygon":
        shape = Polygon([(x / 2, y / 2), (x / 2 + 3, y / 2), (x / 2 + 1, y / 2 + 2)])
    (dx, dy), _ = bearing_vectors(face + heading)
    corners = mover.corners
    reach = limit + 1.0
    vertices = shapely.get_coordinates(shape)
    ring = np.concatenate((corners, corners[:1]))
    scale = 1.0 + reach + float(np.abs(corners).max()) + float(np.abs(vertices).max())
    args = ((corners, _segments(shapely.boundary(shape))), (vertices, (ring[:-1], ring[1:])),
            np.array([dx, dy]), reach, limit, scale)
    plain, arrays = _worth_casting_floats(*args), _worth_casting_arrays(*args)
    for mine, theirs in zip(plain, arrays, strict=True):
        assert mine.dtype == theirs.dtype and mine.tolist() == theirs.tolist()


def test_a_contact_with_a_base_takes_its_sides_from_its_corners(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a base moving onto another (a polygon without holes) takes the other's
    sides from its corners, without breaking its boundary into pieces (``_segments``); a
    ring with a hole still is; both at the reference's distance (3" to go, then 2")."""
    import smoothbore.table.paths as paths

    pieces: list[object] = []
    real = paths._segments

    def counted(boundary: Any) -> Any:
        pieces.append(boundary)
        return real(boundary)

    monkeypatch.setattr(paths, "_segments", counted)
    mover = Footprint("M", 0, 0, 0.0, 2, 2, 1)
    base = shapely.box(-1, 3.5, 3, 4.5)
    assert _contact_distance(mover.corners, base, 0.0, 1.0, 10.0) == \
        _reference_contact_distance(mover.corners, base, 0.0, 1.0, 10.0) == 3.0
    assert pieces == []
    ring = Polygon([(-5, 2.5), (5, 2.5), (5, 9), (-5, 9)], [[(-4, 3.5), (4, 3.5), (4, 8), (-4, 8)]])
    assert _contact_distance(mover.corners, ring, 0.0, 1.0, 10.0) == \
        _reference_contact_distance(mover.corners, ring, 0.0, 1.0, 10.0) == 2.0
    assert len(pieces) == 1


@st.composite
def compulsory_moves(draw: st.DrawFn) -> tuple[Table, Footprint, Footprint, float]:
    """A crowd of units (lines, columns, skirmishers apart, turned every way), one of them
    routing from where it stands to an end that may fall on others."""
    units = []
    for i in range(draw(st.integers(1, 7))):
        formation = draw(st.sampled_from([Formation.LINE, Formation.COLUMN,
                                          Formation.SKIRMISH]))
        units.append(Footprint(f"u{i}", draw(st.floats(6, 34)), draw(st.floats(6, 24)),
                               draw(st.floats(-180, 180)), draw(st.integers(1, 3)),
                               draw(st.sampled_from([1.0, 1.5, 2.0])), 1.0, formation))
    start = Footprint("R", draw(st.floats(5, 35)), draw(st.floats(5, 25)),
                      draw(st.floats(-180, 180)), draw(st.integers(1, 3)), 1.5, 1.0,
                      draw(st.sampled_from([Formation.LINE, Formation.SKIRMISH])))
    end = start.moved_to(draw(st.floats(2, 38)), draw(st.floats(2, 28)),
                         draw(st.sampled_from([start.facing, 0.0, 90.0, 200.0])))
    return (Table(40, 30, footprints=(start, *units)), start, end,
            draw(st.sampled_from([0.1, 0.05, 0.37, 1.0])))


@settings(max_examples=150, deadline=None)
@given(compulsory_moves())
def test_short_of_units_is_the_plain_walk(move: tuple[Table, Footprint, Footprint,
                                                      float]) -> None:
    # the stretches read off in closed form give the very footprint the walk finds
    from smoothbore.table.paths import _short_of_units_stepped

    t, start, end, step = move
    assert short_of_units(t, start, end, step) == _short_of_units_stepped(t, start, end, step)


def test_short_of_units_in_millimetres_steps_a_tenth_at_a_time() -> None:
    # McKie: a 40 mm deep unit routing 110 mm onto a line 200 mm wide (y 190 to 210): tried
    # back 0.1 mm at a time, stopped short of it, its front edge on the line's rear edge
    # (within the halving's precision)
    from smoothbore.table.paths import _short_of_units_stepped

    start = Footprint("R", 500, 100, 180, 2, 40, 40)
    line = Footprint("L", 500, -100 + 300, 0, 5, 40, 20)  # rear edge y = 190
    t = Table(1000, 600, footprints=(start, line))
    end = start.moved_to(500, 210, 0)  # running up the table, now facing it: y 190 to 230
    stopped, landed = short_of_units(t, start, end)
    assert landed == "L" and stopped.front_centre[1] == pytest.approx(190.0, abs=1e-6)
    assert (stopped, landed) == _short_of_units_stepped(t, start, end)
