"""Every random mechanism of Bloodybacks 9.3 as a function of plain parameters, for
``smoothbore odds bloodybacks93 <mechanism> key=value ...``."""

from __future__ import annotations

import enum
from typing import TypeVar

from smoothbore.core import Dice, InvalidValueError, Mechanism, Parameter

from . import activation, charges, command, commanders, melee, morale, movement, sequence, shooting
from .charges import ChargeFacts, Contact
from .melee import ChargeVerdict
from .movement import MoveFacts, Terrain
from .options import Options
from .shooting import Cover, ShotFacts
from .units import AMERICAN, BRITISH, Commander, Formation, Troops, Unit, UnitType, Weapon

E = TypeVar("E", bound=enum.Enum)


def _member(kind: type[E], field: str, value: object) -> E:
    """The member of ``kind`` with this value (words may be joined by dashes on the command
    line), or InvalidValueError listing the allowed values."""
    if isinstance(value, str):
        value = value.replace("-", " ")
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(m.value).replace(" ", "-") for m in kind)
        raise InvalidValueError(field, value, allowed) from None


def _kind(text: str) -> UnitType:
    return _member(UnitType, "kind", text)


def first_card(*, dice: Dice) -> str:
    """The first card of a turn and the turn length it sets."""
    card, minutes = sequence.first_card(dice=dice)
    return f"{card}: {minutes} minutes"


def turn_length(*, dice: Dice) -> int:
    """Minutes in a turn, from the first card."""
    return sequence.first_card(dice=dice)[1]


def activate_unit(
    *,
    dice: Dice,
    quality: int = 3,
    command_quality: int = 3,
    disruption: int = 0,
    stamina: int = 0,
    outside_radius: bool = False,
    other_brigade: bool = False,
    long_turn: bool = False,
    leaderless: bool = False,
    naturals: bool = False,
) -> activation.Activation:
    """A unit's activation hand (and the morale test of a hand with no success)."""
    unit = Unit("u", "unit", BRITISH, quality=quality, disruption=disruption,
                stamina_losses=stamina)
    leader = Commander("c", "commander", BRITISH, command_quality=command_quality,
                       removed=leaderless)
    return activation.activate(unit, leader, dice=dice, outside_radius=outside_radius,
                               other_brigade=other_brigade, long_turn=long_turn,
                               options=Options(activation_naturals=naturals))


def actions_earned(
    *, dice: Dice, quality: int = 3, command_quality: int = 3, disruption: int = 0,
    long_turn: bool = False,
) -> int:
    """Just the number of actions a unit's activation earns."""
    return activate_unit(dice=dice, quality=quality, command_quality=command_quality,
                         disruption=disruption, long_turn=long_turn).actions


def test(
    *,
    dice: Dice,
    kind: str = "morale",
    quality: int = 3,
    density: int = 6,
    stamina: int = 0,
    charger_impetus: int = 0,
    lost_by: int = 0,
    commander_attached: bool = False,
) -> morale.TestResult:
    """A morale (2 x quality) or cohesion (quality + density) test."""
    test_kind = _member(morale.TestKind, "kind", kind)
    unit = Unit("u", "unit", BRITISH, quality=quality, density=density, stamina_losses=stamina)
    return morale.take_test(unit, test_kind, dice=dice, commander_attached=commander_attached,
                            charger_impetus=charger_impetus or None, lost_melee_by=lost_by).result


def rout_move(*, dice: Dice, kind: str = "infantry") -> int | str:
    """Inches of a rout move ("destroyed" for artillery)."""
    unit = Unit("u", "unit", BRITISH, kind=_kind(kind), density=3,
                formation=_formation_for(_kind(kind)))
    distance = morale.rout_distance(unit, dice=dice)
    return "destroyed" if distance is None else distance


def move(
    *,
    dice: Dice,
    kind: str = "cavalry",
    formation: str = "deployed",
    terrain: str = "open",
    road: bool = False,
    obstacle: bool = False,
    retrograde: bool = False,
    density: int = 6,
    quality: int = 3,
    disruption: int = 0,
) -> str:
    """What one move action allows and costs."""
    unit_type = _kind(kind)
    unit = Unit("u", "unit", BRITISH, kind=unit_type,
                formation=_member(Formation, "formation", formation), quality=quality,
                density=3 if unit_type.is_artillery else density, disruption=disruption)
    facts = MoveFacts(terrain=_member(Terrain, "terrain", terrain), road=road,
                      obstacle=obstacle, retrograde=retrograde)
    return str(movement.move(unit, facts, dice=dice))


