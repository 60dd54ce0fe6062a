"""Generals on the table (issue #10): their marks, rides measured from where they are, marks
following them as they join, leave and fall (W-decisions in docs/interpretations/will_awi.md)."""

from __future__ import annotations

import math

import attrs
import pytest

from smoothbore.core import BattleState, IllegalActionError, InvalidValueError
from smoothbore.table import CommanderMark, Table, keep_in_step
from smoothbore.will_awi import scenarios
from smoothbore.will_awi.actions import MoveGeneral, Order
from smoothbore.will_awi.command import OrderFacts, order_target
from smoothbore.will_awi.on_table import RULES
from smoothbore.will_awi.options import Options
from smoothbore.will_awi.positions import deploy
from smoothbore.will_awi.situations import order_facts
from smoothbore.will_awi.state import Extra, State, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, GeneralState, Rank, TroopType, Unit

from .turn_helpers import to_phase

UNITS = (
    Unit("r1", "Foot", "red", TroopType.LINE, commander="rb"),
    Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, commander="rb"),
    Unit("b1", "Continentals", "blue", TroopType.LINE, commander="bb"),
    Unit("b2", "Militia", "blue", TroopType.MILITIA, commander="bb"),
)
PLACES = {"r1": (10.0, 8.0, 0.0), "r2": (30.0, 8.0, 0.0),
          "b1": (10.0, 28.0, 180.0), "b2": (30.0, 28.0, 180.0)}


def table_battle(*, rb: Commander | None = None,
                 marks: tuple[CommanderMark, ...] | None = None) -> State:
    """Webster alone at (10, 4), 4" behind the foot (centre (10, 8)) and hypot(20, 4) =
    20.396" from the dragoons (centre (30, 8)); Greene with the Continentals."""
    gens = (rb or Commander("rb", "Webster", "red", rating=8),
            Commander("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1"))
    table = deploy(UNITS, PLACES).with_commanders(*(marks if marks is not None else (
        CommanderMark("rb", 10.0, 4.0, side="red"),
        CommanderMark("bb", attached_to="b1", side="blue"))))
    return new_battle(("red", "blue"), UNITS, gens, table=table)


def _table(state: State) -> Table:
    assert state.extra.table is not None
    return state.extra.table


def test_every_embedded_battle_on_a_table_places_every_general_on_his_side() -> None:
    for name, build in scenarios.SCENARIOS:
        state = build(0)
        table = state.extra.table
        if table is None:
            continue
        marks = {m.commander_id: m for m in table.commanders}
        assert set(marks) == {g.id for g in state.commanders}, name
        for g in state.commanders:
            assert marks[g.id].side == g.side, name
            assert marks[g.id].attached_to == (g.attached_to or None), name
            if not g.attached_to:  # behind his own line, on the table
                x, y = table.commander_point(g.id)
                own = [f.y for f in table.footprints if f.side == g.side]
                assert 0 <= x <= table.width
                assert (y < min(own)) if min(own) < table.depth / 2 else (y > max(own)), name


def test_the_ride_is_measured_from_where_he_stands() -> None:
    s = to_phase(table_battle(), "C")
    after, events = TURN.step(s, MoveGeneral("rb", 0.0, "r1"))
    assert events[-1].text == 'Webster rides 4" and joins Foot'
    assert _table(after).commander("rb").attached_to == "r1"
    assert _table(after).commander_point("rb") == (10.0, 8.0)
    # the dragoons are 20.396" away: within 21", and listed
    assert MoveGeneral("rb", 0.0, "r2") in TURN.legal_actions(s)
    after, events = TURN.step(s, MoveGeneral("rb", 0.0, "r2"))
    assert events[-1].text == 'Webster rides 20.4" and joins Dragoons'


def test_a_wounded_general_cannot_reach_what_the_table_puts_beyond_half_a_ride() -> None:
    hurt = Commander("rb", "Webster", "red", rating=8, light_wounds=1)
    s = to_phase(table_battle(rb=hurt), "C")
    legal = TURN.legal_actions(s)
    assert MoveGeneral("rb", 0.0, "r1") in legal  # 4" <= 10.5"
    assert MoveGeneral("rb", 0.0, "r2") not in legal  # 20.4" > 10.5"
    with pytest.raises(IllegalActionError, match='Dragoons is 20.4" from Webster'):
        TURN.step(s, MoveGeneral("rb", 0.0, "r2"))
    assert math.hypot(20, 4) > 10.5


