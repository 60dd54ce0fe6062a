"""Rules - Fortifications and Fieldworks: defence values, damage, cover, engineering,
demolition."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import IllegalActionError, InvalidValueError, odds
from smoothbore.will_awi.firing import Cover
from smoothbore.will_awi.fortifications import (
    DEFENCE_POINTS,
    Defence,
    Work,
    blast_radius,
    bombard,
    building_capacity,
    check_room,
    construct,
    cover_for_points,
    demolish,
    dismantle,
    laying_moves,
)
from smoothbore.will_awi.units import TroopType, Unit

FACES = range(1, 7)


def test_defence_values() -> None:
    """Defence Values: 3, 6, 4, 8, 6, 12, 6, 10, 8."""
    assert [DEFENCE_POINTS[w] for w in Work] == [3, 6, 4, 8, 6, 12, 6, 10, 8]


@pytest.mark.parametrize(
    ("points", "cover"),
    [
        (0, Cover.OPEN),
        (1, Cover.OPEN),
        (2, Cover.SOFT),
        (4, Cover.SOFT),
        (5, Cover.HARD),
        (8, Cover.HARD),
        (9, Cover.SOLID),
        (12, Cover.SOLID),
    ],
)
def test_cover_by_remaining_points(points: int, cover: Cover) -> None:
    """2-4 soft, 5-8 hard, 9+ fortified: cover falls as the work is damaged."""
    assert cover_for_points(points) is cover


@pytest.mark.parametrize("modifier", [-2, 0, 1])
def test_bombard_exact(modifier: int) -> None:
    """Artillery firing ball removes a point on 7+."""
    d = odds(bombard, Defence.new(Work.REDOUBT), modifier)
    p = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if a + b + modifier >= 7)
    assert d.probability(lambda w: w.points == 9) == p


def test_field_engineering() -> None:
    """A wagon's tools: dismantle 1 point a move, build 1 point every other move."""
    w = Defence(Work.TIMBER_FIELDWORK, 0)
    w1 = construct(w, True)
    assert w1.points == 0 and w1.half_built
    w2 = construct(w1, True)
    assert w2.points == 1 and not w2.half_built
    assert dismantle(Defence.new(Work.STOCKADE), True).points == 7
    with pytest.raises(IllegalActionError):
        dismantle(w2, False)
    with pytest.raises(IllegalActionError):
        construct(Defence.new(Work.STOCKADE), True)


@pytest.mark.parametrize(("charges", "points"), [(1, 6), (2, 10), (3, 12), (1, 12)])
def test_demolition_exact(charges: int, points: int) -> None:
    """Demolition: 2d6, +1d6 per extra charge, above the defence points destroys."""
    d = odds(demolish, Defence(Work.REDOUBT, points), charges)
    dice = [FACES] * (1 + charges)
    p = sum(Fraction(1, 6 ** len(dice)) for roll in product(*dice) if sum(roll) > points)
    assert d.probability(True) == p


def test_demolition_sequence_values() -> None:
    """One move laying per charge; blast 3" plus 1" per extra charge; 6 charges a wagon."""
    assert laying_moves(3) == 3 and blast_radius(1) == 3 and blast_radius(3) == 5
    with pytest.raises(InvalidValueError):
        laying_moves(7)


def test_building_capacity() -> None:
    """Rules - Terrain: Buildings: a small building (50x100mm) holds 1 unit, a large one
    (100x100mm) 2; a fieldwork, bridge or stockade is not a building."""
    assert building_capacity(Work.SMALL_WOODEN_BUILDING) == 1
    assert building_capacity(Work.SMALL_STONE_BUILDING) == 1
    assert building_capacity(Work.LARGE_WOODEN_BUILDING) == 2
    assert building_capacity(Work.LARGE_STONE_BUILDING) == 2
    for work in (Work.TIMBER_FIELDWORK, Work.REDOUBT, Work.STOCKADE, Work.STONE_BRIDGE):
        with pytest.raises(IllegalActionError, match="not a building"):
            building_capacity(work)


def test_check_room() -> None:
    """Rules - Terrain: Buildings: a unit enters only while the building has room, beside its
    own side only (Move Sequence C: no move ends within 1" of an enemy)."""
    foot = Unit("a", "Foot", "red", TroopType.LINE)
    friend = Unit("b", "Grenadiers", "red", TroopType.GRENADIERS)
    third = Unit("c", "Fusiliers", "red", TroopType.FUSILIERS)
    enemy = Unit("e", "Militia", "blue", TroopType.MILITIA)
    small = Defence.new(Work.SMALL_STONE_BUILDING, "farm")
    large = Defence.new(Work.LARGE_WOODEN_BUILDING, "chew")
    check_room(small, foot, ())
    with pytest.raises(IllegalActionError, match="holds 1 unit: Grenadiers already in it"):
        check_room(small, foot, (friend,))
    check_room(large, foot, (friend,))
    with pytest.raises(IllegalActionError, match="holds 2 units"):
        check_room(large, foot, (friend, third))
    with pytest.raises(IllegalActionError, match="Militia hold"):
        check_room(large, foot, (enemy,))
    with pytest.raises(IllegalActionError, match="already in it"):
        check_room(large, foot, (foot,))
