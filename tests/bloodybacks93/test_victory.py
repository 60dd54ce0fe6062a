"""Bloodybacks 9.3 sets no victory conditions: the library's documented defaults (B48), who
acts, when the battle is over and who won (victory.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93 import TURN
from smoothbore.bloodybacks93.actions import EndActivation
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.deck import BLACK, RED, Card
from smoothbore.bloodybacks93.phases import ACTIVITY, DEFERRED, DRAW, ENDED
from smoothbore.bloodybacks93.state import DeferredMelee, broken_sides
from smoothbore.bloodybacks93.units import Formation, Unit, UnitType, Weapon
from smoothbore.bloodybacks93.victory import decided, lost, score
from smoothbore.core import IllegalActionError, InvalidValueError, Outcome

from .turn_setup import UNITS, active, start


def test_who_acts() -> None:
    """Activating Commanders: the card's colour decides who acts while it is in play (red:
    the British); the steps of the sequence (activity, cards, deferred melees, the turn's
    end) belong to nobody (B48)."""
    assert TURN.to_act(active(Card(RED, 3))) == "british"
    assert TURN.to_act(active(Card(BLACK, 2))) == "american"
    for phase in (ACTIVITY, DRAW, DEFERRED):
        assert TURN.to_act(attrs.evolve(start(), phase=phase)) is None
    melee = DeferredMelee(("b1",), ("a1",), ChargeFacts())
    pending = attrs.evolve(start(), phase=DEFERRED,
                           extra=attrs.evolve(start().extra, deferred=(melee,)))
    assert TURN.to_act(pending) is None
    broken = active(Card(BLACK, 2)).with_units(
        *(attrs.evolve(u, destroyed=True) for u in UNITS if u.side == "american"))
    assert TURN.to_act(broken) is None


def test_a_side_breaking_is_seen_by_the_state_made_after_one_asked() -> None:
    """B48: the broken sides are worked out once per state (``state.derived``); a state made
    from one already asked, with a side's last units routing, is asked afresh."""
    card = active(Card(BLACK, 2))
    assert TURN.to_act(card) == "american" and TURN.is_legal(card, EndActivation())
    assert decided(card) is None
    broken = card.with_units(
        *(attrs.evolve(u, routing=True) for u in UNITS if u.side == "british"))
    assert broken_sides(broken) == ("british",) and TURN.to_act(broken) is None
    why, rule = decided(broken) or ("", "")
    assert "british side has broken" in why and "B48" in rule
    with pytest.raises(IllegalActionError, match="british side has broken"):
        TURN.step(broken, EndActivation())  # the engine's guard (Engine.decided)
    assert not TURN.is_legal(broken, EndActivation())


def test_is_over_only_once_ended() -> None:
    """Risk to commanders: the battle is over once it has ended and the fates are rolled."""
    assert not TURN.is_over(start())
    assert TURN.is_over(attrs.evolve(start(), phase=ENDED))
    with pytest.raises(InvalidValueError):
        TURN.outcome(start())


def test_losses_score_for_the_enemy() -> None:
    """B48: a unit standing gives the enemy its stamina losses; one destroyed or routing its
    whole size (a battery its models), or its stamina losses when they outnumber it."""
    foot = UNITS[0]
    assert lost(attrs.evolve(foot, stamina_losses=4, disruption=3)) == 4
    assert lost(attrs.evolve(foot, routing=True, stamina_losses=4)) == 20
    assert lost(attrs.evolve(foot, destroyed=True, stamina_losses=25)) == 25
    guns = Unit("g", "Royal Artillery", "british", kind=UnitType.FIELD_ARTILLERY, size=4,
                density=3, sections=2, formation=Formation.UNLIMBERED, weapon=Weapon.CANNON)
    assert lost(attrs.evolve(guns, destroyed=True, stamina_losses=2)) == 4  # its 4 models
    # seed 3's battery: 4 models and 5 stamina losses; broken it gives the 5 it gave standing
    assert lost(attrs.evolve(guns, stamina_losses=5)) == 5
    assert lost(attrs.evolve(guns, destroyed=True, stamina_losses=5)) == 5
    state = start().with_units(attrs.evolve(UNITS[3], stamina_losses=5),
                               attrs.evolve(UNITS[0], destroyed=True))
    assert (score(state, "british"), score(state, "american")) == (5, 20)


def test_a_broken_side_loses() -> None:
    """B48: the side with every unit destroyed or routing loses, whatever the scores."""
    broken = tuple(attrs.evolve(u, routing=True) if u.side == "british" else u for u in UNITS)
    ended = attrs.evolve(start(), units=broken, phase=ENDED)
    result = TURN.outcome(ended)
    assert result.winner == "american"
    assert "british side has broken" in result.reason and "B48" in result.rule
    assert result.score("american") == 20 + 18 + 4


def test_at_the_turn_limit_losses_decide() -> None:
    """B48: without a broken side, the higher score wins; equal scores draw."""
    state = attrs.evolve(start(), phase=ENDED, turn=6)
    assert TURN.outcome(state).winner is None
    hurt = state.with_units(attrs.evolve(UNITS[3], stamina_losses=2))
    assert TURN.outcome(hurt).winner == "british"
    assert TURN.outcome(hurt).scores == (("british", 2), ("american", 0))


def test_a_scenario_may_set_its_own_victory() -> None:
    """B48: a scenario overrides the default with the engine's with_outcome."""
    def hold_the_bridge(state: object) -> Outcome:
        return Outcome("american", (("british", 0), ("american", 1)), "the bridge held",
                       "scenario")

    turn = TURN.with_outcome(result=hold_the_bridge)
    assert turn.outcome(attrs.evolve(start(), phase=ENDED)).reason == "the bridge held"
    assert turn.legal_actions(start()) == TURN.legal_actions(start())
