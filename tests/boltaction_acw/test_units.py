"""Units and commanders: values from the text, validation, casualties and pins."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.boltaction_acw.units import (
    CONFEDERATE,
    UNION,
    Commander,
    Experience,
    Formation,
    Rank,
    Unit,
    UnitType,
    Weapon,
    add_pins,
    remove_pins,
    revise,
    take_casualties,
)
from smoothbore.core import InvalidValueError


def test_morale_ratings_and_wound_scores_from_the_text() -> None:
    assert [e.morale for e in Experience] == [7, 8, 9]
    assert [e.to_wound for e in Experience] == [3, 4, 5]


def test_weapon_ranges_from_the_text() -> None:
    assert {w.value: w.max_range for w in Weapon} == {
        "smoothbore musket": 18, "rifled musket": 24, "smoothbore carbine": 12,
        "rifled carbine": 18, "sharps rifle": 30, "12lb smoothbore cannon": 48,
        "12lb rifled cannon": 60, "none": 0}


def test_defaults_by_type() -> None:
    cavalry = Unit("c", "Cav", UNION, UnitType.CAVALRY)
    assert (cavalry.mounted, cavalry.formation, cavalry.bases, cavalry.figures) == (
        True, Formation.LINE, 6, 12)
    gun = Unit("g", "Gun", UNION, UnitType.ARTILLERY)
    assert (gun.formation, gun.bases, gun.colonel, gun.small) == (
        Formation.LIMBERED, 1, False, True)
    foot = Unit("i", "Foot", CONFEDERATE)
    assert (foot.figures, foot.independent, foot.colonel) == (20, True, True)


def test_bad_values_name_the_field() -> None:
    with pytest.raises(InvalidValueError, match="formation"):
        Unit("s", "Skirm", UNION, UnitType.SKIRMISHERS, formation=Formation.LINE)
    with pytest.raises(InvalidValueError, match="side"):
        Unit("x", "X", "french")
    with pytest.raises(InvalidValueError, match="casualties"):
        Unit("x", "X", UNION, casualties=4)
    with pytest.raises(InvalidValueError, match="brigade"):
        Commander("a", "A", UNION, Rank.ARMY, brigade="1")


def test_mounted_cavalry_cannot_skirmish_and_dismounted_must() -> None:
    with pytest.raises(InvalidValueError):
        Unit("c", "Cav", UNION, UnitType.CAVALRY, mounted=False, formation=Formation.LINE)
    dismounted = Unit("c", "Cav", UNION, UnitType.CAVALRY, mounted=False)
    assert dismounted.formation is Formation.SKIRMISH and dismounted.may_go_down


def test_four_casualties_remove_a_base_cumulatively() -> None:
    unit = Unit("i", "Foot", UNION, casualties=3)
    after, lost = take_casualties(unit, 1)
    assert (after.bases, after.casualties, lost) == (4, 0, 1)
    after, lost = take_casualties(unit, 6)
    assert (after.bases, after.casualties, lost) == (3, 1, 2)


@given(st.integers(0, 12), st.integers(0, 3), st.integers(0, 80))
def test_casualties_are_conserved_until_destroyed(bases: int, marked: int, wounds: int) -> None:
    unit = Unit("i", "Foot", UNION, bases=bases, casualties=marked if bases else 0)
    after, lost = take_casualties(unit, wounds)
    assert lost == unit.bases - after.bases
    if not after.destroyed:
        assert 4 * lost + after.casualties == unit.casualties + wounds
    else:
        assert unit.casualties + wounds >= 4 * unit.bases


def test_pins_never_go_negative() -> None:
    unit = add_pins(Unit("i", "Foot", UNION), 2)
    assert remove_pins(unit, 5).pins == 0
    assert remove_pins(unit, 1).pins == 1
    assert attrs.evolve(unit, pins=0) == remove_pins(unit, 2)


def test_bases_below_five_only_for_infantry_and_cavalry() -> None:
    assert Unit("i", "Foot", UNION, bases=3).bases_below_five == 2
    assert Unit("g", "Gun", UNION, UnitType.ARTILLERY).bases_below_five == 0


def test_who_may_go_down() -> None:
    assert not Unit("c", "Cav", UNION, UnitType.CAVALRY).may_go_down
    assert not Unit("g", "Gun", UNION, UnitType.ARTILLERY).may_go_down
    assert Unit("g", "Gun", UNION, UnitType.ARTILLERY,
                formation=Formation.UNLIMBERED).may_go_down
    assert not Unit("w", "Wagon", UNION, UnitType.WAGON).may_go_down


def test_revise_is_evolve_without_the_checks() -> None:
    from smoothbore.boltaction_acw.units import revise

    unit = Unit("r", "Revised", "union", pins=1)
    changed = revise(unit, pins=3, casualties=2, routing=True)
    assert changed == attrs.evolve(unit, pins=3, casualties=2, routing=True)
    assert hash(changed) == hash(attrs.evolve(unit, pins=3, casualties=2, routing=True))
    assert unit.pins == 1 and hash(unit) != hash(changed)


def test_only_cavalry_is_mounted_and_counts_never_go_below_zero() -> None:
    with pytest.raises(InvalidValueError, match="mounted"):
        Unit("m", "Mounted foot", UNION, mounted=True)
    foot = Unit("f", "Foot", UNION, pins=1)
    for change in (add_pins, remove_pins, take_casualties):
        with pytest.raises(InvalidValueError, match="0 or more"):
            change(foot, -1)  # type: ignore[operator]


def test_units_and_commanders_in_words() -> None:
    unit = Unit("f", "5th Wisconsin", UNION, bases=3, casualties=2, pins=1, down=True)
    assert str(unit) == "5th Wisconsin (3 bases, 2 casualties, 1 pins, down)"
    gone = Unit("g", "Gone", UNION, bases=0, routing=True, home=True)
    assert str(gone) == "Gone (0 bases, routing, gone home, destroyed)"
    assert str(Commander("k", "Rufus King", UNION, Rank.ARMY)) == "Rufus King (army commander)"


_UNITS = st.builds(
    Unit, st.just("u"), st.just("Unit"), st.sampled_from([UNION, CONFEDERATE]),
    kind=st.sampled_from([UnitType.INFANTRY, UnitType.SKIRMISHERS, UnitType.ARTILLERY]),
    experience=st.sampled_from(list(Experience)), bases=st.integers(0, 12),
    casualties=st.integers(0, 3), pins=st.integers(0, 9), down=st.booleans(),
    routing=st.booleans(),
)
_STANDING = st.fixed_dictionaries({}, optional={
    "bases": st.integers(-2, 14), "casualties": st.integers(-1, 5),
    "pins": st.integers(-2, 12), "down": st.booleans(), "colonel": st.booleans(),
    "routing": st.booleans(), "home": st.booleans()})


@given(_UNITS, _STANDING)
def test_revise_is_evolve_checking_the_changed_values(unit: Unit, changes: dict[str, object]
                                                       ) -> None:
    """``revise`` gives the unit ``attrs.evolve`` gives, equal and with the same hash, and
    refuses with the same error what ``attrs.evolve`` refuses."""
    try:
        expected = attrs.evolve(unit, **changes)  # type: ignore[arg-type]
    except InvalidValueError as error:
        with pytest.raises(InvalidValueError) as raised:
            revise(unit, **changes)
        assert raised.value.field == error.field
        return
    changed = revise(unit, **changes)
    assert changed == expected and hash(changed) == hash(expected)


def test_revise_changes_only_a_units_standing() -> None:
    with pytest.raises(InvalidValueError, match="bases, casualties, pins"):
        revise(Unit("u", "Unit", UNION), formation=Formation.COLUMN)
