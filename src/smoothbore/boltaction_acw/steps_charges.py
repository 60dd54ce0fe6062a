"""Charges and melee in play: the charge order, the charged unit's reaction in its
opponent's turn, the melee that follows and melees that go on into the next turn (Melee).
For each action, its candidates, roll-free check and handler."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from smoothbore.core import IllegalActionError, Log, enter_phase
from smoothbore.table import Footprint, MoveTrace, Table, contact_position, region_of

from . import situations
from .actions import Charge, FightOn, Respond
from .charges import ChargeFacts, Reaction, Response, charge_problem, receive, responses
from .melee import FALL_BACK, MeleeFacts, MeleeOutcome, MeleeResult, fight
from .movement import charge_reach, rate
from .phases import DRAW, ORDERS, REACTION
from .placing import LINEAR, WOODS
from .rules import (
    RULE_CAVALRY,
    RULE_CHARGE,
    RULE_CHARGED,
    RULE_COMBAT,
    RULE_MELEE_RESULT,
    RULE_REACTIONS,
)
from .state import (
    Engaged,
    PendingCharge,
    Situation,
    State,
    command_for,
    routing_friends,
    situation,
    with_units,
)
from .steps_orders import (
    candidates_kept,
    check_actor,
    check_enemy,
    check_group_ready,
    check_moves,
    movers,
    recent_traces,
    refuse_measured,
    take_order,
)
from .steps_sequence import check_no_routs
from .units import Unit, UnitType


# --- the charge order ---------------------------------------------------------------------
def second_reach(state: State, unit_id: str) -> int | None:
    """The charge reach left to victorious cavalry for a second charge this turn."""
    for uid, inches in state.extra.second:
        if uid == unit_id:
            return inches
    return None


CHARGE_DISTANCE = 6
"""The candidates' charge distance: 6", within every charge reach."""


FOOT_CHARGES = (ChargeFacts(CHARGE_DISTANCE),)
CAVALRY_CHARGES = (ChargeFacts(CHARGE_DISTANCE), ChargeFacts(CHARGE_DISTANCE, flank=True))


def candidates_charge(state: State) -> Iterator[Charge]:
    """Each acting unit (and victorious cavalry with reach left) at each enemy."""
    known = situation(state)
    chargers = list(movers(state, known)) + [state.unit(uid) for uid, _ in state.extra.second]
    if state.extra.table is not None:
        yield from _table_charges(state, chargers, known)
        return
    for unit in chargers:
        yield from _charges(unit.id, unit.kind is UnitType.CAVALRY,
                            known.enemies.get(unit.side, ()))


def _table_charges(state: State, chargers: list[Unit], known: Situation) -> Iterator[Charge]:
    """On a table: each charger that can charge at each enemy that might stand within its
    reach, told by the boxes round the units (a charger that cannot charge, or an enemy
    further than a run, is refused whatever the rest). Proposals: the check measures the
    charge (straight ahead, nothing in the way)."""
    table = situations.table_of(state)
    for unit in chargers:
        enemies = known.enemies.get(unit.side, ())
        if not _cannot_charge(unit):
            yield from candidates_kept(table, ("charges", unit, enemies), functools.partial(
                _charges_in_reach, table, unit, enemies))


def _charges_in_reach(table: Table, unit: Unit, enemies: tuple[str, ...]
                      ) -> tuple[Charge, ...]:
    """The charges of a unit at each enemy that might stand within its reach."""
    close = situations.near(table, unit.id, charge_reach(unit))
    return _charges_at(unit.id, tuple(target_id for target_id in enemies if target_id in close))


@functools.lru_cache(maxsize=4096)
def _charges_at(unit_id: str, targets: tuple[str, ...]) -> tuple[Charge, ...]:
    """The charges of a unit at each of ``targets``, made once for each set of targets."""
    return tuple(Charge(unit_id, target_id) for target_id in targets)


def _cannot_charge(unit: Unit) -> bool:
    """A unit that cannot charge whatever the target (``charge_problem``'s first test)."""
    return unit.skirmishing or unit.kind not in (UnitType.INFANTRY, UnitType.CAVALRY)


@functools.lru_cache(maxsize=4096)
def _charges(unit_id: str, cavalry: bool, targets: tuple[str, ...]) -> tuple[Charge, ...]:
    """The charge candidates of a unit, made once for each set of targets: from 6", from
    the front, and for cavalry (who may not charge unpinned infantry in line from the
    front) from the flank too."""
    facts = CAVALRY_CHARGES if cavalry else FOOT_CHARGES
    return tuple(Charge(unit_id, target, fact) for target in targets for fact in facts)


