"""Loaded states and values (issue 28): a saved Will's AWI battle passes every check that
``new_battle`` and a step make, or is refused with every fault named by its path
(``validity.check_battle``); every field of an action or a fact is checked where the value is
made, so ``step`` never meets a raw value. Rule texts: will-awi-2008.txt (Rules -
Introduction; Rules - Movement: Effects of terrain; Rules - Fortifications and Fieldworks),
decisions W50-W54 in docs/interpretations/will_awi.md."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import InvalidValueError, LoadError
from smoothbore.table import Feature
from smoothbore.will_awi.actions import (
    CompulsoryMove,
    Contact,
    DeclareCharge,
    Fire,
    Move,
    Order,
    TestMorale,
)
from smoothbore.will_awi.charges import ChargedResult, ChargeFacts
from smoothbore.will_awi.command import OrderFacts
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.fortifications import Defence, Demolition, Work
from smoothbore.will_awi.movement import MAX_PASSED, MovePlan
from smoothbore.will_awi.positions import deploy
from smoothbore.will_awi.scenarios import SCENARIOS, example_battle, works_battle
from smoothbore.will_awi.state import Charge, TestedCharge, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, TroopType, Unit
from smoothbore.will_awi.validity import battle_faults

Doc = dict[str, Any]


def _saved(make: Callable[[int], Any] = example_battle) -> Doc:
    data: Doc = json.loads(make(0).to_json())
    return data


def _refused(data: Doc) -> LoadError:
    """The load of ``data`` refused with a LoadError (nothing returned)."""
    with pytest.raises(LoadError) as caught:
        TURN.load(json.dumps(data))
    return caught.value


def _paths(error: LoadError) -> list[str]:
    return [f for f, _, _ in getattr(error, "faults", ((error.field, None, None),))]


def _prints(data: Doc) -> list[Doc]:
    found: list[Doc] = data["extra"]["table"]["footprints"]
    return found


# --- the battle as a whole -------------------------------------------------------------------
def test_a_loaded_third_side_is_refused_rules_introduction() -> None:
    """Rules - Introduction: a battle is two players' (W50): a third side was accepted."""
    data = _saved()
    data["sides"].append("French")
    assert _refused(data).field == "$.sides"


def _rename(data: Doc) -> None:
    data["units"][0]["id"] = "zz"


def _missing(data: Doc) -> None:
    _prints(data).pop(0)


def _ghost(data: Doc) -> None:
    _prints(data).append(dict(_prints(data)[0], unit_id="ghost", x=40.0, y=20.0))


def _enemy_side(data: Doc) -> None:
    _prints(data)[0]["side"] = "American"


def _stacked(data: Doc) -> None:
    prints = _prints(data)
    prints[1]["x"], prints[1]["y"] = prints[0]["x"], prints[0]["y"]


def _in_river(data: Doc) -> None:
    _prints(data)[0]["x"], _prints(data)[0]["y"] = 20.0, 19.0  # Pine Tree Creek


def _tiny_frontage(data: Doc) -> None:
    _prints(data)[0]["frontage"] = 5e-324


def _mark_ghost(data: Doc) -> None:
    data["extra"]["table"]["commanders"][0]["commander_id"] = "ghost"


def _mark_side(data: Doc) -> None:
    data["extra"]["table"]["commanders"][0]["side"] = "American"


def _enemy_brigadier(data: Doc) -> None:
    data["units"][0]["commander"] = "bg"


def _rides_with_enemy(data: Doc) -> None:
    data["commanders"][0]["attached_to"] = "b1"


def _own_superior(data: Doc) -> None:
    data["commanders"][0]["superior"] = "rg"


def _enemy_superior(data: Doc) -> None:
    data["commanders"][0]["superior"] = "bg"


def _regained(data: Doc) -> None:
    data["units"][0].update(strength=6, initial_strength=3)


def _ended_by(data: Doc) -> None:
    data["extra"]["ended_by"] = "nobody"


