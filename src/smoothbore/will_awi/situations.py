"""Positions into the situations Will's rules take: one function per mechanism, so that
firing, charging and moving can be asked with unit ids alone when the battle has a table.

The table answers every pair at once (``sightings``, ``charges``) and keeps the answers per
ground and units (``Table.derived``): asking pair by pair in a loop would cost ~1 ms a pair.
What a move costs is the book's own check (``movement.check_move``) of a plan read off the
route: the legs over the ground, the lines crossed and the buildings entered."""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core import IllegalActionError, InvalidValueError, revised
from smoothbore.table import (
    ChargeReach,
    CrossingCost,
    Feature,
    Footprint,
    ImpassableError,
    PassageKind,
    Point,
    RateTable,
    Region,
    Regions,
    Route,
    Sighting,
    SightRules,
    Table,
    TerrainKind,
    Way,
    charges,
    edges_of_ground,
    footprints_near,
    furthest,
    furthest_many,
    gaps,
    in_contact,
    outline_of,
    point,
    point_distance,
    polygon,
    region_of,
    regions_of,
    rout,
    route,
    segment,
    short_of_units,
    sightings,
    stands_on_many,
    touching_faces,
    union_of,
)
from smoothbore.table import Face as TableFace
from smoothbore.table import nearest_enemies as table_nearest_enemies
from smoothbore.table.footprints import bearing_vectors, normal_degrees
from smoothbore.table.terrain import terrain_index

from . import rules
from .charges import ChargeFacts, Face, charge_reach
from .command import OrderFacts
from .firing import RANGES, Cover, FireFacts, Woods
from .fortifications import cover_for_points
from .movement import (
    CROSSING_COST,
    TERRAIN_SPEED,
    Crossing,
    Leg,
    MovePlan,
    Mover,
    Terrain,
    mover_of,
    retire_deduction,
    terrain_speed,
)
from .narration import inches
from .options import Options
from .positions import Place, relaid
from .state import State, illegal
from .units import Rank, Unit, Weapon

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


# --- the table's answers, once per ground, units and side ------------------------------------
def all_sightings(table: Table) -> Mapping[tuple[str, str], Sighting]:
    """What every unit sees of every enemy (by (firer, target))."""
    return MappingProxyType({(s.firer, s.target): s for s in sightings(table, rules=SIGHT)})


def all_reaches(table: Table) -> Mapping[tuple[str, str], ChargeReach]:
    """How every unit could charge every enemy (by (charger, target)), asked with the
    longest reach; each charger's own reach is compared afterwards."""
    return MappingProxyType({(c.charger, c.target): c
                             for c in charges(table, None, CHARGE_REACH)})


SIGHT_REACH = 54.0
"""The longest range in the rules (heavy guns' long range, Rules - Firing: the range
table): how far round a unit its sightings are asked of the table (``sightings_of``). No
unit fires further, no charge reaches so far, and a facing change is offered only towards
an enemy within it (interpretation W55)."""


_LONGEST: Mapping[Weapon, float] = MappingProxyType({
    weapon: float(max(r for r in bands if r is not None)) for weapon, bands in RANGES.items()})
"""Each weapon's longest range (Rules - Firing: the range table): how far a firer's
sightings are asked for its fire."""


def unit_sightings(table: Table) -> dict[tuple[str, float], Mapping[tuple[str, str], Sighting]]:
    """The sightings of each unit asked so far on this table (``sightings_of``), by unit
    and reach."""
    return {}


def sightings_of(table: Table, firer: str,
                 reach: float = SIGHT_REACH) -> Mapping[tuple[str, str], Sighting]:
    """What ``firer`` sees of every enemy that may stand within ``reach`` of it (by
    (firer, target), in the table's order; the entries of ``all_sightings`` for those
    pairs, and a few more: each enemy whose square comes within the reach of the unit's),
    worked out once per table, unit and reach: a phase asks only of the units that fire or
    turn, as far as the rule it checks reads (a facing change's candidate ``SIGHT_REACH``,
    its check the enemies' charge reach, fire the firer's longest range), and random play
    of the one it draws (issue 28: the side's every pair was 250,000 at 500 units a side).
    Once ``_BATCHED`` units of a side have asked on a table with a reach up to
    ``_BATCH_REACH`` (a phase listing every unit's fire or facing check), the rest of the
    side's are asked with the next in one call: the table's answer to each pair is the
    same, and its fixed cost is paid once. Empty for a unit not on the table; a pair
    further off is asked alone (``sighting_of``)."""
    found = table.units.get(firer)
    if found is None:
        return MappingProxyType({})
    memo = table.derived(unit_sightings)
    known = memo.get((firer, reach))
    if known is not None:
        return known
    side = found.side
    asked = [firer]
    if side and reach <= _BATCH_REACH and sum(
            1 for u, r in memo if r == reach and table.units[u].side == side) >= _BATCHED:
        asked += [f.unit_id for f in table.footprints
                  if f.side == side and (f.unit_id, reach) not in memo and f.unit_id != firer]
    _ask_sightings(table, memo, [(unit, reach) for unit in asked])
    return memo[(firer, reach)]


def _ask_sightings(table: Table, memo: dict[tuple[str, float],
                                            Mapping[tuple[str, str], Sighting]],
                   asked: list[tuple[str, float]]) -> None:
    """Asks the table in one call the sightings of each (unit, reach) of ``asked`` (units
    on the table, not asked yet) and keeps them in ``memo`` (``unit_sightings``)."""
    sighted = {(unit, reach): _sighted(table, unit, reach) for unit, reach in asked}
    pairs = [(unit, f.unit_id) for (unit, _), near in sighted.items() for f in near]
    seen = {(s.firer, s.target): s for s in sightings(table, pairs, rules=SIGHT)} if (
        pairs) else {}
    for (unit, reach), near in sighted.items():
        memo[(unit, reach)] = MappingProxyType({(unit, f.unit_id): seen[(unit, f.unit_id)]
                                                for f in near})


def ask_fire_sightings(table: Table, firers: list[tuple[str, float]]) -> None:
    """The sightings of each firer as far as its weapon reaches (``firers``: (unit, reach)),
    those not asked yet on this table, asked in one call and kept as ``sightings_of`` keeps
    them: a phase that lists every unit's fire asks them all (issue 28: guns asked one by
    one, 45" round each, cost 0.3 s at 500 units a side)."""
    memo = table.derived(unit_sightings)
    asked = list(dict.fromkeys(
        (unit, reach) for unit, reach in firers
        if (unit, reach) not in memo and unit in table.units))
    if asked:
        _ask_sightings(table, memo, asked)


_BATCHED = 2
"""How many units of a side asking on one table make a phase that lists them all."""

_BATCH_REACH = 24.0
"""The longest reach asked for a whole side at once (muskets, rifles, a gun's medium range:
few pairs each); a facing change's ``SIGHT_REACH`` is asked unit by unit, as random play
draws them."""


def _sighted(table: Table, unit: str, reach: float) -> list[Footprint]:
    """The enemies whose squares come within ``reach`` of the unit's (in the table's
    order)."""
    here = table.footprint(unit)
    side = here.side
    if not side:
        return []
    return [f for f in _near(table, *_box(here), reach) if f.side and f.side != side]


def sighting_of(table: Table, firer: str, target: str) -> Sighting | None:
    """What ``firer`` sees of ``target`` (None: not two enemies on the table): read from
    the unit's answers when they were asked on this table and hold the pair, else asked of
    the table for this one pair and kept per table and pair (a declared charge reads one
    pair, and the table changes with each charger's move)."""
    units = table.units
    found = units.get(firer)
    other = units.get(target)
    if found is None or other is None or not (found.side and other.side
                                              and other.side != found.side):
        return None
    for (unit, _), known in table.derived(unit_sightings).items():
        seen = known.get((firer, target)) if unit == firer else None
        if seen is not None:
            return seen
    memo = table.derived(pair_sightings)
    seen = memo.get((firer, target))
    if seen is None:
        seen = memo[(firer, target)] = sightings(table, [(firer, target)], rules=SIGHT)[0]
    return seen


def pair_sights(table: Table, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], Sighting]:
    """What each firer sees of each target of ``pairs`` (by (firer, target)), asked of the
    table in one call and kept nowhere: the same answer, pair by pair, as ``sightings_of``
    and ``sighting_of`` give (the table answers each pair alone), for a question that reads
    a few pairs of many units once (``steps_firing.able_to_fire``)."""
    if not pairs:
        return {}
    return {(s.firer, s.target): s for s in sightings(table, pairs, rules=SIGHT)}


def pair_sightings(table: Table) -> dict[tuple[str, str], Sighting]:
    """The sightings asked pair by pair so far on this table, by (firer, target)."""
    return {}


def reaches_of(table: Table, charger: str) -> Mapping[tuple[str, str], ChargeReach]:
    """How ``charger`` could charge every enemy that may stand within ``CHARGE_REACH`` of
    it (the entries of ``all_reaches`` for those pairs, and a few more: each enemy whose
    square comes within the reach of the charger's; empty for a unit not on the table),
    worked out once per table and charger: a phase asks of one or two chargers, and the
    table changes with each charge move. A pair further off is asked alone
    (``reach_of``)."""
    found = table.units.get(charger)
    if found is None:
        return MappingProxyType({})
    memo = table.derived(charger_reaches)
    known = memo.get(charger)
    if known is None:
        side = found.side
        near = _near(table, *_box(found), CHARGE_REACH) if side else []
        pairs = [(charger, f.unit_id) for f in near if f.side and f.side != side]
        known = memo[charger] = MappingProxyType(
            {(c.charger, c.target): c for c in charges(table, pairs, CHARGE_REACH)})
    return known


def reach_of(table: Table, charger: str, target: str) -> ChargeReach | None:
    """How ``charger`` could charge ``target`` (None: not two enemies on the table): read
    from the charger's answers (``reaches_of``), else asked of the table for this one pair
    and kept per table and pair."""
    units = table.units
    found = units.get(charger)
    other = units.get(target)
    if found is None or other is None or not (found.side and other.side
                                              and other.side != found.side):
        return None
    seen = reaches_of(table, charger).get((charger, target))
    if seen is not None:
        return seen
    memo = table.derived(pair_reaches)
    seen = memo.get((charger, target))
    if seen is None:
        seen = memo[(charger, target)] = charges(table, [(charger, target)], CHARGE_REACH)[0]
    return seen


def pair_reaches(table: Table) -> dict[tuple[str, str], ChargeReach]:
    """The reaches asked pair by pair so far on this table, by (charger, target)."""
    return {}


