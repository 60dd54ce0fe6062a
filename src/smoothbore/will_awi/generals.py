"""Risk to Generals (Rules - Firing and Rules - Melee): wounds, capture, death and the
shaking of his chain of command."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from smoothbore.core import D6, Band, Dice, NamedEnum, TableCheck, revised

from . import rules
from .units import Commander, GeneralState, Rank, Unit


class Risk(enum.Enum):
    """Which risk table applies."""

    FIRE_LOSS = "unit lost strength to fire"
    MELEE_LOSS = "unit lost strength in melee"
    MELEE_ROUT = "unit routed from melee"


class Fate(NamedEnum):
    NONE = "no effect"
    LIGHT_WOUND = "light wound"
    CAPTURED = "captured"
    DEAD = "dead"


_LOSS_BANDS = (
    Band(Fate.NONE.value, 2, 8),
    Band(Fate.LIGHT_WOUND.value, 9, 10),
    Band(Fate.DEAD.value, 11, 12),
)
_ROUT_BANDS = (
    Band(Fate.NONE.value, 2, 7),
    Band(Fate.LIGHT_WOUND.value, 8, 9),
    Band(Fate.CAPTURED.value, 10, 10),
    Band(Fate.DEAD.value, 11, 12),
)
RISK_CHECKS: Mapping[Risk, TableCheck] = MappingProxyType({
    Risk.FIRE_LOSS: TableCheck((D6, D6), _LOSS_BANDS),
    Risk.MELEE_LOSS: TableCheck((D6, D6), _LOSS_BANDS),
    Risk.MELEE_ROUT: TableCheck((D6, D6), _ROUT_BANDS),
})
_RULE = MappingProxyType({
    Risk.FIRE_LOSS: rules.FIRE_GENERALS,
    Risk.MELEE_LOSS: rules.MELEE_GENERALS,
    Risk.MELEE_ROUT: rules.MELEE_GENERALS,
})


def roll_risk(general: Commander, risk: Risk, *, dice: Dice) -> Fate:
    """2d6 on the table for the risk the general ran."""
    result = dice.roll(
        RISK_CHECKS[risk], reason=f"risk to {general.name}: {risk.value}", rule=_RULE[risk]
    )
    return Fate(result)


def apply_fate(general: Commander, fate: Fate) -> Commander:
    """A light wound halves his speed; a second incapacitates him (removed from play)."""
    if fate is Fate.LIGHT_WOUND:
        if general.light_wounds >= 1:
            return revised(general, state=GeneralState.INCAPACITATED, attached_to="")
        return revised(general, light_wounds=1)
    if fate is Fate.DEAD:
        return revised(general, state=GeneralState.DEAD, attached_to="")
    if fate is Fate.CAPTURED:
        return revised(general, state=GeneralState.CAPTURED, attached_to="")
    return general


def shakes_chain(fate: Fate) -> bool:
    """A general killed (or captured in melee) shakes his chain of command within 18"."""
    return fate in (Fate.DEAD, Fate.CAPTURED)


def in_chain_of_command(
    unit: Unit, general: Commander, generals: tuple[Commander, ...]
) -> bool:
    """Whether the unit answers to the general: directly, or through his brigadiers."""
    seen: set[str] = set()
    current = unit.commander
    while current and current not in seen:
        if current == general.id:
            return True
        seen.add(current)
        superior = next((g.superior for g in generals if g.id == current), "")
        current = superior
    return False


def general_move(general: Commander) -> float:
    """Generals and couriers move 21"; half that with a light wound."""
    return 10.5 if general.light_wounds else 21.0


def allocation_problems(
    units: tuple[Unit, ...], generals: tuple[Commander, ...]
) -> tuple[str, ...]:
    """Rules - Introduction: Generals: one brigadier per 3-5 units, one senior general per 2-4
    brigadiers, and a C in C only when there is more than one senior general. Returns the
    departures from that guide (empty when it is followed); it is advice, not a ban."""
    problems: list[str] = []
    for g in generals:
        if g.rank is Rank.BRIGADIER:
            n = sum(1 for u in units if u.commander == g.id)
            if not 3 <= n <= 5:
                problems.append(f"{g.name} commands {n} units (3-5 advised)")
        elif g.rank is Rank.SENIOR:
            n = sum(1 for b in generals if b.superior == g.id and b.rank is Rank.BRIGADIER)
            if not 2 <= n <= 4:
                problems.append(f"{g.name} commands {n} brigadiers (2-4 advised)")
    for side in sorted({g.side for g in generals}):
        seniors = sum(1 for g in generals if g.side == side and g.rank is Rank.SENIOR)
        cincs = sum(1 for g in generals if g.side == side and g.rank is Rank.CINC)
        if cincs and seniors < 2:
            problems.append(f"{side}: a C in C is added only over more than one senior general")
    return tuple(problems)
