"""The conformance suite, shipped: ``check_ruleset(ruleset)`` checks that a rule book keeps
the engine contract, as the library's own test suite checks every registered one.

What it checks: the metadata and every mechanism (an exact distribution from its defaults, a
seeded roll that names its rules and replays, arguments refused by name past their bounds);
that the ruleset pickles, also when ``attrs.evolve``-d, and plays the same on a process pool;
then ``battles`` seeded random battles, spread over its embedded battles: every one ends by
its rules within ``max_steps`` actions with an outcome that names a side (or a draw) and
scores every side, and every registered action type is offered somewhere. The costlier checks
of each step run on a sample (every ``deep_every``-th battle, about ``deep_steps`` steps of
each): every listed action is accepted, actions listed earlier in the battle and not listed
now are refused, a step leaves its state untouched and repeats exactly, states round-trip
through JSON, a replay gives the battle back. And the table's integrity, at the start and
after every step of those battles (DESIGN.md, "The table seam"): its footprints are exactly
the units that stand (``Engine.stands``), each on its unit's side, all within the table, no
two sharing ground.

Every check is a plain function raising ``AssertionError`` with where and what, so a third
party's test suite calls ``check_ruleset`` (or the single checks) from any test runner.
Nothing here is kept between calls.
"""

from __future__ import annotations

import functools
import pickle
import sys
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs
import numpy as np

from smoothbore.battle import Played, RandomPolicy, play, replay
from smoothbore.core import (
    Distribution,
    IllegalActionError,
    InvalidValueError,
    Mechanism,
    Ruleset,
    SamplingDice,
    Turn,
    odds,
)
from smoothbore.core.registry import normalise
from smoothbore.core.ruleset import is_validated
from smoothbore.simulation import simulate
from smoothbore.table import stacked, table_of

__all__ = [
    "BATTLES",
    "DEEP_EVERY",
    "DEEP_STEPS",
    "MAX_STEPS",
    "REFUSALS",
    "TABLE_ROUNDS",
    "Conformance",
    "Sample",
    "check_action_types_offered",
    "check_battles_end",
    "check_deep",
    "check_mechanism",
    "check_metadata",
    "check_outcomes",
    "check_pickles",
    "check_process_pool",
    "check_ruleset",
    "check_starts",
    "check_steps",
    "check_table",
    "play_battles",
]

MAX_STEPS = 5_000
BATTLES = 200
TABLE_ROUNDS = 40
"""Battles on a table are played for the first TABLE_ROUNDS rounds of seeds only: measuring
every range and move makes them 4 to 12 times slower than their no-table twins."""
DEEP_EVERY = 10
DEEP_STEPS = 50
REFUSALS = 4


# --- metadata and mechanisms ----------------------------------------------------------------
def check_metadata(ruleset: Ruleset) -> None:
    assert ruleset.name == normalise(ruleset.name)
    assert ruleset.title and ruleset.period and ruleset.edition
    assert ruleset.dice
    assert ruleset.phases
    assert all(phase.rule and phase.summary for phase in ruleset.phases)
    names = [m.name for m in ruleset.mechanisms]
    assert len(names) == len(set(names)), "mechanism names are unique"
    if ruleset.turn is not None:
        assert isinstance(ruleset.turn, Turn)
        assert ruleset.turn.phases
        assert ruleset.battles(), "a ruleset with a turn embeds at least one battle"
        battle_names = [name for name, _ in ruleset.battles()]
        assert len(battle_names) == len(set(battle_names)), "battle names are unique"


def check_mechanism(mechanism: Mechanism) -> None:
    assert mechanism.rule and mechanism.summary
    check_mechanism_validates(mechanism)
    for parameter in mechanism.parameters:
        assert parameter.help.strip(), f"{mechanism.name} {parameter.name} has no help"
        assert parameter.parse(parameter.show(parameter.default)) == parameter.default
    defaults = mechanism.defaults()
    dist: Distribution[Hashable] = odds(mechanism.function, **defaults)
    assert sum(w for _, w in dist.items()) == dist.denominator
    assert all(str(outcome) for outcome in dist.outcomes)
    # play: a seeded roll lands on a possible outcome, names its rules, and replays exactly
    first, second = SamplingDice(11), SamplingDice(11)
    result = mechanism.function(dice=first, **defaults)
    assert mechanism.function(dice=second, **defaults) == result
    assert dist.probability(result) > 0
    assert first.records == second.records
    assert all(record.rule and record.reason for record in first.records)


