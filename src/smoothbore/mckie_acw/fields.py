"""Every field of an action, a fact or a unit checked against its annotation where the value
is made (issue 28): a bool is True or False (never ``'no'``), an int an int (never a bool or a
float), a float a finite number, a str text, an enum one of its members, a tuple or frozenset
of the right items. The loader (``core.state.structure``) reads only such values; this makes a
value built in Python meet the same standard, so ``step`` never meets a raw exception and never
stores what ``to_json`` then refuses. Errors are ``InvalidValueError`` naming
``Class.field``."""

from __future__ import annotations

import enum
import functools
import math
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from smoothbore.core import InvalidValueError

Check = Callable[[Any], bool]


def check_fields(instance: object, checked: tuple[str, ...] = ()) -> None:
    """Raise InvalidValueError for the first field of ``instance`` (an attrs class) whose
    value is not of its annotated type (``checked``: fields its class has checked as
    strictly already, passed over)."""
    cls = type(instance)
    for name, check, allowed in _checks_of(cls, checked):  # type: ignore[arg-type]
        value = getattr(instance, name)
        if not check(value):
            raise InvalidValueError(f"{cls.__name__}.{name}", value, allowed)


@functools.cache
def _checks_of(cls: type, checked: tuple[str, ...] = ()) -> tuple[tuple[str, Check, str], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, *_check(hints[f.name])) for f in attrs.fields(cls)
                 if f.name not in checked)


def _is_bool(v: Any) -> bool:
    return v is True or v is False


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_float(v: Any) -> bool:
    kind = type(v)
    return (kind is float or kind is int) and math.isfinite(v)


def _is_str(v: Any) -> bool:
    return type(v) is str


def _anything(v: Any) -> bool:
    return True


def _check(hint: Any) -> tuple[Check, str]:
    """The check of a value of type ``hint`` and what it allows."""
    if hint is bool:
        return _is_bool, "True or False"
    if hint is int:
        return _is_int, "an integer"
    if hint is float:
        return _is_float, "a finite number"
    if hint is str:
        return _is_str, "text"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members = tuple(hint)
        return (lambda v: isinstance(v, hint)), "one of " + ", ".join(
            repr(m.value) for m in members)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or isinstance(hint, types.UnionType):
        parts = [_check(a) for a in args if a is not type(None)]
        optional = type(None) in args
        allowed = " or ".join(a for _c, a in parts) + (" or None" if optional else "")
        return (lambda v: (optional and v is None) or any(c(v) for c, _a in parts)), allowed
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item, what = _check(args[0])
        return (lambda v: type(v) is tuple and all(item(i) for i in v)), f"a tuple of {what}"
    if origin is tuple:
        items = [_check(a) for a in args]
        return (lambda v: type(v) is tuple and len(v) == len(items)
                and all(c(i) for (c, _a), i in zip(items, v, strict=True))), (
            f"a tuple of {len(items)}: " + ", ".join(a for _c, a in items))
    if origin is frozenset:
        item, what = _check(args[0])
        return (lambda v: type(v) is frozenset and all(item(i) for i in v)), (
            f"a frozenset of {what}")
    if isinstance(hint, type):
        return (lambda v: isinstance(v, hint)), f"a {hint.__name__}"
    return _anything, "anything"
