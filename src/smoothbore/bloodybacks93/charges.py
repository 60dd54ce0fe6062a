"""Charges: evading, impetus, the cold steel ability and the check to stand (Bloodybacks 9.3,
Charges and melee: Evade; Determine impetus; Check to stand; Multiple unit melee)."""

from __future__ import annotations

import functools
from types import MappingProxyType

import attrs

from smoothbore.core import (
    AVERAGE_DIE,
    D12,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    PoolCheck,
    TotalCheck,
    revised,
)
from smoothbore.core.validate import each, one_of, refers_to, text

from .morale import TestKind, TestOutcome, apply_result, holds_ground, take_test
from .rules import RULE_CHARGES, RULE_EVADE, RULE_IMPETUS, RULE_MULTIPLE, RULE_PURSUIT
from .shooting import Cover, size_modifier
from .units import FLAG, Unit, add_disruption

IMPETUS_BASE = 4


class Contact(NamedEnum):
    """Which face of the target the charge contacts."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


CONTACT_DICE: MappingProxyType[Contact, int] = MappingProxyType(
    {Contact.FRONT: 0, Contact.FLANK: 2, Contact.REAR: 3}
)
"""Extra impetus dice for the face contacted."""


@attrs.frozen(cache_hash=True)
class ChargeFacts:
    """What the players see of one charge.

    ``cover`` is the defender's cover; ``behind_obstacle`` keeps a pushed-back defender in
    place; ``countercharged_by_cavalry`` applies to charging cavalry met by cavalry;
    ``use_cold_steel`` is the charger's choice when it has the ability.
    ``charger_commander_attached``: a commander, any, rides with the chargers (+1 impetus
    die); ``led``: the ids of the units, on either side, whose own commander or the CinC is
    attached to them (+1 to that unit's tests only; Morale: Modifiers, B43). In the turn both
    are read from the battle state.
    """

    contact: Contact = attrs.field(default=Contact.FRONT, validator=one_of(*Contact))
    uphill: bool = attrs.field(default=False, validator=FLAG)
    countercharged_by_cavalry: bool = attrs.field(default=False, validator=FLAG)
    cover: Cover = attrs.field(default=Cover.NONE, validator=one_of(*Cover))
    behind_obstacle: bool = attrs.field(default=False, validator=FLAG)
    charger_commander_attached: bool = attrs.field(default=False, validator=FLAG)
    led: frozenset[str] = attrs.field(
        default=frozenset(), validator=each(text()), metadata=refers_to("units")
    )
    use_cold_steel: bool = attrs.field(default=True, validator=FLAG)
    charger_in_woods: bool = attrs.field(default=False, validator=FLAG)
    defender_in_woods: bool = attrs.field(default=False, validator=FLAG)

    @property
    def defender_holds_works(self) -> bool:
        """Defenders in fortifications or behind an obstacle are not pushed back."""
        return self.cover is Cover.FORTIFICATIONS or self.behind_obstacle


def _check_sides(chargers: tuple[Unit, ...], defenders: tuple[Unit, ...]) -> None:
    if not chargers or not defenders:
        raise InvalidValueError("units", (len(chargers), len(defenders)),
                                "at least one charger and one defender")
    sides = {u.side for u in chargers}
    if len(sides) != 1 or sides & {u.side for u in defenders}:
        raise IllegalActionError("charge", "chargers must all be enemies of the defenders",
                                 RULE_CHARGES)


def uses_cold_steel(lead: Unit, facts: ChargeFacts) -> bool:
    """The lead charger fights with cold steel when able and willing (cold steel ability)."""
    return facts.use_cold_steel and lead.cold_steel


def impetus_dice(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts
) -> Modified:
    """Dice rolled for impetus: 4 d12 and every modifier (Determine impetus).

    The first charger is the one whose impetus is rolled; sizes are the combined sizes of all
    chargers and of all defenders (Multiple unit melee); DRPs are those of the first target.
    """
    _check_sides(chargers, defenders)
    lead, target = chargers[0], defenders[0]
    mods: list[Modifier] = []
    if target.disruption:
        mods.append(Modifier("target's DRPs", target.disruption, RULE_IMPETUS))
    if lead.disruption:
        mods.append(Modifier("charger's DRPs", -lead.disruption, RULE_IMPETUS))
    if facts.charger_commander_attached:
        mods.append(_COMMANDER_ATTACHED)
    if facts.contact is not Contact.FRONT:
        mods.append(Modifier(f"contact to the {facts.contact}", CONTACT_DICE[facts.contact],
                             RULE_IMPETUS))
    mine = sum(u.size for u in chargers)
    theirs = sum(u.size for u in defenders)
    steps = size_modifier(mine, theirs)
    if steps:
        label = "chargers larger" if steps > 0 else "defenders larger"
        rule = RULE_MULTIPLE if len(chargers) > 1 else RULE_IMPETUS
        mods.append(Modifier(f"{label} ({mine} v {theirs})", steps, rule))
    if facts.uphill:
        mods.append(_UPHILL)
    if uses_cold_steel(lead, facts):
        mods.append(_COLD_STEEL)
    if lead.is_cavalry:
        if lead.heavy_cavalry:
            mods.append(_HEAVY_CAVALRY)
        if facts.countercharged_by_cavalry:
            mods.append(_COUNTERCHARGED)
    return _IMPETUS_DICE.plus(*mods)


# the terms that never change, made once (every charge reads them)
_IMPETUS_DICE = Modified(IMPETUS_BASE, "base impetus dice", RULE_IMPETUS)
_COMMANDER_ATTACHED = Modifier("commander attached to chargers", 1, RULE_IMPETUS)
_UPHILL = Modifier("charging up a steep hill", -1, RULE_IMPETUS)
_COLD_STEEL = Modifier("cold steel", 1, RULE_IMPETUS)
_HEAVY_CAVALRY = Modifier("heavy cavalry", 1, RULE_IMPETUS)
_COUNTERCHARGED = Modifier("cavalry countercharged by cavalry", -3, RULE_IMPETUS)


def impetus_need(lead: Unit, facts: ChargeFacts) -> Modified:
    """Each impetus die succeeds at or under twice the charger's quality."""
    return Modified(2 * lead.quality_in(facts.charger_in_woods), "2 x charger quality",
                    RULE_IMPETUS)


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def impetus_check(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts
) -> PoolCheck:
    """The impetus roll as a check (never fewer than 0 dice)."""
    count = max(0, impetus_dice(chargers, defenders, facts).total)
    return PoolCheck(count, impetus_need(chargers[0], facts).total, D12)


def roll_impetus(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts, *, dice: Dice,
    check: PoolCheck | None = None,
) -> int:
    """The charge's impetus: the number of impetus dice that succeed (``check``: the
    impetus check, when the caller has it already)."""
    return dice.roll(
        check if check is not None else impetus_check(chargers, defenders, facts),
        reason=f"impetus of {chargers[0].name}",
        rule=RULE_IMPETUS,
    )


@attrs.frozen(cache_hash=True)
class Stand:
    """The defenders after the check to stand, with the tests taken (none when the impetus
    does not exceed their quality)."""

    defenders: tuple[Unit, ...]
    tests: tuple[TestOutcome | None, ...] = ()

    def standing(self, facts: ChargeFacts) -> tuple[bool, ...]:
        """Which defenders stand to fight (those that did not test, or held their ground)."""
        if not self.tests:
            return tuple(True for _ in self.defenders)
        return tuple(
            t is None
            or holds_ground(t.result, fortified_or_behind_obstacle=facts.defender_holds_works)
            for t in self.tests
        )


def must_check_to_stand(defender: Unit, impetus: int, facts: ChargeFacts) -> bool:
    """A defender tests cohesion when the impetus is greater than its quality."""
    return impetus > defender.quality_in(facts.defender_in_woods)


def check_to_stand(
    defenders: tuple[Unit, ...], impetus: int, facts: ChargeFacts, *, dice: Dice
) -> Stand:
    """Each defender facing more impetus than its quality takes a cohesion test (-1 per
    impetus point above its quality) and abides by the result (Check to stand)."""
    if not any(must_check_to_stand(d, impetus, facts) for d in defenders):
        return Stand(defenders)
    after: list[Unit] = []
    tests: list[TestOutcome | None] = []
    for unit in defenders:
        if not must_check_to_stand(unit, impetus, facts):
            after.append(unit)
            tests.append(None)
            continue
        test = take_test(
            unit, TestKind.COHESION, dice=dice, charger_impetus=impetus,
            commander_attached=unit.id in facts.led,
            in_woods=facts.defender_in_woods, reason=f"{unit.name} checks to stand",
        )
        tests.append(test)
        after.append(apply_result(unit, test.result,
                                  fortified_or_behind_obstacle=facts.defender_holds_works))
    return Stand(tuple(after), tuple(tests))


def may_evade(defender: Unit, charger: Unit, *, hard_cover: bool = False) -> bool:
    """Infantry of density 3 or 4 charged by infantry of density 5+ may evade, unless in hard
    cover or fortifications (Evade)."""
    return (
        defender.is_infantry
        and defender.density <= 4
        and charger.is_infantry
        and charger.density >= 5
        and not hard_cover
        and not defender.routing
        and not defender.destroyed
    )


def must_evade(defender: Unit, charger: Unit, *, in_open: bool, hard_cover: bool = False) -> bool:
    """Evading is compulsory for such units in the open (Evade)."""
    return in_open and may_evade(defender, charger, hard_cover=hard_cover)


@attrs.frozen
class Evade:
    """An evade: distance moved, whether the chargers caught it, the unit afterwards and its
    morale test (none when caught: it is destroyed)."""

    distance: int
    caught: bool
    unit: Unit
    morale: TestOutcome | None = None

    def __str__(self) -> str:
        if self.caught:
            return f'evades {self.distance}" but is caught and destroyed'
        return f'evades {self.distance}"; {self.morale}'


def evade_move(defender: Unit, *, dice: Dice) -> int:
    """The evade move: 2dAv + quality inches (Evade)."""
    return dice.roll(
        TotalCheck.of(2, AVERAGE_DIE, defender.quality),
        reason=f"evade move of {defender.name}", rule=RULE_EVADE,
    )


def evade(
    defender: Unit,
    charger: Unit,
    *,
    dice: Dice,
    charger_spare_move: float = 0.0,
    charger_continues: bool = True,
    hard_cover: bool = False,
    commander_attached: bool = False,
    moved: int | None = None,
    reached: bool | None = None,
) -> Evade:
    """Evade 2dAv + quality inches, take a DRP and a morale test; destroyed if the chargers
    continue far enough to contact it (``charger_spare_move`` is what the chargers could still
    move on reaching the defenders' old position) (Evade). On a table the caller rolls the
    move (``moved``, ``evade_move``), makes it, and says whether the chargers going on
    reach the evader where it ended (``reached``, which then decides the catch)."""
    if not may_evade(defender, charger, hard_cover=hard_cover):
        raise IllegalActionError(
            "evade", "only density 3-4 infantry charged by density 5+ infantry, out of hard "
            "cover, may evade", RULE_EVADE,
        )
    distance = evade_move(defender, dice=dice) if moved is None else moved
    if reached is None:
        reached = charger_spare_move >= distance
    if charger_continues and reached:
        return Evade(distance, True, revised(defender, destroyed=True))
    shaken = add_disruption(defender, 1)
    test = take_test(shaken, TestKind.MORALE, dice=dice, commander_attached=commander_attached,
                     reason=f"{defender.name} evaded")
    return Evade(distance, False, apply_result(shaken, test.result), test)


def pursuit_distance(unit: Unit, *, dice: Dice) -> int:
    """Pursuit move: infantry dAv + quality, cavalry dAv + d12 inches (Pursuit)."""
    if unit.is_cavalry:
        check = TotalCheck((AVERAGE_DIE, D12))
    elif unit.is_infantry:
        check = TotalCheck((AVERAGE_DIE,), unit.quality)
    else:
        raise IllegalActionError("pursue", "only infantry and cavalry pursue", RULE_PURSUIT)
    return dice.roll(check, reason=f"pursuit by {unit.name}", rule=RULE_PURSUIT)

