"""The state of a McKie ACW battle: who moves first this period, the charges and melees, what
each unit has done this step and this period, the ammunition trains and the prisoners, and the
read-only queries the steps share.

A turn is one battle period (``begin_turn``): ``turn_scoped`` fields last a period,
``phase_scoped`` ones a step."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeAlias

import attrs

from smoothbore.core import (
    BattleState,
    DiceState,
    IllegalActionError,
    InvalidValueError,
    Scenario,
    phase_scoped,
    turn_scoped,
)
from smoothbore.core.validate import Fault, refuse_faults
from smoothbore.table import Measure, Table, check_deployed, stacked

from . import rules
from .fields import check_fields
from .melee import Attack
from .morale import Circumstance, MoraleFacts
from .options import DEFAULT_OPTIONS, Options
from .phases import INITIATIVE
from .tables import Cell
from .units import (
    DIG_PERIODS,
    MAX_FIGURES,
    MAX_PERIODS,
    ROUNDS_PER_FIGURE,
    Commander,
    Fate,
    Rank,
    Unit,
    Weapon,
)

NO_SCENARIO = Scenario()
LINE_OF_COMMAND = 10
"""The longest line of command followed up (a commander and nine superiors)."""
SNIPER_EVERY = 200
"""Sharpshooters: at most 1 figure in every 200 of the army armed with a sniper rifle."""


@attrs.frozen
class Charge:
    """A declared charge (or counter charge, on a charging enemy) that carried on; ``stopped``
    once a later test halts or breaks it (steps 5 and 6); ``attack``: the target's front,
    flank or rear, as the charging player measured it."""

    charger: str
    target: str
    counter: bool = False
    stopped: bool = False
    attack: Attack = Attack.FRONT

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Contact:
    """Two units in melee: the attacker (the charger), the defender, whether each charged
    into it this period, where the defender was attacked from, and how many periods it has
    lasted."""

    attacker: str
    defender: str
    attacker_charging: bool = True
    defender_charging: bool = False
    attack: Attack = Attack.FRONT
    periods: int = 0
    winner: str = ""

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Extra:
    """What only McKie ACW tracks.

    Per battle: ``first`` (the side moving first this period), ``table`` (the units and
    terrain on a tabletop, or None: the players measure and actions carry the facts),
    ``contacts`` (melees that go on), ``last_fired_on_by`` (last period's (target, firer)
    pairs, for target priority 2),
    ``reserves`` ((corps commander, rounds) of each ammunition train), ``trains`` (on a
    table, (corps commander, x, y): where each train stands, M10) and ``prisoners``
    ((side holding them, figures)). Per period: the initiative winner, commanders activated
    and tried, charges, who moved or manoeuvred (``moved``), who moved position
    (``shifted``), advanced, fired, worked (no rest), was fired on by whom, from flank or
    rear, under artillery fire, won or lost a melee, lost what, routed, and the tests taken.
    Per step: the acting side, units done, passes, the casualties awaiting the percentage
    roll, a follow-up to decide (and how far the loser was pushed back on a table,
    ``pushed`` as (dx, dy) mm), and the generals who have run the risk of this step's fire
    (``risked``: one throw a general, M26)."""

    first: str
    acting: str
    contacts: tuple[Contact, ...] = ()
    last_fired_on_by: tuple[tuple[str, str], ...] = ()
    reserves: tuple[tuple[str, int], ...] = ()
    trains: tuple[tuple[str, float, float], ...] = ()
    prisoners: tuple[tuple[str, int], ...] = ()
    table: Table | None = None
    initiative: str = turn_scoped("")
    activated: frozenset[str] = turn_scoped(frozenset())
    attempted: frozenset[str] = turn_scoped(frozenset())
    charges: tuple[Charge, ...] = turn_scoped(())
    moved: frozenset[str] = turn_scoped(frozenset())
    shifted: frozenset[str] = turn_scoped(frozenset())
    advanced: frozenset[str] = turn_scoped(frozenset())
    fired: frozenset[str] = turn_scoped(frozenset())
    worked: frozenset[str] = turn_scoped(frozenset())
    fired_on_by: tuple[tuple[str, str], ...] = turn_scoped(())
    flanked: frozenset[str] = turn_scoped(frozenset())
    rear: frozenset[str] = turn_scoped(frozenset())
    under_artillery: frozenset[str] = turn_scoped(frozenset())
    won_melee: frozenset[str] = turn_scoped(frozenset())
    lost_melee: frozenset[str] = turn_scoped(frozenset())
    fire_lost: tuple[tuple[str, int], ...] = turn_scoped(())
    lost: tuple[tuple[str, int], ...] = turn_scoped(())
    routed: frozenset[str] = turn_scoped(frozenset())
    tested: frozenset[str] = turn_scoped(frozenset())
    halted: frozenset[str] = turn_scoped(frozenset())
    digging: frozenset[str] = turn_scoped(frozenset())
    done: frozenset[str] = phase_scoped(frozenset())
    passed: frozenset[str] = phase_scoped(frozenset())
    pending: tuple[tuple[str, Cell], ...] = phase_scoped(())
    follow: tuple[str, ...] = phase_scoped(())
    pushed: tuple[float, float] = phase_scoped((0.0, 0.0))
    risked: frozenset[str] = phase_scoped(frozenset())


    @staticmethod
    def check_battle(state: State, path: str = "$") -> None:
        """The loader's hook (``BattleState.from_data``): the whole-battle check
        (``check_battle``), every fault a ``LoadError`` by its path in the document."""
        check_battle(state, path)


State: TypeAlias = BattleState[Unit, Commander, Extra, Options]
"""A McKie ACW battle."""


def check_battle(state: State, path: str | None = None) -> None:
    """Refuse a battle that ``new_battle`` would not make or a step could not play on, naming
    EVERY fault (``battle_faults``): an ``InvalidValueError`` (a ``LoadError`` with ``path``,
    the loader's root, ``$``) whose field is the first fault's path and whose ``allowed``
    lists all of them. ``new_battle`` and every load (``Extra.check_battle``) call it."""
    refuse_faults(battle_faults(state), path)


def battle_faults(state: State) -> tuple[Fault, ...]:
    """Every fault of a battle as a whole (each field alone was checked when it was made):
    two sides, one commander-in-chief each (Generalship), every name a unit, commander or
    ``extra`` field gives naming one of the battle's (and of its own side where it must),
    the turn and the counts within what the rules let a battle reach (Ammunition, Effort
    points, Formation and strength of units), and on a table the footprints exactly the
    standing units, each laid out as ``positions.footprint`` lays it, on the table, on no
    other unit and on ground its arm may enter (Movement, M34)."""
    out: list[Fault] = []
    sides = state.sides
    if len(sides) != 2:
        out.append(("sides", list(sides), "exactly two sides"))
    units = {u.id: u for u in state.units}
    commanders = {c.id: c for c in state.commanders}
    _check_turn(state, out)
    _check_commanders(state, units, commanders, out)
    _check_units(state, commanders, out)
    _check_extra(state, units, commanders, out)
    if state.extra.table is not None:
        _check_table(state, out)
    return tuple(out)


def _check_turn(state: State, out: list[Fault]) -> None:
    if state.turn > MAX_PERIODS:
        out.append(("turn", state.turn, f"1 to {MAX_PERIODS} (the longest battle played)"))


def _check_commanders(state: State, units: dict[str, Unit], commanders: dict[str, Commander],
                      out: list[Fault]) -> None:
    for side in state.sides:
        chiefs = [c.id for c in state.commanders if c.side == side and c.rank is Rank.CINC]
        if len(chiefs) != 1:
            out.append(("commanders", chiefs, f"exactly one commander-in-chief of {side}"))
    for i, c in enumerate(state.commanders):
        if c.superior:
            above = commanders.get(c.superior)
            if above is None:
                out.append((f"commanders[{i}].superior", c.superior,
                            _names("a commander", commanders)))
            elif above.side != c.side:
                out.append((f"commanders[{i}].superior", c.superior,
                            f"a commander of {c.side}"))
            elif above.id == c.id:
                out.append((f"commanders[{i}].superior", c.superior, "another commander"))
        if c.attached_to:
            unit = units.get(c.attached_to)
            if unit is None:
                out.append((f"commanders[{i}].attached_to", c.attached_to,
                            _names("a unit", units) + ", or '' for none"))
            elif unit.side != c.side:
                out.append((f"commanders[{i}].attached_to", c.attached_to,
                            f"a unit of {c.side}"))


def _check_units(state: State, commanders: dict[str, Commander], out: list[Fault]) -> None:
    for i, u in enumerate(state.units):
        own = commanders.get(u.commander)
        if own is None:
            out.append((f"units[{i}].commander", u.commander, _names("a commander", commanders)))
        elif own.side != u.side:
            out.append((f"units[{i}].commander", u.commander, f"a commander of {u.side}"))


def _check_extra(state: State, units: dict[str, Unit], commanders: dict[str, Commander],
                 out: list[Fault]) -> None:
    x = state.extra
    sides = state.sides
    for name in ("first", "acting"):
        if getattr(x, name) not in sides:
            out.append((f"extra.{name}", getattr(x, name), _names("a side", sides)))
    if x.initiative and x.initiative not in sides:
        out.append(("extra.initiative", x.initiative, _names("a side", sides) + ", or ''"))
    for name in ("activated", "attempted", "risked"):
        for item in sorted(getattr(x, name)):
            if item not in commanders:
                out.append((f"extra.{name}", item, _names("a commander", commanders)))
    for name in ("moved", "shifted", "advanced", "fired", "worked", "flanked", "rear",
                 "under_artillery", "won_melee", "lost_melee", "routed", "halted", "digging"):
        for item in sorted(getattr(x, name)):
            if item not in units:
                out.append((f"extra.{name}", item, _names("a unit", units)))
    for item in sorted(x.passed):
        if item not in sides:
            out.append(("extra.passed", item, _names("a side", sides)))
    for item in sorted(x.tested):
        unit_id, _, test = item.rpartition(":")
        if unit_id not in units or test not in _CIRCUMSTANCES:
            out.append(("extra.tested", item, "a unit's id and the test it took, "
                        "'<unit>:<" + "|".join(sorted(_CIRCUMSTANCES)) + ">'"))
    for item in sorted(x.done):
        kind, _, named = item.partition(":")
        known = (units if kind in ("melee", "fought") else
                 commanders if kind in ("orders", "general") else {})
        if item not in units and named not in known:
            out.append(("extra.done", item, "a unit's id, 'melee:<unit>', 'fought:<unit>', "
                        "'orders:<commander>' or 'general:<commander>' of the battle"))
    for i, f in enumerate(x.follow):
        if f not in units:
            out.append((f"extra.follow[{i}]", f, _names("a unit", units)))
    for name in ("last_fired_on_by", "fired_on_by"):
        for i, pair in enumerate(getattr(x, name)):
            for j, item in enumerate(pair):
                if item not in units:
                    out.append((f"extra.{name}[{i}][{j}]", item, _names("a unit", units)))
    for name in ("fire_lost", "lost"):
        for i, (item, figures) in enumerate(getattr(x, name)):
            if item not in units:
                out.append((f"extra.{name}[{i}][0]", item, _names("a unit", units)))
            if not 0 <= figures <= MAX_FIGURES:
                out.append((f"extra.{name}[{i}][1]", figures,
                            f"0 to {MAX_FIGURES} figures (a unit's most)"))
    for i, (item, cell) in enumerate(x.pending):
        if item not in units:
            out.append((f"extra.pending[{i}][0]", item, _names("a unit", units)))
        if not (type(cell.definite) is int and 0 <= cell.definite <= MAX_PENDING):
            out.append((f"extra.pending[{i}][1].definite", cell.definite,
                        f"0 to {MAX_PENDING} figures"))
        if not (type(cell.percent) is int and 0 <= cell.percent <= 99):
            out.append((f"extra.pending[{i}][1].percent", cell.percent,
                        "0 to 99 (each full 100 per cent is a figure, M9)"))
    for group, pairs in (("charges", [(c.charger, c.target) for c in x.charges]),
                         ("contacts", [(c.attacker, c.defender) for c in x.contacts])):
        names = ("charger", "target") if group == "charges" else ("attacker", "defender")
        for i, pair in enumerate(pairs):
            for name, item in zip(names, pair, strict=True):
                if item not in units:
                    out.append((f"extra.{group}[{i}].{name}", item, _names("a unit", units)))
            if all(item in units for item in pair) and (
                    units[pair[0]].side == units[pair[1]].side):
                out.append((f"extra.{group}[{i}].{names[1]}", pair[1],
                            f"an enemy of {pair[0]} (Charges and Melee: on the enemy)"))
    for i, contact in enumerate(x.contacts):
        if contact.winner and contact.winner not in (contact.attacker, contact.defender):
            out.append((f"extra.contacts[{i}].winner", contact.winner,
                        "the attacker, the defender, or '' for none"))
        if not 0 <= contact.periods <= state.turn:
            out.append((f"extra.contacts[{i}].periods", contact.periods,
                        f"0 to {state.turn} (the periods played)"))
    rounds = ROUNDS_PER_FIGURE * sum(1 if u.is_gun else u.initial_figures for u in state.units)
    for i, (corps, left) in enumerate(x.reserves):
        if corps not in commanders:
            out.append((f"extra.reserves[{i}][0]", corps, _names("a commander", commanders)))
        if not 0 <= left <= rounds:
            out.append((f"extra.reserves[{i}][1]", left,
                        f"0 to {rounds} rounds (6 a figure or gun of the battle)"))
    for i, (corps, tx, ty) in enumerate(x.trains):
        if corps not in commanders:
            out.append((f"extra.trains[{i}][0]", corps, _names("a commander", commanders)))
        table = x.table
        if table is None:
            out.append((f"extra.trains[{i}]", corps, "no trains without a table"))
        elif not (math.isfinite(tx) and math.isfinite(ty)
                  and 0 <= tx <= table.width and 0 <= ty <= table.depth):
            out.append((f"extra.trains[{i}]", (tx, ty), "a point on the table"))
    figures = sum(u.initial_figures for u in state.units if not u.is_gun)
    for i, (side, taken) in enumerate(x.prisoners):
        if side not in sides:
            out.append((f"extra.prisoners[{i}][0]", side, _names("a side", sides)))
        if not 0 <= taken <= figures:
            out.append((f"extra.prisoners[{i}][1]", taken,
                        f"0 to {figures} figures (those of the battle)"))
    if not all(math.isfinite(d) for d in x.pushed) or (
            x.table is not None and math.hypot(*x.pushed) > x.table.diagonal):
        out.append(("extra.pushed", x.pushed, "a finite push back within the table"))


MAX_PENDING = 600
"""The most figures awaiting the percentage roll against one unit (ten times the largest unit:
past what any fire can take, Explanation of casualty table)."""
_CIRCUMSTANCES = frozenset(c.value for c in Circumstance)


def _check_table(state: State, out: list[Fault]) -> None:
    from .positions import footprint, rates_for

    table = state.extra.table
    assert table is not None
    try:
        check_deployed(table, state.units, on_table=_on_table, commanders=state.commanders,
                       measure=Measure.MILLIMETRES, field="extra.table")
    except InvalidValueError as error:
        out.append((error.field, error.value, error.allowed))
        return
    units = {u.id: u for u in state.units}
    tables = state.options.tables
    placed: list[tuple[int, Any]] = []
    for i, fp in enumerate(table.footprints):
        unit = units[fp.unit_id]
        where = f"extra.table.footprints[{i}]"
        laid = footprint(unit, fp.x, fp.y, fp.facing, tables)
        shape = (laid.formation, laid.bases, laid.frontage, laid.depth, laid.spacing)
        if (fp.formation, fp.bases, fp.frontage, fp.depth, fp.spacing) != shape:
            out.append((where, (fp.formation.value, fp.bases, fp.frontage, fp.depth,
                                fp.spacing),
                        f"the unit's own footprint {(shape[0].value, *shape[1:])} "
                        "(positions.footprint: its figures' bases in its formation)"))
            continue
        if not table.holds(fp):
            out.append((where, (fp.x, fp.y), "a place on the table"))
            continue
        kinds = table.kinds_at(fp.x, fp.y)
        if rates_for(unit).speed(kinds) is None:
            out.append((where, sorted(k.value for k in kinds),
                        f"ground {unit.arm.value} may enter (Movement)"))
        placed.append((i, fp))
    _check_stacked(placed, out)


STACKED_AREA = 1.0
"""Two footprints overlapping by more than 1 square mm stand on each other (a unit never
ends a move on another, M34; touching units, in melee, share only an edge)."""


def _check_stacked(placed: list[tuple[int, Any]], out: list[Fault]) -> None:
    """Footprints (with their places in the table's list) standing on each other."""
    for a, b, _area in stacked([fp for _, fp in placed], STACKED_AREA):
        out.append((f"extra.table.footprints[{placed[a][0]}]", placed[b][1].unit_id,
                    "no other unit under it (units never stand on each other, M34)"))


def _names(what: str, known: object) -> str:
    names = sorted(str(n) for n in known)  # type: ignore[attr-defined]
    shown = ", ".join(repr(n) for n in names[:12]) + (" ..." if len(names) > 12 else "")
    return f"the id of {what}: {shown}" if names else f"the id of {what} (there is none)"


def new_battle(
    sides: tuple[str, str],
    units: tuple[Unit, ...],
    commanders: tuple[Commander, ...],
    *,
    seed: int = 0,
    options: Options = DEFAULT_OPTIONS,
    reserve_rounds: int = 6,
    army_figures: tuple[int, int] | None = None,
    scenario: Scenario = NO_SCENARIO,
    table: Table | None = None,
    trains: Mapping[str, tuple[float, float]] | None = None,
) -> State:
    """A battle at the start of its first period (initiative not yet rolled). Each corps (a
    corps commander, or the commander-in-chief where there is none) has an ammunition train of
    ``reserve_rounds`` (at most 6) per figure or gun of its units. ``army_figures``: the
    figures of each whole army, where the battle fields part of it (for the 1-in-200 sniper
    limit; default the figures on the table). ``table``: where the units stand (millimetres;
    footprints from ``positions.footprint``): shots, charges and moves are then measured on it.
    ``trains``: on a table, where each corps' ammunition train stands (x, y mm, by corps
    commander); by default behind its corps (``positions.trains_behind``, M10)."""
    from .ammunition import reserve_for

    if not 0 <= reserve_rounds <= 6:
        raise InvalidValueError("reserve_rounds", reserve_rounds, "0 to 6 rounds per figure")
    for i, side in enumerate(sides):
        own = [u for u in units if u.side == side]
        snipers = sum(u.figures for u in own if u.weapon is Weapon.SNIPER_RIFLE)
        army = army_figures[i] if army_figures else sum(u.figures for u in own)
        if snipers > army // SNIPER_EVERY:
            raise InvalidValueError(f"sniper figures of {side}", snipers,
                                    f"at most 1 in every {SNIPER_EVERY} figures of the army "
                                    f"({army // SNIPER_EVERY} for {army})")
    if table is not None:
        check_deployed(table, units, on_table=_on_table, commanders=commanders,
                       measure=Measure.MILLIMETRES)
    base: State = BattleState(
        ruleset="mckie_acw", sides=sides, units=units, commanders=commanders,
        extra=Extra(first=sides[0], acting=sides[0], table=table), options=options,
        dice=DiceState(seed),
        turn=1, phase=INITIATIVE, scenario=scenario,
    )
    check_battle(base.with_extra(table=None))  # the army as a whole, before it is served
    served: dict[str, list[Unit]] = {}
    for u in units:
        served.setdefault(corps_of(base, u), []).append(u)
    reserves = tuple((corps, reserve_for(tuple(us), reserve_rounds))
                     for corps, us in served.items())
    state = with_extra(base, reserves=reserves)
    if table is not None:
        from .positions import grounded, synced, trains_behind

        placed = trains_behind(table, state, trains or {})
        state = with_extra(grounded(synced(state)), trains=placed)
        check_battle(state)  # the footprints laid: none stacked, none in impassable ground
    elif trains:
        raise InvalidValueError("trains", dict(trains), "positions only on a table")
    return state


def _on_table(unit: Unit) -> bool:
    """Units destroyed, surrendered or gone off the table have no footprint."""
    return unit.on_table


# --- queries ---------------------------------------------------------------------------
def illegal(action: object, why: str, rule: str = rules.BATTLE_PERIOD) -> IllegalActionError:
    """The error for an action the rules forbid, naming the rule."""
    return IllegalActionError(action, why, rule)


def other(state: State, side: str) -> str:
    """The other side."""
    return state.sides[1] if state.sides[0] == side else state.sides[0]


def commanders_by_id(state: State) -> dict[str, Commander]:
    """Every commander by his id (once a state: each check looks its generals up)."""
    out: dict[str, Commander] = {}
    for commander in state.commanders:
        out.setdefault(commander.id, commander)  # the first of an id, as a walk finds it
    return out


def own_unit(state: State, unit_id: str, action: object) -> Unit:
    """A unit of the acting side on the table, or the error."""
    unit = state.unit(unit_id)
    if unit.side != state.extra.acting:
        raise illegal(action, f"{unit.name} is not a unit of {state.extra.acting}")
    if not unit.on_table:
        raise illegal(action, f"{unit.name} is no longer on the table")
    return unit


def superior_of(state: State, commander: Commander) -> Commander | None:
    """A commander's superior (None for the commander-in-chief)."""
    if commander.superior:
        return state.derived(commanders_by_id).get(commander.superior)
    return None


def chain(state: State, commander_id: str) -> tuple[Commander, ...]:
    """A commander and his superiors up to the commander-in-chief."""
    current: Commander | None = state.commander(commander_id)
    line: list[Commander] = []
    while current is not None and len(line) < LINE_OF_COMMAND:
        line.append(current)
        current = superior_of(state, current)
    return tuple(line)


def corps_of(state: State, unit: Unit) -> str:
    """The corps whose ammunition train serves a unit: its corps commander, or the
    commander-in-chief where it has none."""
    line = chain(state, unit.commander)
    corps = next((c for c in line if c.rank is Rank.CORPS), None)
    return (corps or line[-1]).id


def in_command(state: State, unit: Unit) -> Commander:
    """The general commanding a unit now: its own, or the next active one up the line if he
    has fallen (M5); the top of the line if all have fallen."""
    return _in_command(state, state.commander(unit.commander))


def _in_command(state: State, own: Commander) -> Commander:
    c = own
    for _ in range(LINE_OF_COMMAND - 1):
        if c.fate is Fate.ACTIVE:
            return c
        above = superior_of(state, c)
        if above is None:
            return c
        c = above
    return c


def may_advance(state: State, unit: Unit) -> bool:
    """Whether a unit may advance voluntarily: its commander's order lets troops advance and
    he is activated this period, or carries on with old orders (Activation)."""
    return state.derived(_advancing)[unit.commander]


def _advancing(state: State) -> dict[str, bool]:
    """``may_advance`` for the units of each commander, by the commander's id (worked out once
    a state)."""
    return {c.id: _lets_advance(state, c) for c in state.commanders}


def _lets_advance(state: State, commander: Commander) -> bool:
    c = _in_command(state, commander)
    if c.rank is Rank.CINC:
        return True  # the commander-in-chief writes the orders and needs no activation (M5)
    if not c.order.kind.advances:
        return False
    return c.id in state.extra.activated or c.order.started


def general_with(state: State, unit: Unit) -> bool:
    """Whether a general in the unit's line of command is with it (Morale: +1)."""
    line = {c.id for c in chain(state, unit.commander)}
    return any(c.active and c.attached_to == unit.id and c.id in line for c in state.commanders)


def generals_with(state: State, unit_id: str) -> tuple[Commander, ...]:
    """Every active general with a unit (Risk to generals)."""
    return tuple(c for c in state.commanders if c.active and c.attached_to == unit_id)


def amount(pairs: tuple[tuple[str, int], ...], key: str) -> int:
    """The value for ``key`` in a tuple of (key, value) pairs (0 if absent)."""
    return next((v for k, v in pairs if k == key), 0)


def add_amount(pairs: tuple[tuple[str, int], ...], key: str, value: int
               ) -> tuple[tuple[str, int], ...]:
    """The pairs with ``value`` added to ``key``."""
    if any(k == key for k, _ in pairs):
        return tuple((k, v + value if k == key else v) for k, v in pairs)
    return (*pairs, (key, value))


def contact_of(state: State, unit_id: str) -> Contact | None:
    """The melee a unit is in, if any (the first, where a loaded state names several)."""
    if not state.extra.contacts:
        return None
    return state.derived(_contacts_by_unit).get(unit_id)


def _contacts_by_unit(state: State) -> dict[str, Contact]:
    """``contact_of`` by unit id (once a state)."""
    out: dict[str, Contact] = {}
    for c in state.extra.contacts:
        out.setdefault(c.attacker, c)
        out.setdefault(c.defender, c)
    return out


def live_charges(state: State) -> tuple[Charge, ...]:
    """The charges still going in."""
    return tuple(c for c in state.extra.charges if not c.stopped)


def in_cover(unit: Unit) -> bool:
    """Morale: behind or in cover: cover, woods, a town, permanent defenses or a finished
    trench."""
    return unit.ground.is_cover or unit.dug >= DIG_PERIODS


def morale_facts(state: State, unit: Unit, circumstance: Circumstance, routing_past: int = 0,
                 subtract_quality: bool = False, subtract_cover: bool = False) -> MoraleFacts:
    """The morale tactical factors of a unit now, from the state: attacked from the flank or
    rear when marked so this period or when a charge still going in strikes it there (so the
    test to receive that charge counts it, M27)."""
    x = state.extra
    struck = {c.attack for c in live_charges(state) if c.target == unit.id and not c.counter}
    advancing = circumstance in (Circumstance.CHARGING, Circumstance.CHARGER_FIRED_ON) or (
        unit.id in x.advanced)
    return MoraleFacts(
        quality=unit.quality,
        in_cover=in_cover(unit),
        advancing=advancing,
        general=general_with(state, unit),
        won_melee=unit.id in x.won_melee,
        lost_melee=unit.id in x.lost_melee,
        under_artillery=unit.id in x.under_artillery,
        tenths_lost=unit.lost * 10 // unit.initial_figures,
        routing_past=routing_past,
        tired=unit.tired,
        exhausted=unit.exhausted,
        flank=unit.id in x.flanked or Attack.FLANK in struck,
        rear=unit.id in x.rear or Attack.REAR in struck,
        retreating=unit.status.value == "retreating",
        routing=unit.status.value == "routing",
        subtract_quality=subtract_quality,
        subtract_cover=subtract_cover,
    )


def mark(state: State, field: str, *ids: str) -> State:
    """The state with ids added to one of the frozenset fields of ``extra``."""
    current: frozenset[str] = getattr(state.extra, field)
    return with_extra(state, **{field: current | frozenset(ids)})


def with_extra(state: State, **changes: Any) -> State:
    """The state with some fields of ``extra`` changed."""
    return state.with_extra(**changes)
