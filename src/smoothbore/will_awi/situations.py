"""Positions into the situations Will's rules take: one function per mechanism, so that
firing, charging and moving can be asked with unit ids alone when the battle has a table.

The table answers every pair at once (``sightings``, ``charges``) and keeps the answers per
ground and units (``Table.derived``): asking pair by pair in a loop would cost ~1 ms a pair.
What a move costs is the book's own check (``movement.check_move``) of a plan read off the
route: the legs over the ground, the lines crossed and the buildings entered."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

import attrs
import numpy as np
import shapely

from smoothbore.core import IllegalActionError, InvalidValueError
from smoothbore.table import (
    ChargeReach,
    CrossingCost,
    Destination,
    Footprint,
    ImpassableError,
    PassageKind,
    Point,
    RateTable,
    Route,
    Sighting,
    SightRules,
    Table,
    TerrainKind,
    charges,
    furthest,
    rout,
    route,
    sightings,
)
from smoothbore.table import Face as TableFace
from smoothbore.table.footprints import bearing_vectors, normal_degrees

from . import rules
from .charges import ChargeFacts, Face, charge_reach
from .firing import Cover, FireFacts, Woods
from .fortifications import cover_for_points
from .movement import (
    CROSSING_COST,
    TERRAIN_SPEED,
    Crossing,
    Leg,
    MovePlan,
    Terrain,
    mover_of,
    retire_deduction,
)
from .options import Options
from .positions import Place
from .state import State, illegal
from .units import Unit

MEASURED = "the table measures this: give no measured facts"
"""Why an action carrying measured facts is refused on a table."""

SIGHT = SightRules()
"""Buildings block sight, hills higher than both ends block it, other units block it (Rules -
Firing: "the whole of the target base is visible"); woods limit sight by the target's troop
type, which the firing rules check (``check_target_detected``)."""

CHARGE_REACH = 6.0
"""The longest charge reach (cavalry, Rules - Charging): the table is asked once for it."""

_KINDS: Mapping[TerrainKind, Terrain] = MappingProxyType({
    TerrainKind.LIGHT_WOODS: Terrain.OPEN_WOODS,
    TerrainKind.DENSE_WOODS: Terrain.DENSE_WOODS,
    TerrainKind.ROUGH: Terrain.ROUGH,
    TerrainKind.SWAMP: Terrain.SWAMP,
    TerrainKind.GENTLE_HILL: Terrain.GENTLE_SLOPE,
    TerrainKind.STEEP_HILL: Terrain.STEEP_SLOPE,
    TerrainKind.IMPASSABLE: Terrain.IMPASSABLE_SLOPE,
    TerrainKind.RIVER: Terrain.RIVER,
    TerrainKind.FORD: Terrain.FORD,
    TerrainKind.ROAD: Terrain.ROAD,
    TerrainKind.BRIDGE: Terrain.ROAD,
})
"""The table's kinds of ground as the terrain table names them (buildings and fieldworks are
open ground inside: entering a building is a crossing)."""

_LINES: Mapping[TerrainKind, Crossing] = MappingProxyType({
    TerrainKind.FENCE: Crossing.FENCE_OR_WALL,
    TerrainKind.WALL: Crossing.FENCE_OR_WALL,
    TerrainKind.FIELDWORK: Crossing.FENCE_OR_WALL,
    TerrainKind.STREAM: Crossing.STREAM,
})
"""The lines a move crosses, as the crossings table names them."""

_MASKS = {TerrainKind.FORD: {TerrainKind.RIVER, TerrainKind.STREAM},
          TerrainKind.BRIDGE: {TerrainKind.RIVER, TerrainKind.STREAM}}


# --- the table's answers, once per ground and units ------------------------------------------
def all_sightings(table: Table) -> Mapping[tuple[str, str], Sighting]:
    """What every unit sees of every enemy (by (firer, target))."""
    return MappingProxyType({(s.firer, s.target): s for s in sightings(table, rules=SIGHT)})


def all_reaches(table: Table) -> Mapping[tuple[str, str], ChargeReach]:
    """How every unit could charge every enemy (by (charger, target)), asked with the
    longest reach; each charger's own reach is compared afterwards."""
    return MappingProxyType({(c.charger, c.target): c
                             for c in charges(table, None, CHARGE_REACH)})


