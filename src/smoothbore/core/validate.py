"""Validators that raise InvalidValueError naming the field, the value and what is allowed."""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs

from smoothbore.core.errors import InvalidValueError, LoadError

__all__ = [
    "MAX_INCHES",
    "REFERS_TO",
    "Fault",
    "at_least",
    "check_choice",
    "check_number",
    "check_range",
    "check_text",
    "each",
    "finite",
    "in_range",
    "maybe",
    "one_of",
    "refers_to",
    "refuse_faults",
    "text",
]

MAX_INCHES = 1_000.0
"""The longest distance, in inches, that any fact measured at the table may give (over 80
feet: no table is longer); ``finite(0, MAX_INCHES)`` is the validator of a distance."""

REFERS_TO = "smoothbore.refers_to"
"""The attrs metadata key under which ``refers_to`` records what a field names."""

T = TypeVar("T")
Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]

Fault = tuple[str, object, str]
"""A fault of a battle as a whole: the field's path, its value and what is allowed."""


def refuse_faults(faults: Sequence[Fault], path: str | None = None,
                  error: type[InvalidValueError] | None = None) -> None:
    """Refuse a battle with every fault a whole-battle check found (nothing: return): one
    library error whose field, value and allowed are the first fault's, whose allowed lists
    the others after it, and whose ``faults`` holds them all. ``path``: the loader's root
    (``$``), put before each fault's path, the error a ``LoadError``; None: the paths as
    they are, the error an ``InvalidValueError`` (``error`` chooses another)."""
    if not faults:
        return
    found = [(field if path is None else f"{path}.{field}", value, allowed)
             for field, value, allowed in faults]
    field, value, allowed = found[0]
    if len(found) > 1:
        allowed += f"; and {len(found) - 1} more fault(s): " + "; ".join(
            f"{f}={v!r}: {a}" for f, v, a in found[1:])
    kind = error or (InvalidValueError if path is None else LoadError)
    raised = kind(field, value, allowed)
    raised.faults = tuple(found)  # type: ignore[attr-defined]
    raise raised


def check_range(field: str, value: int, low: int, high: int | None = None) -> int:
    """Return ``value`` if it is an int within [low, high] (high None: no upper bound)."""
    if isinstance(value, bool) or not isinstance(value, int):
        allowed = f"an integer from {low}" + (f" to {high}" if high is not None else " up")
        raise InvalidValueError(field, value, allowed)
    if value < low or (high is not None and value > high):
        allowed = f"{low} to {high}" if high is not None else f"at least {low}"
        raise InvalidValueError(field, value, allowed)
    return value


def check_choice(field: str, value: T, allowed: Iterable[T]) -> T:
    """Return ``value`` if it is one of ``allowed``."""
    options = tuple(allowed)
    if value not in options:
        raise InvalidValueError(field, value, "one of " + ", ".join(map(_show, options)))
    return value


def _show(option: object) -> str:
    value = getattr(option, "value", option)
    return repr(value)


def in_range(low: int, high: int) -> Validator:
    """attrs validator: an int field within [low, high]."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is int and low <= value <= high:
            return  # the common case, without building the field's name
        check_range(_name(instance, attribute), value, low, high)

    return validate


def at_least(low: int) -> Validator:
    """attrs validator: an int field no lower than ``low``."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is int and value >= low:
            return
        check_range(_name(instance, attribute), value, low)

    return validate


def one_of(*allowed: object) -> Validator:
    """attrs validator: a field whose value is one of ``allowed``."""

    identities = frozenset(map(id, allowed))  # the choices live as long as this closure

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if id(value) in identities:
            return
        check_choice(_name(instance, attribute), value, allowed)

    return validate


def _name(instance: object, attribute: attrs.Attribute[Any]) -> str:
    return f"{type(instance).__name__}.{attribute.name}"


def check_number(
    field: str, value: Any, low: float | None = None, high: float | None = None
) -> float:
    """Return ``value`` if it is a finite real number (an int or a float, not a bool, never
    NaN or infinite) within [low, high] (None: no bound on that side)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidValueError(field, value, "a finite number" + _bounds(low, high, " "))
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidValueError(field, value, _bounds(low, high, "a number ").strip())
    return value


def _bounds(low: float | None, high: float | None, lead: str) -> str:
    if low is not None and high is not None:
        return f"{lead}from {_num(low)} to {_num(high)}"
    if low is not None:
        return f"{lead}of at least {_num(low)}"
    if high is not None:
        return f"{lead}of at most {_num(high)}"
    return lead


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def finite(low: float | None = None, high: float | None = None) -> Validator:
    """attrs validator: a finite number (int or float, never NaN or infinite, not a bool)
    within [low, high]; ``finite(0)`` for a distance, ``finite(-180, 180)`` for an angle."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        kind = type(value)
        if (
            (kind is float or kind is int)
            and math.isfinite(value)
            and (low is None or value >= low)
            and (high is None or value <= high)
        ):
            return
        check_number(_name(instance, attribute), value, low, high)

    return validate


def maybe(validator: Validator) -> Validator:
    """attrs validator: None, or a value ``validator`` accepts (``maybe(finite(0))``)."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is not None:
            validator(instance, attribute, value)

    return validate


def check_text(field: str, value: Any, *, empty: bool = False) -> str:
    """Return ``value`` if it is a string (non-empty unless ``empty``)."""
    if not isinstance(value, str) or (not empty and not value):
        raise InvalidValueError(field, value, "text" if empty else "non-empty text")
    return value


def text(*, empty: bool = False) -> Validator:
    """attrs validator: a string, such as an id or a name (non-empty unless ``empty``)."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_text(_name(instance, attribute), value, empty=empty)

    return validate


def each(validator: Validator, kind: type = frozenset) -> Validator:
    """attrs validator: a ``kind`` (frozenset or tuple) whose every item ``validator``
    accepts: ``each(text())`` for a set of ids, ``each(finite(0))`` for distances."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, kind):
            raise InvalidValueError(_name(instance, attribute), value, f"a {kind.__name__}")
        for item in typing.cast(Iterable[Any], value):
            validator(instance, attribute, item)

    return validate


def refers_to(*groups: str, blank: bool = False) -> dict[str, Any]:
    """attrs field metadata: the field (a string, or a tuple or frozenset of strings) names
    one of the state's ``"units"``, ``"commanders"`` or ``"sides"``; ``blank``: the empty
    string means none. ``BattleState.from_json`` and ``BattleState.check_references`` refuse
    a name that does not exist. Use as ``attrs.field(default=None,
    metadata=refers_to("units"))``; None always means none."""
    unknown = set(groups) - {"units", "commanders", "sides"}
    if not groups or unknown:
        raise InvalidValueError("refers_to", groups, "some of 'units', 'commanders', 'sides'")
    return {REFERS_TO: (tuple(groups), blank)}
