"""The orders of an activated unit (fire, fire and advance, run, change formation, rally,
down), a routing unit's test, commanders' moves and rout moves: for each, its candidates, the
roll-free check naming the rule that forbids it, and the handler (Orders; Order tests;
Movement; Shooting; Morale Test)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import attrs
import numpy as np

from smoothbore.core import Deferred, IllegalActionError, Log
from smoothbore.table import (
    Footprint,
    MoveTrace,
    Point,
    ShotTrace,
    Table,
    Trace,
    gaps,
    intersecting,
    region_of,
    segment,
)

from . import movement, situations
from .actions import (
    Advance,
    ChangeFormation,
    Down,
    Fire,
    Mount,
    Move,
    MoveCommander,
    Rally,
    RallyFromRout,
    RideTo,
    RoutMove,
    Run,
)
from .morale import order_test, rally, recover_from_rout
from .rules import (
    RULE_ADVANCE,
    RULE_ARMY,
    RULE_DOWN,
    RULE_FIRE,
    RULE_FORMATION,
    RULE_INEFFECTIVE,
    RULE_INTERPENETRATION,
    RULE_MOVEMENT,
    RULE_ONE_ORDER,
    RULE_ORDER_TESTS,
    RULE_RALLY,
    RULE_RALLY_ROUT,
    RULE_ROUT,
    RULE_ROUT_TESTS,
    RULE_SHOOTING,
    RULE_TABLE,
    RULE_TERRAIN,
    RULE_TURN,
    RULE_UNIT_SIZES,
)
from .shooting import Firing, ShotFacts, ShotResult, fire_problem, shoot, shots
from .state import (
    BRIGADE,
    HOLDERS_REACH,
    Situation,
    State,
    army_test_due,
    command_for,
    engaged_ids,
    group_of,
    holders_distance,
    ineffective,
    mark_of,
    mark_point,
    marks_by_id,
    routing_friends,
    situation,
    untested_routers,
    with_reformed,
    with_units,
)
from .steps_sequence import check_no_routs
from .units import (
    ALLOWED_FORMATIONS,
    Commander,
    Formation,
    Rank,
    Unit,
    UnitType,
    Weapon,
    add_pins,
    revise,
)

T = TypeVar("T")
Terrain = movement.Terrain
TERRAINS = (Terrain.OPEN, Terrain.WOODS)


# --- shared by the orders ------------------------------------------------------------------
def check_group_ready(state: State, action: object) -> str:
    """The active group, its army test taken and its routing units tested (The Turn, 2)."""
    group = state.extra.group
    if group is not None and situation(state).acting:
        return group
    check_no_routs(state, action)
    group = state.extra.group
    if group is None:
        raise IllegalActionError(action, "no brigade is acting", RULE_TURN)
    if army_test_due(state):
        raise IllegalActionError(action, "the brigade must first take its army test",
                                 RULE_ARMY)
    return group


def check_routers_tested(state: State, action: object) -> None:
    """The active group's routing units have taken their tests before anything else is done
    with its die: orders, commanders' rides (The Turn, 2 before 3; A20)."""
    if untested_routers(state):
        raise IllegalActionError(action, "the brigade's routing units test first",
                                 RULE_ROUT_TESTS)


def check_actor(state: State, action: object, unit_id: str,
                known: Situation | None = None) -> Unit:
    """A unit of the active group that may take its one order: in the fight, not locked in
    melee, not yet ordered this turn, its brigade's routing units tested (The Turn; Orders).
    (``known``: the state's situation, if the caller has it.)"""
    unit = (known or situation(state)).ready.get(unit_id)
    if unit is not None:
        return unit
    group = check_group_ready(state, action)
    unit = state.unit(unit_id)
    if group_of(unit) != group:
        raise IllegalActionError(action, f"{unit.name} is not in the acting brigade", RULE_TURN)
    if unit.routing:
        raise IllegalActionError(action, f"{unit.name} is routing: it only tests to rally",
                                 RULE_ROUT_TESTS)
    check_routers_tested(state, action)
    if unit.id in state.extra.failed:
        raise IllegalActionError(action, f"{unit.name} failed an order test this turn: no "
                                 "other orders but hand to hand fighting", RULE_ORDER_TESTS)
    if unit.id in state.extra.ordered:
        raise IllegalActionError(action, f"{unit.name} has had its order this turn",
                                 RULE_ONE_ORDER)
    if unit.id in engaged_ids(state):
        raise IllegalActionError(action, f"{unit.name} is locked in melee", RULE_ONE_ORDER)
    return unit


def actors(state: State) -> Iterator[Unit]:
    """The units of the active group that may still take an order: everything
    ``check_actor`` asks of them holds."""
    yield from situation(state).ready.values()


def check_enemy(state: State, action: object, unit: Unit, target_id: str, rule: str,
                known: Situation | None = None) -> Unit:
    """An enemy unit on the table and not locked in melee (A8)."""
    known = known or situation(state)
    if target_id in known.enemy_set.get(unit.side, ()):
        return known.units[target_id]
    target = state.unit(target_id)
    if target.side == unit.side:
        raise IllegalActionError(action, f"{target.name} is a friendly unit", rule)
    if target.lost:
        raise IllegalActionError(action, f"{target.name} is out of the battle", rule)
    if target.id in engaged_ids(state):
        raise IllegalActionError(action, f"{target.name} is locked in melee", rule)
    return target


def take_order(state: State, unit: Unit, log: Log, what: str, *, aggressive: bool = False,
               always: bool = False) -> tuple[bool, State]:
    """Give the unit its one order (it stops being down): a unit with pins, a charging unit
    (``always``), or a unit of a combat ineffective brigade doing anything aggressive takes an
    order test; passed, it loses a pin; failed, it can do nothing more this turn but fight
    hand to hand, and a unit of a combat ineffective brigade goes home (Order tests; Brigade
    and army strength)."""
    extra = state.extra
    ordered = revise(unit, down=False) if unit.down else unit
    broken = aggressive and bool(unit.brigade) and ineffective(state, unit.side, unit.brigade)
    new = state.with_extra(ordered=extra.ordered | {unit.id})
    if not (unit.pins or always or broken):
        log.add("order", f"{unit.name}: {what}", RULE_ONE_ORDER, unit.id,
                facts={"order": what, "test": "none"})
        return True, with_units(new, ordered) if ordered is not unit else new
    passed = order_test(ordered, command_for(state, unit), dice=log.dice,
                        options=state.options, reason=f"{unit.name} order test: {what}")
    if passed:
        ordered = revise(ordered, pins=max(0, ordered.pins - 1))
        lost = " and loses a pin" if unit.pins else ""
        log.add("order", f"{unit.name} passes its order test{lost}: {what}",
                RULE_ORDER_TESTS, unit.id,
                facts={"order": what, "test": "order", "result": "passed"})
        return True, with_units(new, ordered)
    new = new.with_extra(failed=new.extra.failed | {unit.id})
    if broken:
        log.add("order", f"{unit.name} fails its order test: its brigade is combat "
                "ineffective and it goes home", RULE_INEFFECTIVE, unit.id,
                facts={"order": what, "test": "order", "result": "failed",
                       "outcome": "goes home"})
        return False, with_units(new, revise(ordered, home=True))
    log.add("order", f"{unit.name} fails its order test: no orders this turn", RULE_ORDER_TESTS,
            unit.id, facts={"order": what, "test": "order", "result": "failed"})
    return False, with_units(new, ordered)


def fire_at(state: State, firer_id: str, target_id: str, facts: ShotFacts, firing: Firing,
            log: Log, measured: float | None = None) -> State:
    """A shooting attack and its report (Shooting); on a table, the range ``measured`` is
    told and the shot drawn."""
    firer, target = state.unit(firer_id), state.unit(target_id)
    result, hit = shoot(firer, target, facts, firing, dice=log.dice, options=state.options,
                        command=command_for(state, target),
                        routing_friends=routing_friends(state, target))
    where = (f"{facts.distance}\"" if measured is None
             else f"range measured {measured:.1f} in., {facts.cover} cover"
             + (", enfilading" if facts.enfilade else ""))
    log.add("fire", f"{firer.name} fires at {target.name} ({where}): {result}",
            RULE_SHOOTING, firer.id, facts=shot_facts_of(result, target.id))
    table = state.extra.table
    if table is not None:
        state = state.with_extra(table=table.with_traces(
            *recent_traces(table), ShotTrace(firer_id, target_id, hit != target)))
    return with_units(state, hit)


