"""The turn on the core engine: the bag, activation, one order a unit, refusals, routers,
the end of the battle, JSON round trips."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import (
    Activate,
    DrawDie,
    EndActivation,
    EndTurn,
    Fire,
    RallyFromRout,
)
from smoothbore.boltaction_acw.phases import CHOOSE, DRAW, ENDED, ORDERS
from smoothbore.boltaction_acw.shooting import ShotFacts
from smoothbore.boltaction_acw.state import State
from smoothbore.core import IllegalActionError

from .battle import sample_battle


def start() -> State:
    return sample_battle(0)


def activated(group: str) -> State:
    state = start()
    side = state.unit(group).side if not group.startswith("brigade:") else (
        "union" if group == "brigade:gibbon" else "confederate")
    state = state.replace(phase=CHOOSE, extra=attrs.evolve(state.extra, drawn=side))
    state, _ = TURN.step(state, Activate(group))
    return state


def test_the_bag_holds_a_die_per_brigade_and_independent_unit() -> None:
    assert sorted(start().extra.bag) == ["confederate"] * 3 + ["union"] * 3


def test_drawing_a_die_gives_its_side_the_choice() -> None:
    state, events = TURN.step(start(), DrawDie())
    assert events[0].kind == "order die"
    assert state.phase == CHOOSE and len(state.extra.bag) == 5
    assert TURN.to_act(state) == state.extra.drawn
    groups = {a.group for a in TURN.legal_actions(state)}
    assert len(groups) == 3


def test_one_order_a_unit() -> None:
    state = activated("brigade:gibbon")
    assert state.phase == ORDERS and TURN.to_act(state) == "union"
    fire = Fire("u2wi", "c2va", ShotFacts(12))
    state, _ = TURN.step(state, fire)
    with pytest.raises(IllegalActionError, match="had its order"):
        TURN.step(state, Fire("u2wi", "c4va", ShotFacts(12)))


def test_out_of_range_and_friendly_targets_are_refused() -> None:
    state = activated("brigade:gibbon")
    with pytest.raises(IllegalActionError, match="beyond"):
        TURN.step(state, Fire("u2wi", "c2va", ShotFacts(30)))
    with pytest.raises(IllegalActionError, match="friendly"):
        TURN.step(state, Fire("u2wi", "u6wi", ShotFacts(6)))
    with pytest.raises(IllegalActionError, match="acting brigade"):
        TURN.step(state, Fire("c2va", "u2wi", ShotFacts(6)))


def test_a_unit_routed_this_turn_tests_only_next_turn() -> None:
    state = activated("brigade:gibbon")
    router = attrs.evolve(state.unit("u7wi"), routing=True)
    state = state.with_units(router)
    state = state.replace(extra=attrs.evolve(state.extra, routed=frozenset({"u7wi"})))
    assert RallyFromRout("u7wi") not in TURN.legal_actions(state)
    fresh = state.replace(extra=attrs.evolve(state.extra, routed=frozenset()))
    assert RallyFromRout("u7wi") in TURN.legal_actions(fresh)
    with pytest.raises(IllegalActionError, match="routing units must first test"):
        TURN.step(fresh, EndActivation())


def test_the_last_turn_ends_the_battle() -> None:
    state = start().replace(turn=6, extra=attrs.evolve(start().extra, bag=()))
    assert TURN.legal_actions(state) == (EndTurn(),)
    end, _ = TURN.step(state, EndTurn())
    assert end.phase == ENDED and TURN.is_over(end)
    assert TURN.outcome(end).winner is None


def test_end_turn_refills_the_bag() -> None:
    state = start().replace(extra=attrs.evolve(start().extra, bag=()))
    new, _ = TURN.step(state, EndTurn())
    assert (new.turn, new.phase, len(new.extra.bag)) == (2, DRAW, 6)


def test_json_round_trip() -> None:
    state = activated("brigade:stonewall")
    assert TURN.load(state.to_json()) == state
