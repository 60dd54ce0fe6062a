"""Rules - Movement: tables, terrain, crossings, formation, guns, retiring, facing, roads."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import IllegalActionError, odds
from smoothbore.will_awi.movement import (
    Crossing,
    Leg,
    Mode,
    MovePlan,
    Terrain,
    check_facing_change,
    check_formation_change,
    check_limber,
    check_move,
    move_distance,
    retire_distance,
    rout_distance,
    terrain_speed,
)
from smoothbore.will_awi.movement import test_gun_facing as roll_gun_facing
from smoothbore.will_awi.options import FORTY_FIVE, Options
from smoothbore.will_awi.units import Formation, Nationality, Status, TroopType, Unit


def unit(troop: TroopType, **kw: object) -> Unit:
    return Unit("u", "U", "x", troop, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("troop", "line", "column", "rout"),
    [
        (TroopType.LINE, 6, 9, 12),
        (TroopType.MILITIA, 6, 9, 12),
        (TroopType.RIFLEMEN, 9, 12, 15),
        (TroopType.INDIANS, 9, 12, 15),
        (TroopType.LIGHT_CAVALRY, 15, 18, 21),
    ],
)
def test_move_table(troop: TroopType, line: int, column: int, rout: int) -> None:
    """Rules - Movement: line, column and rout distances."""
    u = unit(troop)
    assert move_distance(u, Mode.LINE) == line
    assert move_distance(u, Mode.COLUMN) == column
    assert move_distance(u, Mode.ROUT) == rout


@pytest.mark.parametrize(
    ("troop", "limbered", "deployed", "rout"),
    [
        (TroopType.LIGHT_GUN, 9, 3, 12),
        (TroopType.MEDIUM_GUN, 6, 2, 12),
        (TroopType.HEAVY_GUN, 3, 1, 12),
        (TroopType.GALLOPER_GUN, 12, 3, 12),
        (TroopType.GRASSHOPPER_GUN, 12, 21, 21),
        (TroopType.HOWITZER, 9, 3, 21),
    ],
)
def test_wheeled_table(troop: TroopType, limbered: int, deployed: int, rout: int) -> None:
    """Wheeled equipment: limbered, deployed, rout (crew only)."""
    u = unit(troop)
    assert move_distance(u, Mode.LIMBERED) == limbered
    assert move_distance(u, Mode.DEPLOYED) == deployed
    assert move_distance(u, Mode.ROUT) == rout


def test_wagons_and_na() -> None:
    """Wagons 6" limbered, NA deployed and rout; routed wagons are immobilised (note (h))."""
    w = unit(TroopType.WAGON)
    assert move_distance(w, Mode.LIMBERED) == 6
    for mode in (Mode.DEPLOYED, Mode.ROUT):
        with pytest.raises(IllegalActionError):
            move_distance(w, mode)
    with pytest.raises(IllegalActionError):
        rout_distance(w)
    with pytest.raises(IllegalActionError):
        move_distance(unit(TroopType.WAGON, immobilised=True))


def test_grasshopper_option_and_slow_dragoons() -> None:
    """Options: the grasshopper deployed move; the '45 dragoons 12" line, 15" column."""
    g = unit(TroopType.GRASSHOPPER_GUN)
    assert move_distance(g, Mode.DEPLOYED, Options(grasshopper_deployed_move=2)) == 2
    drag = unit(TroopType.LIGHT_CAVALRY, dragoons=True)
    opts = Options(variant=FORTY_FIVE)
    assert move_distance(drag, Mode.LINE, opts) == 12
    assert move_distance(drag, Mode.COLUMN, opts) == 15
    assert move_distance(drag, Mode.LINE) == 15
    british = Unit("b", "B", "x", TroopType.LIGHT_CAVALRY, Nationality.BRITISH)
    assert move_distance(british, Mode.LINE, opts) == 12
    assert move_distance(british, Mode.COLUMN, opts) == 15
    assert move_distance(british, Mode.ROUT, opts) == 21
    jacobite = Unit("j", "J", "x", TroopType.LIGHT_CAVALRY, Nationality.JACOBITE)
    assert move_distance(jacobite, Mode.LINE, opts) == 15


