"""Shooting: shots by formation and type, arcs and ranges, the to-hit roll and its
modifiers, pins and enfilade, the to-wound roll with exceptional damage that kills a colonel,
cannon damage, removing bases and the morale test on losing one (Shooting; Ranges;
Enfilading Fire)."""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core import (
    D6,
    Dice,
    Distribution,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    PoolCheck,
    TotalCheck,
)
from smoothbore.core.checks import draw_samples
from smoothbore.core.validate import in_range, one_of

from .morale import NO_COMMAND, Command, morale_test
from .options import DEFAULT_OPTIONS, BeyondSix, CannonDamage, Options, WoundBy
from .rules import (
    RULE_CANNON,
    RULE_EXCEPTIONAL,
    RULE_TO_HIT,
    RULE_TO_WOUND,
)
from .units import (
    FLAG,
    POINT_BLANK,
    Experience,
    Formation,
    Unit,
    UnitType,
    casualties_after,
    more_pins,
    revise,
)

BASIC_TO_HIT = 3
CLOSE_RANGE = 6
LONGEST_RANGE = 60


class Cover(NamedEnum):
    """The target's cover (Ranges: to hit modifiers)."""

    NONE = "none"
    SOFT = "soft"
    HARD = "hard"


COVER_PENALTY = {Cover.NONE: 0, Cover.SOFT: 1, Cover.HARD: 2}


@attrs.frozen(cache_hash=True)
class ShotFacts:
    """What the players measure for one shooting attack: the range in inches, the target's
    cover, whether the fire enfilades it, and whether it is in the firer's 45° front arc."""

    distance: int = attrs.field(default=12, validator=in_range(0, LONGEST_RANGE))
    cover: Cover = attrs.field(default=Cover.NONE, validator=one_of(*Cover))
    enfilade: bool = attrs.field(default=False, validator=FLAG)
    in_arc: bool = attrs.field(default=True, validator=FLAG)


@attrs.frozen
class Firing:
    """How the firer came to fire this turn: on the move (fire and advance), after its charge
    failed, after passing through a friendly unit (Ranges: to hit modifiers)."""

    moving: bool = attrs.field(default=False, validator=FLAG)
    after_failed_charge: bool = attrs.field(default=False, validator=FLAG)
    interpenetrated: bool = attrs.field(default=False, validator=FLAG)


STANDING = Firing()


def shots(unit: Unit) -> int:
    """Shots the unit fires (Shooting): infantry 2 per base in line (all in the front rank),
    only the front base in column; skirmishers 1 per base; mounted cavalry 1 per 2 figures
    (in column only its front base); dismounted cavalry 1 per base less the base holding the
    horses (A3); an unlimbered cannon 1 per base; limbered guns and wagons none."""
    if unit.bases == 0 or unit.weapon.max_range == 0:
        return 0
    kind, formation = unit.kind, unit.formation
    if kind is _INFANTRY:
        return 2 * (unit.bases if formation is _LINE else 1)
    if kind is _SKIRMISHERS:
        return unit.bases
    if kind is _CAVALRY:
        if not unit.mounted:
            return max(0, unit.bases - 1)
        return unit.figures // 2 if formation is _LINE else 1
    return unit.bases if kind is _ARTILLERY and formation is _UNLIMBERED else 0


_INFANTRY, _SKIRMISHERS, _CAVALRY, _ARTILLERY = (
    UnitType.INFANTRY, UnitType.SKIRMISHERS, UnitType.CAVALRY, UnitType.ARTILLERY)
_LINE, _UNLIMBERED = Formation.LINE, Formation.UNLIMBERED
"""Enum members read once (read off their class they cost about ten times a module name)."""


def fire_problem(firer: Unit, target: Unit, facts: ShotFacts) -> str:
    """Why ``firer`` may not shoot ``target`` with these facts ("" if it may): weapon, range,
    arc (Shooting; Ranges). Nothing about the target itself forbids a shot."""
    if shots(firer) == 0:
        return f"{firer.name} has no shot ({firer.kind}, {firer.formation})"
    if facts.distance > firer.weapon.max_range:
        return (f"{facts.distance}\" is beyond the {firer.weapon}'s range of "
                f"{firer.weapon.max_range}\"")
    if not facts.in_arc and not firer.skirmishing:
        return "only skirmishers fire outside the 45° front arc"
    return ""


def hit_need(firer: Unit, target: Unit, facts: ShotFacts, firing: Firing = STANDING) -> int:
    """The score each shot needs, as a number: the sum ``to_hit`` explains term by term
    (Ranges: to hit modifiers). The shooting hot path uses this; reports use ``to_hit``."""
    need = BASIC_TO_HIT + firer.pins + COVER_PENALTY[facts.cover]
    if facts.distance <= CLOSE_RANGE:
        need -= 1
    if 2 * facts.distance > firer.weapon.max_range:
        need += 1
    if firer.experience is Experience.INEXPERIENCED:
        need += 1
    if firer.mounted:
        need += 1
    if firer.kind is UnitType.ARTILLERY and firer.casualties > 0:
        need += 1
    if target.down:
        need += 1
    if target.small:
        need += 1
    return need + firing.moving + firing.after_failed_charge + firing.interpenetrated