def check_mechanism_validates(mechanism: Mechanism) -> None:
    """A mechanism checks its arguments however it is called (issue 27): its function is
    ``validated``, and so is the module-level function of that name (a plain call from
    Python); a value of the wrong kind, or past its range, raises InvalidValueError naming
    the parameter, directly and through ``odds``."""
    function = mechanism.function
    assert is_validated(function), f"{mechanism.name}: not validated"
    module = sys.modules.get(getattr(function, "__module__", ""))
    named = getattr(module, getattr(function, "__name__", ""), None)
    assert named is function, (
        f"{mechanism.name}: the module's {function.__name__} does not validate its arguments "
        "(decorate it with core.ruleset.validated)")
    for parameter in mechanism.parameters:
        bad: list[Any] = [object()]
        if parameter.kind in (int, float) and not parameter.choices:
            assert parameter.high is not None, (
                f"{mechanism.name} {parameter.name}: no bound (issue 28)")
            bad.append(parameter.high + 1)
            if parameter.low is not None:
                bad.append(parameter.low - 1)
        for value in bad:
            given = {parameter.name: value}
            _refused(mechanism, parameter.name, value,
                     functools.partial(function, dice=SamplingDice(0), **given))
            _refused(mechanism, parameter.name, value, functools.partial(odds, function, **given))


def _refused(mechanism: Mechanism, name: str, value: Any, call: Callable[[], Any]) -> None:
    try:
        call()
    except InvalidValueError as error:
        assert error.field == name, f"{mechanism.name}: {error} names {error.field}, not {name}"
        return
    raise AssertionError(f"{mechanism.name} accepts {name}={value!r}")


# --- pickling -----------------------------------------------------------------------------
PICKLE_STEPS = 10


