"""The embedded battles are files (issue 30): each loads, starts exactly as the Python that
made it did (``start_digests.json``: the canonical JSON of each start state, by battle and
seed, taken from the Python battles before they were deleted), and round-trips through
``Scenario.to_toml`` to the very same text."""

from __future__ import annotations

import hashlib
import json
from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.battle import Stop, play, random_policy
from smoothbore.core.errors import InvalidValueError
from smoothbore.rulesets import available_rulesets, get_ruleset
from smoothbore.scenario import Scenario, load_scenario, read_scenario

DIGESTS: dict[str, str] = json.loads(
    (Path(__file__).parent / "start_digests.json").read_text("utf-8"))
BOOKS = ("bloodybacks93", "boltaction_acw", "mckie_acw", "will_awi")
FILES = sorted(
    (book, Path(str(files(f"smoothbore.{book}").joinpath("battles"))) / name)
    for book in BOOKS
    for name in (p.name for p in files(f"smoothbore.{book}").joinpath("battles").iterdir())
    if name.endswith(".toml"))
BATTLES = [(rs.name, name) for rs in available_rulesets() if rs.name in BOOKS
           for name, _ in rs.battles() if f"{rs.name}/{name}/0" in DIGESTS]
NEW = [("bloodybacks93", "camden"), ("boltaction_acw", "maryes-heights"),
       ("mckie_acw", "champion-hill")]
"""The battles added as files (issue 30), which no Python ever made."""


def _digest(state: object) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()  # type: ignore[attr-defined]


def test_every_embedded_battle_is_a_file_and_none_is_missing() -> None:
    # 11 battles with a table, 11 twins measured by the players, 4 seeds each
    assert len(BATTLES) == 22 and len(DIGESTS) == 88
    assert {f"{b}/{n}" for b, n in BATTLES} == {k.rsplit("/", 1)[0] for k in DIGESTS}
    assert len(FILES) == 14
    every = {(rs.name, n) for rs in available_rulesets() if rs.name in BOOKS
             for n, _ in rs.battles()}
    assert every == {*BATTLES, *NEW, *((b, f"{n}-no-table") for b, n in NEW)}
    for book in BOOKS:  # at least two historical actions a book, each with its sources
        assert sum(1 for b, _ in FILES if b == book) >= 2


@pytest.mark.parametrize(("book", "name"), NEW)
def test_a_new_battle_loads_plays_to_its_end_and_round_trips(book: str, name: str) -> None:
    ruleset = get_ruleset(book)
    assert ruleset.turn is not None
    for battle in (name, f"{name}-no-table"):
        start = ruleset.battle(battle)(3)
        played = play(ruleset.turn, start, random_policy(3), max_steps=5000)
        assert played.stop is Stop.OVER, (battle, played.stop)
        assert played.outcome is not None
    path = Path(str(files(f"smoothbore.{book}").joinpath("battles", f"{name}.toml")))
    scenario = load_scenario(path)
    assert scenario.to_toml() == path.read_text("utf-8")
    assert len(scenario.sources) >= 2 and scenario.date


@pytest.mark.parametrize(("book", "name"), BATTLES)
def test_the_file_starts_the_battle_the_python_made(book: str, name: str) -> None:
    make = get_ruleset(book).battle(name)
    for seed in (0, 1, 2, 7):
        assert _digest(make(seed)) == DIGESTS[f"{book}/{name}/{seed}"], (name, seed)


@pytest.mark.parametrize(("book", "path"), FILES, ids=[p.stem for _, p in FILES])
def test_each_file_round_trips_to_the_same_text(book: str, path: Path) -> None:
    text = path.read_text("utf-8")
    scenario = load_scenario(path)
    assert scenario.book == book
    assert scenario.to_toml() == text
    assert read_scenario(scenario.to_toml()) == scenario
    assert scenario.sources and scenario.date  # each names its sources


@settings(max_examples=25, deadline=None)
@given(index=st.integers(0, 100), seed=st.integers(0, 2**32 - 1))
def test_a_battle_written_from_its_start_state_is_its_file(index: int, seed: int) -> None:
    _, path = FILES[index % len(FILES)]
    scenario = load_scenario(path)
    state = scenario.start(seed)
    again = Scenario.from_state(state, date=scenario.date, sources=scenario.sources,
                                setup=scenario.setup)
    assert again.to_toml() == path.read_text("utf-8")
    assert read_scenario(again.to_toml()).start(seed) == state


def test_a_battle_past_its_start_is_not_written_as_a_scenario() -> None:
    ruleset = get_ruleset("bloodybacks93")
    assert ruleset.turn is not None
    start = ruleset.battle("default")(1)
    later = play(ruleset.turn, start, random_policy(1), max_steps=5).end
    with pytest.raises(InvalidValueError, match="a battle at its start"):
        Scenario.from_state(later)
    assert Scenario.from_state(start).start(1) == start
