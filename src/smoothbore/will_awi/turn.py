"""The move sequence A to K as the core engine: one ``ActionRule`` (candidates, roll-free
check, handler) per action type and phase (Rules - Move Sequence)."""

from __future__ import annotations

from typing import Any

from smoothbore.core import ActionRule, Engine
from smoothbore.table import KeptInStep

from . import rules
from . import steps_charges as charges
from . import steps_command as command
from . import steps_firing as firing
from . import steps_melee as melee
from . import steps_morale as morale
from . import steps_movement as movement
from . import steps_works as works
from .actions import (
    Action,
    Bombard,
    ChangeFacing,
    ChangeFormation,
    CompulsoryMove,
    Contact,
    CounterCharge,
    DeclareCharge,
    Deploy,
    Detonate,
    EndBattle,
    EndPhase,
    Engineer,
    Evade,
    Fire,
    HighlandChargeMove,
    IndependentTest,
    LayCharge,
    Limber,
    Move,
    MoveAway,
    MoveGeneral,
    Order,
    ResolveMelee,
    SecondCharges,
    SpreadHighlandCharge,
    TestCharged,
    TestMorale,
)
from .on_table import RULES
from .options import Options
from .phases import PHASES, A, B, C, D, E, F, G, H, I, J, K
from .state import Extra, State
from .units import Commander, Unit
from .victory import is_over, outcome, who_acts

_end = morale.candidates_end


_RULES: tuple[ActionRule[State, Any], ...] = (
    ActionRule(TestMorale, (A,), morale.candidates_test_morale, morale.check_test_morale,
               morale.apply_test_morale),
    ActionRule(EndPhase, (A,), _end, morale.check_end_a, morale.apply_end_a),
    ActionRule(CompulsoryMove, (B,), morale.candidates_compulsory_move,
               morale.check_compulsory_move, morale.apply_compulsory_move),
    ActionRule(EndPhase, (B,), _end, morale.check_end_b, morale.apply_end_b),
    ActionRule(Order, (C,), command.candidates_order, command.check_order, command.apply_order),
    ActionRule(IndependentTest, (C,), command.candidates_independent_test,
               command.check_independent_test, command.apply_independent_test),
    ActionRule(Move, (C,), movement.candidates_move, movement.check_move_action,
               movement.apply_move, ruled=True),
    ActionRule(ChangeFormation, (C,), movement.candidates_change_formation,
               movement.check_change_formation, movement.apply_change_formation),
    ActionRule(Limber, (C,), movement.candidates_limber, movement.check_limber_action,
               movement.apply_limber),
    ActionRule(Deploy, (C,), movement.candidates_deploy, movement.check_limber_action,
               movement.apply_limber),
    ActionRule(HighlandChargeMove, (C,), movement.candidates_highland_charge_move,
               movement.check_highland_charge_move, movement.apply_highland_charge_move),
    ActionRule(MoveGeneral, (C,), movement.candidates_move_general,
               movement.check_move_general, movement.apply_move_general),
    ActionRule(Engineer, (C,), works.candidates_engineer, works.check_engineer,
               works.apply_engineer),
    ActionRule(LayCharge, (C,), works.candidates_lay_charge, works.check_lay_charge,
               works.apply_lay_charge),
    ActionRule(MoveAway, (C,), works.candidates_move_away, works.check_move_away,
               works.apply_move_away),
    ActionRule(EndPhase, (C,), _end, movement.check_end_c, movement.apply_end_c),
    ActionRule(ChangeFacing, (D,), firing.candidates_change_facing, firing.check_change_facing,
               firing.apply_change_facing),
    ActionRule(EndPhase, (D,), _end, firing.check_end_d, firing.apply_end_d),
    ActionRule(Fire, (E,), firing.candidates_fire, firing.check_fire, firing.apply_fire,
               ruled=True),
    ActionRule(Bombard, (E,), works.candidates_bombard, works.check_bombard,
               works.apply_bombard, ruled=True),
    ActionRule(Detonate, (E,), works.candidates_detonate, works.check_detonate,
               works.apply_detonate),
    ActionRule(SpreadHighlandCharge, (E,), firing.candidates_spread_highland_charge,
               firing.check_spread_highland_charge, firing.apply_spread_highland_charge),
    ActionRule(EndPhase, (E,), _end, firing.check_end_e, firing.apply_end_e),
    ActionRule(DeclareCharge, (F,), charges.candidates_declare_charge,
               charges.check_declare_charge, charges.apply_declare_charge, ruled=True),
    ActionRule(EndPhase, (F,), _end, charges.check_end_f, charges.apply_end_f),
    ActionRule(TestCharged, (G,), charges.candidates_test_charged, charges.check_test_charged,
               charges.apply_test_charged),
    ActionRule(EndPhase, (G,), _end, charges.check_end_g, charges.apply_end_g),
    ActionRule(CounterCharge, (H,), charges.candidates_counter_charge,
               charges.check_counter_charge, charges.apply_counter_charge),
    ActionRule(Evade, (H,), charges.candidates_evade, charges.check_evade, charges.apply_evade),
    ActionRule(Fire, (H,), firing.candidates_second_charge_fire,
               firing.check_second_charge_fire, firing.apply_fire, ruled=True),
    ActionRule(EndPhase, (H,), _end, charges.check_end_h, charges.apply_end_h),
    ActionRule(Contact, (I,), charges.candidates_contact, charges.check_contact,
               charges.apply_contact),
    ActionRule(EndPhase, (I,), _end, charges.check_end_i, charges.apply_end_i),
    ActionRule(ResolveMelee, (J,), melee.candidates_resolve_melee, melee.check_resolve_melee,
               melee.apply_resolve_melee),
    ActionRule(EndPhase, (J,), _end, melee.check_end_j, melee.apply_end_j),
    ActionRule(SecondCharges, (K,), charges.candidates_second_charges,
               charges.check_second_charges, charges.apply_second_charges),
    ActionRule(EndBattle, (K,), charges.candidates_end_battle, charges.check_end_battle,
               charges.apply_end_battle),
    ActionRule(EndPhase, (K,), _end, charges.check_end_k, charges.apply_end_k),
)
ACTIONS: tuple[ActionRule[State, Any], ...] = _RULES
"""Every action type of the move sequence, by phase (the engine keeps the table in step
after each: ``KeptInStep(on_table.RULES)``)."""


