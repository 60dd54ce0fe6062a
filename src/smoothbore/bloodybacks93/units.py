"""Units and commanders of Bloodybacks 9.3 (Concepts and definitions).

Values only: quality, density, size, disruption points (DRPs), stamina losses, and the
commander's command quality, activity rating and constitution. Every change is a new value
made with ``attrs.evolve``; the helpers here keep the text's limits (at most 3 DRPs, density
never below 3).
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from smoothbore.core import InvalidValueError, NamedEnum, revised
from smoothbore.core.validate import at_least, in_range, maybe, one_of, refers_to, text


def FLAG(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:  # noqa: N802
    """attrs validator: a boolean, True or False (never a word such as 'no', nor 1 or 0)."""
    if type(value) is not bool:
        raise InvalidValueError(f"{type(instance).__name__}.{attribute.name}", value,
                                "true or false")


MAX_DISRUPTION = 3
MIN_DENSITY = 3
MAX_DENSITY = 8
STAMINA_STEP = 6  # "for every (full) 6 stamina losses"
MIN_CONSTITUTION = 1 - 12
"""The lowest constitution: a commander of 1 struck for a d12's 12 (Risk to commanders)."""

DENSITIES: tuple[tuple[str, int], ...] = (
    ("close order, 3 ranks", 8),
    ("close order, 2 ranks", 6),
    ("loose order, 2 ranks", 5),
    ("open order, 2 ranks; native mobs", 4),
    ("extended order, skirmish", 3),
    ("cavalry", 6),
    ("crews", 3),
)
"""The density table (Concepts and definitions: Density)."""


def size_in_figures(foot: int, mounted: int = 0) -> int:
    """Unit size: figures on foot count one, mounted figures two (Unit size)."""
    if foot < 0 or mounted < 0:
        raise InvalidValueError("figures", (foot, mounted), "0 or more of each")
    return foot + 2 * mounted


BRITISH = "british"
AMERICAN = "american"
SIDES = (BRITISH, AMERICAN)
"""Red cards activate the British and their allies (loyalists, Hessians...); black cards the
American rebels and theirs (French...). Bloodybacks 9.3, Sequence of Play: Activating
Commanders."""


