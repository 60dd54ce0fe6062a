"""Rules - Firing: ranges, arcs, factors, the 2d6 roll and its morale effect."""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import (
    D6,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    TotalCheck,
)
from smoothbore.core.stages import Staged
from smoothbore.core.validate import MAX_INCHES, finite, one_of

from . import rules
from .morale import morale_total
from .options import DEFAULT_OPTIONS, HighlanderFire, Options
from .units import FLAG, Arm, Formation, TroopType, Unit, Weapon


class RangeBand(enum.Enum):
    """The columns of the range table."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


# (short max, medium min, medium max, long max); None = no such band.
RANGES: Mapping[Weapon, tuple[float, float | None, float | None, float | None]] = MappingProxyType({
    Weapon.MUSKET: (6, None, None, None),
    Weapon.RIFLE: (6, 6, 12, None),
    Weapon.LIGHT_GUN: (12, 12, 24, 36),
    Weapon.MEDIUM_GUN: (15, 15, 30, 45),
    Weapon.HEAVY_GUN: (18, 18, 36, 54),
    Weapon.GALLOPER_GUN: (9, 9, 18, 21),
    Weapon.GRASSHOPPER_GUN: (6, 6, 12, 18),
    Weapon.HOWITZER: (9, 15, 24, 36),
})


def range_band(weapon: Weapon, inches: float, action: object = None) -> RangeBand:
    """The band a range falls in; a band's upper bound belongs to it (6" is musket range).

    Howitzers have no band between 9" and 15": shell fuses cannot be cut that short (FAQs (4) 2).
    Out of range, or in the howitzer gap, is an IllegalActionError."""
    if inches < 0:
        raise InvalidValueError("range_inches", inches, "a distance of 0 or more")
    short, med_low, med_high, long_high = RANGES[weapon]
    if inches <= short:
        return RangeBand.SHORT
    if med_low is not None and med_high is not None and med_low <= inches <= med_high:
        return RangeBand.MEDIUM
    if med_high is not None and long_high is not None and med_high < inches <= long_high:
        return RangeBand.LONG
    if med_low is not None and short < inches < med_low:
        raise IllegalActionError(
            action, f'{weapon.value} cannot fire between {short}" and {med_low}"', rules.FAQ4
        )
    raise IllegalActionError(
        action, f'{inches}" is beyond the range of {weapon.value}', rules.FIRING_RANGES
    )


class Cover(NamedEnum):
    """Target cover, as the firing factors name it."""

    OPEN = "open"
    SOFT = "woods or soft cover"
    HARD = "hard cover or buildings"
    SOLID = "solid cover"

    @property
    def factor(self) -> int:
        return {Cover.OPEN: 0, Cover.SOFT: -1, Cover.HARD: -2, Cover.SOLID: -3}[self]


class Woods(enum.Enum):
    """Rules - Terrain: Woods and Forests."""

    NONE = "not in woods"
    OPEN = "open woods"
    DENSE = "dense woods"


def detection_range(target: Unit, woods: Woods, coureurs: bool = False) -> float | None:
    """How far away a target in woods can be seen and fired at (None: not in woods).

    Coureurs de bois, rangers and Indians 1" dense / 3" open; other open order foot 2"/6";
    others 4"/12"."""
    if woods is Woods.NONE:
        return None
    if coureurs or target.troop in (TroopType.RANGERS, TroopType.INDIANS):
        dense, open_ = 1.0, 3.0
    elif target.arm is Arm.OPEN_ORDER_FOOT:
        dense, open_ = 2.0, 6.0
    else:
        dense, open_ = 4.0, 12.0
    return dense if woods is Woods.DENSE else open_


@attrs.frozen(cache_hash=True)
class FireFacts:
    """What a player measures for one unit's fire.

    ``angle`` is degrees off straight ahead of a base; ``friends_in_arc`` bars canister;
    ``overhead`` means a friendly unit is between firer and target (``clear_of_firer`` and
    ``clear_of_target`` its distances); ``higher_ground`` that the gun fires to or from higher
    ground; ``split_fire`` a unit in a building whose bases fire different ways."""

    range_inches: float = attrs.field(validator=finite(0, MAX_INCHES))
    cover: Cover = attrs.field(default=Cover.OPEN, validator=one_of(*Cover))
    angle: float = attrs.field(default=0.0, validator=finite(-180, 180))
    target_visible: bool = attrs.field(default=True, validator=FLAG)
    woods: Woods = attrs.field(default=Woods.NONE, validator=one_of(*Woods))
    coureurs: bool = attrs.field(default=False, validator=FLAG)
    friends_in_arc: bool = attrs.field(default=False, validator=FLAG)
    overhead: bool = attrs.field(default=False, validator=FLAG)
    higher_ground: bool = attrs.field(default=False, validator=FLAG)
    clear_of_firer: float = attrs.field(default=0.0, validator=finite(0, MAX_INCHES))
    clear_of_target: float = attrs.field(default=0.0, validator=finite(0, MAX_INCHES))
    split_fire: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen(order=True)
class FireResult:
    """The modified 2d6 score, whether a strength point is lost and whether morale failed."""

    score: int
    hit: bool
    shaken: bool

    def __str__(self) -> str:
        loss = "-1 SP" if self.hit else "no loss"
        return f"{self.score}: {loss}{', shaken' if self.shaken else ''}"


def check_can_fire(firer: Unit, facts: FireFacts, options: Options, action: object) -> Weapon:
    """Who may fire, and at what: the arc, visibility, woods, overhead fire (Rules - Firing)."""
    weapon = firer.fires_with
    if not firer.on_table:
        raise IllegalActionError(action, f"{firer.name} is off the table", rules.INTRO_STRENGTH)
    if weapon is None:
        raise IllegalActionError(
            action, f"{firer.name} does not fire (cavalry: FAQs (3) 4; wagons)", rules.FAQ3
        )
    if firer.routing:
        raise IllegalActionError(action, "a routing unit does not fire", rules.FIRING)
    if firer.troop.is_gun and firer.limbered:
        raise IllegalActionError(action, "limbered guns cannot fire", rules.MOVEMENT_WHEELED)
    if (
        firer.troop is TroopType.HIGHLANDERS
        and options.variant.hordes
        and options.highlander_fire is HighlanderFire.NONE
    ):
        raise IllegalActionError(action, "highlanders cannot fire (option)", rules.FORTY_FIVE)
    if facts.angle > 45 or facts.angle < -45:
        raise IllegalActionError(action, "target more than 45° off the front", rules.FIRING)
    if not facts.target_visible:
        raise IllegalActionError(action, "the whole target base must be visible", rules.FIRING)
    if facts.overhead:
        if not (weapon is Weapon.HOWITZER or (weapon.is_gun and facts.higher_ground)):
            raise IllegalActionError(
                action,
                "overhead fire only for howitzers and guns firing to or from higher ground",
                rules.FIRING_NOTES,
            )
        if facts.clear_of_firer < 12 or facts.clear_of_target < 12:
            raise IllegalActionError(
                action,
                'an intervening friendly unit must be 12" clear of firer and target',
                rules.FIRING_NOTES,
            )
    return weapon


def fire_modifiers(
    firer: Unit,
    facts: FireFacts,
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
) -> Modified:
    """The modifier on the firing 2d6, every factor named (Rules - Firing: Firing factors)."""
    weapon = check_can_fire(firer, facts, options, action)
    band = range_band(weapon, facts.range_inches, action)
    r = rules.FIRING_FACTORS
    mods: list[Modifier] = []
    if firer.is_british_close_order:
        mods.append(Modifier("British close order infantry", 1, r))
    if firer.troop in (TroopType.MILITIA, TroopType.INDIANS):
        mods.append(Modifier("militia and Indians", -1, r))
    if firer.strength in (3, 4):
        mods.append(Modifier("firing unit has 3 or 4 strength points", -1, r))
    elif firer.strength <= 2:
        mods.append(Modifier("firing unit has 1 or 2 strength points", -2, r))
    if firer.formation is Formation.COLUMN:
        mods.append(Modifier("firing unit in column", -2, r))
    elif facts.split_fire:
        mods.append(Modifier("bases firing different ways (as column)", -2, rules.BUILDINGS))
    if weapon is Weapon.RIFLE:
        if band is RangeBand.SHORT:
            mods.append(Modifier("rifles at short range", -1, r))
        else:
            mods.append(Modifier("rifles at medium range", -2, r))
    if firer.shaken:
        mods.append(Modifier("firing unit shaken", -1, r))
    if weapon.is_gun:
        if band is RangeBand.SHORT:
            if not facts.friends_in_arc:
                mods.append(Modifier("guns at short range (canister)", 1, r))
            elif weapon is Weapon.HOWITZER:
                raise IllegalActionError(
                    action,
                    "howitzers at short range fire canister, barred with friends in the arc",
                    rules.FIRING_NOTES,
                )
        elif band is RangeBand.MEDIUM:
            mods.append(Modifier("guns at medium range", -1, r))
        else:
            mods.append(Modifier("guns at long range", -2, r))
    if facts.cover is not Cover.OPEN:
        mods.append(Modifier(f"target in {facts.cover.value}", facts.cover.factor, r))
    if firer.troop is TroopType.HIGHLANDERS and options.variant.hordes:
        mods.append(Modifier("highlanders fire as muskets at -2", -2, rules.FORTY_FIVE))
    if firer.fire_bonus:
        mods.append(Modifier("pre-battle firing roll", firer.fire_bonus, rules.FORTY_FIVE))
    return Modified(0, "2d6", r).plus(*mods)


def is_canister(firer: Unit, facts: FireFacts) -> bool:
    """Guns at short range with no friends in the arc fire canister (not ball)."""
    weapon = firer.fires_with
    if weapon is None or not weapon.is_gun:
        return False
    return range_band(weapon, facts.range_inches) is RangeBand.SHORT and not facts.friends_in_arc


def check_target_detected(target: Unit, facts: FireFacts, action: object = None) -> None:
    """A target in woods can be fired at only within its detection range."""
    seen = detection_range(target, facts.woods, facts.coureurs)
    if seen is not None and facts.range_inches > seen:
        raise IllegalActionError(
            action, f'{target.name} in {facts.woods.value} is only seen within {seen}"', rules.WOODS
        )


@functools.lru_cache(maxsize=8192)
def fire_outcome(score: int, target: Unit, options: Options = DEFAULT_OPTIONS) -> FireResult:
    """7+ takes a strength point; the same score above the target's basic morale shakes it
    (Rules - Firing: Morale effect of fire). Basic morale is read after the loss unless the
    option says before. Cached: the result is a frozen value of frozen arguments."""
    hit = score >= 7
    strength = target.strength - (1 if hit and options.morale_after_fire_loss else 0)
    return FireResult(score, hit, score > morale_total(target, max(0, strength)))


@attrs.frozen
class _Fire:
    """The context of one unit's fire: what its stages read."""

    firer: Unit
    target: Unit
    facts: FireFacts
    options: Options


