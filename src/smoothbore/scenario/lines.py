"""Where each key of a TOML text stands (``tomllib`` gives no line numbers for keys): a light
scan of ``[table]`` and ``[[array]]`` headers and ``key =`` lines, enough to say on which line
a scenario file wrote the field an error names."""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["key_lines", "line_of"]

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
_STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'[^\']*\'')
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")


def _parts(dotted: str) -> list[str]:
    return [p.strip().strip("\"'") for p in dotted.split(".")]


def key_lines(text: str) -> dict[Path, int]:
    """The line (from 1) of each table, array-of-tables item and key, by its path
    (``("side", 1, "unit", 0, "quality")``). Keys inside multi-line values are not seen."""
    found: dict[Path, int] = {}
    counts: dict[Path, int] = {}
    current: Path = ()
    depth = 0  # open brackets of a multi-line value
    for number, line in enumerate(text.splitlines(), 1):
        if depth > 0:
            depth += line.count("[") - line.count("]")
            continue
        header = _HEADER.match(line)
        if header and not _KEY.match(line):
            parts = _parts(header.group(2))
            path: list[str | int] = []
            # each named part continues the latest item of an array it names
            for part in parts[:-1]:
                path.append(part)
                if tuple(path) in counts:
                    path.append(counts[tuple(path)] - 1)
            path.append(parts[-1])
            if header.group(1) == "[[":
                index = counts.get(tuple(path), 0)
                counts[tuple(path)] = index + 1
                path.append(index)
            current = tuple(path)
            found.setdefault(current, number)
            continue
        key = _KEY.match(line)
        if key:
            here = (*current, *_parts(key.group(1)))
            found.setdefault(here, number)
            rest = _STRING.sub("", line[key.end():])
            depth = max(0, rest.count("[") - rest.count("]"))
    return found


def line_of(lines: Mapping[Path, int], path: Path) -> int | None:
    """The line of ``path``, or of the nearest enclosing key or table the scan found."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return None
