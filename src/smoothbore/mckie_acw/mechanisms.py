"""Every random mechanism of McKie ACW as a ``Mechanism``: ``smoothbore odds mckie_acw NAME
key=value ...`` prints its exact distribution (with the default, reconstructed tables).

Each parameter is declared once, in its function's keyword-only signature."""

from __future__ import annotations

from typing import Annotated

from smoothbore.core import Dice, Help, Mechanism
from smoothbore.core.ruleset import validated

from . import rules
from .firing import FireFacts, add_cells, casualties, counter_battery, figures_lost, fire_total
from .generalship import activate, risk_to_general, roll_initiative
from .losses import battle_losses
from .melee import Attack, Fighter, resolve_melee
from .morale import MoraleFacts, test_morale
from .tables import DEFAULT_TABLES, Cell
from .units import Arm, Formation, Ground, Quality, Unit, Weapon

Rating = Annotated[int, Help("rating", low=0, high=10)]


@validated
def initiative(*, dice: Dice, first_rating: Rating = 3, second_rating: Rating = 4) -> str:
    """Who gains the initiative: each commander-in-chief's d10 plus his initiative rating.

    Ties go to the higher rating (then to the first side, M3)."""
    won = roll_initiative(first_rating, second_rating, dice=dice)
    return "first" if won == 0 else "second"


@validated
def activation(*, dice: Dice, rating: Rating = 5) -> bool:
    """Whether a corps or divisional commander is activated: d10 plus his rating over 10."""
    return activate(rating, dice=dice)


@validated
def morale(
    *,
    dice: Dice,
    quality: Annotated[Quality, Help("troop category")] = Quality.EXPERIENCED,
    in_cover: Annotated[bool, Help("behind or in cover")] = False,
    advancing: Annotated[bool, Help("advancing")] = False,
    general: Annotated[bool, Help("general in line of command with unit")] = False,
    won_melee: Annotated[bool, Help("won present period of melee")] = False,
    lost_melee: Annotated[bool, Help("lost present period of melee")] = False,
    under_artillery: Annotated[bool, Help("under artillery fire this period")] = False,
    tenths_lost: Annotated[int, Help("tenths of original strength lost", low=0, high=10)] = 0,
    routing_past: Annotated[int, Help("friendly units routing past", low=0, high=10)] = 0,
    tired: Annotated[bool, Help("tired (7+ effort points)")] = False,
    exhausted: Annotated[bool, Help("exhausted (12+ effort points)")] = False,
    flank: Annotated[bool, Help("attacked or fired on from the flank")] = False,
    rear: Annotated[bool, Help("attacked or fired on from the rear")] = False,
    retreating: Annotated[bool, Help("at present retreating")] = False,
    routing: Annotated[bool, Help("at present routing")] = False,
) -> str:
    """A morale test: one average die plus the tactical factors, on the results table."""
    facts = MoraleFacts(quality, in_cover, advancing, general, won_melee, lost_melee,
                        under_artillery, tenths_lost, routing_past, tired, exhausted, flank,
                        rear, retreating, routing)
    return test_morale(facts, dice=dice).value


def _unit(uid: str, weapon: Weapon, quality: Quality = Quality.EXPERIENCED, figures: int = 16,
          formation: Formation = Formation.LINE, ground: Ground = Ground.OPEN,
          effort: int = 0, *, mounted: bool = False, has_fired: bool = True) -> Unit:
    arm = Arm.ARTILLERY if weapon.is_gun else Arm.CAVALRY if mounted else Arm.FOOT
    return Unit(uid, uid, uid, arm, weapon, quality, min(figures, 4) if weapon.is_gun else figures,
                formation=Formation.LINE if weapon.is_gun else formation, mounted=mounted,
                ground=Ground.OPEN if mounted and ground is Ground.DENSE_WOODS else ground,
                effort=effort, has_fired=has_fired)


