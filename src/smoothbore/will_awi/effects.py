"""What fire, demolitions and melee do to a battle beyond the roll itself: strength points
lost (a unit at 0 is removed, a Highland charge ends), units shaken, and the risk to the
generals with them (Rules - Firing and Melee: Risk to Generals)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from smoothbore.core import Log, revised

from . import rules
from .generals import Fate, Risk, apply_fate, in_chain_of_command, roll_risk, shakes_chain
from .morale import lose_strength
from .situations import chain_within
from .state import State
from .units import Status, Unit
from .variants import end_highland_charge

FATE_TEXT: Mapping[Fate, str] = MappingProxyType({
    Fate.NONE: "comes through unhurt",
    Fate.LIGHT_WOUND: "is lightly wounded",
    Fate.CAPTURED: "is captured",
    Fate.DEAD: "is killed",
})
"""A general's fate after his risk roll (Risk to Generals), as the narration says it."""


def lose(state: State, unit: Unit, points: int, log: Log, rule: str) -> State:
    """The state after a unit loses strength points (removed at 0; a Highland charge ends)."""
    after = lose_strength(unit, points)
    if after.status is Status.ELIMINATED:
        log.add(
            "eliminated",
            f"{unit.name} falls to 0 strength points and is removed",
            rules.INTRO_STRENGTH,
            unit.id,
        )
    after = end_highland_charge(after, lost_strength=points > 0, adverse_test=False)
    return state.with_units(after)


def shake(state: State, unit_id: str, cause: str, log: Log, rule: str) -> State:
    """A steady unit is shaken (and a Highland charge ends: an adverse morale result); a unit
    already shaken or routing is not made worse (W19). ``cause`` ends the sentence: "by
    fire"."""
    unit = state.unit(unit_id)
    if unit.status is not Status.STEADY:
        return state
    after = revised(end_highland_charge(unit, False, True), status=Status.SHAKEN)
    log.add("shaken", f"{unit.name} is shaken {cause}", rule, unit.id,
            facts={"test": "morale effect", "result": "shaken", "cause": cause})
    return state.with_units(after)


def general_risk(
    state: State, unit_id: str, risk: Risk, chain: frozenset[str], log: Log
) -> State:
    """Each general with the unit rolls his risk; killed or captured, he shakes the steady
    units of his chain of command measured within 18" (``chain``; on a table the table
    measures them from the unit he rides with, ``situations.chain_within``, when a general
    falls)."""
    measured = state.extra.table is not None
    for g in state.commanders:
        if not (g.active and g.attached_to == unit_id):
            continue
        fate = roll_risk(g, risk, dice=log.dice)
        after = apply_fate(g, fate)
        text = f"{g.name} {FATE_TEXT[fate]}"
        if fate is Fate.LIGHT_WOUND and after.state is not g.state:
            text = f"{g.name} takes a second light wound and is out of action"
        rule = rules.FIRE_GENERALS if risk is Risk.FIRE_LOSS else rules.MELEE_GENERALS
        log.add("general", text, rule, g.id,
                facts={"test": "risk to generals", "result": fate.value,
                       "state": after.state.value})
        state = state.with_commanders(after)
        if shakes_chain(fate):
            if measured:  # the footprints, which the generals' fates do not move
                chain = chain_within(state, unit_id)
                measured = False
            for u in state.units:
                if (
                    u.id in chain
                    and u.status is Status.STEADY
                    and in_chain_of_command(u, g, state.commanders)
                ):
                    state = state.with_units(revised(u, status=Status.SHAKEN))
                    log.add("shaken", f"{u.name} is shaken by the loss of {g.name}", rule, u.id,
                            facts={"test": "loss of a general", "result": "shaken",
                                   "cause": f"the loss of {g.name}"})
    return state
