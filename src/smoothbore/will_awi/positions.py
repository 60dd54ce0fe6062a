"""Will's AWI units on a table (Rules - Introduction: Units and bases, Formations): the
footprint of each unit from its bases and formation, the deployment of a battle, and the one
helper that keeps the table's footprints in step with the units.

Every unit has two 45 mm x 45 mm bases (25 mm figures): foot and cavalry side by side in line
or one behind the other in column; a gun is a gun base and a limber base (limbered: one
behind the other; deployed: the gun base alone stands on the table, its limber is parked
behind and is no target); a wagon is one double-sized base. Measures are inches."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from smoothbore.core import InvalidValueError
from smoothbore.table import CommanderMark, Edge, Footprint, Formation, Table, Trace, deployment

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


def _matches(unit: Unit, found: Footprint) -> bool:
    formation, bases, frontage, depth = layout_of(unit)
    return (found.formation is formation and found.bases == bases
            and found.frontage == frontage and found.depth == depth)


def synced(table: Table, units: tuple[Unit, ...]) -> Table:
    """The table with its footprints in step with the units: units gone from the table
    (eliminated, surrendered, routed off) taken off, a change of formation or limbering
    laid out about the same centre and facing. The very same table when nothing changed, so
    what was derived from it is kept."""
    on = table.units
    gone: list[str] = []
    changed: list[Footprint] = []
    for unit in units:
        found = on.get(unit.id)
        if found is None:
            continue
        if not unit.on_table:
            gone.append(unit.id)
        elif not _matches(unit, found):
            changed.append(relaid(table, unit))
    if not gone and not changed:
        return table
    if changed:
        table = table.placed(*changed)
    if gone:
        table = table.removed(*gone)
    return table


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
    on his side; formations are brought in step with the units."""
    deployment.check_deployed(table, units, on_table=_on_table, commanders=commanders)
    return synced(table, units)


def marks_synced(table: Table, commanders: tuple[Commander, ...]) -> Table:
    """The table with its generals' marks in step with the generals: one who joined a unit
    on the table rides with it; one who left it stays alone at its centre; one dead,
    captured or incapacitated leaves the table. The very same table when nothing changed."""
    if not table.commanders:
        return table
    by_id = {c.id: c for c in commanders}
    marks: list[CommanderMark] = []
    moved: list[CommanderMark] = []
    fallen = False
    for mark in table.commanders:
        general = by_id.get(mark.commander_id)
        if general is not None and not general.active:
            fallen = True
            continue
        if general is not None:
            wanted = general.attached_to if general.attached_to in table.units else None
            if wanted != mark.attached_to:
                if wanted is not None:
                    mark = attrs.evolve(mark, attached_to=wanted)
                else:
                    x, y = table.commander_point(mark.commander_id)
                    mark = attrs.evolve(mark, attached_to=None, x=x, y=y)
                moved.append(mark)
        marks.append(mark)
    if fallen:
        return attrs.evolve(table, commanders=tuple(marks))
    # the same units: the table keeps what it worked out of their footprints
    return table.with_commanders(*moved) if moved else table
