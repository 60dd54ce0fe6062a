"""Rules - Charging: charge reach, testing charged units, counter-charges, rout and surrender."""

from __future__ import annotations

import attrs

from smoothbore.core import (
    D6,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    TotalCheck,
)
from smoothbore.core.stages import Done, Staged
from smoothbore.core.validate import one_of

from . import rules
from .melee import Effect, Fighter, Melee, MeleeOutcome, resolve_melee
from .morale import basic_morale
from .options import DEFAULT_OPTIONS, Options
from .units import FLAG, Arm, TroopType, Unit


class Face(NamedEnum):
    """Which face of a unit is contacted."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


def charge_reach(unit: Unit) -> float:
    """3" for infantry, 6" for cavalry (Rules - Charging)."""
    return 6.0 if unit.troop.is_cavalry else 3.0


def can_charge(unit: Unit) -> bool:
    """Unshaken infantry or cavalry on the table may charge."""
    return (
        unit.on_table
        and not unit.shaken
        and not unit.routing
        and (unit.troop.is_foot or unit.troop.is_cavalry)
    )


def check_charge(
    charger: Unit, target: Unit, distance: float, in_front: bool, action: object = None
) -> None:
    """A charge is legal for unshaken infantry or cavalry against an enemy directly to its
    front within charge reach."""
    if not can_charge(charger):
        raise IllegalActionError(
            action,
            f"{charger.name} cannot charge (unshaken infantry or cavalry only)",
            rules.CHARGING,
        )
    if charger.side == target.side or not target.on_table:
        raise IllegalActionError(
            action, "the target must be an enemy unit on the table", rules.CHARGING
        )
    if not in_front:
        raise IllegalActionError(
            action, "the target must be directly to the charger's front", rules.CHARGING
        )
    if distance > charge_reach(charger) or distance < 0:
        raise IllegalActionError(
            action, f'{distance}" is beyond charge reach ({charge_reach(charger)}")', rules.CHARGING
        )


def is_close_order(unit: Unit, options: Options) -> bool:
    """Close order foot, and cavalry when the FAQ (1) 4 reading is on (the default)."""
    if unit.arm is Arm.CLOSE_ORDER_FOOT:
        return True
    return unit.troop.is_cavalry and options.cavalry_close_order


@attrs.frozen
class ChargeFacts:
    """What a player sees of the charged unit's position."""

    face: Face = attrs.field(default=Face.FRONT, validator=one_of(*Face))
    behind_obstacle: bool = attrs.field(default=False, validator=FLAG)
    in_building: bool = attrs.field(default=False, validator=FLAG)
    in_fortification: bool = attrs.field(default=False, validator=FLAG)

    def __attrs_post_init__(self) -> None:
        if self.in_building and self.face is not Face.FRONT:
            raise InvalidValueError(
                "ChargeFacts.face",
                self.face.value,
                "front: units in buildings have no flank or rear",
            )

    @property
    def protected(self) -> bool:
        """Units behind obstacles, in buildings or fortifications never counter-charge."""
        return self.behind_obstacle or self.in_building or self.in_fortification


