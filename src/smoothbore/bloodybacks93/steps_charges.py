"""The charge in the turn: its candidates and check, and its handler (the chargers' moves,
evades, routing targets caught, deferring, the melee with the moves, pursuit and risks that
follow) (Bloodybacks 9.3, Charges and melee)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence

import attrs

from smoothbore.core import Dice, IllegalActionError, InvalidValueError, Log, revised
from smoothbore.core.stages import Again, Roll, Staged, closing
from smoothbore.table import Table

from . import activation as act
from . import commanders, movement, situations
from .actions import Charge
from .charges import (
    ChargeFacts,
    evade,
    evade_move,
    may_evade,
    must_evade,
    pursuit_distance,
)
from .melee import (
    FALL_BACK_INCHES,
    ChargeOutcome,
    ChargeResult,
    Fate,
    charge_in_detail,
    resolve_charge,
)
from .options import Options
from .reports import (
    Facts,
    Moves,
    Pursuit,
    Retreat,
    retire,
    retire_after_test,
    risk_facts,
    test_facts,
)
from .rules import (
    RULE_CHARGES,
    RULE_CHARGING_ROUTERS,
    RULE_EVADE,
    RULE_MULTIPLE,
    RULE_PURSUIT,
    RULE_RISK,
    RULE_SEQUENCE,
)
from .state import (
    DeferredMelee,
    State,
    attached_commanders,
    leader_attached,
    led_units,
    with_units,
)
from .steps_units import activated_unit, spend
from .units import Commander, Formation, Unit

CHARGE_COST = act.ActionKind.CHARGE.cost


def may_charge(unit: Unit, artillery_may_charge: bool) -> bool:
    """Infantry and cavalry charge; unlimbered guns only under the option, limbered guns
    never (Charges and melee; B47)."""
    if not unit.is_artillery:
        return True
    return artillery_may_charge and unit.formation is Formation.UNLIMBERED


def may_pursue(unit: Unit) -> bool:
    """Only infantry and cavalry have pursuit moves (Pursuit)."""
    return unit.is_infantry or unit.is_cavalry


def _groups(ids: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Each unit first, with every set of the others (one spelling per group)."""
    for lead in ids:
        others = [i for i in ids if i != lead]
        for size in range(len(others) + 1):
            for rest in itertools.combinations(others, size):
                yield (lead, *rest)


def candidates_charge(state: State) -> Iterator[Charge]:
    """Every group of units activated by the card with a charge's two actions left (each
    first in turn, the one whose impetus is rolled) against one enemy unit, and each of them
    alone against every group of enemy units (each first in turn) (a multiple unit melee:
    B13): fought at once, with or without pursuit, or deferred to the end of the turn (the
    plain facts: targets in the open, front contact). On a table, only groups where each
    charger may reach one of the targets and each target may be reached
    (``situations.may_reach``, a cheap test: the check measures the charge), in the order
    of the walk over every group."""
    card = state.extra.card
    if card is None:
        return
    option = state.options.artillery_may_charge
    chargers = []
    for entry in state.extra.activated:
        unit = state.unit(entry.unit_id)
        if entry.actions >= CHARGE_COST and not unit.gone and may_charge(unit, option):
            chargers.append(unit)
    if not chargers:
        return
    pursuers = {u.id for u in chargers if may_pursue(u)}
    ids = sorted(u.id for u in chargers)
    table = state.extra.table
    fights: Iterator[tuple[tuple[str, ...], tuple[str, ...]]]
    if table is None:
        enemies = sorted(u.id for u in state.units if u.side != card.side and not u.destroyed)
        everyone = list(_groups(enemies))
        fights = ((group, aimed) for group in _groups(ids) for aimed in everyone
                  if len(group) == 1 or len(aimed) == 1)
    else:
        fights = iter(_fights_on_table(state, table, chargers, ids))
    for group, aimed in fights:
        yield Charge(group, aimed)
        if any(i in pursuers for i in group):
            yield Charge(group, aimed, pursue=True)
        yield Charge(group, aimed, defer=True)


