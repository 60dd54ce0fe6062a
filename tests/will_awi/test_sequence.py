"""Rules - Move Sequence: the Turn, its phases A-K, legality and replay."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, IllegalActionError, Turn
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts, Face
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.movement import Leg, MovePlan
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, CommandPost, Options
from smoothbore.will_awi.sequence import (
    TURN,
    ChangeFacing,
    CompulsoryMove,
    Contact,
    DeclareCharge,
    EndPhase,
    Fire,
    IndependentTest,
    Move,
    Order,
    ResolveMelee,
    SecondCharges,
    TestCharged,
    TestMorale,
    WillExtra,
    WillState,
    new_battle,
)
from smoothbore.will_awi.units import (
    GeneralState,
    Nationality,
    Rank,
    Status,
    TroopType,
    WillGeneral,
    WillUnit,
)


def battle(seed: int = 1, options: Options | None = None, **changes: WillUnit) -> WillState:
    units = {
        "r1": WillUnit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH, commander="rb"),
        "r2": WillUnit(
            "r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH, commander="rb"
        ),
        "b1": WillUnit("b1", "Continentals", "blue", TroopType.LINE, commander="bb"),
        "b2": WillUnit("b2", "Militia", "blue", TroopType.MILITIA, commander="bb"),
        "b3": WillUnit("b3", "Guns", "blue", TroopType.LIGHT_GUN, commander="bb"),
    }
    units.update(changes)
    gens = (
        WillGeneral("rb", "Webster", "red", rating=8),
        WillGeneral("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1"),
    )
    return new_battle(
        ("red", "blue"), tuple(units.values()), gens, seed=seed, options=options or Options()
    )


def to_phase(state: WillState, phase: str) -> WillState:
    while state.phase != phase:
        state, _ = TURN.step(state, EndPhase())
    return state


def test_turn_protocol_and_phases() -> None:
    """The ruleset's Turn has the eleven phases A-K as data."""
    assert isinstance(TURN, Turn)
    assert [p.name for p in RULESET.phases] == list("ABCDEFGHIJK")
    assert RULESET.turn is TURN


def test_wrong_phase_is_illegal() -> None:
    """Firing belongs to E, charges to F: anything else raises, naming the rule."""
    s = battle()
    with pytest.raises(IllegalActionError, match="Move Sequence"):
        TURN.step(s, Fire("b1", "r1", FireFacts(5)))
    s = to_phase(s, "E")
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("r1", "b1", FireFacts(5)))  # the moving side does not fire


def test_step_is_pure_and_replayable() -> None:
    """Same state and action, same result; the state is never changed."""
    s = to_phase(battle(), "E")
    before = s.to_json()
    a = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    b = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    assert a == b and s.to_json() == before
    assert a[0].dice.counter == s.dice.counter + 1


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
    assert (4, Status.SHAKEN) in outcomes and (5, Status.STEADY) in outcomes
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(battle(), "E"), Fire("b3", "r1", FireFacts(37)))


def test_each_unit_fires_once() -> None:
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))


def test_general_killed_shakes_chain_within_18() -> None:
    """Risk to Generals: a general killed shakes his units measured within 18"."""
    seen_dead = False
    for seed in range(300):
        s = to_phase(battle(seed), "E")
        s = s.with_units(attrs.evolve(s.unit("r1"), commander="rg"))
        s = attrs.evolve(
            s, commanders=(*s.commanders, WillGeneral("rg", "Brig", "red", attached_to="r1"))
        )
        after, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4), chain_within_18=frozenset({"r1"})))
        if after.commander("rg").state is GeneralState.DEAD:
            seen_dead = True
            assert after.unit("r1").status is Status.SHAKEN
            break
    assert seen_dead


