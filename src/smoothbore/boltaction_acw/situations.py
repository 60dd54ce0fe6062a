"""From positions to the situations the rules take, when the battle is played on a table:
a shot's range, arc, sight, cover and enfilade (Shooting; Ranges); a charge's distance, the
face it strikes and the obstacle defended (Melee); a move's cost through terrain, the friend
it passes through and what forbids it (Movement; Terrain Movement Modifiers); a rout's
heading (Morale Test). The pairs of the acting units are asked of the table at once and
kept in its stores (``Table.store``, carried from table to table), each answer under a key
made of everything it reads (the footprints near the ground it covers), so a later table
where those stand as they stood finds it: the steps' candidates and checks only look the
answers up.

The decisions where the text is silent are interpretations A22 to A30."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    AnswerStore,
    Box,
    ChargeReach,
    Face,
    Feature,
    Footprint,
    ImpassableError,
    Point,
    RateTable,
    Region,
    Route,
    SightLine,
    Table,
    TerrainKind,
    charges,
    crossing_line,
    footprints_near,
    furthest,
    intersecting,
    outline_of,
    polygon,
    region_of,
    rout,
    route,
    segment,
    sharing_ground,
    short_of_units,
    sight_lines,
    units_within_box,
)
from smoothbore.table import Formation as Layout
from smoothbore.table.boxes import FEW as _FEW
from smoothbore.table.boxes import gap_over
from smoothbore.table.footprints import bearing_vectors
from smoothbore.table.paths import PassageKind

from .actions import Move
from .charges import ChargeFacts
from .movement import Pace, Terrain, move_distance
from .placing import COLUMN, FORMED, LINEAR, SKIRMISH, WOODS, rates, relaid
from .rules import (
    RULE_CHARGE,
    RULE_MOVE_CLEAR,
    RULE_MOVEMENT,
    RULE_RIVERS,
    RULE_SIGHT,
    RULE_TERRAIN,
)
from .shooting import LONGEST_RANGE, Cover, ShotFacts, shots
from .state import State, situation
from .units import Formation, Unit
from .validity import MAX_REACH

FloatArray = npt.NDArray[np.float64]
HARD = frozenset({TerrainKind.WALL, TerrainKind.FIELDWORK, TerrainKind.BUILDING})
SOFT = frozenset({TerrainKind.FENCE})
_EPS = 1e-6


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


# --- what the table's answers read: the footprints near a box ---------------------------------
KEEP_OFF = 1.0
"""A move that is not a charge ends at least 1" from every enemy (A26)."""
_TOUCH = 0.01
"""How near a unit's box must come to an answer's ground to count among what it reads."""
def _store(table: Table, what: str) -> AnswerStore:
    """The table's store of this book's answers of one kind (``Table.store``): carried from
    table to table, each answer kept under a key made of everything it reads."""
    return table.store(f"boltaction_acw: {what}")


@attrs.frozen(cache_hash=True)
class Prints:
    """Every footprint of a table, as one part of a store key (an answer that reads them
    all): hashed once a table (``prints_of``), where the tuple would hash every footprint
    at every question (1,000 at 500 a side)."""

    footprints: tuple[Footprint, ...]


def prints_of(table: Table) -> Prints:
    """The table's footprints as a key (``Prints``), made once a table."""
    return Prints(table.footprints)


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def near(table: Table, unit_id: str, inches: float) -> frozenset[str]:
    """The other units that might stand within ``inches`` of ``unit_id`` (A23): those whose
    box comes within ``inches`` of its box (``units_within_box``: the others are further for
    certain). Kept in the table's store by the footprints it reads (all of them)."""
    return _store(table, "near").ask((table.derived(prints_of), unit_id, inches),
                                     lambda: units_within_box(table, unit_id, inches))


def beyond(table: Table, a: str, b: str, inches: float) -> bool:
    """Whether units ``a`` and ``b`` stand so far apart that their distance measured is
    more than ``inches`` (A23), told by the boxes round them: without measuring, and never
    wrongly."""
    return gap_over(table.footprint(a).bounds, table.footprint(b).bounds, inches + 1e-3)


# --- shooting -------------------------------------------------------------------------------
def _sight_key(table: Table, firer_id: str, target_id: str) -> tuple[object, ...]:
    """What a sighting reads: the two footprints and every footprint near the box round
    them (a line of sight between them runs inside it), besides the ground."""
    units = table.units
    firer, target = units[firer_id], units[target_id]
    return (firer, target, footprints_near(table, _union(firer.bounds, target.bounds), _TOUCH))


def sighting_of(table: Table, firer_id: str, target_id: str) -> SightLine | None:
    """What ``firer_id`` sees of ``target_id`` on the table (None: not two enemies on it):
    skirmishers fire all round (Shooting), others in the 45° arc either side of their front
    (A24). Kept in the table's store; the steps' candidates ask for many pairs at once
    (``look_at``)."""
    if target_id not in table.enemies_of(firer_id):
        return None
    return look_at(table, [(firer_id, target_id)])[firer_id, target_id]


