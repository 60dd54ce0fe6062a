"""McKie ACW units on a table (``smoothbore.table``): each unit's footprint from its figures'
bases and its formation, the movement rates through terrain as a ``RateTable``, what blocks
sight, the ground a unit stands on, and McKie as the table sees it (``RULES``, the table
seam), with which the engine keeps the table's footprints in step with the units after
every step. All lengths are millimetres (Base sizes; Movement)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

import numpy
import numpy.typing as npt

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    OBSTACLES,
    CrossingCost,
    Edge,
    Footprint,
    Measure,
    RateTable,
    Region,
    Regions,
    SightRules,
    Table,
    TerrainKind,
    area_shares,
    crossing_line,
    holding,
    outline_of,
    region_of,
)
from smoothbore.table import Formation as Layout
from smoothbore.table.footprints import bearing_vectors
from smoothbore.table.seam import Anchor, Shape, TableRules, keep_in_step
from smoothbore.table.terrain import TerrainIndex

from . import rules
from .firing import ARC, COLUMN_FRONT, VISIBLE_WITHIN
from .state import State, corps_of
from .tables import DEFAULT_TABLES, Tables
from .units import Arm, Commander, Formation, Ground, Unit, changed

K = TerrainKind
A = TypeVar("A")

SKIRMISH_GAP = Fraction(1, 2)
"""Skirmish order: half a base's frontage between figures (the text gives no interval)."""
LIMBER_DEPTH = 2
"""A limbered gun model takes twice its base's depth (gun and limber), an interpretation."""

SIGHT = SightRules(blocking=frozenset({K.BUILDING}), hills_block=True, units_block=False,
                   see_into={K.DENSE_WOODS: VISIBLE_WITHIN, K.BUILDING: VISIBLE_WITHIN})
"""Visibility: buildings (towns) and hills higher than both ends block sight; troops in dense
woods and towns see and are seen only within 20 mm of the edge. Units do not block: fire over
intervening troops is a firing restriction (only from higher ground)."""

_COMMON: dict[Any, Any] = {
    K.RIVER: None, K.IMPASSABLE: None, K.FORD: Fraction(1, 2), K.ROUGH: Fraction(1, 2),
    K.SWAMP: Fraction(1, 2), K.STEEP_HILL: Fraction(1, 2),
}
_CROSSINGS: dict[Any, CrossingCost | None] = {
    K.STREAM: CrossingCost(share=Fraction(1, 4)), K.FENCE: CrossingCost(share=Fraction(1, 4)),
    K.WALL: CrossingCost(share=Fraction(1, 4)), K.FIELDWORK: CrossingCost(share=Fraction(1, 4)),
}
FOOT_RATES = RateTable(speeds={**_COMMON, K.DENSE_WOODS: Fraction(1, 2)},
                       passages=_CROSSINGS, rule=rules.DENSE_WOODS)
"""Foot (and dismounted cavalry): half rate in dense woods (Movement); half in rough ground,
swamp, steep hills and fords, a quarter of the move to cross a stream, fence, wall or work;
rivers impassable but at fords and bridges (interpretation M30)."""
MOUNTED_RATES = RateTable(speeds={**_COMMON, K.DENSE_WOODS: None}, passages=_CROSSINGS,
                          rule=rules.DENSE_WOODS)
"""Cavalry mounted and artillery: never in dense woods (only foot move there), otherwise as
foot."""


def rates_for(unit: Unit) -> RateTable:
    """The movement rates through terrain of a unit."""
    return FOOT_RATES if unit.arm is Arm.FOOT else MOUNTED_RATES


