"""Bloodybacks 9.3, Sequence of Play; Activating Units; Action tariff: who may act now
(guards.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.bloodybacks93.sequence import RED, Card
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.turn import (
    Activate,
    Activated,
    Charge,
    DrawCard,
    EndTurn,
    Shoot,
    SpendCommandPoint,
    legal_actions,
    step,
)
from smoothbore.core import IllegalActionError

from .turn_setup import COMMANDERS, active, start


def test_wrong_phase_is_illegal() -> None:
    """Sequence of Play: actions out of sequence raise an error naming the rule."""
    with pytest.raises(IllegalActionError) as info:
        step(start(), DrawCard())
    assert "Sequence of Play" in info.value.rule
    with pytest.raises(IllegalActionError):
        step(start(), EndTurn())


def test_activation_rules_in_the_turn() -> None:
    """Activating Units: one attempt per unit per turn; only commanders the card activated."""
    state = active(Card(RED, 3))
    after, events = step(state, Activate("b1", "cb"))
    assert "b1" in after.extra.attempted
    assert events[0].rule.endswith("Activating Units")
    with pytest.raises(IllegalActionError, match="already tried"):
        step(after, Activate("b1", "cb"))
    with pytest.raises(IllegalActionError) as info:
        step(state, Activate("a1", "ca"))
    assert "Activating Commanders" in info.value.rule


def test_action_tariff_is_enforced() -> None:
    """Action tariff: a charge costs 2, a unit shoots once a turn."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 1),))
    with pytest.raises(IllegalActionError) as info:
        step(state, Charge(("b1",), ("a1",)))
    assert "Action tariff" in info.value.rule
    shot, events = step(state, Shoot("b1", "a1", ShotFacts(range=5)))
    assert events[0].kind == "shooting"
    more = attrs.evolve(shot, extra=attrs.evolve(
        shot.extra, activated=(Activated("b1", "cb", 2, shot=True),)))
    with pytest.raises(IllegalActionError, match="already shot"):
        step(more, Shoot("b1", "a1", ShotFacts(range=5)))


def test_leaderless_units_on_the_ace() -> None:
    """Activating Units: a unit whose commander is killed activates on its side's ace,
    without his quality; a removed commander activates nobody."""
    dead = attrs.evolve(COMMANDERS[0], removed=True)
    state = attrs.evolve(active(Card(RED, 1)), commanders=(dead, COMMANDERS[1]))
    assert Activate("b1", None) in legal_actions(state)
    _, events = step(state, Activate("b1", None))
    assert "need 4" in events[0].text
    with pytest.raises(IllegalActionError):
        step(state, Activate("b1", "cb"))
    ace_two = attrs.evolve(state, extra=attrs.evolve(state.extra, card=Card(RED, 2)))
    with pytest.raises(IllegalActionError, match="ace"):
        step(ace_two, Activate("b1", None))


def test_commander_removed_during_his_card() -> None:
    """Risk to commanders: a commander removed while his card is in play activates nobody
    more and spends no more command points (found by random play)."""
    state = active(Card(RED, 3))
    gone = attrs.evolve(state, commanders=(attrs.evolve(COMMANDERS[0], removed=True),
                                           COMMANDERS[1]))
    offered = legal_actions(gone)
    assert not any(isinstance(a, Activate | SpendCommandPoint) for a in offered)
    with pytest.raises(IllegalActionError, match="removed"):
        step(gone, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER))
