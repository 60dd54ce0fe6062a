"""RULESET.mechanisms: every random mechanism with parameters and exact distributions."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from smoothbore.core import Distribution, Registry, odds
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.mechanisms import MECHANISMS

FACES = range(1, 7)


@pytest.mark.parametrize("mechanism", MECHANISMS, ids=lambda m: m.name)
def test_every_mechanism_prints_an_exact_distribution(mechanism: object) -> None:
    """Each mechanism runs with its defaults; probabilities sum to one; results print."""
    from smoothbore.core import Mechanism

    assert isinstance(mechanism, Mechanism)
    d = odds(mechanism.function, **mechanism.arguments({}))
    assert isinstance(d, Distribution)
    assert sum(d.probability(o) for o in d.outcomes) == 1
    assert all(str(o) for o in d.outcomes)
    assert mechanism.rule.startswith("Will's AWI")


def test_registry_and_listing() -> None:
    """The ruleset registers and lists its mechanisms by name."""
    reg = Registry().with_references((("will_awi", "smoothbore.will_awi:RULESET"),))
    assert reg.get("will_awi").name == "will_awi"
    names = {m.name for m in RULESET.mechanisms}
    assert {
        "fire",
        "charged-test",
        "melee",
        "charge-to-melee",
        "command-roll",
        "shaken-test",
        "routing-test",
        "surrender",
        "general-risk",
        "demolition",
        "highland-charge",
        "continental-week",
        "forced-march",
    } <= names


def test_golden_faq_charged_test_through_the_mechanism() -> None:
    """FAQs (1) 4 via the CLI mechanism defaults: rout 1/6, counter-charge 3/6."""
    m = RULESET.mechanism("charged-test")
    d = odds(m.function, **m.arguments({}))
    assert d.probability("routs (-1 SP)") == Fraction(1, 6)
    assert d.probability("may counter-charge") == Fraction(3, 6)


def test_golden_command_roll_through_the_mechanism() -> None:
    """January 2008 example via the mechanism defaults: 4 or less on 2d6."""
    m = RULESET.mechanism("command-roll")
    assert odds(m.function, **m.arguments({})).probability("ordered") == Fraction(6, 36)


def test_charge_to_melee_exact() -> None:
    """The charge-to-melee sequence: British line (+1 charging, +1 European) charges American
    line (morale 5): the test routs on 5+; otherwise 1d6+2 against 1d6 in melee."""
    m = RULESET.mechanism("charge-to-melee")
    d = odds(m.function, **m.arguments({}))
    expected: dict[str, Fraction] = {}
    for t, a, b in product(FACES, FACES, FACES):
        w = Fraction(1, 216)
        if t >= 5:
            key = "target routs (-1 SP) at the test"
        else:
            sa, sd = a + 2, b
            if sa == sd:
                key = 'melee: both sides retire 3"'
            else:
                who = "charger" if sa < sd else "target"
                eff = "routs (-2 SP)" if abs(sa - sd) >= 2 else 'retires 3" shaken (-1 SP)'
                key = f"melee: {who} {eff}"
        expected[key] = expected.get(key, Fraction(0)) + w
    assert {o: d.probability(o) for o in d.outcomes} == expected


def test_charge_to_melee_faq_cavalry_counter_charges() -> None:
    """The FAQ cavalry, charged by light infantry, counter-charges on a 1-3 and fights with
    +2 cavalry +2 charging against the light infantry's +1 charging -2 open order."""
    m = RULESET.mechanism("charge-to-melee")
    args = m.arguments(
        {
            "target": "light_cavalry",
            "target_strength": "2",
            "charger": "light_infantry",
            "charger_nation": "american",
        }
    )
    d = odds(m.function, **args)
    assert d.probability("target routs (-1 SP) at the test") == Fraction(1, 6)
    p_counter = d.probability(lambda o: str(o).startswith("counter-charge"))
    assert p_counter == Fraction(3, 6)
    # In the counter-charge melee the cavalry (+4) beat the infantry (-1) unless ...
    expected = sum(Fraction(1, 36) for a, b in product(FACES, FACES) if (b + 4) - (a - 1) >= 2)
    assert d.probability("counter-charge, melee: charger routs (-2 SP)") == expected / 2


