"""Melee: attacks by base and by cavalry figure, columns fighting with one base, flank and
rear bonuses, chargers first or simultaneous combat, the winner, morale tests, fall back and
melee continuing, pins for casualties (Melee)."""

from __future__ import annotations

import attrs

from smoothbore.core import Dice, Modified, Modifier, NamedEnum, Staged

from .morale import NO_COMMAND, Command, morale_test
from .options import DEFAULT_OPTIONS, Options
from .rules import (
    RULE_CAVALRY,
    RULE_COLUMN_MELEE,
    RULE_COMBAT,
    RULE_MELEE_RESULT,
    RULE_SKIRMISHERS,
    RULE_TO_HIT,
)
from .shooting import BASIC_TO_HIT, roll_hits, roll_wounds, wound_need
from .units import (
    FIGURES_PER_BASE,
    FLAG,
    Formation,
    Unit,
    UnitType,
    add_pins,
    revise,
    take_casualties,
)

FALL_BACK = 2
"""Victors failing their morale test fall back 2" facing the enemy (Melee)."""


@attrs.frozen
class MeleeFacts:
    """How the chargers meet the defenders: from the flank or the rear, and whether the
    defenders hold a linear obstacle (then the combat is simultaneous) (Melee)."""

    flank: bool = attrs.field(default=False, validator=FLAG)
    rear: bool = attrs.field(default=False, validator=FLAG)
    obstacle: bool = attrs.field(default=False, validator=FLAG)


FRONTAL = MeleeFacts()


class MeleeOutcome(NamedEnum):
    """How a round of melee ends (Melee)."""

    LOSER_ROUTS = "the loser routs"
    VICTOR_FALLS_BACK = "the victors fall back 2\""
    CONTINUES = "the melee continues next turn"
    DESTROYED = "a unit is destroyed"


def attacks(unit: Unit, *, charging: bool = False) -> int:
    """Attack dice (Melee): 2 per infantry base (and per gun's crew, A10); cavalry 2 per
    figure when charging, else 1 (A11); a unit in column with 1 base only; skirmishers and
    wagons do not fight."""
    if unit.bases == 0 or unit.skirmishing or unit.kind in (UnitType.SKIRMISHERS,
                                                            UnitType.WAGON):
        return 0
    bases = 1 if unit.formation is Formation.COLUMN else unit.bases
    if unit.kind is UnitType.CAVALRY:
        return bases * FIGURES_PER_BASE[unit.kind] * (2 if charging else 1)
    return 2 * bases


def melee_need(attacker: Unit, defender: Unit, facts: MeleeFacts = FRONTAL) -> Modified:
    """The score each attack needs: 3+ with the shooting modifiers of the unit and its target
    (pins, inexperience, target down or small, artillery with casualties; A9), +1 from the
    flank, +2 from the rear (Melee)."""
    rule = RULE_TO_HIT
    return Modified(BASIC_TO_HIT, "basic to hit", RULE_COMBAT).plus(
        Modifier(f"{attacker.pins} pins on the attacker", attacker.pins, rule),
        Modifier("inexperienced attackers", int(attacker.experience.value == "inexperienced"),
                 rule),
        Modifier("target is down", int(defender.down), rule),
        Modifier("target is a small unit", int(defender.small), rule),
        Modifier("artillery with casualties",
                 int(attacker.kind is UnitType.ARTILLERY and attacker.casualties > 0), rule),
        Modifier("attacking from the flank", -int(facts.flank and not facts.rear), RULE_COMBAT),
        Modifier("attacking from the rear", -2 * int(facts.rear), RULE_COMBAT),
    )


def strike(attacker: Unit, defender: Unit, facts: MeleeFacts = FRONTAL, *, charging: bool,
           dice: Dice, options: Options = DEFAULT_OPTIONS) -> tuple[int, bool]:
    """(casualties, colonel killed): the attacker's dice to hit and to wound (Melee)."""
    count = attacks(attacker, charging=charging)
    need = melee_need(attacker, defender, facts).total
    hits = roll_hits(count, need, dice=dice, options=options,
                     reason=f"{attacker.name} attacks", rule=RULE_COMBAT)
    return roll_wounds(hits, wound_need(attacker, defender, options), defender, dice=dice)


def _wounded(unit: Unit, casualties: int, killed: bool, *, pin: bool = True) -> Unit:
    """Casualties taken in melee, with a pin for any (Melee); ``pin=False``: the casualties
    and a killed colonel only, the pin still to come (A35)."""
    if killed:
        unit = attrs.evolve(unit, colonel=False)
    unit, _ = take_casualties(unit, casualties)
    return add_pins(unit, 1) if casualties and pin else unit


@attrs.frozen
class MeleeResult:
    """A round of melee: casualties each side inflicted, the winner ("charger", "defender"
    or "" for equal casualties), how it ended, and the colonels killed."""

    by_charger: int
    by_defender: int
    winner: str
    outcome: MeleeOutcome
    colonels_killed: tuple[str, ...] = ()

    def __str__(self) -> str:
        won = f"the {self.winner} wins" if self.winner else "no winner"
        text = (f"chargers inflict {self.by_charger}, defenders {self.by_defender}: {won}; "
                f"{self.outcome}")
        if self.colonels_killed:
            text += f"; colonel of {', '.join(self.colonels_killed)} killed"
        return text


