"""The battle state of Bolt Action ACW: the order-dice bag, the brigade or independent unit
in action, what each unit did this turn, charges waiting for the reaction, melees that go on
and routers to move; a new battle; and the read-only queries over the state (The Turn;
Brigade and army strength).

Scratch state that lasts one turn (units given an order, failed tests, the activated
brigades...) is ``turn_scoped``: ``begin_turn`` resets it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from smoothbore.core import BattleState, DiceState, InvalidValueError, Scenario, turn_scoped

from .charges import ChargeFacts
from .melee import MeleeFacts
from .morale import Command
from .options import DEFAULT_OPTIONS, Options
from .phases import DRAW
from .units import SIDES, Commander, Rank, Unit


@attrs.frozen
class PendingCharge:
    """A charge whose chargers passed their order test, waiting for the charged unit's
    reaction (Melee)."""

    charger_id: str
    target_id: str
    facts: ChargeFacts


@attrs.frozen
class Engaged:
    """A melee that continues into the next turn (Melee)."""

    charger_id: str
    defender_id: str
    facts: MeleeFacts


@attrs.frozen
class Extra:
    """Bolt Action ACW's own state.

    ``bag``: the colours of the order dice left this turn; ``drawn``: the colour just drawn,
    until its side picks what it activates; ``group``: the brigade or independent unit in
    action. Per turn: ``activated`` groups, units ``ordered`` (given their one order),
    ``failed`` (failed an order test: only hand-to-hand fighting left), ``rallied`` (stopped
    routing: stationary), ``tested`` (routing units tested), ``army_tested`` brigades,
    ``interpenetrated`` (passed through a friend: -1 to hit), ``halted`` chargers (may still
    fire at -1), ``second`` (victorious cavalry and the charge reach left),
    ``commanders_moved``, melees ``fought`` (charger, defender), units ``routed`` this turn
    (they test from the next). Lasting: ``charge`` waiting for its reaction, ``melees`` going on,
    ``routs`` to move, brigades gone ``home``."""

    bag: tuple[str, ...] = ()
    drawn: str | None = None
    group: str | None = None
    activated: frozenset[str] = turn_scoped(frozenset())
    ordered: frozenset[str] = turn_scoped(frozenset())
    failed: frozenset[str] = turn_scoped(frozenset())
    rallied: frozenset[str] = turn_scoped(frozenset())
    tested: frozenset[str] = turn_scoped(frozenset())
    army_tested: frozenset[str] = turn_scoped(frozenset())
    interpenetrated: frozenset[str] = turn_scoped(frozenset())
    halted: frozenset[str] = turn_scoped(frozenset())
    second: tuple[tuple[str, int], ...] = turn_scoped(())
    commanders_moved: frozenset[str] = turn_scoped(frozenset())
    fought: tuple[tuple[str, str], ...] = turn_scoped(())
    routed: frozenset[str] = turn_scoped(frozenset())
    charge: PendingCharge | None = None
    melees: tuple[Engaged, ...] = ()
    routs: tuple[str, ...] = ()
    home: frozenset[str] = frozenset()


State = BattleState[Unit, Commander, Extra, Options]

_EXTRA_FIELDS = tuple(field.name for field in attrs.fields(Extra))


def but(extra: Extra, **changes: Any) -> Extra:
    """``extra`` with some fields changed: ``attrs.evolve`` without its generic overhead
    (``Extra`` has no validators; the steps make many of these)."""
    unknown = set(changes) - set(_EXTRA_FIELDS)
    if unknown:
        raise InvalidValueError("Extra", sorted(unknown), "fields of Extra")
    new = object.__new__(Extra)
    put = object.__setattr__
    for name in _EXTRA_FIELDS:
        put(new, name, changes[name] if name in changes else getattr(extra, name))
    return new

R = TypeVar("R")


def per_state(query: Callable[[State], R]) -> Callable[[State], R]:
    """A query over a whole state, remembered for the last state it was asked of (the
    candidates and checks of one ``legal_actions`` ask the same questions many times). The
    state is immutable, so the answer cannot go stale."""
    last: list[Any] = [None, None]

    @functools.wraps(query)
    def remembered(state: State) -> R:
        if last[0] is not state:
            last[1] = query(state)
            last[0] = state
        result: R = last[1]
        return result

    return remembered

@per_state
def unit_index(state: State) -> dict[str, Unit]:
    """The state's units by id."""
    return {unit.id: unit for unit in state.units}


