"""Rules - Move Sequence: the phases A to K as data, and whose decisions they hold."""

from __future__ import annotations

from smoothbore.will_awi import RULESET, rules
from smoothbore.will_awi.phases import FIRING_PHASES, MOVING_PHASES, ORDER, PHASES


def test_phases_are_the_move_sequence() -> None:
    """Rules - Move Sequence: eleven phases A to K, in order, each citing the sequence."""
    assert tuple("ABCDEFGHIJK") == ORDER
    assert tuple(p.name for p in PHASES) == ORDER
    assert all(p.rule == rules.SEQUENCE and p.summary for p in PHASES)
    assert RULESET.phases == PHASES


def test_each_phase_belongs_to_one_player() -> None:
    """Alternate movement: the firing player changes facing (D), fires (E) and reacts to the
    charges (H); every other phase is the moving player's."""
    assert {"D", "E", "H"} == FIRING_PHASES
    assert set(ORDER) == MOVING_PHASES | FIRING_PHASES
    assert not MOVING_PHASES & FIRING_PHASES
