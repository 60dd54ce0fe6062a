"""The whole battle checked at once (issue 28): what ``new_battle`` and every step would make
sure of, asked of a state however it came, so that a state loaded from a file, or made by
``new_battle``, either plays or is refused with every fault named (the path as the user
wrote it, the value, what is allowed). ``check_battle`` raises; ``faults`` lists them.

Where the text sets no bound on a count, the bound is the one its rule implies and
docs/interpretations/boltaction_acw.md (A37) records it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from smoothbore.core import InvalidValueError, LoadError
from smoothbore.core.validate import Fault, refuse_faults
from smoothbore.table import Table, TerrainKind, region_of, stacked

from .phases import CHOOSE, ORDERS, REACTION
from .placing import BASE_SIZES
from .units import SIDES, Rank, Unit, UnitType

if TYPE_CHECKING:
    from .state import State

MAX_TURN = 1_000
"""The last turn a battle plays (A37): the text sets no turn limit; a battle of a thousand
turns is far past any scenario (the embedded ones last 6 to 8), and one that is still
undecided then ends as a scenario's last turn does (``apply_end_turn``)."""
MAX_REACH = 36
"""The most inches of charge reach a victorious cavalry unit may have left (A37: twice the
18" charge of cavalry in line, Movement)."""
_OVERLAP = 1e-3
"""Square inches two footprints may share before they stand on each other (contact in a
melee, measured in floats, touches only)."""


def check_battle(state: State, *, path: str = "$", table_path: str | None = None,
                 error: type[InvalidValueError] = LoadError) -> None:
    """Raise ``error`` (a ``LoadError`` for a loaded state) naming every fault of the
    battle: the first as its field, value and what is allowed, the others after it in the
    message's allowed text. ``path``: how the state is spelled (``$`` in a document, ''
    for ``new_battle``'s arguments); ``table_path`` where its table is (by default
    ``<path>.extra.table``)."""
    refuse_faults(faults(state, path=path, table_path=table_path), error=error)


def faults(state: State, *, path: str = "$", table_path: str | None = None) -> list[Fault]:
    """Every fault of the battle as a whole, as (field path, value, what is allowed)."""
    p = f"{path}." if path else ""
    tp = table_path if table_path is not None else f"{p}extra.table"
    out: list[Fault] = []
    add = out.append
    if tuple(state.sides) != SIDES:
        add((f"{p}sides", list(state.sides), f"the two sides {SIDES[0]!r}, {SIDES[1]!r}"))
    limit = state.scenario.turn_limit
    top = MAX_TURN if limit is None else min(MAX_TURN, limit)
    if not 1 <= state.turn <= top:
        add((f"{p}turn", state.turn, f"1 to {top} (A37"
             + (", the scenario's last turn" if limit is not None else "") + ")"))
    units = {u.id: u for u in state.units}
    brigades = {u.brigade for u in state.units if u.brigade}
    for name in sorted(brigades):
        sides = {u.side for u in state.units if u.brigade == name}
        if len(sides) > 1:
            add((f"{p}units", name, "a brigade of one side"))
    for i, leader in enumerate(state.commanders):
        if leader.with_unit is not None and leader.with_unit not in units:
            add((f"{p}commanders[{i}].with_unit", leader.with_unit, _ids(units, "a unit")))
        elif leader.with_unit is not None and units[leader.with_unit].side != leader.side:
            add((f"{p}commanders[{i}].with_unit", leader.with_unit,
                 f"a unit of his own side ({leader.side!r})"))
        if leader.rank is Rank.BRIGADE and leader.brigade not in brigades:
            add((f"{p}commanders[{i}].brigade", leader.brigade, _ids(brigades, "a brigade")))
    led = [c.brigade for c in state.commanders if c.rank is Rank.BRIGADE]
    for name in sorted(brigades):
        if led.count(name) > 1:
            add((f"{p}commanders", name, "one brigade commander for a brigade: his die is "
                 f"the brigade's (The Turn, 1); brigade {name!r} has {led.count(name)}"))
    armies = [c.side for c in state.commanders if c.rank is Rank.ARMY]
    for side in sorted(set(armies)):
        if armies.count(side) > 1:
            add((f"{p}commanders", side, "at most one army commander a side"))
    _extra(state, p, units, brigades, add)
    table = state.extra.table
    if table is not None:
        _table(state, table, tp, add)
    return out


def _ids(known: Any, what: str) -> str:
    names = sorted(known)
    shown = ", ".join(map(repr, names[:12])) + (" ..." if len(names) > 12 else "")
    return f"the id of {what} of the battle: {shown}" if names else f"{what} (there is none)"


