"""Bloodybacks 9.3, Sequence of Play: the turn as phases and a pure step."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.bloodybacks93 import RULESET, TURN
from smoothbore.bloodybacks93.activation import ActionKind
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.bloodybacks93.movement import MoveFacts, Terrain
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.sequence import RED, Card
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.turn import (
    ACTIVATION,
    ACTIVITY,
    DEFERRED,
    DRAW,
    ENDED,
    Activate,
    Activated,
    ActivityEntry,
    Charge,
    DetermineActivity,
    DrawCard,
    EndActivation,
    EndBattle,
    EndTurn,
    Extra,
    Manoeuvre,
    Move,
    Rally,
    ResolveDeferred,
    RoutTest,
    Shoot,
    SpendCommandPoint,
    State,
    legal_actions,
    new_battle,
    step,
)
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Commander,
    Formation,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import BattleState, IllegalActionError, InvalidValueError

UNITS = (
    Unit("b1", "33rd Foot", BRITISH, quality=4, density=5, size=20, brigade="1"),
    Unit("b2", "Hessians", BRITISH, quality=4, density=8, size=18, brigade="1",
         disruption=1),
    Unit("b3", "Royal Artillery", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
         brigade="1", formation=Formation.UNLIMBERED, weapon=Weapon.CANNON),
    Unit("a1", "Continentals", AMERICAN, quality=3, density=6, size=20, brigade="x"),
    Unit("a2", "Riflemen", AMERICAN, quality=3, density=3, size=10, brigade="x",
         weapon=Weapon.RIFLE),
)
COMMANDERS = (
    Commander("cb", "Colonel Webster", BRITISH, command_quality=4, activity_rating=4,
              brigade="1"),
    Commander("ca", "Colonel Stevens", AMERICAN, command_quality=3, activity_rating=2,
              brigade="x", attached_to="a1"),
)


def _battle(seed: int = 1) -> State:
    return new_battle(UNITS, COMMANDERS, seed=seed)


def _choose(actions: tuple[object, ...]) -> object:
    order = (Activate, Shoot, Charge, Rally, Move, Manoeuvre, SpendCommandPoint, DetermineActivity,
             DrawCard, ResolveDeferred, EndTurn, EndActivation, EndBattle)
    return min(actions, key=lambda a: order.index(type(a)))


def test_phases_are_data() -> None:
    """Sequence of Play: the turn's phases, in order, each naming its rule."""
    assert [p.name for p in TURN.phases] == [ACTIVITY, DRAW, ACTIVATION, DEFERRED, ENDED]
    assert all(p.rule.startswith("Bloodybacks 9.3") for p in TURN.phases)
    assert RULESET.turn is TURN


def test_whole_turn_from_legal_actions() -> None:
    """Sequence of Play: a whole turn plays through from legal_actions: activity, ten cards,
    deferred melees, next turn."""
    state = _battle()
    kinds: set[str] = set()
    cards = 0
    for _ in range(500):
        action = _choose(TURN.legal_actions(state))
        state, events = TURN.step(state, action)  # type: ignore[arg-type]
        kinds.update(e.kind for e in events)
        cards += isinstance(action, DrawCard)
        if state.turn == 2:
            break
    assert state.turn == 2 and state.phase == ACTIVITY
    assert cards == 10
    assert {"activity", "card", "turn"} <= kinds
    assert "activation" in kinds


def test_same_state_same_action_same_result() -> None:
    """Sequence of Play: step is pure and replayable."""
    state = _battle(7)
    state, _ = step(state, DetermineActivity())
    first = step(state, DrawCard())
    second = step(state, DrawCard())
    assert first == second
    assert state == step(_battle(7), DetermineActivity())[0]


def test_step_never_mutates() -> None:
    """Sequence of Play: the given state is unchanged after a step."""
    state = _battle()
    copy = attrs.evolve(state)
    step(state, DetermineActivity())
    assert state == copy


def test_wrong_phase_is_illegal() -> None:
    """Sequence of Play: actions out of sequence raise an error naming the rule."""
    with pytest.raises(IllegalActionError) as info:
        step(_battle(), DrawCard())
    assert "Sequence of Play" in info.value.rule
    with pytest.raises(IllegalActionError):
        step(_battle(), EndTurn())


def _active(card: Card, activated: tuple[Activated, ...] = (), minutes: int = 20) -> State:
    extra = Extra(
        deck=(), card=card, minutes=minutes,
        activity=(ActivityEntry("cb", card.value, 2), ActivityEntry("ca", 2, 1)),
        active=("cb",), activated=activated,
    )
    return attrs.evolve(_battle(), extra=extra, phase=ACTIVATION)


