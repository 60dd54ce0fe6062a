"""Bloodybacks 9.3: every random mechanism is listed with parameters and gives an exact,
printable distribution."""

from __future__ import annotations

import inspect
import itertools
from fractions import Fraction

import pytest

from smoothbore.bloodybacks93 import RULESET
from smoothbore.bloodybacks93.charges import ChargeFacts
from smoothbore.bloodybacks93.commanders import Fate
from smoothbore.bloodybacks93.melee import resolve_charge
from smoothbore.bloodybacks93.shooting import Cover
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Troops, Unit, UnitType
from smoothbore.core import InvalidValueError, monte_carlo, odds, spell

from .oracle import AV_FACES, D12_FACES, pool, pool_by_convolution, results_of, totals
from .test_melee import oracle

NAMES = (
    "activity", "first-card", "turn-length", "activation", "actions", "test", "rout-move",
    "push-back", "move", "passage", "shooting", "evade", "impetus", "stand", "melee",
    "charge", "pursuit", "commander-risk", "commander-fate",
)


def test_every_mechanism_is_listed() -> None:
    """Each section's random mechanism is in RULESET.mechanisms, and every parameter of its
    function is listed with the function's own default (what the CLI shows is what runs)."""
    assert tuple(m.name for m in RULESET.mechanisms) == NAMES
    for mechanism in RULESET.mechanisms:
        assert mechanism.rule.startswith("Bloodybacks 9.3")
        signature = inspect.signature(mechanism.function)
        listed = {p.name: p.default for p in mechanism.parameters}
        assert listed == {name: p.default for name, p in signature.parameters.items()
                          if name != "dice"}


