"""Everywhere a battle is named, a file works (issue 30): ``smoothbore battle FILE``,
``simulate FILE``, ``check FILE`` (with the deployment drawn as SVG) and ``scenarios``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smoothbore.cli import main
from smoothbore.scenario import load_scenario

VALID = Path(__file__).parent / "valid.toml"


def test_check_describes_the_file_and_draws_its_deployment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "deployment.svg"
    assert main(["check", str(VALID), "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "a bloodybacks93 scenario, 'Two brigades at the mill' (1780): 2 v 2 units on " \
           '48" x 36", checked' in out
    drawing = svg.read_text("utf-8")
    assert drawing.startswith("<svg") or "<svg" in drawing[:200]
    for name in ("33rd Foot", "1st Maryland", "Virginia Militia"):
        assert name in drawing


def test_battle_plays_a_file_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", str(VALID), "--quiet", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The battle is over")
    assert "33rd Foot" in out


def test_battle_of_a_file_gives_the_files_battle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", str(VALID), "--json", "--seed", "2", "--turns", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {u["id"] for u in data["state"]["units"]} == {u.id for u in load_scenario(VALID).units}
    assert data["state"]["scenario"]["name"] == "Two brigades at the mill"


def test_simulate_a_file_reads_its_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(VALID), "--runs", "4", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "bloodybacks93" and data["runs"] == 4
    assert [s["side"] for s in data["sides"]] == ["british", "american"]
    assert all(0.0 <= s["wins"]["rate"] <= 1.0 for s in data["sides"])


def test_scenarios_lists_every_shipped_battle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 14
    camden = next(r for r in rows if r["file"] == "camden")
    assert camden == {"book": "bloodybacks93", "file": "camden",
                      "title": "Camden, 16 August 1780", "date": "16 August 1780",
                      "size": '5 v 4 units on 72" x 48"', "sources": camden["sources"]}
    assert main(["scenarios"]) == 0
    assert "Champion Hill" in capsys.readouterr().out


def test_simulate_a_file_names_the_files_battle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(VALID), "--runs", "2", "--seed", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"Bloodybacks!: Two brigades at the mill ({VALID}) played 2 times")


def test_a_scenario_file_loads_from_the_package_top() -> None:
    import smoothbore

    scenario = smoothbore.load_scenario(VALID)
    assert isinstance(scenario, smoothbore.Scenario)
    assert scenario.title == "Two brigades at the mill" and len(scenario.units) == 4
