"""Who acts, when the battle ends and who won: the text sets no victory conditions, so these
are the library's documented defaults, which a scenario may replace with
``TURN.with_outcome(...)`` (docs/interpretations/bloodybacks93.md, B48).

- A side breaks when none of its units is left in good order (every one destroyed or
  routing); the battle then ends, and the side that broke loses.
- At the end of the scenario's last turn, once its deferred melees are resolved, the battle
  ends; where the scenario allows, the players may end it after any turn.
- Each side scores the losses of the enemy: one point per stamina loss on an enemy unit still
  standing, and the whole size of an enemy unit destroyed or routing at the end (its
  stamina losses if more: they are hits, not figures, and are not capped by the size).
  Without a broken side, the higher score wins; equal scores are a draw.
"""

from __future__ import annotations

from smoothbore.core import Outcome

from .phases import ACTIVATION, ENDED
from .rules import RULE_VICTORY
from .state import State, broken_sides
from .units import Unit


def who_acts(state: State) -> str | None:
    """The side that decides now: the side of the card in play while its commanders act;
    None for the steps of the sequence the players make together (activity, drawing, ending
    a turn or the battle, settling deferred melees) (B48)."""
    card = state.extra.card
    if state.phase == ACTIVATION and card is not None and not state.derived(broken_sides):
        return card.side
    return None


def is_over(state: State) -> bool:
    """Whether the battle has ended (the fates of removed commanders are rolled)."""
    return state.phase == ENDED


def decided(state: State) -> tuple[str, str] | None:
    """Why no action but ending the battle is left, and the rule, once a side has broken
    (None while the battle goes on): the engine's guard of every other action
    (``Engine.decided``, asked once per state)."""
    broken = state.derived(broken_sides)
    if not broken:
        return None
    return (f"the {' and '.join(broken)} side has broken (every unit destroyed or routing): "
            "the battle ends", RULE_VICTORY)


def actor(action: object) -> str | None:
    """The unit that acts (the engine's guard: of the card's side, and standing): the unit
    of a unit's action, the first charger of a charge; None for the steps of the sequence
    and a commander's point."""
    unit_id = getattr(action, "unit_id", None)
    if isinstance(unit_id, str):
        return unit_id
    chargers = getattr(action, "unit_ids", None)
    return chargers[0] if isinstance(chargers, tuple) and chargers else None


def at_turn_limit(state: State) -> bool:
    """Whether this is the scenario's last turn."""
    limit = state.scenario.turn_limit
    return limit is not None and state.turn >= limit


def lost(unit: Unit) -> int:
    """What a unit's losses score for the enemy: its whole size (a battery its models) when
    destroyed or routing, or its stamina losses if more (stamina losses are hits, which can
    outnumber the figures: breaking a unit never scores less than hurting it); otherwise its
    stamina losses (B48)."""
    if unit.gone:
        return max(unit.size, unit.stamina_losses)
    return unit.stamina_losses


def score(state: State, side: str) -> int:
    """The losses a side has inflicted on the enemy."""
    return sum(lost(u) for u in state.units if u.side != side)


def ending(state: State) -> str:
    """Why the battle ends (or ended), in words."""
    broken = broken_sides(state)
    if broken:
        return (
            f"the {' and '.join(broken)} side has broken: every unit destroyed or routing"
        )
    if at_turn_limit(state):
        return f"the scenario's last turn ({state.turn}) has been played"
    return f"the players ended the battle after turn {state.turn}"


def outcome(state: State) -> Outcome:
    """The default result: a side that broke loses (if both broke, or none did, the scores
    decide, equal scores being a draw)."""
    scores = tuple((side, score(state, side)) for side in state.sides)
    broken = broken_sides(state)
    reason = ending(state)
    if len(broken) == 1:
        winner = next(side for side in state.sides if side not in broken)
        return Outcome(winner, scores, reason, RULE_VICTORY)
    best = max(value for _, value in scores)
    leaders = [side for side, value in scores if value == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], scores, f"{reason}; the enemy's losses decide", RULE_VICTORY)
    return Outcome(None, scores, f"{reason}; equal losses", RULE_VICTORY)