def near_units(state: State, unit_id: str, gap: float) -> frozenset[str]:
    """The units whose bounding boxes may come within ``gap`` of the unit's on the table (a
    superset, from the table's ``Spread``: ``boxes_apart`` then judges each); none for a
    unit not on the table."""
    table = table_of(state)
    found = table.units.get(unit_id)
    if found is None:
        return frozenset()
    return frozenset(f.unit_id for f in _near(table, *found.bounds, gap))


def near_footprints(table: Table, box: tuple[float, float, float, float],
                    gap: float) -> list[Footprint]:
    """The footprints (in the table's order) whose bounding boxes may come within ``gap`` of
    ``box`` (min x, min y, max x, max y): ``near_units``'s, as footprints."""
    return _near(table, *box, gap)


def charger_reaches(table: Table) -> dict[str, Mapping[tuple[str, str], ChargeReach]]:
    """The reaches asked charger by charger so far on this table (``reaches_of``)."""
    return {}


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


def shot_facts(state: State, firer: str, target: str, action: object = None,
               seen: Sighting | None = None) -> ShotFacts:
    """Range (nearest points), arc, sight, woods and cover of ``firer``'s fire at
    ``target``: an IllegalActionError when the two are not enemies on the table. ``seen``:
    the table's sighting of the pair when the caller has asked it already (``pair_sights``),
    else it is read from the firer's sightings."""
    table = table_of(state)
    if seen is not None and (seen.firer, seen.target) == (firer, target):
        found: Sighting | None = seen
    else:
        weapon = state.unit(firer).fires_with
        reach = CHARGE_REACH if weapon is None else _LONGEST[weapon]
        found = (sightings_of(table, firer, reach).get((firer, target))
                 or sighting_of(table, firer, target))
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
    holds, and whether the charge goes over an obstacle (the one the target stands behind,
    or a fence, wall, fieldwork line or stream its path crosses; W49) or uphill."""
    table = table_of(state)
    reach, ahead = charge_ahead(state, charger, target, action)
    seen = sighting_of(table, charger, target)
    if seen is None:
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
    over = bool(seen.cover.behind) or _charge_crosses(table, charger, ahead)
    return ChargeSituation(reach, ahead, facts, over, seen.rise > 0)


def _charge_crosses(table: Table, charger: str, ahead: float | None) -> bool:
    """Whether a charge straight ahead ``ahead`` inches to contact crosses a fence, wall,
    fieldwork line or stream on its way (Rules - Melee: "charging over an obstacle (stream,
    fence etc.)"), as a move's route finds the lines its centre crosses."""
    if ahead is None or ahead <= _SHORT:
        return False
    here = table.footprint(charger)
    (dx, dy), _ = bearing_vectors(here.facing)
    short = ahead - _SHORT
    path = _route(table, charger, (here.x + dx * short, here.y + dy * short))
    return any(p.event is PassageKind.CROSS and p.kind in _LINES for p in path.passages)


def charge_ahead(state: State, charger: str, target: str,
                 action: object = None) -> tuple[ChargeReach, float | None]:
    """The table's reach answer for ``charger`` at ``target`` and how far the charger goes
    straight ahead to contact (None: the target is not directly to its front): the part of
    ``charge_facts`` that decides whether the charge may be declared, read without what
    the side sees."""
    reach = reach_of(table_of(state), charger, target)
    if reach is None:
        raise illegal(action, "the target must be an enemy unit on the table", rules.CHARGING)
    ahead = None if reach.ahead is None or reach.blocked_by else round(reach.ahead, 6)
    return reach, ahead


SLACK = 1e-6
"""Room left for the rounding of measured distances (to 6 places) in the box tests."""


def boxes_apart(state: State, a: str, b: str, gap: float) -> bool:
    """The bounding boxes of two units on the table are more than ``gap`` apart, so their
    bases are too: a cheap test before ranges and reaches are measured (False when either
    unit is not on the table)."""
    table = table_of(state)
    units = table.units
    first, second = units.get(a), units.get(b)
    if first is None or second is None:
        return False
    x0, y0, x1, y1 = first.bounds
    a0, b0, a1, b1 = second.bounds
    dx = max(0.0, a0 - x1, x0 - a1)
    dy = max(0.0, b0 - y1, y0 - b1)
    return dx * dx + dy * dy > gap * gap


def in_charge_reach(state: State, charger: Unit, target: str) -> bool:
    """The target is directly ahead within the charger's reach, nothing in the way, over
    ground the charge may cross (``charge_ground``)."""
    found = reach_of(table_of(state), charger.id, target)
    if (found is None or found.ahead is None or found.blocked_by
            or found.ahead > charge_reach(charger) + 1e-9):
        return False
    try:
        charge_ground(state, charger, target, found.ahead)
    except IllegalActionError:
        return False
    return True


_SHORT = 0.01
"""How far short of contact the charge's route is priced (the table counts a route that
ends touching an enemy as passing through it)."""


def charge_ground(state: State, charger: Unit, target: str, ahead: float,
                  action: object = None) -> None:
    """The ground of a charge straight ahead ``ahead`` inches to contact, priced as a move's
    route is (``plan_of``: the legs over the ground, W49): ground or a line the charger
    cannot cross (a river but at a ford or bridge, Movement note (a)) refuses it
    (ImpassableError naming the feature), and the ground slows it as it slows a move: the
    legs' inches over their terrain's rate must fit the charge reach. Fences, walls and
    streams crossed cost none of the reach: the text prices them in the melee ("charging
    over an obstacle"), W49. Ground it cannot enter met by any part of its footprint
    beside the centre's line (a column's front base on the river beside a ford) refuses
    it too (``_charge_swept``)."""
    if ahead <= 1e-9:
        return
    table = table_of(state)
    here = table.footprint(charger.id)
    (dx, dy), _ = bearing_vectors(here.facing)
    short = max(0.0, ahead - _SHORT)  # touching the target is not passing through it
    to = (here.x + dx * short, here.y + dy * short, here.facing)
    plan = plan_of(state, charger, to, action)
    _charge_swept(table, charger, short, state.options, action)
    cost = sum((Fraction(leg.inches).limit_denominator(1000)
                / terrain_speed(charger, leg.terrain, state.options, action)
                for leg in plan.legs), Fraction(0))
    reach = charge_reach(charger)
    if cost > reach + Fraction(1, 10**6):
        raise illegal(action, f"the ground slows the charge: it needs {inches(cost)} of its "
                      f"{inches(reach)} reach", rules.CHARGING)


def _charge_swept(table: Table, charger: Unit, short: float, options: Options,
                  action: object) -> None:
    """The ground the charger's whole footprint sweeps going ``short`` straight ahead
    (the hull of its outline where it stands and where it ends, less the ground it stands
    on): ground the charger cannot enter (a river but where a ford or bridge crosses it,
    Movement note (a)) met by any part of it raises ImpassableError naming it. The table
    judges a river that has a ford by the centre's route alone."""
    rates = rate_table(charger, options)
    here = table.footprint(charger.id)
    (dx, dy), _ = bearing_vectors(here.facing)
    corners = here.corners
    swept = Regions.hulls(np.concatenate((corners, np.add(corners, (dx * short, dy * short))))[
        np.newaxis])[0].difference(outline_of(here))
    for feature, wet in _impassable(table, rates):
        if swept.shared_area(wet) > _SLIVER:
            raise ImpassableError(action, feature.feature_id, feature.kind,
                                  rules.MOVEMENT_TERRAIN)


_SLIVER = 1e-6
"""An overlap of ground this small (square inches) is the rounding of a touch."""


def impassable_at(table: Table, unit: Unit, options: Options, x: float, y: float) -> str:
    """The ground at (x, y), inside its edge, that ``unit`` may not enter (NA in Rules -
    Movement: Effects of terrain; a river but where a ford or bridge crosses it), named
    by its label or id; "" when there is none. The whole-battle check asks it of each
    unit's centre (``validity``); the ground is worked out once per table and mover."""
    memo = table.derived(impassable_grounds)
    mover = mover_of(unit)
    grounds = memo.get(mover)
    if grounds is None:
        grounds = memo[mover] = _impassable(table, rate_table(unit, options))
    for feature, ground in grounds:
        if ground.contains(x, y):
            return f"{feature.label or feature.feature_id} ({feature.kind.value})"
    return ""


def impassable_grounds(table: Table) -> dict[Mover, tuple[tuple[Feature, Region], ...]]:
    """The ground each kind of mover may not enter on this table, asked so far
    (``impassable_at``)."""
    return {}


def _impassable(table: Table, rates: RateTable) -> tuple[tuple[Feature, Region], ...]:
    """Each feature a mover with these rates may not enter (NA), with its ground: its area
    less where a ford or bridge crosses it (Rules - Movement: Effects of terrain)."""
    out: list[tuple[Feature, Region]] = []
    for feature in table.features:
        if feature.kind not in _KINDS or rates.rate(feature.kind) is not None:
            continue
        ground = region_of(feature)
        for dry in table.features:
            if feature.kind in _MASKS.get(dry.kind, ()):
                ground = ground.difference(dry)
        out.append((feature, ground))
    return tuple(out)


# --- moving ----------------------------------------------------------------------------------
def rate_table(unit: Unit, options: Options | None = None) -> RateTable:
    """The terrain and crossings tables for the unit's kind of mover as a table's rates
    (Rules - Movement: Effects of terrain); fords and bridges hide the water they cross.
    Kept by kind of mover (the tables read nothing else: no option changes them)."""
    return _rate_table(mover_of(unit))


@functools.cache
def _rate_table(of: Mover) -> RateTable:
    mover = of.value
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


# --- what stands near a place: a cheap bound before the exact tests (issue 28) --------------
_NEAR_SLACK = 1e-6
"""Room left by the cheap bounds for the rounding of the exact tests that follow them (the
bound finds a few more units than the exact test keeps, never fewer)."""


