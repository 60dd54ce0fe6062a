"""Bloodybacks 9.3, Activating Units; Movement; Shooting; Rally; Command point tariff: the steps
of an activated unit and its commander (unit_steps.py)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.bloodybacks93.activation import ActionKind
from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.bloodybacks93.movement import MoveFacts
from smoothbore.bloodybacks93.sequence import RED, Card
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.turn import (
    DEFERRED,
    Activate,
    Activated,
    ActivityEntry,
    EndTurn,
    Manoeuvre,
    Move,
    Rally,
    RoutTest,
    Shoot,
    SpendCommandPoint,
    legal_actions,
    step,
)
from smoothbore.bloodybacks93.units import (
    Formation,
)
from smoothbore.core import IllegalActionError, InvalidValueError

from .turn_setup import COMMANDERS, UNITS, active


def test_long_turn_gives_an_extra_action() -> None:
    """Activating Units: in 25- and 30-minute turns activating units gain an action."""
    state = active(Card(RED, 3), minutes=30)
    for seed in range(20):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, _ = step(trial, Activate("b1", "cb"))
        entry = [e for e in after.extra.activated if e.unit_id == "b1"]
        if entry:
            assert entry[0].actions >= 2


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
    state, _ = step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER,
                                             attach_to="b1"))
    assert state.commander("cb").attached_to == "b1"
    with pytest.raises(IllegalActionError, match="no command points"):
        step(state, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER))


def test_moving_through_friends() -> None:
    """Interpenetration; Passage of lines: moving through a friendly unit."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 3),))
    _, events = step(state, Move("b1", through="b3"))
    assert [e.kind for e in events] == ["move"]
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
    routing cannot act that turn; the flag clears at the next turn."""
    routing = attrs.evolve(UNITS[0], routing=True, disruption=3)
    state = attrs.evolve(active(Card(RED, 3)), units=(routing, *UNITS[1:]))
    assert RoutTest("b1", "cb") in legal_actions(state)
    assert Activate("b1", "cb") not in legal_actions(state)
    with pytest.raises(IllegalActionError) as info:
        step(state, Activate("b1", "cb"))
    assert "routing" in info.value.rule
    outcomes = set()
    for seed in range(40):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, events = step(trial, RoutTest("b1", "cb"))
        unit = after.unit("b1")
        outcomes.add((unit.routing, unit.recovered_from_rout, unit.destroyed))
        if unit.recovered_from_rout:
            ended = attrs.evolve(after, phase=DEFERRED)
            ended, _ = step(ended, EndTurn())
            assert not ended.unit("b1").recovered_from_rout
        if unit.routing:
            assert events[1].kind == "retire" and "routs" in events[1].text
        elif "pushed back" in events[0].text:
            # Morale: results table: 2 successes push the unit back (2dAv")
            assert events[1].kind == "retire" and "pushed back" in events[1].text
        else:
            assert len(events) == 1
    assert (False, True, False) in outcomes and (True, False, False) in outcomes


def test_change_formation_and_about_face() -> None:
    """Action tariff: change formation and about face cost one action each."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    assert Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN) in legal_actions(state)
    state, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN))
    assert state.unit("b1").formation is Formation.COLUMN
    state, _ = step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))
    with pytest.raises(IllegalActionError):
        step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))


def test_change_density_by_separating_bases() -> None:
    """Concepts and definitions: Density: a unit may separate its bases to lower its density
    (a change of formation, one action), never below 3."""
    state = active(Card(RED, 3), (Activated("b1", "cb", 2),))
    spread, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=3))
    assert spread.unit("b1").density == 3
    assert spread.extra.activated[0].actions == 1
    with pytest.raises(InvalidValueError):
        step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=2))


def test_retrograde_at_three_drp_takes_the_result_moves() -> None:
    """Retrograde movement: at 3 DRPs a morale test instead of the DRP; Morale: a rout or a
    push back result moves the unit (rout 6"+dAv, push back 2dAv")."""
    worn = attrs.evolve(UNITS[0], disruption=3)
    state = attrs.evolve(active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(worn, *UNITS[1:]))
    seen = set()
    for seed in range(60):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, events = step(trial, Move("b1", MoveFacts(retrograde=True)))
        text = events[0].text
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
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, events = step(trial, Move("b1", through="b2"))
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
    assert RoutTest("b4", "cb") in legal_actions(state)
    after, events = step(state, RoutTest("b4", "cb"))
    entry = next(a for a in after.extra.activity if a.commander_id == "cb")
    assert entry.command_points == 1 and "b4" in after.extra.attempted
    assert events[0].kind == "rout"
    with pytest.raises(IllegalActionError) as info:
        step(state, RoutTest("b4", "cb", outside_radius=True))
    assert info.value.rule.endswith("Command point tariff")
    broke = attrs.evolve(state, extra=attrs.evolve(
        state.extra, activity=(ActivityEntry("cb", 3, 0), ActivityEntry("ca", 2, 1))))
    assert RoutTest("b4", "cb") not in legal_actions(broke)
    with pytest.raises(IllegalActionError, match="command point"):
        step(broke, RoutTest("b4", "cb"))
    own = attrs.evolve(state, units=(attrs.evolve(UNITS[0], routing=True, disruption=3),
                                     *UNITS[1:]))
    kept, _ = step(own, RoutTest("b1", "cb"))
    assert next(a for a in kept.extra.activity if a.commander_id == "cb").command_points == 2
