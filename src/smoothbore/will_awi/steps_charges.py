"""Phases F to I and K (Rules - Charging, Second Cavalry Charges): declaring charges, testing
the charged units, counter-charges and evasion, contact, the second cavalry charges, and the
end of the move (the other side moves next; a turn is both sides' moves)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import IllegalActionError, Log, begin_turn, enter_phase, revised
from smoothbore.table import MoveTrace, contact_position

from . import rules
from .actions import (
    Contact,
    CounterCharge,
    DeclareCharge,
    EndBattle,
    EndPhase,
    Evade,
    SecondCharges,
    TestCharged,
)
from .charges import (
    ChargedResult,
    ChargeFacts,
    Face,
    can_charge,
    charge_reach,
    check_charge,
    test_charged,
)
from .effects import lose
from .movement import move_distance
from .narration import inches, stopper
from .phases import A, F, G, H, I, J
from .positions import kept_traces
from .situations import (
    MEASURED,
    SLACK,
    RoutSituation,
    boxes_apart,
    charge_ahead,
    charge_facts,
    charge_ground,
    in_charge_reach,
    near_units,
    nearest_enemy,
    onto,
    rout_facts,
)
from .state import (
    Charge,
    State,
    TestedCharge,
    building_entered,
    charges_on,
    command_rule,
    contacts_needed,
    firing_side,
    illegal,
    shared_facts,
    tested_charge,
    with_extra,
)
from .steps_morale import rout_at_once
from .units import Arm, Status, TroopType, Unit

CHARGED_TEXT: Mapping[ChargedResult, str] = MappingProxyType({
    ChargedResult.STANDS: "stands its ground",
    ChargedResult.COUNTER_CHARGE: "stands its ground and may counter-charge",
    ChargedResult.ROUTS: "routs, losing 1 strength point",
    ChargedResult.ROUTS_SURRENDERS: "routs and surrenders",
    ChargedResult.SURRENDERS: "surrenders",
})
"""The result of a charged unit's test as the narration says it (Testing charged units)."""


# --- F: DeclareCharge ----------------------------------------------------------------------
def candidates_declare_charge(state: State) -> Iterator[DeclareCharge]:
    """Each unshaken infantry or cavalry unit of the moving side not yet charging (in a second
    round, the successful cavalry), at each enemy unit on the table, from its charge reach
    (on a table, proposals: each enemy whose bounding box is within its reach; the check
    measures the reach). Worked out once per state (the end of F reads them too)."""
    yield from state.derived(charge_proposals)


def charge_proposals(state: State) -> tuple[DeclareCharge, ...]:
    """``candidates_declare_charge``, listed."""
    return tuple(_proposals(state))


def _proposals(state: State) -> Iterator[DeclareCharge]:
    extra = state.extra
    declared = {c.charger for c in extra.charges}
    targets = [u.id for u in state.units if u.side != extra.moving and u.on_table]
    for unit in state.units_of(extra.moving):
        if unit.id in declared or unit.id in extra.compelled or not can_charge(unit):
            continue
        if extra.second_round and unit.id not in extra.winners:
            continue
        if _needs_order(state, unit.id):
            continue
        if state.extra.table is not None:
            reach = charge_reach(unit) + SLACK
            near = near_units(state, unit.id, reach)
            for target in targets:
                if target in near and not boxes_apart(state, unit.id, target, reach):
                    yield DeclareCharge(unit.id, target)
            continue
        reach = charge_reach(unit)
        for target in targets:
            yield DeclareCharge(unit.id, target, reach)


def _needs_order(state: State, unit_id: str) -> bool:
    """With command and control, a unit that has no order this move does not charge (W6); a
    Highland charge needs none."""
    return (
        state.options.command_control
        and unit_id not in state.extra.ordered
        and not state.unit(unit_id).highland_charge
    )


@attrs.frozen
class DeclaredRuling:
    """What a charge's check measured, handed to its handler (engine contract v2): how far
    the charger goes straight ahead to contact (None: the target is not directly to its
    front), the ground of that way priced already."""

    ahead: float | None


