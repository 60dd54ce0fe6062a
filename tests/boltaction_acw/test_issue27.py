"""Issue 27, Bolt Action ACW: the faults a referee found in table play, each with the section
of boltaction-acw.txt it breaks (or the interpretation, docs/interpretations/
boltaction_acw.md, that settles it)."""

from __future__ import annotations

import pickle
from typing import Any

import attrs

from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.actions import ArmyTest
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.scenarios import brawners_farm
from smoothbore.boltaction_acw.state import State, find, with_units
from smoothbore.boltaction_acw.units import revise
from smoothbore.core import Check


class Told:
    """Dice that give the outcomes they are told, in turn (a test's chosen rolls)."""

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.asked: list[str] = []

    def roll(self, check: Check[Any], *, reason: str, rule: str) -> Any:
        self.asked.append(reason)
        return self.outcomes.pop(0)


def standing_on_table(state: State) -> bool:
    """The table's footprints are exactly the units still in the battle."""
    table = state.extra.table
    assert table is not None
    return set(table.units) == {u.id for u in state.units if not u.lost}


# --- 1: a brigade sent home leaves the table ----------------------------------------------
def test_a_brigade_sent_home_by_the_army_test_leaves_the_table() -> None:
    """Brigade and army strength: an army that has lost half its brigades tests each
    brigade; failed, "the Brigade goes home". Brawner's Farm: three of Gibbon's five units
    routing break the Union's only brigade; Gibbon's brigade fails its army test and every
    one of its units leaves the table (until issue 27 their footprints stayed)."""
    state = brawners_farm(0)
    broken = with_units(state, *(revise(find(state, uid), routing=True)
                                 for uid in ("u2wi", "u6wi", "u7wi")))
    broken = broken.replace(phase=ORDERS).with_extra(group="brigade:gibbon", routs=())
    assert TURN.legal_actions(broken) == (ArmyTest(),)
    after, events = TURN.apply(broken, ArmyTest(), Told(False))
    assert all(find(after, uid).home for uid in ("u2wi", "u6wi", "u7wi", "u19in", "ub4us"))
    assert standing_on_table(after)
    assert not set(after.extra.table.units) & {"u2wi", "u6wi", "u7wi", "u19in", "ub4us"}
    assert events[-1].fact("test") == "army" and events[-1].fact("result") == "goes home"


# --- 10: the ruleset pickles ------------------------------------------------------------------
def test_the_ruleset_pickles_also_after_evolve() -> None:
    """Issue 27: a ruleset goes to a process pool, also when changed by ``attrs.evolve``:
    its battles (the no-table ones too) and handlers are found by name; the copy plays."""
    changed = attrs.evolve(RULESET, title="Bolt Action, house copy")
    for ruleset in (RULESET, changed):
        copy = pickle.loads(pickle.dumps(ruleset))
        assert copy.title == ruleset.title
        state = copy.battle("default-no-table")(1)
        assert state.extra.table is None
        assert copy.turn.legal_actions(state) == TURN.legal_actions(state)
