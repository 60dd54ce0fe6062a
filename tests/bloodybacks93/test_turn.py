"""Bloodybacks 9.3, Sequence of Play: the turn on the core engine (turn.py): a pure step,
legal actions that are exactly what the step accepts, whole turns and battles played from
them."""

from __future__ import annotations

import random
import typing

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.battle import play, random_policy
from smoothbore.bloodybacks93 import RULESET, TURN, example_battle
from smoothbore.bloodybacks93.actions import Action, DetermineActivity, DrawCard
from smoothbore.bloodybacks93.phases import ACTIVITY, ENDED
from smoothbore.bloodybacks93.state import State
from smoothbore.core import Engine, IllegalActionError

from .turn_setup import choose, start, step


def test_the_turn_is_the_core_engine() -> None:
    """Sequence of Play: one action rule per action type, every type of the Action union
    registered, the phases of the ruleset."""
    assert isinstance(TURN, Engine)
    assert RULESET.turn is TURN
    assert set(TURN.action_types()) == set(typing.get_args(Action))
    assert len(TURN.action_types()) == 14


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


def test_whole_turn_from_legal_actions() -> None:
    """Sequence of Play: a whole turn plays through from legal_actions: activity, ten cards,
    deferred melees, next turn."""
    state = start()
    kinds: set[str] = set()
    cards = 0
    for _ in range(500):
        action = choose(TURN.legal_actions(state))
        state, events = TURN.step(state, action)
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
    """Sequence of Play: any choice among legal_actions is legal; two whole turns play out
    (or the battle ends when a side breaks), and units keep their limits."""
    chooser = random.Random(seed)
    state = start(seed)
    for _ in range(600):
        actions = TURN.legal_actions(state)
        assert actions
        state, _ = step(state, chooser.choice(actions))
        if state.turn == 3 or state.phase == ENDED:
            break
    assert state.turn == 3 or state.phase == ENDED
    assert all(0 <= u.disruption <= 3 and 3 <= u.density <= 8 for u in state.units)


def _listed_and_accepted(states: list[State], pool: set[Action]) -> None:
    for state in states:
        listed = set(TURN.legal_actions(state))
        assert listed <= pool
        for action in pool:
            if action not in listed and TURN.is_sampled(state, action):
                continue  # a point a commander rides to: any within reach is legal (B60)
            assert TURN.is_legal(state, action) == (action in listed), (state.phase, action)


def test_legal_actions_are_exactly_what_step_accepts() -> None:
    """Sequence of Play: one legality: in every state of a few random battles, an action
    listed anywhere is accepted by step exactly when legal_actions lists it now (a unit
    routed or destroyed in its own charge, an action out of phase, a card's spent actions)."""
    states: list[State] = []
    pool: set[Action] = set()
    for seed in range(4):
        played = play(TURN, example_battle(seed), random_policy(seed), max_steps=3000)
        state = played.start
        for played_step in played.steps:
            states.append(state)
            pool.update(TURN.legal_actions(state))
            state, _ = TURN.step(state, played_step.action)
        states.append(state)
    chooser = random.Random(0)
    _listed_and_accepted(chooser.sample(states, 120), pool)


def test_illegal_actions_change_nothing() -> None:
    """Sequence of Play: a refused action raises IllegalActionError naming the rule and
    leaves the state as it was."""
    state = start()
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        step(state, DrawCard())
    assert info.value.rule.startswith("Bloodybacks 9.3")
    assert state.to_json() == before
