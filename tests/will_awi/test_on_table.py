"""Will's AWI on the table seam (issue 29, item 1): the book's ``TableRules`` and the engine
keeping the table in step with the units through ``KeptInStep(RULES)``, whatever a handler
called (the book's own ``_kept_in_step`` wrapper is gone)."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.table import CommanderMark, Formation, KeptInStep, Shape, keep_in_step
from smoothbore.will_awi.on_table import RULES
from smoothbore.will_awi.positions import BASE, deploy
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.turn import ACTIONS, TURN
from smoothbore.will_awi.units import Commander, Status, TroopType, Unit
from smoothbore.will_awi.units import Formation as UnitFormation

FOOT = Unit("r1", "Foot", "red", TroopType.LINE)
GUN = Unit("r2", "Guns", "red", TroopType.LIGHT_GUN)
ENEMY = Unit("b1", "Continentals", "blue", TroopType.LINE)


def _battle() -> State:
    units = (FOOT, GUN, ENEMY)
    table = deploy(units, {"r1": (20.0, 10.0, 0.0), "r2": (30.0, 10.0, 0.0),
                           "b1": (20.0, 30.0, 180.0)}, width=48, depth=36).with_commanders(
        CommanderMark("rg", attached_to="r1", side="red"),
        CommanderMark("bg", attached_to="b1", side="blue"))
    generals = (Commander("rg", "Webster", "red", attached_to="r1"),
                Commander("bg", "Greene", "blue", attached_to="b1"))
    return new_battle(("red", "blue"), units, generals, table=table)


def test_the_rules_give_each_unit_its_bases_in_its_formation() -> None:
    """Two 45 mm bases side by side in line, one behind the other in column; a deployed gun
    is its gun base alone, limbered the gun and its limber (Rules - Introduction)."""
    assert RULES.shape(FOOT) == Shape(2, BASE, BASE, Formation.LINE)
    column = attrs.evolve(FOOT, formation=UnitFormation.COLUMN)
    assert RULES.shape(column) == Shape(2, BASE, BASE, Formation.COLUMN)
    assert RULES.shape(GUN) == Shape(1, BASE, BASE, Formation.DEPLOYED)
    assert RULES.shape(attrs.evolve(GUN, limbered=True)) == Shape(2, BASE, BASE,
                                                                   Formation.LIMBERED)
    assert RULES.arc(FOOT) == 45.0 and RULES.name == "will_awi"


def test_the_engine_keeps_the_table_and_no_handler_is_wrapped_by_the_book() -> None:
    assert TURN.after == KeptInStep(RULES) and TURN.stands is RULES.stands
    assert all(type(rule.handler).__name__ != "KeptInStep" for rule in ACTIONS)


def test_a_change_made_with_bare_with_units_is_kept_on_the_table() -> None:
    """A unit put into column, a unit eliminated and a general fallen, all by
    ``with_units`` (no table keeping of the book's own): the engine's hook lays the column
    about the same centre (2 x 45 mm deep), takes the lost unit off, its general left
    alone where it stood, and leaves the rest as they were."""
    s = _battle()
    column = attrs.evolve(s.unit("r1"), formation=UnitFormation.COLUMN)
    lost = attrs.evolve(s.unit("b1"), strength=0, status=Status.ELIMINATED)
    changed = s.with_units(column, lost)
    after = TURN.after
    assert after is not None
    kept = after(s, changed).extra.table
    assert kept is not None
    fp = kept.footprint("r1")
    assert (fp.formation, fp.centre, fp.width, fp.length) == (Formation.COLUMN, (20.0, 10.0),
                                                              BASE, 2 * BASE)
    assert "b1" not in kept.units and kept.footprint("r2") == s.extra.table.footprint("r2")
    assert kept.commander("rg").attached_to == "r1"
    alone = kept.commander("bg")
    assert alone.attached_to is None and (alone.x, alone.y) == (20.0, 30.0)
    assert keep_in_step(RULES, s, s) is s  # nothing changed: the very same state


def test_the_engine_guards_the_unit_acting_once_for_every_action() -> None:
    """The side deciding and the unit still on the table are the engine's guard (Rules -
    Move Sequence), declared once: the unit moving, the firer, the charger; an order is
    judged by its general first, and a highland unit of the moving side may spread the
    charge in the other side's firing phase, so neither is guarded by the engine."""
    from smoothbore.core import IllegalActionError
    from smoothbore.will_awi import rules
    from smoothbore.will_awi.actions import DeclareCharge, Fire, Move, Order, SpreadHighlandCharge
    from smoothbore.will_awi.turn import actor

    assert TURN.actor is actor and TURN.actor_rule == rules.SEQUENCE
    assert actor(Move("r1")) == "r1" and actor(Fire("b1", "r1")) == "b1"
    assert actor(DeclareCharge("r1", "b1", 3.0)) == "r1"
    assert actor(Order("rg", "r1")) is None and actor(SpreadHighlandCharge("r1")) is None
    s = _battle()
    while s.phase != "C":
        s, _ = TURN.step(s, TURN.legal_actions(s)[-1])
    with pytest.raises(IllegalActionError) as refused:
        TURN.step(s, Move("b1"))
    assert refused.value.why == "Continentals is not a unit of red"
    assert refused.value.rule == rules.SEQUENCE


