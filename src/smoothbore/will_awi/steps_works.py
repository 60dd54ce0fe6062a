"""Works in the sequence (Rules - Fortifications and Fieldworks): field engineering and laying
and leaving demolition charges in C, guns bombarding works and the charges going off in E."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from smoothbore.core import Deferred, Log, revised
from smoothbore.table import Table

from . import rules
from .actions import Bombard, Detonate, Engineer, LayCharge, MoveAway
from .effects import lose, shake
from .firing import RANGES, Cover, FireFacts, fire_modifiers, is_canister
from .fortifications import (
    CHARGES_PER_WAGON,
    FIELDWORKS,
    Demolition,
    blast_radius,
    bombard,
    construct,
    demolish,
    demolition_blast,
    dismantle,
)
from .movement import MovePlan, check_move, move_distance
from .narration import inches, points, score_text
from .positions import Place
from .situations import (
    AT_WORK,
    MEASURED,
    WAYS,
    WITH_WAGON,
    blast_within,
    bombard_facts,
    destinations_toward,
    units_within,
    work_gap,
)
from .state import (
    State,
    building_entered,
    firing_side,
    illegal,
    with_extra,
    with_work,
    work_named,
)
from .steps_movement import check_mover, movers, placed_at, plan_for
from .units import Arm, TroopType, Unit


def check_at_work(state: State, unit: Unit, work_id: str, action: object, rule: str) -> None:
    """On a table, the unit stands at the work: within 1" of its ground (``AT_WORK``)."""
    if state.extra.table is None:
        return
    gap = work_gap(state, unit.id, work_id)
    if gap is None:
        raise illegal(action, "the work must be on the table", rule)
    if gap > AT_WORK:
        raise illegal(action, f'{unit.name} stands {inches(gap)} from the work: it must be '
                      f'within {inches(AT_WORK)}', rule)


def wagon_at_hand(state: State, unit: Unit, *, charges: bool = False) -> str | None:
    """The wagon whose tools or charges the unit may use this phase (Field Engineering,
    Demolition: "1 wagon can hold enough tools for 1 close order infantry unit", "1 wagon can
    hold 6 charges"): a wagon of its side on the table that has not supplied another unit
    this phase (for ``charges``, one with charges left: ``charges_left``), on a table within
    ``WITH_WAGON`` of it (W35); None when there is none."""
    free = state.derived(free_wagons).get(unit.side, ())
    if charges:
        free = tuple(w for w in free if charges_left(state, w))
    table = state.extra.table
    if free and table is not None:
        memo = table.derived(wagons_at_hand)
        key = (unit.id, free)
        near = memo.get(key)
        if near is None:
            near = memo[key] = units_within(state, unit.id, free, WITH_WAGON)
        free = near
    return free[0] if free else None


def free_wagons(state: State) -> dict[str, tuple[str, ...]]:
    """Each side's wagons on the table that have supplied no unit this phase, by side."""
    free: dict[str, list[str]] = {}
    for u in state.units:
        if u.troop is TroopType.WAGON and u.on_table and u.id not in state.extra.supplied:
            free.setdefault(u.side, []).append(u.id)
    return {side: tuple(sorted(ids)) for side, ids in free.items()}


def wagons_at_hand(table: Table) -> dict[tuple[str, tuple[str, ...]], tuple[str, ...]]:
    """Which of the free wagons are within reach of a unit, asked so far on this table, by
    (unit, free wagons) (``wagon_at_hand``): every step of C asks it of every mover."""
    return {}


def charges_left(state: State, wagon: str) -> int:
    """The demolition charges a wagon still holds: 6, less those it has supplied in the
    battle (Demolition: "1 wagon can hold 6 charges")."""
    drawn = dict(state.extra.charges_drawn).get(wagon, 0)
    return CHARGES_PER_WAGON - drawn


def check_charges(state: State, unit: Unit, action: object) -> str:
    """The wagon whose charges the unit lays, refused when every wagon at hand has supplied
    its 6."""
    wagon = wagon_at_hand(state, unit, charges=True)
    if wagon is None:
        check_wagon(state, unit, action, rules.DEMOLITION)
        raise illegal(action, f"a wagon holds {CHARGES_PER_WAGON} charges: every wagon at "
                      f"hand has supplied its {CHARGES_PER_WAGON}", rules.DEMOLITION)
    return wagon


