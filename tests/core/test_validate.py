"""Validators and errors: every bad value names the field, the value and what is allowed."""

from __future__ import annotations

import pickle

import attrs
import pytest

from smoothbore.core import (
    EnumerationLimitError,
    IllegalActionError,
    InvalidValueError,
    SmoothboreError,
    UnknownRulesetError,
    at_least,
    check_choice,
    check_number,
    check_range,
    check_text,
    each,
    finite,
    in_range,
    maybe,
    one_of,
    refers_to,
    text,
)
from smoothbore.core.validate import REFERS_TO


@attrs.frozen
class Regiment:
    quality: int = attrs.field(validator=in_range(1, 5))
    figures: int = attrs.field(default=12, validator=at_least(0))
    drill: str = attrs.field(default="line", validator=one_of("line", "column"))


def test_attrs_validators_name_class_field_value_and_range() -> None:
    with pytest.raises(InvalidValueError, match=r"Regiment.quality=6 is invalid: allowed is 1 to"):
        Regiment(6)
    with pytest.raises(InvalidValueError, match=r"Regiment.figures=-1 .* at least 0"):
        Regiment(3, -1)
    with pytest.raises(InvalidValueError, match=r"Regiment.drill='square' .* 'line', 'column'"):
        Regiment(3, 12, "square")
    with pytest.raises(InvalidValueError, match="an integer from 1 to 5"):
        Regiment(True)  # type: ignore[arg-type]


def test_plain_checks() -> None:
    assert check_range("density", 3, 3, 8) == 3
    assert check_choice("side", "red", ("red", "black")) == "red"
    with pytest.raises(InvalidValueError) as caught:
        check_range("density", 2, 3, 8)
    error = caught.value
    assert (error.field, error.value, error.allowed) == ("density", 2, "3 to 8")


def test_hierarchy_and_pickling() -> None:
    errors = [
        InvalidValueError("f", 1, "2"),
        UnknownRulesetError("x", ("a", "b")),
        IllegalActionError("shoot", "the unit has shot", "rule 7"),
        EnumerationLimitError(10),
    ]
    for error in errors:
        assert isinstance(error, SmoothboreError)
        assert str(pickle.loads(pickle.dumps(error))) == str(error)
    assert isinstance(errors[0], ValueError)
    assert "the unit has shot (rule 7)" in str(errors[2])


@attrs.frozen
class Approach:
    inches: float = attrs.field(validator=finite(0, 24))
    angle: float | None = attrs.field(default=None, validator=maybe(finite(-180, 180)))
    who: str = attrs.field(default="b1", validator=text())
    note: str = attrs.field(default="", validator=text(empty=True))
    seen: frozenset[str] = attrs.field(default=frozenset(), validator=each(text()))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"inches": float("nan")}, r"Approach.inches=nan .*a finite number from 0 to 24"),
        ({"inches": float("inf")}, r"Approach.inches=inf"),
        ({"inches": 24.5}, r"Approach.inches=24.5 .*a number from 0 to 24"),
        ({"inches": -0.1}, r"Approach.inches=-0.1"),
        ({"inches": True}, r"Approach.inches=True"),
        ({"inches": "3"}, r"Approach.inches='3'"),
        ({"inches": 3, "angle": float("-inf")}, r"Approach.angle=-inf"),
        ({"inches": 3, "who": ""}, r"Approach.who='' .*non-empty text"),
        ({"inches": 3, "who": 5}, r"Approach.who=5"),
        ({"inches": 3, "note": None}, r"Approach.note=None .*text"),
        ({"inches": 3, "seen": "b1"}, r"Approach.seen='b1' .*a frozenset"),
        ({"inches": 3, "seen": frozenset({""})}, r"Approach.seen=''"),
    ],
)
def test_finite_text_each_and_maybe(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        Approach(**kwargs)  # type: ignore[arg-type]


def test_finite_accepts_the_bounds_and_ints() -> None:
    assert Approach(0).inches == 0 and Approach(24).inches == 24
    assert Approach(3, angle=-180).angle == -180 and Approach(3, angle=None).angle is None
    assert check_number("x", 2.5, high=3) == 2.5
    with pytest.raises(InvalidValueError, match="of at most 3"):
        check_number("x", 4, high=3)
    with pytest.raises(InvalidValueError, match="a finite number of at least 1"):
        check_number("x", float("nan"), low=1)
    assert check_text("id", "b1") == "b1"


def test_refers_to_declares_groups() -> None:
    assert refers_to("units", "commanders") == {REFERS_TO: (("units", "commanders"), False)}
    with pytest.raises(InvalidValueError, match="refers_to"):
        refers_to("regiments")
    with pytest.raises(InvalidValueError, match="refers_to"):
        refers_to()


def test_refuse_faults_names_every_fault_of_a_battle() -> None:
    """One error for a whole battle's faults: the first as its field, the rest in its
    allowed text, all in ``faults``; under a loader's root a LoadError with the paths."""
    from smoothbore.core import InvalidValueError, LoadError
    from smoothbore.core.validate import refuse_faults

    refuse_faults(())
    faults = (("sides", ["a", "b", "c"], "two sides"), ("units[0].size", 10**18, "1 to 240"))
    with pytest.raises(LoadError) as loaded:
        refuse_faults(faults, "$")
    assert (loaded.value.field, loaded.value.value) == ("$.sides", ["a", "b", "c"])
    assert "1 more fault(s): $.units[0].size=1000000000000000000: 1 to 240" in str(loaded.value)
    assert loaded.value.faults == (  # type: ignore[attr-defined]
        ("$.sides", ["a", "b", "c"], "two sides"), ("$.units[0].size", 10**18, "1 to 240"))
    with pytest.raises(InvalidValueError) as made:
        refuse_faults(faults[1:])
    assert type(made.value) is InvalidValueError
    assert made.value.field == "units[0].size"