class Spread:
    """A table's footprints for the cheap bounds, worked out once per table (``spread``):
    each footprint's square (its centre plus and minus its half-diagonal, which holds its
    outline, its bases and every way it can turn) sorted west to east, so that the units
    whose squares come near a box are found by bisection and a short scan (``near_rows``),
    and the centres, half-diagonals and sides as arrays, so that the enemies that may be
    nearest a place are found in one array expression (``nearest_rows``). Read only; the
    exact tests (``_swept_apart``, Shapely's distances) then judge the few found."""

    __slots__ = ("_enemies", "_lefts", "_sorted", "_span", "_squares", "footprints", "index",
                 "radii", "widest", "xs", "ys")

    def __init__(self, footprints: tuple[Footprint, ...]) -> None:
        self.footprints = footprints
        self.index = {f.unit_id: i for i, f in enumerate(footprints)}
        squares = [(f.x - r, f.y - r, f.x + r, f.y + r)
                   for f in footprints for r in (0.5 * math.hypot(f.width, f.length),)]
        order = sorted(range(len(squares)), key=lambda i: squares[i][0])
        self._sorted = order
        self._squares = [squares[i] for i in order]
        self._lefts = [sq[0] for sq in self._squares]
        self._span = max((sq[2] - sq[0] for sq in squares), default=0.0)
        self.widest = self._span / 2
        self.xs = np.array([f.x for f in footprints], dtype=float)
        self.ys = np.array([f.y for f in footprints], dtype=float)
        self.radii = np.array([(sq[2] - sq[0]) / 2 for sq in squares], dtype=float)
        sides = dict.fromkeys(f.side for f in footprints if f.side)
        self._enemies = {side: np.flatnonzero(np.array(
            [bool(f.side) and f.side != side for f in footprints], dtype=bool))
            for side in sides}

    def near_rows(self, x0: float, y0: float, x1: float, y1: float, gap: float) -> list[int]:
        """The rows (in the table's order) of the footprints whose squares come within
        ``gap`` of the box (x0, y0)-(x1, y1): every footprint whose outline does, and a few
        more."""
        gap += _NEAR_SLACK
        a0, a1, b0, b1 = x0 - gap, x1 + gap, y0 - gap, y1 + gap
        squares = self._squares
        start = bisect.bisect_left(self._lefts, a0 - self._span)
        stop = bisect.bisect_right(self._lefts, a1)
        rows = [self._sorted[k] for k in range(start, stop)
                if squares[k][2] >= a0 and squares[k][1] <= b1 and squares[k][3] >= b0]
        rows.sort()
        return rows

    def enemy_rows(self, side: str) -> npt.NDArray[np.intp]:
        """The rows of the units of another side than ``side`` (none for a unit with no
        side), in the table's order."""
        return self._enemies.get(side, _NO_ROWS) if side else _NO_ROWS

    def nearest_rows(self, side: str, x: float, y: float, radius: float) -> list[int]:
        """The rows (in the table's order) of the enemies of ``side`` that may be the nearest
        to anything within ``radius`` of (x, y), by their outlines or bases: those whose
        least possible distance is no more than the most the nearest can be. Every enemy
        at the least distance is among them."""
        rows = self.enemy_rows(side)
        if not len(rows):
            return []
        apart = np.hypot(self.xs[rows] - x, self.ys[rows] - y)
        reach = self.radii[rows] + radius
        most = float((apart + reach).min())
        found: list[int] = rows[apart - reach <= most + _NEAR_SLACK].tolist()
        return found


_NO_ROWS: npt.NDArray[np.intp] = np.zeros(0, dtype=np.intp)


def spread(table: Table) -> Spread:
    """The table's ``Spread``, worked out once per table."""
    return Spread(table.footprints)


def _near(table: Table, x0: float, y0: float, x1: float, y1: float,
          gap: float) -> list[Footprint]:
    """The footprints (in the table's order) whose outlines may come within ``gap`` of the
    box (x0, y0)-(x1, y1): a superset, for the exact tests."""
    found = table.derived(spread)
    fps = found.footprints
    return [fps[i] for i in found.near_rows(x0, y0, x1, y1, gap)]


def plan_of(state: State, unit: Unit, to: Place, action: object = None) -> MovePlan:
    """The move plan of the unit's route to ``to`` (its centre in a straight line, then
    facing ``to[2]``): the legs over the ground, the lines crossed, the buildings entered and
    left, friends passed through, retiring, the facing change and the nearest enemy at the
    end, for the book's own check of the allowance (``movement.check_move``). Ground or a
    line the unit cannot cross is an ImpassableError naming the feature; passing through an
    enemy or ending off the table an IllegalActionError. Worked out once per table, unit,
    options and destination (``table.store("will_awi: plans")``: a charge's check and its
    handler share it; a move's handler is handed its check's ruling)."""
    table = table_of(state)
    options = state.options
    found = table.store(PLANS, most=_MOST).ask(
        (table, unit, options, to), functools.partial(plan_on, table, unit, to, options))
    if isinstance(found, ImpassableError):
        raise ImpassableError(action, found.feature, found.kind, found.rule)
    if isinstance(found, IllegalActionError):
        raise illegal(action, found.why, found.rule)
    return found


def _half_diagonal(footprint: Footprint) -> float:
    """Half the outline's diagonal (worked out each time: cheaper than looking a footprint
    up in a cache, which hashes all its fields)."""
    return 0.5 * math.hypot(footprint.width, footprint.length)


PLANS = "will_awi: plans"
"""The store of move plans (``plan_of``), by table, unit, options and destination."""

_MOST = 8192
"""The most plans a battle's store keeps (every move of 500 units a side listed at once)."""


def plan_on(table: Table, unit: Unit, to: Place,
            options: Options) -> MovePlan | IllegalActionError:
    """``plan_of`` worked out afresh on ``table`` (the error returned, not raised): a
    straight move whose centre stays on the one ground it stands on and that touches no
    other unit is read off the positions (``steady_ground``), any other from the table's
    route."""
    here = table.footprint(unit.id)
    x, y, facing = to
    dx, dy = x - here.x, y - here.y
    (fx, fy), _ = here.frame
    ahead = dx * fx + dy * fy
    if (dx == 0 and dy == 0) or abs(ahead) > 1e-6 * max(1.0, math.hypot(dx, dy)):
        end = here.moved_to(x, y, facing)
        kinds = steady_ground(table, here, dx, dy) if table.holds(end) else None
        rates = rate_table(unit, options)
        if kinds is not None and rates.speed(kinds) is not None:
            length = math.dist(here.centre, (x, y))
            if end.facing != here.facing and length > 1e-9:
                under = _ends_on(table, unit, end)
                if under is not None:
                    return under
            return _plan_read(table, unit, here, end, (
                (Leg(round(length, 6), _terrain(kinds, rates)),) if length > 1e-9 else ()),
                (), ahead < 0 and not (dx == 0 and dy == 0), 0, facing)
    return plan_routed(table, unit, to, options)


def steady_ground(table: Table, here: Footprint, dx: float, dy: float
                  ) -> frozenset[TerrainKind] | None:
    """The kinds of ground under the centre's straight line by (dx, dy) when the line meets
    no edge of an area and no line a move crosses (its route is one leg over the ground the
    unit stands on, nothing crossed) and the outline, keeping its facing, stays apart from
    every other unit (nothing passed through); None where that cannot be told."""
    if not _units_apart(table, here, dx, dy):
        return None
    edges = _edges(table)
    if edges is not None and edges.within(_line(here, dx, dy), _BEYOND):
        return None
    return _ground_at(table, here.x, here.y)


def _ground_at(table: Table, x: float, y: float) -> frozenset[TerrainKind]:
    """The kinds of ground at a point (``TerrainIndex.kinds_at``), asked once per table and
    point (a unit's moves all start from its centre)."""
    memo = table.derived(grounds)
    found = memo.get((x, y))
    if found is None:
        found = memo[(x, y)] = table.terrain.kinds_at(x, y)
    return found


def grounds(table: Table) -> dict[Point, frozenset[TerrainKind]]:
    """The kinds of ground at each point asked so far on this table."""
    return {}


def plan_routed(table: Table, unit: Unit, to: Place,
                options: Options) -> MovePlan | IllegalActionError:
    """``plan_of`` from the table's route to ``to``."""
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
    under = _ends_on(table, unit, end) if legs else None  # a turn in place: _plan_read
    if under is not None:
        return under
    return _plan_read(table, unit, here, end, legs, tuple(crossings), path.retiring,
                      len(path.units_crossed), to[2])


def _plan_read(table: Table, unit: Unit, here: Footprint, end: Footprint,
               legs: tuple[Leg, ...], crossings: tuple[Crossing, ...], retiring: bool,
               passes: int, facing: float) -> MovePlan | IllegalActionError:
    """The plan of a route's legs and crossings: the turn's room and the nearest enemy at
    the end read off the table."""
    turned = normal_degrees(facing - here.facing)
    if abs(turned) > 1e-6 and not legs:
        struck = _turn_blocked(table, unit.id, turned)
        if struck:
            return IllegalActionError(None, f"the turn would strike {struck[0]}", rules.FACING)
    nearest = _nearest_enemy(table, unit.id, end)
    return MovePlan(
        legs=legs,
        crossings=crossings,
        retiring=retiring,
        passes_through=passes,
        enemy_within_24=nearest is not None and nearest <= 24,
        facing_change=round(turned, 6),
        nearest_enemy=None if nearest is None else min(round(nearest, 6), 1e6),
    )


ENDS_ON = "will_awi: ends on"
"""The store of the unit a footprint would stand on (``_ends_on``), by table and footprint."""


def _ends_on(table: Table, unit: Unit, end: Footprint) -> IllegalActionError | None:
    """The refusal of a move whose footprint at its end, turned as it ends, would stand on
    another unit (their insides meet; W49); None when it stands clear."""
    other: str | None = table.store(ENDS_ON, most=_MOST).ask(
        (table, end), functools.partial(_stands_on, table, end))
    if other is None:
        return None
    turned = (f", turned to face {normal_degrees(end.facing) % 360:.0f}°"
              if end.facing != table.footprint(unit.id).facing else "")
    return IllegalActionError(None, f"{unit.name} would end on {other}{turned}",
                              rules.MOVEMENT)


def _stands_on(table: Table, end: Footprint) -> str | None:
    """The first unit (as the table's tree gives them) whose inside ``end``'s meets."""
    (on,) = stands_on_many(table, (end,))
    return on[0] if on else None


def _stand_on_many(table: Table, ends: Sequence[Footprint]) -> None:
    """``_stands_on`` of each of ``ends`` worked out at once into the battle's store (the
    table's ``stands_on_many``: one tree query and one test of every pair); an end on two
    units or more is left to ``_stands_on``."""
    store = table.store(ENDS_ON, most=_MOST)
    asked = [e for e in dict.fromkeys(ends) if (table, e) not in store]
    for end, on in zip(asked, stands_on_many(table, asked), strict=True):
        if len(on) <= 1:
            store.put((table, end), on[0] if on else None)


# --- a straight move over bare ground, read off the positions -----------------------------
_APART = 1e-7
"""How far apart (inches) two shapes must be to count as apart without the table's exact
test: closer, the table's route decides."""

_BEYOND = 1e-6
"""How near an edge of the ground a steady move's line may come (and how far past its end
it is tested: more than the table's rounding, 1e-9), so that the table's route and
``furthest`` find the same ground, nothing in the way, at and a little past it."""


GROUND = "will_awi: ground"
"""The store of what the book reads of the table's ground (its features): every feature's
ground as one shape, their boxes, the edges a move's line may meet, the areas' boxes."""


def _ground(table: Table) -> Region | None:
    """``_ground_of`` the table's features, kept in the battle's store (``GROUND``)."""
    found: Region | None = table.store(GROUND).ask(
        ("ground", table.features), functools.partial(_ground_of, table.features))
    return found


