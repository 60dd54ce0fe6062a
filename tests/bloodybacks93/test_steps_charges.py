"""Bloodybacks 9.3, Charges and melee: the charge in the turn (steps_charges.py)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.bloodybacks93.actions import Charge, EndActivation, EndTurn, ResolveDeferred
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.deck import RED, Card
from smoothbore.bloodybacks93.movement import MoveFacts, Terrain
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.phases import DEFERRED
from smoothbore.bloodybacks93.state import Activated
from smoothbore.bloodybacks93.units import BRITISH, Formation, Troops, Unit
from smoothbore.core import IllegalActionError, InvalidValueError

from .turn_setup import COMMANDERS, UNITS, active, legal, reseed, step


def test_charge_and_deferred_melee() -> None:
    """Charges and melee; Sequence of Play: deferred melees are resolved at the end."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    deferred, events = step(state, Charge(("b1",), ("a1",), defer=True))
    assert deferred.extra.deferred and events[-1].kind == "charge"
    ended, _ = step(deferred, EndActivation())
    assert ended.phase == DEFERRED
    with pytest.raises(IllegalActionError, match="deferred"):
        step(ended, EndTurn())
    resolved, events = step(ended, ResolveDeferred())
    assert events[0].kind == "melee" and not resolved.extra.deferred
    for seed in range(10):
        trial = reseed(state, seed)
        fought, events = step(trial, Charge(("b1",), ("a1",)))
        assert events[0].kind == "melee" and "impetus" in events[0].text
        before, after = trial.unit("a1"), fought.unit("a1")
        hurt = after.stamina_losses > before.stamina_losses
        # Risk to commanders: Stevens is attached to a1, so its losses put him at risk
        assert hurt == any(e.kind == "risk" and e.subject == "ca" for e in events)
        for event in events:
            if event.kind == "risk":
                # one melee loss is a stamina loss with its DRP: counted once
                losses = after.stamina_losses - before.stamina_losses
                assert ("struck" in event.text) == (event.rolls[0].outcome <= losses)


def test_a_deferred_melee_chooses_its_pursuit_when_resolved() -> None:
    """Charges and melee: Pursuit; Sequence of Play: a deferred melee's pursuit is the
    choice of whoever charges when it is resolved, not of the charge that deferred it."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError, match="chosen when it is resolved"):
        step(state, Charge(("b1",), ("a1",), defer=True, pursue=True))
    assert Charge(("b1",), ("a1",), defer=True, pursue=True) not in legal(state)
    deferred, _ = step(state, Charge(("b1",), ("a1",), defer=True))
    ended, _ = step(deferred, EndActivation())
    assert set(legal(ended)) == {ResolveDeferred(r, p) for r in (False, True)
                                 for p in (False, True)}


def test_skirmishers_must_evade() -> None:
    """Evade: density 3 infantry charged in the open by density 5+ infantry must evade."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError, match="must evade"):
        step(state, Charge(("b1",), ("a2",), evade=False))
    after, events = step(state, Charge(("b1",), ("a2",)))
    assert events[0].kind == "evade"
    assert after.unit("a2").disruption >= 1 or after.unit("a2").destroyed
    with pytest.raises(IllegalActionError, match="may evade"):
        step(state, Charge(("b1",), ("a1",), evade=True))


