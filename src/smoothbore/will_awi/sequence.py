"""Rules - Move Sequence: alternate moves A to K as a pure ``Turn`` over ``BattleState``.

One side moves (A-C, F-K) while the other fires (D-E). Until positions arrive, actions carry
the facts a player measures at the table (ranges, faces, cover, terrain)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import attrs

from smoothbore.core import (
    BattleState,
    DiceState,
    Event,
    IllegalActionError,
    Phase,
    SamplingDice,
)

from . import rules
from .charges import (
    ChargedResult,
    ChargeFacts,
    Face,
    can_charge,
    check_charge,
    test_charged,
    test_surrender,
)
from .command import OrderFacts, give_order, test_independent
from .firing import (
    RANGES,
    Cover,
    FireFacts,
    check_target_detected,
    fire_modifiers,
    is_canister,
    resolve_fire,
)
from .fortifications import (
    Defence,
    Demolition,
    artillery_damage,
    blast_radius,
    bombard,
    construct,
    damage,
    demolish,
    demolition_blast,
    dismantle,
    laying_moves,
)
from .generals import (
    Fate,
    Risk,
    apply_fate,
    general_move,
    in_chain_of_command,
    roll_risk,
    shakes_chain,
)
from .melee import Effect, Fighter, Melee, resolve_melee
from .morale import (
    ShakenResult,
    apply_routing_result,
    apply_shaken_result,
    lose_strength,
    test_routing,
    test_shaken,
)
from .movement import (
    MovePlan,
    check_facing_change,
    check_formation_change,
    check_limber,
    check_move,
    move_distance,
    rout_move,
    test_gun_facing,
)
from .options import DEFAULT_OPTIONS, CommandPost, Options
from .units import Rank, Status, TroopType, WillGeneral, WillUnit
from .variants import end_highland_charge, highland_charge_move, test_highland_charge

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


# ----------------------------------------------------------------------------- actions
@attrs.frozen
class EndPhase:
    """Finish the current phase (K: end the move, the other side moves next)."""


@attrs.frozen
class TestMorale:
    """A: test a shaken or routing unit; ``in_open`` for the optional militia rule."""

    __test__ = False  # not a pytest test class

    unit: str
    in_open: bool = False


@attrs.frozen
class CompulsoryMove:
    """B: a rout move (or a retirement after a shaken test).

    ``blocked`` and ``enemy_within_6``: a routing unit that cannot move with an enemy within 6"
    tests surrender."""

    unit: str
    inches: float
    ends_farther: bool = True
    blocked: bool = False
    enemy_within_6: bool = False


@attrs.frozen
class Move:
    """C: a unit's move (an empty plan: it stands)."""

    unit: str
    plan: MovePlan = attrs.field(factory=MovePlan)


@attrs.frozen
class ChangeFormation:
    """C: line to column or back; ``base_distance``: the furthest a base moves."""

    unit: str
    base_distance: float = 0.0


@attrs.frozen
class Limber:
    """C: limber or deploy a gun (a whole move stationary)."""

    unit: str


@attrs.frozen
class Order:
    """C (command and control on): a commander's order roll for a unit, or one roll for a group
    of his units moving together (``with_units``: the others; the group move's -1 applies)."""

    general: str
    unit: str
    facts: OrderFacts = attrs.field(factory=OrderFacts)
    with_units: tuple[str, ...] = ()


@attrs.frozen
class IndependentTest:
    """C (command and control on): a unit not commanded tests alone."""

    unit: str


@attrs.frozen
class HighlandChargeMove:
    """C ('45): a unit in a Highland charge moves its distance plus 1d6 at the nearest enemy."""

    unit: str


@attrs.frozen
class MoveGeneral:
    """C: a general (or courier) moves up to 21" (half with a light wound) and may join a
    unit (``attach_to``, "" to ride alone)."""

    general: str
    inches: float = 0.0
    attach_to: str = ""


@attrs.frozen
class Engineer:
    """C: a close order unit with a wagon's tools builds (every other move) or dismantles a
    work (Field Engineering)."""

    unit: str
    work: str
    build: bool = False
    has_tools: bool = True


@attrs.frozen
class LayCharge:
    """C: a unit spends its move laying one of ``charges`` demolition charges at a work."""

    unit: str
    work: str
    charges: int = 1


@attrs.frozen
class MoveAway:
    """C: the layers move away once every charge is laid; the charge goes off in phase E."""

    unit: str
    plan: MovePlan = attrs.field(factory=MovePlan)


@attrs.frozen
class ChangeFacing:
    """D: the firing player turns a unit; ``enemies_in_front`` (id, distance) measured from its
    current front."""

    unit: str
    degrees: float
    enemies_in_front: tuple[tuple[str, float], ...] = ()
    blocked: bool = False


@attrs.frozen
class Fire:
    """E: fire at an enemy (``work``: the building or work the target holds; ``chain_within_18``:
    the units within 18" of a general who might fall)."""

    firer: str
    target: str
    facts: FireFacts
    work: str = ""
    chain_within_18: frozenset[str] = frozenset()


@attrs.frozen
class Bombard:
    """E: guns fire ball at an empty work (``facts`` as for fire; cover is ignored)."""

    firer: str
    work: str
    facts: FireFacts


@attrs.frozen
class Detonate:
    """E: the demolition whose layers moved away this move goes off. ``within``: the ids of
    the units the player measured within the blast radius."""

    work: str
    within: frozenset[str] = frozenset()


@attrs.frozen
class SpreadHighlandCharge:
    """E ('45): an unshaken highland unit within 12" of a Highland charge tests to join it."""

    unit: str
    in_musket_range: bool = False


@attrs.frozen
class DeclareCharge:
    """F (and K): declare a charge."""

    charger: str
    target: str
    distance: float
    in_front: bool = True
    facts: ChargeFacts = attrs.field(factory=ChargeFacts)
    over_obstacle: bool = False
    uphill: bool = False


@attrs.frozen
class TestCharged:
    """G: test a charged unit (in the moving player's order)."""

    __test__ = False  # not a pytest test class

    target: str


@attrs.frozen
class CounterCharge:
    """H: a unit that scored below zero counter-charges (or not)."""

    target: str
    charge: bool = True


@attrs.frozen
class Evade:
    """H (option): an open order or cavalry unit that did not rout evades the charge."""

    target: str


@attrs.frozen
class Contact:
    """I: a charger whose target routed or evaded: is the target still within charge reach?"""

    charger: str
    in_reach: bool = False