def _fights_on_table(state: State, table: Table, chargers: list[Unit], ids: list[str]
                     ) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The (chargers, targets) of the charges offered on a table (``candidates_charge``):
    each charger alone against every group of the enemies it may reach, and every group of
    two or more chargers that may each reach one enemy against it; in the order of the walk
    over every group of chargers, and for each over every group of the enemies they may
    reach (``_groups``), without walking the groups that cannot be offered."""
    card = state.extra.card
    assert card is not None
    on_table = sorted(u.id for u in state.units
                      if u.side != card.side and not u.destroyed and u.id in table.units)
    near: dict[str, frozenset[str]] = {}
    for unit in chargers:
        longest = situations.most_allowed(unit, movement.MoveFacts())
        near[unit.id] = situations.reachable(
            table, unit.id, on_table, longest) if unit.id in table.units else frozenset()
    found: list[tuple[GroupOrder, GroupOrder, tuple[str, ...], tuple[str, ...]]] = []
    for charger in ids:
        reached = sorted(near[charger])
        for aimed in _groups(reached):
            found.append((_group_order(ids, (charger,)), _group_order(reached, aimed),
                          (charger,), aimed))
    by_target: dict[str, list[str]] = {}
    for charger in ids:
        for target in near[charger]:
            by_target.setdefault(target, []).append(charger)
    for target, reaching in by_target.items():
        for group in _groups(reaching):
            if len(group) > 1:
                reached = sorted(frozenset.union(*(near[c] for c in group)))
                found.append((_group_order(ids, group), _group_order(reached, (target,)),
                              group, (target,)))
    found.sort(key=lambda fight: (fight[0], fight[1]))
    return [(group, aimed) for _, _, group, aimed in found]


GroupOrder = tuple[int, int, tuple[int, ...]]


def _group_order(ids: Sequence[str], group: tuple[str, ...]) -> GroupOrder:
    """Where ``_groups(ids)`` yields ``group`` (its first, then how many others and which,
    by their places among the others): a key that sorts groups as the walk yields them."""
    lead = ids.index(group[0])
    places = tuple(i - (i > lead) for i in (ids.index(g) for g in group[1:]))
    return (lead, len(places), places)


_PLAIN = Charge(("_",), ("_",))


def _measured(state: State, action: Charge) -> tuple[Charge, situations.MeasuredCharge | None]:
    """The charge as the table measures it (the action itself without a table): an action
    that carries measured facts on a table is refused (B56)."""
    if state.extra.table is None:
        return action, None
    if situations.charge_carries_measures(action.facts) or (
        action.target_in_open, action.hard_cover, action.charger_spare_move, action.distance,
        action.ground,
    ) != (_PLAIN.target_in_open, _PLAIN.hard_cover, _PLAIN.charger_spare_move,
          _PLAIN.distance, _PLAIN.ground):
        raise IllegalActionError(
            action, "the table measures this: leave the distance, ground, contact, cover, "
            "woods, slope and open ground at their defaults", RULE_CHARGES)
    measured = situations.charge_on_table(state, action.unit_ids, action.target_ids,
                                          action.facts, action)
    return attrs.evolve(
        action, facts=measured.facts, target_in_open=measured.target_in_open,
        hard_cover=measured.hard_cover, distance=measured.distance, ground=measured.ground,
    ), measured


Measured = tuple[Charge, "situations.MeasuredCharge | None"]
"""What a charge's check measured, for its handler: the charge with the facts the table
measured (the action itself without a table) and the table's measure."""


