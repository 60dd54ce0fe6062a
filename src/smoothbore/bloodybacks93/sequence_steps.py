"""The steps of the sequence of play: activity, cards, the end of a card, deferred melees, the
next turn and the end of the battle (Bloodybacks 9.3, Sequence of Play)."""

from __future__ import annotations

import attrs

from smoothbore.core import Event, IllegalActionError, SamplingDice

from . import command, commanders, sequence
from .actions import DetermineActivity, DrawCard, EndActivation, EndBattle, EndTurn, ResolveDeferred
from .battle import ActivityEntry, Extra, State
from .charge_steps import fight
from .guards import need_phase
from .phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, ENDED, RULE_SEQUENCE
from .reports import event_since
from .units import Commander


def on_determine_activity(
    state: State, action: DetermineActivity, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Roll every living commander's activity level and command points; a fresh deck."""
    need_phase(state, action, ACTIVITY)
    entries: list[ActivityEntry] = []
    events: list[Event] = []
    for leader in state.commanders:
        if leader.removed:
            continue
        mark = len(dice.records)
        result = command.roll_activity(leader, dice=dice, options=state.extra.options)
        entries.append(ActivityEntry(leader.id, result.level, result.command_points))
        events.append(
            event_since(
                "activity", f"{leader.name}: {result}", command.RULE_ACTIVITY, leader.id, dice, mark
            )
        )
    extra = attrs.evolve(
        state.extra,
        activity=tuple(entries),
        deck=sequence.DECK,
        card=None,
        minutes=0,
        active=(),
        attempted=frozenset(),
        activated=(),
    )
    return attrs.evolve(state, extra=extra, phase=DRAW), tuple(events)


def on_draw_card(
    state: State, action: DrawCard, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Draw a card: the first sets the turn length; the card activates its commanders."""
    need_phase(state, action, DRAW)
    mark = len(dice.records)
    card = sequence.draw_card(state.extra.deck, dice=dice)
    first = len(state.extra.deck) == len(sequence.DECK)
    minutes = card.turn_minutes if first else state.extra.minutes
    active = tuple(
        a.commander_id
        for a in state.extra.activity
        if sequence.activates(card, state.commander(a.commander_id).side, a.level)
        and not state.commander(a.commander_id).removed
    )
    text = f"drew the {card}"
    if first:
        text += f": a {minutes}-minute turn (and any scenario random event)"
    if active:
        text += "; activates " + ", ".join(state.commander(c).name for c in active)
    extra = attrs.evolve(
        state.extra,
        deck=sequence.without(state.extra.deck, card),
        card=card,
        minutes=minutes,
        active=active,
        activated=(),
    )
    event = event_since("card", text, sequence.RULE_ACTIVATING, "", dice, mark)
    return attrs.evolve(state, extra=extra, phase=ACTIVATION), (event,)


def on_end_activation(
    state: State, action: EndActivation, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Finish with the card: draw the next, or resolve deferred melees once the deck is empty."""
    need_phase(state, action, ACTIVATION)
    extra = attrs.evolve(state.extra, active=(), activated=())
    phase = DRAW if extra.deck else DEFERRED
    text = "card finished" if extra.deck else "deck empty: deferred melees"
    return attrs.evolve(state, extra=extra, phase=phase), (Event("card", text, RULE_SEQUENCE),)


def on_resolve_deferred(
    state: State, action: ResolveDeferred, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Resolve the first deferred melee, the tables turned when ``reverse``."""
    need_phase(state, action, DEFERRED)
    if not state.extra.deferred:
        raise IllegalActionError(action, "no deferred melee", RULE_SEQUENCE)
    melee, rest = state.extra.deferred[0], state.extra.deferred[1:]
    chargers = tuple(state.unit(u) for u in melee.chargers)
    defenders = tuple(state.unit(u) for u in melee.defenders)
    if action.reverse:
        chargers, defenders = defenders, chargers
    chargers = tuple(u for u in chargers if not (u.destroyed or u.routing))
    defenders = tuple(u for u in defenders if not (u.destroyed or u.routing))
    new = attrs.evolve(state, extra=attrs.evolve(state.extra, deferred=rest))
    if not chargers or not defenders:
        return new, (Event("melee", "deferred melee lapses: one side has gone", RULE_SEQUENCE),)
    return fight(new, chargers, defenders, melee.facts, False, dice)


def on_end_turn(
    state: State, action: EndTurn, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """Start the next turn: units recovered from rout may act again."""
    need_phase(state, action, DEFERRED)
    if state.extra.deferred:
        raise IllegalActionError(
            action, "deferred melees are resolved before the next turn", RULE_SEQUENCE
        )
    units = tuple(
        attrs.evolve(u, recovered_from_rout=False) for u in state.units if u.recovered_from_rout
    )
    new = state.with_units(*units) if units else state
    extra = Extra(options=state.extra.options)
    return attrs.evolve(new, extra=extra, phase=ACTIVITY, turn=state.turn + 1), (
        Event("turn", f"turn {state.turn + 1} begins", RULE_SEQUENCE),
    )


def on_end_battle(
    state: State, action: EndBattle, dice: SamplingDice
) -> tuple[State, tuple[Event, ...]]:
    """End the battle: every removed commander rolls on the fate table (Risk to commanders)."""
    need_phase(state, action, DEFERRED)
    if state.extra.deferred:
        raise IllegalActionError(action, "deferred melees are resolved first", RULE_SEQUENCE)
    events = [Event("battle", f"the battle ends after turn {state.turn}", RULE_SEQUENCE)]
    after: list[Commander] = []
    for leader in state.commanders:
        if not leader.removed:
            continue
        mark = len(dice.records)
        fate = commanders.commander_fate(leader, dice=dice)
        after.append(commanders.after_fate(leader, fate))
        events.append(
            event_since(
                "fate", f"{leader.name}: {fate}", commanders.RULE_FATE, leader.id, dice, mark
            )
        )
    new = state.with_commanders(*after) if after else state
    return attrs.evolve(new, phase=ENDED), tuple(events)
