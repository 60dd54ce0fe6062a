"""Boxes round units as a first cut (issue 29: the books' own copies moved to the table)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.table import Footprint, Table
from smoothbore.table.boxes import (
    FEW,
    box_gap,
    footprints_near,
    gap_over,
    unit_boxes,
    units_within_box,
)


def grid(n: int, pitch: float = 5.0) -> Table:
    # n one-inch squares in rows of 10, ``pitch`` apart, centres from (10, 10)
    fps = tuple(Footprint(f"u{i}", 10 + (i % 10) * pitch, 10 + (i // 10) * pitch)
                for i in range(n))
    return Table(200, 200, footprints=fps)


def test_boxes_and_their_gaps() -> None:
    t = grid(3)
    assert unit_boxes(t)["u1"] == (14.5, 9.5, 15.5, 10.5)
    assert box_gap((0, 0, 1, 1), (4, 5, 6, 6)) == 5.0  # 3 across, 4 up
    assert box_gap((0, 0, 1, 1), (0.5, 0.5, 2, 2)) == 0.0
    assert gap_over((0, 0, 1, 1), (4, 5, 6, 6), 4.999) and not gap_over(
        (0, 0, 1, 1), (4, 5, 6, 6), 5.0)


def test_footprints_near_a_box() -> None:
    t = grid(3)  # boxes x 9.5-10.5, 14.5-15.5, 19.5-20.5
    assert [f.unit_id for f in footprints_near(t, (11, 9, 12, 11))] == []
    assert [f.unit_id for f in footprints_near(t, (11, 9, 12, 11), 0.5)] == ["u0"]
    assert [f.unit_id for f in footprints_near(t, (11, 9, 14, 11), 0.5)] == ["u0", "u1"]
    with pytest.raises(InvalidValueError, match="box="):
        footprints_near(t, (1, 2, 0, 3))
    with pytest.raises(InvalidValueError, match="reach="):
        footprints_near(t, (0, 0, 1, 1), -1)


def test_units_within_a_distance_of_a_unit() -> None:
    t = grid(12)  # u0 at (10, 10); u1 4" off across; u10 4" off up; u11 the diagonal
    assert units_within_box(t, "u0", 4.0) == {"u1", "u10"}
    assert units_within_box(t, "u0", 3.999) == {"u1", "u10"}  # within the 1e-3 margin
    assert units_within_box(t, "u0", 3.998) == frozenset()
    assert units_within_box(t, "u0", 4 * math.sqrt(2)) == {"u1", "u10", "u11"}
    with pytest.raises(InvalidValueError, match="unit"):
        units_within_box(t, "nobody", 4.0)


@settings(max_examples=30, deadline=None)
@given(st.integers(FEW + 1, 90), st.floats(3.0, 7.0), st.floats(0, 12),
       st.tuples(st.floats(0, 60), st.floats(0, 60), st.floats(0, 8), st.floats(0, 8)))
def test_many_units_answer_as_the_plain_walk(n: int, pitch: float, reach: float,
                                            box: tuple[float, float, float, float]) -> None:
    big = grid(n, pitch)
    small = Table(200, 200, footprints=big.footprints[:FEW])
    x, y, w, h = box
    b = (x, y, x + w, y + h)
    # the same units near a box, of a table walked and one asked of numpy
    near_big = [f.unit_id for f in footprints_near(big, b, reach)]
    walked = [f.unit_id for f in big.footprints if not (
        f.bounds[0] > b[2] + reach or f.bounds[2] < b[0] - reach
        or f.bounds[1] > b[3] + reach or f.bounds[3] < b[1] - reach)]
    assert near_big == walked
    assert [f.unit_id for f in footprints_near(small, b, reach)] == [
        u for u in walked if small.units.get(u) is not None]
    boxes = unit_boxes(big)
    for unit in ("u0", f"u{n // 2}", f"u{n - 1}"):
        expected = {o for o in boxes if o != unit and box_gap(boxes[unit], boxes[o])
                    <= reach + 1e-3}
        assert units_within_box(big, unit, reach) == expected


def test_a_box_of_ints_or_a_bad_reach_is_still_checked() -> None:
    t = grid(3)
    # ints are boxes too (checked in full), the answers the same as for floats
    assert footprints_near(t, (11, 9, 12, 11), 1) == footprints_near(t, (11.0, 9.0, 12.0,
                                                                         11.0), 1.0)
    with pytest.raises(InvalidValueError, match="reach="):
        footprints_near(t, (0.0, 0.0, 1.0, 1.0), math.nan)
    with pytest.raises(InvalidValueError, match=r"box\[0\]="):
        footprints_near(t, (math.inf, 0.0, 1.0, 1.0))
    with pytest.raises(InvalidValueError, match="distance="):
        units_within_box(t, "u0", -1.0)
