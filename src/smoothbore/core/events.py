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


def narrate(events: Iterable[Event]) -> str:
    """A short narration of several events, one paragraph each."""
    return "\n".join(event.narrate() for event in events)
