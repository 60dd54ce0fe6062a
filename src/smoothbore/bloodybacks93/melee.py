"""Melee, its losses and the cohesion tests that follow, and a whole charge from impetus to
the last cohesion test, played or as one exact distribution (Bloodybacks 9.3, Charges and
melee: Resolve melee)."""

from __future__ import annotations

import functools
from typing import Any

import attrs

from smoothbore.core import D12, Dice, Modified, Modifier, NamedEnum, PoolCheck
from smoothbore.core.stages import Again, Done, Staged

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


@attrs.frozen(cache_hash=True)
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


@attrs.frozen(cache_hash=True)
class _Charge:
    """The context of one charge: what every stage reads and none changes."""

    chargers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    facts: ChargeFacts
    options: Options
    memo: dict[Any, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """What the exact odds work out once per distinct check to stand."""


Results = tuple[TestResult | None, ...]
Codes = tuple[int, ...]
"""Test results as small integers (successes; -1: no test), cheap to hash and compare."""

_DECODE: tuple[TestResult | None, ...] = (*RESULT_BY_SUCCESSES, None)


def _codes(tests: tuple[TestOutcome | None, ...]) -> Codes:
    return tuple([-1 if t is None else t.successes for t in tests])


def _decode(codes: Codes) -> Results:
    return tuple([_DECODE[c] for c in codes])


def _setup(charge: _Charge, impetus: int, stand_codes: Codes) -> tuple[Stand, _Melee | None]:
    """The defenders after the check to stand and the melee they fight (None: no melee)."""
    key = (impetus, stand_codes)
    found = charge.memo.get(key)
    if found is None:
        stand = _stand_after(charge.defenders, _decode(stand_codes),
                             charge.facts.defender_holds_works)
        melee = _melee_setup(charge.chargers, stand, impetus, charge.facts, charge.options)
        found = charge.memo[key] = (stand, melee)
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


def _penalty(impetus: int, options: Options) -> int | None:
    return impetus if options.impetus_penalty_after_melee else None


# --- the charge as stages: impetus, check to stand, melee, cohesion tests -------------------
def _begin(
    chargers: tuple[Unit, ...],
    defenders: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[_Charge, None]:
    impetus_check(chargers, defenders, facts)  # the sides are checked before any roll
    return _Charge(chargers, defenders, facts, options), None


def _impetus_stage(charge: _Charge, _: None, *, dice: Dice) -> int:
    """Determine impetus: the impetus successes."""
    return roll_impetus(charge.chargers, charge.defenders, charge.facts, dice=dice)


def _stand_stage(charge: _Charge, impetus: int, *, dice: Dice) -> tuple[int, Codes]:
    """Check to stand: the result of each defender's test (none: it did not test)."""
    stand = check_to_stand(charge.defenders, impetus, charge.facts, dice=dice)
    return impetus, _codes(stand.tests)


def _melee_stage(
    charge: _Charge, value: tuple[int, Codes], *, dice: Dice
) -> tuple[int, Codes, int] | Done[ChargeOutcome]:
    """Resolve melee: the charger's successes (the defenders standing fight), or the whole
    charge when none stands."""
    impetus, stand_codes = value
    stand, melee = _setup(charge, impetus, stand_codes)
    if melee is None:
        return Done(_no_melee(charge.chargers, stand, impetus, charge.facts))
    return impetus, stand_codes, roll_melee(melee.count, melee.need, dice=dice)


def _cohesion_stage(
    charge: _Charge, value: tuple[int, Codes, int], *, dice: Dice
) -> tuple[int, Codes, int, Codes, Codes, bool]:
    """The cohesion tests after the melee: each side's results and whether the chargers
    fall back (``cohesion_sequence``)."""
    impetus, stand_codes, successes = value
    stand, melee = _setup(charge, impetus, stand_codes)
    assert melee is not None
    failures = melee.count - successes
    facts = charge.facts
    hit_c, hit_d = _losses(charge.chargers, stand, melee, successes)
    penalty = _penalty(impetus, charge.options)
    exact = getattr(dice, "exact", False)

    def side(chargers: bool, lost_by: int) -> tuple[Codes, bool]:
        args = ((hit_c, lost_by, facts.led, None, False, facts.charger_in_woods) if chargers
                else (hit_d, lost_by, facts.led, penalty, facts.defender_holds_works,
                      facts.defender_in_woods))
        if exact:  # one chance node per side, made once per charge and side
            key = (chargers, impetus, stand_codes, successes, lost_by)
            check = charge.memo.get(key)
            if check is None:
                check = charge.memo[key] = _test_side.check(*args)
            _, tests, held = dice.roll(check, reason=_test_side.name, rule=RULE_MELEE)
        else:
            _, tests, held = _test_side(*args, dice=dice)
        return _codes(tests), held

    none_c, none_d = (-1,) * len(hit_c), (-1,) * len(hit_d)
    if successes > failures:
        d_codes, d_held = side(False, successes - failures)
        c_codes, c_held = side(True, 0) if d_held else (none_c, True)
    elif failures > successes:
        c_codes, c_held = side(True, failures - successes)
        d_codes, d_held = side(False, 0) if c_held else (none_d, True)
    else:
        d_codes, d_held = side(False, 0)
        c_codes, c_held = side(True, 0)
    return impetus, stand_codes, successes, c_codes, d_codes, c_held and d_held


def _finish(
    charge: _Charge, value: tuple[int, Codes, int, Codes, Codes, bool]
) -> ChargeOutcome:
    impetus, stand_codes, successes, c_codes, d_codes, fall_back = value
    stand, melee = _setup(charge, impetus, stand_codes)
    assert melee is not None
    failures = melee.count - successes
    memo = charge.memo
    c_key = ("chargers", failures, c_codes)
    c_part = memo.get(c_key)
    if c_part is None:
        c_results = _decode(c_codes)
        chargers = _side_after(charge.chargers, failures, c_results, False)
        c_part = memo[c_key] = (
            c_results, chargers,
            tuple([_fate(u, t, False) for u, t in zip(chargers, c_results, strict=True)]),
        )
    d_key = ("defenders", impetus, stand_codes, successes, d_codes)
    d_part = memo.get(d_key)
    if d_part is None:
        d_part = memo[d_key] = _defenders_after(charge, stand, melee, successes, d_codes)
    return ChargeOutcome(
        impetus, d_part[0], melee.count, melee.need, successes, failures, c_part[0],
        d_part[1], c_part[1], d_part[2], c_part[2], d_part[3], fall_back,
    )


def _defenders_after(
    charge: _Charge, stand: Stand, melee: _Melee, successes: int, d_codes: Codes
) -> tuple[Results, Results, tuple[Unit, ...], tuple[Fate, ...]]:
    """The defenders' check-to-stand results, cohesion results, units and fates."""
    holds = charge.facts.defender_holds_works
    d_results = _decode(d_codes)
    fighting = _side_after(tuple(stand.defenders[i] for i in melee.fighters), successes,
                           d_results, holds)
    defenders = list(stand.defenders)
    tests: list[TestResult | None] = [None] * len(defenders)
    for slot, i in enumerate(melee.fighters):
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


resolve_charge: Staged[ChargeOutcome] = Staged(
    "charge", RULE_MELEE, _begin,
    (_impetus_stage, _stand_stage, _melee_stage, _cohesion_stage), _finish,
    doc="""Resolve a charge that makes contact: impetus, the check to stand, the melee,
    losses on both sides and the cohesion tests (Charges and melee).

    ``resolve_charge(chargers, defenders, facts, dice=dice, options=options)`` plays it;
    ``odds(resolve_charge, chargers, defenders, facts, options=options)`` gives its exact
    distribution, composed stage by stage.""",
)
"""The whole charge, written once as stages: played with sampling dice, composed exactly by
``odds``."""
