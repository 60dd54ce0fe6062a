"""effects.py: losses (helpers first), a new status, and what each morale result does."""

from __future__ import annotations

from smoothbore.core import Log, SamplingDice
from smoothbore.mckie_acw import rules
from smoothbore.mckie_acw.effects import apply_result, lose, set_status
from smoothbore.mckie_acw.morale import Circumstance
from smoothbore.mckie_acw.state import Charge, Contact
from smoothbore.mckie_acw.tables import MoraleResult
from smoothbore.mckie_acw.units import Status

from .support import B, battle, foot, guns

C, R = Circumstance, MoraleResult


def log() -> Log:
    return Log(SamplingDice(0))


def test_helpers_fall_before_the_crew_and_losses_are_counted() -> None:
    state = battle(guns("g", helpers=2), foot("b1", B))
    after = lose(state, "g", 3, log(), rules.CASUALTY_TABLE, by_fire=True)
    g = after.unit("g")
    assert (g.helpers, g.figures) == (0, 3)
    assert after.extra.lost == (("g", 1),) and after.extra.fire_lost == (("g", 1),)
    gone = lose(state, "b1", 16, log(), rules.MELEE)
    assert gone.unit("b1").status is Status.DESTROYED


def test_a_rout_breaks_off_melee_and_charge() -> None:
    state = battle().with_extra(contacts=(Contact("a1", "b1"),), charges=(Charge("a1", "b1"),))
    after = set_status(state, "a1", Status.ROUTING, log(), rules.MORALE_TABLE)
    assert after.extra.contacts == () and after.extra.charges[0].stopped
    assert "a1" in after.extra.routed


def test_result_meanings() -> None:
    state = battle().with_extra(charges=(Charge("a1", "b1"),))
    halted = apply_result(state, "a1", C.CHARGING, R.HALT, log())
    assert halted.extra.charges[0].stopped and "a1" in halted.extra.halted
    stands = apply_result(state, "b1", C.RECEIVING, R.HALT, log())
    assert stands.unit("b1").status is Status.STEADY
    routing = battle(foot("a1", status=Status.ROUTING), foot("a2"), foot("b1", B))
    assert apply_result(routing, "a1", C.RALLY, R.HALT, log()).unit("a1").status is (
        Status.RETREATING)
    assert apply_result(routing, "a1", C.RALLY, R.CARRY_ON, log()).unit("a1").status is (
        Status.STEADY)
    assert apply_result(routing, "a1", C.RALLY, R.RETREAT, log()).unit("a1").status is (
        Status.ROUTING)
    retreat = apply_result(battle(), "a1", C.LOSSES, R.RETREAT, log())
    assert retreat.unit("a1").status is Status.RETREATING
    assert "a1:10-percent-lost" in retreat.extra.tested
