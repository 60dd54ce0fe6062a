"""Phases D and E (Rules - Move Sequence, Changing Facing, Rules - Firing): the firing player's
facing changes and fire, the Highland charges fire sets off; and the fire of a second cavalry
charge's target in H (Second Cavalry Charges)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator
from types import MappingProxyType

import attrs

from smoothbore.core import Deferred, IllegalActionError, Log, enter_phase, revised
from smoothbore.table import ShotTrace, Sighting

from . import rules
from .actions import ChangeFacing, EndPhase, Fire, SpreadHighlandCharge
from .effects import general_risk, lose, shake
from .firing import (
    RANGES,
    FireFacts,
    check_target_detected,
    fire_check,
    is_canister,
    resolve_fire,
)
from .fortifications import artillery_damage, damage
from .generals import Risk
from .movement import check_facing_change, test_gun_facing
from .narration import degrees, inches, score_text
from .phases import E, F
from .positions import kept_traces
from .situations import (
    MEASURED,
    SLACK,
    ask_fire_sightings,
    boxes_apart,
    facing_facts,
    facing_to_nearest,
    near_footprints,
    near_units,
    pair_sights,
    shot_facts,
    spread_facts,
)
from .state import (
    State,
    firing_side,
    illegal,
    mark_done,
    own_unit,
    ready_demolitions,
    tested_charge,
    with_extra,
)
from .units import Status, TroopType, Unit
from .variants import test_highland_charge

FACINGS = (90.0, 180.0)
"""The turns the candidates offer in D (a quarter turn, an about face)."""


# --- D: ChangeFacing ------------------------------------------------------------------------
def candidates_change_facing(state: State) -> Iterator[ChangeFacing | Deferred[ChangeFacing]]:
    """Each unit of the firing side that may still turn: a quarter turn or an about face; on
    a table, the turn that faces the nearest enemy it sees outside its arc, worked out only
    when random play draws it (what the side sees is asked of the table then)."""
    done = state.extra.done
    table = state.extra.table
    for unit in state.units_of(firing_side(state)):
        if unit.on_table and not unit.routing and unit.id not in done:
            if table is not None:
                yield Deferred(1, functools.partial(_facing_nearest, state, unit.id))
                continue
            for angle in FACINGS:
                yield ChangeFacing(unit.id, angle)


def _facing_nearest(state: State, unit_id: str) -> tuple[ChangeFacing, ...]:
    """The unit's turn to face the nearest enemy it sees (``facing_to_nearest``), if any."""
    angle = facing_to_nearest(state, unit_id)
    return () if angle is None else (ChangeFacing(unit_id, angle),)


def check_change_facing(state: State, action: ChangeFacing) -> None:
    """D: a unit of the firing side, once, up to 180°, with no enemy within charge reach of
    its current front (FAQs (5) Q1) and nothing in the way."""
    unit = state.unit(action.unit)
    if unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} has already changed facing", rules.FACING)
    action = measured_facing(state, action)
    enemies = tuple((state.unit(e), d) for e, d in action.enemies_in_front)
    if any(e.side == unit.side for e, _ in enemies):
        raise illegal(action, "enemies_in_front must be enemy units", rules.FACING)
    check_facing_change(unit, action.degrees, enemies, action.blocked, action)


def measured_facing(state: State, action: ChangeFacing) -> ChangeFacing:
    """The facing change with the facts of the table (the action gives none): the enemies
    in the unit's arc, at their distance, and whether the turning unit would strike another
    unit or an obstacle. Without a table, the action as given."""
    if state.extra.table is None:
        return action
    if action.enemies_in_front or action.blocked:
        raise illegal(action, MEASURED, rules.FACING)
    enemies, blocked = facing_facts(state, action.unit, action.degrees)
    return revised(action, enemies_in_front=enemies, blocked=blocked)


def apply_change_facing(state: State, action: ChangeFacing, log: Log) -> State:
    """The unit turns (a gun may fail its optional facing roll)."""
    unit = state.unit(action.unit)
    state = mark_done(state, unit.id)
    rolls = state.options.gun_facing_roll and unit.troop.is_gun
    if rolls and not test_gun_facing(unit, dice=log.dice):
        log.add("facing", f"{unit.name} fails to turn", rules.FAQ1, unit.id,
                facts={"test": "gun facing", "result": "fails"})
        return state
    if action.degrees:
        text = f"{unit.name} turns {degrees(abs(action.degrees))}"
    else:
        text = f"{unit.name} keeps its facing"
    log.add("facing", text, rules.FACING, unit.id)
    table = state.extra.table
    if table is not None and action.degrees:
        state = with_extra(state, table=table.placed(
            table.footprint(unit.id).turned(action.degrees)))
    return state


