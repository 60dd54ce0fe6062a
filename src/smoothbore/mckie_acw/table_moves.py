"""Moves on a table (McKie ACW, Movement; interpretation M34): what the table measures of a
move (``move_facts``), the destinations offered to each unit (``proposed``), and the
footprint moved with its trace (``placed``).

The moves offered are proposals in plain arithmetic (shares of the unit's move ahead,
obliquely and back, turns, and towards the nearest enemy): the check measures the one it is
asked, at the unit's place (``Place``), over the ground alone (its route's cost within the
allowance, the table's edge: ``_ground_move``), which depends only on where the unit stands
and what it is, then against the other units (the outlines it sweeps or ends on, a box test
first; whether it ends nearer the nearest enemy), each other unit once for each place it
stands. A destination not offered is measured alone (``measured``), the same way."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core import IllegalActionError
from smoothbore.table import (
    Feature,
    Footprint,
    ImpassableError,
    Measure,
    MoveTrace,
    PassageKind,
    RateTable,
    Regions,
    Table,
    TerrainKind,
    crossing_line,
    gaps,
    intersecting,
    outline_of,
    region_of,
    regions_of,
    route,
    segment,
    sharing_ground,
    swept,
)
from smoothbore.table.footprints import bearing_vectors, normal_degrees
from smoothbore.table.store import AnswerStore
from smoothbore.table.terrain import terrain_index

from . import rules
from .actions import Move
from .movement import Manoeuvre, Mover, reach
from .positions import (
    FOOT_RATES,
    MOUNTED_RATES,
    Key,
    Same,
    footprint_boxes,
    footprints_key,
    kept,
)
from .state import State, with_extra
from .tables import Tables
from .units import Arm, Unit

_TOL = 1e-6
T = TypeVar("T")
K = TerrainKind


def table_of(state: State) -> Table:
    """The battle's table (only asked in table mode)."""
    table = state.extra.table
    assert table is not None, "asked for a table the battle does not have"
    return table


def whole_mm(length: float) -> int:
    """A length measured to the whole millimetre, rounded up (a target 20.3 mm away is at
    21 mm, beyond a 20 mm band)."""
    return max(0, math.ceil(length - _TOL))


@attrs.frozen
class MoveFacts:
    """What the table measures of a move: the footprint at its ``end``, the ``distance`` its
    centre goes (whole mm), the allowance ``cost`` and the ``allowance`` there was, whether
    it brings the unit nearer the nearest enemy (``advancing``), and whether it goes through
    dense woods."""

    end: Footprint
    distance: int
    cost: float
    allowance: int
    advancing: bool
    dense_woods: bool


Refusal = tuple[str, str, Any]
"""Why a move is refused: (why, rule, the impassable (feature, kind) or None)."""
Measured = MoveFacts | Refusal
"""A move measured: its facts, or why it is refused."""


def move_facts(state: State, unit: Unit, to: tuple[float, float, float],
               manoeuvre: Manoeuvre, double: bool, action: object) -> MoveFacts:
    """The move of ``unit`` to ``to`` (x, y, facing) measured on the table, or the error: the
    route's cost through the terrain at the unit's rates within its allowance (less its
    manoeuvre, doubled for a double move); ground it cannot enter names the feature; a new
    facing is a change of face (a manoeuvre); it ends on the table, through and on no other
    unit. A move offered to the unit is measured at its place (``Place``), any other move
    measured alone (``measured``): the two agree."""
    want = (to, manoeuvre, double)
    wants, place, around = _at_place(state, unit)
    if want not in wants:
        found = measured(state, unit, to, manoeuvre, double)
    else:
        found = place.facts(want, around)
    if isinstance(found, MoveFacts):
        return found
    raise _refused(found, action)


def move_advances(state: State, unit: Unit, to: tuple[float, float, float],
                  manoeuvre: Manoeuvre, double: bool, action: object) -> bool:
    """Whether the move advances (``move_facts(...).advancing``), or the error refusing it:
    the check's question, answered without making the facts of an offered move."""
    want = (to, manoeuvre, double)
    wants, place, around = _at_place(state, unit)
    if want not in wants:
        return move_facts(state, unit, to, manoeuvre, double, action).advancing
    verdict = place.verdict(want, around)
    if isinstance(verdict, tuple):
        raise _refused(verdict, action)
    return verdict


def passes_nearer(state: State, unit: Unit, to: tuple[float, float, float]) -> bool:
    """Whether a move to ``to`` comes nearer an enemy on its way than the unit stood (the
    hull its outline sweeps, from where it stands to ``to``, nearer some enemy's outline
    than its start is to the nearest): a march towards the enemy and past him is an
    advance though it ends further off (Generalship: Activation, "may not voluntarily
    advance"; M34). A move that goes nowhere, or straight away, does not."""
    table = table_of(state)
    start = table.footprint(unit.id)
    length = math.hypot(to[0] - start.x, to[1] - start.y)
    if length <= _TOL:
        return False
    # within the moves offered, the enemies near the unit hold the nearest to its start and
    # to the ground it sweeps (``near_enemies``); further, every enemy is asked
    near = (near_enemies(state, unit) if length <= offer_reach(unit, state.options.tables) - 1.0
            else kept(table, _enemies).get(start.side, ()) if start.side else ())
    enemies = [outline_of(fp) for fp in near if fp.unit_id != unit.id]
    if not enemies:
        return False
    end = start.moved_to(*to)
    gap = float(np.min(gaps(outline_of(start), enemies)))
    passed = float(np.min(gaps(swept(start, end), enemies)))
    return passed < gap - _TOL


def _at_place(state: State, unit: Unit) -> tuple[frozenset[Wanted], Place, Around]:
    """The moves offered to the unit where it stands (by ``to``, manoeuvre, double), its
    place, and what its moves are measured against (kept on the table for each unit: a
    move offered is measured at its place, any other alone)."""
    table = table_of(state)
    tables = state.options.tables
    memo = kept(table, _at_place_memo)
    found = memo.get(unit.id)
    if found is None or found[0] is not unit or found[1] is not tables:
        found = memo[unit.id] = (unit, tables, proposed(state, unit)[1],
                                 place_of(state, unit), _around(state, unit.id))
    return found[2], found[3], found[4]


def _at_place_memo(table: Table) -> dict[str, tuple[Unit, Tables, frozenset[Wanted], Place,
                                                    Around]]:
    """``_at_place`` on this table, by unit id (with the unit and the tables)."""
    return {}


def _refused(refusal: Refusal, action: object) -> IllegalActionError:
    why, rule, impassable = refusal
    if impassable is not None:
        return ImpassableError(action, impassable[0], impassable[1], rule)
    return IllegalActionError(action, why, rule)

