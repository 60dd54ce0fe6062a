"""Order and morale tests: exact odds against brute force, and the text's modifiers."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.boltaction_acw.morale import (
    Command,
    morale_need,
    morale_test,
    order_need,
    order_test,
    rally,
    recover_from_rout,
)
from smoothbore.boltaction_acw.options import Options
from smoothbore.boltaction_acw.units import UNION, Experience, Unit
from smoothbore.core import odds

from .oracle import two_d6_at_most


def unit(**changes: object) -> Unit:
    return attrs.evolve(Unit("u", "Foot", UNION), **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("need", range(0, 14))
def test_order_test_odds_match_enumeration(need: int) -> None:
    from smoothbore.boltaction_acw.morale import check_for

    assert check_for(need).distribution().probability(True) == two_d6_at_most(need)
    plain = check_for(need, Options(doubles=False)).distribution().probability(True)
    assert plain == two_d6_at_most(need, doubles=False)


def test_order_need_takes_pins_bases_and_one_commander() -> None:
    shaken = unit(pins=2, bases=3, experience=Experience.VETERAN)
    assert order_need(shaken).total == 9 - 2 - 2 + 1  # colonel +1
    assert order_need(shaken, Command(brigade=True, army=True)).total == 9 - 2 - 2 + 2
    assert order_need(unit(colonel=False)).total == 8


def test_morale_need_stacks_colonel_and_army_commander() -> None:
    assert morale_need(unit(), Command(army=True)).total == 8 + 1 + 2
    assert morale_need(unit(), Command(brigade=True)).total == 8 + 1  # colonel present
    assert morale_need(unit(colonel=False), Command(brigade=True)).total == 8 + 2
    single = Options(morale_commanders_stack=False)
    assert morale_need(unit(), Command(army=True), options=single).total == 8 + 2
    assert morale_need(unit(pins=1, bases=4), routing_friends=2).total == 8 - 1 - 1 - 2 + 1
    assert morale_need(unit(bases=3), rout_recovery=True).total == 9


def test_order_test_exact() -> None:
    dist = odds(order_test, unit(pins=1))
    assert dist.probability(True) == two_d6_at_most(8)


def test_morale_test_exact() -> None:
    dist = odds(morale_test, unit(pins=3, colonel=False))
    assert dist.probability(False) == 1 - two_d6_at_most(5)


def test_rally_removes_d6_pins() -> None:
    dist = odds(lambda dice: rally(unit(pins=3), dice=dice).pins)
    assert dist.probability(0) == pytest.approx(4 / 6) and dist.probability(2) * 6 == 1


def test_recovery_from_rout_ignores_bases_lost() -> None:
    router = unit(routing=True, bases=2, pins=1)
    dist = odds(lambda dice: recover_from_rout(router, dice=dice).routing)
    assert dist.probability(False) == two_d6_at_most(8 - 1 + 1)