@pytest.mark.parametrize(("mutate", "path"), [
    (_rename, "$.extra.table.footprints[0].unit_id"),
    (_missing, "$.extra.table.footprints"),
    (_ghost, "$.extra.table.footprints[5].unit_id"),
    (_enemy_side, "$.extra.table.footprints[0].side"),
    (_stacked, "$.extra.table.footprints[1]"),
    (_in_river, "$.extra.table.footprints[0]"),
    (_tiny_frontage, "$.extra.table.footprints[0]"),
    (_mark_ghost, "$.extra.table.commanders[0].commander_id"),
    (_mark_side, "$.extra.table.commanders[0].side"),
    (_enemy_brigadier, "$.units[0].commander"),
    (_rides_with_enemy, "$.commanders[0].attached_to"),
    (_own_superior, "$.commanders[0].superior"),
    (_enemy_superior, "$.commanders[0].superior"),
    (_regained, "$.units[0].strength"),
    (_ended_by, "$.extra.ended_by"),
])
def test_a_loaded_battle_no_step_could_play_is_refused_by_path(
        mutate: Callable[[Doc], None], path: str) -> None:
    """Rules - Introduction (Units and bases, Generals, Strength Points), Rules - Movement:
    Effects of terrain (NA), Move Sequence C (no unit on another): each was accepted, and a
    renamed unit or a missing footprint then failed in play with a raw error."""
    data = _saved()
    mutate(data)
    assert path in _paths(_refused(data))


def test_a_loaded_battle_names_every_fault_at_once() -> None:
    """Every fault, not the first: the error's ``allowed`` and ``faults`` list them all."""
    data = _saved()
    _rename(data)
    _enemy_brigadier(data)
    _regained(data)
    data["sides"].append("French")
    error = _refused(data)
    paths = _paths(error)
    assert {"$.sides", "$.units[0].commander", "$.units[0].strength",
            "$.extra.table.footprints[0].unit_id"} <= set(paths)
    assert "more fault(s)" in error.allowed


_EXTRA_UNITS = ("ordered", "rallied", "compelled", "fired", "half_fired", "could_fire",
                "resolved", "winners", "supplied", "done")


@settings(max_examples=30, deadline=None)
@given(field=st.sampled_from(_EXTRA_UNITS),
       name=st.text(min_size=1, max_size=8).filter(
           lambda n: n not in {"r1", "r2", "b1", "b2", "b3"}))
def test_any_name_in_extra_naming_nobody_is_refused(field: str, name: str) -> None:
    """Rules - Move Sequence: the units that have acted, fired, rallied... are the battle's;
    a name naming nobody (or, in ``supplied``, no wagon) was accepted."""
    data = _saved()
    data["extra"][field] = [name]
    assert f"$.extra.{field}" in _paths(_refused(data))


@settings(max_examples=30, deadline=None)
@given(drawn=st.one_of(st.integers(min_value=7), st.integers(max_value=0)))
def test_charges_drawn_are_bounded_by_a_wagons_six(drawn: int) -> None:
    """Rules - Fortifications and Fieldworks: Demolition: "1 wagon can hold 6 charges": a
    count of 10**18 drawn from a wagon (or none) was accepted."""
    data = _saved(works_battle)
    wagon = next(u["id"] for u in data["units"] if u["troop"] == "wagons")
    data["extra"]["charges_drawn"] = [[wagon, drawn]]
    assert "$.extra.charges_drawn[0][1]" in _paths(_refused(data))


def test_a_work_holds_no_more_than_its_full_value() -> None:
    """Rules - Fortifications and Fieldworks: Defence Values: a timber fieldwork has 6
    points; 10**18 was accepted, and 7 is refused in a battle (12 is the most of any work)."""
    data = _saved(works_battle)
    work = data["extra"]["works"][0]
    work["points"] = 10**18
    assert _refused(data).field.startswith("$.extra.works[0].points")
    with pytest.raises(InvalidValueError):
        Defence(Work.TIMBER_FIELDWORK, 13)
    state = works_battle(0)
    fieldwork = next(w for w in state.extra.works if w.work is Work.TIMBER_FIELDWORK)
    i = state.extra.works.index(fieldwork)
    over = state.with_extra(works=tuple(attrs.evolve(w, points=7) if w is fieldwork else w
                                        for w in state.extra.works))
    assert (f"extra.works[{i}].points", 7) in [(f, v) for f, v, _ in battle_faults(over)]


