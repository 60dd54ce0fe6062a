"""Positions into situations (``situations``) and play on a table: hand-drawn layouts whose
facts are worked out by hand. A base is 45 mm (BASE = 1.7717"): a line of two bases is
2 x BASE wide and BASE deep, its front edge BASE / 2 ahead of its centre."""

from __future__ import annotations

import random

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.table import Feature, ImpassableError, in_contact
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.actions import ChangeFormation, DeclareCharge, Fire, Move
from smoothbore.will_awi.charges import Face
from smoothbore.will_awi.firing import RANGES, Cover, FireFacts, RangeBand, Woods, range_band
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.movement import Leg, MovePlan, Terrain
from smoothbore.will_awi.positions import BASE, Place, deploy, synced
from smoothbore.will_awi.situations import (
    charge_facts,
    destinations,
    plan_of,
    shot_facts,
)
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, Status, TroopType, Unit

from .turn_helpers import to_phase

HALF = BASE / 2

UNITS = {
    "r1": Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH),
    "r2": Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH),
    "r3": Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS, Nationality.BRITISH),
    "b1": Unit("b1", "Continentals", "blue", TroopType.LINE),
    "b2": Unit("b2", "Militia", "blue", TroopType.MILITIA),
    "b4": Unit("b4", "Riflemen", "blue", TroopType.RIFLEMEN),
}


def on_table(places: dict[str, Place], *features: Feature,
             works: tuple[Defence, ...] = ()) -> State:
    """Red (to move) and blue on a 48" x 36" table, only the units placed."""
    units = tuple(UNITS[k] for k in places)
    table = deploy(units, places, width=48, depth=36, features=features)
    return new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                      table=table, works=works)


# --- firing -----------------------------------------------------------------------------------
def test_range_is_measured_between_nearest_points_and_gives_the_band() -> None:
    """Riflemen facing the foot with 9" between their front edges: medium range for rifles
    (6-12"), straight ahead, in the open, seen; the fire takes the -2 of rifles at medium
    range."""
    s = on_table({"r1": (20, 10, 0), "b4": (20, 10 + BASE + 9, 180)})
    shot = shot_facts(s, "b4", "r1")
    assert shot.facts.range_inches == pytest.approx(9.0)
    assert range_band(UNITS["b4"].fires_with, shot.facts.range_inches) is RangeBand.MEDIUM
    assert shot.facts.angle == pytest.approx(0.0)
    assert (shot.facts.cover, shot.facts.woods, shot.facts.target_visible) == (
        Cover.OPEN, Woods.NONE, True)
    e = to_phase(s, "E")
    assert Fire("b4", "r1") in TURN.legal_actions(e)
    _, events = TURN.step(e, Fire("b4", "r1"))
    assert 'at 9"' in events[0].text


def test_out_of_range_and_out_of_arc_are_refused_and_not_offered() -> None:
    """Muskets at 7" (beyond their 6") and a target 60 degrees off the firer's front."""
    s = on_table({"r1": (20, 10, 0), "b1": (20, 10 + BASE + 7, 180),
                  "r2": (35, 28, 0)})
    e = to_phase(s, "E")
    offered = TURN.legal_actions(e)
    assert not any(isinstance(a, Fire) for a in offered)
    with pytest.raises(IllegalActionError, match="beyond the range"):
        TURN.check(e, Fire("b1", "r1"))
    with pytest.raises(IllegalActionError, match="45°"):
        TURN.check(e, Fire("b1", "r2"))


def test_the_table_refuses_measured_facts_and_needs_a_table_for_destinations() -> None:
    s = on_table({"r1": (20, 10, 0), "b1": (20, 10 + BASE + 4, 180)})
    e = to_phase(s, "E")
    with pytest.raises(IllegalActionError, match="table measures this"):
        TURN.check(e, Fire("b1", "r1", FireFacts(4)))
    f = to_phase(s, "F")
    with pytest.raises(IllegalActionError, match="table measures this"):
        TURN.check(f, DeclareCharge("r1", "b1", 4.0))
    c = to_phase(s, "C")
    with pytest.raises(IllegalActionError, match="table measures this"):
        TURN.check(c, Move("r1", MovePlan(legs=(Leg(3.0),))))
    bare = c.with_extra(table=None)
    with pytest.raises(IllegalActionError, match="needs a table"):
        TURN.check(bare, Move("r1", to=(20.0, 12.0, 0.0)))


@pytest.mark.parametrize(("kind", "cover"), [("fence", Cover.SOFT), ("wall", Cover.HARD)])
def test_behind_an_obstacle(kind: str, cover: Cover) -> None:
    """An obstacle 0.5" in front of the target (within 1") covers it: fences soft, walls
    hard."""
    line = Feature("line", kind, line=((10, 10 + HALF + 0.5), (30, 10 + HALF + 0.5)))
    s = on_table({"r1": (20, 10, 0), "b1": (20, 16, 180)}, line)
    assert shot_facts(s, "b1", "r1").facts.cover is cover


