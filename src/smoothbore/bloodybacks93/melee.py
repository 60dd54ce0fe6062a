"""Melee, its losses and the cohesion tests that follow, and a whole charge from impetus to
the last cohesion test, played or as one exact distribution (Bloodybacks 9.3, Charges and
melee: Resolve melee)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs
import numpy as np
import numpy.typing as npt

from smoothbore.core import D12, Dice, Distribution, Modified, Modifier, NamedEnum, PoolCheck
from smoothbore.core.checks import Pick, draw_samples
from smoothbore.core.stages import Again, Done, PickDice, Roll, Staged

from .charges import (
    ChargeFacts,
    Stand,
    check_to_stand,
    impetus_check,
    roll_impetus,
    uses_cold_steel,
)
from .morale import (
    RESULT_BY_SUCCESSES,
    TestKind,
    TestOutcome,
    TestResult,
    apply_result,
    holds_ground,
    take_test,
)
from .options import DEFAULT_OPTIONS, Options
from .rules import RULE_EXPERIMENT, RULE_MELEE
from .units import Unit, take_melee_losses

MELEE_DICE = 6
BASE_NEED = 3
FALL_BACK_INCHES = 3

T = TypeVar("T")


def melee_dice(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> Modified:
    """Six d12, one more with cold steel; two fewer when cavalry is involved and the
    ``cavalry_experiment`` option is on."""
    mods: list[Modifier] = []
    if uses_cold_steel(chargers[0], facts):
        mods.append(_COLD_STEEL)
    if options.cavalry_experiment and any(u.is_cavalry for u in chargers + defenders):
        mods.append(_CAVALRY_EXPERIMENT)
    return _MELEE_DICE.plus(*mods)


# the terms that never change, made once (a charge reads them every time)
_MELEE_DICE = Modified(MELEE_DICE, "melee dice", RULE_MELEE)
_COLD_STEEL = Modifier("cold steel", 1, RULE_MELEE)
_CAVALRY_EXPERIMENT = Modifier("melee involving cavalry (experiment)", -2, RULE_EXPERIMENT)
_BASE_NEED = Modified(BASE_NEED, "basic melee need", RULE_MELEE)
_NO_BAYONETS = Modifier("defender has no bayonets", 1, RULE_MELEE)


def has_bayonets(unit: Unit) -> bool:
    """Only infantry carrying bayonets count as having them."""
    return unit.is_infantry and unit.bayonets


def melee_need(impetus: int, defenders: tuple[Unit, ...], facts: ChargeFacts) -> Modified:
    """Each melee die succeeds at or under 3, +1 per impetus success, +1 if the defender has
    no bayonets, less the defender's cover (1 light, 2 significant, 3 fortifications)."""
    mods: list[Modifier] = []
    if impetus:
        mods.append(Modifier("impetus successes", impetus, RULE_MELEE))
    if not has_bayonets(defenders[0]):
        mods.append(_NO_BAYONETS)
    if facts.cover.value:
        mods.append(Modifier(f"defender in {facts.cover} cover", -facts.cover.value, RULE_MELEE))
    return _BASE_NEED.plus(*mods)


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


@attrs.frozen(eq=False)
class _Side:
    """One side's cohesion tests after the melee: what every unit's test reads."""

    units: tuple[Unit, ...]
    lost_by: int
    led: frozenset[str]
    impetus: int | None
    holds_works: bool
    in_woods: bool


def _begin_side(
    units: tuple[Unit, ...], lost_by: int, led: frozenset[str], impetus: int | None,
    holds_works: bool, in_woods: bool,
) -> tuple[_Side, tuple[TestOutcome | None, ...]]:
    return _Side(units, lost_by, led, impetus, holds_works, in_woods), ()


