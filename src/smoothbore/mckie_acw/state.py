"""The state of a McKie ACW battle: who moves first this period, the charges and melees, what
each unit has done this step and this period, the ammunition trains and the prisoners, and the
read-only queries the steps share.

A turn is one battle period (``begin_turn``): ``turn_scoped`` fields last a period,
``phase_scoped`` ones a step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import attrs

from smoothbore.core import (
    BattleState,
    DiceState,
    IllegalActionError,
    InvalidValueError,
    Scenario,
    phase_scoped,
    turn_scoped,
)
from smoothbore.table import Measure, Table, check_deployed

from . import rules
from .melee import Attack
from .morale import Circumstance, MoraleFacts
from .options import DEFAULT_OPTIONS, Options
from .phases import INITIATIVE
from .tables import Cell
from .units import DIG_PERIODS, Commander, Fate, Rank, Unit, Weapon

NO_SCENARIO = Scenario()
LINE_OF_COMMAND = 10
"""The longest line of command followed up (a commander and nine superiors)."""
SNIPER_EVERY = 200
"""Sharpshooters: at most 1 figure in every 200 of the army armed with a sniper rifle."""


@attrs.frozen
class Charge:
    """A declared charge (or counter charge, on a charging enemy) that carried on; ``stopped``
    once a later test halts or breaks it (steps 5 and 6); ``attack``: the target's front,
    flank or rear, as the charging player measured it."""

    charger: str
    target: str
    counter: bool = False
    stopped: bool = False
    attack: Attack = Attack.FRONT


@attrs.frozen
class Contact:
    """Two units in melee: the attacker (the charger), the defender, whether each charged
    into it this period, where the defender was attacked from, and how many periods it has
    lasted."""

    attacker: str
    defender: str
    attacker_charging: bool = True
    defender_charging: bool = False
    attack: Attack = Attack.FRONT
    periods: int = 0
    winner: str = ""


@attrs.frozen
class Extra:
    """What only McKie ACW tracks.

    Per battle: ``first`` (the side moving first this period), ``table`` (the units and
    terrain on a tabletop, or None: the players measure and actions carry the facts),
    ``contacts`` (melees that go on), ``last_fired_on_by`` (last period's (target, firer)
    pairs, for target priority 2),
    ``reserves`` ((corps commander, rounds) of each ammunition train), ``trains`` (on a
    table, (corps commander, x, y): where each train stands, M10) and ``prisoners``
    ((side holding them, figures)). Per period: the initiative winner, commanders activated
    and tried, charges, who moved or manoeuvred (``moved``), who moved position
    (``shifted``), advanced, fired, worked (no rest), was fired on by whom, from flank or
    rear, under artillery fire, won or lost a melee, lost what, routed, and the tests taken.
    Per step: the acting side, units done, passes, the casualties awaiting the percentage
    roll, a follow-up to decide (and how far the loser was pushed back on a table,
    ``pushed`` as (dx, dy) mm), and the generals who have run the risk of this step's fire
    (``risked``: one throw a general, M26)."""

    first: str
    acting: str
    contacts: tuple[Contact, ...] = ()
    last_fired_on_by: tuple[tuple[str, str], ...] = ()
    reserves: tuple[tuple[str, int], ...] = ()
    trains: tuple[tuple[str, float, float], ...] = ()
    prisoners: tuple[tuple[str, int], ...] = ()
    table: Table | None = None
    initiative: str = turn_scoped("")
    activated: frozenset[str] = turn_scoped(frozenset())
    attempted: frozenset[str] = turn_scoped(frozenset())
    charges: tuple[Charge, ...] = turn_scoped(())
    moved: frozenset[str] = turn_scoped(frozenset())
    shifted: frozenset[str] = turn_scoped(frozenset())
    advanced: frozenset[str] = turn_scoped(frozenset())
    fired: frozenset[str] = turn_scoped(frozenset())
    worked: frozenset[str] = turn_scoped(frozenset())
    fired_on_by: tuple[tuple[str, str], ...] = turn_scoped(())
    flanked: frozenset[str] = turn_scoped(frozenset())
    rear: frozenset[str] = turn_scoped(frozenset())
    under_artillery: frozenset[str] = turn_scoped(frozenset())
    won_melee: frozenset[str] = turn_scoped(frozenset())
    lost_melee: frozenset[str] = turn_scoped(frozenset())
    fire_lost: tuple[tuple[str, int], ...] = turn_scoped(())
    lost: tuple[tuple[str, int], ...] = turn_scoped(())
    routed: frozenset[str] = turn_scoped(frozenset())
    tested: frozenset[str] = turn_scoped(frozenset())
    halted: frozenset[str] = turn_scoped(frozenset())
    digging: frozenset[str] = turn_scoped(frozenset())
    done: frozenset[str] = phase_scoped(frozenset())
    passed: frozenset[str] = phase_scoped(frozenset())
    pending: tuple[tuple[str, Cell], ...] = phase_scoped(())
    follow: tuple[str, ...] = phase_scoped(())
    pushed: tuple[float, float] = phase_scoped((0.0, 0.0))
    risked: frozenset[str] = phase_scoped(frozenset())


State: TypeAlias = BattleState[Unit, Commander, Extra, Options]
"""A McKie ACW battle."""


def new_battle(
    sides: tuple[str, str],
    units: tuple[Unit, ...],
    commanders: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    reserve_rounds: int = 6,
    army_figures: tuple[int, int] | None = None,
    scenario: Scenario = NO_SCENARIO,
    table: Table | None = None,
    trains: Mapping[str, tuple[float, float]] | None = None,
) -> State:
    """A battle at the start of its first period (initiative not yet rolled). Each corps (a
    corps commander, or the commander-in-chief where there is none) has an ammunition train of
    ``reserve_rounds`` (at most 6) per figure or gun of its units. ``army_figures``: the
    figures of each whole army, where the battle fields part of it (for the 1-in-200 sniper
    limit; default the figures on the table). ``table``: where the units stand (millimetres;
    footprints from ``positions.footprint``): shots, charges and moves are then measured on it.
    ``trains``: on a table, where each corps' ammunition train stands (x, y mm, by corps
    commander); by default behind its corps (``positions.trains_behind``, M10)."""
    from .ammunition import reserve_for

    if not 0 <= reserve_rounds <= 6:
        raise InvalidValueError("reserve_rounds", reserve_rounds, "0 to 6 rounds per figure")
    for side in sides:
        chiefs = [c for c in commanders if c.side == side and c.rank is Rank.CINC]
        if len(chiefs) != 1:
            raise InvalidValueError(f"commanders of {side}", [c.id for c in chiefs],
                                    "exactly one commander-in-chief")
    ids = {c.id for c in commanders}
    for c in commanders:
        if c.superior and c.superior not in ids:
            raise InvalidValueError(f"Commander({c.id}).superior", c.superior,
                                    "a commander's id")
    for u in units:
        if u.commander not in ids:
            raise InvalidValueError(f"Unit({u.id}).commander", u.commander, "a commander's id")
    for i, side in enumerate(sides):
        own = [u for u in units if u.side == side]
        snipers = sum(u.figures for u in own if u.weapon is Weapon.SNIPER_RIFLE)
        army = army_figures[i] if army_figures else sum(u.figures for u in own)
        if snipers > army // SNIPER_EVERY:
            raise InvalidValueError(f"sniper figures of {side}", snipers,
                                    f"at most 1 in every {SNIPER_EVERY} figures of the army "
                                    f"({army // SNIPER_EVERY} for {army})")
    if table is not None:
        check_deployed(table, units, on_table=_on_table, commanders=commanders,
                       measure=Measure.MILLIMETRES)
    base: State = BattleState(
        ruleset="mckie_acw", sides=sides, units=units, commanders=commanders,
        extra=Extra(first=sides[0], acting=sides[0], table=table), options=options,
        dice=DiceState(seed),
        turn=1, phase=INITIATIVE, scenario=scenario,
    )
    served: dict[str, list[Unit]] = {}
    for u in units:
        served.setdefault(corps_of(base, u), []).append(u)
    reserves = tuple((corps, reserve_for(tuple(us), reserve_rounds))
                     for corps, us in served.items())
    state = with_extra(base, reserves=reserves)
    if table is not None:
        from .positions import grounded, synced, trains_behind

        placed = trains_behind(table, state, trains or {})
        state = with_extra(grounded(synced(state)), trains=placed)
    elif trains:
        raise InvalidValueError("trains", dict(trains), "positions only on a table")
    return state


def _on_table(unit: Unit) -> bool:
    """Units destroyed, surrendered or gone off the table have no footprint."""
    return unit.on_table


# --- queries ---------------------------------------------------------------------------
def illegal(action: object, why: str, rule: str = rules.BATTLE_PERIOD) -> IllegalActionError:
    """The error for an action the rules forbid, naming the rule."""
    return IllegalActionError(action, why, rule)


def other(state: State, side: str) -> str:
    """The other side."""
    return state.sides[1] if state.sides[0] == side else state.sides[0]


def find_unit(state: State, unit_id: str) -> Unit:
    """The unit with this id."""
    unit = state.derived(units_by_id).get(unit_id)
    if unit is None:
        return state.unit(unit_id)  # the error naming the ids there are
    return unit


def units_by_id(state: State) -> dict[str, Unit]:
    """Every unit by its id (once a state: each check looks its units up)."""
    return {unit.id: unit for unit in state.units}


def find_commander(state: State, commander_id: str) -> Commander:
    """The commander with this id."""
    for commander in state.commanders:
        if commander.id == commander_id:
            return commander
    return state.commander(commander_id)  # the error naming the ids there are


def own_unit(state: State, unit_id: str, action: object) -> Unit:
    """A unit of the acting side on the table, or the error."""
    unit = find_unit(state, unit_id)
    if unit.side != state.extra.acting:
        raise illegal(action, f"{unit.name} is not a unit of {state.extra.acting}")
    if not unit.on_table:
        raise illegal(action, f"{unit.name} is no longer on the table")
    return unit


def superior_of(state: State, commander: Commander) -> Commander | None:
    """A commander's superior (None for the commander-in-chief)."""
    if commander.superior:
        for c in state.commanders:
            if c.id == commander.superior:
                return c
    return None


