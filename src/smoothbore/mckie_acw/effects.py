"""What befalls units and generals, shared by the steps: figures lost, a new status, the
risk to generals, and the meaning of a morale result in each circumstance."""

from __future__ import annotations

import attrs

from smoothbore.core import Log

from . import rules
from .generalship import risk_to_general
from .morale import Circumstance
from .state import (
    State,
    add_amount,
    generals_with,
    mark,
    with_extra,
)
from .tables import MoraleResult
from .units import Fate, Status, changed


def lose(state: State, unit_id: str, figures: int, log: Log, rule: str, *,
         by_fire: bool = False) -> State:
    """A unit loses ``figures`` (a gun model's helpers before its trained crew, M11); at none
    left it is destroyed. The losses count for this period's 10% (and, from fire, 20%) tests."""
    if figures <= 0:
        return state
    unit = state.unit(unit_id)
    helpers_lost = min(unit.helpers, figures)
    crew_lost = min(unit.figures, figures - helpers_lost)
    unit = changed(unit, helpers=unit.helpers - helpers_lost,
                        figures=unit.figures - crew_lost)
    x = state.extra
    state = with_extra(state.with_units(unit),
        lost=add_amount(x.lost, unit.id, crew_lost),
        fire_lost=add_amount(x.fire_lost, unit.id, crew_lost) if by_fire else x.fire_lost,
    )
    log.add("casualties", f"{unit.name} loses {figures} figure(s), {unit.figures} left",
            rule, unit.id)
    if unit.figures == 0:
        state = set_status(state, unit.id, Status.DESTROYED, log, rule)
    return state


def set_status(state: State, unit_id: str, status: Status, log: Log, rule: str) -> State:
    """A unit's new status; a unit that routs, retreats or leaves the table breaks off its
    melee and its charge."""
    unit = state.unit(unit_id)
    if unit.status is status:
        return state
    state = state.with_units(changed(unit, status=status))
    log.add("status", f"{unit.name} is {status}", rule, unit.id)
    if status is not Status.STEADY:
        x = state.extra
        contacts = tuple(c for c in x.contacts if unit_id not in (c.attacker, c.defender))
        charges = tuple(attrs.evolve(c, stopped=True) if c.charger == unit_id else c
                        for c in x.charges)
        state = with_extra(state, contacts=contacts, charges=charges)
        for g in generals_with(state, unit_id):
            if not status.on_table:
                state = state.with_commanders(attrs.evolve(g, attached_to=""))
    if status is Status.ROUTING:
        state = mark(state, "routed", unit_id)
    return state


def risk(state: State, unit_id: str, log: Log, *, once: bool = False) -> State:
    """Risk to generals: each general with a unit fired on or in melee throws a d10; with
    ``once``, a general who has already thrown in this step does not throw again (M26)."""
    for g in generals_with(state, unit_id):
        if once:
            if g.id in state.extra.risked:
                continue
            state = with_extra(state, risked=state.extra.risked | {g.id})
        fate = risk_to_general(dice=log.dice)
        if fate is Fate.ACTIVE:
            log.add("general", f"{g.name} is unhurt", rules.RISK_TO_GENERALS, g.id,
                    facts={"test": "risk to general", "result": fate.value})
            continue
        state = state.with_commanders(attrs.evolve(g, fate=fate, attached_to=""))
        log.add("general", f"{g.name} is {fate}", rules.RISK_TO_GENERALS, g.id,
                facts={"test": "risk to general", "result": fate.value})
    return state


def apply_result(state: State, unit_id: str, circumstance: Circumstance,
                 result: MoraleResult, log: Log) -> State:
    """What a morale result does (the meanings of the reconstructed results table, M6):

    - charging: carry on, the charge goes in; halt, it stops short; retreat or rout;
    - a charger 20% down to fire: the same, halting 20 mm from the target;
    - receiving a charge: carry on or halt, it stands; retreat or rout;
    - rallying: carry on, a routing or retreating unit is steady again; halt, a routing unit
      only retreats now and a retreating one rallies; retreat, no change; rout, it routs;
    - any other test: carry on or halt, no effect; retreat or rout.

    The event carries the outcome as facts beside its words (``test``: "morale",
    ``circumstance``, ``result``, and ``status``: the unit's status as it tested), so a
    halt that changes nothing is still told from a carry on."""
    unit = state.unit(unit_id)
    r = rules.MORALE_TABLE
    log.add("morale", f"{unit.name} tests morale ({circumstance}): {result}", r, unit.id,
            facts={"test": "morale", "circumstance": circumstance.value,
                   "result": result.value, "status": unit.status.value})
    state = mark(state, "tested", f"{unit_id}:{circumstance.value}")
    stop = circumstance in (Circumstance.CHARGING, Circumstance.CHARGER_FIRED_ON)
    if circumstance is Circumstance.RALLY:
        if result is MoraleResult.CARRY_ON:
            return set_status(state, unit_id, Status.STEADY, log, r)
        if result is MoraleResult.HALT:
            new = Status.RETREATING if unit.status is Status.ROUTING else Status.STEADY
            return set_status(state, unit_id, new, log, r)
        if result is MoraleResult.ROUT:
            return set_status(state, unit_id, Status.ROUTING, log, r)
        return state
    if result is MoraleResult.CARRY_ON:
        return state
    if result is MoraleResult.HALT:
        if stop:
            state = _stop_charge(state, unit_id)
            log.add("charge", f"{unit.name} halts its charge", r, unit.id)
            return mark(state, "halted", unit_id)
        return state
    state = _stop_charge(state, unit_id)
    new = Status.RETREATING if result is MoraleResult.RETREAT else Status.ROUTING
    if unit.status is Status.ROUTING:
        return state
    return set_status(state, unit_id, new, log, r)


def _stop_charge(state: State, unit_id: str) -> State:
    charges = tuple(attrs.evolve(c, stopped=True) if c.charger == unit_id else c
                    for c in state.extra.charges)
    return with_extra(state, charges=charges)


def tested(state: State, unit_id: str, circumstance: Circumstance) -> bool:
    """Whether a unit has taken this test this period."""
    return f"{unit_id}:{circumstance._value_}" in state.extra.tested  # _value_: no descriptor
