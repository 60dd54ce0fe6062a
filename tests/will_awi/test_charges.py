"""Rules - Charging: reach, the charged-unit test, counter-charges, rout and surrender."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from smoothbore.core import IllegalActionError, odds
from smoothbore.will_awi.charges import (
    ChargedResult,
    ChargeFacts,
    Face,
    charge_reach,
    charged_test_score,
    check_charge,
)
from smoothbore.will_awi.charges import (
    test_charged as roll_charged,
)
from smoothbore.will_awi.charges import (
    test_surrender as roll_surrender,
)
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, Options
from smoothbore.will_awi.units import Nationality, Status, TroopType, Unit

FACES = range(1, 7)


def unit(
    troop: TroopType,
    strength: int = 5,
    side: str = "x",
    uid: str = "u",
    nation: Nationality = Nationality.AMERICAN,
    **kw: object,
) -> Unit:
    return Unit(uid, uid, side, troop, nation, strength=strength, **kw)  # type: ignore[arg-type]


def test_golden_faq_obstacle_example() -> None:
    """FAQs (1) 4 worked example: a strength-2 cavalry unit charged by open order infantry
    rolls 6 - 2 - 2 = 2 at best: rout 1/6, counter-charge 3/6."""
    cav = unit(TroopType.LIGHT_CAVALRY, 2)
    li = unit(TroopType.LIGHT_INFANTRY, side="y", uid="li")
    assert charged_test_score(cav, (li,)).total == -4
    d = odds(roll_charged, cav, (li,))
    assert d.probability(ChargedResult.ROUTS) == Fraction(1, 6)
    assert d.probability(ChargedResult.COUNTER_CHARGE) == Fraction(3, 6)


def test_cavalry_not_close_order_option() -> None:
    """Option: cavalry not close order: only the cavalry-by-non-cavalry -2 applies."""
    cav = unit(TroopType.LIGHT_CAVALRY, 2)
    li = unit(TroopType.LIGHT_INFANTRY, side="y", uid="li")
    opts = Options(cavalry_close_order=False)
    assert charged_test_score(cav, (li,), options=opts).total == -2


def test_charge_reach() -> None:
    """Charge reach 3" infantry, 6" cavalry; unshaken infantry or cavalry; target in front."""
    foot, horse = unit(TroopType.LINE), unit(TroopType.LIGHT_CAVALRY)
    enemy = unit(TroopType.LINE, side="y", uid="e")
    assert charge_reach(foot) == 3 and charge_reach(horse) == 6
    check_charge(foot, enemy, 3, True)
    check_charge(horse, enemy, 6, True)
    for charger, dist, front in ((foot, 3.5, True), (horse, 6.5, True), (foot, 1, False)):
        with pytest.raises(IllegalActionError):
            check_charge(charger, enemy, dist, front)
    for bad in (unit(TroopType.LINE, status=Status.SHAKEN), unit(TroopType.LIGHT_GUN)):
        with pytest.raises(IllegalActionError):
            check_charge(bad, enemy, 1, True)


CASES = [
    # (target, chargers, facts, options, expected modifier) from Testing charged units.
    (unit(TroopType.LINE), (unit(TroopType.LIGHT_CAVALRY, side="y"),), ChargeFacts(), None, 2),
    (unit(TroopType.LIGHT_INFANTRY), (unit(TroopType.LINE, side="y"),), ChargeFacts(), None, 2),
    (unit(TroopType.LIGHT_GUN), (unit(TroopType.LINE, side="y"),), ChargeFacts(), None, 2),
    (
        unit(TroopType.LIGHT_INFANTRY),
        (unit(TroopType.LIGHT_CAVALRY, side="y"),),
        ChargeFacts(),
        None,
        4,
    ),
    (unit(TroopType.LINE), (unit(TroopType.LINE, side="y"),), ChargeFacts(Face.REAR), None, 2),
    (unit(TroopType.LINE), (unit(TroopType.LINE, side="y"),), ChargeFacts(Face.FLANK), None, 1),
    (
        unit(TroopType.LINE, status=Status.SHAKEN),
        (unit(TroopType.LINE, side="y"),),
        ChargeFacts(),
        None,
        1,
    ),
    (
        unit(TroopType.LINE),
        (unit(TroopType.LINE, side="y"),),
        ChargeFacts(behind_obstacle=True),
        None,
        -2,
    ),
    (
        unit(TroopType.LINE),
        (unit(TroopType.LINE, side="y"),),
        ChargeFacts(in_building=True),
        None,
        -2,
    ),
    (
        unit(TroopType.LINE),
        (unit(TroopType.LINE, side="y"),),
        ChargeFacts(in_fortification=True),
        None,
        -3,
    ),
    (unit(TroopType.LINE), (unit(TroopType.RANGERS, side="y"),), ChargeFacts(), None, -2),
    (
        unit(TroopType.LINE),
        (unit(TroopType.RANGERS, side="y"), unit(TroopType.LINE, side="y")),
        ChargeFacts(),
        None,
        0,
    ),
    (unit(TroopType.LIGHT_CAVALRY), (unit(TroopType.LINE, side="y"),), ChargeFacts(), None, -2),
    # Ireland 1798: pikes unworried by cavalry; cavalry worried by pikes.
    (
        unit(TroopType.PIKEMEN),
        (unit(TroopType.LIGHT_CAVALRY, side="y"),),
        ChargeFacts(),
        Options(variant=IRELAND_1798),
        0,
    ),
    (
        unit(TroopType.LIGHT_CAVALRY),
        (unit(TroopType.PIKEMEN, side="y"),),
        ChargeFacts(),
        Options(variant=IRELAND_1798),
        0,
    ),
    (
        unit(TroopType.LINE),
        (unit(TroopType.LIGHT_CAVALRY, side="y"),),
        ChargeFacts(),
        Options(variant=IRELAND_1798),
        2,
    ),
    # Battles of the '45: infantry charged by highlanders +1, by a Highland charge +2.
    (
        unit(TroopType.LINE),
        (unit(TroopType.HIGHLANDERS, side="y"),),
        ChargeFacts(),
        Options(variant=FORTY_FIVE),
        1,
    ),
    (
        unit(TroopType.LINE),
        (unit(TroopType.HIGHLANDERS, side="y", highland_charge=True),),
        ChargeFacts(),
        Options(variant=FORTY_FIVE),
        2,
    ),
]


@pytest.mark.parametrize(("target", "chargers", "facts", "options", "expected"), CASES)
def test_charged_factors(
    target: Unit,
    chargers: tuple[Unit, ...],
    facts: ChargeFacts,
    options: Options | None,
    expected: int,
) -> None:
    """Rules - Charging: Testing charged units, every factor (and the variants' overrides)."""
    assert charged_test_score(target, chargers, facts, options or Options()).total == expected


def brute_charged(modifier: int, morale: int, can_counter: bool) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for (f,) in product(FACES):
        s = f + modifier
        key = "rout" if s >= morale else "counter" if s < 0 and can_counter else "stand"
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6)
    return out


