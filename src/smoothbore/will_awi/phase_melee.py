"""Phase J (Rules - Melee): fighting the melees around the charged units and applying the result."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from . import rules
from .actions import EndPhase, ResolveMelee
from .charges import Face, test_surrender
from .generals import Risk
from .melee import Effect, Fighter, Melee, MeleeOutcome, resolve_melee
from .turn_effects import Handler, Log, general_risk, illegal, lose, own_unit
from .turn_state import J, K, WillState, charges_on, pending_melees, tested_charge, with_extra
from .units import Status, TroopType
from .variants import end_highland_charge

EFFECT_TEXT = MappingProxyType({
    Effect.ROUT: "routs, losing 2 strength points",
    Effect.RETIRE_6_SHAKEN: 'retires 6" shaken, losing 2 strength points',
    Effect.RETIRE_SHAKEN: 'retires 3" shaken, losing 1 strength point',
    Effect.BOTH_RETIRE: 'both sides retire 3"',
})
"""A melee result as the narration says it (Rules - Melee: results)."""


def _melee_text(state: WillState, where: str, outcome: MeleeOutcome) -> str:
    """The melee as the referee announces it: the two scores and who takes the result."""
    scores = f"the attackers score {outcome.attacker}, the defenders {outcome.defender}"
    if not outcome.loser:
        return f"Melee at {where}: {scores}; {EFFECT_TEXT[outcome.effect]}"
    loser = state.unit(outcome.affected).name
    return f"Melee at {where}: {scores}; {loser} {EFFECT_TEXT[outcome.effect]}"


def _melee(state: WillState, action: ResolveMelee, log: Log) -> WillState:
    if action.target not in pending_melees(state):
        raise illegal(action, "no melee to resolve there", rules.MELEE)
    t = tested_charge(state, action.target)
    assert t is not None
    target = state.unit(action.target)
    charges = tuple(c for c in charges_on(state, action.target) if state.unit(c.charger).on_table)
    facts = charges[0].facts
    attackers = tuple(
        Fighter(
            state.unit(c.charger),
            charging=True,
            over_obstacle=c.over_obstacle,
            uphill=c.uphill,
            charging_building=c.facts.in_building,
            charging_fortification=c.facts.in_fortification,
            front=not action.fronts or c.charger in action.fronts,
        )
        for c in charges
    )
    defender = Fighter(
        target,
        charging=t.counter,
        flank=facts.face is Face.FLANK,
        rear=facts.face is Face.REAR,
        front=not action.fronts or target.id in action.fronts,
    )
    helpers = tuple(
        Fighter(
            own_unit(state, uid, target.side, action),
            front=not action.fronts or uid in action.fronts,
        )
        for uid in action.also_defending
        if uid != target.id
    )
    if helpers and (len(attackers) > 1 or len(helpers) > 1):
        raise illegal(action, "one attacker against at most two defenders", rules.MELEE)
    defenders = (defender, *helpers)
    melee = Melee(attackers, defenders, defender_behind_obstacle=facts.behind_obstacle)
    outcome = resolve_melee(melee, dice=log.dice, options=state.extra.options)
    log.add("melee", _melee_text(state, target.name, outcome), rules.MELEE, target.id)
    state = with_extra(state, resolved=state.extra.resolved | {target.id})
    if not outcome.loser:
        return state
    losers = attackers if outcome.loser == "attackers" else defenders
    winners = defenders if outcome.loser == "attackers" else attackers
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
        after = attrs.evolve(hit, status=Status.ROUTING, routed_last_move=fresh)
        if hit.troop is TroopType.WAGON:
            after = attrs.evolve(after, immobilised=True)
        state = state.with_units(end_highland_charge(after, True, True))
        state = lose(state, state.unit(hit.id), 2, log, rules.MELEE)
        state = general_risk(state, hit.id, Risk.MELEE_ROUT, action.chain_within_18, log)
        if (
            fighter.rear
            and state.unit(hit.id).on_table
            and test_surrender(hit, dice=log.dice, why="charged in the rear and routed")
        ):
            state = state.with_units(attrs.evolve(state.unit(hit.id), status=Status.SURRENDERED))
            log.add("surrender", f"{hit.name} surrenders", rules.SURRENDER, hit.id)
    else:
        status = Status.ROUTING if hit.routing else Status.SHAKEN
        state = state.with_units(end_highland_charge(attrs.evolve(hit, status=status), True, True))
        state = lose(state, state.unit(hit.id), outcome.effect.loss, log, rules.MELEE)
        state = general_risk(state, hit.id, Risk.MELEE_LOSS, action.chain_within_18, log)
    for f in losers:
        if f.unit.id != hit.id:
            log.add("retire", f'{f.unit.name} retires 3"', rules.MELEE, f.unit.id)
    return state


def _end_j(state: WillState, action: EndPhase, log: Log) -> WillState:
    if pending_melees(state):
        raise illegal(action, "every melee must be resolved", rules.MELEE)
    return attrs.evolve(state, phase=K)


HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType({
    (J, ResolveMelee): _melee,
    (J, EndPhase): _end_j,
})