def chain(state: State, commander_id: str) -> tuple[Commander, ...]:
    """A commander and his superiors up to the commander-in-chief."""
    current: Commander | None = find_commander(state, commander_id)
    line: list[Commander] = []
    while current is not None and len(line) < LINE_OF_COMMAND:
        line.append(current)
        current = superior_of(state, current)
    return tuple(line)


def corps_of(state: State, unit: Unit) -> str:
    """The corps whose ammunition train serves a unit: its corps commander, or the
    commander-in-chief where it has none."""
    line = chain(state, unit.commander)
    corps = next((c for c in line if c.rank is Rank.CORPS), None)
    return (corps or line[-1]).id


def in_command(state: State, unit: Unit) -> Commander:
    """The general commanding a unit now: its own, or the next active one up the line if he
    has fallen (M5); the top of the line if all have fallen."""
    return _in_command(state, find_commander(state, unit.commander))


def _in_command(state: State, own: Commander) -> Commander:
    c = own
    for _ in range(LINE_OF_COMMAND - 1):
        if c.fate is Fate.ACTIVE:
            return c
        above = superior_of(state, c)
        if above is None:
            return c
        c = above
    return c


def may_advance(state: State, unit: Unit) -> bool:
    """Whether a unit may advance voluntarily: its commander's order lets troops advance and
    he is activated this period, or carries on with old orders (Activation)."""
    return state.derived(_advancing)[unit.commander]


