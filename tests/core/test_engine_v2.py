"""Engine contract v2 (issue 29, item 2) on a tiny skirmish: a check returns its ruling and
the handler receives it; ``legal_rulings`` and ``choose_ruled`` keep the rulings so the
``step`` that follows never measures again; guards declared once on the engine; phases that
declare when they end and what follows; the indexed unit lookup and the validated cheap
copy (``revised``)."""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import Any

import attrs
import pytest

import smoothbore.core.engine as engine_module
from smoothbore.battle import play, random_policy
from smoothbore.core import (
    D6,
    ActionRule,
    BattleState,
    DiceState,
    Engine,
    IllegalActionError,
    InvalidValueError,
    Log,
    Outcome,
    Phase,
    ThresholdCheck,
    odds,
    phase_scoped,
)
from smoothbore.core.engine import PhaseEnd, Rulings
from smoothbore.core.state import revised, units_by_id
from smoothbore.core.validate import in_range

RULE = "Skirmish 1"
GUARD = "Skirmish 2 (who acts)"
FIRE, RALLY = "fire", "rally"


@attrs.frozen
class Stand:
    id: str
    name: str
    side: str
    x: int
    hits: int = attrs.field(default=0, validator=in_range(0, 3))

    @property
    def standing(self) -> bool:
        return self.hits < 3


@attrs.frozen
class Extra:
    fired: frozenset[str] = phase_scoped(frozenset())
    acting: str = "red"


@attrs.frozen
class Options:
    pass


State = BattleState[Stand, Any, Extra, Options]


@attrs.frozen
class Fire:
    firer: str
    target: str


@attrs.frozen
class Concede:
    pass


@attrs.frozen
class EndPhase:
    pass


@attrs.frozen
class Range:
    """A ruling: what the check of a volley measured."""

    distance: int
    need: int


def stands(unit: Stand) -> bool:
    return unit.standing


def decided(state: State) -> tuple[str, str] | None:
    broken = [side for side in state.sides
              if not any(u.standing for u in state.units if u.side == side)]
    return (f"the {broken[0]} side is broken", "Skirmish 9 (victory)") if broken else None


def all_fired(state: State) -> bool:
    return all(u.id in state.extra.fired for u in state.units
               if u.side == state.extra.acting and u.standing)


def next_side(state: State, log: Log) -> State:
    other = state.sides[1] if state.extra.acting == state.sides[0] else state.sides[0]
    log.add("side", f"{other} acts", RULE)
    return state.with_extra(acting=other)


def make_engine(measured: list[Fire], ruled: bool = True) -> Engine[State, Any]:
    """The skirmish engine; each range measured is appended to ``measured`` (a test's
    own list: how many times the rules measured)."""

    def candidates(state: State) -> list[Fire]:
        return [Fire(f.id, t.id) for f in state.units for t in state.units
                if f.side != t.side]

    def check(state: State, action: Fire) -> Range:
        firer, target = state.unit(action.firer), state.unit(action.target)
        if firer.id in state.extra.fired:
            raise IllegalActionError(action, f"{firer.name} has fired", RULE)
        if not target.standing:
            raise IllegalActionError(action, f"{target.name} is gone", RULE)
        measured.append(action)
        distance = abs(firer.x - target.x)
        if distance > 12:
            raise IllegalActionError(action, f"{target.name} is out of range", RULE)
        return Range(distance, 4 if distance <= 6 else 6)

    def handler(state: State, action: Fire, log: Log, ruling: Range) -> State:
        hit = log.dice.roll(ThresholdCheck((D6,), ruling.need), reason="volley", rule=RULE)
        log.add("fire", f"{action.firer} {'hits' if hit else 'misses'}", RULE, action.firer,
                {"distance": ruling.distance, "need": ruling.need})
        target = state.unit(action.target)
        new = state.with_units(revised(target, hits=target.hits + hit))
        return new.with_extra(fired=state.extra.fired | {action.firer})

    def old_handler(state: State, action: Fire, log: Log) -> State:
        return handler(state, action, log, check(state, action))

    def concede(state: State, action: Concede, log: Log) -> State:
        log.add("concede", "the battle is given up", RULE)
        return state

    return Engine(
        name="skirmish",
        phases=(Phase(FIRE, RULE, "the side acting fires"), Phase(RALLY, RULE, "nothing")),
        actions=(
            ActionRule(Fire, (FIRE,), candidates, check, handler if ruled else old_handler,
                       ruled=ruled),
            ActionRule(Concede, (FIRE,), lambda s: [Concede()], lambda s, a: None, concede,
                       guarded=False),
        ),
        who_acts=lambda s: s.extra.acting,
        over=lambda s: s.turn > 3,
        result=lambda s: Outcome(None, tuple((side, 0) for side in s.sides), "time", RULE),
        types=(Stand, Stand, Extra, Options),
        rule=RULE,
        stands=stands,
        decided=decided,
        actor=lambda action: getattr(action, "firer", None),
        actor_rule=GUARD,
        phase_ends=(
            PhaseEnd(FIRE, RALLY, "Skirmish 3 (fire ends)", when=all_fired),
            PhaseEnd(RALLY, FIRE, "Skirmish 4 (turn ends)", new_turn=True, then=next_side),
        ),
        end_action=EndPhase,
    )


