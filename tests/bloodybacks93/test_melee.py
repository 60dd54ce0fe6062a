"""Bloodybacks 9.3, Charges and melee: Determine impetus, Check to stand, Resolve melee
(losses, cohesion tests, draws, the 3" fall back), as one exact distribution."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.bloodybacks93.charges import ChargeFacts, Contact, check_to_stand, roll_impetus
from smoothbore.bloodybacks93.melee import (
    ChargeResult,
    Fate,
    SideAfter,
    charge_in_detail,
    cohesion_sequence,
    fate_of,
    has_bayonets,
    melee_dice,
    melee_need,
    resolve_charge,
    roll_melee,
)
from smoothbore.bloodybacks93.options import Options
from smoothbore.bloodybacks93.shooting import Cover
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Troops,
    Unit,
    UnitType,
    take_melee_losses,
)
from smoothbore.core import Dice, SamplingDice, odds

from .oracle import one_die, pool, pool_by_convolution, results_of

RESULT_FATE = {"destroyed": "destroyed", "rout": "routs", "pushed back": "falls back",
               "carry on": "holds"}


def _add(table: dict[tuple[str, str, str], Fraction], key: tuple[str, str, str],
         p: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + p


def oracle(
    charger: Unit, defender: Unit, impetus_dice: int, melee_count: int, no_bayonets: bool,
    cover: int = 0,
) -> dict[tuple[str, str, str], Fraction]:
    """The whole charge for one charger and one defender out of the open, worked out from
    the text by enumeration (the dice counts are given by the test)."""
    qc, dc, qd, dd = charger.quality, charger.density, defender.quality, defender.density
    out: dict[tuple[str, str, str], Fraction] = {}
    for k, pk in pool_by_convolution(impetus_dice, 2 * qc, naturals=False).items():
        stand = {"carry on": Fraction(1)}
        if k > qd:
            stand = results_of(qd + dd - (k - qd) - 2 * (defender.stamina_losses // 6))
        for result, ps in stand.items():
            if result != "carry on":
                _add(out, ("defenders did not stand", "holds", RESULT_FATE[result]), pk * ps)
                continue
            need = 3 + k + (1 if no_bayonets else 0) - cover
            for s, pm in pool_by_convolution(melee_count, need).items():
                f = melee_count - s
                sd, sc = defender.stamina_losses + s, charger.stamina_losses + f
                base = pk * ps * pm
                if s != f:
                    chargers_lost = f > s
                    loser_need = (qc + dc - 2 * (sc // 6) if chargers_lost
                                  else qd + dd - 2 * (sd // 6)) - abs(s - f)
                    winner_need = qd + dd - 2 * (sd // 6) if chargers_lost else (
                        qc + dc - 2 * (sc // 6))
                    winner = "defenders won the melee" if chargers_lost else (
                        "chargers won the melee")
                    for lr, pl in results_of(loser_need).items():
                        winner_results = (results_of(winner_need) if lr == "carry on"
                                          else {"carry on": Fraction(1)})
                        for wr, pw in winner_results.items():
                            fates = (RESULT_FATE[lr], RESULT_FATE[wr])
                            c_fate, d_fate = fates if chargers_lost else fates[::-1]
                            _add(out, (winner, c_fate, d_fate), base * pl * pw)
                else:
                    for dr, pd in results_of(qd + dd - 2 * (sd // 6)).items():
                        for cr, pc in results_of(qc + dc - 2 * (sc // 6)).items():
                            _add(out, ("melee drawn", RESULT_FATE[cr], RESULT_FATE[dr]),
                                 base * pd * pc)
    return out


def _verdicts(dist: object) -> dict[tuple[str, str, str], Fraction]:
    mapped = dist.map(lambda o: (o.winner, str(o.verdict().charger),  # type: ignore[attr-defined]
                                 str(o.verdict().defender)))
    return {o: mapped.probability(o) for o in mapped.outcomes}


REGULARS = Unit("c", "Grenadiers", BRITISH, quality=4, density=5, size=20,
                troops=Troops.REGULAR)
CONTINENTALS = Unit("d", "Continentals", AMERICAN, quality=3, density=6, size=20,
                    troops=Troops.CONTINENTAL)
MILITIA = Unit("m", "Militia", AMERICAN, quality=2, density=6, size=30, troops=Troops.MILITIA)
HESSIANS = Unit("h", "Hessians", BRITISH, quality=4, density=8, size=20)
DRAGOONS = Unit("l", "Dragoons", BRITISH, kind=UnitType.CAVALRY, quality=3, density=6,
                size=12, heavy_cavalry=True, disruption=1)


@pytest.mark.parametrize(("charger", "defender", "facts", "options", "imp", "mel", "nob"), [
    # regulars with cold steel: 4 + 1 cold steel impetus dice, 7 melee dice
    (REGULARS, CONTINENTALS, ChargeFacts(), Options(), 5, 7, False),
    # militia (no cold steel) 30 v 20 (3:2: +1 die), 6 melee dice, a drawable melee
    (MILITIA, HESSIANS, ChargeFacts(), Options(), 5, 6, False),
    # heavy dragoons (cold steel) with 1 DRP into a flank (+2), 12 v 30 (-2): 4+1+1-1+2-2;
    # cavalry experiment: 7 - 2 = 5 melee dice
    (DRAGOONS, MILITIA, ChargeFacts(contact=Contact.FLANK), Options(cavalry_experiment=True),
     5, 5, False),
    # regulars into a stamina-worn defender in light cover, commander-free
    (REGULARS, attrs.evolve(CONTINENTALS, stamina_losses=7, disruption=2),
     ChargeFacts(cover=Cover.LIGHT, use_cold_steel=False), Options(), 6, 6, False),
])
def test_whole_charge_against_oracle(
    charger: Unit, defender: Unit, facts: ChargeFacts, options: Options, imp: int, mel: int,
    nob: bool,
) -> None:
    """Charges and melee: impetus, check to stand, melee, losses and the cohesion-test
    sequence, exactly, against a brute-force model of the text."""
    dist = odds(resolve_charge, (charger,), (defender,), facts, options=options)
    expected = oracle(charger, defender, imp, mel, nob, cover=facts.cover.value)
    assert _verdicts(dist) == expected
    assert sum(expected.values()) == 1


def test_composed_equals_replayed() -> None:
    """Charges and melee: the staged exact distribution equals ``odds`` over the whole
    played charge."""
    facts = ChargeFacts(charger_commander_attached=True)
    staged = odds(resolve_charge, (MILITIA,), (HESSIANS,), facts)
    replayed = odds(resolve_charge.play, (MILITIA,), (HESSIANS,), facts)
    assert staged == replayed


def test_pool_by_convolution_matches_product() -> None:
    """(Oracle check) convolving enumerated dice equals the full product of faces."""
    for count, need in ((3, 5), (4, 8), (2, 0)):
        assert pool_by_convolution(count, need) == pool(count, need)
    assert one_die(13) == (Fraction(1, 12), Fraction(11, 12))


def test_melee_dice_and_need() -> None:
    """Resolve melee: 6 d12, +1 with cold steel, -2 with cavalry (experiment); need 3, +1 per
    impetus success, +1 against no bayonets, less cover."""
    facts = ChargeFacts()
    assert melee_dice((REGULARS,), (CONTINENTALS,), facts).total == 7
    assert melee_dice((MILITIA,), (HESSIANS,), facts).total == 6
    assert melee_dice((DRAGOONS,), (MILITIA,), facts, Options(cavalry_experiment=True)).total == 5
    assert melee_dice((DRAGOONS,), (MILITIA,), facts).total == 7
    assert melee_need(2, (CONTINENTALS,), facts).total == 5
    assert melee_need(2, (DRAGOONS,), ChargeFacts(cover=Cover.FORTIFICATIONS)).total == 3
    assert not has_bayonets(DRAGOONS)
    assert not has_bayonets(attrs.evolve(MILITIA, bayonets=False))


def test_cold_steel_never_draws() -> None:
    """Resolve melee: with cold steel (7 dice) a melee can never be drawn."""
    dist = odds(resolve_charge, (REGULARS,), (CONTINENTALS,), ChargeFacts())
    assert dist.probability(lambda o: o.winner == "melee drawn") == 0
    plain = odds(resolve_charge, (REGULARS,), (CONTINENTALS,), ChargeFacts(use_cold_steel=False))
    assert plain.probability(lambda o: o.winner == "melee drawn") > 0


def test_losses_on_both_sides() -> None:
    """Resolve melee: each success is a stamina loss and a DRP on each defender, each failure
    on each charger."""
    dist = odds(charge_in_detail, (REGULARS,), (CONTINENTALS,), ChargeFacts())
    for outcome in dist.outcomes:
        if outcome.fought:
            charger, defender = outcome.chargers[0], outcome.defenders[0]
            assert charger.stamina_losses == outcome.failures
            assert defender.stamina_losses == outcome.successes
            assert defender.disruption == min(3, outcome.successes) or defender.routing


def test_fall_back_when_still_in_contact() -> None:
    """Resolve melee: chargers move back 3" when both sides remain after the tests."""
    dist = odds(resolve_charge, (MILITIA,), (HESSIANS,), ChargeFacts())
    for outcome in dist.outcomes:
        both_hold = (outcome.fought and Fate.HOLDS in outcome.charger_fates
                     and Fate.HOLDS in outcome.defender_fates)
        assert outcome.chargers_fall_back == both_hold