def check_declare_charge(state: State, action: DeclareCharge) -> DeclaredRuling:
    """F: an unshaken infantry or cavalry unit of the moving side charges once, at an enemy
    directly to its front within charge reach; not a unit that routed or retired in B (W48)
    nor, with command and control, one without an order this move (W6); in a second round
    only cavalry that charged successfully; the chargers of one target share its position
    facts. The ruling is the reach measured (on a table; the player's distance without)."""
    charger = state.unit(action.charger)
    target = state.unit(action.target)
    if any(c.charger == charger.id for c in state.extra.charges):
        raise illegal(action, f"{charger.name} has already declared", rules.CHARGING)
    if charger.id in state.extra.compelled:
        raise illegal(action, f"{charger.name} made its compulsory move in B this move",
                      rules.SEQUENCE)
    if _needs_order(state, charger.id):
        raise illegal(action, f"{charger.name} has no order to move this move",
                      command_rule(state))
    if state.extra.second_round and charger.id not in state.extra.winners:
        raise illegal(
            action, "only cavalry that charged successfully charge again", rules.SECOND_CHARGE
        )
    if state.extra.table is not None:
        distance = declared_distance(state, action)
        check_charge(charger, target, distance or 0.0, distance is not None, action)
        return DeclaredRuling(distance)
    if action.distance is None:
        raise illegal(action, "distance: without a table the player gives the measured facts",
                      rules.CHARGING)
    check_charge(charger, target, action.distance, action.in_front, action)
    others = charges_on(state, target.id)
    if others and others[0].facts != action.facts:
        raise illegal(action, "one charged unit has one set of position facts", rules.CHARGING)
    return DeclaredRuling(action.distance)


def declared_distance(state: State, action: DeclareCharge) -> float | None:
    """On a table, how far the charger goes straight ahead to contact (None: the target is
    not directly to its front), as the table measures it (the action must give no measured
    facts): what the check reads (``situations.charge_ahead``; the rest of the charge's
    facts refuse nothing more)."""
    if (action.distance is not None or not action.in_front or action.facts != ChargeFacts()
            or action.over_obstacle or action.uphill):
        raise illegal(action, MEASURED, rules.CHARGING)
    target = state.unit(action.target)
    if not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table", rules.CHARGING)
    ahead = charge_ahead(state, action.charger, action.target, action)[1]
    charger = state.unit(action.charger)
    if ahead is not None and ahead <= charge_reach(charger) + 1e-9:
        charge_ground(state, charger, action.target, ahead, action)
    return ahead


def apply_declare_charge(state: State, action: DeclareCharge, log: Log,
                         ruling: DeclaredRuling) -> State:
    """The charge is declared; the target tests in G. On a table the check has measured the
    reach (``ruling``) and refused what it refuses; the rest of the charge's facts are
    measured here (``situations.charge_facts``: its face, obstacle, slope)."""
    charger, target = state.unit(action.charger), state.unit(action.target)
    table = state.extra.table
    if table is None:
        assert action.distance is not None
        charge = Charge(charger.id, target.id, action.distance, action.facts,
                        action.over_obstacle, action.uphill)
        log.add("charge", f"{charger.name} charges {target.name}", rules.CHARGING, charger.id)
        return with_extra(state, charges=(*state.extra.charges, charge))
    found = charge_facts(state, action.charger, action.target, action)
    distance = found.distance or 0.0
    charge = Charge(charger.id, target.id, distance, found.facts, found.over_obstacle,
                    found.uphill)
    how = (f"{inches(distance)} straight ahead" if distance >= IN_CONTACT
           else "already in contact")
    log.add("charge", f"{charger.name} charges {target.name}, {how}, into its "
            f"{found.facts.face.value}", rules.CHARGING, charger.id)
    state = with_extra(state, charges=(*state.extra.charges, charge))
    return moved_into_contact(state, charger.id, target.id)


def moved_into_contact(state: State, charger: str, target: str) -> State:
    """On a table, the charger goes straight ahead until it touches its target (the charge
    move), leaving a trace."""
    table = state.extra.table
    assert table is not None
    start = table.footprint(charger)
    end = contact_position(table, charger, target)
    if not table.holds(end):
        return state
    trace = MoveTrace(charger, (start.centre, end.centre))
    moved = table.placed(end).with_traces(*kept_traces(table), trace)
    return with_extra(state, table=moved)




