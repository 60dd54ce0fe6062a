"""Exact probability distributions: integer weights over a common denominator."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

import attrs

from smoothbore.core.errors import InvalidValueError

__all__ = ["Distribution"]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


def _ordered(weights: Mapping[T, int]) -> tuple[tuple[T, int], ...]:
    items = [(outcome, weight) for outcome, weight in weights.items() if weight]
    try:
        # (outcome, weight) pairs sort by outcome: distinct outcomes never tie
        return tuple(sorted(items))
    except TypeError:  # outcomes that do not compare keep the order in which they were met
        return tuple(items)


def _check_weights(items: tuple[tuple[Any, int], ...], denominator: int) -> None:
    """Every weight a non-negative integer (not a bool), summing to ``denominator`` > 0."""
    weights = [weight for _, weight in items]
    if weights and (set(map(type, weights)) != {int} or min(weights) < 0):
        for weight in weights:
            if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
                raise InvalidValueError("weight", weight, "a non-negative integer")
    total = sum(weights)
    if total != denominator or total <= 0:
        raise InvalidValueError(
            "denominator", denominator, f"the sum of the weights ({total}), above 0"
        )


@attrs.frozen(eq=False)
class Distribution(Generic[T]):
    """The exact distribution of a random result: each outcome's integer weight out of
    ``denominator``. Weights are kept exact; floats appear only when presenting. Outcomes are
    in order where they compare, else in the order they were first met."""

    _items: tuple[tuple[T, int], ...]
    denominator: int
    _index: dict[T, int] | None = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_weights(self._items, self.denominator)
        object.__setattr__(self, "_index", None)

    def _lookup(self) -> dict[T, int]:
        index = self._index
        if index is None:
            index = dict(self._items)
            object.__setattr__(self, "_index", index)
        return index

    # construction -------------------------------------------------------------------------
    @classmethod
    def _trusted(cls, items: tuple[tuple[T, int], ...], denominator: int) -> Distribution[T]:
        """A distribution from items already ordered, with positive integer weights summing to
        ``denominator``: the fast path for checks whose weights are correct by construction."""
        made = object.__new__(cls)
        object.__setattr__(made, "_items", items)
        object.__setattr__(made, "denominator", denominator)
        object.__setattr__(made, "_index", None)
        return made

    @classmethod
    def _from_distinct(
        cls, items: list[tuple[T, int]], denominator: int
    ) -> Distribution[T]:
        """A distribution from (outcome, weight) pairs whose outcomes are known to differ
        (not checked: that would hash every outcome), put in order where they compare."""
        kept = [(outcome, weight) for outcome, weight in items if weight]
        try:
            ordered = tuple(sorted(kept))
        except TypeError:
            ordered = tuple(kept)
        return cls(ordered, denominator)

    @classmethod
    def from_weights(
        cls, weights: Mapping[T, int], denominator: int | None = None, *, order: bool = True
    ) -> Distribution[T]:
        """A distribution from outcome -> weight; zero weights are dropped, common factors
        kept. Outcomes that compare are put in order unless ``order`` is False (they then
        keep the order of ``weights``: for a great many outcomes whose order nobody reads)."""
        if order:
            items = _ordered(weights)
        else:
            items = tuple([(outcome, weight) for outcome, weight in weights.items() if weight])
        if denominator is None:
            denominator = sum([weight for _, weight in items])
        return cls(items, denominator)

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[T, Fraction]) -> Distribution[T]:
        """A distribution from outcome -> exact probability (which must sum to one)."""
        denominator = math.lcm(*(Fraction(p).denominator for p in probabilities.values()))
        weights = {o: int(Fraction(p) * denominator) for o, p in probabilities.items()}
        if sum(weights.values()) != denominator:
            raise InvalidValueError("probabilities", dict(probabilities), "values summing to 1")
        return cls.from_weights(weights, denominator)

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        """The distribution of a result that is not random."""
        return cls(((outcome, 1),), 1)

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Each listed outcome equally likely (repeats add weight, as on the average die)."""
        weights: dict[T, int] = {}
        for outcome in outcomes:
            weights[outcome] = weights.get(outcome, 0) + 1
        return cls.from_weights(weights)

    # reading -------------------------------------------------------------------------------
    @property
    def outcomes(self) -> tuple[T, ...]:
        """The possible outcomes, in order."""
        return tuple(outcome for outcome, _ in self._items)

    def items(self) -> tuple[tuple[T, int], ...]:
        """(outcome, weight) pairs in order."""
        return self._items

    def weight(self, outcome: T) -> int:
        """The integer weight of one outcome (0 if impossible)."""
        return self._lookup().get(outcome, 0)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        """Equal when every outcome has the same probability (denominators may differ)."""
        if not isinstance(other, Distribution):
            return NotImplemented
        if len(self._items) != len(other._items):
            return False
        return all(
            weight * other.denominator == other.weight(outcome) * self.denominator
            for outcome, weight in self._items
        )

    def __hash__(self) -> int:
        return hash(frozenset((o, Fraction(w, self.denominator)) for o, w in self._items))

    def probability(self, event: T | Callable[[T], bool]) -> Fraction:
        """Exact probability of an outcome, or of the outcomes a predicate accepts."""
        if callable(event) and not isinstance(event, type) and event not in self._lookup():
            predicate: Callable[[T], bool] = event
            return Fraction(
                sum(w for o, w in self._items if predicate(o)), self.denominator
            )
        return Fraction(self._lookup().get(event, 0), self.denominator)  # type: ignore[arg-type]

    def p(self, event: T | Callable[[T], bool]) -> float:
        """The probability as a float, for presenting."""
        return float(self.probability(event))

    def mean(self) -> Fraction:
        """The exact expected value of a numeric result (bools count as 0/1)."""
        total = Fraction(0)
        for outcome, _ in self._items:
            if not isinstance(outcome, int | Fraction):
                raise InvalidValueError(
                    "outcome", outcome, "numbers (or bools) for a mean: group the results first"
                )
        for outcome, weight in self._items:
            total += Fraction(outcome) * weight  # type: ignore[call-overload]
        return total / self.denominator

    def at_least(self, threshold: Any) -> Fraction:
        """Probability that the result is at least ``threshold``."""
        return self.probability(lambda outcome: outcome >= threshold)

    def at_most(self, threshold: Any) -> Fraction:
        """Probability that the result is at most ``threshold``."""
        return self.probability(lambda outcome: outcome <= threshold)

    def at_least_table(self) -> tuple[tuple[T, Fraction], ...]:
        """For each outcome, the probability of that outcome or more."""
        remaining = self.denominator
        rows = []
        for outcome, weight in self._items:
            rows.append((outcome, Fraction(remaining, self.denominator)))
            remaining -= weight
        return tuple(rows)

    def at_most_table(self) -> tuple[tuple[T, Fraction], ...]:
        """For each outcome, the probability of that outcome or less."""
        running = 0
        rows = []
        for outcome, weight in self._items:
            running += weight
            rows.append((outcome, Fraction(running, self.denominator)))
        return tuple(rows)

    # transforming --------------------------------------------------------------------------
    def map(self, function: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``function(result)``; outcomes with equal images merge."""
        weights: dict[U, int] = {}
        for outcome, weight in self._items:
            image = function(outcome)
            weights[image] = weights.get(image, 0) + weight
        return Distribution.from_weights(weights, self.denominator)

    def then(self, function: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Follow each outcome with the random step it leads to (a flat map): the exact
        distribution of the final results, equal results merged."""
        parts = [(weight, function(outcome)) for outcome, weight in self._items]
        common = math.lcm(*(part.denominator for _, part in parts))
        weights: dict[U, int] = {}
        for weight, part in parts:
            scale = weight * (common // part.denominator)
            for result, inner in part._items:
                weights[result] = weights.get(result, 0) + scale * inner
        return Distribution.from_weights(weights, self.denominator * common)

    def reduced(self) -> Distribution[T]:
        """The same distribution over the smallest common denominator."""
        divisor = math.gcd(self.denominator, *(w for _, w in self._items))
        if divisor == 1:
            return self
        # dividing every weight and the denominator by a common factor keeps them valid
        return Distribution._trusted(
            tuple([(o, w // divisor) for o, w in self._items]), self.denominator // divisor
        )

    # presenting ----------------------------------------------------------------------------
    def rows(self) -> tuple[tuple[str, int, Fraction, Fraction, Fraction], ...]:
        """(outcome, weight, P(=), P(>=), P(<=)) for each outcome, for tables."""
        at_least = dict(self.at_least_table())
        at_most = dict(self.at_most_table())
        return tuple(
            (
                str(outcome),
                weight,
                Fraction(weight, self.denominator),
                at_least[outcome],
                at_most[outcome],
            )
            for outcome, weight in self._items
        )

    @property
    def numeric(self) -> bool:
        """Whether the outcomes are numbers, so "at least" and "at most" mean something."""
        return all(
            isinstance(o, int | float | Fraction) and not isinstance(o, bool)
            for o in self.outcomes
        )

    def table(self, exact: bool | None = None) -> str:
        """A plain-text table: outcome, exact probability, percentage and, for numeric
        outcomes, the chances of at least and at most that outcome. ``exact`` None shows
        the fractions only while they are short (else decimals alone); a real but tiny
        chance reads ``<0.01%``."""
        from smoothbore.core.present import percent

        rows = self.rows()
        if exact is None:
            exact = all(len(str(row[2])) <= _SHORT_FRACTION for row in rows)
        cumulative = self.numeric
        width = max([7, *(len(row[0]) for row in rows)])
        fraction_width = max([5, *(len(str(row[2])) for row in rows)]) if exact else 0
        shown = f"  {'exact':>{fraction_width}}" if exact else ""
        header = f"{'outcome':<{width}}{shown}  {'P(=)':>7}"
        lines = [header + (f"  {'P(>=)':>7}  {'P(<=)':>7}" if cumulative else "")]
        for outcome, _, chance, at_least, at_most in rows:
            fraction = f"  {chance!s:>{fraction_width}}" if exact else ""
            line = f"{outcome:<{width}}{fraction}  {percent(chance):>7}"
            if cumulative:
                line += f"  {percent(at_least):>7}  {percent(at_most):>7}"
            lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        shown = self._items[:_REPR_ITEMS]
        body = ", ".join(f"{o!r}: {w}" for o, w in shown)
        left = len(self._items) - len(shown)
        more = f", ... {left} more" if left else ""
        return f"Distribution({{{body}{more}}}, denominator={self.denominator})"

    def _repr_html_(self) -> str:
        """The notebook view: the headline as caption, a bar per outcome, the tail past 30
        rows folded (``view`` adds a caption and the parameters)."""
        from smoothbore.core.present import distribution_html

        return distribution_html(self)

    # summarising, comparing, exporting -----------------------------------------------------
    def by(self, key: Callable[[T], U]) -> Distribution[U]:
        """The outcomes grouped by ``key``: ``charge.by(lambda end: end.winner)``."""
        return self.map(key)

    def headline(self, key: Callable[[T], Any] | None = None) -> str:
        """One line saying what matters most: the mean and standard deviation of numbers,
        the chance of yes, or the likeliest outcome (of the groups ``key`` makes)."""
        from smoothbore.core.present import headline

        return headline(self, key)

    def summary(self, key: Callable[[T], Any] | None = None) -> Distribution[Any]:
        """The outcomes grouped by ``key`` (by default a composite result by its first
        part), likeliest first."""
        from smoothbore.core.present import summary

        return summary(self, key)

    def std(self) -> float:
        """The standard deviation of a numeric result (bools count as 0/1)."""
        from smoothbore.core.present import standard_deviation

        return standard_deviation(self)

    def view(self, caption: str = "", parameters: Mapping[str, Any] | None = None) -> Any:
        """The notebook view with a caption and the parameters the result came from."""
        from smoothbore.core.present import DistributionView

        return DistributionView(self, caption, dict(parameters or {}))

    @staticmethod
    def compare(columns: Mapping[str, Distribution[Any]]) -> Any:
        """Several distributions side by side, labelled (a ``views.Comparison``)."""
        from smoothbore.core.present import compare

        return compare(columns)

    def to_pandas(self) -> Any:
        """A pandas DataFrame, one row per outcome (pandas needed)."""
        from smoothbore.core.present import to_pandas

        return to_pandas(self)

    def to_csv(self, path: str | None = None) -> str:
        """CSV text, also written to ``path`` when given."""
        from smoothbore.core.present import to_csv

        return to_csv(self, path)

    def plot(self, ax: Any = None, *, title: str | None = None,
             key: Callable[[T], Hashable] | None = None) -> Any:
        """A bar chart through matplotlib (the ``plot`` extra); returns the Axes."""
        from smoothbore.core.present import plot

        return plot(self, ax, title=title, key=key)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description: denominator and, per outcome, weight and probability."""
        return {
            "denominator": self.denominator,
            "outcomes": [
                {
                    "outcome": _jsonable(outcome),
                    "weight": weight,
                    "fraction": str(Fraction(weight, self.denominator)),
                    "probability": weight / self.denominator,
                }
                for outcome, weight in self._items
            ],
        }


_SHORT_FRACTION = 12
"""The longest fraction ``table`` shows unasked."""
_REPR_ITEMS = 8
"""Outcomes a ``repr`` lists before saying how many more there are."""


def _jsonable(value: object) -> object:
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return str(value)
