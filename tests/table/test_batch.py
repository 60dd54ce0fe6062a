"""Many moves at once: ``furthest_many`` gives ``furthest``'s answers (issue 28, Will's AWI
at 500 units a side; issue 29, item 5)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    CrossingCost,
    Feature,
    Footprint,
    Formation,
    RateTable,
    Table,
    TerrainKind,
    Way,
    first_contacts,
    furthest,
    furthest_many,
)
from smoothbore.table.batch import _nears
from smoothbore.table.paths import _near

K = TerrainKind
FOOT = RateTable(
    speeds={K.ROUGH: Fraction(2, 3), K.DENSE_WOODS: Fraction(1, 3), K.RIVER: None,
            K.IMPASSABLE: None},
    passages={K.FENCE: CrossingCost(share=Fraction(1, 2))}, rule="test rates")
HORSE = RateTable(speeds={K.DENSE_WOODS: None, K.IMPASSABLE: None}, rule="test horse")


def line_of(n: int, y: float, side: str, facing: float, pitch: float = 4.0,
            tag: str = "") -> tuple[Footprint, ...]:
    # n units of two 1.5" x 1" bases abreast (3" wide), ``pitch`` apart
    return tuple(Footprint(f"{side}{tag}{i}", 5 + i * pitch, y, facing, 2, 1.5, 1, side=side)
                 for i in range(n))


def test_a_unit_stopped_by_a_friend_ahead_as_furthest_says() -> None:
    # A at y = 10 moves up the table; F stands 3" ahead (front y 10.5, F's rear y 13.5)
    a = Footprint("A", 10, 10, 0, 2, 1.5, 1, side="red")
    f = Footprint("F", 10, 14, 0, 2, 1.5, 1, side="red")
    e = Footprint("E", 30, 20, 180, 2, 1.5, 1, side="blue")
    t = Table(48, 36, footprints=(a, f, e))
    ways = [Way("A", 0.0, 6.0, FOOT, 6.0, clearance=1.0),
            Way("E", 0.0, 6.0, FOOT, 6.0, clearance=1.0),
            Way("A", 0.0, 6.0, FOOT, 6.0, through=("F",))]
    got = furthest_many(t, ways)
    assert got[0].distance == pytest.approx(3.0) and got[0].stopped_by == "F"
    assert got[1].distance == pytest.approx(6.0) and got[1].stopped_by == "allowance"
    assert got[2].distance == pytest.approx(6.0) and got[2].stopped_by == "allowance"
    assert got == tuple(furthest(t, w.unit_id, w.heading, w.budget, w.rates,
                                 full_move=w.full_move, through=w.through,
                                 clearance=w.clearance) for w in ways)
    assert first_contacts(t, ways[:1]) == ((pytest.approx(3.0), "F"),)
    assert first_contacts(t, ways[1:2]) == ((math.inf, ""),)
    assert furthest_many(t, []) == ()


def test_bad_ways_are_refused_by_name() -> None:
    t = Table(48, 36, footprints=(Footprint("A", 10, 10),))
    with pytest.raises(InvalidValueError, match=r"ways\[0\]="):
        furthest_many(t, [("A", 0.0, 6.0, FOOT)])  # type: ignore[list-item]
    with pytest.raises(InvalidValueError, match="budget="):
        furthest_many(t, [Way("A", 0.0, -1.0, FOOT)])
    with pytest.raises(InvalidValueError, match="through="):
        Way("A", 0.0, 1.0, FOOT, through="F")  # type: ignore[arg-type]


def _reference(t: Table, w: Way) -> object:
    return furthest(t, w.unit_id, w.heading, w.budget, w.rates, full_move=w.full_move,
                    through=w.through, clearance=w.clearance)


headings = st.sampled_from([0.0, 180.0, 90.0, -90.0, 45.0, -30.0, 12.5])


@st.composite
def battles(draw: st.DrawFn) -> tuple[Table, list[Way]]:
    """Two dense lines facing each other (friends just ahead and behind, enemies a few
    inches off, skirmishers, a gun), terrain a move may not enter, and ways of every unit."""
    n = draw(st.integers(2, 6))
    pitch = draw(st.sampled_from([3.0, 3.5, 4.0, 5.25]))
    gap = draw(st.sampled_from([4.0, 6.0, 8.5]))
    units = [*line_of(n, 10, "red", 0.0, pitch), *line_of(n, 10 + 3.5, "red", 0.0, pitch, "b"),
             *line_of(n, 13.5 + gap, "blue", 180.0, pitch)]
    jitter = draw(st.lists(st.tuples(st.floats(-0.6, 0.6), st.floats(-0.6, 0.6),
                                     st.floats(-8, 8)), min_size=len(units),
                           max_size=len(units)))
    units = [u.moved_to(round(u.x + dx, 3), round(u.y + dy, 3), u.facing + round(df, 1))
             for u, (dx, dy, df) in zip(units, jitter, strict=True)]
    units.append(Footprint("sk", 30, 6, draw(st.floats(-20, 20)), 3, 1, 1,
                           Formation.SKIRMISH, side="red"))
    units.append(Footprint("gun", 32, 20, 180, 1, 1.5, 2, Formation.LIMBERED, side="blue"))
    features = [Feature.rectangle("woods", "dense woods", draw(st.floats(5, 30)), 16, 4, 2),
                Feature.rectangle("rock", "impassable ground", draw(st.floats(5, 30)), 8, 2, 2),
                Feature("fence", "fence", line=((0, 12), (40, 12.5)))]
    t = Table(40, 36, features=tuple(features), footprints=tuple(units))
    ways = [Way(u.unit_id, draw(headings), draw(st.sampled_from([3.0, 6.0, 12.0])),
                draw(st.sampled_from([FOOT, HORSE])), 6.0,
                clearance=draw(st.sampled_from([0.0, 1.0])))
            for u in units]
    return t, ways


@settings(max_examples=40, deadline=None)
@given(battles())
def test_furthest_many_is_furthest_way_by_way(battle: tuple[Table, list[Way]]) -> None:
    t, ways = battle
    assert furthest_many(t, ways) == tuple(_reference(t, w) for w in ways)


@settings(max_examples=25, deadline=None)
@given(battles(), st.data())
def test_furthest_many_of_any_subset_and_order(battle: tuple[Table, list[Way]],
                                               data: st.DataObject) -> None:
    t, ways = battle
    chosen = data.draw(st.lists(st.sampled_from(ways), max_size=8))
    assert furthest_many(t, chosen) == tuple(_reference(t, w) for w in chosen)


def test_units_touching_where_they_stand() -> None:
    # a line of units flank to flank (3" wide, 3" apart): sideways each is stopped at once by
    # the neighbour it touches, away from it it goes on; and a sliver of overlap is touching
    units = line_of(4, 10, "red", 0.0, 3.0)
    over = Footprint("X", 5 + 12 - 1e-12, 10, 0, 2, 1.5, 1, side="red")
    t = Table(40, 30, footprints=(*units, over))
    ways = [Way(u.unit_id, h, 6.0, FOOT, 6.0) for u in (*units, over) for h in (90.0, -90.0)]
    got = furthest_many(t, ways)
    assert got == tuple(_reference(t, w) for w in ways)
    assert [(d.distance, d.stopped_by) for d in got[2:4]] == [(0.0, "red2"), (0.0, "red0")]
    assert got[0].distance == 0.0 and got[1].stopped_by == "table edge"


@settings(max_examples=25, deadline=None)
@given(battles())
def test_what_lies_near_many_moves_is_what_lies_near_each(
        battle: tuple[Table, list[Way]]) -> None:
    t, ways = battle
    fps = [t.footprint(w.unit_id) for w in ways]
    paths = [(f.centre, (f.x + 3.0, f.y - 2.0 * i)) for i, f in enumerate(fps)]
    many = _nears(t, fps, paths)
    for f, path, near in zip(fps, paths, many, strict=True):
        one = _near(t, f, path)
        for mine, alone in ((near.area_rows, one.area_rows), (near.line_rows, one.line_rows),
                            (near.unit_rows, one.unit_rows)):
            assert mine is not None and alone is not None
            assert mine.tolist() == alone.tolist()
