"""McKie ACW under load (issue 28, "Nothing hangs"): a battle of many units a side on a table,
built as the book's own battles are (``mckie_acw.scenarios``): brigades of foot and cavalry and
artillery units (one gun model each) under divisional commanders, three divisions to a corps,
the corps under a commander-in-chief who writes their orders; laid out in lines facing each
other across a table sized to hold them, the front lines 200 mm apart (a foot line's 120 mm
move brings the rifles' 100 mm into range; the guns reach across at once).

Interface (``benchmarks/load.py`` reads it for every book): ``RULESET`` and
``big_battle(units_a_side, seed=0)``. Run on its own:

    PYTHONPATH=src python benchmarks/load_mckie_acw.py [UNITS_A_SIDE ...]   (default 100 200 500)

For each size: the time to build, the legal actions and the time of the first
``legal_actions`` call (cold: a battle of its own seed, its units named after the seed, so no
remembered answer serves it), and the median and max time of 20 random steps (chosen as
``smoothbore.battle.random_policy`` chooses, then ``step``). Target (issue 28): under 0.5 s and
under 50 ms at 500 units a side."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

from smoothbore.core import Scenario
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import Activate, ChooseFirst, EndPhase, RollInitiative
from smoothbore.mckie_acw.phases import MOVEMENT
from smoothbore.mckie_acw.positions import footprint
from smoothbore.mckie_acw.state import State, new_battle
from smoothbore.mckie_acw.tables import DEFAULT_TABLES
from smoothbore.mckie_acw.units import (
    Arm,
    Commander,
    Formation,
    Order,
    OrderKind,
    Quality,
    Rank,
    Unit,
    Weapon,
)
from smoothbore.table import CommanderMark, Edge, Feature, Table

RULESET = "mckie_acw"

SIDES = ("Confederate", "Union")
PITCH = 120.0
"""Across: one slot a unit, 120 mm (a foot brigade's line is 96 mm, 8 bases of 12)."""
ROW = 80.0
"""Back: the lines 80 mm apart (a limbered gun 80 deep, a mounted brigade 50)."""
GAP = 200.0
"""The front lines' centres 200 mm apart (the embedded battle's lines stand 176 to 200)."""
MARGIN = 150.0
"""Room at the flanks and behind the last line (the commander-in-chief rides there)."""
DIVISION = ("foot", "foot", "gun", "foot", "foot", "horse")
"""A division: four foot brigades, an artillery unit between them, a cavalry brigade."""
DIVISIONS_A_CORPS = 3

_FOOT = (Weapon.MUZZLE_LOADING_RIFLE, Weapon.SMOOTHBORE_MUSKET, Weapon.MUZZLE_LOADING_RIFLE,
         Weapon.BREECH_LOADING_RIFLE)
_GUNS = (Weapon.SMOOTHBORE_12LB, Weapon.RODMAN_3IN)
_QUALITY = (Quality.VETERAN, Quality.EXPERIENCED, Quality.EXPERIENCED, Quality.RAW)


def _rows(units_a_side: int) -> tuple[int, int]:
    """(lines, slots a line): about four times as wide as deep, as armies deployed."""
    lines = max(1, round(math.sqrt(units_a_side) / 4))
    return lines, math.ceil(units_a_side / lines)


def _unit(uid: str, side: str, kind: str, i: int, commander: str) -> Unit:
    quality = _QUALITY[i % len(_QUALITY)]
    if kind == "gun":
        return Unit(uid, f"{side} guns {i}", side, Arm.ARTILLERY, _GUNS[i % 2], quality, 4,
                    commander=commander)
    if kind == "horse":
        return Unit(uid, f"{side} horse {i}", side, Arm.CAVALRY, Weapon.BREECH_LOADING_RIFLE,
                    quality, 12, mounted=True, commander=commander)
    formation = Formation.COLUMN if i % 7 == 3 else Formation.LINE
    return Unit(uid, f"{side} brigade {i}", side, Arm.FOOT, _FOOT[i % len(_FOOT)], quality,
                16 - i % 5, formation=formation, commander=commander)


def _army(side: str, tag: str, units_a_side: int, order: OrderKind
          ) -> tuple[list[Unit], list[Commander]]:
    """One side's units (in deployment order) and commanders: a commander-in-chief, a corps
    commander for every three divisions, a divisional commander with each division, riding
    with its second unit (the corps commander with the first division's first)."""
    ratings = DEFAULT_TABLES.generals
    chief = f"{tag}-chief"
    commanders = [Commander(chief, f"{side} commander-in-chief", side, Rank.CINC,
                            ratings[0].initiative, ratings[0].activation)]
    units: list[Unit] = []
    divisions = math.ceil(units_a_side / len(DIVISION))
    for d in range(divisions):
        first = len(units)
        division = f"{tag}-div{d}"
        corps = f"{tag}-corps{d // DIVISIONS_A_CORPS}"
        for kind in DIVISION:
            if len(units) == units_a_side:
                break
            units.append(_unit(f"{tag}-{len(units)}", side, kind, len(units), division))
        if d % DIVISIONS_A_CORPS == 0:
            r = ratings[(d + 1) % len(ratings)]
            commanders.append(Commander(corps, f"{side} corps {d // DIVISIONS_A_CORPS}", side,
                                        Rank.CORPS, r.initiative, r.activation, chief,
                                        units[first].id, Order(order, chief)))
        r = ratings[(d + 2) % len(ratings)]
        with_unit = units[min(first + 1, len(units) - 1)].id
        commanders.append(Commander(division, f"{side} division {d}", side, Rank.DIVISION,
                                    r.initiative, r.activation, corps, with_unit,
                                    Order(order, corps)))
    return units, commanders


def big_battle(units_a_side: int, seed: int = 0) -> Any:
    """A McKie ACW battle on a table, ``units_a_side`` units a side (at least 1), the dice
    seeded by ``seed`` and the units named after it (``c<seed>-12``: a new seed is a battle
    no remembered answer serves): each side's divisions in lines across the table, the
    Confederates from the near edge attacking, the Federals from the far one holding, a
    fence and patches of light woods and gentle hills between the front lines."""
    if units_a_side < 1:
        raise ValueError(f"units_a_side: {units_a_side}, allowed: at least 1")
    lines, slots = _rows(units_a_side)
    width = 2 * MARGIN + slots * PITCH
    depth = 2 * (MARGIN + lines * ROW) + GAP
    near_front = MARGIN + (lines - 0.5) * ROW
    far_front = near_front + GAP
    units: list[Unit] = []
    commanders: list[Commander] = []
    fps = []
    marks = []
    for s, side in enumerate(SIDES):
        tag = ("c" if s == 0 else "u") + str(seed)
        order = OrderKind.ATTACK if s == 0 else OrderKind.HOLD
        own, chiefs = _army(side, tag, units_a_side, order)
        for i, unit in enumerate(own):
            line, slot = divmod(i, slots)
            x = MARGIN + (slot + 0.5) * PITCH
            y = near_front - line * ROW if s == 0 else far_front + line * ROW
            fps.append(footprint(unit, x, y, 0.0 if s == 0 else 180.0))
        for c in chiefs:
            if c.attached_to:
                marks.append(CommanderMark(c.id, attached_to=c.attached_to, side=side,
                                           label=c.name))
            else:
                marks.append(CommanderMark(c.id, width / 2, MARGIN / 2 if s == 0
                                           else depth - MARGIN / 2, side=side, label=c.name))
        units += own
        commanders += chiefs
    middle = near_front + GAP / 2
    terrain = [Feature("fence", "fence", line=((MARGIN, middle), (width / 2, middle)))]
    for k in range(max(1, slots // 12)):
        x = MARGIN + (k * 12 + 6) * PITCH
        kind = "light woods" if k % 2 == 0 else "gentle hill"
        terrain.append(Feature.rectangle(f"patch{k}", kind, x, middle, 4 * PITCH, GAP / 3))
    table = Table(width, depth, "mm", tuple(terrain), tuple(fps), tuple(marks),
                  home_edges={SIDES[0]: Edge.NEAR, SIDES[1]: Edge.FAR})
    state: State = new_battle(SIDES, tuple(units), tuple(commanders), seed=seed,
                              scenario=Scenario(f"{units_a_side} units a side",
                                                turn_limit=12),
                              table=table)
    return to_movement(state)


def to_movement(state: State) -> State:
    """The battle played to the movement step (3) of its first period, where every unit may
    act: the initiative rolled, the Confederates moving first, every commander tried for
    activation (a division whose corps commander failed is not tried), the steps before
    passed; the Confederates to move."""
    state = _stepped(state, RollInitiative())
    state = _stepped(state, ChooseFirst(state.extra.initiative == SIDES[0]))
    for _side in SIDES:  # activation: corps commanders first, then their divisions
        for rank in (Rank.CORPS, Rank.DIVISION):
            for c in state.commanders:
                if c.side == state.extra.acting and c.rank is rank and (
                        rank is Rank.CORPS or c.superior in state.extra.activated):
                    state = _stepped(state, Activate(c.id))
        state = _stepped(state, EndPhase())
    while state.phase != MOVEMENT:
        state = _stepped(state, EndPhase())
    return state


def _stepped(state: State, action: Any) -> State:
    return TURN.step(state, action)[0]


def main(argv: list[str]) -> int:
    """This book's rows of ``benchmarks/load.py`` (sizes from the command line, default
    100 200 500), without the all-pairs sightings column."""
    sys.path.insert(0, str(Path(__file__).parent))
    import load

    return int(load.main(["--books", RULESET, "--no-sightings",
                          "--units", *(argv or ["100", "200", "500"])]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
