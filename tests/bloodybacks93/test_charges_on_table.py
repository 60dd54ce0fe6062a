"""Bloodybacks 9.3, Charges and melee on the table: deferred melees (Sequence of Play, B32):
a melee whose units no longer touch lapses; when the tables turn, the counter-chargers charge
from where they stand; an evader the chargers reach where its move ended is destroyed
(Evade, B58); a push back goes away from the enemy and ends facing it (B57)."""

from __future__ import annotations

import attrs
import pytest
import shapely

from smoothbore.bloodybacks93 import TURN, situations
from smoothbore.bloodybacks93.actions import Charge, ResolveDeferred
from smoothbore.bloodybacks93.charges import Contact
from smoothbore.bloodybacks93.melee import Fate
from smoothbore.bloodybacks93.phases import DEFERRED
from smoothbore.bloodybacks93.placement import RULES
from smoothbore.bloodybacks93.shooting import Cover
from smoothbore.bloodybacks93.state import State, new_battle
from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Formation,
    Unit,
    UnitType,
    Weapon,
)
from smoothbore.core import Dice, IllegalActionError
from smoothbore.table import Feature, in_contact, keep_in_step

from .test_situations import BASE, FOOT_DEPTH, foot, on_table


def _deferred(a_formation: Formation = Formation.DEPLOYED) -> State:
    """b (size 12, two bases) charges a 2" ahead of it front to front and defers the melee;
    the deck is done: the deferred melees are next."""
    units = (foot("b", BRITISH, size=12),
             foot("a", AMERICAN, size=12, formation=a_formation))
    depth = 2 * FOOT_DEPTH if a_formation is Formation.COLUMN else FOOT_DEPTH
    y = 10 + FOOT_DEPTH / 2 + 2 + depth / 2
    state = on_table(units, {"b": (20, 10, 0), "a": (20, y, 180)})
    deferred, _ = TURN.step(state, Charge(("b",), ("a",), defer=True))
    table = deferred.extra.table
    assert table is not None and in_contact(table, "b", "a")
    assert deferred.extra.deferred
    return deferred.replace(phase=DEFERRED)


def test_a_deferred_melee_still_in_contact_is_fought() -> None:
    _, events = TURN.step(_deferred(), ResolveDeferred())
    assert events[0].kind == "melee" and "b charge a: impetus" in events[0].text


def test_a_deferred_melee_lapses_when_the_target_has_moved_away() -> None:
    # seed 47: the riflemen charged, the melee deferred, then went back 4.5": no melee
    state = _deferred()
    table = state.extra.table
    assert table is not None
    a = table.footprint("a")
    moved = state.with_extra(table=table.placed(a.moved_to(a.x, a.y + 4.5, a.facing)))
    after, events = TURN.step(moved, ResolveDeferred())
    assert len(events) == 1 and "lapses" in events[0].text
    assert "no longer in contact" in events[0].text and "B32" in events[0].rule
    assert after.units == moved.units and not after.extra.deferred


def test_a_deferred_melee_lapses_when_the_target_reforms_out_of_contact() -> None:
    # seed 113: a column reforms (deploys) about its centre: its front goes back half the
    # difference of the depths, (2 x 1.18 - 1.18) / 2 = 0.59": out of contact
    state = _deferred(Formation.COLUMN)
    reformed = keep_in_step(RULES, state, state.with_units(
        attrs.evolve(state.unit("a"), formation=Formation.DEPLOYED)))
    table = reformed.extra.table
    assert table is not None
    gap = shapely.distance(table.footprint("a").shape, table.footprint("b").shape)
    assert gap == pytest.approx(FOOT_DEPTH / 2, abs=1e-6)
    after, events = TURN.step(reformed, ResolveDeferred(reverse=True, pursue=True))
    assert len(events) == 1 and "lapses" in events[0].text
    assert after.units == reformed.units


# --- an evader the chargers reach (Evade; B58) ---------------------------------------------
def _evaders(a_facing: float, behind: bool) -> State:
    """b (density 6) charges riflemen a (density 3, compulsory evaders in the open) 2" ahead
    of it; ``a_facing``: 180 faces b, 0 turns its back on it; ``behind``: a friend of a
    stands 1" behind a."""
    units = (foot("b", BRITISH, size=12), foot("a", AMERICAN, size=6, density=3),
             foot("c", AMERICAN, size=12))
    y = 10 + FOOT_DEPTH + 2
    places = {"b": (20.0, 10.0, 0.0), "a": (20.0, y, a_facing)}
    places["c"] = (20.0, y + FOOT_DEPTH + 1, 180.0) if behind else (40.0, 40.0, 180.0)
    return on_table(units, places)