def check_charge(state: State, action: Charge) -> None:
    """Charge an enemy to the unit's direct front within a run (Melee), or a second charge
    of victorious cavalry within the reach they have left."""
    known = situation(state)
    reach = second_reach(state, action.unit_id) if state.extra.second else None
    if reach is None:
        unit = check_actor(state, action, action.unit_id, known)
        check_moves(state, action, unit)
    else:
        check_group_ready(state, action)
        unit = state.unit(action.unit_id)
    target = check_enemy(state, action, unit, action.target_id, RULE_CHARGE, known)
    facts = action.facts
    if state.extra.table is not None:
        refuse_measured(action, facts != NO_CHARGE)
        facts = table_charge(state, action, unit, target)
    if reach is not None and facts.distance > reach:
        raise IllegalActionError(action, f"{unit.name} has {reach}\" of charge left",
                                 RULE_CAVALRY)
    problem = charge_problem(unit, target, facts)
    if problem:
        raise IllegalActionError(action, problem, RULE_CHARGE)


NO_CHARGE = ChargeFacts()
"""The facts a charge carries on a table: the defaults (the table measures)."""


def table_charge(state: State, action: object, charger: Unit, target: Unit) -> ChargeFacts:
    """The charge measured on the table, refused when a unit stands in the way (A27).
    Whether the target defends an obstacle is looked for only when the charger is cavalry:
    ``charge_problem`` asks it of no one else (the handler measures it for every charge)."""
    found = situations.charge_situation(state, charger.id, target.id,
                                        defended=charger.kind is UnitType.CAVALRY)
    if found.problem:
        raise IllegalActionError(action, found.problem, found.rule)
    return found.facts


def _charge_facts(state: State, action: Charge) -> ChargeFacts:
    if state.extra.table is None:
        return action.facts
    return situations.charge_situation(state, action.unit_id, action.target_id).facts


def apply_charge(state: State, action: Charge, log: Log) -> State:
    """The chargers take an order test (A12); passed, the charged unit reacts."""
    unit, target = state.unit(action.unit_id), state.unit(action.target_id)
    facts = _charge_facts(state, action)
    second = second_reach(state, unit.id) is not None
    if second:  # the one more charge victorious cavalry may make this turn (Melee)
        extra = state.extra
        state = state.with_extra(
            second=tuple(s for s in extra.second if s[0] != unit.id),
            recharged=extra.recharged | {unit.id})
    what = f"{'second ' if second else ''}charge {target.name}"
    passed, new = take_order(state, unit, log, what, aggressive=True, always=True)
    if not passed or not new.unit(unit.id).in_the_fight:
        return new
    face = ("" if state.extra.table is None else
            " in the rear" if facts.rear else " in the flank" if facts.flank else
            " in the front")
    log.add("charge", f"{unit.name} charges {target.name}{face} from {facts.distance}\"",
            RULE_CHARGE, unit.id)
    new = enter_phase(new, REACTION)
    return new.with_extra(
        charge=PendingCharge(unit.id, target.id, facts))


# --- the reaction ---------------------------------------------------------------------------
def candidates_respond(state: State) -> Iterator[Respond]:
    """Each reaction open to the charged unit, with no friend behind or each friend."""
    charge = state.extra.charge
    if charge is None:
        return
    charger, target = state.unit(charge.charger_id), state.unit(charge.target_id)
    friends = [u.id for u in state.units
               if u.side == target.side and u.id != target.id and u.in_the_fight]
    for response in responses(charger, target, charge.facts,
                              in_arc=point_blank_arc(state, target.id, charger.id)):
        yield Respond(target.id, response)
        if response.value != "evade" and state.extra.table is None:
            for friend in friends:
                yield Respond(target.id, response, friend)


def point_blank_arc(state: State, target_id: str, charger_id: str) -> bool:
    """Whether the charged unit may fire at point blank at the charger: on a table, the
    charger where it stands in the unit's 45° front arc, as every shot must be (Shooting;
    A24); without a table the players have said so by charging."""
    table = state.extra.table
    if table is None:
        return True
    if situations.outside_arc(table, target_id, charger_id):
        return False
    seen = situations.sighting_of(table, target_id, charger_id)
    return seen is not None and seen.in_arc


