"""The exact odds of one battle step: ``odds_of_step`` runs the handler through
enumerating dice, projects each resulting state and merges equal projections."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import attrs
import pytest

from smoothbore.battle import random_policy
from smoothbore.bloodybacks93 import TURN as BB_TURN
from smoothbore.bloodybacks93 import example_battle
from smoothbore.bloodybacks93.actions import Charge
from smoothbore.core import (
    D6,
    EnumerationLimitError,
    IllegalActionError,
    InvalidValueError,
    Log,
    SamplingDice,
    TotalCheck,
    odds,
)
from smoothbore.core.chance import Dice
from smoothbore.core.stages import DEFAULT_MAX_STEP_BRANCHES, Staged, closing, odds_of_step
from smoothbore.will_awi.actions import EndPhase, Fire
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.state import new_battle
from smoothbore.will_awi.turn import TURN as WILL_TURN
from smoothbore.will_awi.units import Nationality, TroopType, Unit

HANG_GUARD = 30.0
"""Seconds: these tests catch a hang, not slowness (speed is measured in benchmarks/)."""


def _status(state: Any) -> tuple[tuple[str, int, int, bool, bool], ...]:
    return tuple((u.id, u.disruption, u.stamina_losses, u.routing, u.destroyed)
                 for u in state.units)


def _first_charge(seed: int) -> tuple[Any, Charge] | None:
    state = example_battle(seed)
    policy = random_policy(seed)
    for _ in range(3000):
        if BB_TURN.is_over(state):
            return None
        legal = BB_TURN.legal_actions(state)
        charges = [a for a in legal if isinstance(a, Charge)]
        if charges:
            return state, charges[0]
        state, _ = BB_TURN.step(state, policy(state, legal))
    return None


def _a_charge() -> tuple[Any, Charge]:
    for seed in range(40):
        found = _first_charge(seed)
        if found is not None:
            return found
    pytest.skip("no charge offered in 40 random battles")


def _fire_step() -> tuple[Any, Any]:
    firer = Unit("b", "British foot", "red", TroopType.LINE, Nationality.BRITISH, strength=4)
    target = Unit("m", "Militia", "blue", TroopType.MILITIA, militia_morale=2)
    state = new_battle(("red", "blue"), (firer, target), seed=1)
    for _ in range(4):
        state, _ = WILL_TURN.step(state, EndPhase())
    return state, Fire("m", "b", FireFacts(5.0))


def test_a_fire_step_has_exact_odds_summing_to_one() -> None:
    """Will's AWI fire as a battle step: exact odds of each unit's strength and status,
    summing to one, fast; a played step lands on one of its outcomes."""
    state, action = _fire_step()

    def view(s: Any) -> Any:
        return tuple((u.id, u.strength, u.status) for u in s.units)

    start = time.perf_counter()
    dist = odds_of_step(WILL_TURN, state, action, view=view)
    assert time.perf_counter() - start < HANG_GUARD
    assert sum(Fraction(w, dist.denominator) for _, w in dist.items()) == 1
    played, _ = WILL_TURN.step(state, action)
    assert dist.weight(view(played)) > 0
    assert len(dist) >= 2


def test_odds_of_step_equals_odds_over_the_handler() -> None:
    """The same distribution as walking ``apply`` by hand."""
    state, action = _fire_step()

    def by_hand(*, dice: Any) -> Any:
        return WILL_TURN.apply(state, action, dice)[0].units

    assert odds_of_step(WILL_TURN, state, action) == odds(by_hand)


def test_an_illegal_action_is_refused_before_any_roll() -> None:
    """The action is checked once, first."""
    state, action = _a_charge()
    wrong = Charge(action.target_ids, action.unit_ids)
    with pytest.raises(IllegalActionError):
        odds_of_step(BB_TURN, state, wrong)


def _charges() -> tuple[Any, list[Charge]]:
    for seed in range(40):
        state = example_battle(seed)
        policy = random_policy(seed)
        for _ in range(3000):
            if BB_TURN.is_over(state):
                break
            legal = BB_TURN.legal_actions(state)
            charges = [a for a in legal if isinstance(a, Charge) and not a.defer]
            if charges:
                return state, charges
            state, _ = BB_TURN.step(state, policy(state, legal))
    pytest.skip("no charge offered in 40 random battles")


def test_every_bloodybacks_charge_step_answers_within_a_second() -> None:
    """Every charge offered in the embedded battle, fought at once, with or without
    pursuit: its exact odds sum to one and hold the played step, or it is refused from
    the estimate, naming it; either way within a second (issue 11: it used to hang)."""
    state, charges = _charges()
    answered = 0
    for action in charges:
        start = time.perf_counter()
        try:
            dist = odds_of_step(BB_TURN, state, action, view=_status)
        except EnumerationLimitError as error:
            assert error.estimate > DEFAULT_MAX_STEP_BRANCHES
            assert "max_branches" in str(error)
        else:
            answered += 1
            assert sum(Fraction(w, dist.denominator) for _, w in dist.items()) == 1
            played, _ = BB_TURN.step(state, action)
            assert dist.weight(_status(played)) > 0
        assert time.perf_counter() - start < HANG_GUARD
    assert answered


def test_bloodybacks_fight_composed_equals_its_branch_walk() -> None:
    """The melee and what follows, composed stage by stage, equals the brute-force walk
    of every branch of the same stages (the moves' rolls merged, not multiplied)."""
    from smoothbore.bloodybacks93.melee import resolve_charge
    from smoothbore.bloodybacks93.steps_charges import melee_and_after

    state, charges = _charges()
    action = charges[0]
    chargers = tuple(state.unit(u) for u in action.unit_ids)
    defenders = tuple(state.unit(u) for u in action.target_ids)
    args = (chargers, defenders, action.facts, state.options, True, ((),) * (
        len(chargers) + len(defenders)), None)
    composed = odds(melee_and_after, *args)
    assert composed == odds(melee_and_after.play, *args, max_branches=10**6)
    units = odds(resolve_charge, chargers, defenders, action.facts,
                 options=state.options).map(lambda o: o.chargers + o.defenders)
    assert composed == units


def test_will_charge_steps_have_exact_odds_fast() -> None:
    """Will's AWI charge steps (declaring, the test of the charged, contact) in the
    embedded battles: exact odds summing to one, each in under 100 ms."""
    from smoothbore.will_awi import scenarios
    from smoothbore.will_awi.actions import Contact, DeclareCharge, TestCharged

    seen: set[type] = set()
    for battle in (scenarios.example_battle, scenarios.cavalry_battle):
        for seed in range(10):
            state = battle(seed)
            policy = random_policy(seed)
            for _ in range(2000):
                if WILL_TURN.is_over(state):
                    break
                legal = WILL_TURN.legal_actions(state)
                for action in legal:
                    if isinstance(action, (DeclareCharge, TestCharged, Contact)):
                        start = time.perf_counter()
                        dist = odds_of_step(WILL_TURN, state, action)
                        assert time.perf_counter() - start < HANG_GUARD
                        assert sum(Fraction(w, dist.denominator) for _, w in dist.items()) == 1
                        seen.add(type(action))
                state, _ = WILL_TURN.step(state, policy(state, legal))
            if len(seen) == 3:
                return
    assert seen >= {DeclareCharge, Contact}


# --- a step closed by a staged rule: its states grouped by the view before they multiply ----
@attrs.frozen
class _Toy:
    units: tuple[int, ...]
    extra: int


def _toy_begin(state: _Toy, base: int) -> tuple[tuple[_Toy, int], None]:
    return (state, base), None


def _toy_hit(context: tuple[_Toy, int], _: None, *, dice: Dice) -> int:
    return dice.roll(TotalCheck.of(1, D6), reason="hit", rule="t")


def _toy_risk(context: tuple[_Toy, int], hit: int, *, dice: Dice) -> tuple[int, int]:
    return hit, dice.roll(TotalCheck.of(2, D6), reason="risk", rule="t")


def _toy_state(context: tuple[_Toy, int], value: tuple[int, int]) -> _Toy:
    state, base = context
    hit, risk = value
    return _Toy((state.units[0] + base + hit,), risk)


TOY_CLOSE = Staged("toy close", "t", _toy_begin, (_toy_hit, _toy_risk), _toy_state,
                   one_to_one=True)


class _ToyRule:
    def __init__(self, tamper: bool = False, tidy: bool = False) -> None:
        self.tamper = tamper
        self.tidy = tidy

    def handler(self, state: _Toy, action: int, log: Log) -> _Toy:
        base = log.dice.roll(TotalCheck.of(action, D6), reason="move", rule="t")
        new = closing(TOY_CLOSE, state, base, dice=log.dice)
        if self.tamper:  # a roll after the closing rule
            extra = log.dice.roll(TotalCheck.of(1, D6), reason="after", rule="t")
            return attrs.evolve(new, extra=extra)
        return attrs.evolve(new, extra=0) if self.tidy else new


class _ToyTurn:
    def __init__(self, tamper: bool = False, tidy: bool = False) -> None:
        self.rule = _ToyRule(tamper, tidy)

    def check(self, state: _Toy, action: int) -> _ToyRule:
        return self.rule


def test_a_closing_rule_merges_on_the_view_before_the_step_multiplies() -> None:
    """A handler that closes with a staged rule: the odds of the step, by the units alone,
    equal the walk of the whole handler by hand (the risk roll, which the view does not
    show, merged at once: one branch per distinct view, not per risk); with a view of the
    whole state they equal it too; in play ``closing`` is the rule itself."""
    turn, state = _ToyTurn(), _Toy((0,), 0)

    def by_hand(view: Any) -> Any:
        def step(*, dice: Dice) -> Any:
            return view(turn.rule.handler(state, 2, Log(dice)))
        return odds(step)

    units = odds_of_step(turn, state, 2, view=lambda s: s.units)
    assert units == by_hand(lambda s: s.units)
    assert len(units) == 2 * 6 - 1 + 6 - 1  # 2d6 + d6: totals 3 to 18
    whole = odds_of_step(turn, state, 2, view=lambda s: (s.units, s.extra))
    assert whole == by_hand(lambda s: (s.units, s.extra))
    assert len(whole) == 16 * 11
    dice, again = SamplingDice(3), SamplingDice(3)
    assert closing(TOY_CLOSE, state, 1, dice=dice) == TOY_CLOSE(state, 1, dice=again)


def test_a_handler_rolls_nothing_after_its_closing_rule() -> None:
    """Grouping by the view is sound only if the step ends with the closing rule's state,
    or with that state tidied without a roll (a table kept in step): a roll after it is
    refused, a tidy-up gives the walk of the handler by hand."""
    with pytest.raises(InvalidValueError, match="rolls nothing after its closing rule"):
        odds_of_step(_ToyTurn(tamper=True), _Toy((0,), 0), 1, view=lambda s: s.units)
    turn, state = _ToyTurn(tidy=True), _Toy((0,), 0)

    def step(*, dice: Dice) -> Any:
        return turn.rule.handler(state, 2, Log(dice)).units

    assert odds_of_step(turn, state, 2, view=lambda s: s.units) == odds(step)


def test_a_closing_rule_counts_toward_the_estimate() -> None:
    """The states a closing rule composes count against ``max_branches`` (each as
    CLOSING_STATE_WORK of a handler run), spread over the branches that share it, so a
    step whose prefix multiplies costly closings is refused from its estimate at once."""
    turn, state = _ToyTurn(), _Toy((0,), 0)
    # 6d6 to move (31 totals), each closed by 66 composed states shown as 6 views: 186
    # handler runs and 31 * 66 / 8 = 256 runs' worth of closing
    start = time.perf_counter()
    with pytest.raises(EnumerationLimitError, match="max_branches") as refused:
        odds_of_step(turn, state, 6, view=lambda s: s.units, max_branches=300)
    assert time.perf_counter() - start < HANG_GUARD
    assert refused.value.estimate > 300
    dist = odds_of_step(turn, state, 6, view=lambda s: s.units, max_branches=500)
    assert len(dist) == 6 * 6 - 6 + 6


def test_a_bloodybacks_charge_step_equals_the_walk_of_its_handler() -> None:
    """The first charge offered in the embedded battle: its odds by each unit's status, and
    by the units and commanders whole, equal the walk of every branch of the handler (the
    melee, moves, pursuit and risks as chance nodes), projected the same way."""
    state, charges = _charges()
    action = charges[0]
    rule, ruling = BB_TURN.rule_on(state, action)
    ruled = (ruling,) if rule.ruled else ()  # contract v2: the handler takes the ruling

    def by_hand(view: Any) -> Any:
        def step(*, dice: Dice) -> Any:
            return view(rule.handler(state, action, Log(dice), *ruled))
        return odds(step, max_branches=10**6)

    assert odds_of_step(BB_TURN, state, action, view=_status) == by_hand(_status)

    def whole(s: Any) -> Any:
        return s.units, s.commanders

    assert odds_of_step(BB_TURN, state, action, view=whole, max_branches=10**5) == by_hand(
        whole)
