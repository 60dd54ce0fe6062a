"""A book's values in its own words and back: the fields of an attrs class (a unit, a
commander, the book's options) read from a scenario file's table of words, and written out
again with only what differs from the book's defaults.

Enumerations are written as the book writes them (the member's value: ``light infantry``,
``veteran``), and read in any spelling ``spell`` accepts; a misspelt word is refused with the
nearest words the book knows. A field the generic reading cannot take (a written order, a
variant) is read and written by the book's own codec (``Codec``)."""

from __future__ import annotations

import enum
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from smoothbore.core.errors import InvalidValueError, suggest
from smoothbore.core.ruleset import spell

__all__ = [
    "Codec", "Problem", "fields_of", "from_words", "nearest", "read_setting", "to_words",
    "word_of", "write_setting",
]

Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""A book's (read, write) pair for one field: ``read(word)`` gives the value or raises
InvalidValueError; ``write(value)`` gives the TOML value."""

MAX_INT = 10**9
"""The largest whole number a scenario file may give (a count, a rating)."""


@attrs.frozen
class Problem:
    """One fault of a scenario file: where (the path of keys to it), the value found and what
    is allowed. The file and line are added when the document is known."""

    path: tuple[str | int, ...]
    value: object
    allowed: str


def nearest(word: str, known: typing.Iterable[str]) -> str:
    """A did-you-mean hint for a misspelt ``word`` among ``known`` ('' when none is close):
    core's ``suggest``, as every other refusal of a name gives it."""
    hint = suggest(word, list(known))
    return f" (did you mean {hint!r}?)" if hint is not None else ""


def fields_of(cls: type) -> dict[str, tuple[attrs.Attribute[Any], Any]]:
    """The fields a file may give for ``cls``: (attribute, resolved type) by name."""
    hints = typing.get_type_hints(cls)
    return {f.name: (f, hints[f.name]) for f in attrs.fields(cls) if f.init}


@attrs.frozen
class Vocabulary:
    """What one class's words are read by, worked out once for a whole file (a hundred units
    ask the same questions): its fields and their types, and for each enumeration the member
    of every spelling. Made per read (``vocabulary``), never kept between reads."""

    fields: Mapping[str, tuple[attrs.Attribute[Any], Any]]
    members: Mapping[str, Mapping[str, enum.Enum]]
    words: Mapping[str, tuple[str, ...]]


def vocabulary(cls: type) -> Vocabulary:
    """The vocabulary of ``cls`` (its fields, and its enumerations by every spelling)."""
    fields = fields_of(cls)
    members: dict[str, dict[str, enum.Enum]] = {}
    words: dict[str, tuple[str, ...]] = {}
    for name, (_, hint) in fields.items():
        kind, _ = _optional(hint)
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            table: dict[str, enum.Enum] = {}
            for member in kind:
                table.setdefault(spell(word_of(member)), member)
                table.setdefault(spell(member.name), member)
            members[name] = table
            words[name] = tuple(_enum_words(kind))
    return Vocabulary(fields, members, words)


def _optional(kind: Any) -> tuple[Any, bool]:
    """(the type, whether None is allowed) of ``X | None``."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        return (args[0] if len(args) == 1 else kind), len(args) < len(typing.get_args(kind))
    return kind, False


def _enum_words(kind: type[enum.Enum]) -> list[str]:
    return [word_of(m) for m in kind]


def word_of(value: Any) -> Any:
    """A value as the file writes it: an enum by the book's word, others as they are."""
    if isinstance(value, enum.Enum):
        return value.value if isinstance(value.value, str) else value.name.lower()
    return value


def read_value(word: Any, kind: Any, path: tuple[str | int, ...]) -> tuple[Any, Problem | None]:
    """``word`` read as a value of ``kind``: (value, None) or (None, the problem)."""
    kind, maybe_none = _optional(kind)
    if maybe_none and word == "none":
        return None, None
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        words = _enum_words(kind)
        if isinstance(word, str):
            wanted = spell(word)
            for member in kind:
                if wanted in (spell(word_of(member)), spell(member.name)):
                    return member, None
            return None, Problem(path, word, "one of " + ", ".join(words) + nearest(word, words))
        return None, Problem(path, word, "a word: one of " + ", ".join(words))
    if kind is bool:
        if isinstance(word, bool):
            return word, None
        return None, Problem(path, word, "true or false")
    if kind is int:
        if isinstance(word, int) and not isinstance(word, bool) and abs(word) <= MAX_INT:
            return word, None
        return None, Problem(path, word, f"a whole number (at most {MAX_INT:,})")
    if kind is float:
        if (isinstance(word, (int, float)) and not isinstance(word, bool)
                and math.isfinite(word) and abs(word) <= MAX_INT):
            return float(word), None
        return None, Problem(path, word, f"a finite number (at most {MAX_INT:,})")
    if kind is str:
        if isinstance(word, str):
            return word, None
        return None, Problem(path, word, "text in quotes")
    return None, Problem(path, word, f"(a field this book does not read from a file: {kind})")


