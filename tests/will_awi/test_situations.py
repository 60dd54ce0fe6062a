"""Positions into situations (``situations``) and play on a table: hand-drawn layouts whose
facts are worked out by hand. A base is 45 mm (BASE = 1.7717"): a line of two bases is
2 x BASE wide and BASE deep, its front edge BASE / 2 ahead of its centre."""

from __future__ import annotations

import random

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.table import Feature, ImpassableError, distance, in_contact, keep_in_step
from smoothbore.will_awi import RULESET, rules
from smoothbore.will_awi.actions import ChangeFormation, DeclareCharge, Fire, Move
from smoothbore.will_awi.charges import Face
from smoothbore.will_awi.firing import RANGES, Cover, FireFacts, RangeBand, Woods, range_band
from smoothbore.will_awi.fortifications import Defence, Work
from smoothbore.will_awi.movement import Leg, MovePlan, Terrain
from smoothbore.will_awi.on_table import RULES
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.situations import (
    boxes_apart,
    charge_facts,
    destinations,
    plan_of,
    shot_facts,
)
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import (
    Commander,
    Formation,
    Nationality,
    Status,
    TroopType,
    Unit,
)

from .turn_helpers import to_phase

HALF = BASE / 2

UNITS = {
    "r1": Unit("r1", "Foot", "red", TroopType.LINE, Nationality.BRITISH),
    "r2": Unit("r2", "Dragoons", "red", TroopType.LIGHT_CAVALRY, Nationality.BRITISH),
    "r3": Unit("r3", "Grenadiers", "red", TroopType.GRENADIERS, Nationality.BRITISH),
    "b1": Unit("b1", "Continentals", "blue", TroopType.LINE),
    "b2": Unit("b2", "Militia", "blue", TroopType.MILITIA),
    "b4": Unit("b4", "Riflemen", "blue", TroopType.RIFLEMEN),
    "r9": Unit("r9", "Wagon", "red", TroopType.WAGON, Nationality.BRITISH),
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


def test_a_charge_over_a_stream_on_its_way_is_a_charge_over_an_obstacle() -> None:
    """Rules - Melee: "charging over an obstacle (stream, fence etc.)". The dragoons charge
    the militia 20 - HALF - (14 + HALF) = 4.23" ahead; a stream across at y 16 lies on the
    way, 3.1" in front of the militia (too far to cover it): the charge goes over it. A
    fence just in front of the militia covers it and is crossed too; on open ground
    neither."""
    place = {"r2": (20, 14, 0), "b2": (20, 20, 180)}
    stream = Feature("brook", "stream", line=((0, 16), (48, 16)))
    found = charge_facts(on_table(place, stream), "r2", "b2")
    assert found.distance == pytest.approx(6 - BASE)
    assert found.over_obstacle and not found.facts.behind_obstacle
    fence = Feature("rails", "fence", line=((0, 18.9), (48, 18.9)))
    covered = charge_facts(on_table(place, fence), "r2", "b2")
    assert covered.over_obstacle and covered.facts.behind_obstacle
    assert not charge_facts(on_table(place), "r2", "b2").over_obstacle


def test_the_box_test_measures_bounding_boxes() -> None:
    """Two lines side by side, centres 10" apart across: their boxes are 10 - 2 x BASE
    apart (each line is 2 x BASE wide), so apart by 6" but not by 7"; a unit off the table
    is never apart."""
    s = on_table({"r1": (10, 20, 0), "b1": (20, 20, 180)})
    gap = 10 - 2 * BASE
    assert boxes_apart(s, "r1", "b1", gap - 0.01) and not boxes_apart(s, "r1", "b1", gap + 0.01)
    assert not boxes_apart(s, "r1", "nobody", 0.0)


@pytest.mark.parametrize("battle", ["germantown", "cowpens"])
def test_box_tests_drop_no_legal_fire_or_charge(battle: str) -> None:
    """Random play of an embedded battle: the bases of units whose boxes are apart are as
    far apart (measured); in every fire and charge phase, every fire at and every charge
    on every enemy that the check accepts is among the legal actions (the candidates leave
    out only targets beyond the box test)."""
    rng = random.Random(11)
    state = dict(RULESET.battles())[battle](11)
    checked = steps = 0
    while not TURN.is_over(state) and steps < 300:
        table = state.extra.table
        assert table is not None
        ids = [f.unit_id for f in table.footprints]
        for a in ids[::3]:
            for b in ids:
                gap = distance(table, a, b)
                for limit in (3.0, 6.0, 12.0, 54.0):
                    if boxes_apart(state, a, b, limit):
                        assert gap > limit
        offered = TURN.legal_actions(state)
        if state.phase in ("E", "F"):
            for unit in state.units:
                for enemy in state.units:
                    if enemy.side == unit.side:
                        continue
                    action = (Fire(unit.id, enemy.id) if state.phase == "E"
                              else DeclareCharge(unit.id, enemy.id))
                    try:
                        TURN.check(state, action)
                    except IllegalActionError:
                        continue
                    assert action in offered
                    checked += 1
        state, _ = TURN.step(state, rng.choice(offered))
        steps += 1
    assert checked > 3


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


def test_no_move_ends_on_another_unit() -> None:
    """W49. The foot go 3" straight ahead (y 10 to 13) and turn to face 045: the line, 2
    bases wide (3.54") and 1 deep (1.77"), then has its front left corner at (19.37, 14.88),
    on the grenadiers at y 14.11-15.89 (unturned it would stand at y 12.11-13.89, clear of
    them). With the grenadiers elsewhere the same move is allowed."""
    crowded = to_phase(on_table({"r1": (20, 10, 0), "r3": (20, 15, 0), "b1": (5, 33, 180)}),
                       "C")
    with pytest.raises(IllegalActionError, match="would end on r3, turned to face 45°"):
        TURN.check(crowded, Move("r1", to=(20.0, 13.0, 45.0)))
    # unturned, 4.5" ahead: onto the grenadiers (y 13.61-15.39), passing into them
    with pytest.raises(IllegalActionError, match="Foot would end on r3 \\("):
        TURN.check(crowded, Move("r1", to=(20.0, 14.5, 0.0)))
    clear = to_phase(on_table({"r1": (20, 10, 0), "r3": (30, 15, 0), "b1": (5, 33, 180)}),
                     "C")
    after, _ = TURN.step(clear, Move("r1", to=(20.0, 13.0, 45.0)))
    assert after.extra.table is not None
    assert after.extra.table.footprint("r1").centre == (20.0, 13.0)


# --- keeping the table in step, saving ---------------------------------------------------------
def test_formation_changes_and_losses_change_the_footprints() -> None:
    """Forming column lays the bases one behind the other about the same centre; a unit
    eliminated leaves the table; nothing changed, the very same table (its answers kept)."""
    s = to_phase(on_table({"r1": (20, 10, 0), "b1": (20, 30, 180)}), "C")
    table = s.extra.table
    assert table is not None and keep_in_step(RULES, None, s) is s
    after, _ = TURN.step(s, ChangeFormation("r1"))
    assert after.extra.table is not None
    column = after.extra.table.footprint("r1")
    assert (column.formation.value, column.width, column.length) == ("column", BASE, 2 * BASE)
    gone = after.with_units(attrs.evolve(UNITS["b1"], strength=0, status=Status.ELIMINATED))
    kept = keep_in_step(RULES, after, gone).extra.table
    assert kept is not None and "b1" not in kept.units


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


# --- the '45: a Highland charge spreading, measured on the table -------------------------------
def _clans(gap: float, enemy_gap: float) -> State:
    """Two clans side by side in line, ``gap`` inches between their flanks, the Camerons
    already in a Highland charge; the enemy line faces the Stewarts, ``enemy_gap`` inches
    between the two fronts. Phase E, the Jacobites moving."""
    from smoothbore.core import enter_phase
    from smoothbore.will_awi.options import FORTY_FIVE, Options
    from smoothbore.will_awi.phases import E

    camerons = Unit("j1", "Camerons", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE,
                    highland_charge=True)
    stewarts = Unit("j2", "Stewarts", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
    foot = Unit("b1", "Continentals", "blue", TroopType.LINE)
    x2 = 10 + 2 * BASE + gap  # each line is 2 x BASE wide: flank to flank ``gap``
    places = {"j1": (10.0, 10.0, 0.0), "j2": (x2, 10.0, 0.0),
              "b1": (x2, 10.0 + BASE + enemy_gap, 180.0)}
    units = (camerons, stewarts, foot)
    table = deploy(units, places, width=48, depth=36)
    s = new_battle(("red", "blue"), units, (Commander("rg", "Charles", "red"),),
                   table=table, options=Options(variant=FORTY_FIVE))
    return enter_phase(s, E)


def test_a_highland_charge_spreads_to_clans_within_12_inches_measured() -> None:
    """'45: highlanders within 12" of a Highland charge test to join it. 11.5" between the
    flanks: offered and accepted; 12.5": neither (the table measures, nearest points)."""
    from smoothbore.will_awi.actions import SpreadHighlandCharge

    near, far = _clans(11.5, 9.0), _clans(12.5, 9.0)
    assert SpreadHighlandCharge("j2") in TURN.legal_actions(near)
    TURN.check(near, SpreadHighlandCharge("j2"))
    assert SpreadHighlandCharge("j2") not in TURN.legal_actions(far)
    with pytest.raises(IllegalActionError, match='within 12"'):
        TURN.check(far, SpreadHighlandCharge("j2"))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(near, SpreadHighlandCharge("j2", in_musket_range=True))


def test_musket_range_of_a_spreading_charge_is_measured() -> None:
    """'45: the test needs a 6 out of musket range, 5-6 within it (6"): the enemy 5.5" from
    the Stewarts' front puts them in range, 9" does not."""
    from smoothbore.will_awi.actions import SpreadHighlandCharge

    for enemy_gap, need in ((5.5, 5), (9.0, 6)):
        s = _clans(11.5, enemy_gap)
        seen = set()
        for seed in range(40):
            tried = attrs.evolve(s, dice=attrs.evolve(s.dice, seed=seed))
            after, events = TURN.step(tried, SpreadHighlandCharge("j2"))
            (face,) = events[0].rolls[0].faces
            assert after.unit("j2").highland_charge is (face >= need)
            seen.add(face)
        assert {5, 6} <= seen


def test_the_highland_charge_tells_the_distance_moved_not_the_roll() -> None:
    """Issue 27 (Battles of the 45: the Highland charge moves its move plus 1d6 at the
    nearest enemy): the Camerons 4" from the Continentals' front go 4" and reach them, and
    the referee says 4" of the rolled allowance (6" + 1d6) and whom they reach; with the
    enemy 20" off they go the whole allowance, as rolled."""
    from smoothbore.core import enter_phase
    from smoothbore.will_awi.actions import HighlandChargeMove
    from smoothbore.will_awi.options import FORTY_FIVE, Options
    from smoothbore.will_awi.phases import C

    camerons = Unit("j1", "Camerons", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE,
                    highland_charge=True)
    foot = Unit("b1", "Continentals", "blue", TroopType.LINE)
    for gap in (4.0, 20.0):
        places = {"j1": (10.0, 5.0, 0.0), "b1": (10.0, 5.0 + BASE + gap, 180.0)}
        table = deploy((camerons, foot), places, width=48, depth=36)
        s = enter_phase(new_battle(("red", "blue"), (camerons, foot),
                                   (Commander("rg", "Charles", "red"),), table=table,
                                   options=Options(variant=FORTY_FIVE)), C)
        after, events = TURN.step(s, HighlandChargeMove("j1"))
        (face,) = events[0].rolls[0].faces
        allowance = 6 + face
        moved = after.extra.table.footprint("j1").y - 5.0  # type: ignore[union-attr]
        text = events[0].text
        if gap == 4.0:
            assert moved == pytest.approx(4.0)
            assert text.startswith(f'Camerons makes its Highland charge at the nearest enemy: '
                                   f'4" of its {allowance}", to (10.0, 9.0)')
            assert text.endswith(", reaching Continentals")
        else:
            assert moved == pytest.approx(allowance)
            assert text.startswith("Camerons makes its Highland charge at the nearest enemy: "
                                   f'{allowance}", to (10.0, {5 + allowance}.0)')


# --- a demolition's blast, measured on the table ------------------------------------------------
def test_the_blast_catches_the_units_within_its_radius_measured() -> None:
    """Demolition: one charge catches the units within 3" of the work. The fieldwork is a 4" x
    2" rectangle centred on (24, 18); the Continentals' rear edge 2.5" above its top edge
    (within), the militia's rear edge 4" below its bottom edge (outside): the blast catches
    the Continentals only; a Detonate naming units is refused (the table measures)."""
    from smoothbore.core import enter_phase
    from smoothbore.will_awi.actions import Detonate
    from smoothbore.will_awi.fortifications import Demolition
    from smoothbore.will_awi.phases import E
    from smoothbore.will_awi.state import with_extra

    fieldwork = Feature.rectangle("fw", "fieldwork", 24.0, 18.0, 4.0, 2.0)
    places = {"r1": (10.0, 5.0, 0.0), "b1": (24.0, 19.0 + 2.5 + HALF, 0.0),
              "b2": (24.0, 17.0 - 4.0 - HALF, 180.0)}
    s = on_table(places, fieldwork, works=(Defence.new(Work.TIMBER_FIELDWORK, "fw"),))
    s = with_extra(enter_phase(s, E), demolitions=(Demolition("fw", "r1", away=True),))
    assert Detonate("fw") in TURN.legal_actions(s)
    assert not any(isinstance(a, Detonate) and a.within for a in TURN.legal_actions(s))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(s, Detonate("fw", frozenset({"b1"})))
    _, events = TURN.step(s, Detonate("fw"))
    caught = [e.text for e in events if "blast catches" in e.text]
    assert len(caught) == 1 and "Continentals" in caught[0] and 'within 3"' in caught[0]


# --- bombarding a work, measured on the table ---------------------------------------------------
def _bombardment(work_at: tuple[float, float]) -> State:
    """Blue's light gun (one base, deployed) at (24, 5) facing up the table, a redoubt 1" x 2"
    centred at ``work_at``; red to move, so blue fires in E."""
    from smoothbore.core import enter_phase
    from smoothbore.will_awi.phases import E

    gun = Unit("b3", "Guns", "blue", TroopType.LIGHT_GUN)
    foot = UNITS["r1"]
    redoubt = Feature.rectangle("rd", "fieldwork", work_at[0], work_at[1], 1.0, 2.0)
    table = deploy((foot, gun), {"r1": (5.0, 30.0, 180.0), "b3": (24.0, 5.0, 0.0)},
                   width=48, depth=36, features=(redoubt,))
    s = new_battle(("red", "blue"), (foot, gun), (Commander("rg", "Webster", "red"),),
                   table=table, works=(Defence.new(Work.TIMBER_FIELDWORK, "rd"),))
    return enter_phase(s, E)


def test_a_bombardment_is_measured_from_the_gun_to_the_work() -> None:
    """Fortifications: guns fire ball at works. The redoubt's near edge 18" ahead of the gun's
    front edge: range 18 (ball, the medium band of light guns), nearly straight ahead; offered
    and accepted without facts; facts given are refused; a redoubt 60 degrees off the front is
    out of the arc."""
    from smoothbore.will_awi.actions import Bombard
    from smoothbore.will_awi.situations import bombard_facts

    s = _bombardment((24.0, 5.0 + HALF + 18.0 + 1.0))
    facts = bombard_facts(s, "b3", "rd")
    assert facts.range_inches == pytest.approx(18.0)
    assert abs(facts.angle) < 2.0 and not facts.higher_ground
    assert Bombard("b3", "rd") in TURN.legal_actions(s)
    _, events = TURN.step(s, Bombard("b3", "rd"))
    assert "bombards the" in events[-1].text
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(s, Bombard("b3", "rd", FireFacts(18.0)))
    aside = _bombardment((24.0 + 15.0, 5.0 + HALF + 8.0))  # atan(15 / 8): about 62 degrees
    assert abs(bombard_facts(aside, "b3", "rd").angle) > 45
    assert Bombard("b3", "rd") not in TURN.legal_actions(aside)
    with pytest.raises(IllegalActionError):
        TURN.check(aside, Bombard("b3", "rd"))


# --- engineers and demolition parties stand at the work -----------------------------------------
def test_engineers_and_demolition_parties_must_stand_at_the_work() -> None:
    """Field Engineering, Demolition: on a table the unit works within 1" of the work's ground.
    The foot's front edge 0.5" below a 4" x 2" fieldwork: it may dismantle, build and lay a
    charge; 3" below: each is refused, saying how far it stands."""
    for gap, allowed in ((0.5, True), (3.0, False)):
        y = 17.0 - gap - HALF
        _works_allowed({"r1": (24.0, y, 0.0), "b1": (40.0, 32.0, 180.0),
                        "r9": (24.0 + BASE + 0.5 + HALF, y - HALF, 0.0)},
                       allowed, 'stands 3" from the work')


def _works_allowed(places: dict[str, tuple[float, float, float]], allowed: bool,
                   refused: str) -> None:
    """With r1 (foot) and r9 (its wagon) at ``places`` by a 4" x 2" timber fieldwork at
    (24, 18), in C: r1's dismantling, building and laying a charge are each offered and
    pass, or (not ``allowed``) are each not offered and refused with ``refused``."""
    from smoothbore.will_awi.actions import Engineer, LayCharge

    fieldwork = Feature.rectangle("fw", "fieldwork", 24.0, 18.0, 4.0, 2.0)
    works = (Defence(Work.TIMBER_FIELDWORK, 3, id="fw"),)
    s = to_phase(on_table(places, fieldwork, works=works), "C")
    for action in (Engineer("r1", "fw"), Engineer("r1", "fw", build=True),
                   LayCharge("r1", "fw")):
        assert (action in TURN.legal_actions(s)) is allowed
        if allowed:
            TURN.check(s, action)
        else:
            with pytest.raises(IllegalActionError, match=refused):
                TURN.check(s, action)


def test_the_wagon_must_be_at_hand_on_the_table() -> None:
    """Field Engineering, Demolition (W35, W36): on a table the wagon of tools and charges
    must stand within 1" of the unit (nearest points). The foot 0.5" below the fieldwork,
    its wagon 0.5" beside it: it may dismantle, build and lay a charge; the wagon 3" off:
    each is refused and not offered."""
    y = 17.0 - 0.5 - HALF
    for gap, allowed in ((0.5, True), (3.0, False)):
        _works_allowed({"r1": (24.0, y, 0.0), "b1": (40.0, 32.0, 180.0),
                        "r9": (24.0 + BASE + gap + HALF, y - HALF, 0.0)},
                       allowed, 'no wagon of its side within 1"')


def test_the_layers_move_away_on_the_table() -> None:
    """Demolition: the layers move away the move after laying; on a table the move names a
    destination and the footprint goes there (4" straight back from a fieldwork, keeping its
    facing, retiring: 4 + 3 = 7 of the foot's allowance would be too much, 3" back is 6)."""
    from smoothbore.will_awi.actions import MoveAway
    from smoothbore.will_awi.fortifications import Demolition
    from smoothbore.will_awi.state import with_extra

    fieldwork = Feature.rectangle("fw", "fieldwork", 24.0, 18.0, 4.0, 2.0)
    places = {"r1": (24.0, 17.0 - 0.5 - HALF, 0.0), "b1": (40.0, 32.0, 180.0)}
    s = to_phase(on_table(places, fieldwork,
                          works=(Defence(Work.TIMBER_FIELDWORK, 3, id="fw"),)), "C")
    s = with_extra(s, demolitions=(Demolition("fw", "r1"),))
    offered = [a for a in TURN.legal_actions(s) if isinstance(a, MoveAway)]
    assert MoveAway("r1") in offered and any(a.to is not None for a in offered)
    here = places["r1"]
    back = (here[0], here[1] - 3.0, 0.0)
    after, events = TURN.step(s, MoveAway("r1", to=back))
    assert after.extra.table is not None
    assert after.extra.table.footprint("r1").centre == pytest.approx(back[:2])
    assert after.extra.demolitions[0].away and "to (24.0" in events[0].text
    with pytest.raises(IllegalActionError, match="needs 7"):
        TURN.check(s, MoveAway("r1", to=(here[0], here[1] - 4.0, 0.0)))
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(s, MoveAway("r1", plan=MovePlan(legs=(Leg(3.0),))))
    bare = s.with_extra(table=None)
    with pytest.raises(IllegalActionError, match="needs a table"):
        TURN.check(bare, MoveAway("r1", to=back))


def test_the_layers_moving_away_must_end_further_from_the_work() -> None:
    """Issue 27 (Fortifications and Fieldworks: Demolition, "move away on the next movement
    phase"; W49): the foot 0.5" below the fieldwork; a move 2" sideways (still 0.5" from it)
    or up to touching it is no move away and is refused; every destination offered ends
    further from the work; and Germantown starts the Delaware Regiment, which laid its
    charge, within the 1" of the work that laying asks (it stood 15.6" off)."""
    from smoothbore.will_awi.actions import MoveAway
    from smoothbore.will_awi.fortifications import Demolition
    from smoothbore.will_awi.situations import AT_WORK, work_gap
    from smoothbore.will_awi.state import with_extra

    fieldwork = Feature.rectangle("fw", "fieldwork", 24.0, 18.0, 4.0, 2.0)
    places = {"r1": (24.0, 17.0 - 0.5 - HALF, 0.0), "b1": (40.0, 32.0, 180.0)}
    s = to_phase(on_table(places, fieldwork,
                          works=(Defence(Work.TIMBER_FIELDWORK, 3, id="fw"),)), "C")
    s = with_extra(s, demolitions=(Demolition("fw", "r1"),))
    x, y, _ = places["r1"]
    for nearer in ((x + 2.0, y, 0.0), (x, y + 0.5, 0.0)):
        with pytest.raises(IllegalActionError, match="must move away from the work"):
            TURN.check(s, MoveAway("r1", to=nearer))
    offered = [a.to for a in TURN.legal_actions(s) if isinstance(a, MoveAway) and a.to]
    assert offered
    assert all((work_gap(s, "r1", "fw", to) or 0.0) > 0.5 for to in offered)
    germantown = dict(RULESET.battles())["germantown"](1)
    (laid,) = germantown.extra.demolitions
    gap = work_gap(germantown, laid.unit, laid.work)
    assert gap is not None and gap <= AT_WORK


def test_the_move_towards_the_enemy_ends_facing_it_within_charge_reach() -> None:
    """The Continentals' centre 6" right and 9" ahead of the foot's: 33.7 degrees off its
    front (within 45). The destination towards them goes the foot's whole 6" along that
    bearing (it would stop 1" short of them) and faces them: they are then directly ahead,
    2.2" off, within the foot's charge reach."""
    import math

    from smoothbore.will_awi.situations import in_charge_reach

    s = to_phase(on_table({"r1": (20, 10, 0), "b1": (26, 19, 180)}), "C")
    bearing = math.degrees(math.atan2(6, 9))
    places = destinations(s, UNITS["r1"], 6.0)
    toward = [p for p in places if p[2] == pytest.approx(bearing, abs=1e-3)]
    assert len(toward) == 1
    x, y, _ = toward[0]
    assert math.degrees(math.atan2(x - 20, y - 10)) == pytest.approx(bearing)
    plan = plan_of(s, UNITS["r1"], toward[0])
    assert [leg.inches for leg in plan.legs] == [6.0]
    assert plan.nearest_enemy == pytest.approx(2.211039)
    assert plan.facing_change == pytest.approx(bearing, abs=1e-3)
    after, _ = TURN.step(s, Move("r1", to=toward[0]))
    assert in_charge_reach(after, UNITS["r1"], "b1")


# --- the 18" of a general who falls, measured on the table --------------------------------------
def test_a_fallen_general_shakes_his_units_within_18_inches_measured() -> None:
    """Rules - Firing: Risk to Generals: killed or captured, a general shakes the steady units
    of his command within 18". Greene rides with the Continentals at (10, 10): they and the
    militia (nearest point 17" from him) are within, the riflemen (19") are not; fire naming
    the units is refused on a table."""
    from smoothbore.core import Log, SamplingDice
    from smoothbore.will_awi.effects import general_risk
    from smoothbore.will_awi.generals import Risk
    from smoothbore.will_awi.units import Rank

    units = (attrs.evolve(UNITS["b1"], commander="bb"), attrs.evolve(UNITS["b2"], commander="bb"),
             attrs.evolve(UNITS["b4"], commander="bb"), UNITS["r1"])
    # lines face up the table: a line's near flank is BASE from its centre sideways
    places = {"b1": (10.0, 10.0, 0.0), "b2": (10.0 + 17.0 + BASE, 10.0, 0.0),
              "b4": (10.0, 10.0 + 19.0 + HALF, 0.0), "r1": (40.0, 32.0, 180.0)}
    table = deploy(units, places, width=48, depth=36)
    greene = Commander("bb", "Greene", "blue", Rank.BRIGADIER, attached_to="b1")
    s = new_battle(("red", "blue"), units, (greene,), table=table)
    killed = 0
    for seed in range(150):
        log = Log(SamplingDice(seed))
        after = general_risk(s, "b1", Risk.FIRE_LOSS, frozenset(), log)
        if sum(log.events[0].rolls[0].faces) >= 11:
            killed += 1
            assert after.unit("b2").shaken and not after.unit("b4").shaken
            assert after.unit("b1").shaken  # the unit he rode with: 0" from him
    assert killed > 0
    e = to_phase(s, "E")
    with pytest.raises(IllegalActionError, match="the table measures this"):
        TURN.check(e, Fire("b1", "r1", chain_within_18=frozenset({"b2"})))


def test_a_charge_pays_the_ground_as_a_move_does() -> None:
    """Rules - Terrain ("Rivers cannot be crossed except by fords or bridges") and Charging:
    the dragoons (reach 6") face militia across the creek (y 14 to 16), their front at y 13.
    4" away over the river the charge is refused naming the creek, and not offered. At the
    ford (x 30 to 34, 2/3 speed) 4" and 5" away it goes: 1.9" open, 2" of ford costing 3",
    then 0.1" (5" away: 1.1"), 5.0" and 6.0" of the 6"; 5.5" away it needs 6.5": refused."""
    def facing(x: float, gap: float) -> State:
        places = {"r2": (x, 13 - HALF, 0), "b2": (x, 13 + gap + HALF, 180),
                  "b1": (5, 33, 180)}
        return to_phase(on_table(places, CREEK, FORD), "F")

    s = facing(10, 4)
    assert DeclareCharge("r2", "b2") not in TURN.legal_actions(s)
    with pytest.raises(ImpassableError, match="creek") as error:
        TURN.check(s, DeclareCharge("r2", "b2"))
    assert error.value.feature == "creek"
    for gap in (4, 5):
        s = facing(32, gap)
        assert DeclareCharge("r2", "b2") in TURN.legal_actions(s)
        after, _ = TURN.step(s, DeclareCharge("r2", "b2"))
        assert after.extra.charges[0].distance == pytest.approx(gap)
    s = facing(32, 5.5)
    assert DeclareCharge("r2", "b2") not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match='it needs 6.5" of its 6" reach'):
        TURN.check(s, DeclareCharge("r2", "b2"))


def test_a_charge_pays_the_ground_its_whole_footprint_sweeps() -> None:
    """Rules - Terrain ("Rivers cannot be crossed except by fords or bridges"), W49: the
    dragoons in column (one base, 1.77", wide) charge militia 4" away across the creek at
    the ford (x 30 to 34). Centred at x 33.5 the column's centre line stays on the ford but
    its right 0.39" crosses the river: refused naming the creek, and not offered. Centred at
    x 33 (its right edge at 33.89) it crosses wholly at the ford."""
    column = attrs.evolve(UNITS["r2"], formation=Formation.COLUMN)

    def facing(x: float) -> State:
        places = {"r2": (x, 13 - BASE, 0), "b2": (x, 13 + 4 + HALF, 180), "b1": (5, 33, 180)}
        units = (column, UNITS["b2"], UNITS["b1"])
        table = deploy(units, places, width=48, depth=36, features=(CREEK, FORD))
        return to_phase(new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),),
                                   table=table), "F")

    s = facing(33.5)
    assert DeclareCharge("r2", "b2") not in TURN.legal_actions(s)
    with pytest.raises(ImpassableError, match="creek") as error:
        TURN.check(s, DeclareCharge("r2", "b2"))
    assert error.value.feature == "creek" and error.value.rule == rules.MOVEMENT_TERRAIN
    s = facing(33.0)
    assert DeclareCharge("r2", "b2") in TURN.legal_actions(s)
    after, _ = TURN.step(s, DeclareCharge("r2", "b2"))
    assert after.extra.charges[0].distance == pytest.approx(4.0)
