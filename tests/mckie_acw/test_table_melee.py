"""McKie ACW melees on a table (Melee; Results of melees), hand-drawn layouts in mm: the loser
pushed back 50 mm and the winner following up into contact (or unable to), melees of units no
longer in contact ending, the face struck read by the test to receive a charge, a second
charge on one target joining the melee."""

from __future__ import annotations

from typing import Any

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import EndPhase, FollowUp, Melee
from smoothbore.mckie_acw.melee import Attack
from smoothbore.mckie_acw.phases import MELEE, RECEIVE_TESTS
from smoothbore.mckie_acw.positions import synced
from smoothbore.mckie_acw.state import Charge, Contact, State, with_extra
from smoothbore.mckie_acw.steps_melee import closed_up, pushed_back
from smoothbore.mckie_acw.units import Formation, Ground, Status, changed
from smoothbore.table import Feature, Table, in_contact
from tests.mckie_acw.support import B, at, exact, foot, guns
from tests.mckie_acw.test_situations import battle

LINE = foot("a1")
"""16 figures in line: 96 x 24 mm; at (300, 100) facing 0 its front edge is y = 112."""


def _table(state: State) -> Table:
    table = state.extra.table
    assert table is not None
    return table


def _won(winner_at: tuple[float, float, float], winner: str = "a1",
         **extra: object) -> State:
    """a1 (or the given winner) has won its melee with b1 (a line whose front edge touches
    a1's at y = 112) and b1 has been pushed back: a1 decides whether to follow up."""
    unit = LINE if winner == "a1" else guns(winner)
    state = battle({unit: winner_at, foot("b1", B): (300, 124, 180)})
    state = at(state, MELEE, contacts=(Contact(winner, "b1", winner=winner, periods=1),),
               **extra)
    state = pushed_back(state, "b1", winner)
    return with_extra(state, follow=(winner, "b1"))


def test_the_loser_goes_back_50_mm_and_the_winner_follows_into_contact() -> None:
    state = _won((300, 100, 0))
    assert _table(state).footprint("b1").centre == (300, 174)  # 124 + 50, facing kept
    assert not in_contact(_table(state), "a1", "b1")
    assert set(TURN.legal_actions(state)) == {FollowUp("a1", True), FollowUp("a1", False)}
    after, events = TURN.step(state, FollowUp("a1", True))
    fp = _table(after).footprint("a1")
    assert fp.y == pytest.approx(150, abs=0.01) and (fp.x, fp.facing) == (300, 0)
    assert in_contact(_table(after), "a1", "b1")
    assert any("follows up 50 mm into contact" in e.text for e in events)
    assert len(after.extra.contacts) == 1


def test_a_battery_only_manhandled_cannot_follow_up_50_mm() -> None:
    # an unlimbered gun model (30 x 40 mm) at (300, 92): front edge y = 112; it may only be
    # manhandled 20 mm, so it cannot go the 50 mm after the loser
    state = _won((300, 92, 0), winner="g1")
    assert TURN.legal_actions(state) == (FollowUp("g1", False),)
    with pytest.raises(IllegalActionError, match="g1 cannot follow up"):
        TURN.step(state, FollowUp("g1", True))
    after, _ = TURN.step(state, FollowUp("g1", False))
    assert after.extra.contacts == ()


def test_a_melee_of_units_no_longer_in_contact_ends() -> None:
    # the melee went on from last period but the units stand 50 mm apart
    state = battle({LINE: (300, 100, 0), foot("b1", B): (300, 174, 180)})
    state = at(state, RECEIVE_TESTS, acting=B, contacts=(Contact("a1", "b1", periods=1),))
    after, events = TURN.step(state, EndPhase())
    assert after.phase == MELEE and after.extra.contacts == ()
    assert any("not in contact: no melee" in e.text and "Results of melees" in e.rule
               for e in events)
    assert not any(isinstance(a, Melee) for a in TURN.legal_actions(after))


