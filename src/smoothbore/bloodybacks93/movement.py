"""Movement, retrograde movement, interpenetration and passage of lines (Bloodybacks 9.3,
Movement; Retrograde movement; Interpenetration; Passage of lines)."""

from __future__ import annotations

import attrs

from smoothbore.core import (
    AVERAGE_DIE,
    D3,
    D12,
    Dice,
    FacesCheck,
    IllegalActionError,
    NamedEnum,
    TotalCheck,
)
from smoothbore.core.validate import one_of

from .morale import TestKind, TestOutcome, apply_result, take_test
from .rules import RULE_MOVEMENT, RULE_PASSAGE, RULE_RETROGRADE
from .units import FLAG, MAX_DISRUPTION, Formation, Unit, UnitType, add_disruption


class Terrain(NamedEnum):
    """Terrain moved through (Movement)."""

    OPEN = "open"
    LIGHT_WOODS = "light woods"
    HEAVY_WOODS = "heavy woods"
    DIFFICULT = "difficult terrain"
    STEEP_HILL = "up a steep hill"

    @property
    def rough(self) -> bool:
        """Heavy woods, difficult terrain and steep hills disrupt deployed units."""
        return self in (Terrain.HEAVY_WOODS, Terrain.DIFFICULT, Terrain.STEEP_HILL)


@attrs.frozen(cache_hash=True)
class MoveFacts:
    """What the players know of one move action: the terrain, whether on a road, whether it
    crosses a minor obstacle, and whether it is a retrograde (backwards) move."""

    terrain: Terrain = attrs.field(default=Terrain.OPEN, validator=one_of(*Terrain))
    road: bool = attrs.field(default=False, validator=FLAG)
    obstacle: bool = attrs.field(default=False, validator=FLAG)
    retrograde: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class Move:
    """One move action: the distances the unit may move (cavalry choose exactly one of theirs,
    others move up to the distance), the unit afterwards, and any morale test taken."""

    distances: tuple[int, ...]
    unit: Unit
    disruption_taken: int = 0
    morale: TestOutcome | None = None

    @property
    def distance(self) -> int:
        """The longest distance allowed."""
        return max(self.distances)

    def __str__(self) -> str:
        if len(self.distances) == 1:
            text = f'moves up to {self.distances[0]}"'
        else:
            text = "moves exactly one of " + ", ".join(f'{d}"' for d in self.distances)
        if self.disruption_taken:
            text += f", +{self.disruption_taken} DRP"
        if self.morale is not None:
            text += f"; {self.morale}"
        return text


def check_move(unit: Unit, facts: MoveFacts) -> None:
    """Raise IllegalActionError for a move the rules forbid."""
    if facts.obstacle and unit.is_artillery:
        raise IllegalActionError("move", "artillery may not cross obstacles", RULE_MOVEMENT)
    if facts.terrain.rough and unit.formation is Formation.UNLIMBERED:
        raise IllegalActionError(
            "move", f"deployed artillery cannot move in {facts.terrain}", RULE_MOVEMENT
        )
    if facts.retrograde and (unit.is_cavalry or unit.formation is Formation.LIMBERED):
        raise IllegalActionError(
            "move", "cavalry and limbered artillery may not move backwards: about face first",
            RULE_RETROGRADE,
        )
    if unit.routing or unit.destroyed:
        raise IllegalActionError("move", f"{unit.name} cannot take actions", RULE_MOVEMENT)


def cavalry_choices(first: int, second: int, terrain: Terrain) -> tuple[int, ...]:
    """Deployed cavalry move exactly either die, their sum or their difference; in rough
    terrain they cannot combine them, and in heavy woods they take the lower."""
    if terrain is Terrain.HEAVY_WOODS:
        return (min(first, second),)
    if terrain.rough:
        return tuple(sorted({first, second}))
    return tuple(sorted({first, second, first + second, abs(first - second)}))


