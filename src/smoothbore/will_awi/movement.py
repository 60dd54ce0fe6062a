"""Rules - Movement: move distances, terrain, crossings, formation changes, guns, retiring,
facing, wheeling, passing through, the road bonus, and changing facing in the firing turn."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

import attrs

from smoothbore.core import D6, Dice, IllegalActionError, InvalidValueError, ThresholdCheck
from smoothbore.core.validate import MAX_INCHES, each, finite, in_range, maybe, one_of

from . import rules
from .charges import charge_reach
from .options import DEFAULT_OPTIONS, Options
from .units import FLAG, Arm, Formation, Nationality, TroopType, Unit


class Mode(enum.Enum):
    """Which column of the move tables: line or limbered, column or deployed, rout."""

    LINE = "line"
    COLUMN = "column"
    LIMBERED = "limbered"
    DEPLOYED = "deployed"
    ROUT = "rout"


# Rules - Movement: line, column, rout.
FOOT_AND_HORSE: Mapping[Arm, tuple[int, int, int]] = MappingProxyType({
    Arm.CLOSE_ORDER_FOOT: (6, 9, 12),
    Arm.OPEN_ORDER_FOOT: (9, 12, 15),
    Arm.CAVALRY: (15, 18, 21),
})
GENERALS_AND_COURIERS = (21, 21, 21)
# Battles of the '45: the British cavalry are dragoons and move 12" in line, 15" in column.
SLOW_DRAGOONS = (12, 15, 21)
# Wheeled equipment: limbered, deployed, rout (crew only); None = NA.
WHEELED: Mapping[TroopType, tuple[int, int | None, int | None]] = MappingProxyType({
    TroopType.LIGHT_GUN: (9, 3, 12),
    TroopType.MEDIUM_GUN: (6, 2, 12),
    TroopType.HEAVY_GUN: (3, 1, 12),
    TroopType.GALLOPER_GUN: (12, 3, 12),
    TroopType.GRASSHOPPER_GUN: (12, 21, 21),
    TroopType.HOWITZER: (9, 3, 21),
    TroopType.WAGON: (6, None, None),
})


def unit_mode(unit: Unit) -> Mode:
    """The column of the move table a unit uses now."""
    if unit.routing:
        return Mode.ROUT
    if unit.troop.is_gun or unit.troop is TroopType.WAGON:
        return Mode.LIMBERED if unit.limbered or unit.troop is TroopType.WAGON else Mode.DEPLOYED
    return Mode.COLUMN if unit.formation is Formation.COLUMN else Mode.LINE


def move_distance(
    unit: Unit,
    mode: Mode | None = None,
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
) -> int:
    """The maximum move in inches in open ground (Rules - Movement tables)."""
    mode = unit_mode(unit) if mode is None else mode
    if unit.troop in WHEELED:
        limbered, deployed, rout = WHEELED[unit.troop]
        if unit.troop is TroopType.GRASSHOPPER_GUN:
            deployed = options.grasshopper_deployed_move
        value = {Mode.LIMBERED: limbered, Mode.DEPLOYED: deployed, Mode.ROUT: rout}.get(mode)
        if mode in (Mode.LINE, Mode.COLUMN):
            raise InvalidValueError("mode", mode, "limbered, deployed or rout for guns and wagons")
        if value is None:
            raise IllegalActionError(
                action, f"{unit.troop.value} cannot move {mode.value}", rules.MOVEMENT_WHEELED
            )
        if unit.immobilised:
            raise IllegalActionError(action, "routed wagons are immobilised", rules.MOVEMENT)
        return value
    if mode in (Mode.LIMBERED, Mode.DEPLOYED):
        raise InvalidValueError("mode", mode, "line, column or rout for foot and cavalry")
    row = FOOT_AND_HORSE[unit.arm]
    dragoons = unit.dragoons or unit.nationality is Nationality.BRITISH
    if unit.troop.is_cavalry and dragoons and options.variant.slow_dragoons:
        row = SLOW_DRAGOONS
    return row[{Mode.LINE: 0, Mode.COLUMN: 1, Mode.ROUT: 2}[mode]]


class Mover(enum.Enum):
    """The columns of the terrain table."""

    CO_FOOT = 0
    OO_FOOT = 1
    MOUNTED = 2
    WHEELED = 3


def mover_of(unit: Unit) -> Mover:
    """Grasshopper guns count as close order foot for terrain (note (g))."""
    if unit.troop is TroopType.GRASSHOPPER_GUN or unit.arm is Arm.CLOSE_ORDER_FOOT:
        return Mover.CO_FOOT
    if unit.arm is Arm.OPEN_ORDER_FOOT:
        return Mover.OO_FOOT
    if unit.troop.is_cavalry:
        return Mover.MOUNTED
    return Mover.WHEELED


class Terrain(enum.Enum):
    OPEN = "open ground"
    ROAD = "road"
    ROUGH = "rough ground"
    GENTLE_SLOPE = "gentle slope"
    STEEP_SLOPE = "steep slope"
    OPEN_WOODS = "open woods"
    DENSE_WOODS = "dense woods"
    SWAMP = "swamp"
    FORD = "ford"
    RIVER = "river"
    IMPASSABLE_SLOPE = "impassable slope"


_T = Fraction(2, 3)
_S = Fraction(1, 3)
_F = Fraction(1)
# Percent of normal speed by mover (CO foot, OO foot, mounted, wheeled); None = NA.
TERRAIN_SPEED: Mapping[Terrain, tuple[Fraction | None, ...]] = MappingProxyType({
    Terrain.OPEN: (_F, _F, _F, _F),
    Terrain.ROAD: (_F, _F, _F, _F),
    Terrain.ROUGH: (_T, _F, _T, _S),
    Terrain.GENTLE_SLOPE: (_T, _F, _T, _S),
    Terrain.STEEP_SLOPE: (_S, _T, _S, None),
    Terrain.OPEN_WOODS: (_T, _F, _T, _T),
    Terrain.DENSE_WOODS: (_S, _T, None, None),
    Terrain.SWAMP: (_S, _T, None, None),
    Terrain.FORD: (_T, _T, _T, _S),
    Terrain.RIVER: (None, None, None, None),
    Terrain.IMPASSABLE_SLOPE: (None, None, None, None),
})
_PRINTED = MappingProxyType({_T: Fraction(66, 100), _S: Fraction(33, 100)})


class Crossing(enum.Enum):
    FENCE_OR_WALL = "crossing fences or walls"
    STREAM = "crossing streams"
    ENTER_BUILDING = "entering buildings"
    LEAVE_BUILDING = "leaving buildings"


_H = Fraction(1, 2)
# Proportion of a move (CO foot, OO foot, mounted, wheeled); None = NA.
CROSSING_COST: Mapping[Crossing, tuple[Fraction | None, ...]] = MappingProxyType({
    Crossing.FENCE_OR_WALL: (_H, _H, _F, _F),
    Crossing.STREAM: (_H, _H, _F, Fraction(2)),
    Crossing.ENTER_BUILDING: (_H, _H, None, None),
    Crossing.LEAVE_BUILDING: (_F, _H, None, None),
})


def terrain_speed(
    unit: Unit,
    terrain: tuple[Terrain, ...],
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
) -> Fraction:
    """The fraction of normal speed in combined terrain (effects multiply, Rules - Terrain:
    Hills). NA is an IllegalActionError; dense woods on steep slopes are impassable except to
    light infantry and rifles."""
    mover = mover_of(unit)
    speed = Fraction(1)
    if (
        Terrain.DENSE_WOODS in terrain
        and Terrain.STEEP_SLOPE in terrain
        and unit.troop not in (TroopType.LIGHT_INFANTRY, TroopType.RIFLEMEN, TroopType.JAEGERS)
    ):
        raise IllegalActionError(
            action, "dense woods on steep slopes: only light infantry and rifles", rules.TERRAIN
        )
    for t in terrain:
        value = TERRAIN_SPEED[t][mover.value]
        if value is None:
            rule = (
                rules.TERRAIN
                if t in (Terrain.RIVER, Terrain.IMPASSABLE_SLOPE)
                else (rules.MOVEMENT_TERRAIN)
            )
            raise IllegalActionError(action, f"{unit.name} cannot move in {t.value}", rule)
        if not options.terrain_thirds:
            value = _PRINTED.get(value, value)
        speed *= value
    return speed


def crossing_cost(unit: Unit, crossing: Crossing, action: object = None) -> Fraction:
    """The proportion of a move a crossing takes; NA raises."""
    value = CROSSING_COST[crossing][mover_of(unit).value]
    if value is None:
        raise IllegalActionError(
            action, f"{unit.name} cannot make {crossing.value}", rules.MOVEMENT_TERRAIN
        )
    return value


@attrs.frozen
class Leg:
    """A stretch of the move: inches travelled (by the outer base when wheeling) in terrain."""

    inches: float = attrs.field(validator=finite(0, MAX_INCHES))
    terrain: tuple[Terrain, ...] = attrs.field(
        default=(Terrain.OPEN,), validator=each(one_of(*Terrain), tuple)
    )


def _is_leg(instance: object, attribute: attrs.Attribute[object], value: object) -> None:
    if not isinstance(value, Leg):
        raise InvalidValueError(f"MovePlan.{attribute.name}", value, "a tuple of Leg")


MAX_PASSED = 100
"""The most friendly units one move may pass through (each costs its deduction of the
move: Rules - Movement note (i); interpretation W52)."""


@attrs.frozen
class MovePlan:
    """What a player measures for one move.

    ``retiring``: moving back keeping the facing; ``passes_through``: friendly units passed
    through; ``road_full``: the whole move on a road; ``enemy_within_24``: it passes within 24"
    of an enemy; ``facing_change``: degrees turned; ``nearest_enemy``: distance to the nearest
    enemy at the end (None: none near)."""

    legs: tuple[Leg, ...] = attrs.field(default=(), validator=each(_is_leg, tuple))
    crossings: tuple[Crossing, ...] = attrs.field(
        default=(), validator=each(one_of(*Crossing), tuple)
    )
    retiring: bool = attrs.field(default=False, validator=FLAG)
    passes_through: int = attrs.field(default=0, validator=in_range(0, MAX_PASSED))
    road_full: bool = attrs.field(default=False, validator=FLAG)
    enemy_within_24: bool = attrs.field(default=True, validator=FLAG)
    facing_change: float = attrs.field(default=0.0, validator=finite(-360, 360))
    nearest_enemy: float | None = attrs.field(
        default=None, validator=maybe(finite(0, MAX_INCHES))
    )


@attrs.frozen
class MoveCheck:
    """A legal move: the allowance (road bonus included), what it used, whole moves still to
    spend stationary afterwards (a crossing longer than one move)."""

    allowance: Fraction
    used: Fraction
    busy_after: int = 0


def retire_deduction(unit: Unit) -> int:
    """Retiring keeping facing: 3" foot, 6" mounted, 1" guns (note (d))."""
    if unit.troop.is_mounted:
        return 6
    if unit.troop.is_foot:
        return 3
    return 1


