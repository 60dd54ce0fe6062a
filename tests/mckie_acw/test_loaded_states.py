"""A loaded McKie ACW battle is checked as a whole (issue 28, "Loaded states and values"):
``state.check_battle``, called by ``new_battle`` and by every load (``Engine.load``,
``BattleState.from_json`` and a record's start state through ``Extra.check_battle``), refuses
what a step could not play on, naming every fault by its path in the document. Rules cited:
mckie-acw.txt, Generalship (one commander-in-chief a side, the line of command), Formation
and strength of units, Ammunition (6 rounds a figure or gun, up to 6 more in the train),
Effort points, Movement (impassable ground; no unit on another, M34), and the interpretation
M45 (the longest battle and the bounds of counts)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, InvalidValueError, LoadError
from smoothbore.mckie_acw import TURN, Commander, Extra, Options, Unit, example_battle
from smoothbore.mckie_acw.positions import footprint
from smoothbore.mckie_acw.state import new_battle
from smoothbore.mckie_acw.units import MAX_EFFORT, MAX_PERIODS

START = example_battle()
TEXT = START.to_json()
Doc = dict[str, Any]


def _doc() -> Doc:
    data: Doc = json.loads(TEXT)
    return data


def _refused(change: Callable[[Doc], object], path: str) -> LoadError:
    """The document changed by ``change`` is refused by every loader, one of the faults it
    names at ``path``; nothing is returned."""
    data = _doc()
    change(data)
    text = json.dumps(data)
    with pytest.raises(LoadError) as caught:
        TURN.load(text)
    assert path in _paths(caught.value), str(caught.value)
    with pytest.raises(LoadError) as again:
        BattleState.from_json(text, Unit, Commander, Extra, Options)
    assert _paths(again.value) == _paths(caught.value)
    return caught.value


def _paths(error: LoadError) -> list[str]:
    """Every fault's path an error names (the whole-battle check names them all)."""
    faults = getattr(error, "faults", ((error.field, error.value, error.allowed),))
    return [field for field, _value, _allowed in faults]


def test_the_example_and_its_played_states_load() -> None:
    state = START
    for _ in range(40):
        assert TURN.load(state.to_json()) == state
        actions = TURN.legal_actions(state)
        if not actions:
            break
        state, _events = TURN.step(state, actions[len(actions) // 2])


# --- names: every name a unit, commander or extra field gives names one of the battle's --
_NAMES: tuple[tuple[str, Callable[[Doc, str], object], str], ...] = (
    ("Generalship: a unit's commander",
     lambda d, n: d["units"][2].__setitem__("commander", n), "$.units[2].commander"),
    ("Generalship: a commander's superior",
     lambda d, n: d["commanders"][1].__setitem__("superior", n), "$.commanders[1].superior"),
    ("Risk to generals: the unit a general is with",
     lambda d, n: d["commanders"][1].__setitem__("attached_to", n),
     "$.commanders[1].attached_to"),
    ("Initiative: the side moving first",
     lambda d, n: d["extra"].__setitem__("first", n), "$.extra.first"),
    ("Battle period: the acting side",
     lambda d, n: d["extra"].__setitem__("acting", n), "$.extra.acting"),
    ("Initiative: its winner",
     lambda d, n: d["extra"].__setitem__("initiative", n), "$.extra.initiative"),
    ("Activation: a commander activated",
     lambda d, n: d["extra"].__setitem__("activated", [n]), "$.extra.activated"),
    ("Battle period: a unit that moved",
     lambda d, n: d["extra"].__setitem__("moved", [n]), "$.extra.moved"),
    ("Target priorities: last period's firer",
     lambda d, n: d["extra"].__setitem__("last_fired_on_by", [["law", n]]),
     "$.extra.last_fired_on_by[0][1]"),
    ("Ammunition: a train's corps",
     lambda d, n: d["extra"]["reserves"][0].__setitem__(0, n), "$.extra.reserves[0][0]"),
    ("Melee: a melee's defender",
     lambda d, n: d["extra"].__setitem__("contacts", [{"attacker": "law", "defender": n}]),
     "$.extra.contacts[0].defender"),
    ("Charges: a charge's target",
     lambda d, n: d["extra"].__setitem__("charges", [{"charger": "law", "target": n}]),
     "$.extra.charges[0].target"),
    ("Prisoners: the side holding them",
     lambda d, n: d["extra"].__setitem__("prisoners", [[n, 3]]), "$.extra.prisoners[0][0]"),
)


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(_NAMES),
       name=st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12))
def test_a_name_naming_nobody_is_refused_by_its_path(
        case: tuple[str, Callable[[Doc, str], object], str], name: str) -> None:
    """Each name field (rule in the case's label) naming nobody is refused at its path."""
    _label, change, path = case
    known = {u.id for u in START.units} | {c.id for c in START.commanders} | set(START.sides)
    if name in known:
        return
    error = _refused(lambda d: change(d, name), path)
    assert error.value == name or name in repr(error.value)