def skirmish(hits_b: int = 0) -> State:
    return BattleState(
        "skirmish", ("red", "blue"),
        (Stand("r1", "Red Foot", "red", 0), Stand("r2", "Red Rifles", "red", 10),
         Stand("b1", "Blue Foot", "blue", 5, hits_b), Stand("b2", "Blue Horse", "blue", 30)),
        (), Extra(), Options(), DiceState(3), phase=FIRE,
    )


def test_a_ruled_check_hands_its_ruling_to_the_handler() -> None:
    measured: list[Fire] = []
    engine = make_engine(measured)
    state = skirmish()
    rule, ruling = engine.rule_on(state, Fire("r2", "b1"))
    assert ruling == Range(5, 4) and rule.ruled
    _, events = engine.step(state, Fire("r2", "b1"))
    assert dict(events[0].facts) == {"distance": 5, "need": 4}
    with pytest.raises(IllegalActionError, match="Blue Horse is out of range"):
        engine.step(state, Fire("r2", "b2"))


def test_the_step_after_legal_rulings_measures_nothing_again() -> None:
    measured: list[Fire] = []
    engine = make_engine(measured)
    state = skirmish()
    rulings = engine.legal_rulings(state)
    assert rulings.actions == (Fire("r1", "b1"), Fire("r2", "b1"), Concede())
    assert engine.legal_actions(state) == rulings.actions
    listed = len(measured)
    assert listed == 2 * 4  # 4 candidates, listed twice (legal_rulings, legal_actions)
    with_rulings, _ = engine.step(state, Fire("r2", "b1"), rulings)
    assert len(measured) == listed  # reused: not measured again
    without, _ = engine.step(state, Fire("r2", "b1"))
    assert len(measured) == listed + 1
    assert with_rulings == without
    # rulings of another state (equal, but not this very state) are not reused
    twin = skirmish()
    assert twin == state and twin is not state
    engine.step(twin, Fire("r2", "b1"), rulings)
    assert len(measured) == listed + 2
    # an action the rulings do not hold is checked as ever
    with pytest.raises(IllegalActionError, match="out of range"):
        engine.step(state, Fire("r2", "b2"), rulings)


def test_rulings_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[Fire] = []
    engine = make_engine(measured)
    monkeypatch.setattr(engine_module, "MAX_RULINGS", 1)
    state = skirmish()
    rulings = engine.legal_rulings(state)
    assert len(rulings.actions) == 3
    assert rulings.ruling(state, Fire("r1", "b1")) is not None
    assert rulings.ruling(state, Fire("r2", "b1")) is None  # past the bound: checked again
    before = len(measured)
    engine.step(state, Fire("r2", "b1"), rulings)
    assert len(measured) == before + 1


def test_choose_ruled_draws_as_choose_legal_and_play_reuses_its_ruling() -> None:
    measured: list[Fire] = []
    engine = make_engine(measured)
    state = skirmish()
    for first in range(4):
        draws = iter([first, 0, 0, 0, 0, 0])
        chosen = engine.choose_ruled(state, lambda n, d=draws: next(d) % n)  # type: ignore[misc]
        draws = iter([first, 0, 0, 0, 0, 0])
        plain = engine.choose_legal(state, lambda n, d=draws: next(d) % n)  # type: ignore[misc]
        assert isinstance(chosen, Rulings) and chosen.actions == (plain,)
    v2: list[Fire] = []
    v1: list[Fire] = []
    ruled = play(make_engine(v2), state, random_policy(5), max_steps=40)
    unruled = play(make_engine(v1, ruled=False), state, random_policy(5), max_steps=40)
    assert ruled.steps == unruled.steps and ruled.end == unruled.end
    # the same candidates tried by both, and neither step checked again (the rulings kept
    # by choose_ruled serve a v1 rule too); but the v1 handler measured each volley once
    # more for itself, where the v2 handler took the ruling
    volleys = sum(isinstance(step.action, Fire) for step in ruled.steps)
    assert volleys >= 3
    assert len(v1) - len(v2) == volleys


def test_guards_declared_once_on_the_engine() -> None:
    engine = make_engine([])
    state = skirmish()
    with pytest.raises(IllegalActionError, match="Blue Foot is not a unit of red") as caught:
        engine.step(state, Fire("b1", "r1"))
    assert caught.value.rule == GUARD
    gone = state.with_units(revised(state.unit("r1"), hits=3))
    with pytest.raises(IllegalActionError, match="Red Foot is no longer on the table"):
        engine.step(gone, Fire("r1", "b1"))
    with pytest.raises(InvalidValueError, match="the id of one of the units"):
        engine.step(state, Fire("zz", "b1"))
    # the battle decided: every guarded action refused with the reason and its rule; an
    # unguarded one (conceding) still taken
    broken = state.with_units(revised(state.unit("b1"), hits=3),
                              revised(state.unit("b2"), hits=3))
    with pytest.raises(IllegalActionError, match="the blue side is broken") as caught:
        engine.step(broken, Fire("r1", "b1"))
    assert caught.value.rule == "Skirmish 9 (victory)"
    assert engine.legal_actions(broken) == (Concede(),)
    assert engine.choose_legal(broken, lambda n: 0) == Concede()
    engine.step(broken, Concede())