def check_respond(state: State, action: Respond) -> None:
    """The charged unit reacts as it may (Melee; The Turn, 4)."""
    check_no_routs(state, action)
    charge = state.extra.charge
    if charge is None:
        raise IllegalActionError(action, "no charge is waiting", RULE_REACTIONS)
    charger, target = state.unit(charge.charger_id), state.unit(charge.target_id)
    if action.unit_id != target.id:
        raise IllegalActionError(action, f"{target.name} is the charged unit, not "
                                 f"{action.unit_id!r}", RULE_CHARGED)
    allowed = responses(charger, target, charge.facts,
                        in_arc=point_blank_arc(state, target.id, charger.id))
    if action.response not in allowed:
        raise IllegalActionError(
            action, f"{target.name} may: {', '.join(map(str, allowed))}", RULE_CHARGED)
    if action.behind is not None:
        refuse_measured(action, state.extra.table is not None)
        friend = state.unit(action.behind)
        if (action.response.value == "evade" or friend.side != target.side
                or friend.id == target.id or not friend.in_the_fight):
            raise IllegalActionError(action, f"{friend.name} is not a friendly unit behind "
                                     f"{target.name}", RULE_CHARGED)


def apply_respond(state: State, action: Respond, log: Log) -> State:
    """The reaction, then the melee if the chargers charge home (Melee)."""
    charge = state.extra.charge
    assert charge is not None
    charger, target = state.unit(charge.charger_id), state.unit(charge.target_id)
    behind = state.unit(action.behind) if action.behind is not None else None
    flight = None
    if state.extra.table is not None:
        flight = situations.retreat_flight(state, target.id, charger.id)
        behind = state.unit(flight.through[0]) if flight.through else None
    commands = (command_for(state, charger), command_for(state, target),
                command_for(state, behind) if behind is not None else command_for(state, target))
    result = receive(charger, target, charge.facts, action.response, behind, dice=log.dice,
                     options=state.options, commands=commands,
                     routing_friends=routing_friends(state, charger))
    reaction = result.reaction
    failed = reaction in (Reaction.RETREATED, Reaction.STOPPED)
    unpinned = ""
    if result.target.pins < target.pins:
        unpinned = (" (passed its interpolation test: loses a pin)" if failed
                    else " (passed its order test: loses a pin)")
    log.add("reaction", f"{target.name}: {action.response}{unpinned}: {result}", RULE_CHARGED,
            target.id, facts=_reaction_facts(action.response, reaction, result.behind,
                                             result.fire is not None))
    changed = [result.charger, result.target] + ([result.behind] if result.behind else [])
    new = with_units(state, *changed)
    new = enter_phase(new, ORDERS)
    new = new.with_extra(charge=None)
    if failed:  # no other orders this turn but hand to hand fighting (Order tests)
        new = new.with_extra(failed=new.extra.failed | {target.id})
    if flight is not None:
        new = _close_in(new, charger.id, target.id, reaction, flight, log,
                        situations.table_of(state))
    facts = MeleeFacts(charge.facts.flank, charge.facts.rear, charge.facts.obstacle)
    if reaction is Reaction.HALTED:
        return new.with_extra(halted=new.extra.halted | {charger.id})
    if reaction is Reaction.CAUGHT:
        return _victory(new, charger.id, charge.facts, log)
    if reaction is Reaction.STOPPED:
        return melee(new, charger.id, target.id, MeleeFacts(rear=True), log, charge.facts)
    if reaction is Reaction.CHARGE_HOME:
        return melee(new, charger.id, target.id, facts, log, charge.facts)
    if reaction is Reaction.COUNTER_CHARGED:
        return melee(new, charger.id, target.id, facts, log, charge.facts, counter=True)
    return new


def _reaction_facts(response: Response, reaction: Reaction, behind: Unit | None,
                    fired: bool = False) -> dict[str, str]:
    """The charged unit's tests as structured facts: its order test (none for skirmishers,
    who evade), retreating into a friend its interpolation test, and after point blank fire
    the chargers' morale test (Melee)."""
    if response is Response.EVADE:
        return {"reaction": reaction.name.lower()}
    if reaction not in (Reaction.RETREATED, Reaction.STOPPED):
        facts = {"test": "order", "result": "passed", "reaction": reaction.name.lower()}
        if fired and reaction in (Reaction.CHARGE_HOME, Reaction.HALTED):
            facts["chargers' morale"] = ("passed" if reaction is Reaction.CHARGE_HOME
                                         else "failed")
        return facts
    facts = {"test": "order", "result": "failed", "reaction": reaction.name.lower()}
    if behind is not None:
        facts["interpolation"] = "failed" if reaction is Reaction.STOPPED else "passed"
    return facts