def check_wagon(state: State, unit: Unit, action: object, rule: str) -> str:
    """The wagon the unit draws on, refused when none is at hand."""
    wagon = wagon_at_hand(state, unit)
    if wagon is None:
        where = (f' within {inches(WITH_WAGON)}' if state.extra.table is not None else "")
        raise illegal(action, f"{unit.name} has no wagon of its side{where} to draw on", rule)
    return wagon


def _supplied(state: State, wagon: str) -> State:
    return with_extra(state, supplied=state.extra.supplied | {wagon})


# --- Engineer ------------------------------------------------------------------------------
def candidates_engineer(state: State) -> Iterator[Engineer]:
    """Each close order foot unit that may move, at each work: dismantling, or building a
    fieldwork."""
    for unit in movers(state):
        if unit.arm is Arm.CLOSE_ORDER_FOOT and wagon_at_hand(state, unit) is not None:
            for work in state.extra.works:
                yield _engineer(unit.id, work.id, False)
                if work.work in FIELDWORKS:
                    yield _engineer(unit.id, work.id, True)


@functools.lru_cache(maxsize=4096)
def _engineer(unit_id: str, work_id: str, build: bool) -> Engineer:
    """The unit works at the work (one action per unit, work and kind of work, shared:
    every step of C offers them)."""
    return Engineer(unit_id, work_id, build=build)


def check_engineer(state: State, action: Engineer) -> None:
    """C, Field Engineering: a close order foot mover with a wagon's tools dismantles a point
    of a work that has one, or builds a fieldwork that is not complete. The tools are a wagon
    of its side at hand (``wagon_at_hand``); ``has_tools`` False says the player has none."""
    unit = check_mover(state, action.unit, action)
    if unit.arm is not Arm.CLOSE_ORDER_FOOT:
        raise illegal(action, "only close order infantry work with tools", rules.FIELD_ENGINEERING)
    if action.has_tools:
        check_wagon(state, unit, action, rules.FIELD_ENGINEERING)
    work = work_named(state, action.work, action)
    check_at_work(state, unit, work.id, action, rules.FIELD_ENGINEERING)
    if action.build:
        if work.work not in FIELDWORKS:
            raise illegal(action, f"a {work.work.value} is not a fieldwork to build",
                          rules.FIELD_ENGINEERING)
        construct(work, action.has_tools, action)
    else:
        if work.destroyed:
            raise illegal(action, f"nothing is left of the {work.work.value}",
                          rules.FIELD_ENGINEERING)
        dismantle(work, action.has_tools, action)


def apply_engineer(state: State, action: Engineer, log: Log) -> State:
    """A move's work: a construction move (a point every other move) or a point dismantled."""
    unit = state.unit(action.unit)
    work = work_named(state, action.work, action)
    if action.build:
        after = construct(work, action.has_tools, action)
        if after.points > work.points:
            text = f"{unit.name} builds up the {work.work.value} to {points(after.points)}"
        else:
            text = f"{unit.name} begins another defence point on the {work.work.value}"
    else:
        after = dismantle(work, action.has_tools, action)
        left = points(after.points)
        text = f"{unit.name} dismantles part of the {work.work.value}: {left} left"
    log.add("work", text, rules.FIELD_ENGINEERING, work.id)
    state = _supplied(state, check_wagon(state, unit, action, rules.FIELD_ENGINEERING))
    return with_extra(with_work(state, after), done=state.extra.done | {unit.id})


# --- LayCharge -----------------------------------------------------------------------------
def _laying(state: State, unit: Unit) -> Demolition | None:
    return next((d for d in state.extra.demolitions if d.unit == unit.id), None)


def candidates_lay_charge(state: State) -> Iterator[LayCharge]:
    """Each unit that may move: one more charge of its demolition under way (up to 6), or, if
    it has none, a first charge at each work still standing that no one else is mining."""
    mined = {d.work for d in state.extra.demolitions}
    for unit in movers(state):
        if unit.arm is not Arm.CLOSE_ORDER_FOOT or wagon_at_hand(
                state, unit, charges=True) is None:
            continue
        laying = _laying(state, unit)
        if laying is not None:
            if not laying.away and laying.charges < CHARGES_PER_WAGON:
                yield LayCharge(unit.id, laying.work)
            continue
        for work in state.extra.works:
            if not work.destroyed and work.id not in mined:
                yield LayCharge(unit.id, work.id)


