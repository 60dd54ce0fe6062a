"""mechanisms.py: every mechanism prints an exact distribution; golden numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import Mechanism, odds
from smoothbore.mckie_acw.mechanisms import MECHANISMS


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: m.name)
def test_each_mechanism_is_exact(mechanism: Mechanism) -> None:
    dist = odds(mechanism.function, **mechanism.defaults())
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    assert mechanism.rule.startswith("McKie ACW")


def by_name(name: str) -> Mechanism:
    return next(m for m in MECHANISMS if m.name == name)


def test_golden_numbers() -> None:
    # 8 rifle figures at 100 yards (factor 5): 8 x 5 x 2% = 0.8 figure, so 0/80
    fire = odds(by_name("fire").function)
    assert fire.probability(1) == Fraction(80, 100)
    # the text's risk to generals: killed on 1 in 10, wounded on 2 in 10
    assert odds(by_name("risk-to-generals").function).probability("killed") == Fraction(1, 10)
    assert odds(by_name("battle-losses").function).outcomes == (
        "150 dead, 350 badly wounded, 500 slightly wounded or helping (return)",)
    assert odds(by_name("casualty-roll").function, definite=1, percent=40,
                second_percent=70).probability(3) == Fraction(10, 100)


def test_a_call_from_python_validates_as_the_command_line_does() -> None:
    """Small arms and artillery fire, as `smoothbore odds mckie_acw fire` takes it: a choice
    may be given as its member or as the command line spells it, and a bad value raises
    InvalidValueError naming the parameter (issue 27: the Python API accepted any value)."""
    from smoothbore.core import InvalidValueError, SamplingDice, odds
    from smoothbore.mckie_acw import mechanisms
    from smoothbore.mckie_acw.units import Weapon

    spelled = odds(mechanisms.fire, weapon="smoothbore-musket", range=100)
    assert spelled == odds(mechanisms.fire, weapon=Weapon.SMOOTHBORE_MUSKET, range=100)
    for bad in ({"weapon": "longbow"}, {"range": 801}, {"firing": 0}, {"resting": 1}):
        with pytest.raises(InvalidValueError) as caught:
            mechanisms.fire(dice=SamplingDice(1), **bad)
        assert caught.value.field == next(iter(bad))


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: m.name)
def test_every_parameter_is_bounded_and_odds_answer_at_once(
        mechanism: Mechanism) -> None:
    """Issue 28 (nothing hangs): every whole-number parameter has both bounds its rule implies
    (ratings 0-10, Generalship; figures, ranges and factors of Firing and Melee), a value past
    them is refused naming it, and the exact odds answer at once at the defaults and with
    every number at its highest or lowest: within 1,000 chance branches, a few milliseconds
    (a bounded walk, not a clock: speed is the benchmarks' business)."""
    import functools

    from smoothbore.core import InvalidValueError

    numbers = [p for p in mechanism.parameters if p.kind is int]
    for p in numbers:
        assert p.low is not None and p.high is not None, p.name
        with pytest.raises(InvalidValueError, match=p.name):
            mechanism.function(dice=None, **{p.name: int(p.high) + 1})
    for extreme in (None, "high", "low"):
        values = {p.name: int(getattr(p, extreme)) for p in numbers} if extreme else {}
        odds(functools.partial(mechanism.function, **values), max_branches=1_000)
