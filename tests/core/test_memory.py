"""What a long run of battles leaves behind (issue 29's memory target: resident memory flat
after the first 100 of 10,000 battles in one process; ``benchmarks/memory.py`` measures
it). Here, the values of one battle are checked to go once nothing holds them: no
process-wide cache of core's keeps them alive."""

from __future__ import annotations

import gc
import weakref

from smoothbore.battle import RandomPolicy, play
from smoothbore.core import DrawCheck, SamplingDice
from smoothbore.rulesets import get_ruleset


def test_a_drawn_deck_is_not_kept_by_the_words_of_its_roll() -> None:
    """A draw's check holds the deck as it stands, so there are as many as decks drawn
    from: its roll's words are made afresh, not kept in a process-wide cache with it."""
    dice = SamplingDice(5)
    decks = [DrawCheck(tuple(f"card {i}-{j}" for j in range(10)), 2) for i in range(50)]
    for deck in decks:
        dice.roll(deck, reason="the activation draw", rule="Drill 1")
    words = {record.check for record in dice.records}
    assert words == {"draw 2 of 10 without replacement"}
    gone = [weakref.ref(deck) for deck in decks]
    del decks, dice, deck
    gc.collect()
    assert [ref() for ref in gone] == [None] * 50


def test_a_played_battle_leaves_no_state_behind() -> None:
    """The states of a battle on a table, played to its end, go when the caller drops
    them: neither the engine (its dice carried onto new states, its rulings) nor a
    process-wide cache keeps one."""
    ruleset = get_ruleset("example")
    assert ruleset.turn is not None
    played = play(ruleset.turn, ruleset.battle("default")(4242), RandomPolicy(4242))
    assert played.finished
    start, end = weakref.ref(played.start), weakref.ref(played.end)
    del played
    gc.collect()
    assert start() is None and end() is None
