"""Issue 27, Bolt Action ACW: the faults a referee found in table play, each with the section
of boltaction-acw.txt it breaks (or the interpretation, docs/interpretations/
boltaction_acw.md, that settles it)."""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

from smoothbore.battle import random_policy
from smoothbore.boltaction_acw import RULESET, TURN
from smoothbore.boltaction_acw.actions import (
    Advance,
    ArmyTest,
    Charge,
    Down,
    Fire,
    Mount,
    Move,
    MoveCommander,
    Rally,
    RallyFromRout,
    Respond,
    Run,
)
from smoothbore.boltaction_acw.charges import ChargeFacts, Reaction, Response, receive
from smoothbore.boltaction_acw.melee import fight
from smoothbore.boltaction_acw.morale import morale_need
from smoothbore.boltaction_acw.movement import interpenetrate, woods_test
from smoothbore.boltaction_acw.options import Options
from smoothbore.boltaction_acw.phases import ORDERS, REACTION
from smoothbore.boltaction_acw.placing import footprint, relaid
from smoothbore.boltaction_acw.rules import (
    RULE_ARMY,
    RULE_MORALE,
    RULE_ORDER_TESTS,
    RULE_RALLY_ROUT,
    RULE_TABLE,
)
from smoothbore.boltaction_acw.scenarios import brawners_farm
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
    Experience,
    Formation,
    Unit,
    UnitType,
    Weapon,
    revise,
)
from smoothbore.core import Check, DiceState, IllegalActionError, odds
from smoothbore.table import Table

from .battle import sample_battle
from .oracle import two_d6_at_most


class Told:
    """Dice that give the outcomes they are told, in turn (a test's chosen rolls)."""

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.asked: list[str] = []

    def roll(self, check: Check[Any], *, reason: str, rule: str) -> Any:
        self.asked.append(reason)
        return self.outcomes.pop(0)


def standing_on_table(state: State) -> bool:
    """The table's footprints are exactly the units still in the battle."""
    table = state.extra.table
    assert table is not None
    return set(table.units) == {u.id for u in state.units if not u.lost}


# --- 1: a brigade sent home leaves the table ----------------------------------------------
def test_a_brigade_sent_home_by_the_army_test_leaves_the_table() -> None:
    """Brigade and army strength: an army that has lost half its brigades tests each
    brigade; failed, "the Brigade goes home". Brawner's Farm: three of Gibbon's five units
    routing break the Union's only brigade; Gibbon's brigade fails its army test and every
    one of its units leaves the table (until issue 27 their footprints stayed)."""
    state = brawners_farm(0)
    broken = with_units(state, *(revise(state.unit(uid), routing=True)
                                 for uid in ("u2wi", "u6wi", "u7wi")))
    broken = broken.replace(phase=ORDERS).with_extra(group="brigade:gibbon", routs=())
    assert TURN.legal_actions(broken) == (ArmyTest(),)
    after, events = TURN.apply(broken, ArmyTest(), Told(False))
    assert all(after.unit(uid).home for uid in ("u2wi", "u6wi", "u7wi", "u19in", "ub4us"))
    assert standing_on_table(after)
    assert not set(after.extra.table.units) & {"u2wi", "u6wi", "u7wi", "u19in", "ub4us"}
    assert events[-1].fact("test") == "army" and events[-1].fact("result") == "failed"
    assert events[-1].fact("outcome") == "goes home"


# --- 10: the ruleset pickles ------------------------------------------------------------------
def test_the_ruleset_pickles_also_after_evolve() -> None:
    """Issue 27: a ruleset goes to a process pool, also when changed by ``attrs.evolve``:
    its battles (the no-table ones too) and handlers are found by name; the copy plays."""
    changed = attrs.evolve(RULESET, title="Bolt Action, house copy")
    for ruleset in (RULESET, changed):
        copy = pickle.loads(pickle.dumps(ruleset))
        assert copy.title == ruleset.title
        state = copy.battle("default-no-table")(1)
        assert state.extra.table is None
        assert copy.turn.legal_actions(state) == TURN.legal_actions(state)


def on_table(units: dict[str, Unit], places: dict[str, tuple[float, float, float]]) -> State:
    """A battle of ``units`` at their places (centre x, y, facing) on a 40" x 40" table, the
    first unit's group in action."""
    feet = tuple(footprint(units[uid], *place) for uid, place in places.items())
    state = new_battle(tuple(units[uid] for uid in places), (),
                       table=Table(40, 40, footprints=feet))
    return state.replace(phase=ORDERS).with_extra(group=next(iter(places)))