def test_activation_rules_in_the_turn() -> None:
    """Activating Units: one attempt per unit per turn; only commanders the card activated."""
    state = _active(Card(RED, 3))
    after, events = step(state, Activate("b1", "cb"))
    assert "b1" in after.extra.attempted
    assert events[0].rule.endswith("Activating Units")
    with pytest.raises(IllegalActionError, match="already tried"):
        step(after, Activate("b1", "cb"))
    with pytest.raises(IllegalActionError) as info:
        step(state, Activate("a1", "ca"))
    assert "Activating Commanders" in info.value.rule


def test_long_turn_gives_an_extra_action() -> None:
    """Activating Units: in 25- and 30-minute turns activating units gain an action."""
    state = _active(Card(RED, 3), minutes=30)
    for seed in range(20):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, _ = step(trial, Activate("b1", "cb"))
        entry = [e for e in after.extra.activated if e.unit_id == "b1"]
        if entry:
            assert entry[0].actions >= 2


def test_action_tariff_is_enforced() -> None:
    """Action tariff: a charge costs 2, a unit shoots once a turn."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 1),))
    with pytest.raises(IllegalActionError) as info:
        step(state, Charge(("b1",), ("a1",)))
    assert "Action tariff" in info.value.rule
    shot, events = step(state, Shoot("b1", "a1", ShotFacts(range=5)))
    assert events[0].kind == "shooting"
    more = attrs.evolve(shot, extra=attrs.evolve(
        shot.extra, activated=(Activated("b1", "cb", 2, shot=True),)))
    with pytest.raises(IllegalActionError, match="already shot"):
        step(more, Shoot("b1", "a1", ShotFacts(range=5)))


def test_rally_move_manoeuvre_and_command_points() -> None:
    """Rally; Movement; Action tariff; Command point tariff."""
    state = _active(Card(RED, 3), (Activated("b2", "cb", 3), Activated("b3", "cb", 1)))
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


def test_charge_and_deferred_melee() -> None:
    """Charges and melee; Sequence of Play: deferred melees are resolved at the end."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    deferred, events = step(state, Charge(("b1",), ("a1",), defer=True))
    assert deferred.extra.deferred and events[-1].kind == "charge"
    ended, _ = step(deferred, EndActivation())
    assert ended.phase == DEFERRED
    with pytest.raises(IllegalActionError, match="deferred"):
        step(ended, EndTurn())
    resolved, events = step(ended, ResolveDeferred())
    assert events[0].kind == "melee" and not resolved.extra.deferred
    for seed in range(10):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
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


def test_skirmishers_must_evade() -> None:
    """Evade: density 3 infantry charged in the open by density 5+ infantry must evade."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    with pytest.raises(IllegalActionError, match="must evade"):
        step(state, Charge(("b1",), ("a2",), evade=False))
    after, events = step(state, Charge(("b1",), ("a2",)))
    assert events[0].kind == "evade"
    assert after.unit("a2").disruption >= 1 or after.unit("a2").destroyed


def test_state_round_trips_through_json() -> None:
    """Sequence of Play: a battle state serialises and reads back equal."""
    state, _ = step(_battle(), DetermineActivity())
    state, _ = step(state, DrawCard())
    text = state.to_json()
    back = BattleState.from_json(text, Unit, Commander, Extra)
    assert back == state
    assert legal_actions(back) == legal_actions(state)
    assert DRAW == "draw"


def test_moving_through_friends() -> None:
    """Interpenetration; Passage of lines: moving through a friendly unit."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 3),))
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
    state = _active(Card(RED, 3), (Activated("b1", "cb", 1),))
    action = Shoot("b1", "a1", ShotFacts(range=5, size=12), "a2", ShotFacts(range=6, size=8))
    _after, events = step(state, action)
    assert [e.kind for e in events if e.kind == "shooting"] == ["shooting", "shooting"]
    too_many = Shoot("b1", "a1", ShotFacts(range=5, size=12), "a2", ShotFacts(range=6, size=9))
    with pytest.raises(IllegalActionError) as info:
        step(state, too_many)
    assert "split fire" in info.value.rule


