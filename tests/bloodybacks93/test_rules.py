"""Bloodybacks 9.3: every citation in one module (rules.py), and every event and roll of a
played battle names one of them."""

from __future__ import annotations

from smoothbore.battle import play, random_policy
from smoothbore.bloodybacks93 import TURN, example_battle, rules

CITATIONS = {value for name, value in vars(rules).items() if name.startswith("RULE_")}


def test_every_citation_names_the_text() -> None:
    """Each citation starts with the text's name; those where the text is silent point at
    their interpretation entry."""
    assert CITATIONS and all(c.startswith(rules.TEXT) for c in CITATIONS)
    assert "B48" in rules.RULE_VICTORY and "B49" in rules.RULE_CHARGING_ROUTERS


def test_events_and_rolls_cite_the_rules_module() -> None:
    """Every event of a few random battles, and every roll behind it, cites a rule of
    rules.py (none is written anywhere else)."""
    seen = set()
    for seed in range(20):
        played = play(TURN, example_battle(seed), random_policy(seed), max_steps=3000)
        for step in played.steps:
            for event in step.events:
                assert event.rule in CITATIONS, event
                seen.add(event.rule)
                for roll in event.rolls:
                    assert roll.rule in CITATIONS, roll
                    seen.add(roll.rule)
    assert len(seen) > 15
