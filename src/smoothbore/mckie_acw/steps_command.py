"""Generalship and orders: the initiative roll and the winner's choice, new written orders,
and activation (McKie ACW, Generalship; Deployment and general orders)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from smoothbore.core import Log, enter_phase

from . import rules
from .actions import Activate, ChangeOrders, ChooseFirst, RollInitiative
from .generalship import activate, roll_initiative
from .phases import ACTIVATION
from .state import (
    State,
    chain,
    illegal,
    other,
    with_extra,
)
from .units import Commander, Order, OrderKind, Rank


def chief(state: State, side: str) -> Commander:
    """A side's commander-in-chief."""
    return next(c for c in state.commanders if c.side == side and c.rank is Rank.CINC)


# --- initiative -------------------------------------------------------------------------
def candidates_roll_initiative(state: State) -> Iterator[RollInitiative]:
    yield RollInitiative()


def check_roll_initiative(state: State, action: RollInitiative) -> None:
    """Once a period, before anything else."""
    if state.extra.initiative:
        raise illegal(action, "the initiative is already decided", rules.INITIATIVE)


def apply_roll_initiative(state: State, action: RollInitiative, log: Log) -> State:
    """Each commander-in-chief's d10 plus his initiative rating (a fallen one rates 0)."""
    a, b = (chief(state, side) for side in state.sides)
    ra = a.initiative if a.active else 0
    rb = b.initiative if b.active else 0
    tie = state.sides.index(state.extra.first)
    won = state.sides[roll_initiative(ra, rb, dice=log.dice, tie_goes_to=tie)]
    log.add("initiative", f"{won} gains the initiative", rules.INITIATIVE, won,
            facts={"test": "initiative", "result": won})
    return with_extra(state, initiative=won)


def candidates_choose_first(state: State) -> Iterator[ChooseFirst]:
    yield ChooseFirst(True)
    yield ChooseFirst(False)


def check_choose_first(state: State, action: ChooseFirst) -> None:
    """The winner of the initiative chooses, once it is rolled."""
    if not state.extra.initiative:
        raise illegal(action, "roll for the initiative first", rules.INITIATIVE)


def apply_choose_first(state: State, action: ChooseFirst, log: Log) -> State:
    """The army that moves first acts first in every step of the period."""
    won = state.extra.initiative
    first = won if action.first else other(state, won)
    log.add("initiative", f"{won} chooses to move {'first' if action.first else 'second'}",
            rules.INITIATIVE, won)
    return with_extra(enter_phase(state, ACTIVATION), first=first, acting=first)


# --- orders -------------------------------------------------------------------------------
def candidates_change_orders(state: State) -> Iterator[ChangeOrders]:
    """Each active general of the acting side to each of his juniors, each other order, by
    meeting (when they are together) and by courier."""
    acting = state.extra.acting
    for junior in state.commanders:
        if (junior.side != acting or not junior.active or not junior.superior
                or f"orders:{junior.id}" in state.extra.done):
            continue
        for issuer in chain(state, junior.superior):
            if not issuer.active:
                continue
            met = bool(issuer.attached_to) and issuer.attached_to == junior.attached_to
            for kind in OrderKind:
                if kind is not junior.order.kind:
                    yield ChangeOrders(issuer.id, junior.id, kind, courier=True)
                    if met:
                        yield ChangeOrders(issuer.id, junior.id, kind, courier=False)


