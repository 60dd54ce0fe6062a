"""Every random mechanism of Will's AWI as a ``Mechanism``: ``smoothbore odds will_awi NAME
key=value ...`` prints its exact distribution.

Each parameter is declared once, in its function's keyword-only signature, with its help and
range (``Annotated[..., Help(...)]``); choices are enums (the function receives the member)
or literals, written on the command line as ``core.ruleset.spell`` gives them
(``light-infantry``, ``american-loyalist``, ``medium-guns``)."""

from __future__ import annotations

from typing import Annotated, Literal

from smoothbore.core import Dice, Help, Mechanism, spell
from smoothbore.core.ruleset import validated

from . import campaign, charges, command, fortifications, generals, rules, variants
from .charges import ChargeFacts, Face, test_charged, test_surrender
from .firing import Cover, FireFacts, resolve_fire
from .melee import Fighter, Melee, resolve_melee
from .morale import test_routing, test_shaken
from .movement import test_gun_facing
from .options import CommandPost, Options, variant_named
from .units import Commander, Formation, Nationality, Rank, Status, Training, TroopType, Unit

# Parameters shared by several mechanisms, declared once.
Strength = Annotated[int, Help("strength points", low=1, high=6)]
GeneralRank = Annotated[
    Literal["none", "brigadier", "senior"], Help("the general with the unit (+1 / +2)")
]
Quality = Annotated[bool, Help("FAQs (3) 2 idea: militia -1, European grenadiers +1")]
VariantName = Annotated[
    Literal["base", "ireland1798", "fortyfive"], Help("variant: base rules, Ireland 1798, the '45")
]
TargetTroop = Annotated[TroopType, Help("charged unit's troop type")]
TargetNation = Annotated[Nationality, Help("charged unit's nationality")]
TargetStrength = Annotated[int, Help("charged unit's strength points", low=1, high=6)]
TargetShaken = Annotated[bool, Help("charged unit is shaken")]
TargetRouting = Annotated[bool, Help("charged unit is already routing")]
ChargerTroop = Annotated[TroopType, Help("charging unit's troop type")]
ChargerNation = Annotated[Nationality, Help("charging units' nationality")]
SecondCharger = Annotated[
    Literal[
        "none", "line-infantry", "fusiliers", "grenadiers", "militia", "light-infantry",
        "jaegers", "rangers", "indians", "riflemen", "light-cavalry", "pikemen", "highlanders",
    ],
    Help("a second charging unit's troop type (none: one charger)"),
]
FaceCharged = Annotated[Face, Help("face charged")]
BehindObstacle = Annotated[bool, Help("charged unit behind an obstacle")]
InBuilding = Annotated[bool, Help("charged unit in a building")]
InFortification = Annotated[bool, Help("charged unit in a fortification")]
InHighlandCharge = Annotated[bool, Help("highland chargers are in a Highland charge")]
PostName = Annotated[CommandPost, Help("which command and control post")]
TrainingLevel = Annotated[Training, Help("the unit's training")]


def _unit(
    uid: str,
    troop: TroopType,
    nationality: Nationality = Nationality.AMERICAN,
    strength: int = 5,
    formation: Formation = Formation.LINE,
    *,
    shaken: bool = False,
    militia: int = 1,
    routing: bool = False,
    highland_charge: bool = False,
) -> Unit:
    status = Status.ROUTING if routing else Status.SHAKEN if shaken else Status.STEADY
    return Unit(
        uid,
        uid,
        uid,
        troop,
        nationality,
        strength=strength,
        initial_strength=strength,
        formation=formation,
        status=status,
        militia_morale=militia,
        highland_charge=highland_charge and troop is TroopType.HIGHLANDERS,
    )


def _rank(general: str) -> Rank | None:
    return {"none": None, "brigadier": Rank.BRIGADIER, "senior": Rank.SENIOR}[general]


def _chargers(
    charger: TroopType, nation: Nationality, second: str, highland_charge: bool
) -> tuple[Unit, ...]:
    first = _unit("charger", charger, nation, highland_charge=highland_charge)
    if second == "none":
        return (first,)
    troop = next(t for t in TroopType if spell(t) == second)
    return (first, _unit("charger2", troop, nation))


