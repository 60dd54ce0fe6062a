"""Step 2: declare charges and counter charges and test the morale of every charging unit
(McKie ACW, Battle period 2; Morale: when to test, 1)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import attrs
import numpy as np

from smoothbore.core import IllegalActionError, InvalidValueError, Log
from smoothbore.table import Table

from . import effort, rules
from .actions import DeclareCharge
from .effects import apply_result
from .melee import Attack
from .morale import Circumstance, test_morale
from .movement import rate
from .positions import kept
from .situations import charge_facts, check_charge, measure_charges, surely_apart
from .state import (
    Charge,
    State,
    contact_of,
    illegal,
    live_charges,
    may_advance,
    morale_facts,
    with_extra,
)
from .steps_morale import measured_past
from .units import Unit

CHARGE_DISTANCE = 60
"""The distance the candidates charge over (300 yards: within every unit's move)."""


def can_charge(state: State, unit: Unit) -> bool:
    """A steady unit not in melee, not resting or bound to retire, not a gun, that has not
    charged or halted this period and whose orders let it advance."""
    x = state.extra
    return (
        unit.steady
        and not unit.is_gun
        and not unit.resting
        and not unit.must_retire
        and unit.id not in x.done
        and unit.id not in x.halted
        and contact_of(state, unit.id) is None
        and may_advance(state, unit)
    )


def candidates_declare_charge(state: State) -> Iterator[DeclareCharge]:
    """Each unit that may charge, at each enemy unit on the table (60 mm away), and
    each counter charge on a charger; on a table, at each enemy not surely beyond its move
    (plain arithmetic, ``surely_apart``), the check measuring the charge's line."""
    acting = state.extra.acting
    enemies = [u for u in state.units if u.side != acting and u.on_table]
    chargers = {c.charger for c in live_charges(state)}
    table = state.extra.table
    tables = state.options.tables
    distance = CHARGE_DISTANCE
    if table is None:
        for unit in state.units_of(acting):
            if unit.on_table and can_charge(state, unit):
                for enemy in enemies:
                    yield DeclareCharge(unit.id, enemy.id, distance)
                    if enemy.id in chargers:
                        yield DeclareCharge(unit.id, enemy.id, distance, counter=True)
        return
    ids = tuple(u.id for u in enemies)
    memo = kept(table, _near_memo)
    near = memo.get(ids)
    if near is None:
        near = memo[ids] = {}
    out: list[DeclareCharge] = []
    for unit in state.units_of(acting):
        if unit.on_table and can_charge(state, unit):
            reach = rate(unit, tables)
            targets = near.get((unit.id, reach))
            if targets is None:
                targets = near[(unit.id, reach)] = _maybe_within(table, unit.id, reach, ids)
            for target in targets:
                if surely_apart(state, unit.id, target, reach):
                    continue
                out.append(DeclareCharge(unit.id, target, distance))
                if target in chargers:
                    out.append(DeclareCharge(unit.id, target, distance, counter=True))
    measure_charges(state, [(c.unit, c.target) for c in out])  # all at once
    yield from out


def _near_memo(table: Table) -> dict[tuple[str, ...], dict[tuple[str, int], tuple[str, ...]]]:
    """``_maybe_within`` on this table's footprints, by the enemies asked, then by charger
    and reach."""
    return {}


def _maybe_within(table: Table, charger: str, reach: int, enemies: tuple[str, ...]
                  ) -> tuple[str, ...]:
    """The ``enemies`` (in their order) that ``surely_apart`` does not surely put beyond
    ``reach`` mm of ``charger``: its test on all of them at once, a hair wider (the exact
    test still judges each one left)."""
    if not enemies:
        return ()
    memo = kept(table, _centres_memo)
    found = memo.get(enemies)
    if found is None:
        at = table.units
        numbers = np.array([(at[e].x, at[e].y, math.hypot(at[e].width, at[e].length))
                            for e in enemies], dtype=float).reshape(-1, 3)
        found = memo[enemies] = numbers
    f = table.footprint(charger)
    apart = np.hypot(found[:, 0] - f.x, found[:, 1] - f.y)
    limit = reach + 1 + (math.hypot(f.width, f.length) + found[:, 2]) / 2
    inside = apart <= limit + 1e-6 * (1.0 + limit)
    return tuple(enemies[i] for i in np.flatnonzero(inside).tolist())


def _centres_memo(table: Table) -> dict[tuple[str, ...], Any]:
    """For the enemies asked on this table's footprints: their centres and the diagonals
    of their outlines, an (n, 3) array."""
    return {}


def check_declare_charge(state: State, action: DeclareCharge) -> None:
    """The charger may charge (``can_charge``); the target is an enemy on the table within the
    charger's move; a counter charge meets an enemy charging this period."""
    unit = state.unit(action.unit)  # of the side acting, on the table: the guard
    target = state.unit(action.target)
    r = rules.BATTLE_PERIOD
    if target.side == unit.side or not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table", r)
    if not unit.steady or unit.is_gun:
        raise illegal(action, f"{unit.name} cannot charge ({unit.status})", r)
    if unit.resting or unit.must_retire:
        raise illegal(action, f"{unit.name} is exhausted and must retire and rest",
                      rules.MELEE_EXHAUSTED)
    if unit.id in state.extra.done or unit.id in state.extra.halted:
        raise illegal(action, f"{unit.name} has already charged or halted this period", r)
    if contact_of(state, unit.id) is not None:
        raise illegal(action, f"{unit.name} is in melee", rules.MELEE)
    if not may_advance(state, unit):
        raise illegal(action, f"{unit.name}'s orders or its commander's activation forbid "
                      "advancing", rules.ACTIVATION)
    if state.extra.table is not None:
        if action.distance != CHARGE_DISTANCE or action.attack is not Attack.FRONT:
            raise illegal(action, "the table measures this: leave distance and attack at "
                          "their defaults", r)
        check_charge(state, unit, charge_facts(state, unit.id, target.id), action)
    reach = rate(unit, state.options.tables)
    if state.extra.table is None and action.distance > reach:
        raise illegal(action, f"{action.distance} mm is beyond {unit.name}'s move ({reach})",
                      rules.MOVEMENT)
    if action.counter and action.target not in {c.charger for c in live_charges(state)}:
        raise illegal(action, f"{target.name} is not charging: no counter charge", r)


def apply_declare_charge(state: State, action: DeclareCharge, log: Log) -> State:
    """The charger tests morale at once (advancing +1); a charge that carries on goes in this
    period and costs 2 effort points."""
    unit = state.unit(action.unit)
    target = state.unit(action.target)
    kind = "counter charges" if action.counter else "charges"
    distance, attack = action.distance, action.attack
    if state.extra.table is not None:
        measured = charge_facts(state, unit.id, target.id)
        distance, attack = measured.distance or 0, measured.attack
    log.add("charge", f"{unit.name} {kind} {target.name} ({distance} mm"
            f"{', into its ' + str(attack) if attack is not Attack.FRONT else ''})",
            rules.BATTLE_PERIOD, unit.id)
    x = state.extra
    state = with_extra(state,
        done=x.done | {unit.id}, passed=frozenset(),
        charges=(*x.charges, Charge(unit.id, target.id, counter=action.counter,
                                    attack=attack)),
    )
    facts = morale_facts(state, unit, Circumstance.CHARGING,
                         measured_past(state, unit))
    result = test_morale(facts, dice=log.dice, tables=state.options.tables,
                         reason=f"{unit.name} charging")
    state = apply_result(state, unit.id, Circumstance.CHARGING, result, log)
    if any(c.charger == unit.id and not c.stopped for c in state.extra.charges):
        unit = state.unit(unit.id)
        state = state.with_units(effort.earn(unit, effort.CHARGE_OR_DOUBLE_MOVE))
        x = state.extra
        state = with_extra(state, moved=x.moved | {unit.id}, shifted=x.shifted | {unit.id},
                                 advanced=x.advanced | {unit.id}, worked=x.worked | {unit.id})
    return state


def charges_remeasured(state: State, log: Log) -> State:
    """On a table, when step 3 ends: every charge still going in is measured again where its
    target now stands (M43). A target that moved out of the charger's reach (beyond its move,
    no longer to its front, or behind a unit now in the way) is no longer charged: the
    charge stops short, so the target has no charge to stand and receive (step 6) and no
    melee; a target that turned is struck on the face it now shows the charger (its front,
    flank or rear), which the test to receive the charge and the melee count. Counter
    charges, and charges at a unit that is itself charging, meet where they were declared
    (neither side moves in step 3)."""
    if state.extra.table is None:
        return state
    live = live_charges(state)
    chargers = {c.charger for c in live}
    charges = []
    changed_any = False
    for charge in state.extra.charges:
        if charge.stopped or charge.counter or charge.target in chargers:
            charges.append(charge)
            continue
        unit, target = state.unit(charge.charger), state.unit(charge.target)
        if not (unit.on_table and target.on_table):
            charges.append(charge)
            continue
        facts = charge_facts(state, unit.id, target.id)
        try:
            check_charge(state, unit, facts, f"charge of {unit.id} at {target.id}")
        except (IllegalActionError, InvalidValueError) as e:
            why = e.why if isinstance(e, IllegalActionError) else str(e)
            log.add("charge", f"{target.name} is out of {unit.name}'s reach ({why}): the "
                    "charge stops short", rules.BATTLE_PERIOD, unit.id,
                    facts={"charge": "out of reach", "target": target.id})
            charges.append(attrs.evolve(charge, stopped=True))
            changed_any = True
            continue
        if facts.attack is not charge.attack:
            log.add("charge", f"{target.name} has turned: {unit.name}'s charge strikes its "
                    f"{facts.attack}", rules.BATTLE_PERIOD, unit.id,
                    facts={"charge": "face struck", "target": target.id,
                           "attack": facts.attack.value})
            charge = attrs.evolve(charge, attack=facts.attack)
            changed_any = True
        charges.append(charge)
    return with_extra(state, charges=tuple(charges)) if changed_any else state
