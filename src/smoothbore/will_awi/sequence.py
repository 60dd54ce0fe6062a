"""Rules - Move Sequence: alternate moves A to K as a pure ``Turn`` over ``BattleState``.

One side moves (A-C, F-K) while the other fires (D-E). Until positions arrive, actions carry
the facts a player measures at the table (ranges, faces, cover, terrain). The phases and the
state live in ``turn_state``, the actions in ``actions``, and each phase's handlers in the
``phase_*`` modules; this module puts them together as the ruleset's ``TURN``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import Event, IllegalActionError, Phase

from . import phase_charges, phase_firing, phase_melee, phase_morale, phase_movement
from .actions import (
    Bombard,
    ChangeFacing,
    ChangeFormation,
    CompulsoryMove,
    Contact,
    CounterCharge,
    DeclareCharge,
    Detonate,
    EndPhase,
    Engineer,
    Entering,
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
    WillAction,
)
from .candidates import candidates
from .turn_effects import Handler, Log, illegal
from .turn_state import (
    ORDER,
    PHASES,
    Charge,
    TestedCharge,
    WillExtra,
    WillState,
    attached_general,
    firing_side,
    new_battle,
)

HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType({
    **phase_morale.HANDLERS,
    **phase_movement.HANDLERS,
    **phase_firing.HANDLERS,
    **phase_charges.HANDLERS,
    **phase_melee.HANDLERS,
})
"""Which handler applies an action of a type in a phase."""


@attrs.frozen
class WillTurn:
    """The move sequence A-K (Rules - Move Sequence)."""

    phases: tuple[Phase, ...] = PHASES

    def legal_actions(self, state: WillState) -> tuple[WillAction, ...]:
        """Every action the rules allow now, with default table facts where a player would
        measure (fire at the weapon's longest short range, charge from contact distance)."""
        out: list[WillAction] = []
        for action in candidates(state):
            try:
                self.step(state, action)
            except IllegalActionError:
                continue
            out.append(action)
        return tuple(out)

    def step(self, state: WillState, action: WillAction) -> tuple[WillState, tuple[Event, ...]]:
        """Apply one action: the new state and what happened (pure, replayable)."""
        handler = HANDLERS.get((state.phase, type(action)))
        if handler is None:
            raise illegal(action, f"{type(action).__name__} is not allowed in phase {state.phase}")
        dice = state.dice.dice()
        log = Log(dice)
        new = handler(state, action, log)
        new = attrs.evolve(new, dice=state.dice.advanced())
        return new, tuple(log.events)


TURN = WillTurn()

__all__ = [
    "HANDLERS",
    "ORDER",
    "PHASES",
    "TURN",
    "Bombard",
    "ChangeFacing",
    "ChangeFormation",
    "Charge",
    "CompulsoryMove",
    "Contact",
    "CounterCharge",
    "DeclareCharge",
    "Detonate",
    "EndPhase",
    "Engineer",
    "Entering",
    "Evade",
    "Fire",
    "HighlandChargeMove",
    "IndependentTest",
    "LayCharge",
    "Limber",
    "Move",
    "MoveAway",
    "MoveGeneral",
    "Order",
    "ResolveMelee",
    "SecondCharges",
    "SpreadHighlandCharge",
    "TestCharged",
    "TestMorale",
    "TestedCharge",
    "WillAction",
    "WillExtra",
    "WillState",
    "WillTurn",
    "attached_general",
    "firing_side",
    "new_battle",
]
