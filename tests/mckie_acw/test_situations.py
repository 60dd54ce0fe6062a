"""situations.py and positions.py: McKie ACW on a table. Hand-drawn layouts (millimetres)
whose facts are worked out by hand: ranges from the firer's centre and their bands, the arc,
sight through a farm and into dense woods, cover behind a fence, the face a charge strikes,
a river crossed only at its ford; and the steps in table mode."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import attrs
import pytest

from smoothbore.core import IllegalActionError, InvalidValueError, Scenario
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import (
    CompulsoryMove,
    DeclareCharge,
    EndPhase,
    Fire,
    Melee,
    Move,
    MoveGeneral,
    PickOffGeneral,
    Resupply,
    TestMorale,
)
from smoothbore.mckie_acw.firing import FireFacts, fire_factor
from smoothbore.mckie_acw.melee import Attack
from smoothbore.mckie_acw.morale import Circumstance
from smoothbore.mckie_acw.movement import Manoeuvre
from smoothbore.mckie_acw.options import Options
from smoothbore.mckie_acw.phases import (
    CHARGES,
    COMPULSORY,
    FIRING,
    MELEE,
    MOVEMENT,
    RECEIVE_TESTS,
)
from smoothbore.mckie_acw.phases import MORALE as MORALE_STEP
from smoothbore.mckie_acw.positions import footprint, ground_of, synced
from smoothbore.mckie_acw.situations import charge_facts, general_point, shot_facts
from smoothbore.mckie_acw.state import State, new_battle, with_extra
from smoothbore.mckie_acw.steps_firing import fire_facts
from smoothbore.mckie_acw.steps_melee import into_contact
from smoothbore.mckie_acw.steps_morale import routing_past
from smoothbore.mckie_acw.table_moves import move_facts
from smoothbore.mckie_acw.units import (
    Arm,
    Formation,
    Ground,
    OrderKind,
    Quality,
    Status,
    Unit,
    Weapon,
    changed,
)
from smoothbore.table import (
    CommanderMark,
    Edge,
    Feature,
    ImpassableError,
    Table,
    in_contact,
)
from tests.mckie_acw.support import A, B, at, commanders, exact, foot, guns


def battle(placed: dict[Unit, tuple[float, float, float]], *features: Feature,
           seed: int = 0) -> State:
    """A 600 x 400 mm table with these units at (x, y, facing) and this terrain."""
    units = tuple(placed)
    table = Table(600, 400, "mm", features,
                  tuple(footprint(u, *where) for u, where in placed.items()),
                  home_edges={A: Edge.NEAR, B: Edge.FAR})
    return new_battle((A, B), units, commanders(), seed=seed, table=table,
                      scenario=Scenario("test", turn_limit=6))


FIRER = foot("a1")
"""16 figures in line: 8 files of 12 mm, two ranks (24 mm) deep: 96 x 24 mm."""


def facing_off(target: Unit, y: float = 180, facing: float = 180, *features: Feature,
               x: float = 300) -> State:
    return battle({FIRER: (300, 100, 0), target: (x, y, facing)}, *features)


# --- footprints ---------------------------------------------------------------------------
def test_footprints_follow_bases_and_formations() -> None:
    line = footprint(foot("l"), 0, 0, 0)
    assert (line.bases, line.frontage, line.depth, line.width, line.length) == (8, 12, 24, 96,
                                                                                24)
    column = footprint(foot("c", figures=14, formation=Formation.COLUMN), 0, 0, 0)
    assert (column.width, column.length) == (48, 48)  # 4 abreast, 4 ranks of 12 mm
    skirmish = footprint(foot("s", figures=2, formation=Formation.SKIRMISH), 0, 0, 0)
    assert skirmish.width == 12 + 6 + 12  # half a base between figures
    gun = footprint(guns("g"), 0, 0, 0)
    limbered = footprint(guns("g", limbered=True), 0, 0, 0)
    assert (gun.width, gun.length, limbered.length) == (30, 40, 80)


def test_the_table_keeps_in_step_with_the_units() -> None:
    state = facing_off(foot("b1", B))
    table = state.extra.table
    assert synced(state) is state  # nothing changed: the very same table
    state = state.with_units(changed(state.unit("a1"), figures=10, formation=Formation.COLUMN))
    fp = synced(state).extra.table.footprint("a1")  # type: ignore[union-attr]
    assert (fp.width, fp.length, fp.centre) == (48, 36, (300, 100))
    gone = synced(state.with_units(changed(state.unit("b1"), status=Status.DESTROYED)))
    assert "b1" not in gone.extra.table.units  # type: ignore[union-attr]
    assert table is not None and "b1" in table.units


def test_a_battle_on_a_table_is_saved_and_loaded() -> None:
    state = facing_off(foot("b1", B), 180, 180, Feature("fence", "fence",
                                                        line=((200, 160), (400, 160))))
    assert TURN.load(state.to_json()) == state
    with pytest.raises(InvalidValueError, match="mm"):
        new_battle((A, B), (FIRER,), commanders(), table=Table(60, 40, "inches"))


# --- firing ---------------------------------------------------------------------------------
def test_range_is_from_the_firers_centre_to_the_target() -> None:
    # the firer's centre at y 100, the target's front edge at y 168: 68 mm, the 60-100 band
    shot = shot_facts(facing_off(foot("b1", B)), "a1", "b1")
    assert (shot.range, shot.angle, shot.sees, shot.flank, shot.rear) == (68, 0, True, False,
                                                                         False)


def test_on_a_table_the_priority_is_waived_only_when_the_table_finds_it_out_of_reach(
        ) -> None:
    # b1 68 mm off (the 60-100 band); b2's front edge at y 368, 256 mm beyond the firer's
    # front and 268 mm from its centre: beyond the rifle's 100 mm
    state = battle({FIRER: (300, 100, 0), foot("b1", B): (300, 180, 180),
                    foot("b2", B): (300, 380, 180)})
    waived = at(state, FIRING, last_fired_on_by=(("a1", "b2"),))  # b2 fired on a1: priority
    fires = [a for a in TURN.legal_actions(waived) if isinstance(a, Fire)]
    assert fires == [Fire("a1", "b1")]
    TURN.step(waived, Fire("a1", "b1"))
    with pytest.raises(IllegalActionError, match="the table measures this: whether every"):
        TURN.step(waived, Fire("a1", "b1", beyond_priority=True))
    with pytest.raises(IllegalActionError, match="fire over intervening troops"):
        TURN.step(waived, Fire("a1", "b2"))  # b1 stands between (and b2 is beyond reach)


def test_on_a_table_a_priority_target_within_reach_is_fired_on_first() -> None:
    # b2's nearest corner (372, 168) is hypot(72, 68) = 99.04 mm from the firer's centre:
    # within the rifle's 100 mm, as b1 is; b1 fired on a1 last period
    state = battle({FIRER: (300, 100, 0), foot("b1", B): (300, 180, 180),
                    foot("b2", B): (420, 180, 180)})
    assert shot_facts(state, "a1", "b2").range == 100
    first = at(state, FIRING, last_fired_on_by=(("a1", "b1"),))
    assert [a for a in TURN.legal_actions(first) if isinstance(a, Fire)] == [Fire("a1", "b1")]
    with pytest.raises(IllegalActionError, match="the table puts one within range and sight"):
        TURN.step(first, Fire("a1", "b2"))
    free = at(state, FIRING)  # no priority: either
    assert [a for a in TURN.legal_actions(free) if isinstance(a, Fire)] == [
        Fire("a1", "b1"), Fire("a1", "b2")]


def test_on_a_table_priority_2_is_the_nearest_enemy_that_fired_last_period() -> None:
    """Small arms and artillery fire: Target priorities 2, "nearest enemy firing on the unit
    last period" (issue 27; M36): b1 (68 mm) and b2 (100 mm) both fired on a1 and both are
    within the rifle's reach: a1 must fire on b1, the nearer."""
    state = battle({FIRER: (300, 100, 0), foot("b1", B): (300, 180, 180),
                    foot("b2", B): (420, 180, 180)})
    both = at(state, FIRING, last_fired_on_by=(("a1", "b2"), ("a1", "b1")))
    assert [a for a in TURN.legal_actions(both) if isinstance(a, Fire)] == [Fire("a1", "b1")]
    with pytest.raises(IllegalActionError, match="b1, the nearest enemy that fired on it"):
        TURN.step(both, Fire("a1", "b2"))
    # b1 out of sight behind a farm: b2 is the nearest a1 can fire on
    farm = Feature.rectangle("farm", "building", 300, 150, 40, 20)
    hidden = at(battle({FIRER: (300, 100, 0), foot("b1", B): (300, 180, 180),
                        foot("b2", B): (420, 180, 180)}, farm),
                FIRING, last_fired_on_by=(("a1", "b2"), ("a1", "b1")))
    assert [a for a in TURN.legal_actions(hidden) if isinstance(a, Fire)] == [Fire("a1", "b2")]


