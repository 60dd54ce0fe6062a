"""The battle period as the core engine: one ``ActionRule`` (candidates, roll-free check,
handler) per action type and step (McKie ACW, Battle period; Generalship)."""

from __future__ import annotations

from typing import Any

from smoothbore.core import ActionRule, Engine
from smoothbore.table.seam import KeptInStep

from . import rules
from . import steps_charges as charges
from . import steps_command as command
from . import steps_firing as firing
from . import steps_melee as melee
from . import steps_morale as morale
from . import steps_movement as movement
from . import steps_sequence as sequence
from .actions import (
    Action,
    Activate,
    AttachHelpers,
    ChangeOrders,
    ChooseFirst,
    CompulsoryMove,
    DeclareCharge,
    Dig,
    EndPhase,
    Fire,
    FollowUp,
    Melee,
    Move,
    MoveGeneral,
    PickOffGeneral,
    Resupply,
    RollInitiative,
    TestMorale,
)
from .options import Options
from .phases import (
    ACTIVATION,
    CHARGER_TESTS,
    CHARGES,
    COMPULSORY,
    FIRING,
    INITIATIVE,
    MELEE,
    MORALE,
    MOVEMENT,
    PHASES,
    RECEIVE_TESTS,
)
from .positions import RULES
from .state import Extra, State
from .units import Commander, Unit
from .victory import is_over, outcome, who_acts

_end = (sequence.candidates_end, sequence.check_end, sequence.apply_end)
_tests = (morale.candidates_test_morale, morale.check_test_morale, morale.apply_test_morale)

_RULES: tuple[ActionRule[State, Any], ...] = (
    ActionRule(RollInitiative, (INITIATIVE,), command.candidates_roll_initiative,
               command.check_roll_initiative, command.apply_roll_initiative),
    ActionRule(ChooseFirst, (INITIATIVE,), command.candidates_choose_first,
               command.check_choose_first, command.apply_choose_first),
    ActionRule(ChangeOrders, (ACTIVATION,), command.candidates_change_orders,
               command.check_change_orders, command.apply_change_orders),
    ActionRule(Activate, (ACTIVATION,), command.candidates_activate, command.check_activate,
               command.apply_activate),
    ActionRule(CompulsoryMove, (COMPULSORY,), movement.candidates_compulsory_move,
               movement.check_compulsory_move, movement.apply_compulsory_move),
    ActionRule(DeclareCharge, (CHARGES,), charges.candidates_declare_charge,
               charges.check_declare_charge, charges.apply_declare_charge),
    ActionRule(Move, (MOVEMENT,), movement.candidates_move, movement.check_move,
               movement.apply_move),
    ActionRule(Dig, (MOVEMENT,), movement.candidates_dig, movement.check_dig,
               movement.apply_dig),
    ActionRule(Resupply, (MOVEMENT,), movement.candidates_resupply, movement.check_resupply,
               movement.apply_resupply),
    ActionRule(AttachHelpers, (MOVEMENT,), movement.candidates_attach_helpers,
               movement.check_attach_helpers, movement.apply_attach_helpers),
    ActionRule(MoveGeneral, (MOVEMENT,), movement.candidates_move_general,
               movement.check_move_general, movement.apply_move_general),
    ActionRule(Fire, (FIRING,), firing.candidates_fire, firing.check_fire, firing.apply_fire),
    ActionRule(PickOffGeneral, (FIRING,), firing.candidates_pick_off_general,
               firing.check_pick_off_general, firing.apply_pick_off_general),
    ActionRule(TestMorale, (CHARGER_TESTS, RECEIVE_TESTS, MORALE), *_tests),
    ActionRule(Melee, (MELEE,), melee.candidates_melee, melee.check_melee, melee.apply_melee),
    ActionRule(FollowUp, (MELEE,), melee.candidates_follow_up, melee.check_follow_up,
               melee.apply_follow_up),
    ActionRule(EndPhase, (ACTIVATION, COMPULSORY, CHARGES, MOVEMENT, FIRING, CHARGER_TESTS,
                          RECEIVE_TESTS, MELEE, MORALE), *_end),
)
"""Every action type of the battle period, by step (the engine follows each handler with
``KeptInStep``: the table seam's ``keep_in_step`` with McKie's ``positions.RULES``, keeping a
table's footprints and generals' marks in step with the units, lost units off the table)."""

ACTIONS: tuple[ActionRule[State, Any], ...] = _RULES

_ACTING: dict[type, str] = {
    CompulsoryMove: "unit", DeclareCharge: "unit", Move: "unit", Dig: "unit",
    Resupply: "unit", TestMorale: "unit", AttachHelpers: "battery", Fire: "firer",
    PickOffGeneral: "firer",
}
"""The field naming the unit that acts, by action type (the actions of a unit)."""


def actor(action: object) -> str | None:
    """The unit that acts (the engine's guard: a unit of the side acting, still on the
    table; Battle period); None for the actions of a side, a general or a melee."""
    field = _ACTING.get(type(action))
    return None if field is None else str(getattr(action, field))

def sampled(state: State, action: object) -> bool:
    """Whether ``action`` is one of a continuous choice that the candidates only sample: on
    a table, a move to a destination (any place the unit's move reaches is legal; the
    candidates offer shares of its move and a move towards the nearest enemy, M34)."""
    return state.extra.table is not None and isinstance(action, Move) and action.to is not None


TURN: Engine[State, Action] = Engine(
    name="mckie_acw",
    phases=PHASES,
    actions=ACTIONS,
    who_acts=who_acts,
    over=is_over,
    result=outcome,
    types=(Unit, Commander, Extra, Options),
    rule=rules.BATTLE_PERIOD,
    sampled=sampled,
    stands=RULES.stands,
    after=KeptInStep(RULES),
    actor=actor,
    actor_rule=rules.BATTLE_PERIOD,
)
"""McKie ACW's battle period: ``TURN.legal_actions``, ``TURN.step``, ``TURN.to_act``,
``TURN.is_over``, ``TURN.outcome``."""