def _unlimbered_roll(unit: Unit, dice: Dice) -> int:
    reason = f"unlimbered move of {unit.name}"
    if unit.kind in (UnitType.HEAVY_ARTILLERY, UnitType.SIEGE_ARTILLERY):
        return dice.roll(TotalCheck.of(1, D3), reason=reason, rule=RULE_MOVEMENT)
    bonus = 0 if unit.kind is UnitType.FIELD_ARTILLERY else 2
    return dice.roll(TotalCheck.of(1, AVERAGE_DIE, bonus), reason=reason, rule=RULE_MOVEMENT)


def fixed_distance(unit: Unit, facts: MoveFacts) -> int | None:
    """The distance of one move action where the text fixes it (foot, columns, limbered
    guns), before terrain deductions; None where it is rolled (deployed cavalry, unlimbered
    guns) (Movement)."""
    if unit.is_infantry:
        if unit.formation is Formation.COLUMN:
            return 12 if facts.road else 9
        return 12 - unit.density
    if unit.is_cavalry:
        if unit.formation is Formation.COLUMN:
            return 18 if facts.road else 12
        return None
    if unit.formation is Formation.LIMBERED:
        return 12 if facts.road else 6
    return None


def base_distances(unit: Unit, facts: MoveFacts, *, dice: Dice) -> tuple[int, ...]:
    """Distances for one move action before terrain deductions (Movement)."""
    fixed = fixed_distance(unit, facts)
    if fixed is not None:
        return (fixed,)
    if unit.is_cavalry:
        faces = dice.roll(
            FacesCheck((D12, D12)), reason=f"cavalry move of {unit.name}", rule=RULE_MOVEMENT
        )
        return cavalry_choices(faces[0], faces[1], facts.terrain)
    return (_unlimbered_roll(unit, dice),)


def move(unit: Unit, facts: MoveFacts, *, dice: Dice, commander_attached: bool = False) -> Move:
    """One move action: distance allowed and the disruption it costs (Movement).

    Crossing a minor obstacle costs 1 DRP; rough terrain costs a deployed unit 1 DRP; heavy
    woods take 2" off infantry and artillery; a retrograde move costs 1 DRP, or a morale test
    if the unit already has 3 (``commander_attached``: its commander or the CinC is with it).
    """
    check_move(unit, facts)
    distances = base_distances(unit, facts, dice=dice)
    if facts.terrain is Terrain.HEAVY_WOODS and not unit.is_cavalry:
        distances = tuple(max(0, d - 2) for d in distances)
    deployed = unit.formation in (Formation.DEPLOYED, Formation.UNLIMBERED)
    drp = int(facts.obstacle) + int(facts.terrain.rough and deployed)
    moved = add_disruption(unit, drp)
    morale = None
    if facts.retrograde:
        if unit.disruption >= MAX_DISRUPTION:
            morale = take_test(moved, TestKind.MORALE, dice=dice,
                               commander_attached=commander_attached,
                               reason=f"retrograde move of {unit.name} at 3 DRP")
            moved = apply_result(moved, morale.result)
        else:
            drp += 1
            moved = add_disruption(moved, 1)
    return Move(distances, moved, min(drp, MAX_DISRUPTION - unit.disruption), morale)


def _formed_infantry(unit: Unit) -> bool:
    return unit.is_infantry and unit.density >= 5


def is_passage_of_lines(mover: Unit, static: Unit) -> bool:
    """Infantry of density 5+ moving through infantry of density 5+ or unlimbered artillery:
    the passage of lines governs it, not interpenetration (Passage of lines; B25)."""
    return _formed_infantry(mover) and (
        _formed_infantry(static) or static.formation is Formation.UNLIMBERED
    )


def may_interpenetrate(mover: Unit, other: Unit) -> bool:
    """Unlimbered artillery and infantry of density 3 or 4 pass through any friendly unit, and
    any friendly unit may pass through them (Interpenetration), except where formed infantry
    makes a passage of lines through formed infantry or guns (Passage of lines; B25)."""

    def open_unit(u: Unit) -> bool:
        return u.formation is Formation.UNLIMBERED or (u.is_infantry and u.density <= 4)

    return (open_unit(mover) or open_unit(other)) and not is_passage_of_lines(mover, other)


