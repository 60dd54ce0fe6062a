"""The battle state of Bloodybacks: what the rules keep between actions (activity levels, the
deck, the card in play, the units it activated, deferred melees), a new battle, and the
read-only queries over the state (Bloodybacks 9.3, Sequence of Play; Activating Units).

Scratch state is declared by scope: what lasts one card (the card, the commanders it
activated, the units activated under it) is reset when the turn enters a phase, and what lasts
one turn (the deck, the turn length, activity levels, the units that tried to activate, routed
or recovered from rout, deferred melees) when the next turn begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import BattleState, DiceState, Scenario, phase_scoped, turn_scoped
from smoothbore.core.state import evolved
from smoothbore.core.validate import at_least, in_range, refers_to
from smoothbore.table import Table

from .charges import ChargeFacts
from .deck import DECK, Card, activates_leaderless
from .options import DEFAULT_OPTIONS, Options
from .phases import ACTIVITY
from .placement import table_for
from .units import FLAG, SIDES, Commander, Unit


@attrs.frozen
class ActivityEntry:
    """A commander's activity level and command points left this turn."""

    commander_id: str = attrs.field(metadata=refers_to("commanders"))
    level: int = attrs.field(validator=in_range(1, 5))
    command_points: int = attrs.field(validator=in_range(0, 3))


@attrs.frozen
class Activated:
    """A unit activated by the current card: by whom ("" for a leaderless unit on its ace),
    actions left, whether it has shot this turn."""

    unit_id: str = attrs.field(metadata=refers_to("units"))
    commander_id: str = attrs.field(metadata=refers_to("commanders", blank=True))
    actions: int = attrs.field(validator=at_least(0))
    shot: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class DeferredMelee:
    """A charge that made contact and waits for the end of the turn."""

    chargers: tuple[str, ...] = attrs.field(metadata=refers_to("units"))
    defenders: tuple[str, ...] = attrs.field(metadata=refers_to("units"))
    facts: ChargeFacts


@attrs.frozen
class Extra:
    """Bloodybacks' own state.

    Per card (reset on entering a phase): ``card``, the commanders it activated (``active``)
    and the units activated under it (``activated``). Per turn (reset by the next turn): the
    cards left (``deck``), the turn length (``minutes``), activity levels (``activity``), the
    units that tried to activate (``attempted``), that routed (``routed``: they re-test only
    in later turns) or stopped routing (``recovered``: they may not activate) this turn, and
    the melees deferred to its end (``deferred``). Lasting: the ``table`` the battle is
    played on (None: the caller gives the measured facts of each action)."""

    card: Card | None = phase_scoped(None)
    active: tuple[str, ...] = phase_scoped((), metadata=refers_to("commanders"))
    activated: tuple[Activated, ...] = phase_scoped(())
    deck: tuple[Card, ...] = turn_scoped(DECK)
    minutes: int = turn_scoped(0)
    activity: tuple[ActivityEntry, ...] = turn_scoped(())
    attempted: frozenset[str] = turn_scoped(frozenset(), metadata=refers_to("units"))
    routed: frozenset[str] = turn_scoped(frozenset(), metadata=refers_to("units"))
    recovered: frozenset[str] = turn_scoped(frozenset(), metadata=refers_to("units"))
    deferred: tuple[DeferredMelee, ...] = turn_scoped(())
    table: Table | None = None

    @staticmethod
    def check_battle(state: State, path: str | None = "$") -> None:
        """The loader's hook (``BattleState.from_data``): the whole-battle check
        (``validity.check_battle``), every fault a ``LoadError`` by its path."""
        from .validity import check_battle  # validity reads the placement and situations

        check_battle(state, path)


State = BattleState[Unit, Commander, Extra, Options]

OPEN_ENDED = Scenario()
"""No scenario: no turn limit, and the players may not end the battle (B48)."""


def new_battle(
    units: tuple[Unit, ...],
    commanders_: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    scenario: Scenario = OPEN_ENDED,
    table: Table | None = None,
) -> State:
    """A battle at the start of turn 1, before activity is rolled. Without a scenario it has
    no turn limit and the players may not end it: it ends when a side breaks (B48). With a
    ``table`` the battle is played from positions (see ``situations``): its footprints are
    those of the units, and commanders not on it are placed with the units they ride with.
    A battle that does not hold together is refused with every fault named
    (``validity.check_battle``: the check every load makes too)."""
    if table is not None:
        table = table_for(units, commanders_, table)
    state: State = BattleState(
        ruleset="bloodybacks93",
        sides=SIDES,
        units=units,
        commanders=commanders_,
        extra=Extra(table=table),
        options=options,
        dice=DiceState(seed),
        turn=1,
        phase=ACTIVITY,
        scenario=scenario,
    )
    state.check_references()
    Extra.check_battle(state, None)
    return state


