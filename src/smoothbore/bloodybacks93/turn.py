"""The Bloodybacks turn: phases as data and a pure ``step`` over the battle state, driven by
explicit actions (Bloodybacks 9.3, Sequence of Play).

Until positions arrive, actions carry what the players measure at the table (range, cover,
contact face, terrain moved through, whether a unit is inside its commander's radius).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Union

import attrs

from smoothbore.core import (
    BattleState,
    DiceState,
    Event,
    IllegalActionError,
    InvalidValueError,
    Phase,
    RollRecord,
    SamplingDice,
)

from . import activation as act
from . import command, commanders, morale, movement, sequence, shooting
from .charges import (
    RULE_CHARGES,
    RULE_EVADE,
    ChargeFacts,
    evade,
    may_evade,
    must_evade,
    pursuit_distance,
)
from .melee import FALL_BACK_INCHES, Fate, resolve_charge
from .options import DEFAULT_OPTIONS, Options
from .sequence import Card
from .units import SIDES, TEXT, Commander, Formation, Unit, Weapon, remove_disruption, with_density

RULE_SEQUENCE = sequence.RULE_SEQUENCE

ACTIVITY = "activity"
DRAW = "draw"
ACTIVATION = "activation"
DEFERRED = "deferred melees"
ENDED = "ended"

PHASES: tuple[Phase, ...] = (
    Phase(ACTIVITY, f"{TEXT}, Determine commander activation level",
          "roll an average die for each commander: activity level and command points"),
    Phase(DRAW, f"{TEXT}, Sequence of Play",
          "draw a card from the activation deck (the first sets the turn length)"),
    Phase(ACTIVATION, f"{TEXT}, Activating Units",
          "commanders activated by the card activate units, which spend their actions"),
    Phase(DEFERRED, f"{TEXT}, Sequence of Play",
          "resolve the melees deferred during the turn, then start the next turn"),
    Phase(ENDED, f"{TEXT}, Risk to commanders",
          "the battle is over: the fate of removed commanders is rolled"),
)


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


# --- actions -------------------------------------------------------------------------------
@attrs.frozen
class DetermineActivity:
    """Roll every commander's activity level at the start of the turn."""


@attrs.frozen
class DrawCard:
    """Draw the next card of the activation deck."""


@attrs.frozen
class Activate:
    """Roll a unit's activation hand under a commander activated by the card (None: a unit
    whose commander was killed, on its side's ace). ``outside_radius`` is measured."""

    unit_id: str
    commander_id: str | None
    outside_radius: bool = False
    in_woods: bool = False


@attrs.frozen
class RoutTest:
    """A routing unit tests morale instead of activating."""

    unit_id: str
    commander_id: str | None
    in_woods: bool = False


@attrs.frozen
class Move:
    """Spend an action moving; ``through`` names a friendly unit the move passes through
    (interpenetration, or else a passage of lines)."""

    unit_id: str
    facts: movement.MoveFacts = attrs.field(factory=movement.MoveFacts)
    through: str | None = None


@attrs.frozen
class Manoeuvre:
    """Spend an action to about face, change formation (to ``formation``, or to ``density``
    by closing up or separating the bases), or limber/unlimber."""

    unit_id: str
    kind: act.ActionKind
    formation: Formation | None = None
    density: int | None = None


@attrs.frozen
class Shoot:
    """Shoot at one target (extra orders are part of the facts); ``split_target_id`` and
    ``split_facts`` give a second target for split fire (each facts' ``size`` the part of the
    unit shooting at it)."""

    unit_id: str
    target_id: str
    facts: shooting.ShotFacts = attrs.field(factory=shooting.ShotFacts)
    split_target_id: str | None = None
    split_facts: shooting.ShotFacts | None = None


@attrs.frozen
class Charge:
    """Charge one or more enemy units with one or more units activated together. The first
    charger's impetus is rolled. ``evade`` is the target's choice (None: only when
    compulsory); ``charger_spare_move`` is what the chargers could move beyond the evaders'
    position; ``defer`` leaves the melee to the end of the turn; ``pursue`` follows routed
    defenders. With ``distance`` (inches to the target, measured) each charger makes its move
    action over ``ground`` and only those that reach it make contact (cavalry pick any of
    their distances); the spare move then decides whether evaders are caught."""

    unit_ids: tuple[str, ...]
    target_ids: tuple[str, ...]
    facts: ChargeFacts = attrs.field(factory=ChargeFacts)
    evade: bool | None = None
    target_in_open: bool = True
    hard_cover: bool = False
    charger_spare_move: float = 0.0
    defer: bool = False
    pursue: bool = False
    distance: float | None = None
    ground: movement.MoveFacts = attrs.field(factory=movement.MoveFacts)


