"""Positions into situations (McKie ACW on a table): one function per mechanism that turns the
footprints and terrain of the battle's table into the facts its rules take, so that firing,
charging and moving are asked with unit ids alone.

Every question is asked of all pairs at once and kept on the table (``Table.derived``: shared
by every state whose units stand where they stood) or on the state (``BattleState.derived``)."""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs
import numpy as np
import shapely

from smoothbore.core import IllegalActionError
from smoothbore.table import (
    Face,
    Feature,
    Footprint,
    ImpassableError,
    Measure,
    MoveTrace,
    RateTable,
    Table,
    TerrainKind,
    charges,
    route,
    sightings,
)
from smoothbore.table.footprints import bearing_vectors, normal_degrees

from . import rules
from .firing import FireFacts
from .melee import Attack
from .movement import Manoeuvre, Mover, rate, reach
from .positions import FOOT_RATES, MOUNTED_RATES, SIGHT
from .state import State, illegal, with_extra
from .tables import Tables
from .units import Arm, Unit

MAX_RANGE = 2000
"""The longest range a FireFacts holds (mm): beyond every weapon's reach."""
_TOL = 1e-6
K = TerrainKind


def table_of(state: State) -> Table:
    """The battle's table (only asked in table mode)."""
    table = state.extra.table
    assert table is not None, "asked for a table the battle does not have"
    return table


def _whole_mm(length: float) -> int:
    """A length measured to the whole millimetre, rounded up (a target 20.3 mm away is at
    21 mm, beyond a 20 mm band)."""
    return max(0, math.ceil(length - _TOL))


# --- firing --------------------------------------------------------------------------------
@attrs.frozen
class ShotFacts:
    """What the table measures of ``firer`` firing at ``target``: the ``range`` in whole mm
    from the firer's centre to the nearest point of the target (Firing procedure 1), the
    ``angle`` off the firer's front, whether it ``sees`` the target (the line of fire clear of
    buildings and hills, and no more than 20 mm inside dense woods or a town), what
    ``blocked_by`` it, the units ``between``, whether the firer fires from ``higher`` ground
    than they stand on, and whether the fire comes from the target's ``flank`` or ``rear``."""

    firer: str
    target: str
    range: int
    angle: int
    sees: bool
    blocked_by: tuple[str, ...] = ()
    between: tuple[str, ...] = ()
    higher: bool = False
    flank: bool = False
    rear: bool = False

    def facts(self, figures: int = 0, resting: bool = False) -> FireFacts:
        """The facts of the fire, with the player's own choices (figures firing, resting)."""
        return FireFacts(range=min(self.range, MAX_RANGE), figures=figures, angle=self.angle,
                         resting=resting, target_at_edge=True, flank=self.flank,
                         rear=self.rear, over_friends=bool(self.between),
                         from_higher_ground=self.higher)


MEASURED_FIRE = ("range", "angle", "target_at_edge", "flank", "rear", "over_friends",
                 "from_higher_ground")
"""The fields of FireFacts the table measures (the others are the player's choice)."""
_PLAIN = FireFacts()


def carries_measured_fire(facts: FireFacts) -> bool:
    """Whether a fire's facts carry something the table measures (not left at the default)."""
    return any(getattr(facts, name) != getattr(_PLAIN, name) for name in MEASURED_FIRE)


def shots(table: Table) -> dict[tuple[str, str], ShotFacts]:
    """Every unit's shot at every enemy on the table (worked out once a table)."""
    found = sightings(table, None, rules=SIGHT)
    if not found:
        return {}
    layout = table.layout
    fi = layout.rows([s.firer for s in found])
    ti = layout.rows([s.target for s in found])
    ranges = shapely.distance(shapely.points(layout.centre[fi]), layout.shapes[ti])
    levels = layout.levels
    out = {}
    for s, r, f, t in zip(found, ranges.tolist(), fi.tolist(), ti.tolist(), strict=True):
        between = s.units_between
        top = max((int(levels[layout.index[u]]) for u in between), default=0)
        higher = max(int(levels[f]), int(levels[t])) > top
        out[(s.firer, s.target)] = ShotFacts(
            s.firer, s.target, _whole_mm(r), min(180, _whole_mm(s.angle)), s.line_clear,
            s.blocked_by, between, higher, s.face.is_flank, s.face is Face.REAR)
    return out