def test_in_dense_woods_a_line_is_seen_only_within_4() -> None:
    """Foot in dense woods: soft cover, and seen only within 4" (Terrain: Woods); 16 - 10 - BASE
    = 4.23" is too far."""
    woods = Feature.rectangle("copse", "dense woods", 20, 10, 8, 4)
    s = on_table({"r1": (20, 10, 0), "b1": (20, 16, 180)}, woods)
    facts = shot_facts(s, "b1", "r1").facts
    assert (facts.woods, facts.cover) == (Woods.DENSE, Cover.SOFT)
    assert facts.range_inches == pytest.approx(6 - BASE)
    with pytest.raises(IllegalActionError, match="only seen within 4"):
        TURN.check(to_phase(s, "E"), Fire("b1", "r1"))


def test_a_work_held_gives_its_own_cover() -> None:
    """A unit whose centre is in the Chew House (a work of hard cover) takes its cover."""
    house = Feature.rectangle("chew", "building", 20, 10, 4, 4)
    s = on_table({"r1": (20, 10, 0), "b1": (20, 14, 180)}, house,
                 works=(Defence.new(Work.LARGE_STONE_BUILDING, "chew"),))
    shot = shot_facts(s, "b1", "r1")
    assert shot.work == "chew"
    assert shot.facts.cover is Defence.new(Work.LARGE_STONE_BUILDING, "chew").cover


# --- charging ---------------------------------------------------------------------------------
def test_a_charge_into_the_flank_reaches_contact() -> None:
    """Dragoons facing the militia's flank: 20 - BASE - (14 + BASE/2) = 3.34" straight ahead
    (within 6"), striking the flank; after the declaration they touch."""
    s = on_table({"r2": (14, 20, 90), "b2": (20, 20, 180)})
    found = charge_facts(s, "r2", "b2")
    assert found.distance == pytest.approx(20 - BASE - 14 - HALF)
    assert found.facts.face is Face.FLANK
    f = to_phase(s, "F")
    assert DeclareCharge("r2", "b2") in TURN.legal_actions(f)
    after, _ = TURN.step(f, DeclareCharge("r2", "b2"))
    table = after.extra.table
    assert table is not None and in_contact(table, "r2", "b2")
    assert after.extra.charges[0].facts.face is Face.FLANK


def test_a_charge_from_behind_strikes_the_rear_and_foot_reach_only_3() -> None:
    """From behind the militia (it faces down the table): the rear, 26 - HALF - (20 + HALF)
    = 4.23"; cavalry reach it, foot (3") do not."""
    s = on_table({"r2": (20, 26, 180), "b2": (20, 20, 180), "r1": (10, 26, 180),
                  "b1": (10, 20, 180)})
    found = charge_facts(s, "r2", "b2")
    assert found.distance == pytest.approx(6 - BASE)
    assert found.facts.face is Face.REAR
    f = to_phase(s, "F")
    offered = TURN.legal_actions(f)
    assert DeclareCharge("r2", "b2") in offered and DeclareCharge("r1", "b1") not in offered
    with pytest.raises(IllegalActionError, match="beyond charge reach"):
        TURN.check(f, DeclareCharge("r1", "b1"))


def test_a_target_not_directly_ahead_cannot_be_charged() -> None:
    s = on_table({"r2": (10, 20, 0), "b2": (20, 24, 180)})
    assert charge_facts(s, "r2", "b2").distance is None
    with pytest.raises(IllegalActionError, match="directly to the charger's front"):
        TURN.check(to_phase(s, "F"), DeclareCharge("r2", "b2"))


# --- moving -----------------------------------------------------------------------------------
CREEK = Feature("creek", "river", line=((0, 15), (48, 15)), width=2.0)
FORD = Feature("ford", "ford", line=((30, 15), (34, 15)), width=2.0)


def test_a_river_blocks_a_move_but_the_ford_does_not() -> None:
    """The river (y 14 to 16) is impassable, naming it; at the ford the foot go 2" in the
    open, 2" of ford at 2/3 speed (3") and 0.5" more: 5.5" of their 6"."""
    s = to_phase(on_table({"r1": (10, 10, 0), "r3": (32, 12, 0), "b1": (5, 33, 180)},
                          CREEK, FORD), "C")
    with pytest.raises(ImpassableError, match="creek") as error:
        TURN.check(s, Move("r1", to=(10.0, 20.0, 0.0)))
    assert error.value.feature == "creek"
    plan = plan_of(s, UNITS["r3"], (32.0, 16.5, 0.0))
    assert [(round(leg.inches, 6), leg.terrain) for leg in plan.legs] == [
        (2.0, (Terrain.OPEN,)), (2.0, (Terrain.FORD,)), (0.5, (Terrain.OPEN,))]
    after, events = TURN.step(s, Move("r3", to=(32.0, 16.5, 0.0)))
    assert after.extra.table is not None
    assert after.extra.table.footprint("r3").centre == (32.0, 16.5)
    assert "to (32.0, 16.5), facing 000°" in events[0].text
    with pytest.raises(IllegalActionError, match="needs 6.5"):
        TURN.check(s, Move("r3", to=(32.0, 17.5, 0.0)))  # 2 + 3 + 1.5


