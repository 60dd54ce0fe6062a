"""Battle state: units and commanders by id, dice state for replayable steps, JSON."""

from __future__ import annotations

import enum
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import (
    D6,
    BattleState,
    DiceState,
    InvalidValueError,
    LoadError,
    SamplingDice,
    Scenario,
    TotalCheck,
)
from smoothbore.core.state import MAX_DEPTH, MAX_JSON_CHARS, evolved
from smoothbore.core.validate import refers_to


class Drill(enum.Enum):
    LINE = "line"
    COLUMN = "column"


@attrs.frozen
class ToyUnit:
    id: str
    name: str
    side: str
    drill: Drill = Drill.LINE
    hits: int = 0
    tags: frozenset[str] = frozenset()
    leader: str | None = None


@attrs.frozen
class ToyCommander:
    id: str
    name: str
    side: str


@attrs.frozen
class ToyExtra:
    deck: tuple[str, ...] = ()


@attrs.frozen
class ToyOptions:
    bayonets: bool = True


Toy = BattleState[ToyUnit, ToyCommander, ToyExtra, ToyOptions]
TYPES = (ToyUnit, ToyCommander, ToyExtra, ToyOptions)


def make_state(seed: int = 1, units: int = 0) -> Toy:
    extra = tuple(ToyUnit(f"x{i}", f"company {i}", "crown") for i in range(units))
    return BattleState(
        "toy",
        ("crown", "congress"),
        (ToyUnit("u1", "23rd Foot", "crown"), ToyUnit("u2", "1st Maryland", "congress"), *extra),
        (ToyCommander("c1", "Webster", "crown"),),
        ToyExtra(("A", "2")),
        ToyOptions(),
        DiceState(seed),
        scenario=Scenario("Camden", turn_limit=6),
    )


def test_lookup_and_replace_by_id() -> None:
    state = make_state()
    assert state.unit("u2").name == "1st Maryland"
    assert state.commander("c1").name == "Webster"
    hurt = state.with_units(attrs.evolve(state.unit("u1"), hits=2))
    assert hurt.unit("u1").hits == 2
    assert state.unit("u1").hits == 0
    assert [u.id for u in hurt.units_of("crown")] == ["u1"]
    with pytest.raises(InvalidValueError, match="unit='u9'.*u1, u2"):
        state.unit("u9")
    with pytest.raises(InvalidValueError, match="unit"):
        state.with_units(ToyUnit("u9", "ghost", "crown"))


def test_validation_names_fields() -> None:
    with pytest.raises(InvalidValueError, match=r"units=\['u'\].*unique ids"):
        BattleState("toy", ("a",), (ToyUnit("u", "x", "a"), ToyUnit("u", "y", "a")), (),
                    ToyExtra(), ToyOptions(), DiceState(0))
    with pytest.raises(InvalidValueError, match="ToyUnit.side='b'"):
        BattleState("toy", ("a",), (ToyUnit("u", "x", "b"),), (), ToyExtra(), ToyOptions(),
                    DiceState(0))
    with pytest.raises(InvalidValueError, match="DiceState.seed"):
        DiceState(-1)
    with pytest.raises(InvalidValueError, match="Scenario.turn_limit=0"):
        Scenario(turn_limit=0)


def test_many_units_are_checked_in_one_pass() -> None:
    big = make_state(units=3000)
    assert len(big.units) == 3002
    with pytest.raises(InvalidValueError, match="x7"):
        attrs.evolve(big, units=(*big.units, ToyUnit("x7", "again", "crown")))


def test_dice_state_replays_each_step() -> None:
    dice_state = DiceState(42, 3)
    check = TotalCheck((D6,) * 5)
    first = [dice_state.dice().roll(check, reason="r", rule="q") for _ in range(3)]
    again = [dice_state.dice().roll(check, reason="r", rule="q") for _ in range(3)]
    assert first == again
    assert dice_state.advanced() == DiceState(42, 4)
    next_step = [dice_state.advanced().dice().roll(check, reason="r", rule="q") for _ in range(3)]
    assert next_step != first


def test_step_dice_are_a_keyed_stream_independent_of_numpy_state() -> None:
    """The step's faces depend on (seed, counter) only: the same key gives the same faces,
    every face of a d6 comes up about equally often, and making the dice rolls nothing."""
    check = TotalCheck((D6,))
    faces = [SamplingDice.keyed(9, 1).roll(check, reason="r", rule="q") for _ in range(2)]
    assert faces[0] == faces[1]
    dice = DiceState(9, 1).dice()
    rolls = [dice.roll(check, reason="r", rule="q") for _ in range(6000)]
    counts = [rolls.count(face) for face in range(1, 7)]
    assert all(900 < n < 1100 for n in counts), counts
    assert len(dice.records) == 6000


