"""Bloodybacks 9.3, Shooting (Musketry, Artillery, Modifiers, hits, split fire); Visibility."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.shooting import (
    Cover,
    Fire,
    ShotFacts,
    apply_hits,
    best_fire,
    chosen_fire,
    fire_options,
    ratio_steps,
    shoot,
    shooting_cost,
    shooting_dice,
    shooting_need,
    shooting_size,
)
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Formation,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import IllegalActionError, InvalidValueError, odds

from .oracle import pool

TARGET = Unit("t", "Target", AMERICAN, size=20, density=6)


def _foot(weapon: Weapon = Weapon.MUSKET, size: int = 20, density: int = 6) -> Unit:
    return Unit("s", "Shooter", BRITISH, weapon=weapon, size=size, density=density)


def _guns(kind: UnitType, sections: int = 1) -> Unit:
    return Unit("g", "Guns", BRITISH, kind=kind, density=3, size=4, sections=sections,
                formation=Formation.UNLIMBERED, weapon=Weapon.CANNON)


@pytest.mark.parametrize(("weapon", "inches", "fires"), [
    (Weapon.MUSKET, 0, (Fire.MUSKET_VOLLEY,)), (Weapon.MUSKET, 8, (Fire.MUSKET_VOLLEY,)),
    (Weapon.MUSKET, 8.5, (Fire.MUSKET_SKIRMISH,)), (Weapon.MUSKET, 16, (Fire.MUSKET_SKIRMISH,)),
    (Weapon.MUSKET, 16.5, ()), (Weapon.RIFLE, 24, (Fire.RIFLE,)), (Weapon.RIFLE, 25, ()),
    (Weapon.CARBINE, 6, (Fire.CARBINE,)), (Weapon.CARBINE, 7, ())])
def test_musketry_ranges(weapon: Weapon, inches: float, fires: tuple[Fire, ...]) -> None:
    """Shooting: Musketry: volley 0-8", skirmishing 8-16", rifle 0-24", carbine 0-6"."""
    assert fire_options(_foot(weapon), inches) == fires


@pytest.mark.parametrize(("kind", "inches", "fires"), [
    (UnitType.LIGHT_ARTILLERY, 18, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.LIGHT_ARTILLERY, 36, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.LIGHT_ARTILLERY, 72, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.LIGHT_ARTILLERY, 73, ()),
    (UnitType.FIELD_ARTILLERY, 12, (Fire.CLOSE_CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.HEAVY_ARTILLERY, 24, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.FIELD_ARTILLERY, 48, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.FIELD_ARTILLERY, 96, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.SIEGE_ARTILLERY, 15, (Fire.CLOSE_CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.SIEGE_ARTILLERY, 30, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.SIEGE_ARTILLERY, 120, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.AMUSETTE, 5, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.AMUSETTE, 36, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.AMUSETTE, 37, ()),
    # every other row of the table at its edges: light canister 0-18", roundshot 3'/6';
    # field/heavy close 0-12", canister 12-24", roundshot 4'/8'; siege 0-15", 15-30", 5'/10'
    (UnitType.LIGHT_ARTILLERY, 0, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.VERY_LIGHT_ARTILLERY, 18, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.LIGHT_ARTILLERY, 19, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.LIGHT_ARTILLERY, 37, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.FIELD_ARTILLERY, 0, (Fire.CLOSE_CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.FIELD_ARTILLERY, 13, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.HEAVY_ARTILLERY, 25, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.HEAVY_ARTILLERY, 49, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.HEAVY_ARTILLERY, 96, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.FIELD_ARTILLERY, 97, ()),
    (UnitType.SIEGE_ARTILLERY, 16, (Fire.CANISTER, Fire.ROUNDSHOT_MEDIUM)),
    (UnitType.SIEGE_ARTILLERY, 31, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.SIEGE_ARTILLERY, 60, (Fire.ROUNDSHOT_MEDIUM,)),
    (UnitType.SIEGE_ARTILLERY, 61, (Fire.ROUNDSHOT_LONG,)),
    (UnitType.SIEGE_ARTILLERY, 121, ())])
def test_artillery_ranges(kind: UnitType, inches: float, fires: tuple[Fire, ...]) -> None:
    """Shooting: Artillery: ranges in feet (3' = 36"); amusettes only medium roundshot."""
    assert fire_options(_guns(kind), inches) == fires


def test_firepower_and_tariff() -> None:
    """Shooting: firepower dice per line; Action tariff for each kind of shooting."""
    dice = {f: shooting_dice(f, 0) for f in Fire}
    assert dice == {Fire.MUSKET_VOLLEY: 3, Fire.MUSKET_SKIRMISH: 1, Fire.RIFLE: 2,
                    Fire.CARBINE: 2, Fire.CLOSE_CANISTER: 4, Fire.CANISTER: 3,
                    Fire.ROUNDSHOT_MEDIUM: 2, Fire.ROUNDSHOT_LONG: 1}
    assert shooting_cost(Fire.ROUNDSHOT_LONG, 0) == 3
    assert shooting_cost(Fire.RIFLE, 1) == 4
    assert shooting_cost(Fire.MUSKET_VOLLEY, 2) == 3


def test_extra_shooting_orders() -> None:
    """Shooting: one more die per additional shooting order (per extra action point with the
    option)."""
    assert shooting_dice(Fire.MUSKET_VOLLEY, 2) == 5
    assert shooting_dice(Fire.RIFLE, 1, Options(extra_die_per_action_point=True)) == 4


@pytest.mark.parametrize(("kind", "size"), [
    (UnitType.VERY_LIGHT_ARTILLERY, 6), (UnitType.LIGHT_ARTILLERY, 10),
    (UnitType.FIELD_ARTILLERY, 12), (UnitType.HEAVY_ARTILLERY, 16),
    (UnitType.SIEGE_ARTILLERY, 24), (UnitType.AMUSETTE, 6)])
def test_section_sizes(kind: UnitType, size: int) -> None:
    """Shooting: Artillery: nominal size per section at 1:10; scaled at other ratios."""
    assert shooting_size(_guns(kind, 2)) == 2 * size
    assert shooting_size(_guns(kind, 1), Options(men_per_figure=20)) == round(size / 2)


@pytest.mark.parametrize(("a", "b", "steps"), [
    (20, 20, 0), (29, 20, 0), (30, 20, 1), (39, 20, 1), (40, 20, 2), (59, 20, 2),
    (60, 20, 3), (80, 20, 4), (100, 20, 5)])
def test_size_ratio_series(a: int, b: int, steps: int) -> None:
    """Shooting: Modifiers: 3:2 one step, 2:1 two, 3:1 three, and so on (4:1 four...)."""
    assert ratio_steps(a, b) == steps
    need = shooting_need(_foot(size=a), Unit("t", "T", AMERICAN, size=b), ShotFacts(range=4))
    assert need.total == 6 + steps
    reverse = shooting_need(_foot(size=b), Unit("t", "T", AMERICAN, size=a), ShotFacts(range=4))
    assert reverse.total == 6 - steps


def test_cover_and_roundshot() -> None:
    """Shooting: Modifiers: cover -1/-2/-3, one less against roundshot."""
    for cover in Cover:
        musket = shooting_need(_foot(), TARGET, ShotFacts(range=4, cover=cover)).total
        assert musket == 6 - cover.value
        guns = _guns(UnitType.FIELD_ARTILLERY)
        shot = shooting_need(guns, TARGET, ShotFacts(range=40, cover=cover)).total
        ratio = 6 + ratio_steps(20, 12) * -1
        assert shot == ratio - max(0, cover.value - 1)


def test_woods_enfilade_rifles() -> None:
    """Shooting: Modifiers and Visibility: target in woods -1, each full 3" of woods -1,
    enfilade +2 (artillery or density 5+ infantry), rifles +2; +2 once if both."""
    facts = ShotFacts(range=4, target_in_woods=True, woods_inches=7)
    assert shooting_need(_foot(), TARGET, facts).total == 6 - 1 - 2
    both = ShotFacts(range=4, target_in_woods=True, shooter_in_woods=True)
    assert shooting_need(_foot(), TARGET, both).total == 6
    assert shooting_need(_foot(), TARGET, ShotFacts(range=4, enfilade=True)).total == 8
    skirmishers = _foot(density=4)
    assert shooting_need(skirmishers, TARGET, ShotFacts(range=4, enfilade=True)).total == 6
    rifles = _foot(Weapon.RIFLE)
    assert shooting_need(rifles, TARGET, ShotFacts(range=4)).total == 8
    assert shooting_need(rifles, TARGET, ShotFacts(range=4, enfilade=True)).total == 8


def test_a_column_shoots_with_its_leading_base() -> None:
    """B61: a column of 20 figures based at density 5 fires with the 5 of its leading base:
    against 20 figures of density 6 the target is 4 times larger, 6 - 4 = 2 (in line it
    would be 6); split fire divides those 5."""
    line = _foot(density=5)
    column = Unit("s", "Shooter", BRITISH, size=20, density=5, formation=Formation.COLUMN)
    assert shooting_size(line) == 20 and shooting_size(column) == 5
    assert shooting_need(line, TARGET, ShotFacts(range=4)).total == 6
    assert shooting_need(column, TARGET, ShotFacts(range=4)).total == 2
    with pytest.raises(InvalidValueError, match="at most the shooter's size 5"):
        shooting_need(column, TARGET, ShotFacts(range=4, size=6))
    # separated to density 3 it is still based at 5: its leading base holds 5 figures
    spread = Unit("s", "Shooter", BRITISH, size=20, density=3, based_density=5,
                  formation=Formation.COLUMN)
    assert shooting_size(spread) == 5
    # a column smaller than a base fires with all it has
    assert shooting_size(Unit("s", "S", BRITISH, size=4, density=6,
                              formation=Formation.COLUMN)) == 4


def test_fortified_and_column_densities() -> None:
    """Shooting: infantry manning fortifications count density 4; column of march 8."""
    dense = Unit("t", "T", AMERICAN, size=20, density=8)
    assert shooting_need(_foot(), dense, ShotFacts(range=4, target_fortified=True)).total == 4
    column = Unit("t", "T", AMERICAN, size=20, density=3, formation=Formation.COLUMN)
    assert shooting_need(_foot(), column, ShotFacts(range=4)).total == 8


def test_uphill_adds_half_the_range() -> None:
    """Shooting: shooting up a steep hill adds 50% to the measured range."""
    assert fire_options(_foot(), 6, uphill=True) == (Fire.MUSKET_SKIRMISH,)
    assert fire_options(_foot(), 5, uphill=True) == (Fire.MUSKET_VOLLEY,)
    assert fire_options(_foot(), 11, uphill=True) == ()


def test_split_fire() -> None:
    """Shooting: split fire: a 24-figure unit fires 8 figures at one target and 16 at
    another, each counted with its part of the size."""
    big = _foot(size=24)
    small_target = Unit("t", "T", AMERICAN, size=8, density=6)
    assert shooting_need(big, small_target, ShotFacts(range=4, size=8)).total == 6
    assert shooting_need(big, small_target, ShotFacts(range=4, size=16)).total == 8
    with pytest.raises(InvalidValueError):
        shooting_need(big, small_target, ShotFacts(range=4, size=25))


@pytest.mark.parametrize(("need_cover", "extra"), [(Cover.NONE, 0), (Cover.FORTIFICATIONS, 1)])
def test_exact_hits_by_enumeration(need_cover: Cover, extra: int) -> None:
    """Shooting: each die at or under the need hits; 1s always, 12s never."""
    facts = ShotFacts(range=4, cover=need_cover, extra_orders=extra)
    need = 6 - need_cover.value
    dist = odds(shoot, _foot(), TARGET, facts).map(lambda s: s.hits)
    assert {o: dist.probability(o) for o in dist.outcomes} == pool(3 + extra, need)


def test_out_of_range_and_wrong_fire() -> None:
    """Shooting: a unit shoots only within its weapon's range."""
    with pytest.raises(IllegalActionError):
        odds(shoot, _foot(), TARGET, ShotFacts(range=20))
    with pytest.raises(IllegalActionError):
        odds(shoot, _foot(), TARGET, ShotFacts(range=4, fire=Fire.RIFLE))


@given(st.integers(0, 3), st.integers(0, 30), st.integers(0, 12))
def test_hits_become_drp_then_stamina(drp: int, stamina: int, hits: int) -> None:
    """Shooting: hits are taken as DRPs up to 3, then as stamina losses."""
    unit = Unit("t", "T", AMERICAN, disruption=drp, stamina_losses=stamina)
    after = apply_hits(unit, hits)
    assert after.disruption == min(3, drp + hits)
    assert after.stamina_losses == stamina + max(0, hits - (3 - drp))


def test_line_of_sight() -> None:
    """Visibility: no shooting where buildings or hills block the line of sight."""
    with pytest.raises(IllegalActionError) as info:
        odds(shoot, _foot(), TARGET, ShotFacts(range=4, line_of_sight=False))
    assert "Visibility" in info.value.rule


@pytest.mark.parametrize(("kind", "inches", "fire", "dice"), [
    (UnitType.FIELD_ARTILLERY, 10, Fire.CLOSE_CANISTER, 4),
    (UnitType.FIELD_ARTILLERY, 20, Fire.CANISTER, 3),
    (UnitType.FIELD_ARTILLERY, 40, Fire.ROUNDSHOT_MEDIUM, 2),
    (UnitType.FIELD_ARTILLERY, 80, Fire.ROUNDSHOT_LONG, 1),
    (UnitType.LIGHT_ARTILLERY, 10, Fire.CANISTER, 3),
    (UnitType.SIEGE_ARTILLERY, 14, Fire.CLOSE_CANISTER, 4),
])
def test_default_line_has_most_dice(kind: UnitType, inches: int, fire: Fire, dice: int) -> None:
    """Shooting: Artillery (interpretation B14): without a chosen line the guns use the one
    with most firepower at that range: close canister 4, canister 3, roundshot 2 and 1."""
    assert best_fire(_guns(kind), inches) is fire
    assert shooting_dice(fire, 0) == dice
    assert chosen_fire(_guns(kind), ShotFacts(range=inches)) is fire
