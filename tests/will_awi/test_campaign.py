"""AWI Campaign Rules (Draft)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import IllegalActionError, odds
from smoothbore.will_awi.campaign import (
    Pool,
    PoolType,
    WeekResult,
    add_to_pool,
    balance_regiment,
    battle_casualties,
    cap_strength,
    continental_week,
    downgrade,
    european_replacements,
    forced_march,
    loyalist_fill,
    militia_return,
    militia_unit_week,
    to_campaign_points,
    to_strength,
)

FACES = range(1, 7)


def test_points_and_strength() -> None:
    """Strength points x 20; back by /20 rounding halves up."""
    assert to_campaign_points(5) == 100
    assert to_strength(100) == 5 and to_strength(90) == 5 and to_strength(89) == 4
    assert to_strength(110) == 6 and to_strength(109) == 5 and to_strength(10) == 1


def test_battle_casualties() -> None:
    """-5 per SP lost, -10 reduced to zero, -10 per SP captured; another battle today -5 more."""
    assert battle_casualties(100, 2) == (90, 90)
    assert battle_casualties(100, 5, reduced_to_zero=True) == (65, 65)
    assert battle_casualties(100, 1, captured=2) == (75, 75)
    assert battle_casualties(100, 2, another_battle_today=True) == (90, 80)


def test_continental_week_exact() -> None:
    """1-3 (and the missing 4) no loss, 5-6 -5; recruitment 1-2 0, 3 +5, 4-5 +10, 6 +15."""
    loss = {1: 0, 2: 0, 3: 0, 4: 0, 5: -5, 6: -5}
    gain = {1: 0, 2: 0, 3: 5, 4: 10, 5: 10, 6: 15}
    expected: dict[int, Fraction] = {}
    for a, b in product(FACES, FACES):
        v = 100 + loss[a] + gain[b]
        expected[v] = expected.get(v, Fraction(0)) + Fraction(1, 36)
    d = odds(continental_week, 100)
    assert {r.points: d.probability(r) for r in d.outcomes} == expected
    four_loss = {**loss, 4: -5}
    expected_four: dict[int, Fraction] = {}
    for a, b in product(FACES, FACES):
        v = 100 + four_loss[a] + gain[b]
        expected_four[v] = expected_four.get(v, Fraction(0)) + Fraction(1, 36)
    four = odds(continental_week, 100, four_loses=True)
    assert {r.points: four.probability(r) for r in four.outcomes} == expected_four


def test_continental_week_overstrength_to_pool() -> None:
    """Overstrength units: a unit at 115 that recruits 15 keeps 120; the rest goes to the pool."""
    d = odds(continental_week, 115)
    # faces: loss 1-4 none, recruit 6: 130 -> 120 and 10 to the pool (4/36)
    assert d.probability(WeekResult(120, to_pool=10)) == Fraction(4, 36)
    assert all(r.points <= 120 for r in d.outcomes)


@pytest.mark.parametrize("points", [100, 40, 5, 112])
def test_militia_week_exact(points: int) -> None:
    """1 goes home, 2 -10, 3 -5, 4 +5, 5 +10, 6 +15 (never below 0; above 120 to the pool)."""
    change = {1: None, 2: -10, 3: -5, 4: 5, 5: 10, 6: 15}
    expected: dict[WeekResult, Fraction] = {}
    for (f,) in product(FACES):
        c = change[f]
        if c is None:
            key = WeekResult(0, present=False)
        else:
            v = max(0, points + c)
            key = WeekResult(min(v, 120), to_pool=max(0, v - 120))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 6)
    d = odds(militia_unit_week, points)
    assert {r: d.probability(r) for r in d.outcomes} == expected


@pytest.mark.parametrize("absent", [1, 2, 3, 5, 6, 8])
def test_militia_return_exact(absent: int) -> None:
    """Absent militia return together when 1d6 is at or under their number."""
    p = sum(Fraction(1, 6) for f in FACES if f <= absent)
    assert odds(militia_return, absent).probability(True) == p
    assert odds(militia_return, 0).probability(True) == 0


def test_european_replacements_and_loyalists() -> None:
    """A 6 brings 10 points; loyalists fill British units up to 10, losing double."""
    assert odds(european_replacements).probability(10) == Fraction(1, 6)
    assert loyalist_fill(80, 60, 10) == (90, 40)
    with pytest.raises(ValueError):
        loyalist_fill(80, 60, 11)
    with pytest.raises(IllegalActionError):
        loyalist_fill(80, 15, 10)


def test_overstrength_and_pool() -> None:
    """Max 120 (excess to the pool); 100 pool points make a unit; line to militia only."""
    assert cap_strength(135) == (120, 15)
    pool, made = add_to_pool(Pool("British", PoolType.LINE, 90), 25)
    assert made == 1 and pool.points == 15
    line, militia = downgrade(Pool("US", PoolType.LINE, 40), Pool("US", PoolType.MILITIA), 30)
    assert (line.points, militia.points) == (10, 30)
    with pytest.raises(IllegalActionError):
        downgrade(Pool("US", PoolType.MILITIA, 40), Pool("US", PoolType.LINE), 10)
    assert balance_regiment((100, 61)) == (81, 80)


@pytest.mark.parametrize(
    ("extra", "militia", "table"),
    [
        (50, False, {5: 5, 6: 10}),
        (1, False, {5: 5, 6: 10}),
        (51, False, {3: 5, 4: 5, 5: 10, 6: 20}),
        (100, False, {3: 5, 4: 5, 5: 10, 6: 20}),
        (50, True, {5: 5, 6: 10}),
        (75, True, {3: 5, 4: 5, 5: 10, 6: 20}),
    ],
)
def test_forced_march_exact(extra: int, militia: bool, table: dict[int, int]) -> None:
    """Forced marches: up to 50% (5: 5, 6: 10), 51-100% (3-4: 5, 5: 10, 6: 20); militia +1,
    above 6 counts as 6; more than double is not allowed."""
    expected: dict[int, Fraction] = {}
    for f in FACES:
        score = min(6, f + int(militia))
        v = table.get(score, 0)
        expected[v] = expected.get(v, Fraction(0)) + Fraction(1, 6)
    d = odds(forced_march, extra, militia)
    assert {o: d.probability(o) for o in d.outcomes} == expected
    with pytest.raises(IllegalActionError):
        odds(forced_march, 101)


def test_forced_march_weather_and_militia_stack() -> None:
    """Forced marches: militia +1 and adverse weather +1 together, scores over 6 as 6; a normal
    day's march (0% extra) loses nothing and rolls nothing."""
    table = {3: 5, 4: 5, 5: 10, 6: 20}
    expected: dict[int, Fraction] = {}
    for (f,) in product(FACES):
        v = table.get(min(6, f + 2), 0)
        expected[v] = expected.get(v, Fraction(0)) + Fraction(1, 6)
    d = odds(forced_march, 80, True, True)
    assert {o: d.probability(o) for o in d.outcomes} == expected
    assert odds(forced_march, 0).probability(0) == 1