def charged_test_score(
    target: Unit,
    chargers: tuple[Unit, ...],
    facts: ChargeFacts = ChargeFacts(),
    options: Options = DEFAULT_OPTIONS,
) -> Modified:
    """What is added to the charged unit's 1d6 (Rules - Charging: Testing charged units)."""
    r = rules.CHARGED_TEST
    mods: list[Modifier] = []
    any_cavalry = any(c.troop.is_cavalry for c in chargers)
    pikes_variant = options.variant.pikes
    target_pikes = pikes_variant and target.troop is TroopType.PIKEMEN
    if not target.troop.is_cavalry and any_cavalry:
        if target_pikes:
            pass  # Ireland 1798: pikes do not fear cavalry
        else:
            mods.append(Modifier("non-cavalry charged by cavalry", 2, r))
    if target.arm in (Arm.OPEN_ORDER_FOOT, Arm.ARTILLERY) and any(
        is_close_order(c, options) for c in chargers
    ):
        mods.append(Modifier("open order infantry or artillery charged by close order", 2, r))
    if facts.face is Face.REAR:
        mods.append(Modifier("charged in the rear", 2, r))
    elif facts.face is Face.FLANK:
        mods.append(Modifier("charged in the flank", 1, r))
    if target.shaken:
        mods.append(Modifier("shaken", 1, r))
    if facts.behind_obstacle or facts.in_building:
        mods.append(Modifier("behind an obstacle or in a building", -2, r))
    if target.troop.is_cavalry and chargers and not any_cavalry:
        if pikes_variant and any(c.troop is TroopType.PIKEMEN for c in chargers):
            pass  # Ireland 1798: cavalry are concerned if charged by pikemen
        else:
            mods.append(Modifier("cavalry only charged by non-cavalry", -2, r))
    if (
        is_close_order(target, options)
        and chargers
        and all(c.arm in (Arm.OPEN_ORDER_FOOT, Arm.ARTILLERY) for c in chargers)
    ):
        mods.append(Modifier("close order only charged by open order infantry or artillery", -2, r))
    if facts.in_fortification:
        mods.append(Modifier("in a fortification", -3, r))
    if options.variant.hordes and target.troop.is_foot:
        highlanders = [c for c in chargers if c.troop is TroopType.HIGHLANDERS]
        if any(c.highland_charge for c in highlanders):
            mods.append(Modifier("charged by a Highland charge", 2, rules.FORTY_FIVE))
        elif highlanders:
            mods.append(Modifier("charged by highlanders", 1, rules.FORTY_FIVE))
    return Modified(0, "1d6", r).plus(*mods)


class ChargedResult(NamedEnum):
    """What the charged unit does."""

    STANDS = "stands"
    COUNTER_CHARGE = "may counter-charge"
    ROUTS = "routs (-1 SP)"
    ROUTS_SURRENDERS = "routs and surrenders"
    SURRENDERS = "surrenders"


def can_counter_charge(target: Unit, facts: ChargeFacts) -> bool:
    """Only infantry or cavalry outside obstacles, buildings and fortifications counter-charge."""
    return (
        not facts.protected
        and not target.routing
        and (target.troop.is_foot or target.troop.is_cavalry)
    )


def charged_result(total: int, target: Unit, facts: ChargeFacts) -> ChargedResult:
    """The modified score at or above basic morale routs (losing 1 SP); below zero the unit
    may counter-charge; otherwise it stands."""
    if total >= basic_morale(target).total:
        return ChargedResult.ROUTS
    if total < 0 and can_counter_charge(target, facts):
        return ChargedResult.COUNTER_CHARGE
    return ChargedResult.STANDS


def surrender_need(unit: Unit) -> int:
    """1d6 score that makes a unit surrender: 4+ for foot (and gun crews), 5+ mounted."""
    return 5 if unit.troop.is_mounted else 4


def test_surrender(unit: Unit, *, dice: Dice, why: str = "") -> bool:
    """Rules - Charging: Surrender. True when the unit surrenders and is removed."""
    total = dice.roll(
        TotalCheck.of(1, D6),
        reason=f"{unit.name} surrender test{': ' + why if why else ''}",
        rule=rules.SURRENDER,
    )
    return total >= surrender_need(unit)