def _tally(pairs: list[tuple[object, Fraction]]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome, p in pairs:
        out[str(outcome)] = out.get(str(outcome), Fraction(0)) + p
    return out


def _faces(*dice: tuple[int, ...]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every combination of faces of these dice, each with its probability."""
    size = 1
    for die in dice:
        size *= len(die)
    return [(roll, Fraction(1, size)) for roll in itertools.product(*dice)]


def _verdict(result: tuple[str, str, str]) -> str:
    return f"{result[0]}; charger {result[1]}; defender {result[2]}"


def _expected(name: str) -> dict[str, Fraction]:
    """Each mechanism's default distribution, worked out from the text by enumeration."""
    d12, av = D12_FACES, AV_FACES
    if name == "activity":  # AR3: a roll above 3 gives AL1; CP = half the level, rounded up
        levels = [(1 if r > 3 else r, p) for (r,), p in _faces(av)]
        return _tally([(f"AL{level} ({-(-level // 2)} CP)", p) for level, p in levels])
    if name == "first-card":  # ten cards, (value + 1) x 5 minutes
        return {f"{c} {'ace' if v == 1 else v}: {(v + 1) * 5} minutes": Fraction(1, 10)
                for c in ("red", "black") for v in range(1, 6)}
    if name == "turn-length":
        return {str(m): Fraction(1, 5) for m in (10, 15, 20, 25, 30)}
    if name in ("activation", "actions"):  # Q3 + CQ3: six d12 at or under 6, no naturals
        hand = pool(6, 6, naturals=False)
        actions = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0), 3: Fraction(0)}
        for k, p in hand.items():
            actions[3 if k == 6 else 2 if k >= 3 else 1 if k else 0] += p
        if name == "actions":
            return {str(a): p for a, p in actions.items()}
        out = {f"{k}/6 successes (need 6): {3 if k == 6 else 2 if k >= 3 else 1} action"
               + ("" if 1 <= k < 3 else "s"): p for k, p in hand.items() if k}
        for result, q in results_of(6).items():  # the forced morale test: 2 x 3
            need = "morale test (need 6)"
            n = {"destroyed": 0, "rout": 1, "pushed back": 2, "carry on": 3}[result]
            out[f"0/6 successes (need 6): 0 actions; {need}: {n} success"
                f"{'' if n == 1 else 'es'}, {result}"] = hand[0] * q
        return out
    if name == "test":  # morale test of quality 3: need 6
        return results_of(6)
    if name == "rout-move":  # infantry 6" + dAv
        return {str(k): p for k, p in totals(av, 1, 6).items()}
    if name == "push-back":
        return {str(k): p for k, p in totals(av, 2).items()}
    if name == "move":  # deployed cavalry: either d12, their sum or their difference
        return _tally([("moves exactly one of " + ", ".join(
            f'{d}"' for d in sorted({a, b, a + b, abs(a - b)})), p)
            for (a, b), p in _faces(d12, d12)])
    if name == "passage":  # d12: 1 fails, 6+ (3 + 3) clean, else DRPs (density 6: 2)
        return _tally([("fails: the moving unit stops at contact" if r == 1 else
                        "passes through" if r >= 6 else
                        "passes through, both units disrupted (+2 DRP)", p)
                       for (r,), p in _faces(d12)])
    if name == "shooting":  # musket volley at 6": 3d12 at or under density 6
        return {str(k): p for k, p in pool(3, 6).items()}
    if name == "evade":  # nobody follows: 1 DRP, then a morale test of quality 3
        return results_of(6)
    if name == "impetus":  # Q4 regulars with cold steel: 4 + 1 dice at or under 2 x 4
        return {str(k): p for k, p in pool(5, 8, naturals=False).items()}
    if name == "stand":  # impetus 4 against quality 3: cohesion 3 + 6 - 1
        return results_of(8)
    if name == "melee":
        return {f"{k}-{6 - k}": p for k, p in pool(6, 3).items()}
    if name == "charge":  # Q4 D5 regulars (5 impetus dice, 7 melee dice) v Q3 D6 militia
        charger = Unit("c", "c", BRITISH, quality=4, density=5, troops=Troops.REGULAR)
        defender = Unit("d", "d", AMERICAN, quality=3, density=6)
        return {_verdict(k): p for k, p in oracle(charger, defender, 5, 7, False).items()}
    if name == "pursuit":  # infantry of quality 3: dAv + 3
        return {str(k): p for k, p in totals(av, 1, 3).items()}
    if name == "commander-risk":  # 2 losses: struck on 1-2; removed when a d12 takes 9 below 1
        return _tally([("unhurt" if r > 2 else "removed" if 9 - w < 1 else "struck, carries on",
                        p) for (r, w), p in _faces(d12, d12)])
    assert name == "commander-fate"
    return _tally([(Fate.STUNNED if r <= 4 else Fate.LIGHT_WOUND if r <= 7 else
                    Fate.SERIOUS_WOUND if r <= 10 else Fate.GLORY, p)
                   for (r,), p in _faces(d12)])


@pytest.mark.parametrize("name", NAMES)
def test_each_mechanism_default_by_enumeration(name: str) -> None:
    """Every mechanism's default distribution is exactly the text's, worked out here by
    enumerating the dice; each outcome prints once, readably, and hashes."""
    mechanism = RULESET.mechanism(name)
    dist = odds(mechanism.function, **mechanism.arguments({}))
    printed = [str(o) for o in dist.outcomes]
    assert len(set(printed)) == len(printed)
    assert {str(o): dist.probability(o) for o in dist.outcomes} == _expected(name)
    assert all(hash(o) is not None for o in dist.outcomes)
    assert dist.table()


def test_parameters_reach_the_rules() -> None:
    """Morale; Charges and melee: Resolve melee: parameters change the distribution as the
    text says."""
    test = RULESET.mechanism("test")
    dist = odds(test.function, **test.arguments({"kind": "cohesion", "quality": "2",
                                                 "density": "8", "lost_by": "3"}))
    got = {str(o): dist.probability(o) for o in dist.outcomes}
    assert got == results_of(2 + 8 - 3)
    melee = RULESET.mechanism("melee")
    rolls = odds(melee.function, **melee.arguments({"count": "7", "need": "5"}))
    want = {f"{k}-{7 - k}": p for k, p in pool_by_convolution(7, 5).items()}
    assert {str(o): rolls.probability(o) for o in rolls.outcomes} == want
    assert sum(want.values()) == Fraction(1)
    actions = RULESET.mechanism("actions")
    earned = odds(actions.function, **actions.arguments({"disruption": "3", "quality": "1",
                                                         "command_quality": "1"}))
    assert earned.probability(0) == pool(3, 2, naturals=False)[0]


