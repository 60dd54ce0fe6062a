"""Generic dice mechanisms any player can ask about, without a rule book: pools, totals,
thresholds and opposed rolls, described by a dice expression such as ``2d6+1``."""

from __future__ import annotations

from smoothbore.core.chance import Dice
from smoothbore.core.checks import OpposedCheck, PoolCheck, ThresholdCheck, TotalCheck
from smoothbore.core.dice import D12, parse_dice
from smoothbore.core.errors import InvalidValueError
from smoothbore.core.ruleset import Mechanism, Parameter

__all__ = ["DICE_MECHANISMS", "pool", "threshold", "total", "versus"]

_RULE = "generic dice"


def _faces(field: str, text: str) -> frozenset[int]:
    try:
        return frozenset(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InvalidValueError(field, text, "comma-separated faces such as 1 or 11,12") from None


def pool(
    *, dice: Dice, count: int = 6, sides: int = 12, need: int = 7, over: bool = False,
    auto_pass: str = "1", auto_fail: str = "12",
) -> int:
    """Successes in a pool of ``count`` d``sides``, each at or under ``need`` (or over)."""
    die = D12 if sides == 12 else parse_dice(f"d{sides}")[0][0]
    check = PoolCheck(
        count, need, die, not over, _faces("auto_pass", auto_pass), _faces("auto_fail", auto_fail)
    )
    return dice.roll(check, reason="pool", rule=_RULE)


def total(*, dice: Dice, roll: str = "2d6") -> int:
    """The total of a dice expression such as ``2d6+1`` or ``3dAv``."""
    faces, modifier = parse_dice(roll)
    return dice.roll(TotalCheck(faces, modifier), reason="total", rule=_RULE)


def threshold(*, dice: Dice, roll: str = "2d6", target: int = 7, under: bool = False) -> bool:
    """Whether a dice expression reaches ``target`` (at least, or at most with ``under``)."""
    faces, modifier = parse_dice(roll)
    check = ThresholdCheck(faces, target, modifier, at_least=not under)
    return dice.roll(check, reason="threshold", rule=_RULE)


def versus(*, dice: Dice, roll: str = "d6", against: str = "d6") -> int:
    """One expression rolled against another: the first total minus the second."""
    a, b = parse_dice(roll), parse_dice(against)
    check = OpposedCheck(TotalCheck(*a), TotalCheck(*b))
    return dice.roll(check, reason="opposed", rule=_RULE)


DICE_MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism(
        "pool", "successes in a pool of dice rolled against a need", _RULE, pool,
        (
            Parameter("count", int, 6, "how many dice"),
            Parameter("sides", int, 12, "sides of each die"),
            Parameter("need", int, 7, "a die succeeds at or under this (over with over=yes)"),
            Parameter("over", bool, False, "succeed at or over the need instead"),
            Parameter("auto_pass", str, "1", "faces that always succeed, comma-separated"),
            Parameter("auto_fail", str, "12", "faces that always fail, comma-separated"),
        ),
    ),
    Mechanism(
        "total", "the total of a dice expression", _RULE, total,
        (Parameter("roll", str, "2d6", "dice expression, e.g. 2d6+1, 3dAv, d10-2"),),
    ),
    Mechanism(
        "threshold", "whether a dice expression reaches a target", _RULE, threshold,
        (
            Parameter("roll", str, "2d6", "dice expression"),
            Parameter("target", int, 7, "the score to reach"),
            Parameter("under", bool, False, "pass at or under the target instead"),
        ),
    ),
    Mechanism(
        "versus", "one dice expression against another (difference)", _RULE, versus,
        (
            Parameter("roll", str, "d6", "the first expression"),
            Parameter("against", str, "d6", "the second expression"),
        ),
    ),
)