def passage_allowed(mover: Unit, static: Unit) -> bool:
    """Passage of lines: infantry of density 5+ through infantry of density 5+ or unlimbered
    artillery, both of quality 3 or more."""
    return is_passage_of_lines(mover, static) and mover.quality >= 3 and static.quality >= 3


def passage_disruption(mover: Unit, static: Unit) -> int:
    """DRPs each unit takes on a partial failure: by the lowest infantry density involved,
    1 at 5, 2 at 6, 3 at 7 or more (artillery crews do not count)."""
    densities = [u.density for u in (mover, static) if u.is_infantry]
    lowest = min(densities)
    return 1 if lowest <= 5 else 2 if lowest == 6 else 3


class PassageResult(NamedEnum):
    """Outcome of the passage of lines roll."""

    BLOCKED = "fails: the moving unit stops at contact"
    CLEAN = "passes through"
    DISORDERED = "passes through, both units disrupted"


@attrs.frozen
class Passage:
    """The passage roll, its result and both units afterwards (with any morale tests)."""

    roll: int
    result: PassageResult
    mover: Unit
    static: Unit
    tests_by_unit: tuple[TestOutcome | None, TestOutcome | None] = (None, None)
    """The morale tests of the mover and of the static unit (None: no test)."""
    drp: int = 0
    """The DRPs each unit takes on a partial failure (a unit at 3 tests instead)."""

    @property
    def tests(self) -> tuple[TestOutcome, ...]:
        """The morale tests taken."""
        return tuple(t for t in self.tests_by_unit if t is not None)

    def __str__(self) -> str:
        text = f"rolled {self.roll}: {self.result}"
        if self.result is not PassageResult.DISORDERED:
            return text
        parts = []
        for unit, test in zip((self.mover, self.static), self.tests_by_unit, strict=True):
            if test is None:
                parts.append(f"{unit.name} +{self.drp} DRP (now {unit.disruption})")
            else:
                parts.append(f"{unit.name}, already at 3 DRP, takes a {test}")
        return f"{text}: " + "; ".join(parts)


def passage_of_lines(
    mover: Unit,
    static: Unit,
    *,
    dice: Dice,
    mover_commander_attached: bool = False,
    static_commander_attached: bool = False,
) -> Passage:
    """Roll a d12 for one unit moving through another (Passage of lines).

    1 fails; at or above the two qualities combined passes cleanly; otherwise each unit takes
    DRPs by the lowest density, or a morale test if already at 3. That test gets +1 when the
    unit's commander and/or the CinC is attached to it (Morale: Modifiers).
    """
    if not passage_allowed(mover, static):
        raise IllegalActionError(
            "passage of lines", "needs density 5+ infantry (or unlimbered artillery) of "
            "quality 3+", RULE_PASSAGE,
        )
    roll = dice.roll(TotalCheck.of(1, D12), reason="passage of lines", rule=RULE_PASSAGE)
    if roll == 1:
        return Passage(roll, PassageResult.BLOCKED, mover, static)
    if roll >= mover.quality + static.quality:
        return Passage(roll, PassageResult.CLEAN, mover, static)
    drp = passage_disruption(mover, static)
    after: list[Unit] = []
    tests: list[TestOutcome | None] = []
    attached = (mover_commander_attached, static_commander_attached)
    for unit, with_commander in zip((mover, static), attached, strict=True):
        if unit.disruption >= MAX_DISRUPTION:
            test = take_test(unit, TestKind.MORALE, dice=dice, commander_attached=with_commander,
                             reason=f"{unit.name} disordered by passage of lines at 3 DRP")
            tests.append(test)
            after.append(apply_result(unit, test.result))
        else:
            tests.append(None)
            after.append(add_disruption(unit, drp))
    return Passage(roll, PassageResult.DISORDERED, after[0], after[1], (tests[0], tests[1]),
                   drp)