# --- one move at a time (any destination) ---------------------------------------------------
Request = tuple[Unit, tuple[float, float, float], Manoeuvre, bool]
"""A move to measure: the unit, ``to``, the manoeuvre, double or not."""


def _key(state: State, unit: Unit, to: tuple[float, float, float], manoeuvre: Manoeuvre,
         double: bool) -> tuple[Any, ...]:
    return (unit.id, Mover.of(unit), to, manoeuvre, double, state.options.tables)


def measured(state: State, unit: Unit, to: tuple[float, float, float],
             manoeuvre: Manoeuvre, double: bool) -> Measured:
    """The move measured alone (kept on the table: the check and the step share it)."""
    key = _key(state, unit, to, manoeuvre, double)
    memo = kept(table_of(state), _move_memo)
    found = memo.get(key)
    if found is None:
        measure_moves(state, ((unit, to, manoeuvre, double),))
        found = memo[key]
    return found  # type: ignore[no-any-return]


def measure_moves(state: State, requests: Any) -> None:
    """Measure many moves at once (the ground alone first, then the other units in one
    vectorised pass) and keep the answers on the table for ``measured``."""
    table = table_of(state)
    memo = kept(table, _move_memo)
    field = kept(table, field_of)
    pending: list[tuple[Any, tuple[Footprint, Footprint, int, float, int, bool]]] = []
    for unit, to, manoeuvre, double in requests:
        key = _key(state, unit, to, manoeuvre, double)
        if key in memo:
            continue
        found = _ground_move(field, table.footprint(unit.id), to, manoeuvre, double,
                             Mover.of(unit), state.options.tables)
        if len(found) == 3:
            memo[key] = found
        else:
            start, pose, *rest = found
            pending.append((key, (start, start.moved_to(*pose), *rest)))
    if not pending:
        return
    cleared = _clearances(table, [(start, end) for _, (start, end, *_) in pending])
    for (key, (start, end, length, cost, allowance, woods)), (crossed, nearer) in zip(
            pending, cleared, strict=True):
        if crossed:
            memo[key] = _crossing(start, crossed)
        else:
            memo[key] = MoveFacts(end, length, cost, allowance, nearer and length > 0, woods)


def _crossing(start: Footprint, crossed: Any) -> Refusal:
    return (f"{start.label or start.unit_id} may not move through or onto "
            f"{', '.join(sorted(crossed))}", rules.MOVEMENT, None)


def _move_memo(table: Table) -> dict[Any, Any]:
    """Moves measured alone on this table (the check's and the step's share them, as do the
    states whose units stand where they stood)."""
    return {}


@attrs.frozen(cache_hash=True)
class Field:
    """The ground of a table: its terrain and size (a key for what depends on them alone),
    and the store of the battle's tables (``store``: not part of the value) that keeps what
    is measured of the ground alone."""

    features: tuple[Feature, ...]
    width: float
    depth: float
    store: AnswerStore | None = attrs.field(default=None, eq=False, hash=False, repr=False)
    ground: Table | None = attrs.field(default=None, eq=False, hash=False, repr=False)
    """A table of the battle's line on this ground (not part of the value): the tables made
    on the ground alone share its terrain index (``Table.on_same_ground``)."""

    def ask(self, key: Any, work: Callable[[], T]) -> T:
        """``work()``, kept under ``key`` in the battle's store (worked out afresh where the
        field has none)."""
        if self.store is None:
            return work()
        return self.store.ask(key, work)


GROUND_STORE = "mckie_acw: ground"
"""What is measured of the ground alone: routes over it, the bounds of its terrain."""


def field_of(table: Table) -> Field:
    """The table's ground (once a table), with the battle's store of ground answers."""
    return Field(table.features, table.width, table.depth,
                 table.store(GROUND_STORE, most=8192, chunk=512), table)


Ground_ = tuple[float, bool] | Refusal
"""A route over the ground alone: (cost, through dense woods), or why not."""


def _over_ground(field: Field, start: tuple[float, float], point: tuple[float, float],
                 rates: RateTable, full: float) -> Ground_:
    """The cost of a straight move of a unit's centre from ``start`` to ``point`` over the
    terrain alone (the ground is paid under the centre, M30): kept in the field's store,
    as it depends neither on the unit's footprint nor on where the other units stand."""
    return field.ask(("route", start, point, rates, full),
                     lambda: _route_over(field, start, point, rates, full))


def _route_over(field: Field, start: tuple[float, float], point: tuple[float, float],
                rates: RateTable, full: float) -> Ground_:
    """``_over_ground`` worked out: the route on the table with the centre alone on it."""
    marker = Footprint("move", start[0], start[1], 0.0, 1, 1e-3, 1e-3)
    table = field.ask(("alone", start), lambda: _alone(field, marker))
    path = route(table, "move", point)
    try:
        cost = rates.cost(path, table, full)
    except ImpassableError as error:
        return error.why, error.rule, (error.feature, error.kind)
    return cost, any(K.DENSE_WOODS in leg.kinds for leg in path.legs)


def _touched(field: Field, x0: float, y0: float, x1: float, y1: float
             ) -> tuple[list[int], Any]:
    """The terrain areas and crossed lines (by their place in ``_boxes``) that a straight
    move of the centre from (x0, y0) to (x1, y1) touches (first by their bounds, then
    exactly), and the segment (None when nothing is near)."""
    lo_x, hi_x = (x0, x1) if x0 <= x1 else (x1, x0)
    lo_y, hi_y = (y0, y1) if y0 <= y1 else (y1, y0)
    boxes, places, _ = _boxes(field)
    near = [k for k, (bx0, by0, bx1, by1) in enumerate(boxes)
            if lo_x <= bx1 and bx0 <= hi_x and lo_y <= by1 and by0 <= hi_y]
    if not near:
        return [], None
    way = segment((x0, y0), (x1, y1))
    hit = intersecting(way, [places[k] for k in near])
    return [k for k, h in zip(near, hit.tolist(), strict=True) if h], way