def sampled(state: State, action: Action) -> bool:
    """Whether ``action`` is one of a continuous choice that the candidates only sample: on
    a table, a move (or the layers' move away) to a destination and a facing change. Such an
    action offered earlier and no longer offered may still be legal (the table's
    destinations follow the units)."""
    if state.extra.table is None:
        return False
    return isinstance(action, ChangeFacing) or (
        isinstance(action, Move | MoveAway) and action.to is not None)


_BY_UNIT = (TestMorale, CompulsoryMove, Move, ChangeFormation, Limber, Deploy, IndependentTest,
            HighlandChargeMove, Engineer, LayCharge, MoveAway, ChangeFacing)


def actor(action: Action) -> str | None:
    """The unit that acts (the engine's guard: a unit of the side that decides now, still on
    the table; Rules - Move Sequence): the unit moving, testing, working or facing; the
    firer; the charger declaring. None for an order (the general giving it is judged first,
    then each unit of the group), for the actions whose unit is not of the side deciding (a
    highland unit of the moving side spreading the charge in the other side's firing phase)
    and for those that name no unit of theirs."""
    if isinstance(action, _BY_UNIT):
        return action.unit
    if isinstance(action, Fire | Bombard):
        return action.firer
    if isinstance(action, DeclareCharge):
        return action.charger
    return None


TURN: Engine[State, Action] = Engine(
    name="will_awi",
    phases=PHASES,
    actions=ACTIONS,
    who_acts=who_acts,
    over=is_over,
    result=outcome,
    types=(Unit, Commander, Extra, Options),
    rule=rules.SEQUENCE,
    sampled=sampled,
    stands=RULES.stands,
    after=KeptInStep(RULES),
    actor=actor,
    actor_rule=rules.SEQUENCE,
)
"""Will's AWI move sequence: ``TURN.legal_actions``, ``TURN.step``, ``TURN.to_act``,
``TURN.is_over``, ``TURN.outcome``."""
