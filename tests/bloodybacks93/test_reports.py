"""Bloodybacks 9.3, Morale: Push Back and Rout moves; Risk to commanders: the moves and risks
that follow a result in the turn, reported through the step's log (reports.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.melee import Fate
from smoothbore.bloodybacks93.morale import TestResult, apply_result
from smoothbore.bloodybacks93.reports import fate_after_test, retire, retire_after_test, risk
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType
from smoothbore.core import Event, Log, SamplingDice

from .oracle import AV_FACES, D12_FACES, totals
from .turn_setup import COMMANDERS, UNITS, start

FOOT = Unit("f", "Foot", BRITISH, quality=3, density=6)
HORSE = Unit("h", "Horse", BRITISH, kind=UnitType.CAVALRY, quality=3, density=6)


def _retire(units: tuple[Unit, ...], fates: tuple[Fate, ...], seed: int) -> tuple[Event, ...]:
    log = Log(SamplingDice(seed))
    retire(log, units, fates)
    return log.events
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
        assert _retire((after,), (Fate.DESTROYED,), 0) == ()
    routed = attrs.evolve(GUNS, formation=Formation.LIMBERED, routing=True)
    assert _retire((routed,), (Fate.ROUTS,), 0) == ()


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
        (event,) = _retire((unit,), (fate,), seed)
        distance = event.rolls[0].outcome
        assert distance in possible and f'{distance}"' in event.text
        assert event.kind == "retire" and "Morale" in event.rule
        seen.add(distance)
    assert seen == possible
    assert _retire((unit,), (Fate.HOLDS,), 0) == ()


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
        log = Log(SamplingDice(seed))
        new = risk(state, log, (before,), (after,), melee=melee)
        (event,) = log.events
        roll = event.rolls[0].outcome
        assert roll in D12_FACES and event.subject == "cb"
        hit = roll <= losses
        assert ("struck" in event.text) == hit
        assert (new.commander("cb").constitution < 9) == hit
        struck += hit
    assert 0 < struck < 60
    untouched = attrs.evolve(state, commanders=COMMANDERS)
    quiet = Log(SamplingDice(0))
    assert risk(untouched, quiet, (before,), (after,)) == untouched
    assert risk(state, quiet, (before,), (before,)) == state
    assert quiet.events == ()


@pytest.mark.parametrize(("result", "why"), [
    (TestResult.PUSHED_BACK, "deployed guns pushed back are destroyed"),
    (TestResult.ROUT, "routing guns are destroyed"),
])
def test_guns_lost_after_a_test_are_reported(result: TestResult, why: str) -> None:
    """Morale: Push Back move "(deployed artillery destroyed)"; Rout move "Artillery
    destroyed": a test out of melee that destroys guns says so, with no move rolled (B45)."""
    log = Log(SamplingDice(0))
    retire_after_test(log, apply_result(GUNS, result), result)
    (event,) = log.events
    assert event.kind == "retire" and why in event.text and event.rolls == ()
    quiet = Log(SamplingDice(0))
    retire_after_test(quiet, apply_result(FOOT, TestResult.CARRY_ON), TestResult.CARRY_ON)
    assert quiet.events == ()