def test_a_melee_that_goes_on_closes_up_after_its_losses() -> None:
    # b1, a column of 13 (48 x 48 mm, 4 ranks of 12) facing a1 at y = 136: front edge y =
    # 112, touching a1. A casualty shortens it by a rank about its centre (12 figures: 36 mm
    # deep, front edge at 118): a melee that goes on closes the gap again.
    column = foot("b1", B, formation=Formation.COLUMN, figures=13)
    state = battle({LINE: (300, 100, 0), column: (300, 136, 180)})
    state = at(state, MELEE, contacts=(Contact("a1", "b1", periods=1),))

    def read(after: State) -> tuple[bool, bool]:
        going_on = any(c.attacker == "a1" and not c.winner for c in after.extra.contacts)
        return going_on, going_on and in_contact(_table(after), "a1", "b1")

    dist = exact(state, Melee("a1", "b1"), read)
    assert (True, False) not in dist.outcomes
    assert dist.probability((True, True)) > 0
    shorter = state.with_units(changed(state.unit("b1"), figures=12))
    gap = synced(shorter)
    assert not in_contact(_table(gap), "a1", "b1")
    closed = closed_up(gap, "a1", "b1")
    assert _table(closed).footprint("a1").y == pytest.approx(106, abs=0.01)  # 6 mm ahead
    assert in_contact(_table(closed), "a1", "b1")


def _charged_twice(seed: int = 0, **b1: Any) -> State:
    """b1, a line at (300, 200) facing 180 (front edge y = 188, rear 212), charged from the
    front by a1 (front edge y = 162: 26 mm) and into its rear by a2 (at y = 260 facing 180,
    front edge 248: 36 mm); b2 stands well away; the receiving tests are done."""
    state = battle({LINE: (300, 150, 0), foot("a2"): (300, 260, 180),
                    foot("b1", B, **b1): (300, 200, 180), foot("b2", B): (100, 350, 180)},
                   seed=seed)
    return at(state, RECEIVE_TESTS, acting=B, tested=frozenset({"b1:receiving-a-charge"}),
              charges=(Charge("a1", "b1"), Charge("a2", "b1", attack=Attack.REAR)))


def test_a_second_charge_on_one_target_joins_the_melee() -> None:
    after, _ = TURN.step(_charged_twice(), EndPhase())
    assert after.extra.contacts == (Contact("a1", "b1"),
                                    Contact("a2", "b1", attack=Attack.REAR))
    table = _table(after)
    assert table.footprint("a1").y == pytest.approx(176, abs=0.01)  # 14 mm short of 188
    assert table.footprint("a2").y == pytest.approx(224, abs=0.01)  # front edge on b1.s rear, 212
    assert in_contact(table, "a1", "b1") and in_contact(table, "a2", "b1")
    assert "b1" in after.extra.rear
    assert {a for a in TURN.legal_actions(after) if isinstance(a, Melee)} == {
        Melee("a1", "b1"), Melee("a2", "b1")}


@pytest.mark.parametrize("seed", range(4))
def test_a_unit_fighting_two_melees_earns_the_effort_points_once(seed: int) -> None:
    state, _ = TURN.step(_charged_twice(seed), EndPhase())
    while state.phase == MELEE and not TURN.is_over(state):
        legal = TURN.legal_actions(state)
        pick = [a for a in legal if isinstance(a, Melee)] or [
            a for a in legal if isinstance(a, FollowUp) and not a.follow] or [EndPhase()]
        state, _ = TURN.step(state, pick[0])
        if state.unit("b1").on_table:
            assert state.unit("b1").effort <= 2


def test_a_charge_on_a_retreating_target_goes_in() -> None:
    after, _ = TURN.step(_charged_twice(status=Status.RETREATING), EndPhase())
    assert Contact("a1", "b1") in after.extra.contacts


def test_a_charge_on_a_target_gone_from_the_table_says_so() -> None:
    state = _charged_twice()
    gone = state.with_units(changed(state.unit("b1"), status=Status.OFF_TABLE))
    after, events = TURN.step(synced(gone), EndPhase())
    assert after.extra.contacts == ()
    assert any("a1's charge finds no enemy: b1 has left the table" in e.text for e in events)


def test_a_loser_with_an_enemy_at_its_rear_is_not_pushed_through_it() -> None:
    # b1 between a1 (front) and a2 (touching its rear): losing to a1 it stays where it is,
    # still in contact with both
    state, _ = TURN.step(_charged_twice(), EndPhase())

    def read(after: State) -> tuple[bool, float, bool]:
        table = _table(after)
        lost = "b1" in after.extra.lost_melee and after.unit("b1").on_table
        return lost, round(table.footprint("b1").y, 2), in_contact(table, "a2", "b1")

    dist = exact(state, Melee("a1", "b1"), read)
    assert {o for o in dist.outcomes if o[0]} == {(True, 200.0, True)}


