"""Mechanisms declared once: parameters read from keyword-only signatures (help from
``Annotated``, choices from enums or ``Literal``), parsed by one core parser whose errors name
the parameter as the user typed it."""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import pytest

from smoothbore.core import (
    D6,
    Dice,
    Help,
    InvalidValueError,
    Mechanism,
    ThresholdCheck,
    odds,
    spell,
)


class Ground(enum.Enum):
    OPEN = "open"
    LIGHT_WOODS = "light woods"
    ROUGH_GROUND = "rough_ground"


def volley(
    *,
    dice: Dice,
    firers: Annotated[int, Help("how many bases fire", low=1, high=4)] = 2,
    ground: Annotated[Ground, "the ground the target stands on"] = Ground.OPEN,
    order: Annotated[Literal["line", "column"], "the firers' formation"] = "line",
    steady: Annotated[bool, "the firers are steady"] = True,
) -> int:
    """Hits from a volley: each base hits on 2d6 of 7 or more.

    Cover makes it harder."""
    target = 7 + (ground is not Ground.OPEN) + (order == "column") - steady
    return sum(
        dice.roll(ThresholdCheck((D6, D6), target), reason="fire", rule="Toy 4.1")
        for _ in range(firers)
    )


MECHANISM = Mechanism.of(volley, "Toy 4.1")


def test_parameters_come_from_the_signature() -> None:
    assert MECHANISM.name == "volley"
    assert MECHANISM.summary == "Hits from a volley: each base hits on 2d6 of 7 or more"
    names = [p.name for p in MECHANISM.parameters]
    assert names == ["firers", "ground", "order", "steady"]
    firers, ground, order, steady = MECHANISM.parameters
    assert (firers.kind, firers.default, firers.help, firers.low, firers.high) == (
        int, 2, "how many bases fire", 1, 4
    )
    assert ground.choices == tuple(Ground) and ground.type_name == "choice"
    assert order.choices == ("line", "column") and order.kind is str
    assert steady.kind is bool
    assert MECHANISM.signature() == "volley firers=2 ground=open order=line steady=yes"


def test_choices_have_one_spelling_and_accept_the_others() -> None:
    ground = MECHANISM.parameter("ground")
    assert [spell(g) for g in Ground] == ["open", "light-woods", "rough-ground"]
    for text in ("light-woods", "light woods", "LIGHT_WOODS", "Light_Woods"):
        assert ground.parse(text) is Ground.LIGHT_WOODS
    assert ground.parse("rough_ground") is Ground.ROUGH_GROUND
    with pytest.raises(InvalidValueError) as error:
        ground.parse("swamp")
    assert error.value.field == "ground"
    assert error.value.allowed == "one of open, light-woods, rough-ground"


def test_arguments_parse_and_check_ranges_naming_the_parameter() -> None:
    arguments = MECHANISM.arguments({"firers": "3", "ground": "light-woods", "steady": "no"})
    assert arguments == {"firers": 3, "ground": Ground.LIGHT_WOODS, "order": "line",
                         "steady": False}
    # 2d6 >= 8 is 15/36 a base; three bases
    p = 15 / 36
    dist = odds(MECHANISM.function, **arguments)
    assert float(dist.probability(0)) == pytest.approx((1 - p) ** 3)
    with pytest.raises(InvalidValueError, match="firers='9'|firers=9") as error:
        MECHANISM.arguments({"firers": "9"})
    assert error.value.allowed == "an integer from 1 to 4"
    with pytest.raises(InvalidValueError, match="volley parameter"):
        MECHANISM.arguments({"range": "3"})
    assert MECHANISM.parameter("firers") is MECHANISM.parameter("firers")


def test_a_parameter_without_help_or_default_is_refused() -> None:
    def bare(*, dice: Dice, count: int = 2) -> int:
        """No help."""
        return count

    def positional(dice: Dice, count: Annotated[int, "how many"] = 2) -> int:
        """Positional."""
        return count

    with pytest.raises(InvalidValueError, match="parameter count"):
        Mechanism.of(bare, "Toy")
    with pytest.raises(InvalidValueError, match="keyword-only with a default"):
        Mechanism.of(positional, "Toy")


class Cover(enum.Enum):
    NONE = 0
    SIGNIFICANT = 2


def test_choices_whose_values_are_numbers_are_written_by_name() -> None:
    assert [spell(c) for c in Cover] == ["none", "significant"]

    def shot(*, dice: Dice, cover: Annotated[Cover, "the target's cover"] = Cover.NONE) -> int:
        """A shot."""
        return cover.value

    cover = Mechanism.of(shot, "Toy").parameter("cover")
    assert cover.parse("Significant") is cover.parse("2") is Cover.SIGNIFICANT
    assert cover.allowed() == "one of none, significant"
