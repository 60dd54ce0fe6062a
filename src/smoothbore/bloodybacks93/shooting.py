"""Shooting: musketry and artillery tables, the number needed, and hits (Bloodybacks 9.3,
Shooting; Visibility)."""

from __future__ import annotations

import enum
import functools
from fractions import Fraction
from types import MappingProxyType

import attrs

from smoothbore.core import (
    D12,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    PoolCheck,
)
from smoothbore.core.validate import MAX_INCHES, at_least, finite, in_range, maybe, one_of

from .activation import ActionKind
from .options import DEFAULT_OPTIONS, Options
from .rules import (
    RULE_ARTILLERY,
    RULE_MUSKETRY,
    RULE_SHOOTING,
    RULE_SHOOTING_MODIFIERS,
    RULE_VISIBILITY,
)
from .units import FLAG, Formation, Unit, UnitType, Weapon, take_shooting_hits

FOOT = 12  # artillery ranges are given in feet
MAX_ORDERS = 99
"""More shooting orders than any unit is given in a turn (each costs an action)."""


class Fire(NamedEnum):
    """Kinds of shooting, one per line of the musketry and artillery tables."""

    MUSKET_VOLLEY = "musket volley"
    MUSKET_SKIRMISH = "musket skirmishing"
    RIFLE = "rifle"
    CARBINE = "carbine"
    CLOSE_CANISTER = "close canister"
    CANISTER = "canister"
    ROUNDSHOT_MEDIUM = "roundshot (medium)"
    ROUNDSHOT_LONG = "roundshot (long)"

    @property
    def is_roundshot(self) -> bool:
        return self in (Fire.ROUNDSHOT_MEDIUM, Fire.ROUNDSHOT_LONG)


FIREPOWER: MappingProxyType[Fire, int] = MappingProxyType({
    Fire.MUSKET_VOLLEY: 3,
    Fire.MUSKET_SKIRMISH: 1,
    Fire.RIFLE: 2,
    Fire.CARBINE: 2,
    Fire.CLOSE_CANISTER: 4,
    Fire.CANISTER: 3,
    Fire.ROUNDSHOT_MEDIUM: 2,
    Fire.ROUNDSHOT_LONG: 1,
})
"""Dice of firepower for each line of the tables."""

TARIFF: MappingProxyType[Fire, ActionKind] = MappingProxyType({
    Fire.MUSKET_VOLLEY: ActionKind.SHOOT_MUSKET,
    Fire.MUSKET_SKIRMISH: ActionKind.SHOOT_MUSKET,
    Fire.CARBINE: ActionKind.SHOOT_MUSKET,
    Fire.RIFLE: ActionKind.SHOOT_RIFLE,
    Fire.CLOSE_CANISTER: ActionKind.SHOOT_CANISTER,
    Fire.CANISTER: ActionKind.SHOOT_CANISTER,
    Fire.ROUNDSHOT_MEDIUM: ActionKind.SHOOT_ROUNDSHOT_MEDIUM,
    Fire.ROUNDSHOT_LONG: ActionKind.SHOOT_ROUNDSHOT_LONG,
})
"""The action each kind of shooting costs (Action tariff)."""

SMALL_ARMS: MappingProxyType[Weapon, tuple[tuple[Fire, int, int], ...]] = MappingProxyType({
    Weapon.MUSKET: ((Fire.MUSKET_VOLLEY, 0, 8), (Fire.MUSKET_SKIRMISH, 8, 16)),
    Weapon.RIFLE: ((Fire.RIFLE, 0, 24),),
    Weapon.CARBINE: ((Fire.CARBINE, 0, 6),),
})
"""Range bands (from, to] in inches; the first band of each weapon includes 0."""

_LIGHT = ((Fire.CANISTER, 0, 18), (Fire.ROUNDSHOT_MEDIUM, 0, 3 * FOOT),
          (Fire.ROUNDSHOT_LONG, 3 * FOOT, 6 * FOOT))
