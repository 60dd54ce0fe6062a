"""Generalship (McKie ACW): initiative, activation, written orders and the risk to
generals."""

from __future__ import annotations

from smoothbore.core import D10, Band, Dice, TableCheck, ThresholdCheck, TotalCheck

from . import rules
from .units import Fate

ACTIVATION_OVER = 10
"""Activation: d10 plus the rating must be greater than 10."""


def roll_initiative(first: int, second: int, *, dice: Dice, tie_goes_to: int = 0) -> int:
    """Initiative: each commander-in-chief throws a d10 and adds his initiative rating; the
    higher total wins (0: the first side, 1: the second); equal totals go to the higher
    rating, and equal ratings too to ``tie_goes_to`` (the side that moved first before, M3)."""
    a = dice.roll(TotalCheck((D10,), first), reason="initiative, first side",
                  rule=rules.INITIATIVE)
    b = dice.roll(TotalCheck((D10,), second), reason="initiative, second side",
                  rule=rules.INITIATIVE)
    if a != b:
        return 0 if a > b else 1
    if first != second:
        return 0 if first > second else 1
    return tie_goes_to


def activate(rating: int, *, dice: Dice) -> bool:
    """Activation: the superior throws a d10 and adds the commander's activation rating; a
    total greater than 10 activates him."""
    return dice.roll(ThresholdCheck((D10,), ACTIVATION_OVER + 1, rating),
                     reason="activation", rule=rules.ACTIVATION)


RISK_BANDS = (
    Band(Fate.KILLED.value, 1, 1),
    Band(Fate.ACTIVE.value, 2, 8),
    Band(Fate.WOUNDED.value, 9, 10),
)

_RISK = TableCheck((D10,), RISK_BANDS)


def risk_to_general(*, dice: Dice) -> Fate:
    """Risk to generals: a d10, 1 killed outright, 9 or 10 seriously wounded (out of action
    for the rest of the battle), otherwise unhurt."""
    return Fate(dice.roll(_RISK, reason="risk to general", rule=rules.RISK_TO_GENERALS))
