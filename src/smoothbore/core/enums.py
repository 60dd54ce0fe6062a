"""Enumerations that read as the rule books' words."""

from __future__ import annotations

import enum

__all__ = ["NamedEnum"]


class NamedEnum(enum.Enum):
    """An enumeration that prints as its value: the words the text uses."""

    def __str__(self) -> str:
        return str(self.value)
