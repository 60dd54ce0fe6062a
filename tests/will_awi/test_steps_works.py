"""Works in the sequence (steps_works): Field Engineering and demolition charges in C, guns
bombarding works and demolitions going off in E (Rules - Fortifications and Fieldworks)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import (
    Bombard,
    Detonate,
    EndPhase,
    Engineer,
    LayCharge,
    Move,
    MoveAway,
)
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.fortifications import Defence, Demolition, Work
from smoothbore.will_awi.morale import morale_total
from smoothbore.will_awi.state import State, with_extra
from smoothbore.will_awi.steps_works import bombard_range
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status, TroopType, Unit

from .turn_helpers import next_own_move, to_phase, works_battle


def test_field_engineering_in_c() -> None:
    """Field Engineering in the move: dismantle 1 a move; close order infantry only, with a
    wagon's tools; only fieldworks are built."""
    s = to_phase(works_battle(), "C")
    legal = TURN.legal_actions(s)
    assert Engineer("r1", "fw") in legal and Engineer("r1", "fw", build=True) not in legal
    s2, _ = TURN.step(s, Engineer("r1", "fw"))
    assert next(w for w in s2.extra.works if w.id == "fw").points == 5
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r2", "fw"))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r1", "fw", has_tools=False))
    with pytest.raises(IllegalActionError, match="complete"):
        TURN.step(s, Engineer("r1", "fw", build=True))
    farm = with_extra(s, works=(Defence.new(Work.SMALL_WOODEN_BUILDING, "farm"),))
    with pytest.raises(IllegalActionError, match="not a fieldwork"):
        TURN.step(farm, Engineer("r1", "farm", build=True))
    assert Engineer("r1", "farm", build=True) not in TURN.legal_actions(farm)
    TURN.step(farm, Engineer("r1", "farm"))


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


def test_demolition_over_moves() -> None:
    """Demolition: lay a charge in each movement phase (one per phase, a wagon's 6 at most),
    move away in a later one, and the charges go off in that move's firing phase with 2d6
    plus 1d6 for each charge after the first."""
    grenadiers = Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS)
    s = to_phase(works_battle(3, r3=grenadiers), "C")
    assert LayCharge("r1", "fw") in TURN.legal_actions(s)
    s, events = TURN.step(s, LayCharge("r1", "fw"))
    assert events[0].text == ("Foot lays a demolition charge at the timber fieldwork (per "
                              "100mm); Wagon has 5 of its 6 charges left")
    with pytest.raises(IllegalActionError, match="already moved"):
        TURN.step(s, MoveAway("r1"))  # laying took the move
    s = next_own_move(s)
    assert [a for a in TURN.legal_actions(s) if isinstance(a, LayCharge)
            and a.unit == "r1"] == [LayCharge("r1", "fw")]
    with pytest.raises(IllegalActionError, match="elsewhere"):
        TURN.step(s, LayCharge("r1", "rd"))
    with pytest.raises(IllegalActionError, match="under way"):
        TURN.step(s, LayCharge("r3", "fw"))
    s, events = TURN.step(s, LayCharge("r1", "fw"))
    assert events[0].text == ("Foot lays demolition charge 2 at the timber fieldwork (per "
                              "100mm); Wagon has 4 of its 6 charges left")
    assert s.extra.charges_drawn == (("r9", 2),)
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(s, "E"), Detonate("fw"))  # not moved away yet
    s = next_own_move(s)
    assert MoveAway("r1") in TURN.legal_actions(s)
    s, events = TURN.step(s, MoveAway("r1"))
    assert events[0].text == "Foot moves away from the charges at the timber fieldwork (per 100mm)"
    assert LayCharge("r1", "fw") not in TURN.legal_actions(s)
    s = to_phase(s, "E")
    s, events = TURN.step(s, Detonate("fw", frozenset({"b1"})))
    assert events[0].kind == "demolition" and len(events[0].rolls) == 1
    assert len(events[0].rolls[0].faces) == 3
    assert events[1].subject == "b1" and len(events[1].rolls) == 1
    assert not s.extra.demolitions


def test_a_wagon_holds_six_charges() -> None:
    """Demolition: 1 wagon holds 6 charges: a seventh is not laid."""
    s = to_phase(works_battle(), "C")
    s = with_extra(s, demolitions=(Demolition("fw", "r1", 6),))
    assert LayCharge("r1", "fw") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="holds 6 charges"):
        TURN.step(s, LayCharge("r1", "fw"))
    assert MoveAway("r1") in TURN.legal_actions(s)