@pytest.mark.parametrize(("name", "given"), [
    ("charge", {}), ("charge", {"charger_kind": "cavalry", "experiment": "true"}),
    ("activation", {"disruption": "1"}), ("shooting", {"weapon": "field", "range": "10"}),
    ("move", {}), ("evade", {"spare_move": "9"}),
])
def test_monte_carlo_agrees_with_exact(name: str, given: dict[str, str]) -> None:
    """Each mechanism played with seeded dice agrees with its exact distribution."""
    mechanism = RULESET.mechanism(name)
    arguments = mechanism.arguments(given)
    exact = odds(mechanism.function, **arguments)
    estimate = monte_carlo(mechanism.function, samples=2000, rng=93, **arguments)
    assert estimate.agrees_with(exact)


def test_choices_are_spelled_as_the_command_line_writes_them() -> None:
    """Every choice is an enum or a literal, spelled in lower case with dashes (as
    core.ruleset.spell writes it) and read back in any spelling; the function receives the
    enum member."""
    move = RULESET.mechanism("move")
    kind = move.parameter("kind")
    assert kind.parse("very-light-artillery") is UnitType.VERY_LIGHT_ARTILLERY
    assert kind.parse("VERY_LIGHT_ARTILLERY") is UnitType.VERY_LIGHT_ARTILLERY
    assert [spell(c) for c in move.parameter("terrain").choices] == [
        "open", "light-woods", "heavy-woods", "difficult-terrain", "up-a-steep-hill"]
    shooting = RULESET.mechanism("shooting")
    assert [spell(c) for c in shooting.parameter("weapon").choices] == [
        "musket", "rifle", "carbine", "very-light", "light", "field", "heavy", "siege",
        "amusette"]
    charge = RULESET.mechanism("charge")
    assert "charger_troops=regular" in charge.signature()
    assert charge.parameter("cover").parse("light") is Cover.LIGHT
    assert charge.parameter("cover").parse("2") is Cover.SIGNIFICANT
    with pytest.raises(InvalidValueError) as info:
        charge.parameter("charger_troops").parse("hessian")
    assert info.value.field == "charger_troops"
    assert "regular, continental, militia" in info.value.allowed
    with pytest.raises(InvalidValueError):
        charge.parameter("charger_quality").parse("6")
    arguments = move.arguments({"kind": "field-artillery", "formation": "unlimbered"})
    dist = odds(move.function, **arguments)
    assert {str(o) for o in dist.outcomes} == {f'moves up to {k}"' for k in (2, 3, 4, 5)}


def test_charge_commanders_reach_the_rules() -> None:
    """Determine impetus; Morale: Modifiers (B43): the charge mechanism's commanders are the
    rules' own: any commander with the chargers adds an impetus die; the charger's or the
    defender's own commander (or the CinC) also helps that unit's tests."""
    charge = RULESET.mechanism("charge")
    charger = Unit("c", "charger", BRITISH, quality=4, density=5, troops=Troops.REGULAR)
    defender = Unit("d", "defender", AMERICAN, quality=3, density=6, troops=Troops.MILITIA)
    for given, facts in (
        ({"commander_attached": "yes"}, ChargeFacts(charger_commander_attached=True)),
        ({"charger_led": "yes"},
         ChargeFacts(charger_commander_attached=True, led=frozenset({"c"}))),
        ({"defender_led": "yes"}, ChargeFacts(led=frozenset({"d"}))),
    ):
        got = odds(charge.function, **charge.arguments(given))
        want = odds(resolve_charge, (charger,), (defender,), facts).map(lambda o: o.verdict())
        assert got == want
        assert got != odds(charge.function, **charge.arguments({}))


