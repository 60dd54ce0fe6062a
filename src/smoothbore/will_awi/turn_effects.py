"""What the phase handlers do to a state and report: the event log, illegal actions, strength
losses and the risk to generals (Rules - Firing and Melee: Risk to Generals)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import attrs

from smoothbore.core import Event, IllegalActionError, SamplingDice

from . import rules
from .actions import Entering
from .fortifications import Defence, check_room
from .generals import Fate, Risk, apply_fate, in_chain_of_command, roll_risk, shakes_chain
from .morale import lose_strength
from .movement import Crossing, crossing_cost
from .options import CommandPost
from .turn_state import WillState
from .units import Status, WillUnit
from .variants import end_highland_charge


def inches(distance: float | Fraction) -> str:
    """A distance as a referee says it: 12", 10.5"."""
    return f'{float(distance):.1f}'.removesuffix(".0") + '"'


def degrees(angle: float) -> str:
    """An angle as a referee says it: 90°, 22.5°."""
    return f"{float(angle):.1f}".removesuffix(".0") + "°"


def listed(names: list[str] | tuple[str, ...]) -> str:
    """Names in a sentence: "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def points(count: int, what: str = "point") -> str:
    """A count of points in a sentence: "1 point", "3 points"."""
    return f"{count} {what}{'' if count == 1 else 's'}"


def score_text(score: int, hit: bool) -> str:
    """What a fire score does to the target's strength, in a referee's words."""
    return f"scoring {score}: {'1 strength point lost' if hit else 'no loss'}"


def illegal(action: object, why: str, rule: str = rules.SEQUENCE) -> IllegalActionError:
    """The error for an action the rules forbid, naming the rule."""
    return IllegalActionError(action, why, rule)


def own_unit(state: WillState, unit_id: str, side: str, action: object) -> WillUnit:
    """A unit of the given side still on the table, or the error."""
    unit = state.unit(unit_id)
    if unit.side != side:
        raise illegal(action, f"{unit.name} is not a unit of {side}")
    if not unit.on_table:
        raise illegal(action, f"{unit.name} is no longer on the table")
    return unit


class Log:
    """Collects events with the rolls made since the last one."""

    def __init__(self, dice: SamplingDice) -> None:
        self.dice = dice
        self.mark = 0
        self.events: list[Event] = []

    def add(self, kind: str, text: str, rule: str, subject: str = "") -> None:
        rolls = self.dice.records_since(self.mark)
        self.mark = len(self.dice.records)
        self.events.append(Event(kind, text, rule, subject, rolls))


def lose(state: WillState, unit: WillUnit, points: int, log: Log, rule: str) -> WillState:
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


def general_risk(
    state: WillState, unit_id: str, risk: Risk, chain: frozenset[str], log: Log
) -> WillState:
    """Each general with the unit rolls his risk; killed or captured, he shakes the steady
    units of his chain of command measured within 18" (``chain``)."""
    for g in state.commanders:
        if not (g.active and g.attached_to == unit_id):
            continue
        fate = roll_risk(g, risk, dice=log.dice)
        after = apply_fate(g, fate)
        text = f"{g.name} {FATE_TEXT[fate]}"
        if fate is Fate.LIGHT_WOUND and after.state is not g.state:
            text = f"{g.name} takes a second light wound and is out of action"
        rule = rules.FIRE_GENERALS if risk is Risk.FIRE_LOSS else rules.MELEE_GENERALS
        log.add("general", text, rule, g.id)
        state = state.with_commanders(after)
        if shakes_chain(fate):
            for u in state.units:
                if (
                    u.id in chain
                    and u.status is Status.STEADY
                    and in_chain_of_command(u, g, state.commanders)
                ):
                    state = state.with_units(attrs.evolve(u, status=Status.SHAKEN))
                    log.add("shaken", f"{u.name} is shaken by the loss of {g.name}", rule, u.id)
    return state


def command_rule(state: WillState) -> str:
    """The command and control post in play, as a rule citation."""
    post = state.extra.options.command_post
    return rules.COMMAND_MARCH if post is CommandPost.MARCH_2008 else rules.COMMAND_JANUARY


FATE_TEXT = MappingProxyType({
    Fate.NONE: "comes through unhurt",
    Fate.LIGHT_WOUND: "is lightly wounded",
    Fate.CAPTURED: "is captured",
    Fate.DEAD: "is killed",
})
"""A general's fate after his risk roll (Risk to Generals), as the narration says it."""


Handler = Callable[[WillState, Any, Log], WillState]
"""A phase handler: the state, the action (checked by the handler), the log; the new state."""


def enter_building(
    state: WillState, unit: WillUnit, entering: Entering | None, action: object
) -> Defence | None:
    """Check a unit entering or occupying a building (Rules - Terrain: Buildings): the
    building exists, the unit's kind may enter one (Movement: NA for mounted and wheeled), and
    there is room beside the units the player says are already in it. None when it enters
    none."""
    if entering is None:
        return None
    building = work_named(state, entering.building, action)
    crossing_cost(unit, Crossing.ENTER_BUILDING, action)
    occupants = tuple(state.unit(uid) for uid in entering.occupants)
    for o in occupants:
        if not o.on_table:
            raise illegal(action, f"{o.name} is no longer on the table", rules.BUILDINGS)
    check_room(building, unit, occupants, action)
    return building


def work_named(state: WillState, work_id: str, action: object) -> Defence:
    """The work (building, fieldwork) with this id, or the error."""
    work = next((w for w in state.extra.works if w.id == work_id), None)
    if work is None:
        raise illegal(action, f"no work {work_id!r}", rules.FORT_VALUES)
    return work
