"""Loaded states and values (issue 28): a Bloodybacks state read from text, or made by
``new_battle``, holds together as a whole (``validity.check_battle``) or is refused with
every fault named by its path, its value and what is allowed; never accepted to fail later
with a raw exception. And action fields are checked where the action is made."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smoothbore.bloodybacks93 import TURN, example_battle, new_battle
from smoothbore.bloodybacks93.scenarios import example_battle_no_table
from smoothbore.bloodybacks93.units import AMERICAN, BRITISH, Commander, Unit
from smoothbore.bloodybacks93.validity import MAX_SECTIONS, MAX_SIZE, MAX_STAMINA_LOSSES
from smoothbore.core import InvalidValueError, LoadError, SmoothboreError
from smoothbore.table import Feature, Footprint, Table

Doc = dict[str, Any]


def _refused(state_doc: Doc, field: str) -> LoadError:
    """Load the document: it must be refused, the fault at ``field`` among those named."""
    text = json.dumps(state_doc)
    with pytest.raises(LoadError) as caught:
        TURN.load(text)
    faults = getattr(caught.value, "faults", ((caught.value.field, None, ""),))
    assert any(f == field for f, _, _ in faults), (field, faults)
    return caught.value


def _doc(table: bool = True) -> Doc:
    state = example_battle() if table else example_battle_no_table()
    doc: Doc = json.loads(state.to_json())
    return doc


# --- one class of fault each (issue 28: Loaded states and values) -------------------------
def test_a_third_side_is_refused_sequence_of_play_red_and_black() -> None:
    # Sequence of Play: Activating Commanders: red cards the British, black the Americans
    doc = _doc()
    doc["sides"].append("french")
    _refused(doc, "$.sides")


@pytest.mark.parametrize(("field", "bound"), [
    ("size", MAX_SIZE), ("stamina_losses", MAX_STAMINA_LOSSES)])
def test_unit_counts_are_bounded_unit_size_b66(field: str, bound: int) -> None:
    # Unit size; interpretation B66: 10**18 figures or stamina losses are refused, the bound
    # itself is accepted
    doc = _doc(table=False)
    doc["units"][0][field] = 10**18
    _refused(doc, f"$.units[0].{field}")
    doc["units"][0][field] = bound
    TURN.load(json.dumps(doc))


def test_sections_are_bounded_shooting_artillery_b66() -> None:
    doc = _doc(table=False)
    assert doc["units"][2]["kind"] == "field artillery"
    doc["units"][2]["sections"] = 10**18
    _refused(doc, "$.units[2].sections")
    doc["units"][2]["sections"] = MAX_SECTIONS
    TURN.load(json.dumps(doc))


def test_a_commander_attached_to_an_enemy_or_nobody_is_refused() -> None:
    doc = _doc(table=False)
    doc["commanders"][0]["attached_to"] = "a1"  # Colonel Webster (British) with the Marylanders
    _refused(doc, "$.commanders[0].attached_to")
    doc["commanders"][0]["attached_to"] = "nobody"
    _refused(doc, "$.commanders[0].attached_to")


def test_every_fault_is_named_not_only_the_first() -> None:
    doc = _doc(table=False)
    doc["units"][0]["size"] = 10**18
    doc["units"][1]["stamina_losses"] = 10**18
    doc["extra"]["minutes"] = 7
    error = _refused(doc, "$.units[0].size")
    assert [f for f, _, _ in error.faults] == [  # type: ignore[attr-defined]
        "$.units[0].size", "$.units[1].stamina_losses", "$.extra.minutes"]


@pytest.mark.parametrize(("path", "value", "field"), [
    (("minutes",), 7, "$.extra.minutes"),  # (value + 1) x 5 minutes: 10 to 30
    (("activity",), [{"commander_id": "cb", "level": 10**18, "command_points": 1}],
     "$.extra.activity[0].level"),
    (("activity",), [{"commander_id": "cb", "level": 3, "command_points": 10**18}],
     "$.extra.activity[0].command_points"),
    (("activity",), [{"commander_id": "cb", "level": 3, "command_points": 2},
                     {"commander_id": "cb", "level": 3, "command_points": 2}],
     "$.extra.activity[1].commander_id"),
])
def test_the_turns_counts_are_bounded_activity_level(
        path: tuple[str, ...], value: object, field: str) -> None:
    # Determine commander activation level: AL 1 to 5, command points half of it rounded up
    doc = _doc(table=False)
    doc["extra"][path[0]] = value
    _refused(doc, field)


def test_activated_units_of_the_card_side_and_bounded_actions() -> None:
    # Activating Units: the card activates its own side; a hand gives at most 3 actions (+1)
    doc = _doc(table=False)
    doc["phase"] = "activation"
    doc["extra"]["deck"] = [c for c in doc["extra"]["deck"] if c != {"colour": "red", "value": 5}]
    doc["extra"]["card"] = {"colour": "red", "value": 5}
    doc["extra"]["minutes"] = 30
    doc["extra"]["active"] = ["cb"]
    doc["extra"]["activated"] = [{"unit_id": "b1", "commander_id": "cb", "actions": 2,
                                  "shot": False}]
    TURN.load(json.dumps(doc))
    doc["extra"]["activated"][0]["actions"] = 10**18
    _refused(doc, "$.extra.activated[0].actions")
    doc["extra"]["activated"][0].update(unit_id="a1", actions=2)
    _refused(doc, "$.extra.activated[0].unit_id")
    doc["extra"]["activated"][0]["unit_id"] = "b1"
    doc["extra"]["active"] = ["ca"]
    _refused(doc, "$.extra.active")
    doc["extra"]["active"] = ["cb"]
    doc["extra"]["deck"].append({"colour": "red", "value": 5})
    _refused(doc, "$.extra.card")


_FACTS = {"contact": "front", "uphill": False, "countercharged_by_cavalry": False, "cover": 0,
          "behind_obstacle": False, "charger_commander_attached": False, "led": [],
          "use_cold_steel": True, "charger_in_woods": False, "defender_in_woods": False}


@pytest.mark.parametrize(("chargers", "defenders", "good"), [
    (["b1"], ["a1"], True), (["b1"], ["b2"], False), (["b1", "a2"], ["a1"], False),
    (["b1", "b1"], ["a1"], False), ([], ["a1"], False)])
def test_a_deferred_melee_is_of_two_sides_multiple_unit_melee(
        chargers: list[str], defenders: list[str], good: bool) -> None:
    # Charges and melee: Multiple unit melee: chargers of one side against the other's units
    doc = _doc(table=False)
    doc["extra"]["deferred"] = [{"chargers": chargers, "defenders": defenders,
                                 "facts": _FACTS}]
    if good:
        TURN.load(json.dumps(doc))
    else:
        _refused(doc, "$.extra.deferred[0].chargers" if not chargers
                 else "$.extra.deferred[0].defenders")


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["extra"]["table"]["footprints"].pop(0), "$.extra.table.footprints"),
    (lambda d: d["extra"]["table"]["footprints"][0].update(unit_id="ghost"),
     "$.extra.table.footprints[0].unit_id"),
    (lambda d: d["extra"]["table"]["footprints"][0].update(side=AMERICAN),
     "$.extra.table.footprints[0].side"),
    (lambda d: d["extra"]["table"]["footprints"][0].update(frontage=5e-324),
     "$.extra.table.footprints[0]"),
    (lambda d: d["units"][0].update(name="Renamed"), "$.extra.table.footprints[0]"),
    (lambda d: d["units"][0].update(id="renamed"), "$.extra.table.footprints[0].unit_id"),
    (lambda d: d["extra"]["table"]["footprints"][1].update(
        x=d["extra"]["table"]["footprints"][0]["x"], y=d["extra"]["table"]["footprints"][0]["y"]),
     "$.extra.table.footprints[1]"),
    (lambda d: d.update(commanders=[]), "$.extra.table.commanders[0].commander_id"),
    # the mark of a commander riding with a unit (fuzz_loaded_states: loaded, then play
    # asked the table where he was)
    (lambda d: d["extra"]["table"]["commanders"].pop(1), "$.extra.table.commanders"),
])
def test_footprints_are_exactly_the_standing_units_b51(
        change: Callable[[Doc], object], field: str) -> None:
    # B51: each unit's footprint is laid out by its bases and formation; a move never ends
    # on another unit (B54); footprints of ghosts, of the other side, missing: refused
    doc = _doc()
    change(doc)
    _refused(doc, field)


def _open_table(features: tuple[Feature, ...] = ()) -> Table:
    return Table(48, 48, features=features,
                 footprints=(Footprint("b", 10, 10, 0), Footprint("a", 10, 40, 180)),
                 commanders=())


UNITS = (Unit("b", "33rd", BRITISH, size=12), Unit("a", "Marylanders", AMERICAN, size=12))
LEADERS = (Commander("cb", "Webster", BRITISH, attached_to="b"),
           Commander("ca", "Stevens", AMERICAN, attached_to="a"))


def test_new_battle_refuses_a_unit_in_impassable_ground_b55() -> None:
    # Movement; B55: impassable ground, rivers away from fords, buildings are closed
    new_battle(UNITS, LEADERS, table=_open_table())
    marsh = (Feature.rectangle("crag", "impassable ground", 10, 10, 6, 6),)
    with pytest.raises(InvalidValueError) as caught:
        new_battle(UNITS, LEADERS, table=_open_table(marsh))
    assert caught.value.field == "extra.table.footprints[0]"
    assert "crag" in caught.value.allowed


def test_new_battle_refuses_units_stacked_on_each_other_b54() -> None:
    table = attrs.evolve(_open_table(), footprints=(Footprint("b", 10, 10, 0),
                                                    Footprint("a", 10, 10.2, 180)))
    with pytest.raises(InvalidValueError) as caught:
        new_battle(UNITS, LEADERS, table=table)
    assert caught.value.field == "extra.table.footprints[1]"


def test_new_battle_refuses_a_commander_with_the_enemy() -> None:
    leaders = (attrs.evolve(LEADERS[0], attached_to="a"), LEADERS[1])
    with pytest.raises(InvalidValueError) as caught:
        new_battle(UNITS, leaders)
    assert caught.value.field == "commanders[0].attached_to"


# --- the fuzz target: refused with a library error, or plays 25 steps and round-trips ------
_HOSTILE: tuple[object, ...] = (
    None, True, False, "no", "", "zz", "b1", "cb", "american", "french", -1, 0, 1, 7, 10**18,
    10**20, 5e-324, 1e308, -1e308, 0.5, [], {}, ["zz"], [10**18],
)


def _paths(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _set(doc: Any, path: tuple[object, ...], value: object) -> None:
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = value


def _plays(text: str, seed: int) -> None:
    state = TURN.load(text)
    rng = random.Random(seed)
    for _ in range(25):
        if TURN.is_over(state):
            break
        actions = list(TURN.legal_actions(state))
        if not actions:
            break
        state, _ = TURN.step(state, rng.choice(actions))
        assert TURN.load(state.to_json()) == state


_BASES = (_doc(), _doc(table=False))
_PATHS = tuple(tuple(p for p in _paths(doc) if p and p[0] != "schema_version")
               for doc in _BASES)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_a_loaded_state_is_refused_or_plays_and_round_trips(data: st.DataObject) -> None:
    """Issue 28 (Proof): one field of a saved battle set to a hostile value is refused with
    a library error, or the battle plays 25 steps and each state round-trips."""
    which = data.draw(st.integers(0, 1))
    doc = json.loads(json.dumps(_BASES[which]))
    path = data.draw(st.sampled_from(_PATHS[which]))
    _set(doc, path, data.draw(st.sampled_from(_HOSTILE)))
    text = json.dumps(doc)
    try:
        TURN.load(text)
    except SmoothboreError:
        return
    _plays(text, data.draw(st.integers(0, 3)))


# --- action and fact fields, checked where the action is made -------------------------------
def _flag_fields() -> list[tuple[type, str]]:
    from smoothbore.bloodybacks93 import actions
    from smoothbore.bloodybacks93.charges import ChargeFacts
    from smoothbore.bloodybacks93.movement import MoveFacts
    from smoothbore.bloodybacks93.options import Options
    from smoothbore.bloodybacks93.shooting import ShotFacts

    classes: tuple[type, ...] = (
        actions.Activate, actions.RoutTest, actions.Charge, actions.SpendCommandPoint,
        actions.ResolveDeferred, ChargeFacts, MoveFacts, ShotFacts, Options, Unit, Commander)
    return [(cls, f.name) for cls in classes for f in attrs.fields(cls)
            if f.type in ("bool", "bool | None")]


_MINIMAL: dict[str, dict[str, object]] = {
    "Activate": {"unit_id": "b1", "commander_id": "cb"},
    "RoutTest": {"unit_id": "b1", "commander_id": "cb"},
    "Charge": {"unit_ids": ("b1",), "target_ids": ("a1",)},
    "SpendCommandPoint": {"commander_id": "cb", "use": "extra action"},
    "Unit": {"id": "u", "name": "U", "side": BRITISH},
    "Commander": {"id": "c", "name": "C", "side": BRITISH},
}


@pytest.mark.parametrize(("cls", "name"), _flag_fields(),
                         ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
@given(bad=st.sampled_from(["no", "yes", "", 0, 1, 1.0, "False"]))
@settings(max_examples=7, deadline=None)
def test_a_boolean_field_refuses_words_and_numbers(cls: type, name: str, bad: object) -> None:
    """Issue 28: 'no' as a flag was taken as true by ``step`` and refused by ``to_json``;
    every flag of an action, a fact, an option, a unit or a commander is True or False."""
    from smoothbore.bloodybacks93.command import CommandPointUse

    kwargs = dict(_MINIMAL.get(cls.__name__, {}))
    if kwargs.get("use") == "extra action":
        kwargs["use"] = CommandPointUse.EXTRA_ACTION
    cls(**kwargs)  # the minimal value is good
    with pytest.raises(InvalidValueError) as caught:
        cls(**kwargs, **{name: bad})
    assert name in caught.value.field


@given(bad=st.sampled_from([float("nan"), float("inf"), -1.0, 1e308]))
@settings(max_examples=8, deadline=None)
def test_distances_refuse_nan_and_the_absurd_charges_and_melee(bad: float) -> None:
    # Charges and melee: the distance to the target and the spare move are inches on a table
    from smoothbore.bloodybacks93.actions import Charge, Move, SpendCommandPoint
    from smoothbore.bloodybacks93.command import CommandPointUse
    from smoothbore.bloodybacks93.shooting import ShotFacts

    for make in (lambda: Charge(("b1",), ("a1",), distance=bad),
                 lambda: Charge(("b1",), ("a1",), charger_spare_move=bad),
                 lambda: ShotFacts(range=bad)):
        with pytest.raises(InvalidValueError):
            make()
    if bad != 1e308 and bad != -1.0:
        with pytest.raises(InvalidValueError):
            Move("b1", to=(bad, 1.0, 0.0))
        with pytest.raises(InvalidValueError):
            SpendCommandPoint("cb", CommandPointUse.MOVE_COMMANDER, to=(1.0, bad))


def test_facts_of_the_wrong_kind_are_refused_where_the_action_is_made() -> None:
    from smoothbore.bloodybacks93.actions import Charge, Move, Shoot
    from smoothbore.bloodybacks93.charges import ChargeFacts
    from smoothbore.bloodybacks93.movement import MoveFacts
    from smoothbore.bloodybacks93.shooting import ShotFacts

    bad: Any = {"uphill": True}
    for make, field in ((lambda: Move("b1", facts=bad), "Move.facts"),
                        (lambda: Shoot("b1", "a1", facts=bad), "Shoot.facts"),
                        (lambda: Shoot("b1", "a1", split_facts=ChargeFacts()), "Shoot.split_facts"),
                        (lambda: Charge(("b1",), ("a1",), facts=ShotFacts()), "Charge.facts"),
                        (lambda: Charge(("b1",), ("a1",), ground=ChargeFacts()), "Charge.ground")):
        with pytest.raises(InvalidValueError) as caught:
            make()
        assert caught.value.field == field
    Charge(("b1",), ("a1",), facts=ChargeFacts(), ground=MoveFacts())


@pytest.mark.parametrize(("cls", "kwargs", "field"), [
    ("ActivityEntry", {"commander_id": "cb", "level": 10**18, "command_points": 1}, "level"),
    ("ActivityEntry", {"commander_id": "cb", "level": 3, "command_points": -1},
     "command_points"),
    ("Activated", {"unit_id": "b1", "commander_id": "cb", "actions": -1}, "actions"),
])
def test_the_turns_entries_are_bounded_where_made(
        cls: str, kwargs: dict[str, object], field: str) -> None:
    # Determine commander activation level: AL 1 to 5, CP half of it rounded up (B1)
    from smoothbore.bloodybacks93 import state

    with pytest.raises(InvalidValueError) as caught:
        getattr(state, cls)(**kwargs)
    assert field in caught.value.field
