"""Morale and cohesion tests, their results, rout and push back moves, and rally
(Bloodybacks 9.3, Morale; Rally)."""

from __future__ import annotations

import functools

import attrs

from smoothbore.core import (
    AVERAGE_DIE,
    D12,
    Dice,
    InvalidValueError,
    Modified,
    Modifier,
    NamedEnum,
    PoolCheck,
    TotalCheck,
    revised,
)

from .rules import (
    RULE_COHESION_TESTS,
    RULE_MORALE_MODIFIERS,
    RULE_MORALE_TESTS,
    RULE_MOVES,
    RULE_ROLL,
)
from .units import MAX_DISRUPTION, Formation, Unit, remove_disruption

TEST_DICE = 3
NATURAL_PASS = frozenset({1})
NATURAL_FAIL = frozenset({12})


class TestKind(NamedEnum):
    """MORALE tests use 2 x quality; COHESION tests use quality + density."""

    __test__ = False  # not a pytest class

    MORALE = "morale"
    COHESION = "cohesion"


class TestResult(NamedEnum):
    """Results by number of successes out of three d12 (Morale: results table)."""

    __test__ = False

    DESTROYED = "destroyed"
    ROUT = "rout"
    PUSHED_BACK = "pushed back"
    CARRY_ON = "carry on"

    @property
    def stays(self) -> bool:
        """The unit is still on the field (not destroyed, not routing)."""
        return self in (TestResult.PUSHED_BACK, TestResult.CARRY_ON)


RESULT_BY_SUCCESSES = (
    TestResult.DESTROYED,
    TestResult.ROUT,
    TestResult.PUSHED_BACK,
    TestResult.CARRY_ON,
)


def result_for(successes: int) -> TestResult:
    """The result for 0..3 successes (Morale: results table)."""
    if not 0 <= successes <= TEST_DICE:
        raise InvalidValueError("successes", successes, "0..3")
    return RESULT_BY_SUCCESSES[successes]


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def need_for_test(
    unit: Unit,
    kind: TestKind,
    commander_attached: bool = False,
    charger_impetus: int | None = None,
    lost_melee_by: int = 0,
    in_woods: bool = False,
) -> Modified:
    """The number each die must roll at or under, with its modifiers (Morale).

    ``charger_impetus`` is the attacker's impetus when the unit is being charged (-1 per point
    above the unit's quality); ``lost_melee_by`` is the difference in losses when testing for
    losing a melee; ``commander_attached`` is true when its commander and/or the CinC is with it.
    """
    if lost_melee_by < 0:
        raise InvalidValueError("lost_melee_by", lost_melee_by, "0 or more")
    quality = unit.quality_in(in_woods)
    if kind is TestKind.MORALE:
        need = Modified(2 * quality, "2 x unit quality", RULE_MORALE_TESTS)
    else:
        need = Modified(quality + unit.density, "unit quality + density", RULE_COHESION_TESTS)
    mods: list[Modifier] = []
    if unit.stamina_steps:
        mods.append(
            Modifier(f"{unit.stamina_steps} x full 6 stamina losses", -2 * unit.stamina_steps,
                     RULE_MORALE_MODIFIERS)
        )
    if charger_impetus is not None and charger_impetus > quality:
        mods.append(
            Modifier("attacker impetus above own quality", quality - charger_impetus,
                     RULE_MORALE_MODIFIERS)
        )
    if lost_melee_by:
        mods.append(Modifier("difference in melee losses", -lost_melee_by, RULE_MORALE_MODIFIERS))
    if commander_attached:
        mods.append(Modifier("commander or CinC attached", 1, RULE_MORALE_MODIFIERS))
    return need.plus(*mods)


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def check_for_test(need: int) -> PoolCheck:
    """Three d12 at or under the need; 1s always succeed, 12s always fail."""
    return PoolCheck(TEST_DICE, need, D12, auto_pass=NATURAL_PASS, auto_fail=NATURAL_FAIL)


