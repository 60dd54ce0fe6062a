"""Rules - Move Sequence D and E (steps_firing): facing changes, fire, split fire from
buildings, Highland charges, and a second charge's target firing in H."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import (
    ChangeFacing,
    DeclareCharge,
    EndPhase,
    Fire,
    HighlandChargeMove,
    Move,
    SpreadHighlandCharge,
    TestCharged,
)
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.firing import Cover, FireFacts
from smoothbore.will_awi.options import FORTY_FIVE, Options
from smoothbore.will_awi.state import State, with_extra
from smoothbore.will_awi.steps_firing import default_range
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Nationality, Status, TroopType, Unit

from .turn_helpers import battle, next_own_move, to_phase, with_options


def test_default_range_is_the_longest_short_range() -> None:
    """Rules - Firing: muskets fire 0-6" (short range; the candidates fire at 6"); units that do
    not fire have none."""
    s = battle()
    assert default_range(s.unit("b1")) == 6.0
    assert default_range(s.unit("b3")) == 12.0  # light guns: short 0-12"
    assert default_range(Unit("w", "Wagon", "blue", TroopType.WAGON)) == 0.0


def test_every_firer_may_fire_at_every_enemy() -> None:
    """Move Sequence E: the firing player fires each of his units at any enemy in range; the
    moving side does not fire; cavalry do not fire (FAQs (3) 4)."""
    s = to_phase(battle(), "E")
    fires = {a for a in TURN.legal_actions(s) if isinstance(a, Fire)}
    assert fires == {
        Fire(f, t, FireFacts(default_range(s.unit(f)))) for f in ("b1", "b2", "b3")
        for t in ("r1", "r2")
    }
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("r1", "b1", FireFacts(5)))


def test_fire_takes_strength_and_shakes() -> None:
    """E: fire takes a point on 7+ and shakes on a score above basic morale. American light
    guns at 10" fire canister (+1); the British line target has morale 5 + 1 = 6, 5 after a
    loss: the state must follow the faces rolled."""
    outcomes = set()
    for seed in range(40):
        s = to_phase(battle(seed), "E")
        after, events = TURN.step(s, Fire("b3", "r1", FireFacts(10)))
        r1 = after.unit("r1")
        outcomes.add((r1.strength, r1.status))
        assert events[0].rolls and events[0].rule.startswith("Will's AWI")
        score = sum(events[0].rolls[0].faces) + 1
        hit = score >= 7
        shaken = score > (5 if hit else 6)
        assert r1.strength == (4 if hit else 5)
        assert r1.status is (Status.SHAKEN if shaken else Status.STEADY)
        assert (events[-1].text == "Foot is shaken by fire") is shaken
    assert (4, Status.SHAKEN) in outcomes and (5, Status.STEADY) in outcomes
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(battle(), "E"), Fire("b3", "r1", FireFacts(37)))


def test_each_unit_fires_once() -> None:
    """Rules - Firing: a unit fires once in the firing phase."""
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    assert not any(isinstance(a, Fire) and a.firer == "b1" for a in TURN.legal_actions(s))


def test_split_fire_from_a_building_lets_each_base_fire() -> None:
    """Rules - Terrain: Buildings: "if the two bases of a unit fire in different directions
    treat the firing of each base as the unit in column firing": a unit that splits its fire
    fires once per base, each at -2 (as a column), and no more; once one base has fired alone
    the other cannot fire with the whole unit."""
    s = to_phase(battle(), "E")
    split = FireFacts(4, Cover.OPEN, split_fire=True)
    s, events = TURN.step(s, Fire("b1", "r1", split))
    assert "b1" in s.extra.half_fired and "b1" not in s.extra.fired
    assert events[0].rolls[0].check == "2d6 - 2"
    with pytest.raises(IllegalActionError, match="other base fires alone too") as error:
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    assert error.value.rule == rules.BUILDINGS
    s, events = TURN.step(s, Fire("b1", "r2", split))
    assert events[0].rolls[0].check == "2d6 - 2"
    assert "b1" in s.extra.fired and "b1" not in s.extra.half_fired
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(s, Fire("b1", "r2", split))


def test_facing_change_barred_within_reach() -> None:
    """D: no facing change with an enemy within charge reach of the current front; the
    firing side's units are offered a quarter turn and an about face."""
    s = to_phase(battle(), "D")
    assert {ChangeFacing("b1", 90.0), ChangeFacing("b1", 180.0)} <= set(TURN.legal_actions(s))
    TURN.step(s, ChangeFacing("b1", 90, (("r1", 4.0),)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, ChangeFacing("b1", 90, (("r2", 5.0),)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, ChangeFacing("r1", 90))  # the moving side does not turn in D


def test_facing_narration() -> None:
    """Changing Facing: a turn of 0° is told as keeping the facing, not as a turn."""
    s = to_phase(battle(), "D")
    _, events = TURN.step(s, ChangeFacing("b1", 0.0))
    assert events[0].text == "Continentals keeps its facing"
    _, events = TURN.step(s, ChangeFacing("b1", 90.0))
    assert events[0].text == "Continentals turns 90°"


def test_fire_narration_tells_the_score() -> None:
    """Rules - Firing: the event says who fired at whom, the modified score rolled and the loss
    it causes (7 or more: 1 strength point)."""
    for seed in range(20):
        s = to_phase(battle(seed), "E")
        _, events = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
        score = events[0].rolls[0].outcome
        assert isinstance(score, int)
        loss = "1 strength point lost" if score >= 7 else "no loss"
        assert events[0].text == f"Continentals fires at Foot, scoring {score}: {loss}"


def test_could_not_have_fired_is_for_second_charges_only() -> None:
    """Second Cavalry Charges: a unit firing in the firing phase (E) could fire in it."""
    s = to_phase(battle(), "E")
    with pytest.raises(IllegalActionError, match="could fire"):
        TURN.step(s, Fire("b1", "r1", FireFacts(4), could_not_have_fired=True))


def second_charge(seed: int = 1, options: Options | None = None) -> State:
    """Phase H of a second round: the dragoons charged the Continentals, who stood."""
    s = to_phase(battle(seed, options), "F")
    s = with_extra(s, second_round=True, winners=frozenset({"r2"}))
    s, _ = TURN.step(s, DeclareCharge("r2", "b1", 4.0))
    s, _ = TURN.step(s, EndPhase())
    for extra in range(100):
        tried = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed * 100 + extra))
        tested, _ = TURN.step(tried, TestCharged("b1"))
        if tested.extra.tests[0].result is ChargedResult.STANDS:
            return to_phase(tested, "H")
    raise AssertionError("never stood")


