"""melee.py: who fights, the factors, casualties as firing and the result, by enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from smoothbore.core import odds
from smoothbore.mckie_acw.melee import Attack, Fighter, fighters, fighting_factor, resolve_melee
from smoothbore.mckie_acw.tables import DEFAULT_TABLES
from smoothbore.mckie_acw.units import Arm, Formation, Ground, Quality, Unit, Weapon


def brigade(uid: str, **kw: object) -> Unit:
    return Unit(uid, uid, uid, Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE, **kw)  # type: ignore[arg-type]


def test_contact_and_one_figure_overlaps() -> None:
    line, column = brigade("a"), brigade("b", formation=Formation.COLUMN)
    assert fighters(line, column) == 6  # 4 in contact + 1 overlap each flank
    assert fighters(column, line) == 4


def test_factors_from_the_data() -> None:
    a = Fighter(brigade("a", quality=Quality.VETERAN, effort=7), 8, charging=True, general=True)
    assert fighting_factor(a).total == 4 + 2 + 1 + 1 - 2
    d = Fighter(brigade("d", quality=Quality.RAW, ground=Ground.PERMANENT), 8,
                attacked=Attack.FLANK)
    assert fighting_factor(d).total == 4 - 1 + 3 - 2


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
