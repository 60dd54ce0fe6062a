"""Ammunition (McKie ACW, Ammunition): 6 rounds per figure or gun at the start, up to 6 more
per figure or gun in the reserve train behind each corps, a running total, and running out."""

from __future__ import annotations

from .units import ROUNDS_PER_FIGURE, Unit, changed


def reserve_for(units: tuple[Unit, ...], rounds: int = ROUNDS_PER_FIGURE) -> int:
    """A corps' reserve train: ``rounds`` (at most 6) per figure or gun of its units."""
    return min(rounds, ROUNDS_PER_FIGURE) * sum(1 if u.is_gun else u.figures for u in units)


def spend(unit: Unit, rounds: int) -> Unit:
    """The unit after firing ``rounds``."""
    return changed(unit, ammo=max(0, unit.ammo - rounds))


def resupply(unit: Unit, reserve: int) -> tuple[Unit, int]:
    """The unit refilled from its corps' reserve train up to its full load, and what the train
    has left."""
    taken = max(0, min(reserve, unit.full_ammo - unit.ammo))
    return changed(unit, ammo=unit.ammo + taken), reserve - taken
