"""Who decides now, when a battle is over and who won (W47: the texts define no victory, so
this is the library's documented default, which a scenario may replace with
``Engine.with_outcome``).

- A side with no fighting unit left in the fight (every unit other than wagons routing,
  eliminated, surrendered or off the table) has lost, at once.
- At the end of the scenario's last turn (a turn is both sides' moves), or when a player
  breaks off where the scenario allows it, the strength points each side has taken from the
  enemy decide: the higher score wins, equal scores are a draw."""

from __future__ import annotations

from smoothbore.core import Outcome

from . import rules
from .phases import FIRING_PHASES
from .state import State, firing_side
from .units import Status, TroopType, Unit

IN_THE_FIGHT = frozenset({Status.STEADY, Status.SHAKEN})
"""The statuses of a unit still in the fight (a routing unit has left it until it rallies)."""


def who_acts(state: State) -> str | None:
    """The side that decides now: the firing player in D, E and H (facing, fire and the
    charged units' reactions), the moving player in the other phases; nobody once the battle
    is over."""
    if is_over(state):
        return None
    return firing_side(state) if state.phase in FIRING_PHASES else state.extra.moving


def broken(state: State, side: str) -> bool:
    """Whether a side has no fighting unit (wagons do not count) steady or shaken on the
    table: all routing, eliminated, surrendered or off the table."""
    return side not in _fighting_sides(state)


def _fighting_sides(state: State) -> set[str]:
    return {u.side for u in state.units if _fights(u)}


def _fights(unit: Unit) -> bool:
    """A unit that keeps its side in the battle (W47): steady or shaken, not a wagon."""
    return ((unit.status is Status.STEADY or unit.status is Status.SHAKEN)
            and unit.troop is not TroopType.WAGON)


def is_over(state: State) -> bool:
    """Whether the battle has ended: a side is broken, the scenario's last turn is played, or
    a player has broken off where the scenario allows it."""
    if state.extra.ended_by:
        return True
    limit = state.scenario.turn_limit
    if limit is not None and state.turn > limit:
        return True
    return not _all_fighting(state)


def _all_fighting(state: State) -> bool:
    """Every side has a fighting unit (``_fighting_sides`` is every side), looking only as
    far down the units as it takes to find one of each."""
    wanted = set(state.sides)
    for u in state.units:
        if _fights(u):
            wanted.discard(u.side)
            if not wanted:
                return True
    return False


def strength_lost(state: State, side: str) -> int:
    """The strength points a side has lost: from each unit's strength at the start, all of it
    for a unit eliminated, surrendered or off the table."""
    return sum(
        max(0, u.initial_strength - (u.strength if u.on_table else 0))
        for u in state.units
        if u.side == side
    )


def scores(state: State) -> tuple[tuple[str, int], ...]:
    """Each side's score: the strength points the enemy has lost."""
    return tuple(
        (side, sum(strength_lost(state, other) for other in state.sides if other != side))
        for side in state.sides
    )


def outcome(state: State) -> Outcome:
    """Who won a battle that is over, the scores and why."""
    points = scores(state)
    beaten = [side for side in state.sides if broken(state, side)]
    if len(beaten) == 1:
        (loser,) = beaten
        winner = next(side for side in state.sides if side != loser)
        reason = (
            f"{loser} has no unit left in the fight: every one routing, eliminated, "
            "surrendered or off the table"
        )
        return Outcome(winner, points, reason, rules.VICTORY)
    if len(beaten) == 2:
        reason = "neither side has a unit left in the fight; losses decide"
    elif state.extra.ended_by:
        reason = f"{state.extra.ended_by} broke off the battle in turn {state.turn}; losses decide"
    else:
        reason = f"the scenario's {state.turn - 1} turns are played; losses decide"
    best = max(value for _, value in points)
    leaders = [side for side, value in points if value == best]
    return Outcome(leaders[0] if len(leaders) == 1 else None, points, reason, rules.VICTORY)
