"""atheris target: the state loaders of both rulesets raise only SmoothboreError, and a state
that loads writes back text that loads to the same state."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from smoothbore.core import SmoothboreError
    from smoothbore.rulesets import get_ruleset

TURNS = [get_ruleset(name).turn for name in ("bloodybacks93", "will_awi")]


def test_one(data: bytes) -> None:
    provider = atheris.FuzzedDataProvider(data)
    turn = TURNS[provider.ConsumeIntInRange(0, len(TURNS) - 1)]
    text = provider.ConsumeUnicodeNoSurrogates(provider.remaining_bytes())
    try:
        state = turn.load(text)  # type: ignore[union-attr]
    except SmoothboreError:
        return
    again = state.to_json()
    assert turn.load(again) == state  # type: ignore[union-attr]


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one)
    atheris.Fuzz()
