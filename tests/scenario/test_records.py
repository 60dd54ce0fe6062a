"""Records of a battle from a file (issue 30): ``smoothbore battle FILE --record OUT`` keeps
the scenario, its seed (the start state's dice) and the actions in one file; ``replay OUT``
plays it back checking every event; ``replay OUT --to STEP`` gives any earlier state, every
step up to it checked; a record whose scenario does not start its start state is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smoothbore.battle import BattleRecord, play, random_policy
from smoothbore.cli import main
from smoothbore.core.errors import LoadError
from smoothbore.rulesets import get_ruleset
from smoothbore.scenario import load_scenario

VALID = Path(__file__).parent / "valid.toml"
TURN = get_ruleset("bloodybacks93").turn


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("records") / "battle.json"
    assert main(["battle", str(VALID), "--quiet", "--seed", "4", "--record", str(out)]) == 0
    return out


def test_the_record_holds_the_scenario_its_seed_and_the_actions(record_file: Path) -> None:
    data = json.loads(record_file.read_text("utf-8"))
    scenario = load_scenario(VALID)
    assert data["scenario"] == scenario.to_toml()
    assert data["start"]["dice"]["seed"] == 4
    record = BattleRecord.from_json(record_file.read_text("utf-8"), TURN)
    assert record.scenario == scenario.to_toml()
    assert record.start == scenario.start(4)
    assert len(record.actions) == len(data["steps"]) > 0


def test_replay_plays_it_back_checking_every_event(record_file: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--quiet"]) == 0
    assert "every step gave the events recorded" in capsys.readouterr().out


def test_replay_to_a_step_gives_that_earlier_state(record_file: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    record = BattleRecord.from_json(record_file.read_text("utf-8"), TURN)
    for step in (0, 1, 17, len(record.actions)):
        out = tmp_path / f"state-{step}.json"
        assert main(["replay", str(record_file), "--to", str(step), "--state", str(out)]) == 0
        again = play(TURN, load_scenario(VALID).start(4), random_policy(4), max_steps=step)
        assert out.read_text("utf-8") == again.end.to_json() + "\n"
    assert f"the state after step 17 of {len(record.actions)}" in capsys.readouterr().out
    assert main(["replay", str(record_file), "--to", str(len(record.actions) + 1)]) == 2
    assert "--to" in capsys.readouterr().err


def test_a_record_whose_scenario_starts_another_battle_is_refused(record_file: Path) -> None:
    data = json.loads(record_file.read_text("utf-8"))
    data["scenario"] = data["scenario"].replace("quality = 4", "quality = 5", 1)
    with pytest.raises(LoadError, match=r"\$\.scenario"):
        BattleRecord.from_json(json.dumps(data), TURN)
    data["scenario"] = 7
    with pytest.raises(LoadError, match="the text of a scenario file"):
        BattleRecord.from_json(json.dumps(data), TURN)
