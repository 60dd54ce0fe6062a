"""Rules - Melee on a table (steps_melee): the units a melee retires go straight back on the
table, the way a shaken unit's retirement goes (situations.retirement)."""

from __future__ import annotations

import math
import random
import re

import attrs
import pytest
import shapely

from smoothbore.table import Table
from smoothbore.will_awi import RULESET, rules
from smoothbore.will_awi.actions import (
    CompulsoryMove,
    DeclareCharge,
    EndPhase,
    ResolveMelee,
    TestCharged,
)
from smoothbore.will_awi.charges import ChargedResult
from smoothbore.will_awi.melee import Effect
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.situations import retirement
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, TroopType, Unit

from .test_situations import UNITS
from .turn_helpers import to_phase

HALF = BASE / 2
CONTACT = 20 - BASE
"""Where the foot's centre stands once its charge on the Continentals (at y 20) strikes."""



def on_table(places: dict[str, Place], seed: int, **more: Unit) -> State:
    """Red (to move) and blue on a 48" x 36" table, only the units placed (``more`` replace
    those of ``UNITS``)."""
    known = {**UNITS, **more}
    units = tuple(known[k] for k in places)
    table = deploy(units, places, width=48, depth=36)
    return new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                      table=table, seed=seed)


def fought(places: dict[str, Place], charger: str, target: str, wanted: set[Effect],
           loser: str | None = None) -> tuple[State, State, list[str]]:
    """The first seed whose charge of ``charger`` on ``target`` stands and whose melee has
    one of the ``wanted`` effects (and that loser): the state before the melee, after it
    and the texts of the retire events."""
    for seed in range(400):
        s = to_phase(on_table(places, seed), "F")
        s, _ = TURN.step(s, DeclareCharge(charger, target))
        s, _ = TURN.step(s, EndPhase())
        s, _ = TURN.step(s, TestCharged(target))
        if s.extra.tests[0].result is not ChargedResult.STANDS:
            continue
        s = to_phase(s, "J")
        after, events = TURN.step(s, ResolveMelee(target))
        outcome = events[0].text
        effect = next((e for e in wanted if _says(outcome, e)), None)
        if effect is None or (loser is not None and not _lost(after, loser, effect)):
            continue
        texts = [e.text for e in events if e.kind == "retire"]
        assert all(e.rule == rules.MELEE for e in events if e.kind == "retire")
        return s, after, texts
    raise AssertionError("no seed gave the result")


def _says(text: str, effect: Effect) -> bool:
    return {Effect.RETIRE_SHAKEN: 'retires 3" shaken', Effect.BOTH_RETIRE: "both sides retire",
            Effect.ROUT: "routs,"}[effect] in text


def _lost(after: State, loser: str, effect: Effect) -> bool:
    unit = after.unit(loser)
    return unit.shaken if effect is Effect.RETIRE_SHAKEN else unit.routing


def _at(state: State, unit: str) -> tuple[float, float, float]:
    table = state.extra.table
    assert table is not None
    f = table.footprint(unit)
    return f.x, f.y, f.facing


FACING = {"r1": (20, CONTACT - 2, 0), "b1": (20, 20, 180)}
"""Foot 2" from the Continentals' front, face to face: its charge strikes at ``CONTACT``."""


def test_the_loser_by_one_goes_back_exactly_3_inches_facing_as_it_was() -> None:
    """Rules - Melee: the loser by 1 "will retire 3"": straight back keeping its facing, the
    winner stays."""
    before, after, texts = fought(FACING, "r1", "b1", {Effect.RETIRE_SHAKEN}, "r1")
    assert _at(before, "r1") == pytest.approx((20, CONTACT, 0))
    assert _at(after, "r1") == pytest.approx((20, CONTACT - 3, 0))
    assert _at(after, "b1") == (20, 20, 180)
    assert texts == ['Foot retires 3" straight back, keeping its facing']
    table = after.extra.table
    assert table is not None
    (x0, y0), (x1, y1) = table.traces[-1].path
    assert (x0, y0, x1, y1) == pytest.approx((20, CONTACT, 20, CONTACT - 3))
    _, beaten, _ = fought(FACING, "r1", "b1", {Effect.RETIRE_SHAKEN}, "b1")
    assert _at(beaten, "b1") == pytest.approx((20, 23, 180))
    assert _at(beaten, "r1") == pytest.approx((20, CONTACT, 0))


def test_a_draw_moves_both_sides_3_inches() -> None:
    """Rules - Melee: "If the scores are equal both sides will retire 3"."""
    _, after, texts = fought(FACING, "r1", "b1", {Effect.BOTH_RETIRE})
    assert _at(after, "r1") == pytest.approx((20, CONTACT - 3, 0))
    assert _at(after, "b1") == pytest.approx((20, 23, 180))
    assert texts == ['Foot retires 3" straight back, keeping its facing',
                     'Continentals retires 3" straight back, keeping its facing']


