"""firing.py: figures eligible, factors, the casualty cell and the percentage roll, by
brute-force enumeration of the d100 and the d10."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smoothbore.core import IllegalActionError, InvalidValueError, odds
from smoothbore.mckie_acw import rules
from smoothbore.mckie_acw.firing import (
    FireFacts,
    add_cells,
    check_can_fire,
    counter_battery,
    eligible,
    figures_lost,
    fire_factor,
)
from smoothbore.mckie_acw.tables import DEFAULT_TABLES, Cell
from smoothbore.mckie_acw.units import Arm, Formation, Ground, Quality, Unit, Weapon


def foot(**kw: object) -> Unit:
    base: dict[str, object] = dict(id="f", name="Foot", side="A", arm=Arm.FOOT,
                                   weapon=Weapon.MUZZLE_LOADING_RIFLE)
    base.update(kw)
    return Unit(**base)  # type: ignore[arg-type]


def guns(**kw: object) -> Unit:
    base: dict[str, object] = dict(id="g", name="Guns", side="A", arm=Arm.ARTILLERY,
                                   weapon=Weapon.SMOOTHBORE_12LB, figures=4)
    base.update(kw)
    return Unit(**base)  # type: ignore[arg-type]


def test_front_rank_and_crew() -> None:
    assert eligible(foot()) == 8  # a 16-figure two-rank line
    assert eligible(foot(formation=Formation.COLUMN)) == 4
    assert eligible(foot(formation=Formation.SKIRMISH)) == 16
    assert eligible(guns()) == 20  # a gun model counts as 20 guns
    assert eligible(guns(figures=3, initial_figures=4)) == 15  # proportionately
    assert eligible(guns(figures=2, initial_figures=4, helpers=1)) == 15  # helpers make up crew
    cav = Unit("c", "Cav", "A", Arm.CAVALRY, Weapon.BREECH_LOADING_RIFLE, figures=12)
    assert eligible(cav) == 5  # 3 horseholders, 9 left, front rank 5


def test_every_factor_of_the_text() -> None:
    firer = foot(has_fired=False, quality=Quality.RAW, effort=7)
    target = foot(formation=Formation.COLUMN, ground=Ground.COVER)
    m = fire_factor(firer, target, FireFacts(range=20, resting=True), moved=True,
                    target_moved=True)
    # basic 5 +1 resting +2 deep +2 first -1 raw -1 moved target -2 cover -2 tired -3 moved
    assert m.total == 5 + 1 + 2 + 2 - 1 - 1 - 2 - 2 - 3
    perm = fire_factor(foot(effort=12), foot(formation=Formation.SKIRMISH,
                                             ground=Ground.PERMANENT),
                       FireFacts(range=60), moved=False, target_moved=False)
    assert perm.total == 3 + 2 - 4 - 4 - 5  # +2 its first volley
    rep = fire_factor(foot(weapon=Weapon.REPEATING_RIFLE), guns(), FireFacts(range=20),
                      moved=False, target_moved=False)
    assert rep.total == 7 + 2 + 2 - 2  # repeaters, first volley, unlimbered guns


def test_percentage_roll_exact() -> None:
    for percent in (0, 1, 37, 99):
        dist = odds(figures_lost, Cell(2, percent))
        assert dist.probability(3) == Fraction(percent, 100)
        assert dist.probability(2) == Fraction(100 - percent, 100)


def test_sources_added_before_dicing() -> None:
    assert add_cells(Cell(1, 40), Cell(0, 30)) == Cell(1, 70)
    assert add_cells(Cell(0, 80), Cell(0, 50)) == Cell(1, 30)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 99)), min_size=1, max_size=5))
def test_adding_keeps_the_expected_loss(cells: list[tuple[int, int]]) -> None:
    total = add_cells(*(Cell(d, p) for d, p in cells))
    assert 100 * total.definite + total.percent == sum(100 * d + p for d, p in cells)
    assert 0 <= total.percent < 100


def test_counter_battery_by_enumerating_the_d10() -> None:
    for factor in (0, 2, 5, 8, 12):
        row = DEFAULT_TABLES.counter_battery_row(factor)
        oracle: dict[int, Fraction] = {}
        for face in range(1, 11):
            pieces = row.pieces(face) if row else 0
            oracle[pieces] = oracle.get(pieces, Fraction(0)) + Fraction(1, 10)
        dist = odds(counter_battery, factor)
        assert {o: dist.probability(o) for o in dist.outcomes} == oracle
    assert odds(counter_battery, 8).probability(0) == Fraction(6, 10)


def test_restrictions() -> None:
    t = foot()
    with pytest.raises(IllegalActionError, match="at most 45"):
        check_can_fire(foot(), t, FireFacts(angle=50), False, DEFAULT_TABLES, "a")
    with pytest.raises(IllegalActionError, match="higher ground"):
        check_can_fire(foot(), t, FireFacts(over_friends=True), False, DEFAULT_TABLES, "a")
    with pytest.raises(IllegalActionError, match="may not move and fire"):
        check_can_fire(guns(weapon=Weapon.SIEGE_GUN), t, FireFacts(), True, DEFAULT_TABLES, "a")
    with pytest.raises(IllegalActionError, match="beyond"):
        check_can_fire(foot(weapon=Weapon.SMOOTHBORE_MUSKET), t, FireFacts(range=41), False,
                       DEFAULT_TABLES, "a")
    with pytest.raises(IllegalActionError, match="seen only within"):
        check_can_fire(foot(), foot(ground=Ground.DENSE_WOODS),
                       FireFacts(range=40, target_at_edge=False), False, DEFAULT_TABLES, "a")
    with pytest.raises(IllegalActionError, match="rounds"):
        check_can_fire(foot(ammo=3), t, FireFacts(), False, DEFAULT_TABLES, "a")


@pytest.mark.parametrize(("field", "value", "match"), [
    ("range", 2001, r"FireFacts.range.*0 to 2000"),
    ("figures", -1, r"FireFacts.figures.*at least 0"),
    ("angle", 181, r"FireFacts.angle.*0 to 180"),
    ("range", "40", r"FireFacts.range"),
])
def test_fire_facts_refuse_what_no_table_gives(field: str, value: object, match: str) -> None:
    with pytest.raises(InvalidValueError, match=match):
        FireFacts(**{field: value})  # type: ignore[arg-type]


def refusal(firer: Unit, facts: FireFacts, *, moved: bool = False) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as refused:
        check_can_fire(firer, foot(id="t"), facts, moved, DEFAULT_TABLES, "fire")
    return refused.value


def test_gun_and_figure_refusals_name_their_rule() -> None:
    limbered = refusal(guns(limbered=True), FireFacts(range=40))
    assert "limbered" in limbered.why and limbered.rule == rules.FIRING_RESTRICTIONS
    no_crew = refusal(guns(figures=0, initial_figures=4), FireFacts(range=40))
    assert "no crew" in no_crew.why and no_crew.rule == rules.ARTILLERY_CREW
    # a 16-figure line has 8 in its front rank (Restrictions on firing: only they fire)
    too_many = refusal(foot(), FireFacts(range=20, figures=9))
    assert "only 8 figures" in too_many.why and too_many.rule == rules.FIRING_RESTRICTIONS
    assert fire_count_ok(foot(), 8)
    nobody = refusal(foot(figures=0, initial_figures=16), FireFacts(range=20))
    assert "no figure or gun" in nobody.why


def fire_count_ok(firer: Unit, figures: int) -> bool:
    check_can_fire(firer, foot(id="t"), FireFacts(range=20, figures=figures), False,
                   DEFAULT_TABLES, "fire")
    return True


def test_a_range_beyond_the_weapon_has_no_factor() -> None:
    reach = DEFAULT_TABLES.weapon(Weapon.SMOOTHBORE_MUSKET).reach
    with pytest.raises(InvalidValueError, match="range"):
        fire_factor(foot(weapon=Weapon.SMOOTHBORE_MUSKET), foot(id="t"),
                    FireFacts(range=reach + 1), moved=False, target_moved=False)
