"""Table play the referee found at fault, each worked out by hand on a drawn table: a charger
that loses a base to point blank fire, the charged unit's pins, the arc of point blank fire,
commanders and routing tests, routing friends within 6", retreats, formation changes that
would end on a unit, routs through friends, charges across terrain."""

from __future__ import annotations

import pytest

from smoothbore.battle import play, random_policy
from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.actions import ChangeFormation, Charge, MoveCommander, Respond
from smoothbore.boltaction_acw.charges import ChargeFacts, Reaction, Response, receive
from smoothbore.boltaction_acw.phases import ORDERS, REACTION
from smoothbore.boltaction_acw.placing import footprint
from smoothbore.boltaction_acw.rules import (
    RULE_CHARGE,
    RULE_CHARGED,
    RULE_FORMATION,
    RULE_ROUT_TESTS,
)
from smoothbore.boltaction_acw.situations import retreat_flight, rout_flight
from smoothbore.boltaction_acw.state import (
    PendingCharge,
    State,
    new_battle,
    routing_friends,
    with_units,
)
from smoothbore.boltaction_acw.units import (
    CONFEDERATE,
    UNION,
    Formation,
    Unit,
    UnitType,
    Weapon,
    revise,
)
from smoothbore.core import DiceState, IllegalActionError, odds
from smoothbore.table import Feature, Table, in_contact

from .battle import sample_battle
from .oracle import two_d6_at_most

UNITS = {
    "a": Unit("a", "Union line", UNION, bases=5),
    "b": Unit("b", "Confederate line", CONFEDERATE, bases=5),
}


def on_table(units: dict[str, Unit], places: dict[str, tuple[float, float, float]],
             features: tuple[Feature, ...] = ()) -> State:
    """A battle of ``units`` at their places (centre x, y, facing) on a 40" x 40" table, the
    first unit's group in action."""
    feet = tuple(footprint(units[uid], *place) for uid, place in places.items())
    state = new_battle(tuple(units[uid] for uid in places), (),
                       table=Table(40, 40, features=features, footprints=feet))
    return state.replace(phase=ORDERS).with_extra(group=next(iter(places)))


# --- finding 1: a charger that loses a base to point blank fire ---------------------------
@pytest.mark.parametrize("seed", [57, 79])
def test_random_battles_where_point_blank_fire_narrows_a_charger_play_out(seed: int) -> None:
    """Seeds 57 and 79 of the default battle: 4th Virginia, clipping 6th Wisconsin with a
    corner of its front, loses a base to point blank fire and charges home."""
    played = play(TURN, RULESET.battle("default")(seed), random_policy(seed))
    assert played.outcome is not None


def test_a_charger_that_loses_a_base_still_charges_home_touching_the_target() -> None:
    """A 5-base line (7.5" wide, front from x 16.25 to 23.75) charges a line 5" ahead whose
    left end is at x 23.5: only the charger's last 0.25" meets it. It carries 3 casualties,
    so a fourth from the point blank fire takes a base: 4 bases, 6" wide. Laid with the
    front edge where the wide one touched (y 15.5, centre y 15) and slid 0.75" right (all
    the room there is), its front runs from 17.75 to 23.75 and still touches."""
    units = {"a": Unit("a", "Union line", UNION, bases=5, casualties=3), "b": UNITS["b"]}
    narrowed = 0
    for seed in range(60):
        state = on_table(units, {"a": (20, 10, 0), "b": (27.25, 16, 180)})
        charged, _ = TURN.step(state.replace(dice=DiceState(seed)), Charge("a", "b"))
        if charged.extra.charge is None:
            continue
        after, events = TURN.step(charged, Respond("b", Response.FIRE))
        texts = " ".join(e.text for e in events)
        if "moves into contact" not in texts or after.unit("a").bases != 4:
            continue
        table = after.extra.table
        if "a" not in table.units:
            continue
        assert table.footprint("a").width == 6.0
        if "falls back" in texts:  # the contact was where the event says; then it fell back
            assert "moves into contact at (20.8, 15.0)" in texts
            narrowed += 1
            continue
        assert table.footprint("a").centre == pytest.approx((20.75, 15.0))
        if "b" in table.units and "falls back" not in texts and "routs" not in texts:
            assert in_contact(table, "a", "b")
        narrowed += 1
    assert narrowed


