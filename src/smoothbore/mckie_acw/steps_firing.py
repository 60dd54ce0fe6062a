"""Step 4: all firing (McKie ACW, Small arms and artillery fire; Explanation of casualty
table; Counter battery fire; Risk to generals; optional Sharpshooters, snipers, etc.).

Each fire adds its casualty table cell to the target's pending casualties; when the step
ends, each target's cells are added together and one percentage roll decides the extra figure
(``resolve_pending``)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Any

import attrs
import numpy as np

from smoothbore.core import IllegalActionError, Log
from smoothbore.table import ShotTrace, Table

from . import effort, rules
from .actions import Fire, PickOffGeneral
from .effects import lose, risk
from .firing import (
    FireFacts,
    add_cells,
    casualties,
    check_can_fire,
    counter_battery,
    eligible,
    figures_lost,
    fire_factor,
    firing_count,
    rounds_needed,
)
from .generalship import risk_to_general
from .positions import kept
from .situations import (
    beyond_reach,
    carries_measured_fire,
    check_sight,
    general_point,
    general_shot,
    measure_shots,
    shot_facts,
)
from .state import (
    State,
    contact_of,
    illegal,
    in_cover,
    with_extra,
)
from .table_moves import table_of
from .tables import NOTHING, Tables
from .units import Commander, Fate, Status, Unit, Weapon, changed


def can_fire(state: State, unit: Unit) -> bool:
    """A unit of the acting side in good order (steady or retreating), with rounds, not in
    melee, not digging, that has not charged or fired this period (M17)."""
    x = state.extra
    uid = unit.id
    return (
        (unit.status is Status.STEADY or unit.status is Status.RETREATING)
        and unit.ammo > 0
        and uid not in x.fired
        and uid not in x.digging
        and not (unit.is_gun and unit.limbered)
        and uid not in state.derived(_chargers)
        and contact_of(state, uid) is None
    )


def _chargers(state: State) -> frozenset[str]:
    """The units that charged this period, stopped or not (once a state)."""
    return frozenset(c.charger for c in state.extra.charges)


def charging_firer(state: State, firer: Unit) -> tuple[str, ...]:
    """Target priority 1: the enemies whose charge goes in against the firer this period."""
    return state.derived(_charging).get(firer.id, ())


def _charging(state: State) -> dict[str, tuple[str, ...]]:
    """``charging_firer`` by firer, in the order of the charges (once a state)."""
    out: dict[str, list[str]] = {}
    for c in state.extra.charges:
        if not c.stopped:
            out.setdefault(c.target, []).append(c.charger)
    return {k: tuple(v) for k, v in out.items()}


def priority_targets(state: State, firer: Unit) -> tuple[str, ...]:
    """Target priorities: 1, the enemies charging the firer; else 2, the enemies that fired
    on it last period still on the table; else () (any enemy within range)."""
    charging = charging_firer(state, firer)
    if charging:
        return charging
    return tuple(f for f in state.derived(_fired_on_by).get(firer.id, ())
                 if state.unit(f).on_table)


def _fired_on_by(state: State) -> dict[str, tuple[str, ...]]:
    """The enemies that fired on each unit last period, by target, in their order (once a
    state)."""
    out: dict[str, list[str]] = {}
    for t, f in state.extra.last_fired_on_by:
        out.setdefault(t, []).append(f)
    return {k: tuple(v) for k, v in out.items()}


@functools.lru_cache(maxsize=256)
def default_facts(tables: Tables, weapon: Weapon) -> FireFacts:
    """The range the candidates offer: the far end of the weapon's nearest band where it does
    any harm (a mortar's first band is 0)."""
    row = tables.weapon(weapon)
    band = next((b for b in row.bands if b.factor > 0), row.bands[-1])
    return FireFacts(range=band.to)


@attrs.frozen(cache_hash=True)
class Firer:
    """What the step knows of a unit able to fire: its target priorities (empty: any enemy
    in range) and whether they come from a charge against it (priority 1, never waived)."""

    top: tuple[str, ...]
    charged: bool


def firer_now(state: State, unit: Unit) -> Firer | None:
    """What the step knows of a unit of the acting side able to fire now (None: it may not
    fire)."""
    return state.derived(firers).get(unit.id)


def firers(state: State) -> dict[str, Firer]:
    """The units of the acting side able to fire now, by id (worked out once a state: every
    candidate volley asks)."""
    acting = state.extra.acting
    out = {}
    for unit in state.units:
        if unit.side == acting and unit.on_table and can_fire(state, unit):
            charging = charging_firer(state, unit)
            out[unit.id] = Firer(charging or priority_targets(state, unit), bool(charging))
    return out


def candidates_fire(state: State) -> Iterator[Fire]:
    """Each unit able to fire, at each enemy on the table, at its nearest harmful band (with
    fewer figures where rounds are short); targets below the top priority with
    ``beyond_priority``, except below an enemy charging the firer."""
    enemies = tuple(u.id for u in state.units if u.side != state.extra.acting and u.on_table)
    tables = state.options.tables
    snipers = state.options.snipers
    able_now = state.derived(firers)
    if state.extra.table is not None:
        yield from _table_volleys(state, enemies, able_now)
        return
    for firer in state.units:
        able = able_now.get(firer.id)
        if able is None or (firer.weapon is Weapon.SNIPER_RIFLE and not snipers):
            continue
        facts = default_facts(tables, firer.weapon)
        if not firer.is_gun and firer.ammo < eligible(firer):
            facts = attrs.evolve(facts, figures=firer.ammo)  # fewer fire (M10)
        yield from volleys(firer.id, facts, able, enemies)


@functools.lru_cache(maxsize=4096)
def volleys(firer: str, facts: FireFacts, able: Firer, enemies: tuple[str, ...]
            ) -> tuple[Fire, ...]:
    """A firer's fire at each enemy (remembered: the same firer is offered the same targets
    step after step)."""
    out = []
    top = able.top
    for target in enemies:
        beyond = bool(top) and target not in top
        if beyond and able.charged:
            continue  # priority 1 is never waived (M17)
        out.append(Fire(firer, target, facts, beyond))
    return tuple(out)


def _table_volleys(state: State, enemies: tuple[str, ...], able_now: dict[str, Firer]
                   ) -> Iterator[Fire]:
    """On a table: each unit able to fire, at each enemy not surely beyond its weapon's reach
    (plain arithmetic, ``beyond_reach``), the facts left to the table, with fewer figures
    where rounds are short: proposals the check measures (sight, range, arc, fire over
    troops, and a target below the top priority only when every one above it is out of
    range or sight, ``priority_waived``). Never a target below an enemy charging the
    firer."""
    table = table_of(state)
    memo = kept(table, _reach_memo)
    near = memo.get(enemies)
    if near is None:
        near = memo[enemies] = {}
    out: list[Fire] = []
    for firer in state.units:
        able = able_now.get(firer.id)
        if able is None or (firer.weapon is Weapon.SNIPER_RIFLE and not state.options.snipers):
            continue
        figures, reach = _plain_fire(state, firer)
        top = able.top
        targets = near.get((firer.id, reach))
        if targets is None:
            targets = near[(firer.id, reach)] = _maybe_in_reach(table, firer.id, reach,
                                                                enemies)
        for fire in table_volleys(firer.id, figures, targets):
            if (not able.charged or fire.target in top) and not beyond_reach(
                    state, firer.id, fire.target, reach):
                out.append(fire)
    measure_shots(state, [(fire.firer, fire.target) for fire in out])  # all at once
    yield from out


def _reach_memo(table: Table) -> dict[tuple[str, ...], dict[tuple[str, int], tuple[str, ...]]]:
    """``_maybe_in_reach`` on this table's footprints, by the enemies asked, then by firer
    and reach."""
    return {}


def _maybe_in_reach(table: Table, firer: str, reach: int, enemies: tuple[str, ...]
                    ) -> tuple[str, ...]:
    """The ``enemies`` (in their order) that ``beyond_reach`` does not surely put beyond
    ``reach`` mm of ``firer``: its test on all of them at once, a hair wider (the exact test
    still judges each one left)."""
    centres, fwd, right, half_w, half_l = _target_arrays(table, enemies)
    if not len(half_w):
        return ()
    f = table.footprint(firer)
    dx, dy = f.x - centres[:, 0], f.y - centres[:, 1]
    across = np.maximum(0.0, np.abs(dx * right[:, 0] + dy * right[:, 1]) - half_w)
    along = np.maximum(0.0, np.abs(dx * fwd[:, 0] + dy * fwd[:, 1]) - half_l)
    inside = np.hypot(across, along) <= reach + 1 + 1e-6 * (1.0 + reach)
    return tuple(enemies[i] for i in np.flatnonzero(inside).tolist())


def _target_arrays(table: Table, enemies: tuple[str, ...]) -> tuple[Any, ...]:
    """The centres, forward and right unit vectors (n, 2) and half widths and lengths (n,)
    of the footprints of ``enemies`` (kept on the table for each set of enemies asked)."""
    memo = kept(table, _arrays_memo)
    found = memo.get(enemies)
    if found is None:
        at = table.units
        fps = [at[e] for e in enemies]
        n = len(fps)
        numbers = np.array([(t.x, t.y, *t.frame[0], *t.frame[1], t.width / 2, t.length / 2)
                            for t in fps], dtype=float).reshape(n, 8)
        found = memo[enemies] = (numbers[:, 0:2], numbers[:, 2:4], numbers[:, 4:6],
                                 numbers[:, 6], numbers[:, 7])
    return found


def _arrays_memo(table: Table) -> dict[tuple[str, ...], tuple[Any, ...]]:
    """``_target_arrays`` on this table's footprints, by the enemies asked."""
    return {}


@functools.lru_cache(maxsize=4096)
def table_volleys(firer: str, figures: int, enemies: tuple[str, ...]) -> tuple[Fire, ...]:
    """On a table, a firer's fire at each of ``enemies``, the facts left to the table
    (remembered, as ``volleys``)."""
    facts = FireFacts(figures=figures)
    return tuple(Fire(firer, target, facts) for target in enemies)


def _plain_fire(state: State, firer: Unit) -> tuple[int, int]:
    """The figures a firer offers to fire on a table (fewer where rounds are short; 0: every
    eligible one) and its weapon's reach."""
    figures = firer.ammo if not firer.is_gun and firer.ammo < eligible(firer) else 0
    return figures, state.options.tables.weapon(firer.weapon).reach


def _fire_open(state: State, firer: Unit, target: str, figures: int, moved: bool,
               action: object) -> bool:
    """Whether the table lets ``firer`` fire on ``target`` now: it sees it, and range, arc,
    fire over troops and rounds allow it."""
    shot = shot_facts(state, firer.id, target)
    if not shot.sees:
        return False
    try:
        check_can_fire(firer, state.unit(target), shot.facts(figures), moved,
                       state.options.tables, action)
    except IllegalActionError:
        return False
    return True


def priority_waived(state: State, firer: str) -> bool:
    """On a table, Target priorities: whether the firer may pass over its top priority (the
    enemies that fired on it last period) because the table puts every one of them out of
    range or sight (beyond reach, out of sight or arc, or behind troops it may not fire
    over: interpretation M36). Never the enemies charging it (priority 1)."""
    able = state.derived(firers).get(firer)
    return able is not None and bool(able.top) and not able.charged and not (
        priority_two(state, firer))


def priority_two(state: State, firer: str) -> tuple[str, ...]:
    """On a table, Target priorities 2, "nearest enemy firing on the unit last period": of
    the enemies that fired on the firer last period, the nearest (range from the firer's
    centre to the target's nearest point, Firing procedure 1) that it can fire on now; all
    those at that range where several are equally near; () when it can fire on none of them
    (M36: priority 2 waived). The enemies charging the firer (priority 1) are all its top
    priority, as off a table."""
    memo = state.derived(_waived)
    found = memo.get(firer)
    if found is None:
        found = memo[firer] = _priority_two(state, firer)
    return found


def _waived(state: State) -> dict[str, tuple[str, ...]]:
    """``priority_two`` on this state, by firer (each worked out when first asked)."""
    return {}


def _priority_two(state: State, uid: str) -> tuple[str, ...]:
    able = state.derived(firers).get(uid)
    if able is None or not able.top:
        return ()
    if able.charged:
        return able.top
    firer = state.unit(uid)
    figures, reach = _plain_fire(state, firer)
    on = table_of(state).derived(_on_table)
    moved = uid in state.extra.moved
    open_ = [t for t in able.top
             if t in on and not beyond_reach(state, uid, t, reach)
             and _fire_open(state, firer, t, figures, moved, "priority")]
    if not open_:
        return ()
    ranges = {t: shot_facts(state, uid, t).range for t in open_}
    nearest = min(ranges.values())
    return tuple(t for t in open_ if ranges[t] == nearest)


def _on_table(table: Table) -> frozenset[str]:
    """The ids of the units on the table (once a table)."""
    return frozenset(f.unit_id for f in table.footprints)


def fire_facts(state: State, action: Fire) -> FireFacts:
    """The facts of a fire: the action's own, or on a table the table's measure with the
    player's choices (figures firing, resting weapons). One function for check and
    handler."""
    if state.extra.table is None:
        return action.facts
    return shot_facts(state, action.firer, action.target).facts(
        action.facts.figures, resting_weapons(state, state.unit(action.firer)))


def resting_weapons(state: State, firer: Unit) -> bool:
    """Small arms and artillery fire: Tactical factors, "Resting weapons +1", as the state
    knows it (M44): a firer that has not moved, faced or changed formation this period and
    stands where its weapons have a rest (behind an obstacle, in cover, works, a town or
    its finished trench: ``in_cover``). On a table this is measured (the ground a unit stands
    on is the table's, M31); without one the player says so, and a unit that moved this
    period is refused it."""
    return firer.id not in state.extra.moved and in_cover(firer)


def check_fire(state: State, action: Fire) -> None:
    """Step 4: the firer may fire (``can_fire``) at an enemy on the table, within the
    restrictions on firing, its weapon's reach and its rounds; target priorities hold unless
    the player says the higher ones are out of range or sight (never a charging enemy's)."""
    firer = state.unit(action.firer)  # of the side acting, on the table: the guard
    target = state.unit(action.target)
    if target.side == firer.side or not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table",
                      rules.FIRING_PROCEDURE)
    able = firer_now(state, firer)
    if able is None:
        raise illegal(action, f"{firer.name} may not fire now", rules.FIRING_RESTRICTIONS)
    if firer.weapon is Weapon.SNIPER_RIFLE and not state.options.snipers:
        raise illegal(action, "snipers are an optional rule not in play", rules.SNIPERS)
    top = able.top
    if state.extra.table is not None:
        if action.beyond_priority:
            raise illegal(action, "the table measures this: whether every target of higher "
                          "priority is out of range or sight (leave beyond_priority False)",
                          rules.TARGET_PRIORITIES)
        nearest = priority_two(state, firer.id)
        if top and nearest and target.id not in nearest:
            names = ", ".join(state.unit(t).name for t in nearest)
            raise illegal(action, "a target of higher priority must be fired on first: the "
                          f"table puts one within range and sight ({names}, the nearest "
                          "enemy that fired on it last period)", rules.TARGET_PRIORITIES)
    elif top and target.id not in top and not action.beyond_priority:
        raise illegal(action, "a target of higher priority must be fired on first",
                      rules.TARGET_PRIORITIES)
    if action.beyond_priority and (not top or target.id in top):
        raise illegal(action, "this target is of the highest priority", rules.TARGET_PRIORITIES)
    if action.beyond_priority and able.charged:
        raise illegal(action, "an enemy charging the firer is in sight and closing: it must be "
                      "fired on first", rules.TARGET_PRIORITIES)
    if action.facts.resting and (state.extra.table is not None
                                 or firer.id in state.extra.moved):
        why = ("the table measures this: whether the firer stood still with its weapons "
               "rested (leave resting False)" if state.extra.table is not None else
               f"{firer.name} moved or manoeuvred this period: its weapons are not rested")
        raise illegal(action, why, rules.FIRING_FACTORS)
    if state.extra.table is not None:
        if carries_measured_fire(action.facts):
            raise illegal(action, "the table measures this: leave range, angle, edge, flank, "
                          "rear and fire over troops at their defaults",
                          rules.FIRING_PROCEDURE)
        check_sight(shot_facts(state, firer.id, target.id), action)
    check_can_fire(firer, target, fire_facts(state, action), firer.id in state.extra.moved,
                   state.options.tables, action)