def test_a_unit_behind_the_loser_stops_it_short() -> None:
    """Grenadiers 0.5" behind the foot, 1.5" once it has charged 1" (their front edge at
    CONTACT - HALF - 1.5): the foot retires 1.5" and stops touching them; touching them, it cannot
    go at all."""
    places = {"r1": (20, CONTACT - 1, 0), "b1": (20, 20, 180),
              "r3": (20, CONTACT - BASE - 1.5, 0)}
    _, after, texts = fought(places, "r1", "b1", {Effect.RETIRE_SHAKEN}, "r1")
    assert _at(after, "r1") == pytest.approx((20, CONTACT - 1.5, 0))
    assert texts == ['Foot retires 1.5" of its 3" straight back, keeping its facing: '
                     "Grenadiers stops it"]
    touching = {"r1": (20, CONTACT, 0), "b1": (20, 20, 180), "r3": (20, CONTACT - BASE, 0)}
    s = on_table(touching, 1)
    assert retirement(s, s.unit("r1"), 3.0, False).end == _footprint(s, "r1")


def test_the_other_units_of_a_melee_retire_3_inches_too() -> None:
    """Rules - Melee: "any others will retire 3"": the militia beside the Continentals (flank
    to flank, x 20 + 2 x BASE, touching the foot's front corner) defend with them, as the
    table measures (W25); beaten by 1, the Continentals take the result and both go back
    3"."""
    places = {**FACING, "b2": (20 + 2 * BASE, 20, 180)}
    _, after, texts = fought(places, "r1", "b1", {Effect.RETIRE_SHAKEN}, "b1")
    assert _at(after, "b1") == pytest.approx((20, 23, 180))
    assert _at(after, "b2") == pytest.approx((20 + 2 * BASE, 23, 180))
    assert _at(after, "r1") == pytest.approx((20, CONTACT, 0))
    assert texts == ['Continentals retires 3" straight back, keeping its facing',
                     'Militia retires 3" straight back, keeping its facing']


def _footprint(state: State, unit: str) -> object:
    table = state.extra.table
    assert table is not None
    return table.footprint(unit)


def test_the_table_edge_stops_it() -> None:
    """The Continentals' rear edge 1.5" from the far edge (y 36): beaten or drawn, they go
    1.5"."""
    y = 36 - HALF - 1.5
    places = {"r1": (20, y - BASE - 2, 0), "b1": (20, y, 180)}
    _, after, texts = fought(places, "r1", "b1", {Effect.RETIRE_SHAKEN, Effect.BOTH_RETIRE})
    assert _at(after, "b1") == pytest.approx((20, 36 - HALF, 180))
    assert 'Continentals retires 1.5" of its 3" straight back, keeping its facing: the table ' \
        "edge stops it" in texts


def test_a_unit_struck_in_the_flank_slides_back_past_its_charger() -> None:
    """Dragoons in the Continentals' flank (their front along its left face, x 20 - BASE;
    the dragoons' centre HALF behind it):
    beaten by 1 the Continentals go back 3" along the dragoons' front, not stopped by them;
    the dragoons retiring would go 3" away from the flank (the table's straight-ahead
    reach stops a unit at one it touches, even going away: W49)."""
    places = {"r2": (14, 20, 90), "b1": (20, 20, 180)}
    _, beaten, _ = fought(places, "r2", "b1", {Effect.RETIRE_SHAKEN}, "b1")
    assert _at(beaten, "b1") == pytest.approx((20, 23, 180))
    assert _at(beaten, "r2") == pytest.approx((20 - BASE - HALF, 20, 90))
    before, _, _ = fought(places, "r2", "b1", {Effect.RETIRE_SHAKEN}, "b1")
    away = retirement(before, before.unit("r2"), 3.0, False).end
    assert (away.x, away.y, away.facing) == pytest.approx((20 - BASE - HALF - 3, 20, 90))


