"""The ``smoothbore`` command line: list rulesets, print exact odds of their mechanisms, play
a battle to its end, simulate many."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import enum
import io
import json
import os
import signal
import sys
import textwrap
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NoReturn, TextIO

from tqdm import tqdm

from smoothbore import __version__
from smoothbore.battle import (
    MAX_STEPS,
    BattleRecord,
    Played,
    Stop,
    brief,
    play,
    random_policy,
    unit_table,
)
from smoothbore.core.catalogue import DICE_MECHANISMS
from smoothbore.core.chance import Estimate, SamplingDice, odds
from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import (
    IllegalActionError,
    InvalidValueError,
    LoadError,
    SmoothboreError,
    UnknownRulesetError,
)
from smoothbore.core.ruleset import Mechanism, Ruleset, find_mechanism, spell
from smoothbore.core.state import MAX_JSON_CHARS, read_json, unstructure
from smoothbore.rulesets import available_rulesets, get_ruleset
from smoothbore.scenario import commands as scenario_commands
from smoothbore.simulation import (
    battle_name,
    resolve_ruleset,
    simulate,
    stop_executor,
    worker_start,
)
from smoothbore.table import table_of
from smoothbore.views import (
    action_words,
    distribution_table,
    headline,
    percent,
    say,
    summary,
)
from smoothbore.views.maps import TurnView, battle_map, turn_map, turns_of
from smoothbore.views.narration import report

__all__ = ["main"]

DICE = "dice"
DEFAULT_TARGET = ("bloodybacks93", "charge")
"""What ``smoothbore odds`` shows when asked nothing more: the exact distribution of a whole
Bloodybacks charge (grenadiers against Continentals, from impetus to the last cohesion test)."""
DEFAULT_DICE_MECHANISM = "pool"
"""What ``smoothbore odds dice`` shows: six d12 at or under 7, naturals 1 and 12."""
MAX_SAMPLES = 10_000_000
"""The most Monte Carlo samples ``odds --samples`` draws, whatever the budget."""
SAMPLE_BUDGET = 5.0
"""Seconds ``odds --samples`` may take by default: the first samples are timed (a quarter
of a second at most) and a count that would take longer is refused with the count that
fits. Issue 28: the slowest mechanism samples about 1,900 times a second at its defaults
(Bolt Action's melee) and ``dice pool count=10000`` about 45, so no fixed count finishes in
seconds for every mechanism."""
MAX_BUDGET = 3600.0
"""The most seconds ``odds --budget`` allows."""
PILOT_SECONDS = 0.25
"""How long the first samples are timed before the whole count is judged."""
MAX_RUNS = 1_000_000
"""The most battles ``simulate --runs`` plays."""
MAX_JOBS = 256
"""The most worker processes ``simulate --jobs`` starts."""
INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="smoothbore",
        description=(
            "Play and analyse horse-and-musket wargames: exact odds of every mechanism, "
            "battles played to their end, and simulations of many."
        ),
    )
    parser.add_argument("--version", action="version", version=f"smoothbore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    listing = commands.add_parser("rulesets", help="list the rulesets and their mechanisms")
    listing.add_argument("--json", action="store_true", help="print JSON for programs")
    show = commands.add_parser(
        "odds",
        help="print the exact distribution of a mechanism",
        description=(
            "Print the exact distribution of a mechanism. TARGET is a ruleset name or 'dice' "
            "for generic dice; parameters are given as name=value. With no TARGET, shows "
            "a whole Bloodybacks charge."
        ),
    )
    show.add_argument("target", nargs="?", help="a ruleset name or alias, or 'dice'")
    show.add_argument("mechanism", nargs="?", help="the mechanism (see --list)")
    show.add_argument("params", nargs="*", metavar="name=value", help="mechanism parameters")
    show.add_argument("--list", action="store_true", help="list the mechanisms of TARGET")
    show.add_argument("--json", action="store_true", help="print JSON for programs")
    show.add_argument(
        "--samples", type=int, default=0, help="also sample this many times (Monte Carlo)"
    )
    show.add_argument("--seed", type=int, default=None, help="seed for --samples")
    show.add_argument("--budget", type=float, default=SAMPLE_BUDGET, metavar="SECONDS",
                      help=f"refuse --samples that would take longer than this "
                           f"(default {SAMPLE_BUDGET:g} s, at most {MAX_BUDGET:g})")
    show.add_argument("--detail", action="store_true",
                      help="show every outcome, not the grouped summary")
    show.add_argument("--exact", action="store_true",
                      help="also show each probability as an exact fraction")
    fight = commands.add_parser(
        "battle",
        help="play an embedded battle to its end with random legal actions, narrated",
        description=(
            "Play an embedded battle of a ruleset (default bloodybacks93) to its end, "
            "choosing uniformly among the legal actions, narrate every step with its rolls "
            "and rules, and close with the outcome and a table of the units. The same seed "
            "plays the same battle."
        ),
    )
    fight.add_argument("ruleset", nargs="?", default=DEFAULT_TARGET[0],
                       help="ruleset name or alias, or module:ATTRIBUTE (default bloodybacks93)")
    fight.add_argument("--battle", default="default", help="which embedded battle (default: "
                       "the ruleset's first; an unknown name lists them)")
    fight.add_argument("--seed", type=int, default=1,
                       help="seed for the dice and the choices (default 1)")
    fight.add_argument("--turns", type=int, default=None,
                       help="stop after this many turns, even if the battle is not over")
    fight.add_argument("--max-steps", type=int, default=MAX_STEPS,
                       help=f"stop after this many actions (default {MAX_STEPS})")
    fight.add_argument("--quiet", action="store_true",
                       help="print only the end: the outcome and the units")
    fight.add_argument("--rules", action="store_true",
                       help="cite the rule of every event and roll (default: once a step)")
    fight.add_argument("--actions", action="store_true",
                       help="also show each action as the value a program passes to step")
    fight.add_argument("--json", action="store_true",
                       help="print the outcome and the final state as JSON")
    fight.add_argument("--record", metavar="FILE", default=None,
                       help="also write the battle record (start, actions, events) to FILE")
    fight.add_argument("--svg", metavar="FILE", default=None,
                       help="also draw the table at the end (terrain, units, the last moves "
                            "and shots) as SVG in FILE")
    again = commands.add_parser(
        "replay",
        help="replay a battle record and check every step gives the events it recorded",
        description=(
            "Read a battle record written by 'battle --record', replay it step by step and "
            "check that each step gives the events the record expects; a step that differs "
            "is named."
        ),
    )
    again.add_argument("file", metavar="FILE", help="the battle record (JSON)")
    again.add_argument("--ruleset", default=None,
                       help="the ruleset as module:ATTRIBUTE, for one that is not installed "
                            "(default: the record's, by name)")
    again.add_argument("--quiet", action="store_true", help="print only the end")
    again.add_argument("--svg", metavar="FILE", default=None,
                       help="also draw the battle map at the end (or at --turn) as SVG in "
                            "FILE")
    again.add_argument("--turn", type=int, default=None, metavar="N",
                       help="show turn N: its narration, the units at its end and (with "
                            "--svg) its map")
    again.add_argument("--to", type=int, default=None, metavar="STEP",
                       help="give the state after STEP actions (0: the start), every step "
                            "up to it checked: its units, and with --state its JSON")
    again.add_argument("--state", metavar="FILE", default=None,
                       help="with --to, also write that state as JSON in FILE")
    again.add_argument("--maps", metavar="DIR", default=None,
                       help="also draw one battle map a turn, as DIR/turn-01.svg...")
    many = commands.add_parser(
        "simulate",
        help="play many battles to their end and report who wins",
        description=(
            "Play an embedded battle many times to its end with random legal actions and "
            "report each side's win rate with its 95% Wilson interval, the mean score and "
            "losses per side and how long battles last. The same seed gives the same "
            "results whatever the number of jobs."
        ),
    )
    many.add_argument("ruleset", nargs="?", default=DEFAULT_TARGET[0],
                      help="ruleset name or alias, or module:ATTRIBUTE (default bloodybacks93)")
    many.add_argument("--battle", default="default", help="which embedded battle (default: "
                      "the ruleset's first)")
    many.add_argument("--runs", type=int, default=100, help="how many battles (default 100)")
    many.add_argument("--seed", type=int, default=1,
                      help="seed of the whole simulation (default 1)")
    many.add_argument("--jobs", type=int, default=1,
                      help="worker processes (default 1: this process)")
    many.add_argument("--max-steps", type=int, default=MAX_STEPS,
                      help=f"actions after which a battle counts as not finished "
                           f"(default {MAX_STEPS})")
    many.add_argument("--batch-size", type=int, default=None,
                      help="battles sent to a worker at a time (default: about runs/32)")
    many.add_argument("--json", action="store_true", help="print JSON for programs")
    scenario_commands.add_parsers(commands)  # check FILE, scenarios
    return parser


def _mechanisms(target: str) -> tuple[str, tuple[Mechanism, ...]]:
    if target.lower() == DICE:
        return DICE, DICE_MECHANISMS
    ruleset = get_ruleset(target)
    return ruleset.name, ruleset.mechanisms


def _pairs(params: Sequence[str]) -> dict[str, str]:
    given = {}
    for item in params:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise InvalidValueError("parameter", item, "name=value")
        given[name.strip()] = value.strip()
    return given


def _arguments(mechanism: Mechanism, given: dict[str, str]) -> dict[str, Any]:
    """The mechanism's arguments from the text given (a mistyped parameter name or choice
    is answered with "did you mean" by the error itself)."""
    return mechanism.arguments(given)


def _sampled(mechanism: Mechanism, arguments: dict[str, Any], samples: int, seed: int | None,
             budget: float = SAMPLE_BUDGET) -> Estimate[Any]:
    """``monte_carlo`` of the mechanism, sample for sample, with a progress bar on a
    terminal. The first samples are timed (``PILOT_SECONDS`` at most) and a count that
    would take more than ``budget`` seconds at that rate is refused, naming the count that
    fits; the samples timed are the first of the result, so a seed gives the same answer
    whatever the timing."""
    dice = SamplingDice(seed, record=False)
    counts: dict[Any, int] = {}
    function = mechanism.function
    done = 0
    start = time.perf_counter()
    while done < samples:
        result = function(dice=dice, **arguments)
        counts[result] = counts.get(result, 0) + 1
        done += 1
        spent = time.perf_counter() - start
        if spent >= PILOT_SECONDS:
            break
    if done < samples:
        rate = done / max(spent, 1e-9)
        fits = max(done, int(rate * budget))
        if samples > fits:
            raise InvalidValueError(
                "--samples", samples,
                f"0 to {fits:,}: {mechanism.name} samples about {rate:,.0f} times a second "
                f"here, so {samples:,} would take about {samples / rate:,.0f} s, more than "
                f"--budget {budget:g} s (raise --budget, at most {MAX_BUDGET:g} s, to wait "
                f"longer)")
    chunk = max(1, min(10_000, samples // 100))
    with _bar(samples, "sampling", "sample") as bar:
        bar.update(done)
        while done < samples:
            step = min(chunk, samples - done)
            for _ in range(step):
                result = function(dice=dice, **arguments)
                counts[result] = counts.get(result, 0) + 1
            done += step
            bar.update(step)
    return Estimate(tuple(counts.items()), samples)


def _bar(total: int, what: str, unit: str, stream: TextIO | None = None) -> Any:
    """A tqdm progress bar on stderr, quiet when stderr is not a terminal."""
    out = stream if stream is not None else sys.stderr
    return tqdm(total=total, desc=what, unit=unit, file=out, leave=False,
                disable=not _is_terminal(out), dynamic_ncols=True, mininterval=0.2)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Status:
    """A line on a terminal's stderr while a long computation runs (nothing elsewhere):
    "computing exact odds…", cleared when it ends."""

    def __init__(self, stream: TextIO, what: str) -> None:
        self.stream = stream
        self.text = f"computing {what}…"
        self.live = _is_terminal(stream)

    def __enter__(self) -> _Status:
        if self.live:
            self.stream.write(self.text)
            self.stream.flush()
        return self

    def __exit__(self, *_: object) -> None:
        if self.live:
            self.stream.write("\r" + " " * len(self.text) + "\r")
            self.stream.flush()


@contextlib.contextmanager
def _as_typed(mechanism: Mechanism, given: dict[str, str], arguments: dict[str, Any]
              ) -> Iterator[None]:
    """Report a bad value found inside a mechanism (a unit's size, a fact's range) under the
    parameter the user typed, with the text typed, when one can be told apart."""
    try:
        yield
    except InvalidValueError as error:
        typed = _typed_parameter(mechanism, given, arguments, error)
        if typed is None:
            raise
        raise InvalidValueError(typed, given[typed], error.allowed) from None


def _typed_parameter(mechanism: Mechanism, given: dict[str, str], arguments: dict[str, Any],
                     error: InvalidValueError) -> str | None:
    if error.field in given:
        return None
    last = error.field.rsplit(".", 1)[-1].lower()
    matches = []
    for typed in given:
        value = arguments[mechanism.parameter(typed).name]
        if isinstance(value, int | float) and not isinstance(value, bool):
            same = (isinstance(error.value, int | float) and error.value == value) or (
                isinstance(error.value, str) and str(value) in error.value)
        else:
            same = error.value == value
        if same:
            matches.append(typed)
    if len(matches) > 1:
        named = [m for m in matches if last in m.lower().replace("-", "_")
                 or m.lower().replace("-", "_") in last]
        matches = named or matches[:0]
    return matches[0] if len(matches) == 1 else None


def _cmd_rulesets(as_json: bool) -> int:
    rulesets = available_rulesets()
    if as_json:
        print(json.dumps([
            {
                "name": r.name, "title": r.title, "period": r.period, "edition": r.edition,
                "aliases": list(r.aliases), "dice": list(r.dice),
                "phases": [p.name for p in r.phases],
                "mechanisms": [m.name for m in r.mechanisms],
                "battles": [name for name, _ in r.battles()],
            }
            for r in rulesets
        ], indent=2))
        return 0
    print(f"{DICE:<16} generic dice: " + ", ".join(m.name for m in DICE_MECHANISMS))
    for r in rulesets:
        aliases = f" (also {', '.join(r.aliases)})" if r.aliases else ""
        print(f"{r.name:<16} {r.title}, {r.edition}; {r.period}{aliases}")
        print(f"{'':<16} dice: {', '.join(r.dice)}; {len(r.mechanisms)} mechanisms")
        names = [name for name, _ in r.battles()]
        if names:  # each on a table and, with -no-table, played from facts the caller gives
            on_table = [n for n in names if not n.endswith("-no-table")]
            shown = ", ".join(on_table) + (" (each also -no-table)" if len(on_table) <
                                           len(names) else "")
            print(textwrap.fill(f"battles: {shown}", width=100, initial_indent=" " * 17,
                                break_on_hyphens=False,
                                subsequent_indent=" " * 26))
    if not rulesets:
        print("(no rule book installed yet: only generic dice)")
    return 0


def _cmd_odds(args: argparse.Namespace) -> int:
    target = args.target or DEFAULT_TARGET[0]
    default_mechanism = DEFAULT_TARGET[1] if args.target is None else None
    owner, mechanisms = _mechanisms(target)
    if args.list:
        if args.json:
            print(json.dumps([_describe(m) for m in mechanisms], indent=2))
        else:
            print(_listing(mechanisms))
        return 0
    name = args.mechanism or default_mechanism
    if name is None and owner == DICE:
        name = DEFAULT_DICE_MECHANISM
    if name is None:
        names = ", ".join(m.name for m in mechanisms)
        raise InvalidValueError(f"{owner} mechanism", "(none given)", f"one of {names}")
    mechanism = find_mechanism(mechanisms, name, owner)
    given = _pairs(args.params)
    arguments = _arguments(mechanism, given)
    try:
        with _as_typed(mechanism, given, arguments), _Status(sys.stderr, "exact odds"), \
                _bar(1000, "exact odds", "‰") as bar:
            distribution: Distribution[Any] = odds(
                mechanism.function, **arguments,
                progress=lambda share: bar.update(max(0, int(share * 1000) - bar.n)),
            )
    except IllegalActionError as error:  # the rules refuse these values together
        asked = " ".join([owner, mechanism.name, *(f"{k}={v}" for k, v in given.items())])
        raise IllegalActionError(asked, error.why, error.rule) from None
    if args.json:
        with _as_typed(mechanism, given, arguments):
            sampled = (_sampled(mechanism, arguments, args.samples, args.seed, args.budget)
                       if args.samples else None)
        data = {"ruleset": owner, "mechanism": mechanism.name, "rule": mechanism.rule,
                "parameters": {k: _jsonable(v) for k, v in arguments.items()},
                **distribution.to_dict()}
        if sampled is not None:
            data["samples"] = {
                "count": args.samples,
                "seed": args.seed,
                "counts": {str(outcome): n for outcome, n in sampled.counts},
                "agrees_within_5_sigma": sampled.agrees_with(distribution),
            }
        print(json.dumps(data, indent=2, default=str))
        return 0
    shown = " ".join(f"{p.name}={p.show(arguments[p.name])}" for p in mechanism.parameters)
    print(textwrap.fill(f"{owner} {mechanism.name} {shown}".rstrip(), width=100,
                        subsequent_indent="    ", break_long_words=False,
                        break_on_hyphens=False))
    print(f"{mechanism.summary} [{mechanism.rule}]\n")
    print(_odds_text(distribution, detail=args.detail, exact=args.exact,
                     key=HEADLINES.get((owner, mechanism.name))), flush=True)
    if args.samples:
        with _as_typed(mechanism, given, arguments):
            sampled = _sampled(mechanism, arguments, args.samples, args.seed, args.budget)
        print(f"\nsampled {args.samples:,} times (seed {args.seed}):")
        print(_sampled_table(distribution, sampled))
        verdict = "agrees" if sampled.agrees_with(distribution) else "DISAGREES"
        print(f"Monte Carlo {verdict} with the exact distribution within 5 standard errors")
    return 0


SUMMARY_ROWS = 30
"""Rows the default ``odds`` table shows; ``--detail`` shows every outcome."""


def _charge_winner(verdict: Any) -> str:
    """Who wins a Bloodybacks charge: the chargers when the defenders did not stand or lost
    the melee."""
    won = str(getattr(verdict, "winner", verdict)).startswith(("chargers", "defenders did not"))
    return "the chargers win" if won else "the defenders win"


HEADLINES: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("bloodybacks93", "charge"): _charge_winner,
}
"""How the headline of ``odds`` groups a mechanism's results, where the likeliest single
group would not say what a player asks first (who wins the charge)."""


def _odds_text(distribution: Distribution[Any], *, detail: bool, exact: bool,
               key: Callable[[Any], Any] | None = None) -> str:
    """The headline, then the grouped summary (or, with ``detail``, every outcome)."""
    lines = [headline(distribution, key)]
    grouped = summary(distribution)
    if detail or grouped is distribution:
        limit = None if detail else SUMMARY_ROWS
        lines += ["", distribution_table(distribution, exact=exact, limit=limit)]
        if not detail and len(distribution) > SUMMARY_ROWS:
            lines.append("(--detail shows every outcome)")
    else:
        lines += ["", distribution_table(grouped, exact=exact, limit=SUMMARY_ROWS), "",
                  f"{len(distribution)} outcomes in {len(grouped)} groups: --detail shows "
                  "every outcome"]
    return "\n".join(lines)


def _sampled_table(distribution: Distribution[Any], sampled: Estimate[Any]) -> str:
    """Exact and sampled chances side by side, in aligned columns."""
    rows = [["outcome", "sampled", "± 1 s.e.", "exact"]]
    seen = dict(sampled.counts)
    outcomes = list(distribution.outcomes) + [o for o in seen if distribution.weight(o) == 0]
    for outcome in outcomes:
        rows.append([say(outcome), percent(sampled.probability(outcome)),
                     percent(sampled.standard_error(outcome)),
                     percent(distribution.probability(outcome))])
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join(
        "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:],
                                                                          strict=True))])
        for r in rows)


def _listing(mechanisms: Sequence[Mechanism]) -> str:
    """Each mechanism with its summary and rule, then each parameter: its default, type,
    choices or range, and help."""
    lines = []
    for m in mechanisms:
        lines.append(f"{m.name}: {m.summary} [{m.rule}]")
        if not m.parameters:
            lines.append("    (no parameters)")
        width = max((len(p.name) + len(p.show(p.default)) + 1 for p in m.parameters),
                    default=0)
        for p in m.parameters:
            kind = p.type_name if not p.choices else "choice of " + ", ".join(
                spell(c) for c in p.choices)
            if not p.choices and (p.low is not None or p.high is not None or p.kind is bool):
                kind = p.allowed() if p.kind is not bool else "yes or no"
            lines.append(f"    {p.name + '=' + p.show(p.default):<{width}}  {p.help} ({kind})")
        lines.append("")
    return "\n".join(lines).rstrip()


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return spell(value)
    return value


def _ruleset_or_file(target: str) -> Ruleset:
    """A ruleset by name, or the book of a scenario file with the file's battle as its
    default (``smoothbore battle FILE``, ``simulate FILE``)."""
    if scenario_commands.is_file(target):
        return scenario_commands.file_ruleset(target)[0]
    return resolve_ruleset(target)


def _cmd_battle(args: argparse.Namespace) -> int:
    ruleset = _ruleset_or_file(args.ruleset)
    if ruleset.turn is None:
        raise InvalidValueError("ruleset", ruleset.name, "a ruleset with a turn")
    make = ruleset.battle(args.battle)
    battle = battle_name(ruleset, args.battle)
    if args.turns is not None:
        _option("--turns", args.turns, 1)
    _option("--seed", args.seed, 0)
    _option("--max-steps", args.max_steps, 1)
    start = make(args.seed)
    last_turn = start.turn + args.turns if args.turns is not None else None

    def until(state: Any) -> bool:
        return last_turn is not None and state.turn >= last_turn

    played = play(ruleset.turn, start, random_policy(args.seed), max_steps=args.max_steps,
                  until=until)
    if args.record is not None:
        record = BattleRecord.of(ruleset.name, played, turn=ruleset.turn,
                                 scenario=scenario_commands.scenario_text(ruleset))
        _write(args.record, record.to_json(), "--record")
    if args.svg is not None:
        _draw(args.svg, played, ruleset, f"the {battle} battle")
    if args.json:
        print(json.dumps(_battle_json(ruleset.name, battle, args.seed, played), indent=2))
        return 0
    if not args.quiet:
        print(f"{ruleset.title}: the {battle} battle, seed {args.seed}, actions chosen at "
              "random among the legal ones\n")
        for told in _report(played.steps, played.start, ruleset.turn, rules=args.rules,
                            actions=args.actions):
            print(told)
        print()
    print(_ending(played, args))
    print()
    print(unit_table(played.end, played.start))
    return 0


def _write(path: str, text: str, option: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise InvalidValueError(option, path, f"a file that can be written ({error.strerror})"
                                ) from None


def _draw(path: str, played: Played[Any, Any], ruleset: Ruleset, battle: str,
          turn: TurnView | None = None) -> None:
    """Write the battle map of a battle's end, or of one turn, as SVG (``--svg``): its last
    turn's moves, shots and charges drawn."""
    if table_of(played.end) is None:
        raise InvalidValueError("--svg", path, f"a battle played on a table ({battle} is "
                                "played from facts the players give, with no table to draw)")
    if turn is None:
        turns = turns_of(played, ruleset.turn)
        turn = turns[-1] if turns else None
    if turn is None:
        _write(path, battle_map(played.end, ruleset=ruleset), "--svg")
        return
    outcome = played.outcome if turn.after == played.end else None
    _write(path, turn_map(turn, ruleset, outcome=outcome), "--svg")