def pass_through_deduction(unit: Unit, action: object = None) -> int:
    """Passing through another unit: 3" foot, 6" mounted (note (i))."""
    if unit.troop.is_mounted:
        return 6
    if unit.troop.is_foot:
        return 3
    raise IllegalActionError(action, "only foot and mounted pass through", rules.MOVEMENT)


def check_move(
    unit: Unit,
    plan: MovePlan,
    *,
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
    routing: bool = False,
) -> MoveCheck:
    """Check a move against the unit's allowance (Rules - Movement)."""
    if unit.busy_moves:
        raise IllegalActionError(action, f"{unit.name} is still busy this move", rules.MOVEMENT)
    mode = Mode.ROUT if routing else unit_mode(unit)
    full = Fraction(move_distance(unit, mode, options, action))
    if abs(plan.facing_change) > 45 and (plan.legs or plan.crossings):
        raise IllegalActionError(action, "turning more than 45° takes a whole move", rules.MOVEMENT)
    if plan.nearest_enemy is not None and plan.nearest_enemy < 1 and not routing:
        raise IllegalActionError(action, 'moves may not end within 1" of an enemy', rules.SEQUENCE)
    used = Fraction(0)
    for leg in plan.legs:
        used += Fraction(leg.inches).limit_denominator(1000) / terrain_speed(
            unit, leg.terrain, options, action
        )
    crossing = sum((crossing_cost(unit, c, action) for c in plan.crossings), Fraction(0))
    if plan.retiring and not routing:
        used += retire_deduction(unit)
    if plan.passes_through and not routing:
        used += pass_through_deduction(unit, action) * plan.passes_through
    allowance = full
    if (
        options.road_bonus
        and not routing
        and plan.road_full
        and not plan.enemy_within_24
        and mode in (Mode.COLUMN, Mode.LIMBERED)
        and used >= full
    ):
        allowance = full + 3
    if crossing > 1:
        if used or len(plan.crossings) > 1:
            raise IllegalActionError(
                action,
                "a crossing longer than a move takes whole moves alone",
                rules.MOVEMENT_TERRAIN,
            )
        return MoveCheck(allowance, allowance, int(crossing) - 1)
    total = used + crossing * full
    if total > allowance:
        raise IllegalActionError(
            action, f'the move needs {float(total):.2f}" of {float(allowance):.2f}"', rules.MOVEMENT
        )
    return MoveCheck(allowance, total)


