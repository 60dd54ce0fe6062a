"""Rules - Move Sequence A and B (steps_morale): morale tests and compulsory moves."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import (
    ChangeFormation,
    CompulsoryMove,
    EndPhase,
    Entering,
    Move,
    TestMorale,
)
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.morale import RoutingResult
from smoothbore.will_awi.movement import Leg, MovePlan, Terrain
from smoothbore.will_awi.state import State, with_extra
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status, TroopType, Unit

from .turn_helpers import battle, to_phase

ROUTING_FOOT = Unit("r1", "Foot", "red", TroopType.LINE, status=Status.ROUTING)


def test_morale_tests_in_a_and_note_a() -> None:
    """A: every shaken or routing unit of the mover tests first; a unit routed in the enemy's
    charge phase is not tested (note (a))."""
    s = battle(
        r1=Unit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN),
        r2=Unit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
    )
    assert TURN.legal_actions(s) == (TestMorale("r1"),)
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, TestMorale("r2"))
    s, events = TURN.step(s, TestMorale("r1"))
    assert "tests shaken" in events[0].text
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "B"


def test_shaken_test_in_a_follows_the_faces() -> None:
    """Rules - Morale: Testing shaken units: 1d6 (no general with the unit): 4+ carries on (no
    longer shaken, FAQs (3) 1), 2-3 retires a full move in B, 1 routs and loses 1 SP."""
    seen = set()
    for seed in range(40):
        s = battle(seed, r1=Unit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN))
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
            seed, b1=Unit("b1", "Continentals", "blue", TroopType.LINE, status=Status.ROUTING)
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


def rallied(seed: int = 0) -> State:
    """Phase A after the routing Foot passed its routing test (5+ on 1d6)."""
    for s_seed in range(seed, seed + 100):
        s = battle(s_seed, r1=ROUTING_FOOT)
        after, events = TURN.step(s, TestMorale("r1"))
        if events[0].rolls[0].faces[0] >= 5:
            return after
    raise AssertionError("never rallied")


def test_a_rallied_unit_halts_shaken_for_that_move() -> None:
    """FAQs (1) Q1: "if they rally they halt shaken for that move facing whichever direction
    they choose": the unit is shaken, makes no compulsory move in B, and does not move,
    change formation or take any other move in C; it moves again in its next move."""
    s = rallied()
    r1 = s.unit("r1")
    assert r1.shaken and "r1" in s.extra.rallied
    assert RoutingResult.HALT_SHAKEN.value.split()[0] == "halt"
    s = to_phase(s, "C")
    assert not any(getattr(a, "unit", None) == "r1" for a in TURN.legal_actions(s))
    with pytest.raises(IllegalActionError, match="halts shaken for this move") as error:
        TURN.step(s, Move("r1", MovePlan(legs=(Leg(6.0),))))
    assert error.value.rule == rules.FAQ1
    with pytest.raises(IllegalActionError, match="halts shaken"):
        TURN.step(s, ChangeFormation("r1"))
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.extra.moving == "red" and not s.extra.rallied


def test_a_rally_is_narrated_as_a_halt() -> None:
    """FAQs (1) Q1: the event says the unit halts shaken and does not move, and cites the
    FAQ."""
    s = battle(1, r1=ROUTING_FOOT)
    for seed in range(100):
        _, events = TURN.step(attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed)),
                              TestMorale("r1"))
        if events[0].rolls[0].faces[0] >= 5:
            assert events[0].text == (
                "Foot tests routing and halts, shaken, facing as it chooses: it does not move"
                " this move"
            )
            assert events[0].rule == rules.FAQ1
            return
    raise AssertionError("never rallied")


def test_units_that_retired_in_b_do_not_move_again_in_c() -> None:
    """Move Sequence B and C: B moves the units that must rout or retire, C "all other units":
    a unit that retired in B is not offered a move in C and may not take one."""
    s = attrs.evolve(battle(r1=Unit("r1", "Foot", "red", TroopType.LINE, must_retire=True)),
                     phase="B")
    s, _ = TURN.step(s, CompulsoryMove("r1"))
    s = to_phase(s, "C")
    assert "r1" in s.extra.compelled
    assert not any(getattr(a, "unit", None) == "r1" for a in TURN.legal_actions(s))
    with pytest.raises(IllegalActionError, match="compulsory move in B"):
        TURN.step(s, Move("r1"))
    assert any(getattr(a, "unit", None) == "r2" for a in TURN.legal_actions(s))


def test_retire_is_a_full_move() -> None:
    """Rules - Morale: Testing shaken units ("retire a full move") and Movement note (d): the
    retirement is the whole move less 3" for foot keeping its facing (3" for line foot), or the
    whole 6" turning about; the player picks no distance, and the two are all that is
    offered."""
    s = attrs.evolve(battle(r1=Unit("r1", "Foot", "red", TroopType.LINE, must_retire=True)),
                     phase="B")
    assert set(TURN.legal_actions(s)) == {
        CompulsoryMove("r1"), CompulsoryMove("r1", about_face=True)
    }
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    after, events = TURN.step(s, CompulsoryMove("r1"))
    assert events[0].text == 'Foot retires 3", keeping its facing'
    assert not after.unit("r1").must_retire
    _, events = TURN.step(s, CompulsoryMove("r1", about_face=True))
    assert events[0].text == 'Foot turns about and retires 6"'
    _, events = TURN.step(s, CompulsoryMove("r1", terrain=(Terrain.ROUGH,)))
    assert events[0].text == 'Foot retires 2", keeping its facing'
    horse = attrs.evolve(battle(r2=Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY,
                                        must_retire=True)), phase="B")
    _, events = TURN.step(horse, CompulsoryMove("r2"))
    assert events[0].text == 'Dragoons retires 9", keeping its facing'
    with pytest.raises(IllegalActionError, match="facts of a rout"):
        TURN.step(s, CompulsoryMove("r1", blocked=True))


def test_blocked_rout_tests_surrender() -> None:
    """Rules - Charging: Surrender (and Rout): a routing unit that cannot move with an enemy
    within 6" surrenders on 4+ (foot); without an enemy near it simply stays."""
    outcomes = set()
    for seed in range(30):
        s = attrs.evolve(battle(seed, r1=ROUTING_FOOT), phase="B")
        after, events = TURN.step(s, CompulsoryMove("r1", blocked=True, enemy_within_6=True))
        (face,) = events[0].rolls[0].faces
        outcomes.add(face >= 4)
        assert (after.unit("r1").status is Status.SURRENDERED) is (face >= 4)
    assert outcomes == {True, False}
    s = attrs.evolve(battle(r1=ROUTING_FOOT), phase="B")
    after, events = TURN.step(s, CompulsoryMove("r1", blocked=True))
    assert after.unit("r1").routing and not events[0].rolls


