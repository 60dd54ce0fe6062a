"""steps_melee.py: contacts from charges, the melee step exact, results, follow-up,
surrender and prisoners."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import EndPhase, FollowUp, Melee
from smoothbore.mckie_acw.melee import Attack
from smoothbore.mckie_acw.phases import MELEE, RECEIVE_TESTS
from smoothbore.mckie_acw.state import Charge, Contact
from smoothbore.mckie_acw.units import Formation, Status

from .support import A, B, at, battle, exact, foot


def test_charges_meet_their_targets_after_the_receiving_tests() -> None:
    state = at(battle(), RECEIVE_TESTS, acting=B,
               charges=(Charge("a1", "b1", attack=Attack.FLANK),), tested=frozenset(
                   {"b1:receiving-a-charge"}))
    after, _ = TURN.step(state, EndPhase())
    assert after.phase == MELEE
    assert after.extra.contacts == (Contact("a1", "b1", True, False, Attack.FLANK),)
    assert "b1" in after.extra.flanked


def test_a_melee_period_exact() -> None:
    # attacker charging: factor 4 + 2 = 6, 8 figures -> 0/96; defender 4, 8 figures -> 0/64
    state = at(battle(), MELEE, contacts=(Contact("a1", "b1"),))
    dist = exact(state, Melee("a1", "b1"), lambda s: (s.unit("a1").figures,
                                                      s.unit("b1").figures))
    assert sum(dist.probability(o) for o in dist.outcomes if o[1] == 15) == Fraction(96, 100)
    assert sum(dist.probability(o) for o in dist.outcomes if o[0] == 15) == Fraction(64, 100)
    after, _ = TURN.step(state, Melee("a1", "b1"))
    assert after.unit("a1").effort == 2 and after.unit("b1").effort == 2
    assert "melee:a1" in after.extra.done
    with pytest.raises(IllegalActionError):
        TURN.step(after.with_extra(follow=()), Melee("a1", "b1"))


def test_the_winner_decides_to_follow_up() -> None:
    state = at(battle(), MELEE, contacts=(Contact("a1", "b1", winner="a1", periods=1),),
               follow=("a1", "b1"))
    assert set(TURN.legal_actions(state)) == {FollowUp("a1", True), FollowUp("a1", False)}
    broke, _ = TURN.step(state, FollowUp("a1", False))
    assert broke.extra.contacts == ()
    kept, _ = TURN.step(state, FollowUp("a1", True))
    assert len(kept.extra.contacts) == 1


def test_a_routing_unit_caught_surrenders_and_is_guarded() -> None:
    state = at(battle(foot("a1"), foot("b1", B, figures=11, status=Status.ROUTING),
                      foot("b2", B)), MELEE, contacts=(Contact("a1", "b1"),))
    after, _ = TURN.step(state, Melee("a1", "b1"))
    assert after.unit("b1").status is Status.SURRENDERED and after.unit("b1").figures == 0
    assert after.extra.prisoners == ((A, 11),)
    assert after.unit("a1").figures == 13  # 3 guards for 11 prisoners, 1 per 5
    assert after.extra.contacts == ()


def test_fighters_are_at_most_those_in_contact() -> None:
    state = at(battle(), MELEE, contacts=(Contact("a1", "b1"),))
    with pytest.raises(IllegalActionError, match="at most 8 and 8"):
        TURN.step(state, Melee("a1", "b1", attacker_figures=9))


def test_a_melee_in_the_flank_exact() -> None:
    # a1 (line of 16) struck b1's flank: b1's flank file is 2 figures (a line two deep), so a1
    # fights with 2 + 1 overlap each side = 4 and b1 with 2. a1 charging: factor 6, 4 figures
    # -> 0/48; b1 attacked in flank: 4 - 2 = 2, 2 figures -> 0/8
    state = at(battle(), MELEE, contacts=(Contact("a1", "b1", attack=Attack.FLANK),))
    with pytest.raises(IllegalActionError, match="at most 4 and 2"):
        TURN.step(state, Melee("a1", "b1", defender_figures=3))
    dist = exact(state, Melee("a1", "b1"), lambda s: (s.unit("a1").figures,
                                                      s.unit("b1").figures))
    assert sum(dist.probability(o) for o in dist.outcomes if o[1] == 15) == Fraction(48, 100)
    assert sum(dist.probability(o) for o in dist.outcomes if o[0] == 15) == Fraction(8, 100)
    _, events = TURN.step(state, Melee("a1", "b1"))
    assert any("fight (4 figures against 2, struck in the flank)" in e.text for e in events)


def test_a_melee_in_the_rear_exact() -> None:
    # b1, a column of 14 (4 ranks, the last of 2), struck in its rear: a1 fights with 2 + 2 = 4
    # at factor 6 -> 0/48; b1's 2 at 4 - 4 = 0 inflict nothing
    state = at(battle(foot("a1"), foot("b1", B, formation=Formation.COLUMN, figures=14)),
               MELEE, contacts=(Contact("a1", "b1", attack=Attack.REAR),))
    dist = exact(state, Melee("a1", "b1"), lambda s: (s.unit("a1").figures,
                                                      s.unit("b1").figures))
    assert dist.probability((16, 13)) == Fraction(48, 100)
    assert dist.probability((16, 14)) == Fraction(52, 100)