def shot_facts(state: State, firer: str, target: str) -> ShotFacts:
    """What the table measures of ``firer`` firing at ``target``."""
    found = table_of(state).derived(shots).get((firer, target))
    if found is None:
        raise illegal(f"fire of {firer} at {target}", "both must be enemy units on the table",
                      rules.FIRING_PROCEDURE)
    return found


def check_sight(shot: ShotFacts, action: object) -> None:
    """Visibility: the firer sees the target (the restrictions on range, arc and firing over
    troops are the FireFacts checks)."""
    if not shot.sees:
        what = ", ".join(shot.blocked_by) or "the ground"
        raise IllegalActionError(action, f"{shot.target} cannot be seen from {shot.firer} "
                                 f"({what} in the way)", rules.VISIBILITY)


# --- charges ---------------------------------------------------------------------------------
@attrs.frozen
class ChargeFacts:
    """What the table measures of ``charger`` charging ``target``: the ``distance`` its front
    must go straight ahead to touch (None: the target is not to its front), where it strikes
    (``attack``), and the units in the way (``blocked_by``)."""

    charger: str
    target: str
    distance: int | None
    attack: Attack
    blocked_by: tuple[str, ...] = ()

    def reaches(self, reach: int) -> bool:
        """Directly ahead, within ``reach`` mm, nothing in the way."""
        return self.distance is not None and self.distance <= reach and not self.blocked_by


_ATTACK = {Face.FRONT: Attack.FRONT, Face.LEFT: Attack.FLANK, Face.RIGHT: Attack.FLANK,
           Face.REAR: Attack.REAR}


def charge_lines(table: Table) -> dict[tuple[str, str], ChargeFacts]:
    """Every unit's charge at every enemy on the table (worked out once a table)."""
    out = {}
    for c in charges(table, None, 0.0):
        ahead = None if c.ahead is None else _whole_mm(c.ahead)
        out[(c.charger, c.target)] = ChargeFacts(c.charger, c.target, ahead, _ATTACK[c.face],
                                                 c.blocked_by)
    return out


def charge_facts(state: State, charger: str, target: str) -> ChargeFacts:
    """What the table measures of ``charger`` charging ``target``."""
    found = table_of(state).derived(charge_lines).get((charger, target))
    if found is None:
        raise illegal(f"charge of {charger} at {target}",
                      "both must be enemy units on the table", rules.BATTLE_PERIOD)
    return found


def check_charge(state: State, unit: Unit, facts: ChargeFacts, action: object) -> None:
    """A charge goes straight ahead into a target to the charger's front, within its move,
    with no unit in the way."""
    if facts.distance is None:
        raise IllegalActionError(action, f"{facts.target} is not to {unit.name}'s front",
                                 rules.BATTLE_PERIOD)
    if facts.blocked_by:
        raise IllegalActionError(action, f"{', '.join(facts.blocked_by)} in the way",
                                 rules.BATTLE_PERIOD)
    reach = rate(unit, state.options.tables)
    if facts.distance > reach:
        raise IllegalActionError(action, f"{facts.distance} mm is beyond {unit.name}'s move "
                                 f"({reach})", rules.MOVEMENT)


# --- moves -----------------------------------------------------------------------------------
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


def move_facts(state: State, unit: Unit, to: tuple[float, float, float],
               manoeuvre: Manoeuvre, double: bool, action: object) -> MoveFacts:
    """The move of ``unit`` to ``to`` (x, y, facing) measured on the table, or the error: the
    route's cost through the terrain at the unit's rates within its allowance (less its
    manoeuvre, doubled for a double move); ground it cannot enter names the feature; a new
    facing is a change of face (a manoeuvre); it ends on the table, through and on no other
    unit."""
    key = _key(state, unit, to, manoeuvre, double)
    memo = table_of(state).derived(_move_memo)
    found = memo.get(key)
    if found is None:
        measure_moves(state, ((unit, to, manoeuvre, double),))
        found = memo[key]
    if isinstance(found, MoveFacts):
        return found
    why, rule, impassable = found
    if impassable is not None:
        raise ImpassableError(action, impassable[0], impassable[1], rule)
    raise IllegalActionError(action, why, rule)


Request = tuple[Unit, tuple[float, float, float], Manoeuvre, bool]
"""A move to measure: the unit, ``to``, the manoeuvre, double or not."""


