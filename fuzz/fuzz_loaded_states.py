"""Hypothesis fuzz target over loaded states, for every book (issue 28, "Proof").

A real saved state of each registered book (its example, and the same battle some random steps
in) has one field mutated to a hostile value: a huge or negative integer, a float at the ends
of its range, NaN or Infinity, a wrong type, an unknown or another field's name, a lone
surrogate, a key or list item deleted. The property: the loader refuses it with a library
error (``SmoothboreError``), or the state plays 25 random steps and every state on the way
(the loaded one and the last) round-trips through JSON, to the same state and the same text.
Anything else (another exception, a library error while playing, a step taking over
``--hang`` seconds, a round trip that differs) is a failure, recorded with the book, the
field's path, the mutation and the value, and the campaign goes on.

Not part of the test suite (``testpaths`` is ``tests``; ``tests/test_fuzz.py`` checks this
harness on a few fixed cases). Run it on demand, for N minutes:

    nice -n 10 .venv/bin/python fuzz/fuzz_loaded_states.py --minutes 10
    .venv/bin/python fuzz/fuzz_loaded_states.py --minutes 2 --book will_awi --json out.json

It prints the figures (examples tried, refused, played, failed, per book) and each distinct
failure once; the exit status is 1 if there was any failure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import resource
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from smoothbore.battle import play, random_policy
from smoothbore.core import SmoothboreError
from smoothbore.rulesets import BUILTIN_RULESETS, get_ruleset

STEPS = 25
"""Random steps a state that loads must play."""
HOW = ("replace", "replace", "replace", "delete", "swap", "scale")
"""The mutations (replace thrice as often: the hostile values are the point)."""

HUGE = [10**18, 10**20, -(10**18), 2**63, -(2**63) - 1, 2**64, 10**300, -1, 0, 1, 10_001,
        2**128, 2**31]
EDGE_FLOATS = [1e308, -1e308, 5e-324, -5e-324, 1e-300, 1.5, -0.0, 0.5, 1e6, 1e6 + 1, 1e20]
SURROGATES = ["\ud800", "a\udfffb", "\udc80", "23rd \ud83c"]
NAMES = ["", "zz", "ghost", "None", "null", "0", " ", "b1", "a1", "British", "American",
         "Union", "Confederate", "line", "column", "open", "front"]


@attrs.frozen
class Saved:
    """One real saved state of a book, as parsed JSON."""

    book: str
    label: str
    data: Any


@attrs.frozen
class Failure:
    """A mutated state that was neither refused cleanly nor played and round-tripped."""

    book: str
    label: str
    path: str
    how: str
    value: str
    stage: str
    error: str

    def key(self) -> tuple[str, str, str, str]:
        """What makes two failures the same: book, path (indices as [*]), stage, error."""
        return (self.book, re.sub(r"\[\d+\]", "[*]", self.path), self.stage,
                re.sub(r"\d+", "N", self.error)[:120])


@attrs.define
class Figures:
    """What a campaign tried and found (mutable: the harness's own tally)."""

    tried: Counter[str] = attrs.field(factory=Counter)
    refused: Counter[str] = attrs.field(factory=Counter)
    played: Counter[str] = attrs.field(factory=Counter)
    failed: Counter[str] = attrs.field(factory=Counter)
    failures: dict[tuple[str, str, str, str], tuple[Failure, int]] = attrs.field(factory=dict)

    def add(self, failure: Failure) -> None:
        self.failed[failure.book] += 1
        first, count = self.failures.get(failure.key(), (failure, 0))
        self.failures[failure.key()] = (first, count + 1)


class HangError(Exception):
    """Raised by the alarm when one example takes too long."""


def _alarm(signum: int, frame: Any) -> None:
    raise HangError


def saved_states(books: list[str]) -> list[Saved]:
    """Each book's example at the start and some random steps in, as saved JSON."""
    out = []
    for book in books:
        ruleset: Any = get_ruleset(book)
        turn: Any = ruleset.turn
        start = ruleset.example(1)
        out.append(Saved(book, "example", json.loads(start.to_json())))
        later = play(turn, ruleset.example(2), random_policy(2), max_steps=30).end
        out.append(Saved(book, "30 steps in", json.loads(later.to_json())))
    return out


def places(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``data`` (the root excluded)."""
    if path:
        yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from places(value, (*path, index))


def strings(data: Any) -> set[str]:
    """Every string in ``data`` (ids, names, enum values): another field's name."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values()), set())
    if isinstance(data, list):
        return set().union(*(strings(v) for v in data), set())
    return set()


def show_path(path: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def mutate(data: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    """A copy of ``data`` with the value at ``path`` replaced (by ``value``, or scaled by
    it) or deleted."""
    data = json.loads(json.dumps(data))
    *parents, last = path
    node = data
    for part in parents:
        node = node[part]
    if how == "delete":
        del node[last]
    elif how == "scale" and isinstance(node[last], int | float) and not isinstance(
            node[last], bool):
        node[last] = node[last] * value
    else:
        node[last] = value
    return data


def hostile(known: list[str]) -> st.SearchStrategy[Any]:
    """Hostile values: huge ints, edge floats, NaN and Infinity, wrong types, unknown or
    other fields' names, lone surrogates, empty or odd containers."""
    scalars = st.one_of(
        st.sampled_from(HUGE), st.integers(-(2**70), 2**70),
        st.sampled_from(EDGE_FLOATS), st.floats(), st.booleans(), st.none(),
        st.sampled_from(NAMES), st.sampled_from(SURROGATES),
        st.text(max_size=6),
        st.sampled_from(known) if known else st.just("zz"),
    )
    return st.one_of(
        scalars, scalars, scalars,
        st.lists(scalars, max_size=3),
        st.dictionaries(st.sampled_from([*NAMES[:4], "x", "y", "id"]), scalars, max_size=2),
        st.just([[1e308, 0.0], [0.0, 1e308], [1e308, 1e308]]),
    )


def check_one(saved: Saved, path: tuple[Any, ...], how: str, value: Any, figures: Figures,
              *, hang: float, steps: int = STEPS) -> str:
    """Load the mutated state; refused, or played ``steps`` steps and round-tripped. Returns
    "refused", "played" or "failed" (the failure added to ``figures``)."""
    book = saved.book
    turn: Any = get_ruleset(book).turn
    figures.tried[book] += 1
    text = json.dumps(mutate(saved.data, path, how, value))
    stage = "load"
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hang)
    try:
        try:
            state = turn.load(text)
        except SmoothboreError:
            figures.refused[book] += 1
            return "refused"
        stage = "round trip of the loaded state"
        _round_trip(turn, state)
        stage = "play"
        played = play(turn, state, random_policy(0), max_steps=steps)
        stage = "round trip after play"
        _round_trip(turn, played.end)
    except Exception as error:  # a fuzz harness records every failure, HangError too
        shown = repr(value)
        figures.add(Failure(book, saved.label, show_path(path), how,
                            shown if len(shown) <= 60 else shown[:59] + "…", stage,
                            f"{type(error).__name__}: {error}"[:240]))
        return "failed"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    figures.played[book] += 1
    return "played"


def _round_trip(turn: Any, state: Any) -> None:
    text = state.to_json()
    again = turn.load(text)
    if again != state:
        raise AssertionError("the state loaded from its own to_json differs")
    if again.to_json() != text:
        raise AssertionError("to_json of the reloaded state writes other text")


def campaign(books: list[str], minutes: float, *, batch: int = 100, hang: float = 30.0,
             echo: bool = True) -> Figures:
    """Run the target until ``minutes`` have passed (batches of Hypothesis examples)."""
    states = saved_states(books)
    figures = Figures()
    by_state = [(s, list(places(s.data)), sorted(strings(s.data))) for s in states]

    @settings(max_examples=batch, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def target(data: st.DataObject) -> None:
        saved, paths, known = data.draw(st.sampled_from(by_state), label="state")
        path = data.draw(st.sampled_from(paths), label="path")
        how = data.draw(st.sampled_from(HOW), label="how")
        if how == "swap":
            value: Any = data.draw(st.sampled_from(known) if known else st.just("zz"))
        elif how == "scale":
            value = data.draw(st.sampled_from([10**18, -1, 1e308, 0.5, 1e-300, 2**64]))
        elif how == "delete":
            value = None
        else:
            value = data.draw(hostile(known), label="value")
        check_one(saved, path, how, value, figures, hang=hang)

    end = time.monotonic() + minutes * 60
    while time.monotonic() < end:
        target()
        if echo:
            print(f"  {sum(figures.tried.values()):,} tried, "
                  f"{sum(figures.refused.values()):,} refused, "
                  f"{sum(figures.played.values()):,} played, "
                  f"{sum(figures.failed.values()):,} failed "
                  f"({len(figures.failures)} distinct)", flush=True)
    return figures


def report(figures: Figures, books: list[str]) -> str:
    lines = [f"{'book':<16}{'tried':>8}{'refused':>9}{'played':>8}{'failed':>8}"]
    for book in books:
        lines.append(f"{book:<16}{figures.tried[book]:>8,}{figures.refused[book]:>9,}"
                     f"{figures.played[book]:>8,}{figures.failed[book]:>8,}")
    lines.append(f"{'all':<16}{sum(figures.tried.values()):>8,}"
                 f"{sum(figures.refused.values()):>9,}{sum(figures.played.values()):>8,}"
                 f"{sum(figures.failed.values()):>8,}")
    for first, count in sorted(figures.failures.values(), key=lambda fc: fc[0].key()):
        lines.append(f"- {first.book} ({first.label}) {first.path} {first.how} "
                     f"{first.value} -> at {first.stage}: {first.error} [x{count}]")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--book", action="append", choices=[n for n, _ in BUILTIN_RULESETS])
    parser.add_argument("--hang", type=float, default=30.0,
                        help="seconds one example may take (load, 25 steps, round trips)")
    parser.add_argument("--memory-gb", type=float, default=3.0,
                        help="address-space limit of this process (a runaway count fails "
                             "with MemoryError instead of swapping the machine)")
    parser.add_argument("--json", help="also write the figures and failures to this file")
    args = parser.parse_args(argv)
    books = args.book or [n for n, _ in BUILTIN_RULESETS]
    limit = int(args.memory_gb * 2**30)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    figures = campaign(books, args.minutes, hang=args.hang)
    print(report(figures, books))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({
                "tried": dict(figures.tried), "refused": dict(figures.refused),
                "played": dict(figures.played), "failed": dict(figures.failed),
                "failures": [dict(attrs.asdict(f), count=n)
                             for f, n in figures.failures.values()],
            }, out, indent=1, ensure_ascii=True)
    return 1 if figures.failures else 0


if __name__ == "__main__":
    sys.exit(main())