def test_an_evader_that_routs_makes_its_rout_move() -> None:
    """Evade: the evader takes a DRP and a morale test; Morale: a unit that routs makes its
    rout move (6" + dAv for infantry), one that is pushed back its push back (2dAv")."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    results = set()
    for seed in range(80):
        after, events = step(reseed(state, seed), Charge(("b1",), ("a2",)))
        evader = after.unit("a2")
        kinds = [e.kind for e in events]
        if evader.routing:
            results.add("rout")
            move = events[kinds.index("evade") + 1]
            assert move.kind == "retire" and "routs" in move.text
            assert 8 <= move.rolls[0].outcome <= 11
        elif "pushed back" in events[0].text:
            results.add("pushed back")
            assert events[1].kind == "retire" and "pushed back" in events[1].text
        else:
            assert "retire" not in kinds
    assert "rout" in results


def test_charging_a_routing_unit_destroys_it() -> None:
    """Charges and melee (B49): a routing unit contacted by a charge cannot stand: it is
    caught and destroyed, with no impetus, check to stand or melee (and no third rout move
    in the turn); a target still standing beside it fights as usual."""
    routing = attrs.evolve(UNITS[3], routing=True, disruption=3)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(*UNITS[:3], routing, UNITS[4]))
    assert Charge(("b1",), ("a1",)) in legal(state)
    after, events = step(state, Charge(("b1",), ("a1",)))
    assert after.unit("a1").destroyed and not after.unit("a1").routing
    (event,) = events
    assert event.kind == "charge" and "destroyed" in event.text and event.rolls == ()
    assert "B49" in event.rule
    assert after.unit("b1") == state.unit("b1")
    both, events = step(reseed(state, 3), Charge(("b1",), ("a1", "a2"), evade=False,
                                                 target_in_open=False))
    assert both.unit("a1").destroyed
    assert [e.kind for e in events][:2] == ["charge", "melee"]


def test_pursuit_follows_a_rout() -> None:
    """Charges and melee: Pursuit: routed defenders can be pursued by the winners."""
    weak = attrs.evolve(UNITS[3], quality=1, disruption=3)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(*UNITS[:3], weak, UNITS[4]))
    pursued = 0
    for seed in range(30):
        after, events = step(reseed(state, seed), Charge(("b1",), ("a1",), pursue=True))
        kinds = [e.kind for e in events]
        charger_holds = not after.unit("b1").gone and "33rd Foot holds" in events[0].text
        if after.unit("a1").routing and charger_holds:
            assert "pursuit" in kinds
            pursued += 1
        else:
            assert "pursuit" not in kinds
    assert pursued > 0


def test_only_successful_attackers_pursue() -> None:
    """Charges and melee: Pursuit: "routed defenders can be pursued by successful
    attackers": a charger pushed back (or routed) by its own cohesion test, here in drawn
    melees, does not pursue defenders that routed; one that holds does (B30)."""
    weak = attrs.evolve(UNITS[3], quality=1, disruption=3)
    plain = attrs.evolve(UNITS[0], troops=Troops.OTHER)  # no cold steel: melees can draw
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(plain, *UNITS[1:3], weak, UNITS[4]))
    unsuccessful = successful = 0
    for seed in range(400):
        after, events = step(reseed(state, seed), Charge(("b1",), ("a1",), pursue=True))
        if not after.unit("a1").routing:
            continue
        melee = events[0].text
        pursued = any(e.kind == "pursuit" for e in events)
        if "33rd Foot holds" in melee:
            successful += 1
            assert pursued
        else:
            unsuccessful += "melee drawn" in melee
            assert not pursued
    assert unsuccessful and successful


def test_charge_needs_the_move_to_reach() -> None:
    """Charges and melee: a unit enters melee only if its move action reaches the enemy;
    the move's spare distance decides whether evaders are caught (Evade)."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    short, events = step(state, Charge(("b1",), ("a1",), distance=8))  # density 5: 7"
    assert [e.kind for e in events] == ["charge move"] and "falls short" in events[0].text
    assert short.unit("a1") == state.unit("a1")
    _, events = step(state, Charge(("b1",), ("a1",), distance=7))
    assert [e.kind for e in events][:2] == ["charge move", "melee"]
    column = attrs.evolve(state, units=tuple(
        attrs.evolve(u, formation=Formation.COLUMN) if u.id == "b1" else u for u in state.units))
    caught = 0
    for seed in range(20):
        # a column on a road moves 12": 2" to the skirmishers leaves 10" to spare
        after, events = step(reseed(column, seed), Charge(("b1",), ("a2",), distance=2,
                                                          ground=MoveFacts(road=True)))
        evade_event = next(e for e in events if e.kind == "evade")
        distance = evade_event.rolls[0].outcome  # 2dAv + quality 3
        assert ("caught" in evade_event.text) == (distance <= 10)
        if distance <= 10:
            assert after.unit("a2").destroyed
        caught += distance <= 10
    assert 0 < caught < 20
    rough = Charge(("b1",), ("a1",), distance=1,
                   ground=MoveFacts(terrain=Terrain.HEAVY_WOODS))
    muddy, _ = step(state, rough)
    assert muddy.unit("b1").disruption >= 1
    with pytest.raises(InvalidValueError, match="distance"):
        step(state, Charge(("b1",), ("a1",), distance=-1))
    with pytest.raises(IllegalActionError, match="forward"):
        step(state, Charge(("b1",), ("a1",), ground=MoveFacts(retrograde=True)))


