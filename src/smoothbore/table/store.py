"""One bounded, named store of answers with hit and miss counts (``AnswerStore``), and the
stores of one line of tables (``Stores``, ``Table.store``); see ``smoothbore.table.seam``."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar

import attrs

from smoothbore.core import InvalidValueError

__all__ = ["AnswerStore", "StoreCounts", "Stores"]

T = TypeVar("T")


@attrs.frozen
class StoreCounts:
    """A store's figures: its ``name``, the ``answers`` it holds (at most ``most``), and how
    often an answer was found (``hits``) or worked out (``misses``)."""

    name: str
    answers: int
    most: int
    hits: int
    misses: int

    @property
    def hit_rate(self) -> float:
        """Hits over all questions (0 before any)."""
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0


_MISSING: Any = object()


class AnswerStore:
    """A bounded, named store of answers (see the module's docstring): ``ask(key, work)``
    gives the answer kept under ``key``, or ``work()``'s, kept. Answers are kept in
    generations of ``chunk``; past ``most`` the oldest generation is forgotten whole.
    Entries are written once: an answer is never changed in place."""

    __slots__ = ("_added", "_index", "_old", "_young", "chunk", "hits", "misses", "most",
                 "name")

    def __init__(self, name: str, most: int = 4096, chunk: int = 256) -> None:
        if not isinstance(name, str) or not name:
            raise InvalidValueError("AnswerStore.name", name, "a name (text)")
        for field, value in (("most", most), ("chunk", chunk)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidValueError(f"AnswerStore.{field}", value, "a whole number from 1")
        self.name, self.most, self.chunk = name, most, min(chunk, most)
        # every kept answer by key (one lookup a question); the generations list the keys
        # in the order they came, to say what to forget. A key names everything an answer
        # reads (tuples of footprints): hashing it is most of what a store costs, so a hit
        # hashes it once and a miss twice
        self._index: dict[Hashable, Any] = {}
        self._young: list[Hashable] = []
        self._old: list[list[Hashable]] = []
        self._added = 0  # answers ever kept: whether a work kept any meanwhile
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The answer kept under ``key`` (``default``: none), counted as a hit or a miss."""
        found = self._index.get(key, _MISSING)
        if found is _MISSING:
            self.misses += 1
            return default
        self.hits += 1
        return found

    def ask(self, key: Hashable, work: Callable[[], T]) -> T:
        """The answer kept under ``key``, or ``work()``'s, kept under it."""
        index = self._index
        found = index.get(key, _MISSING)
        if found is not _MISSING:
            self.hits += 1
            answer: T = found
            return answer
        self.misses += 1
        added = self._added
        answer = work()
        if self._added == added:  # work kept nothing here meanwhile: the key is still new
            self._add(key, answer)
        else:
            self.put(key, answer)
        return answer

    def put(self, key: Hashable, answer: Any) -> None:
        """Keep ``answer`` under ``key`` (a key already kept keeps its first answer)."""
        if key not in self._index:
            self._add(key, answer)

    def _add(self, key: Hashable, answer: Any) -> None:
        """Keep a key not kept yet."""
        index = self._index
        if len(self._young) >= self.chunk:
            self._old.append(self._young)
            self._young = []
            while (len(self._old) + 1) * self.chunk > self.most:
                for gone in self._old.pop(0):
                    del index[gone]
        self._young.append(key)
        index[key] = answer
        self._added += 1

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._index

    def counts(self) -> StoreCounts:
        """The store's size, bound, hits and misses."""
        return StoreCounts(self.name, len(self), self.most, self.hits, self.misses)

    def __repr__(self) -> str:
        c = self.counts()
        return (f"AnswerStore({c.name!r}: {c.answers} of {c.most}, {c.hits} hits, "
                f"{c.misses} misses)")


class Stores:
    """The named stores of one line of tables (``Table.store``): made empty with a new
    table, handed on to every table made from it."""

    __slots__ = ("_by_name",)

    def __init__(self) -> None:
        self._by_name: dict[str, AnswerStore] = {}

    def get(self, name: str, most: int = 4096, chunk: int = 256) -> AnswerStore:
        """The store called ``name`` (made on first use with ``most`` and ``chunk``)."""
        found = self._by_name.get(name)
        if found is None:
            found = self._by_name[name] = AnswerStore(name, most, chunk)
        return found

    def __iter__(self) -> Iterator[AnswerStore]:
        return iter(tuple(self._by_name.values()))
