"""The table: size, measure, terrain, footprints and commanders by id; new tables."""

from __future__ import annotations

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    CommanderMark,
    Edge,
    Feature,
    Footprint,
    Measure,
    MoveTrace,
    Table,
    distance,
)


def unit(uid: str, x: float, y: float, facing: float = 0.0, side: str = "red") -> Footprint:
    return Footprint(uid, x, y, facing, bases=2, frontage=2, depth=1, side=side)


def test_units_by_id_and_sides() -> None:
    table = Table(72, 48, footprints={"A": unit("A", 10, 10), "B": unit("B", 30, 10),
                                      "X": unit("X", 10, 40, 180, side="blue")})
    assert table.unit_ids == ("A", "B", "X")
    assert table.footprint("X").side == "blue"
    assert table.enemies_of("A") == ("X",)
    assert table.friends_of("A") == ("B",)
    assert table.measure is Measure.INCHES


def test_a_unit_off_the_table_is_refused() -> None:
    # the line is 4" wide: centred at x = 1.5 its left flank stands at x = -0.5
    with pytest.raises(InvalidValueError) as error:
        Table(72, 48, footprints=(unit("A", 1.5, 10),))
    assert error.value.field == "footprints['A']"
    assert "72 x 48 inches table" in error.value.allowed


