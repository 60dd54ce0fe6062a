"""Bloodybacks 9.3, Movement; Retrograde movement; Interpenetration; Passage of lines."""

from __future__ import annotations

import itertools
from fractions import Fraction

import attrs
import pytest

from smoothbore.bloodybacks93.movement import (
    MoveFacts,
    PassageResult,
    Terrain,
    cavalry_choices,
    is_passage_of_lines,
    may_interpenetrate,
    move,
    passage_allowed,
    passage_of_lines,
)
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType
from smoothbore.core import IllegalActionError, SamplingDice, odds

from .oracle import AV_FACES, D12_FACES, results_of, totals

DICE = SamplingDice(0)


def _inf(density: int = 6, **kw: object) -> Unit:
    return Unit("i", "Foot", BRITISH, density=density, **kw)  # type: ignore[arg-type]


def _guns(kind: UnitType, formation: Formation = Formation.UNLIMBERED) -> Unit:
    return Unit("g", "Guns", BRITISH, kind=kind, density=3, formation=formation)


def _dist(unit: Unit, facts: MoveFacts) -> dict[tuple[int, ...], Fraction]:
    d = odds(move, unit, facts).map(lambda m: m.distances)
    return {o: d.probability(o) for o in d.outcomes}


@pytest.mark.parametrize(("density", "inches"), [(3, 9), (4, 8), (5, 7), (6, 6), (8, 4)])
def test_deployed_infantry_move_12_less_density(density: int, inches: int) -> None:
    """Movement: deployed infantry move 12" less density: skirmishers 9", 3-rank close
    order 4"."""
    assert move(_inf(density), MoveFacts(), dice=DICE).distances == (inches,)


def test_columns_and_roads() -> None:
    """Movement: infantry column 9" (12" on road); cavalry column 12" (18" on road); limbered
    artillery 6" (12" on road)."""
    column = _inf(formation=Formation.COLUMN)
    assert move(column, MoveFacts(), dice=DICE).distances == (9,)
    assert move(column, MoveFacts(road=True), dice=DICE).distances == (12,)
    horse = Unit("c", "Horse", BRITISH, kind=UnitType.CAVALRY, formation=Formation.COLUMN)
    assert move(horse, MoveFacts(), dice=DICE).distances == (12,)
    assert move(horse, MoveFacts(road=True), dice=DICE).distances == (18,)
    limbered = _guns(UnitType.HEAVY_ARTILLERY, Formation.LIMBERED)
    assert move(limbered, MoveFacts(), dice=DICE).distances == (6,)
    assert move(limbered, MoveFacts(road=True), dice=DICE).distances == (12,)


def _cavalry_expected(rule: str) -> dict[tuple[int, ...], Fraction]:
    out: dict[tuple[int, ...], Fraction] = {}
    for a, b in itertools.product(D12_FACES, repeat=2):
        if rule == "open":
            key = tuple(sorted({a, b, a + b, abs(a - b)}))
        elif rule == "rough":
            key = tuple(sorted({a, b}))
        else:
            key = (min(a, b),)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 144)
    return out


@pytest.mark.parametrize(("terrain", "rule"), [
    (Terrain.OPEN, "open"), (Terrain.LIGHT_WOODS, "open"), (Terrain.STEEP_HILL, "rough"),
    (Terrain.DIFFICULT, "rough"), (Terrain.HEAVY_WOODS, "lowest")])
def test_deployed_cavalry_two_d12(terrain: Terrain, rule: str) -> None:
    """Movement: deployed cavalry move exactly either d12, the sum or the difference; not
    combined in rough terrain; the lower in heavy woods."""
    horse = Unit("c", "Horse", BRITISH, kind=UnitType.CAVALRY)
    assert _dist(horse, MoveFacts(terrain=terrain)) == _cavalry_expected(rule)
    assert cavalry_choices(3, 5, Terrain.OPEN) == (2, 3, 5, 8)


@pytest.mark.parametrize(("kind", "faces", "plus"), [
    (UnitType.LIGHT_ARTILLERY, AV_FACES, 2), (UnitType.VERY_LIGHT_ARTILLERY, AV_FACES, 2),
    (UnitType.FIELD_ARTILLERY, AV_FACES, 0), (UnitType.HEAVY_ARTILLERY, (1, 2, 3), 0)])