def test_command_points_need_radius() -> None:
    """Command Radius: beyond it command points cannot be used on units."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 1),))
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
    state = attrs.evolve(_active(Card(RED, 3)), units=units)
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
    state = attrs.evolve(_active(Card(RED, 3)), units=(routing, *UNITS[1:]))
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


def test_leaderless_units_on_the_ace() -> None:
    """Activating Units: a unit whose commander is killed activates on its side's ace,
    without his quality; a removed commander activates nobody."""
    dead = attrs.evolve(COMMANDERS[0], removed=True)
    state = attrs.evolve(_active(Card(RED, 1)), commanders=(dead, COMMANDERS[1]))
    assert Activate("b1", None) in legal_actions(state)
    _, events = step(state, Activate("b1", None))
    assert "need 4" in events[0].text
    with pytest.raises(IllegalActionError):
        step(state, Activate("b1", "cb"))
    ace_two = attrs.evolve(state, extra=attrs.evolve(state.extra, card=Card(RED, 2)))
    with pytest.raises(IllegalActionError, match="ace"):
        step(ace_two, Activate("b1", None))


def test_change_formation_and_about_face() -> None:
    """Action tariff: change formation and about face cost one action each."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    assert Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN) in legal_actions(state)
    state, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, Formation.COLUMN))
    assert state.unit("b1").formation is Formation.COLUMN
    state, _ = step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))
    with pytest.raises(IllegalActionError):
        step(state, Manoeuvre("b1", ActionKind.ABOUT_FACE))


def test_pursuit_follows_a_rout() -> None:
    """Charges and melee: Pursuit: routed defenders can be pursued by the winners."""
    weak = attrs.evolve(UNITS[3], quality=1, disruption=3)
    state = attrs.evolve(_active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         units=(*UNITS[:3], weak, UNITS[4]))
    pursued = 0
    for seed in range(30):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        after, events = step(trial, Charge(("b1",), ("a1",), pursue=True))
        kinds = [e.kind for e in events]
        if after.unit("a1").routing:
            assert "pursuit" in kinds
            pursued += 1
        else:
            assert "pursuit" not in kinds
    assert pursued > 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_play_from_legal_actions(seed: int) -> None:
    """Sequence of Play: any choice among legal_actions is legal; two whole turns play out,
    and units keep their limits."""
    chooser = random.Random(seed)
    state = _battle(seed)
    for _ in range(600):
        actions = legal_actions(state)
        assert actions
        state, _ = step(state, chooser.choice(actions))
        if state.turn == 3 or state.phase == ENDED:
            break
    assert state.turn == 3 or state.phase == ENDED
    assert all(0 <= u.disruption <= 3 and 3 <= u.density <= 8 for u in state.units)


def test_end_of_battle_fates() -> None:
    """Risk to commanders: at the end of the battle removed commanders roll on the fate
    table."""
    gone = attrs.evolve(COMMANDERS[0], removed=True, constitution=-1)
    state = attrs.evolve(_battle(), commanders=(gone, COMMANDERS[1]), phase=DEFERRED)
    assert EndBattle() in legal_actions(state)
    ended, events = step(state, EndBattle())
    assert ended.phase == ENDED and legal_actions(ended) == ()
    fates = [e for e in events if e.kind == "fate"]
    assert len(fates) == 1 and fates[0].subject == "cb"
    assert "end of battle" in fates[0].rule
    with pytest.raises(IllegalActionError):
        step(ended, EndTurn())


def test_charge_needs_the_move_to_reach() -> None:
    """Charges and melee: a unit enters melee only if its move action reaches the enemy;
    the move's spare distance decides whether evaders are caught (Evade)."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    short, events = step(state, Charge(("b1",), ("a1",), distance=8))  # density 5: 7"
    assert [e.kind for e in events] == ["charge move"] and "falls short" in events[0].text
    assert short.unit("a1") == state.unit("a1")
    _, events = step(state, Charge(("b1",), ("a1",), distance=7))
    assert [e.kind for e in events][:2] == ["charge move", "melee"]
    column = attrs.evolve(state, units=tuple(
        attrs.evolve(u, formation=Formation.COLUMN) if u.id == "b1" else u for u in state.units))
    caught = 0
    for seed in range(20):
        trial = attrs.evolve(column, dice=attrs.evolve(column.dice, seed=seed))
        # a column on a road moves 12": 2" to the skirmishers leaves 10" to spare
        after, events = step(trial, Charge(("b1",), ("a2",), distance=2,
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


def test_deferred_melee_with_tables_turned() -> None:
    """Charges and melee: Determine impetus: in a deferred melee where the tables have
    turned, the counter-charging defenders roll the impetus."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    deferred, _ = step(state, Charge(("b1",), ("a1",), defer=True))
    ended, _ = step(deferred, EndActivation())
    _, events = step(ended, ResolveDeferred(reverse=True))
    assert events[0].kind == "melee" and events[0].subject == "a1"
    assert "impetus of Continentals" in events[0].rolls[0].reason