def _fired(firer: Unit, rounds: int) -> Unit:
    """The firer after firing: rounds spent, an effort point, its first volley gone."""
    return changed(firer, effort=firer.effort + effort.FIRING,
                        ammo=max(0, firer.ammo - rounds), has_fired=True)


def apply_fire(state: State, action: Fire, log: Log) -> State:
    """Firing procedure: the factor, the casualty table cell (held until the step ends, to be
    added to every other source), counter-battery fire on a battery fired on by guns, and the
    risk to generals with the target (once a step for each general, M26). Firing costs rounds
    and an effort point."""
    firer = state.unit(action.firer)
    target = state.unit(action.target)
    x = state.extra
    tables = state.options.tables
    facts = fire_facts(state, action)
    factor = fire_factor(firer, target, facts, moved=firer.id in x.moved,
                         target_moved=target.id in x.shifted, tables=tables)
    n = firing_count(firer, facts)
    cell = casualties(factor.total, n, tables)
    measured = f" at a measured {facts.range} mm" if x.table is not None else ""
    log.add("fire", f"{firer.name} fires at {target.name}{measured}: {n} "
            f"{'guns' if firer.is_gun else 'figures'} at factor {factor}, {cell}",
            rules.FIRING_PROCEDURE, target.id)
    fresh = [_fired(firer, rounds_needed(firer, facts))]
    pending = dict(x.pending)
    pending[target.id] = add_cells(pending.get(target.id, NOTHING), cell)
    updates: dict[str, object] = {
        "pending": tuple(pending.items()),
        "fired_on_by": (*x.fired_on_by, (target.id, firer.id)),
        "fired": x.fired | {firer.id},
        "worked": x.worked | {firer.id},
    }
    if x.table is not None:
        updates["table"] = x.table.with_traces(*x.table.traces, ShotTrace(firer.id, target.id))
    if facts.flank:
        updates["flanked"] = x.flanked | {target.id}
    if facts.rear:
        updates["rear"] = x.rear | {target.id}
    if firer.is_gun:
        updates["under_artillery"] = x.under_artillery | {target.id}
    if firer.is_gun and target.is_gun and target.pieces:
        pieces = min(target.pieces, counter_battery(factor.total, dice=log.dice, tables=tables))
        fresh.append(changed(target, pieces=target.pieces - pieces))
        log.add("counter-battery", f"{target.name} loses {pieces} piece(s), "
                f"{target.pieces - pieces} left", rules.COUNTER_BATTERY, target.id)
    state = with_extra(state.with_units(*fresh), **updates)
    return risk(state, target.id, log, once=True)


