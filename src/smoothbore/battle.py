"""Turn drivers: play a ruleset's turn from a battle state, one action at a time, with a
policy choosing among the legal actions, until the battle ends by its rules. Every step is
pure, so a played battle is the initial state plus its list of actions, and replays exactly.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs
import numpy as np

from smoothbore.core.chance import RngLike, make_rng
from smoothbore.core.engine import Outcome
from smoothbore.core.errors import IllegalActionError, InvalidValueError
from smoothbore.core.events import Event
from smoothbore.core.protocols import Turn
from smoothbore.core.ruleset import spell

__all__ = [
    "MAX_STEPS",
    "Played",
    "Policy",
    "RandomPolicy",
    "Step",
    "Stop",
    "brief",
    "play",
    "random_policy",
    "replay",
    "unit_table",
]

S = TypeVar("S")
A = TypeVar("A")

Policy = Callable[[S, tuple[A, ...]], A]
"""Chooses one of the legal actions in a state."""

MAX_STEPS = 5_000
"""How many actions ``play`` takes at most by default: every embedded battle ends well
within it."""


class Stop(enum.Enum):
    """Why a driver stopped."""

    OVER = "the battle is over"
    UNTIL = "the stopping condition holds"
    MAX_STEPS = "the step limit was reached"
    NO_ACTION = "no action is legal"
    REPLAYED = "every recorded action was replayed"


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
    """A battle played from ``start``: every step, the state it ended in, and its
    ``outcome`` (None when the battle is not over). ``stop`` says why the driver stopped; it
    is not part of the battle, so a replay equals the battle it replays."""

    start: S
    steps: tuple[Step[A], ...]
    end: S
    outcome: Outcome | None
    stop: Stop = attrs.field(eq=False)

    @property
    def finished(self) -> bool:
        """Whether the battle ended by its rules (or its scenario's conditions)."""
        return self.outcome is not None

    @property
    def turns(self) -> int:
        """How many turns saw at least one action: from the first step's turn to the
        last's."""
        if not self.steps:
            return 0
        return self.steps[-1].turn - self.steps[0].turn + 1

    def actions(self) -> tuple[A, ...]:
        """The actions taken, in order: with ``start``, the whole record of the battle."""
        return tuple(step.action for step in self.steps)

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


class RandomPolicy:
    """A policy that picks uniformly among the legal actions, from a seeded generator (SPEC
    7: None, an int seed or a numpy Generator). It pickles with its generator's state, so it
    travels to worker processes."""

    __slots__ = ("generator",)

    def __init__(self, rng: RngLike = None) -> None:
        self.generator: np.random.Generator = make_rng(rng)

    def __call__(self, state: object, actions: Sequence[A]) -> A:
        if not actions:
            raise InvalidValueError("actions", (), "at least one legal action to choose from")
        return actions[int(self.generator.integers(len(actions)))]

    def __getstate__(self) -> np.random.Generator:
        return self.generator

    def __setstate__(self, generator: np.random.Generator) -> None:
        self.generator = generator

    def __repr__(self) -> str:
        return f"RandomPolicy({self.generator!r})"


def random_policy(rng: RngLike = None) -> RandomPolicy:
    """A policy that picks uniformly among the legal actions, seeded by ``rng``; also the
    default policy factory of ``simulate`` (a seed in, a policy out)."""
    return RandomPolicy(rng)


def play(
    turn: Turn[S, A],
    state: S,
    policy: Policy[S, A],
    *,
    max_steps: int = MAX_STEPS,
    until: Callable[[S], bool] | None = None,
) -> Played[S, A]:
    """Step ``state`` with the actions ``policy`` chooses until the battle is over
    (``turn.is_over``), ``until`` holds, ``max_steps`` actions have been taken or, should a
    ruleset allow it, no action is legal. Only the first ends the battle: the others leave
    it unfinished (``Played.outcome`` None)."""
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise InvalidValueError("max_steps", max_steps, "an integer of 0 or more")
    start = state
    steps: list[Step[A]] = []
    while True:
        if turn.is_over(state):
            return Played(start, tuple(steps), state, turn.outcome(state), Stop.OVER)
        if until is not None and until(state):
            stop = Stop.UNTIL
            break
        if len(steps) >= max_steps:
            stop = Stop.MAX_STEPS
            break
        actions = turn.legal_actions(state)
        if not actions:
            stop = Stop.NO_ACTION
            break
        action = policy(state, actions)
        state, step = _step(turn, state, action, len(steps))
        steps.append(step)
    return Played(start, tuple(steps), state, None, stop)


def replay(turn: Turn[S, A], start: S, actions: Sequence[A]) -> Played[S, A]:
    """Apply a recorded list of actions to ``start``: the same battle, step for step. An
    action that ``step`` refuses raises its error with the step number (counted from 1:
    step n is ``actions[n - 1]``), turn and phase."""
    state = start
    steps: list[Step[A]] = []
    for action in actions:
        state, step = _step(turn, state, action, len(steps))
        steps.append(step)
    if turn.is_over(state):
        return Played(start, tuple(steps), state, turn.outcome(state), Stop.OVER)
    return Played(start, tuple(steps), state, None, Stop.REPLAYED)


def _step(turn: Turn[S, A], state: S, action: A, index: int) -> tuple[S, Step[A]]:
    where = (getattr(state, "turn", 0), getattr(state, "phase", ""))
    try:
        new, events = turn.step(state, action)
    except IllegalActionError as error:
        raise IllegalActionError(
            error.action, f"at step {index + 1} (turn {where[0]}, {where[1]}): {error.why}",
            error.rule,
        ) from error
    except InvalidValueError as error:
        raise InvalidValueError(
            f"step {index + 1} (turn {where[0]}, {where[1]}): {error.field}", error.value,
            error.allowed,
        ) from error
    return new, Step(where[0], where[1], action, events)


def unit_table(end: Any, start: Any = None) -> str:
    """Each unit of ``end`` (a BattleState) in a row: side, id and name, then every field
    that changed for some unit since ``start``, as ``was→now`` where it changed (without
    ``start``, every field that differs from its default for some unit)."""
    units = tuple(end.units)
    before = {getattr(u, "id", None): u for u in (start.units if start is not None else ())}
    columns = _changed_fields(units, before, compare_defaults=start is None)
    head = ["side", "id", "name", *columns]
    rows = []
    for unit in units:
        was = before.get(unit.id)
        cells = [unit.side, unit.id, unit.name]
        for name in columns:
            now = _cell(getattr(unit, name))
            if was is not None and getattr(was, name) != getattr(unit, name):
                now = f"{_cell(getattr(was, name))}→{now}"
            cells.append(now)
        rows.append(cells)
    widths = [max(len(str(row[i])) for row in (head, *rows)) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in (head, *rows)]
    if not columns and start is not None:
        lines.append("(no unit has changed)")
    return "\n".join(lines)


_IDENTITY = ("id", "name", "side")


def _changed_fields(units: tuple[Any, ...], before: dict[Any, Any], *, compare_defaults: bool
                    ) -> list[str]:
    columns: list[str] = []
    for unit in units:
        if not attrs.has(type(unit)):
            continue
        was = before.get(unit.id)
        for field in attrs.fields(type(unit)):
            if field.name in _IDENTITY or field.name in columns:
                continue
            now = getattr(unit, field.name)
            if was is not None:
                changed = getattr(was, field.name, now) != now
            elif compare_defaults:
                default = field.default
                if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                    default = default.factory(unit) if default.takes_self else default.factory()
                changed = default is attrs.NOTHING or default != now
            else:
                changed = False
            if changed:
                columns.append(field.name)
    order: dict[str, int] = {}
    for unit in units:
        if attrs.has(type(unit)):
            for i, field in enumerate(attrs.fields(type(unit))):
                order.setdefault(field.name, i)
    return sorted(columns, key=lambda name: order[name])


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool | enum.Enum):
        return spell(value)
    text = brief(value) if attrs.has(type(value)) else str(value)
    return text if len(text) <= 40 else text[:39] + "…"
