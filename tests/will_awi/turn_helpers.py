"""Shared set-up for the Turn tests: a small battle and phase stepping."""

from __future__ import annotations

import attrs

from smoothbore.will_awi.actions import DeclareCharge, EndPhase, TestCharged
from smoothbore.will_awi.charges import ChargeFacts, Face
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.state import State, new_battle, with_extra
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, Rank, TroopType, Unit


def battle(seed: int = 1, options: Options | None = None, **changes: Unit) -> State:
    """Red (British foot and dragoons under Webster) against blue (Continentals, militia and
    light guns under Greene, who rides with the Continentals), red to move, no turn limit."""
    units = {
        "r1": Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH, commander="rb"),
        "r2": Unit(
            "r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH, commander="rb"
        ),
        "b1": Unit("b1", "Continentals", "blue", TroopType.LINE, commander="bb"),
        "b2": Unit("b2", "Militia", "blue", TroopType.MILITIA, commander="bb"),
        "b3": Unit("b3", "Guns", "blue", TroopType.LIGHT_GUN, commander="bb"),
    }
    units.update(changes)
    gens = (
        Commander("rb", "Webster", "red", rating=8),
        Commander("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1"),
    )
    return new_battle(
        ("red", "blue"), tuple(units.values()), gens, seed=seed, options=options or Options()
    )


def to_phase(state: State, phase: str) -> State:
    """Step EndPhase until the phase is reached."""
    while state.phase != phase:
        state, _ = TURN.step(state, EndPhase())
    return state


def charge_state(seed: int) -> State:
    """Phase G after the dragoons charged the militia and the militia tested."""
    s = to_phase(battle(seed), "F")
    s, _ = TURN.step(s, DeclareCharge("r2", "b2", 5.0, facts=ChargeFacts(Face.FRONT)))
    s, _ = TURN.step(s, EndPhase())
    s, _ = TURN.step(s, TestCharged("b2"))
    return s


WAGON = Unit("r9", "Wagon", "red", TroopType.WAGON, Nationality.BRITISH)
"""Red's wagon of tools and charges (Field Engineering, Demolition)."""


def works_battle(seed: int = 1, wagon: bool = True, **changes: Unit) -> State:
    """The battle with a timber fieldwork and a redoubt, and a wagon of red's (or none)."""
    s = battle(seed, r9=WAGON, **changes) if wagon else battle(seed, **changes)
    return with_extra(
        s, works=(Defence.new(Work.TIMBER_FIELDWORK, "fw"), Defence.new(Work.REDOUBT, "rd"))
    )


def next_own_move(s: State) -> State:
    """Phase C of the same side's next move."""
    for _ in range(2):
        s = to_phase(s, "K")
        s, _ = TURN.step(s, EndPhase())
    return to_phase(s, "C")


def with_options(s: State, **changes: object) -> State:
    """The state with some options changed."""
    return attrs.evolve(s, options=attrs.evolve(s.options, **changes))
