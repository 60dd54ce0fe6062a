"""Rules - Morale: basic morale, testing shaken units and testing routing units."""

from __future__ import annotations

import functools

from smoothbore.core import D6, Dice, Modified, Modifier, NamedEnum, TotalCheck, revised

from . import rules
from .options import DEFAULT_OPTIONS, Options
from .units import Nationality, Rank, Status, TroopType, Unit


def basic_morale(unit: Unit, *, strength: int | None = None) -> Modified:
    """A unit's basic morale: its current strength plus the type modifier (Rules - Morale).

    European grenadiers +2, other European regulars +1, American regular rifles -1, militia -1
    or -2 (the unit's own choice), Indians -2, wagons -4; Battles of the '45: highlanders +2 (as
    grenadiers) and the pre-battle morale roll of British line (+1 on 4-6)."""
    base = unit.strength if strength is None else strength
    value = Modified(base, "strength points", rules.MORALE_BASIC)
    return value.plus(*morale_modifiers(unit))


def morale_modifiers(unit: Unit) -> tuple[Modifier, ...]:
    """The type modifiers of basic morale (without the strength)."""
    t = unit.troop
    r = rules.MORALE_BASIC
    out: list[Modifier] = []
    if t is TroopType.MILITIA:
        out.append(Modifier("militia", -unit.militia_morale, r))
    elif t is TroopType.INDIANS:
        out.append(Modifier("Indians", -2, r))
    elif t is TroopType.WAGON:
        out.append(Modifier("wagons", -4, r))
    elif t is TroopType.HIGHLANDERS:
        out.append(Modifier("highlanders (as grenadiers)", 2, rules.FORTY_FIVE))
    elif unit.is_european_regular:
        if t is TroopType.GRENADIERS:
            out.append(Modifier("European grenadiers", 2, r))
        else:
            out.append(Modifier("other European regulars", 1, r))
    elif t is TroopType.RIFLEMEN:
        out.append(Modifier("American regular rifles", -1, r))
    if unit.morale_bonus:
        out.append(Modifier("pre-battle morale roll", unit.morale_bonus, rules.FORTY_FIVE))
    return tuple(out)


def morale_total(unit: Unit, strength: int | None = None) -> int:
    """The number of ``basic_morale`` (fast, for the firing and charge tests)."""
    base = unit.strength if strength is None else strength
    return base + _modifier_total(
        unit.troop, unit.nationality, unit.militia_morale, unit.morale_bonus
    )


@functools.lru_cache(maxsize=512)
def _modifier_total(troop: TroopType, nationality: Nationality, militia: int, bonus: int) -> int:
    unit = Unit("_", "_", "_", troop, nationality, militia_morale=militia, morale_bonus=bonus)
    return sum(m.value for m in morale_modifiers(unit))


def general_bonus(rank: Rank | None, rule: str) -> tuple[Modifier, ...]:
    """+1 with a brigadier general, +2 with a senior general (or C in C)."""
    if rank is None:
        return ()
    label = "brigadier general with the unit" if rank is Rank.BRIGADIER else "senior general"
    return (Modifier(label, rank.test_bonus, rule),)


def quality_modifiers(unit: Unit, options: Options) -> tuple[Modifier, ...]:
    """FAQs (3) 2, optional: militia -1 and European grenadiers +1 on shaken and rout tests."""
    if not options.shaken_quality_modifiers:
        return ()
    if unit.troop is TroopType.MILITIA:
        return (Modifier("militia (optional)", -1, rules.FAQ3),)
    if unit.troop is TroopType.GRENADIERS and unit.is_european_regular:
        return (Modifier("European grenadiers (optional)", 1, rules.FAQ3),)
    return ()


class ShakenResult(NamedEnum):
    """Results of testing a shaken unit."""

    CARRY_ON = "carry on"
    RETIRE = "retire a full move"
    ROUT = "rout"
    ROUT_LOSE_1 = "rout and lose 1 SP"


class RoutingResult(NamedEnum):
    """Results of testing a routing unit."""

    HALT_SHAKEN = "halt shaken"
    CONTINUE = "continue routing"
    CONTINUE_LOSE_1 = "continue routing and lose 1 SP"


