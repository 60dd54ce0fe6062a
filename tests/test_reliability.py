"""The catalogue of hostile input (docs/reliability.md): one test per row, named by its id.

A row without a test, or a test without a row, fails ``test_every_row_has_a_test``."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from smoothbore.battle import BattleRecord, play, random_policy, replay
from smoothbore.bloodybacks93 import actions as bb
from smoothbore.bloodybacks93.command import CommandPointUse
from smoothbore.bloodybacks93.movement import MoveFacts
from smoothbore.bloodybacks93.shooting import ShotFacts
from smoothbore.bloodybacks93.units import Commander as BBCommander
from smoothbore.bloodybacks93.units import Unit as BBUnit
from smoothbore.cli import main
from smoothbore.core import (
    D6,
    BattleState,
    Check,
    Distribution,
    EnumerationLimitError,
    IllegalActionError,
    InvalidValueError,
    LoadError,
    PoolCheck,
    ReplayMismatchError,
    SamplingDice,
    SmoothboreError,
    ThresholdCheck,
    odds,
    parse_dice,
)
from smoothbore.rulesets import get_ruleset
from smoothbore.will_awi import actions as wa
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.movement import Leg, MovePlan
from smoothbore.will_awi.units import TroopType
from smoothbore.will_awi.units import Unit as WAUnit

HANG_GUARD = 30.0
"""Seconds: these tests catch a hang, not slowness (speed is measured in benchmarks/)."""

CATALOGUE = Path(__file__).parents[1] / "docs" / "reliability.md"
ROWS: dict[str, Callable[..., None]] = {}
BB = get_ruleset("bloodybacks93")
WA = get_ruleset("will_awi")
NAN, INF = math.nan, math.inf


def row(row_id: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a test as the test of a catalogue row."""

    def register(test: Callable[..., None]) -> Callable[..., None]:
        ROWS[row_id] = test
        return test

    return register


def test_every_row_has_a_test() -> None:
    ids = set(re.findall(r"^\| ([A-Z]\d\d) \|", CATALOGUE.read_text("utf-8"), re.MULTILINE))
    assert len(ids) >= 50
    assert ids == set(ROWS)


def _bb_state() -> Any:
    """A Bloodybacks battle some steps in: commanders attached, sets filled."""
    played = play(BB.turn, BB.example(3), random_policy(3), max_steps=40)  # type: ignore[arg-type]
    return played.end


def _data(state: Any) -> dict[str, Any]:
    return json.loads(state.to_json())  # type: ignore[no-any-return]


def _load_bb(data: dict[str, Any]) -> Any:
    return BB.turn.load(json.dumps(data))  # type: ignore[union-attr]


def _load_wa(data: dict[str, Any]) -> Any:
    return WA.turn.load(json.dumps(data))  # type: ignore[union-attr]


def _refused(load: Callable[[dict[str, Any]], Any], data: dict[str, Any], pattern: str) -> None:
    with pytest.raises(LoadError, match=pattern):
        load(data)


# --- saved states -------------------------------------------------------------------------
@row("L01")
def test_l01_wrong_types_are_not_coerced() -> None:
    for value in ("3", True, None, [3]):
        data = _data(BB.example(1))
        data["turn"] = value
        _refused(_load_bb, data, r"\$\.turn=.*an integer")


@row("L02")
def test_l02_floats_are_not_truncated() -> None:
    data = _data(BB.example(1))
    data["turn"] = 2.7
    _refused(_load_bb, data, r"\$\.turn=2\.7")
    data = _data(BB.example(1))
    data["dice"]["seed"] = 7.9
    _refused(_load_bb, data, r"\$\.dice\.seed=7\.9")


@row("L03")
def test_l03_numbers_are_not_made_strings() -> None:
    data = _data(BB.example(1))
    data["units"][0]["id"] = 5
    _refused(_load_bb, data, r"\$\.units\[0\]\.id=5 .*a string")


@row("L04")
def test_l04_a_string_is_not_a_set_of_letters() -> None:
    data = _data(BB.example(1))
    data["extra"]["attempted"] = "b1"
    _refused(_load_bb, data, r"\$\.extra\.attempted='b1' .*an array")


@row("L05")
def test_l05_a_set_item_twice() -> None:
    data = _data(BB.example(1))
    data["extra"]["attempted"] = ["b1", "b1"]
    _refused(_load_bb, data, r"\$\.extra\.attempted=\['b1'\] .*once")


@row("L06")
def test_l06_unknown_fields_anywhere() -> None:
    for where in ("top", "unit", "options", "extra"):
        data = _data(WA.example(1))
        target = {"top": data, "unit": data["units"][0], "options": data["options"],
                  "extra": data["extra"]}[where]
        target["colour"] = "red"
        _refused(_load_wa, data, r"colour='\(an unknown field\)' .*the fields of")


@row("L07")
def test_l07_schema_version() -> None:
    for version, shown in ((2, "2"), ("1", "'1'"), (None, "None"), (True, "True")):
        data = _data(BB.example(1))
        data["schema_version"] = version
        _refused(_load_bb, data, rf"\$\.schema_version={shown} .*1 \(the saved-state format")
    data = _data(BB.example(1))
    del data["schema_version"]
    _refused(_load_bb, data, r"\$\.schema_version='\(missing\)'")


@row("L08")
def test_l08_required_field_missing() -> None:
    data = _data(WA.example(1))
    del data["units"][2]["troop"]
    _refused(_load_wa, data, r"\$\.units\[2\]\.troop='\(missing\)'")


@row("L09")
def test_l09_validator_errors_give_the_path() -> None:
    data = _data(BB.example(1))
    data["units"][1]["quality"] = 9
    with pytest.raises(LoadError) as caught:
        _load_bb(data)
    assert str(caught.value) == "$.units[1].quality=9 is invalid: allowed is 1 to 5"
    assert "While structuring" not in str(caught.value)


