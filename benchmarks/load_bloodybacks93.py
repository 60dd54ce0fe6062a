"""Bloodybacks 9.3 under load (issue 28, "Nothing hangs"): a battle of many units a side on a
table, built as the book's own battle is (``bloodybacks93.scenarios``): brigades under a
colonel (a brigadier: ``Commander.brigade``), each of line infantry, grenadiers, a gun of
field or light artillery, riflemen in extended order and a troop of horse, the colonel riding
with his first battalion in every other brigade and behind it in the others, and a
commander-in-chief a side behind the lines; laid out in lines facing each other across a
table sized to hold them, the front lines 14" apart (inside the musket's 16" skirmish band;
a move or a charge closes it; the guns and the rifles reach across at once).

Interface (``benchmarks/load.py`` reads it for every book): ``RULESET`` and
``big_battle(units_a_side, seed=0)``. Run on its own:

    PYTHONPATH=src python benchmarks/load_bloodybacks93.py [UNITS_A_SIDE ...]   (100 200 500)

The battle is handed over at the first card of turn 1 that activates a commander (activity
rolled, cards drawn and passed until one does), so that ``legal_actions`` lists every unit of
the card's side that his colonel or another active commander with a command point may take
up. For each size: the time to build, the legal actions and the time of the first
``legal_actions`` call (cold: a battle of its own seed, its units named after the seed, so no
remembered answer serves it), and the median and max time of 20 random steps (chosen as
``smoothbore.battle.random_policy`` chooses, then ``step``), by the wall clock and again in
this process's CPU time (on a shared machine the wall clock counts the others' work too).
Target (issue 28): under 0.5 s and under 50 ms at 500 units a side."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

from smoothbore.bloodybacks93 import TURN
from smoothbore.bloodybacks93.actions import DetermineActivity, DrawCard, EndActivation
from smoothbore.bloodybacks93.phases import ACTIVATION, ACTIVITY
from smoothbore.bloodybacks93.placement import footprint
from smoothbore.bloodybacks93.state import State, new_battle
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Commander,
    Formation,
    Troops,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Table

RULESET = "bloodybacks93"

SIDES = (BRITISH, AMERICAN)
PITCH = 11.0
"""Across: one slot a unit, 11" (a battalion of 20 at density 6 stands on 4 bases, 9.4")."""
ROW = 6.0
"""Back: the lines 6" apart (a gun is 2.4" deep, a troop of horse 2")."""
GAP = 14.0
"""The front lines' centres 14" apart: inside the musket's 16" skirmish band, a move from
its 8" volley band; the guns' roundshot and the rifles' 24" reach across at once."""
MARGIN = 12.0
"""Room at the flanks and behind the last line (the commanders-in-chief ride there)."""
MAX_SLOTS = 80
"""At most 80 units a line, so that the table stays within 1,000" (a distance's bound)."""
BRIGADE = ("line", "grenadiers", "gun", "line", "rifles", "horse")
"""A brigade, deployed in this order: two line battalions with grenadiers between them and a
gun, riflemen in extended order and a troop of horse (the embedded battle's 33rd Foot,
Hessian grenadiers, Royal Artillery and Virginia riflemen, with a troop added)."""

_QUALITY = (4, 3, 3, 2, 5)
_TROOPS = {BRITISH: (Troops.REGULAR, Troops.LOYALIST, Troops.REGULAR),
           AMERICAN: (Troops.CONTINENTAL, Troops.MILITIA, Troops.CONTINENTAL)}
_GUNS = (UnitType.FIELD_ARTILLERY, UnitType.LIGHT_ARTILLERY)


def _rows(units_a_side: int) -> tuple[int, int]:
    """(lines, slots a line): about four times as wide as deep, as armies deployed, and at
    most ``MAX_SLOTS`` a line."""
    lines = max(1, round(math.sqrt(units_a_side) / 4), math.ceil(units_a_side / MAX_SLOTS))
    return lines, math.ceil(units_a_side / lines)


