"""Events the turn reports, with the rolls behind them, and the moves and risks that follow a
result (Bloodybacks 9.3, Morale: Push Back and Rout moves; Risk to commanders)."""

from __future__ import annotations

from smoothbore.core import Event, RollRecord, SamplingDice

from . import commanders, morale
from .battle import State, attached_commanders
from .melee import Fate
from .units import Unit


def event_since(
    kind: str, text: str, rule: str, subject: str, dice: SamplingDice, mark: int
) -> Event:
    """An event carrying the rolls made since ``mark``."""
    rolls: tuple[RollRecord, ...] = dice.records_since(mark)
    return Event(kind, text, rule, subject, rolls)


def fate_after_test(after: Unit, result: morale.TestResult) -> Fate:
    """Where a unit goes after a test out of melee: it routs, is pushed back, or stays."""
    if after.destroyed:
        return Fate.DESTROYED
    if after.routing:
        return Fate.ROUTS
    return Fate.FALLS_BACK if result is morale.TestResult.PUSHED_BACK else Fate.HOLDS


def move_events(
    units: tuple[Unit, ...], fates: tuple[Fate, ...], dice: SamplingDice
) -> tuple[Event, ...]:
    """Push back and rout moves of units that fell back or routed (Morale: Push Back move,
    Rout move); a unit routing off the table is lost, which the players see."""
    events = []
    for unit, fate in zip(units, fates, strict=True):
        mark = len(dice.records)
        if fate is Fate.FALLS_BACK:
            distance = morale.push_back_distance(dice=dice)
            text = f'{unit.name} is pushed back {distance}"'
        elif fate is Fate.ROUTS:
            rout = morale.rout_distance(unit, dice=dice)
            if rout is None:
                continue
            text = f'{unit.name} routs {rout}" (lost if that takes it off the table)'
        else:
            continue
        events.append(event_since("retire", text, morale.RULE_MOVES, unit.id, dice, mark))
    return tuple(events)


def risk_events(
    state: State,
    before: tuple[Unit, ...],
    after: tuple[Unit, ...],
    dice: SamplingDice,
    rifles: bool = False,
    melee: bool = False,
) -> tuple[State, tuple[Event, ...]]:
    """Risk to commanders attached to units that took losses: a shooting hit is one loss
    (a DRP or a stamina loss); a melee loss is one (a stamina loss with its DRP)."""
    events: list[Event] = []
    for old, new in zip(before, after, strict=True):
        losses = new.stamina_losses - old.stamina_losses
        if not melee:
            losses += new.disruption - old.disruption
        if losses <= 0:
            continue
        for leader in attached_commanders(state, old.id):
            mark = len(dice.records)
            risk = commanders.risk_to_commander(leader, losses, dice=dice, rifles=rifles)
            state = state.with_commanders(risk.commander)
            events.append(
                event_since(
                    "risk", f"{leader.name}: {risk}", commanders.RULE_RISK, leader.id, dice, mark
                )
            )
    return state, tuple(events)