# ------------------------------------------------------------------ mechanism functions
@validated
def fire(
    *,
    dice: Dice,
    firer: Annotated[TroopType, Help("firing troop type")] = TroopType.LINE,
    firer_nation: Annotated[Nationality, Help("firing nationality")] = Nationality.AMERICAN,
    firer_strength: Annotated[int, Help("firing unit's strength points", low=1, high=6)] = 5,
    firer_formation: Annotated[Formation, Help("firing unit's formation")] = Formation.LINE,
    firer_shaken: Annotated[bool, Help("firing unit is shaken")] = False,
    range: Annotated[int, Help("range in inches", low=0, high=60)] = 6,
    cover: Annotated[Cover, Help("target cover")] = Cover.OPEN,
    target: Annotated[TroopType, Help("target troop type")] = TroopType.LINE,
    target_nation: Annotated[Nationality, Help("target nationality")] = Nationality.AMERICAN,
    target_strength: Annotated[int, Help("target strength points", low=1, high=6)] = 5,
    target_militia: Annotated[Literal[1, 2], Help("militia morale modifier, -1 or -2")] = 1,
    friends_in_arc: Annotated[bool, Help("friendly units in the arc (no canister)")] = False,
) -> str:
    """One unit's fire: strength point lost and morale.

    Rules - Firing: 2d6 plus the factors; 7+ takes a strength point and the same score above
    the target's basic morale shakes it."""
    f = _unit("firer", firer, firer_nation, firer_strength, firer_formation, shaken=firer_shaken)
    t = _unit("target", target, target_nation, target_strength, militia=target_militia)
    facts = FireFacts(float(range), cover, friends_in_arc=friends_in_arc)
    r = resolve_fire(f, t, facts, dice=dice)
    return ("-1 SP" if r.hit else "no loss") + (", shaken" if r.shaken else "")


@validated
def shaken_test(
    *,
    dice: Dice,
    troop: Annotated[TroopType, Help("troop type")] = TroopType.LINE,
    general: GeneralRank = "none",
    in_open: Annotated[bool, Help("in the open (optional militia rule)")] = False,
    militia_rout_in_open: Annotated[
        bool, Help("optional: militia and Indians in the open rout on 2-3")
    ] = False,
    quality: Quality = False,
) -> str:
    """Testing a shaken unit.

    Rules - Morale: Testing shaken units: 1d6, 4+ carry on, 2-3 retire, 1 or less rout."""
    unit = _unit("unit", troop, shaken=True)
    opts = Options(militia_rout_in_open=militia_rout_in_open, shaken_quality_modifiers=quality)
    return str(test_shaken(unit, _rank(general), dice=dice, in_open=in_open, options=opts))


@validated
def routing_test(
    *,
    dice: Dice,
    troop: Annotated[TroopType, Help("troop type")] = TroopType.LINE,
    general: GeneralRank = "none",
    quality: Quality = False,
) -> str:
    """Testing a routing unit.

    Rules - Morale: Testing routing units: 1d6, 5+ halt shaken, 2-4 rout on, 1 or less rout
    on and lose a strength point."""
    unit = _unit("unit", troop, routing=True)
    opts = Options(shaken_quality_modifiers=quality)
    return str(test_routing(unit, _rank(general), dice=dice, options=opts))


@validated
def charged_test(
    *,
    dice: Dice,
    target: TargetTroop = TroopType.LIGHT_CAVALRY,
    target_nation: TargetNation = Nationality.AMERICAN,
    target_strength: TargetStrength = 2,
    target_shaken: TargetShaken = False,
    target_routing: TargetRouting = False,
    charger: ChargerTroop = TroopType.LIGHT_INFANTRY,
    charger_nation: ChargerNation = Nationality.BRITISH,
    second_charger: SecondCharger = "none",
    face: FaceCharged = Face.FRONT,
    behind_obstacle: BehindObstacle = False,
    in_building: InBuilding = False,
    in_fortification: InFortification = False,
    variant: VariantName = "base",
    highland_charge: InHighlandCharge = False,
    cavalry_close_order: Annotated[bool, Help("cavalry count as close order (FAQs (1) Q4)")] = True,
) -> str:
    """Testing a charged unit (FAQ example by default).

    Rules - Charging: Testing charged units, with surrender when it applies; by default the
    FAQs (1) Q4 example: a strength-2 cavalry unit charged by light infantry."""
    t = _unit("target", target, target_nation, target_strength, shaken=target_shaken,
              routing=target_routing)
    chargers = _chargers(charger, charger_nation, second_charger, highland_charge)
    facts = ChargeFacts(face, behind_obstacle, in_building, in_fortification)
    opts = Options(variant=variant_named(variant), cavalry_close_order=cavalry_close_order)
    return str(test_charged(t, chargers, facts, dice=dice, options=opts))