def _key(state: State, unit: Unit, to: tuple[float, float, float], manoeuvre: Manoeuvre,
         double: bool) -> tuple[Any, ...]:
    return (unit.id, unit.arm, unit.formation, unit.mounted, unit.limbered,
            unit.weapon.is_heavy, to, manoeuvre, double, state.options.tables)


def measure_moves(state: State, requests: Any) -> None:
    """Measure many moves at once (the ground alone first, then the other units in one
    vectorised pass) and keep the answers on the table for ``move_facts``."""
    table = table_of(state)
    memo = table.derived(_move_memo)
    pending: list[tuple[Any, tuple[Footprint, Footprint, int, float, int, bool]]] = []
    for unit, to, manoeuvre, double in requests:
        key = _key(state, unit, to, manoeuvre, double)
        if key in memo:
            continue
        found = _over_the_ground(state, unit, to, manoeuvre, double)
        if len(found) == 3:
            memo[key] = found
        else:
            pending.append((key, found))
    if not pending:
        return
    cleared = _clearances(table, [(start, end) for _, (start, end, *_) in pending])
    for (key, (start, end, length, cost, allowance, woods)), (crossed, nearer) in zip(
            pending, cleared, strict=True):
        if crossed:
            memo[key] = (f"{start.label or start.unit_id} may not move through or onto "
                         f"{', '.join(sorted(crossed))}", rules.MOVEMENT, None)
        else:
            memo[key] = MoveFacts(end, length, cost, allowance, nearer and length > 0, woods)


def _move_memo(table: Table) -> dict[Any, Any]:
    """Moves measured on this table (the candidates' and the check's share them, as do the
    states whose units stand where they stood)."""
    return {}


Ground_ = tuple[float, bool] | tuple[str, str, Any]
"""A route over the ground alone: (cost, through dense woods), or why not."""


@functools.lru_cache(maxsize=8192)
def _over_ground(features: tuple[Feature, ...], width: float, depth: float,
                 start: tuple[float, float], point: tuple[float, float], rates: RateTable,
                 full: float) -> Ground_:
    """The cost of a straight move of a unit's centre from ``start`` to ``point`` over the
    terrain alone (the ground is paid under the centre, M30): remembered, as it depends
    neither on the unit's footprint nor on where the other units stand."""
    marker = Footprint("move", start[0], start[1], 0.0, 1, 1e-3, 1e-3)
    table = _alone(features, width, depth, marker)
    path = route(table, "move", point)
    try:
        cost = rates.cost(path, table, full)
    except ImpassableError as error:
        return error.why, error.rule, (error.feature, error.kind)
    return cost, any(K.DENSE_WOODS in leg.kinds for leg in path.legs)


@functools.lru_cache(maxsize=256)
def _alone(features: tuple[Feature, ...], width: float, depth: float, fp: Footprint) -> Table:
    """The table with one unit on it: what the ground alone allows that unit."""
    return Table(width, depth, Measure.MILLIMETRES, features, (fp,))


def _over_the_ground(state: State, unit: Unit, to: tuple[float, float, float],
                     manoeuvre: Manoeuvre, double: bool) -> Any:
    """(start, end, length, cost, allowance, dense woods) of a move the ground allows, or
    (why, rule, impassable feature) of one it does not."""
    table = table_of(state)
    return _ground_move(table.features, table.width, table.depth,
                        table.footprint(unit.id), to, manoeuvre, double, Mover.of(unit),
                        state.options.tables)


