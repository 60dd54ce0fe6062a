"""steps_charges.py: declaring charges and counter charges, the charger's morale test."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import DeclareCharge, EndPhase
from smoothbore.mckie_acw.melee import Attack
from smoothbore.mckie_acw.phases import CHARGES, MOVEMENT
from smoothbore.mckie_acw.units import OrderKind, Quality

from .support import A, B, at, battle, commanders, foot


def test_a_raw_charger_halts_on_a_three_and_pays_two_effort_points() -> None:
    state = at(battle(foot("a1", quality=Quality.RAW), foot("b1", B)), CHARGES)
    # average die + 1 advancing: 3 (halt) on 1 face in 6, carry on otherwise
    from .support import exact

    dist = exact(state, DeclareCharge("a1", "b1"), lambda s: s.unit("a1").effort)
    assert dist.probability(2) == Fraction(5, 6) and dist.probability(0) == Fraction(1, 6)
    after = exact(state, DeclareCharge("a1", "b1"), lambda s: "a1" in s.extra.halted)
    assert after.probability(True) == Fraction(1, 6)


def test_an_experienced_charge_always_goes_in() -> None:
    state = at(battle(), CHARGES)
    after, _events = TURN.step(state, DeclareCharge("a1", "b1", attack=Attack.FLANK))
    (charge,) = after.extra.charges
    assert not charge.stopped and charge.attack is Attack.FLANK
    assert "a1" in after.extra.shifted and "a1" in after.extra.advanced
    with pytest.raises(IllegalActionError, match="already charged"):
        TURN.step(after, DeclareCharge("a1", "b2"))


def test_counter_charges_alternate_until_both_pass() -> None:
    state = at(battle(), CHARGES)
    state, _ = TURN.step(state, DeclareCharge("a1", "b1"))
    state, _ = TURN.step(state, EndPhase())
    assert state.extra.acting == B
    assert DeclareCharge("b1", "a1", counter=True) in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError, match="not charging"):
        TURN.step(state, DeclareCharge("b1", "a2", counter=True))
    state, _ = TURN.step(state, DeclareCharge("b1", "a1", counter=True))
    state, _ = TURN.step(state, EndPhase())
    assert state.phase == CHARGES and state.extra.acting == A  # Blue may answer that
    state, _ = TURN.step(state, EndPhase())  # both passed one after the other
    assert state.phase == MOVEMENT


def test_holding_orders_and_distance_beyond_the_move() -> None:
    state = at(battle(generals=commanders(OrderKind.HOLD)), CHARGES)
    with pytest.raises(IllegalActionError, match="forbid advancing"):
        TURN.step(state, DeclareCharge("a1", "b1"))
    free = at(battle(), CHARGES)
    with pytest.raises(IllegalActionError, match="beyond"):
        TURN.step(free, DeclareCharge("a1", "b1", distance=121))  # foot in line: 120 mm
