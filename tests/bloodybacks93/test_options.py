"""Bloodybacks 9.3: the options for points the text leaves open (see the interpretations)."""

from __future__ import annotations

import pytest

from smoothbore.bloodybacks93.options import DEFAULT_OPTIONS, Options
from smoothbore.core import InvalidValueError


def test_defaults_are_the_plain_reading() -> None:
    """Every house reading is off by default (the text's plainest reading); figures at 1:10
    (Concepts and definitions: Scales); guns do not charge, the reading a referee takes
    (Charges and melee, B47)."""
    assert Options() == DEFAULT_OPTIONS
    assert not any((DEFAULT_OPTIONS.activity_table_quirk, DEFAULT_OPTIONS.activation_naturals,
                    DEFAULT_OPTIONS.extra_die_per_action_point,
                    DEFAULT_OPTIONS.cavalry_experiment,
                    DEFAULT_OPTIONS.impetus_penalty_after_melee))
    assert DEFAULT_OPTIONS.men_per_figure == 10
    assert not DEFAULT_OPTIONS.artillery_may_charge


def test_figure_scale_is_validated() -> None:
    """Concepts and definitions: Scales: at least one man per figure."""
    with pytest.raises(InvalidValueError):
        Options(men_per_figure=0)
    assert hash(Options(men_per_figure=15)) == hash(Options(men_per_figure=15))
