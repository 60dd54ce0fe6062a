"""AWI Campaign Rules (Draft): campaign points, battle casualties, weekly attrition and
recruitment, European replacements, overstrength units, the replacement pool, forced marches."""

from __future__ import annotations

import enum
from types import MappingProxyType

import attrs

from smoothbore.core import (
    D6,
    Dice,
    IllegalActionError,
    InvalidValueError,
    TotalCheck,
    at_least,
    revised,
)

from . import rules
from .units import FLAG

POINTS_PER_SP = 20
FULL_UNIT = 100
MAX_POINTS = 120
POOL_UNIT = 100


def to_campaign_points(strength: int) -> int:
    """Battle strength points times 20."""
    return strength * POINTS_PER_SP


def to_strength(points: int) -> int:
    """Campaign points / 20 rounded to nearest, halves up."""
    if points < 0:
        raise InvalidValueError("points", points, "0 or more")
    return (points + POINTS_PER_SP // 2) // POINTS_PER_SP


def battle_casualties(
    points: int,
    lost: int,
    captured: int = 0,
    reduced_to_zero: bool = False,
    another_battle_today: bool = False,
) -> tuple[int, int]:
    """Points after a battle: -5 per SP lost, -10 more if reduced to zero, -10 per SP captured.
    Returns (permanent points, points for another battle the same day: a further -5 per SP
    lost, temporarily)."""
    if lost < 0 or captured < 0:
        raise InvalidValueError("lost", (lost, captured), "0 or more")
    after = points - 5 * lost - 10 * captured - (10 if reduced_to_zero else 0)
    after = max(0, after)
    today = max(0, after - 5 * lost) if another_battle_today else after
    return after, today


class UnitKind(enum.Enum):
    """Pools and attrition classes."""

    CONTINENTAL = "continental"
    LOYALIST = "loyalist"
    MILITIA = "militia"
    EUROPEAN = "european"


def continental_attrition(face: int, four_loses: bool = False) -> int:
    """End of week, Continentals and loyalists: 1-3 no loss, 5-6 lose 5 (4 is not given: no
    loss, or -5 with the option)."""
    if face >= 5 or (face == 4 and four_loses):
        return -5
    return 0


def continental_recruitment(face: int) -> int:
    """1-2 none; 3: +5; 4-5: +10; 6: +15."""
    return {1: 0, 2: 0, 3: 5, 4: 10, 5: 10, 6: 15}[face]


GOES_HOME = -1000


def militia_week(face: int) -> int:
    """1 whole unit goes home; 2: -10; 3: -5; 4: +5; 5: +10; 6: +15."""
    return {1: GOES_HOME, 2: -10, 3: -5, 4: 5, 5: 10, 6: 15}[face]


@attrs.frozen(order=True)
class WeekResult:
    """A unit's points after its week, whether it is still present, and the points above 120
    that go to the replacement pool (Overstrength units)."""

    points: int
    present: bool = attrs.field(default=True, validator=FLAG)
    to_pool: int = 0

    def __str__(self) -> str:
        if not self.present:
            return "gone home"
        return f"{self.points} points" + (f" (+{self.to_pool} to the pool)" if self.to_pool else "")


def _week_result(total: int) -> WeekResult:
    kept, excess = cap_strength(max(0, total))
    return WeekResult(kept, to_pool=excess)


def continental_week(points: int, *, dice: Dice, four_loses: bool = False) -> WeekResult:
    """A Continental or loyalist unit's week: attrition then recruitment; points above 120 go
    to the replacement pool."""
    loss = dice.roll(
        TotalCheck.of(1, D6), reason="end of enlistment", rule=rules.CAMPAIGN_CONTINENTAL
    )
    gain = dice.roll(TotalCheck.of(1, D6), reason="recruitment", rule=rules.CAMPAIGN_CONTINENTAL)
    total = points + continental_attrition(loss, four_loses) + continental_recruitment(gain)
    return _week_result(total)


def militia_unit_week(points: int, *, dice: Dice) -> WeekResult:
    """A militia unit's week: it may go home or change strength (above 120 to the pool)."""
    face = dice.roll(TotalCheck.of(1, D6), reason="militia week", rule=rules.CAMPAIGN_MILITIA)
    change = militia_week(face)
    if change == GOES_HOME:
        return WeekResult(0, present=False)
    return _week_result(points + change)


def militia_return(absent: int, *, dice: Dice) -> bool:
    """1d6 at or under the number of absent militia units: they all return at full strength."""
    if absent < 0:
        raise InvalidValueError("absent", absent, "0 or more")
    if absent == 0:
        return False
    face = dice.roll(TotalCheck.of(1, D6), reason="militia return", rule=rules.CAMPAIGN_MILITIA)
    return face <= absent


def european_replacements(*, dice: Dice) -> int:
    """Per nationality each week: a 6 gives all its units 10 points."""
    face = dice.roll(
        TotalCheck.of(1, D6), reason="replacements by sea", rule=rules.CAMPAIGN_EUROPEAN
    )
    return 10 if face == 6 else 0


def loyalist_fill(british: int, loyalist: int, points: int) -> tuple[int, int]:
    """Loyalists filling a British regiment: up to 10 points a week, the loyalists lose double."""
    if not 0 <= points <= 10:
        raise InvalidValueError("points", points, "0 to 10 a week")
    if 2 * points > loyalist:
        raise IllegalActionError(
            points, "the loyalist unit cannot lose that many", rules.CAMPAIGN_EUROPEAN
        )
    return british + points, loyalist - 2 * points


def cap_strength(points: int) -> tuple[int, int]:
    """No unit above 120 points: (kept, excess to the replacement pool)."""
    return min(points, MAX_POINTS), max(0, points - MAX_POINTS)


def balance_regiment(points: tuple[int, ...]) -> tuple[int, ...]:
    """European units of one regiment in one place share their points evenly (the remainder
    to the first units)."""
    if not points:
        return ()
    total, n = sum(points), len(points)
    return tuple(total // n + (1 if i < total % n else 0) for i in range(n))


class PoolType(enum.Enum):
    ARTILLERY = "artillery"
    CAVALRY = "cavalry"
    LINE = "line infantry"
    MILITIA = "militia"
    OPEN_ORDER = "open order"
    RIFLES = "rifles"


DOWNGRADES = MappingProxyType(
    {PoolType.LINE: PoolType.MILITIA, PoolType.RIFLES: PoolType.OPEN_ORDER}
)


@attrs.frozen
class Pool:
    """One nationality's replacement pool for one troop type."""

    nationality: str
    kind: PoolType
    points: int = attrs.field(default=0, validator=at_least(0))


def add_to_pool(pool: Pool, points: int) -> tuple[Pool, int]:
    """Add points; each full 100 makes a standard unit (eliminated units first). Returns the
    pool and how many units it raises."""
    total = pool.points + points
    if total < 0:
        raise InvalidValueError("points", points, "not more than the pool holds")
    units, left = divmod(total, POOL_UNIT)
    return revised(pool, points=left), units


def downgrade(source: Pool, target: Pool, points: int) -> tuple[Pool, Pool]:
    """Line points may go to militia, rifle points to open order."""
    if DOWNGRADES.get(source.kind) is not target.kind or source.nationality != target.nationality:
        raise IllegalActionError(
            points, "only line to militia or rifles to open order", rules.CAMPAIGN_POOL
        )
    if not 0 <= points <= source.points:
        raise InvalidValueError("points", points, f"0 to {source.points}")
    return revised(source, points=source.points - points), revised(
        target, points=target.points + points
    )


def forced_march_loss(
    extra_percent: int, face: int, militia: bool = False, bad_weather: bool = False
) -> int:
    """Permanent loss for marching further than normal in a day (+1 militia, +1 adverse
    weather, above 6 counts as 6). Up to 50% extra: 5: 5, 6: 10. 51-100%: 3-4: 5, 5: 10,
    6: 20. More than double the day's march is not allowed."""
    if extra_percent < 0:
        raise InvalidValueError("extra_percent", extra_percent, "0 or more")
    if extra_percent > 100:
        raise IllegalActionError(
            extra_percent, "no unit marches more than double", rules.CAMPAIGN_FORCED
        )
    if extra_percent == 0:
        return 0
    score = min(6, face + int(militia) + int(bad_weather))
    if extra_percent <= 50:
        return {5: 5, 6: 10}.get(score, 0)
    return {3: 5, 4: 5, 5: 10, 6: 20}.get(score, 0)


def forced_march(
    extra_percent: int, militia: bool = False, bad_weather: bool = False, *, dice: Dice
) -> int:
    """Roll the forced-march loss."""
    if extra_percent == 0:
        forced_march_loss(0, 1)
        return 0
    face = dice.roll(TotalCheck.of(1, D6), reason="forced march", rule=rules.CAMPAIGN_FORCED)
    return forced_march_loss(extra_percent, face, militia, bad_weather)