def _extra(state: State, p: str, units: dict[str, Unit], brigades: set[str],
           add: Callable[[Fault], None]) -> None:
    """The order dice, the group in action, what units did this turn, charges, melees and
    routers: each name names a unit, brigade or side of the battle."""
    from .state import BRIGADE

    extra = state.extra
    e = f"{p}extra"
    groups = {BRIGADE + b for b in brigades} | {u.id for u in units.values() if u.independent}
    for i, colour in enumerate(extra.bag):
        if colour not in SIDES:
            add((f"{e}.bag[{i}]", colour, "one of " + ", ".join(map(repr, SIDES))))
    for side in SIDES:
        most = sum(1 for c in state.commanders if c.rank is Rank.BRIGADE and c.side == side
                   ) + sum(1 for u in units.values() if u.independent and u.side == side)
        if extra.bag.count(side) > most:
            add((f"{e}.bag", extra.bag.count(side), f"at most {most} {side} dice, one a "
                 "brigade commander and independent unit of the side (The Turn, 1)"))
    if extra.drawn is not None and extra.drawn not in SIDES:
        add((f"{e}.drawn", extra.drawn, "one of " + ", ".join(map(repr, SIDES))))
    if state.phase == CHOOSE and extra.drawn is None:
        add((f"{e}.drawn", None, "the colour drawn, in the choose phase"))
    if extra.group is not None and extra.group not in groups:
        add((f"{e}.group", extra.group, _ids(groups, "a group")))
    if state.phase == ORDERS and extra.group is None and not extra.routs:
        add((f"{e}.group", None, "the group in action, in the orders phase"))
    for name in sorted(extra.activated - groups):
        add((f"{e}.activated", name, _ids(groups, "a group")))
    for field in ("ordered", "failed", "rallied", "tested", "interpenetrated", "halted",
                  "recharged", "commanders_moved", "routed"):
        known: set[str] | dict[str, Unit] = (
            {c.id for c in state.commanders} if field == "commanders_moved" else units)
        for name in sorted(getattr(extra, field) - set(known)):
            add((f"{e}.{field}", name, _ids(known, "a commander" if
                                            field == "commanders_moved" else "a unit")))
    for name in sorted(extra.army_tested - groups):
        add((f"{e}.army_tested", name, _ids(groups, "a group")))
    for name in sorted(extra.home - brigades):
        add((f"{e}.home", name, _ids(brigades, "a brigade")))
    for i, (uid, reach) in enumerate(extra.second):
        if uid not in units:
            add((f"{e}.second[{i}][0]", uid, _ids(units, "a unit")))
        if type(reach) is not int or not 0 <= reach <= MAX_REACH:
            add((f"{e}.second[{i}][1]", reach, f"0 to {MAX_REACH} inches (A37)"))
    for i, pair in enumerate(extra.fought):
        for j, uid in enumerate(pair):
            if uid not in units:
                add((f"{e}.fought[{i}][{j}]", uid, _ids(units, "a unit")))
    if extra.charge is not None:
        for name in ("charger_id", "target_id"):
            uid = getattr(extra.charge, name)
            if uid not in units:
                add((f"{e}.charge.{name}", uid, _ids(units, "a unit")))
        if state.phase != REACTION:
            add((f"{e}.charge", "(a charge)", "none outside the reaction phase"))
    elif state.phase == REACTION:
        add((f"{e}.charge", None, "the charge waiting for its reaction, in the reaction "
             "phase"))
    for i, melee in enumerate(extra.melees):
        for name in ("charger_id", "defender_id"):
            uid = getattr(melee, name)
            if uid not in units:
                add((f"{e}.melees[{i}].{name}", uid, _ids(units, "a unit")))
            elif not units[uid].in_the_fight:
                add((f"{e}.melees[{i}].{name}", uid, "a unit in the fight (not lost or "
                     "routing)"))
        a, b = units.get(melee.charger_id), units.get(melee.defender_id)
        if a is not None and b is not None and a.side == b.side:
            add((f"{e}.melees[{i}]", (melee.charger_id, melee.defender_id),
                 "units of opposing sides"))
    for i, uid in enumerate(extra.routs):
        if uid not in units:
            add((f"{e}.routs[{i}]", uid, _ids(units, "a unit")))
        elif not units[uid].routing or units[uid].lost:
            add((f"{e}.routs[{i}]", uid, "a routing unit still in the battle"))
    for i, (uid, _x, _y) in enumerate(extra.holders):
        unit = units.get(uid)
        if unit is None:
            add((f"{e}.holders[{i}][0]", uid, _ids(units, "a unit")))
        elif unit.kind is not UnitType.CAVALRY:
            add((f"{e}.holders[{i}][0]", uid, "a cavalry unit (A32)"))
    if extra.objective is not None and extra.table is None:
        add((f"{e}.objective", extra.objective, "None without a table (A21)"))