IN_CONTACT = 0.05
"""A target this near straight ahead is touched: the charge is "already in contact"."""


def compulsory_charges(state: State) -> tuple[DeclareCharge, ...]:
    """On a table, the charges the moving player must still declare in F (W25): each unit
    touching an enemy directly to its front ("All units that have enemy units to the front
    of any of their bases must engage in melee"), and each unit in a Highland charge at
    the nearest enemy (it "must move its full distance towards the nearest enemy unit"),
    where that charge may be declared."""
    if state.extra.table is None:
        return ()
    out: list[DeclareCharge] = []
    for action in candidates_declare_charge(state):
        unit = state.unit(action.charger)
        if unit.highland_charge:
            if action.target != nearest_enemy(state, unit.id):
                continue
        else:
            if boxes_apart(state, action.charger, action.target, IN_CONTACT + SLACK):
                continue
            ahead = charge_ahead(state, action.charger, action.target, action)[1]
            if ahead is None or ahead > IN_CONTACT:
                continue
        try:
            check_declare_charge(state, action)
        except IllegalActionError:
            continue
        out.append(action)
    return tuple(out)


def check_end_f(state: State, action: EndPhase) -> None:
    """F ends once no charge is compulsory (``compulsory_charges``); the others are the
    moving player's choice."""
    due = compulsory_charges(state)
    if due:
        names = ", ".join(f"{state.unit(a.charger).name} on "
                          f"{state.unit(a.target).name}" for a in due)
        highland = all(state.unit(a.charger).highland_charge for a in due)
        raise illegal(action, f"these charges must be declared: {names}",
                      rules.FORTY_FIVE if highland else rules.MELEE)


def apply_end_f(state: State, action: EndPhase, log: Log) -> State:
    """On to G."""
    return enter_phase(state, G)


# --- G: TestCharged ------------------------------------------------------------------------
def candidates_test_charged(state: State) -> Iterator[TestCharged]:
    """Each charged unit still to test, in any order the moving player likes."""
    tested = {t.target for t in state.extra.tests}
    seen: set[str] = set()
    for charge in state.extra.charges:
        if charge.target not in tested and charge.target not in seen:
            seen.add(charge.target)
            yield TestCharged(charge.target)


def check_test_charged(state: State, action: TestCharged) -> None:
    """G: a unit charged this round, not yet tested."""
    if not charges_on(state, action.target) or tested_charge(state, action.target) is not None:
        raise illegal(action, "not a charged unit awaiting its test", rules.CHARGED_TEST)


def apply_test_charged(state: State, action: TestCharged, log: Log) -> State:
    """1d6 plus factors against basic morale: rout (losing a point), stand, or may
    counter-charge; an already routing unit may surrender, else routs on."""
    charges = charges_on(state, action.target)
    chargers = tuple(state.unit(c.charger) for c in charges)
    target = state.unit(action.target)
    facts = shared_facts(charges)
    if not target.on_table:
        result = ChargedResult.SURRENDERS
        log.add("charged", f"{target.name} is no longer on the table", rules.CHARGING, target.id)
    else:
        result = test_charged(target, chargers, facts, dice=log.dice, options=state.options)
        text = CHARGED_TEXT[result]
        if target.routing and result is ChargedResult.ROUTS:
            text = "does not surrender and routs on, losing 1 strength point"
        log.add("charged", f"{target.name} {text}", rules.CHARGED_TEST, target.id,
                facts={"test": "charged", "result": result.value})
        if result in (ChargedResult.SURRENDERS, ChargedResult.ROUTS_SURRENDERS):
            state = state.with_units(revised(target, status=Status.SURRENDERED))
        elif result is ChargedResult.ROUTS:
            routed = revised(
                target, status=Status.ROUTING, routed_last_move=True, highland_charge=False
            )
            if target.troop is TroopType.WAGON:
                routed = revised(routed, immobilised=True)
            state = state.with_units(routed)
            state = lose(state, state.unit(target.id), 1, log, rules.CHARGED_TEST)
    # An already routing unit, or one charged in the rear that routed, has taken its one
    # surrender test here (Surrender (a), (b)); it does not test again at contact.
    surrender_tested = target.routing or (
        facts.face is Face.REAR and result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS)
    )
    table = state.extra.table
    tested = TestedCharge(
        action.target,
        result,
        decided=result is not ChargedResult.COUNTER_CHARGE,
        surrender_tested=surrender_tested,
        origin=(table.footprint(target.id).centre
                if table is not None and target.id in table.unit_ids else None),
    )
    if result is ChargedResult.ROUTS:
        state = rout_at_once(state, target.id, log)
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS, ChargedResult.SURRENDERS):
        state = with_extra(
            state, winners=state.extra.winners | {c.id for c in chargers if c.troop.is_cavalry}
        )
    return with_extra(state, tests=(*state.extra.tests, tested))


