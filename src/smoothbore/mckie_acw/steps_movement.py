"""Steps 1 and 3: compulsory routs, retreats and retirements; then every voluntary move,
manoeuvre, digging, ammunition and helpers, and the generals' rides (McKie ACW, Battle period
1 and 3; Movement; Ammunition; Effort points; Formation and strength of units)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np

from smoothbore.core import Log
from smoothbore.table import Footprint, Table, gaps, outline_of
from smoothbore.table.footprints import bearing_vectors
from smoothbore.table.paths import rout, short_of_units

from . import effort, rules
from .actions import AttachHelpers, CompulsoryMove, Dig, Move, MoveGeneral, Resupply
from .ammunition import resupply
from .effects import set_status
from .movement import Manoeuvre, max_move, rate, trench_covers
from .positions import (
    SIGHT,
    Key,
    Same,
    fit_on,
    footprint,
    footprint_boxes,
    footprints_key,
    ground_at,
    home_heading,
    kept,
    newly_over,
    train_of,
)
from .state import (
    State,
    add_amount,
    amount,
    contact_of,
    corps_of,
    illegal,
    may_advance,
    own_unit,
    with_extra,
)
from .table_moves import (
    OFFERS_STORE,
    Offered,
    ground_cost,
    move_advances,
    move_facts,
    near_enemies,
    not_surely_advancing,
    passes_nearer,
    placed,
    proposed_at,
    table_of,
    where_now,
    whole_mm,
)
from .tables import Tables
from .units import DIG_PERIODS, MAX_HELPERS, Arm, Formation, Ground, Status, Unit, changed

GENERAL_RIDE = 600
"""Generals may always move 600 mm in one period if mounted."""


# --- step 1 -------------------------------------------------------------------------------
def must_move(state: State, unit: Unit) -> bool:
    """A unit with a compulsory move still to make: routing, retreating, or exhausted and
    bound to retire."""
    return (
        unit.on_table
        and unit.id not in state.extra.done
        and (unit.status in (Status.ROUTING, Status.RETREATING) or unit.must_retire)
    )


def compulsory_due(state: State) -> tuple[Unit, ...]:
    """The acting side's units that must still move in step 1."""
    return tuple(u for u in state.units_of(state.extra.acting) if must_move(state, u))


def candidates_compulsory_move(state: State) -> Iterator[CompulsoryMove]:
    """Each compulsory move due (without a table, a routing unit may also run off it; on a
    table the rout's measured end decides)."""
    on_table = state.extra.table is not None
    for unit in compulsory_due(state):
        yield CompulsoryMove(unit.id)
        if unit.status is Status.ROUTING and not on_table:
            yield CompulsoryMove(unit.id, off_table=True)


def check_compulsory_move(state: State, action: CompulsoryMove) -> None:
    """Step 1: only a unit that must move; only a routing unit may run off the table."""
    unit = state.unit(action.unit)  # of the side acting, on the table: the guard
    if not must_move(state, unit):
        raise illegal(action, f"{unit.name} has no compulsory move")
    if action.off_table and state.extra.table is not None:
        raise illegal(action, "the table measures this: a rout leaves the table when its "
                      "move ends off it", rules.BATTLE_PERIOD)
    if action.off_table and unit.status is not Status.ROUTING:
        raise illegal(action, "only a routing unit leaves the table")


def apply_compulsory_move(state: State, action: CompulsoryMove, log: Log) -> State:
    """A rout or retreat moves the unit a full move away from the enemy (breaking off any
    melee); an exhausted unit retires to a safe place, where it must rest (M16)."""
    unit = state.unit(action.unit)
    x = state.extra
    state = with_extra(state, done=x.done | {unit.id}, moved=x.moved | {unit.id},
                             shifted=x.shifted | {unit.id})
    contacts = tuple(c for c in state.extra.contacts if unit.id not in (c.attacker, c.defender))
    state = with_extra(state, contacts=contacts)
    if state.extra.table is not None:
        return compulsory_on_table(state, unit, log)
    if action.off_table:
        log.add("move", f"{unit.name} routs off the table", rules.BATTLE_PERIOD, unit.id)
        return set_status(state, unit.id, Status.OFF_TABLE, log, rules.BATTLE_PERIOD)
    if unit.status in (Status.ROUTING, Status.RETREATING):
        verb = "routs" if unit.status is Status.ROUTING else "retreats"
        log.add("move", f"{unit.name} {verb} {rate(unit, state.options.tables)} mm",
                rules.BATTLE_PERIOD, unit.id)
        return state.with_units(changed(unit, dug=0, ground=Ground.OPEN))
    log.add("move", f"{unit.name}, exhausted, retires to a safe place to rest",
            rules.MELEE_EXHAUSTED, unit.id)
    return state.with_units(changed(unit, must_retire=False, resting=True, dug=0))


def compulsory_on_table(state: State, unit: Unit, log: Log) -> State:
    """On a table: a rout runs a full move away from every enemy the unit sees (turning its
    back; straight for its home edge when it sees none or no heading gains from all) and
    leaves the battle if it ends off the table; a retreat goes the same way keeping its
    facing, stopping at the table edge; an exhausted unit retires a full move towards its
    home edge to rest (interpretation M35)."""
    table = table_of(state)
    fp = table.footprint(unit.id)
    distance = float(max(rate(unit, state.options.tables), rate(unit, state.options.tables,
                                                                limbered=True)))
    retiring = unit.status not in (Status.ROUTING, Status.RETREATING)
    run = None if retiring else rout(table, unit.id, distance, rules=SIGHT)
    if run is None:
        heading = home_heading(table, fp)
        (dx, dy), _ = bearing_vectors(heading)
        end = fp.moved_to(fp.x + dx * distance, fp.y + dy * distance, heading)
    else:
        end = run.end
    full = end
    end = slowed(state, unit, fp, end, distance)
    if unit.status is Status.ROUTING and not table.holds(end):
        log.add("move", f"{unit.name} routs {distance:.0f} mm, off the table",
                rules.BATTLE_PERIOD, unit.id)
        return set_status(state, unit.id, Status.OFF_TABLE, log, rules.BATTLE_PERIOD)
    if unit.status is not Status.ROUTING:
        end = end.moved_to(end.x, end.y, fp.facing)  # backs away, still facing the enemy
    end = fit_on(table, end)
    end, landed = short_of_units(near_the_way(table, fp, end), fp, end)
    state = placed(state, unit.id, end)
    ground = ground_at(table_of(state), end, unit.arm)
    verb = ("routs" if unit.status is Status.ROUTING else "retreats"
            if unit.status is Status.RETREATING else "retires, exhausted, to rest,")
    short = (f", stopped short of {state.unit(landed).name}, not to end on it" if landed
             else " (slowed by the ground)" if end.centre != fit_on(table, full).centre else "")
    log.add("move", f"{unit.name} {verb} {math.dist(fp.centre, end.centre):.0f} mm to "
            f"{where(end)}{short}", rules.MELEE_EXHAUSTED if retiring else rules.BATTLE_PERIOD,
            unit.id)
    if retiring:
        return state.with_units(changed(unit, must_retire=False, resting=True, dug=0,
                                        ground=ground))
    return state.with_units(changed(unit, dug=0, ground=ground))