def _in_the_open(field: Field, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether a straight move of the centre from (x0, y0) to (x1, y1) touches no terrain
    area or crossed line: its route is then one leg over open ground, costing its length."""
    return not _touched(field, x0, y0, x1, y1)[0]


def _over_open_ground(field: Field, x0: float, y0: float, x1: float, y1: float,
                      length: float, rates: RateTable, full: float) -> Ground_ | None:
    """The cost of a straight move of the centre over open ground, crossing at most one line
    once (a fence, a wall, a work; not a stream, which a ford may span), as ``route`` and
    ``RateTable.cost`` find it: the length, plus the line's price if the move goes over it
    (a line at the very start is not crossed). None when the move touches anything else
    (the route must measure it)."""
    touched, way = _touched(field, x0, y0, x1, y1)
    if not touched:
        return length, False
    _, places, lines = _boxes(field)
    if len(touched) > 1 or touched[0] < lines[0]:
        return None
    feature = lines[1][touched[0] - lines[0]]
    if feature.kind is K.STREAM:
        return None
    coords = way.intersection(places[touched[0]]).coordinates
    if len(coords) != 1:
        return None
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    t = ((coords[0, 0] - x0) * dx + (coords[0, 1] - y0) * dy) / length
    if min(1.0, max(0.0, float(t))) <= 1e-12:
        return length, False
    price = rates.passage(feature.kind, PassageKind.CROSS)
    if price is None:
        return None
    total = 0.0 + length / float(Fraction(1))
    total += price.extra + (float(price.share) * full if price.share else 0.0)
    return total, False


def _route_cost(field: Field, mover: Mover, tables: Tables, start: tuple[float, float],
                point: tuple[float, float], length: float) -> Ground_:
    """The cost of a straight move of the centre from ``start`` to ``point`` over the ground
    alone at the mover's rates (M30), or why it may not go."""
    rates = FOOT_RATES if mover.arm is Arm.FOOT else MOUNTED_RATES
    plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
    full = float(plain) if isinstance(plain, int) else 0.0
    ground = _over_open_ground(field, *start, *point, length, rates, full)
    if ground is None:
        ground = _over_ground(field, start, point, rates, full)
    return ground


def ground_cost(state: State, unit: Unit, start: tuple[float, float],
                point: tuple[float, float]) -> float | None:
    """What the unit's centre going straight from ``start`` to ``point`` pays of its move
    over the ground alone, as a move pays it (a gun limbered); None where the ground stops
    it (M30, M35)."""
    length = math.hypot(point[0] - start[0], point[1] - start[1])
    if length <= _TOL:
        return 0.0
    mover = Mover.of(unit)
    if mover.arm is Arm.ARTILLERY:
        mover = mover._replace(limbered=True)
    ground = _route_cost(kept(table_of(state), field_of), mover, state.options.tables, start,
                         point, length)
    return None if len(ground) == 3 else float(ground[0])


def _boxes(field: Field) -> tuple[tuple[tuple[float, float, float, float], ...], Any,
                                  tuple[int, tuple[Feature, ...]]]:
    """The terrain's areas and crossed lines (what a route asks of) and their bounds,
    widened by a hair; and where the lines begin among them, with their features (kept in
    the field's store)."""
    return field.ask(("boxes", field), lambda: _boxes_of(field))


def _boxes_of(field: Field) -> tuple[tuple[tuple[float, float, float, float], ...], Any,
                                     tuple[int, tuple[Feature, ...]]]:
    """``_boxes`` worked out."""
    terrain = (terrain_index(field.features) if field.ground is None
               else field.ground.terrain)
    places = [region_of(f) for f in terrain.area_features]
    places += [line for f in terrain.crossed_features  # a crossed feature has its line
               if (line := crossing_line(f)) is not None]
    slack = 1e-6 * max(field.width, field.depth)
    return (tuple((x0 - slack, y0 - slack, x1 + slack, y1 + slack)
                  for x0, y0, x1, y1 in (p.bounds for p in places)), tuple(places),
            (len(terrain.area_features), tuple(terrain.crossed_features)))


def _alone(field: Field, fp: Footprint) -> Table:
    """The table with one unit on it: what the ground alone allows that unit."""
    if field.ground is not None:
        return field.ground.on_same_ground((fp,))
    return Table(field.width, field.depth, Measure.MILLIMETRES, field.features, (fp,))


def _ground_move(field: Field, fp: Footprint, to: tuple[float, float, float],
                 manoeuvre: Manoeuvre, double: bool, mover: Mover, tables: Tables) -> Any:
    """(start, the end's (x, y, facing), length, cost, allowance, dense woods) of a move the
    ground allows, or (why, rule, impassable feature) of one it does not (kept by the
    unit's ``Place`` and the table's ``_move_memo``: a process-wide memo here hit once in
    1,400 asks over random battles, issue 29). The end is bounded in plain arithmetic
    (``Footprint.bounds`` of the footprint moved there)."""
    x, y, facing = to
    turning = abs(normal_degrees(facing - fp.facing)) > 0.5
    if turning and manoeuvre is not Manoeuvre.FACE:
        return ("a new facing is a change of face, a manoeuvre (25% of the move)",
                rules.MANOEUVRES, None)
    allowance = reach(mover, manoeuvre, double, False, None, tables)
    if not isinstance(allowance, int):
        return allowance[0], allowance[1], None
    pose = (x, y, normal_degrees(facing) % 360.0)
    x0, y0, x1, y1 = _bounds(fp, *pose)
    width, depth = field.width, field.depth
    tol = 1e-7 * max(width, depth)
    if x0 < -tol or y0 < -tol or x1 > width + tol or y1 > depth + tol:
        return "the unit must end on the table", rules.MOVEMENT, None
    length = math.hypot(x - fp.x, y - fp.y)
    cost, woods = 0.0, False
    if length > _TOL:
        ground = _route_cost(field, mover, tables, (fp.x, fp.y), (x, y), length)
        if len(ground) == 3:
            return ground
        cost, woods = ground
    if cost > allowance + 1e-6 * max(1.0, allowance):
        return (f"the route costs {cost:.0f} mm of {mover.name}'s move ({allowance})",
                rules.MOVEMENT, None)
    return fp, pose, whole_mm(length) if length > _TOL else 0, cost, allowance, woods


def _bounds(fp: Footprint, x: float, y: float, facing: float
            ) -> tuple[float, float, float, float]:
    """``fp.moved_to(x, y, facing).bounds``, without making the footprint."""
    (fx, fy), (rx, ry) = bearing_vectors(facing)
    w, h = _halves(fp)
    ex, ey = abs(w * rx) + abs(h * fx), abs(w * ry) + abs(h * fy)
    return (x - ex, y - ey, x + ex, y + ey)


def _corners(fp: Footprint, poses: list[tuple[float, float, float]]) -> Any:
    """The corners (as ``Footprint.corners``) of ``fp`` moved to each of ``poses``, an (n, 4,
    2) array, without making the footprints."""
    w, h = _halves(fp)
    u = np.array([-w, w, w, -w])
    v = np.array([h, h, -h, -h])
    frames = [bearing_vectors(f) for _, _, f in poses]
    x = np.array([[p[0]] for p in poses])
    y = np.array([[p[1]] for p in poses])
    fx = np.array([[f[0][0]] for f in frames])
    fy = np.array([[f[0][1]] for f in frames])
    rx = np.array([[f[1][0]] for f in frames])
    ry = np.array([[f[1][1]] for f in frames])
    return np.stack([x + u * rx + v * fx, y + u * ry + v * fy], axis=-1)


def _clearances(table: Table, moves: list[tuple[Footprint, Footprint]]
                ) -> list[tuple[set[str], bool]]:
    """For each move (start, end): the other units whose outline the move sweeps (the hull of
    its outlines at both ends) or ends on, less those it overlapped at the start; and whether
    it ends nearer the nearest enemy's outline. The sweeps in one pass over the pairs whose
    bounds meet (sharing ground implies meeting), on the footprints' outlines."""
    fps, sides, outlines, boxes = kept(table, _outlines)
    index = {f.unit_id: i for i, f in enumerate(fps)}
    rows = np.array([index[s.unit_id] for s, _ in moves], dtype=np.intp)
    points = np.stack([np.concatenate([s.corners, e.corners]) for s, e in moves])
    lo, hi = points.min(axis=1), points.max(axis=1)
    slack = 1e-6 * (1.0 + np.abs(points).max())
    meet = ((lo[:, np.newaxis, 0] <= boxes[np.newaxis, :, 2] + slack)
            & (lo[:, np.newaxis, 1] <= boxes[np.newaxis, :, 3] + slack)
            & (hi[:, np.newaxis, 0] >= boxes[np.newaxis, :, 0] - slack)
            & (hi[:, np.newaxis, 1] >= boxes[np.newaxis, :, 1] - slack))
    meet[np.arange(len(moves)), rows] = False
    p, u = np.nonzero(meet)
    crossed: list[set[str]] = [set() for _ in moves]
    if len(p):
        theirs = regions_of([fps[j] for j in u.tolist()], outlines=True)
        inner = Regions.hulls(points[p]).shares_ground_each(theirs)
        already = regions_of([fps[r] for r in rows[p].tolist()],
                             outlines=True).shares_ground_each(theirs)
        for i, j in zip(p[inner & ~already].tolist(), u[inner & ~already].tolist(),
                        strict=True):
            crossed[i].add(fps[j].unit_id)
    ends = Regions.polygons(np.stack([e.corners for _, e in moves]))
    nearer = []
    for i, (start, _) in enumerate(moves):
        side = start.side
        enemy = (sides != side) & (sides != "") if side else np.zeros(len(fps), dtype=bool)
        if not enemy.any():
            nearer.append(False)
            continue
        after = float(outlines.distances(ends[i])[enemy].min())
        before = float(outlines.distances(outline_of(start))[enemy].min())
        nearer.append(after < before - _TOL)
    return list(zip(crossed, nearer, strict=True))


def _outlines(table: Table) -> tuple[tuple[Footprint, ...], Any, Regions, Any]:
    """The footprints, their sides, their outlines and their bounds (once a table)."""
    fps = table.footprints
    sides = np.array([f.side for f in fps], dtype=object)
    return fps, sides, regions_of(fps, outlines=True), footprint_boxes(table)


# --- the moves offered ------------------------------------------------------------------------
Wanted = tuple[tuple[float, float, float], Manoeuvre, bool]
"""A move offered: ``to``, the manoeuvre (none, or a change of face), double or not."""
STEPS = ((0.0, (Fraction(1, 2), Fraction(1)), (Fraction(1),)),
         (30.0, (Fraction(1),), ()), (-30.0, (Fraction(1),), ()),
         (180.0, (Fraction(1, 2),), ()))
"""The moves offered, as shares of the unit's full move: (heading off the facing, single
moves, double moves): half and a full move straight ahead and a double move, a full move
obliquely 30 degrees right and left, and half a move straight back."""
TURNS = (45.0, -45.0, 180.0)
"""The changes of face offered in place: half right, half left, about face."""
CLOSE_TO = 20
"""How far short of the nearest enemy a move towards it stops (mm, at the least): near
enough to charge next period, clear of contact."""
Target = tuple[float, float, float]
"""The nearest enemy, as a move towards it sees it: its centre (x, y) and the radius of its
outline (half its diagonal)."""


def nearest_enemy(table: Table, fp: Footprint) -> Target | None:
    """The enemy on the table whose centre is nearest the unit's (None: no enemy)."""
    side = fp.side
    if not side:
        return None
    return _nearest(fp, tuple(o for o in table.footprints if o.side and o.side != side))


def _nearest(fp: Footprint, enemies: tuple[Footprint, ...]) -> Target | None:
    """The first of ``enemies`` whose centre is nearest the unit's (None: none)."""
    x, y = fp.x, fp.y
    best: tuple[float, Footprint] | None = None
    for other in enemies:
        d = (other.x - x) ** 2 + (other.y - y) ** 2
        if best is None or d < best[0]:
            best = (d, other)
    if best is None:
        return None
    other = best[1]
    w, h = _halves(other)
    return (other.x, other.y, math.hypot(w, h))


def _halves(fp: Footprint) -> tuple[float, float]:
    """Half the width and half the length of a footprint's outline."""
    return fp.width / 2, fp.length / 2


def wanted(x: float, y: float, facing: float, length: float, full: int, turning: int,
           target: Target | None) -> tuple[Wanted, ...]:
    """The moves offered to a unit at (x, y) facing ``facing``, ``length`` deep, whose full
    move is ``full`` mm (``turning`` with a change of face): the moves of ``STEPS`` and the
    changes of face of ``TURNS``; and, with an enemy ``target``, a turn to face it in place
    and a move towards it, facing it, that stops at least ``CLOSE_TO`` mm short of its
    outline's circle (a plain move if it is straight ahead). Destinations are rounded to
    0.001 mm and facings to 0.001 degree. (Not remembered here: its one caller,
    ``_proposals``, is.)"""
    out: list[Wanted] = []
    for heading, distances in _steps(full):
        (dx, dy), _ = bearing_vectors(facing + heading)
        for d, double in distances:
            out.append(((round(x + dx * d, 3), round(y + dy * d, 3), facing), Manoeuvre.NONE,
                        double))
    out += [((x, y, round(normal_degrees(facing + t) % 360.0, 6)), Manoeuvre.FACE, False)
            for t in TURNS]
    if target is not None:
        tx, ty, radius = target
        heading = round(math.degrees(math.atan2(tx - x, ty - y)) % 360.0, 3)
        ahead = abs(normal_degrees(heading - facing)) <= 0.5
        if not ahead:
            out.append(((x, y, heading), Manoeuvre.FACE, False))
        reach = full if ahead else turning
        d = min(reach, math.floor(math.hypot(tx - x, ty - y) - radius - length / 2 - CLOSE_TO))
        if d > 0:
            (dx, dy), _ = bearing_vectors(heading)
            out.append(((round(x + dx * d, 3), round(y + dy * d, 3),
                         facing if ahead else heading),
                        Manoeuvre.NONE if ahead else Manoeuvre.FACE, False))
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=64)
def _steps(full: int) -> tuple[tuple[float, tuple[tuple[int, bool], ...]], ...]:
    """The moves of ``STEPS`` for a unit whose full move is ``full`` mm: each heading with
    its distances (whole mm, none of 0) and whether each is a double move."""
    if full <= 0:
        return ()
    out = []
    for heading, singles, doubles in STEPS:
        shares = [(f, False) for f in singles] + [(f, True) for f in doubles]
        out.append((heading, tuple((d, double) for share, double in shares
                                   if (d := int(share * full)) > 0)))
    return tuple(out)