@attrs.frozen
class Rally:
    """Spend an action to remove one DRP."""

    unit_id: str


@attrs.frozen
class SpendCommandPoint:
    """Spend a command point: an extra action for a unit (``unit_id``), or move the commander
    12" (``attach_to`` a unit id, or None to stand unattached)."""

    commander_id: str
    use: command.CommandPointUse
    unit_id: str | None = None
    attach_to: str | None = None
    outside_radius: bool = False


@attrs.frozen
class EndActivation:
    """Finish with the current card."""


@attrs.frozen
class ResolveDeferred:
    """Resolve the first deferred melee (``reverse`` when the tables have turned and the
    defenders counter-charge)."""

    reverse: bool = False


@attrs.frozen
class EndTurn:
    """Start the next turn."""


@attrs.frozen
class EndBattle:
    """End the battle after a turn: roll the fate of every removed commander."""


Action = Union[  # noqa: UP007
    DetermineActivity, DrawCard, Activate, RoutTest, Move, Manoeuvre, Shoot, Charge, Rally,
    SpendCommandPoint, EndActivation, ResolveDeferred, EndTurn, EndBattle,
]


# --- helpers -------------------------------------------------------------------------------
def new_battle(
    units: tuple[Unit, ...],
    commanders_: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> State:
    """A battle at the start of turn 1, before activity is rolled."""
    return BattleState(
        ruleset="bloodybacks93", sides=SIDES, units=units, commanders=commanders_,
        extra=Extra(options=options), dice=DiceState(seed), turn=1, phase=ACTIVITY,
    )


def _illegal(action: object, why: str, rule: str) -> IllegalActionError:
    return IllegalActionError(action, why, rule)


def _need_phase(state: State, action: object, *phases: str) -> None:
    if state.phase not in phases:
        raise _illegal(action, f"not allowed in the {state.phase} phase", RULE_SEQUENCE)


def _activity(state: State, commander_id: str) -> ActivityEntry | None:
    for entry in state.extra.activity:
        if entry.commander_id == commander_id:
            return entry
    return None


def _activated(state: State, unit_id: str) -> Activated | None:
    for entry in state.extra.activated:
        if entry.unit_id == unit_id:
            return entry
    return None


def _with_activated(extra: Extra, entry: Activated) -> Extra:
    rest = tuple(e for e in extra.activated if e.unit_id != entry.unit_id)
    return attrs.evolve(extra, activated=(*rest, entry))


def _with_activity(extra: Extra, entry: ActivityEntry) -> Extra:
    return attrs.evolve(
        extra,
        activity=tuple(entry if e.commander_id == entry.commander_id else e
                       for e in extra.activity),
    )


def _event(kind: str, text: str, rule: str, subject: str, dice: SamplingDice,
           mark: int) -> Event:
    rolls: tuple[RollRecord, ...] = dice.records_since(mark)
    return Event(kind, text, rule, subject, rolls)


def _attached(state: State, unit_id: str) -> tuple[Commander, ...]:
    return tuple(c for c in state.commanders if c.attached_to == unit_id and not c.removed)


def _leader_attached(state: State, unit: Unit) -> bool:
    """Whether the unit's own commander and/or the CinC rides with it (+1 to its morale and
    cohesion tests; Morale: Modifiers)."""
    return any(c.cinc or c.brigade == unit.brigade for c in _attached(state, unit.id))


def _facts_from_state(state: State, chargers: tuple[Unit, ...], defenders: tuple[Unit, ...],
                      facts: ChargeFacts) -> ChargeFacts:
    """The charge's facts with the commanders the state shows attached: any commander with
    a charger adds an impetus die (Determine impetus); the first defender's own commander or
    the CinC helps its tests (Morale: Modifiers)."""
    return attrs.evolve(
        facts,
        charger_commander_attached=facts.charger_commander_attached
        or any(_attached(state, u.id) for u in chargers),
        defender_commander_attached=facts.defender_commander_attached
        or _leader_attached(state, defenders[0]),
    )


def _fate_after_test(after: Unit, result: morale.TestResult) -> Fate:
    """Where a unit goes after a test out of melee: it routs, is pushed back, or stays."""
    if after.destroyed:
        return Fate.DESTROYED
    if after.routing:
        return Fate.ROUTS
    return Fate.FALLS_BACK if result is morale.TestResult.PUSHED_BACK else Fate.HOLDS


def unit_commander(state: State, unit: Unit) -> Commander | None:
    """The unit's own commander: the living commander of its brigade (not the CinC if a
    brigadier exists)."""
    mine = [c for c in state.commanders
            if c.side == unit.side and c.brigade == unit.brigade and not c.removed]
    mine.sort(key=lambda c: c.cinc)
    return mine[0] if mine else None


def _leaderless(state: State, unit: Unit) -> bool:
    return unit_commander(state, unit) is None


def _spend(state: State, action: object, unit_id: str, cost: int,
           shooting_now: bool = False) -> Extra:
    entry = _activated(state, unit_id)
    if entry is None:
        raise _illegal(action, f"{unit_id} has not been activated by the current card",
                       act.RULE_ACTIVATION)
    if entry.actions < cost:
        raise _illegal(action, f"{unit_id} has {entry.actions} actions, needs {cost}",
                       act.RULE_TARIFF)
    if shooting_now and entry.shot:
        raise _illegal(action, f"{unit_id} has already shot this turn",
                       shooting.RULE_SHOOTING)
    return _with_activated(state.extra, attrs.evolve(
        entry, actions=entry.actions - cost, shot=entry.shot or shooting_now))


def _move_events(units: tuple[Unit, ...], fates: tuple[Fate, ...],
                 dice: SamplingDice) -> tuple[Event, ...]:
    """Push back and rout moves of units that fell back or routed (Morale: Push Back move,
    Rout move); a unit routing off the table is lost, which the players see."""
    events = []
    for unit, fate in zip(units, fates, strict=True):
        mark = len(dice.records)
        if fate is Fate.FALLS_BACK:
            distance = morale.push_back_distance(dice=dice)
            text = f'{unit.name} is pushed back {distance}"'
        elif fate is Fate.ROUTS:
            rout = morale.rout_distance(unit, dice=dice)
            if rout is None:
                continue
            text = f'{unit.name} routs {rout}" (lost if that takes it off the table)'
        else:
            continue
        events.append(_event("retire", text, morale.RULE_MOVES, unit.id, dice, mark))
    return tuple(events)


def _risk_events(
    state: State, before: tuple[Unit, ...], after: tuple[Unit, ...], dice: SamplingDice,
    rifles: bool = False, melee: bool = False,
) -> tuple[State, tuple[Event, ...]]:
    """Risk to commanders attached to units that took losses: a shooting hit is one loss
    (a DRP or a stamina loss); a melee loss is one (a stamina loss with its DRP)."""
    events: list[Event] = []
    for old, new in zip(before, after, strict=True):
        losses = new.stamina_losses - old.stamina_losses
        if not melee:
            losses += new.disruption - old.disruption
        if losses <= 0:
            continue
        for leader in _attached(state, old.id):
            mark = len(dice.records)
            risk = commanders.risk_to_commander(leader, losses, dice=dice, rifles=rifles)
            state = state.with_commanders(risk.commander)
            events.append(_event("risk", f"{leader.name}: {risk}", commanders.RULE_RISK,
                                 leader.id, dice, mark))
    return state, tuple(events)


# --- the step ------------------------------------------------------------------------------
def step(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Apply one action; returns the new state and what happened. Pure: ``state`` is never
    changed, and an illegal action raises IllegalActionError naming the rule."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InvalidValueError("action", action, "a Bloodybacks action")
    dice = state.dice.dice()
    new_state, events = handler(state, action, dice)
    return attrs.evolve(new_state, dice=state.dice.advanced()), events


def _determine_activity(state: State, action: DetermineActivity,
                        dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVITY)
    entries: list[ActivityEntry] = []
    events: list[Event] = []
    for leader in state.commanders:
        if leader.removed:
            continue
        mark = len(dice.records)
        result = command.roll_activity(leader, dice=dice, options=state.extra.options)
        entries.append(ActivityEntry(leader.id, result.level, result.command_points))
        events.append(_event("activity", f"{leader.name}: {result}", command.RULE_ACTIVITY,
                             leader.id, dice, mark))
    extra = attrs.evolve(state.extra, activity=tuple(entries), deck=sequence.DECK, card=None,
                         minutes=0, active=(), attempted=frozenset(), activated=())
    return attrs.evolve(state, extra=extra, phase=DRAW), tuple(events)


def _draw(state: State, action: DrawCard, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, DRAW)
    mark = len(dice.records)
    card = sequence.draw_card(state.extra.deck, dice=dice)
    first = len(state.extra.deck) == len(sequence.DECK)
    minutes = card.turn_minutes if first else state.extra.minutes
    active = tuple(
        a.commander_id for a in state.extra.activity
        if sequence.activates(card, state.commander(a.commander_id).side, a.level)
        and not state.commander(a.commander_id).removed
    )
    text = f"drew the {card}"
    if first:
        text += f": a {minutes}-minute turn (and any scenario random event)"
    if active:
        text += "; activates " + ", ".join(state.commander(c).name for c in active)
    extra = attrs.evolve(state.extra, deck=sequence.without(state.extra.deck, card), card=card,
                         minutes=minutes, active=active, activated=())
    event = _event("card", text, sequence.RULE_ACTIVATING, "", dice, mark)
    return attrs.evolve(state, extra=extra, phase=ACTIVATION), (event,)


def _check_commander(state: State, action: object, unit: Unit,
                     commander_id: str | None) -> Commander | None:
    card = state.extra.card
    if card is None:
        raise _illegal(action, "no card drawn", RULE_SEQUENCE)
    if unit.id in state.extra.attempted:
        raise _illegal(action, f"{unit.name} already tried to activate this turn",
                       act.RULE_ACTIVATION)
    if commander_id is None:
        if not (_leaderless(state, unit) and sequence.activates_leaderless(card, unit.side)):
            raise _illegal(action, "only units whose commander is dead act without one, on "
                           "their side's ace", act.RULE_ACTIVATION)
        return None
    leader = state.commander(commander_id)
    if leader.removed:
        raise _illegal(action, f"{leader.name} has been removed from the battle",
                       commanders.RULE_RISK)
    if commander_id not in state.extra.active:
        raise _illegal(action, f"{leader.name} is not activated by the {card}",
                       sequence.RULE_ACTIVATING)
    if leader.side != unit.side:
        raise _illegal(action, "a commander activates only his own side's units",
                       sequence.RULE_ACTIVATING)
    return leader


def _activate(state: State, action: Activate,
              dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    leader = _check_commander(state, action, unit, action.commander_id)
    if unit.routing:
        raise _illegal(action, f"{unit.name} is routing: it takes a morale test instead",
                       morale.RULE_ROUTING)
    if not unit.can_act:
        raise _illegal(action, f"{unit.name} recovered from rout this turn or is gone",
                       act.RULE_ACTIVATION)
    extra = state.extra
    other_brigade = leader is not None and leader.brigade != unit.brigade
    if other_brigade and leader is not None:
        entry = _activity(state, leader.id)
        if entry is None or entry.command_points < 1 or action.outside_radius:
            raise _illegal(action, "activating a unit of another brigade costs a command "
                           "point, used in radius", command.RULE_CP_TARIFF)
        extra = _with_activity(extra, attrs.evolve(entry,
                                                   command_points=entry.command_points - 1))
    mark = len(dice.records)
    attached = _leader_attached(state, unit)
    result = act.activate(
        unit, leader, dice=dice, outside_radius=action.outside_radius,
        other_brigade=other_brigade, long_turn=sequence.long_turn(extra.minutes),
        in_woods=action.in_woods, commander_attached=attached, options=extra.options,
    )
    event = _event("activation", f"{unit.name}: {result}", act.RULE_ACTIVATION, unit.id,
                   dice, mark)
    extra = attrs.evolve(extra, attempted=extra.attempted | {unit.id})
    after = unit
    moves: tuple[Event, ...] = ()
    if result.morale is not None:
        after = morale.apply_result(unit, result.morale.result)
        moves = _move_events((after,), (_fate_after_test(after, result.morale.result),), dice)
    if result.actions:
        extra = _with_activated(extra, Activated(unit.id, leader.id if leader else "",
                                                 result.actions))
    return attrs.evolve(state.with_units(after), extra=extra), (event, *moves)


def _rout_test(state: State, action: RoutTest,
               dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    _check_commander(state, action, unit, action.commander_id)
    if not unit.routing:
        raise _illegal(action, f"{unit.name} is not routing", morale.RULE_ROUTING)
    mark = len(dice.records)
    test = morale.take_test(unit, morale.TestKind.MORALE, dice=dice,
                            commander_attached=_leader_attached(state, unit),
                            in_woods=action.in_woods, reason=f"{unit.name} is routing")
    after = morale.apply_result(unit, test.result)
    extra = attrs.evolve(state.extra, attempted=state.extra.attempted | {unit.id})
    event = _event("rout", f"{unit.name}: {test}", morale.RULE_ROUTING, unit.id, dice, mark)
    moves = _move_events((after,), (_fate_after_test(after, test.result),), dice)
    return attrs.evolve(state.with_units(after), extra=extra), (event, *moves)


def _move(state: State, action: Move, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    movement.check_move(unit, action.facts)
    other = state.unit(action.through) if action.through is not None else None
    if other is not None and (other.side != unit.side or other.id == unit.id):
        raise _illegal(action, "units pass only through other friendly units",
                       movement.RULE_INTERPENETRATION)
    if other is not None and not (movement.may_interpenetrate(unit, other)
                                  or movement.passage_allowed(unit, other)):
        raise _illegal(action, f"{unit.name} may neither interpenetrate nor pass through "
                       f"{other.name}", movement.RULE_PASSAGE)
    extra = _spend(state, action, unit.id, act.ActionKind.MOVE.cost)
    mark = len(dice.records)
    result = movement.move(unit, action.facts, dice=dice,
                           commander_attached=_leader_attached(state, unit))
    events = [_event("move", f"{unit.name} {result}", movement.RULE_MOVEMENT, unit.id, dice,
                     mark)]
    if result.morale is not None:
        events += _move_events((result.unit,),
                               (_fate_after_test(result.unit, result.morale.result),), dice)
    moved: tuple[Unit, ...] = (result.unit,)
    if other is not None and not movement.may_interpenetrate(unit, other):
        mark = len(dice.records)
        passage = movement.passage_of_lines(result.unit, other, dice=dice)
        moved = (passage.mover, passage.static)
        events.append(_event("passage", f"{unit.name} through {other.name}: {passage}",
                             movement.RULE_PASSAGE, unit.id, dice, mark))
        tested = tuple(u for u, t in zip(moved, passage.tests_by_unit, strict=True) if t)
        fates = tuple(_fate_after_test(u, t.result)
                      for u, t in zip(moved, passage.tests_by_unit, strict=True) if t)
        events += _move_events(tested, fates, dice)
    return attrs.evolve(state.with_units(*moved), extra=extra), tuple(events)


def _manoeuvre(state: State, action: Manoeuvre,
               dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    allowed = (act.ActionKind.ABOUT_FACE, act.ActionKind.CHANGE_FORMATION, act.ActionKind.LIMBER)
    if action.kind not in allowed:
        raise _illegal(action, f"{action.kind} is not a manoeuvre", act.RULE_TARIFF)
    after = unit
    if action.kind is act.ActionKind.LIMBER:
        if not unit.is_artillery:
            raise _illegal(action, "only artillery limbers", act.RULE_TARIFF)
        flip = (Formation.UNLIMBERED if unit.formation is Formation.LIMBERED
                else Formation.LIMBERED)
        after = attrs.evolve(unit, formation=flip)
    elif action.kind is act.ActionKind.CHANGE_FORMATION:
        if (action.formation is None and action.density is None) or unit.is_artillery:
            raise _illegal(action, "infantry or cavalry change to a given formation or density",
                           act.RULE_TARIFF)
        after = attrs.evolve(unit, formation=action.formation or unit.formation)
        if action.density is not None:
            after = with_density(after, action.density)
    extra = _spend(state, action, unit.id, action.kind.cost)
    event = Event("manoeuvre", f"{unit.name}: {action.kind}", act.RULE_TARIFF, unit.id)
    return attrs.evolve(state.with_units(after), extra=extra), (event,)


def _shoot(state: State, action: Shoot, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    shooter = state.unit(action.unit_id)
    shots = [(action.target_id, action.facts)]
    if action.split_target_id is not None or action.split_facts is not None:
        if action.split_target_id is None or action.split_facts is None:
            raise _illegal(action, "split fire names a second target and its facts",
                           shooting.RULE_SPLIT)
        sizes = (action.facts.size, action.split_facts.size)
        full = shooting.shooting_size(shooter, state.extra.options)
        if None in sizes or sum(s or 0 for s in sizes) > full:
            raise _illegal(action, f"split fire divides the unit's size ({full}) between the "
                           "targets", shooting.RULE_SPLIT)
        shots.append((action.split_target_id, action.split_facts))
    if shooter.is_artillery and shooter.formation is not Formation.UNLIMBERED:
        raise _illegal(action, "artillery shoots unlimbered", shooting.RULE_ARTILLERY)
    targets = []
    for target_id, facts in shots:
        target = state.unit(target_id)
        if shooter.side == target.side or target.destroyed:
            raise _illegal(action, "shoot only at an enemy unit on the table",
                           shooting.RULE_SHOOTING)
        targets.append((target, facts, shooting.chosen_fire(shooter, facts)))
    cost = max(shooting.shooting_cost(fire, facts.extra_orders) for _, facts, fire in targets)
    extra = _spend(state, action, shooter.id, cost, shooting_now=True)
    new = attrs.evolve(state, extra=extra)
    events: list[Event] = []
    for target, facts, fire in targets:
        mark = len(dice.records)
        current = new.unit(target.id)
        shot = shooting.shoot(shooter, current, facts, dice=dice, options=extra.options)
        hit = shooting.apply_hits(current, shot.hits)
        events.append(_event("shooting", f"{shooter.name} at {target.name}: {shot}",
                             shooting.RULE_SHOOTING, shooter.id, dice, mark))
        new = new.with_units(hit)
        new, risks = _risk_events(new, (current,), (hit,), dice,
                                  rifles=fire is shooting.Fire.RIFLE)
        events.extend(risks)
    return new, tuple(events)


def _rally(state: State, action: Rally, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    unit = state.unit(action.unit_id)
    if unit.disruption == 0:
        raise _illegal(action, f"{unit.name} has no DRP to rally off", morale.RULE_RALLY)
    extra = _spend(state, action, unit.id, act.ActionKind.RALLY.cost)
    after = remove_disruption(unit, 1)
    event = Event("rally", f"{unit.name} rallies off 1 DRP", morale.RULE_RALLY, unit.id)
    return attrs.evolve(state.with_units(after), extra=extra), (event,)


def _charge(state: State, action: Charge, dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    if not action.unit_ids or not action.target_ids:
        raise _illegal(action, "a charge needs chargers and targets", RULE_CHARGES)
    named = (*action.unit_ids, *action.target_ids)
    if len(set(named)) != len(named):
        raise _illegal(action, "each unit charges or is charged once", RULE_CHARGES)
    chargers = tuple(state.unit(u) for u in action.unit_ids)
    targets = tuple(state.unit(u) for u in action.target_ids)
    if any(t.side == chargers[0].side or t.destroyed for t in targets):
        raise _illegal(action, "charge only enemy units on the table", RULE_CHARGES)
    extra = state.extra
    for unit in chargers:
        interim = attrs.evolve(state, extra=extra)
        extra = _spend(interim, action, unit.id, act.ActionKind.CHARGE.cost)
    events: list[Event] = []
    new = attrs.evolve(state, extra=extra)
    spare = action.charger_spare_move
    if action.distance is not None:
        new, chargers, spare, moves = _charge_moves(new, chargers, action, dice)
        events.extend(moves)
        if not chargers:
            return new, tuple(events)
    standing: list[Unit] = []
    for target in targets:
        compulsory = must_evade(target, chargers[0], in_open=action.target_in_open,
                                hard_cover=action.hard_cover)
        wants = action.evade if action.evade is not None else compulsory
        if compulsory and action.evade is False:
            raise _illegal(action, f"{target.name} must evade in the open", RULE_EVADE)
        if wants and may_evade(target, chargers[0], hard_cover=action.hard_cover):
            mark = len(dice.records)
            result = evade(target, chargers[0], dice=dice, charger_spare_move=spare,
                           hard_cover=action.hard_cover,
                           commander_attached=_leader_attached(state, target))
            new = new.with_units(result.unit)
            events.append(_event("evade", f"{target.name} {result}", RULE_EVADE, target.id,
                                 dice, mark))
        else:
            standing.append(target)
    if not standing:
        return new, tuple(events)
    if action.defer:
        melee = DeferredMelee(tuple(c.id for c in chargers), tuple(t.id for t in standing),
                              action.facts)
        extra = attrs.evolve(new.extra, deferred=(*new.extra.deferred, melee))
        events.append(Event("charge", "charge made contact; melee deferred to the end of the "
                            "turn", RULE_SEQUENCE, chargers[0].id))
        return attrs.evolve(new, extra=extra), tuple(events)
    new, fight = _fight(new, chargers, tuple(standing), action.facts, action.pursue, dice)
    return new, (*events, *fight)


def _charge_moves(
    state: State, chargers: tuple[Unit, ...], action: Charge, dice: SamplingDice
) -> tuple[State, tuple[Unit, ...], float, tuple[Event, ...]]:
    """Each charger's move towards the target: those that reach it make contact (Charges and
    melee: units enter melee if they can move far enough, using a movement action)."""
    if action.distance is None or action.distance < 0:
        raise InvalidValueError("distance", action.distance, "0 or more inches")
    reached: list[Unit] = []
    events: list[Event] = []
    spare: float | None = None
    for unit in chargers:
        movement.check_move(unit, action.ground)
        mark = len(dice.records)
        result = movement.move(unit, action.ground, dice=dice)
        state = state.with_units(result.unit)
        reach = [d for d in result.distances if d >= action.distance]
        if reach:
            reached.append(result.unit)
            # cavalry move exactly one of their distances: the longest that reaches
            left = max(reach) - action.distance
            spare = left if spare is None else min(spare, left)
            text = f"{unit.name} charges home ({result})"
        else:
            text = f"{unit.name} falls short of {action.distance} inches ({result})"
        events.append(_event("charge move", text, RULE_CHARGES, unit.id, dice, mark))
    return state, tuple(reached), spare or 0.0, tuple(events)


def _fight(state: State, chargers: tuple[Unit, ...], defenders: tuple[Unit, ...],
           facts: ChargeFacts, pursue: bool,
           dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    mark = len(dice.records)
    facts = _facts_from_state(state, chargers, defenders, facts)
    outcome = resolve_charge(chargers, defenders, facts, dice=dice, options=state.extra.options)
    events = [_event("melee", str(outcome), RULE_CHARGES, chargers[0].id, dice, mark)]
    new = state.with_units(*outcome.chargers, *outcome.defenders)
    events.extend(_move_events(outcome.chargers, outcome.charger_fates, dice))
    events.extend(_move_events(outcome.defenders, outcome.defender_fates, dice))
    if outcome.chargers_fall_back:
        events.append(Event("fall back", f'chargers move back {FALL_BACK_INCHES}"',
                            RULE_CHARGES, chargers[0].id))
    pursuers: tuple[Unit, ...] = ()
    if pursue and any(f is Fate.ROUTS for f in outcome.defender_fates):
        pursuers = outcome.chargers
    elif pursue and facts.countercharged_by_cavalry and any(
        f is Fate.ROUTS for f in outcome.charger_fates
    ):
        pursuers = outcome.defenders  # a cavalry melee with a countercharge: the winner pursues
    if pursuers:
        for unit in pursuers:
            if unit.destroyed or unit.routing or unit.is_artillery:
                continue
            mark = len(dice.records)
            distance = pursuit_distance(unit, dice=dice)
            events.append(_event("pursuit", f'{unit.name} pursues {distance}"',
                                 f"{TEXT}, Charges and melee: Pursuit", unit.id, dice, mark))
    new, risks = _risk_events(new, chargers + defenders, outcome.chargers + outcome.defenders,
                              dice, melee=True)
    return new, (*events, *risks)


def _spend_cp(state: State, action: SpendCommandPoint,
              dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    leader = state.commander(action.commander_id)
    entry = _activity(state, leader.id)
    if leader.removed:
        raise _illegal(action, f"{leader.name} has been removed from the battle",
                       commanders.RULE_RISK)
    if action.commander_id not in state.extra.active or entry is None:
        raise _illegal(action, f"{leader.name} is not active now", command.RULE_CP_TARIFF)
    if entry.command_points < 1:
        raise _illegal(action, f"{leader.name} has no command points left",
                       command.RULE_CP_TARIFF)
    extra = _with_activity(state.extra, attrs.evolve(entry,
                                                     command_points=entry.command_points - 1))
    new = state
    if action.use.needs_radius and action.outside_radius:
        raise _illegal(action, "command points are used on units within the command radius",
                       command.RULE_RADIUS)
    if action.use is command.CommandPointUse.EXTRA_ACTION:
        target = _activated(state, action.unit_id or "")
        if target is None or target.commander_id != leader.id:
            raise _illegal(action, "an extra action goes to a unit this commander activated "
                           "this turn", command.RULE_CP_TARIFF)
        extra = _with_activated(extra, attrs.evolve(target, actions=target.actions + 1))
        text = f"{leader.name} gives {action.unit_id} an extra action"
    elif action.use is command.CommandPointUse.MOVE_COMMANDER:
        if action.attach_to is not None:
            unit = state.unit(action.attach_to)
            if unit.side != leader.side:
                raise _illegal(action, "commanders attach to their own side's units",
                               command.RULE_CP_TARIFF)
        new = state.with_commanders(attrs.evolve(leader, attached_to=action.attach_to))
        where = f"attaches to {action.attach_to}" if action.attach_to else "moves unattached"
        text = f'{leader.name} moves {command.COMMANDER_MOVE}" and {where}'
    else:
        raise _illegal(action, "a unit of another brigade is activated with Activate",
                       command.RULE_CP_TARIFF)
    return attrs.evolve(new, extra=extra), (Event("command point", text, command.RULE_CP_TARIFF,
                                                  leader.id),)


def _end_activation(state: State, action: EndActivation,
                    dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, ACTIVATION)
    extra = attrs.evolve(state.extra, active=(), activated=())
    phase = DRAW if extra.deck else DEFERRED
    text = "card finished" if extra.deck else "deck empty: deferred melees"
    return attrs.evolve(state, extra=extra, phase=phase), (Event("card", text, RULE_SEQUENCE),)


def _resolve_deferred(state: State, action: ResolveDeferred,
                      dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, DEFERRED)
    if not state.extra.deferred:
        raise _illegal(action, "no deferred melee", RULE_SEQUENCE)
    melee, rest = state.extra.deferred[0], state.extra.deferred[1:]
    chargers = tuple(state.unit(u) for u in melee.chargers)
    defenders = tuple(state.unit(u) for u in melee.defenders)
    if action.reverse:
        chargers, defenders = defenders, chargers
    chargers = tuple(u for u in chargers if not (u.destroyed or u.routing))
    defenders = tuple(u for u in defenders if not (u.destroyed or u.routing))
    new = attrs.evolve(state, extra=attrs.evolve(state.extra, deferred=rest))
    if not chargers or not defenders:
        return new, (Event("melee", "deferred melee lapses: one side has gone", RULE_SEQUENCE),)
    return _fight(new, chargers, defenders, melee.facts, False, dice)


def _end_turn(state: State, action: EndTurn,
              dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, DEFERRED)
    if state.extra.deferred:
        raise _illegal(action, "deferred melees are resolved before the next turn",
                       RULE_SEQUENCE)
    units = tuple(attrs.evolve(u, recovered_from_rout=False) for u in state.units
                  if u.recovered_from_rout)
    new = state.with_units(*units) if units else state
    extra = Extra(options=state.extra.options)
    return attrs.evolve(new, extra=extra, phase=ACTIVITY, turn=state.turn + 1), (
        Event("turn", f"turn {state.turn + 1} begins", RULE_SEQUENCE),)


def _end_battle(state: State, action: EndBattle,
                dice: SamplingDice) -> tuple[State, tuple[Event, ...]]:
    _need_phase(state, action, DEFERRED)
    if state.extra.deferred:
        raise _illegal(action, "deferred melees are resolved first", RULE_SEQUENCE)
    events = [Event("battle", f"the battle ends after turn {state.turn}", RULE_SEQUENCE)]
    after: list[Commander] = []
    for leader in state.commanders:
        if not leader.removed:
            continue
        mark = len(dice.records)
        fate = commanders.commander_fate(leader, dice=dice)
        after.append(commanders.after_fate(leader, fate))
        events.append(_event("fate", f"{leader.name}: {fate}", commanders.RULE_FATE, leader.id,
                             dice, mark))
    new = state.with_commanders(*after) if after else state
    return attrs.evolve(new, phase=ENDED), tuple(events)


_HANDLERS: MappingProxyType[type, Callable[[State, object, SamplingDice],
                               tuple[State, tuple[Event, ...]]]] = MappingProxyType({
    DetermineActivity: _determine_activity,  # type: ignore[dict-item]
    DrawCard: _draw,  # type: ignore[dict-item]
    Activate: _activate,  # type: ignore[dict-item]
    RoutTest: _rout_test,  # type: ignore[dict-item]
    Move: _move,  # type: ignore[dict-item]
    Manoeuvre: _manoeuvre,  # type: ignore[dict-item]
    Shoot: _shoot,  # type: ignore[dict-item]
    Charge: _charge,  # type: ignore[dict-item]
    Rally: _rally,  # type: ignore[dict-item]
    SpendCommandPoint: _spend_cp,  # type: ignore[dict-item]
    EndActivation: _end_activation,  # type: ignore[dict-item]
    ResolveDeferred: _resolve_deferred,  # type: ignore[dict-item]
    EndTurn: _end_turn,  # type: ignore[dict-item]
    EndBattle: _end_battle,  # type: ignore[dict-item]
})


# --- legal actions -------------------------------------------------------------------------
def _activation_actions(state: State) -> list[Action]:
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
            c for c in living
            if state.commander(c).side == unit.side
            and (state.commander(c).brigade == unit.brigade
                 or (_activity(state, c) or ActivityEntry(c, 0, 0)).command_points > 0)
        ]
        if _leaderless(state, unit) and sequence.activates_leaderless(card, unit.side):
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
                if facts is None or (unit.is_artillery
                                     and unit.formation is not Formation.UNLIMBERED):
                    continue
                fire = shooting.chosen_fire(unit, facts)
                if shooting.shooting_cost(fire, 0) <= entry.actions:
                    actions.append(Shoot(unit.id, enemy.id, facts))
        if entry.actions >= act.ActionKind.CHARGE.cost and not unit.is_artillery:
            actions.extend(Charge((unit.id,), (enemy.id,)) for enemy in enemies)
        actions.append(Manoeuvre(unit.id, act.ActionKind.ABOUT_FACE))
        if unit.is_artillery:
            actions.append(Manoeuvre(unit.id, act.ActionKind.LIMBER))
        else:
            other = (Formation.COLUMN if unit.formation is Formation.DEPLOYED
                     else Formation.DEPLOYED)
            actions.append(Manoeuvre(unit.id, act.ActionKind.CHANGE_FORMATION, other))
    for commander_id in living:
        entry_a = _activity(state, commander_id)
        if entry_a is not None and entry_a.command_points > 0:
            actions.append(SpendCommandPoint(commander_id, command.CommandPointUse.MOVE_COMMANDER))
            actions.extend(
                SpendCommandPoint(commander_id, command.CommandPointUse.EXTRA_ACTION, e.unit_id)
                for e in extra.activated if e.commander_id == commander_id
            )
    actions.append(EndActivation())
    return actions


def _default_shot(unit: Unit) -> shooting.ShotFacts | None:
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


@attrs.frozen
class BloodybacksTurn:
    """The Bloodybacks turn as a value: phases, legal actions and the step."""

    phases: tuple[Phase, ...] = PHASES

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return legal_actions(state)

    def step(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        return step(state, action)


TURN = BloodybacksTurn()

