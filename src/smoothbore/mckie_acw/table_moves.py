"""Moves on a table (McKie ACW, Movement; interpretation M34): what the table measures of a
move (``move_facts``), the destinations offered to each unit (``offered``), and the footprint
moved with its trace (``placed``).

A move is measured in two parts: over the ground alone (its route's cost within the
allowance, the table's edge: ``_ground_move``), which depends only on where the unit stands
and what it is, and against the other units (the outlines it sweeps or ends on, whether it
ends nearer the nearest enemy: ``_clearances``). The moves offered to a unit are measured
once for each place it stands (``Sheet``), and against each other unit once for each place
that unit stands (``Sheet.against``): a friend's move re-measures only the pairs it
changes, and the enemies (who never move in the mover's step) are measured once a step."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import attrs
import numpy as np
import shapely

from smoothbore.core import IllegalActionError
from smoothbore.table import (
    Feature,
    Footprint,
    ImpassableError,
    Measure,
    MoveTrace,
    PassageKind,
    RateTable,
    Table,
    TerrainKind,
    route,
)
from smoothbore.table.footprints import bearing_vectors, normal_degrees
from smoothbore.table.terrain import terrain_index

from . import rules
from .actions import Move
from .movement import Manoeuvre, Mover, reach
from .positions import FOOT_RATES, MOUNTED_RATES
from .state import State, with_extra
from .tables import Tables
from .units import Arm, Unit

_TOL = 1e-6
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
    unit. A move offered to the unit is answered from its offers (``offered``), any other
    move measured alone (``measured``): the two agree."""
    want = (to, manoeuvre, double)
    known = _offers(state, unit, want)
    found = None if known is None else known.facts(want)
    if found is None:
        found = measured(state, unit, to, manoeuvre, double)
    if isinstance(found, MoveFacts):
        return found
    raise _refused(found, action)


def move_advances(state: State, unit: Unit, to: tuple[float, float, float],
                  manoeuvre: Manoeuvre, double: bool, action: object) -> bool:
    """Whether the move advances (``move_facts(...).advancing``), or the error refusing it:
    the check's question, answered without making the facts of an offered move."""
    want = (to, manoeuvre, double)
    known = _offers(state, unit, want)
    verdict = None if known is None else known.verdict(want)
    if verdict is None:
        return move_facts(state, unit, to, manoeuvre, double, action).advancing
    if isinstance(verdict, tuple):
        raise _refused(verdict, action)
    return verdict


def listed_advances(state: State, unit: Unit, action: Move) -> bool | None:
    """Whether a move offered to the unit on this table advances (None: the move is not
    among those offered, or they are not measured yet): the check's shortcut for the very
    moves the candidates listed."""
    known = _known(state, unit)
    return None if known is None else known.listed.get(action)


def _known(state: State, unit: Unit) -> Offered | None:
    """The unit's offers on the state's table, if measured (as this very unit, or one that
    moves alike, with these tables)."""
    found = table_of(state).derived(_offered_memo).get(unit.id)
    if found is None:
        return None
    who, tables, known = found
    if tables is not state.options.tables and tables != state.options.tables:
        return None
    return known if who is unit or Mover.of(who) == Mover.of(unit) else None


def _offers(state: State, unit: Unit, want: Wanted) -> Offered | None:
    """The unit's offers on this table if ``want`` is among them (None: measure it alone)."""
    known = _known(state, unit)
    if known is not None:
        return known
    if want in sheet_of(state, unit).index:
        return offered(state, unit)
    return None


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
    memo = table_of(state).derived(_move_memo)
    found = memo.get(key)
    if found is None:
        measure_moves(state, ((unit, to, manoeuvre, double),))
        found = memo[key]
    return found  # type: ignore[no-any-return]


def measure_moves(state: State, requests: Any) -> None:
    """Measure many moves at once (the ground alone first, then the other units in one
    vectorised pass) and keep the answers on the table for ``measured``."""
    table = table_of(state)
    memo = table.derived(_move_memo)
    field = table.derived(field_of)
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
    """The ground of a table: its terrain and size (a key for what depends on them alone)."""

    features: tuple[Feature, ...]
    width: float
    depth: float