def test_a_target_far_off_to_the_side_is_outside_the_arc() -> None:
    # the target's corner nearest the arc, (452, 142), from the firer's front right corner
    # (348, 112): atan(104 / 30) = 73.9 degrees off the front, beyond 45
    state = facing_off(foot("b1", B), 130, 180, x=500)
    assert shot_facts(state, "a1", "b1").angle == 74
    with pytest.raises(IllegalActionError, match="74 degrees off the front"):
        TURN.step(at(state, FIRING), Fire("a1", "b1"))


def test_fire_from_the_flank() -> None:
    # the target faces right (90): its frontage runs along y (132 to 228), its right flank
    # towards the firer, whose centre is 32 mm from it
    shot = shot_facts(facing_off(foot("b1", B), 180, 90), "a1", "b1")
    assert (shot.range, shot.flank, shot.rear) == (32, True, False)
    rear = shot_facts(facing_off(foot("b1", B), 180, 0), "a1", "b1")
    assert (rear.flank, rear.rear) == (False, True)


def test_a_farm_between_blocks_sight() -> None:
    farm = Feature.rectangle("farm", "building", 300, 140, 60, 20)
    shot = shot_facts(facing_off(foot("b1", B), 180, 180, farm), "a1", "b1")
    assert not shot.sees and shot.blocked_by == ("farm",)
    with pytest.raises(IllegalActionError, match="cannot be seen.*farm"):
        TURN.step(at(facing_off(foot("b1", B), 180, 180, farm), FIRING), Fire("a1", "b1"))


def test_troops_in_dense_woods_are_seen_only_at_the_edge() -> None:
    # woods from y 160: the line of fire runs 8 mm inside them to the target's front edge
    edge = Feature.rectangle("woods", "dense woods", 300, 190, 200, 60)
    state = facing_off(foot("b1", B), 180, 180, edge)
    assert state.unit("b1").ground is Ground.DENSE_WOODS
    assert shot_facts(state, "a1", "b1").sees
    # woods from y 130: 38 mm inside, beyond the 20 mm of Visibility
    deep = Feature.rectangle("woods", "dense woods", 300, 180, 200, 100)
    assert not shot_facts(facing_off(foot("b1", B), 180, 180, deep), "a1", "b1").sees


def test_a_fence_close_in_front_is_cover() -> None:
    fence = Feature("fence", "fence", line=((200, 160), (400, 160)))  # 8 mm before b1
    state = facing_off(foot("b1", B), 180, 180, fence)
    assert state.unit("b1").ground is Ground.BEHIND_OBSTACLE
    assert state.unit("a1").ground is Ground.OPEN
    assert ground_of(state.extra.table, state.unit("b1")) is Ground.BEHIND_OBSTACLE  # type: ignore[arg-type]


