"""What follows a test or a loss in the turn, reported through the step's log: the push back
and rout moves of units that fell back or routed, and the risk to commanders attached to units
that took losses (Bloodybacks 9.3, Morale: Push Back and Rout moves; Risk to commanders)."""

from __future__ import annotations

from smoothbore.core import Fact, Log

from . import commanders, morale
from .melee import Fate
from .rules import RULE_MOVES, RULE_RISK
from .state import State, attached_commanders
from .units import Unit


def fate_after_test(after: Unit, result: morale.TestResult) -> Fate:
    """Where a unit goes after a test out of melee: it routs, is pushed back, or stays."""
    if after.destroyed:
        return Fate.DESTROYED
    if after.routing:
        return Fate.ROUTS
    return Fate.FALLS_BACK if result is morale.TestResult.PUSHED_BACK else Fate.HOLDS


Facts = dict[str, Fact]
"""The structured facts an event carries beside its words (``Event.facts``): the test taken
and its result, read with ``event.fact("result")``."""


def test_facts(test: morale.TestOutcome, prefix: str = "") -> Facts:
    """The facts of one morale or cohesion test (Morale): ``test`` (its kind: "morale" or
    "cohesion"), ``need``, ``successes`` and ``result`` ("destroyed", "rout", "pushed back",
    "carry on"), each name after ``prefix`` (a test inside another event: ``morale_``)."""
    return {f"{prefix}test": test.kind.value, f"{prefix}need": test.need,
            f"{prefix}successes": test.successes, f"{prefix}result": test.result.value}


def risk_facts(result: commanders.Risk) -> Facts:
    """The facts of a risk to a commander (Risk to commanders): ``test`` "risk", the
    ``roll``, ``result`` ("unhurt", "struck" or "removed") and the ``wound`` rolled."""
    outcome = ("removed" if result.commander.removed else "struck") if result.struck else (
        "unhurt")
    return {"test": "risk", "roll": result.roll, "result": outcome, "wound": result.wound}


Retreat = tuple[str, Fate, int]
"""A push back or rout move rolled: the unit, its fate and the inches it goes."""
Pursuit = tuple[str, int]
"""A pursuit move rolled: the unit and the inches it goes."""
Moves = tuple[tuple[Retreat, ...], tuple[Pursuit, ...]]
"""The moves after a melee: push backs, routs and falls back, then pursuits."""


def retire(log: Log, units: tuple[Unit, ...], fates: tuple[Fate, ...]) -> tuple[Retreat, ...]:
    """Push back and rout moves of units that fell back or routed (Morale: Push Back move,
    Rout move); artillery has none (it is destroyed), and a unit routing off the table is
    lost, which the players see (on a table, ``situations.retreat`` makes the moves)."""
    moves: list[Retreat] = []
    for unit, fate in zip(units, fates, strict=True):
        if fate is Fate.FALLS_BACK:
            distance = morale.push_back_distance(dice=log.dice)
            text = f'{unit.name} is pushed back {distance}", facing the enemy'
        elif fate is Fate.ROUTS:
            rout = morale.rout_distance(unit, dice=log.dice)
            if rout is None:
                continue
            distance = rout
            text = f'{unit.name} routs {rout}" away from the enemy (lost if that takes it off ' \
                "the table)"
        else:
            continue
        log.add("retire", text, RULE_MOVES, unit.id,
                facts={"move": fate.value, "distance": distance})
        moves.append((unit.id, fate, distance))
    return tuple(moves)


def retire_after_test(
    log: Log, after: Unit, result: morale.TestResult
) -> tuple[Retreat, ...]:
    """The move, if any, of one unit after a test out of melee (B45); guns that are pushed
    back while deployed, or rout, are lost instead, which the players are told."""
    if after.destroyed and result is not morale.TestResult.DESTROYED:
        why = "routing guns are" if result is morale.TestResult.ROUT else (
            "deployed guns pushed back are")
        log.add("retire", f"{after.name} is lost: {why} destroyed", RULE_MOVES, after.id,
                facts={"move": Fate.DESTROYED.value, "result": "lost"})
        return ()
    return retire(log, (after,), (fate_after_test(after, result),))


def risk(
    state: State,
    log: Log,
    before: tuple[Unit, ...],
    after: tuple[Unit, ...],
    *,
    rifles: bool = False,
    melee: bool = False,
) -> State:
    """Risk to commanders attached to units that took losses: a shooting hit is one loss (a
    DRP or a stamina loss); a melee loss is one (a stamina loss with its DRP) (B31)."""
    for old, new in zip(before, after, strict=True):
        losses = new.stamina_losses - old.stamina_losses
        if not melee:
            losses += new.disruption - old.disruption
        if losses <= 0:
            continue
        for leader in attached_commanders(state, old.id):
            result = commanders.risk_to_commander(leader, losses, dice=log.dice, rifles=rifles)
            state = state.with_commanders(result.commander)
            log.add("risk", f"{leader.name}, with {old.name}: {result}", RULE_RISK, leader.id,
                    facts=risk_facts(result))
    return state
