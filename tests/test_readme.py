"""The README's example runs and says what it shows."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys: object) -> None:
    text = README.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), str(README), "exec"), namespace)
    odds = namespace["odds"]
    volley = namespace["volley"]
    dist = odds(volley, firers=3)  # type: ignore[operator]
    # no hit: each of three firers misses 2d6 >= 7 with chance 15/36
    assert dist.probability(0) == Fraction(15, 36) ** 3
    shown = re.search(r"narrate\(\)\)\s+# (.*)", text)
    assert shown is not None
    assert namespace["dice"].records[0].narrate() == shown.group(1)  # type: ignore[attr-defined]


def test_quick_start_is_two_commands_and_ci_runs_the_test_one() -> None:
    text = README.read_text()
    quick = re.search(r"## Quick start.*?```sh\n(.*?)```", text, re.S)
    assert quick is not None
    commands = quick.group(1).strip().splitlines()
    assert len(commands) == 2
    ci = (README.parent / ".ci" / "run").read_text()
    assert commands[1] in ci.splitlines()


def test_readme_commands_are_ones_the_command_line_reads() -> None:
    from smoothbore.cli import _parser

    text = README.read_text()
    commands = [line.split("#")[0].split() for line in re.findall(r"^smoothbore .*$", text, re.M)]
    assert {"odds", "battle"} <= {command[1] for command in commands}
    parser = _parser()
    for command in commands:
        parser.parse_args(command[1:])  # raises on an unknown command or option
