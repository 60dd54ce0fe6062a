"""Units on the table: a Bloodybacks unit's footprint from its bases and formation, and the
book as the table sees it (``RULES``, the table seam: the engine keeps the table in step
with the units after every step through ``KeptInStep(RULES)``) (Bloodybacks 9.3, Concepts
and definitions: Density; Shooting; Visibility; Movement; the basing table;
interpretations B51, B52, B55).

A base is 60 mm wide (the text's "standard" frontage) and carries as many figures as the
unit's density: 6 figures for density 6, 8 for close order in three ranks, 3 for skirmishers;
cavalry 3 mounted figures (6 of size) on 60 mm. A unit separated to a lower density keeps its
bases and spaces them out so that each 60 mm of frontage holds ``density`` figures. Depths are
the library's (B51): 30 mm for foot, 50 mm for horse, 60 mm for a gun; limbered guns 40 mm
wide and 100 mm long, one behind another."""

from __future__ import annotations

import math

import attrs

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    Anchor,
    CommanderMark,
    Footprint,
    Measure,
    RateTable,
    Shape,
    SightRules,
    Table,
    TableRules,
    TerrainKind,
    check_deployed,
)
from smoothbore.table import Formation as Layout

from .rules import RULE_MOVEMENT
from .units import Commander, Formation, Unit

MM = 1 / 25.4
"""One millimetre in inches (the table's measure for Bloodybacks)."""
BASE_FRONTAGE = 60 * MM
FOOT_DEPTH = 30 * MM
HORSE_DEPTH = 50 * MM
GUN_DEPTH = 60 * MM
LIMBER_FRONTAGE = 40 * MM
LIMBER_DEPTH = 100 * MM

HALF_ARC = 45.0
"""A unit shoots at what lies straight ahead of its front or within 45 degrees either side
(B52)."""

SIGHT = SightRules(
    blocking=frozenset({TerrainKind.BUILDING, TerrainKind.IMPASSABLE}),
    hills_block=True,
    units_block=True,
)
"""Line of sight is interrupted by buildings, hills and other such obstacles (Visibility);
light and heavier woods do not block it (they cover, and cost the shot dice per 3"); other
units block it (B52)."""

OBSTACLE_KINDS = frozenset(
    {TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.STREAM, TerrainKind.FIELDWORK})
"""Minor obstacles a move crosses (1 DRP; artillery may not cross them) (Movement; B55)."""

_CLOSED = {TerrainKind.RIVER: None, TerrainKind.IMPASSABLE: None, TerrainKind.BUILDING: None}
FOOT_RATES = RateTable(speeds=_CLOSED, rule=RULE_MOVEMENT)
"""Foot and horse: every ground may be moved over at the rates of the text (its deductions
are per move action, not per inch) except rivers away from fords and bridges, impassable
ground and buildings (B55)."""
GUN_RATES = RateTable(
    speeds=_CLOSED,
    passages={kind: None for kind in OBSTACLE_KINDS},
    rule=RULE_MOVEMENT,
)
"""Limbered guns: as foot, and they may not cross obstacles (Movement)."""
DEPLOYED_GUN_RATES = RateTable(
    speeds={**_CLOSED, TerrainKind.DENSE_WOODS: None, TerrainKind.ROUGH: None,
            TerrainKind.SWAMP: None, TerrainKind.STEEP_HILL: None},
    passages={kind: None for kind in OBSTACLE_KINDS},
    rule=RULE_MOVEMENT,
)
"""Unlimbered guns: as limbered, and they cannot move in heavy woods, difficult ground or up
steep hills (Movement)."""


def rates_for(unit: Unit) -> RateTable:
    """The ground a unit may move over (B55)."""
    if unit.formation is Formation.UNLIMBERED:
        return DEPLOYED_GUN_RATES
    if unit.formation is Formation.LIMBERED:
        return GUN_RATES
    return FOOT_RATES


def bases_of(unit: Unit) -> int:
    """How many bases the unit stands on: one per section for artillery; otherwise its size
    over the figures a 60 mm base holds at the density it is based at (rounded up)."""
    if unit.is_artillery:
        return unit.sections
    return max(1, math.ceil(unit.size / unit.based_density))