def test_multi_unit_charge_uses_combined_size() -> None:
    """Multiple unit melee: impetus uses the combined size of all chargers; losses fall on
    each charging unit."""
    second = attrs.evolve(REGULARS, id="c2", name="Light Bobs")
    dist = odds(charge_in_detail, (REGULARS, second), (CONTINENTALS,), ChargeFacts())
    # 40 v 20 is 2:1: 4 dice + 1 cold steel + 2, each at or under 2 x 4
    impetus = dist.map(lambda o: o.impetus)
    assert {k: impetus.probability(k) for k in impetus.outcomes} == pool_by_convolution(
        7, 8, naturals=False)
    for outcome in dist.outcomes:
        if outcome.fought:
            assert all(u.stamina_losses == outcome.failures for u in outcome.chargers)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_same_seed_same_charge(seed: int) -> None:
    """Charges and melee: replayable: the same seed gives the same charge; sampled results
    are possible outcomes of the exact distribution."""
    first = resolve_charge((REGULARS,), (CONTINENTALS,), ChargeFacts(), dice=SamplingDice(seed))
    second = resolve_charge((REGULARS,), (CONTINENTALS,), ChargeFacts(), dice=SamplingDice(seed))
    assert first == second
    assert odds(resolve_charge, (REGULARS,), (CONTINENTALS,), ChargeFacts()).weight(first) > 0