def unit_places(state: State) -> Mapping[str, int]:
    """Each unit's place in the state's order of units, by id (worked out once per state)."""
    return MappingProxyType({u.id: i for i, u in enumerate(state.units)})


def activity_by_id(state: State) -> Mapping[str, ActivityEntry]:
    """This turn's activity entries by commander id (once per state, ``activity_of``)."""
    found: dict[str, ActivityEntry] = {}
    for entry in state.extra.activity:
        found.setdefault(entry.commander_id, entry)  # the first, as a walk would find
    return MappingProxyType(found)


def activity_of(state: State, commander_id: str) -> ActivityEntry | None:
    """The commander's activity entry this turn (None before activity is rolled or once removed)."""
    return state.derived(activity_by_id).get(commander_id)


def activated_entry(state: State, unit_id: str) -> Activated | None:
    """The unit's entry if the current card has activated it."""
    for entry in state.extra.activated:
        if entry.unit_id == unit_id:
            return entry
    return None


def with_activated(extra: Extra, entry: Activated) -> Extra:
    """The extra state with this unit's activation entry set."""
    rest = tuple(e for e in extra.activated if e.unit_id != entry.unit_id)
    return evolved(extra, {"activated": (*rest, entry)})


def with_activity(extra: Extra, entry: ActivityEntry) -> Extra:
    """The extra state with this commander's activity entry set."""
    return evolved(extra, {"activity": tuple(
        entry if e.commander_id == entry.commander_id else e for e in extra.activity)})


def with_units(state: State, *units: Unit) -> State:
    """The state with these units replacing those of the same id, noting the units that
    routed this turn (they re-test only in later turns) and those that stopped routing (they
    may not activate this turn) (Morale; Activating Units)."""
    routed = {u.id for u in units if u.routing and not state.unit(u.id).routing}
    recovered = {
        u.id for u in units if not u.routing and not u.destroyed and state.unit(u.id).routing
    }
    new = state.with_units(*units)
    if not routed and not recovered:
        return new
    extra = state.extra
    return new.with_extra(routed=extra.routed | routed,
                          recovered=(extra.recovered | recovered) - routed)


def attached_commanders(state: State, unit_id: str) -> tuple[Commander, ...]:
    """The living commanders attached to a unit."""
    return tuple(c for c in state.commanders if c.attached_to == unit_id and not c.removed)


def leader_attached(state: State, unit: Unit) -> bool:
    """Whether the unit's own commander and/or the CinC rides with it (+1 to its morale and
    cohesion tests; Morale: Modifiers)."""
    return any(c.cinc or c.brigade == unit.brigade for c in attached_commanders(state, unit.id))


def led_units(state: State, units: tuple[Unit, ...]) -> frozenset[str]:
    """The ids of those units whose own commander or the CinC is attached to them."""
    return frozenset(u.id for u in units if leader_attached(state, u))


def unit_commander(state: State, unit: Unit) -> Commander | None:
    """The unit's own commander: the living commander of its brigade (not the CinC if a
    brigadier exists)."""
    return state.derived(own_commanders).get((unit.side, unit.brigade))


def own_commanders(state: State) -> dict[tuple[str, str], Commander]:
    """The own commander of the units of each (side, brigade) with one (``unit_commander``):
    its first living brigadier, else its first living CinC; worked out once per state."""
    found: dict[tuple[str, str], Commander] = {}
    for leader in sorted((c for c in state.commanders if not c.removed),
                         key=lambda c: c.cinc):
        found.setdefault((leader.side, leader.brigade), leader)
    return found


def leaderless(state: State, unit: Unit) -> bool:
    """Whether the unit's commander is dead and not replaced (Activating Units)."""
    return unit_commander(state, unit) is None


def broken_sides(state: State) -> tuple[str, ...]:
    """The sides with no unit left in good order: every unit destroyed or routing (B48)."""
    standing = {u.side for u in state.units if not (u.destroyed or u.routing)}
    if len(standing) == len(state.sides):
        return ()
    return tuple(side for side in state.sides if side not in standing)


def due_rout_tests(state: State) -> tuple[str, ...]:
    """The routing units of the card's side that must take their morale test under it: not
    routed this turn nor tested yet, and their own commander active on the card (or, without
    a living commander, the card their side's ace) (Morale; Activating Units; B28)."""
    card = state.extra.card
    if card is None:
        return ()
    extra = state.extra
    due = []
    for unit in state.units:
        if (
            unit.side != card.side
            or not unit.routing
            or unit.id in extra.attempted
            or unit.id in extra.routed
        ):
            continue
        own = unit_commander(state, unit)
        if own is None:
            if activates_leaderless(card, unit.side):
                due.append(unit.id)
        elif own.id in extra.active:
            due.append(unit.id)
    return tuple(due)


def with_table(state: State, table: Table) -> State:
    """The state with this table (a unit moved, turned or traced)."""
    return state.with_extra(table=table)
