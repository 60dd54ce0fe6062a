"""The battle state of Bolt Action ACW: the order-dice bag, the brigade or independent unit
in action, what each unit did this turn, charges waiting for the reaction, melees that go on
and routers to move; a new battle; and the read-only queries over the state (The Turn;
Brigade and army strength).

Scratch state that lasts one turn (units given an order, failed tests, the activated
brigades...) is ``turn_scoped``: ``begin_turn`` resets it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import BattleState, DiceState, InvalidValueError, Scenario, turn_scoped
from smoothbore.core.validate import text
from smoothbore.table import CommanderMark, Table, check_deployed, distance
from smoothbore.table.seam import keep_in_step

from .charges import ChargeFacts
from .melee import MeleeFacts
from .morale import Command
from .options import DEFAULT_OPTIONS, Options
from .phases import DRAW
from .placing import RULES, relaid
from .units import SIDES, Commander, Rank, Unit, UnitType, of_kind
from .validity import check_battle


@attrs.frozen
class PendingCharge:
    """A charge whose chargers passed their order test, waiting for the charged unit's
    reaction (Melee)."""

    charger_id: str = attrs.field(validator=text())
    target_id: str = attrs.field(validator=text())
    facts: ChargeFacts = attrs.field(validator=of_kind(ChargeFacts))


@attrs.frozen
class Engaged:
    """A melee that continues into the next turn (Melee)."""

    charger_id: str = attrs.field(validator=text())
    defender_id: str = attrs.field(validator=text())
    facts: MeleeFacts = attrs.field(validator=of_kind(MeleeFacts))


@attrs.frozen
class Extra:
    """Bolt Action ACW's own state.

    ``bag``: the colours of the order dice left this turn; ``drawn``: the colour just drawn,
    until its side picks what it activates; ``group``: the brigade or independent unit in
    action. Per turn: ``activated`` groups, units ``ordered`` (given their one order),
    ``failed`` (failed an order test, their own or that of a charged unit: no orders, only
    hand-to-hand fighting left), ``rallied`` (stopped routing: an order that does not move
    it), ``tested`` (routing units tested), ``army_tested`` brigades,
    ``interpenetrated`` (passed through a friend: -1 to hit), ``halted`` chargers (may still
    fire at -1), ``second`` (victorious cavalry and the charge reach left), ``recharged``
    (cavalry that have made their second charge: no third),
    ``commanders_moved``, melees ``fought`` (charger, defender), units ``routed`` this turn
    (they test from the next). Lasting: ``charge`` waiting for its reaction, ``melees`` going on,
    ``routs`` to move, brigades gone ``home``, and the ``table`` the battle is played on (None:
    the players measure, and the actions carry what they measured); on a table, the
    ``holders`` of each dismounted cavalry unit: (unit id, x, y) where its horses wait
    (A32); the ``objective``, a feature of the table the scenario is fought for (A21)."""

    bag: tuple[str, ...] = ()
    drawn: str | None = None
    group: str | None = None
    activated: frozenset[str] = turn_scoped(frozenset())
    ordered: frozenset[str] = turn_scoped(frozenset())
    failed: frozenset[str] = turn_scoped(frozenset())
    rallied: frozenset[str] = turn_scoped(frozenset())
    tested: frozenset[str] = turn_scoped(frozenset())
    army_tested: frozenset[str] = turn_scoped(frozenset())
    interpenetrated: frozenset[str] = turn_scoped(frozenset())
    halted: frozenset[str] = turn_scoped(frozenset())
    second: tuple[tuple[str, int], ...] = turn_scoped(())
    recharged: frozenset[str] = turn_scoped(frozenset())
    commanders_moved: frozenset[str] = turn_scoped(frozenset())
    fought: tuple[tuple[str, str], ...] = turn_scoped(())
    routed: frozenset[str] = turn_scoped(frozenset())
    charge: PendingCharge | None = None
    melees: tuple[Engaged, ...] = ()
    routs: tuple[str, ...] = ()
    home: frozenset[str] = frozenset()
    table: Table | None = None
    holders: tuple[tuple[str, float, float], ...] = ()
    objective: str | None = None

    @staticmethod
    def check_battle(state: State, path: str = "$") -> None:
        """The loader's hook (``BattleState.from_data``): the whole battle checked
        (``validity.check_battle``), every fault a ``LoadError`` by its path."""
        check_battle(state, path=path)


State = BattleState[Unit, Commander, Extra, Options]


BRIGADE = "brigade:"
"""Groups are spelled ``brigade:<name>`` for a brigade, or an independent unit's id."""


