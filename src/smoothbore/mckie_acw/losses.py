"""Prisoners and battle losses (McKie ACW, Prisoners; Battle losses)."""

from __future__ import annotations

import attrs

PRISONERS_PER_GUARD = 5
"""Prisoners: at least 1 guard per 5 prisoners."""
MEN_PER_FIGURE = 100
"""Formation and strength of units: a figure is 100 men (1,600 men, 16 figures)."""


def guards_needed(prisoners: int) -> int:
    """Figures that must guard ``prisoners`` figures: one per five, rounded up."""
    return -(-prisoners // PRISONERS_PER_GUARD)


@attrs.frozen
class DayLosses:
    """Battle losses: a day's casualties broken down, in men."""

    dead: int
    badly_wounded: int
    slightly_wounded: int

    @property
    def returning(self) -> int:
        """The slightly wounded and their helpers return at the end of the day."""
        return self.slightly_wounded

    def __str__(self) -> str:
        return (f"{self.dead} dead, {self.badly_wounded} badly wounded, "
                f"{self.slightly_wounded} slightly wounded or helping (return)")


def battle_losses(figures: int) -> DayLosses:
    """Battle losses: of the men lost in a day around 15% dead, 35% badly wounded and 50%
    slightly wounded or helping the wounded to the rear (rounded to whole men, the slightly
    wounded taking what rounding leaves)."""
    men = figures * MEN_PER_FIGURE
    dead = men * 15 // 100
    badly = men * 35 // 100
    return DayLosses(dead, badly, men - dead - badly)