def look_at(table: Table, pairs: Iterable[tuple[str, str]]
            ) -> dict[tuple[str, str], SightLine]:
    """What each firer sees of each target of these (firer, enemy) pairs, those the store
    does not hold worked out at once: one question of the table instead of one per pair."""
    store = _store(table, "sight")
    keys = {pair: _sight_key(table, *pair) for pair in pairs}
    found = {pair: store.get(key) for pair, key in keys.items()}
    missing = [pair for pair, seen in found.items() if seen is None]
    if missing:
        half = {f.unit_id: 180.0 for f in table.footprints if f.formation is Layout.SKIRMISH}
        for seen in sight_lines(table, missing, half_angle=half):
            pair = (seen.firer, seen.target)
            store.put(keys[pair], seen)
            found[pair] = seen
    return found


def _charge_key(table: Table, charger_id: str, target_id: str) -> tuple[object, ...]:
    """What a charge reads: the two footprints and every footprint near the ground the
    charger could sweep going straight ahead as far as the target's far side (the units in
    its way), besides the ground and the table's size."""
    units = table.units
    charger, target = units[charger_id], units[target_id]
    (fx, fy), _ = charger.frame
    ahead = (math.dist(charger.centre, target.centre) + charger.length
             + math.hypot(target.width, target.length))
    x0, y0, x1, y1 = charger.bounds
    dx, dy = fx * ahead, fy * ahead
    box = _union(_union(charger.bounds, (x0 + dx, y0 + dy, x1 + dx, y1 + dy)), target.bounds)
    return (charger, target, table.diagonal, footprints_near(table, box, _TOUCH))


def reach_of(table: Table, charger_id: str, target_id: str) -> ChargeReach | None:
    """How ``charger_id`` could charge ``target_id`` on the table (None: not two enemies on
    it): asked at once with every enemy the charger might reach (``reach_from``), and kept
    in the table's store."""
    if target_id not in table.enemies_of(charger_id):
        return None
    found: ChargeReach | None = _store(table, "charge").get(
        _charge_key(table, charger_id, target_id))
    if found is None:
        found = reach_from(table, (charger_id,), ((charger_id, target_id),))[
            charger_id, target_id]
    return found


def reach_from(table: Table, unit_ids: Iterable[str], also: Iterable[tuple[str, str]] = ()
               ) -> dict[tuple[str, str], ChargeReach]:
    """How each of these units could charge each enemy that might stand within the longest
    charge (``MAX_REACH``, 36": told by the boxes, ``near``), and the pairs ``also`` asked,
    those the store does not hold worked out at once. Each pair's answer is its own,
    whatever else is asked with it (issue 28)."""
    ids = [u for u in unit_ids if u in table.units]
    store = _store(table, "charge")
    pairs = [(u, e) for u in ids for e in table.enemies_of(u)
             if e in near(table, u, MAX_REACH)]
    keys = {pair: _charge_key(table, *pair) for pair in dict.fromkeys((*also, *pairs))}
    found = {pair: store.get(key) for pair, key in keys.items()}
    missing = [pair for pair, reach in found.items() if reach is None]
    if missing:
        for reach in charges(table, missing, table.diagonal):
            pair = (reach.charger, reach.target)
            store.put(keys[pair], reach)
            found[pair] = reach
    return found


def outside_arc(table: Table, firer_id: str, target_id: str) -> bool:
    """Whether the target stands for certain outside the firer's 45° front arc (A24), told
    by its corners alone: all of them behind the firer's front edge, or all beyond one of
    the two lines at 45° from its front corners (the arc is the ground on the inner side of
    all three; ``sight_lines`` measures exactly what this leaves in doubt). Never for
    skirmishers nor a unit in a building, who fire all round. Kept in the table's store by
    the two footprints."""
    return not in_arc_doubt(table, firer_id, (target_id,))


def in_arc_doubt(table: Table, firer_id: str, target_ids: Iterable[str]) -> list[str]:
    """The targets not for certain outside the firer's arc (``outside_arc``), in order."""
    store, units = _store(table, "arc"), table.units
    firer = units[firer_id]
    out = []
    for target_id in target_ids:
        target = units[target_id]
        if not store.ask((firer, target), functools.partial(_outside_arc, firer, target)):
            out.append(target_id)
    return out


_ARC_MARGIN = 1e-3
"""How far beyond a line of the arc every corner must stand (inches): far more than the
rounding of any two ways of working out the same frame."""


def _outside_arc(firer: Footprint, target: Footprint) -> bool:
    if firer.formation in (Layout.SKIRMISH, Layout.BUILDING):
        return False
    (fx, fy), (rx, ry) = firer.frame
    w, h, x, y = firer.width / 2, firer.length / 2, firer.x, firer.y
    behind = right = left = True
    for px, py in target.corners.tolist():
        dx, dy = px - x, py - y
        u, v = dx * rx + dy * ry, dx * fx + dy * fy - h  # v: ahead of the front edge
        behind = behind and v < -_ARC_MARGIN
        right = right and v < u - w - _ARC_MARGIN
        left = left and v < -u - w - _ARC_MARGIN
    return behind or right or left


