"""Command and control (March 2008 post by default, January 2008 post as option)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import IllegalActionError, SamplingDice, odds
from smoothbore.will_awi.command import (
    OrderFacts,
    command_sequence,
    give_order,
    group_order_target,
    independent_target,
    order_check,
    order_target,
)
from smoothbore.will_awi.command import test_independent as roll_independent
from smoothbore.will_awi.options import CommandPost, Options
from smoothbore.will_awi.units import Commander, Training, TroopType, Unit

FACES = range(1, 7)
JANUARY = Options(command_post=CommandPost.JANUARY_2008)


def p_at_most(target: int) -> Fraction:
    return sum((Fraction(1, 36) for a, b in product(FACES, FACES) if a + b <= target), Fraction(0))


def test_golden_poor_general_militia() -> None:
    """January 2008 worked example: rating 7, militia 15" away (-1), 1 SP lost (-1), poorly
    trained (-1): needs 4 or less on 2d6; a 5 fails."""
    general = Commander("g", "Poor general", "x", rating=7)
    militia = Unit("m", "Militia", "x", TroopType.MILITIA, strength=4, initial_strength=5)
    target = order_target(general, militia, OrderFacts(distance=15), JANUARY)
    assert target.total == 4
    d = odds(give_order, general, militia, OrderFacts(distance=15), options=JANUARY)
    assert d.probability(True) == p_at_most(4) == Fraction(1, 6)


def test_march_post_drops_casualties() -> None:
    """March 2008: the casualty modifiers are dropped."""
    general = Commander("g", "G", "x", rating=7)
    militia = Unit("m", "Militia", "x", TroopType.MILITIA, strength=2, initial_strength=5)
    assert order_target(general, militia, OrderFacts(distance=15)).total == 5
    assert order_target(general, militia, OrderFacts(distance=15), JANUARY).total == 3


@pytest.mark.parametrize(
    ("facts", "training", "options", "delta"),
    [
        (OrderFacts(attached=True), Training.AVERAGE, Options(), 2),
        (OrderFacts(distance=24), Training.AVERAGE, Options(), -2),
        (OrderFacts(distance=11.9), Training.AVERAGE, Options(), 0),
        (OrderFacts(in_sight=False), Training.AVERAGE, Options(), -2),
        (OrderFacts(), Training.WELL, Options(), 1),
        (OrderFacts(), Training.POOR, Options(), -1),
        (OrderFacts(group=True), Training.AVERAGE, Options(), -1),
        (OrderFacts(cinc_within_6=True), Training.AVERAGE, Options(), 0),
        (OrderFacts(cinc_within_6=True), Training.AVERAGE, Options(cinc_bonus=True), 1),
    ],
)
def test_order_modifiers(
    facts: OrderFacts, training: Training, options: Options, delta: int
) -> None:
    """Command & Control modifiers, each alone."""
    g = Commander("g", "G", "x", rating=8)
    u = Unit("u", "U", "x", TroopType.LINE, training=training)
    assert order_target(g, u, facts, options).total == 8 + delta


def test_independent_tests() -> None:
    """Not commanded: 3 or less (March), rating 6 (January, only after the commander failed)."""
    u = Unit("u", "U", "x", TroopType.LINE)
    assert independent_target(u).total == 3
    assert odds(roll_independent, u).probability(True) == p_at_most(3)
    poor = Unit("p", "P", "x", TroopType.MILITIA)
    assert odds(roll_independent, poor, options=JANUARY).probability(True) == p_at_most(5)
    with pytest.raises(IllegalActionError):
        roll_independent(u, False, dice=SamplingDice(1), options=JANUARY)


def test_orders_until_first_failure() -> None:
    """Orders in the commander's order until the first failure: never after it."""
    g = Commander("g", "G", "x", rating=7)
    us = tuple((Unit(f"u{i}", f"U{i}", "x", TroopType.LINE), OrderFacts()) for i in range(4))
    d = odds(command_sequence, g, us)
    p = p_at_most(7)
    for k in range(4):
        assert d.probability(tuple(f"u{i}" for i in range(k))) == p**k * (1 - p)
    assert d.probability(tuple(f"u{i}" for i in range(4))) == p**4


