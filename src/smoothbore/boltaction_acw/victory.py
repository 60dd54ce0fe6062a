"""Who acts, when the battle ends and who won. The text gives break points (Brigade and army
strength) but no victory conditions, so these are the library's documented defaults (A20),
which a scenario may replace with ``TURN.with_outcome(...)``:

- a side with no unit left in the fight (every unit destroyed, gone home or routing) has
  lost, at once;
- at the end of the scenario's last turn, a side that holds the scenario's objective on the
  table wins (A21: a unit of it in the fight stands there, its centre on the feature, and
  no enemy unit in the fight does); otherwise an army that has lost half its brigades loses to
  one that has not; otherwise the side that took more enemy units out of the fight wins, and
  equal scores are a draw. Each side scores the enemy units destroyed, gone home or routing.
"""

from __future__ import annotations

from smoothbore.core import Outcome
from smoothbore.table import region_of

from .phases import CHOOSE, ENDED, ORDERS, REACTION
from .rules import RULE_OBJECTIVE, RULE_VICTORY
from .state import State, army_broken, broken_sides, situation


def who_acts(state: State) -> str | None:
    """The side that decides now: a routing unit's side for its rout move; the charged
    unit's side for its reaction; the drawn colour's side choosing a brigade and giving its
    orders; None to draw a die, end a turn or fight a melee that continues."""
    if is_over(state):
        return None
    extra = state.extra
    if extra.routs:
        return state.unit(extra.routs[0]).side
    if state.phase == REACTION and extra.charge is not None:
        return state.unit(extra.charge.target_id).side
    if state.phase == CHOOSE:
        return extra.drawn
    if state.phase == ORDERS and extra.group is not None:
        return situation(state).side
    return None


def is_over(state: State) -> bool:
    """Whether the battle has ended: after the last turn, or a side has no unit left in the
    fight."""
    return state.phase == ENDED or bool(broken_sides(state))


def decided(state: State) -> tuple[str, str] | None:
    """Why no action is taken once a side has no unit left in the fight, and the rule (the
    engine's guard, ``Engine.decided``: every action but none); None while both fight."""
    broken = broken_sides(state)
    if broken:
        return f"the {' and '.join(broken)} side has no unit left in the fight", RULE_VICTORY
    return None


def score(state: State, side: str) -> int:
    """Enemy units a side has taken out of the fight: destroyed, gone home or routing."""
    return sum(1 for u in state.units if u.side != side and not u.in_the_fight)


def holder(state: State) -> tuple[str, str] | None:
    """The side that holds the scenario's objective (A21), and the objective's name: a unit of
    the side in the fight has its centre on the feature and no enemy unit in the fight has;
    None when nobody or both sides do, or the battle has no objective."""
    table, objective = state.extra.table, state.extra.objective
    if table is None or objective is None:
        return None
    feature = table.feature(objective)
    ground = region_of(feature)
    sides = {u.side for u in state.units if u.in_the_fight
             and ground.covers(table.footprint(u.id).centre)}
    return (sides.pop(), feature.label or objective) if len(sides) == 1 else None


def outcome(state: State) -> Outcome:
    """The result: the scenario's objective (A21), else the defaults (A20)."""
    scores = tuple((side, score(state, side)) for side in state.sides)
    broken = broken_sides(state)
    if len(broken) == 1:
        winner = next(side for side in state.sides if side not in broken)
        return Outcome(winner, scores, f"the {broken[0]} side has no unit left in the fight",
                       RULE_VICTORY)
    reason = "the last turn has been played" if not broken else (
        "neither side has a unit left in the fight")
    held = holder(state)
    if held is not None:
        side, place = held
        return Outcome(side, scores, f"{reason}; the {side} side holds {place}", RULE_OBJECTIVE)
    beaten = [side for side in state.sides if army_broken(state, side)]
    if len(beaten) == 1:
        winner = next(side for side in state.sides if side not in beaten)
        return Outcome(winner, scores,
                       f"{reason}; the {beaten[0]} army has lost half its brigades",
                       RULE_VICTORY)
    best = max(value for _, value in scores)
    leaders = [side for side, value in scores if value == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], scores, f"{reason}; more enemy units out of the fight",
                       RULE_VICTORY)
    return Outcome(None, scores, f"{reason}; equal losses", RULE_VICTORY)