def _ground_boxes(table: Table) -> tuple[tuple[float, float, float, float], ...]:
    """``_ground_boxes_of`` the table's features, kept in the battle's store."""
    found: tuple[tuple[float, float, float, float], ...] = table.store(GROUND).ask(
        ("boxes", table.features), functools.partial(_ground_boxes_of, table.features))
    return found


def _edges(table: Table) -> Region | None:
    """The table's ``edges_of_ground`` (None: bare table), kept in the battle's store by
    its features."""
    found: Region | None = table.store(GROUND).ask(
        ("edges", table.features), functools.partial(_edges_of, table))
    return found


def _area_boxes(table: Table) -> tuple[tuple[float, float, float, float], ...]:
    """``_area_boxes_of`` the table's features, kept in the battle's store."""
    found: tuple[tuple[float, float, float, float], ...] = table.store(GROUND).ask(
        ("area boxes", table.features), functools.partial(_area_boxes_of, table.features))
    return found


def _ground_of(features: tuple[Feature, ...]) -> Region | None:
    """Every feature's ground (areas and lines) as one region (None: bare table)."""
    if not features:
        return None
    return union_of(features)


@functools.lru_cache(maxsize=8192)
def _corners(f: Footprint) -> list[Point]:
    """The outline's corners in plain floats (the list is shared: never changed)."""
    (fx, fy), (rx, ry) = bearing_vectors(f.facing)
    w, h = f.width / 2, f.length / 2
    x, y = f.x, f.y
    return [(x + u * rx + v * fx, y + u * ry + v * fy)
            for u, v in ((-w, h), (w, h), (w, -h), (-w, -h))]


@functools.lru_cache(maxsize=8192)
def _box(f: Footprint) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of the outline's corners."""
    xs = [x for x, _ in _corners(f)]
    ys = [y for _, y in _corners(f)]
    return min(xs), min(ys), max(xs), max(ys)


def _ground_boxes_of(features: tuple[Feature, ...]) -> tuple[tuple[float, float, float, float],
                                                           ...]:
    """The bounds of every feature's ground."""
    return tuple(tuple(map(float, f.area.bounds)) for f in features)  # type: ignore[misc]


def _hull(points: list[Point]) -> list[Point]:
    """The convex hull of a few points, anticlockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@functools.lru_cache(maxsize=1024)
def _axes(facing: float) -> tuple[Point, Point]:
    """The forward and right unit vectors of a facing."""
    return bearing_vectors(facing)


def _swept_apart(here: Footprint, dx: float, dy: float, other: Footprint,
                 gap: float) -> bool:
    """The outline swept by (dx, dy) and ``other``'s outline are more than ``gap`` apart
    along one of their edges' normals (the separating axis test; False: they may not be)."""
    mine, theirs = _corners(here), _corners(other)
    axes = [*_axes(here.facing), *_axes(other.facing)]
    length = math.hypot(dx, dy)
    if length > 0:
        axes.append((-dy / length, dx / length))
    for ax, ay in axes:
        along = dx * ax + dy * ay
        pa = [x * ax + y * ay for x, y in mine]
        pb = [x * ax + y * ay for x, y in theirs]
        if (min(pb) - max(pa) - max(0.0, along) > gap
                or min(pa) + min(0.0, along) - max(pb) > gap):
            return True
    return False


def open_move(table: Table, here: Footprint, dx: float, dy: float, *,
              swept_ground: bool = False) -> bool:
    """Whether the unit's straight move by (dx, dy) keeping its facing is open: it stays
    apart from every other unit, and its centre's line (the whole swept outline with
    ``swept_ground``) keeps off every feature, so that its route is one leg of open ground
    with nothing crossed or passed. Tested in plain floats and with one question of the
    ground; False where that cannot tell."""
    if not _units_apart(table, here, dx, dy):
        return False
    x0, y0, x1, y1 = _box(here)
    x0, x1 = x0 + min(0.0, dx), x1 + max(0.0, dx)
    y0, y1 = y0 + min(0.0, dy), y1 + max(0.0, dy)
    if not swept_ground:
        x0, x1 = here.x + min(0.0, dx), here.x + max(0.0, dx)
        y0, y1 = here.y + min(0.0, dy), here.y + max(0.0, dy)
    near = [i for i, (a0, b0, a1, b1) in enumerate(_ground_boxes(table))
            if not (a0 - x1 > 1e-6 or x0 - a1 > 1e-6 or b0 - y1 > 1e-6 or y0 - b1 > 1e-6)]
    if not near:
        return True
    ground = _ground(table)
    shape: Region
    if swept_ground:
        start = _corners(here)
        shape = polygon(_hull([*start, *((x + dx, y + dy) for x, y in start)]))
    else:
        shape = _line(here, dx, dy)
    return ground is None or not ground.within(shape, 1e-6)


def _units_apart(table: Table, here: Footprint, dx: float, dy: float) -> bool:
    """The outline swept by (dx, dy) keeping its facing stays apart from every other unit
    (False: it may not)."""
    x0, y0, x1, y1 = _box(here)
    x0, x1 = x0 + min(0.0, dx), x1 + max(0.0, dx)
    y0, y1 = y0 + min(0.0, dy), y1 + max(0.0, dy)
    gap = _APART
    for other in _near(table, x0, y0, x1, y1, gap):
        if other.unit_id == here.unit_id:
            continue
        a0, b0, a1, b1 = _box(other)
        if a0 - x1 > gap or x0 - a1 > gap or b0 - y1 > gap or y0 - b1 > gap:
            continue
        if not _swept_apart(here, dx, dy, other, gap):
            return False
    return True


_INTO = 1e-6
"""How far (inches) the outline swept must overlap another unit on every axis of the
separating axis test to surely cross it (their insides meet: the route's ``units_crossed``
holds it); less, the table's route decides."""


def _sweeps_into_a_unit(table: Table, here: Footprint, dx: float, dy: float) -> bool:
    """The outline swept by (dx, dy) keeping its facing surely goes into another unit (they
    overlap by more than ``_INTO`` along every axis of ``_swept_apart``: those are the edge
    normals of both convex shapes, so their insides meet); False: it may not (issue 28: a
    unit in a dense line whose way is blocked by a friend is stopped by ``furthest``, its
    whole move's route, which would cross the friend, not asked first)."""
    x0, y0, x1, y1 = _box(here)
    x0, x1 = x0 + min(0.0, dx), x1 + max(0.0, dx)
    y0, y1 = y0 + min(0.0, dy), y1 + max(0.0, dy)
    for other in _near(table, x0, y0, x1, y1, 0.0):
        if other.unit_id != here.unit_id and not _swept_apart(here, dx, dy, other, -_INTO):
            return True
    return False


def _not_apart(table: Table, here: Footprint, dx: float, dy: float,
               gap: float) -> list[Footprint]:
    """The footprints (in the table's order) for which ``_swept_apart(here, dx, dy, f,
    gap)`` may be False: a superset. Each one left out is more than ``gap`` from the
    outline swept by (dx, dy) along one of ``here``'s own axes (its square's shadow on that
    axis is, and its corners lie in its square), which ``_swept_apart`` tests first: the
    units whose centres lie in the rectangle of ``here``'s frame holding the sweep, widened
    by ``gap`` and their half-diagonal, are those found (that rectangle's box, widened by
    the turn of the frame)."""
    corners = _corners(here)
    lows: list[float] = []
    highs: list[float] = []
    axes = _axes(here.facing)
    for ax, ay in axes:
        along = dx * ax + dy * ay
        p = [x * ax + y * ay for x, y in corners]
        lows.append(min(p) + min(0.0, along))
        highs.append(max(p) + max(0.0, along))
    (fx, fy), (rx, ry) = axes
    xs = [u * fx + v * rx for u in (lows[0], highs[0]) for v in (lows[1], highs[1])]
    ys = [u * fy + v * ry for u in (lows[0], highs[0]) for v in (lows[1], highs[1])]
    found = table.derived(spread)
    widen = gap * math.sqrt(2.0) + (math.sqrt(2.0) - 1.0) * found.widest
    fps = found.footprints
    return [fps[i] for i in found.near_rows(min(xs), min(ys), max(xs), max(ys), widen)]


def _line(here: Footprint, dx: float, dy: float) -> Region:
    """The line the centre moves along (a point when it does not move)."""
    if dx == 0 and dy == 0:
        return point(here.x, here.y)
    return segment((here.x, here.y), (here.x + dx, here.y + dy))


def _enters_ground(table: Table, here: Footprint, dx: float, dy: float) -> bool:
    """The centre's line goes into a feature or across a line (their insides meet): its
    route has more than one leg of open ground, or a passage."""
    ground = _ground(table)
    return ground is not None and ground.shares_ground(_line(here, dx, dy))


def _clear_of_enemies(table: Table, unit_id: str, end: Footprint, gap: float) -> bool:
    """Every enemy is more than ``gap`` from ``end`` (by their outlines; False: it may
    not be)."""
    side = table.footprint(unit_id).side
    return all(_swept_apart(end, 0.0, 0.0, e, gap + _APART)
               for e in _not_apart(table, end, 0.0, 0.0, gap + _APART)
               if side and e.side and e.side != side)


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


NEAREST = "will_awi: nearest enemy"
"""The store of the distance from a footprint to the nearest enemy (``_nearest_enemy``), by
table and footprint."""


def _nearest_enemy(table: Table, unit_id: str, at: Footprint | None = None) -> float | None:
    """The distance from the unit (or from ``at``, where it would stand) to the nearest
    enemy (None: no enemy on the table), kept in the battle's store (``NEAREST``)."""
    here = table.footprint(unit_id) if at is None else at
    return table.store(NEAREST, most=_MOST).ask(
        (table, here), functools.partial(_nearest_enemy_afresh, table, here))


def _nearest_enemy_afresh(table: Table, here: Footprint) -> float | None:
    found = table.derived(spread)
    rows = found.nearest_rows(here.side, here.x, here.y, _half_diagonal(here))
    if not rows:
        return None
    fps = found.footprints
    return float(gaps(here, [fps[i] for i in rows]).min())


def _nearest_enemies(table: Table, ends: Sequence[Footprint]) -> None:
    """``_nearest_enemy`` of each of ``ends`` worked out at once into the battle's store (the
    table's ``nearest_enemies``: an array bound and one distance call for them all; each the
    least of the very distances ``_nearest_enemy`` takes the least of)."""
    store = table.store(NEAREST, most=_MOST)
    asked = [e for e in dict.fromkeys(ends) if (table, e) not in store]
    for end, found in zip(asked, table_nearest_enemies(table, asked), strict=True):
        store.put((table, end), None if found is None else float(found[0]))