def test_a_loser_pushed_out_of_another_melee_ends_it() -> None:
    # b1 (y 188 to 212) fought by a1 at its front and a2, a column (48 x 48 mm) facing its
    # right flank (a2's front edge on x = 348): pushed back 50 mm (y 238 to 262) it no longer
    # touches a2 (y 176 to 224), and that melee ends
    state = battle({LINE: (300, 176, 0), foot("a2", formation=Formation.COLUMN): (372, 200, 270),
                    foot("b1", B): (300, 200, 180), foot("b2", B): (100, 350, 180)})
    assert in_contact(_table(state), "a2", "b1")
    state = at(state, MELEE, contacts=(Contact("a1", "b1"),
                                       Contact("a2", "b1", attack=Attack.FLANK)))

    def read(after: State) -> tuple[bool, bool]:
        lost = "b1" in after.extra.lost_melee and after.unit("b1").on_table
        return lost, any(c.attacker == "a2" for c in after.extra.contacts)

    dist = exact(state, Melee("a1", "b1"), read)
    assert (True, False) in dist.outcomes and (True, True) not in dist.outcomes
    assert (False, True) in dist.outcomes

    def may_follow(after: State) -> bool | None:
        """Whether b1, having won, may follow a1 up (None: b1 did not win)."""
        if after.extra.follow != ("b1", "a1"):
            return None
        return FollowUp("b1", True) in TURN.legal_actions(after)

    # b1 winning is still in melee with a2: it may not follow up (M40)
    assert set(exact(state, Melee("a1", "b1"), may_follow).outcomes) == {None, False}


def test_a_unit_moved_by_a_melee_or_re_laid_stands_on_the_ground_measured_again() -> None:
    # b1 (front edge y 112, facing a1) has a fence 7 mm before it (M31); pushed back 50 mm it
    # stands in the open
    fence = Feature("fence", "fence", line=((200, 105), (400, 105)))
    state = battle({LINE: (300, 100, 0), foot("b1", B): (300, 124, 180)}, fence)
    assert state.unit("b1").ground is Ground.BEHIND_OBSTACLE
    after = pushed_back(state, "b1", "a1")
    assert _table(after).footprint("b1").y == 174 and after.unit("b1").ground is Ground.OPEN
    # a line at (300, 200) facing 180 (front edge y 188) with a fence at y 170, 18 mm before
    # it; in skirmish order (12 mm deep) its front edge is at 194, the fence 24 mm off
    behind = battle({LINE: (300, 50, 0), foot("b1", B): (300, 200, 180)},
                    Feature("fence", "fence", line=((100, 170), (500, 170))))
    assert behind.unit("b1").ground is Ground.BEHIND_OBSTACLE
    spread = synced(behind.with_units(changed(behind.unit("b1"), formation=Formation.SKIRMISH)))
    assert spread.unit("b1").ground is Ground.OPEN


@pytest.mark.parametrize(("facing", "attack", "formation", "y"), [
    (0, Attack.REAR, Formation.LINE, 124),  # its back to a1 (y 112 to 136): driven on
    (90, Attack.FLANK, Formation.COLUMN, 136),  # its flank (a column, y 112 to 160): sideways
])
def test_a_loser_struck_in_flank_or_rear_is_pushed_away_from_the_winner(
        facing: float, attack: Attack, formation: Formation, y: float) -> None:
    """Melee: Results of melees, "pushed back 50mm": back from the winner, never into it
    (issue 27: a loser struck in the rear was "pushed back 0 mm" into its charger; M39).
    b1 touches a1's front edge (y 112) with the face struck: it goes 50 mm on the way a1
    charged, keeping its facing."""
    state = battle({LINE: (300, 100, 0), foot("b1", B, formation=formation): (300, y, facing)})
    assert in_contact(_table(state), "a1", "b1")
    state = at(state, MELEE, contacts=(Contact("a1", "b1", attack=attack, winner="a1",
                                               periods=1),))
    after = pushed_back(state, "b1", "a1")
    fp = _table(after).footprint("b1")
    assert (round(fp.x, 6), round(fp.y, 6), fp.facing) == (300, y + 50, facing)
    assert after.extra.pushed == pytest.approx((0, 50))
