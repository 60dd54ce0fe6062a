"""movement.py: rates, manoeuvre deductions, dense woods, limbering, manhandling, trenches."""

from __future__ import annotations

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import rules
from smoothbore.mckie_acw.movement import Manoeuvre, max_move, trench_covers
from smoothbore.mckie_acw.tables import DEFAULT_TABLES
from smoothbore.mckie_acw.units import Arm, Formation, Ground, Unit, Weapon

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


WOODS_FOOT = Unit("w", "w", "A", Arm.FOOT, Weapon.MUZZLE_LOADING_RIFLE,
                  ground=Ground.DENSE_WOODS)
DISMOUNTED = Unit("d", "d", "A", Arm.CAVALRY, Weapon.BREECH_LOADING_RIFLE, figures=12)
LIMBERED = Unit("l", "l", "A", Arm.ARTILLERY, Weapon.SMOOTHBORE_12LB, figures=4,
                limbered=True)


@pytest.mark.parametrize(("unit", "manoeuvre", "formation", "why", "rule"), [
    (FOOT, Manoeuvre.CHANGE_FORMATION, None, "names the new formation", rules.MANOEUVRES),
    (FOOT, Manoeuvre.FACE, Formation.COLUMN, "names the new formation", rules.MANOEUVRES),
    (GUN, Manoeuvre.CHANGE_FORMATION, Formation.COLUMN, "no formations", rules.MANOEUVRES),
    (CAV, Manoeuvre.CHANGE_FORMATION, Formation.SKIRMISH, "dismount first", rules.MANOEUVRES),
    (FOOT, Manoeuvre.MOUNT, None, "only cavalry", rules.MANOEUVRES),
    (CAV, Manoeuvre.MOUNT, None, "already mounted", rules.MANOEUVRES),
    (DISMOUNTED, Manoeuvre.DISMOUNT, None, "already dismounted", rules.MANOEUVRES),
    (FOOT, Manoeuvre.LIMBER, None, "only artillery", rules.MANOEUVRES),
    (FOOT, Manoeuvre.MANHANDLE, None, "only artillery", rules.MANOEUVRES),
    (LIMBERED, Manoeuvre.LIMBER, None, "already limbered", rules.MANOEUVRES),
    (GUN, Manoeuvre.UNLIMBER, None, "already unlimbered", rules.MANOEUVRES),
    (LIMBERED, Manoeuvre.MANHANDLE, None, "only unlimbered field", rules.MANOEUVRES),
])
def test_each_manoeuvre_refusal_names_the_movement_rule(
        unit: Unit, manoeuvre: Manoeuvre, formation: Formation | None, why: str,
        rule: str) -> None:
    with pytest.raises(IllegalActionError, match=why) as refused:
        mv(unit, manoeuvre, formation=formation)
    assert refused.value.rule == rule


def test_rates_of_the_table_with_their_deductions() -> None:
    # mounting moves at the mounted rate less a quarter; a limbered gun's full move;
    # an unlimbered gun does not move; dense woods halve a foot unit's double move
    assert mv(DISMOUNTED, Manoeuvre.MOUNT) == T.rate("cavalry-line") * 3 // 4
    assert mv(LIMBERED) == T.rate("field-artillery-limbered")
    assert mv(GUN) == 0
    assert mv(WOODS_FOOT, double=True, woods=True) == T.rate("foot-line")
    assert mv(LIMBERED, Manoeuvre.UNLIMBER) == T.rate("field-artillery-limbered") * 3 // 4