def field_of(table: Table) -> Field:
    """The table's ground (once a table)."""
    return Field(table.features, table.width, table.depth)


Ground_ = tuple[float, bool] | Refusal
"""A route over the ground alone: (cost, through dense woods), or why not."""


@functools.lru_cache(maxsize=8192)
def _over_ground(field: Field, start: tuple[float, float], point: tuple[float, float],
                 rates: RateTable, full: float) -> Ground_:
    """The cost of a straight move of a unit's centre from ``start`` to ``point`` over the
    terrain alone (the ground is paid under the centre, M30): remembered, as it depends
    neither on the unit's footprint nor on where the other units stand."""
    marker = Footprint("move", start[0], start[1], 0.0, 1, 1e-3, 1e-3)
    table = _alone(field, marker)
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
    boxes, shapes, _ = _boxes(field)
    near = [k for k, (bx0, by0, bx1, by1) in enumerate(boxes)
            if lo_x <= bx1 and bx0 <= hi_x and lo_y <= by1 and by0 <= hi_y]
    if not near:
        return [], None
    segment = shapely.linestrings([(x0, y0), (x1, y1)])
    hit = shapely.intersects(segment, shapes[near])
    return [k for k, h in zip(near, hit.tolist(), strict=True) if h], segment


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
    touched, segment = _touched(field, x0, y0, x1, y1)
    if not touched:
        return length, False
    _, _, lines = _boxes(field)
    if len(touched) > 1 or touched[0] < lines[0]:
        return None
    feature = lines[1][touched[0] - lines[0]]
    if feature.kind is K.STREAM:
        return None
    coords = shapely.get_coordinates(shapely.intersection(segment, feature.centre_line))
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


@functools.lru_cache(maxsize=64)
def _boxes(field: Field) -> tuple[tuple[tuple[float, float, float, float], ...], Any,
                                  tuple[int, tuple[Feature, ...]]]:
    """The terrain's areas and crossed lines (what a route asks of) and their bounds,
    widened by a hair; and where the lines begin among them, with their features."""
    terrain = terrain_index(field.features)
    shapes = np.concatenate([terrain.areas, terrain.lines])
    slack = 1e-6 * max(field.width, field.depth)
    return (tuple((x0 - slack, y0 - slack, x1 + slack, y1 + slack)
                  for x0, y0, x1, y1 in shapely.bounds(shapes).tolist()), shapes,
            (len(terrain.areas), tuple(terrain.crossed_features)))


@functools.lru_cache(maxsize=256)
def _alone(field: Field, fp: Footprint) -> Table:
    """The table with one unit on it: what the ground alone allows that unit."""
    return Table(field.width, field.depth, Measure.MILLIMETRES, field.features, (fp,))


@functools.lru_cache(maxsize=16384)
def _ground_move(field: Field, fp: Footprint, to: tuple[float, float, float],
                 manoeuvre: Manoeuvre, double: bool, mover: Mover, tables: Tables) -> Any:
    """(start, the end's (x, y, facing), length, cost, allowance, dense woods) of a move the
    ground allows, or (why, rule, impassable feature) of one it does not (remembered: a unit
    that stays where it stood is offered the same moves period after period). The end is
    bounded in plain arithmetic (``Footprint.bounds`` of the footprint moved there)."""
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
        rates = FOOT_RATES if mover.arm is Arm.FOOT else MOUNTED_RATES
        plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
        full = float(plain) if isinstance(plain, int) else 0.0
        ground = _over_open_ground(field, fp.x, fp.y, x, y, length, rates, full)
        if ground is None:
            ground = _over_ground(field, (fp.x, fp.y), (x, y), rates, full)
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


