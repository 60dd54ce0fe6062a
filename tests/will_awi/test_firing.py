"""Rules - Firing: ranges, factors, the 2d6 roll, its morale effect and the notes."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import IllegalActionError, SamplingDice, odds
from smoothbore.will_awi.firing import (
    Cover,
    FireFacts,
    FireResult,
    RangeBand,
    Woods,
    fire_modifiers,
    range_band,
    resolve_fire,
)
from smoothbore.will_awi.options import FORTY_FIVE, HighlanderFire, Options
from smoothbore.will_awi.units import Formation, Nationality, Status, TroopType, Unit, Weapon

FACES = range(1, 7)


def unit(
    troop: TroopType,
    nation: Nationality = Nationality.AMERICAN,
    strength: int = 5,
    uid: str = "u",
    **kw: object,
) -> Unit:
    return Unit(uid, uid, "x" if uid != "t" else "y", troop, nation, strength=strength, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("weapon", "inches", "band"),
    [
        (Weapon.MUSKET, 6, RangeBand.SHORT),
        (Weapon.RIFLE, 6, RangeBand.SHORT),
        (Weapon.RIFLE, 12, RangeBand.MEDIUM),
        (Weapon.LIGHT_GUN, 12, RangeBand.SHORT),
        (Weapon.LIGHT_GUN, 24, RangeBand.MEDIUM),
        (Weapon.LIGHT_GUN, 36, RangeBand.LONG),
        (Weapon.MEDIUM_GUN, 15, RangeBand.SHORT),
        (Weapon.MEDIUM_GUN, 30, RangeBand.MEDIUM),
        (Weapon.MEDIUM_GUN, 45, RangeBand.LONG),
        (Weapon.HEAVY_GUN, 18, RangeBand.SHORT),
        (Weapon.HEAVY_GUN, 36, RangeBand.MEDIUM),
        (Weapon.HEAVY_GUN, 54, RangeBand.LONG),
        (Weapon.GALLOPER_GUN, 9, RangeBand.SHORT),
        (Weapon.GALLOPER_GUN, 18, RangeBand.MEDIUM),
        (Weapon.GALLOPER_GUN, 21, RangeBand.LONG),
        (Weapon.GRASSHOPPER_GUN, 6, RangeBand.SHORT),
        (Weapon.GRASSHOPPER_GUN, 12, RangeBand.MEDIUM),
        (Weapon.GRASSHOPPER_GUN, 18, RangeBand.LONG),
        (Weapon.HOWITZER, 9, RangeBand.SHORT),
        (Weapon.HOWITZER, 15, RangeBand.MEDIUM),
        (Weapon.HOWITZER, 24, RangeBand.MEDIUM),
        (Weapon.HOWITZER, 36, RangeBand.LONG),
    ],
)
def test_range_bands(weapon: Weapon, inches: float, band: RangeBand) -> None:
    """Rules - Firing: Ranges, upper bounds inclusive."""
    assert range_band(weapon, inches) is band


@pytest.mark.parametrize(
    ("weapon", "inches"),
    [
        (Weapon.MUSKET, 6.5),
        (Weapon.RIFLE, 12.5),
        (Weapon.LIGHT_GUN, 37),
        (Weapon.MEDIUM_GUN, 46),
        (Weapon.HEAVY_GUN, 55),
        (Weapon.GALLOPER_GUN, 22),
        (Weapon.GRASSHOPPER_GUN, 19),
        (Weapon.HOWITZER, 10),
        (Weapon.HOWITZER, 14.9),
        (Weapon.HOWITZER, 37),
    ],
)
def test_out_of_range_and_howitzer_gap(weapon: Weapon, inches: float) -> None:
    """Ranges: beyond the table, and the howitzer gap 9"-15" (FAQs (4) 2), are illegal."""
    with pytest.raises(IllegalActionError):
        range_band(weapon, inches)


FACTOR_CASES = [
    # (firer, facts, expected modifier) -- each from Rules - Firing: Firing factors.
    (unit(TroopType.LINE, Nationality.BRITISH), FireFacts(6), +1),
    (unit(TroopType.MILITIA, Nationality.BRITISH), FireFacts(6), -1),
    (unit(TroopType.INDIANS), FireFacts(6), -1),
    (unit(TroopType.LINE, strength=4), FireFacts(6), -1),
    (unit(TroopType.LINE, strength=3), FireFacts(6), -1),
    (unit(TroopType.LINE, strength=2), FireFacts(6), -2),
    (unit(TroopType.LINE, strength=1), FireFacts(6), -2),
    (unit(TroopType.LINE, strength=6), FireFacts(6), 0),
    (unit(TroopType.LINE, formation=Formation.COLUMN), FireFacts(6), -2),
    (unit(TroopType.LINE), FireFacts(6, split_fire=True), -2),
    (unit(TroopType.RIFLEMEN), FireFacts(6), -1),
    (unit(TroopType.RIFLEMEN), FireFacts(12), -2),
    (unit(TroopType.LINE, status=Status.SHAKEN), FireFacts(6), -1),
    (unit(TroopType.LIGHT_GUN), FireFacts(12), +1),
    (unit(TroopType.LIGHT_GUN), FireFacts(12, friends_in_arc=True), 0),
    (unit(TroopType.LIGHT_GUN), FireFacts(24), -1),
    (unit(TroopType.LIGHT_GUN), FireFacts(36), -2),
    (unit(TroopType.LINE), FireFacts(6, cover=Cover.SOLID), -3),
    (unit(TroopType.LINE), FireFacts(6, cover=Cover.SOFT), -1),
    (unit(TroopType.LINE), FireFacts(6, cover=Cover.HARD), -2),
    (
        unit(
            TroopType.LINE,
            Nationality.BRITISH,
            strength=2,
            formation=Formation.COLUMN,
            status=Status.SHAKEN,
        ),
        FireFacts(6, cover=Cover.HARD),
        1 - 2 - 2 - 1 - 2,
    ),
    (unit(TroopType.LINE, Nationality.BRITISH, fire_bonus=1), FireFacts(6), 2),
]


@pytest.mark.parametrize(("firer", "facts", "expected"), FACTOR_CASES)
def test_firing_factors(firer: Unit, facts: FireFacts, expected: int) -> None:
    """Rules - Firing: Firing factors, one by one and together."""
    assert fire_modifiers(firer, facts).total == expected


def brute_fire(
    modifier: int, target_morale_hit: int, target_morale_miss: int
) -> dict[tuple[bool, bool], Fraction]:
    out: dict[tuple[bool, bool], Fraction] = {}
    for a, b in product(FACES, FACES):
        s = a + b + modifier
        hit = s >= 7
        shaken = s > (target_morale_hit if hit else target_morale_miss)
        out[(hit, shaken)] = out.get((hit, shaken), Fraction(0)) + Fraction(1, 36)
    return out


@pytest.mark.parametrize(
    ("firer", "target", "facts", "modifier", "morale"),
    [
        (
            unit(TroopType.LINE, Nationality.BRITISH),
            unit(TroopType.LINE, uid="t"),
            FireFacts(4),
            1,
            5,
        ),
        (
            unit(TroopType.MILITIA, strength=3),
            unit(TroopType.GRENADIERS, Nationality.EUROPEAN, uid="t"),
            FireFacts(6, cover=Cover.SOFT),
            -3,
            7,
        ),
        (
            unit(TroopType.HEAVY_GUN),
            unit(TroopType.MILITIA, strength=3, uid="t", militia_morale=2),
            FireFacts(40),
            -2,
            1,
        ),
    ],
)
def test_fire_exact(
    firer: Unit, target: Unit, facts: FireFacts, modifier: int, morale: int
) -> None:
    """2d6 + factors: 7+ takes 1 SP; the same score above basic morale (after the loss)
    shakes (Rules - Firing; Morale effect of fire)."""
    d = odds(resolve_fire, firer, target, facts)
    expected = brute_fire(modifier, morale - 1, morale)
    got: dict[tuple[bool, bool], Fraction] = {}
    for r in d.outcomes:
        key = (r.hit, r.shaken)
        got[key] = got.get(key, Fraction(0)) + d.probability(r)
    assert got == {k: v for k, v in expected.items() if v}


def test_morale_before_loss_option() -> None:
    """Option: read basic morale before the strength point comes off."""
    firer, target = unit(TroopType.LINE), unit(TroopType.LINE, uid="t")
    d = odds(
        resolve_fire, firer, target, FireFacts(4), options=Options(morale_after_fire_loss=False)
    )
    p = d.probability(lambda r: r.shaken)
    assert p == sum(Fraction(1, 36) for a, b in product(FACES, FACES) if a + b > 5)


@pytest.mark.parametrize(
    ("firer", "facts"),
    [
        (unit(TroopType.LIGHT_CAVALRY), FireFacts(3)),
        (unit(TroopType.WAGON), FireFacts(3)),
        (unit(TroopType.LIGHT_GUN, limbered=True), FireFacts(3)),
        (unit(TroopType.LINE, status=Status.ROUTING), FireFacts(3)),
        (unit(TroopType.LINE), FireFacts(3, angle=50)),
        (unit(TroopType.LINE), FireFacts(3, target_visible=False)),
        (unit(TroopType.LINE), FireFacts(3, overhead=True, clear_of_firer=20, clear_of_target=20)),
        (
            unit(TroopType.LIGHT_GUN),
            FireFacts(20, overhead=True, clear_of_firer=20, clear_of_target=20),
        ),
        (
            unit(TroopType.LIGHT_GUN),
            FireFacts(30, overhead=True, higher_ground=True, clear_of_firer=11, clear_of_target=19),
        ),
        (unit(TroopType.HOWITZER), FireFacts(5, friends_in_arc=True)),
    ],
)
def test_illegal_fire(firer: Unit, facts: FireFacts) -> None:
    """Who may not fire, arcs, visibility, overhead fire and canister (Rules - Firing: Notes)."""
    with pytest.raises(IllegalActionError):
        fire_modifiers(firer, facts)


def test_overhead_fire_allowed() -> None:
    """Notes (b): howitzers, and guns on or at higher ground, fire over friends 12" clear."""
    clear = dict(overhead=True, clear_of_firer=12.0, clear_of_target=12.0)
    assert fire_modifiers(unit(TroopType.HOWITZER), FireFacts(30, **clear)).total == -2  # type: ignore[arg-type]
    gun = FireFacts(30, higher_ground=True, **clear)  # type: ignore[arg-type]
    assert fire_modifiers(unit(TroopType.MEDIUM_GUN), gun).total == -1


