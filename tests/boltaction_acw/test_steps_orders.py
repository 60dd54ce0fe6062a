"""The orders in play: who may take one, the order test of a pinned unit, fire, advance,
rally, down, commanders, routers (Orders; Order tests; Movement; Morale Test)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import (
    Advance,
    Down,
    Fire,
    Mount,
    MoveCommander,
    Rally,
    RallyFromRout,
    RoutMove,
    Run,
)
from smoothbore.boltaction_acw.melee import FRONTAL
from smoothbore.boltaction_acw.movement import Terrain
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.rules import (
    RULE_ADVANCE,
    RULE_ARMY,
    RULE_FIRE,
    RULE_INTERPENETRATION,
    RULE_MOVEMENT,
    RULE_ONE_ORDER,
    RULE_ROUT,
    RULE_ROUT_TESTS,
    RULE_SHOOTING,
    RULE_TERRAIN,
    RULE_TURN,
    RULE_UNIT_SIZES,
)
from smoothbore.boltaction_acw.shooting import ShotFacts
from smoothbore.boltaction_acw.state import Engaged, State, with_units
from smoothbore.boltaction_acw.units import Formation, revise
from smoothbore.core import IllegalActionError, InvalidValueError, odds

from .battle import random_states, sample_battle
from .oracle import two_d6_at_most


def active(group: str, state: State | None = None) -> State:
    state = state or sample_battle(0)
    return state.replace(phase=ORDERS).with_extra(group=group)


def test_fire_pins_the_target_unless_every_shot_misses() -> None:
    state = active("brigade:gibbon")
    fire = Fire("u2wi", "c4va", ShotFacts(12))
    dist = odds(lambda dice: TURN.apply(state, fire, dice)[0].unit("c4va").pins)
    assert dist.probability(0) == Fraction(1, 3**10)  # 10 shots at 3+


def test_a_pinned_unit_tests_and_loses_a_pin_if_it_passes() -> None:
    state = active("brigade:gibbon")
    state = with_units(state, revise(state.unit("u2wi"), pins=2))
    fire = Fire("u2wi", "c4va", ShotFacts(12))
    dist = odds(lambda dice: "u2wi" in TURN.apply(state, fire, dice)[0].extra.failed)
    assert dist.probability(True) == 1 - two_d6_at_most(8 - 2 + 1)
    after, events = TURN.step(state, fire)
    if "u2wi" not in after.extra.failed:
        assert after.unit("u2wi").pins == 1 and "loses a pin" in events[0].text


def test_an_unpinned_unit_takes_no_test() -> None:
    state = active("brigade:gibbon")
    after, events = TURN.step(state, Down("u2wi"))
    assert after.unit("u2wi").down and "order test" not in events[0].text


def test_rally_needs_pins_and_down_is_refused_to_mounted_cavalry() -> None:
    state = active("brigade:gibbon")
    with pytest.raises(IllegalActionError, match="no pins"):
        TURN.step(state, Rally("u2wi"))
    horse = active("u1mi")
    with pytest.raises(IllegalActionError, match="cannot go down"):
        TURN.step(horse, Down("u1mi"))


def test_no_passing_through_a_friend_locked_in_melee() -> None:
    state = active("brigade:gibbon")
    state = state.with_extra(melees=(Engaged("u6wi", "c2va", FRONTAL),))
    through = Advance("u2wi", through="u6wi")
    assert through not in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError, match="locked in melee"):
        TURN.step(state, through)
    assert Advance("u2wi", through="u7wi", facts=ShotFacts(12)) in TURN.legal_actions(state)


def test_advance_fire_is_on_the_move() -> None:
    state = active("brigade:gibbon")
    advance = Advance("u2wi", target_id="c4va", facts=ShotFacts(12))
    # 3+ on the move is 4+: P(no hit) = (1/2)^10
    dist = odds(lambda dice: TURN.apply(state, advance, dice)[0].unit("c4va").pins)
    assert dist.probability(0) == Fraction(1, 2**10)


def test_commanders_ride_once_a_turn() -> None:
    state = active("brigade:gibbon")
    after, _ = TURN.step(state, MoveCommander("gibbon", "u2wi"))
    assert after.commander("gibbon").with_unit == "u2wi"
    with pytest.raises(IllegalActionError, match="moved this turn"):
        TURN.step(after, MoveCommander("gibbon", "u7wi"))
    with pytest.raises(IllegalActionError, match="own brigade"):
        TURN.step(active("u1mi"), MoveCommander("gibbon", "u2wi"))


def test_routers_test_first_and_pin_friends_they_pass() -> None:
    state = active("brigade:gibbon")
    state = with_units(state, revise(state.unit("u2wi"), routing=True, pins=1))
    state = state.with_extra(routed=frozenset())
    moving = state
    assert moving.extra.routs == ("u2wi",)
    assert TURN.legal_actions(moving)[0] == RoutMove("u2wi")
    passed, _ = TURN.step(moving, RoutMove("u2wi", "u7wi"))
    assert passed.unit("u7wi").pins == 1
    legal = TURN.legal_actions(passed)
    assert RallyFromRout("u2wi") in legal  # before any order (The Turn, 2)
    assert not any(isinstance(a, (Fire, Down, Advance)) for a in legal)
    # 8 + colonel, -1 pin, bases ignored; passed it stops routing
    dist = odds(lambda dice: TURN.apply(passed, RallyFromRout("u2wi"), dice)[0].unit(
        "u2wi").routing)
    assert dist.probability(False) == two_d6_at_most(8)


def test_units_outside_the_brigade_cannot_act() -> None:
    state = active("brigade:gibbon")
    with pytest.raises(IllegalActionError, match="not in the acting brigade"):
        TURN.step(state, Down("u1mi"))
    assert attrs.evolve(Down("u2wi")) in TURN.legal_actions(state)


# --- refusals, each naming its rule ----------------------------------------------------------
def refusal(state: State, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state, action)  # type: ignore[arg-type]
    return raised.value


def test_no_order_without_an_acting_brigade() -> None:
    state = sample_battle(0).replace(phase=ORDERS)
    error = refusal(state, Fire("u2wi", "c4va"))
    assert error.rule == RULE_TURN and "no brigade is acting" in error.why


def test_no_order_before_the_army_test() -> None:
    """Gibbon's brigade, the Union's only one, with 3 of its 5 units routing (counted as
    lost by default): combat ineffective, so the Union army has lost half its brigades."""
    state = active("brigade:gibbon")
    state = with_units(state, *(revise(state.unit(u), routing=True)
                                for u in ("u2wi", "u6wi", "u7wi")))
    state = state.with_extra(routs=())
    error = refusal(state, Fire("u19in", "c4va"))
    assert error.rule == RULE_ARMY and "army test" in error.why


def test_units_locked_in_melee_neither_take_orders_nor_are_shot_at() -> None:
    state = active("brigade:gibbon").with_extra(melees=(Engaged("u2wi", "c2va", FRONTAL),))
    error = refusal(state, Fire("u2wi", "c4va"))
    assert error.rule == RULE_ONE_ORDER and "locked in melee" in error.why
    error = refusal(state, Fire("u6wi", "c2va"))
    assert error.rule == RULE_SHOOTING and "2nd Virginia is locked in melee" in error.why


def test_a_halted_charger_out_of_the_fight_does_not_fire() -> None:
    state = active("brigade:gibbon")
    state = with_units(state, revise(state.unit("u2wi"), routing=True))
    state = state.with_extra(routs=(), halted=frozenset({"u2wi"}))
    error = refusal(state, Fire("u2wi", "c4va"))
    assert error.rule == RULE_FIRE and "out of the fight" in error.why


def test_major_rivers_only_at_crossings() -> None:
    state = active("brigade:gibbon")
    for action in (Advance("u2wi", Terrain.MAJOR_RIVER), Run("u2wi", Terrain.MAJOR_RIVER)):
        error = refusal(state, action)
        assert error.rule == RULE_TERRAIN and "crossing points" in error.why
    assert TURN.is_legal(state, Run("u2wi", Terrain.RIVER_CROSSING))


def test_mounting_and_dismounting_refusals() -> None:
    state = active("brigade:gibbon")
    error = refusal(state, Advance("u2wi", mount=Mount.DISMOUNT))
    assert error.rule == RULE_ADVANCE and "only cavalry" in error.why
    horse = active("u1mi")
    error = refusal(horse, Advance("u1mi", mount=Mount.REMOUNT))
    assert error.rule == RULE_ADVANCE and "is mounted" in error.why
    error = refusal(horse, Advance("u1mi", through="uusss", mount=Mount.DISMOUNT))
    assert error.rule == RULE_INTERPENETRATION and "does not also mount" in error.why
    assert TURN.is_legal(horse, Advance("u1mi", mount=Mount.DISMOUNT))
    on_foot = with_units(horse, attrs.evolve(horse.unit("u1mi"), mounted=False,
                                             formation=Formation.SKIRMISH))
    error = refusal(on_foot, Advance("u1mi", mount=Mount.REMOUNT, near_holders=False))
    assert error.rule == RULE_UNIT_SIZES and "horse holders" in error.why
    assert TURN.is_legal(on_foot, Advance("u1mi", mount=Mount.REMOUNT))


def test_commanders_ride_only_to_their_own_command() -> None:
    state = active("brigade:gibbon")
    error = refusal(state, MoveCommander("gibbon", "uusss"))  # independent sharpshooters
    assert error.rule == RULE_MOVEMENT and "not of Brig. Gen. John Gibbon's brigade" in error.why
    assert TURN.is_legal(state, MoveCommander("king", "uusss"))  # the army commander may
    assert MoveCommander("gibbon", "uusss") not in TURN.legal_actions(state)
    with pytest.raises(InvalidValueError, match="gibbon, king, baylor, jackson"):
        TURN.check(state, MoveCommander("nobody", "u2wi"))


def test_a_router_tests_once_a_turn_and_routs_only_through_friends() -> None:
    state = active("brigade:gibbon")
    state = with_units(state, revise(state.unit("u2wi"), routing=True))
    error = refusal(state, RoutMove("u2wi", "c2va"))
    assert error.rule == RULE_ROUT and "not a friendly unit" in error.why
    assert TURN.is_legal(state, RoutMove("u2wi", "u6wi"))
    tested = state.with_extra(routs=(), routed=frozenset(), tested=frozenset({"u2wi"}))
    error = refusal(tested, RallyFromRout("u2wi"))
    assert error.rule == RULE_ROUT_TESTS and "has tested this turn" in error.why


@pytest.mark.parametrize("battle", ["default", "mcphersons-ridge"])
def test_table_groups_hold_at_most_their_bound_and_waste_few_slots(battle: str) -> None:
    """On a table each unit's advances and runs, and each commander's joins, come as one
    ``Deferred`` group: its bound is never less than what it lists, and the empty slots are
    only those of a closing move not offered (the advances, one per target or none) and the
    units beyond a commander's ride."""
    from smoothbore.boltaction_acw import RULESET
    from smoothbore.boltaction_acw.steps_orders import (
        candidates_advance,
        candidates_move_commander,
        candidates_run,
    )
    from smoothbore.core import Deferred

    make = dict(RULESET.battles())[battle]
    groups = {"advance": 0, "run": 0, "commander": 0}
    for seed in range(2):
        for state in random_states(make(seed), seed, 120):
            for name, rule in (("advance", candidates_advance), ("run", candidates_run),
                               ("commander", candidates_move_commander)):
                for group in rule(state):
                    assert isinstance(group, Deferred)
                    actions = group.actions()
                    assert len(actions) <= group.bound
                    groups[name] += 1
                    if name == "run":
                        assert group.bound - len(actions) <= 1
                    elif name == "advance":
                        targets = {a.target_id for a in actions if a.move is not None}
                        assert group.bound - len(actions) in (0, len(targets))
    assert min(groups.values()) > 10