def check_end_d(state: State, action: EndPhase) -> None:
    """D may end at any time: facing changes are the firing player's choice."""


def apply_end_d(state: State, action: EndPhase, log: Log) -> State:
    """On to E; on a table, noting which units of the firing side could fire in it (Second
    Cavalry Charges: a second charge's target fires only "if it could not have fired in the
    firing phase")."""
    state = enter_phase(state, E)
    if state.extra.table is not None:
        state = with_extra(state, could_fire=able_to_fire(state))
    return state


def able_to_fire(state: State) -> frozenset[str]:
    """The units of the firing side with a shot the firing phase allows (``check_fire``: an
    enemy seen within range and arc, as the table measures) at some enemy, as E begins.

    On a table the candidates (``candidates_fire``) are judged firer by firer, nearest
    target first, and a firer is done at its first shot allowed: the table is asked the
    sightings of each firer's ``FIRST_TARGETS`` nearest candidates in one call, then of the
    rest of the firers still without a shot in one more (issue 28: asked firer by firer, the
    guns' every pair within 45" cost 0.3 s at 500 units a side). The same units as judging
    every candidate: the table answers each pair alone."""
    table = state.extra.table
    if table is None:
        found: set[str] = set()
        for action in candidates_fire(state):
            if action.firer not in found and _allowed(state, action):
                found.add(action.firer)
        return frozenset(found)
    moving = state.extra.moving
    proposed: dict[str, list[str]] = {}
    for firer in _firers(state):
        assert firer.fires_with is not None
        here = table.units[firer.id]
        near = [f for f in near_footprints(table, here.bounds,
                                           _LONGEST[firer.fires_with] + SLACK)
                if f.side == moving]
        near.sort(key=lambda f: (math.hypot(f.x - here.x, f.y - here.y), f.unit_id))
        proposed[firer.id] = [f.unit_id for f in near]
    found = set()
    for first in (True, False):
        pairs = []
        for firer_id, targets in proposed.items():
            if firer_id in found:
                continue
            firer = state.unit(firer_id)
            shots = (t for t in targets if within_range(state, firer, t))
            pairs += [(firer_id, t) for t in (itertools.islice(shots, FIRST_TARGETS) if first
                                              else itertools.islice(shots, FIRST_TARGETS, None))]
        seen = pair_sights(table, pairs)
        for firer_id, target in pairs:
            if firer_id not in found and _allowed(state, _fire_at(firer_id, target),
                                                  seen[(firer_id, target)]):
                found.add(firer_id)
    return frozenset(found)


FIRST_TARGETS = 2
"""How many of each firer's nearest candidate targets ``able_to_fire`` asks of the table
first (at 500 units a side 70 of the 83 firers with a candidate fire at one of these)."""


def _allowed(state: State, action: Fire, seen: Sighting | None = None) -> bool:
    """``check_fire`` passes (``seen``: the pair's sighting, asked already)."""
    try:
        check_fire(state, action, seen)
    except IllegalActionError:
        return False
    return True


# --- E: Fire -------------------------------------------------------------------------------
def default_range(firer: Unit) -> float:
    """The firer's longest short range, the range the candidates fire at (0 for units that do
    not fire)."""
    weapon = firer.fires_with
    if weapon is None:
        return 0.0
    return float(RANGES[weapon][0])


def check_not_fired(state: State, firer: Unit, facts: FireFacts, action: object) -> None:
    """A unit fires once a move; a unit in a building whose two bases fire different ways
    fires each base alone, each as the unit in column (Rules - Terrain: Buildings)."""
    if firer.id in state.extra.fired:
        raise illegal(action, f"{firer.name} has already fired", rules.FIRING)
    if firer.id in state.extra.half_fired and not facts.split_fire:
        raise illegal(
            action,
            f"one base of {firer.name} has fired alone: its other base fires alone too",
            rules.BUILDINGS,
        )