@row("L10")
def test_l10_commander_attached_to_a_missing_unit() -> None:
    state = BB.example(1)
    data = _data(state)
    data["commanders"][0]["attached_to"] = "b1"
    assert _load_bb(data).commanders[0].attached_to == "b1"
    data["commanders"][0]["attached_to"] = "zz"
    _refused(_load_bb, data, r"\$\.commanders\[0\]\.attached_to='zz' .*the id of one of the "
             r"units \(a1, a2")


@row("L11")
def test_l11_will_awi_commanders_and_superiors_exist() -> None:
    data = _data(WA.example(1))
    data["units"][0]["commander"] = "zz"
    _refused(_load_wa, data, r"\$\.units\[0\]\.commander='zz' .*commanders \(bg, rg\), or ''")
    data = _data(WA.example(1))
    data["commanders"][0]["superior"] = "zz"
    _refused(_load_wa, data, r"\$\.commanders\[0\]\.superior='zz'")
    data = _data(WA.example(1))
    data["commanders"][1]["attached_to"] = "zz"
    _refused(_load_wa, data, r"\$\.commanders\[1\]\.attached_to='zz'")


@row("L12")
def test_l12_led_units_exist() -> None:
    state = BB.example(1)
    deferred = json.loads(json.dumps({
        "chargers": ["b1"], "defenders": ["a1"],
        "facts": {"contact": "front", "led": ["b1", "q9"]},
    }))
    data = _data(state)
    data["extra"]["deferred"] = [deferred]
    _refused(_load_bb, data, r"\$\.extra\.deferred\[0\]\.facts\.led\[1\]='q9'")
    deferred["facts"]["led"] = ["b1"]
    assert _load_bb(data).extra.deferred[0].facts.led == frozenset({"b1"})


@row("L13")
def test_l13_extra_names_exist() -> None:
    data = _data(BB.example(1))
    data["extra"]["active"] = ["nobody"]
    _refused(_load_bb, data, r"\$\.extra\.active\[0\]='nobody'")
    data = _data(WA.example(1))
    data["extra"]["moving"] = "France"
    _refused(_load_wa, data, r"\$\.extra\.moving='France'")


@row("L14")
def test_l14_unknown_phase() -> None:
    data = _data(WA.example(1))
    data["phase"] = "bogus"
    names = [p.name for p in WA.phases]
    with pytest.raises(LoadError, match=r"\$\.phase='bogus' .*one of 'A', 'B'"):
        BattleState.from_json(json.dumps(data), *WA.turn.types, phases=names)  # type: ignore[union-attr]


def test_l14_engine_load_checks_the_phase() -> None:
    data = _data(WA.example(1))
    data["phase"] = "bogus"
    _refused(_load_wa, data, r"\$\.phase='bogus'")


@row("L15")
def test_l15_another_rulesets_state() -> None:
    text = WA.example(1).to_json()
    with pytest.raises(LoadError):  # the classes differ: refused field by field
        BB.turn.load(text)  # type: ignore[union-attr]
    with pytest.raises(LoadError, match=r"\$\.ruleset='will_awi' .*'bloodybacks93'"):
        BattleState.from_json(text, *WA.turn.types, ruleset="bloodybacks93")  # type: ignore[union-attr]


@row("L16")
def test_l16_sides_ids_and_sides_of_units() -> None:
    data = _data(WA.example(1))
    data["sides"] = ["British", "British"]
    _refused(_load_wa, data, r"\$\.sides=.*distinct")
    data = _data(WA.example(1))
    data["units"][1]["id"] = data["units"][0]["id"]
    _refused(_load_wa, data, r"\$\.units\[1\]\.id='r1' .*no other")
    data = _data(WA.example(1))
    data["units"][1]["side"] = "French"
    _refused(_load_wa, data, r"\$\.units\[1\]\.side='French' .*'British', 'American'")


@row("L17")
def test_l17_nan_and_infinity_in_text() -> None:
    text = BB.example(1).to_json()
    assert '"turn": 1' in text
    for bad in ("NaN", "Infinity", "-Infinity", "1e999"):
        with pytest.raises(LoadError, match="finite"):
            BB.turn.load(text.replace('"turn": 1', f'"turn": {bad}'))  # type: ignore[union-attr]


@row("L18")
def test_l18_duplicate_keys() -> None:
    text = BB.example(1).to_json()
    with pytest.raises(LoadError, match="'turn' .*each key once"):
        BB.turn.load(text.replace('"turn": 1', '"turn": 1, "turn": 2'))  # type: ignore[union-attr]


@row("L19")
def test_l19_size_and_nesting_are_bounded_and_fast() -> None:
    started = time.perf_counter()
    for text, message in (
        ("[" * 100_000 + "]" * 100_000, "levels"),
        ("[" * 40 + "]" * 40, "levels"),
        ("1" * 5_000, "numbers Python reads"),
        (" " * 8_000_001, "8,000,000"),
    ):
        with pytest.raises(LoadError, match=message):
            BB.turn.load(text)  # type: ignore[union-attr]
    assert time.perf_counter() - started < HANG_GUARD


@row("L20")
def test_l20_not_text() -> None:
    for value, shown in ((None, "NoneType"), (3, "int"), (b"\xff\xfe", "byte 0")):
        with pytest.raises(LoadError, match=f"state='{shown}'"):
            BB.turn.load(value)  # type: ignore[union-attr, arg-type]


@row("L21")
def test_l21_not_json() -> None:
    with pytest.raises(LoadError, match=r"state='line 1 column 2' .*valid JSON"):
        BB.turn.load("{turn: 1}")  # type: ignore[union-attr]
    with pytest.raises(LoadError, match=r"\$='an array' .*an object"):
        BB.turn.load("[]")  # type: ignore[union-attr]


