"""The angle rule shared by arcs and faces, and the arrays a table's units are kept in."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from smoothbore.battle import play, random_policy
from smoothbore.simulation import resolve_ruleset
from smoothbore.table import Footprint, Formation, Table, table_of
from smoothbore.table.layout import (
    FRONT,
    LEFT,
    REAR,
    RIGHT,
    Layout,
    base_distances,
    face_codes,
    off_front,
)
from smoothbore.table.terrain import TerrainIndex


def one(**changes: object) -> Table:
    # a unit 4" wide and 1" deep centred at (20, 20) facing up the table: its front edge runs
    # from (18, 20.5) to (22, 20.5)
    values: dict[str, object] = dict(unit_id="A", x=20.0, y=20.0, facing=0.0, bases=2,
                                     frontage=2.0, depth=1.0)
    values.update(changes)
    return Table(40, 40, footprints=(Footprint(**values),))  # type: ignore[arg-type]


def test_angles_off_the_front() -> None:
    layout = one().layout
    points = np.array([
        (20, 25),      # straight ahead of the front edge: 0
        (18, 30),      # straight ahead of the left front corner: 0
        (25, 23.5),    # 3 right of the right corner and 3 ahead of it: 45
        (25, 20.5),    # level with the front edge, beside it: 90
        (20, 15),      # behind, between the flanks: 180
        (15, 15.5),    # 3 left of the left corner, 5 behind its line: atan2(3, -5)
    ])
    angles = off_front(layout, np.zeros(len(points), dtype=np.intp), points)
    expected = [0, 0, 45, 90, 180, np.degrees(np.arctan2(3, -5))]
    assert angles == pytest.approx(expected)


def test_faces_by_zone() -> None:
    layout = one().layout
    rows = np.zeros(6, dtype=np.intp)
    points = np.array([(20, 30), (20, 10), (30, 20), (10, 20), (25, 23.5), (25, 23)])
    # with the zones cut by the lines of the front and rear edges, (25, 23.5) and (25, 23)
    # are ahead of the front line: front
    assert face_codes(layout, rows, points, 90, 90).tolist() == [
        FRONT, REAR, RIGHT, LEFT, FRONT, FRONT]
    # with 45-degree zones from the corners: (25, 23.5) is at 45 degrees (front), (25, 23)
    # at atan2(3, 2.5) = 50.2 degrees (right flank)
    assert face_codes(layout, rows, points, 45, 45).tolist() == [
        FRONT, REAR, RIGHT, LEFT, FRONT, RIGHT]


def test_a_building_has_only_a_front() -> None:
    layout = one(formation=Formation.BUILDING).layout
    points = np.array([(20, 10), (30, 20)])
    assert face_codes(layout, np.zeros(2, dtype=np.intp), points, 90, 90).tolist() == [
        FRONT, FRONT]


def test_distances_to_bases_are_exact() -> None:
    # skirmishers: two 2" bases 2" apart, x 17..19 and 21..23, y 19.5..20.5
    layout = one(formation=Formation.SKIRMISH).layout
    points = np.array([(20, 20), (20, 25), (30, 20.5)])
    gaps, nearest, base = base_distances(layout, np.zeros(3, dtype=np.intp), points)
    assert gaps == pytest.approx([1.0, np.hypot(1, 4.5), 7.0])
    assert nearest[2] == pytest.approx((23, 20.5))
    assert base[2] == 1
    assert layout.base_corners.shape == (2, 4, 2)


def test_shrunk_shapes_made_on_first_use_equal_those_made_at_once() -> None:
    # Layout.inner_of makes each unit's shrunk shape when first asked: asked row by row in
    # any order they equal those of a fresh layout asked for every row at once
    units = [Footprint("A", 20, 20, 0, 2, 2, 1), Footprint("B", 30, 25, 35, 3, 2, 1,
                                                             formation=Formation.SKIRMISH),
             Footprint("C", 12, 30, 200, 1, 3, 2), Footprint("D", 25, 12, 90, 2, 2, 1,
                                                             formation=Formation.BUILDING)]
    table = Table(40, 40, footprints=tuple(units))
    at_once = table.layout.inner_of(np.arange(4))
    bit_by_bit = Table(40, 40, footprints=tuple(units)).layout
    for rows in ([2], [2, 0, 2], [3, 1], [0, 1, 2, 3]):
        got = bit_by_bit.inner_of(np.array(rows, dtype=np.intp))
        assert all(shapely.equals_exact(g, at_once[r], tolerance=0)
                   for g, r in zip(got, rows, strict=True))
    # shrunk by a hair: inside the shape, and nearly all of it
    for shrunk, unit in zip(at_once, units, strict=True):
        assert unit.shape.contains(shrunk)
        assert shrunk.area == pytest.approx(unit.shape.area, rel=1e-5)


@pytest.mark.parametrize(("book", "battle"), [("will_awi", "germantown"),
                                              ("boltaction_acw", "default")])
def test_what_a_layout_remembers_on_the_ground_is_what_it_works_out_afresh(
        book: str, battle: str) -> None:
    # the ground levels under units and their shrunk shapes are remembered per footprint on
    # the ground (TerrainIndex.remember) and read by the next tables: at every step of random
    # battles they equal those of a ground that remembers nothing
    ruleset = resolve_ruleset(book)
    make = dict(ruleset.battles())[battle]
    seen: list[int] = []

    def check(state: object) -> bool:
        table = table_of(state)
        assert table is not None
        layout, fresh = table.layout, Layout(table.footprints, TerrainIndex(table.features))
        rows = np.arange(len(table.footprints))
        assert layout.levels.tolist() == fresh.levels.tolist() == TerrainIndex(
            table.features).levels_at(layout.centre).tolist()
        assert all(shapely.equals_exact(a, b, tolerance=0) for a, b in zip(
            layout.inner_of(rows[::-1]), fresh.inner_of(rows)[::-1], strict=True))
        seen.append(len(rows))
        return False

    for seed in range(2):
        play(ruleset.turn, make(seed), random_policy(seed), until=check, max_steps=150)
    assert len(seen) > 100
