"""A charge's contact ends at least 1" from every enemy but its target (A26, A27), worked
out on a drawn 40" x 40" table: a Union line at (20, 10) facing up the table (x 16.25 to
23.75, front edge y 10.5) charges a Confederate line facing it 5" ahead (centre (20, 16),
front edge y 15.5); in contact it stands at y 14.5 to 15.5, x 16.25 to 23.75."""

from __future__ import annotations

import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Charge
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.rules import RULE_MOVE_CLEAR
from smoothbore.boltaction_acw.situations import charge_situation
from smoothbore.boltaction_acw.state import State, new_battle
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Unit, UnitType
from smoothbore.core import IllegalActionError
from smoothbore.table import Table

UNITS = {
    "a": Unit("a", "Union line", UNION, bases=5),
    "b": Unit("b", "Confederate line", CONFEDERATE, bases=5),
    "c": Unit("c", "Confederate skirmishers", CONFEDERATE, UnitType.SKIRMISHERS, bases=3),
}


def beside(x: float) -> State:
    """The charge's table with Confederate skirmishers (3 bases 1" wide, a base apart: 5"
    wide, 1" deep) beside the target, centred at (``x``, 16) facing the charger: their left
    end at ``x`` - 2.5, their near edge at y 15.5, level with the charger's front in
    contact."""
    places = {"a": (20.0, 10.0, 0.0), "b": (20.0, 16.0, 180.0), "c": (x, 16.0, 180.0)}
    feet = tuple(footprint(UNITS[uid], *place) for uid, place in places.items())
    state = new_battle(tuple(UNITS.values()), (), table=Table(40, 40, footprints=feet))
    return state.replace(phase=ORDERS).with_extra(group="a")


def test_a_charge_may_not_end_within_1_inch_of_another_enemy() -> None:
    """Skirmishers centred at x 26.75 start 0.5" right of the charger's right end (23.75)
    and 5" ahead: in contact with the line the charger would stand 0.50" from them. At
    27.5 (0.75" further) the gap is 1.25": the charge goes in."""
    near = beside(26.75)
    assert charge_situation(near, "a", "b").facts.distance == 5
    assert Charge("a", "b") not in TURN.legal_actions(near)
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(near, Charge("a", "b"))
    assert raised.value.rule == RULE_MOVE_CLEAR
    assert raised.value.why.startswith("the charge would end 0.50\" from the enemy (c)")
    far = beside(27.5)
    assert Charge("a", "b") in TURN.legal_actions(far)
    TURN.check(far, Charge("a", "b"))