def test_woods_detection() -> None:
    """Rules - Terrain: Woods and Forests: Indians in dense woods seen at 1", line at 4"."""
    firer = unit(TroopType.LINE)
    indians = unit(TroopType.INDIANS, uid="t")
    with pytest.raises(IllegalActionError):
        resolve_fire(firer, indians, FireFacts(2, woods=Woods.DENSE), dice=SamplingDice(1))
    line = unit(TroopType.LINE, uid="t")
    resolve_fire(firer, line, FireFacts(4, woods=Woods.DENSE), dice=SamplingDice(1))
    li = unit(TroopType.LIGHT_INFANTRY, uid="t")
    with pytest.raises(IllegalActionError):
        resolve_fire(firer, li, FireFacts(2.5, woods=Woods.DENSE), dice=SamplingDice(1))
    resolve_fire(firer, li, FireFacts(6, woods=Woods.OPEN), dice=SamplingDice(1))


def test_highlanders_fire_option() -> None:
    """Battles of the '45: highlanders fire as muskets at -2, or not at all."""
    clan = unit(TroopType.HIGHLANDERS, Nationality.JACOBITE)
    assert fire_modifiers(clan, FireFacts(5), Options(variant=FORTY_FIVE)).total == -2
    with pytest.raises(IllegalActionError):
        fire_modifiers(
            clan, FireFacts(5), Options(variant=FORTY_FIVE, highlander_fire=HighlanderFire.NONE)
        )


