"""One conformance suite run over every registered ruleset: metadata, mechanisms, odds, play."""

from __future__ import annotations

from collections.abc import Hashable

import pytest

from smoothbore import available_rulesets
from smoothbore.battle import random_policy
from smoothbore.core import (
    BattleState,
    Distribution,
    Mechanism,
    Ruleset,
    SamplingDice,
    Turn,
    odds,
)
from smoothbore.core.registry import normalise

RULESETS = available_rulesets()
MECHANISMS = [(r, m) for r in RULESETS for m in r.mechanisms]


def _id(item: object) -> str:
    if isinstance(item, Ruleset | Mechanism):
        return item.name
    return str(item)


@pytest.mark.parametrize("ruleset", RULESETS, ids=_id)
def test_metadata(ruleset: Ruleset) -> None:
    assert ruleset.name == normalise(ruleset.name)
    assert ruleset.title and ruleset.period and ruleset.edition
    assert ruleset.dice
    assert ruleset.phases
    assert all(phase.rule and phase.summary for phase in ruleset.phases)
    names = [m.name for m in ruleset.mechanisms]
    assert len(names) == len(set(names)), "mechanism names are unique"
    if ruleset.turn is not None:
        assert isinstance(ruleset.turn, Turn)
        assert ruleset.turn.phases


@pytest.mark.parametrize(("ruleset", "mechanism"), MECHANISMS, ids=_id)
def test_mechanism_defaults_give_an_exact_distribution(
    ruleset: Ruleset, mechanism: Mechanism
) -> None:
    assert mechanism.rule and mechanism.summary
    defaults = {p.name: p.default for p in mechanism.parameters}
    for parameter in mechanism.parameters:
        assert parameter.parse(str(parameter.default).lower()) == parameter.default
    dist: Distribution[Hashable] = odds(mechanism.function, **defaults)
    assert sum(w for _, w in dist.items()) == dist.denominator
    assert all(str(outcome) for outcome in dist.outcomes)
    # play: a seeded roll lands on a possible outcome, names its rules, and replays exactly
    first, second = SamplingDice(11), SamplingDice(11)
    result = mechanism.function(dice=first, **defaults)
    assert mechanism.function(dice=second, **defaults) == result
    assert dist.probability(result) > 0
    assert first.records == second.records
    assert all(record.rule and record.reason for record in first.records)


PLAYABLE = [r for r in RULESETS if r.turn is not None and r.example is not None]


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_is_pure_replayable_and_serialisable(ruleset: Ruleset, seed: int) -> None:
    """Random legal actions from the embedded battle: each step leaves its state untouched,
    gives the same result when repeated, names a rule for every event, and every state
    round-trips through JSON."""
    turn, state = ruleset.turn, ruleset.example(seed)  # type: ignore[misc]
    assert turn is not None
    choose = random_policy(seed)
    types = (type(state.units[0]), type(state.commanders[0]), type(state.extra))
    for _ in range(120):
        actions = turn.legal_actions(state)
        if not actions:
            break
        action = choose(state, actions)
        before = state.to_json()
        after, events = turn.step(state, action)
        assert state.to_json() == before
        assert turn.step(state, action) == (after, events)
        assert all(event.rule for event in events)
        assert BattleState.from_json(after.to_json(), *types) == after
        state = after
