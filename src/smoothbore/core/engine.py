"""The turn engine: one ``step`` for every ruleset.

A ruleset declares its phases and, for each action type, an ``ActionRule``: a candidate
generator, a roll-free check that raises ``IllegalActionError`` naming the rule, and a
handler ``(state, action, log) -> state`` that rolls only through ``log.dice``. The engine
does the rest, the same way for every rule book:

- ``legal_actions`` is the candidates that pass their check, and ``step`` refuses anything
  whose check fails: legality lives in one place;
- ``step`` makes the step's dice from the state's ``DiceState``, opens a ``Log`` that
  records every roll with its reason and rule, runs the handler, closes the log and advances
  the dice, so the same state and action always give the same result;
- ``to_act``, ``is_over`` and ``outcome`` say who decides now, whether the battle is over and
  who won;
- after every handler, the ruleset's ``after`` hook keeps derived things in step whatever the
  handler did, and, where the ruleset says which units ``stand`` (have a footprint), the
  footprints of units that no longer stand leave the battle's table: a path that forgets its
  own table keeping (a unit changed with ``BattleState.with_units``) still loses them.

Per-phase and per-turn scratch state (what a unit did this phase, the card in play) is
declared on the ruleset's ``Extra`` with ``phase_scoped`` and ``turn_scoped`` fields, and
``enter_phase`` and ``begin_turn`` reset it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import attrs

from smoothbore.core.chance import Dice, RollRecord
from smoothbore.core.errors import IllegalActionError, InvalidValueError
from smoothbore.core.events import Event, Fact
from smoothbore.core.protocols import Phase
from smoothbore.core.state import BattleState, evolved

__all__ = [
    "ActionRule",
    "Deferred",
    "Engine",
    "Kept",
    "Log",
    "Outcome",
    "begin_turn",
    "enter_phase",
    "lost_leave_table",
    "phase_scoped",
    "turn_scoped",
]

S = TypeVar("S", bound=BattleState[Any, Any, Any, Any])
A = TypeVar("A")
T = TypeVar("T")

_SCOPE = "smoothbore.scope"
PHASE = "phase"
TURN = "turn"


@attrs.frozen
class Outcome:
    """How a battle ended: the winning side (None for a draw), a score per side, the
    reason in words and the rule or scenario condition that decided it."""

    winner: str | None
    scores: tuple[tuple[str, int], ...]
    reason: str
    rule: str

    def score(self, side: str) -> int:
        """The score of one side."""
        for name, value in self.scores:
            if name == side:
                return value
        raise InvalidValueError("side", side, "one of " + ", ".join(n for n, _ in self.scores))

    def __str__(self) -> str:
        head = f"{self.winner} wins" if self.winner is not None else "a draw"
        scores = ", ".join(f"{side} {value}" for side, value in self.scores)
        return f"{head}: {self.reason} (score {scores}; {self.rule})"


class Log:
    """The events of one step, each carrying the rolls made since the event before it.

    Handlers roll through ``log.dice`` (any ``Dice``: sampling dice in play, enumerating
    dice for exact odds) and report with ``log.add``."""

    __slots__ = ("_events", "_mark", "dice")

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self._events: list[Event] = []
        self._mark = 0

    def _rolls(self) -> tuple[RollRecord, ...]:
        since = getattr(self.dice, "records_since", None)
        if since is None:
            return ()
        rolls: tuple[RollRecord, ...] = since(self._mark)
        self._mark += len(rolls)
        return rolls

    def add(self, kind: str, text: str, rule: str, subject: str = "",
            facts: Mapping[str, Fact] | None = None) -> Event:
        """Report something that happened, with the rolls made since the last report and,
        in ``facts``, its outcome as structured values (the test taken, its result)."""
        event = Event(kind, text, rule, subject, self._rolls(), facts or {})
        self._events.append(event)
        return event

    @property
    def events(self) -> tuple[Event, ...]:
        """What has been reported so far."""
        return tuple(self._events)


@attrs.frozen(eq=False)
class Deferred(Generic[A]):
    """Candidates worked out only when they are wanted, such as the places one unit could
    move to: at most ``bound`` actions, listed by ``expand()``. A candidate generator may
    yield it among its actions. ``legal_actions`` expands every group; ``choose_legal`` draws
    a group as if it held ``bound`` actions and expands it only when one of its slots is
    drawn (an empty slot: it draws again), so the odds stay exactly those of a uniform pick.
    No action of a group may be offered by anything else in the same state."""

    bound: int
    expand: Callable[[], Iterable[A]]

    def __attrs_post_init__(self) -> None:
        if isinstance(self.bound, bool) or not isinstance(self.bound, int) or self.bound < 1:
            raise InvalidValueError("Deferred.bound", self.bound, "a whole number from 1")

    def actions(self) -> tuple[A, ...]:
        """The group's actions, each once; more than ``bound`` is a ruleset's error."""
        found = tuple(dict.fromkeys(self.expand()))
        if len(found) > self.bound:
            raise InvalidValueError("Deferred.bound", self.bound,
                                    f"at least the {len(found)} actions the group lists")
        return found


Candidates = Callable[[S], Iterable[A]]
Check = Callable[[S, A], None]
Handler = Callable[[S, A, Log], S]


@attrs.frozen
class ActionRule(Generic[S, A]):
    """One action type of a ruleset: the phases it belongs to, the actions worth offering
    in a state (``candidates``), the roll-free ``check`` that raises IllegalActionError
    naming the rule, and the ``handler`` that applies it, rolling through the log's dice."""

    kind: type[A]
    phases: tuple[str, ...]
    candidates: Callable[[Any], Iterable[A | Deferred[A]]] = attrs.field(eq=False)
    check: Callable[[Any, A], None] = attrs.field(eq=False)
    handler: Callable[[Any, A, Log], Any] = attrs.field(eq=False)