def _table(state: State, table: Table, tp: str, add: Callable[[Fault], None]) -> None:
    """Every standing unit has its footprint, of its shape and side, none stands on another
    or on impassable ground; footprints of no standing unit; the commanders' marks."""
    units = {u.id: u for u in state.units}
    standing = {u.id: u for u in state.units if not u.lost}
    for i, f in enumerate(table.footprints):
        where = f"{tp}.footprints[{i}]"
        unit = standing.get(f.unit_id)
        if unit is None:
            add((f"{where}.unit_id", f.unit_id, _ids(standing, "a unit that stands on the "
                                                              "table")))
            continue
        if f.side != unit.side:
            add((f"{where}.side", f.side, f"{unit.side!r}, the unit's side"))
        frontage, depth, layout = BASE_SIZES[unit.kind, unit.formation]
        shape = (max(1, unit.bases), frontage, depth, layout, None)
        if (f.bases, f.frontage, f.depth, f.formation, f.spacing) != shape:
            add((where, (f.bases, f.frontage, f.depth, str(f.formation), f.spacing),
                 f"the footprint of {unit.id}: {shape[0]} bases of {frontage:g} x {depth:g}"
                 f" in. laid {layout} (A22)"))
    for uid in standing:
        if uid not in table.units:
            add((f"{tp}.footprints", uid, "a footprint for every unit that stands on the "
                 "table (missing)"))
    for i, (_uid, x, y) in enumerate(state.extra.holders):
        if not (0 <= x <= table.width and 0 <= y <= table.depth):
            add((f"{tp.rsplit('.', 1)[0]}.holders[{i}]", (x, y),
                 f"a point on the {table.width:g} x {table.depth:g} table (A32)"))
    if state.extra.objective is not None and state.extra.objective not in table.terrain.by_id:
        add((f"{tp.rsplit('.', 1)[0]}.objective", state.extra.objective,
             _ids(table.terrain.by_id, "a feature")))
    _marks(state, table, tp, units, add)
    _stacked(table, standing, tp, add)


def _marks(state: State, table: Table, tp: str, units: dict[str, Unit],
           add: Callable[[Fault], None]) -> None:
    """A mark for every commander (A14): one with a standing unit rides with it."""
    leaders = {c.id: c for c in state.commanders}
    marks = {m.commander_id: m for m in table.commanders}
    for i, mark in enumerate(table.commanders):
        leader = leaders.get(mark.commander_id)
        if leader is None:
            add((f"{tp}.commanders[{i}].commander_id", mark.commander_id,
                 _ids(leaders, "a commander")))
            continue
        if mark.side and mark.side != leader.side:
            add((f"{tp}.commanders[{i}].side", mark.side, f"{leader.side!r}, the "
                 "commander's side"))
        with_unit = leader.with_unit
        riding = with_unit if with_unit in units and not units[with_unit].lost else None
        if mark.attached_to != riding:
            add((f"{tp}.commanders[{i}].attached_to", mark.attached_to,
                 f"{riding!r}, the unit he is with (A14)" if riding is not None else
                 "None: he is with no unit standing, and rides alone (A14)"))
    for leader in state.commanders:
        if leader.id not in marks:
            add((f"{tp}.commanders", leader.id, "a mark for every commander (A14)"))


def _stacked(table: Table, standing: dict[str, Unit], tp: str,
             add: Callable[[Fault], None]) -> None:
    """No footprint stands on another, nor on impassable ground (A26: every move ends clear
    of units; Terrain Movement Modifiers)."""
    prints = [f for f in table.footprints if f.unit_id in standing]
    for a, b, _area in stacked(prints, _OVERLAP, bases=True):
        add((f"{tp}.footprints", (prints[a].unit_id, prints[b].unit_id),
             "units that do not stand on each other (A26)"))
    for feature in table.terrain.by_id.values():
        if feature.kind is not TerrainKind.IMPASSABLE:
            continue
        for f in prints:
            if region_of(f).shared_area(feature) > _OVERLAP:
                add((f"{tp}.footprints", (f.unit_id, feature.feature_id),
                     "a unit off impassable ground (Terrain Movement Modifiers)"))
