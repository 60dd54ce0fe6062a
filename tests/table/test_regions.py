"""Regions: the table's words for areas, lines and points (issue 29, item 1)."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    Edge,
    Face,
    Feature,
    Footprint,
    Formation,
    Region,
    Table,
    TerrainKind,
    arc_of,
    crossing_line,
    edge_of,
    gaps,
    ground_of,
    hull_of,
    intersecting,
    line,
    nearest_of,
    outline_of,
    point,
    polygon,
    region_of,
    regions_of,
    segment,
    sharing_ground,
    swept,
    table_edge,
    union_of,
    within_of,
)


def square(x: float, y: float, side: float = 1.0) -> Region:
    """The square with its lower left corner at (x, y)."""
    return polygon([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])


def unit(unit_id: str, x: float, y: float, facing: float = 0.0) -> Footprint:
    # one 1 x 1 base centred at (x, y)
    return Footprint(unit_id, x, y, facing)


# -- exact numbers on unit squares ------------------------------------------------------------

def test_unit_square_measures() -> None:
    s = square(0, 0)
    assert s.area == 1.0 and s.length == 4.0 and s.bounds == (0.0, 0.0, 1.0, 1.0)
    assert s.centre == (0.5, 0.5)
    assert s.coordinates.shape == (5, 2) and not s.coordinates.flags.writeable


def test_distances_between_unit_squares() -> None:
    a = square(0, 0)
    assert a.distance(square(3, 0)) == 2.0  # side by side, 2 apart
    assert a.distance(square(4, 5)) == 5.0  # corner (1, 1) to (4, 5): a 3-4-5 triangle
    assert a.distance((1, 3)) == 2.0  # a point above the top edge
    assert a.distance(square(0.5, 0.5)) == 0.0


def test_shares_ground_touches_and_intersects() -> None:
    a = square(0, 0)
    beside, over, apart = square(1, 0), square(0.5, 0), square(2, 0)
    assert a.touches(beside) and a.intersects(beside) and not a.shares_ground(beside)
    assert a.shares_ground(over) and not a.touches(over) and a.shared_area(over) == 0.5
    assert not (a.intersects(apart) or a.touches(apart) or a.shares_ground(apart))
    # a line along an edge meets the square but does not run through it
    assert not a.shares_ground(segment((0, 0), (1, 0))) and a.intersects(segment((0, 0), (1, 0)))
    assert a.shares_ground(segment((-1, 0.5), (2, 0.5)))


def test_within_is_closer_than_or_exactly() -> None:
    a, b = square(0, 0), square(3, 0)
    assert a.within(b, 2.0) and not a.within(b, 1.999)


def test_contains_interior_and_edge() -> None:
    a = square(0, 0)
    assert a.contains(0.5, 0.5) and not a.contains(1.0, 0.5)
    assert a.contains(1.0, 0.5, edge=True) and not a.contains(1.5, 0.5, edge=True)
    inside = a.contains_many([0.5, 1.0, 2.0], [0.5, 0.5, 0.5])
    assert inside.tolist() == [True, False, False]
    assert a.contains_many([1.0], [0.5], edge=True).tolist() == [True]


def test_nearest_points() -> None:
    near_a, near_b = square(0, 0).nearest(square(3, 0.25, 0.5))
    assert near_a[0] == 1.0 and near_b[0] == 3.0 and near_a[1] == near_b[1]
    assert 0.25 <= near_a[1] <= 0.75
    assert square(0, 0).nearest((3, 0.5)) == ((1.0, 0.5), (3.0, 0.5))


def test_union_intersection_difference_buffer_hull() -> None:
    a, b = square(0, 0), square(1, 0)
    assert a.union(b).area == 2.0 and a.union() is a
    assert square(0, 0, 2).intersection(square(1, 1, 2)).area == 1.0
    assert square(0, 0, 2).difference(square(1, 1, 2)).area == 3.0
    assert square(0, 0).intersection(square(5, 5)).is_empty
    assert a.buffered(1, square=True).area == 9.0
    assert a.buffered(1).area == pytest.approx(1 + 4 + math.pi, rel=2e-2)
    assert a.buffered(-0.25, square=True).area == 0.25
    assert polygon([(0, 0), (2, 0), (1, 0.5), (1, 2)]).hull().area == 2.0
    assert a.boundary().length == 4.0


def test_lines_and_points() -> None:
    assert segment((0, 0), (3, 4)).length == 5.0
    assert line([(0, 0), (3, 0), (3, 4)]).length == 7.0
    assert point(1, 2).area == 0 and point(1, 2).bounds == (1.0, 2.0, 1.0, 2.0)
    crossing = segment((0, -1), (0, 1)).intersection(segment((-1, 0), (1, 0)))
    assert crossing.coordinates.tolist() == [[0.0, 0.0]]


def test_footprints_and_features_are_places() -> None:
    a, b = unit("A", 0, 0), unit("B", 3, 0)  # 1 x 1 bases: 2 apart edge to edge
    assert region_of(a).distance(b) == 2.0
    assert region_of(a).area == 1.0 and outline_of(a).area == 1.0
    woods = Feature.rectangle("w", "light woods", 5, 0, 2, 2)
    assert region_of(a).distance(woods) == 3.5  # woods centred at (5, 0): x from 4 to 6
    assert region_of(woods).area == pytest.approx(4.0)


def test_skirmishers_ground_is_their_bases_and_outline_the_rectangle() -> None:
    # three 1 x 1 bases a frontage apart: 5 wide, 3 of ground
    sk = Footprint("S", 0, 0, 0, 3, 1, 1, Formation.SKIRMISH)
    assert region_of(sk).area == 3.0 and outline_of(sk).area == 5.0
    assert not region_of(sk).contains(-1.0, 0.0) and outline_of(sk).contains(-1.0, 0.0)


def test_swept_ground_of_a_straight_move() -> None:
    before, after = unit("A", 0, 0), unit("A", 0, 4)
    ground = hull_of(before, after)
    assert ground.area == 5.0 and ground == swept(before, after)
    assert ground.shares_ground(unit("X", 0, 2)) and not ground.shares_ground(unit("Y", 1, 2))
    assert ground.touches(unit("Y", 1, 2))
    assert hull_of((0, 0), (2, 0), (0, 2)).area == 2.0
    assert hull_of(square(0, 0), (3, 0)).area == 2.0


# -- many at once ----------------------------------------------------------------------------

def test_batch_helpers() -> None:
    a = unit("A", 0, 0)
    others = [unit("B", 3, 0), unit("C", 0, 5), unit("D", 0.5, 0)]
    assert gaps(a, others).tolist() == [2.0, 4.0, 0.0]
    assert within_of(a, others, 2.0).tolist() == [True, False, True]
    assert intersecting(a, others).tolist() == [False, False, True]
    assert sharing_ground(a, others) == ("D",)
    assert sharing_ground(square(0.5, -0.5), [unit("E", 2.0, 0)]) == ()  # touching only
    assert nearest_of(a, others[:2]) == (0, 2.0)
    assert gaps(a, []).shape == (0,) and sharing_ground(a, []) == ()
    assert union_of([square(0, 0), square(1, 0)]).area == 2.0


def test_regions_batch() -> None:
    many = regions_of([square(0, 0), square(3, 0), unit("C", 10, 10)])
    assert len(many) == 3 and many[0] == square(0, 0)
    assert many.distances((2, 0.5)).tolist() == [1.0, 1.0, pytest.approx(math.hypot(7.5, 9))]
    assert many.within(square(1, 0), 1.0).tolist() == [True, True, False]
    assert many.intersects(square(1, 0)).tolist() == [True, False, False]
    assert many.shares_ground(square(0.5, 0)).tolist() == [True, False, False]
    assert many.near(square(1, 0)) == (0,)
    assert many.near(square(1, 0), 1.0) == (0, 1)
    assert many.union().area == 3.0
    sk = Footprint("S", 0, 0, 0, 3, 1, 1, Formation.SKIRMISH)
    assert regions_of([sk], outlines=True)[0].area == 5.0


# -- values ----------------------------------------------------------------------------------

def test_regions_are_values_and_pickle() -> None:
    a = square(0, 0)
    assert a == square(0, 0) and hash(a) == hash(square(0, 0)) and a != square(1, 0)
    assert pickle.loads(pickle.dumps(a)) == a
    assert "area=1" in repr(a) and repr(square(0, 0).intersection(square(5, 5))) == \
        "Region(empty)"


@pytest.mark.parametrize("bad", [None, "A", (1,), (1, 2, 3), (math.nan, 0), (True, 1)])
def test_bad_places_are_refused_by_name(bad: object) -> None:
    with pytest.raises(InvalidValueError, match="other="):
        square(0, 0).distance(bad)  # type: ignore[arg-type]


def test_bad_shapes_are_refused_by_name() -> None:
    with pytest.raises(InvalidValueError, match="polygon="):
        polygon([(0, 0), (1, 1)])
    with pytest.raises(InvalidValueError, match="line="):
        line([(0, 0)])
    with pytest.raises(InvalidValueError, match="segment="):
        segment((0, 0), (math.inf, 0))
    with pytest.raises(InvalidValueError, match="point="):
        point(math.nan, 0)
    with pytest.raises(InvalidValueError, match="places="):
        hull_of()
    with pytest.raises(InvalidValueError, match="others="):
        gaps((0, 0), [None])  # type: ignore[list-item]
    with pytest.raises(InvalidValueError, match="footprint="):
        outline_of(square(0, 0))  # type: ignore[arg-type]


# -- properties ------------------------------------------------------------------------------

coords = st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 2))
footprints = st.builds(
    Footprint, st.just("U"), coords, coords, st.floats(-179, 180).map(lambda v: round(v, 1)),
    st.integers(1, 4), st.floats(0.5, 4).map(lambda v: round(v, 2)),
    st.floats(0.5, 3).map(lambda v: round(v, 2)), st.sampled_from(list(Formation)[:5]))


@settings(max_examples=60, deadline=None)
@given(footprints, footprints)
def test_distance_is_symmetric_and_hull_holds_both(a: Footprint, b: Footprint) -> None:
    ra, rb = region_of(a), region_of(b)
    assert ra.distance(rb) == pytest.approx(rb.distance(ra), abs=1e-9)
    hull = hull_of(a, b)
    assert hull.buffered(1e-6, square=True).covers(outline_of(a))
    assert hull.buffered(1e-6, square=True).covers(outline_of(b))
    assert hull.area >= max(outline_of(a).area, outline_of(b).area) - 1e-6


@settings(max_examples=60, deadline=None)
@given(footprints, footprints)
def test_shares_ground_iff_overlap_has_area(a: Footprint, b: Footprint) -> None:
    ra = region_of(a)
    shared = ra.shared_area(b)
    if shared > 1e-9:
        assert ra.shares_ground(b)
    if not ra.shares_ground(b):
        assert shared == pytest.approx(0.0, abs=1e-9)
    # touching and sharing never hold together; distance 0 iff they intersect
    assert not (ra.touches(b) and ra.shares_ground(b))
    assert (ra.distance(b) == 0.0) == ra.intersects(b)


@settings(max_examples=40, deadline=None)
@given(footprints, st.lists(footprints, min_size=1, max_size=5))
def test_batch_answers_are_the_single_answers(a: Footprint, others: list[Footprint]) -> None:
    ra = region_of(a)
    assert gaps(a, others).tolist() == [ra.distance(o) for o in others]
    assert within_of(a, others, 3.0).tolist() == [ra.within(o, 3.0) for o in others]
    assert intersecting(a, others).tolist() == [ra.intersects(o) for o in others]
    many = regions_of(others)
    near = many.near(a, 3.0)
    assert near == tuple(i for i, o in enumerate(others) if ra.within(o, 3.0))
    assert np.array_equal(many.shares_ground(a), [ra.shares_ground(o) for o in others])


# -- the table's own regions -----------------------------------------------------------------

def test_edges_lines_ground_and_arcs_of_a_table() -> None:
    a = Footprint("A", 10, 10, 0, 2, 2, 1)  # 4 wide, 1 deep: front y = 10.5, x 8..12
    front = edge_of(a, Face.FRONT)
    assert front.length == 4.0 and front.coordinates.tolist() == [[8, 10.5], [12, 10.5]]
    wall = Feature("wall", "wall", line=((0, 20), (30, 20)))
    woods = Feature.rectangle("w1", "light woods", 20, 5, 2, 2)
    more = Feature.rectangle("w2", "dense woods", 25, 5, 2, 2)
    assert crossing_line(wall) is not None and crossing_line(wall).length == 30.0  # type: ignore[union-attr]
    assert crossing_line(woods) is None
    table = Table(30, 30, features=(wall, woods, more), footprints=(a,))
    assert ground_of(table, TerrainKind.LIGHT_WOODS).area == 4.0
    assert ground_of(table, TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS).area == 8.0
    assert ground_of(table, TerrainKind.SWAMP).is_empty
    assert table_edge(table, Edge.FAR).coordinates.tolist() == [[0, 30], [30, 30]]
    arc = arc_of(table, "A", 45.0, 5.0)
    assert arc.contains(10, 15) and not arc.contains(10, 9) and arc.contains(14, 14)
    assert not arc.contains(20, 11)
    with pytest.raises(InvalidValueError, match="face="):
        edge_of(a, "front")  # type: ignore[arg-type]


# -- batch forms McKie asked for ----------------------------------------------------------

def test_nearest_many_point_to_place_row_by_row() -> None:
    from smoothbore.table import nearest_many

    a, b = unit("A", 0, 0), unit("B", 10, 0)  # 1 x 1 squares
    gaps_, ends = nearest_many([(0, 3), (7, 0)], [a, b])
    assert gaps_.tolist() == [2.5, 2.5]
    assert ends.tolist() == [[[0, 3], [0, 0.5]], [[7, 0], [9.5, 0]]]
    with pytest.raises(InvalidValueError, match="places="):
        nearest_many([(0, 3)], [a, b])


def test_pairwise_regions_and_their_constructors() -> None:
    from smoothbore.table import Regions

    segs = Regions.segments([(0, 0), (0, 0)], [(3, 4), (1, 0)])
    assert [segs[i].length for i in range(2)] == [5.0, 1.0]
    squares = Regions.polygons([[(0, 0), (1, 0), (1, 1), (0, 1)], [(5, 5), (6, 5), (6, 6),
                                                                   (5, 6)]])
    others = Regions.polygons([[(0.5, 0), (2, 0), (2, 1), (0.5, 1)], [(8, 5), (9, 5), (9, 6),
                                                                      (8, 6)]])
    assert squares.distances_each(others).tolist() == [0.0, 2.0]
    assert squares.shares_ground_each(others).tolist() == [True, False]
    assert squares.intersects_each(others).tolist() == [True, False]
    # the ground swept by a 1 x 1 square moved 4 up, and by one moved 4 right
    moves = Regions.hulls([[(0, 0), (1, 0), (1, 1), (0, 1), (0, 4), (1, 4), (1, 5), (0, 5)],
                           [(0, 0), (1, 0), (1, 1), (0, 1), (4, 0), (5, 0), (5, 1), (4, 1)]])
    assert [moves[i].area for i in range(2)] == [5.0, 5.0]
    with pytest.raises(InvalidValueError, match="other="):
        squares.distances_each(Regions.segments([(0, 0)], [(1, 1)]))  # one row, not two
    with pytest.raises(InvalidValueError, match="corners="):
        Regions.polygons([[(0, 0), (1, 1)]])


def test_obstacles_crossing_area_shares_and_holding() -> None:
    from smoothbore.table import Regions, area_shares, holding

    fence = Feature("fence", "fence", line=((0, 10), (40, 10)))
    stream = Feature("s", "stream", line=((0, 20), (40, 20)))
    woods = Feature.rectangle("w", "light woods", 10, 5, 4, 4)  # x 8-12, y 3-7
    dense = Feature.rectangle("d", "dense woods", 14, 5, 4, 4)  # x 12-16
    house = Feature.rectangle("h", "building", 30, 5, 4, 4)
    t = Table(40, 30, features=(fence, stream, woods, dense, house))
    lines = Regions.segments([(5, 8), (5, 18), (5, 1)], [(5, 12), (5, 22), (5, 4)])
    assert lines.crossing_obstacles(t).tolist() == [True, True, False]
    assert lines.crossing_obstacles(t, frozenset({TerrainKind.STREAM})).tolist() == [
        False, True, False]
    # a 2 x 2 unit centred (12, 5): half in light woods, half in dense
    fp = Footprint("A", 12, 5, 0, 1, 2, 2)
    shares = area_shares(t, fp, {TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS})
    assert shares == {TerrainKind.DENSE_WOODS: 0.5, TerrainKind.LIGHT_WOODS: 0.5}
    assert area_shares(t, fp, {TerrainKind.SWAMP}) == {TerrainKind.SWAMP: 0.0}
    assert holding(t, 30, 5, {TerrainKind.BUILDING}) == house
    assert holding(t, 32, 5, {TerrainKind.BUILDING}) is None  # on its edge: not inside
    assert holding(t, 10, 5, {TerrainKind.BUILDING}) is None


def test_equal_regions_hash_alike_whatever_the_sign_of_zero() -> None:
    a = polygon([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)])
    b = polygon([(-0.0, 0.0), (1.0, -0.0), (1.0, 1.0)])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
