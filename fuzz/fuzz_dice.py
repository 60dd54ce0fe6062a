"""atheris target: the dice parser raises only InvalidValueError and keeps its bounds."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from smoothbore.core import SmoothboreError, parse_dice
    from smoothbore.core.dice import MAX_DICE, MAX_MODIFIER, MAX_SIDES


def test_one(data: bytes) -> None:
    text = atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(40)
    try:
        dice, modifier = parse_dice(text)
    except SmoothboreError:
        return
    assert 1 <= len(dice) <= MAX_DICE and abs(modifier) <= MAX_MODIFIER
    assert all(d.sides <= MAX_SIDES for d in dice)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one)
    atheris.Fuzz()
