"""Every random mechanism of Bloodybacks 9.3 as a function of plain parameters, for
``smoothbore odds bloodybacks93 <mechanism> key=value ...``. Each parameter is declared once,
in the function's signature; choices are enums (the function receives the member) or
literals, spelled on the command line in lower case with dashes."""

from __future__ import annotations

from typing import Annotated, Literal

from smoothbore.core import Dice, Help, Mechanism, NamedEnum
from smoothbore.core.ruleset import validated

from . import activation, charges, command, commanders, deck, melee, morale, movement, shooting
from .charges import ChargeFacts, Contact
from .melee import ChargeVerdict
from .movement import MoveFacts, Terrain
from .options import Options
from .rules import (
    RULE_ACTIVATING,
    RULE_ACTIVATION,
    RULE_ACTIVITY,
    RULE_CHARGES,
    RULE_EVADE,
    RULE_FATE,
    RULE_IMPETUS,
    RULE_MELEE,
    RULE_MORALE,
    RULE_MOVEMENT,
    RULE_MOVES,
    RULE_PASSAGE,
    RULE_PURSUIT,
    RULE_RISK,
    RULE_SHOOTING,
    RULE_STAND,
)
from .shooting import Cover, ShotFacts
from .units import (
    AMERICAN,
    BRITISH,
    Commander,
    Formation,
    Troops,
    Unit,
    UnitType,
    Weapon,
)

# The bounds of the numbers the text leaves open (docs/interpretations/bloodybacks93.md, B65):
MAX_STAMINA = 36
"""Stamina losses: at 36 the -2 per full 6 (-12) takes the highest to-succeed number (a
cohesion test of quality 5 and density 8: 13) below 2, so only natural 1s pass; more losses
change nothing (Morale: Modifiers to the to succeed number)."""
MAX_SIZE = 240
"""Figures in a unit or in the chargers combined (mounted count two): ten of the text's
24-figure units (Unit size; Charges and melee: Multiple unit melee)."""
MAX_IMPETUS = 18
"""An impetus beyond a unit's quality (at most 5) plus the highest to-succeed number (13)
leaves only natural 1s passing the test to stand or receive the charge: more changes
nothing."""
MAX_RANGE = 120
"""Inches: the longest range of the text, siege roundshot (long) at 10' (Shooting:
Artillery)."""
MAX_EXTRA_ORDERS = 5
"""Extra shooting orders: at most 2 further actions of an activation (the 136=123 hand gives
at most 3) and 3 command points (half the highest activity level, 5, rounded up)."""
MAX_SPARE = 15
"""Inches a charger can go beyond an evader's start: an evade moves at most 15" (2dAv of 5s
plus quality 5), so from 15" every evader is caught (Charges and melee: Evade)."""
MAX_MELEE_DICE = 7
"""The charger's melee dice: 6d12, 7 with cold steel (Resolve melee)."""
MAX_NEED = 12
"""A d12 need of 11 or more passes every die but the 12s, which always fail."""
MAX_LOSSES = 14
"""Losses at one event: from 12 (14 with rifles' -2) every d12 strikes an attached
commander (Risk to commanders)."""
MAX_CONSTITUTION = 12
"""A commander's constitution: 9 by default; one strike takes at most a d12's 12 from it
(Risk to commanders)."""

Quality = Annotated[int, Help("unit quality", low=1, high=5)]
Density = Annotated[int, Help("unit density", low=3, high=8)]
Drp = Annotated[int, Help("disruption points (DRPs)", low=0, high=3)]
Stamina = Annotated[int, Help("stamina losses", low=0, high=MAX_STAMINA)]
Size = Annotated[int, Help("figures (mounted figures count two)", low=1, high=MAX_SIZE)]


class Arm(NamedEnum):
    """What the ``shooting`` mechanism shoots with: small arms, or a class of artillery."""

    MUSKET = "musket"
    RIFLE = "rifle"
    CARBINE = "carbine"
    VERY_LIGHT = "very-light"
    LIGHT = "light"
    FIELD = "field"
    HEAVY = "heavy"
    SIEGE = "siege"
    AMUSETTE = "amusette"