def check_charge(state: State, action: Charge) -> Measured:
    """Units activated together, each with the charge's two actions, charge enemy units on
    the table; limbered guns never charge and unlimbered ones only under the option; the
    target evades if it must and only if it may; a deferred melee's pursuit is chosen when it
    is resolved (Charges and melee; Evade; Action tariff; Pursuit)."""
    if not action.unit_ids or not action.target_ids:
        raise IllegalActionError(action, "a charge needs chargers and targets", RULE_CHARGES)
    named = (*action.unit_ids, *action.target_ids)
    if len(set(named)) != len(named):
        raise IllegalActionError(action, "each unit charges or is charged once", RULE_CHARGES)
    if len(action.unit_ids) > 1 and len(action.target_ids) > 1:
        raise IllegalActionError(
            action, "a multiple unit melee joins several chargers against one target, or "
            "one charger against the units it contacts (B13)", RULE_MULTIPLE)
    for unit_id in named:
        state.unit(unit_id)
    for unit_id in action.unit_ids:
        activated_unit(state, action, unit_id, CHARGE_COST)
    if any(state.unit(t).side == state.unit(action.unit_ids[0]).side
           or state.unit(t).destroyed for t in action.target_ids):
        raise IllegalActionError(action, "charge only enemy units on the table", RULE_CHARGES)
    action, measured = _measured(state, action)
    facts = action.facts
    if facts.charger_commander_attached or facts.led:
        raise InvalidValueError(
            "Charge.facts", facts,
            "no commanders: the battle state says which commanders are attached",
        )
    if action.distance is not None and action.distance < 0:
        raise InvalidValueError("distance", action.distance, "None or 0 or more inches")
    if action.charger_spare_move < 0:
        raise InvalidValueError("charger_spare_move", action.charger_spare_move, "0 or more")
    if action.ground.retrograde:
        raise IllegalActionError(action, "a charge moves forward", RULE_CHARGES)
    chargers = []
    for unit_id in action.unit_ids:
        unit, _ = activated_unit(state, action, unit_id, CHARGE_COST)
        if unit.is_artillery and unit.formation is not Formation.UNLIMBERED:
            raise IllegalActionError(action, f"limbered guns do not charge: {unit.name}",
                                     RULE_CHARGES)
        if not may_charge(unit, state.options.artillery_may_charge):
            raise IllegalActionError(
                action,
                f"artillery does not charge unless option artillery_may_charge is on: "
                f"{unit.name}",
                RULE_CHARGES,
            )
        try:
            movement.check_move(unit, action.ground)
        except IllegalActionError as error:
            raise IllegalActionError(action, error.why, error.rule) from None
        chargers.append(unit)
    lead = chargers[0]
    targets = [state.unit(t) for t in action.target_ids]
    if any(t.side == lead.side or t.destroyed for t in targets):
        raise IllegalActionError(action, "charge only enemy units on the table", RULE_CHARGES)
    if action.evade is False and any(
        must_evade(t, lead, in_open=action.target_in_open, hard_cover=action.hard_cover)
        for t in targets
    ):
        raise IllegalActionError(action, "a target must evade in the open", RULE_EVADE)
    if action.evade and not any(may_evade(t, lead, hard_cover=action.hard_cover)
                                for t in targets):
        raise IllegalActionError(action, "none of the targets may evade", RULE_EVADE)
    if action.pursue:
        if action.defer:
            raise IllegalActionError(
                action, "a deferred melee's pursuit is chosen when it is resolved",
                RULE_SEQUENCE,
            )
        if not any(may_pursue(u) for u in chargers):
            raise IllegalActionError(action, "only infantry and cavalry pursue", RULE_PURSUIT)
    return action, measured


