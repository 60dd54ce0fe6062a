"""The sequence steps: drawing dice, activating, the army test, ending activations and
turns (The Turn; Brigade and army strength)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import (
    Activate,
    ArmyTest,
    EndActivation,
    EndTurn,
)
from smoothbore.boltaction_acw.melee import FRONTAL
from smoothbore.boltaction_acw.phases import CHOOSE, DRAW, ENDED, MELEE, ORDERS
from smoothbore.boltaction_acw.rules import RULE_BAG, RULE_TURN
from smoothbore.boltaction_acw.state import Engaged, State, with_units
from smoothbore.boltaction_acw.steps_sequence import (
    army_test_need,
    brigade_commander,
    candidates_activate,
    draw_die,
    without,
)
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, revise
from smoothbore.core import IllegalActionError, odds

from .battle import sample_battle
from .oracle import two_d6_at_most


def start() -> State:
    return sample_battle(0)


def test_the_drawn_colour_follows_the_bag() -> None:
    bag = (UNION, UNION, CONFEDERATE)
    assert odds(draw_die, bag).probability(UNION) == Fraction(2, 3)
    assert without(bag, UNION) == (UNION, CONFEDERATE)


def test_the_turn_ends_only_with_an_empty_bag() -> None:
    state = start()
    assert EndTurn() not in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError, match="still in the bag"):
        TURN.step(state, EndTurn())
    empty = state.with_extra(bag=())
    assert TURN.legal_actions(empty) == (EndTurn(),)
    after, _ = TURN.step(empty, EndTurn())
    assert after.turn == 2 and after.phase == DRAW and len(after.extra.bag) == 6


def test_melees_that_go_on_come_first_and_the_last_turn_ends_the_battle() -> None:
    state = start()
    locked = state.with_extra(bag=(),
                                     melees=(Engaged("u2wi", "c2va", FRONTAL),))
    after, _ = TURN.step(locked, EndTurn())
    assert after.phase == MELEE
    last = state.replace(turn=6).with_extra(bag=())
    over, _ = TURN.step(last, EndTurn())
    assert over.phase == ENDED and TURN.is_over(over)


def test_a_die_of_a_side_with_nothing_left_is_set_aside() -> None:
    state = start()
    gone = with_units(state, *(revise(u, home=True) for u in state.units if u.side == UNION))
    only = gone.with_extra(bag=(UNION,), routs=())
    # the union has nothing in the fight: the battle is over, nothing to draw
    assert TURN.is_over(only)


def test_activation_and_its_end() -> None:
    state = start().replace(phase=CHOOSE).with_extra(drawn=CONFEDERATE)
    with pytest.raises(IllegalActionError, match="not a confederate brigade"):
        TURN.step(state, Activate("brigade:gibbon"))
    active, _ = TURN.step(state, Activate("cwood"))
    assert active.phase == ORDERS and active.extra.group == "cwood"
    again, _ = TURN.step(active, EndActivation())
    assert again.phase == DRAW and "cwood" in again.extra.activated


def test_the_army_test_comes_first_and_sends_a_brigade_home() -> None:
    state = start()
    broken = with_units(state, *(revise(state.unit(uid), routing=True)
                                 for uid in ("u2wi", "u6wi", "u7wi")))
    broken = broken.replace(phase=ORDERS).with_extra(group="brigade:gibbon",
                                                    routs=())
    legal = TURN.legal_actions(broken)
    assert legal == (ArmyTest(),)
    dist = odds(lambda dice: TURN.apply(broken, ArmyTest(), dice)[0].extra.home)
    assert dist.probability(frozenset({"gibbon"})) == 1 - two_d6_at_most(8)
    assert army_test_need(None, broken.options).total == 8


def test_activation_needs_a_drawn_die_and_an_acting_brigade_to_end() -> None:
    state = start().replace(phase=CHOOSE)
    assert list(candidates_activate(state)) == []
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state, Activate("brigade:gibbon"))
    assert raised.value.rule == RULE_BAG and "no die has been drawn" in raised.value.why
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state.replace(phase=ORDERS), EndActivation())
    assert raised.value.rule == RULE_TURN and "no brigade is acting" in raised.value.why


def test_a_brigade_without_its_commander_tests_as_regular() -> None:
    """A17: the army test is against the brigade commander's rating; with none, regular 8."""
    state = start()
    assert brigade_commander(state, "gibbon") is not None
    assert brigade_commander(state, "nobody") is None
    assert army_test_need(None, state.options).total == 8
