"""The example on docs/table.md runs and prints what the page says it prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def test_the_example_prints_what_the_page_says(capsys: pytest.CaptureFixture[str]) -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    for index, block in enumerate(blocks):
        exec(compile(block, f"{PAGE}:block {index + 1}", "exec"), namespace)
    out = capsys.readouterr().out.splitlines()
    printed = re.findall(r"```text\n(.*?)```", text, re.S)[0].splitlines()
    assert out[:2] == printed
    assert out[2:] == ["10.0 front True", "16.0", "4.666667"]
    assert "`10.0 front True`, then `16.0`" in text and "`4.666667`" in text
    assert str(namespace["svg"]).startswith("<svg")