def table_of(state: State) -> Table:
    """The battle's table (the caller has made sure there is one)."""
    table = state.extra.table
    assert table is not None
    return table


# --- firing ----------------------------------------------------------------------------------
@attrs.frozen
class ShotFacts:
    """One unit's fire as the table measures it: the ``sighting``, the ``facts`` the firing
    rules take, and the ``work`` (a work id) whose cover the target holds ("" none)."""

    sighting: Sighting
    facts: FireFacts
    work: str = ""


def shot_facts(state: State, firer: str, target: str, action: object = None) -> ShotFacts:
    """Range (nearest points), arc, sight, woods and cover of ``firer``'s fire at
    ``target``: an IllegalActionError when the two are not enemies on the table."""
    table = table_of(state)
    found = table.derived(all_sightings).get((firer, target))
    if found is None:
        raise illegal(action, "the target must be an enemy unit on the table", rules.FIRING)
    cover, work = target_cover(state, found)
    woods = Woods.NONE
    if found.cover.stands_in(TerrainKind.DENSE_WOODS):
        woods = Woods.DENSE
    elif found.cover.stands_in(TerrainKind.LIGHT_WOODS):
        woods = Woods.OPEN
    if cover is Cover.OPEN and woods is not Woods.NONE:
        cover = Cover.SOFT
    facts = FireFacts(
        range_inches=round(found.distance, 6),
        cover=cover,
        angle=max(-180.0, min(180.0, found.angle)),
        target_visible=found.line_clear and found.base_visible,
        woods=woods,
        higher_ground=found.rise != 0,
    )
    return ShotFacts(found, facts, work)


def target_cover(state: State, seen: Sighting) -> tuple[Cover, str]:
    """The cover of the firing factors (Rules - Firing: Firing factors) and the work it comes
    from: a work held gives its own (Defence Values: 2-4 points soft, 5-8 hard, 9+ solid),
    another building hard cover; behind a wall hard, behind a fence or a fieldwork line soft;
    in woods soft."""
    table = table_of(state)
    works = {w.id: w for w in state.extra.works}
    held = seen.cover.holds
    if held is not None:
        if held in works:
            return works[held].cover, held
        feature = table.feature(held)
        if feature.kind is TerrainKind.BUILDING:
            return Cover.HARD, ""
        return cover_for_points(feature.strength or 2), ""
    best = Cover.OPEN
    for fid in seen.cover.behind:
        kind = table.feature(fid).kind
        cover = Cover.HARD if kind is TerrainKind.WALL else (
            Cover.SOFT if kind in (TerrainKind.FENCE, TerrainKind.FIELDWORK) else Cover.OPEN)
        if fid in works:
            cover = works[fid].cover
        if cover.factor < best.factor:
            best = cover
    return best, ""


# --- charging --------------------------------------------------------------------------------
@attrs.frozen
class ChargeSituation:
    """A charge as the table measures it: the ``reach`` answer, how far the charger goes
    straight ahead to contact (``distance``, None: the target is not directly to its front),
    the ``facts`` of the charged unit's position, whether the charge goes ``over_obstacle``
    or ``uphill``."""

    reach: ChargeReach
    distance: float | None
    facts: ChargeFacts
    over_obstacle: bool
    uphill: bool

    @property
    def in_front(self) -> bool:
        """The target is directly to the charger's front (Rules - Charging)."""
        return self.distance is not None


_FACES = {TableFace.FRONT: Face.FRONT, TableFace.LEFT: Face.FLANK,
          TableFace.RIGHT: Face.FLANK, TableFace.REAR: Face.REAR}


