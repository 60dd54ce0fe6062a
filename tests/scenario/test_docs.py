"""``docs/scenarios.md`` is a tutorial that works (issue 30): its TOML blocks, put together
in order, are the file it writes from empty; its Python blocks, run in order beside that
file, load it, simulate it and read the win rates, and show the faults of a spoilt copy.
The JSON Schema shipped in the package accepts every shipped battle and refuses a file with
an unknown key."""

from __future__ import annotations

import contextlib
import io
import os
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from smoothbore.scenario import packaged_battles, schema

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_tutorial_runs_and_reads_the_win_rates(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    toml_blocks, python_blocks = _blocks("toml"), _blocks("python")
    assert len(toml_blocks) == 4 and len(python_blocks) == 3
    (tmp_path / "two-brigades.toml").write_text("\n".join(toml_blocks), "utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    names: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        for block in python_blocks:
            exec(compile(block, str(DOC), "exec"), names)
    printed = out.getvalue()
    assert "Two brigades at the mill - 4 units, turn 1" in printed
    assert re.search(r"^british: \d+% \(95% interval \d+% to \d+%\)$", printed, re.M)
    assert re.search(r"^american: \d+% \(95% interval", printed, re.M)
    result = names["result"]
    assert len(result.runs) == 20  # type: ignore[attr-defined]
    # the fault the page quotes is the one printed, line and all
    assert ("broken.toml:66: side[\"american\"].unit[\"a1\"].troops = 'continentl' is "
            "invalid: allowed is one of regular, continental, militia, loyalist, indian, "
            "other (did you mean 'continental'?)") in printed
    assert ("broken.toml:39: side[\"british\"].unit[\"b1\"].quality = 7 is invalid: "
            "allowed is 1 to 5") in printed
    assert os.path.exists("two-brigades.toml")


def test_the_schema_accepts_every_shipped_battle_and_refuses_an_unknown_key() -> None:
    checker = jsonschema.Draft202012Validator(schema())
    for book, name, scenario in packaged_battles():
        document = tomllib.loads(scenario.to_toml())
        assert not list(checker.iter_errors(document)), (book, name)
    spoilt = tomllib.loads(packaged_battles()[0][2].to_toml())
    spoilt["tittle"] = "x"
    assert list(checker.iter_errors(spoilt))
