"""Every random mechanism of Bolt Action ACW as a function of plain parameters, for
``smoothbore odds boltaction_acw <mechanism> key=value ...``. Each parameter is declared once,
in the function's keyword-only signature; choices are enums, spelled on the command line in
lower case with dashes."""

from __future__ import annotations

from typing import Annotated

import attrs

from smoothbore.core import Dice, Done, Help, Mechanism, Staged
from smoothbore.core.ruleset import validated

from . import charges, melee, morale, movement, shooting
from .charges import ChargeFacts, Response
from .melee import MeleeFacts
from .morale import Command
from .movement import Pace, Terrain
from .options import DEFAULT_OPTIONS, BeyondSix
from .rules import (
    RULE_ARMY,
    RULE_BAG,
    RULE_CANNON,
    RULE_CHARGED,
    RULE_COMBAT,
    RULE_INTERPENETRATION,
    RULE_MORALE,
    RULE_ORDER_TESTS,
    RULE_RALLY,
    RULE_RALLY_ROUT,
    RULE_SHOOTING,
    RULE_TERRAIN,
    RULE_TO_HIT,
    RULE_TO_WOUND,
)
from .shooting import Cover, ShotFacts
from .steps_sequence import army_test_need, draw_die
from .units import (
    ALLOWED_FORMATIONS,
    Commander,
    Experience,
    Formation,
    Unit,
    UnitType,
    Weapon,
)

Pins = Annotated[int, Help("pin markers on the unit", low=0, high=12)]
Bases = Annotated[int, Help("bases left", low=1, high=12)]
Exp = Annotated[Experience, "troop experience (morale 7, 8, 9)"]


def _unit(uid: str, side: str, kind: UnitType, experience: Experience, bases: int,
          pins: int = 0, *, colonel: bool = True, formation: Formation | None = None,
          weapon: Weapon | None = None, down: bool = False) -> Unit:
    unit = Unit(uid, uid, side, kind, experience, bases=bases, pins=pins)
    unit = attrs.evolve(unit, down=down and unit.may_go_down, colonel=colonel and unit.colonel,
                        weapon=unit.weapon if weapon is None else weapon)
    if formation is not None and formation in ALLOWED_FORMATIONS[unit.kind]:
        mounted = unit.mounted and formation is not Formation.SKIRMISH
        unit = attrs.evolve(unit, formation=formation, mounted=mounted)
    return unit


@validated
def order_die(
    *,
    dice: Dice,
    union: Annotated[int, Help("Union dice in the bag", low=0, high=12)] = 3,
    confederate: Annotated[int, Help("Confederate dice in the bag", low=0, high=12)] = 3,
) -> str:
    """The colour of the next order die drawn from the bag."""
    bag = ("union",) * union + ("confederate",) * confederate
    return draw_die(bag, dice=dice) if bag else "empty bag"


@validated
def order_test(
    *,
    dice: Dice,
    experience: Exp = Experience.REGULAR,
    pins: Pins = 0,
    bases: Bases = 5,
    colonel: Annotated[bool, "the colonel is alive and with the unit"] = True,
    brigade_commander: Annotated[bool, "its brigade commander within 6\""] = False,
    army_commander: Annotated[bool, "the army commander within 12\""] = False,
) -> str:
    """An order test: 2D6 equal to or under morale, -1 per pin and per base below 5, the best
    single commander bonus."""
    unit = _unit("unit", "union", UnitType.INFANTRY, experience, bases, pins, colonel=colonel)
    passed = morale.order_test(unit, Command(brigade_commander, army_commander), dice=dice)
    return "passed" if passed else "failed"


@validated
def morale_test(
    *,
    dice: Dice,
    experience: Exp = Experience.REGULAR,
    pins: Pins = 1,
    bases: Bases = 4,
    routing_friends: Annotated[int, Help("friendly units routing within 6\"", low=0,
                                         high=6)] = 0,
    colonel: Annotated[bool, "the colonel is alive and with the unit"] = True,
    brigade_commander: Annotated[bool, "its brigade commander within 6\""] = False,
    army_commander: Annotated[bool, "the army commander within 12\""] = False,
) -> str:
    """A morale test: passed, or the unit routs."""
    unit = _unit("unit", "union", UnitType.INFANTRY, experience, bases, pins, colonel=colonel)
    passed = morale.morale_test(unit, Command(brigade_commander, army_commander),
                                routing_friends, dice=dice)
    return "passed" if passed else "routs"