def where_now(table: Table, unit_id: str) -> tuple[float, float, float]:
    """A unit's position and facing, as a move's ``at`` names it."""
    fp = table.footprint(unit_id)
    return (fp.x, fp.y, fp.facing)


def proposed(state: State, unit: Unit) -> tuple[tuple[Move, ...], frozenset[Wanted]]:
    """The moves offered to ``unit`` where it stands (``wanted``), as ``Move`` actions, and
    the same by (``to``, manoeuvre, double): proposals in plain arithmetic, not judged (the
    check measures each one asked, ``move_advances``). Kept on the table for each unit
    (the candidates and the check ask, step after step)."""
    table = table_of(state)
    tables = state.options.tables
    memo = kept(table, _proposed_memo)
    found = memo.get(unit.id)
    if found is not None and found[0] is unit and found[1] is tables:
        return found[2]
    fp = table.footprint(unit.id)
    made = proposed_at(unit, tables, fp, near_enemies(state, unit), table)
    memo[unit.id] = (unit, tables, made)
    return made


def proposed_at(unit: Unit, tables: Tables, fp: Footprint, enemies: tuple[Footprint, ...],
                table: Table | None = None
                ) -> tuple[tuple[Move, ...], frozenset[Wanted]]:
    """``proposed`` for ``unit`` standing at ``fp`` with these enemies on the table (kept in
    ``table``'s store, ``mckie_acw: proposals``: a unit is offered the same moves while it
    and the enemies stand where they stood, whoever else moves; ``kinds``, the types of its
    position's numbers, keeps the offers' ``at`` as the footprint writes it)."""
    kinds = (type(fp.x), type(fp.y), type(fp.facing))
    if table is None:
        return _proposed_at(unit, tables, fp, kinds, enemies)
    return table.store("mckie_acw: proposals").ask(
        Key(unit, Same(tables), fp, kinds, enemies),
        lambda: _proposed_at(unit, tables, fp, kinds, enemies))


