"""Movement: the rates table, running, terrain, woods and interpenetration tests with
exact odds (Movement; Terrain Movement Modifiers; Interpolation of units)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.boltaction_acw.morale import Command
from smoothbore.boltaction_acw.movement import (
    Pace,
    Terrain,
    charge_reach,
    interpenetrate,
    move_distance,
    needs_woods_test,
    rate,
    terrain_problem,
    woods_test,
)
from smoothbore.boltaction_acw.units import UNION, Formation, Unit, UnitType
from smoothbore.core import odds

from .oracle import two_d6_at_most

FOOT = Unit("f", "Foot", UNION)
COLUMN = attrs.evolve(FOOT, formation=Formation.COLUMN)
HORSE = Unit("h", "Horse", UNION, UnitType.CAVALRY)
DISMOUNTED = attrs.evolve(HORSE, mounted=False, formation=Formation.SKIRMISH)
GUN = Unit("g", "Gun", UNION, UnitType.ARTILLERY)
UNLIMBERED = attrs.evolve(GUN, formation=Formation.UNLIMBERED)
WAGON = Unit("w", "Wagon", UNION, UnitType.WAGON)
SKIRMISHERS = Unit("s", "Skirmishers", UNION, UnitType.SKIRMISHERS)


@pytest.mark.parametrize(("unit", "inches"), [
    (FOOT, 6), (COLUMN, 12), (HORSE, 9), (attrs.evolve(HORSE, formation=Formation.COLUMN), 18),
    (GUN, 12), (UNLIMBERED, 3), (WAGON, 12), (SKIRMISHERS, 6), (DISMOUNTED, 6),
])
def test_the_rates_table(unit: Unit, inches: int) -> None:
    assert rate(unit) == inches
    assert move_distance(unit, Pace.RUN) == 2 * inches


def test_terrain_halves_doubles_and_forbids() -> None:
    assert move_distance(FOOT, Pace.ADVANCE, Terrain.LINEAR_OBSTACLE) == 3
    assert move_distance(FOOT, Pace.ADVANCE, Terrain.WOODS) == 3
    assert move_distance(COLUMN, Pace.RUN, Terrain.WOODS) == 12
    assert move_distance(COLUMN, Pace.ADVANCE, Terrain.ROAD) == 24  # columns only
    assert move_distance(FOOT, Pace.ADVANCE, Terrain.ROAD) == 6
    assert move_distance(SKIRMISHERS, Pace.ADVANCE, Terrain.WOODS) == 6
    assert move_distance(SKIRMISHERS, Pace.ADVANCE, Terrain.LINEAR_OBSTACLE) == 6
    assert terrain_problem(SKIRMISHERS, Terrain.MAJOR_RIVER)  # even skirmishers
    assert terrain_problem(FOOT, Terrain.RIVER_CROSSING) == ""
    assert charge_reach(FOOT) == 12 and charge_reach(HORSE) == 18


def test_only_lines_test_in_woods() -> None:
    assert needs_woods_test(FOOT, Terrain.WOODS)
    assert not needs_woods_test(COLUMN, Terrain.WOODS)
    assert not needs_woods_test(FOOT, Terrain.OPEN)


def test_woods_pin_odds() -> None:
    # regular 8 + colonel 1 = 9: 2D6 at most 9 passes 30/36
    dist = odds(lambda dice: woods_test(FOOT, dice=dice).pins)
    assert dist.probability(1) == 1 - two_d6_at_most(9) == Fraction(1, 6)
    led = odds(lambda dice: woods_test(FOOT, Command(brigade=True), dice=dice).pins)
    assert led.probability(1) == 1 - two_d6_at_most(10)


def test_interpenetration_fails_pin_both() -> None:
    pinned = attrs.evolve(FOOT, pins=2)
    friend = Unit("g", "Friend", UNION)
    dist = odds(lambda dice: interpenetrate(pinned, friend, dice=dice))
    failed = (False, attrs.evolve(pinned, pins=3), attrs.evolve(friend, pins=1))
    assert dist.probability(failed) == 1 - two_d6_at_most(8 - 2 + 1)
    # passed, an order test: the mover removes a pin (Order tests; issue 27)
    passed = (True, attrs.evolve(pinned, pins=1), friend)
    assert dist.probability(passed) == two_d6_at_most(7)