def test_golden_poor_general_faces() -> None:
    """January 2008 example, face by face: the target is 4, so each of the 36 pairs of faces
    summing to 4 or less gives the order and a roll of 5 (or more) fails it."""
    general = Commander("g", "Poor general", "x", rating=7)
    militia = Unit("m", "Militia", "x", TroopType.MILITIA, strength=4, initial_strength=5)
    target = order_target(general, militia, OrderFacts(distance=15), JANUARY).total
    check = order_check(target)
    passes = sum(1 for a, b in product(FACES, FACES) if a + b <= 4)
    assert passes == 6
    assert check.distribution().probability(True) == Fraction(passes, 36)
    # the March post drops the -1 for the strength point lost: 5 or less
    march = order_target(general, militia, OrderFacts(distance=15)).total
    assert march == 5


@pytest.mark.parametrize(("distance", "steps"), [(0, 0), (11.9, 0), (12, 1), (15, 1), (36, 3)])
def test_distance_per_12_inches(distance: float, steps: int) -> None:
    """-1 per 12" away (the January example: 15" is -1)."""
    g = Commander("g", "G", "x", rating=9)
    u = Unit("u", "U", "x", TroopType.LINE)
    assert order_target(g, u, OrderFacts(distance=distance)).total == 9 - steps


def test_group_order_one_roll_exact() -> None:
    """A group move: one 2d6 for several units of one commander, -1 group; the roll must pass
    every unit's target (line 8-1 = 7, militia 8-1-1 = 6): 2d6 <= 6."""
    g = Commander("g", "G", "x", rating=8)
    line = Unit("l", "Line", "x", TroopType.LINE)
    militia = Unit("m", "Militia", "x", TroopType.MILITIA)
    assert group_order_target(g, (line, militia)).total == 6
    assert group_order_target(g, (line,)).total == 8
    d = odds(give_order, g, line, also=(militia,))
    expected = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if a + b <= 6)
    assert d.probability(True) == expected == Fraction(15, 36)


def test_independent_training_exact() -> None:
    """Independent tests with training: March 3 or less (+1 well, -1 poor); January 6."""
    for training, march, january in (
        (Training.WELL, 4, 7),
        (Training.AVERAGE, 3, 6),
        (Training.POOR, 2, 5),
    ):
        u = Unit("u", "U", "x", TroopType.LINE, training=training)
        m = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if a + b <= march)
        j = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if a + b <= january)
        assert odds(roll_independent, u).probability(True) == m
        assert odds(roll_independent, u, options=JANUARY).probability(True) == j


def test_independent_test_on_one_die_is_an_option() -> None:
    """W6a (Command & Control - Ideas (2): "needing a 3 or lower ... (still with +/-1 for
    training)"): 2d6 by default, as every command roll (3 in 36 for an average unit); option
    ``independent_test_one_die``: 1d6 at or under 3 (1 in 2), 4 well trained (2 in 3), 2
    poorly trained (1 in 3); the January post's rating of 6 stays on 2d6."""
    one_die = Options(independent_test_one_die=True)
    assert not Options().independent_test_one_die
    for training, chance in ((Training.WELL, Fraction(2, 3)), (Training.AVERAGE, Fraction(1, 2)),
                             (Training.POOR, Fraction(1, 3))):
        u = Unit("u", "U", "x", TroopType.LINE, training=training)
        assert odds(roll_independent, u, options=one_die).probability(True) == chance
    u = Unit("u", "U", "x", TroopType.LINE)
    january = Options(command_post=CommandPost.JANUARY_2008, independent_test_one_die=True)
    assert odds(roll_independent, u, options=january).probability(True) == p_at_most(6)
