"""Hypothesis properties over every unit type: distributions are whole, strength stays in
range, states serialise, and the same seed gives the same result."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, IllegalActionError, SamplingDice, odds
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts, Face
from smoothbore.will_awi.charges import test_charged as roll_charged
from smoothbore.will_awi.firing import Cover, FireFacts, fire_modifiers, resolve_fire
from smoothbore.will_awi.melee import Fighter, Melee, resolve_melee
from smoothbore.will_awi.morale import basic_morale, lose_strength
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, Options
from smoothbore.will_awi.sequence import WillExtra, new_battle
from smoothbore.will_awi.units import Status, WillGeneral, WillUnit

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
    target: WillUnit, chargers: list[WillUnit], face: Face, options: Options
) -> None:
    """Rules - Charging: every charged test is a whole distribution; routing at or above basic
    morale is the only way to rout for an unshaken, unrouted unit."""
    d = odds(roll_charged, target, tuple(chargers), ChargeFacts(face), options=options)
    assert sum(d.probability(o) for o in d.outcomes) == 1
    if not target.routing:
        assert ChargedResult.SURRENDERS not in d.outcomes


@settings(max_examples=60, deadline=None)
@given(units(uid="f"), units(uid="t", side="y"), st.floats(0, 60), st.sampled_from(tuple(Cover)))
def test_fire_distribution_whole_or_illegal(
    firer: WillUnit, target: WillUnit, rng: float, cover: Cover
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
    a: WillUnit, d: WillUnit, charging: bool, options: Options
) -> None:
    """Rules - Melee: the results sum to one and the loser is always one named unit."""
    m = Melee((Fighter(a, charging=charging),), (Fighter(d),))
    dist = odds(resolve_melee, m, options=options)
    assert sum(dist.probability(o) for o in dist.outcomes) == 1
    assert all(o.affected in ("", "a", "d") for o in dist.outcomes)


@given(units(), st.integers(0, 8))
def test_strength_never_negative(u: WillUnit, loss: int) -> None:
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
)
def test_state_round_trips(reds: list[WillUnit], blues: list[WillUnit], seed: int) -> None:
    """A battle state saves to JSON and loads back equal."""
    import attrs

    us = tuple(attrs.evolve(u, id=f"r{i}") for i, u in enumerate(reds)) + tuple(
        attrs.evolve(u, id=f"b{i}") for i, u in enumerate(blues)
    )
    s = new_battle(("red", "blue"), us, (WillGeneral("g", "G", "red"),), seed=seed)
    assert BattleState.from_json(s.to_json(), WillUnit, WillGeneral, WillExtra) == s


@given(units(uid="f"), units(uid="t", side="y"), st.integers(0, 10_000))
def test_same_seed_same_fire(firer: WillUnit, target: WillUnit, seed: int) -> None:
    """No hidden randomness: the same seed gives the same fire."""
    facts = FireFacts(3.0)
    try:
        a = resolve_fire(firer, target, facts, dice=SamplingDice(seed))
    except IllegalActionError:
        return
    assert a == resolve_fire(firer, target, facts, dice=SamplingDice(seed))
