"""Fuzzing the loaders and the dice parser: mutated valid documents and random JSON never raise
anything outside the library's hierarchy, and whatever loads writes back what it read."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothbore.battle import BattleRecord, play, random_policy
from smoothbore.core import SmoothboreError, parse_dice
from smoothbore.rulesets import get_ruleset

RULESETS = {name: get_ruleset(name) for name in ("bloodybacks93", "will_awi")}
STATES = {
    name: json.loads(
        play(r.turn, r.example(5), random_policy(5), max_steps=30).end.to_json()  # type: ignore[arg-type]
    )
    for name, r in RULESETS.items()
}
RECORD = json.loads(
    BattleRecord.of(
        "will_awi", play(RULESETS["will_awi"].turn, RULESETS["will_awi"].example(1),  # type: ignore[arg-type]
                         random_policy(1), max_steps=12)
    ).to_json()
)
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
           | st.sampled_from(["", "b1", "a1", "British", "A", "open", "front", "line"]))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


def _places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data``."""
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_places(value, (*path, key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out.extend(_places(value, (*path, index)))
    return out


def _mutate(data: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    data = json.loads(json.dumps(data))
    if not path:
        return value
    *parents, last = path
    node = data
    for part in parents:
        node = node[part]
    if how == "replace":
        node[last] = value
    elif how == "delete":
        del node[last]
    elif how == "add" and isinstance(node[last], dict):
        node[last]["zz_extra"] = value
    elif how == "empty":
        node[last] = type(node[last])() if isinstance(node[last], list | dict) else ""
    elif how == "duplicate" and isinstance(node[last], list):
        node[last] = node[last] + node[last][:1]
    return data


def _load_or_refuse(name: str, text: str) -> None:
    turn: Any = RULESETS[name].turn
    try:
        state = turn.load(text)
    except SmoothboreError:
        return
    again = state.to_json()
    assert turn.load(again) == state
    assert turn.load(again).to_json() == again


@FUZZ
@given(st.sampled_from(sorted(RULESETS)), st.data(),
       st.sampled_from(["replace", "delete", "add", "empty", "duplicate"]), json_values)
def test_mutated_states_load_or_are_refused(name: str, data: st.DataObject, how: str,
                                            value: Any) -> None:
    places = _places(STATES[name])
    path = data.draw(st.sampled_from(places))
    _load_or_refuse(name, json.dumps(_mutate(STATES[name], path, how, value)))


@FUZZ
@given(st.sampled_from(sorted(RULESETS)), st.integers(0, 10**6), st.text(max_size=3))
def test_cut_and_spliced_text(name: str, cut: int, splice: str) -> None:
    text = json.dumps(STATES[name])
    at = cut % (len(text) + 1)
    _load_or_refuse(name, text[:at] + splice + text[at + len(splice):])


@FUZZ
@given(st.sampled_from(sorted(RULESETS)), json_values)
def test_random_json_is_refused_cleanly(name: str, value: Any) -> None:
    _load_or_refuse(name, json.dumps(value))


@FUZZ
@given(st.data(), st.sampled_from(["replace", "delete", "add", "empty", "duplicate"]),
       json_values)
def test_mutated_records_load_or_are_refused(data: st.DataObject, how: str, value: Any) -> None:
    turn: Any = RULESETS["will_awi"].turn
    path = data.draw(st.sampled_from(_places(RECORD)))
    text = json.dumps(_mutate(RECORD, path, how, value))
    try:
        record = BattleRecord.from_json(text, turn)
    except SmoothboreError:
        return
    assert BattleRecord.from_json(record.to_json(), turn) == record
    with contextlib.suppress(SmoothboreError):
        record.replay(turn)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dDaAvV+- ²x", max_size=16) | st.text(max_size=12))
def test_dice_parser_only_raises_library_errors(text: str) -> None:
    try:
        dice, modifier = parse_dice(text)
    except SmoothboreError:
        return
    assert 1 <= len(dice) <= 100 and abs(modifier) <= 10_000
    assert all(d.sides <= 1000 for d in dice)


# --- the on-demand fuzz target over loaded states (fuzz/fuzz_loaded_states.py) ----------
def _target() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "fuzz" / "fuzz_loaded_states.py"
    spec = importlib.util.spec_from_file_location("fuzz_loaded_states", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_loaded_state_target_tells_refused_from_played() -> None:
    """The issue 28 fuzz target's harness on fixed cases: a state with a harmless change
    plays 25 steps and round-trips; a lone surrogate, ``turn=10**20`` and a river 1e308 wide
    are refused (issue 28, "Loaded states and values"); a failure is recorded, not raised.
    The campaign itself runs on demand: ``python fuzz/fuzz_loaded_states.py --minutes 10``."""
    fuzz = _target()
    (start, _later) = fuzz.saved_states(["will_awi"])
    figures = fuzz.Figures()

    def check(path: tuple[Any, ...], value: Any) -> str:
        result: str = fuzz.check_one(start, path, "replace", value, figures, hang=60.0)
        return result

    assert check(("dice", "seed"), 7) == "played"
    assert check(("turn",), 10**20) == "refused"
    assert check(("units", 0, "name"), "\ud800") == "refused"
    features = start.data["extra"]["table"]["features"]
    river = next(i for i, f in enumerate(features) if f["line"])
    assert check(("extra", "table", "features", river, "width"), 1e308) == "refused"
    assert (figures.tried["will_awi"], figures.refused["will_awi"],
            figures.played["will_awi"]) == (4, 3, 1)
    # a failure (here: an example past its time) is recorded with its place, not raised
    assert fuzz.check_one(start, ("turn",), "replace", 2, figures, hang=1e-4) == "failed"
    ((failure, count),) = figures.failures.values()
    assert (failure.book, failure.path, failure.stage, count) == ("will_awi", "$.turn", "load", 1)
    assert failure.error.startswith("HangError")