def shot_facts_of(result: ShotResult, target_id: str) -> dict[str, str | int]:
    """A shooting attack as structured facts: the hits, casualties and bases lost, and the
    target's morale test for losing a base, if it took one (Enfilading Fire; Morale
    Test)."""
    facts: dict[str, str | int] = {"target": target_id, "hits": result.hits,
                                   "casualties": result.wounds,
                                   "bases lost": result.bases_lost}
    if result.morale:
        facts.update(test="morale", result="passed" if result.morale == "passed" else "failed")
    return facts


def recent_traces(table: Table) -> tuple[Trace, ...]:
    """The traces kept on the table with a new one: the last few moves and shots."""
    return table.traces[-7:]


# --- on a table ------------------------------------------------------------------------------
NO_SHOT = ShotFacts()
"""The facts a shooting action carries on a table: the defaults (the table measures)."""


@attrs.frozen
class Measured:
    """What an order's check measured, handed to its handler (engine contract v2: nothing
    is measured twice): the ``shot``'s facts and the range ``distance`` measured on a table
    (None: without one), and the ``move`` judged on a table (None: none)."""

    shot: ShotFacts | None = None
    distance: float | None = None
    move: situations.MoveSituation | None = None


NOTHING_MEASURED = Measured()


def refuse_measured(action: object, carries: bool) -> None:
    """On a table an action carries no measured facts: the table measures them (A23)."""
    if carries:
        raise IllegalActionError(action, "the table measures this: leave the measured facts "
                                 "(range, cover, terrain, the unit passed through...) at their "
                                 "defaults", RULE_TABLE)


def table_shot(state: State, action: object, firer: Unit, target: Unit
               ) -> situations.ShotSituation:
    """The shot measured on the table, refused when no line of sight or out of every range
    (A24); the weapon's own range and arc are ``fire_problem``'s."""
    found = situations.shot_situation(state, firer.id, target.id)
    if found.problem:
        raise IllegalActionError(action, found.problem, found.rule)
    return found


def table_move(state: State, action: object, unit: Unit, pace: movement.Pace,
               to: Move | None) -> situations.MoveSituation:
    """The move to ``to`` judged on the table, refused as the rules forbid it (A26):
    through ground the unit cannot cross, beyond its allowance, off the table, onto another
    unit or within 1\" of the enemy, through more than one friend, or through a friend at a
    run or in any formation but line (Interpolation of units)."""
    if to is None:
        raise IllegalActionError(action, "on a table a move says where it goes: `move`, a "
                                 "Move(distance, heading, turn)", RULE_TABLE)
    found = situations.move_situation(state, unit.id, pace, to)
    if found.problem:
        raise IllegalActionError(action, found.problem, found.rule)
    if found.through is not None:
        friend = state.unit(found.through)
        if pace is not movement.Pace.ADVANCE or unit.formation is not Formation.LINE:
            raise IllegalActionError(action, f"only units in line pass through another "
                                     f"({friend.name}), at walking pace",
                                     RULE_INTERPENETRATION)
        if not friend.in_the_fight or friend.id in engaged_ids(state):
            raise IllegalActionError(action, f"{friend.name} is not a stationary friendly unit "
                                     "to pass through", RULE_INTERPENETRATION)
    return found


def move_on_table(state: State, unit_id: str, found: situations.MoveSituation, verb: str,
                  log: Log) -> State:
    """The move judged as ``found``: woods in line need an order test (failed: a pin),
    passing through a friend an interpolation test (passed, each removes a pin; failed: both
    pinned, and the mover goes only as far as 1" behind the friend, A26); then the unit
    stands at its destination and the move is drawn."""
    unit = state.unit(unit_id)
    state, unit = _woods_test(state, unit, found.terrain, log)
    if found.through is not None:
        friend, before = state.unit(found.through), unit
        passed, unit, friend = movement.interpenetrate(
            unit, friend, command_for(state, unit), dice=log.dice, options=state.options)
        state = with_units(state, unit, friend)
        if not passed:
            return _stopped_behind(state, unit, friend, found, log)
        state = state.with_extra(interpenetrated=state.extra.interpenetrated | {unit.id})
        log.add("move", f"{unit.name} passes its interpolation test{_unpinned(before, unit)} and "
                f"passes through {friend.name} at walking pace", RULE_INTERPENETRATION,
                unit.id, facts={"test": "interpolation", "result": "passed"})
    table = situations.table_of(state)
    if unit.id not in table.units:
        return state
    x, y, facing = found.to
    end = table.footprint(unit.id).moved_to(x, y, facing)
    path = (*found.path, end.centre) if found.path[-1] != end.centre else found.path
    moved = table.placed(end)
    if len(path) > 1:
        moved = moved.with_traces(*recent_traces(table), MoveTrace(unit.id, path))
    distance = sum(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
                   for a, b in itertools.pairwise(path))
    log.add("move", f"{unit.name} {verb} {distance:.1f} in. to ({end.x:.1f}, {end.y:.1f}), "
            f"facing {end.facing % 360:.0f}°"
            + (f" ({found.terrain})" if found.terrain is not Terrain.OPEN else ""),
            RULE_MOVEMENT, unit.id)
    return state.with_extra(table=moved)


BEHIND = 1.0
"""A unit failing its interpolation test stays 1" behind the front unit (Interpolation of
units)."""


def _unpinned(before: Unit, after: Unit) -> str:
    """How a passed test's removed pin is told ("" if the unit had none)."""
    return " (it loses a pin)" if after.pins < before.pins else ""


def _stopped_behind(state: State, unit: Unit, friend: Unit,
                    found: situations.MoveSituation, log: Log) -> State:
    """A failed interpolation test on a table: both units have their pin; the mover goes
    along its way only until it stands 1" behind the friend (where it stood, if it is
    already as close), keeping its facing (Interpolation of units; A26)."""
    table = situations.table_of(state)
    stop = found.start
    if unit.id in table.units and friend.id in table.units:
        stop = behind_friend(table, found, friend.id)
    moved = 0.0
    if stop.centre != found.start.centre:
        moved = math.dist(found.start.centre, stop.centre)
        placed = table.placed(stop)
        state = state.with_extra(table=placed.with_traces(
            *recent_traces(table), MoveTrace(unit.id, (found.start.centre, stop.centre))))
    log.add("move", f"{unit.name} fails its interpolation test: both it and {friend.name} "
            f"take a pin, and it stops 1\" behind {friend.name}"
            + (f" after {moved:.1f} in." if moved else ", where it stood"),
            RULE_INTERPENETRATION, unit.id,
            facts={"test": "interpolation", "result": "failed", "moved": round(moved, 2)})
    return state


def behind_friend(table: Table, found: situations.MoveSituation, friend_id: str) -> Footprint:
    """Where a mover failing its interpolation test stops (Interpolation of units): the
    furthest point of its way (``found.path``), facing as it started, before its footprint
    comes within 1" of the friend's; where it started if it is already within 1"."""
    start, goal = found.start, table.footprint(friend_id)

    def gap(x: float, y: float) -> float:
        return region_of(start.moved_to(x, y)).distance(goal)

    if gap(*start.centre) < BEHIND + 1e-6:
        return start
    x, y, _ = found.to
    path = found.path if found.path[-1] == (x, y) else (*found.path, (x, y))
    for a, b in itertools.pairwise(path):
        length = math.dist(a, b)
        steps = max(1, math.ceil(length / STEP))

        def at(t: float, a: Point = a, b: Point = b) -> Point:
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)

        low = 0.0  # a fraction of the leg where the mover is still clear
        for i in range(1, steps + 1):
            high = i / steps
            if gap(*at(high)) >= BEHIND:
                low = high
                continue
            for _ in range(30):  # between a clear sample and one too near
                mid = (low + high) / 2
                if gap(*at(mid)) >= BEHIND:
                    low = mid
                else:
                    high = mid
            return start.moved_to(*at(low))
    return start.moved_to(*path[-1])


STEP = 0.25
"""How finely a failed interpolation's way is searched for the point 1" behind the friend
(then found exactly between two samples)."""


# --- fire ------------------------------------------------------------------------------
def default_shot(unit: Unit) -> ShotFacts:
    """The candidates' range: half the weapon's range (no long range penalty)."""
    return _half_range(unit.weapon)


