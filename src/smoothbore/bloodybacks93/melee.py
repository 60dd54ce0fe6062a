"""Melee, its losses and the cohesion tests that follow, and a whole charge from impetus to
the last cohesion test, played or as one exact distribution (Bloodybacks 9.3, Charges and
melee: Resolve melee)."""

from __future__ import annotations

import functools

import attrs

from smoothbore.core import D12, Dice, Distribution, Modified, Modifier, PoolCheck, odds

from .charges import (
    ChargeFacts,
    Stand,
    check_to_stand,
    impetus_check,
    roll_impetus,
    uses_cold_steel,
)
from .morale import TestKind, TestOutcome, TestResult, apply_result, holds_ground, take_test
from .options import DEFAULT_OPTIONS, Options
from .rules import RULE_EXPERIMENT, RULE_MELEE
from .units import NamedEnum, Unit, take_melee_losses

MELEE_DICE = 6
BASE_NEED = 3
FALL_BACK_INCHES = 3

def melee_dice(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> Modified:
    """Six d12, one more with cold steel; two fewer when cavalry is involved and the
    ``cavalry_experiment`` option is on."""
    count = Modified(MELEE_DICE, "melee dice", RULE_MELEE)
    mods: list[Modifier] = []
    if uses_cold_steel(chargers[0], facts):
        mods.append(Modifier("cold steel", 1, RULE_MELEE))
    if options.cavalry_experiment and any(u.is_cavalry for u in chargers + defenders):
        mods.append(Modifier("melee involving cavalry (experiment)", -2, RULE_EXPERIMENT))
    return count.plus(*mods)


def has_bayonets(unit: Unit) -> bool:
    """Only infantry carrying bayonets count as having them."""
    return unit.is_infantry and unit.bayonets


def melee_need(impetus: int, defenders: tuple[Unit, ...], facts: ChargeFacts) -> Modified:
    """Each melee die succeeds at or under 3, +1 per impetus success, +1 if the defender has
    no bayonets, less the defender's cover (1 light, 2 significant, 3 fortifications)."""
    need = Modified(BASE_NEED, "basic melee need", RULE_MELEE)
    mods: list[Modifier] = []
    if impetus:
        mods.append(Modifier("impetus successes", impetus, RULE_MELEE))
    if not has_bayonets(defenders[0]):
        mods.append(Modifier("defender has no bayonets", 1, RULE_MELEE))
    if facts.cover.value:
        mods.append(Modifier(f"defender in {facts.cover} cover", -facts.cover.value, RULE_MELEE))
    return need.plus(*mods)


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def melee_check(count: int, need: int) -> PoolCheck:
    """The charger's melee roll: 1s always succeed, 12s always fail."""
    return PoolCheck(max(0, count), need, D12, auto_pass=frozenset({1}),
                     auto_fail=frozenset({12}))


def roll_melee(count: int, need: int, *, dice: Dice) -> int:
    """Successes of the charger's melee roll; the rest of the dice are failures."""
    return dice.roll(melee_check(count, need), reason="melee", rule=RULE_MELEE)


@attrs.frozen(cache_hash=True)
class Aftermath:
    """Units after the post-melee cohesion tests, the tests taken (None: no test) and whether
    the chargers must fall back 3" because the two sides are still in contact."""

    chargers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    charger_tests: tuple[TestOutcome | None, ...]
    defender_tests: tuple[TestOutcome | None, ...]
    chargers_fall_back: bool


def _test_side(
    units: tuple[Unit, ...],
    lost_by: int,
    led: frozenset[str],
    impetus: int | None,
    holds_works: bool,
    in_woods: bool,
    dice: Dice,
) -> tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...], bool]:
    after: list[Unit] = []
    tests: list[TestOutcome | None] = []
    held = False
    for unit in units:
        if unit.destroyed or unit.routing:
            after.append(unit)
            tests.append(None)
            continue
        test = take_test(
            unit, TestKind.COHESION, dice=dice, lost_melee_by=lost_by,
            commander_attached=unit.id in led, charger_impetus=impetus, in_woods=in_woods,
            reason=f"{unit.name} tests cohesion after the melee",
        )
        tests.append(test)
        after.append(apply_result(unit, test.result, fortified_or_behind_obstacle=holds_works))
        held = held or holds_ground(test.result, fortified_or_behind_obstacle=holds_works)
    return tuple(after), tuple(tests), held


