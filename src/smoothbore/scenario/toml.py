"""A small TOML writer for scenario files (reading is the standard library's ``tomllib``).

Written here rather than taken from ``tomli-w``: a scenario needs only text, whole numbers,
finite floats, booleans, arrays and tables, and it must write the same text for the same
battle, with floats written so that they read back exactly (``repr``) and arrays of tables in
the order the format documents; that is some sixty lines, and no new dependency."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from smoothbore.core.errors import InvalidValueError

__all__ = ["dumps"]

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValueError(where, value, "a finite number")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v, where) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v, where)}" for k, v in value.items()) + " }"
    raise InvalidValueError(where, value, "text, a number, true or false, an array or a table")


def _is_tables(value: Any) -> bool:
    return (isinstance(value, (list, tuple)) and bool(value)
            and all(isinstance(v, Mapping) for v in value))


def _section(lines: list[str], table: Mapping[str, Any], name: str, tables: frozenset[str],
             top: bool = True) -> None:
    later: list[tuple[str, Any]] = []
    for key, value in table.items():
        if (isinstance(value, Mapping) and top) or (key in tables and _is_tables(value)):
            later.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value, f'{name}.{key}' if name else key)}")
    for key, value in later:
        full = f"{name}.{_key(key)}" if name else _key(key)
        if isinstance(value, Mapping):
            lines.extend(("", f"[{full}]"))
            _section(lines, value, full, tables)
        else:
            for item in value:
                lines.extend(("", f"[[{full}]]"))
                _section(lines, item, full, tables, top=False)


def dumps(document: Mapping[str, Any], *, tables: frozenset[str] = frozenset(),
          header: str = "") -> str:
    """``document`` as TOML text: plain values first, then each table (``[name]``), and each
    array of tables whose key is in ``tables`` as ``[[name]]`` sections (other arrays of
    tables are written inline, as is any table inside an array's item). ``header``: comment
    lines put at the top."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    _section(lines, document, "", tables)
    return "\n".join(lines).lstrip("\n") + "\n"