# --- writing ------------------------------------------------------------------------------
@row("J01")
def test_j01_sets_are_written_sorted() -> None:
    state = _bb_state()
    state = state.with_extra(attempted=frozenset({"b3", "a1", "b1", "a2", "b2"}))
    data = _data(state)
    assert data["extra"]["attempted"] == ["a1", "a2", "b1", "b2", "b3"]
    assert BB.turn.load(state.to_json()).to_json() == state.to_json()  # type: ignore[union-attr]


@row("J02")
def test_j02_nan_is_never_written() -> None:
    @attrs.frozen
    class Loose:
        reach: float = NAN

    state = attrs.evolve(BB.example(1), options=Loose())
    with pytest.raises(InvalidValueError, match="JSON has no NaN"):
        state.to_json()


# --- values -------------------------------------------------------------------------------
def _refuses(make: Callable[[], Any], pattern: str) -> None:
    with pytest.raises(InvalidValueError, match=pattern):
        make()


@row("V01")
def test_v01_declared_charge_distance() -> None:
    for bad in (NAN, INF, -1.0, 1e6):
        _refuses(lambda bad=bad: wa.DeclareCharge("r1", "b1", bad), r"DeclareCharge\.distance")
    assert wa.DeclareCharge("r1", "b1", 7).distance == 7


@row("V02")
def test_v02_will_awi_distances() -> None:
    _refuses(lambda: wa.MoveGeneral("rg", NAN), r"MoveGeneral\.inches=nan")
    _refuses(lambda: Leg(INF), r"Leg\.inches=inf")
    _refuses(lambda: wa.ChangeFormation("r1", -1.0), r"ChangeFormation\.base_distance=-1")
    _refuses(lambda: wa.ChangeFacing("r1", 90, (("b1", NAN),)), r"enemies_in_front=nan")


@row("V03")
def test_v03_will_awi_fire_angles() -> None:
    _refuses(lambda: FireFacts(6, angle=NAN), r"FireFacts\.angle=nan .*-180 to 180")
    _refuses(lambda: FireFacts(INF), r"FireFacts\.range_inches=inf")
    _refuses(lambda: FireFacts(6, clear_of_firer=-2), r"FireFacts\.clear_of_firer")
    _refuses(lambda: wa.ChangeFacing("r1", NAN), r"ChangeFacing\.degrees=nan")
    _refuses(lambda: MovePlan(facing_change=NAN), r"MovePlan\.facing_change=nan")
    _refuses(lambda: MovePlan(nearest_enemy=-1), r"MovePlan\.nearest_enemy=-1")


@row("V04")
def test_v04_bloodybacks_charge_numbers() -> None:
    _refuses(lambda: bb.Charge(("b1",), ("a1",), distance=NAN), r"Charge\.distance=nan")
    _refuses(lambda: bb.Charge(("b1",), ("a1",), charger_spare_move=INF),
             r"Charge\.charger_spare_move=inf")
    assert bb.Charge(("b1",), ("a1",), distance=6).distance == 6


@row("V05")
def test_v05_bloodybacks_shot_range() -> None:
    _refuses(lambda: bb.Shoot("b1", "a1", ShotFacts(range=NAN)), r"ShotFacts\.range=nan")
    _refuses(lambda: ShotFacts(woods_inches=-1), r"ShotFacts\.woods_inches")
    _refuses(lambda: ShotFacts(extra_orders=-1), r"ShotFacts\.extra_orders")


@row("V06")
def test_v06_choices_are_members() -> None:
    _refuses(lambda: bb.SpendCommandPoint("cb", "x"), r"SpendCommandPoint\.use='x' .*one of")  # type: ignore[arg-type]
    _refuses(lambda: bb.Manoeuvre("b1", "x"), r"Manoeuvre\.kind='x'")  # type: ignore[arg-type]
    _refuses(lambda: MoveFacts("x"), r"MoveFacts\.terrain='x'")  # type: ignore[arg-type]
    assert bb.SpendCommandPoint("cb", next(iter(CommandPointUse))).commander_id == "cb"


@row("V07")
def test_v07_a_string_is_not_a_tuple_of_ids() -> None:
    _refuses(lambda: bb.Charge("b1", ("a1",)), r"unit ids='b1'")  # type: ignore[arg-type]
    assert bb.Charge(["b1", "b3", "b2"], ["a1"]).unit_ids == ("b1", "b2", "b3")  # type: ignore[arg-type]


@row("V08")
def test_v08_ids_and_troops() -> None:
    _refuses(lambda: BBUnit(None, "x", "british"), r"Unit\.id=None")  # type: ignore[arg-type]
    _refuses(lambda: BBUnit("", "x", "british"), r"Unit\.id=''")
    _refuses(lambda: WAUnit("r1", "x", "British", "x"), r"Unit\.troop='x'")  # type: ignore[arg-type]
    assert WAUnit("r1", "x", "British", TroopType.LINE).id == "r1"


@row("V09")
def test_v09_constitution() -> None:
    _refuses(lambda: BBCommander("c", "x", "british", constitution=-5),
             r"constitution=-5 .*not removed")
    _refuses(lambda: BBCommander("c", "x", "british", constitution=-12, removed=True),
             r"constitution=-12")
    assert BBCommander("c", "x", "british", constitution=-11, removed=True).removed


@row("V10")
def test_v10_lists_become_tuples() -> None:
    state = BB.example(1)
    listed = attrs.evolve(state, units=list(state.units), commanders=list(state.commanders))
    assert isinstance(listed.units, tuple) and listed == state and hash(listed) == hash(state)
    _refuses(lambda: attrs.evolve(state, units="u1"), r"BattleState='str'")


@row("V11")
def test_v11_sides() -> None:
    state = WA.example(1)
    _refuses(lambda: attrs.evolve(state, sides=("a", "a")), r"BattleState\.sides")
    _refuses(lambda: attrs.evolve(state, sides=()), r"BattleState\.sides")