@attrs.frozen(cache_hash=True)
class TestOutcome:
    """One morale or cohesion test: its kind, need, successes and result."""

    __test__ = False

    kind: TestKind
    need: int
    successes: int
    result: TestResult

    def __str__(self) -> str:
        plural = "" if self.successes == 1 else "es"
        return (f"{self.kind} test (need {self.need}): {self.successes} success{plural}, "
                f"{self.result}")


def roll_test(
    unit: Unit, kind: TestKind, need: Modified, *, dice: Dice, reason: str = ""
) -> TestOutcome:
    """Roll a morale or cohesion test against ``need`` (Morale)."""
    total = need.total
    successes = dice.roll(
        check_for_test(total), reason=reason or f"{kind} test for {unit.name}", rule=RULE_ROLL
    )
    return TestOutcome(kind, total, successes, RESULT_BY_SUCCESSES[successes])


def take_test(
    unit: Unit,
    kind: TestKind,
    *,
    dice: Dice,
    commander_attached: bool = False,
    charger_impetus: int | None = None,
    lost_melee_by: int = 0,
    in_woods: bool = False,
    reason: str = "",
) -> TestOutcome:
    """Work out the need and roll the test (Morale)."""
    need = need_for_test(unit, kind, commander_attached, charger_impetus, lost_melee_by, in_woods)
    return roll_test(unit, kind, need, dice=dice, reason=reason)


def holds_ground(result: TestResult, *, fortified_or_behind_obstacle: bool = False) -> bool:
    """Whether the unit keeps its place: carry on, or pushed back while in fortifications or
    behind an obstacle (which are not pushed back)."""
    return result is TestResult.CARRY_ON or (
        result is TestResult.PUSHED_BACK and fortified_or_behind_obstacle
    )


@functools.lru_cache(maxsize=4096)  # see docs/rulesets/bloodybacks93.md: Speed
def apply_result(
    unit: Unit, result: TestResult, *, fortified_or_behind_obstacle: bool = False
) -> Unit:
    """The unit after a test result (Morale: results table).

    Destroyed units are gone; a rout raises DRPs to 3 and sets the unit routing; a push back
    destroys deployed (unlimbered) artillery unless it holds its works; a routing unit that
    rolls push back or carry on stops routing (the turn keeps it from acting this turn).
    """
    if result is TestResult.DESTROYED:
        return revised(unit, destroyed=True, routing=False)
    if result is TestResult.ROUT:
        if unit.is_artillery:
            return revised(unit, destroyed=True, routing=False, disruption=MAX_DISRUPTION)
        return revised(unit, routing=True, disruption=MAX_DISRUPTION)
    if (
        result is TestResult.PUSHED_BACK
        and not fortified_or_behind_obstacle
        and unit.formation is Formation.UNLIMBERED
    ):
        return revised(unit, destroyed=True, routing=False)
    if unit.routing:
        return revised(unit, routing=False)
    return unit


def push_back_distance(*, dice: Dice) -> int:
    """Push back move: 2 average dice, in inches (Morale)."""
    return dice.roll(
        TotalCheck.of(2, AVERAGE_DIE), reason="push back move", rule=RULE_MOVES
    )


def rout_distance(unit: Unit, *, dice: Dice) -> int | None:
    """Rout move in inches: infantry 6 + dAv, cavalry 12 + dAv; artillery is destroyed
    (None: no move) (Morale: Rout move)."""
    if unit.is_artillery:
        return None
    base = 12 if unit.is_cavalry else 6
    return dice.roll(
        TotalCheck.of(1, AVERAGE_DIE, modifier=base), reason=f"rout move of {unit.name}",
        rule=RULE_MOVES,
    )


def rally(unit: Unit) -> Unit:
    """A rally action removes one DRP (Rally)."""
    return remove_disruption(unit, 1)
