"""Footprints: bases laid out in a formation, placed and faced; commanders as points."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import MultiPolygon, Polygon

from smoothbore.core import InvalidValueError
from smoothbore.table import CommanderMark, Face, Feature, Footprint, Formation
from smoothbore.table.footprints import normal_degrees


def line(**changes: object) -> Footprint:
    """Four 2" x 1" bases in line at (10, 10) facing up the table."""
    values: dict[str, object] = dict(unit_id="A", x=10.0, y=10.0, facing=0.0, bases=4,
                                     frontage=2.0, depth=1.0)
    values.update(changes)
    return Footprint(**values)  # type: ignore[arg-type]


def test_a_line_facing_up_the_table() -> None:
    # 4 bases of 2": 8" wide, 1" deep; front edge at y = 10.5 from x = 6 to 14
    a = line()
    assert (a.width, a.length) == (8.0, 1.0)
    assert np.allclose(a.corners, [(6, 10.5), (14, 10.5), (14, 9.5), (6, 9.5)])
    assert a.front_centre == pytest.approx((10, 10.5))
    assert a.area == pytest.approx(8.0)
    assert a.bounds == pytest.approx((6, 9.5, 14, 10.5))


def test_a_line_facing_right() -> None:
    # facing 90: forward is +x, its right is -y; the front edge is x = 10.5, from y = 14
    # (front left) down to y = 6 (front right)
    a = line(facing=90.0)
    assert np.allclose(a.corners, [(10.5, 14), (10.5, 6), (9.5, 6), (9.5, 14)])
    assert np.allclose(a.edge(Face.FRONT).coords, [(10.5, 14), (10.5, 6)])


def test_a_column_is_one_base_wide() -> None:
    # 4 bases one behind another: 2" wide, 4" deep; the front base is first
    a = line(formation=Formation.COLUMN)
    assert (a.width, a.length, a.files, a.ranks) == (2.0, 4.0, 1, 4)
    assert np.allclose(a.base_corners[0], [(9, 12), (11, 12), (11, 11), (9, 11)])
    assert np.allclose(a.base_corners[3], [(9, 9), (11, 9), (11, 8), (9, 8)])


def test_skirmishers_stand_a_frontage_apart() -> None:
    # 3 bases of 2" with 2" gaps: 3 * 2 + 2 * 2 = 10" wide; the bases alone cover 6 sq in
    a = line(bases=3, formation=Formation.SKIRMISH)
    assert a.width == 10.0
    assert isinstance(a.shape, MultiPolygon) and len(a.shape.geoms) == 3
    assert a.area == pytest.approx(6.0)
    assert a.outline.area == pytest.approx(10.0)


def test_spacing_can_be_given() -> None:
    a = line(bases=2, formation=Formation.SKIRMISH, spacing=0.5)
    assert a.width == 4.5


def test_limbered_and_deployed_guns() -> None:
    assert line(bases=2, formation=Formation.LIMBERED).length == 2.0
    assert line(bases=2, formation=Formation.DEPLOYED).width == 4.0


def test_a_unit_holding_a_building_takes_its_shape() -> None:
    # a 4" x 2" building turned 30 degrees: the unit fills it, no flank or rear
    house = Feature.rectangle("house", "building", 20, 20, 4, 2, facing=30, strength=8)
    a = Footprint.holding("A", house, bases=2, side="red")
    assert a.formation is Formation.BUILDING and not a.has_flanks
    assert a.area == pytest.approx(8.0)
    assert a.outline.symmetric_difference(house.area).area == pytest.approx(0.0, abs=1e-9)
    assert a.centre == pytest.approx((20, 20))


def test_moves_and_turns() -> None:
    a = line(facing=90.0)
    assert a.advanced(3).centre == pytest.approx((13, 10))
    assert a.advanced(2, 180).centre == pytest.approx((8, 10))  # straight back
    assert a.advanced(2, -90).centre == pytest.approx((10, 12))  # to its left: up the table
    assert a.turned(135).facing == -135.0
    assert a.moved_to(1, 2).facing == 90.0


def test_normal_degrees() -> None:
    assert [normal_degrees(d) for d in (0, 180, 181, -180, 540, -450)] == [
        0, 180, -179, 180, 180, -90]


def test_scaling_is_a_change_of_measure() -> None:
    a = line(formation=Formation.SKIRMISH, spacing=1.0).scaled(25.4)
    assert (a.x, a.frontage, a.spacing) == pytest.approx((254, 50.8, 25.4))


@pytest.mark.parametrize("field, value", [
    ("x", math.nan), ("y", math.inf), ("facing", math.nan), ("bases", 0),
    ("frontage", -1.0), ("depth", 0.0), ("spacing", -0.5), ("formation", "line"),
    ("unit_id", "")])
def test_bad_values_name_the_field(field: str, value: object) -> None:
    with pytest.raises(InvalidValueError) as error:
        line(**{field: value})
    assert field in error.value.field


def test_commanders() -> None:
    mark = CommanderMark("c1", 3, 4, side="red")
    assert mark.scaled(2).x == 6
    with pytest.raises(InvalidValueError):
        CommanderMark("c1", math.nan, 4)


sizes = st.floats(0.2, 5, allow_nan=False)


@given(st.floats(-100, 100), st.floats(-100, 100), st.floats(-720, 720),
       st.integers(1, 8), sizes, sizes)
def test_a_lines_area_is_bases_times_frontage_times_depth(
        x: float, y: float, facing: float, bases: int, frontage: float, depth: float) -> None:
    a = Footprint("A", x, y, facing, bases, frontage, depth, Formation.LINE)
    assert a.area == pytest.approx(bases * frontage * depth, rel=1e-9)
    assert a.width == pytest.approx(bases * frontage)
    column = a.reformed(Formation.COLUMN)
    assert column.area == pytest.approx(a.area, rel=1e-9)
    x0, y0, x1, y1 = a.bounds
    assert (a.corners[:, 0] >= x0 - 1e-9).all() and (a.corners[:, 0] <= x1 + 1e-9).all()
    assert (a.corners[:, 1] >= y0 - 1e-9).all() and (a.corners[:, 1] <= y1 + 1e-9).all()


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6),
       st.one_of(st.none(), st.floats(-3600, 3600)), st.sampled_from(list(Formation)))
def test_moved_to_is_the_same_footprint_made_afresh(x: float, y: float, facing: float | None,
                                                    formation: Formation) -> None:
    start = Footprint("u", 3.0, 4.0, 30.0, 3, 2.0, 1.0, formation, side="red", label="U")
    moved = start.moved_to(x, y, facing)
    fresh = attrs.evolve(start, x=x, y=y, facing=start.facing if facing is None else facing)
    assert moved == fresh and hash(moved) == hash(fresh)
    assert np.allclose(moved.corners, fresh.corners)
    assert moved.frame == fresh.frame


@pytest.mark.parametrize(("x", "y", "facing", "field"), [
    (math.nan, 0.0, None, "Footprint.x"), (0.0, 2e6, None, "Footprint.y"),
    (0.0, 0.0, math.inf, "Footprint.facing")])
def test_moved_to_refuses_what_a_new_footprint_refuses(x: float, y: float,
                                                       facing: float | None,
                                                       field: str) -> None:
    start = Footprint("u", 3.0, 4.0)
    with pytest.raises(InvalidValueError) as moved:
        start.moved_to(x, y, facing)
    with pytest.raises(InvalidValueError) as made:
        attrs.evolve(start, x=x, y=y, facing=start.facing if facing is None else facing)
    assert str(moved.value) == str(made.value)
    assert moved.value.field == field


@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(-720, 720), st.integers(1, 8),
       sizes, sizes, st.sampled_from([None, 0.0, 0.5, 2.0]), st.sampled_from(list(Formation)))
def test_base_corners_are_each_bases_corners_put_on_the_table(
        x: float, y: float, facing: float, bases: int, frontage: float, depth: float,
        spacing: float | None, formation: Formation) -> None:
    # to the last bit: each base's corners in the unit's frame (files abreast or ranks one
    # behind another, ``gap`` apart), put on the table one by one with ``to_table``
    unit = Footprint("A", x, y, facing, bases, frontage, depth, formation, spacing=spacing)
    gap = unit.gap
    if formation is Formation.BUILDING:
        assert unit.base_corners.tolist() == [unit.corners.tolist()]
        return
    w, h = unit.width / 2, unit.length / 2
    expected = []
    for i in range(bases):
        if formation.side_by_side:
            left, front = -w + i * (frontage + gap), h
        else:
            left, front = -w, h - i * (depth + gap)
        right, rear = left + frontage, front - depth
        expected.append([list(unit.to_table(u, v))
                         for u, v in ((left, front), (right, front), (right, rear),
                                      (left, rear))])
    assert unit.base_corners.tolist() == expected


@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(-720, 720), st.integers(2, 8),
       sizes, sizes, st.sampled_from([None, 0.5, 2.0]),
       st.sampled_from([Formation.SKIRMISH, Formation.LINE, Formation.COLUMN]))
def test_bases_standing_apart_are_the_bases_each_made_a_polygon(
        x: float, y: float, facing: float, bases: int, frontage: float, depth: float,
        spacing: float | None, formation: Formation) -> None:
    # to the last bit (the same well-known binary): the shape of bases with gaps between
    # them is the multipolygon of each base made a polygon on its own
    unit = Footprint("A", x, y, facing, bases, frontage, depth, formation, spacing=spacing)
    if unit.gap == 0:
        assert unit.shape is unit.outline
        return
    each = MultiPolygon([Polygon(c) for c in unit.base_corners])
    assert isinstance(unit.shape, MultiPolygon) and unit.shape.wkb == each.wkb


@pytest.mark.parametrize("field", ["frontage", "depth", "spacing"])
def test_footprint_lengths_are_bounded_as_its_coordinates_are(field: str) -> None:
    """Issue 28, "Loaded states and values": lengths were only finite, so a frontage of
    1e308 made corners of inf. A length is at most MAX_COORDINATE, as x and y are."""
    unit = Footprint("u", 10, 10, 0, 1, 2, 1)
    with pytest.raises(InvalidValueError) as error:
        attrs.evolve(unit, **{field: 1e308})
    assert error.value.field == f"Footprint.{field}"
    from smoothbore.table import MAX_COORDINATE

    assert getattr(attrs.evolve(unit, **{field: MAX_COORDINATE}), field) == MAX_COORDINATE


def test_stacked_finds_units_on_each_other_with_the_area_they_share() -> None:
    """Two bases of 1" x 1" in line fill 2" x 1": a second such unit 1.5" to the right shares
    0.5" x 1" = 0.5 square inches with the first; a third 2" further touches the second
    along an edge (contact, no area); a fourth stands apart."""
    from smoothbore.table import stacked

    units = [Footprint(uid, x, 0.0, 0.0, 2, 1.0, 1.0, Formation.LINE)
             for uid, x in (("a", 0.0), ("b", 1.5), ("c", 3.5), ("d", 20.0))]
    assert stacked(units, 1e-6) == ((0, 1, 0.5),)
    assert stacked(units, 1e-6, bases=True) == ((0, 1, 0.5),)
    assert stacked(units, 0.5) == ()
    assert stacked(units[2:], 1e-6) == ()
    assert stacked(units[:1], 0.0) == ()