def test_commander_removed_during_his_card() -> None:
    """Risk to commanders: a commander removed while his card is in play activates nobody
    more and spends no more command points (found by random play)."""
    state = _active(Card(RED, 3))
    gone = attrs.evolve(state, commanders=(attrs.evolve(COMMANDERS[0], removed=True),
                                           COMMANDERS[1]))
    offered = legal_actions(gone)
    assert not any(isinstance(a, Activate | SpendCommandPoint) for a in offered)
    with pytest.raises(IllegalActionError, match="removed"):
        step(gone, SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER))


def test_a_unit_charges_once() -> None:
    """Charges and melee: a unit cannot be named twice in one charge."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 4),))
    with pytest.raises(IllegalActionError, match="once"):
        step(state, Charge(("b1", "b1"), ("a1",)))


def test_commanders_attached_in_the_state_count_in_a_charge() -> None:
    """Determine impetus: +1 d12 when the chargers have a commander attached; Morale:
    Modifiers: +1 to the defender's check to stand when its commander rides with it. The
    turn reads both from the state (Webster attached to b1, Stevens to a1)."""
    webster = attrs.evolve(COMMANDERS[0], attached_to="b1")
    state = attrs.evolve(_active(Card(RED, 3), (Activated("b1", "cb", 2),)),
                         commanders=(webster, COMMANDERS[1]))
    for seed in range(20):
        trial = attrs.evolve(state, dice=attrs.evolve(state.dice, seed=seed))
        _, events = step(trial, Charge(("b1",), ("a1",), facts=ChargeFacts(use_cold_steel=False)))
        impetus, *rest = events[0].rolls
        # 4 base dice + 1 for Webster; need 2 x quality 4 = 8
        assert impetus.check == "5d12 at or under 8"
        if impetus.outcome > 3 and rest:
            # Continentals: quality 3 + density 6, -1 per impetus point above 3, +1 Stevens
            assert rest[0].check.startswith(f"3d12 at or under {9 - (impetus.outcome - 3) + 1}")


def test_change_density_by_separating_bases() -> None:
    """Concepts and definitions: Density: a unit may separate its bases to lower its density
    (a change of formation, one action), never below 3."""
    state = _active(Card(RED, 3), (Activated("b1", "cb", 2),))
    spread, _ = step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=3))
    assert spread.unit("b1").density == 3
    assert spread.extra.activated[0].actions == 1
    with pytest.raises(InvalidValueError):
        step(state, Manoeuvre("b1", ActionKind.CHANGE_FORMATION, density=2))


def test_retrograde_at_three_drp_takes_the_result_moves() -> None:
    """Retrograde movement: at 3 DRPs a morale test instead of the DRP; Morale: a rout or a
    push back result moves the unit (rout 6"+dAv, push back 2dAv")."""
    worn = attrs.evolve(UNITS[0], disruption=3)
    state = attrs.evolve(_active(Card(RED, 3), (Activated("b1", "cb", 2),)),
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
    state = attrs.evolve(_active(Card(RED, 3), (Activated("b1", "cb", 2),)),
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
    state = attrs.evolve(_active(Card(RED, 3)), units=(*UNITS, stray))
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


def test_artillery_may_charge_unless_the_option_forbids() -> None:
    """Charges and melee: a charge is a move that brings a unit into contact with the enemy;
    the text bars no troop type, so guns may charge (B47); option artillery_may_charge=False
    forbids it, naming the rule."""
    state = _active(Card(RED, 3), (Activated("b3", "cb", 2),))
    charge = Charge(("b3",), ("a1",))
    assert charge in legal_actions(state)
    after, events = step(state, charge)
    assert events[0].kind == "melee"
    assert after.extra.activated[0].actions == 0  # Action tariff: a charge is 2 points
    barred = attrs.evolve(state, extra=attrs.evolve(
        state.extra, options=Options(artillery_may_charge=False)))
    assert not any(isinstance(a, Charge) for a in legal_actions(barred))
    with pytest.raises(IllegalActionError) as info:
        step(barred, charge)
    assert info.value.rule == "Bloodybacks 9.3, Charges and melee"
    assert "artillery_may_charge" in info.value.why
