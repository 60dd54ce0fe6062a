"""Whether a Will's AWI battle holds together as a whole (issue 28): the one check that
``new_battle`` and every load (``BattleState.from_json``, ``Engine.load``, through
``Extra.check_battle``) make, so that a battle no step could play on is refused at once with
EVERY fault named, never accepted to fail later with a raw exception.

Each field alone is checked where its class is made (validators); what is checked here
spans fields: two sides (Rules - Introduction: two players), every name a unit, general or
``extra`` field gives naming one of the battle's units or generals, of its own side where
the rules make it so (Rules - Introduction: Generals; Command & Control), the turn and
the counts within what the rules let a battle reach (interpretations W50-W54), and on a
table the footprints exactly the standing units (each laid out as its bases and formation
lay it, ``positions.footprint``), no two units on one another and no unit's centre in
ground its kind may not enter (Rules - Movement: Effects of terrain, NA)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smoothbore.core.validate import Fault, refuse_faults
from smoothbore.table import Table, stacked

from .fortifications import CHARGES_PER_WAGON, DEFENCE_POINTS
from .positions import layout_of
from .units import Commander, TroopType, Unit

if TYPE_CHECKING:
    from .state import State

MAX_TURNS = 10_000
"""The longest battle a state may be in (the rules set no limit: interpretation W50)."""

_SLIVER = 1e-6
"""Two footprints overlapping by this little (square inches) only touch: the rounding of a
unit moved into contact (as ``situations`` judges ground)."""


def check_battle(state: State, path: str | None = None) -> None:
    """Refuse a battle that ``new_battle`` would not make or a step could not play on,
    naming every fault (``battle_faults``): an ``InvalidValueError`` (a ``LoadError`` under
    ``path``, the loader's root ``$``) whose field is the first fault's path and whose
    ``allowed`` lists the others too; ``error.faults`` holds them all."""
    refuse_faults(battle_faults(state), path)


def battle_faults(state: State) -> tuple[Fault, ...]:
    """Every fault of the battle as a whole, in the order of the document (empty: none)."""
    out: list[Fault] = []
    if len(state.sides) != 2:
        out.append(("sides", list(state.sides), "exactly two sides (Rules - Introduction)"))
    if state.turn > MAX_TURNS:
        out.append(("turn", state.turn, f"1 to {MAX_TURNS} (interpretation W50)"))
    limit = state.scenario.turn_limit
    if limit is not None and limit > MAX_TURNS:
        out.append(("scenario.turn_limit", limit, f"1 to {MAX_TURNS} (interpretation W50)"))
    units = {u.id: u for u in state.units}
    commanders = {c.id: c for c in state.commanders}
    _check_units(state, commanders, out)
    _check_commanders(state, units, commanders, out)
    _check_extra(state, units, commanders, out)
    table = state.extra.table
    if table is not None:
        _check_table(state, table, out)
    else:
        for i, t in enumerate(state.extra.tests):
            if t.origin is not None:
                out.append((f"extra.tests[{i}].origin", t.origin,
                            "None: only a table measures where the charged unit stood"))
    return tuple(out)


def _check_units(state: State, commanders: dict[str, Commander], out: list[Fault]) -> None:
    for i, u in enumerate(state.units):
        general = commanders.get(u.commander)
        if general is not None and general.side != u.side:
            out.append((f"units[{i}].commander", u.commander,
                        f"a general of {u.side} (Rules - Introduction: Generals), or ''"))
        if u.strength > u.initial_strength:
            out.append((f"units[{i}].strength", u.strength,
                        f"0 to its initial_strength {u.initial_strength} (Rules - "
                        "Introduction: Strength Points; nothing in a battle restores a "
                        "point: interpretation W53)"))


def _check_commanders(state: State, units: dict[str, Unit], commanders: dict[str, Commander],
                      out: list[Fault]) -> None:
    for i, c in enumerate(state.commanders):
        unit = units.get(c.attached_to)
        if unit is not None and unit.side != c.side:
            out.append((f"commanders[{i}].attached_to", c.attached_to,
                        f"a unit of {c.side} (a general rides with his own side's units), "
                        "or ''"))
        above = commanders.get(c.superior)
        if above is not None and above.side != c.side:
            out.append((f"commanders[{i}].superior", c.superior,
                        f"a general of {c.side} other than {c.id!r}, or ''"))
        elif c.superior and c.superior in commanders and _circular(state, c.id):
            out.append((f"commanders[{i}].superior", c.superior,
                        "a general above him: no general is his own superior, at any remove"))


def _circular(state: State, start: str) -> bool:
    above = {c.id: c.superior for c in state.commanders}
    seen = {start}
    at = above.get(start, "")
    while at:
        if at in seen:
            return True
        seen.add(at)
        at = above.get(at, "")
    return False


def _check_extra(state: State, units: dict[str, Unit], commanders: dict[str, Commander],
                 out: list[Fault]) -> None:
    extra = state.extra
    ids = sorted(units)
    if extra.ended_by and extra.ended_by not in state.sides:
        out.append(("extra.ended_by", extra.ended_by, "a side, or '' (not ended)"))
    for name in ("ordered", "rallied", "compelled", "fired", "half_fired", "could_fire",
                 "resolved", "winners", "supplied"):
        for item in sorted(getattr(extra, name)):
            if item not in units:
                out.append((f"extra.{name}", item, _one_of("the id of a unit", ids)))
    for item in sorted(extra.done):
        general = item.removeprefix("general:")
        if item not in units and not (item.startswith("general:") and general in commanders):
            out.append(("extra.done", item, "the id of a unit, or 'general:' and the id of "
                        "a general"))
    for item in sorted(extra.failed):
        if item not in commanders:
            out.append(("extra.failed", item, _one_of("the id of a general", sorted(commanders))))
    for name in ("supplied",):
        for item in sorted(getattr(extra, name)):
            if item in units and units[item].troop is not TroopType.WAGON:
                out.append((f"extra.{name}", item, "the id of a wagon (Field Engineering)"))
    seen: set[str] = set()
    for i, (wagon, drawn) in enumerate(extra.charges_drawn):
        where = f"extra.charges_drawn[{i}]"
        if wagon not in units or units[wagon].troop is not TroopType.WAGON or wagon in seen:
            out.append((f"{where}[0]", wagon, "the id of a wagon, once (Demolition)"))
        seen.add(wagon)
        if type(drawn) is not int or not 1 <= drawn <= CHARGES_PER_WAGON:
            out.append((f"{where}[1]", drawn, f"1 to {CHARGES_PER_WAGON} (Demolition: 1 wagon "
                        f"can hold {CHARGES_PER_WAGON} charges)"))
    works: set[str] = set()
    for i, w in enumerate(extra.works):
        if w.points > DEFENCE_POINTS[w.work]:
            out.append((f"extra.works[{i}].points", w.points,
                        f"0 to {DEFENCE_POINTS[w.work]} (Defence Values of Buildings and "
                        "Fortifications)"))
        if w.id in works:
            out.append((f"extra.works[{i}].id", w.id, "an id no other work has"))
        works.add(w.id)
    for i, d in enumerate(extra.demolitions):
        if d.work not in works:
            out.append((f"extra.demolitions[{i}].work", d.work,
                        _one_of("the id of a work", sorted(works))))
        if d.unit not in units:
            out.append((f"extra.demolitions[{i}].unit", d.unit, _one_of("the id of a unit", ids)))
    for i, ch in enumerate(extra.charges):
        a, b = units.get(ch.charger), units.get(ch.target)
        if a is not None and b is not None and a.side == b.side:
            out.append((f"extra.charges[{i}].target", ch.target,
                        f"a unit of the other side than {ch.charger!r} (Rules - Charging)"))


def _one_of(what: str, names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:12]) + (" ..." if len(names) > 12 else "")
    return f"{what} ({shown})" if names else f"{what} (there is none)"


def _check_table(state: State, table: Table, out: list[Fault]) -> None:
    standing = {u.id: u for u in state.units if u.on_table}
    prints = table.footprints
    for i, f in enumerate(prints):
        where = f"extra.table.footprints[{i}]"
        unit = standing.get(f.unit_id)
        if unit is None:
            out.append((f"{where}.unit_id", f.unit_id,
                        _one_of("the id of a unit standing on the table", sorted(standing))))
            continue
        if f.side != unit.side:
            out.append((f"{where}.side", f.side, f"{unit.side!r}, the side of {unit.id!r}"))
        formation, bases, frontage, depth = layout_of(unit)
        laid = (f.formation, f.bases, f.frontage, f.depth)
        if laid != (formation, bases, frontage, depth):
            out.append((f"{where}", laid, f"the layout of {unit.id!r}: {formation.value}, "
                        f"{bases} base(s) of {frontage:.4f} x {depth:.4f} inches (Rules - "
                        "Introduction: Units and bases, Formations)"))
    for uid in standing:
        if uid not in table.units:
            out.append(("extra.table.footprints", uid,
                        "a footprint for every unit that stands on the table"))
    sides = {c.id: c.side for c in state.commanders}
    for i, mark in enumerate(table.commanders):
        where = f"extra.table.commanders[{i}]"
        if mark.commander_id not in sides:
            out.append((f"{where}.commander_id", mark.commander_id,
                        _one_of("the id of a general", sorted(sides))))
        elif mark.side and mark.side != sides[mark.commander_id]:
            out.append((f"{where}.side", mark.side, f"{sides[mark.commander_id]!r}"))
    for i, t in enumerate(state.extra.tests):
        if t.origin is not None and not (0 <= t.origin[0] <= table.width
                                         and 0 <= t.origin[1] <= table.depth):
            out.append((f"extra.tests[{i}].origin", t.origin,
                        f"a point on the {table.width:g} x {table.depth:g} inches table (where "
                        "the charged unit stood: Rules - Charging), or None"))
    _check_stacked(table, out)
    _check_ground(state, table, standing, out)


def _check_stacked(table: Table, out: list[Fault]) -> None:
    """No two footprints on one another (more than a touch): Rules - Move Sequence C, moves
    end clear of other units."""
    prints = table.footprints
    for i, j, area in stacked(prints, _SLIVER):
        out.append((f"extra.table.footprints[{j}]", (prints[j].x, prints[j].y),
                    f"a place clear of {prints[i].unit_id!r} (the footprints overlap "
                    f"{area:.3g} square inches; Rules - Move Sequence C)"))


def _check_ground(state: State, table: Table, standing: dict[str, Unit],
                  out: list[Fault]) -> None:
    """No unit's centre stands in ground its kind may not enter (Rules - Movement: Effects
    of terrain, NA; a ford or bridge hides the river it crosses). The centre, as the table
    judges a route across a ford by the centre's (interpretation W51)."""
    from .situations import impassable_at  # situations reads the state module

    for i, f in enumerate(table.footprints):
        unit = standing.get(f.unit_id)
        if unit is None:
            continue
        ground = impassable_at(table, unit, state.options, f.x, f.y)
        if ground:
            out.append((f"extra.table.footprints[{i}]", (f.x, f.y),
                        f"a place {unit.id!r} may stand: its centre is in {ground}, "
                        "NA to it (Rules - Movement: Effects of terrain)"))
