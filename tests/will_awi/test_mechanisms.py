"""RULESET.mechanisms: every random mechanism with parameters and exact distributions."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import Distribution, Registry, odds
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.mechanisms import MECHANISMS

FACES = range(1, 7)


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: m.name)
def test_every_mechanism_prints_an_exact_distribution(mechanism: object) -> None:
    """Each mechanism runs with its defaults; probabilities sum to one; results print."""
    from smoothbore.core import Mechanism

    assert isinstance(mechanism, Mechanism)
    d = odds(mechanism.function, **mechanism.arguments({}))
    assert isinstance(d, Distribution)
    assert sum(d.probability(o) for o in d.outcomes) == 1
    assert all(str(o) for o in d.outcomes)
    assert mechanism.rule.startswith("Will's AWI")


def test_registry_and_listing() -> None:
    """The ruleset registers and lists its mechanisms by name."""
    reg = Registry().with_references((("will_awi", "smoothbore.will_awi:RULESET"),))
    assert reg.get("will_awi").name == "will_awi"
    names = {m.name for m in RULESET.mechanisms}
    assert {
        "fire",
        "charged-test",
        "melee",
        "charge-to-melee",
        "command-roll",
        "shaken-test",
        "routing-test",
        "surrender",
        "general-risk",
        "demolition",
        "highland-charge",
        "continental-week",
        "forced-march",
    } <= names


def test_golden_faq_charged_test_through_the_mechanism() -> None:
    """FAQs (1) 4 via the CLI mechanism defaults: rout 1/6, counter-charge 3/6."""
    m = RULESET.mechanism("charged-test")
    d = odds(m.function, **m.arguments({}))
    assert d.probability("routs (-1 SP)") == Fraction(1, 6)
    assert d.probability("may counter-charge") == Fraction(3, 6)


def test_golden_command_roll_through_the_mechanism() -> None:
    """January 2008 example via the mechanism defaults: 4 or less on 2d6."""
    m = RULESET.mechanism("command-roll")
    assert odds(m.function, **m.arguments({})).probability("ordered") == Fraction(6, 36)


def test_charge_to_melee_exact() -> None:
    """The charge-to-melee sequence: British line (+1 charging, +1 European) charges American
    line (morale 5): the test routs on 5+; otherwise 1d6+2 against 1d6 in melee."""
    m = RULESET.mechanism("charge-to-melee")
    d = odds(m.function, **m.arguments({}))
    expected: dict[str, Fraction] = {}
    for t, a, b in product(FACES, FACES, FACES):
        w = Fraction(1, 216)
        if t >= 5:
            key = "target routs (-1 SP) at the test"
        else:
            sa, sd = a + 2, b
            if sa == sd:
                key = 'melee: both sides retire 3"'
            else:
                who = "charger" if sa < sd else "target"
                eff = "routs (-2 SP)" if abs(sa - sd) >= 2 else 'retires 3" shaken (-1 SP)'
                key = f"melee: {who} {eff}"
        expected[key] = expected.get(key, Fraction(0)) + w
    assert {o: d.probability(o) for o in d.outcomes} == expected


def test_charge_to_melee_faq_cavalry_counter_charges() -> None:
    """The FAQ cavalry, charged by light infantry, counter-charges on a 1-3 and fights with
    +2 cavalry +2 charging against the light infantry's +1 charging -2 open order."""
    m = RULESET.mechanism("charge-to-melee")
    args = m.arguments(
        {
            "target": "light_cavalry",
            "target_strength": "2",
            "charger": "light_infantry",
            "charger_nation": "american",
        }
    )
    d = odds(m.function, **args)
    assert d.probability("target routs (-1 SP) at the test") == Fraction(1, 6)
    p_counter = d.probability(lambda o: str(o).startswith("counter-charge"))
    assert p_counter == Fraction(3, 6)
    # In the counter-charge melee the cavalry (+4) beat the infantry (-1) unless ...
    expected = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if (b + 4) - (a - 1) >= 2)
    assert d.probability("counter-charge, melee: charger routs (-2 SP)") == expected / 2
