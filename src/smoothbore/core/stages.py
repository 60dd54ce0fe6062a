"""Staged composition: a rule written as stages whose intermediate results are hashable
values, so that its exact odds carry a distribution from stage to stage and merge equal
intermediate results (dynamic programming) instead of walking every chance branch; and the
exact odds of one battle step.

A ``Staged`` rule is called like any rule, ``rule(*args, dice=dice)``: in play each stage
rolls through the dice in turn. ``odds(rule, *args)`` composes it: the distribution of the
values after each stage, each distinct value's next stage enumerated once. Inside another
rule's enumeration (``odds`` of a mechanism that calls it, ``odds_of_step`` of a handler)
a staged rule answers as one chance node with its whole distribution, worked out once per
distinct arguments.
"""

from __future__ import annotations

import functools
import gc
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core.chance import (
    DEFAULT_MAX_BRANCHES,
    DEFAULT_MAX_DEPTH,
    Buckets,
    Dice,
    _setting,
    merge,
    odds,
    walk,
)
from smoothbore.core.checks import Check, Pick, refuse
from smoothbore.core.distribution import Distribution
from smoothbore.core.engine import Log
from smoothbore.core.errors import InvalidValueError

__all__ = ["DEFAULT_MAX_STEP_BRANCHES", "Again", "Done", "Staged", "StagedCheck", "odds_of_step"]

DEFAULT_MAX_STEP_BRANCHES = 10_000
"""How many chance branches ``odds_of_step`` walks by default: each replays the whole
handler of the step (a tenth to half a millisecond for a charge)."""

R = TypeVar("R", bound=Hashable)
V = TypeVar("V", bound=Hashable)


@attrs.frozen(slots=True)
class Done(Generic[R]):
    """What a stage returns to end the rule early with ``result``."""

    result: R


@attrs.frozen(slots=True)
class Again(Generic[V]):
    """What a stage returns to run once more on ``value`` (a loop: one unit at a time)."""

    value: V


Stage = Callable[..., Any]
"""``stage(context, value, *, dice)``: the next value, ``Again(value)`` or ``Done(result)``."""


