"""Bloodybacks 9.3: the embedded battle and its scenario (scenarios.py)."""

from __future__ import annotations

from smoothbore.battle import play, random_policy
from smoothbore.bloodybacks93 import RULESET, TURN, example_battle
from smoothbore.bloodybacks93.actions import EndBattle
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.melee import melee_dice, melee_need
from smoothbore.bloodybacks93.scenarios import EXAMPLE_TURNS
from smoothbore.bloodybacks93.state import broken_sides


def test_the_american_line_has_no_cold_steel() -> None:
    """Charges and melee: Determine impetus: cold steel is for British or European regulars,
    Continentals of quality 4+ and good cavalry; the 1st Maryland are Continentals of quality
    3 and the Virginia riflemen carry no bayonets, so each rolls 6 melee dice, not 7, when it
    charges; the 33rd and the Hessians, regulars, roll 7. Riflemen without bayonets give
    their chargers +1 to the need (Resolve melee)."""
    state = example_battle(0)
    british = [u for u in state.units if u.side == "british" and not u.is_artillery]
    americans = [u for u in state.units if u.side == "american"]
    for unit in americans:
        assert not unit.cold_steel
        assert melee_dice((unit,), (british[0],), ChargeFacts()).total == 6
    for unit in british:
        assert unit.cold_steel
        assert melee_dice((unit,), (americans[0],), ChargeFacts()).total == 7
    riflemen = state.unit("a2")
    assert not riflemen.bayonets
    assert melee_need(0, (riflemen,), ChargeFacts()).total == 4


def test_the_scenario_has_a_turn_limit() -> None:
    """Sequence of Play (B48): the embedded battle lasts at most six turns."""
    state = example_battle(1)
    assert state.scenario.turn_limit == EXAMPLE_TURNS == 6
    assert not state.scenario.players_may_end
    assert RULESET.example is example_battle
    assert dict(RULESET.battles())["default"] is example_battle


def test_random_battles_end_by_the_rules() -> None:
    """Sequence of Play (B48): random battles from the embedded one always end, by a side
    breaking or at the turn limit, within a few hundred steps, never by a player's choice
    before."""
    for seed in range(20):
        played = play(TURN, example_battle(seed), random_policy(seed), max_steps=3000)
        end = played.end
        assert TURN.is_over(end), seed
        assert len(played.steps) < 1000
        assert isinstance(played.steps[-1].action, EndBattle)
        assert broken_sides(end) or end.turn == EXAMPLE_TURNS
        assert str(TURN.outcome(end))
