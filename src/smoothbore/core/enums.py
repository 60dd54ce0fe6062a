"""Enumerations that read as the rule books' words."""

from __future__ import annotations

import enum

from smoothbore.core.errors import InvalidValueError

__all__ = ["NamedEnum", "Result"]


class NamedEnum(enum.Enum):
    """An enumeration that prints as its value (the words the text uses), hashed by identity."""

    # Members are singletons compared by identity; hashing by identity (in C) instead of
    # Enum's hash of the name (in Python) keeps units and candidate actions cheap to hash.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return str(self.value)


class Result(enum.StrEnum):
    """How a battle came out, as a named value rather than words to match: a side won, it
    was drawn, or it stopped before its rules ended it (a simulation's step limit). A
    ``StrEnum``, so that it is its own text in JSON (``"win"``) and ``Result("draw")``
    reads one back."""

    WIN = "win"
    DRAW = "draw"
    UNFINISHED = "unfinished"

    @classmethod
    def of(cls, value: object) -> Result:
        """``value`` as a Result: a member, or its text in any case (``"Draw"``); anything
        else raises InvalidValueError naming the results allowed (with "did you mean")."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for member in cls:
                if member.value == value.strip().lower():
                    return member
        raise InvalidValueError("result", value, "one of " + ", ".join(m.value for m in cls))