def test_second_charge_target_may_fire() -> None:
    """Second Cavalry Charges (W42): the target may fire at the cavalry if it could not have
    fired in the firing phase (the fact the player measured); one that could have, or that
    fired, may not; units not charged may not fire; the fire comes with the target's other
    reactions, in H."""
    s = second_charge()
    legal = TURN.legal_actions(s)
    assert Fire("b1", "r2", FireFacts(6.0), could_not_have_fired=True) in legal
    assert Fire("b1", "r2", FireFacts(6.0)) not in legal
    after, events = TURN.step(s, Fire("b1", "r2", FireFacts(4), could_not_have_fired=True))
    assert "b1" in after.extra.fired
    assert events[0].kind == "fire"
    with pytest.raises(IllegalActionError, match="could have fired"):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("b2", "r2", FireFacts(4), could_not_have_fired=True))
    fired = with_extra(s, fired=frozenset({"b1"}))
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(fired, Fire("b1", "r2", FireFacts(4), could_not_have_fired=True))
    first_round = with_extra(s, second_round=False)
    with pytest.raises(IllegalActionError, match="only the target of a second charge"):
        TURN.step(first_round, Fire("b1", "r2", FireFacts(4), could_not_have_fired=True))


def test_second_charge_fire_if_unfired_option() -> None:
    """W42, option ``second_charge_fire_if_unfired``: a target that did not fire in E may fire
    without the player's measurement; one that fired still may not."""
    s = second_charge(options=Options(second_charge_fire_if_unfired=True))
    after, _ = TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    assert "b1" in after.extra.fired
    with pytest.raises(IllegalActionError, match="already fired"):
        TURN.step(with_extra(s, fired=frozenset({"b1"})), Fire("b1", "r2", FireFacts(4)))


def test_forty_five_highland_charge_in_the_turn() -> None:
    """Battles of the '45: unshaken highlanders that receive fire test (5-6 in musket range);
    a unit in a Highland charge must make its charge move (1d6 more) in its next move."""
    clan = Unit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
    launched = 0
    for seed in range(60):
        s = to_phase(battle(seed, Options(variant=FORTY_FIVE), r1=clan), "E")
        s, events = TURN.step(s, Fire("b1", "r1", FireFacts(5)))
        if s.unit("r1").highland_charge:
            launched += 1
            assert events[-1].kind == "highland"
            s = next_own_move(s)
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            with pytest.raises(IllegalActionError):
                TURN.step(s, Move("r1"))
            s, ev = TURN.step(s, HighlandChargeMove("r1"))
            assert ev[0].rolls and 7 <= int(ev[0].text.split(": ")[1].split('"')[0]) <= 12
    assert 0 < launched < 60