def shape(unit: Unit) -> Shape:
    """The unit's bases, their frontage and depth, their layout and the spacing between
    them: deployed foot and horse in line, their bases spaced out when separated to a lower
    density than they are based at; a column one base behind another; guns unlimbered side
    by side, limbered one behind another (B51)."""
    bases = bases_of(unit)
    if unit.is_artillery:
        if unit.formation is Formation.LIMBERED:
            return Shape(bases, LIMBER_FRONTAGE, LIMBER_DEPTH, Layout.LIMBERED, None)
        return Shape(bases, BASE_FRONTAGE, GUN_DEPTH, Layout.DEPLOYED, 0.0)
    depth = HORSE_DEPTH if unit.is_cavalry else FOOT_DEPTH
    if unit.formation is Formation.COLUMN:
        return Shape(bases, BASE_FRONTAGE, depth, Layout.COLUMN, 0.0)
    gap = BASE_FRONTAGE * (unit.based_density / unit.density - 1)
    return Shape(bases, BASE_FRONTAGE, depth, Layout.LINE, gap)


def stands(unit: Unit) -> bool:
    """Whether a unit stands on the table (has a footprint): destroyed units leave it
    (Bloodybacks 9.3, Morale: results table; a rout off the table)."""
    return not unit.destroyed


def commander_with(commander: Commander) -> str | None:
    """The unit a commander rides with (None: alone, at his own mark)."""
    return commander.attached_to


def commander_stands(commander: Commander) -> bool:
    """A commander removed (killed, wounded, captured) leaves the table."""
    return not commander.removed


RULES = TableRules(
    name="bloodybacks93",
    shape=shape,
    stands=stands,
    measure=Measure.INCHES,
    sight=SIGHT,
    half_angle=HALF_ARC,
    anchor=Anchor.CENTRE,
    commander_with=commander_with,
    commander_stands=commander_stands,
    rates=rates_for,
)
"""Bloodybacks as the table sees it: footprints from bases and formation (B51), reforming
about the centre and shifted back onto the table where the new formation would overhang an
edge, the arc and sight of B52, the ground of B55."""


def footprint(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """The unit's footprint with its centre at (x, y) facing ``facing`` (degrees, compass)
    (``shape``; B51)."""
    return RULES.footprint(unit, x, y, facing, label=unit.name)


def fits(unit: Unit, old: Footprint) -> bool:
    """Whether ``old`` is already the unit's footprint where it stands (``refit`` would give
    it back)."""
    return shape(unit).matches(old) and (old.side, old.label) == (unit.side, unit.name)


def refit(unit: Unit, old: Footprint) -> Footprint:
    """The unit's footprint where ``old`` stands (same centre and facing)."""
    return footprint(unit, old.x, old.y, old.facing)


def table_for(units: tuple[Unit, ...], commanders: tuple[Commander, ...], table: Table) -> Table:
    """The table with each unit's footprint made from its bases and formation, at the
    position and facing the given table has for it; every unit not destroyed must be on it.
    Commanders attached to a unit ride with it; others keep the mark given them."""
    check_deployed(table, units, on_table=stands, commanders=commanders, blank_sides=True)
    placed = []
    for unit in units:
        if unit.destroyed:
            continue
        given = table.units.get(unit.id)
        if given is None:
            raise InvalidValueError(
                "table.footprints", unit.id, "a footprint for every unit not destroyed")
        placed.append(refit(unit, given))
    marks = []
    for leader in commanders:
        if leader.removed:
            continue
        if leader.attached_to is not None:
            marks.append(CommanderMark(leader.id, attached_to=leader.attached_to,
                                       side=leader.side, label=leader.name))
            continue
        try:
            marks.append(table.commander(leader.id))
        except InvalidValueError:
            raise InvalidValueError(
                "table.commanders", leader.id,
                "a mark for every commander not attached to a unit") from None
    return attrs.evolve(table, footprints=tuple(placed), commanders=tuple(marks))
