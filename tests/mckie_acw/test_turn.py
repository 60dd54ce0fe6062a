"""turn.py and the steps: the battle period on the core engine, driven through its actions."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.battle import play, random_policy
from smoothbore.core import IllegalActionError
from smoothbore.mckie_acw import RULESET, TURN, example_battle, rules
from smoothbore.mckie_acw.actions import (
    Activate,
    ChangeOrders,
    ChooseFirst,
    DeclareCharge,
    EndPhase,
    Fire,
    Move,
    RollInitiative,
)
from smoothbore.mckie_acw.phases import ACTIVATION, CHARGES, FIRING, INITIATIVE, MOVEMENT
from smoothbore.mckie_acw.state import State
from smoothbore.mckie_acw.units import OrderKind
from smoothbore.mckie_acw.victory import outcome, scores


def to_phase(state: State, phase: str) -> State:
    """Step with EndPhase (and the initiative) until ``phase`` with the first side acting."""
    while state.phase != phase or state.extra.acting != state.extra.first:
        if state.phase == INITIATIVE:
            action = RollInitiative() if not state.extra.initiative else ChooseFirst(True)
        else:
            action = EndPhase()
        state, _ = TURN.step(state, action)
    return state


def test_initiative_then_the_winner_chooses() -> None:
    state = example_battle(1)
    assert TURN.to_act(state) is None and TURN.legal_actions(state) == (RollInitiative(),)
    state, events = TURN.step(state, RollInitiative())
    winner = state.extra.initiative
    assert TURN.to_act(state) == winner and len(events[0].rolls) == 2
    state, _ = TURN.step(state, ChooseFirst(False))
    assert state.phase == ACTIVATION and state.extra.first != winner


def test_activation_once_corps_before_division() -> None:
    state = to_phase(example_battle(2), ACTIVATION)
    first = state.extra.first
    division = "hood" if first == "Confederate" else "baird"
    corps = "longstreet" if first == "Confederate" else "thomas"
    with pytest.raises(IllegalActionError, match="activated first"):
        TURN.step(state, Activate(division))
    after, _ = TURN.step(state, Activate(corps))
    with pytest.raises(IllegalActionError, match="one attempt"):
        TURN.step(after, Activate(corps))


def test_orders_only_from_above_and_by_meeting_or_courier() -> None:
    state = to_phase(example_battle(0), ACTIVATION)
    if state.extra.first != "Union":
        state, _ = TURN.step(state, EndPhase())
    with pytest.raises(IllegalActionError, match="not above"):
        TURN.step(state, ChangeOrders("baird", "thomas", OrderKind.ATTACK, courier=True))
    with pytest.raises(IllegalActionError, match="send a courier"):
        TURN.step(state, ChangeOrders("thomas", "baird", OrderKind.ATTACK))
    after, _ = TURN.step(state, ChangeOrders("thomas", "baird", OrderKind.ATTACK, courier=True))
    assert after.commander("baird").courier is OrderKind.ATTACK
    assert after.commander("baird").order.kind is OrderKind.HOLD  # arrives next period


def test_holding_troops_may_not_advance_or_charge() -> None:
    state = to_phase(example_battle(0, table=False), CHARGES)
    if state.extra.acting != "Union":
        state, _ = TURN.step(state, EndPhase())
    with pytest.raises(IllegalActionError, match="forbid advancing"):
        TURN.step(state, DeclareCharge("scribner", "law"))
    state = to_phase(state, MOVEMENT)
    if state.extra.acting != "Union":
        state, _ = TURN.step(state, EndPhase())
    with pytest.raises(IllegalActionError, match="forbid advancing"):
        TURN.step(state, Move("scribner", advancing=True))
    TURN.step(state, Move("scribner", advancing=False))


def test_fire_holds_casualties_for_one_roll_at_the_end_of_the_step() -> None:
    state = to_phase(example_battle(0, table=False), FIRING)
    firer = next(u for u in state.units_of(state.extra.acting) if u.id in ("king", "law"))
    target = "benning" if firer.side == "Union" else "scribner"
    state, _ = TURN.step(state, Fire(firer.id, target))
    assert state.extra.pending and state.unit(target).figures == 16
    assert state.unit(firer.id).effort == 1 and state.unit(firer.id).has_fired
    with pytest.raises(IllegalActionError):
        TURN.step(state, Fire(firer.id, target))
    while state.phase == FIRING:
        state, _events = TURN.step(state, EndPhase())
    assert not state.extra.pending


def test_the_battle_ends_at_its_limit_with_an_outcome() -> None:
    played = play(TURN, example_battle(5), random_policy(5))
    end = played.end
    beaten = [s for s in end.sides if not any(u.side == s and u.status.value in
                                              ("steady", "retreating") for u in end.units)]
    assert played.finished and (end.turn == 7 or beaten)
    assert outcome(end).scores == scores(end)


def test_a_side_without_units_in_good_order_loses() -> None:
    from smoothbore.mckie_acw.units import Status

    state = example_battle(0)
    gone = tuple(attrs.evolve(u, status=Status.ROUTING) for u in state.units_of("Union"))
    state = state.with_units(*gone)
    assert TURN.is_over(state)
    assert TURN.outcome(state).winner == "Confederate"


def test_ruleset_metadata_and_battles() -> None:
    assert [name for name, _ in RULESET.battles()] == [
        "default", "sharpshooters", "champion-hill", "default-no-table",
        "sharpshooters-no-table", "champion-hill-no-table"]
    sharp = RULESET.battle("sharpshooters")(0)
    assert sharp.options.snipers and any(u.id == "berdan" for u in sharp.units)


def test_the_ruleset_pickles_also_after_evolve() -> None:
    """Issue 27: the battle period goes to a process pool (Battle period: every step's
    handler is a module-level callable, so pickle finds it by name), also when changed by
    evolve; the copy plays the same step; so does the whole ruleset."""
    import pickle

    changed = attrs.evolve(TURN, name="mckie_acw house copy")
    for turn in (TURN, changed):
        copy = pickle.loads(pickle.dumps(turn))
        assert copy.name == turn.name
        state = example_battle(1)
        assert copy.step(state, RollInitiative())[0] == TURN.step(state, RollInitiative())[0]
    assert pickle.loads(pickle.dumps(RULESET.turn.actions)) == RULESET.turn.actions
    house = attrs.evolve(RULESET, title="McKie, house copy")
    assert pickle.loads(pickle.dumps(house)).title == house.title


def test_lost_units_leave_the_table_after_every_step() -> None:
    """Issue 27 (DESIGN.md, "The table seam": lost units leave the table): after every step
    of random battles on both tables the footprints are exactly the units on the table
    (steady, retreating or routing), and the generals' marks exactly the generals in action;
    a saved state carrying a lost unit's footprint is mended at its next step."""
    from smoothbore.mckie_acw.positions import synced
    from smoothbore.mckie_acw.units import Status, changed

    for name, make in RULESET.battles():
        if "no-table" in name:
            continue
        played = play(TURN, make(2), random_policy(2))
        state = played.start
        for step in played.steps:
            state, _ = TURN.step(state, step.action)
            table = state.extra.table
            assert table is not None
            assert set(table.units) == {u.id for u in state.units if u.on_table}, step
            assert {m.commander_id for m in table.commanders} <= {
                c.id for c in state.commanders if c.active}
    state = example_battle(3)
    lost = state.with_units(changed(state.unit("law"), status=Status.DESTROYED))
    assert "law" in lost.extra.table.units  # type: ignore[union-attr]
    after, _ = TURN.step(lost, RollInitiative())
    assert "law" not in after.extra.table.units  # type: ignore[union-attr]
    assert synced(lost).extra.table.units.keys() == after.extra.table.units.keys()  # type: ignore[union-attr]


def test_every_test_and_roll_of_a_battle_carries_its_outcome_as_facts() -> None:
    """Issue 27 (events carry structured results beside their words): every morale test
    (Morale: Test procedure), initiative and activation roll (Generalship), risk to a
    general (Risk to generals) and melee (Melee: Results of melees) of a battle says its
    outcome as facts."""
    played = play(TURN, example_battle(21), random_policy(21))
    seen: set[str] = set()
    for step in played.steps:
        for event in step.events:
            tested = (event.kind in ("morale", "activation")
                      or event.rule == rules.RISK_TO_GENERALS
                      or (event.kind == "initiative" and "gains" in event.text)
                      or (event.kind == "melee" and " fight (" in event.text))
            if tested:
                assert event.fact("test") and event.fact("result", event.fact("winner")) \
                    is not None, event
                seen.add(str(event.fact("test")))
    assert {"morale", "initiative", "activation"} <= seen