def near_the_way(table: Table, start: Footprint, end: Footprint) -> Table:
    """What ``short_of_units`` needs of the table for a compulsory move from ``start``
    straight to ``end``: the table with only the footprints whose bounds meet those of the
    ground the move's footprint (``end``'s, carried along the way) may stand on, in the
    table's order, and without commanders' marks (its answer is the same as on the whole
    table; its every step then asks a few units, not all)."""
    (sx, sy), (ex, ey) = start.centre, end.centre
    x0, y0, x1, y1 = end.bounds
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2
    slack = 1e-6 * (1.0 + abs(x0) + abs(y0) + abs(x1) + abs(y1)) + 1e-3
    a0, a1 = min(sx, ex) - hx - slack, min(sy, ey) - hy - slack
    a2, a3 = max(sx, ex) + hx + slack, max(sy, ey) + hy + slack
    boxes = kept(table, footprint_boxes)
    near = np.flatnonzero((boxes[:, 2] >= a0) & (boxes[:, 0] <= a2) & (boxes[:, 3] >= a1)
                          & (boxes[:, 1] <= a3))
    fps = table.footprints
    if len(near) == len(fps):
        return table
    return Table(table.width, table.depth, table.measure, table.features,
                 tuple(fps[i] for i in near.tolist()))


def slowed(state: State, unit: Unit, fp: Footprint, end: Footprint,
           allowance: float) -> Footprint:
    """A compulsory move from ``fp`` towards ``end`` cut short where the ground stops it or
    its cost (paid as a move pays it, ``table_moves.ground_cost``) uses up the full move it
    is allowed (M35); a rout going off the table pays up to the edge."""
    table = table_of(state)
    (x0, y0), (x1, y1) = fp.centre, end.centre
    dx, dy = x1 - x0, y1 - y0
    t_max = 1.0
    for p, d, size in ((x0, dx, table.width), (y0, dy, table.depth)):
        if p + d > size and d > 0:
            t_max = min(t_max, (size - p) / d)
        elif p + d < 0 and d < 0:
            t_max = min(t_max, -p / d)
    t_max = max(0.0, t_max)

    def fits(t: float) -> bool:
        cost = ground_cost(state, unit, (x0, y0), (x0 + t * dx, y0 + t * dy))
        return cost is not None and cost <= allowance + 1e-6 * max(1.0, allowance)

    if fits(t_max):
        return end
    lo, hi = 0.0, t_max
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return end.moved_to(x0 + lo * dx, y0 + lo * dy)


def where(fp: Footprint) -> str:
    """A position as the narration gives it: "(12.0, 18.5), facing 0°"."""
    return f"({fp.x:.1f}, {fp.y:.1f}), facing {fp.facing % 360:.0f}°"


# --- step 3: units --------------------------------------------------------------------------
def free_to_act(state: State, unit: Unit) -> bool:
    """A steady unit of the acting side that has not acted this step, is not charging, halted,
    in melee or bound to retire."""
    return unit.id in state.derived(free_units)


def free_units(state: State) -> dict[str, Unit]:
    """The units free to act (``free_to_act``) by id (worked out once a state: every
    candidate move, dig and resupply asks)."""
    x = state.extra
    charging = {c.charger for c in x.charges if not c.stopped}
    return {
        unit.id: unit for unit in state.units
        if unit.side == x.acting and unit.status is Status.STEADY and not unit.must_retire
        and unit.id not in x.done and unit.id not in x.halted and unit.id not in charging
        and contact_of(state, unit.id) is None
    }


def free_unit(state: State, unit_id: str, action: object) -> Unit:
    """The unit free to act with this id, or the error saying why it may not act."""
    unit = state.derived(free_units).get(unit_id)
    if unit is None:  # of the side acting and on the table (the engine's guard), not free
        raise illegal(action, f"{state.unit(unit_id).name} may not move now",
                      rules.BATTLE_PERIOD)
    return unit


def candidates_move(state: State) -> Iterable[Move]:
    """For each unit free to act (and not resting): a full advance (if its orders let it
    advance) and a move that is not an advance, a double advance, each formation change,
    facing, mounting or dismounting, limbering or unlimbering and manhandling, at the
    distances the manoeuvre leaves. Only what ``check_move`` can accept is offered."""
    if state.extra.table is not None:
        return state.derived(_table_moves)  # once a state: the listing and the choice share it
    return _moves(state)


def _moves(state: State) -> Iterator[Move]:
    """``candidates_move`` without a table."""
    tables = state.options.tables
    for unit in state.derived(free_units).values():
        if unit.resting:
            continue
        yield from unit_moves(unit.id, may_advance(state, unit), rate(unit, tables) > 0,
                              unit.ground, unit.arm, unit.limbered, unit.weapon.is_heavy,
                              unit.mounted, unit.formation)


