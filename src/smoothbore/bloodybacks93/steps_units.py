"""The steps of a unit and its commander while a card is in play: activation, the routing
unit's test, moves, manoeuvres, shooting, rally and command points. For each action, the
candidates worth offering, the roll-free check naming the rule that forbids it, and the
handler that applies it (Bloodybacks 9.3, Activating Units; Morale; Movement; Shooting; Rally;
Command point tariff)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs

from smoothbore.core import IllegalActionError, InvalidValueError, Log, revised
from smoothbore.core.state import evolved
from smoothbore.table import CommanderMark, ShotTrace, Table

from . import activation as act
from . import command, deck, movement, shooting, situations
from .actions import Activate, Manoeuvre, Move, Rally, RoutTest, Shoot, SpendCommandPoint
from .answers import per_layout
from .morale import TestKind, apply_result, take_test
from .reports import Facts, Retreat, retire_after_test, risk, test_facts
from .rules import (
    RULE_ACTIVATING,
    RULE_ACTIVATION,
    RULE_ARTILLERY,
    RULE_CP_TARIFF,
    RULE_DENSITY,
    RULE_INTERPENETRATION,
    RULE_MOVEMENT,
    RULE_PASSAGE,
    RULE_RADIUS,
    RULE_RALLY,
    RULE_RESULTS,
    RULE_RISK,
    RULE_ROUTING,
    RULE_SEQUENCE,
    RULE_SHOOTING,
    RULE_SPLIT,
    RULE_TARIFF,
    RULE_VISIBILITY,
)
from .state import (
    Activated,
    Extra,
    State,
    activated_entry,
    activity_of,
    leader_attached,
    leaderless,
    unit_places,
    with_activated,
    with_activity,
    with_table,
    with_units,
)
from .units import MAX_DENSITY, MIN_DENSITY, Commander, Formation, Unit, Weapon, remove_disruption

MANOEUVRES = (act.ActionKind.ABOUT_FACE, act.ActionKind.CHANGE_FORMATION, act.ActionKind.LIMBER)
FORMATIONS = (Formation.DEPLOYED, Formation.COLUMN)


# --- shared by the steps of activated units -------------------------------------------
def activated_unit(state: State, action: object, unit_id: str, cost: int
                   ) -> tuple[Unit, Activated]:
    """The unit, activated by the current card, still in the fight, with ``cost`` actions
    left; or IllegalActionError naming the rule (Activating Units; Action tariff). (That the
    unit acting is of the card's side and stands, and that the battle goes on, are the
    engine's guards: ``Engine.actor``, ``Engine.decided``; a charge's other chargers are
    checked standing here.)"""
    entry = activated_entry(state, unit_id)
    unit = state.unit(unit_id)
    if entry is None:
        raise IllegalActionError(
            action, f"{unit.name} has not been activated by the current card", RULE_ACTIVATION
        )
    if unit.destroyed:
        raise IllegalActionError(action, f"{unit.name} has been destroyed", RULE_RESULTS)
    if unit.routing:
        raise IllegalActionError(
            action, f"{unit.name} is routing: it takes no action", RULE_ROUTING
        )
    if entry.actions < cost:
        raise IllegalActionError(
            action, f"{unit.name} has {entry.actions} actions left, needs {cost}", RULE_TARIFF
        )
    return unit, entry


def spend(state: State, unit_id: str, cost: int, *, shooting_now: bool = False) -> Extra:
    """The extra state after a checked unit spends ``cost`` of its actions (Action tariff);
    a unit shoots once a turn (Shooting)."""
    entry = activated_entry(state, unit_id)
    assert entry is not None  # checked by activated_unit
    return with_activated(
        state.extra,
        evolved(entry, {"actions": entry.actions - cost, "shot": entry.shot or shooting_now}),
    )


def _rewrap(action: object, error: IllegalActionError) -> IllegalActionError:
    return IllegalActionError(action, error.why, error.rule)


def _actors(state: State) -> Iterator[tuple[Unit, Activated]]:
    """The units activated by the current card that are still in the fight."""
    for entry in state.extra.activated:
        unit = state.unit(entry.unit_id)
        if entry.actions > 0 and not unit.gone:
            yield unit, entry


# --- taking up a unit: activation and the routing unit's test -------------------------
def _check_taking_up(
    state: State,
    action: Activate | RoutTest,
    unit: Unit,
    commander_id: str | None,
    outside_radius: bool,
) -> Commander | None:
    """The commander taking up the unit now (None: a leaderless unit on its side's ace); the
    card, the commander, the unit's one attempt a turn and the command point for a unit of
    another brigade decide it (Activating Units; Activating Commanders; Command point
    tariff)."""
    card = state.extra.card
    if card is None:
        raise IllegalActionError(action, "no card drawn", RULE_SEQUENCE)
    if unit.id in state.extra.attempted:
        raise IllegalActionError(
            action, f"{unit.name} already tried to activate this turn", RULE_ACTIVATION
        )
    if commander_id is None:
        if not (leaderless(state, unit) and deck.activates_leaderless(card, unit.side)):
            raise IllegalActionError(
                action,
                "only units whose commander is dead act without one, on their side's ace",
                RULE_ACTIVATION,
            )
        return None
    leader = state.commander(commander_id)
    if leader.removed:
        raise IllegalActionError(
            action, f"{leader.name} has been removed from the battle", RULE_RISK
        )
    if commander_id not in state.extra.active:
        raise IllegalActionError(
            action, f"{leader.name} is not activated by the {card}", RULE_ACTIVATING
        )
    if leader.side != unit.side:
        raise IllegalActionError(
            action, "a commander activates only his own side's units", RULE_ACTIVATING
        )
    if leader.brigade != unit.brigade:
        entry = activity_of(state, leader.id)
        if entry is None or entry.command_points < 1 or outside_radius:
            raise IllegalActionError(
                action,
                f"{leader.name} must spend a command point, within his radius, to take up "
                f"{unit.name} of another brigade",
                RULE_CP_TARIFF,
            )
    return leader


def _measured_radius(state: State, action: Activate | RoutTest) -> tuple[bool, bool]:
    """Whether the unit is outside its commander's radius and whether it stands in woods:
    as the action says, or on a table as measured there (an action that says either is
    refused) (Command Radius; Quality)."""
    if state.extra.table is None:
        return action.outside_radius, action.in_woods
    if action.outside_radius or action.in_woods:
        raise IllegalActionError(
            action, "the table measures this: leave outside_radius and in_woods at their "
            "defaults", RULE_RADIUS)
    return (situations.outside_radius(state, action.commander_id, action.unit_id),
            situations.stands_in_woods(state, action.unit_id))


def _outside_for_check(state: State, action: Activate | RoutTest, unit: Unit) -> bool:
    """Whether the unit is outside its commander's radius, as far as the check needs it:
    as the action says, or on a table measured there for a commander of another brigade
    (the only one it matters for); an action that says either is refused on a table
    (``_measured_radius``; Command point tariff)."""
    if state.extra.table is None:
        return action.outside_radius
    if action.outside_radius or action.in_woods:
        raise IllegalActionError(
            action, "the table measures this: leave outside_radius and in_woods at their "
            "defaults", RULE_RADIUS)
    leader = action.commander_id
    if leader is None or state.commander(leader).brigade == unit.brigade:
        return False
    return situations.outside_radius(state, leader, unit.id)


def _pay_for_other_brigade(state: State, unit: Unit, leader: Commander | None) -> Extra:
    """The extra state after the commander pays the command point for a unit not of his own
    brigade, the CinC included (Command point tariff; B44, B46)."""
    if leader is None or leader.brigade == unit.brigade:
        return state.extra
    entry = activity_of(state, leader.id)
    assert entry is not None  # checked
    return with_activity(
        state.extra, evolved(entry, {"command_points": entry.command_points - 1})
    )


def _leaders(state: State, unit: Unit) -> Iterator[str | None]:
    """Who may take up a unit on this card: its side's active commanders (of its brigade, or
    of another with a command point left and, on a table, the unit perhaps within his radius:
    ``situations.may_take_up``, the check measuring it), or nobody on its side's ace when
    leaderless."""
    card = state.extra.card
    assert card is not None
    for commander_id, side, brigade, near in state.derived(_takers):
        if side != unit.side:
            continue
        if brigade == unit.brigade or near is None or unit.id in near:
            yield commander_id
    if deck.activates_leaderless(card, unit.side) and leaderless(state, unit):
        yield None


_ANY = frozenset[str]()


def _takers(state: State) -> tuple[tuple[str, str, str, frozenset[str] | None], ...]:
    """The commanders the card activated who may take up units, in the card's order: each
    with his side, his brigade and the units of other brigades he may take up (for a point:
    None, any unit of his side; none, without a point left; on a table only those perhaps
    within his radius, and any off it) (``_leaders``). Worked out once per state."""
    found = []
    table = state.extra.table
    off = () if table is None else tuple(u for u in state.units if u.id not in table.units)
    for commander_id in state.extra.active:
        leader = state.commander(commander_id)
        if leader.removed:
            continue
        entry = activity_of(state, commander_id)
        near: frozenset[str] | None = _ANY
        if entry is not None and entry.command_points > 0:
            near = situations.may_take_up(state, commander_id)
            if near is not None and off:
                near |= frozenset(u.id for u in off if u.side == leader.side)
        found.append((commander_id, leader.side, leader.brigade, near))
    return tuple(found)


def _waiting(state: State) -> Iterator[Unit]:
    """The card's side's units that have not tried to activate this turn."""
    card = state.extra.card
    if card is None:
        return
    attempted = state.extra.attempted
    for unit in state.units:
        if unit.side == card.side and not unit.destroyed and unit.id not in attempted:
            yield unit


def candidates_activate(state: State) -> Iterator[Activate]:
    """Every unit of the card's side that may still try to activate, under every commander
    who may take it up (in his radius, out of woods: the plain facts; on a table the check
    measures the radius)."""
    for unit in _waiting(state):
        if not unit.routing and unit.id not in state.extra.recovered:
            for leader in _leaders(state, unit):
                yield Activate(unit.id, leader)


def check_activate(state: State, action: Activate) -> None:
    """A unit activates under a commander the card activated, once a turn; routing units test
    instead, and units that recovered from rout this turn may not (Activating Units)."""
    unit = state.unit(action.unit_id)
    outside = _outside_for_check(state, action, unit)
    _check_taking_up(state, action, unit, action.commander_id, outside)
    if unit.routing:
        raise IllegalActionError(
            action, f"{unit.name} is routing: it takes a morale test instead", RULE_ROUTING
        )
    if unit.id in state.extra.recovered:
        raise IllegalActionError(
            action, f"{unit.name} recovered from rout this turn: it may not activate",
            RULE_ACTIVATION,
        )


def apply_activate(state: State, action: Activate, log: Log) -> State:
    """Roll the unit's activation hand; a hand with no success forces a morale test, whose
    rout or push back moves the unit (Activating Units; Morale)."""
    unit = state.unit(action.unit_id)
    leader = None if action.commander_id is None else state.commander(action.commander_id)
    extra = _pay_for_other_brigade(state, unit, leader)
    outside, in_woods = _measured_radius(state, action)
    result = act.activate(
        unit,
        leader,
        dice=log.dice,
        outside_radius=outside,
        other_brigade=leader is not None and leader.brigade != unit.brigade,
        long_turn=deck.long_turn(extra.minutes),
        in_woods=in_woods,
        commander_attached=leader_attached(state, unit),
        options=state.options,
    )
    by = f" under {leader.name}" if leader is not None else " without a commander"
    reported: Facts = {"test": "activation", "dice": result.dice, "need": result.need,
                    "successes": result.successes, "actions": result.actions,
                    "result": "activated" if result.actions else "failed"}
    if result.morale is not None:
        reported |= test_facts(result.morale, "morale_")
    log.add("activation", f"{unit.name}{by}: {result}", RULE_ACTIVATION, unit.id,
            facts=reported)
    extra = evolved(extra, {"attempted": extra.attempted | {unit.id}})
    if result.actions:
        extra = with_activated(
            extra, Activated(unit.id, leader.id if leader else "", result.actions)
        )
    new = state.replace(extra=extra)
    if result.morale is None:
        return new
    after = apply_result(unit, result.morale.result)
    moves = retire_after_test(log, after, result.morale.result)
    return situations.retreat(with_units(new, after), moves, log=log)


def candidates_rout_test(state: State) -> Iterator[RoutTest]:
    """Every routing unit of the card's side due its test, under every commander who may
    take it up (on a table the check measures the radius)."""
    for unit in _waiting(state):
        if unit.routing and unit.id not in state.extra.routed:
            for leader in _leaders(state, unit):
                yield RoutTest(unit.id, leader)


def check_rout_test(state: State, action: RoutTest) -> None:
    """A routing unit takes a morale test instead of its activation roll, in the turns after
    it routed; under a commander of another brigade it costs him a command point (Morale;
    Command point tariff; B28, B46)."""
    unit = state.unit(action.unit_id)
    outside = _outside_for_check(state, action, unit)
    _check_taking_up(state, action, unit, action.commander_id, outside)
    if not unit.routing:
        raise IllegalActionError(action, f"{unit.name} is not routing", RULE_ROUTING)
    if unit.id in state.extra.routed:
        raise IllegalActionError(
            action,
            f"{unit.name} routed this turn: it re-tests in subsequent turns",
            RULE_ROUTING,
        )


def apply_rout_test(state: State, action: RoutTest, log: Log) -> State:
    """The routing unit's morale test: carry on or pushed back stops the rout (it may not act
    this turn); rout again moves it on; no success destroys it (Morale)."""
    unit = state.unit(action.unit_id)
    leader = None if action.commander_id is None else state.commander(action.commander_id)
    paid = _pay_for_other_brigade(state, unit, leader)
    _, in_woods = _measured_radius(state, action)
    test = take_test(
        unit,
        TestKind.MORALE,
        dice=log.dice,
        commander_attached=leader_attached(state, unit),
        in_woods=in_woods,
        reason=f"{unit.name} is routing",
    )
    after = apply_result(unit, test.result)
    if after.routing:
        verdict = "keeps routing"
    elif after.destroyed:
        verdict = "is lost"
    else:
        verdict = "stops routing (it may not act this turn)"
    log.add("rout", f"{unit.name}: {test}: {verdict}", RULE_ROUTING, unit.id,
            facts={**test_facts(test), "routing": after.routing, "lost": after.destroyed})
    moves = retire_after_test(log, after, test.result)
    new = state.replace(extra=evolved(paid, {"attempted": paid.attempted | {unit.id}}))
    return situations.retreat(with_units(new, after), moves, log=log)


# --- moves and manoeuvres ----------------------------------------------------------------
def _may_move_backwards(unit: Unit) -> bool:
    return not (unit.is_cavalry or unit.formation is Formation.LIMBERED)


def candidates_move(state: State) -> Iterator[Move]:
    """A move forward or (where allowed) backwards, for each unit with an action left, in the
    open, alone or through each friendly unit on the table (the path is the player's). On a
    table: the destinations proposed to the unit (``situations.proposed``; the check says
    which it can reach), each alone and through the one friend in its way, if any."""
    table = state.extra.table
    for unit, _ in _actors(state):
        if table is not None:
            yield from _proposed_moves(state, table, unit)
            continue
        facts = (movement.MoveFacts(), movement.MoveFacts(retrograde=True))
        for fact in facts if _may_move_backwards(unit) else facts[:1]:
            yield Move(unit.id, fact)
            for friend in state.units:
                if friend.side == unit.side and friend.id != unit.id and not friend.destroyed:
                    yield Move(unit.id, fact, friend.id)


def _proposed_moves(state: State, table: Table, unit: Unit) -> tuple[Move, ...]:
    """The moves to the destinations proposed to the unit (``situations.proposed``) from
    where it stands, made once per layout: each alone, and through the friend in its way
    when there is just one (Interpenetration; Passage of lines: the check says whether the
    two may pass)."""
    def work() -> tuple[Move, ...]:
        at = situations.standing(table, unit.id)
        moves = []
        for to in situations.proposed(state, unit.id):
            moves.append(Move(unit.id, _PLAIN_MOVE, None, to, at))
            friends = situations.friends_in_way(state, unit.id, to)
            if len(friends) == 1:
                moves.append(Move(unit.id, _PLAIN_MOVE, friends[0], to, at))
        return tuple(moves)

    return per_layout(table, "moves", situations.mover(unit), work)


def _move_facts(state: State, action: Move) -> tuple[movement.MoveFacts,
                                                     situations.MovePlan | None]:
    """The facts of a move: as given, or on a table those of the route to its destination,
    every geometric rule checked (B54, B55)."""
    if state.extra.table is None:
        if action.to is not None or action.at is not None:
            raise IllegalActionError(
                action, "the battle has no table: a move gives its facts, not a destination",
                RULE_MOVEMENT)
        return action.facts, None
    if action.facts != _PLAIN_MOVE:
        raise IllegalActionError(
            action, "the table measures this: leave the move's facts at their defaults",
            RULE_MOVEMENT)
    if action.to is None:
        raise IllegalActionError(
            action, "on a table a move names its destination (to=(x, y, facing))",
            RULE_MOVEMENT)
    if action.at is not None and not situations.stands_at(
            state.extra.table, action.unit_id, action.at):
        raise IllegalActionError(
            action, f"{action.unit_id} does not stand at {action.at}: it stands at "
            f"{situations.standing(state.extra.table, action.unit_id)}", RULE_MOVEMENT)
    plan = situations.planned(state, action.unit_id, action.to, action.through, action)
    if action.at is not None and action.through is None and (
            action.to not in situations.proposed(state, action.unit_id)):
        raise IllegalActionError(
            action, f"{action.to} is not one of the moves offered from {action.at}: give a "
            "destination of your own without ``at``", RULE_MOVEMENT)
    return plan.facts, plan


_PLAIN_MOVE = movement.MoveFacts()


MoveRuling = tuple[movement.MoveFacts, "situations.MovePlan | None"]
"""What a move's check measured, for its handler: the move's facts and, on a table, its
plan (route, end, ground)."""


def check_move(state: State, action: Move) -> MoveRuling:
    """One move action: the terrain, obstacles and direction allowed to the unit; through a
    friend only by interpenetration or a passage of lines (Movement; Retrograde movement;
    Interpenetration; Passage of lines). The ruling: the facts and plan measured."""
    unit, _ = activated_unit(state, action, action.unit_id, act.ActionKind.MOVE.cost)
    facts, plan = _move_facts(state, action)
    try:
        movement.check_move(unit, facts)
    except IllegalActionError as error:
        raise _rewrap(action, error) from None
    if action.through is None:
        return facts, plan
    other = state.unit(action.through)
    if other.side != unit.side or other.id == unit.id or other.destroyed:
        raise IllegalActionError(
            action, "units pass only through other friendly units on the table",
            RULE_INTERPENETRATION,
        )
    if movement.is_passage_of_lines(unit, other):
        if not movement.passage_allowed(unit, other):
            raise IllegalActionError(
                action,
                f"{unit.name} may pass through {other.name} only by a passage of lines, "
                "which needs both of quality 3 or more",
                RULE_PASSAGE,
            )
    elif not movement.may_interpenetrate(unit, other):
        raise IllegalActionError(
            action,
            f"{unit.name} may neither interpenetrate nor pass through {other.name}",
            RULE_INTERPENETRATION,
        )
    return facts, plan


def apply_move(state: State, action: Move, log: Log, ruling: MoveRuling) -> State:
    """The move action; a retrograde move at 3 DRPs tests morale first; then the passage of
    lines roll when formed infantry passes through formed infantry or guns, a 1 stopping the
    mover at contact on a table (Movement; Passage of lines)."""
    unit = state.unit(action.unit_id)
    new = state.replace(extra=spend(state, unit.id, act.ActionKind.MOVE.cost))
    facts, plan = ruling
    result = movement.move(
        unit, facts, dice=log.dice, commander_attached=leader_attached(state, unit)
    )
    through = state.unit(action.through) if action.through is not None else None
    text = f"{unit.name} {result}"
    if facts.retrograde:
        text = text.replace(" moves ", " moves back ", 1)
    if plan is not None:
        new, where = situations.place_move(
            new, plan, result.distances, unit.is_cavalry and unit.formation is not Formation.COLUMN
        )
        text += f"; {where}"
    if through is not None and movement.may_interpenetrate(unit, through):
        text += f", through {through.name}"
    log.add("move", text, RULE_MOVEMENT, unit.id)
    new = with_units(new, result.unit)
    if result.morale is not None:
        new = situations.retreat(
            new, retire_after_test(log, result.unit, result.morale.result), log=log)
    if through is None or not movement.is_passage_of_lines(unit, through):
        return new
    if result.unit.gone:
        return new
    passage = movement.passage_of_lines(
        result.unit,
        through,
        dice=log.dice,
        mover_commander_attached=leader_attached(state, unit),
        static_commander_attached=leader_attached(state, through),
    )
    text = f"{unit.name} through {through.name}: {passage}"
    if passage.result is movement.PassageResult.BLOCKED and plan is not None:
        new, stop = situations.blocked_passage(state, new, plan)
        text += f"; it stops at ({stop.x:.1f}, {stop.y:.1f})"
    reported: Facts = {"test": "passage", "roll": passage.roll,
                       "result": passage.result.name.lower().replace("_", " ")}
    for who, taken in zip(("mover_", "static_"), passage.tests_by_unit, strict=True):
        if taken is not None:
            reported |= test_facts(taken, who)
    log.add("passage", text, RULE_PASSAGE, unit.id, facts=reported)
    moved = (passage.mover, passage.static)
    moves: tuple[Retreat, ...] = ()
    for after, test in zip(moved, passage.tests_by_unit, strict=True):
        if test is not None:
            moves += retire_after_test(log, after, test.result)
    return situations.retreat(with_units(new, *moved), moves, log=log)


def candidates_manoeuvre(state: State) -> Iterator[Manoeuvre]:
    """About face; limber or unlimber guns; change to the other formation, or to any other
    density by closing up or separating the bases."""
    for unit, _ in _actors(state):
        yield from manoeuvres(unit.id, unit.is_artillery, unit.formation, unit.density,
                              unit.based_density)


@functools.lru_cache(maxsize=1024)
def manoeuvres(unit_id: str, artillery: bool, formation: Formation, density: int,
               based_density: int) -> tuple[Manoeuvre, ...]:
    """The manoeuvres of a unit (``candidates_manoeuvre``), by what decides them: made once
    for each."""
    found = [Manoeuvre(unit_id, act.ActionKind.ABOUT_FACE)]
    if artillery:
        return (*found, Manoeuvre(unit_id, act.ActionKind.LIMBER))
    for other in FORMATIONS:
        if other is not formation:
            found.append(Manoeuvre(unit_id, act.ActionKind.CHANGE_FORMATION, other))
    for value in range(MIN_DENSITY, based_density + 1):
        if value != density:
            found.append(Manoeuvre(unit_id, act.ActionKind.CHANGE_FORMATION, density=value))
    return tuple(found)


def check_manoeuvre(state: State, action: Manoeuvre) -> None:
    """About face, change formation (one change: a formation or a density) or limber and
    unlimber: one action each (Action tariff; Density; B42). On a table the unit in its new
    formation must stay on the table and off other units (B51)."""
    unit, _ = activated_unit(state, action, action.unit_id, action.kind.cost)
    _check_manoeuvre(action, unit)
    table = state.extra.table
    if table is not None:
        formation, density = _formed(unit, action)
        why = situations.refit_blocked_as(table, unit, formation, density)
        if why:
            raise IllegalActionError(action, why, RULE_TARIFF)


def _check_manoeuvre(action: Manoeuvre, unit: Unit) -> None:
    if action.kind not in MANOEUVRES:
        raise IllegalActionError(action, f"{action.kind} is not a manoeuvre", RULE_TARIFF)
    if action.kind is not act.ActionKind.CHANGE_FORMATION:
        if action.formation is not None or action.density is not None:
            raise InvalidValueError(
                "Manoeuvre", (action.formation, action.density),
                f"no formation or density for {action.kind}",
            )
        if action.kind is act.ActionKind.LIMBER and not unit.is_artillery:
            raise IllegalActionError(action, "only artillery limbers", RULE_TARIFF)
        return
    if unit.is_artillery:
        raise IllegalActionError(
            action, "artillery changes formation by limbering or unlimbering", RULE_TARIFF
        )
    if (action.formation is None) == (action.density is None):
        raise IllegalActionError(
            action, "a change of formation sets a formation or a density, one at a time",
            RULE_TARIFF,
        )
    if action.formation is not None:
        if action.formation not in FORMATIONS:
            raise InvalidValueError("formation", action.formation, "deployed or column")
        if action.formation is unit.formation:
            raise IllegalActionError(
                action, f"{unit.name} is already {unit.formation}", RULE_TARIFF
            )
        return
    assert action.density is not None
    if not MIN_DENSITY <= action.density <= MAX_DENSITY:
        raise InvalidValueError("density", action.density, f"{MIN_DENSITY}..{MAX_DENSITY}")
    if action.density > unit.based_density:
        raise IllegalActionError(
            action,
            f"{unit.name} is based at density {unit.based_density}: separating the bases "
            "lowers the density, closing them up returns it no higher",
            RULE_DENSITY,
        )
    if action.density == unit.density:
        raise IllegalActionError(
            action, f"{unit.name} already has density {unit.density}", RULE_DENSITY
        )


def _formed(unit: Unit, action: Manoeuvre) -> tuple[Formation, int]:
    """The formation and density the unit takes by a checked manoeuvre."""
    if action.kind is act.ActionKind.LIMBER:
        flip = Formation.UNLIMBERED if unit.formation is Formation.LIMBERED else Formation.LIMBERED
        return flip, unit.density
    if action.kind is act.ActionKind.CHANGE_FORMATION and action.formation is not None:
        return action.formation, unit.density
    if action.kind is act.ActionKind.CHANGE_FORMATION and action.density is not None:
        return unit.formation, action.density
    return unit.formation, unit.density


def _manoeuvred(unit: Unit, action: Manoeuvre) -> tuple[Unit, str]:
    """The unit after a checked manoeuvre, and the words for it."""
    if action.kind is act.ActionKind.LIMBER:
        flip, _ = _formed(unit, action)
        after = revised(unit, formation=flip)
        text = f"{unit.name}: {'unlimbered' if flip is Formation.UNLIMBERED else 'limbered up'}"
    elif action.kind is act.ActionKind.CHANGE_FORMATION and action.formation is not None:
        after = revised(unit, formation=action.formation)
        text = f"{unit.name}: formed {'column' if after.formation is Formation.COLUMN else 'line'}"
    elif action.kind is act.ActionKind.CHANGE_FORMATION and action.density is not None:
        after = attrs.evolve(unit, density=action.density)
        how = "bases separated" if after.density < unit.density else "bases closed up"
        text = f"{unit.name}: {how} to density {after.density}"
    else:
        after = unit
        text = f"{unit.name}: about face"
    return after, text


def apply_manoeuvre(state: State, action: Manoeuvre, log: Log) -> State:
    """The manoeuvre, for one action (on a table an about face turns the footprint; a new
    formation refits it, ``state.synced``)."""
    unit = state.unit(action.unit_id)
    after, text = _manoeuvred(unit, action)
    new = state.replace(extra=spend(state, unit.id, action.kind.cost))
    table = state.extra.table
    if table is not None and action.kind is act.ActionKind.ABOUT_FACE:
        new = with_table(new, table.placed(table.footprint(unit.id).turned(180.0)))
    log.add("manoeuvre", text, RULE_TARIFF, unit.id)
    return new.with_units(after)


# --- shooting and rally -------------------------------------------------------------------
def _default_range(unit: Unit) -> float | None:
    """The middle of the unit's first range band: a range at which it can shoot."""
    for _, low, high in shooting.bands(unit):
        return (low + high) / 2
    return None


def _can_shoot(unit: Unit) -> bool:
    if unit.is_artillery:
        return unit.formation is Formation.UNLIMBERED
    return unit.weapon is not Weapon.NONE


def candidates_shoot(state: State) -> Iterator[Shoot]:
    """For each activated unit that has not shot, at each enemy on the table, at the middle
    of its first range band: the best line and every other line in range, with every number
    of extra orders it can afford. On a table: at each enemy that may be in range
    (``situations.enemies_near``), the best line and every line of its weapon by name, with
    every number of extra orders it may afford, with no measured facts in the action (the
    check measures arc, sight and range)."""
    table = state.extra.table
    for unit, entry in _actors(state):
        if entry.shot or not _can_shoot(unit):
            continue
        if table is not None:
            lines = tuple(dict.fromkeys(fire for fire, _, _ in shooting.bands(unit)))
            if not lines:
                continue
            for enemy_id in situations.enemies_near(table, unit.id, _longest_range(unit)):
                yield from _proposed_shots(unit.id, enemy_id, entry.actions, lines)
            continue
        distance = _default_range(unit)
        if distance is None:
            continue
        for enemy in state.units:
            if enemy.side == unit.side or enemy.destroyed:
                continue
            facts = shooting.ShotFacts(range=distance)
            fires = shooting.fire_options(unit, distance)
            yield from _shots_at(unit, enemy, entry, fires, facts)


@functools.lru_cache(maxsize=4096)
def _proposed_shots(unit_id: str, enemy_id: str, actions: int,
                    lines: tuple[shooting.Fire, ...]) -> tuple[Shoot, ...]:
    """The shots offered on a table at one enemy: the best line in range (left to the rules)
    and each line by name, with as many extra orders as ``actions`` may pay for (for the
    best line, at the cheapest line's tariff); made once for each."""
    cheapest = min(shooting.TARIFF[line].cost for line in lines)
    found = []
    for fire in (None, *lines):
        cost = cheapest if fire is None else shooting.TARIFF[fire].cost
        for orders in range(actions // cost):
            found.append(Shoot(unit_id, enemy_id,
                               shooting.ShotFacts(fire=fire, extra_orders=orders)))
    return tuple(found)


def _shots_at(unit: Unit, enemy: Unit, entry: Activated, fires: tuple[shooting.Fire, ...],
              facts: shooting.ShotFacts) -> Iterator[Shoot]:
    """The shots at one enemy with these lines of the table in range (without a table): the
    best line (left to the rules) and every other, with every number of extra orders the
    unit can afford."""
    if not fires:
        return
    best = max(fires, key=lambda f: (shooting.FIREPOWER[f], -shooting.TARIFF[f].cost))
    for fire in [None, *(f for f in fires if f is not best)]:
        line = best if fire is None else fire
        orders = 0
        while shooting.shooting_cost(line, orders) <= entry.actions:
            yield Shoot(unit.id, enemy.id, attrs.evolve(facts, fire=fire, extra_orders=orders))
            orders += 1


def _shots(state: State, action: Shoot) -> list[tuple[str, shooting.ShotFacts]]:
    """The targets of a shot with their facts: as given, or on a table as measured there
    (an action that carries measured facts is refused; the target must be in the firer's
    arc and sight) (Shooting; Visibility; B52)."""
    shots = [(action.target_id, action.facts)]
    if action.split_target_id is not None and action.split_facts is not None:
        shots.append((action.split_target_id, action.split_facts))
    table = state.extra.table
    if table is None:
        return shots
    measured = []
    for target_id, facts in shots:
        if situations.carries_measures(facts):
            raise IllegalActionError(
                action, "the table measures this: leave range, cover, woods, enfilade, slope "
                "and sight at their defaults", RULE_VISIBILITY)
        if target_id not in table.units or target_id not in table.enemies_of(action.unit_id):
            raise IllegalActionError(
                action, "shoot only at an enemy unit on the table", RULE_SHOOTING)
        most = _longest_range(state.unit(action.unit_id))
        why = situations.out_of_shot(table, action.unit_id, target_id, most)
        if why:
            raise IllegalActionError(action, why, RULE_VISIBILITY)
        # every enemy the firer may reach at once: a call to the table costs about 2 M
        # instructions whatever its pairs, and the next shot checked asks the same layout
        near = situations.enemies_near(table, action.unit_id, most)
        asked = near if target_id in near else (target_id,)
        seen = situations.seen_of(table, action.unit_id, asked)[target_id]
        situations.check_sight(seen, action)
        measured.append((target_id, situations.shot_on_table(table, action.unit_id,
                                                             target_id, facts, seen)))
    return measured


def _longest_range(unit: Unit) -> int:
    """The longest range of any line of the unit's weapon (0: it has none)."""
    return max((high for _, _, high in shooting.bands(unit)), default=0)


Shots = tuple[tuple[str, shooting.ShotFacts], ...]
"""What a shot's check measured, for its handler: each target with the facts of the shot at
it (on a table, as measured there)."""


def check_shoot(state: State, action: Shoot) -> Shots:
    """Shooting once a turn, at enemies on the table, with a line of the weapon's table in
    range and in sight, split between two targets only by dividing the unit's size, paying
    the tariff (Shooting; Visibility; Action tariff). The ruling: the shots measured."""
    shooter, entry = activated_unit(state, action, action.unit_id, 1)
    if entry.shot:
        raise IllegalActionError(
            action, f"{shooter.name} has already shot this turn", RULE_SHOOTING
        )
    if shooter.is_artillery and shooter.formation is not Formation.UNLIMBERED:
        raise IllegalActionError(action, "artillery shoots unlimbered", RULE_ARTILLERY)
    if not _can_shoot(shooter):
        raise IllegalActionError(
            action, f"{shooter.name} has no missile weapon", RULE_SHOOTING
        )
    full = shooting.shooting_size(shooter, state.options)
    if action.split_target_id is not None or action.split_facts is not None:
        if action.split_target_id is None or action.split_facts is None:
            raise IllegalActionError(
                action, "split fire names a second target and its facts", RULE_SPLIT
            )
        sizes = (action.facts.size, action.split_facts.size)
        if None in sizes or sum(s or 0 for s in sizes) > full:
            raise IllegalActionError(
                action, f"split fire divides the unit's size ({full}) between the targets",
                RULE_SPLIT,
            )
    cost = 0
    shots = tuple(_shots(state, action))
    for target_id, facts in shots:
        target = state.unit(target_id)
        if shooter.side == target.side or target.destroyed:
            raise IllegalActionError(
                action, "shoot only at an enemy unit on the table", RULE_SHOOTING
            )
        if facts.size is not None and facts.size > full:
            raise IllegalActionError(
                action, f"{shooter.name} shoots with at most its size {full}", RULE_SPLIT
            )
        if not facts.line_of_sight:
            raise IllegalActionError(
                action, "buildings, hills or other obstacles block the line of sight",
                RULE_VISIBILITY,
            )
        try:
            fire = shooting.chosen_fire(shooter, facts)
        except IllegalActionError as error:
            raise _rewrap(action, error) from None
        cost = max(cost, shooting.shooting_cost(fire, facts.extra_orders))
    if cost > entry.actions:
        raise IllegalActionError(
            action, f"{shooter.name} has {entry.actions} actions left, needs {cost}",
            RULE_TARIFF,
        )
    return shots


def apply_shoot(state: State, action: Shoot, log: Log, shots: Shots) -> State:
    """Shoot at one target, or split fire between two: hits are DRPs up to 3, then stamina;
    commanders with the target are at risk (Shooting; Risk to commanders)."""
    shooter = state.unit(action.unit_id)
    fires = [shooting.chosen_fire(shooter, facts) for _, facts in shots]
    cost = max(
        shooting.shooting_cost(fire, facts.extra_orders)
        for fire, (_, facts) in zip(fires, shots, strict=True)
    )
    new = state.replace(extra=spend(state, shooter.id, cost, shooting_now=True))
    table = state.extra.table
    traces: list[ShotTrace] = []
    for fire, (target_id, facts) in zip(fires, shots, strict=True):
        target = new.unit(target_id)
        shot = shooting.shoot(shooter, target, facts, dice=log.dice, options=state.options)
        hit = shooting.apply_hits(target, shot.hits)
        where = f" at {facts.range:.1f} in." if table is not None else ""
        log.add("shooting",
                f"{shooter.name} at {target.name}{where}: {shot}{_now(target, hit)}",
                RULE_SHOOTING, shooter.id,
                facts={"test": "shooting", "fire": shot.fire.value, "dice": shot.dice,
                       "need": shot.need, "hits": shot.hits, "result": shot.hits,
                       "target": target.id})
        new = with_units(new, hit)
        new = risk(new, log, (target,), (hit,), rifles=fire is shooting.Fire.RIFLE)
        traces.append(ShotTrace(shooter.id, target_id, shot.hits > 0))
    if table is not None:
        new = with_table(new, (new.extra.table or table).with_traces(*traces))
    return new


def _now(before: Unit, after: Unit) -> str:
    """The losses a unit stands at after taking some, in words ("" if it took none)."""
    if before == after:
        return ""
    return f"; {after.name} now at {after.disruption} DRP, {after.stamina_losses} stamina"


def candidates_rally(state: State) -> Iterator[Rally]:
    """Each activated unit with a DRP to rally off."""
    for unit, _ in _actors(state):
        if unit.disruption:
            yield Rally(unit.id)


def check_rally(state: State, action: Rally) -> None:
    """A rally action removes one DRP, for one action (Rally; Action tariff)."""
    unit, _ = activated_unit(state, action, action.unit_id, act.ActionKind.RALLY.cost)
    if unit.disruption == 0:
        raise IllegalActionError(action, f"{unit.name} has no DRP to rally off", RULE_RALLY)


def apply_rally(state: State, action: Rally, log: Log) -> State:
    """Rally off one DRP."""
    unit = state.unit(action.unit_id)
    new = state.replace(extra=spend(state, unit.id, act.ActionKind.RALLY.cost))
    after = remove_disruption(unit, 1)
    log.add("rally", f"{unit.name} rallies off 1 DRP ({after.disruption} left)", RULE_RALLY,
            unit.id)
    return new.with_units(after)


# --- command points -----------------------------------------------------------------------
def candidates_spend_command_point(state: State) -> Iterator[SpendCommandPoint]:
    """For each commander the card activated with a point left: an extra action for each
    unit he activated that is still in the fight (on a table the check measures his
    radius); a 12" move, unattached or attaching to
    any unit of his side on the table."""
    for commander_id in state.extra.active:
        leader = state.commander(commander_id)
        entry = activity_of(state, commander_id)
        if leader.removed or entry is None or entry.command_points < 1:
            continue
        helped = tuple(activated.unit_id for _, activated in _actors_any(state)
                       if activated.commander_id == commander_id)
        joined = _joinable(state, leader)
        first, last = command_points_spent(commander_id, helped, joined)
        yield from first
        if state.extra.table is not None:
            move = command.CommandPointUse.MOVE_COMMANDER
            for point in situations.commander_points(state, commander_id):
                yield SpendCommandPoint(commander_id, move, to=point)
        yield from last


def _joinable(state: State, leader: Commander) -> tuple[str, ...]:
    """The units of his side the commander may ride to join (in the state's order): every
    one standing, or on a table those perhaps within his 12" move (``situations.near_point``
    from where he stands; the check measures each, ``situations.commander_reach``)."""
    table = state.extra.table
    if table is None:
        return tuple(unit.id for unit in state.units
                     if unit.side == leader.side and not unit.destroyed)
    order = state.derived(unit_places)
    near = [state.unit(unit_id) for unit_id in situations.near_point(
        table, table.commander_point(leader.id), command.COMMANDER_MOVE)
        if unit_id in order]
    return tuple(unit.id for unit in sorted(near, key=lambda u: order[u.id])
                 if unit.side == leader.side and not unit.destroyed)


@functools.lru_cache(maxsize=1024)
def command_points_spent(commander_id: str, helped: tuple[str, ...], joined: tuple[str, ...],
                         ) -> tuple[tuple[SpendCommandPoint, ...], tuple[SpendCommandPoint, ...]]:
    """The commander's points spent on an extra action for each unit ``helped`` and on his
    move standing where he is, then on his move to join each unit ``joined``
    (``candidates_spend_command_point``, the points ridden to on a table between the two):
    made once for each."""
    move = command.CommandPointUse.MOVE_COMMANDER
    first = (*(SpendCommandPoint(commander_id, command.CommandPointUse.EXTRA_ACTION, unit_id)
               for unit_id in helped), SpendCommandPoint(commander_id, move))
    return first, tuple(SpendCommandPoint(commander_id, move, attach_to=unit_id)
                        for unit_id in joined)


def _actors_any(state: State) -> Iterator[tuple[Unit, Activated]]:
    """The units activated by the current card still in the fight, with actions or not."""
    for entry in state.extra.activated:
        unit = state.unit(entry.unit_id)
        if not unit.gone:
            yield unit, entry


def check_spend_command_point(state: State, action: SpendCommandPoint) -> None:
    """An active commander with a point left: an extra action to a unit he activated, in his
    radius and still in the fight; or a 12" move, attaching or detaching (Command point
    tariff; Command Radius)."""
    leader = state.commander(action.commander_id)
    if leader.removed:
        raise IllegalActionError(
            action, f"{leader.name} has been removed from the battle", RULE_RISK
        )
    entry = activity_of(state, leader.id)
    if action.commander_id not in state.extra.active or entry is None:
        raise IllegalActionError(action, f"{leader.name} is not active now", RULE_CP_TARIFF)
    if entry.command_points < 1:
        raise IllegalActionError(
            action, f"{leader.name} has no command points left", RULE_CP_TARIFF
        )
    use = action.use
    if use is command.CommandPointUse.OTHER_BRIGADE:
        raise IllegalActionError(
            action, "a unit of another brigade is activated with Activate", RULE_CP_TARIFF
        )
    if use is command.CommandPointUse.EXTRA_ACTION:
        if action.attach_to is not None:
            raise InvalidValueError("attach_to", action.attach_to, "None for an extra action")
        if state.extra.table is not None and action.outside_radius:
            raise IllegalActionError(
                action, "the table measures this: leave outside_radius at its default",
                RULE_RADIUS)
        if action.outside_radius or (state.extra.table is not None and action.unit_id
                                     and situations.outside_radius(state, leader.id,
                                                                   action.unit_id)):
            raise IllegalActionError(
                action, "command points are used on units within the command radius",
                RULE_RADIUS,
            )
        target = activated_entry(state, action.unit_id or "")
        if target is None or target.commander_id != leader.id:
            raise IllegalActionError(
                action,
                "an extra action goes to a unit this commander activated this turn",
                RULE_CP_TARIFF,
            )
        unit = state.unit(target.unit_id)
        if unit.gone:
            state_word = "destroyed" if unit.destroyed else "routing"
            raise IllegalActionError(
                action, f"{unit.name} is {state_word}: it takes no action", RULE_ROUTING
            )
        return
    if action.unit_id is not None:
        raise InvalidValueError("unit_id", action.unit_id, "None for a commander's move")
    if action.to is not None and (state.extra.table is None or action.attach_to is not None):
        raise InvalidValueError(
            "to", action.to, "None: only a commander riding unattached on a table rides to a "
            "point")
    if action.attach_to is not None:
        unit = state.unit(action.attach_to)
        if unit.side != leader.side or unit.destroyed:
            raise IllegalActionError(
                action, "commanders attach to their own side's units on the table",
                RULE_CP_TARIFF,
            )
        if leader.attached_to == unit.id:
            raise IllegalActionError(
                action, f"{leader.name} is already with {unit.name}", RULE_CP_TARIFF
            )
    if state.extra.table is not None:
        why = situations.commander_reach(state, leader.id, action.attach_to, action.to)
        if why:
            raise IllegalActionError(action, f"{leader.name}: {why}", RULE_CP_TARIFF)


def apply_spend_command_point(state: State, action: SpendCommandPoint, log: Log) -> State:
    """Spend the point: an extra action for the unit, or the commander's move."""
    leader = state.commander(action.commander_id)
    entry = activity_of(state, leader.id)
    assert entry is not None
    extra = with_activity(state.extra, evolved(entry, {"command_points": entry.command_points - 1}))
    new = state
    if action.use is command.CommandPointUse.EXTRA_ACTION:
        target = activated_entry(state, action.unit_id or "")
        assert target is not None
        extra = with_activated(extra, evolved(target, {"actions": target.actions + 1}))
        text = f"{leader.name} gives {state.unit(target.unit_id).name} an extra action"
    else:
        new = state.with_commanders(revised(leader, attached_to=action.attach_to))
        if action.attach_to is not None:
            where = f"joins {state.unit(action.attach_to).name}"
        elif leader.attached_to is not None:
            where = f"leaves {state.unit(leader.attached_to).name}"
        else:
            where = "rides unattached"
        text = f'{leader.name} moves up to {command.COMMANDER_MOVE}" and {where}'
        table = state.extra.table
        if table is not None and action.to is not None:
            x, y = action.to
            mark = CommanderMark(leader.id, x, y, side=leader.side, label=leader.name)
            extra = evolved(extra, {"table": table.with_commanders(mark)})
            text += f", riding to ({x:.1f}, {y:.1f})"
    log.add("command point", text, RULE_CP_TARIFF, leader.id)
    return new.replace(extra=extra)