def test_facing_change_barred_within_reach() -> None:
    """D: no facing change with an enemy within charge reach of the current front."""
    s = to_phase(battle(), "D")
    TURN.step(s, ChangeFacing("b1", 90, (("r1", 4.0),)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, ChangeFacing("b1", 90, (("r2", 5.0),)))


def test_morale_tests_in_a_and_note_a() -> None:
    """A: every shaken or routing unit of the mover tests first; a unit routed in the enemy's
    charge phase is not tested (note (a))."""
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
    )
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, TestMorale("r2"))
    s, events = TURN.step(s, TestMorale("r1"))
    assert "tests shaken" in events[0].text
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "B"


def test_compulsory_moves_in_b() -> None:
    """B: routing and retiring units must move before C."""
    s = battle(r1=WillUnit("r1", "Foot", "red", TroopType.LINE, must_retire=True))
    s = to_phase(s, "B") if s.phase != "B" else s
    with pytest.raises(IllegalActionError):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError):
        TURN.step(s, CompulsoryMove("r1", 7))
    s, _ = TURN.step(s, CompulsoryMove("r1", 6))
    assert not s.unit("r1").must_retire


def test_moves_in_c() -> None:
    """C: a move within its allowance; each unit once; command and control when on."""
    s = to_phase(battle(), "C")
    s2, _ = TURN.step(s, Move("r1", MovePlan(legs=(Leg(6),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s2, Move("r1", MovePlan(legs=(Leg(1),))))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Move("r1", MovePlan(legs=(Leg(7),))))
    cc = to_phase(battle(options=Options(command_control=True)), "C")
    with pytest.raises(IllegalActionError, match="order"):
        TURN.step(cc, Move("r1", MovePlan(legs=(Leg(6),))))


def test_command_and_control_in_the_turn() -> None:
    """Command & Control (March 2008): 2d6 at or under rating 8 (average unit, in sight, next
    to the commander: no modifier) gives the order; a failure ends the commander's orders and
    the unit stays; the state follows the faces rolled."""
    seen = set()
    for seed in range(30):
        cc = to_phase(battle(seed, options=Options(command_control=True)), "C")
        after, events = TURN.step(cc, Order("rb", "r1"))
        ok = sum(events[0].rolls[0].faces) <= 8
        seen.add(ok)
        if ok:
            assert "r1" in after.extra.ordered and "rb" not in after.extra.failed
            moved, _ = TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            assert "r1" in moved.extra.done
        else:
            assert "rb" in after.extra.failed and "r1" not in after.extra.ordered
            with pytest.raises(IllegalActionError, match="failed"):
                TURN.step(after, Order("rb", "r2"))
            with pytest.raises(IllegalActionError, match="already"):
                TURN.step(after, Move("r1", MovePlan(legs=(Leg(6),))))
            # the other unit, not yet tested, may test alone: 3 or less (March)
            alone, ev = TURN.step(after, IndependentTest("r2"))
            assert ("r2" in alone.extra.ordered) is (sum(ev[0].rolls[0].faces) <= 3)
    assert seen == {True, False}


def test_group_order_and_independent_tests_last() -> None:
    """A group move is one roll for several units (-1); the independent tests come after all
    command rolls, so no order follows one."""
    for seed in range(30):
        cc = to_phase(battle(seed, options=Options(command_control=True)), "C")
        after, events = TURN.step(cc, Order("rb", "r1", with_units=("r2",)))
        assert len(events[0].rolls) == 1
        ok = sum(events[0].rolls[0].faces) <= 8 - 1
        assert ({"r1", "r2"} <= after.extra.ordered) is ok
        assert ({"r1", "r2"} <= after.extra.done) is not ok
    cc = to_phase(battle(options=Options(command_control=True)), "C")
    after, _ = TURN.step(cc, IndependentTest("r2"))
    with pytest.raises(IllegalActionError, match="after all command rolls"):
        TURN.step(after, Order("rb", "r1"))
    with pytest.raises(IllegalActionError):
        TURN.step(cc, Order("rb", "r1", with_units=("r1",)))
    jan = Options(command_control=True, command_post=CommandPost.JANUARY_2008)
    with pytest.raises(IllegalActionError, match="failed"):
        TURN.step(to_phase(battle(options=jan), "C"), IndependentTest("r2"))


@pytest.mark.parametrize("post", list(CommandPost))
@settings(max_examples=4, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_with_command_and_control(post: CommandPost, seed: int) -> None:
    """With command and control on (either post) whole turns play from legal_actions, and a
    unit only ever moves in C after an order or a passed independent test."""
    rng = random.Random(seed)
    s = battle(seed, Options(command_control=True, command_post=post))
    for _ in range(400):
        if s.turn > 2:
            break
        actions = TURN.legal_actions(s)
        action = rng.choice(actions)
        if isinstance(action, Move) and s.phase == "C":
            assert action.unit in s.extra.ordered
        s, _ = TURN.step(s, action)
    assert s.turn > 2


def charge_state(seed: int) -> WillState:
    s = to_phase(battle(seed), "F")
    s, _ = TURN.step(s, DeclareCharge("r2", "b2", 5.0, facts=ChargeFacts(Face.FRONT)))
    s, _ = TURN.step(s, EndPhase())
    s, _ = TURN.step(s, TestCharged("b2"))
    return s


def test_charge_through_melee_and_second_charge() -> None:
    """F-K: declare, test, counter/rout, contact, melee, second cavalry charge."""
    routed = fought = second = False
    for seed in range(60):
        s = charge_state(seed)
        result = s.extra.tests[0].result
        s, _ = TURN.step(s, EndPhase())  # H
        if result is ChargedResult.COUNTER_CHARGE:
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            from smoothbore.will_awi.sequence import CounterCharge

            s, _ = TURN.step(s, CounterCharge("b2", True))
        s, _ = TURN.step(s, EndPhase())  # I
        if result is ChargedResult.ROUTS:
            routed = True
            assert s.unit("b2").routing and s.unit("b2").strength == 4
            s, _ = TURN.step(s, Contact("r2", False))
        s, _ = TURN.step(s, EndPhase())  # J
        if result in (ChargedResult.STANDS, ChargedResult.COUNTER_CHARGE):
            with pytest.raises(IllegalActionError):
                TURN.step(s, EndPhase())
            s, events = TURN.step(s, ResolveMelee("b2"))
            fought = True
            assert any(e.kind == "melee" for e in events)
        s, _ = TURN.step(s, EndPhase())  # K
        assert s.phase == "K"
        if "r2" in s.extra.winners and s.unit("r2").on_table and not s.unit("r2").shaken:
            s, _ = TURN.step(s, SecondCharges())
            assert s.phase == "F" and s.extra.second_round
            with pytest.raises(IllegalActionError):
                TURN.step(s, DeclareCharge("r1", "b1", 1.0))
            second = True
        else:
            with pytest.raises(IllegalActionError):
                TURN.step(s, SecondCharges())
    assert routed and fought and second


def test_end_of_move_alternates() -> None:
    """K ends the move: the other side moves; the turn counts up after both."""
    s = to_phase(battle(), "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.extra.moving == "blue" and s.phase == "A" and s.turn == 1
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.extra.moving == "red" and s.turn == 2


def test_json_round_trip() -> None:
    """The state saves and loads (cattrs)."""
    s = to_phase(battle(), "E")
    s, _ = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    back = BattleState.from_json(s.to_json(), WillUnit, WillGeneral, WillExtra)
    assert back == s


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_from_legal_actions(seed: int) -> None:
    """Whole turns can be played from legal_actions alone; every action listed is legal."""
    rng = random.Random(seed)
    s = battle(seed)
    for _ in range(400):
        if s.turn > 2:
            break
        actions = TURN.legal_actions(s)
        assert actions
        s, _ = TURN.step(s, rng.choice(actions))
    assert s.turn > 2
    for u in s.units:
        assert 0 <= u.strength <= 6


def works_battle(seed: int = 1) -> WillState:
    from smoothbore.will_awi.fortifications import Defence, Work

    s = battle(seed)
    return attrs.evolve(
        s,
        extra=attrs.evolve(
            s.extra,
            works=(Defence.new(Work.TIMBER_FIELDWORK, "fw"), Defence.new(Work.REDOUBT, "rd")),
        ),
    )


def test_field_engineering_in_c() -> None:
    """Field Engineering in the move: dismantle 1 a move; close order infantry only."""
    from smoothbore.will_awi.sequence import Engineer

    s = to_phase(works_battle(), "C")
    s2, _ = TURN.step(s, Engineer("r1", "fw"))
    assert next(w for w in s2.extra.works if w.id == "fw").points == 5
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r2", "fw"))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Engineer("r1", "fw", has_tools=False))


def next_own_move(s: WillState) -> WillState:
    """Phase C of the same side's next move."""
    for _ in range(2):
        s = to_phase(s, "K")
        s, _ = TURN.step(s, EndPhase())
    return to_phase(s, "C")


def test_demolition_over_moves() -> None:
    """Demolition: lay each charge in a movement phase, move away, go off in phase E."""
    from smoothbore.will_awi.sequence import Detonate, LayCharge, MoveAway

    s = to_phase(works_battle(3), "C")
    s, _ = TURN.step(s, LayCharge("r1", "fw", 2))
    s = next_own_move(s)
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveAway("r1"))  # one charge still to lay
    s, _ = TURN.step(s, LayCharge("r1", "fw", 2))
    with pytest.raises(IllegalActionError):
        TURN.step(to_phase(s, "E"), Detonate("fw"))  # not moved away yet
    s = next_own_move(s)
    s, _ = TURN.step(s, MoveAway("r1"))
    s = to_phase(s, "E")
    s, events = TURN.step(s, Detonate("fw", frozenset({"b1"})))
    assert events[0].kind == "demolition" and len(events[0].rolls) == 1
    assert len(events[0].rolls[0].faces) == 3
    assert events[1].subject == "b1" and len(events[1].rolls) == 1
    assert not s.extra.demolitions


def test_bombard_in_e() -> None:
    """Guns firing ball damage works; canister and muskets do not."""
    from smoothbore.will_awi.sequence import Bombard

    s = to_phase(works_battle(), "E")
    TURN.step(s, Bombard("b3", "rd", FireFacts(20)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b3", "rd", FireFacts(10)))
    with pytest.raises(IllegalActionError):
        TURN.step(s, Bombard("b1", "rd", FireFacts(5)))


def test_second_charge_target_may_fire() -> None:
    """Second Cavalry Charges: a target that has not fired may fire at the cavalry."""
    s = to_phase(battle(), "F")
    s = attrs.evolve(s, extra=attrs.evolve(s.extra, second_round=True, winners=frozenset({"r2"})))
    s, _ = TURN.step(s, DeclareCharge("r2", "b1", 4.0))
    after, events = TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    assert "b1" in after.extra.fired
    assert events[0].kind == "fire"
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("b2", "r2", FireFacts(4)))


def test_generals_move_and_join_units() -> None:
    """Generals/Couriers move 21" (half with a light wound) and may join a unit; a general with
    the unit adds to its morale tests."""
    from smoothbore.will_awi.sequence import MoveGeneral

    s = to_phase(battle(), "C")
    s2, _ = TURN.step(s, MoveGeneral("rb", 21, "r1"))
    assert s2.commander("rb").attached_to == "r1"
    with pytest.raises(IllegalActionError):
        TURN.step(s2, MoveGeneral("rb", 1))
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveGeneral("rb", 22))
    hurt = s.with_commanders(attrs.evolve(s.commander("rb"), light_wounds=1))
    with pytest.raises(IllegalActionError):
        TURN.step(hurt, MoveGeneral("rb", 11))
    with pytest.raises(IllegalActionError):
        TURN.step(s, MoveGeneral("bb", 5))  # not the moving side


def test_forty_five_highland_charge_in_the_turn() -> None:
    """Battles of the '45: unshaken highlanders that receive fire test (5-6 in musket range);
    a unit in a Highland charge must make its charge move (1d6 more) in its next move."""
    from smoothbore.will_awi.options import FORTY_FIVE
    from smoothbore.will_awi.sequence import HighlandChargeMove

    clan = WillUnit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
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


def test_note_a_only_for_the_enemys_charge_phase() -> None:
    """Note (a): a unit routed in its own charge phase tests in its next move."""
    found = False
    for seed in range(200):
        s = to_phase(battle(seed), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b1", 2.0))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged("b1"))
        if s.extra.tests[0].result is not ChargedResult.STANDS:
            continue
        s = to_phase(s, "J")
        s, _ = TURN.step(s, ResolveMelee("b1"))
        if s.unit("r1").routing and s.unit("r1").on_table:
            assert not s.unit("r1").routed_last_move
            found = True
            break
    assert found


def test_one_attacker_two_defenders() -> None:
    """Melee: one attacking unit and two defending units; never three."""
    s = to_phase(battle(5), "F")
    s, _ = TURN.step(s, DeclareCharge("r1", "b1", 2.0))
    s, _ = TURN.step(s, EndPhase())
    for seed in range(100):
        s2, _ = TURN.step(attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed)), TestCharged("b1"))
        if s2.extra.tests[0].result is ChargedResult.STANDS:
            break
    s2 = to_phase(s2, "J")
    after, events = TURN.step(s2, ResolveMelee("b1", also_defending=("b2",)))
    assert "b1" in after.extra.resolved
    assert events[0].kind == "melee" and len(events[0].rolls) == 3
    with pytest.raises(IllegalActionError):
        TURN.step(s2, ResolveMelee("b1", also_defending=("b2", "b3")))
    with pytest.raises(IllegalActionError):
        TURN.step(s2, ResolveMelee("b1", also_defending=("r2",)))


def test_highland_charge_needs_no_order() -> None:
    """Battles of the '45 with command and control: a Highland charge is a compulsory move:
    it needs no order, takes none, and the move cannot end before it is made."""
    from smoothbore.will_awi.options import FORTY_FIVE
    from smoothbore.will_awi.sequence import HighlandChargeMove

    clan = WillUnit(
        "r1",
        "Clan",
        "red",
        TroopType.HIGHLANDERS,
        Nationality.JACOBITE,
        highland_charge=True,
        commander="rb",
    )
    opts = Options(variant=FORTY_FIVE, command_control=True)
    s = to_phase(battle(2, opts, r1=clan), "C")
    with pytest.raises(IllegalActionError, match="Highland"):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="compulsory"):
        TURN.step(s, Order("rb", "r1"))
    s, events = TURN.step(s, HighlandChargeMove("r1"))
    assert events[0].rule.endswith("Battles of the 45")
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "D"


def test_demolition_goes_off_in_the_firing_phase() -> None:
    """Demolition: the charge is tested in the firing phase after moving away: phase E cannot
    end before it goes off."""
    from smoothbore.will_awi.sequence import Detonate, LayCharge, MoveAway

    s = to_phase(works_battle(4), "C")
    s, _ = TURN.step(s, LayCharge("r1", "fw", 1))
    s = next_own_move(s)
    s, _ = TURN.step(s, MoveAway("r1"))
    s = to_phase(s, "E") if s.phase != "E" else s
    while s.phase != "E":
        s, _ = TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="goes off"):
        TURN.step(s, EndPhase())
    assert Detonate("fw") in TURN.legal_actions(s)
    s, events = TURN.step(s, Detonate("fw"))
    faces = events[0].rolls[0].faces
    destroyed = sum(faces) > 6  # 2d6 against the timber fieldwork's 6 points
    assert (next(w for w in s.extra.works if w.id == "fw").points == 0) is destroyed
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "F"


