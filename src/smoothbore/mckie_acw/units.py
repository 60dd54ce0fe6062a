"""Units and commanders (McKie ACW, Troop categories; Formation and strength of units;
Ammunition; Effort points; Generalship)."""

from __future__ import annotations

import operator
from typing import Any

import attrs

from smoothbore.core import InvalidValueError, NamedEnum, check_range, in_range

from .fields import check_fields

ROUNDS_PER_FIGURE = 6
"""Ammunition: 6 rounds per figure or gun at the start of a battle (and up to 6 in reserve)."""
FULL_CREW = 4
"""Formation and strength of units: a gun model fires at full effect with a crew of 4."""
MAX_HELPERS = 3
"""Up to 3 foot or cavalry figures may be attached to help the trained crew."""
GUNS_PER_MODEL = 20
"""A gun model counts as 20 guns on the casualty table."""
DIG_PERIODS = 4
"""Movement: one figure digs its 7 mm of trench in 4 complete periods."""
TIRED_AT = 7
EXHAUSTED_AT = 12
"""Effort points: tired after 7, exhausted after 12."""
MAX_FIGURES = 60
"""The most figures a unit may have (a brigade of 6,000 men: far past any of the war)."""
MAX_PERIODS = 10_000
"""The longest battle played (Battle period: the text sets no limit; interpretation M45)."""
EFFORT_PER_PERIOD = 5
"""Effort points: at most 5 a period (a charge or double move 2, firing 1, a melee 2)."""
MAX_EFFORT = EFFORT_PER_PERIOD * MAX_PERIODS
"""The most effort points a unit can hold: 5 a period over the longest battle (M45)."""


class Arm(NamedEnum):
    """The three arms of the text."""

    FOOT = "foot"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


class Weapon(NamedEnum):
    """Small arms and artillery fire: the weapons of the text, rows of the weapon/range
    factor table (data/weapons.toml)."""

    SMOOTHBORE_MUSKET = "smoothbore-musket"
    MUZZLE_LOADING_RIFLE = "muzzle-loading-rifle"
    BREECH_LOADING_RIFLE = "breech-loading-rifle"
    REPEATING_RIFLE = "repeating-rifle"
    SMOOTHBORE_12LB = "12lb-smoothbore-gun"
    RODMAN_3IN = "3in-rodman-rifle"
    SIEGE_GUN = "siege-gun"
    MORTAR_10IN = "10in-mortar"
    SNIPER_RIFLE = "sniper-rifle"

    @property
    def is_gun(self) -> bool:
        """Whether the weapon is an artillery piece."""
        return (self is Weapon.SMOOTHBORE_12LB or self is Weapon.RODMAN_3IN
                or self is Weapon.SIEGE_GUN or self is Weapon.MORTAR_10IN)

    @property
    def is_heavy(self) -> bool:
        """Siege guns and mortars: they may not move and fire, and take a whole period to
        limber or unlimber."""
        return self is Weapon.SIEGE_GUN or self is Weapon.MORTAR_10IN


class Quality(NamedEnum):
    """Troop categories: veteran, experienced, raw."""

    VETERAN = "veteran"
    EXPERIENCED = "experienced"
    RAW = "raw"

    @property
    def morale(self) -> int:
        """Morale: Tactical factors: veteran 2, experienced 1 (added, or subtracted where the
        option lets the player choose); raw nothing."""
        return 2 if self is Quality.VETERAN else 1 if self is Quality.EXPERIENCED else 0


class Formation(NamedEnum):
    """Movement: Maneuvers: line or column, and skirmish order (Firing: Tactical factors)."""

    LINE = "line"
    COLUMN = "column"
    SKIRMISH = "skirmish"


class Ground(NamedEnum):
    """Where a unit stands, as far as the rules care: open ground, cover (Morale and Firing:
    "in cover"), behind an obstacle (a fence, wall, stream or work in front: "behind ...
    cover", which covers it from fire only across the obstacle, M31), dense woods (cover,
    seen only within 20 mm, foot only), a town (cover, seen within 20 mm) or permanent
    defenses."""

    OPEN = "open"
    COVER = "cover"
    BEHIND_OBSTACLE = "behind-obstacle"
    DENSE_WOODS = "dense-woods"
    TOWN = "town"
    PERMANENT = "permanent-defenses"

    @property
    def is_cover(self) -> bool:
        return self is not Ground.OPEN

    @property
    def hides(self) -> bool:
        """Visibility: troops in dense woods and towns are seen only at the edges."""
        return self is Ground.DENSE_WOODS or self is Ground.TOWN