def group_of(unit: Unit) -> str:
    """The group a unit acts with: its brigade, or itself if independent (The Turn, 1)."""
    return BRIGADE + unit.brigade if unit.brigade else unit.id


def group_units(state: State, group: str) -> tuple[Unit, ...]:
    """The units of a group (The Turn): a brigade's, or the independent unit."""
    return state.derived(_groups).get(group, ())


def _groups(state: State) -> dict[str, tuple[Unit, ...]]:
    """Every group's units (``group_units``), worked out once a state."""
    out: dict[str, list[Unit]] = {}
    for unit in state.units:
        out.setdefault(group_of(unit), []).append(unit)
    return {group: tuple(units) for group, units in out.items()}


def group_name(state: State, group: str) -> str:
    """A group in words."""
    if group.startswith(BRIGADE):
        name = group[len(BRIGADE):]
        for leader in state.commanders:
            if leader.brigade == name:
                return f"{leader.name}'s brigade"
        return f"brigade {name}"
    return state.unit(group).name


def fill_bag(units: tuple[Unit, ...], commanders: tuple[Commander, ...],
             home: frozenset[str]) -> tuple[str, ...]:
    """The order dice of a turn: one of its side's colour per brigade commander whose
    brigade is still in the battle, and one per independent unit still in it (The Turn, 1)."""
    bag: list[str] = []
    for leader in commanders:
        if leader.rank is Rank.BRIGADE and leader.brigade not in home and any(
            u.brigade == leader.brigade and not u.lost for u in units
        ):
            bag.append(leader.side)
    bag.extend(u.side for u in units if u.independent and not u.lost)
    return tuple(sorted(bag))


def _standing(unit: Unit) -> bool:
    """Lost units are off the table."""
    return not unit.lost


def new_battle(
    units: tuple[Unit, ...],
    commanders: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    scenario: Scenario = Scenario(),  # noqa: B008 (a frozen value)
    table: Table | None = None,
    objective: str | None = None,
) -> State:
    """A battle at the start of turn 1, the bag filled, before the first die is drawn.
    A brigade's name belongs to one side. On a ``table``, every unit in the battle stands on
    it (its footprint's id the unit's), on its own side, and nothing else does; the
    ``objective`` is one of its features (A21)."""
    for name in {u.brigade for u in units if u.brigade}:
        sides = {u.side for u in units if u.brigade == name}
        if len(sides) > 1:
            raise InvalidValueError("brigade", name, "a brigade of one side")
    holders: tuple[tuple[str, float, float], ...] = ()
    if table is not None:
        check_deployed(table, units, on_table=_standing)
        table = _commanders_placed(table, units, commanders)
        holders = tuple((u.id, *table.footprint(u.id).centre) for u in units
                        if u.kind is UnitType.CAVALRY and not u.mounted and not u.lost)
    if objective is not None:
        if table is None:
            raise InvalidValueError("objective", objective, "a feature of the battle's table")
        table.feature(objective)
    state: State = BattleState(
        ruleset="boltaction_acw",
        sides=SIDES,
        units=units,
        commanders=commanders,
        extra=Extra(bag=fill_bag(units, commanders, frozenset()), table=table,
                    holders=holders, objective=objective),
        options=options,
        dice=DiceState(seed),
        turn=1,
        phase=DRAW,
        scenario=scenario,
    )
    check_battle(state, path="", table_path="table", error=InvalidValueError)
    return state


