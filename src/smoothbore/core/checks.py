"""Checks: declarative descriptions of one roll, each with its exact distribution, a
one-roll sampler that shows its faces, and a vectorised numpy sampler."""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Callable, Hashable
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core.dice import D12, Die
from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import EnumerationLimitError, InvalidValueError

__all__ = [
    "MAX_CONVOLUTION_CELLS",
    "MAX_EXACT_BITS",
    "MAX_FACE_COMBINATIONS",
    "MAX_SAMPLE_SIZE",
    "Band",
    "Check",
    "DrawCheck",
    "FacesCheck",
    "OpposedCheck",
    "PoolCheck",
    "TableCheck",
    "ThresholdCheck",
    "TotalCheck",
    "draw_samples",
    "refuse",
]

T = TypeVar("T", bound=Hashable)
Pick = Callable[[int], int]
"""A source of chance: ``pick(n)`` returns a uniform integer in [0, n)."""

MAX_FACE_COMBINATIONS = 2_000_000
"""The most face combinations a check enumerates directly for its exact distribution."""

MAX_CONVOLUTION_CELLS = 2_000_000
"""The most cells the convolution of a sum of dice fills (one per reachable partial total
per die added; about 0.3 s): past it the exact distribution is refused at once."""

MAX_EXACT_BITS = 1 << 28
"""The most bits an exact distribution's weights may take together (32 MiB): a pool of
n dice has n + 1 weights of about n * log2(sides) bits each."""


MAX_SAMPLE_SIZE = 10_000_000
"""The most outcomes one ``sample`` call draws (80 MB of int64): past it, call it in
batches. An array of 10**10 outcomes would need 75 GiB (a MemoryError, issue 28)."""


def sample_size(size: object) -> int:
    """``size`` checked for ``Check.sample``: an integer from 0 to ``MAX_SAMPLE_SIZE``, else
    an InvalidValueError naming ``size`` (not numpy's ValueError or a MemoryError)."""
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or not (
            0 <= size <= MAX_SAMPLE_SIZE):
        raise InvalidValueError("size", size, f"an integer from 0 to {MAX_SAMPLE_SIZE:,} (the "
                                "outcomes one call draws; draw more in batches)")
    return int(size)