class Status(NamedEnum):
    """A unit's state: in good order, retreating, routing, or gone from the battle."""

    STEADY = "steady"
    RETREATING = "retreating"
    ROUTING = "routing"
    DESTROYED = "destroyed"
    SURRENDERED = "surrendered"
    OFF_TABLE = "off the table"

    @property
    def on_table(self) -> bool:
        return self is Status.STEADY or self is Status.RETREATING or self is Status.ROUTING


def _default_ammo(instance: Unit) -> int:
    figures = instance.figures
    if type(figures) is not int:
        return 0  # the figures are refused, naming their field, once the unit is made
    return ROUNDS_PER_FIGURE * (1 if instance.arm is Arm.ARTILLERY else figures)


@attrs.frozen(cache_hash=True)
class Unit:
    """A brigade of foot or cavalry (16 figures for 1,600 men) or an artillery unit (one gun
    model, 20 guns, with a crew of up to 4 figures and up to 3 attached helpers).

    ``figures``: figures now (the crew, for artillery); ``pieces``: the actual guns a model
    still has; ``ammo``: rounds left (per figure, or per gun model); ``effort``: effort
    points; ``commander``: the commander it belongs to; ``ground``: where it stands;
    ``dug``: periods of digging done where it stands (4 make a trench)."""

    id: str
    name: str
    side: str
    arm: Arm
    weapon: Weapon
    quality: Quality = Quality.EXPERIENCED
    figures: int = 16
    initial_figures: int = attrs.field(
        default=attrs.Factory(lambda self: self.figures, takes_self=True))
    formation: Formation = Formation.LINE
    mounted: bool = False
    limbered: bool = False
    pieces: int = GUNS_PER_MODEL
    helpers: int = 0
    ammo: int = attrs.field(default=attrs.Factory(_default_ammo, takes_self=True))
    effort: int = 0
    status: Status = Status.STEADY
    commander: str = ""
    ground: Ground = Ground.OPEN
    dug: int = 0
    has_fired: bool = False
    must_retire: bool = False
    resting: bool = False

    def __attrs_post_init__(self) -> None:
        # the field checks written inline (a unit is made at every change of a battle); the
        # error comes from check_range, naming the field
        f, i, p, h, a, e, d = (self.figures, self.initial_figures, self.pieces, self.helpers,
                               self.ammo, self.effort, self.dug)
        if not (type(f) is int and 0 <= f <= MAX_FIGURES):
            check_range("Unit.figures", f, 0, MAX_FIGURES)
        if not (type(i) is int and 1 <= i <= MAX_FIGURES):
            check_range("Unit.initial_figures", i, 1, MAX_FIGURES)
        if not (type(p) is int and 0 <= p <= GUNS_PER_MODEL):
            check_range("Unit.pieces", p, 0, GUNS_PER_MODEL)
        if not (type(h) is int and 0 <= h <= MAX_HELPERS):
            check_range("Unit.helpers", h, 0, MAX_HELPERS)
        full = ROUNDS_PER_FIGURE * (1 if self.arm is Arm.ARTILLERY else i)
        if not (type(a) is int and 0 <= a <= full):  # Ammunition: 6 a figure or gun
            check_range("Unit.ammo", a, 0, full)
        if not (type(e) is int and 0 <= e <= MAX_EFFORT):
            check_range("Unit.effort", e, 0, MAX_EFFORT)
        if not (type(d) is int and 0 <= d <= DIG_PERIODS):
            check_range("Unit.dug", d, 0, DIG_PERIODS)
        check_fields(self)  # every field of its type (issue 28)
        if (self.arm is Arm.ARTILLERY) != self.weapon.is_gun:
            allowed = "a gun" if self.arm is Arm.ARTILLERY else "a small arm"
            raise InvalidValueError("Unit.weapon", self.weapon.value, f"{allowed} for {self.arm}")
        if self.figures > self.initial_figures:
            raise InvalidValueError("Unit.figures", self.figures,
                                    f"at most initial_figures ({self.initial_figures})")
        if self.arm is Arm.ARTILLERY and self.initial_figures > FULL_CREW:
            raise InvalidValueError("Unit.initial_figures", self.initial_figures,
                                    f"a crew of 1 to {FULL_CREW} figures")
        if self.mounted and self.arm is not Arm.CAVALRY:
            raise InvalidValueError("Unit.mounted", True, "False for foot and artillery")
        if self.limbered and self.arm is not Arm.ARTILLERY:
            raise InvalidValueError("Unit.limbered", True, "False for foot and cavalry")
        if self.helpers and self.arm is not Arm.ARTILLERY:
            raise InvalidValueError("Unit.helpers", self.helpers, "0 for foot and cavalry")
        if self.ground is Ground.DENSE_WOODS and self.arm is not Arm.FOOT:
            raise InvalidValueError("Unit.ground", self.ground.value, "not dense woods: foot only")

    @property
    def on_table(self) -> bool:
        status = self.status
        return status is Status.STEADY or status is Status.RETREATING or status is Status.ROUTING

    @property
    def steady(self) -> bool:
        return self.status is Status.STEADY

    @property
    def tired(self) -> bool:
        """Effort points: tired from 7 points (and not yet exhausted)."""
        return TIRED_AT <= self.effort < EXHAUSTED_AT

    @property
    def exhausted(self) -> bool:
        """Effort points: exhausted from 12 points."""
        return self.effort >= EXHAUSTED_AT

    @property
    def lost(self) -> int:
        """Figures lost since the start of the battle."""
        return self.initial_figures - self.figures

    @property
    def is_gun(self) -> bool:
        return self.arm is Arm.ARTILLERY

    @property
    def dismounted_cavalry(self) -> bool:
        return self.arm is Arm.CAVALRY and not self.mounted

    @property
    def horseholders(self) -> int:
        """Movement: while dismounted every fourth figure holds the horses."""
        return self.figures // 4 if self.dismounted_cavalry else 0

    @property
    def crew(self) -> int:
        """The figures serving the guns: the trained crew and helpers, at most a full crew."""
        return min(FULL_CREW, self.figures + self.helpers)

    @property
    def full_ammo(self) -> int:
        """The rounds the unit holds when full: 6 per figure, or 6 per gun model."""
        return ROUNDS_PER_FIGURE * (1 if self.is_gun else self.figures)


