"""From positions to the situations the rules take: one function per mechanism, so that
shooting, charging and moving can be asked with unit ids alone (Bloodybacks 9.3, Shooting;
Visibility; Movement; Charges and melee; interpretations B51 to B56).

Every question of a table is asked for all pairs at once and kept with ``Table.derived``
(per ground and units, shared by every step until a unit moves or changes formation):
``sightings_of`` (every enemy pair's range, arc, sight, woods and cover), ``reaches_of``
(every enemy pair's charge reach). The per-pair functions read those answers."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType

import attrs
import numpy as np

from smoothbore.core import IllegalActionError, InvalidValueError, Log, revised
from smoothbore.table import (
    Edge,
    Face,
    Footprint,
    ImpassableError,
    Leg,
    MoveTrace,
    RateTable,
    Route,
    Sighting,
    SightLine,
    Table,
    TerrainKind,
    ahead_in_reach,
    charges,
    cover_of,
    enemies_in_reach,
    furthest,
    in_contact,
    lines_crossed,
    regions,
    rout,
    route,
    sight_lines,
    sightings,
    table_of,
    touching_faces,
    woods_along,
)
from smoothbore.table import nearest_enemy as nearest_of_enemies
from smoothbore.table.footprints import Formation as FootprintFormation
from smoothbore.table.footprints import bearing_vectors, normal_degrees

from . import command, movement, shooting
from .answers import (
    around,
    ground_store,
    layout_store,
    on_ground,
    per_layout,
    spanning,
    within,
)
from .charges import ChargeFacts, Contact
from .melee import Fate
from .placement import HALF_ARC, SIGHT, rates_for, refit
from .reports import Moves, Pursuit, Retreat
from .rules import RULE_CHARGES, RULE_MOVEMENT, RULE_MOVES, RULE_VISIBILITY
from .state import State
from .units import Formation, Unit, UnitType

_ROUGH = {TerrainKind.ROUGH: movement.Terrain.DIFFICULT,
          TerrainKind.SWAMP: movement.Terrain.DIFFICULT}

MAX_TURN = 90.0
"""A move may end facing up to 90 degrees off the unit's facing, the wheel's outer corner
paying for it (B54)."""

CLEARANCE = 1.0
"""Moves offered towards the enemy stop an inch short of contact (charges make contact)."""


# --- shooting -----------------------------------------------------------------------------
def sightings_of(table: Table) -> Mapping[tuple[str, str], Sighting]:
    """What every unit sees of every enemy, by (firer, target): all pairs at once."""
    found = sightings(table, None, half_angle=HALF_ARC, rules=SIGHT)
    return {(s.firer, s.target): s for s in found}


def seen_by(table: Table, firer: str) -> Mapping[str, SightLine]:
    """What ``firer`` sees of every enemy, by target id (``seen_of`` all of them)."""
    return seen_of(table, firer, table.enemies_of(firer))


def seen_of(table: Table, firer: str, targets: tuple[str, ...]) -> dict[str, SightLine]:
    """What ``firer`` sees of each of ``targets`` (enemies on the table), by target id: the
    line of sight of each pair (``sight_lines``: the ``Sighting`` less what the rules here
    take from the ground instead, ``ground_between``), the pairs not yet asked on this
    layout measured at once, each kept with the layout and for the ground under the two
    footprints and those of the units between them (``answers``)."""
    store, layout = layout_store(table)
    found: dict[str, SightLine] = {}
    missing = []
    for t in targets:
        seen = store.get(("seen", layout, (firer, t)))
        if seen is None:
            missing.append((firer, t))
        else:
            found[t] = seen
    if missing:
        for pair, seen in _seen(table, missing).items():
            store.put(("seen", layout, pair), seen)
            found[pair[1]] = seen
    return {t: found[t] for t in targets}


def _seen(table: Table, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], SightLine]:
    """What the firer of each pair sees of its target, worked out or found in the ground's
    store."""
    store = ground_store(table)
    keys = {}
    for firer, enemy in pairs:
        mine, theirs = table.footprint(firer), table.footprint(enemy)
        between = within(table, spanning(mine, theirs), (firer, enemy))
        keys[(firer, enemy)] = ("sight line", mine, theirs, between)
    found: dict[tuple[str, str], SightLine] = {pair: store.get(key)
                                                for pair, key in keys.items()}
    missing = [pair for pair, seen in found.items() if seen is None]
    if missing:
        for seen in sight_lines(table, missing, half_angle=HALF_ARC, rules=SIGHT):
            pair = (seen.firer, seen.target)
            store.put(keys[pair], seen)
            found[pair] = seen
    return found


def _radius(footprint: Footprint) -> float:
    """How far the footprint reaches from its centre at most (half its diagonal)."""
    return 0.5 * math.hypot(footprint.width, footprint.length)


_SLACK = 0.01
"""What the cheap tests below allow beyond the exact measures (rounding)."""


def enemies_near(table: Table, unit_id: str, reach: float) -> tuple[str, ...]:
    """The enemies on the table that may lie within ``reach`` of the unit's nearest point and
    in its arc (``out_of_shot``): a cheap test that never leaves out one that does (the
    exact measure is the check's, ``seen_by``). Worked out once per layout for each unit and
    reach."""
    return per_layout(table, "near", (unit_id, reach),
                      lambda: enemies_in_reach(table, unit_id, reach, HALF_ARC))


def reachable(table: Table, charger: str, targets: Iterable[str], longest: float
              ) -> frozenset[str]:
    """Those of ``targets`` (units on the table) that ``may_reach`` does not rule out, all
    at once (the table's ``ahead_in_reach``)."""
    return ahead_in_reach(table, charger, targets, longest)


def out_of_shot(table: Table, firer: str, target: str, reach: float) -> str:
    """Why ``target`` is certainly beyond ``reach`` of ``firer`` or outside its arc ("" when
    it may be within both), from the centres and sizes alone: its centre too far for any
    part of it to be near enough, or for any part to lie ahead of the firer's front edge
    within 45 degrees of it, measured at the front corners (B52; ``sightings``; each bound
    widened by the target's half diagonal, times the slope of the bound)."""
    mine = table.footprint(firer)
    theirs = table.footprint(target)
    dx, dy = theirs.x - mine.x, theirs.y - mine.y
    spread = _radius(theirs) + _SLACK
    if math.hypot(dx, dy) > reach + _radius(mine) + spread:
        return f"{target} is beyond {reach:g}\" of {firer}"
    if mine.formation is FootprintFormation.BUILDING:  # all round
        return ""
    (fx, fy), (rx, ry) = mine.frame
    ahead = dx * fx + dy * fy - mine.length / 2
    beside = abs(dx * rx + dy * ry) - mine.width / 2
    if ahead < -spread or beside - ahead > math.sqrt(2) * spread:
        return (f"{target} lies behind or beside the front of {firer}: outside its arc "
                f"({HALF_ARC:g} degrees either side)")
    return ""


def may_reach(table: Table, charger: str, target: str, longest: float) -> bool:
    """Whether some part of ``target`` may lie in the strip straight ahead of the front
    edge of ``charger`` within ``longest`` (its centre close enough to that strip, in the
    charger's frame): a cheap test that never refuses a target ``measured_charge``
    accepts."""
    mine = table.footprint(charger)
    theirs = table.footprint(target)
    (fx, fy), (rx, ry) = mine.frame
    dx, dy = theirs.x - mine.x, theirs.y - mine.y
    side, ahead = dx * rx + dy * ry, dx * fx + dy * fy
    spread = _radius(theirs) + _SLACK
    front = mine.length / 2
    return (abs(side) <= mine.width / 2 + spread
            and front - spread <= ahead <= front + longest + spread)


def sighting_of(state: State, firer: str, target: str) -> SightLine:
    """What ``firer`` sees of ``target`` on the state's table."""
    return seen_of(_table(state), firer, (target,))[target]


@attrs.frozen
class GroundBetween:
    """What a shot or a charge reads of the ground besides the line of sight: whether the
    firer stands in heavier woods (``firer_in_woods``), how far the line of fire runs inside
    heavier woods (``woods_inches``), and the target's ground level less the firer's
    (``rise``): what a ``Sighting`` holds as ``firer_cover``, ``woods`` and ``rise``."""

    firer_in_woods: bool
    woods_inches: float
    rise: int


def ground_between(table: Table, seen: SightLine) -> GroundBetween:
    """The ground of a pair seen (``GroundBetween``), measured as ``sightings`` measures it:
    the firer's own ground (``in_heavy_woods``), the line's length inside the heavier woods
    (``woods_along``), the levels at the two centres."""
    inches = sum((length for kind, length in woods_along(table, seen.line)
                  if kind is TerrainKind.DENSE_WOODS), 0.0)
    layout = table.layout
    levels = layout.levels
    rise = int(levels[layout.index[seen.target]] - levels[layout.index[seen.firer]])
    return GroundBetween(in_heavy_woods(table, seen.firer), inches, rise)


def cover_against(table: Table, sighting: SightLine) -> shooting.Cover:
    """The target's cover (B53): a fieldwork it holds or stands behind is fortifications; a
    building it holds or a wall it stands behind is significant cover; a fence or stream it
    stands behind, or light woods it stands in (at least half its footprint), are light
    cover (Visibility: light woodland counts as light cover)."""
    cover = sighting.cover
    if cover.holds is not None:
        if table.feature(cover.holds).kind is TerrainKind.FIELDWORK:
            return shooting.Cover.FORTIFICATIONS
        return shooting.Cover.SIGNIFICANT
    behind = {table.feature(f).kind for f in cover.behind}
    if TerrainKind.FIELDWORK in behind:
        return shooting.Cover.FORTIFICATIONS
    if TerrainKind.WALL in behind:
        return shooting.Cover.SIGNIFICANT
    if behind or cover.stands_in(TerrainKind.LIGHT_WOODS):
        return shooting.Cover.LIGHT
    return shooting.Cover.NONE


def measured_shot(table: Table, firer: str, target: str, facts: shooting.ShotFacts,
                  seen: SightLine | None = None) -> shooting.ShotFacts:
    """``facts`` (the player's choices: the line of the table, extra orders, the part of the
    unit shooting) with what the table measures (``seen``: the sighting of the pair, if
    known): range, cover, woods, enfilade, shooting up a steep hill, line of sight."""
    if seen is None:
        seen = seen_of(table, firer, (target,))[target]
    cover = cover_against(table, seen)
    target_cover = seen.cover
    ground = ground_between(table, seen)
    return attrs.evolve(
        facts,
        range=float(round(seen.distance, 6)),
        cover=cover,
        target_in_woods=target_cover.stands_in(TerrainKind.DENSE_WOODS),
        shooter_in_woods=ground.firer_in_woods,
        woods_inches=float(round(ground.woods_inches, 6)),
        enfilade=seen.enfilade,
        uphill=ground.rise > 0 and target_cover.stands_in(TerrainKind.STEEP_HILL),
        target_fortified=cover is shooting.Cover.FORTIFICATIONS,
        line_of_sight=seen.line_clear,
    )


def shot_on_table(table: Table, firer: str, target: str, facts: shooting.ShotFacts,
                  seen: SightLine) -> shooting.ShotFacts:
    """``measured_shot`` with the pair's sighting ``seen``, worked out once per layout (a
    shot's check and its handler measure it alike)."""
    return per_layout(table, "shot", (firer, target, facts),
                      lambda: measured_shot(table, firer, target, facts, seen))


MEASURED_SHOT = ("range", "cover", "target_in_woods", "shooter_in_woods", "woods_inches",
                 "enfilade", "uphill", "target_fortified", "line_of_sight")
"""The fields of ShotFacts the table measures (a caller leaves them at their defaults)."""
_PLAIN_SHOT = shooting.ShotFacts()


def carries_measures(facts: shooting.ShotFacts) -> bool:
    """Whether a shot's facts set something the table measures."""
    return any(getattr(facts, name) != getattr(_PLAIN_SHOT, name) for name in MEASURED_SHOT)


def shot_facts(state: State, firer: str, target: str,
               facts: shooting.ShotFacts = _PLAIN_SHOT) -> shooting.ShotFacts:
    """The facts of a shot from ``firer`` at ``target`` measured on the state's table."""
    return measured_shot(_table(state), firer, target, facts)


def check_sight(seen: SightLine, action: object) -> None:
    """The target must be in the firer's arc and in sight (B52; Visibility)."""
    if not seen.in_arc:
        raise IllegalActionError(
            action, f"{seen.target} is {seen.angle:.0f} degrees off the front of {seen.firer}: "
            f"outside its arc ({HALF_ARC:g} degrees either side)", RULE_VISIBILITY)
    if not seen.line_clear:
        what = ", ".join((*seen.blocked_by, *seen.units_between))
        raise IllegalActionError(
            action, f"the line of sight from {seen.firer} to {seen.target} is blocked by {what}",
            RULE_VISIBILITY)


# --- charges ------------------------------------------------------------------------------
CHARGE_SCAN = 30.0
"""How far ahead charge reaches are worked out (beyond any charge move of the text)."""


def reaches_of(table: Table) -> Mapping[tuple[str, str], tuple[float | None, Face, bool]]:
    """For every (charger, target) pair: how far the charger must go straight ahead to touch
    the target (None: not directly to its front), the target's face it would strike, and
    whether other units are in the way."""
    found = charges(table, None, CHARGE_SCAN)
    return {(c.charger, c.target): (c.ahead, c.face, bool(c.blocked_by)) for c in found}


Reach = tuple[float | None, Face, bool]
_UNASKED: Reach = (None, Face.FRONT, False)  # a sentinel, told apart by identity


def reaches_among(table: Table, pairs: Iterable[tuple[str, str]]
                  ) -> dict[tuple[str, str], Reach]:
    """``reaches_of`` for these (charger, target) pairs of units on the table only, the
    pairs of enemies among them (the others are left out, as ``reaches_of`` has none):
    those not asked on this layout measured at once (``charges``), each kept with the
    layout."""
    store, layout = layout_store(table)
    asked = tuple(dict.fromkeys(pairs))
    known = {pair: store.get(("reach", layout, pair), _UNASKED) for pair in asked}
    enemies = []
    for (charger, target), reach in known.items():
        if reach is not _UNASKED:
            continue
        side, other = table.footprint(charger).side, table.footprint(target).side
        if side and other and side != other:
            enemies.append((charger, target))
        else:
            known[(charger, target)] = None
            store.put(("reach", layout, (charger, target)), None)
    if enemies:
        for c in charges(table, enemies, CHARGE_SCAN):
            pair = (c.charger, c.target)
            known[pair] = (c.ahead, c.face, bool(c.blocked_by))
            store.put(("reach", layout, pair), known[pair])
    return {pair: reach for pair, reach in known.items()
            if reach is not None and reach is not _UNASKED}


@attrs.frozen
class ChargeSituation:
    """What the table says of a charge: the ``distance`` the charger must go straight ahead
    to contact (None: the target is not directly to its front), the ``face`` it strikes, and
    whether other units are ``blocked`` in the way."""

    distance: float | None
    face: Face
    blocked: bool


def charge_facts(state: State, charger: str, target: str) -> ChargeSituation:
    """The situation of a charge by ``charger`` at ``target`` on the state's table (the face
    struck decides the impetus dice for a flank or rear, Determine impetus)."""
    ahead, face, blocked = reaches_among(_table(state), ((charger, target),))[
        (charger, target)]
    return ChargeSituation(ahead, face, blocked)


# --- moves --------------------------------------------------------------------------------
def most_allowed(unit: Unit, facts: movement.MoveFacts) -> int:
    """The longest a move action can take the unit over this ground: the text's distance, or
    for rolled moves the highest roll (two d12 combined for deployed cavalry, one in rough
    ground or heavy woods; dAv+2, dAv or d3 for unlimbered guns), less 2" in heavy woods
    for foot and guns (Movement)."""
    if unit.is_cavalry and unit.formation is Formation.DEPLOYED:
        return 24 if not facts.terrain.rough else 12
    if unit.formation is Formation.UNLIMBERED:
        top = 3 if unit.kind in (UnitType.HEAVY_ARTILLERY, UnitType.SIEGE_ARTILLERY) else (
            5 if unit.kind is UnitType.FIELD_ARTILLERY else 7)
    else:
        top = movement.fixed_distance(unit, facts) or 0
    if facts.terrain is movement.Terrain.HEAVY_WOODS and not unit.is_cavalry:
        top = max(0, top - 2)
    return top


@attrs.frozen
class MovePlan:
    """A move on the table: the ``route`` of the unit's centre, the footprint where it ends
    (``end``, with its new facing), the ``facts`` the rules take (ground, road, obstacle,
    retrograde), the ``wheel`` distance the facing change costs, and the ``cost``
    (path and wheel)."""

    route: Route
    end: Footprint
    facts: movement.MoveFacts
    wheel: float
    cost: float


def ground_of(table: Table, path: Route, start: tuple[float, float]) -> movement.MoveFacts:
    """The facts of a move from its route (B55): the roughest ground swept (heavy woods,
    difficult ground, up a steep hill: ending higher than where it started, ``start``, on
    one; else light woods or open), whether it keeps to roads and bridges all the way,
    whether it crosses a minor obstacle, and whether it goes backwards."""
    swept = path.swept
    terrain = movement.Terrain.OPEN
    if TerrainKind.DENSE_WOODS in swept:
        terrain = movement.Terrain.HEAVY_WOODS
    elif any(k in swept for k in _ROUGH):
        terrain = movement.Terrain.DIFFICULT
    elif TerrainKind.STEEP_HILL in swept and (
            table.level_at(*path.end.centre) > table.level_at(*start)):
        terrain = movement.Terrain.STEEP_HILL
    elif TerrainKind.LIGHT_WOODS in swept:
        terrain = movement.Terrain.LIGHT_WOODS
    road = bool(path.legs) and all(
        leg.kinds & {TerrainKind.ROAD, TerrainKind.BRIDGE} for leg in path.legs)
    return movement.MoveFacts(terrain, road, crosses_obstacle(table, path), path.retiring)


_DRY = (TerrainKind.FORD, TerrainKind.BRIDGE)
_HAIR = 1e-6


def crosses_obstacle(table: Table, path: Route) -> bool:
    """Whether the move crosses a minor obstacle (Movement; B55): some part of the unit's
    footprint, on the way ``path`` sweeps, passes over a fence, wall, linear fieldwork or
    stream where it did not already stand astride it, a stream counting only away from its
    fords and bridges (a unit on the ford with a flank in the water wades the stream): the
    table's ``lines_crossed``."""
    return bool(lines_crossed(table, path))


def plan_move(state: State, unit_id: str, to: tuple[float, float, float],
              action: object = None, through: str | None = None) -> MovePlan:
    """The move of ``unit_id`` to ``to`` (x, y, facing), with every geometric rule checked:
    on the table, over passable ground (ImpassableError names the feature), through no enemy
    and through no friend but the one named, ending on nobody, turning at most 90 degrees,
    within the longest move the unit can make over that ground (B54, B55; Movement)."""
    table = _table(state)
    unit = state.unit(unit_id)
    start = table.footprint(unit_id)
    x, y, facing = to
    turn_by = normal_degrees(facing - start.facing)
    if abs(turn_by) > MAX_TURN + 1e-9:
        raise IllegalActionError(
            action, f"a move turns a unit at most {MAX_TURN:g} degrees (about face is a "
            "manoeuvre)", RULE_MOVEMENT)
    end = start.moved_to(x, y, normal_degrees(facing) % 360.0)
    if not table.holds(end):
        raise IllegalActionError(action, f"{unit.name} would leave the table", RULE_MOVEMENT)
    path = _open_route(table, start, (x, y)) or route(table, unit_id, (x, y))
    rates = rates_for(unit)
    try:
        rates.cost(path, table)
    except ImpassableError as error:
        raise ImpassableError(action, error.feature, error.kind, error.rule) from None
    enemies = set(table.enemies_of(unit_id))
    for other in path.units_crossed:
        if other in enemies:
            raise IllegalActionError(
                action, f"{unit.name} would move into {other}: contact with an enemy is made "
                "by a charge", RULE_MOVEMENT)
        if other != through:
            raise IllegalActionError(
                action, f"{unit.name} would pass through {other}: name it as the unit moved "
                "through", RULE_MOVEMENT)
    if through is not None and through not in path.units_crossed:
        raise IllegalActionError(
            action, f"{unit.name} would not pass through {through} on this move",
            RULE_MOVEMENT)
    for beside in regions.sharing_ground(
            regions.outline_of(end), within(table, end.bounds, (unit_id,)))[:1]:
        raise IllegalActionError(action, f"{unit.name} would end on {beside}", RULE_MOVEMENT)
    facts = ground_of(table, path, (start.x, start.y))
    turned = start.width * math.radians(abs(turn_by))  # the outer corner's arc (paths.wheel)
    cost = path.length + turned
    longest = most_allowed(unit, facts)
    if cost > longest + 1e-6:
        raise IllegalActionError(
            action, f"{unit.name} moves at most {longest}\" over {facts.terrain} ground; this "
            f"move takes {cost:.1f}\"", RULE_MOVEMENT)
    return MovePlan(path, end, facts, turned, cost)


def _open_route(table: Table, start: Footprint, point: tuple[float, float]) -> Route | None:
    """The route of a straight move over open ground, the box about where it starts and ends
    meeting no terrain and no other unit (what ``paths.route`` gives for it, without its
    survey), or None when the way is not that plain."""
    end = start.moved_to(*point)
    box = spanning(start, end, margin=1e-9)
    if _meets_terrain(table, box) or within(table, box, (start.unit_id,)):
        return None
    dx, dy = point[0] - start.x, point[1] - start.y
    (fx, fy), _ = start.frame
    length = math.hypot(dx, dy)
    retiring = dx * fx + dy * fy < -1e-9 * max(1.0, length)
    leg = Leg(start.centre, point, length, frozenset(), ())
    return Route(start.unit_id, (start.centre, point), (leg,), (), frozenset(), (), retiring,
                 end, table.holds(end))


def _terrain_bounds(table: Table) -> tuple[tuple[float, float, float, float], ...]:
    """The bounds of every terrain feature of the table (areas and crossed lines), worked
    out once for the ground (``answers``)."""
    return on_ground(table, _TERRAIN_BOUNDS, lambda: _feature_bounds(table))


_TERRAIN_BOUNDS = ("terrain bounds",)


def _feature_bounds(table: Table) -> tuple[tuple[float, float, float, float], ...]:
    """``_terrain_bounds`` worked out."""
    terrain = table.terrain
    found = [regions.region_of(f).bounds for f in terrain.area_features]
    found += [line.bounds for f in terrain.crossed_features
              if (line := regions.crossing_line(f)) is not None]
    return tuple(found)


def _meets_terrain(table: Table, box: tuple[float, float, float, float]) -> bool:
    """Whether the box meets the bounds of some terrain feature."""
    x0, y0, x1, y1 = box
    return any(a0 <= x1 and a1 >= x0 and b0 <= y1 and b1 >= y0
               for a0, b0, a1, b1 in table.derived(_terrain_bounds))


def moved_footprint(plan: MovePlan, allowed: float) -> Footprint:
    """Where the unit ends with ``allowed`` inches of move (a rolled move may fall short of
    the destination: it goes as far as it can along the way, turning first) (B54)."""
    if allowed >= plan.cost - 1e-9:
        return plan.end
    start = plan.route.end.moved_to(*plan.route.points[0])
    left = allowed - plan.wheel
    facing = plan.end.facing if left >= 0 else start.facing
    go = max(0.0, left if left >= 0 else allowed)
    length = plan.route.length
    share = 0.0 if length <= 0 else min(1.0, go / length)
    (x0, y0), (x1, y1) = plan.route.points[0], plan.route.points[-1]
    return start.moved_to(x0 + (x1 - x0) * share, y0 + (y1 - y0) * share, facing)


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The compass bearing from a to b, in degrees."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1]))


def _table(state: State) -> Table:
    """The state's table (``smoothbore.table.table_of``); measuring needs one."""
    table = table_of(state)
    if table is None:
        raise IllegalActionError("measure", "the battle has no table", RULE_MOVEMENT)
    return table


MoverKey = tuple[str, UnitType, Formation, int, int, int, int, bool]
Places = tuple[tuple[float, float, float], ...]
PlanKey = tuple[MoverKey, tuple[float, float, float], str | None]


def mover(unit: Unit) -> MoverKey:
    """What a unit's moves and footprint depend on besides the table: its id, kind,
    formation, density, the density it is based at, size and sections, and whether it is
    still in the fight (its losses do not change where it may go)."""
    return (unit.id, unit.kind, unit.formation, unit.density, unit.based_density, unit.size,
            unit.sections, unit.gone)


def planned(state: State, unit_id: str, to: tuple[float, float, float],
            through: str | None = None, action: object = None) -> MovePlan:
    """``plan_move``, worked out once per table and unit for each destination (the
    candidates of every step and their checks ask the same until a unit moves)."""
    table = _table(state)
    unit = state.unit(unit_id)

    def work() -> MovePlan:
        kept = ("plan", move_situation(table, unit), to, through)
        return on_ground(table, kept, lambda: plan_move(state, unit_id, to, action, through))

    return per_layout(table, "plan", (mover(unit), to, through), work)


def reach_of(unit: Unit) -> int:
    """The furthest one move action can take the unit over any ground (along a road, for
    columns and limbered guns)."""
    return max(most_allowed(unit, movement.MoveFacts()),
               most_allowed(unit, movement.MoveFacts(road=True)))


MoveSituation = tuple[MoverKey, Footprint, tuple[Footprint, ...]]


def move_situation(table: Table, unit: Unit) -> MoveSituation:
    """Everything a move of the unit on this table reads besides the ground (``plan_move``):
    the unit, its footprint and the footprints of the units it could meet within its
    longest move (what a move may not cross or end on; the side in each footprint says
    whether it is an enemy). A move that succeeds goes no further than that, so another
    table with the same situation plans it the same."""
    key = mover(unit)

    def work() -> MoveSituation:
        mine = table.footprint(unit.id)
        near = within(table, around(mine, reach_of(unit) + CLEARANCE), (unit.id,))
        return (key, mine, near)

    return per_layout(table, "move situation", key, work)


_SHORT = 1e-3
"""Destinations offered stop this much short of what stopped them (the table edge, a unit)."""


def destinations(state: State, unit_id: str) -> tuple[tuple[float, float, float], ...]:
    """The moves offered to the unit (``proposed``) that it can make: each checked as
    ``check_move`` checks it; those that fail are left out (B54)."""
    table = _table(state)
    unit = state.unit(unit_id)

    def work() -> Places:
        kept = ("destinations", move_situation(table, unit), nearest_enemy(table, unit.id))
        return on_ground(table, kept, lambda: tuple(
            to for to in proposed(state, unit_id) if can_move(state, unit, to)))

    return per_layout(table, "destinations", mover(unit), work)


def can_move(state: State, unit: Unit, to: tuple[float, float, float]) -> bool:
    """Whether the unit can move to ``to`` with one move action (``check_move``'s geometry
    and ground)."""
    try:
        plan = planned(state, unit.id, to)
        movement.check_move(unit, plan.facts)
    except IllegalActionError:
        return False
    return True


def proposed(state: State, unit_id: str) -> tuple[tuple[float, float, float], ...]:
    """A small set of destinations offered to the unit for one move action (B54), worked out
    from its footprint and the nearest enemy alone (whether it can get there is the check's
    to say, ``destinations``): straight ahead at its full and half allowance, towards the
    nearest enemy when it lies within 60 degrees of its front (stopping an inch short of
    contact: contact is a charge) and squaring up to it (``squared_up``), a turn in place to
    face that enemy (as far as the allowance pays for the wheel), and back at half its
    allowance where it may move backwards."""
    table = _table(state)
    unit = state.unit(unit_id)
    return per_layout(table, "proposed", mover(unit),
                      lambda: _proposed(table, unit, nearest_enemy(table, unit.id)))


def nearest_enemy(table: Table, unit_id: str) -> tuple[Footprint, float] | None:
    """The footprint of the enemy nearest the unit (the first by id of those as near) and
    how far it is; None with no enemy on the table (the table's ``nearest_enemy``, kept for
    the layout)."""
    return per_layout(table, "nearest enemy", unit_id, lambda: nearest_of_enemies(table, unit_id))


def _proposed(table: Table, unit: Unit, nearest: tuple[Footprint, float] | None,
              ) -> tuple[tuple[float, float, float], ...]:
    """``proposed`` worked out from the unit's footprint and the nearest enemy
    (``nearest``), each destination once."""
    start = table.footprint(unit.id)
    longest = most_allowed(unit, movement.MoveFacts())
    if longest <= 0:
        return ()
    wanted: list[tuple[float, float, float]] = []

    def go(heading: float, length: float) -> None:
        (fx, fy), _ = bearing_vectors(start.facing + heading)
        wanted.append((round(start.x + fx * length, 3), round(start.y + fy * length, 3),
                       start.facing))

    go(0.0, longest)
    go(0.0, longest / 2)
    if nearest is not None:
        near, gap = nearest
        off = normal_degrees(bearing(start.centre, near.centre) - start.facing)
        if abs(off) <= 60.0 and gap > CLEARANCE + 0.1:
            go(off, min(longest, gap - CLEARANCE))
            wanted.extend(squared_up(start, near, gap, longest))
        if abs(off) > 5.0:
            most = min(MAX_TURN, math.degrees(longest / max(start.width, 1e-6)))
            turn_by = max(-most, min(most, off))
            wanted.append((start.x, start.y, round(normal_degrees(start.facing + turn_by), 3)))
    if not (unit.is_cavalry or unit.formation is Formation.LIMBERED):
        go(180.0, longest / 2)
    return tuple(dict.fromkeys(wanted))


SQUARE = 0.5
"""A unit offset less than this from straight in front of the nearest enemy is not offered
a move to square up to it (its other moves go there)."""


def squared_up(start: Footprint, near: Footprint, gap: float,
                longest: float) -> list[tuple[float, float, float]]:
    """A move keeping the facing that ends with the nearest enemy's centre straight ahead
    (as far sideways as the allowance pays for), closing with the rest of the allowance to an
    inch short of the gap: where a charge at it may next be made (B56). None when it already
    stands squarely in front."""
    (fx, fy), (rx, ry) = start.frame
    dx, dy = near.x - start.x, near.y - start.y
    side = dx * rx + dy * ry
    if abs(side) < SQUARE:
        return []
    side = max(-longest, min(longest, side))
    ahead = max(0.0, min(math.sqrt(max(0.0, longest**2 - side**2)), gap - CLEARANCE))
    x = start.x + rx * side + fx * ahead
    y = start.y + ry * side + fy * ahead
    return [(round(x, 3), round(y, 3), start.facing)]


def standing(table: Table, unit_id: str) -> tuple[float, float, float]:
    """Where a unit stands: (x, y, facing) of its footprint."""
    return standing_of(table.footprint(unit_id))


def standing_of(footprint: Footprint) -> tuple[float, float, float]:
    """Where a footprint stands: (x, y, facing)."""
    return (footprint.x, footprint.y, footprint.facing)


def stands_at(table: Table, unit_id: str, at: tuple[float, float, float]) -> bool:
    """Whether the unit stands at ``at`` (x, y, facing), to a thousandth."""
    x, y, facing = standing(table, unit_id)
    return (abs(x - at[0]) <= 1e-3 and abs(y - at[1]) <= 1e-3
            and abs(normal_degrees(facing - at[2])) <= 1e-3)


def place_move(state: State, plan: MovePlan, distances: tuple[int, ...],
               exact: bool) -> tuple[State, str]:
    """The state with the unit moved as far towards its destination as the move rolled
    allows (``exact``: deployed cavalry move exactly one of their distances, the longest not
    beyond the destination, or to the destination if each is beyond it, B54), with its trace,
    and the words of where it went."""
    table = _table(state)
    unit_id = plan.route.unit_id
    start = table.footprint(unit_id)
    if exact:
        fits = [d for d in distances if d <= plan.cost + 1e-9]
        allowed = float(max(fits)) if fits else plan.cost
    else:
        allowed = float(max(distances))
    end = moved_footprint(plan, allowed)
    if regions.sharing_ground(regions.outline_of(end), within(table, end.bounds, (unit_id,)),
                              outlines=True):
        end = start  # a move falling short on a friend stops where it began (B54)
    moved = table.placed(end).with_traces(MoveTrace(unit_id, (start.centre, end.centre)))
    gone = math.dist(start.centre, end.centre)
    verb = "goes back" if plan.facts.retrograde else "advances"
    words = (f"{verb} {gone:.1f} in. to ({end.x:.1f}, {end.y:.1f}), facing "
             f"{end.facing % 360:.0f}\N{DEGREE SIGN}")
    return state.with_extra(table=moved), words


def friends_in_way(state: State, unit_id: str,
                   to: tuple[float, float, float]) -> tuple[str, ...]:
    """The friendly units (ids, sorted) that the unit's footprint would pass through or end
    on moving straight to ``to`` (the move a player names ``through`` one of them:
    Interpenetration; Passage of lines)."""
    table = _table(state)
    unit = state.unit(unit_id)

    def work() -> tuple[str, ...]:
        start = table.footprint(unit_id)
        end = start.moved_to(to[0], to[1])
        side = start.side  # its enemies (``Table.enemies_of``) are of another side
        near = [f for f in within(table, spanning(start, end, margin=1e-9), (unit_id,))
                if not (side and f.side and f.side != side)]
        if not near:
            return ()
        return tuple(sorted(regions.sharing_ground(regions.swept(start, end), near,
                                                   outlines=True)))

    return per_layout(table, "friends in the way", (mover(unit), to), work)


def blocked_passage(before: State, after: State, plan: MovePlan) -> tuple[State, Footprint]:
    """``after`` with the mover of ``plan`` stopped where, going from where it stood (in
    ``before``) straight towards its destination keeping its facing, it first touches
    another unit, and its footprint there: a passage of lines that fails stops the moving
    unit "when it makes contact with the static unit" (Passage of lines). A mover that no
    longer stands at its destination (a retrograde move's test sent it elsewhere) is left
    where it is."""
    table = _table(before)
    unit_id = plan.route.unit_id
    now = _table(after)
    if unit_id not in now.units or not stands_at(now, unit_id, standing_of(plan.end)):
        return after, now.footprint(unit_id) if unit_id in now.units else plan.end
    start = table.footprint(unit_id)
    heading = normal_degrees(bearing(start.centre, plan.end.centre) - start.facing)
    found = furthest(table, unit_id, heading, plan.route.length,
                     rates_for(before.unit(unit_id)))
    stop = start.advanced(found.distance, heading)
    moved = now.placed(stop).with_traces(MoveTrace(unit_id, (start.centre, stop.centre)))
    return after.with_extra(table=moved), stop


def refit_blocked(table: Table, unit: Unit) -> str:
    """Why the unit cannot take its new formation where it stands ("" when it can): the new
    footprint would leave the table or overlap another unit (B51)."""
    def work() -> str:
        new = refit(unit, table.footprint(unit.id))
        near = within(table, spanning(new), (unit.id,))
        kept = ("refit", unit.name, new, near)
        return on_ground(table, kept, lambda: _refit_blocked(table, unit, new, near))

    return per_layout(table, "refit", mover(unit), work)


def refit_blocked_as(table: Table, unit: Unit, formation: Formation, density: int) -> str:
    """``refit_blocked`` for the unit in ``formation`` at ``density`` (what a manoeuvre would
    make of it), without making that unit unless the layout has not been asked before."""
    def work() -> str:
        same = formation is unit.formation and density == unit.density
        after = unit if same else attrs.evolve(unit, formation=formation, density=density)
        return refit_blocked(table, after)

    return per_layout(table, "refit as", (mover(unit), formation, density, unit.name), work)


def _refit_blocked(table: Table, unit: Unit, new: Footprint,
                   near: tuple[Footprint, ...]) -> str:
    """``refit_blocked`` worked out for the unit's new footprint ``new``: it reads the
    table's size and the footprints that meet its bounds (``near``, in the table's order:
    no other can overlap it)."""
    if not table.holds(new):
        return f"{unit.name} would not fit on the table in its new formation"
    for other in regions.sharing_ground(regions.outline_of(new), near, outlines=True)[:1]:
        return f"{unit.name} in its new formation would overlap {other}"
    return ""


_CONTACT = {Face.FRONT: "front", Face.LEFT: "flank", Face.RIGHT: "flank", Face.REAR: "rear"}


@attrs.frozen
class MeasuredCharge:
    """A charge on the table (B56): the ``distance`` the chargers must go straight ahead to
    make contact (the longest any of them needs for the nearest target it reaches), the
    ``ground`` of the lead charger's move to contact, the ``facts`` of the melee (the face of
    the lead target struck, its cover, woods and slope), whether the targets stand in the
    open, whether they hold hard cover, and which target each charger reaches."""

    distance: float
    ground: movement.MoveFacts
    facts: ChargeFacts
    target_in_open: bool
    hard_cover: bool
    reaches: tuple[tuple[str, str], ...]


def measured_charge(state: State, chargers: tuple[str, ...], targets: tuple[str, ...],
                    facts: ChargeFacts, action: object = None) -> MeasuredCharge:
    """What the table says of a charge by ``chargers`` at ``targets`` (``facts``: the
    players' choice of cold steel; whether cavalry countercharge is measured, B63). Each
    charger must have one of the targets directly to its front, with no unit in the way,
    within the longest move it can make over that ground, and each target must be reached by
    some charger (Charges and melee: units enter melee if they can move far enough to make
    contact)."""
    table = _table(state)
    reaches = reaches_among(table, ((c, t) for c in chargers for t in targets
                                    if c in table.units and t in table.units))
    contacts: list[tuple[str, str]] = []
    needs: list[float] = []
    for charger in chargers:
        unit = state.unit(charger)
        best: tuple[float, str] | None = None
        for target in targets:
            found = reaches.get((charger, target))
            if found is None:
                continue
            ahead, _, blocked = found
            if ahead is None or blocked:
                continue
            if best is None or ahead < best[0]:
                best = (ahead, target)
        if best is None:
            raise IllegalActionError(
                action, f"{unit.name} has none of the targets directly to its front, clear "
                "of other units", RULE_CHARGES)
        longest = most_allowed(unit, movement.MoveFacts())
        if best[0] > longest + 1e-6:
            raise IllegalActionError(
                action, f"{unit.name} is {best[0]:.1f}\" from {best[1]}: beyond its longest "
                f"move ({longest}\")", RULE_CHARGES)
        contacts.append((charger, best[1]))
        needs.append(best[0])
    missed = set(targets) - {t for _, t in contacts}
    if missed:
        raise IllegalActionError(
            action, f"no charger reaches {', '.join(sorted(missed))}", RULE_CHARGES)
    lead, target = chargers[0], targets[0]
    lead_target = dict(contacts)[lead]
    ahead, face, _ = reaches[(lead, lead_target)]
    start = table.footprint(lead)
    path = route(table, lead, start.advanced(ahead or 0.0).centre)
    ground = ground_of(table, path, (start.x, start.y))
    seen = seen_of(table, lead, (target,))[target]
    cover = cover_against(table, seen)
    struck = reaches[(lead, target)][1] if (lead, target) in reaches else face
    between = ground_between(table, seen)
    measured = attrs.evolve(
        facts,
        contact=Contact(_CONTACT[struck]),
        countercharged_by_cavalry=_countercharged(
            state, lead, ((t, reaches[(c, t)][1]) for c, t in contacts)),
        uphill=between.rise > 0 and seen.cover.stands_in(TerrainKind.STEEP_HILL),
        cover=cover,
        behind_obstacle=bool(seen.cover.behind),
        charger_in_woods=between.firer_in_woods,
        defender_in_woods=seen.cover.stands_in(TerrainKind.DENSE_WOODS),
    )
    in_open = cover is shooting.Cover.NONE and not seen.cover.stands_in(
        TerrainKind.DENSE_WOODS)
    hard = cover.value >= shooting.Cover.SIGNIFICANT.value
    return MeasuredCharge(round(max(needs), 6), ground, measured, in_open, hard,
                          tuple(contacts))


def counter_charge_facts(state: State, counter_chargers: tuple[str, ...],
                         targets: tuple[str, ...], facts: ChargeFacts) -> ChargeFacts:
    """The facts of a deferred melee whose tables have turned, measured afresh from the
    counter-chargers' side where the units stand in contact (Determine impetus: "to
    counter-charging units if the tables have turned"; B32): the face of the first target
    the lead counter-charger touches, that target's cover, woods and slope as the lead sees
    it, whether the lead stands in heavier woods, and whether cavalry meet it front to front
    (a cavalry countercharge, B63); the players' choice of cold steel is kept."""
    table = _table(state)
    lead = counter_chargers[0]
    target = next((t for t in targets if in_contact(table, lead, t)), targets[0])
    faces = touching_faces(table, target, lead)
    struck = faces[0] if faces else Face.FRONT
    seen = seen_of(table, lead, (target,))[target]
    between = ground_between(table, seen)
    met = ((t, face) for t in targets if t in table.units for c in counter_chargers
           if c in table.units and in_contact(table, c, t)
           for face in touching_faces(table, t, c))
    return attrs.evolve(
        facts,
        contact=Contact(_CONTACT[struck]),
        countercharged_by_cavalry=_countercharged(state, lead, met),
        uphill=between.rise > 0 and seen.cover.stands_in(TerrainKind.STEEP_HILL),
        cover=cover_against(table, seen),
        behind_obstacle=bool(seen.cover.behind),
        charger_in_woods=between.firer_in_woods,
        defender_in_woods=seen.cover.stands_in(TerrainKind.DENSE_WOODS),
    )


def _countercharged(state: State, lead: str, struck: Iterable[tuple[str, Face]]) -> bool:
    """Whether charging cavalry are countercharged by cavalry (Determine impetus: "deduct
    three d12 if charging cavalry are being countercharged by cavalry"; B63), measured: the
    lead charger is cavalry and a cavalry unit it charges, standing (not routing), is
    struck in its front (``struck``: each target with the face of it a charger meets), so
    it faces the charge and rides out to meet it. Infantry, artillery, and cavalry taken in
    the flank or rear never countercharge."""
    if not state.unit(lead).is_cavalry:
        return False
    return any(face is Face.FRONT and state.unit(t).is_cavalry and not state.unit(t).gone
               for t, face in struck)


MEASURED_CHARGE = ("contact", "uphill", "cover", "behind_obstacle", "charger_in_woods",
                   "defender_in_woods", "countercharged_by_cavalry")
"""The fields of ChargeFacts the table measures (a caller leaves them at their defaults)."""
_PLAIN_CHARGE = ChargeFacts()


def charge_carries_measures(facts: ChargeFacts) -> bool:
    """Whether a charge's facts set something the table measures."""
    return any(getattr(facts, n) != getattr(_PLAIN_CHARGE, n) for n in MEASURED_CHARGE)


def in_contact_after(state: State, reaches: tuple[tuple[str, str], ...],
                     reached: tuple[str, ...]) -> State:
    """The state with each charger that reached its target moved straight ahead into contact
    with it, its trace drawn."""
    table = _table(state)
    placed, traces = [], []
    for charger, target in reaches:
        if charger not in reached or charger not in table.units or target not in table.units:
            continue
        ahead = reaches_among(table, ((charger, target),))[(charger, target)][0]
        if ahead is None:
            continue
        start = table.footprint(charger)
        end = start.advanced(ahead)
        placed.append(end)
        traces.append(MoveTrace(charger, (start.centre, end.centre)))
    if not placed:
        return state
    return state.with_extra(table=table.placed(*placed).with_traces(*traces))


def evader_reached(state: State, chargers: tuple[str, ...], evader: str,
                   spare: float) -> bool:
    """Whether chargers going on their ``spare`` move straight ahead contact the evader where
    its evade move ended: one still touches it, or has it directly to its front, clear of
    other units, within the spare move (Evade: "if the attacker's move takes them into
    contact with evading defenders, the defenders are destroyed"; B58)."""
    table = _table(state)
    if evader not in table.units:
        return False
    reaches = reaches_among(table, ((c, evader) for c in chargers if c in table.units))
    for charger in chargers:
        if charger not in table.units:
            continue
        if in_contact(table, charger, evader):
            return True
        ahead, _, blocked = reaches.get((charger, evader), (None, Face.FRONT, True))
        if ahead is not None and not blocked and ahead <= spare + 1e-6:
            return True
    return False


ChargeKey = tuple[tuple[Unit, ...], tuple[str, ...], ChargeFacts]


def charge_on_table(state: State, chargers: tuple[str, ...], targets: tuple[str, ...],
                    facts: ChargeFacts, action: object = None) -> MeasuredCharge:
    """``measured_charge``, worked out once per table for the same units and choices."""
    def work() -> MeasuredCharge | Refused:
        try:
            return measured_charge(state, chargers, targets, facts)
        except IllegalActionError as error:
            return Refused(error.why, error.rule)

    key = (tuple(state.unit(c) for c in chargers), targets, facts)
    found = per_layout(_table(state), "charge", key, work)
    if isinstance(found, Refused):
        raise IllegalActionError(action, found.why, found.rule)
    return found


@attrs.frozen
class Refused:
    """Why a charge measured on the table is refused, and the rule (kept as a value, not
    the error raised)."""

    why: str
    rule: str


_HOMEWARD = {Edge.NEAR: 180.0, Edge.FAR: 0.0, Edge.LEFT: 270.0, Edge.RIGHT: 90.0}


_TOUCH = 0.1
"""Beyond the tolerance of ``in_contact`` (a hundredth of an inch): the box about a unit
that any unit touching it meets."""
_SIGHT_BATCH = 16
"""How many enemies ``_nearest_seen`` asks the table about at once."""


def _nearest_seen(table: Table, unit_id: str, enemies: tuple[str, ...]) -> SightLine | None:
    """The line to the nearest of ``enemies`` that the unit sees with the line clear (the
    first by id of those as near), None when it sees none: asked of the nearest first, a
    batch at a time, until the next one's least possible distance (the centres' distance
    less both half diagonals) is beyond the nearest seen."""
    if not enemies:
        return None
    layout = table.layout
    i = layout.index[unit_id]
    rows = np.array([layout.index[e] for e in enemies], dtype=np.intp)
    least = (np.hypot(layout.centre[rows, 0] - layout.centre[i, 0],
                      layout.centre[rows, 1] - layout.centre[i, 1])
             - layout.radius[rows] - layout.radius[i]).tolist()
    order = sorted(range(len(enemies)), key=lambda k: (least[k], k))
    best: SightLine | None = None
    for start in range(0, len(order), _SIGHT_BATCH):
        chunk = order[start:start + _SIGHT_BATCH]
        if best is not None and least[chunk[0]] > best.distance + _SLACK:
            break
        for seen in seen_of(table, unit_id, tuple(enemies[k] for k in chunk)).values():
            if seen.line_clear and (best is None or (seen.distance, seen.target)
                                    < (best.distance, best.target)):
                best = seen
    return best


def enemy_face(state: State, table: Table, unit_id: str) -> Face | None:
    """The face of the unit towards the enemy that pushes it back (B57): the face enemies in
    contact touch (the front if any does), else the face looking towards the nearest enemy it
    can see (the line between them clear, in any direction: the quarter of the compass off
    its facing where that enemy's centre lies); None when it sees none."""
    side = state.unit(unit_id).side
    enemies = tuple(u.id for u in state.units
                    if u.side != side and not u.destroyed and u.id in table.units)
    me = table.footprint(unit_id)
    x0, y0, x1, y1 = me.bounds
    beside = {f.unit_id for f in within(  # only those whose bounds meet its own may touch
        table, (x0 - _TOUCH, y0 - _TOUCH, x1 + _TOUCH, y1 + _TOUCH), (unit_id,))}
    touched = [face for enemy in enemies if enemy in beside
               and in_contact(table, unit_id, enemy)
               for face in touching_faces(table, unit_id, enemy)]
    if touched:
        return Face.FRONT if Face.FRONT in touched else touched[0]
    nearest = _nearest_seen(table, unit_id, enemies)
    if nearest is None:
        return None
    there = table.footprint(nearest.target)
    forward, right = bearing_vectors(me.facing)
    dx, dy = there.x - me.x, there.y - me.y
    ahead = dx * forward[0] + dy * forward[1]
    aside = dx * right[0] + dy * right[1]
    if abs(ahead) >= abs(aside):
        return Face.FRONT if ahead >= 0 else Face.REAR
    return Face.RIGHT if aside > 0 else Face.LEFT


def _pushed_back(state: State, table: Table, unit_id: str, length: float,
                 rates: RateTable, straight_back: bool) -> tuple[Footprint, bool]:
    """Where a push back of ``length`` ends (B57): away from the enemy (``enemy_face``),
    then turned about its centre to face it where the turned footprint fits; straight back
    keeping its facing when the enemy is to its front, when it sees none, and when
    ``straight_back`` (an evade move, B58). A charger's 3" fall back moves alike."""
    face = None if straight_back else enemy_face(state, table, unit_id)
    if face is None or face is Face.FRONT:
        return _retire(table, unit_id, 180.0, length, rates)
    towards = _FACE_HEADING[face]
    end, off = _retire(table, unit_id, normal_degrees(towards + 180.0), length, rates)
    faced = _facing_towards(table.placed(end), unit_id, towards)
    return faced.footprint(unit_id), off


def retreat(state: State, moves: tuple[Retreat, ...], *, straight_back: bool = False,
            log: Log | None = None) -> State:
    """The push back and rout moves rolled (``reports.retire``) made on the table (B57): a
    pushed back unit goes away from the enemy that pushes it back and ends facing it
    (``_pushed_back``; straight back when ``straight_back``: an evade move); a routing unit
    turns its back on every enemy it sees and runs the heading that takes it furthest from
    them (``paths.rout``; with no such heading, towards its home edge), and is lost when that
    takes it off the table (Morale: Push Back move, Rout move). Either goes over ground it
    may cross and stops just short of any unit in its way (``_retire``). A unit lost off the
    table is reported to ``log`` (in play). Without a table, or with no move, the state as
    it is."""
    table = state.extra.table
    if table is None or not moves:
        return state
    lost = []
    traces = []
    for unit_id, fate, length in moves:
        if unit_id not in table.units:
            continue
        start = table.footprint(unit_id)
        rates = rates_for(state.unit(unit_id))
        if fate is Fate.FALLS_BACK:
            end, off = _pushed_back(state, table, unit_id, float(length), rates,
                                    straight_back)
        else:
            run = rout(table, unit_id, float(length), rules=SIGHT)
            if run is not None:
                heading = run.heading
            else:
                edge = table.home_edge(start.side)
                heading = _HOMEWARD[edge] if edge is not None else start.facing + 180.0
            heading = normal_degrees(heading) % 360.0
            end, off = _routed(table, unit_id, heading, float(length), rates)
            if off:
                lost.append(unit_id)
                if log is not None:
                    log.add("retire", f"{state.unit(unit_id).name} routs off the table: lost",
                            RULE_MOVES, unit_id, facts={"move": "routs", "result": "lost"})
                continue
        traces.append(MoveTrace(unit_id, (start.centre, end.centre)))
        table = table.placed(end)
    if traces:
        table = table.with_traces(*traces)
    new = state.with_extra(table=table)
    if lost:
        new = new.with_units(*(revised(new.unit(u), destroyed=True, routing=False)
                               for u in lost))
    return new


def _routed(table: Table, unit_id: str, heading: float, length: float,
            rates: RateTable) -> tuple[Footprint, bool]:
    """Where a rout of ``length`` towards the compass ``heading`` ends, and whether it
    carries the unit off the table (Morale: Rout move, "if rout moves take them off the
    table then the unit is lost"; B62): the unit turns about its centre to face ``heading``
    and runs straight ahead; where that turn alone would put part of it over a table edge
    (a unit standing near the edge, turned), it runs ``heading`` as it stands and turns to
    face it at the end of its run where the turned footprint fits. Either way a run stopped
    by the table edge before its length is a unit lost off the table, never a footprint
    placed off it."""
    start = table.footprint(unit_id)
    turned = start.moved_to(start.x, start.y, heading)
    if table.holds(turned):
        return _retire(table.placed(turned), unit_id, 0.0, length, rates)
    across = normal_degrees(heading - start.facing)
    end, off = _retire(table, unit_id, across, length, rates)
    if off:
        return end, off
    faced = _facing_towards(table.placed(end), unit_id, across)
    return faced.footprint(unit_id), off


def _retire(table: Table, unit_id: str, heading: float, length: float,
            rates: RateTable) -> tuple[Footprint, bool]:
    """Where a unit ends a push back or rout of ``length`` towards ``heading`` (degrees off
    its facing, which it keeps), and whether the move would carry it over the table edge:
    it goes as far as the length pays for over the ground (``paths.furthest``), stopping
    before ground it cannot cross and just short of any unit in its way, friend or foe (a
    retreat passes through nobody, B57)."""
    found = furthest(table, unit_id, heading, length, rates)
    go = found.distance
    if found.stopped_by in table.units:
        go = max(0.0, go - _SHORT)
    over_edge = found.stopped_by == "table edge" and go < length - _SHORT
    return table.footprint(unit_id).advanced(go, heading), over_edge


_FACE_HEADING = {Face.FRONT: 0.0, Face.RIGHT: 90.0, Face.REAR: 180.0, Face.LEFT: -90.0}

Chased = Mapping[str, tuple[str, tuple[float, float]]]
"""Each pursuer's quarry: the routing enemy it chases and where that enemy stood before
it ran (``chased``)."""


def chased(state: State, moves: Moves) -> dict[str, tuple[str, tuple[float, float]]]:
    """The routing enemy each pursuer chases, worked out before the routers run (B59): one
    touching it (the first listed), else the nearest routing enemy of the melee; with where
    that enemy stands now. A pursuer with no routing enemy on the table chases nobody."""
    table = state.extra.table
    retreats, pursuits = moves
    if table is None or not pursuits:
        return {}
    routers = [u for u, fate, _ in retreats if fate is Fate.ROUTS and u in table.units]
    found = {}
    for unit_id, _ in pursuits:
        side = state.unit(unit_id).side
        enemies = [r for r in routers if state.unit(r).side != side]
        if unit_id not in table.units or not enemies:
            continue
        here = table.footprint(unit_id).centre
        quarry = next((r for r in enemies if in_contact(table, unit_id, r)), None) or min(
            enemies, key=lambda r: math.dist(here, table.footprint(r).centre))
        found[unit_id] = (quarry, table.footprint(quarry).centre)
    return found


def _facing_towards(table: Table, unit_id: str, heading: float) -> Table:
    """The table with the unit turned about its centre to face ``heading`` (degrees off its
    facing) when it fits there (on the table, overlapping nobody); else as it is."""
    if heading == 0.0:
        return table
    turned = table.footprint(unit_id).turned(heading)
    if not table.holds(turned):
        return table
    near = within(table, turned.bounds, (unit_id,))
    if regions.sharing_ground(regions.outline_of(turned), near, outlines=True):
        return table
    return table.placed(turned)


def turned_to_face(state: State, unit_ids: tuple[str, ...],
                   enemies: tuple[str, ...]) -> State:
    """The state with each of the units that an enemy of ``enemies`` touches on a flank or
    its rear turned about its centre to face that enemy, where the turned footprint fits (on
    the table, overlapping nobody): counter-chargers whose tables have turned charge with
    their front, as a charger does (B32)."""
    table = state.extra.table
    if table is None:
        return state
    for unit_id in unit_ids:
        if unit_id not in table.units:
            continue
        for enemy in enemies:
            if enemy not in table.units or not in_contact(table, unit_id, enemy):
                continue
            faces = touching_faces(table, unit_id, enemy)
            if faces and Face.FRONT not in faces:
                table = _facing_towards(table, unit_id, _FACE_HEADING[faces[0]])
            break
    if table is state.extra.table:
        return state
    return state.with_extra(table=table)


def pursue(state: State, pursuits: tuple[Pursuit, ...], quarry: Chased | None = None
           ) -> State:
    """The pursuit moves rolled made on the table (Pursuit; B59): each pursuer goes towards
    the routing enemy it chases (``quarry``: ``chased``), where that enemy ended its rout
    (where it stood, when it is destroyed or has left the table), turning about its centre
    to face it when the turned footprint fits; then it goes that way as far as its roll,
    over ground it may cross, stopping at the table edge and just short of any unit it
    would meet: a pursuit makes no new contact. A pursuer chasing nobody goes straight
    ahead. Without a table, or with no pursuit, the state as it is."""
    table = state.extra.table
    if table is None or not pursuits:
        return state
    traces = []
    for unit_id, length in pursuits:
        if unit_id not in table.units or state.unit(unit_id).gone:
            continue
        start = table.footprint(unit_id)
        heading = 0.0
        if quarry and unit_id in quarry:
            router, stood = quarry[unit_id]
            towards = table.footprint(router).centre if router in table.units else stood
            if math.dist(start.centre, towards) > _SHORT:
                heading = normal_degrees(bearing(start.centre, towards) - start.facing)
        faced = _facing_towards(table, unit_id, heading)
        if faced is not table:
            table, heading = faced, 0.0
        found = furthest(table, unit_id, heading, float(length),
                         rates_for(state.unit(unit_id)))
        go = found.distance
        if found.stopped_by in table.units:
            go = max(0.0, go - _SHORT)
        if go <= 0:
            continue
        end = table.footprint(unit_id).advanced(go, heading)
        traces.append(MoveTrace(unit_id, (start.centre, end.centre)))
        table = table.placed(end)
    if not traces and table is state.extra.table:
        return state
    return state.with_extra(table=table.with_traces(*table.traces, *traces))


def after_melee(state: State, moves: Moves, log: Log | None = None) -> State:
    """The moves after a melee made on the table: push backs, routs and falls back first
    (``retreat``), then the pursuits (``pursue``), each towards the routing enemy it
    chases (``chased``)."""
    retreats, pursuits = moves
    quarry = chased(state, moves)
    return pursue(retreat(state, retreats, log=log), pursuits, quarry)


# --- commanders and woods -----------------------------------------------------------------
def outside_radius(state: State, commander_id: str | None, unit_id: str) -> bool:
    """Whether the unit lies beyond the commander's radius on the table: 24" from a
    commander riding alone, 12" from one attached to a unit, measured from him to the unit's
    nearest point (Command Radius). A unit without a commander (None), or off the table, is
    never outside."""
    if commander_id is None or unit_id not in _table(state).units:
        return False
    leader = state.commander(commander_id)
    table = _table(state)
    try:
        where = table.commander_point(commander_id)
    except InvalidValueError:
        return False
    return not command.in_radius(leader, _gap(table, unit_id, where))


def near_point(table: Table, point: tuple[float, float], reach: float) -> tuple[str, ...]:
    """The units on the table (in its order) whose nearest point may lie within ``reach``
    of ``point``: their centre no further than ``reach`` and their half diagonal (and a
    rounding slack) away. A cheap bound, over every unit at once, that never leaves out a
    unit whose nearest point (``_gap``) is within ``reach``."""
    layout = table.layout
    if not layout.footprints:
        return ()
    away = np.hypot(layout.centre[:, 0] - point[0], layout.centre[:, 1] - point[1])
    near = np.flatnonzero(away - layout.radius <= reach + _SLACK)
    footprints = layout.footprints
    return tuple(footprints[i].unit_id for i in near.tolist())


def may_take_up(state: State, commander_id: str) -> frozenset[str] | None:
    """The units the commander may have within his radius on the state's table
    (``near_point`` from where he stands; the units off the table are never outside,
    ``outside_radius``, and are not named): a cheap bound for the candidates, the checks
    measuring each (``outside_radius``). None: no bound (no table, or the commander has no
    mark on it, so no unit is outside)."""
    table = state.extra.table
    if table is None:
        return None
    try:
        where = table.commander_point(commander_id)
    except InvalidValueError:
        return None
    reach = command.command_radius(state.commander(commander_id))
    return frozenset(near_point(table, where, reach))


def commander_reach(state: State, commander_id: str, attach_to: str | None,
                    to: tuple[float, float] | None) -> str:
    """Why the commander's 12" move on the table cannot be made ("" when it can): the unit
    he joins must lie within 12" of where he stands (to its nearest point), and the point he
    rides to within 12" of it and on the table (Command point tariff: move commander 12"
    including attaching or detaching; B60)."""
    table = _table(state)
    where = table.commander_point(commander_id)
    most = command.COMMANDER_MOVE
    if attach_to is not None:
        if attach_to not in table.units:
            return f"{attach_to} is not on the table"
        gap = _gap(table, attach_to, where)
        if gap > most + 1e-9:
            return f"{attach_to} is {gap:.1f}\" away: beyond his {most}\" move"
        return ""
    if to is None:
        return ""
    if not (0 <= to[0] <= table.width and 0 <= to[1] <= table.depth):
        return f"{to} is off the table"
    gone = math.dist(where, to)
    if gone > most + 1e-9:
        return f"{to} is {gone:.1f}\" away: beyond his {most}\" move"
    return ""


def commander_points(state: State, commander_id: str) -> tuple[tuple[float, float], ...]:
    """The points offered to a commander riding unattached (``to``), each on the table and
    within his 12" (B60): towards the middle of his brigade's units, when he stands more
    than an inch from it; and towards each unit he commands (his brigade's; for the CinC,
    his side's) that lies too far to join (its nearest point beyond 12"), to bring it within
    his radius. Each ride is 12", or as far as the middle. Kept for the layout, where he
    stands and the units he commands (all they read)."""
    table = _table(state)
    leader = state.commander(commander_id)
    where = table.commander_point(commander_id)
    ours = state.derived(standing_by_side).get(leader.side, ())
    brigade = state.derived(standing_by_brigade).get((leader.side, leader.brigade), ())
    commands = ours if leader.cinc else brigade
    return per_layout(table, "commander points", (where, brigade, commands),
                      lambda: _commander_points(table, where, brigade, commands))


def _commander_points(table: Table, where: tuple[float, float], brigade: tuple[str, ...],
                      commands: tuple[str, ...]) -> tuple[tuple[float, float], ...]:
    """``commander_points`` worked out for a commander standing at ``where``, of a brigade
    with the units ``brigade`` on the table, commanding the units ``commands``."""
    most = command.COMMANDER_MOVE - _SHORT  # so that the rounded point is within reach
    targets: list[tuple[float, float]] = []
    if brigade:
        centres = [table.footprint(u).centre for u in brigade]
        middle = (sum(c[0] for c in centres) / len(centres),
                  sum(c[1] for c in centres) / len(centres))
        if math.dist(where, middle) > 1.0:
            targets.append(middle)
    # a unit whose centre lies beyond the move and its half diagonal is too far to join
    # without measuring its nearest point (``near_point``)
    near = frozenset(near_point(table, where, command.COMMANDER_MOVE))
    for unit_id in commands:
        if unit_id not in near or _gap(table, unit_id, where) > command.COMMANDER_MOVE:
            targets.append(table.footprint(unit_id).centre)
    points = []
    for x, y in targets:
        share = min(1.0, most / math.dist(where, (x, y)))
        points.append((round(where[0] + (x - where[0]) * share, 3),
                       round(where[1] + (y - where[1]) * share, 3)))
    return tuple(dict.fromkeys(points))


def standing_by_side(state: State) -> Mapping[str, tuple[str, ...]]:
    """The ids of the units on the state's table, by side, in the state's order (worked out
    once per state)."""
    table = _table(state)
    found: dict[str, list[str]] = {}
    on_table = table.units
    for unit in state.units:
        if unit.id in on_table:
            found.setdefault(unit.side, []).append(unit.id)
    return MappingProxyType({side: tuple(ids) for side, ids in found.items()})


def standing_by_brigade(state: State) -> Mapping[tuple[str, str], tuple[str, ...]]:
    """The ids of the units on the state's table, by side and brigade, in the state's order
    (worked out once per state)."""
    table = _table(state)
    found: dict[tuple[str, str], list[str]] = {}
    on_table = table.units
    for unit in state.units:
        if unit.id in on_table:
            found.setdefault((unit.side, unit.brigade), []).append(unit.id)
    return MappingProxyType({key: tuple(ids) for key, ids in found.items()})


def _gap(table: Table, unit_id: str, point: tuple[float, float]) -> float:
    """How far the point is from the unit's nearest base (kept for the ground)."""
    footprint = table.footprint(unit_id)
    return on_ground(table, ("gap", footprint, point), lambda: float(
        regions.region_of(footprint).distance(point)))


def stands_in_woods(state: State, unit_id: str) -> bool:
    """Whether the unit stands in woods (at least half its footprint in heavier woods), for
    the quality of units rated differently there (Quality; B53)."""
    table = _table(state)
    if unit_id not in table.units:
        return False
    return in_heavy_woods(table, unit_id)


def in_heavy_woods(table: Table, unit_id: str) -> bool:
    """Whether the unit on the table stands in heavier woods (at least half its footprint),
    worked out once per layout and kept for its footprint (``answers``)."""
    def work() -> bool:
        footprint = table.footprint(unit_id)
        woods = table.terrain.union(TerrainKind.DENSE_WOODS)
        if woods is None or not _boxes_meet(footprint.bounds, woods.bounds):
            return False
        return on_ground(table, ("woods", footprint), lambda: cover_of(
            table, unit_id).stands_in(TerrainKind.DENSE_WOODS))

    return per_layout(table, "in woods", unit_id, work)


def _boxes_meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two boxes (min x, min y, max x, max y) meet."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