def check_formation_change(
    unit: Unit, base_distance: float, action: object = None
) -> Formation:
    """Line to column or back: neither base may move further than a line move (note (b))."""
    if not (unit.troop.is_foot or unit.troop.is_cavalry):
        raise IllegalActionError(
            action, "only foot and cavalry change formation", rules.INTRO_FORMATIONS
        )
    limit = move_distance(unit, Mode.LINE)
    if base_distance > limit:
        raise IllegalActionError(
            action,
            f'a base would move {base_distance}", more than a line move ({limit}")',
            rules.MOVEMENT,
        )
    return Formation.COLUMN if unit.formation is Formation.LINE else Formation.LINE


def check_limber(unit: Unit, action: object = None) -> bool:
    """Deploying or limbering takes a whole move stationary (note (c)); returns the new state."""
    if not unit.troop.is_gun:
        raise IllegalActionError(action, "only guns limber and deploy", rules.MOVEMENT_WHEELED)
    return not unit.limbered


def check_facing_change(
    unit: Unit,
    degrees: float,
    enemies_in_front: tuple[tuple[Unit, float], ...] = (),
    blocked: bool = False,
    action: object = None,
) -> None:
    """The firing player's facing change (phase D): up to 180° about the unit's centre, barred
    by an enemy within its own charge reach of the unit's current front (FAQs (5) 1) or by an
    obstacle or other units in the way."""
    if not 0 <= abs(degrees) <= 180:
        raise IllegalActionError(action, "a facing change rotates up to 180°", rules.FACING)
    if blocked:
        raise IllegalActionError(action, "the rotation is blocked", rules.FACING)
    if not unit.on_table or unit.routing:
        raise IllegalActionError(action, f"{unit.name} cannot change facing", rules.FACING)
    for enemy, distance in enemies_in_front:
        if distance <= charge_reach(enemy):
            raise IllegalActionError(
                action, f"{enemy.name} is within charge reach of its front", rules.FAQ5
            )