def test_a_demolition_names_a_work_and_a_unit_of_the_battle() -> None:
    """Rules - Fortifications and Fieldworks: Demolition: charges are laid at a work by a
    unit; a demolition naming neither was accepted."""
    data = _saved(works_battle)
    data["extra"]["demolitions"] = [{"work": "nowhere", "unit": "ghost", "charges": 1,
                                     "away": False}]
    assert _refused(data).field == "$.extra.demolitions[0].unit"
    data["extra"]["demolitions"][0]["unit"] = data["units"][0]["id"]
    assert _refused(data).field == "$.extra.demolitions[0].work"


@pytest.mark.parametrize("origin", [(1e300, 1e300), (-5.0, 3.0), (48.5, 10.0)])
def test_a_charged_units_origin_is_on_the_table(origin: tuple[float, float]) -> None:
    """Rules - Charging: a charged unit that routs or evades leaves its "original
    position", kept as ``TestedCharge.origin``: a point off the 48 x 36 table was accepted
    and played on."""
    state = example_battle(0)
    tested = state.with_extra(tests=(TestedCharge("b1", ChargedResult.ROUTS, origin=origin),))
    assert [f for f, _, _ in battle_faults(tested)] == ["extra.tests[0].origin"]
    assert battle_faults(state.with_extra(tests=(
        TestedCharge("b1", ChargedResult.ROUTS, origin=(16.0, 28.0)),))) == ()


# --- new_battle makes the same check ---------------------------------------------------------
_RED = Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH)
_RED2 = Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH)
_BLUE = Unit("b1", "Continentals", "blue", TroopType.LINE)
_CREEK = Feature("creek", "river", line=((0, 20), (48, 20)), width=2.0)


def test_new_battle_refuses_units_stacked_on_each_other() -> None:
    """Rules - Move Sequence C: no unit stands on another; new_battle accepted two
    footprints at one place."""
    units = (_RED, _RED2, _BLUE)
    table = deploy(units, {"r1": (10, 5, 0), "r2": (10.5, 5, 0), "b1": (10, 30, 180)},
                   width=48, depth=36)
    with pytest.raises(InvalidValueError) as caught:
        new_battle(("red", "blue"), units, table=table)
    assert caught.value.field == "extra.table.footprints[1]"


def test_new_battle_refuses_a_unit_inside_ground_it_may_not_enter() -> None:
    """Rules - Movement: Effects of terrain: a river is NA (but at a ford or bridge);
    new_battle accepted foot standing in the creek."""
    units = (_RED, _BLUE)
    table = deploy(units, {"r1": (10, 20, 0), "b1": (10, 30, 180)}, width=48, depth=36,
                   features=(_CREEK,))
    with pytest.raises(InvalidValueError) as caught:
        new_battle(("red", "blue"), units, table=table)
    assert caught.value.field == "extra.table.footprints[0]"
    assert "creek" in caught.value.allowed


def test_new_battle_refuses_a_brigadier_of_the_other_side() -> None:
    """Rules - Introduction: Generals: a unit's brigadier is of its own side."""
    with pytest.raises(InvalidValueError) as caught:
        new_battle(("red", "blue"), (attrs.evolve(_RED, commander="bg"), _BLUE),
                   (Commander("bg", "Greene", "blue"),))
    assert caught.value.field == "units[0].commander"


def test_every_state_of_random_play_passes_the_whole_battle_check() -> None:
    """The check refuses nothing play makes: every state of 60 random steps of every
    embedded battle has no fault and loads again (issue 28's fuzz, small)."""
    for name, make in (("default", example_battle), *SCENARIOS):
        state = make(3)
        rng = random.Random(name)
        for _ in range(60):
            if TURN.is_over(state):
                break
            state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
            assert battle_faults(state) == (), name
        assert TURN.load(state.to_json()) == state


# --- actions and facts: every field checked where it is made ---------------------------------
_NOT_BOOLS = st.one_of(st.text(max_size=3), st.integers(), st.floats(allow_nan=True),
                       st.none())