def test_a_wagon_holds_six_charges_across_demolitions() -> None:
    """Demolition: "1 wagon can hold 6 charges", counted over the battle: red's wagon has
    supplied 5 (at works since blown); the foot lays a first charge at the fieldwork from
    it, the wagon's last (the event says so). A wagon that has supplied all 6 supplies no
    seventh: not offered, refused naming the rule; a second wagon at hand supplies it, and
    its tools still serve."""
    s = with_extra(to_phase(works_battle(), "C"), charges_drawn=(("r9", 5),))
    after, events = TURN.step(s, LayCharge("r1", "fw"))
    assert events[0].text == ("Foot lays a demolition charge at the timber fieldwork (per "
                              "100mm); Wagon has 0 of its 6 charges left")
    assert after.extra.charges_drawn == (("r9", 6),)
    empty = with_extra(s, charges_drawn=(("r9", 6),))
    assert LayCharge("r1", "fw") not in TURN.legal_actions(empty)
    assert Engineer("r1", "fw") in TURN.legal_actions(empty)
    with pytest.raises(IllegalActionError, match="every wagon at hand has supplied its 6") as no:
        TURN.step(empty, LayCharge("r1", "fw"))
    assert no.value.rule == rules.DEMOLITION
    second = Unit("r8", "Second wagon", "red", TroopType.WAGON)
    two = with_extra(to_phase(works_battle(r8=second), "C"), charges_drawn=(("r9", 6),))
    assert LayCharge("r1", "fw") in TURN.legal_actions(two)
    after, events = TURN.step(two, LayCharge("r1", "fw"))
    assert events[0].text.endswith("Second wagon has 5 of its 6 charges left")
    assert after.extra.charges_drawn == (("r8", 1), ("r9", 6))


def test_engineering_and_demolition_need_a_wagon() -> None:
    """Field Engineering: "1 wagon can hold enough tools for 1 close order infantry unit";
    Demolition: "1 wagon can hold 6 charges" (W35, W36): with no wagon of its side the foot
    neither works nor mines (not offered, refused naming the rule); with one, it may."""
    s = to_phase(works_battle(wagon=False), "C")
    legal = TURN.legal_actions(s)
    assert not any(isinstance(a, (Engineer, LayCharge)) for a in legal)
    for action, rule in ((Engineer("r1", "fw"), rules.FIELD_ENGINEERING),
                         (LayCharge("r1", "fw"), rules.DEMOLITION)):
        with pytest.raises(IllegalActionError, match="no wagon of its side") as refused:
            TURN.step(s, action)
        assert refused.value.rule == rule
    with_wagon = to_phase(works_battle(), "C")
    assert {Engineer("r1", "fw"), LayCharge("r1", "fw")} <= set(TURN.legal_actions(with_wagon))


def test_only_close_order_infantry_lay_a_wagons_charges() -> None:
    """Demolition (W36): the wagon's charges are laid by close order infantry, as its tools
    are used: the dragoons and a gun crew are refused, and not offered."""
    gunners = Unit("r5", "Royal Artillery", "red", TroopType.LIGHT_GUN)
    s = to_phase(works_battle(r5=gunners), "C")
    legal = TURN.legal_actions(s)
    for unit in ("r2", "r5"):
        assert LayCharge(unit, "fw") not in legal
        with pytest.raises(IllegalActionError, match="only close order infantry"):
            TURN.step(s, LayCharge(unit, "fw"))


def test_one_wagon_serves_one_unit_a_move() -> None:
    """Field Engineering: a wagon's tools are for 1 unit: once the foot has drawn on red's
    only wagon this move, the grenadiers have none; a second wagon serves them."""
    grenadiers = Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS)
    s = to_phase(works_battle(r3=grenadiers), "C")
    s, _ = TURN.step(s, Engineer("r1", "fw"))
    assert Engineer("r3", "rd") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="no wagon"):
        TURN.step(s, Engineer("r3", "rd"))
    second = Unit("r8", "Second wagon", "red", TroopType.WAGON)
    s = to_phase(works_battle(r3=grenadiers, r8=second), "C")
    s, _ = TURN.step(s, Engineer("r1", "fw"))
    TURN.step(s, Engineer("r3", "rd"))