@functools.lru_cache(maxsize=4096)
def unit_moves(uid: str, advance: bool, moves: bool, ground: Ground, arm: Arm, limbered: bool,
               heavy: bool, mounted: bool, formation: Formation) -> tuple[Move, ...]:
    """The moves offered to one unit free to act, from what they depend on (remembered: the
    same unit is offered the same moves step after step)."""
    woods = ground is Ground.DENSE_WOODS
    out: list[Move] = []
    if moves:
        if advance:
            out.append(Move(uid, None, advancing=True, dense_woods=woods))
            out.append(Move(uid, None, advancing=True, double=True, dense_woods=woods))
            if arm is Arm.FOOT and not woods:
                out.append(Move(uid, None, advancing=True, dense_woods=True,
                                ends_in=Ground.DENSE_WOODS))
        out.append(Move(uid, None, advancing=False, dense_woods=woods))
        out.append(Move(uid, None, ends_in=Ground.COVER, dense_woods=woods))
    out.append(Move(uid, 0, manoeuvre=Manoeuvre.FACE, dense_woods=woods, ends_in=ground))
    if arm is Arm.ARTILLERY:
        kind = Manoeuvre.LIMBER if not limbered else Manoeuvre.UNLIMBER
        out.append(Move(uid, 0, manoeuvre=kind))
        if advance and not limbered and not heavy:
            out.append(Move(uid, None, advancing=True, manoeuvre=Manoeuvre.MANHANDLE))
        return tuple(out)
    mounted = arm is Arm.CAVALRY and mounted
    for new in Formation:
        if new is not formation and not (mounted and new is Formation.SKIRMISH):
            out.append(Move(uid, 0, manoeuvre=Manoeuvre.CHANGE_FORMATION, formation=new,
                            dense_woods=woods, ends_in=ground))
    if arm is Arm.CAVALRY:  # never in dense woods (foot only)
        kind = Manoeuvre.DISMOUNT if mounted else Manoeuvre.MOUNT
        out.append(Move(uid, 0, manoeuvre=kind, ends_in=ground))
    return tuple(out)


def _table_moves(state: State) -> tuple[Move, ...]:
    """On a table: each unit free to act (not resting) moves to the destinations proposed it
    and changes face (``table_moves.proposed``: the check measures each one, and refuses an
    advance the unit may not make; a unit that may not advance is not offered the moves that
    surely advance, ``not_surely_advancing``), and makes the manoeuvres in place it could
    make without a table, those that would end on another unit left out. Kept in the
    table's store (``mckie_acw: moves offered``) under what they read: the unit
    (``_offered_for``), the tables, whether it may advance, its footprint, the enemies that
    may be nearest (``near_enemies``) and the footprints on the ground its manoeuvres in
    place cover; offered step after step while those stay where they were, whoever else
    moves."""
    tables = state.options.tables
    table = table_of(state)
    store = table.store(OFFERS_STORE)
    here = table.derived(footprints_key)
    carried: Mapping[str, Offered] = store.get(("carried", here)) or {}
    listed: dict[str, Offered] = {}
    own: list[tuple[Unit, Key, tuple[Move, ...], Any]] = []
    for unit in state.derived(free_units).values():
        if unit.resting:
            continue
        advance = may_advance(state, unit)
        asked = _offered_for(unit)
        found = carried.get(unit.id)
        if found is not None and found[0] == asked and found[1] is tables \
                and found[2] is advance:
            listed[unit.id] = found
            own.append((unit, found[5], found[3], None))
            continue
        fp = table.footprint(unit.id)
        enemies = near_enemies(state, unit)
        key = Key(asked, Same(tables), advance, fp, Same(enemies))
        offers, relays, box = store.ask(key, functools.partial(
            _own_offers, state, unit, tables, advance, fp, enemies))
        listed[unit.id] = (asked, tables, advance, offers, (fp.side, box), key)
        own.append((unit, key, offers, (relays, box) if relays else None))
    nears = _footprints_in(table, [(u.id, r[1]) for u, _, _, r in own if r is not None])
    out: list[Move] = []
    for unit, key, offers, relayed in own:
        if relayed is not None:
            offers = store.ask(Key(key, nears[unit.id]), functools.partial(
                _clear_offers, state, unit, offers, relayed[0]))
            listed[unit.id] = (*listed[unit.id][:3], offers, *listed[unit.id][4:])
        out += offers
    store.put(("listed", here), MappingProxyType(listed))
    return tuple(out)


def _own_offers(state: State, unit: Unit, tables: Tables, advance: bool, fp: Footprint,
                enemies: tuple[Footprint, ...]
                ) -> tuple[tuple[Move, ...], tuple[tuple[Move, Footprint], ...], Box]:
    """The moves offered to a unit standing at ``fp`` before the other units are asked,
    its manoeuvres in place with the footprints they re-lay it in, and the bounds of the
    ground they cover (widened, ``_wider``)."""
    offers = unit_offers(table_of(state), unit, tables, advance, fp, enemies)
    box = fp.bounds
    relays = []
    for m in offers:
        if m.to is None:
            new = relaid_in_place(state, unit, m)
            box = _wider(box, new.bounds)
            relays.append((m, new))
    return offers, tuple(relays), box


def _clear_offers(state: State, unit: Unit, offers: tuple[Move, ...],
                  relays: tuple[tuple[Move, Footprint], ...]) -> tuple[Move, ...]:
    """``offers`` less the manoeuvres in place that would end on another unit."""
    onto = {m for m, new in relays if relaid_onto(state, unit, m, new) is not None}
    return tuple(m for m in offers if m not in onto) if onto else offers


def _footprints_in(table: Table, boxes: list[tuple[str, Box]]
                   ) -> dict[str, tuple[Footprint, ...]]:
    """For each unit id and box, the footprints of the other units whose bounds meet the
    box, in the table's order (what ``relaid_onto`` may find under a manoeuvre in place),
    all in one array test."""
    if not boxes:
        return {}
    placed = kept(table, footprint_boxes)
    asked = np.array([box for _, box in boxes], dtype=float).reshape(-1, 4)
    meets = ((placed[None, :, 2] >= asked[:, None, 0]) & (placed[None, :, 0] <= asked[:, None, 2])
             & (placed[None, :, 3] >= asked[:, None, 1])
             & (placed[None, :, 1] <= asked[:, None, 3]))
    fps = table.footprints
    out: dict[str, tuple[Footprint, ...]] = {}
    for (uid, _), row in zip(boxes, meets, strict=True):
        out[uid] = tuple(fps[i] for i in np.flatnonzero(row).tolist()
                         if fps[i].unit_id != uid)
    return out