def test_a_failed_highland_charge_test_is_shown() -> None:
    """Battles of the '45: the test of an unshaken clan under fire is reported whichever way
    it goes, the event naming the rule and carrying the 1d6 (5-6 at 5", in musket range)."""
    clan = Unit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
    outcomes = set()
    for seed in range(40):
        s = to_phase(battle(seed, Options(variant=FORTY_FIVE), r1=clan), "E")
        s, events = TURN.step(s, Fire("b1", "r1", FireFacts(5)))
        if s.unit("r1").status is not Status.STEADY:
            continue
        (tested,) = [e for e in events if e.kind == "highland"]
        assert tested.rule == rules.FORTY_FIVE
        (roll,) = [r for r in tested.rolls if "Highland charge" in r.reason]
        (face,) = roll.faces
        assert s.unit("r1").highland_charge is (face >= 5)
        assert ("holds its ground" in tested.text) is (face < 5)
        outcomes.add(face >= 5)
    assert outcomes == {True, False}


def test_a_highland_charge_spreads_in_the_firing_phase() -> None:
    """Battles of the '45: "any unshaken Highland unit within 12" of other Highlanders already
    in a Highland charge also test": in E such a unit of the moving side is offered the test
    (6, or 5-6 in musket range) and step accepts exactly that; a shaken unit is not."""
    clans = {
        "r1": Unit("r1", "Camerons", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE,
                   highland_charge=True),
        "r2": Unit("r2", "Stewarts", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE),
    }
    s = to_phase(battle(3, Options(variant=FORTY_FIVE), **clans), "C")
    s, _ = TURN.step(s, HighlandChargeMove("r1"))
    s = to_phase(s, "E")
    assert SpreadHighlandCharge("r2") in TURN.legal_actions(s)
    joined = set()
    for seed in range(40):
        tried = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed))
        after, events = TURN.step(tried, SpreadHighlandCharge("r2"))
        (face,) = events[0].rolls[0].faces
        assert after.unit("r2").highland_charge is (face == 6)
        joined.add(face == 6)
        assert SpreadHighlandCharge("r2") not in TURN.legal_actions(after)
    assert joined == {True, False}
    shaken = s.with_units(attrs.evolve(s.unit("r2"), status=Status.SHAKEN))
    assert SpreadHighlandCharge("r2") not in TURN.legal_actions(shaken)
    with pytest.raises(IllegalActionError, match="cannot test"):
        TURN.step(shaken, SpreadHighlandCharge("r2"))
    plain = with_options(s, variant=Options().variant)
    assert SpreadHighlandCharge("r2") not in TURN.legal_actions(plain)


def _second_charge_on_table(dragoons_at_e: float, seed: int = 1) -> State:
    """On a table: the Continentals facing the dragoons ``dragoons_at_e`` inches off (front
    to front) as the firing phase begins (red moving, blue firing); then, as after their
    first charge, the dragoons 4" off, charging a second time; phase H once the
    Continentals stood."""
    from smoothbore.will_awi.positions import BASE, deploy, footprint
    from smoothbore.will_awi.state import new_battle
    from smoothbore.will_awi.units import Commander

    units = (Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH),
             Unit("b1", "Continentals", "blue", TroopType.LINE))
    places = {"b1": (20.0, 20.0, 180.0), "r2": (20.0, 20.0 - BASE - dragoons_at_e, 0.0)}
    for extra in range(100):
        s = new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                       table=deploy(units, places, width=48, depth=36), seed=seed + extra)
        s = to_phase(s, "F")
        table = s.extra.table
        assert table is not None
        s = with_extra(s, second_round=True, winners=frozenset({"r2"}), table=table.placed(
            footprint(s.unit("r2"), 20.0, 20.0 - BASE - 4.0, 0.0)))
        s, _ = TURN.step(s, DeclareCharge("r2", "b1"))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b1"))
        if s.extra.tests[0].result is ChargedResult.STANDS:
            return to_phase(s, "H")
    raise AssertionError("never stood")


def test_a_second_charges_target_could_have_fired_is_measured() -> None:
    """Issue 27 (Rules - Movement: Second Cavalry Charges: the target "can fire at the
    cavalry if it could not have fired in the firing phase"; W42): on a table the firing
    phase notes who could fire as it begins. The dragoons 10" off then (beyond the musket's
    6"): the Continentals could not have fired, so they may fire at the dragoons charging
    them again (offered, with no flag); 5" off then, they could have (and held their
    fire), so they may not. The player's flag is refused on a table."""
    unable = _second_charge_on_table(10.0)
    assert "b1" not in unable.extra.could_fire
    assert Fire("b1", "r2") in TURN.legal_actions(unable)
    after, events = TURN.step(unable, Fire("b1", "r2"))
    assert "b1" in after.extra.fired and events[0].kind == "fire"
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(unable, Fire("b1", "r2", could_not_have_fired=True))
    able = _second_charge_on_table(5.0)
    assert "b1" in able.extra.could_fire
    assert Fire("b1", "r2") not in TURN.legal_actions(able)
    with pytest.raises(IllegalActionError, match="could have fired"):
        TURN.check(able, Fire("b1", "r2"))