def check_lay_charge(state: State, action: LayCharge) -> None:
    """C, Demolition: a mover lays one charge a movement phase at a work still standing: the
    first of a new demolition, or one more of its own demolition there (a wagon holds 6);
    never once it has moved away, nor at a work another unit is mining. The charges come
    from a wagon of its side at hand, and close order infantry lay them (W36)."""
    unit = check_mover(state, action.unit, action)
    if unit.arm is not Arm.CLOSE_ORDER_FOOT:
        raise illegal(action, "only close order infantry lay a wagon's charges",
                      rules.DEMOLITION)
    check_charges(state, unit, action)
    work = work_named(state, action.work, action)
    if work.destroyed:
        raise illegal(action, f"nothing is left of the {work.work.value}", rules.DEMOLITION)
    check_at_work(state, unit, work.id, action, rules.DEMOLITION)
    current = next((d for d in state.extra.demolitions if d.work == work.id), None)
    laying = _laying(state, unit)
    if current is None:
        if laying is not None:
            raise illegal(action, f"{unit.name} is laying charges elsewhere", rules.DEMOLITION)
        return
    if current.unit != unit.id or current.away:
        raise illegal(action, "another demolition is under way there", rules.DEMOLITION)
    if current.charges >= CHARGES_PER_WAGON:
        raise illegal(action, f"a wagon holds {CHARGES_PER_WAGON} charges: move away",
                      rules.DEMOLITION)


def apply_lay_charge(state: State, action: LayCharge, log: Log) -> State:
    """One more charge laid (the unit's move)."""
    unit = state.unit(action.unit)
    work = work_named(state, action.work, action)
    current = next((d for d in state.extra.demolitions if d.work == work.id), None)
    new = (
        Demolition(work.id, unit.id)
        if current is None
        else revised(current, charges=current.charges + 1)
    )
    others = tuple(d for d in state.extra.demolitions if d.work != work.id)
    laid = "a demolition charge" if new.charges == 1 else f"demolition charge {new.charges}"
    wagon = check_charges(state, unit, action)
    left = charges_left(state, wagon) - 1
    log.add("demolition", f"{unit.name} lays {laid} at the {work.work.value}; "
            f"{state.unit(wagon).name} has {left} of its {CHARGES_PER_WAGON} charges "
            "left", rules.DEMOLITION, work.id)
    drawn = dict(state.extra.charges_drawn)
    drawn[wagon] = CHARGES_PER_WAGON - left
    state = with_extra(_supplied(state, wagon), charges_drawn=tuple(sorted(drawn.items())))
    return with_extra(state, demolitions=(*others, new), done=state.extra.done | {unit.id})


# --- MoveAway ------------------------------------------------------------------------------
def candidates_move_away(state: State) -> Iterator[MoveAway | Deferred[MoveAway]]:
    """Each layer of the moving side with charges laid: staying, or on a table going to one
    of its destinations (``situations.destinations``), each way's worked out only when
    random play draws it."""
    moving = state.extra.moving
    for d in state.extra.demolitions:
        unit = state.unit(d.unit)
        if not d.away and unit.side == moving:
            yield MoveAway(d.unit)
            if state.extra.table is not None and unit.on_table and not unit.busy_moves:
                allowance = float(move_distance(unit, options=state.options))
                for way, bound in WAYS.items():
                    yield Deferred(bound, functools.partial(
                        _moves_away_to, state, unit, allowance, way))


def _moves_away_to(state: State, unit: Unit, allowance: float,
                   way: str) -> tuple[MoveAway, ...]:
    """The layers' moves away to each of their destinations one way."""
    return tuple(MoveAway(unit.id, to=place)
                 for place in destinations_toward(state, unit, allowance, way))


def away_plan(state: State, unit: Unit, action: MoveAway) -> MovePlan:
    """The plan of the layers' move: as a move's (``plan_for``), under Demolition."""
    return plan_for(state, unit, action, rules.DEMOLITION)