@row("V12")
def test_v12_ruleset_names() -> None:
    for name in (None, "", "  ", 3):
        _refuses(lambda name=name: get_ruleset(name), r"ruleset=.*a ruleset name")  # type: ignore[arg-type]
    _refuses(lambda: get_ruleset("nowhere"), r"ruleset='nowhere' .*bloodybacks93")


# --- dice ---------------------------------------------------------------------------------
@row("D01")
def test_d01_malformed_dice() -> None:
    for text in ("2d6++1", "2d6+-1", "2d6-", "-d6", "+3", "d6+²", "d6²", "2 d 6 x", "d", "2d"):
        _refuses(lambda text=text: parse_dice(text), "dice=")
    assert parse_dice("2d6 + 1")[1] == 1


@row("D02")
def test_d02_zero_count() -> None:
    _refuses(lambda: parse_dice("0d6+2d6"), "a count of 1 or more")
    _refuses(lambda: parse_dice("d0"), "1 to 1000 sides")


@row("D03")
def test_d03_bounded_sides_counts_and_modifier() -> None:
    started = time.perf_counter()
    for text in ("d100000000", "99999999999999999999d6", "2000d12", "60d6+50d6", "d6+99999"):
        _refuses(lambda text=text: parse_dice(text), "at most")
    assert time.perf_counter() - started < HANG_GUARD
    assert len(parse_dice("100d6")[0]) == 100 and parse_dice("d1000")[0][0].sides == 1000


# --- chance (issue 11's modules) ----------------------------------------------------------


@row("K01")
def test_k01_max_branches_must_be_an_int() -> None:
    _refuses(lambda: odds(lambda *, dice: 1, max_branches="10"), "max_branches='10'")  # type: ignore[arg-type]


@attrs.frozen
class _Greedy(Check[int]):
    """A custom check asking the dice for a choice among ``n``."""

    n: int

    def draw(self, pick: Callable[[int], int]) -> tuple[int, tuple[int, ...]]:
        face = pick(self.n)
        return face, (face,)

    def describe(self) -> str:
        return f"pick among {self.n}"


@row("K02")
def test_k02_pick_is_bounded() -> None:
    for n in (0, 2**32 + 1, -1):
        _refuses(lambda n=n: SamplingDice.keyed(1, 0).roll(_Greedy(n), reason="r", rule="q"),
                 r"pick=")
    assert 0 <= SamplingDice.keyed(1, 0).roll(_Greedy(2**32), reason="r", rule="q") < 2**32


@row("K03")
def test_k03_mean_of_a_non_number() -> None:
    _refuses(lambda: Distribution.certain("x").mean(), "x")
    assert Distribution.certain(3).mean() == 3


@row("K04")
def test_k04_checks_refuse_text_for_dice_and_targets() -> None:
    _refuses(lambda: PoolCheck(2, 7, die="d6"), "die")  # type: ignore[arg-type]
    _refuses(lambda: ThresholdCheck((D6,), target="7"), "target")  # type: ignore[arg-type]


@row("K05")
def test_k05_huge_melee_is_refused_at_once() -> None:
    melee = BB.mechanism("melee")
    started = time.perf_counter()
    # refused by the parameter's bound (7 melee dice, B65) before any enumeration; past
    # the bound, the enumeration limit still stops at once
    with pytest.raises(InvalidValueError, match="count"):
        odds(melee.function, **melee.arguments({"count": "100000"}))
    with pytest.raises(EnumerationLimitError):
        odds(melee.function.function, count=100000)
    assert time.perf_counter() - started < HANG_GUARD


# --- command line -------------------------------------------------------------------------
def _cli(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 2) -> str:
    assert main(list(argv)) == status
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@row("C01")
def test_c01_superscript_dice(capsys: pytest.CaptureFixture[str]) -> None:
    err = _cli(capsys, "odds", "dice", "total", "roll=d6+²")
    assert err.startswith("smoothbore: error: roll='d6+²' is invalid")


@row("C02")
def test_c02_huge_dice_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    for roll in ("d100000000", "99999999999999999999d6"):
        assert f"roll='{roll}'" in _cli(capsys, "odds", "dice", "total", f"roll={roll}")
    assert time.perf_counter() - started < HANG_GUARD


@row("C03")
def test_c03_too_many_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert "at most 100 dice" in _cli(capsys, "odds", "dice", "total", "roll=2000d12")


@row("C04")
def test_c04_huge_melee_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    _cli(capsys, "odds", "bloodybacks93", "melee", "count=100000")
    assert time.perf_counter() - started < HANG_GUARD


@row("C05")
def test_c05_negative_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert "count=-3 is invalid" in _cli(capsys, "odds", "bloodybacks93", "melee", "count=-3")


@row("C06")
@pytest.mark.parametrize(
    ("ruleset", "mechanism", "parameter"),
    [("bloodybacks93", "evade", "spare_move"), ("bloodybacks93", "commander-risk", "constitution"),
     ("will_awi", "demolition", "points"), ("will_awi", "command-roll", "distance"),
     ("bloodybacks93", "stand", "impetus")],
)
def test_c06_huge_negative_parameters(capsys: pytest.CaptureFixture[str], ruleset: str,
                                      mechanism: str, parameter: str) -> None:
    err = _cli(capsys, "odds", ruleset, mechanism, f"{parameter}=-1000000000")
    assert f"{parameter}=-1000000000 is invalid" in err