T, S, F = Fraction(2, 3), Fraction(1, 3), Fraction(1)


@pytest.mark.parametrize(
    ("terrain", "row"),
    [
        (Terrain.ROUGH, (T, F, T, S)),
        (Terrain.GENTLE_SLOPE, (T, F, T, S)),
        (Terrain.STEEP_SLOPE, (S, T, S, None)),
        (Terrain.OPEN_WOODS, (T, F, T, T)),
        (Terrain.DENSE_WOODS, (S, T, None, None)),
        (Terrain.SWAMP, (S, T, None, None)),
        (Terrain.FORD, (T, T, T, S)),
    ],
)
def test_terrain_table(terrain: Terrain, row: tuple[Fraction | None, ...]) -> None:
    """Effects of terrain: CO foot, OO foot, mounted, wheeled; NA raises (note (a))."""
    movers = (
        unit(TroopType.LINE),
        unit(TroopType.LIGHT_INFANTRY),
        unit(TroopType.LIGHT_CAVALRY),
        unit(TroopType.LIGHT_GUN, limbered=True),
    )
    for mover, expected in zip(movers, row, strict=True):
        if expected is None:
            with pytest.raises(IllegalActionError):
                terrain_speed(mover, (terrain,))
        else:
            assert terrain_speed(mover, (terrain,)) == expected


def test_grasshopper_terrain_as_close_order_and_printed_percent() -> None:
    """Note (g): grasshopper guns use the close order column; option: 66% as printed."""
    g = unit(TroopType.GRASSHOPPER_GUN)
    assert terrain_speed(g, (Terrain.DENSE_WOODS,)) == S
    assert terrain_speed(
        unit(TroopType.LINE), (Terrain.ROUGH,), Options(terrain_thirds=False)
    ) == Fraction(66, 100)


def test_combined_and_impassable_terrain() -> None:
    """Hills: effects combine; dense woods on steep slopes only light infantry and rifles;
    rivers only at fords or bridges."""
    li = unit(TroopType.LIGHT_INFANTRY)
    assert terrain_speed(li, (Terrain.DENSE_WOODS, Terrain.STEEP_SLOPE)) == T * T
    with pytest.raises(IllegalActionError):
        terrain_speed(unit(TroopType.RANGERS), (Terrain.DENSE_WOODS, Terrain.STEEP_SLOPE))
    with pytest.raises(IllegalActionError):
        terrain_speed(li, (Terrain.RIVER,))


def test_crossings_cost_a_proportion_of_the_move() -> None:
    """Crossing fences 1/2 a move for foot; streams 2 moves for wheeled; buildings NA mounted."""
    line = unit(TroopType.LINE)
    ok = check_move(line, MovePlan(legs=(Leg(3),), crossings=(Crossing.FENCE_OR_WALL,)))
    assert ok.used == 6
    with pytest.raises(IllegalActionError):
        check_move(line, MovePlan(legs=(Leg(3.5),), crossings=(Crossing.FENCE_OR_WALL,)))
    gun = unit(TroopType.LIGHT_GUN, limbered=True)
    two = check_move(gun, MovePlan(crossings=(Crossing.STREAM,)))
    assert two.busy_after == 1
    with pytest.raises(IllegalActionError):
        check_move(gun, MovePlan(legs=(Leg(1),), crossings=(Crossing.STREAM,)))
    with pytest.raises(IllegalActionError):
        check_move(unit(TroopType.LIGHT_CAVALRY), MovePlan(crossings=(Crossing.ENTER_BUILDING,)))
    li = unit(TroopType.LIGHT_INFANTRY)
    assert (
        check_move(li, MovePlan(legs=(Leg(4.5),), crossings=(Crossing.LEAVE_BUILDING,))).used == 9
    )