def _maps(directory: str, played: Played[Any, Any], ruleset: Ruleset,
          turns: tuple[TurnView, ...]) -> None:
    """One battle map a turn (``--maps DIR``): DIR/turn-01.svg, turn-02.svg..."""
    if table_of(played.start) is None:
        raise InvalidValueError("--maps", directory, "a battle played on a table (this one "
                                "is played from facts the players give, with no table)")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as error:
        raise InvalidValueError("--maps", directory, f"a directory that can be made "
                                f"({error.strerror})") from None
    with _bar(len(turns), "drawing", "map") as bar:
        for view in turns:
            outcome = played.outcome if view is turns[-1] else None
            svg = turn_map(view, ruleset, outcome=outcome)
            _write(os.path.join(directory, f"turn-{view.turn:02d}.svg"), svg, "--maps")
            bar.update(1)
    print(f"wrote {_count(len(turns), 'map')} to {directory} (turn-NN.svg, one a turn)")


def _cmd_replay(args: argparse.Namespace) -> int:
    text = _read_text(args.file, "FILE", "record")
    data = read_json(text, "record")
    name = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise LoadError("$.ruleset", name, "the name of a ruleset")
    # The file never chooses code to import: its name must be a registered ruleset; one
    # that is not installed is named by the user, on the command line (--ruleset).
    ruleset = (resolve_ruleset(args.ruleset) if args.ruleset is not None
               else _registered(name, "$.ruleset"))
    if ruleset.turn is None:
        raise InvalidValueError("ruleset", ruleset.name, "a ruleset with a turn")
    record = BattleRecord.from_json(text, ruleset.turn)
    if record.digests is None:
        print("smoothbore: warning: a version 1 record has no state digests: only its events "
              "are checked, not the states (write it again with 'battle --record')",
              file=sys.stderr)
    if args.to is not None:
        return scenario_commands.replay_to(record, ruleset, args.to, args.state, unit_table)
    played = record.replay(ruleset.turn)
    turns = turns_of(played, ruleset.turn) if (
        args.turn is not None or args.maps is not None or args.svg is not None) else ()
    if args.turn is not None:
        numbers = [view.turn for view in turns]
        if args.turn not in numbers:
            low, high = (min(numbers), max(numbers)) if numbers else (0, 0)
            raise InvalidValueError("--turn", args.turn,
                                    f"a turn the battle played, {low} to {high}")
        view = turns[numbers.index(args.turn)]
        if args.svg is not None:
            _draw(args.svg, played, ruleset, "this battle", view)
        if args.maps is not None:
            _maps(args.maps, played, ruleset, turns)
        _show_turn(view, played, ruleset)
        return 0
    if args.svg is not None:
        _draw(args.svg, played, ruleset, "this battle", turns[-1] if turns else None)
    if args.maps is not None:
        _maps(args.maps, played, ruleset, turns)
    if not args.quiet:
        for told in _report(played.steps, played.start, ruleset.turn):
            print(told)
        print(played.summary())
        print()
    checked = ("the start state and every step's state match their digests"
               if record.digests is not None else "the record has no state digests")
    checked += (", every step gave the events recorded" if record.events is not None
                else ", the record has no events to check")
    length = f"{_count(len(played.steps), 'action')}"
    if played.outcome is not None:
        print(f"Replayed {length}: {checked}. {played.outcome}")
    else:
        print(f"Replayed {length}: {checked}. The battle is not over "
              f"(turn {played.end.turn}, {played.end.phase}).")
    return 0


