"""Rules - Melee: the factor table by column, scores, results by margin and who takes them."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import D6, Dice, InvalidValueError, Modified, Modifier, TotalCheck

from . import rules
from .options import DEFAULT_OPTIONS, Options
from .units import FLAG, Arm, Formation, TroopType, Unit


class Column(enum.Enum):
    """The melee table's columns."""

    CAVALRY = 0
    INFANTRY = 1
    OTHER = 2


def column_of(unit: Unit) -> Column:
    """Cavalry, infantry (all foot) or other (artillery, wagons)."""
    if unit.troop.is_cavalry:
        return Column.CAVALRY
    if unit.troop.is_foot:
        return Column.INFANTRY
    return Column.OTHER


class Factor(enum.Enum):
    """The rows of the melee table ("attacked in the rear" printed twice counts once)."""

    CAVALRY = "unit is cavalry"
    CHARGING = "charging"
    INDIANS = "Indian unit"
    EUROPEAN = "European regulars"
    FLANK = "attacked in flank"
    OBSTACLE = "charging over an obstacle"
    UPHILL = "charging uphill"
    BUILDING = "charging a building"
    REAR = "attacked in the rear"
    OPEN_ORDER = "open order or artillery"
    FORTIFICATION = "charging a fortification"
    OVERLAP = "overlapping enemy unit"
    DEEP = "two or more bases deep"


# (cavalry, infantry, other); None = NA.
MELEE_TABLE: Mapping[Factor, tuple[int | None, int | None, int | None]] = MappingProxyType({
    Factor.CAVALRY: (2, None, None),
    Factor.CHARGING: (2, 1, None),
    Factor.INDIANS: (None, 2, None),
    Factor.EUROPEAN: (1, 1, 1),
    Factor.FLANK: (-1, -1, -1),
    Factor.OBSTACLE: (-4, -2, -4),
    Factor.UPHILL: (-1, -1, -1),
    Factor.BUILDING: (-4, -2, -4),
    Factor.REAR: (-2, -2, -2),
    Factor.OPEN_ORDER: (-2, -2, -2),
    Factor.FORTIFICATION: (-6, -3, -6),
    Factor.OVERLAP: (1, 1, 1),
    Factor.DEEP: (1, 1, None),
})

_SWAPPED = (Factor.OBSTACLE, Factor.BUILDING, Factor.FORTIFICATION)


def table_value(factor: Factor, column: Column, options: Options = DEFAULT_OPTIONS) -> int | None:
    """A cell of the table; the option swaps the cavalry and infantry cells of the obstacle,
    building and fortification rows (FAQs (5): some sit in the wrong columns)."""
    row = MELEE_TABLE[factor]
    if options.melee_obstacle_columns_swapped and factor in _SWAPPED and column is not Column.OTHER:
        return row[1 - column.value]
    return row[column.value]