# --- issue 27: mechanisms called from Python validate as the command line does -----------
def test_morale_test_spelled_morale_is_the_morale_test() -> None:
    """Morale: MORALE TESTS (2 x quality) against COHESION TESTS (quality + density): the
    command line's spelling ``kind="morale"`` computed a cohesion test when called from
    Python; now it is the morale test, as ``TestKind.MORALE`` is."""
    from smoothbore.bloodybacks93 import mechanisms
    from smoothbore.bloodybacks93.morale import TestKind

    spelled = odds(mechanisms.test, kind="morale")
    assert spelled == odds(mechanisms.test, kind=TestKind.MORALE)
    assert spelled != odds(mechanisms.test, kind=TestKind.COHESION)
    assert odds(mechanisms.test, kind="cohesion") == odds(mechanisms.test,
                                                         kind=TestKind.COHESION)


@pytest.mark.parametrize(("mechanism", "arguments", "field"), [
    ("test", {"kind": "nonsense"}, "kind"),
    ("test", {"quality": 6}, "quality"),
    ("test", {"quality": True}, "quality"),
    ("test", {"quality": 3.5}, "quality"),
    ("shoot", {"weapon": "sword"}, "weapon"),
    ("shoot", {"range": 121}, "range"),
    ("impetus", {"charger_size": 100_000}, "charger_size"),
    ("pursuit", {"kind": UnitType.LIGHT_ARTILLERY}, "kind"),
    ("pursuit", {"speed": 3}, "pursuit parameter"),
    ("melee_roll", {"count": 8}, "count"),
    ("commander_risk", {"losses": 15}, "losses"),
])
def test_a_bad_argument_from_python_names_the_parameter(
    mechanism: str, arguments: dict[str, object], field: str
) -> None:
    """Every mechanism checks its arguments against the Parameters the command line parses
    with (core.ruleset.validated): the error names the parameter, the value and what is
    allowed, never a bare KeyError or a silent other rule."""
    from smoothbore.bloodybacks93 import mechanisms
    from smoothbore.core import SamplingDice

    with pytest.raises(InvalidValueError) as caught:
        getattr(mechanisms, mechanism)(dice=SamplingDice(1), **arguments)
    assert caught.value.field == field
    assert caught.value.allowed
    with pytest.raises(InvalidValueError):
        odds(getattr(mechanisms, mechanism), **arguments)


def test_shooting_with_a_musket_spelled_as_the_command_line_spells_it() -> None:
    """Shooting: Musketry. ``shoot(weapon="musket")`` raised a bare KeyError."""
    from smoothbore.bloodybacks93 import mechanisms

    assert odds(mechanisms.shoot, weapon="musket") == odds(mechanisms.shoot,
                                                           weapon=mechanisms.Arm.MUSKET)


def test_cavalry_pursuit_given_as_the_unit_type_is_the_cavalry_pursuit() -> None:
    """Charges and melee: Pursuit: infantry pursue dAv + quality inches, cavalry dAv + d12.
    ``pursuit(kind=UnitType.CAVALRY)`` gave the infantry pursuit (5 to 8 inches)."""
    from smoothbore.bloodybacks93 import mechanisms

    cavalry = odds(mechanisms.pursuit, kind=UnitType.CAVALRY)
    assert cavalry == odds(mechanisms.pursuit, kind="cavalry")
    assert (min(cavalry.outcomes), max(cavalry.outcomes)) == (3, 17)
    infantry = odds(mechanisms.pursuit, kind=UnitType.INFANTRY, quality=3)
    assert (min(infantry.outcomes), max(infantry.outcomes)) == (5, 8)


def test_numeric_parameters_are_bounded_by_the_rules() -> None:
    """Every numeric parameter has a highest value (issue 28: ``impetus charger_size=100000``
    took 11 s): sizes by ten 24-figure units (Unit size), ranges by siege roundshot's 10'
    (Shooting: Artillery)."""
    from smoothbore.bloodybacks93 import mechanisms

    for mechanism in RULESET.mechanisms:
        for parameter in mechanism.parameters:
            if parameter.kind in (int, float) and not parameter.choices:
                assert parameter.high is not None, f"{mechanism.name} {parameter.name}"
    assert RULESET.mechanism("impetus").parameter("charger_size").high == 240
    assert RULESET.mechanism("shooting").parameter("range").high == mechanisms.MAX_RANGE == 120