def _report(steps: Sequence[Any], state: Any, turn: Any, *, rules: bool = False,
            actions: bool = False) -> list[str]:
    """The steps as a game report (``smoothbore.views.narration.report``); with ``actions``,
    each step's action as the value a program passes to ``step``."""
    told = report(steps, state, turn, rules=rules)
    if not actions:
        return told
    shown = []
    for step in steps:  # one entry a step: the action under its narration
        shown.append(step.narrate(state, turn, rules=rules) + f"\n  action: {brief(step.action)}")
    return shown


def _show_turn(view: TurnView, played: Played[Any, Any], ruleset: Ruleset) -> None:
    """One turn of a replayed battle: its narration, then the units at its end against its
    start (``replay --turn N``)."""
    last = view.after == played.end
    print(f"Turn {view.turn}: {_count(len(view.steps), 'action')}"
          + (", the last of the battle" if last else ""))
    print()
    for told in _report(view.steps, view.before, ruleset.turn):
        print(told)
    print()
    if last and played.outcome is not None:
        print(played.outcome)
        print()
    print(unit_table(view.after, view.before))


def _read_text(path: str, option: str, what: str) -> str:
    """A file's text, read as UTF-8 up to ``MAX_JSON_CHARS`` characters (not bytes: a record
    of 8,000,000 characters may take up to four times as many bytes) and one more, so that a
    longer file is refused as too long by ``read_json`` rather than cut mid-string."""
    try:
        with open(path, encoding="utf-8", errors="strict", newline="") as source:
            return source.read(MAX_JSON_CHARS + 1)
    except UnicodeDecodeError as error:
        raise LoadError(what, f"byte {error.start}", "UTF-8 encoded JSON text") from None
    except OSError as error:
        raise InvalidValueError(option, path, f"a readable file ({error.strerror})") from None