@attrs.frozen
class Engine(Generic[S, A]):
    """A ruleset's turn on the core engine: satisfies the ``Turn`` protocol.

    ``who_acts(state)`` names the side that decides now (None: a step of the sequence that
    any player makes, such as drawing a card); ``over(state)`` says whether the battle has
    ended; ``result(state)`` gives its ``Outcome``. ``types`` are the unit, commander, extra
    and options classes, so ``load`` can read a saved state. ``sampled(state, action)``
    (optional) says whether an action stands for a continuous choice that the candidates
    only sample, such as a destination on a table: ``legal_actions`` lists a few of them and
    ``step`` accepts any the rules allow, so one listed earlier may still be accepted.

    Kept in step after every handler, whatever it did (``Kept``): ``after(before, new)``
    (optional) gives the state with what the ruleset derives from its units brought up to
    date (its table's footprints refitted, commanders' marks following them); ``stands(unit)``
    says whether a unit stands on the table (has a footprint there): the footprints of units
    that no longer stand then leave the table (``lost_leave_table``). A ruleset that plays on
    a table declares ``stands``; the conformance suite checks after every step that the
    table's footprints are exactly the standing units. Both must be module-level callables
    (or instances of module-level classes), so that the engine pickles."""

    name: str
    phases: tuple[Phase, ...]
    actions: tuple[ActionRule[Any, Any], ...]
    who_acts: Callable[[S], str | None] = attrs.field(eq=False)
    over: Callable[[S], bool] = attrs.field(eq=False)
    result: Callable[[S], Outcome] = attrs.field(eq=False)
    types: tuple[type, type, type, type] = attrs.field(eq=False)
    rule: str = ""
    sampled: Callable[[S, A], bool] | None = attrs.field(default=None, eq=False)
    stands: Callable[[Any], bool] | None = attrs.field(default=None, eq=False)
    after: Callable[[S, S], S] | None = attrs.field(default=None, eq=False)
    _table: Mapping[tuple[str, type], ActionRule[Any, Any]] = attrs.field(
        init=False, eq=False, repr=False
    )
    _by_phase: Mapping[str, tuple[ActionRule[Any, Any], ...]] = attrs.field(
        init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        names = [p.name for p in self.phases]
        table: dict[tuple[str, type], ActionRule[Any, Any]] = {}
        by_phase: dict[str, list[ActionRule[Any, Any]]] = {name: [] for name in names}
        for declared in self.actions:
            action_rule = self._kept(declared)
            for phase in action_rule.phases:
                if phase not in by_phase:
                    raise InvalidValueError(
                        f"ActionRule({action_rule.kind.__name__}).phases", phase,
                        "one of " + ", ".join(names),
                    )
                if (phase, action_rule.kind) in table:
                    raise InvalidValueError(
                        "Engine.actions", action_rule.kind.__name__,
                        f"one rule per action type and phase ({phase} has two)",
                    )
                table[phase, action_rule.kind] = action_rule
                by_phase[phase].append(action_rule)
        # private lookups (the rules with their handlers ``Kept``), never handed out; plain
        # dicts so that an engine pickles
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_by_phase", {k: tuple(v) for k, v in by_phase.items()})

    def _kept(self, action_rule: ActionRule[Any, Any]) -> ActionRule[Any, Any]:
        """The rule with its handler followed by the engine's keeping (``Kept``)."""
        if self.after is None and self.stands is None:
            return action_rule
        handler = action_rule.handler
        if isinstance(handler, Kept):  # a rule taken from another engine: kept once
            handler = handler.handler
        return attrs.evolve(action_rule, handler=Kept(handler, self.stands, self.after))

    # --- the Turn protocol ------------------------------------------------------------
    def to_act(self, state: S) -> str | None:
        """The side that decides now (None: a step of the sequence anyone makes)."""
        return self.who_acts(state)

    def is_over(self, state: S) -> bool:
        """Whether the battle has ended."""
        return state.derived(self.over)

    def outcome(self, state: S) -> Outcome:
        """Who won the battle that has ended, the scores and why."""
        if not state.derived(self.over):
            raise InvalidValueError("state", f"turn {state.turn}, {state.phase}",
                                    "a battle that is over (is_over)")
        return self.result(state)

    def action_types(self) -> tuple[type, ...]:
        """Every action type the ruleset registers, in registration order."""
        seen: list[type] = []
        for action_rule in self.actions:
            if action_rule.kind not in seen:
                seen.append(action_rule.kind)
        return tuple(seen)

    def _phase_rules(self, state: S) -> tuple[ActionRule[Any, Any], ...]:
        rules = self._by_phase.get(state.phase)
        if rules is None:
            raise InvalidValueError(
                "phase", state.phase, "one of " + ", ".join(p.name for p in self.phases)
            )
        return rules

    def check(self, state: S, action: A) -> ActionRule[S, A]:
        """The rule that applies ``action`` now, or IllegalActionError naming why not. Rolls
        nothing and changes nothing: this is the one test of legality."""
        self._phase_rules(state)
        if state.derived(self.over):
            raise IllegalActionError(action, "the battle is over", self.rule)
        action_rule = self._table.get((state.phase, type(action)))
        if action_rule is None:
            if not any(type(action) is r.kind for r in self.actions):
                raise InvalidValueError("action", action, f"an action of {self.name}")
            raise IllegalActionError(
                action, f"{type(action).__name__} is not taken in the {state.phase} phase",
                self.rule,
            )
        action_rule.check(state, action)
        return action_rule

    def is_legal(self, state: S, action: A) -> bool:
        """Whether ``step`` would accept ``action`` now."""
        try:
            self.check(state, action)
        except IllegalActionError:
            return False
        return True

    def is_sampled(self, state: S, action: A) -> bool:
        """Whether ``action`` stands for a continuous choice the candidates only sample (a
        destination on a table): ``step`` may accept it though ``legal_actions`` omits it."""
        return self.sampled is not None and self.sampled(state, action)

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The candidates of the current phase that pass their check: exactly the actions
        ``step`` accepts, with the default facts a player would measure."""
        rules = self._phase_rules(state)
        if state.derived(self.over):
            return ()
        out: dict[A, None] = {}
        for action_rule in rules:
            check = action_rule.check
            for item in action_rule.candidates(state):
                for action in item.actions() if isinstance(item, Deferred) else (item,):
                    try:
                        check(state, action)
                    except IllegalActionError:
                        continue
                    out[action] = None  # a candidate offered twice is listed once
        return tuple(out)

    def choose_legal(self, state: S, draw: Callable[[int], int]) -> A | None:
        """One legal action picked at random, with the odds of picking uniformly from
        ``legal_actions``, but checking only as many candidates as it takes: the candidates
        (each once) are tried in a random order and the first that passes its check is
        taken, so each legal action comes first equally often. A ``Deferred`` group counts
        as ``bound`` slots until a slot of it is drawn, then as its actions (an empty slot
        drawn: draw again). ``draw(n)`` gives a uniform integer in ``range(n)``. None when no
        action is legal (or the battle is over)."""
        rules = self._phase_rules(state)
        if state.derived(self.over):
            return None
        offered: dict[A, ActionRule[Any, Any]] = {}  # each action: the first rule offering it
        also: dict[A, list[ActionRule[Any, Any]]] = {}  # and any other rules that offer it
        groups: list[tuple[Deferred[A], ActionRule[Any, Any]]] = []
        for action_rule in rules:
            for item in action_rule.candidates(state):
                if isinstance(item, Deferred):
                    groups.append((item, action_rule))
                    continue
                first = offered.setdefault(item, action_rule)
                if first is not action_rule:
                    others = also.setdefault(item, [])
                    if action_rule not in others:
                        others.append(action_rule)
        untried = list(offered)
        left = len(untried)
        slots = sum(group.bound for group, _ in groups)
        while left or slots:
            index = draw(left + slots)
            if index < left:
                action = untried[index]
                if _passes(state, action, offered[action], also):
                    return action
                left -= 1
                untried[index] = untried[left]
                continue
            group, action_rule, slot = _drawn_slot(groups, index - left)
            slots -= group.bound
            fresh: list[A] = []
            for action in group.actions():
                if action in offered:
                    raise InvalidValueError(
                        "candidates", action, "an action offered once (a deferred group's "
                        "actions are offered by nothing else)")
                offered[action] = action_rule
                fresh.append(action)
            if slot < len(fresh):  # the drawn slot holds an action: it is tried now
                action = fresh.pop(slot)
                if _passes(state, action, action_rule, also):
                    return action
            untried[left:] = fresh  # the rest wait among the untried
            left = len(untried)
        return None

    def step(self, state: S, action: A) -> tuple[S, tuple[Event, ...]]:
        """Apply ``action``: the new state and what happened. Raises IllegalActionError,
        naming the rule, for an action the rules forbid now; ``state`` is never changed."""
        action_rule = self.check(state, action)
        log = Log(state.dice.dice())
        new = action_rule.handler(state, action, log)
        return new.replace(dice=state.dice.advanced()), log.events

    def apply(self, state: S, action: A, dice: Dice) -> tuple[S, tuple[Event, ...]]:
        """Check and apply ``action`` rolling through ``dice`` (enumerating dice give the
        exact odds of a step); the dice state is left as it was."""
        action_rule = self.check(state, action)
        log = Log(dice)
        return action_rule.handler(state, action, log), log.events

    def load(self, text: str) -> S:
        """A state saved with ``to_json``, read strictly with this ruleset's classes, name
        and phases."""
        loaded: S = BattleState.from_json(  # type: ignore[assignment]
            text, *self.types, ruleset=self.name, phases=[p.name for p in self.phases]
        )
        return loaded

    def with_outcome(
        self, over: Callable[[S], bool] | None = None, result: Callable[[S], Outcome] | None = None
    ) -> Engine[S, A]:
        """This engine with a scenario's own end and victory conditions."""
        return attrs.evolve(self, over=over or self.over, result=result or self.result)


def _drawn_slot(groups: list[tuple[Deferred[A], ActionRule[Any, Any]]],
                slot: int) -> tuple[Deferred[A], ActionRule[Any, Any], int]:
    """The group holding the ``slot``-th of all the groups' slots, taken off the list, its
    rule, and the slot within it."""
    at = 0
    while slot >= groups[at][0].bound:
        slot -= groups[at][0].bound
        at += 1
    group, action_rule = groups.pop(at)
    return group, action_rule, slot


def _passes(state: Any, action: Any, first: ActionRule[Any, Any],
            also: dict[Any, list[ActionRule[Any, Any]]]) -> bool:
    """Whether ``action`` passes the check of one of the rules that offer it: ``first``,
    then those in ``also``."""
    for action_rule in (first, *also.get(action, ())):
        try:
            action_rule.check(state, action)
        except IllegalActionError:
            continue
        return True
    return False


# --- keeping derived things in step -------------------------------------------------------
@attrs.frozen
class Kept:
    """A handler followed by what keeps the state in step whatever the handler did: the
    ruleset's ``after(before, new)`` hook, then ``lost_leave_table`` with its ``stands``.
    A module-level class, so that an engine's rules pickle (a closure would not)."""

    handler: Callable[[Any, Any, Log], Any]
    stands: Callable[[Any], bool] | None = None
    after: Callable[[Any, Any], Any] | None = None

    def __call__(self, state: Any, action: Any, log: Log) -> Any:
        new = self.handler(state, action, log)
        if self.after is not None:
            new = self.after(state, new)
        if self.stands is not None:
            new = lost_leave_table(state, new, self.stands)
        return new

    @property
    def __name__(self) -> str:
        """The handler's name (errors and traces name the handler, not this wrapper)."""
        return str(getattr(self.handler, "__name__", type(self.handler).__name__))


def lost_leave_table(before: S, state: S, stands: Callable[[Any], bool]) -> S:
    """``state`` with the footprints of units that do not stand (``stands(unit)`` false:
    destroyed, gone home, surrendered) taken off the table kept in its ``extra.table``, with
    their commanders riding alone where they stood (the table's ``removed``). The state as it
    is without a table or when every footprint's unit stands (every step asks: a few
    microseconds, and a state loaded with a lost unit's footprint is mended at its first
    step). Core reads the table only through ``units`` (footprints by unit id) and
    ``removed``, so it imports nothing of ``smoothbore.table``; ``before`` is the state the
    step began from (the ``after`` hooks' signature)."""
    table = getattr(state.extra, "table", None)
    if table is None:
        return state
    placed = table.units
    gone = [unit.id for unit in state.units if unit.id in placed and not stands(unit)]
    if not gone:
        return state
    kept: S = state.with_extra(table=table.removed(*gone))  # type: ignore[assignment]
    return kept


# --- scratch state ------------------------------------------------------------------------
def phase_scoped(
    default: Any = attrs.NOTHING,
    *,
    factory: Callable[[], Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """An ``Extra`` field that lasts one phase: ``enter_phase`` resets it to its default
    (``metadata``: more attrs metadata, such as ``refers_to("units")``)."""
    return _scoped(PHASE, default, factory, metadata)


def turn_scoped(
    default: Any = attrs.NOTHING,
    *,
    factory: Callable[[], Any] | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """An ``Extra`` field that lasts one turn: ``begin_turn`` resets it to its default."""
    return _scoped(TURN, default, factory, metadata)


def _scoped(
    scope: str,
    default: Any,
    factory: Callable[[], Any] | None,
    metadata: Mapping[str, Any] | None,
) -> Any:
    tags = {**(metadata or {}), _SCOPE: scope}
    if factory is not None:
        return attrs.field(factory=factory, metadata=tags)
    return attrs.field(default=default, metadata=tags)


@functools.cache
def _scoped_defaults(kind: type, scopes: frozenset[str]) -> tuple[tuple[str, Any, bool], ...]:
    out = []
    for field in attrs.fields(kind):
        if field.metadata.get(_SCOPE) in scopes:
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                out.append((field.name, default.factory, True))
            else:
                out.append((field.name, default, False))
    return tuple(out)


def reset_scratch(extra: T, *scopes: str) -> T:
    """``extra`` with its fields of the given scopes back at their defaults."""
    kind: type = type(extra)
    defaults = _scoped_defaults(kind, frozenset(scopes))
    if not defaults:
        return extra
    changes = {name: value() if made else value for name, value, made in defaults}
    return evolved(extra, changes)


def enter_phase(state: S, phase: str) -> S:
    """The state in ``phase``, with the scratch state of the phase left behind reset."""
    return state.replace(phase=phase, extra=reset_scratch(state.extra, PHASE))  # type: ignore[return-value]


def begin_turn(state: S, phase: str, turn: int | None = None) -> S:
    """The state at the start of the next turn (or ``turn``) in ``phase``, with every
    per-turn and per-phase scratch field reset."""
    new: S = state.replace(  # type: ignore[assignment]
        turn=state.turn + 1 if turn is None else turn,
        phase=phase,
        extra=reset_scratch(state.extra, PHASE, TURN),
    )
    return new
