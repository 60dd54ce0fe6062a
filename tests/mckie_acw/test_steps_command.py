"""steps_command.py: the initiative and the winner's choice, written orders, activation."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import Activate, ChangeOrders, ChooseFirst, RollInitiative
from smoothbore.mckie_acw.phases import ACTIVATION
from smoothbore.mckie_acw.units import Commander, Fate, Order, OrderKind, Rank

from .support import A, B, at, battle, exact


def test_initiative_exact_with_ties_to_the_higher_rating() -> None:
    state = battle()  # Blue chief rates 3, Grey chief 5
    dist = exact(state, RollInitiative(), lambda s: s.extra.initiative)
    # Blue wins only when his d10 beats Grey's by 3 or more: 28 of the 100 pairs
    assert dist.probability(A) == Fraction(28, 100)


def test_the_winner_chooses_to_move_second() -> None:
    state = battle().with_extra(initiative=B)
    after, _ = TURN.step(state, ChooseFirst(False))
    assert after.phase == ACTIVATION and after.extra.first == A and after.extra.acting == A


def test_activation_exact_and_once_a_period() -> None:
    state = at(battle(), ACTIVATION)
    dist = exact(state, Activate("a-div"), lambda s: "a-div" in s.extra.activated)
    assert dist.probability(True) == Fraction(5, 10)  # d10 + 5 over 10
    after, _ = TURN.step(state, Activate("a-div"))
    with pytest.raises(IllegalActionError, match="one attempt"):
        TURN.step(after, Activate("a-div"))
    with pytest.raises(IllegalActionError, match="needs no activation"):
        TURN.step(state, Activate("a-chief"))


def _corps_battle(corps_fate: Fate = Fate.ACTIVE) -> tuple[Commander, ...]:
    return (
        Commander("a-chief", "Blue chief", A, Rank.CINC, 3, 5),
        Commander("a-corps", "Blue corps", A, Rank.CORPS, 3, 7, "a-chief", fate=corps_fate),
        Commander("a-div", "Blue division", A, Rank.DIVISION, 3, 5, "a-corps",
                  order=Order(OrderKind.ATTACK, "a-corps")),
        Commander("b-chief", "Grey chief", B, Rank.CINC, 5, 5),
        Commander("b-div", "Grey division", B, Rank.DIVISION, 3, 5, "b-chief"),
    )


def test_corps_before_division_and_a_fallen_corps_commander_is_skipped() -> None:
    state = at(battle(generals=_corps_battle()), ACTIVATION)
    with pytest.raises(IllegalActionError, match="activated first"):
        TURN.step(state, Activate("a-div"))
    fallen = at(battle(generals=_corps_battle(Fate.KILLED)), ACTIVATION)
    TURN.step(fallen, Activate("a-div"))  # the commander-in-chief throws for him (M5)


def test_orders_by_courier_arrive_next_period_and_by_meeting_at_once() -> None:
    state = at(battle(), ACTIVATION)
    with pytest.raises(IllegalActionError, match="send a courier"):
        TURN.step(state, ChangeOrders("a-chief", "a-div", OrderKind.HOLD))
    sent, _ = TURN.step(state, ChangeOrders("a-chief", "a-div", OrderKind.HOLD, courier=True))
    assert sent.commander("a-div").courier is OrderKind.HOLD
    assert sent.commander("a-div").order.kind is OrderKind.ATTACK
    with pytest.raises(IllegalActionError, match="new orders this period"):
        TURN.step(sent, ChangeOrders("a-chief", "a-div", OrderKind.ADVANCE, courier=True))
    met = state.with_commanders(*(attrs.evolve(c, attached_to="a1") for c in state.commanders
                                  if c.side == A))
    after, _ = TURN.step(met, ChangeOrders("a-chief", "a-div", OrderKind.HOLD))
    order = after.commander("a-div").order
    assert (order.kind, order.issued_by, order.started) == (OrderKind.HOLD, "a-chief", False)
    with pytest.raises(IllegalActionError, match="not above"):
        TURN.step(state, ChangeOrders("a-div", "a-chief", OrderKind.HOLD, courier=True))
