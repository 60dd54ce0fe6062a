"""steps_firing.py: who fires, target priorities, casualties held for one roll at the end of
the step, counter-battery, the risk to generals once a step, snipers; exact by enumeration."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from smoothbore.battle import play, random_policy
from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import EndPhase, Fire, PickOffGeneral
from smoothbore.mckie_acw.firing import FireFacts
from smoothbore.mckie_acw.options import Options
from smoothbore.mckie_acw.phases import CHARGER_TESTS, FIRING
from smoothbore.mckie_acw.scenarios import example_battle
from smoothbore.mckie_acw.state import Charge
from smoothbore.mckie_acw.tables import DEFAULT_TABLES, Cell
from smoothbore.mckie_acw.units import Fate, Formation, Quality, Weapon

from .support import A, B, at, battle, exact, foot, guns


def test_two_sources_are_added_then_one_roll_decides_the_extra_figure() -> None:
    # each rifled line: 8 front-rank figures at factor 5 -> 0/80; together 1/60 (M9)
    state = at(battle(), FIRING, acting=A)
    state, _ = TURN.step(state, Fire("a1", "b1"))
    state, _ = TURN.step(state, Fire("a2", "b1"))
    assert state.extra.pending == (("b1", Cell(1, 60)),)
    state, _ = TURN.step(state, EndPhase())  # Grey's turn to fire
    assert state.extra.acting == B
    dist = exact(state, EndPhase(), lambda s: s.unit("b1").figures)
    assert dist.probability(14) == Fraction(60, 100)
    assert dist.probability(15) == Fraction(40, 100)
    after, _ = TURN.step(state, EndPhase())
    assert after.phase == CHARGER_TESTS and after.extra.pending == ()


def test_firing_costs_rounds_and_an_effort_point_once_a_period() -> None:
    state = at(battle(), FIRING)
    state, _ = TURN.step(state, Fire("a1", "b1"))
    a1 = state.unit("a1")
    assert (a1.ammo, a1.effort) == (96 - 8, 1)
    with pytest.raises(IllegalActionError, match="may not fire now"):
        TURN.step(state, Fire("a1", "b2"))


def test_a_unit_short_of_rounds_is_offered_fewer_figures() -> None:
    state = at(battle(foot("a1", ammo=3), foot("b1", B)), FIRING)
    (fire,) = [a for a in TURN.legal_actions(state) if isinstance(a, Fire)]
    assert fire.facts.figures == 3
    with pytest.raises(IllegalActionError, match="3 rounds left"):
        TURN.step(state, Fire("a1", "b1"))


def test_a_charging_unit_does_not_fire() -> None:
    state = at(battle(), FIRING, charges=(Charge("a1", "b1"),))
    assert not any(isinstance(a, Fire) and a.firer == "a1" for a in TURN.legal_actions(state))
    with pytest.raises(IllegalActionError, match="may not fire"):
        TURN.step(state, Fire("a1", "b1"))


def test_a_charger_must_be_fired_on_first() -> None:
    state = at(battle(), FIRING, acting=B, charges=(Charge("a1", "b1"),))
    fires = [a for a in TURN.legal_actions(state) if isinstance(a, Fire) and a.firer == "b1"]
    assert [f.target for f in fires] == ["a1"]
    with pytest.raises(IllegalActionError, match="fired on first"):
        TURN.step(state, Fire("b1", "a2", beyond_priority=True))
    with pytest.raises(IllegalActionError, match="higher priority"):
        TURN.step(state, Fire("b1", "a2"))


def test_last_periods_firer_is_priority_two_and_may_be_waived() -> None:
    state = at(battle(), FIRING, acting=B, last_fired_on_by=(("b1", "a2"),))
    with pytest.raises(IllegalActionError, match="higher priority"):
        TURN.step(state, Fire("b1", "a1"))
    TURN.step(state, Fire("b1", "a1", beyond_priority=True))
    with pytest.raises(IllegalActionError, match="highest priority"):
        TURN.step(state, Fire("b1", "a2", beyond_priority=True))


def test_only_a_target_that_moved_position_counts_as_moved() -> None:
    state = at(battle(), FIRING, moved=frozenset({"b1", "b2"}), shifted=frozenset({"b2"}))
    a, _ = TURN.step(state, Fire("a1", "b1"))
    b, _ = TURN.step(state, Fire("a1", "b2"))
    assert a.extra.pending == (("b1", Cell(0, 80)),)  # factor 5: faced, not moved
    assert b.extra.pending == (("b2", Cell(0, 64)),)  # factor 4: moved position -1


def test_a_general_runs_the_risk_once_a_step() -> None:
    generals = tuple(attrs.evolve(c, attached_to="b1") if c.id == "b-div" else c
                     for c in battle().commanders)
    state = at(battle(generals=generals), FIRING)
    dist = exact(state, Fire("a1", "b1"), lambda s: s.commander("b-div").fate)
    assert dist.probability(Fate.KILLED) == Fraction(1, 10)
    assert dist.probability(Fate.WOUNDED) == Fraction(2, 10)
    dice_free = exact(state, Fire("a1", "b1"), lambda s: "b-div" in s.extra.risked)
    assert dice_free.probability(True) == 1
    thrown = at(battle(generals=generals), FIRING, risked=frozenset({"b-div"}))
    _, events = TURN.step(thrown, Fire("a1", "b1"))
    assert not any(e.kind == "general" for e in events)


def test_counter_battery_on_a_battery_fired_on_by_guns() -> None:
    state = at(battle(guns("ag"), guns("bg", B)), FIRING)
    # canister 8 at the nearest band, -2 on unlimbered artillery: final factor 6
    row = DEFAULT_TABLES.counter_battery_row(6)
    assert row is not None
    oracle: dict[int, Fraction] = {}
    for face in range(1, 11):
        left = 20 - row.pieces(face)
        oracle[left] = oracle.get(left, Fraction(0)) + Fraction(1, 10)
    dist = exact(state, Fire("ag", "bg"), lambda s: s.unit("bg").pieces)
    assert {p: dist.probability(p) for p in dist.outcomes} == oracle
    assert len(oracle) > 1


def test_snipers_pick_off_generals_only_with_the_option() -> None:
    sniper = foot("s", weapon=Weapon.SNIPER_RIFLE, figures=1, formation=Formation.SKIRMISH,
                  quality=Quality.VETERAN)
    units = (sniper, *(foot(f"a{i}", figures=20) for i in range(10)), foot("b1", B))
    plain = at(battle(*units), FIRING)
    with pytest.raises(IllegalActionError, match="optional rule"):
        TURN.step(plain, PickOffGeneral("s", "b-div"))
    state = at(battle(*units, options=Options(snipers=True)), FIRING)
    assert PickOffGeneral("s", "b-div") in TURN.legal_actions(state)
    dist = exact(state, PickOffGeneral("s", "b-div"), lambda s: s.commander("b-div").fate)
    assert dist.probability(Fate.ACTIVE) == Fraction(7, 10)
    with pytest.raises(IllegalActionError, match="beyond the sniper rifle"):
        TURN.step(state, PickOffGeneral("s", "b-div", range=2000))


def test_facts_out_of_reach_are_refused() -> None:
    state = at(battle(), FIRING)
    with pytest.raises(IllegalActionError, match="beyond"):
        TURN.step(state, Fire("a1", "b1", FireFacts(range=101)))


def test_the_generals_marks_change_no_fire_offered() -> None:
    # random battles replayed on their table without the generals' marks (M38): at every
    # firing step the same fire is offered, and each battle ends the same; battles are
    # played until four firing steps have offered fire (few random battles come to fire)
    offered = battles = 0
    for seed in range(20):
        start = example_battle(seed)
        assert start.extra.table is not None and start.extra.table.commanders
        played = play(TURN, start, random_policy(seed))
        bare = start.with_extra(table=attrs.evolve(start.extra.table, commanders=()))
        marked = start
        for step in played.steps:
            if marked.phase == FIRING:
                fire = {a for a in TURN.legal_actions(marked) if isinstance(a, Fire)}
                assert fire == {a for a in TURN.legal_actions(bare) if isinstance(a, Fire)}
                offered += bool(fire)
            marked, _ = TURN.step(marked, step.action)
            bare, _ = TURN.step(bare, step.action)
        assert bare.units == marked.units == played.end.units
        battles += 1
        if offered >= 4:
            break
    assert offered >= 4 and battles >= 2


def test_without_a_table_a_unit_that_moved_does_not_rest_its_weapons() -> None:
    """Small arms and artillery fire: Tactical factors, "Resting weapons +1" (issue 27; M44):
    the player says so without a table, but not for a unit that moved or manoeuvred this
    period (the state knows it moved)."""
    resting = Fire("a1", "b1", FireFacts(range=60, resting=True))
    still = at(battle(), FIRING)
    TURN.step(still, resting)
    moved = at(battle(), FIRING, moved=frozenset({"a1"}))
    with pytest.raises(IllegalActionError, match="moved or manoeuvred this period"):
        TURN.step(moved, resting)
