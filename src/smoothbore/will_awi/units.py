"""Units, generals and their values (Will's AWI, Rules - Introduction and Rules - Morale)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from smoothbore.core import InvalidValueError, NamedEnum, in_range, revised
from smoothbore.core.validate import maybe, one_of, refers_to, text


class Arm(enum.Enum):
    """The broad troop classes the tables are written by."""

    CLOSE_ORDER_FOOT = "close order foot"
    OPEN_ORDER_FOOT = "open order foot"
    CAVALRY = "light cavalry"
    ARTILLERY = "artillery"
    WAGON = "wagon"


class TroopType(NamedEnum):
    """Every troop type of the text (Rules - Introduction: Units and bases), plus the variants'."""

    LINE = "line infantry"
    FUSILIERS = "fusiliers"
    GRENADIERS = "grenadiers"
    MILITIA = "militia"
    LIGHT_INFANTRY = "light infantry"
    JAEGERS = "jaegers"
    RANGERS = "rangers"
    INDIANS = "indians"
    RIFLEMEN = "riflemen"
    LIGHT_CAVALRY = "light cavalry"
    LIGHT_GUN = "light guns"
    MEDIUM_GUN = "medium guns"
    HEAVY_GUN = "heavy guns"
    GALLOPER_GUN = "galloper guns"
    GRASSHOPPER_GUN = "grasshopper guns"
    HOWITZER = "howitzers"
    WAGON = "wagons"
    PIKEMEN = "pikemen"  # Ireland 1798
    HIGHLANDERS = "highlanders"  # Battles of the '45: hordes

    @property
    def arm(self) -> Arm:
        return _ARM[self]

    @property
    def is_foot(self) -> bool:
        return self.arm in (Arm.CLOSE_ORDER_FOOT, Arm.OPEN_ORDER_FOOT)

    @property
    def is_infantry(self) -> bool:
        return self.is_foot

    @property
    def is_cavalry(self) -> bool:
        return self is TroopType.LIGHT_CAVALRY

    @property
    def is_gun(self) -> bool:
        return self.arm is Arm.ARTILLERY

    @property
    def is_mounted(self) -> bool:
        return self.is_cavalry


_ARM: Mapping[TroopType, Arm] = MappingProxyType({
    TroopType.LINE: Arm.CLOSE_ORDER_FOOT,
    TroopType.FUSILIERS: Arm.CLOSE_ORDER_FOOT,
    TroopType.GRENADIERS: Arm.CLOSE_ORDER_FOOT,
    TroopType.MILITIA: Arm.CLOSE_ORDER_FOOT,
    TroopType.PIKEMEN: Arm.CLOSE_ORDER_FOOT,
    TroopType.HIGHLANDERS: Arm.CLOSE_ORDER_FOOT,
    TroopType.LIGHT_INFANTRY: Arm.OPEN_ORDER_FOOT,
    TroopType.JAEGERS: Arm.OPEN_ORDER_FOOT,
    TroopType.RANGERS: Arm.OPEN_ORDER_FOOT,
    TroopType.INDIANS: Arm.OPEN_ORDER_FOOT,
    TroopType.RIFLEMEN: Arm.OPEN_ORDER_FOOT,
    TroopType.LIGHT_CAVALRY: Arm.CAVALRY,
    TroopType.LIGHT_GUN: Arm.ARTILLERY,
    TroopType.MEDIUM_GUN: Arm.ARTILLERY,
    TroopType.HEAVY_GUN: Arm.ARTILLERY,
    TroopType.GALLOPER_GUN: Arm.ARTILLERY,
    TroopType.GRASSHOPPER_GUN: Arm.ARTILLERY,
    TroopType.HOWITZER: Arm.ARTILLERY,
    TroopType.WAGON: Arm.WAGON,
})


class Nationality(NamedEnum):
    """Nationality, where the rules depend on it."""

    BRITISH = "British"
    EUROPEAN = "other European"  # German, French, Spanish regulars
    AMERICAN = "American"
    LOYALIST = "American loyalist"
    JACOBITE = "Jacobite"  # Battles of the '45
    IRISH = "Irish"  # Ireland 1798: the United Irish rebels

    @property
    def is_european(self) -> bool:
        return self in (Nationality.BRITISH, Nationality.EUROPEAN)


class Formation(NamedEnum):
    """Rules - Introduction: Formations. Guns use ``limbered`` instead."""

    LINE = "line"
    COLUMN = "column"


class Status(enum.Enum):
    """Marking Unit Status, plus removal from the table: eliminated at 0 strength points,
    surrendered, or routed off the friendly table edge (Rules - Charging: Rout)."""

    STEADY = "steady"
    SHAKEN = "shaken"
    ROUTING = "routing"
    ELIMINATED = "eliminated"
    SURRENDERED = "surrendered"
    OFF_TABLE = "off the table"

    @property
    def on_table(self) -> bool:
        return self is Status.STEADY or self is Status.SHAKEN or self is Status.ROUTING


