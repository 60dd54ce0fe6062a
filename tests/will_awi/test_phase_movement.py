"""Rules - Move Sequence C (phase_movement): moves, orders, generals, field engineering and
demolition."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi.actions import ChangeFormation, Entering, Limber
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.movement import Crossing, Leg, MovePlan
from smoothbore.will_awi.options import FORTY_FIVE, CommandPost, Options
from smoothbore.will_awi.sequence import (
    TURN,
    EndPhase,
    Engineer,
    IndependentTest,
    Move,
    MoveGeneral,
    Order,
    WillState,
)
from smoothbore.will_awi.turn_state import with_extra
from smoothbore.will_awi.units import (
    Formation,
    Nationality,
    Status,
    TroopType,
    WillUnit,
)

from .turn_helpers import battle, next_own_move, to_phase, works_battle


def test_moves_in_c() -> None:
    """C: a move within its allowance; each unit once; command and control when on."""
    s = to_phase(battle(), "C")
    s2, _ = TURN.step(s, Move("r1", MovePlan(legs=(Leg(6),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s2, Move("r1", MovePlan(legs=(Leg(1),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Move("r1", MovePlan(legs=(Leg(7),))))
    cc = to_phase(battle(options=Options(command_control=True)), "C")
    with pytest.raises(IllegalActionError, match="order"):
        TURN.step(cc, Move("r1", MovePlan(legs=(Leg(6),))))


def test_command_and_control_in_the_turn() -> None:
    """Command & Control (March 2008): 2d6 at or under rating 8 (average unit, in sight, next
    to the commander: no modifier) gives the order; a failure ends the commander's orders and
    the unit stays; the state follows the faces rolled."""
    seen = set()
    for seed in range(30):
        cc = to_phase(battle(seed, options=Options(command_control=True)), "C")
        after, events = TURN.step(cc, Order("rb", "r1"))
        ok = sum(events[0].rolls[0].faces) <= 8
        seen.add(ok)
        if ok:
            assert "r1" in after.extra.ordered and "rb" not in after.extra.failed
            moved, _ = TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            assert "r1" in moved.extra.done
        else:
            assert "rb" in after.extra.failed and "r1" not in after.extra.ordered
            with pytest.raises(IllegalActionError, match="failed"):
                TURN.step(after, Order("rb", "r2"))
            with pytest.raises(IllegalActionError, match="already"):
                TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            # the other unit, not yet tested, may test alone: 3 or less (March)
            alone, ev = TURN.step(after, IndependentTest("r2"))
            assert ("r2" in alone.extra.ordered) is (sum(ev[0].rolls[0].faces) <= 3)
    assert seen == {True, False}


def test_group_order_and_independent_tests_last() -> None:
    """A group move is one roll for several units (-1); the independent tests come after all
    command rolls, so no order follows one."""
    for seed in range(30):
        cc = to_phase(battle(seed, options=Options(command_control=True)), "C")
        after, events = TURN.step(cc, Order("rb", "r1", with_units=("r2",)))
        assert len(events[0].rolls) == 1
        ok = sum(events[0].rolls[0].faces) <= 8 - 1
        assert ({"r1", "r2"} <= after.extra.ordered) is ok
        assert ({"r1", "r2"} <= after.extra.done) is not ok
    cc = to_phase(battle(options=Options(command_control=True)), "C")
    after, _ = TURN.step(cc, IndependentTest("r2"))
    with pytest.raises(IllegalActionError, match="after all command rolls"):
        TURN.step(after, Order("rb", "r1"))
    with pytest.raises(IllegalActionError):
        TURN.step(cc, Order("rb", "r1", with_units=("r1",)))
    jan = Options(command_control=True, command_post=CommandPost.JANUARY_2008)
    with pytest.raises(IllegalActionError, match="failed"):
        TURN.step(to_phase(battle(options=jan), "C"), IndependentTest("r2"))


def test_order_to_the_unit_the_general_rides_with() -> None:
    """Command & Control: +2 if the commander is with the unit: a general attached to the unit
    (Greene with b1, rating 8) needs 10 or less, whatever the order's facts say."""
    seen = set()
    for seed in range(40):
        s = to_phase(battle(seed, options=Options(command_control=True)), "K")
        s, _ = TURN.step(s, EndPhase())
        s = to_phase(s, "C")
        assert s.extra.moving == "blue"
        after, events = TURN.step(s, Order("bb", "b1"))
        total = sum(events[0].rolls[0].faces)
        seen.add(total)
        assert ("b1" in after.extra.ordered) is (total <= 10)
    assert {11, 12} & seen and seen - {11, 12}


