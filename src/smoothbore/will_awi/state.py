"""The state of a battle (Rules - Move Sequence): whose move it is, the works on the table,
what has happened this phase and this move, and the read-only queries the steps share.

A turn is both sides' moves. Each move begins with ``begin_turn`` (the second move of a turn
keeps the turn's number), so the ``turn_scoped`` fields of ``Extra`` last one move and the
``phase_scoped`` ones one phase."""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from smoothbore.core import (
    BattleState,
    DiceState,
    IllegalActionError,
    Scenario,
    phase_scoped,
    turn_scoped,
)
from smoothbore.core.validate import MAX_INCHES, finite, one_of, refers_to
from smoothbore.table import Table

from . import rules
from .actions import Entering
from .charges import ChargedResult, ChargeFacts, Face
from .fortifications import Defence, Demolition, check_room
from .movement import Crossing, crossing_cost
from .options import DEFAULT_OPTIONS, CommandPost, Options
from .phases import A
from .positions import check_deployed
from .units import FLAG, Commander, Rank, Unit

NO_SCENARIO = Scenario()
"""No scenario: no name, no turn limit, players may not end the battle."""


@attrs.frozen
class Charge:
    """A declared charge with the facts of the approach; ``contact`` once the charger has
    moved to a target that routed or evaded (phase I)."""

    charger: str = attrs.field(metadata=refers_to("units"))
    target: str = attrs.field(metadata=refers_to("units"))
    distance: float = attrs.field(validator=finite(0, MAX_INCHES))
    facts: ChargeFacts = attrs.field(factory=ChargeFacts)
    over_obstacle: bool = attrs.field(default=False, validator=FLAG)
    uphill: bool = attrs.field(default=False, validator=FLAG)
    contact: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class TestedCharge:
    """The result of a charged unit's test (G), and its choice in H."""

    __test__ = False  # not a pytest test class

    target: str = attrs.field(metadata=refers_to("units"))
    result: ChargedResult = attrs.field(validator=one_of(*ChargedResult))
    counter: bool = attrs.field(default=False, validator=FLAG)
    decided: bool = attrs.field(default=False, validator=FLAG)
    evaded: bool = attrs.field(default=False, validator=FLAG)
    surrender_tested: bool = attrs.field(default=False, validator=FLAG)
    origin: tuple[float, float] | None = None
    """On a table, the centre the target stood on when charged (its "original position",
    Rules - Charging), kept when it routs or evades away from it."""


@attrs.frozen
class Extra:
    """What only Will's AWI tracks: whose move it is and who moved first, the works and the
    demolitions under way, the demolition charges each wagon has supplied in the battle
    (``charges_drawn``, by wagon id), whether a player broke off the battle, and the scratch
    state of the current phase and move; the ``table`` the battle is played on (None: the players
    measure, and the actions carry what they measured).

    Per phase: ``done`` (units, or ``general:<id>``, that have acted), ``failed`` and
    ``independents`` (command and control in C), the wagons that have ``supplied`` a unit's
    tools or charges (one unit each). Per move: ``ordered`` (units with an order
    or a passed independent test: they may move in C and charge in F), ``rallied``
    (halted shaken in A), ``compelled`` (routed or retired in B), ``fired`` and
    ``half_fired`` (a unit in a building whose first base has fired alone), on a table the
    units of the firing side that ``could_fire`` when the firing phase began (Second Cavalry
    Charges), the ``charges`` and their ``tests``, the melees ``resolved``, the cavalry
    ``winners`` and whether the ``second_round`` of charges is under way."""

    moving: str = attrs.field(metadata=refers_to("sides"))
    first: str = attrs.field(metadata=refers_to("sides"))
    works: tuple[Defence, ...] = ()
    demolitions: tuple[Demolition, ...] = ()
    charges_drawn: tuple[tuple[str, int], ...] = ()
    ended_by: str = ""
    table: Table | None = None
    done: frozenset[str] = phase_scoped(frozenset())
    failed: frozenset[str] = phase_scoped(frozenset())
    supplied: frozenset[str] = phase_scoped(frozenset())
    independents: bool = phase_scoped(False)
    ordered: frozenset[str] = turn_scoped(frozenset())
    rallied: frozenset[str] = turn_scoped(frozenset())
    compelled: frozenset[str] = turn_scoped(frozenset())
    fired: frozenset[str] = turn_scoped(frozenset())
    half_fired: frozenset[str] = turn_scoped(frozenset())
    could_fire: frozenset[str] = turn_scoped(frozenset())
    charges: tuple[Charge, ...] = turn_scoped(())
    tests: tuple[TestedCharge, ...] = turn_scoped(())
    resolved: frozenset[str] = turn_scoped(frozenset())
    winners: frozenset[str] = turn_scoped(frozenset())
    second_round: bool = turn_scoped(False)

    @staticmethod
    def check_battle(state: State, path: str | None = "$") -> None:
        """The loader's hook (``BattleState.from_data``): the whole-battle check
        (``validity.check_battle``), every fault a ``LoadError`` by its path."""
        from .validity import check_battle  # validity reads the state's queries

        check_battle(state, path)


