"""Bloodybacks 9.3, Activating Units; Morale; Movement; Shooting; Rally; Command point tariff:
the steps of an activated unit and its commander (steps_units.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.actions import (
    Activate,
    Charge,
    EndActivation,
    EndTurn,
    Manoeuvre,
    Move,
    Rally,
    RoutTest,
    Shoot,
    SpendCommandPoint,
)
from smoothbore.bloodybacks93.activation import ActionKind
from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.bloodybacks93.deck import RED, Card
from smoothbore.bloodybacks93.movement import MoveFacts
from smoothbore.bloodybacks93.phases import DEFERRED
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.state import Activated, ActivityEntry
from smoothbore.bloodybacks93.units import Formation
from smoothbore.core import IllegalActionError, InvalidValueError

from .turn_setup import COMMANDERS, UNITS, active, legal, reseed, step


def test_activation_rules_in_the_turn() -> None:
    """Activating Units: one attempt per unit per turn; only commanders the card activated."""
    state = active(Card(RED, 3))
    after, events = step(state, Activate("b1", "cb"))
    assert "b1" in after.extra.attempted
    assert events[0].rule.endswith("Activating Units")
    with pytest.raises(IllegalActionError, match="already tried"):
        step(after, Activate("b1", "cb"))
    with pytest.raises(IllegalActionError) as info:
        step(state, Activate("a1", "ca"))
    assert "Activating Commanders" in info.value.rule


def test_action_tariff_is_enforced() -> None:
    """Action tariff: a charge costs 2, a unit shoots once a turn."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 1),))
    with pytest.raises(IllegalActionError) as info:
        step(state, Charge(("b1",), ("a1",)))
    assert "Action tariff" in info.value.rule
    shot, events = step(state, Shoot("b1", "a1", ShotFacts(range=5)))
    assert events[0].kind == "shooting"
    more = attrs.evolve(shot, extra=attrs.evolve(
        shot.extra, activated=(Activated("b1", "cb", 2, shot=True),)))
    with pytest.raises(IllegalActionError, match="already shot"):
        step(more, Shoot("b1", "a1", ShotFacts(range=5)))


def test_leaderless_units_on_the_ace() -> None:
    """Activating Units: a unit whose commander is killed activates on its side's ace,
    without his quality; a removed commander activates nobody."""
    dead = attrs.evolve(COMMANDERS[0], removed=True)
    state = attrs.evolve(active(Card(RED, 1)), commanders=(dead, COMMANDERS[1]))
    assert Activate("b1", None) in legal(state)
    _, events = step(state, Activate("b1", None))
    assert "need 4" in events[0].text
    with pytest.raises(IllegalActionError):
        step(state, Activate("b1", "cb"))
    ace_two = attrs.evolve(state, extra=attrs.evolve(state.extra, card=Card(RED, 2)))
    with pytest.raises(IllegalActionError, match="ace"):
        step(ace_two, Activate("b1", None))


def test_commander_removed_during_his_card() -> None:
    """Risk to commanders: a commander removed while his card is in play activates nobody
    more and spends no more command points (found by random play)."""
    state = active(Card(RED, 3))
    gone = attrs.evolve(state, commanders=(attrs.evolve(COMMANDERS[0], removed=True),
                                           COMMANDERS[1]))
    offered = legal(gone)
    assert not any(isinstance(a, Activate | SpendCommandPoint) for a in offered)
    with pytest.raises(IllegalActionError, match="removed"):
        step(gone, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER))


def test_long_turn_gives_an_extra_action() -> None:
    """Activating Units: in 25- and 30-minute turns activating units gain an action."""
    state = active(Card(RED, 3), minutes=30)
    activated = 0
    for seed in range(20):
        after, _ = step(reseed(state, seed), Activate("b1", "cb"))
        entry = [e for e in after.extra.activated if e.unit_id == "b1"]
        if entry:
            activated += 1
            assert entry[0].actions >= 2
    assert activated


def test_rally_move_manoeuvre_and_command_points() -> None:
    """Rally; Movement; Action tariff; Command point tariff."""
    state = active(Card(RED, 3), (Activated("b2", "cb", 3), Activated("b3", "cb", 1)))
    state, _ = step(state, Rally("b2"))
    assert state.unit("b2").disruption == 0
    with pytest.raises(IllegalActionError):
        step(state, Rally("b2"))
    state, events = step(state, Move("b2"))
    assert '4"' in events[0].text
    state, _ = step(state, Manoeuvre("b3", ActionKind.LIMBER))
    assert state.unit("b3").formation is Formation.LIMBERED
    state, _ = step(state, SpendCommandPoint("cb", CommandPointUse.EXTRA_ACTION, "b3"))
    assert [e.actions for e in state.extra.activated if e.unit_id == "b3"] == [1]
    with pytest.raises(InvalidValueError, match="to="):  # no table: no point to ride to
        step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER, to=(1.0, 2.0)))
    state, _ = step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER,
                                             attach_to="b1"))
    assert state.commander("cb").attached_to == "b1"
    with pytest.raises(IllegalActionError, match="no command points"):
        step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER))


