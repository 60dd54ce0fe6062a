"""Movement: the rates table, running at double, terrain, and interpenetration with its order
test (Movement; Terrain Movement Modifiers; Interpolation of units)."""

from __future__ import annotations

from smoothbore.core import Dice, NamedEnum

from .morale import NO_COMMAND, Command, order_test
from .options import DEFAULT_OPTIONS, Options
from .units import Formation, Unit, UnitType, add_pins, remove_pins

COMMANDER_MOVE = 24
"""Commanders move 24" (Movement)."""


class Terrain(NamedEnum):
    """What a move crosses (Terrain Movement Modifiers)."""

    OPEN = "open"
    LINEAR_OBSTACLE = "linear obstacle"
    WOODS = "woods"
    ROAD = "road"
    RIVER_CROSSING = "major river at a crossing point"
    MAJOR_RIVER = "major river away from a crossing"


class Pace(NamedEnum):
    """How far a move goes: ADVANCE at the rate, RUN (or charge) at double (Orders)."""

    ADVANCE = "advance"
    RUN = "run"


# enum members read off their class cost about ten times a module name (Python 3.11): the
# rates asked at every step read them once here
_ARTILLERY, _WAGON, _CAVALRY = UnitType.ARTILLERY, UnitType.WAGON, UnitType.CAVALRY
_LIMBERED, _COLUMN = Formation.LIMBERED, Formation.COLUMN


def rate(unit: Unit) -> int:
    """The move rate in inches (Movement): infantry 6" in line, 12" in column; cavalry 9" and
    18"; limbered artillery 12", unlimbered 3"; wagons 12". Skirmishers and dismounted
    cavalry move as infantry in line (A7)."""
    kind, formation = unit.kind, unit.formation
    if kind is _ARTILLERY:
        return 12 if formation is _LIMBERED else 3
    if kind is _WAGON:
        return 12
    column = formation is _COLUMN
    if kind is _CAVALRY and unit.mounted:
        return 18 if column else 9
    return 12 if column else 6


def terrain_problem(unit: Unit, terrain: Terrain) -> str:
    """Why the unit may not make this move ("" if it may): major rivers only at crossing
    points (Terrain Movement Modifiers)."""
    if terrain is Terrain.MAJOR_RIVER:
        return "major rivers are crossed only at crossing points"
    return ""


def move_distance(unit: Unit, pace: Pace = Pace.ADVANCE, terrain: Terrain = Terrain.OPEN) -> int:
    """The furthest the unit moves (Movement; Terrain Movement Modifiers): double when
    running; half over a linear obstacle or through woods (skirmishers ignore every penalty,
    woods too); double on a road for a column."""
    inches = rate(unit) * (2 if pace is _RUN else 1)
    if terrain is _OPEN:
        return inches
    if terrain in _HALVED and not unit.skirmishing:
        return inches // 2
    if terrain is _ROAD and unit.formation is _COLUMN:
        return inches * 2
    return inches


_RUN, _OPEN, _ROAD = Pace.RUN, Terrain.OPEN, Terrain.ROAD
_HALVED = (Terrain.LINEAR_OBSTACLE, Terrain.WOODS)


def charge_reach(unit: Unit) -> int:
    """How far a charge reaches: a run in the open (Orders, 3)."""
    return move_distance(unit, Pace.RUN)


def woods_test(unit: Unit, command: Command = NO_COMMAND, *, dice: Dice,
               options: Options = DEFAULT_OPTIONS) -> Unit:
    """A unit in line moving through woods (any part of it, A26) takes an order test:
    failed, it moves but takes a pin (Terrain Movement Modifiers); passed, as every order
    test, it removes a pin (Order tests)."""
    if order_test(unit, command, dice=dice, options=options,
                  reason=f"{unit.name} moves through woods in line"):
        return remove_pins(unit, 1)
    return add_pins(unit, 1)


def needs_woods_test(unit: Unit, terrain: Terrain) -> bool:
    """In line and moving through woods (Terrain Movement Modifiers; A26)."""
    return terrain is Terrain.WOODS and unit.formation is Formation.LINE


def interpenetrate(mover: Unit, stationary: Unit, command: Command = NO_COMMAND, *,
                   dice: Dice, options: Options = DEFAULT_OPTIONS) -> tuple[bool, Unit, Unit]:
    """(passed, mover, stationary): passing through a stationary friendly unit needs an order
    test; passed, the mover removes a pin, as every order test (Order tests); failed, both
    units take a pin and the mover stays 1" behind (Interpolation of units)."""
    if order_test(mover, command, dice=dice, options=options,
                  reason=f"{mover.name} passes through {stationary.name}"):
        return True, remove_pins(mover, 1), stationary
    return False, add_pins(mover, 1), add_pins(stationary, 1)

