"""The check that a table holds a battle's troops (smoothbore.table.deployment)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import CommanderMark, Footprint, Measure, Table, check_deployed


@attrs.frozen
class Soldier:
    id: str
    side: str
    lost: bool = False


UNITS = (Soldier("a", "red"), Soldier("b", "blue"), Soldier("c", "blue", lost=True))


def table(*footprints: Footprint, commanders: tuple[CommanderMark, ...] = (),
          measure: Measure = Measure.INCHES) -> Table:
    return Table(48, 48, measure=measure, footprints=footprints, commanders=commanders)


def standing(unit: Soldier) -> bool:
    return not unit.lost


A = Footprint("a", 10, 10, side="red")
B = Footprint("b", 30, 30, side="blue")


def test_a_table_holding_every_standing_unit_on_its_side_passes_and_is_returned() -> None:
    given = table(A, B)
    assert check_deployed(given, UNITS, on_table=standing) is given


def test_not_a_table() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_deployed({"width": 48}, UNITS)
    assert raised.value.field == "table" and raised.value.value == "dict"


def test_a_footprint_of_no_unit_names_the_id_and_the_units_allowed() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, B, Footprint("z", 40, 5, side="red")), UNITS, on_table=standing)
    error = raised.value
    assert (error.field, error.value) == ("table.footprints", "z")
    assert "'a', 'b'" in error.allowed and "'c'" not in error.allowed


def test_a_lost_unit_may_not_stand_on_the_table_when_the_book_says_so() -> None:
    lost = Footprint("c", 40, 40, side="blue")
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, B, lost), UNITS, on_table=standing)
    assert raised.value.value == "c"
    assert check_deployed(table(A, B, lost), UNITS).units.keys() == {"a", "b", "c"}


def test_a_footprint_on_the_wrong_side() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, attrs.evolve(B, side="red")), UNITS, on_table=standing)
    error = raised.value
    assert (error.field, error.value) == ("table.footprints['b'].side", "red")
    assert "'blue'" in error.allowed


def test_a_standing_unit_without_a_footprint() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A), UNITS, on_table=standing)
    assert (raised.value.field, raised.value.value) == ("table", "b")


def test_the_measure_a_book_requires() -> None:
    mm = Table(1200, 1200, measure=Measure.MILLIMETRES, footprints=(A, B))
    assert check_deployed(mm, UNITS, on_table=standing, measure=Measure.MILLIMETRES) is mm
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, B), UNITS, on_table=standing, measure=Measure.MILLIMETRES)
    assert (raised.value.field, raised.value.value) == ("table.measure", "inches")


def test_commander_marks_name_the_battles_commanders_on_their_sides() -> None:
    chiefs = (Soldier("gen-red", "red"), Soldier("gen-blue", "blue"))
    good = table(A, B, commanders=(CommanderMark("gen-red", 5, 5, side="red"),
                                   CommanderMark("gen-blue", attached_to="b")))
    assert check_deployed(good, UNITS, on_table=standing, commanders=chiefs) is good
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, B, commanders=(CommanderMark("nobody", 5, 5),)), UNITS,
                       on_table=standing, commanders=chiefs)
    assert (raised.value.field, raised.value.value) == ("table.commanders", "nobody")
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A, B, commanders=(CommanderMark("gen-red", 5, 5, side="blue"),)),
                       UNITS, on_table=standing, commanders=chiefs)
    assert raised.value.field == "table.commanders['gen-red'].side"


def test_errors_name_the_field_as_the_caller_wrote_it() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_deployed(table(A), UNITS, on_table=standing, field="new_battle(table=)")
    assert raised.value.field == "new_battle(table=)"


def test_a_book_that_fills_in_sides_may_take_footprints_without_one() -> None:
    blank = table(A, attrs.evolve(B, side=""))
    assert check_deployed(blank, UNITS, on_table=standing, blank_sides=True) is blank
    with pytest.raises(InvalidValueError):
        check_deployed(blank, UNITS, on_table=standing)
    with pytest.raises(InvalidValueError):  # a side given must still be the unit's
        check_deployed(table(A, attrs.evolve(B, side="red")), UNITS, on_table=standing,
                       blank_sides=True)