def _registered(name: str, field: str) -> Ruleset:
    """The registered ruleset a file names, never a ``module:ATTRIBUTE`` it names: text
    from a file must not choose code to import (issue 28)."""
    try:
        return get_ruleset(name)
    except UnknownRulesetError as error:
        raise LoadError(field, name, f"{error.allowed} (the name of a registered ruleset; "
                        "give --ruleset module:ATTRIBUTE for one that is not installed)"
                        ) from None


def _ending(played: Played[Any, Any], args: argparse.Namespace) -> str:
    """How the battle ended, or why it stopped before its end."""
    length = f"{_count(len(played.steps), 'action')} in {_count(played.turns, 'turn')}"
    where = f"turn {played.end.turn}, {played.end.phase}"
    if played.outcome is not None:
        return f"The battle is over after {length}: {played.outcome}"
    if played.stop is Stop.UNTIL:
        return (f"The battle was cut short after {_count(args.turns, 'turn')} (--turns "
                f"{args.turns}), {_count(len(played.steps), 'action')}: it is not over "
                f"({where}).")
    if played.stop is Stop.MAX_STEPS:
        return (f"The battle is not finished: it reached the step limit (--max-steps "
                f"{args.max_steps}) in {where}.")
    return f"The battle stopped before its end: no action is legal in {where}."


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _battle_json(name: str, battle: str, seed: int, played: Played[Any, Any]
                 ) -> dict[str, Any]:
    outcome = played.outcome
    return {
        "ruleset": name,
        "battle": battle,
        "seed": seed,
        "steps": len(played.steps),
        "turns": played.turns,
        "finished": played.finished,
        "stopped": played.stop.name.lower(),
        "outcome": None if outcome is None else {
            "result": str(outcome.result), "winner": outcome.winner,
            "scores": dict(outcome.scores),
            "reason": outcome.reason, "rule": outcome.rule,
        },
        "state": json.loads(played.end.to_json()),
        "actions": [{"type": type(a).__name__, "fields": unstructure(a)}
                    for a in played.actions()],
    }


