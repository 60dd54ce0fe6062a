"""Rules - Move Sequence C (steps_movement): moves, formation changes, limbering, Highland
charges and the generals' rides."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.views import action_words
from smoothbore.will_awi.actions import (
    ChangeFormation,
    Deploy,
    EndPhase,
    Entering,
    HighlandChargeMove,
    Limber,
    Move,
    MoveGeneral,
    Order,
)
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.movement import Crossing, Leg, MovePlan
from smoothbore.will_awi.options import FORTY_FIVE, Options
from smoothbore.will_awi.state import State, with_extra
from smoothbore.will_awi.steps_movement import full_moves
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Formation, Nationality, Status, TroopType, Unit

from .turn_helpers import battle, to_phase


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


def test_full_moves_offered_are_those_of_the_move_table() -> None:
    """Rules - Movement tables: each unit is offered standing and every full move of its kind
    within its present allowance (line foot 6", not the column's 9"; dragoons 15"; in column,
    both 6" and 9")."""
    s = to_phase(battle(), "C")
    legal = set(TURN.legal_actions(s))
    assert Move("r1") in legal and Move("r1", MovePlan(legs=(Leg(6.0),))) in legal
    assert Move("r1", MovePlan(legs=(Leg(9.0),))) not in legal
    assert Move("r2", MovePlan(legs=(Leg(15.0),))) in legal
    column = s.with_units(attrs.evolve(s.unit("r1"), formation=Formation.COLUMN))
    legal = set(TURN.legal_actions(column))
    assert {Move("r1", MovePlan(legs=(Leg(d),))) for d in (6.0, 9.0)} <= legal
    gun = Unit("g", "Guns", "x", TroopType.LIGHT_GUN)
    assert full_moves(gun, Options()) == (3, 9)
    assert full_moves(Unit("w", "Wagon", "x", TroopType.WAGON), Options()) == (6,)
    dragoons = Unit("d", "Dragoons", "x", TroopType.LIGHT_CAVALRY, Nationality.BRITISH)
    assert full_moves(dragoons, Options(variant=FORTY_FIVE)) == (12, 15)


def test_formation_changes_and_limbering_are_offered() -> None:
    """Rules - Movement notes (b) and (c): every foot or cavalry unit that may move is offered
    a formation change, every gun a limber or deploy; step accepts exactly what is offered."""
    gun = Unit("r1", "Guns", "red", TroopType.LIGHT_GUN)
    s = to_phase(battle(r1=gun), "C")
    legal = TURN.legal_actions(s)
    assert Limber("r1") in legal and ChangeFormation("r2") in legal
    assert ChangeFormation("r1") not in legal and Limber("r2") not in legal
    for action in (ChangeFormation("r1"), Limber("r2")):
        with pytest.raises(IllegalActionError):
            TURN.step(s, action)
    cc = to_phase(battle(options=Options(command_control=True)), "C")
    assert not any(isinstance(a, ChangeFormation | Limber) for a in TURN.legal_actions(cc))


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
    gun = Unit("r1", "Guns", "red", TroopType.LIGHT_GUN)
    s = to_phase(battle(r1=gun), "C")
    after, events = TURN.step(s, Limber("r1"))
    assert after.unit("r1").limbered and events[0].text == "Guns limbers"
    with pytest.raises(IllegalActionError):
        TURN.step(after, Move("r1", MovePlan(legs=(Leg(1),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Limber("r2"))  # dragoons have no gun to limber


def test_a_limbered_gun_deploys_and_the_action_says_so() -> None:
    """Rules - Movement note (c): a deployed gun is offered ``Limber``, a limbered one
    ``Deploy``; each is refused for a gun already in that state, and the action and its
    event say the same thing."""
    gun = Unit("r1", "Guns", "red", TroopType.LIGHT_GUN, limbered=True)
    s = to_phase(battle(r1=gun), "C")
    legal = TURN.legal_actions(s)
    assert Deploy("r1") in legal and Limber("r1") not in legal
    with pytest.raises(IllegalActionError, match="already limbered"):
        TURN.step(s, Limber("r1"))
    after, events = TURN.step(s, Deploy("r1"))
    assert not after.unit("r1").limbered and events[0].text == "Guns deploys"
    assert action_words(Deploy("r1"), s) == "Guns: deploy"
    deployed = to_phase(battle(r1=attrs.evolve(gun, limbered=False)), "C")
    with pytest.raises(IllegalActionError, match="already deployed"):
        TURN.step(deployed, Deploy("r1"))
    assert action_words(Limber("r1"), deployed) == "Guns: limber"


def test_a_retiring_move_says_it_retires_and_how_far() -> None:
    """Rules - Movement note (d): retiring keeping its facing deducts 3" foot, 6" mounted; the
    event says the unit retires, how far it went and what of its allowance it used: the
    foot 3" back (6" of its 6"), the dragoons 9" back (15" of their 15")."""
    s = to_phase(battle(), "C")
    _, events = TURN.step(s, Move("r1", MovePlan(legs=(Leg(3),), retiring=True)))
    assert events[0].text == ('Foot retires 3", keeping its facing (using 6" of its 6", '
                              '3" of it for retiring)')
    _, events = TURN.step(s, Move("r2", MovePlan(legs=(Leg(9),), retiring=True)))
    assert events[0].text == ('Dragoons retires 9", keeping its facing (using 15" of its '
                              '15", 6" of it for retiring)')


def test_generals_move_and_join_units() -> None:
    """Generals/Couriers move 21" (half with a light wound) and may join a unit; a general with
    the unit adds to its morale tests."""
    s = to_phase(battle(), "C")
    assert MoveGeneral("rb") in TURN.legal_actions(s)
    assert MoveGeneral("rb", 0.0, "r2") in TURN.legal_actions(s)
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
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveGeneral("rb", 5, "b1"))  # not his side's unit


def test_highland_charge_needs_no_order() -> None:
    """Battles of the '45 with command and control: a Highland charge is a compulsory move:
    it needs no order, takes none, and the move cannot end before it is made."""
    clan = Unit(
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
    assert HighlandChargeMove("r1") in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="Highland"):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="compulsory"):
        TURN.step(s, Order("rb", "r1"))
    s, events = TURN.step(s, HighlandChargeMove("r1"))
    assert events[0].rule.endswith("Battles of the 45")
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "D"


def test_standing_still_and_the_end_of_c() -> None:
    """Move Sequence C: a unit may stand; the end of C clears the phase's record and the failed
    commanders; the orders last the move (W6: an ordered unit may still charge in F)."""
    s = to_phase(battle(options=Options(command_control=True)), "C")
    for seed in range(40):
        s2 = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed))
        ordered, _ = TURN.step(s2, Order("rb", "r1"))
        if "r1" in ordered.extra.ordered:
            break
    stood, events = TURN.step(ordered, Move("r1"))
    assert events[0].text == "Foot holds its position" and "r1" in stood.extra.done
    d, _ = TURN.step(stood, EndPhase())
    assert d.phase == "D" and d.extra.ordered == {"r1"} and not d.extra.failed
    assert not d.extra.done


def town_battle(seed: int = 1) -> State:
    """Phase C with a small stone farm and a large wooden house."""
    s = battle(seed)
    works = (
        Defence.new(Work.SMALL_STONE_BUILDING, "farm"),
        Defence.new(Work.LARGE_WOODEN_BUILDING, "house"),
        Defence.new(Work.TIMBER_FIELDWORK, "fw"),
    )
    s = with_extra(s, works=works)
    extra_foot = Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS)
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
