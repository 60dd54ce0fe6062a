"""Simulation: seeds derived per run, the same results on any executor and batching, win
rates with Wilson intervals, losses, lengths and the errors (on the toy ruleset of
tests/toy_ruleset.py, loaded by workers through its reference)."""

from __future__ import annotations

import json
import pickle
import statistics
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import attrs
import numpy as np
import pytest

import smoothbore
from smoothbore.battle import play, random_policy
from smoothbore.core import IllegalActionError, InvalidValueError, Outcome, Result, Ruleset
from smoothbore.simulation import (
    BattleError,
    Losses,
    Rate,
    Run,
    Simulation,
    losses_of,
    play_run,
    run_seeds,
    simulate,
    wilson,
)
from tests import toy_ruleset as toy

TOY = "tests.toy_ruleset:RULESET"


@pytest.mark.parametrize(
    ("count", "total", "low", "high"),
    # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
     (1, 29, 0.0061, 0.1718)],
)
def test_wilson_interval_matches_newcombe(count: int, total: int, low: float, high: float
                                          ) -> None:
    assert wilson(count, total) == pytest.approx((low, high), abs=5e-5)


def test_wilson_refuses_impossible_counts() -> None:
    for count, total in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(InvalidValueError, match="count/total"):
            wilson(count, total)


def test_run_seeds_are_spawned_from_the_seed_sequence() -> None:
    children = np.random.SeedSequence(42).spawn(3)
    for index, child in enumerate(children):
        battle, policy = child.spawn(2)
        expected = tuple(int(s.generate_state(1, np.uint64)[0]) >> 1 for s in (battle, policy))
        assert run_seeds(42, index) == expected
    seeds = [s for i in range(100) for s in run_seeds(42, i)]
    assert len(set(seeds)) == 200 and all(0 <= s < 2**63 for s in seeds)


def test_each_run_is_the_battle_its_seeds_give() -> None:
    result = simulate(toy.RULESET, runs=12, seed=3)
    assert [run.index for run in result.runs] == list(range(12))
    for run in result.runs:
        assert (run.battle_seed, run.policy_seed) == run_seeds(3, run.index)
        played = play(toy.TURN, toy.example_battle(run.battle_seed),
                      random_policy(run.policy_seed))
        assert played == play_run(TOY, run.index, seed=3)
        assert played.outcome is not None
        assert (run.finished, run.winner, run.scores, run.steps, run.turns, run.reason) == (
            True, played.outcome.winner, played.outcome.scores, len(played.steps),
            played.turns, played.outcome.reason)
        assert dict(run.losses) == dict(toy.losses(played.end))


def test_same_seed_same_results_whatever_the_batches_and_the_executor() -> None:
    serial = simulate(toy.RULESET, runs=60, seed=11)
    assert simulate(TOY, runs=60, seed=11, batch_size=1) == serial
    assert simulate(toy.RULESET, runs=60, seed=11, batch_size=7) == serial
    with ThreadPoolExecutor(3) as threads:
        assert simulate(toy.RULESET, runs=60, seed=11, executor=threads, batch_size=4) == serial
    with ProcessPoolExecutor(2) as processes:
        assert simulate(TOY, runs=60, seed=11, executor=processes, batch_size=9) == serial
    assert simulate(toy.RULESET, runs=60, seed=12) != serial


def test_same_results_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    serial = simulate(toy.RULESET, runs=40, seed=5, battle="long")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_cluster = simulate(TOY, runs=40, seed=5, battle="long",
                              executor=client.get_executor(), batch_size=6)
    assert on_cluster == serial


