"""Traces of the last moves and shots, kept on the table to be drawn."""

from __future__ import annotations

import math

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import Footprint, MoveTrace, ShotTrace, Table


def test_traces_are_kept_and_scaled() -> None:
    move = MoveTrace("A", ((1, 2), (3, 4)))
    shot = ShotTrace("A", "B", hit=False)
    table = Table(10, 10, footprints=(Footprint("A", 5, 5),)).with_traces(move, shot)
    assert table.traces == (move, shot)
    assert move.scaled(2).path == ((2, 4), (6, 8))
    assert shot.scaled(2) is shot


@pytest.mark.parametrize("path", [((1, 2),), ((1, 2), (math.nan, 3)), ((1, 2), (3,)),
                                  ((1, 2), (True, 3))])
def test_a_move_needs_two_real_points(path: tuple[tuple[float, ...], ...]) -> None:
    with pytest.raises(InvalidValueError) as error:
        MoveTrace("A", path)  # type: ignore[arg-type]
    assert error.value.field == "MoveTrace.path"


def test_bad_shots_and_tables_of_traces() -> None:
    with pytest.raises(InvalidValueError):
        ShotTrace("A", "")
    with pytest.raises(InvalidValueError):
        ShotTrace("A", "B", hit="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError) as error:
        Table(10, 10, traces=("moved",))
    assert error.value.field == "Table.traces"
