"""Bloodybacks 9.3, Sequence of Play; Activating Units; Action tariff: the actions the rules
allow in a state (legal.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.bloodybacks93 import TURN
from smoothbore.bloodybacks93.turn import (
    ACTIVITY,
    ENDED,
    DrawCard,
    legal_actions,
    step,
)

from .turn_setup import choose, start


def test_whole_turn_from_legal_actions() -> None:
    """Sequence of Play: a whole turn plays through from legal_actions: activity, ten cards,
    deferred melees, next turn."""
    state = start()
    kinds: set[str] = set()
    cards = 0
    for _ in range(500):
        action = choose(TURN.legal_actions(state))
        state, events = TURN.step(state, action)  # type: ignore[arg-type]
        kinds.update(e.kind for e in events)
        cards += isinstance(action, DrawCard)
        if state.turn == 2:
            break
    assert state.turn == 2 and state.phase == ACTIVITY
    assert cards == 10
    assert {"activity", "card", "turn"} <= kinds
    assert "activation" in kinds


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_play_from_legal_actions(seed: int) -> None:
    """Sequence of Play: any choice among legal_actions is legal; two whole turns play out,
    and units keep their limits."""
    chooser = random.Random(seed)
    state = start(seed)
    for _ in range(600):
        actions = legal_actions(state)
        assert actions
        state, _ = step(state, chooser.choice(actions))
        if state.turn == 3 or state.phase == ENDED:
            break
    assert state.turn == 3 or state.phase == ENDED
    assert all(0 <= u.disruption <= 3 and 3 <= u.density <= 8 for u in state.units)