@functools.lru_cache(maxsize=16384)
def _ground_move(features: tuple[Feature, ...], width: float, depth: float, fp: Footprint,
                 to: tuple[float, float, float], manoeuvre: Manoeuvre, double: bool,
                 mover: Mover, tables: Tables) -> Any:
    """``_over_the_ground`` from what it depends on (remembered: a unit that stays where it
    stood is offered the same moves period after period)."""
    x, y, facing = to
    turning = abs(normal_degrees(facing - fp.facing)) > 0.5
    if turning and manoeuvre is not Manoeuvre.FACE:
        return ("a new facing is a change of face, a manoeuvre (25% of the move)",
                rules.MANOEUVRES, None)
    allowance = reach(mover, manoeuvre, double, False, None, tables)
    if not isinstance(allowance, int):
        return allowance[0], allowance[1], None
    end = fp.moved_to(x, y, normal_degrees(facing) % 360.0)
    x0, y0, x1, y1 = end.bounds
    tol = 1e-7 * max(width, depth)
    if x0 < -tol or y0 < -tol or x1 > width + tol or y1 > depth + tol:
        return "the unit must end on the table", rules.MOVEMENT, None
    length = math.hypot(x - fp.x, y - fp.y)
    cost, woods = 0.0, False
    if length > _TOL:
        rates = FOOT_RATES if mover.arm is Arm.FOOT else MOUNTED_RATES
        plain = reach(mover, Manoeuvre.NONE, False, False, None, tables)
        full = float(plain) if isinstance(plain, int) else 0.0
        ground = _over_ground(features, width, depth, (fp.x, fp.y), (x, y), rates, full)
        if len(ground) == 3:
            return ground
        cost, woods = ground
    if cost > allowance + 1e-6 * max(1.0, allowance):
        return (f"the route costs {cost:.0f} mm of {mover.name}'s move ({allowance})",
                rules.MOVEMENT, None)
    return fp, end, _whole_mm(length) if length > _TOL else 0, cost, allowance, woods


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


Offer = tuple[tuple[float, float, float], bool]
"""A destination offered: (``to``, ``double``)."""
STEPS = ((0.0, (60, 120, 200, 300, 400), (240, 600, 800)), (30.0, (60, 120), ()),
         (-30.0, (60, 120), ()), (180.0, (60, 120), ()))
"""The moves offered: (heading off the facing, single moves, double moves) in mm: ahead at
the rates of the rule book (60 mm, half a line's move, up to a cavalry column's 400) and
double moves beyond a single move, obliquely 30 degrees right and left, and straight back."""
TURNS = (45.0, -45.0, 180.0)
"""The changes of face offered: half right, half left, about face."""


def destinations(table: Table, unit: Unit, allowance: int) -> tuple[Offer, ...]:
    """The destinations offered to a unit (``to``, ``double``) at the distances of ``STEPS``
    that its allowance covers (a move never costs less than its length): they depend only on
    where it stands and which way it faces, so a move listed once is listed again while the
    unit stands there and the rules allow it; the steps keep those the rules allow now."""
    if allowance <= 0:
        return ()
    fp = table.footprint(unit.id)
    return tuple(offer for offer, length in _destinations(fp.x, fp.y, fp.facing)
                 if length <= (2 if offer[1] else 1) * allowance)


@functools.lru_cache(maxsize=4096)
def _destinations(x: float, y: float, facing: float) -> tuple[tuple[Offer, int], ...]:
    out: list[tuple[Offer, int]] = []
    for heading, singles, doubles in STEPS:
        (dx, dy), _ = bearing_vectors(facing + heading)
        for length, double in [(d, False) for d in singles] + [(d, True) for d in doubles]:
            out.append((((round(x + dx * length, 3), round(y + dy * length, 3), facing),
                         double), length))
    return tuple(out)


def turns(table: Table, unit: Unit) -> tuple[tuple[float, float, float], ...]:
    """The changes of face offered in place (``TURNS``)."""
    fp = table.footprint(unit.id)
    return tuple((fp.x, fp.y, round(normal_degrees(fp.facing + t) % 360.0, 6)) for t in TURNS)


def where_now(table: Table, unit_id: str) -> tuple[float, float, float]:
    """A unit's position and facing, as a move's ``at`` names it."""
    fp = table.footprint(unit_id)
    return (fp.x, fp.y, fp.facing)


def placed(state: State, unit_id: str, end: Footprint) -> State:
    """The state with a unit's footprint moved (and a trace of the move)."""
    table = table_of(state)
    start = table.footprint(unit_id)
    trace = MoveTrace(unit_id, (start.centre, end.centre)) if start.centre != end.centre \
        else None
    new = table.placed(end)
    if trace is not None:
        new = new.with_traces(*_keep(new, unit_id), trace)
    return with_extra(state, table=new)


def _keep(table: Table, unit_id: str) -> tuple[MoveTrace, ...]:
    """The traces kept: the last move of every other unit still on the table (the shots are
    forgotten once a unit moves)."""
    ids = table.units
    return tuple(t for t in table.traces if isinstance(t, MoveTrace) and t.unit_id != unit_id
                 and t.unit_id in ids)
