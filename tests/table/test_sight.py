"""Range, arcs, line of sight, whole-base visibility, woods along the line of fire, and the
face a firer stands off; hand-drawn layouts with their answers worked out in the comments."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import affinity

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    ChargeReach,
    Face,
    Feature,
    Footprint,
    Formation,
    SightLine,
    SightRules,
    Table,
    TerrainKind,
    arc_polygon,
    charges,
    distance,
    enemy_pairs,
    line_of_fire,
    point_distance,
    sight_lines,
    sighting,
    sightings,
    visible_enemies,
    woods_along,
)
from smoothbore.table import sight as sight_module


def unit(uid: str, x: float, y: float, facing: float = 0.0, *, side: str = "red",
         bases: int = 2, frontage: float = 2.0, depth: float = 1.0,
         formation: Formation = Formation.LINE) -> Footprint:
    return Footprint(uid, x, y, facing, bases, frontage, depth, formation, side=side)


def facing_lines(*features: Feature, extra: tuple[Footprint, ...] = ()) -> Table:
    """Two 4" lines square to each other: A's front edge is y = 10.5 (x 18 to 22), B faces
    back down the table with its front edge at y = 20.5: 10" apart."""
    a = unit("A", 20, 10)
    b = unit("B", 20, 21, 180, side="blue")
    return Table(60, 40, features=features, footprints=(a, b, *extra))


def test_two_lines_ten_inches_apart() -> None:
    s = sighting(facing_lines(), "A", "B")
    assert s.distance == pytest.approx(10.0)
    assert s.angle == 0.0 and s.in_arc and s.base_in_arc
    assert s.line_clear and s.base_visible and s.can_fire
    # the line of fire joins the middles of the two facing edges
    assert np.allclose(s.line.coords, [(20, 10.5), (20, 20.5)])
    assert s.face is Face.FRONT and not s.enfilade and s.rise == 0
    assert s.woods == () and s.blocked_by == () and s.units_between == ()


def test_a_target_thirty_degrees_off_the_front() -> None:
    # F: one base 4" x 1" at (30, 10) facing up: front edge y = 10.5, right corner (32, 10.5).
    # T: one base 2" x 1" whose lower left corner is 10" ahead and 10 tan 30 = 5.7735" right
    # of that corner: (37.7735, 19.5); so T's least angle off F's front is exactly 30 degrees.
    # Its farthest corner (39.7735, 19.5) is at atan2(7.7735, 9) = 40.81 degrees.
    right = 10 * math.tan(math.radians(30))
    f = unit("F", 30, 10, bases=1, frontage=4)
    t = unit("T", 32 + right + 1, 20, 180, side="blue", bases=1)
    table = Table(60, 40, footprints=(f, t))
    s = sighting(table, "F", "T")
    assert s.angle == pytest.approx(30.0)
    assert s.in_arc and s.base_in_arc  # the whole base is within 45 degrees
    assert sighting(table, "F", "T", half_angle=35).in_arc
    assert not sighting(table, "F", "T", half_angle=35).base_in_arc  # 40.81 > 35
    assert not sighting(table, "F", "T", half_angle=25).in_arc
    # seen whole, but only part of the base within a 35-degree arc: not a target for Will
    narrow = sighting(table, "F", "T", half_angle=35)
    assert narrow.line_clear and not narrow.base_visible and not narrow.can_fire
    assert s.base_visible and s.can_fire
    # range: from F's corner (32, 10.5) to T's corner (37.7735, 19.5)
    assert s.distance == pytest.approx(math.hypot(right, 9))
    # F stands below T's front line (y = 19.5 for T facing down): T's front
    assert s.face is Face.FRONT


