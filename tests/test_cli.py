"""The command line: rulesets, odds tables and JSON, battles to the end, simulations,
errors (battles and simulations on the toy ruleset of tests/toy_ruleset.py, by reference)."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from smoothbore import get_ruleset
from smoothbore.battle import BattleRecord, play, random_policy, unit_table
from smoothbore.cli import DEFAULT_TARGET, _Progress, main
from smoothbore.core.catalogue import DICE_MECHANISMS
from smoothbore.core.chance import monte_carlo
from smoothbore.core.distribution import Distribution
from smoothbore.core.ruleset import find_mechanism, spell
from smoothbore.rulesets import BUILTIN_RULESETS
from smoothbore.simulation import simulate
from smoothbore.views.narration import report
from tests import toy_ruleset as toy

TOY = "tests.toy_ruleset:RULESET"


def test_default_dice_odds_is_six_d12_at_or_under_seven(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "dice"]) == 0
    out = capsys.readouterr().out
    # six dice each passing on 1-7 of 12: a binomial, mean 6 * 7/12 = 3.5,
    # sd sqrt(6 * 7/12 * 5/12) = 1.2076
    assert _body(out)[0] == "mean 3.50, standard deviation 1.21"
    assert "117649/2985984" not in out  # decimals unless --exact
    assert main(["odds", "dice", "--exact"]) == 0
    out = capsys.readouterr().out
    # 6 successes: each die passes on 1-7 (7/12), all six: 7**6 / 12**6
    six = next(line for line in out.splitlines() if line.startswith("6 "))
    assert six.split()[1:3] == ["3.94%", "117649/2985984"]


def _body(out: str) -> list[str]:
    """What ``odds`` prints after its heading (the mechanism, its parameters, its summary
    and rule): the headline first."""
    return out.split("\n\n", 1)[1].splitlines()


def _charge() -> Distribution[Any]:
    from smoothbore import get_ruleset, odds

    return odds(get_ruleset("bloodybacks93").mechanism("charge").function)


def test_default_odds_leads_with_who_wins_the_charge_and_groups_the_outcomes(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bloodybacks93 charge ")
    lines = _body(out)
    assert all(len(line) <= 100 for line in out.splitlines())  # the parameters wrap
    charge = _charge()
    won = charge.probability(lambda v: str(v).startswith(("chargers", "defenders did not")))
    assert lines[0] == f"the chargers win {float(won):.2%}"
    groups = {line.rsplit(None, 2)[0]: line.split() for line in lines[3:6]}
    assert set(groups) == {"defenders did not stand", "defenders won the melee",
                           "chargers won the melee"}
    melee = charge.probability(lambda v: str(v).startswith("chargers won the melee"))
    assert f"{float(melee):.2%}" in groups["chargers won the melee"]
    assert "17 outcomes in 3 groups" in out
    assert "/" not in "".join(lines[1:])  # no fraction without --exact


def test_odds_detail_shows_every_outcome_and_exact_the_fractions(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--detail", "--exact"]) == 0
    rows = _body(capsys.readouterr().out)[3:]
    charge = _charge()
    assert len(rows) == len(charge) == 17
    fractions = [Fraction(next(c for c in row.split() if "/" in c)) for row in rows]
    assert sum(fractions) == 1
    assert fractions[0] == charge.probability(charge.outcomes[0])


def test_long_pools_print_decimals_and_say_what_the_summary_leaves_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "pool", "count=2000"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) < 100
    assert "<0.01%" in out
    assert "more outcomes, together" in out
    assert len(out.splitlines()) < 200


def test_sampled_columns_align_and_exact_results_come_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "total", "roll=d6", "--samples", "600", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.index("P(=)") < out.index("sampled 600 times")
    table = out.split("sampled 600 times (seed 4):\n")[1].splitlines()[:7]
    assert table[0].split() == ["outcome", "sampled", "±", "1", "s.e.", "exact"]
    assert len({len(line) for line in table}) == 1  # every row as wide: aligned
    assert [row.split()[-1] for row in table[1:]] == ["16.67%"] * 6
    # the same counts as monte_carlo with the same seed
    total = find_mechanism(DICE_MECHANISMS, "total", "dice")
    estimate = monte_carlo(total.function, samples=600, rng=4,
                           **total.arguments({"roll": "d6"}))
    assert [row.split()[1] for row in table[1:]] == [
        f"{estimate.probability(face):.2%}" for face in range(1, 7)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "bloodyback93", "charge"], "did you mean 'bloodybacks93'?"),
        (["odds", "bb93", "chrge"], "did you mean 'charge'?"),
        (["odds", "bb93", "charge", "defender_qualty=4"], "did you mean 'defender_quality'?"),
        (["odds", "bb93", "charge", "contact=frnt"], "did you mean 'front'?"),
        (["battle", "will-aw"], "did you mean 'will_awi'?"),
    ],
)
def test_did_you_mean(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    if argv[1] == "bloodyback93":
        assert "bloodybacks93 (also bloodybacks, bb93)" in err  # aliases listed


def test_list_shows_each_parameters_help_type_and_choices(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "will_awi", "--list"]) == 0
    out = capsys.readouterr().out
    fire = get_ruleset("will_awi").mechanism("fire")
    assert f"fire: {fire.summary} [{fire.rule}]" in out
    cover = fire.parameter("cover")
    line = next(line for line in out.splitlines() if line.strip().startswith("cover="))
    assert cover.help in line
    assert "choice of " + ", ".join(spell(c) for c in cover.choices) in line
    strength = next(line for line in out.splitlines()
                    if line.strip().startswith("firer_strength="))
    assert "an integer from 1 to 6" in strength
    assert main(["odds", "will_awi", "--list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    listed = {p["name"]: p for p in data[0]["parameters"]}
    assert listed["cover"]["choices"] == [spell(c) for c in cover.choices]
    assert listed["cover"]["type"] == "choice"
    assert listed["firer_strength"]["low"] == 1


def test_either_spelling_of_a_choice_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "will_awi", "fire", "firer=light_infantry", "--json"]) == 0
    underscored = json.loads(capsys.readouterr().out)
    assert main(["odds", "will_awi", "fire", "firer=light-infantry", "--json"]) == 0
    dashed = json.loads(capsys.readouterr().out)
    assert underscored == dashed
    assert dashed["parameters"]["firer"] == "light-infantry"


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "threshold", "roll=2d6", "target=7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    weights = {o["outcome"]: o["fraction"] for o in data["outcomes"]}
    assert weights == {False: "5/12", True: "7/12"}
    assert data["parameters"]["target"] == 7


def test_odds_with_samples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "total", "roll=d6", "--samples", "600", "--seed", "4"]) == 0
    assert "sampled 600 times (seed 4)" in capsys.readouterr().out


def test_list_and_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "--list"]) == 0
    assert "    count=6 " in capsys.readouterr().out
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dice")
    for name, _ in BUILTIN_RULESETS:
        assert name in out
    # issue 31: the battles each book embeds, as the README says (see `rulesets`)
    assert ("                 battles: default, command-and-control, germantown, prestonpans, "
            "cowpens,\n                          vinegar-hill (each also -no-table)\n") in out
    assert main(["rulesets", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert isinstance(listed, list)
    mckie = next(r for r in listed if r["name"] == "mckie_acw")
    assert mckie["battles"] == ["default", "sharpshooters", "champion-hill",
                                "default-no-table", "sharpshooters-no-table",
                                "champion-hill-no-table"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "nowhere", "x"], "ruleset='nowhere'"),
        (["odds", "dice", "pool", "need=high"], "need='high'"),
        (["odds", "dice", "pool", "needs"], "name=value"),
        (["odds", "dice", "cannon"], "one of pool, total"),
        (["odds", "dice", "pool", "--samples", "-1"], "--samples"),
        (["odds", "bloodybacks93"], "one of activity"),
    ],
)
def test_errors_are_clear(argv: list[str], message: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_odds_samples_that_would_take_longer_than_the_budget_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28: ``--samples`` up to 10,000,000 took minutes (hours for a big pool); now a
    count is judged on the rate of the first samples against a budget of seconds. A pool of
    3,000 d12 samples some 200 times a second: a million samples are more than an hour,
    refused with the field, the value, the count that fits and how to wait longer."""
    argv = ["odds", "dice", "pool", "count=3000", "--samples", "1000000", "--seed", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("smoothbore: error: --samples=1000000 is invalid: allowed is 0 to ")
    assert "more than --budget 5 s (raise --budget, at most 3600 s" in err


@pytest.mark.parametrize("budget", ["0", "-1", "nan", "3601"])
def test_odds_budget_out_of_range_is_refused(budget: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dice", "pool", "--samples", "10", "--budget", budget]) == 2
    err = capsys.readouterr().err
    assert f"--budget={float(budget)} is invalid" in err
    assert "more than 0 and at most 3600 seconds" in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert all(command in out for command in ("rulesets", "odds", "battle", "simulate"))


def test_battle_plays_to_the_end_and_shows_the_outcome_and_the_units(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["battle", TOY, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    played = play(toy.TURN, toy.example_battle(3), random_policy(3))
    assert played.outcome is not None
    assert out.startswith("Toy Skirmish: the default battle, seed 3, actions chosen at random")
    steps = "\n".join(report(played.steps, played.start, toy.TURN))
    assert steps in out and "end phase" not in out  # idle phases folded (issue 31)
    ending = (f"The battle is over after {len(played.steps)} actions in {played.turns} turns: "
              f"{played.outcome}")
    assert out.endswith(f"{ending}\n\n{unit_table(played.end, played.start)}\n")


def test_battle_cites_rules_once_a_step_or_every_line_with_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plain = ["--battle", "default-no-table"]  # the actions as the caller gives them
    assert main(["battle", "will_awi", *plain, "--seed", "3", "--turns", "1"]) == 0
    once = capsys.readouterr().out
    assert main(["battle", "will_awi", *plain, "--seed", "3", "--turns", "1", "--rules",
                 "--actions"]) == 0
    every = capsys.readouterr().out
    cited = "Rules - Movement"
    # by default the rule closes the step, in brackets; with --rules every event cites it
    assert any(line.startswith("  (") and cited in line for line in once.splitlines())
    assert not any(line.endswith("]") and cited in line for line in once.splitlines())
    assert any(line.endswith(f"{cited}]") for line in every.splitlines())
    assert "  action: Move(unit='r1')" in every and "Move(unit=" not in once
    # issue 31: a unit holding its ground is told so, not narrated as "23rd Foot: move"
    assert "[turn 1, C: movement] 23rd Foot holds its position" in once
    assert "23rd Foot: move" not in once


def test_the_default_battle_of_the_command_line_plays_to_its_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from smoothbore import get_ruleset

    assert main(["battle", "--seed", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    ruleset = get_ruleset(DEFAULT_TARGET[0])
    assert ruleset.turn is not None and ruleset.example is not None
    played = play(ruleset.turn, ruleset.example(2), random_policy(2))
    assert played.outcome is not None
    assert out.startswith(f"The battle is over after {len(played.steps)} actions in "
                          f"{played.turns} turns: {played.outcome}\n")


def test_battle_picks_an_embedded_battle_and_stops_where_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["battle", TOY, "--battle", "Long", "--seed", "2", "--turns", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    played = play(toy.TURN, toy.long_battle(2), random_policy(2), until=lambda s: s.turn >= 3)
    assert out.splitlines()[0] == (
        f"The battle was cut short after 2 turns (--turns 2), {len(played.steps)} actions: "
        "it is not over (turn 3, fire).")
    assert unit_table(played.end, played.start) in out
    assert main(["battle", TOY, "--max-steps", "5", "--quiet"]) == 0
    short = play(toy.TURN, toy.RULESET.battles()[0][1](1), random_policy(1), max_steps=5)
    assert len(short.steps) == 5 and short.outcome is None  # the default battle, seed 1
    assert capsys.readouterr().out.startswith(
        "The battle is not finished: it reached the step limit (--max-steps 5) in turn "
        f"{short.end.turn}, {short.end.phase}.")


def test_battle_json_has_the_outcome_and_the_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", TOY, "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    played = play(toy.TURN, toy.example_battle(4), random_policy(4))
    assert played.outcome is not None
    assert (data["steps"], data["turns"], data["finished"], data["stopped"]) == (
        len(played.steps), played.turns, True, "over")
    assert data["outcome"]["winner"] == played.outcome.winner
    assert data["outcome"]["result"] == played.outcome.result == (
        "draw" if played.outcome.winner is None else "win")
    assert data["outcome"]["scores"] == dict(played.outcome.scores)
    assert toy.TURN.load(json.dumps(data["state"])) == played.end


def test_simulate_reports_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", TOY, "--runs", "40", "--seed", "6"]) == 0
    out = capsys.readouterr()
    assert out.err == ""  # no progress line: stderr is not a terminal
    result = simulate(toy.RULESET, runs=40, seed=6)
    assert out.out.startswith("Toy Skirmish: the default battle played 40 times to its end")
    assert out.out.endswith(result.table() + "\n")


def test_simulate_json_is_the_same_with_any_number_of_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", TOY, "--runs", "30", "--seed", "2", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["simulate", TOY, "--runs", "30", "--seed", "2", "--json", "--jobs", "2",
                 "--batch-size", "4", "--battle", "default"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two == json.loads(json.dumps(simulate(toy.RULESET, runs=30, seed=2).to_dict()))


def test_progress_line_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        progress = _Progress(stream)
        progress(5, 20)
        progress(20, 20)
        progress.close()
    assert "simulating" in screen.getvalue() and "/20" in screen.getvalue()
    assert pipe.getvalue() == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["battle", TOY, "--turns", "0"], "--turns=0 is invalid: allowed is 1 or more"),
        (["battle", TOY, "--seed", "-1"], "--seed=-1"),
        (["battle", TOY, "--max-steps", "0"], "--max-steps=0"),
        (["battle", TOY, "--battle", "siege"], "allowed is one of default, long"),
        (["battle", TOY, "--turns", "x"], "argument --turns: invalid int value: 'x'"),
        (["battle", "nowhere"], "ruleset='nowhere'"),
        (["battle", "nowhere:RULESET"], "ruleset='nowhere:RULESET'"),
        (["simulate", TOY, "--runs", "0"], "--runs=0"),
        (["simulate", TOY, "--jobs", "0"], "--jobs=0"),
        (["simulate", TOY, "--batch-size", "0"], "--batch-size=0"),
        (["simulate", TOY, "--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["parade"], "argument COMMAND: invalid choice: 'parade'"),
    ],
)
def test_every_error_is_one_line(argv: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("smoothbore: error: ") and err.count("\n") == 1
    assert message in err


def test_battle_record_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    assert main(["battle", TOY, "--seed", "3", "--quiet", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--quiet", "--ruleset", TOY]) == 0
    out = capsys.readouterr().out
    assert "every step gave the events recorded" in out
    assert main(["replay", str(path)]) == 2
    assert "ruleset='toy'" in capsys.readouterr().err
    data = json.loads(path.read_text("utf-8"))
    step = next(s for s in data["steps"] if s["events"])
    step["events"][0] = "something else happened"
    path.write_text(json.dumps(data), "utf-8")
    assert main(["replay", str(path), "--ruleset", TOY]) == 2
    err = capsys.readouterr().err
    assert err.startswith("smoothbore: error: replay differs at step ")
    assert err.count("\n") == 1
    assert main(["battle", TOY, "--record", str(tmp_path / "no" / "dir.json")]) == 2
    assert "--record=" in capsys.readouterr().err


def test_svg_draws_the_table_a_battle_ended_on(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    path, record = tmp_path / "end.svg", tmp_path / "battle.json"
    argv = ["battle", TOY, "--battle", "field", "--quiet", "--svg", str(path)]
    assert main([*argv, "--record", str(record)]) == 0
    svg = ET.parse(path).getroot()
    classes = [e.get("class", "") for e in svg.iter()]
    assert sum(c.startswith("unit ") for c in classes) == 4  # the four companies
    assert any("light-woods" in c for c in classes)
    ids = {e.get("id") for e in svg.iter()}
    assert {"unit-r1", "unit-b2", "terrain-w"} <= ids
    again = tmp_path / "again.svg"
    assert main(["replay", str(record), "--quiet", "--ruleset", TOY, "--svg", str(again)]) == 0
    assert again.read_text("utf-8") == path.read_text("utf-8")  # the same battle, drawn
    capsys.readouterr()
    assert main(["battle", TOY, "--quiet", "--svg", str(tmp_path / "none.svg")]) == 2
    err = capsys.readouterr().err
    assert "--svg=" in err and "no table to draw" in err and err.count("\n") == 1
    assert not (tmp_path / "none.svg").exists()


def _own_group() -> None:
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as in a terminal, even under a CI runner
    os.setpgrp()


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux: /proc), to wait for a pool's workers."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found |= {int(word) for word in task.read_text().split()}
        except OSError:
            continue
    return found


def _group_alive(group: int) -> bool:
    import os

    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


SIMULATE_JOBS = ["simulate", "will_awi", "--battle", "default-no-table", "--runs", "1000000",
                 "--jobs", "2"]


def test_ctrl_c_stops_cleanly_after_the_exact_results() -> None:
    import os
    import signal
    import subprocess
    import sys

    # 10,000,000 samples at about 40,000 a second: minutes, allowed by the widest budget
    argv = ["odds", "dice", "pool", "--samples", "10000000", "--seed", "1", "--budget", "3600"]
    process = subprocess.Popen([sys.executable, "-m", "smoothbore", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_own_group)
    assert process.stdout is not None
    try:
        lines = [process.stdout.readline() for _ in range(5)]  # out before sampling starts
        assert lines[3] == "mean 3.50, standard deviation 1.21\n"
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # a failed test leaves no process running
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130
    assert err == "smoothbore: interrupted\n"


@pytest.mark.parametrize(("signals", "to_group", "status", "said"), [
    (("SIGINT",), True, 130, "smoothbore: interrupted\n"),
    (("SIGINT", "SIGINT"), True, 130, "smoothbore: interrupted\n"),
    (("SIGTERM",), False, 143, "smoothbore: terminated\n"),
    (("SIGTERM",), True, 143, "smoothbore: terminated\n"),
], ids=["ctrl-c", "ctrl-c-twice", "sigterm-parent", "sigterm-group"])
def test_simulate_jobs_stops_within_a_second_workers_included(
        signals: tuple[str, ...], to_group: bool, status: int, said: str) -> None:
    """Issue 28: Ctrl-C on ``simulate --jobs N`` took 16-55 s (workers finished their
    batch), a second Ctrl-C printed a traceback and deadlocked, SIGTERM to the parent left
    its workers running for good. Now: the exit status and one line, at once, and no
    worker left. (The time is measured from the signal, so a loaded machine only slows the
    start, which is waited for: the pool's two workers running.)"""
    import os
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen([sys.executable, "-m", "smoothbore", *SIMULATE_JOBS],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_own_group)
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_children(process.pid)) == 2, "the pool's workers did not start"
        time.sleep(0.5)  # the workers are playing battles
        started = time.monotonic()
        for name in signals:
            number = getattr(signal, name)
            if to_group:
                os.killpg(process.pid, number)
            else:
                os.kill(process.pid, number)
            time.sleep(0.05)
        _, err = process.communicate(timeout=30)
        stopped = time.monotonic() - started
        while _group_alive(process.pid) and time.monotonic() - started < 30:
            time.sleep(0.05)
        gone = time.monotonic() - started
    finally:
        if process.poll() is None or _group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert (process.returncode, err) == (status, said)
    assert not _group_alive(process.pid)
    assert stopped < 5.0 and gone < 5.0, (stopped, gone)  # about 0.3 s when idle


def test_simulate_workers_exit_when_their_parent_is_killed() -> None:
    """Issue 28: a parent killed outright (SIGKILL: no handler runs) left its workers."""
    import os
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen([sys.executable, "-m", "smoothbore", *SIMULATE_JOBS],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=_own_group)
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(process.pid)
        assert len(workers) == 2
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        started = time.monotonic()
        while _group_alive(process.pid) and time.monotonic() - started < 30:
            time.sleep(0.05)
        assert not _group_alive(process.pid), "orphaned workers"
        assert time.monotonic() - started < 5.0
    finally:
        if _group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def test_battle_json_keeps_the_action_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "will_awi", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ruleset = get_ruleset("will_awi")
    assert ruleset.turn is not None and ruleset.example is not None
    played = play(ruleset.turn, ruleset.example(3), random_policy(3))
    assert len(data["actions"]) == data["steps"] == len(played.steps)
    first = played.actions()[2]
    assert data["actions"][2]["type"] == type(first).__name__


def test_status_and_bars_are_quiet_off_a_terminal() -> None:
    from smoothbore.cli import _bar, _Status

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        with _Status(stream, "exact odds"):
            pass
        with _bar(10, "sampling", "sample", stream) as bar:
            bar.update(10)
    assert screen.getvalue().startswith("computing exact odds…\r")
    assert "sampling" in screen.getvalue()
    assert pipe.getvalue() == ""


def test_replay_steps_through_a_battle_turn_by_turn(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    """Issue 31: replay drew only the end. ``--turn N`` shows a turn's narration, the units
    at its end against its start and (with --svg) its map; ``--maps DIR`` one map a turn."""
    record = tmp_path / "battle.json"
    assert main(["battle", "will_awi", "--seed", "2", "--turns", "3", "--quiet",
                 "--record", str(record)]) == 0
    capsys.readouterr()
    ruleset = get_ruleset("will_awi")
    played = BattleRecord.from_json(record.read_text("utf-8"), ruleset.turn).replay(
        ruleset.turn)
    second = [s for s in played.steps if s.turn == 2]
    svg = tmp_path / "turn2.svg"
    assert main(["replay", str(record), "--turn", "2", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Turn 2: {len(second)} actions\n")
    assert "[turn 1," not in out and "[turn 3," not in out and "[turn 2, " in out
    root = ET.parse(svg).getroot()
    heading = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
               if t.get("class") == "subheading"]
    assert heading[0] == "End of turn 2 of 6"
    maps = tmp_path / "maps"
    assert main(["replay", str(record), "--quiet", "--maps", str(maps)]) == 0
    assert sorted(p.name for p in maps.iterdir()) == ["turn-01.svg", "turn-02.svg",
                                                      "turn-03.svg"]
    assert "wrote 3 maps" in capsys.readouterr().out
    assert main(["replay", str(record), "--turn", "7"]) == 2
    assert "--turn=7 is invalid: allowed is a turn the battle played, 1 to 3" in (
        capsys.readouterr().err)


@pytest.mark.parametrize(("argv", "said"), [
    (["battle", "will", "--battle", "cowpen", "--quiet"], "did you mean 'cowpens'?"),
    (["simulate", "will", "--battle", "cowpen", "--runs", "2"], "did you mean 'cowpens'?"),
    (["battle", "bolt", "--quiet"], "did you mean 'boltaction_acw'?"),
    (["odds", "bolt", "shooting"], "did you mean 'boltaction_acw'?"),
    (["odds", "will", "fire", "cover=woods"], "did you mean 'woods-or-soft-cover'?"),
], ids=["battle", "simulate-battle", "alias", "odds-alias", "value"])
def test_did_you_mean_every_name_and_value(argv: list[str], said: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: battle names, aliases and values were refused without a suggestion."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"{said}\n") and err.count("\n") == 1


def test_odds_the_rules_refuse_are_said_by_what_was_asked_and_the_rule(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: ``odds will fire range=8`` said "illegal action None: ..."."""
    assert main(["odds", "will", "fire", "range=8"]) == 2
    assert capsys.readouterr().err == (
        "smoothbore: error: will_awi fire range=8: 8.0\" is beyond the range of muskets "
        "(Will's AWI (will-awi-2008.txt), Rules - Firing: Ranges)\n")


def test_suggest_picks_one_name_or_none() -> None:
    from smoothbore.core.errors import suggest

    assert suggest("cowpen", ["cowpens", "cowpens-no-table"]) == "cowpens"
    assert suggest("bolt", ["boltaction_acw", "boltaction", "bb93"]) == "boltaction"
    assert suggest("rifle", ["rifled-musket", "rifled-carbine", "sharps-rifle"]) is None
    assert suggest("woods", ["open", "woods-or-soft-cover"]) == "woods-or-soft-cover"
    assert suggest("xyz", ["open", "soft"]) is None
    assert suggest("Open", ["open", "soft"]) is None  # known, spelled otherwise
    assert suggest(8, ["open"]) is None  # not a name
    import smoothbore.cli

    assert not hasattr(smoothbore.cli, "suggest")  # one copy, in core


def test_an_illegal_action_is_said_by_the_rule_not_by_its_repr() -> None:
    """Issue 31: errors opened with the whole action's repr."""
    from smoothbore.cli import _message
    from smoothbore.core.errors import IllegalActionError
    from smoothbore.will_awi.actions import Move

    error = IllegalActionError(Move(unit="r1"), "23rd Foot is routing", "Rules - Movement")
    assert _message(error) == ("23rd Foot is routing (Rules - Movement); the action: move, "
                               "unit r1")
    assert "Move(" not in _message(error) and "illegal action" not in _message(error)