def test_a_unit_charges_once() -> None:
    """Charges and melee: a unit cannot be named twice in one charge."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 4),))
    with pytest.raises(IllegalActionError, match="once"):
        step(state, Charge(("b1", "b1"), ("a1",)))


def test_one_charge_one_spelling() -> None:
    """Multiple unit melee: only the first charger (whose impetus is rolled) and the first
    target (whose DRPs count) are the player's to order; the others are kept sorted, and
    legal_actions offers each group once per first unit: several chargers against one
    target, or one charger against one or more targets (B13)."""
    assert Charge(("b1", "b3", "b2"), ("a1",)) == Charge(("b1", "b2", "b3"), ("a1",))
    assert Charge(("b2", "b1"), ("a1",)) != Charge(("b1", "b2"), ("a1",))
    state = active(Card(RED, 3), (Activated("b1", "cb", 2), Activated("b2", "cb", 2)))
    groups = {(a.unit_ids, a.target_ids) for a in legal(state) if isinstance(a, Charge)}
    assert groups == {(c, t) for c in (("b1",), ("b2",), ("b1", "b2"), ("b2", "b1"))
                      for t in (("a1",), ("a2",), ("a1", "a2"), ("a2", "a1"))
                      if len(c) == 1 or len(t) == 1}


def test_a_multiple_unit_melee_is_many_against_one_or_one_against_many() -> None:
    """Multiple unit melee (B13): the text adds the chargers' sizes against "the defender"
    and counts the DPs of "the target unit"; several chargers charge one target, and one
    charger may contact several. Several against several is refused, naming the rule, and
    never offered."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2), Activated("b2", "cb", 2)))
    with pytest.raises(IllegalActionError, match="Multiple unit melee"):
        step(state, Charge(("b1", "b2"), ("a1", "a2")))
    assert Charge(("b1", "b2"), ("a1",)) in legal(state)
    assert Charge(("b1",), ("a1", "a2")) in legal(state)


def test_commanders_attached_in_the_state_count_in_a_charge() -> None:
    """Determine impetus: +1 d12 when the chargers have a commander attached; Morale:
    Modifiers: +1 to the defender's check to stand when its commander rides with it. The
    turn reads both from the state (Webster attached to b1, Stevens to a1), and refuses a
    charge that claims them itself."""
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         commanders=(webster, COMMANDERS[1]))
    for seed in range(20):
        _, events = step(reseed(state, seed),
                         Charge(("b1",), ("a1",), facts=ChargeFacts(use_cold_steel=False)))
        impetus, *rest = events[0].rolls
        # 4 base dice + 1 for Webster; need 2 x quality 4 = 8
        assert impetus.check == "5d12 at or under 8"
        if impetus.outcome > 3 and rest:
            # Continentals: quality 3 + density 6, -1 per impetus point above 3, +1 Stevens
            assert rest[0].check.startswith(f"3d12 at or under {9 - (impetus.outcome - 3) + 1}")
    with pytest.raises(InvalidValueError, match="battle state"):
        step(state, Charge(("b1",), ("a1",), facts=ChargeFacts(charger_commander_attached=True)))


def test_only_the_units_own_commander_helps_its_test() -> None:
    """Morale: Modifiers: +1 "if the unit's commander and/or the CinC is attached to the
    unit" (B43): with Webster attached to the 33rd, the 33rd's cohesion test after the melee
    gets +1 but the 64th's, charging the riflemen beside it with no commander, does not; on
    the defending side, Stevens with the riflemen helps the riflemen's tests, not the
    Continentals' (charged with them by the 33rd alone, rolling the extra impetus die of a
    commander with the chargers: a multiple unit melee is many against one or one against
    many, B13)."""
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    stevens = attrs.evolve(COMMANDERS[1], attached_to="a2")
    plain = attrs.evolve(UNITS[0], troops=Troops.OTHER)
    sixty_fourth = Unit("b4", "64th Foot", BRITISH, quality=4, density=5, size=20, brigade="1")
    riflemen = attrs.evolve(UNITS[4], density=5, based_density=5)  # they stand, not evade
    state = attrs.evolve(
        active(Card(RED, 3), (Activated("b1", "cb", 2), Activated("b4", "cb", 2))),
        units=(plain, *UNITS[1:4], riflemen, sixty_fourth),
        commanders=(webster, stevens),
    )
    tests: dict[str, set[str]] = {"33rd Foot": set(), "64th Foot": set(),
                                  "Continentals": set(), "Riflemen": set()}
    for charge in (Charge(("b1", "b4"), ("a2",)), Charge(("b1",), ("a1", "a2"))):
        for seed in range(60):
            _, events = step(reseed(state, seed), charge)
            melee = events[0]
            if len(charge.unit_ids) == 1:  # one more die with a commander with the chargers
                alone = attrs.evolve(state, commanders=(COMMANDERS[0], stevens))
                without = step(reseed(alone, seed), charge)[1][0].rolls[0].check
                assert _dice(melee.rolls[0].check) == _dice(without) + 1
            for roll in melee.rolls[1:]:
                name = roll.reason.split(" tests cohesion")[0].split(" checks to stand")[0]
                if "after the melee" in roll.reason and name in tests:
                    tests[name].add(roll.check)
    # losers subtract the difference in losses: compare the highest need each unit had
    best = {name: max(int(c.split("under ")[1].split()[0]) for c in checks)
            for name, checks in tests.items() if checks}
    assert best["33rd Foot"] == 4 + 5 + 1 and best["64th Foot"] == 4 + 5
    assert best["Riflemen"] == 3 + 5 + 1 and best["Continentals"] == 3 + 6


