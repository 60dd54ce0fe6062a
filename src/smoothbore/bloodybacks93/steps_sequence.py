"""The steps of the sequence of play: activity, cards, the end of a card, deferred melees,
the next turn and the end of the battle; for each, its candidates, roll-free check and handler
(Bloodybacks 9.3, Sequence of Play; Risk to commanders)."""

from __future__ import annotations

from collections.abc import Iterator

from smoothbore.core import IllegalActionError, Log, begin_turn, enter_phase
from smoothbore.table import in_contact

from . import command, commanders, deck, situations
from .actions import DetermineActivity, DrawCard, EndActivation, EndBattle, EndTurn, ResolveDeferred
from .phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, ENDED
from .rules import (
    RULE_ACTIVATING,
    RULE_ACTIVITY,
    RULE_CHARGES,
    RULE_DEFERRED,
    RULE_FATE,
    RULE_ROUTING,
    RULE_SEQUENCE,
    RULE_VICTORY,
)
from .state import (
    ActivityEntry,
    DeferredMelee,
    State,
    broken_sides,
    due_rout_tests,
)
from .steps_charges import fight, may_charge
from .units import Commander, Unit
from .victory import at_turn_limit, ending


def candidates_determine_activity(state: State) -> Iterator[DetermineActivity]:
    """The turn opens by rolling activity."""
    yield DetermineActivity()


def check_determine_activity(state: State, action: DetermineActivity) -> None:
    """Activity is rolled while the battle goes on (the engine's guard, ``Engine.decided``:
    nothing else to check)."""


def apply_determine_activity(state: State, action: DetermineActivity, log: Log) -> State:
    """Roll every living commander's activity level and command points (Determine commander
    activation level); the deck is shuffled for the turn."""
    entries: list[ActivityEntry] = []
    for leader in state.commanders:
        if leader.removed:
            continue
        result = command.roll_activity(leader, dice=log.dice, options=state.options)
        entries.append(ActivityEntry(leader.id, result.level, result.command_points))
        log.add("activity", f"{leader.name}: {result}", RULE_ACTIVITY, leader.id,
                facts={"test": "activity", "roll": result.roll, "result": result.level,
                       "command_points": result.command_points})
    new = enter_phase(state, DRAW)
    return new.with_extra(activity=tuple(entries))


def candidates_draw_card(state: State) -> Iterator[DrawCard]:
    """The next card."""
    yield DrawCard()


def check_draw_card(state: State, action: DrawCard) -> None:
    """A card is drawn while the deck holds cards (Sequence of Play)."""
    if not state.extra.deck:
        raise IllegalActionError(action, "the activation deck is empty", RULE_SEQUENCE)


def apply_draw_card(state: State, action: DrawCard, log: Log) -> State:
    """Draw a card: the first sets the turn length; the card activates the commanders of its
    colour with that activity level (Activating Commanders)."""
    extra = state.extra
    card = deck.draw_card(extra.deck, dice=log.dice)
    first = len(extra.deck) == len(deck.DECK)
    minutes = card.turn_minutes if first else extra.minutes
    active = tuple(
        a.commander_id
        for a, leader in ((a, state.commander(a.commander_id)) for a in extra.activity)
        if deck.activates(card, leader.side, a.level) and not leader.removed
    )
    text = f"drew the {card}"
    if first:
        text += f": a {minutes}-minute turn (and any scenario random event)"
    if active:
        text += "; activates " + ", ".join(state.commander(c).name for c in active)
    else:
        text += "; activates no commander"
    log.add("card", text, RULE_ACTIVATING)
    new = enter_phase(state, ACTIVATION)
    return new.with_extra(deck=deck.without(extra.deck, card), card=card, minutes=minutes,
                          active=active)


def candidates_end_activation(state: State) -> Iterator[EndActivation]:
    """Finishing with the card."""
    yield EndActivation()


def check_end_activation(state: State, action: EndActivation) -> None:
    """A card is finished once every routing unit it calls to re-test has tested: routing
    units must test in place of their activation roll (Morale; B28)."""
    due = due_rout_tests(state)
    if due:
        names = ", ".join(state.unit(u).name for u in due)
        raise IllegalActionError(
            action, f"routing units must take their morale test first: {names}", RULE_ROUTING
        )


def apply_end_activation(state: State, action: EndActivation, log: Log) -> State:
    """Draw the next card, or resolve the deferred melees once the deck is empty."""
    if state.extra.deck:
        return enter_phase(state, DRAW)
    log.add("card", "the deck is empty: deferred melees, then the end of the turn",
            RULE_SEQUENCE)
    return enter_phase(state, DEFERRED)


def candidates_resolve_deferred(state: State) -> Iterator[ResolveDeferred]:
    """The first deferred melee, as charged or with the tables turned, with or without
    pursuit."""
    for reverse in (False, True):
        for pursue in (False, True):
            yield ResolveDeferred(reverse, pursue)


def check_resolve_deferred(state: State, action: ResolveDeferred) -> None:
    """Deferred melees are resolved in order, after the last card (Sequence of Play); the
    tables turn only for defenders that may charge: guns do not (unless the option lets
    unlimbered guns charge), and a melee with such a defender is fought as charged
    (Determine impetus; B32, B47)."""
    if not state.extra.deferred:
        raise IllegalActionError(action, "no deferred melee", RULE_SEQUENCE)
    if action.reverse:
        chargers, defenders, _ = deferred_sides(state, state.extra.deferred[0])
        option = state.options.artillery_may_charge
        barred = [u.name for u in defenders if chargers and not may_charge(u, option)]
        if barred:
            raise IllegalActionError(
                action, f"the tables cannot turn: {', '.join(barred)} may not charge (B47)",
                RULE_CHARGES)


