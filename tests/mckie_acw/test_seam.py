"""McKie ACW on the table seam (issue 29): the book describes itself to the table as
``positions.RULES`` and the engine keeps the table in step through its ``after`` hook,
whatever a handler called."""

from __future__ import annotations

from pathlib import Path

import pytest

from smoothbore.core import Scenario
from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.firing import ARC
from smoothbore.mckie_acw.options import DEFAULT_OPTIONS, Options
from smoothbore.mckie_acw.positions import (
    FOOT_RATES,
    MOUNTED_RATES,
    RULES,
    SIGHT,
    footprint,
    ground_of,
    unit_shape,
)
from smoothbore.mckie_acw.rules import BATTLE_PERIOD as RULES_BATTLE_PERIOD
from smoothbore.mckie_acw.state import State, new_battle
from smoothbore.mckie_acw.tables import DEFAULT_TABLES, with_table
from smoothbore.mckie_acw.units import Formation, Ground, Status, changed
from smoothbore.table import Edge, Feature, Measure, Table
from smoothbore.table.seam import Anchor, KeptInStep, keep_in_step

from .support import A, B, commanders, foot, guns


def _battle(options: Options = DEFAULT_OPTIONS, *features: Feature) -> State:
    units = (foot("a1"), guns("a2"), foot("b1", B))
    places = {"a1": (300, 100, 0), "a2": (450, 100, 0), "b1": (300, 300, 180)}
    tables = options.tables
    table = Table(600, 400, "mm", features,
                  tuple(footprint(u, *places[u.id], tables) for u in units),
                  home_edges={A: Edge.NEAR, B: Edge.FAR})
    return new_battle((A, B), units, commanders(), table=table, options=options,
                      scenario=Scenario("test", turn_limit=6))


def test_mckie_describes_itself_to_the_table() -> None:
    """Millimetres, re-laid about the centre (M29), the 45-degree arc, the sight rules
    (Visibility), the rates (Movement), the shapes ``footprint`` lays (Base sizes)."""
    assert (RULES.name, RULES.measure, RULES.anchor, RULES.arc(foot("x")), RULES.sight) == (
        "mckie_acw", Measure.MILLIMETRES, Anchor.CENTRE, float(ARC), SIGHT)
    assert RULES.rates is not None
    assert RULES.rates(foot("x")) is FOOT_RATES and RULES.rates(guns("g")) is MOUNTED_RATES
    for unit in (foot("l"), foot("c", figures=14, formation=Formation.COLUMN),
                 foot("s", figures=2, formation=Formation.SKIRMISH), guns("g"),
                 guns("g", limbered=True)):
        assert RULES.footprint(unit, 10.0, 20.0, 30.0, label=unit.name) == footprint(
            unit, 10.0, 20.0, 30.0)
    assert TURN.after == KeptInStep(RULES) and TURN.stands is RULES.stands


def test_a_unit_changed_through_core_is_relaid_and_regrounded_after_the_step() -> None:
    """A handler that changes a unit with core's ``with_units`` leaves the table to the
    engine's hook: the footprint re-laid about its centre, the unit on the ground its new
    footprint stands on (a strip of wood 40 mm wide under the middle of a 96 mm line holds
    less than half of it, and more than half of the 48 mm column it forms, M31), a
    destroyed unit off the table."""
    wood = Feature("wood", "dense woods", outline=((280, 0), (320, 0), (320, 400), (280, 400)))
    state = _battle(DEFAULT_OPTIONS, wood)
    assert state.unit("a1").ground is Ground.OPEN
    column = state.with_units(changed(state.unit("a1"), figures=10, formation=Formation.COLUMN),
                              changed(state.unit("b1"), status=Status.DESTROYED))
    after = TURN.after(state, column)  # type: ignore[misc]
    table = after.extra.table
    fp = table.footprint("a1")
    assert (fp.width, fp.length, fp.centre) == (48, 36, (300, 100))
    assert after.unit("a1").ground is ground_of(table, after.unit("a1")) is Ground.DENSE_WOODS
    assert "b1" not in table.units
    seam = keep_in_step(RULES, state, column).extra.table
    assert seam.footprints == table.footprints and seam.commanders == table.commanders
    assert TURN.after(after, after) is after  # nothing changed: the very same state