@row("C07")
@pytest.mark.parametrize(
    ("argv", "typed"),
    [(("will_awi", "fire", "range=-3"), "range="), (("dice", "pool", "sides=-5"), "sides=-5"),
     (("will_awi", "fire", "firer_strength=9"), "firer_strength="),
     (("bloodybacks93", "charge", "charger_size=0"), "charger_size=")],
)
def test_c07_errors_name_the_parameter_typed(capsys: pytest.CaptureFixture[str],
                                             argv: tuple[str, ...], typed: str) -> None:
    err = _cli(capsys, "odds", *argv)
    assert err.startswith(f"smoothbore: error: {typed}"), err
    for internal in ("range_inches", "dice=", "strength=", "Unit.size"):
        assert internal not in err.replace(typed, "")


@row("C08")
@pytest.mark.parametrize(
    ("argv", "option"),
    [(("odds", "dice", "total", "--samples", "5", "--seed", "-1"), "--seed=-1"),
     (("odds", "dice", "total", "--samples", "-1"), "--samples=-1"),
     (("odds", "dice", "total", "--samples", "10000000000"), "--samples=10000000000"),
     (("simulate", "tests.toy_ruleset:RULESET", "--runs", "0"), "--runs=0"),
     (("simulate", "tests.toy_ruleset:RULESET", "--jobs", "10000"), "--jobs=10000"),
     (("battle", "tests.toy_ruleset:RULESET", "--turns", "0"), "--turns=0")],
)
def test_c08_options_out_of_range(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                  option: str) -> None:
    assert f"smoothbore: error: {option} is invalid" in _cli(capsys, *argv)


@row("C09")
def test_c09_argparse_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--seed: invalid int value: 'x'" in _cli(capsys, "battle", "--seed", "x")
    assert "invalid choice" in _cli(capsys, "cannonade")
    assert "unrecognized arguments: --fast" in _cli(capsys, "rulesets", "--fast")


@row("C10")
def test_c10_a_bug_is_still_one_line(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero\nsecond line")

    monkeypatch.setattr("smoothbore.cli.odds", broken)
    err = _cli(capsys, "odds", "dice", "total", "roll=d6")
    assert err == ("smoothbore: error: internal error, please report it: ZeroDivisionError: "
                   "division by zero second line\n")
    monkeypatch.setattr("smoothbore.cli.odds", lambda *a, **k: (_ for _ in ()).throw(
        MemoryError()))
    assert "out of memory" in _cli(capsys, "odds", "dice", "total", "roll=d6")


@row("C11")
def test_c11_ctrl_c(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("smoothbore.cli.play", interrupted)
    assert _cli(capsys, "battle", "tests.toy_ruleset:RULESET", status=130) == (
        "smoothbore: interrupted\n")


@row("C12")
def test_c12_replay_of_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    assert f"FILE='{missing}' is invalid" in _cli(capsys, "replay", str(missing))
    bad = tmp_path / "bad.json"
    bad.write_text('{"record_version": 1, "ruleset": "will_awi", "start": 3, "steps": []}')
    assert "$.start='int'" in _cli(capsys, "replay", str(bad)) or "$.start=3" in _cli(
        capsys, "replay", str(bad))
    bad.write_text("[1, 2")
    assert "record='line 1 column 6'" in _cli(capsys, "replay", str(bad))


# --- records and replay -------------------------------------------------------------------
def _record() -> BattleRecord:
    played = play(WA.turn, WA.example(2), random_policy(2))  # type: ignore[arg-type]
    return BattleRecord.of("will_awi", played)


@row("R01")
def test_r01_a_forbidden_action_names_its_step() -> None:
    record = _record()
    index = next(i for i, a in enumerate(record.actions) if isinstance(a, wa.Fire))
    changed = list(record.actions)
    changed[index] = attrs.evolve(changed[index], facts=FireFacts(400))
    with pytest.raises(IllegalActionError, match=rf"at step {index + 1} \(turn \d+, E\)"):
        replay(WA.turn, record.start, changed)  # type: ignore[arg-type]


@row("R02")
def test_r02_a_different_legal_action_is_caught_by_the_events() -> None:
    record = _record()
    turn: Any = WA.turn
    state = record.start
    index, others = 0, []
    for action in record.actions:
        mine = turn.step(state, action)[1]
        others = [a for a in turn.legal_actions(state)
                  if a != action and turn.step(state, a)[1] != mine]
        if others:
            break
        state = turn.step(state, action)[0]
        index += 1
    changed = list(record.actions)
    changed[index] = others[0]
    with pytest.raises(ReplayMismatchError, match=rf"replay differs at step {index + 1} ") as c:
        replay(turn, record.start, changed, record.events)
    assert c.value.step == index + 1
    silent = attrs.evolve(record, actions=tuple(changed), events=None)
    with pytest.raises(SmoothboreError):  # without events a changed record may yet fail later
        silent.replay(turn)
        raise ReplayMismatchError(0, "", "", "")  # or play a different battle in silence
    assert record.replay(turn).actions() == record.actions


@row("R03")
def test_r03_malformed_records() -> None:
    record = _record()
    data = json.loads(record.to_json())
    assert BattleRecord.from_json(json.dumps(data), WA.turn) == record
    unit_step = next(i for i, a in enumerate(record.actions) if hasattr(a, "unit"))
    for change, pattern in (
        (lambda d: d.update(extra=1), r"\$\.extra='\(an unknown field\)'"),
        (lambda d: d["steps"][0]["action"].update(type="Cannonade"),
         r"\$\.steps\[0\]\.action\.type='Cannonade' .*EndPhase"),
        (lambda d: d["steps"][unit_step]["action"]["fields"].update(unit=7),
         rf"\$\.steps\[{unit_step}\]\.action\.fields\.unit=7"),
        (lambda d: d["steps"][0].pop("events"), r"\$\.steps=.*every step or on none"),
        (lambda d: d["start"]["units"][0].update(strength="5"),
         r"\$\.start\.units\[0\]\.strength='5'"),
        (lambda d: d.update(steps={}), r"\$\.steps='dict'"),
    ):
        broken = json.loads(json.dumps(data))
        change(broken)
        with pytest.raises(LoadError, match=pattern):
            BattleRecord.from_json(json.dumps(broken), WA.turn)


@row("R04")
def test_r04_other_rulesets_and_versions() -> None:
    data = json.loads(_record().to_json())
    with pytest.raises(LoadError, match=r"\$\.ruleset='will_awi' .*'bloodybacks93'"):
        BattleRecord.from_json(json.dumps(data), BB.turn)
    data["record_version"] = 9
    with pytest.raises(LoadError, match=r"\$\.record_version=9"):
        BattleRecord.from_json(json.dumps(data), WA.turn)
    with pytest.raises(InvalidValueError, match="ruleset='will_awi'"):
        _record().replay(BB.turn)


@row("R05")
def test_r05_expected_events_of_the_wrong_length() -> None:
    record = _record()
    assert record.events is not None
    with pytest.raises(InvalidValueError, match=r"expected=.*one list of events per action"):
        replay(WA.turn, record.start, record.actions, record.events[:-1])  # type: ignore[arg-type]


# --- issue 28: a record never runs code, a replay never lies -------------------------------
def _run_cli(*argv: str, cwd: Path, env: dict[str, str] | None = None,
             timeout: float = HANG_GUARD) -> Any:
    """The command line in a real process (``python -m smoothbore``), bounded in time."""
    import os
    import subprocess
    import sys

    environment = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "smoothbore", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env=environment,
                          check=False)


@row("S01")
@pytest.mark.parametrize("name", ["os:abort", "signal:pause", "builtins:breakpoint",
                                  "evil:RULESET"])
def test_s01_a_record_never_chooses_code_to_import(tmp_path: Path, name: str) -> None:
    """A record's ``ruleset`` naming ``module:ATTRIBUTE`` (issue 28) is refused with a
    ``LoadError`` naming ``$.ruleset``: it was imported and called (``os:abort`` aborted,
    ``signal:pause`` hung, and ``evil.py`` beside the record ran under ``python -m``)."""
    (tmp_path / "evil.py").write_text(
        "import pathlib\npathlib.Path('ran').write_text('x')\nRULESET = None\n")
    data = json.loads(_record().to_json())
    data["ruleset"] = name
    (tmp_path / "record.json").write_text(json.dumps(data))
    done = _run_cli("replay", "record.json", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"smoothbore: error: $.ruleset='{name}' is invalid")
    assert "registered ruleset" in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "ran").exists()


