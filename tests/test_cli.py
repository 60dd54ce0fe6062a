"""The command line: rulesets, odds tables and JSON, errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from smoothbore.cli import main
from smoothbore.rulesets import BUILTIN_RULESETS


def test_default_dice_odds_is_six_d12_at_or_under_seven(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "dice"]) == 0
    out = capsys.readouterr().out
    # 6 successes: each die passes on 1-7 (7/12), all six: 7**6 / 12**6
    assert "117649/2985984" in out


def test_default_odds_is_the_whole_bloodybacks_charge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bloodybacks93 charge ")
    shown = [line.rsplit(None, 2) for line in out.splitlines()[4:]]
    total = sum(Fraction(exact) for _, exact, _ in shown)
    assert total == 1
    assert any(label.startswith("defenders did not stand") for label, _, _ in shown)


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "threshold", "roll=2d6", "target=7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    weights = {o["outcome"]: o["fraction"] for o in data["outcomes"]}
    assert weights == {False: "5/12", True: "7/12"}
    assert data["parameters"]["target"] == 7


def test_odds_with_samples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "total", "roll=d6", "--samples", "600", "--seed", "4"]) == 0
    assert "sampled 600 times (seed 4)" in capsys.readouterr().out


def test_list_and_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "--list"]) == 0
    assert "pool count=6" in capsys.readouterr().out
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dice")
    for name, _ in BUILTIN_RULESETS:
        assert name in out
    assert main(["rulesets", "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "nowhere", "x"], "ruleset='nowhere'"),
        (["odds", "dice", "pool", "need=high"], "need='high'"),
        (["odds", "dice", "pool", "needs"], "name=value"),
        (["odds", "dice", "cannon"], "one of pool, total"),
        (["odds", "dice", "pool", "--samples", "-1"], "--samples"),
        (["odds", "bloodybacks93"], "one of activity"),
    ],
)
def test_errors_are_clear(argv: list[str], message: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "rulesets" in capsys.readouterr().out