def test_a_line_of_fire_through_three_inches_of_woods() -> None:
    # dense woods from y = 14 to 17 across the line of fire (y 10.5 to 20.5): 3"
    woods = Feature.rectangle("w1", "dense woods", 20, 15.5, 10, 3)
    table = facing_lines(woods)
    s = sighting(table, "A", "B")
    assert s.woods == ((TerrainKind.DENSE_WOODS, pytest.approx(3.0)),)
    assert woods_along(table, s.line) == s.woods
    assert s.woods_length() == pytest.approx(3.0)
    assert s.woods_length(TerrainKind.LIGHT_WOODS) == 0
    assert s.line_clear  # woods do not block by default
    # Will: in dense woods other troops are seen 4" in; McKie 20 mm: here a 2" limit blocks
    deep = sighting(facing_lines(woods), "A", "B",
                    rules=SightRules(see_into={TerrainKind.DENSE_WOODS: 2.0}))
    assert not deep.line_clear and deep.blocked_by == ("w1",) and not deep.base_visible


def test_light_woods_met_at_an_angle() -> None:
    # the line of fire from (20, 10.5) to (20, 20.5) crosses light woods whose lower edge is
    # the line y = 15 + (x - 20) (45 degrees) and which reaches to y = 30: it enters at
    # (20, 15), so 5.5" of the line lies inside
    woods = Feature("lw", "light woods", outline=((10, 5), (30, 25), (30, 30), (10, 30)))
    s = sighting(facing_lines(woods), "A", "B")
    assert s.woods_length(TerrainKind.LIGHT_WOODS) == pytest.approx(5.5)
    assert s.cover.share(TerrainKind.LIGHT_WOODS) == pytest.approx(1.0)


def test_a_building_between_blocks_the_line() -> None:
    house = Feature.rectangle("house", "building", 20, 15.5, 2, 2)
    s = sighting(facing_lines(house), "A", "B")
    assert not s.line_clear and s.blocked_by == ("house",)
    assert not s.base_visible and not s.can_fire


def test_one_base_seen_whole_is_enough() -> None:
    # B's bases: x 18..20 and 20..22 (y 20.5..21.5); the cone from (20, 10.5) to the right
    # base has its right side x = 20 + 0.2 (y - 10.5), which reaches x = 21.2 at y = 16.5 and
    # so enters a house standing at x 21..23, y 14.5..16.5; the left base's cone stays at
    # x <= 20 and the line of fire (x = 20) is clear
    house = Feature.rectangle("house", "building", 22, 15.5, 2, 2)
    s = sighting(facing_lines(house), "A", "B")
    assert s.line_clear and s.base_visible
    # a second house at x 18..19 enters the left base's cone (x = 20 - 0.2 (y - 10.5) is
    # 18.8 at y = 16.5): both bases are partly hidden, yet the line of fire is clear
    shed = Feature.rectangle("shed", "building", 18.5, 15.5, 1, 2)
    s = sighting(facing_lines(house, shed), "A", "B")
    assert s.line_clear and not s.base_visible and not s.can_fire


def test_a_unit_between_blocks_and_is_named() -> None:
    c = unit("C", 20, 15.5, side="red")
    s = sighting(facing_lines(extra=(c,)), "A", "B")
    assert s.units_between == ("C",) and not s.line_clear and not s.base_visible
    # where units do not block (fire over them from higher ground), they are still named
    over = sighting(facing_lines(extra=(c,)), "A", "B", rules=SightRules(units_block=False))
    assert over.line_clear and over.units_between == ("C",) and over.base_visible


def test_hills_block_unless_an_end_is_as_high() -> None:
    hill = Feature.rectangle("hill", "gentle hill", 20, 15.5, 20, 3)
    assert sighting(facing_lines(hill), "A", "B").blocked_by == ("hill",)
    # A stands on another hill of the same level: it sees over this one
    perch = Feature.rectangle("perch", "gentle hill", 20, 10, 8, 4)
    s = sighting(facing_lines(hill, perch), "A", "B")
    assert s.line_clear and s.rise == -1  # B stands one level lower than A
    # a hill on the hill (level 2) between them blocks again
    crest = Feature.rectangle("crest", "steep hill", 20, 15.5, 6, 2, level=2)
    assert sighting(facing_lines(hill, perch, crest), "A", "B").blocked_by == ("crest",)
    # the rules may let hills be
    assert sighting(facing_lines(hill), "A", "B", rules=SightRules(hills_block=False)).line_clear