def _close_in(state: State, charger_id: str, target_id: str, reaction: Reaction,
              flight: situations.Flight, log: Log, declared: Table) -> State:
    """On a table (A27): a charged unit that retreats or evades goes a full move straight
    away from the charger (through the friend behind it if it passed); one that stops turns
    its back to the enemy; then a charger that charges home or meets a counter charge moves
    straight ahead into contact (one that halts or routs stays where it was). The contact is
    measured from the charger as it stood when it declared (``declared``): a charger that
    lost bases to point blank fire still charges home, its narrower front laid where the
    wider one touched (A27)."""
    table = situations.table_of(state)
    before = table
    if target_id not in table.units or charger_id not in table.units:
        return state
    if reaction in (Reaction.RETREATED, Reaction.EVADED) and flight.end is not None:
        end = flight.end
        table = table.placed(end)
        unit = state.unit(target_id)
        log.add("move", f"{unit.name} retreats {flight.moved:.1f}\" of its {rate(unit)}\" to "
                f"({end.x:.1f}, {end.y:.1f}){_stopped(state, target_id, flight.stopped_by)}",
                RULE_CHARGED, target_id)
    if reaction is Reaction.STOPPED:
        table = table.placed(table.footprint(target_id).turned(180.0))
    if reaction in (Reaction.CHARGE_HOME, Reaction.COUNTER_CHARGED, Reaction.STOPPED):
        start = declared.footprint(charger_id)
        contact = _contact(declared, before.footprint(charger_id), target_id)
        table = table.placed(contact)
        if contact.centre != start.centre:
            table = table.with_traces(*recent_traces(before),
                                      MoveTrace(charger_id, (start.centre, contact.centre)))
        log.add("move", f"{state.unit(charger_id).name} moves into contact at "
                f"({contact.x:.1f}, {contact.y:.1f})", RULE_CHARGE, charger_id)
    return state if table is before else state.with_extra(table=table)


def _stopped(state: State, unit_id: str, what: str) -> str:
    """What stopped a retreat short of its full move, for the narration ("" if nothing):
    an enemy 1" away (A26), a friend it would end on (A29), the table edge, or ground it may
    not cross in this move."""
    if what in ("", "allowance"):
        return ""
    table = situations.table_of(state)
    if what in table.units:
        if what in table.enemies_of(unit_id):
            return f", stopped 1\" short of {state.unit(what).name}"
        return f", stopped short of {state.unit(what).name}, not to end on it"
    if what == "table edge":
        return ", stopped by the table edge"
    feature = table.feature(what)
    name = feature.label or feature.kind
    if feature.kind in WOODS:
        return f", slowed by {name}"
    if feature.kind in LINEAR:
        return f", stopped at {name} (crossing it costs half a move)"
    return f", stopped by {name}"


def _contact(declared: Table, now: Footprint, target_id: str) -> Footprint:
    """The charger (``now``, as it is after the point blank fire) in contact with the
    target: the declared charger moved straight ahead until it touches, and a charger made
    narrower or shorter laid with the same front edge, slid along it towards the point of
    contact so that it still touches (A27)."""
    wide = contact_position(declared, now.unit_id, target_id)
    if (now.width, now.length) == (wide.width, wide.length):
        return now.moved_to(wide.x, wide.y, wide.facing)
    target = declared.footprint(target_id)
    touch = region_of(wide).nearest(target)[1]
    across = float(wide.local([touch])[0][0])
    room = max(0.0, (wide.width - now.width) / 2)
    across = min(room, max(-room, across))
    x, y = wide.to_table(across, (wide.length - now.length) / 2)
    return now.moved_to(x, y, wide.facing)


def melee(state: State, charger_id: str, defender_id: str, facts: MeleeFacts, log: Log,
          charge: ChargeFacts | None = None, *, counter: bool = False) -> State:
    """A round of melee and its consequences: routers queued, a melee that continues kept
    for next turn, victorious cavalry free to charge again (Melee)."""
    charger, defender = state.unit(charger_id), state.unit(defender_id)
    result, hurt_charger, hurt_defender = fight(
        charger, defender, facts, charging=charge is not None, simultaneous=counter,
        defender_charging=counter, dice=log.dice, options=state.options,
        commands=(command_for(state, charger), command_for(state, defender)),
        routing_friends=(routing_friends(state, charger), routing_friends(state, defender)))
    log.add("melee", f"{charger.name} against {defender.name}: {result}", RULE_COMBAT,
            charger.id, facts=melee_facts(result))
    new = with_units(state, hurt_charger, hurt_defender)
    if result.outcome is MeleeOutcome.CONTINUES:
        if new.unit(charger_id).in_the_fight and new.unit(defender_id).in_the_fight:
            extra = new.extra
            return new.with_extra(
                melees=(*extra.melees, Engaged(charger_id, defender_id, facts)))
        return new
    if result.outcome is MeleeOutcome.VICTOR_FALLS_BACK:
        log.add("melee", "the victors fall back 2\" facing the enemy", RULE_MELEE_RESULT)
        if new.extra.table is not None:
            victor, loser = ((charger_id, defender_id) if result.winner == "charger"
                             else (defender_id, charger_id))
            return _fall_back(new, victor, loser, log)
        return new
    if result.winner == "charger" and charge is not None:
        return _victory(new, charger_id, charge, log)
    return new


