"""smoothbore.table sits above core and below the rule books: it imports only
smoothbore.core (DESIGN.md, Layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import smoothbore.table

PACKAGE = Path(smoothbore.table.__file__).parent


def test_the_table_imports_only_core() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.startswith("smoothbore") and not name.startswith(
                        ("smoothbore.core", "smoothbore.table")):
                    found.append((path.name, name))
    assert len(list(PACKAGE.glob("*.py"))) >= 10
    assert found == []
