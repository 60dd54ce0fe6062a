"""victory.py: who acts, when the battle ends, the scores and the battle-loss breakdown."""

from __future__ import annotations

import attrs

from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.phases import FIRING, INITIATIVE
from smoothbore.mckie_acw.units import Status
from smoothbore.mckie_acw.victory import casualties, day_breakdown, figures_lost, scores

from .support import A, B, at, battle, foot, guns


def test_who_acts() -> None:
    state = battle()
    assert state.phase == INITIATIVE and TURN.to_act(state) is None
    assert TURN.to_act(state.with_extra(initiative=B)) == B
    assert TURN.to_act(at(state, FIRING, acting=B)) == B
    assert TURN.to_act(at(state, FIRING, follow=("a1", "b1"))) == A


def test_the_limit_ends_the_battle_and_losses_decide() -> None:
    state = battle(foot("a1", figures=10, initial_figures=16), guns("ag", pieces=10),
                   foot("b1", B, figures=12, initial_figures=16))
    assert figures_lost(state, A) == 6 + 2 and figures_lost(state, B) == 4
    assert scores(state) == ((A, 4), (B, 8))
    over = state.replace(turn=7)
    assert TURN.is_over(over) and not TURN.is_over(state)
    result = TURN.outcome(over)
    assert result.winner == B and "6 periods are played" in result.reason
    assert "Blue lost 90 dead, 210 badly wounded, 300 slightly wounded" in result.reason


def test_equal_scores_are_a_draw_and_a_broken_side_loses_at_once() -> None:
    state = battle().replace(turn=7)
    assert TURN.outcome(state).winner is None
    broken = battle().with_units(*(attrs.evolve(u, status=Status.ROUTING)
                                   for u in battle().units_of(B)))
    assert TURN.is_over(broken) and TURN.outcome(broken).winner == A


def test_prisoners_are_not_casualties() -> None:
    state = battle(foot("a1"), foot("b1", B, figures=0, initial_figures=10,
                                    status=Status.SURRENDERED), foot("b2", B))
    state = state.with_extra(prisoners=((A, 10),))
    assert figures_lost(state, B) == 10 and casualties(state, B) == 0
    assert day_breakdown(state, A).dead == 0
