"""Bloodybacks 9.3, Determine commander activation level; Command Radius; Command point
tariff."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.command import (
    CommandPointUse,
    activity_for,
    command_radius,
    in_radius,
    roll_activity,
)
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.units import BRITISH, Commander
from smoothbore.core import InvalidValueError, SamplingDice, odds

from .oracle import AV_FACES
from .strategies import commanders

# The text's activity table: rows AR2..AR5, columns D5 roll 2..5, as (AL, CP).
ACTIVITY_TABLE = {
    2: {2: (2, 1), 3: (1, 1), 4: (1, 1), 5: (1, 1)},
    3: {2: (2, 1), 3: (3, 2), 4: (1, 1), 5: (1, 1)},
    4: {2: (2, 1), 3: (3, 2), 4: (4, 2), 5: (1, 2)},
    5: {2: (2, 1), 3: (3, 2), 4: (4, 2), 5: (5, 3)},
}


def test_colonel_webster() -> None:
    """Determine commander activation level: Webster, AR4, rolls 3: AL3 with 2 CP."""
    result = activity_for(4, 3)
    assert (result.level, result.command_points) == (3, 2)


@pytest.mark.parametrize(("roll", "level"), [(2, 2), (3, 1), (4, 1), (5, 1)])
def test_colonel_stevens(roll: int, level: int) -> None:
    """Determine commander activation level: Stevens, AR2: a 2 gives AL2, anything higher
    AL1, each with one command point."""
    result = activity_for(2, roll)
    assert (result.level, result.command_points) == (level, 1)


@pytest.mark.parametrize("rating", [2, 3, 4, 5])
@pytest.mark.parametrize("roll", [2, 3, 4, 5])
def test_activity_table_with_quirk(rating: int, roll: int) -> None:
    """Determine commander activation level: the printed table, every cell, with the
    ``activity_table_quirk`` option."""
    result = activity_for(rating, roll, Options(activity_table_quirk=True))
    assert (result.level, result.command_points) == ACTIVITY_TABLE[rating][roll]


@pytest.mark.parametrize("rating", [2, 3, 4, 5])
@pytest.mark.parametrize("roll", [2, 3, 4, 5])
def test_activity_table_by_the_rule(rating: int, roll: int) -> None:
    """Determine commander activation level: by default CP is half the level rounded up, so
    the table's "AR4, roll 5: AL1 (2 CP)" gives 1 CP; every other cell matches."""
    result = activity_for(rating, roll)
    level, points = ACTIVITY_TABLE[rating][roll]
    if (rating, roll) == (4, 5):
        points = 1
    assert (result.level, result.command_points) == (level, points)


@pytest.mark.parametrize("rating", [2, 3, 4, 5])
def test_activity_distribution_by_enumeration(rating: int) -> None:
    """Determine commander activation level: exact distribution over the average die."""
    expected: dict[int, Fraction] = {}
    for face in AV_FACES:
        level = 1 if face > rating else face
        expected[level] = expected.get(level, Fraction(0)) + Fraction(1, 6)
    leader = Commander("k", "K", BRITISH, activity_rating=rating)
    dist = odds(roll_activity, leader).map(lambda a: a.level)
    assert {o: dist.probability(o) for o in dist.outcomes} == expected


def test_roll_activity_records_the_rule() -> None:
    """Determine commander activation level: the roll names its rule."""
    dice = SamplingDice(3)
    roll_activity(Commander("k", "K", BRITISH), dice=dice)
    assert "Determine commander activation level" in dice.records[0].rule


def test_bad_activity_inputs() -> None:
    """Determine commander activation level: the average die shows 2-5, AR is 2-5."""
    with pytest.raises(InvalidValueError):
        activity_for(4, 6)
    with pytest.raises(InvalidValueError):
        activity_for(1, 3)


def test_command_radius() -> None:
    """Command Radius: 24 inches, 12 when attached."""
    free = Commander("k", "K", BRITISH)
    attached = Commander("k", "K", BRITISH, attached_to="u")
    assert (command_radius(free), command_radius(attached)) == (24, 12)
    assert in_radius(free, 24) and not in_radius(attached, 12.5)
    with pytest.raises(InvalidValueError):
        in_radius(free, -1)


def test_command_point_tariff() -> None:
    """Command point tariff: extra action and other-brigade activation need radius, moving
    the commander does not."""
    assert CommandPointUse.EXTRA_ACTION.needs_radius
    assert CommandPointUse.OTHER_BRIGADE.needs_radius
    assert not CommandPointUse.MOVE_COMMANDER.needs_radius


@given(commanders(), st.integers(0, 2**32 - 1))
def test_activity_never_above_rating(leader: Commander, seed: int) -> None:
    """Determine commander activation level: the level is the roll if not above the AR,
    else 1; command points are half the level rounded up."""
    result = roll_activity(leader, dice=SamplingDice(seed))
    assert result.level == (result.roll if result.roll <= leader.activity_rating else 1)
    assert result.command_points == -(-result.level // 2)
