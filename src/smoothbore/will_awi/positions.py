"""Will's AWI units on a table (Rules - Introduction: Units and bases, Formations): the
footprint of each unit from its bases and formation and the deployment of a battle (the
table is kept in step with the units by the engine: ``on_table.RULES``).

Every unit has two 45 mm x 45 mm bases (25 mm figures): foot and cavalry side by side in line
or one behind the other in column; a gun is a gun base and a limber base (limbered: one
behind the other; deployed: the gun base alone stands on the table, its limber is parked
behind and is no target); a wagon is one double-sized base. Measures are inches."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from smoothbore.core import InvalidValueError
from smoothbore.table import Edge, Footprint, Formation, Table, Trace, deployment

from .units import Commander, TroopType, Unit
from .units import Formation as UnitFormation

BASE = 45 / 25.4
"""A base is 45 mm square for 25 mm figures (Rules - Introduction: Units and bases)."""

Place = tuple[float, float, float]
"""Where a unit stands: (x, y) of its centre in inches and its facing in degrees."""


TRACES_KEPT = 12
"""How many of the last moves and shots a table keeps (for drawing)."""


def kept_traces(table: Table) -> tuple[Trace, ...]:
    """The traces a table keeps when one more is added."""
    return table.traces[-(TRACES_KEPT - 1):]


def layout_of(unit: Unit) -> tuple[Formation, int, float, float]:
    """The table's formation, the bases on the table and one base's frontage and depth."""
    return _layout(unit.troop, unit.limbered, unit.formation)


@functools.cache
def _layout(troop: TroopType, limbered: bool,
            formation: UnitFormation) -> tuple[Formation, int, float, float]:
    if troop is TroopType.WAGON:
        return Formation.LIMBERED, 1, BASE, 2 * BASE
    if troop.is_gun:
        if limbered:
            return Formation.LIMBERED, 2, BASE, BASE
        return Formation.DEPLOYED, 1, BASE, BASE
    if formation is UnitFormation.COLUMN:
        return Formation.COLUMN, 2, BASE, BASE
    return Formation.LINE, 2, BASE, BASE


def footprint(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """The unit's footprint with its centre at (x, y), facing ``facing`` degrees."""
    formation, bases, frontage, depth = layout_of(unit)
    return Footprint(unit.id, x, y, facing, bases, frontage, depth, formation,
                     side=unit.side, label=unit.name)


def deploy(units: tuple[Unit, ...], places: Mapping[str, Place], *, width: float = 72.0,
           depth: float = 48.0, features: tuple[object, ...] = (),
           home_edges: Mapping[str, Edge] | None = None) -> Table:
    """A table ``width`` x ``depth`` inches with ``features`` and every unit on the table at
    its place (by unit id)."""
    missing = [u.id for u in units if u.on_table and u.id not in places]
    if missing:
        raise InvalidValueError("places", missing[0], "a place for every unit on the table")
    prints = tuple(footprint(u, *places[u.id]) for u in units if u.on_table)
    return Table(width, depth, features=features, footprints=prints,
                 home_edges=home_edges or {})


def relaid(table: Table, unit: Unit) -> Footprint:
    """The footprint of ``unit`` (in its new formation, limbered or deployed) laid out about
    the centre and facing of its footprint on ``table``, kept wholly on the table."""
    found = table.footprint(unit.id)
    return _kept_on(table, footprint(unit, found.x, found.y, found.facing))


def _kept_on(table: Table, found: Footprint) -> Footprint:
    """A reformed footprint moved the least that puts it wholly on the table (a column
    formed against the table edge stands back from it)."""
    x0, y0, x1, y1 = found.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    return found.moved_to(found.x + dx, found.y + dy) if dx or dy else found


def _on_table(unit: Unit) -> bool:
    """Units off the table (not yet arrived, or gone) have no footprint."""
    return unit.on_table


def check_deployed(table: Table, units: tuple[Unit, ...],
                   commanders: tuple[Commander, ...] = ()) -> Table:
    """A battle's table: every unit on the table has a footprint there (by its id, on its
    side) and nothing else stands on it; every general's mark names a general of the battle,
    on his side (the engine's keeping, ``on_table.RULES``, then brings formations and marks in
    step with the units)."""
    deployment.check_deployed(table, units, on_table=_on_table, commanders=commanders)
    return table