def _dice(check: str) -> int:
    """How many d12 a pool check rolls ("5d12 at or under 8": 5)."""
    return int(check.split("d12")[0])


def test_guns_do_not_charge_unless_the_option_allows() -> None:
    """Charges and melee (B47): limbered guns never charge; unlimbered guns charge only
    under option artillery_may_charge (off by default, the reading a referee takes), and
    step names the rule as legal_actions leaves them out."""
    state = active(Card(RED, 3), (Activated("b3", "cb", 2),))
    charge = Charge(("b3",), ("a1",))
    assert not any(isinstance(a, Charge) for a in legal(state))
    with pytest.raises(IllegalActionError) as info:
        step(state, charge)
    assert info.value.rule == "Bloodybacks 9.3, Charges and melee"
    assert "artillery_may_charge" in info.value.why
    allowed = attrs.evolve(state, options=Options(artillery_may_charge=True))
    assert charge in legal(allowed)
    after, events = step(allowed, charge)
    assert events[0].kind == "melee"
    assert after.extra.activated[0].actions == 0  # Action tariff: a charge is 2 points
    limbered = allowed.with_units(attrs.evolve(UNITS[2], formation=Formation.LIMBERED))
    assert not any(isinstance(a, Charge) for a in legal(limbered))
    with pytest.raises(IllegalActionError, match="limbered guns do not charge"):
        step(limbered, charge)


def test_a_charge_names_activated_units_and_enemies() -> None:
    """Charges and melee: chargers are units the card activated, charging enemy units on the
    table."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError, match="not been activated"):
        step(state, Charge(("b2",), ("a1",)))
    with pytest.raises(IllegalActionError, match="enemy"):
        step(state, Charge(("b1",), ("b2",)))
    gone = state.with_units(attrs.evolve(UNITS[3], destroyed=True))
    with pytest.raises(IllegalActionError, match="enemy units on the table"):
        step(gone, Charge(("b1",), ("a1",)))


def test_risks_to_several_commanders_compose_like_their_walk() -> None:
    """Risk to commanders after a melee, one commander at a time (B31): composed (each roll
    one chance node), the commanders hit have the distribution of the walk of every branch
    of the same stages; each is struck on his own roll."""
    from smoothbore.bloodybacks93.steps_charges import risk_to_commanders
    from smoothbore.bloodybacks93.units import AMERICAN, Commander
    from smoothbore.core import odds

    first = Commander("k", "Colonel", BRITISH, constitution=4, attached_to="u")
    second = Commander("j", "Major", AMERICAN, constitution=9, attached_to="v")
    at_risk = ((first, 3, "Grenadiers"), (second, 1, "Militia"))
    composed = odds(risk_to_commanders, at_risk, None)
    assert composed == odds(risk_to_commanders.play, at_risk, None)
    assert composed.probability(()) == Fraction(9, 12) * Fraction(11, 12)
    assert composed.probability(lambda hit: len(hit) == 2) == Fraction(3, 12) * Fraction(1, 12)
    assert all(c.removed == (c.constitution < 1) for hit in composed.outcomes for c in hit)


def test_the_closing_rule_of_a_charge_step_equals_its_walk() -> None:
    """The end of a charge step (melee, moves, pursuit, risks to both commanders) composed
    into states equals the walk of every branch of the same stages."""
    from smoothbore.bloodybacks93.steps_charges import fight_and_risks
    from smoothbore.core import odds

    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         commanders=(webster, COMMANDERS[1]))
    chargers, defenders = (state.unit("b1"),), (state.unit("a1"),)
    args = (state, chargers, defenders, ChargeFacts(), True, ((webster,), (COMMANDERS[1],)),
            None)
    composed = odds(fight_and_risks, *args)
    assert composed == odds(fight_and_risks.play, *args, max_branches=10**6)
    assert any(s.commanders != state.commanders for s in composed.outcomes)