@attrs.frozen
class ShotSituation:
    """A shot as the table has it: the ``facts`` the rules take (None: beyond every weapon's
    range), the ``distance`` measured, the ``sighting`` and what forbids the shot whatever
    the weapon (``problem``: "" if nothing, with its ``rule``)."""

    facts: ShotFacts | None
    distance: float
    sighting: SightLine
    problem: str = ""
    rule: str = ""


def cover_of(table: Table, seen: SightLine) -> Cover:
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
    if target_id not in table.enemies_of(firer_id):
        raise InvalidValueError("target_id", target_id, f"an enemy of {firer_id!r} on the table")
    key = _sight_key(table, firer_id, target_id)
    found: ShotSituation | None = _store(table, "shot").get(key)
    if found is None:
        seen = _store(table, "sight").get(key)
        if seen is None:
            seen = _look_around(state, table, firer_id, target_id)
        found = _situation(table, seen)
        _store(table, "shot").put(key, found)
    return found


def _look_around(state: State, table: Table, firer_id: str, target_id: str) -> SightLine:
    """What the firer sees of the target, and at once what every unit that may shoot now
    sees of every enemy that might stand in its weapon's range: one question of the table
    costs less than several, and the other shots are likely to be asked next."""
    known = situation(state)
    shooters = [state.unit(firer_id), *known.ready.values(),
                *(state.unit(u) for u in sorted(state.extra.halted))]
    pairs = [(firer_id, target_id)]
    for unit in dict.fromkeys(shooters):
        if unit.id not in table.units or not shots(unit):
            continue
        close = near(table, unit.id, unit.weapon.max_range)
        targets = [enemy for enemy in known.enemies.get(unit.side, ()) if enemy in close]
        if not unit.skirmishing:
            targets = in_arc_doubt(table, unit.id, targets)
        pairs.extend((unit.id, enemy) for enemy in targets)
    return look_at(table, pairs)[firer_id, target_id]


def _situation(table: Table, seen: SightLine) -> ShotSituation:
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
@attrs.frozen
class ChargeSituation:
    """A charge as the table has it: the ``facts`` the rules take, the ``reach`` measured,
    and what forbids it whatever the charger (``problem``, "" if nothing, with its
    ``rule``)."""

    facts: ChargeFacts
    reach: ChargeReach
    problem: str = ""
    rule: str = RULE_CHARGE


def charge_situation(state: State, charger_id: str, target_id: str, *,
                     defended: bool = True) -> ChargeSituation:
    """The charge of ``charger_id`` at ``target_id`` measured on the state's table (Melee;
    A27): the distance straight ahead to contact (the target to the charger's direct front
    when some of it lies straight ahead of its front edge), the face struck (flank, rear),
    whether the target defends a linear obstacle between them, and any unit in the way.
    (``defended`` False: a caller that does not need to know whether the target defends an
    obstacle spares the sighting it takes; the facts then say it does not.)"""
    table = table_of(state)
    reach = reach_of(table, charger_id, target_id)
    if reach is None:
        raise InvalidValueError("target_id", target_id,
                                f"an enemy of {charger_id!r} on the table")
    obstacle = False
    if defended:
        seen = sighting_of(table, charger_id, target_id)
        if seen is None:
            raise InvalidValueError("target_id", target_id,
                                    f"an enemy of {charger_id!r} on the table")
        obstacle = bool({table.feature(fid).kind for fid in seen.cover.behind} & LINEAR)
    distance = reach.ahead if reach.ahead is not None else reach.distance
    facts = ChargeFacts(measured(distance), reach.face.is_flank, reach.face is Face.REAR,
                        obstacle, reach.ahead is not None)
    problem = ""
    if reach.ahead is not None and reach.blocked_by:
        problem = f"{', '.join(reach.blocked_by)} in the way of the charge"
    elif reach.ahead is not None:
        problem = _charge_cost_problem(table, state.unit(charger_id), reach.ahead)
        if not problem:
            problem = _charge_end_problem(table, charger_id, target_id, reach.ahead)
            if problem:
                return ChargeSituation(facts, reach, problem, RULE_MOVE_CLEAR)
    return ChargeSituation(facts, reach, problem)


def _charge_end_problem(table: Table, charger_id: str, target_id: str, ahead: float) -> str:
    """What forbids the charger's contact, straight ahead ``ahead`` inches, where it ends
    ("" if nothing): as every move (A26, A27), it ends at least 1" from every enemy but the
    one it charges."""
    start = table.footprint(charger_id)
    end = start.advanced(ahead)
    ending = _Ending(start, (end.x, end.y, end.facing),
                     [(float(x), float(y)) for x, y in end.corners.tolist()])
    return _overlaps(table, charger_id, ending, None, charged=target_id)


