"""Phases F to I and K (Rules - Charging, Second Cavalry Charges): declaring charges, testing
charged units, counter-charges and evasion, contact, and the second cavalry charges."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from . import rules
from .actions import (
    Contact,
    CounterCharge,
    DeclareCharge,
    EndPhase,
    Evade,
    SecondCharges,
    TestCharged,
)
from .charges import ChargedResult, Face, can_charge, check_charge, test_charged, test_surrender
from .turn_effects import Handler, Log, enter_building, illegal, lose, own_unit
from .turn_state import (
    A,
    Charge,
    F,
    G,
    H,
    I,
    J,
    K,
    TestedCharge,
    WillExtra,
    WillState,
    charges_on,
    contacts_needed,
    firing_side,
    tested_charge,
    with_extra,
)
from .units import Status, TroopType
from .variants import end_highland_charge

CHARGED_TEXT = MappingProxyType({
    ChargedResult.STANDS: "stands its ground",
    ChargedResult.COUNTER_CHARGE: "stands its ground and may counter-charge",
    ChargedResult.ROUTS: "routs, losing 1 strength point",
    ChargedResult.ROUTS_SURRENDERS: "routs and surrenders",
    ChargedResult.SURRENDERS: "surrenders",
})
"""The result of a charged unit's test as the narration says it (Testing charged units)."""


def _declare(state: WillState, action: DeclareCharge, log: Log) -> WillState:
    charger = own_unit(state, action.charger, state.extra.moving, action)
    target = state.unit(action.target)
    if any(c.charger == charger.id for c in state.extra.charges):
        raise illegal(action, f"{charger.name} has already declared", rules.CHARGING)
    if state.extra.second_round and charger.id not in state.extra.winners:
        raise illegal(
            action, "only cavalry that charged successfully charge again", rules.SECOND_CHARGE
        )
    check_charge(charger, target, action.distance, action.in_front, action)
    others = charges_on(state, target.id)
    if others and others[0].facts != action.facts:
        raise illegal(action, "one charged unit has one set of position facts", rules.CHARGING)
    charge = Charge(
        charger.id, target.id, action.distance, action.facts, action.over_obstacle, action.uphill
    )
    log.add("charge", f"{charger.name} charges {target.name}", rules.CHARGING, charger.id)
    return with_extra(state, charges=(*state.extra.charges, charge))


def _end_f(state: WillState, action: EndPhase, log: Log) -> WillState:
    return attrs.evolve(state, phase=G)


def _test_charged(state: WillState, action: TestCharged, log: Log) -> WillState:
    chargers = tuple(state.unit(c.charger) for c in charges_on(state, action.target))
    if not chargers or tested_charge(state, action.target) is not None:
        raise illegal(action, "not a charged unit awaiting its test", rules.CHARGED_TEST)
    target = state.unit(action.target)
    facts = charges_on(state, action.target)[0].facts
    opts = state.extra.options
    if not target.on_table:
        result = ChargedResult.SURRENDERS
        log.add("charged", f"{target.name} is no longer on the table", rules.CHARGING, target.id)
    else:
        result = test_charged(target, chargers, facts, dice=log.dice, options=opts)
        log.add("charged", f"{target.name} {CHARGED_TEXT[result]}", rules.CHARGED_TEST, target.id)
        if result in (ChargedResult.SURRENDERS, ChargedResult.ROUTS_SURRENDERS):
            state = state.with_units(attrs.evolve(target, status=Status.SURRENDERED))
        elif result is ChargedResult.ROUTS:
            routed = attrs.evolve(target, status=Status.ROUTING, routed_last_move=True)
            routed = end_highland_charge(routed, False, True)
            if target.troop is TroopType.WAGON:
                routed = attrs.evolve(routed, immobilised=True)
            state = state.with_units(routed)
            state = lose(state, state.unit(target.id), 1, log, rules.CHARGED_TEST)
    # An already routing unit, or one charged in the rear that routed, has taken its one
    # surrender test here (Surrender (a), (b)); it does not test again at contact.
    surrender_tested = target.routing or (
        facts.face is Face.REAR and result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS)
    )
    tested = TestedCharge(
        action.target,
        result,
        decided=result is not ChargedResult.COUNTER_CHARGE,
        surrender_tested=surrender_tested,
    )
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS, ChargedResult.SURRENDERS):
        state = with_extra(
            state, winners=state.extra.winners | {c.id for c in chargers if c.troop.is_cavalry}
        )
    return with_extra(state, tests=(*state.extra.tests, tested))


def _end_g(state: WillState, action: EndPhase, log: Log) -> WillState:
    untested = {c.target for c in state.extra.charges} - {t.target for t in state.extra.tests}
    if untested:
        raise illegal(action, "every charged unit must test first", rules.CHARGING)
    return attrs.evolve(state, phase=H)