def test_a_fire_is_measured_once_and_its_ruling_handed_to_the_handler() -> None:
    """Engine contract v2: the check of a fire gives the facts it measured (range, arc,
    cover: ``FireRuling``) and the handler fires with them, the table not asked again."""
    from smoothbore.will_awi import steps_firing
    from smoothbore.will_awi.actions import EndPhase, Fire
    from smoothbore.will_awi.steps_firing import FireRuling

    units = (FOOT, ENEMY)
    table = deploy(units, {"r1": (20.0, 10.0, 0.0), "b1": (20.0, 16.0, 180.0)}, width=48,
                   depth=36)
    s = new_battle(("red", "blue"), units, table=table)
    while s.phase != "E":
        s, _ = TURN.step(s, EndPhase())
    _, ruling = TURN.rule_on(s, Fire("b1", "r1"))
    assert isinstance(ruling, FireRuling) and ruling.work == ""
    assert ruling.facts.range_inches == pytest.approx(6.0 - BASE)
    asked: list[object] = []
    real = steps_firing.shot_facts
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(steps_firing, "shot_facts", lambda *a: asked.append(a) or real(*a))
        TURN.step(s, Fire("b1", "r1"))
    assert len(asked) == 1  # the check's; the handler fires on its ruling


def test_a_charge_declared_hands_its_reach_to_the_handler() -> None:
    """Engine contract v2: the check of a charge measures the reach straight ahead (the
    ruling) and the handler measures only the rest of the charge's facts, not the reach and
    its ground again (``charge_ahead`` asked once in the step)."""
    from smoothbore.will_awi import steps_charges
    from smoothbore.will_awi.actions import DeclareCharge, EndPhase
    from smoothbore.will_awi.steps_charges import DeclaredRuling

    units = (FOOT, ENEMY)
    table = deploy(units, {"r1": (20.0, 10.0, 0.0), "b1": (20.0, 13.0 + BASE, 180.0)},
                   width=48, depth=36)
    s = new_battle(("red", "blue"), units, table=table)
    while s.phase != "F":
        s, _ = TURN.step(s, EndPhase())
    _, ruling = TURN.rule_on(s, DeclareCharge("r1", "b1"))
    assert isinstance(ruling, DeclaredRuling)
    assert ruling.ahead == pytest.approx(3.0)
    asked: list[object] = []
    real = steps_charges.charge_ahead
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(steps_charges, "charge_ahead", lambda *a: asked.append(a) or real(*a))
        _, events = TURN.step(s, DeclareCharge("r1", "b1"))
    assert len(asked) == 1 and events[0].text.startswith("Foot charges Continentals, 3")