def _charge_cost_problem(table: Table, unit: Unit, ahead: float) -> str:
    """Why the charger cannot pay for going ``ahead`` straight to contact at a run ("" if
    it can): the charge is a run (Orders, 3), priced as a run's route is (A26): woods and
    linear obstacles at half, an obstacle crossed within the run's allowance, impassable
    ground refused. Open ground costs its length, which ``charge_problem`` compares."""
    if ahead <= _EPS:
        return ""
    start = table.footprint(unit.id)
    (fx, fy), _ = start.frame
    point = (start.x + fx * ahead, start.y + fy * ahead)
    here = [(float(px), float(py)) for px, py in start.corners.tolist()]
    there = _corners(point[0], point[1], start.frame, start.width / 2, start.length / 2)
    table_rates = rates(unit)
    if _open_ground(table, here + there, table_rates):
        return ""
    allowance = float(move_distance(unit, Pace.RUN))
    try:
        cost = table_rates.cost(_route(table, unit.id, point), table, full_move=allowance)
    except ImpassableError as error:
        return f"{error.feature} ({error.kind}) cannot be crossed here"
    if cost > allowance + _EPS:
        return f"the charge costs {cost:.1f}\" of a run of {allowance:g}\""
    return ""


# --- moves ------------------------------------------------------------------------------------
Place = tuple[float, float, float]
"""A destination: the unit's centre (x, y) and its facing, in inches and degrees."""


@attrs.frozen
class MoveSituation:
    """A move to a destination as the table has it: the unit's footprint before (``start``)
    and after (``end``, at ``to``), its ``cost`` against the ``allowance``, the ground it
    counts as crossing (``terrain``: woods entered, a linear obstacle crossed, or open), the
    friend it passes ``through``, the ``path`` of its centre and what forbids it
    (``problem``, "" if nothing, with its ``rule``)."""

    start: Footprint
    to: Place
    cost: float
    allowance: float
    terrain: Terrain
    through: str | None
    path: tuple[tuple[float, float], ...]
    problem: str = ""
    rule: str = ""

    @property
    def end(self) -> Footprint:
        """The unit's footprint where the move ends."""
        x, y, facing = self.to
        return self.start.moved_to(x, y, facing)


def destination(table: Table, unit_id: str, move: Move) -> Place:
    """Where ``move`` takes the unit: its centre and its facing afterwards (the centre as
    ``Footprint.advanced`` puts it, worked out without building the footprint)."""
    start = table.footprint(unit_id)
    (fx, fy), _ = bearing_vectors(start.facing + move.heading)
    distance = move.distance
    return (start.x + distance * fx, start.y + distance * fy,
            _off(start.facing + move.turn) % 360.0)


def move_situation(state: State, unit_id: str, pace: Pace, move: Move) -> MoveSituation:
    """The ``move`` of ``unit_id`` at ``pace`` on the state's table (Movement; Terrain
    Movement Modifiers; A26): the allowance its rate (double when running), the path
    straight to the destination priced by its ``rates`` (a river away from its crossings, or
    impassable ground, forbids it), free to face any way at the end; it must end on the
    table, on no other unit and at least 1" from every enemy, and may pass through one
    friend (interpolation). Kept in the table's store by what it reads: the unit's way of
    moving, its footprint, the destination and every footprint near the ground it covers
    (within 1" of the box round where it starts and ends)."""
    table = table_of(state)
    unit = state.unit(unit_id)
    start = table.footprint(unit_id)
    to = destination(table, unit_id, move)
    x, y, facing = to
    w, h = start.width / 2, start.length / 2
    there = _corners(x, y, start.frame, w, h)  # where it ends, then turned to its facing
    ends = there if facing == start.facing else _corners(x, y, bearing_vectors(facing), w, h)
    xs, ys = [p[0] for p in (*there, *ends)], [p[1] for p in (*there, *ends)]
    box = _union(start.bounds, (min(xs), min(ys), max(xs), max(ys)))
    key = (start, unit.kind, unit.formation, unit.mounted, pace, to,
           footprints_near(table, box, KEEP_OFF + _TOUCH))
    found: MoveSituation = _store(table, "moves").ask(key, lambda: _judge(table, unit, pace, to))
    return found


def _corners(x: float, y: float, frame: tuple[Point, Point], w: float, h: float
             ) -> list[Point]:
    """The corners of a footprint ``2w`` wide and ``2h`` deep centred on (x, y) with this
    frame, as ``Footprint.corners`` has them (the same arithmetic, in plain floats)."""
    (fx, fy), (rx, ry) = frame
    return [(x + u * rx + v * fx, y + u * ry + v * fy)
            for u, v in ((-w, h), (w, h), (w, -h), (-w, -h))]


def _judge(table: Table, unit: Unit, pace: Pace, to: Place) -> MoveSituation:
    """The judgement of the move of ``unit`` to ``to`` (A26), the geometry in plain floats
    where a box settles it, and exactly (Shapely, the route) where it does not."""
    start = table.footprint(unit.id)
    x, y, facing = to
    w, h = start.width / 2, start.length / 2
    here = [(float(px), float(py)) for px, py in start.corners.tolist()]
    there = _corners(x, y, start.frame, w, h)
    ends = there if facing == start.facing else _corners(x, y, bearing_vectors(facing), w, h)
    way: Route | None = None
    clear = False
    ending = _Ending(start, to, ends)
    holds = _holds(table, ending)
    settled = False  # the end found on no unit and clear of the enemy, passing through none
    if not holds:  # refused whatever the way: no need to find it
        clear = True
    elif math.dist(start.centre, (x, y)) > _EPS:
        clear = _clear(table, start, here + there, rates(unit))
        if not clear:
            problem = _overlaps(table, unit.id, ending, None)
            if problem:  # refused whichever way it goes and whatever it passes through
                return MoveSituation(start, to, 0.0, float(move_distance(unit, pace)),
                                     Terrain.OPEN, None, (start.centre,), problem,
                                     RULE_MOVE_CLEAR)
            settled = True
            way = _route(table, unit.id, (x, y))
    return _assess(table, unit, pace, ending, way, clear=clear, holds=holds,
                   settled=settled)