def find(state: State, unit_id: str) -> Unit:
    """The unit with this id (as ``state.unit``, without scanning the army every time)."""
    unit = unit_index(state).get(unit_id)
    return unit if unit is not None else state.unit(unit_id)


BRIGADE = "brigade:"
"""Groups are spelled ``brigade:<name>`` for a brigade, or an independent unit's id."""


def brigades_of(units: tuple[Unit, ...], side: str) -> tuple[str, ...]:
    """The brigades of a side, in order of first appearance."""
    seen: dict[str, None] = {}
    for unit in units:
        if unit.side == side and unit.brigade:
            seen[unit.brigade] = None
    return tuple(seen)


def group_of(unit: Unit) -> str:
    """The group a unit acts with: its brigade, or itself if independent (The Turn, 1)."""
    return BRIGADE + unit.brigade if unit.brigade else unit.id


def group_units(state: State, group: str) -> tuple[Unit, ...]:
    """The units of a group (The Turn)."""
    if group.startswith(BRIGADE):
        name = group[len(BRIGADE):]
        return tuple(u for u in state.units if u.brigade == name)
    return (find(state, group),)


def group_name(state: State, group: str) -> str:
    """A group in words."""
    if group.startswith(BRIGADE):
        name = group[len(BRIGADE):]
        for leader in state.commanders:
            if leader.brigade == name:
                return f"{leader.name}'s brigade"
        return f"brigade {name}"
    return find(state, group).name


def group_side(state: State, group: str) -> str:
    """The side of a group."""
    side = _group_sides(state).get(group)
    return side if side is not None else group_units(state, group)[0].side


@per_state
def _group_sides(state: State) -> dict[str, str]:
    return {group_of(unit): unit.side for unit in state.units}


def fill_bag(units: tuple[Unit, ...], commanders: tuple[Commander, ...],
             home: frozenset[str]) -> tuple[str, ...]:
    """The order dice of a turn: one of its side's colour per brigade commander whose
    brigade is still in the battle, and one per independent unit still in it (The Turn, 1)."""
    bag: list[str] = []
    for leader in commanders:
        if leader.rank is Rank.BRIGADE and leader.brigade not in home and any(
            u.brigade == leader.brigade and not u.lost for u in units
        ):
            bag.append(leader.side)
    bag.extend(u.side for u in units if u.independent and not u.lost)
    return tuple(sorted(bag))


def new_battle(
    units: tuple[Unit, ...],
    commanders: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    scenario: Scenario = Scenario(),  # noqa: B008 (a frozen value)
) -> State:
    """A battle at the start of turn 1, the bag filled, before the first die is drawn.
    A brigade's name belongs to one side."""
    for name in {u.brigade for u in units if u.brigade}:
        sides = {u.side for u in units if u.brigade == name}
        if len(sides) > 1:
            raise InvalidValueError("brigade", name, "a brigade of one side")
    return BattleState(
        ruleset="boltaction_acw",
        sides=SIDES,
        units=units,
        commanders=commanders,
        extra=Extra(bag=fill_bag(units, commanders, frozenset())),
        options=options,
        dice=DiceState(seed),
        turn=1,
        phase=DRAW,
        scenario=scenario,
    )