State: TypeAlias = BattleState[Unit, Commander, Extra, Options]
"""A Will's AWI battle."""


def new_battle(
    sides: tuple[str, str],
    units: tuple[Unit, ...],
    commanders: tuple[Commander, ...] = (),
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    works: tuple[Defence, ...] = (),
    demolitions: tuple[Demolition, ...] = (),
    scenario: Scenario = NO_SCENARIO,
    table: Table | None = None,
) -> State:
    """A battle at the start of the first side's move (turn 1, phase A); on ``table`` (every
    unit on the table has a footprint there, ``positions.deploy``) or measured by the
    players (None). The battle is checked as a whole as a load checks it
    (``validity.check_battle``): every fault an ``InvalidValueError`` naming its field."""
    if table is not None:
        table = check_deployed(table, units, commanders)
    extra = Extra(moving=sides[0], first=sides[0], works=works, demolitions=demolitions,
                  table=table)
    state: State = BattleState(
        ruleset="will_awi",
        sides=sides,
        units=units,
        commanders=commanders,
        extra=extra,
        options=options,
        dice=DiceState(seed),
        turn=1,
        phase=A,
        scenario=scenario,
    )
    state.check_references()
    Extra.check_battle(state, None)
    return _kept(state)


def _kept(state: State) -> State:
    """The battle with its table's formations and generals' marks in step with its units and
    generals, as the engine keeps it after every step (``on_table.RULES``)."""
    from smoothbore.table import keep_in_step

    from .on_table import RULES  # the rules read the situations, which read the state

    kept: State = keep_in_step(RULES, None, state)
    return kept


def illegal(action: object, why: str, rule: str = rules.SEQUENCE) -> IllegalActionError:
    """The error for an action the rules forbid, naming the rule."""
    return IllegalActionError(action, why, rule)


def firing_side(state: State) -> str:
    """The side that fires this move (the one not moving)."""
    moving = state.extra.moving
    return state.sides[1] if state.sides[0] == moving else state.sides[0]


def own_unit(state: State, unit_id: str, side: str, action: object) -> Unit:
    """A unit of the given side still on the table, or the error."""
    unit = state.unit(unit_id)
    if unit.side != side:
        raise illegal(action, f"{unit.name} is not a unit of {side}")
    if not unit.on_table:
        raise illegal(action, f"{unit.name} is no longer on the table")
    return unit


def attached_general(state: State, unit_id: str) -> Commander | None:
    """The highest-ranking active general with the unit."""
    with_unit = [g for g in state.commanders if g.active and g.attached_to == unit_id]
    if not with_unit:
        return None
    return max(with_unit, key=lambda g: g.rank.test_bonus)


def rank_with(state: State, unit_id: str) -> Rank | None:
    """The rank of the best general with the unit, for its morale tests (None: none)."""
    g = attached_general(state, unit_id)
    return None if g is None else g.rank


def command_rule(state: State) -> str:
    """The command and control post in play, as a rule citation."""
    post = state.options.command_post
    return rules.COMMAND_MARCH if post is CommandPost.MARCH_2008 else rules.COMMAND_JANUARY


def needs_test(state: State) -> tuple[Unit, ...]:
    """Units of the moving player still to test in A (not those of note (a))."""
    done = state.extra.done
    moving = state.extra.moving
    return tuple(
        u
        for u in state.units
        if u.side == moving
        and (u.shaken or u.routing)
        and not u.routed_last_move
        and u.id not in done
    )