def _route(table: Table, unit_id: str, point: tuple[float, float]) -> Route:
    """``route`` of the unit's centre to ``point``, kept in the table's store by the
    footprints it reads (all of them: an advance and a run to the same place share it)."""
    return _store(table, "routes").ask((table.derived(prints_of), unit_id, *point),
                                       lambda: route(table, unit_id, point))


@attrs.frozen
class _Ending:
    """Where a move ends: the start moved to ``to`` (centre and facing), whose ``corners``
    are known; the footprint itself only built when a test needs its shape."""

    start: Footprint
    to: Place
    corners: list[Point]

    @functools.cached_property
    def box(self) -> Box:
        """The box round the footprint where the move ends."""
        xs, ys = [p[0] for p in self.corners], [p[1] for p in self.corners]
        return (min(xs), min(ys), max(xs), max(ys))

    def footprint(self) -> Footprint:
        x, y, facing = self.to
        return self.start.moved_to(x, y, facing)


Priced = tuple[tuple[Box, ...], tuple[Feature, ...]]
"""The features of the kinds a way of moving pays for, and the box round each."""


def feature_shapes(table: Table) -> dict[RateTable, Priced]:
    """The ground each way of moving pays for on the table (the features of the kinds its
    rates price) and their boxes. Worked out once for a ground, kept in the table's store by
    the features."""
    found: dict[RateTable, Priced] = _store(table, "ground").ask(
        table.features, lambda: _feature_shapes(table))
    return found


def _feature_shapes(table: Table) -> dict[RateTable, Priced]:
    out: dict[RateTable, Priced] = {}
    for table_rates in (FORMED, COLUMN, SKIRMISH):
        priced = _priced(table_rates)
        features = tuple(f for f in table.features if f.kind in priced)
        out[table_rates] = (tuple(region_of(f).bounds for f in features), features)
    return out


def _priced(table_rates: RateTable) -> frozenset[TerrainKind]:
    """The kinds of ground that change what a move costs at these rates."""
    return frozenset({k for k, _ in table_rates.speeds} | {k for (k, _), _ in
                                                           table_rates.passages}
                     | {k for k, _ in table_rates.masks})


_NEAR = 1e-6
"""Boxes this close may hold shapes that touch (the exact test decides)."""


def _clear(table: Table, start: Footprint, corners: list[Point],
           table_rates: RateTable) -> bool:
    """Whether the ground the footprint sweeps moving straight from where it stands to where
    it ends (the hull of the two: a rectangle moved without turning sweeps no more; their
    ``corners``) touches no ground these rates price and no other unit: then the route is
    open ground all the way, and its cost its length (the same answer as pricing the route,
    without working it out). Only what a box round the sweep meets is tested exactly."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    x0, y0 = min(xs) - _NEAR, min(ys) - _NEAR
    x1, y1 = max(xs) + _NEAR, max(ys) + _NEAR
    others = [outline_of(f)  # kept with the footprint: no layout is built
              for f in footprints_near(table, (x0, y0, x1, y1))
              if f.unit_id != start.unit_id]
    if not _open_ground(table, corners, table_rates):
        return False
    return not (others and intersecting(polygon(corners).hull(), others).any())


def _open_ground(table: Table, corners: list[Point], table_rates: RateTable) -> bool:
    """Whether the ground swept moving straight between the footprints whose ``corners``
    are given touches no ground these rates price (then a route over it costs its length)."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    x0, y0 = min(xs) - _NEAR, min(ys) - _NEAR
    x1, y1 = max(xs) + _NEAR, max(ys) + _NEAR
    boxes, features = feature_shapes(table)[table_rates]
    near = [features[i] for i, b in enumerate(boxes)
            if b[0] <= x1 and b[2] >= x0 and b[1] <= y1 and b[3] >= y0]
    if not near:
        return True
    return not intersecting(polygon(corners).hull(), near).any()


def _assess(table: Table, unit: Unit, pace: Pace, ending: _Ending, way: Route | None,
            *, clear: bool = False, holds: bool | None = None,
            settled: bool = False) -> MoveSituation:
    """The judgement of a move to ``ending`` whose centre's route is ``way`` (None: it
    stays, perhaps turning, or with ``clear`` it goes straight over open ground touching
    nothing). ``holds``: whether the table holds the end, if known; ``settled``: the end
    already found to stand on no unit and clear of the enemy, for a move passing through
    none."""
    start = ending.start
    allowance = float(move_distance(unit, pace))
    x, y, _ = ending.to
    path: tuple[tuple[float, float], ...] = (start.centre,)

    def refused(problem: str, rule: str = RULE_MOVEMENT, cost: float = 0.0) -> MoveSituation:
        return MoveSituation(start, ending.to, cost, allowance, Terrain.OPEN, None, path,
                             problem, rule)

    if not (_holds(table, ending) if holds is None else holds):
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
    problem = "" if settled and through is None else _overlaps(table, unit.id, ending,
                                                                through)
    if problem:
        return refused(problem, RULE_MOVE_CLEAR, cost)
    return MoveSituation(start, ending.to, cost, allowance, terrain, through, path)