def charge_facts(state: State, charger: str, target: str,
                 action: object = None) -> ChargeSituation:
    """Contact straight ahead, the face struck (by where the charger stands), whether the
    target is behind an obstacle (as the charger sees it), in a building or a fieldwork it
    holds, and whether the charge goes over the obstacle or uphill."""
    table = table_of(state)
    reach = table.derived(all_reaches).get((charger, target))
    seen = table.derived(all_sightings).get((charger, target))
    if reach is None or seen is None:
        raise illegal(action, "the target must be an enemy unit on the table", rules.CHARGING)
    held = seen.cover.holds
    kind = None if held is None else table.feature(held).kind
    in_building = kind is TerrainKind.BUILDING
    facts = ChargeFacts(
        face=Face.FRONT if in_building else _FACES[reach.face],
        behind_obstacle=bool(seen.cover.behind),
        in_building=in_building,
        in_fortification=kind is TerrainKind.FIELDWORK,
    )
    ahead = None if reach.ahead is None or reach.blocked_by else round(reach.ahead, 6)
    return ChargeSituation(reach, ahead, facts, bool(seen.cover.behind), seen.rise > 0)


def in_charge_reach(state: State, charger: Unit, target: str) -> bool:
    """The target is directly ahead within the charger's reach, nothing in the way."""
    found = table_of(state).derived(all_reaches).get((charger.id, target))
    return (found is not None and found.ahead is not None and not found.blocked_by
            and found.ahead <= charge_reach(charger) + 1e-9)


# --- moving ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=256)
def rate_table(unit: Unit, options: Options) -> RateTable:
    """The terrain and crossings tables for the unit's kind of mover as a table's rates
    (Rules - Movement: Effects of terrain); fords and bridges hide the water they cross."""
    mover = mover_of(unit).value
    speeds: dict[TerrainKind, Fraction | None] = {}
    for kind, terrain in _KINDS.items():
        speeds[kind] = TERRAIN_SPEED[terrain][mover]
    passages: dict[object, CrossingCost | None] = {}
    for kind, crossing in _LINES.items():
        share = CROSSING_COST[crossing][mover]
        passages[kind] = None if share is None else CrossingCost(share=share)
    return RateTable(speeds=speeds, passages=passages, masks=_MASKS,
                     rule=rules.MOVEMENT_TERRAIN)


def _terrain(kinds: frozenset[TerrainKind], rates: RateTable) -> tuple[Terrain, ...]:
    found = tuple(sorted({_KINDS[k] for k in rates.counted(kinds) if k in _KINDS},
                         key=lambda t: t.value))
    return found or (Terrain.OPEN,)


def plan_of(state: State, unit: Unit, to: Place, action: object = None) -> MovePlan:
    """The move plan of the unit's route to ``to`` (its centre in a straight line, then
    facing ``to[2]``): the legs over the ground, the lines crossed, the buildings entered and
    left, friends passed through, retiring, the facing change and the nearest enemy at the
    end, for the book's own check of the allowance (``movement.check_move``). Ground or a
    line the unit cannot cross is an ImpassableError naming the feature; passing through an
    enemy or ending off the table an IllegalActionError. Worked out once per table, unit and
    destination (the check and the handler share it)."""
    found = _plan(table_of(state), unit, to, state.options)
    if isinstance(found, ImpassableError):
        raise ImpassableError(action, found.feature, found.kind, found.rule)
    if isinstance(found, IllegalActionError):
        raise illegal(action, found.why, found.rule)
    return found