@validated
def melee(
    *,
    dice: Dice,
    attacker: Annotated[TroopType, Help("attacking troop type")] = TroopType.LINE,
    attacker_nation: Annotated[Nationality, Help("attacking nationality")] = Nationality.BRITISH,
    attacker_formation: Annotated[Formation, Help("attacker's formation")] = Formation.LINE,
    attacker_charging: Annotated[bool, Help("attacker is charging")] = True,
    defender: Annotated[TroopType, Help("defending troop type")] = TroopType.LINE,
    defender_nation: Annotated[
        Nationality, Help("defending nationality")
    ] = Nationality.AMERICAN,
    defender_formation: Annotated[Formation, Help("defender's formation")] = Formation.LINE,
    defender_counter: Annotated[bool, Help("defender counter-charged")] = False,
    face: Annotated[Face, Help("face attacked")] = Face.FRONT,
    over_obstacle: Annotated[bool, Help("attacker charges over an obstacle")] = False,
    uphill: Annotated[bool, Help("attacker charges uphill")] = False,
    charging_building: Annotated[bool, Help("attacker charges a building")] = False,
    charging_fortification: Annotated[bool, Help("attacker charges a fortification")] = False,
    behind_obstacle: Annotated[bool, Help("defender immediately behind an obstacle")] = False,
    variant: VariantName = "base",
    highland_charge: Annotated[bool, Help("highland attacker in a Highland charge")] = False,
) -> str:
    """One attacker against one defender.

    Rules - Melee: 1d6 plus the factors each; the loser's result."""
    a = _unit("attacker", attacker, attacker_nation, formation=attacker_formation,
              highland_charge=highland_charge)
    d = _unit("defender", defender, defender_nation, formation=defender_formation)
    m = Melee(
        (
            Fighter(
                a,
                charging=attacker_charging,
                over_obstacle=over_obstacle,
                uphill=uphill,
                charging_building=charging_building,
                charging_fortification=charging_fortification,
            ),
        ),
        (Fighter(d, charging=defender_counter, flank=face is Face.FLANK, rear=face is Face.REAR),),
        defender_behind_obstacle=behind_obstacle,
    )
    out = resolve_melee(m, dice=dice, options=Options(variant=variant_named(variant)))
    if not out.loser:
        return out.effect.value
    return f"{out.affected} {out.effect.value}"


@validated
def charge_to_melee(
    *,
    dice: Dice,
    target: TargetTroop = TroopType.LINE,
    target_nation: TargetNation = Nationality.AMERICAN,
    target_strength: TargetStrength = 5,
    target_shaken: TargetShaken = False,
    target_routing: TargetRouting = False,
    charger: ChargerTroop = TroopType.LINE,
    charger_nation: ChargerNation = Nationality.BRITISH,
    second_charger: SecondCharger = "none",
    face: FaceCharged = Face.FRONT,
    behind_obstacle: BehindObstacle = False,
    in_building: InBuilding = False,
    in_fortification: InFortification = False,
    variant: VariantName = "base",
    highland_charge: InHighlandCharge = False,
    over_obstacle: Annotated[bool, Help("chargers cross an obstacle")] = False,
    uphill: Annotated[bool, Help("chargers charge uphill")] = False,
    counter_charge: Annotated[bool, Help("a unit that may counter-charge does")] = True,
) -> str:
    """A charge from the charged test through the melee (G-J).

    Rules - Charging and Rules - Melee: the charged test, rout or counter-charge, contact and
    the melee, as one sequence."""
    t = _unit("target", target, target_nation, target_strength, shaken=target_shaken,
              routing=target_routing)
    chargers = _chargers(charger, charger_nation, second_charger, highland_charge)
    facts = ChargeFacts(face, behind_obstacle, in_building, in_fortification)
    opts = Options(variant=variant_named(variant))
    result = charges.charge_to_melee(t, chargers, facts, opts, over_obstacle, uphill,
                                     counter_charge, dice=dice)
    return str(result)


@validated
def surrender(*, dice: Dice, mounted: Annotated[bool, Help("mounted unit (5+)")] = False) -> str:
    """A surrender test.

    Rules - Charging: Surrender: 1d6, 4+ foot, 5+ mounted."""
    unit = _unit("unit", TroopType.LIGHT_CAVALRY if mounted else TroopType.LINE)
    return "surrenders" if test_surrender(unit, dice=dice) else "holds out"