_FLAGS: tuple[tuple[Callable[..., object], str], ...] = (
    (lambda v: ChargeFacts(behind_obstacle=v), "ChargeFacts.behind_obstacle"),
    (lambda v: OrderFacts(in_sight=v), "OrderFacts.in_sight"),
    (lambda v: FireFacts(2.0, overhead=v), "FireFacts.overhead"),
    (lambda v: MovePlan(retiring=v), "MovePlan.retiring"),
    (lambda v: TestMorale("r1", in_open=v), "TestMorale.in_open"),
    (lambda v: CompulsoryMove("r1", leaves_table=v), "CompulsoryMove.leaves_table"),
    (lambda v: DeclareCharge("r1", "b1", uphill=v), "DeclareCharge.uphill"),
    (lambda v: Contact("r1", in_reach=v), "Contact.in_reach"),
    (lambda v: Fire("r1", "b1", could_not_have_fired=v), "Fire.could_not_have_fired"),
    (lambda v: Unit("r1", "Foot", "red", TroopType.LINE, must_retire=v), "Unit.must_retire"),
    (lambda v: Demolition("w", "r1", away=v), "Demolition.away"),
)


@settings(max_examples=40, deadline=None)
@given(value=_NOT_BOOLS.filter(lambda v: v is not True and v is not False),
       made=st.sampled_from(_FLAGS))
def test_a_yes_or_no_field_takes_only_a_bool(value: object,
                                             made: tuple[Callable[..., object], str]) -> None:
    """A fact a player answers yes or no to (Rules - Charging, Command & Control, Firing,
    Movement...): 'no' as text was stored as true, and ``to_json`` later refused it."""
    make, field = made
    with pytest.raises(InvalidValueError) as caught:
        make(value)
    assert caught.value.field == field


_BAD_NUMBERS = st.one_of(st.just(math.nan), st.just(math.inf), st.just(-1.0),
                         st.just(10**18), st.text(max_size=2))


@settings(max_examples=30, deadline=None)
@given(value=_BAD_NUMBERS)
def test_an_order_distance_is_a_finite_measured_distance(value: object) -> None:
    """Command & Control: -1 per 12" away; NaN (or 10**18) distances were accepted and
    then stored."""
    with pytest.raises(InvalidValueError) as caught:
        OrderFacts(distance=value)  # type: ignore[arg-type]
    assert caught.value.field == "OrderFacts.distance"


@settings(max_examples=30, deadline=None)
@given(value=_BAD_NUMBERS)
def test_a_declared_charge_distance_is_finite(value: object) -> None:
    """Rules - Charging: the charge's distance is measured; a stored charge took NaN."""
    with pytest.raises(InvalidValueError) as caught:
        Charge("r1", "b1", value)  # type: ignore[arg-type]
    assert caught.value.field == "Charge.distance"


def test_passing_through_is_bounded_by_the_move() -> None:
    """Rules - Movement note (i): 3" (foot) or 6" (mounted) per unit passed through; 10**18
    units were accepted (W52: at most MAX_PASSED)."""
    assert MovePlan(passes_through=MAX_PASSED).passes_through == MAX_PASSED
    with pytest.raises(InvalidValueError) as caught:
        MovePlan(passes_through=10**18)
    assert caught.value.field == "MovePlan.passes_through"


@pytest.mark.parametrize(("make", "field"), [
    (lambda: Order("bg", "b1", facts="near"), "facts"),
    (lambda: Order("bg", "b1", with_units="b2"), "Order.with_units"),
    (lambda: Move("r1", plan=None), "plan"),
    (lambda: DeclareCharge("r1", "b1", facts=None), "facts"),
    (lambda: Contact("r1", enters="farm"), "enters"),
    (lambda: CompulsoryMove("r1", enters="farm"), "enters"),
    (lambda: Defence("redoubt", 3), "Defence.work"),
    (lambda: Defence(Work.REDOUBT, 10**18), "Defence.points"),
    (lambda: Defence(Work.REDOUBT, 3, id=5), "Defence.id"),
    (lambda: Demolition(5, "r1"), "Demolition.work"),
    (lambda: TestedCharge("b1", "stands"), "TestedCharge.result"),
])
def test_an_action_or_fact_of_the_wrong_kind_is_refused_where_made(
        make: Callable[[], object], field: str) -> None:
    """Every field of an action or fact is checked where it is made (issue 28): these were
    accepted and then raised AttributeError or TypeError inside ``step``."""
    with pytest.raises(InvalidValueError) as caught:
        make()
    assert caught.value.field == field