def test_field_engineering_in_c() -> None:
    """Field Engineering in the move: dismantle 1 a move; close order infantry only."""
    from smoothbore.will_awi.sequence import Engineer

    s = to_phase(works_battle(), "C")
    s2, _ = TURN.step(s, Engineer("r1", "fw"))
    assert next(w for w in s2.extra.works if w.id == "fw").points == 5
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r2", "fw"))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r1", "fw", has_tools=False))


def test_demolition_over_moves() -> None:
    """Demolition: lay each charge in a movement phase, move away, go off in phase E."""
    from smoothbore.will_awi.sequence import Detonate, LayCharge, MoveAway

    s = to_phase(works_battle(3), "C")
    s, _ = TURN.step(s, LayCharge("r1", "fw", 2))
    s = next_own_move(s)
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveAway("r1"))  # one charge still to lay
    s, _ = TURN.step(s, LayCharge("r1", "fw", 2))
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(s, "E"), Detonate("fw"))  # not moved away yet
    s = next_own_move(s)
    s, _ = TURN.step(s, MoveAway("r1"))
    s = to_phase(s, "E")
    s, events = TURN.step(s, Detonate("fw", frozenset({"b1"})))
    assert events[0].kind == "demolition" and len(events[0].rolls) == 1
    assert len(events[0].rolls[0].faces) == 3
    assert events[1].subject == "b1" and len(events[1].rolls) == 1
    assert not s.extra.demolitions


def test_generals_move_and_join_units() -> None:
    """Generals/Couriers move 21" (half with a light wound) and may join a unit; a general with
    the unit adds to its morale tests."""
    from smoothbore.will_awi.sequence import MoveGeneral

    s = to_phase(battle(), "C")
    s2, _ = TURN.step(s, MoveGeneral("rb", 21, "r1"))
    assert s2.commander("rb").attached_to == "r1"
    with pytest.raises(IllegalActionError):
        TURN.step(s2, MoveGeneral("rb", 1))
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveGeneral("rb", 22))
    hurt = s.with_commanders(attrs.evolve(s.commander("rb"), light_wounds=1))
    with pytest.raises(IllegalActionError):
        TURN.step(hurt, MoveGeneral("rb", 11))
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveGeneral("bb", 5))  # not the moving side


def test_highland_charge_needs_no_order() -> None:
    """Battles of the '45 with command and control: a Highland charge is a compulsory move:
    it needs no order, takes none, and the move cannot end before it is made."""
    from smoothbore.will_awi.sequence import HighlandChargeMove

    clan = WillUnit(
        "r1",
        "Clan",
        "red",
        TroopType.HIGHLANDERS,
        Nationality.JACOBITE,
        highland_charge=True,
        commander="rb",
    )
    opts = Options(variant=FORTY_FIVE, command_control=True)
    s = to_phase(battle(2, opts, r1=clan), "C")
    with pytest.raises(IllegalActionError, match="Highland"):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="compulsory"):
        TURN.step(s, Order("rb", "r1"))
    s, events = TURN.step(s, HighlandChargeMove("r1"))
    assert events[0].rule.endswith("Battles of the 45")
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "D"


def test_formation_change_takes_the_move() -> None:
    """Rules - Movement note (b): line to column (or back) with no base moving further than a
    line move (6" close order foot); it takes the unit's move."""
    s = to_phase(battle(), "C")
    after, events = TURN.step(s, ChangeFormation("r1", 6.0))
    assert after.unit("r1").formation is Formation.COLUMN and "r1" in after.extra.done
    assert events[0].text == "Foot forms column"
    with pytest.raises(IllegalActionError):
        TURN.step(s, ChangeFormation("r1", 6.5))
    with pytest.raises(IllegalActionError):
        TURN.step(after, Move("r1", MovePlan(legs=(Leg(1),))))


