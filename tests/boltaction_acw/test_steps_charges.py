"""Charges and melee in play: the chargers' order test, the reaction in the opponent's
turn, the melee, melees that go on, victorious cavalry (Melee; The Turn, 4)."""

from __future__ import annotations

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Charge, FightOn, Respond
from smoothbore.boltaction_acw.charges import ChargeFacts, Response
from smoothbore.boltaction_acw.melee import FRONTAL
from smoothbore.boltaction_acw.phases import MELEE, ORDERS, REACTION
from smoothbore.boltaction_acw.rules import (
    RULE_CAVALRY,
    RULE_CHARGED,
    RULE_MELEE_RESULT,
    RULE_REACTIONS,
)
from smoothbore.boltaction_acw.state import (
    Engaged,
    PendingCharge,
    State,
    with_units,
)
from smoothbore.boltaction_acw.steps_charges import candidates_respond
from smoothbore.boltaction_acw.units import CONFEDERATE, revise
from smoothbore.core import DiceState, IllegalActionError, odds

from .battle import sample_battle
from .oracle import two_d6_at_most


def active(group: str) -> State:
    state = sample_battle(0)
    return state.replace(phase=ORDERS).with_extra(group=group)


def test_every_charge_takes_an_order_test() -> None:
    state = active("brigade:gibbon")
    charge = Charge("u2wi", "c4va", ChargeFacts(6))
    assert charge in TURN.legal_actions(state)
    dist = odds(lambda dice: TURN.apply(state, charge, dice)[0].phase)
    assert dist.probability(REACTION) == two_d6_at_most(8 + 1)  # colonel (A12)


def test_cavalry_may_not_charge_unpinned_line_from_the_front() -> None:
    state = active("u1mi")
    with pytest.raises(IllegalActionError, match="unpinned infantry"):
        TURN.step(state, Charge("u1mi", "c4va", ChargeFacts(6)))
    assert Charge("u1mi", "c4va", ChargeFacts(6, flank=True)) in TURN.legal_actions(state)


def reacting() -> State:
    state = active("brigade:gibbon")
    return state.replace(phase=REACTION).with_extra(
        charge=PendingCharge("u2wi", "c4va", ChargeFacts(6)))


def test_the_charged_side_reacts() -> None:
    state = reacting()
    assert TURN.to_act(state) == CONFEDERATE
    legal = TURN.legal_actions(state)
    assert Respond("c4va", Response.FIRE) in legal and Respond("c4va", Response.HOLD) in legal
    assert Respond("c4va", Response.COUNTER_CHARGE) not in legal
    with pytest.raises(IllegalActionError):
        TURN.step(state, Respond("c4va", Response.HOLD, "u7wi"))  # not a friend of the charged
    with pytest.raises(IllegalActionError, match="the charged unit"):
        TURN.step(state, Respond("c2va", Response.HOLD))


def test_the_melee_follows_only_a_passed_reaction_test() -> None:
    state = reacting()
    small = with_units(state, revise(state.unit("u2wi"), bases=1),
                       revise(state.unit("c4va"), bases=1))
    dist = odds(lambda dice: any(e.kind == "melee" for e in
                                 TURN.apply(small, Respond("c4va", Response.HOLD), dice)[1]))
    # regular 8, colonel +1, one base left: -4 for the bases below 5
    assert dist.probability(True) == two_d6_at_most(8 + 1 - 4)


def test_melees_that_go_on_are_fought_before_the_first_die() -> None:
    state = sample_battle(0)
    state = state.replace(phase=MELEE).with_extra(melees=(Engaged("u2wi", "c4va", FRONTAL),))
    assert TURN.legal_actions(state) == (FightOn("u2wi", "c4va"),)
    after, events = TURN.step(state, FightOn("u2wi", "c4va"))
    assert events[0].kind == "melee"
    assert ("u2wi", "c4va") in after.extra.fought or after.phase != MELEE


def refusal(state: State, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state, action)  # type: ignore[arg-type]
    return raised.value


def test_a_second_charge_only_within_the_reach_left() -> None:
    state = active("u1mi").with_extra(second=(("u1mi", 6),))
    error = refusal(state, Charge("u1mi", "c4va", ChargeFacts(12, flank=True)))
    assert error.rule == RULE_CAVALRY and "6\" of charge left" in error.why
    assert TURN.is_legal(state, Charge("u1mi", "c4va", ChargeFacts(6, flank=True)))


def test_reactions_need_a_charge_and_one_the_unit_may_make() -> None:
    waiting = reacting()
    error = refusal(waiting, Respond("c4va", Response.COUNTER_CHARGE))
    assert error.rule == RULE_CHARGED and "may: fire at point blank, hold fire" in error.why
    none = waiting.with_extra(charge=None)
    assert list(candidates_respond(none)) == []
    error = refusal(none, Respond("c4va", Response.HOLD))
    assert error.rule == RULE_REACTIONS and "no charge is waiting" in error.why


def test_only_a_melee_that_waits_is_fought_on() -> None:
    state = sample_battle(0).replace(phase=MELEE).with_extra(
        melees=(Engaged("u2wi", "c4va", FRONTAL),), fought=(("u2wi", "c4va"),))
    error = refusal(state, FightOn("u2wi", "c4va"))
    assert error.rule == RULE_MELEE_RESULT and "no such melee" in error.why


def test_cavalry_counter_charge_cavalry_charging_from_beyond_12() -> None:
    """The 2nd Virginia Cavalry meets the 1st Michigan charging from 13": passing its order
    test, the cavalry meet in a melee (both charging); failing it, it retreats and no melee is
    fought. Played with many dice seeds, both happen, each as the reaction says."""
    state = active("u1mi").replace(phase=REACTION).with_extra(
        charge=PendingCharge("u1mi", "c2vac", ChargeFacts(13)))
    respond = Respond("c2vac", Response.COUNTER_CHARGE)
    assert respond in TURN.legal_actions(state)
    seen = set()
    for seed in range(40):
        _, events = TURN.step(state.replace(dice=DiceState(seed)), respond)
        counter = "the cavalry meet in a counter charge" in events[0].text
        assert counter == any(e.kind == "melee" for e in events)
        seen.add(counter)
    assert seen == {True, False}
