"""Rules - Move Sequence: the state of a move (turn_state): the phases as data and the queries
the phases share."""

from __future__ import annotations

import attrs

from smoothbore.core import BattleState
from smoothbore.will_awi import rules
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.fortifications import Demolition
from smoothbore.will_awi.sequence import (
    TURN,
    Fire,
    WillExtra,
)
from smoothbore.will_awi.turn_state import (
    ORDER,
    PHASES,
    Charge,
    attached_general,
    compulsory_units,
    contacts_needed,
    firing_side,
    mark_done,
    needs_test,
    pending_melees,
    rank_with,
    ready_demolitions,
    with_extra,
)
from smoothbore.will_awi.turn_state import (
    TestedCharge as ChargeTest,
)
from smoothbore.will_awi.units import (
    GeneralState,
    Rank,
    Status,
    TroopType,
    WillGeneral,
    WillUnit,
)

from .turn_helpers import battle, to_phase


def test_json_round_trip() -> None:
    """The state saves and loads (cattrs)."""
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    back = BattleState.from_json(s.to_json(), WillUnit, WillGeneral, WillExtra)
    assert back == s


def test_phases_are_the_move_sequence() -> None:
    """Rules - Move Sequence: eleven phases A to K, in order, each citing the sequence."""
    assert tuple("ABCDEFGHIJK") == ORDER
    assert tuple(p.name for p in PHASES) == ORDER
    assert all(p.rule == rules.SEQUENCE and p.summary for p in PHASES)


def test_firing_side_is_the_side_not_moving() -> None:
    """Rules - Move Sequence: one side moves, the other fires (D and E)."""
    s = battle()
    assert s.extra.moving == "red" and firing_side(s) == "blue"
    assert firing_side(with_extra(s, moving="blue")) == "red"


def test_needs_test_skips_note_a_and_the_enemy() -> None:
    """Move Sequence A and note (a): the moving player's shaken and routing units test, except
    those routed in the enemy's charge or melee phases; steady units and the enemy's do not."""
    s = battle(
        r1=WillUnit("r1", "Foot", "red", TroopType.LINE, status=Status.SHAKEN),
        r2=WillUnit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
        b1=WillUnit("b1", "Continentals", "blue", TroopType.LINE, status=Status.SHAKEN),
    )
    assert [u.id for u in needs_test(s)] == ["r1"]
    assert needs_test(mark_done(s, "r1")) == ()


def test_compulsory_units_rout_and_retire() -> None:
    """Move Sequence B: routing units and units retiring after a shaken test move; not those
    routed in the enemy's charge phase (note (a)), nor immobilised wagons (Movement note (h))."""
    s = battle(
        r1=WillUnit("r1", "Foot", "red", TroopType.LINE, must_retire=True),
        r2=WillUnit(
            "r2",
            "Dragoons",
            "red",
            TroopType.LIGHT_CAVALRY,
            status=Status.ROUTING,
            routed_last_move=True,
        ),
    )
    assert [u.id for u in compulsory_units(s)] == ["r1"]
    wagon = WillUnit("r2", "Wagon", "red", TroopType.WAGON, status=Status.ROUTING, immobilised=True)
    assert [u.id for u in compulsory_units(s.with_units(wagon))] == ["r1"]
    fled = WillUnit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, status=Status.ROUTING)
    assert [u.id for u in compulsory_units(s.with_units(fled))] == ["r1", "r2"]


def test_attached_general_is_the_highest_rank() -> None:
    """Morale: +1 with a brigadier, +2 with a senior general: the best general with the unit
    counts; a dead general counts for nothing."""
    s = battle()
    assert rank_with(s, "b1") is Rank.BRIGADIER and rank_with(s, "b2") is None
    senior = WillGeneral("bs", "Lincoln", "blue", Rank.SENIOR, attached_to="b1")
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
        ChargeTest("b1", ChargedResult.STANDS, decided=True),
        ChargeTest("b2", ChargedResult.ROUTS, decided=True),
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
    laid = Demolition("fw", "r1", 1, laid=1)
    s = with_extra(s, demolitions=(laid,))
    assert ready_demolitions(s) == ()
    away = attrs.evolve(laid, away=True)
    assert ready_demolitions(with_extra(s, demolitions=(away,))) == (away,)
    assert ready_demolitions(with_extra(s, demolitions=(away,), moving="blue")) == ()