@functools.lru_cache(maxsize=32)
def _half_range(weapon: Weapon) -> ShotFacts:
    return ShotFacts(max(1, weapon.max_range // 2))


def candidates_fire(state: State) -> Iterator[Fire]:
    """Each acting unit (and each halted charger) at each enemy, at the default range; on a
    table, at each enemy that might stand in its weapon's range, with no facts: the check
    measures the range, arc and sight."""
    known = situation(state)
    halted = (state.unit(u) for u in sorted(state.extra.halted))
    shooters = list(known.ready.values()) + [u for u in halted if u.in_the_fight]  # as checked
    if state.extra.table is not None:
        table = situations.table_of(state)
        for unit in shooters:
            _, aimed = _targets(state, table, unit, known.enemies.get(unit.side, ()))
            yield from _fires(unit.id, aimed, NO_SHOT)
        return
    for unit in shooters:
        yield from _fires(unit.id, known.enemies.get(unit.side, ()), default_shot(unit))


def candidates_kept(table: Table, key: tuple[object, ...], work: Callable[[], T]) -> T:
    """What the candidates make of a unit (targets, advance bounds, advances, runs,
    charges), kept in the table's store under ``key`` (what, the unit's id and all else they
    read of the unit) and the footprints they read (all of them: ranges, arcs, the nearest
    enemy)."""
    return table.store("boltaction_acw: candidates").ask(
        (table.derived(situations.prints_of), *key), work)


def _targets(state: State, table: Table, unit: Unit, enemies: tuple[str, ...]
             ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The enemies that might stand in the unit's range (``within_range``) and of those,
    the ones not for certain outside its arc (``within_arc``): kept with the table."""
    def work() -> tuple[tuple[str, ...], tuple[str, ...]]:
        targets = tuple(within_range(state, unit, enemies))
        return targets, tuple(within_arc(state, unit, targets))

    return candidates_kept(table, ("targets", unit, enemies), work)


def within_range(state: State, unit: Unit, enemies: tuple[str, ...]) -> list[str]:
    """The enemies that might be in the weapon's range, told by the boxes round the units:
    the others stand too far away for any measure to bring them within it
    (``fire_problem`` refuses them all)."""
    if not shots(unit):
        return []
    close = situations.near(situations.table_of(state), unit.id, unit.weapon.max_range)
    return [t for t in enemies if t in close]


def within_arc(state: State, unit: Unit, targets: Iterable[str]) -> list[str]:
    """The targets not for certain outside the unit's front arc (all of them for
    skirmishers, who fire all round): ``fire_problem`` refuses the others."""
    if unit.skirmishing:
        return list(targets)
    return situations.in_arc_doubt(situations.table_of(state), unit.id, targets)


def refuse_outside_arc(state: State, action: object, shooter: Unit, target_id: str) -> None:
    """A shot at a target for certain outside the shooter's arc is refused before anything
    is measured (the refusal ``fire_problem`` would give after measuring)."""
    if not shooter.skirmishing and situations.outside_arc(
            situations.table_of(state), shooter.id, target_id):
        raise IllegalActionError(action, "only skirmishers fire outside the 45° front arc",
                                 RULE_SHOOTING)


@functools.lru_cache(maxsize=4096)
def _fires(unit_id: str, targets: tuple[str, ...], facts: ShotFacts) -> tuple[Fire, ...]:
    """The fire candidates of a unit, made once for each set of targets."""
    return tuple(Fire(unit_id, target, facts) for target in targets)


def check_fire(state: State, action: Fire) -> Measured:
    """Fire without moving at an enemy in range and arc (Orders, 1; Shooting; Ranges); a
    charger halted by fire may still fire, at -1 (A12)."""
    known = situation(state)
    if action.unit_id in state.extra.halted:
        check_group_ready(state, action)
        unit = state.unit(action.unit_id)
        if not unit.in_the_fight:
            raise IllegalActionError(action, f"{unit.name} is out of the fight", RULE_FIRE)
    else:
        unit = check_actor(state, action, action.unit_id, known)
    target = check_enemy(state, action, unit, action.target_id, RULE_SHOOTING, known)
    facts, measured = action.facts, None
    if state.extra.table is not None:
        refuse_measured(action, facts != NO_SHOT)
        refuse_outside_arc(state, action, unit, target.id)
        found = table_shot(state, action, unit, target)
        facts, measured = shot_facts(found), found.distance
    problem = fire_problem(unit, target, facts)
    if problem:
        raise IllegalActionError(action, problem, RULE_SHOOTING)
    return Measured(facts, measured)


def shot_facts(found: situations.ShotSituation) -> ShotFacts:
    """The facts of a shot the table allows."""
    assert found.facts is not None
    return found.facts


def apply_fire(state: State, action: Fire, log: Log, ruling: Measured) -> State:
    """The fire order: an order test if the unit is pinned, then the shooting attack at the
    range the check measured."""
    extra = state.extra
    facts = action.facts if ruling.shot is None else ruling.shot
    measured = ruling.distance
    if action.unit_id in extra.halted:
        new = state.with_extra(halted=extra.halted - {action.unit_id})
        firing = Firing(after_failed_charge=True,
                        interpenetrated=action.unit_id in extra.interpenetrated)
        return fire_at(new, action.unit_id, action.target_id, facts, firing, log, measured)
    passed, new = take_order(state, state.unit(action.unit_id), log, "fire",
                             aggressive=True)
    if not passed or new.unit(action.unit_id).lost:
        return new
    firing = Firing(interpenetrated=action.unit_id in extra.interpenetrated)
    return fire_at(new, action.unit_id, action.target_id, facts, firing, log, measured)


# --- fire and advance --------------------------------------------------------------------
def candidates_advance(state: State) -> Iterator[Advance | Deferred[Advance]]:
    """Each acting unit advancing in the open firing at each enemy or not, or through woods
    without firing; cavalry mounting or dismounting; units in line through each friendly
    unit that stands still for it (in the fight, not locked in melee). (Fire into woods or
    through a friend is as legal; it is not offered by default.)"""
    known = situation(state)
    if state.extra.table is not None:
        yield from _table_advances(state, known)
        return
    for unit in movers(state, known):
        mount = Mount.NONE
        if unit.kind is UnitType.CAVALRY:
            mount = Mount.DISMOUNT if unit.mounted else Mount.REMOUNT
        friends = (known.friends.get(unit.side, ()) if unit.formation is Formation.LINE
                   else ())
        yield from _advances(unit.id, mount, known.enemies.get(unit.side, ()), friends,
                             default_shot(unit))


@functools.lru_cache(maxsize=4096)
def _advances(unit_id: str, mount: Mount, targets: tuple[str, ...], friends: tuple[str, ...],
              facts: ShotFacts) -> tuple[Advance, ...]:
    """The fire and advance candidates of a unit, made once for each set of targets and
    friends (``mount``: the cavalry's mount or dismount, NONE for others)."""
    out: list[Advance] = []
    mounts = (Mount.NONE,) if mount is Mount.NONE else (Mount.NONE, mount)
    for how in mounts:
        out.append(Advance(unit_id, Terrain.OPEN, None, None, facts, how))
        out.extend(Advance(unit_id, Terrain.OPEN, None, target, facts, how)
                   for target in targets)
        out.append(Advance(unit_id, Terrain.WOODS, None, None, facts, how))
    out.extend(Advance(unit_id, through=friend, facts=facts)
               for friend in friends if friend != unit_id)
    return tuple(out)


def _table_advances(state: State, known: Situation) -> Iterator[Deferred[Advance]]:
    """On a table: each acting unit to each move offered (A28), firing first at each enemy
    that might stand in its weapon's range or not; cavalry mounting or dismounting where it
    stands, firing or not (dismounting cavalry fire dismounted, in skirmish order, all
    round), or mounting or dismounting and then moving to each of the fixed moves of the
    unit as it then is (Orders, 2). Proposals: the check judges the move and measures the
    shot. One group a unit, its bound told by its targets and the fixed moves
    (``_advance_bound``), its advances (the closing move found on the table) worked out
    when random play draws it."""
    table = situations.table_of(state)
    for unit in movers(state, known):
        enemies = known.enemies.get(unit.side, ())
        yield Deferred(_advance_bound(state, table, unit, enemies),
                       functools.partial(_kept_advances, state, table, unit, enemies))


def _advance_bound(state: State, table: Table, unit: Unit, enemies: tuple[str, ...]) -> int:
    """The most advances ``_unit_advances`` offers the unit: each fixed move and a closing
    move, at each target or none; cavalry mounting or dismounting at each target or none.
    Kept with the table (``candidates_kept``)."""
    def work() -> int:
        targets, aimed = _targets(state, table, unit, enemies)
        fixed = len(situations.fixed_moves(unit, movement.Pace.ADVANCE))
        mounts = 0
        if unit.kind is UnitType.CAVALRY:  # firing or moving as it mounts or dismounts
            mount = Mount.DISMOUNT if unit.mounted else Mount.REMOUNT
            mounts = len(targets) + 1 + len(situations.fixed_moves(
                _after_mount(unit, mount), movement.Pace.ADVANCE))
        return (fixed + 1) * (len(aimed) + 1) + mounts

    return candidates_kept(table, ("bound", unit, enemies), work)


def _kept_advances(state: State, table: Table, unit: Unit, enemies: tuple[str, ...]
                   ) -> tuple[Advance, ...]:
    """``_unit_advances``, made once a table (``candidates_kept``)."""
    key = ("advances", unit.id, unit.kind, unit.formation, unit.mounted,
           unit.weapon.max_range, shots(unit) > 0, enemies)
    return candidates_kept(table, key, lambda: _unit_advances(state, table, unit, enemies))


def _unit_advances(state: State, table: Table, unit: Unit, enemies: tuple[str, ...]
                   ) -> tuple[Advance, ...]:
    """``_table_advances`` of one unit (made once a table: ``candidates_kept``)."""
    targets, aimed = _targets(state, table, unit, enemies)
    moves = situations.offered_moves(state, unit.id, movement.Pace.ADVANCE)
    fixed = situations.fixed_moves(unit, movement.Pace.ADVANCE)  # the first of them
    out = [*_advances_to(unit.id, fixed, aimed), *_advances_to(unit.id, moves[len(fixed):], aimed)]
    if unit.kind is UnitType.CAVALRY:  # firing dismounted (all round) or before remounting
        mount = Mount.DISMOUNT if unit.mounted else Mount.REMOUNT
        out.append(Advance(unit.id, mount=mount))
        out.extend(Advance(unit.id, target_id=target, mount=mount) for target in targets)
        # or mounting / dismounting and moving (Orders, 2), as the unit then moves
        out.extend(Advance(unit.id, mount=mount, move=to)
                   for to in situations.fixed_moves(_after_mount(unit, mount),
                                                    movement.Pace.ADVANCE))
    return tuple(out)


def _advances_to(unit_id: str, moves: tuple[Move, ...], targets: tuple[str, ...]
                 ) -> tuple[Advance, ...]:
    """The advances of a unit to each of ``moves``, firing at each of ``targets`` or not
    (kept with the table by the caller; no longer kept process-wide as well: one call in
    five found its answer there, and play at 500 units a side ran no faster with it,
    issue 28)."""
    return tuple(Advance(unit_id, target_id=target, move=to)
                 for to in moves for target in (None, *targets))


def _after_mount(unit: Unit, mount: Mount) -> Unit:
    if mount is Mount.DISMOUNT:
        return attrs.evolve(unit, mounted=False, formation=Formation.SKIRMISH)
    if mount is Mount.REMOUNT:
        return attrs.evolve(unit, mounted=True, formation=Formation.LINE)
    return unit


def check_advance(state: State, action: Advance) -> Measured:
    """Fire and advance (Orders, 2): terrain the unit may cross, a stationary friendly unit
    to pass through only for a unit in line at walking pace, cavalry mounting or dismounting
    (remounting within 6" of the horse holders), and fire on the move at an enemy in range
    (dismounting cavalry fire dismounted, remounting cavalry fire before they remount)."""
    known = situation(state)
    unit = check_actor(state, action, action.unit_id, known)
    check_moves(state, action, unit)
    problem = movement.terrain_problem(unit, action.terrain)
    if problem:
        raise IllegalActionError(action, problem, RULE_TERRAIN)
    if action.mount is not Mount.NONE:
        if unit.kind is not UnitType.CAVALRY:
            raise IllegalActionError(action, "only cavalry mount or dismount", RULE_ADVANCE)
        if (action.mount is Mount.DISMOUNT) != unit.mounted:
            raise IllegalActionError(
                action, f"{unit.name} is {'mounted' if unit.mounted else 'dismounted'}",
                RULE_ADVANCE)
        if action.mount is Mount.REMOUNT and not action.near_holders:
            raise IllegalActionError(action, "remounting needs the horse holders within 6\"",
                                     RULE_UNIT_SIZES)
        away = holders_distance(state, unit.id)
        if (action.mount is Mount.REMOUNT and away is not None
                and away > HOLDERS_REACH + 1e-6):
            raise IllegalActionError(action, f"the horse holders are {away:.1f}\" away: "
                                     "remounting needs them within 6\"", RULE_UNIT_SIZES)
    if action.through is not None:
        friend = state.unit(action.through)
        if friend.side != unit.side or friend.id == unit.id or not friend.in_the_fight:
            raise IllegalActionError(action, f"{friend.name} is not a friendly unit to pass "
                                     "through", RULE_INTERPENETRATION)
        if friend.id in engaged_ids(state):
            raise IllegalActionError(action, f"{friend.name} is locked in melee: it is not "
                                     "a stationary unit to pass through",
                                     RULE_INTERPENETRATION)
        if unit.formation is not Formation.LINE:
            raise IllegalActionError(action, "only units in line pass through another",
                                     RULE_INTERPENETRATION)
        if action.mount is not Mount.NONE:
            raise IllegalActionError(action, "a unit passing through does not also mount or "
                                     "dismount", RULE_INTERPENETRATION)
    table = state.extra.table is not None
    moves = table and (action.move is not None or action.mount is Mount.NONE)
    if table:
        refuse_measured(action, action.terrain is not Terrain.OPEN or action.through is not None
                        or action.facts != NO_SHOT)
        if action.mount is not Mount.NONE and action.move is not None and (
                action.target_id is not None):
            raise IllegalActionError(action, "cavalry dismount and fire, fire and remount, "
                                     "or mount / dismount and move: not fire and move too",
                                     RULE_ADVANCE)
        if action.mount is not Mount.NONE:
            problem = situations.reform_problem(state, _after_mount(unit, action.mount))
            if problem:
                raise IllegalActionError(
                    action, problem.replace("the move ends", f"it would {action.mount} and end"),
                    RULE_ADVANCE)
    elif action.move is not None:
        raise IllegalActionError(action, "a destination needs a table: without one the move "
                                 "names its terrain", RULE_TABLE)
    # the shot before the move: on a table the unit fires first, and a shot once measured
    # answers every move of the unit
    facts: ShotFacts | None = None
    measured = found = None
    if action.target_id is not None:
        target = check_enemy(state, action, unit, action.target_id, RULE_SHOOTING, known)
        shooter = unit if action.mount is Mount.REMOUNT else _after_mount(unit, action.mount)
        facts = action.facts
        if table:
            refuse_outside_arc(state, action, shooter, target.id)
            shot = table_shot(state, action, unit, target)
            facts, measured = shot_facts(shot), shot.distance
        problem = fire_problem(shooter, target, facts)
        if problem:
            raise IllegalActionError(action, problem, RULE_SHOOTING)
    if moves:
        if action.mount is Mount.NONE:
            found = table_move(state, action, unit, movement.Pace.ADVANCE, action.move)
        else:  # mount or dismount, then move as the unit now is (A28)
            after = _after_mount(unit, action.mount)
            found = table_move(with_reformed(state, after), action, after,
                               movement.Pace.ADVANCE, action.move)
    return Measured(facts, measured, found)


def apply_advance(state: State, action: Advance, log: Log, ruling: Measured) -> State:
    """Move, passing through a friend with an interpolation test and into woods in line with
    an order test, mount or dismount, and fire at -1 on the move."""
    if state.extra.table is not None:
        return _advance_on_table(state, action, log, ruling)
    aggressive = action.target_id is not None
    passed, new = take_order(state, state.unit(action.unit_id), log, "fire and advance",
                             aggressive=aggressive)
    unit = new.unit(action.unit_id)
    if not passed or unit.lost:
        return new
    if action.mount is Mount.REMOUNT and action.target_id is not None:
        new = fire_at(new, unit.id, action.target_id, action.facts, _moving(new, unit.id), log)
        aggressive = False
        unit = new.unit(unit.id)
        if not unit.in_the_fight:
            return new
    if action.mount is not Mount.NONE:
        unit = _after_mount(unit, action.mount)
        log.add("mount", f"{unit.name} {action.mount}s", RULE_ADVANCE, unit.id)
        new = with_units(new, unit)
    new = move(new, unit.id, movement.Pace.ADVANCE, action.terrain, log, action.through)
    if aggressive and action.target_id is not None and new.unit(unit.id).in_the_fight:
        new = fire_at(new, unit.id, action.target_id, action.facts, _moving(new, unit.id), log)
    return new


def _advance_on_table(state: State, action: Advance, log: Log, ruling: Measured) -> State:
    """On a table: dismount, fire at -1 from where the unit stands, remount, then advance
    to the destination (A28); mounting or dismounting and moving, the unit moves as it
    now is (mounted 9", dismounted 6"), from where its new footprint is laid (A33)."""
    aggressive = action.target_id is not None
    facts = action.facts if ruling.shot is None else ruling.shot
    measured = ruling.distance
    found = ruling.move if action.move is not None else None  # mounted or dismounted
    passed, new = take_order(state, state.unit(action.unit_id), log, "fire and advance",
                             aggressive=aggressive)
    unit = new.unit(action.unit_id)
    if not passed or unit.lost:
        return new
    if action.mount is Mount.DISMOUNT:
        unit = _after_mount(unit, action.mount)
        log.add("mount", f"{unit.name} dismounts", RULE_ADVANCE, unit.id)
        table = situations.table_of(new)
        stood = table.footprint(unit.id).centre if unit.id in table.units else None
        new = with_reformed(new, unit)
        if stood is not None:  # the horses wait where its centre stood (A32)
            x, y = stood
            holders = tuple(h for h in new.extra.holders if h[0] != unit.id)
            new = new.with_extra(holders=(*holders, (unit.id, x, y)))
    if action.target_id is not None:
        new = fire_at(new, unit.id, action.target_id, facts, _moving(new, unit.id), log,
                      measured)
        if not new.unit(unit.id).in_the_fight:
            return new
    if action.mount is Mount.REMOUNT:
        unit = _after_mount(new.unit(unit.id), action.mount)
        log.add("mount", f"{unit.name} remounts", RULE_ADVANCE, unit.id)
        new = with_reformed(new, unit)
        new = new.with_extra(holders=tuple(h for h in new.extra.holders if h[0] != unit.id))
    if found is None:
        return new
    return move_on_table(new, unit.id, found, "advances", log)


def _moving(state: State, unit_id: str) -> Firing:
    return Firing(moving=True, interpenetrated=unit_id in state.extra.interpenetrated)


def move(state: State, unit_id: str, pace: movement.Pace, terrain: movement.Terrain,
         log: Log, through: str | None = None) -> State:
    """A move over ``terrain``: woods in line need an order test (failed: a pin); passing
    through a friend needs one (failed: both pinned, the mover 1" behind) (Terrain Movement
    Modifiers; Interpolation of units)."""
    unit = state.unit(unit_id)
    inches = movement.move_distance(unit, pace, terrain)
    state, unit = _woods_test(state, unit, terrain, log)
    if through is not None:
        friend, before = state.unit(through), unit
        passed, unit, friend = movement.interpenetrate(
            unit, friend, command_for(state, unit), dice=log.dice, options=state.options)
        state = with_units(state, unit, friend)
        if passed:
            extra = state.extra
            state = state.with_extra(
                interpenetrated=extra.interpenetrated | {unit.id})
            log.add("move", f"{unit.name} passes its interpolation test"
                    f"{_unpinned(before, unit)} and passes through {friend.name} at walking "
                    "pace", RULE_INTERPENETRATION, unit.id,
                    facts={"test": "interpolation", "result": "passed"})
        else:
            log.add("move", f"{unit.name} fails to pass through {friend.name}: both take a "
                    "pin and it stays 1\" behind", RULE_INTERPENETRATION, unit.id,
                    facts={"test": "interpolation", "result": "failed"})
            return state
    log.add("move", f"{unit.name} moves up to {inches}\" ({pace}, {terrain})", RULE_MOVEMENT,
            unit.id)
    return state


# --- run -----------------------------------------------------------------------------------
def candidates_run(state: State) -> Iterator[Run | Deferred[Run]]:
    """Each acting unit running in the open or through woods; on a table, to each move
    offered (A28), judged by the check: one group a unit, at most its fixed moves and a
    closing move, worked out when random play draws it."""
    known = situation(state)
    if state.extra.table is not None:
        for unit in movers(state, known):
            yield Deferred(_run_bound(unit), functools.partial(_kept_runs, state, unit))
        return
    for unit in movers(state, known):
        for terrain in TERRAINS:
            yield Run(unit.id, terrain)


@functools.lru_cache(maxsize=4096)
def _run_bound(unit: Unit) -> int:
    """The most runs a unit is offered: its fixed moves and a closing move."""
    return len(situations.fixed_moves(unit, movement.Pace.RUN)) + 1


def _kept_runs(state: State, unit: Unit) -> tuple[Run, ...]:
    """The runs of a unit to each move offered, made once a table (``candidates_kept``)."""
    key = ("runs", unit.id, unit.kind, unit.formation, unit.mounted)
    return candidates_kept(situations.table_of(state), key, lambda: _runs_to(
        unit.id, situations.offered_moves(state, unit.id, movement.Pace.RUN)))


def _runs_to(unit_id: str, moves: tuple[Move, ...]) -> tuple[Run, ...]:
    """The runs of a unit to each of ``moves`` (kept with the table by the caller; not
    process-wide as well, as ``_advances_to``)."""
    return tuple(Run(unit_id, move=to) for to in moves)


def check_run(state: State, action: Run) -> Measured:
    """Run at double speed (Orders, 3) over terrain the unit may cross (on a table, to a
    destination it reaches: the move judged is the ruling)."""
    unit = check_actor(state, action, action.unit_id)
    check_moves(state, action, unit)
    if state.extra.table is not None:
        refuse_measured(action, action.terrain is not Terrain.OPEN)
        return Measured(move=table_move(state, action, unit, movement.Pace.RUN, action.move))
    if action.move is not None:
        raise IllegalActionError(action, "a destination needs a table: without one the move "
                                 "names its terrain", RULE_TABLE)
    problem = movement.terrain_problem(unit, action.terrain)
    if problem:
        raise IllegalActionError(action, problem, RULE_TERRAIN)
    return NOTHING_MEASURED


def apply_run(state: State, action: Run, log: Log, ruling: Measured) -> State:
    """Run: no fire (on a table, to the destination the check judged)."""
    found = ruling.move
    passed, new = take_order(state, state.unit(action.unit_id), log, "run")
    if not passed or new.unit(action.unit_id).lost:
        return new
    if found is not None:
        return move_on_table(new, action.unit_id, found, "runs", log)
    return move(new, action.unit_id, movement.Pace.RUN, action.terrain, log)


# --- change formation -----------------------------------------------------------------------
def formations_for(unit: Unit) -> tuple[Formation, ...]:
    """The formations a unit may change to (Orders, 4): line and column; limbered and
    unlimbered; skirmishers and dismounted cavalry have none (mounting is fire and advance)."""
    if unit.skirmishing or unit.kind is UnitType.WAGON:
        return ()
    allowed = ALLOWED_FORMATIONS[unit.kind]
    return tuple(f for f in allowed if f is not unit.formation and f is not Formation.SKIRMISH)


def candidates_change_formation(state: State) -> Iterator[ChangeFormation]:
    """Each acting unit to each other formation."""
    for unit in actors(state):
        yield from _formation_changes(unit)


@functools.lru_cache(maxsize=4096)
def _formation_changes(unit: Unit) -> tuple[ChangeFormation, ...]:
    """The unit to each other formation, made once for each unit."""
    return tuple(ChangeFormation(unit.id, formation) for formation in formations_for(unit))


def check_change_formation(state: State, action: ChangeFormation) -> None:
    """Line to column and back, limber or unlimber (Orders, 4)."""
    unit = check_actor(state, action, action.unit_id)
    if action.formation not in formations_for(unit):
        allowed = ", ".join(map(str, formations_for(unit))) or "none"
        raise IllegalActionError(
            action, f"{unit.name} ({unit.kind}, {unit.formation}) may change to: {allowed}",
            RULE_FORMATION)
    if state.extra.table is not None:
        problem = situations.reform_problem(state, attrs.evolve(unit, formation=action.formation))
        if problem:
            raise IllegalActionError(action, problem.replace("the move ends", "it would end"),
                                     RULE_FORMATION)


def apply_change_formation(state: State, action: ChangeFormation, log: Log) -> State:
    """No advance and no fire."""
    passed, new = take_order(state, state.unit(action.unit_id), log,
                             f"change formation to {action.formation}")
    unit = new.unit(action.unit_id)
    if not passed or unit.lost:
        return new
    log.add("formation", f"{unit.name} forms {action.formation}", RULE_FORMATION, unit.id)
    return with_reformed(new, attrs.evolve(unit, formation=action.formation))


# --- rally and down ---------------------------------------------------------------------
def candidates_rally(state: State) -> Iterator[Rally]:
    """Each acting unit with pins."""
    for unit in actors(state):
        yield _rally(unit.id)


@functools.lru_cache(maxsize=4096)
def _rally(unit_id: str) -> Rally:
    """A unit's rally, made once."""
    return Rally(unit_id)


def check_rally(state: State, action: Rally) -> None:
    """Rally: only a unit with pins has any to lose (Orders, 5)."""
    unit = check_actor(state, action, action.unit_id)
    if not unit.pins:
        raise IllegalActionError(action, f"{unit.name} has no pins to rally off", RULE_RALLY)


def apply_rally(state: State, action: Rally, log: Log) -> State:
    """The order test (the unit is pinned), then D6 pins lost."""
    passed, new = take_order(state, state.unit(action.unit_id), log, "rally")
    unit = new.unit(action.unit_id)
    if not passed or unit.lost:
        return new
    after = rally(unit, dice=log.dice)
    log.add("rally", f"{unit.name} rallies: {unit.pins} pins to {after.pins}", RULE_RALLY,
            unit.id)
    return with_units(new, after)


def candidates_down(state: State) -> Iterator[Down]:
    """Each acting unit."""
    for unit in actors(state):
        yield _down(unit.id)


@functools.lru_cache(maxsize=4096)
def _down(unit_id: str) -> Down:
    """A unit going down, made once."""
    return Down(unit_id)


def check_down(state: State, action: Down) -> None:
    """Mounted cavalry, limbered artillery and wagons cannot go down (Orders, 6)."""
    unit = check_actor(state, action, action.unit_id)
    if not unit.may_go_down:
        raise IllegalActionError(action, f"{unit.name} cannot go down", RULE_DOWN)


def apply_down(state: State, action: Down, log: Log) -> State:
    """The unit goes down until its next order: -1 to be hit."""
    passed, new = take_order(state, state.unit(action.unit_id), log, "down")
    unit = new.unit(action.unit_id)
    if not passed or unit.lost:
        return new
    log.add("down", f"{unit.name} goes down", RULE_DOWN, unit.id)
    return with_units(new, revise(unit, down=True))


# --- commanders ----------------------------------------------------------------------------
def candidates_move_commander(state: State
                              ) -> Iterator[MoveCommander | Deferred[MoveCommander]]:
    """The active brigade's commander and the army commander, to each unit they may join;
    on a table, each commander's as one group of at most the units of his command, the
    rides measured when random play draws it."""
    side = situation(state).side
    if side is None or state.extra.routs or untested_routers(state):
        return
    table = state.extra.table
    for leader in _may_ride(state, side):
        joins = _joins(state, leader, side)
        if table is None:
            yield from joins
        elif joins:
            yield Deferred(len(joins), functools.partial(_within_ride, table, leader.id,
                                                         side, joins))


def _may_ride(state: State, side: str) -> Iterator[Commander]:
    """The commanders of ``side`` a ride is offered to: the active brigade's commander and
    the army commanders, those not moved this turn (``_rider`` refuses the others: a
    brigade commander moves with his own brigade's die, A14). Not offering the others saves
    measuring every ride of every brigade commander of a large army (issue 28)."""
    group = state.extra.group
    moved = state.extra.commanders_moved
    for leader in state.commanders:
        if leader.side != side or leader.id in moved:
            continue
        if leader.rank is Rank.BRIGADE and group != BRIGADE + leader.brigade:
            continue
        yield leader


def _joins(state: State, leader: Commander, side: str) -> tuple[MoveCommander, ...]:
    """The commander to each unit of his command he does not stand with, however far."""
    brigade = leader.brigade if leader.rank is Rank.BRIGADE else None
    return _rides_to(leader.id, tuple(
        unit.id for unit in state.units
        if unit.side == side and unit.in_the_fight and unit.id != leader.with_unit
        and brigade in (None, unit.brigade)))


@functools.lru_cache(maxsize=256)
def _rides_to(commander_id: str, unit_ids: tuple[str, ...]) -> tuple[MoveCommander, ...]:
    """The commander to each of these units, made once for each set of units. An army
    commander's set is his whole army (1,000 joins at 1,000 units a side): at most 256 sets
    are kept, 181 were made in 1,500 random steps at 500 units a side (issue 28)."""
    return tuple(MoveCommander(commander_id, unit_id) for unit_id in unit_ids)


def _within_ride(table: Table, commander_id: str, side: str,
                 joins: tuple[MoveCommander, ...]) -> tuple[MoveCommander, ...]:
    """Those of ``joins`` the commander can ride to (``out_of_ride``)."""
    far = out_of_ride(table, commander_id, side)
    return tuple(join for join in joins if join.unit_id not in far)


def out_of_ride(table: Table, commander_id: str, side: str) -> frozenset[str]:
    """The units of ``side`` on the table the commander cannot ride to (``ride_problem``),
    none if he is not on it: kept with the table."""
    def work() -> frozenset[str]:
        far: list[str] = []
        mark = table.derived(marks_by_id).get(commander_id)
        if mark is not None:
            x, y = mark_point(table, mark)  # once, not once a unit (issue 28)
            far = [f.unit_id for f in table.footprints
                   if f.side == side and _beyond_ride(math.hypot(f.x - x, f.y - y))]
        return frozenset(far)

    return _rides_kept(table, ("too far", commander_id, side), work)


def _rides_kept(table: Table, key: tuple[object, ...], work: Callable[[], T]) -> T:
    """A commander's rides measured, kept in the table's store under ``key`` and what they
    read: the footprints and the commanders' marks."""
    return table.store("boltaction_acw: rides").ask(
        (table.derived(situations.prints_of), table.commanders, *key), work)


def _beyond_ride(distance: float | None) -> bool:
    """Whether a ride this long (None: not measured) is more than a commander's move."""
    return distance is not None and distance > COMMANDER_MOVE + 1e-6


COMMANDER_MOVE = 24.0
"""A commander moves 24" (Movement)."""


def ride(state: State, commander_id: str, unit_id: str) -> float | None:
    """On a table, how far the commander rides to join the unit: from where he stands to
    its centre, where he will be (None: no table, or he has no mark on it) (A14)."""
    table = state.extra.table
    if table is None:
        return None
    def work() -> float | None:
        mark = table.derived(marks_by_id).get(commander_id)
        found = table.units.get(unit_id)
        if mark is None or found is None:
            return None
        x, y = mark_point(table, mark)  # ``Table.ride``, his mark from the table's index
        return math.hypot(found.x - x, found.y - y)

    return _rides_kept(table, ("ride", commander_id, unit_id), work)


def ride_problem(state: State, commander_id: str, unit_id: str) -> str:
    """Why the commander cannot ride to the unit on the table ("" if he can): it stands
    more than his 24" move away."""
    distance = ride(state, commander_id, unit_id)
    if _beyond_ride(distance):
        return f"{unit_id} is {distance:.1f}\" away: a commander moves 24\""
    return ""


def check_move_commander(state: State, action: MoveCommander) -> None:
    """A commander moves 24" once a turn, the brigade commander with his brigade's die, the
    army commander with any of his side's, to be with a unit of his command (A14)."""
    leader = _rider(state, action, action.commander_id)
    known = situation(state)
    unit = known.units.get(action.unit_id) or state.unit(action.unit_id)
    side = known.side
    if unit.side != side or not unit.in_the_fight or unit.id == leader.with_unit:
        raise IllegalActionError(action, f"{unit.name} is not a friendly unit to join",
                                 RULE_MOVEMENT)
    if leader.rank is Rank.BRIGADE and unit.brigade != leader.brigade:
        raise IllegalActionError(action, f"{unit.name} is not of {leader.name}'s brigade",
                                 RULE_MOVEMENT)
    problem = ride_problem(state, leader.id, unit.id)
    if problem:
        raise IllegalActionError(action, problem, RULE_MOVEMENT)


def _rider(state: State, action: object, commander_id: str) -> Commander:
    """The commander, if he may ride now: of the acting side, the brigade commander with his
    brigade's die, once a turn, after the brigade's routing units have tested (A14, A20)."""
    group = check_group_ready(state, action)
    check_routers_tested(state, action)
    leader = state.commander(commander_id)
    if leader.side != situation(state).side:
        raise IllegalActionError(action, f"{leader.name} is not of the acting side", RULE_TURN)
    if leader.rank is Rank.BRIGADE and group != "brigade:" + leader.brigade:
        raise IllegalActionError(action, f"{leader.name} moves with his own brigade's die",
                                 RULE_TURN)
    if leader.id in state.extra.commanders_moved:
        raise IllegalActionError(action, f"{leader.name} has moved this turn", RULE_MOVEMENT)
    return leader


def apply_move_commander(state: State, action: MoveCommander, log: Log) -> State:
    """The commander rides to the unit (24")."""
    leader = state.commander(action.commander_id)
    unit = state.unit(action.unit_id)
    distance = ride(state, leader.id, unit.id)
    how = "" if distance is None else f" ({distance:.1f} in.)"
    log.add("commander", f"{leader.name} rides to {unit.name}{how}", RULE_MOVEMENT, leader.id)
    new = state.with_commanders(attrs.evolve(leader, with_unit=unit.id))
    extra = new.extra
    new = new.with_extra(commanders_moved=extra.commanders_moved | {leader.id})
    table = extra.table
    if distance is not None and table is not None:
        mark = table.commander(leader.id)
        moved = table.with_commanders(attrs.evolve(mark, attached_to=unit.id))
        new = new.with_extra(table=(moved))
    return new


def candidates_ride_to(state: State) -> Iterator[Deferred[RideTo]]:
    """On a table, the active brigade's commander and the army commander to the points a
    player sends a commander to (``ride_points``), each commander's as one group worked out
    when random play draws it."""
    side = situation(state).side
    table = state.extra.table
    if table is None or side is None or state.extra.routs or untested_routers(state):
        return
    for leader in _may_ride(state, side):
        command = tuple(uid for uid in (*(join.unit_id for join in _joins(state, leader, side)),
                                        leader.with_unit) if uid is not None and uid in table.units)
        yield Deferred(len(FRONT_RIDES) + len(command), functools.partial(
            _rides, table, leader.id, command))


FRONT_RIDES = (6.0, 12.0, 24.0)
"""How far a commander is offered to ride towards the enemy (A14)."""


def _rides(table: Table, commander_id: str, command: tuple[str, ...]) -> tuple[RideTo, ...]:
    """The rides to ``ride_points``, kept with the table: random play draws the army
    commander's group in state after state on the same table (issue 28)."""
    return _rides_kept(table, ("rides to", commander_id, command), lambda: tuple(
        RideTo(commander_id, x, y) for x, y in ride_points(table, commander_id, command)))


def ride_points(table: Table, commander_id: str, command: tuple[str, ...]
                ) -> tuple[tuple[float, float], ...]:
    """The points a player sends a commander to (A14): 6", 12" and 24" straight towards the
    nearest enemy unit's centre (those short of it), and, for each unit of his ``command``,
    halfway between its centre and the nearest other one's, where he helps both. Whether he
    may ride there is ``ride_to_problem``'s."""
    mark = mark_of(table, commander_id)
    x, y = mark_point(table, mark)
    side = mark.side
    enemies = [f.centre for f in table.footprints if f.side != side]
    points: list[tuple[float, float]] = []
    if enemies:
        ex, ey = min(enemies, key=lambda c: math.hypot(c[0] - x, c[1] - y))
        far = math.hypot(ex - x, ey - y)
        points += [(x + (ex - x) * step / far, y + (ey - y) * step / far)
                   for step in FRONT_RIDES if step < far]
    centres = [table.footprint(uid).centre for uid in command]
    if len(centres) > 1:
        for (ux, uy), (nx, ny) in zip(centres, nearest_others(centres), strict=True):
            points.append(((ux + nx) / 2, (uy + ny) / 2))
    return tuple(dict.fromkeys(points))


_ROWS = 128
"""``nearest_others`` takes this many points (in order across the table) at a time."""


def nearest_others(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """For each of ``points``, the nearest of the others (the first of them in order at the
    least ``math.hypot`` distance); none with fewer than two points. The army commander's
    command is a whole army (issue 28): the points are taken in order across the table a
    block at a time, and each block is compared only with the points across the table from
    it by no more than the distance from each of its points to its neighbour across (its
    nearest is no further); the squared distances (numpy) leave the few points within a
    hair of the least, and those are measured as one point at a time would be, so the
    answer is that of the plain loop."""
    count = len(points)
    if count < 2:
        return []
    if count <= _ROWS // 8:  # a brigade: the plain loop costs less than asking numpy
        return [min(points[:i] + points[i + 1:],
                    key=lambda c: math.hypot(c[0] - ux, c[1] - uy))
                for i, (ux, uy) in enumerate(points)]
    xy = np.asarray(points, dtype=float)
    order = np.argsort(xy[:, 0], kind="stable")
    across = xy[order, 0]
    step = np.hypot(*(xy[order[1:]] - xy[order[:-1]]).T)  # to the next point across
    bound = np.minimum(np.append(step, np.inf), np.insert(step, 0, np.inf))
    bound = bound * (1 + 1e-9) + 1e-9
    out: list[tuple[float, float] | None] = [None] * count
    for first in range(0, count, _ROWS):
        rows = order[first:first + _ROWS]
        reach = float(bound[first:first + _ROWS].max())
        lo = int(np.searchsorted(across, across[first] - reach, "left"))
        hi = int(np.searchsorted(across, across[min(first + _ROWS, count) - 1] + reach,
                                 "right"))
        others = np.sort(order[lo:hi])
        squared = ((xy[rows][:, None, :] - xy[others][None, :, :]) ** 2).sum(axis=2)
        squared[others[None, :] == rows[:, None]] = np.inf  # not itself
        least = squared.min(axis=1, keepdims=True)
        close = squared <= least * (1 + 1e-9) + 1e-12
        for row, index in enumerate(rows.tolist()):
            ux, uy = points[index]
            near = [points[j] for j in others[close[row]].tolist()]
            out[index] = min(near, key=lambda c: math.hypot(c[0] - ux, c[1] - uy))
    return [point for point in out if point is not None]


def check_ride_to(state: State, action: RideTo) -> None:
    """A commander rides 24" once a turn, as he does to join a unit (A14), on a table to a
    point of it (``ride_to_problem``)."""
    leader = _rider(state, action, action.commander_id)
    if state.extra.table is None:
        raise IllegalActionError(action, "without a table a commander rides to a unit (A14)",
                                 RULE_MOVEMENT)
    problem = ride_to_problem(state.extra.table, leader.id, action.x, action.y)
    if problem:
        raise IllegalActionError(action, problem, RULE_MOVEMENT)


def ride_to_problem(table: Table, commander_id: str, x: float, y: float) -> str:
    """Why the commander cannot ride to (x, y) ("" if he can): it is off the table, where he
    stands, more than his 24" straight away (a rider, no terrain slows him), within 1" of an
    enemy unit (where every move ends, A26) or beyond one, his way through it (a move
    passes through no enemy, A26)."""
    if not (0.0 <= x <= table.width and 0.0 <= y <= table.depth):
        return f"({x:.1f}, {y:.1f}) is off the table"
    mark = mark_of(table, commander_id)
    here = mark_point(table, mark)
    distance = math.dist(here, (x, y))
    if distance < 1e-6:
        return f"{commander_id} stands at ({x:.1f}, {y:.1f})"
    if _beyond_ride(distance):
        return f"({x:.1f}, {y:.1f}) is {distance:.1f}\" away: a commander moves 24\""
    side = mark.side
    enemies = [f for f in table.footprints if f.side != side]
    if not enemies:
        return ""
    near = gaps((x, y), enemies) < situations.KEEP_OFF - 1e-6
    if near.any():
        return (f"({x:.1f}, {y:.1f}) is within 1\" of the enemy "
                f"({enemies[int(near.argmax())].unit_id})")
    across = intersecting(segment(here, (x, y)), enemies)
    if across.any():
        return (f"the ride to ({x:.1f}, {y:.1f}) passes through the enemy "
                f"({enemies[int(across.argmax())].unit_id})")
    return ""


def apply_ride_to(state: State, action: RideTo, log: Log) -> State:
    """The commander rides to the point, with no unit there."""
    leader = state.commander(action.commander_id)
    table = state.extra.table
    assert table is not None  # checked: a ride to a point is on a table
    distance = math.dist(table.commander_point(leader.id), (action.x, action.y))
    log.add("commander", f"{leader.name} rides {distance:.1f}\" to ({action.x:.1f}, "
            f"{action.y:.1f})", RULE_MOVEMENT, leader.id)
    new = state.with_commanders(attrs.evolve(leader, with_unit=None))
    mark = attrs.evolve(table.commander(leader.id), x=action.x, y=action.y, attached_to=None)
    return new.with_extra(commanders_moved=new.extra.commanders_moved | {leader.id},
                          table=table.with_commanders(mark))


# --- routing units ---------------------------------------------------------------------------
def candidates_rally_from_rout(state: State) -> Iterator[RallyFromRout]:
    """Each untested routing unit of the active brigade."""
    for unit in untested_routers(state):
        yield RallyFromRout(unit.id)


def check_rally_from_rout(state: State, action: RallyFromRout) -> None:
    """Routing units of the brigade test when its die is drawn, once a turn (The Turn, 2)."""
    group = check_group_ready(state, action)
    unit = state.unit(action.unit_id)
    if group_of(unit) != group or not unit.routing or unit.lost:
        raise IllegalActionError(action, f"{unit.name} is not a routing unit of the acting "
                                 "brigade", RULE_ROUT_TESTS)
    if unit.id in state.extra.tested:
        raise IllegalActionError(action, f"{unit.name} has tested this turn", RULE_ROUT_TESTS)
    if unit.id in state.extra.routed:
        raise IllegalActionError(action, f"{unit.name} routed this turn: it tests from the "
                                 "start of the next", RULE_RALLY_ROUT)


def apply_rally_from_rout(state: State, action: RallyFromRout, log: Log) -> State:
    """Passed: the unit stops routing, loses D6 pins and stays put this turn; failed, it
    routs on at run speed (Morale Test)."""
    unit = state.unit(action.unit_id)
    after = recover_from_rout(unit, command_for(state, unit), routing_friends(state, unit),
                              dice=log.dice, options=state.options)
    extra = state.extra
    tested = extra.tested | {unit.id}
    if after.routing:
        log.add("rout", f"{unit.name} fails to rally and routs on", RULE_RALLY_ROUT, unit.id,
                facts={"test": "morale", "result": "failed", "outcome": "routs on"})
        return state.with_extra(tested=tested, routs=(*extra.routs, unit.id))
    log.add("rout", f"{unit.name} rallies: {unit.pins} pins to {after.pins}; it remains "
            "stationary this turn (an order that does not move it)", RULE_RALLY_ROUT, unit.id,
            facts={"test": "morale", "result": "passed", "outcome": "rallies"})
    new = with_units(state, after)
    return new.with_extra(tested=tested, rallied=new.extra.rallied | {unit.id})


def check_moves(state: State, action: object, unit: Unit) -> None:
    """A unit that rallied from rout this turn "must remain stationary" (Morale Test): it
    may take an order that does not move it (fire, change formation, rally, down), not one
    that does (fire and advance, run, charge) (A34)."""
    if unit.id in state.extra.rallied:
        raise IllegalActionError(action, f"{unit.name} rallied from rout this turn: it must "
                                 "remain stationary", RULE_RALLY_ROUT)


def movers(state: State, known: Situation) -> Iterator[Unit]:
    """The units of the active group that may take an order that moves them (``actors``
    less those that rallied from rout this turn)."""
    rallied = state.extra.rallied
    for unit in known.ready.values():
        if unit.id not in rallied:
            yield unit


def candidates_rout_move(state: State) -> Iterator[RoutMove]:
    """The first router, through no unit or through each friendly unit in the fight."""
    if not state.extra.routs:
        return
    unit = state.unit(state.extra.routs[0])
    yield RoutMove(unit.id)
    if state.extra.table is not None:
        return
    for friend in state.units:
        if friend.side == unit.side and friend.id != unit.id and friend.in_the_fight:
            yield RoutMove(unit.id, friend.id)


def check_rout_move(state: State, action: RoutMove) -> None:
    """Routers move at once, in the order they routed (Morale Test)."""
    routs = state.extra.routs
    if not routs or routs[0] != action.unit_id:
        raise IllegalActionError(action, f"{action.unit_id} is not the next unit to rout",
                                 RULE_ROUT)
    if action.through is not None:
        refuse_measured(action, state.extra.table is not None)
        unit, friend = state.unit(action.unit_id), state.unit(action.through)
        if friend.side != unit.side or friend.id == unit.id or not friend.in_the_fight:
            raise IllegalActionError(action, f"{friend.name} is not a friendly unit in the "
                                     "fight", RULE_ROUT)


def apply_rout_move(state: State, action: RoutMove, log: Log) -> State:
    """The router retreats at run speed away from the enemy; a friendly unit it passes
    through takes a pin (Morale Test)."""
    unit = state.unit(action.unit_id)
    inches = movement.move_distance(unit, movement.Pace.RUN)
    extra = state.extra
    new = state.with_extra(routs=extra.routs[1:])
    if extra.table is not None:
        return _rout_on_table(new, unit, inches, log)
    if action.through is None:
        log.add("rout", f"{unit.name} routs {inches}\" away from the enemy", RULE_ROUT, unit.id)
        return new
    friend = state.unit(action.through)
    log.add("rout", f"{unit.name} routs {inches}\" away through {friend.name}, which takes a "
            "pin", RULE_ROUT, unit.id)
    return with_units(new, add_pins(friend, 1))



def _rout_on_table(state: State, unit: Unit, inches: int, log: Log) -> State:
    """On a table: the router runs away from every enemy it sees (A29); friends it passes
    through take a pin; ending off the table, it is out of the battle."""
    flight = situations.rout_flight(state, unit.id)
    friends = [state.unit(f) for f in flight.through]
    names = "".join(f", through {f.name}, which takes a pin" for f in friends)
    table = situations.table_of(state)
    if flight.end is None:
        log.add("rout", f"{unit.name} routs {inches}\" off the table{names}: it is out of the "
                "battle", RULE_ROUT, unit.id)
        state = state.with_extra(table=table.with_traces(
            *recent_traces(table), MoveTrace(unit.id, flight.path)))
        return with_units(state, *(add_pins(f, 1) for f in friends), revise(unit, home=True))
    end = flight.end
    moved = table.placed(end)
    if len(flight.path) > 1:
        moved = moved.with_traces(*recent_traces(table), MoveTrace(unit.id, flight.path))
    gone = math.dist(table.footprint(unit.id).centre, end.centre)
    short = f"{gone:.1f}\" of its " if gone < inches - 0.05 else ""
    log.add("rout", f"{unit.name} routs {short}{inches}\" away from the enemy to ({end.x:.1f}, "
            f"{end.y:.1f}), facing {end.facing % 360:.0f}°{names}"
            + (f", stopped short of {state.unit(flight.stopped_by).name}, not to end on it"
               if flight.stopped_by else ""), RULE_ROUT, unit.id)
    state = state.with_extra(table=moved)
    return with_units(state, *(add_pins(f, 1) for f in friends)) if friends else state


def _woods_test(state: State, unit: Unit, terrain: movement.Terrain, log: Log
                ) -> tuple[State, Unit]:
    """A unit moving into or through woods that must test (Terrain) takes its test: on a
    failure it moves but takes a pin."""
    if not movement.needs_woods_test(unit, terrain):
        return state, unit
    after = movement.woods_test(unit, command_for(state, unit), dice=log.dice,
                                options=state.options)
    if after.pins > unit.pins:
        log.add("move", f"{unit.name} fails its woods test: moves but takes a pin",
                RULE_TERRAIN, unit.id, facts={"test": "woods", "result": "failed"})
    else:
        log.add("move", f"{unit.name} passes its woods test{_unpinned(unit, after)}",
                RULE_TERRAIN, unit.id, facts={"test": "woods", "result": "passed"})
    return with_units(state, after), after