@pytest.mark.parametrize(
    ("target", "chargers", "facts", "modifier", "morale", "can_counter"),
    [
        (
            unit(TroopType.MILITIA, 3),
            (unit(TroopType.LIGHT_CAVALRY, side="y"),),
            ChargeFacts(),
            2,
            2,
            True,
        ),
        (
            unit(TroopType.LINE, 5, nation=Nationality.BRITISH),
            (unit(TroopType.RANGERS, side="y"),),
            ChargeFacts(behind_obstacle=True),
            -4,
            6,
            False,
        ),
        (unit(TroopType.LINE, 2), (unit(TroopType.LINE, side="y"),), ChargeFacts(), 0, 2, True),
    ],
)
def test_charged_exact(
    target: Unit,
    chargers: tuple[Unit, ...],
    facts: ChargeFacts,
    modifier: int,
    morale: int,
    can_counter: bool,
) -> None:
    """At or above basic morale: rout (-1 SP); below zero: counter-charge, except behind
    obstacles, in buildings or fortifications; otherwise stand."""
    d = odds(roll_charged, target, chargers, facts)
    exp = brute_charged(modifier, morale, can_counter)
    assert d.probability(ChargedResult.ROUTS) == exp.get("rout", 0)
    assert d.probability(ChargedResult.COUNTER_CHARGE) == exp.get("counter", 0)
    assert d.probability(ChargedResult.STANDS) == exp.get("stand", 0)