@attrs.frozen
class Fighter:
    """One unit in a melee with the facts of its situation.

    ``front`` marks the unit engaged to the enemy's front (it takes the result first)."""

    unit: Unit
    charging: bool = attrs.field(default=False, validator=FLAG)
    flank: bool = attrs.field(default=False, validator=FLAG)
    rear: bool = attrs.field(default=False, validator=FLAG)
    over_obstacle: bool = attrs.field(default=False, validator=FLAG)
    uphill: bool = attrs.field(default=False, validator=FLAG)
    charging_building: bool = attrs.field(default=False, validator=FLAG)
    charging_fortification: bool = attrs.field(default=False, validator=FLAG)
    front: bool = attrs.field(default=True, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        if self.charging and column_of(self.unit) is Column.OTHER:
            raise InvalidValueError("Fighter.charging", True, "False for artillery and wagons")


@attrs.frozen
class Melee:
    """One melee: one defender and all its attackers, or one attacker and up to two defenders.

    ``defender_behind_obstacle``: the defenders are immediately behind an obstacle."""

    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    defender_behind_obstacle: bool = attrs.field(default=False, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        a, d = len(self.attackers), len(self.defenders)
        if a < 1 or d < 1 or (a > 1 and d > 1) or d > 2:
            raise InvalidValueError(
                "Melee",
                f"{a} attackers v {d} defenders",
                "one defender and all its attackers, or one attacker and one or two defenders",
            )


def _single_column(enemies: tuple[Fighter, ...]) -> bool:
    return (
        len(enemies) == 1
        and enemies[0].unit.formation is Formation.COLUMN
        and (enemies[0].unit.troop.is_foot or enemies[0].unit.troop.is_cavalry)
    )


def melee_score(
    fighter: Fighter, enemies: tuple[Fighter, ...], options: Options = DEFAULT_OPTIONS
) -> Modified:
    """What is added to one unit's 1d6 in melee (Rules - Melee table)."""
    unit = fighter.unit
    col = column_of(unit)
    r = rules.MELEE
    mods: list[Modifier] = []

    def add(factor: Factor, applies: bool, rule: str = r) -> None:
        if applies:
            value = table_value(factor, col, options)
            if value is not None:
                mods.append(Modifier(factor.value, value, rule))

    enemy_pikes = options.variant.pikes and any(e.unit.troop is TroopType.PIKEMEN for e in enemies)
    add(Factor.CAVALRY, unit.troop.is_cavalry and not enemy_pikes)
    add(Factor.CHARGING, fighter.charging)
    add(Factor.INDIANS, unit.troop is TroopType.INDIANS)
    add(Factor.EUROPEAN, unit.is_european_regular)
    add(Factor.FLANK, fighter.flank)
    add(Factor.OBSTACLE, fighter.over_obstacle)
    add(Factor.UPHILL, fighter.uphill)
    add(Factor.BUILDING, fighter.charging_building)
    add(Factor.REAR, fighter.rear)
    add(Factor.OPEN_ORDER, unit.arm in (Arm.OPEN_ORDER_FOOT, Arm.ARTILLERY))
    add(Factor.FORTIFICATION, fighter.charging_fortification)
    in_line = unit.formation is Formation.LINE and (unit.troop.is_foot or unit.troop.is_cavalry)
    add(Factor.OVERLAP, in_line and _single_column(enemies), rules.FAQ2)
    deep = unit.formation is Formation.COLUMN and unit.arm is not Arm.OPEN_ORDER_FOOT
    add(
        Factor.DEEP,
        deep and (fighter.charging or not options.column_bonus_attacking_only),
        rules.FAQ2,
    )
    highlanders = options.variant.hordes and unit.troop is TroopType.HIGHLANDERS
    if highlanders and any(e.unit.troop.is_foot for e in enemies):
        bonus = 2 if unit.highland_charge else 1
        mods.append(Modifier("highlanders against foot", bonus, rules.FORTY_FIVE))
    return Modified(0, "1d6", r).plus(*mods)


class Effect(enum.Enum):
    """What happens to the unit that takes a melee result."""

    ROUT = "routs (-2 SP)"
    RETIRE_6_SHAKEN = 'retires 6" shaken (-2 SP)'
    RETIRE_SHAKEN = 'retires 3" shaken (-1 SP)'
    BOTH_RETIRE = 'both sides retire 3"'

    @property
    def loss(self) -> int:
        return {Effect.ROUT: 2, Effect.RETIRE_6_SHAKEN: 2, Effect.RETIRE_SHAKEN: 1}.get(self, 0)


@attrs.frozen(order=True)
class MeleeOutcome:
    """Scores, the loser side, the unit that takes the result and the effect on it."""

    attacker: int
    defender: int
    loser: str  # "attackers", "defenders" or "" when equal
    affected: str  # unit id, "" when equal
    effect: Effect = attrs.field(order=lambda e: e.value)

    def __str__(self) -> str:
        if not self.loser:
            return f"{self.attacker}-{self.defender}: {self.effect.value}"
        return f"{self.attacker}-{self.defender}: {self.affected} {self.effect.value}"


def melee_result(melee: Melee, scores: tuple[tuple[int, ...], tuple[int, ...]]) -> MeleeOutcome:
    """Highest modified score each side; the lower side loses. By 2+ the loser routs and loses
    2 SP (but retires 6" shaken when charging a building or fortification or against defenders
    immediately behind an obstacle); by 1 it retires 3", loses 1 SP and is shaken; equal scores
    send both sides back 3". Only one loser takes the result: the one engaged to the enemy's
    front, or of several the lowest scoring (the first listed on a tie)."""
    a_scores, d_scores = scores
    a, d = max(a_scores), max(d_scores)
    if a == d:
        return MeleeOutcome(a, d, "", "", Effect.BOTH_RETIRE)
    losers, loser_scores, side = (
        (melee.attackers, a_scores, "attackers")
        if a < d
        else (melee.defenders, d_scores, "defenders")
    )
    candidates = [i for i, f in enumerate(losers) if f.front] or list(range(len(losers)))
    pick = min(candidates, key=lambda i: (loser_scores[i], i))
    margin = abs(a - d)
    if margin >= 2:
        protected = side == "attackers" and (
            melee.defender_behind_obstacle
            or any(f.charging_building or f.charging_fortification for f in losers)
        )
        effect = Effect.RETIRE_6_SHAKEN if protected else Effect.ROUT
    else:
        effect = Effect.RETIRE_SHAKEN
    return MeleeOutcome(a, d, side, losers[pick].unit.id, effect)


def melee_scores(
    melee: Melee, options: Options = DEFAULT_OPTIONS
) -> tuple[tuple[Modified, ...], tuple[Modified, ...]]:
    """Every fighter's modifiers, attackers then defenders."""
    return (
        tuple(melee_score(f, melee.defenders, options) for f in melee.attackers),
        tuple(melee_score(f, melee.attackers, options) for f in melee.defenders),
    )


def resolve_melee(melee: Melee, *, dice: Dice, options: Options = DEFAULT_OPTIONS) -> MeleeOutcome:
    """Roll 1d6 per unit plus its factors and read the result."""
    mods_a, mods_d = melee_scores(melee, options)
    a = tuple(
        dice.roll(TotalCheck.of(1, D6, m.total), reason=f"{f.unit.name} in melee", rule=rules.MELEE)
        for f, m in zip(melee.attackers, mods_a, strict=True)
    )
    d = tuple(
        dice.roll(TotalCheck.of(1, D6, m.total), reason=f"{f.unit.name} in melee", rule=rules.MELEE)
        for f, m in zip(melee.defenders, mods_d, strict=True)
    )
    return melee_result(melee, (a, d))
