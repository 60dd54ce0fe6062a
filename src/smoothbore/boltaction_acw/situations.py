"""From positions to the situations the rules take, when the battle is played on a table:
a shot's range, arc, sight, cover and enfilade (Shooting; Ranges); a charge's distance, the
face it strikes and the obstacle defended (Melee); a move's cost through terrain, the friend
it passes through and what forbids it (Movement; Terrain Movement Modifiers); a rout's
heading (Morale Test). Every pair is asked of the table at once and kept with it
(``Table.derived``): the steps' candidates and checks only look the answers up.

The decisions where the text is silent are interpretations A22 to A30."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import attrs
import numpy as np
import numpy.typing as npt
import shapely

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    ChargeReach,
    CrossingCost,
    Face,
    Footprint,
    ImpassableError,
    RateTable,
    Route,
    Sighting,
    Table,
    TerrainKind,
    charges,
    enemy_pairs,
    furthest,
    rout,
    route,
    sightings,
)
from smoothbore.table import Formation as Layout
from smoothbore.table.paths import Combine, PassageKind

from .actions import Move
from .charges import ChargeFacts
from .movement import Pace, Terrain, move_distance
from .rules import RULE_MOVE_CLEAR, RULE_MOVEMENT, RULE_RIVERS, RULE_SIGHT, RULE_TERRAIN
from .shooting import LONGEST_RANGE, Cover, ShotFacts
from .state import State, find
from .units import Formation, Unit

WOODS = frozenset({TerrainKind.LIGHT_WOODS, TerrainKind.DENSE_WOODS})
LINEAR = frozenset({TerrainKind.FENCE, TerrainKind.WALL, TerrainKind.STREAM,
                    TerrainKind.FIELDWORK})
HARD = frozenset({TerrainKind.WALL, TerrainKind.FIELDWORK, TerrainKind.BUILDING})
SOFT = frozenset({TerrainKind.FENCE})
KEEP_OFF = 1.0
"""A move that is not a charge ends at least 1" from every enemy (A26)."""
_EPS = 1e-6

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


def table_of(state: State) -> Table:
    """The state's table (the battle must be played on one)."""
    table = state.extra.table
    if table is None:
        raise InvalidValueError("state.extra.table", None, "a battle played on a table")
    return table


def measured(distance: float) -> int:
    """A measured distance as the whole inches the rules compare with their ranges: rounded
    up, so that 6.2" is not within 6" (A23)."""
    return max(0, math.ceil(distance - _EPS))


# --- shooting -------------------------------------------------------------------------------
def all_sightings(table: Table) -> Mapping[tuple[str, str], Sighting]:
    """What every unit sees of every enemy on the table, asked at once: skirmishers fire all
    round (Shooting), others in the 45° arc either side of their front (A24)."""
    half = {f.unit_id: 180.0 for f in table.footprints if f.formation is Layout.SKIRMISH}
    found = sightings(table, enemy_pairs(table), half_angle=half)
    return {(s.firer, s.target): s for s in found}


@attrs.frozen
class ShotSituation:
    """A shot as the table has it: the ``facts`` the rules take (None: beyond every weapon's
    range), the ``distance`` measured, the ``sighting`` and what forbids the shot whatever
    the weapon (``problem``: "" if nothing, with its ``rule``)."""

    facts: ShotFacts | None
    distance: float
    sighting: Sighting
    problem: str = ""
    rule: str = ""


def cover_of(table: Table, seen: Sighting) -> Cover:
    """The target's cover against this firer (A25): hard behind a wall or fieldwork (or in a
    building or work), soft behind a fence or with half of it in woods, else none."""
    cover = seen.cover
    kinds = {table.feature(fid).kind for fid in cover.behind}
    if kinds & HARD or (cover.holds is not None and table.feature(cover.holds).kind in HARD):
        return Cover.HARD
    if kinds & SOFT or any(cover.stands_in(kind) for kind in WOODS) or (
            sum(cover.share(kind) for kind in WOODS) >= 0.5 - 1e-12):
        return Cover.SOFT
    return Cover.NONE


