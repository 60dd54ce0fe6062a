"""The ``smoothbore`` command line: list rulesets, print exact odds of their mechanisms."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from smoothbore import __version__
from smoothbore.battle import play, random_policy
from smoothbore.core.catalogue import DICE_MECHANISMS
from smoothbore.core.chance import Estimate, monte_carlo, odds
from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import InvalidValueError, SmoothboreError
from smoothbore.core.ruleset import Mechanism, find_mechanism
from smoothbore.rulesets import available_rulesets, get_ruleset

__all__ = ["main"]

DICE = "dice"
DEFAULT_TARGET = ("bloodybacks93", "charge")
"""What ``smoothbore odds`` shows when asked nothing more: the exact distribution of a whole
Bloodybacks charge (grenadiers against Continentals, from impetus to the last cohesion test)."""
DEFAULT_DICE_MECHANISM = "pool"
"""What ``smoothbore odds dice`` shows: six d12 at or under 7, naturals 1 and 12."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smoothbore",
        description="Play and analyse horse-and-musket wargames: exact odds of every mechanism.",
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
    fight = commands.add_parser(
        "battle",
        help="play a ruleset's embedded battle with random legal actions, narrated",
        description=(
            "Play the embedded battle of a ruleset (default bloodybacks93), choosing uniformly "
            "among the legal actions, and narrate every step with its rolls and rules. The "
            "same seed plays the same battle."
        ),
    )
    fight.add_argument("ruleset", nargs="?", default=DEFAULT_TARGET[0], help="ruleset name")
    fight.add_argument("--seed", type=int, default=1, help="seed for the dice and the choices")
    fight.add_argument("--turns", type=int, default=1, help="play until this many turns end")
    fight.add_argument("--max-steps", type=int, default=2_000, help="stop after this many actions")
    fight.add_argument("--json", action="store_true", help="print the final state as JSON")
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


def _sampled(mechanism: Mechanism, arguments: dict[str, Any], samples: int, seed: int | None
             ) -> Estimate[Any]:
    return monte_carlo(mechanism.function, samples=samples, rng=seed, **arguments)


def _cmd_rulesets(as_json: bool) -> int:
    rulesets = available_rulesets()
    if as_json:
        print(json.dumps([
            {
                "name": r.name, "title": r.title, "period": r.period, "edition": r.edition,
                "aliases": list(r.aliases), "dice": list(r.dice),
                "phases": [p.name for p in r.phases],
                "mechanisms": [m.name for m in r.mechanisms],
            }
            for r in rulesets
        ], indent=2))
        return 0
    print(f"{DICE:<16} generic dice: " + ", ".join(m.name for m in DICE_MECHANISMS))
    for r in rulesets:
        aliases = f" (also {', '.join(r.aliases)})" if r.aliases else ""
        print(f"{r.name:<16} {r.title}, {r.edition}; {r.period}{aliases}")
        print(f"{'':<16} dice: {', '.join(r.dice)}; {len(r.mechanisms)} mechanisms")
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
            for m in mechanisms:
                print(f"{m.signature()}\n    {m.summary} [{m.rule}]")
        return 0
    name = args.mechanism or default_mechanism
    if name is None and owner == DICE:
        name = DEFAULT_DICE_MECHANISM
    if name is None:
        names = ", ".join(m.name for m in mechanisms)
        raise InvalidValueError(f"{owner} mechanism", "(none given)", f"one of {names}")
    mechanism = find_mechanism(mechanisms, name, owner)
    arguments = mechanism.arguments(_pairs(args.params))
    distribution: Distribution[Any] = odds(mechanism.function, **arguments)
    sampled = _sampled(mechanism, arguments, args.samples, args.seed) if args.samples else None
    if args.json:
        data = {"ruleset": owner, "mechanism": mechanism.name, "rule": mechanism.rule,
                "parameters": arguments, **distribution.to_dict()}
        if sampled is not None:
            data["samples"] = {
                "count": args.samples,
                "seed": args.seed,
                "counts": {str(outcome): n for outcome, n in sampled.counts},
                "agrees_within_5_sigma": sampled.agrees_with(distribution),
            }
        print(json.dumps(data, indent=2, default=str))
        return 0
    shown = " ".join(f"{k}={v}" for k, v in arguments.items())
    print(f"{owner} {mechanism.name} {shown}\n{mechanism.summary} [{mechanism.rule}]\n")
    print(distribution.table())
    if sampled is not None:
        print(f"\nsampled {args.samples:,} times (seed {args.seed}):")
        for outcome, weight in distribution.items():
            print(f"{outcome!s:<24} {sampled.probability(outcome):>7.2%}  "
                  f"(exact {weight / distribution.denominator:.2%})")
        verdict = "agrees" if sampled.agrees_with(distribution) else "DISAGREES"
        print(f"Monte Carlo {verdict} with the exact distribution within 5 standard errors")
    return 0


def _cmd_battle(args: argparse.Namespace) -> int:
    ruleset = get_ruleset(args.ruleset)
    if ruleset.turn is None or ruleset.example is None:
        raise InvalidValueError("ruleset", ruleset.name, "a ruleset with a turn and a battle")
    if args.turns < 1:
        raise InvalidValueError("--turns", args.turns, "1 or more")
    if args.seed < 0:
        raise InvalidValueError("--seed", args.seed, "0 or more")
    start = ruleset.example(args.seed)
    last_turn = getattr(start, "turn", 1) + args.turns
    played = play(
        ruleset.turn, start, random_policy(args.seed), max_steps=args.max_steps,
        until=lambda state: getattr(state, "turn", 0) >= last_turn,
    )
    if args.json:
        print(played.end.to_json())
        return 0
    print(f"{ruleset.title}: the embedded battle, seed {args.seed}, "
          f"{len(played.steps)} actions chosen at random among the legal ones\n")
    print(played.narrate())
    return 0


def _describe(mechanism: Mechanism) -> dict[str, Any]:
    return {
        "name": mechanism.name,
        "summary": mechanism.summary,
        "rule": mechanism.rule,
        "parameters": [
            {"name": p.name, "kind": p.kind.__name__, "default": p.default, "help": p.help,
             "choices": list(p.choices)}
            for p in mechanism.parameters
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "rulesets":
            return _cmd_rulesets(args.json)
        if args.command == "battle":
            return _cmd_battle(args)
        if args.command == "odds":
            if args.samples < 0:
                raise InvalidValueError("--samples", args.samples, "0 or more")
            return _cmd_odds(args)
    except SmoothboreError as error:
        print(f"smoothbore: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (head, less) closed early: nothing more to say
        sys.stderr.close()
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