def test_a_unit_in_a_building_sees_all_round() -> None:
    house = Feature.rectangle("house", "building", 20, 10, 4, 2, strength=8)
    a = Footprint.holding("A", house, bases=2, side="red")
    behind = unit("B", 20, 2, side="blue")  # below the house
    table = Table(40, 30, features=(house,), footprints=(a, behind))
    s = sighting(table, "A", "B")
    assert s.in_arc and s.angle == 0 and s.line_clear  # its own building does not block
    assert sighting(table, "B", "A").cover.holds == "house"
    assert sighting(table, "B", "A").face is Face.FRONT  # no flank, no rear


def test_enfilade_from_a_flank() -> None:
    # C at (40, 21) beside B's line (between its front and rear lines): B's flank
    c = unit("C", 40, 21, 270)
    s = sighting(facing_lines(extra=(c,)), "C", "B")
    # B faces down the table, so its right is towards -x and C (at +x) is off its left
    assert s.face is Face.LEFT and s.enfilade
    assert s.distance == pytest.approx(40 - 0.5 - 22)


def test_all_round_fire_by_firer() -> None:
    behind = unit("B", 20, 3, side="blue")
    table = Table(40, 30, footprints=(unit("A", 20, 10), behind))
    out = sighting(table, "A", "B")
    assert not out.in_arc and out.line_clear and not out.base_visible
    both = sightings(table, [("A", "B")], half_angle={"A": 180.0})
    assert both[0].in_arc and both[0].angle == 180


def test_every_pair_of_enemies() -> None:
    table = facing_lines(extra=(unit("C", 40, 21, 180, side="blue"),))
    assert enemy_pairs(table) == (("A", "B"), ("A", "C"), ("B", "A"), ("C", "A"))
    found = sightings(table)
    assert [(s.firer, s.target) for s in found] == list(enemy_pairs(table))
    assert sightings(table, []) == ()


def test_visible_enemies_ignore_facing_but_not_buildings() -> None:
    house = Feature.rectangle("house", "building", 20, 15.5, 8, 2)
    behind = unit("C", 20, 3, side="blue")
    table = facing_lines(house, extra=(behind,))
    assert visible_enemies(table, "A") == ("C",)
    assert visible_enemies(facing_lines(extra=(behind,)), "A") == ("B", "C")


def test_arc_polygon_and_line_of_fire() -> None:
    table = facing_lines()
    wedge = arc_polygon(table, "A", 45, length=10)
    # the front edge (4") and a far side 4 + 2 * 10 = 24" wide, 10" ahead: area 140
    assert wedge.area == pytest.approx(140.0)
    assert line_of_fire(table, "A", "B").length == pytest.approx(10.0)
    assert point_distance(table, "A", (20, 20.5)) == pytest.approx(10.0)


@pytest.mark.parametrize("call, field", [
    (lambda t: sighting(t, "A", "Q"), "unit_id"),
    (lambda t: sightings(t, [("A", "A")]), "pairs"),
    (lambda t: sighting(t, "A", "B", half_angle=200), "half_angle"),
    (lambda t: sighting(t, "A", "B", near=-1), "near"),
    (lambda t: sighting(t, "A", "B", rear_arc=-1), "rear_arc"),
    (lambda t: point_distance(t, "A", (math.nan, 1)), "point[0]"),
    (lambda t: SightRules(see_into={"dense woods": -1}), "SightRules.see_into"),
    (lambda t: SightRules(blocking={"castle"}), "SightRules.blocking"),
])
def test_bad_questions_name_the_field(call: object, field: str) -> None:
    with pytest.raises(InvalidValueError) as error:
        call(facing_lines())  # type: ignore[operator]
    assert error.value.field == field


# -- properties ----------------------------------------------------------------------------

positions = st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.floats(0, 360),
                      st.integers(1, 4), st.sampled_from(list(Formation)[:4]))


