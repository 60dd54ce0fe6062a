"""Command and control (the March 2008 post by default, the January 2008 post as an option):
2d6 at or under the commander's rating with modifiers; orders until the first failure; then
independent tests for units not yet commanded."""

from __future__ import annotations

import attrs

from smoothbore.core import (
    D6,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    ThresholdCheck,
    revised,
)
from smoothbore.core.validate import MAX_INCHES, finite

from . import rules
from .options import DEFAULT_OPTIONS, CommandPost, Options
from .units import FLAG, Commander, Training, Unit


@attrs.frozen
class OrderFacts:
    """What a player measures for one order."""

    distance: float = attrs.field(default=0.0, validator=finite(0, MAX_INCHES))
    attached: bool = attrs.field(default=False, validator=FLAG)
    in_sight: bool = attrs.field(default=True, validator=FLAG)
    group: bool = attrs.field(default=False, validator=FLAG)
    cinc_within_6: bool = attrs.field(default=False, validator=FLAG)


def _rule(options: Options) -> str:
    return (
        rules.COMMAND_MARCH
        if options.command_post is CommandPost.MARCH_2008
        else (rules.COMMAND_JANUARY)
    )


def training_modifiers(unit: Unit, rule: str) -> tuple[Modifier, ...]:
    if unit.trained is Training.WELL:
        return (Modifier("well trained unit", 1, rule),)
    if unit.trained is Training.POOR:
        return (Modifier("poorly trained unit", -1, rule),)
    return ()


def order_target(
    general: Commander,
    unit: Unit,
    facts: OrderFacts = OrderFacts(),
    options: Options = DEFAULT_OPTIONS,
) -> Modified:
    """The number 2d6 must not exceed: rating +2 attached, -1 per 12" away, -2 out of sight,
    +/-1 training, -1 group move, +1 C in C within 6" (optional); the January post adds -1
    for 1-2 strength points lost and -2 for 3 or more."""
    r = _rule(options)
    mods: list[Modifier] = []
    if facts.attached:
        mods.append(Modifier("commander with the unit", 2, r))
    if facts.distance >= 12:
        steps = int(facts.distance // 12)
        mods.append(Modifier(f'{steps} x 12" from the commander', -steps, r))
    if not facts.in_sight:
        mods.append(Modifier("out of sight of the commander", -2, r))
    if options.command_post is CommandPost.JANUARY_2008:
        lost = unit.initial_strength - unit.strength
        if lost >= 3:
            mods.append(Modifier("3 or more strength points lost", -2, r))
        elif lost >= 1:
            mods.append(Modifier("1 or 2 strength points lost", -1, r))
    mods.extend(training_modifiers(unit, r))
    if facts.group:
        mods.append(Modifier("group move", -1, r))
    if options.cinc_bonus and facts.cinc_within_6:
        mods.append(Modifier('C in C within 6" (optional)', 1, r))
    return Modified(general.rating, f"{general.name}'s rating", r).plus(*mods)


def group_order_target(
    general: Commander,
    units: tuple[Unit, ...],
    facts: OrderFacts = OrderFacts(),
    options: Options = DEFAULT_OPTIONS,
    each: tuple[OrderFacts, ...] = (),
) -> Modified:
    """One roll orders a group of his units moving together: the group move's -1 applies, and
    the roll must pass every unit's own target, so the group needs the lowest of them.
    ``each``: the facts unit by unit (measured on a table) instead of ``facts`` for all."""
    if not units:
        raise InvalidValueError("units", units, "at least one unit in the group")
    if each and len(each) != len(units):
        raise InvalidValueError("each", each, f"one OrderFacts per unit ({len(units)})")
    group = len(units) > 1 or facts.group
    per_unit = each or (facts,) * len(units)
    return min((order_target(general, u, revised(f, group=group or f.group), options)
                for u, f in zip(units, per_unit, strict=True)), key=lambda m: m.total)


def order_check(target: int) -> ThresholdCheck:
    return ThresholdCheck((D6, D6), target, at_least=False)


def give_order(
    general: Commander,
    unit: Unit,
    facts: OrderFacts = OrderFacts(),
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
    also: tuple[Unit, ...] = (),
    each: tuple[OrderFacts, ...] = (),
) -> bool:
    """One command roll: True when the unit (with the units of its group, ``also``) may
    move; ``each``: the facts unit by unit, as ``group_order_target``."""
    target = group_order_target(general, (unit, *also), facts, options, each)
    names = ", ".join(u.name for u in (unit, *also))
    return dice.roll(
        order_check(target.total),
        reason=f"{general.name} orders {names} (needs {target.total} or less)",
        rule=target.rule,
    )


def independent_target(unit: Unit, options: Options = DEFAULT_OPTIONS) -> Modified:
    """A unit not yet commanded: 3 or less (March), or a rating of 6 (January), +/-1 training."""
    r = _rule(options)
    base = 3 if options.command_post is CommandPost.MARCH_2008 else 6
    return Modified(base, "independent test", r).plus(*training_modifiers(unit, r))


def test_independent(
    unit: Unit,
    commander_failed: bool = True,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> bool:
    """The independent test after all command rolls: 2d6 at or under the target, as every
    command roll (W6a); option ``independent_test_one_die``: the March post's "3 or lower"
    on 1d6. Under the January post only units whose commander failed on another unit may
    take it."""
    if options.command_post is CommandPost.JANUARY_2008 and not commander_failed:
        raise IllegalActionError(
            unit.id,
            "the independent test needs the commander to have failed",
            rules.COMMAND_JANUARY,
        )
    target = independent_target(unit, options)
    one_die = options.independent_test_one_die and (
        options.command_post is CommandPost.MARCH_2008)
    check = ThresholdCheck((D6,), target.total, at_least=False) if one_die else order_check(
        target.total)
    return dice.roll(check, reason=f"{unit.name} tests independently", rule=target.rule)


def command_sequence(
    general: Commander,
    orders: tuple[tuple[Unit, OrderFacts], ...],
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[str, ...]:
    """Orders in the commander's chosen order until the first failure; returns the ids of the
    units that received orders (the failed one excluded)."""
    ordered: list[str] = []
    for unit, facts in orders:
        if not give_order(general, unit, facts, dice=dice, options=options):
            break
        ordered.append(unit.id)
    return tuple(ordered)