# --- finding 8: the charged unit's passed order test removes a pin ------------------------
def test_a_charged_unit_that_passes_its_order_test_removes_a_pin() -> None:
    """A regular line with 2 pins and its colonel is charged: 8 + 1 - 2 = 7. Passed (2D6 at
    most 7), it holds with 1 pin left (Order tests: "removes 1 pin"); failed, it retreats
    with both."""
    foot, enemy = Unit("f", "Foot", UNION), Unit("e", "Enemy", CONFEDERATE, pins=2)
    dist = odds(lambda dice: (lambda out: (out.reaction, out.target.pins))(
        receive(foot, enemy, ChargeFacts(), Response.HOLD, dice=dice)))
    assert dist.probability((Reaction.CHARGE_HOME, 1)) == two_d6_at_most(7)
    assert dist.probability((Reaction.RETREATED, 2)) == 1 - two_d6_at_most(7)


# --- finding 9: point blank fire only at a charger in the 45° front arc -------------------
def charged(facing: float, facts: ChargeFacts) -> State:
    """A Union line at (20, 10) facing up the table charges a Confederate line 5" ahead
    (centre (20, 16)) facing ``facing``; the Confederates react."""
    state = on_table(UNITS, {"a": (20, 10, 0), "b": (20, 16, facing)})
    return state.replace(phase=REACTION).with_extra(charge=PendingCharge("a", "b", facts))


def test_point_blank_fire_only_at_a_charger_in_the_front_arc() -> None:
    """Facing the charger (180°), the charger stands straight ahead: fire or hold. With its
    back to it (0°: every corner of the charger behind its front edge at y 16.5) it may only
    hold; firing is refused by the rule of the charged unit's reaction. Side on (90°) the
    charger's right corner (23.75, 10.5) stands 3.25" ahead of and 1.75" to the right of
    the charged unit's right front corner (20.5, 12.25): inside the 45° line, so it may fire."""
    front = charged(180, ChargeFacts(5))
    both = {Respond("b", Response.FIRE), Respond("b", Response.HOLD)}
    assert set(TURN.legal_actions(front)) == both
    assert set(TURN.legal_actions(charged(90, ChargeFacts(2, flank=True)))) == both
    rear = charged(0, ChargeFacts(5, rear=True))
    assert TURN.legal_actions(rear) == (Respond("b", Response.HOLD),)
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(rear, Respond("b", Response.FIRE))
    assert raised.value.rule == RULE_CHARGED and "may: hold fire" in raised.value.why


# --- finding 7: commanders ride after the brigade's routing tests -------------------------
def test_a_commander_rides_only_after_the_brigades_routing_tests() -> None:
    """19th Indiana of Gibbon's brigade routs from an earlier turn and has not tested:
    neither Gibbon nor King may ride (The Turn: 2, routers test; 3, move), and neither ride
    is listed; once it has tested, both may."""
    state = sample_battle(0).replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    state = with_units(state, revise(state.unit("u19in"), routing=True)).with_extra(
        routs=(), routed=frozenset())
    legal = TURN.legal_actions(state)
    for ride in (MoveCommander("gibbon", "u2wi"), MoveCommander("king", "u7wi")):
        assert ride not in legal
        with pytest.raises(IllegalActionError) as raised:
            TURN.check(state, ride)
        assert raised.value.rule == RULE_ROUT_TESTS
    tested = state.with_extra(tested=frozenset({"u19in"}))
    legal = TURN.legal_actions(tested)
    assert MoveCommander("gibbon", "u2wi") in legal and MoveCommander("king", "u7wi") in legal


# --- finding 5: friendly units routing within 6" ------------------------------------------
def test_on_a_table_routing_friends_are_those_within_6_inches() -> None:
    """A Union line of brigade "x" at (20, 10), 7.5" wide and 1" deep. Routing Union units:
    one of brigade "y" beside it with exactly 6" between the nearest points (counted:
    within 6"), one of its own brigade 6.5" ahead of its front (not counted), one of its
    own brigade 19" ahead (not counted); a routing enemy 5" behind it (not a friend). One
    friend routing within 6" (without a table A15's reading would count the two of its
    brigade)."""
    units = {
        "a": Unit("a", "Union line", UNION, bases=5, brigade="x"),
        "r1": Unit("r1", "Beside", UNION, bases=5, brigade="y", routing=True),
        "r2": Unit("r2", "Ahead", UNION, bases=5, brigade="x", routing=True),
        "r3": Unit("r3", "Far ahead", UNION, bases=5, brigade="x", routing=True),
        "b": Unit("b", "Enemy", CONFEDERATE, bases=5, routing=True),
    }
    state = on_table(units, {"a": (20, 10, 0), "r1": (33.5, 10, 0), "r2": (20, 17.5, 0),
                             "r3": (20, 30, 0), "b": (20, 4, 0)})
    assert routing_friends(state, state.unit("a")) == 1
    bare = new_battle(tuple(units.values()), ())
    assert routing_friends(bare, bare.unit("a")) == 2


