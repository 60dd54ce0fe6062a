"""Enumerations that read as the rule books' words."""

from __future__ import annotations

import enum

__all__ = ["NamedEnum"]


class NamedEnum(enum.Enum):
    """An enumeration that prints as its value (the words the text uses), hashed by identity."""

    # Members are singletons compared by identity; hashing by identity (in C) instead of
    # Enum's hash of the name (in Python) keeps units and candidate actions cheap to hash.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return str(self.value)