@functools.lru_cache(maxsize=1024)
def _shape(arm: Arm, formation: Formation, figures: int, mounted: bool, limbered: bool,
           tables: Tables) -> tuple[Layout, int, float, float, float | None]:
    """(layout, bases, frontage, depth, spacing) of the footprint (Base sizes, reconstructed
    in data/bases.toml; Formation and strength of units)."""
    if arm is Arm.ARTILLERY:
        w, d = tables.base("gun")
        if limbered:
            return Layout.LIMBERED, 1, float(w), float(d * LIMBER_DEPTH), None
        return Layout.DEPLOYED, 1, float(w), float(d), None
    w, d = tables.base("cavalry" if mounted else "foot")
    n = max(1, figures)
    if formation is Formation.SKIRMISH:
        return Layout.SKIRMISH, n, float(w), float(d), float(w * SKIRMISH_GAP)
    if formation is Formation.COLUMN:
        files = min(COLUMN_FRONT, n)
        return Layout.COLUMN, math.ceil(n / files), float(w * files), float(d), None
    return Layout.LINE, math.ceil(n / 2), float(w), float(2 * d), None  # two ranks


def _shape_of(unit: Unit, tables: Tables) -> tuple[Layout, int, float, float, float | None]:
    return _shape(unit.arm, unit.formation, unit.figures - unit.horseholders, unit.mounted,
                  unit.limbered, tables)


def footprint(unit: Unit, x: float, y: float, facing: float,
              tables: Tables = DEFAULT_TABLES) -> Footprint:
    """The unit's footprint centred on (x, y) mm, facing ``facing`` degrees: a line is its
    front-rank figures abreast, two ranks deep; a column four figures wide (M12); skirmishers
    every figure abreast with half a base between; dismounted cavalry on foot bases less its
    horse holders; a gun model one base (twice as deep limbered)."""
    layout, bases, frontage, depth, spacing = _shape_of(unit, tables)
    return Footprint(unit.id, x, y, facing, bases, frontage, depth, layout, spacing,
                     unit.side, unit.name)


def home_heading(table: Table, fp: Footprint) -> float:
    """The compass heading towards a unit's home edge (straight back where none is set)."""
    edge = table.home_edge(fp.side)
    if edge is None:
        return (fp.facing + 180.0) % 360.0
    return {Edge.NEAR: 180.0, Edge.FAR: 0.0, Edge.LEFT: 270.0, Edge.RIGHT: 90.0}[edge]


TRAIN_BEHIND = 100
"""Ammunition: the train kept "behind each corps": by default 100 mm (500 yards) behind the
middle of the corps (the mean of its units' centres), towards its home edge (M10)."""


def trains_behind(table: Table, state: State, given: Mapping[str, tuple[float, float]]
                  ) -> tuple[tuple[str, float, float], ...]:
    """Where each corps' ammunition train stands on the table (corps commander, x, y): as
    ``given``, else ``TRAIN_BEHIND`` mm behind the middle of the corps (the mean of its
    units' centres at deployment) towards its home edge, kept on the table (M10). Trains do
    not move."""
    corps: dict[str, list[Footprint]] = {}
    for unit in state.units:
        fp = table.units.get(unit.id)
        if fp is not None:
            corps.setdefault(corps_of(state, unit), []).append(fp)
    for name in given:
        if name not in corps and name not in {c.id for c in state.commanders}:
            raise InvalidValueError("trains", name, "a corps commander's id")
    out = []
    for name in sorted(set(corps) | set(given)):
        if name in given:
            x, y = given[name]
            if not (0 <= x <= table.width and 0 <= y <= table.depth):
                raise InvalidValueError(f"trains[{name}]", (x, y), "a point on the table")
        else:
            fps = corps[name]
            (hx, hy), _ = bearing_vectors(home_heading(table, fps[0]))
            mx, my = sum(f.x for f in fps) / len(fps), sum(f.y for f in fps) / len(fps)
            depth = mx * hx + my * hy + TRAIN_BEHIND  # behind the middle of the corps
            across = mx * -hy + my * hx
            x, y = depth * hx - across * hy, depth * hy + across * hx
            x = round(min(max(x, 1.0), table.width - 1.0), 3)  # to the thousandth of a mm
            y = round(min(max(y, 1.0), table.depth - 1.0), 3)
        out.append((name, float(x), float(y)))
    return tuple(out)


