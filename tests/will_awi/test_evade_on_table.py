"""Evading on a table (option ``evade``, W23; Rules - Charging: "counter-charge, evade, or
rout"): the evader falls back a full move the way a rout would go; a full move over its
side's edge takes it off the table, and one with no way open is no evasion: the unit fights
(issue 27: Cowpens, seeds 11, 13, 29, left the evader standing in contact with the melee
cancelled)."""

from __future__ import annotations

import math

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.table import Edge
from smoothbore.will_awi.actions import DeclareCharge, EndPhase, Evade, TestCharged
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.state import State, new_battle, pending_melees
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Status, TroopType, Unit

from .turn_helpers import to_phase

UNITS = {
    "r1": Unit("r1", "Foot", "red", TroopType.LINE),
    "b2": Unit("b2", "Washington's Dragoons", "blue", TroopType.LIGHT_CAVALRY),
    "b1": Unit("b1", "Continentals", "blue", TroopType.LINE),
}


def charged(places: dict[str, Place], **more: Unit) -> State:
    """Phase H after the foot charged the dragoons and they stood, on a 48" x 36" table whose
    far edge (y 36) is blue's."""
    known = {**UNITS, **more}
    units = tuple(known[k] for k in places)
    table = deploy(units, places, width=48, depth=36,
                   home_edges={"red": Edge.NEAR, "blue": Edge.FAR})
    for seed in range(60):
        s = new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                       table=table, seed=seed, options=Options(evade=True))
        s = to_phase(s, "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2"))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b2"))
        if s.extra.tests[0].result is ChargedResult.STANDS:
            return to_phase(s, "H")
    raise AssertionError("no seed let the dragoons stand")


def test_an_evasion_over_the_home_edge_leaves_the_table() -> None:
    """W23: the dragoons 4" from their own (far) edge fall back a full move (12") the way a
    rout goes: over the edge, so they are out of the battle, their footprint gone, and no
    melee is left standing in contact."""
    s = charged({"r1": (20, 36 - BASE / 2 - 4 - BASE - 2, 0), "b2": (20, 36 - BASE / 2 - 4, 180)})
    after, events = TURN.step(s, Evade("b2"))
    assert after.unit("b2").status is Status.OFF_TABLE
    assert events[0].text == "Washington's Dragoons evades off the table and is out of the battle"
    table = after.extra.table
    assert table is not None and "b2" not in table.units
    assert pending_melees(after) == ()


def test_an_evasion_with_no_way_open_is_refused_and_the_unit_fights() -> None:
    """W23: the dragoons in the middle of a ring of eight red battalions 12" away (the foot
    charging from 2" south): every heading of a full move (12") ends nearer one of them, so
    no way takes them further from every enemy they see; they cannot evade, Evade is not
    offered, and the melee stands."""
    ring = {f"r{i + 2}": (24 + 12 * math.sin(math.radians(45 * i)),
                          18 + 12 * math.cos(math.radians(45 * i)), (45 * i + 180) % 360)
            for i in range(8)}
    units = {k: Unit(k, f"Foot {k}", "red", TroopType.LINE) for k in ring}
    s = charged({"r1": (24, 18 - BASE - 2, 0), "b2": (24, 18, 180), **ring}, **units)
    assert Evade("b2") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="cannot evade and must fight"):
        TURN.step(s, Evade("b2"))
    assert pending_melees(s) == ("b2",)