@validated
def rally(*, dice: Dice, pins: Pins = 3) -> int:
    """The rally order: pins left after losing D6."""
    unit = _unit("unit", "union", UnitType.INFANTRY, Experience.REGULAR, 5, pins)
    return morale.rally(unit, dice=dice).pins


@validated
def rout_recovery(
    *,
    dice: Dice,
    experience: Exp = Experience.REGULAR,
    pins: Pins = 2,
    bases: Bases = 3,
    colonel: Annotated[bool, "the colonel is alive and with the unit"] = True,
) -> str:
    """A routing unit's test at its brigade's activation (bases lost ignored): the pins left
    if it rallies."""
    unit = attrs.evolve(_unit("unit", "union", UnitType.INFANTRY, experience, bases, pins,
                              colonel=colonel), routing=True)
    after = morale.recover_from_rout(unit, dice=dice)
    return "routs on" if after.routing else f"rallies with {after.pins} pins"


@validated
def to_hit(
    *,
    dice: Dice,
    shots: Annotated[int, Help("shots fired", low=0, high=40)] = 10,
    need: Annotated[int, Help("the modified score to hit", low=1, high=12)] = 3,
    beyond_six: Annotated[BeyondSix, "what a need above 6 does"] = BeyondSix.SECOND_ROLL,
) -> int:
    """Hits from a number of shots needing a score (3+ before modifiers)."""
    options = attrs.evolve(DEFAULT_OPTIONS, beyond_six=beyond_six)
    return shooting.roll_hits(shots, need, dice=dice, options=options)


@validated
def to_wound(
    *,
    dice: Dice,
    hits: Annotated[int, Help("hits to roll for", low=0, high=40)] = 6,
    experience: Annotated[Experience, "the target's experience (3+, 4+, 5+)"] = (
        Experience.REGULAR),
    colonel: Annotated[bool, "the target's colonel is with it"] = True,
) -> tuple[int, bool]:
    """(casualties, colonel killed) from rolling to wound, 6s rerolled for exceptional
    damage."""
    target = _unit("target", "confederate", UnitType.INFANTRY, experience, 5, colonel=colonel)
    return shooting.roll_wounds(hits, experience.to_wound, target, dice=dice)


@validated
def cannon_damage(
    *,
    dice: Dice,
    hits: Annotated[int, Help("cannon hits", low=1, high=4)] = 1,
    point_blank: Annotated[bool, "within point blank range (12\")"] = False,
) -> int:
    """A 12lb cannon's damage: 1D6 a hit, 2D6 at point blank."""
    return dice.roll(shooting.cannon_check(hits, point_blank), reason="cannon damage",
                     rule=RULE_CANNON)


@validated
def shooting_attack(
    *,
    dice: Dice,
    firer: Annotated[UnitType, "the firing unit's type"] = UnitType.INFANTRY,
    weapon: Annotated[Weapon, "its weapon"] = Weapon.RIFLED_MUSKET,
    formation: Annotated[Formation, "its formation (where its type allows)"] = Formation.LINE,
    experience: Annotated[Experience, "the firers' experience"] = Experience.REGULAR,
    bases: Annotated[int, Help("the firers' bases", low=1, high=12)] = 5,
    pins: Annotated[int, Help("pins on the firers", low=0, high=12)] = 0,
    moving: Annotated[bool, "fire on the move (fire and advance)"] = False,
    target: Annotated[UnitType, "the target's type"] = UnitType.INFANTRY,
    target_experience: Annotated[Experience, "the target's experience"] = Experience.REGULAR,
    target_bases: Annotated[int, Help("the target's bases", low=1, high=12)] = 5,
    target_pins: Annotated[int, Help("pins on the target", low=0, high=12)] = 0,
    target_down: Annotated[bool, "the target is down"] = False,
    distance: Annotated[int, Help("range in inches", low=0, high=60)] = 12,
    cover: Annotated[Cover, "the target's cover"] = Cover.NONE,
    enfilade: Annotated[bool, "the fire enfilades the target"] = False,
) -> shooting.ShotResult:
    """A whole shooting attack: hits, casualties, pins, bases lost, colonel, morale test."""
    shooter = _unit("firers", "union", firer, experience, bases, pins, formation=formation,
                    weapon=weapon)
    hit = _unit("target", "confederate", target, target_experience, target_bases,
                target_pins, down=target_down)
    result, _ = shooting.shoot(shooter, hit, ShotFacts(distance, cover, enfilade),
                               shooting.Firing(moving=moving), dice=dice)
    return result