@st.composite
def _fighters(draw: st.DrawFn, side: str) -> Unit:
    kind = draw(st.sampled_from([UnitType.INFANTRY, UnitType.CAVALRY]))
    return Unit(
        side[0], side, side, kind=kind, quality=draw(st.integers(1, 5)),
        density=draw(st.integers(3, 8)), size=draw(st.integers(4, 40)),
        disruption=draw(st.integers(0, 3)), stamina_losses=draw(st.integers(0, 8)),
        troops=draw(st.sampled_from(list(Troops))), heavy_cavalry=draw(st.booleans()),
    )


@settings(max_examples=8, deadline=None)
@given(_fighters(BRITISH), _fighters(AMERICAN), st.sampled_from(list(Contact)),
       st.sampled_from(list(Cover)), st.booleans(), st.booleans())
def test_staged_equals_replayed_for_any_charge(
    charger: Unit, defender: Unit, contact: Contact, cover: Cover, experiment: bool,
    penalty: bool,
) -> None:
    """Charges and melee: for any units, facts and options, the staged exact distribution
    equals the replayed one, sums to one, and keeps DRPs at most 3."""
    facts = ChargeFacts(contact=contact, cover=cover)
    options = Options(cavalry_experiment=experiment, impetus_penalty_after_melee=penalty)
    staged = odds(resolve_charge, (charger,), (defender,), facts, options=options)
    replayed = odds(resolve_charge.play, (charger,), (defender,), facts, options=options)
    assert staged == replayed
    assert sum(staged.probability(o) for o in staged.outcomes) == 1
    for outcome in staged.outcomes:
        assert all(u.disruption <= 3 and u.density >= 3
                   for u in outcome.chargers + outcome.defenders)