def resolve_pending(state: State, log: Log) -> State:
    """The end of the firing: for each target, the cells of every source added, then the
    percentage roll for the extra figure, and the figures removed."""
    for unit_id, cell in state.extra.pending:
        unit = state.unit(unit_id)
        if not unit.on_table:
            continue
        lost = min(unit.figures + unit.helpers,
                   figures_lost(cell, dice=log.dice, reason=f"fire on {unit.name}"))
        if lost:
            state = lose(state, unit_id, lost, log, rules.CASUALTY_TABLE, by_fire=True)
        else:
            log.add("casualties", f"{unit.name} loses no figure ({cell})",
                    rules.CASUALTY_TABLE, unit_id)
    return with_extra(state, pending=())


_PLAIN_PICK = PickOffGeneral("-", "-")


# --- snipers ------------------------------------------------------------------------------
def candidates_pick_off_general(state: State) -> Iterator[PickOffGeneral]:
    if not state.options.snipers:
        return
    generals = [g for g in state.commanders if g.side != state.extra.acting and g.active]
    table = state.extra.table
    reach = state.options.tables.weapon(Weapon.SNIPER_RIFLE).reach
    for firer in state.units_of(state.extra.acting):
        if firer.weapon is Weapon.SNIPER_RIFLE and firer.on_table and can_fire(state, firer):
            for g in generals:
                if table is not None and _surely_beyond(table, firer.id, g, reach):
                    continue  # surely no shot (``general_shot``): the check measures the rest
                yield PickOffGeneral(firer.id, g.id)