def deferred_sides(state: State, melee: DeferredMelee
                   ) -> tuple[tuple[Unit, ...], tuple[Unit, ...], tuple[Unit, ...]]:
    """The units of a deferred melee that still fight it: its chargers and its defenders
    neither destroyed nor routing and, on a table, each still in contact with one of the
    other side that fights; and the units that have left the contact (B32)."""
    chargers = tuple(u for u in (state.unit(i) for i in melee.chargers) if not u.gone)
    defenders = tuple(u for u in (state.unit(i) for i in melee.defenders) if not u.gone)
    table = state.extra.table
    if table is None:
        return chargers, defenders, ()
    placed = set(table.units)

    def touching(unit: Unit, others: tuple[Unit, ...]) -> bool:
        return unit.id in placed and any(
            o.id in placed and in_contact(table, unit.id, o.id) for o in others)

    still = tuple(u for u in chargers if touching(u, defenders))
    held = tuple(u for u in defenders if touching(u, still))
    left = tuple(u for u in chargers + defenders if u not in still + held)
    return still, held, left


def apply_resolve_deferred(state: State, action: ResolveDeferred, log: Log) -> State:
    """Resolve the first deferred melee, the tables turned when ``reverse``; it lapses when
    one side has gone (destroyed or routed away) or, on a table, no longer touches the
    other: units that left the contact take no part (Determine impetus; B32)."""
    melee, rest = state.extra.deferred[0], state.extra.deferred[1:]
    new = state.with_extra(deferred=rest)
    chargers, defenders, left = deferred_sides(state, melee)
    if chargers and defenders and left:
        log.add("melee", f"{' and '.join(u.name for u in left)} no longer in contact: "
                "out of the deferred melee", RULE_DEFERRED, left[0].id,
                facts={"test": "melee", "result": "out of contact",
                       "units": " ".join(u.id for u in left)})
    if not chargers or not defenders:
        gone = any(all(state.unit(i).gone for i in side)
                   for side in (melee.chargers, melee.defenders))
        why = "one side has gone" if gone else (
            f"{' and '.join(u.name for u in left)} no longer in contact with the enemy")
        log.add("melee", f"the deferred melee lapses: {why}", RULE_DEFERRED,
                facts={"test": "melee", "result": "lapses"})
        return new
    facts = melee.facts
    if action.reverse:
        chargers, defenders = defenders, chargers
        if state.extra.table is not None:
            counter = tuple(u.id for u in chargers)
            targets = tuple(u.id for u in defenders)
            before = new.extra.table
            new = situations.turned_to_face(new, counter, targets)
            after = new.extra.table
            for unit in chargers:
                if before is not None and after is not None and unit.id in after.units and (
                        after.footprint(unit.id).facing != before.footprint(unit.id).facing):
                    log.add("melee", f"{unit.name} turns to face the enemy and counter-charges",
                            RULE_DEFERRED, unit.id,
                            facts={"test": "melee", "result": "turns to face"})
            facts = situations.counter_charge_facts(new, counter, targets, facts)
    return fight(new, log, chargers, defenders, facts, action.pursue)


def candidates_end_turn(state: State) -> Iterator[EndTurn]:
    """Starting the next turn."""
    yield EndTurn()


def check_end_turn(state: State, action: EndTurn) -> None:
    """The next turn starts once the deferred melees are resolved, unless the scenario's
    last turn has been played (Sequence of Play; B48)."""
    if state.extra.deferred:
        raise IllegalActionError(
            action, "deferred melees are resolved before the next turn", RULE_SEQUENCE
        )
    if at_turn_limit(state):
        raise IllegalActionError(
            action, f"turn {state.turn} is the scenario's last: the battle ends", RULE_VICTORY
        )


def apply_end_turn(state: State, action: EndTurn, log: Log) -> State:
    """Start the next turn: a fresh deck, the turn's records cleared (Sequence of Play)."""
    log.add("turn", f"turn {state.turn + 1} begins", RULE_SEQUENCE)
    return begin_turn(state, ACTIVITY)


def candidates_end_battle(state: State) -> Iterator[EndBattle]:
    """Ending the battle."""
    yield EndBattle()


def check_end_battle(state: State, action: EndBattle) -> None:
    """The battle ends when a side has broken, or once the last turn's deferred melees are
    resolved: the scenario's last turn, or any turn where the scenario lets the players end
    it (B48)."""
    if broken_sides(state):
        return
    if state.phase != DEFERRED or state.extra.deferred:
        raise IllegalActionError(
            action, "the battle ends after a turn, once its deferred melees are resolved",
            RULE_VICTORY,
        )
    if not (at_turn_limit(state) or state.scenario.players_may_end):
        raise IllegalActionError(
            action,
            "no side has broken, the scenario's last turn is not over and it does not let "
            "the players end the battle",
            RULE_VICTORY,
        )


def apply_end_battle(state: State, action: EndBattle, log: Log) -> State:
    """End the battle: every removed commander rolls on the fate table (Risk to
    commanders)."""
    log.add("battle", f"the battle ends after turn {state.turn}: {ending(state)}",
            RULE_VICTORY)
    after: list[Commander] = []
    for leader in state.commanders:
        if not leader.removed:
            continue
        fate = commanders.commander_fate(leader, dice=log.dice)
        after.append(commanders.after_fate(leader, fate))
        log.add("fate", f"{leader.name}: {fate}", RULE_FATE, leader.id,
                facts={"test": "fate", "result": fate.name.lower().replace("_", " ")})
    new = state.with_commanders(*after) if after else state
    return enter_phase(new, ENDED)
