"""morale.py: the average die plus every tactical factor, against a brute-force oracle."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import odds
from smoothbore.mckie_acw.morale import MoraleFacts, morale_modifier, test_morale
from smoothbore.mckie_acw.tables import DEFAULT_TABLES, MoraleResult
from smoothbore.mckie_acw.units import Quality

AVERAGE = (2, 3, 3, 4, 4, 5)


def oracle(modifier: int) -> dict[MoraleResult, Fraction]:
    out: dict[MoraleResult, Fraction] = {}
    for face in AVERAGE:
        r = DEFAULT_TABLES.morale_result(face + modifier)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
    return out


def test_each_factor_of_the_text() -> None:
    all_bad = MoraleFacts(Quality.RAW, tenths_lost=3, routing_past=2, tired=True, flank=True,
                          lost_melee=True, rear=True, retreating=True, under_artillery=True)
    assert morale_modifier(all_bad).total == -3 - 2 - 1 - 1 - 2 - 2 - 2 - 1
    good = MoraleFacts(Quality.VETERAN, in_cover=True, advancing=True, general=True,
                       won_melee=True)
    assert morale_modifier(good).total == 2 + 1 + 1 + 1 + 1
    assert morale_modifier(MoraleFacts(routing=True, exhausted=True)).total == 1 - 3 - 3
    assert morale_modifier(MoraleFacts(Quality.VETERAN, in_cover=True, subtract_quality=True,
                                       subtract_cover=True)).total == -3


def test_fresh_raw_and_veteran() -> None:
    raw = odds(test_morale, MoraleFacts(Quality.RAW))
    assert raw.probability(MoraleResult.CARRY_ON) == Fraction(1, 2)
    assert raw.probability(MoraleResult.HALT) == Fraction(1, 2)
    assert odds(test_morale, MoraleFacts(Quality.VETERAN)).probability(
        MoraleResult.CARRY_ON) == 1


@given(st.sampled_from(list(Quality)), st.booleans(), st.booleans(), st.integers(0, 10),
       st.booleans(), st.booleans())
def test_matches_the_oracle(quality: Quality, cover: bool, lost: bool, tenths: int,
                            routing: bool, general: bool) -> None:
    facts = MoraleFacts(quality, in_cover=cover, lost_melee=lost, tenths_lost=tenths,
                        routing=routing, general=general)
    dist = odds(test_morale, facts)
    assert {o: dist.probability(o) for o in dist.outcomes} == oracle(
        morale_modifier(facts).total)


@given(st.integers(0, 10))
def test_more_losses_never_help(tenths: int) -> None:
    worse = odds(test_morale, MoraleFacts(tenths_lost=tenths + 1))
    better = odds(test_morale, MoraleFacts(tenths_lost=tenths))
    assert worse.probability(MoraleResult.ROUT) >= better.probability(MoraleResult.ROUT)