def apply_charge(state: State, action: Charge, log: Log, ruling: Measured) -> State:
    """The charge: each charger spends its two actions and, given the distance, makes its
    move; evaders move off (caught if the chargers can go on far enough); routing targets
    are caught; the rest fight now or at the end of the turn (Charges and melee)."""
    action, measured = ruling
    extra = state.extra
    for unit_id in action.unit_ids:
        extra = spend(state.replace(extra=extra), unit_id, CHARGE_COST)
    new = state.replace(extra=extra)
    chargers = tuple(state.unit(u) for u in action.unit_ids)
    spare = action.charger_spare_move
    if action.distance is not None:
        new, chargers, spare = _charge_moves(new, log, chargers, action, action.distance)
        if measured is not None:
            new = situations.in_contact_after(new, measured.reaches,
                                              tuple(c.id for c in chargers))
        if not chargers:
            return new
    lead = chargers[0]
    standing: list[Unit] = []
    for target_id in action.target_ids:
        target = new.unit(target_id)
        compulsory = must_evade(
            target, lead, in_open=action.target_in_open, hard_cover=action.hard_cover
        )
        wants = action.evade if action.evade is not None else compulsory
        if target.routing:
            caught = revised(target, destroyed=True, routing=False)
            log.add("charge",
                    f"{target.name} is routing and cannot stand: caught by the charge and "
                    "destroyed", RULE_CHARGING_ROUTERS, target.id)
            new = with_units(new, caught)
        elif wants and may_evade(target, lead, hard_cover=action.hard_cover):
            new = _evade(new, log, target, chargers, action, spare, measured is not None)
        else:
            standing.append(target)
    if not standing:
        return new
    if action.defer:
        melee = DeferredMelee(
            tuple(c.id for c in chargers), tuple(t.id for t in standing), action.facts
        )
        log.add("charge",
                f"{' and '.join(c.name for c in chargers)} reach "
                f"{' and '.join(t.name for t in standing)}: the melee is deferred to the end "
                "of the turn", RULE_SEQUENCE, lead.id)
        return new.with_extra(deferred=(*new.extra.deferred, melee))
    return fight(new, log, chargers, tuple(standing), action.facts, action.pursue)


def _evade(state: State, log: Log, target: Unit, chargers: tuple[Unit, ...], action: Charge,
           spare: float, on_table: bool) -> State:
    """The target evades (Evade): on a table it makes its evade move straight back first,
    and is caught and destroyed if the chargers, going on their spare move straight ahead,
    reach it where it ended (still touching one, or directly ahead within the spare move,
    B58); without a table, if the spare move is at least the evade move. An evader not
    caught takes its DRP and morale test and makes the test's move."""
    lead = chargers[0]
    attached = leader_attached(state, target)
    moved: int | None = None
    reached: bool | None = None
    placed = state
    if on_table:
        moved = evade_move(target, dice=log.dice)
        placed = situations.retreat(state, ((target.id, Fate.FALLS_BACK, moved),),
                                    straight_back=True)
        reached = situations.evader_reached(placed, tuple(c.id for c in chargers), target.id,
                                            spare)
    result = evade(target, lead, dice=log.dice, charger_spare_move=spare,
                   hard_cover=action.hard_cover, commander_attached=attached, moved=moved,
                   reached=reached)
    reported: Facts = {"test": "evade", "distance": result.distance,
                       "caught": result.caught, "result": "caught" if result.caught else "evaded"}
    if result.morale is not None:
        reported |= test_facts(result.morale, "morale_")
    log.add("evade", f"{target.name} {result}", RULE_EVADE, target.id, facts=reported)
    if result.caught:
        return with_units(state, result.unit)
    moves = () if result.morale is None else retire_after_test(
        log, result.unit, result.morale.result)
    if not on_table:  # the evade move, straight back, then the test's move
        moves = ((target.id, Fate.FALLS_BACK, result.distance), *moves)
    return situations.retreat(with_units(placed, result.unit), moves, log=log)


def _charge_moves(
    state: State, log: Log, chargers: tuple[Unit, ...], action: Charge, distance: float
) -> tuple[State, tuple[Unit, ...], float]:
    """Each charger's move towards the target: those that reach it make contact; the spare
    move is the least any of them has left (Charges and melee: units enter melee if they can
    move far enough, using a movement action; B26)."""
    reached: list[Unit] = []
    spare: float | None = None
    for unit in chargers:
        result = movement.move(unit, action.ground, dice=log.dice)
        state = with_units(state, result.unit)
        reach = [d for d in result.distances if d >= distance]
        if reach:
            reached.append(result.unit)
            # cavalry move exactly one of their distances: the longest that reaches
            left = max(reach) - distance
            spare = left if spare is None else min(spare, left)
            text = f"{unit.name} charges home ({result})"
        else:
            text = f"{unit.name} falls short of {distance:g} inches ({result})"
        log.add("charge move", text, RULE_CHARGES, unit.id)
    return state, tuple(reached), spare or 0.0