def _integer_modifier(owner: str) -> Callable[[Any, Any, Any], None]:
    """A validator: a check's modifier is an integer (dice totals are whole numbers)."""

    def check(_: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidValueError(f"{owner}.{attribute.name}", value, "an integer")

    return check


def refuse(limit: int, what: str, estimate: int, setting: str) -> EnumerationLimitError:
    """The error for exact work estimated past its limit, before any of it is done: it
    names the estimate, the limit and the setting that raises it."""
    return EnumerationLimitError(limit, what, estimate, setting)


@runtime_checkable
class Check(Protocol[T]):
    """What every check offers: its exact distribution and two ways to sample it."""

    def distribution(self) -> Distribution[T]:
        """The exact distribution of the outcome."""
        ...

    def draw(self, pick: Pick) -> tuple[T, tuple[int, ...]]:
        """One roll from a source of uniform integers: (outcome, faces shown)."""
        ...

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        """``size`` independent outcomes, vectorised."""
        ...

    def describe(self) -> str:
        """A short description such as ``6d12 at or under 7``."""
        ...

    def __hash__(self) -> int:
        """Checks are frozen values: equal checks share cached distributions."""
        ...


@functools.lru_cache(maxsize=16384)
def _exact(check: _Base[Any]) -> Distribution[Any]:
    return check._compute()


@functools.lru_cache(maxsize=4096)
def _sampling_table(check: _Base[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]] | None:
    try:
        dist = _exact(check)
    except EnumerationLimitError:
        return None
    if dist.denominator >= 2**62:
        return None
    outcomes = np.empty(len(dist), dtype=object)
    for i, outcome in enumerate(dist.outcomes):
        outcomes[i] = outcome
    if all(isinstance(o, bool) for o in dist.outcomes):
        outcomes = outcomes.astype(bool)
    elif all(isinstance(o, int) and not isinstance(o, bool) for o in dist.outcomes):
        outcomes = outcomes.astype(np.int64)
    cumulative = np.cumsum(np.array([w for _, w in dist.items()], dtype=np.int64))
    return outcomes, cumulative


class _Base(Generic[T]):
    """Shared machinery: cached exact distribution, rolling with a Generator, and
    exact inverse-CDF sampling on integer weights."""

    __slots__ = ()

    def _compute(self) -> Distribution[T]:
        raise NotImplementedError

    def draw(self, pick: Pick) -> tuple[T, tuple[int, ...]]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def distribution(self) -> Distribution[T]:
        """The exact distribution of the outcome (computed once per distinct check)."""
        return _exact(self)

    def roll(self, rng: np.random.Generator) -> tuple[T, tuple[int, ...]]:
        """One roll with a numpy Generator: (outcome, faces shown)."""
        return self.draw(lambda n: int(rng.integers(n)))

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        """``size`` independent outcomes: one uniform integer per outcome, read through the
        exact cumulative weights (exact, and faster than rolling every die)."""
        size = sample_size(size)
        table = _sampling_table(self)
        if table is None:
            return self._sample_faces(rng, size)
        outcomes, cumulative = table
        draws = rng.integers(0, int(cumulative[-1]), size=size, dtype=np.int64)
        return outcomes[np.searchsorted(cumulative, draws, side="right")]

    def _sample_faces(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        def pick(n: int) -> int:
            return int(rng.integers(n))

        return np.array([self.draw(pick)[0] for _ in range(size)])

    def __str__(self) -> str:
        return self.describe()


def description(check: Check[Any]) -> str:
    """``check.describe()``, worked out once per distinct check (it labels every roll). A
    draw is described afresh: its items are the deck or bag as it stands, so its checks are
    as many as the decks a process ever draws from, and a cache of them kept growing over a
    long run of battles (issue 29's memory target); its words are two numbers anyway."""
    if type(check) is DrawCheck:
        return check.describe()
    return _described(check)


@functools.lru_cache(maxsize=16384)
def _described(check: Check[Any]) -> str:
    return check.describe()


def _dice_tuple(value: Any) -> tuple[Die, ...]:
    if type(value) is tuple and value and all([type(d) is Die for d in value]):
        return value
    dice = tuple(value) if not isinstance(value, Die) else (value,)
    if not dice or not all(isinstance(d, Die) for d in dice):
        raise InvalidValueError("dice", value, "a non-empty tuple of Die")
    return dice


def _describe_dice(dice: tuple[Die, ...], modifier: int = 0) -> str:
    counts: dict[str, int] = {}
    for d in dice:
        counts[d.name] = counts.get(d.name, 0) + 1
    text = " + ".join(
        f"{n}{name}" if name.startswith("d") else f"{n} x {name}" for name, n in counts.items()
    )
    if modifier:
        text += f" {'+' if modifier > 0 else '-'} {abs(modifier)}"
    return text


def _naturals(value: Any) -> frozenset[int]:
    return frozenset(value)


def convolution_cells(dice: tuple[Die, ...]) -> int:
    """The cells the exact sum of ``dice`` fills: for each die added, the partial totals
    reachable so far times its distinct faces (a numbered die: the totals reachable after)."""
    cells = 0
    span = 1
    for d in dice:
        distinct = len(set(d.faces))
        span += d.high - d.low
        cells += span if d.numbered else span * distinct
    return cells


def _sum_distribution(dice: tuple[Die, ...]) -> dict[int, int]:
    cells = convolution_cells(dice)
    if cells > MAX_CONVOLUTION_CELLS:
        raise refuse(MAX_CONVOLUTION_CELLS, "convolution cells", cells,
                     "checks.MAX_CONVOLUTION_CELLS")
    return dict(_sum_weights(tuple(sorted(dice, key=lambda d: (d.faces, d.name)))))


@functools.lru_cache(maxsize=1024)
def _sum_weights(dice: tuple[Die, ...]) -> tuple[tuple[int, int], ...]:
    """(total, ways) of the natural sum, dice in a canonical order (the sum ignores it)."""
    low = 0
    weights = [1]  # weights[i]: ways to make low + i
    for d in dice:
        if d.numbered:
            # a sliding window: each new total is the sum of the last ``sides`` old ones
            sides = d.sides
            size = len(weights) + sides - 1
            out = [0] * size
            running = 0
            for t in range(size):
                if t < len(weights):
                    running += weights[t]
                if t >= sides:
                    running -= weights[t - sides]
                out[t] = running
        else:
            counts: dict[int, int] = {}
            for face in d.faces:
                counts[face - d.low] = counts.get(face - d.low, 0) + 1
            out = [0] * (len(weights) + d.high - d.low)
            for offset, count in counts.items():
                for i, w in enumerate(weights):
                    if w:
                        out[i + offset] += w * count
        weights = out
        low += d.low
    return tuple((low + i, w) for i, w in enumerate(weights) if w)


@functools.lru_cache(maxsize=1024)
def _running_sums(dice: tuple[Die, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The natural totals of ``dice`` in order and the ways to make each or less."""
    naturals = sorted(_sum_distribution(dice).items())
    return tuple(t for t, _ in naturals), tuple(itertools.accumulate(w for _, w in naturals))


def _draw_faces(dice: tuple[Die, ...], pick: Pick) -> tuple[int, ...]:
    return tuple(d.faces[pick(len(d.faces))] for d in dice)


def _face_totals(dice: tuple[Die, ...], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
    """Sums of ``size`` rolls of ``dice``, a die at a time (no array of every face)."""
    totals = np.zeros(size, dtype=np.int64)
    for d in dice:
        totals += np.asarray(d.faces, dtype=np.int64)[rng.integers(0, d.sides, size=size)]
    return totals


# --- pools ---------------------------------------------------------------------------------
ONE_PICK = 1 << 32
"""The widest range a pool draws in one pick (the sampling dice reduce 32-bit integers)."""


_CHUNK_SPAN = 4096
"""The most entries in a chunk table: d12s are read three at a time, d6s four."""

Chunk = tuple[tuple[int, tuple[int, ...]], ...]


@functools.lru_cache(maxsize=4096)
def _pool_table(
    check: PoolCheck,
) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[Chunk, ...]]:
    """The die's faces, for each 1 if it is a success, and the chunk tables of
    ``_chunk_tables`` (a roll reads all of them at once)."""
    faces = check.die.faces
    hits = tuple(int(check.succeeds(face)) for face in faces)
    return (faces, hits, *_chunk_tables(faces, hits))


@functools.lru_cache(maxsize=256)
def _chunk_tables(faces: tuple[int, ...], hits: tuple[int, ...]) -> tuple[int, tuple[Chunk, ...]]:
    """(width, tables): for c = 1..width dice, table c lists for every value below
    sides**c the successes and faces of reading it as c base-sides digits, lowest first."""
    width, digits, shown = _digit_tables(faces)
    counts = np.asarray(hits, dtype=np.int64)
    tables: list[Chunk] = [()]
    for count in range(1, width + 1):
        successes = np.add.reduce(counts[digits[count]], axis=1).tolist()
        tables.append(tuple(zip(successes, shown[count], strict=True)))
    return width, tuple(tables)


@functools.lru_cache(maxsize=64)
def _digit_tables(faces: tuple[int, ...]) -> tuple[
        int, tuple[npt.NDArray[np.int64], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """(width, digits, shown) of a die with these faces, whatever counts as a success: for
    c = 1..width dice, every value below sides**c as c base-sides digits, lowest first (an
    array), and the faces those digits show (shared by every threshold of the die)."""
    sides = len(faces)
    width = 1
    while sides ** (width + 1) <= _CHUNK_SPAN:
        width += 1
    digits: list[npt.NDArray[np.int64]] = [np.zeros((1, 0), dtype=np.int64)]
    shown: list[tuple[tuple[int, ...], ...]] = [()]
    for count in range(1, width + 1):
        values = np.arange(sides**count, dtype=np.int64)[:, np.newaxis]
        table = values // sides ** np.arange(count, dtype=np.int64) % sides
        digits.append(table)
        shown.append(tuple(tuple(faces[d] for d in row) for row in table.tolist()))
    return width, tuple(digits), tuple(shown)


_PASCAL = tuple(tuple(math.comb(n, k) for k in range(n + 1)) for n in range(65))
"""Binomial coefficients C(n, k) for pools of up to 64 dice."""

_DIRECT_POWERS = 16
"""Pools of up to this many dice raise to powers directly; larger ones multiply along."""

_SMALL_POOL = 1_000
"""Pools of up to this many dice of up to this many faces, without rerolls, are far inside
``MAX_EXACT_BITS`` (10 million bits at most): their size needs no estimate."""


@attrs.frozen(cache_hash=True)
class PoolCheck(_Base[int]):
    """A pool of ``count`` dice, each a success at or under ``need`` (or at or over it);
    faces in ``auto_pass`` always succeed and faces in ``auto_fail`` always fail, so a need
    outside the die's range follows the naturals. The outcome is the number of successes."""

    count: int
    need: int
    die: Die = D12
    at_or_under: bool = True
    auto_pass: frozenset[int] = attrs.field(default=frozenset(), converter=_naturals)
    auto_fail: frozenset[int] = attrs.field(default=frozenset(), converter=_naturals)
    reroll_failures: bool = False

    def __attrs_post_init__(self) -> None:
        count, need = self.count, self.need
        if (type(count) is not int or count < 0) and (
                isinstance(count, bool) or not isinstance(count, int) or count < 0):
            raise InvalidValueError("PoolCheck.count", count, "an integer of 0 or more")
        if type(need) is not int and (isinstance(need, bool) or not isinstance(need, int)):
            raise InvalidValueError("PoolCheck.need", need, "an integer")
        if type(self.die) is not Die and not isinstance(self.die, Die):
            raise InvalidValueError("PoolCheck.die", self.die, "a Die, such as D12")
        if self.auto_pass and self.auto_fail and self.auto_pass & self.auto_fail:
            raise InvalidValueError(
                "PoolCheck.auto_pass", sorted(self.auto_pass), "faces not also in auto_fail"
            )

    def succeeds(self, face: int) -> bool:
        """Whether one die showing ``face`` is a success."""
        if face in self.auto_fail:
            return False
        if face in self.auto_pass:
            return True
        return face <= self.need if self.at_or_under else face >= self.need

    def success_weight(self) -> tuple[int, int]:
        """(successful faces, faces) for one die, rerolls included."""
        sides = self.die.sides
        need, passes, fails = self.need, self.auto_pass, self.auto_fail
        if self.die.numbered:
            good = self._numbered_successes()
        elif self.at_or_under:
            good = sum(1 for f in self.die.faces if f not in fails and (f <= need or f in passes))
        else:
            good = sum(1 for f in self.die.faces if f not in fails and (f >= need or f in passes))
        if self.reroll_failures:
            return good * sides + (sides - good) * good, sides * sides
        return good, sides

    def _numbered_successes(self) -> int:
        low, high = self.die.faces[0], self.die.faces[-1]
        if self.at_or_under:
            first, last = low, min(self.need, high)
        else:
            first, last = max(self.need, low), high
        good = max(0, last - first + 1)
        for face in self.auto_fail:
            if first <= face <= last:
                good -= 1
        for face in self.auto_pass:
            if low <= face <= high and not first <= face <= last and face not in self.auto_fail:
                good += 1
        return good

    def exact_bits(self) -> int:
        """About how many bits the exact distribution's weights take together."""
        sides = self.die.sides * (self.die.sides if self.reroll_failures else 1)
        return (self.count + 1) * max(1, self.count * sides.bit_length())

    def _compute(self) -> Distribution[int]:
        n = self.count
        if n > _SMALL_POOL or self.reroll_failures or len(self.die.faces) > _SMALL_POOL:
            bits = self.exact_bits()
            if bits > MAX_EXACT_BITS:
                raise refuse(MAX_EXACT_BITS, "bits of exact weights", bits,
                             "checks.MAX_EXACT_BITS")
        good, sides = self.success_weight()
        bad = sides - good
        if not good or not bad:
            return Distribution._trusted(((n if good else 0, sides**n),), sides**n)
        row = _PASCAL[n] if n < len(_PASCAL) else tuple(math.comb(n, k) for k in range(n + 1))
        if n <= _DIRECT_POWERS:
            items = tuple([(k, row[k] * good**k * bad ** (n - k)) for k in range(n + 1)])
            return Distribution._trusted(items, sides**n)
        # good**k * bad**(n - k), k = 0..n, one multiplication each way
        goods = [1] * (n + 1)
        bads = [1] * (n + 1)
        for k in range(1, n + 1):
            goods[k] = goods[k - 1] * good
            bads[k] = bads[k - 1] * bad
        items = tuple([(k, row[k] * goods[k] * bads[n - k]) for k in range(n + 1)])
        return Distribution._trusted(items, sides**n)

    def draw(self, pick: Pick) -> tuple[int, tuple[int, ...]]:
        if not self.reroll_failures:
            faces, hits, width, chunks = _pool_table(self)
            sides = len(faces)
            span = sides**self.count
            if span <= ONE_PICK and sides <= _CHUNK_SPAN:
                # one uniform pick below sides**count, read as base-sides digits (the same as
                # rolling each die), several digits at a time through precomputed chunks
                value = pick(span)
                full = chunks[width]
                size = len(full)
                successes = 0
                shown: tuple[int, ...] = ()
                remaining = self.count
                while remaining >= width:
                    value, index = divmod(value, size)
                    got, seen = full[index]
                    successes += got
                    shown += seen
                    remaining -= width
                if remaining:
                    got, seen = chunks[remaining][value]
                    successes += got
                    shown += seen
                return successes, shown
            rolled = [pick(sides) for _ in range(self.count)]
            return sum(map(hits.__getitem__, rolled)), tuple(map(faces.__getitem__, rolled))
        faces_shown: list[int] = []
        successes = 0
        for _ in range(self.count):
            face = self.die.faces[pick(self.die.sides)]
            faces_shown.append(face)
            if not self.succeeds(face):
                face = self.die.faces[pick(self.die.sides)]
                faces_shown.append(face)
            successes += self.succeeds(face)
        return successes, tuple(faces_shown)

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        """``size`` success counts: through the exact cumulative weights while they fit in
        64 bits, else from numpy's binomial sampler (no exact table is built)."""
        size = sample_size(size)
        _, sides = self.success_weight()
        if self.count * sides.bit_length() >= 62:
            return self._sample_faces(rng, size)
        return super().sample(rng, size)

    def _sample_faces(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        good, sides = self.success_weight()
        result: npt.NDArray[Any] = rng.binomial(self.count, good / sides, size=size)
        return result

    def describe(self) -> str:
        relation = "at or under" if self.at_or_under else "at or over"
        text = f"{self.count}{self.die.name} {relation} {self.need}"
        extras = []
        if self.auto_pass:
            extras.append(f"{_faces_text(self.auto_pass)} always succeed")
        if self.auto_fail:
            extras.append(f"{_faces_text(self.auto_fail)} always fail")
        if self.reroll_failures:
            extras.append("failures rerolled once")
        return text + (f" ({'; '.join(extras)})" if extras else "")


def _faces_text(faces: frozenset[int]) -> str:
    return "/".join(str(f) for f in sorted(faces)) + "s"


# --- totals --------------------------------------------------------------------------------
@attrs.frozen(cache_hash=True)
class TotalCheck(_Base[int]):
    """The sum of some dice plus a modifier."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice_tuple)
    modifier: int = attrs.field(default=0, validator=_integer_modifier("TotalCheck"))

    @classmethod
    def of(cls, count: int, die: Die, modifier: int = 0) -> TotalCheck:
        """``count`` dice of one kind plus ``modifier``: ``TotalCheck.of(2, D6)``."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidValueError("count", count, "a positive integer")
        return cls((die,) * count, modifier)

    def _compute(self) -> Distribution[int]:
        natural = _sum_distribution(self.dice)
        return Distribution.from_weights({t + self.modifier: w for t, w in natural.items()})

    def draw(self, pick: Pick) -> tuple[int, tuple[int, ...]]:
        faces = _draw_faces(self.dice, pick)
        return sum(faces) + self.modifier, faces

    def _sample_faces(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        return _face_totals(self.dice, rng, size) + self.modifier

    def describe(self) -> str:
        return _describe_dice(self.dice, self.modifier)


@attrs.frozen(cache_hash=True)
class ThresholdCheck(_Base[bool]):
    """Dice plus a modifier read against a target: True when the total reaches it (at least,
    or at most). ``auto_pass`` and ``auto_fail`` are natural totals, before the modifier."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice_tuple)
    target: int
    modifier: int = 0
    at_least: bool = True
    auto_pass: frozenset[int] = attrs.field(default=frozenset(), converter=_naturals)
    auto_fail: frozenset[int] = attrs.field(default=frozenset(), converter=_naturals)

    def __attrs_post_init__(self) -> None:
        if type(self.target) is int and type(self.modifier) is int:
            return
        for name in ("target", "modifier"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidValueError(f"ThresholdCheck.{name}", value, "an integer")

    def passes(self, natural: int) -> bool:
        """Whether a natural total (sum of faces) passes."""
        if natural in self.auto_fail:
            return False
        if natural in self.auto_pass:
            return True
        total = natural + self.modifier
        return total >= self.target if self.at_least else total <= self.target

    def _compute(self) -> Distribution[bool]:
        if self.auto_pass or self.auto_fail:
            weights = {False: 0, True: 0}
            for natural, weight in _sum_distribution(self.dice).items():
                weights[self.passes(natural)] += weight
            return Distribution.from_weights(weights)
        # the natural totals that pass are those from (or up to) one total: read the ways
        # to make them off the running sums of the dice's totals
        naturals, running = _running_sums(self.dice)
        whole = running[-1]
        if self.at_least:
            first = bisect.bisect_left(naturals, self.target - self.modifier)
            passing = whole - (running[first - 1] if first else 0)
        else:
            last = bisect.bisect_right(naturals, self.target - self.modifier)
            passing = running[last - 1] if last else 0
        if not passing or passing == whole:
            return Distribution._trusted(((bool(passing), whole),), whole)
        return Distribution._trusted(((False, whole - passing), (True, passing)), whole)

    def draw(self, pick: Pick) -> tuple[bool, tuple[int, ...]]:
        faces = _draw_faces(self.dice, pick)
        return self.passes(sum(faces)), faces

    def describe(self) -> str:
        relation = "at least" if self.at_least else "at most"
        text = f"{_describe_dice(self.dice, self.modifier)} {relation} {self.target}"
        extras = []
        if self.auto_pass:
            extras.append(f"natural {_faces_text(self.auto_pass)} pass")
        if self.auto_fail:
            extras.append(f"natural {_faces_text(self.auto_fail)} fail")
        return text + (f" ({'; '.join(extras)})" if extras else "")


@attrs.frozen
class Band:
    """One row of a results table: totals from ``low`` to ``high`` (inclusive; None is open)
    give ``result``."""

    result: str
    low: int | None = None
    high: int | None = None

    def covers(self, total: int) -> bool:
        """Whether ``total`` falls in this band."""
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


@attrs.frozen(cache_hash=True)
class TableCheck(_Base[str]):
    """Dice plus a modifier read on a banded results table; the outcome is the band's result."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice_tuple)
    bands: tuple[Band, ...]
    modifier: int = attrs.field(default=0, validator=_integer_modifier("TableCheck"))

    def __attrs_post_init__(self) -> None:
        for natural in _sum_distribution(self.dice):
            total = natural + self.modifier
            matching = [b for b in self.bands if b.covers(total)]
            if len(matching) != 1:
                raise InvalidValueError(
                    "TableCheck.bands",
                    self.bands,
                    f"bands covering every reachable total exactly once ({total} is in "
                    f"{len(matching)})",
                )

    def read(self, total: int) -> str:
        """The result for a modified total."""
        return next(b.result for b in self.bands if b.covers(total))

    def _compute(self) -> Distribution[str]:
        weights: dict[str, int] = {}
        for natural, weight in _sum_distribution(self.dice).items():
            result = self.read(natural + self.modifier)
            weights[result] = weights.get(result, 0) + weight
        return Distribution.from_weights(weights)

    def draw(self, pick: Pick) -> tuple[str, tuple[int, ...]]:
        faces = _draw_faces(self.dice, pick)
        return self.read(sum(faces) + self.modifier), faces

    def describe(self) -> str:
        return f"{_describe_dice(self.dice, self.modifier)} on a table of {len(self.bands)} bands"


@attrs.frozen(cache_hash=True)
class OpposedCheck(_Base[int]):
    """Two totals rolled against each other; the outcome is the first minus the second."""

    a: TotalCheck
    b: TotalCheck

    def _compute(self) -> Distribution[int]:
        weights: dict[int, int] = {}
        for x, wx in self.a.distribution().items():
            for y, wy in self.b.distribution().items():
                weights[x - y] = weights.get(x - y, 0) + wx * wy
        return Distribution.from_weights(weights)

    def draw(self, pick: Pick) -> tuple[int, tuple[int, ...]]:
        x, faces_a = self.a.draw(pick)
        y, faces_b = self.b.draw(pick)
        return x - y, faces_a + faces_b

    def describe(self) -> str:
        return f"({self.a.describe()}) against ({self.b.describe()})"


@attrs.frozen(cache_hash=True)
class FacesCheck(_Base[tuple[int, ...]]):
    """Some dice whose faces the rule reads one by one; the outcome is the faces in order."""

    dice: tuple[Die, ...] = attrs.field(converter=_dice_tuple)

    def _compute(self) -> Distribution[tuple[int, ...]]:
        if math.prod(d.sides for d in self.dice) > MAX_FACE_COMBINATIONS:
            raise refuse(MAX_FACE_COMBINATIONS, "face combinations",
                         math.prod(d.sides for d in self.dice), "checks.MAX_FACE_COMBINATIONS")
        weights: dict[tuple[int, ...], int] = {}
        for faces in itertools.product(*(d.faces for d in self.dice)):
            weights[faces] = weights.get(faces, 0) + 1
        return Distribution.from_weights(weights)

    def draw(self, pick: Pick) -> tuple[tuple[int, ...], tuple[int, ...]]:
        faces = _draw_faces(self.dice, pick)
        return faces, faces

    def describe(self) -> str:
        return f"{_describe_dice(self.dice)}, each read"


# --- draws without replacement ---------------------------------------------------------------
@attrs.frozen(cache_hash=True)
class DrawCheck(_Base[tuple[Hashable, ...]]):
    """``count`` items drawn without replacement from a deck or bag. The outcome is the items
    in the order drawn, or sorted when ``ordered`` is False. ``faces`` are the positions drawn."""

    items: tuple[Hashable, ...]
    count: int = 1
    ordered: bool = True

    def __attrs_post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or not (
            0 <= self.count <= len(self.items)
        ):
            raise InvalidValueError(
                "DrawCheck.count", self.count, f"0 to {len(self.items)} (the items left)"
            )

    def _arrange(self, drawn: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
        return drawn if self.ordered else tuple(sorted(drawn, key=repr))

    def _compute(self) -> Distribution[tuple[Hashable, ...]]:
        size = len(self.items)
        if math.perm(size, self.count) > MAX_FACE_COMBINATIONS:
            raise refuse(MAX_FACE_COMBINATIONS, "orders of draw",
                         math.perm(size, self.count), "checks.MAX_FACE_COMBINATIONS")
        weights: dict[tuple[Hashable, ...], int] = {}
        for positions in itertools.permutations(range(size), self.count):
            drawn = self._arrange(tuple(self.items[i] for i in positions))
            weights[drawn] = weights.get(drawn, 0) + 1
        return Distribution.from_weights(weights)

    def draw(self, pick: Pick) -> tuple[tuple[Hashable, ...], tuple[int, ...]]:
        remaining = list(range(len(self.items)))
        positions = tuple(remaining.pop(pick(len(remaining))) for _ in range(self.count))
        return self._arrange(tuple(self.items[i] for i in positions)), positions

    def describe(self) -> str:
        return f"draw {self.count} of {len(self.items)} without replacement"


def draw_samples(check: Check[Any], rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
    """``size`` outcomes of a check that has no exact sampling table, each drawn in turn
    from ``rng`` (an object array: outcomes may be tuples or records)."""
    out = np.empty(size, dtype=object)
    for i in range(size):
        out[i] = check.draw(lambda n: int(rng.integers(n)))[0]
    return out
