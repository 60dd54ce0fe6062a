"""Hypothesis properties over every unit type: distributions are whole, strength stays in
range, states serialise, and the same seed gives the same result."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, IllegalActionError, SamplingDice, odds
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts, Face, charged_test_score
from smoothbore.will_awi.charges import test_charged as roll_charged
from smoothbore.will_awi.firing import Cover, FireFacts, fire_modifiers, resolve_fire
from smoothbore.will_awi.melee import Effect, Fighter, Melee, melee_scores, resolve_melee
from smoothbore.will_awi.morale import basic_morale, lose_strength
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, Options
from smoothbore.will_awi.state import Extra, new_battle
from smoothbore.will_awi.units import Commander, Status, Unit

from .strategies import FOOT_AND_HORSE, units

OPTIONS = st.sampled_from(
    (
        Options(),
        Options(variant=IRELAND_1798),
        Options(variant=FORTY_FIVE),
        Options(cavalry_close_order=False),
    )
)


@settings(max_examples=60, deadline=None)
@given(
    units(uid="t"),
    st.lists(units(FOOT_AND_HORSE, side="y", uid="c"), min_size=1, max_size=2),
    st.sampled_from(tuple(Face)),
    OPTIONS,
)
def test_charged_test_distribution_whole(
    target: Unit, chargers: list[Unit], face: Face, options: Options
) -> None:
    """Rules - Charging: a unit not already routing routs when 1d6 + factors reaches its basic
    morale (then, charged in the rear, 4+ foot / 5+ mounted surrenders), counter-charges
    (foot or cavalry only) below zero, else stands: by brute force over the dice."""
    d = odds(roll_charged, target, tuple(chargers), ChargeFacts(face), options=options)
    assert sum(d.probability(o) for o in d.outcomes) == 1
    if target.routing:
        need = 5 if target.troop.is_cavalry else 4
        assert d.probability(ChargedResult.SURRENDERS) == Fraction(7 - need, 6)
        return
    mod = charged_test_score(target, tuple(chargers), ChargeFacts(face), options).total
    morale = basic_morale(target).total
    counters = target.troop.is_foot or target.troop.is_cavalry
    need = 5 if target.troop.is_cavalry else 4
    expected: dict[ChargedResult, Fraction] = {}
    for f, g in product(range(1, 7), range(1, 7)):
        s = f + mod
        if s >= morale:
            if face is Face.REAR:
                key = ChargedResult.ROUTS_SURRENDERS if g >= need else ChargedResult.ROUTS
            else:
                key = ChargedResult.ROUTS
        elif s < 0 and counters:
            key = ChargedResult.COUNTER_CHARGE
        else:
            key = ChargedResult.STANDS
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 36)
    assert {o: d.probability(o) for o in d.outcomes} == expected


@settings(max_examples=60, deadline=None)
@given(units(uid="f"), units(uid="t", side="y"), st.floats(0, 60), st.sampled_from(tuple(Cover)))
def test_fire_distribution_whole_or_illegal(
    firer: Unit, target: Unit, rng: float, cover: Cover
) -> None:
    """Rules - Firing: fire is either illegal (naming a rule) or a whole distribution whose
    loss chance is P(2d6 + factors >= 7)."""
    facts = FireFacts(rng, cover)
    try:
        mod = fire_modifiers(firer, facts).total
    except IllegalActionError as error:
        assert "Will's AWI" in str(error)
        return
    d = odds(resolve_fire, firer, target, facts)
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + mod >= 7)
    assert d.probability(lambda r: r.hit) * 36 == hits


@settings(max_examples=40, deadline=None)
@given(units(FOOT_AND_HORSE, uid="a"), units(uid="d", side="y"), st.booleans(), OPTIONS)
def test_melee_distribution_whole(
    a: Unit, d: Unit, charging: bool, options: Options
) -> None:
    """Rules - Melee: 1d6 + factors each; equal both retire, the lower loses: by 2+ routs,
    by 1 retires shaken: by brute force over the two dice."""
    m = Melee((Fighter(a, charging=charging),), (Fighter(d),))
    dist = odds(resolve_melee, m, options=options)
    (mod_a,), (mod_d,) = (tuple(x.total for x in side) for side in melee_scores(m, options))
    expected: dict[tuple[str, str], Fraction] = {}
    for x, y in product(range(1, 7), range(1, 7)):
        sa, sd = x + mod_a, y + mod_d
        if sa == sd:
            key = ("", Effect.BOTH_RETIRE.value)
        else:
            who = "a" if sa < sd else "d"
            key = (who, (Effect.ROUT if abs(sa - sd) >= 2 else Effect.RETIRE_SHAKEN).value)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 36)
    got: dict[tuple[str, str], Fraction] = {}
    for o in dist.outcomes:
        key = (o.affected, o.effect.value)
        got[key] = got.get(key, Fraction(0)) + dist.probability(o)
    assert got == expected


@given(units(), st.integers(0, 8))
def test_strength_never_negative(u: Unit, loss: int) -> None:
    """Strength Points: never below 0; at 0 the unit is removed."""
    after = lose_strength(u, loss)
    assert 0 <= after.strength <= u.strength
    assert (after.strength == 0) == (after.status is Status.ELIMINATED)
    assert basic_morale(after).total <= basic_morale(u).total


@settings(max_examples=30, deadline=None)
@given(
    st.lists(units(side="red"), min_size=1, max_size=3),
    st.lists(units(side="blue"), min_size=1, max_size=3),
    st.integers(0, 2**31),
    OPTIONS,
    st.none() | st.integers(1, 20),
)
def test_state_round_trips(
    reds: list[Unit], blues: list[Unit], seed: int, options: Options, limit: int | None
) -> None:
    """A battle state, with its options and scenario, saves to JSON and loads back equal."""
    import attrs

    from smoothbore.core import Scenario

    us = tuple(attrs.evolve(u, id=f"r{i}") for i, u in enumerate(reds)) + tuple(
        attrs.evolve(u, id=f"b{i}") for i, u in enumerate(blues)
    )
    s = new_battle(
        ("red", "blue"), us, (Commander("g", "G", "red"),), seed=seed, options=options,
        scenario=Scenario("test", turn_limit=limit),
    )
    assert BattleState.from_json(s.to_json(), Unit, Commander, Extra, Options) == s


@given(units(uid="f"), units(uid="t", side="y"), st.integers(0, 10_000))
def test_same_seed_same_fire(firer: Unit, target: Unit, seed: int) -> None:
    """No hidden randomness: the same seed gives the same fire."""
    facts = FireFacts(3.0)
    try:
        a = resolve_fire(firer, target, facts, dice=SamplingDice(seed))
    except IllegalActionError:
        return
    assert a == resolve_fire(firer, target, facts, dice=SamplingDice(seed))