def test_sampling_agrees_with_exact() -> None:
    """Charges and melee: seeded sampling of the played charge agrees with the exact
    distribution within 4 standard errors."""
    exact = odds(resolve_charge, (REGULARS,), (CONTINENTALS,), ChargeFacts())
    p = float(exact.probability(lambda o: o.verdict().defender is not Fate.HOLDS))
    dice = SamplingDice(2026)
    n = 4000
    hits = sum(
        resolve_charge((REGULARS,), (CONTINENTALS,), ChargeFacts(), dice=dice).verdict().defender
        is not Fate.HOLDS
        for _ in range(n)
    )
    error = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * error


def test_two_chargers_staged_equals_replayed() -> None:
    """Multiple unit melee: two chargers against one defender, exactly, both ways; each
    charger tests on its own."""
    second = attrs.evolve(MILITIA, id="m2", name="More militia", size=10)
    facts = ChargeFacts()
    staged = odds(charge_in_detail, (MILITIA, second), (HESSIANS,), facts)
    replayed = odds(charge_in_detail.play, (MILITIA, second), (HESSIANS,), facts)
    assert staged == replayed
    lost = [o for o in staged.outcomes if o.winner == "defenders won the melee"]
    assert all(len(o.charger_tests) == 2 and None not in o.charger_tests for o in lost)


def test_each_unit_counts_only_its_own_commander_in_its_tests() -> None:
    """Morale: Modifiers: +1 "if the unit's commander and/or the CinC is attached to the
    unit" (B43): two militia chargers lose a melee 1-5; only the one named in ``led`` tests
    at +1: quality 2 + density 6 - 4 + 1 = 5, the other 2 + 6 - 4 = 4. The winner's test,
    when it comes, has its own (here none)."""
    second = attrs.evolve(MILITIA, id="m2", name="More militia", size=10)
    facts = ChargeFacts(led=frozenset({"m"}))
    after = odds(cohesion_sequence, (MILITIA, second), (HESSIANS,), 1, 5, facts, None)
    needs = after.map(lambda a: tuple(t.need for t in a.charger_tests if t is not None))
    assert needs.outcomes == ((5, 4),)
    winners = after.map(lambda a: tuple(t.need for t in a.defender_tests if t is not None))
    assert set(winners.outcomes) <= {(), (4 + 8,)}
    staged = odds(resolve_charge, (MILITIA, second), (HESSIANS,), facts)
    assert staged == odds(resolve_charge.play, (MILITIA, second), (HESSIANS,), facts)
    assert staged != odds(resolve_charge, (MILITIA, second), (HESSIANS,), ChargeFacts())


def by_parts(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts,
    options: Options, *, dice: Dice,
) -> tuple[object, ...]:
    """(Oracle) the charge put together by hand from its public parts (impetus, the check
    to stand, the melee roll, the losses and ``cohesion_sequence``), walked branch by
    branch: what each unit ends as, and who won."""
    holds = facts.defender_holds_works
    impetus = roll_impetus(chargers, defenders, facts, dice=dice)
    stand = check_to_stand(defenders, impetus, facts, dice=dice)
    stand_tests = stand.tests or (None,) * len(defenders)
    fighters = [i for i, s in enumerate(stand.standing(facts))
                if s and not stand.defenders[i].destroyed]
    if not fighters:
        return ("defenders did not stand", chargers, stand.defenders,
                tuple(Fate.HOLDS for _ in chargers),
                tuple(fate_of(u, t, holds) for u, t in zip(stand.defenders, stand_tests,
                                                             strict=True)), False)
    fighting = tuple(stand.defenders[i] for i in fighters)
    count = max(0, melee_dice(chargers, fighting, facts, options).total)
    successes = roll_melee(count, melee_need(impetus, fighting, facts).total, dice=dice)
    failures = count - successes
    after = cohesion_sequence(
        tuple(take_melee_losses(u, failures) for u in chargers),
        tuple(take_melee_losses(u, successes) for u in fighting), successes, failures, facts,
        impetus if options.impetus_penalty_after_melee else None, dice=dice)
    units = list(stand.defenders)
    tests = list(stand_tests)
    for slot, i in enumerate(fighters):
        units[i] = after.defenders[slot]
        if after.defender_tests[slot] is not None:
            tests[i] = after.defender_tests[slot]
    winner = ("chargers won the melee" if successes > failures else
              "defenders won the melee" if failures > successes else "melee drawn")
    return (winner, after.chargers, tuple(units),
            tuple(fate_of(u, t) for u, t in zip(after.chargers, after.charger_tests,
                                                 strict=True)),
            tuple(fate_of(u, t, holds) for u, t in zip(units, tests, strict=True)),
            after.chargers_fall_back)


