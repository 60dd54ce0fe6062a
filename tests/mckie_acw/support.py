"""A small battle to drive the steps with: two sides, a commander-in-chief and a divisional
commander each, and a few units; helpers to reach a step and to set the acting side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from smoothbore.core import Distribution, Scenario, odds
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import Action
from smoothbore.mckie_acw.options import DEFAULT_OPTIONS, Options
from smoothbore.mckie_acw.state import State, new_battle
from smoothbore.mckie_acw.units import (
    Arm,
    Commander,
    Order,
    OrderKind,
    Rank,
    Unit,
    Weapon,
)

A, B = "Blue", "Grey"


def foot(uid: str, side: str = A, **kw: Any) -> Unit:
    base: dict[str, Any] = dict(id=uid, name=uid, side=side, arm=Arm.FOOT,
                                weapon=Weapon.MUZZLE_LOADING_RIFLE, has_fired=True,
                                commander="a-div" if side == A else "b-div")
    base.update(kw)
    return Unit(**base)


def guns(uid: str, side: str = A, **kw: Any) -> Unit:
    base: dict[str, Any] = dict(id=uid, name=uid, side=side, arm=Arm.ARTILLERY,
                                weapon=Weapon.SMOOTHBORE_12LB, figures=4, has_fired=True,
                                commander="a-div" if side == A else "b-div")
    base.update(kw)
    return Unit(**base)


def commanders(order: OrderKind = OrderKind.ATTACK) -> tuple[Commander, ...]:
    return (
        Commander("a-chief", "Blue chief", A, Rank.CINC, 3, 5),
        Commander("a-div", "Blue division", A, Rank.DIVISION, 3, 5, "a-chief",
                  order=Order(order, "a-chief", started=True)),
        Commander("b-chief", "Grey chief", B, Rank.CINC, 5, 5),
        Commander("b-div", "Grey division", B, Rank.DIVISION, 3, 5, "b-chief",
                  order=Order(order, "b-chief", started=True)),
    )


def battle(*units: Unit, options: Options = DEFAULT_OPTIONS,
           generals: tuple[Commander, ...] | None = None, seed: int = 0) -> State:
    """A battle of the given units (two plain brigades a side if none)."""
    if not units:
        units = (foot("a1"), foot("a2"), foot("b1", B), foot("b2", B))
    return new_battle((A, B), units, generals or commanders(), seed=seed, options=options,
                      scenario=Scenario("test", turn_limit=6))


def at(state: State, phase: str, acting: str = A, **extra: Any) -> State:
    """The state in ``phase`` with ``acting`` to act (and the initiative settled)."""
    x = attrs.evolve(state.extra, first=A, acting=acting, initiative=A, **extra)
    return state.replace(phase=phase, extra=x)


def exact(state: State, action: Action, read: Callable[[State], Any]) -> Distribution[Any]:
    """The exact distribution of ``read`` of the state after ``action``."""
    def run(*, dice: Any) -> Any:
        return read(TURN.apply(state, action, dice)[0])

    return odds(run)