def test_phases_declare_when_they_end_and_what_follows() -> None:
    engine = make_engine([])
    state = skirmish()
    assert EndPhase() not in engine.legal_actions(state)
    with pytest.raises(IllegalActionError, match="the fire phase does not end yet") as caught:
        engine.step(state, EndPhase())
    assert caught.value.rule == "Skirmish 3 (fire ends)"
    fired = state.with_extra(fired=frozenset({"r1", "r2"}))
    assert engine.legal_actions(fired) == (Concede(), EndPhase())
    rally, events = engine.step(fired, EndPhase())
    assert (rally.phase, rally.turn, rally.extra.fired) == (RALLY, 1, frozenset())
    assert [(e.text, e.rule) for e in events] == [("the fire phase ends: rally",
                                                   "Skirmish 3 (fire ends)")]
    assert engine.legal_actions(rally) == (EndPhase(),)  # no `when`: it may always end
    turn2, events = engine.step(rally, EndPhase())
    assert (turn2.phase, turn2.turn, turn2.extra.acting) == (FIRE, 2, "blue")
    assert [e.text for e in events] == ["blue acts", "turn 2 begins: fire"]
    assert engine.action_types() == (Fire, Concede, EndPhase)
    assert pickle.loads(pickle.dumps(PhaseEnd(FIRE, RALLY, "r"))) == PhaseEnd(FIRE, RALLY, "r")


@pytest.mark.parametrize(("ends", "end_action", "message"), [
    ((PhaseEnd("charge", RALLY, "r"),), EndPhase, "PhaseEnd.phase"),
    ((PhaseEnd(FIRE, "charge", "r"),), EndPhase, "PhaseEnd.follows"),
    ((PhaseEnd(FIRE, RALLY, "r"), PhaseEnd(FIRE, RALLY, "r")), EndPhase, "ended once"),
    ((PhaseEnd(FIRE, RALLY, "r"),), None, "Engine.end_action"),
])
def test_bad_phase_ends_are_refused(ends: tuple[PhaseEnd, ...], end_action: type | None,
                                    message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        attrs.evolve(make_engine([]), phase_ends=ends, end_action=end_action)


def test_the_exact_odds_of_a_ruled_step() -> None:
    """Fire at 5 (need 4 on a d6: 1/2) and at 10 (need 6: 1/6), from the same code as play."""
    engine = make_engine([])
    state = skirmish()
    near = odds(lambda *, dice: engine.apply(state, Fire("r2", "b1"), dice)[0]
                .unit("b1").hits)
    assert near.probability(1) == Fraction(1, 2)
    rulings = engine.legal_rulings(state)
    far = odds(lambda *, dice: engine.apply(state, Fire("r1", "b1"), dice, rulings)[0]
               .unit("b1").hits)
    assert far.probability(1) == Fraction(1, 2)  # r1 at 0, b1 at 5: also need 4
    after = state.with_units(revised(state.unit("b1"), x=20))  # 10 from r2: need 6
    farther = odds(lambda *, dice: engine.apply(after, Fire("r2", "b1"), dice)[0]
                   .unit("b1").hits)
    assert farther.probability(1) == Fraction(1, 6)


def test_the_unit_lookup_is_indexed_and_names_the_ids() -> None:
    state = skirmish()
    assert state.unit("b2").name == "Blue Horse"
    assert state.unit("b2") is state.units[3]
    with pytest.raises(InvalidValueError, match="r1, r2, b1, b2"):
        state.unit("b9")
    with pytest.raises(InvalidValueError, match="unit"):
        state.unit(["b1"])  # type: ignore[arg-type]
    assert state.derived(units_by_id) == {u.id: u for u in state.units}


def test_revised_checks_only_what_changed_and_never_mutates() -> None:
    unit = Stand("r1", "Red Foot", "red", 0)
    changed = revised(unit, hits=2, x=4)
    assert changed == attrs.evolve(unit, hits=2, x=4) and unit.hits == 0
    with pytest.raises(InvalidValueError, match="hits"):
        revised(unit, hits=4)
    with pytest.raises(InvalidValueError, match="Stand field"):
        revised(unit, speed=4)
    assert hash(changed) == hash(attrs.evolve(unit, hits=2, x=4))

    @attrs.frozen(cache_hash=True)
    class Hashed:
        a: int
        b: int = attrs.field(converter=int)

    first = Hashed(1, 2)
    hash(first)
    again = revised(first, b="3")  # converted as attrs would
    assert again == Hashed(1, 3) and hash(again) == hash(Hashed(1, 3))