ARTILLERY_WEAPONS = {
    "light": UnitType.LIGHT_ARTILLERY, "field": UnitType.FIELD_ARTILLERY,
    "heavy": UnitType.HEAVY_ARTILLERY, "siege": UnitType.SIEGE_ARTILLERY,
    "very-light": UnitType.VERY_LIGHT_ARTILLERY, "amusette": UnitType.AMUSETTE,
}
"""The artillery types the ``shooting`` mechanism takes for its weapon."""


def shoot(
    *,
    dice: Dice,
    weapon: str = "musket",
    range: int = 6,
    size: int = 20,
    target_size: int = 20,
    target_density: int = 6,
    cover: int = 0,
    enfilade: bool = False,
    extra_orders: int = 0,
    woods_inches: int = 0,
    target_in_woods: bool = False,
) -> int:
    """Hits from a unit with ``weapon`` (musket, rifle, carbine, or an artillery type: light,
    field, heavy, siege, very-light, amusette; ``size`` is then its sections)."""
    if weapon in ARTILLERY_WEAPONS:
        shooter = Unit("s", "shooter", BRITISH, kind=ARTILLERY_WEAPONS[weapon], density=3,
                       size=4, formation=Formation.UNLIMBERED, weapon=Weapon.CANNON,
                       sections=size)
    else:
        shooter = Unit("s", "shooter", BRITISH, size=size,
                       weapon=_member(Weapon, "weapon", weapon))
    target = Unit("t", "target", AMERICAN, size=target_size, density=target_density)
    facts = ShotFacts(range=range, extra_orders=extra_orders,
                      cover=_member(Cover, "cover", cover), enfilade=enfilade,
                      woods_inches=woods_inches, target_in_woods=target_in_woods)
    return shooting.shoot(shooter, target, facts, dice=dice).hits


def _formation_for(kind: UnitType) -> Formation:
    return Formation.UNLIMBERED if kind.is_artillery else Formation.DEPLOYED


def push_back(*, dice: Dice) -> int:
    """Inches of a push back move."""
    return morale.push_back_distance(dice=dice)


def passage(
    *, dice: Dice, mover_quality: int = 3, mover_density: int = 6, static_quality: int = 3,
    static_density: int = 6,
) -> str:
    """Passage of lines: the result and the DRPs it costs."""
    mover = Unit("m", "mover", BRITISH, quality=mover_quality, density=mover_density)
    static = Unit("s", "static", BRITISH, quality=static_quality, density=static_density)
    result = movement.passage_of_lines(mover, static, dice=dice)
    if result.result is movement.PassageResult.DISORDERED:
        return f"{result.result} (+{result.mover.disruption} DRP)"
    return str(result.result)


def evade(*, dice: Dice, quality: int = 3, density: int = 3, spare_move: int = 0) -> str:
    """An evade by skirmishers charged by formed infantry."""
    unit = Unit("e", "evader", AMERICAN, quality=quality, density=density)
    charger = Unit("c", "charger", BRITISH, density=6)
    result = charges.evade(unit, charger, dice=dice, charger_spare_move=spare_move)
    return "caught and destroyed" if result.caught else str(result.morale.result if
                                                             result.morale else "")


def _charge_units(
    charger_kind: str, charger_quality: int, charger_density: int, charger_size: int,
    charger_troops: str, charger_drp: int, heavy: bool, defender_kind: str,
    defender_quality: int, defender_density: int, defender_size: int, defender_drp: int,
    defender_bayonets: bool,
) -> tuple[Unit, Unit]:
    try:
        troops = Troops[charger_troops.upper()]
    except KeyError:
        raise InvalidValueError("charger_troops", charger_troops,
                                ", ".join(t.name.lower() for t in Troops)) from None
    c_kind, d_kind = _kind(charger_kind), _kind(defender_kind)
    charger = Unit("c", "charger", BRITISH, kind=c_kind, quality=charger_quality,
                   density=charger_density, size=charger_size, troops=troops,
                   disruption=charger_drp, heavy_cavalry=heavy,
                   formation=_formation_for(c_kind))
    defender = Unit("d", "defender", AMERICAN, kind=d_kind, quality=defender_quality,
                    density=defender_density, size=defender_size, disruption=defender_drp,
                    bayonets=defender_bayonets, troops=Troops.MILITIA,
                    formation=_formation_for(d_kind))
    return charger, defender