def _one(table: dict[int, str]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for (f,) in product(FACES):
        out[table[f]] = out.get(table[f], Fraction(0)) + Fraction(1, 6)
    return out


def _two(result: object) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for a, b in product(FACES, FACES):
        key = result(a + b)  # type: ignore[operator]
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


def _fire_text(score: int, morale: int) -> str:
    """7+ loses a strength point; above basic morale (after the loss) shaken."""
    hit = score >= 7
    shaken = score > (morale - 1 if hit else morale)
    return ("-1 SP" if hit else "no loss") + (", shaken" if shaken else "")


def _melee_text(attacker: int, defender: int) -> str:
    if attacker == defender:
        return 'both sides retire 3"'
    who = "attacker" if attacker < defender else "defender"
    effect = "routs (-2 SP)" if abs(attacker - defender) >= 2 else 'retires 3" shaken (-1 SP)'
    return f"{who} {effect}"


def _melee_default() -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for a, b in product(FACES, FACES):
        key = _melee_text(a + 2, b)  # British line: charging +1, European regulars +1
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


EXPECTED = {
    # American line (5 SP) firing at 6" at American line (morale 5): no factors.
    "fire": _two(lambda t: _fire_text(t, 5)),
    "shaken-test": _one(
        {
            f: "carry on" if f >= 4 else "retire a full move" if f >= 2 else "rout and lose 1 SP"
            for f in FACES
        }
    ),
    "routing-test": _one(
        {
            f: "halt shaken"
            if f >= 5
            else "continue routing"
            if f >= 2
            else "continue routing and lose 1 SP"
            for f in FACES
        }
    ),
    "melee": _melee_default(),
    "surrender": _one({f: "surrenders" if f >= 4 else "holds out" for f in FACES}),
    "general-risk": _two(lambda t: "no effect" if t <= 8 else "light wound" if t <= 10 else "dead"),
    "independent-command": _two(lambda t: "moves" if t <= 3 else "stays"),
    "gun-facing": _one({f: "turns" if f >= 3 else "cannot turn" for f in FACES}),
    "demolition": _two(lambda t: "destroyed" if t > 6 else "stands"),
    "demolition-blast": _two(lambda t: _fire_text(t, 5)),
    "bombard": _two(lambda t: "-1 defence point" if t >= 7 else "no damage"),
    "highland-charge": _one({f: "charges" if f >= 5 else "holds" for f in FACES}),
    "militia-return": _one({f: "return" if f <= 2 else "stay away" for f in FACES}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mechanism_defaults_exact(name: str) -> None:
    """Each mechanism's defaults against the rule worked out by brute force over the dice:
    fire (Rules - Firing), shaken and rout tests (Rules - Morale), melee, surrender, risk to
    generals, the independent command test (March 2008), the gun facing roll (FAQs (1) 3),
    demolition and its blast, bombardment, the Highland charge test, militia returns."""
    m = RULESET.mechanism(name)
    d = odds(m.function, **m.arguments({}))
    assert {str(o): d.probability(o) for o in d.outcomes} == EXPECTED[name]


def test_small_mechanisms_exact() -> None:
    """The '45 charge distance (6" + 1d6), pre-battle rolls (+1 on 4-6, two dice) and European
    replacements (10 points on a 6)."""
    dist = odds(RULESET.mechanism("highland-charge-distance").function)
    assert {o: dist.probability(o) for o in dist.outcomes} == {6 + f: Fraction(1, 6) for f in FACES}
    pre = odds(RULESET.mechanism("pre-battle").function)
    expected: dict[str, Fraction] = {}
    for a, b in product(FACES, FACES):
        key = f"morale +{int(a >= 4)}, firing +{int(b >= 4)}"
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 36)
    assert {str(o): pre.probability(o) for o in pre.outcomes} == expected
    euro = odds(RULESET.mechanism("european-replacements").function)
    assert euro.probability(10) == Fraction(1, 6) and euro.probability(0) == Fraction(5, 6)


def test_every_mechanism_function_is_listed() -> None:
    """`smoothbore odds will_awi --list` shows every random mechanism the module defines."""
    import inspect

    from smoothbore.core.ruleset import is_validated
    from smoothbore.will_awi import mechanisms

    functions = {
        f
        for name, f in vars(mechanisms).items()
        if (inspect.isfunction(f) or is_validated(f))
        and not name.startswith("_")
        and f.__module__ == mechanisms.__name__
        and "dice" in inspect.signature(f).parameters
    }
    assert functions == {m.function for m in RULESET.mechanisms}


def test_choices_are_spelled_as_the_command_line_writes_them() -> None:
    """Mechanism parameters are declared once, in the function's signature; choices are the
    rules' own enums, spelled in lower case with dashes (``light-infantry``), and the function
    receives the enum member. Member names are accepted too."""
    from smoothbore.core import spell
    from smoothbore.will_awi.units import Nationality, TroopType

    m = RULESET.mechanism("charged-test")
    target = m.parameter("target")
    assert target.kind is TroopType and target.default is TroopType.LIGHT_CAVALRY
    assert "light-infantry" in target.allowed() and "american-loyalist" in (
        m.parameter("charger_nation").allowed()
    )
    assert target.parse("light-infantry") is TroopType.LIGHT_INFANTRY
    assert target.parse("LIGHT_INFANTRY") is TroopType.LIGHT_INFANTRY
    assert m.parameter("charger_nation").parse("loyalist") is Nationality.LOYALIST
    for mechanism in RULESET.mechanisms:
        for parameter in mechanism.parameters:
            assert parameter.help
            assert parameter.parse(parameter.show(parameter.default)) == parameter.default
            assert parameter.parse(str(parameter.default).lower()) == parameter.default
            for choice in parameter.choices:
                assert spell(choice) == spell(choice).lower()
                assert " " not in spell(choice) and "_" not in spell(choice)


def test_parameters_come_from_the_signatures() -> None:
    """Every mechanism is ``Mechanism.of`` its function: the parameters are exactly the
    function's keyword-only arguments, with their defaults."""
    import inspect

    from smoothbore.core import Mechanism

    for mechanism in RULESET.mechanisms:
        rebuilt = Mechanism.of(mechanism.function, mechanism.rule)
        assert rebuilt == mechanism
        signature = inspect.signature(mechanism.function).parameters
        assert [p.name for p in mechanism.parameters] == [n for n in signature if n != "dice"]
        assert all(p.default == signature[p.name].default for p in mechanism.parameters)


def test_mechanism_arguments_from_the_command_line() -> None:
    """`smoothbore odds will_awi charged-test target=line-infantry charger=light-cavalry`: the
    charged unit of the example takes +2 (non-cavalry charged by cavalry): line infantry of
    morale 5 routs on 3+."""
    m = RULESET.mechanism("charged-test")
    args = m.arguments({"target": "line-infantry", "target_strength": "5",
                        "charger": "light-cavalry"})
    d = odds(m.function, **args)
    assert d.probability("routs (-1 SP)") == Fraction(4, 6)


def test_a_call_from_python_validates_as_the_command_line_does() -> None:
    """Rules - Firing, as `smoothbore odds will_awi fire` takes it: a choice may be given as
    its member or as the command line spells it, and a bad value raises InvalidValueError
    naming the parameter (issue 27: the Python API accepted any value)."""
    from smoothbore.core import InvalidValueError, SamplingDice, odds
    from smoothbore.will_awi import mechanisms
    from smoothbore.will_awi.firing import Cover
    from smoothbore.will_awi.units import TroopType

    spelled = odds(mechanisms.fire, firer="light-infantry", cover="solid-cover")
    assert spelled == odds(mechanisms.fire, firer=TroopType.LIGHT_INFANTRY, cover=Cover.SOLID)
    for bad in ({"firer": "dragoons"}, {"range": 61}, {"target_militia": 3},
                {"firer_shaken": "perhaps"}):
        with pytest.raises(InvalidValueError) as caught:
            mechanisms.fire(dice=SamplingDice(1), **bad)
        assert caught.value.field == next(iter(bad))
