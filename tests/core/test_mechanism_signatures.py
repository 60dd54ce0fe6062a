"""Mechanisms declared once: parameters read from keyword-only signatures (help from
``Annotated``, choices from enums or ``Literal``), parsed by one core parser whose errors name
the parameter as the user typed it."""

from __future__ import annotations

import enum
import pickle
from typing import Annotated, Literal

import pytest

from smoothbore.core import (
    D6,
    Dice,
    Help,
    InvalidValueError,
    Mechanism,
    SamplingDice,
    ThresholdCheck,
    odds,
    spell,
)
from smoothbore.core.ruleset import is_validated, parameters_of, validated


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


# --- a call from Python validates exactly as the command line parses (issue 27) ------------
class Formation(enum.Enum):
    LINE = "line"
    COLUMN = "column"


@validated
def checked_volley(
    *,
    dice: Dice,
    firers: Annotated[int, Help("how many bases fire", low=1, high=4)] = 2,
    ground: Annotated[Ground, "the ground the target stands on"] = Ground.OPEN,
    order: Annotated[Literal["line", "column"], "the firers' formation"] = "line",
    steady: Annotated[bool, "the firers are steady"] = True,
    share: Annotated[float, Help("share of the bases firing", low=0, high=1)] = 1.0,
) -> int:
    """The volley, validated."""
    return volley(dice=dice, firers=firers, ground=ground, order=order, steady=steady)


def test_choices_are_taken_as_members_or_as_the_command_line_spells_them() -> None:
    spelled = odds(checked_volley, ground="light-woods", order=Formation.COLUMN)
    assert spelled == odds(volley, ground=Ground.LIGHT_WOODS, order="column")
    assert odds(checked_volley, steady="no") == odds(volley, steady=False)
    assert odds(checked_volley, share=1) == odds(checked_volley)


@pytest.mark.parametrize(("arguments", "field", "allowed"), [
    ({"firers": 5}, "firers", "an integer from 1 to 4"),
    ({"firers": True}, "firers", "an integer from 1 to 4"),
    ({"firers": 2.0}, "firers", "an integer from 1 to 4"),
    ({"firers": "many"}, "firers", "an integer from 1 to 4"),
    ({"ground": "swamp"}, "ground", "one of open, light-woods, rough-ground"),
    ({"ground": Formation.LINE}, "ground", "one of open, light-woods, rough-ground"),
    ({"order": "square"}, "order", "one of line, column"),
    ({"steady": 1}, "steady", "yes or no (true/false, 1/0)"),
    ({"share": float("nan")}, "share", "a finite number from 0 to 1"),
    ({"share": 2}, "share", "a finite number from 0 to 1"),
    ({"range": 3}, "checked_volley parameter", "one of firers, ground, order, steady, share"),
])
def test_a_bad_argument_names_the_parameter_the_value_and_what_is_allowed(
    arguments: dict[str, object], field: str, allowed: str
) -> None:
    with pytest.raises(InvalidValueError) as caught:
        checked_volley(dice=SamplingDice(1), **arguments)
    assert (caught.value.field, caught.value.allowed) == (field, allowed)
    with pytest.raises(InvalidValueError):
        odds(checked_volley, **arguments)


def test_positional_arguments_and_missing_dice_are_refused() -> None:
    with pytest.raises(InvalidValueError, match="keyword arguments only"):
        checked_volley(SamplingDice(1))
    with pytest.raises(InvalidValueError, match="dice"):
        checked_volley(firers=2)


def test_a_mechanism_validates_its_function_once_and_it_still_pickles() -> None:
    assert not is_validated(volley) and is_validated(checked_volley)
    assert validated(checked_volley) is checked_volley
    assert Mechanism.of(checked_volley, "Toy 4.1").function is checked_volley
    plain = Mechanism.of(volley, "Toy 4.1")
    assert is_validated(plain.function)
    with pytest.raises(InvalidValueError):
        plain.function(dice=SamplingDice(1), firers=0)
    assert pickle.loads(pickle.dumps(checked_volley)) is checked_volley
    back = pickle.loads(pickle.dumps(plain.function))  # wrapped by Mechanism.of: by value
    assert is_validated(back) and back.function is volley
    assert odds(back, firers=1) == odds(volley, firers=1)
    assert [p.name for p in parameters_of(checked_volley)] == [
        "firers", "ground", "order", "steady", "share"]
