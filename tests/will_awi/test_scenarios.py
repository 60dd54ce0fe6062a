"""The embedded battles (scenarios): each has a turn limit and plays to its end from
legal_actions; between them every action type comes up in random play; the narration reads
as a referee would say it (Rules - Move Sequence)."""

from __future__ import annotations

import random
import re

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.battle import play, random_policy
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.scenarios import SCENARIOS, example_battle
from smoothbore.will_awi.turn import TURN

AWKWARD = (
    re.compile(r'\d\.0["°]'),  # 12.0" or 90.0°
    re.compile(r'(?<![\d.])0(\.0)?["°]'),  # a move or turn of nothing
    re.compile(r"\bSP\b"),
)
BATTLES = [name for name, _ in RULESET.battles()]


def test_example_battle() -> None:
    """The embedded battle: British foot and dragoons under Lord Rawdon against Continentals,
    militia and a light gun under Greene (a brigadier with the 1st Maryland); six turns."""
    s = example_battle(3)
    assert s.sides == ("British", "American") and s.phase == "A" and s.extra.moving == "British"
    assert [u.id for u in s.units] == ["r1", "r2", "b1", "b2", "b3"]
    assert s.commander("bg").attached_to == "b1" and s.dice.seed == 3
    assert s.scenario.turn_limit == 6 and not s.scenario.players_may_end


def test_the_ruleset_lists_every_embedded_battle() -> None:
    """The default battle first, then the scenarios by name; each made from its seed, with a
    turn limit, a name, and ids unique across units and commanders."""
    assert RULESET.battles()[0] == ("default", example_battle)
    assert RULESET.scenarios == SCENARIOS
    for name, make in RULESET.battles():
        s = make(7)
        assert s == make(7) and s.dice.seed == 7
        assert s.scenario.name and s.scenario.turn_limit is not None, name
        ids = [u.id for u in s.units] + [g.id for g in s.commanders]
        assert len(ids) == len(set(ids))
    assert RULESET.battle("prestonpans")(1).options.variant.hordes
    assert RULESET.battle("command-and-control")(1).options.command_control
    assert RULESET.battle("germantown")(1).extra.demolitions
    assert RULESET.battle("cowpens")(1).scenario.players_may_end


def test_every_action_type_comes_up_in_random_play() -> None:
    """Every registered action type is offered somewhere in random play of the embedded
    battles (works and demolitions, command and control, the '45, second charges...)."""
    offered: set[type] = set()
    for name in BATTLES:
        for seed in range(12):
            rng = random.Random(seed)
            s = RULESET.battle(name)(seed)
            while not TURN.is_over(s):
                actions = TURN.legal_actions(s)
                offered.update(type(a) for a in actions)
                s, _ = TURN.step(s, rng.choice(actions))
    assert set(TURN.action_types()) - offered == set()


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(BATTLES), st.integers(0, 10_000))
def test_random_play_ends_within_bounded_steps(name: str, seed: int) -> None:
    """With random legal actions, every embedded battle ends by its rules or its scenario's
    turn limit, well within the drivers' step limit, with an outcome."""
    played = play(TURN, RULESET.battle(name)(seed), random_policy(seed), max_steps=3000)
    assert TURN.is_over(played.end)
    assert len(played.steps) < 3000
    limit = played.end.scenario.turn_limit
    assert limit is not None and played.end.turn <= limit + 1
    outcome = TURN.outcome(played.end)
    assert outcome.winner in (*played.end.sides, None)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(BATTLES), st.integers(0, 10_000), st.booleans())
def test_narration_reads_as_sentences(name: str, seed: int, command: bool) -> None:
    """Every event of a played battle starts with a capital (or a regiment's number), names
    units by name, and never reports a distance or angle of nothing or with a trailing .0."""
    rng = random.Random(seed)
    s = RULESET.battle(name)(seed)
    if command:
        s = attrs.evolve(s, options=attrs.evolve(s.options, command_control=True))
    ids = [u.id for u in s.units] + [g.id for g in s.commanders]
    named = re.compile(r"\b(" + "|".join(ids) + r")\b")  # ids instead of names
    while not TURN.is_over(s):
        s, events = TURN.step(s, rng.choice(TURN.legal_actions(s)))
        for e in events:
            assert e.text[0].isupper() or e.text[0].isdigit(), e.text
            assert not any(p.search(e.text) for p in (*AWKWARD, named)), e.text


def test_example_with_options_still_plays() -> None:
    """An embedded battle with other options (here evasion) plays as well."""
    s = attrs.evolve(example_battle(2), options=Options(evade=True))
    played = play(TURN, s, random_policy(2), max_steps=3000)
    assert TURN.is_over(played.end)


def test_a_highland_charge_stopped_where_it_stands_says_no_move_of_nothing() -> None:
    """Prestonpans, seed 9719, command and control: the Camerons' Highland charge is stopped
    where they stand by the Appin Stewarts (a friend in the way); the referee says they
    cannot go forward of their 9", not that they moved 0" of it."""
    rng = random.Random(9719)
    s = RULESET.battle("prestonpans")(9719)
    s = attrs.evolve(s, options=attrs.evolve(s.options, command_control=True))
    said = []
    while not TURN.is_over(s):
        s, events = TURN.step(s, rng.choice(TURN.legal_actions(s)))
        said += [e.text for e in events if e.text.startswith("Camerons makes its Highland")]
    assert ('Camerons makes its Highland charge at the nearest enemy but cannot go forward of '
            'its 9", at (17.6, 28.0), facing 090°: Appin Stewarts stops it') in said
    assert not any(p.search(text) for text in said for p in AWKWARD)