def _proposed_at(unit: Unit, tables: Tables, fp: Footprint, kinds: tuple[type, ...],
                 enemies: tuple[Footprint, ...]
                 ) -> tuple[tuple[Move, ...], frozenset[Wanted]]:
    """``proposed_at`` worked out."""
    mover = Mover.of(unit)
    plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
    turning = reach(mover, Manoeuvre.FACE, False, False, None, tables)
    return _proposals(unit.id, fp.x, fp.y, fp.facing, kinds, fp.length,
                      plain if isinstance(plain, int) else 0,
                      turning if isinstance(turning, int) else 0, _nearest(fp, enemies))


def _proposed_memo(table: Table) -> dict[str, tuple[Unit, Tables, tuple[
        tuple[Move, ...], frozenset[Wanted]]]]:
    """``proposed`` on this table, by unit id (with the unit and the tables it was worked
    out for)."""
    return {}


@functools.lru_cache(maxsize=4096)
def _proposals(uid: str, x: float, y: float, facing: float, kinds: tuple[type, ...],
               length: float, full: int, turning: int, target: Target | None
               ) -> tuple[tuple[Move, ...], frozenset[Wanted]]:
    """``proposed`` (remembered: a unit is offered the same moves while it stands there and
    its nearest enemy where he stood; ``kinds``, the types of its position's numbers, keeps
    the offers' ``at`` as the footprint writes it)."""
    wants = wanted(x, y, facing, length, full, turning, target)
    at = (x, y, facing)
    return (tuple(Move(uid, None, double=double, manoeuvre=m, to=to, at=at)
                  for to, m, double in wants), frozenset(wants))


def not_surely_advancing(start: Footprint, moves: tuple[Move, ...],
                         enemies: tuple[Footprint, ...]) -> tuple[Move, ...]:
    """The moves proposed to a unit at ``start`` less those that surely advance against
    ``enemies`` (for a unit whose orders or activation forbid advancing, which the check
    would refuse), in plain arithmetic on the centres: a move surely ends nearer the
    nearest enemy when its end's centre is nearer some enemy's centre (an outline holds its
    centre: the outlines are no further apart) than the start's outline can be to any
    enemy's (their centres' distance less both outlines' half diagonals)."""
    if not enemies:
        return moves
    mine = math.hypot(*_halves(start))
    x0, y0 = start.x, start.y
    apart = sorted(((math.hypot(e.x - x0, e.y - y0), e) for e in enemies),
                   key=lambda pair: pair[0])
    nearest = min(d - mine - math.hypot(*_halves(e)) for d, e in apart)
    bound = nearest - _TOL - 1e-6 * (1.0 + abs(nearest))
    # an end within ``bound`` of the centre of an enemy d from the start has gone more than
    # d - bound: shorter moves are kept, and only the enemies nearer than the move's length
    # plus ``bound`` are asked (a hair of slack keeps the exact test wherever rounding tells)
    reach = bound + 1e-6 * (1.0 + abs(bound))
    centres = [(d, e.x, e.y) for d, e in apart]
    out = []
    for move in moves:
        x1, y1, _ = move.to  # type: ignore[misc]
        length = math.hypot(x1 - x0, y1 - y0)
        if length <= 1.0 or not _near_a_centre(centres, x1, y1, length + reach, bound):
            out.append(move)
    return tuple(out)


def _near_a_centre(centres: list[tuple[float, float, float]], x: float, y: float,
                   limit: float, bound: float) -> bool:
    """Whether (x, y) is nearer than ``bound`` to one of ``centres`` ((distance from the
    start, x, y), nearest the start first), asking only those nearer the start than
    ``limit``."""
    for d, cx, cy in centres:
        if d >= limit:
            return False
        if math.hypot(cx - x, cy - y) < bound:
            return True
    return False


Box = tuple[float, float, float, float]
"""Bounds (x0, y0, x1, y1)."""


