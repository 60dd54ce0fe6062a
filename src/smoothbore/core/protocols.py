"""Protocols every ruleset satisfies: units, commanders and the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

import attrs

from smoothbore.core.events import Event

__all__ = ["Commander", "Identified", "Phase", "Turn", "Unit"]

if TYPE_CHECKING:
    from smoothbore.core.engine import Outcome

S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Identified(Protocol):
    """Anything a battle holds by id: named, on a side."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def side(self) -> str: ...


@runtime_checkable
class Unit(Identified, Protocol):
    """A unit on the table (a regiment, battalion, battery, squadron)."""


@runtime_checkable
class Commander(Identified, Protocol):
    """A commander (general, colonel, brigadier)."""


@attrs.frozen
class Phase:
    """One phase of a ruleset's turn, with the rule that defines it; ``title`` is the short
    name players use where ``name`` is a bare letter ("movement" for Will's phase C)."""

    name: str
    rule: str
    summary: str
    title: str = ""


@runtime_checkable
class Turn(Protocol[S, A]):
    """A ruleset's sequence of play: its phases as data, the actions legal in a state, a
    pure ``step`` that applies one action (same state and action, same result), who acts,
    and when and how the battle ends. ``smoothbore.core.engine.Engine`` implements it."""

    @property
    def phases(self) -> tuple[Phase, ...]: ...

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The actions a player may take now."""
        ...

    def step(self, state: S, action: A) -> tuple[S, tuple[Event, ...]]:
        """Apply ``action``: the new state and what happened. Raises IllegalActionError,
        naming the rule, for an action the rules forbid; ``state`` is never changed."""
        ...

    def to_act(self, state: S) -> str | None:
        """The side that decides now (None: a step of the sequence that any player makes)."""
        ...

    def is_over(self, state: S) -> bool:
        """Whether the battle has ended."""
        ...

    def outcome(self, state: S) -> Outcome:
        """The winner or a draw, a score per side and the reason, once the battle is over."""
        ...
