"""steps_morale.py: which tests fall due in steps 5, 6 and 8, exact results."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import DiceState, IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import EndPhase, TestMorale
from smoothbore.mckie_acw.melee import Attack
from smoothbore.mckie_acw.morale import Circumstance
from smoothbore.mckie_acw.options import Options, PlusOrMinus
from smoothbore.mckie_acw.phases import CHARGER_TESTS, MORALE, RECEIVE_TESTS
from smoothbore.mckie_acw.state import Charge, morale_facts
from smoothbore.mckie_acw.units import Ground, Quality, Status

from .support import B, at, battle, exact, foot

C = Circumstance


def test_ten_per_cent_lost_in_a_period_exact() -> None:
    # raw, 3 of 16 lost this period (tenths 1): average die - 1 -> 1 retreats (1 face in 6)
    state = at(battle(foot("a1", quality=Quality.RAW, figures=13, initial_figures=16),
                      foot("b1", B)), MORALE, lost=(("a1", 3),))
    with pytest.raises(IllegalActionError, match="compulsory morale test"):
        TURN.step(state, EndPhase())
    dist = exact(state, TestMorale("a1", C.LOSSES), lambda s: s.unit("a1").status)
    assert dist.probability(Status.RETREATING) == Fraction(1, 6)
    assert dist.probability(Status.STEADY) == Fraction(5, 6)


def test_a_charger_20_per_cent_down_to_fire_tests_in_step_5() -> None:
    state = at(battle(foot("a1", figures=12), foot("b1", B)), CHARGER_TESTS,
               charges=(Charge("a1", "b1"),), fire_lost=(("a1", 3),), lost=(("a1", 3),))
    assert [a for a in TURN.legal_actions(state) if isinstance(a, TestMorale)] == [
        TestMorale("a1", C.CHARGER_FIRED_ON)]
    under = at(battle(foot("a1", figures=13), foot("b1", B)), CHARGER_TESTS,
               charges=(Charge("a1", "b1"),), fire_lost=(("a1", 2),), lost=(("a1", 2),))
    assert not any(isinstance(a, TestMorale) for a in TURN.legal_actions(under))  # 2/15


def test_receiving_a_charge_in_step_6() -> None:
    state = at(battle(), RECEIVE_TESTS, acting=B, charges=(Charge("a1", "b1"),))
    assert TestMorale("b1", C.RECEIVING) in TURN.legal_actions(state)
    assert TestMorale("b2", C.RECEIVING) not in TURN.legal_actions(state)


@pytest.mark.parametrize(("attack", "retreats"), [(Attack.FRONT, 0), (Attack.FLANK, 0),
                                                  (Attack.REAR, Fraction(1, 6))])
def test_receiving_a_charge_counts_the_face_it_strikes(attack: Attack,
                                                       retreats: Fraction) -> None:
    # experienced +1, flank -1, rear -2 on the average die (2, 3, 3, 4, 4, 5): from the rear
    # only the 2 gives 1, a retreat; 2 or 3 halts, which stands to receive (M6)
    state = at(battle(), RECEIVE_TESTS, acting=B, charges=(Charge("a1", "b1", attack=attack),))
    facts = morale_facts(state, state.unit("b1"), C.RECEIVING)
    assert (facts.flank, facts.rear) == (attack is Attack.FLANK, attack is Attack.REAR)
    dist = exact(state, TestMorale("b1", C.RECEIVING), lambda s: s.unit("b1").status)
    assert dist.probability(Status.RETREATING) == retreats


def test_friends_routing_past_and_rallies_in_step_8() -> None:
    state = at(battle(foot("a1", status=Status.ROUTING), foot("a2"), foot("a3"),
                      foot("b1", B)), MORALE)
    legal = TURN.legal_actions(state)
    assert TestMorale("a1", C.RALLY) in legal
    assert not any(isinstance(a, TestMorale) and a.circumstance is C.FRIEND_ROUTED
                   for a in legal)
    routed = state.with_extra(routed=frozenset({"a1"}))
    legal = TURN.legal_actions(routed)
    assert TestMorale("a1", C.RALLY) not in legal  # routed this period: moves first
    assert TestMorale("a2", C.FRIEND_ROUTED, 1) in legal
    with pytest.raises(IllegalActionError, match="none is counted twice"):
        TURN.step(routed, TestMorale("a2", C.FRIEND_ROUTED, 2))


def test_plus_or_minus_choices_only_where_a_factor_applies() -> None:
    options = Options(plus_or_minus=PlusOrMinus.CHOOSE)
    state = at(battle(foot("a1", status=Status.ROUTING, ground=Ground.COVER),
                      foot("a2", status=Status.ROUTING, quality=Quality.RAW),
                      foot("a3"), foot("b1", B), options=options), MORALE)
    tests = {(a.unit, a.subtract_quality, a.subtract_cover) for a in TURN.legal_actions(state)
             if isinstance(a, TestMorale)}
    assert tests == {("a1", False, False), ("a1", True, False), ("a1", False, True),
                     ("a1", True, True), ("a2", False, False)}
    with pytest.raises(IllegalActionError, match="not behind or in cover"):
        TURN.step(state, TestMorale("a2", C.RALLY, subtract_cover=True))
    plain = at(battle(foot("a1", status=Status.ROUTING), foot("a3"), foot("b1", B)), MORALE)
    with pytest.raises(IllegalActionError, match="are added"):
        TURN.step(plain, TestMorale("a1", C.RALLY, subtract_quality=True))


def test_friends_routing_past_count_in_every_test_the_player_counts() -> None:
    """Morale: Tactical factors: "each friendly unit in sight routing past within 200mm: -1"
    counts in every test (M42), so without a table the player may count them in a rally
    (issue 27: a raw unit rallying from retreat beside two routers). Raw (0), retreating -2,
    two routers -2 on the average die (2, 3, 3, 4, 4, 5): -2 or -1 routs (3 in 6), 0 or 1
    retreat; without them 2 or 3 would halt, which rallies it (3 in 6)."""
    state = at(battle(foot("a1", status=Status.RETREATING, quality=Quality.RAW),
                      foot("a2", status=Status.ROUTING), foot("a3", status=Status.ROUTING),
                      foot("b1", B)), MORALE, routed=frozenset({"a2", "a3"}))
    legal = TURN.legal_actions(state)
    assert TestMorale("a1", C.RALLY, 2) in legal
    dist = exact(state, TestMorale("a1", C.RALLY, 2), lambda s: s.unit("a1").status)
    assert dist.probability(Status.ROUTING) == Fraction(1, 2)
    assert dist.probability(Status.STEADY) == 0
    plain = exact(state, TestMorale("a1", C.RALLY), lambda s: s.unit("a1").status)
    assert plain.probability(Status.STEADY) == Fraction(1, 2)
    with pytest.raises(IllegalActionError, match="none is counted twice"):
        TURN.step(state, TestMorale("a1", C.RALLY, 3))


def test_every_test_event_carries_its_outcome_as_facts() -> None:
    """Morale: Test procedure (the result read on the results table, M6): standing to
    receive a charge, carry on and halt have the same effect, so the event carries the test
    and its result as facts beside its words (issue 27)."""
    state = at(battle(), RECEIVE_TESTS, acting=B, charges=(Charge("a1", "b1"),))
    seen = set()
    for seed in range(12):
        _, events = TURN.step(state.replace(dice=DiceState(seed)),
                              TestMorale("b1", C.RECEIVING))
        (event,) = [e for e in events if e.kind == "morale"]
        assert event.fact("test") == "morale"
        assert event.fact("circumstance") == "receiving-a-charge"
        assert event.fact("status") == "steady"
        result = event.fact("result")
        assert isinstance(result, str) and event.text.endswith(result)
        seen.add(result)
    assert seen == {"carry-on", "halt"}  # experienced +1: 3 to 6, never a retreat