def test_results_count_every_run_once() -> None:
    result = simulate(toy.RULESET, runs=150, seed=2, battle="long")
    assert isinstance(result, Simulation) and result.battle == "long" and result.seed == 2
    wins = {side: result.wins(side) for side in toy.SIDES}
    assert sum(rate.count for rate in wins.values()) + result.draws.count + \
        result.unfinished.count == 150
    for side, rate in wins.items():
        assert rate == Rate(sum(run.winner == side for run in result.runs), 150)
        assert rate.interval == wilson(rate.count, 150)
        assert result.mean_score(side) == statistics.fmean(
            dict(run.scores)[side] for run in result.runs)
    # two sides: a side's losses are the other side's score
    assert result.mean_losses(toy.RED) == result.mean_score(toy.BLUE)
    assert result.steps.mean == statistics.fmean(run.steps for run in result.runs)
    assert result.turns.high == max(run.turns for run in result.runs)
    data = result.to_dict()
    assert data["runs"] == data["finished"] == 150
    assert [s["wins"]["count"] for s in data["sides"]] == [wins[s].count for s in toy.SIDES]
    assert "each_run" not in data and len(result.to_dict(runs=True)["each_run"]) == 150
    table = result.table().splitlines()
    assert table[1].split()[:2] == [toy.RED, str(wins[toy.RED].count)]


def test_battles_cut_at_the_step_limit_count_as_not_finished() -> None:
    result = simulate(toy.RULESET, runs=5, seed=1, max_steps=4)
    assert result.unfinished == Rate(5, 5) and result.draws == Rate(0, 5)
    assert {run.reason for run in result.runs} == {"the step limit was reached"}
    assert all(run.steps == 4 and run.scores == () for run in result.runs)
    assert result.mean_score(toy.RED) is None and result.mean_losses(toy.RED) is None


@attrs.frozen
class _TurnWithLosses:
    """The toy turn, saying each side's losses itself (the ``Losses`` protocol)."""

    inner: Any = toy.TURN

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def losses(self, state: Any) -> tuple[tuple[str, int], ...]:
        return tuple((side, 10 * lost) for side, lost in toy.losses(state))


def test_a_turn_that_says_its_losses_is_asked() -> None:
    turn = _TurnWithLosses()
    assert isinstance(turn, Losses) and not isinstance(toy.TURN, Losses)
    played = play(toy.TURN, toy.example_battle(1), random_policy(1))
    assert played.outcome is not None
    lost = dict(toy.losses(played.end))
    assert dict(losses_of(turn, played.end, played.outcome)) == {
        side: 10 * n for side, n in lost.items()}
    assert dict(losses_of(toy.TURN, played.end, played.outcome)) == lost
    ruleset = attrs.evolve(toy.RULESET, turn=turn)
    result = simulate(ruleset, runs=20, seed=4)
    plain = simulate(toy.RULESET, runs=20, seed=4)
    mean = plain.mean_losses(toy.RED)
    assert mean is not None and result.mean_losses(toy.RED) == pytest.approx(10 * mean)


def test_seed_none_draws_entropy_and_records_it() -> None:
    result = simulate(toy.RULESET, runs=3)
    assert result.seed > 0
    assert simulate(toy.RULESET, runs=3, seed=result.seed) == result


def test_progress_is_reported_as_batches_finish() -> None:
    calls: list[tuple[int, int]] = []
    simulate(toy.RULESET, runs=10, seed=1, batch_size=4, progress=lambda *a: calls.append(a))
    assert calls == [(4, 10), (8, 10), (10, 10)]


