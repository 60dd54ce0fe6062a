"""What a state's ``Situation`` keeps across states (the units' standing, a group's units,
the armies broken: each kept by the units and what else it reads) is what a fresh reading of
the state gives, on every state of random battles with and without melees: a key missing
something the answer reads would hand one state's answer to another."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.boltaction_acw.melee import MeleeFacts
from smoothbore.boltaction_acw.scenarios import brawners_farm, mcphersons_ridge
from smoothbore.boltaction_acw.state import (
    BRIGADE,
    Engaged,
    State,
    broken_armies,
    engaged_ids,
    lost_for_strength,
    situation,
)

from .battle import random_states


def _fresh_situation(state: State) -> tuple[object, ...]:
    """The situation's fields read straight off the state, the long way."""
    locked = engaged_ids(state)
    units = state.units
    broken = tuple(side for side in state.sides
                   if not any(u.side == side and u.in_the_fight for u in units))
    enemies = {side: tuple(u.id for other in state.sides if other != side for u in units
                           if u.side == other and not u.lost and u.id not in locked)
               for side in state.sides}
    friends = {side: tuple(u.id for u in units
                           if u.side == side and u.in_the_fight and u.id not in locked)
               for side in state.sides}
    group = state.extra.group
    if group is None:
        return broken, {u.id: u for u in units}, None, {}, {}
    members = tuple(u for u in units if (u.brigade == group[len(BRIGADE):]
                                         if group.startswith(BRIGADE) else u.id == group))
    return broken, {u.id: u for u in units}, members[0].side if members else None, enemies, \
        friends


def _fresh_broken_armies(state: State) -> frozenset[str]:
    """The armies that lost half their brigades, counted the long way."""
    out = set()
    for side in state.sides:
        brigades = {u.brigade for u in state.units if u.side == side and u.brigade}
        lost = 0
        for brigade in brigades:
            members = [u for u in state.units if u.side == side and u.brigade == brigade]
            gone = sum(1 for u in members if lost_for_strength(u, state.options))
            lost += brigade in state.extra.home or 2 * gone >= len(members)
        if brigades and 2 * lost >= len(brigades):
            out.add(side)
    return frozenset(out)


def _read(state: State) -> tuple[object, ...]:
    known = situation(state)
    if known.side is None:
        return known.broken, dict(known.units), None, {}, {}
    return known.broken, dict(known.units), known.side, dict(known.enemies), dict(
        known.friends)


@pytest.mark.parametrize("make", [brawners_farm, mcphersons_ridge])
def test_the_situation_kept_across_states_is_the_one_read_afresh(make: object) -> None:
    checked = locks = homes = 0
    for seed in range(2):
        for state in random_states(make(seed), seed, 120):  # type: ignore[operator]
            assert _read(state) == _fresh_situation(state)
            assert broken_armies(state) == _fresh_broken_armies(state)
            checked += 1
            on = [u.id for u in state.units if not u.lost]
            if len(on) > 2:  # the same units, two of them locked in melee
                locked = state.with_extra(melees=(*state.extra.melees, Engaged(
                    on[0], on[-1], MeleeFacts())))
                assert _read(locked) == _fresh_situation(locked)
                locks += 1
            brigades = sorted({u.brigade for u in state.units if u.brigade})
            gone = state.with_extra(home=frozenset(brigades[: len(brigades) // 2 + 1]))
            assert broken_armies(gone) == _fresh_broken_armies(gone)
            homes += 1
            if state.extra.group is not None:  # the same units, another group acting
                others = [u for u in state.units if u.brigade and BRIGADE + u.brigade
                          != state.extra.group]
                if others:
                    moved = state.with_extra(group=BRIGADE + others[0].brigade)
                    assert _read(moved) == _fresh_situation(moved)
    assert checked > 150 and locks > 150 and homes > 150


def test_a_side_with_every_unit_lost_is_broken_whatever_was_kept() -> None:
    state = brawners_farm(0)
    assert situation(state).broken == ()
    side = state.units[0].side
    gone = attrs.evolve(state, units=tuple(attrs.evolve(u, home=True) if u.side == side
                                            else u for u in state.units))
    assert situation(gone).broken == (side,)
    assert situation(state).broken == ()


def test_the_candidates_made_once_a_unit_are_those_made_afresh() -> None:
    """The formation changes, rallies, downs and the bound of the runs made once for each
    unit (``functools.lru_cache``) are those made the long way, for every acting unit of
    random battles, and for one unit id in each formation it takes."""
    from smoothbore.boltaction_acw.actions import ChangeFormation, Down, Rally
    from smoothbore.boltaction_acw.movement import Pace
    from smoothbore.boltaction_acw.situations import DISTANCES, HEADINGS
    from smoothbore.boltaction_acw.steps_orders import (
        _down,
        _formation_changes,
        _rally,
        _run_bound,
        formations_for,
    )
    from smoothbore.boltaction_acw.units import ALLOWED_FORMATIONS, Formation, UnitType

    def runs(unit: object) -> int:
        from smoothbore.boltaction_acw.movement import move_distance

        limit = move_distance(unit, Pace.RUN) * (  # type: ignore[arg-type]
            2 if unit.formation is Formation.COLUMN else 1)  # type: ignore[attr-defined]
        return len([d for _ in HEADINGS[Pace.RUN] for d in DISTANCES if d <= limit]) + 1

    checked = 0
    for seed in range(2):
        for state in random_states(brawners_farm(seed), seed, 100):
            for unit in situation(state).ready.values():
                assert _formation_changes(unit) == tuple(
                    ChangeFormation(unit.id, f) for f in formations_for(unit))
                assert _run_bound(unit) == runs(unit)
                assert _rally(unit.id) == Rally(unit.id) and _down(unit.id) == Down(unit.id)
                checked += 1
    assert checked > 100
    infantry = next(u for u in brawners_farm(0).units if u.kind is UnitType.INFANTRY)
    for formation in ALLOWED_FORMATIONS[UnitType.INFANTRY]:
        if formation is Formation.SKIRMISH:
            continue
        unit = attrs.evolve(infantry, formation=formation)
        assert _formation_changes(unit) == tuple(
            ChangeFormation(unit.id, f) for f in formations_for(unit))
        assert _run_bound(unit) == runs(unit)
