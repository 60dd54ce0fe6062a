"""Charges: who may charge whom, the charged unit's choices, skirmishers caught, and the
reaction's exact odds (Melee)."""

from __future__ import annotations

import attrs

from smoothbore.boltaction_acw.charges import (
    ChargeFacts,
    Reaction,
    Response,
    caught,
    charge_problem,
    receive,
    responses,
)
from smoothbore.boltaction_acw.units import (
    CONFEDERATE,
    UNION,
    Formation,
    Unit,
    UnitType,
)
from smoothbore.core import odds

from .oracle import two_d6_at_most

FOOT = Unit("f", "Foot", UNION)
ENEMY = Unit("e", "Enemy", CONFEDERATE)
HORSE = Unit("h", "Horse", UNION, UnitType.CAVALRY)
ENEMY_HORSE = Unit("eh", "Enemy horse", CONFEDERATE, UnitType.CAVALRY)
SKIRMISHERS = Unit("s", "Skirmishers", CONFEDERATE, UnitType.SKIRMISHERS)
GUN = Unit("g", "Gun", UNION, UnitType.ARTILLERY)


def test_who_may_charge() -> None:
    assert charge_problem(FOOT, ENEMY, ChargeFacts(12)) == ""
    assert "beyond" in charge_problem(FOOT, ENEMY, ChargeFacts(13))
    assert charge_problem(HORSE, ENEMY, ChargeFacts(18, flank=True)) == ""
    assert "direct front" in charge_problem(FOOT, ENEMY, ChargeFacts(6, in_front=False))
    assert "cannot charge" in charge_problem(GUN, ENEMY, ChargeFacts(6))
    assert "cannot charge" in charge_problem(
        Unit("s2", "S", UNION, UnitType.SKIRMISHERS), ENEMY, ChargeFacts(6))


def test_cavalry_limits() -> None:
    assert "unpinned infantry" in charge_problem(HORSE, ENEMY, ChargeFacts(6))
    assert charge_problem(HORSE, attrs.evolve(ENEMY, pins=1), ChargeFacts(6)) == ""
    column = attrs.evolve(ENEMY, formation=Formation.COLUMN)
    assert charge_problem(HORSE, column, ChargeFacts(6)) == ""
    assert "obstacle" in charge_problem(HORSE, attrs.evolve(ENEMY, pins=1),
                                        ChargeFacts(6, obstacle=True))
    assert charge_problem(FOOT, ENEMY, ChargeFacts(6, obstacle=True)) == ""


def test_responses() -> None:
    assert responses(FOOT, SKIRMISHERS, ChargeFacts()) == (Response.EVADE,)
    assert responses(FOOT, ENEMY, ChargeFacts()) == (Response.FIRE, Response.HOLD)
    assert Response.COUNTER_CHARGE in responses(HORSE, ENEMY_HORSE, ChargeFacts(13))
    assert Response.COUNTER_CHARGE not in responses(HORSE, ENEMY_HORSE, ChargeFacts(12))
    assert Response.COUNTER_CHARGE not in responses(HORSE, ENEMY, ChargeFacts(13))
    limbered = Unit("lg", "Limbered gun", CONFEDERATE, UnitType.ARTILLERY)
    assert responses(FOOT, limbered, ChargeFacts()) == (Response.HOLD,)


def test_skirmishers_are_caught_within_the_chargers_reach() -> None:
    assert caught(FOOT, SKIRMISHERS, ChargeFacts(6))  # 12" reach - 6" covers their 6"
    assert not caught(FOOT, SKIRMISHERS, ChargeFacts(7))
    gone = receive(FOOT, SKIRMISHERS, ChargeFacts(6), Response.EVADE, dice=None)  # type: ignore[arg-type]
    assert gone.reaction is Reaction.CAUGHT and gone.target.destroyed


def test_holding_charged_unit_odds() -> None:
    # regular 8 + colonel 1: the order test passes on 2D6 <= 9
    dist = odds(lambda dice: receive(FOOT, ENEMY, ChargeFacts(), Response.HOLD,
                                     dice=dice).reaction)
    assert dist.probability(Reaction.CHARGE_HOME) == two_d6_at_most(9)
    assert dist.probability(Reaction.RETREATED) == 1 - two_d6_at_most(9)


def test_retreat_through_a_friend_behind() -> None:
    behind = Unit("b", "Behind", CONFEDERATE)
    dist = odds(lambda dice: receive(FOOT, ENEMY, ChargeFacts(), Response.HOLD, behind,
                                     dice=dice).reaction)
    fail = 1 - two_d6_at_most(9)
    assert dist.probability(Reaction.STOPPED) == fail * fail
    assert dist.probability(Reaction.RETREATED) == fail * (1 - fail)
    stopped = receive(FOOT, ENEMY, ChargeFacts(), Response.HOLD, behind,
                      dice=_Fixed([False, False]))
    assert stopped.target.pins == 1 and stopped.behind is not None and stopped.behind.pins == 1


def test_point_blank_fire_then_the_chargers_morale() -> None:
    outcome = odds(lambda dice: receive(FOOT, ENEMY, ChargeFacts(6), Response.FIRE,
                                        dice=dice).reaction)
    assert sum(outcome.probability(r) for r in Reaction) == 1
    assert outcome.probability(Reaction.RETREATED) == 1 - two_d6_at_most(9)
    assert outcome.probability(Reaction.HALTED) > 0


class _Fixed:
    """Dice answering each test with the given results, in order."""

    def __init__(self, results: list[bool]) -> None:
        self.results = list(results)

    def roll(self, check: object, *, reason: str, rule: str) -> bool:
        return self.results.pop(0)


def test_a_charge_meets_the_flank_or_the_rear_not_both() -> None:
    assert charge_problem(FOOT, ENEMY, ChargeFacts(6, flank=True, rear=True)) == (
        "a charge meets the flank or the rear, not both")


def test_skirmishers_beyond_reach_evade() -> None:
    """From 7" a formed unit's 12" reach leaves 5", short of the skirmishers' 6" move."""
    away = receive(FOOT, SKIRMISHERS, ChargeFacts(7), Response.EVADE, dice=None)  # type: ignore[arg-type]
    assert away.reaction is Reaction.EVADED and away.target == SKIRMISHERS


def test_counter_charge_odds() -> None:
    """The counter charging cavalry tests as any charged unit (regular 8, colonel +1):
    passed, the cavalry meet; failed, it retreats."""
    dist = odds(lambda dice: receive(HORSE, ENEMY_HORSE, ChargeFacts(13),
                                     Response.COUNTER_CHARGE, dice=dice).reaction)
    assert dist.probability(Reaction.COUNTER_CHARGED) == two_d6_at_most(9)
    assert dist.probability(Reaction.RETREATED) == 1 - two_d6_at_most(9)


def test_chargers_destroyed_by_point_blank_fire_rout() -> None:
    """A one-base charger one casualty short of destruction, fired at by a 5-base line at
    point blank (10 shots): destroyed whenever a wound is scored, and then counted routed."""
    weak = attrs.evolve(FOOT, bases=1, casualties=3)
    outcome = odds(lambda dice: (lambda r: (r.reaction, r.charger.destroyed))(
        receive(weak, ENEMY, ChargeFacts(6), Response.FIRE, dice=dice)))
    destroyed = outcome.probability(lambda o: o[1])
    assert destroyed > 0
    assert outcome.probability((Reaction.ROUTED, True)) == destroyed
