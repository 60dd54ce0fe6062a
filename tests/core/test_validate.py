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
    check_range,
    in_range,
    one_of,
)


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
