"""Melee (McKie ACW, Melee): who fights, the basic fighting factor and tactical factors
(reconstructed, data/melee.toml), casualties read on the casualty table as firing, and the
result: the side that suffered more than it inflicted has lost."""

from __future__ import annotations

import attrs

from smoothbore.core import Dice, Modified, Modifier, NamedEnum, at_least

from . import rules
from .firing import figures_lost, front_rank
from .tables import DEFAULT_TABLES, Cell, Tables
from .units import Arm, Formation, Ground, Quality, Unit

OVERLAP = 1
"""Melee: a figure overlapping on either flank fights too."""


class Attack(NamedEnum):
    """Where a unit is attacked from (Morale and Melee tactical factors)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


def face_figures(unit: Unit, face: Attack) -> int:
    """Figures on one face of a unit (M15): its front rank; on a flank its file, one figure
    from each rank; at the rear its last rank. A gun model's crew and helpers fight beside it
    whichever face is struck."""
    if unit.is_gun:
        return unit.crew
    front = front_rank(unit)
    if face is Attack.FRONT:
        return front
    ranks = -(-(unit.figures - unit.horseholders) // max(1, front))
    if face is Attack.FLANK:
        return ranks
    return unit.figures - unit.horseholders - front * (ranks - 1)


def fighters(unit: Unit, enemy: Unit, face: Attack = Attack.FRONT,
             enemy_face: Attack = Attack.FRONT) -> int:
    """Figures entitled to fight (Melee): those of the face in contact (``face``: the face of
    ``unit`` struck, its front when it struck) touching the enemy's face in contact, plus one
    overlapping figure on each flank (M15)."""
    return min(face_figures(unit, face), face_figures(enemy, enemy_face) + 2 * OVERLAP)


@attrs.frozen
class Fighter:
    """One side of a melee: the unit, the figures fighting, and the facts its factors read."""

    unit: Unit
    figures: int = attrs.field(validator=at_least(0))
    charging: bool = False
    general: bool = False
    won_last: bool = False
    attacked: Attack = Attack.FRONT


def basic_key(unit: Unit) -> str:
    """The row of the basic fighting factors a unit reads."""
    if unit.arm is Arm.ARTILLERY:
        return "artillery-crew"
    if unit.arm is Arm.CAVALRY:
        return "mounted-cavalry" if unit.mounted else "dismounted-cavalry"
    return "skirmishers" if unit.formation is Formation.SKIRMISH else "infantry"


def fighting_factor(side: Fighter, tables: Tables = DEFAULT_TABLES) -> Modified:
    """Melee procedure 2-3: the basic fighting factor plus the tactical factors."""
    unit = side.unit
    f, r = tables.melee_factor, rules.MELEE_FACTORS
    defending = not side.charging
    mods = (
        Modifier("charging", f("charging"), r) if side.charging else None,
        Modifier("veteran", f("veteran"), r) if unit.quality is Quality.VETERAN else None,
        Modifier("raw", f("raw"), r) if unit.quality is Quality.RAW else None,
        Modifier("general with unit", f("general-with-unit"), r) if side.general else None,
        Modifier("won last period of melee", f("won-last-period"), r) if side.won_last else None,
        Modifier("defending cover", f("defending-cover"), r)
        if defending and unit.ground.is_cover and unit.ground is not Ground.PERMANENT
        and (unit.ground is not Ground.BEHIND_OBSTACLE or side.attacked is Attack.FRONT)
        else None,
        Modifier("defending permanent defenses", f("defending-permanent-defenses"), r)
        if defending and unit.ground is Ground.PERMANENT else None,
        Modifier("attacked in flank", f("attacked-in-flank"), r)
        if side.attacked is Attack.FLANK else None,
        Modifier("attacked in rear", f("attacked-in-rear"), r)
        if side.attacked is Attack.REAR else None,
        Modifier("tired", f("tired"), r) if unit.tired else None,
        Modifier("exhausted", f("exhausted"), r) if unit.exhausted else None,
    )
    key = basic_key(unit)
    return Modified(tables.basic_fighting(key), key, r).plus(*(m for m in mods if m is not None))


@attrs.frozen
class MeleeResult:
    """Figures each side lost, and the winner ("a", "b", or "" for a drawn period)."""

    a_lost: int
    b_lost: int

    @property
    def winner(self) -> str:
        if self.a_lost == self.b_lost:
            return ""
        return "a" if self.a_lost < self.b_lost else "b"

    def __str__(self) -> str:
        won = {"a": "first wins", "b": "second wins", "": "drawn"}[self.winner]
        return f"{self.a_lost}-{self.b_lost} {won}"


def melee_cells(a: Fighter, b: Fighter, tables: Tables = DEFAULT_TABLES) -> tuple[Cell, Cell]:
    """The casualty table cells: what a suffers (b's factor and figures) and what b suffers."""
    return (
        tables.casualties.cell(fighting_factor(b, tables).total, b.figures),
        tables.casualties.cell(fighting_factor(a, tables).total, a.figures),
    )


def resolve_melee(a: Fighter, b: Fighter, *, dice: Dice,
                  tables: Tables = DEFAULT_TABLES) -> MeleeResult:
    """Melee procedure 4 and Results of melees: casualties as firing (the percentage roll for
    each side's extra figure), then the side that lost more has lost the melee."""
    on_a, on_b = melee_cells(a, b, tables)
    a_lost = min(a.unit.figures, figures_lost(on_a, dice=dice, reason=f"melee, {a.unit.name}"))
    b_lost = min(b.unit.figures, figures_lost(on_b, dice=dice, reason=f"melee, {b.unit.name}"))
    return MeleeResult(a_lost, b_lost)