ARTILLERY_ARMS = {
    Arm.VERY_LIGHT: UnitType.VERY_LIGHT_ARTILLERY,
    Arm.LIGHT: UnitType.LIGHT_ARTILLERY,
    Arm.FIELD: UnitType.FIELD_ARTILLERY,
    Arm.HEAVY: UnitType.HEAVY_ARTILLERY,
    Arm.SIEGE: UnitType.SIEGE_ARTILLERY,
    Arm.AMUSETTE: UnitType.AMUSETTE,
}
SMALL_ARMS = {Arm.MUSKET: Weapon.MUSKET, Arm.RIFLE: Weapon.RIFLE, Arm.CARBINE: Weapon.CARBINE}


def _formation_for(kind: UnitType) -> Formation:
    return Formation.UNLIMBERED if kind.is_artillery else Formation.DEPLOYED


@validated
def activity(
    *,
    dice: Dice,
    activity_rating: Annotated[int, Help("the commander's activity rating (AR)", low=2,
                                         high=5)] = 3,
    quirk: Annotated[bool, "AR4 rolling 5 gets 2 CP, as the printed table (B1)"] = False,
) -> str:
    """A commander's activity level and command points.

    Rolls that give the same level print once."""
    leader = Commander("c", "commander", BRITISH, activity_rating=activity_rating)
    options = Options(activity_table_quirk=quirk)
    return str(command.roll_activity(leader, dice=dice, options=options))


@validated
def first_card(*, dice: Dice) -> str:
    """The first card of a turn and the turn length it sets."""
    card, minutes = deck.first_card(dice=dice)
    return f"{card}: {minutes} minutes"


@validated
def turn_length(*, dice: Dice) -> int:
    """Minutes in a turn, from the first card."""
    return deck.first_card(dice=dice)[1]


@validated
def activate_unit(
    *,
    dice: Dice,
    quality: Quality = 3,
    command_quality: Annotated[int, Help("the commander's quality", low=1, high=5)] = 3,
    disruption: Drp = 0,
    stamina: Stamina = 0,
    outside_radius: Annotated[bool, "outside the command radius"] = False,
    other_brigade: Annotated[bool, "not of the commander's brigade"] = False,
    long_turn: Annotated[bool, "a 25- or 30-minute turn"] = False,
    leaderless: Annotated[bool, "the commander has been killed"] = False,
    naturals: Annotated[bool, "1s pass and 12s fail in the hand too (B3)"] = False,
) -> activation.Activation:
    """A unit's activation hand (and the morale test of a hand with no success)."""
    unit = Unit("u", "unit", BRITISH, quality=quality, disruption=disruption,
                stamina_losses=stamina)
    leader = Commander("c", "commander", BRITISH, command_quality=command_quality,
                       removed=leaderless)
    return activation.activate(unit, leader, dice=dice, outside_radius=outside_radius,
                               other_brigade=other_brigade, long_turn=long_turn,
                               options=Options(activation_naturals=naturals))


@validated
def actions_earned(
    *,
    dice: Dice,
    quality: Quality = 3,
    command_quality: Annotated[int, Help("the commander's quality", low=1, high=5)] = 3,
    disruption: Drp = 0,
    long_turn: Annotated[bool, "a 25- or 30-minute turn"] = False,
) -> int:
    """Actions earned by an activation."""
    return activate_unit(dice=dice, quality=quality, command_quality=command_quality,
                         disruption=disruption, long_turn=long_turn).actions


@validated
def test(
    *,
    dice: Dice,
    kind: Annotated[morale.TestKind, "morale (2 x quality) or cohesion (quality + density)"] = (
        morale.TestKind.MORALE
    ),
    quality: Quality = 3,
    density: Density = 6,
    stamina: Stamina = 0,
    charger_impetus: Annotated[int, Help("impetus of a charge being received (0: none)",
                                         low=0, high=MAX_IMPETUS)] = 0,
    lost_by: Annotated[int, Help("difference in losses of a lost melee", low=0,
                                 high=MAX_MELEE_DICE)] = 0,
    commander_attached: Annotated[bool, "its own commander or the CinC is attached"] = False,
) -> morale.TestResult:
    """A morale or cohesion test."""
    unit = Unit("u", "unit", BRITISH, quality=quality, density=density, stamina_losses=stamina)
    return morale.take_test(unit, kind, dice=dice, commander_attached=commander_attached,
                            charger_impetus=charger_impetus or None, lost_melee_by=lost_by).result