def test_moving_through_friends() -> None:
    """Interpenetration; Passage of lines: moving through a friendly unit."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 3), Activated("b3", "cb", 1)))
    _, events = step(state, Move("b3", through="b1"))
    assert [e.kind for e in events] == ["move"] and "through 33rd Foot" in events[0].text
    _after, events = step(state, Move("b1", through="b2"))
    assert [e.kind for e in events] == ["move", "passage"]
    assert "Passage of lines" in events[1].rule
    with pytest.raises(IllegalActionError):
        step(state, Move("b1", through="a1"))
    weak = attrs.evolve(state, units=tuple(
        attrs.evolve(u, quality=2) if u.id == "b2" else u for u in state.units))
    with pytest.raises(IllegalActionError) as info:
        step(weak, Move("b1", through="b2"))
    assert "Passage of lines" in info.value.rule


def test_formed_infantry_through_guns_makes_the_passage_roll() -> None:
    """Passage of lines: infantry of density 5+ moving through unlimbered artillery rolls
    the d12 of the passage of lines, not the free interpenetration (B25): the 33rd (quality
    4) through the guns (quality 3) is disordered on 2..6 (below 4 + 3) and takes 1 DRP (its
    density 5; the crews do not count); the guns take 1 too."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 3),))
    assert Move("b1", through="b3") in legal(state)
    seen = set()
    for seed in range(40):
        after, events = step(reseed(state, seed), Move("b1", through="b3"))
        assert [e.kind for e in events][:2] == ["move", "passage"]
        (roll,) = events[1].rolls
        assert roll.reason == "passage of lines"
        disordered = 2 <= roll.outcome <= 6
        assert after.unit("b1").disruption == int(disordered)
        assert after.unit("b3").disruption == int(disordered)
        seen.add(disordered)
    assert seen == {True, False}
    weak = attrs.evolve(state, units=tuple(
        attrs.evolve(u, quality=2) if u.id == "b1" else u for u in state.units))
    with pytest.raises(IllegalActionError) as info:
        step(weak, Move("b1", through="b3"))
    assert info.value.rule.endswith("Passage of lines")


def test_split_fire_in_one_action() -> None:
    """Shooting: split fire: one shooting, two targets, sizes divided."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 1),))
    action = Shoot("b1", "a1", ShotFacts(range=5, size=12), "a2", ShotFacts(range=6, size=8))
    _after, events = step(state, action)
    assert [e.kind for e in events if e.kind == "shooting"] == ["shooting", "shooting"]
    too_many = Shoot("b1", "a1", ShotFacts(range=5, size=12), "a2", ShotFacts(range=6, size=9))
    with pytest.raises(IllegalActionError) as info:
        step(state, too_many)
    assert "split fire" in info.value.rule


def test_shooting_out_of_range_is_refused_before_rolling() -> None:
    """Shooting: Musketry: a musket reaches 16"; the refusal names the rule."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError) as info:
        step(state, Shoot("b1", "a1", ShotFacts(range=20)))
    assert info.value.rule.endswith("Shooting")


