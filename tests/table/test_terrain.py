"""Terrain features: kinds, shapes and their validation; the terrain index."""

from __future__ import annotations

import math

import numpy as np
import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import Feature, Footprint, Table, TerrainKind, terrain_kind
from smoothbore.table.terrain import TerrainIndex


def test_kinds_are_read_from_the_texts_words() -> None:
    assert terrain_kind("dense woods") is TerrainKind.DENSE_WOODS
    assert terrain_kind("GENTLE_HILL") is TerrainKind.GENTLE_HILL
    assert str(TerrainKind.ROUGH) == "rough ground"


def test_an_unknown_kind_names_the_field_and_the_choices() -> None:
    with pytest.raises(InvalidValueError) as error:
        Feature("x", "jungle", outline=((0, 0), (1, 0), (1, 1)))
    assert error.value.field == "Feature.kind" and error.value.value == "jungle"
    assert "'dense woods'" in error.value.allowed


def test_a_river_drawn_as_a_line_covers_its_width() -> None:
    # a 20" river 6" wide with flat ends: 120 square inches
    river = Feature("r", TerrainKind.RIVER, line=((0, 10), (20, 10)), width=6)
    assert river.area.area == pytest.approx(120.0)
    assert not river.crossed and river.centre_line is None


def test_a_fence_is_a_line_that_moves_cross() -> None:
    fence = Feature("f", "fence", line=[[0, 0], [5, 0]])
    assert fence.crossed and fence.centre_line is not None
    assert fence.line == ((0, 0), (5, 0))