def to_hit(firer: Unit, target: Unit, facts: ShotFacts, firing: Firing = STANDING) -> Modified:
    """The score each shot needs: basic 3+, with every modifier of the text turned into a
    change of the need (a +1 to the roll is -1 to the need) (Ranges: to hit modifiers)."""
    rule = RULE_TO_HIT
    reach = firer.weapon.max_range
    cover = COVER_PENALTY[facts.cover]
    return Modified(BASIC_TO_HIT, "basic to hit", rule).plus(
        Modifier("shooting at 6\" or less", -1 if facts.distance <= CLOSE_RANGE else 0, rule),
        Modifier(f"{firer.pins} pins on the shooter", firer.pins, rule),
        Modifier("more than half range", 1 if 2 * facts.distance > reach else 0, rule),
        Modifier("inexperienced shooters",
                 int(firer.experience is Experience.INEXPERIENCED), rule),
        Modifier("fire on the move", int(firing.moving), rule),
        Modifier("firer is mounted cavalry", int(firer.mounted), rule),
        Modifier("firing after a failed charge", int(firing.after_failed_charge), rule),
        Modifier("target is down", int(target.down), rule),
        Modifier("target is a small unit", int(target.small), rule),
        Modifier("artillery with casualties",
                 int(firer.kind is UnitType.ARTILLERY and firer.casualties > 0), rule),
        Modifier(f"target in {facts.cover} cover", cover, rule),
        Modifier("firer passed through a friendly unit", int(firing.interpenetrated), rule),
    )


@functools.lru_cache(maxsize=1024)
def hit_check(count: int, need: int) -> PoolCheck:
    """``count`` d6 hitting on ``need``+; a natural 1 always misses (A1)."""
    return PoolCheck(count, max(2, need), D6, at_or_under=False, auto_fail=frozenset({1}))


def roll_hits(count: int, need: int, *, dice: Dice, options: Options = DEFAULT_OPTIONS,
              reason: str = "to hit", rule: str = RULE_TO_HIT) -> int:
    """Hits from ``count`` shots needing ``need``: above 6, by default a 6 then a second
    roll of 4+ (7), 5+ (8) or 6 (9), and no hit from 10 (A1)."""
    if count == 0:
        return 0
    if need <= 6:
        return dice.roll(hit_check(count, need), reason=f"{reason}, {need}+", rule=rule)
    if options.beyond_six is BeyondSix.NO_HIT or (
        options.beyond_six is BeyondSix.SECOND_ROLL and need > 9
    ):
        return 0
    sixes = dice.roll(hit_check(count, 6), reason=f"{reason}, {need}+: 6s first", rule=rule)
    if options.beyond_six is BeyondSix.NATURAL_SIX or sixes == 0:
        return sixes
    return dice.roll(hit_check(sixes, need - 3), reason=f"{reason}, {need}+: then {need - 3}+",
                     rule=rule)


@attrs.frozen(cache_hash=True)
class WoundCheck:
    """``count`` d6 rolled to wound on ``need``+: the outcome is (wounds, sixes), the 6s
    being the potential for exceptional damage (Enfilading Fire)."""

    count: int
    need: int

    def __attrs_post_init__(self) -> None:
        if self.count < 0 or not 2 <= self.need <= 6:
            raise InvalidValueError("WoundCheck", (self.count, self.need),
                                    "a count of 0 or more and a need of 2 to 6")

    def distribution(self) -> Distribution[tuple[int, int]]:
        """(wounds, sixes): the multinomial of sixes, other wounding faces and misses."""
        return _wound_distribution(self.count, self.need)

    def draw(self, pick: Any) -> tuple[tuple[int, int], tuple[int, ...]]:
        """One roll: each die a face of 1 to 6."""
        faces = tuple(1 + pick(6) for _ in range(self.count))
        return (sum(f >= self.need for f in faces), faces.count(6)), faces

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        """``size`` outcomes, rolled die by die."""
        return draw_samples(self, rng, size)

    def describe(self) -> str:
        """``4d6 at or over 4, 6s counted``."""
        return f"{self.count}d6 at or over {self.need}, 6s counted"

    def __str__(self) -> str:
        return self.describe()


@functools.lru_cache(maxsize=1024)
def _wound_distribution(count: int, need: int) -> Distribution[tuple[int, int]]:
    weights: dict[tuple[int, int], int] = {}
    others = 6 - need  # wounding faces other than 6
    misses = need - 1
    for sixes in range(count + 1):
        for wounds in range(count - sixes + 1):
            rest = count - sixes - wounds
            ways = math.comb(count, sixes) * math.comb(count - sixes, wounds)
            weight = ways * others**wounds * misses**rest
            if weight:
                key = (sixes + wounds, sixes)
                weights[key] = weights.get(key, 0) + weight
    return Distribution.from_weights(weights)


