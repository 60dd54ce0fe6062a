"""Every runtime dependency declared in pyproject.toml is one the library imports (issue 31:
``cattrs`` was declared and imported nowhere)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMPORT_NAMES = {"pyyaml": "yaml", "scikit-learn": "sklearn"}


def _declared() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].strip().lower()
             for spec in project["dependencies"]]
    return [IMPORT_NAMES.get(name, name.replace("-", "_")) for name in names]


def test_every_declared_dependency_is_imported_in_src() -> None:
    sources = "\n".join(path.read_text(encoding="utf-8")
                        for path in (ROOT / "src" / "smoothbore").rglob("*.py"))
    unused = [name for name in _declared()
              if not re.search(rf"^\s*(import|from)\s+{re.escape(name)}\b", sources, re.M)]
    assert unused == []
    assert "cattrs" not in _declared()