def _surely_beyond(table: Table, firer: str, general: Commander, reach: int) -> bool:
    """Whether a general is surely no target for a sniper: not placed on the table, or more
    than ``reach`` + 1 mm from the sniper's centre."""
    point = general_point(table, general)
    if point is None:
        return True
    fp = table.footprint(firer)
    return math.hypot(point[0] - fp.x, point[1] - fp.y) > reach + 1


def check_pick_off_general(state: State, action: PickOffGeneral) -> None:
    """Snipers (optional) may pick an enemy general in action as their target, within the
    sniper rifle's reach; they fire once a period."""
    firer = state.unit(action.firer)  # of the side acting, on the table: the guard
    g = state.commander(action.general)
    r = rules.SNIPERS
    if not state.options.snipers:
        raise illegal(action, "snipers are an optional rule not in play", r)
    if firer.weapon is not Weapon.SNIPER_RIFLE:
        raise illegal(action, f"{firer.name} has no sniper rifles", r)
    if g.side == firer.side or not g.active:
        raise illegal(action, "the target must be an enemy general in action", r)
    if not can_fire(state, firer):
        raise illegal(action, f"{firer.name} may not fire now", rules.FIRING_RESTRICTIONS)
    reach = state.options.tables.weapon(Weapon.SNIPER_RIFLE).reach
    if state.extra.table is not None:
        if action.range != _PLAIN_PICK.range:
            raise illegal(action, "the table measures this: leave range at its default", r)
        if general_shot(state, firer.id, g, reach) is None:
            raise illegal(action, f"{g.name} is not where the sniper sees him within {reach} "
                          "mm and 45 degrees of its front", rules.VISIBILITY)
        return
    if action.range > reach:
        raise illegal(action, f"{action.range} mm is beyond the sniper rifle ({reach})",
                      rules.WEAPONS)


def apply_pick_off_general(state: State, action: PickOffGeneral, log: Log) -> State:
    """The general runs the risk to generals (M18)."""
    firer = state.unit(action.firer)
    g = state.commander(action.general)
    distance = action.range
    if state.extra.table is not None:
        reach = state.options.tables.weapon(Weapon.SNIPER_RIFLE).reach
        distance = general_shot(state, firer.id, g, reach) or 0
    where = f"with {state.unit(g.attached_to).name}" if g.attached_to else "alone"
    log.add("fire", f"{firer.name} pick out {g.name} ({where}) at {distance} mm",
            rules.SNIPERS, g.id)
    x = state.extra
    state = with_extra(state.with_units(_fired(firer, 1)), fired=x.fired | {firer.id},
                                                          worked=x.worked | {firer.id})
    fate = risk_to_general(dice=log.dice)
    if fate is not Fate.ACTIVE:
        state = state.with_commanders(attrs.evolve(g, fate=fate, attached_to=""))
    log.add("general", f"{g.name} is {'unhurt' if fate is Fate.ACTIVE else fate}",
            rules.RISK_TO_GENERALS, g.id,
            facts={"test": "risk to general", "result": fate.value})
    return state
