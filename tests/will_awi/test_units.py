"""Rules - Introduction: units, strength points, generals."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given

from smoothbore.core import InvalidValueError
from smoothbore.will_awi.units import (
    Arm,
    Commander,
    Formation,
    Nationality,
    Rank,
    Status,
    Training,
    TroopType,
    Unit,
    Weapon,
    default_weapon,
    raise_unit,
    strength_from_men,
)

from .strategies import units


def test_units_and_bases_troop_classes() -> None:
    """Rules - Introduction: Units and bases: the close order and open order foot lists."""
    close = {TroopType.LINE, TroopType.FUSILIERS, TroopType.GRENADIERS, TroopType.MILITIA}
    open_ = {
        TroopType.LIGHT_INFANTRY,
        TroopType.JAEGERS,
        TroopType.RANGERS,
        TroopType.INDIANS,
        TroopType.RIFLEMEN,
    }
    assert {t for t in close if t.arm is Arm.CLOSE_ORDER_FOOT} == close
    assert {t for t in open_ if t.arm is Arm.OPEN_ORDER_FOOT} == open_
    assert TroopType.LIGHT_CAVALRY.is_cavalry and TroopType.HOWITZER.is_gun


def test_strength_points_full_and_per_20_percent() -> None:
    """Rules - Introduction: Strength Points: 5 full, 1 less per 20% under (150 men -> 3)."""
    assert strength_from_men(250) == 5
    assert strength_from_men(150) == 3
    assert strength_from_men(200) == 4


def test_strength_points_set_up_range() -> None:
    """Strength Points: 3 to 6 at set-up; 0 removes a unit."""
    assert raise_unit(Unit("a", "A", "x", TroopType.LINE, strength=6)).initial_strength == 6
    with pytest.raises(InvalidValueError):
        raise_unit(Unit("a", "A", "x", TroopType.LINE, strength=2))
    with pytest.raises(InvalidValueError):
        Unit("a", "A", "x", TroopType.LINE, strength=7)
    with pytest.raises(InvalidValueError):
        Unit("a", "A", "x", TroopType.LINE, strength=0)
    gone = Unit("a", "A", "x", TroopType.LINE, strength=0, status=Status.ELIMINATED)
    assert not gone.on_table


def test_invalid_values_name_the_field() -> None:
    """Validation at construction: militia -1 or -2 only; guns have no column."""
    with pytest.raises(InvalidValueError, match="militia_morale"):
        Unit("a", "A", "x", TroopType.MILITIA, militia_morale=3)
    with pytest.raises(InvalidValueError):
        Unit("a", "A", "x", TroopType.LIGHT_GUN, formation=Formation.COLUMN)
    with pytest.raises(InvalidValueError):
        Commander("g", "G", "x", rating=13)


def test_weapons_by_type() -> None:
    """Rules - Firing: rifles for riflemen and jaegers; cavalry do not fire (FAQs (3) 4)."""
    assert default_weapon(TroopType.JAEGERS) is Weapon.RIFLE
    assert default_weapon(TroopType.LINE) is Weapon.MUSKET
    assert default_weapon(TroopType.LIGHT_CAVALRY) is None
    assert default_weapon(TroopType.HOWITZER) is Weapon.HOWITZER


def test_every_troop_types_weapon() -> None:
    """Rules - Firing, FAQs (3) 4, W37, for every troop type: a gun's own weapon, rifles for
    riflemen and jaegers, muskets for the other foot but pikemen, nothing for the rest."""
    for troop in TroopType:
        weapon = default_weapon(troop)
        if troop.is_gun:
            assert weapon is not None and weapon.is_gun
        elif troop in (TroopType.RIFLEMEN, TroopType.JAEGERS):
            assert default_weapon(troop) is Weapon.RIFLE
        elif troop.is_foot and troop is not TroopType.PIKEMEN:
            assert default_weapon(troop) is Weapon.MUSKET
        else:
            assert default_weapon(troop) is None, troop


def test_pikemen_carry_pikes() -> None:
    """Ireland 1798 (W37): pikemen do not fire unless given muskets; the Irish rebels are not
    European regulars."""
    assert default_weapon(TroopType.PIKEMEN) is None
    pikes = Unit("p", "Pikes", "x", TroopType.PIKEMEN, Nationality.IRISH)
    assert pikes.fires_with is None and not pikes.is_european_regular
    armed = Unit("p", "Pikes", "x", TroopType.PIKEMEN, Nationality.IRISH, weapon=Weapon.MUSKET)
    assert armed.fires_with is Weapon.MUSKET


def test_off_the_table_is_out_of_the_battle() -> None:
    """Rules - Charging: Rout: a unit routed off the table keeps its strength points but is no
    longer on the table."""
    gone = Unit("a", "A", "x", TroopType.LINE, status=Status.OFF_TABLE)
    assert not gone.on_table and gone.strength == 5
    assert {s for s in Status if s.on_table} == {Status.STEADY, Status.SHAKEN, Status.ROUTING}


def test_militia_poorly_trained_by_default() -> None:
    """Command & Control: militia are poorly trained."""
    assert Unit("a", "A", "x", TroopType.MILITIA).trained is Training.POOR
    assert Unit("a", "A", "x", TroopType.LINE).trained is Training.AVERAGE


def test_general_ranks() -> None:
    """Rules - Morale: +1 brigadier, +2 senior general."""
    assert Rank.BRIGADIER.test_bonus == 1 and Rank.SENIOR.test_bonus == 2


def test_european_regulars() -> None:
    """British and other European troops are European regulars, their militia are not."""
    assert Unit("a", "A", "x", TroopType.LINE, Nationality.BRITISH).is_european_regular
    assert not Unit("a", "A", "x", TroopType.LINE, Nationality.AMERICAN).is_european_regular
    assert not Unit("a", "A", "x", TroopType.MILITIA, Nationality.BRITISH).is_european_regular


@given(units())
def test_evolve_never_mutates(unit: Unit) -> None:
    """Values are frozen: a change gives a new unit."""
    before = attrs.asdict(unit)
    attrs.evolve(unit, must_retire=True)
    assert attrs.asdict(unit) == before
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        unit.strength = 1  # type: ignore[misc]


def test_fifteen_mm_scale() -> None:
    """Rules - Introduction: 15 mm tables use 2/3 of every distance."""
    from smoothbore.will_awi.units import table_inches

    assert table_inches(4, fifteen_mm=True) == 6
    assert table_inches(4) == 4
    with pytest.raises(InvalidValueError):
        table_inches(-1)
