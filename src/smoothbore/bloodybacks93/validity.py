"""Whether a Bloodybacks battle holds together as a whole (issue 28): the one check that
``new_battle`` and every load (``BattleState.from_json``, ``Engine.load``, through
``Extra.check_battle``) make, so that a battle no step could play on is refused at once with
EVERY fault named, never accepted to fail later with a raw exception.

Each field alone is checked where its class is made (validators); what is checked here spans
fields or bounds counts the text leaves open: the two sides of the deck (Sequence of Play:
Activating Commanders, red and black), commanders riding with units of their own side, the
counts of a unit and of the turn's scratch state within what the rules let a battle reach
(interpretation B66), and on a table the footprints exactly the standing units, each laid out
as its bases and formation lay it (``placement``, B51), no two units on one another and no
unit's centre in ground its kind may not enter (Movement; B55)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smoothbore.core.validate import Fault, refuse_faults
from smoothbore.table import Table, TerrainKind, region_of, stacked

from .deck import DECK
from .placement import fits, rates_for
from .units import SIDES, Unit

if TYPE_CHECKING:
    from .state import State

MAX_SIZE = 240
"""Figures in a unit (mounted figures count two): ten of the text's 24-figure units, as the
mechanisms bound it (Unit size; interpretations B65, B66)."""
MAX_SECTIONS = 24
"""Guns (sections) in one artillery unit: the text's batteries are of one to a few sections;
24 is far beyond any (Shooting: Artillery, size per section; interpretation B66)."""
MAX_STAMINA_LOSSES = 10 * MAX_SIZE
"""Stamina losses of one unit: losses are figures' worth, ten to each figure of the largest
unit is far beyond any battle (the text sets no limit; interpretation B66)."""
MAX_LEVEL = 5
"""An activity level: the d6 roll when at most the activity rating (at most 5), else 1
(Determine commander activation level)."""
MAX_COMMAND_POINTS = 3
"""Command points: half the activity level (at most 5), rounded up (B1)."""
MAX_ACTIONS = 4
"""Actions from a hand: 3 for 6 successes, +1 in a long turn (Activating Units); each
command point spent adds one more."""
MINUTES = frozenset({0, *(card.turn_minutes for card in DECK)})
"""The turn's length: 0 before the first card, else (value + 1) x 5 minutes."""

_SLIVER = 1e-6
"""Two footprints overlapping by this little (square inches) only touch."""
_CLOSED = {TerrainKind.RIVER, TerrainKind.IMPASSABLE, TerrainKind.BUILDING}
_DRY = {TerrainKind.FORD, TerrainKind.BRIDGE}


def check_battle(state: State, path: str | None = None) -> None:
    """Refuse a battle that ``new_battle`` would not make or a step could not play on,
    naming every fault (``battle_faults``): an ``InvalidValueError`` (a ``LoadError`` under
    ``path``, the loader's root ``$``) whose field is the first fault's path and whose
    ``allowed`` lists the others too; ``error.faults`` holds them all."""
    refuse_faults(battle_faults(state), path)


def battle_faults(state: State) -> tuple[Fault, ...]:
    """Every fault of the battle as a whole, in the order of the document (empty: none)."""
    out: list[Fault] = []
    if tuple(state.sides) != SIDES:
        out.append(("sides", list(state.sides), f"{list(SIDES)}: red cards activate the "
                    "British, black the Americans (Sequence of Play: Activating Commanders)"))
    units = {u.id: u for u in state.units}
    _check_units(state, out)
    _check_commanders(state, units, out)
    _check_extra(state, units, out)
    table = state.extra.table
    if table is not None:
        _check_table(state, table, out)
    return tuple(out)


def _check_units(state: State, out: list[Fault]) -> None:
    for i, u in enumerate(state.units):
        if u.size > MAX_SIZE:
            out.append((f"units[{i}].size", u.size, f"1 to {MAX_SIZE} figures (Unit size; "
                        "interpretation B66)"))
        if u.sections > MAX_SECTIONS:
            out.append((f"units[{i}].sections", u.sections, f"1 to {MAX_SECTIONS} "
                        "(Shooting: Artillery; interpretation B66)"))
        if u.stamina_losses > MAX_STAMINA_LOSSES:
            out.append((f"units[{i}].stamina_losses", u.stamina_losses,
                        f"0 to {MAX_STAMINA_LOSSES} (interpretation B66)"))
        if u.destroyed and u.routing:
            out.append((f"units[{i}].routing", u.routing, "false for a destroyed unit "
                        "(Morale: a destroyed unit leaves the table)"))


