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
    _EnumeratingDice,
    _setting,
    merge,
    merged,
    walk,
)
from smoothbore.core.checks import Check, Pick, draw_samples, refuse
from smoothbore.core.distribution import Distribution
from smoothbore.core.engine import Log
from smoothbore.core.errors import InvalidValueError

__all__ = [
    "CLOSING_STATE_WORK",
    "DEFAULT_MAX_STEP_BRANCHES",
    "Again",
    "Done",
    "PickDice",
    "Roll",
    "Staged",
    "StagedCheck",
    "closing",
    "odds_of_step",
]

DEFAULT_MAX_STEP_BRANCHES = 10_000
"""How many chance branches ``odds_of_step`` walks by default: each replays the whole
handler of the step (a tenth to half a millisecond for a charge); each state a closing
rule composes counts as ``CLOSING_STATE_WORK`` of one."""

CLOSING_STATE_WORK = 0.125
"""What one state composed by a closing rule (``closing``) counts for against the
branches of ``odds_of_step``: about what it costs beside one run of a handler."""

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


@attrs.frozen(slots=True)
class Roll(Generic[V]):
    """What a stage returns to make its outcome the outcome of ``check``, rolled for
    ``reason`` under ``rule`` (the check's outcomes, or ``then(outcome)``, are what the
    stage would return: next values, ``Again`` or ``Done``). In play the check is rolled;
    exact odds take its distribution as it stands instead of running the stage again for
    each outcome."""

    check: Check[Any]
    reason: str
    rule: str
    then: Callable[[Any], V] | None = None

    def rolled(self, dice: Dice) -> V:
        """Roll it with ``dice``: what the stage returns."""
        outcome = dice.roll(self.check, reason=self.reason, rule=self.rule)
        return outcome if self.then is None else self.then(outcome)


Stage = Callable[..., Any]
"""``stage(context, value, *, dice)``: the next value, ``Again(value)``, ``Done(result)``
or ``Roll(check, reason, rule)``."""


