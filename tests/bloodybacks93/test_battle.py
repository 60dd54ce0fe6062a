"""Bloodybacks 9.3: the ruleset's battle state and its lookups (battle.py)."""

from __future__ import annotations

import attrs

from smoothbore.bloodybacks93.battle import attached_commanders, leader_attached, unit_commander
from smoothbore.bloodybacks93.turn import (
    DRAW,
    DetermineActivity,
    DrawCard,
    Extra,
    legal_actions,
    step,
)
from smoothbore.bloodybacks93.units import (
    BRITISH,
    Commander,
    Unit,
)
from smoothbore.core import BattleState

from .turn_setup import COMMANDERS, UNITS, start


def test_state_round_trips_through_json() -> None:
    """Sequence of Play: a battle state serialises and reads back equal."""
    state, _ = step(start(), DetermineActivity())
    state, _ = step(state, DrawCard())
    text = state.to_json()
    back = BattleState.from_json(text, Unit, Commander, Extra)
    assert back == state
    assert legal_actions(back) == legal_actions(state)
    assert DRAW == "draw"


def test_a_new_battle_starts_before_activity() -> None:
    """Sequence of Play: turn 1 begins by determining activity; the deck holds the ten cards
    (Activation deck) and nobody has acted."""
    state = start(3)
    assert (state.turn, state.phase, state.ruleset) == (1, "activity", "bloodybacks93")
    assert len(state.extra.deck) == 10 and state.extra.card is None
    assert state.extra.activated == () and state.extra.attempted == frozenset()
    assert state.dice.seed == 3


def test_whose_attached_commander_counts_for_tests() -> None:
    """Morale: Modifiers: +1 if the unit's commander and/or the CinC is attached (B43): the
    brigade's own commander or the CinC counts, another brigadier or a removed commander does
    not; any living commander attached is listed (Determine impetus counts any)."""
    foot = UNITS[0]  # brigade 1
    own = attrs.evolve(COMMANDERS[0], attached_to="b1")
    other = Commander("c2", "Major Ferguson", BRITISH, command_quality=3, activity_rating=3,
                      brigade="2", attached_to="b1")
    cinc = attrs.evolve(other, id="c0", name="General Howe", cinc=True)
    base = start()
    with_own = attrs.evolve(base, commanders=(own, COMMANDERS[1]))
    with_other = attrs.evolve(base, commanders=(COMMANDERS[0], other, COMMANDERS[1]))
    with_cinc = attrs.evolve(base, commanders=(COMMANDERS[0], cinc, COMMANDERS[1]))
    gone = attrs.evolve(base, commanders=(attrs.evolve(own, removed=True), COMMANDERS[1]))
    assert leader_attached(with_own, foot) and leader_attached(with_cinc, foot)
    assert not leader_attached(with_other, foot) and not leader_attached(gone, foot)
    assert [c.id for c in attached_commanders(with_other, "b1")] == ["c2"]
    assert attached_commanders(gone, "b1") == ()
    # the unit's own commander is its brigadier, before a CinC of the same brigade
    chief = attrs.evolve(cinc, brigade="1", attached_to=None)
    both = attrs.evolve(base, commanders=(chief, COMMANDERS[0], COMMANDERS[1]))
    mine = unit_commander(both, foot)
    assert mine is not None and mine.id == "cb"
    assert unit_commander(gone, foot) is None
