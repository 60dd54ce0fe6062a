"""Events: immutable records of what happened, with the rolls behind them and their rules."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from smoothbore.core.chance import RollRecord

__all__ = ["Event", "narrate"]


@attrs.frozen
class Event:
    """Something that happened in a battle: what kind, a sentence, the rule, whom it
    concerns, and the rolls that decided it."""

    kind: str
    text: str
    rule: str
    subject: str = ""
    rolls: tuple[RollRecord, ...] = ()

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
        from smoothbore.views import event_html

        return event_html(self)


def narrate(events: Iterable[Event]) -> str:
    """A short narration of several events, one paragraph each."""
    return "\n".join(event.narrate() for event in events)
