"""Battle state: units and commanders by id, dice state for replayable steps, JSON."""

from __future__ import annotations

import enum

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import (
    D6,
    BattleState,
    DiceState,
    InvalidValueError,
    SamplingDice,
    Scenario,
    TotalCheck,
)


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
    with pytest.raises(InvalidValueError, match="json"):
        BattleState.from_json("{not json", *TYPES)
    with pytest.raises(InvalidValueError, match="json"):
        BattleState.from_json('{"ruleset": "toy"}', *TYPES)


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
