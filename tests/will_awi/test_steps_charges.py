"""Rules - Move Sequence F to I and K (steps_charges): charges, charged tests, contact and
second cavalry charges."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi.actions import (
    CompulsoryMove,
    Contact,
    CounterCharge,
    DeclareCharge,
    EndPhase,
    Entering,
    Evade,
    Order,
    ResolveMelee,
    SecondCharges,
    TestCharged,
)
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts, Face
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.state import with_extra
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status, TroopType, Unit

from .turn_helpers import battle, charge_state, to_phase, with_options


def test_charge_through_melee_and_second_charge() -> None:
    """F-K: declare, test, counter/rout, contact, melee, second cavalry charge."""
    routed = fought = second = False
    for seed in range(60):
        s = charge_state(seed)
        result = s.extra.tests[0].result
        s, _ = TURN.step(s, EndPhase())  # H
        if result is ChargedResult.COUNTER_CHARGE:
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            s, _ = TURN.step(s, CounterCharge("b2", True))
        s, _ = TURN.step(s, EndPhase())  # I
        if result is ChargedResult.ROUTS:
            routed = True
            assert s.unit("b2").routing and s.unit("b2").strength == 4
            s, _ = TURN.step(s, Contact("r2", False))
        s, _ = TURN.step(s, EndPhase())  # J
        if result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            s, events = TURN.step(s, ResolveMelee("b2"))
            fought = True
            assert any(e.kind == "melee" for e in events)
        s, _ = TURN.step(s, EndPhase())  # K
        assert s.phase == "K"
        if "r2" in s.extra.winners and s.unit("r2").on_table and not s.unit("r2").shaken:
            s, _ = TURN.step(s, SecondCharges())
            assert s.phase == "F" and s.extra.second_round
            with pytest.raises(IllegalActionError):
                TURN.step(s, DeclareCharge("r1", "b1", 1.0))
            second = True
        else:
            with pytest.raises(IllegalActionError):
                TURN.step(s, SecondCharges())
    assert routed and fought and second


def test_routing_target_tests_surrender_once() -> None:
    """Charging: an already routing unit that is charged may surrender (4+ foot), otherwise
    routs on and loses 1 SP: one surrender roll, at its test, none again at contact."""
    routing = Unit("b2", "Militia", "blue", TroopType.MILITIA, status=Status.ROUTING)
    outcomes = set()
    for seed in range(20):
        s = to_phase(battle(seed, b2=routing), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 2.0))
        s, _ = TURN.step(s, EndPhase())
        s, events = TURN.step(s, TestCharged("b2"))
        (face,) = events[0].rolls[0].faces
        surrendered = face >= 4
        outcomes.add(surrendered)
        assert (s.unit("b2").status is Status.SURRENDERED) is surrendered
        if not surrendered:
            assert s.unit("b2").strength == 4 and s.unit("b2").routing
        s = to_phase(s, "I")
        s, events = TURN.step(s, Contact("r1", not surrendered))
        assert not any(e.rolls for e in events)
    assert outcomes == {True, False}


def test_end_of_move_alternates() -> None:
    """K ends the move: the other side moves; the turn counts up after both."""
    s = to_phase(battle(), "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.extra.moving == "blue" and s.phase == "A" and s.turn == 1
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.extra.moving == "red" and s.turn == 2


def test_declare_once_and_one_set_of_facts() -> None:
    """Rules - Charging: a unit declares one charge, within its reach (3" infantry, 6"
    cavalry); the units charging one target share its position facts."""
    s = to_phase(battle(), "F")
    with pytest.raises(IllegalActionError):
        TURN.step(s, DeclareCharge("r1", "b1", 3.5))
    s, events = TURN.step(s, DeclareCharge("r1", "b1", 3.0))
    assert events[0].text == "Foot charges Continentals"
    with pytest.raises(IllegalActionError, match="already declared"):
        TURN.step(s, DeclareCharge("r1", "b2", 1.0))
    with pytest.raises(IllegalActionError, match="position facts"):
        TURN.step(s, DeclareCharge("r2", "b1", 6.0, facts=ChargeFacts(Face.FLANK)))
    s, _ = TURN.step(s, DeclareCharge("r2", "b1", 6.0))
    assert [c.charger for c in s.extra.charges] == ["r1", "r2"]


def test_every_charged_unit_tests_before_h() -> None:
    """Move Sequence G: each charged unit tests (once) before counter-charges are chosen."""
    s = to_phase(battle(), "F")
    s, _ = TURN.step(s, DeclareCharge("r1", "b1", 2.0))
    s, _ = TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="must test"):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, TestCharged("b2"))  # not charged
    s, _ = TURN.step(s, TestCharged("b1"))
    with pytest.raises(IllegalActionError):
        TURN.step(s, TestCharged("b1"))
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "H"


def test_counter_charge_only_below_zero_and_evade_only_as_option() -> None:
    """Rules - Charging: only a unit that scored below zero may counter-charge; evading (open
    order foot or cavalry that did not rout) is an option not in the text, off by default."""
    rangers = Unit("b2", "Rangers", "blue", TroopType.LIGHT_INFANTRY)
    for seed in range(60):
        s = to_phase(battle(seed, b2=rangers), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 2.0))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b2"))
        result = s.extra.tests[0].result
        s, _ = TURN.step(s, EndPhase())
        if result is ChargedResult.STANDS:
            with pytest.raises(IllegalActionError, match="below zero"):
                TURN.step(s, CounterCharge("b2", True))
            with pytest.raises(IllegalActionError, match="option"):
                TURN.step(s, Evade("b2"))
            evading = with_options(s, evade=True)
            after, events = TURN.step(evading, Evade("b2"))
            assert after.extra.tests[0].evaded and events[0].text == "Rangers evades"
            return
    raise AssertionError("no charged unit stood")


def test_contact_with_a_routed_target() -> None:
    """Move Sequence I and Rules - Charging: a target that routed at its test and is still
    within charge reach is met in contact; it only just routed, so it is not an "already
    routing unit" of Surrender (b): no roll, it does not surrender and does not fight; out
    of reach, the charger takes its ground without a roll."""
    seen = 0
    for seed in range(80):
        s = charge_state(seed)
        if s.extra.tests[0].result is not ChargedResult.ROUTS:
            continue
        seen += 1
        s = to_phase(s, "I")
        with pytest.raises(IllegalActionError):
            TURN.step(s, EndPhase())
        after, events = TURN.step(s, Contact("r2", True))
        assert not any(e.rolls for e in events)
        assert after.unit("b2").routing
        assert events[0].text == (
            "Dragoons is in contact with Militia, which is routing and does not fight")
        assert after.extra.charges[0].contact
        away, events = TURN.step(s, Contact("r2", False))
        assert not events[0].rolls
        assert events[0].text == "Dragoons moves onto the ground its target left"
        assert away.unit("b2").routing
        assert set(TURN.legal_actions(s)) == {Contact("r2", False), Contact("r2", True)}
        after, _ = TURN.step(after, EndPhase())
        assert after.phase == "J"
    assert seen


def test_charger_taking_a_building_needs_room() -> None:
    """Move Sequence I and Rules - Terrain: Buildings: a charger whose routed target is out of
    reach moves to the target's place; if that is a building, the charger must be able to
    enter it (not mounted: NA) and find room."""
    house = Defence.new(Work.LARGE_STONE_BUILDING, "house")
    grenadiers = Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS)
    for seed in range(80):
        s = to_phase(battle(seed, r3=grenadiers), "F")
        s = with_extra(s, works=(house,))
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 3.0))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b2"))
        if s.extra.tests[0].result is not ChargedResult.ROUTS:
            continue
        s = to_phase(s, "I")
        after, events = TURN.step(s, Contact("r1", False, Entering("house")))
        assert events[0].text == "Foot occupies the stone building 100x100mm its target left"
        assert not events[0].rolls and after.extra.charges[0].contact
        with pytest.raises(IllegalActionError, match="holds 2 units"):
            TURN.step(s, Contact("r1", False, Entering("house", ("r2", "r3"))))
        return
    raise AssertionError("no charged unit routed")


def test_only_a_routed_target_can_still_be_in_reach() -> None:
    """Rules - Charging: the charger moves into contact with a target still within charge
    reach, or to its original position if it routed or evaded out of reach: a target that
    evaded (W23) or surrendered is never caught in reach; only the move to its place is
    offered."""
    rangers = Unit("b2", "Rangers", "blue", TroopType.LIGHT_INFANTRY)
    seen = set()
    for seed in range(80):
        s = to_phase(battle(seed, Options(evade=True), b2=rangers), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 3.0))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b2"))
        result = s.extra.tests[0].result
        if result is ChargedResult.ROUTS:
            continue
        s = to_phase(s, "H")
        if s.unit("b2").on_table:
            s, _ = TURN.step(s, Evade("b2"))
        s = to_phase(s, "I")
        seen.add(result)
        assert TURN.legal_actions(s) == (Contact("r1", False),)
        with pytest.raises(IllegalActionError, match="only a routed target"):
            TURN.step(s, Contact("r1", True))
    assert ChargedResult.STANDS in seen


def test_a_unit_that_retired_in_b_does_not_charge() -> None:
    """W48: Move Sequence B moves the units that must rout or retire, C "all other units";
    a charge is a move too, so a unit that retired in B this move does not charge in F."""
    s = attrs.evolve(battle(r1=Unit("r1", "Foot", "red", TroopType.LINE, must_retire=True)),
                     phase="B")
    s, _ = TURN.step(s, CompulsoryMove("r1"))
    s = to_phase(s, "F")
    assert not any(isinstance(a, DeclareCharge) and a.charger == "r1"
                   for a in TURN.legal_actions(s))
    with pytest.raises(IllegalActionError, match="compulsory move in B"):
        TURN.step(s, DeclareCharge("r1", "b1", 3.0))
    assert DeclareCharge("r2", "b1", 6.0) in TURN.legal_actions(s)


def test_with_command_and_control_only_ordered_units_charge() -> None:
    """W6: with command and control, a unit without an order (or a passed independent test)
    this move stays where it is: it does not charge either."""
    s = to_phase(battle(options=Options(command_control=True)), "C")
    for seed in range(40):
        tried = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed))
        ordered, _ = TURN.step(tried, Order("rb", "r2"))
        if "r2" in ordered.extra.ordered:
            break
    f = to_phase(ordered, "F")
    chargers = {a.charger for a in TURN.legal_actions(f) if isinstance(a, DeclareCharge)}
    assert chargers == {"r2"}
    with pytest.raises(IllegalActionError, match="no order"):
        TURN.step(f, DeclareCharge("r1", "b1", 3.0))
    TURN.step(f, DeclareCharge("r2", "b1", 6.0))


def test_an_already_routing_target_routs_on() -> None:
    """Rules - Charging: "already routing units may surrender, but otherwise they
    automatically rout and lose 1 strength point": the narration says it routs on."""
    routing = Unit("b2", "Militia", "blue", TroopType.MILITIA, status=Status.ROUTING)
    for seed in range(20):
        s = to_phase(battle(seed, b2=routing), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 2.0))
        s, _ = TURN.step(s, EndPhase())
        s, events = TURN.step(s, TestCharged("b2"))
        if s.unit("b2").routing:
            assert events[0].text == (
                "Militia does not surrender and routs on, losing 1 strength point"
            )
            return
    raise AssertionError("always surrendered")
