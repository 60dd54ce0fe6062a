"""The state of a move in the Turn (Rules - Move Sequence): the phases A-K as data, the
charges declared and tested, whose move it is and what has happened in it, and the queries the
phase handlers share."""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from smoothbore.core import BattleState, DiceState, Phase

from . import rules
from .charges import ChargedResult, ChargeFacts
from .fortifications import Defence, Demolition
from .options import DEFAULT_OPTIONS, Options
from .units import Rank, WillGeneral, WillUnit

A, B, C, D, E, F, G, H, I, J, K = "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"  # noqa: E741


ORDER = (A, B, C, D, E, F, G, H, I, J, K)


PHASES: tuple[Phase, ...] = (
    Phase(A, rules.SEQUENCE, "test the morale of the moving player's shaken and routing units"),
    Phase(B, rules.SEQUENCE, "move every unit that must rout or retire"),
    Phase(C, rules.SEQUENCE, 'move all other units, not within 1" of an enemy'),
    Phase(D, rules.SEQUENCE, "the firing player may change facing (not within charge reach)"),
    Phase(E, rules.SEQUENCE, "the firing player fires, with the morale effect of fire"),
    Phase(F, rules.SEQUENCE, "the moving player's unshaken units declare charges"),
    Phase(G, rules.SEQUENCE, "test the morale of each charged unit"),
    Phase(H, rules.SEQUENCE, "counter-charge, evade or rout the charged units"),
    Phase(I, rules.SEQUENCE, "move chargers into contact, or to the routed unit's place"),
    Phase(J, rules.SEQUENCE, "resolve melees and rout or fall back the losers"),
    Phase(K, rules.SEQUENCE, "cavalry that charged successfully may charge a second time"),
)


@attrs.frozen
class Charge:
    """A declared charge with the facts of the approach."""

    charger: str
    target: str
    distance: float
    facts: ChargeFacts = attrs.field(factory=ChargeFacts)
    over_obstacle: bool = False
    uphill: bool = False
    contact: bool = False


@attrs.frozen
class TestedCharge:
    """The result of a charged unit's test, and its choice in H."""

    target: str
    result: ChargedResult
    counter: bool = False
    decided: bool = False
    evaded: bool = False
    surrender_tested: bool = False


@attrs.frozen
class WillExtra:
    """Whose move it is and what has happened in it."""

    moving: str
    first: str
    options: Options = DEFAULT_OPTIONS
    done: frozenset[str] = frozenset()
    fired: frozenset[str] = frozenset()
    ordered: frozenset[str] = frozenset()
    failed: frozenset[str] = frozenset()
    independents: bool = False
    charges: tuple[Charge, ...] = ()
    tests: tuple[TestedCharge, ...] = ()
    resolved: frozenset[str] = frozenset()
    winners: frozenset[str] = frozenset()
    second_round: bool = False
    works: tuple[Defence, ...] = ()
    demolitions: tuple[Demolition, ...] = ()


WillState: TypeAlias = BattleState[WillUnit, WillGeneral, WillExtra]


def new_battle(
    sides: tuple[str, str],
    units: tuple[WillUnit, ...],
    generals: tuple[WillGeneral, ...] = (),
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    works: tuple[Defence, ...] = (),
) -> WillState:
    """A battle at the start of the first side's move."""
    extra = WillExtra(moving=sides[0], first=sides[0], options=options, works=works)
    return BattleState(
        ruleset="will_awi",
        sides=sides,
        units=units,
        commanders=generals,
        extra=extra,
        dice=DiceState(seed),
        turn=1,
        phase=A,
    )


def firing_side(state: WillState) -> str:
    """The side that fires this move (the one not moving)."""
    return next(s for s in state.sides if s != state.extra.moving)


def attached_general(state: WillState, unit_id: str) -> WillGeneral | None:
    """The highest-ranking active general with the unit."""
    with_unit = [g for g in state.commanders if g.active and g.attached_to == unit_id]
    if not with_unit:
        return None
    return max(with_unit, key=lambda g: g.rank.test_bonus)


def rank_with(state: WillState, unit_id: str) -> Rank | None:
    """The rank of the best general with the unit, for its morale tests (None: none)."""
    g = attached_general(state, unit_id)
    return None if g is None else g.rank


def needs_test(state: WillState) -> tuple[WillUnit, ...]:
    """Units of the moving player still to test in A (not those of note (a))."""
    return tuple(
        u
        for u in state.units_of(state.extra.moving)
        if (u.shaken or u.routing) and not u.routed_last_move and u.id not in state.extra.done
    )


def compulsory_units(state: WillState) -> tuple[WillUnit, ...]:
    """Units of the moving player still to rout or retire in B."""
    return tuple(
        u
        for u in state.units_of(state.extra.moving)
        if u.on_table
        and (u.routing or u.must_retire)
        and u.id not in state.extra.done
        and not u.immobilised
        and not (u.routing and u.routed_last_move)
    )


def tested_charge(state: WillState, target: str) -> TestedCharge | None:
    """The charged test taken by a target this round, if any."""
    return next((t for t in state.extra.tests if t.target == target), None)


def charges_on(state: WillState, target: str) -> tuple[Charge, ...]:
    """The charges declared on a target."""
    return tuple(c for c in state.extra.charges if c.target == target)


def pending_melees(state: WillState) -> tuple[str, ...]:
    """Targets that stood or counter-charged and still have a melee to fight."""
    out: list[str] = []
    for t in state.extra.tests:
        if t.target in state.extra.resolved or t.evaded:
            continue
        if t.result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            target = state.unit(t.target)
            chargers = [state.unit(c.charger) for c in charges_on(state, t.target)]
            if target.on_table and any(c.on_table for c in chargers) and t.target not in out:
                out.append(t.target)
    return tuple(out)


def contacts_needed(state: WillState) -> tuple[Charge, ...]:
    """Charges whose target routed or evaded: the charger still has to move."""
    out = []
    for c in state.extra.charges:
        t = tested_charge(state, c.target)
        if t is None or c.contact:
            continue
        gone = t.evaded or t.result in (
            ChargedResult.ROUTS,
            ChargedResult.ROUTS_SURRENDERS,
            ChargedResult.SURRENDERS,
        )
        if gone and state.unit(c.charger).on_table:
            out.append(c)
    return tuple(out)


def ready_demolitions(state: WillState) -> tuple[Demolition, ...]:
    """Demolitions whose layers (of the moving side) moved away this move."""
    return tuple(
        d
        for d in state.extra.demolitions
        if d.away and state.unit(d.unit).side == state.extra.moving
    )


def with_extra(state: WillState, **changes: Any) -> WillState:
    """The state with some fields of ``extra`` changed."""
    return attrs.evolve(state, extra=attrs.evolve(state.extra, **changes))


def mark_done(state: WillState, *ids: str) -> WillState:
    """The state with these units (or ``general:<id>`` keys) marked as having acted this
    phase."""
    return with_extra(state, done=state.extra.done | set(ids))


def with_work(state: WillState, work: Defence) -> WillState:
    """The state with one work replaced (by id)."""
    works = tuple(work if w.id == work.id else w for w in state.extra.works)
    return with_extra(state, works=works)
