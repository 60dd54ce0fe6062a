"""Bloodybacks 9.3, Sequence of Play; Risk to commanders: the steps of the sequence of play
(steps_sequence.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.actions import (
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    ResolveDeferred,
)
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.deck import RED, Card
from smoothbore.bloodybacks93.phases import ACTIVATION, ACTIVITY, DEFERRED, DRAW, ENDED
from smoothbore.bloodybacks93.state import OPEN_ENDED, Activated, DeferredMelee, State
from smoothbore.core import IllegalActionError, Scenario

from .turn_setup import COMMANDERS, UNITS, active, legal, start, step

LAST_TURN = Scenario("two turns", turn_limit=2)
MAY_END = Scenario("open", players_may_end=True)


def _end_of_turn(turn: int = 1, scenario: Scenario = OPEN_ENDED) -> State:
    return attrs.evolve(start(scenario=scenario), phase=DEFERRED, turn=turn)


def test_wrong_phase_is_illegal() -> None:
    """Sequence of Play: actions out of sequence raise an error naming the rule."""
    with pytest.raises(IllegalActionError) as info:
        step(start(), DrawCard())
    assert "Sequence of Play" in info.value.rule
    with pytest.raises(IllegalActionError):
        step(start(), EndTurn())


def test_end_of_battle_fates() -> None:
    """Risk to commanders: at the end of the battle removed commanders roll on the fate
    table."""
    gone = attrs.evolve(COMMANDERS[0], removed=True, constitution=-1)
    state = attrs.evolve(_end_of_turn(scenario=MAY_END), commanders=(gone, COMMANDERS[1]))
    assert EndBattle() in legal(state)
    ended, events = step(state, EndBattle())
    assert ended.phase == ENDED and legal(ended) == ()
    fates = [e for e in events if e.kind == "fate"]
    assert len(fates) == 1 and fates[0].subject == "cb"
    assert "end of battle" in fates[0].rule
    with pytest.raises(IllegalActionError):
        step(ended, EndTurn())


def test_players_end_the_battle_only_where_the_scenario_lets_them() -> None:
    """Sequence of Play (B48): no rule lets a player end the battle by choice: after turn 1
    of a battle without a side broken or a turn limit reached, only the next turn is legal
    (random play picked EndBattle in turn 1 half the time); a scenario may let the players
    end it after any turn."""
    state = _end_of_turn()
    assert legal(state) == (EndTurn(),)
    with pytest.raises(IllegalActionError) as info:
        step(state, EndBattle())
    assert "B48" in info.value.rule
    assert set(legal(_end_of_turn(scenario=MAY_END))) == {EndTurn(), EndBattle()}
    for phase in (ACTIVITY, DRAW):
        assert EndBattle() not in legal(attrs.evolve(start(scenario=MAY_END), phase=phase))


def test_the_battle_ends_at_the_turn_limit_after_the_deferred_melees() -> None:
    """Sequence of Play (B48): the scenario's last turn ends the battle once its deferred
    melees are resolved; the fates of removed commanders are rolled."""
    melee = DeferredMelee(("b1",), ("a1",), ChargeFacts())
    state = attrs.evolve(_end_of_turn(2, LAST_TURN),
                         extra=attrs.evolve(start().extra, deferred=(melee,)))
    assert EndBattle() not in legal(state) and EndTurn() not in legal(state)
    resolved, _ = step(state, ResolveDeferred())
    assert legal(resolved) == (EndBattle(),)
    with pytest.raises(IllegalActionError, match="last"):
        step(resolved, EndTurn())
    ended, events = step(resolved, EndBattle())
    assert ended.phase == ENDED and "last turn (2)" in events[0].text
    assert legal(_end_of_turn(1, LAST_TURN)) == (EndTurn(),)


def test_a_broken_side_ends_the_battle_at_once() -> None:
    """Sequence of Play (B48): when every unit of a side is destroyed or routing, the battle
    ends there, whatever the phase: ending it is the only legal action, and the side that
    broke loses."""
    broken = tuple(attrs.evolve(u, routing=True) if u.side == "american" else u
                   for u in UNITS)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)), units=broken)
    assert legal(state) == (EndBattle(),)
    with pytest.raises(IllegalActionError, match="broken"):
        step(state, Charge(("b1",), ("a1",)))
    ended, events = step(state, EndBattle())
    assert "american side has broken" in events[0].text and ended.phase == ENDED


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


def test_scratch_state_lasts_its_card_or_its_turn() -> None:
    """Sequence of Play: what a card did (its commanders, the units it activated) ends with
    the card; what the turn did (attempts, routs, recoveries, the deck, the turn length)
    ends with the turn."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    state = attrs.evolve(state, extra=attrs.evolve(
        state.extra, deck=(Card(RED, 4),), attempted=frozenset({"b1"}),
        routed=frozenset({"a1"}), recovered=frozenset({"a2"})))
    drawn, _ = step(state, EndActivation())
    assert drawn.phase == DRAW
    assert (drawn.extra.card, drawn.extra.active, drawn.extra.activated) == (None, (), ())
    assert drawn.extra.attempted == {"b1"} and drawn.extra.routed == {"a1"}
    last, _ = step(drawn, DrawCard())
    assert last.phase == ACTIVATION and last.extra.minutes == state.extra.minutes
    ended, _ = step(last, EndActivation())
    turned, events = step(ended, EndTurn())
    assert turned.turn == 2 and turned.phase == ACTIVITY and events[0].kind == "turn"
    assert turned.extra == start().extra