def destinations_on(table: Table, unit: Unit, allowance: float,
                    options: Options) -> tuple[Reach | Place, ...]:
    """``destinations`` worked out afresh on ``table``: each place as the Reach whose point
    it is (with its route, when one was asked), or as a place where the unit turns."""
    return tuple(found for way in WAYS
                 for found in destinations_way_on(table, unit, allowance, options, way))


def destinations_way_on(table: Table, unit: Unit, allowance: float, options: Options,
                        way: str) -> tuple[Reach | Place, ...]:
    """``destinations_toward`` worked out afresh on ``table`` (see ``destinations_on``)."""
    here = table.footprint(unit.id)
    found: list[Reach | Place] = []
    if way == AHEAD:
        ahead = _go(table, unit, options, 0.0, allowance, allowance)
        _add(found, here, ahead, 1.0)
        _add(found, here, ahead, 0.5)
    elif way == TOWARD:
        toward = _toward(table, here)
        if toward is not None:
            bearing, off = toward
            if abs(off) <= 45 and abs(off) > 1:
                toward_enemy = _go(table, unit, options, off, allowance, allowance)
                facing = round(normal_degrees(bearing) % 360.0, 3)
                faced = here.moved_to(*toward_enemy.point, facing)
                nearest = _nearest_enemy(table, unit.id, faced)
                if table.holds(faced) and (nearest is None or round(nearest, 6) >= 1.0):
                    toward_enemy = revised(toward_enemy, facing=facing)
                _add(found, here, toward_enemy, 1.0)
            elif abs(off) > 45:
                found.append((here.x, here.y, round(normal_degrees(bearing) % 360.0, 3)))
    elif way == BACK:
        back = allowance - retire_deduction(unit)
        if back > 0:
            _add(found, here, _go(table, unit, options, 180.0, back, allowance), 1.0)
    else:
        raise InvalidValueError("way", way, f"one of {', '.join(WAYS)}")
    return tuple(found)


@attrs.frozen
class Reach:
    """How far a move goes: the ``point`` its centre reaches, the ``distance`` gone, the
    table's ``route`` there when one was asked (None: read off the positions), and the
    ``facing`` it ends with (None: as it stood)."""

    point: Point
    distance: float
    route: Route | None
    facing: float | None = None


def _toward(table: Table, here: Footprint) -> tuple[float, float] | None:
    """The bearing of the nearest enemy's centre and how far it is off the unit's front
    (None: no enemy on the table)."""
    nearest = _nearest_footprint(table, here)
    if nearest is None:
        return None
    bearing = math.degrees(math.atan2(nearest.x - here.x, nearest.y - here.y))
    return bearing, normal_degrees(bearing - here.facing)


def _nearest_footprint(table: Table, here: Footprint) -> Footprint | None:
    """The enemy nearest the unit standing at ``here`` (its place on the table: by their
    outlines, the first of those as near; None: no enemy on the table), asked once per
    table and unit."""
    memo = table.derived(nearest_enemies)
    if here not in memo:
        memo[here] = _nearest_of(table, here)
    return memo[here]


def nearest_enemy(state: State, unit_id: str) -> str | None:
    """The enemy unit nearest the unit on the table, by their outlines (None: no enemy)."""
    table = table_of(state)
    found = _nearest_footprint(table, table.footprint(unit_id))
    return None if found is None else found.unit_id


def nearest_enemies(table: Table) -> dict[Footprint, Footprint | None]:
    """The enemy nearest each unit asked so far on this table (by where it stands)."""
    return {}


def _nearest_of(table: Table, here: Footprint) -> Footprint | None:
    found = table.derived(spread)
    rows = found.nearest_rows(here.side, here.x, here.y, _half_diagonal(here))
    if not rows:
        return None
    fps = found.footprints
    found_gaps = gaps(here, [fps[i] for i in rows])
    return fps[rows[int(found_gaps.argmin())]]


GOES = "will_awi: goes"
"""The store of how far units go one way (``_go``), by table, unit, mover's rates, heading,
allowance and full move: a listing of every mover asks ``furthest`` of them all at once
(``goes_ahead``)."""


def _go_key(table: Table, unit: Unit, heading: float, budget: float,
            allowance: float) -> tuple[object, ...]:
    return (table, unit.id, rate_table(unit), heading, budget, allowance)


def _go(table: Table, unit: Unit, options: Options, heading: float, budget: float,
        allowance: float) -> Reach:
    """How far the unit goes towards ``heading`` with ``budget``: the whole way when the
    straight route is open ground the move pays for and ends clear of the enemy (one route
    asked, unless its sweep surely goes into another unit: ``_sweeps_into_a_unit``), else as
    far as ``furthest`` finds (``_go_read``). Kept in the battle's store (``GOES``)."""
    rates = rate_table(unit, options)
    return table.store(GOES, most=_MOST).ask(
        _go_key(table, unit, heading, budget, allowance),
        functools.partial(_go_afresh, table, unit, rates, heading, budget, allowance))


def _go_afresh(table: Table, unit: Unit, rates: RateTable, heading: float, budget: float,
               allowance: float) -> Reach:
    read = _go_read(table, unit, rates, heading, budget)
    if read is not None:
        return read
    where = furthest(table, unit.id, heading, budget, rates, full_move=allowance,
                     clearance=1.0)
    return Reach(where.point, where.distance, where.route)


def _go_read(table: Table, unit: Unit, rates: RateTable, heading: float,
             budget: float) -> Reach | None:
    """``_go`` where the positions tell it without ``furthest`` (None: ask it)."""
    here = table.footprint(unit.id)
    (dx, dy), _ = bearing_vectors(here.facing + heading)
    point = (here.x + dx * budget, here.y + dy * budget)
    end = here.moved_to(*point)
    if table.holds(end):
        if _surely_blocked(table, here, dx, dy, budget, rates):
            return None
        if (open_move(table, here, dx * budget, dy * budget)
                and _clear_of_enemies(table, unit.id, end, 1.0)):
            return Reach(point, budget, None)
        steady = steady_go(table, here, dx, dy, budget, rates)
        if steady is not None:
            return steady
        if not _sweeps_into_a_unit(table, here, dx * budget, dy * budget):
            nearest = _nearest_enemy(table, unit.id, end)
            if (nearest is None or nearest >= 1.0) and not _enters_ground(
                    table, here, dx * budget, dy * budget):
                path = _route(table, unit.id, point)
                if (not path.legs[1:] and not path.legs[0].kinds and not path.passages
                        and not path.units_crossed):
                    return Reach(point, budget, path)
    else:
        limit = _edge_limit(table, here, dx, dy)
        if limit < budget and _open_to(table, here, dx * limit, dy * limit):
            return Reach((here.x + dx * limit, here.y + dy * limit), limit, None)
        steady = steady_go(table, here, dx, dy, budget, rates)
        if steady is not None:
            return steady
    return None


def _surely_blocked(table: Table, here: Footprint, dx: float, dy: float, budget: float,
                    rates: RateTable) -> bool:
    """The move of ``budget`` along (dx, dy) surely goes into a friend (``_sweeps_into_a_unit``
    for friends) from ground the unit crosses at full speed or faster: no move read off the
    positions can be had (``open_move`` finds the friend in the sweep; ``steady_go``'s sweep,
    as long or longer, finds it too), so ``_go_read`` asks ``furthest`` without trying them
    (a unit in a dense line behind another)."""
    speed = rates.speed(_ground_at(table, here.x, here.y))
    if speed is None or speed < 1:
        return False
    ex, ey = dx * budget, dy * budget
    x0, y0, x1, y1 = _box(here)
    x0, x1 = x0 + min(0.0, ex), x1 + max(0.0, ex)
    y0, y1 = y0 + min(0.0, ey), y1 + max(0.0, ey)
    side = here.side
    for other in _near(table, x0, y0, x1, y1, 0.0):
        if other.unit_id == here.unit_id or (side and other.side and other.side != side):
            continue
        if not _swept_apart(here, ex, ey, other, -_INTO):
            return True
    return False


def _headings(table: Table, unit: Unit, allowance: float, way: str
              ) -> tuple[tuple[float, float], ...]:
    """The (heading, budget) each of the unit's ways asks ``_go`` (``destinations_way_on``)."""
    if way == AHEAD:
        return ((0.0, allowance),)
    if way == TOWARD:
        toward = _toward(table, table.footprint(unit.id))
        if toward is not None and 1 < abs(toward[1]) <= 45:
            return ((toward[1], allowance),)
        return ()
    back = allowance - retire_deduction(unit)
    return ((180.0, back),) if back > 0 else ()


def worked_out(state: State, unit: Unit, allowance: float) -> bool:
    """Whether the unit's way ahead with this allowance is in the battle's store for this
    table (``_go``)."""
    table = table_of(state)
    return _go_key(table, unit, 0.0, allowance, allowance) in table.store(GOES, most=_MOST)


def goes_ahead(state: State, movers: Sequence[tuple[Unit, float]]) -> None:
    """Every way of each of ``movers`` (a unit and its allowance) worked out at once into the
    battle's store (``GOES``): those the positions tell one by one, the others in one
    ``furthest_many`` (issue 28: a listing of every move at 500 units a side asks
    ``furthest`` some 540 times). What ``_go`` then finds is what it would work out."""
    table = table_of(state)
    store = table.store(GOES, most=_MOST)
    asked: dict[tuple[object, ...], Way] = {}
    for unit, allowance in movers:
        rates = rate_table(unit)
        for way in WAYS:
            for heading, budget in _headings(table, unit, allowance, way):
                key = _go_key(table, unit, heading, budget, allowance)
                if key in store or key in asked:
                    continue
                read = _go_read(table, unit, rates, heading, budget)
                if read is not None:
                    store.put(key, read)
                else:
                    asked[key] = Way(unit.id, heading, budget, rates, full_move=allowance,
                                     clearance=1.0)
    if asked:
        found = furthest_many(table, list(asked.values()))
        for key, where in zip(asked, found, strict=True):
            store.put(key, Reach(where.point, where.distance, where.route))
    options = state.options
    ends = []
    routed = []
    for unit, allowance in movers:
        here = table.footprint(unit.id)
        for way in WAYS:
            for item in destinations_way_on(table, unit, allowance, options, way):
                x, y, facing = _place(here, item)
                ends.append(here.moved_to(x, y, facing))
                if isinstance(item, Reach) and item.route is not None:
                    end = item.route.end
                    routed.append(end.moved_to(end.x, end.y, facing))
    _nearest_enemies(table, ends)
    _stand_on_many(table, routed)