def impetus(
    *, dice: Dice, charger_kind: str = "infantry", charger_quality: int = 4,
    charger_density: int = 5, charger_size: int = 20, charger_troops: str = "regular",
    charger_drp: int = 0, heavy: bool = False, defender_kind: str = "infantry",
    defender_quality: int = 3, defender_density: int = 6, defender_size: int = 20,
    defender_drp: int = 0, contact: str = "front", uphill: bool = False,
    cold_steel: bool = True, commander_attached: bool = False, countercharged: bool = False,
) -> int:
    """Impetus successes of a charge."""
    charger, defender = _charge_units(charger_kind, charger_quality, charger_density,
                                      charger_size, charger_troops, charger_drp, heavy,
                                      defender_kind, defender_quality, defender_density,
                                      defender_size, defender_drp, True)
    facts = ChargeFacts(contact=_member(Contact, "contact", contact), uphill=uphill,
                        use_cold_steel=cold_steel, charger_commander_attached=commander_attached,
                        countercharged_by_cavalry=countercharged)
    return charges.roll_impetus((charger,), (defender,), facts, dice=dice)


def stand(*, dice: Dice, quality: int = 3, density: int = 6, impetus: int = 4) -> str:
    """The check to stand against a charge of the given impetus."""
    unit = Unit("d", "defender", AMERICAN, quality=quality, density=density)
    result = charges.check_to_stand((unit,), impetus, ChargeFacts(), dice=dice)
    test = result.tests[0] if result.tests else None
    return "no test: stands" if test is None else str(test.result)


def melee_roll(*, dice: Dice, count: int = 6, need: int = 3) -> str:
    """The melee roll: successes against failures."""
    successes = melee.roll_melee(count, need, dice=dice)
    return f"{successes}-{count - successes}"


def charge(
    *, dice: Dice, charger_kind: str = "infantry", charger_quality: int = 4,
    charger_density: int = 5, charger_size: int = 20, charger_troops: str = "regular",
    charger_drp: int = 0, heavy: bool = False, defender_kind: str = "infantry",
    defender_quality: int = 3, defender_density: int = 6, defender_size: int = 20,
    defender_drp: int = 0, defender_bayonets: bool = True, contact: str = "front",
    cover: int = 0, uphill: bool = False, cold_steel: bool = True,
    commander_attached: bool = False, countercharged: bool = False,
    experiment: bool = False,
) -> ChargeVerdict:
    """A whole charge from impetus to the last cohesion test."""
    charger, defender = _charge_units(charger_kind, charger_quality, charger_density,
                                      charger_size, charger_troops, charger_drp, heavy,
                                      defender_kind, defender_quality, defender_density,
                                      defender_size, defender_drp, defender_bayonets)
    facts = ChargeFacts(contact=_member(Contact, "contact", contact),
                        cover=_member(Cover, "cover", cover), uphill=uphill,
                        use_cold_steel=cold_steel, charger_commander_attached=commander_attached,
                        countercharged_by_cavalry=countercharged)
    outcome = melee.resolve_charge((charger,), (defender,), facts, dice=dice,
                                   options=Options(cavalry_experiment=experiment))
    return outcome.verdict()


def pursuit(*, dice: Dice, kind: str = "infantry", quality: int = 3) -> int:
    """Inches of a pursuit move."""
    unit = Unit("p", "pursuer", BRITISH, kind=_kind(kind), quality=quality)
    return charges.pursuit_distance(unit, dice=dice)


def _p(name: str, kind: type, default: object, help: str,
       choices: tuple[object, ...] = ()) -> Parameter:
    return Parameter(name, kind, default, help, choices)


