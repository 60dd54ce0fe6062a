"""Rules - Move Sequence D and E (phase_firing): facing changes, fire, works, demolitions and
Highland charges."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.options import FORTY_FIVE, Options
from smoothbore.will_awi.sequence import (
    TURN,
    ChangeFacing,
    DeclareCharge,
    EndPhase,
    Fire,
    Move,
)
from smoothbore.will_awi.turn_state import with_extra
from smoothbore.will_awi.units import (
    Nationality,
    Status,
    TroopType,
    WillUnit,
)

from .turn_helpers import battle, next_own_move, to_phase, works_battle


def test_fire_takes_strength_and_shakes() -> None:
    """E: fire takes a point on 7+ and shakes on a score above basic morale. American light
    guns at 10" fire canister (+1); the British line target has morale 5 + 1 = 6, 5 after a
    loss: the state must follow the faces rolled."""
    outcomes = set()
    for seed in range(40):
        s = to_phase(battle(seed), "E")
        after, events = TURN.step(s, Fire("b3", "r1", FireFacts(10)))
        r1 = after.unit("r1")
        outcomes.add((r1.strength, r1.status))
        assert events[0].rolls and events[0].rule.startswith("Will's AWI")
        score = sum(events[0].rolls[0].faces) + 1
        hit = score >= 7
        shaken = score > (5 if hit else 6)
        assert r1.strength == (4 if hit else 5)
        assert r1.status is (Status.SHAKEN if shaken else Status.STEADY)
    assert (4, Status.SHAKEN) in outcomes and (5, Status.STEADY) in outcomes
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(battle(), "E"), Fire("b3", "r1", FireFacts(37)))


def test_each_unit_fires_once() -> None:
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))


def test_facing_change_barred_within_reach() -> None:
    """D: no facing change with an enemy within charge reach of the current front."""
    s = to_phase(battle(), "D")
    TURN.step(s, ChangeFacing("b1", 90, (("r1", 4.0),)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, ChangeFacing("b1", 90, (("r2", 5.0),)))


def test_bombard_in_e() -> None:
    """Guns firing ball damage works; canister and muskets do not."""
    from smoothbore.will_awi.sequence import Bombard

    s = to_phase(works_battle(), "E")
    TURN.step(s, Bombard("b3", "rd", FireFacts(20)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b3", "rd", FireFacts(10)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b1", "rd", FireFacts(5)))


def test_demolition_goes_off_in_the_firing_phase() -> None:
    """Demolition: the charge is tested in the firing phase after moving away: phase E cannot
    end before it goes off."""
    from smoothbore.will_awi.sequence import Detonate, LayCharge, MoveAway

    s = to_phase(works_battle(4), "C")
    s, _ = TURN.step(s, LayCharge("r1", "fw", 1))
    s = next_own_move(s)
    s, _ = TURN.step(s, MoveAway("r1"))
    s = to_phase(s, "E") if s.phase != "E" else s
    while s.phase != "E":
        s, _ = TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="goes off"):
        TURN.step(s, EndPhase())
    assert Detonate("fw") in TURN.legal_actions(s)
    s, events = TURN.step(s, Detonate("fw"))
    faces = events[0].rolls[0].faces
    destroyed = sum(faces) > 6  # 2d6 against the timber fieldwork's 6 points
    assert (next(w for w in s.extra.works if w.id == "fw").points == 0) is destroyed
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "F"


def test_second_charge_target_may_fire() -> None:
    """Second Cavalry Charges (W42): the target may fire at the cavalry if it could not have
    fired in the firing phase (the fact the player measured); one that could have, or that
    fired, may not; units not charged may not fire."""
    s = to_phase(battle(), "F")
    s = attrs.evolve(s, extra=attrs.evolve(s.extra, second_round=True, winners=frozenset({"r2"})))
    s, _ = TURN.step(s, DeclareCharge("r2", "b1", 4.0))
    after, events = TURN.step(s, Fire("b1", "r2", FireFacts(4), could_not_have_fired=True))
    assert "b1" in after.extra.fired
    assert events[0].kind == "fire"
    with pytest.raises(IllegalActionError, match="could have fired"):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("b2", "r2", FireFacts(4), could_not_have_fired=True))
    fired = with_extra(s, fired=frozenset({"b1"}))
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(fired, Fire("b1", "r2", FireFacts(4), could_not_have_fired=True))


def test_second_charge_fire_if_unfired_option() -> None:
    """W42, option ``second_charge_fire_if_unfired``: a target that did not fire in E may fire
    without the player's measurement; one that fired still may not."""
    s = to_phase(battle(options=Options(second_charge_fire_if_unfired=True)), "F")
    s = attrs.evolve(s, extra=attrs.evolve(s.extra, second_round=True, winners=frozenset({"r2"})))
    s, _ = TURN.step(s, DeclareCharge("r2", "b1", 4.0))
    after, _ = TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    assert "b1" in after.extra.fired
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(with_extra(s, fired=frozenset({"b1"})), Fire("b1", "r2", FireFacts(4)))


def test_could_not_have_fired_is_for_second_charges_only() -> None:
    """Second Cavalry Charges: a unit firing in the firing phase (E) could fire in it."""
    s = to_phase(battle(), "E")
    with pytest.raises(IllegalActionError, match="could fire"):
        TURN.step(s, Fire("b1", "r1", FireFacts(4), could_not_have_fired=True))


def test_forty_five_highland_charge_in_the_turn() -> None:
    """Battles of the '45: unshaken highlanders that receive fire test (5-6 in musket range);
    a unit in a Highland charge must make its charge move (1d6 more) in its next move."""
    from smoothbore.will_awi.sequence import HighlandChargeMove

    clan = WillUnit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
    launched = 0
    for seed in range(60):
        s = to_phase(battle(seed, Options(variant=FORTY_FIVE), r1=clan), "E")
        s, events = TURN.step(s, Fire("b1", "r1", FireFacts(5)))
        if s.unit("r1").highland_charge:
            launched += 1
            assert events[-1].kind == "highland"
            s = next_own_move(s)
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            with pytest.raises(IllegalActionError):
                TURN.step(s, Move("r1"))
            s, ev = TURN.step(s, HighlandChargeMove("r1"))
            assert ev[0].rolls and 7 <= int(ev[0].text.split(": ")[1].split('"')[0]) <= 12
    assert 0 < launched < 60


def test_facing_narration() -> None:
    """Changing Facing: a turn of 0° is told as keeping the facing, not as a turn."""
    s = to_phase(battle(), "D")
    _, events = TURN.step(s, ChangeFacing("b1", 0.0))
    assert events[0].text == "Continentals keeps its facing"
    _, events = TURN.step(s, ChangeFacing("b1", 90.0))
    assert events[0].text == "Continentals turns 90°"


def test_fire_narration_tells_the_score() -> None:
    """Rules - Firing: the event says who fired at whom, the modified score rolled and the loss
    it causes (7 or more: 1 strength point)."""
    for seed in range(20):
        s = to_phase(battle(seed), "E")
        _, events = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
        score = events[0].rolls[0].outcome
        assert isinstance(score, int)
        loss = "1 strength point lost" if score >= 7 else "no loss"
        assert events[0].text == f"Continentals fires at Foot, scoring {score}: {loss}"