def _holds(table: Table, ending: _Ending) -> bool:
    """``Table.holds`` of the footprint where the move ends, settled by its corners unless
    they lie within a hair of an edge."""
    x0, y0, x1, y1 = ending.box
    inside = x0 > _NEAR and y0 > _NEAR and x1 < table.width - _NEAR and y1 < table.depth - _NEAR
    if inside:
        return True
    outside = x0 < -1e-3 or y0 < -1e-3 or x1 > table.width + 1e-3 or y1 > table.depth + 1e-3
    return not outside and table.holds(ending.footprint())


def _overlaps(table: Table, unit_id: str, ending: _Ending, through: str | None, *,
              charged: str | None = None) -> str:
    """What forbids the move where it ends: an enemy within 1" (but the one it ``charged``,
    for a charge's contact), a friend it stands on. Only units a box round the end comes
    near enough are measured exactly."""
    side = ending.start.side
    around = ending.box
    end: Region | None = None
    x0, y0, x1, y1 = around
    for f in footprints_near(table, around, max(KEEP_OFF, _NEAR)):  # the others: too far
        b = f.bounds
        enemy = f.side != side
        reach = KEEP_OFF if enemy else _NEAR
        if (b[0] > x1 + reach or b[2] < x0 - reach or b[1] > y1 + reach or b[3] < y0 - reach
                or f.unit_id in (unit_id, charged) or gap_over(around, b, reach)):
            continue
        if end is None:
            end = region_of(ending.footprint())
        if enemy:
            gap = end.distance(f)
            if gap < KEEP_OFF - _EPS and charged is not None:
                return f"the charge would end {gap:.2f}\" from the enemy ({f.unit_id}), " \
                       "which it does not charge: a charge makes contact with its target only"
            if gap < KEEP_OFF - _EPS:
                return f"the move ends within 1\" of the enemy ({f.unit_id}): only a " \
                       "charge makes contact"
            continue
        if f.unit_id != through:
            if end.distance(f) < _EPS and end.shares_ground(f):
                return f"the move ends on {f.unit_id}"
        elif end.shares_ground(f):
            return f"the move ends on {f.unit_id}, which it passes through"
    return ""


def reform_problem(state: State, unit: Unit) -> str:
    """Why ``unit`` (the unit in its new formation, mounted, dismounted or limbered) cannot
    take its new footprint where it stands ("" if it can): laid with its front edge kept
    (A33), it must end, as every move does (A26), on no other unit and at least 1" from
    every enemy."""
    table = table_of(state)
    if unit.id not in table.units:
        return ""
    new = relaid(table, unit)
    return _overlaps(table, unit.id, _Ending(new, (new.x, new.y, new.facing),
                                             [tuple(c) for c in new.corners.tolist()]), None)


DISTANCES = (3.0, 6.0, 12.0, 24.0)
"""The distances offered (A28), each where the unit's allowance (doubled on a road for a
column) can reach it."""
HEADINGS = {Pace.ADVANCE: (0.0, 45.0, -45.0), Pace.RUN: (0.0, 180.0)}
"""The headings offered off the unit's facing: advancing, straight ahead and 45 degrees
either side; running, straight ahead and straight back."""


def offered_moves(state: State, unit_id: str, pace: Pace) -> tuple[Move, ...]:
    """The moves a unit is offered (A28), unjudged: each of ``DISTANCES`` its allowance
    (doubled on a road for a column) might reach, towards each of ``HEADINGS``, keeping its
    facing, and one towards the nearest enemy (``closing_move``). Plain arithmetic on the
    units' centres; ``move_situation`` judges each when it is tried."""
    unit = state.unit(unit_id)
    return (*fixed_moves(unit, pace),
            *_closing(table_of(state), unit_id, float(move_distance(unit, pace))))


def fixed_moves(unit: Unit, pace: Pace) -> tuple[Move, ...]:
    """The fixed set of moves offered to the unit (A28), the first of ``offered_moves``:
    the same wherever it stands."""
    return _fixed_moves(move_distance(unit, pace), unit.formation is Formation.COLUMN, pace)


@functools.lru_cache(maxsize=64)
def _fixed_moves(allowance: int, column: bool, pace: Pace) -> tuple[Move, ...]:
    """The fixed set of moves offered at an allowance (A28): the same on every table."""
    limit = allowance * (2 if column else 1)
    return tuple(Move(d, h) for h in HEADINGS[pace] for d in DISTANCES if d <= limit)


def _closing(table: Table, unit_id: str, limit: float) -> tuple[Move, ...]:
    closing = closing_move(table, unit_id, limit)
    return () if closing is None else (closing,)


