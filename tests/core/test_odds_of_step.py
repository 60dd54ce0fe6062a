"""The exact odds of one battle step: ``odds_of_step`` runs the handler through
enumerating dice, projects each resulting state and merges equal projections."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest

from smoothbore.battle import random_policy
from smoothbore.bloodybacks93 import TURN as BB_TURN
from smoothbore.bloodybacks93 import example_battle
from smoothbore.bloodybacks93.actions import Charge
from smoothbore.core import IllegalActionError, odds
from smoothbore.core.stages import odds_of_step


def _status(state: Any) -> tuple[tuple[str, int, int, bool, bool], ...]:
    return tuple((u.id, u.disruption, u.stamina_losses, u.routing, u.destroyed)
                 for u in state.units)


def _first_charge(seed: int) -> tuple[Any, Charge] | None:
    state = example_battle(seed)
    policy = random_policy(seed)
    for _ in range(3000):
        if BB_TURN.is_over(state):
            return None
        legal = BB_TURN.legal_actions(state)
        charges = [a for a in legal if isinstance(a, Charge)]
        if charges:
            return state, charges[0]
        state, _ = BB_TURN.step(state, policy(state, legal))
    return None


def _a_charge() -> tuple[Any, Charge]:
    for seed in range(40):
        found = _first_charge(seed)
        if found is not None:
            return found
    pytest.skip("no charge offered in 40 random battles")


def test_a_charge_step_has_exact_odds_fast_and_summing_to_one() -> None:
    """A charge in the embedded battle: its exact odds, projected on each unit's status,
    in under 100 ms (once the rule's checks are warm), summing to one; a sampled step lands
    on one of its outcomes."""
    state, action = _a_charge()
    odds_of_step(BB_TURN, state, action, view=_status)  # warm the per-check caches
    start = time.perf_counter()
    dist = odds_of_step(BB_TURN, state, action, view=_status)
    elapsed = time.perf_counter() - start
    assert sum(Fraction(w, dist.denominator) for _, w in dist.items()) == 1
    played, _ = BB_TURN.step(state, action)
    assert dist.weight(_status(played)) > 0
    assert elapsed < 0.5  # the target is 100 ms; slack for a loaded machine


def test_odds_of_step_equals_odds_over_the_handler() -> None:
    """The same distribution as walking ``apply`` by hand."""
    state, action = _a_charge()

    def by_hand(*, dice: Any) -> Any:
        return _status(BB_TURN.apply(state, action, dice)[0])

    assert odds_of_step(BB_TURN, state, action, view=_status) == odds(by_hand)


def test_an_illegal_action_is_refused_before_any_roll() -> None:
    """The action is checked once, first."""
    state, action = _a_charge()
    wrong = Charge(action.target_ids, action.unit_ids)
    with pytest.raises(IllegalActionError):
        odds_of_step(BB_TURN, state, wrong)
