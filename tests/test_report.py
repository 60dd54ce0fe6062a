"""Narration that reads like a game report (issue 31): runs of phases with nothing done
folded into one line, what they announced kept; a step told by what happened, so a unit
holding its ground is not narrated as a move."""

from __future__ import annotations

from functools import cache
from typing import Any

from smoothbore.battle import Played, play, random_policy
from smoothbore.rulesets import get_ruleset
from smoothbore.views import action_words
from smoothbore.views.narration import is_idle, report


@cache
def will() -> Played[Any, Any]:
    ruleset = get_ruleset("will_awi")
    return play(ruleset.turn, ruleset.example(1), random_policy(1))  # type: ignore[arg-type]


def test_idle_phases_fold_into_one_line_each_run() -> None:
    """132 of the 170 steps of Will's default battle (seed 1) only end a phase; the report
    folds each run of them into one line (a run ends with a side to move or a new turn),
    and every other step keeps its own entry."""
    game, turn = will(), get_ruleset("will_awi").turn
    idle = [s for s in game.steps if is_idle(s, game.start, turn)]
    ended = [s for s in game.steps if action_words(s.action, game.start, turn) == "end phase"]
    assert len(ended) == 132 and len(idle) == 132
    told = report(game.steps, game.start, turn)
    folded = [entry for entry in told if "nothing done" in entry.splitlines()[0]]
    assert len(told) == len(game.steps) - len(idle) + len(folded)
    assert len(folded) == 27 and len(told) == 65
    assert not any("end phase" in entry for entry in told)
    # the folded runs keep what they announced, in order
    said = [line.strip() for entry in folded for line in entry.splitlines()[1:]]
    announced = [e.text for s in idle for e in s.events]
    assert said == announced and said.count("American to move") == 6
    assert told[0] == "[turn 1, A: morale to D: facing] nothing done (4 phases)"


def test_a_step_is_told_by_what_happened() -> None:
    game, turn = will(), get_ruleset("will_awi").turn
    told = "\n".join(report(game.steps, game.start, turn))
    assert "[turn 2, C: movement] Continental Artillery holds its position" in told
    assert "Continental Artillery: move\n" not in told
    first = next(s for s in game.steps if s.events and not is_idle(s, game.start, turn))
    assert f"] {first.events[0].text}" in told