def check_end_g(state: State, action: EndPhase) -> None:
    """G ends once every charged unit has tested."""
    untested = {c.target for c in state.extra.charges} - {t.target for t in state.extra.tests}
    if untested:
        raise illegal(action, "every charged unit must test first", rules.CHARGING)


def apply_end_g(state: State, action: EndPhase, log: Log) -> State:
    """On to H."""
    return enter_phase(state, H)


# --- H: CounterCharge and Evade --------------------------------------------------------------
def candidates_counter_charge(state: State) -> Iterator[CounterCharge]:
    """Each unit that scored below zero: counter-charge or hold."""
    for t in state.extra.tests:
        if t.result is ChargedResult.COUNTER_CHARGE and not t.decided:
            yield CounterCharge(t.target, True)
            yield CounterCharge(t.target, False)


def check_counter_charge(state: State, action: CounterCharge) -> None:
    """H: only a unit that scored below zero, once."""
    t = tested_charge(state, action.target)
    if t is None or t.result is not ChargedResult.COUNTER_CHARGE or t.decided:
        raise illegal(
            action, "only a unit that scored below zero may counter-charge", rules.CHARGED_TEST
        )


def apply_counter_charge(state: State, action: CounterCharge, log: Log) -> State:
    """The unit counter-charges (it fights as a charger) or holds."""
    tests = tuple(
        revised(x, counter=action.charge, decided=True) if x.target == action.target else x
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


def candidates_evade(state: State) -> Iterator[Evade]:
    """With the evade option: each charged unit that did not rout."""
    if not state.options.evade:
        return
    for t in state.extra.tests:
        if not t.evaded and t.result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            yield Evade(t.target)


def check_evade(state: State, action: Evade) -> None:
    """H (option ``evade``, W23): open order foot or cavalry that stood may evade."""
    if not state.options.evade:
        raise illegal(action, "evasion is an option not in play", rules.CHARGING)
    t = tested_charge(state, action.target)
    unit = state.unit(action.target)
    if (
        t is None
        or t.evaded
        or t.result not in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE)
        or not (unit.troop.is_cavalry or unit.arm is Arm.OPEN_ORDER_FOOT)
        or not unit.on_table
    ):
        raise illegal(
            action, "only open order foot or cavalry that did not rout evade", rules.CHARGING
        )
    way = _evasion(state, unit) if state.extra.table is not None else None
    if way is not None and way.end is None and not way.leaves_table:
        raise illegal(action, f"{unit.name} has no way to fall back a full move further from "
                      "every enemy it sees, so it cannot evade and must fight (W23)",
                      rules.CHARGING)


def _evasion(state: State, unit: Unit) -> RoutSituation:
    """Where an evading unit's full move goes on a table: the way a rout would go (W23)."""
    return rout_facts(state, unit, float(move_distance(unit, options=state.options)))