@functools.lru_cache(maxsize=4096)
def _plan(table: Table, unit: Unit, to: Place,
          options: Options) -> MovePlan | IllegalActionError:
    rates = rate_table(unit, options)
    here = table.footprint(unit.id)
    try:
        path = _route(table, unit.id, (to[0], to[1]))
    except InvalidValueError as error:
        return IllegalActionError(None, f"{error.field}: {error.allowed}", rules.MOVEMENT)
    for leg in path.legs:
        blocked = rates.impassable(leg, table)
        if blocked is not None:
            return ImpassableError(None, blocked[0], blocked[1], rules.MOVEMENT_TERRAIN)
    legs = tuple(Leg(round(leg.length, 6), _terrain(leg.kinds, rates))
                 for leg in path.legs if leg.length > 1e-9)
    crossings: list[Crossing] = []
    for passage in path.passages:
        if passage.event is PassageKind.CROSS and passage.kind in _LINES:
            if rates.passage(passage.kind, passage.event) is None:
                return ImpassableError(None, passage.feature, passage.kind,
                                       rules.MOVEMENT_TERRAIN)
            crossings.append(_LINES[passage.kind])
        elif passage.kind is TerrainKind.BUILDING:
            crossings.append(Crossing.ENTER_BUILDING if passage.event is PassageKind.ENTER
                             else Crossing.LEAVE_BUILDING)
    end = path.end.moved_to(path.end.x, path.end.y, to[2])
    if not table.holds(end):
        return IllegalActionError(None, f"{unit.name} would end off the table", rules.MOVEMENT)
    enemies = [u for u in path.units_crossed if table.footprint(u).side != unit.side]
    if enemies:
        return IllegalActionError(None, f"{unit.name} cannot pass through the enemy "
                                  f"{enemies[0]}", rules.MOVEMENT)
    turned = normal_degrees(to[2] - here.facing)
    if abs(turned) > 1e-6 and not legs:
        struck = _turn_blocked(table, unit.id, turned)
        if struck:
            return IllegalActionError(None, f"the turn would strike {struck[0]}", rules.FACING)
    nearest = _nearest_enemy(table, unit.id, end)
    return MovePlan(
        legs=legs,
        crossings=tuple(crossings),
        retiring=path.retiring,
        passes_through=len(path.units_crossed),
        enemy_within_24=nearest is not None and nearest <= 24,
        facing_change=round(turned, 6),
        nearest_enemy=None if nearest is None else min(round(nearest, 6), 1e6),
    )


def known_routes(table: Table) -> dict[tuple[str, Point], Route]:
    """The routes already worked out on this table, by (unit id, end point): a destination
    found by ``furthest`` comes with its route, which the check then need not find again."""
    return {}


def _route(table: Table, unit_id: str, point: Point) -> Route:
    memo = table.derived(known_routes)
    key = (unit_id, point)
    found = memo.get(key)
    if found is None:
        found = memo[key] = route(table, unit_id, point)
    return found


def _nearest_enemy(table: Table, unit_id: str, at: Footprint | None = None) -> float | None:
    """The distance from the unit (or from ``at``, where it would stand) to the nearest
    enemy (None: no enemy on the table)."""
    enemies = table.enemies_of(unit_id)
    if not enemies:
        return None
    layout = table.layout
    own = layout.shapes[layout.index[unit_id]] if at is None else at.shape
    return float(shapely.distance(own, layout.shapes[layout.rows(enemies)]).min())


@functools.lru_cache(maxsize=2048)
def _destinations(table: Table, unit: Unit, allowance: float, options: Options,
                  enemies: tuple[str, ...]) -> tuple[Place, ...]:
    here = table.footprint(unit.id)
    found: list[Place] = []
    ahead = _go(table, unit, options, 0.0, allowance, allowance)
    _add(found, here, ahead, 1.0, table)
    _add(found, here, ahead, 0.5, table)
    if enemies:
        layout = table.layout
        gaps = shapely.distance(layout.shapes[layout.index[unit.id]],
                                layout.shapes[layout.rows(enemies)])
        nearest = table.footprint(enemies[int(gaps.argmin())])
        bearing = math.degrees(math.atan2(nearest.x - here.x, nearest.y - here.y))
        off = normal_degrees(bearing - here.facing)
        if abs(off) <= 45 and abs(off) > 1:
            _add(found, here, _go(table, unit, options, off, allowance, allowance), 1.0, table)
        elif abs(off) > 45:
            found.append((here.x, here.y, round(normal_degrees(bearing) % 360.0, 3)))
    back = allowance - retire_deduction(unit)
    if back > 0:
        _add(found, here, _go(table, unit, options, 180.0, back, allowance), 1.0, table)
    return tuple(found)


