"""Commanders' activity level, command points, command radius and the command point tariff
(Bloodybacks 9.3, Determine commander activation level; Command Radius; Command point
tariff)."""

from __future__ import annotations

import attrs

from smoothbore.core import AVERAGE_DIE, Dice, FacesCheck, InvalidValueError, NamedEnum

from .options import DEFAULT_OPTIONS, Options
from .rules import RULE_ACTIVITY
from .units import Commander

COMMAND_RADIUS = 24
ATTACHED_RADIUS = 12
COMMANDER_MOVE = 12


@attrs.frozen
class Activity:
    """A commander's activity level (AL) and command points (CP) for the turn."""

    roll: int
    level: int
    command_points: int

    def __str__(self) -> str:
        return f"AL{self.level} ({self.command_points} CP)"


def activity_for(activity_rating: int, roll: int, options: Options = DEFAULT_OPTIONS) -> Activity:
    """Activity from the average-die roll: the roll itself if not above the AR, else 1; the
    command points are half the level rounded up. With ``activity_table_quirk`` an AR4
    commander rolling 5 gets 2 CP as the printed table shows."""
    if not 2 <= activity_rating <= 5:
        raise InvalidValueError("activity_rating", activity_rating, "2..5")
    if roll not in AVERAGE_DIE.faces:
        raise InvalidValueError("roll", roll, "2..5 (average die)")
    level = 1 if roll > activity_rating else roll
    points = (level + 1) // 2
    if options.activity_table_quirk and activity_rating == 4 and roll == 5:
        points = 2
    return Activity(roll, level, points)


def roll_activity(
    commander: Commander, *, dice: Dice, options: Options = DEFAULT_OPTIONS
) -> Activity:
    """Roll one average die (D5) for a commander at the start of the turn."""
    (roll,) = dice.roll(
        FacesCheck((AVERAGE_DIE,)),
        reason=f"activity of {commander.name}",
        rule=RULE_ACTIVITY,
    )
    return activity_for(commander.activity_rating, roll, options)


def command_radius(commander: Commander) -> int:
    """24 inches, or 12 when the commander is attached to a unit (Command Radius)."""
    return ATTACHED_RADIUS if commander.attached_to else COMMAND_RADIUS


def in_radius(commander: Commander, distance: float) -> bool:
    """Whether a unit at ``distance`` inches is within the commander's radius."""
    if distance < 0:
        raise InvalidValueError("distance", distance, "0 or more")
    return distance <= command_radius(commander)


class CommandPointUse(NamedEnum):
    """What one command point buys (Command point tariff)."""

    EXTRA_ACTION = "an additional action for a unit he activated this turn, in radius"
    OTHER_BRIGADE = "activate a unit not of his own brigade, in radius"
    MOVE_COMMANDER = "move the commander 12 inches, attaching or detaching"

    @property
    def needs_radius(self) -> bool:
        return self is not CommandPointUse.MOVE_COMMANDER


COMMAND_POINT_COST = 1
