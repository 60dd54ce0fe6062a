"""melee.py: who fights, the factors, casualties as firing and the result, by enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from smoothbore.core import odds
from smoothbore.mckie_acw.melee import (
    Attack,
    Fighter,
    face_figures,
    fighters,
    fighting_factor,
    resolve_melee,
)
from smoothbore.mckie_acw.tables import DEFAULT_TABLES
from smoothbore.mckie_acw.units import Arm, Formation, Ground, Quality, Unit, Weapon


def brigade(uid: str, **kw: object) -> Unit:
    return Unit(uid, uid, uid, Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE, **kw)  # type: ignore[arg-type]


def test_contact_and_one_figure_overlaps() -> None:
    line, column = brigade("a"), brigade("b", formation=Formation.COLUMN)
    assert fighters(line, column) == 6  # 4 in contact + 1 overlap each flank
    assert fighters(column, line) == 4


def test_the_figures_on_each_face() -> None:
    # (front rank, flank file, rear rank): a line two ranks deep, a column four wide, skirmishers
    # one rank; dismounted cavalry less its horse holders; a gun's crew on every face
    cases = [
        (brigade("l16"), (8, 2, 8)),
        (brigade("l15", figures=15), (8, 2, 7)),
        (brigade("c14", formation=Formation.COLUMN, figures=14), (4, 4, 2)),
        (brigade("s10", formation=Formation.SKIRMISH, figures=10), (10, 1, 10)),
        (Unit("d", "d", "d", Arm.CAVALRY, Weapon.BREECH_LOADING_RIFLE, mounted=False), (6, 2, 6)),
        (Unit("g", "g", "g", Arm.ARTILLERY, Weapon.SMOOTHBORE_12LB, figures=3), (3, 3, 3)),
        (brigade("none", initial_figures=16, figures=0), (0, 0, 0)),
    ]
    for unit, faces in cases:
        assert tuple(face_figures(unit, f) for f in Attack) == faces, unit.id


def test_a_unit_struck_in_flank_or_rear_fights_with_that_face() -> None:
    line, column = brigade("a"), brigade("b", formation=Formation.COLUMN, figures=14)
    # a line's flank file is 2 figures: the charger's 2 in contact and 1 overlap each side
    assert (fighters(line, line, enemy_face=Attack.FLANK), fighters(line, line, Attack.FLANK)) \
        == (4, 2)
    # a column of 14 (4 ranks) struck in the rear: its last rank of 2 faces 4 of the charger
    assert (fighters(line, column, enemy_face=Attack.REAR),
            fighters(column, line, Attack.REAR)) == (4, 2)
    # its flank file of 4 ranks faces 6 of the charger
    assert (fighters(line, column, enemy_face=Attack.FLANK),
            fighters(column, line, Attack.FLANK)) == (6, 4)


def test_factors_from_the_data() -> None:
    a = Fighter(brigade("a", quality=Quality.VETERAN, effort=7), 8, charging=True, general=True)
    assert fighting_factor(a).total == 4 + 2 + 1 + 1 - 2
    d = Fighter(brigade("d", quality=Quality.RAW, ground=Ground.PERMANENT), 8,
                attacked=Attack.FLANK)
    assert fighting_factor(d).total == 4 - 1 + 3 - 2


def test_an_obstacle_in_front_covers_a_defender_only_from_the_front() -> None:
    behind = brigade("d", ground=Ground.BEHIND_OBSTACLE)
    assert fighting_factor(Fighter(behind, 8)).total == 4 + 1
    assert fighting_factor(Fighter(behind, 2, attacked=Attack.FLANK)).total == 4 - 2
    assert fighting_factor(Fighter(behind, 8, attacked=Attack.REAR)).total == 4 - 4
    woods = brigade("w", ground=Ground.COVER)
    assert fighting_factor(Fighter(woods, 8, attacked=Attack.REAR)).total == 4 + 1 - 4


def test_melee_by_enumerating_both_percentage_rolls() -> None:
    a = Fighter(brigade("a"), 8, charging=True)
    d = Fighter(brigade("d", ground=Ground.COVER), 8)
    on_a = DEFAULT_TABLES.casualties.cell(fighting_factor(d).total, 8)
    on_d = DEFAULT_TABLES.casualties.cell(fighting_factor(a).total, 8)
    oracle: dict[str, Fraction] = {}
    for x, y in product(range(1, 101), range(1, 101)):
        a_lost = on_a.definite + (x <= on_a.percent)
        d_lost = on_d.definite + (y <= on_d.percent)
        key = "a" if a_lost < d_lost else "b" if d_lost < a_lost else ""
        oracle[key] = oracle.get(key, Fraction(0)) + Fraction(1, 10_000)
    dist = odds(lambda *, dice: resolve_melee(a, d, dice=dice).winner)
    assert {o: dist.probability(o) for o in dist.outcomes} == oracle