def test_on_a_table_resting_weapons_is_measured() -> None:
    """Small arms and artillery fire: Tactical factors, "Resting weapons +1" (issue 27; M44):
    a1 standing still behind a fence 8 mm before its front rests its weapons; the player
    does not say so on a table; in the open, or once it has moved this period, it does not."""
    fence = Feature("fence", "fence", line=((200, 120), (400, 120)))
    state = at(facing_off(foot("b1", B), 180, 180, fence), FIRING)
    assert state.unit("a1").ground is Ground.BEHIND_OBSTACLE
    assert fire_facts(state, Fire("a1", "b1")).resting
    with pytest.raises(IllegalActionError, match="the table measures this: whether the firer"):
        TURN.step(state, Fire("a1", "b1", FireFacts(resting=True)))
    moved = with_extra(state, moved=frozenset({"a1"}))
    assert not fire_facts(moved, Fire("a1", "b1")).resting
    open_ = at(facing_off(foot("b1", B), 180, 180), FIRING)
    assert not fire_facts(open_, Fire("a1", "b1")).resting


def test_a_unit_draws_ammunition_only_within_reach_of_its_train() -> None:
    """Ammunition: the reserve is kept "in all ammunition train behind each corps" (issue 27;
    M10): on a table the train stands somewhere (by default 100 mm behind the middle of the
    corps) and a unit draws from it only with its outline within its full move (120 mm for
    a line) of the train."""
    def placed(y: float) -> State:
        unit = foot("a1", ammo=10)
        table = Table(600, 400, "mm", (), (footprint(unit, 300, y, 0),
                                           footprint(foot("b1", B), 300, 380, 180)),
                      home_edges={A: Edge.NEAR, B: Edge.FAR})
        return at(new_battle((A, B), (unit, foot("b1", B)), commanders(), table=table,
                             trains={"a-chief": (300, 20)}), MOVEMENT)

    far = placed(300)  # its rear edge at y 288: 268 mm from the train
    assert Resupply("a1") not in TURN.legal_actions(far)
    with pytest.raises(IllegalActionError, match="268 mm from its corps' ammunition train"):
        TURN.step(far, Resupply("a1"))
    near = placed(100)  # 68 mm
    after, _ = TURN.step(near, Resupply("a1"))
    assert after.unit("a1").ammo == after.unit("a1").full_ammo
    default = battle({foot("a1"): (300, 200, 0), foot("a2"): (100, 200, 0),
                      foot("b1", B): (300, 380, 180)})
    assert default.extra.trains == (("a-chief", 200.0, 100.0), ("b-chief", 300.0, 399.0))


def _cover_from_a1(b1_facing: float, fence_y: float) -> tuple[Ground, bool, bool]:
    """b1 (a line at (300, 180): y 168 to 192) with a fence across the table at ``fence_y``,
    fired on by a1 from (300, 100): b1's ground, whether the shot crosses the fence, and
    whether the fire counts "target in cover"."""
    fence = Feature("fence", "fence", line=((100, fence_y), (500, fence_y)))
    state = facing_off(foot("b1", B), 180, b1_facing, fence)
    shot = shot_facts(state, "a1", "b1")
    factor = fire_factor(state.unit("a1"), state.unit("b1"), shot.facts(), moved=False,
                         target_moved=False)
    return (state.unit("b1").ground, shot.across_obstacle,
            any(m.label == "target in cover" for m in factor.modifiers))


def test_a_fence_covers_only_against_fire_across_it() -> None:
    # b1 facing a1, the fence 8 mm before its front edge (y 168): the line of fire crosses it
    assert _cover_from_a1(180, 160) == (Ground.BEHIND_OBSTACLE, True, True)
    # b1 facing away, the fence 8 mm before its front edge (now y 192): a1 fires into its
    # rear (the line of fire ends at y 168) and the fence is not between them
    assert _cover_from_a1(0, 200) == (Ground.BEHIND_OBSTACLE, False, False)
    # b1 facing away, the fence 8 mm behind it on a1's side: not in front of it, but the fire
    # crosses it within 20 mm of b1
    assert _cover_from_a1(0, 160) == (Ground.OPEN, True, True)
    # a fence 38 mm out on the line of fire is too far from b1 (20 mm, 100 yards) to cover it
    assert _cover_from_a1(180, 130) == (Ground.OPEN, False, False)


def test_table_mode_fire_measures_and_narrates_the_range() -> None:
    state = at(facing_off(foot("b1", B)), FIRING)
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(state, Fire("a1", "b1", FireFacts(range=68)))
    assert Fire("a1", "b1") in TURN.legal_actions(state)
    after, events = TURN.step(state, Fire("a1", "b1"))
    assert any("at a measured 68 mm" in e.text and "at 68 mm" in e.text for e in events)
    assert after.extra.table.traces[-1].target == "b1"  # type: ignore[union-attr]
    far = at(facing_off(foot("b1", B), 260), FIRING)  # 148 mm: beyond the rifle's 100
    assert not any(isinstance(a, Fire) for a in TURN.legal_actions(far))
    with pytest.raises(IllegalActionError, match="148 mm is beyond"):
        TURN.step(far, Fire("a1", "b1"))


# --- charges --------------------------------------------------------------------------------
@pytest.mark.parametrize(("facing", "attack"), [(180, Attack.FRONT), (90, Attack.FLANK),
                                                 (0, Attack.REAR)])
def test_a_charge_measures_its_distance_and_the_face_struck(facing: float,
                                                           attack: Attack) -> None:
    target = foot("b1", B, formation=Formation.COLUMN)  # 48 x 48 mm: 156 to 204 either way
    facts = charge_facts(facing_off(target, 180, facing), "a1", "b1")
    assert (facts.distance, facts.attack, facts.reaches(120)) == (156 - 112, attack, True)


def test_no_charge_at_a_unit_not_to_the_front() -> None:
    state = at(facing_off(foot("b1", B), 130, 180, x=520), CHARGES)
    assert charge_facts(state, "a1", "b1").distance is None
    assert not any(isinstance(a, DeclareCharge) for a in TURN.legal_actions(state))
    with pytest.raises(IllegalActionError, match="not to a1's front"):
        TURN.step(state, DeclareCharge("a1", "b1"))