def test_the_table_refuses_a_distance_given_by_the_caller() -> None:
    s = to_phase(table_battle(), "C")
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(s, MoveGeneral("rb", 4.0, "r1"))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.step(s, MoveGeneral("rb", 5.0))


def test_a_general_leaving_his_unit_stays_alone_at_its_centre() -> None:
    with_foot = Commander("rb", "Webster", "red", rating=8, attached_to="r1")
    s = to_phase(table_battle(rb=with_foot), "C")
    # the mark put down alone is brought to the unit he starts with
    assert _table(s).commander("rb").attached_to == "r1"
    layout = _table(s).layout
    after, events = TURN.step(s, MoveGeneral("rb"))
    assert events[-1].text == "Webster leaves Foot"
    mark = _table(after).commander("rb")
    assert mark.attached_to is None and (mark.x, mark.y) == (10.0, 8.0)
    # only his mark moved: the new table keeps the footprints' layout already worked out
    assert _table(after).footprints == _table(s).footprints
    assert _table(after).layout is layout


def test_a_fallen_general_leaves_the_table_in_the_same_step() -> None:
    s = table_battle()
    for fate in (GeneralState.DEAD, GeneralState.CAPTURED, GeneralState.INCAPACITATED):
        fallen = s.with_commanders(attrs.evolve(s.commander("bb"), state=fate, attached_to=""))
        synced = keep_in_step(RULES, s, fallen)
        assert [m.commander_id for m in _table(synced).commanders] == ["rb"]
        after = TURN.after  # the engine keeps it so after every step, whatever the handler did
        assert after is not None and _table(after(s, fallen)).commanders == _table(
            synced).commanders
    assert keep_in_step(RULES, s, s) is s  # nothing changed: the very same state


def test_marks_are_checked_against_the_generals() -> None:
    with pytest.raises(InvalidValueError, match="blue"):
        table_battle(marks=(CommanderMark("rb", 10.0, 4.0, side="blue"),))
    with pytest.raises(InvalidValueError, match="a commander of the battle"):
        table_battle(marks=(CommanderMark("xx", 10.0, 4.0, side="red"),))


def test_every_listed_ride_is_accepted_and_every_unlisted_join_refused() -> None:
    hurt = Commander("rb", "Webster", "red", rating=8, light_wounds=1)
    for s in (to_phase(table_battle(), "C"), to_phase(table_battle(rb=hurt), "C")):
        listed = {a for a in TURN.legal_actions(s) if isinstance(a, MoveGeneral)}
        for unit in ("", "r1", "r2", "b1"):
            action = MoveGeneral("rb", 0.0, unit)
            try:
                TURN.step(s, action)
            except IllegalActionError:
                assert action not in listed
            else:
                assert action in listed


BASE = 45 / 25.4
"""A base's side in inches: a line of two is 2 BASE wide and BASE deep."""


def ordering_battle(*, cinc_at: tuple[float, float] | None = None) -> State:
    """``table_battle`` with command and control, and a C in C of red at ``cinc_at``."""
    gens = [Commander("rb", "Webster", "red", rating=8, superior="rc" if cinc_at else ""),
            Commander("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1")]
    marks = [CommanderMark("rb", 10.0, 4.0, side="red"),
             CommanderMark("bb", attached_to="b1", side="blue")]
    if cinc_at:
        gens.append(Commander("rc", "Clinton", "red", Rank.CINC, rating=9))
        marks.append(CommanderMark("rc", *cinc_at, side="red"))
    table = deploy(UNITS, PLACES).with_commanders(*marks)
    return new_battle(("red", "blue"), UNITS, tuple(gens), table=table,
                      options=Options(command_control=True, cinc_bonus=True))


