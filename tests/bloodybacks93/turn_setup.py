"""Shared battle set-ups for the tests of the Bloodybacks 9.3 turn (not a test module)."""

from __future__ import annotations

import attrs

from smoothbore.bloodybacks93 import TURN
from smoothbore.bloodybacks93.actions import (
    Action,
    Activate,
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    Manoeuvre,
    Move,
    Rally,
    ResolveDeferred,
    RoutTest,
    Shoot,
    SpendCommandPoint,
)
from smoothbore.bloodybacks93.deck import Card
from smoothbore.bloodybacks93.phases import ACTIVATION
from smoothbore.bloodybacks93.state import (
    OPEN_ENDED,
    Activated,
    ActivityEntry,
    Extra,
    State,
    new_battle,
)
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Commander,
    Formation,
    Troops,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import Event, Scenario

UNITS = (
    Unit("b1", "33rd Foot", BRITISH, quality=4, density=5, size=20, brigade="1",
         troops=Troops.REGULAR),
    Unit("b2", "Hessians", BRITISH, quality=4, density=8, size=18, brigade="1",
         disruption=1, troops=Troops.REGULAR),
    Unit("b3", "Royal Artillery", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
         brigade="1", formation=Formation.UNLIMBERED, weapon=Weapon.CANNON),
    Unit("a1", "Continentals", AMERICAN, quality=3, density=6, size=20, brigade="x",
         troops=Troops.CONTINENTAL),
    Unit("a2", "Riflemen", AMERICAN, quality=3, density=3, size=10, brigade="x",
         weapon=Weapon.RIFLE),
)

COMMANDERS = (
    Commander("cb", "Colonel Webster", BRITISH, command_quality=4, activity_rating=4,
              brigade="1"),
    Commander("ca", "Colonel Stevens", AMERICAN, command_quality=3, activity_rating=2,
              brigade="x", attached_to="a1"),
)


def start(seed: int = 1, scenario: Scenario = OPEN_ENDED) -> State:
    return new_battle(UNITS, COMMANDERS, seed=seed, scenario=scenario)


def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    return TURN.step(state, action)


def legal(state: State) -> tuple[Action, ...]:
    return TURN.legal_actions(state)


def reseed(state: State, seed: int) -> State:
    return attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))


def choose(actions: tuple[Action, ...]) -> Action:
    order = (Activate, RoutTest, Shoot, Charge, Rally, Move, Manoeuvre, SpendCommandPoint,
             DetermineActivity, DrawCard, ResolveDeferred, EndTurn, EndActivation, EndBattle)
    return min(actions, key=lambda a: order.index(type(a)))


def active(card: Card, activated: tuple[Activated, ...] = (), minutes: int = 20) -> State:
    """Turn 1 with ``card`` in play (the last card of the deck): Webster active with 2 CP."""
    extra = Extra(
        deck=(), card=card, minutes=minutes,
        activity=(ActivityEntry("cb", card.value, 2), ActivityEntry("ca", 2, 1)),
        active=("cb",), activated=activated,
    )
    return attrs.evolve(start(), extra=extra, phase=ACTIVATION)


def with_units(state: State, *units: Unit) -> State:
    return state.with_units(*units)
