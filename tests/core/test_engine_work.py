"""The engine's own work a step (issue 29, item 1), counted rather than timed: the Python
functions ``Engine.step`` runs besides the rule's check and handler, and the copies of the
state it makes to carry the dice forward. A regression shows here as a name in a list (a
lookup that became a call, a copy that came back), whatever the machine's load.

The figure the issue sets (at most 10 k instructions a step, callgrind) is measured by
``benchmarks/instructions.py``; these tests hold the shape of that work: on a plain step the
engine calls no Python function of its own and copies nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any

import attrs
import pytest

from smoothbore.core import (
    D6,
    ActionRule,
    BattleState,
    DiceState,
    Engine,
    IllegalActionError,
    Log,
    Outcome,
    Phase,
    ThresholdCheck,
)
from smoothbore.core.engine import PhaseEnd
from smoothbore.core.state import revised
from smoothbore.rulesets import get_ruleset

RULE = "Drill 1"
FIRE = "fire"


@attrs.frozen
class Company:
    id: str
    name: str
    side: str
    hits: int = 0


@attrs.frozen
class Extra:
    acting: str = "red"


@attrs.frozen
class Options:
    pass


@attrs.frozen
class Volley:
    firer: str
    target: str


State = BattleState[Company, Any, Extra, Options]


def drill() -> State:
    return BattleState("drill", ("red", "blue"),
                       (Company("r1", "Red Foot", "red"), Company("b1", "Blue Foot", "blue")),
                       (), Extra(), Options(), DiceState(5), phase=FIRE)


def check(state: State, action: Volley) -> int:
    if state.unit(action.target).hits >= 3:
        raise IllegalActionError(action, "the target is gone", RULE)
    return 4


def fire(state: State, action: Volley, log: Log, need: int) -> State:
    hit = log.dice.roll(ThresholdCheck((D6,), need), reason="volley", rule=RULE)
    log.add("fire", "hit" if hit else "miss", RULE, action.firer)
    target = state.unit(action.target)
    return state.with_units(revised(target, hits=target.hits + hit))


def engine(handler: Callable[..., Any] = fire, *, guarded: bool = False) -> Engine[State, Any]:
    return Engine(
        name="drill", phases=(Phase(FIRE, RULE, "fire"),),
        actions=(ActionRule(Volley, (FIRE,), lambda s: [Volley("r1", "b1")], check, handler,
                            ruled=True),),
        who_acts=lambda s: s.extra.acting, over=lambda s: s.turn > 3,
        result=lambda s: Outcome(None, (("red", 0), ("blue", 0)), "time", RULE),
        types=(Company, Company, Extra, Options), rule=RULE,
        decided=(lambda s: None) if guarded else None,
        actor=(lambda a: a.firer) if guarded else None,
    )


def _code(value: Any) -> CodeType:
    function = value if hasattr(value, "__code__") else type(value).__call__
    code: CodeType = function.__code__
    return code


@contextmanager
def _engine_calls(skipped: set[CodeType]) -> Iterator[list[str]]:
    """The Python functions run under ``Engine.step`` (by name, in order), leaving out
    everything that runs inside a code object of ``skipped`` (the check and the handler)."""
    names: list[str] = []
    inside = [0]
    stepping = [0]
    step_code = Engine.step.__code__

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if code is step_code:
            stepping[0] += 1 if event == "call" else -1 if event == "return" else 0
        elif event == "call" and stepping[0]:
            if code in skipped:
                inside[0] += 1
            elif not inside[0]:
                names.append(code.co_name)
        elif event == "return" and code in skipped:
            inside[0] -= 1

    sys.setprofile(profile)
    try:
        yield names
    finally:
        sys.setprofile(None)


def _rule(turn: Any, state: Any, action: Any) -> ActionRule[Any, Any]:
    rule: ActionRule[Any, Any] = turn._table[state.phase, type(action)]
    return rule


def test_a_plain_step_runs_no_function_of_the_engine_but_one_copy() -> None:
    """Before issue 29's work the engine's own part of this step ran ``rule_on``,
    ``derived``, ``_guard``, ``Log.keyed``, ``DiceState.advanced``, ``with_dice`` and the
    state's eleven-slot copy (``copy``): some 27-40 k instructions in the books. Now only
    the copy that carries the next dice (and the answers derived) is left."""
    turn, state, action = engine(), drill(), Volley("r1", "b1")
    assert not turn.is_over(state)  # as a player asks first
    rule = _rule(turn, state, action)
    with _engine_calls({_code(rule.check), _code(rule.handler)}) as names:
        turn.step(state, action)
    assert names == ["copy"]


def test_the_guards_add_only_their_own_calls() -> None:
    """With the guards declared on the engine (the battle decided, the actor of the side
    acting): the book's three small callables and the unit index, each once; whether the
    battle is decided, the unit index and the side acting are asked once a state."""
    turn, state, action = engine(guarded=True), drill(), Volley("r1", "b1")
    assert not turn.is_over(state)
    rule = _rule(turn, state, action)
    with _engine_calls({_code(rule.check), _code(rule.handler)}) as names:
        turn.step(state, action)
    # decided, the actor, the unit index (made once a state), the side acting
    assert names == ["<lambda>", "<lambda>", "units_by_id", "<dictcomp>", "<lambda>", "copy"]
    with _engine_calls({_code(rule.check), _code(rule.handler)}) as again:
        turn.step(state, action)
    assert again == ["<lambda>", "copy"]  # the same state: its answers kept, the actor asked


def test_the_step_after_choose_ruled_runs_no_function_of_its_own() -> None:
    turn, state = engine(guarded=True), drill()
    chosen = turn.choose_ruled(state, lambda n: 0)
    assert chosen is not None
    action = chosen.actions[0]
    rule = _rule(turn, state, action)
    with _engine_calls({_code(rule.check), _code(rule.handler)}) as names:
        turn.step(state, action, chosen)
    assert names == ["copy"]  # the one action chosen is the very one given: its ruling, kept


def test_the_example_book_steps_with_no_function_of_the_engine_but_guards_and_copy() -> None:
    """The worked example (its handlers kept in step with the table by ``Kept``): every
    step of a random battle, the engine's own calls are none but its guards'."""
    ruleset = get_ruleset("example")
    turn: Any = ruleset.turn
    state = ruleset.battle("default")(7)
    draws = iter(range(10**6))
    books = {getattr(f, "__name__", "") for f in (turn.actor, turn.stands, turn.who_acts,
                                                   turn.over, turn.decided)}
    guards = {"_guard_actor", "unit", "units_by_id", "<dictcomp>", "copy", *books}
    seen: set[str] = set()
    for _ in range(12):
        chosen = turn.choose_legal(state, lambda n: next(draws) % n)
        if chosen is None:
            break
        rule = _rule(turn, state, chosen)
        with _engine_calls({_code(rule.check), _code(rule.handler)}) as names:
            state, _events = turn.step(state, chosen)
        seen.update(names)
    assert seen - guards == set()


# --- the dice carried onto a copy that keeps what was derived ------------------------------
def test_the_handlers_state_is_left_as_it_was_and_the_copy_has_the_next_dice() -> None:
    made: list[State] = []

    def handler(state: State, action: Volley, log: Log, need: int) -> State:
        new = fire(state, action, log, need)
        made.append(new)
        return new

    state = drill()
    new, _events = engine(handler).step(state, Volley("r1", "b1"))
    assert new is not made[0] and made[0].dice == DiceState(5, 0)
    assert new.dice == DiceState(5, 1) and state.dice == DiceState(5, 0)
    assert attrs.evolve(made[0], dice=DiceState(5, 1)) == new


def test_a_handler_returning_the_state_given_leaves_it_as_it_was() -> None:
    def handler(state: State, action: Volley, log: Log, need: int) -> State:
        return state

    state = drill()
    new, _events = engine(handler).step(state, Volley("r1", "b1"))
    assert new is not state and state.dice == DiceState(5, 0) and new.dice == DiceState(5, 1)


def test_the_derived_answers_of_the_new_state_are_kept_with_it() -> None:
    """What the handler or ``Kept`` derived from its state (here the unit index) goes with
    the copy that carries the next dice: nothing derived reads the dice."""
    def handler(state: State, action: Volley, log: Log, need: int) -> State:
        new = fire(state, action, log, need)
        new.unit("b1")
        return new

    new, _events = engine(handler).step(drill(), Volley("r1", "b1"))
    assert len(new._derived) == 1


def test_the_end_of_a_phase_is_not_asked_of_the_actor_guard() -> None:
    """The end of a phase is the side's, never a unit's: ``actor`` is not asked of it
    (a call of the book's a step saved; the battle decided still refuses it)."""
    @attrs.frozen
    class Done:
        pass

    asked: list[Any] = []

    def actor(action: Any) -> str | None:
        asked.append(action)
        return getattr(action, "firer", None)

    turn = attrs.evolve(engine(guarded=True), actor=actor,
                        phase_ends=(PhaseEnd(FIRE, FIRE, "Drill 2", new_turn=True),),
                        end_action=Done)
    state = drill()
    new, events = turn.step(state, Done())
    assert asked == [] and new.turn == 2 and events[0].rule == "Drill 2"
    assert turn.legal_actions(state) == (Volley("r1", "b1"), Done())
    assert asked == [Volley("r1", "b1")]
    refusing = attrs.evolve(turn, decided=lambda s: ("the battle is decided", "Drill 9"))
    with pytest.raises(IllegalActionError, match="the battle is decided"):
        refusing.step(state, Done())


def test_rulings_of_several_actions_are_found_by_the_action() -> None:
    """``legal_rulings`` of a state keeps each action's ruling; ``step`` finds the one of
    the action given (an equal action, not the very object, is found too)."""
    measured: list[int] = []

    def counting(state: State, action: Volley) -> int:
        measured.append(1)
        return check(state, action)

    turn = attrs.evolve(engine(), actions=(
        ActionRule(Volley, (FIRE,), lambda s: [Volley("r1", "b1"), Volley("b1", "r1")],
                   counting, fire, ruled=True),))
    state = drill()
    rulings = turn.legal_rulings(state)
    assert rulings.actions == (Volley("r1", "b1"), Volley("b1", "r1")) and len(measured) == 2
    new, _events = turn.step(state, Volley("b1", "r1"), rulings)
    assert len(measured) == 2 and new.dice == DiceState(5, 1)
    chosen = turn.choose_ruled(state, lambda n: 0)
    assert chosen is not None and len(measured) == 3
    turn.step(state, Volley(*attrs.astuple(chosen.actions[0])), chosen)  # equal, not same
    assert len(measured) == 3
    turn.step(drill(), chosen.actions[0], chosen)  # another state: checked again
    assert len(measured) == 4