def shaken_test_score(
    unit: Unit, general: Rank | None, options: Options = DEFAULT_OPTIONS
) -> Modified:
    """What is added to the 1d6 of a shaken test."""
    return _test_score(unit, general, options, rules.MORALE_SHAKEN)


def _test_score(unit: Unit, general: Rank | None, options: Options, rule: str) -> Modified:
    """Shaken and rout tests add the same things: the general with the unit (and, as an
    option, the unit's quality)."""
    return Modified(0, "1d6", rule).plus(
        *general_bonus(general, rule), *quality_modifiers(unit, options)
    )


def _roll_test(unit: Unit, score: Modified, what: str, dice: Dice) -> int:
    return dice.roll(
        TotalCheck.of(1, D6, score.total), reason=f"{unit.name} tests {what}", rule=score.rule
    )


def shaken_result(total: int, unit: Unit, in_open: bool, options: Options) -> ShakenResult:
    """4+ carry on; 2-3 retire a full move (optional: militia or Indians in the open rout);
    1 or less rout and lose 1 strength point."""
    if total >= 4:
        return ShakenResult.CARRY_ON
    if total >= 2:
        if (
            options.militia_rout_in_open
            and in_open
            and unit.troop in (TroopType.MILITIA, TroopType.INDIANS)
        ):
            return ShakenResult.ROUT
        return ShakenResult.RETIRE
    return ShakenResult.ROUT_LOSE_1


def test_shaken(
    unit: Unit,
    general: Rank | None = None,
    *,
    dice: Dice,
    in_open: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> ShakenResult:
    """Roll the test of a shaken unit (Rules - Morale: Testing shaken units)."""
    total = _roll_test(unit, shaken_test_score(unit, general, options), "shaken", dice)
    return shaken_result(total, unit, in_open, options)


def routing_test_score(
    unit: Unit, general: Rank | None, options: Options = DEFAULT_OPTIONS
) -> Modified:
    """What is added to the 1d6 of a routing unit's test."""
    return _test_score(unit, general, options, rules.MORALE_ROUTING)


def routing_result(total: int) -> RoutingResult:
    """5+ halts shaken; 2-4 continues routing; 1 or less continues and loses 1 SP."""
    if total >= 5:
        return RoutingResult.HALT_SHAKEN
    if total >= 2:
        return RoutingResult.CONTINUE
    return RoutingResult.CONTINUE_LOSE_1


def test_routing(
    unit: Unit,
    general: Rank | None = None,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> RoutingResult:
    """Roll the test of a routing unit (Rules - Morale: Testing routing units)."""
    total = _roll_test(unit, routing_test_score(unit, general, options), "routing", dice)
    return routing_result(total)


def lose_strength(unit: Unit, points: int) -> Unit:
    """Take strength points off; at 0 the unit is ineffective and removed (Strength Points)."""
    left = max(0, unit.strength - points)
    if left == 0:
        return revised(unit, strength=0, status=Status.ELIMINATED)
    return revised(unit, strength=left)


def apply_shaken_result(unit: Unit, result: ShakenResult, options: Options) -> Unit:
    """The unit after its shaken test. FAQs (3) 1 rules that a result which does not say the
    unit stays shaken leaves it no longer shaken: carrying on (4+) and retiring (2-3) both end
    it (option ``shaken_recovers_on_carry_on=False``: carrying on keeps it shaken)."""
    if result is ShakenResult.CARRY_ON:
        if options.shaken_recovers_on_carry_on:
            return revised(unit, status=Status.STEADY)
        return unit
    if result is ShakenResult.RETIRE:
        return revised(unit, status=Status.STEADY, must_retire=True)
    routed = revised(unit, status=Status.ROUTING)
    return lose_strength(routed, 1) if result is ShakenResult.ROUT_LOSE_1 else routed


def apply_routing_result(unit: Unit, result: RoutingResult) -> Unit:
    """The unit after its rout test: a rallied unit halts shaken, facing as it chooses
    (FAQs (1) 1)."""
    if result is RoutingResult.HALT_SHAKEN:
        return revised(unit, status=Status.SHAKEN)
    if result is RoutingResult.CONTINUE_LOSE_1:
        return lose_strength(unit, 1)
    return unit
