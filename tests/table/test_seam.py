"""The table seam (issue 29, item 1): a book's ``TableRules``, the one keeper of the table
(``keep_in_step``, the engine's ``after`` hook ``KeptInStep``) and the one bounded, named
store (``Table.store``). A toy book of the table's own; McKie read as an example."""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, DiceState, InvalidValueError, Log
from smoothbore.core.engine import Kept
from smoothbore.table import CommanderMark, Footprint, Formation, Table
from smoothbore.table.seam import (
    Anchor,
    AnswerStore,
    KeptInStep,
    Shape,
    TableRules,
    keep_in_step,
)


@attrs.frozen
class Unit:
    id: str
    name: str
    side: str
    formation: str = "line"
    bases: int = 4
    lost: bool = False


@attrs.frozen
class Commander:
    id: str
    name: str
    side: str
    with_unit: str | None = None
    fallen: bool = False


@attrs.frozen
class Extra:
    table: Table | None = None


@attrs.frozen
class Options:
    pass


def toy_shape(unit: Unit) -> Shape:
    """Bases 2" x 1": abreast in line, one behind another in column."""
    layout = Formation.LINE if unit.formation == "line" else Formation.COLUMN
    return Shape(unit.bases, 2.0, 1.0, layout)


def toy_stands(unit: Unit) -> bool:
    return not unit.lost


def toy_with(commander: Commander) -> str | None:
    return commander.with_unit


def toy_in_battle(commander: Commander) -> bool:
    return not commander.fallen


RULES = TableRules("toy", toy_shape, toy_stands, commander_with=toy_with,
                   commander_stands=toy_in_battle)
FRONT = attrs.evolve(RULES, anchor=Anchor.FRONT)


def battle(*units: Unit, commanders: tuple[Commander, ...] = ()) -> BattleState:  # type: ignore[type-arg]
    """Each unit's footprint at x = 10, 25, 40 ... y = 10, facing up the table, from
    ``RULES``; each commander's mark with the unit he is with."""
    fps = [RULES.footprint(u, 10.0 + 15 * i, 10.0, 0.0) for i, u in enumerate(units)]
    marks = [CommanderMark(c.id, attached_to=c.with_unit, side=c.side) if c.with_unit
             else CommanderMark(c.id, 30.0, 2.0, side=c.side) for c in commanders]
    table = Table(60, 40, footprints=fps, commanders=marks)
    return BattleState("toy", ("red", "blue"), units, commanders, Extra(table), Options(),
                       DiceState(1))


A = Unit("A", "1st", "red")
B = Unit("B", "2nd", "blue")


def test_a_reformed_unit_is_relaid_about_its_centre() -> None:
    # A's line: 4 bases of 2" abreast, 8" x 1", centre (10, 10); a column of 4 is 2" x 4"
    # about the same centre
    start = battle(A, B)
    state = start.with_units(attrs.evolve(A, formation="column"))
    kept = keep_in_step(RULES, start, state)
    fp = kept.extra.table.footprint("A")
    assert (fp.formation, fp.width, fp.length, fp.x, fp.y) == (Formation.COLUMN, 2.0, 4.0,
                                                               10.0, 10.0)
    assert kept.extra.table.footprint("B") is start.extra.table.footprint("B")


def test_a_unit_anchored_on_its_front_keeps_its_front_edge() -> None:
    # the line's front edge middle is (10, 10.5); a column 4" deep behind it: centre 8.5
    start = battle(A, B)
    state = start.with_units(attrs.evolve(A, formation="column"))
    fp = keep_in_step(FRONT, start, state).extra.table.footprint("A")
    assert fp.front_centre == pytest.approx((10.0, 10.5))
    assert (fp.x, fp.y) == pytest.approx((10.0, 8.5))


