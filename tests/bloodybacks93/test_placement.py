"""Footprints from bases (B51): ``fits`` says whether a footprint is already the one
``refit`` would give, so that the table keeps step without rebuilding every footprint."""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.bloodybacks93.placement import fits, footprint, in_step, refit
from smoothbore.bloodybacks93.scenarios import example_battle
from smoothbore.bloodybacks93.units import BRITISH, Formation, Unit, UnitType


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
    new = in_step(table, state.units, tuple(joined))
    expected = attrs.evolve(table, commanders=tuple(
        attrs.evolve(m, attached_to=other) if m.commander_id == riding.id else m
        for m in table.commanders))
    assert new == expected and new.commander(riding.id).attached_to == other
    assert new.layout is layout  # the units did not move: what the table worked out stays