class Staged(Generic[R]):
    """A rule as stages. ``begin(*args, **kwargs)`` gives ``(context, value)`` without
    rolling: the context holds what every stage reads and never changes (the units, the
    facts); the value is the first intermediate result. Each stage
    ``stage(context, value, *, dice)`` rolls what it needs and returns the next value (a
    hashable value holding only what later stages and the result depend on), ``Again`` or
    ``Done``, or ``Roll`` to let a check's outcome be what it returns.
    ``finish(context, value)`` turns the last value into the result, without rolling
    (None: the last stage's values are the results). ``one_to_one``: the rule's author
    vouches that ``finish`` gives different results for different values, none equal to a
    result a stage gave with ``Done``, so exact odds need not look for equal results to
    merge after it (which hashes every result: costly where there are a great many)."""

    def __init__(
        self,
        name: str,
        rule: str,
        begin: Callable[..., tuple[Any, Hashable]],
        stages: tuple[Stage, ...],
        finish: Callable[[Any, Any], R] | None = None,
        doc: str = "",
        *,
        one_to_one: bool = False,
    ) -> None:
        if not stages:
            raise InvalidValueError("Staged.stages", stages, "at least one stage")
        self.name = name
        self.rule = rule
        self.begin = begin
        self.stages = tuple(stages)
        self.finish = finish
        self.one_to_one = one_to_one
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
            if type(value) is Roll:
                value = value.rolled(dice)
            while type(value) is Again:
                value = stage(context, value.value, dice=dice)
                if type(value) is Roll:
                    value = value.rolled(dice)
            if type(value) is Done:
                return value.result  # type: ignore[no-any-return]
        if self.finish is None:
            return value  # type: ignore[return-value]
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
        return self._exact(args, kwargs, max_branches, max_depth, None)

    def _exact(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], max_branches: int, max_depth: int,
        project: Callable[[R], Hashable] | None, counted: list[int] | None = None,
    ) -> Distribution[R]:
        # the work allocates many small values and frees none until the end: the cyclic
        # collector would rescan them again and again (and there are no cycles to find)
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._compose(args, kwargs, max_branches, max_depth, project, counted)
        finally:
            if collecting:
                gc.enable()

    def _compose(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], max_branches: int, max_depth: int,
        project: Callable[[R], Hashable] | None = None, counted: list[int] | None = None,
    ) -> Distribution[R]:
        """The distribution of the result or, with ``project``, of the results grouped by
        their projection, each group shown by one of its results (``counted`` hears how
        many results were projected)."""
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
                rolls: list[tuple[int, Roll[Any]]] = []
                for weight, buckets in parts:
                    for denominator, bucket in buckets.items():
                        scale = weight * (common // denominator)
                        for value, inner in bucket.items():
                            kind = type(value)
                            if kind is Roll:
                                rolls.append((scale * inner, value))
                                continue
                            if kind is Done:
                                target, key = done, value.result
                            elif kind is Again:
                                target, key = again.weights, value.value
                            else:
                                target, key = moved, value
                            target[key] = target.get(key, 0) + scale * inner
                denominator = pending.denominator * common
                if rolls:
                    taken = [(weight, roll.check.distribution(), roll.then)
                             for weight, roll in rolls]
                    budget -= sum(len(dist) for _, dist, _ in taken)
                    if budget < 0:
                        raise refuse(max_branches, "chance branches", max_branches - budget,
                                     "max_branches")
                    denominator *= _take_rolls(taken, done, again.weights, moved)
                _gather(finished, denominator, done)
                following.add(moved, denominator)
                again.denominator = denominator
                pending = again
            frontier = following
        finish = self.finish
        if project is not None:
            return _projected(finished, frontier, context, finish, project, counted)
        if finish is None:
            _gather(finished, frontier.denominator, frontier.weights)
        elif self.one_to_one and frontier.weights:
            results = [(finish(context, value), weight)
                       for value, weight in frontier.weights.items()]
            return _with_distinct(finished, results, frontier.denominator).reduced()
        elif frontier.weights:
            bucket = finished.setdefault(frontier.denominator, {})
            for value, weight in frontier.weights.items():
                result = finish(context, value)
                bucket[result] = bucket.get(result, 0) + weight
        return merge(finished).reduced()


def _projected(
    finished: Buckets, frontier: _Bag, context: Any, finish: Callable[[Any, Any], Any] | None,
    project: Callable[[Any], Hashable], counted: list[int] | None,
) -> Distribution[Any]:
    """The results grouped by ``project``, each group shown by the first result met in it
    (results are only projected, never hashed themselves)."""
    if counted is not None:
        counted.append(len(frontier.weights) + sum(map(len, finished.values())))
    common = math.lcm(frontier.denominator, *finished)
    weights: dict[Hashable, int] = {}
    shown: dict[Hashable, Any] = {}
    parts = [(bucket, denominator) for denominator, bucket in finished.items()]
    parts.append((frontier.weights, frontier.denominator))
    for part, denominator in parts:
        scale = common // denominator
        last = part is frontier.weights
        for value, weight in part.items():
            result = finish(context, value) if last and finish is not None else value
            key = project(result)
            if key not in shown:
                shown[key] = result
            weights[key] = weights.get(key, 0) + weight * scale
    return Distribution._from_distinct(
        [(shown[key], weight) for key, weight in weights.items()], common).reduced()


def _with_distinct(
    finished: Buckets, results: list[tuple[Any, int]], denominator: int
) -> Distribution[Any]:
    """The distribution of the results finished early and of ``results`` (over
    ``denominator``), which differ from each other and from those."""
    if not finished:
        return Distribution._from_distinct(results, denominator)
    early, early_denominator = merged(finished)
    common = math.lcm(denominator, early_denominator)
    scale, early_scale = common // denominator, common // early_denominator
    items = [(result, weight * scale) for result, weight in results]
    items += [(result, weight * early_scale) for result, weight in early.items()]
    return Distribution._from_distinct(items, common)


def _gather(finished: Buckets, denominator: int, results: dict[Any, int]) -> None:
    """Add ``results`` (weights over ``denominator``) to the finished ones (taken as they
    are when nothing has finished over that denominator yet)."""
    if not results:
        return
    bucket = finished.get(denominator)
    if bucket is None:
        finished[denominator] = results
        return
    for result, weight in results.items():
        bucket[result] = bucket.get(result, 0) + weight


def _take_rolls(
    rolls: list[tuple[int, Distribution[Any], Callable[[Any], Any] | None]],
    done: dict[Any, int],
    again: dict[Any, int],
    moved: dict[Any, int],
) -> int:
    """Add the outcomes of the checks stages handed over with ``Roll`` (each with the
    weight of the branch that rolled it, and what to make of each outcome) to what the
    stage gave: the factor by which the stage's denominator grows."""
    extra = math.lcm(*(dist.denominator for _, dist, _ in rolls))
    if extra != 1:
        for target in (done, again, moved):
            for key in target:
                target[key] *= extra
    for weight, dist, then in rolls:
        factor = weight * (extra // dist.denominator)
        for outcome, inner in dist.items():
            value = outcome if then is None else then(outcome)
            kind = type(value)
            if kind is Done:
                target, key = done, value.result
            elif kind is Again:
                target, key = again, value.value
            else:
                target, key = moved, value
            target[key] = target.get(key, 0) + factor * inner
    return extra


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
        dice = PickDice(pick)
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


class PickDice:
    """Dice that roll every check from one source of uniform integers, keeping the faces
    shown (a compound check's ``draw`` rolls its parts with them)."""

    __slots__ = ("faces", "pick")

    exact = False

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
    max_branches = _setting("max_branches", max_branches)
    max_depth = _setting("max_depth", max_depth)
    rule_on = getattr(turn, "rule_on", None)
    if rule_on is not None:  # contract v2: the ruling measured once goes to every branch
        checked, ruling = rule_on(state, action)
    else:
        checked, ruling = turn.check(state, action), None
    project = view if view is not None else _units
    handler = getattr(checked, "handler", None)
    extra = (ruling,) if getattr(checked, "ruled", False) else ()

    def step(dice: _StepDice) -> Hashable:
        dice.closed = None
        if handler is not None:  # an engine's action rule: checked once, not per branch
            new = handler(state, action, Log(dice), *extra)
        else:
            new, _ = turn.apply(state, action, dice)
        if dice.closed is not None and new is not dice.closed and dice.position != dice.closed_at:
            raise InvalidValueError(
                "handler", getattr(handler, "__name__", handler),
                "a handler that rolls nothing after its closing rule",
            )
        return project(new)

    buckets, _ = walk(step, max_branches, max_depth,  # type: ignore[arg-type]
                      dice=_StepDice(project, max_depth))
    return merge(buckets)


class _StepDice(_EnumeratingDice):
    """Enumerating dice for the odds of one step: they know the step's ``view``, so a
    handler's ``closing`` rule hands back one state per distinct view (``closed``), and
    what each closing rule cost to compose (``costs``, by position on the branch)."""

    __slots__ = ("closed", "closed_at", "costs", "view")

    def __init__(self, view: Callable[[Any], Hashable], max_depth: int) -> None:
        super().__init__(max_depth)
        self.view = view
        self.closed: Any = None
        self.closed_at = -1
        self.costs: dict[int, float] = {}

    def close(self, rule: Staged[R], args: tuple[Any, ...], kwargs: dict[str, Any]) -> R:
        position = self.position
        check = _Closing(rule, args, kwargs, self.view)
        state: R = self.roll(check, reason=rule.name, rule=rule.rule)
        if check.cost:  # composed just now: each of its outcomes carries a share of it
            self.costs[position] = (check.cost * CLOSING_STATE_WORK
                                    / len(self.options[position][0]))
        self.work += self.costs.get(position, 0.0)
        self.closed = state
        self.closed_at = self.position
        return state


class _Closing(Generic[R]):
    """A step's closing rule with its arguments as one check: its results grouped by the
    view of the step, each group shown by one of its states; ``cost``: the results it
    composed (0 until then)."""

    __slots__ = ("args", "cost", "kwargs", "rule", "view")

    def __init__(self, rule: Staged[R], args: tuple[Any, ...], kwargs: dict[str, Any],
                 view: Callable[[Any], Hashable]) -> None:
        self.rule = rule
        self.args = args
        self.kwargs = kwargs
        self.view = view
        self.cost = 0

    def distribution(self) -> Distribution[R]:
        counted: list[int] = []
        made = self.rule._exact(self.args, self.kwargs, DEFAULT_MAX_BRANCHES,
                                DEFAULT_MAX_DEPTH, self.view, counted)
        self.cost = sum(counted)
        return made

    def draw(self, pick: Pick) -> tuple[R, tuple[int, ...]]:
        dice = PickDice(pick)
        return self.rule.play(*self.args, dice=dice, **self.kwargs), tuple(dice.faces)

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        return draw_samples(self, rng, size)

    def describe(self) -> str:
        return f"{self.rule.name}, every stage, by what the view shows"


def closing(rule: Staged[R], *args: Any, dice: Dice, **kwargs: Any) -> R:
    """The rest of a battle step as one staged rule whose result is the new state; the
    handler returns what this returns, or tidies it without rolling (keeping a table in
    step with the units), in a way the step's view sees alike for states it sees alike.
    In play (and in any other enumeration)
    it is ``rule(*args, dice=dice)``. In the exact odds of a step, the rule is composed
    once and its states are grouped by the step's view before the handler sees them, so
    outcomes that look alike (say, commanders' risk rolls under a view of the units) merge
    before they multiply the branches of the step."""
    if isinstance(dice, _StepDice):
        return dice.close(rule, args, kwargs)
    return rule(*args, dice=dice, **kwargs)


def _units(state: Any) -> Hashable:
    units: Hashable = state.units
    return units