Box = tuple[float, float, float, float]


def _offered_for(unit: Unit) -> tuple[Any, ...]:
    """What of a unit the moves offered it read (its id, name and side, what moves it and
    how far, its figures, which its footprint re-laid is made of, and its ground): the moves
    are offered again, not worked out again, while these stay the same (a unit that fired,
    rested or drew rounds keeps them)."""
    return (unit.id, unit.name, unit.side, unit.arm, unit.weapon, unit.formation,
            unit.mounted, unit.limbered, unit.figures, unit.ground)


def _wider(a: Box, b: Box) -> Box:
    """Bounds holding both ``a`` and ``b``, and a millimetre more (a footprint re-laid in
    place is found among the others by Shapely's bounds of its outline, which may differ
    from ``Footprint.bounds`` by a rounding)."""
    return (min(a[0], b[0]) - 1.0, min(a[1], b[1]) - 1.0, max(a[2], b[2]) + 1.0,
            max(a[3], b[3]) + 1.0)


def unit_offers(table: Table, unit: Unit, tables: Tables, advance: bool, fp: Footprint,
                enemies: tuple[Footprint, ...]) -> tuple[Move, ...]:
    """On a table, the moves offered to one unit free to act standing at ``fp`` (before the
    other units are asked: the proposals and the manoeuvres in place)."""
    moves = proposed_at(unit, tables, fp, enemies, table)[0]
    return (*(moves if advance else not_surely_advancing(fp, moves, enemies)),
            *in_place_moves(unit.id, advance, rate(unit, tables) > 0, unit.ground, unit.arm,
                            unit.limbered, unit.weapon.is_heavy, unit.mounted,
                            unit.formation))


@functools.lru_cache(maxsize=4096)
def in_place_moves(uid: str, advance: bool, moves: bool, ground: Ground, arm: Arm,
                   limbered: bool, heavy: bool, mounted: bool, formation: Formation
                   ) -> tuple[Move, ...]:
    """On a table, the manoeuvres of ``unit_moves`` made in place (no destination), on the
    unit's ground (remembered, as ``unit_moves``)."""
    woods = ground is Ground.DENSE_WOODS
    return tuple(attrs.evolve(move, ends_in=ground, dense_woods=woods)
                 for move in unit_moves(uid, advance, moves, ground, arm, limbered, heavy,
                                        mounted, formation)
                 if move.distance == 0 and move.manoeuvre is not Manoeuvre.FACE)


def check_move(state: State, action: Move) -> None:
    """Step 3: a unit free to act moves no further than its rate less its manoeuvre (doubled
    for a double move, halved in dense woods); it advances only if its orders and activation
    let it; a resting unit stays put; only foot enter dense woods. On a table the move names
    its destination and the table measures the rest (``check_table_move``)."""
    unit = free_unit(state, action.unit, action)
    if unit.resting and (action.distance != 0 or action.manoeuvre is not Manoeuvre.NONE):
        raise illegal(action, f"{unit.name} is exhausted and must rest stationary",
                      rules.MELEE_EXHAUSTED)
    if state.extra.table is not None:
        check_table_move(state, unit, action)
        return
    if action.to is not None or action.at is not None:
        raise illegal(action, "the battle has no table: a move gives its distance, not a "
                      "destination", rules.MOVEMENT)
    if action.ends_in is Ground.DENSE_WOODS and not action.dense_woods:
        raise illegal(action, "a unit ending in dense woods moves through them", rules.DENSE_WOODS)
    if unit.ground is Ground.DENSE_WOODS and not action.dense_woods:
        raise illegal(action, f"{unit.name} is in dense woods: it moves through them at half "
                      "rate", rules.DENSE_WOODS)
    if action.advancing and not may_advance(state, unit):
        raise illegal(action, f"{unit.name}'s orders or its commander's activation forbid "
                      "advancing", rules.ACTIVATION)
    if action.ends_in is Ground.DENSE_WOODS and unit.arm is not Arm.FOOT:
        raise illegal(action, "only foot may be in dense woods", rules.DENSE_WOODS)
    furthest = max_move(unit, action.manoeuvre, double=action.double,
                        dense_woods=action.dense_woods, formation=action.formation,
                        tables=state.options.tables, action=action)
    if action.distance is None and furthest == 0 and action.manoeuvre is Manoeuvre.NONE:
        raise illegal(action, f"{unit.name} cannot move", rules.MOVEMENT)
    if action.distance is not None and action.distance > furthest:
        raise illegal(action, f"{unit.name} may move {furthest} mm with that", rules.MOVEMENT)
    if action.distance == 0 and action.ends_in is not unit.ground:
        raise illegal(action, "a unit that does not move stays on its ground", rules.MOVEMENT)


_PLAIN_MOVE = Move("-")


def check_table_move(state: State, unit: Unit, action: Move) -> None:
    """On a table: a move with a destination leaves distance, ground, advancing and dense
    woods to the table, which measures them (``table_moves.move_facts``: the route's cost
    within the allowance, impassable ground naming the feature, a new facing only with a
    change of face); it advances only if the unit may; a manoeuvre in place is checked as
    without a table."""
    measured = (action.distance is not None and action.to is not None) or (
        action.to is not None and (action.advancing or action.dense_woods
                                   or action.ends_in is not _PLAIN_MOVE.ends_in))
    if measured:
        raise illegal(action, "the table measures this: a move to a destination leaves "
                      "distance, advancing, ends_in and dense_woods at their defaults",
                      rules.MOVEMENT)
    if action.to is None:
        if action.at is not None:
            raise illegal(action, "a move with a starting point (at) names its destination "
                          "(to)", rules.MOVEMENT)
        if action.distance != 0 or action.manoeuvre is Manoeuvre.FACE:
            raise illegal(action, "on a table a move names its destination (to = x, y, "
                          "facing); only a manoeuvre in place stays put", rules.MOVEMENT)
        _check_in_place(state, unit, action)
        return
    if action.manoeuvre not in (Manoeuvre.NONE, Manoeuvre.FACE):
        raise illegal(action, "on a table a formation change, mounting or limbering is made "
                      "in place (no destination)", rules.MANOEUVRES)
    if action.at is not None and action.at != where_now(table_of(state), unit.id):
        raise illegal(action, f"{unit.name} no longer stands at {action.at}: the move was "
                      "ordered from elsewhere", rules.MOVEMENT)
    advancing = move_advances(state, unit, action.to, action.manoeuvre, action.double, action)
    if not may_advance(state, unit) and (advancing or passes_nearer(state, unit, action.to)):
        raise illegal(action, f"{unit.name}'s orders or its commander's activation forbid "
                      "advancing", rules.ACTIVATION)


