"""Order tests and morale tests: 2D6 equal to or under the modified morale rating (Order
tests; Morale ratings; Morale modifiers; Morale Test), rallying and recovering from rout."""

from __future__ import annotations

import functools

import attrs

from smoothbore.core import D6, Dice, Modified, Modifier, ThresholdCheck, TotalCheck

from .options import DEFAULT_OPTIONS, Options
from .rules import (
    RULE_COMMANDERS,
    RULE_MORALE,
    RULE_MORALE_MODIFIERS,
    RULE_MORALE_RATINGS,
    RULE_ORDER_TESTS,
    RULE_RALLY,
    RULE_RALLY_ROUT,
)
from .units import Unit, remove_pins

COLONEL_BONUS = 1
COMMANDER_BONUS = 2


@attrs.frozen
class Command:
    """Which commanders can help a unit's test: the brigade commander of its own brigade
    within 6" and the army commander within 12" (Morale modifiers; A14). The colonel is part
    of the unit (``Unit.colonel``)."""

    brigade: bool = False
    army: bool = False


NO_COMMAND = Command()


def _base(unit: Unit, rule: str) -> Modified:
    return Modified(unit.morale, f"{unit.experience} morale", RULE_MORALE_RATINGS)


def _losses(unit: Unit, *, bases: bool, rule: str) -> tuple[Modifier, ...]:
    out = [Modifier(f"{unit.pins} pins", -unit.pins, rule)] if unit.pins else []
    if bases and unit.bases_below_five:
        out.append(Modifier(f"{unit.bases_below_five} bases below 5", -unit.bases_below_five,
                            rule))
    return tuple(out)


def commander_bonus(unit: Unit, command: Command) -> Modifier | None:
    """The single best commander bonus of an order test: the colonel +1, the brigade
    commander within 6" +2, the army commander within 12" +2; they do not add up and the
    player picks the best (Morale modifiers)."""
    if command.brigade:
        return Modifier("brigade commander within 6\"", COMMANDER_BONUS, RULE_COMMANDERS)
    if command.army:
        return Modifier("army commander within 12\"", COMMANDER_BONUS, RULE_COMMANDERS)
    if unit.colonel:
        return Modifier("colonel present", COLONEL_BONUS, RULE_MORALE_MODIFIERS)
    return None


def order_need(unit: Unit, command: Command = NO_COMMAND) -> Modified:
    """The score an order test must not exceed: morale, -1 per pin, -1 per base below 5
    (infantry and cavalry), and the single best commander bonus (Order tests; Morale
    modifiers)."""
    need = _base(unit, RULE_ORDER_TESTS).plus(
        *_losses(unit, bases=True, rule=RULE_MORALE_MODIFIERS))
    bonus = commander_bonus(unit, command)
    return need.plus(bonus) if bonus is not None else need


def morale_need(
    unit: Unit,
    command: Command = NO_COMMAND,
    routing_friends: int = 0,
    *,
    rout_recovery: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> Modified:
    """The score a morale test must not exceed: morale, -1 per pin, -1 per base lost below
    5 (ignored when a routing unit tests to recover), -1 per friendly unit routing within 6",
    +1 colonel present, +2 brigade commander within 6" if the colonel has been killed, +2 army
    commander within 12" even with the colonel (Morale Test). Without
    ``morale_commanders_stack`` only the single best bonus counts, as in order tests (A13)."""
    need = _base(unit, RULE_MORALE).plus(*_losses(unit, bases=not rout_recovery,
                                                  rule=RULE_MORALE))
    if routing_friends:
        need = need.plus(Modifier(f"{routing_friends} friendly units routing within 6\"",
                                  -routing_friends, RULE_MORALE))
    if not options.morale_commanders_stack:
        bonus = commander_bonus(unit, command)
        return need.plus(bonus) if bonus is not None else need
    if unit.colonel:
        need = need.plus(Modifier("colonel present", COLONEL_BONUS, RULE_MORALE))
        if command.army:
            need = need.plus(Modifier("army commander within 12\"", COMMANDER_BONUS,
                                      RULE_COMMANDERS))
    elif command.brigade or command.army:
        label = "brigade commander within 6\", colonel killed" if command.brigade else (
            "army commander within 12\"")
        need = need.plus(Modifier(label, COMMANDER_BONUS, RULE_COMMANDERS))
    return need


@functools.lru_cache(maxsize=1024)
def check_for(need: int, options: Options = DEFAULT_OPTIONS) -> ThresholdCheck:
    """2D6 equal to or under ``need``; with ``doubles`` a natural 2 always passes and a
    natural 12 always fails (A5)."""
    if options.doubles:
        return ThresholdCheck((D6, D6), need, at_least=False, auto_pass=frozenset({2}),
                              auto_fail=frozenset({12}))
    return ThresholdCheck((D6, D6), need, at_least=False)


def take_test(need: Modified, *, dice: Dice, reason: str, rule: str,
              options: Options = DEFAULT_OPTIONS) -> bool:
    """Roll 2D6 against a modified morale: True when passed."""
    return dice.roll(check_for(need.total, options), reason=f"{reason} ({need})", rule=rule)


def order_test(unit: Unit, command: Command = NO_COMMAND, *, dice: Dice, reason: str = "",
               options: Options = DEFAULT_OPTIONS) -> bool:
    """A unit's order test (Order tests)."""
    return take_test(order_need(unit, command), dice=dice,
                     reason=reason or f"{unit.name} order test", rule=RULE_ORDER_TESTS,
                     options=options)


def morale_test(unit: Unit, command: Command = NO_COMMAND, routing_friends: int = 0, *,
                dice: Dice, reason: str = "", options: Options = DEFAULT_OPTIONS) -> bool:
    """A unit's morale test: failing it, the unit routs (Morale Test)."""
    return take_test(morale_need(unit, command, routing_friends, options=options), dice=dice,
                     reason=reason or f"{unit.name} morale test", rule=RULE_MORALE,
                     options=options)


RALLY_CHECK = TotalCheck.of(1, D6)


def rally(unit: Unit, *, dice: Dice) -> Unit:
    """The rally order: the unit loses D6 pin markers (Orders, 5)."""
    lost = dice.roll(RALLY_CHECK, reason=f"{unit.name} pins rallied off", rule=RULE_RALLY)
    return remove_pins(unit, lost)


def recover_from_rout(unit: Unit, command: Command = NO_COMMAND, routing_friends: int = 0,
                      *, dice: Dice, options: Options = DEFAULT_OPTIONS) -> Unit:
    """A routing unit's test at the start of its brigade's activation, ignoring bases lost:
    passed, it stops routing, loses D6 pins and stays stationary this turn; failed, it keeps
    routing (Morale Test)."""
    need = morale_need(unit, command, routing_friends, rout_recovery=True, options=options)
    if not take_test(need, dice=dice, reason=f"{unit.name} rallies from rout",
                     rule=RULE_RALLY_ROUT, options=options):
        return unit
    lost = dice.roll(RALLY_CHECK, reason=f"{unit.name} pins lost", rule=RULE_RALLY_ROUT)
    return attrs.evolve(remove_pins(unit, lost), routing=False)