@pytest.mark.parametrize("kwargs, field", [
    (dict(width=-1, depth=48), "Table.width"),
    (dict(width=72, depth=float("nan")), "Table.depth"),
    (dict(width=72, depth=48, measure="leagues"), "measure"),
    (dict(width=72, depth=48, footprints=(unit("A", 5, 5), unit("A", 9, 9))), "Table.footprints"),
    (dict(width=72, depth=48, features=("woods",)), "Table.features"),
    (dict(width=72, depth=48, commanders=(CommanderMark("c", 1, 1, attached_to="Z"),)),
     "commanders['c'].attached_to"),
    (dict(width=72, depth=48, commanders=(CommanderMark("c", 100, 1),)), "commanders['c']"),
])
def test_bad_tables_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidValueError) as error:
        Table(**kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_an_unknown_unit_names_those_known() -> None:
    table = Table(72, 48, footprints=(unit("A", 10, 10),))
    with pytest.raises(InvalidValueError) as error:
        table.footprint("Q")
    assert error.value.field == "unit_id" and "'A'" in error.value.allowed


def test_placing_removing_and_commanders() -> None:
    table = Table(72, 48, footprints=(unit("A", 10, 10), unit("B", 30, 10)),
                  commanders=(CommanderMark("col", attached_to="A"),
                              CommanderMark("gen", 50, 5)))
    assert table.commander_point("col") == (10, 10)
    moved = table.placed(unit("A", 12, 20), unit("C", 40, 40))
    assert moved.unit_ids == ("A", "B", "C")
    assert moved.footprint("A").y == 20 and table.footprint("A").y == 10  # never mutated
    assert moved.commander_point("col") == (12, 20)  # he rides with the unit
    gone = moved.removed("A")
    assert gone.unit_ids == ("B", "C")
    assert gone.commander("col").attached_to is None
    assert gone.commander_point("col") == (12, 20)  # left where the unit stood
    with pytest.raises(InvalidValueError):
        table.removed("nobody")


def test_a_table_in_another_measure() -> None:
    # two 4" lines 10" apart; in millimetres the table is 1828.8 x 1219.2 and the gap 254
    table = Table(72, 48, features=(Feature.rectangle("w", "light woods", 30, 30, 6, 4),),
                  footprints=(unit("A", 20, 10), unit("B", 20, 21, 180, side="blue")),
                  traces=(MoveTrace("A", ((20, 5), (20, 10))),))
    metric = table.in_measure("mm")
    assert (metric.width, metric.depth) == pytest.approx((1828.8, 1219.2))
    assert distance(metric, "A", "B") == pytest.approx(254.0)
    assert metric.features[0].area.area == pytest.approx(24 * 25.4**2)
    assert metric.in_measure(Measure.INCHES).footprint("B").y == pytest.approx(21)
    assert table.in_measure("inches") is table


def test_edges_and_home_edges() -> None:
    table = Table(72, 48, home_edges={"red": Edge.NEAR, "blue": Edge.FAR})
    assert table.home_edge("blue") is Edge.FAR and table.home_edge("green") is None
    assert table.edge_line(Edge.RIGHT).coords[:] == [(72, 0), (72, 48)]
    with pytest.raises(InvalidValueError):
        Table(72, 48, home_edges={"red": "near"})


def test_a_derived_answer_is_kept_until_a_unit_moves() -> None:
    import pickle

    from smoothbore.table import Footprint, Table

    asked: list[Table] = []

    def across(table: Table) -> float:
        asked.append(table)
        return max(f.x for f in table.footprints)

    table = Table(48, 36, footprints=(Footprint("u1", 10, 5, bases=4, frontage=1.5, side="a"),))
    assert table.derived(across) == table.derived(across) == 10
    assert table.with_traces().derived(across) == 10  # traces change no geometry
    assert len(asked) == 1
    moved = table.placed(Footprint("u1", 12, 5, bases=4, frontage=1.5, side="a"))
    assert moved.derived(across) == 12 and len(asked) == 2
    copy = pickle.loads(pickle.dumps(table))
    assert copy == table and copy.derived(across) == 10 and len(asked) == 3


def _fresh(table: Table) -> Table:
    return Table(table.width, table.depth, table.measure, table.features, table.footprints,
                 table.commanders, table.traces, table.home_edges)


def test_new_tables_equal_tables_made_afresh_and_share_what_still_holds() -> None:
    woods = Feature.rectangle("w", "light woods", 30, 30, 6, 6)
    table = Table(72, 48, features=(woods,), footprints=(unit("A", 10, 10), unit("B", 30, 10)),
                  commanders=(CommanderMark("gen", 50, 5),))
    layout, terrain = table.layout, table.terrain
    moved = table.placed(unit("A", 12, 20))
    assert moved == _fresh(moved) and hash(moved) == hash(_fresh(moved))
    assert moved.terrain is terrain and moved.layout is not layout
    assert moved.layout.footprints == moved.footprints
    rode = table.with_commanders(CommanderMark("gen", 40, 6))
    assert rode == _fresh(rode) and rode.layout is layout and rode.units is table.units
    traced = table.with_traces(MoveTrace("A", ((10, 10), (12, 20))))
    assert traced == _fresh(traced) and traced.layout is layout
    assert table.layout is layout and table.footprint("A").y == 10  # never changed


@pytest.mark.parametrize("change, field", [
    (lambda t: t.placed(unit("A", 1.5, 10)), "footprints['A']"),
    (lambda t: t.placed("A"), "Table.footprints"),
    (lambda t: t.with_commanders(CommanderMark("c", 1, 1, attached_to="Z")),
     "commanders['c'].attached_to"),
    (lambda t: t.with_commanders(CommanderMark("c", 100, 1)), "commanders['c']"),
    (lambda t: t.with_commanders("c"), "Table.commanders"),
    (lambda t: t.with_traces("A moved"), "Table.traces"),
])
def test_new_tables_refuse_what_a_new_table_refuses(change: object, field: str) -> None:
    table = Table(72, 48, footprints=(unit("A", 10, 10),))
    with pytest.raises(InvalidValueError) as error:
        change(table)  # type: ignore[operator]
    assert error.value.field == field


def test_a_commanders_ride_is_measured_from_his_point_to_the_units_centre() -> None:
    table = Table(72, 48, footprints=(unit("A", 10, 10), unit("B", 13, 14)),
                  commanders=(CommanderMark("col", attached_to="A"), CommanderMark("gen", 1, 22)))
    assert table.ride("col", "B") == 5.0  # from A's centre (10, 10): a 3-4-5 triangle
    assert table.ride("gen", "A") == 15.0  # from (1, 22) to (10, 10): 9, 12, 15


def test_commanders_are_looked_up_by_id_through_an_index_kept_with_the_marks() -> None:
    from smoothbore.table import CommanderMark

    a = Footprint("A", 10, 10, side="red")
    t = Table(40, 30, footprints=(a,), commanders=(
        CommanderMark("c1", 5, 5), CommanderMark("c2", attached_to="A")))
    assert t.commander("c2").attached_to == "A" and t.commander_point("c2") == (10, 10)
    assert dict(t.marks) == {"c1": t.commanders[0], "c2": t.commanders[1]}
    moved = t.placed(a.moved_to(20, 12))
    assert moved.marks is t.marks and moved.commander_point("c2") == (20, 12)
    ridden = t.with_commanders(CommanderMark("c1", 7, 8))
    assert ridden.commander("c1").x == 7 and t.commander("c1").x == 5
    assert "c3" not in ridden.marks and ridden.with_traces().marks is ridden.marks
    with pytest.raises(InvalidValueError, match="commander_id='c9'"):
        t.commander("c9")