def test_limber_and_deploy_take_a_whole_move() -> None:
    """Rules - Movement note (c): deploying or limbering guns takes a whole move stationary."""
    gun = WillUnit("r1", "Guns", "red", TroopType.LIGHT_GUN)
    s = to_phase(battle(r1=gun), "C")
    after, events = TURN.step(s, Limber("r1"))
    assert after.unit("r1").limbered and events[0].text == "Guns limbers"
    with pytest.raises(IllegalActionError):
        TURN.step(after, Move("r1", MovePlan(legs=(Leg(1),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Limber("r2"))  # dragoons have no gun to limber


def test_standing_still_and_the_end_of_c() -> None:
    """Move Sequence C: a unit may stand; the end of C clears the orders of the move."""
    s = to_phase(battle(options=Options(command_control=True)), "C")
    for seed in range(40):
        s2 = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed))
        ordered, _ = TURN.step(s2, Order("rb", "r1"))
        if "r1" in ordered.extra.ordered:
            break
    stood, events = TURN.step(ordered, Move("r1"))
    assert events[0].text == "Foot holds its position" and "r1" in stood.extra.done
    d, _ = TURN.step(stood, EndPhase())
    assert d.phase == "D" and not d.extra.ordered and not d.extra.failed and not d.extra.done


def town_battle(seed: int = 1) -> WillState:
    """Phase C with a small stone farm and a large wooden house."""
    s = battle(seed)
    works = (
        Defence.new(Work.SMALL_STONE_BUILDING, "farm"),
        Defence.new(Work.LARGE_WOODEN_BUILDING, "house"),
        Defence.new(Work.TIMBER_FIELDWORK, "fw"),
    )
    s = with_extra(s, works=works)
    extra_foot = WillUnit("r3", "Grenadiers", "red", TroopType.GRENADIERS)
    s = attrs.evolve(s, units=(*s.units, extra_foot))
    return to_phase(s, "C")


INTO = MovePlan(legs=(Leg(2),), crossings=(Crossing.ENTER_BUILDING,))


def test_entering_a_building_needs_room() -> None:
    """Rules - Terrain: Buildings: a small building holds 1 unit, a large one 2; entering costs
    half a move for foot (2" + 3" of 6") and is NA for mounted."""
    s = town_battle()
    after, events = TURN.step(s, Move("r1", INTO, Entering("farm")))
    assert "r1" in after.extra.done
    assert events[0].text == 'Foot moves 5" of its 6", into the stone building 50x100mm'
    with pytest.raises(IllegalActionError, match="holds 1 unit: Grenadiers already in it"):
        TURN.step(s, Move("r1", INTO, Entering("farm", ("r3",))))
    TURN.step(s, Move("r1", INTO, Entering("house", ("r3",))))
    with pytest.raises(IllegalActionError, match="holds 2 units"):
        TURN.step(s, Move("r1", INTO, Entering("house", ("r3", "r2"))))
    with pytest.raises(IllegalActionError, match="hold the"):
        TURN.step(s, Move("r1", INTO, Entering("house", ("b1",))))
    with pytest.raises(IllegalActionError, match="not a building"):
        TURN.step(s, Move("r1", INTO, Entering("fw")))
    with pytest.raises(IllegalActionError, match="no work"):
        TURN.step(s, Move("r1", INTO, Entering("church")))
    with pytest.raises(IllegalActionError, match="cannot"):
        TURN.step(s, Move("r2", INTO, Entering("house")))
    gone = s.with_units(attrs.evolve(s.unit("r3"), strength=0, status=Status.ELIMINATED))
    TURN.step(gone, Move("r1", INTO, Entering("farm")))
    with pytest.raises(IllegalActionError, match="no longer on the table"):
        TURN.step(gone, Move("r1", INTO, Entering("farm", ("r3",))))


def test_move_narration() -> None:
    """Rules - Movement: a move says how far of its allowance, what it crossed and any turn;
    a turn of more than 45° takes the whole move (note (e)); a general who does not ride is
    not said to ride 0"."""
    s = to_phase(battle(), "C")
    _, ev = TURN.step(s, Move("r1", MovePlan(legs=(Leg(2),), crossings=(Crossing.STREAM,))))
    assert ev[0].text == 'Foot moves 5" of its 6", crossing streams'
    _, ev = TURN.step(s, Move("r1", MovePlan(legs=(Leg(4),), facing_change=30)))
    assert ev[0].text == 'Foot moves 4" of its 6", turning 30°'
    _, ev = TURN.step(s, Move("r1", MovePlan(facing_change=90)))
    assert ev[0].text == "Foot turns 90°, taking the whole move"
    _, ev = TURN.step(s, MoveGeneral("rb", 0.0, "r1"))
    assert ev[0].text == "Webster joins Foot"
    _, ev = TURN.step(s, MoveGeneral("rb", 12.0))
    assert ev[0].text == 'Webster rides 12"'
    _, ev = TURN.step(s, MoveGeneral("rb"))
    assert ev[0].text == "Webster stays where he is"


def test_engineering_narration() -> None:
    """Field Engineering: building takes a point every other move, dismantling 1 a move; the
    events say which, with the points the work has."""
    s = with_extra(
        to_phase(works_battle(), "C"), works=(Defence(Work.TIMBER_FIELDWORK, 2, id="fw"),)
    )
    s, ev = TURN.step(s, Engineer("r1", "fw", build=True))
    assert ev[0].text == "Foot begins another defence point on the timber fieldwork (per 100mm)"
    s = next_own_move(s)
    _, ev = TURN.step(s, Engineer("r1", "fw", build=True))
    assert ev[0].text == "Foot builds up the timber fieldwork (per 100mm) to 3 points"
    _, ev = TURN.step(s, Engineer("r1", "fw"))
    assert ev[0].text == "Foot dismantles part of the timber fieldwork (per 100mm): 1 point left"