@pytest.mark.parametrize("kwargs, field", [
    (dict(kind="fence", outline=((0, 0), (1, 0), (1, 1))), "Feature.outline"),
    (dict(kind="light woods", line=((0, 0), (1, 0))), "Feature.line"),
    (dict(kind="river", line=((0, 0), (1, 0))), "Feature.width"),
    (dict(kind="light woods", outline=((0, 0), (1, 0), (1, 1)), strength=3), "Feature.strength"),
    (dict(kind="swamp", outline=((0, 0), (1, 0), (1, 1)), level=2), "Feature.level"),
    (dict(kind="rough ground", outline=((0, 0), (2, 2), (2, 0), (0, 2))), "Feature.outline"),
    (dict(kind="rough ground", outline=((0, 0), (1, 0))), "Feature.outline"),
    (dict(kind="rough ground", outline=((0, 0), (1, math.nan), (1, 1))), "Feature.outline"),
    (dict(kind="rough ground"), "Feature.outline"),
    (dict(kind="wall", line=((0, 0), (1, 0)), width=-1), "Feature.width"),
])
def test_bad_features_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidValueError) as error:
        Feature("x", **kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_a_ford_hides_the_river_it_crosses() -> None:
    river = Feature("r", "river", line=((0, 10), (40, 10)), width=6)
    ford = Feature.rectangle("ford", "ford", 20, 10, 4, 8)
    table = Table(40, 20, features=(river, ford))
    assert table.kinds_at(20, 10) == {TerrainKind.FORD}
    assert table.kinds_at(5, 10) == {TerrainKind.RIVER}
    assert table.kinds_at(5, 1) == frozenset()


def test_hill_levels() -> None:
    hill = Feature.rectangle("h", "gentle hill", 20, 20, 20, 20)
    top = Feature.rectangle("top", "steep hill", 20, 20, 4, 4, level=2)
    table = Table(40, 40, features=(hill, top))
    assert table.level_at(20, 20) == 2
    assert table.level_at(12, 20) == 1
    assert table.level_at(1, 1) == 0


def test_levels_of_many_points_are_each_points_level() -> None:
    # levels_at answers for an array of points at once (few hits in plain Python, many with
    # numpy): each is level_at of that point; woods and a table without hills are level
    hill = Feature.rectangle("h", "gentle hill", 20, 20, 20, 20)
    top = Feature.rectangle("top", "steep hill", 20, 20, 4, 4, level=2)
    other = Feature.rectangle("o", "steep hill", 14, 14, 8, 8, level=3)
    woods = Feature.rectangle("w", "light woods", 20, 20, 30, 30)
    table = Table(40, 40, features=(woods, hill, top, other))
    points = np.array([(x, y) for x in range(0, 41, 2) for y in range(0, 41, 3)], dtype=float)
    for chosen in (points[:3], points[100:104], points):  # few hits, then many
        assert table.terrain.levels_at(chosen).tolist() == [
            table.level_at(x, y) for x, y in chosen]
    assert sorted(set(table.terrain.levels_at(points).tolist())) == [0, 1, 2, 3]
    flat = Table(40, 40, features=(woods,))
    assert flat.terrain.levels_at(points).tolist() == [0] * len(points)


def test_kinds_at_a_point_remembered_are_those_worked_out_afresh() -> None:
    # the kinds at each point are remembered on the ground: asked again (in another order,
    # and at points sharing an x or a y) they are those of a ground that remembers nothing
    river = Feature("r", "river", line=((0, 10), (40, 10)), width=6)
    ford = Feature.rectangle("ford", "ford", 20, 10, 4, 8)
    woods = Feature.rectangle("w", "dense woods", 10, 25, 12, 10, facing=30)
    features = (river, ford, woods)
    table = Table(40, 40, features=features)
    points = [(float(x), float(y)) for x in range(0, 41, 3) for y in range(0, 41, 2)]
    first = [table.terrain.kinds_at(x, y) for x, y in points]
    again = [table.terrain.kinds_at(x, y) for x, y in reversed(points)][::-1]
    fresh = [TerrainIndex(features).kinds_at(x, y) for x, y in points]
    assert first == again == fresh
    assert len(set(first)) == 4  # nothing, river, ford, woods


def test_scaling_a_feature() -> None:
    wall = Feature("w", "wall", line=((1, 2), (3, 4)), width=0.5).scaled(10)
    assert wall.line == ((10, 20), (30, 40)) and wall.width == 5


# --- issue 28: terrain points and widths are bounded as footprints are -------------------
@pytest.mark.parametrize(("kwargs", "field"), [
    ({"kind": "river", "line": ((0, 10), (20, 10)), "width": 1e308}, "Feature.width"),
    ({"kind": "river", "line": ((0, 10), (20, 10)), "width": 1_000_001}, "Feature.width"),
    ({"kind": "rough ground", "outline": ((0, 0), (1e308, 0), (0, 1e308))}, "Feature.outline"),
    ({"kind": "rough ground", "outline": ((0, 0), (2e6, 0), (0, 5))}, "Feature.outline"),
    ({"kind": "stream", "line": ((-1e7, 0), (3, 4))}, "Feature.line"),
    ({"kind": "gentle hill", "outline": ((0, 0), (9, 0), (0, 9)), "level": 10**18},
     "Feature.level"),
    ({"kind": "building", "outline": ((0, 0), (9, 0), (0, 9)), "strength": 10**18},
     "Feature.strength"),
])
def test_terrain_points_and_widths_are_bounded_as_footprints_are(
        kwargs: dict[str, object], field: str) -> None:
    """Issue 28, "Loaded states and values": a river 1e308 wide raised a raw GEOSException
    (its area), outlines at 1e308 played on with NaN answers. Every coordinate lies within
    ±MAX_COORDINATE, as a footprint's does, and a width is at most MAX_COORDINATE; the hill
    level and strength points have bounds too (docs/table.md)."""
    with pytest.raises(InvalidValueError) as error:
        Feature("x", **kwargs)  # type: ignore[arg-type]
    assert error.value.field == field


def test_terrain_at_the_bound_still_has_an_area() -> None:
    from smoothbore.table import MAX_COORDINATE

    river = Feature("r", "river", line=((-MAX_COORDINATE, 0), (MAX_COORDINATE, 0)),
                    width=MAX_COORDINATE)
    assert river.area.area == pytest.approx(2 * MAX_COORDINATE * MAX_COORDINATE)


@pytest.mark.parametrize("book", ["bloodybacks93", "will_awi", "mckie_acw", "boltaction_acw"])
def test_a_loaded_river_of_width_1e308_is_refused_by_its_path(book: str) -> None:
    """Issue 28: the loader names the feature's field (a LoadError, no GEOSException)."""
    import json

    from smoothbore.core import LoadError
    from smoothbore.rulesets import get_ruleset

    turn = get_ruleset(book).turn
    data = json.loads(get_ruleset(book).example(1).to_json())
    features = data["extra"]["table"]["features"]
    index = next(i for i, f in enumerate(features) if f["line"])
    features[index]["width"] = 1e308
    with pytest.raises(LoadError, match=rf"\$\.extra\.table\.features\[{index}\]\.width"):
        turn.load(json.dumps(data))  # type: ignore[union-attr]
    features[index]["width"] = 1
    features[index]["line"][0] = [1e308, 0]
    with pytest.raises(LoadError, match=rf"\$\.extra\.table\.features\[{index}\]\.line"):
        turn.load(json.dumps(data))  # type: ignore[union-attr]


# --- issue 29 (second round): no process-wide cache; the index belongs to a line of tables ---


def _lru_caches(module: object) -> set[str]:
    import functools

    name = getattr(module, "__name__", "?").rsplit(".", 1)[-1]
    return {f"{name}.{attr}" for attr, value in vars(module).items()
            if isinstance(value, functools._lru_cache_wrapper)
            and getattr(value, "__module__", "") == getattr(module, "__name__", "")}


def test_the_table_keeps_no_process_wide_cache_but_one_over_small_values() -> None:
    # the terrain index and a rate table's lookups are the line's and the rate table's own;
    # what remains is paths._speed: (a frozen RateTable, a frozenset of kinds) -> a Fraction
    import importlib
    import pkgutil

    import smoothbore.table as package

    found: set[str] = set()
    for info in pkgutil.iter_modules(package.__path__):
        found |= _lru_caches(importlib.import_module(f"smoothbore.table.{info.name}"))
    assert found == {"paths._speed"}


def test_the_terrain_index_is_carried_along_a_line_and_remembers_in_its_stores() -> None:
    woods = Feature.rectangle("w", "dense woods", 10, 10, 8, 8)
    hill = Feature.rectangle("h", "gentle hill", 30, 10, 8, 8)
    fp = Footprint("a", 10, 10, 0, 1, 4, 2, side="red")
    table = Table(40, 30, features=(woods, hill), footprints=(fp,))
    index = table.terrain
    moved = table.placed(Footprint("a", 30, 10, 0, 1, 4, 2, side="red"))
    alone = table.on_same_ground([Footprint("b", 20, 20, 0, 1, 4, 2, side="blue")])
    assert moved.terrain is index and alone.terrain is index
    assert alone.unit_ids == ("b",) and alone.commanders == () and alone.traces == ()
    # another line (equal features, a table of its own) builds its own: nothing is shared
    # through the process
    other = Table(40, 30, features=(woods, hill), footprints=(fp,))
    assert other.terrain is not index
    # what the index remembers (a unit's ground level) is in the line's store
    assert moved.layout.levels.tolist() == [1]
    counts = {c.name: c for c in moved.stores()}
    assert counts["table: terrain"].answers >= 1
    assert {c.name: c.answers for c in other.stores()}["table: terrain"] == 0
    # and the features of a set of kinds (the sight blockers) likewise, once a line
    kinds = frozenset({TerrainKind.DENSE_WOODS})
    assert table.terrain.blockers(kinds, True) is moved.terrain.blockers(kinds, True)
    assert [f.feature_id for f in alone.terrain.blockers(kinds, True).features] == ["w", "h"]


def test_a_table_on_the_same_ground_is_checked_as_a_new_table() -> None:
    woods = Feature.rectangle("w", "dense woods", 10, 10, 8, 8)
    table = Table(40, 30, features=(woods,))
    with pytest.raises(InvalidValueError) as error:
        table.on_same_ground([Footprint("a", 39.5, 10, 0, 1, 4, 2)])
    assert error.value.field == "footprints['a']"
    fp = Footprint("a", 10, 10, 0, 1, 4, 2)
    with pytest.raises(InvalidValueError) as error:
        table.on_same_ground([fp, fp])
    assert error.value.field == "Table.footprints"
    assert table.on_same_ground([fp]) == Table(40, 30, features=(woods,), footprints=(fp,))


def test_tables_made_from_one_not_yet_asked_share_its_index() -> None:
    # the parent works its index out when it hands it on: two branches (two moves tried
    # from the same table, as a listing does) build none of their own
    woods = Feature.rectangle("w", "dense woods", 10, 10, 8, 8)
    table = Table(40, 30, features=(woods,), footprints=(Footprint("a", 20, 20, 0, 1, 4, 2),))
    left = table.placed(Footprint("a", 15, 20, 0, 1, 4, 2))
    right = table.placed(Footprint("a", 25, 20, 0, 1, 4, 2))
    bare = table.on_same_ground()
    assert left.terrain is right.terrain is bare.terrain is table.terrain
    assert left.kinds_at(10, 10) == frozenset({TerrainKind.DENSE_WOODS})
