"""The actions the rules allow in a state, with default table facts (Bloodybacks 9.3,
Sequence of Play; Activating Units; Action tariff)."""

from __future__ import annotations

from smoothbore.core import InvalidValueError

from . import activation as act
from . import command, sequence, shooting
from .actions import (
    Action,
    Activate,
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    Manoeuvre,
    Move,
    Rally,
    ResolveDeferred,
    RoutTest,
    Shoot,
    SpendCommandPoint,
)
from .battle import ActivityEntry, State, activity_of, leaderless
from .phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, ENDED, PHASES
from .units import Formation, Unit, Weapon


def _activation_actions(state: State) -> list[Action]:
    """Legal actions while a card is in play."""
    actions: list[Action] = []
    extra = state.extra
    card = extra.card
    if card is None:
        return [EndActivation()]
    living = tuple(c for c in extra.active if not state.commander(c).removed)
    for unit in state.units:
        if unit.destroyed or unit.id in extra.attempted or unit.side != card.side:
            continue
        leaders: list[str | None] = [
            c
            for c in living
            if state.commander(c).side == unit.side
            and (
                state.commander(c).brigade == unit.brigade
                or (activity_of(state, c) or ActivityEntry(c, 0, 0)).command_points > 0
            )
        ]
        if leaderless(state, unit) and sequence.activates_leaderless(card, unit.side):
            leaders.append(None)
        for leader in leaders:
            if unit.routing:
                actions.append(RoutTest(unit.id, leader))
            elif unit.can_act:
                actions.append(Activate(unit.id, leader))
    for entry in extra.activated:
        unit = state.unit(entry.unit_id)
        if unit.destroyed or unit.routing or entry.actions < 1:
            continue
        if unit.disruption and entry.actions >= 1:
            actions.append(Rally(unit.id))
        actions.append(Move(unit.id))
        enemies = [u for u in state.units if u.side != unit.side and not u.destroyed]
        if not entry.shot and (unit.weapon is not Weapon.NONE or unit.is_artillery):
            for enemy in enemies:
                facts = _default_shot(unit)
                if facts is None or (
                    unit.is_artillery and unit.formation is not Formation.UNLIMBERED
                ):
                    continue
                fire = shooting.chosen_fire(unit, facts)
                if shooting.shooting_cost(fire, 0) <= entry.actions:
                    actions.append(Shoot(unit.id, enemy.id, facts))
        guns_barred = unit.is_artillery and not extra.options.artillery_may_charge
        if entry.actions >= act.ActionKind.CHARGE.cost and not guns_barred:
            actions.extend(Charge((unit.id,), (enemy.id,)) for enemy in enemies)
        actions.append(Manoeuvre(unit.id, act.ActionKind.ABOUT_FACE))
        if unit.is_artillery:
            actions.append(Manoeuvre(unit.id, act.ActionKind.LIMBER))
        else:
            other = Formation.COLUMN if unit.formation is Formation.DEPLOYED else Formation.DEPLOYED
            actions.append(Manoeuvre(unit.id, act.ActionKind.CHANGE_FORMATION, other))
    for commander_id in living:
        entry_a = activity_of(state, commander_id)
        if entry_a is not None and entry_a.command_points > 0:
            actions.append(SpendCommandPoint(commander_id, command.CommandPointUse.MOVE_COMMANDER))
            actions.extend(
                SpendCommandPoint(commander_id, command.CommandPointUse.EXTRA_ACTION, e.unit_id)
                for e in extra.activated
                if e.commander_id == commander_id
            )
    actions.append(EndActivation())
    return actions


def _default_shot(unit: Unit) -> shooting.ShotFacts | None:
    """Facts for a shot in the middle of the unit's first range band."""
    for fire, low, high in shooting.bands(unit):
        return shooting.ShotFacts(range=(low + high) / 2, fire=fire)
    return None


def legal_actions(state: State) -> tuple[Action, ...]:
    """Actions the rules allow now (with default table facts: a player may give others)."""
    if state.phase == ACTIVITY:
        return (DetermineActivity(),)
    if state.phase == DRAW:
        return (DrawCard(),)
    if state.phase == ACTIVATION:
        return tuple(_activation_actions(state))
    if state.phase == DEFERRED:
        if state.extra.deferred:
            return (ResolveDeferred(), ResolveDeferred(reverse=True))
        return (EndTurn(), EndBattle())
    if state.phase == ENDED:
        return ()
    raise InvalidValueError("phase", state.phase, ", ".join(p.name for p in PHASES))