def from_words(cls: type, words: Mapping[str, Any], path: tuple[str | int, ...], *,
               given: Mapping[str, Any] | None = None, skip: frozenset[str] = frozenset(),
               codecs: Mapping[str, Codec] | None = None, known: Vocabulary | None = None,
               ) -> tuple[Any | None, list[Problem]]:
    """An instance of ``cls`` from the file's ``words`` (``given``: values set by the file's
    structure, such as a unit's side; ``skip``: keys read elsewhere, such as a position).
    Every unknown key and every unreadable value is a problem; the instance is made only when
    there is none, and a value its class refuses is a problem at its key (``known``: the
    class's vocabulary, when the caller reads many of it)."""
    vocab = known or vocabulary(cls)
    known_fields = vocab.fields
    codecs = codecs or {}
    problems: list[Problem] = []
    kwargs: dict[str, Any] = dict(given or {})
    for key, word in words.items():
        if key in skip:
            continue
        here = (*path, key)
        if key not in known_fields or key in (given or {}):
            names = sorted(k for k in (*known_fields, *skip) if k not in (given or {}))
            problems.append(Problem(here, "(an unknown key)",
                                    "one of " + ", ".join(names) + nearest(key, names)))
            continue
        if key in codecs:
            try:
                kwargs[key] = codecs[key][0](word)
            except InvalidValueError as error:
                problems.append(Problem(here, word, error.allowed))
            continue
        table = vocab.members.get(key)
        if table is not None and isinstance(word, str) and spell(word) in table:
            kwargs[key] = table[spell(word)]
            continue
        value, problem = read_value(word, known_fields[key][1], here)
        if problem is not None:
            problems.append(problem)
        else:
            kwargs[key] = value
    if problems:
        return None, problems
    try:
        return cls(**kwargs), []
    except InvalidValueError as error:
        name = error.field.rsplit(".", 1)[-1]
        at = (*path, name) if name in words else path
        return None, [Problem(at, error.value if name in words else error.field + "="
                              + repr(error.value), error.allowed)]
    except TypeError as error:  # a required field not given
        missing = [n for n, (f, _) in known_fields.items()
                   if f.default is attrs.NOTHING and n not in kwargs]
        what = cls.__name__.lower()
        return None, [Problem((*path, missing[0]) if missing else path, "(missing)",
                              f"a value: every {what} needs its {missing[0]}" if missing
                              else f"the fields of a {what} ({error})")]


def to_words(value: Any, *, given: frozenset[str] = frozenset(),
             codecs: Mapping[str, Codec] | None = None) -> dict[str, Any]:
    """The file's words for an attrs ``value``: every field not in ``given`` whose value
    differs from the default the class would give it (a default made from the other fields
    is worked out from them), in the class's order."""
    codecs = codecs or {}
    out: dict[str, Any] = {}
    for name, (field, _) in fields_of(type(value)).items():
        if name in given:
            continue
        current = getattr(value, name)
        default: Any = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            made: Any = default
            default = made.factory(value) if made.takes_self else made.factory()
        if default is not attrs.NOTHING and current == default:
            continue
        if name in codecs:
            out[name] = codecs[name][1](current)
        elif current is None:
            out[name] = "none"
        else:
            out[name] = word_of(current)
    return out


def read_setting(word: Any, hint: Any, path: tuple[str | int, ...]
                 ) -> tuple[Any, list[Problem]]:
    """A book's setting (``[setup]``, ``[victory]``) read by its type: a value, a tuple of
    values (``tuple[int, int]``, ``tuple[Defence, ...]``) or an attrs class from a table."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        many = len(args) == 2 and args[1] is Ellipsis
        if not isinstance(word, list) or (not many and len(word) != len(args)):
            return None, [Problem(path, word, "a list" + ("" if many else
                                                          f" of {len(args)} values"))]
        if len(word) > 1000:
            return None, [Problem(path, f"({len(word)} items)", "at most 1,000 items")]
        out, problems = [], []
        for i, item in enumerate(word):
            value, found = read_setting(item, args[0] if many else args[i], (*path, i))
            out.append(value)
            problems.extend(found)
        return (tuple(out) if not problems else None), problems
    if attrs.has(hint):
        if not isinstance(word, dict):
            return None, [Problem(path, word, "a table: { key = value, ... }")]
        return from_words(hint, word, path)
    value, problem = read_value(word, hint, path)
    return value, [problem] if problem else []


def write_setting(value: Any) -> Any:
    """A book's setting as the file writes it (``read_setting`` reads it back)."""
    if isinstance(value, tuple):
        return [write_setting(v) for v in value]
    if attrs.has(type(value)):
        return to_words(value)
    return word_of(value)