def _commanders_placed(table: Table, units: tuple[Unit, ...],
                       commanders: tuple[Commander, ...]) -> Table:
    """The table with a mark for every commander (A14): one with a unit and no mark rides
    with it; one with no unit needs his mark, riding alone where he stands; a mark with a
    unit must be with the commander's unit, and every mark names a commander."""
    marks = {m.commander_id: m for m in table.commanders}
    known = {leader.id for leader in commanders}
    for commander_id in marks:
        if commander_id not in known:
            raise InvalidValueError("table.commanders", commander_id,
                                    "the id of a commander in the battle")
    lost = {u.id for u in units if u.lost}
    placed = []
    for leader in commanders:
        mark = marks.get(leader.id)
        unit = leader.with_unit if leader.with_unit not in lost else None
        if mark is None:
            if unit is None:
                raise InvalidValueError(
                    "table.commanders", leader.id,
                    "a mark where the commander stands (he is with no unit)")
            placed.append(CommanderMark(leader.id, attached_to=unit, side=leader.side,
                                        label=leader.name))
        elif mark.attached_to != unit:
            raise InvalidValueError(f"table.commanders[{leader.id!r}].attached_to",
                                    mark.attached_to, f"{unit!r}, the unit he is with")
        elif mark.side != leader.side:
            raise InvalidValueError(f"table.commanders[{leader.id!r}].side", mark.side,
                                    f"{leader.side!r}, the commander's side")
    return table.with_commanders(*placed) if placed else table


def commander_distance(table: Table, commander_id: str, unit_id: str) -> float | None:
    """How far a commander on the table is from a unit: from his point to the nearest
    point of its footprint's outline (0 when he is with it; None: he has no mark on the
    table) (A14)."""
    mark = table.derived(marks_by_id).get(commander_id)
    if mark is None or unit_id not in table.units:
        return None
    if mark.attached_to == unit_id:
        return 0.0
    return point_distance(table, mark_point(table, mark), unit_id)


def marks_by_id(table: Table) -> dict[str, CommanderMark]:
    """The commanders' marks on the table by commander id, made once a table: a large
    army's checks ask where its commanders stand again and again (issue 28)."""
    return {m.commander_id: m for m in table.commanders}


def mark_of(table: Table, commander_id: str) -> CommanderMark:
    """A commander's mark (``Table.commander``, which names the marks there are if he has
    none), from the table's index."""
    found = table.derived(marks_by_id).get(commander_id)
    return found if found is not None else table.commander(commander_id)


def mark_point(table: Table, mark: CommanderMark) -> tuple[float, float]:
    """Where a commander's mark is (``Table.commander_point``): his own point, or the
    centre of the unit he is with."""
    if mark.attached_to is not None:
        return table.footprint(mark.attached_to).centre
    return (mark.x, mark.y)


def point_distance(table: Table, point: tuple[float, float], unit_id: str) -> float:
    """How far a point on the table is from the nearest point of a unit's outline (0
    inside it)."""
    px, py = point
    f = table.footprint(unit_id)
    (fx, fy), (rx, ry) = f.frame
    dx, dy = px - f.x, py - f.y
    across = max(abs(dx * rx + dy * ry) - f.width / 2, 0.0)
    ahead = max(abs(dx * fx + dy * fy) - f.length / 2, 0.0)
    return math.hypot(across, ahead)


HOLDERS_REACH = 6
"""Cavalry remount only within 6" of their horse holders (Unit Sizes)."""


def holders_distance(state: State, unit_id: str) -> float | None:
    """On a table, how far a dismounted cavalry unit stands from its horse holders (None:
    no table, or no holders recorded for it) (A32)."""
    table = state.extra.table
    if table is None or unit_id not in table.units:
        return None
    for uid, x, y in state.extra.holders:
        if uid == unit_id:
            return point_distance(table, (x, y), unit_id)
    return None


BRIGADE_COMMAND = 6
"""A brigade commander helps the units of his brigade within 6" (Morale modifiers)."""
ARMY_COMMAND = 12
"""The army commander helps any unit within 12" (Morale modifiers)."""


def groups_to_activate(state: State, side: str) -> tuple[str, ...]:
    """The groups of a side that may still take a die this turn: brigades not gone home
    with a unit left, independent units not lost, none activated yet (The Turn)."""
    found = state.derived(_to_activate).get(side)
    return found[0] if found is not None else ()