def _cmd_simulate(args: argparse.Namespace) -> int:
    for option, value, low, high in (("--runs", args.runs, 1, MAX_RUNS),
                                     ("--jobs", args.jobs, 1, MAX_JOBS),
                                     ("--seed", args.seed, 0, None),
                                     ("--max-steps", args.max_steps, 1, None)):
        _option(option, value, low, high)
    if args.batch_size is not None and args.batch_size < 1:
        raise InvalidValueError("--batch-size", args.batch_size, "1 or more")
    ruleset = _ruleset_or_file(args.ruleset)
    given = ruleset if scenario_commands.is_file(args.ruleset) else args.ruleset
    progress = _Progress(sys.stderr)
    options: dict[str, Any] = {
        "runs": args.runs, "seed": args.seed, "battle": args.battle,
        "max_steps": args.max_steps, "batch_size": args.batch_size, "progress": progress,
    }
    try:
        if args.jobs > 1:
            pool = ProcessPoolExecutor(max_workers=args.jobs, initializer=worker_start,
                                       initargs=(os.getpid(),))
            try:
                result = simulate(given, executor=pool, **options)
            except BaseException:
                _hold_signals()  # a second Ctrl-C must not break the stopping
                stop_executor(pool)
                raise
            pool.shutdown()
        else:
            result = simulate(ruleset, **options)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    jobs = f", {args.jobs} jobs" if args.jobs > 1 else ""
    title = scenario_commands.file_title(ruleset)
    battle = f"{title} ({args.ruleset})" if title else f"the {result.battle} battle"
    print(f"{ruleset.title}: {battle} played {args.runs} times to its end "
          f"with random legal actions (seed {args.seed}{jobs})\n")
    print(result.table())
    return 0