def cohesion_sequence(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    successes: int,
    failures: int,
    facts: ChargeFacts,
    defender_impetus: int | None,
    *,
    dice: Dice,
) -> Aftermath:
    """The cohesion tests after a melee: the loser tests (less the difference in losses); if
    it holds, the winner tests; a draw makes everyone test. Sides still in contact at the end
    part with the chargers falling back 3" (Resolve melee). Each unit's test gets +1 only when
    its own commander or the CinC is attached to it (``facts.led``; Morale: Modifiers)."""
    holds = facts.defender_holds_works

    def chargers_test(lost_by: int) -> tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...],
                                             bool]:
        return _test_side(chargers, lost_by, facts.led, None, False, facts.charger_in_woods,
                          dice)

    def defenders_test(lost_by: int) -> tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...],
                                              bool]:
        return _test_side(defenders, lost_by, facts.led, defender_impetus, holds,
                          facts.defender_in_woods, dice)

    none_c: tuple[TestOutcome | None, ...] = tuple(None for _ in chargers)
    none_d: tuple[TestOutcome | None, ...] = tuple(None for _ in defenders)
    if successes > failures:
        d_after, d_tests, d_held = defenders_test(successes - failures)
        c_after, c_tests, c_held = (
            chargers_test(0) if d_held else (chargers, none_c, True)
        )
    elif failures > successes:
        c_after, c_tests, c_held = chargers_test(failures - successes)
        d_after, d_tests, d_held = (
            defenders_test(0) if c_held else (defenders, none_d, True)
        )
    else:
        d_after, d_tests, d_held = defenders_test(0)
        c_after, c_tests, c_held = chargers_test(0)
    return Aftermath(c_after, d_after, c_tests, d_tests, c_held and d_held)


class Fate(NamedEnum):
    """Where a unit ends up after a charge."""

    HOLDS = "holds"
    FALLS_BACK = "falls back"
    ROUTS = "routs"
    DESTROYED = "destroyed"


def fate_of(unit: Unit, test: TestOutcome | None, holds_works: bool = False) -> Fate:
    """A unit's fate from its state and the last test it took."""
    if unit.destroyed:
        return Fate.DESTROYED
    if unit.routing:
        return Fate.ROUTS
    if test is not None and not holds_ground(test.result, fortified_or_behind_obstacle=holds_works):
        return Fate.FALLS_BACK
    return Fate.HOLDS


FATE_ORDER = (Fate.HOLDS, Fate.FALLS_BACK, Fate.ROUTS, Fate.DESTROYED)
"""Fates from best to worst."""


def worst(fates: tuple[Fate, ...]) -> Fate:
    """The worst fate of a side."""
    return max(fates, key=FATE_ORDER.index)


@attrs.frozen
class ChargeVerdict:
    """Short summary of a charge: who won the melee, and each side's worst fate."""

    winner: str
    charger: Fate
    defender: Fate

    def __str__(self) -> str:
        return f"{self.winner}; charger {self.charger}; defender {self.defender}"


@attrs.frozen(cache_hash=True)
class ChargeOutcome:
    """A whole charge: impetus, the check to stand, the melee roll and the cohesion tests,
    with every unit afterwards."""

    impetus: int
    stand: tuple[TestResult | None, ...]
    melee_dice: int
    melee_need: int
    successes: int
    failures: int
    charger_tests: tuple[TestResult | None, ...]
    defender_tests: tuple[TestResult | None, ...]
    chargers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    charger_fates: tuple[Fate, ...]
    defender_fates: tuple[Fate, ...]
    chargers_fall_back: bool

    @property
    def fought(self) -> bool:
        return self.melee_dice > 0

    @property
    def winner(self) -> str:
        if not self.fought:
            return "defenders did not stand"
        if self.successes > self.failures:
            return "chargers won the melee"
        if self.failures > self.successes:
            return "defenders won the melee"
        return "melee drawn"

    def verdict(self) -> ChargeVerdict:
        return ChargeVerdict(self.winner, worst(self.charger_fates), worst(self.defender_fates))

    def __str__(self) -> str:
        parts = [f"impetus {self.impetus}"]
        if any(r is not None for r in self.stand):
            parts.append("stand: " + ", ".join(str(r) for r in self.stand if r is not None))
        if self.fought:
            parts.append(f"melee {self.successes}-{self.failures} (need {self.melee_need})")
        parts.append(str(self.verdict()))
        if self.chargers_fall_back:
            parts.append(f'chargers fall back {FALL_BACK_INCHES}"')
        return "; ".join(parts)


def _results(tests: tuple[TestOutcome | None, ...]) -> tuple[TestResult | None, ...]:
    return tuple([None if t is None else t.result for t in tests])


