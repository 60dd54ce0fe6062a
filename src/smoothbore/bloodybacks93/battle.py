"""The battle state of Bloodybacks: what the rules keep between actions (activity levels,
the deck, activated units, deferred melees) and lookups into it (Bloodybacks 9.3, Sequence of
Play; Activating Units)."""

from __future__ import annotations

import attrs

from smoothbore.core import BattleState, DiceState

from . import sequence
from .charges import ChargeFacts
from .options import DEFAULT_OPTIONS, Options
from .phases import ACTIVITY
from .sequence import Card
from .units import SIDES, Commander, Unit


@attrs.frozen
class ActivityEntry:
    """A commander's activity level and command points left this turn."""

    commander_id: str
    level: int
    command_points: int


@attrs.frozen
class Activated:
    """A unit activated this turn: by whom, actions left, whether it has shot."""

    unit_id: str
    commander_id: str
    actions: int
    shot: bool = False


@attrs.frozen
class DeferredMelee:
    """A charge that made contact and waits for the end of the turn."""

    chargers: tuple[str, ...]
    defenders: tuple[str, ...]
    facts: ChargeFacts


@attrs.frozen
class Extra:
    """Bloodybacks' own state: the cards left, the current card, the turn length, activity
    levels, the commanders the card activated, units that tried to activate, units with
    actions left, deferred melees, and the options in play."""

    deck: tuple[Card, ...] = sequence.DECK
    card: Card | None = None
    minutes: int = 0
    activity: tuple[ActivityEntry, ...] = ()
    active: tuple[str, ...] = ()
    attempted: frozenset[str] = frozenset()
    activated: tuple[Activated, ...] = ()
    deferred: tuple[DeferredMelee, ...] = ()
    options: Options = DEFAULT_OPTIONS


State = BattleState[Unit, Commander, Extra]


def new_battle(
    units: tuple[Unit, ...],
    commanders_: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> State:
    """A battle at the start of turn 1, before activity is rolled."""
    return BattleState(
        ruleset="bloodybacks93",
        sides=SIDES,
        units=units,
        commanders=commanders_,
        extra=Extra(options=options),
        dice=DiceState(seed),
        turn=1,
        phase=ACTIVITY,
    )


def activity_of(state: State, commander_id: str) -> ActivityEntry | None:
    """The commander's activity entry this turn (None before activity is rolled or once removed)."""
    for entry in state.extra.activity:
        if entry.commander_id == commander_id:
            return entry
    return None


def activated_entry(state: State, unit_id: str) -> Activated | None:
    """The unit's entry if the current card has activated it."""
    for entry in state.extra.activated:
        if entry.unit_id == unit_id:
            return entry
    return None


def with_activated(extra: Extra, entry: Activated) -> Extra:
    """The extra state with this unit's activation entry set."""
    rest = tuple(e for e in extra.activated if e.unit_id != entry.unit_id)
    return attrs.evolve(extra, activated=(*rest, entry))


def with_activity(extra: Extra, entry: ActivityEntry) -> Extra:
    """The extra state with this commander's activity entry set."""
    return attrs.evolve(
        extra,
        activity=tuple(
            entry if e.commander_id == entry.commander_id else e for e in extra.activity
        ),
    )


def attached_commanders(state: State, unit_id: str) -> tuple[Commander, ...]:
    """The living commanders attached to a unit."""
    return tuple(c for c in state.commanders if c.attached_to == unit_id and not c.removed)


def leader_attached(state: State, unit: Unit) -> bool:
    """Whether the unit's own commander and/or the CinC rides with it (+1 to its morale and
    cohesion tests; Morale: Modifiers)."""
    return any(c.cinc or c.brigade == unit.brigade for c in attached_commanders(state, unit.id))


def unit_commander(state: State, unit: Unit) -> Commander | None:
    """The unit's own commander: the living commander of its brigade (not the CinC if a
    brigadier exists)."""
    mine = [
        c
        for c in state.commanders
        if c.side == unit.side and c.brigade == unit.brigade and not c.removed
    ]
    mine.sort(key=lambda c: c.cinc)
    return mine[0] if mine else None


def leaderless(state: State, unit: Unit) -> bool:
    """Whether the unit's commander is dead and not replaced (Activating Units)."""
    return unit_commander(state, unit) is None