def fire_situation(state: State, action: Fire,
                   seen: Sighting | None = None) -> tuple[FireFacts, str]:
    """The facts of a unit's fire and the work whose cover the target holds: as the player
    gives them, or on a table as the table measures them (then the action must give none).
    The check and the handler both read them here."""
    if state.extra.table is None:
        if action.facts is None:
            raise illegal(action, "facts: without a table the player gives the measured facts",
                          rules.FIRING)
        return action.facts, action.work
    if action.facts is not None or action.work or action.chain_within_18:
        raise illegal(action, MEASURED, rules.FIRING)
    target = state.unit(action.target)
    if not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table", rules.FIRING)
    shot = shot_facts(state, action.firer, action.target, action, seen)
    return shot.facts, shot.work


@attrs.frozen
class FireRuling:
    """What a fire's check measured, handed to its handler (engine contract v2): the
    ``facts`` of the shot and the ``work`` whose cover the target holds ("" for none)."""

    facts: FireFacts
    work: str = ""


def check_shot(state: State, firer: Unit, action: Fire,
               seen: Sighting | None = None) -> FireRuling:
    """What any fire needs: an enemy target on the table, seen (woods), within the firer's
    range and arc; a firer able to fire that has not fired; the work the target holds giving
    the cover said. The ruling is the shot's facts as measured."""
    target = state.unit(action.target)
    if target.side == firer.side or not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table", rules.FIRING)
    facts, work_id = fire_situation(state, action, seen)
    check_not_fired(state, firer, facts, action)
    check_target_detected(target, facts, action)
    try:
        fire_check(firer, facts, state.options)
    except IllegalActionError as error:
        raise illegal(action, error.why, error.rule) from None
    if work_id:
        work = next((w for w in state.extra.works if w.id == work_id), None)
        if work is None:
            raise illegal(action, f"no work {work_id!r}", rules.FORT_VALUES)
        if facts.cover is not work.cover:
            raise illegal(action, f"the {work.work.value} gives {work.cover.value}",
                          rules.FORT_VALUES)
    return FireRuling(facts, work_id)


def within_range(state: State, firer: Unit, target: str) -> bool:
    """On a table, the target's bounding box is within the firer's longest range of the
    firer's (a cheap test: a target beyond it is out of range once measured)."""
    weapon = firer.fires_with
    if weapon is None:
        return False
    return not boxes_apart(state, firer.id, target, _LONGEST[weapon] + SLACK)


_LONGEST = MappingProxyType({weapon: max(r for r in bands if r is not None)
                             for weapon, bands in RANGES.items()})
"""Each weapon's longest range."""


def candidates_fire(state: State) -> Iterator[Fire]:
    """E: each unit of the firing side able to fire, at each enemy unit on the table, at the
    firer's longest short range; on a table, at each enemy whose bounding box is within its
    longest range (proposals: the check measures sight, arc and range)."""
    targets = [u.id for u in state.units if u.side == state.extra.moving and u.on_table]
    table = state.extra.table
    if table is not None:
        proposed = []
        for firer in _firers(state):
            assert firer.fires_with is not None
            reach = _LONGEST[firer.fires_with]
            near = near_units(state, firer.id, reach + SLACK)
            shots = [_fire_at(firer.id, target) for target in targets
                     if target in near and within_range(state, firer, target)]
            if shots:
                proposed.append(((firer.id, float(reach)), shots))
        # each is checked: the firers' sightings asked of the table in one call
        ask_fire_sightings(table, [ask for ask, _ in proposed])
        for _, shots in proposed:
            yield from shots
        return
    for firer in _firers(state):
        facts = FireFacts(default_range(firer))
        for target in targets:
            yield Fire(firer.id, target, facts)


def _firers(state: State) -> Iterator[Unit]:
    """The units of the firing side able to fire: on the table, not routing, not limbered,
    with a weapon, not fired yet."""
    fired = state.extra.fired
    for firer in state.units_of(firing_side(state)):
        if (
            firer.on_table
            and not firer.routing
            and not firer.limbered
            and firer.fires_with is not None
            and firer.id not in fired
        ):
            yield firer


@functools.lru_cache(maxsize=4096)
def _fire_at(firer_id: str, target_id: str) -> Fire:
    """The unit fires at the target, the table measuring the facts (one action per pair,
    shared: every step of E offers them)."""
    return Fire(firer_id, target_id)


def check_fire(state: State, action: Fire, seen: Sighting | None = None) -> FireRuling:
    """E: the firing side fires (``check_shot``, whose ruling it gives); ``could_not_have_fired``
    belongs to a second charge's target, not to the firing phase. ``seen``: the pair's
    sighting when the caller has asked the table already."""
    firer = state.unit(action.firer)
    if action.could_not_have_fired:
        raise illegal(
            action, "a unit firing in the firing phase could fire in it", rules.SECOND_CHARGE
        )
    return check_shot(state, firer, action, seen)


