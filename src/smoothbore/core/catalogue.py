"""Generic dice mechanisms any player can ask about, without a rule book: pools, totals,
thresholds and opposed rolls, described by a dice expression such as ``2d6+1``."""

from __future__ import annotations

from typing import Annotated

from smoothbore.core.chance import Dice
from smoothbore.core.checks import OpposedCheck, PoolCheck, ThresholdCheck, TotalCheck
from smoothbore.core.dice import MAX_SIDES, Die, die, parse_dice
from smoothbore.core.errors import InvalidValueError
from smoothbore.core.ruleset import Help, Mechanism

__all__ = ["DICE_MECHANISMS", "pool", "threshold", "total", "versus"]

_RULE = "generic dice"

MAX_POOL = 10_000
"""The most dice in a generic pool: its exact distribution is a count of successes, so a big
pool is cheap (a dice expression, which lists every face, stops at MAX_DICE)."""


def _faces(field: str, text: str) -> frozenset[int]:
    try:
        return frozenset(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InvalidValueError(field, text, "comma-separated faces such as 1 or 11,12") from None


def _expression(field: str, text: str) -> tuple[tuple[Die, ...], int]:
    """A dice expression, an error naming the parameter it was given as."""
    try:
        return parse_dice(text)
    except InvalidValueError as error:
        raise InvalidValueError(field, text, error.allowed) from None


def pool(
    *,
    dice: Dice,
    count: Annotated[int, Help("how many dice", low=0, high=MAX_POOL)] = 6,
    sides: Annotated[int, Help("sides of each die", low=1, high=MAX_SIDES)] = 12,
    need: Annotated[int, "a die succeeds at or under this (over with over=yes)"] = 7,
    over: Annotated[bool, "succeed at or over the need instead"] = False,
    auto_pass: Annotated[str, "faces that always succeed, comma-separated"] = "1",
    auto_fail: Annotated[str, "faces that always fail, comma-separated"] = "12",
) -> int:
    """Successes in a pool of ``count`` d``sides``, each at or under ``need`` (or over)."""
    passes, fails = _faces("auto_pass", auto_pass), _faces("auto_fail", auto_fail)
    if passes & fails:
        raise InvalidValueError("auto_pass", auto_pass, f"faces not also in auto_fail={auto_fail}")
    check = PoolCheck(count, need, die(sides), not over, passes, fails)
    return dice.roll(check, reason="pool", rule=_RULE)


def total(
    *, dice: Dice, roll: Annotated[str, "dice expression, e.g. 2d6+1, 3dAv, d10-2"] = "2d6"
) -> int:
    """The total of a dice expression such as ``2d6+1`` or ``3dAv``."""
    return dice.roll(TotalCheck(*_expression("roll", roll)), reason="total", rule=_RULE)


def threshold(
    *,
    dice: Dice,
    roll: Annotated[str, "dice expression"] = "2d6",
    target: Annotated[int, "the score to reach"] = 7,
    under: Annotated[bool, "pass at or under the target instead"] = False,
) -> bool:
    """Whether a dice expression reaches ``target`` (at least, or at most with ``under``)."""
    faces, modifier = _expression("roll", roll)
    check = ThresholdCheck(faces, target, modifier, at_least=not under)
    return dice.roll(check, reason="threshold", rule=_RULE)


def versus(
    *,
    dice: Dice,
    roll: Annotated[str, "the first expression"] = "d6",
    against: Annotated[str, "the second expression"] = "d6",
) -> int:
    """One expression rolled against another: the first total minus the second."""
    check = OpposedCheck(
        TotalCheck(*_expression("roll", roll)), TotalCheck(*_expression("against", against))
    )
    return dice.roll(check, reason="opposed", rule=_RULE)


DICE_MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism.of(pool, _RULE, summary="successes in a pool of dice rolled against a need"),
    Mechanism.of(total, _RULE, summary="the total of a dice expression"),
    Mechanism.of(threshold, _RULE, summary="whether a dice expression reaches a target"),
    Mechanism.of(versus, _RULE, summary="one dice expression against another (difference)"),
)
