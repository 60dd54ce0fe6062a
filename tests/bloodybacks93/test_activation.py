"""Bloodybacks 9.3, Activating Units; Action tariff."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.activation import (
    ActionKind,
    actions_for,
    activate,
    activation_need,
    hand_size,
)
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.units import BRITISH, Commander, Unit
from smoothbore.core import IllegalActionError, SamplingDice, odds

from .oracle import pool, results_of

LEADER = Commander("k", "Colonel", BRITISH, command_quality=3)


def _actions(successes: int, long: bool = False) -> int:
    # the "136=123" hand, written out independently
    base = 3 if successes == 6 else 2 if successes >= 3 else 1 if successes >= 1 else 0
    return base + (1 if long and base else 0)


@pytest.mark.parametrize("successes", range(7))
def test_136_hand(successes: int) -> None:
    """Activating Units: 1, 3 and 6 successes give 1, 2 and 3 actions; +1 in a long turn."""
    assert actions_for(successes) == _actions(successes)
    assert actions_for(successes, long_turn=True) == _actions(successes, True)


def test_hand_loses_a_die_per_drp() -> None:
    """Activating Units: six d12, one fewer per DRP."""
    assert [hand_size(Unit("a", "A", BRITISH, disruption=d)) for d in range(4)] == [6, 5, 4, 3]


def test_need_and_its_modifiers() -> None:
    """Activating Units: quality + commander quality, -1 outside radius, -1 other brigade
    (not for the CinC), -1 per full 6 stamina losses; a killed commander adds nothing."""
    unit = Unit("a", "A", BRITISH, quality=4, stamina_losses=13)
    need = activation_need(unit, LEADER, outside_radius=True, other_brigade=True)
    assert need.total == 4 + 3 - 1 - 1 - 2
    assert "Activating Units" in need.explain()
    cinc = attrs.evolve(LEADER, cinc=True)
    assert activation_need(unit, cinc, other_brigade=True).total == 4 + 3 - 2
    dead = attrs.evolve(LEADER, removed=True)
    assert activation_need(unit, dead).total == 4 - 2
    assert activation_need(unit, None).total == 4 - 2


@pytest.mark.parametrize(("quality", "drp", "long"), [(3, 1, False), (2, 2, True), (5, 3, False)])
def test_exact_activation_by_enumeration(quality: int, drp: int, long: bool) -> None:
    """Activating Units: exact distribution of actions (and the forced morale test) against
    enumeration of every face of the hand (no naturals in the hand)."""
    unit = Unit("a", "A", BRITISH, quality=quality, disruption=drp)
    need = quality + LEADER.command_quality
    hand = pool(6 - drp, need, naturals=False)
    expected: dict[tuple[int, str | None], Fraction] = {}
    for successes, p in hand.items():
        if successes == 0:
            for result, q in results_of(2 * quality).items():
                expected[(0, result)] = expected.get((0, result), Fraction(0)) + p * q
        else:
            key = (_actions(successes, long), None)
            expected[key] = expected.get(key, Fraction(0)) + p
    dist = odds(activate, unit, LEADER, long_turn=long).map(
        lambda a: (a.actions, str(a.morale.result) if a.morale else None))
    assert {o: dist.probability(o) for o in dist.outcomes} == expected


def test_naturals_option_in_the_hand() -> None:
    """Activating Units (interpretation): with ``activation_naturals`` a 1 always succeeds,
    so even a hopeless need can activate."""
    unit = Unit("a", "A", BRITISH, quality=1, disruption=3, stamina_losses=12)
    hopeless = odds(activate, unit, None, outside_radius=True)
    assert hopeless.probability(lambda a: a.actions > 0) == 0
    hopeful = odds(activate, unit, None, outside_radius=True,
                   options=Options(activation_naturals=True))
    assert hopeful.probability(lambda a: a.actions > 0) == 1 - pool(3, 0)[0]


def test_routing_and_destroyed_units_cannot_activate() -> None:
    """Activating Units: routing units take a morale test instead (Morale); a destroyed unit
    is gone (units recovered from rout this turn are kept out by the turn:
    test_steps_units)."""
    dice = SamplingDice(0)
    with pytest.raises(IllegalActionError, match="routing"):
        activate(Unit("a", "A", BRITISH, routing=True), LEADER, dice=dice)
    with pytest.raises(IllegalActionError) as info:
        activate(Unit("a", "A", BRITISH, destroyed=True), LEADER, dice=dice)
    assert "Activating Units" in info.value.rule


def test_action_tariff() -> None:
    """Action tariff: 1-point, 2-point and 3-point actions."""
    ones = {ActionKind.RALLY, ActionKind.SHOOT_MUSKET, ActionKind.SHOOT_CANISTER,
            ActionKind.MOVE, ActionKind.ABOUT_FACE, ActionKind.CHANGE_FORMATION,
            ActionKind.LIMBER}
    twos = {ActionKind.SHOOT_RIFLE, ActionKind.SHOOT_ROUNDSHOT_MEDIUM, ActionKind.CHARGE}
    assert {k for k in ActionKind if k.cost == 1} == ones
    assert {k for k in ActionKind if k.cost == 2} == twos
    assert {k for k in ActionKind if k.cost == 3} == {ActionKind.SHOOT_ROUNDSHOT_LONG}


@given(st.integers(1, 5), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_same_seed_same_activation(quality: int, drp: int, seed: int) -> None:
    """Activating Units: replayable: the same seed gives the same hand."""
    unit = Unit("a", "A", BRITISH, quality=quality, disruption=drp)
    first = activate(unit, LEADER, dice=SamplingDice(seed))
    second = activate(unit, LEADER, dice=SamplingDice(seed))
    assert first == second
    assert 0 <= first.actions <= 3