def may_activate(state: State, side: str, group: str) -> bool:
    """Whether ``group`` is one of ``groups_to_activate(state, side)``: told at once, so
    that checking each of a large army's groups is not a walk through the army each
    (issue 28)."""
    found = state.derived(_to_activate).get(side)
    return found is not None and group in found[1]


def _to_activate(state: State) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """``groups_to_activate`` for every side at once (in order, and as a set), worked out
    once a state."""
    extra = state.extra
    out: dict[str, dict[str, None]] = {}
    for unit in state.units:
        if unit.lost:
            continue
        group = group_of(unit)
        if group in extra.activated or (unit.brigade and unit.brigade in extra.home):
            continue
        out.setdefault(unit.side, {})[group] = None
    return {side: (tuple(groups), frozenset(groups)) for side, groups in out.items()}


def engaged_ids(state: State) -> frozenset[str]:
    """The units locked in melee."""
    return frozenset(u for m in state.extra.melees for u in (m.charger_id, m.defender_id))


def command_for(state: State, unit: Unit) -> Command:
    """The commanders who can help the unit's tests: its brigade commander within 6" and
    the army commander within 12", measured on a table from where each stands; without one
    they count as within range when they are with the unit (A14)."""
    brigade = army = False
    table = state.extra.table
    if table is not None and unit.id in table.units:
        for leader in state.commanders:
            if leader.side != unit.side:
                continue
            reach = ARMY_COMMAND if leader.rank is Rank.ARMY else (
                BRIGADE_COMMAND if leader.brigade == unit.brigade else None)
            away = None if reach is None else commander_distance(table, leader.id, unit.id)
            if away is None and reach is not None:
                away = 0.0 if leader.with_unit == unit.id else None
            if away is not None and reach is not None and away <= reach + 1e-6:
                if leader.rank is Rank.ARMY:
                    army = True
                else:
                    brigade = True
        return Command(brigade, army)
    for leader in state.commanders:
        if leader.side != unit.side or leader.with_unit != unit.id:
            continue
        if leader.rank is Rank.ARMY:
            army = True
        elif leader.brigade == unit.brigade:
            brigade = True
    return Command(brigade, army)


ROUTING_NEAR = 6
"""-1 for each friendly unit routing within 6" (Morale modifiers)."""


def routing_friends(state: State, unit: Unit) -> int:
    """Friendly units routing within 6" (A15): on a table, the side's routing units whose
    nearest point is within 6" of the unit's, measured as the commanders' 6" are; without
    one, the routing units of its own brigade."""
    table = state.extra.table
    if table is not None and unit.id in table.units:
        return sum(1 for u in state.units
                   if u.side == unit.side and u.id != unit.id and u.routing and not u.lost
                   and u.id in table.units
                   and distance(table, unit.id, u.id) <= ROUTING_NEAR + 1e-6)
    if not unit.brigade:
        return 0
    return sum(1 for u in state.units
               if u.brigade == unit.brigade and u.side == unit.side and u.id != unit.id
               and u.routing and not u.lost)


def lost_for_strength(unit: Unit, options: Options) -> bool:
    """Whether a unit counts as lost for its brigade's 50%: destroyed, gone home, or (by
    default) routing (A18)."""
    return unit.lost or (options.routing_counts_as_lost and unit.routing)


def ineffective(state: State, side: str, brigade: str) -> bool:
    """A brigade that has lost 50% of its units is combat ineffective (Brigade and army
    strength)."""
    return _ineffective(state.units, side, brigade, state.options)


def _ineffective(units: tuple[Unit, ...], side: str, brigade: str, options: Options) -> bool:
    members = [u for u in units if u.side == side and u.brigade == brigade]
    return _half_lost(len(members), sum(1 for u in members if lost_for_strength(u, options)))


def _half_lost(count: int, lost: int) -> bool:
    """Whether ``lost`` of ``count`` (units of a brigade, brigades of an army) is 50% or
    more (Brigade and army strength); never of none."""
    return count > 0 and 2 * lost >= count


