"""Turn drivers: play a ruleset's turn from a battle state, one action at a time, with a
policy choosing among the legal actions, until the battle ends by its rules. Every step is
pure, so a played battle is the initial state plus its list of actions, and replays exactly.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import json
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs
import numpy as np

from smoothbore.core.chance import RngLike, make_rng
from smoothbore.core.engine import Outcome
from smoothbore.core.errors import (
    IllegalActionError,
    InvalidValueError,
    LoadError,
    ReplayMismatchError,
    SmoothboreError,
)
from smoothbore.core.events import Event
from smoothbore.core.protocols import Turn
from smoothbore.core.ruleset import spell
from smoothbore.core.state import (
    BattleState,
    read_json,
    refuse_surrogates,
    structure,
    unstructure,
)

__all__ = [
    "MAX_STEPS",
    "RECORD_VERSION",
    "BattleRecord",
    "Played",
    "Policy",
    "RandomPolicy",
    "Step",
    "Stop",
    "brief",
    "play",
    "random_policy",
    "replay",
    "state_digest",
    "step_digest",
    "unit_table",
]


VIEWS = "smoothbore.views"
"""Where a step and a played battle find their words and their HTML (``Step.narrate``,
``_repr_html_``): the views sit above the battle drivers (DESIGN.md's layers), so they are
named by reference and imported when first asked for, and ``import smoothbore.battle``
loads neither the views nor the table nor Shapely (``tests/test_layers.py``,
``LATE_BOUND``)."""


def _view(name: str) -> Any:
    """A function of the views (``VIEWS``), imported on first use."""
    return getattr(importlib.import_module(VIEWS), name)


S = TypeVar("S")
A = TypeVar("A")

Policy = Callable[[S, tuple[A, ...]], A]
"""Chooses one of the legal actions in a state."""

MAX_STEPS = 5_000
"""How many actions ``play`` takes at most by default: every embedded battle ends well
within it."""


class Stop(enum.Enum):
    """Why a driver stopped."""

    OVER = "the battle is over"
    UNTIL = "the stopping condition holds"
    MAX_STEPS = "the step limit was reached"
    NO_ACTION = "no action is legal"
    REPLAYED = "every recorded action was replayed"


@attrs.frozen
class Step(Generic[A]):
    """One action taken, in which turn and phase, and what happened."""

    turn: int
    phase: str
    action: A
    events: tuple[Event, ...]

    def narrate(self, state: object = None, turn: object = None, *, rules: bool = False
                ) -> str:
        """The step in words: the turn and phase (named as the rule book names it), the
        action (units and commanders by their names in ``state``), each event with its
        rolls, and the rules behind them once, on the last line; with ``rules``, every event
        and roll with its own rule instead."""
        roll_words = _view("roll_words")
        where = _view("phase_title")(self.phase, turn)
        said = _view("action_words")(self.action, state, turn)
        lines = [f"[turn {self.turn}, {where}] {said}"]
        cited: list[str] = []
        for event in self.events:
            lines.append(f"  {event.text}" + (f" [{event.rule}]" if rules else ""))
            lines.extend(f"    {roll_words(roll, rules=rules)}" for roll in event.rolls)
            for rule in (event.rule, *(roll.rule for roll in event.rolls)):
                if rule and rule not in cited:
                    cited.append(rule)
        if cited and not rules:
            lines.append("  (" + "; ".join(cited) + ")")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Step turn {self.turn}, {self.phase}: {brief(self.action)}>"

    def _repr_html_(self) -> str:
        html: str = _view("step_html")(self)
        return html


@attrs.frozen
class Played(Generic[S, A]):
    """A battle played from ``start``: every step, the state it ended in, and its
    ``outcome`` (None when the battle is not over). ``stop`` says why the driver stopped; it
    is not part of the battle, so a replay equals the battle it replays."""

    start: S
    steps: tuple[Step[A], ...]
    end: S
    outcome: Outcome | None
    stop: Stop = attrs.field(eq=False)

    @property
    def finished(self) -> bool:
        """Whether the battle ended by its rules (or its scenario's conditions)."""
        return self.outcome is not None

    @property
    def turns(self) -> int:
        """How many turns saw at least one action: from the first step's turn to the
        last's."""
        if not self.steps:
            return 0
        return self.steps[-1].turn - self.steps[0].turn + 1

    def actions(self) -> tuple[A, ...]:
        """The actions taken, in order: with ``start``, the whole record of the battle."""
        return tuple(step.action for step in self.steps)

    def narrate(self, turn: object = None, *, rules: bool = False) -> str:
        """The whole battle in words, step by step (see ``Step.narrate``; ``turn`` names
        the phases as the rule book does), closed by a summary of the end."""
        lines = [step.narrate(self.start, turn, rules=rules) for step in self.steps]
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        """How the battle ended (or why it stopped), and what became of each side's units."""
        length = f"{_plural(len(self.steps), 'action')} in {_plural(self.turns, 'turn')}"
        if self.outcome is not None:
            head = f"The battle is over after {length}: {self.outcome}"
        else:
            head = (f"The battle stopped after {length} ({self.stop.value}), turn "
                    f"{getattr(self.end, 'turn', '?')}, {getattr(self.end, 'phase', '?')}")
        lines = [head]
        lines.extend(_side_summary(self.start, self.end))
        return "\n".join(lines)

    def __repr__(self) -> str:
        ruleset = getattr(self.start, "ruleset", "")
        ending = str(self.outcome).split(":", 1)[0] if self.outcome is not None else (
            self.stop.value)
        return (f"<Played {ruleset}: {_plural(len(self.steps), 'action')}, "
                f"{_plural(self.turns, 'turn')}, {ending}>")

    def _repr_html_(self) -> str:
        html: str = _view("played_html")(self)
        return html


def _plural(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _side_summary(start: Any, end: Any) -> list[str]:
    """One line per side: each unit that changed, with what changed (``was→now``)."""
    before = {getattr(u, "id", None): u for u in getattr(start, "units", ())}
    lines = []
    for side in getattr(end, "sides", ()):
        changed, steady = [], 0
        for unit in end.units_of(side):
            was = before.get(unit.id)
            if was is None or not attrs.has(type(unit)):
                continue
            diffs = [f"{_words(f.name)} {_cell(getattr(was, f.name))}→"
                     f"{_cell(getattr(unit, f.name))}"
                     for f in attrs.fields(type(unit))
                     if f.name not in _IDENTITY and getattr(was, f.name) != getattr(unit, f.name)]
            if diffs:
                changed.append(f"{unit.name} ({', '.join(diffs)})")
            else:
                steady += 1
        tail = f"; {steady} unchanged" if steady and changed else (
            f"{_plural(steady, 'unit')} unchanged" if steady else "")
        lines.append(f"  {side}: " + ("; ".join(changed) + tail if changed else tail))
    return lines


def _words(name: str) -> str:
    return name.replace("_", " ")


def brief(value: object) -> str:
    """An action (or any attrs value) as its class and the fields that differ from their
    defaults, nested values alike: ``Fire(firer='b2', target='r2', facts=FireFacts(range=6))``."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if not attrs.has(type(value)):
        return repr(value)
    shown = []
    for field in attrs.fields(type(value)):  # type: ignore[arg-type]
        current = getattr(value, field.name)
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory(value) if default.takes_self else default.factory()
        if default is attrs.NOTHING or current != default:
            shown.append(f"{field.name}={brief(current)}")
    return f"{type(value).__name__}({', '.join(shown)})"


class RandomPolicy:
    """A policy that picks uniformly among the legal actions, from a seeded generator (SPEC
    7: None, an int seed or a numpy Generator). It pickles with its generator's state, so it
    travels to worker processes."""

    __slots__ = ("generator",)

    def __init__(self, rng: RngLike = None) -> None:
        self.generator: np.random.Generator = make_rng(rng)

    def __call__(self, state: object, actions: Sequence[A]) -> A:
        if not actions:
            raise InvalidValueError("actions", (), "at least one legal action to choose from")
        return actions[int(self.generator.integers(len(actions)))]

    def choose_action(self, turn: Turn[S, A], state: S) -> A | None:
        """A legal action of ``turn`` in ``state``, each equally likely (None: none is
        legal). With a turn that can pick one without listing them all
        (``Engine.choose_legal``) only the candidates tried are checked; the odds are
        the same as choosing from ``legal_actions``."""
        choose_legal = getattr(turn, "choose_legal", None)
        if choose_legal is not None:
            action: A | None = choose_legal(state, self._draw)
            return action
        actions = turn.legal_actions(state)
        return self(state, actions) if actions else None

    def choose_ruled(self, turn: Turn[S, A], state: S) -> Any:
        """As ``choose_action``, for a turn that keeps rulings (``Engine.choose_ruled``):
        the chosen action as the one action of a ``Rulings`` that ``play`` hands to
        ``step`` (None: no action is legal); the same draws, so the same action."""
        return turn.choose_ruled(state, self._draw)  # type: ignore[attr-defined]

    def _draw(self, count: int) -> int:
        return int(self.generator.integers(count))

    def __getstate__(self) -> np.random.Generator:
        return self.generator

    def __setstate__(self, generator: np.random.Generator) -> None:
        self.generator = generator

    def __repr__(self) -> str:
        return f"RandomPolicy({self.generator!r})"


def random_policy(rng: RngLike = None) -> RandomPolicy:
    """A policy that picks uniformly among the legal actions, seeded by ``rng``; also the
    default policy factory of ``simulate`` (a seed in, a policy out)."""
    return RandomPolicy(rng)


def play(
    turn: Turn[S, A],
    state: S,
    policy: Policy[S, A],
    *,
    max_steps: int = MAX_STEPS,
    until: Callable[[S], bool] | None = None,
) -> Played[S, A]:
    """Step ``state`` with the actions ``policy`` chooses until the battle is over
    (``turn.is_over``), ``until`` holds, ``max_steps`` actions have been taken or, should a
    ruleset allow it, no action is legal. Only the first ends the battle: the others leave
    it unfinished (``Played.outcome`` None). A policy with a ``choose_action(turn, state)``
    method (``RandomPolicy`` has one) is asked for the action that way, so it need not have
    every legal action listed first."""
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise InvalidValueError("max_steps", max_steps, "an integer of 0 or more")
    start = state
    steps: list[Step[A]] = []
    choose: Callable[[Turn[S, A], S], A | None] | None = getattr(policy, "choose_action",
                                                                  None)
    # contract v2: the rulings of the checks that found an action legal go on to its step
    ruled = getattr(turn, "legal_rulings", None)
    choose_ruled = _ruled_chooser(policy, turn)
    while True:
        halt = (
            Stop.UNTIL if until is not None and until(state)
            else Stop.MAX_STEPS if len(steps) >= max_steps
            else None
        )
        if halt is not None:
            if turn.is_over(state):
                return Played(start, tuple(steps), state, turn.outcome(state), Stop.OVER)
            stop = halt
            break
        rulings = None
        if choose_ruled is not None:
            rulings = choose_ruled(turn, state)  # None once the battle is over
            chosen = None if rulings is None else rulings.actions[0]
        elif choose is not None:
            chosen = choose(turn, state)
        else:
            if ruled is not None:
                rulings = ruled(state)
                actions = rulings.actions
            else:
                actions = turn.legal_actions(state)
            chosen = policy(state, actions) if actions else None
        if chosen is None:
            if turn.is_over(state):
                return Played(start, tuple(steps), state, turn.outcome(state), Stop.OVER)
            stop = Stop.NO_ACTION
            break
        action = chosen
        state, step = _step(turn, state, action, len(steps), rulings)
        steps.append(step)
    return Played(start, tuple(steps), state, None, stop)


def _ruled_chooser(policy: object, turn: object) -> Callable[[Any, Any], Any] | None:
    """The policy's ``choose_ruled`` when the turn keeps rulings and the policy's class
    defines it where it defines ``choose_action`` or below (a subclass that chooses its own
    way, overriding only ``choose_action``, is asked that way)."""
    if not hasattr(turn, "choose_ruled"):
        return None
    mro = type(policy).__mro__
    owner = {name: next((k for k in mro if name in vars(k)), None)
             for name in ("choose_ruled", "choose_action")}
    if owner["choose_ruled"] is None or (
            owner["choose_action"] is not None
            and not issubclass(owner["choose_ruled"], owner["choose_action"])):
        return None
    chooser: Callable[[Any, Any], Any] = policy.choose_ruled  # type: ignore[attr-defined]
    return chooser


def replay(turn: Turn[S, A], start: S, actions: Sequence[A],
           expected: Sequence[Sequence[str]] | None = None,
           digests: Sequence[str] | None = None) -> Played[S, A]:
    """Apply a recorded list of actions to ``start``: the same battle, step for step. An
    action that ``step`` refuses raises its error with the step number (counted from 1:
    step n is ``actions[n - 1]``), turn and phase. With ``expected`` (for each step, the
    narration of each of its events: ``Event.narrate()``, rolls included) a step whose events
    differ raises ReplayMismatchError naming the step; with ``digests`` (for each step, the
    ``step_digest`` of its action and the state it gave) so does a step whose action or
    resulting state differs, so
    a changed record never plays a different battle in silence."""
    for name, given, each in (("expected", expected, "list of events"),
                              ("digests", digests, "digest")):
        if given is not None and len(given) != len(actions):
            raise InvalidValueError(name, f"{len(given)} steps",
                                    f"one {each} per action ({len(actions)})")
    state = start
    steps: list[Step[A]] = []
    for index, action in enumerate(actions):
        state, step = _step(turn, state, action, index)
        if expected is not None:
            _verify(step, tuple(expected[index]), index)
        if digests is not None:
            found = step_digest(action, state)
            if found != digests[index]:
                raise ReplayMismatchError(
                    index + 1, f"turn {step.turn}, {step.phase}: {brief(step.action)}; "
                    "its action and the state it gives", f"digest {digests[index]}",
                    f"digest {found}")
        steps.append(step)
    if turn.is_over(state):
        return Played(start, tuple(steps), state, turn.outcome(state), Stop.OVER)
    return Played(start, tuple(steps), state, None, Stop.REPLAYED)


def state_digest(state: Any) -> str:
    """A stable digest of a state: ``sha256:`` and the SHA-256 of its canonical JSON
    (``to_json``, the same text in every process, keys sorted, whole numbers as integers),
    so any change of any field, down to a float's last bit, changes it."""
    return "sha256:" + hashlib.sha256(_canonical(state).encode("utf-8")).hexdigest()


def _canonical(state: Any) -> str:
    """A state's JSON with every whole-number float written as an integer: a table built
    with ``16`` writes ``16`` until a round trip through the loader makes it ``16.0``, the
    same state (the loader refuses a float where the state's type wants an integer, so the
    two are never different states)."""
    data = json.loads(state.to_json(), parse_float=_whole)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _whole(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2.0 ** 53 else value


def step_digest(action: Any, state: Any) -> str:
    """A stable digest of a step: ``sha256:`` and the SHA-256 of the action's canonical JSON
    (its type and fields, as a record writes it) and of the state it gave, so a record whose
    action or resulting state changed in any way, even by 1e-9 in a value the state does
    not keep, no longer matches."""
    digest = hashlib.sha256(_action_json(action).encode("utf-8"))
    digest.update(b"\n")
    digest.update(_canonical(state).encode("utf-8"))
    return "sha256:" + digest.hexdigest()


def _action_json(action: Any) -> str:
    text = json.dumps({"type": type(action).__name__, "fields": unstructure(action)},
                      sort_keys=True, allow_nan=False, ensure_ascii=False)
    return json.dumps(json.loads(text, parse_float=_whole), sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))


def _verify(step: Step[Any], expected: tuple[str, ...], index: int) -> None:
    found = tuple(event.narrate() for event in step.events)
    if found == expected:
        return
    where = f"turn {step.turn}, {step.phase}: {brief(step.action)}"
    for want, got in zip(expected, found, strict=False):
        if want != got:
            raise ReplayMismatchError(index + 1, where, want, got)
    raise ReplayMismatchError(index + 1, where, f"{len(expected)} events", f"{len(found)} events")


def _step(turn: Turn[S, A], state: S, action: A, index: int, rulings: Any = None
          ) -> tuple[S, Step[A]]:
    where = (getattr(state, "turn", 0), getattr(state, "phase", ""))
    try:
        if rulings is None:
            new, events = turn.step(state, action)
        else:
            new, events = turn.step(state, action, rulings)  # type: ignore[call-arg]
    except IllegalActionError as error:
        raise IllegalActionError(
            error.action, f"at step {index + 1} (turn {where[0]}, {where[1]}): {error.why}",
            error.rule,
        ) from error
    except InvalidValueError as error:
        raise InvalidValueError(
            f"step {index + 1} (turn {where[0]}, {where[1]}): {error.field}", error.value,
            error.allowed,
        ) from error
    return new, Step(where[0], where[1], action, events)


RECORD_VERSION = 2
"""The version of the battle-record format ``BattleRecord.to_json`` writes: 2 carries the
digest of the start state and of each step's resulting state. ``from_json`` also reads
version 1 (no digests; ``BattleRecord.digests`` is then None, see docs/cli.md, "Records
without digests")."""
READABLE_VERSIONS = (1, 2)


@attrs.frozen
class BattleRecord:
    """A battle as a file: the ruleset's name, the state it started from, each action taken
    and, for each step, the narration of the events it gave (``Event.narrate()``, rolls
    included) and the digest of its action and the state it gave (``step_digest``), that
    ``replay``
    checks, as it checks the start state's digest. ``of(played)`` makes one, ``to_json``
    writes it, ``from_json(text, turn)`` reads it back strictly and ``replay(turn)`` plays
    it again."""

    ruleset: str
    start: Any
    actions: tuple[Any, ...]
    events: tuple[tuple[str, ...], ...] | None = None
    start_digest: str | None = None
    digests: tuple[str, ...] | None = None
    scenario: str | None = None
    """The scenario file the battle was started from (its TOML text), when it was: a record
    then holds the scenario, its seed (the start state's dice) and the actions in one file,
    and reading it checks that the scenario starts exactly the recorded start state."""

    @classmethod
    def of(cls, ruleset: str, played: Played[Any, Any], *, with_events: bool = True,
           turn: Any = None, scenario: str | None = None) -> BattleRecord:
        """The record of a played battle (with the events it expects unless told not) and
        the digests of its states. The states between steps are not kept by ``play``: they
        are replayed with ``turn``, by default the registered ruleset's of this name."""
        if turn is None:
            from smoothbore.rulesets import get_ruleset

            turn = get_ruleset(ruleset).turn
        events = tuple(tuple(e.narrate() for e in step.events) for step in played.steps)
        state = played.start
        digests = []
        for index, action in enumerate(played.actions()):
            state, _ = _step(turn, state, action, index)
            digests.append(step_digest(action, state))
        if played.steps and state != played.end:
            raise InvalidValueError("turn", getattr(turn, "name", turn),
                                    "the turn the battle was played with")
        return cls(ruleset, played.start, played.actions(),
                   events if with_events else None, state_digest(played.start),
                   tuple(digests), scenario)

    def replay(self, turn: Any) -> Played[Any, Any]:
        """Play the record again with ``turn``, checking the start state's digest, and each
        step's events and resulting state's digest, when the record has them."""
        if getattr(turn, "name", self.ruleset) != self.ruleset:
            raise InvalidValueError("ruleset", self.ruleset, f"{turn.name!r}, the turn given")
        if self.start_digest is not None:
            found = state_digest(self.start)
            if found != self.start_digest:
                raise ReplayMismatchError(0, "the start state, before the first action",
                                          f"digest {self.start_digest}", f"digest {found}")
        return replay(turn, self.start, self.actions, self.events, self.digests)

    def to_json(self) -> str:
        """The record as canonical JSON text (version 2 when it has its digests, else 1)."""
        digested = self.start_digest is not None and self.digests is not None
        data: dict[str, Any] = {
            "record_version": RECORD_VERSION if digested else 1,
            "ruleset": self.ruleset,
            "start": json.loads(self.start.to_json()),
            "steps": [
                {"action": {"type": type(action).__name__, "fields": unstructure(action)},
                 **({"events": list(self.events[i])} if self.events is not None else {}),
                 **({"digest": self.digests[i]} if self.digests is not None else {})}
                for i, action in enumerate(self.actions)
            ],
        }
        if digested:
            data["start_digest"] = self.start_digest
        if self.scenario is not None:
            data["scenario"] = self.scenario
        return json.dumps(data, sort_keys=True, allow_nan=False, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, turn: Any) -> BattleRecord:
        """Read a record written by ``to_json`` for ``turn`` (an Engine) as strictly as
        ``BattleState.from_json``: unknown keys, a wrong version, another ruleset's record,
        an action type the ruleset does not have or a malformed field is a ``LoadError``
        giving its path. A version 2 record must carry every digest; version 1 has none."""
        data = read_json(text, "record")
        if not isinstance(data, dict):
            raise LoadError("$", type(data).__name__, "an object: a battle record")
        version = data.get("record_version")
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise LoadError("$.record_version", version,
                            f"{RECORD_VERSION} or 1 (the record formats this library reads)")
        digested = version >= 2
        allowed = {"record_version", "ruleset", "start", "steps"} | (
            {"start_digest"} if digested else set())
        for key in sorted(set(data) - allowed - {"scenario"}):
            raise LoadError(f"$.{key}", "(an unknown field)",
                            "the fields of a record: " + ", ".join(sorted(allowed))
                            + ", and scenario")
        for key in sorted(allowed - set(data)):
            raise LoadError(f"$.{key}", "(missing)", "a value: a record needs " + key)
        refuse_surrogates(data, "$")
        name = structure(data["ruleset"], str, "$.ruleset")
        if name != turn.name:
            raise LoadError("$.ruleset", name, f"{turn.name!r}: a record of this ruleset")
        start = BattleState.from_data(
            data["start"], *turn.types, ruleset=turn.name,
            phases=[p.name for p in turn.phases], path="$.start",
        )
        start_digest = (_digest(data["start_digest"], "$.start_digest") if digested
                        else None)
        kinds = {kind.__name__: kind for kind in turn.action_types()}
        steps = data["steps"]
        if not isinstance(steps, list):
            raise LoadError("$.steps", type(steps).__name__, "an array of steps")
        keys = {"action", "events"} | ({"digest"} if digested else set())
        actions: list[Any] = []
        events: list[tuple[str, ...]] = []
        digests: list[str] = []
        for i, entry in enumerate(steps):
            where = f"$.steps[{i}]"
            if not isinstance(entry, dict) or "action" not in entry or set(entry) - keys:
                raise LoadError(where, _shown(entry),
                                'an object {"action": ..., "events": [...]} (events optional)'
                                + (', "digest": "sha256:..."}' if digested else ""))
            actions.append(_action(entry["action"], kinds, f"{where}.action"))
            if "events" in entry:
                events.append(structure(entry["events"], tuple[str, ...], f"{where}.events"))
            if digested:
                if "digest" not in entry:
                    raise LoadError(f"{where}.digest", "(missing)",
                                    "the digest of the state the step gives")
                digests.append(_digest(entry["digest"], f"{where}.digest"))
        if events and len(events) != len(actions):
            raise LoadError("$.steps", f"{len(events)} of {len(actions)} steps with events",
                            "events on every step or on none")
        scenario = _scenario_of(data.get("scenario"), start)
        return cls(name, start, tuple(actions), tuple(events) if events else None,
                   start_digest, tuple(digests) if digested else None, scenario)


def _scenario_of(text: Any, start: Any) -> str | None:
    """A record's scenario file (None: none), checked to start the record's start state from
    the seed of its dice (``smoothbore.scenario``)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise LoadError("$.scenario", _shown(text), "the text of a scenario file (TOML)")
    from smoothbore.scenario import read_scenario

    made = read_scenario(text, "$.scenario").start(start.dice.seed)
    if made != start:
        raise LoadError("$.scenario", "(a scenario that starts another battle)",
                        "the scenario the record's start state was made from")
    return text


def _digest(value: Any, path: str) -> str:
    if (not isinstance(value, str) or not value.startswith("sha256:") or len(value) != 71
            or any(c not in "0123456789abcdef" for c in value[7:])):
        raise LoadError(path, _shown(value), "a digest: 'sha256:' and 64 hex digits")
    return value


def _shown(value: Any) -> Any:
    return value if not isinstance(value, dict | list) else type(value).__name__


def _action(data: Any, kinds: dict[str, type], path: str) -> Any:
    if not isinstance(data, dict) or set(data) != {"type", "fields"}:
        raise LoadError(path, _shown(data), 'an object {"type": ..., "fields": {...}}')
    kind = kinds.get(data["type"]) if isinstance(data["type"], str) else None
    if kind is None:
        raise LoadError(f"{path}.type", _shown(data["type"]),
                        "one of the ruleset's actions: " + ", ".join(kinds))
    try:
        return structure(data["fields"], kind, f"{path}.fields")
    except LoadError:
        raise
    except SmoothboreError as error:  # pragma: no cover - structure reports LoadError
        raise LoadError(f"{path}.fields", _shown(data["fields"]), str(error)) from None


def unit_table(end: Any, start: Any = None) -> str:
    """Each unit of ``end`` (a BattleState) in a row: side, id and name, then every field
    that changed for some unit since ``start``, as ``was→now`` where it changed (without
    ``start``, every field that differs from its default for some unit)."""
    units = tuple(end.units)
    before = {getattr(u, "id", None): u for u in (start.units if start is not None else ())}
    columns = _changed_fields(units, before, compare_defaults=start is None)
    head = ["side", "id", "name", *columns]
    rows = []
    for unit in units:
        was = before.get(unit.id)
        cells = [unit.side, unit.id, unit.name]
        for name in columns:
            now = _cell(getattr(unit, name))
            if was is not None and getattr(was, name) != getattr(unit, name):
                now = f"{_cell(getattr(was, name))}→{now}"
            cells.append(now)
        rows.append(cells)
    widths = [max(len(str(row[i])) for row in (head, *rows)) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in (head, *rows)]
    if not columns and start is not None:
        lines.append("(no unit has changed)")
    return "\n".join(lines)


_IDENTITY = ("id", "name", "side")


def _changed_fields(units: tuple[Any, ...], before: dict[Any, Any], *, compare_defaults: bool
                    ) -> list[str]:
    columns: list[str] = []
    for unit in units:
        if not attrs.has(type(unit)):
            continue
        was = before.get(unit.id)
        for field in attrs.fields(type(unit)):
            if field.name in _IDENTITY or field.name in columns:
                continue
            now = getattr(unit, field.name)
            if was is not None:
                changed = getattr(was, field.name, now) != now
            elif compare_defaults:
                default = field.default
                if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                    default = default.factory(unit) if default.takes_self else default.factory()
                changed = default is attrs.NOTHING or default != now
            else:
                changed = False
            if changed:
                columns.append(field.name)
    order: dict[str, int] = {}
    for unit in units:
        if attrs.has(type(unit)):
            for i, field in enumerate(attrs.fields(type(unit))):
                order.setdefault(field.name, i)
    return sorted(columns, key=lambda name: order[name])


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool | enum.Enum):
        return spell(value)
    text = brief(value) if attrs.has(type(value)) else str(value)
    return text if len(text) <= 40 else text[:39] + "…"