LINE = Unit("a", "Union line", UNION, bases=5)
FRIEND = Unit("c", "Union column", UNION, bases=5, formation=Formation.COLUMN)
ENEMY = Unit("b", "Confederate line", CONFEDERATE, bases=5)


# --- 3: a failed interpolation ends 1" behind the front unit --------------------------------
def test_a_failed_interpolation_leaves_the_mover_1_inch_behind_the_front_unit() -> None:
    """Interpolation of units: failed, "both units take a pin and the rear unit stays 1"
    behind the front unit". A line (front edge at y 10.5) advancing 6" through a column
    lying across its way (y 12.25 to 13.75) fails its test: it goes 0.75", its front 1"
    short of the column (until issue 27 it stayed where it started, 1.75" short)."""
    state = on_table({"a": LINE, "c": FRIEND, "b": ENEMY},
                     {"a": (20, 10, 0), "c": (20, 13, 90), "b": (20, 36, 180)})
    new, events = TURN.apply(state, Advance("a", move=Move(6)), Told(False))
    line = new.extra.table.footprint("a")
    assert line.centre == pytest.approx((20, 10.75), abs=1e-6)
    assert line.facing == 0
    assert (new.unit("a").pins, new.unit("c").pins) == (1, 1)
    tested = [e for e in events if e.fact("test") == "interpolation"]
    assert [e.fact("result") for e in tested] == ["failed"]


def test_a_failed_interpolation_already_1_inch_behind_stays() -> None:
    """Interpolation of units: a line whose front is already 1" from the column stays
    where it is when it fails (it never goes back)."""
    state = on_table({"a": LINE, "c": FRIEND, "b": ENEMY},
                     {"a": (20, 10.75, 0), "c": (20, 13, 90), "b": (20, 36, 180)})
    new, _ = TURN.apply(state, Advance("a", move=Move(6)), Told(False))
    assert new.extra.table.footprint("a").centre == pytest.approx((20, 10.75))


# --- 4: a passed woods or interpolation test removes a pin --------------------------------
def test_a_passed_woods_test_removes_a_pin() -> None:
    """Terrain Movement Modifiers (woods: an order test in line) and Order tests ("if the
    order test is passed ... it removes 1 pin"): a regular line with 2 pins and its colonel
    passes on 2D6 at most 8 - 2 + 1 = 7, ending with 1 pin; failing, it takes a third."""
    pinned = revise(LINE, pins=2)
    dist = odds(lambda dice: woods_test(pinned, dice=dice).pins)
    assert dist.probability(1) == two_d6_at_most(7)
    assert dist.probability(3) == 1 - two_d6_at_most(7)


def test_a_passed_interpolation_test_removes_the_movers_pin() -> None:
    """Interpolation of units: the test is an order test; passed, the mover (2 pins)
    removes one and the friend it passes through keeps none."""
    pinned = revise(LINE, pins=2)
    passed, mover, friend = interpenetrate(pinned, FRIEND, dice=Told(True))
    assert passed and mover.pins == 1 and friend.pins == 0


def test_a_charged_unit_passing_its_interpolation_test_removes_a_pin() -> None:
    """Melee: a charged unit failing its order test retreats; meeting a friend it takes an
    interpolation test, an order test: passed, it passes through and removes a pin."""
    charger = Unit("x", "Confederate line", CONFEDERATE, bases=5)
    target = revise(LINE, pins=2)
    out = receive(charger, target, ChargeFacts(6), Response.HOLD, FRIEND,
                  dice=Told(False, True))
    assert out.reaction is Reaction.RETREATED
    assert out.target.pins == 1 and out.behind is not None and out.behind.pins == 0


# --- 5: a charged unit that fails its order test has no orders that turn ----------------------
def test_a_charged_unit_that_fails_its_order_test_is_given_no_orders_that_turn() -> None:
    """Order tests: "a failed morale test means that unit cannot complete that order or any
    other orders that turn except hand to hand fighting". The 4th Virginia, charged, fails
    its order test and retreats; when its brigade's die comes it may not fire (until issue
    27 it could: Brawner's Farm seed 3, turn 5, the 6th Wisconsin)."""
    state = sample_battle(0).replace(phase=REACTION).with_extra(
        group="brigade:gibbon", charge=PendingCharge("u2wi", "c4va", ChargeFacts(6)))
    new, events = TURN.apply(state, Respond("c4va", Response.HOLD), Told(False))
    assert events[0].fact("test") == "order" and events[0].fact("result") == "failed"
    later = new.with_extra(group="brigade:stonewall", activated=frozenset({"brigade:stonewall"}))
    legal = TURN.legal_actions(later)
    orders = [a for a in legal if not isinstance(a, MoveCommander)]
    assert not [a for a in orders if getattr(a, "unit_id", None) == "c4va"]
    assert any(getattr(a, "unit_id", None) == "c2va" for a in orders)
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(later, Fire("c4va", "u2wi"))
    assert raised.value.rule == RULE_ORDER_TESTS