@given(
    st.integers(0, 2**32), st.sampled_from(list(Drill)), st.integers(0, 3),
    st.frozensets(st.text(max_size=3), max_size=3), st.none() | st.text(max_size=4),
)
def test_json_round_trips(seed: int, drill: Drill, hits: int, tags: frozenset[str],
                          leader: str | None) -> None:
    state = make_state(seed).with_units(ToyUnit("u1", "23rd Foot", "crown", drill, hits, tags,
                                                leader))
    text = state.to_json()
    assert BattleState.from_json(text, *TYPES) == state


def test_from_json_rejects_garbage() -> None:
    with pytest.raises(LoadError, match=r"state='line 1 column 2'.*valid JSON"):
        BattleState.from_json("{not json", *TYPES)
    with pytest.raises(LoadError, match=r"\$.schema_version='\(missing\)'"):
        BattleState.from_json('{"ruleset": "toy"}', *TYPES)
    with pytest.raises(LoadError, match=r"state='NoneType'.*JSON text"):
        BattleState.from_json(None, *TYPES)  # type: ignore[arg-type]


def _saved(**changes: object) -> str:
    """The saved text of ``make_state`` with some of its JSON data changed: a key path of
    names separated by dots (numbers index arrays), None to delete."""
    data = json.loads(make_state().to_json())
    for key, value in changes.items():
        *parents, last = key.split("__")
        node = data
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        if value is _DELETE:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return json.dumps(data)


_DELETE = object()


@pytest.mark.parametrize(
    ("changes", "path", "shown"),
    [
        ({"turn": "3"}, r"\$.turn", "'3'"),
        ({"turn": 2.7}, r"\$.turn", "2.7"),
        ({"turn": True}, r"\$.turn", "True"),
        ({"dice__seed": 7.9}, r"\$.dice.seed", "7.9"),
        ({"units__0__id": 5}, r"\$.units\[0\].id", "5"),
        ({"units__0__tags": "b1"}, r"\$.units\[0\].tags", "'b1'"),
        ({"units__0__tags": ["b", "b"]}, r"\$.units\[0\].tags", r"\['b'\]"),
        ({"units__0__drill": "square"}, r"\$.units\[0\].drill", "'square'"),
        ({"units__0__hits": None}, r"\$.units\[0\].hits", "None"),
        ({"units__0__colour": "red"}, r"\$.units\[0\].colour", "an unknown field"),
        ({"surprise": 1}, r"\$.surprise", "an unknown field"),
        ({"schema_version": 2}, r"\$.schema_version", "2"),
        ({"schema_version": "1"}, r"\$.schema_version", "'1'"),
        ({"units__0__id": _DELETE}, r"\$.units\[0\].id", "missing"),
        ({"sides": ["crown", "crown"]}, r"sides", r"\('crown', 'crown'\)"),
        ({"units__1__side": "france"}, r"side", "'france'"),
        ({"turn": 0}, r"turn", "0"),
        ({"extra": [1]}, r"\$.extra", "an array"),
        ({"scenario__turn_limit": -1}, r"\$.scenario.turn_limit", "-1"),
    ],
)
def test_loader_refuses_coercion_unknown_fields_and_names_the_path(
    changes: dict[str, object], path: str, shown: str
) -> None:
    with pytest.raises(LoadError, match=path + "=.*" + shown) as caught:
        BattleState.from_json(_saved(**changes), *TYPES)
    assert isinstance(caught.value, InvalidValueError)
    assert "While structuring" not in str(caught.value)


def test_loader_refuses_nan_huge_nested_and_duplicate_keys() -> None:
    text = make_state().to_json()
    with pytest.raises(LoadError, match="NaN"):
        BattleState.from_json(text.replace('"hits": 0', '"hits": NaN'), *TYPES)
    with pytest.raises(LoadError, match="finite"):
        BattleState.from_json(text.replace('"hits": 0', '"hits": 1e999'), *TYPES)
    with pytest.raises(LoadError, match="each key once"):
        BattleState.from_json(text.replace('"hits": 0', '"hits": 0, "hits": 1'), *TYPES)
    with pytest.raises(LoadError, match="levels"):
        BattleState.from_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), *TYPES)
    with pytest.raises(LoadError, match="levels"):
        BattleState.from_json("[" * 100_000 + "]" * 100_000, *TYPES)
    with pytest.raises(LoadError, match="characters"):
        BattleState.from_json(" " * (MAX_JSON_CHARS + 1), *TYPES)
    with pytest.raises(LoadError, match="numbers Python reads"):
        BattleState.from_json("1" * 5000, *TYPES)
    with pytest.raises(LoadError, match="UTF-8"):
        BattleState.from_json(b"\xff", *TYPES)  # type: ignore[arg-type]
    assert BattleState.from_json(text.encode(), *TYPES) == make_state()  # type: ignore[arg-type]