def test_a_reform_over_the_edge_is_shifted_back_on() -> None:
    # a column of 12 bases is 12" deep: about y = 10 it would reach y = 4 .. 16, on; at
    # y = 3 (6 bases column, 6" deep, centre 3) it would reach y = 0 .. 6: on; one of 10
    # reaches -2: shifted up 2
    fps = (Footprint("A", 30, 3, 0, 4, 2.0, 1.0, Formation.LINE, side="red"),)
    table = Table(60, 40, footprints=fps)
    start = BattleState("toy", ("red", "blue"), (A,), (), Extra(table), Options(),
                        DiceState(1))
    state = start.with_units(attrs.evolve(A, formation="column", bases=10))
    fp = keep_in_step(RULES, start, state).extra.table.footprint("A")
    assert fp.bounds[1] == pytest.approx(0.0)
    assert (fp.x, fp.y) == pytest.approx((30.0, 5.0))


def test_a_lost_unit_leaves_and_its_commander_rides_alone_where_it_stood() -> None:
    start = battle(A, B, commanders=(Commander("c", "Webster", "red", "A"),))
    state = start.with_units(attrs.evolve(A, lost=True))
    table = keep_in_step(RULES, start, state).extra.table
    assert table.unit_ids == ("B",)
    mark = table.commander("c")
    assert (mark.attached_to, mark.x, mark.y) == (None, 10.0, 10.0)


def test_commanders_follow_the_units_they_join_and_fallen_ones_leave() -> None:
    start = battle(A, B, Unit("C", "3rd", "red"),
                   commanders=(Commander("c", "Webster", "red", "A"),
                               Commander("d", "Howard", "red", None)))
    joined = start.with_commanders(Commander("c", "Webster", "red", "C"),
                                   Commander("d", "Howard", "red", None, fallen=True))
    table = keep_in_step(RULES, start, joined).extra.table
    assert [m.commander_id for m in table.commanders] == ["c"]
    assert table.commander("c").attached_to == "C"
    assert table.commander_point("c") == (40.0, 10.0)
    left = start.with_commanders(Commander("c", "Webster", "red", None))
    mark = keep_in_step(RULES, start, left).extra.table.commander("c")
    assert (mark.attached_to, mark.x, mark.y) == (None, 10.0, 10.0)


def test_nothing_changed_is_the_very_same_state() -> None:
    start = battle(A, B, commanders=(Commander("c", "Webster", "red", "A"),))
    assert keep_in_step(RULES, start, start) is start
    assert keep_in_step(RULES, None, start) is start
    renamed = start.with_units(attrs.evolve(A, name="1st Foot"))
    assert keep_in_step(RULES, start, renamed) is renamed


def sent_home(state: BattleState, action: object, log: Log) -> BattleState:  # type: ignore[type-arg]
    """A handler that loses a unit through core's ``with_units`` and nothing else (the Bolt
    Action brigade sent home by a failed army test left its footprints on the table)."""
    return state.with_units(attrs.evolve(state.units[0], lost=True))


def test_the_engine_hook_keeps_the_table_whatever_the_handler_called() -> None:
    start = battle(A, B, commanders=(Commander("c", "Webster", "red", "A"),))
    handler = Kept(sent_home, RULES.stands, KeptInStep(RULES))
    new = handler(start, None, Log(start.dice.dice()))
    assert new.extra.table.unit_ids == ("B",)
    assert new.extra.table.commander("c").attached_to is None
    # and the hook alone, without the engine's stands, keeps it whole too
    alone = Kept(sent_home, None, KeptInStep(RULES))(start, None, Log(start.dice.dice()))
    assert alone.extra.table.unit_ids == ("B",)
    assert pickle.loads(pickle.dumps(KeptInStep(RULES))) == KeptInStep(RULES)


def test_bad_rules_name_the_field() -> None:
    with pytest.raises(InvalidValueError, match="TableRules.shape"):
        TableRules("toy", 5)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="TableRules.half_angle"):
        TableRules("toy", toy_shape, half_angle=200)
    with pytest.raises(InvalidValueError, match="AnswerStore.most"):
        AnswerStore("s", most=0)
    assert TableRules("toy", toy_shape, half_angle=lambda u: 180.0).arc(A) == 180.0