QUALITY = tuple(range(1, 6))
DENSITY = tuple(range(3, 9))
KINDS = tuple(t.value.replace(" ", "-") for t in UnitType)
TROOPS = tuple(t.name.lower() for t in Troops)
_CHARGE_PARAMS = (
    _p("charger_kind", str, "infantry", "infantry or cavalry", ("infantry", "cavalry")),
    _p("charger_quality", int, 4, "charger quality", QUALITY),
    _p("charger_density", int, 5, "charger density", DENSITY),
    _p("charger_size", int, 20, "figures in the charger(s), combined"),
    _p("charger_troops", str, "regular", "troop class (cold steel)", TROOPS),
    _p("charger_drp", int, 0, "charger DRPs", (0, 1, 2, 3)),
    _p("heavy", bool, False, "heavy cavalry"),
    _p("defender_kind", str, "infantry", "defender type", KINDS),
    _p("defender_quality", int, 3, "defender quality", QUALITY),
    _p("defender_density", int, 6, "defender density", DENSITY),
    _p("defender_size", int, 20, "defender figures"),
    _p("defender_drp", int, 0, "defender DRPs", (0, 1, 2, 3)),
)

MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism("activity", "a commander's activity level and command points",
              command.RULE_ACTIVITY, command.activity_mechanism,
              (_p("activity_rating", int, 3, "AR", (2, 3, 4, 5)),
               _p("quirk", bool, False, "AR4 roll 5 gives 2 CP as the printed table"))),
    Mechanism("first-card", "the first card of a turn and the turn length",
              sequence.RULE_ACTIVATING, first_card),
    Mechanism("turn-length", "minutes in a turn", sequence.RULE_ACTIVATING, turn_length),
    Mechanism("activation", "a unit's activation hand", activation.RULE_ACTIVATION,
              activate_unit,
              (_p("quality", int, 3, "unit quality", QUALITY),
               _p("command_quality", int, 3, "commander quality", QUALITY),
               _p("disruption", int, 0, "unit DRPs", (0, 1, 2, 3)),
               _p("stamina", int, 0, "stamina losses"),
               _p("outside_radius", bool, False, "outside the command radius"),
               _p("other_brigade", bool, False, "not of the commander's brigade"),
               _p("long_turn", bool, False, "a 25- or 30-minute turn"),
               _p("leaderless", bool, False, "commander killed"),
               _p("naturals", bool, False, "1s pass and 12s fail in the hand too"))),
    Mechanism("actions", "actions earned by an activation", activation.RULE_ACTIVATION,
              actions_earned,
              (_p("quality", int, 3, "unit quality", QUALITY),
               _p("command_quality", int, 3, "commander quality", QUALITY),
               _p("disruption", int, 0, "unit DRPs", (0, 1, 2, 3)),
               _p("long_turn", bool, False, "a 25- or 30-minute turn"))),
    Mechanism("test", "a morale or cohesion test", morale.RULE_MORALE, test,
              (_p("kind", str, "morale", "morale or cohesion", ("morale", "cohesion")),
               _p("quality", int, 3, "unit quality", QUALITY),
               _p("density", int, 6, "unit density", DENSITY),
               _p("stamina", int, 0, "stamina losses"),
               _p("charger_impetus", int, 0, "impetus of a charge being received"),
               _p("lost_by", int, 0, "difference in losses of a lost melee"),
               _p("commander_attached", bool, False, "commander or CinC attached"))),
    Mechanism("rout-move", "inches of a rout move", morale.RULE_MOVES, rout_move,
              (_p("kind", str, "infantry", "unit type", KINDS),)),
    Mechanism("push-back", "inches of a push back", morale.RULE_MOVES, push_back),
    Mechanism("move", "distances of one move action", movement.RULE_MOVEMENT,
              move,
              (_p("kind", str, "cavalry", "unit type", KINDS),
               _p("formation", str, "deployed", "formation",
                  ("deployed", "column", "limbered", "unlimbered")),
               _p("terrain", str, "open", "terrain",
                  tuple(t.value.replace(" ", "-") for t in movement.Terrain)),
               _p("road", bool, False, "on a road"),
               _p("obstacle", bool, False, "crossing a minor obstacle"),
               _p("retrograde", bool, False, "moving backwards"),
               _p("density", int, 6, "infantry density", DENSITY),
               _p("quality", int, 3, "unit quality", QUALITY),
               _p("disruption", int, 0, "DRPs before the move", (0, 1, 2, 3)))),
    Mechanism("passage", "passage of lines", movement.RULE_PASSAGE, passage,
              (_p("mover_quality", int, 3, "moving unit quality", QUALITY),
               _p("mover_density", int, 6, "moving unit density", DENSITY),
               _p("static_quality", int, 3, "static unit quality", QUALITY),
               _p("static_density", int, 6, "static unit density", DENSITY))),
    Mechanism("shooting", "hits from one shot", shooting.RULE_SHOOTING,
              shoot,
              (_p("weapon", str, "musket", "musket, rifle, carbine or artillery type",
                  ("musket", "rifle", "carbine", "very-light", "light", "field", "heavy",
                   "siege", "amusette")),
               _p("range", int, 6, "inches"),
               _p("size", int, 20, "shooter figures (sections for artillery)"),
               _p("target_size", int, 20, "target figures"),
               _p("target_density", int, 6, "target density", DENSITY),
               _p("cover", int, 0, "0 none, 1 light, 2 significant, 3 fortifications",
                  (0, 1, 2, 3)),
               _p("enfilade", bool, False, "enfilading"),
               _p("extra_orders", int, 0, "extra shooting orders"),
               _p("woods_inches", int, 0, "inches of woods crossed"),
               _p("target_in_woods", bool, False, "target in woods, shooter not"))),
    Mechanism("evade", "an evade from a charge", charges.RULE_EVADE, evade,
              (_p("quality", int, 3, "evader quality", QUALITY),
               _p("density", int, 3, "evader density", (3, 4)),
               _p("spare_move", int, 0, "inches the chargers can go beyond"))),
    Mechanism("impetus", "impetus of a charge", charges.RULE_IMPETUS, impetus,
              (*_CHARGE_PARAMS,
               _p("contact", str, "front", "face contacted", ("front", "flank", "rear")),
               _p("uphill", bool, False, "charging up a steep hill"),
               _p("cold_steel", bool, True, "use cold steel when able"),
               _p("commander_attached", bool, False, "commander with the chargers"),
               _p("countercharged", bool, False, "cavalry countercharged by cavalry"))),
    Mechanism("stand", "the check to stand against a charge", charges.RULE_STAND, stand,
              (_p("quality", int, 3, "defender quality", QUALITY),
               _p("density", int, 6, "defender density", DENSITY),
               _p("impetus", int, 4, "attacker impetus"))),
    Mechanism("melee", "the melee roll", melee.RULE_MELEE, melee_roll,
              (_p("count", int, 6, "dice"), _p("need", int, 3, "need"))),
    Mechanism("charge", "a whole charge: impetus, stand, melee, cohesion tests",
              charges.RULE_CHARGES, charge,
              (*_CHARGE_PARAMS,
               _p("defender_bayonets", bool, True, "defender has bayonets"),
               _p("contact", str, "front", "face contacted", ("front", "flank", "rear")),
               _p("cover", int, 0, "defender cover 0-3", (0, 1, 2, 3)),
               _p("uphill", bool, False, "charging up a steep hill"),
               _p("cold_steel", bool, True, "use cold steel when able"),
               _p("commander_attached", bool, False, "commander with the chargers"),
               _p("countercharged", bool, False, "cavalry countercharged by cavalry"),
               _p("experiment", bool, False, "the cavalry experiment (-2 melee dice)"))),
    Mechanism("pursuit", "inches of a pursuit", charges.RULE_PURSUIT, pursuit,
              (_p("kind", str, "infantry", "infantry or cavalry", ("infantry", "cavalry")),
               _p("quality", int, 3, "pursuer quality", QUALITY))),
    Mechanism("commander-risk", "risk to an attached commander", commanders.RULE_RISK,
              commanders.risk_mechanism,
              (_p("losses", int, 2, "losses taken by the unit"),
               _p("rifles", bool, False, "losses from rifle fire"),
               _p("constitution", int, 9, "commander constitution"))),
    Mechanism("commander-fate", "fate of a removed commander", commanders.RULE_FATE,
              commanders.fate_mechanism),
)