def _counter(state: WillState, action: CounterCharge, log: Log) -> WillState:
    t = tested_charge(state, action.target)
    if t is None or t.result is not ChargedResult.COUNTER_CHARGE or t.decided:
        raise illegal(
            action, "only a unit that scored below zero may counter-charge", rules.CHARGED_TEST
        )
    tests = tuple(
        attrs.evolve(x, counter=action.charge, decided=True) if x.target == t.target else x
        for x in state.extra.tests
    )
    name = state.unit(action.target).name
    log.add(
        "counter",
        f"{name} {'counter-charges' if action.charge else 'holds instead of counter-charging'}",
        rules.CHARGED_TEST,
        action.target,
    )
    return with_extra(state, tests=tests)


def _evade(state: WillState, action: Evade, log: Log) -> WillState:
    t = tested_charge(state, action.target)
    unit = state.unit(action.target)
    if not state.extra.options.evade:
        raise illegal(action, "evasion is an option not in play", rules.CHARGING)
    if (
        t is None
        or t.evaded
        or t.result not in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE)
        or not (unit.troop.is_cavalry or unit.arm.value == "open order foot")
    ):
        raise illegal(
            action, "only open order foot or cavalry that did not rout evade", rules.CHARGING
        )
    tests = tuple(
        attrs.evolve(x, evaded=True, decided=True) if x.target == t.target else x
        for x in state.extra.tests
    )
    log.add("evade", f"{unit.name} evades", rules.CHARGING, unit.id)
    return with_extra(state, tests=tests)


def _end_h(state: WillState, action: EndPhase, log: Log) -> WillState:
    if any(not t.decided for t in state.extra.tests):
        raise illegal(action, "every counter-charge choice must be made", rules.CHARGED_TEST)
    return attrs.evolve(state, phase=I)


def _contact(state: WillState, action: Contact, log: Log) -> WillState:
    charge = next((c for c in contacts_needed(state) if c.charger == action.charger), None)
    if charge is None:
        raise illegal(action, "no charger waiting to learn where its target went", rules.CHARGING)
    building = enter_building(state, state.unit(charge.charger), action.enters, action)
    charges = tuple(
        attrs.evolve(c, contact=True) if c.charger == charge.charger else c
        for c in state.extra.charges
    )
    state = with_extra(state, charges=charges)
    target = state.unit(charge.target)
    tested = tested_charge(state, charge.target)
    already = tested is not None and tested.surrender_tested
    if action.in_reach and target.on_table and target.routing and not already:
        if test_surrender(target, dice=log.dice, why="routing and successfully charged"):
            state = state.with_units(attrs.evolve(target, status=Status.SURRENDERED))
            log.add("surrender", f"{target.name} surrenders", rules.SURRENDER, target.id)
            return state
        log.add("contact", f"{target.name} is caught but runs on", rules.CHARGING, target.id)
    else:
        text = f"{state.unit(charge.charger).name} moves onto the ground its target left"
        if building is not None:
            text = f"{state.unit(charge.charger).name} occupies the {building.work.value}"
            text += " its target left"
        log.add("contact", text, rules.CHARGING, charge.charger)
    return state


def _end_i(state: WillState, action: EndPhase, log: Log) -> WillState:
    if contacts_needed(state):
        raise illegal(action, "chargers of routed or evaded units must move first", rules.CHARGING)
    return attrs.evolve(state, phase=J)


def _second(state: WillState, action: SecondCharges, log: Log) -> WillState:
    if state.extra.second_round:
        raise illegal(action, "cavalry charge a second time only once", rules.SECOND_CHARGE)
    ready = [
        u
        for u in state.units_of(state.extra.moving)
        if u.id in state.extra.winners and can_charge(u)
    ]
    if not ready:
        raise illegal(action, "no cavalry charged successfully", rules.SECOND_CHARGE)
    log.add("phase", "The second cavalry charges begin", rules.SECOND_CHARGE)
    return attrs.evolve(
        with_extra(state, second_round=True, charges=(), tests=(), resolved=frozenset()),
        phase=F,
    )


def _end_k(state: WillState, action: EndPhase, log: Log) -> WillState:
    other = firing_side(state)
    turn = state.turn + (1 if other == state.extra.first else 0)
    extra = WillExtra(
        moving=other,
        first=state.extra.first,
        options=state.extra.options,
        works=state.extra.works,
        demolitions=state.extra.demolitions,
    )
    log.add("phase", f"{other} to move", rules.SEQUENCE)
    return attrs.evolve(state, extra=extra, phase=A, turn=turn)


HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType({
    (F, DeclareCharge): _declare,
    (F, EndPhase): _end_f,
    (G, TestCharged): _test_charged,
    (G, EndPhase): _end_g,
    (H, CounterCharge): _counter,
    (H, Evade): _evade,
    (H, EndPhase): _end_h,
    (I, Contact): _contact,
    (I, EndPhase): _end_i,
    (K, SecondCharges): _second,
    (K, EndPhase): _end_k,
})