@validated
def fire(
    *,
    dice: Dice,
    weapon: Annotated[Weapon, Help("the firing unit's weapon")] = Weapon.MUZZLE_LOADING_RIFLE,
    firing: Annotated[int, Help("figures or guns firing", low=1, high=40)] = 8,
    range: Annotated[int, Help("range in mm (20 mm = 100 yards)", low=0, high=800)] = 20,
    quality: Annotated[Quality, Help("the firing unit's category")] = Quality.EXPERIENCED,
    first_volley: Annotated[bool, Help("first volley or shot in the battle")] = False,
    resting: Annotated[bool, Help("resting weapons")] = False,
    moved: Annotated[bool, Help("firing unit has moved or changed formation")] = False,
    mounted: Annotated[bool, Help("cavalry firing while mounted")] = False,
    effort: Annotated[int, Help("firing unit's effort points", low=0, high=20)] = 0,
    target_formation: Annotated[Formation, Help("target's formation")] = Formation.LINE,
    target_ground: Annotated[Ground, Help("target's ground")] = Ground.OPEN,
    target_moved: Annotated[bool, Help("target moved position this period")] = False,
    target_guns: Annotated[bool, Help("target is unlimbered artillery")] = False,
) -> int:
    """Figures lost to one unit's fire: factor, casualty table and the percentage roll."""
    firer = _unit("firer", weapon, quality, firing, effort=effort, mounted=mounted and
                  not weapon.is_gun, has_fired=not first_volley)
    target = _unit("target", Weapon.SMOOTHBORE_12LB if target_guns else Weapon.SMOOTHBORE_MUSKET,
                   formation=target_formation, ground=target_ground)
    row = DEFAULT_TABLES.weapon(weapon)
    facts = FireFacts(range=min(range, row.reach), resting=resting)
    factor = fire_total(firer, target, facts, moved=moved, target_moved=target_moved)
    return figures_lost(casualties(factor, firing), dice=dice)


@validated
def casualty_roll(
    *,
    dice: Dice,
    definite: Annotated[int, Help("definite figures, all sources added", low=0, high=40)] = 0,
    percent: Annotated[int, Help("per cent chance, all sources added", low=0, high=99)] = 64,
    second_percent: Annotated[int, Help("a second source's per cent", low=0, high=99)] = 0,
) -> int:
    """Figures removed: the definite ones and the percentage roll for one more.

    Explanation of casualty table: sources are added before dicing (each full 100% is a
    figure, M9)."""
    return figures_lost(add_cells(Cell(definite, percent), Cell(0, second_percent)), dice=dice)


@validated
def counter_battery_fire(
    *, dice: Dice, factor: Annotated[int, Help("enemy guns' final factor", low=-10, high=20)] = 8,
) -> int:
    """Pieces a battery loses to enemy guns' fire: one d10 on the counter-battery table."""
    return counter_battery(factor, dice=dice)


@validated
def melee(
    *,
    dice: Dice,
    attacker_weapon: Annotated[Weapon, Help("attacker's weapon")] = Weapon.MUZZLE_LOADING_RIFLE,
    attacker_quality: Annotated[Quality, Help("attacker's category")] = Quality.EXPERIENCED,
    attacker_figures: Annotated[int, Help("attacker's figures fighting", low=1, high=20)] = 8,
    attacker_mounted: Annotated[bool, Help("attacker is mounted cavalry")] = False,
    charging: Annotated[bool, Help("attacker charged in this period")] = True,
    defender_quality: Annotated[Quality, Help("defender's category")] = Quality.EXPERIENCED,
    defender_figures: Annotated[int, Help("defender's figures fighting", low=1, high=20)] = 8,
    defender_ground: Annotated[Ground, Help("defender's ground")] = Ground.OPEN,
    attacked_from: Annotated[Attack, Help("where the defender is attacked from")] = Attack.FRONT,
) -> str:
    """One period of melee: each side's casualties, and who won."""
    a = _unit("a", attacker_weapon, attacker_quality, 16, mounted=attacker_mounted)
    d = _unit("d", Weapon.MUZZLE_LOADING_RIFLE, defender_quality, 16, ground=defender_ground)
    result = resolve_melee(Fighter(a, attacker_figures, charging),
                           Fighter(d, defender_figures, attacked=attacked_from), dice=dice)
    return str(result)


@validated
def general_risk(*, dice: Dice) -> str:
    """A general with a unit fired on or in melee: killed on 1, seriously wounded on 9-10."""
    return risk_to_general(dice=dice).value


@validated
def day_losses(
    *, dice: Dice, figures: Annotated[int, Help("figures lost in the day", low=0, high=1000)] = 10,
) -> str:
    """The breakdown of a day's losses (15% dead, 35% badly, 50% slightly wounded)."""
    return str(battle_losses(figures))


MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism.of(initiative, rules.INITIATIVE),
    Mechanism.of(activation, rules.ACTIVATION),
    Mechanism.of(morale, rules.MORALE_PROCEDURE, name="morale-test"),
    Mechanism.of(fire, rules.FIRING_PROCEDURE),
    Mechanism.of(casualty_roll, rules.CASUALTY_TABLE),
    Mechanism.of(counter_battery_fire, rules.COUNTER_BATTERY, name="counter-battery"),
    Mechanism.of(melee, rules.MELEE),
    Mechanism.of(general_risk, rules.RISK_TO_GENERALS, name="risk-to-generals"),
    Mechanism.of(day_losses, rules.BATTLE_LOSSES, name="battle-losses"),
)
"""Every random mechanism of the ruleset."""