def test_loader_checks_ruleset_and_phase_when_given() -> None:
    text = make_state().to_json()
    assert BattleState.from_json(text, *TYPES, ruleset="toy", phases=("",)) == make_state()
    with pytest.raises(LoadError, match=r"\$.ruleset='toy'.*'other'"):
        BattleState.from_json(text, *TYPES, ruleset="other")
    with pytest.raises(LoadError, match=r"\$.phase=''.*'fire', 'rally'"):
        BattleState.from_json(text, *TYPES, phases=("fire", "rally"))


@attrs.frozen
class LedUnit:
    id: str
    name: str
    side: str
    leader: str | None = attrs.field(default=None, metadata=refers_to("commanders"))
    escort: frozenset[str] = attrs.field(default=frozenset(), metadata=refers_to("units"))
    facing: str = attrs.field(default="", metadata=refers_to("sides", blank=True))


def _led(**fields: object) -> BattleState[LedUnit, ToyCommander, ToyExtra, ToyOptions]:
    return BattleState("toy", ("crown", "congress"),
                       (LedUnit("u1", "x", "crown", **fields), LedUnit("u2", "y", "congress")),  # type: ignore[arg-type]
                       (ToyCommander("c1", "Webster", "crown"),), ToyExtra(), ToyOptions(),
                       DiceState(1))


def test_references_are_checked_on_load() -> None:
    led_types = (LedUnit, ToyCommander, ToyExtra, ToyOptions)
    good = _led(leader="c1", escort=frozenset({"u2"}), facing="congress")
    assert BattleState.from_json(good.to_json(), *led_types) == good
    assert BattleState.from_json(_led().to_json(), *led_types) == _led()
    for fields, path, name in (
        ({"leader": "c9"}, r"\$.units\[0\].leader", "'c9'.*c1"),
        ({"escort": frozenset({"u2", "u7"})}, r"\$.units\[0\].escort\[1\]", "'u7'.*u1, u2"),
        ({"facing": "france"}, r"\$.units\[0\].facing", "'france'.*or '' for none"),
    ):
        broken = _led(**fields)
        with pytest.raises(LoadError, match=path + "=" + name):
            BattleState.from_json(broken.to_json(), *led_types)
        with pytest.raises(LoadError, match=path):
            broken.check_references()
    good.check_references()


def test_to_json_is_canonical_whatever_the_hash_seed() -> None:
    """The same state writes the same text in processes of different hash seeds (sets
    sorted)."""
    script = (
        "from tests.core.test_state import make_state, ToyUnit\n"
        "s = make_state().with_units(ToyUnit('u1', 'a', 'crown', tags=frozenset("
        "'abcdefghij')))\nprint(s.to_json())"
    )
    texts = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)},
                       cwd=Path(__file__).parents[2]).stdout
        for seed in range(4)
    }
    assert len(texts) == 1
    assert '"tags": ["a", "b", "c"' in texts.pop()


def test_battle_state_keeps_tuples_and_refuses_bad_sides_and_ids() -> None:
    state = make_state()
    listed = BattleState("toy", ["crown", "congress"], list(state.units),  # type: ignore[arg-type]
                         list(state.commanders), state.extra, state.options, state.dice)  # type: ignore[arg-type]
    assert isinstance(listed.units, tuple) and hash(listed) == hash(attrs.evolve(listed))
    with pytest.raises(InvalidValueError, match="BattleState.sides"):
        attrs.evolve(state, sides=("crown", "crown"))
    with pytest.raises(InvalidValueError, match="BattleState.sides"):
        attrs.evolve(state, sides=())
    with pytest.raises(InvalidValueError, match="BattleState"):
        attrs.evolve(state, units="u1")
    with pytest.raises(InvalidValueError, match="ToyUnit.id=None"):
        attrs.evolve(state, units=(ToyUnit(None, "x", "crown"),))  # type: ignore[arg-type]