def apply_fire(state: State, action: Fire, log: Log, ruling: FireRuling) -> State:
    """2d6 plus factors: 7+ takes a strength point (and the generals with the target run their
    risk); the same score above the target's basic morale shakes it; guns firing ball at a
    target in a work damage the work; unshaken highlanders under fire test for a Highland
    charge ('45)."""
    firer = state.unit(action.firer)
    target = state.unit(action.target)
    opts = state.options
    facts, work_id = ruling.facts, ruling.work
    result = resolve_fire(firer, target, facts, dice=log.dice, options=opts)
    measured = ""
    if state.extra.table is not None:
        measured = (f" at {inches(facts.range_inches)}" if facts.range_inches >= 0.05
                    else " at point-blank range")
    text = (f"{firer.name} fires at {target.name}{measured}, "
            f"{score_text(result.score, result.hit)}")
    log.add("fire", text, rules.FIRING, target.id)
    state = _mark_fired(state, firer, facts)
    table = state.extra.table
    if table is not None:
        trace = ShotTrace(firer.id, target.id, hit=result.hit)
        state = with_extra(state, table=table.with_traces(*kept_traces(table), trace))
    if result.hit:
        state = lose(state, target, 1, log, rules.FIRING)
        state = general_risk(state, target.id, Risk.FIRE_LOSS, action.chain_within_18, log)
    if result.shaken and state.unit(target.id).on_table:
        state = shake(state, target.id, "by fire", log, rules.FIRE_MORALE)
    work = next((w for w in state.extra.works if w.id == work_id), None)
    if (
        work is not None
        and firer.troop.is_gun
        and not is_canister(firer, facts)
        and artillery_damage(result.score - facts.cover.factor)
    ):
        works = tuple(damage(w, 1) if w.id == work.id else w for w in state.extra.works)
        state = with_extra(state, works=works)
        log.add("work", f"The {work.work.value} loses a defence point", rules.FORT_VALUES,
                work.id)
    after = state.unit(target.id)
    if (
        opts.variant.hordes
        and after.troop is TroopType.HIGHLANDERS
        and after.status is Status.STEADY
        and not after.highland_charge
        and after.on_table
    ):
        in_range = facts.range_inches <= 6
        if test_highland_charge(after, in_range, dice=log.dice):
            state = state.with_units(revised(after, highland_charge=True))
            log.add(
                "highland", f"{after.name} launches a Highland charge", rules.FORTY_FIVE,
                after.id, facts={"test": "highland charge", "result": "launches"})
        else:
            log.add("highland", f"{after.name} holds its ground: no Highland charge",
                    rules.FORTY_FIVE, after.id,
                    facts={"test": "highland charge", "result": "holds"})
    return state


def _mark_fired(state: State, firer: Unit, facts: FireFacts) -> State:
    extra = state.extra
    if not facts.split_fire:
        return with_extra(state, fired=extra.fired | {firer.id})
    if firer.id in extra.half_fired:
        return with_extra(
            state, fired=extra.fired | {firer.id}, half_fired=extra.half_fired - {firer.id}
        )
    return with_extra(state, half_fired=extra.half_fired | {firer.id})


# --- H: a second charge's target fires ------------------------------------------------------
def candidates_second_charge_fire(state: State) -> Iterator[Fire]:
    """H of a second cavalry charge: each target that stood, at each cavalry unit charging it,
    saying it could or could not have fired in the firing phase (on a table the table
    measured that as the firing phase began: ``Extra.could_fire``)."""
    if not state.extra.second_round:
        return
    fired = state.extra.fired | state.extra.half_fired
    for charge in state.extra.charges:
        target = state.unit(charge.target)
        if target.id in fired or not target.on_table or target.fires_with is None:
            continue
        if state.extra.table is not None:
            yield _fire_at(target.id, charge.charger)
            continue
        facts = FireFacts(default_range(target))
        for unable in (False, True):
            yield Fire(target.id, charge.charger, facts, could_not_have_fired=unable)