def shot_situation(state: State, firer_id: str, target_id: str) -> ShotSituation:
    """The shot of ``firer_id`` at ``target_id`` measured on the state's table: the range
    between nearest points, whether the target is in the firer's arc, the line of sight
    (buildings, higher hills and other units block it), the target's cover and enfilade (the
    firer off its flank)."""
    table = table_of(state)
    seen = table.derived(all_sightings).get((firer_id, target_id))
    if seen is None:
        raise InvalidValueError("target_id", target_id,
                                f"an enemy of {firer_id!r} on the table")
    return _situation(table, seen)


def _situation(table: Table, seen: Sighting) -> ShotSituation:
    distance = seen.distance
    inches = measured(distance)
    facts = None
    if inches <= LONGEST_RANGE:
        facts = ShotFacts(inches, cover_of(table, seen), seen.enfilade, seen.in_arc)
    if not seen.line_clear:
        blockers = ", ".join((*seen.blocked_by, *seen.units_between))
        return ShotSituation(facts, distance, seen, f"no line of sight: {blockers} in the way",
                             RULE_SIGHT)
    if facts is None:
        return ShotSituation(None, distance, seen, f"{distance:.1f}\" is beyond every "
                             f"weapon's range ({LONGEST_RANGE}\")", RULE_SIGHT)
    return ShotSituation(facts, distance, seen)


# --- charges ----------------------------------------------------------------------------------
def all_charges(table: Table) -> Mapping[tuple[str, str], ChargeReach]:
    """How every unit could charge every enemy on the table, asked at once: the distance its
    front goes straight ahead to touch it, the face struck and any unit in the way."""
    found = charges(table, None, table.diagonal)
    return {(r.charger, r.target): r for r in found}


@attrs.frozen
class ChargeSituation:
    """A charge as the table has it: the ``facts`` the rules take, the ``reach`` measured,
    and what forbids it whatever the charger (``problem``, "" if nothing)."""

    facts: ChargeFacts
    reach: ChargeReach
    problem: str = ""


def charge_situation(state: State, charger_id: str, target_id: str) -> ChargeSituation:
    """The charge of ``charger_id`` at ``target_id`` measured on the state's table (Melee;
    A27): the distance straight ahead to contact (the target to the charger's direct front
    when some of it lies straight ahead of its front edge), the face struck (flank, rear),
    whether the target defends a linear obstacle between them, and any unit in the way."""
    table = table_of(state)
    reach = table.derived(all_charges).get((charger_id, target_id))
    if reach is None:
        raise InvalidValueError("target_id", target_id,
                                f"an enemy of {charger_id!r} on the table")
    seen = table.derived(all_sightings)[charger_id, target_id]
    behind = {table.feature(fid).kind for fid in seen.cover.behind}
    distance = reach.ahead if reach.ahead is not None else reach.distance
    facts = ChargeFacts(measured(distance), reach.face.is_flank, reach.face is Face.REAR,
                        bool(behind & LINEAR), reach.ahead is not None)
    problem = ""
    if reach.ahead is not None and reach.blocked_by:
        problem = f"{', '.join(reach.blocked_by)} in the way of the charge"
    return ChargeSituation(facts, reach, problem)


# --- moves ------------------------------------------------------------------------------------
Place = tuple[float, float, float]
"""A destination: the unit's centre (x, y) and its facing, in inches and degrees."""


@attrs.frozen
class MoveSituation:
    """A move to a destination as the table has it: the unit afterwards (``end``), its
    ``cost`` against the ``allowance``, the ground it counts as crossing (``terrain``: woods
    entered, a linear obstacle crossed, or open), the friend it passes ``through``, the
    ``path`` of its centre and what forbids it (``problem``, "" if nothing, with its
    ``rule``)."""

    end: Footprint
    cost: float
    allowance: float
    terrain: Terrain
    through: str | None
    path: tuple[tuple[float, float], ...]
    problem: str = ""
    rule: str = ""
    zone: object = attrs.field(default=None, eq=False, repr=False)
    """The ground the judgement looked at: the hull of the unit where it starts and ends (a
    unit more than 1" from it cannot change the answer)."""


