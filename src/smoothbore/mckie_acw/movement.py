"""Movement (McKie ACW, Movement): the (reconstructed) rates, formation changes, facing,
mounting and horse holders, limbering, manhandling guns, dense woods and digging."""

from __future__ import annotations

import functools
from typing import NamedTuple

from smoothbore.core import IllegalActionError, NamedEnum

from . import rules
from .tables import DEFAULT_TABLES, Tables
from .units import Arm, Formation, Unit

MANHANDLE = 20
"""Field artillery crews may manhandle their guns up to 20 mm in a period."""
TRENCH_PER_FIGURE = 7
"""One figure digs 7 mm of trench in 4 complete periods."""


class Manoeuvre(NamedEnum):
    """Maneuvers, etc., with the share of the move each costs (in per cent)."""

    NONE = "none"
    CHANGE_FORMATION = "change-formation"
    FACE = "change-face"
    MOUNT = "mount"
    DISMOUNT = "dismount"
    LIMBER = "limber"
    UNLIMBER = "unlimber"
    MANHANDLE = "manhandle"

    @property
    def cost(self) -> int:
        """Per cent of the move deducted: formation 50, facing, mounting and limbering 25."""
        if self is Manoeuvre.NONE or self is Manoeuvre.MANHANDLE:
            return 0
        return 50 if self is Manoeuvre.CHANGE_FORMATION else 25


def rate(unit: Unit, tables: Tables = DEFAULT_TABLES, *, limbered: bool | None = None) -> int:
    """A unit's full move in mm: foot (and dismounted cavalry) and mounted cavalry by
    formation; limbered guns (field, or siege guns and mortars); unlimbered guns 0."""
    return _rate(_Mover.of(unit), tables, unit.limbered if limbered is None else limbered)


class _Mover(NamedTuple):
    """What a unit's move depends on (a plain tuple: cheap to hash and compare as a key)."""

    name: str
    arm: Arm
    heavy: bool
    formation: Formation
    mounted: bool
    limbered: bool

    @classmethod
    def of(cls, unit: Unit) -> _Mover:
        return _mover(unit)


@functools.lru_cache(maxsize=4096)
def _mover(unit: Unit) -> _Mover:
    return _Mover(unit.name, unit.arm, unit.weapon.is_heavy, unit.formation, unit.mounted,
                  unit.limbered)


def _rate(unit: _Mover, tables: Tables, limbered: bool) -> int:
    if unit.arm is Arm.ARTILLERY:
        if not limbered:
            return 0
        key = "siege-artillery-limbered" if unit.heavy else "field-artillery-limbered"
        return tables.rate(key)
    keys = _CAVALRY_RATES if unit.arm is Arm.CAVALRY and unit.mounted else _FOOT_RATES
    return tables.rate(keys[unit.formation])


_FOOT_RATES = {f: f"foot-{f.value}" for f in Formation}
_CAVALRY_RATES = {f: f"cavalry-{f.value}" for f in Formation}


def max_move(unit: Unit, manoeuvre: Manoeuvre, *, double: bool, dense_woods: bool,
             formation: Formation | None, tables: Tables, action: object) -> int:
    """The furthest a unit may go this period with one manoeuvre (raises IllegalActionError
    for a manoeuvre it cannot make)."""
    reach = _reach(_Mover.of(unit), manoeuvre, double, dense_woods, formation, tables)
    if isinstance(reach, int):
        return reach
    raise IllegalActionError(action, *reach)


@functools.lru_cache(maxsize=4096)
def _reach(unit: _Mover, manoeuvre: Manoeuvre, double: bool, dense_woods: bool,
           formation: Formation | None, tables: Tables) -> int | tuple[str, str]:
    """``max_move``: the furthest, or why not and the rule (remembered: a unit is asked
    about the same manoeuvres for every move it is offered)."""
    m = Manoeuvre
    gun = unit.arm is Arm.ARTILLERY
    if dense_woods and unit.arm is not Arm.FOOT:
        return "only foot may move in dense woods", rules.DENSE_WOODS
    if manoeuvre is m.NONE and formation is None:  # the plain move, the common case
        full = _rate(unit, tables, unit.limbered)
        if double:
            full *= 2
        return full // 2 if dense_woods else full

    def no(why: str, rule: str = rules.MANOEUVRES) -> tuple[str, str]:
        return why, rule

    if (manoeuvre is m.CHANGE_FORMATION) != (formation is not None):
        return no("a formation change names the new formation, and only it does")
    if manoeuvre is m.CHANGE_FORMATION:
        assert formation is not None
        if gun:
            return no("guns limber or unlimber; they have no formations")
        if formation is unit.formation:
            return no(f"{unit.name} is already in {formation}")
        if formation is Formation.SKIRMISH and unit.arm is Arm.CAVALRY and unit.mounted:
            return no("mounted cavalry do not skirmish here: dismount first (M13)")
    if manoeuvre in (m.MOUNT, m.DISMOUNT):
        if unit.arm is not Arm.CAVALRY:
            return no("only cavalry mount and dismount")
        if unit.mounted == (manoeuvre is m.MOUNT):
            return no(f"{unit.name} is already {'mounted' if unit.mounted else 'dismounted'}")
    if manoeuvre in (m.LIMBER, m.UNLIMBER, m.MANHANDLE) and not gun:
        return no("only artillery limbers, unlimbers or is manhandled")
    if manoeuvre is m.LIMBER and unit.limbered:
        return no(f"{unit.name} is already limbered")
    if manoeuvre is m.UNLIMBER and not unit.limbered:
        return no(f"{unit.name} is already unlimbered")
    if manoeuvre is m.MANHANDLE:
        if unit.limbered or unit.heavy:
            return no("only unlimbered field artillery is manhandled")
        return MANHANDLE
    if double and manoeuvre is not m.NONE:
        return no("a double move is all movement: no manoeuvre with it (M14)")
    if gun and manoeuvre in (m.LIMBER, m.UNLIMBER):
        if unit.heavy:
            return 0  # limbering siege guns or mortars takes the whole period
        full = _rate(unit, tables, True)
    else:
        full = _rate(unit, tables, unit.limbered)
        if manoeuvre is m.MOUNT:
            full = tables.rate(_CAVALRY_RATES[unit.formation])
    full = full * (100 - manoeuvre.cost) // 100
    if double:
        full *= 2
    if dense_woods:
        full //= 2
    return full


Mover = _Mover
"""What a unit's move depends on (public for the table's moves)."""
reach = _reach
"""``max_move`` from a ``Mover``: the furthest, or (why not, rule)."""


def trench_covers(unit: Unit, tables: Tables = DEFAULT_TABLES) -> bool:
    """Whether a trench dug by every figure of the unit (7 mm each) is as long as the unit's
    frontage (its front-rank figures times the base frontage, data/bases.toml)."""
    from .firing import front_rank

    frontage = tables.base("cavalry" if unit.arm is Arm.CAVALRY else "foot")[0]
    return unit.initial_figures * TRENCH_PER_FIGURE >= front_rank(unit) * frontage