def steady_go(table: Table, here: Footprint, dx: float, dy: float, budget: float,
              rates: RateTable) -> Reach | None:
    """The move of ``budget`` along (dx, dy) when all of it is over the one ground the
    unit's centre stands on (no edge of an area, no line crossed), nothing it cannot enter
    and no other unit in its way (friends apart, enemies more than 1" off) and the table edge
    beyond: the allowance times that ground's speed, as ``furthest`` walks it (None: this
    cannot tell, ask ``furthest``). A unit whose centre stands inside ground it cannot move
    in goes nowhere (``furthest`` stops it where it starts)."""
    speed = rates.speed(_ground_at(table, here.x, here.y))
    edges = _edges(table)
    if speed is None:
        if edges is not None and edges.within(_line(here, 0.0, 0.0), _BEYOND):
            return None
        return Reach(here.centre, 0.0, None)
    go = budget * float(speed)
    reach = go + _BEYOND
    if _edge_limit(table, here, dx, dy) <= reach:
        return None
    ex, ey = dx * reach, dy * reach
    if edges is not None and edges.within(_line(here, ex, ey), _BEYOND):
        return None
    side = here.side
    x0, y0, x1, y1 = _box(here)
    x0, x1 = x0 + min(0.0, ex), x1 + max(0.0, ex)
    y0, y1 = y0 + min(0.0, ey), y1 + max(0.0, ey)
    for other in _near(table, x0, y0, x1, y1, 1.0 + _APART):
        if other.unit_id == here.unit_id:
            continue
        enemy = bool(side and other.side and other.side != side)
        gap = 1.0 + _APART if enemy else _APART
        a0, b0, a1, b1 = _box(other)
        if a0 - x1 > gap or x0 - a1 > gap or b0 - y1 > gap or y0 - b1 > gap:
            continue
        if not _swept_apart(here, ex, ey, other, gap) and not (
                enemy and _kept_off_already(here, other)):
            return None
    blocking = [f for f, (a0, b0, a1, b1) in zip(table.terrain.area_features,
                                                 _area_boxes(table), strict=True)
                if rates.rate(f.kind) is None
                and not (a0 - x1 > _BEYOND or x0 - a1 > _BEYOND
                         or b0 - y1 > _BEYOND or y0 - b1 > _BEYOND)]
    if blocking:
        start = _corners(here)
        swept = polygon(_hull([*start, *((x + ex, y + ey) for x, y in start)]))
        if any(swept.within(f, _BEYOND) for f in blocking):
            return None
    return Reach((here.x + dx * go, here.y + dy * go), go, None)


_ALREADY = 0.5
"""An enemy nearer than this to the unit where it starts is within the 1" kept off however
closely the table draws that inch round it (the unit moves away from it: ``furthest``
does not stop it for that enemy)."""


def _kept_off_already(here: Footprint, enemy: Footprint) -> bool:
    """The enemy is well within 1" of the unit where it starts."""
    return region_of(here).distance(enemy) < _ALREADY


def _edges_of(table: Table) -> Region | None:
    """The edges of every area and every line a move crosses, as one region (None: bare
    table): where a centre's route changes ground or has a passage (the table's
    ``edges_of_ground``)."""
    found = edges_of_ground(table)
    return None if found.is_empty else found


def _area_boxes_of(features: tuple[Feature, ...]) -> tuple[tuple[float, float, float, float],
                                                         ...]:
    """The bounds of each area feature's ground (in ``TerrainIndex.area_features`` order)."""
    return tuple(tuple(map(float, f.area.bounds))  # type: ignore[misc]
                 for f in terrain_index(features).area_features)


def _edge_limit(table: Table, here: Footprint, dx: float, dy: float) -> float:
    """How far the footprint goes along (dx, dy) staying on the table (as ``furthest``
    measures it)."""
    x0, y0, x1, y1 = here.bounds
    limits = [math.inf]
    if dx > 1e-9:
        limits.append((table.width - x1) / dx)
    elif dx < -1e-9:
        limits.append(-x0 / dx)
    if dy > 1e-9:
        limits.append((table.depth - y1) / dy)
    elif dy < -1e-9:
        limits.append(-y0 / dy)
    return max(0.0, min(limits))


def _open_to(table: Table, here: Footprint, dx: float, dy: float) -> bool:
    """The move by (dx, dy) is open (``open_move``) and passes more than 1" from every
    enemy: ``furthest`` would find nothing in its way before it."""
    if not open_move(table, here, dx, dy, swept_ground=True):
        return False
    side = here.side
    return all(_swept_apart(here, dx, dy, e, 1.0 + _APART)
               for e in _not_apart(table, here, dx, dy, 1.0 + _APART)
               if side and e.side and e.side != side)


def _place(here: Footprint, found: Reach | Place) -> Place:
    if isinstance(found, Reach):
        return (*found.point, here.facing if found.facing is None else found.facing)
    return found


def _add(found: list[Reach | Place], here: Footprint, where: Reach, share: float) -> None:
    go = where.distance * share
    if go < 0.5:
        return
    item: Reach | Place
    if share == 1.0:
        item = where
    else:
        dx, dy = where.point[0] - here.x, where.point[1] - here.y
        item = (here.x + dx * share, here.y + dy * share, here.facing)
    point = _place(here, item)
    if point not in [_place(here, f) for f in found]:
        found.append(item)


AHEAD, TOWARD, BACK = "ahead", "toward", "back"

WAYS: Mapping[str, int] = MappingProxyType({AHEAD: 2, TOWARD: 1, BACK: 1})
"""The ways ``destinations`` go, with the most places each offers: straight ahead (the full
and half allowance), towards the nearest enemy (or turning to face it where it stands) and
straight back. No two ways reach the same place (each at least 1/2" on its own heading, or
turning where the unit stands), so each way's places are one ``Deferred`` group of moves."""

DESTINATIONS = sum(WAYS.values())
"""The most places ``destinations`` offers a unit."""


def destinations(state: State, unit: Unit, allowance: float) -> tuple[Place, ...]:
    """A few places the unit can reach by the rules: straight ahead at the full and half
    allowance, towards the nearest enemy (when within 45 degrees of its front) stopping short
    of 1" from it and turning to face it (so that it may charge), or turning to face it
    where it stands (more than 45 degrees: the whole move), and straight back (retiring,
    less the deduction), each stopped by the ground, the table edge and other units: the
    places of every way (``destinations_toward``)."""
    return tuple(place for way in WAYS
                 for place in destinations_toward(state, unit, allowance, way))


def destinations_toward(state: State, unit: Unit, allowance: float,
                        way: str) -> tuple[Place, ...]:
    """The unit's ``destinations`` one way (of ``WAYS``); the routes found on the way are
    kept for the moves' plans (``known_routes``)."""
    if way not in WAYS:
        raise InvalidValueError("way", way, f"one of {', '.join(WAYS)}")
    table = table_of(state)
    here = table.footprint(unit.id)
    found = destinations_way_on(table, unit, allowance, state.options, way)
    memo = table.derived(known_routes)
    places = []
    for item in found:
        if isinstance(item, Reach) and item.route is not None:
            memo.setdefault((unit.id, item.point), item.route)
        places.append(_place(here, item))
    return tuple(places)


# --- routs and retirements -------------------------------------------------------------------
@attrs.frozen
class RoutSituation:
    """A rout as the table finds it: where the unit ends (None: no way that takes it
    further from every visible enemy, it cannot move), whether it leaves the table, whether
    an enemy is within 6", and the unit it stopped short of, not to end on it ("" if
    none; table T21)."""

    end: Footprint | None
    leaves_table: bool
    enemy_within_6: bool
    stopped_by: str = ""


def rout_facts(state: State, unit: Unit, distance: float) -> RoutSituation:
    """Rules - Charging: Rout: directly away at rout speed, ending further from every visible
    enemy; a unit with no such way cannot move; one that runs off the table leaves it by its
    side's edge; one that would end on another unit stops short of it (table T21). Worked
    out once per table, unit and distance (the check and the handler both ask)."""
    table = table_of(state)
    memo = table.derived(known_routs)
    key = (unit.id, distance)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _rout_facts(table, unit.id, distance)
    return known


def known_routs(table: Table) -> dict[tuple[str, float], RoutSituation]:
    """The routs already worked out on this table, by (unit id, distance)."""
    return {}


def _rout_facts(table: Table, unit_id: str, distance: float) -> RoutSituation:
    found = rout(table, unit_id, distance, rules=SIGHT)
    nearest = _nearest_enemy(table, unit_id)
    near = nearest is not None and nearest <= 6
    if found is None:
        return RoutSituation(None, False, near)
    if found.leaves_table:
        return RoutSituation(None, True, near)
    end, landed = short_of_units(table, table.footprint(unit_id), found.end)
    return RoutSituation(end, False, near, landed)


@attrs.frozen
class Retirement:
    """A retirement as the table finds it: where the unit ends, how far it went and what
    stopped it short ("" when it went the whole distance; "table edge", or the id of the
    unit it would strike)."""

    end: Footprint
    distance: float
    stopped_by: str


def retirement(state: State, unit: Unit, distance: float, about_face: bool) -> Retirement:
    """A retirement straight back (turned about first when it turns to retire) as far as
    ``distance`` goes before the table edge or another unit, over open ground: the one way
    back of a shaken unit's retirement and of a melee's (W31, W49). A unit it touches and
    moves off (away from it or along its face: the enemy it fought, a neighbour in line)
    does not stop it; one it would move into stops it where it stands."""
    table = table_of(state)
    here = table.footprint(unit.id)
    if about_face:
        table = table.placed(here.turned(180.0))
        here = table.footprint(unit.id)
    heading = 0.0 if about_face else 180.0
    if distance <= 0:
        return Retirement(here, 0.0, "")
    where = furthest(table, unit.id, heading, distance, RateTable())
    if where.distance <= 1e-9 and where.stopped_by in table.units:
        slide = _along_face(table, here, heading, where.stopped_by)
        if slide is not None:
            where = furthest(table, unit.id, slide, distance, RateTable())
    end = here.moved_to(*where.point)
    gone = min(float(where.distance), distance)
    stopped = "" if where.stopped_by == "allowance" or gone >= distance - 1e-9 else (
        where.stopped_by)
    return Retirement(end, gone, stopped)


SLIDE_DEGREES = 5.0
"""How far off a face of a unit it touches a retirement straight back may run and still slide
along that face (W26a): a unit struck in the flank at 89.9 degrees goes back along its
charger's front, as a referee squares it, instead of reading the hair's turn as a move into
the charger."""


def _along_face(table: Table, here: Footprint, heading: float, other_id: str) -> float | None:
    """The heading (off ``here``'s facing) along the face of ``other_id`` (which ``here``
    touches) nearest to ``heading``, when it is no more than ``SLIDE_DEGREES`` off it; None
    otherwise (the retirement runs into the unit, as one charged in the rear does)."""
    other = table.footprint(other_id)
    bearing = here.facing + heading
    for quarter in range(4):
        off = normal_degrees(other.facing + 90.0 * quarter - bearing)
        if 0.0 < abs(off) <= SLIDE_DEGREES:
            return heading + off
    return None


