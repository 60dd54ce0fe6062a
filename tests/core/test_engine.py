"""The core turn engine on a toy duel: one source of legality, pure steps that log their
rolls, scratch state reset by phase and turn, and battles that end with an outcome."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest

from smoothbore.core import (
    D6,
    ActionRule,
    BattleState,
    Deferred,
    DiceState,
    Engine,
    IllegalActionError,
    InvalidValueError,
    Log,
    Outcome,
    Phase,
    Scenario,
    ThresholdCheck,
    Turn,
    begin_turn,
    enter_phase,
    odds,
    phase_scoped,
    turn_scoped,
)

RULE = "Toy duel"
FIRE, RALLY = "fire", "rally"


@attrs.frozen
class Company:
    id: str
    name: str
    side: str
    hits: int = 0

    @property
    def broken(self) -> bool:
        return self.hits >= 2


@attrs.frozen
class Captain:
    id: str
    name: str
    side: str


@attrs.frozen
class Extra:
    fired: frozenset[str] = phase_scoped(frozenset())
    rallied: tuple[str, ...] = turn_scoped(factory=tuple)
    volleys: int = 0


@attrs.frozen
class Options:
    target: int = 7


Duel = BattleState[Company, Captain, Extra, Options]


@attrs.frozen
class Fire:
    firer: str
    target: str


@attrs.frozen
class Rally:
    unit: str


@attrs.frozen
class EndPhase:
    pass


def candidates_fire(state: Duel) -> list[Fire]:
    return [Fire(f.id, t.id) for f in state.units for t in state.units if f.side != t.side]


def check_fire(state: Duel, action: Fire) -> None:
    firer, target = state.unit(action.firer), state.unit(action.target)
    if firer.side == target.side:
        raise IllegalActionError(action, "fire at the enemy", RULE)
    if firer.id in state.extra.fired:
        raise IllegalActionError(action, f"{firer.name} has fired this phase", RULE)
    if firer.broken or target.broken:
        raise IllegalActionError(action, "broken companies neither fire nor are fired at", RULE)


def apply_fire(state: Duel, action: Fire, log: Log) -> Duel:
    target = state.unit(action.target)
    hit = log.dice.roll(ThresholdCheck((D6, D6), state.options.target), reason="volley",
                        rule=RULE)
    log.add("fire", f"{action.firer} {'hits' if hit else 'misses'} {target.name}", RULE,
            action.firer)
    extra = attrs.evolve(state.extra, fired=state.extra.fired | {action.firer},
                         volleys=state.extra.volleys + 1)
    after = attrs.evolve(target, hits=target.hits + hit)
    return attrs.evolve(state.with_units(after), extra=extra)


def candidates_rally(state: Duel) -> list[Rally]:
    return [Rally(u.id) for u in state.units]


def check_rally(state: Duel, action: Rally) -> None:
    unit = state.unit(action.unit)
    if unit.hits == 0 or unit.broken or unit.id in state.extra.rallied:
        raise IllegalActionError(action, f"{unit.name} has nothing to rally", RULE)


def apply_rally(state: Duel, action: Rally, log: Log) -> Duel:
    unit = state.unit(action.unit)
    log.add("rally", f"{unit.name} rallies", RULE, unit.id)
    extra = attrs.evolve(state.extra, rallied=(*state.extra.rallied, unit.id))
    return attrs.evolve(state.with_units(attrs.evolve(unit, hits=unit.hits - 1)), extra=extra)


def check_nothing(state: Duel, action: EndPhase) -> None:
    return None


def apply_end(state: Duel, action: EndPhase, log: Log) -> Duel:
    if state.phase == FIRE:
        return enter_phase(state, RALLY)
    log.add("turn", f"turn {state.turn + 1} begins", RULE)
    return begin_turn(state, FIRE)


def is_over(state: Duel) -> bool:
    limit = state.scenario.turn_limit
    broken = any(all(u.broken for u in state.units_of(side)) for side in state.sides)
    return broken or (limit is not None and state.turn > limit)


def outcome(state: Duel) -> Outcome:
    scores = tuple((side, sum(u.hits for u in state.units if u.side != side))
                   for side in state.sides)
    best = max(score for _, score in scores)
    leaders = [side for side, score in scores if score == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return Outcome(winner, scores, "hits inflicted decide", RULE)


TURN: Engine[Duel, Any] = Engine(
    name="duel",
    phases=(Phase(FIRE, RULE, "both sides fire"), Phase(RALLY, RULE, "rally one hit")),
    actions=(
        ActionRule(Fire, (FIRE,), candidates_fire, check_fire, apply_fire),
        ActionRule(Rally, (RALLY,), candidates_rally, check_rally, apply_rally),
        ActionRule(EndPhase, (FIRE, RALLY), lambda s: [EndPhase()], check_nothing, apply_end),
    ),
    who_acts=lambda s: None if s.phase == RALLY else "crown",
    over=is_over,
    result=outcome,
    types=(Company, Captain, Extra, Options),
    rule=RULE,
)


def duel(seed: int = 1, limit: int | None = 3) -> Duel:
    return BattleState(
        "duel", ("crown", "congress"),
        (Company("a", "Grenadiers", "crown"), Company("b", "Light Bobs", "crown"),
         Company("c", "Marylanders", "congress")),
        (), Extra(), Options(), DiceState(seed), phase=FIRE,
        scenario=Scenario("toy", turn_limit=limit),
    )


def test_the_engine_is_a_turn() -> None:
    assert isinstance(TURN, Turn)
    assert TURN.action_types() == (Fire, Rally, EndPhase)
    assert TURN.to_act(duel()) == "crown"


def test_legal_actions_are_exactly_what_step_accepts() -> None:
    state = duel()
    listed = TURN.legal_actions(state)
    assert listed == (Fire("a", "c"), Fire("b", "c"), Fire("c", "a"), Fire("c", "b"),
                      EndPhase())
    every = [*candidates_fire(state), *candidates_rally(state), EndPhase(),
             Fire("a", "b")]
    for action in every:
        assert TURN.is_legal(state, action) == (action in listed)
    after, _ = TURN.step(state, Fire("a", "c"))
    assert Fire("a", "c") not in TURN.legal_actions(after)
    with pytest.raises(IllegalActionError, match="Grenadiers has fired this phase"):
        TURN.step(after, Fire("a", "c"))
    with pytest.raises(IllegalActionError, match="Rally is not taken in the fire phase"):
        TURN.step(state, Rally("a"))
    with pytest.raises(InvalidValueError, match="an action of duel"):
        TURN.step(state, "charge!")  # type: ignore[arg-type]


def test_a_sampled_choice_is_said_so_and_nothing_else_is() -> None:
    """An engine whose rule book samples a continuous choice names those actions; by default
    no action is sampled, so every action ``legal_actions`` omits is refused."""
    state = duel()
    assert not any(TURN.is_sampled(state, a) for a in TURN.legal_actions(state))
    aiming = attrs.evolve(TURN, sampled=lambda s, a: isinstance(a, Fire) and a.target == "c")
    assert [aiming.is_sampled(state, a) for a in TURN.legal_actions(state)] == [
        True, True, False, False, False]


def test_step_is_pure_logs_its_rolls_and_advances_the_dice() -> None:
    state = duel(seed=5)
    before = state.to_json()
    after, events = TURN.step(state, Fire("c", "a"))
    assert state.to_json() == before
    assert TURN.step(state, Fire("c", "a")) == (after, events)
    assert after.dice == DiceState(5, 1)
    (event,) = events
    assert event.rule == RULE and event.subject == "c"
    (roll,) = event.rolls
    assert roll.reason == "volley" and len(roll.faces) == 2
    assert (sum(roll.faces) >= 7) == (after.unit("a").hits == 1)
    assert TURN.load(after.to_json()) == after


def test_scratch_state_is_reset_by_phase_and_by_turn() -> None:
    state = duel()
    state, _ = TURN.step(state, Fire("a", "c"))
    state = attrs.evolve(state, extra=attrs.evolve(state.extra, rallied=("a",)))
    rally, _ = TURN.step(state, EndPhase())
    assert rally.phase == RALLY
    assert rally.extra.fired == frozenset()  # phase scratch gone
    assert rally.extra.rallied == ("a",)  # turn scratch kept
    assert rally.extra.volleys == 1  # the rest kept
    nxt, events = TURN.step(rally, EndPhase())
    assert (nxt.turn, nxt.phase, nxt.extra.rallied, nxt.extra.volleys) == (2, FIRE, (), 1)
    assert events[0].text == "turn 2 begins"


def test_a_battle_ends_with_an_outcome_and_then_takes_no_action() -> None:
    state = duel(limit=1)
    with pytest.raises(InvalidValueError, match="is_over"):
        TURN.outcome(state)
    state, _ = TURN.step(state, EndPhase())
    state, _ = TURN.step(state, EndPhase())
    assert TURN.is_over(state)
    assert TURN.legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="the battle is over"):
        TURN.step(state, EndPhase())
    result = TURN.outcome(state)
    assert result == Outcome(None, (("crown", 0), ("congress", 0)), "hits inflicted decide",
                             RULE)
    assert str(result).startswith("a draw: hits inflicted decide")
    assert result.score("congress") == 0
    with pytest.raises(InvalidValueError, match="side='redcoats'"):
        result.score("redcoats")


def test_a_scenario_overrides_the_victory_conditions() -> None:
    def crown_wins(state: Duel) -> Outcome:
        return Outcome("crown", (("crown", 1), ("congress", 0)), "held the ford", "scenario")

    sudden = TURN.with_outcome(over=lambda s: s.extra.volleys >= 1, result=crown_wins)
    state, _ = sudden.step(duel(), Fire("c", "a"))
    assert sudden.is_over(state) and not TURN.is_over(state)
    assert sudden.outcome(state).winner == "crown"


def test_a_bad_phase_is_named_not_taken_for_the_end() -> None:
    state = attrs.evolve(duel(), phase="bogus")
    with pytest.raises(InvalidValueError, match="phase='bogus'.*fire, rally"):
        TURN.legal_actions(state)
    with pytest.raises(InvalidValueError, match="phase='bogus'"):
        TURN.step(state, EndPhase())


def test_rules_are_registered_once_per_phase_in_known_phases() -> None:
    rule = ActionRule(EndPhase, ("charge",), lambda s: [], check_nothing, apply_end)
    with pytest.raises(InvalidValueError, match="phases='charge'"):
        attrs.evolve(TURN, actions=(rule,))
    twice = ActionRule(EndPhase, (FIRE,), lambda s: [], check_nothing, apply_end)
    with pytest.raises(InvalidValueError, match="one rule per action type and phase"):
        attrs.evolve(TURN, actions=(*TURN.actions, twice))


def test_the_exact_odds_of_a_step_come_from_the_same_handler() -> None:
    """``Engine.apply`` rolls through any Dice, so ``odds`` walks every branch of a step:
    a volley hits on 2d6 of 7+, 21/36."""
    state = duel()

    def hits(*, dice: Any) -> int:
        after, _ = TURN.apply(state, Fire("c", "a"), dice)
        return int(after.unit("a").hits)

    dist = odds(hits)
    assert dist.probability(1) == Fraction(21, 36)
    harder = attrs.evolve(state, options=Options(target=10))
    assert odds(lambda *, dice: TURN.apply(harder, Fire("c", "a"), dice)[0].unit("a").hits
                ).probability(1) == Fraction(6, 36)


class _BranchError(Exception):
    def __init__(self, count: int) -> None:
        self.count = count


def exact_choice_odds(engine: Engine[Duel, Any], state: Duel) -> dict[Any, Fraction]:
    """The exact odds of each action ``choose_legal`` returns, every draw enumerated."""
    odds_of: dict[Any, Fraction] = {}
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        asked: list[int] = []

        def draw(count: int, prefix: tuple[int, ...] = prefix, asked: list[int] = asked) -> int:
            assert count >= 1
            asked.append(count)
            if len(asked) > len(prefix):
                raise _BranchError(count)
            return prefix[len(asked) - 1]

        try:
            action = engine.choose_legal(state, draw)
        except _BranchError as branch:
            pending.extend((*prefix, k) for k in range(branch.count))
            continue
        weight = Fraction(1)
        for count in asked:
            weight /= count
        odds_of[action] = odds_of.get(action, Fraction(0)) + weight
    return odds_of


def test_choose_legal_has_the_odds_of_a_uniform_pick_from_legal_actions() -> None:
    """Every draw enumerated: each legal action is chosen with probability 1/n, whatever
    the illegal candidates and candidates offered twice around it."""
    doubled = attrs.evolve(TURN, actions=(
        ActionRule(Fire, (FIRE,), lambda s: [*candidates_fire(s), *candidates_fire(s)],
                   check_fire, apply_fire),
        *TURN.actions[1:],
    ))
    fired, _ = TURN.step(duel(), Fire("a", "c"))
    rally = enter_phase(fired.with_units(attrs.evolve(fired.unit("c"), hits=1)), RALLY)
    for engine in (TURN, doubled):
        for state in (duel(), fired, rally):
            listed = engine.legal_actions(state)
            found = exact_choice_odds(engine, state)
            assert found == {action: Fraction(1, len(listed)) for action in listed}
    assert len(TURN.legal_actions(fired)) == 4  # Fire("a", "c") no longer, the rest still
    assert TURN.legal_actions(rally) == (Rally("c"), EndPhase())


def fire_by_firer(bound: int, expanded: list[str] | None = None) -> Engine[Duel, Any]:
    """The duel with each company's shots offered as one deferred group of ``bound`` slots
    (``expanded``: the firers whose group was worked out, in order)."""

    def group(state: Duel, firer: str) -> Deferred[Fire]:
        def expand() -> list[Fire]:
            if expanded is not None:
                expanded.append(firer)
            return [a for a in candidates_fire(state) if a.firer == firer]
        return Deferred(bound, expand)

    return attrs.evolve(TURN, actions=(
        ActionRule(Fire, (FIRE,), lambda s: [group(s, u.id) for u in s.units], check_fire,
                   apply_fire),
        *TURN.actions[1:]))


def test_deferred_groups_keep_the_odds_of_a_uniform_pick_from_legal_actions() -> None:
    """Every draw enumerated: with each company's shots deferred in a group of 1 to 4 slots
    (empty slots drawn again), each legal action still comes with probability 1/n, and
    ``legal_actions`` lists the same actions as with the shots offered one by one."""
    fired, _ = TURN.step(duel(), Fire("a", "c"))
    for bound in (2, 3, 4):
        engine = fire_by_firer(bound)
        for state in (duel(), fired):
            listed = engine.legal_actions(state)
            assert set(listed) == set(TURN.legal_actions(state))
            assert exact_choice_odds(engine, state) == {
                action: Fraction(1, len(listed)) for action in listed}


def test_deferred_groups_are_worked_out_only_when_a_slot_of_theirs_is_drawn() -> None:
    expanded: list[str] = []
    engine = fire_by_firer(2, expanded)
    units = [u.id for u in duel().units]
    # slots: EndPhase first (the actions offered one by one), then two per company
    assert engine.choose_legal(duel(), lambda count: 0) == EndPhase()
    assert expanded == []
    third = units.index("c")
    picks = iter([1 + 2 * third])
    assert engine.choose_legal(duel(), lambda count: next(picks)) == Fire("c", "a")
    assert expanded == ["c"]


def test_a_deferred_group_that_breaks_its_promises_is_refused() -> None:
    with pytest.raises(InvalidValueError, match="Deferred.bound"):
        Deferred(0, list)
    too_small = fire_by_firer(1)  # a company has two enemies to shoot at
    with pytest.raises(InvalidValueError, match="Deferred.bound"):
        too_small.legal_actions(duel())
    with pytest.raises(InvalidValueError, match="Deferred.bound"):
        too_small.choose_legal(duel(), lambda count: count - 1)
    twice = attrs.evolve(TURN, actions=(
        ActionRule(Fire, (FIRE,), lambda s: [*candidates_fire(s), Deferred(4, lambda: (
            candidates_fire(s)))], check_fire, apply_fire),
        *TURN.actions[1:]))
    with pytest.raises(InvalidValueError, match="offered once"):
        twice.choose_legal(duel(), lambda count: count - 1)


def test_choose_legal_checks_only_until_one_passes_and_says_when_none_does() -> None:
    checked: list[Any] = []

    def counting(state: Duel, action: Fire) -> None:
        checked.append(action)
        check_fire(state, action)

    engine = attrs.evolve(TURN, actions=(
        ActionRule(Fire, (FIRE,), candidates_fire, counting, apply_fire), *TURN.actions[1:]))
    assert engine.choose_legal(duel(), lambda count: 0) == Fire("a", "c")
    assert checked == [Fire("a", "c")]  # the first tried passed: nothing else checked
    fired, _ = TURN.step(duel(), Fire("a", "c"))
    checked.clear()
    # the first tried fails; the last untried (the end of the phase) takes its place
    assert engine.choose_legal(fired, lambda count: 0) == EndPhase()
    assert checked == [Fire("a", "c")]
    none_legal = attrs.evolve(TURN, actions=(ActionRule(
        Fire, (FIRE,), lambda s: [Fire("a", "b"), Fire("b", "a")], check_fire, apply_fire),))
    assert none_legal.legal_actions(duel()) == ()
    assert none_legal.choose_legal(duel(), lambda count: 0) is None
    over = duel().with_units(attrs.evolve(duel().unit("c"), hits=2))
    assert TURN.is_over(over) and TURN.choose_legal(over, lambda count: 0) is None
