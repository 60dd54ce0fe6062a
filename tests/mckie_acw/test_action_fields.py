"""Every field of a McKie ACW action and of the facts it carries is checked where the value is
made (issue 28, "Loaded states and values"): a bad value of each kind (``'no'`` for a bool, a
name for an enum, a float or a bool for an int, NaN for a number, a number for an id) is
refused with ``Class.field`` named, so ``step`` never meets a raw exception and never stores a
value ``to_json`` refuses; names that name nobody are refused by ``step`` with a library
error, the state unchanged. Rules: the field's own rule (Battle period steps 1-8, Generalship,
Firing procedure, Morale)."""

from __future__ import annotations

import contextlib
import enum
import math
import random
import types
import typing
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError, SmoothboreError
from smoothbore.mckie_acw import TURN, example_battle
from smoothbore.mckie_acw.actions import Action
from smoothbore.mckie_acw.firing import FireFacts
from smoothbore.mckie_acw.morale import MoraleFacts
from smoothbore.mckie_acw.situations import ChargeFacts
from smoothbore.mckie_acw.state import Charge, Contact
from smoothbore.mckie_acw.units import Commander, Order, Unit

CLASSES: tuple[type, ...] = (*typing.get_args(Action), FireFacts, MoraleFacts, ChargeFacts,
                             Charge, Contact, Order, Commander, Unit)
_VALID: dict[str, Any] = {"arm": "foot", "weapon": "muzzle-loading-rifle"}


def _valid(hint: Any, name: str) -> Any:
    """A value of type ``hint`` that the field accepts."""
    if name in _VALID:
        return next(m for m in typing.get_type_hints(Unit)[name] if m.value == _VALID[name])
    if hint is bool:
        return False
    if hint is int:
        return 1
    if hint is float:
        return 1.0
    if hint is str:
        return "a1"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint))
    if typing.get_origin(hint) is typing.Union or isinstance(hint, types.UnionType):
        return None if type(None) in typing.get_args(hint) else _valid(
            typing.get_args(hint)[0], name)
    if typing.get_origin(hint) is tuple:
        return ()
    if isinstance(hint, type) and attrs.has(hint):
        return _build(hint, {})
    raise AssertionError(hint)


def _bad(hint: Any) -> list[Any]:
    """Values of the wrong kind for ``hint``."""
    if hint is bool:
        return ["no", 0, 1, None]
    if hint is int:
        return [1.5, True, "3", math.nan, None]
    if hint is float:
        return [math.nan, math.inf, True, "3"]
    if hint is str:
        return [5, None, b"a1", ("a1",)]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return ["front", 3, None, True]
    if typing.get_origin(hint) is typing.Union or isinstance(hint, types.UnionType):
        return ["no-such", math.nan, b"x"]
    if typing.get_origin(hint) is tuple:
        return ["ab", [1], (math.nan,) * 3]
    if isinstance(hint, type) and attrs.has(hint):
        return ["facts", 0, None]
    raise AssertionError(hint)


def _build(cls: type, changes: dict[str, Any]) -> Any:
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _valid(hints[f.name], f.name) for f in attrs.fields(cls)
              if f.default is attrs.NOTHING}
    if cls is Unit:
        kwargs.update(figures=16)
    kwargs.update(changes)
    return cls(**kwargs)


FIELDS = tuple((cls, f.name, typing.get_type_hints(cls)[f.name])
               for cls in CLASSES for f in attrs.fields(cls))


def test_every_class_builds_with_valid_values() -> None:
    for cls in CLASSES:
        _build(cls, {})


def test_a_value_of_the_wrong_kind_is_refused_naming_the_field() -> None:
    """Every field of every class, each value of the wrong kind for it (all of them)."""
    for cls, name, hint in FIELDS:
        for value in _bad(hint):
            with pytest.raises(InvalidValueError) as caught:
                _build(cls, {name: value})
            assert caught.value.field.endswith(f"{cls.__name__}.{name}") or (
                name in caught.value.field), (cls, name, value, caught.value)


@settings(max_examples=100, deadline=None)
@given(case=st.sampled_from(FIELDS), value=st.one_of(
    st.text(max_size=4), st.integers(), st.floats(), st.none(), st.binary(max_size=2)))
def test_any_value_is_refused_with_a_library_error_or_kept_as_given(
        case: tuple[type, str, Any], value: Any) -> None:
    """Any value at all in any field: refused with a library error naming a field, or
    accepted and kept as given (never a raw exception)."""
    cls, name, _hint = case
    try:
        made = _build(cls, {name: value})
    except InvalidValueError as error:
        assert error.field
        return
    assert getattr(made, name) == value or value != value


def _mutations(action: Any, rng: random.Random) -> list[Any]:
    """``action`` with one id naming nobody, or one whole number pushed to its extreme."""
    out = []
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if type(value) is str:
            out.append(attrs.evolve(action, **{f.name: "nobody"}))
        elif type(value) is int:
            for extreme in (0, 10**6):
                with contextlib.suppress(InvalidValueError):
                    out.append(attrs.evolve(action, **{f.name: extreme}))
    rng.shuffle(out)
    return out[:3]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_step_refuses_a_mutated_action_with_a_library_error_state_unchanged(seed: int) -> None:
    """Battle period: at each step of a random battle, legal actions with a name naming nobody
    or a count at its extreme are refused by a library error (never a raw KeyError,
    ValueError or RuntimeError) or played to a state that writes and loads back."""
    rng = random.Random(seed)
    state = example_battle(seed)
    for _ in range(60):
        actions = TURN.legal_actions(state)
        if not actions:
            break
        before = state.to_json()
        for action in rng.sample(actions, min(3, len(actions))):
            for bad in _mutations(action, rng):
                try:
                    new, _events = TURN.step(state, bad)
                except SmoothboreError:
                    assert state.to_json() == before
                    continue
                assert TURN.load(new.to_json()) == new
        state, _events = TURN.step(state, rng.choice(actions))


def test_the_written_out_checker_agrees_with_the_checks_one_by_one() -> None:
    """``fields._all_pass`` (one function a class, the plain types tested inline) says yes
    exactly when every field passes its own check: on a valid value, and on each field of
    each class given each value of the wrong kind (and each valid one) behind the
    validators' back."""
    from smoothbore.mckie_acw.fields import _all_pass, _checks_of

    asked = 0
    for cls, name, hint in FIELDS:
        made = _build(cls, {})
        checks = [c for c in _checks_of(cls) if c[0] == name]
        for value in [*_bad(hint), _valid(hint, name)]:
            copy = attrs.evolve(made)
            object.__setattr__(copy, name, value)
            if hasattr(copy, "_attrs_cached_hash"):
                object.__setattr__(copy, "_attrs_cached_hash", None)
            one_by_one = all(check(getattr(copy, n)) for n, check, _ in _checks_of(cls))
            assert _all_pass(cls)(copy) is one_by_one, (cls, name, value)
            if checks:
                assert one_by_one is checks[0][1](value) or not all(
                    c(getattr(copy, n)) for n, c, _ in _checks_of(cls) if n != name)
            asked += 1
    assert asked > 300
