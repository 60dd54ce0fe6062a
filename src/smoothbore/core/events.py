"""Events: immutable records of what happened, with the rolls behind them and their rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from smoothbore.core.chance import RollRecord

__all__ = ["Event", "Fact", "narrate"]

Fact = str | int | float | bool
"""One structured fact an event carries beside its words: a test's name, its outcome, a
distance, a count."""

_FACT_KINDS = (str, int, float, bool)


def _as_facts(
    value: Mapping[str, Fact] | Iterable[tuple[str, Fact]],
) -> tuple[tuple[str, Fact], ...]:
    pairs = tuple(value.items() if isinstance(value, Mapping) else value)
    for pair in pairs:
        if (not isinstance(pair, tuple) or len(pair) != 2 or not isinstance(pair[0], str)
                or not isinstance(pair[1], _FACT_KINDS)):
            from smoothbore.core.errors import InvalidValueError

            raise InvalidValueError("Event.facts", pair, "pairs of a name and a str, int, "
                                    "float or bool")
    return pairs


@attrs.frozen
class Event:
    """Something that happened in a battle: what kind, a sentence, the rule, whom it
    concerns, the rolls that decided it, and ``facts``: the same outcome as structured
    values (``{"test": "morale", "result": "carry-on"}``) for programs that read results
    rather than words."""

    kind: str
    text: str
    rule: str
    subject: str = ""
    rolls: tuple[RollRecord, ...] = ()
    facts: tuple[tuple[str, Fact], ...] = attrs.field(default=(), converter=_as_facts)

    def fact(self, name: str, default: Fact | None = None) -> Fact | None:
        """The structured fact called ``name`` (``event.fact("result")``), or ``default``."""
        for key, value in self.facts:
            if key == name:
                return value
        return default

    def narrate(self) -> str:
        """The sentence, its rule, then one indented line per roll."""
        lines = [f"{self.text} [{self.rule}]"]
        lines.extend(f"  {roll.narrate()}" for roll in self.rolls)
        return "\n".join(lines)

    def __repr__(self) -> str:
        rolls = f", {len(self.rolls)} roll{'s' if len(self.rolls) != 1 else ''}" if (
            self.rolls) else ""
        return f"<Event {self.kind}: {self.text} [{self.rule}]{rolls}>"

    def _repr_html_(self) -> str:
        """A notebook view: the sentence, its rule and its rolls in words."""
        from smoothbore.core.present import event_html

        return event_html(self)


def narrate(events: Iterable[Event]) -> str:
    """A short narration of several events, one paragraph each."""
    return "\n".join(event.narrate() for event in events)
