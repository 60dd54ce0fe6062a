"""Hypothesis strategies for Will's AWI values."""

from __future__ import annotations

from hypothesis import strategies as st

from smoothbore.will_awi.units import Formation, Nationality, Status, TroopType, Unit

FIELD_TYPES = tuple(t for t in TroopType)
FOOT_AND_HORSE = tuple(t for t in TroopType if t.is_foot or t.is_cavalry)


@st.composite
def units(
    draw: st.DrawFn,
    troops: tuple[TroopType, ...] = FIELD_TYPES,
    side: str = "red",
    uid: str = "u",
    statuses: tuple[Status, ...] = (Status.STEADY, Status.SHAKEN, Status.ROUTING),
) -> Unit:
    """A unit on the table of any type, strength, nationality, formation and status."""
    troop = draw(st.sampled_from(troops))
    strength = draw(st.integers(1, 6))
    formation = (
        Formation.LINE
        if troop.is_gun or troop is TroopType.WAGON
        else draw(st.sampled_from(tuple(Formation)))
    )
    return Unit(
        uid,
        uid,
        side,
        troop,
        draw(st.sampled_from(tuple(Nationality))),
        strength=strength,
        initial_strength=draw(st.integers(strength, 6)),
        formation=formation,
        status=draw(st.sampled_from(statuses)),
        militia_morale=draw(st.sampled_from((1, 2))),
        morale_bonus=draw(st.integers(0, 1)),
        fire_bonus=draw(st.integers(0, 1)),
        limbered=troop.is_gun and draw(st.booleans()),
    )
