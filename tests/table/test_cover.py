"""Cover: the ground a unit stands in, the work it holds, the obstacles it stands behind."""

from __future__ import annotations

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.table import Feature, Footprint, Table, TerrainKind, cover_of, covers
from smoothbore.table.cover import OBSTACLES, covers_with_own
from smoothbore.table.layout import fire_lines
from smoothbore.table.terrain import TerrainIndex


def table(*features: Feature) -> Table:
    # T: 4" x 1" at (20, 20) facing down the table (front edge y = 19.5, x 18..22);
    # F: the firer at (20, 10) facing up (front edge y = 10.5)
    t = Footprint("T", 20, 20, 180, 2, 2, 1, side="blue")
    f = Footprint("F", 20, 10, 0, 2, 2, 1, side="red")
    return Table(40, 40, features=features, footprints=(t, f))


def test_the_share_of_a_footprint_in_woods() -> None:
    # light woods over x >= 20: half of T (x 18..22) stands in them
    woods = Feature("lw", "light woods", outline=((20, 15), (30, 15), (30, 25), (20, 25)))
    c = cover_of(table(woods), "T")
    assert c.share(TerrainKind.LIGHT_WOODS) == pytest.approx(0.5)
    assert c.stands_in(TerrainKind.LIGHT_WOODS)  # half counts as in
    assert not c.stands_in(TerrainKind.LIGHT_WOODS, at_least=0.6)
    assert c.share(TerrainKind.DENSE_WOODS) == 0 and c.holds is None


def test_a_work_held_with_its_strength() -> None:
    redoubt = Feature.rectangle("redoubt", "fieldwork", 20, 20, 6, 3, strength=10)
    c = cover_of(table(redoubt), "T")
    assert (c.holds, c.strength) == ("redoubt", 10)
    assert c.share(TerrainKind.FIELDWORK) == pytest.approx(1.0)
    assert c.behind == ()  # the work it holds is not an obstacle in front of it


def test_behind_a_fence_as_the_firer_sees_it() -> None:
    # a fence 0.5" in front of T (y = 19) crosses the line of fire within 1" of T
    near = Feature("fence", "fence", line=((10, 19), (30, 19)))
    # a wall 4" in front (y = 15.5) is crossed too, but far from T
    far = Feature("wall", "wall", line=((10, 15.5), (30, 15.5)))
    c = cover_of(table(near, far), "T", "F")
    assert c.behind == ("fence",) and c.behind_obstacle
    assert cover_of(table(near, far), "T", "F", near=5.0).behind == ("fence", "wall")
    # a fence beside T, off the line of fire, does not cover it against F
    beside = Feature("side", "fence", line=((25, 18), (25, 22)))
    assert cover_of(table(beside), "T", "F").behind == ()


def test_behind_an_obstacle_without_a_firer_looks_ahead() -> None:
    # without a firer: obstacles within 1" ahead of the front edge (y 18.5 to 19.5)
    near = Feature("fence", "fence", line=((10, 19), (30, 19)))
    behind_it = Feature("ditch", "stream", line=((10, 21), (30, 21)))
    assert cover_of(table(near, behind_it), "T").behind == ("fence",)


def test_covers_for_many_units() -> None:
    woods = Feature.rectangle("dw", "dense woods", 20, 10, 10, 4)
    found = covers(table(woods), ["T", "F", "T"])
    assert [c.unit_id for c in found] == ["T", "F", "T"]
    assert found[1].share(TerrainKind.DENSE_WOODS) == pytest.approx(1.0)
    assert found[0].inside == ()


def test_targets_against_firers_and_the_firers_own_ground_at_once() -> None:
    # sightings asks both at once: T against F's line of fire (the fence 0.5" in front of T),
    # and F's own ground without a firer (the wall 0.5" ahead of F's front edge, y = 11)
    fence = Feature("fence", "fence", line=((10, 19), (30, 19)))
    wall = Feature("wall", "wall", line=((10, 11), (30, 11)))
    woods = Feature.rectangle("lw", "light woods", 20, 10, 10, 4)
    t = table(fence, wall, woods)
    layout = t.layout
    lines, _, _ = fire_lines(layout, layout.rows(["F", "F"]), layout.rows(["T", "T"]),
                             t.diagonal)
    targets, own = covers_with_own(t, ["T", "T"], lines, ["F", "T"])
    assert targets == covers(t, ["T", "T"], lines) and own == covers(t, ["F", "T"])
    assert [c.behind for c in targets] == [("fence",), ("fence",)]
    assert own[0].behind == ("wall",) and own[0].share(TerrainKind.LIGHT_WOODS) == 1.0
    # T faces down the table: the fence is also 0.5" ahead of its own front edge (y = 19.5)
    assert own[1].behind == ("fence",) and own[1].inside == ()


