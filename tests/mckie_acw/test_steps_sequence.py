"""steps_sequence.py: ending each step and the period: rest, exhaustion, couriers."""

from __future__ import annotations

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import Dig, EndPhase
from smoothbore.mckie_acw.phases import COMPULSORY, INITIATIVE, MORALE, MOVEMENT
from smoothbore.mckie_acw.units import OrderKind, Status

from .support import A, B, at, battle, foot


def end_period(state):  # type: ignore[no-untyped-def]
    state, _ = TURN.step(state, EndPhase())
    state, _ = TURN.step(state, EndPhase())
    return state


def test_idle_units_rest_two_points_and_workers_do_not() -> None:
    state = at(battle(foot("a1", effort=5), foot("a2", effort=5), foot("b1", B, effort=1),
                      foot("b2", B, effort=13)), MORALE, worked=frozenset({"a2"}))
    after = end_period(state)
    assert after.phase == INITIATIVE and after.turn == 2
    assert [after.unit(u).effort for u in ("a1", "a2", "b1", "b2")] == [3, 5, 0, 11]
    assert not after.unit("b2").must_retire  # rested below 12 first... still 11


def test_an_exhausted_unit_must_retire_then_rest() -> None:
    state = at(battle(foot("a1", effort=14), foot("b1", B)), MORALE,
               worked=frozenset({"a1"}))
    after = end_period(state)
    assert after.unit("a1").must_retire
    step1 = at(after, COMPULSORY)
    with pytest.raises(IllegalActionError, match="compulsory"):
        TURN.step(step1, EndPhase())


def test_digging_is_a_task_not_rest() -> None:
    state = at(battle(foot("a1", effort=4), foot("b1", B)), MOVEMENT)
    state, _ = TURN.step(state, Dig("a1"))
    state = at(state, MORALE, acting=A)
    assert end_period(state).unit("a1").effort == 4


def test_couriers_arrive_and_begun_orders_are_marked() -> None:
    state = at(battle(), MORALE, activated=frozenset({"b-div"}))
    div = state.commander("a-div")
    import attrs

    state = state.with_commanders(attrs.evolve(div, courier=OrderKind.HOLD))
    after = end_period(state)
    assert after.commander("a-div").order.kind is OrderKind.HOLD
    assert after.commander("a-div").courier is None
    assert after.commander("b-div").order.started


def test_routing_units_never_rest() -> None:
    state = at(battle(foot("a1", effort=4, status=Status.ROUTING), foot("a2"), foot("b1", B)),
               MORALE, routed=frozenset({"a1"}))
    assert end_period(state).unit("a1").effort == 4
