"""steps_movement.py: compulsory moves, moves and manoeuvres, digging, ammunition, helpers and
generals' rides."""

from __future__ import annotations

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import (
    AttachHelpers,
    CompulsoryMove,
    Dig,
    Move,
    MoveGeneral,
    Resupply,
)
from smoothbore.mckie_acw.movement import Manoeuvre
from smoothbore.mckie_acw.phases import COMPULSORY, MOVEMENT
from smoothbore.mckie_acw.units import Arm, Formation, Ground, Status, Weapon

from .support import B, at, battle, foot, guns


def test_rates_less_manoeuvres_double_and_dense_woods() -> None:
    state = at(battle(), MOVEMENT)
    with pytest.raises(IllegalActionError, match="may move 120 mm"):
        TURN.step(state, Move("a1", 121))
    with pytest.raises(IllegalActionError, match="may move 60 mm"):
        TURN.step(state, Move("a1", 61, manoeuvre=Manoeuvre.CHANGE_FORMATION,
                              formation=Formation.COLUMN))
    with pytest.raises(IllegalActionError, match="may move 90 mm"):
        TURN.step(state, Move("a1", 91, manoeuvre=Manoeuvre.FACE))
    with pytest.raises(IllegalActionError, match="may move 60 mm"):
        TURN.step(state, Move("a1", 61, dense_woods=True, ends_in=Ground.DENSE_WOODS))
    after, _ = TURN.step(state, Move("a1", 240, advancing=True, double=True))
    unit = after.unit("a1")
    assert unit.effort == 2 and {"a1"} <= after.extra.shifted & after.extra.advanced


def test_a_manoeuvre_in_place_is_no_change_of_position() -> None:
    state = at(battle(), MOVEMENT)
    after, _ = TURN.step(state, Move("a1", 0, manoeuvre=Manoeuvre.CHANGE_FORMATION,
                                     formation=Formation.COLUMN))
    assert after.unit("a1").formation is Formation.COLUMN
    assert "a1" in after.extra.moved and "a1" not in after.extra.shifted


def test_cavalry_mounts_and_holds_horses_only_foot_in_woods() -> None:
    cav = foot("c", arm=Arm.CAVALRY, weapon=Weapon.BREECH_LOADING_RIFLE, figures=12)
    state = at(battle(cav, foot("b1", B)), MOVEMENT)
    assert state.unit("c").horseholders == 3
    with pytest.raises(IllegalActionError, match="only foot"):
        TURN.step(state, Move("c", 10, dense_woods=True, ends_in=Ground.DENSE_WOODS))
    # mounting costs 25% of the mounted rate: 300 mm in line -> 225
    with pytest.raises(IllegalActionError, match="may move 225 mm"):
        TURN.step(state, Move("c", 226, manoeuvre=Manoeuvre.MOUNT))
    after, _ = TURN.step(state, Move("c", 225, manoeuvre=Manoeuvre.MOUNT))
    assert after.unit("c").mounted and after.unit("c").horseholders == 0


def test_guns_limber_unlimber_and_are_manhandled_20_mm() -> None:
    state = at(battle(guns("g"), foot("b1", B)), MOVEMENT)
    with pytest.raises(IllegalActionError, match="may move 20 mm"):
        TURN.step(state, Move("g", 21, manoeuvre=Manoeuvre.MANHANDLE))
    limbered, _ = TURN.step(state, Move("g", 225, manoeuvre=Manoeuvre.LIMBER))
    assert limbered.unit("g").limbered
    siege = at(battle(guns("s", weapon=Weapon.SIEGE_GUN), foot("b1", B)), MOVEMENT)
    with pytest.raises(IllegalActionError, match="may move 0 mm"):
        TURN.step(siege, Move("s", 1, manoeuvre=Manoeuvre.LIMBER))


def test_four_periods_of_digging_make_a_trench() -> None:
    state = at(battle(foot("a1", dug=3), foot("b1", B)), MOVEMENT)
    after, _ = TURN.step(state, Dig("a1"))
    assert after.unit("a1").dug == 4 and "a1" in after.extra.digging
    moved = at(battle(), MOVEMENT, moved=frozenset({"a1"}))
    with pytest.raises(IllegalActionError, match="no other task"):
        TURN.step(moved, Dig("a1"))


def test_resupply_from_the_corps_train() -> None:
    state = at(battle(foot("a1", ammo=10), foot("b1", B)), MOVEMENT)
    assert state.extra.reserves == (("a-chief", 96), ("b-chief", 96))
    after, _ = TURN.step(state, Resupply("a1"))
    assert after.unit("a1").ammo == 96 and after.extra.reserves[0] == ("a-chief", 10)
    empty = state.with_extra(reserves=(("a-chief", 0), ("b-chief", 96)))
    with pytest.raises(IllegalActionError, match="train is empty"):
        TURN.step(empty, Resupply("a1"))


def test_helpers_join_a_crew_up_to_three() -> None:
    state = at(battle(guns("g", figures=3, initial_figures=4), foot("a1"), foot("b1", B)),
               MOVEMENT)
    after, _ = TURN.step(state, AttachHelpers("g", "a1", 1))
    assert after.unit("g").crew == 4 and after.unit("a1").figures == 15
    assert after.unit("a1").initial_figures == 15  # detached, not lost
    with pytest.raises(IllegalActionError, match="at most 3"):
        TURN.step(at(battle(guns("g", helpers=3), foot("a1"), foot("b1", B)), MOVEMENT),
                  AttachHelpers("g", "a1", 1))


def test_generals_ride_600_mm_once() -> None:
    state = at(battle(), MOVEMENT)
    with pytest.raises(IllegalActionError, match="at most 600"):
        TURN.step(state, MoveGeneral("a-div", "a1", 601))
    after, _ = TURN.step(state, MoveGeneral("a-div", "a1", 600))
    assert after.commander("a-div").attached_to == "a1"
    with pytest.raises(IllegalActionError, match="already moved"):
        TURN.step(after, MoveGeneral("a-div", "a2", 10))


def test_compulsory_routs_and_only_routers_leave_the_table() -> None:
    state = at(battle(foot("a1", status=Status.RETREATING), foot("a2", status=Status.ROUTING),
                      foot("b1", B)), COMPULSORY)
    with pytest.raises(IllegalActionError, match="only a routing unit"):
        TURN.step(state, CompulsoryMove("a1", off_table=True))
    after, _ = TURN.step(state, CompulsoryMove("a2", off_table=True))
    assert after.unit("a2").status is Status.OFF_TABLE
    assert "a2" in after.extra.shifted


def test_a_unit_in_dense_woods_moves_at_half_rate() -> None:
    state = at(battle(foot("a1", ground=Ground.DENSE_WOODS), foot("b1", B)), MOVEMENT)
    with pytest.raises(IllegalActionError, match="in dense woods"):
        TURN.step(state, Move("a1", None, advancing=True))
    with pytest.raises(IllegalActionError, match="may move 60 mm"):
        TURN.step(state, Move("a1", 61, dense_woods=True))
    assert Move("a1", None, advancing=True, dense_woods=True) in TURN.legal_actions(state)