def _check_commanders(state: State, units: dict[str, Unit], out: list[Fault]) -> None:
    for i, c in enumerate(state.commanders):
        unit = units.get(c.attached_to or "")
        if unit is not None and unit.side != c.side:
            out.append((f"commanders[{i}].attached_to", c.attached_to,
                        f"a unit of {c.side} (a commander rides with his own side's units), "
                        "or None"))


def _check_extra(state: State, units: dict[str, Unit], out: list[Fault]) -> None:
    extra = state.extra
    commanders = {c.id: c for c in state.commanders}
    card = extra.card
    if card is not None and card in extra.deck:
        out.append(("extra.card", card, "a card drawn: not one still in extra.deck"))
    seen_cards: set[object] = set()
    for i, c in enumerate(extra.deck):
        if c in seen_cards:
            out.append((f"extra.deck[{i}]", c, "a card not already in the deck (the deck "
                        "holds the ace to five of each colour once)"))
        seen_cards.add(c)
    if extra.minutes not in MINUTES:
        out.append(("extra.minutes", extra.minutes, "one of " + ", ".join(
            map(str, sorted(MINUTES))) + " (Activating Commanders: (value + 1) x 5 minutes)"))
    for cid in extra.active:
        leader = commanders.get(cid)
        if leader is not None and (card is None or leader.side != card.side):
            out.append(("extra.active", cid, "a commander of the side of the card in play "
                        "(Activating Commanders)"))
    seen: set[str] = set()
    for i, entry in enumerate(extra.activity):
        where = f"extra.activity[{i}]"
        if entry.commander_id in seen:
            out.append((f"{where}.commander_id", entry.commander_id,
                        "a commander without another activity entry"))
        seen.add(entry.commander_id)
        if type(entry.level) is not int or not 1 <= entry.level <= MAX_LEVEL:
            out.append((f"{where}.level", entry.level, f"1 to {MAX_LEVEL} (Determine commander "
                        "activation level)"))
        if (type(entry.command_points) is not int
                or not 0 <= entry.command_points <= MAX_COMMAND_POINTS):
            out.append((f"{where}.command_points", entry.command_points,
                        f"0 to {MAX_COMMAND_POINTS} (half the activity level, rounded up; B1)"))
    seen = set()
    for i, act in enumerate(extra.activated):
        where = f"extra.activated[{i}]"
        unit = units.get(act.unit_id)
        if act.unit_id in seen:
            out.append((f"{where}.unit_id", act.unit_id, "a unit without another entry"))
        seen.add(act.unit_id)
        if unit is not None and card is not None and unit.side != card.side:
            out.append((f"{where}.unit_id", act.unit_id, "a unit of the side of the card "
                        "in play (Activating Units)"))
        leader = commanders.get(act.commander_id)
        if leader is not None and unit is not None and leader.side != unit.side:
            out.append((f"{where}.commander_id", act.commander_id,
                        f"a commander of {unit.side}, or '' (Activating Units)"))
        if unit is not None:
            most = MAX_ACTIONS + MAX_COMMAND_POINTS * sum(
                c.side == unit.side for c in state.commanders)
        else:
            most = MAX_ACTIONS
        if type(act.actions) is not int or not 0 <= act.actions <= most:
            out.append((f"{where}.actions", act.actions, f"0 to {most} (a hand's actions and "
                        "a command point's extra actions; Activating Units)"))
    for i, melee in enumerate(extra.deferred):
        where = f"extra.deferred[{i}]"
        for name, ids in (("chargers", melee.chargers), ("defenders", melee.defenders)):
            if not ids:
                out.append((f"{where}.{name}", list(ids), "one unit or more"))
        both = (*melee.chargers, *melee.defenders)
        if len(set(both)) != len(both):
            out.append((f"{where}.defenders", list(melee.defenders), "units named once in "
                        "the melee, none both charger and defender (Multiple unit melee)"))
        sides = {units[u].side for u in melee.chargers if u in units}
        against = {units[u].side for u in melee.defenders if u in units}
        if len(sides) > 1 or sides & against:
            out.append((f"{where}.defenders", list(melee.defenders),
                        "units of the other side than the chargers, who are of one side "
                        "(Charges and melee)"))