def test_to_json_refuses_nan() -> None:
    @attrs.frozen
    class Loose:
        bayonets: float = float("nan")

    state = attrs.evolve(make_state(), options=Loose())
    with pytest.raises(InvalidValueError, match="finite"):
        state.to_json()


@given(st.integers(0, 3), st.sampled_from(list(Drill)))
def test_changes_never_mutate_the_original(hits: int, drill: Drill) -> None:
    state = make_state()
    before = state.to_json()
    changed = state.with_units(attrs.evolve(state.unit("u2"), hits=hits, drill=drill))
    changed = changed.with_commanders(attrs.evolve(state.commander("c1"), name="Tarleton"))
    assert state.to_json() == before
    assert changed.unit("u2").hits == hits
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn = 2  # type: ignore[misc]


def test_replace_changes_only_what_needs_no_second_look_at_the_army() -> None:
    state = make_state()
    later = state.replace(turn=3, phase="fire", extra=ToyExtra(("K",)))
    assert (later.turn, later.phase, later.extra, later.units) == (3, "fire", ToyExtra(("K",)),
                                                                    state.units)
    assert state.turn == 1 and state.extra == ToyExtra(("A", "2"))
    assert later.with_extra(deck=()).extra == ToyExtra(())
    with pytest.raises(InvalidValueError, match="BattleState.turn=0"):
        state.replace(turn=0)
    with pytest.raises(InvalidValueError, match=r"BattleState.replace=\['units'\]"):
        state.replace(units=())


def test_with_units_checks_the_new_units_and_keeps_the_rest() -> None:
    state = make_state(units=50)
    moved = state.with_units(attrs.evolve(state.unit("x7"), hits=3))
    assert moved.unit("x7").hits == 3
    assert [u.id for u in moved.units] == [u.id for u in state.units]
    assert moved.units[3:] == state.units[3:] or moved.unit("x9") is state.unit("x9")
    with pytest.raises(InvalidValueError, match="ToyUnit.side='france'"):
        state.with_units(ToyUnit("x7", "turncoats", "france"))
    with pytest.raises(InvalidValueError, match="ToyCommander.side='france'"):
        state.with_commanders(ToyCommander("c1", "Lafayette", "france"))


def test_a_derived_answer_is_worked_out_once_per_state_and_never_carried_over() -> None:
    asked: list[Toy] = []

    def hits(state: Toy) -> int:
        asked.append(state)
        return sum(u.hits for u in state.units)

    state = make_state()
    assert state.derived(hits) == 0
    assert state.derived(hits) == 0
    assert asked == [state]
    hit = attrs.evolve(state.units[0], hits=2)
    changed = [state.with_units(hit), state.replace(turn=2), attrs.evolve(state, turn=3),
               pickle.loads(pickle.dumps(state))]
    assert [s.derived(hits) for s in changed] == [2, 0, 0, 0]
    assert len(asked) == 5  # each new state asked afresh, the pickled copy too
    assert changed[3] == state and hash(changed[3]) == hash(state)
    assert state.to_json() == make_state().to_json()  # what is derived is never saved


@attrs.frozen
class Checked:
    hits: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen
class Hidden:
    _secret: int = 0


@given(st.integers(0, 9), st.frozensets(st.sampled_from("ABC")), st.sampled_from(Drill))
def test_evolved_is_attrs_evolve(hits: int, tags: frozenset[str], drill: Drill) -> None:
    unit = ToyUnit("u1", "23rd Foot", "crown")
    changes = {"hits": hits, "tags": tags, "drill": drill}
    assert evolved(unit, changes) == attrs.evolve(unit, **changes)  # type: ignore[misc]
    assert unit == ToyUnit("u1", "23rd Foot", "crown")  # never mutated


def test_evolved_runs_validators_and_names_unknown_fields() -> None:
    with pytest.raises(ValueError):
        evolved(Checked(), {"hits": -1})  # a class with validators goes through attrs.evolve
    assert evolved(Hidden(), {"secret": 3}) == Hidden(3)  # aliased fields too
    with pytest.raises(InvalidValueError) as caught:
        evolved(ToyExtra(), {"dek": ("A",)})
    assert caught.value.field == "ToyExtra field" and caught.value.value == "dek"
    assert "deck" in caught.value.allowed
    state = make_state()
    assert state.with_extra(deck=("K",)).extra == ToyExtra(("K",))


# --- issue 28: loaded states and values (core) -------------------------------------------
def _load(text: str) -> Toy:
    return BattleState.from_json(text, *TYPES)