def check_change_orders(state: State, action: ChangeOrders) -> None:
    """Only a higher-ranking general in the direct line of command changes an order, meeting
    his junior on the battlefield or sending a courier; once a period for each junior."""
    junior = state.commander(action.commander)
    issuer = state.commander(action.issuer)
    r = rules.ORDERS
    if junior.side != state.extra.acting:
        raise illegal(action, f"{junior.name} is not a general of {state.extra.acting}", r)
    if not junior.active or not issuer.active:
        raise illegal(action, "both generals must be in action", r)
    above = {c.id for c in chain(state, junior.superior)} if junior.superior else set()
    if issuer.id not in above:
        raise illegal(action, f"{issuer.name} is not above {junior.name} in his line of command",
                      r)
    if action.order is junior.order.kind and junior.courier is None:
        raise illegal(action, f"{junior.name} already has that order", r)
    if f"orders:{junior.id}" in state.extra.done:
        raise illegal(action, f"{junior.name} has had new orders this period", r)
    if not action.courier and not (issuer.attached_to and
                                   issuer.attached_to == junior.attached_to):
        raise illegal(action, f"{issuer.name} is not with {junior.name}: send a courier", r)


def apply_change_orders(state: State, action: ChangeOrders, log: Log) -> State:
    """The new order stands at once when the generals meet; by courier it arrives at the next
    period (option ``courier_next_period``, M4). A new order has not been started."""
    junior = state.commander(action.commander)
    issuer = state.commander(action.issuer)
    if action.courier and state.options.courier_next_period:
        junior = attrs.evolve(junior, courier=action.order)
        how = "sends a courier to"
    else:
        junior = attrs.evolve(junior, order=Order(action.order, issuer.id), courier=None)
        how = "orders"
    log.add("orders", f"{issuer.name} {how} {junior.name}: {action.order}", rules.ORDERS,
            junior.id)
    return with_extra(state.with_commanders(junior),
        done=state.extra.done | {f"orders:{junior.id}"})


# --- activation -----------------------------------------------------------------------------
def candidates_activate(state: State) -> Iterator[Activate]:
    for c in state.commanders:
        if c.side == state.extra.acting and c.rank is not Rank.CINC:
            yield Activate(c.id)


def activator(state: State, c: Commander) -> Commander | None:
    """The general who throws for a commander's activation: his superior, or, where the
    superior has fallen, the next general in action up the line (M5)."""
    if not c.superior:
        return None
    return next((s for s in chain(state, c.superior) if s.active), None)


def check_activate(state: State, action: Activate) -> None:
    """Corps commanders first, then divisional commanders whose corps commander is activated
    (or who answer to the commander-in-chief directly, or whose corps commander has fallen);
    one attempt a period."""
    c = state.commander(action.commander)
    r = rules.ACTIVATION
    if c.side != state.extra.acting:
        raise illegal(action, f"{c.name} is not a general of {state.extra.acting}", r)
    if c.rank is Rank.CINC:
        raise illegal(action, "the commander-in-chief needs no activation", r)
    if not c.active:
        raise illegal(action, f"{c.name} is {c.fate}", r)
    if c.id in state.extra.attempted:
        raise illegal(action, f"{c.name} has had his one attempt this period", r)
    superior = activator(state, c)
    if superior is None:
        raise illegal(action, f"{c.name} has no superior in action to activate him", r)
    if superior.rank is not Rank.CINC and superior.id not in state.extra.activated:
        raise illegal(action, f"{superior.name} must be activated first", r)


def apply_activate(state: State, action: Activate, log: Log) -> State:
    """The superior's d10 plus the commander's activation rating over 10: he carries out his
    orders; otherwise he may not advance on a first order and may continue old ones or halt."""
    c = state.commander(action.commander)
    x = state.extra
    state = with_extra(state, attempted=x.attempted | {c.id})
    if activate(c.activation, dice=log.dice):
        log.add("activation", f"{c.name} is activated ({c.order.kind})", rules.ACTIVATION, c.id,
                facts={"test": "activation", "result": "activated"})
        return with_extra(state, activated=state.extra.activated | {c.id})
    what = "continues his old orders or halts" if c.order.started else (
        "may not advance on his first order")
    log.add("activation", f"{c.name} fails activation: {what}", rules.ACTIVATION, c.id,
            facts={"test": "activation", "result": "failed"})
    return state