def test_charges_and_melee_a_charge_or_melee_among_friends_is_refused() -> None:
    """Charges and Melee: a charge and a melee are on the enemy."""
    _refused(lambda d: d["extra"].__setitem__(
        "charges", [{"charger": "law", "target": "benning"}]), "$.extra.charges[0].target")
    _refused(lambda d: d["extra"].__setitem__(
        "contacts", [{"attacker": "king", "defender": "wilder"}]), "$.extra.contacts[0].defender")


def test_generalship_a_unit_commanded_from_the_other_side_is_refused() -> None:
    _refused(lambda d: d["units"][0].__setitem__("commander", "thomas"), "$.units[0].commander")


def test_generalship_two_sides_and_one_commander_in_chief_each() -> None:
    _refused(lambda d: d["sides"].append("British"), "$.sides")
    error = _refused(lambda d: d.__setitem__("commanders", []), "$.commanders")
    # every fault is named: both sides' chiefs, and each unit's commander
    faults = [f for f, _v, _a in error.faults]  # type: ignore[attr-defined]
    assert faults[:2] == ["$.commanders", "$.commanders"]
    assert {f"$.units[{i}].commander" for i in range(len(START.units))} <= set(faults)
    assert "$.units[8].commander" in str(error)


# --- counts: bounded by what their rules imply ----------------------------------------
_COUNTS: tuple[tuple[str, Callable[[Doc, int], object], str, int], ...] = (
    ("Ammunition: 6 rounds a figure", lambda d, v: d["units"][0].__setitem__("ammo", v),
     "$.units[0].ammo", 6 * 16),
    ("Ammunition: 6 rounds a gun model", lambda d, v: d["units"][3].__setitem__("ammo", v),
     "$.units[3].ammo", 6),
    ("Effort points", lambda d, v: d["units"][0].__setitem__("effort", v),
     "$.units[0].effort", MAX_EFFORT),
    ("Formation and strength of units",
     lambda d, v: d["units"][0].__setitem__("initial_figures", v),
     "$.units[0].initial_figures", 60),
    ("Ammunition: the train", lambda d, v: d["extra"]["reserves"][0].__setitem__(1, v),
     "$.extra.reserves[0][1]", 6 * sum(1 if u.is_gun else u.figures for u in START.units)),
    ("Prisoners", lambda d, v: d["extra"].__setitem__("prisoners", [["Union", v]]),
     "$.extra.prisoners[0][1]", sum(u.figures for u in START.units if not u.is_gun)),
    ("Melee: its periods", lambda d, v: d["extra"].__setitem__(
        "contacts", [{"attacker": "law", "defender": "scribner", "periods": v}]),
     "$.extra.contacts[0].periods", 1),
    ("Explanation of casualty table: figures awaiting the roll",
     lambda d, v: d["extra"].__setitem__("pending", [["law", {"definite": v, "percent": 0}]]),
     "$.extra.pending[0][1].definite", 600),
    ("Explanation of casualty table: the per cent (M9)",
     lambda d, v: d["extra"].__setitem__("pending", [["law", {"definite": 0, "percent": v}]]),
     "$.extra.pending[0][1].percent", 99),
    ("Battle period (M45)", lambda d, v: d.__setitem__("turn", v), "$.turn", MAX_PERIODS),
)


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(_COUNTS), excess=st.integers(1, 10**18))
def test_a_count_past_its_rule_is_refused_by_its_path(
        case: tuple[str, Callable[[Doc, int], object], str, int], excess: int) -> None:
    """A count over its bound (10**18 included) is refused at its path, never played on."""
    _label, change, path, bound = case
    error = _refused(lambda d: change(d, bound + excess), path)
    assert error.value == bound + excess


def test_the_counts_at_their_bounds_load() -> None:
    for _label, change, _path, bound in _COUNTS:
        if "contacts" in _path or "turn" in _path:
            continue  # a melee at the start, a turn far on: bounds checked by the others
        data = _doc()
        change(data, bound)
        TURN.load(json.dumps(data))


# --- the table: its footprints are the standing units, each as the unit is laid out ------
def _footprint(index: int, **changes: Any) -> Callable[[Doc], object]:
    return lambda d: d["extra"]["table"]["footprints"][index].update(changes)


