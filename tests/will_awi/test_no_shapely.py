"""Will's AWI asks the table, never Shapely (issue 29 item 4): no module of the book imports
it, and the measures written on the table's regions answer as worked out by hand. A line of
two bases is 2 x BASE wide and BASE deep: its corners sweep a circle of radius
hypot(BASE, BASE / 2) as it turns about its centre (Changing Facing)."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from smoothbore.table import Feature
from smoothbore.will_awi.positions import BASE
from smoothbore.will_awi.situations import (
    blast_within,
    impassable_at,
    table_of,
    turning_room,
    work_gap,
)

from .test_situations import UNITS, on_table

BOOK = Path(__file__).resolve().parents[2] / "src" / "smoothbore" / "will_awi"
SWEEP = math.hypot(BASE, BASE / 2)
"""The radius a line of two bases sweeps turning about its centre."""


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_no_module_of_the_book_imports_shapely() -> None:
    shapely_users = sorted(p.name for p in BOOK.glob("*.py")
                           if any(m.split(".")[0] == "shapely" for m in _imports(p)))
    assert shapely_users == []


@pytest.mark.parametrize(("gap", "struck"), [(-0.01, ("b1",)), (0.01, ())])
def test_a_turn_strikes_a_unit_within_the_circle_its_corners_sweep(
        gap: float, struck: tuple[str, ...]) -> None:
    """b1's left flank SWEEP + gap east of r1's centre: inside the circle (a polygon whose
    corner lies on the east axis) it is struck, outside it is not; both ways alike."""
    s = on_table({"r1": (20, 10, 0), "b1": (20 + SWEEP + gap + BASE, 10, 0)})
    room = turning_room(table_of(s))
    assert room["r1"] == struck
    assert room["b1"] == tuple(k.replace("b1", "r1") for k in struck)


def test_a_turn_strikes_a_wall_within_the_circle_but_not_woods() -> None:
    """A wall 0.1" inside the circle north of r1 is struck; light woods there are not an
    obstacle to a turn."""
    wall = Feature("w", "wall", line=((10, 10 + SWEEP - 0.1), (30, 10 + SWEEP - 0.1)))
    woods = Feature.rectangle("copse", "light woods", 20, 10 - SWEEP, 8, 1)
    s = on_table({"r1": (20, 10, 0)}, wall, woods)
    assert turning_room(table_of(s))["r1"] == ("w",)


def test_a_work_is_measured_between_nearest_points() -> None:
    """A redoubt whose near edge is 3" ahead of r1's front edge: 3" from the unit; the
    blast of radius 3 catches r1 (exactly at its radius), not b1 further off."""
    front = 10 + BASE / 2
    work = Feature.rectangle("fort", "fieldwork", 20, front + 3 + 1, 4, 2)
    s = on_table({"r1": (20, 10, 0), "b1": (40, 30, 180)}, work)
    assert work_gap(s, "r1", "fort") == pytest.approx(3.0)
    assert blast_within(s, "fort", 3.0) == frozenset({"r1"})


def test_the_ground_a_mover_cannot_enter_leaves_out_the_ford() -> None:
    """A river across the table with a ford: its water is refused, the ford is not."""
    river = Feature.rectangle("river", "river", 24, 20, 48, 2)
    ford = Feature.rectangle("ford", "ford", 24, 20, 3, 2)
    s = on_table({"r1": (20, 10, 0)}, river, ford)
    table = table_of(s)
    foot = UNITS["r1"]
    assert impassable_at(table, foot, s.options, 10, 20) == "river (river)"
    assert impassable_at(table, foot, s.options, 24, 20) == ""
    assert impassable_at(table, foot, s.options, 10, 10) == ""