@validated
def general_risk(
    *,
    dice: Dice,
    risk: Annotated[
        Literal["fire-loss", "melee-loss", "melee-rout"], Help("which risk table")
    ] = "fire-loss",
) -> str:
    """Risk to a general with a unit.

    Risk to Generals: 2d6 after fire losses, melee losses or a rout from melee."""
    g = Commander("g", "general", "x")
    table = generals.Risk[risk.replace("-", "_").upper()]
    return str(generals.roll_risk(g, table, dice=dice))


@validated
def command_roll(
    *,
    dice: Dice,
    rating: Annotated[int, Help("commander's rating", low=2, high=12)] = 7,
    distance: Annotated[int, Help("inches from the commander", low=0, high=120)] = 15,
    attached: Annotated[bool, Help("commander with the unit")] = False,
    in_sight: Annotated[bool, Help("unit in sight of the commander")] = True,
    training: TrainingLevel = Training.POOR,
    lost: Annotated[int, Help("strength points lost (January post)", low=0, high=4)] = 1,
    group: Annotated[bool, Help("group move")] = False,
    post: PostName = CommandPost.JANUARY_2008,
    cinc_within_6: Annotated[bool, Help('C in C within 6" of the commander')] = False,
    cinc_bonus: Annotated[bool, Help("use the optional C in C bonus")] = False,
) -> str:
    """One order (default: the poor general's militia example).

    Command & Control: 2d6 at or under the commander's rating with the modifiers; the
    defaults are the January 2008 post's worked example (4 or less)."""
    g = Commander("g", "general", "x", rating=rating)
    u = Unit("u", "unit", "x", TroopType.MILITIA, strength=5 - lost, initial_strength=5,
             training=training)
    facts = command.OrderFacts(float(distance), attached, in_sight, group, cinc_within_6)
    opts = Options(command_post=post, cinc_bonus=cinc_bonus)
    return "ordered" if command.give_order(g, u, facts, dice=dice, options=opts) else "fails"


@validated
def independent_command(
    *,
    dice: Dice,
    training: TrainingLevel = Training.AVERAGE,
    post: PostName = CommandPost.MARCH_2008,
) -> str:
    """A unit not commanded tests alone.

    Command & Control: 3 or less on 2d6 (March 2008), a rating of 6 (January 2008), +/-1 for
    training."""
    u = Unit("u", "unit", "x", TroopType.LINE, training=training)
    ok = command.test_independent(u, True, dice=dice, options=Options(command_post=post))
    return "moves" if ok else "stays"


@validated
def gun_facing(
    *,
    dice: Dice,
    gun: Annotated[
        Literal[
            TroopType.LIGHT_GUN,
            TroopType.MEDIUM_GUN,
            TroopType.HEAVY_GUN,
            TroopType.GALLOPER_GUN,
            TroopType.GRASSHOPPER_GUN,
            TroopType.HOWITZER,
        ],
        Help("gun type"),
    ] = TroopType.MEDIUM_GUN,
) -> str:
    """Optional d6 for a gun to turn to face.

    FAQs (1) Q3, optional: light guns turn on 2+, medium 3+, heavy 4+."""
    return "turns" if test_gun_facing(_unit("gun", gun), dice=dice) else "cannot turn"


@validated
def demolition(
    *,
    dice: Dice,
    charges: Annotated[int, Help("charges laid", low=1, high=6)] = 1,
    points: Annotated[int, Help("the work's defence points", low=0, high=12)] = 6,
) -> str:
    """Demolition charges against a work.

    Demolition: (1 + charges) d6 beating the work's defence points destroys it."""
    work = fortifications.Defence(fortifications.Work.TIMBER_FIELDWORK, points)
    return "destroyed" if fortifications.demolish(work, charges, dice=dice) else "stands"


@validated
def demolition_blast(
    *,
    dice: Dice,
    troop: Annotated[TroopType, Help("troop type")] = TroopType.LINE,
    strength: Strength = 5,
) -> str:
    """A unit within a demolition's blast: 2d6 as if fired at.

    Demolition: no firing factors; 7+ a strength point, above basic morale shaken."""
    r = fortifications.demolition_blast(_unit("unit", troop, strength=strength), dice=dice)
    return ("-1 SP" if r.hit else "no loss") + (", shaken" if r.shaken else "")


@validated
def bombard(
    *,
    dice: Dice,
    modifier: Annotated[int, Help("firing factors other than cover", low=-12, high=12)] = 0,
) -> str:
    """Guns firing ball at a work.

    Defence Values: 2d6 plus the firing factors other than cover; 7+ takes a defence
    point."""
    work = fortifications.Defence.new(fortifications.Work.REDOUBT)
    after = fortifications.bombard(work, modifier, dice=dice)
    return "-1 defence point" if after.points < work.points else "no damage"


