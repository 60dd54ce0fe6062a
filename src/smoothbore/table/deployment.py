"""Whether a table holds a battle's troops: the one check every rule book makes when a battle
starts on a table (its footprints are the battle's units, each on its own side, and every unit
that should stand on the table has one; its commander marks are the battle's commanders)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from smoothbore.core import InvalidValueError

from .measure import Measure
from .tabletop import Table

__all__ = ["Deployed", "check_deployed"]


class Deployed(Protocol):
    """What the check reads of a unit or a commander: its id and its side."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...


def check_deployed(
    table: object,
    units: Iterable[Deployed],
    *,
    on_table: Callable[[Any], bool] | None = None,
    commanders: Iterable[Deployed] | None = None,
    measure: Measure | None = None,
    blank_sides: bool = False,
    field: str = "table",
) -> Table:
    """``table`` checked against the battle it is for, and returned.

    - it is a ``Table``, in ``measure`` when one is given (McKie measures in millimetres);
    - each footprint names one of ``units`` that may stand on the table (``on_table``; None:
      every unit), and stands on that unit's side (with ``blank_sides``, a footprint may
      leave its side blank: a book that makes its footprints from its units fills it in);
    - each of those units has a footprint;
    - with ``commanders``, each commander mark names one of them, on his side.

    Errors name the field as the caller wrote it (``field``, ``table`` by default)."""
    if not isinstance(table, Table):
        raise InvalidValueError(field, type(table).__name__, "a smoothbore.table.Table")
    if measure is not None and table.measure is not measure:
        raise InvalidValueError(f"{field}.measure", table.measure.value,
                                f"{measure.value} (the rule book's measure)")
    standing = {u.id: u for u in units if on_table is None or on_table(u)}
    for footprint in table.footprints:
        unit = standing.get(footprint.unit_id)
        if unit is None:
            raise InvalidValueError(f"{field}.footprints", footprint.unit_id,
                                    _ids("a unit that stands on the table", standing))
        if footprint.side != unit.side and not (blank_sides and not footprint.side):
            raise InvalidValueError(f"{field}.footprints[{footprint.unit_id!r}].side",
                                    footprint.side, f"{unit.side!r}, the unit's side")
    missing = [u for u in standing if u not in table.units]
    if missing:
        raise InvalidValueError(field, missing[0], "a table with a footprint for every unit "
                                "that stands on it")
    if commanders is not None:
        known = {c.id: c for c in commanders}
        for mark in table.commanders:
            commander = known.get(mark.commander_id)
            if commander is None:
                raise InvalidValueError(f"{field}.commanders", mark.commander_id,
                                        _ids("a commander of the battle", known))
            if mark.side and mark.side != commander.side:
                raise InvalidValueError(f"{field}.commanders[{mark.commander_id!r}].side",
                                        mark.side, f"{commander.side!r}, the commander's side")
    return table


def _ids(what: str, known: dict[str, Any]) -> str:
    names = sorted(known)
    shown = ", ".join(repr(n) for n in names[:12])
    more = " ..." if len(names) > 12 else ""
    return f"the id of {what}: {shown}{more}" if names else f"the id of {what} (there is none)"
