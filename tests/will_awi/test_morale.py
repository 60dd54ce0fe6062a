"""Rules - Morale: basic morale, testing shaken units, testing routing units."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given

from smoothbore.core import odds
from smoothbore.will_awi.morale import (
    RoutingResult,
    ShakenResult,
    apply_routing_result,
    apply_shaken_result,
    basic_morale,
    morale_total,
)
from smoothbore.will_awi.morale import (
    test_routing as roll_routing,
)
from smoothbore.will_awi.morale import (
    test_shaken as roll_shaken,
)
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.units import Nationality, Rank, Status, TroopType, Unit

from .strategies import units

FACES = range(1, 7)


def unit(
    troop: TroopType, nation: Nationality = Nationality.AMERICAN, strength: int = 5, **kw: object
) -> Unit:
    return Unit("u", "U", "x", troop, nation, strength=strength, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("troop", "nation", "extra", "expected"),
    [
        (TroopType.GRENADIERS, Nationality.EUROPEAN, {}, 7),
        (TroopType.GRENADIERS, Nationality.BRITISH, {}, 7),
        (TroopType.LINE, Nationality.BRITISH, {}, 6),
        (TroopType.JAEGERS, Nationality.EUROPEAN, {}, 6),
        (TroopType.RIFLEMEN, Nationality.AMERICAN, {}, 4),
        (TroopType.MILITIA, Nationality.AMERICAN, {}, 4),
        (TroopType.MILITIA, Nationality.AMERICAN, {"militia_morale": 2}, 3),
        (TroopType.INDIANS, Nationality.AMERICAN, {}, 3),
        (TroopType.WAGON, Nationality.AMERICAN, {}, 1),
        (TroopType.LINE, Nationality.AMERICAN, {}, 5),
    ],
)
def test_basic_morale_type_modifiers(
    troop: TroopType, nation: Nationality, extra: dict[str, int], expected: int
) -> None:
    """Rules - Morale: strength plus +2 European grenadiers, +1 other European regulars,
    -1 American regular rifles, -1 or -2 militia, -2 Indians, -4 wagons."""
    u = unit(troop, nation, **extra)
    assert basic_morale(u).total == expected
    assert morale_total(u) == expected


@given(units())
def test_basic_morale_is_strength_plus_modifiers(u: Unit) -> None:
    """Basic morale moves one for one with strength; the fast path agrees."""
    assert basic_morale(u).total - u.strength == basic_morale(u, strength=0).total
    assert morale_total(u) == basic_morale(u).total


def brute_shaken(bonus: int) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for (f,) in product(FACES):
        t = f + bonus
        key = "carry on" if t >= 4 else "retire" if t >= 2 else "rout-1"
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6)
    return out


@pytest.mark.parametrize(("rank", "bonus"), [(None, 0), (Rank.BRIGADIER, 1), (Rank.SENIOR, 2)])
def test_shaken_test_exact(rank: Rank | None, bonus: int) -> None:
    """Testing shaken units: 1d6 (+1 brigadier, +2 senior); 4+ carry on, 2-3 retire, 1- rout."""
    d = odds(roll_shaken, unit(TroopType.LINE, status=Status.SHAKEN), rank)
    expected = brute_shaken(bonus)
    assert d.probability(ShakenResult.CARRY_ON) == expected.get("carry on", 0)
    assert d.probability(ShakenResult.RETIRE) == expected.get("retire", 0)
    assert d.probability(ShakenResult.ROUT_LOSE_1) == expected.get("rout-1", 0)


def test_shaken_optional_militia_in_open_rout() -> None:
    """Testing shaken units (optional): militia or Indians in the open rout on 2-3."""
    opts = Options(militia_rout_in_open=True)
    militia = unit(TroopType.MILITIA, status=Status.SHAKEN)
    d = odds(roll_shaken, militia, None, in_open=True, options=opts)
    assert d.probability(ShakenResult.ROUT) == Fraction(2, 6)
    line = odds(
        roll_shaken, unit(TroopType.LINE, status=Status.SHAKEN), None, in_open=True, options=opts
    )
    assert line.probability(ShakenResult.RETIRE) == Fraction(2, 6)


def test_shaken_quality_option_faq3() -> None:
    """FAQs (3) 2 option: militia -1 on the test."""
    d = odds(
        roll_shaken,
        unit(TroopType.MILITIA, status=Status.SHAKEN),
        None,
        options=Options(shaken_quality_modifiers=True),
    )
    # faces 1 and 2 give 0 and 1: rout
    assert d.probability(ShakenResult.ROUT_LOSE_1) == Fraction(2, 6)


@pytest.mark.parametrize(("rank", "bonus"), [(None, 0), (Rank.BRIGADIER, 1), (Rank.SENIOR, 2)])
def test_routing_test_exact(rank: Rank | None, bonus: int) -> None:
    """Testing routing units: 5+ halts shaken, 2-4 continues, 1- continues and loses 1 SP."""
    d = odds(roll_routing, unit(TroopType.LINE, status=Status.ROUTING), rank)
    halt = sum(Fraction(1, 6) for f in FACES if f + bonus >= 5)
    lose = sum(Fraction(1, 6) for f in FACES if f + bonus <= 1)
    assert d.probability(RoutingResult.HALT_SHAKEN) == halt
    assert d.probability(RoutingResult.CONTINUE_LOSE_1) == lose


def test_retire_ends_shaken_faq3() -> None:
    """FAQs (3) 1: "unless it says so it is no longer shaken": a unit that retires (2-3) or
    carries on (4+) after its shaken test is no longer shaken; a rout (1-) routs, -1 SP."""
    u = unit(TroopType.LINE, status=Status.SHAKEN)
    after = apply_shaken_result(u, ShakenResult.RETIRE, Options())
    assert after.status is Status.STEADY and after.must_retire
    recovered = apply_shaken_result(u, ShakenResult.CARRY_ON, Options())
    assert recovered.status is Status.STEADY and not recovered.must_retire
    kept = apply_shaken_result(u, ShakenResult.CARRY_ON, Options(shaken_recovers_on_carry_on=False))
    assert kept.status is Status.SHAKEN
    routed = apply_shaken_result(u, ShakenResult.ROUT_LOSE_1, Options())
    assert routed.status is Status.ROUTING and routed.strength == 4


def test_shaken_test_status_exact() -> None:
    """Testing shaken units with FAQs (3) 1, by brute force over the die: with no general a
    shaken unit ends steady on 2-6 (5/6, 2/6 of it retiring) and routs on a 1 (1/6)."""

    def status_after(dice: object) -> tuple[Status, bool, int]:
        u = unit(TroopType.LINE, status=Status.SHAKEN)
        r = roll_shaken(u, None, dice=dice)  # type: ignore[arg-type]
        a = apply_shaken_result(u, r, Options())
        return a.status, a.must_retire, a.strength

    d = odds(status_after)
    expected: dict[tuple[Status, bool, int], Fraction] = {}
    for (f,) in product(FACES):
        key = (
            (Status.STEADY, False, 5)
            if f >= 4
            else (Status.STEADY, True, 5)
            if f >= 2
            else (Status.ROUTING, False, 4)
        )
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 6)
    assert {o: d.probability(o) for o in d.outcomes} == expected


def test_rout_loss_at_one_removes() -> None:
    """Strength Points: a unit at 0 strength is removed."""
    u = unit(TroopType.LINE, strength=1, status=Status.ROUTING)
    after = apply_routing_result(u, RoutingResult.CONTINUE_LOSE_1)
    assert after.status is Status.ELIMINATED and after.strength == 0
    rallied = apply_routing_result(u, RoutingResult.HALT_SHAKEN)
    assert rallied.status is Status.SHAKEN
