"""The table seam (issue 29): Bolt Action ACW described to the table as ``placing.RULES``,
and the engine keeping the table in step after every step (``KeptInStep``), whatever the
handler called: core's ``BattleState.with_units`` too, which skips the book's own."""

from __future__ import annotations

import attrs

from smoothbore.boltaction_acw import TURN
from smoothbore.boltaction_acw.actions import Rally
from smoothbore.boltaction_acw.phases import ORDERS
from smoothbore.boltaction_acw.placing import BASE_SIZES, RULES, footprint, rates
from smoothbore.boltaction_acw.scenarios import brawners_farm
from smoothbore.boltaction_acw.units import Formation, UnitType, revise
from smoothbore.core import Log
from smoothbore.table import Formation as Layout
from smoothbore.table.seam import KeptInStep


def test_the_engine_keeps_the_table_with_the_books_rules() -> None:
    assert TURN.after == KeptInStep(RULES)
    assert TURN.stands is RULES.stands


def test_the_shape_of_a_unit_is_a22s() -> None:
    unit = brawners_farm(0).unit("u6wi")  # infantry, 6 bases, in line
    shape = RULES.shape(unit)
    assert (shape.bases, shape.frontage, shape.depth, shape.formation) == (
        6, 1.5, 1.0, Layout.LINE)
    column = RULES.shape(attrs.evolve(unit, formation=Formation.COLUMN))
    assert (column.bases, column.formation) == (6, Layout.COLUMN)
    assert BASE_SIZES[UnitType.INFANTRY, Formation.COLUMN][:2] == (1.5, 1.0)
    gone = revise(unit, bases=0)
    assert RULES.shape(gone).bases == 1 and not RULES.stands(gone)


def test_footprints_and_arcs_as_the_rules_give_them() -> None:
    state = brawners_farm(0)
    table = state.extra.table
    assert table is not None
    for unit in state.units:
        fp = table.footprint(unit.id)
        assert footprint(unit, fp.x, fp.y, fp.facing) == fp
        assert RULES.arc(unit) == (180.0 if unit.skirmishing else 45.0)
        assert RULES.rates is rates


def _rally_with_core(state, action: Rally, log: Log):  # type: ignore[no-untyped-def]
    """A handler that forgets the book's own ``with_units``: the unit loses two bases and
    another goes home through core's ``BattleState.with_units``."""
    unit = state.unit(action.unit_id)
    return state.with_units(revise(unit, bases=unit.bases - 2),
                            revise(state.unit("u2wi"), home=True))


def test_a_handler_calling_cores_with_units_leaves_the_table_in_step() -> None:
    state = brawners_farm(0).replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    state = state.with_units(revise(state.unit("u6wi"), pins=1))
    rules = tuple(attrs.evolve(r, handler=_rally_with_core) if r.kind is Rally else r
                  for r in TURN.actions)
    engine = attrs.evolve(TURN, actions=rules)
    before = state.extra.table
    assert before is not None and before.footprint("u6wi").width == 9.0
    new, _ = engine.step(state, Rally("u6wi"))
    table = new.extra.table
    assert "u2wi" not in table.units  # gone home: off the table
    fp = table.footprint("u6wi")  # 4 bases of 1.5": re-laid about its centre
    assert (fp.bases, fp.width, fp.centre) == (4, 6.0, before.footprint("u6wi").centre)


def _home_with_core(state, action: Rally, log: Log):  # type: ignore[no-untyped-def]
    """A handler sending the whole brigade home through core's ``with_units`` (how a failed
    army test once left all five footprints on the table)."""
    return state.with_units(*(revise(u, home=True) for u in state.units
                              if u.brigade == "gibbon"))


def test_a_brigade_sent_home_leaves_the_table_and_its_commander_rides_alone() -> None:
    state = brawners_farm(0).replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    state = state.with_units(revise(state.unit("u6wi"), pins=1))
    members = [u.id for u in state.units if u.brigade == "gibbon"]
    assert len(members) == 5
    rules = tuple(attrs.evolve(r, handler=_home_with_core) if r.kind is Rally else r
                  for r in TURN.actions)
    before = state.extra.table
    assert before is not None
    new, _ = attrs.evolve(TURN, actions=rules).step(state, Rally("u6wi"))
    table = new.extra.table
    assert not set(members) & set(table.units)
    mark = table.commander("gibbon")
    assert (mark.attached_to, (mark.x, mark.y)) == (None, before.footprint("u6wi").centre)


# --- engine contract v2: the guards declared once (issue 29, item 3) ---------------------------
def test_the_battle_decided_and_the_unit_acting_are_the_engines_guards() -> None:
    from smoothbore.boltaction_acw.rules import RULE_TURN, RULE_VICTORY
    from smoothbore.boltaction_acw.turn import actor
    from smoothbore.boltaction_acw.victory import decided
    from smoothbore.core import IllegalActionError

    assert (TURN.decided, TURN.actor, TURN.actor_rule) == (decided, actor, RULE_TURN)
    state = brawners_farm(0).replace(phase=ORDERS).with_extra(group="brigade:gibbon")
    assert decided(state) is None
    # a unit gone home is refused by the engine before the book's check looks at it
    gone = state.with_units(revise(state.unit("u6wi"), pins=1, home=True))
    try:
        TURN.check(gone, Rally("u6wi"))
    except IllegalActionError as error:
        assert "no longer on the table" in str(error) and error.rule == RULE_TURN
    else:
        raise AssertionError("a unit gone home rallied")
    # every union unit gone home: the battle is decided, whatever a scenario says of its end
    union = state.with_units(*(revise(u, home=True) for u in state.units if u.side == "union"))
    assert decided(union) == ("the union side has no unit left in the fight", RULE_VICTORY)
    endless = TURN.with_outcome(over=lambda s: False)
    assert endless.legal_actions(union) == ()
    assert actor(Rally("u6wi")) == "u6wi"


def test_a_shot_is_measured_once_and_the_handler_takes_the_ruling() -> None:
    """Fire, fire and advance and run are ``ruled``: the check's ruling (what it measured on
    the table) goes to the handler, which measures nothing again."""
    from smoothbore.boltaction_acw.actions import Fire
    from smoothbore.boltaction_acw.situations import shot_situation
    from smoothbore.boltaction_acw.steps_orders import Measured, apply_fire
    from smoothbore.core import DiceState

    from .battle import random_states

    ruled = {r.kind for r in TURN.actions if r.ruled}
    assert {Fire}.issubset(ruled) and len(ruled) == 3
    for state in random_states(brawners_farm(2), 2, 200):
        fires = [a for a in TURN.legal_actions(state) if isinstance(a, Fire)]
        if fires:
            break
    else:
        raise AssertionError("no shot in 200 steps")
    fire = fires[0]
    _, ruling = TURN.rule_on(state, fire)
    assert isinstance(ruling, Measured)
    assert ruling.distance == shot_situation(state, fire.unit_id, fire.target_id).distance
    told = attrs.evolve(ruling, distance=99.0)  # a ruling the table would not give
    log = Log.keyed(DiceState(5))
    apply_fire(state, fire, log, told)
    assert any("range measured 99.0 in." in event.text for event in log.events)