def test_a_charge_that_goes_in_reaches_contact() -> None:
    reached = 0
    for seed in range(12):
        state = at(battle({FIRER: (300, 100, 0), foot("b1", B): (300, 180, 180)}, seed=seed),
                   CHARGES)
        with pytest.raises(IllegalActionError, match="the table measures this"):
            TURN.step(state, DeclareCharge("a1", "b1", distance=56))
        state, events = TURN.step(state, DeclareCharge("a1", "b1"))
        assert any("charges b1 (56 mm)" in e.text for e in events)
        while state.phase != MELEE and not TURN.is_over(state):
            legal = TURN.legal_actions(state)
            tests = [a for a in legal if isinstance(a, TestMorale)]
            state, _ = TURN.step(state, tests[0] if tests else EndPhase())
        if any(c.attacker == "a1" for c in state.extra.contacts):
            reached += 1
            assert in_contact(state.extra.table, "a1", "b1")  # type: ignore[arg-type]
    assert reached


def _charged_then(target_at: tuple[float, float, float],
                  turn_to: tuple[float, float, float] | None) -> State:
    """a1 (Blue, a line at y 100 facing up the table) charges b1 in step 2; in step 3 b1
    turns (or moves) to ``turn_to``; the state in step 6 with Grey to test."""
    target = foot("b1", B)
    state = at(battle({FIRER: (300, 100, 0), target: target_at}), CHARGES)
    state, _ = TURN.step(state, DeclareCharge("a1", "b1"))  # +1 +1: always carries on
    while state.phase != MOVEMENT or state.extra.acting != B:
        state, _ = TURN.step(state, EndPhase())
    if turn_to is not None:
        manoeuvre = Manoeuvre.FACE if turn_to[:2] == target_at[:2] else Manoeuvre.NONE
        state, _ = TURN.step(state, Move("b1", manoeuvre=manoeuvre, to=turn_to, at=target_at))
    while state.phase != RECEIVE_TESTS or state.extra.acting != B:
        state, _ = TURN.step(state, EndPhase())
    return state


def test_a_target_that_turns_its_back_is_charged_in_the_rear() -> None:
    """Battle period 2-3 and 6-7; Morale and Melee: "attacked ... from the rear": the face a
    charge strikes is where it meets the target, not where the target stood when the charge
    was declared (issue 27, seed 21; M43). Experienced +1, rear -2 on the average die
    (2, 3, 3, 4, 4, 5): the 2 gives 1, a retreat, in the test to receive the charge."""
    state = _charged_then((300, 180, 180), (300, 180, 0))
    assert [c.attack for c in state.extra.charges] == [Attack.REAR]
    assert exact(state, TestMorale("b1", Circumstance.RECEIVING),
                 lambda s: s.unit("b1").status).probability(Status.RETREATING) == Fraction(1, 6)
    state, _ = TURN.step(state, TestMorale("b1", Circumstance.RECEIVING))
    while state.phase != MELEE:
        state, _ = TURN.step(state, EndPhase())
    assert [(c.attacker, c.attack) for c in state.extra.contacts] == [("a1", Attack.REAR)]
    assert "b1" in state.extra.rear
    facing = _charged_then((300, 180, 180), None)
    assert [c.attack for c in facing.extra.charges] == [Attack.FRONT]


def test_a_target_that_moved_out_of_reach_does_not_test_to_receive_the_charge() -> None:
    """Battle period 6: only a unit "standing to receive a charge" tests; a target that moved
    out of the charger's reach in step 3 is not charged any more (issue 27, default seed 17:
    214 mm from a charger that moves 200 mm; M43). a1's line moves 120 mm: b1's near edge
    at 112 + 100 is charged, then falls back 60 mm to 172 mm away."""
    state = _charged_then((300, 224, 180), (300, 284, 180))
    assert not any(isinstance(a, TestMorale) for a in TURN.legal_actions(state))
    assert [c.stopped for c in state.extra.charges] == [True]
    state, _ = TURN.step(state, EndPhase())
    assert state.phase == MELEE and not state.extra.contacts
    stays = _charged_then((300, 224, 180), None)
    assert TestMorale("b1", Circumstance.RECEIVING) in TURN.legal_actions(stays)


# --- moves ----------------------------------------------------------------------------------
RIVER = Feature("creek", "river", line=((0, 160), (600, 160)), width=20)  # y 150 to 170
FORD = Feature.rectangle("ford", "ford", 300, 160, 80, 40)  # y 140 to 180, x 260 to 340
COLUMN = foot("a1", formation=Formation.COLUMN)  # 48 x 48 mm, 200 mm a period


def mover(*features: Feature) -> State:
    return at(battle({COLUMN: (300, 100, 0), foot("b1", B): (300, 350, 180)}, *features),
              MOVEMENT)


def test_a_march_towards_and_past_the_enemy_is_an_advance() -> None:
    """Generalship: Activation, "may not voluntarily advance troops" (issue 27; M34): a
    column (y 76 to 124) whose commander holds marches 200 mm up the gap between b1 and b2
    (x 152 to 248 and 352 to 448, y 138 to 162): it ends 117 mm from them, further than the
    31 mm it started, but passes 28 mm from each: an advance, refused."""
    state = battle({COLUMN: (300, 100, 0), foot("b1", B): (200, 150, 180),
                    foot("b2", B): (400, 150, 180)})
    held = state.with_commanders(*(attrs.evolve(c, order=attrs.evolve(
        c.order, kind=OrderKind.HOLD)) for c in state.commanders))
    held = at(held, MOVEMENT)
    facts = move_facts(held, held.unit("a1"), (300, 300, 0), Manoeuvre.NONE, False, "m")
    assert (facts.distance, facts.advancing) == (200, False)  # it ends further off
    with pytest.raises(IllegalActionError, match="forbid advancing"):
        TURN.step(held, Move("a1", to=(300, 300, 0)))
    assert Move("a1", to=(300, 300, 0), at=(300, 100, 0)) not in TURN.legal_actions(held)
    TURN.step(held, Move("a1", to=(300, 50, 0)))  # straight back: no advance
    free = at(state, MOVEMENT)
    after, _ = TURN.step(free, Move("a1", to=(300, 300, 0)))
    assert "a1" in after.extra.advanced


