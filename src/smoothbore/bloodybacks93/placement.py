"""Units on the table: a Bloodybacks unit's footprint from its bases and formation, and the
table kept in step with the units (Bloodybacks 9.3, Concepts and definitions: Density; the
basing table; interpretation B51).

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
from smoothbore.table import CommanderMark, Footprint, Table, check_deployed
from smoothbore.table import Formation as Layout

from .units import Commander, Formation, Unit

MM = 1 / 25.4
"""One millimetre in inches (the table's measure for Bloodybacks)."""
BASE_FRONTAGE = 60 * MM
FOOT_DEPTH = 30 * MM
HORSE_DEPTH = 50 * MM
GUN_DEPTH = 60 * MM
LIMBER_FRONTAGE = 40 * MM
LIMBER_DEPTH = 100 * MM


def bases_of(unit: Unit) -> int:
    """How many bases the unit stands on: one per section for artillery; otherwise its size
    over the figures a 60 mm base holds at the density it is based at (rounded up)."""
    if unit.is_artillery:
        return unit.sections
    return max(1, math.ceil(unit.size / unit.based_density))


def footprint(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """The unit's footprint with its centre at (x, y) facing ``facing`` (degrees, compass):
    deployed foot and horse in line, their bases spaced out when separated to a lower density
    than they are based at; a column one base behind another; guns unlimbered side by side,
    limbered one behind another (B51)."""
    bases, frontage, depth, layout, spacing = _shape(unit)
    return Footprint(unit.id, x, y, facing, bases, frontage, depth, layout, spacing=spacing,
                     side=unit.side, label=unit.name)


Shape = tuple[int, float, float, Layout, float | None]


def _shape(unit: Unit) -> Shape:
    """The unit's bases, their frontage and depth, their layout and the spacing between
    them (``footprint``)."""
    bases = bases_of(unit)
    if unit.is_artillery:
        if unit.formation is Formation.LIMBERED:
            return (bases, LIMBER_FRONTAGE, LIMBER_DEPTH, Layout.LIMBERED, None)
        return (bases, BASE_FRONTAGE, GUN_DEPTH, Layout.DEPLOYED, 0.0)
    depth = HORSE_DEPTH if unit.is_cavalry else FOOT_DEPTH
    if unit.formation is Formation.COLUMN:
        return (bases, BASE_FRONTAGE, depth, Layout.COLUMN, 0.0)
    gap = BASE_FRONTAGE * (unit.based_density / unit.density - 1)
    return (bases, BASE_FRONTAGE, depth, Layout.LINE, gap)


def fits(unit: Unit, old: Footprint) -> bool:
    """Whether ``old`` is already the unit's footprint where it stands (``refit`` would give
    it back)."""
    return (old.bases, old.frontage, old.depth, old.formation, old.spacing,
            old.side, old.label) == (*_shape(unit), unit.side, unit.name)


def refit(unit: Unit, old: Footprint) -> Footprint:
    """The unit's footprint where ``old`` stands (same centre and facing)."""
    return footprint(unit, old.x, old.y, old.facing)


def _standing(unit: Unit) -> bool:
    """Destroyed units are off the table."""
    return not unit.destroyed


def table_for(units: tuple[Unit, ...], commanders: tuple[Commander, ...], table: Table) -> Table:
    """The table with each unit's footprint made from its bases and formation, at the
    position and facing the given table has for it; every unit not destroyed must be on it.
    Commanders attached to a unit ride with it; others keep the mark given them."""
    check_deployed(table, units, on_table=_standing, commanders=commanders, blank_sides=True)
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


def in_step(table: Table, units: tuple[Unit, ...], commanders: tuple[Commander, ...]) -> Table:
    """The table in step with the units and commanders: destroyed units taken off, footprints
    refitted where a unit's formation, density, size or sections changed, commanders' marks
    following their attachments. The very same table when nothing geometric changed (what
    was derived from it survives)."""
    gone = [u.id for u in units if u.destroyed and u.id in table.units]
    current = table.removed(*gone) if gone else table
    refitted = []
    for unit in units:
        old = current.units.get(unit.id)
        if old is None or fits(unit, old):
            continue
        refitted.append(onto(current, refit(unit, old)))
    if refitted:
        current = current.placed(*refitted)
    on_table = current.units
    wanted = []
    for leader in commanders:
        if leader.removed:
            continue
        attached = leader.attached_to if leader.attached_to in on_table else None
        try:
            mark = current.commander(leader.id)
        except InvalidValueError:
            mark = None
        if mark is not None and mark.attached_to == attached:
            wanted.append(mark)
            continue
        if attached is not None:
            wanted.append(CommanderMark(leader.id, attached_to=attached, side=leader.side,
                                        label=leader.name))
        elif mark is not None and mark.attached_to is not None:
            cx, cy = current.footprint(mark.attached_to).centre
            wanted.append(CommanderMark(leader.id, cx, cy, side=leader.side, label=leader.name))
        elif mark is not None:
            wanted.append(mark)
    if tuple(wanted) == current.commanders:
        return current
    if [m.commander_id for m in wanted] == [m.commander_id for m in current.commanders]:
        # the same commanders in the same order: the new marks put down keep what the table
        # worked out of its units (its layout)
        return current.with_commanders(*wanted)
    return attrs.evolve(current, commanders=tuple(wanted))


def onto(table: Table, footprint: Footprint) -> Footprint:
    """The footprint shifted back onto the table where a new formation would overhang its
    edge (B51)."""
    x0, y0, x1, y1 = footprint.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    if dx == 0 and dy == 0:
        return footprint
    return footprint.moved_to(footprint.x + dx, footprint.y + dy)