def _test_unit(
    side: _Side, tests: tuple[TestOutcome | None, ...], *, dice: Dice
) -> tuple[TestOutcome | None, ...] | Again[tuple[TestOutcome | None, ...]]:
    """The next unit of the side tests cohesion (destroyed or routing units do not)."""
    unit = side.units[len(tests)]
    if unit.destroyed or unit.routing:
        test = None
    else:
        test = take_test(
            unit, TestKind.COHESION, dice=dice, lost_melee_by=side.lost_by,
            commander_attached=unit.id in side.led, charger_impetus=side.impetus,
            in_woods=side.in_woods, reason=f"{unit.name} tests cohesion after the melee",
        )
    tests = (*tests, test)
    return tests if len(tests) == len(side.units) else Again(tests)


def _side_result(
    side: _Side, tests: tuple[TestOutcome | None, ...]
) -> tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...], bool]:
    after = tuple(
        u if t is None else apply_result(u, t.result, fortified_or_behind_obstacle=side.holds_works)
        for u, t in zip(side.units, tests, strict=True)
    )
    held = any(t is not None and holds_ground(t.result,
                                              fortified_or_behind_obstacle=side.holds_works)
               for t in tests)
    return after, tests, held


_test_side: Staged[tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...], bool]] = Staged(
    "cohesion tests of one side", RULE_MELEE, _begin_side, (_test_unit,), _side_result,
    doc="""One side's cohesion tests after a melee, a unit at a time: the units after, the
    tests (None: the unit did not test) and whether any held its ground.""",
)


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
                          dice=dice)

    def defenders_test(lost_by: int) -> tuple[tuple[Unit, ...], tuple[TestOutcome | None, ...],
                                              bool]:
        return _test_side(defenders, lost_by, facts.led, defender_impetus, holds,
                          facts.defender_in_woods, dice=dice)

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


NO_MELEE = "defenders did not stand"
CHARGERS_WON = "chargers won the melee"
DEFENDERS_WON = "defenders won the melee"
DRAWN = "melee drawn"
WINNERS = (NO_MELEE, CHARGERS_WON, DEFENDERS_WON, DRAWN)


def _winner(melee_dice: int, successes: int, failures: int) -> str:
    if not melee_dice:
        return NO_MELEE
    if successes > failures:
        return CHARGERS_WON
    if failures > successes:
        return DEFENDERS_WON
    return DRAWN


def _summary(winner: str, charger_fates: tuple[Fate, ...], defender_fates: tuple[Fate, ...],
             fall_back: bool, head: list[str]) -> str:
    parts = [*head, str(ChargeVerdict(winner, worst(charger_fates), worst(defender_fates)))]
    if fall_back:
        parts.append(f'chargers fall back {FALL_BACK_INCHES}"')
    return "; ".join(parts)


@attrs.frozen(cache_hash=True)
class SideAfter:
    """One side after a charge: each unit and where it ends up."""

    units: tuple[Unit, ...]
    fates: tuple[Fate, ...]


@attrs.frozen(cache_hash=True)
class ChargeResult:
    """What a charge leaves behind: who won the melee, every unit afterwards with its fate,
    and whether the chargers fall back 3" (``resolve_charge``; ``charge_in_detail`` also
    gives the rolls: impetus, the check to stand, the melee roll and every test)."""

    winner: str
    charger_side: SideAfter
    defender_side: SideAfter
    chargers_fall_back: bool

    @property
    def chargers(self) -> tuple[Unit, ...]:
        return self.charger_side.units

    @property
    def defenders(self) -> tuple[Unit, ...]:
        return self.defender_side.units

    @property
    def charger_fates(self) -> tuple[Fate, ...]:
        return self.charger_side.fates

    @property
    def defender_fates(self) -> tuple[Fate, ...]:
        return self.defender_side.fates

    @property
    def fought(self) -> bool:
        return self.winner != NO_MELEE

    def verdict(self) -> ChargeVerdict:
        return ChargeVerdict(self.winner, worst(self.charger_fates), worst(self.defender_fates))

    def __str__(self) -> str:
        return _summary(self.winner, self.charger_fates, self.defender_fates,
                        self.chargers_fall_back, [])