def move_memo(table: Table) -> dict[tuple[object, ...], object]:
    """The moves judged and the destinations offered on this table, by unit, its way of
    moving (type, formation, mounted), pace and destination: they depend on nothing else, so
    every state with this table shares them."""
    return {}


def _mover(unit: Unit, pace: Pace) -> tuple[object, ...]:
    return (unit.id, unit.kind, unit.formation, unit.mounted, pace)


def destination(table: Table, unit_id: str, move: Move) -> Place:
    """Where ``move`` takes the unit: its centre and its facing afterwards."""
    start = table.footprint(unit_id)
    end = start.advanced(move.distance, move.heading)
    return (end.x, end.y, _off(start.facing + move.turn) % 360.0)


def move_situation(state: State, unit_id: str, pace: Pace, move: Move) -> MoveSituation:
    """The ``move`` of ``unit_id`` at ``pace`` on the state's table (Movement; Terrain
    Movement Modifiers; A26): the allowance its rate (double when running), the path
    straight to the destination priced by its ``rates`` (a river away from its crossings, or
    impassable ground, forbids it), free to face any way at the end; it must end on the
    table, on no other unit and at least 1" from every enemy, and may pass through one
    friend (interpolation)."""
    table = table_of(state)
    unit = find(state, unit_id)
    memo = table.derived(move_memo)
    to = destination(table, unit_id, move)
    key = (*_mover(unit, pace), to)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _judge(table, unit, pace, to)
    assert isinstance(found, MoveSituation)
    return found


def _judge(table: Table, unit: Unit, pace: Pace, to: Place) -> MoveSituation:
    start = table.footprint(unit.id)
    x, y, facing = to
    zone = shapely.convex_hull(shapely.multipoints(np.vstack(
        [start.corners, start.moved_to(x, y).corners, start.moved_to(x, y, facing).corners])))
    if math.dist(start.centre, (x, y)) <= _EPS:
        found = _assess(table, unit, pace, to, None)
    elif _clear(table, start, start.moved_to(x, y), rates(unit)):
        found = _assess(table, unit, pace, to, None, clear=True)
    else:
        found = _assess(table, unit, pace, to, route(table, unit.id, (x, y)))
    return attrs.evolve(found, zone=zone)


def carried(old: Table, new: Table, unit_id: str) -> Table:
    """``new`` (``old`` with ``unit_id`` moved) with the moves judged on ``old`` that the move
    cannot change: those of other units whose ``zone`` is more than 1" from where it stood
    and from where it stands. The same answers as judging again (every judgement depends only on the
    ground and the units inside its zone), kept instead of worked out afresh."""
    before = old.derived(move_memo)
    if not before:
        return new
    shapes = [old.footprint(unit_id).shape, new.footprint(unit_id).shape]
    kept = [(key, judged) for key, judged in before.items()
            if key[0] != "destinations" and key[0] != unit_id
            and isinstance(judged, MoveSituation) and judged.zone is not None]
    if not kept:
        return new
    zones = np.array([judged.zone for _, judged in kept], dtype=object)
    reach = KEEP_OFF + 0.01
    touched = ((shapely.distance(zones, shapes[0]) <= reach)
               | (shapely.distance(zones, shapes[1]) <= reach))
    after = new.derived(move_memo)
    for (key, judged), hit in zip(kept, touched, strict=True):
        if not hit:
            after.setdefault(key, judged)
    return new


def feature_shapes(table: Table) -> dict[TerrainKind, npt.NDArray[np.object_]]:
    """The ground the table's features of each kind cover, as arrays (for many tests at
    once)."""
    kinds: dict[TerrainKind, list[object]] = {}
    for feature in table.features:
        kinds.setdefault(feature.kind, []).append(feature.area)
    return {kind: np.array(areas, dtype=object) for kind, areas in kinds.items()}


def _priced(table_rates: RateTable) -> frozenset[TerrainKind]:
    """The kinds of ground that change what a move costs at these rates."""
    return frozenset({k for k, _ in table_rates.speeds} | {k for (k, _), _ in
                                                           table_rates.passages}
                     | {k for k, _ in table_rates.masks})


