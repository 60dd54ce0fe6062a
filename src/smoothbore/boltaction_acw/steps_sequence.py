"""The steps of the sequence of play: drawing order dice, giving a die to a brigade or an
independent unit, the army test, ending an activation and a turn (The Turn; Brigade and army
strength). For each, its candidates, roll-free check and handler."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from smoothbore.core import (
    Dice,
    DrawCheck,
    IllegalActionError,
    Log,
    Modified,
    begin_turn,
    enter_phase,
)

from .actions import Activate, ArmyTest, DrawDie, EndActivation, EndTurn
from .morale import take_test
from .options import Options
from .phases import CHOOSE, DRAW, ENDED, MELEE, ORDERS
from .rules import (
    RULE_ARMY,
    RULE_BAG,
    RULE_LAST_TURN,
    RULE_MORALE_RATINGS,
    RULE_NEXT_DIE,
    RULE_ROUT_TESTS,
    RULE_TURN,
)
from .state import (
    BRIGADE,
    State,
    army_test_due,
    fill_bag,
    group_name,
    group_units,
    groups_to_activate,
    may_activate,
    untested_routers,
    with_units,
)
from .units import Commander, Experience, Rank
from .validity import MAX_TURN


def check_no_routs(state: State, action: object) -> None:
    """Routers move before anything else (Morale Test)."""
    if state.extra.routs:
        name = state.unit(state.extra.routs[0]).name
        raise IllegalActionError(action, f"{name} must first make its rout move", RULE_TURN)


def draw_die(bag: tuple[str, ...], *, dice: Dice) -> str:
    """One order die drawn from the bag without replacement: its colour (The Turn, 1)."""
    (colour,) = dice.roll(DrawCheck(bag, 1), reason="order die drawn", rule=RULE_BAG)
    return str(colour)


def without(bag: tuple[str, ...], colour: str) -> tuple[str, ...]:
    """The bag less one die of this colour."""
    index = bag.index(colour)
    return bag[:index] + bag[index + 1:]


_DRAW_DIE, _END_TURN, _ARMY_TEST = DrawDie(), EndTurn(), ArmyTest()
_END_ACTIVATION = EndActivation()
"""The actions without fields, made once (each equal to any other of its type)."""


# --- drawing ---------------------------------------------------------------------------
def candidates_draw_die(state: State) -> Iterator[DrawDie]:
    """The next die."""
    yield _DRAW_DIE


def check_draw_die(state: State, action: DrawDie) -> None:
    """A die is drawn while the bag holds one (The Turn, 1, 5)."""
    check_no_routs(state, action)
    if not state.extra.bag:
        raise IllegalActionError(action, "the bag is empty: the turn ends", RULE_NEXT_DIE)


def apply_draw_die(state: State, action: DrawDie, log: Log) -> State:
    """Draw a die; its colour's side picks what it activates. A die whose side has nothing
    left to activate is set aside (A19)."""
    extra = state.extra
    colour = draw_die(extra.bag, dice=log.dice)
    bag = without(extra.bag, colour)
    if not groups_to_activate(state, colour):
        log.add("order die", f"a {colour} die: nothing of that side is left to act; set aside",
                RULE_BAG)
        return state.with_extra(bag=bag)
    log.add("order die", f"a {colour} die is drawn ({len(bag)} left in the bag)", RULE_BAG)
    new = enter_phase(state, CHOOSE)
    return new.with_extra(bag=bag, drawn=colour)


def candidates_end_turn(state: State) -> Iterator[EndTurn]:
    """The end of the turn."""
    yield _END_TURN


def check_end_turn(state: State, action: EndTurn) -> None:
    """The turn ends once the bag is empty (The Turn, 5)."""
    check_no_routs(state, action)
    if state.extra.bag:
        raise IllegalActionError(action, f"{len(state.extra.bag)} dice are still in the bag",
                                 RULE_NEXT_DIE)


def apply_end_turn(state: State, action: EndTurn, log: Log) -> State:
    """End the turn: after the scenario's last turn the battle ends; otherwise the bag is
    filled again, and melees that go on are fought first (A20)."""
    limit = state.scenario.turn_limit
    if limit is not None and state.turn >= limit:
        log.add("end", f"turn {state.turn}, the scenario's last, is over", RULE_TURN)
        return enter_phase(state, ENDED)
    if state.turn >= MAX_TURN:
        log.add("end", f"turn {state.turn}, the last a battle plays, is over",
                RULE_LAST_TURN)
        return enter_phase(state, ENDED)
    extra = state.extra
    first = MELEE if extra.melees else DRAW
    new = begin_turn(state, first)
    bag = fill_bag(new.units, new.commanders, extra.home)
    log.add("turn", f"turn {new.turn} begins: {len(bag)} order dice in the bag", RULE_TURN)
    return new.with_extra(bag=bag, drawn=None, group=None)


# --- choosing what the die activates ------------------------------------------------------
def candidates_activate(state: State) -> Iterator[Activate]:
    """Each of the drawn side's groups still to act."""
    if state.extra.drawn is not None:
        for group in groups_to_activate(state, state.extra.drawn):
            yield Activate(group)


