"""Units of measure: inches, millimetres, centimetres and the conversions between them."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.table import Measure, convert


def test_an_inch_is_25_4_millimetres() -> None:
    assert convert(1.0, Measure.INCHES, Measure.MILLIMETRES) == 25.4
    # McKie: 20 mm is 100 yards; 20 / 25.4 = 0.7874... inches
    assert Measure.MILLIMETRES.in_inches(20) == pytest.approx(0.787401575)
    # Will's 15 mm scale: 10 cm = 100 mm = 3.937 inches
    assert Measure.CENTIMETRES.to(Measure.MILLIMETRES, 10) == 100
    assert Measure.MILLIMETRES.from_inches(3) == pytest.approx(76.2)


def test_the_same_measure_is_unchanged() -> None:
    assert convert(7, Measure.INCHES, Measure.INCHES) == 7


@given(st.floats(-1e6, 1e6), st.sampled_from(list(Measure)), st.sampled_from(list(Measure)))
def test_conversion_round_trips(value: float, a: Measure, b: Measure) -> None:
    assert convert(convert(value, a, b), b, a) == pytest.approx(value, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("name, measure", [
    ("inches", Measure.INCHES), ('"', Measure.INCHES), ("MM", Measure.MILLIMETRES),
    (" millimetres ", Measure.MILLIMETRES), ("cm", Measure.CENTIMETRES),
    (Measure.CENTIMETRES, Measure.CENTIMETRES)])
def test_measures_by_name(name: object, measure: Measure) -> None:
    assert Measure.of(name) is measure


def test_an_unknown_measure_names_the_choices() -> None:
    with pytest.raises(InvalidValueError) as error:
        Measure.of("furlongs")
    assert error.value.field == "measure" and error.value.value == "furlongs"
    assert "mm" in error.value.allowed and "inches" in error.value.allowed


@pytest.mark.parametrize("bad", [math.nan, math.inf, "3", True])
def test_conversion_refuses_what_is_not_a_length(bad: object) -> None:
    with pytest.raises(InvalidValueError) as error:
        convert(bad, Measure.INCHES, Measure.MILLIMETRES)  # type: ignore[arg-type]
    assert error.value.field == "length"


def test_lengths_print_as_players_write_them() -> None:
    assert Measure.INCHES.show(6) == '6"'
    assert Measure.INCHES.show(2.5) == '2.5"'
    assert Measure.MILLIMETRES.show(20) == "20 mm"
    assert str(Measure.MILLIMETRES) == "mm"