@st.composite
def layouts(draw: st.DrawFn) -> list[Footprint]:
    """A few units placed at random about the middle of a large table, not overlapping."""
    placed: list[Footprint] = []
    for i in range(draw(st.integers(2, 5))):
        x, y, facing, bases, formation = draw(positions)
        fp = Footprint(f"U{i}", 100 + x, 100 + y, facing, bases, 1.5, 1.0, formation,
                       side="red" if i % 2 else "blue")
        if all(not fp.shape.intersects(other.shape) for other in placed):
            placed.append(fp)
    return placed


TERRAIN = (Feature.rectangle("w", "dense woods", 100, 100, 6, 4, facing=20),
           Feature.rectangle("h", "building", 94, 104, 2, 3, facing=-10),
           Feature.rectangle("g", "gentle hill", 106, 95, 5, 5))


def _answers(table: Table) -> list[tuple[object, ...]]:
    pairs = [(a.unit_id, b.unit_id) for a in table.footprints for b in table.footprints
             if a.unit_id != b.unit_id]
    return [(s.firer, s.target, round(s.distance, 6), round(s.angle, 6), s.in_arc,
             s.base_in_arc, s.line_clear, s.base_visible, s.blocked_by, s.units_between,
             tuple((k, round(x, 6)) for k, x in s.woods), s.face, s.rise)
            for s in sightings(table, pairs)]


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_range_is_symmetric_and_never_negative(units: list[Footprint]) -> None:
    table = Table(200, 200, features=TERRAIN, footprints=units)
    for a in table.unit_ids:
        for b in table.unit_ids:
            if a != b:
                assert distance(table, a, b) >= 0
                assert distance(table, a, b) == pytest.approx(distance(table, b, a), abs=1e-9)


def _moved(table: Table, angle: float, dx: float, dy: float) -> Table:
    """The whole layout turned ``angle`` degrees clockwise about (100, 100) and shifted."""
    def point(x: float, y: float) -> tuple[float, float]:
        r = math.radians(angle)
        u, v = x - 100, y - 100
        return (100 + u * math.cos(r) + v * math.sin(r) + dx,
                100 - u * math.sin(r) + v * math.cos(r) + dy)

    units = [f.moved_to(*point(f.x, f.y), facing=f.facing + angle) for f in table.footprints]
    features = []
    for f in table.features:
        turned = affinity.translate(affinity.rotate(f.area, -angle, origin=(100, 100)), dx, dy)
        coords = tuple((float(x), float(y)) for x, y in np.asarray(turned.exterior.coords)[:-1])
        features.append(Feature(f.feature_id, f.kind, outline=coords, level=f.level))
    return Table(table.width, table.depth, features=tuple(features), footprints=units)


@settings(max_examples=60, deadline=None)
@given(layouts(), st.floats(0, 360), st.floats(-20, 20), st.floats(-20, 20))
def test_turning_and_shifting_the_whole_layout_changes_no_answer(
        units: list[Footprint], angle: float, dx: float, dy: float) -> None:
    table = Table(200, 200, features=TERRAIN, footprints=units)
    before = _answers(table)
    after = _answers(_moved(table, angle, dx, dy))
    for old, new in zip(before, after, strict=True):
        assert old[:2] == new[:2]
        assert new[2] == pytest.approx(old[2], abs=1e-5)
        assert new[3] == pytest.approx(old[3], abs=1e-4)
        if abs(old[3] - 45) > 1e-4:  # exactly on the arc's edge rounding may tip it
            assert old[4] == new[4]
        assert old[6:10] == new[6:10] or _grazing(table, old)
        assert len(old[10]) == len(new[10])
        for (k1, x1), (k2, x2) in zip(old[10], new[10], strict=True):
            assert k1 is k2 and x2 == pytest.approx(x1, abs=1e-5)
        assert old[11:] == new[11:] or _on_a_zone_line(table, old)


def _grazing(table: Table, answer: tuple[object, ...]) -> bool:
    """A line or cone passing within a hair of an edge may tip either way when turned."""
    s = sighting(table, str(answer[0]), str(answer[1]))
    others = [f.shape for f in table.footprints if f.unit_id not in answer[:2]]
    others += [f.area for f in table.features]
    return any(0 < s.line.distance(o) < 1e-6 for o in others)