def _check_in_place(state: State, unit: Unit, action: Move) -> None:
    """A manoeuvre in place: the checks of a move without a table, on the unit's ground."""
    if action.ends_in is not unit.ground:
        raise illegal(action, "a unit that does not move stays on its ground", rules.MOVEMENT)
    if action.dense_woods != (unit.ground is Ground.DENSE_WOODS):
        raise illegal(action, f"{unit.name} is {'' if action.dense_woods else 'not '}in dense "
                      "woods", rules.DENSE_WOODS)
    max_move(unit, action.manoeuvre, double=action.double, dense_woods=action.dense_woods,
             formation=action.formation, tables=state.options.tables, action=action)
    onto = relaid_onto(state, unit, action)
    if onto is not None:
        raise illegal(action, f"{unit.name} re-laid in place would stand on {onto} (M34)",
                      rules.MANOEUVRES)


def manoeuvred(unit: Unit, action: Move) -> Unit:
    """The unit as its manoeuvre leaves it: new formation, mounted or not, limbered or not."""
    m = action.manoeuvre
    if m is Manoeuvre.CHANGE_FORMATION:
        return changed(unit, formation=action.formation)
    if m in (Manoeuvre.MOUNT, Manoeuvre.DISMOUNT):
        return changed(unit, mounted=m is Manoeuvre.MOUNT)
    if m in (Manoeuvre.LIMBER, Manoeuvre.UNLIMBER):
        return changed(unit, limbered=m is Manoeuvre.LIMBER)
    return unit


def _relaid(unit: Unit, action: Move, now: Footprint, tables: Tables) -> Footprint:
    """The unit's footprint re-laid by the manoeuvre about where it stands."""
    return footprint(manoeuvred(unit, action), now.x, now.y, now.facing, tables)


def relaid_in_place(state: State, unit: Unit, action: Move) -> Footprint:
    """On a table, the unit's footprint re-laid by a manoeuvre in place about its centre and
    facing, shifted back onto the table (as ``positions.synced`` lays it, M29); where it
    stands for any other move."""
    table = table_of(state)
    now = table.footprint(unit.id)
    if action.manoeuvre in (Manoeuvre.NONE, Manoeuvre.FACE):
        return now
    tables = state.options.tables
    return fit_on(table, table.store("mckie_acw: relaid in place").ask(
        Key(unit, action, now, Same(tables)), lambda: _relaid(unit, action, now, tables)))


def relaid_onto(state: State, unit: Unit, action: Move, new: Footprint | None = None
                ) -> str | None:
    """On a table: the name of another unit that the unit's footprint, re-laid by a
    manoeuvre in place about its centre and facing (``relaid_in_place``, or ``new`` where
    it is made already), would overlap and does not overlap now; None when clear (no unit
    ends on another, M34)."""
    table = state.extra.table
    if table is None or action.manoeuvre in (Manoeuvre.NONE, Manoeuvre.FACE):
        return None
    now = table.footprint(unit.id)
    if new is None:
        new = relaid_in_place(state, unit, action)
    if (new.x, new.y, new.width, new.length) == (now.x, now.y, now.width, now.length):
        return None
    memo = table.derived(_onto)  # the listing asks, then the check: once a table
    key = (now, new)
    if key not in memo:
        other = newly_over(table, now, outline_of(new))
        memo[key] = None if other is None else other.label or other.unit_id
    return memo[key]


def _onto(table: Table) -> dict[tuple[Footprint, Footprint], str | None]:
    """``relaid_onto`` on this table, by the footprint and the footprint re-laid (each
    answer written once)."""
    return {}


def apply_move(state: State, action: Move, log: Log) -> State:
    """The unit moves (a double move costs 2 effort points); a manoeuvre changes its
    formation, mount or limber; a unit that moves loses any digging done. On a table its
    footprint goes to the destination and the move is traced."""
    unit = state.unit(action.unit)
    m = action.manoeuvre
    distance = action.distance
    ends_in = action.ends_in
    advancing = action.advancing
    to = ""
    if action.to is not None:
        facts = move_facts(state, unit, action.to, m, action.double, action)
        distance = facts.distance
        advancing = facts.advancing or passes_nearer(state, unit, action.to)
        state = placed(state, unit.id, facts.end)
        ends_in = ground_at(table_of(state), facts.end, unit.arm)
        to = f" to {where(facts.end)}"
    elif distance is None:
        distance = max_move(unit, m, double=action.double, dense_woods=action.dense_woods,
                            formation=action.formation, tables=state.options.tables,
                            action=action)
    changes: dict[str, object] = {"ground": ends_in}
    if distance or m not in (Manoeuvre.NONE, Manoeuvre.FACE):
        changes["dug"] = 0
    if m is Manoeuvre.CHANGE_FORMATION:
        changes["formation"] = action.formation
    elif m in (Manoeuvre.MOUNT, Manoeuvre.DISMOUNT):
        changes["mounted"] = m is Manoeuvre.MOUNT
    elif m in (Manoeuvre.LIMBER, Manoeuvre.UNLIMBER):
        changes["limbered"] = m is Manoeuvre.LIMBER
    unit = changed(unit, **changes)
    x = state.extra
    moved = bool(distance) or m is not Manoeuvre.NONE
    updates: dict[str, object] = {"done": x.done | {unit.id}}
    if moved:
        updates["moved"] = x.moved | {unit.id}
        updates["worked"] = x.worked | {unit.id}
    if distance:
        updates["shifted"] = x.shifted | {unit.id}
    if advancing and distance:
        updates["advanced"] = x.advanced | {unit.id}
    if action.double:
        unit = effort.earn(unit, effort.CHARGE_OR_DOUBLE_MOVE)
    what = []
    if m is not Manoeuvre.NONE:
        what.append(str(m) + (f" to {action.formation}" if action.formation else ""))
    if distance or to:
        way = "advances" if advancing else "moves"
        what.append(f"{'double move: ' if action.double else ''}{way} {distance} mm"
                    f"{to} on {ends_in} ground" if to else
                    f"{'double move: ' if action.double else ''}{way} {distance} mm"
                    f" to {ends_in} ground")
    rule = rules.MANOEUVRES if m is not Manoeuvre.NONE else rules.MOVEMENT
    log.add("move", f"{unit.name}: {', '.join(what) or 'stands'}", rule, unit.id)
    return with_extra(state.with_units(unit), **updates)


