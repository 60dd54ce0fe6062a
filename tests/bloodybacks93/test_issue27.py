"""Issue 27 for Bloodybacks 9.3: compulsory moves at the table edge, the measured
countercharge, the cavalry's default weapon, a picklable ruleset, structured events and lost
units' footprints (bloodybacks-9.3.txt; decisions B62 to B64 of
docs/interpretations/bloodybacks93.md)."""

from __future__ import annotations

import pickle

import attrs
import pytest

from smoothbore.bloodybacks93 import TURN, example_battle, shooting, situations
from smoothbore.bloodybacks93.actions import Activate, Charge, Shoot
from smoothbore.bloodybacks93.charges import ChargeFacts, Contact, impetus_dice
from smoothbore.bloodybacks93.melee import Fate
from smoothbore.bloodybacks93.state import State
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Formation, Unit, UnitType, Weapon
from smoothbore.core import IllegalActionError
from smoothbore.rulesets import get_ruleset

from .recorded import recorded_run
from .test_situations import foot, on_table


# --- 1. a rout that turns over the table edge (Morale: Rout move; B62) ---------------------
def test_rout_move_turning_over_the_edge_it_runs_to_loses_the_unit() -> None:
    """Morale: Rout move, "if rout moves take them off the table then the unit is lost": a
    line 2.5" from its home edge routs from an enemy to its north-west (heading 150); turned
    to face that way it would already cross the edge, so the rout takes it off: lost, never
    an error from the table."""
    units = (foot("b", BRITISH, size=24), foot("a", AMERICAN))
    state = on_table(units, {"b": (20, 2.5, 0), "a": (10, 20, 180)})
    ran = situations.retreat(state, (("b", Fate.ROUTS, 7),))
    assert ran.unit("b").destroyed and not ran.unit("b").routing


def test_rout_move_along_the_edge_runs_without_turning_first() -> None:
    """Morale: Rout move (B62): a line 1" from the near edge routs east, away from an enemy
    beside it; turned to face east its frontage would cross the edge, so it runs its 9" as it
    stands and stays on the table (not lost: the run does not reach an edge)."""
    units = (foot("b", BRITISH, size=24), foot("a", AMERICAN))
    state = on_table(units, {"b": (20, 1.0, 0), "a": (6, 1.5, 90)})
    ran = situations.retreat(state, (("b", Fate.ROUTS, 9),))
    table = ran.extra.table
    assert table is not None and not ran.unit("b").destroyed
    assert table.footprint("b").centre == pytest.approx((29.0, 1.0))
    assert table.holds(table.footprint("b"))


def test_simulation_run_722_routs_the_virginia_riflemen_off_the_far_edge() -> None:
    """Morale: Rout move (B62), replayed: run 722 of ``simulate bloodybacks93 --seed 1``
    (battle ``default``) failed at step 166, when the Virginia Riflemen (a2), skirmishing at
    the far edge, failed to activate, routed and turned over the edge. They are lost, the log
    says so, and their footprint leaves the table."""
    played = recorded_run(722, steps=165)
    action = Activate(unit_id="a2", commander_id="ca", outside_radius=False, in_woods=False)
    new, events = TURN.step(played.end, action)
    assert new.unit("a2").destroyed
    assert new.extra.table is not None and "a2" not in new.extra.table.units
    lost = [e for e in events if e.kind == "retire" and e.fact("result") == "lost"]
    assert len(lost) == 1 and lost[0].text == "Virginia Riflemen routs off the table: lost"


# --- 3. a cavalry countercharge, measured on the table (Determine impetus; B63) -----------
def _horse(uid: str, side: str) -> Unit:
    return Unit(uid, uid, side, kind=UnitType.CAVALRY, size=12, density=6, quality=3)


def _cavalry_charge(target: Unit, facing: float) -> State:
    """British horse (c, quality 3: cold steel) 3" short of ``target`` (facing ``facing``)."""
    units = (_horse("c", BRITISH), target)
    return on_table(units, {"c": (20, 10, 0), target.id: (20, 14, facing)}, actions=2)


def test_cavalry_charging_lone_infantry_is_not_countercharged_on_a_table() -> None:
    """Determine impetus, "deduct three d12 if charging cavalry are being countercharged by
    cavalry": charging a lone foot unit, the table sees no cavalry meet the charge, so the
    impetus stays 4 + cold steel = 5d12; the caller saying otherwise is refused."""
    state = _cavalry_charge(foot("a", AMERICAN, size=12), 180)
    measured = situations.measured_charge(state, ("c",), ("a",), ChargeFacts())
    assert not measured.facts.countercharged_by_cavalry
    dice = impetus_dice((state.unit("c"),), (state.unit("a"),), measured.facts)
    assert dice.total == 5
    claimed = Charge(("c",), ("a",), ChargeFacts(countercharged_by_cavalry=True))
    with pytest.raises(IllegalActionError):
        TURN.check(state, claimed)


