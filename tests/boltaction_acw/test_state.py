"""The battle state: the bag, groups, routers queued, break points, command in range."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.boltaction_acw.melee import FRONTAL
from smoothbore.boltaction_acw.morale import Command
from smoothbore.boltaction_acw.options import Options
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.state import (
    Engaged,
    State,
    army_broken,
    command_for,
    fill_bag,
    group_name,
    group_of,
    group_units,
    groups_to_activate,
    ineffective,
    new_battle,
    routing_friends,
    situation,
    untested_routers,
    with_units,
)
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Unit, revise
from smoothbore.core import InvalidValueError

from .battle import random_states, sample_battle


def start() -> State:
    return sample_battle(0)


def test_one_die_per_brigade_commander_and_independent_unit() -> None:
    state = start()
    assert state.extra.bag.count(UNION) == 3  # Gibbon, the sharpshooters, the cavalry
    home = fill_bag(state.units, state.commanders, frozenset({"gibbon"}))
    assert home.count(UNION) == 2
    gone = tuple(revise(u, bases=0) if u.id == "u1mi" else u for u in state.units)
    assert fill_bag(gone, state.commanders, frozenset()).count(UNION) == 2


def test_groups() -> None:
    state = start()
    assert group_of(state.unit("u2wi")) == "brigade:gibbon"
    assert group_of(state.unit("u1mi")) == "u1mi"
    assert len(group_units(state, "brigade:gibbon")) == 5
    assert set(groups_to_activate(state, CONFEDERATE)) == {"brigade:stonewall", "cwood",
                                                           "c2vac"}


def test_a_brigade_belongs_to_one_side() -> None:
    units = (Unit("a", "A", UNION, brigade="x"), Unit("b", "B", CONFEDERATE, brigade="x"))
    with pytest.raises(InvalidValueError, match="brigade"):
        new_battle(units, ())


def test_new_routers_are_queued_and_leave_their_melee() -> None:
    state = start()
    state = state.with_extra(melees=(Engaged("u2wi", "c2va", FRONTAL),))
    routed = with_units(state, revise(state.unit("u2wi"), routing=True))
    assert routed.extra.routs == ("u2wi",) and routed.extra.melees == ()
    assert "u2wi" in routed.extra.routed


def test_brigade_and_army_break_points() -> None:
    state = start()
    wisconsin = [state.unit(uid) for uid in ("u2wi", "u6wi")]
    one = with_units(state, revise(wisconsin[0], bases=0))
    assert not ineffective(one, UNION, "gibbon")  # 1 of 5 lost
    three = with_units(state, *(revise(state.unit(uid), bases=0)
                                for uid in ("u2wi", "u6wi", "u7wi")))
    assert ineffective(three, UNION, "gibbon") and army_broken(three, UNION)
    routing = with_units(state, *(revise(state.unit(uid), routing=True)
                                  for uid in ("u2wi", "u6wi", "u7wi")))
    assert ineffective(routing, UNION, "gibbon")
    lenient = routing.replace(options=Options(routing_counts_as_lost=False))
    assert not ineffective(lenient, UNION, "gibbon")


def test_command_and_routing_friends() -> None:
    state = start()
    assert command_for(state, state.unit("u6wi")).brigade  # Gibbon is with it
    assert not command_for(state, state.unit("u2wi")).brigade
    assert command_for(state, state.unit("c5va")).army  # Jackson
    routing = with_units(state, revise(state.unit("u2wi"), routing=True))
    assert routing_friends(routing, routing.unit("u7wi")) == 1
    assert routing_friends(routing, routing.unit("u1mi")) == 0  # independent (A15)


def test_find_refuses_an_unknown_id_naming_the_ids_there_are() -> None:
    state = start()
    with pytest.raises(InvalidValueError, match="nobody.*u2wi"):
        state.unit("nobody")


def test_groups_in_words_and_commanders_of_other_brigades() -> None:
    state = start()
    assert group_name(state, "brigade:gibbon") == "Brig. Gen. John Gibbon's brigade"
    assert group_name(state, "brigade:iron") == "brigade iron"  # no commander
    assert untested_routers(state) == ()  # no group acting
    # Baylor (stonewall) with the independent cavalry does not command it (A14)
    away = state.with_commanders(attrs.evolve(state.commander("baylor"), with_unit="c2vac"))
    assert command_for(away, away.unit("c2vac")) == Command(False, False)


def test_the_situation_is_each_states_own() -> None:
    """What the checks ask is worked out once for the state it was asked of; a state sharing
    that ``extra`` with other units gets its own answer, and the answer is no part of the
    state's value (not compared, hashed nor saved)."""
    state = start().replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    ready = situation(state).ready
    assert set(ready) == {"u2wi", "u6wi", "u7wi", "u19in", "ub4us"}
    routed = state.with_units(revise(state.unit("u2wi"), routing=True))
    assert routed.extra is state.extra
    assert "u2wi" not in situation(routed).ready and "u2wi" in situation(state).ready
    fresh = state.with_extra(group="brigade:gibbon")
    assert fresh.extra == state.extra and hash(fresh.extra) == hash(state.extra)
    assert state.to_json() == fresh.to_json()



def test_an_army_is_broken_when_half_its_brigades_are_ineffective_or_gone_home() -> None:
    """``army_broken`` (one pass over the units) agrees with counting, brigade by brigade,
    those ``ineffective`` or gone home, on every state of random battles where units are
    lost and rout."""

    broken = 0
    for seed in range(4):
        for step, state in enumerate(random_states(sample_battle(seed), seed, 400)):
            for side in state.sides:
                brigades = list(dict.fromkeys(u.brigade for u in state.units
                                              if u.side == side and u.brigade))
                lost = sum(1 for b in brigades
                           if b in state.extra.home or ineffective(state, side, b))
                expected = bool(brigades) and 2 * lost >= len(brigades)
                assert army_broken(state, side) == expected
                broken += expected
            if step == 10:  # a brigade gone home counts as lost whatever its units
                home = state.with_extra(home=frozenset({"gibbon"}))
                union = {u.brigade for u in state.units if u.side == UNION and u.brigade}
                assert army_broken(home, UNION) == (len(union) <= 2)  # 1 of 1 or 2
    assert broken > 0
