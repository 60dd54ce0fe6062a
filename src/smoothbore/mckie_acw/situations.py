"""Positions into situations (McKie ACW on a table): one function per mechanism that turns the
footprints and terrain of the battle's table into the facts its rules take, so that firing,
charging and moving are asked with unit ids alone.

Every question is asked of all pairs at once and kept on the table (``Table.derived``: shared
by every state whose units stand where they stood) or on the state (``BattleState.derived``).
Moves are measured in ``table_moves``."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs
import numpy
import numpy.typing as npt

from smoothbore.core import IllegalActionError
from smoothbore.table import (
    Face,
    Footprint,
    Regions,
    Table,
    arc_of,
    charges,
    contact_position,
    nearest_many,
    sight_lines,
)

from . import rules
from .fields import check_fields
from .firing import ARC, FireFacts
from .melee import Attack
from .movement import Manoeuvre, rate
from .positions import NEAR, SIGHT
from .state import State, illegal
from .table_moves import move_facts, table_of, whole_mm
from .units import Commander, Unit

MAX_RANGE = 2000
"""The longest range a FireFacts holds (mm): beyond every weapon's reach."""


# --- firing --------------------------------------------------------------------------------
@attrs.frozen
class ShotFacts:
    """What the table measures of ``firer`` firing at ``target``: the ``range`` in whole mm
    from the firer's centre to the nearest point of the target (Firing procedure 1), the
    ``angle`` off the firer's front, whether it ``sees`` the target (the line of fire clear of
    buildings and hills, and no more than 20 mm inside dense woods or a town), what
    ``blocked_by`` it, the units ``between``, whether the firer fires from ``higher`` ground
    than they stand on, whether the fire comes from the target's ``flank`` or ``rear``, and
    whether it passes ``across_obstacle`` (a fence, wall, stream or linear work on the line of
    fire within 20 mm of the target, M31)."""

    firer: str
    target: str
    range: int
    angle: int
    sees: bool
    blocked_by: tuple[str, ...] = ()
    between: tuple[str, ...] = ()
    higher: bool = False
    flank: bool = False
    rear: bool = False
    across_obstacle: bool = False

    def facts(self, figures: int = 0, resting: bool = False) -> FireFacts:
        """The facts of the fire, with the player's own choices (figures firing, resting)."""
        return FireFacts(range=min(self.range, MAX_RANGE), figures=figures, angle=self.angle,
                         resting=resting, target_at_edge=True, flank=self.flank,
                         rear=self.rear, over_friends=bool(self.between),
                         from_higher_ground=self.higher, across_obstacle=self.across_obstacle)


MEASURED_FIRE = ("range", "angle", "target_at_edge", "flank", "rear", "over_friends",
                 "from_higher_ground", "across_obstacle")
"""The fields of FireFacts the table measures (the others are the player's choice)."""
_PLAIN = FireFacts()


def carries_measured_fire(facts: FireFacts) -> bool:
    """Whether a fire's facts carry something the table measures (not left at the default)."""
    return any(getattr(facts, name) != getattr(_PLAIN, name) for name in MEASURED_FIRE)


def shots(table: Table, pairs: Sequence[tuple[str, str]] | None = None
          ) -> dict[tuple[str, str], ShotFacts]:
    """Each unit's shot at each enemy on the table (``pairs``: these (firer, target) only)."""
    found = sight_lines(table, pairs, rules=SIGHT)
    if not found:
        return {}
    layout = table.layout
    fi = layout.rows([s.firer for s in found])
    ti = layout.rows([s.target for s in found])
    fps = layout.footprints
    ranges, ends = nearest_many(layout.centre[fi], [fps[t] for t in ti.tolist()])
    across = _covered(table, ends)
    levels = layout.levels
    out = {}
    for s, r, f, t, o in zip(found, ranges.tolist(), fi.tolist(), ti.tolist(), across.tolist(),
                             strict=True):
        between = s.units_between
        top = max((int(levels[layout.index[u]]) for u in between), default=0)
        higher = max(int(levels[f]), int(levels[t])) > top
        out[(s.firer, s.target)] = ShotFacts(
            s.firer, s.target, whole_mm(r), min(180, whole_mm(s.angle)), s.line_clear,
            s.blocked_by, between, higher, s.face.is_flank, s.face is Face.REAR, o)
    return out


def _covered(table: Table, ends: npt.NDArray[numpy.float64]) -> npt.NDArray[numpy.bool_]:
    """For each line of fire (its ends, (n, 2, 2): firer's centre, the target's nearest
    point), whether an obstacle crosses its last ``NEAR`` mm, where it covers the target
    (M31)."""
    firer, target = ends[:, 0], ends[:, 1]
    back = firer - target
    share = numpy.minimum(1.0, NEAR / numpy.maximum(numpy.hypot(back[:, 0], back[:, 1]), 1e-9))
    return Regions.segments(target + back * share[:, None], target).crossing_obstacles(table)