def test_charged(
    target: Unit,
    chargers: tuple[Unit, ...],
    facts: ChargeFacts = ChargeFacts(),
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> ChargedResult:
    """The charged unit's test. An already routing unit does not test: it may surrender, and
    otherwise routs on losing 1 SP. A unit charged in the rear that routs tests surrender."""
    if target.routing:
        if test_surrender(target, dice=dice, why="already routing and charged"):
            return ChargedResult.SURRENDERS
        return ChargedResult.ROUTS
    score = charged_test_score(target, chargers, facts, options)
    total = dice.roll(
        TotalCheck.of(1, D6, score.total), reason=f"{target.name} is charged", rule=score.rule
    )
    result = charged_result(total, target, facts)
    if (
        result is ChargedResult.ROUTS
        and facts.face is Face.REAR
        and test_surrender(target, dice=dice, why="charged in the rear and routed")
    ):
        return ChargedResult.ROUTS_SURRENDERS
    return result


# --- the charge from the charged test through the melee, as stages ------------------------
@attrs.frozen(order=False)
class ChargeToMelee:
    """How a charge ended: the charged test's result, whether the target counter-charged,
    the melee (None when the target routed or surrendered at the test) and whether a
    target routed in the rear surrendered."""

    charged: ChargedResult
    counter: bool = attrs.field(default=False, validator=FLAG)
    melee: MeleeOutcome | None = None
    surrendered: bool = attrs.field(default=False, validator=FLAG)

    def __str__(self) -> str:
        if self.melee is None:
            return f"target {self.charged.value} at the test"
        prefix = "counter-charge, " if self.counter else ""
        if not self.melee.loser:
            return f"{prefix}melee: {self.melee.effect.value}"
        text = f"{prefix}melee: {self.melee.affected} {self.melee.effect.value}"
        return text + (", surrenders" if self.surrendered else "")


@attrs.frozen
class _Charge:
    """The context of a charge to melee: the target, the chargers, the facts and choices."""

    target: Unit
    chargers: tuple[Unit, ...]
    facts: ChargeFacts
    options: Options
    over_obstacle: bool
    uphill: bool
    counter_charge: bool


def _begin_charge(
    target: Unit,
    chargers: tuple[Unit, ...],
    facts: ChargeFacts = ChargeFacts(),
    options: Options = DEFAULT_OPTIONS,
    over_obstacle: bool = False,
    uphill: bool = False,
    counter_charge: bool = True,
) -> tuple[_Charge, None]:
    return _Charge(target, chargers, facts, options, over_obstacle, uphill, counter_charge), None


def _charged_stage(
    charge: _Charge, _: None, *, dice: Dice
) -> ChargedResult | Done[ChargeToMelee]:
    """G: the charged unit tests; a rout or a surrender ends the charge there."""
    result = test_charged(charge.target, charge.chargers, charge.facts, dice=dice,
                          options=charge.options)
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS, ChargedResult.SURRENDERS):
        return Done(ChargeToMelee(result))
    return result


def _melee_stage(
    charge: _Charge, charged: ChargedResult, *, dice: Dice
) -> tuple[ChargedResult, bool, MeleeOutcome] | Done[ChargeToMelee]:
    """J: the melee, the target counter-charging where it may and will."""
    facts = charge.facts
    counter = charged is ChargedResult.COUNTER_CHARGE and charge.counter_charge
    attackers = tuple(
        Fighter(c, charging=True, over_obstacle=charge.over_obstacle, uphill=charge.uphill,
                charging_building=facts.in_building,
                charging_fortification=facts.in_fortification)
        for c in charge.chargers
    )
    defender = Fighter(charge.target, charging=counter, flank=facts.face is Face.FLANK,
                       rear=facts.face is Face.REAR)
    melee = Melee(attackers, (defender,), defender_behind_obstacle=facts.behind_obstacle)
    out = resolve_melee(melee, dice=dice, options=charge.options)
    if out.loser == "defenders" and out.effect is Effect.ROUT and facts.face is Face.REAR:
        return charged, counter, out
    return Done(ChargeToMelee(charged, counter, out))


def _surrender_stage(
    charge: _Charge, value: tuple[ChargedResult, bool, MeleeOutcome], *, dice: Dice
) -> ChargeToMelee:
    """A target routed by a melee in its rear tests surrender (Surrender)."""
    charged, counter, out = value
    surrendered = test_surrender(charge.target, dice=dice, why="charged in the rear and routed")
    return ChargeToMelee(charged, counter, out, surrendered)


def _charge_result(charge: _Charge, result: ChargeToMelee) -> ChargeToMelee:
    return result


charge_to_melee: Staged[ChargeToMelee] = Staged(
    "charge to melee", rules.CHARGING, _begin_charge,
    (_charged_stage, _melee_stage, _surrender_stage), _charge_result,
    doc="""A charge from the charged test through the melee (G-J), written once as stages:
    the charged test (a rout or surrender ends it), the melee with a counter-charge where
    the target may and will, and the surrender test of a target routed in its rear.
    ``charge_to_melee(target, chargers, facts, options, over_obstacle, uphill,
    counter_charge, dice=dice)`` plays it; ``odds(charge_to_melee, ...)`` composes it.""",
)
