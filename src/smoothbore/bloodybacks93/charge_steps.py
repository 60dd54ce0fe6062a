"""The charge in the turn: the chargers' moves, evades, deferring, the melee with its moves,
pursuit and risk to commanders (Bloodybacks 9.3, Charges and melee)."""

from __future__ import annotations

import attrs

from smoothbore.core import Event, IllegalActionError, InvalidValueError, SamplingDice

from . import activation as act
from . import movement
from .actions import Charge
from .battle import DeferredMelee, State, attached_commanders, leader_attached
from .charges import (
    RULE_CHARGES,
    RULE_EVADE,
    ChargeFacts,
    evade,
    may_evade,
    must_evade,
    pursuit_distance,
)
from .guards import need_phase, spend_actions
from .melee import FALL_BACK_INCHES, Fate, resolve_charge
from .phases import ACTIVATION, RULE_SEQUENCE
from .reports import event_since, move_events, risk_events
from .units import TEXT, Unit


def _facts_from_state(
    state: State, chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts
) -> ChargeFacts:
    """The charge's facts with the commanders the state shows attached: any commander with
    a charger adds an impetus die (Determine impetus); the first defender's own commander or
    the CinC helps its tests (Morale: Modifiers)."""
    return attrs.evolve(
        facts,
        charger_commander_attached=facts.charger_commander_attached
        or any(attached_commanders(state, u.id) for u in chargers),
        defender_commander_attached=facts.defender_commander_attached
        or leader_attached(state, defenders[0]),
    )


