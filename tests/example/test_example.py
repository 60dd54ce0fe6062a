"""The worked example rule book (smoothbore.example): its rules by their sections, with
exact odds worked by hand and checked against brute-force enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import IllegalActionError, odds, odds_of_step
from smoothbore.example import TURN, Charge, ChargeEnd, EndPhase, Fire, charge, new_battle
from smoothbore.example.rules import REPULSED, Volley
from smoothbore.rulesets import available_rulesets, get_ruleset


def test_found_by_name_but_not_listed_among_the_rule_books() -> None:
    assert get_ruleset("example").name == "example"
    assert get_ruleset("Example").turn is TURN
    assert "example" not in {r.name for r in available_rulesets()}


def test_example_3_the_charge_odds_by_hand() -> None:
    """Closing volley 5+ on a d6: 1/3 stops it. Otherwise d6 + 4 against d6 + 3: the
    charger wins when its die is at least the defender's (21/36), a draw when it is one
    less (5/36), else it is thrown back (10/36)."""
    dist = odds(charge, 3, 3)
    assert dist.probability(REPULSED) == Fraction(1, 3)
    assert dist.probability(ChargeEnd("charger", 0, 1, "the charge went home")) == Fraction(
        2, 3) * Fraction(21, 36) == Fraction(7, 18)
    assert dist.probability(ChargeEnd("neither", 1, 1, "a bloody draw")) == Fraction(5, 54)
    assert dist.probability(ChargeEnd("defender", 1, 0, "the charge was thrown back")) == (
        Fraction(5, 27))
    assert odds(charge.play, 3, 3) == dist  # every chance branch walked: the same


def test_example_2_fire_measures_on_the_table_and_rules_once() -> None:
    state = new_battle(0)
    _, ruling = TURN.rule_on(state, Fire("r0", "b0"))
    assert ruling == Volley(5.0, 4)  # 6" centre to centre, 1" deep: 5" apart, need 4
    # r0's front spans x 6 to 10, b1's 16 to 20: 6" across and 5" over, beyond 6": need 5
    assert TURN.rule_on(state, Fire("r0", "b1"))[1] == Volley(pytest.approx(61 ** 0.5), 5)
    with pytest.raises(IllegalActionError, match="beyond 12") as caught:
        TURN.step(state, Fire("r0", "b2"))
    assert caught.value.rule == "Example 2 (fire)"
    with pytest.raises(IllegalActionError, match="Blue 1st Foot is not a unit of red"):
        TURN.step(state, Fire("b0", "r0"))
    hit = odds(lambda *, dice: TURN.apply(state, Fire("r0", "b0"), dice)[0]
               .unit("b0").strength)
    assert hit.probability(2) == Fraction(1, 2)


def test_the_exact_odds_of_a_charge_step() -> None:
    state, _ = TURN.step(new_battle(1), EndPhase())
    dist = odds_of_step(TURN, state, Charge("r0", "b0"),
                        view=lambda s: (s.unit("r0").strength, s.unit("b0").strength))
    assert dict(dist.items()) == {(2, 2): 5, (2, 3): 28, (3, 2): 21}
    assert dist.denominator == 54


def test_example_1_the_sequence_is_declared() -> None:
    state = new_battle(0)
    charge_phase, events = TURN.step(state, EndPhase())
    assert charge_phase.phase == "charge" and events[0].rule == "Example 1 (sequence)"
    blue, events = TURN.step(charge_phase, EndPhase())
    assert (blue.turn, blue.phase, blue.extra.active) == (2, "fire", "blue")
    assert TURN.to_act(blue) == "blue"