def test_routing_target_tests_surrender_once() -> None:
    """Charging: an already routing unit that is charged may surrender (4+ foot), otherwise
    routs on and loses 1 SP: one surrender roll, at its test, none again at contact."""
    routing = WillUnit("b2", "Militia", "blue", TroopType.MILITIA, status=Status.ROUTING)
    outcomes = set()
    for seed in range(20):
        s = to_phase(battle(seed, b2=routing), "F")
        s, _ = TURN.step(s, DeclareCharge("r1", "b2", 2.0))
        s, _ = TURN.step(s, EndPhase())
        s, events = TURN.step(s, TestCharged("b2"))
        (face,) = events[0].rolls[0].faces
        surrendered = face >= 4
        outcomes.add(surrendered)
        assert (s.unit("b2").status is Status.SURRENDERED) is surrendered
        if not surrendered:
            assert s.unit("b2").strength == 4 and s.unit("b2").routing
        s = to_phase(s, "I")
        s, events = TURN.step(s, Contact("r1", True))
        assert not any(e.rolls for e in events)
    assert outcomes == {True, False}


def test_ruleset_page_examples_run() -> None:
    """docs/rulesets/will_awi.md: the examples of playing a move (with and without command and
    control) run as written."""
    import pathlib
    import re

    page = pathlib.Path(__file__).parents[2] / "docs" / "rulesets" / "will_awi.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(block, namespace)
    state = namespace["state"]
    assert isinstance(state, BattleState) and state.phase == "C"
    assert state.extra.ordered or state.extra.failed