def army_broken(state: State, side: str) -> bool:
    """An army that has lost 50% of its brigades (Brigade and army strength)."""
    return side in broken_armies(state)


def broken_armies(state: State) -> frozenset[str]:
    """The sides whose army has lost 50% of its brigades."""
    return state.derived(_broken_armies)


def _broken_armies(state: State) -> frozenset[str]:
    """``broken_armies``, worked out once a state."""
    units, home, options, sides = state.units, state.extra.home, state.options, state.sides
    tally: dict[str, dict[str, list[int]]] = {side: {} for side in sides}
    for unit in units:  # each brigade's units and units lost, in one pass
        if unit.brigade and unit.side in tally:
            counts = tally[unit.side].setdefault(unit.brigade, [0, 0])
            counts[0] += 1
            counts[1] += lost_for_strength(unit, options)
    return frozenset(
        side for side, brigades in tally.items()
        if _half_lost(len(brigades), sum(1 for brigade, (count, lost) in brigades.items()
                                         if brigade in home or _half_lost(count, lost))))


def with_units(state: State, *units: Unit) -> State:
    """The state with these units replacing those of the same id. A unit that has just
    routed is queued to make its rout move; melees and second charges of units lost or
    routing end (Morale Test; Melee). The table is kept in step by the engine after every
    step (``KeptInStep(placing.RULES)``), whatever the handler called; here it is kept in
    step at once by the same function (``keep_in_step``), because a handler goes on to
    measure on it: a charger that lost bases to point blank fire moves into contact as it
    now is (Melee)."""
    newly = tuple(u.id for u in units
                  if u.routing and not u.lost and not state.unit(u.id).routing)
    new = state.with_units(*units)
    table = new.extra.table
    if table is not None and _reshaped(table, units):  # the rest of the step sees them
        new = keep_in_step(RULES, state, new)
    extra = new.extra
    out = set(u.id for u in units if not u.in_the_fight)
    if not newly and not out:
        return new
    melees = tuple(m for m in extra.melees
                   if m.charger_id not in out and m.defender_id not in out)
    routs = tuple(r for r in extra.routs if not new.unit(r).lost) + tuple(
        r for r in newly if r not in extra.routs)
    second = tuple(s for s in extra.second if s[0] not in out)
    return new.with_extra(melees=melees, routs=routs, second=second,
                          routed=extra.routed | set(newly))


def _reshaped(table: Table, units: tuple[Unit, ...]) -> bool:
    """Whether any of these units on the table no longer stands or no longer has its
    footprint's shape (then ``keep_in_step`` has something to do; most changes, pins and
    orders, leave every footprint as it was)."""
    on = table.units
    for unit in units:
        fp = on.get(unit.id)
        if fp is not None and (not RULES.stands(unit) or not RULES.shape(unit).matches(fp)):
            return True
    return False


def with_reformed(state: State, unit: Unit) -> State:
    """The state with ``unit`` in a new formation (or mounted, dismounted, limbered): on a
    table its footprint laid with the front edge where it was (A33), not about its centre."""
    table = state.extra.table
    if table is not None and unit.id in table.units and not unit.lost:
        state = state.with_extra(table=table.placed(relaid(table, unit)))
    return with_units(state, unit)


# --- what the candidates and checks of one state ask again and again -----------------------
def army_test_due(state: State) -> bool:
    """Whether the active brigade must take its army test now: its army has lost 50% of its
    brigades and it has not tested this turn (Brigade and army strength; A17)."""
    return situation(state).army_test


def _army_test_due(state: State, members: tuple[Unit, ...] | None = None) -> bool:
    """(``members``: the active group's units, if the caller has them.)"""
    group = state.extra.group
    if group is None or not group.startswith(BRIGADE) or group in state.extra.army_tested:
        return False
    if members is None:
        members = group_units(state, group)
    return bool(members) and members[0].side in broken_armies(state)


def untested_routers(state: State) -> tuple[Unit, ...]:
    """Routing units of the active group that have not tested this turn, nor routed in it:
    they test from the start of the next turn (The Turn, 2; Morale Test)."""
    extra = state.extra
    if extra.group is None:
        return ()
    return _untested(group_units(state, extra.group), extra)