def test_the_battles_own_base_sizes_lay_the_footprints(tmp_path: Path) -> None:
    """Base sizes are replaceable data (Options.tables): a unit re-laid in a battle with
    16 mm foot bases is laid from them, not from the reconstruction's 12 mm."""
    own = tmp_path / "bases.toml"
    own.write_text("[foot]\nfrontage = 16\ndepth = 12\n[cavalry]\nfrontage = 12\ndepth = 25\n"
                   "[gun]\nfrontage = 30\ndepth = 40\n[general]\nfrontage = 30\ndepth = 30\n")
    tables = with_table(DEFAULT_TABLES, "bases", own)
    state = _battle(Options(tables=tables))
    assert state.extra.table.footprint("a1").width == 8 * 16
    column = state.with_units(changed(state.unit("a1"), figures=10, formation=Formation.COLUMN))
    fp = TURN.after(state, column).extra.table.footprint("a1")  # type: ignore[misc]
    assert (fp.width, fp.length) == (4 * 16, 36)
    assert unit_shape(column.unit("a1"), tables).matches(fp)


CACHED = {
    "fields._checks_of", "fields._all_pass", "firing._firer_problem", "firing._percent_check",
    "movement._mover",
    "movement._reach", "positions._shape", "positions._terrain_boxes",
    "steps_firing.default_facts", "steps_firing.volleys", "steps_firing.table_volleys",
    "steps_movement.unit_moves", "steps_movement.in_place_moves", "steps_movement.rides",
    "steps_movement.table_rides", "table_moves._steps", "table_moves._proposals",
    "tables._cell", "tables._index",
}
"""The process-wide caches left: over a class, a unit's own values, a rule's constants, ids,
the book's tables or the ground's terrain index; none holds a table, a state or footprints
(those answers are kept in the table's stores)."""


def test_no_process_wide_cache_holds_a_table_a_state_or_footprints() -> None:
    import importlib
    import pkgutil

    import smoothbore.mckie_acw as book

    found = set()
    for info in pkgutil.iter_modules(book.__path__):
        module = importlib.import_module(f"smoothbore.mckie_acw.{info.name}")
        for value in vars(module).values():
            if hasattr(value, "cache_info") and value.__module__ == module.__name__:
                found.add(f"{info.name}.{value.__name__}")
    assert found == CACHED


def test_answers_are_carried_in_the_battles_own_stores() -> None:
    """Answers go from table to table through the table's named stores (hits counted), and
    a new battle starts with stores of its own."""
    from smoothbore.battle import play, random_policy
    from smoothbore.mckie_acw import RULESET

    start = RULESET.battle("default")(5)
    played = play(TURN, start, random_policy(5), max_steps=60)
    table = played.end.extra.table
    counts = {c.name: c for c in table.stores()}
    assert {"mckie_acw: by footprints", "mckie_acw: moves offered",
            "mckie_acw: near enemies"} <= set(counts)
    assert counts["mckie_acw: by footprints"].hits > 0
    assert counts["mckie_acw: moves offered"].hits > 0
    again = RULESET.battle("default")(5).extra.table
    assert again.store("mckie_acw: by footprints") is not table.store("mckie_acw: by footprints")
    assert again.store("mckie_acw: moves offered").counts().hits == 0


def test_the_unit_acting_is_the_engines_guard() -> None:
    """Engine contract v2: the unit that acts (a mover, firer, charger, tester, digger, a
    battery taking helpers) is of the side acting and still on the table, declared once on
    the engine (Battle period); the checks no longer ask."""
    from smoothbore.core import IllegalActionError
    from smoothbore.mckie_acw.actions import (
        AttachHelpers,
        Dig,
        EndPhase,
        Fire,
        Melee,
        Move,
        MoveGeneral,
        TestMorale,
    )
    from smoothbore.mckie_acw.morale import Circumstance
    from smoothbore.mckie_acw.phases import MOVEMENT
    from smoothbore.mckie_acw.turn import actor

    from .support import at

    assert TURN.actor is actor and TURN.actor_rule == RULES_BATTLE_PERIOD
    assert [actor(a) for a in (Move("a1", 0), Dig("a1"), Fire("a1", "b1"),
                               AttachHelpers("g", "a1", 1),
                               TestMorale("a1", next(iter(Circumstance))))] == [
        "a1", "a1", "a1", "g", "a1"]
    assert actor(EndPhase()) is None and actor(MoveGeneral("a-div", "a1")) is None
    assert actor(Melee("a1", "b1")) is None
    state = at(_battle(), MOVEMENT)
    enemy = Move("b1", None, at=None, to=(300.0, 280.0, 180.0))
    with pytest.raises(IllegalActionError, match="b1 is not a unit of Blue") as refused:
        TURN.step(state, enemy)
    assert refused.value.rule == RULES_BATTLE_PERIOD
    gone = state.with_units(changed(state.unit("a1"), status=Status.DESTROYED))
    with pytest.raises(IllegalActionError, match="a1 is no longer on the table"):
        TURN.step(gone, Move("a1", None, to=(300.0, 120.0, 0.0)))
    assert not any(getattr(a, "unit", None) == "b1" for a in TURN.legal_actions(state))
