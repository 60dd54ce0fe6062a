"""Bloodybacks 9.3, Concepts and definitions: units and commanders."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.units import (
    BRITISH,
    Commander,
    Formation,
    Troops,
    Unit,
    UnitType,
    Weapon,
    add_disruption,
    reduce_density,
    take_melee_losses,
    take_shooting_hits,
    with_density,
)
from smoothbore.core import InvalidValueError

from .strategies import units


def test_quality_range_is_1_to_5() -> None:
    """Concepts and definitions: Quality is rated 1 (worst) to 5 (best)."""
    for quality in (0, 6):
        with pytest.raises(InvalidValueError):
            Unit("a", "A", BRITISH, quality=quality)
    assert Unit("a", "A", BRITISH, quality=5).quality == 5


def test_density_3_to_8_and_never_below_3() -> None:
    """Concepts and definitions: Density is 3 to 8 and can never be lower than 3."""
    with pytest.raises(InvalidValueError):
        Unit("a", "A", BRITISH, density=2)
    with pytest.raises(InvalidValueError):
        with_density(Unit("a", "A", BRITISH), 2)
    assert reduce_density(Unit("a", "A", BRITISH, density=5), 4).density == 3


def test_disruption_at_most_3() -> None:
    """Concepts and definitions: Disruption points: a unit never has more than 3 DRPs."""
    with pytest.raises(InvalidValueError):
        Unit("a", "A", BRITISH, disruption=4)
    assert add_disruption(Unit("a", "A", BRITISH, disruption=2), 5).disruption == 3


def test_shooting_hits_past_three_drp_become_stamina() -> None:
    """Shooting: hits are DRPs up to 3, then stamina losses."""
    unit = take_shooting_hits(Unit("a", "A", BRITISH, disruption=1), 5)
    assert (unit.disruption, unit.stamina_losses) == (3, 3)


def test_melee_losses_are_stamina_and_drp() -> None:
    """Resolve melee: each loss is one stamina loss and one DRP (DRPs to max 3)."""
    unit = take_melee_losses(Unit("a", "A", BRITISH, disruption=1), 4)
    assert (unit.disruption, unit.stamina_losses) == (3, 4)


def test_indians_have_a_woods_quality() -> None:
    """Concepts and definitions: Quality: indians rate higher in woods."""
    unit = Unit("i", "Indians", BRITISH, quality=2, woods_quality=5, troops=Troops.INDIAN)
    assert (unit.quality_in(False), unit.quality_in(True)) == (2, 5)


def test_artillery_formations() -> None:
    """Movement: artillery is limbered or unlimbered, others deployed or in column."""
    with pytest.raises(InvalidValueError):
        Unit("g", "Guns", BRITISH, kind=UnitType.FIELD_ARTILLERY)
    with pytest.raises(InvalidValueError):
        Unit("a", "A", BRITISH, formation=Formation.LIMBERED)


@pytest.mark.parametrize(
    ("kind", "troops", "quality", "stamina", "expected"),
    [
        (UnitType.INFANTRY, Troops.REGULAR, 1, 0, True),
        (UnitType.INFANTRY, Troops.CONTINENTAL, 3, 0, False),
        (UnitType.INFANTRY, Troops.CONTINENTAL, 4, 0, True),
        (UnitType.INFANTRY, Troops.MILITIA, 5, 0, False),
        (UnitType.CAVALRY, Troops.MILITIA, 3, 0, True),
        (UnitType.CAVALRY, Troops.REGULAR, 2, 0, False),
        (UnitType.INFANTRY, Troops.REGULAR, 5, 6, False),
        (UnitType.INFANTRY, Troops.REGULAR, 5, 5, True),
    ],
)
def test_cold_steel_ability(
    kind: UnitType, troops: Troops, quality: int, stamina: int, expected: bool
) -> None:
    """Determine impetus: cold steel for British/European regular infantry, Continentals
    of quality 4+, cavalry of quality 3+; lost at 6 or more stamina losses."""
    unit = Unit("a", "A", BRITISH, kind=kind, troops=troops, quality=quality,
                stamina_losses=stamina)
    assert unit.cold_steel is expected


def test_commander_defaults() -> None:
    """Concepts and definitions: Activity Rating 2-5; constitution 9 by default (Risk to
    commanders)."""
    leader = Commander("k", "Webster", BRITISH, activity_rating=4)
    assert leader.constitution == 9
    with pytest.raises(InvalidValueError):
        Commander("k", "K", BRITISH, activity_rating=1)
    with pytest.raises(InvalidValueError):
        Commander("k", "K", BRITISH, command_quality=6)


@given(units(), st.integers(0, 10))
def test_hits_keep_limits_and_do_not_mutate(unit: Unit, hits: int) -> None:
    """Disruption points: never above 3; hits are conserved; the input is unchanged."""
    before = attrs.evolve(unit)
    after = take_shooting_hits(unit, hits)
    assert unit == before
    assert 0 <= after.disruption <= 3
    gained = after.disruption - unit.disruption + after.stamina_losses - unit.stamina_losses
    assert gained == hits
    assert hash(after) == hash(attrs.evolve(after))


def test_density_table_and_figures() -> None:
    """Concepts and definitions: Density table; Unit size: mounted figures count as two."""
    from smoothbore.bloodybacks93.units import DENSITIES, size_in_figures

    assert dict(DENSITIES)["close order, 3 ranks"] == 8
    assert dict(DENSITIES)["loose order, 2 ranks"] == 5
    assert {d for _, d in DENSITIES} == {3, 4, 5, 6, 8}
    assert size_in_figures(12, 3) == 18
    with pytest.raises(InvalidValueError):
        size_in_figures(-1)


def test_troops_not_said_have_no_cold_steel() -> None:
    """Determine impetus: cold steel is for "British or European regular infantry,
    Continental infantry of quality 4+, cavalry of unit quality 3+": a unit made without
    saying its troops is none of these (B50), so quality 3 "Continentals" left at the default
    have no cold steel; regulars must be said."""
    plain = Unit("a", "Continentals", BRITISH, quality=3)
    assert plain.troops is Troops.OTHER and not plain.cold_steel
    assert Unit("a", "A", BRITISH, quality=3, troops=Troops.REGULAR).cold_steel
    assert Unit("a", "A", BRITISH, quality=4, troops=Troops.CONTINENTAL).cold_steel


def test_riflemen_have_no_bayonets_and_so_no_cold_steel() -> None:
    """Resolve melee: "add one if the defender has no bayonets": riflemen carried none, so a
    rifle-armed unit has none unless said otherwise; infantry without bayonets has no cold
    steel, whatever its troops (B12, B50)."""
    rifles = Unit("r", "Jaegers", BRITISH, quality=4, weapon=Weapon.RIFLE, troops=Troops.REGULAR)
    assert not rifles.bayonets and not rifles.cold_steel
    assert Unit("m", "M", BRITISH).bayonets
    armed = Unit("r", "R", BRITISH, weapon=Weapon.RIFLE, bayonets=True, troops=Troops.REGULAR)
    assert armed.bayonets and armed.cold_steel


def test_a_unit_closes_up_no_higher_than_its_basing() -> None:
    """Concepts and definitions: Density: "units may reduce their density by separating their
    bases": a unit is based at a density (by default the one it is made with), and closing
    up again returns it no higher (B42)."""
    unit = Unit("a", "A", BRITISH, density=6)
    assert unit.based_density == 6
    spread = with_density(unit, 3)
    assert (spread.density, spread.based_density) == (3, 6)
    assert with_density(spread, 6).density == 6
    with pytest.raises(InvalidValueError):
        with_density(spread, 7)
    with pytest.raises(InvalidValueError):
        Unit("a", "A", BRITISH, density=6, based_density=5)
