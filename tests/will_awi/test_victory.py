"""Who acts, when the battle is over and who won (victory; W47, the default victory
conditions, which a scenario may replace)."""

from __future__ import annotations

import itertools

import attrs
import pytest

from smoothbore.core import IllegalActionError, InvalidValueError, Outcome, Scenario
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import EndBattle, EndPhase, Fire
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.phases import ORDER
from smoothbore.will_awi.state import State
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status, TroopType, Unit
from smoothbore.will_awi.victory import broken, is_over, scores, strength_lost

from .turn_helpers import battle, to_phase


def gone(s: State, *ids: str, status: Status = Status.SURRENDERED) -> State:
    """The state with these units removed with ``status``."""
    return s.with_units(*(attrs.evolve(s.unit(i), status=status) for i in ids))


def test_to_act_is_the_moving_side_but_in_d_e_and_h() -> None:
    """Move Sequence: the moving player decides in A-C and F-K (G: the order of the tests;
    I, J: contact and melee); the firing player changes facing (D), fires (E) and reacts to
    the charges (H)."""
    s = battle()
    for phase in ORDER:
        state = attrs.evolve(s, phase=phase)
        assert TURN.to_act(state) == ("blue" if phase in "DEH" else "red"), phase
    other = to_phase(s, "K")
    other, _ = TURN.step(other, EndPhase())
    assert TURN.to_act(other) == "blue"
    assert TURN.to_act(attrs.evolve(other, phase="E")) == "red"


def test_a_side_that_has_surrendered_has_lost() -> None:
    """W47: a side whose units are all routing, eliminated, surrendered or off the table has
    lost at once: nothing more is legal, step refuses, and the outcome names the winner; the
    scores are the strength points each side took from the other."""
    s = to_phase(battle(), "E")
    s = gone(s, "r1")
    s = gone(s, "r2", status=Status.ROUTING)
    assert broken(s, "red") and not broken(s, "blue")
    assert TURN.is_over(s) and TURN.legal_actions(s) == () and TURN.to_act(s) is None
    with pytest.raises(IllegalActionError, match="the battle is over"):
        TURN.step(s, Fire("b1", "r2", FireFacts(4)))
    outcome = TURN.outcome(s)
    assert outcome.winner == "blue" and outcome.rule == rules.VICTORY
    assert outcome.scores == (("red", 0), ("blue", 5))
    assert "red has no unit left in the fight" in outcome.reason


def test_the_battle_is_over_exactly_when_a_side_is_broken() -> None:
    """W47: every mix of statuses (and a unit made a wagon) of the units of a small battle:
    the battle is over (before its last turn) exactly when some side is broken."""
    s = to_phase(battle(), "E")
    ids = [u.id for u in s.units]
    wagon = attrs.evolve(s.unit(ids[0]), troop=TroopType.WAGON)
    for start in (s, s.with_units(wagon)):
        for mix in itertools.product(list(Status), repeat=len(ids)):
            state = start.with_units(*(attrs.evolve(start.unit(i), status=st)
                                       for i, st in zip(ids, mix, strict=True)))
            assert is_over(state) == any(broken(state, side) for side in state.sides)


def test_eliminated_and_off_the_table_count_as_lost() -> None:
    """W47: eliminated units and units routed off the table are out of the fight; every
    strength point of a unit no longer on the table counts as lost; wagons are not a fighting
    force."""
    wagon = Unit("r3", "Baggage", "red", TroopType.WAGON)
    s = battle(r3=wagon)
    s = gone(s, "r1", status=Status.OFF_TABLE)
    s = s.with_units(attrs.evolve(s.unit("r2"), strength=0, status=Status.ELIMINATED))
    assert broken(s, "red") and TURN.is_over(s)
    assert strength_lost(s, "red") == 10  # Foot 5 and Dragoons 5; the wagon keeps its 5
    assert TURN.outcome(s).winner == "blue"


def test_a_battle_not_over_has_no_outcome() -> None:
    """The outcome is asked only of a battle that is over."""
    with pytest.raises(InvalidValueError, match="is_over"):
        TURN.outcome(battle())


def test_the_turn_limit_ends_the_battle_and_losses_decide() -> None:
    """W47: a turn is both sides' moves; after the scenario's last turn the battle is over
    and the side that took more strength points wins (equal: a draw)."""
    s = attrs.evolve(battle(), scenario=Scenario("two turns", turn_limit=2))
    for _ in range(3):
        assert not TURN.is_over(s)
        s = to_phase(s, "K")
        s, _ = TURN.step(s, EndPhase())
    assert (s.turn, s.extra.moving) == (2, "blue") and not TURN.is_over(s)
    s = to_phase(s, "K")
    s, _ = TURN.step(s, EndPhase())
    assert s.turn == 3 and TURN.is_over(s)
    draw = TURN.outcome(s)
    assert draw.winner is None and draw.scores == (("red", 0), ("blue", 0))
    assert draw.reason == "the scenario's 2 turns are played; losses decide"
    hurt = s.with_units(attrs.evolve(s.unit("b1"), strength=3))
    assert TURN.outcome(hurt).winner == "red" and scores(hurt) == (("red", 2), ("blue", 0))


def test_players_may_end_only_where_the_scenario_says() -> None:
    """W47: the moving player may break off at the end of his move (K) only where the scenario
    lets players end the battle, and not in the first turn; losses then decide."""
    s = to_phase(battle(), "K")
    assert EndBattle() not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="does not let"):
        TURN.step(s, EndBattle())
    may = attrs.evolve(s, scenario=Scenario("open", players_may_end=True))
    assert EndBattle() not in TURN.legal_actions(may)
    with pytest.raises(IllegalActionError, match="first move"):
        TURN.step(may, EndBattle())
    later = attrs.evolve(may, turn=2)
    assert EndBattle() in TURN.legal_actions(later)
    ended, events = TURN.step(later, EndBattle())
    assert events[0].text == "red breaks off the battle at the end of its move"
    assert TURN.is_over(ended)
    outcome = TURN.outcome(ended)
    assert outcome == Outcome(
        None, (("red", 0), ("blue", 0)), "red broke off the battle in turn 2; losses decide",
        rules.VICTORY,
    )


def test_a_scenario_may_replace_the_victory_conditions() -> None:
    """W47: the default conditions are overridable: a scenario's own end and result."""
    held = TURN.with_outcome(
        over=lambda s: s.turn > 1,
        result=lambda s: Outcome("blue", (("red", 0), ("blue", 0)), "held the hill", "scenario"),
    )
    s = to_phase(battle(), "K")
    assert not held.is_over(s)
    s, _ = held.step(s, EndPhase())
    s = to_phase(s, "K")
    s, _ = held.step(s, EndPhase())
    assert held.is_over(s) and held.outcome(s).reason == "held the hill"
