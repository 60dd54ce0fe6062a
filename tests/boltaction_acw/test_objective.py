"""A scenario's objective (A21), worked out on a drawn table: a 40" x 40" table with a ridge
20" to 36" across and 26" to 34" deep; the side with a unit in the fight centred on it, and
no enemy's, wins after the last turn, before the default conditions (A20)."""

from __future__ import annotations

import pytest

from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.phases import ENDED
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.rules import RULE_OBJECTIVE, RULE_VICTORY
from smoothbore.boltaction_acw.state import State, new_battle, with_units
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Unit, revise
from smoothbore.boltaction_acw.victory import holder, outcome
from smoothbore.core import InvalidValueError
from smoothbore.table import Feature, Table

UNITS = (
    Unit("a", "Union line", UNION, bases=5),
    Unit("a2", "Union reserve", UNION, bases=5),
    Unit("b", "Confederate line", CONFEDERATE, bases=5),
    Unit("b2", "Confederate reserve", CONFEDERATE, bases=5),
)
RIDGE = Feature.rectangle("ridge", "gentle hill", 28.0, 30.0, 16.0, 8.0, label="the ridge")


def ended(places: dict[str, tuple[float, float, float]]) -> State:
    """The battle over after its last turn, the units at ``places`` (centre x, y, facing),
    the ridge its objective."""
    feet = tuple(footprint(u, *places[u.id]) for u in UNITS)
    table = Table(40, 40, features=(RIDGE,), footprints=feet)
    return new_battle(UNITS, (), table=table, objective="ridge").replace(phase=ENDED)


def test_the_side_alone_on_the_ridge_wins() -> None:
    state = ended({"a": (28, 30, 180), "a2": (8, 30, 180), "b": (20, 8, 0), "b2": (30, 8, 0)})
    assert holder(state) == (UNION, "the ridge")
    result = outcome(state)
    assert result.winner == UNION and result.rule == RULE_OBJECTIVE
    assert result.reason == "the last turn has been played; the union side holds the ridge"


def test_a_centre_off_the_ridge_does_not_hold_it() -> None:
    """A line 7.5" wide centred 1" beyond the ridge's left end (x = 19) overlaps it but does
    not stand on it: nobody holds it and the defaults decide, a draw."""
    state = ended({"a": (19, 30, 180), "a2": (8, 20, 180), "b": (20, 8, 0), "b2": (30, 8, 0)})
    assert holder(state) is None
    assert outcome(state).winner is None and outcome(state).rule == RULE_VICTORY


def test_a_contested_ridge_leaves_the_defaults() -> None:
    """Both sides on the ridge: the score decides; the Confederates took a unit out, so they
    win on the score, not the ridge."""
    state = ended({"a": (24, 28, 0), "a2": (8, 20, 180), "b": (32, 32, 180), "b2": (30, 8, 0)})
    assert holder(state) is None
    out = with_units(state, revise(state.unit("a2"), bases=0))
    assert holder(out) is None and outcome(out).rule == RULE_VICTORY
    assert outcome(out).winner == CONFEDERATE


def test_the_ridge_decides_before_the_score() -> None:
    """The Confederate line alone on the ridge wins on even scores (a draw by A20): a routing
    Union line on the ridge does not hold it."""
    state = ended({"a": (24, 28, 0), "a2": (8, 20, 180), "b": (32, 32, 180), "b2": (30, 8, 0)})
    routed = with_units(state, revise(state.unit("a"), routing=True),
                        revise(state.unit("b2"), bases=0))
    assert holder(routed) == (CONFEDERATE, "the ridge")
    result = outcome(routed)
    assert result.winner == CONFEDERATE and result.rule == RULE_OBJECTIVE
    assert dict(result.scores) == {UNION: 1, CONFEDERATE: 1}
    assert outcome(routed.with_extra(objective=None)).winner is None


def test_an_objective_needs_a_feature_of_the_table() -> None:
    feet = tuple(footprint(u, 8 + 12 * i, 10, 0) for i, u in enumerate(UNITS))
    with pytest.raises(InvalidValueError):
        new_battle(UNITS, (), objective="ridge")
    with pytest.raises(InvalidValueError):
        new_battle(UNITS, (), table=Table(40, 40, footprints=feet), objective="ridge")


def test_mcphersons_ridge_is_fought_for_the_ridge() -> None:
    """Gamble's troopers start on the ridge: had nothing happened, the Union would win; the
    battle without a table keeps the defaults."""
    state = RULESET.battle("mcphersons-ridge")(0)
    assert state.extra.objective == "mcphersons-ridge"
    assert TURN.load(state.to_json()).extra.objective == "mcphersons-ridge"
    result = outcome(state.replace(phase=ENDED))
    assert result.winner == UNION and result.reason.endswith("holds McPherson's Ridge")
    assert RULESET.battle("mcphersons-ridge-no-table")(0).extra.objective is None
    assert RULESET.example(0).extra.objective is None