@validated
def rout_move(
    *, dice: Dice, kind: Annotated[UnitType, "the routing unit's type"] = UnitType.INFANTRY
) -> int | str:
    """Inches of a rout move ("destroyed" for artillery)."""
    unit = Unit("u", "unit", BRITISH, kind=kind, density=3, formation=_formation_for(kind))
    distance = morale.rout_distance(unit, dice=dice)
    return "destroyed" if distance is None else distance


@validated
def push_back(*, dice: Dice) -> int:
    """Inches of a push back."""
    return morale.push_back_distance(dice=dice)


@validated
def move(
    *,
    dice: Dice,
    kind: Annotated[UnitType, "the moving unit's type"] = UnitType.CAVALRY,
    formation: Annotated[Formation, "deployed or column; artillery limbered or unlimbered"] = (
        Formation.DEPLOYED
    ),
    terrain: Annotated[Terrain, "the ground moved over"] = Terrain.OPEN,
    road: Annotated[bool, "on a road"] = False,
    obstacle: Annotated[bool, "crossing a minor obstacle"] = False,
    retrograde: Annotated[bool, "moving backwards"] = False,
    density: Annotated[int, Help("infantry density (artillery crews are 3)", low=3,
                                 high=8)] = 6,
    quality: Quality = 3,
    disruption: Annotated[int, Help("DRPs before the move", low=0, high=3)] = 0,
) -> str:
    """Distances of one move action (and the DRPs or test it costs)."""
    unit = Unit("u", "unit", BRITISH, kind=kind, formation=formation, quality=quality,
                density=3 if kind.is_artillery else density, disruption=disruption)
    facts = MoveFacts(terrain=terrain, road=road, obstacle=obstacle, retrograde=retrograde)
    return str(movement.move(unit, facts, dice=dice))


@validated
def passage(
    *,
    dice: Dice,
    mover_quality: Annotated[int, Help("the moving unit's quality", low=1, high=5)] = 3,
    mover_density: Annotated[int, Help("the moving unit's density", low=5, high=8)] = 6,
    static_quality: Annotated[int, Help("the static unit's quality", low=1, high=5)] = 3,
    static_density: Annotated[int, Help("the static unit's density", low=5, high=8)] = 6,
) -> str:
    """Passage of lines: the result and the DRPs it costs."""
    mover = Unit("m", "mover", BRITISH, quality=mover_quality, density=mover_density)
    static = Unit("s", "static", BRITISH, quality=static_quality, density=static_density)
    result = movement.passage_of_lines(mover, static, dice=dice)
    if result.result is movement.PassageResult.DISORDERED:
        return f"{result.result} (+{result.mover.disruption} DRP)"
    return str(result.result)