def test_unlimbered_artillery(kind: UnitType, faces: tuple[int, ...], plus: int) -> None:
    """Movement: unlimbered light dAv+2", field dAv", heavy d3"."""
    expected = {(k,): p for k, p in totals(faces, 1, plus).items()}
    assert _dist(_guns(kind), MoveFacts()) == expected


def test_obstacles_and_woods() -> None:
    """Movement: a minor obstacle costs 1 DRP (artillery may not cross); light woods cost
    nothing; heavy woods cost deployed units 1 DRP and infantry 2"."""
    crossed = move(_inf(5), MoveFacts(obstacle=True), dice=DICE)
    assert crossed.unit.disruption == 1 and crossed.distances == (7,)
    with pytest.raises(IllegalActionError, match="obstacles"):
        move(_guns(UnitType.LIGHT_ARTILLERY, Formation.LIMBERED), MoveFacts(obstacle=True),
             dice=DICE)
    light = move(_inf(5), MoveFacts(terrain=Terrain.LIGHT_WOODS), dice=DICE)
    assert light.unit.disruption == 0 and light.distances == (7,)
    heavy = move(_inf(5), MoveFacts(terrain=Terrain.HEAVY_WOODS), dice=DICE)
    assert heavy.unit.disruption == 1 and heavy.distances == (5,)
    column = move(_inf(5, formation=Formation.COLUMN), MoveFacts(terrain=Terrain.HEAVY_WOODS),
                  dice=DICE)
    assert column.unit.disruption == 0 and column.distances == (7,)
    limbered = move(_guns(UnitType.FIELD_ARTILLERY, Formation.LIMBERED),
                    MoveFacts(terrain=Terrain.HEAVY_WOODS), dice=DICE)
    assert limbered.distances == (4,)
    with pytest.raises(IllegalActionError, match="deployed artillery"):
        move(_guns(UnitType.FIELD_ARTILLERY), MoveFacts(terrain=Terrain.STEEP_HILL), dice=DICE)


def test_retrograde() -> None:
    """Retrograde movement: infantry and unlimbered artillery take a DRP; at 3 DRPs a morale
    test instead; cavalry and limbered artillery may not."""
    back = move(_inf(6), MoveFacts(retrograde=True), dice=DICE)
    assert back.unit.disruption == 1 and back.morale is None
    tired = _inf(6, disruption=3, quality=3)
    dist = odds(move, tired, MoveFacts(retrograde=True)).map(
        lambda m: str(m.morale.result) if m.morale else None)
    assert {o: dist.probability(o) for o in dist.outcomes} == results_of(6)
    with pytest.raises(IllegalActionError) as info:
        move(Unit("c", "C", BRITISH, kind=UnitType.CAVALRY), MoveFacts(retrograde=True),
             dice=DICE)
    assert "Retrograde" in info.value.rule
    with pytest.raises(IllegalActionError):
        move(_guns(UnitType.LIGHT_ARTILLERY, Formation.LIMBERED), MoveFacts(retrograde=True),
             dice=DICE)


def test_interpenetration() -> None:
    """Interpenetration: unlimbered artillery and density 3-4 infantry pass through, or are
    passed through by, any friendly unit; but infantry of density 5+ moving through guns
    makes a passage of lines (B25)."""
    guns = _guns(UnitType.FIELD_ARTILLERY)
    horse = Unit("c", "Horse", BRITISH, kind=UnitType.CAVALRY)
    assert may_interpenetrate(_inf(4), _inf(8))
    assert may_interpenetrate(_inf(8), _inf(3))
    assert may_interpenetrate(guns, _inf(6))
    assert may_interpenetrate(_inf(4), guns) and may_interpenetrate(horse, guns)
    assert not may_interpenetrate(_inf(5), _inf(6))
    assert not may_interpenetrate(_inf(6), guns)
    assert not may_interpenetrate(_inf(5), _guns(UnitType.LIGHT_ARTILLERY, Formation.LIMBERED))