def check_move_away(state: State, action: MoveAway) -> None:
    """C, Demolition: the layers move away in a movement phase after laying (its plan within
    the unit's move): the charges laid are the charges used."""
    unit = check_mover(state, action.unit, action)
    current = _laying(state, unit)
    if current is None or current.away:
        raise illegal(action, f"{unit.name} has no charges laid to leave", rules.DEMOLITION)
    plan = away_plan(state, unit, action)
    if plan.legs or plan.crossings or abs(plan.facing_change) > 45:
        check_move(unit, plan, options=state.options, action=action)
    building_entered(state, unit, action.enters, action)
    if action.to is not None and state.extra.table is not None:
        check_going_away(state, unit, current.work, action.to, action)


def check_going_away(state: State, unit: Unit, work_id: str, to: Place,
                     action: object) -> None:
    """Demolition: "move away on the next movement phase": on a table a move to ``to`` must
    end further from the work's ground than the layers stand (nearest points); staying where
    they are is ``to=None`` (W49)."""
    before, after = work_gap(state, unit.id, work_id), work_gap(state, unit.id, work_id, to)
    if before is not None and after is not None and after <= before:
        raise illegal(action, f"{unit.name} must move away from the work: this move ends "
                      f"{inches(after)} from it, where it stands {inches(before)}",
                      rules.DEMOLITION)


def apply_move_away(state: State, action: MoveAway, log: Log) -> State:
    """The layers leave the charges: they go off in this move's firing phase (on a table the
    layers' footprint goes to ``action.to``)."""
    unit = state.unit(action.unit)
    current = _laying(state, unit)
    assert current is not None
    building = building_entered(state, unit, action.enters, action)
    others = tuple(d for d in state.extra.demolitions if d is not current)
    work = work_named(state, current.work, action)
    text = f"{unit.name} moves away from the charges at the {work.work.value}"
    if building is not None:
        text += f", into the {building.work.value}"
    if action.to is not None and state.extra.table is not None:
        away_plan(state, unit, action)
        state, text = placed_at(state, unit, action.to, text)
    log.add("demolition", text, rules.DEMOLITION, unit.id)
    return with_extra(
        state,
        demolitions=(*others, revised(current, away=True)),
        done=state.extra.done | {unit.id},
    )


# --- Bombard -------------------------------------------------------------------------------
def bombard_range(unit: Unit) -> float:
    """The range the candidates bombard from: the middle of the gun's medium band (ball, not
    canister; clear of the howitzer's gap). 0 for units without guns."""
    weapon = unit.fires_with
    if weapon is None or not weapon.is_gun:
        return 0.0
    _, low, high, _ = RANGES[weapon]
    assert low is not None and high is not None
    return (low + high) / 2


def candidates_bombard(state: State) -> Iterator[Bombard]:
    """Each gun of the firing side that has not fired, at each work still standing (on a
    table the facts are left to it)."""
    fired = state.extra.fired | state.extra.half_fired
    measured = state.extra.table is not None
    for unit in state.units_of(firing_side(state)):
        if unit.troop.is_gun and unit.on_table and unit.id not in fired:
            facts = None if measured else FireFacts(bombard_range(unit))
            for work in state.extra.works:
                if not work.destroyed:
                    yield _bombard(unit.id, work.id) if measured else Bombard(
                        unit.id, work.id, facts)


@functools.lru_cache(maxsize=1024)
def _bombard(firer_id: str, work_id: str) -> Bombard:
    """The gun fires at the work, the table measuring the facts (one action per gun and
    work, shared: every step of E offers them)."""
    return Bombard(firer_id, work_id)


def bombard_situation(state: State, action: Bombard) -> FireFacts:
    """The facts of a bombardment: the player's, or on a table the table's (then the action
    gives none). The check and the handler both read them here."""
    if state.extra.table is None:
        if action.facts is None:
            raise illegal(action, "facts: without a table the player gives the measured facts",
                          rules.FORT_VALUES)
        return action.facts
    if action.facts is not None:
        raise illegal(action, MEASURED, rules.FORT_VALUES)
    return bombard_facts(state, action.firer, action.work, action)