@attrs.frozen
class ResolveMelee:
    """J: fight the melee around a charged unit. ``fronts``: the units engaged to the enemy's
    front (empty: all of them); ``also_defending``: a second unit of the charged side in contact
    with a lone attacker (one attacker against two defenders)."""

    target: str
    fronts: frozenset[str] = frozenset()
    chain_within_18: frozenset[str] = frozenset()
    also_defending: tuple[str, ...] = ()


@attrs.frozen
class SecondCharges:
    """K: start the second cavalry charges (F to J again, successful cavalry only)."""


WillAction: TypeAlias = (
    EndPhase
    | TestMorale
    | CompulsoryMove
    | Move
    | ChangeFormation
    | Limber
    | Order
    | IndependentTest
    | HighlandChargeMove
    | MoveGeneral
    | Engineer
    | LayCharge
    | MoveAway
    | ChangeFacing
    | Fire
    | Bombard
    | Detonate
    | SpreadHighlandCharge
    | DeclareCharge
    | TestCharged
    | CounterCharge
    | Evade
    | Contact
    | ResolveMelee
    | SecondCharges
)


# ----------------------------------------------------------------------------- helpers
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
    return next(s for s in state.sides if s != state.extra.moving)


def attached_general(state: WillState, unit_id: str) -> WillGeneral | None:
    """The highest-ranking active general with the unit."""
    with_unit = [g for g in state.commanders if g.active and g.attached_to == unit_id]
    if not with_unit:
        return None
    return max(with_unit, key=lambda g: g.rank.test_bonus)


def _rank(state: WillState, unit_id: str) -> Rank | None:
    g = attached_general(state, unit_id)
    return None if g is None else g.rank


def _illegal(action: object, why: str, rule: str = rules.SEQUENCE) -> IllegalActionError:
    return IllegalActionError(action, why, rule)


def _own(state: WillState, unit_id: str, side: str, action: object) -> WillUnit:
    unit = state.unit(unit_id)
    if unit.side != side:
        raise _illegal(action, f"{unit.name} is not a unit of {side}")
    if not unit.on_table:
        raise _illegal(action, f"{unit.name} is no longer on the table")
    return unit


def _needs_test(state: WillState) -> tuple[WillUnit, ...]:
    return tuple(
        u
        for u in state.units_of(state.extra.moving)
        if (u.shaken or u.routing) and not u.routed_last_move and u.id not in state.extra.done
    )


def _compulsory(state: WillState) -> tuple[WillUnit, ...]:
    return tuple(
        u
        for u in state.units_of(state.extra.moving)
        if u.on_table
        and (u.routing or u.must_retire)
        and u.id not in state.extra.done
        and not u.immobilised
        and not (u.routing and u.routed_last_move)
    )


def _test_of(state: WillState, target: str) -> TestedCharge | None:
    return next((t for t in state.extra.tests if t.target == target), None)


def _charges_on(state: WillState, target: str) -> tuple[Charge, ...]:
    return tuple(c for c in state.extra.charges if c.target == target)


def _pending_melees(state: WillState) -> tuple[str, ...]:
    out: list[str] = []
    for t in state.extra.tests:
        if t.target in state.extra.resolved or t.evaded:
            continue
        if t.result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            target = state.unit(t.target)
            chargers = [state.unit(c.charger) for c in _charges_on(state, t.target)]
            if target.on_table and any(c.on_table for c in chargers) and t.target not in out:
                out.append(t.target)
    return tuple(out)


def _contacts_needed(state: WillState) -> tuple[Charge, ...]:
    out = []
    for c in state.extra.charges:
        t = _test_of(state, c.target)
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


class _Log:
    """Collects events with the rolls made since the last one."""

    def __init__(self, dice: SamplingDice) -> None:
        self.dice = dice
        self.mark = 0
        self.events: list[Event] = []

    def add(self, kind: str, text: str, rule: str, subject: str = "") -> None:
        rolls = self.dice.records_since(self.mark)
        self.mark = len(self.dice.records)
        self.events.append(Event(kind, text, rule, subject, rolls))


def _lose(state: WillState, unit: WillUnit, points: int, log: _Log, rule: str) -> WillState:
    after = lose_strength(unit, points)
    if after.status is Status.ELIMINATED:
        log.add(
            "eliminated",
            f"{unit.name} falls to 0 strength points and is removed",
            rules.INTRO_STRENGTH,
            unit.id,
        )
    after = end_highland_charge(after, lost_strength=points > 0, adverse_test=False)
    return state.with_units(after)


def _general_risk(
    state: WillState, unit_id: str, risk: Risk, chain: frozenset[str], log: _Log
) -> WillState:
    for g in state.commanders:
        if not (g.active and g.attached_to == unit_id):
            continue
        fate = roll_risk(g, risk, dice=log.dice)
        after = apply_fate(g, fate)
        text = f"{g.name}: {fate.value}"
        if fate is Fate.LIGHT_WOUND and after.state is not g.state:
            text += " (second light wound: incapacitated)"
        rule = rules.FIRE_GENERALS if risk is Risk.FIRE_LOSS else rules.MELEE_GENERALS
        log.add("general", text, rule, g.id)
        state = state.with_commanders(after)
        if shakes_chain(fate):
            for u in state.units:
                if (
                    u.id in chain
                    and u.status is Status.STEADY
                    and in_chain_of_command(u, g, state.commanders)
                ):
                    state = state.with_units(attrs.evolve(u, status=Status.SHAKEN))
                    log.add("shaken", f"{u.name} is shaken by the loss of {g.name}", rule, u.id)
    return state


def _with_extra(state: WillState, **changes: Any) -> WillState:
    return attrs.evolve(state, extra=attrs.evolve(state.extra, **changes))


# ----------------------------------------------------------------------------- the turn
@attrs.frozen
class WillTurn:
    """The move sequence A-K (Rules - Move Sequence)."""

    phases: tuple[Phase, ...] = PHASES

    def legal_actions(self, state: WillState) -> tuple[WillAction, ...]:
        """Every action the rules allow now, with default table facts where a player would
        measure (fire at the weapon's longest short range, charge from contact distance)."""
        candidates = _candidates(state)
        out: list[WillAction] = []
        for action in candidates:
            try:
                self.step(state, action)
            except IllegalActionError:
                continue
            out.append(action)
        return tuple(out)

    def step(self, state: WillState, action: WillAction) -> tuple[WillState, tuple[Event, ...]]:
        """Apply one action: the new state and what happened (pure, replayable)."""
        handler = _HANDLERS.get((state.phase, type(action)))
        if handler is None:
            raise _illegal(action, f"{type(action).__name__} is not allowed in phase {state.phase}")
        dice = state.dice.dice()
        log = _Log(dice)
        new = handler(state, action, log)
        new = attrs.evolve(new, dice=state.dice.advanced())
        return new, tuple(log.events)