def fight(
    state: State,
    log: Log,
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    pursue: bool,
) -> State:
    """Resolve the melee of a charge that made contact, with the commanders the state shows
    attached (any with the chargers adds an impetus die; each unit's own commander or the
    CinC helps that unit's tests), then the moves, pursuit and risks that follow: the step
    closes with ``fight_and_risks`` (a staged rule whose result is the new state, so the
    exact odds of the step group its outcomes by their view before they multiply)."""
    facts = attrs.evolve(
        facts,
        charger_commander_attached=any(attached_commanders(state, u.id) for u in chargers),
        led=led_units(state, chargers + defenders),
    )
    attached = tuple(attached_commanders(state, u.id) for u in chargers + defenders)
    report = None if getattr(log.dice, "exact", False) else log
    return closing(fight_and_risks, state, chargers, defenders, facts, pursue, attached,
                   report, dice=log.dice)


@attrs.frozen(eq=False)
class _Step:
    """What the closing stages of a charge step read: the state before the fight and what
    the fight reads (``_Fight``)."""

    state: State
    fight: _Fight
    memo: dict[tuple[tuple[Unit, ...], Moves], State] = attrs.field(factory=dict)


def _begin_step(
    state: State, chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts,
    pursue: bool, attached: tuple[tuple[Commander, ...], ...], log: Log | None,
) -> tuple[_Step, None]:
    return _Step(state, _Fight(chargers, defenders, facts, state.options, pursue, attached,
                               log)), None


def _fight_stage(step: _Step, _: None, *, dice: Dice) -> tuple[tuple[Unit, ...], Moves]:
    """The melee, the moves and the pursuit (``melee_and_moves``): every unit after, and the
    moves rolled."""
    fight = step.fight
    return melee_and_moves(fight.chargers, fight.defenders, fight.facts, fight.options,
                           fight.pursue, fight.attached, fight.log, dice=dice)


Risked = tuple[tuple[Unit, ...], tuple[Commander, ...], Moves]
"""Every unit after the fight, the commanders hit and the moves rolled."""


def _risks_stage(
    step: _Step, fought: tuple[tuple[Unit, ...], Moves], *, dice: Dice
) -> Risked | Roll[Risked]:
    """Risk to every commander attached to a unit that took losses
    (``risk_to_commanders``): the units and the commanders hit. Exact odds take the risks
    as one chance node beside the units, without running the stage once per outcome."""
    fight = step.fight
    units, moves = fought
    at_risk = _at_risk(fight.chargers + fight.defenders, units, fight.attached)
    if not at_risk:
        return units, (), moves
    if getattr(dice, "exact", False):
        return Roll(risk_to_commanders.check(at_risk, None), risk_to_commanders.name,
                    risk_to_commanders.rule, functools.partial(_beside, fought))
    return units, risk_to_commanders(at_risk, fight.log, dice=dice), moves


def _beside(fought: tuple[tuple[Unit, ...], Moves], hit: tuple[Commander, ...]) -> Risked:
    return fought[0], hit, fought[1]


def _new_state(step: _Step, value: Risked) -> State:
    """The state after the fight (the units first, once per distinct units), the moves
    made on the table (``situations.after_melee``)."""
    units, hit, moves = value
    new = step.memo.get((units, moves))
    if new is None:
        new = step.memo[(units, moves)] = situations.after_melee(
            with_units(step.state, *units), moves, step.fight.log)
    return new.with_commanders(*hit) if hit else new


fight_and_risks: Staged[State] = Staged(
    "charge: melee, moves, pursuit and risks", RULE_CHARGES, _begin_step,
    (_fight_stage, _risks_stage), _new_state,
    doc="""The end of a charge step: the melee and what follows (``melee_and_after``),
    then the risk to the commanders of units that took losses (``risk_to_commanders``);
    the result is the new state. Different units or commanders give different states
    (``one_to_one``).""",
    one_to_one=True,
)