def test_the_rules_ask_sightings_with_each_firers_arc() -> None:
    # A (10, 10) faces up the table; B at (25, 10) stands level with it, 90 degrees off its
    # front: out of a 45-degree arc, inside a skirmisher's all-round 180
    start = battle(A, B)
    (narrow,) = RULES.sightings(start, [("A", "B")])
    assert not narrow.in_arc and narrow.angle == pytest.approx(90.0, abs=1e-9)
    wide = attrs.evolve(RULES, half_angle=lambda u: 180.0 if u.id == "A" else 45.0)
    (seen,) = wide.sightings(start, [("A", "B")])
    assert seen.in_arc and seen.distance == pytest.approx(7.0)
    bare = BattleState("toy", ("red", "blue"), (A,), (), Extra(None), Options(), DiceState(1))
    with pytest.raises(InvalidValueError, match="state"):
        RULES.sightings(bare)


# --- the store ------------------------------------------------------------------------------
def test_the_store_counts_hits_and_misses_and_keeps_first_answers() -> None:
    store = AnswerStore("sight", most=8, chunk=4)
    calls = []

    def work() -> int:
        calls.append(1)
        return len(calls)

    assert store.ask("k", work) == 1
    assert store.ask("k", work) == 1
    store.put("k", 99)  # written once: the first answer stays
    assert store.get("k") == 1 and store.get("other", "none") == "none"
    c = store.counts()
    assert (c.name, c.answers, c.most, c.hits, c.misses) == ("sight", 1, 8, 2, 2)
    assert c.hit_rate == 0.5


def test_the_store_is_bounded_forgetting_its_oldest_generation() -> None:
    store = AnswerStore("s", most=4, chunk=2)
    for k in range(5):
        store.put(k, k * 10)
    # generations {0, 1} {2, 3} {4}: past 4 answers the oldest is forgotten whole
    assert len(store) == 3
    assert 0 not in store and 1 not in store
    assert [store.get(k) for k in (2, 3, 4)] == [20, 30, 40]


def test_a_store_goes_with_a_line_of_tables_and_no_further() -> None:
    start = battle(A, B, commanders=(Commander("c", "Webster", "red", "A"),))
    table = start.extra.table
    store = table.store("toy: answers")
    store.put(("A", table.footprint("A")), "seen")
    moved = table.placed(table.footprint("B").moved_to(30, 20))
    later = moved.removed("A").with_commanders(CommanderMark("c", 5, 5)).with_traces()
    assert later.store("toy: answers") is store
    assert later.store("toy: answers").get(("A", table.footprint("A"))) == "seen"
    # an equal table made afresh (another battle) has a store of its own
    other = Table(60, 40, footprints=table.footprints, commanders=table.commanders)
    assert other == table and other.store("toy: answers") is not store
    assert pickle.loads(pickle.dumps(table)).store("toy: answers") is not store
    (counts,) = [c for c in later.stores() if c.name == "toy: answers"]  # (and the terrain's)
    assert (counts.name, counts.answers, counts.hits, counts.misses) == (
        "toy: answers", 1, 1, 0)


# --- a book as an example (McKie ACW, read only) ----------------------------------------------
def test_mckie_described_as_table_rules_keeps_its_table_as_its_own_keeper_does() -> None:
    from smoothbore.mckie_acw import RULESET
    from smoothbore.mckie_acw.positions import footprint, synced
    from smoothbore.mckie_acw.units import Formation as McKieFormation
    from smoothbore.mckie_acw.units import changed

    def shape(unit: object) -> Shape:
        fp = footprint(unit, 0.0, 0.0, 0.0)  # type: ignore[arg-type]
        return Shape(fp.bases, fp.frontage, fp.depth, fp.formation, fp.spacing)

    rules = TableRules("mckie_acw", shape, lambda u: u.on_table, measure="mm",
                       commander_with=lambda c: c.attached_to or None,
                       commander_stands=lambda c: c.active)
    start = RULESET.battle("default")(3)
    foot = next(u for u in start.units if u.formation is McKieFormation.LINE
                and u.id in start.extra.table.units)
    state = start.with_units(changed(foot, formation=McKieFormation.COLUMN))
    ours = keep_in_step(rules, start, state).extra.table
    theirs = synced(state).extra.table
    assert ours.footprint(foot.id) == theirs.footprint(foot.id)
    assert ours.footprint(foot.id) != start.extra.table.footprint(foot.id)
    assert ours.footprints == theirs.footprints
    assert ours.commanders == theirs.commanders


