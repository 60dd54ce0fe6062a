"""Risk to Generals (Rules - Firing and Rules - Melee)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import odds
from smoothbore.will_awi.generals import (
    Fate,
    Risk,
    apply_fate,
    general_move,
    in_chain_of_command,
    roll_risk,
    shakes_chain,
)
from smoothbore.will_awi.units import Commander, GeneralState, Rank, TroopType, Unit

FACES = range(1, 7)


def brute(table: dict[int, Fate]) -> dict[Fate, Fraction]:
    out: dict[Fate, Fraction] = {}
    for a, b in product(FACES, FACES):
        fate = table[a + b]
        out[fate] = out.get(fate, Fraction(0)) + Fraction(1, 36)
    return out


LOSS = {
    t: Fate.NONE if t <= 8 else Fate.LIGHT_WOUND if t <= 10 else Fate.DEAD for t in range(2, 13)
}
ROUT = {
    t: Fate.NONE
    if t <= 7
    else Fate.LIGHT_WOUND
    if t <= 9
    else Fate.CAPTURED
    if t == 10
    else Fate.DEAD
    for t in range(2, 13)
}


@pytest.mark.parametrize(
    ("risk", "table"), [(Risk.FIRE_LOSS, LOSS), (Risk.MELEE_LOSS, LOSS), (Risk.MELEE_ROUT, ROUT)]
)
def test_risk_tables_exact(risk: Risk, table: dict[int, Fate]) -> None:
    """Fire or melee losses: 2-8 none, 9-10 light wound, 11-12 dead; melee rout: 2-7 none,
    8-9 light wound, 10 captured, 11-12 dead."""
    g = Commander("g", "G", "x")
    d = odds(roll_risk, g, risk)
    assert {f: d.probability(f) for f in d.outcomes} == brute(table)


def test_second_light_wound_incapacitates() -> None:
    """A second light wound removes the general; a light wound halves his move."""
    g = Commander("g", "G", "x", attached_to="u")
    once = apply_fate(g, Fate.LIGHT_WOUND)
    assert once.light_wounds == 1 and once.active and general_move(once) == 10.5
    twice = apply_fate(once, Fate.LIGHT_WOUND)
    assert twice.state is GeneralState.INCAPACITATED and not twice.active
    assert apply_fate(g, Fate.CAPTURED).state is GeneralState.CAPTURED
    assert general_move(g) == 21


def test_chain_of_command() -> None:
    """Killed or captured: units in his chain of command (within 18") are shaken."""
    senior = Commander("s", "S", "x", Rank.SENIOR)
    brig = Commander("b", "B", "x", superior="s")
    other = Commander("o", "O", "x")
    u = Unit("u", "U", "x", TroopType.LINE, commander="b")
    gens = (senior, brig, other)
    assert in_chain_of_command(u, brig, gens) and in_chain_of_command(u, senior, gens)
    assert not in_chain_of_command(u, other, gens)
    assert shakes_chain(Fate.DEAD) and shakes_chain(Fate.CAPTURED)
    assert not shakes_chain(Fate.LIGHT_WOUND)


def test_allocation_guide() -> None:
    """Rules - Introduction: Generals: brigadier per 3-5 units, senior per 2-4 brigadiers."""
    from smoothbore.will_awi.generals import allocation_problems

    units = tuple(Unit(f"u{i}", "U", "x", TroopType.LINE, commander="b1") for i in range(4))
    gens = (
        Commander("s", "S", "x", Rank.SENIOR),
        Commander("b1", "B1", "x", superior="s"),
        Commander("b2", "B2", "x", superior="s"),
    )
    problems = allocation_problems(units, gens)
    assert problems == ("B2 commands 0 units (3-5 advised)",)
    cinc = (*gens, Commander("c", "C", "x", Rank.CINC))
    assert any("C in C" in p for p in allocation_problems(units, cinc))