class Staged(Generic[R]):
    """A rule as stages. ``begin(*args, **kwargs)`` gives ``(context, value)`` without
    rolling: the context holds what every stage reads and never changes (the units, the
    facts); the value is the first intermediate result. Each stage
    ``stage(context, value, *, dice)`` rolls what it needs and returns the next value (a
    hashable value holding only what later stages and the result depend on), ``Again`` or
    ``Done``. ``finish(context, value)`` turns the last value into the result, without
    rolling."""

    def __init__(
        self,
        name: str,
        rule: str,
        begin: Callable[..., tuple[Any, Hashable]],
        stages: tuple[Stage, ...],
        finish: Callable[[Any, Any], R],
        doc: str = "",
    ) -> None:
        if not stages:
            raise InvalidValueError("Staged.stages", stages, "at least one stage")
        self.name = name
        self.rule = rule
        self.begin = begin
        self.stages = tuple(stages)
        self.finish = finish
        self.__name__ = name
        self.__doc__ = doc or f"{name} ({rule}), written as stages."

    def __repr__(self) -> str:
        return f"Staged({self.name!r}, {len(self.stages)} stages)"

    # play ---------------------------------------------------------------------------------
    def __call__(self, *args: Any, dice: Dice, **kwargs: Any) -> R:
        """Play the rule: every stage in turn rolls through ``dice``. Dice that enumerate
        (``exact``) receive the whole rule as one chance node instead."""
        if getattr(dice, "exact", False):
            check = StagedCheck(self, args, tuple(sorted(kwargs.items())))
            return dice.roll(check, reason=self.name, rule=self.rule)
        return self.play(*args, dice=dice, **kwargs)

    def play(self, *args: Any, dice: Dice, **kwargs: Any) -> R:
        """Run every stage in turn with ``dice``, whatever they are: ``odds(rule.play,
        ...)`` walks every chance branch of the same definition (a brute-force check)."""
        context, value = self.begin(*args, **kwargs)
        for stage in self.stages:
            value = stage(context, value, dice=dice)
            while type(value) is Again:
                value = stage(context, value.value, dice=dice)
            if type(value) is Done:
                return value.result  # type: ignore[no-any-return]
        return self.finish(context, value)

    def check(self, *args: Any, **kwargs: Any) -> StagedCheck[R]:
        """The rule with these arguments as one check (its whole distribution as one chance
        node): a rule that makes the same call on many branches may keep it."""
        return StagedCheck(self, args, tuple(sorted(kwargs.items())))

    # exact odds ---------------------------------------------------------------------------
    def exact_distribution(
        self,
        *args: Any,
        max_branches: int = DEFAULT_MAX_BRANCHES,
        max_depth: int = DEFAULT_MAX_DEPTH,
        **kwargs: Any,
    ) -> Distribution[R]:
        """The exact distribution of the result, composed stage by stage: each distinct
        intermediate value's stage is enumerated once and equal values merge. Stops with
        EnumerationLimitError when the branches enumerated over all stages would pass
        ``max_branches``."""
        max_branches = _setting("max_branches", max_branches)
        max_depth = _setting("max_depth", max_depth)
        # the work allocates many small values and frees none until the end: the cyclic
        # collector would rescan them again and again (and there are no cycles to find)
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._compose(args, kwargs, max_branches, max_depth)
        finally:
            if collecting:
                gc.enable()

    def _compose(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], max_branches: int, max_depth: int
    ) -> Distribution[R]:
        context, first = self.begin(*args, **kwargs)
        finished: Buckets = {}
        frontier = _Bag({first: 1}, 1)
        budget = max_branches
        for stage in self.stages:
            following = _Bag({}, 1)
            pending = frontier
            while pending.weights:
                again = _Bag({}, 1)
                done: dict[Any, int] = {}
                moved: dict[Any, int] = {}
                common, parts, used = _expand(stage, context, pending, budget, max_depth)
                budget -= used
                for weight, buckets in parts:
                    for denominator, bucket in buckets.items():
                        scale = weight * (common // denominator)
                        for value, inner in bucket.items():
                            kind = type(value)
                            if kind is Done:
                                target, key = done, value.result
                            elif kind is Again:
                                target, key = again.weights, value.value
                            else:
                                target, key = moved, value
                            target[key] = target.get(key, 0) + scale * inner
                denominator = pending.denominator * common
                if done:
                    bucket = finished.setdefault(denominator, {})
                    for result, weight in done.items():
                        bucket[result] = bucket.get(result, 0) + weight
                following.add(moved, denominator)
                again.denominator = denominator
                pending = again
            frontier = following
        if frontier.weights:
            bucket = finished.setdefault(frontier.denominator, {})
            finish = self.finish
            for value, weight in frontier.weights.items():
                result = finish(context, value)
                bucket[result] = bucket.get(result, 0) + weight
        return merge(finished).reduced()


@attrs.define
class _Bag:
    """Weights of values over one denominator."""

    weights: dict[Any, int]
    denominator: int

    def add(self, weights: dict[Any, int], denominator: int) -> None:
        if not weights:
            return
        if not self.weights:
            self.weights, self.denominator = weights, denominator
            return
        common = math.lcm(self.denominator, denominator)
        mine, theirs = common // self.denominator, common // denominator
        if mine != 1:
            self.weights = {v: w * mine for v, w in self.weights.items()}
        target = self.weights
        for value, weight in weights.items():
            target[value] = target.get(value, 0) + weight * theirs
        self.denominator = common


def _expand(
    stage: Stage, context: Any, pending: _Bag, budget: int, max_depth: int
) -> tuple[int, list[tuple[int, Buckets]], int]:
    """Enumerate ``stage`` once for each distinct value: the common denominator of the
    stage's own chances, (weight, results by denominator) per value, and branches used."""
    parts: list[tuple[int, Buckets]] = []
    used = 0
    denominators: set[int] = set()
    for value, weight in pending.weights.items():
        buckets, branches = walk(
            functools.partial(_run, stage, context, value), max(1, budget - used), max_depth
        )
        used += branches
        if used > budget:
            raise refuse(budget, "chance branches", used, "max_branches")
        denominators.update(buckets)
        parts.append((weight, buckets))
    return math.lcm(*denominators), parts, used


def _run(stage: Stage, context: Any, value: Any, dice: Dice) -> Any:
    return stage(context, value, dice=dice)


# --- a staged rule as one check ------------------------------------------------------------
@attrs.frozen(eq=False)
class StagedCheck(Generic[R]):
    """A staged rule with its arguments, as one check: its exact distribution (composed
    stage by stage, kept for the last few distinct arguments) and its draw (every stage
    rolled from the same source of uniform integers, every face shown)."""

    rule: Staged[R]
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...] = ()
    _exact: list[Distribution[R]] = attrs.field(factory=list, repr=False)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, StagedCheck)
            and self.rule is other.rule
            and self.args == other.args
            and self.kwargs == other.kwargs
        )

    def __hash__(self) -> int:
        return hash((id(self.rule), self.args, self.kwargs))

    def distribution(self) -> Distribution[R]:
        """The rule's exact distribution for these arguments."""
        if self._exact:
            return self._exact[0]
        try:
            made = _staged_exact(self)
        except TypeError:  # arguments that do not hash: composed afresh
            made = self.rule.exact_distribution(*self.args, **dict(self.kwargs))
        self._exact.append(made)
        return made

    def draw(self, pick: Pick) -> tuple[R, tuple[int, ...]]:
        dice = _PickDice(pick)
        result = self.rule(*self.args, dice=dice, **dict(self.kwargs))
        return result, tuple(dice.faces)

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        def pick(n: int) -> int:
            return int(rng.integers(n))

        out = np.empty(size, dtype=object)
        for i in range(size):
            out[i] = self.draw(pick)[0]
        return out

    def describe(self) -> str:
        return f"{self.rule.name}, every stage"


