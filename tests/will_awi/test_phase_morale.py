"""Rules - Move Sequence A and B (phase_morale): morale tests and compulsory moves."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import Entering
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.sequence import (
    TURN,
    CompulsoryMove,
    EndPhase,
    TestMorale,
)
from smoothbore.will_awi.turn_state import with_extra
from smoothbore.will_awi.units import (
    Status,
    TroopType,
    WillUnit,
)

from .turn_helpers import battle, to_phase


def test_morale_tests_in_a_and_note_a() -> None:
    """A: every shaken or routing unit of the mover tests first; a unit routed in the enemy's
    charge phase is not tested (note (a))."""
    s = battle(
        r1=WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN),
        r2=WillUnit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
    )
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, TestMorale("r2"))
    s, events = TURN.step(s, TestMorale("r1"))
    assert "tests shaken" in events[0].text
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "B"


def test_compulsory_moves_in_b() -> None:
    """B: routing and retiring units must move before C."""
    s = battle(r1=WillUnit("r1", "Foot", "red", TroopType.LINE, must_retire=True))
    s = to_phase(s, "B") if s.phase != "B" else s
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", 7))
    s, _ = TURN.step(s, CompulsoryMove("r1", 6))
    assert not s.unit("r1").must_retire


def test_shaken_test_in_a_follows_the_faces() -> None:
    """Rules - Morale: Testing shaken units: 1d6 (no general with the unit): 4+ carries on (no
    longer shaken, FAQs (3) 1), 2-3 retires a full move in B, 1 routs and loses 1 SP."""
    seen = set()
    for seed in range(40):
        s = battle(seed, r1=WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN))
        after, events = TURN.step(s, TestMorale("r1"))
        (face,) = events[0].rolls[0].faces
        seen.add(face)
        r1 = after.unit("r1")
        assert events[0].rule == rules.MORALE_SHAKEN
        if face >= 4:
            assert r1.status is Status.STEADY and not r1.must_retire and r1.strength == 5
        elif face >= 2:
            assert r1.status is Status.STEADY and r1.must_retire and r1.strength == 5
        else:
            assert r1.routing and r1.strength == 4
    assert seen == set(range(1, 7))


def test_routing_test_in_a_counts_the_general() -> None:
    """Rules - Morale: Testing routing units: 1d6 +1 with a brigadier: 5+ halts shaken, 2-4
    routs on, 1 or less routs on and loses 1 SP. Greene (brigadier) rides with b1."""
    seen = set()
    for seed in range(40):
        s = battle(
            seed, b1=WillUnit("b1", "Continentals", "blue", TroopType.LINE, status=Status.ROUTING)
        )
        s = to_phase(s, "K")
        s, _ = TURN.step(s, EndPhase())
        after, events = TURN.step(s, TestMorale("b1"))
        (face,) = events[0].rolls[0].faces
        total = face + 1
        seen.add(face)
        b1 = after.unit("b1")
        if total >= 5:
            assert b1.status is Status.SHAKEN and b1.strength == 5
        else:
            assert b1.routing and b1.strength == 5  # 1d6+1 is never 1 or less
    assert seen == set(range(1, 7))


def test_blocked_rout_tests_surrender() -> None:
    """Rules - Charging: Surrender (and Rout): a routing unit that cannot move with an enemy
    within 6" surrenders on 4+ (foot); without an enemy near it simply stays."""
    routing = WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.ROUTING)
    outcomes = set()
    for seed in range(30):
        s = attrs.evolve(battle(seed, r1=routing), phase="B")
        after, events = TURN.step(s, CompulsoryMove("r1", 0.0, blocked=True, enemy_within_6=True))
        (face,) = events[0].rolls[0].faces
        outcomes.add(face >= 4)
        assert (after.unit("r1").status is Status.SURRENDERED) is (face >= 4)
    assert outcomes == {True, False}
    s = attrs.evolve(battle(r1=routing), phase="B")
    after, events = TURN.step(s, CompulsoryMove("r1", 0.0, blocked=True))
    assert after.unit("r1").routing and not events[0].rolls


def test_rout_move_must_be_a_full_rout_away() -> None:
    """Rules - Movement (close order foot rout 12") and Rules - Charging: Rout: a routing unit
    moves up to its rout distance, ending farther from the enemy; once moved it is done for B."""
    routing = WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.ROUTING)
    s = attrs.evolve(battle(r1=routing), phase="B")
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", 12.0, ends_farther=False))
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", 12.5))
    s, _ = TURN.step(s, CompulsoryMove("r1", 12.0))
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", 12.0))
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "C"


def test_rout_into_a_full_building() -> None:
    """Rules - Charging: Rout (routing units make for cover, buildings among it) and Rules -
    Terrain: Buildings: a rout may end in a building only where there is room."""
    routing = WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.ROUTING)
    s = attrs.evolve(battle(r1=routing), phase="B")
    s = with_extra(s, works=(Defence.new(Work.SMALL_WOODEN_BUILDING, "farm"),))
    after, events = TURN.step(s, CompulsoryMove("r1", 12.0, enters=Entering("farm")))
    assert "r1" in after.extra.done
    assert events[0].text == 'Foot routs 12" into the wooden building 50x100mm'
    with pytest.raises(IllegalActionError, match="holds 1 unit"):
        TURN.step(s, CompulsoryMove("r1", 12.0, enters=Entering("farm", ("r2",))))
