"""Small arms and artillery fire (McKie ACW): who may fire, the figures or guns firing, the
basic weapon/range factor and the tactical factors, the casualty table, the percentage roll
for the extra figure, and counter-battery fire."""

from __future__ import annotations

import functools

import attrs

from smoothbore.core import (
    D10,
    Dice,
    IllegalActionError,
    InvalidValueError,
    Modified,
    Modifier,
    ThresholdCheck,
    TotalCheck,
    check_range,
    die,
)

from . import rules
from .fields import check_fields
from .tables import DEFAULT_TABLES, Cell, Tables
from .units import (
    DIG_PERIODS,
    EXHAUSTED_AT,
    FULL_CREW,
    TIRED_AT,
    Arm,
    Formation,
    Ground,
    Quality,
    Unit,
    Weapon,
)

D100 = die(100)
"""The percentage roll: the d10 thrown twice, tens then units (00 read as 100)."""
COLUMN_FRONT = 4
"""Figures in the front rank of a column (M12)."""
VISIBLE_WITHIN = 20
"""Visibility: within dense woods and towns, 20 mm."""
ARC = 45
"""Restrictions on firing: no target more than 45 degrees left or right of the front."""


def front_rank(unit: Unit) -> int:
    """Figures in the front rank (Restrictions on firing: only they fire): half a two-rank
    line rounded up, four in a column, all in skirmish order; dismounted cavalry less every
    fourth figure holding horses (Movement)."""
    figures = unit.figures - unit.horseholders
    if unit.formation is Formation.SKIRMISH:
        return figures
    if unit.formation is Formation.COLUMN:
        return min(COLUMN_FRONT, figures)
    return (figures + 1) // 2


def guns_firing(unit: Unit) -> int:
    """Guns firing from a gun model: its pieces, in proportion to a crew of 4 (helpers make
    up the crew, never above 4), rounded down (Formation and strength of units)."""
    return unit.pieces * unit.crew // FULL_CREW


def eligible(unit: Unit) -> int:
    """Figures or guns that may fire (Firing procedure 2)."""
    return guns_firing(unit) if unit.is_gun else front_rank(unit)


@attrs.frozen(cache_hash=True)
class FireFacts:
    """What the firing player measures: ``range`` in mm from the centre of the firing unit
    (Firing procedure 1), ``figures`` firing (0: every eligible figure or gun), the
    ``angle`` off its front, whether it rests its weapons, whether the target is at the edge
    of dense woods or a town (so seen), whether the fire comes from the target's flank or rear,
    whether it passes over friends (only from higher ground or at a higher target), and
    whether it crosses an obstacle just before the target (which covers it, M31)."""

    range: int = 20
    figures: int = 0
    angle: int = 0
    resting: bool = False
    target_at_edge: bool = True
    flank: bool = False
    rear: bool = False
    over_friends: bool = False
    from_higher_ground: bool = False
    across_obstacle: bool = False

    def __attrs_post_init__(self) -> None:
        # range 0-2000, figures 0 up, angle 0-180, checked inline (made at every fire)
        r, f, a = self.range, self.figures, self.angle
        if not (type(r) is int and 0 <= r <= 2000):
            check_range("FireFacts.range", r, 0, 2000)
        if not (type(f) is int and f >= 0):
            check_range("FireFacts.figures", f, 0)
        if not (type(a) is int and 0 <= a <= 180):
            check_range("FireFacts.angle", a, 0, 180)
        check_fields(self)  # every other field of its type (issue 28)


def check_can_fire(firer: Unit, target: Unit, facts: FireFacts, moved: bool, tables: Tables,
                   action: object) -> None:
    """Restrictions on firing and Visibility, roll-free: raises IllegalActionError."""
    problem = _firer_problem(firer, facts, moved, tables)
    if problem is None and (not facts.target_at_edge and facts.range > VISIBLE_WITHIN
                            and target.ground.hides):
        problem = (f"{target.name} is inside {target.ground} and seen only within "
                   f"{VISIBLE_WITHIN} mm", rules.VISIBILITY)
    if problem is not None:
        raise IllegalActionError(action, *problem)


@functools.lru_cache(maxsize=4096)
def _firer_problem(firer: Unit, facts: FireFacts, moved: bool, tables: Tables
                   ) -> tuple[str, str] | None:
    """What forbids this firer firing with these facts, whatever the target (remembered: a
    firer is offered the same facts at every target), and the rule; None if nothing."""
    def no(why: str, rule: str = rules.FIRING_RESTRICTIONS) -> tuple[str, str]:
        return why, rule

    if firer.arm is Arm.ARTILLERY:
        if firer.limbered:
            return no(f"{firer.name} is limbered")
        if firer.crew == 0:
            return no(f"{firer.name} has no crew left", rules.ARTILLERY_CREW)
        if moved and firer.weapon.is_heavy:
            return no("siege guns and mortars may not move and fire")
    if facts.angle > ARC:
        return no(f"the target is {facts.angle} degrees off the front (at most {ARC})")
    if facts.over_friends and not facts.from_higher_ground:
        return no("only troops on higher ground fire over intervening troops")
    row = tables.weapon(firer.weapon)
    if row.factor(facts.range) is None:
        return no(f"{facts.range} mm is beyond the {firer.weapon} ({row.reach} mm)",
                  rules.WEAPONS)
    gun = firer.arm is Arm.ARTILLERY
    can = guns_firing(firer) if gun else front_rank(firer)
    if facts.figures > can:
        return no(f"only {can} figures or guns of {firer.name} may fire")
    count = facts.figures or can  # firing_count
    if count < 1:
        return no(f"no figure or gun of {firer.name} can fire")
    if firer.ammo < (1 if gun else count):  # rounds_needed
        return no(f"{firer.name} has {firer.ammo} rounds left", rules.AMMUNITION)
    return None


