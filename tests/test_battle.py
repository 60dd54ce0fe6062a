"""Turn drivers: playing, stopping, replaying (on the built-in rulesets' embedded battles)."""

from __future__ import annotations

import pytest

from smoothbore import get_ruleset
from smoothbore.battle import play, random_policy, replay
from smoothbore.cli import main
from smoothbore.core import InvalidValueError


def test_same_seed_same_battle_and_replay_gives_it_back() -> None:
    ruleset = get_ruleset("bloodybacks93")
    assert ruleset.turn is not None and ruleset.example is not None
    first = play(ruleset.turn, ruleset.example(4), random_policy(9), max_steps=60)
    again = play(ruleset.turn, ruleset.example(4), random_policy(9), max_steps=60)
    assert first == again
    assert len(first.steps) == 60 or not ruleset.turn.legal_actions(first.end)
    assert len(first.steps) > 10
    replayed = replay(ruleset.turn, first.start, [step.action for step in first.steps])
    assert replayed == first
    assert first.narrate().splitlines()[0].startswith("[turn 1, activity]")


def test_play_stops_when_asked_or_when_nothing_is_legal() -> None:
    ruleset = get_ruleset("will_awi")
    assert ruleset.turn is not None and ruleset.example is not None
    start = ruleset.example(1)
    done = play(ruleset.turn, start, random_policy(1), until=lambda s: s.turn >= 2)
    assert done.end.turn == 2
    assert all(step.turn == 1 for step in done.steps)
    assert play(ruleset.turn, start, random_policy(1), max_steps=0).end == start
    with pytest.raises(InvalidValueError, match="max_steps"):
        play(ruleset.turn, start, random_policy(1), max_steps=-1)


def test_battle_command_narrates_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Bloodybacks!: the embedded battle, seed 3")
    assert "Bloodybacks 9.3" in out
    assert main(["battle", "will", "--seed", "3", "--json"]) == 0
    assert '"ruleset": "will_awi"' in capsys.readouterr().out
    assert main(["battle", "--turns", "0"]) == 2
    assert "--turns=0" in capsys.readouterr().err


def test_brief_shows_only_what_differs_from_the_defaults() -> None:
    import enum

    import attrs

    from smoothbore.battle import brief

    class Cover(enum.Enum):
        OPEN = "open"
        WOODS = "woods"

    @attrs.frozen
    class Facts:
        range: float
        cover: Cover = Cover.OPEN
        marks: tuple[str, ...] = attrs.field(factory=tuple)

    @attrs.frozen
    class Fire:
        firer: str
        facts: Facts

    assert brief(Fire("b2", Facts(6.0))) == "Fire(firer='b2', facts=Facts(range=6.0))"
    assert brief(Fire("b2", Facts(6.0, Cover.WOODS, ("x",)))) == (
        "Fire(firer='b2', facts=Facts(range=6.0, cover=woods, marks=('x',)))"
    )