def destinations(state: State, unit_id: str, pace: Pace) -> tuple[Move, ...]:
    """The moves offered to a unit (``offered_moves``) that the rules allow where it stands
    (``move_situation``). The fixed set is the same wherever the unit stands, so a move
    offered once is offered again whenever the rules allow it; any other a caller names is
    judged the same way."""
    return tuple(move for move in offered_moves(state, unit_id, pace)
                 if not move_situation(state, unit_id, pace, move).problem)


def fixed_move(move: Move, pace: Pace) -> bool:
    """Whether ``move`` is one of the fixed set offered at this pace wherever the unit
    stands (A28): one of ``DISTANCES`` towards one of ``HEADINGS``, keeping its facing."""
    return move.turn == 0 and move.distance in DISTANCES and move.heading in HEADINGS[pace]


CLOSE_TO = KEEP_OFF + 0.5
"""How near a closing move brings the unit (A28): its round, and the enemy's, 1.5" apart."""


def closing_move(table: Table, unit_id: str, limit: float) -> Move | None:
    """The move towards the nearest enemy (A28): straight at its centre, turning to face it
    (it ends straight ahead, for a charge next), as far as ``limit`` or until the circles
    round the two footprints come within 1.5" (never on it nor within 1" of it); None with
    no enemy, or less than 1" to go."""
    found = _towards_nearest(table, unit_id)
    if found is None:
        return None
    room, heading = found
    go = min(limit, room)
    if go < 1.0:
        return None
    return Move(round(go, 1), round(heading, 1), round(heading, 1))


def _enemy_prints(table: Table) -> dict[str, Prints]:
    """The footprints of each side's enemies (``Table.enemies_of``), by side."""
    units = table.units
    first = {f.side: f.unit_id for f in reversed(table.footprints) if f.side}
    return {side: Prints(tuple(units[e] for e in table.enemies_of(uid)))
            for side, uid in first.items()}


_NO_PRINTS = Prints(())


def radii(table: Table) -> dict[str, float]:
    """The radius of the circle round each unit's footprint (its half diagonal), by id,
    worked out at once for the table (``Table.derived``)."""
    footprints = table.footprints
    half_w = np.fromiter((f.width / 2 for f in footprints), float, len(footprints))
    half_l = np.fromiter((f.length / 2 for f in footprints), float, len(footprints))
    return dict(zip((f.unit_id for f in footprints), np.hypot(half_w, half_l).tolist(),
                    strict=True))


def nearest_enemy(table: Table, unit_id: str) -> tuple[float, str] | None:
    """The unit's nearest enemy by the circles round them: how far its centre lies from the
    enemy's circle (the distance between centres less the enemy's radius), and the enemy
    (the first id of those as near); None with no enemy."""
    start = table.footprint(unit_id)
    enemies = table.derived(_enemy_prints).get(start.side, _NO_PRINTS).footprints
    if not enemies:
        return None
    here, radius = start.centre, table.derived(radii)
    return min((math.dist(here, e.centre) - radius[e.unit_id], e.unit_id) for e in enemies)


def _towards_nearest(table: Table, unit_id: str) -> tuple[float, float] | None:
    """How far the unit may go straight at its nearest enemy's centre before the circles
    round the two come within 1.5", and that heading off its facing (None: no enemy). Kept
    in the table's store by what it reads: the unit's footprint and its enemies'."""
    start = table.footprint(unit_id)
    key = (start, table.derived(_enemy_prints).get(start.side, _NO_PRINTS))
    found: tuple[float, float] | None = _store(table, "closing").ask(
        key, lambda: _work_towards_nearest(table, unit_id))
    return found