@functools.lru_cache(maxsize=4096)
def _box(fp: Footprint) -> tuple[float, float, float, float]:
    """``fp.bounds`` (remembered: the other units' footprints are asked again and again)."""
    return _bounds(fp, fp.x, fp.y, fp.facing)


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
    it ends nearer the nearest enemy's outline. All moves in one vectorised pass, on the
    footprints' outlines (no full layout of the table is needed)."""
    ids, sides, outlines, tree = table.derived(_outlines)
    index = {uid: i for i, uid in enumerate(ids)}
    starts = [s for s, _ in moves]
    rows = np.array([index[s.unit_id] for s in starts], dtype=np.intp)
    points = np.stack([np.concatenate([s.corners, e.corners]) for s, e in moves])
    hulls: Any = shapely.convex_hull(shapely.multipoints(points))
    crossed: list[set[str]] = [set() for _ in moves]
    p, u = tree.query(hulls, predicate="intersects")
    keep = u != rows[p]
    p, u = p[keep], u[keep]
    if len(p):
        inner = shapely.relate_pattern(hulls[p], outlines[u], "T********")
        already = shapely.relate_pattern(outlines[rows[p]], outlines[u], "T********")
        for i, j in zip(p[inner & ~already].tolist(), u[inner & ~already].tolist(),
                        strict=True):
            crossed[i].add(ids[j])
    ends: Any = shapely.polygons(np.stack([e.corners for _, e in moves]))
    mine = sides[rows]
    enemy = (sides[np.newaxis, :] != mine[:, np.newaxis]) & (sides[np.newaxis, :] != "") & (
        mine[:, np.newaxis] != "")
    after = np.where(enemy, shapely.distance(ends[:, np.newaxis],
                                             outlines[np.newaxis, :]), np.inf).min(axis=1)
    before = np.where(enemy, table.derived(_gaps)[rows], np.inf).min(axis=1)
    nearer = (after < before - _TOL).tolist()
    return list(zip(crossed, nearer, strict=True))


def _outlines(table: Table) -> tuple[tuple[str, ...], Any, Any, Any]:
    """The ids, sides and outlines of the footprints, and a tree of the outlines (once a
    table)."""
    fps = table.footprints
    outlines: Any = shapely.polygons(np.stack([f.corners for f in fps])) if fps else np.array([])
    sides = np.array([f.side for f in fps], dtype=object)
    return tuple(f.unit_id for f in fps), sides, outlines, shapely.STRtree(outlines)


def _gaps(table: Table) -> Any:
    """The distance between every two footprints' outlines (once a table)."""
    outlines = table.derived(_outlines)[2]
    return shapely.distance(outlines[:, np.newaxis], outlines[np.newaxis, :])


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
    x, y = fp.x, fp.y
    best: tuple[float, Footprint] | None = None
    for other in table.footprints:
        if other.side and other.side != side:
            d = (other.x - x) ** 2 + (other.y - y) ** 2
            if best is None or d < best[0]:
                best = (d, other)
    if best is None:
        return None
    other = best[1]
    w, h = _halves(other)
    return (other.x, other.y, math.hypot(w, h))


@functools.lru_cache(maxsize=4096)
def _halves(fp: Footprint) -> tuple[float, float]:
    """Half the width and half the length of a footprint's outline (remembered)."""
    return fp.width / 2, fp.length / 2


@functools.lru_cache(maxsize=4096)
def wanted(x: float, y: float, facing: float, length: float, full: int, turning: int,
           target: Target | None) -> tuple[Wanted, ...]:
    """The moves offered to a unit at (x, y) facing ``facing``, ``length`` deep, whose full
    move is ``full`` mm (``turning`` with a change of face): the moves of ``STEPS`` and the
    changes of face of ``TURNS``; and, with an enemy ``target``, a turn to face it in place
    and a move towards it, facing it, that stops at least ``CLOSE_TO`` mm short of its
    outline's circle (a plain move if it is straight ahead). Destinations are rounded to
    0.001 mm and facings to 0.001 degree."""
    out: list[Wanted] = []
    if full > 0:
        for heading, singles, doubles in STEPS:
            (dx, dy), _ = bearing_vectors(facing + heading)
            for share, double in [(f, False) for f in singles] + [(f, True) for f in doubles]:
                d = int(share * full)
                if d > 0:
                    out.append(((round(x + dx * d, 3), round(y + dy * d, 3), facing),
                                Manoeuvre.NONE, double))
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