@functools.lru_cache(maxsize=1024)
def wound_check(count: int, need: int) -> WoundCheck:
    """``count`` dice to wound on ``need``+, 6s counted (a value, made once)."""
    return WoundCheck(count, need)


@functools.lru_cache(maxsize=1024)
def plain_wound_check(count: int, need: int) -> PoolCheck:
    """``count`` dice at ``need``+ with no 6s to count: no colonel to kill, or the reroll of
    the 6s."""
    return PoolCheck(count, need, D6, at_or_under=False)


def wound_need(firer: Unit, target: Unit, options: Options = DEFAULT_OPTIONS) -> int:
    """The score to wound: 3+ inexperienced, 4+ regular, 5+ veteran, read from the target
    (default) or the shooter (A2) (Enfilading Fire)."""
    troops = target if options.wound_by is WoundBy.TARGET else firer
    return troops.experience.to_wound


def roll_wounds(hits: int, need: int, target: Unit, *, dice: Dice,
                rule: str = RULE_TO_WOUND) -> tuple[int, bool]:
    """(wounds, colonel killed): roll to wound each hit; if any is a 6 and the unit has its
    colonel, reroll the 6s and a 6 among them kills him (Enfilading Fire)."""
    if hits == 0:
        return 0, False
    if not target.colonel:
        wounds = dice.roll(plain_wound_check(hits, need), reason=f"to wound {target.name}",
                           rule=rule)
        return wounds, False
    wounds, sixes = dice.roll(wound_check(hits, need), reason=f"to wound {target.name}",
                              rule=rule)
    if not sixes:
        return wounds, False
    again = dice.roll(plain_wound_check(sixes, 6), reason="exceptional damage: 6s rerolled",
                      rule=RULE_EXCEPTIONAL)
    return wounds, again > 0


@functools.lru_cache(maxsize=256)
def cannon_check(hits: int, point_blank: bool) -> TotalCheck:
    """Cannon damage: 1D6 per hit, 2D6 at point blank range (12") (Ranges)."""
    return TotalCheck.of(hits * (2 if point_blank else 1), D6)


@attrs.frozen
class ShotResult:
    """What one shooting attack did."""

    shots: int
    need: int
    hits: int
    wounds: int
    pins: int
    bases_lost: int
    colonel_killed: bool
    morale: str = ""
    """"" (no test), "passed" or "routs"."""
    destroyed: bool = False

    def __str__(self) -> str:
        text = (f"{self.shots} shots at {self.need}+: {self.hits} hits, {self.wounds} "
                f"casualties, {self.pins} pins, {self.bases_lost} bases lost")
        if self.colonel_killed:
            text += ", colonel killed"
        if self.destroyed:
            text += ", destroyed"
        if self.morale:
            text += f", morale test {self.morale}"
        return text


def shoot(
    firer: Unit,
    target: Unit,
    facts: ShotFacts = ShotFacts(),
    firing: Firing = STANDING,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
    command: Command = NO_COMMAND,
    routing_friends: int = 0,
) -> tuple[ShotResult, Unit]:
    """One shooting attack and the target after it: roll to hit; a hit pins the target
    (enfilade another pin); roll to wound (cannon: damage per hit); remove a base per 4
    casualties; a unit that lost a base takes a morale test, and routs if it fails
    (Shooting; Ranges; Enfilading Fire; Morale Test)."""
    count = shots(firer)
    need = hit_need(firer, target, facts, firing)
    hits = roll_hits(count, need, dice=dice, options=options, reason=f"{firer.name} fires")
    if hits == 0:
        return ShotResult(count, need, 0, 0, 0, 0, False), target
    pins = 1 + int(facts.enfilade)
    killed = False
    if firer.weapon.cannon:
        damage = dice.roll(cannon_check(hits, facts.distance <= POINT_BLANK),
                           reason="cannon damage", rule=RULE_CANNON)
        if options.cannon_damage is CannonDamage.HITS:
            wounds, killed = roll_wounds(damage, wound_need(firer, target, options), target,
                                         dice=dice)
        else:
            wounds = damage
    else:
        wounds, killed = roll_wounds(hits, wound_need(firer, target, options), target,
                                     dice=dice)
    bases, marked, lost = casualties_after(target.bases, target.casualties, wounds)
    after = revise(target, pins=more_pins(target.pins, pins), bases=bases, casualties=marked,
                   colonel=target.colonel and not killed)
    morale = ""
    if lost and bases:
        held = morale_test(after, command, routing_friends, dice=dice, options=options,
                           reason=f"{after.name} lost a base: morale test")
        morale = "passed" if held else "routs"
        if not held:
            after = revise(after, routing=True, down=False)
    result = ShotResult(count, need, hits, wounds, pins, lost, killed, morale, not bases)
    return result, after
