"""Chance: the ``Dice`` through which every rule rolls, a sampling one for play and an
enumerating one behind ``odds`` for exact distributions."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar

import attrs
import numpy as np

from smoothbore.core.checks import Check, description, refuse
from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import EnumerationLimitError, InvalidValueError

__all__ = [
    "DEFAULT_MAX_BRANCHES",
    "DEFAULT_MAX_DEPTH",
    "Dice",
    "Estimate",
    "RngLike",
    "RollRecord",
    "SamplingDice",
    "make_rng",
    "monte_carlo",
    "odds",
]

T = TypeVar("T", bound=Hashable)
R = TypeVar("R", bound=Hashable)

DEFAULT_MAX_BRANCHES = 250_000
"""How many chance branches ``odds`` walks before it stops with EnumerationLimitError."""

DEFAULT_MAX_DEPTH = 1_000
"""How many rolls one chance branch may make before ``odds`` stops with
EnumerationLimitError: a rule that rolls without bound (until a 6) ends there."""


def _setting(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValueError(name, value, "a positive integer")
    return value

RngLike = np.random.Generator | int | None
"""What ``rng`` parameters accept (SPEC 7): a Generator, an int seed, or None."""


class Dice(Protocol):
    """The only way a rule touches chance: ``dice.roll(check, reason=..., rule=...)``."""

    def roll(self, check: Check[T], *, reason: str, rule: str) -> T:
        """Roll ``check`` for ``reason`` under ``rule`` and return its outcome."""
        ...


@attrs.frozen
class RollRecord:
    """One roll made in play: the check, the faces shown, the outcome, why and which rule."""

    check: str
    faces: tuple[int, ...]
    outcome: object
    reason: str
    rule: str

    def narrate(self) -> str:
        """A short line such as ``morale test: 3d12 at or under 8 -> [2, 9, 11] = 1 (rule)``."""
        faces = ", ".join(map(str, self.faces))
        return f"{self.reason}: {self.check} -> [{faces}] = {self.outcome} ({self.rule})"


def make_rng(rng: RngLike) -> np.random.Generator:
    """A numpy Generator from None (fresh entropy), an int seed or a Generator (SPEC 7)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool) and rng >= 0):
        return np.random.default_rng(rng)
    raise InvalidValueError("rng", rng, "None, a non-negative int seed or a numpy Generator")


_BUFFER = 256
_SPAN = 1 << 32