def _plain(result: ChargeResult) -> tuple[object, ...]:
    return (result.winner, result.chargers, result.defenders, result.charger_fates,
            result.defender_fates, result.chargers_fall_back)


def _units(name: str, side: str, count: int, **changes: object) -> tuple[Unit, ...]:
    base = REGULARS if side == BRITISH else CONTINENTALS
    return tuple(attrs.evolve(base, id=f"{name}{i}", name=f"{name}{i}", **changes)
                 for i in range(count))


@pytest.mark.parametrize(("chargers", "defenders", "facts", "options"), [
    (_units("c", BRITISH, 2), _units("d", AMERICAN, 2), ChargeFacts(), Options()),
    (_units("c", BRITISH, 2, quality=3, troops=Troops.OTHER), _units("d", AMERICAN, 1),
     ChargeFacts(cover=Cover.FORTIFICATIONS), Options(impetus_penalty_after_melee=True)),
    ((MILITIA,), (HESSIANS, attrs.evolve(HESSIANS, id="h2", stamina_losses=6)),
     ChargeFacts(led=frozenset({"h2"}), behind_obstacle=True), Options()),
    ((DRAGOONS,), (MILITIA, attrs.evolve(MILITIA, id="m2", quality=1)),
     ChargeFacts(contact=Contact.REAR), Options(cavalry_experiment=True)),
])
def test_composed_charge_equals_the_charge_put_together_by_hand(
    chargers: tuple[Unit, ...], defenders: tuple[Unit, ...], facts: ChargeFacts,
    options: Options,
) -> None:
    """Charges and melee, Multiple unit melee: the charge composed stage by stage (the two
    sides' cohesion tests multiplied out as one chance node) has exactly the distribution
    of the same charge assembled from its public parts and walked branch by branch; the
    detailed charge ends the same way, and equals the walk of its own stages."""
    composed = odds(resolve_charge, chargers, defenders, facts, options=options)
    oracle = odds(by_parts, chargers, defenders, facts, options, max_branches=10**6)
    assert composed.map(_plain) == oracle
    assert sum(composed.probability(o) for o in composed.outcomes) == 1
    detail = odds(charge_in_detail, chargers, defenders, facts, options=options)
    assert detail.map(lambda o: o.result()) == composed
    assert detail == odds(charge_in_detail.play, chargers, defenders, facts, options=options,
                          max_branches=10**6)
    assert len(detail) >= len(composed)


def test_the_result_reads_like_the_detail() -> None:
    """A charge's result has the units, fates, fall back, winner and verdict of the same
    charge in detail, and prints the same verdict."""
    seed = 11
    played = resolve_charge((REGULARS,), (CONTINENTALS,), ChargeFacts(), dice=SamplingDice(seed))
    detail = charge_in_detail((REGULARS,), (CONTINENTALS,), ChargeFacts(),
                              dice=SamplingDice(seed))
    assert played == detail.result()
    assert played.verdict() == detail.verdict()
    assert str(played) in str(detail)
    assert played.fought == detail.fought
    assert isinstance(played.charger_side, SideAfter)


def test_played_charges_land_on_the_exact_outcomes_at_their_rates() -> None:
    """Multiple unit melee: played two against two (the units as the tests left them),
    every charge is an outcome of the exact distribution, and the fates come up at the
    exact rates within five standard errors."""
    from smoothbore.core import monte_carlo

    chargers, defenders = _units("c", BRITISH, 2), _units("d", AMERICAN, 2)
    exact = odds(resolve_charge, chargers, defenders, ChargeFacts())
    dice = SamplingDice(2027)
    for _ in range(300):
        assert exact.weight(resolve_charge(chargers, defenders, ChargeFacts(), dice=dice)) > 0

    def fates(*, dice: Dice) -> object:
        played = resolve_charge(chargers, defenders, ChargeFacts(), dice=dice)
        return played.verdict()

    estimate = monte_carlo(fates, samples=4000, rng=11)
    assert estimate.agrees_with(exact.map(lambda o: o.verdict()))