def firing_count(firer: Unit, facts: FireFacts) -> int:
    """Figures or guns firing: those the player says, or every eligible one."""
    return facts.figures or eligible(firer)


def rounds_needed(firer: Unit, facts: FireFacts) -> int:
    """Ammunition: a round for each figure firing, or one for the gun model (M10)."""
    return 1 if firer.is_gun else firing_count(firer, facts)


FIRE_FACTORS: tuple[tuple[str, int], ...] = (
    ("resting weapons", 1),
    ("target over two ranks deep", 2),
    ("first volley or shot in the battle", 2),
    ("armed with repeating weapons", 2),
    ("raw troops firing", -1),
    ("target moved position this period", -1),
    ("target in cover", -2),
    ("target is unlimbered artillery", -2),
    ("firing unit is tired", -2),
    ("cavalry firing while mounted", -2),
    ("firing unit has moved or changed formation", -3),
    ("firing unit is exhausted", -4),
    ("target in skirmish order", -4),
    ("target in permanent defenses", -5),
)
"""Small arms and artillery fire: Tactical factors, in the text's order."""


def fire_terms(firer: Unit, target: Unit, facts: FireFacts, moved: bool,
               target_moved: bool) -> tuple[bool, ...]:
    """Which tactical factors apply, one flag per row of ``FIRE_FACTORS`` (the one place the
    conditions are written)."""
    ground = target.ground
    permanent = ground is Ground.PERMANENT
    effort = firer.effort
    target_gun = target.arm is Arm.ARTILLERY
    return (
        facts.resting,
        target.formation is Formation.COLUMN and not target_gun,
        not firer.has_fired,
        firer.weapon is Weapon.REPEATING_RIFLE,
        firer.quality is Quality.RAW,
        target_moved,
        (ground.is_cover and not permanent and ground is not Ground.BEHIND_OBSTACLE)
        or target.dug >= DIG_PERIODS or facts.across_obstacle,
        target_gun and not target.limbered,
        TIRED_AT <= effort < EXHAUSTED_AT,
        firer.arm is Arm.CAVALRY and firer.mounted,
        moved,
        effort >= EXHAUSTED_AT,
        target.formation is Formation.SKIRMISH,
        permanent,
    )


def _basic(firer: Unit, facts: FireFacts, tables: Tables) -> int:
    basic = tables.weapon(firer.weapon).factor(facts.range)
    if basic is None:
        raise InvalidValueError("range", facts.range, f"within the {firer.weapon}'s reach")
    return basic


def fire_total(
    firer: Unit, target: Unit, facts: FireFacts, *, moved: bool, target_moved: bool,
    tables: Tables = DEFAULT_TABLES,
) -> int:
    """The final firing factor as a number (what ``fire_factor`` explains)."""
    total = _basic(firer, facts, tables)
    for (_, value), on in zip(FIRE_FACTORS, fire_terms(firer, target, facts, moved,
                                                       target_moved), strict=True):
        if on:
            total += value
    return total


def fire_factor(
    firer: Unit, target: Unit, facts: FireFacts, *, moved: bool, target_moved: bool,
    tables: Tables = DEFAULT_TABLES,
) -> Modified:
    """Firing procedure 3-4: the basic weapon/range factor plus the tactical factors, each
    labelled with its rule."""
    basic = _basic(firer, facts, tables)
    r = rules.FIRING_FACTORS
    terms = fire_terms(firer, target, facts, moved, target_moved)
    return Modified(basic, f"{firer.weapon} at {facts.range} mm", rules.WEAPONS).plus(
        *(Modifier(label, value, r) for (label, value), on in zip(FIRE_FACTORS, terms,
                                                                   strict=True) if on)
    )


def casualties(factor: int, firing: int, tables: Tables = DEFAULT_TABLES) -> Cell:
    """Firing procedure 5: the casualty table crossed with the figures or guns firing."""
    return tables.casualties.cell(factor, firing)


def add_cells(*cells: Cell) -> Cell:
    """Casualties from several sources added before the dice (Explanation of casualty table):
    definite figures and percentages summed, each full 100 per cent one more figure (M9)."""
    definite = sum(c.definite for c in cells)
    extra, percent = divmod(sum(c.percent for c in cells), 100)
    return Cell(definite + extra, percent)


def figures_lost(cell: Cell, *, dice: Dice, reason: str = "extra figure") -> int:
    """The definite figures plus one more on a percentage roll at or under the chance."""
    if cell.percent == 0:
        return cell.definite
    extra = dice.roll(_percent_check(cell.percent), reason=reason, rule=rules.CASUALTY_TABLE)
    return cell.definite + (1 if extra else 0)


_D10 = TotalCheck((D10,))


@functools.lru_cache(maxsize=128)
def _percent_check(percent: int) -> ThresholdCheck:
    """The percentage roll: the d100 at or under the chance."""
    return ThresholdCheck((D100,), percent, at_least=False)


def counter_battery(factor: int, *, dice: Dice, tables: Tables = DEFAULT_TABLES) -> int:
    """Counter battery fire: a battery fired on by enemy guns throws a d10 on the row of the
    fire's final factor and loses that many pieces (0 below the table)."""
    row = tables.counter_battery_row(factor)
    if row is None:
        return 0
    score = dice.roll(_D10, reason="counter-battery", rule=rules.COUNTER_BATTERY)
    return row.pieces(score)
