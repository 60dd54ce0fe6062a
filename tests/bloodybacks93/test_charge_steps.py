"""Bloodybacks 9.3, Charges and melee: the charge in the turn (charge_steps.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.movement import MoveFacts, Terrain
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.sequence import RED, Card
from smoothbore.bloodybacks93.turn import (
    DEFERRED,
    Activated,
    Charge,
    EndActivation,
    EndTurn,
    ResolveDeferred,
    legal_actions,
    step,
)
from smoothbore.bloodybacks93.units import (
    Formation,
)
from smoothbore.core import IllegalActionError

from .turn_setup import COMMANDERS, UNITS, active


def test_charge_and_deferred_melee() -> None:
    """Charges and melee; Sequence of Play: deferred melees are resolved at the end."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    deferred, events = step(state, Charge(("b1",), ("a1",), defer=True))
    assert deferred.extra.deferred and events[-1].kind == "charge"
    ended, _ = step(deferred, EndActivation())
    assert ended.phase == DEFERRED
    with pytest.raises(IllegalActionError, match="deferred"):
        step(ended, EndTurn())
    resolved, events = step(ended, ResolveDeferred())
    assert events[0].kind == "melee" and not resolved.extra.deferred
    for seed in range(10):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        fought, events = step(trial, Charge(("b1",), ("a1",)))
        assert events[0].kind == "melee" and "impetus" in events[0].text
        before, after = trial.unit("a1"), fought.unit("a1")
        hurt = after.stamina_losses > before.stamina_losses
        # Risk to commanders: Stevens is attached to a1, so its losses put him at risk
        assert hurt == any(e.kind == "risk" and e.subject == "ca" for e in events)
        for event in events:
            if event.kind == "risk":
                # one melee loss is a stamina loss with its DRP: counted once
                losses = after.stamina_losses - before.stamina_losses
                assert ("struck" in event.text) == (event.rolls[0].outcome <= losses)


def test_skirmishers_must_evade() -> None:
    """Evade: density 3 infantry charged in the open by density 5+ infantry must evade."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError, match="must evade"):
        step(state, Charge(("b1",), ("a2",), evade=False))
    after, events = step(state, Charge(("b1",), ("a2",)))
    assert events[0].kind == "evade"
    assert after.unit("a2").disruption >= 1 or after.unit("a2").destroyed


def test_pursuit_follows_a_rout() -> None:
    """Charges and melee: Pursuit: routed defenders can be pursued by the winners."""
    weak = attrs.evolve(UNITS[3], quality=1, disruption=3)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(*UNITS[:3], weak, UNITS[4]))
    pursued = 0
    for seed in range(30):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, events = step(trial, Charge(("b1",), ("a1",), pursue=True))
        kinds = [e.kind for e in events]
        if after.unit("a1").routing:
            assert "pursuit" in kinds
            pursued += 1
        else:
            assert "pursuit" not in kinds
    assert pursued > 0


def test_charge_needs_the_move_to_reach() -> None:
    """Charges and melee: a unit enters melee only if its move action reaches the enemy;
    the move's spare distance decides whether evaders are caught (Evade)."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    short, events = step(state, Charge(("b1",), ("a1",), distance=8))  # density 5: 7"
    assert [e.kind for e in events] == ["charge move"] and "falls short" in events[0].text
    assert short.unit("a1") == state.unit("a1")
    _, events = step(state, Charge(("b1",), ("a1",), distance=7))
    assert [e.kind for e in events][:2] == ["charge move", "melee"]
    column = attrs.evolve(state, units=tuple(
        attrs.evolve(u, formation=Formation.COLUMN) if u.id == "b1" else u for u in state.units))
    caught = 0
    for seed in range(20):
        trial = attrs.evolve(column, dice=attrs.evolve(column.dice, seed=seed))
        # a column on a road moves 12": 2" to the skirmishers leaves 10" to spare
        after, events = step(trial, Charge(("b1",), ("a2",), distance=2,
                                           ground=MoveFacts(road=True)))
        evade_event = next(e for e in events if e.kind == "evade")
        distance = evade_event.rolls[0].outcome  # 2dAv + quality 3
        assert ("caught" in evade_event.text) == (distance <= 10)
        if distance <= 10:
            assert after.unit("a2").destroyed
        caught += distance <= 10
    assert 0 < caught < 20
    rough = Charge(("b1",), ("a1",), distance=1,
                   ground=MoveFacts(terrain=Terrain.HEAVY_WOODS))
    muddy, _ = step(state, rough)
    assert muddy.unit("b1").disruption >= 1


def test_a_unit_charges_once() -> None:
    """Charges and melee: a unit cannot be named twice in one charge."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 4),))
    with pytest.raises(IllegalActionError, match="once"):
        step(state, Charge(("b1", "b1"), ("a1",)))


def test_commanders_attached_in_the_state_count_in_a_charge() -> None:
    """Determine impetus: +1 d12 when the chargers have a commander attached; Morale:
    Modifiers: +1 to the defender's check to stand when its commander rides with it. The
    turn reads both from the state (Webster attached to b1, Stevens to a1)."""
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         commanders=(webster, COMMANDERS[1]))
    for seed in range(20):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        _, events = step(trial, Charge(("b1",), ("a1",), facts=ChargeFacts(use_cold_steel=False)))
        impetus, *rest = events[0].rolls
        # 4 base dice + 1 for Webster; need 2 x quality 4 = 8
        assert impetus.check == "5d12 at or under 8"
        if impetus.outcome > 3 and rest:
            # Continentals: quality 3 + density 6, -1 per impetus point above 3, +1 Stevens
            assert rest[0].check.startswith(f"3d12 at or under {9 - (impetus.outcome - 3) + 1}")


def test_artillery_may_charge_unless_the_option_forbids() -> None:
    """Charges and melee: a charge is a move that brings a unit into contact with the enemy;
    the text bars no troop type, so guns may charge (B47); option artillery_may_charge=False
    forbids it, naming the rule."""
    state = active(Card(RED, 3), (Activated("b3", "cb", 2),))
    charge = Charge(("b3",), ("a1",))
    assert charge in legal_actions(state)
    after, events = step(state, charge)
    assert events[0].kind == "melee"
    assert after.extra.activated[0].actions == 0  # Action tariff: a charge is 2 points
    barred = attrs.evolve(state, extra=attrs.evolve(
        state.extra, options=Options(artillery_may_charge=False)))
    assert not any(isinstance(a, Charge) for a in legal_actions(barred))
    with pytest.raises(IllegalActionError) as info:
        step(barred, charge)
    assert info.value.rule == "Bloodybacks 9.3, Charges and melee"
    assert "artillery_may_charge" in info.value.why