# --- finding 6: a retreat tells what it moved and keeps 1" from the enemy -----------------
def test_a_retreat_stops_1_inch_short_of_an_enemy_and_says_so() -> None:
    """The Confederate line (y 15.5 to 16.5) charged from below retreats straight up the
    table, its full move 6"; a Union line stands across its way with its near edge at
    y 19.5, 3" off. It stops 1" short of it: 2" moved, centre at (20, 18). Failing its order
    test under 6 pins (8 - 6 = 2: only a natural 2 passes), it retreats whatever the dice
    but a double 1."""
    units = {"a": UNITS["a"], "b": Unit("b", "Confederate line", CONFEDERATE, bases=5, pins=6),
             "c": Unit("c", "Union reserve", UNION, bases=5)}
    _retreats_as(on_table(units, {"a": (20, 10, 0), "b": (20, 16, 180), "c": (20, 20, 180)}),
                 "Confederate line retreats 2.0\" of its 6\" to (20.0, 18.0), stopped 1\" "
                 "short of Union reserve", (20, 18))


def _retreats_as(state: State, told: str, centre: tuple[float, float]) -> None:
    """Unit a's charge at b, which holds its fire: on each of a dozen dice seeds where b
    retreats, the event reads ``told`` and b's centre ends at ``centre``."""
    retreats = 0
    for seed in range(12):
        charged = state.replace(phase=REACTION, dice=DiceState(seed)).with_extra(
            charge=PendingCharge("a", "b", ChargeFacts(5)))
        after, events = TURN.step(charged, Respond("b", Response.HOLD))
        texts = [e.text for e in events]
        if not any("retreats" in t for t in texts):
            continue
        assert told in texts
        assert after.extra.table.footprint("b").centre == pytest.approx(centre)
        retreats += 1
    assert retreats


# --- finding 2: a new formation keeps its front edge and ends on no unit ------------------
def test_a_column_forms_behind_the_lines_front_edge() -> None:
    """A line at (20, 10), 7.5" wide and 1" deep (front edge y 10.5), forms column: 1.5"
    wide and 5" deep. Its front edge stays at y 10.5, so its centre goes to (20, 8) (about
    its centre its head would have gone 2" forward, to 12.5, within 1" of the enemy whose
    front is at y 13)."""
    state = on_table(UNITS, {"a": (20, 10, 0), "b": (20, 13.5, 180)})
    action = ChangeFormation("a", Formation.COLUMN)
    assert action in TURN.legal_actions(state)
    new, events = TURN.step(state, action)
    fp = new.extra.table.footprint("a")
    assert (fp.width, fp.length) == (1.5, 5.0)
    assert fp.centre == pytest.approx((20, 8))
    assert any("forms column" in e.text for e in events)


def test_a_formation_change_that_would_end_on_a_unit_is_refused() -> None:
    """The same line with a friendly line behind it (y 5.5 to 6.5): the column, from y 10.5
    back to 5.5, would end on it, so the change is refused and not offered."""
    units = {**UNITS, "c": Unit("c", "Union reserve", UNION, bases=5)}
    state = on_table(units, {"a": (20, 10, 0), "c": (20, 6, 0), "b": (20, 30, 180)})
    action = ChangeFormation("a", Formation.COLUMN)
    assert action not in TURN.legal_actions(state)
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state, action)
    assert raised.value.rule == RULE_FORMATION and "it would end on c" in raised.value.why


def test_a_battery_limbers_behind_its_front() -> None:
    """A gun unlimbered at (20, 10) is 2" x 2" (front edge y 11); limbered it is 1.5" x 4".
    With an enemy 1.5" ahead (front at y 12.5) it limbers to y 7 to 11, centre (20, 9)
    (about its centre it would reach y 12, 0.5" from the enemy)."""
    units = {"g": Unit("g", "Union battery", UNION, UnitType.ARTILLERY,
                       weapon=Weapon.SMOOTHBORE_CANNON, formation=Formation.UNLIMBERED),
             "b": UNITS["b"]}
    state = on_table(units, {"g": (20, 10, 0), "b": (20, 13, 180)})
    action = ChangeFormation("g", Formation.LIMBERED)
    assert action in TURN.legal_actions(state)
    new, _ = TURN.step(state, action)
    fp = new.extra.table.footprint("g")
    assert (fp.width, fp.length) == (1.5, 4.0)
    assert fp.centre == pytest.approx((20, 9))