# --- 6: victorious cavalry charge a second time, not a third ----------------------------------
def _cavalry_wins(state: State, charge: Charge) -> State | None:
    """The state after ``charge`` (its order test, the target holding, the melee) when the
    cavalry win and the infantry rout, over seeds 0 to 199 (None: never)."""
    for seed in range(200):
        charged, _ = TURN.step(state.replace(dice=DiceState(seed)), charge)
        if charged.phase != REACTION:
            continue
        after, events = TURN.step(charged, Respond("u19in", Response.HOLD))
        if after.unit("u19in").routing and any(
                e.kind == "melee" and "the charger wins" in e.text for e in events):
            return after
    return None


def test_victorious_cavalry_charge_a_second_time_but_not_a_third() -> None:
    """Melee: "Victorious cavalry can launch a 2nd charge in the same turn if they pass
    another order test". The 2nd Virginia Cavalry charge the 19th Indiana in the flank and
    win: they may charge again; winning that second charge, they may not charge a third
    time (until issue 27 each victory gave another)."""
    base = sample_battle(0).replace(phase=ORDERS).with_extra(group="c2vac")
    charge = Charge("c2vac", "u19in", ChargeFacts(6, flank=True))
    first = _cavalry_wins(base, charge)
    assert first is not None and dict(first.extra.second).get("c2vac") == 12
    second = base.with_extra(ordered=frozenset({"c2vac"}), second=(("c2vac", 12),))
    assert charge in TURN.legal_actions(second)
    won = _cavalry_wins(second, charge)
    assert won is not None
    assert "c2vac" not in dict(won.extra.second)
    assert not [a for a in TURN.legal_actions(won) if isinstance(a, Charge)]


# --- 7: a rallied router remains stationary, with an order ---------------------------------
def test_a_rallied_router_may_take_an_order_that_does_not_move_it() -> None:
    """Morale Test: a routing unit that passes its test at the start of the next turn
    "must remain stationary for that turn": the 2nd Wisconsin rallies, then may fire, go
    down or rally off its pins, but not advance, run or charge (until issue 27 it got no
    order at all) (A34)."""
    state = sample_battle(0)
    state = with_units(state, revise(state.unit("u2wi"), routing=True, pins=2))
    state = state.replace(phase=ORDERS, turn=2).with_extra(group="brigade:gibbon", routs=(),
                                                           routed=frozenset())
    rallied, events = TURN.apply(state, RallyFromRout("u2wi"), Told(True, 1))
    assert not rallied.unit("u2wi").routing and rallied.unit("u2wi").pins == 1
    assert events[0].fact("test") == "morale" and events[0].fact("result") == "passed"
    mine = [a for a in TURN.legal_actions(rallied) if getattr(a, "unit_id", "") == "u2wi"
            and not isinstance(a, MoveCommander)]
    kinds = {type(a) for a in mine}
    assert {Fire, Down, Rally} <= kinds
    assert not kinds & {Advance, Run, Charge}
    for moving in (Advance("u2wi"), Run("u2wi"), Charge("u2wi", "c4va", ChargeFacts(6))):
        with pytest.raises(IllegalActionError) as raised:
            TURN.check(rallied, moving)
        assert raised.value.rule == RULE_RALLY_ROUT
    fired, _ = TURN.step(rallied, Fire("u2wi", "c4va"))
    assert "u2wi" in fired.extra.ordered


# --- 9: when the defenders take their pin -------------------------------------------------------
def test_defenders_strike_before_they_take_their_pin() -> None:
    """Melee: "once the attackers have inflicted casualties then the remaining defenders
    respond"; "any unit losing casualties in a melee takes a pin". A35: the defenders
    strike with the casualties taken (fewer men) but take the pin at the end of the round,
    so a regular line with no pins that loses 1 man strikes at 3+, not 4+ (option
    ``melee_pin_first``: 4+); it ends the round with its pin either way."""
    charger = Unit("x", "Confederate line", CONFEDERATE, bases=5)
    defender = LINE
    for first, need in ((False, "3+"), (True, "4+")):
        options = Options(melee_pin_first=first)
        # chargers: 1 hit, 1 wound (no 6); defenders: no hit; the loser holds, the victor too
        dice = Told(1, (1, 0), 0, True, True)
        result, _, hurt = fight(charger, defender, charging=True, dice=dice, options=options)
        assert [r for r in dice.asked if r.startswith("Union line attacks")] == [
            f"Union line attacks, {need}"]
        assert (result.by_charger, result.by_defender) == (1, 0)
        assert hurt.pins == 1