@pytest.mark.parametrize(("label", "change", "path"), [
    ("a unit renamed: its footprint names nobody",
     lambda d: d["units"][0].__setitem__("id", "renamed"), "$.extra.table.footprints"),
    ("a footprint missing",
     lambda d: d["extra"]["table"]["footprints"].pop(2), "$.extra.table"),
    ("a footprint of the other side", _footprint(0, side="Union"),
     "$.extra.table.footprints['law'].side"),
    ("a ghost's footprint: a unit destroyed",
     lambda d: d["units"][0].__setitem__("status", "destroyed"), "$.extra.table.footprints"),
    ("frontage=5e-324 (Base sizes)", _footprint(0, frontage=5e-324),
     "$.extra.table.footprints[0]"),
    ("a line laid out as a column (Formation)", _footprint(0, formation="column"),
     "$.extra.table.footprints[0]"),
    ("M34: a unit standing on another", _footprint(1, x=350, y=280),
     "$.extra.table.footprints[0]"),
    ("Movement: foot in a river", _footprint(0, x=800, y=640),
     "$.extra.table.footprints[0]"),
    ("Movement: guns in dense woods", _footprint(3, x=180, y=380),
     "$.extra.table.footprints[3]"),
])
def test_footprints_are_the_standing_units_each_as_laid_out(
        label: str, change: Callable[[Doc], object], path: str) -> None:
    _refused(change, path)


def test_new_battle_refuses_units_stacked_or_in_impassable_ground() -> None:
    """Movement (M34): the same check at the start, on the footprints ``new_battle`` lays."""
    units, generals, table = START.units, START.commanders, START.extra.table
    assert table is not None
    law, robertson = table.footprint("law"), START.units[1]
    stacked = table.placed(footprint(robertson, law.x, law.y, law.facing))
    with pytest.raises(InvalidValueError, match=r"extra\.table\.footprints\[0\]"):
        new_battle(START.sides, units, generals, table=stacked)  # type: ignore[arg-type]
    wet = table.placed(footprint(START.units[0], 800, 640, 0))
    with pytest.raises(InvalidValueError, match="ground foot may enter"):
        new_battle(START.sides, units, generals, table=wet)  # type: ignore[arg-type]
    new_battle(START.sides, units, generals, table=table)  # type: ignore[arg-type]


def test_a_state_built_in_python_is_checked_when_loaded_again() -> None:
    """Initiative: a state made past the checks (``attrs.evolve``) does not load back."""
    bad = attrs.evolve(START, extra=attrs.evolve(START.extra, first="nobody"))
    with pytest.raises(LoadError, match=r"\$\.extra\.first"):
        TURN.load(bad.to_json())


# --- fuzz: a mutated document is refused, or plays on and round-trips -------------------
def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [path]


_LEAVES = _leaves(_doc())
_NAMES_USED = sorted({u.id for u in START.units} | {c.id for c in START.commanders}
                     | set(START.sides))
_VALUES = st.one_of(
    st.integers(-3, 70), st.sampled_from([10**18, 10**20, -(10**18)]),
    st.floats(allow_nan=False, allow_infinity=False, width=64), st.sampled_from([5e-324, 1e308]),
    st.sampled_from(_NAMES_USED), st.text(max_size=6), st.booleans(), st.none(),
    st.lists(st.sampled_from(_NAMES_USED), max_size=2, unique=True))


@settings(max_examples=60, deadline=None)
@given(where=st.sampled_from(_LEAVES), value=_VALUES, seed=st.integers(0, 2**16))
def test_fuzz_a_mutated_state_is_refused_or_plays_25_steps_and_round_trips(
        where: tuple[Any, ...], value: Any, seed: int) -> None:
    """Issue 28's proof: any one field of a saved battle changed is refused with a library
    error, or the battle plays 25 random steps, each state writing and loading back."""
    import random

    from smoothbore.core import SmoothboreError

    data = _doc()
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    try:
        state = TURN.load(json.dumps(data))
    except LoadError:
        return
    rng = random.Random(seed)
    for _ in range(25):
        actions = TURN.legal_actions(state)
        if not actions:
            break
        try:
            state, _events = TURN.step(state, rng.choice(actions))
        except SmoothboreError as error:  # listed, then refused: a fault the check missed
            raise AssertionError(f"{where}={value!r}: {error!r}") from error
        assert TURN.load(state.to_json()) == state


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d["options"]["tables"]["bases"][0].__setitem__(0, "general"),
     "$.options.tables.bases"),
    (lambda d: d["options"]["tables"]["bases"][0].__setitem__(1, 10**18),
     "$.options.tables (Tables.bases[foot].frontage)"),
    (lambda d: d["options"]["tables"]["movement"].pop(0), "$.options.tables.movement"),
    (lambda d: d["options"]["tables"]["weapons"].pop(0), "$.options.tables.weapons"),
])
def test_base_sizes_and_tables_name_every_kind_once(change: Callable[[Doc], object],
                                                    path: str) -> None:
    """Base sizes, Movement, Small arms and artillery fire: a loaded state's tables name each
    kind their rules read once, in range (the fuzz run found a raw StopIteration here)."""
    _refused(change, path)