def train_of(state: State, unit: Unit) -> tuple[float, float] | None:
    """Where the ammunition train serving ``unit`` stands (None: no table, or no place)."""
    corps = corps_of(state, unit)
    return next(((x, y) for c, x, y in state.extra.trains if c == corps), None)


def fit_on(table: Table, fp: Footprint) -> Footprint:
    """The footprint shifted back onto the table where a new formation overhangs an edge."""
    x0, y0, x1, y1 = fp.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    return fp.moved_to(fp.x + dx, fp.y + dy) if dx or dy else fp


def newly_over(table: Table, fp: Footprint, shape: Region) -> Footprint | None:
    """The first other unit's footprint that ``shape`` (where ``fp``'s unit would stand, or
    the ground it would sweep) shares ground with and ``fp`` does not share ground with
    already (outlines); None when clear (no unit passes through or ends on another, M34)."""
    x0, y0, x1, y1 = shape.bounds
    others = table.footprints
    boxes = kept(table, footprint_boxes)
    near = numpy.flatnonzero((boxes[:, 2] > x0) & (boxes[:, 0] < x1) & (boxes[:, 3] > y0)
                             & (boxes[:, 1] < y1))
    start: Region | None = None
    for i in near.tolist():  # the footprints whose bounds meet the shape's, in table order
        other = others[i]
        if other.unit_id == fp.unit_id:
            continue
        there = outline_of(other)
        if shape.shares_ground(there):
            start = outline_of(fp) if start is None else start
            if not start.shares_ground(there):
                return other
    return None


def footprint_boxes(table: Table) -> npt.NDArray[numpy.float64]:
    """The bounds of the table's footprints, row by row in the table's order (n, 4): the
    box test before any outline is asked (``kept``: once for each set of footprints)."""
    return numpy.array([f.bounds for f in table.footprints], dtype=float).reshape(-1, 4)


def synced(state: State) -> State:
    """The state with its table in step with its units, comparing nothing with a state
    before (``keep_in_step`` with ``RULES``, as the engine's hook does after every step):
    what a handler calls mid-step when a later rule reads the table (a melee's losses
    re-lay the units before the follow-up is judged) and what a new battle is laid out
    with."""
    kept_state: State = keep_in_step(RULES, None, state)
    return kept_state


def kept(table: Table, query: Callable[[Table], A]) -> A:
    """``query(table)`` for a ``query`` that reads only the table's ground and footprints,
    never its commanders' marks or traces: worked out once a table (``Table.derived``) and
    carried to the later tables of the battle with the same footprints (a general who rides
    makes a new table with every unit where it stood) through the table's one store
    (``mckie_acw: by footprints``, keyed by the query and the footprints)."""
    answers = table.derived(_kept_answers)
    found = answers.get(query, _MISSING)
    if found is _MISSING:  # as ``derive`` fills a value's memo: each answer written once
        key = (query.__module__, query.__qualname__, table.derived(footprints_key))
        found = answers[query] = table.store(STORE_BY_FOOTPRINTS).ask(
            key, lambda: query(table))
    return found  # type: ignore[no-any-return]


STORE_BY_FOOTPRINTS = "mckie_acw: by footprints"
"""The store of what ``kept`` carries between tables with the same footprints."""
_MISSING: Any = object()


class Key:
    """A store's key made of ``parts``, its hash worked out once (a store looks a key up in
    each of its generations; a tuple of footprints would be hashed afresh each time)."""

    __slots__ = ("hashed", "parts")

    def __init__(self, *parts: Any) -> None:
        self.parts = parts
        self.hashed = hash(parts)

    def __hash__(self) -> int:
        return self.hashed

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Key) and other.hashed == self.hashed
                                 and other.parts == self.parts)


class Same:
    """A part of a store's key that is the very object ``value`` (hashed and compared by
    identity, and held, so its identity is not reused): for an answer handed out by a store
    (the enemies near a unit), the same object while that store's answer holds. A value
    equal but not the same misses, and is worked out again: never a wrong answer."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


def footprints_key(table: Table) -> Key:
    """The table's footprints as a key (once a table)."""
    return Key(table.footprints)