def test_move_in_terrain() -> None:
    """A close order unit in rough ground: 4" uses its 6" line move."""
    line = unit(TroopType.LINE)
    assert check_move(line, MovePlan(legs=(Leg(4, (Terrain.ROUGH,)),))).used == 6
    with pytest.raises(IllegalActionError):
        check_move(line, MovePlan(legs=(Leg(4.5, (Terrain.ROUGH,)),)))


def test_retire_pass_through_and_enemy_distance() -> None:
    """Notes (d) and (i): retiring deducts 3"/6"/1"; passing through 3"/6"; not within 1"."""
    line = unit(TroopType.LINE)
    assert check_move(line, MovePlan(legs=(Leg(3),), retiring=True)).used == 6
    with pytest.raises(IllegalActionError):
        check_move(line, MovePlan(legs=(Leg(3.5),), retiring=True))
    cav = unit(TroopType.LIGHT_CAVALRY)
    assert check_move(cav, MovePlan(legs=(Leg(9),), passes_through=1)).used == 15
    gun = unit(TroopType.LIGHT_GUN, limbered=True)
    assert check_move(gun, MovePlan(legs=(Leg(8),), retiring=True)).used == 9
    with pytest.raises(IllegalActionError):
        check_move(line, MovePlan(legs=(Leg(2),), nearest_enemy=0.5))


def test_facing_more_than_45_takes_whole_move() -> None:
    """Note (e): up to 45° free; more takes the whole move."""
    line = unit(TroopType.LINE)
    check_move(line, MovePlan(legs=(Leg(6),), facing_change=45))
    with pytest.raises(IllegalActionError):
        check_move(line, MovePlan(legs=(Leg(1),), facing_change=90))


def test_road_bonus_optional() -> None:
    """Road Bonus (optional): column, full move on a road, no enemy within 24": +3"."""
    col = unit(TroopType.LINE, formation=Formation.COLUMN)
    plan = MovePlan(legs=(Leg(12, (Terrain.ROAD,)),), road_full=True, enemy_within_24=False)
    assert check_move(col, plan, options=Options(road_bonus=True)).allowance == 12
    with pytest.raises(IllegalActionError):
        check_move(col, plan)
    near = MovePlan(legs=(Leg(12, (Terrain.ROAD,)),), road_full=True, enemy_within_24=True)
    with pytest.raises(IllegalActionError):
        check_move(col, near, options=Options(road_bonus=True))


def test_formation_change_and_limbering() -> None:
    """Note (b): no base further than a line move; note (c): limbering takes the move."""
    line = unit(TroopType.LINE)
    assert check_formation_change(line, 6) is Formation.COLUMN
    with pytest.raises(IllegalActionError):
        check_formation_change(line, 6.5)
    assert check_limber(unit(TroopType.LIGHT_GUN)) is True
    with pytest.raises(IllegalActionError):
        check_limber(line)


def test_changing_facing_barred_within_charge_reach() -> None:
    """Changing Facing, FAQs (5) 1: barred by an enemy within its charge reach (3"/6")."""
    me = unit(TroopType.LINE)
    foot = Unit("e", "E", "y", TroopType.LINE)
    horse = Unit("h", "H", "y", TroopType.LIGHT_CAVALRY)
    check_facing_change(me, 180, ((foot, 4),))
    with pytest.raises(IllegalActionError):
        check_facing_change(me, 90, ((foot, 3),))
    with pytest.raises(IllegalActionError):
        check_facing_change(me, 90, ((horse, 5.5),))
    with pytest.raises(IllegalActionError):
        check_facing_change(me, 90, blocked=True)
    with pytest.raises(IllegalActionError):
        check_facing_change(me, 200)


def test_rout_move() -> None:
    """Rules - Charging: Rout: directly away at rout speed (close order foot 12", slowed by the
    ground: 8" in rough), ending farther from every visible enemy; routed wagons are
    immobilised (note (h))."""
    u = unit(TroopType.LINE, status=Status.ROUTING)
    assert rout_distance(u) == 12
    assert rout_distance(u, (Terrain.ROUGH,)) == 8
    assert rout_distance(unit(TroopType.LIGHT_CAVALRY, status=Status.ROUTING)) == 21
    with pytest.raises(IllegalActionError, match="farther"):
        rout_distance(u, ends_farther=False)
    with pytest.raises(IllegalActionError, match="immobilised"):
        rout_distance(unit(TroopType.WAGON, status=Status.ROUTING))