def melee_facts(result: MeleeResult) -> dict[str, str | int]:
    """A round of melee as structured facts: casualties each way, the winner, the loser's
    morale test and the victors' (when they were taken), and how it ended (Melee)."""
    facts: dict[str, str | int] = {"by charger": result.by_charger,
                                   "by defender": result.by_defender,
                                   "winner": result.winner or "none",
                                   "outcome": result.outcome.name.lower()}
    if result.winner and result.outcome is not MeleeOutcome.DESTROYED:
        routed = result.outcome is MeleeOutcome.LOSER_ROUTS
        facts.update(test="morale", result="failed" if routed else "passed")
        if not routed:
            facts["victors' morale"] = ("failed" if result.outcome
                                        is MeleeOutcome.VICTOR_FALLS_BACK else "passed")
    return facts


def _fall_back(state: State, victor_id: str, loser_id: str, log: Log) -> State:
    """On a table the victors fall back 2" from the loser, facing it (A31)."""
    table = situations.table_of(state)
    if victor_id not in table.units or loser_id not in table.units:
        return state
    flight = situations.fall_back_flight(state, victor_id, loser_id, float(FALL_BACK))
    end = flight.end
    if end is None or end == table.footprint(victor_id):
        return state
    moved = table.placed(end)
    if len(flight.path) > 1:
        moved = moved.with_traces(*recent_traces(table), MoveTrace(victor_id, flight.path))
    log.add("move", f"{state.unit(victor_id).name} falls back to ({end.x:.1f}, {end.y:.1f}), "
            f"facing {end.facing % 360:.0f}°", RULE_MELEE_RESULT, victor_id)
    return state.with_extra(table=moved)


def _victory(state: State, charger_id: str, charge: ChargeFacts, log: Log) -> State:
    """Victorious cavalry may charge a second time this turn with the reach they have left
    (Melee: "a 2nd charge", not a third)."""
    unit = state.unit(charger_id)
    left = charge_reach(unit) - charge.distance
    if unit.kind is not UnitType.CAVALRY or not unit.mounted or left <= 0:
        return state
    if unit.id in state.extra.recharged:
        log.add("charge", f"{unit.name} have made their second charge: no other this turn",
                RULE_CAVALRY, unit.id)
        return state
    if not unit.in_the_fight or any(uid == unit.id for uid, _ in state.extra.second):
        return state
    log.add("charge", f"{unit.name} may charge again ({left}\" left) if it passes another "
            "order test", RULE_CAVALRY, unit.id)
    extra = state.extra
    return state.with_extra(second=(*extra.second, (unit.id, left)))


# --- melees that go on ---------------------------------------------------------------------
def candidates_fight_on(state: State) -> Iterator[FightOn]:
    """Each melee that continues and has not been fought this turn."""
    for engaged in state.extra.melees:
        if (engaged.charger_id, engaged.defender_id) not in state.extra.fought:
            yield FightOn(engaged.charger_id, engaged.defender_id)


def check_fight_on(state: State, action: FightOn) -> None:
    """A melee continuing from last turn is fought (Melee)."""
    check_no_routs(state, action)
    pair = (action.charger_id, action.defender_id)
    if pair in state.extra.fought or not any(
        (m.charger_id, m.defender_id) == pair for m in state.extra.melees
    ):
        raise IllegalActionError(action, "no such melee waits to be fought", RULE_MELEE_RESULT)


def apply_fight_on(state: State, action: FightOn, log: Log) -> State:
    """Fight the next round, the chargers first without the charge's bonus (A11); once no
    melee waits, the first die is drawn."""
    extra = state.extra
    engaged = next(m for m in extra.melees
                   if m.charger_id == action.charger_id and m.defender_id == action.defender_id)
    rest = tuple(m for m in extra.melees if m != engaged)
    fought = (*extra.fought, (engaged.charger_id, engaged.defender_id))
    new = state.with_extra(melees=rest, fought=fought)
    new = melee(new, engaged.charger_id, engaged.defender_id, engaged.facts, log)
    if all((m.charger_id, m.defender_id) in fought for m in new.extra.melees):
        return enter_phase(new, DRAW)
    return new