def test_a_unit_struck_in_the_flank_at_89_9_degrees_slides_back_past_its_charger() -> None:
    """Issue 27 (Rules - Melee: "retire 3""; Rules - Morale: Testing shaken units, "retire a
    full move"; W26a): the Continentals turned 0.1 degrees (facing 179.9), so the dragoons
    strike their flank at 89.9 degrees (Prestonpans, seed 1, Gardiner's Dragoons). Straight
    back runs a hair's angle into the dragoons' front; the loser slides back along it the
    whole 3", and its shaken retirement in B (turned about, 12") goes the whole way too,
    instead of both going 0" and the unit being fought again."""
    places = {"r2": (14, 20, 90), "b1": (20, 20, 179.9)}
    before, beaten, texts = fought(places, "r2", "b1", {Effect.RETIRE_SHAKEN}, "b1")
    assert _at(beaten, "b1") == pytest.approx((20, 23, 179.9))
    assert texts == ['Continentals retires 3" straight back, keeping its facing']
    full = retirement(before, before.unit("b1"), 12.0, True)
    assert (full.distance, full.stopped_by) == (12.0, "")
    assert (full.end.x, full.end.y) == pytest.approx((20, 32))


def test_a_shaken_retirement_leaves_a_neighbour_in_line() -> None:
    """A unit side by side with a friend (flank touching flank) retires its full 3" in B:
    the friend beside it does not stop it (W49); a friend 1" behind it stops it after 1",
    and the referee says so."""
    places = {"r1": (20, 10, 0), "r3": (20 + 2 * BASE, 10, 0), "b1": (20, 30, 180)}
    s = on_table(places, 1)
    s = s.with_units(attrs.evolve(s.unit("r1"), must_retire=True))
    s = to_phase(s, "B")
    after, events = TURN.step(s, CompulsoryMove("r1"))
    assert _at(after, "r1") == pytest.approx((20, 7, 0))
    assert events[0].text == 'Foot retires 3", keeping its facing'
    behind = {"r1": (20, 10, 0), "r3": (20, 10 - BASE - 1, 0), "b1": (20, 30, 180)}
    s = on_table(behind, 1)
    s = to_phase(s.with_units(attrs.evolve(s.unit("r1"), must_retire=True)), "B")
    after, events = TURN.step(s, CompulsoryMove("r1"))
    assert _at(after, "r1") == pytest.approx((20, 9, 0))
    assert events[0].text == 'Foot retires 1" of its 3", keeping its facing: Grenadiers stops it'


def test_without_a_table_the_melee_moves_nothing_and_says_no_more() -> None:
    """The same melee with the same dice without a table: the units end the same (status,
    strength) and the only events missing are the table's retirements."""
    before, after, _ = fought(FACING, "r1", "b1", {Effect.BOTH_RETIRE, Effect.RETIRE_SHAKEN})
    bare = before.with_extra(table=None)
    plain, events = TURN.step(bare, ResolveMelee("b1"))
    assert plain.units == after.units
    table_events = TURN.step(before, ResolveMelee("b1"))[1]
    assert [e.text for e in events] == [e.text for e in table_events if e.kind != "retire"]
    assert not [e for e in events if e.kind == "retire"]


def _overlapping(table: Table) -> list[tuple[str, str]]:
    shapes = {f.unit_id: f.shape for f in table.footprints}
    ids = sorted(shapes)
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
            if shapely.area(shapely.intersection(shapes[a], shapes[b])) > 1e-6]


def test_random_battles_melee_retirements_stand_where_retirement_puts_them() -> None:
    """Random play of the embedded battles on their tables: after every melee no two units
    overlap, and each unit retired stands where ``retirement`` puts it, in turn."""
    retired = 0
    for name, build in RULESET.battles():
        if name.endswith("-no-table"):
            continue
        for seed in (0, 1, 2, 7):  # seeds whose play fights melees that retire units
            rng = random.Random(seed)
            s = build(seed)
            while not TURN.is_over(s):
                action = rng.choice(TURN.legal_actions(s))
                after, events = TURN.step(s, action)
                if isinstance(action, ResolveMelee):
                    retired += _check_melee(s, after, events)
                s = after
    assert retired > 3


def _check_melee(before: State, after: State, events: object) -> int:
    """The retirements of one melee, replayed one by one with ``retirement`` from the table
    before it; the number of units retired."""
    table = before.extra.table
    end = after.extra.table
    assert table is not None and end is not None
    assert not _overlapping(end)
    count = 0
    for event in events:  # type: ignore[attr-defined]
        if event.kind != "retire":
            continue
        assert event.rule == rules.MELEE
        distance = float(re.findall(r'([\d.]+)"', event.text)[-1])
        assert distance in (3.0, 6.0)
        unit = before.unit(event.subject)
        expected = retirement(before.with_extra(table=table), unit, distance, False).end
        got = end.footprint(event.subject)
        assert (got.x, got.y, got.facing) == pytest.approx(
            (expected.x, expected.y, expected.facing))
        start = table.footprint(event.subject)
        assert got.facing == start.facing
        assert math.dist(got.centre, start.centre) <= distance + 1e-9
        table = table.placed(expected)
        count += 1
    return count