def test_a_river_is_crossed_only_at_the_ford() -> None:
    state = mover(RIVER)
    with pytest.raises(ImpassableError, match="creek \\(river\\) is impassable") as error:
        TURN.step(state, Move("a1", to=(300, 220, 0)))
    assert error.value.feature == "creek"
    state = mover(RIVER, FORD)
    # 40 mm open, 40 mm of ford at half rate (80), 40 mm open: 160 of the column's 200
    facts = move_facts(state, state.unit("a1"), (300, 220, 0), Manoeuvre.NONE, False, "m")
    assert (facts.distance, facts.cost, facts.advancing) == (120, 160, True)
    assert move_facts(state, state.unit("a1"), (300, 260, 0), Manoeuvre.NONE, False,
                      "m").cost == 200
    with pytest.raises(IllegalActionError, match="costs 201 mm"):
        TURN.step(state, Move("a1", to=(300, 261, 0)))
    with pytest.raises(ImpassableError, match="creek"):  # beside the ford
        TURN.step(state, Move("a1", to=(420, 220, 0)))


def test_a_move_to_a_destination_places_and_narrates_it() -> None:
    state = mover(RIVER, FORD)
    after, events = TURN.step(state, Move("a1", to=(300, 220, 0)))
    fp = after.extra.table.footprint("a1")  # type: ignore[union-attr]
    assert fp.centre == (300, 220) and after.unit("a1").id in after.extra.advanced
    assert any("advances 120 mm to (300.0, 220.0), facing 0°" in e.text for e in events)
    assert after.extra.table.traces[-1].path == ((300, 100), (300, 220))  # type: ignore[union-attr]


def test_table_mode_moves_carry_no_measured_facts() -> None:
    state = mover()
    with pytest.raises(IllegalActionError, match="names its destination"):
        TURN.step(state, Move("a1", 100))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(state, Move("a1", to=(300, 150, 0), ends_in=Ground.COVER))
    with pytest.raises(IllegalActionError, match="change of face"):
        TURN.step(state, Move("a1", to=(300, 150, 90)))
    with pytest.raises(IllegalActionError, match="through or onto b1"):
        TURN.step(state, Move("a1", to=(300, 330, 0), double=True))
    with pytest.raises(IllegalActionError, match="no longer stands"):
        TURN.step(state, Move("a1", to=(300, 150, 0), at=(0, 0, 0)))
    offered = [a for a in TURN.legal_actions(state) if isinstance(a, Move) and a.to]
    assert offered and all(a.at == (300, 100, 0) for a in offered)
    for move in offered:
        TURN.step(state, move)  # every destination offered is accepted


def test_without_a_table_a_move_names_no_destination() -> None:
    state = at(new_battle((A, B), (FIRER, foot("b1", B)), commanders()), MOVEMENT)
    with pytest.raises(IllegalActionError, match="no table"):
        TURN.step(state, Move("a1", to=(1, 2, 0)))


# --- generals on the table -----------------------------------------------------------------
def riders() -> State:
    """The Blue chief alone at (20, 20); the Blue division's general with a1 at (100, 100);
    a2 at (500, 100), a3 at (550, 385): step 3, Blue acting."""
    units = (foot("a1"), foot("a2"), foot("a3"), foot("b1", B))
    where = {"a1": (100, 100, 0), "a2": (500, 100, 0), "a3": (550, 385, 180),
             "b1": (100, 300, 180)}
    generals = tuple(attrs.evolve(c, attached_to="a1") if c.id == "a-div" else c
                     for c in commanders())
    marks = (CommanderMark("a-chief", 20, 20, side=A), CommanderMark("a-div", attached_to="a1",
                                                                      side=A))
    table = Table(600, 400, "mm", (), tuple(footprint(u, *where[u.id]) for u in units), marks)
    return at(new_battle((A, B), units, generals, table=table), MOVEMENT)


def test_on_a_table_a_general_rides_to_units_within_600_mm_of_where_he_is() -> None:
    state = riders()
    rides = [a for a in TURN.legal_actions(state) if isinstance(a, MoveGeneral)]
    # the chief: a1 hypot(80, 80) = 113.1, a2 hypot(480, 80) = 486.6, a3 hypot(530, 365) =
    # 643.5 (beyond 600); the division's general from a1: a2 400, a3 hypot(450, 285) = 532.7
    assert rides == [MoveGeneral("a-chief", "a1"), MoveGeneral("a-chief", "a2"),
                     MoveGeneral("a-div", "a2"), MoveGeneral("a-div", "a3"),
                     MoveGeneral("a-div", "")]
    with pytest.raises(IllegalActionError, match="a3 is 644 mm from Blue chief: a general"):
        TURN.step(state, MoveGeneral("a-chief", "a3"))
    with pytest.raises(IllegalActionError, match="the table measures this: the ride"):
        TURN.step(state, MoveGeneral("a-div", "a2", 300))
    after, events = TURN.step(state, MoveGeneral("a-div", "a3"))
    assert "rides 533 mm to a3" in events[0].text
    table = after.extra.table
    assert table is not None and table.commander("a-div").attached_to == "a3"
    alone, events = TURN.step(state, MoveGeneral("a-div", ""))
    assert events[0].text == "Blue division leaves a1 and stays where he is"
    mark = alone.extra.table.commander("a-div")  # type: ignore[union-attr]
    assert (mark.attached_to, mark.x, mark.y) == (None, 100, 100)  # where he left a1


def test_the_embedded_tables_carry_every_general() -> None:
    from smoothbore.mckie_acw.scenarios import example_battle
    state = example_battle(0)
    table = state.extra.table
    assert table is not None
    marks = {m.commander_id: m for m in table.commanders}
    assert set(marks) == {c.id for c in state.commanders}
    assert all(marks[c.id].attached_to == (c.attached_to or None) for c in state.commanders)


# --- snipers picking out generals ----------------------------------------------------------
SNIPER = foot("s", weapon=Weapon.SNIPER_RIFLE, figures=1, formation=Formation.SKIRMISH)
"""One sniper figure (a 12 x 12 mm base) at (300, 100) facing 0: front edge y = 106."""