def candidates_dig(state: State) -> Iterator[Dig]:
    """Each unit free to act that has not moved, on foot, with its trench unfinished."""
    moved = state.extra.moved
    for unit in state.derived(free_units).values():
        if (unit.id not in moved and unit.dug < DIG_PERIODS and unit.arm is not Arm.ARTILLERY
                and not unit.mounted):
            yield Dig(unit.id)


def check_dig(state: State, action: Dig) -> None:
    """A steady foot or dismounted unit free to act, that has not moved this period, whose
    figures' trench (7 mm each) will cover its frontage, and not yet entrenched."""
    unit = state.unit(action.unit)  # of the side acting, on the table: the guard
    r = rules.DIGGING
    if unit.id in state.extra.moved or not free_to_act(state, unit):
        raise illegal(action, f"{unit.name} may not dig now: no other task while digging", r)
    if unit.is_gun or (unit.arm is Arm.CAVALRY and unit.mounted):
        raise illegal(action, "foot or dismounted cavalry dig", r)
    if unit.dug >= DIG_PERIODS:
        raise illegal(action, f"{unit.name}'s trench is finished", r)
    if not trench_covers(unit, state.options.tables):
        raise illegal(action, f"{unit.name}'s figures cannot dig a trench as long as its front", r)


def apply_dig(state: State, action: Dig, log: Log) -> State:
    """One more period of digging; the fourth completes a trench (cover from firing only).
    Digging is a task: the unit does not rest this period (M22)."""
    unit = state.unit(action.unit)
    unit = changed(unit, dug=unit.dug + 1)
    done = "its trench is finished" if unit.dug == DIG_PERIODS else (
        f"{unit.dug} of {DIG_PERIODS} periods")
    log.add("dig", f"{unit.name} digs: {done}", rules.DIGGING, unit.id)
    x = state.extra
    return with_extra(state.with_units(unit), done=x.done | {unit.id},
                                             digging=x.digging | {unit.id},
                                             worked=x.worked | {unit.id})


def candidates_resupply(state: State) -> Iterator[Resupply]:
    """Each unit free to act that has not moved, is short of rounds and (on a table) within
    reach of its corps' train."""
    moved = state.extra.moved
    for unit in state.derived(free_units).values():
        if unit.id not in moved and unit.ammo < unit.full_ammo and train_gap(
                state, unit) is None:
            yield Resupply(unit.id)


def train_gap(state: State, unit: Unit) -> tuple[int, int] | None:
    """On a table, Ammunition ("kept in reserve in all ammunition train behind each corps"):
    None where the unit's outline is within its full move of its corps' train (the wagons
    and the unit meet within a period's march, M10), else (the distance in whole mm, the
    full move). Without a table (or a train with no place) the players say so: None."""
    table = state.extra.table
    where = train_of(state, unit)
    if table is None or where is None:
        return None
    gap = outline_of(table.footprint(unit.id)).distance(where)
    full = rate(unit, state.options.tables)
    return None if gap <= full else (math.ceil(gap - 1e-6), full)


def check_resupply(state: State, action: Resupply) -> None:
    """A unit free to act, short of rounds, whose corps' train has rounds left."""
    unit = state.unit(action.unit)  # of the side acting, on the table: the guard
    r = rules.AMMUNITION
    if unit.id in state.extra.moved or not free_to_act(state, unit):
        raise illegal(action, f"{unit.name} may not draw ammunition now", r)
    if unit.ammo >= unit.full_ammo:
        raise illegal(action, f"{unit.name} is full ({unit.ammo} rounds)", r)
    if amount(state.extra.reserves, corps_of(state, unit)) <= 0:
        raise illegal(action, "the corps' ammunition train is empty", r)
    gap = train_gap(state, unit)
    if gap is not None:
        raise illegal(action, f"{unit.name} is {gap[0]} mm from its corps' ammunition train, "
                      f"beyond its full move ({gap[1]})", r)


def apply_resupply(state: State, action: Resupply, log: Log) -> State:
    """The unit fills up from its corps' train; the running totals change."""
    unit = state.unit(action.unit)
    corps = corps_of(state, unit)
    filled, left = resupply(unit, amount(state.extra.reserves, corps))
    log.add("ammunition", f"{unit.name} draws {filled.ammo - unit.ammo} rounds "
            f"({left} left in the train)", rules.AMMUNITION, unit.id)
    x = state.extra
    reserves = add_amount(x.reserves, corps, left - amount(x.reserves, corps))
    return with_extra(state.with_units(filled), done=x.done | {unit.id}, reserves=reserves)


def candidates_attach_helpers(state: State) -> Iterator[AttachHelpers]:
    """A figure of each foot or cavalry unit free to act (not moved, keeping one figure) to
    each gun model of its side on the table short of three helpers."""
    acting = state.extra.acting
    moved = state.extra.moved
    batteries = [u for u in state.units if u.side == acting and u.on_table
                 and u.arm is Arm.ARTILLERY and u.helpers < MAX_HELPERS]
    donors = [u for u in state.derived(free_units).values() if u.id not in moved
              and u.arm is not Arm.ARTILLERY and u.figures > 1]
    table = state.extra.table
    if table is None:
        for battery in batteries:
            for unit in donors:
                yield AttachHelpers(battery.id, unit.id, 1)
        return
    tables = state.options.tables
    memo = kept(table, _helpers_memo)
    key = (tuple(u.id for u in batteries), tuple(donors), tables)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(
            AttachHelpers(batteries[b].id, donors[d].id, 1)
            for b, d in _helpers_in_reach(table, tables, batteries, donors))
    yield from found