# ---- A
def _test_morale(state: WillState, action: TestMorale, log: _Log) -> WillState:
    unit = _own(state, action.unit, state.extra.moving, action)
    if unit not in _needs_test(state):
        raise _illegal(action, f"{unit.name} has no test to take", rules.SEQUENCE_NOTE_A)
    opts = state.extra.options
    rank = _rank(state, unit.id)
    if unit.shaken:
        result = test_shaken(unit, rank, dice=log.dice, in_open=action.in_open, options=opts)
        after = apply_shaken_result(unit, result, opts)
        adverse = result is not ShakenResult.CARRY_ON
        log.add("morale", f"{unit.name} tests shaken: {result.value}", rules.MORALE_SHAKEN, unit.id)
        if result is ShakenResult.ROUT_LOSE_1 and after.status is Status.ELIMINATED:
            log.add("eliminated", f"{unit.name} is removed", rules.INTRO_STRENGTH, unit.id)
    else:
        r = test_routing(unit, rank, dice=log.dice, options=opts)
        after = apply_routing_result(unit, r)
        adverse = False
        log.add("morale", f"{unit.name} tests routing: {r.value}", rules.MORALE_ROUTING, unit.id)
    after = end_highland_charge(after, after.strength < unit.strength, adverse)
    if after.routing and unit.troop is TroopType.WAGON:
        after = attrs.evolve(after, immobilised=True)
    state = state.with_units(after)
    return _with_extra(state, done=state.extra.done | {unit.id})


