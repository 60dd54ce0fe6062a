"""Options where players differ, and the variants as data (see docs/interpretations/will_awi.md).
A battle's options live on ``state.options``."""

from __future__ import annotations

import attrs

from smoothbore.core import InvalidValueError, NamedEnum, in_range

from .units import FLAG


class CommandPost(NamedEnum):
    """Which Command & Control post to play: the March 2008 post replaces the January one."""

    MARCH_2008 = "march2008"
    JANUARY_2008 = "january2008"


class HighlanderFire(NamedEnum):
    """Battles of the '45: highlanders fire as muskets at -2, or cannot fire."""

    MINUS_TWO = "minus2"
    NONE = "none"


@attrs.frozen(cache_hash=True)
class Variant:
    """A variant as data: which narrow overrides are on (Ireland 1798, Battles of the '45)."""

    name: str
    pikes: bool = attrs.field(default=False, validator=FLAG)
    hordes: bool = attrs.field(default=False, validator=FLAG)
    slow_dragoons: bool = attrs.field(default=False, validator=FLAG)


BASE = Variant("base")
IRELAND_1798 = Variant("ireland1798", pikes=True)
FORTY_FIVE = Variant("fortyfive", hordes=True, slow_dragoons=True)
VARIANTS: tuple[Variant, ...] = (BASE, IRELAND_1798, FORTY_FIVE)


def variant_named(name: str) -> Variant:
    """The variant with this name: base, ireland1798 or fortyfive."""
    for v in VARIANTS:
        if v.name == name:
            return v
    raise InvalidValueError("variant", name, ", ".join(v.name for v in VARIANTS))


@attrs.frozen(cache_hash=True)
class Options:
    """Options; each default is the text's plainest reading or an FAQ ruling."""

    variant: Variant = BASE
    command_control: bool = attrs.field(default=False, validator=FLAG)
    command_post: CommandPost = CommandPost.MARCH_2008
    cinc_bonus: bool = attrs.field(default=False, validator=FLAG)
    independent_test_one_die: bool = attrs.field(default=False, validator=FLAG)
    cavalry_close_order: bool = attrs.field(default=True, validator=FLAG)
    militia_rout_in_open: bool = attrs.field(default=False, validator=FLAG)
    shaken_quality_modifiers: bool = attrs.field(default=False, validator=FLAG)
    shaken_recovers_on_carry_on: bool = attrs.field(default=True, validator=FLAG)
    morale_after_fire_loss: bool = attrs.field(default=True, validator=FLAG)
    road_bonus: bool = attrs.field(default=False, validator=FLAG)
    terrain_thirds: bool = attrs.field(default=True, validator=FLAG)
    grasshopper_deployed_move: int = attrs.field(default=21, validator=in_range(0, 21))
    column_bonus_attacking_only: bool = attrs.field(default=True, validator=FLAG)
    melee_obstacle_columns_swapped: bool = attrs.field(default=False, validator=FLAG)
    evade: bool = attrs.field(default=False, validator=FLAG)
    gun_facing_roll: bool = attrs.field(default=False, validator=FLAG)
    highlander_fire: HighlanderFire = HighlanderFire.MINUS_TWO
    second_charge_fire_if_unfired: bool = attrs.field(default=False, validator=FLAG)


DEFAULT_OPTIONS = Options()