def _helpers_memo(table: Table) -> dict[tuple[Any, ...], tuple[AttachHelpers, ...]]:
    """The helpers offered on this table's footprints, by the batteries (ids), the donors
    (the units themselves: their rates are their own) and the tables asked."""
    return {}


def _helpers_in_reach(table: Table, tables: Tables, batteries: list[Unit], donors: list[Unit]
                      ) -> list[tuple[int, int]]:
    """The (battery, donor) pairs, by their places in the lists, battery after battery, whose
    outlines are within the donor's full move (``helpers_reach``, M11): a bound in plain
    arithmetic first (two outlines are no nearer than their bounds), then the outlines of
    the pairs it leaves measured at once, as ``helpers_reach`` measures each."""
    if not batteries or not donors:
        return []
    at = table.units
    near = np.array([at[u.id].bounds for u in batteries], dtype=float).reshape(-1, 4)
    far = np.array([at[u.id].bounds for u in donors], dtype=float).reshape(-1, 4)
    full = np.array([rate(u, tables) for u in donors], dtype=float)
    gx = np.maximum(np.maximum(near[:, None, 0] - far[None, :, 2],
                               far[None, :, 0] - near[:, None, 2]), 0.0)
    gy = np.maximum(np.maximum(near[:, None, 1] - far[None, :, 3],
                               far[None, :, 1] - near[:, None, 3]), 0.0)
    # a hair of slack: the bound only passes over pairs surely beyond reach
    bound = np.hypot(gx, gy) * (1.0 - 1e-9) - 1e-6
    bs, ds = np.nonzero(bound <= full[None, :])
    if not len(bs):
        return []
    out: list[tuple[int, int]] = []
    starts = np.flatnonzero(np.diff(bs, prepend=-1))  # each battery's pairs in a row
    for lo, hi in zip(starts.tolist(), [*starts.tolist()[1:], len(bs)], strict=True):
        b, these = int(bs[lo]), ds[lo:hi]
        apart = gaps(outline_of(at[batteries[b].id]),
                     [outline_of(at[donors[d].id]) for d in these.tolist()])
        out += [(b, d) for d in these[apart <= full[these]].tolist()]
    return out


def helpers_reach(state: State, unit: Unit, battery: Unit) -> bool:
    """Whether figures of ``unit`` reach ``battery`` to help its crew: on a table its
    outline is within the unit's full move of the gun model's, edge to edge (M11); without a
    table the players say so."""
    table = state.extra.table
    if table is None:
        return True
    gap = outline_of(table.footprint(unit.id)).distance(outline_of(table.footprint(battery.id)))
    return gap <= rate(unit, state.options.tables)


def check_attach_helpers(state: State, action: AttachHelpers) -> None:
    """Up to 3 foot or cavalry figures help a gun model's crew; the donor is free to act and
    keeps at least one figure."""
    battery = state.unit(action.battery)  # of the side acting, on the table: the guard
    unit = own_unit(state, action.unit, action)  # the donor: a unit of the side acting too
    r = rules.ARTILLERY_CREW
    if not battery.is_gun or unit.is_gun:
        raise illegal(action, "foot or cavalry figures help a gun model's crew", r)
    if battery.helpers + action.figures > MAX_HELPERS:
        raise illegal(action, f"{battery.name} may have at most {MAX_HELPERS} helpers", r)
    if unit.id in state.extra.moved or not free_to_act(state, unit):
        raise illegal(action, f"{unit.name} may not detach figures now", r)
    if unit.figures <= action.figures:
        raise illegal(action, f"{unit.name} has only {unit.figures} figure(s)", r)
    if not helpers_reach(state, unit, battery):
        raise illegal(action, f"{unit.name} is beyond a move ({rate(unit, state.options.tables)}"
                      f" mm) of {battery.name} (M11)", r)


def apply_attach_helpers(state: State, action: AttachHelpers, log: Log) -> State:
    """The figures leave their unit (detached, not lost) and join the gun's crew."""
    battery = state.unit(action.battery)
    unit = state.unit(action.unit)
    n = action.figures
    unit = changed(unit, figures=unit.figures - n, initial_figures=unit.initial_figures - n,
                        ammo=min(unit.ammo, (unit.figures - n) * 6))
    battery = changed(battery, helpers=battery.helpers + n)
    log.add("helpers", f"{n} figure(s) of {unit.name} help serve {battery.name}",
            rules.ARTILLERY_CREW, battery.id)
    x = state.extra
    return with_extra(state.with_units(unit, battery), done=x.done | {unit.id})


# --- step 3: generals -----------------------------------------------------------------------
def candidates_move_general(state: State) -> list[MoveGeneral]:
    """Each general in action of the acting side who has not ridden this step, to each
    friendly unit on the table he is not with, or away alone; on a table with his mark, the
    distance left to the table (the check measures the ride, M38), and only to the units
    whose centres are within ``RIDE_BOUND`` of him (those beyond a ride surely refused)."""
    acting = state.extra.acting
    units = state.derived(_acting_on_table)
    done = state.extra.done
    table = state.extra.table
    out: list[MoveGeneral] = []
    near: tuple[Any, dict[str, tuple[str, ...]]] | None = None
    for g in state.commanders:
        if g.side == acting and g.active and f"general:{g.id}" not in done:
            if table is None or ride_length(state, g.id, "") is None:
                out += rides(g.id, g.attached_to, units)
                continue
            if near is None:
                memo = table.derived(_near_rides)
                near = memo.get(units)
                if near is None:
                    at = table.units
                    near = memo[units] = (np.array([at[uid].centre for uid in units],
                                                   dtype=float).reshape(-1, 2), {})
            within = near[1].get(g.id)
            if within is None:
                within = near[1][g.id] = _within_ride(table, g.id, units, near[0])
            out += table_rides(g.id, g.attached_to, within)
    return out


