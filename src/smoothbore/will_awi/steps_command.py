"""Phase C with command and control (the March 2008 post, or the January 2008 post as an
option): the commanders' order rolls, for a unit or a group, then the independent tests of the
units not yet commanded."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from smoothbore.core import Log, revised

from .actions import IndependentTest, Order
from .command import OrderFacts, give_order, test_independent
from .generals import in_chain_of_command
from .narration import listed
from .options import CommandPost
from .situations import measures_ride, order_facts
from .state import State, command_rule, illegal, mark_done, own_unit, with_extra
from .units import Commander, Unit


def _untested(state: State, unit: Unit) -> bool:
    """Whether a unit on the table may still be ordered or test alone this move."""
    extra = state.extra
    return not (
        unit.routing
        or unit.highland_charge
        or unit.id in extra.ordered
        or unit.id in extra.done
        or unit.id in extra.rallied
        or unit.id in extra.compelled
    )


def _commands(general: Commander, unit: Unit, state: State) -> bool:
    """Whether the unit answers to the general, directly or through his brigadiers."""
    return unit.commander == general.id or in_chain_of_command(unit, general, state.commanders)


def check_untested(state: State, unit: Unit, action: object, rule: str) -> None:
    """A unit may be ordered, or test alone, once a move and only if it makes no compulsory
    move (routing, retiring, rallied, in a Highland charge)."""
    extra = state.extra
    if unit.id in extra.ordered or unit.id in extra.done:
        raise illegal(action, f"{unit.name} has already been tested", rule)
    if unit.routing or unit.highland_charge or unit.id in extra.compelled:
        raise illegal(action, f"{unit.name} makes a compulsory move, not an order", rule)
    if unit.id in extra.rallied:
        raise illegal(action, f"{unit.name} rallied and halts for this move", rule)


# --- Order --------------------------------------------------------------------------------
def candidates_order(state: State) -> Iterator[Order]:
    """For each commander of the moving side still giving orders: an order to each of his
    units not yet tested, and one roll for every group of two or more of them."""
    if not state.options.command_control or state.extra.independents:
        return
    moving = state.extra.moving
    for general in state.commanders:
        if general.side != moving or not general.active or general.id in state.extra.failed:
            continue
        own = [
            u.id
            for u in state.units
            if u.side == moving and u.on_table and _untested(state, u)
            and _commands(general, u, state)
        ]
        for size in range(1, len(own) + 1):
            for group in combinations(own, size):
                yield Order(general.id, group[0], with_units=group[1:])


def check_order(state: State, action: Order) -> None:
    """C: command and control in play; no independent test taken yet; an active commander who
    has not failed this move; every unit of the group his, on the table, untested."""
    rule = command_rule(state)
    if not state.options.command_control:
        raise illegal(action, "command and control is not in play", rule)
    if state.extra.independents:
        raise illegal(action, "the independent tests come after all command rolls", rule)
    general = state.commander(action.general)
    if general.side != state.extra.moving or not general.active:
        raise illegal(action, f"{general.name} cannot give orders now", rule)
    if general.id in state.extra.failed:
        raise illegal(action, f"{general.name} has failed: no more orders", rule)
    ids = (action.unit, *action.with_units)
    if len(set(ids)) != len(ids):
        raise illegal(action, "a unit appears twice in the group", rule)
    for uid in ids:
        unit = own_unit(state, uid, state.extra.moving, action)
        if not _commands(general, unit, state):
            raise illegal(action, f"{unit.name} is not under {general.name}", rule)
        check_untested(state, unit, action, rule)
    if measures_ride(state, general.id) and action.facts != OrderFacts():
        raise illegal(action, "the table measures this: the distance to the commander, his "
                      "being with the unit, his sight of it and the C in C within 6\"",
                      rule)


def apply_order(state: State, action: Order, log: Log) -> State:
    """One roll for the unit or the group: passed, they may move; failed, they stay and the
    commander gives no more orders this move."""
    rule = command_rule(state)
    general = state.commander(action.general)
    ids = (action.unit, *action.with_units)
    group = tuple(state.unit(uid) for uid in ids)
    facts = action.facts
    if general.attached_to in ids and not facts.attached:
        # The state knows he rides with the unit: +2 without the player saying so.
        facts = revised(facts, attached=True)
    measured = tuple(order_facts(state, general.id, uid) for uid in ids)
    each = tuple(f for f in measured if f is not None)
    ok = give_order(general, group[0], facts, dice=log.dice, options=state.options,
                    also=group[1:], each=each if len(each) == len(ids) else ())
    names = listed([u.name for u in group])
    if ok:
        text = f"{general.name} orders {names} to move"
    else:
        text = f"{general.name}'s order to {names} fails: he gives no more orders this move"
    log.add("order", text, rule, ids[0],
            facts={"test": "order", "result": "moves" if ok else "fails", "units": len(ids)})
    if ok:
        return with_extra(state, ordered=state.extra.ordered | set(ids))
    return with_extra(
        state, failed=state.extra.failed | {general.id}, done=state.extra.done | set(ids)
    )


# --- IndependentTest --------------------------------------------------------------------
def candidates_independent_test(state: State) -> Iterator[IndependentTest]:
    """Each unit of the moving side not yet commanded (January post: whose commander
    failed)."""
    if not state.options.command_control:
        return
    january = state.options.command_post is CommandPost.JANUARY_2008
    for unit in state.units:
        if unit.side == state.extra.moving and unit.on_table and _untested(state, unit) and (
            not january or unit.commander in state.extra.failed
        ):
            yield IndependentTest(unit.id)


def check_independent_test(state: State, action: IndependentTest) -> None:
    """C: command and control in play; a unit of the moving side not yet tested; under the
    January post only a unit whose commander failed on another unit."""
    rule = command_rule(state)
    if not state.options.command_control:
        raise illegal(action, "command and control is not in play", rule)
    unit = state.unit(action.unit)
    check_untested(state, unit, action, rule)
    january = state.options.command_post is CommandPost.JANUARY_2008
    if january and unit.commander not in state.extra.failed:
        raise illegal(action, "the independent test needs the commander to have failed", rule)


def apply_independent_test(state: State, action: IndependentTest, log: Log) -> State:
    """The unit tests alone: passed, it may move; failed, it stays. No order follows."""
    unit = state.unit(action.unit)
    failed = unit.commander in state.extra.failed
    ok = test_independent(unit, failed, dice=log.dice, options=state.options)
    if ok:
        text = f"{unit.name}, with no orders, tests alone and may move"
    else:
        text = f"{unit.name}, with no orders, tests alone and stays where it is"
    log.add("order", text, command_rule(state), unit.id,
            facts={"test": "independent", "result": "moves" if ok else "stays"})
    state = with_extra(state, independents=True)
    if ok:
        return with_extra(state, ordered=state.extra.ordered | {unit.id})
    return mark_done(state, unit.id)
