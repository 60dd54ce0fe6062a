"""Ending each step of the battle period, and the period itself (McKie ACW, Battle period;
Generalship: New battle period; Effort points; Melee: exhausted units).

In every step the side moving first acts, then the other; in step 2 the sides go on in turn
until both pass one after the other, so each may counter charge the other's charges (M2)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from smoothbore.core import Log, begin_turn, enter_phase

from . import effort, rules
from .actions import EndPhase
from .phases import (
    CHARGES,
    COMPULSORY,
    FIRING,
    INITIATIVE,
    MELEE,
    MORALE,
    MOVEMENT,
    NEXT,
    RECEIVE_TESTS,
)
from .state import (
    State,
    illegal,
    other,
    with_extra,
)
from .steps_charges import charges_remeasured
from .steps_firing import resolve_pending
from .steps_melee import melees_due, new_contacts, out_of_contact
from .steps_morale import due_tests
from .steps_movement import compulsory_due
from .units import Order, Status, changed


def candidates_end(state: State) -> Iterator[EndPhase]:
    yield EndPhase()


def check_end(state: State, action: EndPhase) -> None:
    """A side ends its part of a step once its compulsory moves, tests and melees are done."""
    if state.phase == COMPULSORY and compulsory_due(state):
        raise illegal(action, "every compulsory rout, retreat and retirement is made first")
    if due_tests(state):
        raise illegal(action, "every compulsory morale test is taken first", rules.MORALE_WHEN)
    if state.phase == MELEE and (melees_due(state) or state.extra.follow):
        raise illegal(action, "every melee is fought first", rules.MELEE)


def apply_end(state: State, action: EndPhase, log: Log) -> State:
    """The other side acts, or the next step begins (with what ends a step: the percentage
    rolls after the firing, the contacts after the receiving tests, the new period after
    step 8)."""
    x = state.extra
    second = other(state, x.first)
    if state.phase == CHARGES:
        if other(state, x.acting) in x.passed:
            return with_extra(enter_phase(state, NEXT[state.phase]), acting=x.first)
        return with_extra(state, acting=other(state, x.acting), passed=x.passed | {x.acting})
    if x.acting == x.first:
        return with_extra(state, acting=second)
    if state.phase == MOVEMENT:
        state = charges_remeasured(state, log)
    elif state.phase == FIRING:
        state = resolve_pending(state, log)
    elif state.phase == RECEIVE_TESTS:
        state = out_of_contact(new_contacts(state, log), log)
    elif state.phase == MORALE:
        return end_period(state, log)
    return with_extra(enter_phase(state, NEXT[state.phase]), acting=state.extra.first)


def end_period(state: State, log: Log) -> State:
    """The period ends: units that did nothing earning effort points rest (2 off); exhausted
    units that are not held in melee by fresh enemies must retire and rest; commanders
    activated have begun their orders; couriers arrive; the next period begins."""
    x = state.extra
    in_melee = {u: c for c in x.contacts for u in (c.attacker, c.defender)}
    units = []
    for unit in state.units:
        if unit.on_table:
            rested = (unit.status is Status.STEADY and unit.id not in x.worked
                      and unit.id not in x.moved and unit.id not in in_melee and unit.effort)
            if rested:
                unit = effort.rest(unit)
                log.add("effort", f"{unit.name} rests: {unit.effort} effort points",
                        rules.EFFORT, unit.id)
            if unit.exhausted and not unit.resting and not unit.must_retire:
                contact = in_melee.get(unit.id)
                held = False
                if contact is not None:
                    enemy = state.unit(contact.defender if contact.attacker == unit.id
                                      else contact.attacker)
                    held = not enemy.exhausted
                if not held:
                    unit = changed(unit, must_retire=True)
                    log.add("effort", f"{unit.name} is exhausted and must retire to rest",
                            rules.MELEE_EXHAUSTED, unit.id)
        units.append(unit)
    state = state.with_units(*units)
    commanders = []
    for c in state.commanders:
        if c.id in x.activated and not c.order.started:
            c = attrs.evolve(c, order=attrs.evolve(c.order, started=True))
        if c.courier is not None and c.active:
            c = attrs.evolve(c, order=Order(c.courier, "courier"), courier=None)
            log.add("orders", f"a courier reaches {c.name}: {c.order.kind}", rules.ORDERS, c.id)
        commanders.append(c)
    state = with_extra(state.with_commanders(*commanders), last_fired_on_by=x.fired_on_by)
    state = begin_turn(state, INITIATIVE)
    log.add("period", f"period {state.turn} begins", rules.NEW_PERIOD)
    return with_extra(state, acting=state.extra.first)