@attrs.frozen(eq=False)
class _Fight:
    """What every stage of a fight reads: the units before it, the facts, the options,
    whether the winners pursue, the commanders attached to each unit, and the log to report
    to (None when the exact odds compose it: only the units and commanders count then)."""

    chargers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    facts: ChargeFacts
    options: Options
    pursue: bool
    attached: tuple[tuple[Commander, ...], ...]
    log: Log | None


def _log(fight: _Fight, dice: Dice) -> Log:
    """The step's log in play; a log of these dice, whose reports nobody reads, when the
    exact odds compose the fight."""
    return fight.log if fight.log is not None else Log(dice)


Fought = tuple[tuple[Unit, ...], tuple[Fate, ...], bool, int, tuple[Commander, ...], Moves]
"""Between the stages: every unit after the melee, its fate, whether the chargers fall
back, the next unit to move, pursue or risk its commanders, the commanders hit so far, and
the moves rolled so far (in play only: exact odds have no positions to move)."""


def _begin_fight(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts,
    options: Options, pursue: bool, attached: tuple[tuple[Commander, ...], ...],
    log: Log | None,
) -> tuple[_Fight, None]:
    return _Fight(chargers, defenders, facts, options, pursue, attached, log), None


def _melee_stage(fight: _Fight, _: None, *, dice: Dice) -> Fought:
    """The charge from impetus to the last cohesion test (``resolve_charge``)."""
    log = fight.log
    if log is None:  # only the units and their fates count
        outcome: ChargeResult | ChargeOutcome = resolve_charge(
            fight.chargers, fight.defenders, fight.facts, dice=dice, options=fight.options)
    else:
        outcome = charge_in_detail(fight.chargers, fight.defenders, fight.facts, dice=dice,
                                   options=fight.options)
        names = " and ".join(c.name for c in fight.chargers)
        against = " and ".join(d.name for d in fight.defenders)
        log.add("melee", f"{names} charge {against}: {_describe(outcome, fight.defenders)}",
                RULE_CHARGES, fight.chargers[0].id, facts=melee_facts(outcome))
    return (outcome.chargers + outcome.defenders, outcome.charger_fates + outcome.defender_fates,
            outcome.chargers_fall_back, 0, (), NO_MOVES)


def _retire_stage(fight: _Fight, value: Fought, *, dice: Dice) -> Fought | Again[Fought]:
    """Push back and rout moves, a unit at a time (Morale: Push Back move, Rout move); the
    chargers still standing fall back 3" when the enemy stays in contact (Charges and
    melee)."""
    units, fates, fall_back, index, hit, moves = value
    while index < len(units):
        unit, fate = units[index], fates[index]
        index += 1
        if fate is Fate.FALLS_BACK or fate is Fate.ROUTS:
            rolled = retire(_log(fight, dice), (unit,), (fate,))
            moves = _kept(fight, moves, rolled, ())
            if index < len(units):
                return Again((units, fates, fall_back, index, hit, moves))
    if fall_back and fight.log is not None:
        names = " and ".join(c.name for c in fight.chargers)
        fight.log.add("fall back", f'{names} fall back {FALL_BACK_INCHES}"', RULE_CHARGES,
                      fight.chargers[0].id)
        split = len(fight.chargers)
        back = tuple((u.id, Fate.FALLS_BACK, FALL_BACK_INCHES)
                     for u, f in zip(units[:split], fates[:split], strict=True)
                     if f is Fate.HOLDS and not u.gone)
        moves = _kept(fight, moves, back, ())
    return units, fates, fall_back, 0, hit, moves