@attrs.frozen(cache_hash=True)
class ChargeOutcome:
    """A whole charge in detail (``charge_in_detail``): impetus, the check to stand, the
    melee roll and the cohesion tests, with every unit afterwards."""

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
        return _winner(self.melee_dice, self.successes, self.failures)

    def verdict(self) -> ChargeVerdict:
        return ChargeVerdict(self.winner, worst(self.charger_fates), worst(self.defender_fates))

    def result(self) -> ChargeResult:
        """What the charge leaves behind, without the rolls (``resolve_charge``'s result)."""
        return ChargeResult(self.winner, SideAfter(self.chargers, self.charger_fates),
                            SideAfter(self.defenders, self.defender_fates),
                            self.chargers_fall_back)

    def __str__(self) -> str:
        parts = [f"impetus {self.impetus}"]
        if any(r is not None for r in self.stand):
            parts.append("stand: " + ", ".join(str(r) for r in self.stand if r is not None))
        if self.fought:
            parts.append(f"melee {self.successes}-{self.failures} (need {self.melee_need})")
        return _summary(self.winner, self.charger_fates, self.defender_fates,
                        self.chargers_fall_back, parts)


def _results(tests: tuple[TestOutcome | None, ...]) -> tuple[TestResult | None, ...]:
    return tuple([None if t is None else t.result for t in tests])


@attrs.frozen(cache_hash=True)
class _Fight:
    """The defenders after the check to stand, and the melee they fight: the charger's
    dice and which defenders fight (none: no melee). The need also reads the impetus."""

    stand: Stand
    count: int
    fighters: tuple[int, ...]


@attrs.frozen(eq=False)
class _Charge:
    """The context of one charge: what every stage reads and none changes. ``detail``: the
    values keep every roll for ``ChargeOutcome``; without it they keep only what the result
    and the later stages read, so that more of them merge."""

    chargers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    facts: ChargeFacts
    options: Options
    detail: bool
    impetus: PoolCheck
    memo: dict[Any, Any] = attrs.field(repr=False)
    """What the stages work out once per charge and distinct value."""


Results = tuple[TestResult | None, ...]
Codes = tuple[int, ...]
"""Test results as small integers (successes; -1: no test), cheap to hash and compare."""

_DECODE: tuple[TestResult | None, ...] = (*RESULT_BY_SUCCESSES, None)


def _codes(tests: tuple[TestOutcome | None, ...]) -> Codes:
    return tuple([-1 if t is None else t.successes for t in tests])


def _decode(codes: Codes) -> Results:
    return tuple([_DECODE[c] for c in codes])


def _encode(results: Results) -> Codes:
    return tuple([-1 if r is None else RESULT_BY_SUCCESSES.index(r) for r in results])


def _fight(charge: _Charge, stand_codes: Codes) -> _Fight:
    """The defenders after the check to stand and the melee they fight."""
    key = ("fight", stand_codes)
    found: _Fight | None = charge.memo.get(key)
    if found is None:
        stand = charge.memo.get(("stand", stand_codes))
        if stand is None:
            stand = _stand_after(charge.defenders, _decode(stand_codes),
                                 charge.facts.defender_holds_works)
        found = charge.memo[key] = _fight_setup(charge.chargers, stand, charge.facts,
                                                charge.options)
    return found


def _need(charge: _Charge, impetus: int, fight: _Fight) -> int:
    key = ("need", impetus, fight.fighters)
    found: int | None = charge.memo.get(key)
    if found is None:
        fighting = tuple(fight.stand.defenders[i] for i in fight.fighters)
        found = charge.memo[key] = melee_need(impetus, fighting, charge.facts).total
    return found


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def _stand_after(defenders: tuple[Unit, ...], results: Results, holds: bool) -> Stand:
    """The defenders after the check to stand, from its results alone."""
    if not results:
        return Stand(defenders)
    after = tuple(
        u if r is None else apply_result(u, r, fortified_or_behind_obstacle=holds)
        for u, r in zip(defenders, results, strict=True)
    )
    return Stand(after, tuple(None if r is None else TestOutcome(TestKind.COHESION, 0, 0, r)
                              for r in results))


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def _fight_setup(
    chargers: tuple[Unit, ...], stand: Stand, facts: ChargeFacts, options: Options
) -> _Fight:
    standing = stand.standing(facts)
    fighters = tuple(i for i, s in enumerate(standing) if s and not stand.defenders[i].destroyed)
    if not fighters:
        return _Fight(stand, 0, ())
    fighting = tuple(stand.defenders[i] for i in fighters)
    return _Fight(stand, max(0, melee_dice(chargers, fighting, facts, options).total), fighters)


