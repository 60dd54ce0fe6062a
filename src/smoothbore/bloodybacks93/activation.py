"""Activating units: the hand of d12s and the action tariff (Bloodybacks 9.3, Activating
Units; Action tariff)."""

from __future__ import annotations

from types import MappingProxyType

import attrs

from smoothbore.core import D12, Dice, IllegalActionError, Modified, Modifier, NamedEnum, PoolCheck

from .morale import TestKind, TestOutcome, take_test
from .options import DEFAULT_OPTIONS, Options
from .rules import RULE_ACTIVATION, RULE_ROUTING
from .units import Commander, Unit

HAND = 6
ACTIONS_BY_SUCCESSES = ((6, 3), (3, 2), (1, 1))
"""The "136=123" hand: 1 success 1 action, 3 successes 2, 6 successes 3."""


def hand_size(unit: Unit) -> int:
    """Six d12, one fewer per DRP (Activating Units)."""
    return HAND - unit.disruption


def activation_need(
    unit: Unit,
    commander: Commander | None,
    *,
    outside_radius: bool = False,
    other_brigade: bool = False,
    in_woods: bool = False,
) -> Modified:
    """Each die must roll at or under unit quality + commander quality, less 1 outside the
    radius, 1 for a unit of another brigade (unless the commander is the CinC) and 1 per full 6
    stamina losses. Without a living commander, his quality is not added."""
    need = Modified(unit.quality_in(in_woods), "unit quality", RULE_ACTIVATION)
    mods: list[Modifier] = []
    if commander is not None and not commander.removed:
        mods.append(Modifier("commander's quality", commander.command_quality, RULE_ACTIVATION))
    else:
        mods.append(Modifier("commander killed: no command quality", 0, RULE_ACTIVATION))
    if outside_radius:
        mods.append(Modifier("outside command radius", -1, RULE_ACTIVATION))
    if other_brigade and not (commander is not None and commander.cinc):
        mods.append(Modifier("not of the commander's brigade", -1, RULE_ACTIVATION))
    if unit.stamina_steps:
        mods.append(
            Modifier(f"{unit.stamina_steps} x full 6 stamina losses", -unit.stamina_steps,
                     RULE_ACTIVATION)
        )
    return need.plus(*mods)


def actions_for(successes: int, *, long_turn: bool = False) -> int:
    """Actions earned: 1, 3 and 6 successes give 1, 2 and 3 actions; +1 in a 25- or
    30-minute turn for a unit that activates."""
    for threshold, actions in ACTIONS_BY_SUCCESSES:
        if successes >= threshold:
            return actions + (1 if long_turn else 0)
    return 0


def hand_check(unit: Unit, need: int, options: Options = DEFAULT_OPTIONS) -> PoolCheck:
    """The hand as a check (naturals only with the ``activation_naturals`` option)."""
    naturals = options.activation_naturals
    return PoolCheck(
        hand_size(unit),
        need,
        D12,
        auto_pass=frozenset({1}) if naturals else frozenset(),
        auto_fail=frozenset({12}) if naturals else frozenset(),
    )


@attrs.frozen
class Activation:
    """The result of an activation roll: actions earned, or the morale test forced by a hand
    without a success."""

    dice: int
    need: int
    successes: int
    actions: int
    morale: TestOutcome | None = None
    long_turn: bool = False

    def __str__(self) -> str:
        plural = "" if self.actions == 1 else "s"
        text = (f"{self.successes}/{self.dice} successes (need {self.need}): "
                f"{self.actions} action{plural}")
        if self.long_turn and self.actions:
            text += " (one for the long turn)"
        if self.morale is not None:
            text += f"; {self.morale}"
        return text


def activate(
    unit: Unit,
    commander: Commander | None,
    *,
    dice: Dice,
    outside_radius: bool = False,
    other_brigade: bool = False,
    long_turn: bool = False,
    in_woods: bool = False,
    commander_attached: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> Activation:
    """Roll a unit's activation hand (Activating Units).

    Routing and destroyed units cannot roll (the turn also keeps out units that recovered
    from rout this turn); a hand with no success forces an immediate morale test (no command
    point or rally can prevent it).
    """
    if unit.routing:
        raise IllegalActionError(
            "activate", f"{unit.name} is routing: it takes a morale test instead", RULE_ROUTING
        )
    if unit.destroyed:
        raise IllegalActionError("activate", f"{unit.name} is gone", RULE_ACTIVATION)
    need = activation_need(
        unit, commander, outside_radius=outside_radius, other_brigade=other_brigade,
        in_woods=in_woods,
    )
    check = hand_check(unit, need.total, options)
    successes = dice.roll(check, reason=f"activation hand of {unit.name}", rule=RULE_ACTIVATION)
    actions = actions_for(successes, long_turn=long_turn)
    morale = None
    if successes == 0:
        morale = take_test(
            unit, TestKind.MORALE, dice=dice, commander_attached=commander_attached,
            in_woods=in_woods, reason=f"{unit.name} failed to activate",
        )
    return Activation(check.count, need.total, successes, actions, morale, long_turn)


class ActionKind(NamedEnum):
    """Actions a unit may spend its activation on, with their cost (Action tariff)."""

    RALLY = "rally off 1 DRP"
    SHOOT_MUSKET = "shoot with musket or carbine"
    SHOOT_CANISTER = "shoot with canister"
    MOVE = "move"
    ABOUT_FACE = "about face"
    CHANGE_FORMATION = "change formation"
    LIMBER = "limber or unlimber artillery"
    SHOOT_RIFLE = "shoot with rifles"
    SHOOT_ROUNDSHOT_MEDIUM = "shoot with roundshot (medium range)"
    CHARGE = "charge"
    SHOOT_ROUNDSHOT_LONG = "shoot with roundshot (long range)"

    @property
    def cost(self) -> int:
        return ACTION_COST[self]


ACTION_COST: MappingProxyType[ActionKind, int] = MappingProxyType({
    ActionKind.RALLY: 1,
    ActionKind.SHOOT_MUSKET: 1,
    ActionKind.SHOOT_CANISTER: 1,
    ActionKind.MOVE: 1,
    ActionKind.ABOUT_FACE: 1,
    ActionKind.CHANGE_FORMATION: 1,
    ActionKind.LIMBER: 1,
    ActionKind.SHOOT_RIFLE: 2,
    ActionKind.SHOOT_ROUNDSHOT_MEDIUM: 2,
    ActionKind.CHARGE: 2,
    ActionKind.SHOOT_ROUNDSHOT_LONG: 3,
})
