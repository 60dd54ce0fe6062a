"""Dice: ordinary dice, the average die, dice with any faces, rerolls, dice expressions."""

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import AVERAGE_DIE, D3, D6, D10, D12, Die, InvalidValueError, die, parse_dice


def test_ordinary_dice_have_faces_one_to_n() -> None:
    assert D3.faces == (1, 2, 3)
    assert D6.faces == (1, 2, 3, 4, 5, 6)
    assert D10.faces == tuple(range(1, 11))
    assert D12.faces == tuple(range(1, 13))
    assert die(20).sides == 20


def test_average_die_is_2_3_3_4_4_5() -> None:
    # Bloodybacks 9.3, Determine commander activation level: the D5 "average die".
    dist = AVERAGE_DIE.distribution()
    assert dist.probability(3) == Fraction(1, 3)
    assert dist.probability(2) == Fraction(1, 6)
    assert dist.mean() == Fraction(7, 2)
    assert AVERAGE_DIE.name == "dAv"


def test_rerolling_ones_on_d6_matches_enumeration() -> None:
    rerolled = D6.rerolling([1]).distribution()
    expected: dict[int, int] = {}
    for first, second in product(range(1, 7), repeat=2):
        result = second if first == 1 else first
        expected[result] = expected.get(result, 0) + 1
    for face, count in expected.items():
        assert rerolled.probability(face) == Fraction(count, 36)


def test_custom_die_and_errors() -> None:
    assert Die.of(0, 0, 1, name="coin-ish").distribution().probability(0) == Fraction(2, 3)
    with pytest.raises(InvalidValueError, match="Die.faces"):
        Die((), "empty")
    with pytest.raises(InvalidValueError, match="sides"):
        die(0)


@pytest.mark.parametrize(
    ("text", "count", "modifier"),
    [("2d6", 2, 0), ("3d12+1", 3, 1), ("d10-2", 1, -2), ("2dAv", 2, 0), ("d6 + d6 + 3", 2, 3)],
)
def test_parse_dice(text: str, count: int, modifier: int) -> None:
    dice, mod = parse_dice(text)
    assert len(dice) == count
    assert mod == modifier


@pytest.mark.parametrize(
    "text",
    ["", "2x6", "-d6", "+3", "2d6++1", "2d6+-1", "2d6-", "0d6+2d6", "d6+²", "d٣", "d6 1",
     "d100000000", "99999999999999999999d6", "101d6", "60d6+41d6", "d1001", "d6+10001",
     "2d6-d6", "d", "dav6", "x" * 300, "2 d6"],
)
def test_parse_dice_rejects_nonsense(text: str) -> None:
    with pytest.raises(InvalidValueError, match="dice"):
        parse_dice(text)


def test_parse_dice_bounds_are_inclusive() -> None:
    assert len(parse_dice("100d6")[0]) == 100
    assert parse_dice("d1000")[0][0].faces[-1] == 1000
    assert parse_dice("d6-10000")[1] == -10000
    assert parse_dice(" 2d6 + 3 - 1 ")[1] == 2
    assert [d.name for d in parse_dice("dav+d3")[0]] == ["dAv", "d3"]
    with pytest.raises(InvalidValueError, match="sides"):
        die(1001)
    with pytest.raises(InvalidValueError, match="dice"):
        parse_dice(6)  # type: ignore[arg-type]