def test_a_footprints_cover_is_remembered_on_the_ground_and_read_only_of_that_footprint(
) -> None:
    # the ground under each footprint and the obstacles ahead of it are worked out once per
    # footprint on this ground (TerrainIndex.remember), whichever table it stands on: the
    # answers on tables where units have moved equal those of a ground that remembers nothing
    fence = Feature("fence", "fence", line=((10, 19), (30, 19)))
    wall = Feature("wall", "wall", line=((10, 11), (30, 11)))
    woods = Feature.rectangle("lw", "light woods", 20, 10, 10, 4)
    redoubt = Feature.rectangle("redoubt", "fieldwork", 30, 30, 6, 3, strength=10)
    start = table(fence, wall, woods, redoubt)
    for dx, dy, turn in ((0, 0, 0), (3, 0, 0), (0, 8.6, 0), (10, 10, 90), (10, 20, 0),
                         (0, 0, 0), (3, 0, 0)):
        moved = start.placed(start.footprint("F").moved_to(20 + dx, 10 + dy, turn))
        fresh = moved.placed(moved.footprint("T"))
        object.__setattr__(fresh, "terrain", TerrainIndex(moved.features))  # remembers nothing
        layout = moved.layout
        lines, _, _ = fire_lines(layout, layout.rows(["F"]), layout.rows(["T"]), moved.diagonal)
        assert covers_with_own(moved, ["T"], lines, ["F", "T"]) == covers_with_own(
            fresh, ["T"], lines, ["F", "T"])
        kept = moved.terrain.recalled(("cover: ground under", moved.footprint("F")))
        worked = cover_of(fresh, "F")
        assert (kept.inside, kept.holds, kept.strength) == (
            worked.inside, worked.holds, worked.strength)
    assert cover_of(start.placed(start.footprint("F").moved_to(30, 30)), "F").holds == "redoubt"
    assert cover_of(start, "F").share(TerrainKind.LIGHT_WOODS) == 1.0


OBSTACLES_ABOUT = (Feature("fence", "fence", line=((90, 99), (110, 101))),
                   Feature("wall", "wall", line=((95, 90), (96, 110))),
                   Feature("stream", "stream", line=((85, 106), (115, 104)), width=1.0),
                   Feature.rectangle("lw", "light woods", 92, 94, 5, 4, facing=35),
                   Feature.rectangle("works", "fieldwork", 104, 96, 4, 2, strength=8))

placings = st.lists(st.tuples(st.floats(-10, 10), st.floats(-10, 10), st.floats(0, 360)),
                    min_size=2, max_size=5)


@settings(max_examples=40, deadline=None)
@given(placings, placings)
def test_cover_remembered_on_the_ground_equals_cover_worked_afresh(
        first: list[tuple[float, float, float]], then: list[tuple[float, float, float]]) -> None:
    # the ground remembers, per footprint, its cover, the obstacles ahead of it and those
    # close to it (for each reach and set of kinds): units that stay put between two tables
    # are answered from memory; every answer must be the one a ground remembering nothing
    # gives, whatever reach and kinds were asked before
    def units(spots: list[tuple[float, float, float]]) -> list[Footprint]:
        return [Footprint(f"U{i}", 100 + x, 100 + y, facing, 2, 2, 1,
                          side="red" if i % 2 else "blue")
                for i, (x, y, facing) in enumerate(spots)]

    start = Table(200, 200, features=OBSTACLES_ABOUT, footprints=units(first))
    kept = units(then)[: len(first) // 2] + list(start.footprints[len(first) // 2:])
    tables = [start, start.placed(*kept)]
    kinds = (OBSTACLES, frozenset({TerrainKind.FENCE, TerrainKind.STREAM}))
    for moved in tables:
        fresh = Table(200, 200, features=OBSTACLES_ABOUT, footprints=moved.footprints)
        object.__setattr__(fresh, "terrain", TerrainIndex(moved.features))  # remembers nothing
        ids = list(moved.unit_ids)
        pairs = [(a, b) for a in ids for b in ids if a != b]
        layout = moved.layout
        lines, _, _ = fire_lines(layout, layout.rows([a for a, _ in pairs]),
                                 layout.rows([b for _, b in pairs]), moved.diagonal)
        for near in (0.5, 2.0, None):
            for chosen in kinds:
                asked = [b for _, b in pairs]
                assert covers_with_own(moved, asked, lines, ids, near=near,
                                       obstacles=chosen) == covers_with_own(
                    fresh, asked, lines, ids, near=near, obstacles=chosen)
                object.__setattr__(fresh, "terrain", TerrainIndex(moved.features))


@settings(max_examples=60, deadline=None)
@given(placings)
def test_the_ground_under_units_is_each_kinds_share_of_each_footprint(
        spots: list[tuple[float, float, float]]) -> None:
    # to the last bit: for each unit, kind by kind in the order the ground lists its kinds,
    # the area it shares with all of that kind over its own area (kinds it does not share
    # left out), asked of every unit at once
    more = (*OBSTACLES_ABOUT, Feature.rectangle("dw", "dense woods", 100, 104, 6, 3),
            Feature.rectangle("hill", "gentle hill", 98, 98, 8, 8, facing=10))
    units = [Footprint(f"U{i}", 100 + x, 100 + y, facing, 2, 2, 1)
             for i, (x, y, facing) in enumerate(spots)]
    units.append(Footprint("H", 100, 102.2, 0, 2, 2, 1))  # on the hill and in the woods
    table = Table(200, 200, features=more, footprints=tuple(units))
    expected = []
    for unit in units:
        shares = []
        for kind, union in table.terrain.unions.items():
            common = shapely.area(shapely.intersection(unit.shape, union))
            if common > 0:
                shares.append((kind, min(1.0, float(common / shapely.area(unit.shape)))))
        expected.append(tuple(shares))
    assert [c.inside for c in covers(table, table.unit_ids)] == expected
    assert len(expected[-1]) == 2
