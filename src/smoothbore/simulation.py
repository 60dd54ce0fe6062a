"""Many battles at once: who wins a ruleset's embedded battle, by Monte Carlo.

``simulate`` plays a battle many times to its end with seeded policies, on one core or on any
``concurrent.futures.Executor`` (a process pool, or a Dask cluster through
``client.get_executor()``), and reports each side's win rate with its 95% Wilson interval,
the mean score and losses per side and how long battles last. Run ``i`` takes its battle
seed and its policy seed from ``SeedSequence(seed)``'s ``i``-th spawned child, so the results
are the same for the same seed whatever the executor, the number of workers or the batches.
"""

from __future__ import annotations

import contextlib
import html
import math
import os
import pickle
import signal
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from typing import Any, Protocol, runtime_checkable

import attrs
import numpy as np

from smoothbore.battle import MAX_STEPS, Played, Policy, play, random_policy
from smoothbore.core.engine import Outcome
from smoothbore.core.enums import Result
from smoothbore.core.errors import InvalidValueError, SmoothboreError
from smoothbore.core.present import Z95, wilson
from smoothbore.core.registry import load_reference
from smoothbore.core.ruleset import Ruleset, spell
from smoothbore.rulesets import get_ruleset

__all__ = [
    "MAX_RETRIES",
    "Z95",
    "BattleError",
    "Losses",
    "LostRunsError",
    "PolicyFactory",
    "Rate",
    "Result",
    "Run",
    "Simulation",
    "Spread",
    "battle_name",
    "losses_of",
    "play_run",
    "resolve_ruleset",
    "run_seeds",
    "simulate",
    "stop_executor",
    "wilson",
    "worker_start",
]

PolicyFactory = Callable[[int], Policy[Any, Any]]
"""Makes a run's policy from its seed (``random_policy`` is one). It must pickle to go to
worker processes: a module-level function or class does."""

_SEED_BITS = 63

MAX_RETRIES = 2
"""How many times ``simulate`` plays again a batch lost with its worker process."""