class Training(NamedEnum):
    """Command & Control: well or poorly trained units (militia are poorly trained)."""

    WELL = "well trained"
    AVERAGE = "average"
    POOR = "poorly trained"


class Weapon(enum.Enum):
    """The rows of the firing range table."""

    MUSKET = "muskets"
    RIFLE = "rifles"
    LIGHT_GUN = "light guns"
    MEDIUM_GUN = "medium guns"
    HEAVY_GUN = "heavy guns"
    GALLOPER_GUN = "galloper guns"
    GRASSHOPPER_GUN = "grasshopper guns"
    HOWITZER = "howitzers"

    @property
    def is_gun(self) -> bool:
        return self not in (Weapon.MUSKET, Weapon.RIFLE)


_GUN_WEAPON: Mapping[TroopType, Weapon] = MappingProxyType({
    TroopType.LIGHT_GUN: Weapon.LIGHT_GUN,
    TroopType.MEDIUM_GUN: Weapon.MEDIUM_GUN,
    TroopType.HEAVY_GUN: Weapon.HEAVY_GUN,
    TroopType.GALLOPER_GUN: Weapon.GALLOPER_GUN,
    TroopType.GRASSHOPPER_GUN: Weapon.GRASSHOPPER_GUN,
    TroopType.HOWITZER: Weapon.HOWITZER,
})


def default_weapon(troop: TroopType) -> Weapon | None:
    """What a troop type fires: rifles for riflemen and jaegers, muskets for other foot, guns for
    artillery, nothing for cavalry (FAQs (3) 4: cavalry do not fire), wagons and the pike-armed
    pikemen of Ireland 1798 (W37; a unit's ``weapon`` gives pikemen muskets)."""
    return _DEFAULT_WEAPON[troop]


def _default_weapon(troop: TroopType) -> Weapon | None:
    if troop in _GUN_WEAPON:
        return _GUN_WEAPON[troop]
    if troop in (TroopType.RIFLEMEN, TroopType.JAEGERS):
        return Weapon.RIFLE
    if troop.is_foot and troop is not TroopType.PIKEMEN:
        return Weapon.MUSKET
    return None


_DEFAULT_WEAPON: Mapping[TroopType, Weapon | None] = MappingProxyType(
    {troop: _default_weapon(troop) for troop in TroopType})
"""``default_weapon`` of every troop type, looked up once."""