@pytest.mark.parametrize("where", ["name", "key"])
def test_lone_surrogate_in_a_loaded_state_is_refused_with_its_path(where: str) -> None:
    """Issue 28, "Text": a lone surrogate in a name loaded, then narration (and to_json to
    UTF-8) failed. ``read_json`` refuses it, naming the path, as a record's loader does."""
    text = make_state().to_json()
    if where == "name":
        bad = text.replace('"23rd Foot"', '"23rd \\ud800Foot"')
        with pytest.raises(LoadError, match=r"\$\.units\[0\]\.name=.*no lone surrogate"):
            _load(bad)
    else:
        bad = text.replace('"bayonets"', '"bay\\udc80onets"')
        with pytest.raises(LoadError, match=r"\$\.options \(a key\).*no lone surrogate"):
            _load(bad)
    # written out as real characters (not escapes) in a str, too
    raw = text.replace("23rd Foot", "23rd \ud800Foot")
    with pytest.raises(LoadError, match=r"\$\.units\[0\]\.name"):
        _load(raw)
    # a surrogate pair escaped in JSON is one real character, and loads
    fine = text.replace('"23rd Foot"', '"23rd \\ud83c\\udff4Foot"')
    assert _load(fine).unit("u1").name == "23rd \U0001f3f4Foot"


@attrs.frozen
class ReachExtra:
    reach: float = 0.0
    marks: tuple[float, ...] = ()


def test_to_json_is_canonical_whatever_the_float_was_made_of() -> None:
    """Issue 28, "Loaded states and values": a table built with ``16`` wrote ``16``, then
    ``16.0`` once loaded: the same state, two texts (and two digests). A whole float is
    written as an integer, so the text is the same however the state was made."""
    def state(reach: float, marks: tuple[float, ...]) -> BattleState[
            ToyUnit, ToyCommander, ReachExtra, ToyOptions]:
        return attrs.evolve(make_state(), extra=ReachExtra(reach, marks))  # type: ignore[arg-type]

    types = (ToyUnit, ToyCommander, ReachExtra, ToyOptions)
    made_of_ints = state(16, (3, -0.0, 2.5))
    made_of_floats = state(16.0, (3.0, 0.0, 2.5))
    assert made_of_ints == made_of_floats
    text = made_of_ints.to_json()
    assert text == made_of_floats.to_json()
    assert '"reach": 16}' in text and "[3, 0, 2.5]" in text
    loaded = BattleState.from_json(text, *types)
    assert loaded == made_of_ints
    assert isinstance(loaded.extra.reach, float)
    assert loaded.to_json() == text
    # beyond 2**53 a float keeps its own notation (an integer there may not be one float)
    assert '"reach": 1e+20' in state(1e20, ()).to_json()
    assert BattleState.from_json(state(1e20, ()).to_json(), *types).extra.reach == 1e20


@pytest.mark.parametrize(("field", "value", "path"), [
    ("turn", 10**20, r"\$\.turn=100000000000000000000.*1 to 10000"),
    ("turn", 10_001, r"\$\.turn=10001"),
    ("seed", 2**128, r"\$\.dice\.seed="),
    ("counter", 10**18, r"\$\.dice\.counter="),
    ("turn_limit", 10**20, r"\$\.scenario\.turn_limit="),
])
def test_core_state_fields_are_bounded(field: str, value: int, path: str) -> None:
    """Issue 28, "Loaded states and values": ``turn=10**20`` was loaded and played on. The
    core's own numbers are bounded (MAX_TURN, MAX_SEED, MAX_COUNTER), on load by path and
    when a state is made or replaced."""
    data = json.loads(make_state().to_json())
    holder = {"turn": data, "seed": data["dice"], "counter": data["dice"],
              "turn_limit": data["scenario"]}[field]
    holder[field] = value
    with pytest.raises(LoadError, match=path):
        _load(json.dumps(data))
    with pytest.raises(InvalidValueError):
        if field == "turn":
            make_state().replace(turn=value)
        elif field == "turn_limit":
            Scenario(turn_limit=value)
        else:
            DiceState(**{"seed": 1, field: value})
    # the bounds themselves are allowed
    from smoothbore.core.state import MAX_COUNTER, MAX_SEED, MAX_TURN

    assert make_state().replace(turn=MAX_TURN).turn == MAX_TURN
    assert DiceState(MAX_SEED, MAX_COUNTER).counter == MAX_COUNTER