_FIELD = ((Fire.CLOSE_CANISTER, 0, 12), (Fire.CANISTER, 12, 24),
          (Fire.ROUNDSHOT_MEDIUM, 0, 4 * FOOT), (Fire.ROUNDSHOT_LONG, 4 * FOOT, 8 * FOOT))
_SIEGE = ((Fire.CLOSE_CANISTER, 0, 15), (Fire.CANISTER, 15, 30),
          (Fire.ROUNDSHOT_MEDIUM, 0, 5 * FOOT), (Fire.ROUNDSHOT_LONG, 5 * FOOT, 10 * FOOT))

ARTILLERY: MappingProxyType[UnitType, tuple[tuple[Fire, int, int], ...]] = MappingProxyType({
    UnitType.VERY_LIGHT_ARTILLERY: _LIGHT,
    UnitType.LIGHT_ARTILLERY: _LIGHT,
    UnitType.FIELD_ARTILLERY: _FIELD,
    UnitType.HEAVY_ARTILLERY: _FIELD,
    UnitType.SIEGE_ARTILLERY: _SIEGE,
    UnitType.AMUSETTE: ((Fire.ROUNDSHOT_MEDIUM, 0, 3 * FOOT),),
})
"""Artillery range bands in inches (3' = 36"). Roundshot (medium) reaches from the muzzle to
its maximum; long roundshot starts beyond it. Amusettes only fire medium roundshot."""

SECTION_SIZE: MappingProxyType[UnitType, int] = MappingProxyType({
    UnitType.VERY_LIGHT_ARTILLERY: 6,
    UnitType.AMUSETTE: 6,
    UnitType.LIGHT_ARTILLERY: 10,
    UnitType.FIELD_ARTILLERY: 12,
    UnitType.HEAVY_ARTILLERY: 16,
    UnitType.SIEGE_ARTILLERY: 24,
})
"""Nominal shooting size of one section at 1 figure : 10 men."""


class Cover(enum.Enum):
    """Cover of a target (or a defender in melee): the value is what it takes off."""

    NONE = 0
    LIGHT = 1
    SIGNIFICANT = 2
    FORTIFICATIONS = 3

    def __str__(self) -> str:
        return self.name.lower()


def bands(unit: Unit) -> tuple[tuple[Fire, int, int], ...]:
    """The range bands a unit can shoot with."""
    if unit.is_artillery:
        return ARTILLERY[unit.kind]
    return SMALL_ARMS.get(unit.weapon, ())


def in_band(distance: Fraction, low: int, high: int) -> bool:
    """A band (low, high] in inches; a band starting at 0 includes 0."""
    return (distance > low or low == 0) and distance <= high


def effective_range(measured: float, *, uphill: bool = False) -> Fraction:
    """Measured range, plus 50% when shooting up a steep hill."""
    if measured < 0:
        raise InvalidValueError("range", measured, "0 or more inches")
    distance = _inches(measured)
    return distance * Fraction(3, 2) if uphill else distance


@functools.lru_cache(maxsize=1024)
def _inches(measured: float) -> Fraction:
    """A measured range as a fraction (to a thousandth of an inch): remembered, as the same
    ranges are measured again for every shot offered and checked."""
    return Fraction(measured).limit_denominator(1000)


def fire_options(unit: Unit, measured: float, *, uphill: bool = False) -> tuple[Fire, ...]:
    """The kinds of shooting a unit may use at this range."""
    distance = effective_range(measured, uphill=uphill)
    return tuple(fire for fire, low, high in bands(unit) if in_band(distance, low, high))


def best_fire(unit: Unit, measured: float, *, uphill: bool = False) -> Fire:
    """The kind of shooting with most dice at this range (cheapest on a tie)."""
    options = fire_options(unit, measured, uphill=uphill)
    if not options:
        raise IllegalActionError(
            "shoot", f"{unit.name} is out of range at {measured} inches", RULE_SHOOTING
        )
    return max(options, key=lambda f: (FIREPOWER[f], -TARIFF[f].cost))


