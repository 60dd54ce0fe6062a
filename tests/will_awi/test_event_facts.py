"""Structured events (issue 27): every test the book rolls tells its outcome as facts beside
its words (``event.fact("test")``, ``event.fact("result")``), so that a program need not read
the sentence: morale (Rules - Morale: Testing shaken units, Testing routing units), the
charged unit's test (Rules - Charging: Testing charged units), the melee (Rules - Melee),
command (Command & Control) and the morale effect of fire (Rules - Firing)."""

from __future__ import annotations

from smoothbore.will_awi.actions import (
    DeclareCharge,
    EndPhase,
    Fire,
    IndependentTest,
    Order,
    ResolveMelee,
    TestCharged,
    TestMorale,
)
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts, Face
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.melee import Effect
from smoothbore.will_awi.morale import RoutingResult, ShakenResult
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status, TroopType, Unit

from .turn_helpers import battle, to_phase


def test_morale_tests_tell_their_test_and_result() -> None:
    """Testing shaken units and Testing routing units: the event names the test, its result
    (one of the book's results) and the status it leaves; over seeds the results vary and
    each matches the unit's new status."""
    shaken, routing = set(), set()
    for seed in range(30):
        s = battle(seed, r1=Unit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN),
                   r2=Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY,
                           status=Status.ROUTING))
        after, events = TURN.step(s, TestMorale("r1"))
        (test,) = [e for e in events if e.kind == "morale"]
        assert test.fact("test") == "shaken"
        shaken.add(ShakenResult(test.fact("result")))
        assert test.fact("status") == after.unit("r1").status.value
        after, events = TURN.step(s, TestMorale("r2"))
        (test,) = [e for e in events if e.kind == "morale"]
        assert test.fact("test") == "routing"
        routing.add(RoutingResult(test.fact("result")))
        assert test.fact("status") == after.unit("r2").status.value
    assert ShakenResult.CARRY_ON in shaken and len(shaken) >= 3
    assert RoutingResult.HALT_SHAKEN in routing and len(routing) >= 2


def test_the_charged_test_and_the_melee_tell_their_results() -> None:
    """Testing charged units: the event's result is the ChargedResult the state holds; the
    melee's event gives the effect, the losing side, the unit affected and both scores."""
    charged, effects = set(), set()
    for seed in range(40):
        s = to_phase(battle(seed), "F")
        s, _ = TURN.step(s, DeclareCharge("r2", "b2", 5.0, facts=ChargeFacts(Face.FRONT)))
        s, _ = TURN.step(s, EndPhase())
        s, events = TURN.step(s, TestCharged("b2"))
        (test,) = [e for e in events if e.kind == "charged"]
        assert test.fact("test") == "charged"
        assert test.fact("result") == s.extra.tests[0].result.value
        charged.add(s.extra.tests[0].result)
        if s.extra.tests[0].result is not ChargedResult.STANDS:
            continue
        s = to_phase(s, "J")
        _, events = TURN.step(s, ResolveMelee("b2"))
        melee = events[0]
        assert melee.fact("test") == "melee"
        effect = Effect(melee.fact("result"))
        effects.add(effect)
        assert melee.fact("loser") in ("attackers", "defenders", "none")
        assert f"the attackers score {melee.fact('attackers')}, the defenders " \
               f"{melee.fact('defenders')}" in melee.text
    assert {ChargedResult.STANDS, ChargedResult.ROUTS} <= charged and effects


def test_command_rolls_tell_whether_the_units_move() -> None:
    """Command & Control - Ideas (2): an order's event says "moves" or "fails" and how many
    units it was for; an independent test "moves" or "stays", as the state records."""
    seen = set()
    for seed in range(30):
        s = to_phase(battle(seed, Options(command_control=True)), "C")
        after, events = TURN.step(s, Order("rb", "r1", with_units=("r2",)))
        order = events[-1]
        assert order.fact("test") == "order" and order.fact("units") == 2
        assert order.fact("result") == ("moves" if "r1" in after.extra.ordered else "fails")
        after, events = TURN.step(s, IndependentTest("r1"))
        test = events[-1]
        assert test.fact("test") == "independent"
        assert test.fact("result") == ("moves" if "r1" in after.extra.ordered else "stays")
        seen.add(test.fact("result"))
    assert "stays" in seen


def test_the_morale_effect_of_fire_tells_the_shaking() -> None:
    """Rules - Firing: Morale effect of fire: a unit shaken by fire has an event saying so as
    facts (the result and its cause)."""
    for seed in range(60):
        s = to_phase(battle(seed), "E")
        _, events = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
        shaken = [e for e in events if e.kind == "shaken"]
        if shaken:
            assert shaken[0].fact("result") == "shaken"
            assert shaken[0].fact("cause") == "by fire"
            return
    raise AssertionError("no fire shook the foot")