def _go(table: Table, unit: Unit, options: Options, heading: float, budget: float,
        allowance: float) -> Destination:
    """How far the unit goes towards ``heading`` with ``budget``: the whole way when the
    straight route is open ground the move pays for and ends clear of the enemy (one route
    asked), else as far as ``furthest`` finds."""
    here = table.footprint(unit.id)
    (dx, dy), _ = bearing_vectors(here.facing + heading)
    point = (here.x + dx * budget, here.y + dy * budget)
    end = here.moved_to(*point)
    if table.holds(end):
        path = _route(table, unit.id, point)
        nearest = _nearest_enemy(table, unit.id, end)
        if (not path.legs[1:] and not path.legs[0].kinds and not path.passages
                and not path.units_crossed and (nearest is None or nearest >= 1.0)):
            return Destination(heading, point, budget, budget, "allowance", path)
    rates = rate_table(unit, options)
    return furthest(table, unit.id, heading, budget, rates, full_move=allowance,
                    clearance=1.0)


def _add(found: list[Place], here: Footprint, where: Destination, share: float,
         table: Table) -> None:
    go = where.distance * share
    if go < 0.5:
        return
    if share == 1.0:
        table.derived(known_routes).setdefault((here.unit_id, where.point), where.route)
        point = (*where.point, here.facing)
    else:
        dx, dy = where.point[0] - here.x, where.point[1] - here.y
        point = (here.x + dx * share, here.y + dy * share, here.facing)
    if point not in found:
        found.append(point)


def destinations(state: State, unit: Unit, allowance: float) -> tuple[Place, ...]:
    """A few places the unit can reach by the rules: straight ahead at the full and half
    allowance, towards the nearest enemy (when within 45 degrees of its front) stopping short
    of 1" from it, or turning to face it where it stands (more than 45 degrees: the whole
    move), and straight back (retiring, less the deduction), each stopped by the ground, the
    table edge and other units."""
    table = table_of(state)
    return _destinations(table, unit, allowance, state.options, table.enemies_of(unit.id))


# --- routs and retirements -------------------------------------------------------------------
@attrs.frozen
class RoutSituation:
    """A rout as the table finds it: where the unit ends (None: no way that takes it
    further from every visible enemy, it cannot move), whether it leaves the table, and
    whether an enemy is within 6"."""

    end: Footprint | None
    leaves_table: bool
    enemy_within_6: bool


def rout_facts(state: State, unit: Unit, distance: float) -> RoutSituation:
    """Rules - Charging: Rout: directly away at rout speed, ending further from every visible
    enemy; a unit with no such way cannot move; one that runs off the table leaves it by its
    side's edge."""
    table = table_of(state)
    found = rout(table, unit.id, distance, rules=SIGHT)
    nearest = _nearest_enemy(table, unit.id)
    near = nearest is not None and nearest <= 6
    if found is None:
        return RoutSituation(None, False, near)
    return RoutSituation(None if found.leaves_table else found.end, found.leaves_table, near)


def retire_end(state: State, unit: Unit, distance: float, about_face: bool) -> Footprint:
    """Where a retirement ends: straight back as far as ``distance`` goes before the table
    edge or another unit (turned about first when it turns to retire)."""
    table = table_of(state)
    here = table.footprint(unit.id)
    if about_face:
        table = table.placed(here.turned(180.0))
        heading = 0.0
    else:
        heading = 180.0
    if distance <= 0:
        return table.footprint(unit.id)
    free = RateTable()
    where = furthest(table, unit.id, heading, distance, free)
    return table.footprint(unit.id).moved_to(*where.point)


