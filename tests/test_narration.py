"""Narration reads as words: actions led by the unit or commander that acts, named as in the
battle, rolls without Python values, phases named as the rule book names them, rules cited
once a step, and a summary at the end. In 200 seeded battles of each rule book no line shows
a Python value."""

from __future__ import annotations

import re

import pytest

from smoothbore import get_ruleset
from smoothbore.battle import Step, play, random_policy
from smoothbore.core.chance import RollRecord
from smoothbore.core.events import Event
from smoothbore.rulesets import BUILTIN_RULESETS
from smoothbore.table import table_of
from smoothbore.views import action_words, phase_title, roll_words, say
from tests.test_conformance import TABLE_ROUNDS

PYTHON = [
    (re.compile(r"\(\d+,\)"), "a one-element tuple"),
    (re.compile(r"\b[A-Z]\w*\((\w+=|\)|')"), "a class repr"),
    (re.compile(r"<\w+\.\w+: "), "an enum repr"),
    (re.compile(r"\(\s*'"), "a tuple of strings"),
    (re.compile(r"=\s*(True|False|None)\b"), "a Python constant"),
    (re.compile(r"\b[a-z]+_\w*=\S|\b[a-z]{2,}=[a-z']"), "a keyword argument"),
]


def _leaks(line: str) -> list[str]:
    return [what for pattern, what in PYTHON if pattern.search(line)]


def test_the_patterns_catch_the_reprs_the_issue_quotes() -> None:
    for line in ("1dAv, each read -> [5] = (5,)", "= (Card(colour='black', value=1),)",
                 "Move(unit='r2')", "= True", "<Fate.HOLDS: 'holds'>",
                 "use=move the commander 12 inches"):
        assert _leaks(line), line
    assert not _leaks("23rd Foot: move, distance 6")


@pytest.mark.parametrize("name", [name for name, _ in BUILTIN_RULESETS])
def test_no_narration_line_shows_a_python_value(name: str) -> None:
    ruleset = get_ruleset(name)
    assert ruleset.turn is not None
    battles = ruleset.battles()
    found: dict[str, str] = {}
    for seed in range(200):
        battle_name, make = battles[seed % len(battles)]
        start = make(seed)
        if table_of(start) is not None and seed // len(battles) >= TABLE_ROUNDS:
            continue  # battles on a table play slower: fewer of them
        played = play(ruleset.turn, start, random_policy(seed))
        for line in played.narrate(ruleset.turn).splitlines():
            for what in _leaks(line):
                found.setdefault(what, f"{battle_name} seed {seed}: {line.strip()}")
    assert not found, found


def test_a_roll_reads_as_words() -> None:
    card = RollRecord("draw 1 of 10", (4,), (("black", 1),), "draw", "deck rule")
    assert roll_words(card) == "draw: draw 1 of 10 -> [4] = black, 1"
    single = RollRecord("1dAv, each read", (5,), (5,), "activity", "AL rule")
    assert roll_words(single) == "activity: 1dAv, each read -> [5]"
    assert roll_words(single, rules=True) == "activity: 1dAv, each read -> [5] (AL rule)"
    check = RollRecord("1d10 + 7 at least 11", (6,), True, "activation", "rule")
    assert roll_words(check) == "activation: 1d10 + 7 at least 11 -> [6] = yes"
    assert say(None) == "none" and say(2.0) == "2" and say(()) == "none"


def test_will_phases_are_named_and_actions_led_by_their_unit() -> None:
    ruleset = get_ruleset("will_awi")
    assert ruleset.turn is not None and ruleset.example is not None
    state = ruleset.example(3)
    letters = [phase.name for phase in ruleset.turn.phases]
    assert all(len(p) == 1 for p in letters)
    titles = [phase_title(p, ruleset.turn) for p in letters]
    assert titles[2] == "C: movement"
    assert all(t.startswith(f"{p}: ") and len(t) > 4 for p, t in zip(letters, titles,
                                                                     strict=True))
    unit = state.units[0]
    played = play(ruleset.turn, state, random_policy(3))
    moves = [s for s in played.steps if type(s.action).__name__ == "Move"]
    assert moves
    words = action_words(moves[0].action, state)
    assert words.split(",")[0].endswith(": move")
    assert words.split(":")[0] in {u.name for u in state.units}
    assert unit.id not in words.split(":")[0]
    to = moves[0].action.to  # on the battle's table, a move names where it goes
    assert to is not None and f"to ({to[0]:g}, {to[1]:g}) facing {to[2]:g}°" in words


def test_a_step_cites_each_rule_once_and_the_battle_ends_with_a_summary() -> None:
    event = Event("fire", "b1 hits", "Rule 4", "b1",
                  (RollRecord("2d6", (3, 4), 7, "fire", "Rule 4"),))
    other = Event("morale", "b2 holds", "Rule 5", "b2")
    step = Step(1, "fire", "end", (event, other))
    lines = step.narrate().splitlines()
    assert lines == ["[turn 1, fire] end", "  b1 hits", "    fire: 2d6 -> [3, 4] = 7",
                     "  b2 holds", "  (Rule 4; Rule 5)"]
    cited = step.narrate(rules=True).splitlines()
    assert cited[1] == "  b1 hits [Rule 4]" and cited[2].endswith("(Rule 4)")
    ruleset = get_ruleset("will_awi")
    assert ruleset.turn is not None and ruleset.example is not None
    played = play(ruleset.turn, ruleset.example(3), random_policy(3))
    text = played.narrate(ruleset.turn).splitlines()
    assert played.outcome is not None
    assert text[-3] == (f"The battle is over after {len(played.steps)} actions in "
                        f"{played.turns} turn{'s' if played.turns != 1 else ''}: "
                        f"{played.outcome}")
    assert text[-2].startswith("  British: ") and text[-1].startswith("  American: ")
    routed = [u for u in played.end.units if u.status != played.start.unit(u.id).status]
    for unit in routed:
        assert unit.name in text[-1] + text[-2]