def onto(state: State, unit: Unit, point: Point) -> Retirement:
    """A charger taking its target's original position (Rules - Charging; Move Sequence I):
    straight ahead keeping its facing until its centre is level with ``point`` (the target's
    centre when charged), over open ground as its charge move went, stopped short by the
    table edge or another unit (``Retirement``'s fields: where it ends, how far it went, what
    stopped it)."""
    table = table_of(state)
    here = table.footprint(unit.id)
    (dx, dy), _ = bearing_vectors(here.facing)
    ahead = (point[0] - here.x) * dx + (point[1] - here.y) * dy
    if ahead <= 1e-9:
        return Retirement(here, 0.0, "")
    where = furthest(table, unit.id, 0.0, ahead, RateTable())
    gone = min(float(where.distance), ahead)
    stopped = "" if where.stopped_by == "allowance" or gone >= ahead - 1e-9 else (
        where.stopped_by)
    return Retirement(here.moved_to(*where.point), gone, stopped)


def relaid_clash(state: State, after: Unit) -> str:
    """What a formation change or limbering would strike on a table (Move Sequence C: moves
    end "not within 1" of any enemy unit"; W49): the new footprint laid out about the same
    centre (``positions.relaid``) overlapping another unit, friend or foe, or ending within
    1" of an enemy (nearest points); "" when clear. Kept per table and unit as it would be
    (``relaid_clashes``): every step of C asks it of every mover."""
    table = table_of(state)
    memo = table.derived(relaid_clashes)
    clash = memo.get(after)
    if clash is None:
        clash = memo[after] = _relaid_clash(table, after)
    return clash


def relaid_clashes(table: Table) -> dict[Unit, str]:
    """What a reformed unit would strike, asked so far on this table, by the unit as it
    would be (``relaid_clash``)."""
    return {}


def _relaid_clash(table: Table, after: Unit) -> str:
    new = relaid(table, after)
    side = new.side  # its enemies: the units of another side (``Table.enemies_of``)
    new_ground = region_of(new)
    for other in footprints_near(table, new.bounds, 1.0):  # table order; boxes 1" apart or less
        if other.unit_id == after.id:
            continue
        if new_ground.shares_ground(other):
            return f"its new footprint would overlap {other.label or other.unit_id}"
        enemy = bool(side and other.side and other.side != side)
        if enemy and new_ground.distance(other) < 1 - 1e-9:
            return f'its new footprint would end within 1" of {other.label or other.unit_id}'
    return ""


# --- facing changes --------------------------------------------------------------------------
def facing_facts(state: State, unit_id: str,
                 degrees: float) -> tuple[tuple[tuple[str, float], ...], bool]:
    """What a facing change in D needs (Rules - Movement: Changing Facing; FAQs (5) 1): the
    enemies in the unit's arc with their distance (those within ``CHARGE_REACH``, the
    longest charge reach: the check reads only those within their own), and whether the
    turn about its centre
    would strike another unit or an obstacle, or take it over the table edge."""
    table = table_of(state)
    enemies = tuple((s.target, round(s.distance, 6))
                    for s in sightings_of(table, unit_id, CHARGE_REACH).values()
                    if s.in_arc and s.distance <= CHARGE_REACH)
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
    found: dict[str, list[str]] = {f.unit_id: [] for f in layout.footprints}
    ids = [f.unit_id for f in layout.footprints]
    if ids:
        circles = [point(float(x), float(y)).buffered(float(r))
                   for (x, y), r in zip(layout.centre.tolist(), layout.radius.tolist(),
                                        strict=True)]
        units = regions_of(layout.footprints, outlines=True)  # as the layout's tree
        for i, disc in enumerate(circles):
            for j in units.near(disc):
                if i != j:
                    found[ids[i]].append(ids[j])
        discs = regions_of(circles)
        for feature in table.features:
            if feature.kind in _SOLID:
                hit = discs.intersects(feature)
                for i in np.flatnonzero(hit).tolist():
                    found[ids[i]].append(feature.feature_id)
    return MappingProxyType({k: tuple(sorted(v)) for k, v in found.items()})


def facing_to_nearest(state: State, unit_id: str) -> float | None:
    """The turn (whole degrees, clockwise) that faces the unit towards the nearest enemy it
    sees (line of sight clear) within ``SIGHT_REACH`` when none it sees there is in its
    arc; None otherwise (interpretation W55). Its few nearest enemies are asked first
    (``_nearest_sightings``): one of them seen in its arc is the answer None without asking
    the table of the others (issue 28)."""
    table = table_of(state)
    if (unit_id, SIGHT_REACH) not in table.derived(unit_sightings) and any(
            s.line_clear and s.distance <= SIGHT_REACH and s.in_arc
            for s in _nearest_sightings(table, unit_id)):
        return None
    visible = [s for s in sightings_of(table, unit_id).values()
               if s.line_clear and s.distance <= SIGHT_REACH]
    if not visible or any(s.in_arc for s in visible):
        return None
    nearest = min(visible, key=lambda s: s.distance)
    here, there = table.footprint(unit_id), table.footprint(nearest.target)
    bearing = math.degrees(math.atan2(there.x - here.x, there.y - here.y))
    return float(round(normal_degrees(bearing - here.facing)))


_FIRST_ASKED = 6
"""How many of a unit's nearest enemies ``facing_to_nearest`` asks of the table first: an
enemy it sees in its arc among them settles the answer (no turn) without the rest (at 500
units a side, 461 of 500 units see one among their 5 nearest; each has about 90 enemies within
``SIGHT_REACH``)."""


def _nearest_sightings(table: Table, unit_id: str) -> tuple[Sighting, ...]:
    """What the unit sees of the ``_FIRST_ASKED`` enemies of ``sightings_of`` nearest it
    (by their centres): the table's answers to those pairs, the same as among all of them
    (none for a unit not on the table). Kept per table and unit; once ``_BATCHED`` units of
    a side have asked on a table (a phase listing every unit's facing change), the rest of
    the side's are asked with the next in one call, as ``sightings_of`` does."""
    here = table.units.get(unit_id)
    if here is None:
        return ()
    memo = table.derived(first_sightings)
    known = memo.get(unit_id)
    if known is not None:
        return known
    side = here.side
    asked = [unit_id]
    if side and sum(1 for u in memo if table.units[u].side == side) >= _BATCHED:
        asked += [f.unit_id for f in table.footprints
                  if f.side == side and f.unit_id not in memo and f.unit_id != unit_id]
    pairs = []
    for unit in asked:
        at = table.units[unit]
        enemies = sorted(_sighted(table, unit, SIGHT_REACH),
                         key=lambda f: math.hypot(f.x - at.x, f.y - at.y))
        pairs += [(unit, f.unit_id) for f in enemies[:_FIRST_ASKED]]
    answers: dict[str, list[Sighting]] = {unit: [] for unit in asked}
    for s in sightings(table, pairs, rules=SIGHT):
        answers[s.firer].append(s)
    for unit in asked:
        memo[unit] = tuple(answers[unit])
    return memo[unit_id]


def first_sightings(table: Table) -> dict[str, tuple[Sighting, ...]]:
    """What each unit asked so far on this table sees of its nearest few enemies
    (``_nearest_sightings``)."""
    return {}


def bombard_facts(state: State, firer: str, work_id: str, action: object = None) -> FireFacts:
    """A gun's fire at a work as the table measures it (Fortifications: Defence Values): the
    range between nearest points of the gun and the work's ground, the angle of that
    nearest point off the gun's front (from the middle of its front edge), and higher
    ground when the two stand at different levels; the work is taken as seen (an
    IllegalActionError when the work is not on the table)."""
    table = table_of(state)
    memo = table.derived(known_bombardments)
    found = memo.get((firer, work_id))
    if found is None:
        feature = table.terrain.by_id.get(work_id)
        here = table.units.get(firer)
        if feature is None or here is None:
            raise illegal(action, "the work and the gun must be on the table",
                          rules.FORT_VALUES)
        found = memo[(firer, work_id)] = _bombard_facts(table, feature, here)
    return found


def known_bombardments(table: Table) -> dict[tuple[str, str], FireFacts]:
    """The facts of each gun's fire at a work asked so far on this table, by (gun, work):
    the check and the handler ask the same."""
    return {}


def _bombard_facts(table: Table, feature: Feature, here: Footprint) -> FireFacts:
    ground = region_of(feature)
    (nx, ny), _ = ground.nearest(here)
    gap = ground.distance(here)
    fx, fy = here.front_centre
    (ax, ay), (rx, ry) = bearing_vectors(here.facing)
    dx, dy = nx - fx, ny - fy
    angle = 0.0 if math.hypot(dx, dy) < 1e-9 else math.degrees(
        math.atan2(dx * rx + dy * ry, dx * ax + dy * ay))
    rise = table.level_at(nx, ny) - table.level_at(here.x, here.y)
    return FireFacts(range_inches=round(gap, 6), angle=round(max(-180.0, min(180.0, angle)), 6),
                     higher_ground=rise != 0)


CHAIN = 18.0
"""A general killed or captured shakes the steady units of his chain of command within 18"
(Rules - Firing: Risk to Generals)."""


def chain_within(state: State, unit_id: str) -> frozenset[str]:
    """The units on the table within 18" of a general riding with ``unit_id``: his point is
    that unit's centre, measured to the nearest point of each unit's bases (none when the
    unit is not on the table)."""
    table = table_of(state)
    here = table.units.get(unit_id)
    if here is None or not table.footprints:
        return frozenset()
    found = gaps((here.x, here.y), table.footprints)
    return frozenset(f.unit_id for f, gap in zip(table.footprints, found.tolist(), strict=True)
                     if round(gap, 6) <= CHAIN)


ENGAGED = 0.05
"""How near two units stand to be in contact in a melee on a table: the 0.05" at which a
charge is "already in contact" (``steps_charges.IN_CONTACT``)."""


@attrs.frozen
class MeleeContacts:
    """Who fights a melee on a table and how (Rules - Melee; W25): ``also_defending``, a
    second unit of the charged side in contact with a lone attacker (or none), and
    ``fronts``, the fighters engaged to an enemy's front (touching the front face of an
    enemy fighter)."""

    also_defending: tuple[str, ...]
    fronts: frozenset[str]