def apply_evade(state: State, action: Evade, log: Log) -> State:
    """The unit evades: no melee; its chargers take its ground in I."""
    tests = tuple(
        revised(x, evaded=True, decided=True) if x.target == action.target else x
        for x in state.extra.tests
    )
    unit = state.unit(action.target)
    leaves = state.extra.table is not None and _evasion(state, unit).leaves_table
    text = (f"{unit.name} evades off the table and is out of the battle" if leaves
            else f"{unit.name} evades")
    log.add("evade", text, rules.CHARGING, action.target)
    state = with_extra(state, tests=tests)
    if state.extra.table is not None:
        state = evaded_on_table(state, unit)
    return state


def evaded_on_table(state: State, unit: Unit) -> State:
    """On a table the evading unit falls back a full move away from every enemy it sees
    (as a rout goes, W23), facing the way it went; a full move that runs over its side's
    edge takes it off the table, out of the battle, as a rout's does (the check refuses an
    evasion with no way open: the unit fights)."""
    table = state.extra.table
    assert table is not None
    found = _evasion(state, unit)
    if found.leaves_table:
        return state.with_units(revised(unit, status=Status.OFF_TABLE))
    if found.end is None:
        return state
    trace = MoveTrace(unit.id, (table.footprint(unit.id).centre, found.end.centre))
    return with_extra(state, table=table.placed(found.end).with_traces(
        *kept_traces(table), trace))


def check_end_h(state: State, action: EndPhase) -> None:
    """H ends once every counter-charge choice is made."""
    if any(not t.decided for t in state.extra.tests):
        raise illegal(action, "every counter-charge choice must be made", rules.CHARGED_TEST)


def apply_end_h(state: State, action: EndPhase, log: Log) -> State:
    """On to I."""
    return enter_phase(state, I)


# --- I: Contact ----------------------------------------------------------------------------
def candidates_contact(state: State) -> Iterator[Contact]:
    """Each charger whose target routed or evaded: the target out of reach (the charger takes
    its place), or a routed target still within reach."""
    for charge in contacts_needed(state):
        if state.extra.table is not None:
            yield Contact(charge.charger, contact_in_reach(state, charge))
            continue
        yield Contact(charge.charger, False)
        if state.unit(charge.target).routing:
            yield Contact(charge.charger, True)


def contact_in_reach(state: State, charge: Charge) -> bool:
    """On a table: a routed target still on the table and directly ahead within the
    charger's reach (the charger has made its charge move)."""
    target = state.unit(charge.target)
    if not target.routing or not target.on_table:
        return False
    return in_charge_reach(state, state.unit(charge.charger), target.id)


def check_contact(state: State, action: Contact) -> None:
    """I: a charger whose target routed, surrendered or evaded and which has not moved yet;
    ``in_reach`` only for a target that routed and is still on the table (an evading unit
    gets out of reach, W23); a building it takes must have room."""
    charge = next((c for c in contacts_needed(state) if c.charger == action.charger), None)
    if charge is None:
        raise illegal(action, "no charger waiting to learn where its target went", rules.CHARGING)
    if action.in_reach and not state.unit(charge.target).routing:
        raise illegal(action, "only a routed target can still be within charge reach",
                      rules.CHARGING)
    if state.extra.table is not None and (
            action.enters is not None or action.in_reach != contact_in_reach(state, charge)):
        raise illegal(action, MEASURED, rules.CHARGING)
    building_entered(state, state.unit(charge.charger), action.enters, action)