def facing_roll_need(unit: Unit) -> int | None:
    """Optional (FAQs (1) 3): d6 a gun needs to turn to face: light 2+, medium 3+, heavy 4+.

    Galloper and grasshopper guns count as light, howitzers as medium; other troops need no
    roll (None)."""
    return {
        TroopType.LIGHT_GUN: 2,
        TroopType.GALLOPER_GUN: 2,
        TroopType.GRASSHOPPER_GUN: 2,
        TroopType.MEDIUM_GUN: 3,
        TroopType.HOWITZER: 3,
        TroopType.HEAVY_GUN: 4,
    }.get(unit.troop)


def test_gun_facing(unit: Unit, *, dice: Dice) -> bool:
    """Roll for a gun to turn to face (optional rule of FAQs (1) 3)."""
    need = facing_roll_need(unit)
    if need is None:
        return True
    return dice.roll(
        ThresholdCheck((D6,), need), reason=f"{unit.name} turns to face", rule=rules.FAQ1
    )


def rout_distance(
    unit: Unit,
    terrain: tuple[Terrain, ...] = (Terrain.OPEN,),
    *,
    ends_farther: bool = True,
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
) -> Fraction:
    """A rout move: directly away from the cause at rout speed, slowed by the ground crossed,
    ending farther from every visible enemy (Rules - Charging: Rout). Routed wagons are
    immobilised (note (h))."""
    if unit.troop is TroopType.WAGON:
        raise IllegalActionError(action, "routed wagons are immobilised", rules.MOVEMENT)
    if not ends_farther:
        raise IllegalActionError(
            action, "a routing unit must end farther from every visible enemy", rules.ROUT
        )
    full = Fraction(move_distance(unit, Mode.ROUT, options, action))
    return full * terrain_speed(unit, terrain, options, action)


def retire_distance(
    unit: Unit,
    about_face: bool = False,
    terrain: tuple[Terrain, ...] = (Terrain.OPEN,),
    *,
    options: Options = DEFAULT_OPTIONS,
    action: object = None,
) -> Fraction:
    """The retirement after a shaken test of 2-3: "a full move" (Rules - Morale: Testing
    shaken units), less 3" foot, 6" mounted or 1" guns when it keeps its facing (note (d));
    a unit that turns about to retire goes its whole move. The ground crossed slows it."""
    full = move_distance(unit, options=options, action=action)
    deduction = 0 if about_face else retire_deduction(unit)
    return Fraction(max(0, full - deduction)) * terrain_speed(unit, terrain, options, action)


BASE_WIDTH_25MM = 45 / 25.4
"""A base is 45 mm wide for 25 mm figures (Rules - Introduction: Units and bases)."""


def wheel_distance(degrees: float, frontage: float = 2 * BASE_WIDTH_25MM) -> float:
    """Inches moved by the outermost base when wheeling ``degrees`` around a 3" diameter circle
    (note (f)): the arc at radius 1.5" plus the unit's frontage. Add it to the move as a leg."""
    if not 0 <= degrees <= 360 or frontage < 0:
        raise InvalidValueError("degrees", degrees, "0 to 360 with a frontage of 0 or more")
    return math.radians(degrees) * (1.5 + frontage)