@validated
def highland_charge(
    *,
    dice: Dice,
    in_musket_range: Annotated[bool, Help("within musket range")] = True,
) -> str:
    """The '45 Highland charge test.

    Battles of the '45: 1d6, 6 (5-6 in musket range) and the clan charges."""
    unit = _unit("clan", TroopType.HIGHLANDERS, Nationality.JACOBITE)
    return "charges" if variants.test_highland_charge(unit, in_musket_range, dice=dice) else "holds"


@validated
def highland_charge_distance(
    *,
    dice: Dice,
    formation: Annotated[Formation, Help("formation")] = Formation.LINE,
) -> int:
    """The '45 Highland charge move.

    Battles of the '45: the close order move plus 1d6 inches."""
    unit = _unit("clan", TroopType.HIGHLANDERS, Nationality.JACOBITE, formation=formation)
    return variants.highland_charge_move(unit, dice=dice)


@validated
def pre_battle(*, dice: Dice) -> str:
    """The '45 British line pre-battle rolls.

    Battles of the '45: 1d6 for morale and 1d6 for firing, +1 on 4-6 each."""
    return str(variants.roll_pre_battle(dice=dice))


@validated
def continental_week(
    *,
    dice: Dice,
    points: Annotated[int, Help("campaign points", low=0, high=120)] = 100,
    four_loses: Annotated[bool, Help("a 4 loses 5 points (the text omits 4)")] = False,
) -> int:
    """Continental or loyalist weekly attrition and recruitment.

    AWI Campaign Rules (Draft): the week's points."""
    return campaign.continental_week(points, dice=dice, four_loses=four_loses).points


@validated
def militia_week(
    *,
    dice: Dice,
    points: Annotated[int, Help("campaign points", low=0, high=120)] = 100,
) -> str:
    """A militia unit's week.

    AWI Campaign Rules (Draft): American Militia attrition and recruitment."""
    return str(campaign.militia_unit_week(points, dice=dice))


@validated
def militia_return(
    *,
    dice: Dice,
    absent: Annotated[int, Help("absent militia units", low=1, high=20)] = 2,
) -> str:
    """Absent militia returning.

    AWI Campaign Rules (Draft): do the absent militia units return?"""
    return "return" if campaign.militia_return(absent, dice=dice) else "stay away"


@validated
def european_replacements(*, dice: Dice) -> int:
    """Replacements by sea for one nationality.

    AWI Campaign Rules (Draft): European Replacements, the points each unit receives this
    week."""
    return campaign.european_replacements(dice=dice)


@validated
def forced_march(
    *,
    dice: Dice,
    extra_percent: Annotated[
        int, Help("percent beyond a normal day's march", low=0, high=100)
    ] = 50,
    militia: Annotated[bool, Help("militia +1")] = False,
    bad_weather: Annotated[bool, Help("adverse weather +1")] = False,
) -> int:
    """Permanent losses on a forced march.

    AWI Campaign Rules (Draft): Forced Marches."""
    return campaign.forced_march(extra_percent, militia, bad_weather, dice=dice)


# ------------------------------------------------------------------ the list
MECHANISMS: tuple[Mechanism, ...] = tuple(
    Mechanism.of(function, rule)
    for function, rule in (
        (fire, rules.FIRING),
        (shaken_test, rules.MORALE_SHAKEN),
        (routing_test, rules.MORALE_ROUTING),
        (charged_test, rules.CHARGED_TEST),
        (melee, rules.MELEE),
        (charge_to_melee, rules.CHARGING),
        (surrender, rules.SURRENDER),
        (general_risk, rules.MELEE_GENERALS),
        (command_roll, rules.COMMAND_JANUARY),
        (independent_command, rules.COMMAND_MARCH),
        (gun_facing, rules.FAQ1),
        (demolition, rules.DEMOLITION),
        (demolition_blast, rules.DEMOLITION),
        (bombard, rules.FORT_VALUES),
        (highland_charge, rules.FORTY_FIVE),
        (highland_charge_distance, rules.FORTY_FIVE),
        (pre_battle, rules.FORTY_FIVE),
        (continental_week, rules.CAMPAIGN_CONTINENTAL),
        (militia_week, rules.CAMPAIGN_MILITIA),
        (militia_return, rules.CAMPAIGN_MILITIA),
        (european_replacements, rules.CAMPAIGN_EUROPEAN),
        (forced_march, rules.CAMPAIGN_FORCED),
    )
)
"""Every random mechanism, parameters read from the signatures."""
