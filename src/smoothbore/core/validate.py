"""Validators that raise InvalidValueError naming the field, the value and what is allowed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

from smoothbore.core.errors import InvalidValueError

__all__ = ["at_least", "check_choice", "check_range", "in_range", "one_of"]

T = TypeVar("T")
Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


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
        check_range(_name(instance, attribute), value, low, high)

    return validate


def at_least(low: int) -> Validator:
    """attrs validator: an int field no lower than ``low``."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_range(_name(instance, attribute), value, low)

    return validate


def one_of(*allowed: object) -> Validator:
    """attrs validator: a field whose value is one of ``allowed``."""

    def validate(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_choice(_name(instance, attribute), value, allowed)

    return validate


def _name(instance: object, attribute: attrs.Attribute[Any]) -> str:
    return f"{type(instance).__name__}.{attribute.name}"