def _acting_on_table(state: State) -> tuple[str, ...]:
    """The ids of the acting side's units on the table (once a state)."""
    acting = state.extra.acting
    return tuple(u.id for u in state.units if u.side == acting and u.on_table)


def _near_rides(table: Table) -> dict[tuple[str, ...], tuple[Any, dict[str, tuple[str, ...]]]]:
    """For the units asked on this table (its footprints and its commanders' marks): their
    centres as an (n, 2) array, and ``_within_ride`` by general."""
    return {}


def _within_ride(table: Table, general: str, units: tuple[str, ...], centres: Any
                 ) -> tuple[str, ...]:
    """The ``units`` (in their order; ``centres``, theirs) whose centres are within
    ``RIDE_BOUND`` of where the general is (one array over them all)."""
    x, y = table.derived(_points)[general]
    apart = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
    return tuple(units[i] for i in np.flatnonzero(apart <= RIDE_BOUND).tolist())


RIDE_BOUND = GENERAL_RIDE + 1e-3
"""On a table the rides offered are those to the units whose centres are within this of the
general's point: a hair past the longest ride (600 mm, the check's whole millimetres
rounding a ride within a millionth of a millimetre down), so the units beyond are surely
refused and only they are passed over."""


def _points(table: Table) -> dict[str, tuple[float, float]]:
    """Where each commander with a mark is (``Table.commander_point``: the centre of the unit
    he is with, or his own point), by id (once a table)."""
    at = table.units
    return {m.commander_id: at[m.attached_to].centre if m.attached_to is not None
            else (m.x, m.y) for m in table.commanders}


def _marked(table: Table) -> frozenset[str]:
    """The commanders with a mark on the table (once a table)."""
    return frozenset(m.commander_id for m in table.commanders)


def ride_length(state: State, general: str, unit_id: str) -> int | None:
    """On a table: how far the general rides to join ``unit_id`` (whole mm, from his point to
    the unit's centre; 0 to ride alone from where he is); None when it is not measured (no
    mark for him, or the unit is not on the table)."""
    table = state.extra.table
    if table is None:
        return None
    memo = table.derived(_rides)
    key = (general, unit_id)
    if key not in memo:
        memo[key] = _ride(table, general, unit_id)
    return memo[key]


def _rides(table: Table) -> dict[tuple[str, str], int | None]:
    """The rides measured on this table, by (general, unit)."""
    return {}


def _ride(table: Table, general: str, unit_id: str) -> int | None:
    if general not in table.derived(_marked):
        return None
    if not unit_id:
        return 0
    found = table.units.get(unit_id)
    if found is None:
        return None
    x, y = table.derived(_points)[general]
    return whole_mm(math.hypot(found.x - x, found.y - y))  # Table.ride, from the marks by id


@functools.lru_cache(maxsize=4096)
def rides(general: str, attached_to: str, units: tuple[str, ...]) -> tuple[MoveGeneral, ...]:
    """A general's rides: to each friendly unit on the table he is not with, or away alone
    (remembered, as ``unit_moves``)."""
    out = [MoveGeneral(general, uid, GENERAL_RIDE // 2) for uid in units if uid != attached_to]
    if attached_to:
        out.append(MoveGeneral(general, "", 0))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def table_rides(general: str, attached_to: str, units: tuple[str, ...]
                ) -> tuple[MoveGeneral, ...]:
    """On a table with the general's mark: his rides to each friendly unit on the table he
    is not with, or away alone, the distance left to the table (remembered, as ``rides``)."""
    out = [MoveGeneral(general, uid) for uid in units if uid != attached_to]
    if attached_to:
        out.append(MoveGeneral(general, ""))
    return tuple(out)


def check_move_general(state: State, action: MoveGeneral) -> None:
    """A general in action of the acting side rides once a step, at most 600 mm, to a
    friendly unit on the table (or alone)."""
    g = state.commander(action.commander)
    r = rules.MOVEMENT
    if g.side != state.extra.acting or not g.active:
        raise illegal(action, f"{g.name} is not a general of {state.extra.acting} in action", r)
    if f"general:{g.id}" in state.extra.done:
        raise illegal(action, f"{g.name} has already moved", r)
    measured = state.extra.table is not None and ride_length(state, g.id, "") is not None
    if measured and action.distance:
        raise illegal(action, "the table measures this: the ride from where the general "
                      "stands (leave distance at 0)", r)
    if action.distance > GENERAL_RIDE:
        raise illegal(action, f"a general rides at most {GENERAL_RIDE} mm", r)
    if action.attach_to:
        unit = own_unit(state, action.attach_to, action)
        if unit.id == g.attached_to:
            raise illegal(action, f"{g.name} is already with {unit.name}", r)
        if measured:
            d = ride_length(state, g.id, unit.id)
            if d is None:
                raise illegal(action, f"{unit.name} is not on the table", r)
            if d > GENERAL_RIDE:
                raise illegal(action, f"{unit.name} is {d} mm from {g.name}: a general rides "
                              f"at most {GENERAL_RIDE} mm", r)
    elif not g.attached_to:
        raise illegal(action, f"{g.name} already rides alone", r)


def apply_move_general(state: State, action: MoveGeneral, log: Log) -> State:
    """The general joins the unit (or rides alone)."""
    g = state.commander(action.commander)
    distance = ride_length(state, g.id, action.attach_to)
    if distance is None:
        distance = action.distance
    left = g.attached_to
    g = attrs.evolve(g, attached_to=action.attach_to)
    if action.attach_to:
        text = f"{g.name} rides {distance} mm to {state.unit(action.attach_to).name}"
    else:
        was = f"leaves {state.unit(left).name}" if left else "rides alone"
        text = (f"{g.name} {was} and stays where he is" if not distance
                else f"{g.name} {was}: rides {distance} mm alone")
    log.add("general", text, rules.MOVEMENT, g.id)
    return with_extra(state.with_commanders(g), done=state.extra.done | {f"general:{g.id}"})
