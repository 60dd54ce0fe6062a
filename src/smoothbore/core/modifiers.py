"""Modifiers that explain themselves: every target number or score is a base plus labelled
modifiers, each naming the rule it comes from."""

from __future__ import annotations

import attrs

from smoothbore.core.errors import InvalidValueError

__all__ = ["Modified", "Modifier"]


def _int(field: str):  # type: ignore[no-untyped-def]
    def validate(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidValueError(f"{type(instance).__name__}.{field}", value, "an integer")

    return validate


@attrs.frozen
class Modifier:
    """One labelled adjustment, e.g. ``Modifier("in cover", -1, "Bloodybacks 9.3, Shooting")``."""

    label: str
    value: int = attrs.field(validator=_int("value"))
    rule: str

    def line(self) -> str:
        """``  -1  in cover  (rule)``."""
        return f"{self.value:+4d}  {self.label}  ({self.rule})"


@attrs.frozen
class Modified:
    """A base value with the modifiers applied to it; ``total`` is their sum and
    ``explain()`` shows where every point came from."""

    base: int = attrs.field(validator=_int("base"))
    label: str
    rule: str
    modifiers: tuple[Modifier, ...] = ()

    @property
    def total(self) -> int:
        """The base plus every modifier."""
        total = self.base
        for modifier in self.modifiers:
            total += modifier.value
        return total

    def plus(self, *modifiers: Modifier) -> Modified:
        """This value with more modifiers (zero-valued ones are kept out)."""
        kept = tuple([m for m in modifiers if m.value])
        if not kept:
            return self
        return Modified(self.base, self.label, self.rule, self.modifiers + kept)

    def explain(self) -> str:
        """One line per term, then the total."""
        lines = [f"{self.base:4d}  {self.label}  ({self.rule})"]
        lines.extend(m.line() for m in self.modifiers)
        lines.append(f"{self.total:4d}  total")
        return "\n".join(lines)

    def __str__(self) -> str:
        terms = " ".join(f"{m.value:+d} {m.label}" for m in self.modifiers)
        return f"{self.total} ({self.base} {self.label}{' ' + terms if terms else ''})"