class _Progress:
    """A tqdm progress bar counting battles on a terminal's stderr (nothing when stderr is
    not a terminal); ``simulate`` calls it with (done, total)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = _is_terminal(stream)
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.live:
            return
        if self.bar is None:
            self.bar = _bar(total, "simulating", "battle", self.stream)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _describe(mechanism: Mechanism) -> dict[str, Any]:
    return {
        "name": mechanism.name,
        "summary": mechanism.summary,
        "rule": mechanism.rule,
        "parameters": [
            {"name": p.name, "kind": p.kind.__name__, "type": p.type_name,
             "default": _jsonable(p.default), "help": p.help,
             "choices": [spell(c) for c in p.choices], "low": p.low, "high": p.high}
            for p in mechanism.parameters
        ],
    }


TERMINATED = 143
"""The exit status after SIGTERM (128 + 15), what ``timeout`` and CI send."""


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that it stops as cleanly as Ctrl-C."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def _trap_signals() -> dict[int, Any] | None:
    """Make SIGTERM stop the command line as Ctrl-C does (workers included); the handlers
    it replaced, to restore (None off the main thread, where signals cannot be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    saved: dict[int, Any] = {int(number): signal.getsignal(number)
                             for number in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, _terminate)
    return saved


def _hold_signals() -> None:
    """While stopping: Ctrl-C and SIGTERM again are ignored (``main`` restores them)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _kept_for_exit(saved: dict[int, Any] | None, argv: Sequence[str] | None
                   ) -> dict[int, Any] | None:
    """After Ctrl-C or SIGTERM the program (``argv`` None: ``smoothbore`` or ``python -m
    smoothbore``) keeps ignoring both until it has exited, so that another Ctrl-C while the
    interpreter joins the pool's threads prints no traceback; ``main([...])`` called from
    Python gets its handlers back."""
    return None if argv is None else saved


def _stopped(status: int, argv: Sequence[str] | None) -> int:
    """After Ctrl-C or SIGTERM the program (``argv`` None) exits at once, with ``status``:
    the interpreter's exit would join the threads of any process pool (one made to replace
    a broken pool as the signal came could keep it waiting); workers still alive see their
    parent gone and exit (``simulation.worker_start``). Called from Python, it returns."""
    if argv is not None:
        return status
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


def _restore_signals(saved: dict[int, Any] | None) -> None:
    for number, handler in (saved or {}).items():
        with contextlib.suppress(ValueError, TypeError, OSError):
            signal.signal(number, handler)


def _option(option: str, value: int, low: int, high: int | None = None) -> None:
    """Refuse an option's value out of range, naming the option as typed."""
    if value < low or (high is not None and value > high):
        allowed = f"{low} to {high:,}" if high is not None else f"{low} or more"
        raise InvalidValueError(option, value, allowed)


