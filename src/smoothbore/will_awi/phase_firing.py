"""Phases D and E (Rules - Move Sequence, Changing Facing, Rules - Firing): the firing player's
facing changes and fire, bombardment of works, demolitions going off and Highland charges."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs

from . import rules
from .actions import Bombard, ChangeFacing, Detonate, EndPhase, Fire, SpreadHighlandCharge
from .firing import Cover, check_target_detected, fire_modifiers, is_canister, resolve_fire
from .fortifications import (
    artillery_damage,
    blast_radius,
    bombard,
    damage,
    demolish,
    demolition_blast,
)
from .generals import Risk
from .movement import check_facing_change, test_gun_facing
from .turn_effects import (
    Handler,
    Log,
    degrees,
    general_risk,
    illegal,
    inches,
    lose,
    own_unit,
    points,
    score_text,
    work_named,
)
from .turn_state import (
    D,
    E,
    F,
    WillState,
    firing_side,
    mark_done,
    ready_demolitions,
    with_extra,
    with_work,
)
from .units import Status, TroopType
from .variants import end_highland_charge, test_highland_charge


def _change_facing(state: WillState, action: ChangeFacing, log: Log) -> WillState:
    unit = own_unit(state, action.unit, firing_side(state), action)
    if unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} has already changed facing", rules.FACING)
    enemies = tuple((state.unit(e), d) for e, d in action.enemies_in_front)
    if any(e.side == unit.side for e, _ in enemies):
        raise illegal(action, "enemies_in_front must be enemy units", rules.FACING)
    check_facing_change(unit, action.degrees, enemies, action.blocked, action)
    state = mark_done(state, unit.id)
    rolls = state.extra.options.gun_facing_roll and unit.troop.is_gun
    if rolls and not test_gun_facing(unit, dice=log.dice):
        log.add("facing", f"{unit.name} fails to turn", rules.FAQ1, unit.id)
        return state
    if action.degrees:
        text = f"{unit.name} turns {degrees(abs(action.degrees))}"
    else:
        text = f"{unit.name} keeps its facing"
    log.add("facing", text, rules.FACING, unit.id)
    return state


def _end_d(state: WillState, action: EndPhase, log: Log) -> WillState:
    return attrs.evolve(with_extra(state, done=frozenset()), phase=E)


def _fire(state: WillState, action: Fire, log: Log) -> WillState:
    firer = own_unit(state, action.firer, firing_side(state), action)
    target = state.unit(action.target)
    if target.side == firer.side or not target.on_table:
        raise illegal(action, "the target must be an enemy unit on the table", rules.FIRING)
    if firer.id in state.extra.fired:
        raise illegal(action, f"{firer.name} has already fired", rules.FIRING)
    opts = state.extra.options
    if state.phase == F:
        allowed = (
            state.extra.second_round
            and any(c.charger == target.id and c.target == firer.id for c in state.extra.charges)
            and target.troop.is_cavalry
        )
        if not allowed:
            raise illegal(
                action, "only the target of a second charge may fire now", rules.SECOND_CHARGE
            )
        if not (action.could_not_have_fired or opts.second_charge_fire_if_unfired):
            raise illegal(
                action,
                f"{firer.name} could have fired in the firing phase",
                rules.SECOND_CHARGE,
            )
    elif action.could_not_have_fired:
        raise illegal(
            action, "a unit firing in the firing phase could fire in it", rules.SECOND_CHARGE
        )
    check_target_detected(target, action.facts, action)
    fire_modifiers(firer, action.facts, opts, action)
    work = None
    if action.work:
        work = next((w for w in state.extra.works if w.id == action.work), None)
        if work is None:
            raise illegal(action, f"no work {action.work!r}", rules.FORT_VALUES)
        if action.facts.cover is not work.cover:
            raise illegal(action, f"the work gives {work.cover.value}", rules.FORT_VALUES)
    result = resolve_fire(firer, target, action.facts, dice=log.dice, options=opts)
    text = f"{firer.name} fires at {target.name}, {score_text(result.score, result.hit)}"
    log.add("fire", text, rules.FIRING, target.id)
    state = with_extra(state, fired=state.extra.fired | {firer.id})
    after = target
    if result.hit:
        state = lose(state, target, 1, log, rules.FIRING)
        after = state.unit(target.id)
        state = general_risk(state, target.id, Risk.FIRE_LOSS, action.chain_within_18, log)
    if result.shaken and after.status is Status.STEADY:
        after = attrs.evolve(end_highland_charge(after, False, True), status=Status.SHAKEN)
        state = state.with_units(after)
        log.add("shaken", f"{target.name} is shaken by fire", rules.FIRE_MORALE, target.id)
    if work is not None and firer.troop.is_gun and not is_canister(firer, action.facts):
        cover = action.facts.cover.factor
        hit = artillery_damage(result.score - cover)
        if hit:
            state = with_extra(
                state,
                works=tuple(damage(w, 1) if w.id == work.id else w for w in state.extra.works),
            )
            text = f"The {work.work.value} loses a defence point"
            log.add("work", text, rules.FORT_VALUES, work.id)
    if (
        opts.variant.hordes
        and after.troop is TroopType.HIGHLANDERS
        and after.status is Status.STEADY
        and not after.highland_charge
    ):
        in_range = action.facts.range_inches <= 6
        if test_highland_charge(after, in_range, dice=log.dice):
            state = state.with_units(attrs.evolve(after, highland_charge=True))
            log.add(
                "highland", f"{after.name} launches a Highland charge", rules.FORTY_FIVE, after.id
            )
    return state


def _bombard(state: WillState, action: Bombard, log: Log) -> WillState:
    firer = own_unit(state, action.firer, firing_side(state), action)
    if firer.id in state.extra.fired:
        raise illegal(action, f"{firer.name} has already fired", rules.FIRING)
    if not firer.troop.is_gun or is_canister(firer, action.facts):
        raise illegal(action, "only guns firing ball damage works", rules.FORT_VALUES)
    work = work_named(state, action.work, action)
    mods = fire_modifiers(
        firer, attrs.evolve(action.facts, cover=Cover.OPEN), state.extra.options, action
    )
    after = bombard(work, mods.total, dice=log.dice)
    log.add(
        "work",
        f"{firer.name} bombards the {work.work.value}:"
        f" {points(after.points, 'defence point')} left",
        rules.FORT_VALUES,
        work.id,
    )
    return with_extra(with_work(state, after), fired=state.extra.fired | {firer.id})


def _detonate(state: WillState, action: Detonate, log: Log) -> WillState:
    current = next((d for d in state.extra.demolitions if d.work == action.work and d.away), None)
    if current is None or state.unit(current.unit).side != state.extra.moving:
        raise illegal(action, "no charge ready to go off there", rules.DEMOLITION)
    work = work_named(state, action.work, action)
    destroyed = demolish(work, current.charges, dice=log.dice)
    log.add(
        "demolition",
        f"The demolition {'destroys' if destroyed else 'fails to destroy'} the {work.work.value}",
        rules.DEMOLITION,
        work.id,
    )
    if destroyed:
        state = with_work(state, attrs.evolve(work, points=0))
    radius = blast_radius(current.charges)
    for uid in sorted(action.within):
        unit = state.unit(uid)
        if not unit.on_table:
            continue
        r = demolition_blast(unit, dice=log.dice, options=state.extra.options)
        score = score_text(r.score, r.hit)
        text = f"The blast catches {unit.name} within {inches(radius)}, {score}"
        log.add("demolition", text, rules.DEMOLITION, uid)
        if r.hit:
            state = lose(state, unit, 1, log, rules.DEMOLITION)
        after = state.unit(uid)
        if r.shaken and after.status is Status.STEADY:
            state = state.with_units(attrs.evolve(after, status=Status.SHAKEN))
    others = tuple(d for d in state.extra.demolitions if d is not current)
    return with_extra(state, demolitions=others)


def _spread_highland(state: WillState, action: SpreadHighlandCharge, log: Log) -> WillState:
    unit = own_unit(state, action.unit, state.extra.moving, action)
    if not state.extra.options.variant.hordes or unit.troop is not TroopType.HIGHLANDERS:
        raise illegal(action, "only highlanders in the '45", rules.FORTY_FIVE)
    if unit.status is not Status.STEADY or unit.highland_charge or unit.id in state.extra.done:
        raise illegal(action, f"{unit.name} cannot test", rules.FORTY_FIVE)
    if not any(u.highland_charge for u in state.units_of(unit.side)):
        raise illegal(action, "no Highland charge is under way", rules.FORTY_FIVE)
    state = mark_done(state, unit.id)
    if test_highland_charge(unit, action.in_musket_range, dice=log.dice):
        state = state.with_units(attrs.evolve(unit, highland_charge=True))
        log.add("highland", f"{unit.name} joins the Highland charge", rules.FORTY_FIVE, unit.id)
    else:
        log.add("highland", f"{unit.name} holds its ground", rules.FORTY_FIVE, unit.id)
    return state


def _end_e(state: WillState, action: EndPhase, log: Log) -> WillState:
    if ready_demolitions(state):
        raise illegal(
            action,
            "a charge whose layers moved away goes off in this firing phase",
            rules.DEMOLITION,
        )
    return attrs.evolve(with_extra(state, done=frozenset()), phase=F)


HANDLERS: Mapping[tuple[str, type], Handler] = MappingProxyType({
    (D, ChangeFacing): _change_facing,
    (D, EndPhase): _end_d,
    (E, Fire): _fire,
    (E, Bombard): _bombard,
    (E, Detonate): _detonate,
    (E, SpreadHighlandCharge): _spread_highland,
    (E, EndPhase): _end_e,
    # Second Cavalry Charges: a target that has not fired may fire at the cavalry in F.
    (F, Fire): _fire,
})