@attrs.frozen(cache_hash=True)
class _Melee:
    """What the melee stage needs once the check to stand is known."""

    count: int
    need: int
    fighters: tuple[int, ...]


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def _melee_setup(
    chargers: tuple[Unit, ...], stand: Stand, impetus: int, facts: ChargeFacts,
    options: Options,
) -> _Melee | None:
    standing = stand.standing(facts)
    fighters = tuple(i for i, s in enumerate(standing) if s and not stand.defenders[i].destroyed)
    if not fighters:
        return None
    fighting = tuple(stand.defenders[i] for i in fighters)
    count = melee_dice(chargers, fighting, facts, options).total
    need = melee_need(impetus, fighting, facts).total
    return _Melee(max(0, count), need, fighters)


def _no_melee(chargers: tuple[Unit, ...], stand: Stand, impetus: int,
              facts: ChargeFacts) -> ChargeOutcome:
    holds = facts.defender_holds_works
    return ChargeOutcome(
        impetus, _results(stand.tests), 0, 0, 0, 0,
        tuple(None for _ in chargers), tuple(None for _ in stand.defenders),
        chargers, stand.defenders,
        tuple(Fate.HOLDS for _ in chargers),
        tuple(fate_of(u, t, holds) for u, t in
              zip(stand.defenders, stand.tests or (None,) * len(stand.defenders), strict=True)),
        False,
    )


def _losses(
    chargers: tuple[Unit, ...], stand: Stand, melee: _Melee, successes: int
) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    failures = melee.count - successes
    hit_chargers = tuple(take_melee_losses(u, failures) for u in chargers)
    hit_defenders = tuple(take_melee_losses(stand.defenders[i], successes) for i in melee.fighters)
    return hit_chargers, hit_defenders


def _assemble(
    stand: Stand, impetus: int, melee: _Melee, successes: int, after: Aftermath,
    facts: ChargeFacts,
) -> ChargeOutcome:
    holds = facts.defender_holds_works
    defenders = list(stand.defenders)
    tests: list[TestOutcome | None] = [None] * len(defenders)
    for slot, i in enumerate(melee.fighters):
        defenders[i] = after.defenders[slot]
        tests[i] = after.defender_tests[slot]
    stand_tests = stand.tests or (None,) * len(defenders)
    fates = tuple([
        fate_of(u, t if t is not None else s, holds)
        for u, t, s in zip(defenders, tests, stand_tests, strict=True)
    ])
    charger_fates = tuple([
        fate_of(u, t) for u, t in zip(after.chargers, after.charger_tests, strict=True)
    ])
    return ChargeOutcome(
        impetus, _results(stand.tests), melee.count, melee.need, successes,
        melee.count - successes, _results(after.charger_tests), _results(tuple(tests)),
        after.chargers, tuple(defenders), charger_fates, fates, after.chargers_fall_back,
    )


def _penalty(impetus: int, options: Options) -> int | None:
    return impetus if options.impetus_penalty_after_melee else None


def resolve_charge(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
) -> ChargeOutcome:
    """Resolve a charge that makes contact: impetus, the check to stand, the melee, losses on
    both sides and the cohesion tests (Charges and melee)."""
    impetus = roll_impetus(chargers, defenders, facts, dice=dice)
    stand = check_to_stand(defenders, impetus, facts, dice=dice)
    melee = _melee_setup(chargers, stand, impetus, facts, options)
    if melee is None:
        return _no_melee(chargers, stand, impetus, facts)
    successes = roll_melee(melee.count, melee.need, dice=dice)
    hit_chargers, hit_defenders = _losses(chargers, stand, melee, successes)
    after = cohesion_sequence(hit_chargers, hit_defenders, successes, melee.count - successes,
                              facts, _penalty(impetus, options), dice=dice)
    return _assemble(stand, impetus, melee, successes, after, facts)


def charge_distribution(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> Distribution[ChargeOutcome]:
    """The exact distribution of ``resolve_charge``, composed stage by stage."""

    def after_impetus(impetus: int) -> Distribution[ChargeOutcome]:
        def after_stand(stand: Stand) -> Distribution[ChargeOutcome]:
            melee = _melee_setup(chargers, stand, impetus, facts, options)
            if melee is None:
                return Distribution.certain(_no_melee(chargers, stand, impetus, facts))
            fight = melee

            def after_melee(successes: int) -> Distribution[ChargeOutcome]:
                hit_c, hit_d = _losses(chargers, stand, fight, successes)
                tests: Distribution[Aftermath] = odds(
                    cohesion_sequence, hit_c, hit_d, successes, fight.count - successes, facts,
                    _penalty(impetus, options),
                )
                return tests.map(
                    lambda after: _assemble(stand, impetus, fight, successes, after, facts)
                )

            return melee_check(fight.count, fight.need).distribution().then(after_melee)

        stands: Distribution[Stand] = odds(check_to_stand, defenders, impetus, facts)
        return stands.then(after_stand)

    return impetus_check(chargers, defenders, facts).distribution().then(after_impetus)