class SamplingDice:
    """Dice that roll for real from a seeded numpy Generator and record every roll.

    Same seed, same sequence of checks: same faces, on any machine. Uniform integers are
    drawn from the Generator in blocks and reduced by rejection, so each face is exact."""

    __slots__ = ("_blocks", "_buffer", "_key", "_record", "_records", "_rng")

    exact = False
    """Sampling dice roll one outcome (staged rules ask, to know they are played)."""

    def __init__(self, rng: RngLike = None, *, record: bool = True) -> None:
        self._rng: np.random.Generator | None = make_rng(rng)
        self._key = b""
        self._blocks = 0
        self._buffer: list[int] = []
        self._records: list[RollRecord | tuple[Any, ...]] = []
        self._record = record

    @classmethod
    def keyed(cls, *key: int, record: bool = True) -> SamplingDice:
        """Dice whose faces come from a counter-mode hash stream (BLAKE2b of the key and a
        block number): as exact and reproducible as a seeded Generator, but free to make, so
        a battle step that rolls nothing costs nothing for its dice."""
        dice = cls.__new__(cls)
        dice._rng = None
        dice._key = ",".join(map(str, key)).encode()
        dice._blocks = 0
        dice._buffer = []
        dice._records = []
        dice._record = record
        return dice

    def _refill(self) -> None:
        if self._rng is not None:
            block = self._rng.integers(0, _SPAN, size=_BUFFER, dtype=np.uint64).tolist()
        else:
            digest = hashlib.blake2b(
                self._key + b"#" + str(self._blocks).encode(), digest_size=64
            ).digest()
            self._blocks += 1
            block = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 64, 4)]
        block.reverse()
        self._buffer.extend(block)

    def _pick(self, n: int) -> int:
        if n < 1 or n > _SPAN:
            raise InvalidValueError("pick", n, f"a number of outcomes from 1 to {_SPAN}")
        limit = _SPAN - _SPAN % n
        buffer = self._buffer
        while True:
            if not buffer:
                self._refill()
            value: int = buffer.pop()
            if value < limit:
                return value % n

    def roll(self, check: Check[T], *, reason: str, rule: str) -> T:
        """Roll ``check`` and record it with its faces, reason and rule (unless these dice
        were made with ``record=False``, as for long Monte Carlo runs)."""
        outcome, faces = check.draw(self._pick)
        if self._record:  # written out as a RollRecord only when someone reads it
            self._records.append((check, faces, outcome, reason, rule))
        return outcome

    def _written(self, start: int) -> tuple[RollRecord, ...]:
        records = self._records
        for i in range(start, len(records)):
            kept = records[i]
            if type(kept) is tuple:
                check, faces, outcome, reason, rule = kept
                records[i] = RollRecord(description(check), faces, outcome, reason, rule)
        return tuple(records[start:])  # type: ignore[arg-type]

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Every roll made so far, in order."""
        return self._written(0)

    def records_since(self, mark: int) -> tuple[RollRecord, ...]:
        """The rolls made after the first ``mark`` ones (``mark = len(dice.records)``)."""
        return self._written(mark)


class _EnumeratingDice:
    """Replays a rule along one chance branch: the outcomes on the path so far, then the
    first outcome of every new check. ``exact`` tells a staged rule that it may answer
    with its whole distribution as one chance node. ``work``: what this branch cost beyond
    one run of the rule, in runs (a chance node that was costly to work out charges each
    of its outcomes a share), for the estimates."""

    __slots__ = ("choices", "denominator", "max_depth", "options", "position", "weight",
                 "work")

    exact = True

    def __init__(self, max_depth: int = DEFAULT_MAX_DEPTH) -> None:
        self.choices: list[int] = []
        self.options: list[tuple[tuple[tuple[Any, int], ...], int]] = []
        self.position = 0
        self.weight = 1
        self.denominator = 1
        self.max_depth = max_depth
        self.work = 0.0

    def roll(self, check: Check[T], *, reason: str, rule: str) -> T:
        i = self.position
        if i == len(self.choices):
            if i >= self.max_depth:
                error = EnumerationLimitError(self.max_depth, "rolls along one chance branch",
                                              setting="max_depth")
                error.args = (
                    f"exact enumeration stopped: one chance branch made more than "
                    f"{self.max_depth:,} rolls (the last for {reason}, {rule}); a rule that "
                    "rolls without bound has no exact distribution: raise max_depth or "
                    "sample it (monte_carlo)",
                )
                raise error
            dist = check.distribution()
            self.options.append((dist.items(), dist.denominator))
            self.choices.append(0)
        items, denominator = self.options[i]
        outcome, weight = items[self.choices[i]]
        self.position = i + 1
        self.weight *= weight
        self.denominator *= denominator
        return outcome  # type: ignore[no-any-return]

    def walked(self) -> float:
        """The share of the tree walked so far, were every branch alike (for estimates)."""
        share = 0.0
        scale = 1.0
        for choice, (items, _) in zip(self.choices, self.options, strict=True):
            scale /= len(items)
            share += choice * scale
        return share + scale

    def advance(self) -> bool:
        """Move to the next branch; False when every branch has been walked."""
        while self.choices:
            last = len(self.choices) - 1
            if self.choices[last] + 1 < len(self.options[last][0]):
                self.choices[last] += 1
                self.position = 0
                self.weight = 1
                self.denominator = 1
                return True
            self.choices.pop()
            self.options.pop()
        return False


Buckets = dict[int, dict[Any, int]]
"""Weights of results grouped by their denominator."""


def walk(
    function: Callable[[Dice], R],
    max_branches: int = DEFAULT_MAX_BRANCHES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    progress: Callable[[float], None] | None = None,
    dice: _EnumeratingDice | None = None,
) -> tuple[Buckets, int]:
    """Call ``function(dice)`` once per chance branch: the results' weights by denominator,
    and the number of branches walked. The size of the tree is estimated from the branches
    walked so far (after the first, then every 256): past ``max_branches`` it stops at once
    with EnumerationLimitError giving the estimate. ``progress`` hears the share of the
    tree walked, as estimated, at each of those points. ``dice``: fresh enumerating dice
    of a kind that knows more (the odds of a step pass their view)."""
    if dice is None:
        dice = _EnumeratingDice(max_depth)
    buckets: Buckets = {}
    branches = 0
    spent = 0.0
    while True:
        branches += 1
        dice.work = 0.0
        result = function(dice)
        spent += 1.0 + dice.work
        bucket = buckets.setdefault(dice.denominator, {})
        bucket[result] = bucket.get(result, 0) + dice.weight
        if branches == 1 or branches & 255 == 0:
            share = dice.walked()
            estimate = int(spent / share)
            if estimate > max_branches:
                raise refuse(max_branches, "chance branches", estimate, "max_branches")
            if progress is not None:
                progress(share)
        if not dice.advance():
            return buckets, branches
        if spent >= max_branches:
            raise refuse(max_branches, "chance branches",
                         max(max_branches + 1, int(spent / dice.walked())), "max_branches")


def merge(buckets: Buckets) -> Distribution[Any]:
    """One distribution from weights grouped by denominator."""
    weights, common = merged(buckets)
    return Distribution.from_weights(weights, common)


def merged(buckets: Buckets) -> tuple[dict[Any, int], int]:
    """Weights grouped by denominator as weights over their least common denominator (the
    caller's dictionaries are left as they were)."""
    common = math.lcm(*buckets)
    if len(buckets) == 1:
        return buckets[common], common
    # start from the largest bucket (a copy keeps the hashes: no outcome is hashed again)
    largest = max(buckets, key=lambda denominator: len(buckets[denominator]))
    scale = common // largest
    weights = (dict(buckets[largest]) if scale == 1
               else {result: weight * scale for result, weight in buckets[largest].items()})
    for denominator, bucket in buckets.items():
        if denominator != largest:
            scale = common // denominator
            for result, weight in bucket.items():
                weights[result] = weights.get(result, 0) + weight * scale
    return weights, common


def odds(
    function: Callable[..., R],
    /,
    *args: Any,
    max_branches: int = DEFAULT_MAX_BRANCHES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    progress: Callable[[float], None] | None = None,
    **kwargs: Any,
) -> Distribution[R]:
    """The exact distribution of the results of a pure rule function.

    ``function(*args, dice=..., **kwargs)`` is called once per chance branch, its rolls
    answered in turn with every outcome of each check (later checks may depend on earlier
    results). A rule written as stages (``core.stages.Staged``) is composed stage by
    stage instead, equal intermediate results merged. Stops with EnumerationLimitError
    when the branches are estimated past ``max_branches``, or one branch rolls more than
    ``max_depth`` times. ``progress(share)`` hears how much of a branch walk is done (a
    progress bar's business)."""
    if not callable(function):
        raise InvalidValueError("function", function, "a rule function to call with dice=")
    max_branches = _setting("max_branches", max_branches)
    max_depth = _setting("max_depth", max_depth)
    staged = getattr(function, "exact_distribution", None)
    if staged is not None:
        exact: Distribution[R] = staged(
            *args, max_branches=max_branches, max_depth=max_depth, **kwargs
        )
        return exact
    buckets, _ = walk(
        lambda dice: function(*args, dice=dice, **kwargs), max_branches, max_depth, progress
    )
    return merge(buckets)


@attrs.frozen
class Estimate(Generic[R]):
    """What Monte Carlo sampling of a rule saw: how often each result came up."""

    counts: tuple[tuple[R, int], ...]
    samples: int

    def count(self, outcome: R) -> int:
        """How many samples gave ``outcome``."""
        return dict(self.counts).get(outcome, 0)

    def probability(self, outcome: R) -> float:
        """The observed frequency of ``outcome``."""
        return self.count(outcome) / self.samples

    def standard_error(self, outcome: R) -> float:
        """The standard error of that frequency."""
        p = self.probability(outcome)
        return math.sqrt(p * (1 - p) / self.samples)

    def agrees_with(self, exact: Distribution[R], sigmas: float = 5.0) -> bool:
        """Whether every frequency lies within ``sigmas`` standard errors (of the exact
        probability) of the exact distribution, and nothing impossible was seen."""
        seen = dict(self.counts)
        if any(exact.weight(outcome) == 0 for outcome in seen):
            return False
        for outcome, weight in exact.items():
            p = weight / exact.denominator
            error = math.sqrt(p * (1 - p) / self.samples)
            if abs(seen.get(outcome, 0) / self.samples - p) > sigmas * error + 1e-12:
                return False
        return True

    def interval(self, outcome: R) -> tuple[float, float]:
        """The 95% Wilson score interval of the frequency of ``outcome``."""
        from smoothbore.core.present import wilson

        return wilson(self.count(outcome), self.samples)

    def __repr__(self) -> str:
        return f"<Estimate: {self.samples:,} samples, {len(self.counts)} outcomes seen>"

    def _repr_html_(self) -> str:
        """The notebook view: each outcome's count, frequency and 95% interval, with bars."""
        from smoothbore.core.present import estimate_html

        return estimate_html(self)


def monte_carlo(
    function: Callable[..., R],
    /,
    *args: Any,
    samples: int,
    rng: RngLike = None,
    **kwargs: Any,
) -> Estimate[R]:
    """Call a rule ``samples`` times with seeded ``SamplingDice`` and count its results: the
    third use of a rule, for mechanisms too long to enumerate exactly."""
    if not callable(function):
        raise InvalidValueError("function", function, "a rule function to call with dice=")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise InvalidValueError("samples", samples, "a positive integer")
    dice = SamplingDice(rng, record=False)
    counts: dict[R, int] = {}
    for _ in range(samples):
        result = function(*args, dice=dice, **kwargs)
        counts[result] = counts.get(result, 0) + 1
    return Estimate(tuple(counts.items()), samples)