def _at_j(places: dict[str, Place], charges: tuple[tuple[str, str], ...], seed: int,
          moved: dict[str, Place] | None = None, **units: Unit) -> State | None:
    """Phase J after ``charges`` (charger, target) struck and every target stood, with the
    units of ``moved`` then set at their places on the table (None: a target did not
    stand); ``units`` replace those of ``UNITS``."""
    from smoothbore.will_awi.positions import footprint

    s = to_phase(on_table(places, seed, **units), "F")
    for charger, target in charges:
        s, _ = TURN.step(s, DeclareCharge(charger, target))
    s, _ = TURN.step(s, EndPhase())
    for target in dict.fromkeys(t for _, t in charges):
        s, _ = TURN.step(s, TestCharged(target))
    if any(t.result is not ChargedResult.STANDS for t in s.extra.tests):
        return None
    s = to_phase(s, "J")
    table = s.extra.table
    assert table is not None
    for uid, (x, y, facing) in (moved or {}).items():
        table = table.placed(footprint(s.unit(uid), x, y, facing))
    return s.with_extra(table=table)


def test_a_second_defender_in_contact_fights_and_the_front_is_measured() -> None:
    """Issue 27 (Rules - Melee: "Where more than one unit is involved only one is effected,
    any others will retire 3". The unit effected will be that unit engaged to the enemies
    front"; W25): the foot charges the Continentals face to face; the militia stand against
    the foot's right flank, facing it. On the table the militia fight beside the
    Continentals without being named (a second defender touching a lone attacker), and only
    the Continentals are engaged to the enemy's front: beaten by 1, they take the result
    (shaken, 3" back) and the militia retire 3" unshaken, whatever the scores. The caller's
    ``fronts`` and ``also_defending`` are refused on a table."""
    from smoothbore.core import IllegalActionError
    from smoothbore.will_awi.situations import melee_contacts

    beside = (20 + BASE + HALF, CONTACT, 270)  # front against the foot's right flank
    places = {**FACING, "b2": (40, 30, 180)}
    seen = 0
    for seed in range(300):
        s = _at_j(places, (("r1", "b1"),), seed, {"b2": beside})
        if s is None:
            continue
        found = melee_contacts(s, "b1", ("r1",), ("b2",))
        assert found.also_defending == ("b2",) and found.fronts == {"r1", "b1"}
        with pytest.raises(IllegalActionError, match="the table measures this"):
            TURN.check(s, ResolveMelee("b1", also_defending=("b2",)))
        with pytest.raises(IllegalActionError, match="the table measures this"):
            TURN.check(s, ResolveMelee("b1", fronts=frozenset({"b2"})))
        after, events = TURN.step(s, ResolveMelee("b1"))
        if not _says(events[0].text, Effect.RETIRE_SHAKEN) or not after.unit("b1").shaken:
            continue
        assert not after.unit("b2").shaken
        assert _at(after, "b2") == pytest.approx((beside[0] + 3, beside[1], 270))
        assert 'Militia retires 3" straight back, keeping its facing' in [
            e.text for e in events if e.kind == "retire"]
        seen += 1
        if seen == 3:
            return
    raise AssertionError("the Continentals were not beaten by 1 three times")


def test_the_attacker_at_the_enemys_front_takes_the_result() -> None:
    """Rules - Melee ("the unit effected will be that unit engaged to the enemies front"):
    militia strike the flank of British grenadiers, then militia dragoons their front
    (declared in that order, so the militia foot would be first on a tie, and they score
    less than the dragoons: the lowest score would take the result if every unit counted as
    front); beaten by 1, the dragoons at the front take the result, and the foot on the
    flank retire 3" unshaken."""
    places = {"r2": (15, 20, 90), "r1": (20, CONTACT - 2, 0), "b1": (20, 20, 180)}
    weak = {"r2": Unit("r2", "Militia", "red", TroopType.MILITIA),
            "r1": Unit("r1", "Militia horse", "red", TroopType.LIGHT_CAVALRY),
            "b1": Unit("b1", "Grenadiers", "blue", TroopType.GRENADIERS, Nationality.BRITISH)}
    seen = 0
    for seed in range(300):
        s = _at_j(places, (("r2", "b1"), ("r1", "b1")), seed, **weak)
        if s is None:
            continue
        after, events = TURN.step(s, ResolveMelee("b1"))
        if not _says(events[0].text, Effect.RETIRE_SHAKEN) or after.unit("b1").shaken:
            continue
        assert after.unit("r1").shaken and not after.unit("r2").shaken
        seen += 1
        if seen == 3:
            return
    raise AssertionError("the attackers were not beaten by 1 three times")
