"""Rules - Move Sequence J (steps_melee): fighting the melees in the Turn."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi.actions import DeclareCharge, EndPhase, ResolveMelee, TestCharged
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.melee import Effect, Fighter, Melee, resolve_melee
from smoothbore.will_awi.state import State
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Status

from .turn_helpers import battle, to_phase


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


def stood(seed: int) -> State:
    """Phase J with Foot's charge on the Continentals, who stood."""
    s = to_phase(battle(seed), "F")
    s, _ = TURN.step(s, DeclareCharge("r1", "b1", 2.0))
    s, _ = TURN.step(s, EndPhase())
    for extra in range(100):
        s2 = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed * 100 + extra))
        s2, _ = TURN.step(s2, TestCharged("b1"))
        if s2.extra.tests[0].result is ChargedResult.STANDS:
            return to_phase(s2, "J")
    raise AssertionError("never stood")


def test_every_melee_is_fought_before_k() -> None:
    """Move Sequence J: each melee is resolved once before the move goes on."""
    s = stood(1)
    with pytest.raises(IllegalActionError, match="every melee"):
        TURN.step(s, EndPhase())
    with pytest.raises(IllegalActionError, match="no melee"):
        TURN.step(s, ResolveMelee("b2"))
    s, _ = TURN.step(s, ResolveMelee("b1"))
    with pytest.raises(IllegalActionError, match="no melee"):
        TURN.step(s, ResolveMelee("b1"))
    s, _ = TURN.step(s, EndPhase())
    assert s.phase == "K"


def test_the_melee_result_is_applied_to_the_loser() -> None:
    """Rules - Melee: the unit that takes the result loses its strength points (2 on a rout,
    1 retiring shaken) and routs or is shaken; equal scores change nothing. The state follows
    the melee rolled with the step's dice."""
    effects = set()
    for seed in range(40):
        s = stood(seed)
        melee = Melee((Fighter(s.unit("r1"), charging=True),), (Fighter(s.unit("b1")),))
        outcome = resolve_melee(melee, dice=s.dice.dice(), options=s.options)
        after, events = TURN.step(s, ResolveMelee("b1"))
        scores = f"the attackers score {outcome.attacker}, the defenders {outcome.defender}"
        assert events[0].text.startswith(f"Melee at Continentals: {scores}; ")
        if outcome.loser:
            assert after.unit(outcome.affected).name in events[0].text
        effects.add(outcome.effect)
        if not outcome.loser:
            assert after.units == s.units
            continue
        hit = after.unit(outcome.affected)
        assert hit.strength == 5 - outcome.effect.loss
        if outcome.effect is Effect.ROUT:
            assert hit.routing
        else:
            assert hit.status is Status.SHAKEN
    assert Effect.ROUT in effects and len(effects) >= 2
