"""state.py: a new battle (validation, ammunition trains) and the read-only queries."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError
from smoothbore.mckie_acw.morale import Circumstance
from smoothbore.mckie_acw.state import (
    add_amount,
    amount,
    chain,
    corps_of,
    general_with,
    in_command,
    in_cover,
    may_advance,
    morale_facts,
    new_battle,
    with_extra,
)
from smoothbore.mckie_acw.units import Fate, Ground, OrderKind, Quality, Weapon

from .support import A, B, battle, commanders, foot, guns


def test_one_commander_in_chief_a_side_and_known_commanders() -> None:
    units = (foot("a1"), foot("b1", B))
    with pytest.raises(InvalidValueError, match="exactly one commander-in-chief"):
        new_battle((A, B), units, commanders()[1:])
    with pytest.raises(InvalidValueError, match=r"units\[0\].commander"):
        new_battle((A, B), (foot("a1", commander="nobody"), foot("b1", B)), commanders())
    with pytest.raises(InvalidValueError, match="reserve_rounds"):
        new_battle((A, B), units, commanders(), reserve_rounds=7)


def test_one_sniper_in_200_figures() -> None:
    sniper = foot("s", weapon=Weapon.SNIPER_RIFLE, figures=1)
    with pytest.raises(InvalidValueError, match="1 in every 200"):
        new_battle((A, B), (sniper, foot("a1"), foot("b1", B)), commanders())
    new_battle((A, B), (sniper, foot("a1"), foot("b1", B)), commanders(),
               army_figures=(200, 17))


def test_each_corps_train_holds_six_rounds_a_figure_or_gun() -> None:
    state = battle(foot("a1"), guns("ag"), foot("b1", B, figures=10))
    assert state.extra.reserves == (("a-chief", 6 * 17), ("b-chief", 60))
    assert battle(foot("a1"), foot("b1", B)).unit("a1").ammo == 96


def test_line_of_command_and_fallen_commanders() -> None:
    state = battle()
    assert [c.id for c in chain(state, "a-div")] == ["a-div", "a-chief"]
    assert corps_of(state, state.unit("a1")) == "a-chief"
    fallen = state.with_commanders(attrs.evolve(state.commander("a-div"), fate=Fate.KILLED))
    assert in_command(fallen, fallen.unit("a1")).id == "a-chief"
    assert may_advance(fallen, fallen.unit("a1"))  # the chief needs no activation


def test_advancing_needs_orders_and_activation_or_begun_orders() -> None:
    holding = battle(generals=commanders(OrderKind.HOLD))
    assert not may_advance(holding, holding.unit("a1"))
    fresh = battle().with_commanders(attrs.evolve(
        battle().commander("a-div"), order=attrs.evolve(battle().commander("a-div").order,
                                                        started=False)))
    assert not may_advance(fresh, fresh.unit("a1"))
    assert may_advance(fresh.with_extra(activated=frozenset({"a-div"})), fresh.unit("a1"))


def test_morale_facts_from_the_state() -> None:
    state = battle(foot("a1", quality=Quality.VETERAN, figures=12, initial_figures=16,
                        effort=8, ground=Ground.COVER), foot("b1", B))
    state = state.with_commanders(attrs.evolve(state.commander("a-div"), attached_to="a1"))
    state = state.with_extra(under_artillery=frozenset({"a1"}), rear=frozenset({"a1"}))
    facts = morale_facts(state, state.unit("a1"), Circumstance.CHARGING)
    assert (facts.in_cover, facts.advancing, facts.general, facts.tenths_lost, facts.tired,
            facts.under_artillery, facts.rear) == (True, True, True, 2, True, True, True)
    assert general_with(state, state.unit("a1"))
    assert in_cover(foot("x", dug=4)) and not in_cover(foot("x", dug=3))


def test_amounts() -> None:
    pairs = add_amount(add_amount((), "a", 2), "a", 3)
    assert pairs == (("a", 5),) and amount(pairs, "b") == 0


_IDS = st.frozensets(st.sampled_from(("a1", "a2", "b1", "general:a-div")), max_size=3)
_EXTRA_CHANGES = st.fixed_dictionaries({}, optional={
    "acting": st.sampled_from((A, B)),
    "done": _IDS,
    "moved": _IDS,
    "tested": _IDS,
    "reserves": st.lists(st.tuples(st.sampled_from(("a-div", "b-div")),
                                   st.integers(0, 99)), max_size=2).map(tuple),
    "follow": st.lists(st.sampled_from(("a1", "b1")), max_size=2).map(tuple),
})


@given(_EXTRA_CHANGES)
def test_with_extra_makes_what_attrs_evolve_makes(changes: dict[str, object]) -> None:
    state = battle()
    assert with_extra(state, **changes).extra == attrs.evolve(state.extra, **changes)
    assert with_extra(state, **changes).units is state.units  # nothing else rebuilt


def test_with_extra_refuses_a_field_extra_does_not_have() -> None:
    with pytest.raises(InvalidValueError, match="Extra field"):
        with_extra(battle(), actnig=B)

