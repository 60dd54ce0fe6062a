"""Who decides now, when a battle is over and who won (M1: the text has no victory rule, so
this is the library's documented default, which a scenario may replace with
``Engine.with_outcome``).

- A side with no unit in good order (steady or retreating) on the table has lost, at once.
- After the scenario's last period, the figures each side has taken from the enemy decide
  (killed, wounded or captured; each 5 guns destroyed count as a figure): the higher score
  wins, equal scores are a draw."""

from __future__ import annotations

from smoothbore.core import Outcome

from . import rules
from .losses import DayLosses, battle_losses
from .phases import INITIATIVE
from .state import State, amount
from .units import Status

GUNS_PER_FIGURE = 5
"""A gun model of 20 guns has a crew of 4 figures: 5 guns a figure, for the score."""


def who_acts(state: State) -> str | None:
    """The initiative winner choosing, a melee's winner deciding to follow up, otherwise the
    side acting in the step; None for the initiative roll and once the battle is over."""
    if is_over(state):
        return None
    x = state.extra
    if state.phase == INITIATIVE:
        return x.initiative or None
    if x.follow:
        return next(u.side for u in state.units if u.id == x.follow[0])
    return x.acting


def _in_good_order(state: State) -> set[str]:
    return {u.side for u in state.units
            if u.status is Status.STEADY or u.status is Status.RETREATING}


def is_over(state: State) -> bool:
    """A side has no unit in good order, or the scenario's last period is played."""
    limit = state.scenario.turn_limit
    if limit is not None and state.turn > limit:
        return True
    first, second = state.sides
    standing_first = standing_second = False
    for u in state.units:
        if u.status is Status.STEADY or u.status is Status.RETREATING:
            if u.side == first:
                standing_first = True
            elif u.side == second:
                standing_second = True
            if standing_first and standing_second:
                return False
    return True


def figures_lost(state: State, side: str) -> int:
    """What a side has lost: figures (all of a unit destroyed, surrendered or off the table)
    and destroyed guns (5 to a figure)."""
    total = 0
    for u in state.units:
        if u.side == side:
            total += u.initial_figures - (u.figures if u.on_table else 0)
            if u.is_gun:
                total += (20 - u.pieces) // GUNS_PER_FIGURE
    return total


def casualties(state: State, side: str) -> int:
    """Figures a side has lost killed or wounded: its figures gone from its units, less those
    taken prisoner (units that routed off the table keep the figures they had)."""
    gone = sum(u.initial_figures - u.figures for u in state.units if u.side == side)
    taken = sum(amount(state.extra.prisoners, s) for s in state.sides if s != side)
    return gone - taken


def day_breakdown(state: State, side: str) -> DayLosses:
    """Battle losses: a side's casualties of the day broken down (15% dead, 35% badly
    wounded, 50% slightly wounded or helping, who return at the end of the day)."""
    return battle_losses(casualties(state, side))


def scores(state: State) -> tuple[tuple[str, int], ...]:
    """Each side's score: what the enemy has lost."""
    return tuple((side, sum(figures_lost(state, o) for o in state.sides if o != side))
                 for side in state.sides)


def outcome(state: State) -> Outcome:
    """Who won a battle that is over, the scores and why (with each side's battle-loss
    breakdown)."""
    result = _decide(state)
    losses = "; ".join(f"{side} lost {day_breakdown(state, side)}" for side in state.sides)
    return Outcome(result.winner, result.scores, f"{result.reason} ({losses})", result.rule)


def _decide(state: State) -> Outcome:
    points = scores(state)
    standing = _in_good_order(state)
    beaten = [s for s in state.sides if s not in standing]
    if len(beaten) == 1:
        (loser,) = beaten
        winner = next(s for s in state.sides if s != loser)
        return Outcome(winner, points, f"{loser} has no unit left in good order on the table",
                       rules.VICTORY)
    if len(beaten) == 2:
        reason = "neither side has a unit in good order; losses decide"
    else:
        reason = f"the scenario's {state.turn - 1} periods are played; losses decide"
    best = max(v for _, v in points)
    leaders = [s for s, v in points if v == best]
    return Outcome(leaders[0] if len(leaders) == 1 else None, points, reason, rules.VICTORY)