# --- finding 3: routs and retreats move through friends, never stop on one ----------------
def test_a_retreat_through_a_friend_stops_short_of_the_friend_it_would_end_on() -> None:
    """The Confederate line (y 15.5 to 16.5) retreats 6" straight up the table, through a
    friendly column lying across its way 3" behind it (side on: y 19.5 to 21). Its full
    move would end at y 21.5 to 22.5, on another friendly line (y 22.25 to 23.25): it stops
    short of that one, its rear edge at 22.25, centre y 21.75, 5.75" moved, having passed
    through the column (so it takes an interpolation test) and ending on neither."""
    units = {"a": UNITS["a"], "b": Unit("b", "Confederate line", CONFEDERATE, bases=5, pins=6),
             "k": Unit("k", "Confederate column", CONFEDERATE, bases=1,
                       formation=Formation.COLUMN),
             "d": Unit("d", "Confederate reserve", CONFEDERATE, bases=5)}
    state = on_table(units, {"a": (20, 10, 0), "b": (20, 16, 180), "k": (20, 20.25, 90),
                             "d": (20, 22.75, 180)})
    flight = retreat_flight(state, "b", "a")
    assert flight.end is not None
    assert flight.end.centre == pytest.approx((20, 21.75), abs=1e-6)
    assert flight.moved == pytest.approx(5.75, abs=1e-6)
    assert flight.through == ("k",)
    assert flight.stopped_by == "d"


def test_a_rout_never_ends_on_a_friend() -> None:
    """A router in a line 7.5" wide at (20, 20) runs 12" away from the one enemy it sees,
    straight up the table (the enemy at (20, 10) below it); a friendly line stands across its
    landing place at y 32 (31.5 to 32.5): it stops with its rear edge short of it, at
    y 31.5, having passed through nothing."""
    units = {"a": UNITS["a"], "b": Unit("b", "Confederate line", CONFEDERATE, bases=5,
                                         routing=True),
             "d": Unit("d", "Confederate reserve", CONFEDERATE, bases=5)}
    state = on_table(units, {"a": (20, 10, 0), "b": (20, 20, 180), "d": (20, 32, 180)})
    flight = rout_flight(state, "b")
    assert flight.end is not None
    table = state.extra.table
    ended = table.placed(flight.end)
    assert ended.footprint("b").shape.intersection(table.footprint("d").shape).area == 0
    assert in_contact(ended, "b", "d")
    assert flight.stopped_by == "d" and flight.through == ()


# --- finding 4: a charge pays for fences and woods as a run does --------------------------
@pytest.mark.parametrize(("feature", "allowed", "refused", "cost"), [
    # a fence 2" ahead of the centre: crossing it costs half the 12" run, 6" of ground left
    (Feature("f", "fence", line=((0, 12), (40, 12))), 6, 7, "13.0"),
    # woods from 4" to 8" ahead of the centre, counted double: 8" of ground is 4 + 2 * 4
    (Feature.rectangle("w", "light woods", 20, 16, 40, 4), 8, 9, "13.0"),
])
def test_a_charge_pays_for_fences_and_woods_as_a_run(feature: Feature, allowed: int,
                                                     refused: int, cost: str) -> None:
    """A line (run 12") charges a line straight ahead whose front is ``allowed`` or
    ``refused`` inches ahead of its own; its centre crosses the ground the run pays for."""
    def state(ahead: int) -> State:
        return on_table(UNITS, {"a": (20, 10, 0), "b": (20, 11 + ahead, 180)}, (feature,))

    near = state(allowed)
    assert Charge("a", "b") in TURN.legal_actions(near)
    far = state(refused)
    assert Charge("a", "b") not in TURN.legal_actions(far)
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(far, Charge("a", "b"))
    assert raised.value.rule == RULE_CHARGE
    assert f"the charge costs {cost}\" of a run of 12\"" in raised.value.why


def test_a_retreat_stopped_at_a_fence_says_so() -> None:
    """The Confederate line (centre y 16) retreats straight up the table; a fence crosses
    its way at y 19.5. Its centre goes 3.5" to the fence, and the crossing (half its 6"
    move) cannot be paid from the 2.5" left: it stops at the fence."""
    units = {"a": UNITS["a"], "b": Unit("b", "Confederate line", CONFEDERATE, bases=5, pins=6)}
    fence = Feature("f", "fence", line=((0, 19.5), (40, 19.5)), label="the farm fence")
    _retreats_as(on_table(units, {"a": (20, 10, 0), "b": (20, 16, 180)}, (fence,)),
                 "Confederate line retreats 3.5\" of its 6\" to (20.0, 19.5), stopped at the "
                 "farm fence (crossing it costs half a move)", (20, 19.5))
