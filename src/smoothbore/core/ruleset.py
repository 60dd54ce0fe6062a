"""A ruleset as data: its name, title, period, dice, phases and random mechanisms."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import attrs

from smoothbore.core.errors import InvalidValueError
from smoothbore.core.protocols import Phase, Turn

__all__ = ["Mechanism", "Parameter", "Ruleset", "find_mechanism"]

_KINDS = (int, bool, str)


@attrs.frozen
class Parameter:
    """One parameter of a mechanism, as the command line and notebooks see it."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise InvalidValueError("Parameter.kind", self.kind, "int, bool or str")

    def parse(self, text: str) -> Any:
        """Read a value given as text (``"3"``, ``"yes"``), checking kind and choices."""
        value: Any
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "y", "on"):
                value = True
            elif lowered in ("0", "false", "no", "n", "off"):
                value = False
            else:
                raise InvalidValueError(self.name, text, "true or false (yes/no, 1/0)")
        elif self.kind is int:
            try:
                value = int(text)
            except ValueError:
                raise InvalidValueError(self.name, text, "an integer") from None
        else:
            value = text
        if self.choices and value not in self.choices:
            raise InvalidValueError(self.name, value, "one of " + ", ".join(map(str, self.choices)))
        return value


@attrs.frozen
class Mechanism:
    """One random mechanism of a ruleset: ``function(dice=..., **parameters)`` returns a
    short, hashable result, so ``odds`` gives its exact distribution."""

    name: str
    summary: str
    rule: str
    function: Callable[..., Hashable] = attrs.field(eq=False)
    parameters: tuple[Parameter, ...] = ()

    def parameter(self, name: str) -> Parameter:
        """The parameter with this name."""
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        names = ", ".join(p.name for p in self.parameters) or "none"
        raise InvalidValueError(f"{self.name} parameter", name, names)

    def arguments(self, given: Mapping[str, str]) -> dict[str, Any]:
        """Defaults overridden by values given as text."""
        values = {p.name: p.default for p in self.parameters}
        for name, text in given.items():
            values[name] = self.parameter(name).parse(text)
        return values

    def signature(self) -> str:
        """``name key=default ...`` as the command line takes it."""
        return " ".join([self.name, *(f"{p.name}={p.default}" for p in self.parameters)])


@attrs.frozen
class Ruleset:
    """What the library knows of one rule book."""

    name: str
    title: str
    period: str
    edition: str
    aliases: tuple[str, ...]
    dice: tuple[str, ...]
    phases: tuple[Phase, ...]
    mechanisms: tuple[Mechanism, ...]
    turn: Turn[Any, Any] | None = attrs.field(default=None, eq=False)
    source: str = ""
    example: Callable[[int], Any] | None = attrs.field(default=None, eq=False)
    """An embedded battle, made from a seed: the command line's default, and the state the
    conformance suite plays."""

    def mechanism(self, name: str) -> Mechanism:
        """The mechanism with this name (``-`` and ``_`` are the same)."""
        return find_mechanism(self.mechanisms, name, self.name)


def find_mechanism(mechanisms: tuple[Mechanism, ...], name: str, owner: str) -> Mechanism:
    """The mechanism called ``name`` (case-blind, ``-`` and ``_`` alike); an unknown name
    lists the available ones."""
    wanted = name.replace("_", "-").lower()
    for mechanism in mechanisms:
        if mechanism.name.replace("_", "-").lower() == wanted:
            return mechanism
    names = ", ".join(m.name for m in mechanisms) or "none"
    raise InvalidValueError(f"{owner} mechanism", name, "one of " + names)