def _by_id(table: Table) -> dict[str, Footprint]:
    """The footprints by unit id (once a table)."""
    return {f.unit_id: f for f in table.footprints}


def _shot_memo(table: Table) -> dict[tuple[str, str], ShotFacts]:
    """The shots measured on this table, by (firer, target)."""
    return {}


def measure_shots(state: State, pairs: Iterable[tuple[str, str]]) -> None:
    """Measure these shots (those not yet measured on the table, all at once), keeping them
    on the table for ``shot_facts``; a pair that is not two enemies on the table is left
    out."""
    table = table_of(state)
    memo = table.derived(_shot_memo)
    units = table.derived(_by_id)
    new = [(f, t) for f, t in dict.fromkeys(pairs) if (f, t) not in memo and f in units
           and t in units and units[f].side and units[t].side
           and units[f].side != units[t].side]
    if new:
        memo.update(shots(table, new))


def shot_facts(state: State, firer: str, target: str) -> ShotFacts:
    """What the table measures of ``firer`` firing at ``target``."""
    memo = table_of(state).derived(_shot_memo)
    found = memo.get((firer, target))
    if found is None:
        measure_shots(state, ((firer, target),))
        found = memo.get((firer, target))
    if found is None:
        raise illegal(f"fire of {firer} at {target}", "both must be enemy units on the table",
                      rules.FIRING_PROCEDURE)
    return found


def beyond_reach(state: State, firer: str, target: str, reach: int) -> bool:
    """Whether ``target`` is surely beyond ``reach`` mm of ``firer`` (its centre more than
    ``reach`` + 1 mm from the target's outline, measured in plain arithmetic): its shot's
    range is then beyond ``reach`` too, and need not be measured."""
    units = table_of(state).derived(_by_id)
    f = units.get(firer)
    t = units.get(target)
    if f is None or t is None:
        return False
    (fx, fy), (rx, ry) = t.frame
    dx, dy = f.x - t.x, f.y - t.y
    across = max(0.0, abs(dx * rx + dy * ry) - t.width / 2)
    along = max(0.0, abs(dx * fx + dy * fy) - t.length / 2)
    return math.hypot(across, along) > reach + 1


# --- snipers and generals -------------------------------------------------------------------
def general_point(table: Table, general: Commander) -> tuple[float, float] | None:
    """Where a general is on the table: his mark's point (the centre of the unit he is with,
    or where he stands alone), or without a mark the centre of the unit he is with; None
    when the table cannot place him (M38)."""
    if any(m.commander_id == general.id for m in table.commanders):
        return table.commander_point(general.id)
    if general.attached_to in table.units:
        return table.footprint(general.attached_to).centre
    return None


def general_shot(state: State, firer: str, general: Commander, reach: int) -> int | None:
    """The range in whole mm at which a sniper may pick out a general (Sharpshooters,
    snipers: the general is the target; Firing procedure 1: from the centre of the firing
    unit): from the sniper's centre to where the general is (``general_point``), if within
    ``reach`` and the sniper's 45-degree arc, and seen: the unit he is with seen, or a
    general alone seen where he stands as a unit would be (M18). None: no such shot."""
    table = table_of(state)
    point = general_point(table, general)
    if point is None:
        return None
    fp = table.footprint(firer)
    length = whole_mm(math.hypot(point[0] - fp.x, point[1] - fp.y))
    if length > reach or not arc_of(table, firer, ARC).contains(*point, edge=True):
        return None
    if general.attached_to:
        sees = shot_facts(state, firer, general.attached_to).sees
    else:
        x = min(max(point[0], 0.5), table.width - 0.5)  # a 1 mm mark, on the table
        y = min(max(point[1], 0.5), table.depth - 0.5)
        mark = Footprint(f"general:{general.id}", x, y, side=general.side)
        sees = sight_lines(table.placed(mark), [(firer, mark.unit_id)], rules=SIGHT)[0].line_clear
    return length if sees else None


def check_sight(shot: ShotFacts, action: object) -> None:
    """Visibility: the firer sees the target (the restrictions on range, arc and firing over
    troops are the FireFacts checks)."""
    if not shot.sees:
        what = ", ".join(shot.blocked_by) or "the ground"
        raise IllegalActionError(action, f"{shot.target} cannot be seen from {shot.firer} "
                                 f"({what} in the way)", rules.VISIBILITY)


