"""The actions worth trying in each phase (candidates), from which ``legal_actions`` keeps the
legal ones: Rules - Move Sequence, with default table facts (Rules - Firing: ranges)."""

from __future__ import annotations

import attrs

from smoothbore.will_awi.candidates import candidates, default_range
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.sequence import HANDLERS, TURN, EndPhase, Fire
from smoothbore.will_awi.turn_state import ORDER
from smoothbore.will_awi.units import TroopType, WillUnit

from .turn_helpers import battle, to_phase


def test_default_range_is_the_longest_short_range() -> None:
    """Rules - Firing: muskets fire 0-6" (short range; the candidates fire at 6"); units that do
    not fire have none."""
    s = battle()
    assert default_range(s.unit("b1")) == 6.0
    assert default_range(s.unit("b3")) == 12.0  # light guns: short 0-12"
    wagon = WillUnit("w", "Wagon", "blue", TroopType.WAGON)
    assert default_range(wagon) == 0.0


def test_every_candidate_belongs_to_its_phase() -> None:
    """Move Sequence: each phase offers only actions it handles, ending the phase among them,
    and no action twice."""
    s = battle()
    for phase in ORDER:
        state = attrs.evolve(s, phase=phase)
        offered = candidates(state)
        assert EndPhase() in offered and len(set(offered)) == len(offered)
        assert all((phase, type(a)) in HANDLERS for a in offered)


def test_legal_actions_are_the_legal_candidates() -> None:
    """legal_actions keeps exactly the candidates that step accepts: in E, every firing unit may
    fire at short range at each enemy (Fire at 6" for the muskets)."""
    s = to_phase(battle(), "E")
    legal = TURN.legal_actions(s)
    assert set(legal) <= set(candidates(s))
    assert Fire("b1", "r1", FireFacts(6.0)) in legal
    assert not any(isinstance(a, Fire) and a.firer.startswith("r") for a in candidates(s))
