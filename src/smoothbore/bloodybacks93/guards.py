"""Who may act now: the phase, the card's commanders and the actions a unit has left
(Bloodybacks 9.3, Sequence of Play; Activating Units; Action tariff)."""

from __future__ import annotations

import attrs

from smoothbore.core import IllegalActionError

from . import activation as act
from . import commanders, sequence, shooting
from .battle import Extra, State, activated_entry, leaderless, with_activated
from .phases import RULE_SEQUENCE
from .units import Commander, Unit


def need_phase(state: State, action: object, *phases: str) -> None:
    """Raise IllegalActionError unless the turn is in one of ``phases`` (Sequence of Play)."""
    if state.phase not in phases:
        raise IllegalActionError(action, f"not allowed in the {state.phase} phase", RULE_SEQUENCE)


def check_commander(
    state: State, action: object, unit: Unit, commander_id: str | None
) -> Commander | None:
    """The commander activating a unit now, or None for a leaderless unit on its ace; raises when
    the card, the commander or the one attempt a turn forbids it (Activating Units)."""
    card = state.extra.card
    if card is None:
        raise IllegalActionError(action, "no card drawn", RULE_SEQUENCE)
    if unit.id in state.extra.attempted:
        raise IllegalActionError(
            action, f"{unit.name} already tried to activate this turn", act.RULE_ACTIVATION
        )
    if commander_id is None:
        if not (leaderless(state, unit) and sequence.activates_leaderless(card, unit.side)):
            raise IllegalActionError(
                action,
                "only units whose commander is dead act without one, on their side's ace",
                act.RULE_ACTIVATION,
            )
        return None
    leader = state.commander(commander_id)
    if leader.removed:
        raise IllegalActionError(
            action, f"{leader.name} has been removed from the battle", commanders.RULE_RISK
        )
    if commander_id not in state.extra.active:
        raise IllegalActionError(
            action, f"{leader.name} is not activated by the {card}", sequence.RULE_ACTIVATING
        )
    if leader.side != unit.side:
        raise IllegalActionError(
            action, "a commander activates only his own side's units", sequence.RULE_ACTIVATING
        )
    return leader


def spend_actions(
    state: State, action: object, unit_id: str, cost: int, shooting_now: bool = False
) -> Extra:
    """The extra state after the unit spends ``cost`` of its actions (Action tariff); a unit shoots
    once a turn (Shooting)."""
    entry = activated_entry(state, unit_id)
    if entry is None:
        raise IllegalActionError(
            action, f"{unit_id} has not been activated by the current card", act.RULE_ACTIVATION
        )
    if entry.actions < cost:
        raise IllegalActionError(
            action, f"{unit_id} has {entry.actions} actions, needs {cost}", act.RULE_TARIFF
        )
    if shooting_now and entry.shot:
        raise IllegalActionError(
            action, f"{unit_id} has already shot this turn", shooting.RULE_SHOOTING
        )
    return with_activated(
        state.extra,
        attrs.evolve(entry, actions=entry.actions - cost, shot=entry.shot or shooting_now),
    )