def test_cavalry_meeting_a_cavalry_charge_front_to_front_countercharges() -> None:
    """Determine impetus (B63): American horse facing the charge, struck in its front,
    countercharge: 5 - 3 = 2d12; taken in the flank they cannot, 5 + 2 (flank) = 7d12."""
    front = _cavalry_charge(_horse("a", AMERICAN), 180)
    met = situations.measured_charge(front, ("c",), ("a",), ChargeFacts())
    assert met.facts.countercharged_by_cavalry and met.facts.contact is Contact.FRONT
    assert impetus_dice((front.unit("c"),), (front.unit("a"),), met.facts).total == 2
    flank = _cavalry_charge(_horse("a", AMERICAN), 90)
    taken = situations.measured_charge(flank, ("c",), ("a",), ChargeFacts())
    assert not taken.facts.countercharged_by_cavalry and taken.facts.contact is Contact.FLANK
    assert impetus_dice((flank.unit("c"),), (flank.unit("a"),), taken.facts).total == 7


# --- 4. horsemen carry the carbine (Shooting: Musketry; B64) ------------------------------
def test_cavalry_built_without_a_weapon_carry_the_carbine() -> None:
    """Shooting: Musketry: the carbine shoots 2d12 to 6"; cavalry made without a weapon had
    muskets (volleys to 8", skirmishing to 16"). Foot keep the musket; guns their cannon."""
    horse = Unit("c", "Light Dragoons", BRITISH, kind=UnitType.CAVALRY, size=12)
    assert horse.weapon is Weapon.CARBINE
    assert shooting.bands(horse) == ((shooting.Fire.CARBINE, 0, 6),)
    assert Unit("f", "Foot", BRITISH).weapon is Weapon.MUSKET
    guns = Unit("g", "Guns", BRITISH, kind=UnitType.FIELD_ARTILLERY, size=4,
                formation=Formation.UNLIMBERED)
    assert guns.weapon is Weapon.CANNON
    assert Unit("m", "Mounted rifles", BRITISH, kind=UnitType.CAVALRY,
                weapon=Weapon.RIFLE).weapon is Weapon.RIFLE


def test_default_cavalry_on_a_table_shoot_the_carbine_to_6_inches_only() -> None:
    """Shooting: Musketry (B64): horse 7.5" from enemy foot are out of carbine range (6");
    with muskets they were offered a volley. At 4.5" they shoot the carbine."""
    for gap, offered in ((7.5, ()), (4.5, (shooting.Fire.CARBINE,))):
        state = on_table((_horse("c", BRITISH), foot("a", AMERICAN)),
                         {"c": (20, 10, 0), "a": (20, 10 + 1.69 + gap, 180)})
        table = state.extra.table
        assert table is not None
        shots = [a for a in TURN.legal_actions(state) if isinstance(a, Shoot)]
        assert tuple({shooting.best_fire(state.unit("c"), a.facts.range) for a in shots}
                     ) == offered


# --- 5. the ruleset pickles (issue 27) -------------------------------------------------------
def test_the_ruleset_pickles_also_evolved_and_steps_alike() -> None:
    """Sequence of Play: the turn's handlers are module-level (the table kept in step by the
    engine's ``after`` hook, ``KeptInStep(placement.RULES)``), so the ruleset pickles as it is and
    after ``attrs.evolve``, and the unpickled turn steps the battle as the original does."""
    ruleset = get_ruleset("bloodybacks93")
    for variant in (ruleset, attrs.evolve(ruleset), attrs.evolve(ruleset, turn=attrs.evolve(
            ruleset.turn))):
        back = pickle.loads(pickle.dumps(variant))
        state = example_battle(3)
        for _ in range(12):
            action = TURN.legal_actions(state)[0]
            mine, _ = TURN.step(state, action)
            theirs, _ = back.turn.step(state, action)
            assert mine == theirs
            state = mine


# --- 6. structured events (issue 27: Event.facts) -------------------------------------------
TESTED = ("activity", "activation", "rout", "evade", "melee", "passage", "risk", "shooting",
          "fate")
"""The kinds of event that report a test or a roll's outcome: each carries test and result."""


