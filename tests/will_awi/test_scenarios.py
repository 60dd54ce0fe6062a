"""The embedded battle (scenarios) plays from legal_actions, and its narration reads as a
referee would say it (Rules - Move Sequence)."""

from __future__ import annotations

import random
import re

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.will_awi.options import Options
from smoothbore.will_awi.scenarios import example_battle
from smoothbore.will_awi.sequence import TURN

AWKWARD = (
    re.compile(r'\d\.0["°]'),  # 12.0" or 90.0°
    re.compile(r'(?<![\d.])0(\.0)?["°]'),  # a move or turn of nothing
    re.compile(r"\b[rb][123]\b|\b[rb]g\b"),  # unit or general ids instead of names
    re.compile(r"\bSP\b"),
)


def test_example_battle() -> None:
    """The embedded battle: British foot and dragoons under Lord Rawdon against Continentals,
    militia and a light gun under Greene (a brigadier with the 1st Maryland)."""
    s = example_battle(3)
    assert s.sides == ("British", "American") and s.phase == "A" and s.extra.moving == "British"
    assert [u.id for u in s.units] == ["r1", "r2", "b1", "b2", "b3"]
    assert s.commander("bg").attached_to == "b1" and s.dice.seed == 3


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_narration_reads_as_sentences(seed: int, command: bool) -> None:
    """Every event of two played turns starts with a capital (or a regiment's number), names
    units by name, and never reports a distance or angle of nothing or with a trailing .0."""
    rng = random.Random(seed)
    s = example_battle(seed)
    s = attrs.evolve(s, extra=attrs.evolve(s.extra, options=Options(command_control=command)))
    while s.turn <= 2:
        s, events = TURN.step(s, rng.choice(TURN.legal_actions(s)))
        for e in events:
            assert e.text[0].isupper() or e.text[0].isdigit(), e.text
            assert not any(p.search(e.text) for p in AWKWARD), e.text