@validated
def shoot(
    *,
    dice: Dice,
    weapon: Annotated[Arm, "musket, rifle, carbine or a class of artillery"] = Arm.MUSKET,
    range: Annotated[int, Help("inches to the target", low=0, high=MAX_RANGE)] = 6,
    size: Annotated[int, Help("shooter figures (sections for artillery)", low=1,
                              high=MAX_SIZE)] = 20,
    target_size: Annotated[int, Help("target figures", low=1, high=MAX_SIZE)] = 20,
    target_density: Annotated[int, Help("target density", low=3, high=8)] = 6,
    cover: Annotated[Cover, "0 none, 1 light, 2 significant, 3 fortifications"] = Cover.NONE,
    enfilade: Annotated[bool, "enfilading"] = False,
    extra_orders: Annotated[int, Help("extra shooting orders", low=0,
                                      high=MAX_EXTRA_ORDERS)] = 0,
    woods_inches: Annotated[int, Help("inches of woods crossed", low=0, high=MAX_RANGE)] = 0,
    target_in_woods: Annotated[bool, "target in woods, shooter not"] = False,
) -> int:
    """Hits from one shot.

    ``size`` counts sections for artillery."""
    if weapon in ARTILLERY_ARMS:
        shooter = Unit("s", "shooter", BRITISH, kind=ARTILLERY_ARMS[weapon], density=3,
                       size=4, formation=Formation.UNLIMBERED, weapon=Weapon.CANNON,
                       sections=size)
    else:
        shooter = Unit("s", "shooter", BRITISH, size=size, weapon=SMALL_ARMS[weapon])
    target = Unit("t", "target", AMERICAN, size=target_size, density=target_density)
    facts = ShotFacts(range=range, extra_orders=extra_orders, cover=cover, enfilade=enfilade,
                      woods_inches=woods_inches, target_in_woods=target_in_woods)
    return shooting.shoot(shooter, target, facts, dice=dice).hits


@validated
def evade(
    *,
    dice: Dice,
    quality: Annotated[int, Help("evader quality", low=1, high=5)] = 3,
    density: Annotated[Literal[3, 4], "evader density"] = 3,
    spare_move: Annotated[int, Help("inches the chargers can go beyond", low=0,
                                    high=MAX_SPARE)] = 0,
) -> str:
    """An evade by skirmishers charged by formed infantry."""
    unit = Unit("e", "evader", AMERICAN, quality=quality, density=density)
    charger = Unit("c", "charger", BRITISH, density=6)
    result = charges.evade(unit, charger, dice=dice, charger_spare_move=spare_move)
    if result.caught or result.morale is None:
        return "caught and destroyed"
    return str(result.morale.result)


ChargerKind = Annotated[Literal["infantry", "cavalry"], "infantry or cavalry"]
# the parameters that the impetus and the whole charge share, declared once
ChargerQuality = Annotated[int, Help("charger quality", low=1, high=5)]
ChargerDensity = Annotated[int, Help("charger density", low=3, high=8)]
ChargerSize = Annotated[int, Help("figures in the charger(s), combined", low=1,
                                  high=MAX_SIZE)]
ChargerTroops = Annotated[Troops, "troop class (cold steel)"]
ChargerDrp = Annotated[int, Help("charger DRPs", low=0, high=3)]
Heavy = Annotated[bool, "heavy cavalry"]
DefenderKind = Annotated[UnitType, "defender type"]
DefenderQuality = Annotated[int, Help("defender quality", low=1, high=5)]
DefenderDensity = Annotated[int, Help("defender density", low=3, high=8)]
DefenderSize = Annotated[int, Help("defender figures", low=1, high=MAX_SIZE)]
DefenderDrp = Annotated[int, Help("defender DRPs", low=0, high=3)]


def _charge_units(
    charger_kind: str, charger_quality: int, charger_density: int, charger_size: int,
    charger_troops: Troops, charger_drp: int, heavy: bool, defender_kind: UnitType,
    defender_quality: int, defender_density: int, defender_size: int, defender_drp: int,
    defender_bayonets: bool,
) -> tuple[Unit, Unit]:
    kind = UnitType.CAVALRY if charger_kind == "cavalry" else UnitType.INFANTRY
    charger = Unit("c", "charger", BRITISH, kind=kind, quality=charger_quality,
                   density=charger_density, size=charger_size, troops=charger_troops,
                   disruption=charger_drp, heavy_cavalry=heavy)
    defender = Unit("d", "defender", AMERICAN, kind=defender_kind, quality=defender_quality,
                    density=defender_density, size=defender_size, disruption=defender_drp,
                    bayonets=defender_bayonets, troops=Troops.MILITIA,
                    formation=_formation_for(defender_kind))
    return charger, defender