def _penalty(impetus: int, options: Options) -> int | None:
    return impetus if options.impetus_penalty_after_melee else None


# --- the charge as stages: impetus, check to stand, melee, cohesion tests -------------------
def _begin(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[_Charge, None]:
    check = impetus_check(chargers, defenders, facts)  # the sides are checked before any roll
    return _Charge(chargers, defenders, facts, options, False, check, {}), None


def _begin_in_detail(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[_Charge, None]:
    check = impetus_check(chargers, defenders, facts)
    return _Charge(chargers, defenders, facts, options, True, check, {}), None


def _impetus_stage(charge: _Charge, _: None, *, dice: Dice) -> int:
    """Determine impetus: the impetus successes."""
    return roll_impetus(charge.chargers, charge.defenders, charge.facts, dice=dice,
                        check=charge.impetus)


def _stand_stage(charge: _Charge, impetus: int, *, dice: Dice) -> tuple[int, Codes]:
    """Check to stand: the result of each defender's test (none: it did not test)."""
    stand = check_to_stand(charge.defenders, impetus, charge.facts, dice=dice)
    codes = _codes(stand.tests)
    charge.memo.setdefault(("stand", codes), stand)  # what ``_fight`` would work out again
    return impetus, codes


Fought = tuple[Codes, int, int | None]
"""After the melee roll: the check-to-stand results, the charger's successes and the
impetus the defenders' tests read (None: only the check to stand reads it)."""
FoughtInDetail = tuple[int, Codes, int]
"""After the melee roll, in detail: the impetus, the check-to-stand results and the
successes."""


def _melee_stage(
    charge: _Charge, value: tuple[int, Codes], *, dice: Dice
) -> Fought | FoughtInDetail | Done[ChargeResult | ChargeOutcome]:
    """Resolve melee: the charger's successes (the defenders standing fight), or the whole
    charge when none stands. The impetus is kept only where something later reads it."""
    impetus, stand_codes = value
    fight = _fight(charge, stand_codes)
    if not fight.fighters:
        return Done(_no_melee(charge, fight.stand, impetus))
    successes = roll_melee(fight.count, _need(charge, impetus, fight), dice=dice)
    if charge.detail:
        return impetus, stand_codes, successes
    return stand_codes, successes, _penalty(impetus, charge.options)


Closed = tuple[FoughtInDetail, Codes, Codes, bool]
"""The charge in detail after the cohesion tests: the value after the melee, each side's
test results, and whether the chargers fall back."""


def _cohesion_stage(
    charge: _Charge, value: Fought | FoughtInDetail, *, dice: Dice
) -> ChargeResult | Closed | Roll[ChargeResult | Closed]:
    """The cohesion tests after the melee: the loser tests (less the difference in losses);
    if it holds, the winner tests; a draw makes everyone test; the chargers fall back when
    both sides hold (``cohesion_sequence``). Exact odds take every side's tests as one
    chance node and the two sides' results together as one more (``_tests_odds``)."""
    if getattr(dice, "exact", False):
        return Roll(_TestsCheck(charge, value), "cohesion tests after the melee", RULE_MELEE)
    stand_codes, successes, penalty = _fought(charge, value)
    fight = _fight(charge, stand_codes)
    failures = fight.count - successes
    hit_c, hit_d = _losses(charge.chargers, fight, successes)
    facts = charge.facts

    def side(chargers: bool, lost_by: int) -> tuple[tuple[Unit, ...], Results, bool]:
        if chargers:
            after, tests, held = _test_side(hit_c, lost_by, facts.led, None, False,
                                            facts.charger_in_woods, dice=dice)
        else:
            after, tests, held = _test_side(hit_d, lost_by, facts.led, penalty,
                                            facts.defender_holds_works, facts.defender_in_woods,
                                            dice=dice)
        return after, _results(tests), held

    if successes > failures:
        d_after, d_results, d_held = side(False, successes - failures)
        c_after, c_results, c_held = side(True, 0) if d_held else (
            hit_c, (None,) * len(hit_c), True)
    elif failures > successes:
        c_after, c_results, c_held = side(True, failures - successes)
        d_after, d_results, d_held = side(False, 0) if c_held else (
            hit_d, (None,) * len(hit_d), True)
    else:
        d_after, d_results, d_held = side(False, 0)
        c_after, c_results, c_held = side(True, 0)
    fall_back = c_held and d_held
    if charge.detail:
        return (cast(FoughtInDetail, value), _encode(c_results), _encode(d_results),
                fall_back)
    # the units as the tests left them (the same as ``_charger_side`` and
    # ``_defender_side`` work out from the results for exact odds)
    _, _, defenders, defender_fates = _placed(charge, fight, d_after, d_results)
    return ChargeResult(
        _winner(fight.count, successes, failures),
        SideAfter(c_after, tuple([_fate(u, r, False)
                                  for u, r in zip(c_after, c_results, strict=True)])),
        SideAfter(defenders, defender_fates), fall_back)


def _fought(charge: _Charge, value: Fought | FoughtInDetail) -> Fought:
    """What the cohesion tests read of the value after the melee, in either form."""
    if charge.detail:
        impetus, stand_codes, successes = cast(FoughtInDetail, value)
        return stand_codes, successes, _penalty(impetus, charge.options)
    return cast(Fought, value)


@attrs.frozen(eq=False)
class _TestsCheck:
    """Both sides' cohesion tests after one melee as one check, for exact odds: its
    distribution is worked out from each side's (``_test_side``, one chance node per side)
    by multiplying them out once, and drawn by rolling them in turn."""

    charge: _Charge
    value: Fought | FoughtInDetail

    def distribution(self) -> Distribution[Any]:
        memo = self.charge.memo
        key = ("tests", self.value)
        found: Distribution[Any] | None = memo.get(key)
        if found is None:
            found = memo[key] = _tests_odds(self.charge, self.value)
        return found

    def draw(self, pick: Pick) -> tuple[Any, tuple[int, ...]]:
        dice = PickDice(pick)
        return _cohesion_stage(self.charge, self.value, dice=dice), tuple(dice.faces)

    def sample(self, rng: np.random.Generator, size: int) -> npt.NDArray[Any]:
        return draw_samples(self, rng, size)

    def describe(self) -> str:
        return "cohesion tests of both sides"


def _side_odds(charge: _Charge, chargers: bool, units: tuple[Unit, ...], lost_by: int,
               penalty: int | None) -> tuple[list[tuple[Codes, bool, int]], int]:
    """One side's cohesion tests (``_test_side``) as (results, held, weight) over a
    denominator, worked out once per charge and distinct units and inputs."""
    key = ("side", chargers, units, lost_by, penalty)
    found: tuple[list[tuple[Codes, bool, int]], int] | None = charge.memo.get(key)
    if found is None:
        facts = charge.facts
        if chargers:
            check = _test_side.check(units, lost_by, facts.led, None, False,
                                     facts.charger_in_woods)
        else:
            check = _test_side.check(units, lost_by, facts.led, penalty,
                                     facts.defender_holds_works, facts.defender_in_woods)
        dist = check.distribution()
        weights: dict[tuple[Codes, bool], int] = {}
        for (_, tests, held), weight in dist.items():
            tested = (_codes(tests), held)
            weights[tested] = weights.get(tested, 0) + weight
        found = charge.memo[key] = (
            [(codes, held, weight) for (codes, held), weight in weights.items()],
            dist.denominator,
        )
    return found


def _tests_odds(charge: _Charge, value: Fought | FoughtInDetail) -> Distribution[Any]:
    """The exact distribution of what ``_cohesion_stage`` gives for ``value``: the first
    side's tests, then, where the rules call for it, the other side's, multiplied out."""
    stand_codes, successes, penalty = _fought(charge, value)
    fight = _fight(charge, stand_codes)
    failures = fight.count - successes
    defenders_first = successes >= failures  # in a draw both sides always test
    drawn = successes == failures
    if defenders_first:
        firsts, _, first_den = _tested(charge, False, stand_codes, successes,
                                       successes - failures, penalty)
        seconds, untested, second_den = _tested(charge, True, stand_codes, successes, 0, None)
    else:
        firsts, _, first_den = _tested(charge, True, stand_codes, successes,
                                       failures - successes, None)
        seconds, untested, second_den = _tested(charge, False, stand_codes, successes, 0,
                                                penalty)
    if charge.detail:
        head: Any = value
    else:
        # the sides after by number (``_Sides``) and the winner by its place in WINNERS,
        # with the table the numbers refer to: a tuple Python hashes without calling back
        # into Python, where a great many results meet and merge (``_finish``)
        head = (WINNERS.index(_winner(fight.count, successes, failures)), _sides(charge))
    pairs: list[tuple[Any, int]] = []
    for a, a_held, a_weight in firsts:
        if a_held or drawn:
            if defenders_first:
                pairs += [((head, b, a, a_held and b_held), a_weight * b_weight)
                          for b, b_held, b_weight in seconds]
            else:
                pairs += [((head, a, b, a_held and b_held), a_weight * b_weight)
                          for b, b_held, b_weight in seconds]
        else:
            pairs.append(((head, untested, a, False) if defenders_first
                          else (head, a, untested, False), a_weight * second_den))
    weights = dict(pairs)
    if len(weights) != len(pairs):  # different tests that end alike: their weights add up
        weights = {}
        for made, weight in pairs:
            weights[made] = weights.get(made, 0) + weight
    return Distribution.from_weights(weights, first_den * second_den, order=False)


Kept = list[tuple[Any, bool, int]]
"""One side's cohesion tests by what the result keeps of them (in detail the results,
else the side after by number), whether it held, and the weight."""


def _tested(
    charge: _Charge, chargers: bool, stand_codes: Codes, successes: int, lost_by: int,
    penalty: int | None,
) -> tuple[Kept, Any, int]:
    """One side's cohesion tests after a melee as what the result keeps of them, equal
    ones merged, what it keeps when the side does not test, and the denominator: worked
    out once per charge and distinct side, losses and modifiers."""
    fight = _fight(charge, stand_codes)
    failures = fight.count - successes
    key = ("tested", chargers, failures if chargers else (stand_codes, successes), lost_by,
           penalty)
    found: tuple[Kept, Any, int] | None = charge.memo.get(key)
    if found is not None:
        return found
    hit_c, hit_d = _losses(charge.chargers, fight, successes)
    units = hit_c if chargers else hit_d
    side, denominator = _side_odds(charge, chargers, units, lost_by, penalty)
    keep: Callable[[Codes], Any]
    if charge.detail:
        keep = _same
    elif chargers:
        sides = _sides(charge)

        def keep(codes: Codes) -> Any:
            return sides.number(_charger_side(charge, failures, codes))
    else:
        sides = _sides(charge)

        def keep(codes: Codes) -> Any:
            return sides.number(_defender_side(charge, stand_codes, successes, codes))

    weights: dict[tuple[Any, bool], int] = {}
    for codes, held, weight in side:
        kept = (keep(codes), held)
        weights[kept] = weights.get(kept, 0) + weight
    found = charge.memo[key] = (
        [(kept, held, weight) for (kept, held), weight in weights.items()],
        keep((-1,) * len(units)), denominator,
    )
    return found


def _same(codes: Codes) -> Codes:
    return codes


class _Sides:
    """The side afters met in one charge's exact odds, numbered (equal ones alike)."""

    __slots__ = ("numbers", "sides")

    def __init__(self) -> None:
        self.sides: list[SideAfter] = []
        self.numbers: dict[SideAfter, int] = {}

    def number(self, side: SideAfter) -> int:
        found = self.numbers.get(side)
        if found is None:
            found = self.numbers[side] = len(self.sides)
            self.sides.append(side)
        return found


def _sides(charge: _Charge) -> _Sides:
    found: _Sides | None = charge.memo.get("sides")
    if found is None:
        found = charge.memo["sides"] = _Sides()
    return found


Numbered = tuple[tuple[int, _Sides], int, int, bool]
"""A result as exact odds carry it: the winner's place in ``WINNERS`` with the table of
sides, the chargers' and the defenders' side after by number, and whether the chargers
fall back."""


def _finish(charge: _Charge, value: ChargeResult | Numbered) -> ChargeResult:
    """The result: played, the last stage gave it; composed, from its numbers."""
    if type(value) is ChargeResult:
        return value
    (code, table), c_side, d_side, fall_back = value  # type: ignore[misc]
    sides = table.sides
    return ChargeResult(WINNERS[code], sides[c_side], sides[d_side], fall_back)


def _charger_side(charge: _Charge, failures: int, c_codes: Codes) -> SideAfter:
    """The chargers after their melee losses and cohesion tests, with their fates."""
    key = ("chargers", failures, c_codes)
    found: SideAfter | None = charge.memo.get(key)
    if found is None:
        results = _decode(c_codes)
        units = _side_after(charge.chargers, failures, results, False)
        found = charge.memo[key] = SideAfter(units, tuple(
            [_fate(u, t, False) for u, t in zip(units, results, strict=True)]))
    return found


def _defender_side(charge: _Charge, stand_codes: Codes, successes: int,
                   d_codes: Codes) -> SideAfter:
    """The defenders after the check to stand, their melee losses and cohesion tests."""
    key = ("defenders", stand_codes, successes, d_codes)
    found: SideAfter | None = charge.memo.get(key)
    if found is None:
        _, _, units, fates = _defenders_after(charge, _fight(charge, stand_codes), successes,
                                              d_codes)
        found = charge.memo[key] = SideAfter(units, fates)
    return found


def _finish_in_detail(charge: _Charge, value: Closed) -> ChargeOutcome:
    (impetus, stand_codes, successes), c_codes, d_codes, fall_back = value
    fight = _fight(charge, stand_codes)
    failures = fight.count - successes
    memo = charge.memo
    c_part = _charger_side(charge, failures, c_codes)
    d_key = ("detail", stand_codes, successes, d_codes)
    d_part = memo.get(d_key)
    if d_part is None:
        d_part = memo[d_key] = _defenders_after(charge, fight, successes, d_codes)
    return ChargeOutcome(
        impetus, d_part[0], fight.count, _need(charge, impetus, fight), successes, failures,
        _decode(c_codes), d_part[1], c_part.units, d_part[2], c_part.fates, d_part[3],
        fall_back,
    )


def _defenders_after(
    charge: _Charge, fight: _Fight, successes: int, d_codes: Codes
) -> tuple[Results, Results, tuple[Unit, ...], tuple[Fate, ...]]:
    """The defenders' check-to-stand results, cohesion results, units and fates."""
    d_results = _decode(d_codes)
    fighting = _side_after(tuple(fight.stand.defenders[i] for i in fight.fighters), successes,
                           d_results, charge.facts.defender_holds_works)
    return _placed(charge, fight, fighting, d_results)


def _placed(
    charge: _Charge, fight: _Fight, fighting: tuple[Unit, ...], d_results: Results
) -> tuple[Results, Results, tuple[Unit, ...], tuple[Fate, ...]]:
    """The defenders with those that fought as they ended (``fighting``, with their
    cohesion results): check-to-stand results, cohesion results, units and fates."""
    holds = charge.facts.defender_holds_works
    stand = fight.stand
    defenders = list(stand.defenders)
    tests: list[TestResult | None] = [None] * len(defenders)
    for slot, i in enumerate(fight.fighters):
        defenders[i] = fighting[slot]
        tests[i] = d_results[slot]
    stand_results = _results(stand.tests)
    stand_tests = stand_results or (None,) * len(defenders)
    fates = tuple([
        _fate(u, t if t is not None else s, holds)
        for u, t, s in zip(defenders, tests, stand_tests, strict=True)
    ])
    return stand_results, tuple(tests), tuple(defenders), fates


@functools.lru_cache(maxsize=8192)  # see docs/rulesets/bloodybacks93.md: Speed
def _side_after(
    units: tuple[Unit, ...], losses: int, results: Results, holds: bool
) -> tuple[Unit, ...]:
    """One side after its melee losses and its cohesion test results."""
    out = []
    for unit, result in zip(units, results, strict=True):
        hit = take_melee_losses(unit, losses)
        out.append(hit if result is None
                   else apply_result(hit, result, fortified_or_behind_obstacle=holds))
    return tuple(out)


def _fate(unit: Unit, result: TestResult | None, holds_works: bool) -> Fate:
    if unit.destroyed:
        return Fate.DESTROYED
    if unit.routing:
        return Fate.ROUTS
    if result is not None and not holds_ground(result, fortified_or_behind_obstacle=holds_works):
        return Fate.FALLS_BACK
    return Fate.HOLDS


def _no_melee(charge: _Charge, stand: Stand, impetus: int) -> ChargeResult | ChargeOutcome:
    """The charge when no defender stands to fight."""
    holds = charge.facts.defender_holds_works
    chargers = charge.chargers
    charger_fates = tuple(Fate.HOLDS for _ in chargers)
    defender_fates = tuple(
        fate_of(u, t, holds)
        for u, t in zip(stand.defenders, stand.tests or (None,) * len(stand.defenders),
                        strict=True)
    )
    if not charge.detail:
        return ChargeResult(NO_MELEE, SideAfter(chargers, charger_fates),
                            SideAfter(stand.defenders, defender_fates), False)
    return ChargeOutcome(
        impetus, _results(stand.tests), 0, 0, 0, 0,
        tuple(None for _ in chargers), tuple(None for _ in stand.defenders),
        chargers, stand.defenders, charger_fates, defender_fates, False,
    )


def _losses(
    chargers: tuple[Unit, ...], fight: _Fight, successes: int
) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    failures = fight.count - successes
    hit_chargers = tuple(take_melee_losses(u, failures) for u in chargers)
    hit_defenders = tuple(take_melee_losses(fight.stand.defenders[i], successes)
                          for i in fight.fighters)
    return hit_chargers, hit_defenders


_STAGES = (_impetus_stage, _stand_stage, _melee_stage, _cohesion_stage)

resolve_charge: Staged[ChargeResult] = Staged(
    "charge", RULE_MELEE, _begin, _STAGES, _finish,
    doc="""Resolve a charge that makes contact: impetus, the check to stand, the melee,
    losses on both sides and the cohesion tests (Charges and melee). The result says who
    won the melee, where every unit ends up and whether the chargers fall back
    (``ChargeResult``); ``charge_in_detail`` also gives the rolls.

    ``resolve_charge(chargers, defenders, facts, dice=dice, options=options)`` plays it;
    ``odds(resolve_charge, chargers, defenders, facts, options=options)`` gives its exact
    distribution, composed stage by stage.""",
    one_to_one=True,
)
"""The whole charge, written once as stages: played with sampling dice, composed exactly by
``odds``."""

charge_in_detail: Staged[ChargeOutcome] = Staged(
    "charge", RULE_MELEE, _begin_in_detail, _STAGES, _finish_in_detail,
    doc="""The same charge, by the same stages, with every roll in the result
    (``ChargeOutcome``: impetus, the check-to-stand results, the melee dice, need and
    successes, every cohesion test): what a referee reports. Its exact distribution has
    more outcomes, since charges that end alike but rolled differently stay apart.""",
    one_to_one=True,
)
"""``resolve_charge`` with every roll kept in the result."""
