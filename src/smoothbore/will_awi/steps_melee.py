"""Phase J (Rules - Melee): fighting the melee around each charged unit that stood, and
applying the result to the loser."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from smoothbore.core import Log, enter_phase, revised
from smoothbore.table import MoveTrace

from . import rules
from .actions import EndPhase, ResolveMelee
from .charges import Face, test_surrender
from .effects import general_risk, lose
from .generals import Risk
from .melee import Effect, Fighter, Melee, MeleeOutcome, resolve_melee
from .narration import inches, short_of
from .phases import K
from .positions import kept_traces
from .situations import MEASURED, MeleeContacts, melee_contacts, retirement
from .state import (
    State,
    charges_on,
    illegal,
    own_unit,
    pending_melees,
    shared_facts,
    tested_charge,
    with_extra,
)
from .steps_morale import rout_at_once
from .units import Status, TroopType, Unit
from .variants import end_highland_charge

EFFECT_TEXT: Mapping[Effect, str] = MappingProxyType({
    Effect.ROUT: "routs, losing 2 strength points",
    Effect.RETIRE_6_SHAKEN: 'retires 6" shaken, losing 2 strength points',
    Effect.RETIRE_SHAKEN: 'retires 3" shaken, losing 1 strength point',
    Effect.BOTH_RETIRE: 'both sides retire 3"',
})
"""A melee result as the narration says it (Rules - Melee: results)."""


def melee_text(state: State, where: str, outcome: MeleeOutcome) -> str:
    """The melee as the referee announces it: the two scores and who takes the result."""
    scores = f"the attackers score {outcome.attacker}, the defenders {outcome.defender}"
    if not outcome.loser:
        return f"Melee at {where}: {scores}; {EFFECT_TEXT[outcome.effect]}"
    loser = state.unit(outcome.affected).name
    return f"Melee at {where}: {scores}; {loser} {EFFECT_TEXT[outcome.effect]}"


def contacts(state: State, action: ResolveMelee) -> MeleeContacts:
    """Who fights beside the charged unit and who is engaged to the enemy's front: on a table
    measured (``situations.melee_contacts``: a second defender touching a lone attacker,
    the fighters touching an enemy's front face), without one the player's
    ``also_defending`` and ``fronts`` (empty: every unit counts as front)."""
    target = state.unit(action.target)
    attackers = tuple(c.charger for c in charges_on(state, target.id)
                      if state.unit(c.charger).on_table)
    if state.extra.table is None:
        helpers = tuple(uid for uid in action.also_defending if uid != target.id)
        every = {target.id, *attackers, *helpers}
        return MeleeContacts(helpers, frozenset(action.fronts) if action.fronts
                             else frozenset(every))
    busy = set(pending_melees(state)) | state.extra.resolved
    candidates = tuple(u.id for u in state.units if u.side == target.side and u.on_table
                       and not u.routing and u.id not in busy)
    return melee_contacts(state, target.id, attackers, candidates)


def melee_of(state: State, action: ResolveMelee) -> Melee:
    """The melee around the charged unit: its chargers still on the table against it (and a
    second defender in contact with a lone attacker), with the facts of the charges."""
    tested = tested_charge(state, action.target)
    target = state.unit(action.target)
    charges = tuple(
        c for c in charges_on(state, action.target) if state.unit(c.charger).on_table
    )
    facts = shared_facts(charges)
    engaged = contacts(state, action)
    attackers = tuple(
        Fighter(
            state.unit(c.charger),
            charging=True,
            over_obstacle=c.over_obstacle,
            uphill=c.uphill,
            charging_building=c.facts.in_building,
            charging_fortification=c.facts.in_fortification,
            front=c.charger in engaged.fronts,
        )
        for c in charges
    )
    defender = Fighter(
        target,
        charging=tested is not None and tested.counter,
        flank=facts.face is Face.FLANK,
        rear=facts.face is Face.REAR,
        front=target.id in engaged.fronts,
    )
    helpers = tuple(
        Fighter(state.unit(uid), front=uid in engaged.fronts)
        for uid in engaged.also_defending
    )
    return Melee(attackers, (defender, *helpers), defender_behind_obstacle=facts.behind_obstacle)


def candidates_resolve_melee(state: State) -> Iterator[ResolveMelee]:
    """Each melee still to fight, in any order the moving player likes."""
    for target in pending_melees(state):
        yield ResolveMelee(target)


def check_resolve_melee(state: State, action: ResolveMelee) -> None:
    """J: a charged unit that stood or counter-charged, with a charger on the table; a second
    defender only of its side, on the table, against a lone attacker."""
    if action.target not in pending_melees(state):
        raise illegal(action, "no melee to resolve there", rules.MELEE)
    if state.extra.table is not None and action.chain_within_18:
        raise illegal(action, MEASURED, rules.MELEE_GENERALS)
    if state.extra.table is not None and (action.fronts or action.also_defending):
        raise illegal(action, MEASURED, rules.MELEE)
    target = state.unit(action.target)
    helpers = [uid for uid in action.also_defending if uid != target.id]
    for uid in helpers:
        own_unit(state, uid, target.side, action)
    attackers = [c for c in charges_on(state, target.id) if state.unit(c.charger).on_table]
    if helpers and (len(attackers) > 1 or len(helpers) > 1):
        raise illegal(action, "one attacker against at most two defenders", rules.MELEE)


def apply_resolve_melee(state: State, action: ResolveMelee, log: Log) -> State:
    """1d6 plus factors each; the losing side's unit engaged to the front takes the result:
    rout (2 points), retire 6" shaken (2 points) or 3" shaken (1 point); the others retire."""
    melee = melee_of(state, action)
    target = state.unit(action.target)
    outcome = resolve_melee(melee, dice=log.dice, options=state.options)
    log.add("melee", melee_text(state, target.name, outcome), rules.MELEE, target.id,
            facts={"test": "melee", "result": outcome.effect.value,
                   "loser": outcome.loser or "none", "affected": outcome.affected,
                   "attackers": outcome.attacker, "defenders": outcome.defender})
    state = with_extra(state, resolved=state.extra.resolved | {target.id})
    if not outcome.loser:
        return _retire(state, [(f.unit.id, 3.0) for f in (*melee.attackers, *melee.defenders)],
                       log)
    losers = melee.attackers if outcome.loser == "attackers" else melee.defenders
    winners = melee.defenders if outcome.loser == "attackers" else melee.attackers
    if outcome.loser == "defenders":
        state = with_extra(
            state,
            winners=state.extra.winners | {f.unit.id for f in winners if f.unit.troop.is_cavalry},
        )
    hit = state.unit(outcome.affected)
    fighter = next(f for f in losers if f.unit.id == hit.id)
    if outcome.effect is Effect.ROUT:
        # Note (a) concerns units routed in the enemy's charge or melee phases only.
        fresh = hit.side != state.extra.moving
        after = revised(hit, status=Status.ROUTING, routed_last_move=fresh)
        if hit.troop is TroopType.WAGON:
            after = revised(after, immobilised=True)
        state = state.with_units(end_highland_charge(after, True, True))
        state = lose(state, state.unit(hit.id), 2, log, rules.MELEE)
        state = general_risk(state, hit.id, Risk.MELEE_ROUT, action.chain_within_18, log)
        if (
            fighter.rear
            and state.unit(hit.id).on_table
            and test_surrender(hit, dice=log.dice, why="charged in the rear and routed")
        ):
            gone = revised(state.unit(hit.id), status=Status.SURRENDERED)
            state = state.with_units(gone)
            log.add("surrender", f"{hit.name} surrenders", rules.SURRENDER, hit.id,
                    facts={"test": "surrender", "result": "surrenders"})
        state = rout_at_once(state, hit.id, log)
    else:
        status = Status.ROUTING if hit.routing else Status.SHAKEN
        state = state.with_units(end_highland_charge(revised(hit, status=status), True, True))
        state = lose(state, state.unit(hit.id), outcome.effect.loss, log, rules.MELEE)
        state = general_risk(state, hit.id, Risk.MELEE_LOSS, action.chain_within_18, log)
    back = {Effect.RETIRE_SHAKEN: 3.0, Effect.RETIRE_6_SHAKEN: 6.0}.get(outcome.effect)
    others = [(f.unit.id, 3.0) for f in losers if f.unit.id != hit.id]
    if state.extra.table is None:
        for uid, _ in others:
            log.add("retire", f'{state.unit(uid).name} retires 3"', rules.MELEE, uid)
        return state
    return _retire(state, ([(hit.id, back)] if back else []) + others, log)


def _retire(state: State, retiring: list[tuple[str, float]], log: Log) -> State:
    """On a table, each unit a melee retires goes straight back the inches its result says,
    keeping its facing, one after the other in the order given (the unit taking the result,
    then the rest of its side; on a draw the attackers, then the defenders), as a shaken
    unit's retirement goes (``situations.retirement``: stopped short by the table edge or a
    unit behind it, over open ground; W26a). Without a table nothing moves."""
    table = state.extra.table
    if table is None:
        return state
    for uid, distance in retiring:
        unit = state.unit(uid)
        if not unit.on_table or uid not in table.unit_ids:
            continue
        went = retirement(state, unit, distance, False)
        start = table.footprint(uid)
        if went.distance > 0:
            trace = MoveTrace(uid, (start.centre, went.end.centre))
            table = table.placed(went.end).with_traces(*kept_traces(table), trace)
            state = with_extra(state, table=table)
        log.add("retire", _retire_text(state, unit, distance, went.distance, went.stopped_by),
                rules.MELEE, uid)
    return state


def _retire_text(state: State, unit: Unit, distance: float, went: float, by: str) -> str:
    """A melee retirement as the referee measures it."""
    how, short = short_of(distance, went, by, {u.id: u.name for u in state.units})
    if by and went <= 0:
        return f"{unit.name} cannot retire {inches(distance)}{short} where it stands"
    return f"{unit.name} retires {how} straight back, keeping its facing{short}"


def check_end_j(state: State, action: EndPhase) -> None:
    """J ends once every melee is fought."""
    if pending_melees(state):
        raise illegal(action, "every melee must be resolved", rules.MELEE)


def apply_end_j(state: State, action: EndPhase, log: Log) -> State:
    """On to K."""
    return enter_phase(state, K)
