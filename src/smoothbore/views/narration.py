"""A battle narrated as a game report: steps that did something, each with its events,
rolls and rules (``Step.narrate``), and the runs of phases in which nothing was done folded
into one line ("turn 3, D: facing to K: second charges: nothing done"), keeping what those
steps announced (a side to move, a turn begun). Presentation only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from smoothbore.views import action_words, phase_title, roll_words

__all__ = ["ANNOUNCEMENTS", "IDLE_ACTIONS", "is_idle", "report"]

IDLE_ACTIONS = frozenset({"end phase", "pass", "end turn", "end activation", "done",
                          "hold", "end period"})
"""Actions that only close a phase or a side's turn, in words (``action_words``)."""

ANNOUNCEMENTS = frozenset({"phase", "turn", "period", "end", "battle"})
"""Kinds of event that only announce where the battle stands (a side to move, a turn
begun): kept, one line each, in a folded run."""


def is_idle(step: Any, state: object = None, turn: object = None) -> bool:
    """Whether a step did nothing worth a line: it only closed a phase (or passed), rolled
    no dice and announced no more than where the battle stands."""
    words = action_words(step.action, state, turn).split(":")[-1].strip()
    return words in IDLE_ACTIONS and all(
        not event.rolls and event.kind in ANNOUNCEMENTS for event in step.events)


def report(steps: Iterable[Any], state: object = None, turn: object = None, *,
           rules: bool = False, actions: bool = False) -> list[str]:
    """The steps as a game report: each step that did something told by what happened (its
    events, with their rolls, and the rules behind them; the action in words only when
    nothing was said, or with ``actions``), each run of idle steps (``is_idle``) in one
    line, closed by what it announced (a side to move, a turn begun)."""
    lines: list[str] = []
    run: list[Any] = []

    def flush() -> None:
        if run:
            lines.append(_folded(run, turn))
            run.clear()

    for step in steps:
        if is_idle(step, state, turn):
            if run and run[-1].turn != step.turn:
                flush()
            run.append(step)
            if step.events:  # an announcement closes the run it ends
                flush()
            continue
        flush()
        lines.append(_told(step, state, turn, rules=rules, actions=actions))
    flush()
    return lines


def _told(step: Any, state: object, turn: object, *, rules: bool, actions: bool) -> str:
    """One step by what happened: its first event on the step's line, the rest below."""
    where = f"[turn {step.turn}, {phase_title(step.phase, turn)}]"
    if not step.events:
        return f"{where} {action_words(step.action, state, turn)}"
    lines: list[str] = []
    cited: list[str] = []
    for i, event in enumerate(step.events):
        text = event.text + (f" [{event.rule}]" if rules else "")
        lines.append(f"{where} {text}" if i == 0 else f"  {text}")
        lines.extend(f"    {roll_words(roll, rules=rules)}" for roll in event.rolls)
        for rule in (event.rule, *(roll.rule for roll in event.rolls)):
            if rule and rule not in cited:
                cited.append(rule)
    if actions:
        lines.insert(1, f"  action: {action_words(step.action, state, turn)}")
    if cited and not rules:
        lines.append("  (" + "; ".join(cited) + ")")
    return "\n".join(lines)


def _folded(run: Sequence[Any], turn: object) -> str:
    first, last = run[0], run[-1]
    start = phase_title(first.phase, turn)
    if len(run) == 1:
        head = f"[turn {first.turn}, {start}] nothing done"
    else:
        end = phase_title(last.phase, turn)
        span = start if start == end else f"{start} to {end}"
        head = f"[turn {first.turn}, {span}] nothing done ({len(run)} phases)"
    said: list[str] = []
    for step in run:
        for event in step.events:
            if event.text and event.text not in said[-1:]:
                said.append(event.text)
    return head + "".join(f"\n  {text}" for text in said)