class Place:
    """The moves of a unit standing at one place (its footprint ``start``; what moves there:
    ``mover``), each measured when first asked and kept: over the ground alone
    (``_ground_move``), whether it crosses each other unit's footprint (``crossing``: the
    bounds of the move against the footprint's first, in plain arithmetic, then the hull it
    sweeps against its outline), and whether it advances against each set of enemies
    (``advancing``: only the enemies that may be the nearest are measured, each once for
    each place it stands)."""

    __slots__ = ("advancing", "apart", "boxes", "crossing", "ends", "field", "gaps",
                 "grounds", "hulls", "made", "mover", "mover_reach", "outline", "overlaps",
                 "rows", "start", "tables")

    def __init__(self, field: Field, start: Footprint, mover: Mover, tables: Tables) -> None:
        self.field = field
        self.start = start
        self.outline = outline_of(start)
        self.mover = mover
        self.tables = tables
        self.grounds: dict[Wanted, Any] = {}
        self.boxes: dict[Wanted, Box] = {}
        self.hulls: dict[Wanted, Any] = {}
        self.ends: dict[Wanted, Any] = {}
        self.crossing: dict[tuple[Wanted, Footprint], bool] = {}
        self.overlaps: dict[Footprint, bool] = {}
        self.advancing: dict[tuple[Wanted, tuple[Footprint, ...]], bool] = {}
        self.gaps: dict[Footprint, float] = {}
        self.apart: dict[tuple[Wanted, Footprint], float] = {}
        self.made: dict[tuple[Wanted, bool], MoveFacts] = {}
        plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
        turning = reach(mover, Manoeuvre.FACE, False, False, None, tables)
        self.mover_reach = float(max(plain if isinstance(plain, int) else 0,
                                     turning if isinstance(turning, int) else 0)) + 1.0
        self.rows: tuple[Any, tuple[float, float, float, float], list[int]] | None = None

    def ground(self, want: Wanted) -> Any:
        """The move over the ground alone (``_ground_move``): its measure, or a refusal."""
        found = self.grounds.get(want)
        if found is None:
            to, m, double = want
            found = self.grounds[want] = _ground_move(self.field, self.start, to, m, double,
                                                      self.mover, self.tables)
        return found

    def verdict(self, want: Wanted, around: Around) -> bool | Refusal:
        """Whether the move advances (it is allowed), or why it is refused: by the ground,
        or by the other units' footprints it sweeps or ends on (``around``: theirs, their
        bounds and the enemies')."""
        ground = self.ground(want)
        if len(ground) == 3:
            return ground  # type: ignore[no-any-return]
        hit = self.crossed(want, ground, around)
        if hit:
            return _crossing(self.start, hit)
        return self.advances(want, ground, around[2])

    def facts(self, want: Wanted, around: Around) -> Measured:
        """The move measured: its facts (made once), or why it is refused."""
        found = self.verdict(want, around)
        if isinstance(found, tuple):
            return found
        made = self.made.get((want, found))
        if made is None:
            _, pose, length, cost, allowance, woods = self.ground(want)
            made = self.made[(want, found)] = MoveFacts(
                self.start.moved_to(*pose), length, cost, allowance, found, woods)
        return made

    def box(self, want: Wanted, pose: tuple[float, float, float]) -> Box:
        """Bounds holding the move's outlines at both ends (plain arithmetic)."""
        found = self.boxes.get(want)
        if found is None:
            a0, a1, a2, a3 = self.start.bounds
            b0, b1, b2, b3 = _bounds(self.start, *pose)
            found = self.boxes[want] = (min(a0, b0), min(a1, b1), max(a2, b2), max(a3, b3))
        return found

    def hull(self, want: Wanted, pose: tuple[float, float, float]) -> Any:
        """The hull the move sweeps: of its outline's corners at both ends (made once)."""
        found = self.hulls.get(want)
        if found is None:
            start = self.start
            points = np.concatenate([start.corners[np.newaxis], _corners(start, [pose])],
                                    axis=1)
            found = self.hulls[want] = Regions.hulls(points)[0]
        return found

    def end(self, want: Wanted, pose: tuple[float, float, float]) -> Any:
        """The move's outline at its end (made once)."""
        found = self.ends.get(want)
        if found is None:
            found = self.ends[want] = Regions.polygons(_corners(self.start, [pose]))[0]
        return found

    def crossed(self, want: Wanted, ground: Any, around: Around) -> list[str]:
        """The other units whose outline the move's hull crosses (less one its start already
        overlaps): their bounds against the move's first, the exact test only where they
        meet (all of those not yet known in one call)."""
        others, boxes, _ = around
        uid = self.start.unit_id
        a0, a1, a2, a3 = self.box(want, ground[1])
        slack = 1e-6 * (1.0 + max(abs(a0), abs(a1), abs(a2), abs(a3)))
        a0, a1, a2, a3 = a0 - slack, a1 - slack, a2 + slack, a3 + slack
        memo = self.crossing
        meeting = []
        unknown = []
        for i in self.nearby(boxes, a0, a1, a2, a3):  # bounds meet, in the table's order
            other = others[i]
            b0, b1, b2, b3 = other.bounds
            if a0 > b2 or a1 > b3 or a2 < b0 or a3 < b1 or other.unit_id == uid:
                continue
            meeting.append(other)
            if (want, other) not in memo:
                unknown.append(other)
        if unknown:
            swept_over = set(sharing_ground(self.hull(want, ground[1]), unknown,
                                            outlines=True))
            for other in unknown:
                memo[(want, other)] = other.unit_id in swept_over and not self._overlaps(other)
        return [other.unit_id for other in meeting if memo[(want, other)]]

    def nearby(self, boxes: npt.NDArray[np.float64], a0: float, a1: float, a2: float,
               a3: float) -> list[int]:
        """The rows of ``boxes`` (the table's footprints' bounds) that may meet the box
        (a0, a1, a2, a3) of one of the moves offered here: those meeting a box around the
        start as far as any of them goes (asked once for each table's bounds), or, for a box
        outside it, all of them."""
        last = self.rows
        if last is None or last[0] is not boxes:
            x, y = self.start.x, self.start.y
            w, h = _halves(self.start)
            far = self.mover_reach + math.hypot(w, h) + 2.0
            far += 1e-6 * (1.0 + abs(x) + abs(y) + far)
            c0, c1, c2, c3 = x - far, y - far, x + far, y + far
            rows = np.flatnonzero((boxes[:, 2] >= c0) & (boxes[:, 3] >= c1)
                                  & (boxes[:, 0] <= c2) & (boxes[:, 1] <= c3)).tolist()
            last = self.rows = (boxes, (c0, c1, c2, c3), rows)
        c0, c1, c2, c3 = last[1]
        if a0 >= c0 and a1 >= c1 and a2 <= c2 and a3 <= c3:
            return last[2]
        return np.flatnonzero((boxes[:, 2] >= a0) & (boxes[:, 3] >= a1) & (boxes[:, 0] <= a2)
                              & (boxes[:, 1] <= a3)).tolist()

    def _overlaps(self, other: Footprint) -> bool:
        """Whether the start overlaps ``other``'s outline (a unit may leave a crowd)."""
        found = self.overlaps.get(other)
        if found is None:
            found = self.overlaps[other] = self.outline.shares_ground(outline_of(other))
        return found

    def advances(self, want: Wanted, ground: Any, enemies: tuple[Footprint, ...]) -> bool:
        """Whether the move goes somewhere and ends nearer the nearest enemy (outline to
        outline) than it stood. Only the enemies that may be the nearest to its start or end
        are measured: the outlines hold their centres, so an enemy whose centre, less both
        outlines' half diagonals, is further than some other enemy's centre is never the
        nearest."""
        if not enemies or ground[2] <= 0:
            return False
        key = (want, enemies)
        found = self.advancing.get(key)
        if found is not None:
            return found
        start = self.start
        x0, y0 = start.x, start.y
        x1, y1 = ground[1][0], ground[1][1]
        mine = math.hypot(*_halves(start))
        before = [math.hypot(e.x - x0, e.y - y0) for e in enemies]
        after = [math.hypot(e.x - x1, e.y - y1) for e in enemies]
        bound0, bound1 = min(before), min(after)
        slack = 1e-6 * (1.0 + max(max(before), max(after)))
        near = [e for e, b, a in zip(enemies, before, after, strict=True)
                if b - (r := mine + math.hypot(*_halves(e))) <= bound0 + slack
                or a - r <= bound1 + slack]
        sure = self._surely(ground[1], near)
        if sure is not None:
            self.advancing[key] = sure
            return sure
        gap = far = math.inf
        unknown = []
        for e in near:
            gap = min(gap, self._gap(e))
            d = self.apart.get((want, e))
            if d is None:
                unknown.append(e)
            else:
                far = min(far, d)
        if unknown:
            end = self.end(want, ground[1])
            for e, d in zip(unknown, gaps(end, [outline_of(e) for e in unknown]).tolist(),
                            strict=True):
                self.apart[(want, e)] = d
                far = min(far, d)
        found = self.advancing[key] = far < gap - _TOL
        return found

    def _surely(self, pose: tuple[float, float, float], near: list[Footprint]) -> bool | None:
        """``advances`` measured in plain arithmetic on the outlines' rectangles: True or
        False where the answer is clear by more than rounding could blur, None where the
        outlines must be measured."""
        start = self.start
        w, h = _halves(start)
        here = _rect(start.x, start.y, start.facing, w, h)
        there = _rect(pose[0], pose[1], pose[2], w, h)
        gap = far = math.inf
        for e in near:
            other = _rect_of(e)
            gap = min(gap, _rect_distance(here, other))
            far = min(far, _rect_distance(there, other))
        margin = 1e-6 * (1.0 + gap + far)
        if far < gap - _TOL - margin:
            return True
        if far > gap - _TOL + margin:
            return False
        return None

    def _gap(self, enemy: Footprint) -> float:
        """The distance from the start's outline to the enemy's (once for each place the
        enemy stands)."""
        found = self.gaps.get(enemy)
        if found is None:
            found = self.gaps[enemy] = self.outline.distance(outline_of(enemy))
        return found


