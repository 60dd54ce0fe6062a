"""Melee: attacks, needs, and whole rounds."""

from __future__ import annotations

from fractions import Fraction

import attrs

from smoothbore.boltaction_acw.melee import MeleeFacts, MeleeOutcome, attacks, fight, melee_need
from smoothbore.boltaction_acw.options import Options
from smoothbore.boltaction_acw.units import CONFEDERATE, UNION, Formation, Unit, UnitType
from smoothbore.core import odds

FOOT = Unit("f", "Foot", UNION)
ENEMY = Unit("e", "Enemy", CONFEDERATE, colonel=False)


def test_attacks_by_base_figure_and_column() -> None:
    assert attacks(FOOT) == 10
    assert attacks(attrs.evolve(FOOT, formation=Formation.COLUMN)) == 2
    cavalry = Unit("c", "C", UNION, UnitType.CAVALRY)
    assert attacks(cavalry, charging=True) == 24 and attacks(cavalry) == 12
    assert attacks(Unit("s", "S", UNION, UnitType.SKIRMISHERS)) == 0


def test_flank_and_rear() -> None:
    assert melee_need(FOOT, ENEMY, MeleeFacts(flank=True)).total == 2
    assert melee_need(FOOT, ENEMY, MeleeFacts(rear=True)).total == 1


def test_no_casualties_either_side_continues() -> None:
    """Both sides 1 base (2 dice, 3+ to hit, 4+ to wound): nobody hurt is a melee that goes
    on, with probability (1 - 4/6 * 3/6)^4."""
    one = attrs.evolve(FOOT, bases=1, colonel=False)
    other = attrs.evolve(ENEMY, bases=1)
    dist = odds(lambda dice: fight(one, other, dice=dice)[0])
    quiet = sum((w for r, w in dist.items() if r.by_charger == r.by_defender == 0), 0)
    assert Fraction(quiet, dist.denominator) == (1 - Fraction(4, 6) * Fraction(3, 6)) ** 4
    assert all(r.outcome is MeleeOutcome.CONTINUES for r in dist.outcomes
               if r.by_charger == r.by_defender)


def test_obstacle_makes_it_simultaneous() -> None:
    """Behind an obstacle the defender's full strength strikes back even if it loses a base."""
    weak = attrs.evolve(ENEMY, bases=1, casualties=3)
    dist = odds(lambda dice: fight(FOOT, weak, MeleeFacts(obstacle=True), dice=dice)[0]
                .by_defender > 0)
    order = odds(lambda dice: fight(FOOT, weak, dice=dice)[0].by_defender > 0)
    assert dist.probability(True) > order.probability(True)


def test_the_staged_melee_composes_to_the_brute_force_odds() -> None:
    chargers = Unit("a", "A", UNION, bases=1)
    defenders = Unit("d", "D", CONFEDERATE, bases=1, pins=1, casualties=3)
    staged = odds(fight, chargers, defenders)
    brute = odds(fight.play, chargers, defenders)
    assert staged == brute
    together = odds(fight, chargers, defenders, simultaneous=True)
    assert together == odds(fight.play, chargers, defenders, simultaneous=True)
    assert together != staged  # the defenders strike with every base
    # (A35) the pin comes after they strike: with the option, before
    first = Options(melee_pin_first=True)
    unhurt = attrs.evolve(defenders, casualties=0)
    pinned = odds(fight, chargers, unhurt, options=first)
    assert pinned == odds(fight.play, chargers, unhurt, options=first)
    assert pinned != odds(fight, chargers, unhurt)


def test_a_five_base_melee_has_exact_odds() -> None:
    dist = odds(fight, Unit("a", "A", UNION), Unit("d", "D", CONFEDERATE))
    outcomes = {result.outcome for result, _, _ in dist.outcomes}
    assert MeleeOutcome.LOSER_ROUTS in outcomes
    assert sum(weight for _, weight in dist.items()) == dist.denominator


def test_both_sides_destroyed_together_is_no_ones_victory() -> None:
    """Behind an obstacle blows are struck together, so two units one casualty from losing
    their last base can destroy each other: no winner. Struck together, the two sides' dice
    are independent: both fall with the product of the chances of each."""
    one = Unit("a", "A", UNION, bases=1, casualties=3)
    other = Unit("b", "B", CONFEDERATE, bases=1, casualties=3)
    dist = odds(lambda dice: (lambda r: (r[0].winner, r[1].destroyed, r[2].destroyed))(
        fight(one, other, MeleeFacts(obstacle=True), dice=dice)))
    both = dist.probability(("", True, True))
    a_falls = dist.probability(lambda o: o[1])
    b_falls = dist.probability(lambda o: o[2])
    assert both > 0 and both == a_falls * b_falls
    assert dist.probability(lambda o: o[1] and o[2] and o[0] != "") == 0