@attrs.frozen
class Rate:
    """How many runs out of ``total`` had some result, with its 95% Wilson interval."""

    count: int
    total: int

    @property
    def value(self) -> float:
        """The proportion."""
        return self.count / self.total

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval."""
        return wilson(self.count, self.total)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"count": self.count, "rate": self.value, "interval": [low, high]}

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.value:.1%} (95% {low:.1%} to {high:.1%})"


@attrs.frozen
class Spread:
    """How a length (steps or turns) spreads over the runs."""

    mean: float
    median: float
    low: int
    high: int

    @classmethod
    def of(cls, values: tuple[int, ...]) -> Spread:
        return cls(statistics.fmean(values), statistics.median(values), min(values),
                   max(values))

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "median": self.median, "min": self.low, "max": self.high}

    def __str__(self) -> str:
        return f"mean {self.mean:.1f}, median {self.median:g}, from {self.low} to {self.high}"


@attrs.frozen
class Run:
    """One simulated battle: its index, its two seeds, whether it ended by its rules, the
    winner (None: a draw or unfinished), the scores and losses per side (empty when
    unfinished), the actions taken, the turns that saw one, and why it ended."""

    index: int
    battle_seed: int
    policy_seed: int
    finished: bool
    winner: str | None
    scores: tuple[tuple[str, int], ...]
    losses: tuple[tuple[str, int], ...]
    steps: int
    turns: int
    reason: str

    @property
    def result(self) -> Result:
        """How the run came out: ``Result.WIN`` (``winner`` names the side),
        ``Result.DRAW`` or ``Result.UNFINISHED`` (it reached the step limit first)."""
        if not self.finished:
            return Result.UNFINISHED
        return Result.DRAW if self.winner is None else Result.WIN

    def to_dict(self) -> dict[str, Any]:
        """The run as JSON-ready data, its ``result`` named (``"win"``, ``"draw"``,
        ``"unfinished"``)."""
        return {**attrs.asdict(self), "result": self.result.value}


@attrs.frozen
class Simulation:
    """The runs of a simulation, in run order, and what they say."""

    ruleset: str
    battle: str
    seed: int
    sides: tuple[str, ...]
    runs: tuple[Run, ...]

    @property
    def finished(self) -> tuple[Run, ...]:
        """The runs that ended by their rules."""
        return tuple(run for run in self.runs if run.finished)

    def where(self, result: Result | str, side: str | None = None) -> tuple[Run, ...]:
        """The runs that came out as ``result`` (a ``Result`` or its text: ``"draw"``), in
        run order; with ``side``, only the wins of that side (``where(Result.WIN,
        "british")``)."""
        wanted = Result.of(result)
        if side is not None:
            if wanted is not Result.WIN:
                raise InvalidValueError("side", side, "a side only with result=win (a draw "
                                        "or an unfinished run has no winner)")
            if side not in self.sides:
                raise InvalidValueError("side", side, "one of " + ", ".join(self.sides))
        return tuple(run for run in self.runs
                     if run.result is wanted and (side is None or run.winner == side))

    def rate(self, result: Result | str, side: str | None = None) -> Rate:
        """The share of runs that came out as ``result`` (with ``side``: that side's wins),
        with its 95% interval: ``rate(Result.DRAW)`` is ``draws``."""
        return Rate(len(self.where(result, side)), len(self.runs))

    def wins(self, side: str) -> Rate:
        """The share of runs ``side`` won."""
        return self.rate(Result.WIN, side)

    @property
    def draws(self) -> Rate:
        """The share of runs that ended in a draw."""
        return self.rate(Result.DRAW)

    @property
    def unfinished(self) -> Rate:
        """The share of runs that reached the step limit (or a state with no legal action)
        before their end."""
        return self.rate(Result.UNFINISHED)

    def mean_score(self, side: str) -> float | None:
        """The mean score of ``side`` over the finished runs (None: none finished)."""
        return _mean(self.finished, side, "scores")

    def mean_losses(self, side: str) -> float | None:
        """The mean losses of ``side`` over the finished runs (None: none finished, or the
        ruleset does not say)."""
        return _mean(self.finished, side, "losses")

    @property
    def steps(self) -> Spread:
        """The number of actions of each run."""
        return Spread.of(tuple(run.steps for run in self.runs))

    @property
    def turns(self) -> Spread:
        """The number of turns of each run."""
        return Spread.of(tuple(run.turns for run in self.runs))

    def to_dict(self, *, runs: bool = False) -> dict[str, Any]:
        """The results as JSON-ready data (with every run when ``runs``)."""
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "battle": self.battle,
            "seed": self.seed,
            "runs": len(self.runs),
            "finished": len(self.finished),
            "sides": [
                {"side": side, "wins": self.wins(side).to_dict(),
                 "mean_score": self.mean_score(side), "mean_losses": self.mean_losses(side)}
                for side in self.sides
            ],
            "draws": self.draws.to_dict(),
            "unfinished": self.unfinished.to_dict(),
            "steps": self.steps.to_dict(),
            "turns": self.turns.to_dict(),
        }
        if runs:
            data["each_run"] = [run.to_dict() for run in self.runs]
        return data

    def table(self) -> str:
        """The results as a table to read."""
        head = ("", "runs", "share", "95% interval", "mean score", "mean losses")
        rows = [
            (side, *_rate_cells(self.wins(side)), _number(self.mean_score(side)),
             _number(self.mean_losses(side)))
            for side in self.sides
        ]
        rows.append(("draw", *_rate_cells(self.draws), "", ""))
        rows.append(("not finished", *_rate_cells(self.unfinished), "", ""))
        widths = [max(len(row[i]) for row in (head, *rows)) for i in range(len(head))]
        lines = [
            "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in (head, *rows)
        ]
        lines.append(f"\nactions per battle: {self.steps}\nturns per battle: {self.turns}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        shares = ", ".join(f"{side} {self.wins(side).value:.1%}" for side in self.sides)
        return (f"<Simulation {self.ruleset} ({self.battle}): {len(self.runs)} runs, seed "
                f"{self.seed}; wins {shares}; draws {self.draws.value:.1%}>")

    def _outcomes(self) -> tuple[tuple[str, Rate], ...]:
        return (*((side, self.wins(side)) for side in self.sides), ("draw", self.draws),
                ("not finished", self.unfinished))

    def _repr_html_(self) -> str:
        """A notebook view: each side's wins, the draws and the unfinished runs, with
        bars and 95% intervals, under a caption naming the battle."""
        rows = []
        for label, rate in self._outcomes():
            low, high = rate.interval
            rows.append(
                f"<tr><td>{html.escape(label)}</td><td>{rate.count}</td><td><span "
                f"class='bar' style='display:inline-block;height:0.8em;background:#4a7ab5;"
                f"width:{max(rate.value * 120, 0.5):.1f}px'></span> {rate.value:.1%}</td>"
                f"<td>{low:.1%} to {high:.1%}</td></tr>")
        return (f"<table class='smoothbore-simulation'><caption>{html.escape(self.ruleset)}, "
                f"{html.escape(self.battle)} battle: {len(self.runs)} runs (seed {self.seed})"
                "</caption><thead><tr><th>result</th><th>runs</th><th>share</th>"
                "<th>95% interval</th></tr></thead><tbody>" + "".join(rows)
                + f"</tbody></table><p>actions per battle: {self.steps}; turns per battle: "
                f"{self.turns}</p>")

    def to_pandas(self) -> Any:
        """Every run as a row of a pandas DataFrame: index, seeds, finished, winner, steps,
        turns, reason, result (``"win"``, ``"draw"``, ``"unfinished"``), and a
        ``score_<side>`` and ``losses_<side>`` column per side."""
        import importlib

        try:
            pandas = importlib.import_module("pandas")
        except ImportError:
            raise InvalidValueError("pandas", "(not installed)",
                                    "install it: pip install 'smoothbore[notebooks]'") from None
        rows = []
        for run in self.runs:
            row: dict[str, Any] = {k: v for k, v in run.to_dict().items()
                                   if k not in ("scores", "losses")}
            for side in self.sides:
                row[f"score_{side}"] = dict(run.scores).get(side)
                row[f"losses_{side}"] = dict(run.losses).get(side)
            rows.append(row)
        return pandas.DataFrame(rows)

    def plot(self, axes: Any = None) -> Any:
        """Two charts through matplotlib (the ``plot`` extra): the share of each result
        with its 95% interval, and how many actions the battles lasted. Returns the axes."""
        import importlib

        try:
            pyplot = importlib.import_module("matplotlib.pyplot")
        except ImportError:
            raise InvalidValueError("matplotlib", "(not installed)",
                                    "install it: pip install 'smoothbore[plot]'") from None
        if axes is None:
            _, axes = pyplot.subplots(1, 2, figsize=(10, 3.5))
        shares, lengths = axes
        labels = [label for label, _ in self._outcomes()]
        rates = [rate for _, rate in self._outcomes()]
        values = [rate.value for rate in rates]
        errors = [[rate.value - rate.interval[0] for rate in rates],
                  [rate.interval[1] - rate.value for rate in rates]]
        shares.bar(labels, values, yerr=errors, capsize=4)
        shares.set_ylabel("share of runs")
        shares.set_title(f"{self.ruleset}: who wins ({len(self.runs)} runs)")
        lengths.hist([run.steps for run in self.runs], bins=20)
        lengths.set_xlabel("actions per battle")
        lengths.set_ylabel("runs")
        return axes


def _rate_cells(rate: Rate) -> tuple[str, str, str]:
    low, high = rate.interval
    return str(rate.count), f"{rate.value:.1%}", f"{low:.1%} to {high:.1%}"


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _mean(runs: tuple[Run, ...], side: str, what: str) -> float | None:
    values = [dict(getattr(run, what)).get(side) for run in runs]
    if not values or any(v is None for v in values):
        return None
    return statistics.fmean(v for v in values if v is not None)


@runtime_checkable
class Losses(Protocol):
    """A turn that says what each side has lost in a state, in the ruleset's own measure
    (strength points, stamina): ``simulate`` uses it for the mean losses when the turn has
    it."""

    def losses(self, state: Any) -> tuple[tuple[str, int], ...]:
        """Each side's losses so far."""
        ...


def losses_of(turn: object, state: Any, outcome: Outcome) -> tuple[tuple[str, int], ...]:
    """Each side's losses at the end of a battle: the turn's own ``losses`` (``Losses``)
    where it has one; otherwise, between two sides, the score of the other side (a score
    is the losses a side inflicted); otherwise unknown (empty)."""
    if isinstance(turn, Losses):
        return tuple(turn.losses(state))
    if len(outcome.scores) == 2:
        (first, first_score), (second, second_score) = outcome.scores
        return ((first, second_score), (second, first_score))
    return ()


def run_seeds(seed: int, index: int) -> tuple[int, int]:
    """The battle seed and the policy seed of run ``index`` of a simulation seeded with
    ``seed``: the ``index``-th child spawned by ``numpy.random.SeedSequence(seed)``, itself
    spawning one child for each."""
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    battle, policy = child.spawn(2)
    return _as_seed(battle), _as_seed(policy)


def _as_seed(sequence: np.random.SeedSequence) -> int:
    return int(sequence.generate_state(1, np.uint64)[0]) >> (64 - _SEED_BITS)


def resolve_ruleset(ruleset: Ruleset | str) -> Ruleset:
    """A ruleset given as itself, as a registered name or alias, or as a
    ``"package.module:ATTRIBUTE"`` reference (a ruleset that is not installed)."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    if not isinstance(ruleset, str):
        raise InvalidValueError("ruleset", ruleset, "a Ruleset, a ruleset name or module:ATTRIBUTE")
    if ":" not in ruleset:
        return get_ruleset(ruleset)
    try:
        return load_reference(ruleset)
    except SmoothboreError:
        raise
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        raise InvalidValueError(
            "ruleset", ruleset, f"module:ATTRIBUTE naming a Ruleset that imports ({error})"
        ) from error


def battle_name(ruleset: Ruleset, battle: str) -> str:
    """The name of one of ``ruleset``'s embedded battles as the ruleset spells it, from any
    spelling ``Ruleset.battle`` accepts (an unknown name lists the known ones)."""
    ruleset.battle(battle)
    return next(name for name, _ in ruleset.battles() if spell(name) == spell(battle))


class BattleError(SmoothboreError):
    """A battle of a simulation failed: which run, with which seeds, and the error."""

    def __init__(self, ruleset: str, battle: str, seed: int, index: int, error: str) -> None:
        self.ruleset = ruleset
        self.battle = battle
        self.seed = seed
        self.index = index
        self.error = error
        super().__init__(
            f"run {index} of {ruleset} ({battle} battle, simulation seed {seed}) failed: "
            f"{error}; play_run({ruleset!r}, {index}, seed={seed}, battle={battle!r}) "
            "plays it again"
        )

    def __reduce__(self) -> tuple[type, tuple[str, str, int, int, str]]:
        return (type(self), (self.ruleset, self.battle, self.seed, self.index, self.error))


@attrs.frozen
class _Job:
    """What a worker needs to play runs: picklable (a ruleset by name or reference where it
    can be)."""

    ruleset: Ruleset | str
    battle: str
    seed: int
    policy: PolicyFactory
    max_steps: int


def play_run(
    ruleset: Ruleset | str,
    index: int,
    *,
    seed: int,
    battle: str = "default",
    policy: PolicyFactory = random_policy,
    max_steps: int = MAX_STEPS,
) -> Played[Any, Any]:
    """Run ``index`` of ``simulate(ruleset, seed=seed, ...)``, played again step by step."""
    found = resolve_ruleset(ruleset)
    if found.turn is None:
        raise InvalidValueError("ruleset", found.name, "a ruleset with a turn")
    make = found.battle(battle)
    battle_seed, policy_seed = run_seeds(seed, index)
    return play(found.turn, make(battle_seed), policy(policy_seed), max_steps=max_steps)


def _run_batch(job: _Job, start: int, stop: int, attempt: int = 0) -> tuple[Run, ...]:
    """Play runs ``start`` to ``stop - 1``. ``attempt`` is not read: it makes each retry a
    different call, which Dask (whose keys hash the arguments) would otherwise answer with
    the failure it already holds for the same arguments."""
    del attempt
    ruleset = resolve_ruleset(job.ruleset)
    turn, make = ruleset.turn, ruleset.battle(job.battle)
    assert turn is not None  # simulate checked it
    runs = []
    for index in range(start, stop):
        battle_seed, policy_seed = run_seeds(job.seed, index)
        try:
            played = play(turn, make(battle_seed), job.policy(policy_seed),
                          max_steps=job.max_steps)
            outcome = played.outcome
            if outcome is None:
                runs.append(Run(index, battle_seed, policy_seed, False, None, (), (),
                                len(played.steps), played.turns, played.stop.value))
            else:
                runs.append(Run(index, battle_seed, policy_seed, True, outcome.winner,
                                outcome.scores, losses_of(turn, played.end, outcome),
                                len(played.steps), played.turns, outcome.reason))
        except Exception as error:
            raise BattleError(ruleset.name, job.battle, job.seed, index, repr(error)) from error
    return tuple(runs)


def _batches(runs: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, runs)) for start in range(0, runs, size)]


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValueError(name, value, "an integer of 1 or more")
    return value


def simulate(
    ruleset: Ruleset | str,
    runs: int = 100,
    seed: int | None = None,
    policy: PolicyFactory = random_policy,
    executor: Executor | None = None,
    *,
    battle: str = "default",
    max_steps: int = MAX_STEPS,
    batch_size: int | None = None,
    progress: Callable[[int, int], None] | str | None = "auto",
    retries: int = MAX_RETRIES,
) -> Simulation:
    """Play ``runs`` battles of ``ruleset``'s embedded ``battle`` to their end and report
    who wins.

    Run ``i`` plays ``battle(battle_seed)`` with ``policy(policy_seed)``, both seeds from
    ``run_seeds(seed, i)`` (``seed`` None: fresh entropy, recorded in the result), for at
    most ``max_steps`` actions. Runs go in batches of ``batch_size`` to ``executor`` (None:
    this process, one batch after the other), and the results come back in run order, so the
    same seed gives the same ``Simulation`` on any executor. ``progress(done, runs)`` is
    called as batches finish; ``"auto"`` (the default) shows a ``tqdm.auto`` bar in a
    notebook or on a terminal once the work has taken a second (none elsewhere), None
    none. Workers get the ruleset by name (or the ``module:ATTRIBUTE``
    reference given), and ``policy`` by pickling.

    A batch lost with its worker (a process killed, as by the out-of-memory killer: a
    ``BrokenProcessPool``; Dask's ``KilledWorker``) is played again, up to ``retries``
    times, on a new process pool like the broken one (the caller's own executor is left to
    the caller); past that ``LostRunsError`` names the runs lost and keeps those finished.
    On any exception (Ctrl-C included) the pools simulate made are stopped at once, their
    workers killed."""
    if progress == "auto":  # issue 31: progress by default for work over a second
        with _auto_bar(runs) as bar:
            return simulate(ruleset, runs, seed, policy, executor, battle=battle,
                            max_steps=max_steps, batch_size=batch_size, progress=bar,
                            retries=retries)
    if progress is not None and not callable(progress):
        raise InvalidValueError("progress", progress, "'auto', None or a function "
                                "progress(done, runs)")
    found = resolve_ruleset(ruleset)
    if found.turn is None:
        raise InvalidValueError("ruleset", found.name, "a ruleset with a turn")
    name = battle_name(found, battle)
    runs = _positive("runs", runs)
    max_steps = _positive("max_steps", max_steps)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidValueError("seed", seed, "None or an integer of 0 or more")
    if not callable(policy):
        raise InvalidValueError("policy", policy, "a function of a seed returning a policy")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise InvalidValueError("executor", executor, "None or a concurrent.futures.Executor")
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= 100:
        raise InvalidValueError("retries", retries, "an integer from 0 to 100")
    size = (_positive("batch_size", batch_size) if batch_size is not None
            else max(1, min(100, math.ceil(runs / 32))))
    entropy = np.random.SeedSequence(seed).entropy
    assert isinstance(entropy, int)
    sides = tuple(found.battle(name)(run_seeds(entropy, 0)[0]).sides)
    batches = _batches(runs, size)
    done = 0
    results: dict[int, tuple[Run, ...]] = {}
    if executor is None:
        job = _Job(found, name, entropy, policy, max_steps)
        for start, stop in batches:
            results[start] = _run_batch(job, start, stop)
            done += stop - start
            if progress is not None:
                progress(done, runs)
    else:
        job = _Job(_reference(found, ruleset, executor), name, entropy, policy, max_steps)
        _run_on(executor, job, batches, results, retries, _Counter(runs, progress))
    ordered = tuple(run for start, _ in batches for run in results[start])
    return Simulation(found.name, name, entropy, sides, ordered)


@contextlib.contextmanager
def _auto_bar(runs: object) -> Any:
    """A ``tqdm.auto`` bar over the runs, shown once a second has passed (a notebook's
    widget, or stderr on a terminal; nothing when stderr is not one), as ``progress``."""
    import warnings

    from tqdm import TqdmWarning

    with warnings.catch_warnings():  # a notebook without ipywidgets: the text bar, quietly
        warnings.simplefilter("ignore", TqdmWarning)
        from tqdm.auto import tqdm

    total = runs if isinstance(runs, int) and not isinstance(runs, bool) else None
    bar = tqdm(total=total, desc="battles", unit="battle", delay=1.0, leave=False,
               disable=None)
    try:
        yield lambda done, _runs: bar.update(done - bar.n)
    finally:
        bar.close()


class LostRunsError(SmoothboreError):
    """Runs of a simulation lost with their worker processes more often than ``simulate``
    retries: which runs, why, and the runs that did finish (``finished``, in run order)."""

    def __init__(self, lost: tuple[tuple[int, int], ...], attempts: int, error: str,
                 finished: tuple[Run, ...] = ()) -> None:
        self.lost = lost
        self.attempts = attempts
        self.error = error
        self.finished = finished
        spans = ", ".join(f"{a}" if b == a + 1 else f"{a}-{b - 1}" for a, b in lost)
        count = sum(b - a for a, b in lost)
        super().__init__(
            f"{count} run{'s' if count != 1 else ''} lost with their worker process after "
            f"{attempts} attempts (runs {spans}): {error}; {len(finished)} finished runs "
            "are kept in this error's .finished")

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return (type(self), (self.lost, self.attempts, self.error, self.finished))


@attrs.define
class _Counter:
    """Counts finished runs for ``progress``."""

    runs: int
    progress: Callable[[int, int], None] | None
    done: int = 0

    def add(self, count: int) -> None:
        self.done += count
        if self.progress is not None:
            self.progress(self.done, self.runs)


def _lost_with_worker(error: BaseException) -> bool:
    """Whether a batch failed because its worker died, not because of its battles."""
    return isinstance(error, BrokenExecutor) or type(error).__name__ == "KilledWorker"


def _run_on(executor: Executor, job: _Job, batches: list[tuple[int, int]],
            results: dict[int, tuple[Run, ...]], retries: int, counter: _Counter) -> None:
    """Play the batches on ``executor``, retrying those lost with a worker (on a fresh pool
    when the pool broke), filling ``results``."""
    attempts = {start: 0 for start, _ in batches}
    stops = dict(batches)
    made: list[Executor] = []  # pools made here, to replace a broken one
    current = executor
    try:
        pending = {current.submit(_run_batch, job, start, stop): start for start, stop in batches}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            lost: list[int] = []
            why = ""
            for future in finished:
                start = pending.pop(future)
                try:
                    batch = future.result()
                except BaseException as error:
                    if not _lost_with_worker(error):
                        raise
                    lost.append(start)
                    why = f"{type(error).__name__}: {error}"
                    continue
                results[start] = batch
                counter.add(len(batch))
            if not lost:
                continue
            for start in lost:
                attempts[start] += 1
            spent = sorted(start for start in lost if attempts[start] > retries)
            if spent:
                for future in pending:
                    future.cancel()
                kept = tuple(run for start in sorted(results) for run in results[start])
                gone = tuple((start, stops[start]) for start in sorted(
                    set(attempts) - set(results)))
                raise LostRunsError(gone, retries + 1, why, kept)
            if _is_broken(current):
                current = _fresh_pool(current)
                made.append(current)
                for future in pending:
                    future.cancel()
                lost = sorted({*lost, *pending.values()})
                pending = {}
            for start in lost:
                pending[current.submit(_run_batch, job, start, stops[start],
                                       attempts[start])] = start
    except BaseException:
        for pool in made:
            stop_executor(pool)
        raise
    for pool in made:
        pool.shutdown()


def _is_broken(executor: Executor) -> bool:
    return bool(getattr(executor, "_broken", False))


def _fresh_pool(broken: Executor) -> Executor:
    """A process pool like a broken one (its size, start method and initializer)."""
    if not isinstance(broken, ProcessPoolExecutor):
        raise InvalidValueError("executor", broken, "an executor that is not broken")
    return ProcessPoolExecutor(
        max_workers=getattr(broken, "_max_workers", None),
        mp_context=getattr(broken, "_mp_context", None),
        initializer=getattr(broken, "_initializer", None),
        initargs=getattr(broken, "_initargs", ()),
    )


def stop_executor(executor: Executor) -> None:
    """Stop an executor at once: queued batches cancelled and, for a process pool, its
    workers killed (not left to finish their batch, which took up to a minute)."""
    processes = list(getattr(executor, "_processes", None) or {})
    workers = [getattr(executor, "_processes", {}).get(pid) for pid in processes]
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker is not None:
            with contextlib.suppress(Exception):
                worker.kill()
    for worker in workers:
        if worker is not None:
            with contextlib.suppress(Exception):
                worker.join(timeout=1.0)


def worker_start(parent: int) -> None:
    """The initializer of ``simulate``'s worker processes: Ctrl-C is left to the parent
    (which stops them), and a worker exits by itself when its parent dies (a parent killed
    with SIGKILL cannot stop them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent, os.getppid()), daemon=True,
                     name="smoothbore-parent-watch").start()


def _watch_parent(parent: int, ppid: int, every: float = 0.2) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != ppid or not _alive(parent):
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, though not ours to signal
        return True
    return True


def _reference(found: Ruleset, given: Ruleset | str, executor: Executor) -> Ruleset | str:
    """How workers find the ruleset: as given when it is a name or reference; by name when
    the registry gives this very ruleset; otherwise the ruleset itself (pickled, unless the
    workers are threads of this process)."""
    if isinstance(given, str):
        return given
    try:
        if get_ruleset(found.name) is found:
            return found.name
    except Exception:  # any failure to load it means it is not this registered ruleset
        pass
    if not isinstance(executor, ThreadPoolExecutor):
        try:
            pickle.dumps(found)
        except Exception as error:
            raise InvalidValueError(
                "ruleset", found.name,
                "a registered name or a 'module:ATTRIBUTE' reference to run on worker "
                f"processes (this Ruleset does not pickle: {error})",
            ) from error
    return found
