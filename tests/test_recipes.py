"""The recipes page runs: every Python block of docs/recipes.md, in order, in one namespace,
and what it prints agrees with the library (the simulation runs fewer battles here: 10,000
take minutes, and the test checks it against its own count)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

RECIPES = Path(__file__).resolve().parent.parent / "docs" / "recipes.md"
RUNS_IN_TESTS = 200


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", RECIPES.read_text(), re.S)


def test_the_recipes_run_and_answer_the_three_questions(
        capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _blocks()
    assert len(blocks) == 5
    assert "runs=10_000" in blocks[4]
    blocks[4] = blocks[4].replace("runs=10_000", f"runs={RUNS_IN_TESTS}")
    namespace: dict[str, object] = {}
    for index, block in enumerate(blocks):
        exec(compile(block, f"{RECIPES}:block {index + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    ends = namespace["ends"]
    won = ends.probability(  # type: ignore[attr-defined]
        lambda end: str(end).startswith(("chargers won", "defenders did not")))
    assert isinstance(won, Fraction) and 0 < won < 1
    assert f"the chargers win {float(won):.2%}" in out
    table = namespace["by_quality"].table()  # type: ignore[attr-defined]
    assert table.splitlines()[0].split()[1:] == ["quality", "2", "quality", "3", "quality",
                                                  "4", "quality", "5"]
    state = namespace["state"]
    assert state.turn >= 1  # type: ignore[attr-defined]
    played = namespace["played"]
    assert played.outcome is not None  # type: ignore[attr-defined]
    result = namespace["result"]
    assert len(result.runs) == RUNS_IN_TESTS  # type: ignore[attr-defined]
    assert f"British win {result.wins('British').value:.1%} (95% interval" in out  # type: ignore[attr-defined]