def check_second_charge_fire(state: State, action: Fire) -> FireRuling:
    """H (Second Cavalry Charges): only in the second round, the charged unit fires at a
    cavalry unit charging it, if it could not have fired in the firing phase (the fact the
    player measured, on a table the table's: ``Extra.could_fire``; option
    ``second_charge_fire_if_unfired``: if it did not fire), and it has not fled or evaded the
    charge."""
    if not state.extra.second_round:
        raise illegal(action, "only the target of a second charge may fire now",
                      rules.SECOND_CHARGE)
    firer = state.unit(action.firer)
    charger = state.unit(action.target)
    charging = any(
        c.charger == charger.id and c.target == firer.id for c in state.extra.charges
    )
    if not charging or not charger.troop.is_cavalry:
        raise illegal(action, "only the target of a second charge may fire, at its cavalry",
                      rules.SECOND_CHARGE)
    tested = tested_charge(state, firer.id)
    if tested is not None and tested.evaded:
        raise illegal(action, f"{firer.name} has evaded the charge", rules.CHARGING)
    unable = action.could_not_have_fired
    if state.extra.table is not None:
        if unable:
            raise illegal(action, MEASURED, rules.SECOND_CHARGE)
        unable = firer.id not in state.extra.could_fire
    if not (unable or state.options.second_charge_fire_if_unfired):
        raise illegal(action, f"{firer.name} could have fired in the firing phase",
                      rules.SECOND_CHARGE)
    if firer.id in state.extra.half_fired:
        raise illegal(action, f"{firer.name} has already fired", rules.FIRING)
    return check_shot(state, firer, action)


# --- E: SpreadHighlandCharge ----------------------------------------------------------------
def candidates_spread_highland_charge(state: State) -> Iterator[SpreadHighlandCharge]:
    """E ('45): each unshaken highland unit of the moving side while a Highland charge of its
    side is under way."""
    if not state.options.variant.hordes:
        return
    moving = state.units_of(state.extra.moving)
    if not any(u.highland_charge and u.on_table for u in moving):
        return
    table = state.extra.table
    for unit in moving:
        if (
            unit.troop is TroopType.HIGHLANDERS
            and unit.status is Status.STEADY
            and not unit.highland_charge
            and unit.id not in state.extra.done
            and (table is None or spread_facts(state, unit).near_charge)
        ):
            yield SpreadHighlandCharge(unit.id)


def check_spread_highland_charge(state: State, action: SpreadHighlandCharge) -> None:
    """E ('45): an unshaken highland unit of the moving side, not yet charging and not yet
    tested this phase, while a Highland charge of its side is under way (within 12": the
    player's measure; on a table, measured between nearest points, with musket range)."""
    unit = own_unit(state, action.unit, state.extra.moving, action)
    if not state.options.variant.hordes or unit.troop is not TroopType.HIGHLANDERS:
        raise illegal(action, "only highlanders in the '45", rules.FORTY_FIVE)
    if unit.status is not Status.STEADY or unit.highland_charge or unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} cannot test", rules.FORTY_FIVE)
    if not any(u.highland_charge and u.on_table for u in state.units_of(unit.side)):
        raise illegal(action, "no Highland charge is under way", rules.FORTY_FIVE)
    if state.extra.table is not None:
        if action.in_musket_range:
            raise illegal(action, MEASURED, rules.FORTY_FIVE)
        if not spread_facts(state, unit).near_charge:
            raise illegal(action, f'no Highland charge of {unit.name}\'s side within 12"',
                          rules.FORTY_FIVE)


def apply_spread_highland_charge(state: State, action: SpreadHighlandCharge, log: Log) -> State:
    """1d6: 6 (5-6 in musket range) and the unit joins the Highland charge."""
    unit = state.unit(action.unit)
    in_range = action.in_musket_range
    if state.extra.table is not None:
        in_range = spread_facts(state, unit).in_musket_range
    state = mark_done(state, unit.id)
    if test_highland_charge(unit, in_range, dice=log.dice):
        state = state.with_units(revised(unit, highland_charge=True))
        log.add("highland", f"{unit.name} joins the Highland charge", rules.FORTY_FIVE, unit.id,
                facts={"test": "highland charge", "result": "joins"})
    else:
        log.add("highland", f"{unit.name} holds its ground", rules.FORTY_FIVE, unit.id,
                facts={"test": "highland charge", "result": "holds"})
    return state


# --- the end of E --------------------------------------------------------------------------
def check_end_e(state: State, action: EndPhase) -> None:
    """E ends once every demolition whose layers moved away this move has gone off."""
    if ready_demolitions(state):
        raise illegal(
            action,
            "a charge whose layers moved away goes off in this firing phase",
            rules.DEMOLITION,
        )


def apply_end_e(state: State, action: EndPhase, log: Log) -> State:
    """On to F."""
    return enter_phase(state, F)