@given(st.integers(0, 10_000))
def test_same_seed_same_result(seed: int) -> None:
    """Same seed, same fire."""
    a, b = unit(TroopType.LINE), unit(TroopType.LINE, uid="t")
    r1 = resolve_fire(a, b, FireFacts(5), dice=SamplingDice(seed))
    r2 = resolve_fire(a, b, FireFacts(5), dice=SamplingDice(seed))
    assert r1 == r2 and isinstance(r1, FireResult)


def test_sampling_agrees_with_exact() -> None:
    """Seeded sampling lands near the exact chance of a loss."""
    a, b = unit(TroopType.LINE), unit(TroopType.LINE, uid="t")
    dice = SamplingDice(7)
    n = 4000
    hits = sum(resolve_fire(a, b, FireFacts(5), dice=dice).hit for _ in range(n))
    assert abs(hits / n - 21 / 36) < 0.03


@pytest.mark.parametrize(
    ("troop", "coureurs", "dense", "open_woods"),
    [
        (TroopType.RANGERS, False, 1.0, 3.0),
        (TroopType.INDIANS, False, 1.0, 3.0),
        (TroopType.LIGHT_INFANTRY, True, 1.0, 3.0),
        (TroopType.LIGHT_INFANTRY, False, 2.0, 6.0),
        (TroopType.JAEGERS, False, 2.0, 6.0),
        (TroopType.RIFLEMEN, False, 2.0, 6.0),
        (TroopType.LINE, False, 4.0, 12.0),
        (TroopType.LIGHT_CAVALRY, False, 4.0, 12.0),
        (TroopType.LIGHT_GUN, False, 4.0, 12.0),
    ],
)
def test_woods_detection_table(
    troop: TroopType, coureurs: bool, dense: float, open_woods: float
) -> None:
    """Rules - Terrain: Woods and Forests, every row: coureurs de bois, rangers and Indians
    1" dense / 3" open; other open order foot 2" / 6"; others 4" / 12"."""
    from smoothbore.will_awi.firing import detection_range

    target = unit(troop, uid="t")
    assert detection_range(target, Woods.DENSE, coureurs) == dense
    assert detection_range(target, Woods.OPEN, coureurs) == open_woods
    assert detection_range(target, Woods.NONE, coureurs) is None
