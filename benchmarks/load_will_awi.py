"""Will's AWI under load (issue 28, "Nothing hangs"): a battle of many units a side on a table,
built as the book's own battles are (``will_awi.scenarios``): brigades of foot (line, light
infantry, militia, riflemen), a gun and light cavalry, each under its brigadier, four brigades
to a senior general, the senior generals under a commander in chief (Rules - Introduction:
Generals), laid out in lines facing each other across a table sized to hold them, the front
lines 12" apart (a close order foot line's 6" move brings muskets' 6" into range and charge
reach; the guns reach across at once).

Interface (``benchmarks/load.py`` reads it for every book): ``RULESET`` and
``big_battle(units_a_side, seed=0)``. Run on its own:

    PYTHONPATH=src python benchmarks/load_will_awi.py [UNITS_A_SIDE ...]   (default 100 200 500)

For each size: the time to build, the legal actions and the time of the first
``legal_actions`` call (cold: a battle of its own seed, its units named after the seed, so no
remembered answer serves it), and the median and max time of 20 random steps (chosen as
``smoothbore.battle.random_policy`` chooses, then ``step``), and the CPU time of the first
``legal_actions`` of the facing phase (D) of another battle. Target (issue 28): under 0.5 s
and under 50 ms at 500 units a side. The battle is built at the start of the British move and
played to its movement phase (C), where every unit may move."""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from typing import Any

from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature
from smoothbore.will_awi import TURN
from smoothbore.will_awi.actions import EndPhase
from smoothbore.will_awi.phases import C
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.units import Commander, Nationality, Rank, TroopType, Unit

RULESET = "will_awi"

SIDES = ("British", "American")
PITCH = 6.0
"""Across: one slot a unit, 6" (a unit in line is two 45 mm bases, 3.5" wide)."""
ROW = 6.0
"""Back: the lines 6" apart (a column is 3.5" deep)."""
GAP = 12.0
"""The front lines' centres 12" apart (the embedded battles' stand 20" apart)."""
MARGIN = 12.0
"""Room at the flanks and behind the last line (the generals ride there)."""
BRIGADE = ("foot", "foot", "light", "gun", "foot", "horse")
"""A brigade: line foot, light infantry (riflemen for the Americans), a gun, light cavalry."""
BRIGADES_A_SENIOR = 4

_FOOT = {"British": (TroopType.LINE, TroopType.GRENADIERS, TroopType.FUSILIERS),
         "American": (TroopType.LINE, TroopType.MILITIA, TroopType.LINE)}
_LIGHT = {"British": TroopType.LIGHT_INFANTRY, "American": TroopType.RIFLEMEN}
_GUNS = (TroopType.LIGHT_GUN, TroopType.MEDIUM_GUN)
_NATION = {"British": Nationality.BRITISH, "American": Nationality.AMERICAN}


def _rows(units_a_side: int) -> tuple[int, int]:
    """(lines, slots a line): about four times as wide as deep, as armies deployed."""
    lines = max(1, round(math.sqrt(units_a_side) / 4))
    return lines, math.ceil(units_a_side / lines)


def _unit(uid: str, side: str, kind: str, i: int, brigadier: str) -> Unit:
    nation = _NATION[side]
    strength = 3 + i % 4
    if kind == "gun":
        troop = _GUNS[i % 2]
        name = f"{side} guns {i}"
    elif kind == "horse":
        troop = TroopType.LIGHT_CAVALRY
        name = f"{side} dragoons {i}"
    elif kind == "light":
        troop = _LIGHT[side]
        name = f"{side} light troops {i}"
    else:
        foot = _FOOT[side]
        troop = foot[i % len(foot)]
        name = f"{side} foot {i}"
    return Unit(uid, name, side, troop, nation, strength=strength, initial_strength=strength,
                commander=brigadier)


def _army(side: str, tag: str, units_a_side: int
          ) -> tuple[list[Unit], list[Commander]]:
    """One side's units (in deployment order) and generals: a commander in chief riding
    alone, a senior general for every four brigades riding with his first brigade's first
    unit, a brigadier with each brigade riding with its second unit (every third one alone
    behind the line)."""
    chief = f"{tag}-cinc"
    generals = [Commander(chief, f"{side} commander in chief", side, Rank.CINC, rating=9)]
    units: list[Unit] = []
    brigades = math.ceil(units_a_side / len(BRIGADE))
    for b in range(brigades):
        first = len(units)
        brigadier = f"{tag}-bde{b}"
        senior = f"{tag}-sen{b // BRIGADES_A_SENIOR}"
        for kind in BRIGADE:
            if len(units) == units_a_side:
                break
            units.append(_unit(f"{tag}-{len(units)}", side, kind, len(units), brigadier))
        if b % BRIGADES_A_SENIOR == 0:
            generals.append(Commander(senior, f"{side} senior general {b // 4}", side,
                                      Rank.SENIOR, rating=8, attached_to=units[first].id,
                                      superior=chief))
        with_unit = "" if b % 3 == 2 else units[min(first + 1, len(units) - 1)].id
        generals.append(Commander(brigadier, f"{side} brigadier {b}", side, Rank.BRIGADIER,
                                  rating=6 + b % 4, attached_to=with_unit, superior=senior))
    return units, generals


