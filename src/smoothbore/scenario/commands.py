"""The command line's scenario verbs: ``check FILE`` (validate, and draw the deployment as
SVG), ``scenarios`` (the battles shipped in the books), and a file wherever ``battle`` or
``simulate`` names a ruleset (``file_ruleset``). ``smoothbore.cli`` adds the parsers and calls
``run``; the work is here."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs

from smoothbore.core.errors import InvalidValueError
from smoothbore.core.ruleset import Ruleset

from .document import Scenario, load_scenario, packaged

__all__ = [
    "COMMANDS", "FileBattle", "add_parsers", "file_ruleset", "is_file", "packaged_battles",
    "replay_to", "ruleset_of", "run", "scenario_text",
]

COMMANDS = ("check", "scenarios")
"""The verbs this module runs."""

BOOKS = ("bloodybacks93", "boltaction_acw", "mckie_acw", "will_awi")
"""The books whose battles ship as files."""


def is_file(target: str) -> bool:
    """Whether a command's ruleset argument names a scenario file (``*.toml``, or a path
    that exists) rather than a ruleset."""
    return target.endswith(".toml") or ("/" in target and Path(target).exists())


@attrs.frozen
class FileBattle:
    """A scenario file's battle made from a seed: what a ruleset's ``example`` is for an
    embedded battle (it pickles with its scenario, for worker processes)."""

    scenario: Scenario

    def __call__(self, seed: int = 0) -> Any:
        return self.scenario.start(seed)


def ruleset_of(scenario: Scenario) -> Ruleset:
    """The scenario's book with its battle as the only one (``default``): what
    ``smoothbore.simulate`` and ``play`` take."""
    from smoothbore.rulesets import get_ruleset

    ruleset = get_ruleset(scenario.book)
    turn = scenario.turn(ruleset.turn) if ruleset.turn is not None else None
    return attrs.evolve(ruleset, example=FileBattle(scenario), scenarios=(), turn=turn)


def file_ruleset(path: str) -> tuple[Ruleset, Scenario]:
    """The book of a scenario file with the file's battle as its only one (``default``),
    and the scenario: what ``battle`` and ``simulate`` play when given a file."""
    scenario = load_scenario(path)
    return ruleset_of(scenario), scenario


def scenario_text(ruleset: Ruleset) -> str | None:
    """The scenario file of a ruleset made by ``ruleset_of`` (None for a book's own
    battles): what ``battle FILE --record`` keeps in the record."""
    example = ruleset.example
    return example.scenario.to_toml() if isinstance(example, FileBattle) else None


def file_title(ruleset: Ruleset) -> str | None:
    """The title of the scenario file a ruleset made by ``ruleset_of`` plays (None for a
    book's own battles): how ``simulate FILE`` names the battle it played."""
    example = ruleset.example
    return example.scenario.title if isinstance(example, FileBattle) else None


def replay_to(record: Any, ruleset: Ruleset, to: int, state_file: str | None,
              show: Callable[[Any, Any], str]) -> int:
    """``replay RECORD --to STEP``: the state after ``to`` actions (0: the start), every
    step up to it replayed and checked against the record (its start digest, events and
    digests); its units as ``show(state, start)`` gives them, and its JSON in
    ``state_file``. Any earlier state of a battle, as an undo gives it."""
    if isinstance(to, bool) or not 0 <= to <= len(record.actions):
        raise InvalidValueError("--to", to, f"a step from 0 to {len(record.actions)} (the "
                                "record's actions)")
    if ruleset.turn is None:
        raise InvalidValueError("ruleset", ruleset.name, "a ruleset with a turn")
    shorter = attrs.evolve(
        record, actions=record.actions[:to],
        events=record.events[:to] if record.events is not None else None,
        digests=record.digests[:to] if record.digests is not None else None)
    state = shorter.replay(ruleset.turn).end
    print(f"the state after step {to} of {len(record.actions)}: turn {state.turn}, "
          f"{state.phase} (every step up to it checked)\n")
    print(show(state, record.start))
    if state_file is not None:
        Path(state_file).write_text(state.to_json() + "\n", encoding="utf-8")
        print(f"\nstate written to {state_file}")
    return 0


def packaged_battles() -> tuple[tuple[str, str, Scenario], ...]:
    """Every battle shipped in the books: (book, file name, scenario)."""
    out = []
    for book in BOOKS:
        folder = files(f"smoothbore.{book}").joinpath("battles")
        for name in sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml")):
            out.append((book, name.removesuffix(".toml"), packaged(book, name[:-5])))
    return tuple(out)


def add_parsers(commands: Any) -> None:
    """Add ``check`` and ``scenarios`` to the command line's sub-commands."""
    check = commands.add_parser(
        "check", help="check a scenario file and draw its deployment as SVG",
        description=("Read a scenario file (TOML), check it whole as 'battle' would before "
                     "anything is played, and say what it holds; every fault is named with "
                     "its line, field, value and what is allowed (exit status 2)."))
    check.add_argument("file", metavar="FILE", help="the scenario file (TOML)")
    check.add_argument("--svg", metavar="OUT", default=None,
                       help="also draw the table with the units deployed as SVG in OUT")
    listing = commands.add_parser(
        "scenarios", help="list the battles shipped with the rule books",
        description="List every battle shipped as a file: book, title, date and size.")
    listing.add_argument("--json", action="store_true", help="print JSON for programs")


def _size(scenario: Scenario) -> str:
    counts = [sum(1 for u in scenario.units if u.side == side) for side in scenario.sides]
    where = ""
    if scenario.table is not None:
        t = scenario.table
        unit = {"inches": '"', "mm": " mm", "cm": " cm"}[t.measure.value]
        where = f" on {t.width:g}{unit} x {t.depth:g}{unit}"
    return " v ".join(map(str, counts)) + " units" + where


def run(args: argparse.Namespace) -> int:
    """Run ``check`` or ``scenarios``; a bad file raises ``ScenarioError`` (exit 2)."""
    if args.command == "check":
        scenario = load_scenario(args.file)
        state = scenario.start(0)
        print(f"{args.file}: a {scenario.book} scenario, {scenario.title!r}"
              + (f" ({scenario.date})" if scenario.date else "") + ": "
              + _size(scenario) + ", checked")
        for side in scenario.sides:
            units = [u for u in scenario.units if u.side == side]
            chiefs = [c for c in scenario.commanders if c.side == side]
            print(f"  {side}: {len(units)} units, {len(chiefs)} commanders")
        if args.svg is not None:
            table = getattr(state.extra, "table", None)
            if table is None:
                raise InvalidValueError("--svg", args.svg,
                                        "a scenario with a [table] to draw")
            from smoothbore.table.svg import write_svg

            write_svg(table, args.svg, title=scenario.title)
            print(f"  deployment drawn in {args.svg}")
        return 0
    rows = packaged_battles()
    if getattr(args, "json", False):
        print(json.dumps([{"book": b, "file": f, "title": s.title, "date": s.date,
                           "size": _size(s), "sources": list(s.sources)}
                          for b, f, s in rows], indent=2))
        return 0
    width = max(len(s.title) for _, _, s in rows)
    for book, name, scenario in rows:
        print(f"{book:<15} {name:<20} {scenario.title:<{width}}  {scenario.date:<22} "
              f"{_size(scenario)}")
    return 0