def _pursuit_stage(fight: _Fight, value: Fought, *, dice: Dice) -> Fought | Again[Fought]:
    """Successful attackers, those holding their ground while an enemy routs, pursue it;
    the winner of a cavalry melee too (Pursuit; B30)."""
    units, fates, fall_back, index, hit, moves = value
    if fall_back or not fight.pursue:
        return value
    split = len(fight.chargers)
    last = len(units) if fight.facts.countercharged_by_cavalry else split
    while index < last:
        unit, fate = units[index], fates[index]
        enemy = fates[split:] if index < split else fates[:split]
        index += 1
        if Fate.ROUTS in enemy and fate is Fate.HOLDS and may_pursue(unit):
            distance = pursuit_distance(unit, dice=dice)
            _log(fight, dice).add("pursuit", f'{unit.name} pursues {distance}"', RULE_PURSUIT,
                                  unit.id, facts={"move": "pursuit", "distance": distance})
            moves = _kept(fight, moves, (), ((unit.id, distance),))
            if index < last:
                return Again((units, fates, fall_back, index, hit, moves))
    return units, fates, fall_back, 0, hit, moves


NO_MOVES: Moves = ((), ())


def _kept(fight: _Fight, moves: Moves, retreats: tuple[Retreat, ...],
          pursuits: tuple[Pursuit, ...]) -> Moves:
    """The moves so far with these added, in play (a log to report to); exact odds keep
    none, so that outcomes differing only in the inches moved merge."""
    if fight.log is None:
        return moves
    return (moves[0] + retreats, moves[1] + pursuits)


def _fight_result(fight: _Fight, value: Fought) -> tuple[Unit, ...]:
    return value[0]


def _fight_moves(fight: _Fight, value: Fought) -> tuple[tuple[Unit, ...], Moves]:
    return value[0], value[5]


melee_and_after: Staged[tuple[Unit, ...]] = Staged(
    "melee and what follows", RULE_CHARGES, _begin_fight,
    (_melee_stage, _retire_stage, _pursuit_stage), _fight_result,
    doc="""A charge that made contact: the melee (``resolve_charge``), then the push back
    and rout moves and the pursuit. The result is every unit after it (the moves are only
    reported). Exact odds compose it stage by stage, so the moves' rolls, which change
    nothing in the state, merge at once instead of multiplying the branches of the step.""",
)


melee_and_moves: Staged[tuple[tuple[Unit, ...], Moves]] = Staged(
    "melee and what follows, with its moves", RULE_CHARGES, _begin_fight,
    (_melee_stage, _retire_stage, _pursuit_stage), _fight_moves,
    doc="""``melee_and_after`` (the same stages), its result every unit after it with the
    moves rolled in play: the push backs, routs and falls back (``Retreat``) and the
    pursuits, which a table makes (``situations.after_melee``). Exact odds roll no moves
    (they have no positions): theirs are always none.""",
)


AtRisk = tuple[tuple[Commander, int, str], ...]
"""Each attached commander whose unit took losses, the losses and the unit's name."""
HitSoFar = tuple[int, tuple[Commander, ...]]
"""The next commander to roll for, and the commanders hit so far."""


def _begin_risk(at_risk: AtRisk, log: Log | None) -> tuple[tuple[AtRisk, Log | None], HitSoFar]:
    return (at_risk, log), (0, ())


def _risk_stage(
    context: tuple[AtRisk, Log | None], value: HitSoFar, *, dice: Dice
) -> HitSoFar | Again[HitSoFar] | Roll[HitSoFar | Again[HitSoFar]]:
    """One commander's risk roll (B31); if hit, his new state joins those hit. Exact odds
    take the roll as one chance node (``commanders.risk_to_commander``)."""
    at_risk, log = context
    index = value[0]
    leader, losses, name = at_risk[index]
    after = functools.partial(_after_risk, leader, value, len(at_risk))
    if getattr(dice, "exact", False):
        return Roll(commanders.risk_to_commander.check(leader, losses),
                    commanders.risk_to_commander.name, RULE_RISK, after)
    result = commanders.risk_to_commander(leader, losses, dice=dice)
    (log if log is not None else Log(dice)).add(
        "risk", f"{leader.name}, with {name}: {result}", RULE_RISK, leader.id,
        facts=risk_facts(result))
    return after(result)