def check_pickles(ruleset: Ruleset) -> None:
    """The ruleset pickles and unpickles, as it is and after ``attrs.evolve`` (of the ruleset
    and of its turn), so that a changed ruleset can go to worker processes; the unpickled
    turn plays the first PICKLE_STEPS steps of each embedded battle exactly as the original
    (issue 27: the handler wrappers were closures)."""
    variants = [ruleset, attrs.evolve(ruleset, title=f"{ruleset.title} (evolved)")]
    turn = ruleset.turn
    if turn is not None and attrs.has(type(turn)):
        variants.append(attrs.evolve(ruleset, turn=attrs.evolve(turn)))  # type: ignore[misc]
    for variant in variants:
        try:
            back = pickle.loads(pickle.dumps(variant))
        except Exception as error:
            raise AssertionError(f"{ruleset.name} does not pickle: {error!r}") from error
        assert back == variant
        if variant is not variants[-1] or variant.turn is None:
            continue  # the last (the turn evolved too) plays: the others differ in data only
        for name, make in variant.battles():
            state = make(0)
            for _ in range(PICKLE_STEPS):
                actions = variant.turn.legal_actions(state)
                if not actions:
                    break
                action = actions[len(actions) // 2]
                mine, theirs = variant.turn.step(state, action), back.turn.step(state, action)
                assert mine == theirs, f"{ruleset.name} {name}: unpickled turn steps otherwise"
                state = mine[0]


# --- battles ------------------------------------------------------------------------------
@attrs.frozen
class Sample:
    """One seeded random battle: which embedded battle, the seed, how it went, and every
    action type that legal_actions offered along the way."""

    battle: str
    seed: int
    played: Played[Any, Any]
    offered: frozenset[type]


class _Recording:
    """A random policy that notes the type of every action offered to it."""

    def __init__(self, seed: int) -> None:
        self.choose = RandomPolicy(seed)
        self.offered: set[type] = set()

    def __call__(self, state: Any, actions: tuple[Any, ...]) -> Any:
        self.offered.update(map(type, actions))
        return self.choose(state, actions)


def play_battles(ruleset: Ruleset, count: int, max_steps: int = MAX_STEPS, *,
                 table_rounds: int = TABLE_ROUNDS) -> tuple[Sample, ...]:
    """``count`` random battles, seeds 0, 1, ..., going round the embedded battles (those
    on a table for the first ``table_rounds`` rounds only)."""
    turn, battles = ruleset.turn, ruleset.battles()
    assert turn is not None
    samples = []
    for seed in range(count):
        name, make = battles[seed % len(battles)]
        start = make(seed)
        if table_of(start) is not None and seed // len(battles) >= table_rounds:
            continue
        policy = _Recording(seed)
        try:
            played = play(turn, start, policy, max_steps=max_steps)
        except IllegalActionError as error:  # the policy only takes listed actions
            raise AssertionError(f"{name} seed {seed}: step refuses listed {error.action!r}: "
                                 f"{error.why}") from error
        samples.append(Sample(name, seed, played, frozenset(policy.offered)))
    return tuple(samples)


def check_starts(ruleset: Ruleset) -> None:
    """Every embedded battle starts playable, with a turn limit so that it ends."""
    turn = ruleset.turn
    assert turn is not None
    for name, make in ruleset.battles():
        state = make(0)
        assert make(0) == state, f"{name}: the same seed makes the same battle"
        assert normalise(state.ruleset) == ruleset.name
        assert len(state.sides) >= 2
        assert state.scenario.turn_limit is not None, f"{name} has no turn limit"
        assert not turn.is_over(state), f"{name} is over before it starts"
        assert turn.legal_actions(state), f"{name} offers no action at the start"


def check_battles_end(samples: tuple[Sample, ...], max_steps: int = MAX_STEPS) -> None:
    for sample in samples:
        played = sample.played
        assert played.finished, (
            f"{sample.battle} seed {sample.seed} did not end: {played.stop.value} after "
            f"{len(played.steps)} actions (turn {played.end.turn}, {played.end.phase})"
        )
        assert len(played.steps) <= max_steps


def check_outcomes(turn: Any, samples: tuple[Sample, ...]) -> None:
    for sample in samples:
        end, outcome = sample.played.end, sample.played.outcome
        where = f"{sample.battle} seed {sample.seed}"
        assert outcome is not None, f"{where}: no outcome"
        assert outcome == turn.outcome(end)
        assert outcome.winner is None or outcome.winner in end.sides, f"{where}: {outcome}"
        assert sorted(side for side, _ in outcome.scores) == sorted(end.sides), (
            f"{where}: scores {outcome.scores} for sides {end.sides}"
        )
        assert all(isinstance(score, int) for _, score in outcome.scores)
        assert outcome.reason and outcome.rule


def check_action_types_offered(turn: Any, samples: tuple[Sample, ...]) -> None:
    offered = frozenset().union(*(sample.offered for sample in samples))
    missing = [kind.__name__ for kind in turn.action_types() if kind not in offered]
    assert not missing, f"never offered in {len(samples)} battles: {', '.join(missing)}"


def check_steps(turn: Any, sample: Sample, stride: int, refusals: int = REFUSALS) -> None:
    """Replay a battle, checking every ``stride``-th step: each listed action is accepted,
    earlier actions no longer listed are refused, the step taken is pure and repeats, the
    state round-trips through JSON; at the start and after every step, on a table, no unit
    stands on another and the footprints are exactly the standing units; then the whole
    replay equals the battle."""
    played = sample.played
    rng = np.random.default_rng(sample.seed)
    earlier: dict[Any, None] = {}
    state = played.start
    stands = getattr(turn, "stands", None)
    check_table(state, f"{sample.battle} seed {sample.seed}, at the start", stands)
    for index, step in enumerate(played.steps):
        where = f"{sample.battle} seed {sample.seed}, step {index + 1} (turn {state.turn}, " \
                f"{state.phase})"
        if index % stride == 0:
            listed = turn.legal_actions(state)
            _check_accepted(turn, state, listed, where)
            unlisted = [a for a in earlier if a not in set(listed)]
            sampled = getattr(turn, "is_sampled", None)
            if sampled is not None:  # a continuous choice listed as a sample may still be legal
                unlisted = [a for a in unlisted if not sampled(state, a)]
            _check_refused(turn, state, unlisted, rng, where, refusals)
            _check_chosen(turn, state, listed, rng, where)
            _check_pure(turn, state, step.action, where)
            assert turn.load(state.to_json()) == state, f"{where}: JSON round trip"
            earlier.update(dict.fromkeys(listed))
        earlier[step.action] = None
        state, _ = turn.step(state, step.action)
        check_table(state, f"{where}, after {step.action!r}", stands)
    assert state == played.end
    assert replay(turn, played.start, played.actions()) == played


def check_table(state: Any, where: str, stands: Callable[[Any], bool] | None = None,
                *, needs_stands: bool = True) -> None:
    """The table's integrity (read only): on a table, the footprints are exactly the units
    that stand (``stands(unit)``, the ruleset's ``Engine.stands``, which a ruleset playing on
    a table must declare): a lost unit leaves the table, a standing one keeps its footprint;
    each footprint is on its unit's side; every footprint lies within the table; and no two
    units stand on each other: the area they share is at most a speck ((1e-4 of the table's
    diagonal) squared), far above rounding and far below any base."""
    table = table_of(state)
    if table is None:
        return
    if stands is None:
        assert not needs_stands, (
            f"{where}: the battle is on a table, but the turn does not say which units stand "
            "on it (Engine.stands), so lost units cannot be taken off it")
    else:
        standing = {unit.id for unit in state.units if stands(unit)}
        placed = set(table.units)
        ghosts, missing = sorted(placed - standing), sorted(standing - placed)
        assert not ghosts, f"{where}: footprints of units that no longer stand: {ghosts}"
        assert not missing, f"{where}: standing units without a footprint: {missing}"
    sides = {getattr(unit, "id", None): getattr(unit, "side", None)
             for unit in getattr(state, "units", ())}
    for footprint in table.footprints:
        side = sides.get(footprint.unit_id)
        assert side is None or footprint.side == side, (
            f"{where}: the footprint of {footprint.unit_id} is on side {footprint.side!r}, "
            f"its unit on {side!r}")
        assert table.holds(footprint), (
            f"{where}: the footprint of {footprint.unit_id} lies off the "
            f"{table.width:g} x {table.depth:g} table (bounds {footprint.bounds})")
    speck = (1e-4 * table.diagonal) ** 2
    prints = table.footprints
    for i, j, shared in stacked(prints, speck, bases=True):
        raise AssertionError(f"{where}: {prints[i].unit_id} and {prints[j].unit_id} overlap "
                             f"by {shared:.3g}")


def _check_accepted(turn: Any, state: Any, listed: tuple[Any, ...], where: str) -> None:
    for action in listed:
        try:
            turn.step(state, action)
        except Exception as error:
            raise AssertionError(f"{where}: step refuses listed {action!r}: {error}") from error


def _check_refused(turn: Any, state: Any, unlisted: list[Any], rng: np.random.Generator,
                   where: str, refusals: int = REFUSALS) -> None:
    picked = rng.choice(len(unlisted), size=min(refusals, len(unlisted)), replace=False)
    for i in sorted(int(i) for i in picked):
        action = unlisted[i]
        try:
            turn.step(state, action)
        except IllegalActionError:
            continue
        except Exception as error:
            raise AssertionError(
                f"{where}: {action!r} is not listed, and step raised {error!r}, not "
                "IllegalActionError"
            ) from error
        raise AssertionError(f"{where}: step accepts {action!r}, which legal_actions omits")


def _check_chosen(turn: Any, state: Any, listed: tuple[Any, ...], rng: np.random.Generator,
                  where: str) -> None:
    """Random play's lazy choice (``choose_legal``) is always one of the listed actions."""
    choose = getattr(turn, "choose_legal", None)
    if choose is None:
        return
    for _ in range(2):
        picked = choose(state, lambda count: int(rng.integers(count)))
        if listed:
            assert picked in listed, f"{where}: choose_legal picks unlisted {picked!r}"
        else:
            assert picked is None, f"{where}: choose_legal picks {picked!r}, none listed"


def _check_pure(turn: Any, state: Any, action: Any, where: str) -> None:
    before = state.to_json()
    after, events = turn.step(state, action)
    assert state.to_json() == before, f"{where}: step changed its state"
    assert turn.step(state, action) == (after, events), f"{where}: step does not repeat"
    assert all(event.rule for event in events), f"{where}: an event names no rule"


def check_deep(turn: Any, samples: tuple[Sample, ...], every: int = DEEP_EVERY,
               steps: int = DEEP_STEPS, refusals: int = REFUSALS) -> int:
    """``check_steps`` on every ``every``-th battle, about ``steps`` steps of each: the
    number of battles checked."""
    checked = samples[::every]
    for sample in checked:
        check_steps(turn, sample, max(1, len(sample.played.steps) // steps), refusals)
    return len(checked)


def check_process_pool(ruleset: Ruleset, max_steps: int = MAX_STEPS) -> None:
    """``simulate`` sends a ruleset that is not the registered one to worker processes by
    pickling it: the runs give what they give in this process."""
    evolved = attrs.evolve(ruleset, title=f"{ruleset.title} (evolved)")
    here = simulate(evolved, runs=2, seed=7, max_steps=max_steps)
    with ProcessPoolExecutor(1) as pool:
        there = simulate(evolved, runs=2, seed=7, executor=pool, max_steps=max_steps)
    assert there.to_dict(runs=True) == here.to_dict(runs=True), (
        f"{ruleset.name}: an evolved ruleset plays otherwise on a process pool")


@attrs.frozen
class Conformance:
    """What ``check_ruleset`` checked: the ruleset, its mechanisms, the random battles
    played to their end and those whose steps were checked one by one."""

    ruleset: str
    mechanisms: int
    battles: int
    deep: int


def check_ruleset(
    ruleset: Ruleset,
    *,
    battles: int = BATTLES,
    max_steps: int = MAX_STEPS,
    table_rounds: int = TABLE_ROUNDS,
    deep_every: int = DEEP_EVERY,
    deep_steps: int = DEEP_STEPS,
    refusals: int = REFUSALS,
    process_pool: bool = True,
) -> Conformance:
    """Every check of the conformance suite on ``ruleset`` (see the module's docstring):
    AssertionError naming the first fault, else what was checked. ``battles`` seeded random
    battles (those on a table for the first ``table_rounds`` rounds of the embedded
    battles), each within ``max_steps`` actions; step by step, every ``deep_every``-th
    battle, about ``deep_steps`` steps of it, with ``refusals`` unlisted actions tried a
    step; ``process_pool``: also play it on a process pool of one worker."""
    for name, value in (("battles", battles), ("max_steps", max_steps),
                        ("table_rounds", table_rounds), ("deep_every", deep_every),
                        ("deep_steps", deep_steps), ("refusals", refusals)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidValueError(name, value, "an integer of 1 or more")
    if not isinstance(ruleset, Ruleset):
        raise InvalidValueError("ruleset", ruleset, "a Ruleset")
    check_metadata(ruleset)
    for mechanism in ruleset.mechanisms:
        check_mechanism(mechanism)
    if ruleset.turn is None:
        check_pickles(ruleset)
        return Conformance(ruleset.name, len(ruleset.mechanisms), 0, 0)
    check_starts(ruleset)
    samples = play_battles(ruleset, battles, max_steps, table_rounds=table_rounds)
    check_battles_end(samples, max_steps)
    check_outcomes(ruleset.turn, samples)
    check_action_types_offered(ruleset.turn, samples)
    deep = check_deep(ruleset.turn, samples, deep_every, deep_steps, refusals)
    check_pickles(ruleset)
    if process_pool:
        check_process_pool(ruleset, max_steps)
    return Conformance(ruleset.name, len(ruleset.mechanisms), len(samples), deep)