def test_rout_move_is_at_rout_speed_away() -> None:
    """Rules - Movement (close order foot rout 12") and Rules - Charging: Rout: a routing unit
    moves at rout speed, ending farther from the enemy, and never turns about as a retiring
    unit may; once moved it is done for B."""
    s = attrs.evolve(battle(r1=ROUTING_FOOT), phase="B")
    assert TURN.legal_actions(s) == (CompulsoryMove("r1"),)
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", ends_farther=False))
    with pytest.raises(IllegalActionError, match="about_face"):
        TURN.step(s, CompulsoryMove("r1", about_face=True))
    s, events = TURN.step(s, CompulsoryMove("r1"))
    assert events[0].text == 'Foot routs 12"'
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1"))
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "C"


def test_rout_off_the_table() -> None:
    """Rules - Charging: Rout: a routing unit may go off the friendly edge of the table: it
    leaves the battle (not on the table), keeping its strength points."""
    s = attrs.evolve(battle(r1=ROUTING_FOOT), phase="B")
    after, events = TURN.step(s, CompulsoryMove("r1", leaves_table=True))
    assert after.unit("r1").status is Status.OFF_TABLE and not after.unit("r1").on_table
    assert after.unit("r1").strength == 5
    assert events[0].text == "Foot routs off the table"


def test_rout_into_a_full_building() -> None:
    """Rules - Charging: Rout (routing units make for cover, buildings among it) and Rules -
    Terrain: Buildings: a rout may end in a building only where there is room."""
    s = attrs.evolve(battle(r1=ROUTING_FOOT), phase="B")
    s = with_extra(s, works=(Defence.new(Work.SMALL_WOODEN_BUILDING, "farm"),))
    after, events = TURN.step(s, CompulsoryMove("r1", enters=Entering("farm")))
    assert "r1" in after.extra.done
    assert events[0].text == 'Foot routs 12" into the wooden building 50x100mm'
    with pytest.raises(IllegalActionError, match="holds 1 unit"):
        TURN.step(s, CompulsoryMove("r1", enters=Entering("farm", ("r2",))))