def test_an_evader_that_cannot_get_away_from_the_charger_is_destroyed() -> None:
    # seed 66: charged from behind, the evader's move straight back runs into the charger
    # standing against its rear: it moves nowhere and is caught, whatever it rolls (the
    # rolled 2dAv + 3 >= 7" is more than the charger's spare 6 - 2 = 4")
    for seed in range(10):
        state = _evaders(0.0, behind=False)
        state = state.replace(dice=_seeded_dice(state, seed))
        after, events = TURN.step(state, Charge(("b",), ("a",), evade=True))
        evaded = next(e for e in events if e.kind == "evade")
        assert "caught and destroyed" in evaded.text
        assert after.unit("a").destroyed
        table = after.extra.table
        assert table is not None and "a" not in table.units


def test_an_evader_stopped_by_a_friend_within_the_spare_move_is_caught() -> None:
    # facing the charger, the evader goes back until just short of its friend 1" behind:
    # then it stands under 1" ahead of the charger, within its spare 4": caught
    for seed in range(10):
        state = _evaders(180.0, behind=True)
        state = state.replace(dice=_seeded_dice(state, seed))
        after, events = TURN.step(state, Charge(("b",), ("a",), evade=True))
        assert "caught and destroyed" in next(e for e in events if e.kind == "evade").text
        assert after.unit("a").destroyed
    # with nobody behind it gets clear: 7" or more away, beyond the spare 4"
    state = _evaders(180.0, behind=False)
    after, events = TURN.step(state, Charge(("b",), ("a",), evade=True))
    assert "caught" not in next(e for e in events if e.kind == "evade").text


def _seeded_dice(state: State, seed: int) -> Dice:
    return new_battle(state.units, state.commanders, seed=seed).dice


# --- the tables turned (Determine impetus; B32, B47) ---------------------------------------
def _rear_charge(density: int = 6, features: tuple[Feature, ...] = ()) -> State:
    """a (American, size 12) stands 2" behind b (British, size 12) and charges its rear,
    the melee deferred; the deferred melees are next."""
    a = foot("a", AMERICAN, size=12, density=density)
    b = foot("b", BRITISH, size=12)
    state = on_table((a, b), {"a": (20, YB - FOOT_DEPTH - 2, 0), "b": (20, YB, 0)}, features)
    deferred, _ = TURN.step(state, Charge(("a",), ("b",), defer=True))
    return deferred.replace(phase=DEFERRED)


YB = 20.0
"""Where b stands (facing 0, its back to a)."""


def test_guns_may_not_turn_the_tables() -> None:
    # B47: guns do not charge, so they cannot counter-charge: only the melee as charged
    guns = Unit("g", "Guns", AMERICAN, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
                sections=2, formation=Formation.UNLIMBERED, weapon=Weapon.CANNON)
    b = foot("b", BRITISH, size=12)
    y = 10 + FOOT_DEPTH / 2 + 2 + FOOT_DEPTH / 2
    state = on_table((b, guns), {"b": (20, 10, 0), "g": (20, y, 180)})
    deferred, _ = TURN.step(state, Charge(("b",), ("g",), defer=True))
    pending = deferred.replace(phase=DEFERRED)
    assert set(TURN.legal_actions(pending)) == {ResolveDeferred(False, False),
                                                ResolveDeferred(False, True)}
    with pytest.raises(IllegalActionError, match="tables cannot turn: Guns may not charge"):
        TURN.step(pending, ResolveDeferred(reverse=True))