def ready(seed: int) -> State:
    """Phase E with the Foot's single charge at the fieldwork ready to go off."""
    s = to_phase(works_battle(seed), "C")
    s = with_extra(s, demolitions=(Demolition("fw", "r1"),))
    s, _ = TURN.step(s, MoveAway("r1"))
    return to_phase(s, "E")


def test_demolition_goes_off_in_the_firing_phase() -> None:
    """Demolition: the charge is tested in the firing phase after moving away: phase E cannot
    end before it goes off; 2d6 greater than the work's 6 points destroys it."""
    s = ready(4)
    with pytest.raises(IllegalActionError, match="goes off"):
        TURN.step(s, EndPhase())
    assert Detonate("fw") in TURN.legal_actions(s)
    assert Detonate("fw", frozenset({"b2"})) in TURN.legal_actions(s)
    s, events = TURN.step(s, Detonate("fw"))
    destroyed = sum(events[0].rolls[0].faces) > 6
    assert (next(w for w in s.extra.works if w.id == "fw").points == 0) is destroyed
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "F"


def test_a_unit_shaken_by_the_blast_is_told_so() -> None:
    """Demolition: a unit within the blast takes 2d6 "as if firing": 7+ a strength point, a
    score above its basic morale shakes it, and the narration says it is shaken; the state
    follows the faces."""
    shaken_seen = False
    for seed in range(60):
        s = ready(seed)
        after, events = TURN.step(s, Detonate("fw", frozenset({"b2"})))
        blast = events[1]
        score = sum(blast.rolls[0].faces)
        militia = s.unit("b2")
        morale = morale_total(militia, militia.strength - (1 if score >= 7 else 0))
        shaken = score > morale
        assert after.unit("b2").shaken is shaken
        texts = [e.text for e in events]
        assert ("Militia is shaken by the blast" in texts) is shaken
        if shaken:
            event = next(e for e in events if e.text == "Militia is shaken by the blast")
            assert event.kind == "shaken" and event.rule == rules.DEMOLITION
            shaken_seen = True
    assert shaken_seen


def test_blast_on_a_removed_unit_is_refused() -> None:
    """Demolition: the units measured within the blast must be on the table."""
    s = ready(1)
    gone = s.with_units(attrs.evolve(s.unit("b2"), strength=0, status=Status.ELIMINATED))
    with pytest.raises(IllegalActionError, match="no longer on the table"):
        TURN.step(gone, Detonate("fw", frozenset({"b2"})))
    assert Detonate("fw", frozenset({"b2"})) not in TURN.legal_actions(gone)


def test_bombard_in_e() -> None:
    """Guns firing ball damage works; canister and muskets do not; a gun fires once."""
    s = to_phase(works_battle(), "E")
    assert bombard_range(s.unit("b3")) == 18.0  # light guns: the middle of 12-24"
    assert Bombard("b3", "rd", FireFacts(18.0)) in TURN.legal_actions(s)
    after, events = TURN.step(s, Bombard("b3", "rd", FireFacts(20)))
    assert events[0].text.startswith("Guns bombards the earth and timber redoubt:")
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(after, Bombard("b3", "fw", FireFacts(20)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b3", "rd", FireFacts(10)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b1", "rd", FireFacts(5)))
    flat = with_extra(s, works=(Defence(Work.REDOUBT, 0, id="rd"),))
    with pytest.raises(IllegalActionError, match="nothing is left"):
        TURN.step(flat, Bombard("b3", "rd", FireFacts(20)))


def test_works_steps_need_a_mover() -> None:
    """C: working and laying charges are a unit's move: not for a unit that has moved."""
    s = to_phase(works_battle(), "C")
    s, _ = TURN.step(s, Move("r1"))
    for action in (Engineer("r1", "fw"), LayCharge("r1", "fw")):
        with pytest.raises(IllegalActionError, match="already moved"):
            TURN.step(s, action)


def test_a_bombardment_fires_on_the_facts_its_check_measured() -> None:
    """Engine contract v2: the check of a bombardment gives the fire's facts (its ruling),
    which the handler fires on (the range given: 18", the middle of a light gun's 12-24")."""
    s = to_phase(works_battle(), "E")
    _, ruling = TURN.rule_on(s, Bombard("b3", "rd", FireFacts(18.0)))
    assert ruling == FireFacts(18.0)
    after, events = TURN.step(s, Bombard("b3", "rd", FireFacts(18.0)))
    assert events[0].text.startswith("Guns bombards the earth and timber redoubt:")
    assert "b3" in after.extra.fired