def where_now(table: Table, unit_id: str) -> tuple[float, float, float]:
    """A unit's position and facing, as a move's ``at`` names it."""
    fp = table.footprint(unit_id)
    return (fp.x, fp.y, fp.facing)


class Sheet:
    """The moves offered to a unit standing at one place (its footprint ``start``), measured
    over the ground alone: every move offered by its (``to``, manoeuvre, double)
    (``index``); those the ground allows (``moves``: each with the ``Move`` it is offered
    as and its measure over the ground) and their places in ``moves`` (``position``); and
    the geometry that measures them against the other units: the hull each sweeps, its
    bounds, and the outline at each end. ``against`` keeps, for each other unit's footprint,
    which moves cross it; ``facing`` keeps which moves advance against each set of enemies,
    and ``facts`` the facts of each move asked."""

    __slots__ = ("advancing", "bounds", "boxes", "dist", "ends", "hulls", "index", "made",
                 "moves", "pairs", "position", "slack", "start")

    def __init__(self, start: Footprint,
                 moves: tuple[tuple[Wanted, Move, tuple[Any, ...]], ...],
                 index: frozenset[Wanted]) -> None:
        self.start = start
        self.moves = moves
        self.index = index
        self.position = {want: i for i, (want, _, _) in enumerate(moves)}
        if moves:
            corners = _corners(start, [m[2][1] for m in moves])
            points = np.concatenate(
                [np.broadcast_to(start.corners, corners.shape), corners], axis=1)
            self.hulls: Any = shapely.convex_hull(shapely.multipoints(points))
            self.bounds: Any = np.concatenate([points.min(axis=1), points.max(axis=1)], axis=1)
            self.boxes: list[tuple[float, float, float, float]] = [
                tuple(b) for b in self.bounds.tolist()]
            self.slack = 1e-6 * (1.0 + float(np.abs(self.bounds).max()))
            self.ends: Any = shapely.polygons(corners)
        self.pairs: dict[Footprint, frozenset[int]] = {}
        self.advancing: dict[tuple[Footprint, ...], tuple[bool, ...]] = {}
        self.dist: dict[Footprint, tuple[Any, float]] = {}
        self.made: dict[tuple[int, bool], MoveFacts] = {}

    def against(self, others: tuple[Footprint, ...]) -> list[frozenset[int]]:
        """For each other footprint, the moves (by their place in ``moves``) whose hull
        crosses its outline (less one the start already overlaps): measured once for each
        footprint, all new ones at once."""
        pairs = self.pairs
        new = [o for o in others if o not in pairs]
        if new and self.moves:
            self._measure(new)
        elif new:
            for o in new:
                pairs[o] = frozenset()
        return [pairs[o] for o in others]

    def _measure(self, new: list[Footprint]) -> None:
        start = self.start
        boxes = [_box(o) for o in new]
        slack = self.slack
        if len(new) <= 2 and not any(
                a0 <= b2 + slack and a1 <= b3 + slack and a2 >= b0 - slack
                and a3 >= b1 - slack
                for b0, b1, b2, b3 in boxes for a0, a1, a2, a3 in self.boxes):
            for o in new:  # a friend far from every move (the common case): plain arithmetic
                self.pairs[o] = frozenset()
            return
        box = np.array(boxes)
        mine = self.bounds
        touch = ((mine[:, np.newaxis, 0] <= box[np.newaxis, :, 2] + slack)
                 & (mine[:, np.newaxis, 1] <= box[np.newaxis, :, 3] + slack)
                 & (mine[:, np.newaxis, 2] >= box[np.newaxis, :, 0] - slack)
                 & (mine[:, np.newaxis, 3] >= box[np.newaxis, :, 1] - slack))
        crossed: list[set[int]] = [set() for _ in new]
        p, u = np.nonzero(touch)
        if not len(p):
            for o in new:
                self.pairs[o] = frozenset()
            return
        outlines: Any = np.array([o.outline for o in new], dtype=object)
        if len(p):
            inner = shapely.relate_pattern(self.hulls[p], outlines[u], "T********")
            hit = np.unique(u[inner])
            if len(hit):
                already = dict(zip(hit.tolist(), shapely.relate_pattern(
                    start.outline, outlines[hit], "T********").tolist(), strict=True))
                for i, j in zip(p[inner].tolist(), u[inner].tolist(), strict=True):
                    if not already[j]:
                        crossed[j].add(i)
        for j, o in enumerate(new):
            self.pairs[o] = frozenset(crossed[j])

    def facing(self, enemies: tuple[Footprint, ...]) -> tuple[bool, ...]:
        """Whether each move advances where these are the enemies on the table: it goes
        somewhere and ends nearer the nearest of them (outline to outline) than it stood.
        Only the enemies that may be the nearest to some end or to the start are measured
        exactly: the outlines hold their centres, so an enemy whose centre, less both
        outlines' half diagonals, is further than some other enemy's centre is never the
        nearest."""
        found = self.advancing.get(enemies)
        if found is not None:
            return found
        n = len(self.moves)
        after = np.full(n, np.inf)
        before = math.inf
        if enemies and n:
            centres = np.array([(self.start.x, self.start.y)]
                               + [m[2][1][:2] for m in self.moves])
            theirs = np.array([(e.x, e.y) for e in enemies])
            apart = np.hypot(centres[:, np.newaxis, 0] - theirs[np.newaxis, :, 0],
                             centres[:, np.newaxis, 1] - theirs[np.newaxis, :, 1])
            bound = apart.min(axis=1, keepdims=True)
            mine = math.hypot(*_halves(self.start))
            reach = np.array([mine + math.hypot(*_halves(e)) for e in enemies])
            slack = 1e-9 * (1.0 + float(apart.max()))
            needed = ((apart - reach[np.newaxis, :]) <= bound + slack).any(axis=0)
            for e, keep in zip(enemies, needed.tolist(), strict=True):
                if keep:
                    far, gap = self._distances(e)
                    after = np.minimum(after, far)
                    before = min(before, gap)
        found = self.advancing[enemies] = tuple(
            near and ground[2] > 0 for (_, _, ground), near in zip(
                self.moves, (after < before - _TOL).tolist(), strict=True))
        return found

    def _distances(self, enemy: Footprint) -> tuple[Any, float]:
        """The distance from each move's end outline to the enemy's outline, and from the
        start's (measured once for each place the enemy stands)."""
        found = self.dist.get(enemy)
        if found is None:
            outline = enemy.outline
            found = self.dist[enemy] = (shapely.distance(self.ends, outline),
                                        float(shapely.distance(self.start.outline, outline)))
        return found

    def facts(self, i: int, advancing: bool) -> MoveFacts:
        """The facts of move ``i`` (made once)."""
        found = self.made.get((i, advancing))
        if found is None:
            _, pose, length, cost, allowance, woods = self.moves[i][2]
            found = self.made[(i, advancing)] = MoveFacts(
                self.start.moved_to(*pose), length, cost, allowance, advancing, woods)
        return found


