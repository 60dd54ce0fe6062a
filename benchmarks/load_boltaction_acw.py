"""Bolt Action ACW under load (issue 28, "Nothing hangs"): a battle of many units a side on a
table, built as the book's own battles are (``boltaction_acw.scenarios``): brigades of infantry
regiments under a brigade commander who rides with one of them (their colonels with their
regiments), a battery with some brigades, brigades of cavalry (one regiment of each
dismounted in skirmish order), skirmisher battalions, independent batteries with their own
order die, and an army commander a side behind the lines; laid out in lines facing each other
across a table sized to hold them, the front lines 20" apart (inside a rifled musket's 24";
a run or a cavalry charge closes it).

Interface (``benchmarks/load.py`` reads it for every book): ``RULESET`` and
``big_battle(units_a_side, seed=0)``. Run on its own:

    PYTHONPATH=src python benchmarks/load_boltaction_acw.py [UNITS_A_SIDE ...]   (100 200 500)

The battle is handed over in the orders phase of turn 1: a die drawn and its side's brigade
nearest the middle of its front line activated, so that ``legal_actions`` lists the orders of
units facing the enemy (fire, advance, run, charge, formation changes, rally, down, the
commanders' moves). For each size: the time to build, the legal actions and the time of the
first ``legal_actions`` call (cold: a battle of its own seed, its units named after the seed,
so no remembered answer serves it), and the median and max time of 20 random steps (chosen as
``smoothbore.battle.random_policy`` chooses, then ``step``). Target (issue 28): under 0.5 s
and under 50 ms at 500 units a side."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Activate, DrawDie
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.state import State, group_of, new_battle
from smoothbore.boltaction_acw.units import (
    CONFEDERATE,
    UNION,
    Commander,
    Experience,
    Formation,
    Rank,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Table

RULESET = "boltaction_acw"

SIDES = (UNION, CONFEDERATE)
PITCH = 11.0
"""Across: one slot a unit, 11" (a regiment of 6 bases in line is 9" wide)."""
ROW = 6.0
"""Back: the lines 6" apart (a limbered battery is 4" deep, a mounted regiment 2")."""
GAP = 20.0
"""The front lines' centres 20" apart: inside a rifled musket's 24", a run or a charge away."""
MARGIN = 12.0
"""Room at the flanks and behind the last line (the army commander rides there)."""
MAX_SLOTS = 80
"""At most 80 units a line, so that the table stays within 1,000" (a commander's ride)."""
BLOCK = (("brigade", "infantry"), ("brigade", "infantry"), ("brigade", "infantry"),
         ("brigade", "infantry"), ("brigade", "battery"),
         ("brigade", "infantry"), ("brigade", "infantry"), ("brigade", "infantry"),
         ("brigade", "skirmishers"),
         ("brigade", "cavalry"), ("brigade", "dismounted"),
         ("independent", "battery"))
"""Twelve units, deployed in this order: a brigade of four regiments and its battery (as
Gibbon's at Brawner's Farm), a brigade of three regiments and a skirmisher battalion (as
Archer's at McPherson's Ridge), a cavalry brigade of two regiments, one dismounted (as
Gamble's), and an independent battery."""

_EXPERIENCE = (Experience.VETERAN, Experience.REGULAR, Experience.REGULAR,
               Experience.INEXPERIENCED)
_MUSKETS = (Weapon.RIFLED_MUSKET, Weapon.RIFLED_MUSKET, Weapon.SMOOTHBORE_MUSKET)
_GUNS = (Weapon.SMOOTHBORE_CANNON, Weapon.RIFLED_CANNON)


def _rows(units_a_side: int) -> tuple[int, int]:
    """(lines, slots a line): as few lines as keep a line within ``MAX_SLOTS``, and at least
    two once there are more than 20 units."""
    lines = max(math.ceil(units_a_side / MAX_SLOTS), 2 if units_a_side > 20 else 1)
    return lines, math.ceil(units_a_side / lines)


def _unit(uid: str, side: str, kind: str, i: int, brigade: str) -> Unit:
    experience = _EXPERIENCE[i % len(_EXPERIENCE)]
    name = f"{side} {kind} {i}"
    if kind == "battery":
        return Unit(uid, name, side, UnitType.ARTILLERY, experience, _GUNS[i % 2],
                    brigade=brigade, formation=Formation.UNLIMBERED)
    if kind == "skirmishers":
        return Unit(uid, name, side, UnitType.SKIRMISHERS, experience, bases=5,
                    brigade=brigade)
    if kind == "cavalry":
        return Unit(uid, name, side, UnitType.CAVALRY, experience, Weapon.RIFLED_CARBINE,
                    brigade=brigade)
    if kind == "dismounted":
        return Unit(uid, name, side, UnitType.CAVALRY, experience, Weapon.RIFLED_CARBINE,
                    brigade=brigade, mounted=False, formation=Formation.SKIRMISH)
    formation = Formation.COLUMN if i % 9 == 4 else Formation.LINE
    return Unit(uid, name, side, UnitType.INFANTRY, experience, _MUSKETS[i % 3],
                bases=4 + i % 3, brigade=brigade, formation=formation)