class _UsageError(Exception):
    """A command line argparse cannot read."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors reported as one line by ``main``."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


PLAIN = {
    "\u2588": "#", "\u258c": "+", "\u00b0": " deg", "\u2192": "->", "\u2026": "...",
    "\u2014": "--", "\u2013": "-", "\u00b1": "+/-", "\u2030": " per mille",
    "\u00d7": "x", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
    "\u2265": ">=", "\u2264": "<=", "\u00bd": "1/2",
}
"""Plain stand-ins for the characters the command line prints (bars, degrees, arrows), used
on a terminal that cannot show them (``PYTHONIOENCODING=ascii``, an old Windows console)."""
PLAIN_ERRORS = "smoothbore.plain"
"""The codec error handler that writes ``PLAIN``, a letter without its accent, or else the
character's escape (``\\u00b2``)."""


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    shown = []
    for char in text:
        plain = PLAIN.get(char)
        if plain is None:
            decomposed = unicodedata.normalize("NFD", char)  # é: e, never ²: 2
            plain = "".join(c for c in decomposed if c.isascii()) or (
                char.encode("ascii", "backslashreplace").decode("ascii"))
        shown.append(plain)
    return "".join(shown), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def _plain_streams() -> None:
    """Let stdout and stderr fall back to plain characters when their encoding cannot
    write what the command line prints (issue 28: ``odds`` failed on its own bar)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not isinstance(stream, io.TextIOWrapper) or not encoding:
            continue
        try:
            "".join(PLAIN).encode(encoding)
        except (UnicodeError, LookupError):
            with contextlib.suppress(ValueError, OSError, AttributeError):
                stream.reconfigure(errors=PLAIN_ERRORS)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 an error, 130 interrupted).
    Never a traceback: every error is one line on stderr, ``smoothbore: error: ...``, that
    names the option or parameter as typed; Ctrl-C prints ``smoothbore: interrupted``.
    On a terminal that cannot show its bars, degrees and arrows it prints plain stand-ins."""
    _plain_streams()
    saved = _trap_signals()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        _hold_signals()
        print("smoothbore: interrupted", file=sys.stderr)
        saved = _kept_for_exit(saved, argv)
        return _stopped(INTERRUPTED, argv)
    except _Terminated:
        _hold_signals()
        print("smoothbore: terminated", file=sys.stderr)
        saved = _kept_for_exit(saved, argv)
        return _stopped(TERMINATED, argv)
    except BrokenPipeError:  # the reader (head, less) closed early: nothing more to say
        with contextlib.suppress(OSError):
            sys.stderr.close()
        return 0
    except SmoothboreError as error:
        _fail(str(error))
        return 2
    except MemoryError:
        _fail("out of memory: ask for less (fewer dice, samples or runs)")
        return 2
    except RecursionError:
        _fail("the computation nests too deeply: ask for less")
        return 2
    except Exception as error:  # a bug: still one line, never a traceback
        _fail(f"internal error, please report it: {type(error).__name__}: {error}")
        return 2
    finally:
        _restore_signals(saved)