def shooting_size(unit: Unit, options: Options = DEFAULT_OPTIONS) -> int:
    """Size when shooting: figures, or for artillery the nominal size per section (scaled from
    1:10 to the figure scale in use) times the sections. A unit in column brings only its
    leading base to bear: the figures a base holds at the density it is based at (B61)."""
    if unit.formation is Formation.COLUMN:
        return min(unit.size, unit.based_density)
    if not unit.is_artillery:
        return unit.size
    per_section = SECTION_SIZE[unit.kind] * 10 / options.men_per_figure
    return max(1, round(per_section * unit.sections))


def ratio_steps(larger: int, smaller: int) -> int:
    """Steps for how much larger one size is: 3:2 gives 1, 2:1 gives 2, 3:1 gives 3 and so on
    (4:1 gives 4...). Used for shooting and impetus."""
    if larger < 1 or smaller < 1:
        raise InvalidValueError("size", min(larger, smaller), "1 or more")
    if larger >= 2 * smaller:
        return larger // smaller
    return 1 if 2 * larger >= 3 * smaller else 0


def size_modifier(mine: int, theirs: int) -> int:
    """Signed steps: positive when ``mine`` is the larger, negative when ``theirs`` is."""
    if mine >= theirs:
        return ratio_steps(mine, theirs)
    return -ratio_steps(theirs, mine)


@attrs.frozen(cache_hash=True)
class ShotFacts:
    """What the players measure for one shot.

    ``range`` in inches; ``fire`` the table line (None: the best at that range);
    ``extra_orders`` further shooting orders given to the unit this turn; ``size`` the part of
    the unit shooting when it splits fire (None: all of it); ``woods_inches`` the length of the
    line of fire through woods; ``target_fortified`` is infantry manning fortifications;
    ``line_of_sight`` is false when buildings, hills or the like block it (Visibility).
    """

    range: float = attrs.field(default=6.0, validator=finite(0, MAX_INCHES))
    fire: Fire | None = attrs.field(default=None, validator=maybe(one_of(*Fire)))
    extra_orders: int = attrs.field(default=0, validator=in_range(0, MAX_ORDERS))
    cover: Cover = attrs.field(default=Cover.NONE, validator=one_of(*Cover))
    target_in_woods: bool = attrs.field(default=False, validator=FLAG)
    shooter_in_woods: bool = attrs.field(default=False, validator=FLAG)
    woods_inches: float = attrs.field(default=0.0, validator=finite(0, MAX_INCHES))
    enfilade: bool = attrs.field(default=False, validator=FLAG)
    uphill: bool = attrs.field(default=False, validator=FLAG)
    target_fortified: bool = attrs.field(default=False, validator=FLAG)
    size: int | None = attrs.field(default=None, validator=maybe(at_least(1)))
    line_of_sight: bool = attrs.field(default=True, validator=FLAG)


def chosen_fire(shooter: Unit, facts: ShotFacts) -> Fire:
    """The table line used, checked against the weapon and range."""
    if facts.fire is None:
        return best_fire(shooter, facts.range, uphill=facts.uphill)
    if facts.fire not in fire_options(shooter, facts.range, uphill=facts.uphill):
        raise IllegalActionError(
            "shoot", f"{shooter.name} cannot shoot {facts.fire} at {facts.range} inches",
            RULE_MUSKETRY if not shooter.is_artillery else RULE_ARTILLERY,
        )
    return facts.fire


def target_density(target: Unit, facts: ShotFacts) -> Modified:
    """The target's density for shooting: infantry in fortifications count 4, units in column
    of march count 8."""
    if facts.target_fortified and target.is_infantry:
        return Modified(4, "infantry manning fortifications", RULE_SHOOTING_MODIFIERS)
    if target.formation is Formation.COLUMN:
        return Modified(8, "target in column of march", RULE_SHOOTING_MODIFIERS)
    return Modified(target.density, "target density", RULE_SHOOTING_MODIFIERS)