def groups_to_activate(state: State, side: str) -> tuple[str, ...]:
    """The groups of a side that may still take a die this turn: brigades not gone home
    with a unit left, independent units not lost, none activated yet (The Turn)."""
    extra = state.extra
    out: dict[str, None] = {}
    for unit in state.units:
        if unit.side != side or unit.lost:
            continue
        group = group_of(unit)
        if group in extra.activated or (unit.brigade and unit.brigade in extra.home):
            continue
        out[group] = None
    return tuple(out)


def engaged(state: State, unit_id: str) -> Engaged | None:
    """The melee the unit is locked in, if any."""
    for melee in state.extra.melees:
        if unit_id in (melee.charger_id, melee.defender_id):
            return melee
    return None


@per_state
def engaged_ids(state: State) -> frozenset[str]:
    """The units locked in melee."""
    return frozenset(u for m in state.extra.melees for u in (m.charger_id, m.defender_id))


def command_for(state: State, unit: Unit) -> Command:
    """The commanders who can help the unit's tests: its brigade commander and the army
    commander count as within range when they are with the unit (A14)."""
    brigade = army = False
    for leader in state.commanders:
        if leader.side != unit.side or leader.with_unit != unit.id:
            continue
        if leader.rank is Rank.ARMY:
            army = True
        elif leader.brigade == unit.brigade:
            brigade = True
    return Command(brigade, army)


def routing_friends(state: State, unit: Unit) -> int:
    """Friendly units routing within 6": the routing units of its own brigade (A15)."""
    if not unit.brigade:
        return 0
    return sum(1 for u in state.units
               if u.brigade == unit.brigade and u.side == unit.side and u.id != unit.id
               and u.routing and not u.lost)


def lost_for_strength(unit: Unit, options: Options) -> bool:
    """Whether a unit counts as lost for its brigade's 50%: destroyed, gone home, or (by
    default) routing (A18)."""
    return unit.lost or (options.routing_counts_as_lost and unit.routing)


def ineffective(state: State, side: str, brigade: str) -> bool:
    """A brigade that has lost 50% of its units is combat ineffective (Brigade and army
    strength)."""
    units = [u for u in state.units if u.side == side and u.brigade == brigade]
    lost = sum(1 for u in units if lost_for_strength(u, state.options))
    return bool(units) and 2 * lost >= len(units)


def brigade_lost(state: State, side: str, brigade: str) -> bool:
    """A brigade lost to its army: gone home or combat ineffective (A18)."""
    return brigade in state.extra.home or ineffective(state, side, brigade)


def army_broken(state: State, side: str) -> bool:
    """An army that has lost 50% of its brigades (Brigade and army strength)."""
    return side in broken_armies(state)


@per_state
def broken_armies(state: State) -> frozenset[str]:
    """The sides whose army has lost 50% of its brigades."""
    out = set()
    for side in state.sides:
        brigades = brigades_of(state.units, side)
        lost = sum(1 for b in brigades if brigade_lost(state, side, b))
        if brigades and 2 * lost >= len(brigades):
            out.add(side)
    return frozenset(out)


def in_the_fight(state: State, side: str) -> tuple[Unit, ...]:
    """The units of a side neither lost nor routing."""
    return tuple(u for u in state.units if u.side == side and u.in_the_fight)


def with_units(state: State, *units: Unit) -> State:
    """The state with these units replacing those of the same id. A unit that has just
    routed is queued to make its rout move; melees and second charges of units lost or
    routing end (Morale Test; Melee)."""
    newly = tuple(u.id for u in units
                  if u.routing and not u.lost and not find(state, u.id).routing)
    new = state.with_units(*units)
    extra = new.extra
    out = set(u.id for u in units if not u.in_the_fight)
    if not newly and not out:
        return new
    melees = tuple(m for m in extra.melees
                   if m.charger_id not in out and m.defender_id not in out)
    routs = tuple(r for r in extra.routs if not find(new, r).lost) + tuple(
        r for r in newly if r not in extra.routs)
    second = tuple(s for s in extra.second if s[0] not in out)
    return new.replace(extra=but(extra, melees=melees, routs=routs, second=second,
                                          routed=extra.routed | set(newly)))