def test_a_failing_battle_names_its_run_and_seed() -> None:
    with pytest.raises(BattleError, match=r"run \d+ of toy \(default battle, simulation seed "
                       r"8\) failed: IllegalActionError.*play_run\('toy', \d+, seed=8"
                       ) as caught:
        simulate(toy.broken("refuses"), runs=30, seed=8)
    error = caught.value
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    assert isinstance(error.__cause__, IllegalActionError)
    with pytest.raises(IllegalActionError, match="the last point cannot be taken"):
        play_run(toy.broken("refuses"), error.index, seed=8)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"runs": 0}, "runs=0"),
        ({"seed": -1}, "seed=-1"),
        ({"battle": "siege"}, "toy battle='siege' is invalid: allowed is one of default, long"),
        ({"max_steps": 0}, "max_steps=0"),
        ({"batch_size": 0}, "batch_size=0"),
        ({"executor": "many"}, "executor='many'"),
        ({"policy": 3}, "policy=3"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        simulate(toy.RULESET, **{"runs": 2, **arguments})


def test_an_unregistered_ruleset_that_does_not_pickle_needs_a_reference() -> None:
    local = attrs.evolve(toy.RULESET, example=lambda seed: toy.example_battle(seed))
    with ProcessPoolExecutor(1) as processes, pytest.raises(
            InvalidValueError, match="ruleset='toy'.*'module:ATTRIBUTE' reference"):
        simulate(local, runs=2, executor=processes)
    with ThreadPoolExecutor(2) as threads:  # threads share the ruleset: nothing to pickle
        assert simulate(local, runs=4, seed=1, executor=threads) == simulate(
            toy.RULESET, runs=4, seed=1)


def test_rulesets_by_reference_and_without_a_turn() -> None:
    with pytest.raises(InvalidValueError, match="ruleset='nowhere:RULESET'"):
        simulate("nowhere:RULESET")
    with pytest.raises(InvalidValueError, match="a ruleset with a turn"):
        simulate(attrs.evolve(toy.RULESET, turn=None))
    assert isinstance(toy.RULESET, Ruleset)


def test_simulate_is_exported_at_the_top() -> None:
    assert smoothbore.simulate is simulate
    assert smoothbore.play is play


def test_a_simulation_shows_itself_in_notebooks_and_exports_its_runs() -> None:
    from html.parser import HTMLParser

    result = simulate("will_awi", runs=40, seed=3)
    shares = ", ".join(f"{side} {result.wins(side).value:.1%}" for side in result.sides)
    assert repr(result) == (f"<Simulation will_awi (default): 40 runs, seed 3; wins {shares}; "
                            f"draws {result.draws.value:.1%}>")

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []
            self.cell: str | None = None

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag == "tr":
                self.rows.append([])
            if tag == "td":
                self.cell = ""

        def handle_endtag(self, tag: str) -> None:
            if tag == "td" and self.cell is not None:
                self.rows[-1].append(self.cell.strip())
                self.cell = None

        def handle_data(self, data: str) -> None:
            if self.cell is not None:
                self.cell += data

    cells = Cells()
    cells.feed(result._repr_html_())
    body = cells.rows[1:]
    assert [row[0] for row in body] == [*result.sides, "draw", "not finished"]
    low, high = result.wins("British").interval
    assert body[0][1:] == [str(result.wins("British").count),
                           f"{result.wins('British').value:.1%}", f"{low:.1%} to {high:.1%}"]
    pandas = pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 40
    assert list(frame["steps"]) == [run.steps for run in result.runs]
    assert list(frame["score_British"]) == [dict(r.scores).get("British") for r in result.runs]


def test_a_simulation_plots_who_wins_with_intervals() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    result = simulate("will_awi", runs=30, seed=4)
    shares, lengths = result.plot()
    heights = [patch.get_height() for patch in shares.patches]
    assert heights == pytest.approx(
        [result.wins(s).value for s in result.sides] + [result.draws.value,
                                                        result.unfinished.value])
    assert sum(patch.get_height() for patch in lengths.patches) == 30
    matplotlib.pyplot.close("all")


@attrs.frozen
class _DyingPolicy:
    """A policy factory whose worker process is killed outright (SIGKILL, as the
    out-of-memory killer does) when asked for one run's policy, the first ``deaths`` times
    (counted by files in ``marks``, shared by the workers); otherwise ``random_policy``."""

    marks: str
    seed: int
    deaths: int

    def __call__(self, policy_seed: int) -> Any:
        import os
        import signal
        from pathlib import Path

        if policy_seed == self.seed:
            died = len(list(Path(self.marks).glob("death-*")))
            if died < self.deaths:
                (Path(self.marks) / f"death-{died}").write_text("")
                os.kill(os.getpid(), signal.SIGKILL)
        return random_policy(policy_seed)


def test_a_batch_lost_with_a_killed_worker_is_played_again(tmp_path: Any) -> None:
    """Issue 28: a process-pool worker killed lost every run ("internal error ...
    BrokenProcessPool"); the lost batches are played again on a fresh pool, same results."""
    serial = simulate(toy.RULESET, runs=30, seed=11)
    dying = _DyingPolicy(str(tmp_path), run_seeds(11, 7)[1], deaths=1)
    with ProcessPoolExecutor(2) as processes:
        again = simulate(TOY, runs=30, seed=11, executor=processes, batch_size=5,
                         policy=dying)
    assert len(list(tmp_path.glob("death-*"))) == 1
    assert again == serial


def _on_dying_dask_worker(marks: Any, deaths: int, seconds: float = 120.0) -> Any:
    """``simulate`` of the toy (30 runs, seed 11, batches of 5) on a real local Dask
    cluster of one worker process, whose run 7 kills that process the first ``deaths``
    times; Dask gives a task up at the first death (``allowed-failures`` 0), so each
    death is one ``KilledWorker``. The result, or the error raised, within ``seconds``."""
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    dying = _DyingPolicy(str(marks), run_seeds(11, 7)[1], deaths=deaths)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, ThreadPoolExecutor(1) as caller:
        future = caller.submit(simulate, TOY, runs=30, seed=11,
                               executor=client.get_executor(), batch_size=5, policy=dying)
        try:
            return future.result(timeout=seconds)
        except BaseException as error:  # the error itself, to be asserted on
            return error


def test_dask_a_batch_lost_with_a_killed_worker_is_played_again(tmp_path: Any) -> None:
    """Issue 28: on Dask a batch lost with its worker came back as the same failure at
    every retry (Dask's key hashes the arguments); each retry is now a new task, and the
    result is the serial one."""
    serial = simulate(toy.RULESET, runs=30, seed=11)
    again = _on_dying_dask_worker(tmp_path, deaths=2)
    assert again == serial
    assert len(list(tmp_path.glob("death-*"))) == 2


def test_dask_runs_lost_more_often_than_retried_are_named_and_the_rest_kept(
        tmp_path: Any) -> None:
    """Issue 28: past the retries a Dask ``KilledWorker`` becomes a ``LostRunsError`` that
    names the runs lost and keeps the runs finished, not a raw ``KilledWorker``."""
    from smoothbore.simulation import MAX_RETRIES, LostRunsError

    serial = simulate(toy.RULESET, runs=30, seed=11)
    error = _on_dying_dask_worker(tmp_path, deaths=1000)
    assert isinstance(error, LostRunsError), repr(error)
    assert (5, 10) in error.lost and error.attempts == MAX_RETRIES + 1
    assert "KilledWorker" in error.error and "5-9" in str(error)
    lost = {i for a, b in error.lost for i in range(a, b)}
    assert len(error.finished) + len(lost) == 30
    assert all(run == serial.runs[run.index] for run in error.finished)
    assert len(list(tmp_path.glob("death-*"))) == MAX_RETRIES + 1


def test_runs_lost_more_often_than_retried_are_named_and_the_rest_kept(tmp_path: Any) -> None:
    """Issue 28: past ``retries`` a LostRunsError names the runs lost and keeps the runs
    that finished (each the run the seed gives)."""
    from smoothbore.simulation import MAX_RETRIES, LostRunsError

    serial = simulate(toy.RULESET, runs=30, seed=11)
    dying = _DyingPolicy(str(tmp_path), run_seeds(11, 7)[1], deaths=1000)
    with ProcessPoolExecutor(2) as processes, pytest.raises(LostRunsError) as caught:
        simulate(TOY, runs=30, seed=11, executor=processes, batch_size=5, policy=dying)
    error = caught.value
    assert (5, 10) in error.lost and error.attempts == MAX_RETRIES + 1
    assert f"after {MAX_RETRIES + 1} attempts" in str(error) and "5-9" in str(error)
    assert "BrokenProcessPool" in error.error
    lost = {i for a, b in error.lost for i in range(a, b)}
    assert len(error.finished) + len(lost) == 30
    assert all(run == serial.runs[run.index] for run in error.finished)
    assert len(list(tmp_path.glob("death-*"))) == MAX_RETRIES + 1
    assert pickle.loads(pickle.dumps(error)).lost == error.lost


# --- issue 31: outcomes as named values, not strings to match by hand ----------------------------
def _run(index: int, finished: bool, winner: str | None) -> Run:
    scores = ((toy.RED, 1), (toy.BLUE, 0)) if finished else ()
    return Run(index, index, index, finished, winner, scores, (), 3, 1,
               "decided" if finished else "the step limit was reached")


def test_a_run_and_an_outcome_name_their_result() -> None:
    """Issue 31: a draw and an unfinished run were ``winner is None`` told apart by hand and
    shown as "draw" / "not finished"."""
    assert [_run(0, True, toy.RED).result, _run(1, True, None).result,
            _run(2, False, None).result] == [Result.WIN, Result.DRAW, Result.UNFINISHED]
    assert Outcome(toy.RED, (), "r", "x").result is Result.WIN
    assert Outcome(None, (), "r", "x").result is Result.DRAW
    assert json.dumps([Result.WIN, Result.DRAW, Result.UNFINISHED]) == (
        '["win", "draw", "unfinished"]')  # its own text in JSON
    assert Result("draw") is Result.DRAW and Result.of("Unfinished") is Result.UNFINISHED
    with pytest.raises(InvalidValueError, match="did you mean 'draw'"):
        Result.of("drawn")
    assert smoothbore.core.Result is Result


def test_a_simulation_is_asked_by_result() -> None:
    runs = (_run(0, True, toy.RED), _run(1, True, None), _run(2, False, None),
            _run(3, True, toy.BLUE), _run(4, True, toy.RED))
    simulation = Simulation("toy", "default", 0, toy.SIDES, runs)
    assert [r.index for r in simulation.where(Result.WIN)] == [0, 3, 4]
    assert [r.index for r in simulation.where("win", toy.RED)] == [0, 4]
    assert [r.index for r in simulation.where(Result.DRAW)] == [1]
    assert [r.index for r in simulation.where("unfinished")] == [2]
    assert simulation.rate(Result.WIN) == Rate(3, 5)
    assert simulation.rate(Result.WIN, toy.BLUE) == simulation.wins(toy.BLUE) == Rate(1, 5)
    assert simulation.rate("draw") == simulation.draws == Rate(1, 5)
    assert simulation.rate(Result.UNFINISHED) == simulation.unfinished == Rate(1, 5)
    with pytest.raises(InvalidValueError, match="only with result=win"):
        simulation.where(Result.DRAW, toy.RED)
    with pytest.raises(InvalidValueError, match="one of"):
        simulation.where(Result.WIN, "green")
    each = simulation.to_dict(runs=True)["each_run"]
    assert [row["result"] for row in each] == ["win", "draw", "unfinished", "win", "win"]
    assert json.loads(json.dumps(each))[1]["result"] == "draw"


def test_a_simulated_battles_results_add_up_by_name() -> None:
    result = simulate(toy.RULESET, runs=40, seed=2, battle="long")
    counted = {r: len(result.where(r)) for r in Result}
    assert sum(counted.values()) == 40
    assert counted[Result.WIN] == sum(result.wins(side).count for side in toy.SIDES)
    assert all(run.result is Result.WIN for side in toy.SIDES
               for run in result.where(Result.WIN, side))
