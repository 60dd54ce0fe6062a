"""Bloodybacks 9.3, Sequence of Play: the turn's phases and the sequence of play as data
(phases.py)."""

from __future__ import annotations

from smoothbore.bloodybacks93 import RULESET, TURN
from smoothbore.bloodybacks93.phases import (
    ACTIVATION,
    ACTIVITY,
    DEFERRED,
    DRAW,
    ENDED,
    PHASES,
    SEQUENCE,
)


def test_phases_are_data() -> None:
    """Sequence of Play: the turn's phases, in order, each naming its rule."""
    assert [p.name for p in TURN.phases] == [ACTIVITY, DRAW, ACTIVATION, DEFERRED, ENDED]
    assert all(p.rule.startswith("Bloodybacks 9.3") for p in TURN.phases)
    assert RULESET.turn is TURN


def test_each_phase_names_its_own_section() -> None:
    """Determine commander activation level opens the turn; Activating Units is where units
    act; Risk to commanders closes the battle (the fate table); the ruleset lists the same
    phases as the turn."""
    rules = {p.name: p.rule.split(", ", 1)[1] for p in PHASES}
    assert rules == {
        ACTIVITY: "Determine commander activation level",
        DRAW: "Sequence of Play",
        ACTIVATION: "Activating Units",
        DEFERRED: "Sequence of Play",
        ENDED: "Risk to commanders: end of battle",
    }
    assert RULESET.phases == PHASES == TURN.phases
    assert all(p.summary for p in PHASES)


def test_sequence_of_play_order() -> None:
    """Sequence of Play: activity, shuffle, first card, act, draw on, deferred melees, next."""
    assert [s.name for s in SEQUENCE] == [
        "ACTIVITY", "SHUFFLE", "FIRST_CARD", "ACTIVATE", "DRAW", "DEFERRED", "NEXT"]