def _begin_fire(
    firer: Unit, target: Unit, facts: FireFacts, options: Options = DEFAULT_OPTIONS
) -> tuple[_Fire, None]:
    check_target_detected(target, facts)
    return _Fire(firer, target, facts, options), None


def _fire_roll(fire: _Fire, _: None, *, dice: Dice) -> int:
    """2d6 plus every firing factor: the modified score."""
    return dice.roll(
        fire_check(fire.firer, fire.facts, fire.options),
        reason=f"{fire.firer.name} fires at {fire.target.name}",
        rule=rules.FIRING,
    )


def _fire_effect(fire: _Fire, score: int) -> FireResult:
    """Morale effect of fire: the loss and the morale test the score gives."""
    return fire_outcome(score, fire.target, fire.options)


resolve_fire: Staged[FireResult] = Staged(
    "fire", rules.FIRING, _begin_fire, (_fire_roll,), _fire_effect,
    doc="""One unit's fire: 2d6 plus factors; 7+ removes a strength point; the same score
    tests the target's morale. ``resolve_fire(firer, target, facts, dice=dice,
    options=options)`` plays it; ``odds(resolve_fire, firer, target, facts)`` composes it
    (each score once, equal results merged).""",
)
"""One unit's fire and its morale effect, written once as stages."""


@functools.lru_cache(maxsize=4096)
def fire_check(firer: Unit, facts: FireFacts, options: Options = DEFAULT_OPTIONS) -> TotalCheck:
    """The firing roll as a check: 2d6 plus every factor (cached on its frozen arguments)."""
    return TotalCheck.of(2, D6, fire_modifiers(firer, facts, options).total)