def sniping(b1_y: float, chief: tuple[float, float], *features: Feature) -> State:
    """The sniper; b1 (a line, 96 x 24 mm) at (300, ``b1_y``) facing it with the Grey
    division's general; the Grey chief alone at ``chief``; firing, Blue acting."""
    units = (SNIPER, foot("b1", B))
    where = {"s": (300, 100, 0), "b1": (300, b1_y, 180)}
    generals = tuple(attrs.evolve(c, attached_to="b1") if c.id == "b-div" else c
                     for c in commanders())
    marks = (CommanderMark("b-chief", *chief, side=B),
             CommanderMark("b-div", attached_to="b1", side=B))
    table = Table(600, 400, "mm", features, tuple(footprint(u, *where[u.id]) for u in units),
                  marks)
    state = new_battle((A, B), units, generals, table=table, army_figures=(200, 16),
                       options=Options(snipers=True), scenario=Scenario("test", turn_limit=6))
    return at(state, FIRING)


def _picks(state: State) -> set[str]:
    return {a.general for a in TURN.legal_actions(state) if isinstance(a, PickOffGeneral)}


def test_a_sniper_measures_to_the_general_with_a_unit_from_its_centre() -> None:
    # the division's general stands at b1's centre (300, 250): 150 mm from the sniper's
    # centre (b1's nearest point is 138 mm away); the chief at (300, 340): 240 mm, in reach
    state = sniping(250, (300, 340))
    assert _picks(state) == {"b-div", "b-chief"}
    _, events = TURN.step(state, PickOffGeneral("s", "b-div"))
    assert "s pick out Grey division (with b1) at 150 mm" in events[0].text
    _, events = TURN.step(state, PickOffGeneral("s", "b-chief"))
    assert "s pick out Grey chief (alone) at 240 mm" in events[0].text
    # b1 at y 345: its nearest point 233 mm away, but the general at its centre 245 mm,
    # beyond the sniper rifle's 240; the chief at (300, 346) 246 mm
    far = sniping(345, (300, 346))
    assert _picks(far) == set()
    with pytest.raises(IllegalActionError, match="Grey division is not where the sniper"):
        TURN.step(far, PickOffGeneral("s", "b-div"))


def test_a_sniper_picks_out_a_general_alone_in_arc_and_in_sight() -> None:
    # the chief at (420, 200): 94 mm ahead of the front edge (y 106), 114 mm to the right of
    # its right end (x 306): outside the 45-degree arc (94 mm at most)
    assert "b-chief" not in _picks(sniping(250, (420, 200)))
    state = sniping(250, (380, 200))  # 74 mm out: in the arc, hypot(80, 100) = 128.1 mm
    _, events = TURN.step(state, PickOffGeneral("s", "b-chief"))
    assert "s pick out Grey chief (alone) at 129 mm" in events[0].text
    # behind a farm building on the line between them: not seen
    farm = Feature.rectangle("farm", "building", 340, 150, 20, 20)
    hidden = sniping(250, (380, 200), farm)
    assert "b-chief" not in _picks(hidden)
    with pytest.raises(IllegalActionError, match="Grey chief is not where the sniper"):
        TURN.step(hidden, PickOffGeneral("s", "b-chief"))


def test_without_marks_a_general_is_placed_only_with_his_unit() -> None:
    state = sniping(250, (300, 340))
    table = state.extra.table
    assert table is not None
    bare = attrs.evolve(table, commanders=())
    chief, division = state.commander("b-chief"), state.commander("b-div")
    assert (general_point(bare, division), general_point(bare, chief)) == ((300, 250), None)
    unmarked = with_extra(state, table=bare)
    assert _picks(unmarked) == {"b-div"}
    with pytest.raises(IllegalActionError, match="Grey chief is not where the sniper"):
        TURN.step(unmarked, PickOffGeneral("s", "b-chief"))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(state, PickOffGeneral("s", "b-div", range=150))


# --- friends routing past ------------------------------------------------------------------
def routed_near(*features: Feature) -> State:
    """a1 steady at y 100; a2 routed with its outline 126 mm off a1's (y 238-262 against
    88-112), a3 routed 226 mm off (beyond 200): step 8, Blue acting."""
    a2 = foot("a2", status=Status.ROUTING)
    a3 = foot("a3", status=Status.ROUTING)
    state = battle({FIRER: (300, 100, 0), a2: (300, 250, 0), a3: (300, 350, 0),
                    foot("b1", B): (100, 380, 180)}, *features)
    return at(state, MORALE_STEP, routed=frozenset({"a2", "a3"}))


def test_on_a_table_friends_routing_past_are_counted_within_200_mm_in_sight() -> None:
    state = routed_near()
    tests = [a for a in TURN.legal_actions(state) if isinstance(a, TestMorale)]
    assert tests == [TestMorale("a1", Circumstance.FRIEND_ROUTED)]
    assert routing_past(state, state.unit("a1")) == 1
    plain = at(new_battle((A, B), state.units, commanders()), MORALE_STEP,
               routed=frozenset({"a2", "a3"}))  # no table: the player counts

    def status(s: State) -> Status:
        return s.unit("a1").status

    measured = exact(state, tests[0], status)
    assert measured == exact(plain, TestMorale("a1", Circumstance.FRIEND_ROUTED, 1), status)
    assert measured != exact(plain, TestMorale("a1", Circumstance.FRIEND_ROUTED, 2), status)
    with pytest.raises(IllegalActionError, match="the table measures this: the friends"):
        TURN.step(state, TestMorale("a1", Circumstance.FRIEND_ROUTED, 2))


def test_on_a_table_a_friend_routing_out_of_sight_is_not_counted() -> None:
    farm = Feature.rectangle("farm", "building", 300, 175, 200, 20)  # between a1 and a2
    state = routed_near(farm)
    assert not [a for a in TURN.legal_actions(state) if isinstance(a, TestMorale)]
    with pytest.raises(IllegalActionError, match="no friendly unit routed past a1"):
        TURN.step(state, TestMorale("a1", Circumstance.FRIEND_ROUTED))


