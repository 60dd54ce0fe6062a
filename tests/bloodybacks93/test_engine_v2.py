"""Bloodybacks on the engine contract v2 (issue 29, item 3): the guards every action shares
are declared once on the engine, and a move, a shot and a charge hand what their check
measured to their handler, which measures nothing again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from smoothbore.battle import RandomPolicy, play
from smoothbore.bloodybacks93 import TURN, steps_charges, steps_units
from smoothbore.bloodybacks93.actions import Charge, Move, Shoot
from smoothbore.bloodybacks93.rules import RULE_ACTIVATING, RULE_VICTORY
from smoothbore.bloodybacks93.scenarios import example_battle
from smoothbore.bloodybacks93.state import State
from smoothbore.bloodybacks93.victory import actor, decided
from smoothbore.core import IllegalActionError


def _states(seeds: range) -> Iterator[State]:
    """Every state of random battles on the embedded table."""
    for seed in seeds:
        state = example_battle(seed)
        for step in play(TURN, state, RandomPolicy(seed), max_steps=300).steps:
            yield state
            state, _ = TURN.step(state, step.action)


def test_the_guards_are_declared_on_the_engine() -> None:
    assert TURN.decided is decided and TURN.actor is actor
    assert TURN.actor_rule == RULE_ACTIVATING
    assert actor(Move("b1")) == "b1" and actor(Charge(("b2", "b1"), ("a1",))) == "b2"


def test_a_destroyed_unit_is_refused_by_the_engine_guard() -> None:
    """A unit the card activated and then lost (destroyed) takes no action: the engine's
    guard refuses it, before the book's own checks (Activating Commanders)."""
    for state in _states(range(3)):
        moves = [a for a in TURN.legal_actions(state) if isinstance(a, Move)]
        if not moves:
            continue
        unit = state.unit(moves[0].unit_id)
        lost = state.with_units(attrs.evolve(unit, destroyed=True))
        with pytest.raises(IllegalActionError) as refused:
            TURN.check(lost, moves[0])
        assert refused.value.rule == RULE_ACTIVATING
        assert f"{unit.name} is no longer on the table" in refused.value.why
        return
    pytest.fail("no move was offered")


def test_once_a_side_breaks_only_ending_the_battle_is_offered() -> None:
    for state in _states(range(3)):
        if state.extra.card is None or not TURN.legal_actions(state):
            continue
        broken = state.with_units(*(attrs.evolve(u, routing=True) for u in state.units
                                    if u.side == state.extra.card.side))
        legal = TURN.legal_actions(broken)
        assert {type(a).__name__ for a in legal} <= {"EndBattle"}
        move = next((a for a in TURN.legal_actions(state) if isinstance(a, Move)), None)
        if move is not None:
            with pytest.raises(IllegalActionError) as refused:
                TURN.check(broken, move)
            assert refused.value.rule == RULE_VICTORY
            return
    pytest.fail("no move was offered")


@pytest.mark.parametrize(("kind", "module", "measure"), [
    (Move, steps_units, "_move_facts"),
    (Shoot, steps_units, "_shots"),
    (Charge, steps_charges, "_measured"),
])
def test_the_handler_takes_the_checks_ruling_and_measures_nothing_again(
        kind: type, module: Any, measure: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step given the rulings of its state (``legal_rulings``) hands each action's ruling
    to its handler: the measuring function the check calls is not called by the step; the
    state stepped is the one a step checking afresh gives."""
    stepped = 0
    for state in _states(range(12)):
        rulings = TURN.legal_rulings(state)
        chosen = [a for a in rulings.actions if isinstance(a, kind)][:2]
        for action in chosen:
            spy = _Spy(getattr(module, measure))
            with monkeypatch.context() as patch:
                patch.setattr(module, measure, spy)
                mine, events = TURN.step(state, action, rulings)
            assert spy.calls == 0
            assert (mine, events) == TURN.step(state, action)
            stepped += 1
        if stepped >= 4:
            return
    pytest.fail(f"only {stepped} {kind.__name__} stepped")


class _Spy:
    """A function that counts its calls."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls = real, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.real(*args, **kwargs)