@validated
def impetus(
    *,
    dice: Dice,
    charger_kind: ChargerKind = "infantry",
    charger_quality: ChargerQuality = 4,
    charger_density: ChargerDensity = 5,
    charger_size: ChargerSize = 20,
    charger_troops: ChargerTroops = Troops.REGULAR,
    charger_drp: ChargerDrp = 0,
    heavy: Heavy = False,
    defender_kind: DefenderKind = UnitType.INFANTRY,
    defender_quality: DefenderQuality = 3,
    defender_density: DefenderDensity = 6,
    defender_size: DefenderSize = 20,
    defender_drp: DefenderDrp = 0,
    contact: Annotated[Contact, "face contacted"] = Contact.FRONT,
    uphill: Annotated[bool, "charging up a steep hill"] = False,
    cold_steel: Annotated[bool, "use cold steel when able"] = True,
    commander_attached: Annotated[bool, "a commander rides with the chargers"] = False,
    countercharged: Annotated[bool, "cavalry countercharged by cavalry"] = False,
) -> int:
    """Impetus successes of a charge."""
    charger, defender = _charge_units(charger_kind, charger_quality, charger_density,
                                      charger_size, charger_troops, charger_drp, heavy,
                                      defender_kind, defender_quality, defender_density,
                                      defender_size, defender_drp, True)
    facts = ChargeFacts(contact=contact, uphill=uphill, use_cold_steel=cold_steel,
                        charger_commander_attached=commander_attached,
                        countercharged_by_cavalry=countercharged)
    return charges.roll_impetus((charger,), (defender,), facts, dice=dice)


@validated
def stand(
    *,
    dice: Dice,
    quality: Annotated[int, Help("defender quality", low=1, high=5)] = 3,
    density: Annotated[int, Help("defender density", low=3, high=8)] = 6,
    impetus: Annotated[int, Help("attacker impetus", low=0, high=MAX_IMPETUS)] = 4,
    commander_attached: Annotated[bool, "its own commander or the CinC is attached"] = False,
) -> str:
    """The check to stand against a charge."""
    unit = Unit("d", "defender", AMERICAN, quality=quality, density=density)
    facts = ChargeFacts(led=frozenset({unit.id}) if commander_attached else frozenset())
    result = charges.check_to_stand((unit,), impetus, facts, dice=dice)
    test = result.tests[0] if result.tests else None
    return "no test: stands" if test is None else str(test.result)


@validated
def melee_roll(
    *,
    dice: Dice,
    count: Annotated[int, Help("dice", low=0, high=MAX_MELEE_DICE)] = 6,
    need: Annotated[int, Help("need on each d12 (1s always pass, 12s always fail)",
                              low=0, high=MAX_NEED)] = 3,
) -> str:
    """The melee roll: successes against failures."""
    successes = melee.roll_melee(count, need, dice=dice)
    return f"{successes}-{count - successes}"


@validated
def charge(
    *,
    dice: Dice,
    charger_kind: ChargerKind = "infantry",
    charger_quality: ChargerQuality = 4,
    charger_density: ChargerDensity = 5,
    charger_size: ChargerSize = 20,
    charger_troops: ChargerTroops = Troops.REGULAR,
    charger_drp: ChargerDrp = 0,
    heavy: Heavy = False,
    defender_kind: DefenderKind = UnitType.INFANTRY,
    defender_quality: DefenderQuality = 3,
    defender_density: DefenderDensity = 6,
    defender_size: DefenderSize = 20,
    defender_drp: DefenderDrp = 0,
    defender_bayonets: Annotated[bool, "the defender has bayonets"] = True,
    contact: Annotated[Contact, "face contacted"] = Contact.FRONT,
    cover: Annotated[Cover, "defender cover: 0 none, 1 light, 2 significant, "
                            "3 fortifications"] = Cover.NONE,
    uphill: Annotated[bool, "charging up a steep hill"] = False,
    cold_steel: Annotated[bool, "use cold steel when able"] = True,
    commander_attached: Annotated[bool, "a commander rides with the chargers (+1 impetus "
                                        "die)"] = False,
    charger_led: Annotated[bool, "the charger's own commander or the CinC is with it (+1 "
                                 "impetus die and +1 to its tests)"] = False,
    defender_led: Annotated[bool, "the defender's own commander or the CinC is with it (+1 "
                                  "to its tests)"] = False,
    countercharged: Annotated[bool, "cavalry countercharged by cavalry"] = False,
    experiment: Annotated[bool, "the cavalry experiment: 2 melee dice fewer (B9)"] = False,
) -> ChargeVerdict:
    """A whole charge: impetus, stand, melee, cohesion tests."""
    charger, defender = _charge_units(charger_kind, charger_quality, charger_density,
                                      charger_size, charger_troops, charger_drp, heavy,
                                      defender_kind, defender_quality, defender_density,
                                      defender_size, defender_drp, defender_bayonets)
    led = {u.id for u, flag in ((charger, charger_led), (defender, defender_led)) if flag}
    facts = ChargeFacts(contact=contact, cover=cover, uphill=uphill, use_cold_steel=cold_steel,
                        charger_commander_attached=commander_attached or charger_led,
                        led=frozenset(led), countercharged_by_cavalry=countercharged)
    outcome = melee.resolve_charge((charger,), (defender,), facts, dice=dice,
                                   options=Options(cavalry_experiment=experiment))
    return outcome.verdict()


