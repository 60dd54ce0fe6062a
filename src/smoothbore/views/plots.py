"""The plots a mathhammer user expects, through matplotlib (the ``plot`` extra): the chance
of at least each result as a curve (``at_least_plot``), several distributions' results side
by side on one axis (``compare_plot``). A simulation's win rates with their intervals are
``Simulation.plot()``; one distribution's bars ``Distribution.plot()``. Each returns the
matplotlib Axes it drew on, and draws on the one given as ``ax``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import InvalidValueError
from smoothbore.views import say

__all__ = ["at_least_plot", "compare_plot"]


def _pyplot() -> Any:
    try:
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise InvalidValueError("matplotlib", "(not installed)",
                                "install it: pip install 'smoothbore[plot]'") from None


def _named(distributions: Distribution[Any] | Mapping[str, Distribution[Any]],
           field: str) -> dict[str, Distribution[Any]]:
    if isinstance(distributions, Distribution):
        return {"": distributions}
    if not isinstance(distributions, Mapping) or not distributions or not all(
            isinstance(d, Distribution) for d in distributions.values()):
        raise InvalidValueError(field, type(distributions).__name__,
                                "a Distribution, or a mapping of names to Distributions")
    return {str(name): d for name, d in distributions.items()}


def _numbers(distribution: Distribution[Any], field: str) -> list[float]:
    values = []
    for outcome in distribution.outcomes:
        if isinstance(outcome, bool) or not isinstance(outcome, int | float):
            raise InvalidValueError(field, say(outcome),
                                    "numeric outcomes (group others with .map first)")
        values.append(float(outcome))
    return values


def at_least_plot(distributions: Distribution[Any] | Mapping[str, Distribution[Any]],
                  ax: Any = None, *, title: str | None = None) -> Any:
    """The chance of at least each result (P(X >= x)), one step curve a distribution, all
    on one axis: ``at_least_plot({"veterans": a, "militia": b})``. Numeric outcomes only."""
    named = _named(distributions, "distributions")
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(7, 3.5))
    for name, distribution in named.items():
        xs = _numbers(distribution, f"distributions[{name!r}]" if name else "distribution")
        chances = [float(distribution.at_least(x)) for x in distribution.outcomes]
        # P(X >= x) for x in (k-1, k] is P(X >= k): each value holds up to its own result
        ax.step(xs, chances, where="pre", marker="o", label=name or None)
    ax.set_xlabel("at least")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.02)
    ax.grid(True, alpha=0.3)
    if any(named):
        ax.legend()
    if title:
        ax.set_title(title)
    return ax


def compare_plot(distributions: Mapping[str, Distribution[Any]], ax: Any = None, *,
                 title: str | None = None) -> Any:
    """Several distributions side by side on one axis: for each result, a bar for each
    distribution (results in words when they are not numbers)."""
    named = _named(distributions, "distributions")
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(8, 3.5))
    outcomes: list[Any] = []
    for distribution in named.values():
        outcomes.extend(o for o in distribution.outcomes if o not in outcomes)
    width = 0.8 / len(named)
    for i, (name, distribution) in enumerate(named.items()):
        chances = [float(distribution.probability(outcome)) for outcome in outcomes]
        positions = [k + (i - (len(named) - 1) / 2) * width for k in range(len(outcomes))]
        ax.bar(positions, chances, width=width, label=name)
    ax.set_xticks(range(len(outcomes)))
    words = [say(o) for o in outcomes]
    turned = len(outcomes) > 6 and max(len(w) for w in words) > 4
    ax.set_xticklabels(words, rotation=30 if turned else 0, ha="right" if turned else "center")
    ax.set_ylabel("probability")
    ax.legend()
    if title:
        ax.set_title(title)
    return ax
