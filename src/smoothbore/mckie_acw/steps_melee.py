"""Step 7: fight all melees (McKie ACW, Melee; Results of melees; Prisoners; Risk to
generals)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import attrs

from smoothbore.core import IllegalActionError, InvalidValueError, Log
from smoothbore.table import Footprint, Table, in_contact, swept

from . import effort, rules
from .actions import FollowUp, Melee
from .effects import apply_result, lose, risk, set_status
from .losses import guards_needed
from .melee import Attack, Fighter, fighters, resolve_melee
from .morale import Circumstance, test_morale
from .movement import Manoeuvre
from .positions import fit_on, newly_over, regrounded, synced
from .situations import SHORT_OF_CONTACT, charge_end
from .state import (
    Contact,
    State,
    add_amount,
    general_with,
    illegal,
    live_charges,
    morale_facts,
    with_extra,
)
from .steps_morale import measured_past
from .table_moves import MoveFacts, move_facts, placed
from .units import Status, changed

PUSH_BACK = 50
"""Results of melees: the loser is pushed back 50 mm."""


def into_contact(state: State, charger: str, target: str) -> State:
    """On a table: the charger goes straight ahead until it touches its target, a move paying
    the ground as any other (M33); it stays where it is if the target is no longer to its
    front, or the move is beyond it (too long for its move, through ground it may not
    enter, through or onto another unit, or off the table)."""
    if state.extra.table is None:
        return state
    try:
        to = charge_end(state, charger, target)
        facts = move_facts(state, state.unit(charger), to, Manoeuvre.NONE, False,
                           f"charge of {charger} at {target}")
    except (InvalidValueError, IllegalActionError):
        return state
    return regrounded(placed(state, charger, facts.end), charger)


def pushed_back(state: State, loser: str, winner: str) -> State:
    """On a table: the loser of a melee goes 50 mm back from the winner, keeping its facing
    (stopping at the table edge, or against a unit in the way); how far it went is kept for
    the winner's follow-up. Back is away from the face in contact (M39): a loser fought on
    its front goes straight back along its own facing; a defender beaten on its flank or
    rear is driven on the way the attacker struck it (the attacker's facing: a charge goes
    straight ahead, M33), never back into the winner."""
    table = state.extra.table
    if table is None:
        return state
    fp = table.footprint(loser)
    heading = 180.0
    for c in state.extra.contacts:
        if c.attacker == winner and c.defender == loser and c.attack is not Attack.FRONT:
            heading = table.footprint(winner).facing - fp.facing
            break
    end = fit_on(table, fp.advanced(PUSH_BACK, heading))
    if _in_the_way(table, fp, end):
        lo, hi = 0.0, 1.0
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if _in_the_way(table, fp, _part_way(fp, end, mid)) else (mid, hi)
        end = _part_way(fp, end, lo)
    state = regrounded(placed(state, loser, end), loser)
    return with_extra(state, pushed=(end.x - fp.x, end.y - fp.y))


def _part_way(fp: Footprint, end: Footprint, t: float) -> Footprint:
    return fp.moved_to(fp.x + (end.x - fp.x) * t, fp.y + (end.y - fp.y) * t)


def _in_the_way(table: Table, fp: Footprint, end: Footprint) -> bool:
    """Whether going from ``fp`` to ``end`` passes through or onto another unit (one it
    already overlaps aside): a loser pushed back stops against it (M39)."""
    return newly_over(table, fp, swept(fp, end)) is not None


def follow_up_to(state: State, winner: str) -> tuple[float, float, float] | None:
    """On a table: where the winner goes to follow up, straight after the loser as far as the
    loser was pushed back, keeping its facing (back into contact); None where it need not
    move (off a table, or the loser was not moved)."""
    table = state.extra.table
    dx, dy = state.extra.pushed
    if table is None or (dx == 0 and dy == 0):
        return None
    fp = table.footprint(winner)
    length = math.hypot(dx, dy)
    scale = max(0.0, length - SHORT_OF_CONTACT) / length
    return fp.x + dx * scale, fp.y + dy * scale, fp.facing


def _follow_move(state: State, winner: str, action: object) -> MoveFacts | None:
    """The follow-up move measured as any move of the winner's (M39): its full move (an
    unlimbered field battery only manhandled), through the ground at its rates, through
    and onto no other unit; raises IllegalActionError when it cannot follow."""
    to = follow_up_to(state, winner)
    if to is None:
        return None
    unit = state.unit(winner)
    loser = state.extra.follow[1]
    other = [c for c in state.extra.contacts
             if winner in (c.attacker, c.defender) and loser not in (c.attacker, c.defender)]
    if other:
        enemy = other[0].defender if other[0].attacker == winner else other[0].attacker
        raise illegal(action, f"{unit.name} cannot follow up: it is still in melee with "
                      f"{state.unit(enemy).name}", rules.MELEE_RESULTS)
    manoeuvre = (Manoeuvre.MANHANDLE if unit.is_gun and not unit.limbered
                 else Manoeuvre.NONE)
    try:
        return move_facts(state, unit, to, manoeuvre, False, action)
    except IllegalActionError as e:
        raise illegal(action, f"{unit.name} cannot follow up: {e.why}",
                      rules.MELEE_RESULTS) from e


def new_contacts(state: State, log: Log) -> State:
    """When the receiving tests are done: every charge still going in meets its target (a
    counter charger meets the charger it countered), even a target already in melee (a
    second charger joins it, placed in contact on the face it struck, and fights it in turn)
    or retreating (M40); a charge whose target has left the table finds none (said in an
    event). A melee already going on continues. A charge into the flank or rear marks the
    defender as attacked from there this period (Morale: Tactical factors; Melee factors)."""
    contacts = list(state.extra.contacts)
    going_on = {u for c in contacts for u in (c.attacker, c.defender)}
    charges = live_charges(state)
    countered = {c.target: c.charger for c in charges if c.counter}
    flanked: set[str] = set()
    rear: set[str] = set()
    for charge in charges:
        if charge.counter or charge.charger in going_on:
            continue
        charger = state.unit(charge.charger)
        defender_id = countered.get(charge.charger, charge.target)
        defender = state.unit(defender_id)
        if not charger.steady:
            continue
        if not defender.on_table:
            log.add("melee", f"{charger.name}'s charge finds no enemy: {defender.name} has "
                    "left the table", rules.MELEE, charger.id)
            continue
        attack = Attack.FRONT if defender_id != charge.target else charge.attack
        contacts.append(Contact(charger.id, defender_id, True, defender_id in countered.values(),
                                attack))
        state = into_contact(state, charger.id, defender_id)
        if attack is Attack.FLANK:
            flanked.add(defender_id)
        elif attack is Attack.REAR:
            rear.add(defender_id)
    x = state.extra
    return with_extra(state, contacts=tuple(contacts), flanked=x.flanked | flanked,
                            rear=x.rear | rear)


def out_of_contact(state: State, log: Log) -> State:
    """On a table, as the melees are to be fought: a melee whose units no longer touch ends
    (fighting needs base to base contact; a melee continues only while both sides remain in
    contact, M39)."""
    table = state.extra.table
    if table is None:
        return state
    kept = []
    for c in state.extra.contacts:
        a, d = state.unit(c.attacker), state.unit(c.defender)
        if a.on_table and d.on_table and not in_contact(table, a.id, d.id):
            log.add("melee", f"{a.name} and {d.name} are not in contact: no melee",
                    rules.MELEE_RESULTS, a.id)
            continue
        kept.append(c)
    if len(kept) == len(state.extra.contacts):
        return state
    return with_extra(state, contacts=tuple(kept))


def melees_due(state: State) -> tuple[Contact, ...]:
    """The melees the acting side (the attacker's) still has to fight this period."""
    x = state.extra
    return tuple(c for c in x.contacts if state.unit(c.attacker).side == x.acting
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
    a, d = state.unit(action.attacker), state.unit(action.defender)
    face = next(c.attack for c in state.extra.contacts
                if (c.attacker, c.defender) == (a.id, d.id))
    most_a, most_d = fighters(a, d, enemy_face=face), fighters(d, a, face)
    if action.attacker_figures > most_a or action.defender_figures > most_d:
        raise illegal(action, f"at most {most_a} and {most_d} figures fight", rules.MELEE)


def apply_melee(state: State, action: Melee, log: Log) -> State:
    """A routing defender surrenders to the charger (guarded by 1 figure per 5 prisoners).
    Otherwise both sides' casualties as firing; the side that lost more has lost and is
    pushed back 50 mm; losers, then winners, test morale; both earn 2 effort points and
    their generals run the risk."""
    x = state.extra
    contact = next(c for c in x.contacts if c.attacker == action.attacker)
    a, d = state.unit(contact.attacker), state.unit(contact.defender)
    state = with_extra(state, done=x.done | {f"melee:{a.id}"})
    tables = state.options.tables
    if d.status is Status.ROUTING:
        return _surrender(state, contact, log)
    fa = Fighter(a, action.attacker_figures or fighters(a, d, enemy_face=contact.attack),
                 contact.attacker_charging and contact.periods == 0, general_with(state, a),
                 contact.winner == a.id)
    fd = Fighter(d, action.defender_figures or fighters(d, a, contact.attack),
                 contact.defender_charging and contact.periods == 0, general_with(state, d),
                 contact.winner == d.id, contact.attack)
    result = resolve_melee(fa, fd, dice=log.dice, tables=tables)
    struck = "" if contact.attack is Attack.FRONT else f", struck in the {contact.attack}"
    log.add("melee", f"{a.name} and {d.name} fight ({fa.figures} figures against "
            f"{fd.figures}{struck}): {a.name} loses {result.a_lost}, {d.name} {result.b_lost}",
            rules.MELEE, a.id,
            facts={"test": "melee", "attacker": a.id, "defender": d.id,
                   "attack": contact.attack.value, "attacker_lost": result.a_lost,
                   "defender_lost": result.b_lost,
                   "winner": {"a": a.id, "b": d.id}.get(result.winner, "")})
    for unit in (a, d):
        if f"fought:{unit.id}" in state.extra.done:
            continue  # a unit fighting two melees this period earns the points once
        state = state.with_units(effort.earn(state.unit(unit.id), effort.MELEE))
        state = with_extra(state, done=state.extra.done | {f"fought:{unit.id}"})
    state = with_extra(state, worked=state.extra.worked | {a.id, d.id})
    state = lose(state, a.id, result.a_lost, log, rules.MELEE)
    state = lose(state, d.id, result.b_lost, log, rules.MELEE)
    state = synced(risk(risk(state, a.id, log), d.id, log))
    order = [d.id, a.id] if result.winner == "a" else [a.id, d.id]
    if result.winner:
        loser, winner = order
        state = with_extra(state, won_melee=state.extra.won_melee | {winner},
                                 lost_melee=state.extra.lost_melee | {loser})
        if state.unit(loser).on_table:
            state = pushed_back(state, loser, winner)
            back = (PUSH_BACK if state.extra.table is None
                    else round(math.hypot(*state.extra.pushed)))
            short = "" if back >= PUSH_BACK else " (stopped by a unit or the table edge)"
            log.add("melee", f"{state.unit(loser).name} loses the melee and is pushed "
                    f"back {back} mm{short}", rules.MELEE_RESULTS, loser)
            state = _parted(state, loser, contact, log)
    for uid in order:
        unit = state.unit(uid)
        if unit.on_table:
            facts = morale_facts(state, unit, Circumstance.AFTER_MELEE,
                                 measured_past(state, unit))
            res = test_morale(facts, dice=log.dice, tables=tables,
                              reason=f"{unit.name} after melee")
            state = apply_result(state, uid, Circumstance.AFTER_MELEE, res, log)
    a, d = state.unit(a.id), state.unit(d.id)
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
    return closed_up(state, a.id, d.id)


def closed_up(state: State, attacker: str, defender: str) -> State:
    """On a table: units still in melee whose lines, re-laid after their losses, no longer
    touch close up again, the attacker going straight ahead into contact (or else the
    defender) as when the melee was joined (M39)."""
    table = state.extra.table
    if table is None or in_contact(table, attacker, defender):
        return state
    closed = into_contact(state, attacker, defender)
    if closed is state:
        closed = into_contact(state, defender, attacker)
    return closed


def _parted(state: State, unit_id: str, fought: Contact, log: Log) -> State:
    """On a table: the unit's other melees whose enemy it no longer touches (it was pushed
    back from them) end."""
    table = state.extra.table
    if table is None:
        return state
    kept = []
    for c in state.extra.contacts:
        if c != fought and unit_id in (c.attacker, c.defender) and not in_contact(
                table, c.attacker, c.defender):
            a, d = state.unit(c.attacker), state.unit(c.defender)
            log.add("melee", f"{a.name} and {d.name} are no longer in contact: no melee",
                    rules.MELEE_RESULTS, a.id)
            continue
        kept.append(c)
    return with_extra(state, contacts=tuple(kept))


def _end_contact(state: State, contact: Contact) -> State:
    return with_extra(state, contacts=tuple(c for c in state.extra.contacts if c != contact))


def _surrender(state: State, contact: Contact, log: Log) -> State:
    """A routing unit caught by a charge surrenders (M19); prisoners may never be killed and
    are escorted to the rear by one guard figure per five, detached from the captors."""
    a, d = state.unit(contact.attacker), state.unit(contact.defender)
    prisoners = d.figures
    guards = min(a.figures - 1, guards_needed(prisoners))
    state = set_status(state, d.id, Status.SURRENDERED, log, rules.PRISONERS)
    d = state.unit(d.id)
    state = state.with_units(changed(d, figures=0, helpers=0))
    a = state.unit(a.id)
    a = changed(a, figures=a.figures - guards, initial_figures=a.initial_figures - guards,
                     ammo=min(a.ammo, (a.figures - guards) * 6 if not a.is_gun else a.ammo))
    state = with_extra(state.with_units(a),
        prisoners=add_amount(state.extra.prisoners, a.side, prisoners))
    log.add("prisoners", f"{d.name} surrenders: {prisoners} figure(s) taken, escorted to the "
            f"rear by {guards} figure(s) of {a.name}", rules.PRISONERS, d.id)
    return _end_contact(state, contact)


def candidates_follow_up(state: State) -> Iterator[FollowUp]:
    if state.extra.follow:
        winner = state.extra.follow[0]
        follow = FollowUp(winner, True)
        try:
            _follow_move(state, winner, follow)
        except IllegalActionError:
            pass
        else:
            yield follow
        yield FollowUp(winner, False)


def check_follow_up(state: State, action: FollowUp) -> None:
    """Only the winner of the melee just fought decides; on a table it follows up only if it
    can move after the loser into contact (M39)."""
    if not state.extra.follow or state.extra.follow[0] != action.unit:
        raise illegal(action, "no melee won by this unit awaits a follow-up", rules.MELEE_RESULTS)
    if action.follow:
        _follow_move(state, action.unit, action)


def apply_follow_up(state: State, action: FollowUp, log: Log) -> State:
    """Following up keeps the contact: on a table the winner moves after the loser back into
    contact, and the melee continues next period; otherwise contact is broken."""
    winner, loser = state.extra.follow
    name = state.unit(winner).name
    if action.follow:
        facts = _follow_move(state, winner, action)
        state = with_extra(state, follow=(), pushed=(0.0, 0.0))
        moved = ""
        if facts is not None:
            state = regrounded(placed(state, winner, facts.end), winner)
            moved = f" {facts.distance} mm into contact"
        log.add("melee", f"{name} follows up{moved}: the melee continues next period",
                rules.MELEE_RESULTS, winner)
        return state
    state = with_extra(state, follow=(), pushed=(0.0, 0.0))
    log.add("melee", f"{name} does not follow up: contact is broken", rules.MELEE_RESULTS,
            winner)
    contacts = tuple(c for c in state.extra.contacts
                     if {c.attacker, c.defender} != {winner, loser})
    return with_extra(state, contacts=contacts)
