"""Turn drivers: play a ruleset's turn from a battle state, one action at a time, with a
policy choosing among the legal actions. Every step is pure, so a played battle is the
initial state plus its list of actions, and replays exactly."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs
import numpy as np

from smoothbore.core.chance import RngLike, make_rng
from smoothbore.core.errors import InvalidValueError
from smoothbore.core.events import Event
from smoothbore.core.protocols import Turn

__all__ = ["Played", "Policy", "Step", "brief", "play", "random_policy", "replay"]

S = TypeVar("S")
A = TypeVar("A")

Policy = Callable[[S, tuple[A, ...]], A]
"""Chooses one of the legal actions in a state."""


@attrs.frozen
class Step(Generic[A]):
    """One action taken, in which turn and phase, and what happened."""

    turn: int
    phase: str
    action: A
    events: tuple[Event, ...]

    def narrate(self) -> str:
        """The action, then each event with its rolls."""
        lines = [f"[turn {self.turn}, {self.phase}] {brief(self.action)}"]
        lines.extend("  " + line for e in self.events for line in e.narrate().splitlines())
        return "\n".join(lines)


@attrs.frozen
class Played(Generic[S, A]):
    """A battle played from ``start``: every step, and the state it ended in."""

    start: S
    steps: tuple[Step[A], ...]
    end: S

    def narrate(self) -> str:
        """The whole battle, step by step."""
        return "\n".join(step.narrate() for step in self.steps)


def brief(value: object) -> str:
    """An action (or any attrs value) as its class and the fields that differ from their
    defaults, nested values alike: ``Fire(firer='b2', target='r2', facts=FireFacts(range=6))``."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if not attrs.has(type(value)):
        return repr(value)
    shown = []
    for field in attrs.fields(type(value)):  # type: ignore[arg-type]
        current = getattr(value, field.name)
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory(value) if default.takes_self else default.factory()
        if default is attrs.NOTHING or current != default:
            shown.append(f"{field.name}={brief(current)}")
    return f"{type(value).__name__}({', '.join(shown)})"


def random_policy(rng: RngLike = None) -> Policy[Any, Any]:
    """A policy that picks uniformly among the legal actions, from a seeded generator
    (SPEC 7: None, an int seed or a numpy Generator)."""
    generator: np.random.Generator = make_rng(rng)

    def choose(state: Any, actions: tuple[Any, ...]) -> Any:
        return actions[int(generator.integers(len(actions)))]

    return choose


def play(
    turn: Turn[S, A],
    state: S,
    policy: Policy[S, A],
    *,
    max_steps: int = 1_000,
    until: Callable[[S], bool] | None = None,
) -> Played[S, A]:
    """Step ``state`` with the actions ``policy`` chooses until no action is legal, ``until``
    holds, or ``max_steps`` actions have been taken."""
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise InvalidValueError("max_steps", max_steps, "an integer of 0 or more")
    start, steps = state, []
    for _ in range(max_steps):
        if until is not None and until(state):
            break
        actions = turn.legal_actions(state)
        if not actions:
            break
        action = policy(state, actions)
        where = (getattr(state, "turn", 0), getattr(state, "phase", ""))
        state, events = turn.step(state, action)
        steps.append(Step(where[0], where[1], action, events))
    return Played(start, tuple(steps), state)


def replay(turn: Turn[S, A], start: S, actions: Sequence[A]) -> Played[S, A]:
    """Apply a recorded list of actions to ``start``: the same battle, step for step."""
    state, steps = start, []
    for action in actions:
        where = (getattr(state, "turn", 0), getattr(state, "phase", ""))
        state, events = turn.step(state, action)
        steps.append(Step(where[0], where[1], action, events))
    return Played(start, tuple(steps), state)