def _after_risk(
    leader: Commander, value: HitSoFar, count: int, result: commanders.Risk
) -> HitSoFar | Again[HitSoFar]:
    index, hit = value
    if result.commander != leader:
        hit = (*hit, result.commander)
    index += 1
    return Again((index, hit)) if index < count else (index, hit)


def _hits(context: tuple[AtRisk, Log | None], value: HitSoFar) -> tuple[Commander, ...]:
    return value[1]


risk_to_commanders: Staged[tuple[Commander, ...]] = Staged(
    "risk to commanders", RULE_RISK, _begin_risk, (_risk_stage,), _hits,
    doc="""Risk to the commanders attached to units that took losses in a melee, one at a
    time (a melee loss is one stamina loss, B31): the commanders hit, in their new state,
    in order.""",
)


def _at_risk(
    before: tuple[Unit, ...], after: tuple[Unit, ...],
    attached: tuple[tuple[Commander, ...], ...],
) -> AtRisk:
    return tuple(
        (leader, new.stamina_losses - old.stamina_losses, old.name)
        for old, new, leaders in zip(before, after, attached, strict=True)
        if new.stamina_losses > old.stamina_losses
        for leader in leaders
    )


FATE_WORDS = {
    Fate.HOLDS: "holds",
    Fate.FALLS_BACK: "is pushed back",
    Fate.ROUTS: "routs",
    Fate.DESTROYED: "is destroyed",
}


def melee_facts(outcome: ChargeOutcome) -> Facts:
    """The facts of a charge's melee (Determine impetus; Check to stand; Resolve melee):
    ``test`` "melee", the ``impetus``, whether it was ``fought``, the melee ``successes``,
    ``failures`` and ``need``, the ``result`` (who won, or no melee), and for each unit by
    id its check to stand (``stand:<id>``), its cohesion test (``cohesion:<id>``) and its
    fate (``fate:<id>``: "holds", "falls back", "routs", "destroyed")."""
    facts: Facts = {"test": "melee", "impetus": outcome.impetus, "fought": outcome.fought,
                    "successes": outcome.successes, "failures": outcome.failures,
                    "need": outcome.melee_need, "result": outcome.winner}
    for unit, stand in zip(outcome.defenders, outcome.stand, strict=False):
        if stand is not None:
            facts[f"stand:{unit.id}"] = stand.value
    units = outcome.chargers + outcome.defenders
    tests = outcome.charger_tests + outcome.defender_tests
    for unit, test in zip(units, tests, strict=False):
        if test is not None:
            facts[f"cohesion:{unit.id}"] = test.value
    fates = outcome.charger_fates + outcome.defender_fates
    for unit, fate in zip(units, fates, strict=True):
        facts[f"fate:{unit.id}"] = fate.value
    return facts


def _describe(outcome: ChargeOutcome, defenders: tuple[Unit, ...]) -> str:
    """The charge as a referee tells it: impetus, the checks to stand, the melee roll and the
    losses it inflicts, and where every unit ends up."""
    parts = [f"impetus {outcome.impetus}"]
    stands = [f"{d.name} {r}" for d, r in zip(defenders, outcome.stand, strict=False)
              if r is not None]
    if stands:
        parts.append("check to stand: " + ", ".join(stands))
    if outcome.fought:
        parts.append(
            f"melee {outcome.successes}-{outcome.failures} (need {outcome.melee_need}): "
            f"{outcome.winner}, {outcome.successes} losses to each defender fighting and "
            f"{outcome.failures} to each charger"
        )
    else:
        parts.append("the defenders did not stand: no melee")
    units = outcome.chargers + outcome.defenders
    fates = outcome.charger_fates + outcome.defender_fates
    parts.append(", ".join(f"{u.name} {FATE_WORDS[f]}" for u, f in zip(units, fates,
                                                                          strict=True)))
    return "; ".join(parts)