def _one_of(what: str, names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:12]) + (" ..." if len(names) > 12 else "")
    return f"{what} ({shown})" if names else f"{what} (there is none)"


def _check_table(state: State, table: Table, out: list[Fault]) -> None:
    standing = {u.id: u for u in state.units if not u.destroyed}
    for i, f in enumerate(table.footprints):
        where = f"extra.table.footprints[{i}]"
        unit = standing.get(f.unit_id)
        if unit is None:
            out.append((f"{where}.unit_id", f.unit_id,
                        _one_of("the id of a unit standing on the table", sorted(standing))))
            continue
        if f.side != unit.side:
            out.append((f"{where}.side", f.side, f"{unit.side!r}, the side of {unit.id!r}"))
        elif not fits(unit, f):
            out.append((where, (f.bases, f.frontage, f.depth, f.formation.value),
                        f"the footprint of {unit.id!r} as its bases and formation lay it "
                        "(placement.footprint; B51)"))
    for uid in standing:
        if uid not in table.units:
            out.append(("extra.table.footprints", uid,
                        "a footprint for every unit not destroyed"))
    living = {c.id: c for c in state.commanders if not c.removed}
    for i, mark in enumerate(table.commanders):
        where = f"extra.table.commanders[{i}]"
        leader = living.get(mark.commander_id)
        if leader is None:
            out.append((f"{where}.commander_id", mark.commander_id,
                        _one_of("the id of a living commander", sorted(living))))
        elif mark.side and mark.side != leader.side:
            out.append((f"{where}.side", mark.side, f"{leader.side!r}"))
    marked = {m.commander_id for m in table.commanders}
    for cid in living:
        if cid not in marked:
            out.append(("extra.table.commanders", cid,
                        "a mark for every living commander (one riding with a unit is marked "
                        "with it: the table measures his rides and radius from there)"))
    _check_stacked(table, out)
    _check_ground(table, standing, out)


def _check_stacked(table: Table, out: list[Fault]) -> None:
    """No two footprints on one another (more than a touch): a move never ends on another
    unit (Movement; B54)."""
    prints = table.footprints
    for i, j, area in stacked(prints, _SLIVER):
        out.append((f"extra.table.footprints[{j}]", (prints[j].x, prints[j].y),
                    f"a place clear of {prints[i].unit_id!r} (the footprints overlap "
                    f"{area:.3g} square inches; Movement, B54)"))


def _check_ground(table: Table, standing: dict[str, Unit], out: list[Fault]) -> None:
    """No unit's centre in ground its kind may not enter: a river away from fords and
    bridges, impassable ground, a building (and for unlimbered guns heavy woods, difficult
    ground and steep hills) (Movement; B55)."""
    prints = table.footprints
    if not prints or not table.features:
        return
    xs = [f.x for f in prints]
    ys = [f.y for f in prints]
    # each feature asked once for every centre (one vectorised call a feature)
    inside = [(feature, region_of(feature).contains_many(xs, ys).tolist())
              for feature in table.features]
    for i, f in enumerate(prints):
        unit = standing.get(f.unit_id)
        if unit is None:
            continue
        kinds = {feature.kind: feature for feature, hits in inside if hits[i]}
        if not kinds:
            continue
        if kinds.keys() & _DRY:
            kinds.pop(TerrainKind.RIVER, None)
            kinds.pop(TerrainKind.STREAM, None)
        rates = rates_for(unit)
        for kind, feature in kinds.items():
            if kind in _CLOSED or rates.rate(kind) is None:
                name = feature.label or feature.feature_id
                out.append((f"extra.table.footprints[{i}]", (f.x, f.y),
                            f"a place {unit.id!r} may stand: its centre is in {name} "
                            f"({kind.value}), closed to it (Movement; B55)"))
                break