def check_activate(state: State, action: Activate) -> None:
    """The drawn die goes to one of its side's brigades or independent units that has not
    acted this turn (The Turn, 1)."""
    drawn = state.extra.drawn
    if drawn is None:
        raise IllegalActionError(action, "no die has been drawn", RULE_BAG)
    if not may_activate(state, drawn, action.group):
        raise IllegalActionError(
            action, f"{action.group!r} is not a {drawn} brigade or independent unit still to "
            "act this turn", RULE_BAG)


def apply_activate(state: State, action: Activate, log: Log) -> State:
    """The group takes the die: routing units test, then each unit takes an order."""
    log.add("activation", f"{group_name(state, action.group)} takes the die", RULE_TURN,
            action.group)
    new = enter_phase(state, ORDERS)
    extra = new.extra
    return new.with_extra(
        drawn=None, group=action.group, activated=extra.activated | {action.group})


# --- the army test ---------------------------------------------------------------------------
def brigade_commander(state: State, brigade: str) -> Commander | None:
    """The brigade's commander."""
    for leader in state.commanders:
        if leader.rank is Rank.BRIGADE and leader.brigade == brigade:
            return leader
    return None


def candidates_army_test(state: State) -> Iterator[ArmyTest]:
    """The army test of the active brigade."""
    yield _ARMY_TEST


def check_army_test(state: State, action: ArmyTest) -> None:
    """Taken when the die of a brigade of an army that has lost half its brigades is drawn."""
    check_no_routs(state, action)
    if not army_test_due(state):
        raise IllegalActionError(action, "no army test is due", RULE_ARMY)


def apply_army_test(state: State, action: ArmyTest, log: Log) -> State:
    """The brigade's order test against its commander's morale (A17): failed, the brigade
    goes home."""
    group = state.extra.group
    assert group is not None
    brigade = group[len(BRIGADE):]
    leader = brigade_commander(state, brigade)
    need = army_test_need(leader, state.options)
    passed = take_test(need, dice=log.dice, reason=f"{group_name(state, group)}: army test",
                       rule=RULE_ARMY, options=state.options)
    extra = state.extra
    tested = extra.army_tested | {group}
    if passed:
        log.add("army test", f"{group_name(state, group)} stays in the battle", RULE_ARMY, group,
                facts={"test": "army", "result": "passed", "outcome": "stays"})
        return state.with_extra(army_tested=tested)
    log.add("army test", f"{group_name(state, group)} goes home", RULE_ARMY, group,
            facts={"test": "army", "result": "failed", "outcome": "goes home"})
    gone = tuple(attrs.evolve(u, home=True) for u in group_units(state, group) if not u.lost)
    # the book's own with_units: the units leave the table and their melees, routs and
    # second charges end (Brigade and army strength; a lost unit is off the table)
    new = with_units(state, *gone)
    return new.with_extra(army_tested=tested, home=new.extra.home | {brigade})


def army_test_need(leader: Commander | None, options: Options) -> Modified:
    """The brigade's test: 2D6 at or under its commander's morale rating (A17)."""
    experience = leader.experience if leader is not None else Experience.REGULAR
    return Modified(experience.morale, f"{experience} brigade commander", RULE_MORALE_RATINGS)


# --- the end of an activation ---------------------------------------------------------------
def candidates_end_activation(state: State) -> Iterator[EndActivation]:
    """Finishing with the brigade."""
    yield _END_ACTIVATION


def check_end_activation(state: State, action: EndActivation) -> None:
    """The brigade is done once its routing units have tested and any army test is taken
    (The Turn, 2, 5)."""
    check_no_routs(state, action)
    group = state.extra.group
    if group is None:
        raise IllegalActionError(action, "no brigade is acting", RULE_TURN)
    if army_test_due(state):
        raise IllegalActionError(action, "the brigade must first take its army test",
                                 RULE_ARMY)
    due = untested_routers(state)
    if due:
        raise IllegalActionError(
            action, f"routing units must first test: {', '.join(u.name for u in due)}",
            RULE_ROUT_TESTS)


def apply_end_activation(state: State, action: EndActivation, log: Log) -> State:
    """Draw the next die (The Turn, 5)."""
    group = state.extra.group
    assert group is not None
    log.add("activation", f"{group_name(state, group)} has completed its actions",
            RULE_NEXT_DIE, group)
    new = enter_phase(state, DRAW)
    return new.with_extra(group=None)