@pytest.mark.parametrize(
    ("troop", "kw", "keeping", "turning"),
    [
        (TroopType.LINE, {}, 3, 6),  # close order foot: 6" less 3"
        (TroopType.LINE, {"formation": Formation.COLUMN}, 6, 9),
        (TroopType.LIGHT_INFANTRY, {}, 6, 9),
        (TroopType.LIGHT_CAVALRY, {}, 9, 15),  # mounted: 15" less 6"
        (TroopType.LIGHT_GUN, {}, 2, 3),  # deployed light gun: 3" less 1"
        (TroopType.LIGHT_GUN, {"limbered": True}, 8, 9),
    ],
)
def test_retire_a_full_move(
    troop: TroopType, kw: dict[str, object], keeping: int, turning: int
) -> None:
    """Rules - Morale: Testing shaken units, "retire a full move", and Movement note (d): the
    whole move, less 3" (foot), 6" (mounted) or 1" (guns) when the unit keeps its facing; the
    whole move when it turns about."""
    u = unit(troop, **kw)
    assert retire_distance(u) == keeping
    assert retire_distance(u, about_face=True) == turning
    speed = terrain_speed(u, (Terrain.ROUGH,))
    assert retire_distance(u, terrain=(Terrain.ROUGH,)) == keeping * speed


@pytest.mark.parametrize(
    ("troop", "need"),
    [(TroopType.LIGHT_GUN, 2), (TroopType.MEDIUM_GUN, 3), (TroopType.HEAVY_GUN, 4)],
)
def test_gun_facing_roll_option(troop: TroopType, need: int) -> None:
    """FAQs (1) 3 option: light guns turn on 2+, medium 3+, heavy 4+."""
    d = odds(roll_gun_facing, unit(troop))
    assert d.probability(True) == Fraction(7 - need, 6)


def test_wheel_distance() -> None:
    """Note (f): the outermost base's arc around a 3" diameter circle."""
    import math

    from smoothbore.will_awi.movement import wheel_distance

    assert wheel_distance(90, 3.0) == pytest.approx(math.pi / 2 * 4.5)
    assert wheel_distance(0) == 0
    line = unit(TroopType.LIGHT_INFANTRY)
    check_move(line, MovePlan(legs=(Leg(wheel_distance(90, 3.0)),)))
    with pytest.raises(IllegalActionError):
        check_move(unit(TroopType.LINE), MovePlan(legs=(Leg(wheel_distance(90, 3.0)),)))


H = Fraction(1, 2)


@pytest.mark.parametrize(
    ("crossing", "row"),
    [
        (Crossing.FENCE_OR_WALL, (H, H, F, F)),
        (Crossing.STREAM, (H, H, F, Fraction(2))),
        (Crossing.ENTER_BUILDING, (H, H, None, None)),
        (Crossing.LEAVE_BUILDING, (F, H, None, None)),
    ],
)
def test_crossing_table(crossing: Crossing, row: tuple[Fraction | None, ...]) -> None:
    """Effects of terrain, proportion of a move: CO foot, OO foot, mounted, wheeled; NA raises."""
    from smoothbore.will_awi.movement import crossing_cost

    movers = (
        unit(TroopType.LINE),
        unit(TroopType.LIGHT_INFANTRY),
        unit(TroopType.LIGHT_CAVALRY),
        unit(TroopType.LIGHT_GUN, limbered=True),
    )
    for mover, expected in zip(movers, row, strict=True):
        if expected is None:
            with pytest.raises(IllegalActionError):
                crossing_cost(mover, crossing)
        else:
            assert crossing_cost(mover, crossing) == expected