def _unit(uid: str, side: str, kind: str, i: int, brigade: str) -> Unit:
    quality = _QUALITY[i % len(_QUALITY)]
    troops = _TROOPS[side][i % 3]
    label = f"{side} {kind} {i}"
    if kind == "gun":
        return Unit(uid, label, side, kind=_GUNS[i // len(BRIGADE) % 2], density=3, size=4,
                    brigade=brigade, formation=Formation.UNLIMBERED, weapon=Weapon.CANNON,
                    sections=2)
    if kind == "horse":
        return Unit(uid, label, side, kind=UnitType.CAVALRY, quality=max(3, quality),
                    density=6, size=12, brigade=brigade, heavy_cavalry=side == BRITISH)
    if kind == "rifles":
        return Unit(uid, label, side, quality=quality, density=3, size=10, brigade=brigade,
                    weapon=Weapon.RIFLE, troops=troops)
    if kind == "grenadiers":
        return Unit(uid, label, side, quality=4, density=8, size=18, brigade=brigade,
                    troops=Troops.REGULAR if side == BRITISH else Troops.CONTINENTAL)
    formation = Formation.COLUMN if i % 7 == 3 else Formation.DEPLOYED
    return Unit(uid, label, side, quality=quality, density=6 - i % 2, size=20 - i % 3,
                brigade=brigade, troops=troops, formation=formation)


def _army(side: str, tag: str, units_a_side: int) -> tuple[list[Unit], list[Commander]]:
    """One side's units (in deployment order) and commanders: a commander-in-chief (of no
    brigade: any unit he takes up costs him a command point) and a colonel a brigade, riding
    with its first battalion in the even brigades (as Colonel Stevens) and behind it in the
    odd (as Colonel Webster)."""
    commanders = [Commander(f"{tag}-chief", f"{side} commander-in-chief", side,
                            command_quality=4, activity_rating=3, brigade="", cinc=True)]
    units: list[Unit] = []
    for b in range(math.ceil(units_a_side / len(BRIGADE))):
        brigade = f"{tag}-br{b}"
        first = len(units)
        for kind in BRIGADE:
            if len(units) == units_a_side:
                break
            units.append(_unit(f"{tag}-{len(units)}", side, kind, len(units), brigade))
        commanders.append(Commander(
            f"{tag}-col{b}", f"{side} colonel {b}", side, command_quality=2 + b % 4,
            activity_rating=2 + (b + 1) % 4, brigade=brigade,
            attached_to=units[first].id if b % 2 == 0 else None))
    return units, commanders


def big_battle(units_a_side: int, seed: int = 0) -> Any:
    """A Bloodybacks battle on a table, ``units_a_side`` units a side (at least 1), the dice
    seeded by ``seed`` and the units named after it (``b<seed>-12``: a new seed is a battle
    no remembered answer serves): each side's brigades in lines across the table, the British
    from the near edge, the Americans from the far one, a rail fence and patches of light
    woods and gentle hills between the front lines; played to the first card that activates
    a commander (``to_first_card``)."""
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
        tag = ("b" if s == 0 else "a") + str(seed)
        own, chiefs = _army(side, tag, units_a_side)
        where = {}
        for i, unit in enumerate(own):
            line, slot = divmod(i, slots)
            x = MARGIN + (slot + 0.5) * PITCH
            y = near_front - line * ROW if s == 0 else far_front + line * ROW
            where[unit.id] = (x, y)
            fps.append(footprint(unit, x, y, 0.0 if s == 0 else 180.0))
        behind = -1.0 if s == 0 else 1.0
        for c in chiefs:
            if c.attached_to is not None:
                continue
            if c.cinc:
                x, y = width / 2, MARGIN / 2 if s == 0 else depth - MARGIN / 2
            else:  # behind his brigade's first unit, between the lines
                x, y = where[f"{tag}-{int(c.brigade.rsplit('br', 1)[1]) * len(BRIGADE)}"]
                y += behind * ROW / 2
            marks.append(CommanderMark(c.id, x, y, side=side, label=c.name))
        units += own
        commanders += chiefs
    middle = near_front + GAP / 2
    terrain = [Feature("fence", "fence", line=((MARGIN, middle), (width / 2, middle)),
                       label="rail fence")]
    for k in range(max(1, slots // 12)):
        x = MARGIN + (k * 12 + 6) * PITCH
        kind = "light woods" if k % 2 == 0 else "gentle hill"
        terrain.append(Feature.rectangle(f"patch{k}", kind, x, middle, 4 * PITCH, GAP / 3))
    table = Table(width, depth, features=tuple(terrain), footprints=tuple(fps),
                  commanders=tuple(marks),
                  home_edges={BRITISH: Edge.NEAR, AMERICAN: Edge.FAR})
    state: State = new_battle(tuple(units), tuple(commanders), seed=seed,
                              scenario=Scenario(f"{units_a_side} units a side", turn_limit=12),
                              table=table)
    return to_first_card(state)


def to_first_card(state: State) -> State:
    """The battle played to the first card of turn 1 that activates a commander: activity
    rolled, then cards drawn (and a card that activates nobody finished) until one does."""
    if state.phase == ACTIVITY:
        state = _stepped(state, DetermineActivity())
    while True:
        state = _stepped(state, DrawCard())
        if state.phase == ACTIVATION and state.extra.active:
            return state
        state = _stepped(state, EndActivation())


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