def apply_contact(state: State, action: Contact, log: Log) -> State:
    """A routed target still within reach: the charger moves into contact with it (it does
    not fight; Surrender (b) was its test's, W24); otherwise the charger takes the target's
    original position (on a table, straight ahead onto the ground it stood on)."""
    charge = next(c for c in contacts_needed(state) if c.charger == action.charger)
    building = building_entered(state, state.unit(charge.charger), action.enters, action)
    charges = tuple(
        revised(c, contact=True) if c.charger == charge.charger else c
        for c in state.extra.charges
    )
    state = with_extra(state, charges=charges)
    target = state.unit(charge.target)
    tested = tested_charge(state, charge.target)
    charger = state.unit(charge.charger)
    table = state.extra.table
    if action.in_reach:
        if table is not None:
            state = moved_into_contact(state, charger.id, target.id)
        log.add("contact", f"{charger.name} is in contact with {target.name}, which is "
                "routing and does not fight", rules.CHARGING, target.id)
        return state
    short = ""
    if table is not None and tested is not None and tested.origin is not None:
        went = onto(state, charger, tested.origin)
        by = stopper(went.stopped_by, {u.id: u.name for u in state.units})
        if went.distance < 0.05 and went.stopped_by:
            log.add("contact", f"{charger.name} cannot move onto the ground its target left: "
                    f"{by} is in the way", rules.CHARGING, charge.charger)
            return state
        if went.distance > 0:
            trace = MoveTrace(charger.id, (table.footprint(charger.id).centre, went.end.centre))
            state = with_extra(state, table=table.placed(went.end).with_traces(
                *kept_traces(table), trace))
        if went.distance >= 0.05:
            short = f" ({inches(went.distance)})"
        if went.stopped_by:
            short += f": {by} stops it short"
    if building is not None:
        text = f"{charger.name} occupies the {building.work.value} its target left"
    else:
        text = f"{charger.name} moves onto the ground its target left{short}"
    log.add("contact", text, rules.CHARGING, charge.charger)
    return state


def check_end_i(state: State, action: EndPhase) -> None:
    """I ends once every charger of a routed or evaded target has moved."""
    if contacts_needed(state):
        raise illegal(action, "chargers of routed or evaded units must move first", rules.CHARGING)


def apply_end_i(state: State, action: EndPhase, log: Log) -> State:
    """On to J."""
    return enter_phase(state, J)


# --- K: SecondCharges, the end of the move, EndBattle ------------------------------------------
def candidates_second_charges(state: State) -> Iterator[SecondCharges]:
    """The second round, once a cavalry unit has charged successfully this move."""
    if state.extra.winners and not state.extra.second_round:
        yield SecondCharges()


def check_second_charges(state: State, action: SecondCharges) -> None:
    """K: once a move, when a cavalry unit of the moving side that charged successfully can
    charge again."""
    if state.extra.second_round:
        raise illegal(action, "cavalry charge a second time only once", rules.SECOND_CHARGE)
    if not any(
        u.id in state.extra.winners and can_charge(u)
        for u in state.units_of(state.extra.moving)
    ):
        raise illegal(action, "no cavalry charged successfully", rules.SECOND_CHARGE)


def apply_second_charges(state: State, action: SecondCharges, log: Log) -> State:
    """F to J again, for the successful cavalry only: the round starts with no charges."""
    log.add("phase", "The second cavalry charges begin", rules.SECOND_CHARGE)
    state = with_extra(state, second_round=True, charges=(), tests=(), resolved=frozenset())
    return enter_phase(state, F)


def check_end_k(state: State, action: EndPhase) -> None:
    """K may end at any time: a second charge is the moving player's choice."""


def apply_end_k(state: State, action: EndPhase, log: Log) -> State:
    """The move ends; the other side moves, and after both sides have moved the next turn
    begins. Each move starts with its scratch state reset."""
    other = firing_side(state)
    turn = state.turn + (1 if other == state.extra.first else 0)
    log.add("phase", f"{other} to move", rules.SEQUENCE)
    state = begin_turn(state, A, turn)
    return with_extra(state, moving=other)


def candidates_end_battle(state: State) -> Iterator[EndBattle]:
    """Breaking off, where the scenario allows it."""
    if state.scenario.players_may_end:
        yield EndBattle()


def check_end_battle(state: State, action: EndBattle) -> None:
    """K: only where the scenario lets players end the battle, and not before both sides have
    made their first move (W47)."""
    if not state.scenario.players_may_end:
        raise illegal(action, "this scenario does not let the players end the battle",
                      rules.VICTORY)
    if state.turn < 2:
        raise illegal(action, "both sides make their first move before either may break off",
                      rules.VICTORY)


def apply_end_battle(state: State, action: EndBattle, log: Log) -> State:
    """The moving player breaks off: the battle is over and losses decide it."""
    log.add("end", f"{state.extra.moving} breaks off the battle at the end of its move",
            rules.VICTORY)
    return with_extra(state, ended_by=state.extra.moving)
