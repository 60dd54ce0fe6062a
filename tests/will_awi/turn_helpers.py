"""Shared set-up for the Turn tests: a small battle and phase stepping."""

from __future__ import annotations

import attrs

from smoothbore.will_awi.charges import ChargeFacts, Face
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.sequence import (
    TURN,
    DeclareCharge,
    EndPhase,
    TestCharged,
    WillState,
    new_battle,
)
from smoothbore.will_awi.units import (
    Nationality,
    Rank,
    TroopType,
    WillGeneral,
    WillUnit,
)


def battle(seed: int = 1, options: Options | None = None, **changes: WillUnit) -> WillState:
    units = {
        "r1": WillUnit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH, commander="rb"),
        "r2": WillUnit(
            "r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH, commander="rb"
        ),
        "b1": WillUnit("b1", "Continentals", "blue", TroopType.LINE, commander="bb"),
        "b2": WillUnit("b2", "Militia", "blue", TroopType.MILITIA, commander="bb"),
        "b3": WillUnit("b3", "Guns", "blue", TroopType.LIGHT_GUN, commander="bb"),
    }
    units.update(changes)
    gens = (
        WillGeneral("rb", "Webster", "red", rating=8),
        WillGeneral("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1"),
    )
    return new_battle(
        ("red", "blue"), tuple(units.values()), gens, seed=seed, options=options or Options()
    )


def to_phase(state: WillState, phase: str) -> WillState:
    while state.phase != phase:
        state, _ = TURN.step(state, EndPhase())
    return state


def charge_state(seed: int) -> WillState:
    s = to_phase(battle(seed), "F")
    s, _ = TURN.step(s, DeclareCharge("r2", "b2", 5.0, facts=ChargeFacts(Face.FRONT)))
    s, _ = TURN.step(s, EndPhase())
    s, _ = TURN.step(s, TestCharged("b2"))
    return s


def works_battle(seed: int = 1) -> WillState:
    from smoothbore.will_awi.fortifications import Defence, Work

    s = battle(seed)
    return attrs.evolve(
        s,
        extra=attrs.evolve(
            s.extra,
            works=(Defence.new(Work.TIMBER_FIELDWORK, "fw"), Defence.new(Work.REDOUBT, "rd")),
        ),
    )


def next_own_move(s: WillState) -> WillState:
    """Phase C of the same side's next move."""
    for _ in range(2):
        s = to_phase(s, "K")
        s, _ = TURN.step(s, EndPhase())
    return to_phase(s, "C")