@attrs.frozen
class _Melee:
    """What every stage of a round of melee reads (the context of ``fight``)."""

    charger: Unit
    defender: Unit
    facts: MeleeFacts
    charging: bool
    together: bool
    defender_charging: bool
    options: Options
    commands: tuple[Command, Command]
    routing_friends: tuple[int, int]


def _begin(
    charger: Unit,
    defender: Unit,
    facts: MeleeFacts = FRONTAL,
    *,
    charging: bool = True,
    simultaneous: bool = False,
    defender_charging: bool = False,
    options: Options = DEFAULT_OPTIONS,
    commands: tuple[Command, Command] = (NO_COMMAND, NO_COMMAND),
    routing_friends: tuple[int, int] = (0, 0),
) -> tuple[_Melee, tuple[int, bool]]:
    context = _Melee(charger, defender, facts, charging, simultaneous or facts.obstacle,
                     defender_charging, options, commands, routing_friends)
    return context, (0, False)


def _chargers_strike(melee: _Melee, value: tuple[int, bool], *,
                     dice: Dice) -> tuple[int, bool]:
    """The chargers attack first: (casualties, colonel killed)."""
    return strike(melee.charger, melee.defender, melee.facts, charging=melee.charging,
                  dice=dice, options=melee.options)


def _defenders_strike(melee: _Melee, value: tuple[int, bool], *,
                      dice: Dice) -> tuple[int, bool, int, bool]:
    """The remaining defenders respond (all of them when the combat is simultaneous): less
    the casualties the chargers inflicted (bases and a killed colonel), but without the pin
    those casualties give, which they take once they have struck, at the end of the round,
    as the chargers take theirs (A35; option ``melee_pin_first``: before they strike)."""
    by_charger, charger_killed = value
    striking = melee.defender if melee.together else _wounded(
        melee.defender, by_charger, charger_killed, pin=melee.options.melee_pin_first)
    by_defender, defender_killed = strike(striking, melee.charger, FRONTAL,
                                          charging=melee.defender_charging, dice=dice,
                                          options=melee.options)
    return by_charger, charger_killed, by_defender, defender_killed


def _result(melee: _Melee, value: tuple[int, bool, int, bool], *,
            dice: Dice) -> tuple[MeleeResult, Unit, Unit]:
    """The winner, the loser's morale test, then the victors' (Melee)."""
    by_charger, charger_killed, by_defender, defender_killed = value
    charger, defender = melee.charger, melee.defender
    hurt_defender = _wounded(defender, by_charger, charger_killed)
    hurt_charger = _wounded(charger, by_defender, defender_killed)
    killed = tuple(u.name for u, k in ((defender, charger_killed), (charger, defender_killed))
                   if k)
    if hurt_charger.destroyed or hurt_defender.destroyed:
        winner = "defender" if hurt_charger.destroyed else "charger"
        if hurt_charger.destroyed and hurt_defender.destroyed:
            winner = ""
        return (MeleeResult(by_charger, by_defender, winner, MeleeOutcome.DESTROYED, killed),
                hurt_charger, hurt_defender)
    if by_charger == by_defender:
        return (MeleeResult(by_charger, by_defender, "", MeleeOutcome.CONTINUES, killed),
                hurt_charger, hurt_defender)
    charger_won = by_charger > by_defender
    victor, loser = (hurt_charger, hurt_defender) if charger_won else (hurt_defender,
                                                                       hurt_charger)
    w, lo = (0, 1) if charger_won else (1, 0)
    options, commands, friends = melee.options, melee.commands, melee.routing_friends
    if not morale_test(loser, commands[lo], friends[lo], dice=dice, options=options,
                       reason=f"{loser.name} lost the melee: morale test"):
        loser = revise(loser, routing=True, down=False)
        outcome = MeleeOutcome.LOSER_ROUTS
    elif not morale_test(victor, commands[w], friends[w], dice=dice, options=options,
                         reason=f"{victor.name} won the melee: morale test"):
        outcome = MeleeOutcome.VICTOR_FALLS_BACK
    else:
        outcome = MeleeOutcome.CONTINUES
    result = MeleeResult(by_charger, by_defender, "charger" if charger_won else "defender",
                         outcome, killed)
    if charger_won:
        return result, victor, loser
    return result, loser, victor


def _finish(melee: _Melee, value: tuple[MeleeResult, Unit, Unit]) -> tuple[MeleeResult, Unit,
                                                                            Unit]:
    return value


fight: Staged[tuple[MeleeResult, Unit, Unit]] = Staged(
    "melee", RULE_COMBAT, _begin, (_chargers_strike, _defenders_strike, _result), _finish,
    doc="""A round of melee and both units after it (Melee):
    ``fight(charger, defender, facts=FRONTAL, *, charging=True, simultaneous=False,
    defender_charging=False, dice, options, commands, routing_friends)``. The chargers
    attack first and the remaining defenders respond, or both at once behind a linear
    obstacle or in a cavalry counter charge. The side inflicting more casualties wins; the
    loser tests morale and routs on a failure; if it holds, the victors test and fall back
    2" on a failure; if both hold, the melee continues next turn. A destroyed unit ends it.
    ``defender_charging``: the defenders counter charged (cavalry: 2 attacks per figure).
    Written as stages, so its exact odds merge equal casualties after each side's attack.""",
)


MELEE_RULES = (RULE_COMBAT, RULE_MELEE_RESULT, RULE_COLUMN_MELEE, RULE_CAVALRY,
               RULE_SKIRMISHERS)