def _advancing(state: State) -> dict[str, bool]:
    """``may_advance`` for the units of each commander, by the commander's id (worked out once
    a state)."""
    return {c.id: _lets_advance(state, c) for c in state.commanders}


def _lets_advance(state: State, commander: Commander) -> bool:
    c = _in_command(state, commander)
    if c.rank is Rank.CINC:
        return True  # the commander-in-chief writes the orders and needs no activation (M5)
    if not c.order.kind.advances:
        return False
    return c.id in state.extra.activated or c.order.started


def general_with(state: State, unit: Unit) -> bool:
    """Whether a general in the unit's line of command is with it (Morale: +1)."""
    line = {c.id for c in chain(state, unit.commander)}
    return any(c.active and c.attached_to == unit.id and c.id in line for c in state.commanders)


def generals_with(state: State, unit_id: str) -> tuple[Commander, ...]:
    """Every active general with a unit (Risk to generals)."""
    return tuple(c for c in state.commanders if c.active and c.attached_to == unit_id)


def amount(pairs: tuple[tuple[str, int], ...], key: str) -> int:
    """The value for ``key`` in a tuple of (key, value) pairs (0 if absent)."""
    return next((v for k, v in pairs if k == key), 0)


def add_amount(pairs: tuple[tuple[str, int], ...], key: str, value: int
               ) -> tuple[tuple[str, int], ...]:
    """The pairs with ``value`` added to ``key``."""
    if any(k == key for k, _ in pairs):
        return tuple((k, v + value if k == key else v) for k, v in pairs)
    return (*pairs, (key, value))


