"""The default end of a battle (A20): a side with nothing in the fight loses at once; at the
last turn a broken army loses, then the score of enemy units out of the fight."""

from __future__ import annotations

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import DrawDie
from smoothbore.boltaction_acw.charges import ChargeFacts
from smoothbore.boltaction_acw.phases import CHOOSE, ENDED, REACTION
from smoothbore.boltaction_acw.rules import RULE_VICTORY
from smoothbore.boltaction_acw.state import PendingCharge, State, with_units
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, revise
from smoothbore.boltaction_acw.victory import is_over, outcome, score, who_acts
from smoothbore.core import IllegalActionError

from .battle import sample_battle


def start() -> State:
    return sample_battle(0)


def test_a_side_with_nothing_in_the_fight_loses_at_once() -> None:
    state = start()
    beaten = with_units(state, *(revise(u, bases=0) for u in state.units
                                 if u.side == CONFEDERATE))
    assert is_over(beaten) and TURN.legal_actions(beaten) == ()
    result = outcome(beaten)
    assert result.winner == UNION and dict(result.scores)[UNION] == 7


def test_at_the_last_turn_the_broken_army_loses() -> None:
    state = start()
    broken = with_units(state, *(revise(state.unit(uid), routing=True)
                                 for uid in ("c2va", "c4va", "c5va")))
    ended = broken.replace(phase=ENDED).with_extra(routs=())
    assert outcome(ended).winner == UNION
    assert "half its brigades" in outcome(ended).reason


def test_score_then_draw() -> None:
    state = start().replace(phase=ENDED)
    assert outcome(state).winner is None
    one = with_units(state, revise(state.unit("cwood"), bases=0))
    assert score(one, UNION) == 1 and outcome(one).winner == UNION


def test_who_acts() -> None:
    state = start()
    assert who_acts(state) is None  # the draw is the sequence's
    assert who_acts(state.replace(phase=CHOOSE).with_extra(drawn=UNION)) == UNION
    charged = state.replace(phase=REACTION).with_extra(
        charge=PendingCharge("u2wi", "c2va", ChargeFacts()))
    assert who_acts(charged) == CONFEDERATE
    routing = with_units(state, revise(state.unit("u2wi"), routing=True))
    assert who_acts(routing) == UNION


def test_nothing_is_decided_once_a_side_has_nothing_in_the_fight() -> None:
    """No one acts in a battle that is over; a scenario that plays on (its own end,
    ``with_outcome``) still finds every step refused once a side has nothing in the fight."""
    state = start()
    broken = with_units(state, *(revise(u, home=True) for u in state.units if u.side == UNION))
    assert who_acts(broken) is None
    plays_on = TURN.with_outcome(over=lambda s: s.phase == ENDED)
    with pytest.raises(IllegalActionError) as raised:
        plays_on.check(broken.with_extra(routs=()), DrawDie())
    assert raised.value.rule == RULE_VICTORY and "union side has no unit" in raised.value.why
