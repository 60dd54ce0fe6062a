"""Rules - Fortifications and Fieldworks: defence strength points, artillery damage, cover by
remaining points, field engineering and demolition."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import (
    D6,
    Dice,
    IllegalActionError,
    InvalidValueError,
    TotalCheck,
    in_range,
    revised,
)
from smoothbore.core.validate import one_of, refers_to, text

from . import rules
from .firing import Cover, FireResult, fire_outcome
from .options import DEFAULT_OPTIONS, Options
from .units import FLAG, Unit


class Work(enum.Enum):
    """The defence values table (per 100 mm for bridges, fieldworks and stockades)."""

    WOODEN_BRIDGE = "wooden bridge (per 100mm)"
    STONE_BRIDGE = "stone bridge (per 100mm)"
    SMALL_WOODEN_BUILDING = "wooden building 50x100mm"
    SMALL_STONE_BUILDING = "stone building 50x100mm"
    LARGE_WOODEN_BUILDING = "wooden building 100x100mm"
    LARGE_STONE_BUILDING = "stone building 100x100mm"
    TIMBER_FIELDWORK = "timber fieldwork (per 100mm)"
    REDOUBT = "earth and timber redoubt"
    STOCKADE = "timber stockade (per 100mm)"


DEFENCE_POINTS: Mapping[Work, int] = MappingProxyType({
    Work.WOODEN_BRIDGE: 3,
    Work.STONE_BRIDGE: 6,
    Work.SMALL_WOODEN_BUILDING: 4,
    Work.SMALL_STONE_BUILDING: 8,
    Work.LARGE_WOODEN_BUILDING: 6,
    Work.LARGE_STONE_BUILDING: 12,
    Work.TIMBER_FIELDWORK: 6,
    Work.REDOUBT: 10,
    Work.STOCKADE: 8,
})

MOST_POINTS = max(DEFENCE_POINTS.values())
"""The most defence points any work has (a large stone building's 12): the bound of a
work's points; a battle holds each work to its own full value (``validity``)."""

FIELDWORKS: frozenset[Work] = frozenset({Work.TIMBER_FIELDWORK, Work.REDOUBT, Work.STOCKADE})
"""The works a unit with tools may construct during a battle (Field Engineering: "construct 1
strength point of a fieldwork"); any work may be dismantled."""

BUILDING_CAPACITY: Mapping[Work, int] = MappingProxyType({
    Work.SMALL_WOODEN_BUILDING: 1,
    Work.SMALL_STONE_BUILDING: 1,
    Work.LARGE_WOODEN_BUILDING: 2,
    Work.LARGE_STONE_BUILDING: 2,
})
"""Units a building holds (Rules - Terrain: Buildings)."""


def building_capacity(work: Work, action: object = None) -> int:
    """Units a building holds: a small one 1, a large one 2 (Rules - Terrain: Buildings).
    A work that is not a building holds no unit: the error."""
    capacity = BUILDING_CAPACITY.get(work)
    if capacity is None:
        raise IllegalActionError(action, f"{work.value} is not a building", rules.BUILDINGS)
    return capacity


def check_room(
    building: Defence,
    unit: Unit,
    occupants: tuple[Unit, ...],
    action: object = None,
) -> None:
    """A unit may enter or occupy a building only if there is room beside the units already in
    it (the player names them), and only beside its own side's units (Rules - Terrain:
    Buildings; Rules - Move Sequence C: no move ends within 1" of an enemy)."""
    capacity = building_capacity(building.work, action)
    if any(o.id == unit.id for o in occupants):
        raise IllegalActionError(action, f"{unit.name} is already in it", rules.BUILDINGS)
    enemies = [o.name for o in occupants if o.side != unit.side]
    if enemies:
        raise IllegalActionError(
            action, f"{', '.join(enemies)} hold the {building.work.value}", rules.SEQUENCE
        )
    if len(occupants) >= capacity:
        names = ", ".join(o.name for o in occupants)
        raise IllegalActionError(
            action,
            f"a {building.work.value} holds {capacity} unit{'s' if capacity > 1 else ''}:"
            f" {names} already in it",
            rules.BUILDINGS,
        )


@attrs.frozen
class Defence:
    """A building, bridge or fieldwork with its remaining defence strength points.

    ``building`` counts the dismantling and construction in progress: ``half_built`` is a
    construction move already spent towards the next point."""

    work: Work = attrs.field(validator=one_of(*Work))
    points: int = attrs.field(validator=in_range(0, MOST_POINTS))
    half_built: bool = attrs.field(default=False, validator=FLAG)
    id: str = attrs.field(default="", validator=text(empty=True))

    @classmethod
    def new(cls, work: Work, id: str = "") -> Defence:
        """A work at its full defence value."""
        return cls(work, DEFENCE_POINTS[work], id=id)

    @property
    def destroyed(self) -> bool:
        return self.points == 0

    @property
    def cover(self) -> Cover:
        return cover_for_points(self.points)


def cover_for_points(points: int) -> Cover:
    """2-4 points soft cover, 5-8 hard, 9 or more fortified (solid); 0-1 give none."""
    if points < 0:
        raise InvalidValueError("points", points, "0 or more")
    if points >= 9:
        return Cover.SOLID
    if points >= 5:
        return Cover.HARD
    if points >= 2:
        return Cover.SOFT
    return Cover.OPEN


def artillery_damage(score_without_cover: int) -> int:
    """Artillery firing ball removes a defence point on 7+; with troops inside the same score
    is used, ignoring the cover deduction (Defence Values of Buildings and Fortifications)."""
    return 1 if score_without_cover >= 7 else 0


def damage(defence: Defence, points: int) -> Defence:
    return revised(defence, points=max(0, defence.points - points))


def bombard(defence: Defence, modifier: int, *, dice: Dice) -> Defence:
    """Guns firing ball at a work: 2d6 plus the firing factors other than cover."""
    score = dice.roll(
        TotalCheck.of(2, D6, modifier),
        reason=f"ball against {defence.work.value}",
        rule=rules.FORT_VALUES,
    )
    return damage(defence, artillery_damage(score))


def dismantle(defence: Defence, has_tools: bool, action: object = None) -> Defence:
    """A close order unit with a wagon's tools dismantles 1 point a move (Field Engineering)."""
    if not has_tools:
        raise IllegalActionError(action, "needs a wagon of tools", rules.FIELD_ENGINEERING)
    return damage(defence, 1)


def construct(defence: Defence, has_tools: bool, action: object = None) -> Defence:
    """Building a fieldwork: 1 point every other move, up to the work's full value."""
    if not has_tools:
        raise IllegalActionError(action, "needs a wagon of tools", rules.FIELD_ENGINEERING)
    full = DEFENCE_POINTS[defence.work]
    if defence.points >= full:
        raise IllegalActionError(action, "the work is complete", rules.FIELD_ENGINEERING)
    if defence.half_built:
        return revised(defence, points=defence.points + 1, half_built=False)
    return revised(defence, half_built=True)


CHARGES_PER_WAGON = 6


def laying_moves(charges: int) -> int:
    """Movement phases spent laying: one per charge (Demolition)."""
    if not 1 <= charges <= CHARGES_PER_WAGON:
        raise InvalidValueError("charges", charges, f"1 to {CHARGES_PER_WAGON} (a wagon's load)")
    return charges


def blast_radius(charges: int) -> int:
    """Units within 3" (plus 1" per extra charge) suffer 2d6 as if fired at."""
    return 3 + laying_moves(charges) - 1


def demolition_check(charges: int) -> TotalCheck:
    """2d6 plus 1d6 per extra charge."""
    return TotalCheck.of(1 + laying_moves(charges), D6)


def demolish(defence: Defence, charges: int, *, dice: Dice) -> bool:
    """True when the roll beats the work's defence points: it is destroyed."""
    total = dice.roll(
        demolition_check(charges),
        reason=f"demolition of {defence.work.value}",
        rule=rules.DEMOLITION,
    )
    return total > defence.points


def demolition_blast(
    target: Unit, *, dice: Dice, options: Options = DEFAULT_OPTIONS
) -> FireResult:
    """A unit within the blast radius: 2d6 as if fired at, with no firing factors."""
    score = dice.roll(
        TotalCheck.of(2, D6), reason=f"demolition blast on {target.name}", rule=rules.DEMOLITION
    )
    return fire_outcome(score, target, options)


@attrs.frozen
class Demolition:
    """Charges laid against a work: by whom, how many so far (one a movement phase, up to a
    wagon's 6: the number used is the number laid when the layers move away), and whether
    the layers have moved away (the charges go off in the next firing phase)."""

    work: str = attrs.field(validator=text())
    unit: str = attrs.field(validator=text(), metadata=refers_to("units"))
    charges: int = attrs.field(default=1, validator=in_range(1, CHARGES_PER_WAGON))
    away: bool = attrs.field(default=False, validator=FLAG)