def _clear(table: Table, start: Footprint, end: Footprint, table_rates: RateTable) -> bool:
    """Whether the ground the footprint sweeps moving straight from ``start`` to ``end``
    (the hull of the two: a rectangle moved without turning sweeps no more) touches no
    ground these rates price and no other unit: then the route is open ground all the way,
    and its cost its length (the same answer as pricing the route, without working it
    out)."""
    swept = shapely.convex_hull(shapely.multipoints(np.vstack([start.corners, end.corners])))
    shapes = table.derived(feature_shapes)
    for kind in _priced(table_rates):
        found = shapes.get(kind)
        if found is not None and shapely.intersects(swept, found).any():
            return False
    layout = table.layout
    hits = layout.tree.query(swept, predicate="intersects")
    return all(layout.footprints[int(i)].unit_id == start.unit_id for i in hits)


def _assess(table: Table, unit: Unit, pace: Pace, to: Place, way: Route | None, *,
            clear: bool = False) -> MoveSituation:
    """The judgement of a move whose centre's route is ``way`` (None: it stays, perhaps
    turning, or with ``clear`` it goes straight over open ground touching nothing)."""
    start = table.footprint(unit.id)
    allowance = float(move_distance(unit, pace))
    x, y, facing = to
    end = start.moved_to(x, y, facing)
    path: tuple[tuple[float, float], ...] = (start.centre,)

    def refused(problem: str, rule: str = RULE_MOVEMENT, cost: float = 0.0) -> MoveSituation:
        return MoveSituation(end, cost, allowance, Terrain.OPEN, None, path, problem, rule)

    if not table.holds(end):
        return refused("the move would leave the table")
    cost, terrain, through = 0.0, Terrain.OPEN, None
    if clear:
        path = (start.centre, (x, y))
        cost = math.dist(start.centre, (x, y))
        if cost > allowance + _EPS:
            return refused(f"the move costs {cost:.1f}\" of an allowance of "
                           f"{allowance:g}\"", RULE_TERRAIN, cost)
    if way is not None:
        path = way.points
        try:
            cost = rates(unit).cost(way, table, full_move=allowance)
        except ImpassableError as error:
            return refused(f"{error.feature} ({error.kind}) cannot be crossed here",
                           RULE_RIVERS)
        if cost > allowance + _EPS:
            return refused(f"the move costs {cost:.1f}\" of an allowance of "
                           f"{allowance:g}\"", RULE_TERRAIN, cost)
        enemies = set(table.enemies_of(unit.id))
        crossed = way.units_crossed
        if any(u in enemies for u in crossed):
            return refused("a move does not pass through the enemy", RULE_MOVE_CLEAR, cost)
        if len(crossed) > 1:
            return refused("a unit passes through at most one friend", RULE_MOVE_CLEAR, cost)
        through = crossed[0] if crossed else None
        if way.swept & WOODS and not unit.skirmishing:
            terrain = Terrain.WOODS
        elif any(p.event is PassageKind.CROSS and p.kind in LINEAR for p in way.passages):
            terrain = Terrain.LINEAR_OBSTACLE
    problem = _overlaps(table, unit.id, end, through)
    if problem:
        return refused(problem, RULE_MOVE_CLEAR, cost)
    return MoveSituation(end, cost, allowance, terrain, through, path)


def _overlaps(table: Table, unit_id: str, end: Footprint, through: str | None) -> str:
    others = [f for f in table.footprints if f.unit_id != unit_id]
    if not others:
        return ""
    shapes = np.array([f.shape for f in others], dtype=object)
    gaps = shapely.distance(end.shape, shapes)
    side = table.footprint(unit_id).side
    for f, gap in zip(others, gaps, strict=True):
        if f.side != side and gap < KEEP_OFF - _EPS:
            return f"the move ends within 1\" of the enemy ({f.unit_id}): only a charge " \
                   "makes contact"
        if f.side == side and gap < _EPS and f.unit_id != through and shapely.relate_pattern(
                end.shape, f.shape, "T********"):
            return f"the move ends on {f.unit_id}"
        if f.unit_id == through and shapely.relate_pattern(end.shape, f.shape, "T********"):
            return f"the move ends on {f.unit_id}, which it passes through"
    return ""


