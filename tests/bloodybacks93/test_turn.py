"""Bloodybacks 9.3, Sequence of Play: the turn as a pure step (turn.py)."""

from __future__ import annotations

import attrs

from smoothbore.bloodybacks93.turn import (
    DetermineActivity,
    DrawCard,
    step,
)

from .turn_setup import start


def test_same_state_same_action_same_result() -> None:
    """Sequence of Play: step is pure and replayable."""
    state = start(7)
    state, _ = step(state, DetermineActivity())
    first = step(state, DrawCard())
    second = step(state, DrawCard())
    assert first == second
    assert state == step(start(7), DetermineActivity())[0]


def test_step_never_mutates() -> None:
    """Sequence of Play: the given state is unchanged after a step."""
    state = start()
    copy = attrs.evolve(state)
    step(state, DetermineActivity())
    assert state == copy
