"""Formation changes and limbering on a table (Move Sequence C: "not within 1" of any enemy
unit"; W49): the new footprint is laid about the same centre, and a change that would put it
on another unit or within 1" of an enemy is refused, and not offered. A base is BASE
(1.7717") square: a line is one base deep, a column two; a deployed gun one base, limbered
two (the limber behind)."""

from __future__ import annotations

import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import ChangeFormation, Limber
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Formation, TroopType, Unit

from .turn_helpers import to_phase

UNITS = {
    "r1": Unit("r1", "Foot", "red", TroopType.LINE),
    "r3": Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS),
    "r5": Unit("r5", "Guns", "red", TroopType.LIGHT_GUN),
    "b1": Unit("b1", "Continentals", "blue", TroopType.LINE),
}


def in_c(places: dict[str, Place]) -> State:
    """Red's phase C on a 48" x 36" table, only the units placed."""
    units = tuple(UNITS[k] for k in places)
    table = deploy(units, places, width=48, depth=36)
    s = new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),), table=table)
    return to_phase(s, "C")


def _enemy_ahead(gap: float, mover: str = "r1") -> dict[str, Place]:
    """The Continentals face to face with ``mover`` (a line, or a deployed gun, at y 10),
    ``gap`` inches between the two fronts."""
    return {mover: (20, 10, 0), "b1": (20, 10 + BASE + gap, 180)}


def test_a_column_formed_within_1_inch_of_the_enemy_is_refused() -> None:
    """The column reaches BASE / 2 (0.89") further forward than the line: 1.5" from the
    enemy's front the column would stand 0.61" off it, refused; 2" off it would stand 1.11"
    off, allowed."""
    s = in_c(_enemy_ahead(1.5))
    assert ChangeFormation("r1") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match='within 1" of Continentals') as refused:
        TURN.step(s, ChangeFormation("r1"))
    assert refused.value.rule == rules.SEQUENCE
    s = in_c(_enemy_ahead(2.0))
    assert ChangeFormation("r1") in TURN.legal_actions(s)
    after, _ = TURN.step(s, ChangeFormation("r1"))
    assert after.unit("r1").formation is Formation.COLUMN


def test_a_column_formed_onto_a_friend_is_refused() -> None:
    """Grenadiers 0.3" behind the foot: the column's rear (BASE / 2 further back) would
    overlap them by 0.59"."""
    s = in_c({"r1": (20, 10, 0), "r3": (20, 10 - BASE - 0.3, 0), "b1": (20, 30, 180)})
    assert ChangeFormation("r1") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match="overlap Grenadiers"):
        TURN.step(s, ChangeFormation("r1"))
    clear = in_c({"r1": (20, 10, 0), "r3": (20, 10 - BASE - 1.0, 0), "b1": (20, 30, 180)})
    assert ChangeFormation("r1") in TURN.legal_actions(clear)


def test_a_gun_limbering_within_1_inch_of_the_enemy_is_refused() -> None:
    """Limbered, the gun and limber are two bases deep about the same centre: BASE / 2
    further forward. 1.5" from the enemy it would stand 0.61" off, refused; 2", allowed."""
    s = in_c(_enemy_ahead(1.5, "r5"))
    assert Limber("r5") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match='within 1" of Continentals'):
        TURN.step(s, Limber("r5"))
    s = in_c(_enemy_ahead(2.0, "r5"))
    after, _ = TURN.step(s, Limber("r5"))
    assert after.unit("r5").limbered
