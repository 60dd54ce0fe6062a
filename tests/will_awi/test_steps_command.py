"""Command & Control in phase C (steps_command): order rolls, group orders and independent
tests (March 2008 post by default, January 2008 as an option)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi.actions import EndPhase, IndependentTest, Move, Order
from smoothbore.will_awi.movement import Leg, MovePlan
from smoothbore.will_awi.options import CommandPost, Options
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, TroopType, Unit

from .turn_helpers import battle, to_phase

CC = Options(command_control=True)


def test_command_and_control_in_the_turn() -> None:
    """Command & Control (March 2008): 2d6 at or under rating 8 (average unit, in sight, next
    to the commander: no modifier) gives the order; a failure ends the commander's orders and
    the unit stays; the state follows the faces rolled."""
    seen = set()
    for seed in range(30):
        cc = to_phase(battle(seed, options=CC), "C")
        after, events = TURN.step(cc, Order("rb", "r1"))
        ok = sum(events[0].rolls[0].faces) <= 8
        seen.add(ok)
        if ok:
            assert "r1" in after.extra.ordered and "rb" not in after.extra.failed
            moved, _ = TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            assert "r1" in moved.extra.done
        else:
            assert "rb" in after.extra.failed and "r1" not in after.extra.ordered
            with pytest.raises(IllegalActionError, match="failed"):
                TURN.step(after, Order("rb", "r2"))
            with pytest.raises(IllegalActionError, match="already"):
                TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            # the other unit, not yet tested, may test alone: 3 or less (March)
            alone, ev = TURN.step(after, IndependentTest("r2"))
            assert ("r2" in alone.extra.ordered) is (sum(ev[0].rolls[0].faces) <= 3)
    assert seen == {True, False}


def test_orders_offered_for_every_unit_and_group() -> None:
    """Command & Control: the commander may order any of his units alone or any group of them
    moving together; a unit of another commander is not his to order; nothing is ordered
    when command and control is off."""
    cc = to_phase(battle(options=CC), "C")
    orders = {a for a in TURN.legal_actions(cc) if isinstance(a, Order)}
    assert orders == {Order("rb", "r1"), Order("rb", "r2"), Order("rb", "r1", with_units=("r2",))}
    assert IndependentTest("r1") in TURN.legal_actions(cc)
    with pytest.raises(IllegalActionError, match="cannot give orders now"):
        TURN.step(cc, Order("bb", "b1"))  # not the moving side
    plain = to_phase(battle(), "C")
    assert not any(isinstance(a, Order | IndependentTest) for a in TURN.legal_actions(plain))
    with pytest.raises(IllegalActionError, match="not in play"):
        TURN.step(plain, Order("rb", "r1"))


def test_group_order_and_independent_tests_last() -> None:
    """A group move is one roll for several units (-1); the independent tests come after all
    command rolls, so no order follows one."""
    for seed in range(30):
        cc = to_phase(battle(seed, options=CC), "C")
        after, events = TURN.step(cc, Order("rb", "r1", with_units=("r2",)))
        assert len(events[0].rolls) == 1
        ok = sum(events[0].rolls[0].faces) <= 8 - 1
        assert ({"r1", "r2"} <= after.extra.ordered) is ok
        assert ({"r1", "r2"} <= after.extra.done) is not ok
    cc = to_phase(battle(options=CC), "C")
    after, _ = TURN.step(cc, IndependentTest("r2"))
    with pytest.raises(IllegalActionError, match="after all command rolls"):
        TURN.step(after, Order("rb", "r1"))
    assert not any(isinstance(a, Order) for a in TURN.legal_actions(after))
    with pytest.raises(IllegalActionError):
        TURN.step(cc, Order("rb", "r1", with_units=("r1",)))
    jan = Options(command_control=True, command_post=CommandPost.JANUARY_2008)
    january = to_phase(battle(options=jan), "C")
    with pytest.raises(IllegalActionError, match="failed"):
        TURN.step(january, IndependentTest("r2"))
    assert not any(isinstance(a, IndependentTest) for a in TURN.legal_actions(january))


def test_order_to_the_unit_the_general_rides_with() -> None:
    """Command & Control: +2 if the commander is with the unit: a general attached to the unit
    (Greene with b1, rating 8) needs 10 or less, whatever the order's facts say."""
    seen = set()
    for seed in range(40):
        s = to_phase(battle(seed, options=CC), "K")
        s, _ = TURN.step(s, EndPhase())
        s = to_phase(s, "C")
        assert s.extra.moving == "blue"
        after, events = TURN.step(s, Order("bb", "b1"))
        total = sum(events[0].rolls[0].faces)
        seen.add(total)
        assert ("b1" in after.extra.ordered) is (total <= 10)
    assert {11, 12} & seen and seen - {11, 12}


def test_a_brigadier_orders_only_his_brigade() -> None:
    """Command & Control: a commander orders the units of his command (directly or through
    his brigadiers), not another's."""
    r3 = Unit("r3", "Loyalists", "red", TroopType.MILITIA, commander="other")
    s = battle(options=CC)
    s = attrs.evolve(s, units=(*s.units, r3),
                     commanders=(*s.commanders, Commander("other", "Rawdon", "red")))
    cc = to_phase(s, "C")
    assert not any(isinstance(a, Order) and a.general == "rb" and "r3" in (a.unit, *a.with_units)
                   for a in TURN.legal_actions(cc))
    with pytest.raises(IllegalActionError, match="not under"):
        TURN.step(cc, Order("rb", "r3"))


def test_a_senior_general_orders_through_his_brigadiers() -> None:
    """Command & Control and Rules - Introduction: Generals: a senior general commands the
    units of the brigadiers below him: Lincoln may order the brigade of Greene, who answers to
    him; a brigadier of another chain may not."""
    from smoothbore.will_awi.units import Rank

    s = battle(options=CC)
    senior = Commander("bs", "Lincoln", "blue", Rank.SENIOR)
    other = Commander("bo", "Moultrie", "blue")
    brigadiers = tuple(
        attrs.evolve(g, superior="bs") if g.id == "bb" else g for g in s.commanders
    )
    gens = (*brigadiers, senior, other)
    s = attrs.evolve(s, commanders=gens)
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    s = to_phase(s, "C")
    legal = TURN.legal_actions(s)
    assert Order("bs", "b1") in legal and Order("bs", "b1", with_units=("b2", "b3")) in legal
    assert not any(isinstance(a, Order) and a.general == "bo" for a in legal)
    with pytest.raises(IllegalActionError, match="not under"):
        TURN.step(s, Order("bo", "b1"))