def _army(side: str, tag: str, units_a_side: int) -> tuple[list[Unit], list[Commander]]:
    """One side's units (in deployment order) and commanders: a brigade commander with the
    first regiment of each brigade, and the army commander (with none: he has a mark)."""
    units: list[Unit] = []
    commanders = [Commander(f"{tag}-army", f"{side} army commander", side, Rank.ARMY)]
    block = 0
    while len(units) < units_a_side:
        first: dict[str, str] = {}
        for part, (role, kind) in enumerate(BLOCK):
            if len(units) == units_a_side:
                break
            brigade = ""
            if role == "brigade":
                brigade = f"{tag}-b{block}-{0 if part < 5 else 1 if part < 9 else 2}"
            uid = f"{tag}-{len(units)}"
            units.append(_unit(uid, side, kind, len(units), brigade))
            if brigade and brigade not in first:
                first[brigade] = uid
        for n, (brigade, uid) in enumerate(first.items()):
            commanders.append(Commander(
                f"{brigade}-cdr", f"{side} brigade commander {block}.{n}", side, Rank.BRIGADE,
                brigade, with_unit=uid, experience=_EXPERIENCE[(block + n) % 4]))
        block += 1
    return units, commanders


def big_battle(units_a_side: int, seed: int = 0) -> Any:
    """A Bolt Action ACW battle on a table, ``units_a_side`` units a side (at least 1), the
    dice seeded by ``seed`` and the units named after it (``u<seed>-12``: a new seed is a
    battle no remembered answer serves): each side's brigades in lines across the table,
    the Union from the near edge, the Confederates from the far one, a fence and patches of
    light woods and gentle hills between the front lines; handed over in the orders phase
    (``to_orders``)."""
    if units_a_side < 1:
        raise ValueError(f"units_a_side: {units_a_side}, allowed: at least 1")
    lines, slots = _rows(units_a_side)
    width = 2 * MARGIN + slots * PITCH
    depth = 2 * (MARGIN + lines * ROW) + GAP
    near_front = MARGIN + (lines - 0.5) * ROW
    far_front = near_front + GAP
    units: list[Unit] = []
    commanders: list[Commander] = []
    feet = []
    marks = []
    for s, side in enumerate(SIDES):
        tag = ("u" if s == 0 else "c") + str(seed)
        own, chiefs = _army(side, tag, units_a_side)
        for i, unit in enumerate(own):
            line, slot = divmod(i, slots)
            x = MARGIN + (slot + 0.5) * PITCH
            y = near_front - line * ROW if s == 0 else far_front + line * ROW
            feet.append(footprint(unit, x, y, 0.0 if s == 0 else 180.0))
        army = chiefs[0]
        marks.append(CommanderMark(army.id, width / 2, MARGIN / 2 if s == 0
                                   else depth - MARGIN / 2, side=side, label=army.name))
        units += own
        commanders += chiefs
    middle = near_front + GAP / 2
    terrain = [Feature("fence", "fence", line=((MARGIN, middle), (width / 2, middle)))]
    for k in range(max(1, slots // 12)):
        x = MARGIN + (k * 12 + 6) * PITCH
        kind = "light woods" if k % 2 == 0 else "gentle hill"
        terrain.append(Feature.rectangle(f"patch{k}", kind, x, middle, 3 * PITCH, GAP / 4))
    table = Table(width, depth, features=tuple(terrain), footprints=tuple(feet),
                  commanders=tuple(marks), home_edges={UNION: Edge.NEAR, CONFEDERATE: Edge.FAR})
    state: State = new_battle(tuple(units), tuple(commanders), seed=seed,
                              scenario=Scenario(f"{units_a_side} units a side", turn_limit=6),
                              table=table)
    return to_orders(state)


def to_orders(state: State) -> State:
    """The battle in the orders phase: the first die drawn, and its side's brigade with a
    unit nearest the middle of the front line activated."""
    state = TURN.step(state, DrawDie())[0]
    table = state.extra.table
    assert table is not None
    side = state.extra.drawn
    middle = table.width / 2
    front = [u for u in state.units if u.side == side]
    rank = min(abs(table.footprint(u.id).y - table.depth / 2) for u in front)
    group = min((u for u in front if abs(table.footprint(u.id).y - table.depth / 2) == rank),
                key=lambda u: (u.independent, abs(table.footprint(u.id).x - middle)))
    return TURN.step(state, Activate(group_of(group)))[0]


def main(argv: list[str]) -> int:
    """This book's rows of ``benchmarks/load.py`` (sizes from the command line, default
    100 200 500), without the all-pairs sightings column."""
    sys.path.insert(0, str(Path(__file__).parent))
    import load

    return int(load.main(["--books", RULESET, "--no-sightings",
                          "--units", *(argv or ["100", "200", "500"])]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
