"""Risk to commanders: struck, constitution, removal and the fate of removed commanders at
the end of the battle (Bloodybacks 9.3, Risk to commanders)."""

from __future__ import annotations

import attrs

from smoothbore.core import (
    D12,
    Band,
    Dice,
    InvalidValueError,
    NamedEnum,
    TableCheck,
    TotalCheck,
    revised,
)
from smoothbore.core.stages import Done, Staged

from .rules import RULE_FATE, RULE_RISK
from .units import Commander

RIFLE_ALLOWANCE = 2


@attrs.frozen
class Risk:
    """One risk roll: the roll, whether the commander was struck, the wound roll, and the
    commander afterwards."""

    roll: int
    struck: bool
    wound: int
    commander: Commander

    def __str__(self) -> str:
        if not self.struck:
            return "unhurt"
        gone = ", removed from the battle" if self.commander.removed else ""
        return f"struck: constitution -{self.wound} to {self.commander.constitution}{gone}"


def struck(roll: int, losses: int, *, rifles: bool = False) -> bool:
    """Struck when the d12 (less 2 against rifles) is at most the losses taken."""
    return losses > 0 and roll - (RIFLE_ALLOWANCE if rifles else 0) <= losses


@attrs.frozen
class _AtRisk:
    """What a risk roll reads: the commander, the losses his unit took and whether they
    came from rifles."""

    commander: Commander
    losses: int
    rifles: bool


def _begin(
    commander: Commander, losses: int, *, rifles: bool = False
) -> tuple[_AtRisk, None]:
    if losses < 0:
        raise InvalidValueError("losses", losses, "0 or more")
    return _AtRisk(commander, losses, rifles), None


def _risk_roll(at_risk: _AtRisk, _: None, *, dice: Dice) -> int | Done[Risk]:
    """The risk roll: the d12, if he is struck; else the whole result (unhurt)."""
    leader = at_risk.commander
    roll = dice.roll(TotalCheck.of(1, D12), reason=f"risk to {leader.name}", rule=RULE_RISK)
    if not struck(roll, at_risk.losses, rifles=at_risk.rifles):
        return Done(Risk(roll, False, 0, leader))
    return roll


def _wound(at_risk: _AtRisk, roll: int, *, dice: Dice) -> Risk:
    """The wound: a d12 off his constitution; below 1 he is removed."""
    leader = at_risk.commander
    wound = dice.roll(TotalCheck.of(1, D12), reason=f"wound to {leader.name}", rule=RULE_RISK)
    constitution = leader.constitution - wound
    after = revised(leader, constitution=constitution, removed=constitution < 1,
                         attached_to=None if constitution < 1 else leader.attached_to)
    return Risk(roll, True, wound, after)


risk_to_commander: Staged[Risk] = Staged(
    "risk to a commander", RULE_RISK, _begin, (_risk_roll, _wound),
    doc="""Roll for an attached commander whose unit took ``losses`` (DRPs or stamina)
    from shooting or melee; if struck, a d12 comes off his constitution and below 1 he is
    removed: ``risk_to_commander(commander, losses, dice=dice, rifles=False)``. Written as
    stages, so its exact odds are worked out once per commander and losses.""",
)
"""Risk to one attached commander (B31)."""


class Fate(NamedEnum):
    """What became of a removed commander (end of the battle)."""

    STUNNED = "stunned: recovers for the next battle"
    LIGHT_WOUND = "light wound: recovers, constitution -1"
    SERIOUS_WOUND = "serious wound: out for the campaign"
    GLORY = "transition to glory: mortally wounded"

    def __lt__(self, other: Fate) -> bool:
        order = tuple(Fate)
        return order.index(self) < order.index(other)


FATE_TABLE = (
    Band(Fate.STUNNED.name, 1, 4),
    Band(Fate.LIGHT_WOUND.name, 5, 7),
    Band(Fate.SERIOUS_WOUND.name, 8, 10),
    Band(Fate.GLORY.name, 11, 12),
)


def commander_fate(commander: Commander, *, dice: Dice) -> Fate:
    """Roll a d12 on the fate table for a commander removed during the battle."""
    if not commander.removed:
        raise InvalidValueError("commander.removed", commander.removed, "True (removed)")
    name = dice.roll(TableCheck((D12,), FATE_TABLE), reason=f"fate of {commander.name}",
                     rule=RULE_FATE)
    return Fate[name]


def after_fate(commander: Commander, fate: Fate, base_constitution: int = 9) -> Commander:
    """The commander for the next battle: stunned, he returns with his constitution
    (``base_constitution``, 9 by default); lightly wounded, with one point less; seriously
    wounded or dead, he stays removed."""
    if fate is Fate.STUNNED:
        return revised(commander, removed=False, constitution=base_constitution)
    if fate is Fate.LIGHT_WOUND:
        return revised(commander, removed=False, constitution=base_constitution - 1)
    return commander
