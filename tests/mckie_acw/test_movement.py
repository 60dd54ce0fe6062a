"""movement.py: rates, manoeuvre deductions, dense woods, limbering, manhandling, trenches."""

from __future__ import annotations

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw.movement import Manoeuvre, max_move, trench_covers
from smoothbore.mckie_acw.tables import DEFAULT_TABLES
from smoothbore.mckie_acw.units import Arm, Formation, Unit, Weapon

T = DEFAULT_TABLES


def mv(unit: Unit, m: Manoeuvre = Manoeuvre.NONE, *, double: bool = False,
       woods: bool = False, formation: Formation | None = None) -> int:
    return max_move(unit, m, double=double, dense_woods=woods, formation=formation, tables=T,
                    action="a")


FOOT = Unit("f", "f", "A", Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE)
CAV = Unit("c", "c", "A", Arm.CAVALRY, Weapon.BREECH_LOADING_RIFLE, mounted=True, figures=12)
GUN = Unit("g", "g", "A", Arm.ARTILLERY, Weapon.SMOOTHBORE_12LB, figures=4)
SIEGE = Unit("s", "s", "A", Arm.ARTILLERY, Weapon.SIEGE_GUN, figures=4)


def test_deductions_of_the_text() -> None:
    line = T.rate("foot-line")
    assert mv(FOOT) == line
    assert mv(FOOT, Manoeuvre.CHANGE_FORMATION, formation=Formation.COLUMN) == line // 2
    assert mv(FOOT, Manoeuvre.FACE) == line * 3 // 4
    assert mv(FOOT, double=True) == 2 * line
    assert mv(FOOT, woods=True) == line // 2
    assert mv(CAV, Manoeuvre.DISMOUNT) == T.rate("cavalry-line") * 3 // 4
    assert mv(GUN, Manoeuvre.LIMBER) == T.rate("field-artillery-limbered") * 3 // 4
    assert mv(GUN, Manoeuvre.MANHANDLE) == 20
    assert mv(SIEGE, Manoeuvre.LIMBER) == 0  # a whole period


def test_forbidden_manoeuvres() -> None:
    with pytest.raises(IllegalActionError, match="only foot"):
        mv(CAV, woods=True)
    with pytest.raises(IllegalActionError, match="manhandled"):
        mv(SIEGE, Manoeuvre.MANHANDLE)
    with pytest.raises(IllegalActionError, match="already"):
        mv(FOOT, Manoeuvre.CHANGE_FORMATION, formation=Formation.LINE)
    with pytest.raises(IllegalActionError, match="double"):
        mv(FOOT, Manoeuvre.FACE, double=True)


def test_trench_7mm_a_figure_covers_a_brigade_line() -> None:
    assert trench_covers(FOOT)  # 16 x 7 = 112 mm >= 8 x 12 = 96 mm
    skirmish = Unit("s", "s", "A", Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE,
                    formation=Formation.SKIRMISH)
    assert not trench_covers(skirmish)