def test_destinations_are_legal_and_stop_before_the_enemy() -> None:
    """Every destination offered is accepted, ends on the table and more than 1" from the
    enemy."""
    s = to_phase(on_table({"r1": (20, 10, 0), "b1": (21, 18, 180)}), "C")
    places = destinations(s, UNITS["r1"], 6.0)
    assert places
    for place in places:
        TURN.check(s, Move("r1", to=place))
        plan = plan_of(s, UNITS["r1"], place)
        assert plan.nearest_enemy is not None and plan.nearest_enemy >= 1
    ahead = max(places, key=lambda p: p[1])
    # the enemy's near edge is at 18 - HALF; the foot stop 1" short of it
    assert ahead[1] + HALF == pytest.approx(18 - HALF - 1, abs=0.01)


# --- keeping the table in step, saving ---------------------------------------------------------
def test_formation_changes_and_losses_change_the_footprints() -> None:
    """Forming column lays the bases one behind the other about the same centre; a unit
    eliminated leaves the table; nothing changed, the very same table (its answers kept)."""
    s = to_phase(on_table({"r1": (20, 10, 0), "b1": (20, 30, 180)}), "C")
    table = s.extra.table
    assert table is not None and synced(table, s.units) is table
    after, _ = TURN.step(s, ChangeFormation("r1"))
    assert after.extra.table is not None
    column = after.extra.table.footprint("r1")
    assert (column.formation.value, column.width, column.length) == ("column", BASE, 2 * BASE)
    gone = after.with_units(attrs.evolve(UNITS["b1"], strength=0, status=Status.ELIMINATED))
    assert "b1" not in synced(after.extra.table, gone.units).units


def test_a_battle_on_a_table_saves_and_loads() -> None:
    s = to_phase(on_table({"r1": (20, 10, 0), "b1": (20, 30, 180)}, CREEK, FORD), "C")
    s, _ = TURN.step(s, Move("r1", to=(20.0, 12.0, 0.0)))
    loaded = TURN.load(s.to_json())
    assert loaded == s and loaded.extra.table == s.extra.table


# --- random battles on every embedded table -----------------------------------------------------
def _weapon_reach(state: State, firer: str) -> float:
    weapon = next(u for u in state.units if u.id == firer).fires_with
    assert weapon is not None
    return float(max(r for r in RANGES[weapon] if r is not None))


def test_random_battles_on_the_tables_move_shoot_charge_and_end() -> None:
    """Seeded random play of every embedded battle on its table: units end away from where
    they began, every shot is at a measured range within the weapon's reach, every charge
    ends in contact, and every battle ends."""
    shots = charges = 0
    for name, build in RULESET.battles():
        if name.endswith("-no-table"):
            continue
        for seed in (0, 1):
            rng = random.Random(seed)
            s = build(seed)
            start = s.extra.table
            assert start is not None
            while not TURN.is_over(s):
                action = rng.choice(TURN.legal_actions(s))
                if isinstance(action, Fire) and action.facts is None and s.phase == "E":
                    measured = shot_facts(s, action.firer, action.target).facts.range_inches
                    assert measured <= _weapon_reach(s, action.firer)
                    shots += 1
                s, _ = TURN.step(s, action)
                if isinstance(action, DeclareCharge):
                    table = s.extra.table
                    assert table is not None
                    assert in_contact(table, action.charger, action.target)
                    charges += 1
            end = s.extra.table
            assert end is not None
            moved = [u for u in end.unit_ids if end.footprint(u).centre
                     != start.footprint(u).centre]
            assert moved, name
            assert TURN.outcome(s) is not None
    assert shots > 10 and charges > 3


def test_sampled_choices_are_table_destinations_and_facing_changes() -> None:
    """``turn.sampled`` names the actions whose candidates are a sample of a continuous
    choice: a destination or a facing change on a table, never an action without one."""
    from smoothbore.will_awi.actions import ChangeFacing
    from smoothbore.will_awi.turn import sampled

    s = on_table({"r1": (20, 10, 0), "b1": (20, 30, 180)})
    assert sampled(s, Move("r1", to=(20.0, 12.0, 0.0)))
    assert sampled(s, ChangeFacing("b1", 90.0))
    assert not sampled(s, Move("r1")) and not sampled(s, Fire("b1", "r1"))
    bare = s.with_extra(table=None)
    assert not sampled(bare, ChangeFacing("b1", 90.0))