# --- charges ---------------------------------------------------------------------------------
@attrs.frozen
class ChargeFacts:
    """What the table measures of ``charger`` charging ``target``: the ``distance`` its front
    must go straight ahead to touch (None: the target is not to its front), where it strikes
    (``attack``), and the units in the way (``blocked_by``)."""

    charger: str
    target: str
    distance: int | None
    attack: Attack
    blocked_by: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)

    def reaches(self, reach: int) -> bool:
        """Directly ahead, within ``reach`` mm, nothing in the way."""
        return self.distance is not None and self.distance <= reach and not self.blocked_by


_ATTACK = {Face.FRONT: Attack.FRONT, Face.LEFT: Attack.FLANK, Face.RIGHT: Attack.FLANK,
           Face.REAR: Attack.REAR}


def charge_lines(table: Table, pairs: Sequence[tuple[str, str]] | None = None
                 ) -> dict[tuple[str, str], ChargeFacts]:
    """Each unit's charge at each enemy on the table (``pairs``: these (charger, target)
    only)."""
    out = {}
    for c in charges(table, pairs, 0.0):
        ahead = None if c.ahead is None else whole_mm(c.ahead)
        out[(c.charger, c.target)] = ChargeFacts(c.charger, c.target, ahead, _ATTACK[c.face],
                                                 c.blocked_by)
    return out


def _charge_memo(table: Table) -> dict[tuple[str, str], ChargeFacts]:
    """The charges measured on this table, by (charger, target)."""
    return {}


def charge_facts(state: State, charger: str, target: str) -> ChargeFacts:
    """What the table measures of ``charger`` charging ``target``."""
    table = table_of(state)
    memo = table.derived(_charge_memo)
    found = memo.get((charger, target))
    if found is None:
        units = table.derived(_by_id)
        a, b = units.get(charger), units.get(target)
        if a is not None and b is not None and a.side and b.side and a.side != b.side:
            found = memo[(charger, target)] = charge_lines(table, [(charger, target)])[
                (charger, target)]
    if found is None:
        raise illegal(f"charge of {charger} at {target}",
                      "both must be enemy units on the table", rules.BATTLE_PERIOD)
    return found


def measure_charges(state: State, pairs: Iterable[tuple[str, str]]) -> None:
    """Measure these charges (those not yet measured on the table, all at once), keeping
    them on the table for ``charge_facts``; a pair that is not two enemies on the table is
    left out."""
    table = table_of(state)
    memo = table.derived(_charge_memo)
    units = table.derived(_by_id)
    new = [(a, b) for a, b in dict.fromkeys(pairs) if (a, b) not in memo and a in units
           and b in units and units[a].side and units[b].side
           and units[a].side != units[b].side]
    if new:
        memo.update(charge_lines(table, new))


def surely_apart(state: State, a: str, b: str, gap: int) -> bool:
    """Whether units ``a`` and ``b`` stand surely more than ``gap`` mm apart (their centres
    further apart than ``gap`` + 1 mm and the half diagonals of both outlines, measured in
    plain arithmetic): no charge of ``gap`` mm or less reaches between them."""
    units = table_of(state).derived(_by_id)
    f, t = units.get(a), units.get(b)
    if f is None or t is None:
        return False
    return math.hypot(f.x - t.x, f.y - t.y) > gap + 1 + (
        math.hypot(f.width, f.length) + math.hypot(t.width, t.length)) / 2


def check_charge(state: State, unit: Unit, facts: ChargeFacts, action: object) -> None:
    """A charge goes straight ahead into a target to the charger's front, within its move,
    with no unit in the way."""
    if facts.distance is None:
        raise IllegalActionError(action, f"{facts.target} is not to {unit.name}'s front",
                                 rules.BATTLE_PERIOD)
    if facts.blocked_by:
        raise IllegalActionError(action, f"{', '.join(facts.blocked_by)} in the way",
                                 rules.BATTLE_PERIOD)
    reach = rate(unit, state.options.tables)
    if facts.distance > reach:
        raise IllegalActionError(action, f"{facts.distance} mm is beyond {unit.name}'s move "
                                 f"({reach})", rules.MOVEMENT)
    move_facts(state, unit, charge_end(state, facts.charger, facts.target), Manoeuvre.NONE,
               False, action)


SHORT_OF_CONTACT = 1e-3
"""A move into contact is measured to this many mm short of the enemy it touches (contact is
measured to a hundredth of an inch; a move may not end on another unit)."""


def charge_end(state: State, charger: str, target: str) -> tuple[float, float, float]:
    """Where a charge straight ahead ends, touching its target (x, y, facing): its path is
    a move like any other, paying the ground at the charger's rates (M30, M33)."""
    table = table_of(state)
    start = table.footprint(charger)
    end = contact_position(table, charger, target)
    length = math.hypot(end.x - start.x, end.y - start.y)
    scale = max(0.0, length - SHORT_OF_CONTACT) / length if length else 0.0
    return (start.x + (end.x - start.x) * scale, start.y + (end.y - start.y) * scale,
            start.facing)
