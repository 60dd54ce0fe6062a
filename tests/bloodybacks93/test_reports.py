"""Bloodybacks 9.3, Morale: Push Back and Rout moves; Risk to commanders: the moves and risks
that follow a result in the turn (reports.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.melee import Fate
from smoothbore.bloodybacks93.morale import TestResult, apply_result
from smoothbore.bloodybacks93.reports import fate_after_test, move_events, risk_events
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType
from smoothbore.core import SamplingDice

from .oracle import AV_FACES, D12_FACES, totals
from .turn_setup import COMMANDERS, UNITS, start

FOOT = Unit("f", "Foot", BRITISH, quality=3, density=6)
HORSE = Unit("h", "Horse", BRITISH, kind=UnitType.CAVALRY, quality=3, density=6)
GUNS = Unit("g", "Guns", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3,
            formation=Formation.UNLIMBERED)


@pytest.mark.parametrize(
    ("result", "fate"),
    [
        (TestResult.DESTROYED, Fate.DESTROYED),
        (TestResult.ROUT, Fate.ROUTS),
        (TestResult.PUSHED_BACK, Fate.FALLS_BACK),
        (TestResult.CARRY_ON, Fate.HOLDS),
    ],
)
def test_fate_after_a_test_out_of_melee(result: TestResult, fate: Fate) -> None:
    """Morale: results table: 0 successes destroy, 1 routs, 2 push back, 3 carry on."""
    assert fate_after_test(apply_result(FOOT, result), result) is fate


def test_a_pushed_back_gun_is_destroyed_not_moved() -> None:
    """Morale: Push Back move: deployed artillery is destroyed; Rout move: artillery is
    destroyed (no move either way)."""
    for result in (TestResult.PUSHED_BACK, TestResult.ROUT):
        after = apply_result(GUNS, result)
        assert fate_after_test(after, result) is Fate.DESTROYED
        assert move_events((after,), (Fate.DESTROYED,), SamplingDice(0)) == ()
    routed = attrs.evolve(GUNS, formation=Formation.LIMBERED, routing=True)
    assert move_events((routed,), (Fate.ROUTS,), SamplingDice(0)) == ()


@pytest.mark.parametrize(
    ("unit", "fate", "dice", "plus"),
    [
        (FOOT, Fate.FALLS_BACK, 2, 0),  # push back 2dAv"
        (HORSE, Fate.FALLS_BACK, 2, 0),
        (FOOT, Fate.ROUTS, 1, 6),  # infantry rout 6" + dAv
        (HORSE, Fate.ROUTS, 1, 12),  # cavalry rout 12" + dAv
    ],
)
def test_push_back_and_rout_moves(unit: Unit, fate: Fate, dice: int, plus: int) -> None:
    """Morale: Push Back move 2dAv"; Rout move infantry 6"+dAv, cavalry 12"+dAv: every
    distance rolled is one the average dice can give, and over many rolls every one of them
    comes up."""
    possible = set(totals(AV_FACES, dice, plus))
    seen = set()
    for seed in range(300):
        (event,) = move_events((unit,), (fate,), SamplingDice(seed))
        distance = event.rolls[0].outcome
        assert distance in possible and f'{distance}"' in event.text
        assert event.kind == "retire" and "Morale" in event.rule
        seen.add(distance)
    assert seen == possible
    assert move_events((unit,), (Fate.HOLDS,), SamplingDice(0)) == ()


@pytest.mark.parametrize(("melee", "losses"), [(False, 2), (True, 1)])
def test_risk_counts_the_losses_taken(melee: bool, losses: int) -> None:
    """Risk to commanders: an attached commander is struck on a d12 at or under the losses.
    A shooting that gives a DRP and a stamina loss is 2 losses; a melee loss (a stamina loss
    with its DRP) is 1 (B31). A commander not attached rolls nothing."""
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(start(), commanders=(webster, COMMANDERS[1]))
    before = UNITS[0]
    after = attrs.evolve(before, disruption=1, stamina_losses=1)
    struck = 0
    for seed in range(60):
        new, events = risk_events(state, (before,), (after,), SamplingDice(seed), melee=melee)
        (event,) = events
        roll = event.rolls[0].outcome
        assert roll in D12_FACES and event.subject == "cb"
        hit = roll <= losses
        assert ("struck" in event.text) == hit
        assert (new.commander("cb").constitution < 9) == hit
        struck += hit
    assert 0 < struck < 60
    untouched = attrs.evolve(state, commanders=COMMANDERS)
    assert risk_events(untouched, (before,), (after,), SamplingDice(0)) == (untouched, ())
    assert risk_events(state, (before,), (before,), SamplingDice(0)) == (state, ())
