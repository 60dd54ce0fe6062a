"""Bolt Action ACW as the table sees it (``RULES``, the table seam of issue 29): each unit's
footprint from its type, formation and bases (Unit Sizes; interpretation A22), whether it
stands, the unit a commander rides with, the arc it fires in and the rates it moves at over
the terrain (Terrain Movement Modifiers). The engine keeps the table in step with the units
(``KeptInStep(RULES)``); a unit changing formation is laid about its front edge (A33)."""

from __future__ import annotations

import functools
from fractions import Fraction

from smoothbore.table import CrossingCost, Footprint, Measure, RateTable, Table, TerrainKind
from smoothbore.table import Formation as Layout
from smoothbore.table.paths import Combine
from smoothbore.table.seam import Anchor, Shape, TableRules

from .rules import RULE_RIVERS
from .units import Commander, Formation, Unit, UnitType

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


def shape(unit: Unit) -> Shape:
    """The ``Shape`` of the unit's footprint: its bases (at least one) laid out in its
    formation, each of the size A22 gives its type and formation."""
    return _shape(unit.kind, unit.formation, max(1, unit.bases))


@functools.lru_cache(maxsize=256)
def _shape(kind: UnitType, formation: Formation, bases: int) -> Shape:
    """A shape, made once for each type, formation and number of bases (small immutable
    values: nothing of a table or a state)."""
    frontage, depth, layout = BASE_SIZES[kind, formation]
    return Shape(bases, frontage, depth, layout)


def stands(unit: Unit) -> bool:
    """Whether a unit stands on the table (has a footprint): lost units, destroyed or gone
    home after a failed army test, leave it."""
    return not unit.lost


def with_unit(commander: Commander) -> str | None:
    """The unit a commander rides with (None: riding alone, A14)."""
    return commander.with_unit


def half_angle(unit: Unit) -> float:
    """The arc either side of straight ahead a unit fires in: skirmishers all round
    (Shooting), others 45 degrees (A24)."""
    return 180.0 if unit.skirmishing else 45.0


WOODS = frozenset({TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS})
LINEAR = frozenset({TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.STREAM,
                    TerrainKind.FIELDWORK})
_HALF = Fraction(1, 2)
_CROSSING = CrossingCost(share=_HALF)
_NO_GO = {TerrainKind.RIVER: None, TerrainKind.IMPASSABLE: None, TerrainKind.BUILDING: None}
FORMED = RateTable(
    speeds={TerrainKind.LIGHT_WOODS: _HALF, TerrainKind.DENSE_WOODS: _HALF, **_NO_GO},
    passages={kind: _CROSSING for kind in LINEAR}, combine=Combine.SLOWEST, rule=RULE_RIVERS)
"""Formed units (Terrain Movement Modifiers): half speed in woods, half a move to cross a
linear obstacle, major rivers only at crossing points (fords and bridges hide the river)."""
COLUMN = RateTable(
    speeds={TerrainKind.LIGHT_WOODS: _HALF, TerrainKind.DENSE_WOODS: _HALF,
            TerrainKind.ROAD: Fraction(2), **_NO_GO},
    passages={kind: _CROSSING for kind in LINEAR}, combine=Combine.SLOWEST,
    masks={TerrainKind.ROAD: WOODS}, rule=RULE_RIVERS)
"""A column: as formed units, and double speed on a road (a road through woods too)."""
SKIRMISH = RateTable(speeds=_NO_GO, rule=RULE_RIVERS)
"""Skirmishers ignore every movement penalty except major rivers."""


def rates(unit: Unit) -> RateTable:
    """The rates a unit moves at over the table's terrain (Terrain Movement Modifiers)."""
    if unit.skirmishing:
        return SKIRMISH
    return COLUMN if unit.formation is Formation.COLUMN else FORMED


RULES = TableRules(name="boltaction_acw", shape=shape, stands=stands,
                   measure=Measure.INCHES, half_angle=half_angle, anchor=Anchor.CENTRE,
                   commander_with=with_unit, rates=rates)
"""Bolt Action ACW as the table sees it (issue 29): the engine keeps the table in step with
the units through ``KeptInStep(RULES)`` after every step, whatever the handler called: a
lost unit's footprint leaves, a unit that lost bases is re-laid about its centre, commanders'
marks ride with the unit each is with. A unit changing formation is laid by its order about
its front edge (``relaid``, A33) before the keeping sees it."""


def footprint(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """The unit's footprint with its centre at (``x``, ``y``), facing ``facing`` degrees:
    its bases laid out in its formation (A22)."""
    return RULES.footprint(unit, float(x), float(y), float(facing), label=unit.name)


def relaid(table: Table, unit: Unit) -> Footprint:
    """The unit's footprint in its new formation (or mounted, or limbered) where it stands:
    its front edge kept where it was, the new footprint laid behind it ("No advance can be
    made", Orders, 4; A33), and kept on the table."""
    old = table.footprint(unit.id)
    new = footprint(unit, old.x, old.y, old.facing)
    x, y = old.to_table(0.0, (old.length - new.length) / 2)
    return fitted(table, new.moved_to(x, y))


def fitted(table: Table, new: Footprint) -> Footprint:
    """``new`` shifted the least that puts it wholly on the table (a unit reforming at the
    table edge stays on it)."""
    if table.holds(new):
        return new
    x0, y0, x1, y1 = new.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    return new.moved_to(new.x + dx, new.y + dy)