@validated
def pursuit(
    *,
    dice: Dice,
    kind: ChargerKind = "infantry",
    quality: Annotated[int, Help("pursuer quality", low=1, high=5)] = 3,
) -> int:
    """Inches of a pursuit.

    Infantry dAv + quality, cavalry dAv + d12; ``kind`` may be given as ``"cavalry"`` or
    ``UnitType.CAVALRY`` (Charges and melee: Pursuit)."""
    unit_type = UnitType.CAVALRY if kind == "cavalry" else UnitType.INFANTRY
    unit = Unit("p", "pursuer", BRITISH, kind=unit_type, quality=quality)
    return charges.pursuit_distance(unit, dice=dice)


@validated
def commander_risk(
    *,
    dice: Dice,
    losses: Annotated[int, Help("losses taken by the unit", low=0, high=MAX_LOSSES)] = 2,
    rifles: Annotated[bool, "losses from rifle fire"] = False,
    constitution: Annotated[int, Help("the commander's constitution", low=1,
                                      high=MAX_CONSTITUTION)] = 9,
) -> str:
    """Risk to an attached commander."""
    leader = Commander("c", "commander", BRITISH, constitution=constitution, attached_to="u")
    risk = commanders.risk_to_commander(leader, losses, dice=dice, rifles=rifles)
    if not risk.struck:
        return "unhurt"
    return "removed" if risk.commander.removed else "struck, carries on"


@validated
def commander_fate(*, dice: Dice) -> commanders.Fate:
    """Fate of a removed commander."""
    leader = Commander("c", "commander", BRITISH, constitution=0, removed=True)
    return commanders.commander_fate(leader, dice=dice)


MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism.of(activity, RULE_ACTIVITY),
    Mechanism.of(first_card, RULE_ACTIVATING),
    Mechanism.of(turn_length, RULE_ACTIVATING),
    Mechanism.of(activate_unit, RULE_ACTIVATION, name="activation"),
    Mechanism.of(actions_earned, RULE_ACTIVATION, name="actions"),
    Mechanism.of(test, RULE_MORALE),
    Mechanism.of(rout_move, RULE_MOVES),
    Mechanism.of(push_back, RULE_MOVES),
    Mechanism.of(move, RULE_MOVEMENT),
    Mechanism.of(passage, RULE_PASSAGE),
    Mechanism.of(shoot, RULE_SHOOTING, name="shooting"),
    Mechanism.of(evade, RULE_EVADE),
    Mechanism.of(impetus, RULE_IMPETUS),
    Mechanism.of(stand, RULE_STAND),
    Mechanism.of(melee_roll, RULE_MELEE, name="melee"),
    Mechanism.of(charge, RULE_CHARGES),
    Mechanism.of(pursuit, RULE_PURSUIT),
    Mechanism.of(commander_risk, RULE_RISK),
    Mechanism.of(commander_fate, RULE_FATE),
)