def _flag(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if value is True or value is False:
        return
    raise InvalidValueError(f"{type(instance).__name__}.{attribute.name}", value,
                            "True or False (a bool, not text or a number)")


FLAG = _flag
"""attrs validator of a yes-or-no field: True or False only (``'no'`` is not False)."""


def _strength_ok(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not 0 <= value <= 6:
        raise InvalidValueError(attribute.name, value, "0 to 6 strength points")


def _militia_ok(instance: Unit, attribute: attrs.Attribute[int], value: int) -> None:
    if value not in (1, 2):
        raise InvalidValueError(attribute.name, value, "1 or 2 (militia -1 or -2)")


@attrs.frozen(cache_hash=True)
class Unit:
    """One unit: two bases (guns: gun and limber; wagons: one base), 0-6 strength points.

    ``commander`` is the id of its brigadier; ``militia_morale`` is the per-unit militia choice
    (-1 or -2, Rules - Morale); ``morale_bonus`` and ``fire_bonus`` are the Battles of the '45
    pre-battle rolls for British line; ``training`` None means the type's default (militia poor);
    ``dragoons`` marks cavalry that move as the '45's dragoons (British cavalry always do).
    """

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=text())
    troop: TroopType = attrs.field(validator=one_of(*TroopType))
    nationality: Nationality = attrs.field(
        default=Nationality.AMERICAN, validator=one_of(*Nationality)
    )
    strength: int = attrs.field(default=5, validator=_strength_ok)
    initial_strength: int = attrs.field(default=5, validator=in_range(1, 6))
    formation: Formation = attrs.field(default=Formation.LINE, validator=one_of(*Formation))
    limbered: bool = attrs.field(default=False, validator=FLAG)
    status: Status = attrs.field(default=Status.STEADY, validator=one_of(*Status))
    militia_morale: int = attrs.field(default=1, validator=_militia_ok)
    training: Training | None = attrs.field(default=None, validator=maybe(one_of(*Training)))
    weapon: Weapon | None = attrs.field(default=None, validator=maybe(one_of(*Weapon)))
    commander: str = attrs.field(
        default="", validator=text(empty=True), metadata=refers_to("commanders", blank=True)
    )
    morale_bonus: int = attrs.field(default=0, validator=in_range(0, 1))
    fire_bonus: int = attrs.field(default=0, validator=in_range(0, 1))
    highland_charge: bool = attrs.field(default=False, validator=FLAG)
    must_retire: bool = attrs.field(default=False, validator=FLAG)
    routed_last_move: bool = attrs.field(default=False, validator=FLAG)
    immobilised: bool = attrs.field(default=False, validator=FLAG)
    busy_moves: int = attrs.field(default=0, validator=in_range(0, 2))
    dragoons: bool = attrs.field(default=False, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        if self.status.on_table and self.strength == 0:
            raise InvalidValueError(
                "strength", 0, "at least 1 for a unit on the table (0 removes it)"
            )
        if self.troop.is_gun and self.formation is not Formation.LINE:
            raise InvalidValueError("formation", self.formation, "line for guns (use limbered)")
        if self.limbered and not self.troop.is_gun:
            raise InvalidValueError("limbered", True, "True only for guns")
        if self.dragoons and not self.troop.is_cavalry:
            raise InvalidValueError("dragoons", True, "True only for cavalry")
        if self.highland_charge and self.troop is not TroopType.HIGHLANDERS:
            raise InvalidValueError("highland_charge", True, "True only for highlanders")

    @property
    def arm(self) -> Arm:
        return self.troop.arm

    @property
    def on_table(self) -> bool:
        status = self.status
        return status is Status.STEADY or status is Status.SHAKEN or status is Status.ROUTING

    @property
    def shaken(self) -> bool:
        return self.status is Status.SHAKEN

    @property
    def routing(self) -> bool:
        return self.status is Status.ROUTING

    @property
    def fires_with(self) -> Weapon | None:
        return self.weapon if self.weapon is not None else default_weapon(self.troop)

    @property
    def trained(self) -> Training:
        if self.training is not None:
            return self.training
        return Training.POOR if self.troop is TroopType.MILITIA else Training.AVERAGE

    @property
    def is_european_regular(self) -> bool:
        """British or other European troops other than militia, Indians and wagons
        (Rules - Morale and Rules - Melee: "European Regulars")."""
        return self.nationality.is_european and self.troop not in (
            TroopType.MILITIA,
            TroopType.INDIANS,
            TroopType.WAGON,
        )

    @property
    def is_british_close_order(self) -> bool:
        """Rules - Firing: "British Close Order Infantry" (militia are not the British line)."""
        return (
            self.nationality is Nationality.BRITISH
            and self.arm is Arm.CLOSE_ORDER_FOOT
            and self.troop is not TroopType.MILITIA
        )


def raise_unit(unit: Unit) -> Unit:
    """Check a unit for set-up: 3 to 6 strength points (Rules - Introduction: Strength Points)."""
    if not 3 <= unit.strength <= 6:
        raise InvalidValueError(
            "strength", unit.strength, "3 to 6 at set-up (combine below 3, split above 6)"
        )
    return revised(unit, initial_strength=unit.strength)


def strength_from_men(men: int, full: int = 250) -> int:
    """Strength points from actual men: 5 for full strength, 1 less per 20% under strength."""
    if men < 0 or full <= 0:
        raise InvalidValueError("men", men, "a non-negative number with full > 0")
    short = max(0, full - men)
    return max(0, 5 - (short * 5) // full)


class Rank(enum.Enum):
    """Rules - Introduction: Generals."""

    BRIGADIER = "brigadier general"
    SENIOR = "senior general"
    CINC = "commander in chief"

    @property
    def test_bonus(self) -> int:
        """+1 brigadier, +2 senior (a C in C is a senior general) on shaken and rout tests."""
        return 1 if self is Rank.BRIGADIER else 2


class GeneralState(enum.Enum):
    ACTIVE = "active"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"
    CAPTURED = "captured"


@attrs.frozen(cache_hash=True)
class Commander:
    """A general (brigadier, senior general or commander in chief): rank, command rating
    (Command & Control), light wounds, the unit he rides with and his superior."""

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=text())
    rank: Rank = attrs.field(default=Rank.BRIGADIER, validator=one_of(*Rank))
    rating: int = attrs.field(default=8, validator=in_range(2, 12))
    light_wounds: int = attrs.field(default=0, validator=in_range(0, 1))
    state: GeneralState = attrs.field(default=GeneralState.ACTIVE, validator=one_of(*GeneralState))
    attached_to: str = attrs.field(
        default="", validator=text(empty=True), metadata=refers_to("units", blank=True)
    )
    superior: str = attrs.field(
        default="", validator=text(empty=True), metadata=refers_to("commanders", blank=True)
    )

    @property
    def active(self) -> bool:
        return self.state is GeneralState.ACTIVE

    @property
    def speed_factor_halved(self) -> bool:
        """A light wound halves his move (Rules - Firing/Melee: Risk to Generals)."""
        return self.light_wounds > 0


def table_inches(measured: float, fifteen_mm: bool = False) -> float:
    """Rules - Introduction: distances are for 20/25 mm figures; with 15 mm figures every
    distance is 2/3, so a distance measured on a 15 mm table counts 3/2 as much."""
    if measured < 0:
        raise InvalidValueError("measured", measured, "a distance of 0 or more")
    return measured * 3 / 2 if fifteen_mm else measured
