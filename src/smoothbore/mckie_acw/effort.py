"""Effort points (McKie ACW, Effort points): what earns them, tired at 7, exhausted at 12,
and resting 2 a period."""

from __future__ import annotations

from .units import EXHAUSTED_AT, Unit, changed

CHARGE_OR_DOUBLE_MOVE = 2
FIRING = 1
MELEE = 2
REST = 2
"""Effort points: a charge or double move 2, firing 1, a melee 2; resting takes off 2."""


def earn(unit: Unit, points: int) -> Unit:
    """The unit with ``points`` more effort points (an exhausted unit that was resting has
    worked again: it is no longer resting)."""
    return changed(unit, effort=unit.effort + points)


def rest(unit: Unit) -> Unit:
    """A period's rest: 2 points off, never below 0; below 12 the exhausted unit's duty to
    rest ends."""
    effort = max(0, unit.effort - REST)
    return changed(unit, effort=effort, resting=unit.resting and effort >= EXHAUSTED_AT)
