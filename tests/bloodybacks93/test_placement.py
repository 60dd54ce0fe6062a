"""Footprints from bases (B51): ``fits`` says whether a footprint is already the one
``refit`` would give; the table seam (``placement.RULES``, ``keep_in_step``) keeps the table
in step with the units."""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.placement import MM, RULES, fits, footprint, refit
from smoothbore.bloodybacks93.scenarios import example_battle
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType
from smoothbore.table import keep_in_step


@given(size=st.integers(1, 30), based=st.integers(3, 8), density=st.integers(3, 8),
       column=st.booleans(), horse=st.booleans(), renamed=st.booleans())
def test_fits_is_refit_giving_the_footprint_back(size: int, based: int, density: int,
                                                 column: bool, horse: bool,
                                                 renamed: bool) -> None:
    kind = UnitType.CAVALRY if horse else UnitType.INFANTRY
    unit = Unit("u", "u", BRITISH, kind=kind, size=size, density=min(density, based),
                based_density=based)
    old = footprint(unit, 10.0, 12.0, 30.0)
    assert fits(unit, old)
    changed = attrs.evolve(unit, formation=Formation.COLUMN if column else unit.formation,
                           density=min(density, based) if renamed else 3,
                           name="v" if renamed else "u")
    assert fits(changed, old) == (refit(changed, old) == old)


def test_guns_limbered_and_unlimbered() -> None:
    guns = Unit("g", "g", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
                formation=Formation.UNLIMBERED)
    old = footprint(guns, 5.0, 5.0, 0.0)
    limbered = attrs.evolve(guns, formation=Formation.LIMBERED)
    assert fits(guns, old) and not fits(limbered, old)
    assert fits(limbered, refit(limbered, old))


def test_a_commander_joining_a_unit_keeps_the_layout_and_marks_him_with_it() -> None:
    state = example_battle(0)
    table = state.extra.table
    assert table is not None
    layout = table.layout
    riding = next(c for c in state.commanders if c.attached_to is not None)
    other = next(u.id for u in state.units if u.side == riding.side
                 and u.id != riding.attached_to)
    joined = [attrs.evolve(c, attached_to=other) if c.id == riding.id else c
              for c in state.commanders]
    new = keep_in_step(RULES, state, state.with_commanders(*joined)).extra.table
    expected = attrs.evolve(table, commanders=tuple(
        attrs.evolve(m, attached_to=other) if m.commander_id == riding.id else m
        for m in table.commanders))
    assert new == expected and new.commander(riding.id).attached_to == other
    assert new.layout is layout  # the units did not move: what the table worked out stays


def test_the_book_describes_itself_to_the_table_seam() -> None:
    """Issue 29, item 1: the engine keeps the table in step through the seam
    (``KeptInStep(RULES)``), not a keeper of the book's own; a column of 13 foot based at 6
    stands on 3 bases of 60 x 30 mm one behind another (B51)."""
    from smoothbore.bloodybacks93 import TURN
    from smoothbore.table import Formation as Layout
    from smoothbore.table import KeptInStep, Shape

    assert TURN.after == KeptInStep(RULES) and TURN.stands is RULES.stands
    column = Unit("c", "c", BRITISH, kind=UnitType.INFANTRY, size=13, density=6,
                  based_density=6, formation=Formation.COLUMN)
    assert RULES.shape(column) == Shape(3, 60 * MM, 30 * MM, Layout.COLUMN, 0.0)
    assert RULES.arc(column) == 45.0


def test_a_unit_reformed_by_any_path_is_refitted_by_the_engine() -> None:
    """A handler that changes a unit through core's ``with_units`` alone still leaves the
    table in step: the engine's ``after`` hook refits the footprint about its centre."""
    from smoothbore.bloodybacks93 import TURN

    state = example_battle(0)
    unit = next(u for u in state.units if u.formation is Formation.DEPLOYED
                and not u.is_artillery)
    column = state.with_units(attrs.evolve(unit, formation=Formation.COLUMN))
    assert TURN.after is not None
    kept = TURN.after(state, column).extra.table
    assert kept is not None and fits(column.unit(unit.id), kept.footprint(unit.id))
    assert kept.footprint(unit.id).centre == state.extra.table.footprint(unit.id).centre  # type: ignore[union-attr]


def test_a_step_that_changed_nothing_is_left_as_it_is_and_others_kept_in_step() -> None:
    """The engine's ``after`` hook (``KeptInStep(RULES)``): a step that changed no unit,
    commander or table is the very state the handler gave (it was in step), as the book's
    own keeper did before issue 29; any other is ``keep_in_step``'s."""
    from smoothbore.battle import RandomPolicy, play
    from smoothbore.bloodybacks93 import TURN
    from smoothbore.table import KeptInStep

    kept = KeptInStep(RULES)
    state = example_battle(2)
    left = changed = 0
    for step in play(TURN, state, RandomPolicy(2), max_steps=80).steps:
        new, _ = TURN.step(state, step.action)
        raw = new.with_extra(card=new.extra.card)  # a copy: not the engine's object
        assert kept(state, raw) == keep_in_step(RULES, state, raw)
        if (raw.units is state.units and raw.commanders is state.commanders
                and raw.extra.table is state.extra.table):
            assert kept(state, raw) is raw
            left += 1
        else:
            changed += 1
        state = new
    assert left > 10 and changed > 5
