"""The Bloodybacks turn: phases as data and a pure ``step`` over the battle state, driven by
explicit actions (Bloodybacks 9.3, Sequence of Play).

The turn is assembled here from ``phases``, ``battle`` (the state), ``actions``, the steps
(``sequence_steps``, ``unit_steps``, ``charge_steps``) and ``legal``; their public names are
re-exported.
"""

from __future__ import annotations

import attrs

from smoothbore.core import Event, InvalidValueError, Phase, SamplingDice

from .actions import (
    Action,
    Activate,
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    Manoeuvre,
    Move,
    Rally,
    ResolveDeferred,
    RoutTest,
    Shoot,
    SpendCommandPoint,
)
from .battle import (
    Activated,
    ActivityEntry,
    DeferredMelee,
    Extra,
    State,
    new_battle,
    unit_commander,
)
from .charge_steps import on_charge
from .legal import legal_actions
from .phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, ENDED, PHASES, RULE_SEQUENCE
from .sequence_steps import (
    on_determine_activity,
    on_draw_card,
    on_end_activation,
    on_end_battle,
    on_end_turn,
    on_resolve_deferred,
)
from .unit_steps import (
    on_activate,
    on_manoeuvre,
    on_move,
    on_rally,
    on_rout_test,
    on_shoot,
    on_spend_command_point,
)

__all__ = [
    "ACTIVATION",
    "ACTIVITY",
    "DEFERRED",
    "DRAW",
    "ENDED",
    "PHASES",
    "RULE_SEQUENCE",
    "TURN",
    "Action",
    "Activate",
    "Activated",
    "ActivityEntry",
    "BloodybacksTurn",
    "Charge",
    "DeferredMelee",
    "DetermineActivity",
    "DrawCard",
    "EndActivation",
    "EndBattle",
    "EndTurn",
    "Extra",
    "Manoeuvre",
    "Move",
    "Rally",
    "ResolveDeferred",
    "RoutTest",
    "Shoot",
    "SpendCommandPoint",
    "State",
    "legal_actions",
    "new_battle",
    "step",
    "unit_commander",
]


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Apply one action; returns the new state and what happened. Pure: ``state`` is never
    changed, and an illegal action raises IllegalActionError naming the rule."""
    new_state, events = _handle(state, action, state.dice.dice())
    return attrs.evolve(new_state, dice=state.dice.advanced()), events


def _handle(
    state: State, action: Action, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    match action:
        case DetermineActivity():
            return on_determine_activity(state, action, dice)
        case DrawCard():
            return on_draw_card(state, action, dice)
        case Activate():
            return on_activate(state, action, dice)
        case RoutTest():
            return on_rout_test(state, action, dice)
        case Move():
            return on_move(state, action, dice)
        case Manoeuvre():
            return on_manoeuvre(state, action, dice)
        case Shoot():
            return on_shoot(state, action, dice)
        case Charge():
            return on_charge(state, action, dice)
        case Rally():
            return on_rally(state, action, dice)
        case SpendCommandPoint():
            return on_spend_command_point(state, action, dice)
        case EndActivation():
            return on_end_activation(state, action, dice)
        case ResolveDeferred():
            return on_resolve_deferred(state, action, dice)
        case EndTurn():
            return on_end_turn(state, action, dice)
        case EndBattle():
            return on_end_battle(state, action, dice)
    raise InvalidValueError("action", action, "a Bloodybacks action")


@attrs.frozen
class BloodybacksTurn:
    """The Bloodybacks turn as a value: phases, legal actions and the step."""

    phases: tuple[Phase, ...] = PHASES

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return legal_actions(state)

    def step(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return step(state, action)


TURN = BloodybacksTurn()