def _end_a(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if _needs_test(state):
        raise _illegal(action, "every shaken and routing unit of the moving player must test")
    return attrs.evolve(_with_extra(state, done=frozenset()), phase=B)


# ---- B
def _compulsory_move(state: WillState, action: CompulsoryMove, log: _Log) -> WillState:
    unit = _own(state, action.unit, state.extra.moving, action)
    if unit not in _compulsory(state):
        raise _illegal(action, f"{unit.name} has no compulsory move")
    if unit.routing:
        if action.blocked:
            if action.enemy_within_6 and test_surrender(unit, dice=log.dice, why="cannot move"):
                state = state.with_units(attrs.evolve(unit, status=Status.SURRENDERED))
                log.add(
                    "surrender", f"{unit.name} cannot move and surrenders", rules.SURRENDER, unit.id
                )
            else:
                log.add("rout", f"{unit.name} cannot move", rules.ROUT, unit.id)
        else:
            rout_move(unit, action.inches, action.ends_farther, action)
            log.add("rout", f'{unit.name} routs {action.inches}"', rules.ROUT, unit.id)
    else:
        limit = move_distance(unit, options=state.extra.options, action=action)
        if action.inches > limit:
            raise _illegal(action, f'a retirement is a full move ({limit}")', rules.MORALE_SHAKEN)
        state = state.with_units(attrs.evolve(unit, must_retire=False))
        log.add("retire", f'{unit.name} retires {action.inches}"', rules.MORALE_SHAKEN, unit.id)
    return _with_extra(state, done=state.extra.done | {unit.id})


def _end_b(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if _compulsory(state):
        raise _illegal(action, "every routing or retiring unit must move first")
    cleared = tuple(
        attrs.evolve(u, routed_last_move=False, must_retire=False)
        for u in state.units_of(state.extra.moving)
        if u.routed_last_move or u.must_retire
    )
    state = state.with_units(*cleared) if cleared else state
    return attrs.evolve(_with_extra(state, done=frozenset()), phase=C)


# ---- C
def _mover(state: WillState, unit_id: str, action: object) -> WillUnit:
    unit = _own(state, unit_id, state.extra.moving, action)
    if unit.routing:
        raise _illegal(action, f"{unit.name} is routing: it moves in B")
    if unit.id in state.extra.done:
        raise _illegal(action, f"{unit.name} has already moved")
    if unit.highland_charge:
        # A Highland charge is a compulsory move: it needs no order.
        if not isinstance(action, HighlandChargeMove):
            raise _illegal(action, "a Highland charge must move at the enemy", rules.FORTY_FIVE)
        return unit
    if state.extra.options.command_control and unit.id not in state.extra.ordered:
        raise _illegal(action, f"{unit.name} has no order to move", _command_rule(state))
    return unit


def _move(state: WillState, action: Move, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    if not action.plan.legs and not action.plan.crossings and abs(action.plan.facing_change) <= 45:
        if unit.busy_moves:
            state = state.with_units(attrs.evolve(unit, busy_moves=unit.busy_moves - 1))
        log.add("move", f"{unit.name} stands", rules.MOVEMENT, unit.id)
        return _with_extra(state, done=state.extra.done | {unit.id})
    checked = check_move(unit, action.plan, options=state.extra.options, action=action)
    state = state.with_units(attrs.evolve(unit, busy_moves=checked.busy_after))
    log.add(
        "move",
        f'{unit.name} moves ({float(checked.used):.1f}" of {float(checked.allowance):.1f}")',
        rules.MOVEMENT,
        unit.id,
    )
    return _with_extra(state, done=state.extra.done | {unit.id})


def _change_formation(state: WillState, action: ChangeFormation, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    if unit.busy_moves:
        raise _illegal(action, f"{unit.name} is busy", rules.MOVEMENT)
    formation = check_formation_change(unit, action.base_distance, action)
    state = state.with_units(attrs.evolve(unit, formation=formation))
    log.add("formation", f"{unit.name} forms {formation.value}", rules.MOVEMENT, unit.id)
    return _with_extra(state, done=state.extra.done | {unit.id})


def _limber(state: WillState, action: Limber, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    if unit.busy_moves:
        raise _illegal(action, f"{unit.name} is busy", rules.MOVEMENT)
    limbered = check_limber(unit, action)
    state = state.with_units(attrs.evolve(unit, limbered=limbered))
    log.add(
        "limber",
        f"{unit.name} {'limbers' if limbered else 'deploys'}",
        rules.MOVEMENT_WHEELED,
        unit.id,
    )
    return _with_extra(state, done=state.extra.done | {unit.id})


def _command_rule(state: WillState) -> str:
    post = state.extra.options.command_post
    return rules.COMMAND_MARCH if post is CommandPost.MARCH_2008 else rules.COMMAND_JANUARY


def _order(state: WillState, action: Order, log: _Log) -> WillState:
    opts = state.extra.options
    rule = _command_rule(state)
    if not opts.command_control:
        raise _illegal(action, "command and control is not in play", rule)
    if state.extra.independents:
        raise _illegal(action, "the independent tests come after all command rolls", rule)
    general = state.commander(action.general)
    if general.id in state.extra.failed:
        raise _illegal(action, f"{general.name} has failed: no more orders", rule)
    ids = (action.unit, *action.with_units)
    if len(set(ids)) != len(ids):
        raise _illegal(action, "a unit appears twice in the group", rule)
    group = tuple(_own(state, uid, state.extra.moving, action) for uid in ids)
    for unit in group:
        if general.side != unit.side or not general.active:
            raise _illegal(action, f"{general.name} cannot command {unit.name}", rule)
        if unit.commander != general.id and not in_chain_of_command(
            unit, general, state.commanders
        ):
            raise _illegal(action, f"{unit.name} is not under {general.name}", rule)
        if unit.id in state.extra.ordered or unit.id in state.extra.done:
            raise _illegal(action, f"{unit.name} has already been tested", rule)
        if unit.routing or unit.highland_charge:
            raise _illegal(action, f"{unit.name} makes a compulsory move, not an order", rule)
    ok = give_order(general, group[0], action.facts, dice=log.dice, options=opts, also=group[1:])
    names = ", ".join(u.name for u in group)
    log.add("order", f"{general.name} orders {names}: {'moves' if ok else 'fails'}", rule, ids[0])
    if ok:
        return _with_extra(state, ordered=state.extra.ordered | set(ids))
    return _with_extra(
        state, failed=state.extra.failed | {general.id}, done=state.extra.done | set(ids)
    )


def _independent(state: WillState, action: IndependentTest, log: _Log) -> WillState:
    opts = state.extra.options
    rule = _command_rule(state)
    if not opts.command_control:
        raise _illegal(action, "command and control is not in play", rule)
    unit = _own(state, action.unit, state.extra.moving, action)
    if unit.id in state.extra.ordered or unit.id in state.extra.done:
        raise _illegal(action, f"{unit.name} has already been tested", rule)
    if unit.routing or unit.highland_charge:
        raise _illegal(action, f"{unit.name} makes a compulsory move, not an order", rule)
    failed = unit.commander in state.extra.failed
    ok = test_independent(unit, failed, dice=log.dice, options=opts)
    log.add("order", f"{unit.name} tests alone: {'moves' if ok else 'stays'}", rule, unit.id)
    state = _with_extra(state, independents=True)
    if ok:
        return _with_extra(state, ordered=state.extra.ordered | {unit.id})
    return _with_extra(state, done=state.extra.done | {unit.id})


def _highland_move(state: WillState, action: HighlandChargeMove, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    if not unit.highland_charge:
        raise _illegal(action, f"{unit.name} is not in a Highland charge", rules.FORTY_FIVE)
    inches = highland_charge_move(unit, dice=log.dice, options=state.extra.options)
    log.add(
        "move",
        f'{unit.name} Highland charge: {inches}" at the nearest enemy',
        rules.FORTY_FIVE,
        unit.id,
    )
    return _with_extra(state, done=state.extra.done | {unit.id})


def _move_general(state: WillState, action: MoveGeneral, log: _Log) -> WillState:
    general = state.commander(action.general)
    key = "general:" + general.id
    if general.side != state.extra.moving or not general.active:
        raise _illegal(action, f"{general.name} cannot move now", rules.MOVEMENT)
    if key in state.extra.done:
        raise _illegal(action, f"{general.name} has already moved", rules.MOVEMENT)
    limit = general_move(general)
    if not 0 <= action.inches <= limit:
        raise _illegal(action, f'generals move up to {limit}"', rules.MOVEMENT)
    if action.attach_to:
        unit = _own(state, action.attach_to, general.side, action)
        text = f'{general.name} rides {action.inches}" and joins {unit.name}'
    else:
        text = f'{general.name} rides {action.inches}"'
    log.add("general", text, rules.MOVEMENT, general.id)
    state = state.with_commanders(attrs.evolve(general, attached_to=action.attach_to))
    return _with_extra(state, done=state.extra.done | {key})


def _work(state: WillState, work_id: str, action: object) -> Defence:
    work = next((w for w in state.extra.works if w.id == work_id), None)
    if work is None:
        raise _illegal(action, f"no work {work_id!r}", rules.FORT_VALUES)
    return work


def _with_work(state: WillState, work: Defence) -> WillState:
    works = tuple(work if w.id == work.id else w for w in state.extra.works)
    return _with_extra(state, works=works)


def _engineer(state: WillState, action: Engineer, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    if unit.arm.value != "close order foot":
        raise _illegal(action, "only close order infantry work with tools", rules.FIELD_ENGINEERING)
    work = _work(state, action.work, action)
    if action.build:
        after = construct(work, action.has_tools, action)
        text = f"{unit.name} builds {work.work.value} ({after.points} points)"
    else:
        after = dismantle(work, action.has_tools, action)
        text = f"{unit.name} dismantles {work.work.value} ({after.points} points)"
    log.add("work", text, rules.FIELD_ENGINEERING, work.id)
    return _with_extra(_with_work(state, after), done=state.extra.done | {unit.id})


def _lay_charge(state: WillState, action: LayCharge, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    work = _work(state, action.work, action)
    laying_moves(action.charges)
    current = next((d for d in state.extra.demolitions if d.work == work.id), None)
    if current is None:
        new = Demolition(work.id, unit.id, action.charges)
    elif current.unit != unit.id or current.charges != action.charges or current.away:
        raise _illegal(action, "another demolition is under way there", rules.DEMOLITION)
    elif current.laid >= current.charges:
        raise _illegal(action, "every charge is laid: move away", rules.DEMOLITION)
    else:
        new = attrs.evolve(current, laid=current.laid + 1)
    others = tuple(d for d in state.extra.demolitions if d.work != work.id)
    log.add(
        "demolition",
        f"{unit.name} lays charge {new.laid} of {new.charges}",
        rules.DEMOLITION,
        work.id,
    )
    return _with_extra(state, demolitions=(*others, new), done=state.extra.done | {unit.id})


def _move_away(state: WillState, action: MoveAway, log: _Log) -> WillState:
    unit = _mover(state, action.unit, action)
    current = next((d for d in state.extra.demolitions if d.unit == unit.id), None)
    if current is None or current.laid < current.charges or current.away:
        raise _illegal(action, "move away only when every charge is laid", rules.DEMOLITION)
    if action.plan.legs:
        check_move(unit, action.plan, options=state.extra.options, action=action)
    others = tuple(d for d in state.extra.demolitions if d is not current)
    log.add("demolition", f"{unit.name} moves away from the charges", rules.DEMOLITION, unit.id)
    return _with_extra(
        state,
        demolitions=(*others, attrs.evolve(current, away=True)),
        done=state.extra.done | {unit.id},
    )


def _end_c(state: WillState, action: EndPhase, log: _Log) -> WillState:
    unmoved = [
        u.name
        for u in state.units_of(state.extra.moving)
        if u.highland_charge and u.id not in state.extra.done
    ]
    if unmoved:
        raise _illegal(
            action, f"{', '.join(unmoved)} must make the Highland charge move", rules.FORTY_FIVE
        )
    busy = tuple(
        attrs.evolve(u, busy_moves=u.busy_moves - 1)
        for u in state.units_of(state.extra.moving)
        if u.busy_moves and u.id not in state.extra.done
    )
    state = state.with_units(*busy) if busy else state
    return attrs.evolve(
        _with_extra(
            state, done=frozenset(), ordered=frozenset(), failed=frozenset(), independents=False
        ),
        phase=D,
    )


# ---- D
def _change_facing(state: WillState, action: ChangeFacing, log: _Log) -> WillState:
    unit = _own(state, action.unit, firing_side(state), action)
    if unit.id in state.extra.done:
        raise _illegal(action, f"{unit.name} has already changed facing", rules.FACING)
    enemies = tuple((state.unit(e), d) for e, d in action.enemies_in_front)
    if any(e.side == unit.side for e, _ in enemies):
        raise _illegal(action, "enemies_in_front must be enemy units", rules.FACING)
    check_facing_change(unit, action.degrees, enemies, action.blocked, action)
    state = _with_extra(state, done=state.extra.done | {unit.id})
    rolls = state.extra.options.gun_facing_roll and unit.troop.is_gun
    if rolls and not test_gun_facing(unit, dice=log.dice):
        log.add("facing", f"{unit.name} fails to turn", rules.FAQ1, unit.id)
        return state
    log.add("facing", f"{unit.name} turns {action.degrees}°", rules.FACING, unit.id)
    return state


def _end_d(state: WillState, action: EndPhase, log: _Log) -> WillState:
    return attrs.evolve(_with_extra(state, done=frozenset()), phase=E)


# ---- E
def _fire(state: WillState, action: Fire, log: _Log) -> WillState:
    firer = _own(state, action.firer, firing_side(state), action)
    target = state.unit(action.target)
    if target.side == firer.side or not target.on_table:
        raise _illegal(action, "the target must be an enemy unit on the table", rules.FIRING)
    if firer.id in state.extra.fired:
        raise _illegal(action, f"{firer.name} has already fired", rules.FIRING)
    if state.phase == F:
        allowed = (
            state.extra.second_round
            and any(c.charger == target.id and c.target == firer.id for c in state.extra.charges)
            and target.troop.is_cavalry
        )
        if not allowed:
            raise _illegal(
                action, "only the target of a second charge may fire now", rules.SECOND_CHARGE
            )
    opts = state.extra.options
    check_target_detected(target, action.facts, action)
    fire_modifiers(firer, action.facts, opts, action)
    work = None
    if action.work:
        work = next((w for w in state.extra.works if w.id == action.work), None)
        if work is None:
            raise _illegal(action, f"no work {action.work!r}", rules.FORT_VALUES)
        if action.facts.cover is not work.cover:
            raise _illegal(action, f"the work gives {work.cover.value}", rules.FORT_VALUES)
    result = resolve_fire(firer, target, action.facts, dice=log.dice, options=opts)
    log.add("fire", f"{firer.name} fires at {target.name}: {result}", rules.FIRING, target.id)
    state = _with_extra(state, fired=state.extra.fired | {firer.id})
    after = target
    if result.hit:
        state = _lose(state, target, 1, log, rules.FIRING)
        after = state.unit(target.id)
        state = _general_risk(state, target.id, Risk.FIRE_LOSS, action.chain_within_18, log)
    if result.shaken and after.status is Status.STEADY:
        after = attrs.evolve(end_highland_charge(after, False, True), status=Status.SHAKEN)
        state = state.with_units(after)
        log.add("shaken", f"{target.name} is shaken by fire", rules.FIRE_MORALE, target.id)
    if work is not None and firer.troop.is_gun and not is_canister(firer, action.facts):
        cover = action.facts.cover.factor
        hit = artillery_damage(result.score - cover)
        if hit:
            state = _with_extra(
                state,
                works=tuple(damage(w, 1) if w.id == work.id else w for w in state.extra.works),
            )
            log.add("work", f"{work.work.value} loses a defence point", rules.FORT_VALUES, work.id)
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


def _bombard(state: WillState, action: Bombard, log: _Log) -> WillState:
    firer = _own(state, action.firer, firing_side(state), action)
    if firer.id in state.extra.fired:
        raise _illegal(action, f"{firer.name} has already fired", rules.FIRING)
    if not firer.troop.is_gun or is_canister(firer, action.facts):
        raise _illegal(action, "only guns firing ball damage works", rules.FORT_VALUES)
    work = _work(state, action.work, action)
    mods = fire_modifiers(
        firer, attrs.evolve(action.facts, cover=Cover.OPEN), state.extra.options, action
    )
    after = bombard(work, mods.total, dice=log.dice)
    log.add(
        "work",
        f"{firer.name} bombards {work.work.value}: {after.points} points left",
        rules.FORT_VALUES,
        work.id,
    )
    return _with_extra(_with_work(state, after), fired=state.extra.fired | {firer.id})


def _ready_demolitions(state: WillState) -> tuple[Demolition, ...]:
    """Demolitions whose layers (of the moving side) moved away this move."""
    return tuple(
        d
        for d in state.extra.demolitions
        if d.away and state.unit(d.unit).side == state.extra.moving
    )


def _detonate(state: WillState, action: Detonate, log: _Log) -> WillState:
    current = next((d for d in state.extra.demolitions if d.work == action.work and d.away), None)
    if current is None or state.unit(current.unit).side != state.extra.moving:
        raise _illegal(action, "no charge ready to go off there", rules.DEMOLITION)
    work = _work(state, action.work, action)
    destroyed = demolish(work, current.charges, dice=log.dice)
    log.add(
        "demolition",
        f"{work.work.value} {'destroyed' if destroyed else 'stands'}",
        rules.DEMOLITION,
        work.id,
    )
    if destroyed:
        state = _with_work(state, attrs.evolve(work, points=0))
    radius = blast_radius(current.charges)
    for uid in sorted(action.within):
        unit = state.unit(uid)
        if not unit.on_table:
            continue
        r = demolition_blast(unit, dice=log.dice, options=state.extra.options)
        log.add("demolition", f'{unit.name} within {radius}": {r}', rules.DEMOLITION, uid)
        if r.hit:
            state = _lose(state, unit, 1, log, rules.DEMOLITION)
        after = state.unit(uid)
        if r.shaken and after.status is Status.STEADY:
            state = state.with_units(attrs.evolve(after, status=Status.SHAKEN))
    others = tuple(d for d in state.extra.demolitions if d is not current)
    return _with_extra(state, demolitions=others)


def _spread_highland(state: WillState, action: SpreadHighlandCharge, log: _Log) -> WillState:
    unit = _own(state, action.unit, state.extra.moving, action)
    if not state.extra.options.variant.hordes or unit.troop is not TroopType.HIGHLANDERS:
        raise _illegal(action, "only highlanders in the '45", rules.FORTY_FIVE)
    if unit.status is not Status.STEADY or unit.highland_charge or unit.id in state.extra.done:
        raise _illegal(action, f"{unit.name} cannot test", rules.FORTY_FIVE)
    if not any(u.highland_charge for u in state.units_of(unit.side)):
        raise _illegal(action, "no Highland charge is under way", rules.FORTY_FIVE)
    state = _with_extra(state, done=state.extra.done | {unit.id})
    if test_highland_charge(unit, action.in_musket_range, dice=log.dice):
        state = state.with_units(attrs.evolve(unit, highland_charge=True))
        log.add("highland", f"{unit.name} joins the Highland charge", rules.FORTY_FIVE, unit.id)
    else:
        log.add("highland", f"{unit.name} holds", rules.FORTY_FIVE, unit.id)
    return state


def _end_e(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if _ready_demolitions(state):
        raise _illegal(
            action,
            "a charge whose layers moved away goes off in this firing phase",
            rules.DEMOLITION,
        )
    return attrs.evolve(_with_extra(state, done=frozenset()), phase=F)


# ---- F
def _declare(state: WillState, action: DeclareCharge, log: _Log) -> WillState:
    charger = _own(state, action.charger, state.extra.moving, action)
    target = state.unit(action.target)
    if any(c.charger == charger.id for c in state.extra.charges):
        raise _illegal(action, f"{charger.name} has already declared", rules.CHARGING)
    if state.extra.second_round and charger.id not in state.extra.winners:
        raise _illegal(
            action, "only cavalry that charged successfully charge again", rules.SECOND_CHARGE
        )
    check_charge(charger, target, action.distance, action.in_front, action)
    others = _charges_on(state, target.id)
    if others and others[0].facts != action.facts:
        raise _illegal(action, "one charged unit has one set of position facts", rules.CHARGING)
    charge = Charge(
        charger.id, target.id, action.distance, action.facts, action.over_obstacle, action.uphill
    )
    log.add("charge", f"{charger.name} charges {target.name}", rules.CHARGING, charger.id)
    return _with_extra(state, charges=(*state.extra.charges, charge))


def _end_f(state: WillState, action: EndPhase, log: _Log) -> WillState:
    return attrs.evolve(state, phase=G)


# ---- G
def _test_charged(state: WillState, action: TestCharged, log: _Log) -> WillState:
    chargers = tuple(state.unit(c.charger) for c in _charges_on(state, action.target))
    if not chargers or _test_of(state, action.target) is not None:
        raise _illegal(action, "not a charged unit awaiting its test", rules.CHARGED_TEST)
    target = state.unit(action.target)
    facts = _charges_on(state, action.target)[0].facts
    opts = state.extra.options
    if not target.on_table:
        result = ChargedResult.SURRENDERS
        log.add("charged", f"{target.name} is no longer on the table", rules.CHARGING, target.id)
    else:
        result = test_charged(target, chargers, facts, dice=log.dice, options=opts)
        log.add("charged", f"{target.name} {result.value}", rules.CHARGED_TEST, target.id)
        if result in (ChargedResult.SURRENDERS, ChargedResult.ROUTS_SURRENDERS):
            state = state.with_units(attrs.evolve(target, status=Status.SURRENDERED))
        elif result is ChargedResult.ROUTS:
            routed = attrs.evolve(target, status=Status.ROUTING, routed_last_move=True)
            routed = end_highland_charge(routed, False, True)
            if target.troop is TroopType.WAGON:
                routed = attrs.evolve(routed, immobilised=True)
            state = state.with_units(routed)
            state = _lose(state, state.unit(target.id), 1, log, rules.CHARGED_TEST)
    # An already routing unit, or one charged in the rear that routed, has taken its one
    # surrender test here (Surrender (a), (b)); it does not test again at contact.
    surrender_tested = target.routing or (
        facts.face is Face.REAR and result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS)
    )
    tested = TestedCharge(
        action.target,
        result,
        decided=result is not ChargedResult.COUNTER_CHARGE,
        surrender_tested=surrender_tested,
    )
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS, ChargedResult.SURRENDERS):
        state = _with_extra(
            state, winners=state.extra.winners | {c.id for c in chargers if c.troop.is_cavalry}
        )
    return _with_extra(state, tests=(*state.extra.tests, tested))


def _end_g(state: WillState, action: EndPhase, log: _Log) -> WillState:
    untested = {c.target for c in state.extra.charges} - {t.target for t in state.extra.tests}
    if untested:
        raise _illegal(action, "every charged unit must test first", rules.CHARGING)
    return attrs.evolve(state, phase=H)


# ---- H
def _counter(state: WillState, action: CounterCharge, log: _Log) -> WillState:
    t = _test_of(state, action.target)
    if t is None or t.result is not ChargedResult.COUNTER_CHARGE or t.decided:
        raise _illegal(
            action, "only a unit that scored below zero may counter-charge", rules.CHARGED_TEST
        )
    tests = tuple(
        attrs.evolve(x, counter=action.charge, decided=True) if x.target == t.target else x
        for x in state.extra.tests
    )
    name = state.unit(action.target).name
    log.add(
        "counter",
        f"{name} {'counter-charges' if action.charge else 'stands'}",
        rules.CHARGED_TEST,
        action.target,
    )
    return _with_extra(state, tests=tests)


def _evade(state: WillState, action: Evade, log: _Log) -> WillState:
    t = _test_of(state, action.target)
    unit = state.unit(action.target)
    if not state.extra.options.evade:
        raise _illegal(action, "evasion is an option not in play", rules.CHARGING)
    if (
        t is None
        or t.evaded
        or t.result not in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE)
        or not (unit.troop.is_cavalry or unit.arm.value == "open order foot")
    ):
        raise _illegal(
            action, "only open order foot or cavalry that did not rout evade", rules.CHARGING
        )
    tests = tuple(
        attrs.evolve(x, evaded=True, decided=True) if x.target == t.target else x
        for x in state.extra.tests
    )
    log.add("evade", f"{unit.name} evades", rules.CHARGING, unit.id)
    return _with_extra(state, tests=tests)


def _end_h(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if any(not t.decided for t in state.extra.tests):
        raise _illegal(action, "every counter-charge choice must be made", rules.CHARGED_TEST)
    return attrs.evolve(state, phase=I)


# ---- I
def _contact(state: WillState, action: Contact, log: _Log) -> WillState:
    charge = next((c for c in _contacts_needed(state) if c.charger == action.charger), None)
    if charge is None:
        raise _illegal(action, "no charger waiting to learn where its target went", rules.CHARGING)
    charges = tuple(
        attrs.evolve(c, contact=True) if c.charger == charge.charger else c
        for c in state.extra.charges
    )
    state = _with_extra(state, charges=charges)
    target = state.unit(charge.target)
    tested = _test_of(state, charge.target)
    already = tested is not None and tested.surrender_tested
    if action.in_reach and target.on_table and target.routing and not already:
        if test_surrender(target, dice=log.dice, why="routing and successfully charged"):
            state = state.with_units(attrs.evolve(target, status=Status.SURRENDERED))
            log.add("surrender", f"{target.name} surrenders", rules.SURRENDER, target.id)
            return state
        log.add("contact", f"{target.name} is caught but runs on", rules.CHARGING, target.id)
    else:
        log.add(
            "contact",
            f"{state.unit(charge.charger).name} takes the ground",
            rules.CHARGING,
            charge.charger,
        )
    return state


def _end_i(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if _contacts_needed(state):
        raise _illegal(action, "chargers of routed or evaded units must move first", rules.CHARGING)
    return attrs.evolve(state, phase=J)


# ---- J
def _melee(state: WillState, action: ResolveMelee, log: _Log) -> WillState:
    if action.target not in _pending_melees(state):
        raise _illegal(action, "no melee to resolve there", rules.MELEE)
    t = _test_of(state, action.target)
    assert t is not None
    target = state.unit(action.target)
    charges = tuple(c for c in _charges_on(state, action.target) if state.unit(c.charger).on_table)
    facts = charges[0].facts
    attackers = tuple(
        Fighter(
            state.unit(c.charger),
            charging=True,
            over_obstacle=c.over_obstacle,
            uphill=c.uphill,
            charging_building=c.facts.in_building,
            charging_fortification=c.facts.in_fortification,
            front=not action.fronts or c.charger in action.fronts,
        )
        for c in charges
    )
    defender = Fighter(
        target,
        charging=t.counter,
        flank=facts.face is Face.FLANK,
        rear=facts.face is Face.REAR,
        front=not action.fronts or target.id in action.fronts,
    )
    helpers = tuple(
        Fighter(
            _own(state, uid, target.side, action), front=not action.fronts or uid in action.fronts
        )
        for uid in action.also_defending
        if uid != target.id
    )
    if helpers and (len(attackers) > 1 or len(helpers) > 1):
        raise _illegal(action, "one attacker against at most two defenders", rules.MELEE)
    defenders = (defender, *helpers)
    melee = Melee(attackers, defenders, defender_behind_obstacle=facts.behind_obstacle)
    outcome = resolve_melee(melee, dice=log.dice, options=state.extra.options)
    log.add("melee", f"melee at {target.name}: {outcome}", rules.MELEE, target.id)
    state = _with_extra(state, resolved=state.extra.resolved | {target.id})
    if not outcome.loser:
        return state
    losers = attackers if outcome.loser == "attackers" else defenders
    winners = defenders if outcome.loser == "attackers" else attackers
    if outcome.loser == "defenders":
        state = _with_extra(
            state,
            winners=state.extra.winners | {f.unit.id for f in winners if f.unit.troop.is_cavalry},
        )
    hit = state.unit(outcome.affected)
    fighter = next(f for f in losers if f.unit.id == hit.id)
    if outcome.effect is Effect.ROUT:
        # Note (a) concerns units routed in the enemy's charge or melee phases only.
        fresh = hit.side != state.extra.moving
        after = attrs.evolve(hit, status=Status.ROUTING, routed_last_move=fresh)
        if hit.troop is TroopType.WAGON:
            after = attrs.evolve(after, immobilised=True)
        state = state.with_units(end_highland_charge(after, True, True))
        state = _lose(state, state.unit(hit.id), 2, log, rules.MELEE)
        state = _general_risk(state, hit.id, Risk.MELEE_ROUT, action.chain_within_18, log)
        if (
            fighter.rear
            and state.unit(hit.id).on_table
            and test_surrender(hit, dice=log.dice, why="charged in the rear and routed")
        ):
            state = state.with_units(attrs.evolve(state.unit(hit.id), status=Status.SURRENDERED))
            log.add("surrender", f"{hit.name} surrenders", rules.SURRENDER, hit.id)
    else:
        status = Status.ROUTING if hit.routing else Status.SHAKEN
        state = state.with_units(end_highland_charge(attrs.evolve(hit, status=status), True, True))
        state = _lose(state, state.unit(hit.id), outcome.effect.loss, log, rules.MELEE)
        state = _general_risk(state, hit.id, Risk.MELEE_LOSS, action.chain_within_18, log)
    for f in losers:
        if f.unit.id != hit.id:
            log.add("retire", f'{f.unit.name} retires 3"', rules.MELEE, f.unit.id)
    return state


def _end_j(state: WillState, action: EndPhase, log: _Log) -> WillState:
    if _pending_melees(state):
        raise _illegal(action, "every melee must be resolved", rules.MELEE)
    return attrs.evolve(state, phase=K)


# ---- K
def _second(state: WillState, action: SecondCharges, log: _Log) -> WillState:
    if state.extra.second_round:
        raise _illegal(action, "cavalry charge a second time only once", rules.SECOND_CHARGE)
    ready = [
        u
        for u in state.units_of(state.extra.moving)
        if u.id in state.extra.winners and can_charge(u)
    ]
    if not ready:
        raise _illegal(action, "no cavalry charged successfully", rules.SECOND_CHARGE)
    log.add("phase", "second cavalry charges", rules.SECOND_CHARGE)
    return attrs.evolve(
        _with_extra(state, second_round=True, charges=(), tests=(), resolved=frozenset()),
        phase=F,
    )


def _end_k(state: WillState, action: EndPhase, log: _Log) -> WillState:
    other = firing_side(state)
    turn = state.turn + (1 if other == state.extra.first else 0)
    extra = WillExtra(
        moving=other,
        first=state.extra.first,
        options=state.extra.options,
        works=state.extra.works,
        demolitions=state.extra.demolitions,
    )
    log.add("phase", f"{other} moves", rules.SEQUENCE)
    return attrs.evolve(state, extra=extra, phase=A, turn=turn)


Handler = Callable[[WillState, object, _Log], WillState]
_HANDLERS: dict[tuple[str, type], Handler] = {
    (A, TestMorale): _test_morale,  # type: ignore[dict-item]
    (A, EndPhase): _end_a,  # type: ignore[dict-item]
    (B, CompulsoryMove): _compulsory_move,  # type: ignore[dict-item]
    (B, EndPhase): _end_b,  # type: ignore[dict-item]
    (C, Move): _move,  # type: ignore[dict-item]
    (C, ChangeFormation): _change_formation,  # type: ignore[dict-item]
    (C, Limber): _limber,  # type: ignore[dict-item]
    (C, Order): _order,  # type: ignore[dict-item]
    (C, IndependentTest): _independent,  # type: ignore[dict-item]
    (C, HighlandChargeMove): _highland_move,  # type: ignore[dict-item]
    (C, MoveGeneral): _move_general,  # type: ignore[dict-item]
    (C, Engineer): _engineer,  # type: ignore[dict-item]
    (C, LayCharge): _lay_charge,  # type: ignore[dict-item]
    (C, MoveAway): _move_away,  # type: ignore[dict-item]
    (C, EndPhase): _end_c,  # type: ignore[dict-item]
    (D, ChangeFacing): _change_facing,  # type: ignore[dict-item]
    (D, EndPhase): _end_d,  # type: ignore[dict-item]
    (E, Fire): _fire,  # type: ignore[dict-item]
    (E, Bombard): _bombard,  # type: ignore[dict-item]
    (E, Detonate): _detonate,  # type: ignore[dict-item]
    (E, SpreadHighlandCharge): _spread_highland,  # type: ignore[dict-item]
    (E, EndPhase): _end_e,  # type: ignore[dict-item]
    (F, DeclareCharge): _declare,  # type: ignore[dict-item]
    (F, Fire): _fire,  # type: ignore[dict-item]
    (F, EndPhase): _end_f,  # type: ignore[dict-item]
    (G, TestCharged): _test_charged,  # type: ignore[dict-item]
    (G, EndPhase): _end_g,  # type: ignore[dict-item]
    (H, CounterCharge): _counter,  # type: ignore[dict-item]
    (H, Evade): _evade,  # type: ignore[dict-item]
    (H, EndPhase): _end_h,  # type: ignore[dict-item]
    (I, Contact): _contact,  # type: ignore[dict-item]
    (I, EndPhase): _end_i,  # type: ignore[dict-item]
    (J, ResolveMelee): _melee,  # type: ignore[dict-item]
    (J, EndPhase): _end_j,  # type: ignore[dict-item]
    (K, SecondCharges): _second,  # type: ignore[dict-item]
    (K, EndPhase): _end_k,  # type: ignore[dict-item]
}


def _default_range(firer: WillUnit) -> float:
    weapon = firer.fires_with
    if weapon is None:
        return 0.0
    return float(RANGES[weapon][0])


def _candidates(state: WillState) -> tuple[WillAction, ...]:
    """Actions worth trying now, with default table facts."""
    moving = state.units_of(state.extra.moving)
    firing = state.units_of(firing_side(state))
    out: list[WillAction] = [EndPhase()]
    p = state.phase
    if p == A:
        out += [TestMorale(u.id) for u in moving]
    elif p == B:
        for u in moving:
            inches = 0.0
            if u.on_table and not u.immobilised:
                try:
                    inches = float(move_distance(u, options=state.extra.options))
                except IllegalActionError:
                    inches = 0.0
            out.append(CompulsoryMove(u.id, inches))
    elif p == C:
        out += [Move(u.id) for u in moving]
        out += [HighlandChargeMove(u.id) for u in moving if u.highland_charge]
        out += [IndependentTest(u.id) for u in moving]
        out += [
            MoveGeneral(g.id, 0.0, u.id)
            for g in state.commanders
            if g.side == state.extra.moving
            for u in moving
        ]
        for w in state.extra.works:
            for u in moving:
                out += [Engineer(u.id, w.id, build) for build in (False, True)]
                out += [LayCharge(u.id, w.id, 1)]
        out += [MoveAway(d.unit) for d in state.extra.demolitions]
        for g in state.commanders:
            if g.side != state.extra.moving:
                continue
            out += [Order(g.id, u.id) for u in moving]
            own = [u.id for u in moving if u.commander == g.id]
            if len(own) > 1:
                out.append(Order(g.id, own[0], with_units=tuple(own[1:])))
    elif p == D:
        out += [ChangeFacing(u.id, 0.0) for u in firing]
    elif p == E:
        out += [Detonate(d.work) for d in state.extra.demolitions]
        out += [
            Bombard(f.id, w.id, FireFacts(_default_range(f) + 1))
            for f in firing
            for w in state.extra.works
        ]
        out += [Fire(f.id, t.id, FireFacts(_default_range(f))) for f in firing for t in moving]
    elif p == F:
        out += [DeclareCharge(c.id, t.id, 0.0) for c in moving for t in firing]
    elif p == G:
        out += [TestCharged(c.target) for c in state.extra.charges]
    elif p == H:
        for t in state.extra.tests:
            out += [CounterCharge(t.target, True), CounterCharge(t.target, False), Evade(t.target)]
    elif p == I:
        out += [Contact(c.charger, False) for c in state.extra.charges]
    elif p == J:
        out += [ResolveMelee(t) for t in _pending_melees(state)]
    elif p == K:
        out.append(SecondCharges())
    unique: list[WillAction] = []
    for a in out:
        if a not in unique:
            unique.append(a)
    return tuple(unique)


TURN = WillTurn()