class UnitType(NamedEnum):
    """The kinds of unit the text distinguishes (Shooting: Artillery; Movement)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    VERY_LIGHT_ARTILLERY = "very light artillery"
    LIGHT_ARTILLERY = "light artillery"
    FIELD_ARTILLERY = "field artillery"
    HEAVY_ARTILLERY = "heavy artillery"
    SIEGE_ARTILLERY = "siege artillery"
    AMUSETTE = "amusette"

    @property
    def is_artillery(self) -> bool:
        return self is not UnitType.INFANTRY and self is not UnitType.CAVALRY


class Formation(NamedEnum):
    """Formations that change movement or shooting.

    Infantry and cavalry are DEPLOYED (any battle formation) or in COLUMN (the text's column,
    also its "column of march" for shooting); artillery is LIMBERED or UNLIMBERED.
    """

    DEPLOYED = "deployed"
    COLUMN = "column"
    LIMBERED = "limbered"
    UNLIMBERED = "unlimbered"


class Weapon(NamedEnum):
    """Small arms of a unit (Shooting: Musketry); artillery shoots by its type."""

    MUSKET = "musket"
    RIFLE = "rifle"
    CARBINE = "carbine"
    CANNON = "cannon"
    NONE = "none"


class Troops(NamedEnum):
    """Troop class, used only for the cold steel ability (Charges and melee: Determine
    impetus): ``REGULAR`` is British or European regular infantry (Hessians, French...),
    ``CONTINENTAL`` the Continental line; ``OTHER`` (the default) is any troops not said."""

    REGULAR = "regular"
    CONTINENTAL = "continental"
    MILITIA = "militia"
    LOYALIST = "loyalist"
    INDIAN = "indian"
    OTHER = "other"


def _formation_fits(
    instance: Unit, attribute: attrs.Attribute[Formation], value: Formation
) -> None:
    artillery_formations = (Formation.LIMBERED, Formation.UNLIMBERED)
    if instance.kind.is_artillery != (value in artillery_formations):
        allowed = "limbered, unlimbered" if instance.kind.is_artillery else "deployed, column"
        raise InvalidValueError("formation", value, allowed)


def _woods_quality(
    instance: Unit, attribute: attrs.Attribute[int | None], value: int | None
) -> None:
    if value is not None and not 1 <= value <= 5:
        raise InvalidValueError("woods_quality", value, "None or 1..5")


def _weapon_by_kind(unit: Unit) -> Weapon:
    """The weapon a unit carries unless said: horsemen the carbine, guns their cannon, foot
    the musket (Shooting: Musketry; B64)."""
    if unit.kind is UnitType.CAVALRY:
        return Weapon.CARBINE
    if unit.kind.is_artillery:
        return Weapon.CANNON
    return Weapon.MUSKET


def _bayonets_by_weapon(unit: Unit) -> bool:
    return unit.weapon is not Weapon.RIFLE


def _density_of_bases(unit: Unit) -> int:
    return unit.density


def _closes_up_to(instance: Unit, attribute: attrs.Attribute[int], value: int) -> None:
    if not instance.density <= value <= MAX_DENSITY:
        raise InvalidValueError(
            "based_density", value, f"the unit's density ({instance.density}) to {MAX_DENSITY}"
        )


@attrs.frozen(cache_hash=True)
class Unit:
    """A Bloodybacks unit.

    ``size`` is the number of figures (mounted figures count two); for artillery it is the
    models that fight in melee, and ``sections`` is the number of guns (each with a nominal
    shooting size). ``woods_quality`` is the quality in woods of units (indians) rated
    differently there. ``based_density`` is the density its figures are based at (by default
    its density when made): separating the bases lowers the density, closing them up again
    returns it at most to this. ``weapon`` defaults by kind: the carbine for cavalry, the
    cannon for artillery, the musket for infantry (B64). ``troops`` defaults to
    ``Troops.OTHER`` (no cold steel unless said); ``bayonets`` defaults to true except for
    riflemen, who carried none. ``cold_steel`` is derived from type, troops, quality,
    bayonets and stamina.
    """

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=one_of(*SIDES))
    kind: UnitType = attrs.field(default=UnitType.INFANTRY, validator=one_of(*UnitType))
    quality: int = attrs.field(default=3, validator=in_range(1, 5))
    density: int = attrs.field(default=6, validator=in_range(MIN_DENSITY, MAX_DENSITY))
    size: int = attrs.field(default=20, validator=at_least(1))
    formation: Formation = attrs.field(default=Formation.DEPLOYED, validator=_formation_fits)
    weapon: Weapon = attrs.field(default=attrs.Factory(_weapon_by_kind, takes_self=True),
                                 validator=one_of(*Weapon))
    disruption: int = attrs.field(default=0, validator=in_range(0, MAX_DISRUPTION))
    stamina_losses: int = attrs.field(default=0, validator=at_least(0))
    troops: Troops = attrs.field(default=Troops.OTHER, validator=one_of(*Troops))
    heavy_cavalry: bool = attrs.field(default=False, validator=FLAG)
    bayonets: bool = attrs.field(
        default=attrs.Factory(_bayonets_by_weapon, takes_self=True), validator=FLAG)
    brigade: str = attrs.field(default="", validator=text(empty=True))
    sections: int = attrs.field(default=1, validator=at_least(1))
    routing: bool = attrs.field(default=False, validator=FLAG)
    destroyed: bool = attrs.field(default=False, validator=FLAG)
    woods_quality: int | None = attrs.field(default=None, validator=_woods_quality)
    based_density: int = attrs.field(
        default=attrs.Factory(_density_of_bases, takes_self=True), validator=_closes_up_to
    )

    def quality_in(self, in_woods: bool = False) -> int:
        """Quality in the current terrain (indians may differ in woods). Quality."""
        if in_woods and self.woods_quality is not None:
            return self.woods_quality
        return self.quality

    @property
    def is_artillery(self) -> bool:
        return self.kind.is_artillery

    @property
    def is_infantry(self) -> bool:
        return self.kind is UnitType.INFANTRY

    @property
    def is_cavalry(self) -> bool:
        return self.kind is UnitType.CAVALRY

    @property
    def stamina_steps(self) -> int:
        """Number of full 6s of stamina losses (each worsens tests and activation)."""
        return self.stamina_losses // STAMINA_STEP

    @property
    def cold_steel(self) -> bool:
        """The cold steel ability: British or European regular infantry, Continental infantry
        of quality 4+, cavalry of quality 3+; lost at 6 or more stamina losses. Infantry
        without bayonets has none (interpretation B50)."""
        if self.stamina_losses >= STAMINA_STEP:
            return False
        if self.is_cavalry:
            return self.quality >= 3
        if self.is_infantry and self.bayonets:
            return self.troops is Troops.REGULAR or (
                self.troops is Troops.CONTINENTAL and self.quality >= 4
            )
        return False

    @property
    def gone(self) -> bool:
        """Destroyed or routing: the unit takes no action (a routing unit only re-tests)."""
        return self.destroyed or self.routing

    def __str__(self) -> str:
        flags = []
        if self.routing:
            flags.append("routing")
        if self.destroyed:
            flags.append("destroyed")
        extra = f" [{', '.join(flags)}]" if flags else ""
        return (
            f"{self.name} (Q{self.quality} D{self.density} size {self.size}, "
            f"{self.disruption} DRP, {self.stamina_losses} stamina){extra}"
        )


def add_disruption(unit: Unit, points: int) -> Unit:
    """Add DRPs, never beyond 3 (Disruption points)."""
    if points < 0:
        raise InvalidValueError("points", points, "0 or more")
    return revised(unit, disruption=min(MAX_DISRUPTION, unit.disruption + points))


def remove_disruption(unit: Unit, points: int = 1) -> Unit:
    """Remove DRPs (a rally action removes one), never below 0 (Rally)."""
    if points < 0:
        raise InvalidValueError("points", points, "0 or more")
    return revised(unit, disruption=max(0, unit.disruption - points))


def take_shooting_hits(unit: Unit, hits: int) -> Unit:
    """Shooting hits become DRPs up to 3, the rest stamina losses (Shooting)."""
    if hits < 0:
        raise InvalidValueError("hits", hits, "0 or more")
    to_drp = min(hits, MAX_DISRUPTION - unit.disruption)
    return revised(
        unit,
        disruption=unit.disruption + to_drp,
        stamina_losses=unit.stamina_losses + hits - to_drp,
    )


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def take_melee_losses(unit: Unit, losses: int) -> Unit:
    """Each melee loss is one stamina loss and one DRP (DRPs to at most 3) (Resolve melee)."""
    if losses < 0:
        raise InvalidValueError("losses", losses, "0 or more")
    return revised(
        unit,
        disruption=min(MAX_DISRUPTION, unit.disruption + losses),
        stamina_losses=unit.stamina_losses + losses,
    )


def with_density(unit: Unit, density: int) -> Unit:
    """Change density by separating the bases or closing them up again: never below 3, nor
    above the density the unit is based at (Density)."""
    if not MIN_DENSITY <= density <= unit.based_density:
        raise InvalidValueError("density", density, f"{MIN_DENSITY}..{unit.based_density}")
    return revised(unit, density=density)


def reduce_density(unit: Unit, by: int) -> Unit:
    """Spread out by ``by`` steps; density stops at 3 (Density: never lower than 3)."""
    if by < 0:
        raise InvalidValueError("by", by, "0 or more")
    return revised(unit, density=max(MIN_DENSITY, unit.density - by))


@attrs.frozen
class Commander:
    """A commander: command quality (CQ 1-5), activity rating (AR 2-5), constitution (9 by
    default), the unit he is attached to (or None), his brigade, and whether he is the
    commander-in-chief. ``removed`` marks a commander struck down (killed and not replaced).
    """

    id: str = attrs.field(validator=text())
    name: str = attrs.field(validator=text(empty=True))
    side: str = attrs.field(validator=one_of(*SIDES))
    command_quality: int = attrs.field(default=3, validator=in_range(1, 5))
    activity_rating: int = attrs.field(default=3, validator=in_range(2, 5))
    constitution: int = attrs.field(default=9, validator=in_range(MIN_CONSTITUTION, 99))
    attached_to: str | None = attrs.field(
        default=None, validator=maybe(text()), metadata=refers_to("units")
    )
    brigade: str = attrs.field(default="", validator=text(empty=True))
    cinc: bool = attrs.field(default=False, validator=FLAG)
    removed: bool = attrs.field(default=False, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        if self.constitution < 1 and not self.removed:
            raise InvalidValueError(
                "constitution", self.constitution, "1 or more for a commander not removed"
            )

    def __str__(self) -> str:
        where = f", attached to {self.attached_to}" if self.attached_to else ""
        gone = " [removed]" if self.removed else ""
        return (
            f"{self.name} (CQ{self.command_quality} AR{self.activity_rating} "
            f"constitution {self.constitution}{where}){gone}"
        )