def test_command_points_need_radius() -> None:
    """Command Radius: beyond it command points cannot be used on units."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 1),))
    with pytest.raises(IllegalActionError) as info:
        step(state, SpendCommandPoint("cb", CommandPointUse.EXTRA_ACTION, "b1",
                                      outside_radius=True))
    assert "Command Radius" in info.value.rule
    moved, _ = step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER,
                                             outside_radius=True))
    assert moved.commander("cb").attached_to is None


def test_other_brigade_costs_a_command_point() -> None:
    """Command point tariff: activating a unit not of the commander's brigade costs a CP and
    its need is one less (Activating Units)."""
    units = (*UNITS[:3], attrs.evolve(UNITS[0], id="b4", brigade="2"), *UNITS[3:])
    state = attrs.evolve(active(Card(RED, 3)), units=units)
    after, events = step(state, Activate("b4", "cb"))
    entry = next(a for a in after.extra.activity if a.commander_id == "cb")
    assert entry.command_points == 1
    assert "need 7" in events[0].text
    with pytest.raises(IllegalActionError):
        step(state, Activate("b4", "cb", outside_radius=True))


def test_routing_units_test_instead_and_recover() -> None:
    """Morale: routing units take a morale test instead of activating; a unit that stops
    routing cannot act that turn; the record clears at the next turn."""
    routing = attrs.evolve(UNITS[0], routing=True, disruption=3)
    state = attrs.evolve(active(Card(RED, 3)), units=(routing, *UNITS[1:]))
    assert RoutTest("b1", "cb") in legal(state)
    assert Activate("b1", "cb") not in legal(state)
    with pytest.raises(IllegalActionError) as info:
        step(state, Activate("b1", "cb"))
    assert "routing" in info.value.rule
    outcomes = set()
    for seed in range(40):
        after, events = step(reseed(state, seed), RoutTest("b1", "cb"))
        unit = after.unit("b1")
        recovered = "b1" in after.extra.recovered
        outcomes.add((unit.routing, recovered, unit.destroyed))
        if recovered:
            assert not unit.routing
            with pytest.raises(IllegalActionError, match="recovered from rout"):
                step(attrs.evolve(after, extra=attrs.evolve(after.extra, attempted=frozenset())),
                     Activate("b1", "cb"))
            ended, _ = step(attrs.evolve(after, phase=DEFERRED), EndTurn())
            assert "b1" not in ended.extra.recovered
        if unit.routing:
            assert events[1].kind == "retire" and "routs" in events[1].text
        elif "pushed back" in events[0].text:
            # Morale: results table: 2 successes push the unit back (2dAv")
            assert events[1].kind == "retire" and "pushed back" in events[1].text
        else:
            assert len(events) == 1
    assert (False, True, False) in outcomes and (True, False, False) in outcomes


def test_a_unit_routed_this_turn_retests_in_later_turns() -> None:
    """Morale: units who rout take a further morale test "in subsequent turns": a unit routed
    during this turn (here by a failed hand) is not offered a rout test later in the same
    turn, even under another commander, and step refuses it; the next turn it is due."""
    units = (*UNITS, attrs.evolve(UNITS[0], id="b4", brigade="2"))
    state = attrs.evolve(active(Card(RED, 3)), units=units)
    routed_this_turn = attrs.evolve(
        state,
        units=(*UNITS, attrs.evolve(UNITS[0], id="b4", brigade="2", routing=True,
                                    disruption=3)),
        extra=attrs.evolve(state.extra, routed=frozenset({"b4"})),
    )
    assert not any(isinstance(a, RoutTest) for a in legal(routed_this_turn))
    with pytest.raises(IllegalActionError, match="subsequent turns") as info:
        step(routed_this_turn, RoutTest("b4", "cb"))
    assert info.value.rule.endswith("routing units re-test")
    later = attrs.evolve(routed_this_turn, extra=attrs.evolve(routed_this_turn.extra,
                                                              routed=frozenset()))
    assert RoutTest("b4", "cb") in legal(later)
    # a unit that routs in the turn is recorded by the step that routs it
    routs = 0
    for seed in range(200):
        charged = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)))
        after, _ = step(reseed(charged, seed), Charge(("b1",), ("a1",)))
        if after.unit("a1").routing:
            routs += 1
            assert "a1" in after.extra.routed
    assert routs


def test_routing_units_must_take_their_test() -> None:
    """Morale: routing units "must take a further morale test instead of an activation
    roll": the card is not finished while its commander leaves a routing unit of his brigade
    untested (B28)."""
    routing = attrs.evolve(UNITS[0], routing=True, disruption=3)
    state = attrs.evolve(active(Card(RED, 3)), units=(routing, *UNITS[1:]))
    assert EndActivation() not in legal(state)
    with pytest.raises(IllegalActionError, match="must take their morale test"):
        step(state, EndActivation())
    tested, _ = step(state, RoutTest("b1", "cb"))
    assert EndActivation() in legal(tested)


def test_change_formation_and_about_face() -> None:
    """Action tariff: change formation and about face cost one action each."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    assert Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN) in legal(state)
    state, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN))
    assert state.unit("b1").formation is Formation.COLUMN
    state, _ = step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))
    with pytest.raises(IllegalActionError):
        step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))