def shooting_need(
    shooter: Unit, target: Unit, facts: ShotFacts, options: Options = DEFAULT_OPTIONS
) -> Modified:
    """The number each die must roll at or under (Shooting: Modifiers)."""
    fire = chosen_fire(shooter, facts)
    need = target_density(target, facts)
    full = shooting_size(shooter, options)
    size = full if facts.size is None else facts.size
    if size > full:
        raise InvalidValueError("size", size, f"at most the shooter's size {full}")
    mods: list[Modifier] = []
    steps = size_modifier(size, target.size)
    if steps:
        label = "shooter larger" if steps > 0 else "target larger"
        mods.append(Modifier(f"{label} ({size} v {target.size})", steps, RULE_SHOOTING_MODIFIERS))
    cover = facts.cover.value
    if cover:
        mods.append(Modifier(f"target in {facts.cover} cover", -cover, RULE_SHOOTING_MODIFIERS))
        if fire.is_roundshot:
            mods.append(
                Modifier("cover counts one less against roundshot", 1, RULE_SHOOTING_MODIFIERS)
            )
    if facts.target_in_woods and not facts.shooter_in_woods:
        mods.append(Modifier("target in woods, shooter not", -1, RULE_SHOOTING_MODIFIERS))
    through = int(facts.woods_inches // 3)
    if through:
        mods.append(Modifier(f"{through} x full 3\" through woods", -through, RULE_VISIBILITY))
    enfilading = facts.enfilade and (
        shooter.is_artillery or (shooter.is_infantry and shooter.density >= 5)
    )
    if enfilading or fire is Fire.RIFLE:
        label = "enfilading" if enfilading else "shooting with rifles"
        mods.append(Modifier(label, 2, RULE_SHOOTING_MODIFIERS))
    return need.plus(*mods)


def shooting_dice(fire: Fire, extra_orders: int, options: Options = DEFAULT_OPTIONS) -> int:
    """Firepower dice plus one per extra shooting order (or per extra action point spent
    shooting with the ``extra_die_per_action_point`` option)."""
    per_order = TARIFF[fire].cost if options.extra_die_per_action_point else 1
    return FIREPOWER[fire] + extra_orders * per_order


def shooting_cost(fire: Fire, extra_orders: int) -> int:
    """Actions spent: the tariff of the shooting, once per order."""
    return TARIFF[fire].cost * (1 + extra_orders)


def shooting_check(count: int, need: int) -> PoolCheck:
    """Dice at or under the need; 1s always hit and 12s always miss."""
    return PoolCheck(count, need, D12, auto_pass=frozenset({1}), auto_fail=frozenset({12}))


@attrs.frozen
class Shot:
    """The result of one shot: kind, dice, need and hits."""

    fire: Fire
    dice: int
    need: int
    hits: int

    def __str__(self) -> str:
        hits = "1 hit" if self.hits == 1 else f"{self.hits} hits"
        return f"{self.fire}: {hits} from {self.dice} d12 (need {self.need})"


def shoot(
    shooter: Unit,
    target: Unit,
    facts: ShotFacts,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> Shot:
    """Roll one unit's shooting at one target (Shooting)."""
    if shooter.weapon is Weapon.NONE and not shooter.is_artillery:
        raise IllegalActionError("shoot", f"{shooter.name} has no missile weapon", RULE_SHOOTING)
    if not facts.line_of_sight:
        raise IllegalActionError(
            "shoot", "buildings, hills or other obstacles block the line of sight",
            RULE_VISIBILITY,
        )
    fire = chosen_fire(shooter, facts)
    need = shooting_need(shooter, target, facts, options)
    count = shooting_dice(fire, facts.extra_orders, options)
    hits = dice.roll(
        shooting_check(count, need.total),
        reason=f"{shooter.name} shoots {fire} at {target.name}",
        rule=RULE_MUSKETRY if not shooter.is_artillery else RULE_ARTILLERY,
    )
    return Shot(fire, count, need.total, hits)


def apply_hits(target: Unit, hits: int) -> Unit:
    """Hits become DRPs up to 3, then stamina losses (Shooting: hits)."""
    return take_shooting_hits(target, hits)