def _on_a_zone_line(table: Table, answer: tuple[object, ...]) -> bool:
    """A firer whose centre lies on the line between two zones may tip either way."""
    firer = table.footprint(str(answer[0]))
    target = table.footprint(str(answer[1]))
    _, v = target.local([firer.centre])
    return bool(abs(abs(v[0]) - target.length / 2) < 1e-6)


COVERED = (*TERRAIN,
           Feature.rectangle("l", "light woods", 92, 94, 5, 4, facing=35),
           Feature("f", "fence", line=((90, 99), (110, 101))),
           Feature("s", "stream", line=((97, 85), (99, 115)), width=1.0))
DEEP = SightRules(blocking=frozenset({TerrainKind.BUILDING}), units_block=False,
                  see_into={TerrainKind.DENSE_WOODS: 1.5, TerrainKind.LIGHT_WOODS: 3.0})


def _fields(value: SightLine | ChargeReach) -> tuple[object, ...]:
    """Every field of a SightLine (or Sighting) or ChargeReach, the line of fire by its
    coordinates."""
    return tuple(tuple(getattr(value, f.name).coords) if f.name == "line"
                 else getattr(value, f.name) for f in attrs.fields(type(value)))


def _some_pairs(units: list[Footprint], data: st.DataObject
                ) -> tuple[Table, tuple[tuple[str, str], ...], list[tuple[str, str]]] | None:
    """A covered table with these units, every enemy pair on it and a few of them drawn
    (None: no enemies)."""
    table = Table(200, 200, features=COVERED, footprints=units)
    every = enemy_pairs(table)
    if not every:
        return None
    return table, every, data.draw(st.lists(st.sampled_from(every), min_size=1,
                                            max_size=len(every)))


@settings(max_examples=60, deadline=None)
@given(layouts(), st.data())
def test_a_few_pairs_answer_as_all_pairs_do(units: list[Footprint], data: st.DataObject
                                            ) -> None:
    # the rule books ask again only for the pairs a move touched: those answers must be the
    # ones the whole table gives, field by field (one code path, whatever the subset)
    drawn = _some_pairs(units, data)
    if drawn is None:
        return
    table, every, chosen = drawn
    for rules, half, near in ((SightRules(), 45.0, None), (DEEP, {"U1": 180.0}, 2.5)):
        whole = dict(zip(every, sightings(table, half_angle=half, rules=rules, near=near),
                         strict=True))
        part = sightings(table, chosen, half_angle=half, rules=rules, near=near)
        assert [_fields(s) for s in part] == [_fields(whole[p]) for p in chosen]
    for reach in (3.0, {u: 1.0 + i for i, u in enumerate(table.unit_ids)}):
        all_charges = dict(zip(every, charges(table, None, reach), strict=True))
        assert [_fields(c) for c in charges(table, chosen, reach)] == [
            _fields(all_charges[p]) for p in chosen]


@settings(max_examples=60, deadline=None)
@given(layouts(), st.data())
def test_sight_lines_are_the_sightings_lines(units: list[Footprint], data: st.DataObject
                                             ) -> None:
    # the lean question leaves out what only a Sighting holds: every field it keeps must be
    # the Sighting's, to the last bit, under every rule set (sight into woods limited or not,
    # all-round firers, a nearer cover distance), whichever pairs are asked
    drawn = _some_pairs(units, data)
    if drawn is None:
        return
    table, _, chosen = drawn
    kept = [f.name for f in attrs.fields(SightLine)]
    for rules, half, near in ((SightRules(), 45.0, None), (DEEP, {"U1": 180.0}, 2.5)):
        lean = sight_lines(table, chosen, half_angle=half, rules=rules, near=near)
        whole = sightings(table, chosen, half_angle=half, rules=rules, near=near)
        assert all(type(s) is SightLine for s in lean)
        assert [_fields(s) for s in lean] == [_fields(s)[:len(kept)] for s in whole]
    assert sight_lines(table, []) == ()


