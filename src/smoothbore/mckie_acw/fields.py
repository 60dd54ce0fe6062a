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
    if _all_pass(cls, checked)(instance):  # type: ignore[arg-type]
        return  # the usual case, in one call (values are made by the thousand on a table)
    for name, check, allowed in _checks_of(cls, checked):  # type: ignore[arg-type]
        value = getattr(instance, name)
        if not check(value):
            raise InvalidValueError(f"{cls.__name__}.{name}", value, allowed)


@functools.cache
def _all_pass(cls: type, checked: tuple[str, ...] = ()) -> Callable[[Any], bool]:
    """Whether every field of an instance of ``cls`` passes its check (``_checks_of``), as
    one function written out for the class: the plain types tested inline, the others by
    their check. ``check_fields`` asks the checks one by one only when this says no, to name
    the field."""
    hints = typing.get_type_hints(cls)
    env: dict[str, Any] = {"_isfinite": math.isfinite}
    lines = ["def all_pass(o):"]
    for i, (name, check, _allowed) in enumerate(_checks_of(cls, checked)):
        env[f"_c{i}"] = check
        test = _inline(hints[name], "v", env, i) or f"_c{i}(v)"
        lines += [f"    v = o.{name}", f"    if not ({test}):", "        return False"]
    lines.append("    return True")
    exec("\n".join(lines), env)  # a checker written from the class's own fields
    found: Callable[[Any], bool] = env["all_pass"]
    return found


def _inline(hint: Any, v: str, env: dict[str, Any], i: int) -> str | None:
    """The test of ``v`` against ``hint`` written out (as ``_check`` makes it), or None."""
    if hint is bool:
        return f"({v} is True or {v} is False)"
    if hint is int:
        return f"type({v}) is int"
    if hint is float:
        return f"((type({v}) is float or type({v}) is int) and _isfinite({v}))"
    if hint is str:
        return f"type({v}) is str"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        env[f"_e{i}"] = hint
        return f"isinstance({v}, _e{i})"
    args = typing.get_args(hint)
    if (typing.get_origin(hint) is typing.Union or isinstance(hint, types.UnionType)) and (
            len(args) == 2 and type(None) in args):
        inner = _inline(next(a for a in args if a is not type(None)), v, env, i)
        return None if inner is None else f"({v} is None or {inner})"
    return None


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