def check_bombard(state: State, action: Bombard) -> FireFacts:
    """E: a gun of the firing side that has not fired, firing ball (not canister) within its
    range at a work with defence points left. The ruling is the fire's facts as measured
    (engine contract v2: the handler fires on them)."""
    firer = state.unit(action.firer)
    if firer.id in state.extra.fired or firer.id in state.extra.half_fired:
        raise illegal(action, f"{firer.name} has already fired", rules.FIRING)
    work = work_named(state, action.work, action)
    facts = bombard_situation(state, action)
    fire_modifiers(firer, revised(facts, cover=Cover.OPEN), state.options, action)
    if not firer.troop.is_gun or is_canister(firer, facts):
        raise illegal(action, "only guns firing ball damage works", rules.FORT_VALUES)
    if work.destroyed:
        raise illegal(action, f"nothing is left of the {work.work.value}", rules.FORT_VALUES)
    return facts


def apply_bombard(state: State, action: Bombard, log: Log, facts: FireFacts) -> State:
    """2d6 plus the firing factors other than cover: 7+ takes a defence point (``facts``:
    the check's ruling)."""
    firer = state.unit(action.firer)
    work = work_named(state, action.work, action)
    mods = fire_modifiers(firer, revised(facts, cover=Cover.OPEN), state.options)
    after = bombard(work, mods.total, dice=log.dice)
    log.add(
        "work",
        f"{firer.name} bombards the {work.work.value}:"
        f" {points(after.points, 'defence point')} left",
        rules.FORT_VALUES,
        work.id,
    )
    return with_extra(with_work(state, after), fired=state.extra.fired | {firer.id})


# --- Detonate ------------------------------------------------------------------------------
def candidates_detonate(state: State) -> Iterator[Detonate]:
    """Each demolition whose layers moved away this move: with no unit in the blast, or with
    any one unit on the table in it."""
    on_table = [u.id for u in state.units if u.on_table]
    measured = state.extra.table is not None
    for d in state.extra.demolitions:
        if d.away and state.unit(d.unit).side == state.extra.moving:
            yield Detonate(d.work)
            for uid in () if measured else on_table:
                yield Detonate(d.work, frozenset({uid}))


def check_detonate(state: State, action: Detonate) -> None:
    """E, Demolition: the charges at the work were laid by the moving side and left this move;
    the units measured within the blast are on the table (on a table it measures them)."""
    current = next((d for d in state.extra.demolitions if d.work == action.work and d.away), None)
    if current is None or state.unit(current.unit).side != state.extra.moving:
        raise illegal(action, "no charge ready to go off there", rules.DEMOLITION)
    if state.extra.table is not None and action.within:
        raise illegal(action, MEASURED, rules.DEMOLITION)
    for uid in action.within:
        unit = state.unit(uid)
        if not unit.on_table:
            raise illegal(action, f"{unit.name} is no longer on the table", rules.DEMOLITION)


def apply_detonate(state: State, action: Detonate, log: Log) -> State:
    """(1 + extra charges) d6 against the work's defence points; each unit within the blast
    takes 2d6 as if fired at: 7+ a strength point, above its basic morale shaken."""
    current = next(d for d in state.extra.demolitions if d.work == action.work and d.away)
    work = work_named(state, action.work, action)
    destroyed = demolish(work, current.charges, dice=log.dice)
    log.add(
        "demolition",
        f"The demolition {'destroys' if destroyed else 'fails to destroy'} the {work.work.value}",
        rules.DEMOLITION,
        work.id,
        facts={"test": "demolition", "result": "destroyed" if destroyed else "stands"},
    )
    if destroyed:
        state = with_work(state, revised(work, points=0, half_built=False))
    radius = blast_radius(current.charges)
    within = action.within
    if state.extra.table is not None:
        within = blast_within(state, work.id, radius)
    for uid in sorted(within):
        unit = state.unit(uid)
        blast = demolition_blast(unit, dice=log.dice, options=state.options)
        score = score_text(blast.score, blast.hit)
        text = f"The blast catches {unit.name} within {inches(radius)}, {score}"
        log.add("demolition", text, rules.DEMOLITION, uid)
        if blast.hit:
            state = lose(state, unit, 1, log, rules.DEMOLITION)
        if blast.shaken and state.unit(uid).on_table:
            state = shake(state, uid, "by the blast", log, rules.DEMOLITION)
    others = tuple(d for d in state.extra.demolitions if d is not current)
    return with_extra(state, demolitions=others)