DISTANCES = (3.0, 6.0, 12.0, 24.0)
"""The distances offered (A28), each where the unit's allowance (doubled on a road for a
column) can reach it."""
HEADINGS = {Pace.ADVANCE: (0.0, 45.0, -45.0), Pace.RUN: (0.0, 180.0)}
"""The headings offered off the unit's facing: advancing, straight ahead and 45 degrees
either side; running, straight ahead and straight back."""


def destinations(state: State, unit_id: str, pace: Pace) -> tuple[Move, ...]:
    """The moves offered to a unit (A28): each of ``DISTANCES`` it might reach, towards each
    of ``HEADINGS``, keeping its facing, where the rules allow (``move_situation``). The set
    is the same wherever the unit stands, so a move offered once is offered again whenever
    the rules allow it; any other a caller names is judged the same way."""
    table = table_of(state)
    unit = find(state, unit_id)
    memo = table.derived(move_memo)
    key = ("destinations", *_mover(unit, pace))
    found = memo.get(key)
    if found is None:
        limit = move_distance(unit, pace) * (2 if unit.formation is Formation.COLUMN else 1)
        found = memo[key] = tuple(
            move for move in (Move(d, h) for h in HEADINGS[pace] for d in DISTANCES
                              if d <= limit)
            if not move_situation(state, unit_id, pace, move).problem)
    return found  # type: ignore[return-value]


def _off(degrees: float) -> float:
    value = math.fmod(degrees, 360.0)
    if value > 180.0:
        value -= 360.0
    elif value <= -180.0:
        value += 360.0
    return value


# --- routs and retreats ---------------------------------------------------------------------
@attrs.frozen
class Flight:
    """A rout or a retreat on the table: where the unit ends (``end``; None: it leaves the
    table), the friends it passes through (``through``) and its centre's ``path``."""

    end: Footprint | None
    through: tuple[str, ...]
    path: tuple[tuple[float, float], ...]


def rout_flight(state: State, unit_id: str) -> Flight:
    """A routing unit's move (Morale Test; A29): at run speed, on the heading that leaves it
    further from every enemy it can see (towards its home edge if it sees none), facing the
    way it runs; ending off the table, it leaves it. With no such heading it stays."""
    table = table_of(state)
    unit = find(state, unit_id)
    start = table.footprint(unit_id)
    run = rout(table, unit_id, float(move_distance(unit, Pace.RUN)))
    if run is None:
        return Flight(start, (), (start.centre,))
    return _flight(table, start, run.end, None if run.leaves_table else run.end)


def retreat_flight(state: State, unit_id: str, away_from: str) -> Flight:
    """A charged unit's retreat of a full move straight away from its charger (Melee; A27),
    keeping its facing, through friends in the way, stopping at the table edge, before an
    enemy, or where the ground stops it."""
    table = table_of(state)
    unit = find(state, unit_id)
    start = table.footprint(unit_id)
    cx, cy = table.footprint(away_from).centre
    bearing = math.degrees(math.atan2(start.x - cx, start.y - cy))
    heading = _off(bearing - start.facing)
    friends = table.friends_of(unit_id)
    reached = furthest(table, unit_id, heading, float(move_distance(unit)), rates(unit),
                       full_move=float(move_distance(unit)), through=friends,
                       clearance=0.0)
    return _flight(table, start, reached.route.end, reached.route.end)


def _flight(table: Table, start: Footprint, goal: Footprint,
            end: Footprint | None) -> Flight:
    if math.dist(start.centre, goal.centre) <= _EPS:
        return Flight(end, (), (start.centre,))
    way = route(table, start.unit_id, goal.centre)
    friends = set(table.friends_of(start.unit_id))
    through = tuple(u for u in way.units_crossed if u in friends)
    if end is not None and not table.holds(end):
        end = None
    return Flight(end, through, way.points)