@settings(max_examples=40, deadline=None)
@given(layouts(), st.data())
def test_sifting_candidates_by_bounding_circles_changes_no_answer(
        units: list[Footprint], data: st.DataObject) -> None:
    # the circles only bound the shapes: sifting many candidates with them before the exact
    # test, or testing every candidate the boxes give, must answer alike, field by field
    table = Table(200, 200, features=COVERED, footprints=units)
    every = enemy_pairs(table)
    if not every:
        return
    chosen = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=len(every)))
    answers = []
    for sift in (0, 10_000):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sight_module, "_SIFT", sift)
            fresh = Table(200, 200, features=COVERED, footprints=units)
            answers.append([_fields(s) for s in sightings(fresh, chosen, rules=DEEP)]
                           + [_fields(s) for s in sightings(fresh, chosen)])
    assert answers[0] == answers[1]


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_woods_along_each_line_are_its_length_inside_each_kind(units: list[Footprint]) -> None:
    # to the last bit: light woods then dense woods, the length of the line of fire inside
    # all woods of that kind, for every pair asked at once (kinds it does not enter left out)
    for features in (COVERED, TERRAIN, TERRAIN[1:]):  # both kinds, dense only, none
        table = Table(200, 200, features=features, footprints=units)
        every = enemy_pairs(table)
        for s in sightings(table, every):
            expected = []
            for kind in (TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS):
                union = table.terrain.union(kind)
                if union is not None:
                    inside = float(shapely.length(shapely.intersection(s.line, union)))
                    if inside > 0:
                        expected.append((kind, inside))
            assert s.woods == tuple(expected) == woods_along(table, s.line)


# --- issue 29 (second round): visible_enemies at scale asks a stretch of each line at a time --


@st.composite
def _crowds(draw: st.DrawFn) -> Table:
    """Two sides of 50-70 units scattered over a 60" x 40" table (any facing, some
    overlapping: a layout the first cut must not be fooled by), with a wood, a building and
    a hill."""
    fps = []
    for side in ("red", "blue"):
        for i in range(draw(st.integers(50, 70))):
            x = draw(st.floats(2.5, 57.5, allow_nan=False))
            y = draw(st.floats(2.5, 37.5, allow_nan=False))
            facing = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0, 33.0]))
            fps.append(Footprint(f"{side[0]}{i}", x, y, facing, 1,
                                 draw(st.sampled_from([1.0, 2.0, 3.0])), 1.0, side=side))
    features = (Feature.rectangle("wood", "light woods", draw(st.floats(10, 50)), 20, 8, 6),
                Feature.rectangle("house", "building", draw(st.floats(10, 50)), 12, 2, 2),
                Feature.rectangle("hill", "gentle hill", draw(st.floats(10, 50)), 30, 10, 5))
    return Table(60, 40, features=features, footprints=fps)


@settings(max_examples=25, deadline=None)
@given(_crowds(), st.integers(0, 1000),
       st.sampled_from([SightRules(), SightRules(units_block=False),
                        SightRules(see_into={"light woods": 2.0}, hills_block=False)]))
def test_visible_enemies_of_many_are_those_of_every_line_asked_everything(
        table: Table, pick: int, rules: SightRules) -> None:
    ids = table.unit_ids
    for unit_id in (ids[pick % len(ids)], ids[(pick * 7 + 3) % len(ids)]):
        assert len(table.enemies_of(unit_id)) > sight_module._MANY_LINES
        assert visible_enemies(table, unit_id, rules=rules) == (
            sight_module._visible_enemies_plain(table, unit_id, rules=rules))


def test_visible_enemies_of_a_big_battle_are_those_of_every_line() -> None:
    # 500 a side in lines (benchmarks/bench_table.py big(500)): most lines cross a unit,
    # found a stretch at a time; 16-64 enemies seen from each of these
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    try:
        from bench_table import big
    finally:
        sys.path.pop(0)
    table = big(500)
    for unit_id in table.unit_ids[::125]:
        seen = visible_enemies(table, unit_id)
        assert seen == sight_module._visible_enemies_plain(table, unit_id)
        assert 16 <= len(seen) <= 64