KEPT_OUTCOMES = 1_000_000
"""How many outcomes, over all kept distributions, staged rules keep for arguments met
again (the oldest are dropped first)."""

_kept: OrderedDict[StagedCheck[Any], Distribution[Any]] = OrderedDict()


def _staged_exact(check: StagedCheck[Any]) -> Distribution[Any]:
    found = _kept.get(check)
    if found is not None:
        _kept.move_to_end(check)
        return found
    made = check.rule.exact_distribution(*check.args, **dict(check.kwargs))
    _kept[check] = made
    total = sum(map(len, _kept.values()))
    while total > KEPT_OUTCOMES and len(_kept) > 1:
        _, dropped = _kept.popitem(last=False)
        total -= len(dropped)
    return made


class _PickDice:
    """Dice that roll every check from one source of uniform integers, keeping the faces."""

    __slots__ = ("faces", "pick")

    def __init__(self, pick: Pick) -> None:
        self.pick = pick
        self.faces: list[int] = []

    def roll(self, check: Check[Any], *, reason: str, rule: str) -> Any:
        outcome, faces = check.draw(self.pick)
        self.faces.extend(faces)
        return outcome


# --- the odds of a battle step -------------------------------------------------------------
def odds_of_step(
    turn: Any,
    state: Any,
    action: Any,
    *,
    view: Callable[[Any], Hashable] | None = None,
    max_branches: int = DEFAULT_MAX_STEP_BRANCHES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> Distribution[Any]:
    """The exact distribution of what ``action`` does to ``state``: the handler is run
    through enumerating dice (``turn.apply(state, action, dice)``; staged rules inside it
    answer as one chance node each), every resulting state is projected by ``view`` (for
    example each unit's status and losses; None: the units themselves) and equal
    projections merge. The action is checked once first: IllegalActionError if the rules
    forbid it now. Each chance branch replays the whole handler, so ``max_branches`` (the
    handler runs) defaults to ``DEFAULT_MAX_STEP_BRANCHES``, a few seconds at most; past
    it, estimated from the branches walked, EnumerationLimitError."""
    checked = turn.check(state, action)
    project = view if view is not None else _units
    handler = getattr(checked, "handler", None)

    def step(*, dice: Dice) -> Hashable:
        if handler is not None:  # an engine's action rule: checked once, not per branch
            return project(handler(state, action, Log(dice)))
        new, _ = turn.apply(state, action, dice)
        return project(new)

    return odds(step, max_branches=max_branches, max_depth=max_depth)


def _units(state: Any) -> Hashable:
    units: Hashable = state.units
    return units