def melee_contacts(state: State, target: str, attackers: tuple[str, ...],
                   candidates: tuple[str, ...]) -> MeleeContacts:
    """The table's answer for the melee around ``target`` charged by ``attackers``: with a
    lone attacker, the first of ``candidates`` (the units of the charged side that may
    fight: standing, not routing, with no melee of their own) touching it, one touching its
    front before one touching another face (W25: one attacker against at most two
    defenders); then each fighter that touches the front face of a fighter of the other
    side (Rules - Melee: "that unit engaged to the enemies front")."""
    table = table_of(state)
    units = table.units
    helpers: tuple[str, ...] = ()
    if len(attackers) == 1 and attackers[0] in units:
        (lone,) = attackers
        touching = [c for c in candidates if c in units and c != target
                    and in_contact(table, lone, c, ENGAGED)]
        helpers = tuple(sorted(touching, key=lambda c: (
            TableFace.FRONT not in touching_faces(table, lone, c, ENGAGED), c))[:1])
    defenders = (target, *helpers)
    fronts = {a for a in attackers if _at_front(table, a, defenders)}
    fronts |= {d for d in defenders if _at_front(table, d, attackers)}
    return MeleeContacts(helpers, frozenset(fronts))


def _at_front(table: Table, unit_id: str, enemies: tuple[str, ...]) -> bool:
    """Whether ``unit_id`` touches the front face of one of ``enemies`` on the table."""
    if unit_id not in table.units:
        return False
    return any(e in table.units and in_contact(table, e, unit_id, ENGAGED)
               and TableFace.FRONT in touching_faces(table, e, unit_id, ENGAGED)
               for e in enemies)


AT_WORK = 1.0
"""How near a work a unit must stand to build, dismantle or mine it on a table: the text is
silent; within 1" of its ground (nearest points), as near as moves may end to an enemy."""


WITH_WAGON = 1.0
"""How near its wagon a unit must stand to use its tools or charges on a table: the text
("1 wagon can hold enough tools for 1 close order infantry unit", "1 wagon can hold 6
charges") is silent; within 1" (nearest points), as near as it stands to the work."""


def units_within(state: State, unit_id: str, others: tuple[str, ...],
                 reach: float) -> tuple[str, ...]:
    """Those of ``others`` whose bases come within ``reach`` of the unit's (nearest points),
    on the table."""
    table = table_of(state)
    here = table.units.get(unit_id)
    if here is None:
        return ()
    ground = region_of(here)
    return tuple(o for o in others if o in table.units
                 and ground.distance(table.units[o]) <= reach + 1e-9)


def work_gap(state: State, unit_id: str, work_id: str, at: Place | None = None) -> float | None:
    """The distance between the unit's bases and the work's ground on the table (None: the
    work or the unit is not on the table); ``at``: with the unit's centre and facing there
    (where a move would put it)."""
    table = table_of(state)
    feature = table.terrain.by_id.get(work_id)
    here = table.units.get(unit_id)
    if feature is None or here is None:
        return None
    if at is not None:
        here = here.moved_to(*at)
    return round(region_of(feature).distance(here), 6)


def blast_within(state: State, work_id: str, radius: float) -> frozenset[str]:
    """The units on the table within ``radius`` of the work (Fortifications: Demolition),
    measured between nearest points from the work's ground on the table; none when the work
    is not on the table."""
    table = table_of(state)
    feature = table.terrain.by_id.get(work_id)
    if feature is None or not table.footprints:
        return frozenset()
    found = gaps(feature, table.footprints)
    return frozenset(f.unit_id for f, gap in zip(table.footprints, found.tolist(), strict=True)
                     if round(gap, 6) <= radius)


SPREAD = 12.0
"""A Highland charge spreads to highlanders within 12" of it ('45)."""

MUSKET_RANGE = float(max(r for r in RANGES[Weapon.MUSKET] if r is not None))
"""Musket range (Rules - Firing: 6"), as the Highland charge test's "in musket range"."""


@attrs.frozen
class SpreadSituation:
    """A highland unit's place as a Highland charge spreads ('45): ``near_charge``, a unit of
    its side in a Highland charge within 12" (nearest points), and ``in_musket_range``, an
    enemy within musket range."""

    near_charge: bool
    in_musket_range: bool


def spread_facts(state: State, unit: Unit) -> SpreadSituation:
    """How near the unit stands to its side's Highland charges and to the enemy."""
    table = table_of(state)
    units = table.units
    here = units.get(unit.id)
    if here is None:
        return SpreadSituation(False, False)
    charging = [units[u.id] for u in state.units_of(unit.side)
                if u.highland_charge and u.id != unit.id and u.id in units]
    near = bool(charging) and round(float(gaps(here, charging).min()), 6) <= SPREAD
    nearest = _nearest_enemy(table, unit.id)
    return SpreadSituation(near, nearest is not None and round(nearest, 6) <= MUSKET_RANGE)


def rush_end(state: State, unit: Unit, distance: float) -> Retirement | None:
    """Where a Highland charge of ``distance`` ends ('45): the unit turns to the nearest
    enemy and goes straight at it until it touches it, the ground stops it or the distance
    is spent (None: no enemy on the table); with how far it went and what stopped it short
    (``Retirement``'s fields: "" when it went the whole distance)."""
    table = table_of(state)
    enemies = table.enemies_of(unit.id)
    if not enemies:
        return None
    layout = table.layout
    here = table.footprint(unit.id)
    found = gaps(here, [layout.footprints[r] for r in layout.rows(enemies).tolist()])
    nearest = table.footprint(enemies[int(found.argmin())])
    bearing = math.degrees(math.atan2(nearest.x - here.x, nearest.y - here.y))
    turned = here.moved_to(here.x, here.y, round(normal_degrees(bearing) % 360.0, 3))
    if not table.holds(turned):
        turned = here
    facing_enemy = table.placed(turned)
    where = furthest(facing_enemy, unit.id, 0.0, distance, rate_table(unit, state.options),
                     full_move=distance)
    gone = min(float(where.distance), distance)
    stopped = "" if where.stopped_by == "allowance" or gone >= distance - 1e-9 else (
        where.stopped_by)
    return Retirement(turned.moved_to(*where.point), gone, stopped)


def commander_sees(table: Table, general_id: str, unit_id: str) -> bool:
    """Whether a commander sees a unit of his (Command & Control: "-2 if out of sight of the
    commander"), as units see on this table (``SIGHT``, W49): the line from his point (the
    centre of the unit he rides with, or where he stands alone) to the nearest point of the
    unit's bases crosses no building that neither end stands in, no hill higher than both
    ends and no other unit (the one he rides with does not hide anything from him). A unit
    he rides with is in sight."""
    mark = table.commander(general_id)
    if mark.attached_to == unit_id:
        return True
    here = table.commander_point(general_id)
    target = table.footprint(unit_id)
    line = segment(*point(*here).nearest(target))
    blockers = table.terrain.blockers(SIGHT.blocking, SIGHT.hills_block)
    if len(blockers.features):
        top = max(table.level_at(*here), table.level_at(target.x, target.y))
        crossed = Regions(blockers.inner).intersects(line).tolist()
        for k, hit in enumerate(crossed):
            if not hit or (blockers.hill[k] and blockers.hills_by_level
                           and blockers.levels[k] <= top):
                continue
            area = Region(blockers.geoms[k])
            if not (area.contains(*here, edge=True)
                    or area.contains(target.x, target.y, edge=True)):
                return False
    if not SIGHT.units_block:
        return True
    layout = table.layout
    rows = np.fromiter((r for r, f in enumerate(layout.footprints)
                        if f.unit_id not in (unit_id, mark.attached_to)), np.intp)
    return not bool(np.any(Regions(layout.inner_of(rows)).intersects(line)))


def ride(state: State, general_id: str, unit_id: str) -> float | None:
    """How far the general rides on the table to join the unit: from his point (the centre
    of the unit he is with, or where he stands alone) to the unit's centre; 0 to ride alone
    (he stays where he is). None when the table does not measure it: no table, no mark for
    him, or the unit is not on the table."""
    table = state.extra.table
    if table is None or general_id not in table.derived(marked):
        return None
    if not unit_id:
        return 0.0
    found = table.units.get(unit_id)
    if found is None:
        return None
    x, y = table.derived(commander_points)[general_id]
    return round(math.hypot(found.x - x, found.y - y), 6)  # as ``Table.ride`` measures it


def commander_points(table: Table) -> Mapping[str, Point]:
    """Where each commander with a mark on the table is (``Table.commander_point``: his own
    point, or the centre of the unit he rides with), by id: read once per table, not by a
    walk over the marks for every ride."""
    units = table.units
    return MappingProxyType({
        m.commander_id: (m.x, m.y) if m.attached_to is None else units[m.attached_to].centre
        for m in table.commanders})


def units_within_ride(state: State, general_id: str, limit: float) -> tuple[str, ...] | None:
    """The units on the table the general rides to within ``limit`` (``ride`` measures each
    no more than it), in the table's order, found among those whose squares come within it
    of his point (``Spread``); None when the table does not measure his rides
    (``measures_ride``)."""
    table = state.extra.table
    if table is None or general_id not in table.derived(marked):
        return None
    x, y = table.derived(commander_points)[general_id]
    found = table.derived(spread)
    fps = found.footprints
    return tuple(f.unit_id for f in (
        fps[i] for i in found.near_rows(x - limit, y - limit, x + limit, y + limit, 0.0))
        if round(math.hypot(f.x - x, f.y - y), 6) <= limit)  # as ``ride`` measures it


def measures_ride(state: State, general_id: str) -> bool:
    """Whether the table measures this general's rides (a table with his mark on it)."""
    table = state.extra.table
    return table is not None and general_id in table.derived(marked)


def marked(table: Table) -> frozenset[str]:
    """The ids of the commanders with a mark on the table."""
    return frozenset(m.commander_id for m in table.commanders)


CINC_NEAR = 6.0
"""The optional +1 when the C in C is within 6" of the commander (Command and Control)."""


def order_facts(state: State, general_id: str, unit_id: str, *,
                group: bool = False) -> OrderFacts | None:
    """What the table measures for one order (Command and Control): the distance from the
    commander's point to the nearest point of the unit's bases, whether he rides with it,
    whether he sees it (``commander_sees``) and whether an active C in C of his side stands
    within 6" of him (point to point). None when the table does not measure it: no table,
    no mark for him, or the unit is not on the table."""
    table = state.extra.table
    if not measures_ride(state, general_id) or table is None or unit_id not in table.units:
        return None
    in_sight = commander_sees(table, general_id, unit_id)
    general = state.commander(general_id)
    here = table.commander_point(general_id)
    marked = {m.commander_id for m in table.commanders}
    cinc_near = any(
        g.rank is Rank.CINC and g.active and g.side == general.side and g.id != general.id
        and g.id in marked
        and math.dist(table.commander_point(g.id), here) <= CINC_NEAR
        for g in state.commanders)
    return OrderFacts(distance=round(point_distance(table, unit_id, here), 6),
                      attached=general.attached_to == unit_id, in_sight=in_sight, group=group,
                      cinc_within_6=cinc_near)
