"""Rules - Melee: the table by column, highest score per side, results and who takes them."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import InvalidValueError, odds
from smoothbore.will_awi.melee import (
    Effect,
    Fighter,
    Melee,
    melee_result,
    melee_score,
    resolve_melee,
)
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, Options
from smoothbore.will_awi.units import Formation, Nationality, TroopType, Unit

FACES = range(1, 7)


def unit(
    troop: TroopType, uid: str = "u", nation: Nationality = Nationality.AMERICAN, **kw: object
) -> Unit:
    return Unit(uid, uid, "x", troop, nation, **kw)  # type: ignore[arg-type]


ENEMY = (Fighter(unit(TroopType.LINE, "e")),)

CASES = [
    (Fighter(unit(TroopType.LIGHT_CAVALRY)), ENEMY, None, 2),
    (Fighter(unit(TroopType.LIGHT_CAVALRY), charging=True), ENEMY, None, 4),
    (Fighter(unit(TroopType.LINE), charging=True), ENEMY, None, 1),
    (Fighter(unit(TroopType.INDIANS)), ENEMY, None, 2 - 2),
    (Fighter(unit(TroopType.LINE, nation=Nationality.EUROPEAN)), ENEMY, None, 1),
    (Fighter(unit(TroopType.LIGHT_GUN, nation=Nationality.BRITISH)), ENEMY, None, 1 - 2),
    (Fighter(unit(TroopType.LINE), flank=True), ENEMY, None, -1),
    (Fighter(unit(TroopType.LINE), rear=True), ENEMY, None, -2),
    (Fighter(unit(TroopType.LINE), charging=True, over_obstacle=True), ENEMY, None, 1 - 2),
    (Fighter(unit(TroopType.LIGHT_CAVALRY), charging=True, over_obstacle=True), ENEMY, None, 0),
    (Fighter(unit(TroopType.LINE), charging=True, uphill=True), ENEMY, None, 0),
    (Fighter(unit(TroopType.LINE), charging=True, charging_building=True), ENEMY, None, -1),
    (Fighter(unit(TroopType.LINE), charging=True, charging_fortification=True), ENEMY, None, -2),
    (
        Fighter(unit(TroopType.LIGHT_CAVALRY), charging=True, charging_fortification=True),
        ENEMY,
        None,
        -2,
    ),
    (Fighter(unit(TroopType.LIGHT_INFANTRY)), ENEMY, None, -2),
    # FAQs (2): overlap = a line fighting a single column; depth = attacking in column.
    (
        Fighter(unit(TroopType.LINE)),
        (Fighter(unit(TroopType.LINE, "e", formation=Formation.COLUMN)),),
        None,
        1,
    ),
    (Fighter(unit(TroopType.LINE, formation=Formation.COLUMN), charging=True), ENEMY, None, 2),
    (Fighter(unit(TroopType.LINE, formation=Formation.COLUMN)), ENEMY, None, 0),
    (
        Fighter(unit(TroopType.LINE, formation=Formation.COLUMN)),
        ENEMY,
        Options(column_bonus_attacking_only=False),
        1,
    ),
    (
        Fighter(unit(TroopType.LIGHT_INFANTRY, formation=Formation.COLUMN), charging=True),
        ENEMY,
        None,
        1 - 2,
    ),
    # FAQs (5): building/obstacle columns swapped (option).
    (
        Fighter(unit(TroopType.LINE), charging=True, over_obstacle=True),
        ENEMY,
        Options(melee_obstacle_columns_swapped=True),
        1 - 4,
    ),
    # Ireland 1798: cavalry +2 only against non-pike infantry.
    (
        Fighter(unit(TroopType.LIGHT_CAVALRY)),
        (Fighter(unit(TroopType.PIKEMEN, "e")),),
        Options(variant=IRELAND_1798),
        0,
    ),
    (Fighter(unit(TroopType.LIGHT_CAVALRY)), ENEMY, Options(variant=IRELAND_1798), 2),
    # Battles of the '45: highlanders against foot +1, +2 in a Highland charge.
    (
        Fighter(unit(TroopType.HIGHLANDERS, nation=Nationality.JACOBITE)),
        ENEMY,
        Options(variant=FORTY_FIVE),
        1,
    ),
    (
        Fighter(
            unit(TroopType.HIGHLANDERS, nation=Nationality.JACOBITE, highland_charge=True),
            charging=True,
        ),
        ENEMY,
        Options(variant=FORTY_FIVE),
        3,
    ),
]


@pytest.mark.parametrize(("fighter", "enemies", "options", "expected"), CASES)
def test_melee_factors(
    fighter: Fighter, enemies: tuple[Fighter, ...], options: Options | None, expected: int
) -> None:
    """Rules - Melee: each row of the table in its column."""
    assert melee_score(fighter, enemies, options or Options()).total == expected


def test_artillery_cannot_charge() -> None:
    """Melee table: charging is NA for other troops."""
    with pytest.raises(InvalidValueError):
        Fighter(unit(TroopType.LIGHT_GUN), charging=True)


def test_melee_shape() -> None:
    """One defender and all its attackers, or one attacker and up to two defenders."""
    a = Fighter(unit(TroopType.LINE, "a"))
    with pytest.raises(InvalidValueError):
        Melee((a, a), (a, a))


def brute_melee(mod_a: int, mod_d: int, protected: bool = False) -> dict[tuple[str, str], Fraction]:
    out: dict[tuple[str, str], Fraction] = {}
    for fa, fd in product(FACES, FACES):
        a, d = fa + mod_a, fd + mod_d
        if a == d:
            key = ("", "both retire")
        else:
            loser = "a" if a < d else "d"
            margin = abs(a - d)
            if margin >= 2:
                key = (loser, "retire6" if protected and loser == "a" else "rout")
            else:
                key = (loser, "retire3")
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


_EFFECT = {
    Effect.ROUT: "rout",
    Effect.RETIRE_6_SHAKEN: "retire6",
    Effect.RETIRE_SHAKEN: "retire3",
    Effect.BOTH_RETIRE: "both retire",
}


@pytest.mark.parametrize(
    ("melee", "mod_a", "mod_d", "protected"),
    [
        (
            Melee(
                (Fighter(unit(TroopType.LIGHT_CAVALRY, "a"), charging=True),),
                (Fighter(unit(TroopType.LINE, "d")),),
            ),
            4,
            0,
            False,
        ),
        (
            Melee(
                (
                    Fighter(
                        unit(TroopType.LINE, "a", Nationality.BRITISH),
                        charging=True,
                        charging_building=True,
                    ),
                ),
                (Fighter(unit(TroopType.MILITIA, "d")),),
            ),
            1 + 1 - 2,
            0,
            True,
        ),
        (
            Melee(
                (Fighter(unit(TroopType.LINE, "a"), charging=True),),
                (Fighter(unit(TroopType.LINE, "d")),),
                defender_behind_obstacle=True,
            ),
            1,
            0,
            True,
        ),
    ],
)
def test_melee_exact(melee: Melee, mod_a: int, mod_d: int, protected: bool) -> None:
    """Lower score loses; by 2+ rout -2 SP (charging a building or fortification, or against
    defenders behind an obstacle: retire 6" shaken -2 SP); by 1 retire 3" shaken -1 SP;
    equal: both retire 3"."""
    d = odds(resolve_melee, melee)
    got: dict[tuple[str, str], Fraction] = {}
    for o in d.outcomes:
        loser = {"attackers": "a", "defenders": "d", "": ""}[o.loser]
        key = (loser, _EFFECT[o.effect])
        got[key] = got.get(key, Fraction(0)) + d.probability(o)
    assert got == brute_melee(mod_a, mod_d, protected)


def test_highest_score_per_side_and_who_takes_the_result() -> None:
    """Highest per side; the unit engaged to the enemy's front takes the result, of several
    the lowest scoring; the others retire 3"."""
    a1 = Fighter(unit(TroopType.LINE, "a1"), charging=True, front=False)
    a2 = Fighter(unit(TroopType.LINE, "a2"), charging=True)
    a3 = Fighter(unit(TroopType.LINE, "a3"), charging=True)
    d = Fighter(unit(TroopType.LINE, "d"))
    m = Melee((a1, a2, a3), (d,))
    out = melee_result(m, ((1, 3, 2), (5,)))
    assert out.attacker == 3 and out.loser == "attackers"
    assert out.affected == "a3" and out.effect is Effect.ROUT
    assert melee_result(m, ((4, 4, 2), (2,))).loser == "defenders"
    assert melee_result(m, ((1, 1, 5), (5,))).effect is Effect.BOTH_RETIRE


def test_two_attackers_exact() -> None:
    """Two attackers against one defender: each rolls; the side's highest counts; the loser
    engaged to the front takes the result (brute force over three dice)."""
    a1 = Fighter(unit(TroopType.LINE, "a1"), charging=True)
    a2 = Fighter(unit(TroopType.LIGHT_INFANTRY, "a2"), charging=True, front=False)
    d = Fighter(unit(TroopType.LINE, "d", Nationality.BRITISH))
    m = Melee((a1, a2), (d,))
    expected: dict[tuple[str, str], Fraction] = {}
    for x, y, z in product(FACES, FACES, FACES):
        a, b, c = x + 1, y + 1 - 2, z + 1
        best = max(a, b)
        if best == c:
            key = ("", "both retire")
        elif best < c:
            key = ("a1", "rout" if c - best >= 2 else "retire3")
        else:
            key = ("d", "rout" if best - c >= 2 else "retire3")
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 216)
    dist = odds(resolve_melee, m)
    got: dict[tuple[str, str], Fraction] = {}
    for o in dist.outcomes:
        key = (o.affected, _EFFECT[o.effect])
        got[key] = got.get(key, Fraction(0)) + dist.probability(o)
    assert got == expected


