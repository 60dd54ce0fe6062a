"""Step 7: fight all melees (McKie ACW, Melee; Results of melees; Prisoners; Risk to
generals)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from smoothbore.core import InvalidValueError, Log
from smoothbore.table import contact_position

from . import effort, rules
from .actions import FollowUp, Melee
from .effects import apply_result, lose, risk, set_status
from .losses import guards_needed
from .melee import Attack, Fighter, fighters, resolve_melee
from .morale import Circumstance, test_morale
from .positions import fit_on
from .state import (
    Contact,
    State,
    add_amount,
    find_unit,
    general_with,
    illegal,
    live_charges,
    morale_facts,
    with_extra,
)
from .table_moves import placed
from .units import Status, changed

PUSH_BACK = 50
"""Results of melees: the loser is pushed back 50 mm."""


def into_contact(state: State, charger: str, target: str) -> State:
    """On a table: the charger goes straight ahead until it touches its target (it stays
    where it is if the target is no longer to its front or the move would leave the table or
    run into another unit)."""
    table = state.extra.table
    if table is None:
        return state
    try:
        end = contact_position(table, charger, target)
    except InvalidValueError:
        return state
    if not table.holds(end):
        return state
    return placed(state, charger, end)


def pushed_back(state: State, loser: str, winner: str) -> State:
    """On a table: the loser of a melee goes 50 mm straight back, keeping its facing
    (stopping at the table edge)."""
    table = state.extra.table
    if table is None:
        return state
    fp = table.footprint(loser)
    return placed(state, loser, fit_on(table, fp.advanced(PUSH_BACK, 180.0)))


def new_contacts(state: State) -> State:
    """When the receiving tests are done: every charge still going in meets its target (a
    counter charger meets the charger it countered), unless the target has gone; a melee
    already going on continues. A charge into the flank or rear marks the defender as
    attacked from there this period (Morale: Tactical factors; Melee factors)."""
    contacts = list(state.extra.contacts)
    busy = {u for c in contacts for u in (c.attacker, c.defender)}
    charges = live_charges(state)
    countered = {c.target: c.charger for c in charges if c.counter}
    flanked: set[str] = set()
    rear: set[str] = set()
    for charge in charges:
        if charge.counter or charge.charger in busy:
            continue
        charger = find_unit(state, charge.charger)
        defender_id = countered.get(charge.charger, charge.target)
        defender = find_unit(state, defender_id)
        if not charger.steady or not defender.on_table or defender_id in busy:
            continue
        if defender.status is Status.RETREATING:
            continue
        attack = Attack.FRONT if defender_id != charge.target else charge.attack
        contacts.append(Contact(charger.id, defender_id, True, defender_id in countered.values(),
                                attack))
        state = into_contact(state, charger.id, defender_id)
        busy |= {charger.id, defender_id}
        if attack is Attack.FLANK:
            flanked.add(defender_id)
        elif attack is Attack.REAR:
            rear.add(defender_id)
    x = state.extra
    return with_extra(state, contacts=tuple(contacts), flanked=x.flanked | flanked,
                            rear=x.rear | rear)


def melees_due(state: State) -> tuple[Contact, ...]:
    """The melees the acting side (the attacker's) still has to fight this period."""
    x = state.extra
    return tuple(c for c in x.contacts if find_unit(state, c.attacker).side == x.acting
                 and f"melee:{c.attacker}" not in x.done)


def candidates_melee(state: State) -> Iterator[Melee]:
    if state.extra.follow:
        return
    for contact in melees_due(state):
        yield Melee(contact.attacker, contact.defender)


def check_melee(state: State, action: Melee) -> None:
    """A melee of the acting side's to fight, with at most the figures entitled to fight (in
    contact to the front, or overlapping by one figure on a flank)."""
    due = {(c.attacker, c.defender) for c in melees_due(state)}
    if state.extra.follow:
        raise illegal(action, "the last melee's winner must first decide to follow up",
                      rules.MELEE_RESULTS)
    if (action.attacker, action.defender) not in due:
        raise illegal(action, "no such melee to fight now", rules.MELEE)
    a, d = find_unit(state, action.attacker), find_unit(state, action.defender)
    if action.attacker_figures > fighters(a, d) or action.defender_figures > fighters(d, a):
        raise illegal(action, f"at most {fighters(a, d)} and {fighters(d, a)} figures fight",
                      rules.MELEE)


def apply_melee(state: State, action: Melee, log: Log) -> State:
    """A routing defender surrenders to the charger (guarded by 1 figure per 5 prisoners).
    Otherwise both sides' casualties as firing; the side that lost more has lost and is
    pushed back 50 mm; losers, then winners, test morale; both earn 2 effort points and
    their generals run the risk."""
    x = state.extra
    contact = next(c for c in x.contacts if c.attacker == action.attacker)
    a, d = find_unit(state, contact.attacker), find_unit(state, contact.defender)
    state = with_extra(state, done=x.done | {f"melee:{a.id}"})
    tables = state.options.tables
    if d.status is Status.ROUTING:
        return _surrender(state, contact, log)
    fa = Fighter(a, action.attacker_figures or fighters(a, d), contact.attacker_charging and
                 contact.periods == 0, general_with(state, a), contact.winner == a.id)
    fd = Fighter(d, action.defender_figures or fighters(d, a), contact.defender_charging and
                 contact.periods == 0, general_with(state, d), contact.winner == d.id,
                 contact.attack)
    result = resolve_melee(fa, fd, dice=log.dice, tables=tables)
    log.add("melee", f"{a.name} and {d.name} fight: {a.name} loses {result.a_lost}, "
            f"{d.name} {result.b_lost}", rules.MELEE, a.id)
    for unit in (a, d):
        u = find_unit(state, unit.id)
        state = state.with_units(effort.earn(u, effort.MELEE))
    state = with_extra(state, worked=state.extra.worked | {a.id, d.id})
    state = lose(state, a.id, result.a_lost, log, rules.MELEE)
    state = lose(state, d.id, result.b_lost, log, rules.MELEE)
    state = risk(risk(state, a.id, log), d.id, log)
    order = [d.id, a.id] if result.winner == "a" else [a.id, d.id]
    if result.winner:
        loser, winner = order
        state = with_extra(state, won_melee=state.extra.won_melee | {winner},
                                 lost_melee=state.extra.lost_melee | {loser})
        if find_unit(state, loser).on_table:
            log.add("melee", f"{find_unit(state, loser).name} loses the melee and is pushed "
                    f"back {PUSH_BACK} mm", rules.MELEE_RESULTS, loser)
            state = pushed_back(state, loser, winner)
    for uid in order:
        unit = find_unit(state, uid)
        if unit.on_table:
            facts = morale_facts(state, unit, Circumstance.AFTER_MELEE)
            res = test_morale(facts, dice=log.dice, tables=tables,
                              reason=f"{unit.name} after melee")
            state = apply_result(state, uid, Circumstance.AFTER_MELEE, res, log)
    a, d = find_unit(state, a.id), find_unit(state, d.id)
    if not (a.steady and d.steady):
        return _end_contact(state, contact)
    winner_id = {"a": a.id, "b": d.id}.get(result.winner, "")
    going_on = attrs.evolve(contact, periods=contact.periods + 1, winner=winner_id)
    state = with_extra(state, contacts=tuple(going_on if c == contact else c
                                            for c in state.extra.contacts))
    if winner_id:
        return with_extra(state, follow=(winner_id, d.id if winner_id == a.id else a.id))
    log.add("melee", "neither side gives way: the melee continues next period",
            rules.MELEE_RESULTS, a.id)
    return state


def _end_contact(state: State, contact: Contact) -> State:
    return with_extra(state, contacts=tuple(c for c in state.extra.contacts if c != contact))


def _surrender(state: State, contact: Contact, log: Log) -> State:
    """A routing unit caught by a charge surrenders (M19); prisoners may never be killed and
    are escorted to the rear by one guard figure per five, detached from the captors."""
    a, d = find_unit(state, contact.attacker), find_unit(state, contact.defender)
    prisoners = d.figures
    guards = min(a.figures - 1, guards_needed(prisoners))
    state = set_status(state, d.id, Status.SURRENDERED, log, rules.PRISONERS)
    d = find_unit(state, d.id)
    state = state.with_units(changed(d, figures=0, helpers=0))
    a = find_unit(state, a.id)
    a = changed(a, figures=a.figures - guards, initial_figures=a.initial_figures - guards,
                     ammo=min(a.ammo, (a.figures - guards) * 6 if not a.is_gun else a.ammo))
    state = with_extra(state.with_units(a),
        prisoners=add_amount(state.extra.prisoners, a.side, prisoners))
    log.add("prisoners", f"{d.name} surrenders: {prisoners} figure(s) taken, escorted to the "
            f"rear by {guards} figure(s) of {a.name}", rules.PRISONERS, d.id)
    return _end_contact(state, contact)


def candidates_follow_up(state: State) -> Iterator[FollowUp]:
    if state.extra.follow:
        yield FollowUp(state.extra.follow[0], True)
        yield FollowUp(state.extra.follow[0], False)


def check_follow_up(state: State, action: FollowUp) -> None:
    """Only the winner of the melee just fought decides."""
    if not state.extra.follow or state.extra.follow[0] != action.unit:
        raise illegal(action, "no melee won by this unit awaits a follow-up", rules.MELEE_RESULTS)


def apply_follow_up(state: State, action: FollowUp, log: Log) -> State:
    """Following up keeps the contact: the melee continues next period; otherwise contact is
    broken."""
    winner, loser = state.extra.follow
    name = find_unit(state, winner).name
    state = with_extra(state, follow=())
    if action.follow:
        log.add("melee", f"{name} follows up: the melee continues next period",
                rules.MELEE_RESULTS, winner)
        return state
    log.add("melee", f"{name} does not follow up: contact is broken", rules.MELEE_RESULTS,
            winner)
    contacts = tuple(c for c in state.extra.contacts
                     if {c.attacker, c.defender} != {winner, loser})
    return with_extra(state, contacts=contacts)