Rect = tuple[float, float, float, float, float, float, float, float]
"""A footprint's outline as plain numbers: its centre (x, y), its forward and right unit
vectors, half its width and half its length."""


def _rect(x: float, y: float, facing: float, w: float, h: float) -> Rect:
    (fx, fy), (rx, ry) = bearing_vectors(facing)
    return (x, y, fx, fy, rx, ry, w, h)


def _rect_of(fp: Footprint) -> Rect:
    """A footprint's outline as plain numbers."""
    return _rect(fp.x, fp.y, fp.facing, *_halves(fp))


def _rect_distance(a: Rect, b: Rect) -> float:
    """The distance between two outlines (0 where they meet), as Shapely measures it: no
    axis of either separates them (they meet), or the nearest of a corner of one to the
    other (disjoint convex outlines are nearest at a corner of one)."""
    ax, ay, afx, afy, arx, ary, aw, ah = a
    bx, by, bfx, bfy, brx, bry, bw, bh = b
    dx, dy = bx - ax, by - ay
    for nx, ny in ((afx, afy), (arx, ary), (bfx, bfy), (brx, bry)):
        if abs(dx * nx + dy * ny) > (aw * abs(arx * nx + ary * ny) + ah * abs(afx * nx + afy * ny)
                                     + bw * abs(brx * nx + bry * ny)
                                     + bh * abs(bfx * nx + bfy * ny)):
            break
    else:
        return 0.0
    return min(_corners_to(a, b), _corners_to(b, a))


def _corners_to(a: Rect, b: Rect) -> float:
    """The distance from the nearest corner of ``a`` to the rectangle ``b``."""
    ax, ay, afx, afy, arx, ary, aw, ah = a
    bx, by, bfx, bfy, brx, bry, bw, bh = b
    best = math.inf
    for su, sv in ((-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)):
        qx = ax + su * aw * arx + sv * ah * afx - bx
        qy = ay + su * aw * ary + sv * ah * afy - by
        u = abs(qx * brx + qy * bry) - bw
        v = abs(qx * bfx + qy * bfy) - bh
        d = math.hypot(u if u > 0.0 else 0.0, v if v > 0.0 else 0.0)
        if d < best:
            best = d
    return best


def place_of(state: State, unit: Unit) -> Place:
    """The unit's place on the state's table, kept in the table's store (``mckie_acw:
    places``: a unit that stands still is asked of the same moves period after period, and
    the other units' footprints are mostly where they stood; the ground is the same for
    every table of the battle)."""
    table = table_of(state)
    start, mover, tables = table.footprint(unit.id), Mover.of(unit), state.options.tables
    return table.store("mckie_acw: places", most=2048).ask(
        Key(start, mover, Same(tables)), lambda: Place(kept(table, field_of), start, mover, tables))


Around = tuple[tuple[Footprint, ...], npt.NDArray[np.float64], tuple[Footprint, ...]]
"""What a unit's moves are measured against: the footprints on the table (the unit's own
among them, passed over), their bounds (``positions.footprint_boxes``), and the enemies'
footprints."""


def _around(state: State, unit_id: str) -> Around:
    """The footprints on the table, their bounds, and the footprints of the unit's enemies
    that may be the nearest to any move offered it (``near_enemies``)."""
    table = table_of(state)
    return table.footprints, kept(table, footprint_boxes), near_enemies(
        state, state.unit(unit_id))


