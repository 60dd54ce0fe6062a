"""Charges and contact: reach straight ahead, the face struck, contact, overlaps."""

from __future__ import annotations

import math

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    Face,
    Feature,
    Footprint,
    Formation,
    Table,
    charge_reach,
    charges,
    contact_position,
    face_from,
    in_contact,
    overlap,
    touching_faces,
)


def target() -> Footprint:
    # T: 4" x 1" at (30, 20) facing up the table: front y = 20.5, rear y = 19.5, x 28..32
    return Footprint("T", 30, 20, 0, 2, 2, 1, side="blue")


def with_charger(charger: Footprint, *others: Footprint) -> Table:
    return Table(60, 40, footprints=(target(), charger, *others))


def test_a_charge_from_behind_the_rear_edge_is_a_rear_charge() -> None:
    # C at (30, 14) facing up: its front edge (y = 14.5) is 5" short of T's rear (y = 19.5)
    c = Footprint("C", 30, 14, 0, 2, 2, 1, side="red")
    r = charge_reach(with_charger(c), "C", "T", 6)
    assert r.ahead == pytest.approx(5.0) and r.distance == pytest.approx(5.0)
    assert r.face is Face.REAR and r.in_reach and r.directly_ahead
    assert not charge_reach(with_charger(c), "C", "T", 4).in_reach


def test_a_charge_into_the_right_flank() -> None:
    # C at (40, 20) facing left (270): its front edge is x = 39.5, from y = 18 to 22;
    # T's right flank is x = 32: 7.5" straight ahead; C's centre is between T's front and
    # rear lines, on its right
    c = Footprint("C", 40, 20, 270, 2, 2, 1, side="red")
    r = charge_reach(with_charger(c), "C", "T", 8)
    assert r.ahead == pytest.approx(7.5) and r.face is Face.RIGHT and r.in_reach


def test_the_zones_of_the_faces() -> None:
    # C's centre at (36, 23): ahead of T's front line, so the front with zones cut by the
    # edge lines; but atan2(36 - 32, 23 - 20.5) = 58 degrees off T's front corner, so the
    # right flank with 45-degree zones from the corners
    c = Footprint("C", 36, 23, 225, 1, 2, 1, side="red")
    table = with_charger(c)
    assert charge_reach(table, "C", "T", 10).face is Face.FRONT
    assert charge_reach(table, "C", "T", 10, front_arc=45, rear_arc=45).face is Face.RIGHT
    assert face_from(table, "T", (36, 23), front_arc=45) is Face.RIGHT
    assert face_from(table, "T", (30, 10)) is Face.REAR


def test_a_target_not_straight_ahead() -> None:
    # C at (10, 20) facing up: T lies to its right, not in the strip ahead of it
    c = Footprint("C", 10, 20, 0, 2, 2, 1, side="red")
    r = charge_reach(with_charger(c), "C", "T", 30)
    assert r.ahead is None and not r.in_reach and not r.directly_ahead
    assert r.distance == pytest.approx(16.0) and r.near_enough  # 28 - 12
    with pytest.raises(InvalidValueError):
        contact_position(with_charger(c), "C", "T")


def test_a_unit_in_the_way() -> None:
    c = Footprint("C", 30, 10, 0, 2, 2, 1, side="red")
    friend = Footprint("P", 30, 15, 0, 1, 2, 1, side="blue")
    r = charge_reach(with_charger(c, friend), "C", "T", 20)
    assert r.blocked_by == ("P",) and not r.in_reach
    # the nearest enemy in the way is the one reached first
    assert charge_reach(with_charger(c, friend), "C", "P", 20).ahead == pytest.approx(4.0)


def test_moving_into_contact() -> None:
    c = Footprint("C", 30, 14, 0, 2, 2, 1, side="red")
    table = with_charger(c)
    moved = table.placed(contact_position(table, "C", "T"))
    assert moved.footprint("C").y == pytest.approx(19.0)
    assert in_contact(moved, "C", "T")
    assert touching_faces(moved, "T", "C") == (Face.REAR,)
    assert touching_faces(moved, "C", "T") == (Face.FRONT,)
    assert not in_contact(table, "C", "T")


def test_touching_at_a_corner_touches_two_faces() -> None:
    # C's front left corner meets T's rear right corner at (32, 19.5)
    c = Footprint("C", 33, 19, 0, 1, 2, 1, side="red")
    assert set(touching_faces(with_charger(c), "T", "C")) == {Face.REAR, Face.RIGHT}


def test_a_building_has_only_a_front() -> None:
    house = Feature.rectangle("house", "building", 30, 20, 4, 2)
    held = Footprint.holding("T", house, side="blue")
    c = Footprint("C", 30, 18.5, 0, 1, 2, 1, side="red")  # its front edge on the wall
    table = Table(60, 40, features=(house,), footprints=(held, c))
    assert charge_reach(table, "C", "T", 3).face is Face.FRONT
    assert touching_faces(table, "T", "C") == (Face.FRONT,)


def test_a_line_overlaps_a_column() -> None:
    # a line 8" wide in front contact with a column 2" wide, both centred on x = 30:
    # it reaches 3" past each flank of the column
    column = Footprint("T", 30, 20, 0, 4, 2, 1, Formation.COLUMN, side="blue")
    line = Footprint("L", 30, 22.5, 180, 4, 2, 1, side="red")
    table = Table(60, 40, footprints=(column, line))
    assert in_contact(table, "L", "T")
    assert overlap(table, "L", "T") == pytest.approx((3.0, 3.0))
    # shifted 2" to the right of the column's front: 1" past its left, 5" past its right
    shifted = table.placed(line.moved_to(32, 22.5))
    assert overlap(shifted, "L", "T") == pytest.approx((1.0, 5.0))
    assert overlap(table, "T", "L") == (0.0, 0.0)


def test_every_enemy_pair_with_reaches_by_unit() -> None:
    c = Footprint("C", 30, 14, 0, 2, 2, 1, side="red")
    found = charges(with_charger(c), None, {"C": 3.0, "T": 6.0})
    assert [(r.charger, r.target, r.reach) for r in found] == [("T", "C", 6.0),
                                                              ("C", "T", 3.0)]
    assert charges(with_charger(c), [], 3) == ()


@pytest.mark.parametrize("call, field", [
    (lambda t: charge_reach(t, "C", "T", -1), "reach"),
    (lambda t: charge_reach(t, "C", "C", 1), "pairs"),
    (lambda t: charges(t, [("C", "T")], {"T": 2}), "reach"),
    (lambda t: charge_reach(t, "C", "T", 3, front_arc=200), "front_arc"),
    (lambda t: face_from(t, "T", (math.nan, 0)), "point[0]"),
    (lambda t: in_contact(t, "C", "T", tolerance=-1), "tolerance"),
])
def test_bad_questions_name_the_field(call: object, field: str) -> None:
    table = with_charger(Footprint("C", 30, 14, 0, 2, 2, 1, side="red"))
    with pytest.raises(InvalidValueError) as error:
        call(table)  # type: ignore[operator]
    assert error.value.field == field
