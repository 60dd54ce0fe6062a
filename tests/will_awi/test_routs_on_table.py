"""Routs at once on a table (Move Sequence H, J: "immediately rout"): a unit routed at its
charged test or in a melee makes its rout move then, by phase B's rout (directly away from
every enemy it sees at rout speed), and a charger whose target ran takes its original
position. Close order foot rout 12" (Rules - Movement); a base is BASE (1.7717") deep."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import Contact, DeclareCharge, EndPhase, TestCharged
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.melee import Effect
from smoothbore.will_awi.positions import BASE, Place
from smoothbore.will_awi.state import State
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status

from .test_melee_on_table import CONTACT, FACING, fought
from .test_situations import on_table
from .turn_helpers import to_phase


def _at(state: State, unit: str) -> tuple[float, float, float]:
    table = state.extra.table
    assert table is not None
    f = table.footprint(unit)
    return f.x, f.y, f.facing


def _routed_at_test(places: dict[str, Place]) -> tuple[State, list[tuple[str, str, str]]]:
    """The first seed whose dragoons' charge on the militia routs it at its test: phase G
    after the test, and the test's events (kind, text, rule)."""
    for seed in range(60):
        s = on_table(places)
        s = to_phase(attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed)), "F")
        s, _ = TURN.step(s, DeclareCharge("r2", "b2"))
        s, _ = TURN.step(s, EndPhase())
        s, events = TURN.step(s, TestCharged("b2"))
        if s.extra.tests[0].result is ChargedResult.ROUTS:
            return s, [(e.kind, e.text, e.rule) for e in events]
    raise AssertionError("the militia never routed")


# The Continentals far off on the right, so that blue still has a unit in good order.
CHARGE = {"r2": (20, 14, 0), "b2": (20, 20, 180), "b1": (44, 4, 180)}


def test_a_unit_routed_at_its_test_runs_and_the_charger_takes_its_place() -> None:
    """The dragoons charge 20 - 14 - BASE = 4.2" into the militia's front; the militia routs
    at its test and runs 12" straight away from them at once (y 20 to 32, turned to run);
    out of reach, the dragoons go straight on to its original position (y 20 - BASE to 20:
    1.8"). The event says how far it went and where it ends."""
    s, events = _routed_at_test(CHARGE)
    assert _at(s, "r2") == pytest.approx((20, 20 - BASE, 0))
    assert _at(s, "b2") == pytest.approx((20, 32, 0))
    assert events[-1] == ("rout", 'Militia routs 12" to (20.0, 32.0), facing 000°', rules.ROUT)
    assert s.unit("b2").routed_last_move
    s = to_phase(s, "I")
    assert TURN.legal_actions(s) == (Contact("r2", False),)
    after, contact = TURN.step(s, Contact("r2", False))
    assert _at(after, "r2") == pytest.approx((20, 20, 0))
    assert contact[0].text == 'Dragoons moves onto the ground its target left (1.8")'
    assert not contact[0].rolls


def test_a_rout_that_would_end_on_a_friend_stops_short_of_it() -> None:
    """The Continentals stand across the militia's way (y 31 - BASE/2 to 31 + BASE/2): the
    militia's 12" run would end on them (y 32), so it stops with its front edge on their
    rear edge, its centre at 31 - BASE (table T21)."""
    s, events = _routed_at_test({**CHARGE, "b1": (20, 31, 180)})
    assert _at(s, "b2") == pytest.approx((20, 31 - BASE, 0), abs=1e-6)
    assert _at(s, "b1") == pytest.approx((20, 31, 180))
    # 31 - BASE - 20 = 9.2" of its 12"
    assert events[-1] == ("rout", 'Militia routs 9.2" of its 12" rout to (20.0, 29.2), '
                          "facing 000°, stopped short of Continentals, not to end on it",
                          rules.ROUT)


def test_a_unit_routed_at_its_test_by_its_home_edge_runs_off_the_table() -> None:
    """Blue's home edge is the far one (y 36): militia at y 30 running 12" leaves the table
    and is out of the battle."""
    s, events = _routed_at_test({"r2": (20, 24, 0), "b2": (20, 30, 180), "b1": (44, 4, 180)})
    assert s.unit("b2").status is Status.OFF_TABLE
    assert events[-1] == ("rout", "Militia routs off the table", rules.ROUT)


def test_the_loser_routed_in_a_melee_runs_at_once() -> None:
    """Rules - Melee: a loser by 2 or more "will rout immediately": the Continentals beaten
    run 12" straight away from the foot (y 20 to 32); the foot beaten run 12" straight back
    from the Continentals (y CONTACT to CONTACT - 12)."""
    _, after, _ = fought(FACING, "r1", "b1", {Effect.ROUT}, "b1")
    assert after.unit("b1").routing
    assert _at(after, "b1") == pytest.approx((20, 32, 0))
    assert _at(after, "r1") == pytest.approx((20, CONTACT, 0))
    _, beaten, _ = fought(FACING, "r1", "b1", {Effect.ROUT}, "r1")
    assert beaten.unit("r1").routing
    assert _at(beaten, "r1") == pytest.approx((20, CONTACT - 12, 180))
    assert _at(beaten, "b1") == pytest.approx((20, 20, 180))
