"""Units and commanders of Bolt Action ACW (Unit Sizes; Morale ratings; Ranges).

Values only: the unit's type, experience, weapon, bases and figures, casualties marked, pins,
whether it is down, its colonel, routing, gone home; the commanders' rank, brigade and the
unit each is with. Every change is a new value made with ``attrs.evolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from smoothbore.core import InvalidValueError, NamedEnum
from smoothbore.core.validate import in_range, maybe, one_of, text

UNION = "union"
CONFEDERATE = "confederate"
SIDES = (UNION, CONFEDERATE)
"""The two colours of order dice (The Turn)."""

def _flag(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not True and value is not False:
        raise InvalidValueError(f"{type(instance).__name__}.{attribute.name}", value,
                                "True or False")


FLAG = _flag
"""attrs validator of a yes-or-no field: True or False itself (not 'no', 1, 0 or None)."""


def of_kind(kind: type) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    """attrs validator: a value of ``kind`` itself (a fact's class), not a look-alike."""

    def validate(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not kind:
            raise InvalidValueError(f"{type(instance).__name__}.{attribute.name}", value,
                                    f"a {kind.__name__}")

    return validate

CASUALTIES_PER_BASE = 4
"""Remove 1 base for every 4 casualties (Enfilading Fire: removing bases)."""

FULL_STRENGTH_BASES = 5
"""Infantry and cavalry below 5 bases lose 1 from tests per base (Morale modifiers)."""

MAX_PINS = 24
"""The most pins a unit carries (interpretation A37): each pin is -1 to a 2D6 test of at
most 9 + 2, so past 12 every test but a natural 2 fails; 24 lets rallies (D6 pins each)
still tell a unit pinned twice over. Pins past it are not placed."""


class UnitType(NamedEnum):
    """The kinds of unit (Unit Sizes; Movement)."""

    INFANTRY = "infantry"
    SKIRMISHERS = "skirmishers"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    WAGON = "wagon"


class Experience(NamedEnum):
    """Troop experience and its morale rating (Morale ratings)."""

    INEXPERIENCED = "inexperienced"
    REGULAR = "regular"
    VETERAN = "veteran"

    @property
    def morale(self) -> int:
        """The morale rating: 7, 8 or 9."""
        return MORALE_RATING[self]

    @property
    def to_wound(self) -> int:
        """The score to wound this troop (Enfilading Fire: 3+, 4+, 5+)."""
        return WOUND_SCORE[self]


MORALE_RATING = {Experience.INEXPERIENCED: 7, Experience.REGULAR: 8, Experience.VETERAN: 9}
WOUND_SCORE = {Experience.INEXPERIENCED: 3, Experience.REGULAR: 4, Experience.VETERAN: 5}


class Weapon(NamedEnum):
    """Weapons and their maximum ranges in inches (Ranges)."""

    SMOOTHBORE_MUSKET = "smoothbore musket"
    RIFLED_MUSKET = "rifled musket"
    SMOOTHBORE_CARBINE = "smoothbore carbine"
    RIFLED_CARBINE = "rifled carbine"
    SHARPS_RIFLE = "sharps rifle"
    SMOOTHBORE_CANNON = "12lb smoothbore cannon"
    RIFLED_CANNON = "12lb rifled cannon"
    NONE = "none"

    @property
    def max_range(self) -> int:
        """The weapon's maximum range (0: it cannot shoot)."""
        return MAX_RANGE[self]

    @property
    def cannon(self) -> bool:
        """A 12lb cannon, which does damage of 1D6 (2D6 at point blank)."""
        return self in (Weapon.SMOOTHBORE_CANNON, Weapon.RIFLED_CANNON)


MAX_RANGE = {
    Weapon.SMOOTHBORE_MUSKET: 18,
    Weapon.RIFLED_MUSKET: 24,
    Weapon.SMOOTHBORE_CARBINE: 12,
    Weapon.RIFLED_CARBINE: 18,
    Weapon.SHARPS_RIFLE: 30,
    Weapon.SMOOTHBORE_CANNON: 48,
    Weapon.RIFLED_CANNON: 60,
    Weapon.NONE: 0,
}
POINT_BLANK = 12
"""Cannon point blank range: 12" (Ranges)."""


class Formation(NamedEnum):
    """Formations (Orders: change formation). Infantry and mounted cavalry are in LINE or
    COLUMN; skirmishers and dismounted cavalry in SKIRMISH order; artillery LIMBERED or
    UNLIMBERED; wagons move in COLUMN."""

    LINE = "line"
    COLUMN = "column"
    SKIRMISH = "skirmish"
    LIMBERED = "limbered"
    UNLIMBERED = "unlimbered"


ALLOWED_FORMATIONS = {
    UnitType.INFANTRY: (Formation.LINE, Formation.COLUMN),
    UnitType.SKIRMISHERS: (Formation.SKIRMISH,),
    UnitType.CAVALRY: (Formation.LINE, Formation.COLUMN, Formation.SKIRMISH),
    UnitType.ARTILLERY: (Formation.LIMBERED, Formation.UNLIMBERED),
    UnitType.WAGON: (Formation.COLUMN,),
}

FIGURES_PER_BASE = {
    UnitType.INFANTRY: 4,
    UnitType.SKIRMISHERS: 2,
    UnitType.CAVALRY: 2,
    UnitType.ARTILLERY: 1,
    UnitType.WAGON: 1,
}
"""Figures on a base (Unit Sizes): infantry 20-24 figures on 5 or 6 bases, skirmishers 2 a
base, cavalry 12 mounted figures on 6 bases of 2, one cannon or wagon (A3)."""


class Rank(NamedEnum):
    """A commander's rank (colonels ride with their units: ``Unit.colonel``)."""

    BRIGADE = "brigade commander"
    ARMY = "army commander"


def _formation_fits(instance: Unit, attribute: attrs.Attribute[Formation],
                    value: Formation) -> None:
    allowed = ALLOWED_FORMATIONS[instance.kind]
    if value not in allowed:
        raise InvalidValueError("formation", value, "one of " + ", ".join(map(str, allowed)))
    if instance.kind is UnitType.CAVALRY and instance.mounted == (value is Formation.SKIRMISH):
        raise InvalidValueError(
            "formation", value,
            "line or column when mounted, skirmish when dismounted (Unit Sizes)",
        )


def _default_formation(unit: Unit) -> Formation:
    if unit.kind is UnitType.CAVALRY and not unit.mounted:
        return Formation.SKIRMISH
    return ALLOWED_FORMATIONS[unit.kind][0]


def _default_weapon(unit: Unit) -> Weapon:
    return {
        UnitType.INFANTRY: Weapon.RIFLED_MUSKET,
        UnitType.SKIRMISHERS: Weapon.RIFLED_MUSKET,
        UnitType.CAVALRY: Weapon.RIFLED_CARBINE,
        UnitType.ARTILLERY: Weapon.SMOOTHBORE_CANNON,
        UnitType.WAGON: Weapon.NONE,
    }[unit.kind]


def _default_bases(unit: Unit) -> int:
    return {UnitType.CAVALRY: 6, UnitType.ARTILLERY: 1, UnitType.WAGON: 1}.get(unit.kind, 5)


def _casualties_below_a_base(instance: Unit, attribute: attrs.Attribute[int],
                             value: int) -> None:
    in_range(0, CASUALTIES_PER_BASE - 1)(instance, attribute, value)


# enum members read off their class cost about ten times a module name (Python 3.11): the
# properties asked at every step read them once here
_SKIRMISH, _LIMBERED, _WAGON = Formation.SKIRMISH, Formation.LIMBERED, UnitType.WAGON
_COUNTS_BASES = (UnitType.INFANTRY, UnitType.SKIRMISHERS, UnitType.CAVALRY)


@attrs.frozen(cache_hash=True)
class Unit:
    """A Bolt Action ACW unit.

    ``bases`` are the bases left (0: destroyed) and ``casualties`` the casualties marked
    towards the next base; ``pins`` the pin markers; ``down`` whether it went down;
    ``colonel`` whether its colonel is alive and with it; ``brigade`` its brigade ("" for an
    independent unit, which has its own order die); ``home`` whether it has gone home
    (Brigade and army strength). Cavalry is ``mounted`` or dismounted in skirmish order with
    its horse holders."""

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=one_of(*SIDES))
    kind: UnitType = attrs.field(default=UnitType.INFANTRY, validator=one_of(*UnitType))
    experience: Experience = attrs.field(default=Experience.REGULAR,
                                         validator=one_of(*Experience))
    weapon: Weapon = attrs.field(default=attrs.Factory(_default_weapon, takes_self=True),
                                 validator=one_of(*Weapon))
    bases: int = attrs.field(default=attrs.Factory(_default_bases, takes_self=True),
                             validator=in_range(0, 12))
    casualties: int = attrs.field(default=0, validator=_casualties_below_a_base)
    pins: int = attrs.field(default=0, validator=in_range(0, MAX_PINS))
    brigade: str = attrs.field(default="", validator=text(empty=True))
    mounted: bool = attrs.field(default=attrs.Factory(
        lambda unit: unit.kind is UnitType.CAVALRY, takes_self=True), validator=FLAG)
    formation: Formation = attrs.field(
        default=attrs.Factory(_default_formation, takes_self=True), validator=_formation_fits)
    down: bool = attrs.field(default=False, validator=FLAG)
    colonel: bool = attrs.field(default=attrs.Factory(
        lambda unit: unit.kind in (UnitType.INFANTRY, UnitType.CAVALRY), takes_self=True),
        validator=FLAG)
    routing: bool = attrs.field(default=False, validator=FLAG)
    home: bool = attrs.field(default=False, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        if self.mounted and self.kind is not UnitType.CAVALRY:
            raise InvalidValueError("mounted", self.mounted, "False for a unit not cavalry")

    @property
    def independent(self) -> bool:
        """An independent unit, with its own order die (The Turn, 1)."""
        return not self.brigade

    @property
    def morale(self) -> int:
        """The unit's morale rating (Morale ratings)."""
        return self.experience.morale

    @property
    def figures(self) -> int:
        """Figures left: bases times figures to a base (Unit Sizes)."""
        return self.bases * FIGURES_PER_BASE[self.kind]

    @property
    def destroyed(self) -> bool:
        """Every base removed."""
        return self.bases == 0

    @property
    def lost(self) -> bool:
        """Out of the battle: destroyed or gone home."""
        return self.bases == 0 or self.home

    @property
    def in_the_fight(self) -> bool:
        """Neither lost nor routing."""
        return not (self.bases == 0 or self.home or self.routing)

    @property
    def skirmishing(self) -> bool:
        """In skirmish order: skirmishers and dismounted cavalry (Unit Sizes)."""
        return self.formation is _SKIRMISH

    @property
    def counts_bases(self) -> bool:
        """Infantry or cavalry, which lose 1 per base below 5 (Morale modifiers)."""
        return self.kind in _COUNTS_BASES

    @property
    def bases_below_five(self) -> int:
        """Bases below 5, each -1 to order and morale tests (Morale modifiers)."""
        return max(0, FULL_STRENGTH_BASES - self.bases) if self.counts_bases else 0

    @property
    def may_go_down(self) -> bool:
        """Mounted cavalry, limbered artillery and wagons cannot go down (Orders, 6)."""
        return not (self.mounted or self.formation is _LIMBERED or self.kind is _WAGON)

    @property
    def small(self) -> bool:
        """A small target, e.g. a cannon (Ranges: to hit modifiers; A6)."""
        return self.kind in (UnitType.ARTILLERY, UnitType.WAGON)

    def __str__(self) -> str:
        flags = [f"{self.bases} bases"]
        if self.casualties:
            flags.append(f"{self.casualties} casualties")
        if self.pins:
            flags.append(f"{self.pins} pins")
        for flag, word in ((self.down, "down"), (self.routing, "routing"),
                           (self.home, "gone home"), (self.destroyed, "destroyed")):
            if flag:
                flags.append(word)
        return f"{self.name} ({', '.join(flags)})"


_UNIT_FIELDS = tuple(field.name for field in attrs.fields(Unit))


REVISABLE = ("bases", "casualties", "pins", "down", "colonel", "routing", "home")
"""The fields of a unit's standing that the rules change as a battle goes on: none of them
depends on another field, so each is checked alone (``revise``)."""

_REVISABLE = {field.name: field for field in attrs.fields(Unit) if field.name in REVISABLE}


def revise(unit: Unit, **changes: Any) -> Unit:
    """The unit with some of its standing (``REVISABLE``) changed: ``attrs.evolve`` that
    checks only the changed values, each with its own field's validator. The rest of the
    unit was checked when it was made and does not change, so it needs no second look
    (``attrs.evolve`` re-checks every field, at several times the cost on the shooting hot
    path)."""
    new = object.__new__(Unit)
    put = object.__setattr__
    for name in _UNIT_FIELDS:
        put(new, name, getattr(unit, name))
    unknown = [name for name in changes if name not in _REVISABLE]
    if unknown:
        raise InvalidValueError("revise", unknown[0], "one of " + ", ".join(REVISABLE))
    for name, field in _REVISABLE.items():  # in the class's order, as attrs.evolve checks
        if name in changes:
            value = changes[name]
            if field.validator is not None:
                field.validator(new, field, value)
            put(new, name, value)
    put(new, "_attrs_cached_hash", None)
    return new


def add_pins(unit: Unit, pins: int) -> Unit:
    """The unit with more pins, never past ``MAX_PINS`` (A37)."""
    if pins < 0:
        raise InvalidValueError("pins", pins, "0 or more")
    return revise(unit, pins=more_pins(unit.pins, pins)) if pins else unit


def more_pins(pins: int, more: int) -> int:
    """``pins`` and ``more`` pins, never past ``MAX_PINS`` (A37)."""
    return min(MAX_PINS, pins + more)


def remove_pins(unit: Unit, pins: int) -> Unit:
    """The unit with fewer pins, never below 0 (Order tests; Orders, 5: rally)."""
    if pins < 0:
        raise InvalidValueError("pins", pins, "0 or more")
    return revise(unit, pins=max(0, unit.pins - pins)) if pins and unit.pins else unit


def take_casualties(unit: Unit, casualties: int) -> tuple[Unit, int]:
    """The unit after ``casualties``, and the bases it lost: 1 base for every 4 casualties,
    counting those already marked (Enfilading Fire: removing bases)."""
    if casualties < 0:
        raise InvalidValueError("casualties", casualties, "0 or more")
    left, marked, lost = casualties_after(unit.bases, unit.casualties, casualties)
    return revise(unit, bases=left, casualties=marked), lost


def casualties_after(bases: int, marked: int, casualties: int) -> tuple[int, int, int]:
    """(bases left, casualties marked, bases lost) after ``casualties`` on a unit of
    ``bases`` with ``marked`` casualties already: a base for every 4 (Enfilading Fire)."""
    total = marked + casualties
    lost = min(bases, total // CASUALTIES_PER_BASE)
    left = bases - lost
    return left, (total % CASUALTIES_PER_BASE if left else 0), lost


@attrs.frozen
class Commander:
    """A brigade or army commander; ``brigade`` names the brigade he commands (army
    commanders: ""), ``with_unit`` the unit he is with (None: with none), ``experience`` the
    rating a brigade's test uses when the army has lost half its brigades (A17)."""

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=one_of(*SIDES))
    rank: Rank = attrs.field(default=Rank.BRIGADE, validator=one_of(*Rank))
    brigade: str = attrs.field(default="", validator=text(empty=True))
    with_unit: str | None = attrs.field(default=None, validator=maybe(text()))
    experience: Experience = attrs.field(default=Experience.REGULAR,
                                         validator=one_of(*Experience))

    def __attrs_post_init__(self) -> None:
        if (self.rank is Rank.BRIGADE) != bool(self.brigade):
            raise InvalidValueError(
                "brigade", self.brigade,
                "the brigade he commands for a brigade commander, '' for the army commander",
            )

    def __str__(self) -> str:
        return f"{self.name} ({self.rank})"
