"""Bloodybacks 9.3: the ruleset's battle state, a new battle and the queries over it
(state.py)."""

from __future__ import annotations

import attrs

from smoothbore.bloodybacks93 import TURN
from smoothbore.bloodybacks93.actions import DetermineActivity, DrawCard
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.phases import DRAW
from smoothbore.bloodybacks93.state import (
    Extra,
    attached_commanders,
    broken_sides,
    due_rout_tests,
    leader_attached,
    led_units,
    unit_commander,
    with_units,
)
from smoothbore.bloodybacks93.units import BRITISH, Commander, Unit
from smoothbore.core import BattleState, Scenario

from .turn_setup import COMMANDERS, UNITS, legal, start, step


def test_state_round_trips_through_json() -> None:
    """Sequence of Play: a battle state serialises and reads back equal, options and
    scenario included."""
    state, _ = step(start(scenario=Scenario("s", turn_limit=3)), DetermineActivity())
    state, _ = step(attrs.evolve(state, options=Options(artillery_may_charge=True)), DrawCard())
    text = state.to_json()
    back = BattleState.from_json(text, Unit, Commander, Extra, Options)
    assert back == state == TURN.load(text)
    assert legal(back) == legal(state)
    assert back.options.artillery_may_charge and back.scenario.turn_limit == 3
    assert DRAW == "draw"


def test_a_new_battle_starts_before_activity() -> None:
    """Sequence of Play: turn 1 begins by determining activity; the deck holds the ten cards
    (Activation deck) and nobody has acted; without a scenario there is no turn limit."""
    state = start(3)
    assert (state.turn, state.phase, state.ruleset) == (1, "activity", "bloodybacks93")
    assert len(state.extra.deck) == 10 and state.extra.card is None
    assert state.extra.activated == () and state.extra.attempted == frozenset()
    assert state.dice.seed == 3
    assert state.scenario.turn_limit is None and not state.scenario.players_may_end
    assert state.options == Options()


def test_whose_attached_commander_counts_for_tests() -> None:
    """Morale: Modifiers: +1 if the unit's commander and/or the CinC is attached (B43): the
    brigade's own commander or the CinC counts, another brigadier or a removed commander does
    not; any living commander attached is listed (Determine impetus counts any)."""
    foot = UNITS[0]  # brigade 1
    own = attrs.evolve(COMMANDERS[0], attached_to="b1")
    other = Commander("c2", "Major Ferguson", BRITISH, command_quality=3, activity_rating=3,
                      brigade="2", attached_to="b1")
    cinc = attrs.evolve(other, id="c0", name="General Howe", cinc=True)
    base = start()
    with_own = attrs.evolve(base, commanders=(own, COMMANDERS[1]))
    with_other = attrs.evolve(base, commanders=(COMMANDERS[0], other, COMMANDERS[1]))
    with_cinc = attrs.evolve(base, commanders=(COMMANDERS[0], cinc, COMMANDERS[1]))
    gone = attrs.evolve(base, commanders=(attrs.evolve(own, removed=True), COMMANDERS[1]))
    assert leader_attached(with_own, foot) and leader_attached(with_cinc, foot)
    assert not leader_attached(with_other, foot) and not leader_attached(gone, foot)
    assert [c.id for c in attached_commanders(with_other, "b1")] == ["c2"]
    assert attached_commanders(gone, "b1") == ()
    assert led_units(with_own, UNITS) == {"b1", "a1"}  # Stevens rides with a1
    assert led_units(with_other, UNITS) == {"a1"}
    # the unit's own commander is its brigadier, before a CinC of the same brigade
    chief = attrs.evolve(cinc, brigade="1", attached_to=None)
    both = attrs.evolve(base, commanders=(chief, COMMANDERS[0], COMMANDERS[1]))
    mine = unit_commander(both, foot)
    assert mine is not None and mine.id == "cb"
    assert unit_commander(gone, foot) is None
    # kept per state: the state made with the brigadier removed is asked afresh (the CinC
    # of the brigade then leads it), and another side's brigade "1" has its own
    assert unit_commander(both, foot) is mine
    fallen = both.with_commanders(attrs.evolve(COMMANDERS[0], removed=True))
    assert unit_commander(fallen, foot) == chief
    assert unit_commander(fallen, attrs.evolve(foot, id="a9", side="american")) is None


def test_units_written_back_record_routs_and_recoveries() -> None:
    """Morale: a unit that routs re-tests in subsequent turns; one that stops routing may not
    activate this turn: the state notes both as the units change."""
    state = start()
    routed = with_units(state, attrs.evolve(UNITS[0], routing=True))
    assert routed.extra.routed == {"b1"} and routed.unit("b1").routing
    calm = attrs.evolve(routed, extra=Extra())
    recovered = with_units(calm, UNITS[0])
    assert recovered.extra.recovered == {"b1"} and recovered.extra.routed == frozenset()
    assert with_units(state, UNITS[1]) == state


def test_broken_sides() -> None:
    """Sequence of Play (B48): a side with every unit destroyed or routing has broken."""
    state = start()
    assert broken_sides(state) == ()
    americans = tuple(attrs.evolve(u, routing=True) if u.id == "a1" else
                      attrs.evolve(u, destroyed=True) if u.id == "a2" else u for u in UNITS)
    assert broken_sides(attrs.evolve(state, units=americans)) == ("american",)
    assert due_rout_tests(state) == ()