def test_on_a_table_the_friend_routed_test_is_compulsory_in_step_8() -> None:
    """Morale: when to test, 5 ("when a friendly unit routs past within 200mm") and Battle
    period 8: a test the table finds due cannot be skipped by ending the step (issue 27,
    sharpshooters seed 21)."""
    state = routed_near()
    with pytest.raises(IllegalActionError, match="every compulsory morale test"):
        TURN.step(state, EndPhase())
    after, _ = TURN.step(state, TestMorale("a1", Circumstance.FRIEND_ROUTED))
    TURN.step(after, EndPhase())  # taken: the step may end


def test_on_a_table_friends_routing_past_count_in_a_rally_too() -> None:
    """Morale: Tactical factors, "each friendly unit in sight routing past within 200mm: -1"
    is a factor of every test, not only of the test for friends routing past (M42): a raw
    unit rallying from retreat with one router 126 mm off (the other 226 mm) takes -1.
    Raw (0), retreating -2, one router -1 on the average die (2, 3, 3, 4, 4, 5): -1 routs
    (1 in 6), 0 or 1 retreat (4 in 6), 2 halts, which rallies it (1 in 6)."""
    raw = foot("a1", quality=Quality.RAW, status=Status.RETREATING)
    state = at(battle({raw: (300, 100, 0), foot("a2", status=Status.ROUTING): (300, 250, 0),
                       foot("a3", status=Status.ROUTING): (300, 350, 0),
                       foot("b1", B): (100, 380, 180)}),
               MORALE_STEP, routed=frozenset({"a2", "a3"}))
    rally = TestMorale("a1", Circumstance.RALLY)
    assert rally in TURN.legal_actions(state)
    dist = exact(state, rally, lambda s: s.unit("a1").status)
    assert dist.probability(Status.ROUTING) == Fraction(1, 6)
    assert dist.probability(Status.STEADY) == Fraction(1, 6)
    with pytest.raises(IllegalActionError, match="the table measures this: the friends"):
        TURN.step(state, TestMorale("a1", Circumstance.RALLY, 1))


# --- whole battles on the embedded tables -----------------------------------------------
REACH = {"muzzle-loading-rifle": 100, "smoothbore-musket": 40, "repeating-rifle": 60,
         "12lb-smoothbore-gun": 320, "3in-rodman-rifle": 370, "sniper-rifle": 240}


def test_random_battles_on_the_tables_move_shoot_in_reach_and_charge_home() -> None:
    # ten battles on each table; then more, ten at a time, until a charge goes home and is
    # fought in contact (few random battles charge: about one in ten)
    melees = sum(_random_battles(name, range(10)) for name in ("default", "sharpshooters"))
    for first in (10, 20, 30):
        if melees:
            break
        melees += sum(_random_battles(name, range(first, first + 10))
                      for name in ("default", "sharpshooters"))
    assert melees


def _random_battles(name: str, seeds: range) -> int:
    """Seeded random battles on a table: units move, every shot is measured within its
    weapon's reach, every melee of a charge is fought in contact; the melees fought."""
    from smoothbore.battle import play, random_policy
    from smoothbore.mckie_acw import RULESET

    make = dict(RULESET.battles())[name]
    moved = shots = melees = 0
    for seed in seeds:
        start = make(seed)
        assert not any(isinstance(a, Fire) for a in _firing_offers(start))
        played = play(TURN, start, random_policy(seed))
        assert played.finished and played.outcome is not None
        before, after = start.extra.table, played.end.extra.table
        assert before is not None and after is not None
        moved += sum(1 for uid in after.units
                     if after.footprint(uid).centre != before.footprint(uid).centre)
        state = start
        for step in played.steps:
            if isinstance(step.action, Fire):
                weapon = start.unit(step.action.firer).weapon.value
                found = [int(m) for e in step.events
                         for m in re.findall(r"at a measured (\d+) mm", e.text)]
                assert found and found[0] <= REACH[weapon]
                shots += 1
            if isinstance(step.action, Melee) and step.action.attacker in (
                    c.charger for c in state.extra.charges):
                table = state.extra.table
                assert table is not None
                if in_contact(table, step.action.attacker, step.action.defender):
                    melees += 1
                else:  # the target moved out of the charger's front since (M33): it stays
                    assert into_contact(state, step.action.attacker,
                                        step.action.defender) is state
            state, _ = TURN.step(state, step.action)
        assert state == played.end
    assert moved and shots
    return melees


def _firing_offers(state: State) -> tuple[Any, ...]:
    """The fire offered to either side at the start (none: the lines are out of reach)."""
    import attrs

    return tuple(a for side in state.sides for a in TURN.legal_actions(state.replace(
        phase=FIRING, extra=attrs.evolve(state.extra, first=side, acting=side,
                                         initiative=side))))


# --- compulsory moves -----------------------------------------------------------------------
def _broken(status: Status) -> State:
    state = battle({FIRER: (300, 100, 0), foot("b1", B): (300, 330, 180),
                    foot("b2", B): (520, 330, 180)})
    return at(state.with_units(changed(state.unit("b1"), status=status)), COMPULSORY, B)


def test_a_rout_runs_away_from_the_enemy_it_sees_and_off_the_table() -> None:
    state = _broken(Status.ROUTING)
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(state, CompulsoryMove("b1", off_table=True))
    assert TURN.legal_actions(state)[0] == CompulsoryMove("b1")
    # straight away from a1 (heading 0) 120 mm: from y 330 to 450, past the 400 mm edge
    after, events = TURN.step(state, CompulsoryMove("b1"))
    assert after.unit("b1").status is Status.OFF_TABLE
    assert "b1" not in after.extra.table.units  # type: ignore[union-attr]
    assert any("off the table" in e.text for e in events)


def test_a_retreat_backs_away_still_facing_and_stops_at_the_edge() -> None:
    after, _ = TURN.step(_broken(Status.RETREATING), CompulsoryMove("b1"))
    fp = after.extra.table.footprint("b1")  # type: ignore[union-attr]
    # 24 mm deep: it stops with its rear on the far edge, its centre at y 388, facing a1
    assert (fp.x, round(fp.y, 6), fp.facing) == (300, 388, 180)
    assert after.unit("b1").status is Status.RETREATING