def test_a_failed_activation_reports_its_morale_test_as_facts() -> None:
    """Activating Units: when every die fails the unit takes an immediate morale test
    (Morale: results table). Run 722's Virginia Riflemen roll 0 successes of 3 dice (3 DRP)
    and rout with 1 success of the test (need 7, as the log says): the event says so in
    facts, not only in words, and the rout move after it names its move and distance."""
    played = recorded_run(722, steps=165)
    action = Activate(unit_id="a2", commander_id="ca", outside_radius=False, in_woods=False)
    _, events = TURN.step(played.end, action)
    activation = next(e for e in events if e.kind == "activation")
    assert activation.fact("test") == "activation" and activation.fact("result") == "failed"
    assert (activation.fact("dice"), activation.fact("successes"), activation.fact("actions")
            ) == (3, 0, 0)
    assert activation.fact("morale_test") == "morale"
    assert (activation.fact("morale_need"), activation.fact("morale_successes"),
            activation.fact("morale_result")) == (7, 1, "rout")
    retire = next(e for e in events if e.kind == "retire")
    assert retire.fact("move") == "routs" and retire.fact("distance") == 10


def test_every_test_event_of_table_battles_carries_its_test_and_result() -> None:
    """Every event reporting a test or roll (activity, activation, rout tests, evades,
    melees with their checks to stand and cohesion tests, passages of lines, risks to
    commanders, shooting, commanders' fates) carries ``test`` and ``result`` facts, and a
    melee's facts name each unit's fate."""
    seen: set[str] = set()
    for index in (0, 10, 13):  # run 10 has a rout test, run 13 a melee
        played = recorded_run(index)
        for step in played.steps:
            for event in step.events:
                if event.kind not in TESTED:
                    continue
                seen.add(event.kind)
                assert event.fact("test") is not None, (event.kind, event.text)
                assert event.fact("result") is not None, (event.kind, event.text)
                if event.kind == "melee" and event.fact("fought"):
                    assert any(k.startswith("fate:") for k, _ in event.facts)
                    assert event.fact("result") in ("chargers won", "defenders won", "drawn")
                if event.kind == "rout":
                    assert event.fact("test") == "morale"
    assert {"activity", "activation", "shooting", "rout", "melee"} <= seen


def test_an_evade_reports_caught_or_evaded_with_its_morale_test() -> None:
    """Evade: an evader caught is destroyed; one that gets away takes a morale test at the
    end of its move: the event's facts say which, and the test's result."""
    from .test_charges_on_table import _evaders

    _, events = TURN.step(_evaders(0.0, behind=False), Charge(("b",), ("a",), evade=True))
    caught = next(e for e in events if e.kind == "evade")
    assert caught.fact("test") == "evade" and caught.fact("result") == "caught"
    _, events = TURN.step(_evaders(180.0, behind=False), Charge(("b",), ("a",), evade=True))
    away = next(e for e in events if e.kind == "evade")
    assert away.fact("result") == "evaded" and away.fact("morale_test") == "morale"
    assert away.fact("morale_result") in ("destroyed", "rout", "pushed back", "carry on")
    assert str(away.fact("morale_result")) in away.text


# --- 7. lost units leave the table (Morale: results table, Rout move) -----------------------
def test_the_footprints_after_every_step_are_exactly_the_standing_units() -> None:
    """Morale: "unit destroyed/surrenders", "if rout moves take them off the table then the
    unit is lost": after every step of these battles, the table's footprints are exactly
    the units not destroyed, and no commander's mark rides with a unit off the table. The
    runs lose units every way: an activation's morale test (5, 69), a rout test (36), melees
    (37: guns, 68: both sides, 87), guns pushed back (99), routing off the edge (722)."""
    for index in (5, 36, 37, 68, 69, 87, 99, 722):
        played = recorded_run(index)
        state = played.start
        for step in played.steps:
            state, _ = TURN.step(state, step.action)
            table = state.extra.table
            assert table is not None
            standing = {u.id for u in state.units if not u.destroyed}
            assert set(table.units) == standing, (index, step)
            assert all(m.attached_to is None or m.attached_to in table.units
                       for m in table.commanders), (index, step)
        assert any(u.destroyed for u in state.units)


def test_a_deferred_cavalry_melee_turned_measures_the_countercharge_afresh() -> None:
    """Determine impetus, "or to counter-charging units if the tables have turned in a
    deferred melee" (B32, B63): American horse that the British horse charged front to
    front counter-charge into cavalry meeting them (-3 dice); foot charged by horse have no
    cavalry to meet them when they counter-charge (so no deduction, and nothing to claim)."""
    state = _cavalry_charge(_horse("a", AMERICAN), 180)
    deferred, _ = TURN.step(state, Charge(("c",), ("a",), defer=True))
    assert deferred.extra.deferred[0].facts.countercharged_by_cavalry
    turned = situations.counter_charge_facts(deferred, ("a",), ("c",), ChargeFacts())
    assert turned.countercharged_by_cavalry
    foot_state = _cavalry_charge(foot("a", AMERICAN, size=12), 180)
    deferred, _ = TURN.step(foot_state, Charge(("c",), ("a",), defer=True))
    claimed = ChargeFacts(countercharged_by_cavalry=True)
    assert not situations.counter_charge_facts(deferred, ("a",), ("c",), claimed
                                               ).countercharged_by_cavalry
