"""The Bloodybacks turn on the core engine: the phases and, for each action type, its
candidates, check and handler (Bloodybacks 9.3, Sequence of Play)."""

from __future__ import annotations

from smoothbore.core import ActionRule, Engine
from smoothbore.table import KeptInStep

from . import steps_charges as charges
from . import steps_sequence as sequence
from . import steps_units as units
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
from .options import Options
from .phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, PHASES
from .placement import RULES
from .rules import RULE_ACTIVATING, RULE_SEQUENCE
from .state import Extra, State
from .units import Commander, Unit
from .victory import actor, decided, is_over, outcome, who_acts


def sampled(state: State, action: Action) -> bool:
    """Whether ``action`` is one of a continuous choice that the candidates only sample: on
    a table, a commander riding to a point. Such an action offered earlier and no longer
    offered may still be legal (the points offered follow his brigade)."""
    return (state.extra.table is not None and isinstance(action, SpendCommandPoint)
            and action.to is not None)


TURN: Engine[State, Action] = Engine(
    name="bloodybacks93",
    phases=PHASES,
    actions=(
        ActionRule(DetermineActivity, (ACTIVITY,), sequence.candidates_determine_activity,
                   sequence.check_determine_activity, sequence.apply_determine_activity),
        ActionRule(DrawCard, (DRAW,), sequence.candidates_draw_card,
                   sequence.check_draw_card, sequence.apply_draw_card),
        ActionRule(RoutTest, (ACTIVATION,), units.candidates_rout_test,
                   units.check_rout_test, units.apply_rout_test),
        ActionRule(Activate, (ACTIVATION,), units.candidates_activate,
                   units.check_activate, units.apply_activate),
        ActionRule(Move, (ACTIVATION,), units.candidates_move,
                   units.check_move, units.apply_move, ruled=True),
        ActionRule(Manoeuvre, (ACTIVATION,), units.candidates_manoeuvre,
                   units.check_manoeuvre, units.apply_manoeuvre),
        ActionRule(Shoot, (ACTIVATION,), units.candidates_shoot,
                   units.check_shoot, units.apply_shoot, ruled=True),
        ActionRule(Charge, (ACTIVATION,), charges.candidates_charge,
                   charges.check_charge, charges.apply_charge, ruled=True),
        ActionRule(Rally, (ACTIVATION,), units.candidates_rally,
                   units.check_rally, units.apply_rally),
        ActionRule(SpendCommandPoint, (ACTIVATION,), units.candidates_spend_command_point,
                   units.check_spend_command_point, units.apply_spend_command_point),
        ActionRule(EndActivation, (ACTIVATION,), sequence.candidates_end_activation,
                   sequence.check_end_activation, sequence.apply_end_activation),
        ActionRule(ResolveDeferred, (DEFERRED,), sequence.candidates_resolve_deferred,
                   sequence.check_resolve_deferred, sequence.apply_resolve_deferred),
        ActionRule(EndTurn, (DEFERRED,), sequence.candidates_end_turn,
                   sequence.check_end_turn, sequence.apply_end_turn),
        ActionRule(EndBattle, (ACTIVITY, DRAW, ACTIVATION, DEFERRED),
                   sequence.candidates_end_battle, sequence.check_end_battle,
                   sequence.apply_end_battle, guarded=False),
    ),
    who_acts=who_acts,
    over=is_over,
    result=outcome,
    types=(Unit, Commander, Extra, Options),
    rule=RULE_SEQUENCE,
    sampled=sampled,
    stands=RULES.stands,
    after=KeptInStep(RULES),
    decided=decided,
    actor=actor,
    actor_rule=RULE_ACTIVATING,
)
"""The sequence of play: ``TURN.legal_actions(state)``, ``TURN.step(state, action)``,
``to_act``, ``is_over`` and ``outcome`` (the default victory conditions, B48)."""