def test_order_facts_are_measured_from_the_commanders_point() -> None:
    s = to_phase(ordering_battle(), "C")
    near = order_facts(s, "rb", "r1")
    far = order_facts(s, "rb", "r2")
    assert near is not None and far is not None
    # (10, 4) to the foot's rear edge at y = 8 - BASE/2: 4 - 0.886 = 3.114"
    assert near.distance == pytest.approx(4 - BASE / 2)
    # to the dragoons' near corner (30 - BASE, 8 - BASE/2): 18.49", one 12" step
    assert far.distance == pytest.approx(math.hypot(20 - BASE, 4 - BASE / 2))
    assert order_target(s.commander("rb"), s.unit("r1"), near).total == 8
    assert order_target(s.commander("rb"), s.unit("r2"), far).total == 7
    assert not near.attached and not near.cinc_within_6


def test_a_group_order_needs_its_farthest_units_target() -> None:
    s = to_phase(ordering_battle(), "C")
    _, events = TURN.step(s, Order("rb", "r1", with_units=("r2",)))
    # rating 8, -1 group move, -1 for the dragoons 18.5" away
    assert "needs 6 or less" in events[-1].rolls[0].reason


def test_the_cinc_near_the_commander_is_measured() -> None:
    near = order_facts(to_phase(ordering_battle(cinc_at=(14.0, 4.0)), "C"), "rb", "r1")
    far = order_facts(to_phase(ordering_battle(cinc_at=(16.5, 4.0)), "C"), "rb", "r1")
    assert near is not None and near.cinc_within_6  # 4" from Webster
    assert far is not None and not far.cinc_within_6  # 6.5"


def test_an_order_on_a_table_refuses_every_measured_fact() -> None:
    """Command & Control (March 2008): on a table the distance, his riding with the unit,
    his sight of it and the C in C within 6" are all measured; the caller gives none."""
    s = to_phase(ordering_battle(), "C")
    for facts in (OrderFacts(distance=15.0), OrderFacts(attached=True),
                  OrderFacts(cinc_within_6=True), OrderFacts(in_sight=False)):
        with pytest.raises(IllegalActionError, match="the table measures this"):
            TURN.step(s, Order("rb", "r1", facts))


def test_out_of_sight_of_the_commander_is_measured() -> None:
    """Issue 27 (Command & Control - Ideas (2): "-2 If out of sight of the commander"; W49):
    a farmhouse 2" square centred on (20, 6) stands on the line from Webster (alone at
    (10, 4)) to the dragoons' nearest corner, not on the line to the foot just ahead of him:
    the dragoons are out of his sight (rating 8, -1 for 18.5", -2: needs 5), the foot in
    it (needs 8); with no farmhouse both are in sight."""
    from smoothbore.table import Feature
    from smoothbore.will_awi.situations import commander_sees

    farm = Feature.rectangle("farm", "building", 20.0, 6.0, 2.0, 2.0, label="farmhouse")
    gens = (Commander("rb", "Webster", "red", rating=8),
            Commander("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1"))
    marks = (CommanderMark("rb", 10.0, 4.0, side="red"),
             CommanderMark("bb", attached_to="b1", side="blue"))
    for features, dragoons_seen in (((farm,), False), ((), True)):
        table = deploy(UNITS, PLACES, features=features).with_commanders(*marks)
        s = to_phase(new_battle(("red", "blue"), UNITS, gens, table=table,
                                options=Options(command_control=True)), "C")
        assert commander_sees(_table(s), "rb", "r1")
        assert commander_sees(_table(s), "rb", "r2") is dragoons_seen
        far = order_facts(s, "rb", "r2")
        assert far is not None and far.in_sight is dragoons_seen
        _, events = TURN.step(s, Order("rb", "r2"))
        need = 7 if dragoons_seen else 5
        assert f"needs {need} or less" in events[-1].rolls[0].reason
        _, events = TURN.step(s, Order("rb", "r1"))
        assert "needs 8 or less" in events[-1].rolls[0].reason
    assert commander_sees(_table(s), "bb", "b1")  # he rides with it


def test_marks_are_saved_and_loaded_with_the_state() -> None:
    s = to_phase(table_battle(), "C")
    s, _ = TURN.step(s, MoveGeneral("rb", 0.0, "r2"))
    back = BattleState.from_json(s.to_json(), Unit, Commander, Extra, Options)
    assert back == s
    assert _table(back).commander("rb").attached_to == "r2"
