"""The hostile catalogue (issue 30): every file of ``hostile/`` (made by ``make_hostile.py``
from ``valid.toml``) is refused before anything is played, with a ``ScenarioError`` whose
faults name the file, the line, the field as written and what is allowed; at the command
line ``smoothbore check FILE`` and ``smoothbore battle FILE`` exit with status 2 and no
traceback. Bounded: a file over ``MAX_BYTES`` is refused from its size, before it is read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smoothbore.cli import main
from smoothbore.scenario import MAX_BYTES, ScenarioError, load_scenario, read_scenario

HERE = Path(__file__).parent
HOSTILE = sorted((HERE / "hostile").glob("*.toml"))


def _expected(path: Path) -> tuple[str, str, int | None]:
    head = path.read_text("utf-8").splitlines()[:3]
    field = re.sub(r"^# field: ?", "", head[0])
    allowed = re.sub(r"^# allowed: ?", "", head[1])
    line = re.sub(r"^# line: ?", "", head[2])
    return field, allowed, None if line == "-" else int(line)


def test_the_catalogue_holds_at_least_forty_files_and_the_base_is_valid() -> None:
    assert len(HOSTILE) >= 40
    scenario = load_scenario(HERE / "valid.toml")
    assert [u.id for u in scenario.units] == ["b1", "b2", "a1", "a2"]


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_a_hostile_file_is_refused_naming_the_fault(path: Path) -> None:
    field, allowed, line = _expected(path)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    faults = caught.value.faults
    assert all(f.file == str(path) for f in faults)
    matching = [f for f in faults if field in f.field and allowed in f.allowed]
    assert matching, (field, allowed, [str(f) for f in faults])
    if line is not None:
        assert any(f.line == line for f in matching), [str(f) for f in faults]
    assert str(path) in str(caught.value)


def test_every_fault_is_named_at_once() -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(HERE / "hostile" / "many-faults-at-once.toml")
    fields = [f.field for f in caught.value.faults]
    assert 'side["british"].unit["b1"].quality' in fields
    assert 'side["american"].unit["a1"].troops' in fields
    assert "table.width" in fields


@pytest.mark.parametrize("path", HOSTILE[::4], ids=[p.stem for p in HOSTILE[::4]])
def test_the_command_line_exits_2_without_a_traceback(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(path)]) == 2
    assert main(["battle", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(path) in err


def test_a_truly_empty_file_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_bytes(b"")
    with pytest.raises(ScenarioError, match="an empty file"):
        load_scenario(empty)


def test_a_50_mb_file_is_refused_from_its_size_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as out:
        out.write(b'book = "bloodybacks93"\n')
        out.write(b"# " + b"x" * (50 * 1024 * 1024) + b"\n")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(big)
    assert caught.value.faults[0].allowed == f"a scenario file of at most {MAX_BYTES:,} bytes"
    assert "52,428,8" in str(caught.value.faults[0].value)
    with pytest.raises(ScenarioError, match="at most 1,000,000 bytes"):
        read_scenario("#" * (MAX_BYTES + 1))


def test_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "latin.toml"
    bad.write_bytes(b'title = "caf\xe9"\n')
    with pytest.raises(ScenarioError, match="UTF-8"):
        load_scenario(bad)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="a file that can be read"):
        load_scenario(tmp_path / "nowhere.toml")


def test_deep_nesting_is_refused_before_parsing() -> None:
    text = 'book = "bloodybacks93"\nx = ' + "[" * 100_000 + "]" * 100_000 + "\n"
    with pytest.raises(ScenarioError, match="nesting"):
        read_scenario(text)