def contact_of(state: State, unit_id: str) -> Contact | None:
    """The melee a unit is in, if any."""
    for c in state.extra.contacts:
        if c.attacker == unit_id or c.defender == unit_id:
            return c
    return None


def live_charges(state: State) -> tuple[Charge, ...]:
    """The charges still going in."""
    return tuple(c for c in state.extra.charges if not c.stopped)


def in_cover(unit: Unit) -> bool:
    """Morale: behind or in cover: cover, woods, a town, permanent defenses or a finished
    trench."""
    return unit.ground.is_cover or unit.dug >= DIG_PERIODS


def morale_facts(state: State, unit: Unit, circumstance: Circumstance, routing_past: int = 0,
                 subtract_quality: bool = False, subtract_cover: bool = False) -> MoraleFacts:
    """The morale tactical factors of a unit now, from the state: attacked from the flank or
    rear when marked so this period or when a charge still going in strikes it there (so the
    test to receive that charge counts it, M27)."""
    x = state.extra
    struck = {c.attack for c in live_charges(state) if c.target == unit.id and not c.counter}
    advancing = circumstance in (Circumstance.CHARGING, Circumstance.CHARGER_FIRED_ON) or (
        unit.id in x.advanced)
    return MoraleFacts(
        quality=unit.quality,
        in_cover=in_cover(unit),
        advancing=advancing,
        general=general_with(state, unit),
        won_melee=unit.id in x.won_melee,
        lost_melee=unit.id in x.lost_melee,
        under_artillery=unit.id in x.under_artillery,
        tenths_lost=unit.lost * 10 // unit.initial_figures,
        routing_past=routing_past,
        tired=unit.tired,
        exhausted=unit.exhausted,
        flank=unit.id in x.flanked or Attack.FLANK in struck,
        rear=unit.id in x.rear or Attack.REAR in struck,
        retreating=unit.status.value == "retreating",
        routing=unit.status.value == "routing",
        subtract_quality=subtract_quality,
        subtract_cover=subtract_cover,
    )


def mark(state: State, field: str, *ids: str) -> State:
    """The state with ids added to one of the frozenset fields of ``extra``."""
    current: frozenset[str] = getattr(state.extra, field)
    return with_extra(state, **{field: current | frozenset(ids)})


def with_extra(state: State, **changes: Any) -> State:
    """The state with some fields of ``extra`` changed."""
    return state.with_extra(**changes)
