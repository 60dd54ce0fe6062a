"""What fire and melee do beyond the roll (effects): strength losses, shaking, and the Risk
to Generals (Rules - Firing and Melee)."""

from __future__ import annotations

from itertools import product

import attrs

from smoothbore.core import D6, Log, SamplingDice, TotalCheck
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import Fire
from smoothbore.will_awi.effects import FATE_TEXT, general_risk, lose, shake
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.generals import Fate, Risk
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, GeneralState, Nationality, Status, TroopType, Unit

from .turn_helpers import battle, to_phase


def test_general_killed_shakes_chain_within_18() -> None:
    """Risk to Generals: a general killed shakes his units measured within 18"."""
    seen_dead = False
    for seed in range(300):
        s = to_phase(battle(seed), "E")
        s = s.with_units(attrs.evolve(s.unit("r1"), commander="rg"))
        s = attrs.evolve(
            s, commanders=(*s.commanders, Commander("rg", "Brig", "red", attached_to="r1"))
        )
        after, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4), chain_within_18=frozenset({"r1"})))
        if after.commander("rg").state is GeneralState.DEAD:
            seen_dead = True
            assert after.unit("r1").status is Status.SHAKEN
            break
    assert seen_dead


def test_lose_removes_a_unit_at_zero() -> None:
    """Rules - Introduction: Strength Points: a unit at 0 strength points is removed; a loss
    that leaves points says nothing."""
    s = battle()
    log = Log(SamplingDice(0))
    after = lose(s, s.unit("r1"), 1, log, rules.FIRING)
    assert after.unit("r1").strength == 4 and after.unit("r1").on_table and not log.events
    weak = s.with_units(attrs.evolve(s.unit("r1"), strength=2))
    after = lose(weak, weak.unit("r1"), 2, log, rules.MELEE)
    assert after.unit("r1").status is Status.ELIMINATED and after.unit("r1").strength == 0
    (event,) = log.events
    assert event.kind == "eliminated" and event.rule == rules.INTRO_STRENGTH
    assert event.text == "Foot falls to 0 strength points and is removed"


def test_shake_only_a_steady_unit_and_end_a_highland_charge() -> None:
    """Morale effect of fire (FAQs (3) 3: not cumulative) and Battles of the '45 (an adverse
    morale result ends a Highland charge): a steady unit is shaken and told so; a shaken or
    routing unit is not made worse and nothing is said."""
    clan = Unit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE,
                highland_charge=True)
    s = battle(r1=clan)
    log = Log(SamplingDice(0))
    after = shake(s, "r1", "by fire", log, rules.FIRE_MORALE)
    assert after.unit("r1").shaken and not after.unit("r1").highland_charge
    (event,) = log.events
    assert event.text == "Clan is shaken by fire" and event.kind == "shaken"
    again = shake(after, "r1", "by fire", log, rules.FIRE_MORALE)
    assert again == after and len(log.events) == 1


def test_log_gives_each_event_the_rolls_since_the_last() -> None:
    """Every event carries the rolls made for it (and only those)."""
    log = Log(SamplingDice(3))
    log.dice.roll(TotalCheck.of(1, D6), reason="first", rule=rules.FIRING)
    log.add("a", "one", rules.FIRING)
    log.add("b", "two", rules.FIRING)
    log.dice.roll(TotalCheck.of(2, D6), reason="second", rule=rules.FIRING)
    log.add("c", "three", rules.FIRING)
    assert [len(e.rolls) for e in log.events] == [1, 0, 1]
    assert log.events[2].rolls[0].reason == "second"


def test_general_risk_follows_the_faces() -> None:
    """Rules - Firing: Risk to Generals: 2d6 for each general with a unit that lost strength to
    fire: 9-10 a light wound (a second one incapacitates), 11-12 killed; each band is seen and
    the state follows the dice."""
    wound_totals = {t for a, b in product(range(1, 7), repeat=2) if 9 <= (t := a + b) <= 10}
    seen = set()
    for seed in range(120):
        s = battle(seed)
        log = Log(SamplingDice(seed))
        after = general_risk(s, "b1", Risk.FIRE_LOSS, frozenset({"b2", "b3"}), log)
        total = sum(log.events[0].rolls[0].faces)
        seen.add(total)
        greene = after.commander("bb")
        assert log.events[0].rule == rules.FIRE_GENERALS
        if total in wound_totals:
            assert greene.light_wounds == 1 and greene.active
        elif total >= 11:
            assert greene.state is GeneralState.DEAD and greene.attached_to == ""
            assert after.unit("b2").shaken and after.unit("b3").shaken
            assert not after.unit("b1").shaken  # not measured within 18"
        else:
            assert greene == s.commander("bb") and len(log.events) == 1
    assert {2, 9, 12} <= seen
    s = battle()
    hurt = s.with_commanders(attrs.evolve(s.commander("bb"), light_wounds=1))
    for seed in range(120):
        log = Log(SamplingDice(seed))
        after = general_risk(hurt, "b1", Risk.FIRE_LOSS, frozenset(), log)
        if sum(log.events[0].rolls[0].faces) in wound_totals:
            assert after.commander("bb").state is GeneralState.INCAPACITATED
            assert "second light wound" in log.events[0].text
            break
    else:
        raise AssertionError("no light wound rolled")


def test_general_fates_read_as_sentences() -> None:
    """Risk to Generals: every fate is told as a sentence about the general."""
    assert {FATE_TEXT[f] for f in Fate} == {
        "comes through unhurt",
        "is lightly wounded",
        "is captured",
        "is killed",
    }