def compulsory_units(state: State) -> tuple[Unit, ...]:
    """Units of the moving player still to rout or retire in B."""
    done = state.extra.done
    moving = state.extra.moving
    return tuple(
        u
        for u in state.units
        if u.side == moving
        and u.on_table
        and (u.routing or u.must_retire)
        and u.id not in done
        and not u.immobilised
        and not (u.routing and u.routed_last_move)
    )


def tested_charge(state: State, target: str) -> TestedCharge | None:
    """The charged test taken by a target this round, if any."""
    return next((t for t in state.extra.tests if t.target == target), None)


def charges_on(state: State, target: str) -> tuple[Charge, ...]:
    """The charges declared on a target."""
    return tuple(c for c in state.extra.charges if c.target == target)


def shared_facts(charges: tuple[Charge, ...]) -> ChargeFacts:
    """The position facts the charged unit tests with: on a table each charger strikes its
    own face, and the test takes the worst (rear before flank before front); without one the
    chargers share one set."""
    worst = max(charges, key=lambda c: _SEVERITY[c.facts.face])
    return worst.facts


_SEVERITY = {Face.FRONT: 0, Face.FLANK: 1, Face.REAR: 2}


def pending_melees(state: State) -> tuple[str, ...]:
    """Targets that stood or counter-charged and still have a melee to fight."""
    out: list[str] = []
    for t in state.extra.tests:
        if t.target in state.extra.resolved or t.evaded or t.target in out:
            continue
        if t.result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            target = state.unit(t.target)
            chargers = [state.unit(c.charger) for c in charges_on(state, t.target)]
            if target.on_table and any(c.on_table for c in chargers):
                out.append(t.target)
    return tuple(out)


def contacts_needed(state: State) -> tuple[Charge, ...]:
    """Charges whose target routed or evaded: the charger still has to move."""
    out = []
    for c in state.extra.charges:
        if c.contact:
            continue
        t = tested_charge(state, c.target)
        if t is None:
            continue
        gone = t.evaded or t.result in (
            ChargedResult.ROUTS,
            ChargedResult.ROUTS_SURRENDERS,
            ChargedResult.SURRENDERS,
        )
        if gone and state.unit(c.charger).on_table:
            out.append(c)
    return tuple(out)


def ready_demolitions(state: State) -> tuple[Demolition, ...]:
    """Demolitions whose layers (of the moving side) moved away this move."""
    return tuple(
        d
        for d in state.extra.demolitions
        if d.away and state.unit(d.unit).side == state.extra.moving
    )


def work_named(state: State, work_id: str, action: object) -> Defence:
    """The work (building, fieldwork) with this id, or the error."""
    work = next((w for w in state.extra.works if w.id == work_id), None)
    if work is None:
        raise illegal(action, f"no work {work_id!r}", rules.FORT_VALUES)
    return work


def building_entered(
    state: State, unit: Unit, entering: Entering | None, action: object
) -> Defence | None:
    """Check a unit entering or occupying a building (Rules - Terrain: Buildings): the
    building exists, the unit's kind may enter one (Movement: NA for mounted and wheeled), and
    there is room beside the units the player says are already in it. None when it enters
    none."""
    if entering is None:
        return None
    building = work_named(state, entering.building, action)
    crossing_cost(unit, Crossing.ENTER_BUILDING, action)
    occupants = tuple(state.unit(uid) for uid in entering.occupants)
    for o in occupants:
        if not o.on_table:
            raise illegal(action, f"{o.name} is no longer on the table", rules.BUILDINGS)
    check_room(building, unit, occupants, action)
    return building


def with_extra(state: State, **changes: Any) -> State:
    """The state with some fields of ``extra`` changed."""
    return state.with_extra(**changes)


def mark_done(state: State, *ids: str) -> State:
    """The state with these units (or ``general:<id>`` keys) marked as having acted this
    phase."""
    return with_extra(state, done=state.extra.done | set(ids))


def with_work(state: State, work: Defence) -> State:
    """The state with one work replaced (by id)."""
    works = tuple(work if w.id == work.id else w for w in state.extra.works)
    return with_extra(state, works=works)