def sheet_of(state: State, unit: Unit) -> Sheet:
    """The moves offered to ``unit`` where it stands (``_sheet``)."""
    table = table_of(state)
    fp = table.footprint(unit.id)
    return _sheet(table.derived(field_of), fp, Mover.of(unit), state.options.tables,
                  (type(fp.x), type(fp.y), type(fp.facing)), nearest_enemy(table, fp))


@functools.lru_cache(maxsize=2048)
def _sheet(field: Field, start: Footprint, mover: Mover, tables: Tables,
           kinds: tuple[type, ...], target: Target | None) -> Sheet:
    """The moves ``wanted`` of the unit, each measured over the ground (remembered: a unit
    is offered the same moves while it stands there and its nearest enemy where he stood;
    ``kinds``, the types of its position's numbers, keeps the offers' ``at`` as the
    footprint writes it)."""
    x, y, facing = start.x, start.y, start.facing
    plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
    turning = reach(mover, Manoeuvre.FACE, False, False, None, tables)
    wants = wanted(x, y, facing, start.length, plain if isinstance(plain, int) else 0,
                   turning if isinstance(turning, int) else 0, target)
    at = (x, y, facing)
    moves = []
    for want in wants:
        to, m, double = want
        ground = _ground_move(field, start, to, m, double, mover, tables)
        if len(ground) != 3:
            moves.append((want, Move(start.unit_id, None, double=double, manoeuvre=m, to=to,
                                     at=at), ground))
    return Sheet(start, tuple(moves), frozenset(wants))