@validated
def woods(
    *,
    dice: Dice,
    experience: Exp = Experience.REGULAR,
    pins: Pins = 0,
    formation: Annotated[Formation, "line (tests) or column (does not)"] = Formation.LINE,
    pace: Annotated[Pace, "advance or run"] = Pace.ADVANCE,
) -> str:
    """Infantry moving through woods: the distance, and the pin of a failed order test in
    line."""
    unit = _unit("unit", "union", UnitType.INFANTRY, experience, 5, pins, formation=formation)
    inches = movement.move_distance(unit, pace, Terrain.WOODS)
    if not movement.needs_woods_test(unit, Terrain.WOODS):
        return f"{inches}\""
    after = movement.woods_test(unit, dice=dice)
    return f"{inches}\", pinned" if after.pins > unit.pins else f"{inches}\""


@validated
def interpenetration(
    *,
    dice: Dice,
    experience: Exp = Experience.REGULAR,
    pins: Pins = 0,
) -> str:
    """A unit in line passing through a stationary friendly unit: its order test."""
    mover = _unit("mover", "union", UnitType.INFANTRY, experience, 5, pins)
    friend = _unit("friend", "union", UnitType.INFANTRY, Experience.REGULAR, 5)
    passed, _, _ = movement.interpenetrate(mover, friend, dice=dice)
    return "passes through" if passed else "both pinned, 1\" behind"


@validated
def melee_round(
    *,
    dice: Dice,
    charger: Annotated[UnitType, "the chargers' type"] = UnitType.INFANTRY,
    charger_experience: Annotated[Experience, "the chargers' experience"] = Experience.VETERAN,
    charger_bases: Annotated[int, Help("the chargers' bases", low=1, high=6)] = 5,
    charger_formation: Annotated[Formation, "the chargers' formation"] = Formation.LINE,
    defender: Annotated[UnitType, "the defenders' type"] = UnitType.INFANTRY,
    defender_experience: Annotated[Experience, "the defenders' experience"] = (
        Experience.REGULAR),
    defender_bases: Annotated[int, Help("the defenders' bases", low=1, high=6)] = 5,
    defender_formation: Annotated[Formation, "the defenders' formation"] = Formation.LINE,
    flank: Annotated[bool, "the chargers attack the flank"] = False,
    rear: Annotated[bool, "the chargers attack the rear"] = False,
    obstacle: Annotated[bool, "the defenders hold a linear obstacle"] = False,
) -> str:
    """A whole round of melee after a charge: casualties, the winner, the morale tests."""
    attackers = _unit("chargers", "union", charger, charger_experience, charger_bases,
                      formation=charger_formation)
    defenders = _unit("defenders", "confederate", defender, defender_experience,
                      defender_bases, formation=defender_formation)
    result, _, _ = melee.fight(attackers, defenders, MeleeFacts(flank, rear and not flank,
                                                                obstacle), dice=dice)
    return str(result)