def big_battle(units_a_side: int, seed: int = 0) -> Any:
    """A Will's AWI battle on a table, ``units_a_side`` units a side (at least 1), the dice
    seeded by ``seed`` and the units named after it (``b<seed>-12``: a new seed is a battle
    no remembered answer serves): each side's brigades in lines across the table, the
    British from the near edge, the Americans from the far one, a rail fence and patches of
    light woods and gentle hills between the front lines; played to the British movement
    phase (C)."""
    if units_a_side < 1:
        raise ValueError(f"units_a_side: {units_a_side}, allowed: at least 1")
    lines, slots = _rows(units_a_side)
    width = 2 * MARGIN + slots * PITCH
    depth = 2 * (MARGIN + lines * ROW) + GAP
    near_front = MARGIN + (lines - 0.5) * ROW
    far_front = near_front + GAP
    units: list[Unit] = []
    generals: list[Commander] = []
    places: dict[str, Place] = {}
    marks: list[CommanderMark] = []
    for s, side in enumerate(SIDES):
        tag = ("b" if s == 0 else "a") + str(seed)
        own, chiefs = _army(side, tag, units_a_side)
        for i, unit in enumerate(own):
            line, slot = divmod(i, slots)
            x = MARGIN + (slot + 0.5) * PITCH
            y = near_front - line * ROW if s == 0 else far_front + line * ROW
            places[unit.id] = (x, y, 0.0 if s == 0 else 180.0)
        behind = MARGIN / 2 if s == 0 else depth - MARGIN / 2
        alone = 0
        for g in chiefs:
            if g.attached_to:
                marks.append(CommanderMark(g.id, attached_to=g.attached_to, side=side,
                                           label=g.name))
            else:
                marks.append(CommanderMark(g.id, MARGIN + (alone * 2.5) % (width - 2 * MARGIN),
                                           behind, side=side, label=g.name))
                alone += 1
        units += own
        generals += chiefs
    middle = near_front + GAP / 2
    terrain = [Feature("rail-fence", "fence", line=((MARGIN, middle), (width / 2, middle)),
                       label="rail fence")]
    for k in range(max(1, slots // 12)):
        x = MARGIN + (k * 12 + 6) * PITCH
        kind = "light woods" if k % 2 == 0 else "gentle hill"
        terrain.append(Feature.rectangle(f"patch{k}", kind, x, middle, 4 * PITCH,
                                         GAP - 2 * BASE - 2.0))
    table = deploy(tuple(units), places, width=width, depth=depth, features=tuple(terrain),
                   home_edges={SIDES[0]: Edge.NEAR, SIDES[1]: Edge.FAR}
                   ).with_commanders(*marks)
    state: State = new_battle(SIDES, tuple(units), tuple(generals), seed=seed,
                              scenario=Scenario(f"{units_a_side} units a side", turn_limit=12),
                              table=table)
    return to_movement(state)


def to_movement(state: State) -> State:
    """The battle played to the moving side's movement phase (C): A and B passed (no unit
    is shaken or routing)."""
    while state.phase != C:
        state = TURN.step(state, EndPhase())[0]
    return state


def phases(units_a_side: int, seed: int) -> dict[str, float]:
    """The CPU time of the first ``legal_actions`` of the facing phase (D: every unit's
    facing change, on a battle of its own seed), of the step that ends it (which units could
    fire) and of the first ``legal_actions`` of the firing phase (E) that follows, in
    seconds."""
    facing, _ = TURN.step(big_battle(units_a_side, seed + 500), EndPhase())
    cpu = time.process_time()
    TURN.legal_actions(facing)
    facing_cpu = time.process_time() - cpu
    cpu = time.process_time()
    firing, _ = TURN.step(facing, EndPhase())  # which units could fire (Second Charges)
    end_d_cpu = time.process_time() - cpu
    cpu = time.process_time()
    TURN.legal_actions(firing)
    firing_cpu = time.process_time() - cpu
    return {"facing_cpu": facing_cpu, "end_d_cpu": end_d_cpu, "firing_cpu": firing_cpu}


def main(argv: list[str]) -> int:
    """This book's rows of ``benchmarks/load.py`` (sizes from the command line, default
    100 200 500), then the phases after C at each size (``phases``)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import load

    sizes = argv or ["100", "200", "500"]
    load.main(["--books", RULESET, "--no-sightings", "--units", *sizes])
    print("units a side | D first legal_actions CPU s (target < 0.5) | the step ending D "
          "CPU ms (target < 50) | E first legal_actions CPU s")
    for n, size in enumerate(sizes):
        m = phases(int(size), seed=1000 + n)
        print(f"{int(size):>12} | {m['facing_cpu']:42.3f} | {m['end_d_cpu'] * 1e3:37.1f} | "
              f"{m['firing_cpu']:27.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
