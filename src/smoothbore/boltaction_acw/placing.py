"""Units on the table: each unit's footprint from its type, formation and bases (Unit Sizes;
interpretation A22), and keeping a table's footprints in step with the units (a unit that
changes formation, loses bases or leaves the battle changes or leaves the table)."""

from __future__ import annotations

from collections.abc import Iterable

from smoothbore.table import Footprint, Table
from smoothbore.table import Formation as Layout

from .units import Formation, Unit, UnitType

BASE_SIZES: dict[tuple[UnitType, Formation], tuple[float, float, Layout]] = {
    (UnitType.INFANTRY, Formation.LINE): (1.5, 1.0, Layout.LINE),
    (UnitType.INFANTRY, Formation.COLUMN): (1.5, 1.0, Layout.COLUMN),
    (UnitType.SKIRMISHERS, Formation.SKIRMISH): (1.0, 1.0, Layout.SKIRMISH),
    (UnitType.CAVALRY, Formation.LINE): (1.5, 2.0, Layout.LINE),
    (UnitType.CAVALRY, Formation.COLUMN): (1.5, 2.0, Layout.COLUMN),
    (UnitType.CAVALRY, Formation.SKIRMISH): (1.0, 1.0, Layout.SKIRMISH),
    (UnitType.ARTILLERY, Formation.UNLIMBERED): (2.0, 2.0, Layout.DEPLOYED),
    (UnitType.ARTILLERY, Formation.LIMBERED): (1.5, 4.0, Layout.LIMBERED),
    (UnitType.WAGON, Formation.COLUMN): (1.5, 3.0, Layout.COLUMN),
}
"""Frontage, depth (inches) and layout of one base, by type and formation. The text gives
figures per base (Unit Sizes) but no base sizes: the sizes are interpretation A22's."""


def footprint(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """The unit's footprint with its centre at (``x``, ``y``), facing ``facing`` degrees:
    its bases laid out in its formation (A22). A destroyed unit has none."""
    frontage, depth, layout = BASE_SIZES[unit.kind, unit.formation]
    return Footprint(unit.id, float(x), float(y), float(facing), max(1, unit.bases), frontage,
                     depth, layout,
                     side=unit.side, label=unit.name)


def _same_shape(old: Footprint, unit: Unit) -> bool:
    frontage, depth, layout = BASE_SIZES[unit.kind, unit.formation]
    return (old.bases == unit.bases and old.formation is layout and old.frontage == frontage
            and old.depth == depth)


def fitted(table: Table, new: Footprint) -> Footprint:
    """``new`` shifted the least that puts it wholly on the table (a unit reforming at the
    table edge stays on it)."""
    if table.holds(new):
        return new
    x0, y0, x1, y1 = new.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    return new.moved_to(new.x + dx, new.y + dy)


def relaid(table: Table, unit: Unit) -> Footprint:
    """The unit's footprint in its new formation (or mounted, or limbered) where it stands:
    its front edge kept where it was, the new footprint laid behind it ("No advance can be
    made", Orders, 4; A33), and kept on the table."""
    old = table.footprint(unit.id)
    new = footprint(unit, old.x, old.y, old.facing)
    x, y = old.to_table(0.0, (old.length - new.length) / 2)
    return fitted(table, new.moved_to(x, y))


def synced(table: Table, units: Iterable[Unit]) -> Table:
    """The table with these units' footprints in step with them: a unit out of the battle
    (destroyed or gone home) taken off, a unit whose bases or formation changed reformed
    about its centre. The very same table when nothing geometric changed (what was derived
    from it stays)."""
    placed: list[Footprint] = []
    gone: list[str] = []
    on = table.units
    for unit in units:
        old = on.get(unit.id)
        if old is None:
            continue
        if unit.lost:
            gone.append(unit.id)
        elif not _same_shape(old, unit):
            placed.append(fitted(table, footprint(unit, old.x, old.y, old.facing)))
    if not placed and not gone:
        return table
    new = table.placed(*placed) if placed else table
    return new.removed(*gone) if gone else new