_UNIT_FIELDS = tuple(f.name for f in attrs.fields(Unit))
_UNIT_VALUES = operator.attrgetter(*_UNIT_FIELDS)
_UNIT_INDEX = {name: i for i, name in enumerate(_UNIT_FIELDS)}


def changed(unit: Unit, **changes: Any) -> Unit:
    """The unit with some fields changed: what ``attrs.evolve`` makes (``Unit`` called with
    every field, so every check of a unit runs), at a third of the cost, as units change at
    most steps."""
    values = list(_UNIT_VALUES(unit))
    for name, value in changes.items():
        index = _UNIT_INDEX.get(name)
        if index is None:
            raise InvalidValueError("Unit field", name, "one of " + ", ".join(_UNIT_FIELDS))
        values[index] = value
    return Unit(*values)


class Rank(NamedEnum):
    """Generalship: the commander-in-chief, corps and divisional commanders."""

    CINC = "commander-in-chief"
    CORPS = "corps"
    DIVISION = "division"


class OrderKind(NamedEnum):
    """Deployment and general orders: the written orders as data. ``attack`` and
    ``advance`` let the troops advance; ``hold`` and ``withdraw`` do not."""

    ATTACK = "attack"
    ADVANCE = "advance"
    HOLD = "hold"
    WITHDRAW = "withdraw"

    @property
    def advances(self) -> bool:
        return self is OrderKind.ATTACK or self is OrderKind.ADVANCE


class Fate(NamedEnum):
    """Risk to generals: a general in action, killed, or seriously wounded (out for the rest
    of the battle)."""

    ACTIVE = "active"
    KILLED = "killed"
    WOUNDED = "seriously wounded"


@attrs.frozen
class Order:
    """A commander's written order: its kind, who wrote it, and whether he has begun carrying
    it out (a commander who fails activation on his first order may not advance; on old
    orders he may continue or halt)."""

    kind: OrderKind = OrderKind.HOLD
    issued_by: str = ""
    started: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Commander:
    """A general: rank, initiative and activation ratings (Generalship), his superior in the
    line of command, the unit he is with ("" alone), his written order and any order on its
    way by courier, and his fate."""

    id: str
    name: str
    side: str
    rank: Rank = Rank.DIVISION
    initiative: int = attrs.field(default=3, validator=in_range(0, 10))
    activation: int = attrs.field(default=5, validator=in_range(0, 10))
    superior: str = ""
    attached_to: str = ""
    order: Order = Order()
    courier: OrderKind | None = None
    fate: Fate = Fate.ACTIVE

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)

    @property
    def active(self) -> bool:
        return self.fate is Fate.ACTIVE