def test_passage_through_guns_rolls_the_d12() -> None:
    """Passage of lines: "infantry of density 5 or more ... through another infantry unit of
    density 5 or more (or unlimbered artillery)": formed infantry through guns rolls the
    d12, 1 fails, the combined quality or more passes, otherwise each takes the DRPs of the
    mover's density (the crews do not count) (B25)."""
    mover, guns = _inf(6, quality=3), attrs.evolve(_guns(UnitType.FIELD_ARTILLERY), quality=4)
    assert is_passage_of_lines(mover, guns) and passage_allowed(mover, guns)
    assert not passage_allowed(_inf(6, quality=2), guns)
    dist = odds(passage_of_lines, mover, guns).map(
        lambda p: (p.result, p.mover.disruption, p.static.disruption))
    expected: dict[tuple[PassageResult, int, int], Fraction] = {}
    for face in D12_FACES:
        key = ((PassageResult.BLOCKED, 0, 0) if face == 1 else
               (PassageResult.CLEAN, 0, 0) if face >= 7 else (PassageResult.DISORDERED, 2, 2))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 12)
    assert {o: dist.probability(o) for o in dist.outcomes} == expected


def test_passage_allowed() -> None:
    """Passage of lines: density 5+ infantry through density 5+ infantry or unlimbered
    artillery, both of quality 3+."""
    assert passage_allowed(_inf(5, quality=3), _inf(6, quality=3))
    assert passage_allowed(_inf(5, quality=3), _guns(UnitType.FIELD_ARTILLERY))
    assert not passage_allowed(_inf(5, quality=2), _inf(6, quality=3))
    assert not passage_allowed(_inf(4, quality=3), _inf(6, quality=3))
    with pytest.raises(IllegalActionError):
        passage_of_lines(_inf(5, quality=2), _inf(6), dice=DICE)


@pytest.mark.parametrize(("d1", "d2", "drp"), [(5, 6, 1), (6, 8, 2), (8, 7, 3), (6, 6, 2)])
def test_passage_exact(d1: int, d2: int, drp: int) -> None:
    """Passage of lines: a 1 blocks; at or over the combined quality passes; otherwise both
    take DRPs by the lowest density (1 at 5, 2 at 6, 3 at 7+)."""
    mover, static = _inf(d1, quality=3), _inf(d2, quality=4)
    expected: dict[tuple[PassageResult, int], Fraction] = {}
    for face in D12_FACES:
        if face == 1:
            key = (PassageResult.BLOCKED, 0)
        elif face >= 7:
            key = (PassageResult.CLEAN, 0)
        else:
            key = (PassageResult.DISORDERED, drp)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 12)
    dist = odds(passage_of_lines, mover, static).map(
        lambda p: (p.result, p.mover.disruption))
    assert {o: dist.probability(o) for o in dist.outcomes} == expected


def test_passage_at_three_drp_tests_morale() -> None:
    """Passage of lines: a unit already at 3 DRPs takes a morale test instead."""
    mover = _inf(6, quality=3, disruption=3)
    dist = odds(passage_of_lines, mover, _inf(6, quality=3))
    disordered = dist.probability(lambda p: p.result is PassageResult.DISORDERED)
    assert disordered == Fraction(4, 12)
    tested = dist.probability(lambda p: len(p.tests) == 1)
    assert tested == disordered


@pytest.mark.parametrize(("attached", "need"), [(False, 6), (True, 7)])
def test_passage_morale_test_gets_the_attached_commander(attached: bool, need: int) -> None:
    """Passage of lines: a unit at 3 DRPs takes a morale test instead; Morale: Modifiers: +1
    when its commander and/or the CinC is attached (quality 3: need 2 x 3 = 6, or 7). The d12
    for the passage disorders on 2..5 (below the combined quality 3 + 3 = 6, above 1)."""
    mover = _inf(6, quality=3, disruption=3)
    static = _inf(6, quality=3)
    names = ("destroyed", "rout", "pushed back", "carry on")
    expected: dict[str, Fraction] = {}
    for face in D12_FACES:
        if not 1 < face < 6:
            continue
        for dice in itertools.product(D12_FACES, repeat=3):
            hits = sum(1 for d in dice if d == 1 or (d != 12 and d <= need))
            expected[names[hits]] = expected.get(names[hits], Fraction(0)) + Fraction(1, 12**4)
    dist = odds(passage_of_lines, mover, static, mover_commander_attached=attached)
    tested = dist.map(lambda p: str(p.tests[0].result) if p.tests else "no test")
    assert {o: tested.probability(o) for o in tested.outcomes if o != "no test"} == expected
    assert tested.probability("no test") == Fraction(8, 12)
    assert expected == {k: v * Fraction(4, 12) for k, v in results_of(need).items()}
    # the static unit's commander helps only the static unit
    other = odds(passage_of_lines, mover, static, static_commander_attached=True)
    assert other.map(lambda p: p.tests[0].need if p.tests else 0).outcomes == (0, 6)