@validated
def charge(
    *,
    dice: Dice,
    charger: Annotated[UnitType, "the chargers' type"] = UnitType.INFANTRY,
    charger_bases: Annotated[int, Help("the chargers' bases", low=1, high=6)] = 4,
    target: Annotated[UnitType, "the charged unit's type"] = UnitType.INFANTRY,
    target_bases: Annotated[int, Help("the charged unit's bases", low=1, high=6)] = 4,
    response: Annotated[Response, "the charged unit's reaction"] = Response.HOLD,
    distance: Annotated[int, Help("the charge's distance in inches", low=1, high=36)] = 6,
) -> str:
    """A whole charge: the chargers' order test, the charged unit's order test and point
    blank fire, the chargers' morale test, and the melee (regular troops, in line). By
    default the charged unit holds its fire, so the default odds answer at once (A37: with
    point blank fire, ``response=fire``, every casualty it may inflict is a melee of its
    own, exact in several seconds)."""
    attackers = _unit("chargers", "union", charger, Experience.REGULAR, charger_bases)
    defenders = _unit("defenders", "confederate", target, Experience.REGULAR, target_bases)
    facts = ChargeFacts(distance)
    problem = charges.charge_problem(attackers, defenders, facts)
    if problem:
        return f"no charge: {problem}"
    if response not in charges.responses(attackers, defenders, facts):
        return f"no such reaction: {response}"
    return whole_charge(attackers, defenders, facts, response, dice=dice)


@attrs.frozen
class _Charge:
    charger: Unit
    target: Unit
    facts: ChargeFacts
    response: Response


def _begin_charge(charger: Unit, target: Unit, facts: ChargeFacts,
                  response: Response) -> tuple[_Charge, bool]:
    return _Charge(charger, target, facts, response), True


def _chargers_test(charge: _Charge, value: bool, *, dice: Dice) -> bool | Done[str]:
    """Every charge takes an order test (A12)."""
    if not morale.order_test(charge.charger, dice=dice, reason="chargers' order test"):
        return Done("the chargers fail their order test")
    return True


def _reaction(charge: _Charge, value: bool, *,
              dice: Dice) -> tuple[charges.Reaction, Unit, Unit]:
    """The charged unit's order test, its point blank fire and the chargers' morale test:
    only the reaction and the units after it matter to the melee."""
    outcome = charges.receive(charge.charger, charge.target, charge.facts, charge.response,
                              dice=dice)
    return outcome.reaction, outcome.charger, outcome.target


def _charge_melee(charge: _Charge, value: tuple[charges.Reaction, Unit, Unit], *,
                  dice: Dice) -> str:
    """The melee, if the chargers charge home or the cavalry meet."""
    reaction, charger, target = value
    if reaction is charges.Reaction.CHARGE_HOME or reaction is charges.Reaction.COUNTER_CHARGED:
        counter = reaction is charges.Reaction.COUNTER_CHARGED
        result, _, _ = melee.fight(charger, target, dice=dice, simultaneous=counter,
                                   defender_charging=counter)
        return f"{reaction}: {result}"
    return str(reaction)


def _charge_result(charge: _Charge, value: object) -> str:
    """The charge's result as the mechanism prints it."""
    return str(value)


whole_charge: Staged[str] = Staged(
    "charge", RULE_CHARGED, _begin_charge, (_chargers_test, _reaction, _charge_melee),
    _charge_result,
    doc="A whole charge as stages: the chargers' order test, the reaction, the melee.",
)


@validated
def army_test(*, dice: Dice, experience: Exp = Experience.REGULAR) -> str:
    """A brigade's test when its army has lost half its brigades: stays, or goes home."""
    leader = Commander("c", "Brigadier", "union", brigade="1", experience=experience)
    need = army_test_need(leader, DEFAULT_OPTIONS)
    passed = morale.take_test(need, dice=dice, reason="army test", rule=RULE_ARMY)
    return "stays" if passed else "goes home"


MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism.of(order_die, RULE_BAG),
    Mechanism.of(order_test, RULE_ORDER_TESTS),
    Mechanism.of(morale_test, RULE_MORALE),
    Mechanism.of(rally, RULE_RALLY),
    Mechanism.of(rout_recovery, RULE_RALLY_ROUT),
    Mechanism.of(to_hit, RULE_TO_HIT),
    Mechanism.of(to_wound, RULE_TO_WOUND),
    Mechanism.of(cannon_damage, RULE_CANNON),
    Mechanism.of(shooting_attack, RULE_SHOOTING, name="shooting"),
    Mechanism.of(woods, RULE_TERRAIN),
    Mechanism.of(interpenetration, RULE_INTERPENETRATION),
    Mechanism.of(melee_round, RULE_COMBAT, name="melee"),
    Mechanism.of(charge, RULE_CHARGED),
    Mechanism.of(army_test, RULE_ARMY),
)