# Rules - Melee, the table as printed in will-awi-2008.txt: (cavalry, infantry, other).
PRINTED = {
    "unit is cavalry": (2, None, None),
    "charging": (2, 1, None),
    "Indian unit": (None, 2, None),
    "European regulars": (1, 1, 1),
    "attacked in flank": (-1, -1, -1),
    "charging over an obstacle": (-4, -2, -4),
    "charging uphill": (-1, -1, -1),
    "charging a building": (-4, -2, -4),
    "attacked in the rear": (-2, -2, -2),
    "open order or artillery": (-2, -2, -2),
    "charging a fortification": (-6, -3, -6),
    "overlapping enemy unit": (1, 1, 1),
    "two or more bases deep": (1, 1, None),
}


def test_melee_table_every_cell() -> None:
    """Rules - Melee: every cell of the table as printed (NA as None); the repeated "attacked in
    the rear" row counts once; the FAQs (5) option swaps only the cavalry and infantry cells of
    the obstacle, building and fortification rows."""
    from smoothbore.will_awi.melee import Column, Factor, table_value

    assert {f.value for f in Factor} == set(PRINTED)
    swapped = Options(melee_obstacle_columns_swapped=True)
    for factor in Factor:
        row = PRINTED[factor.value]
        for column in Column:
            assert table_value(factor, column) == row[column.value]
            moved = factor.value in (
                "charging over an obstacle",
                "charging a building",
                "charging a fortification",
            )
            if moved and column is not Column.OTHER:
                assert table_value(factor, column, swapped) == row[1 - column.value]
            else:
                assert table_value(factor, column, swapped) == row[column.value]