class Offered:
    """The moves offered to one unit on one table: each move the ground and the other units
    allow, as offered (``Move``) and whether it advances (``moves``); ``verdict`` and
    ``facts`` answer for every move of its sheet the ground allows."""

    __slots__ = ("advancing", "crossed", "listed", "moves", "sheet")

    def __init__(self, sheet: Sheet, advancing: tuple[bool, ...],
                 crossed: dict[int, list[str]]) -> None:
        self.sheet = sheet
        self.advancing = advancing
        self.crossed = crossed
        self.moves = tuple((move, advancing[i])
                           for i, (_, move, _) in enumerate(sheet.moves) if i not in crossed)
        self.listed = dict(self.moves)

    def verdict(self, want: Wanted) -> bool | Refusal | None:
        """Whether the move advances (it is allowed), or why the units refuse it (None: not
        a move the ground allows from here)."""
        i = self.sheet.position.get(want)
        if i is None:
            return None
        hit = self.crossed.get(i)
        if hit:
            return _crossing(self.sheet.start, hit)
        return self.advancing[i]

    def facts(self, want: Wanted) -> Measured | None:
        """The move measured (None: not a move the ground allows from here)."""
        found = self.verdict(want)
        if found is None or isinstance(found, tuple):
            return found
        return self.sheet.facts(self.sheet.position[want], found)


def offered(state: State, unit: Unit) -> Offered:
    """The moves offered to ``unit`` on the state's table, measured (kept on the table)."""
    found = _known(state, unit)
    if found is None:
        table = table_of(state)
        found = _offer(table, sheet_of(state, unit))
        table.derived(_offered_memo)[unit.id] = (unit, state.options.tables, found)
    return found


def _offered_memo(table: Table) -> dict[str, tuple[Unit, Tables, Offered]]:
    """The moves offered on this table, by unit id: the unit they were measured for, the
    tables, and the offers."""
    return {}


def _offer(table: Table, sheet: Sheet) -> Offered:
    start = sheet.start
    uid, side = start.unit_id, start.side
    others = tuple(f for f in table.footprints if f.unit_id != uid)
    crossed: dict[int, list[str]] = {}
    for other, hit in zip(others, sheet.against(others), strict=True):
        for i in hit:
            crossed.setdefault(i, []).append(other.unit_id)
    enemies = tuple(o for o in others if side and o.side and o.side != side)
    return Offered(sheet, sheet.facing(enemies), crossed)


# --- a move made ----------------------------------------------------------------------------
def placed(state: State, unit_id: str, end: Footprint) -> State:
    """The state with a unit's footprint moved (and a trace of the move)."""
    table = table_of(state)
    start = table.footprint(unit_id)
    footprints = tuple(end if f.unit_id == unit_id else f for f in table.footprints)
    if start.centre == end.centre:  # as ``table.placed(end)``
        return with_extra(state, table=attrs.evolve(table, footprints=footprints))
    trace = MoveTrace(unit_id, (start.centre, end.centre))
    return with_extra(state, table=attrs.evolve(table, footprints=footprints,
                                                traces=(*_keep(table, unit_id), trace)))


def _keep(table: Table, unit_id: str) -> tuple[MoveTrace, ...]:
    """The traces kept: the last move of every other unit still on the table (the shots are
    forgotten once a unit moves)."""
    ids = table.units
    return tuple(t for t in table.traces if isinstance(t, MoveTrace) and t.unit_id != unit_id
                 and t.unit_id in ids)
