"""The engine keeps derived things in step after every handler, whatever the handler did
(DESIGN.md, "Turns: one engine in core": "an after-step hook keeps derived things, such as the
table, in step whatever a handler did"; "The table seam": "lost units leave it").

Issue 27: a Bolt Action brigade sent home changed its units with core's
``BattleState.with_units``, which skips the book's own table keeping, so every footprint
stayed. Here the toy ruleset's field battle (tests/toy_ruleset.py) plays the same fault."""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

from smoothbore.core import ActionRule, IllegalActionError, Log
from smoothbore.core.engine import Kept, lost_leave_table
from smoothbore.table import CommanderMark
from tests import toy_ruleset
from tests.toy_ruleset import Fire, Toy


def _destroy(state: Toy, action: Fire, log: Log) -> Toy:
    """A handler that destroys the target outright through core's ``with_units`` (as a
    book's path that forgets its own table keeping would)."""
    target = state.unit(action.target)
    log.add("fire", f"{target.name} is destroyed", toy_ruleset.RULE_FIRE, target.id)
    extra = attrs.evolve(state.extra, fired=state.extra.fired | {action.firer})
    return attrs.evolve(state.with_units(attrs.evolve(target, strength=0)), extra=extra)


def _turn(**changes: Any) -> Any:
    actions = list(toy_ruleset.ACTIONS)
    actions[0] = attrs.evolve(actions[0], handler=_destroy)
    return attrs.evolve(toy_ruleset.TURN, actions=tuple(actions), **changes)


def test_a_unit_lost_through_core_with_units_leaves_the_table() -> None:
    """Lost units leave the table (DESIGN.md, The table seam), whatever path the handler
    took: the engine's ``stands`` takes the footprint off."""
    start = toy_ruleset.field_battle(0)
    assert "b1" in start.extra.table.units
    after, _ = _turn().step(start, Fire("r1", "b1"))
    assert after.unit("b1").strength == 0
    assert "b1" not in after.extra.table.units
    assert set(after.extra.table.units) == {"r1", "r2", "b2"}


def test_without_stands_the_lost_unit_stays_which_the_check_reports() -> None:
    """The fault of issue 27 as it was: with no ``stands`` the footprint stays."""
    after, _ = _turn(stands=None).step(toy_ruleset.field_battle(0), Fire("r1", "b1"))
    assert "b1" in after.extra.table.units


def test_the_exact_odds_of_a_step_keep_the_table_too() -> None:
    """``apply`` (enumerating dice) runs the same keeping as ``step``."""
    from smoothbore.core import SamplingDice

    new, _ = _turn().apply(toy_ruleset.field_battle(0), Fire("r1", "b1"), SamplingDice(1))
    assert "b1" not in new.extra.table.units


def test_a_commander_riding_with_a_lost_unit_rides_alone_where_it_stood() -> None:
    start = toy_ruleset.field_battle(0)
    table = start.extra.table.with_commanders(CommanderMark("bc", attached_to="b1", side="blue"))
    after, _ = _turn().step(start.with_extra(table=table), Fire("r1", "b1"))
    mark = after.extra.table.commander("bc")
    assert (mark.attached_to, mark.x, mark.y) == (None, 6, 10)


def test_the_after_hook_runs_after_every_handler_before_the_lost_leave() -> None:
    seen: list[tuple[int, int]] = []

    def after(before: Toy, new: Toy) -> Toy:
        seen.append((before.dice.counter, len(new.extra.table.units)))
        return new

    turn = _turn(after=after)
    new, _ = turn.step(toy_ruleset.field_battle(3), Fire("r1", "b1"))
    assert seen == [(0, 4)]  # the hook saw the handler's state; then b1 left
    assert len(new.extra.table.units) == 3


def test_no_table_no_keeping() -> None:
    start = toy_ruleset.new_battle(0)
    after, _ = _turn().step(start, Fire("r1", "b1"))
    assert after.extra.table is None and after.unit("b1").strength == 0


def test_a_standing_unit_keeps_its_footprint() -> None:
    start = toy_ruleset.field_battle(0)
    assert lost_leave_table(start, start, toy_ruleset.stands) is start


def test_kept_handlers_are_named_by_their_handler_and_the_engine_pickles() -> None:
    turn = toy_ruleset.TURN
    rule = turn.check(toy_ruleset.field_battle(0), Fire("r1", "b1"))
    assert isinstance(rule.handler, Kept)
    assert rule.handler.__name__ == "apply_fire"
    back = pickle.loads(pickle.dumps(turn))
    state = toy_ruleset.field_battle(5)
    assert back.step(state, Fire("r1", "b1")) == turn.step(state, Fire("r1", "b1"))


def test_a_rule_taken_from_another_engine_is_kept_once() -> None:
    turn = toy_ruleset.TURN
    kept = turn.check(toy_ruleset.field_battle(0), Fire("r1", "b1"))
    again = attrs.evolve(turn, actions=(kept, *turn.actions[1:]))
    handler = again.check(toy_ruleset.field_battle(0), Fire("r1", "b1")).handler
    assert isinstance(handler, Kept) and not isinstance(handler.handler, Kept)


def test_legality_is_unchanged_by_the_keeping() -> None:
    turn = _turn()
    state = toy_ruleset.field_battle(0)
    after, _ = turn.step(state, Fire("r1", "b1"))
    with pytest.raises(IllegalActionError):
        turn.step(after, Fire("r2", "b1"))  # destroyed companies are not fired at
    assert isinstance(turn.actions[0], ActionRule)