def test_a_retreat_that_would_end_on_a_friend_stops_short_of_it() -> None:
    # b1 (24 mm deep) retreats 120 mm from y 200 towards y 320; b2 stands across its way
    # at y 288 to 312: b1 stops with its rear edge on b2's front edge, centre at y 276
    state = battle({FIRER: (300, 100, 0), foot("b1", B, status=Status.RETREATING):
                    (300, 200, 180), foot("b2", B): (300, 300, 180)})
    after, events = TURN.step(at(state, COMPULSORY, B), CompulsoryMove("b1"))
    fp = after.extra.table.footprint("b1")  # type: ignore[union-attr]
    assert (fp.x, fp.y, fp.facing) == pytest.approx((300, 276, 180), abs=1e-6)
    name = state.unit("b2").name
    assert events[0].text.endswith(f"retreats 76 mm to (300.0, 276.0), facing 180°, stopped "
                                   f"short of {name}, not to end on it")


def test_a_destination_is_three_numbers() -> None:
    with pytest.raises(InvalidValueError, match="Move.to"):
        Move("a1", to=(1.0, 2.0))  # type: ignore[arg-type]


@pytest.mark.parametrize("where", [
    (1.0, 2.0, math.inf), (math.nan, 2.0, 0.0), (1.0, -math.inf, 0.0), (1, 2, math.nan),
    (True, 2.0, 0.0), (1.0, "2", 0.0), [1.0, 2.0, 0.0]])
def test_a_destination_and_a_start_are_three_finite_numbers(where: object) -> None:
    for name in ("to", "at"):
        with pytest.raises(InvalidValueError, match=f"Move.{name}"):
            Move("a1", **{name: where})  # type: ignore[arg-type]
    assert Move("a1", to=(1.0, 2.5, 359.0), at=(1, 2, 0)).at == (1, 2, 0)


# --- charges over the ground ------------------------------------------------------------------
def charger_and(target_y: float, *features: Feature, charger: Unit = COLUMN) -> State:
    """A charger at (300, 100) facing 0 and b1, a line facing it at (300, ``target_y``)."""
    return at(battle({charger: (300, 100, 0), foot("b1", B): (300, target_y, 180),
                      foot("b2", B): (540, 380, 180)}, *features), CHARGES)


def test_a_charge_crosses_a_river_only_at_a_ford() -> None:
    # the column's front edge y = 124, b1's front edge y = 188: 64 mm, across the creek
    state = charger_and(200, RIVER)
    assert charge_facts(state, "a1", "b1").distance == 64
    assert DeclareCharge("a1", "b1") not in TURN.legal_actions(state)
    with pytest.raises(ImpassableError, match="creek \\(river\\) is impassable"):
        TURN.step(state, DeclareCharge("a1", "b1"))
    # at the ford: 40 mm open, 36 mm of ford at half rate (72): 112 of the column's 200
    forded = charger_and(200, RIVER, FORD)
    assert DeclareCharge("a1", "b1") in TURN.legal_actions(forded)


def test_a_charge_pays_rough_ground_and_cavalry_keep_out_of_dense_woods() -> None:
    # a line (a move of 120 mm, front edge y = 112) charges b1 100 mm off (front edge 212):
    # its centre goes 100 mm, all in rough ground at half rate: 200 > 120
    rough = Feature.rectangle("scrub", "rough ground", 300, 200, 400, 200)
    state = charger_and(224, rough, charger=FIRER)
    assert charge_facts(state, "a1", "b1").distance == 100
    with pytest.raises(IllegalActionError, match="the route costs 200 mm of a1's move"):
        TURN.step(state, DeclareCharge("a1", "b1"))
    assert DeclareCharge("a1", "b1") in TURN.legal_actions(charger_and(224, charger=FIRER))
    woods = Feature.rectangle("copse", "dense woods", 300, 160, 400, 40)  # y 140 to 180
    horse = foot("a1", arm=Arm.CAVALRY, weapon=Weapon.BREECH_LOADING_RIFLE,
                 mounted=True)
    with pytest.raises(ImpassableError, match="copse"):
        TURN.step(charger_and(224, woods, charger=horse), DeclareCharge("a1", "b1"))
    assert DeclareCharge("a1", "b1") in TURN.legal_actions(charger_and(224, charger=horse))


def test_a_retreat_is_slowed_by_dense_woods_and_stopped_by_a_river() -> None:
    # b1 retreats a full move (120 mm) straight away from a1, still facing it, from y = 200:
    # 50 mm open to the woods' edge at y = 250, then 70 mm of move buys 35 mm at half rate
    woods = Feature.rectangle("copse", "dense woods", 300, 300, 200, 100)  # y 250 to 350
    state = battle({FIRER: (300, 100, 0), foot("b1", B, status=Status.RETREATING):
                    (300, 200, 180), foot("b2", B): (520, 330, 180)}, woods)
    after, events = TURN.step(at(state, COMPULSORY, B), CompulsoryMove("b1"))
    fp = after.extra.table.footprint("b1")  # type: ignore[union-attr]
    assert (fp.x, fp.y, fp.facing) == pytest.approx((300, 285, 180), abs=0.01)
    assert "retreats 85 mm" in events[0].text and "slowed by the ground" in events[0].text
    # a river at y 250 to 270 (no ford): the centre stops on its bank, 50 mm back
    river = Feature("creek", "river", line=((0, 260), (600, 260)), width=20)
    state = battle({FIRER: (300, 100, 0), foot("b1", B, status=Status.RETREATING):
                    (300, 200, 180), foot("b2", B): (520, 330, 180)}, river)
    after, _ = TURN.step(at(state, COMPULSORY, B), CompulsoryMove("b1"))
    fp = after.extra.table.footprint("b1")  # type: ignore[union-attr]
    assert fp.y == pytest.approx(250, abs=0.01)
