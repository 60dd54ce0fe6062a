"""Every rule book refuses to start a battle on a table that does not hold its troops: each
``new_battle`` checks its table with ``smoothbore.table.check_deployed`` (tested in
tests/table/test_deployment.py), and each is called here as its users call it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from smoothbore.bloodybacks93 import RULESET as BLOODYBACKS
from smoothbore.bloodybacks93.state import new_battle as bloodybacks_battle
from smoothbore.boltaction_acw import RULESET as BOLT_ACTION
from smoothbore.boltaction_acw.state import new_battle as bolt_action_battle
from smoothbore.core import InvalidValueError, Ruleset
from smoothbore.mckie_acw import RULESET as MCKIE
from smoothbore.mckie_acw.state import new_battle as mckie_battle
from smoothbore.table import Table, table_of
from smoothbore.will_awi import RULESET as WILL
from smoothbore.will_awi.state import new_battle as will_battle

Start = Callable[[Any, Table], Any]
BOOKS: dict[str, tuple[Ruleset, Start]] = {
    "bloodybacks93": (BLOODYBACKS, lambda s, t: bloodybacks_battle(
        s.units, s.commanders, table=t)),
    "boltaction_acw": (BOLT_ACTION, lambda s, t: bolt_action_battle(
        s.units, s.commanders, table=t)),
    "mckie_acw": (MCKIE, lambda s, t: mckie_battle(s.sides, s.units, s.commanders, table=t)),
    "will_awi": (WILL, lambda s, t: will_battle(s.sides, s.units, s.commanders, table=t)),
}


def _embedded(book: str) -> tuple[Any, Table, Start]:
    ruleset, start_battle = BOOKS[book]
    start = ruleset.battles()[0][1](0)
    table = table_of(start)
    assert table is not None
    return start, table, start_battle


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_the_embedded_table_is_accepted(book: str) -> None:
    start, table, start_battle = _embedded(book)
    assert table_of(start_battle(start, table)) is not None


@pytest.mark.parametrize("book", sorted(BOOKS))
@pytest.mark.parametrize(("change", "field"), [
    ("wrong side", "table.footprints[{uid!r}].side"),
    ("stranger", "table.footprints"),
    ("missing", "table"),
])
def test_a_table_must_hold_the_battles_units_on_their_sides(book: str, change: str,
                                                            field: str) -> None:
    start, table, start_battle = _embedded(book)
    first = table.footprints[0]
    other = next(s for s in start.sides if s != first.side)
    if change == "wrong side":
        table = table.placed(attrs.evolve(first, side=other))
    elif change == "stranger":
        table = table.placed(attrs.evolve(first, unit_id="stranger"))
    else:
        table = table.removed(first.unit_id)
    with pytest.raises(InvalidValueError) as error:
        start_battle(start, table)
    assert error.value.field == field.format(uid=first.unit_id)


def test_a_table_for_mckie_is_in_millimetres() -> None:
    start, table, start_battle = _embedded("mckie_acw")
    with pytest.raises(InvalidValueError) as error:
        start_battle(start, table.in_measure("inches"))
    assert (error.value.field, error.value.value) == ("table.measure", "inches")
