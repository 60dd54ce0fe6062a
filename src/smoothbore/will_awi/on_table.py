"""Will's AWI as the table sees it (issue 29, the table seam): ``RULES``, the book's
``TableRules``, and the functions it is made of. The engine keeps the table in step with the
units after every step through ``KeptInStep(RULES)`` (``turn.TURN``), whatever the step's
handler did: a unit that leaves the battle leaves the table, a unit that changes formation or
limbers is laid out afresh about its centre (kept wholly on the table), a general rides with
the unit he joins, stays where it stood when he leaves it and leaves the table when he falls
(Rules - Introduction: Units and bases, Formations; Generals)."""

from __future__ import annotations

from smoothbore.table import Measure, RateTable, Shape, TableRules
from smoothbore.table.seam import Anchor

from .positions import layout_of
from .situations import SIGHT, rate_table
from .units import Commander, Unit

HALF_ANGLE = 45.0
"""Every unit's arc of fire: 45 degrees either side of straight ahead (Rules - Firing)."""


def shape(unit: Unit) -> Shape:
    """The unit's footprint: its bases on the table in its formation, limbered or deployed
    (``positions.layout_of``)."""
    formation, bases, frontage, depth = layout_of(unit)
    return Shape(bases, frontage, depth, formation)


def stands(unit: Unit) -> bool:
    """Whether a unit stands on the table (has a footprint): units not yet arrived or gone
    have none."""
    return unit.on_table


def with_unit(general: Commander) -> str | None:
    """The unit a general rides with (None: alone)."""
    return general.attached_to or None


def in_battle(general: Commander) -> bool:
    """Whether a general is still in the battle (not dead, captured or incapacitated)."""
    return general.active


def rates(unit: Unit) -> RateTable:
    """The unit's movement through terrain (``situations.rate_table``: by kind of mover;
    the options change none of it)."""
    return rate_table(unit)


RULES = TableRules(
    name="will_awi",
    shape=shape,
    stands=stands,
    measure=Measure.INCHES,
    sight=SIGHT,
    half_angle=HALF_ANGLE,
    anchor=Anchor.CENTRE,
    commander_with=with_unit,
    commander_stands=in_battle,
    rates=rates,
)
"""Will's AWI on the table (``smoothbore.table.seam``)."""