def test_rear_rout_surrenders() -> None:
    """Surrender (a): charged in the rear and routed: 4+ on 1d6 for foot."""
    target = unit(TroopType.LINE, 2)
    d = odds(roll_charged, target, (unit(TroopType.LINE, side="y"),), ChargeFacts(Face.REAR))
    # modifier +2, morale 2: every face routs; then half surrender.
    assert d.probability(ChargedResult.ROUTS_SURRENDERS) == Fraction(1, 2)
    assert d.probability(ChargedResult.ROUTS) == Fraction(1, 2)


def test_routing_unit_charged_surrenders_or_routs() -> None:
    """Already routing units charged may surrender (5+ mounted), otherwise rout and lose 1."""
    cav = unit(TroopType.LIGHT_CAVALRY, status=Status.ROUTING)
    d = odds(roll_charged, cav, (unit(TroopType.LINE, side="y"),))
    assert d.probability(ChargedResult.SURRENDERS) == Fraction(2, 6)
    assert d.probability(ChargedResult.ROUTS) == Fraction(4, 6)


def test_surrender_need() -> None:
    """Surrender: 4+ foot, 5+ mounted."""
    assert odds(roll_surrender, unit(TroopType.LINE)).probability(True) == Fraction(1, 2)
    assert odds(roll_surrender, unit(TroopType.LIGHT_CAVALRY)).probability(True) == Fraction(1, 3)


def test_buildings_have_no_flank_or_rear() -> None:
    """Rules - Terrain: Buildings: units in buildings have no flank or rear."""
    from smoothbore.core import InvalidValueError

    with pytest.raises(InvalidValueError):
        ChargeFacts(Face.REAR, in_building=True)
    assert ChargeFacts(Face.FRONT, in_building=True).protected


# --- charge_to_melee as stages against a brute-force oracle (issue 11) ----------------------
def _oracle(
    target: Any, chargers: Any, facts: Any, counter_charge: bool, *, dice: Any
) -> Any:
    """The charge to melee composed by hand from the old steps (the charged test, the
    melee, the surrender test), walked branch by branch."""
    from smoothbore.will_awi.charges import (
        ChargedResult,
        ChargeToMelee,
        Face,
        test_charged,
        test_surrender,
    )
    from smoothbore.will_awi.melee import Effect, Fighter, Melee, resolve_melee

    result = test_charged(target, chargers, facts, dice=dice)
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS,
                  ChargedResult.SURRENDERS):
        return ChargeToMelee(result)
    counter = result is ChargedResult.COUNTER_CHARGE and counter_charge
    attackers = tuple(Fighter(c, charging=True) for c in chargers)
    defender = Fighter(target, charging=counter, flank=facts.face is Face.FLANK,
                       rear=facts.face is Face.REAR)
    out = resolve_melee(Melee(attackers, (defender,),
                              defender_behind_obstacle=facts.behind_obstacle), dice=dice)
    if out.loser == "defenders" and out.effect is Effect.ROUT and facts.face is Face.REAR:
        surrendered = test_surrender(target, dice=dice, why="charged in the rear and routed")
        return ChargeToMelee(result, counter, out, surrendered)
    return ChargeToMelee(result, counter, out)


@pytest.mark.parametrize("face", ["front", "flank", "rear"])
@pytest.mark.parametrize("counter_charge", [True, False])
@pytest.mark.parametrize("target_kind", ["LINE", "LIGHT_CAVALRY", "MILITIA"])
def test_charge_to_melee_equals_brute_force_of_the_old_steps(
    face: str, counter_charge: bool, target_kind: str
) -> None:
    """Composed stage by stage, walked branch by branch through the same stages, and the
    old steps composed by hand: three equal distributions, in front, flank and rear, with
    and without a counter-charge, for line, cavalry and militia targets."""
    from smoothbore.will_awi.charges import ChargeFacts, Face, charge_to_melee

    target = Unit("t", "Target", "blue", TroopType[target_kind], Nationality.AMERICAN,
                  strength=3)
    chargers = (Unit("c", "Charger", "red", TroopType.LINE, Nationality.BRITISH, strength=4),)
    facts = ChargeFacts(Face(face))
    args = (target, chargers, facts)
    staged = odds(charge_to_melee, *args, counter_charge=counter_charge)
    assert staged == odds(charge_to_melee.play, *args, counter_charge=counter_charge)
    assert staged == odds(_oracle, *args, counter_charge)
    assert sum(w for _, w in staged.items()) == staged.denominator