def _fail(message: str) -> None:
    print(f"smoothbore: error: {' '.join(message.split())}", file=sys.stderr)


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as error:
        _fail(str(error))
        return 2
    try:
        if args.command == "rulesets":
            return _cmd_rulesets(args.json)
        if args.command == "battle":
            return _cmd_battle(args)
        if args.command == "simulate":
            return _cmd_simulate(args)
        if args.command == "replay":
            return _cmd_replay(args)
        if args.command in scenario_commands.COMMANDS:
            return scenario_commands.run(args)
        if args.command == "odds":
            _option("--samples", args.samples, 0, MAX_SAMPLES)
            if not 0 < args.budget <= MAX_BUDGET:  # also refuses nan
                raise InvalidValueError("--budget", args.budget,
                                        f"more than 0 and at most {MAX_BUDGET:g} seconds")
            if args.seed is not None:
                _option("--seed", args.seed, 0)
            return _cmd_odds(args)
    except SmoothboreError as error:
        _fail(_message(error))
        return 2
    parser.print_help()
    return 0


def _message(error: SmoothboreError) -> str:
    """An error as the command line says it: a refused value as the error says it (with
    "did you mean" when one of the values allowed is close to it); an illegal action led
    by what it was, in words, and the rule, never its repr."""
    if isinstance(error, IllegalActionError):
        if isinstance(error.action, str):  # what was asked, in words (odds)
            return f"{error.action}: {error.why} ({error.rule})"
        what = action_words(error.action) if error.action is not None else ""
        tail = f"; the action: {what}" if what and what != "none" else ""
        return f"{error.why} ({error.rule}){tail}"  # the rule's words name the unit
    return str(error)  # a refused name says "did you mean" itself (core.errors.suggest)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