def on_charge(state: State, action: Charge, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    """Charge: the chargers' moves, evades, then the melee now or deferred (Charges and melee)."""
    need_phase(state, action, ACTIVATION)
    if not action.unit_ids or not action.target_ids:
        raise IllegalActionError(action, "a charge needs chargers and targets", RULE_CHARGES)
    named = (*action.unit_ids, *action.target_ids)
    if len(set(named)) != len(named):
        raise IllegalActionError(action, "each unit charges or is charged once", RULE_CHARGES)
    chargers = tuple(state.unit(u) for u in action.unit_ids)
    targets = tuple(state.unit(u) for u in action.target_ids)
    if any(t.side == chargers[0].side or t.destroyed for t in targets):
        raise IllegalActionError(action, "charge only enemy units on the table", RULE_CHARGES)
    guns = [u.name for u in chargers if u.is_artillery]
    if guns and not state.extra.options.artillery_may_charge:
        raise IllegalActionError(
            action,
            f"artillery does not charge under option artillery_may_charge=False: {guns[0]}",
            RULE_CHARGES,
        )
    extra = state.extra
    for unit in chargers:
        interim = attrs.evolve(state, extra=extra)
        extra = spend_actions(interim, action, unit.id, act.ActionKind.CHARGE.cost)
    events: list[Event] = []
    new = attrs.evolve(state, extra=extra)
    spare = action.charger_spare_move
    if action.distance is not None:
        new, chargers, spare, moves = _charge_moves(new, chargers, action, dice)
        events.extend(moves)
        if not chargers:
            return new, tuple(events)
    standing: list[Unit] = []
    for target in targets:
        compulsory = must_evade(
            target, chargers[0], in_open=action.target_in_open, hard_cover=action.hard_cover
        )
        wants = action.evade if action.evade is not None else compulsory
        if compulsory and action.evade is False:
            raise IllegalActionError(action, f"{target.name} must evade in the open", RULE_EVADE)
        if wants and may_evade(target, chargers[0], hard_cover=action.hard_cover):
            mark = len(dice.records)
            result = evade(
                target,
                chargers[0],
                dice=dice,
                charger_spare_move=spare,
                hard_cover=action.hard_cover,
                commander_attached=leader_attached(state, target),
            )
            new = new.with_units(result.unit)
            events.append(
                event_since("evade", f"{target.name} {result}", RULE_EVADE, target.id, dice, mark)
            )
        else:
            standing.append(target)
    if not standing:
        return new, tuple(events)
    if action.defer:
        melee = DeferredMelee(
            tuple(c.id for c in chargers), tuple(t.id for t in standing), action.facts
        )
        extra = attrs.evolve(new.extra, deferred=(*new.extra.deferred, melee))
        events.append(
            Event(
                "charge",
                "charge made contact; melee deferred to the end of the turn",
                RULE_SEQUENCE,
                chargers[0].id,
            )
        )
        return attrs.evolve(new, extra=extra), tuple(events)
    new, melee_events = fight(new, chargers, tuple(standing), action.facts, action.pursue, dice)
    return new, (*events, *melee_events)


def _charge_moves(
    state: State, chargers: tuple[Unit, ...], action: Charge, dice: SamplingDice
) -> tuple[State, tuple[Unit, ...], float, tuple[Event, ...]]:
    """Each charger's move towards the target: those that reach it make contact (Charges and
    melee: units enter melee if they can move far enough, using a movement action)."""
    if action.distance is None or action.distance < 0:
        raise InvalidValueError("distance", action.distance, "0 or more inches")
    reached: list[Unit] = []
    events: list[Event] = []
    spare: float | None = None
    for unit in chargers:
        movement.check_move(unit, action.ground)
        mark = len(dice.records)
        result = movement.move(unit, action.ground, dice=dice)
        state = state.with_units(result.unit)
        reach = [d for d in result.distances if d >= action.distance]
        if reach:
            reached.append(result.unit)
            # cavalry move exactly one of their distances: the longest that reaches
            left = max(reach) - action.distance
            spare = left if spare is None else min(spare, left)
            text = f"{unit.name} charges home ({result})"
        else:
            text = f"{unit.name} falls short of {action.distance} inches ({result})"
        events.append(event_since("charge move", text, RULE_CHARGES, unit.id, dice, mark))
    return state, tuple(reached), spare or 0.0, tuple(events)


def fight(
    state: State,
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    pursue: bool,
    dice: SamplingDice,
) -> tuple[State, tuple[Event, ...]]:
    """Resolve the melee of a charge that made contact, then the moves, pursuit and risks that
    follow."""
    mark = len(dice.records)
    facts = _facts_from_state(state, chargers, defenders, facts)
    outcome = resolve_charge(chargers, defenders, facts, dice=dice, options=state.extra.options)
    events = [event_since("melee", str(outcome), RULE_CHARGES, chargers[0].id, dice, mark)]
    new = state.with_units(*outcome.chargers, *outcome.defenders)
    events.extend(move_events(outcome.chargers, outcome.charger_fates, dice))
    events.extend(move_events(outcome.defenders, outcome.defender_fates, dice))
    if outcome.chargers_fall_back:
        events.append(
            Event(
                "fall back", f'chargers move back {FALL_BACK_INCHES}"', RULE_CHARGES, chargers[0].id
            )
        )
    pursuers: tuple[Unit, ...] = ()
    if pursue and any(f is Fate.ROUTS for f in outcome.defender_fates):
        pursuers = outcome.chargers
    elif (
        pursue
        and facts.countercharged_by_cavalry
        and any(f is Fate.ROUTS for f in outcome.charger_fates)
    ):
        pursuers = outcome.defenders  # a cavalry melee with a countercharge: the winner pursues
    if pursuers:
        for unit in pursuers:
            if unit.destroyed or unit.routing or unit.is_artillery:
                continue
            mark = len(dice.records)
            distance = pursuit_distance(unit, dice=dice)
            events.append(
                event_since(
                    "pursuit",
                    f'{unit.name} pursues {distance}"',
                    f"{TEXT}, Charges and melee: Pursuit",
                    unit.id,
                    dice,
                    mark,
                )
            )
    new, risks = risk_events(
        new, chargers + defenders, outcome.chargers + outcome.defenders, dice, melee=True
    )
    return new, (*events, *risks)
