"""A scenario's own victory conditions override the book's default outcome (issue 30):
``[victory] break_point``: a side that has lost that share of the units it began with (by
its book's own measure, ``<book>.scenarios.lost``) loses at once; both at once, a draw."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from smoothbore.battle import play, random_policy
from smoothbore.rulesets import get_ruleset
from smoothbore.scenario import read_scenario, ruleset_of

VALID = (Path(__file__).parent / "valid.toml").read_text("utf-8")
BROKEN_AT_HALF = VALID.replace("turn_limit = 4", "turn_limit = 4\nbreak_point = 50")


def _losing(state: object, *ids: str) -> object:
    units = tuple(attrs.evolve(u, destroyed=True) if u.id in ids else u
                  for u in state.units)  # type: ignore[attr-defined]
    return attrs.evolve(state, units=units)


def test_the_break_point_reads_and_writes_back() -> None:
    scenario = read_scenario(BROKEN_AT_HALF)
    assert scenario.break_point == 50
    assert "break_point = 50" in scenario.to_toml()
    assert read_scenario(scenario.to_toml()) == scenario


def test_a_side_past_its_break_point_loses_at_once() -> None:
    scenario = read_scenario(BROKEN_AT_HALF)
    turn = scenario.turn(get_ruleset("bloodybacks93").turn)
    start = scenario.start(0)
    assert not turn.is_over(start)
    one_lost = _losing(start, "a2")  # 1 of 2 American units: 50%, at the break point
    assert turn.is_over(one_lost)
    outcome = turn.outcome(one_lost)
    assert outcome.winner == "british"
    assert outcome.reason == ("american has lost 1 of its 2 units, past the scenario's "
                              "break point of 50%")
    assert outcome.rule == "scenario: [victory] break_point"
    both = _losing(start, "a2", "b1")
    assert turn.outcome(both).winner is None  # each side past it: a draw


def test_without_a_break_point_the_book_decides() -> None:
    scenario = read_scenario(VALID)
    base = get_ruleset("bloodybacks93").turn
    assert scenario.turn(base) is base
    one_lost = _losing(scenario.start(0), "a2")
    assert not base.is_over(one_lost)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_battle_with_a_break_point_plays_to_its_end(seed: int) -> None:
    ruleset = ruleset_of(read_scenario(BROKEN_AT_HALF.replace("break_point = 50",
                                                              "break_point = 1")))
    played = play(ruleset.turn, ruleset.battle("default")(seed), random_policy(seed),
                  max_steps=3000)
    assert played.outcome is not None