def _work_towards_nearest(table: Table, unit_id: str) -> tuple[float, float] | None:
    found = nearest_enemy(table, unit_id)
    if found is None:
        return None
    gap, nearest = found
    start = table.footprint(unit_id)
    ex, ey = table.footprint(nearest).centre
    heading = _off(math.degrees(math.atan2(ex - start.x, ey - start.y)) - start.facing)
    return gap - table.derived(radii)[unit_id] - CLOSE_TO, heading


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
    table), the friends it passes through (``through``) and its centre's ``path``; what
    stopped it short (``stopped_by``: the unit it would have ended on, or for a retreat
    "allowance", "table edge" or a feature's id) and, for a retreat, how far it goes
    (``moved``)."""

    end: Footprint | None
    through: tuple[str, ...]
    path: tuple[tuple[float, float], ...]
    moved: float = 0.0
    stopped_by: str = ""


def rout_flight(state: State, unit_id: str) -> Flight:
    """A routing unit's move (Morale Test; A29): at run speed, on the heading that leaves it
    further from every enemy it can see (towards its home edge if it sees none), facing the
    way it runs; ending off the table, it leaves it. With no such heading it stays."""
    table = table_of(state)
    unit = state.unit(unit_id)
    start = table.footprint(unit_id)
    run = rout(table, unit_id, float(move_distance(unit, Pace.RUN)))
    if run is None:
        return Flight(start, (), (start.centre,))
    return _flight(table, start, run.end, None if run.leaves_table else run.end)


RETREAT_CLEARANCE = 1.0
"""A retreat, as every move, ends at least 1" from every enemy (A26, A27)."""


def retreat_flight(state: State, unit_id: str, away_from: str) -> Flight:
    """A charged unit's retreat of a full move straight away from its charger (Melee; A27),
    keeping its facing, through friends in the way, stopping at the table edge, 1" short of
    an enemy (as a move does, A26), or where the ground stops it."""
    table = table_of(state)
    unit = state.unit(unit_id)
    start = table.footprint(unit_id)
    cx, cy = table.footprint(away_from).centre
    bearing = math.degrees(math.atan2(start.x - cx, start.y - cy))
    heading = _off(bearing - start.facing)
    friends = table.friends_of(unit_id)
    reached = furthest(table, unit_id, heading, float(move_distance(unit)), rates(unit),
                       full_move=float(move_distance(unit)), through=friends,
                       clearance=RETREAT_CLEARANCE)
    end, landed = _short_of_units(table, start, reached.route.end)
    flight = _flight(table, start, end, end)
    stopped = landed or reached.stopped_by
    if stopped == "allowance" and reached.distance < move_distance(unit) - _EPS:
        stopped = _ground_that_cost(table, start.centre, reached.route.end.centre) or stopped
    return attrs.evolve(flight, moved=math.dist(start.centre, end.centre), stopped_by=stopped)


def _ground_that_cost(table: Table, start: Point, end: Point) -> str:
    """The feature that took the rest of a straight move's allowance ("" if none found): a
    linear obstacle the centre stopped at (it could not pay the crossing), else woods the
    centre passed through."""
    for feature in table.features:
        line = crossing_line(feature) if feature.kind in LINEAR else None
        if line is not None and line.distance(end) <= 1e-3:
            return feature.feature_id
    way = segment(start, end)
    for feature in table.features:
        if feature.kind in WOODS and way.intersects(feature):
            return feature.feature_id
    return ""


FALL_BACK_GROUND = SKIRMISH
"""A fall back is 2" of ground, not of a move: terrain does not shorten it, only what no
unit can cross (A31)."""


def fall_back_flight(state: State, unit_id: str, enemy_id: str, inches: float) -> Flight:
    """Victors failing their morale test fall back ``inches`` facing the enemy (Melee; A31):
    straight away from the enemy's centre, stopping before another unit, impassable ground
    or the table edge, then turned to face the enemy's centre (kept as it was if turning
    would put it on another unit or off the table)."""
    table = table_of(state)
    start = table.footprint(unit_id)
    cx, cy = table.footprint(enemy_id).centre
    bearing = math.degrees(math.atan2(start.x - cx, start.y - cy))
    # away from the enemy it touches: only the other units can stop it
    reached = furthest(table, unit_id, _off(bearing - start.facing), inches, FALL_BACK_GROUND,
                       through=(enemy_id,))
    end = reached.route.end
    facing = math.degrees(math.atan2(cx - end.x, cy - end.y)) % 360.0
    turned = end.moved_to(end.x, end.y, facing)
    others = [f for f in footprints_near(table, turned.bounds, _NEAR)
              if f.unit_id != unit_id]  # only a unit whose box meets it
    if table.holds(turned) and not sharing_ground(turned, others):
        end = turned
    if math.dist(start.centre, end.centre) <= _EPS and end.facing == start.facing:
        return Flight(start, (), (start.centre,))
    return Flight(end, (), reached.route.points)


def _short_of_units(table: Table, start: Footprint, end: Footprint
                    ) -> tuple[Footprint, str]:
    """``short_of_units`` asked of a table holding only the units whose box meets the box
    the way sweeps (the end's footprint slid back to the start's centre): the others cannot
    be stood on anywhere along it, so the answer is the same, and the table tests a few
    units at each try instead of every unit on it (issue 28: 0.1 s a rout among 1,000)."""
    footprints = table.footprints
    if len(footprints) <= _FEW:
        return short_of_units(table, start, end)
    (sx, sy), (ex, ey) = start.centre, end.centre
    x0, y0, x1, y1 = end.bounds
    dx, dy = sx - ex, sy - ey
    swept = (min(x0, x0 + dx), min(y0, y0 + dy), max(x1, x1 + dx), max(y1, y1 + dy))
    near = tuple(f for f in footprints_near(table, swept, _NEAR)
                 if f.unit_id != start.unit_id)
    if len(near) == len(footprints) - 1:
        return short_of_units(table, start, end)
    return short_of_units(Table(table.width, table.depth, table.measure, footprints=near),
                          start, end)


def _flight(table: Table, start: Footprint, goal: Footprint,
            end: Footprint | None) -> Flight:
    landed = ""
    if end is not None and table.holds(end):
        end, landed = _short_of_units(table, start, end)
        goal = end
    if math.dist(start.centre, goal.centre) <= _EPS:
        return Flight(end, (), (start.centre,), stopped_by=landed)
    way = route(table, start.unit_id, goal.centre)
    friends = set(table.friends_of(start.unit_id))
    through = tuple(u for u in way.units_crossed if u in friends)
    if end is not None and not table.holds(end):
        end = None
    return Flight(end, through, way.points, stopped_by=landed)