# --- 2: cavalry mount / dismount and move on a table ----------------------------------------
CAVALRY = Unit("k", "Union cavalry", UNION, UnitType.CAVALRY, Experience.REGULAR,
               Weapon.RIFLED_CARBINE)
TROOPERS = attrs.evolve(CAVALRY, mounted=False, formation=Formation.SKIRMISH)


@pytest.mark.parametrize(("unit", "mount", "rate"), [(CAVALRY, Mount.DISMOUNT, 6),
                                                     (TROOPERS, Mount.REMOUNT, 9)])
def test_cavalry_mount_or_dismount_and_move_on_a_table(unit: Unit, mount: Mount,
                                                       rate: int) -> None:
    """Orders, 2: "Cavalry use this order ... to mount / dismount and move". On a table the
    unit mounts or dismounts where it stands (its front edge kept, A33) and moves as it
    then is (dismounted 6", mounted 9", A28); the move is offered and legal, and one beyond
    the new rate is refused by the movement rules (until issue 27 every such move was
    refused, citing the table)."""
    state = on_table({"k": unit, "b": ENEMY}, {"k": (20, 10, 0), "b": (20, 36, 180)})
    advance = Advance("k", mount=mount, move=Move(6))
    assert advance in TURN.legal_actions(state)
    new, _ = TURN.step(state, advance)
    moved = new.unit("k")
    assert moved.mounted is (mount is Mount.REMOUNT)
    start = Table(40, 40, footprints=(  # the table as it was, the unit as it stood
        footprint(unit, 20, 10, 0), footprint(ENEMY, 20, 36, 180)))
    laid = relaid(start, moved)  # where it mounted or dismounted
    assert new.extra.table.footprint("k").centre == pytest.approx((laid.x, laid.y + 6))
    with pytest.raises(IllegalActionError) as raised:
        TURN.check(state, Advance("k", mount=mount, move=Move(rate + 1)))
    assert raised.value.rule != RULE_TABLE and str(rate) in raised.value.why


# --- 11: every test's event carries its outcome as facts --------------------------------------
TESTS = (RULE_ORDER_TESTS, RULE_MORALE, RULE_ARMY, RULE_RALLY_ROUT)


@pytest.mark.parametrize("name", ["default", "mcphersons-ridge", "default-no-table"])
def test_every_event_with_a_test_carries_the_test_and_its_result(name: str) -> None:
    """Issue 27: an event whose rolls include an order test, a morale test, an army test or
    a routing unit's test (Order tests; Morale Test; Brigade and army strength) carries the
    test and its result beside its words (``event.fact("test")``, ``"result"``)."""
    seen: set[object] = set()
    for seed in range(3):
        state = RULESET.battle(name)(seed)
        policy = random_policy(seed)
        while not TURN.is_over(state):
            state, events = TURN.step(state, policy(state, TURN.legal_actions(state)))
            for event in events:
                if any(roll.rule in TESTS for roll in event.rolls):
                    assert event.fact("test") is not None, event
                    assert event.fact("result") in ("passed", "failed"), event
                    seen.add(event.fact("test"))
    assert {"order", "morale"} <= seen


# --- 8: routing friends count in morale tests, not in order tests -----------------------------
def test_routing_friends_count_in_morale_tests_not_in_order_tests() -> None:
    """A15: "-1 for each friendly unit routing within 6"" is a modifier of the Morale Test,
    not of Morale modifiers (the order tests' list). Without a table the 7th Wisconsin,
    routing, is near the 2nd Wisconsin (same brigade, A15): the 2nd's order test to fire
    (regular 8, 1 pin, colonel +1: 8) ignores it; its morale test counts it (8 - 1 = 7)."""
    state = sample_battle(0)
    state = with_units(state, revise(state.unit("u2wi"), pins=1),
                       revise(state.unit("u7wi"), routing=True))
    state = state.replace(phase=ORDERS).with_extra(group="brigade:gibbon", routs=())
    assert routing_friends(state, state.unit("u2wi")) == 1
    fire = Fire("u2wi", "c4va")
    dist = odds(lambda dice: "u2wi" in TURN.apply(state, fire, dice)[0].extra.failed,
                max_branches=10**7)
    assert dist.probability(False) == two_d6_at_most(8)
    need = morale_need(state.unit("u2wi"), routing_friends=1)
    assert need.total == 8 - 1 - 1 + 1