def test_order_to_the_unit_the_general_rides_with() -> None:
    """Command & Control: +2 if the commander is with the unit: a general attached to the unit
    (Greene with b1, rating 8) needs 10 or less, whatever the order's facts say."""
    seen = set()
    for seed in range(40):
        s = to_phase(battle(seed, options=Options(command_control=True)), "K")
        s, _ = TURN.step(s, EndPhase())
        s = to_phase(s, "C")
        assert s.extra.moving == "blue"
        after, events = TURN.step(s, Order("bb", "b1"))
        total = sum(events[0].rolls[0].faces)
        seen.add(total)
        assert ("b1" in after.extra.ordered) is (total <= 10)
    assert {11, 12} & seen and seen - {11, 12}


VARIANT_OPTIONS = {
    "forty-five": Options(variant=FORTY_FIVE),
    "ireland": Options(variant=IRELAND_1798),
    "every-option": Options(
        evade=True,
        gun_facing_roll=True,
        road_bonus=True,
        militia_rout_in_open=True,
        shaken_quality_modifiers=True,
        shaken_recovers_on_carry_on=False,
    ),
}


@pytest.mark.parametrize("which", sorted(VARIANT_OPTIONS))
@settings(max_examples=3, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_variants_and_options(which: str, seed: int) -> None:
    """The variants and the options play whole turns from legal_actions too; highlanders and
    pikemen take part; strength stays 0-6 and the state replays exactly."""
    rng = random.Random(seed)
    extra = {
        "forty-five": {
            "r1": WillUnit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
        },
        "ireland": {"b2": WillUnit("b2", "Pikes", "blue", TroopType.PIKEMEN)},
        "every-option": {},
    }[which]
    s = battle(seed, VARIANT_OPTIONS[which], **extra)
    for _ in range(400):
        if s.turn > 2:
            break
        action = rng.choice(TURN.legal_actions(s))
        a, events = TURN.step(s, action)
        assert (a, events) == TURN.step(s, action)
        s = a
    assert s.turn > 2
    assert all(0 <= u.strength <= 6 for u in s.units)