@attrs.frozen
class SizedOptions:
    frontage: float = 2.0


@attrs.frozen
class Sized:
    """A battle whose base sizes are its options (McKie's own bases.toml)."""

    units: tuple[Unit, ...]
    commanders: tuple[Commander, ...]
    extra: Extra
    options: SizedOptions

    def with_extra(self, **changes: object) -> Sized:
        return attrs.evolve(self, extra=attrs.evolve(self.extra, **changes))


def sized_shape(unit: Unit, state: Sized) -> Shape:
    layout = Formation.LINE if unit.formation == "line" else Formation.COLUMN
    return Shape(unit.bases, state.options.frontage, 1.0, layout)


def note_relaid(state: Sized, unit_ids: tuple[str, ...]) -> Sized:
    return attrs.evolve(state, commanders=tuple(
        attrs.evolve(c, name=f"saw {','.join(unit_ids)}") for c in state.commanders))


def test_a_shape_that_reads_the_state_and_the_relaid_hook() -> None:
    # bases 3" wide by the battle's options: a line of 4 is 12" wide; the hook hears "A"
    rules = TableRules("sized", sized_shape, shape_reads_state=True, relaid=note_relaid)
    options = SizedOptions(3.0)
    fp = rules.footprint(A, 20, 10, 0, state=Sized((A,), (), Extra(None), options))
    assert fp.width == 12.0
    table = Table(60, 40, footprints=(fp,))
    start = Sized((A,), (Commander("c", "Webster", "red"),), Extra(table), options)
    state = attrs.evolve(start, units=(attrs.evolve(A, formation="column"),))
    kept = keep_in_step(rules, start, state)
    moved = kept.extra.table.footprint("A")
    assert (moved.formation, moved.width, moved.length) == (Formation.COLUMN, 3.0, 4.0)
    assert kept.commanders[0].name == "saw A"
    # nothing re-laid: the hook is not called, the very same state comes back
    assert keep_in_step(rules, kept, kept) is kept


def no_asking(_: object) -> bool:
    raise AssertionError("asked of a step that changed nothing")


def test_a_step_that_changed_nothing_is_not_walked() -> None:
    # the very units, commanders and table the step began with: the state as it is, no unit
    # or commander asked about (Bloodybacks: most steps draw a card or fail an activation)
    rules = TableRules("toy", toy_shape, no_asking, commander_with=no_asking,  # type: ignore[arg-type]
                       commander_stands=no_asking)
    start = battle(A, B, commanders=(Commander("c", "Webster", "red", "A"),))
    assert keep_in_step(rules, start, start) is start
    drawn = attrs.evolve(start, dice=DiceState(2))  # a card drawn: the same units
    assert keep_in_step(rules, start, drawn) is drawn


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=120), st.integers(1, 6), st.integers(1, 4))
def test_the_store_answers_as_generations_of_dictionaries(keys: list[int], chunks: int,
                                                         chunk: int) -> None:
    # the plain model: generations of at most ``chunk`` new keys, the oldest dropped whole
    # past ``most``; a kept key keeps its first answer; one lookup must give the same
    most = chunks * chunk
    store = AnswerStore("model", most=most, chunk=chunk)
    young: dict[int, int] = {}
    old: list[dict[int, int]] = []
    for step, key in enumerate(keys):
        known = next((g[key] for g in (young, *reversed(old)) if key in g), None)
        assert store.get(key) == known
        store.put(key, step)
        if known is None:
            if len(young) >= min(chunk, most):
                old.append(young)
                young = {}
                while (len(old) + 1) * min(chunk, most) > most:
                    old.pop(0)
            young[key] = step
        assert len(store) == len(young) + sum(len(g) for g in old)


def test_a_work_that_asks_the_store_itself_keeps_the_first_answer() -> None:
    # a store of one answer: the work puts the very key (and forgets the one before)
    store = AnswerStore("nested", most=1, chunk=1)
    store.put("a", 1)

    def work() -> int:
        store.put("k", 2)
        return 3

    assert store.ask("k", work) == 3 and store.get("k") == 2 and len(store) == 1
    store.put("b", 4)  # forgets "k" once, cleanly
    assert "k" not in store and store.get("b") == 4 and len(store) == 1