def test_s01_the_user_may_still_name_a_ruleset_on_the_command_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "toy.json"
    assert main(["battle", "tests.toy_ruleset:RULESET", "--quiet", "--record",
                 str(record)]) == 0
    assert main(["replay", str(record), "--quiet", "--ruleset",
                 "tests.toy_ruleset:RULESET"]) == 0
    assert "match their digests" in capsys.readouterr().out
    assert "$.ruleset='toy'" in _cli(capsys, "replay", str(record))  # not registered


@row("R06")
def test_r06_a_changed_start_state_is_refused_by_its_digest() -> None:
    """Issue 28: a start strength changed in a record replayed to a different end, "every
    step gave the events recorded"; the start state's digest now refuses it."""
    data = json.loads(_record().to_json())
    data["start"]["units"][0]["strength"] -= 1
    record = BattleRecord.from_json(json.dumps(data), WA.turn)
    with pytest.raises(ReplayMismatchError, match=r"at step 0 \(the start state.*digest"):
        record.replay(WA.turn)


@row("R07")
def test_r07_an_action_value_nudged_by_1e_9_is_refused_at_its_step() -> None:
    """Issue 28: a continuous action value nudged by 1e-9 replayed in silence; the step's
    digest (of its action and resulting state) now names the step."""
    record = _record()
    data = json.loads(record.to_json())
    index = next(i for i, step in enumerate(data["steps"])
                 if step["action"]["type"] == "Move" and step["action"]["fields"].get("to")
                 and step["action"]["fields"]["to"][2] not in (0.0, 180.0))
    data["steps"][index]["action"]["fields"]["to"][2] += 1e-9  # the facing, in degrees
    changed = BattleRecord.from_json(json.dumps(data), WA.turn)
    assert changed.actions[index] != record.actions[index]
    with pytest.raises(ReplayMismatchError, match=rf"at step {index + 1} \(.*digest") as c:
        changed.replay(WA.turn)
    assert c.value.step == index + 1