def _untested(members: tuple[Unit, ...], extra: Extra) -> tuple[Unit, ...]:
    return tuple(u for u in members if u.routing and not u.lost and u.id not in extra.tested
                 and u.id not in extra.routed)


@attrs.frozen(eq=False)
class Situation:
    """What the candidates and checks of one state ask of it again and again, worked out
    once (``situation``): ``broken`` sides (no unit in the fight); the units by id; the
    ``side`` of the group in action (None: none is); ``army_test``, whether that brigade must
    take its army test now; ``acting``, whether the group may act with nothing to do first
    (no rout move waiting, no army test due, the battle undecided); ``ready``, the units of
    the group that may take their one order now (its routing units tested); and for each
    side the ids of its ``enemies`` (on the table, not locked in melee) and of the
    ``friends`` a unit in line may pass through (in the fight, not locked in melee)."""

    broken: tuple[str, ...]
    units: Mapping[str, Unit]
    side: str | None
    army_test: bool
    acting: bool
    ready: Mapping[str, Unit]
    enemies: Mapping[str, tuple[str, ...]]
    enemy_set: Mapping[str, frozenset[str]]
    friends: Mapping[str, tuple[str, ...]]


def situation(state: State) -> Situation:
    """The state's ``Situation``: the candidates and checks of one ``legal_actions`` ask
    the same questions of the same state many times, so it is worked out once a state
    (``BattleState.derived``)."""
    return state.derived(_work_out)


def _work_out(state: State) -> Situation:
    """The situation; what only a group giving orders asks is left empty without one."""
    units, extra, sides = state.units, state.extra, state.sides
    locked = engaged_ids(state)
    standing = _sides_standing(units, locked, sides)
    group = extra.group
    if group is None:
        return Situation(standing.broken, standing.units, None, False, False, {},
                         {}, {}, {})
    members = group_units(state, group)
    side = members[0].side if members else state.unit(group).side
    army_test = _army_test_due(state, members)
    acting = not extra.routs and not standing.broken and not army_test
    ready: dict[str, Unit] = {}
    if acting and not _untested(members, extra):
        ready = {u.id: u for u in members
                 if u.in_the_fight and u.id not in extra.ordered and u.id not in locked
                 and u.id not in extra.failed}
    return Situation(standing.broken, standing.units, side, army_test, acting,
                     ready, standing.enemies, standing.enemy_set, standing.friends)


@attrs.frozen(eq=False)
class _Standing:
    """What ``Situation`` reads of the units alone (and of those locked in melee)."""

    broken: tuple[str, ...]
    units: Mapping[str, Unit]
    enemies: Mapping[str, tuple[str, ...]]
    enemy_set: Mapping[str, frozenset[str]]
    friends: Mapping[str, tuple[str, ...]]


def _sides_standing(units: tuple[Unit, ...], locked: frozenset[str], sides: tuple[str, ...]
                    ) -> _Standing:
    """The ``Situation``'s sides broken, units by id, enemies and friends of each side."""
    index: dict[str, Unit] = {}
    standing: set[str] = set()
    on_table: dict[str, list[str]] = {s: [] for s in sides}
    fighting: dict[str, list[str]] = {s: [] for s in sides}
    for unit in units:  # one pass: the units by id, the sides standing, the enemies
        index[unit.id] = unit
        if unit.lost:
            continue
        if not unit.routing:
            standing.add(unit.side)
        if unit.id not in locked:
            on_table[unit.side].append(unit.id)
            if not unit.routing:
                fighting[unit.side].append(unit.id)
    broken = tuple(side for side in sides if side not in standing)
    enemies = {s: tuple(uid for other in sides if other != s for uid in on_table[other])
               for s in sides}
    friends = {s: tuple(ids) for s, ids in fighting.items()}
    return _Standing(broken, MappingProxyType(index), MappingProxyType(enemies),
                     MappingProxyType({s: frozenset(ids) for s, ids in enemies.items()}),
                     MappingProxyType(friends))


def broken_sides(state: State) -> tuple[str, ...]:
    """The sides with no unit in the fight."""
    return situation(state).broken