def _kept_answers(table: Table) -> dict[Any, Any]:
    """What ``kept`` found for this table, by query (each answer written once)."""
    return {}


def unit_shape(unit: Unit, tables: Tables = DEFAULT_TABLES) -> Shape:
    """The ``Shape`` of a unit's footprint (as ``footprint`` lays it)."""
    layout, bases, frontage, depth, spacing = _shape_of(unit, tables)
    return Shape(bases, frontage, depth, layout, spacing)


def shape_in(unit: Unit, state: State | None) -> Shape:
    """The ``Shape`` of a unit's footprint with the battle's own base sizes (McKie's bases
    are replaceable data, ``Options.tables``; the reconstruction's without a battle)."""
    return unit_shape(unit, DEFAULT_TABLES if state is None else state.options.tables)


def stands(unit: Unit) -> bool:
    """Whether a unit stands on the table (has a footprint): units destroyed, surrendered or
    gone off the table leave it."""
    return unit.on_table


def commander_with(commander: Commander) -> str | None:
    """The unit a general is with (None: riding alone)."""
    return commander.attached_to or None


def commander_stands(commander: Commander) -> bool:
    """Whether a general is still in the battle (not fallen or captured)."""
    return commander.active


def regrounded_all(state: State, unit_ids: tuple[str, ...]) -> State:
    """The state with each of these units (whose footprints were re-laid) standing on the
    ground the table shows where it now stands (a column formed may reach dense woods the
    line did not, M31)."""
    table = state.extra.table
    if table is None:
        return state
    moved = [changed(u, ground=g) for uid in unit_ids
             if (g := ground_of(table, u := state.unit(uid))) is not u.ground]
    return state.with_units(*moved) if moved else state


RULES = TableRules(
    "mckie_acw", shape=shape_in, shape_reads_state=True, stands=stands,
    measure=Measure.MILLIMETRES, sight=SIGHT, half_angle=ARC, anchor=Anchor.CENTRE,
    commander_with=commander_with, commander_stands=commander_stands, rates=rates_for,
    fit_on=True, relaid=regrounded_all)
"""McKie ACW as the table sees it (the table seam, ``smoothbore.table.seam``): footprints
from formation and the battle's bases (Base sizes; Formation and strength of units), re-laid
about their centre and shifted back onto the table (M29) and re-grounded (M31), lost units
off the table, generals' marks with the unit each is with, millimetres, the sight rules
(Visibility), the 45-degree arc and the movement rates (Movement)."""


def ground_of(table: Table, unit: Unit) -> Ground:
    """The ground a unit stands on (``ground_at`` its footprint)."""
    return ground_at(table, table.footprint(unit.id), unit.arm)


NEAR = 20
"""An obstacle within 20 mm (100 yards) of a unit covers it (in front of its front edge,
or on the line of fire before it)."""


def ground_at(table: Table, fp: Footprint, arm: Arm) -> Ground:
    """The ground a footprint stands on, as the rules care: a town (its centre in a
    building), permanent defenses (its centre in a fieldwork area), dense woods (foot with
    half its footprint in them), cover (half in woods), behind an obstacle (a fence, wall,
    stream or linear work within 20 mm in front), or open ground (interpretation M31)."""
    terrain = table.terrain
    areas, lines = _nearby(terrain, fp)
    if not areas and not lines:
        return Ground.OPEN
    woods = {K.DENSE_WOODS: 0.0, K.LIGHT_WOODS: 0.0}
    if areas:
        found = _in_areas(table, fp, areas, woods)
        if found is not None:
            return found
    if woods[K.DENSE_WOODS] >= 0.5:
        return Ground.DENSE_WOODS if arm is Arm.FOOT else Ground.COVER
    if woods[K.DENSE_WOODS] + woods[K.LIGHT_WOODS] >= 0.5:
        return Ground.COVER
    if lines:
        fl, fr = fp.corners[0], fp.corners[1]
        (fx, fy), _ = fp.frame
        strip = Regions.polygons([[fl, fr, (fr[0] + fx * NEAR, fr[1] + fy * NEAR),
                                   (fl[0] + fx * NEAR, fl[1] + fy * NEAR)]])
        if strip.crossing_obstacles(table, OBSTACLES)[0]:
            return Ground.BEHIND_OBSTACLE
    return Ground.OPEN