def test_change_density_by_separating_bases() -> None:
    """Concepts and definitions: Density: a unit may separate its bases to lower its density
    (a change of formation, one action), never below 3, and close them up again no higher
    than the density it is based at (B42)."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    spread, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=3))
    assert spread.unit("b1").density == 3
    assert spread.extra.activated[0].actions == 1
    with pytest.raises(InvalidValueError):
        step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=2))
    offered = {a.density for a in legal(spread) if isinstance(a, Manoeuvre) and a.density}
    assert offered == {4, 5}  # the 33rd is based at density 5
    closed, _ = step(spread, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=5))
    assert closed.unit("b1").density == 5
    with pytest.raises(IllegalActionError, match="based at density 5") as info:
        step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=6))
    assert info.value.rule.endswith("Density")


def test_retrograde_at_three_drp_takes_the_result_moves() -> None:
    """Retrograde movement: at 3 DRPs a morale test instead of the DRP; Morale: a rout or a
    push back result moves the unit (rout 6"+dAv, push back 2dAv")."""
    worn = attrs.evolve(UNITS[0], disruption=3)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(worn, *UNITS[1:]))
    seen = set()
    for seed in range(60):
        after, events = step(reseed(state, seed), Move("b1", MoveFacts(retrograde=True)))
        text = events[0].text
        assert "moves back" in text
        result = text.rsplit(", ", 1)[-1]
        seen.add(result)
        assert after.unit("b1").routing == (result == "rout")
        if result in ("rout", "pushed back"):
            assert events[1].kind == "retire"
            low, high = (8, 11) if result == "rout" else (4, 10)
            assert low <= events[1].rolls[0].outcome <= high
        else:
            assert len(events) == 1
    assert {"rout", "pushed back", "carry on"} <= seen


def test_passage_of_lines_test_counts_the_attached_commander() -> None:
    """Passage of lines: at 3 DRPs a morale test instead of the DRPs; Morale: Modifiers: +1
    when the unit's commander is attached. The 33rd (quality 4) with Webster through the
    Hessians (quality 4): a d12 of 2..7 disorders (under 4 + 4); the 33rd then needs
    2 x 4 + 1 = 9, and the Hessians (1 DRP) take 1 DRP (lowest density 5), to 2."""
    worn = attrs.evolve(UNITS[0], disruption=3)
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(worn, *UNITS[1:]), commanders=(webster, COMMANDERS[1]))
    tested = 0
    for seed in range(40):
        after, events = step(reseed(state, seed), Move("b1", through="b2"))
        passage = next(e for e in events if e.kind == "passage")
        roll, *tests = passage.rolls
        assert (2 <= roll.outcome <= 7) == bool(tests)
        if tests:
            tested += 1
            assert tests[0].check.startswith("3d12 at or under 9")
            assert after.unit("b2").disruption == 2
    assert tested > 0


def test_routing_unit_under_another_brigade_costs_a_command_point() -> None:
    """Command point tariff: activating a unit not of the commander's own brigade costs a
    command point, used within the radius; a routing unit's morale test takes the place of
    its activation roll (Morale), so it costs the same. Its own brigade's commander pays
    nothing."""
    stray = attrs.evolve(UNITS[0], id="b4", brigade="2", routing=True, disruption=3)
    state = attrs.evolve(active(Card(RED, 3)), units=(*UNITS, stray))
    assert RoutTest("b4", "cb") in legal(state)
    after, events = step(state, RoutTest("b4", "cb"))
    entry = next(a for a in after.extra.activity if a.commander_id == "cb")
    assert entry.command_points == 1 and "b4" in after.extra.attempted
    assert events[0].kind == "rout"
    with pytest.raises(IllegalActionError) as info:
        step(state, RoutTest("b4", "cb", outside_radius=True))
    assert info.value.rule.endswith("Command point tariff")
    broke = attrs.evolve(state, extra=attrs.evolve(
        state.extra, activity=(ActivityEntry("cb", 3, 0), ActivityEntry("ca", 2, 1))))
    assert RoutTest("b4", "cb") not in legal(broke)
    with pytest.raises(IllegalActionError, match="command point"):
        step(broke, RoutTest("b4", "cb"))
    own = attrs.evolve(state, units=(attrs.evolve(UNITS[0], routing=True, disruption=3),
                                     *UNITS[1:]))
    kept, _ = step(own, RoutTest("b1", "cb"))
    assert next(a for a in kept.extra.activity if a.commander_id == "cb").command_points == 2


def test_a_unit_gone_in_its_own_charge_takes_no_further_action() -> None:
    """Activating Units; Morale: a unit destroyed or routed in the charge it made has no
    actions left to spend: step refuses its shooting, charging, rallying, moving,
    manoeuvring and the command point that would give it an extra action, exactly as
    legal_actions leaves them out (found by random play)."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 6),))
    gone = 0
    for seed in range(300):
        after, _ = step(reseed(state, seed), Charge(("b1",), ("a1",)))
        unit = after.unit("b1")
        if not unit.gone:
            continue
        gone += 1
        assert next(e for e in after.extra.activated if e.unit_id == "b1").actions == 4
        for action in (
            Shoot("b1", "a2", ShotFacts(range=4)),
            Charge(("b1",), ("a2",)),
            Move("b1"),
            Manoeuvre("b1", ActionKind.ABOUT_FACE),
            SpendCommandPoint("cb", CommandPointUse.EXTRA_ACTION, "b1"),
        ):
            assert action not in legal(after)
            with pytest.raises(IllegalActionError) as info:
                step(after, action)
            assert info.value.rule.startswith("Bloodybacks 9.3")
        if unit.disruption and not unit.destroyed:
            with pytest.raises(IllegalActionError, match="routing"):
                step(after, Rally("b1"))
        assert not any(getattr(a, "unit_id", None) == "b1" for a in legal(after))
    assert gone
