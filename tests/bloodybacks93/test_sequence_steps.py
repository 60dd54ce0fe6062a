"""Bloodybacks 9.3, Sequence of Play; Risk to commanders: the steps of the sequence of play
(sequence_steps.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.sequence import RED, Card
from smoothbore.bloodybacks93.turn import (
    DEFERRED,
    ENDED,
    Activated,
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    ResolveDeferred,
    legal_actions,
    step,
)
from smoothbore.core import IllegalActionError

from .turn_setup import COMMANDERS, active, start


def test_end_of_battle_fates() -> None:
    """Risk to commanders: at the end of the battle removed commanders roll on the fate
    table."""
    gone = attrs.evolve(COMMANDERS[0], removed=True, constitution=-1)
    state = attrs.evolve(start(), commanders=(gone, COMMANDERS[1]), phase=DEFERRED)
    assert EndBattle() in legal_actions(state)
    ended, events = step(state, EndBattle())
    assert ended.phase == ENDED and legal_actions(ended) == ()
    fates = [e for e in events if e.kind == "fate"]
    assert len(fates) == 1 and fates[0].subject == "cb"
    assert "end of battle" in fates[0].rule
    with pytest.raises(IllegalActionError):
        step(ended, EndTurn())


def test_deferred_melee_with_tables_turned() -> None:
    """Charges and melee: Determine impetus: in a deferred melee where the tables have
    turned, the counter-charging defenders roll the impetus."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    deferred, _ = step(state, Charge(("b1",), ("a1",), defer=True))
    ended, _ = step(deferred, EndActivation())
    _, events = step(ended, ResolveDeferred(reverse=True))
    assert events[0].kind == "melee" and events[0].subject == "a1"
    assert "impetus of Continentals" in events[0].rolls[0].reason


def test_determine_activity_follows_the_activity_rule() -> None:
    """Determine commander activation level: a dAv roll above the AR gives level 1, otherwise
    the roll; command points are half the level rounded up. Webster (AR4) and Stevens (AR2),
    each rolling one average die (2, 3, 3, 4, 4, 5)."""
    seen: set[tuple[str, int, int]] = set()
    for seed in range(40):
        state, events = step(start(seed), DetermineActivity())
        assert state.phase == "draw" and len(state.extra.deck) == 10
        for entry, event in zip(state.extra.activity, events, strict=True):
            rating = state.commander(entry.commander_id).activity_rating
            (record,) = event.rolls
            (roll,) = record.faces
            assert roll in (2, 3, 4, 5)
            level = 1 if roll > rating else roll
            assert (entry.level, entry.command_points) == (level, (level + 1) // 2)
            seen.add((entry.commander_id, entry.level, entry.command_points))
    # Stevens: AL2 (1 CP) or AL1 (1 CP); Webster reaches AL4 (2 CP) and AL1 on a 5
    assert {("ca", 2, 1), ("ca", 1, 1), ("cb", 4, 2), ("cb", 1, 1), ("cb", 3, 2)} <= seen


def test_draw_card_sets_the_turn_and_activates_by_level() -> None:
    """Activating Commanders: the first card's value plus one, times 5, is the turn length;
    each card activates its colour's commanders of that activity level (red: British)."""
    for seed in range(30):
        state, _ = step(start(seed), DetermineActivity())
        first, events = step(state, DrawCard())
        card = first.extra.card
        assert card is not None and len(first.extra.deck) == 9
        assert first.extra.minutes == (card.value + 1) * 5
        expected = tuple(
            a.commander_id for a in state.extra.activity
            if state.commander(a.commander_id).side == card.side and a.level == card.value
        )
        assert first.extra.active == expected
        assert f"{first.extra.minutes}-minute turn" in events[0].text
        ended, _ = step(first, EndActivation())
        second, _ = step(ended, DrawCard())
        assert second.extra.minutes == first.extra.minutes  # only the first card sets it
        assert second.extra.card != card
