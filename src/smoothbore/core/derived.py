"""Answers derived from an immutable value, worked out once and kept with the value.

A battle state and a table never change, so neither does anything that follows from them:
the checks of every candidate action of a step ask the same questions of the same state
(which units may fire, which tests are due) and of the same table (every shooting
situation). The value keeps the answers in a field outside its value (not compared, hashed,
shown, saved or pickled), keyed by the function that asked, so that an answer is shared by
every caller and a new value works its own out afresh."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["derive", "derived_field"]

V = TypeVar("V")
T = TypeVar("T")

Memo = dict[Callable[[Any], Any], Any]


def derived_field() -> Any:
    """The attrs field that keeps a value's derived answers (``_derived``)."""
    return attrs.field(factory=dict, init=False, eq=False, repr=False, hash=False)


def derive(memo: Memo, query: Callable[[V], T], value: V) -> T:
    """``query(value)``, from ``memo`` if it was asked before, else worked out and kept.
    ``query`` must be a pure, module-level function of the value."""
    try:
        answer: T = memo[query]
    except KeyError:
        answer = memo[query] = query(value)
    return answer