# --- facing changes --------------------------------------------------------------------------
def facing_facts(state: State, unit_id: str,
                 degrees: float) -> tuple[tuple[tuple[str, float], ...], bool]:
    """What a facing change in D needs (Rules - Movement: Changing Facing; FAQs (5) 1): the
    enemies in the unit's arc with their distance, and whether the turn about its centre
    would strike another unit or an obstacle, or take it over the table edge."""
    table = table_of(state)
    seen = table.derived(all_sightings)
    enemies = tuple((e, round(seen[(unit_id, e)].distance, 6))
                    for e in table.enemies_of(unit_id)
                    if (unit_id, e) in seen and seen[(unit_id, e)].in_arc)
    off = not table.holds(table.footprint(unit_id).turned(degrees))
    return enemies, off or bool(_turn_blocked(table, unit_id, degrees))


_SOLID = frozenset({TerrainKind.BUILDING, TerrainKind.IMPASSABLE, TerrainKind.WALL,
                    TerrainKind.FENCE, TerrainKind.FIELDWORK})
"""What a turning unit cannot pass over (Changing Facing: "an obstacle or other units")."""


def _turn_blocked(table: Table, unit_id: str, degrees: float) -> tuple[str, ...]:
    """The units and obstacles a turn about the centre would strike: those within the circle
    the unit's corners sweep (its half-diagonal about its centre), read once per table."""
    if not degrees:
        return ()
    return table.derived(turning_room).get(unit_id, ())


def turning_room(table: Table) -> Mapping[str, tuple[str, ...]]:
    """For every unit, the other units and the obstacles within the circle its corners
    sweep as it turns about its centre."""
    layout = table.layout
    discs = shapely.buffer(shapely.points(layout.centre), layout.radius, quad_segs=8)
    found: dict[str, list[str]] = {f.unit_id: [] for f in layout.footprints}
    ids = [f.unit_id for f in layout.footprints]
    if ids:
        near, other = layout.tree.query(discs, predicate="intersects")
        for i, j in zip(near.tolist(), other.tolist(), strict=True):
            if i != j:
                found[ids[i]].append(ids[j])
        for feature in table.features:
            if feature.kind in _SOLID:
                hit = shapely.intersects(discs, feature.area)
                for i in np.flatnonzero(hit).tolist():
                    found[ids[i]].append(feature.feature_id)
    return MappingProxyType({k: tuple(sorted(v)) for k, v in found.items()})


def facing_to_nearest(state: State, unit_id: str) -> float | None:
    """The turn (whole degrees, clockwise) that faces the unit towards the nearest enemy it
    sees (line of sight clear) when none it sees is in its arc; None otherwise."""
    table = table_of(state)
    seen = table.derived(all_sightings)
    visible = [seen[(unit_id, e)] for e in table.enemies_of(unit_id)
               if (unit_id, e) in seen and seen[(unit_id, e)].line_clear]
    if not visible or any(s.in_arc for s in visible):
        return None
    nearest = min(visible, key=lambda s: s.distance)
    here, there = table.footprint(unit_id), table.footprint(nearest.target)
    bearing = math.degrees(math.atan2(there.x - here.x, there.y - here.y))
    return float(round(normal_degrees(bearing - here.facing)))


def rush_end(state: State, unit: Unit, distance: float) -> Footprint | None:
    """Where a Highland charge of ``distance`` ends ('45): the unit turns to the nearest
    enemy and goes straight at it until it touches it, the ground stops it or the distance
    is spent (None: no enemy on the table)."""
    table = table_of(state)
    enemies = table.enemies_of(unit.id)
    if not enemies:
        return None
    layout = table.layout
    here = table.footprint(unit.id)
    gaps = shapely.distance(here.shape, layout.shapes[layout.rows(enemies)])
    nearest = table.footprint(enemies[int(gaps.argmin())])
    bearing = math.degrees(math.atan2(nearest.x - here.x, nearest.y - here.y))
    turned = here.moved_to(here.x, here.y, round(normal_degrees(bearing) % 360.0, 3))
    if not table.holds(turned):
        turned = here
    facing_enemy = table.placed(turned)
    where = furthest(facing_enemy, unit.id, 0.0, distance, rate_table(unit, state.options),
                     full_move=distance)
    return turned.moved_to(*where.point)
