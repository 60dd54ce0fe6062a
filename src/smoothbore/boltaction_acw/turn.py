"""The Bolt Action ACW turn on the core engine: the phases and, for each action type, its
candidates, check and handler (The Turn)."""

from __future__ import annotations

from smoothbore.core import ActionRule, Engine
from smoothbore.table.seam import KeptInStep

from . import situations
from . import steps_charges as charges
from . import steps_orders as orders
from . import steps_sequence as sequence
from .actions import (
    Action,
    Activate,
    Advance,
    ArmyTest,
    ChangeFormation,
    Charge,
    Down,
    DrawDie,
    EndActivation,
    EndTurn,
    FightOn,
    Fire,
    MoveCommander,
    Rally,
    RallyFromRout,
    Respond,
    RideTo,
    RoutMove,
    Run,
)
from .movement import Pace
from .options import Options
from .phases import CHOOSE, DRAW, MELEE, ORDERS, PHASES, REACTION
from .placing import RULES
from .rules import RULE_TURN
from .state import Extra, State
from .units import Commander, Unit
from .victory import decided, is_over, outcome, who_acts


def sampled(state: State, action: object) -> bool:
    """Whether ``action`` is one of a continuous choice that the candidates only sample: on
    a table, an advance or a run to a destination outside the fixed set (A28), such as the
    move towards the nearest enemy, which follows the units, and a commander's ride to a
    point (A14: any point within his ride). Offered earlier and no longer offered, it may
    still be legal."""
    if state.extra.table is None:
        return False
    if isinstance(action, RideTo):
        return True
    if not isinstance(action, Advance | Run):
        return False
    return action.move is not None and not situations.fixed_move(
        action.move, Pace.ADVANCE if isinstance(action, Advance) else Pace.RUN)


_ACTING = frozenset({RallyFromRout, Advance, Run, ChangeFormation, Rally, Down, Respond})
"""The actions a unit takes (its ``unit_id``): it must be of the side acting and stand. Not
``Fire`` nor ``Charge``: a charger halted by fire (A12) and victorious cavalry with a second
charge (Melee) keep them for the rest of the turn (``Extra.halted``, ``Extra.second``), in
another brigade's activation too, whichever side's: their checks say who may. Nor
``RoutMove``: only the first router moves (its check), of the side acting by definition,
taken in every phase, an unknown id refused as illegal rather than as a bad id."""


def actor(action: object) -> str | None:
    """The unit that acts (the engine's guard, ``Engine.actor``: of the side acting, on the
    table), None for an action no unit takes (a die drawn, a commander's ride, a melee that
    goes on)."""
    if type(action) in _ACTING:
        unit_id: str = action.unit_id  # type: ignore[attr-defined]
        return unit_id
    return None


TURN: Engine[State, Action] = Engine(
    name="boltaction_acw",
    phases=PHASES,
    actions=(
        ActionRule(FightOn, (MELEE,), charges.candidates_fight_on, charges.check_fight_on,
                   charges.apply_fight_on),
        ActionRule(DrawDie, (DRAW,), sequence.candidates_draw_die, sequence.check_draw_die,
                   sequence.apply_draw_die),
        ActionRule(EndTurn, (DRAW,), sequence.candidates_end_turn, sequence.check_end_turn,
                   sequence.apply_end_turn),
        ActionRule(Activate, (CHOOSE,), sequence.candidates_activate, sequence.check_activate,
                   sequence.apply_activate),
        ActionRule(ArmyTest, (ORDERS,), sequence.candidates_army_test,
                   sequence.check_army_test, sequence.apply_army_test),
        ActionRule(RallyFromRout, (ORDERS,), orders.candidates_rally_from_rout,
                   orders.check_rally_from_rout, orders.apply_rally_from_rout),
        ActionRule(Fire, (ORDERS,), orders.candidates_fire, orders.check_fire,
                   orders.apply_fire, ruled=True),
        ActionRule(Advance, (ORDERS,), orders.candidates_advance, orders.check_advance,
                   orders.apply_advance, ruled=True),
        ActionRule(Run, (ORDERS,), orders.candidates_run, orders.check_run, orders.apply_run,
                   ruled=True),
        ActionRule(Charge, (ORDERS,), charges.candidates_charge, charges.check_charge,
                   charges.apply_charge),
        ActionRule(ChangeFormation, (ORDERS,), orders.candidates_change_formation,
                   orders.check_change_formation, orders.apply_change_formation),
        ActionRule(Rally, (ORDERS,), orders.candidates_rally, orders.check_rally,
                   orders.apply_rally),
        ActionRule(Down, (ORDERS,), orders.candidates_down, orders.check_down,
                   orders.apply_down),
        ActionRule(MoveCommander, (ORDERS,), orders.candidates_move_commander,
                   orders.check_move_commander, orders.apply_move_commander),
        ActionRule(RideTo, (ORDERS,), orders.candidates_ride_to, orders.check_ride_to,
                   orders.apply_ride_to),
        ActionRule(EndActivation, (ORDERS,), sequence.candidates_end_activation,
                   sequence.check_end_activation, sequence.apply_end_activation),
        ActionRule(Respond, (REACTION,), charges.candidates_respond, charges.check_respond,
                   charges.apply_respond),
        ActionRule(RoutMove, (MELEE, DRAW, ORDERS, REACTION), orders.candidates_rout_move,
                   orders.check_rout_move, orders.apply_rout_move),
    ),
    who_acts=who_acts,
    over=is_over,
    result=outcome,
    types=(Unit, Commander, Extra, Options),
    rule=RULE_TURN,
    sampled=sampled,
    decided=decided,
    actor=actor,
    actor_rule=RULE_TURN,
    stands=RULES.stands,
    after=KeptInStep(RULES),
)
"""The turn: ``TURN.legal_actions(state)``, ``TURN.step(state, action)``, ``to_act``,
``is_over`` and ``outcome`` (the default victory conditions, A20)."""
