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
from smoothbore.core.enums import Result
from smoothbore.core.errors import IllegalActionError, InvalidValueError
from smoothbore.core.events import Event, Fact
from smoothbore.core.protocols import Phase
from smoothbore.core.state import (
    MAX_COUNTER,
    BattleState,
    DiceState,
    _copy_dice,
    evolved,
    units_by_id,
)
from smoothbore.core.validate import check_range

__all__ = [
    "MAX_RULINGS",
    "ActionRule",
    "Deferred",
    "Engine",
    "Kept",
    "Log",
    "Outcome",
    "PhaseEnd",
    "Rulings",
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

    @property
    def result(self) -> Result:
        """``Result.WIN`` when a side won (``winner`` names it), else ``Result.DRAW``: an
        outcome is a battle its rules ended."""
        return Result.DRAW if self.winner is None else Result.WIN

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
    dice for exact odds) and report with ``log.add``. A step's log (``Log.keyed``) makes its
    sampling dice only when a handler first asks for them: a step that rolls nothing pays
    nothing for them."""

    __slots__ = ("_dice", "_events", "_keyed", "_mark")

    def __init__(self, dice: Dice) -> None:
        self._dice: Dice | None = dice
        self._keyed: Any = None
        self._events: list[Event] = []
        self._mark = 0

    @classmethod
    def keyed(cls, dice_state: Any) -> Log:
        """The log of a step whose dice come from ``dice_state`` (a ``DiceState``), made
        when first asked for."""
        log = cls.__new__(cls)
        log._dice = None
        log._keyed = dice_state
        log._events = []
        log._mark = 0
        return log

    @property
    def dice(self) -> Dice:
        """The dice this step rolls through."""
        dice = self._dice
        if dice is None:
            dice = self._dice = self._keyed.dice()
            self._mark = 0
        return dice

    def _rolls(self) -> tuple[RollRecord, ...]:
        if self._dice is None:
            return ()
        since = getattr(self._dice, "records_since", None)
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


class _StepLog(Log):
    """The log ``Engine.step`` makes: a ``Log.keyed`` made without a Python ``__init__``
    (the step sets its dice state and its list of events; the roll mark is set when its
    dice are first made)."""

    __slots__ = ()
    __init__ = object.__init__


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
Check = Callable[[S, A], Any]
Handler = Callable[..., S]

MAX_RULINGS = 4096
"""The most rulings one ``Rulings`` keeps (a state with more legal actions lists them all,
and ``step`` checks those past the bound again)."""


@attrs.frozen
class PhaseEnd:
    """When a phase ends and what follows, as data (contract v2): the engine offers its
    ``Engine.end_action`` in ``phase`` while ``when(state)`` holds (None: whenever the side
    acting chooses), and ending it enters ``follows`` (a phase name, or a function of the
    state naming one), beginning a new turn when ``new_turn``; ``then(state, log)``
    (optional) is what the end does besides, on the state before the next phase is entered
    (a reset, a test due at the end of the phase). ``rule`` names the rule that ends it."""

    phase: str
    follows: str | Callable[[Any], str] = attrs.field(eq=False)
    rule: str
    when: Callable[[Any], bool] | None = attrs.field(default=None, eq=False)
    new_turn: bool = False
    then: Callable[[Any, Log], Any] | None = attrs.field(default=None, eq=False)

    def next_phase(self, state: Any) -> str:
        """The phase that follows this one in ``state``."""
        return self.follows if isinstance(self.follows, str) else self.follows(state)


@attrs.frozen
class _EndCandidates:
    """The end action of a phase, offered while the phase may end."""

    ends: Mapping[str, PhaseEnd]
    make: Callable[[], Any]

    def __call__(self, state: Any) -> tuple[Any, ...]:
        end = self.ends[state.phase]
        if end.when is not None and not state.derived(end.when):
            return ()
        return (self.make(),)


@attrs.frozen
class _EndCheck:
    """Refuses ending a phase before its ``when`` holds; the ruling is the ``PhaseEnd``."""

    ends: Mapping[str, PhaseEnd]

    def __call__(self, state: Any, action: Any) -> PhaseEnd:
        end = self.ends[state.phase]
        if end.when is not None and not state.derived(end.when):
            raise IllegalActionError(action, f"the {state.phase} phase does not end yet",
                                     end.rule)
        return end


def _end_phase(state: Any, action: Any, log: Log, end: PhaseEnd) -> Any:
    """The handler of a declared phase end: ``then``, then the next phase (or turn)."""
    if end.then is not None:
        state = end.then(state, log)
    follows = end.next_phase(state)
    if end.new_turn:
        state = begin_turn(state, follows)
        log.add("phase", f"turn {state.turn} begins: {follows}", end.rule)
    else:
        log.add("phase", f"the {end.phase} phase ends: {follows}", end.rule)
        state = enter_phase(state, follows)
    return state


@attrs.frozen(eq=False)
class Rulings(Generic[A]):
    """The legal actions of one state and, for each, the rule that applies it and its
    ruling (what its check measured), kept so that ``Engine.step`` given these rulings for
    the same state (the very object: a state never changes) reuses them instead of checking
    again. At most ``MAX_RULINGS`` are kept. Returned by ``Engine.legal_rulings`` and
    ``Engine.choose_ruled``; nothing is stored anywhere else."""

    state: Any = attrs.field(repr=False)
    actions: tuple[A, ...]
    _ruled: Mapping[Any, tuple[ActionRule[Any, Any], Any]] = attrs.field(repr=False)

    def ruling(self, state: Any, action: A) -> tuple[ActionRule[Any, Any], Any] | None:
        """The rule and ruling kept for ``action`` in ``state`` (None: not kept for it)."""
        if state is not self.state:
            return None
        return self._ruled.get(action)


@attrs.frozen
class ActionRule(Generic[S, A]):
    """One action type of a ruleset: the phases it belongs to, the actions worth offering
    in a state (``candidates``), the roll-free ``check`` that raises IllegalActionError
    naming the rule, and the ``handler`` that applies it, rolling through the log's dice."""

    kind: type[A]
    phases: tuple[str, ...]
    candidates: Callable[[Any], Iterable[A | Deferred[A]]] = attrs.field(eq=False)
    check: Callable[[Any, A], Any] = attrs.field(eq=False)
    handler: Callable[..., Any] = attrs.field(eq=False)
    ruled: bool = False
    """Contract v2: ``check`` returns its ruling (the facts it measured, any frozen value)
    and the handler is called ``handler(state, action, log, ruling)`` with it, so a step
    never measures twice. False (contract v1): the check's return is ignored and the handler
    takes ``(state, action, log)``."""
    guarded: bool = True
    """Whether the engine's guards (``Engine.decided``, ``Engine.actor``) apply to this
    action type; False for the few actions still taken once the battle is decided."""


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
    decided: Callable[[S], tuple[str, str] | None] | None = attrs.field(default=None, eq=False)
    actor: Callable[[Any], str | None] | None = attrs.field(default=None, eq=False)
    actor_rule: str = ""
    phase_ends: tuple[PhaseEnd, ...] = ()
    end_action: type | None = attrs.field(default=None, eq=False)
    _table: Mapping[tuple[str, type], ActionRule[Any, Any]] = attrs.field(
        init=False, eq=False, repr=False
    )
    _rules: tuple[ActionRule[Any, Any], ...] = attrs.field(init=False, eq=False, repr=False)
    _by_phase: Mapping[str, tuple[ActionRule[Any, Any], ...]] = attrs.field(
        init=False, eq=False, repr=False
    )
    _guarded: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        names = [p.name for p in self.phases]
        table: dict[tuple[str, type], ActionRule[Any, Any]] = {}
        by_phase: dict[str, list[ActionRule[Any, Any]]] = {name: [] for name in names}
        declared_rules = (*self.actions, *self._end_rules(names))
        for declared in declared_rules:
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
        object.__setattr__(self, "_rules", declared_rules)
        object.__setattr__(self, "_guarded", self.decided is not None or self.actor is not None)

    def _end_rules(self, names: list[str]) -> tuple[ActionRule[Any, Any], ...]:
        """The rule the engine makes of ``phase_ends`` (none when there are none)."""
        if not self.phase_ends:
            return ()
        if self.end_action is None:
            raise InvalidValueError("Engine.end_action", None,
                                    "the action type that ends a phase, with phase_ends")
        ends: dict[str, PhaseEnd] = {}
        for end in self.phase_ends:
            if end.phase not in names or end.phase in ends:
                raise InvalidValueError("PhaseEnd.phase", end.phase,
                                        "a phase of " + ", ".join(names) + ", ended once")
            if isinstance(end.follows, str) and end.follows not in names:
                raise InvalidValueError("PhaseEnd.follows", end.follows,
                                        "one of " + ", ".join(names))
            ends[end.phase] = end
        return (ActionRule(self.end_action, tuple(ends), _EndCandidates(ends, self.end_action),
                           _EndCheck(ends), _end_phase, ruled=True),)

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
        for action_rule in self._rules:
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
        return self.rule_on(state, action)[0]

    def rule_on(self, state: S, action: A) -> tuple[ActionRule[S, A], Any]:
        """The rule that applies ``action`` now and its ruling (what its check measured;
        None for a v1 rule), or IllegalActionError naming why not: the battle is over, the
        action is not taken in this phase, a guard refuses it, or its check does."""
        if state.phase not in self._by_phase:
            self._phase_rules(state)  # the error naming the phases
        if state.derived(self.over):
            raise IllegalActionError(action, "the battle is over", self.rule)
        action_rule = self._table.get((state.phase, type(action)))
        if action_rule is None:
            if not any(type(action) is r.kind for r in self._rules):
                raise InvalidValueError("action", action, f"an action of {self.name}")
            raise IllegalActionError(
                action, f"{type(action).__name__} is not taken in the {state.phase} phase",
                self.rule,
            )
        if action_rule.guarded:
            self._guard(state, action)
        ruling = action_rule.check(state, action)
        return action_rule, ruling if action_rule.ruled else None

    def _guard(self, state: S, action: A) -> None:
        """The guards declared once for every action: the battle decided, and the unit
        acting of the side acting and standing (not asked of the end of a phase, which is
        the side's, never a unit's). The state's derived answers are read directly: every
        candidate's check passes here."""
        decided = self.decided
        if decided is not None:
            memo = state._derived
            try:
                refusal = memo[decided]
            except KeyError:
                refusal = memo[decided] = decided(state)
            if refusal is not None:
                raise IllegalActionError(action, refusal[0], refusal[1])
        if self.actor is not None and type(action) is not self.end_action:
            self._guard_actor(state, action)

    def _guard_actor(self, state: S, action: A) -> None:
        """The second guard: the unit acting (``actor``) of the side acting and standing."""
        unit_id = self.actor(action)  # type: ignore[misc]
        if unit_id is None:
            return
        unit = state.unit(unit_id)
        who = self.who_acts
        memo = state._derived
        try:
            side = memo[who]
        except KeyError:
            side = memo[who] = who(state)
        if side is not None and getattr(unit, "side", None) != side:
            name = getattr(unit, "name", unit_id)
            raise IllegalActionError(action, f"{name} is not a unit of {side}",
                                     self.actor_rule or self.rule)
        if self.stands is not None and not self.stands(unit):
            name = getattr(unit, "name", unit_id)
            raise IllegalActionError(action, f"{name} is no longer on the table",
                                     self.actor_rule or self.rule)

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
        return self.legal_rulings(state).actions

    def legal_rulings(self, state: S) -> Rulings[A]:
        """The legal actions (as ``legal_actions``) with the rule and ruling of each, for a
        ``step`` of this state to reuse (``step(state, action, rulings)``)."""
        rules = self._phase_rules(state)
        ruled: dict[A, tuple[ActionRule[Any, Any], Any]] = {}
        out: dict[A, None] = {}
        if state.derived(self.over):
            return Rulings(state, (), ruled)
        decided = self.decided is not None and state.derived(self.decided) is not None
        for action_rule in rules:
            if decided and action_rule.guarded:
                continue
            for item in action_rule.candidates(state):
                for action in item.actions() if isinstance(item, Deferred) else (item,):
                    if action in out:
                        continue  # a candidate offered twice is listed once
                    try:
                        ruling = self._ruling(state, action_rule, action)
                    except IllegalActionError:
                        continue
                    out[action] = None
                    if len(ruled) < MAX_RULINGS and self._table.get(
                            (state.phase, type(action))) is action_rule:
                        ruled[action] = (action_rule, ruling)
        return Rulings(state, tuple(out), ruled)

    def _ruling(self, state: S, action_rule: ActionRule[Any, Any], action: A) -> Any:
        """``action``'s ruling under ``action_rule`` (the guards, then the check), or
        IllegalActionError."""
        if action_rule.guarded and self.actor is not None:
            self._guard(state, action)
        ruling = action_rule.check(state, action)
        return ruling if action_rule.ruled else None

    def choose_legal(self, state: S, draw: Callable[[int], int]) -> A | None:
        """One legal action picked at random (``choose_ruled`` without its ruling)."""
        chosen = self.choose_ruled(state, draw)
        return None if chosen is None else chosen.actions[0]

    def choose_ruled(self, state: S, draw: Callable[[int], int]) -> Rulings[A] | None:
        """One legal action picked at random, with the odds of picking uniformly from
        ``legal_actions``, but checking only as many candidates as it takes: the candidates
        (each once) are tried in a random order and the first that passes its check is
        taken, so each legal action comes first equally often. A ``Deferred`` group counts
        as ``bound`` slots until a slot of it is drawn, then as its actions (an empty slot
        drawn: draw again). ``draw(n)`` gives a uniform integer in ``range(n)``. None when no
        action is legal (or the battle is over). The action comes as the one action of a
        ``Rulings`` that also keeps its ruling for ``step``."""
        rules = self._phase_rules(state)
        if state.derived(self.over):
            return None
        if self.decided is not None and state.derived(self.decided) is not None:
            rules = tuple(r for r in rules if not r.guarded)
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
                chosen = self._passes(state, action, offered[action], also)
                if chosen is not None:
                    return chosen
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
                chosen = self._passes(state, action, action_rule, also)
                if chosen is not None:
                    return chosen
            untried[left:] = fresh  # the rest wait among the untried
            left = len(untried)
        return None

    def _passes(self, state: S, action: A, first: ActionRule[Any, Any],
                also: dict[Any, list[ActionRule[Any, Any]]]) -> Rulings[A] | None:
        """``action`` with its ruling if it passes the check of one of the rules that offer
        it (``first``, then those in ``also``); None if none."""
        offering: tuple[ActionRule[Any, Any], ...] = (first, *also.get(action, ()))
        for action_rule in offering:
            try:
                ruling = self._ruling(state, action_rule, action)
            except IllegalActionError:
                continue
            kept: dict[Any, tuple[ActionRule[Any, Any], Any]] = {}
            if self._table.get((state.phase, type(action))) is action_rule:
                kept[action] = (action_rule, ruling)
            return Rulings(state, (action,), kept)
        return None

    def step(self, state: S, action: A, rulings: Rulings[A] | None = None
             ) -> tuple[S, tuple[Event, ...]]:
        """Apply ``action``: the new state and what happened. Raises IllegalActionError,
        naming the rule, for an action the rules forbid now; ``state`` is never changed.
        ``rulings`` (from ``legal_rulings`` or ``choose_ruled`` of this very state) spare the
        check of an action they hold: its ruling goes to the handler as it is.

        Every battle step runs this, so the engine's own part is written out here (issue 29:
        at most 10 k instructions a step besides the check and the handler): the lookups of
        ``rule_on`` on its plain path, the step's log, the next ``DiceState``, and the dice
        carried onto a copy of the handler's state that keeps what was already derived from
        it (``BattleState.with_dice``)."""
        if rulings is None:
            kept = None
        elif rulings.state is state and len(rulings.actions) == 1 and (
                rulings.actions[0] is action):  # ``choose_ruled``'s one action, as it is
            kept = next(iter(rulings._ruled.values()), None)  # no hash of the action
        else:
            kept = rulings.ruling(state, action)
        if kept is None:
            memo = state._derived  # ``state.derived(self.over)``, written out
            over = self.over
            try:
                ended = memo[over]
            except KeyError:
                ended = memo[over] = over(state)
            action_rule = self._table.get((state.phase, type(action)))
            if ended or action_rule is None:
                action_rule, ruling = self.rule_on(state, action)  # raises, naming why
            else:
                if action_rule.guarded and self._guarded:
                    decided = self.decided  # ``_guard``'s first guard, written out
                    if decided is not None:
                        try:
                            refusal = memo[decided]
                        except KeyError:
                            refusal = memo[decided] = decided(state)
                        if refusal is not None:
                            raise IllegalActionError(action, refusal[0], refusal[1])
                    actor = self.actor  # ``_guard_actor``, written out
                    if actor is not None and type(action) is not self.end_action:
                        unit_id = actor(action)
                        if unit_id is not None:
                            try:
                                index = memo[units_by_id]
                            except KeyError:
                                index = memo[units_by_id] = units_by_id(state)
                            unit = index.get(unit_id) if type(unit_id) is str else None
                            who = self.who_acts
                            try:
                                side = memo[who]
                            except KeyError:
                                side = memo[who] = who(state)
                            if unit is None or (side is not None and unit.side != side) or (
                                    self.stands is not None and not self.stands(unit)):
                                self._guard_actor(state, action)  # raises, naming why
                ruling = action_rule.check(state, action)
        else:
            action_rule, ruling = kept
        dice = state.dice
        log = _StepLog()  # ``Log.keyed(dice)``, written out
        log._dice = None
        log._keyed = dice
        log._events = []
        if action_rule.ruled:
            new = action_rule.handler(state, action, log, ruling)
        else:
            new = action_rule.handler(state, action, log)
        counter = dice.counter + 1  # ``dice.advanced()``, written out
        if counter > MAX_COUNTER:
            check_range("DiceState.counter", counter, 0, MAX_COUNTER)
        following = _new_object(DiceState)
        _set_seed(following, dice.seed)
        _set_counter(following, counter)
        if type(new) is not BattleState:  # ``new.with_dice``, written out
            return new.with_dice(following), tuple(log._events)
        return _copy_dice(new, following), tuple(log._events)

    def apply(self, state: S, action: A, dice: Dice, rulings: Rulings[A] | None = None
              ) -> tuple[S, tuple[Event, ...]]:
        """Check and apply ``action`` rolling through ``dice`` (enumerating dice give the
        exact odds of a step); the dice state is left as it was."""
        kept = None if rulings is None else rulings.ruling(state, action)
        action_rule, ruling = self.rule_on(state, action) if kept is None else kept
        log = Log(dice)
        if action_rule.ruled:
            return action_rule.handler(state, action, log, ruling), log.events
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


# --- carrying the dice forward -------------------------------------------------------------
_new_object = object.__new__
_set_seed = DiceState.__dict__["seed"].__set__
_set_counter = DiceState.__dict__["counter"].__set__


# --- keeping derived things in step -------------------------------------------------------
@attrs.frozen
class Kept:
    """A handler followed by what keeps the state in step whatever the handler did: the
    ruleset's ``after(before, new)`` hook, then ``lost_leave_table`` with its ``stands``.
    A module-level class, so that an engine's rules pickle (a closure would not)."""

    handler: Callable[[Any, Any, Log], Any]
    stands: Callable[[Any], bool] | None = None
    after: Callable[[Any, Any], Any] | None = None

    def __call__(self, state: Any, action: Any, log: Log, *ruling: Any) -> Any:
        new = self.handler(state, action, log, *ruling)
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
