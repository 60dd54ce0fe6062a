"""Sightings of many pairs on big layouts (issue 28): the candidates a line of fire or a cone
may cross are sifted by the distance of each unit's centre from the probe's line
(``sight._Slabs``) before the exact test; the reference sifts by the distance from the
probe's segment (``_sightings(..., plain=True)``). Both are bounds, so every answer must be
the same, field by field, on random layouts with many units and terrain between them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.table import Feature, Footprint, Formation, SightRules, Table, enemy_pairs
from smoothbore.table import sight as sight_module
from smoothbore.table.sight import Sighting, _sightings

TERRAIN = (
    Feature.rectangle("wood", "dense woods", 30, 20, 10, 4, facing=15),
    Feature.rectangle("copse", "light woods", 12, 26, 6, 3),
    Feature.rectangle("farm", "building", 20, 21, 2, 2, facing=-20),
    Feature.rectangle("hill", "gentle hill", 44, 22, 8, 6),
    Feature("wall", "wall", line=((5, 15), (25, 16))),
)
DEEP = SightRules(see_into={"dense woods": 2.0, "light woods": 4.0})


@st.composite
def crowds(draw: st.DrawFn) -> list[Footprint]:
    """Up to 30 units at random on a 60" x 44" table (overlaps allowed: the questions do
    not need a legal battle), either side, any facing, lines, columns and skirmishers."""
    count = draw(st.integers(6, 30))
    board = Table(60, 44)
    units = []
    for i in range(count):
        x = draw(st.floats(4, 56))
        y = draw(st.floats(4, 40))
        facing = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0]) | st.floats(0, 360))
        bases = draw(st.integers(1, 4))
        formation = draw(st.sampled_from(
            [Formation.LINE, Formation.COLUMN, Formation.SKIRMISH]))
        fp = Footprint(f"u{i}", x, y, facing, bases, 1.5, 1.0, formation,
                       side="red" if i % 2 else "blue")
        if board.holds(fp):
            units.append(fp)
    return units


def _fields(s: Sighting) -> tuple[object, ...]:
    # every field, the line of fire by its coordinates (a LineString is not compared by eq)
    return (s, tuple(np.asarray(s.line.coords).ravel().tolist()))


@settings(max_examples=25, deadline=None)
@given(crowds(), st.booleans())
def test_the_slab_sift_answers_as_the_reference(units: list[Footprint], deep: bool) -> None:
    table = Table(60, 44, features=TERRAIN, footprints=units)
    pairs = enemy_pairs(table)
    if not pairs:
        return
    rules = DEEP if deep else SightRules()
    fast = _sightings(table, pairs, rules=rules)
    fresh = Table(60, 44, features=TERRAIN, footprints=units)
    plain = _sightings(fresh, pairs, rules=rules, plain=True)
    assert [_fields(s) for s in fast] == [_fields(s) for s in plain]


def test_a_long_line_across_a_crowd_names_exactly_the_units_it_crosses() -> None:
    # 30 blue units in a 6 x 5 block between A (near edge) and B (far edge): the line of
    # fire from A's front edge middle (30, 5.5) to B's front edge middle (30, 38.5) runs up
    # x = 30, through the column of the block at x = 30 (five units, y 12 to 28), and past
    # the others (x 22, 26, 34, 38, 42: 4" apart, each 3" wide, so 1" clear of the line
    # at the nearest)
    block = [Footprint(f"m{r}{c}", 22 + 4 * c, 12 + 4 * r, 0, 2, 1.5, 1.0, side="green")
             for r in range(5) for c in range(6)]
    a = Footprint("A", 30, 5, 0, 2, 1.5, 1.0, side="red")
    b = Footprint("B", 30, 39, 180, 2, 1.5, 1.0, side="blue")
    table = Table(60, 44, footprints=(a, b, *block))
    (s,) = _sightings(table, [("A", "B")])
    assert s.units_between == ("m02", "m12", "m22", "m32", "m42")
    assert not s.line_clear
    (r,) = _sightings(table, [("A", "B")], plain=True)
    assert r.units_between == s.units_between


def test_every_candidate_goes_through_the_sift_when_many() -> None:
    # the slab sift is asked only above _SIFT candidates: with none sifted (a bound
    # never applied) and all sifted, the answers agree on a crowd
    units = [Footprint(f"u{i}", 5 + (i * 7) % 50, 5 + (i * 11) % 34, (i * 37) % 360, 2, 1.5,
                       1.0, side="red" if i % 2 else "blue") for i in range(30)]
    answers = []
    for sift in (0, 10_000):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sight_module, "_SIFT", sift)
            table = Table(60, 44, features=TERRAIN, footprints=units)
            answers.append([_fields(s) for s in _sightings(table, enemy_pairs(table))])
    assert answers[0] == answers[1]