@row("R08")
def test_r08_a_version_1_record_without_digests_replays_with_a_warning(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """docs/cli.md, "Records without digests": an old record (version 1, no digests) is read and
    replayed, its events checked, with a warning that its states are not."""
    data = json.loads(_record().to_json())
    assert data["record_version"] == 2 and data["start_digest"].startswith("sha256:")
    data["record_version"] = 1
    del data["start_digest"]
    for step in data["steps"]:
        del step["digest"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("smoothbore: warning: a version 1 record has no state")
    assert "no state digests" in captured.out
    data["record_version"] = 2  # a version 2 record must have them
    path.write_text(json.dumps(data))
    assert "$.start_digest='(missing)'" in _cli(capsys, "replay", str(path))


@row("R09")
def test_r09_a_lone_surrogate_in_a_record_is_refused_where_it_is_loaded() -> None:
    """Issue 28: a lone surrogate in a name loaded, then narration failed."""
    data = json.loads(_record().to_json())
    data["start"]["units"][0]["name"] = "Bad \ud800 name"
    with pytest.raises(LoadError, match=r"\$\.start\.units\.0\.name|\$\.start\.units"):
        BattleRecord.from_json(json.dumps(data), WA.turn)


@row("C13")
def test_c13_a_record_of_8mb_in_utf8_but_fewer_characters_replays(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 28: ``replay`` read 8,000,001 bytes against a limit of 8,000,000 characters,
    cutting a valid record of many-byte characters mid-string ("bad JSON")."""
    from tests import toy_ruleset

    ruleset = toy_ruleset.RULESET
    start: Any = ruleset.example(1)
    long_name = "\u20ac" * 2_700_000  # 3 bytes each: 8.1 MB, 2.7 million characters
    start = attrs.evolve(start, commanders=(
        *start.commanders, toy_ruleset.Captain("x", long_name, toy_ruleset.RED)))
    played = play(ruleset.turn, start, random_policy(1), max_steps=3)  # type: ignore[arg-type]
    text = BattleRecord.of("toy", played, turn=ruleset.turn).to_json()
    path = tmp_path / "big.json"
    path.write_text(text, "utf-8")
    assert path.stat().st_size > 8_000_001 and len(text) < 8_000_000
    assert main(["replay", str(path), "--quiet", "--ruleset",
                 "tests.toy_ruleset:RULESET"]) == 0, capsys.readouterr().err


@row("C14")
def test_c14_a_terminal_that_cannot_show_bars_and_degrees_gets_plain_characters(
        tmp_path: Path) -> None:
    """Issue 28: under ``PYTHONIOENCODING=ascii`` plain ``smoothbore odds`` failed on its
    own bar (an internal error); errors and narration (degrees, arrows) too."""
    ascii_only = {"PYTHONIOENCODING": "ascii"}
    done = _run_cli("odds", cwd=tmp_path, env=ascii_only)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "######" in done.stdout and done.stdout.isascii()
    done = _run_cli("battle", "will_awi", "--seed", "3", "--actions", cwd=tmp_path,
                    env=ascii_only)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert " deg" in done.stdout and "->" in done.stdout
    done = _run_cli("odds", "dice", "total", "roll=d6+\u00b2", cwd=tmp_path, env=ascii_only)
    assert done.returncode == 2
    assert done.stderr == ("smoothbore: error: roll='d6+\\xb2' is invalid: allowed is an "
                           "expression such as 2d6+1, d12, 2dAv or d10-2\n")


@row("K06")
@pytest.mark.parametrize("size", [-1, 10**10, 2.5, "10"])
def test_k06_sample_sizes_out_of_bounds(size: Any) -> None:
    """Issue 28: ``check.sample(rng, -1)`` was numpy's ValueError, ``10**10`` a MemoryError
    (75 GiB asked for); the bound is ``MAX_SAMPLE_SIZE``, refused at once."""
    import numpy as np

    from smoothbore.core.checks import MAX_SAMPLE_SIZE, TotalCheck

    rng = np.random.default_rng(1)
    for check in (TotalCheck.of(2, D6), PoolCheck(6, 7)):
        started = time.perf_counter()
        with pytest.raises(InvalidValueError, match=r"^size=.* an integer from 0 to 10,000,000"):
            check.sample(rng, size)
        assert time.perf_counter() - started < 1.0
        assert len(check.sample(rng, 3)) == 3 and MAX_SAMPLE_SIZE == 10_000_000


@row("K07")
def test_k07_odds_of_something_not_callable() -> None:
    """Issue 28: ``odds(5)`` was a TypeError from deep inside the walk."""
    from smoothbore.core.chance import monte_carlo

    with pytest.raises(InvalidValueError, match=r"^function=5 .*a rule function"):
        odds(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"^function=5 "):
        monte_carlo(5, samples=3)  # type: ignore[arg-type]


@row("K08")
def test_k08_a_total_check_with_a_fractional_modifier() -> None:
    """Issue 28: ``TotalCheck.of(2, D6, modifier=1.5)`` was accepted (dice totals, and every
    rule's modifiers, are whole numbers)."""
    from smoothbore.core.checks import Band, TableCheck, TotalCheck

    with pytest.raises(InvalidValueError, match=r"TotalCheck\.modifier=1\.5 .*an integer"):
        TotalCheck.of(2, D6, modifier=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"TableCheck\.modifier=True"):
        TableCheck((D6,), (Band("any", None, None),), modifier=True)
    assert TotalCheck.of(2, D6, modifier=-1).distribution().mean() == 6


@row("K09")
def test_k09_drawing_no_table() -> None:
    """Issue 28: ``table.draw(None)`` was an AttributeError."""
    from smoothbore.table import draw

    with pytest.raises(InvalidValueError, match=r"^table='NoneType' .*a Table"):
        draw(None)  # type: ignore[arg-type]


# --- signals and failing workers (the full tests are in test_cli.py and test_simulate.py) --
@row("W01")
def test_w01_ctrl_c_on_simulate_jobs_stops_at_once_workers_included() -> None:
    from tests.test_cli import test_simulate_jobs_stops_within_a_second_workers_included as t

    t(("SIGINT", "SIGINT"), True, 130, "smoothbore: interrupted\n")


@row("W02")
def test_w02_sigterm_to_the_parent_stops_it_and_its_workers() -> None:
    from tests.test_cli import test_simulate_jobs_stops_within_a_second_workers_included as t

    t(("SIGTERM",), False, 143, "smoothbore: terminated\n")


@row("W03")
def test_w03_workers_exit_when_their_parent_is_killed() -> None:
    from tests.test_cli import test_simulate_workers_exit_when_their_parent_is_killed as t

    t()


@row("W04")
def test_w04_a_killed_worker_loses_no_run(tmp_path: Path) -> None:
    from tests.test_simulate import (
        test_a_batch_lost_with_a_killed_worker_is_played_again as again,
    )
    from tests.test_simulate import (
        test_runs_lost_more_often_than_retried_are_named_and_the_rest_kept as named,
    )

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    again(tmp_path / "a")
    named(tmp_path / "b")


@row("W05")
def test_w05_a_dask_worker_killed_again_and_again_loses_no_run(tmp_path: Path) -> None:
    from tests.test_simulate import (
        test_dask_a_batch_lost_with_a_killed_worker_is_played_again as again,
    )
    from tests.test_simulate import (
        test_dask_runs_lost_more_often_than_retried_are_named_and_the_rest_kept as named,
    )

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    again(tmp_path / "a")
    named(tmp_path / "b")


# --- loaded states and values, core and table (the full tests beside their modules) -------
@row("L22")
def test_l22_a_lone_surrogate_in_a_state_is_refused_by_its_path() -> None:
    from tests.core.test_state import (
        test_lone_surrogate_in_a_loaded_state_is_refused_with_its_path as t,
    )

    t("name")
    t("key")


@row("L23")
def test_l23_core_state_numbers_are_bounded() -> None:
    from tests.core.test_state import test_core_state_fields_are_bounded as t

    t("turn", 10**20, r"\$\.turn=100000000000000000000.*1 to 10000")
    t("seed", 2**128, r"\$\.dice\.seed=")
    t("counter", 10**18, r"\$\.dice\.counter=")
    t("turn_limit", 10**20, r"\$\.scenario\.turn_limit=")


@row("L24")
def test_l24_terrain_points_and_widths_are_bounded() -> None:
    from tests.table.test_terrain import (
        test_a_loaded_river_of_width_1e308_is_refused_by_its_path as t,
    )

    t("will_awi")


@row("J03")
def test_j03_a_state_writes_one_text_however_its_floats_were_made() -> None:
    from tests.core.test_state import (
        test_to_json_is_canonical_whatever_the_float_was_made_of as t,
    )

    t()


# --- whole battles and fields, per book (the full tests beside each book's modules) -------
@row("L25")
def test_l25_bloodybacks_loaded_battle_is_checked_whole() -> None:
    from tests.bloodybacks93 import test_loaded_states as t

    t.test_a_third_side_is_refused_sequence_of_play_red_and_black()
    t.test_every_fault_is_named_not_only_the_first()
    t.test_new_battle_refuses_units_stacked_on_each_other_b54()
    t.test_new_battle_refuses_a_unit_in_impassable_ground_b55()


@row("L26")
def test_l26_will_awi_loaded_battle_is_checked_whole() -> None:
    from tests.will_awi import test_loaded_states as t

    t.test_a_loaded_third_side_is_refused_rules_introduction()
    t.test_a_loaded_battle_names_every_fault_at_once()
    t.test_new_battle_refuses_units_stacked_on_each_other()
    t.test_new_battle_refuses_a_unit_inside_ground_it_may_not_enter()


@row("L27")
def test_l27_boltaction_loaded_battle_is_checked_whole() -> None:
    from tests.boltaction_acw import test_loaded_states as t

    for _label, on_table, change, path in t.FAULTS:
        t.test_a_loaded_state_with_a_fault_is_refused_naming_it(on_table, change, path)
    t.test_every_fault_of_a_loaded_state_is_named()
    t.test_new_battle_refuses_units_stacked_or_on_impassable_ground()
    t.test_pins_stop_at_their_bound()


@row("L28")
def test_l28_mckie_loaded_battle_is_checked_whole() -> None:
    from tests.mckie_acw import test_loaded_states as t

    for _label, change, path in t._NAMES:
        t._refused(lambda d, change=change: change(d, "nobody"), path)  # type: ignore[misc]
    t._refused(lambda d: d.update(commanders=[]), "$.commanders")
    t.test_new_battle_refuses_units_stacked_or_in_impassable_ground()


@row("V13")
def test_v13_book_fields_refuse_values_of_the_wrong_kind() -> None:
    from tests.bloodybacks93 import test_loaded_states as bb_states
    from tests.boltaction_acw import test_action_fields as ba_fields
    from tests.mckie_acw import test_action_fields as mk_fields
    from tests.will_awi import test_loaded_states as wa_states

    bb_states.test_facts_of_the_wrong_kind_are_refused_where_the_action_is_made()
    with pytest.raises(InvalidValueError, match="outside_radius"):
        bb.Activate("a1", None, outside_radius="no")  # type: ignore[arg-type]
    wa_states.test_passing_through_is_bounded_by_the_move()
    for kind, good, field, bad in ba_fields.CASES:
        ba_fields.test_a_bad_field_is_refused_where_it_is_made(kind, good, field, bad)
    mk_fields.test_a_value_of_the_wrong_kind_is_refused_naming_the_field()


@row("K10")
def test_k10_the_default_charge_odds_answer_at_once() -> None:
    from tests.boltaction_acw.test_mechanisms import (
        test_the_default_charge_odds_answer_within_a_second as t,
    )

    t()


@row("T01")
def test_t01_a_unit_lost_through_with_units_leaves_the_table() -> None:
    from tests.table import test_seam as t

    t.test_the_engine_hook_keeps_the_table_whatever_the_handler_called()
    t.test_a_lost_unit_leaves_and_its_commander_rides_alone_where_it_stood()


@row("T02")
def test_t02_table_rules_and_stores_refuse_bad_values() -> None:
    from tests.table import test_seam as t

    t.test_bad_rules_name_the_field()


@row("T03")
def test_t03_the_answer_store_is_bounded_and_goes_with_its_battle() -> None:
    from tests.table import test_seam as t

    t.test_the_store_is_bounded_forgetting_its_oldest_generation()
    t.test_a_store_goes_with_a_line_of_tables_and_no_further()
    t.test_the_store_counts_hits_and_misses_and_keeps_first_answers()


@row("T04")
def test_t04_sightings_of_many_pairs_answer_as_the_reference() -> None:
    from tests.table import test_sight_scaling as t

    t.test_a_long_line_across_a_crowd_names_exactly_the_units_it_crosses()
    t.test_every_candidate_goes_through_the_sift_when_many()