def near_enemies(state: State, unit: Unit) -> tuple[Footprint, ...]:
    """The footprints of the unit's enemies, in the table's order, that may be the nearest
    (centre to centre, or outline to outline) to the unit anywhere within the longest move
    offered it (``offer_reach``): those whose centres are no further from its centre than
    the nearest enemy's centre, twice that reach, its outline's half diagonal and the
    largest enemy's, and a millimetre. Every question the moves offered ask of the enemies
    (the nearest one, ``not_surely_advancing``, ``Place.advances``) has the same answer
    from these as from them all, and a unit's offers stay remembered while these stand
    still, whoever else moves."""
    table = table_of(state)
    tables = state.options.tables
    mover = Mover.of(unit)
    memo = table.derived(_near_enemies_memo)
    asked = (unit.id, mover, tables)
    near = memo.get(asked)
    if near is None:
        fp = table.footprint(unit.id)
        found = kept(table, _enemy_centres).get(fp.side) if fp.side else None
        if found is None:
            near = memo[asked] = ()
        else:  # kept in the store while the unit and its enemies stand where they stood
            near = memo[asked] = table.store("mckie_acw: near enemies").ask(
                Key(mover, Same(tables), fp, found[3]),
                functools.partial(_near_enemies, unit, tables, fp, found))
    return near


def _near_enemies(unit: Unit, tables: Tables, fp: Footprint,
                  found: tuple[tuple[Footprint, ...], Any, float, Key]
                  ) -> tuple[Footprint, ...]:
    """``near_enemies`` worked out, from the enemies' ``_enemy_centres``."""
    enemies, centres, radius, _ = found
    apart = np.hypot(centres[:, 0] - fp.x, centres[:, 1] - fp.y)
    limit = (float(apart.min()) + 2.0 * offer_reach(unit, tables)
             + math.hypot(*_halves(fp)) + radius + 1.0)
    limit += 1e-6 * (1.0 + abs(limit))
    rows = np.flatnonzero(apart <= limit)
    return enemies if len(rows) == len(enemies) else tuple(enemies[i] for i in rows.tolist())


def _near_enemies_memo(table: Table) -> dict[tuple[str, Any, Tables], tuple[Footprint, ...]]:
    """``near_enemies`` on this table, by unit id, what moves the unit and the tables (its
    reach): each answer written once."""
    return {}


def offer_reach(unit: Unit, tables: Tables) -> float:
    """How far from where a unit stands the moves offered it may end (``wanted``: shares of
    its full move, or a move towards the nearest enemy within its full move or its move
    with a change of face), with a millimetre for the rounding of the destinations."""
    mover = Mover.of(unit)
    plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
    turning = reach(mover, Manoeuvre.FACE, False, False, None, tables)
    return float(max(plain if isinstance(plain, int) else 0,
                     turning if isinstance(turning, int) else 0)) + 1.0


def _enemy_centres(table: Table) -> dict[str, tuple[tuple[Footprint, ...], Any, float, Key]]:
    """For each side on the table: its enemies' footprints (``_enemies``), their centres as
    an (n, 2) array, the largest half diagonal of their outlines, and the footprints as a
    store's key."""
    out = {}
    for side, enemies in kept(table, _enemies).items():
        if enemies:
            centres = np.array([e.centre for e in enemies], dtype=float).reshape(-1, 2)
            key = Key(enemies)  # the same key object while the enemies stand (one compare)
            out[side] = (enemies, centres, max(math.hypot(*_halves(e)) for e in enemies),
                         table.store("mckie_acw: enemies").ask(key, functools.partial(_same, key)))
    return out


def _same(key: Key) -> Key:
    return key


def enemies_of(state: State, unit_id: str) -> tuple[Footprint, ...]:
    """The footprints of the unit's enemies on the table, in the table's order."""
    table = table_of(state)
    side = table.footprint(unit_id).side
    return kept(table, _enemies).get(side, ()) if side else ()


def _enemies(table: Table) -> dict[str, tuple[Footprint, ...]]:
    """The enemies' footprints of each side's units on this table."""
    fps = table.footprints
    return {side: tuple(f for f in fps if f.side and f.side != side)
            for side in {f.side for f in fps if f.side}}


# --- a move made ----------------------------------------------------------------------------
OFFERS_STORE = "mckie_acw: moves offered"
"""The store of the moves offered to each unit on a table (``_table_moves``)."""


Offered = tuple[tuple[Any, ...], Tables, bool, tuple["Move", ...],
                tuple[str, tuple[float, float, float, float]], Key]
"""The moves offered to a unit on a table, with what they were offered for: what of the unit
they read (``_offered_for``), the tables, whether it may advance, the moves, its side and
the bounds of the ground its manoeuvres in place cover, and the key they are kept under."""


def carry_offers(old: Table, new: Table, changed: Iterable[Footprint]) -> None:
    """Put in the store of ``new`` (a table whose footprints differ from ``old``'s only in
    ``changed``: a moved unit's footprint before and after) the moves ``old`` offered each
    other unit whose offers cannot have changed: every changed footprint of its own side
    and off the ground its manoeuvres in place cover (its enemies, its own footprint and
    the footprints under its manoeuvres are those of ``old``). A new mapping, written once
    under ``new``'s footprints; nothing is carried when ``old`` was never listed."""
    store = old.store(OFFERS_STORE)
    listed: Mapping[str, Offered] | None = store.get(("listed", old.derived(footprints_key)))
    if not listed:
        return
    moved = [(c.unit_id, c.side, c.bounds) for c in changed]
    ids = {uid for uid, _, _ in moved}
    carried = {}
    for uid, entry in listed.items():
        if uid in ids:
            continue
        side, (a0, a1, a2, a3) = entry[4]
        if all(s == side and (b[2] < a0 or b[0] > a2 or b[3] < a1 or b[1] > a3)
               for _, s, b in moved):
            carried[uid] = entry
    store.put(("carried", new.derived(footprints_key)), MappingProxyType(carried))


def placed(state: State, unit_id: str, end: Footprint) -> State:
    """The state with a unit's footprint moved (and a trace of the move). The table is
    made as ``Table.placed`` makes it (only the moved footprint checked, the ground's
    measures shared), and carries the moves offered that the move cannot change
    (``carry_offers``)."""
    table = table_of(state)
    start = table.footprint(unit_id)
    moved = table.placed(end)
    carry_offers(table, moved, (start, end))
    if start.centre == end.centre:  # turned in place: no trace
        return with_extra(state, table=moved)
    trace = MoveTrace(unit_id, (start.centre, end.centre))
    return with_extra(state, table=moved.with_traces(*_keep(table, unit_id), trace))


def _keep(table: Table, unit_id: str) -> tuple[MoveTrace, ...]:
    """The traces kept: the last move of every other unit still on the table (the shots are
    forgotten once a unit moves)."""
    ids = table.units
    return tuple(t for t in table.traces if isinstance(t, MoveTrace) and t.unit_id != unit_id
                 and t.unit_id in ids)
