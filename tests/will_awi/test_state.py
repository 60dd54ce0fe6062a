"""Rules - Move Sequence: the state of a battle (state): new battles, the scratch state of a
phase and of a move, and the queries the steps share."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import BattleState, IllegalActionError, Scenario
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import EndPhase, Fire
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.fortifications import Demolition
from smoothbore.will_awi.options import CommandPost, Options
from smoothbore.will_awi.state import (
    Charge,
    Extra,
    TestedCharge,
    attached_general,
    command_rule,
    compulsory_units,
    contacts_needed,
    firing_side,
    mark_done,
    needs_test,
    new_battle,
    own_unit,
    pending_melees,
    rank_with,
    ready_demolitions,
    with_extra,
)
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import (
    Commander,
    GeneralState,
    Rank,
    Status,
    TroopType,
    Unit,
)

from .turn_helpers import battle, to_phase


def test_new_battle() -> None:
    """A battle starts in turn 1, phase A, with the first side to move; options and the
    scenario are the battle's, not the ruleset's state."""
    s = new_battle(
        ("red", "blue"), (Unit("r1", "Foot", "red", TroopType.LINE),), seed=4,
        options=Options(evade=True), scenario=Scenario("x", turn_limit=3),
    )
    assert (s.turn, s.phase, s.extra.moving, s.extra.first) == (1, "A", "red", "red")
    assert s.options.evade and s.scenario.turn_limit == 3 and s.dice.seed == 4
    assert s.ruleset == "will_awi"


def test_json_round_trip() -> None:
    """The state saves and loads (core.state's JSON), options and scratch state included."""
    s = to_phase(battle(options=Options(evade=True)), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    back = BattleState.from_json(s.to_json(), Unit, Commander, Extra, Options)
    assert back == s and back.extra.fired == {"b1"}
    assert TURN.load(s.to_json()) == s


def test_scratch_state_lasts_a_phase_or_a_move() -> None:
    """What a unit did this phase is forgotten when the phase ends; what it did this move
    (fired) when the move ends, and so for the other side's move in the same turn."""
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    s = mark_done(s, "b1")
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "F" and not s.extra.done and s.extra.fired == {"b1"}
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    assert (s.turn, s.extra.moving) == (1, "blue") and not s.extra.fired


def test_firing_side_is_the_side_not_moving() -> None:
    """Rules - Move Sequence: one side moves, the other fires (D and E)."""
    s = battle()
    assert s.extra.moving == "red" and firing_side(s) == "blue"
    assert firing_side(with_extra(s, moving="blue")) == "red"


def test_own_unit_refuses_the_enemy_and_the_removed() -> None:
    """Move Sequence: a player acts only with his own units still on the table."""
    s = battle()
    assert own_unit(s, "r1", "red", None).id == "r1"
    with pytest.raises(IllegalActionError, match="not a unit of red"):
        own_unit(s, "b1", "red", None)
    gone = s.with_units(attrs.evolve(s.unit("r1"), strength=0, status=Status.ELIMINATED))
    with pytest.raises(IllegalActionError, match="no longer on the table"):
        own_unit(gone, "r1", "red", None)


def test_command_rule_names_the_post_in_play() -> None:
    """Command & Control: the March 2008 post by default, the January 2008 post as an option."""
    assert command_rule(battle()) == rules.COMMAND_MARCH
    jan = battle(options=Options(command_post=CommandPost.JANUARY_2008))
    assert command_rule(jan) == rules.COMMAND_JANUARY


def test_needs_test_skips_note_a_and_the_enemy() -> None:
    """Move Sequence A and note (a): the moving player's shaken and routing units test, except
    those routed in the enemy's charge or melee phases; steady units and the enemy's do not."""
    s = battle(
        r1=Unit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN),
        r2=Unit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
        b1=Unit("b1", "Continentals", "blue", TroopType.LINE, status=Status.SHAKEN),
    )
    assert [u.id for u in needs_test(s)] == ["r1"]
    assert needs_test(mark_done(s, "r1")) == ()


def test_compulsory_units_rout_and_retire() -> None:
    """Move Sequence B: routing units and units retiring after a shaken test move; not those
    routed in the enemy's charge phase (note (a)), nor immobilised wagons (Movement note (h))."""
    s = battle(
        r1=Unit("r1", "Foot", "red", TroopType.LINE, must_retire=True),
        r2=Unit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
    )
    assert [u.id for u in compulsory_units(s)] == ["r1"]
    wagon = Unit("r2", "Wagon", "red", TroopType.WAGON, status=Status.ROUTING, immobilised=True)
    assert [u.id for u in compulsory_units(s.with_units(wagon))] == ["r1"]
    fled = Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, status=Status.ROUTING)
    assert [u.id for u in compulsory_units(s.with_units(fled))] == ["r1", "r2"]


def test_attached_general_is_the_highest_rank() -> None:
    """Morale: +1 with a brigadier, +2 with a senior general: the best general with the unit
    counts; a dead general counts for nothing."""
    s = battle()
    assert rank_with(s, "b1") is Rank.BRIGADIER and rank_with(s, "b2") is None
    senior = Commander("bs", "Lincoln", "blue", Rank.SENIOR, attached_to="b1")
    s2 = attrs.evolve(s, commanders=(*s.commanders, senior))
    assert attached_general(s2, "b1") == senior and rank_with(s2, "b1") is Rank.SENIOR
    dead = attrs.evolve(senior, state=GeneralState.DEAD)
    s3 = attrs.evolve(s, commanders=(*s.commanders, dead))
    assert rank_with(s3, "b1") is Rank.BRIGADIER


def test_pending_melees_and_contacts() -> None:
    """Move Sequence I and J: a target that stood or counter-charged fights a melee; the charger
    of a target that routed or evaded moves to contact instead."""
    s = battle()
    charges = (Charge("r1", "b1", 2.0), Charge("r2", "b2", 4.0))
    tests = (
        TestedCharge("b1", ChargedResult.STANDS, decided=True),
        TestedCharge("b2", ChargedResult.ROUTS, decided=True),
    )
    s = with_extra(s, charges=charges, tests=tests)
    assert pending_melees(s) == ("b1",)
    assert [c.charger for c in contacts_needed(s)] == ["r2"]
    assert pending_melees(with_extra(s, resolved=frozenset({"b1"}))) == ()
    done = with_extra(s, charges=(charges[0], attrs.evolve(charges[1], contact=True)))
    assert contacts_needed(done) == ()
    evaded = with_extra(s, tests=(attrs.evolve(tests[0], evaded=True), tests[1]))
    assert pending_melees(evaded) == ()
    assert [c.charger for c in contacts_needed(evaded)] == ["r1", "r2"]


def test_ready_demolitions_are_the_movers() -> None:
    """Demolition: a charge goes off in the firing phase after its layers moved away."""
    s = battle()
    laid = Demolition("fw", "r1")
    s = with_extra(s, demolitions=(laid,))
    assert ready_demolitions(s) == ()
    away = attrs.evolve(laid, away=True)
    assert ready_demolitions(with_extra(s, demolitions=(away,))) == (away,)
    assert ready_demolitions(with_extra(s, demolitions=(away,), moving="blue")) == ()