_HELD = (K.BUILDING, K.FIELDWORK)


def _in_areas(table: Table, fp: Footprint, near: list[int],
              woods: dict[TerrainKind, float]) -> Ground | None:
    """A town or permanent defenses where the footprint's centre is in a building or a
    fieldwork area (None: neither; the first the terrain's index finds), adding to
    ``woods`` the share of the footprint's outline in each kind of woods; ``near``: the
    areas whose bounds meet the footprint's. Where none of them is woods the outline is
    not needed."""
    features = table.terrain.area_features
    if any(features[k].kind in _HELD for k in near):
        held = holding(table, fp.x, fp.y, _HELD)
        if held is not None:
            return Ground.TOWN if held.kind is K.BUILDING else Ground.PERMANENT
    if any(features[k].kind in woods for k in near):
        woods.update(area_shares(table, fp, woods))
    return None


def _nearby(terrain: TerrainIndex, fp: Footprint) -> tuple[list[int], list[int]]:
    """The terrain areas whose bounds meet the footprint's, and the crossed lines whose
    bounds meet those of the strip ``NEAR`` deep in front of it: the areas it may stand in
    and the obstacles that may cover it (what ``ground_at`` asks of the terrain)."""
    x0, y0, x1, y1 = fp.bounds
    areas, lines = _terrain_boxes(terrain)
    near = [k for k, (bx0, by0, bx1, by1) in enumerate(areas)
            if x0 <= bx1 and bx0 <= x1 and y0 <= by1 and by0 <= y1]
    if not lines:
        return near, []
    (fx, fy), (rx, ry) = fp.frame
    w, h = fp.width / 2, fp.length / 2
    xs = [fp.x + su * w * rx + sv * fx for su in (-1.0, 1.0) for sv in (h, h + NEAR)]
    ys = [fp.y + su * w * ry + sv * fy for su in (-1.0, 1.0) for sv in (h, h + NEAR)]
    slack = 1e-6 * (1.0 + max(abs(x0), abs(y0), abs(x1), abs(y1)) + NEAR)
    x0, y0 = min(xs) - slack, min(ys) - slack
    x1, y1 = max(xs) + slack, max(ys) + slack
    return near, [k for k, (bx0, by0, bx1, by1) in enumerate(lines)
                  if x0 <= bx1 and bx0 <= x1 and y0 <= by1 and by0 <= y1]


Box = tuple[float, float, float, float]


@functools.lru_cache(maxsize=64)
def _terrain_boxes(terrain: TerrainIndex) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
    """The bounds of the terrain's areas and of its crossed lines, widened by a hair."""
    areas = [region_of(f).bounds for f in terrain.area_features]
    lines = [line.bounds for f in terrain.crossed_features  # a crossed feature has its line
             if (line := crossing_line(f)) is not None]
    return tuple(tuple((x0 - 1e-6, y0 - 1e-6, x1 + 1e-6, y1 + 1e-6)
                       for x0, y0, x1, y1 in boxes)
                 for boxes in (areas, lines))  # type: ignore[return-value]


def regrounded(state: State, unit_id: str) -> State:
    """The state with the unit standing on the ground the table shows where it now stands
    (after a move made outside the movement step: a charge, a push back, a follow-up, M31)."""
    table = state.extra.table
    if table is None or unit_id not in table.units:
        return state
    unit = state.unit(unit_id)
    ground = ground_of(table, unit)
    return state if ground is unit.ground else state.with_units(changed(unit, ground=ground))


def grounded(state: State) -> State:
    """The state with every unit on the table standing on the ground the table shows."""
    table = state.extra.table
    if table is None:
        return state
    fresh = [changed(u, ground=g) for u in state.units if u.id in table.units
             and (g := ground_of(table, u)) is not u.ground]
    return state.with_units(*fresh) if fresh else state
