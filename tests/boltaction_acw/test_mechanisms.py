"""RULESET.mechanisms: every mechanism prints an exact distribution; worked numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.boltaction_acw import RULESET
from smoothbore.boltaction_acw.mechanisms import MECHANISMS
from smoothbore.core import Mechanism, odds

from .oracle import two_d6_at_most


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: m.name)
def test_every_mechanism_prints_an_exact_distribution(mechanism: Mechanism) -> None:
    dist = odds(mechanism.function, **mechanism.defaults())
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    assert mechanism.rule.startswith("Bolt Action ACW")


def test_names() -> None:
    assert {m.name for m in RULESET.mechanisms} == {
        "order-die", "order-test", "morale-test", "rally", "rout-recovery", "to-hit",
        "to-wound", "cannon-damage", "shooting", "woods", "interpenetration", "melee",
        "charge", "army-test"}


def test_order_die_and_tests() -> None:
    mechanism = RULESET.mechanism("order-die")
    dist = odds(mechanism.function, **mechanism.arguments({"union": "1", "confederate": "2"}))
    assert dist.probability("union") == Fraction(1, 3)
    test = RULESET.mechanism("order-test")
    dist = odds(test.function, **test.arguments({"pins": "2", "experience": "veteran"}))
    assert dist.probability("passed") == two_d6_at_most(9 - 2 + 1)


def test_the_staged_charge_composes_to_the_brute_force_odds() -> None:
    from smoothbore.boltaction_acw.charges import ChargeFacts, Response
    from smoothbore.boltaction_acw.mechanisms import whole_charge
    from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Unit
    from smoothbore.core import odds

    args = (Unit("a", "A", UNION, bases=1), Unit("d", "D", CONFEDERATE, bases=1),
            ChargeFacts(6), Response.FIRE)
    assert odds(whole_charge, *args) == odds(whole_charge.play, *args)


def test_woods_in_column_and_charges_that_cannot_happen() -> None:
    """Only a unit in line tests entering woods (a column moves its 12", halved, untested);
    a charge the rules forbid, or a reaction the charged unit may not make, is said so."""
    woods = RULESET.mechanism("woods")
    assert odds(woods.function, **woods.arguments({"formation": "column"})).probability(
        "6\"") == 1
    charge = RULESET.mechanism("charge")
    guns = odds(charge.function, **charge.arguments({"charger": "artillery"}))
    assert guns.probability(lambda text: text.startswith("no charge: ")) == 1
    held = odds(charge.function, **charge.arguments({"target": "skirmishers",
                                                    "response": "hold"}))
    assert held.probability("no such reaction: hold fire") == 1


def test_a_call_from_python_validates_as_the_command_line_does() -> None:
    """Shooting: to hit, as `smoothbore odds boltaction_acw to-hit` takes it: a choice may
    be given as its member or as the command line spells it, and a bad value raises
    InvalidValueError naming the parameter (issue 27: the Python API accepted any value)."""
    from smoothbore.boltaction_acw import mechanisms
    from smoothbore.boltaction_acw.options import BeyondSix
    from smoothbore.core import InvalidValueError, SamplingDice, odds

    spelled = odds(mechanisms.to_hit, need=8, beyond_six="natural-six")
    assert spelled == odds(mechanisms.to_hit, need=8, beyond_six=BeyondSix.NATURAL_SIX)
    for bad in ({"beyond_six": "never"}, {"shots": 41}, {"need": 0}, {"shots": 2.5}):
        with pytest.raises(InvalidValueError) as caught:
            mechanisms.to_hit(dice=SamplingDice(1), **bad)
        assert caught.value.field == next(iter(bad))


def test_the_default_charge_odds_answer_within_a_second() -> None:
    """Melee (the charged unit's order test and point blank fire); issue 28: the default
    ``odds boltaction_acw charge`` took 5.7 s (point blank fire by default, each casualty a
    melee of its own). The default reaction holds fire (A37), so its exact odds are walked
    within 1,000 chance branches a stage (tens of milliseconds; the clock itself is
    ``benchmarks/bench_boltaction_acw.py``'s business, not a test's); point blank fire is
    still one argument away, its distribution unchanged."""
    m = RULESET.mechanism("charge")
    odds(m.function, max_branches=1_000, **m.defaults())
    from smoothbore.boltaction_acw.charges import Response

    charge = RULESET.mechanism("charge")
    assert charge.defaults()["response"] is Response.HOLD