def test_the_tables_turned_are_measured_from_the_counter_chargers_side() -> None:
    # a charged b's rear while b stood in an orchard (light cover): the charge's facts are
    # rear contact and light cover. Turned, b counter-charges a, which it meets front to
    # front (b turns to face it) in the open: 4 impetus dice (no +3 for a rear), and the
    # melee needs 3 + impetus (no -1 for light cover; a has bayonets)
    orchard = (Feature.rectangle("orchard", "light woods", 20, YB, 10, 1.5),)
    state = _rear_charge(features=orchard)
    (melee,) = state.extra.deferred
    assert melee.facts.contact is Contact.REAR and melee.facts.cover is Cover.LIGHT
    for seed in range(6):
        seeded = state.replace(dice=_seeded_dice(state, seed))
        _, events = TURN.step(seeded, ResolveDeferred(reverse=True))
        turn, fought = events[:2]
        assert turn.text == "b turns to face the enemy and counter-charges"
        assert fought.subject == "b" and fought.text.startswith("b charge a: impetus ")
        assert fought.rolls[0].check.startswith("4d12")
        impetus = int(fought.text.split("impetus ")[1].split(";")[0])
        if "no melee" not in fought.text:
            assert f"(need {3 + impetus})" in fought.text
        assert "evade" not in {e.kind for e in events}


def test_a_counter_charger_meets_a_steep_hill_downhill() -> None:
    # a charged b up a steep hill (-1 d12); turned, b charges a downhill: no -1. b's
    # impetus dice: 4, one per DRP on a, less one per DRP on b
    hill = (Feature.rectangle("hill", "steep hill", 20, YB + 1, 20, 6),)
    state = _rear_charge(features=hill)
    (melee,) = state.extra.deferred
    assert melee.facts.uphill
    _, events = TURN.step(state, ResolveDeferred(reverse=True))
    dice = 4 + state.unit("a").disruption - state.unit("b").disruption
    assert events[1].rolls[0].check.startswith(f"{dice}d12")


def test_a_counter_charger_pursues_the_way_its_enemy_ran() -> None:
    # seed 89: b, charged in the rear, turns the tables and routs a; it pursues towards a
    # (down the table, facing it), not straight on the way it faced
    state = _rear_charge()
    pursued = 0
    for seed in range(12):
        seeded = state.replace(dice=_seeded_dice(state, seed))
        after, events = TURN.step(seeded, ResolveDeferred(reverse=True, pursue=True))
        pursuit = [e for e in events if e.kind == "pursuit"]
        table = after.extra.table
        assert table is not None
        if not pursuit:
            continue
        pursued += 1
        go = int(pursuit[0].text.split("pursues ")[1].split('"')[0])
        end = table.footprint("b")
        assert end.facing == pytest.approx(180) and end.x == pytest.approx(20)
        assert YB - go - 1e-6 <= end.y < YB
    assert pursued


# --- push backs away from the enemy, facing it (Morale: results table; B57) ----------------
def test_a_push_back_goes_away_from_an_enemy_behind_and_turns_to_face_it() -> None:
    # seed 126: the riflemen a face up the table with the enemy b 8" behind them: pushed back
    # 4" they go up the table, away from b, and turn about to face it (not 4" towards it)
    units = (foot("b", BRITISH), foot("a", AMERICAN))
    state = on_table(units, {"b": (20, 16, 0), "a": (20, 24, 0)})
    after = situations.retreat(state, (("a", Fate.FALLS_BACK, 4),)).extra.table
    assert after is not None
    a = after.footprint("a")
    assert a.centre == pytest.approx((20, 28)) and a.facing % 360 == pytest.approx(180)


def test_a_push_back_goes_away_from_an_enemy_on_its_flank_and_turns_to_face_it() -> None:
    # b touches a's left flank: a (two bases, 4.72" wide) goes 4" to its right and turns
    # to its left to face b (facing 270); its new footprint, 1.18" across, fits there
    units = (foot("b", BRITISH), foot("a", AMERICAN, size=12))
    left_edge = 20 - 2 * BASE / 2
    state = on_table(units, {"b": (left_edge - FOOT_DEPTH / 2, 20, 90), "a": (20, 20, 0)})
    table = state.extra.table
    assert table is not None and in_contact(table, "a", "b")
    after = situations.retreat(state, (("a", Fate.FALLS_BACK, 4),)).extra.table
    assert after is not None
    a = after.footprint("a")
    assert a.centre == pytest.approx((24, 20)) and a.facing % 360 == pytest.approx(270)


def test_a_push_back_with_the_enemy_ahead_goes_straight_back() -> None:
    units = (foot("b", BRITISH), foot("a", AMERICAN))
    state = on_table(units, {"b": (20, 10, 0), "a": (20, 20, 180)})
    after = situations.retreat(state, (("a", Fate.FALLS_BACK, 5),)).extra.table
    assert after is not None
    a = after.footprint("a")
    assert a.centre == pytest.approx((20, 25)) and a.facing % 360 == pytest.approx(180)
