"""Every random mechanism of Will's AWI as a ``Mechanism``: ``smoothbore odds will_awi NAME
key=value ...`` prints its exact distribution."""

from __future__ import annotations

from typing import Any

import attrs

from smoothbore.core import Dice, InvalidValueError, Mechanism, Parameter

from . import campaign, command, fortifications, generals, rules, variants
from .charges import ChargedResult, ChargeFacts, Face, test_charged, test_surrender
from .firing import Cover, FireFacts, resolve_fire
from .melee import Fighter, Melee, resolve_melee
from .morale import test_routing, test_shaken
from .movement import test_gun_facing
from .options import CommandPost, Options, variant_named
from .units import Formation, Nationality, Rank, Training, TroopType, WillGeneral, WillUnit

TROOPS = tuple(t.name.lower() for t in TroopType)
NATIONS = tuple(n.name.lower() for n in Nationality)
VARIANT_NAMES = ("base", "ireland1798", "fortyfive")


def _unit(
    uid: str,
    troop: str,
    nationality: str = "american",
    strength: int = 5,
    formation: str = "line",
    shaken: bool = False,
    militia: int = 1,
    routing: bool = False,
    highland_charge: bool = False,
) -> WillUnit:
    from .units import Status

    try:
        t = TroopType[troop.upper()]
        n = Nationality[nationality.upper()]
        f = Formation[formation.upper()]
    except KeyError as error:
        raise InvalidValueError("troop/nationality/formation", str(error), "see --list") from None
    status = Status.ROUTING if routing else Status.SHAKEN if shaken else Status.STEADY
    return WillUnit(
        uid,
        uid,
        uid,
        t,
        n,
        strength=strength,
        initial_strength=max(strength, 1),
        formation=f,
        status=status,
        militia_morale=militia,
        highland_charge=highland_charge,
    )


def _rank(general: str) -> Rank | None:
    return {"none": None, "brigadier": Rank.BRIGADIER, "senior": Rank.SENIOR}[general]


def _options(variant: str = "base", **kw: object) -> Options:
    return Options(variant=variant_named(variant), **kw)  # type: ignore[arg-type]


# ------------------------------------------------------------------ mechanism functions
def fire(
    *,
    dice: Dice,
    firer: str = "line",
    firer_nation: str = "american",
    firer_strength: int = 5,
    firer_formation: str = "line",
    firer_shaken: bool = False,
    range: int = 6,
    cover: str = "open",
    target: str = "line",
    target_nation: str = "american",
    target_strength: int = 5,
    target_militia: int = 1,
    friends_in_arc: bool = False,
) -> str:
    """Rules - Firing: one unit's fire and its morale effect."""
    f = _unit("firer", firer, firer_nation, firer_strength, firer_formation, firer_shaken)
    t = _unit("target", target, target_nation, target_strength, militia=target_militia)
    facts = FireFacts(float(range), Cover[cover.upper()], friends_in_arc=friends_in_arc)
    r = resolve_fire(f, t, facts, dice=dice)
    return ("-1 SP" if r.hit else "no loss") + (", shaken" if r.shaken else "")


def shaken_test(
    *,
    dice: Dice,
    troop: str = "line",
    general: str = "none",
    in_open: bool = False,
    militia_rout_in_open: bool = False,
    quality: bool = False,
) -> str:
    """Rules - Morale: Testing shaken units."""
    unit = _unit("unit", troop, shaken=True)
    opts = Options(militia_rout_in_open=militia_rout_in_open, shaken_quality_modifiers=quality)
    return str(test_shaken(unit, _rank(general), dice=dice, in_open=in_open, options=opts))


def routing_test(
    *, dice: Dice, troop: str = "line", general: str = "none", quality: bool = False
) -> str:
    """Rules - Morale: Testing routing units."""
    unit = _unit("unit", troop, routing=True)
    return str(
        test_routing(
            unit, _rank(general), dice=dice, options=Options(shaken_quality_modifiers=quality)
        )
    )


@attrs.frozen
class ChargeSetup:
    """The units and facts of a charge, as the charge mechanisms take them (variant included:
    it decides the options the charge is read with)."""

    target: str = "line"
    target_nation: str = "american"
    target_strength: int = 5
    target_shaken: bool = False
    target_routing: bool = False
    charger: str = "line"
    charger_nation: str = "british"
    second_charger: str = ""
    face: str = "front"
    behind_obstacle: bool = False
    in_building: bool = False
    in_fortification: bool = False
    variant: str = "base"
    highland_charge: bool = False

    def units(self) -> tuple[WillUnit, tuple[WillUnit, ...], ChargeFacts]:
        """The charged unit, the chargers and the charged unit's position."""
        t = _unit(
            "target",
            self.target,
            self.target_nation,
            self.target_strength,
            shaken=self.target_shaken,
            routing=self.target_routing,
        )
        first = _unit(
            "charger",
            self.charger,
            self.charger_nation,
            highland_charge=self.highland_charge and self.charger == "highlanders",
        )
        second = (
            (_unit("charger2", self.second_charger, self.charger_nation),)
            if self.second_charger
            else ()
        )
        facts = ChargeFacts(
            Face[self.face.upper()], self.behind_obstacle, self.in_building, self.in_fortification
        )
        return t, (first, *second), facts

    def parameters(self) -> tuple[Parameter, ...]:
        """The mechanism parameters, with this setup's values as defaults."""
        return (
            _p("target", str, self.target, "charged unit's troop type", TROOPS),
            _p("target_nation", str, self.target_nation, "charged unit's nationality", NATIONS),
            _p("target_strength", int, self.target_strength, "charged unit's strength points"),
            _p("target_shaken", bool, self.target_shaken, "charged unit is shaken"),
            _p("target_routing", bool, self.target_routing, "charged unit is already routing"),
            _p("charger", str, self.charger, "charging unit's troop type", TROOPS),
            _p("charger_nation", str, self.charger_nation, "charging units' nationality", NATIONS),
            _p(
                "second_charger",
                str,
                self.second_charger,
                "a second charging unit's troop type ('' none)",
                ("", *TROOPS),
            ),
            _p("face", str, self.face, "face charged", ("front", "flank", "rear")),
            _p("behind_obstacle", bool, self.behind_obstacle, "charged unit behind an obstacle"),
            _p("in_building", bool, self.in_building, "charged unit in a building"),
            _p("in_fortification", bool, self.in_fortification, "charged unit in a fortification"),
            _p(
                "variant", str, self.variant, "variant: base, ireland1798, fortyfive", VARIANT_NAMES
            ),
            _p(
                "highland_charge",
                bool,
                self.highland_charge,
                "highland chargers are in a Highland charge",
            ),
        )


FAQ_CHARGE = ChargeSetup(
    target="light_cavalry", target_strength=2, charger="light_infantry", charger_nation="british"
)
"""FAQs (1) Q4: a strength-2 cavalry unit charged by open order infantry."""


def charged_test(*, dice: Dice, cavalry_close_order: bool = True, **setup: Any) -> str:
    """Rules - Charging: Testing charged units (with surrender when it applies); by default
    the FAQ's strength-2 cavalry charged by light infantry."""
    spec = attrs.evolve(FAQ_CHARGE, **setup)
    t, chargers, facts = spec.units()
    opts = _options(spec.variant, cavalry_close_order=cavalry_close_order)
    return str(test_charged(t, chargers, facts, dice=dice, options=opts))


def melee(
    *,
    dice: Dice,
    attacker: str = "line",
    attacker_nation: str = "british",
    attacker_formation: str = "line",
    attacker_charging: bool = True,
    defender: str = "line",
    defender_nation: str = "american",
    defender_formation: str = "line",
    defender_counter: bool = False,
    face: str = "front",
    over_obstacle: bool = False,
    uphill: bool = False,
    charging_building: bool = False,
    charging_fortification: bool = False,
    behind_obstacle: bool = False,
    variant: str = "base",
    highland_charge: bool = False,
) -> str:
    """Rules - Melee: one attacker against one defender; the loser's result."""
    a = _unit(
        "attacker",
        attacker,
        attacker_nation,
        formation=attacker_formation,
        highland_charge=highland_charge and attacker == "highlanders",
    )
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
        (Fighter(d, charging=defender_counter, flank=face == "flank", rear=face == "rear"),),
        defender_behind_obstacle=behind_obstacle,
    )
    out = resolve_melee(m, dice=dice, options=_options(variant))
    if not out.loser:
        return out.effect.value
    return f"{out.affected} {out.effect.value}"


def charge_to_melee(
    *,
    dice: Dice,
    over_obstacle: bool = False,
    uphill: bool = False,
    counter_charge: bool = True,
    **setup: Any,
) -> str:
    """Rules - Charging and Rules - Melee, G to J: the charged test, rout or counter-charge,
    contact and the melee, as one sequence."""
    spec = ChargeSetup(**setup)
    t, chargers, facts = spec.units()
    in_building, in_fortification = spec.in_building, spec.in_fortification
    behind_obstacle = spec.behind_obstacle
    opts = _options(spec.variant)
    result = test_charged(t, chargers, facts, dice=dice, options=opts)
    if result in (ChargedResult.ROUTS, ChargedResult.ROUTS_SURRENDERS, ChargedResult.SURRENDERS):
        return f"target {result.value} at the test"
    counter = result is ChargedResult.COUNTER_CHARGE and counter_charge
    attackers = tuple(
        Fighter(
            c,
            charging=True,
            over_obstacle=over_obstacle,
            uphill=uphill,
            charging_building=in_building,
            charging_fortification=in_fortification,
        )
        for c in chargers
    )
    m = Melee(
        attackers,
        (
            Fighter(
                t, charging=counter, flank=facts.face is Face.FLANK, rear=facts.face is Face.REAR
            ),
        ),
        defender_behind_obstacle=behind_obstacle,
    )
    out = resolve_melee(m, dice=dice, options=opts)
    prefix = "counter-charge, " if counter else ""
    if not out.loser:
        return f"{prefix}melee: {out.effect.value}"
    text = f"{prefix}melee: {out.affected} {out.effect.value}"
    loser_rear = out.loser == "defenders" and facts.face is Face.REAR
    routed = out.effect.value.startswith("routs") and loser_rear
    if routed and test_surrender(t, dice=dice, why="charged in the rear and routed"):
        text += ", surrenders"
    return text


def surrender(*, dice: Dice, mounted: bool = False) -> str:
    """Rules - Charging: Surrender (4+ foot, 5+ mounted)."""
    unit = _unit("unit", "light_cavalry" if mounted else "line")
    return "surrenders" if test_surrender(unit, dice=dice) else "holds out"


def general_risk(*, dice: Dice, risk: str = "fire_loss") -> str:
    """Risk to Generals: fire losses, melee losses, melee rout."""
    g = WillGeneral("g", "general", "x")
    return str(generals.roll_risk(g, generals.Risk[risk.upper()], dice=dice))


def command_roll(
    *,
    dice: Dice,
    rating: int = 7,
    distance: int = 15,
    attached: bool = False,
    in_sight: bool = True,
    training: str = "poor",
    lost: int = 1,
    group: bool = False,
    post: str = "january2008",
    cinc_within_6: bool = False,
    cinc_bonus: bool = False,
) -> str:
    """Command & Control: one order (default: the poor general's militia example)."""
    g = WillGeneral("g", "general", "x", rating=rating)
    u = WillUnit(
        "u",
        "unit",
        "x",
        TroopType.MILITIA,
        strength=5 - lost,
        initial_strength=5,
        training=Training[training.upper()],
    )
    facts = command.OrderFacts(float(distance), attached, in_sight, group, cinc_within_6)
    opts = Options(command_post=CommandPost(post), cinc_bonus=cinc_bonus)
    return "ordered" if command.give_order(g, u, facts, dice=dice, options=opts) else "fails"


def independent_command(*, dice: Dice, training: str = "average", post: str = "march2008") -> str:
    """Command & Control: a unit not commanded tests alone."""
    u = WillUnit("u", "unit", "x", TroopType.LINE, training=Training[training.upper()])
    ok = command.test_independent(
        u, True, dice=dice, options=Options(command_post=CommandPost(post))
    )
    return "moves" if ok else "stays"


def gun_facing(*, dice: Dice, gun: str = "medium_gun") -> str:
    """FAQs (1) 3, optional: can a gun turn to face?"""
    return "turns" if test_gun_facing(_unit("gun", gun), dice=dice) else "cannot turn"


def demolition(*, dice: Dice, charges: int = 1, points: int = 6) -> str:
    """Demolition: (1 + charges) d6 against the work's defence points."""
    work = fortifications.Defence(fortifications.Work.TIMBER_FIELDWORK, points)
    return "destroyed" if fortifications.demolish(work, charges, dice=dice) else "stands"


def demolition_blast(*, dice: Dice, troop: str = "line", strength: int = 5) -> str:
    """Demolition: a unit within the blast takes 2d6 as if fired at."""
    r = fortifications.demolition_blast(_unit("unit", troop, strength=strength), dice=dice)
    return ("-1 SP" if r.hit else "no loss") + (", shaken" if r.shaken else "")


def bombard(*, dice: Dice, modifier: int = 0) -> str:
    """Defence Values: artillery firing ball removes a defence point on 7+."""
    work = fortifications.Defence.new(fortifications.Work.REDOUBT)
    after = fortifications.bombard(work, modifier, dice=dice)
    return "-1 defence point" if after.points < work.points else "no damage"


def highland_charge(*, dice: Dice, in_musket_range: bool = True) -> str:
    """Battles of the '45: the Highland charge test."""
    unit = _unit("clan", "highlanders", "jacobite")
    return "charges" if variants.test_highland_charge(unit, in_musket_range, dice=dice) else "holds"


def highland_charge_distance(*, dice: Dice, formation: str = "line") -> int:
    """Battles of the '45: close order move plus 1d6 inches."""
    unit = _unit("clan", "highlanders", "jacobite", formation=formation)
    return variants.highland_charge_move(unit, dice=dice)


def pre_battle(*, dice: Dice) -> str:
    """Battles of the '45: a British line unit's morale and firing rolls."""
    return str(variants.roll_pre_battle(dice=dice))


def continental_week(*, dice: Dice, points: int = 100, four_loses: bool = False) -> int:
    """Campaign: a Continental or loyalist unit's weekly attrition and recruitment."""
    return campaign.continental_week(points, dice=dice, four_loses=four_loses).points


def militia_week(*, dice: Dice, points: int = 100) -> str:
    """Campaign: a militia unit's week."""
    return str(campaign.militia_unit_week(points, dice=dice))


def militia_return(*, dice: Dice, absent: int = 2) -> str:
    """Campaign: do the absent militia units return?"""
    return "return" if campaign.militia_return(absent, dice=dice) else "stay away"


def european_replacements(*, dice: Dice) -> int:
    """Campaign: points each unit of a European nationality receives this week."""
    return campaign.european_replacements(dice=dice)


def forced_march(
    *, dice: Dice, extra_percent: int = 50, militia: bool = False, bad_weather: bool = False
) -> int:
    """Campaign: permanent points lost on a forced march."""
    return campaign.forced_march(extra_percent, militia, bad_weather, dice=dice)


# ------------------------------------------------------------------ the list
def _p(
    name: str, kind: type, default: object, help: str, choices: tuple[object, ...] = ()
) -> Parameter:
    return Parameter(name, kind, default, help, choices)


_TROOP = ("troop type", TROOPS)
_FORM = ("line", "column")
_FACE = ("front", "flank", "rear")
_VAR = ("variant: base, ireland1798, fortyfive", VARIANT_NAMES)


_UNIT_AND_GENERAL = (
    _p("troop", str, "line", *_TROOP),
    _p("general", str, "none", "general with the unit", ("none", "brigadier", "senior")),
)
_QUALITY = _p("quality", bool, False, "FAQ (3) idea: militia -1, European grenadiers +1")


MECHANISMS: tuple[Mechanism, ...] = (
    Mechanism(
        "fire",
        "one unit's fire: strength point lost and morale",
        rules.FIRING,
        fire,
        (
            _p("firer", str, "line", "firing troop type", TROOPS),
            _p("firer_nation", str, "american", "firing nationality", NATIONS),
            _p("firer_strength", int, 5, "firing unit's strength points"),
            _p("firer_formation", str, "line", "firing unit's formation", _FORM),
            _p("firer_shaken", bool, False, "firing unit is shaken"),
            _p("range", int, 6, "range in inches"),
            _p("cover", str, "open", "target cover", ("open", "soft", "hard", "solid")),
            _p("target", str, "line", "target troop type", TROOPS),
            _p("target_nation", str, "american", "target nationality", NATIONS),
            _p("target_strength", int, 5, "target strength points"),
            _p("target_militia", int, 1, "militia morale modifier 1 or 2", (1, 2)),
            _p("friends_in_arc", bool, False, "friendly units in the arc (no canister)"),
        ),
    ),
    Mechanism(
        "shaken-test",
        "testing a shaken unit",
        rules.MORALE_SHAKEN,
        shaken_test,
        (
            *_UNIT_AND_GENERAL,
            _p("in_open", bool, False, "in the open (optional militia rule)"),
            _p("militia_rout_in_open", bool, False, "optional: militia/Indians in the open rout"),
            _QUALITY,
        ),
    ),
    Mechanism(
        "routing-test",
        "testing a routing unit",
        rules.MORALE_ROUTING,
        routing_test,
        (
            *_UNIT_AND_GENERAL,
            _QUALITY,
        ),
    ),
    Mechanism(
        "charged-test",
        "testing a charged unit (FAQ example by default)",
        rules.CHARGED_TEST,
        charged_test,
        (
            *FAQ_CHARGE.parameters(),
            _p("cavalry_close_order", bool, True, "cavalry count as close order (FAQ)"),
        ),
    ),
    Mechanism(
        "melee",
        "one attacker against one defender",
        rules.MELEE,
        melee,
        (
            _p("attacker", str, "line", "attacking troop type", TROOPS),
            _p("attacker_nation", str, "british", "attacking nationality", NATIONS),
            _p("attacker_formation", str, "line", "attacker's formation", _FORM),
            _p("attacker_charging", bool, True, "attacker is charging"),
            _p("defender", str, "line", "defending troop type", TROOPS),
            _p("defender_nation", str, "american", "defending nationality", NATIONS),
            _p("defender_formation", str, "line", "defender's formation", _FORM),
            _p("defender_counter", bool, False, "defender counter-charged"),
            _p("face", str, "front", "face attacked", _FACE),
            _p("over_obstacle", bool, False, "attacker charges over an obstacle"),
            _p("uphill", bool, False, "attacker charges uphill"),
            _p("charging_building", bool, False, "attacker charges a building"),
            _p("charging_fortification", bool, False, "attacker charges a fortification"),
            _p("behind_obstacle", bool, False, "defender immediately behind an obstacle"),
            _p("variant", str, "base", *_VAR),
            _p("highland_charge", bool, False, "highland attacker in a Highland charge"),
        ),
    ),
    Mechanism(
        "charge-to-melee",
        "a charge from the charged test through the melee (G-J)",
        rules.CHARGING,
        charge_to_melee,
        (
            *ChargeSetup().parameters(),
            _p("over_obstacle", bool, False, "chargers cross an obstacle"),
            _p("uphill", bool, False, "chargers charge uphill"),
            _p("counter_charge", bool, True, "a unit that may counter-charge does"),
        ),
    ),
    Mechanism(
        "surrender",
        "a surrender test",
        rules.SURRENDER,
        surrender,
        (_p("mounted", bool, False, "mounted unit (5+)"),),
    ),
    Mechanism(
        "general-risk",
        "risk to a general with a unit",
        rules.MELEE_GENERALS,
        general_risk,
        (_p("risk", str, "fire_loss", "which table", ("fire_loss", "melee_loss", "melee_rout")),),
    ),
    Mechanism(
        "command-roll",
        "one order (default: the poor general's militia example)",
        rules.COMMAND_JANUARY,
        command_roll,
        (
            _p("rating", int, 7, "commander's rating"),
            _p("distance", int, 15, "inches from the commander"),
            _p("attached", bool, False, "commander with the unit"),
            _p("in_sight", bool, True, "unit in sight of the commander"),
            _p("training", str, "poor", "training", ("well", "average", "poor")),
            _p("lost", int, 1, "strength points lost (January post)"),
            _p("group", bool, False, "group move"),
            _p("post", str, "january2008", "which post", ("march2008", "january2008")),
            _p("cinc_within_6", bool, False, 'C in C within 6" of the commander'),
            _p("cinc_bonus", bool, False, "use the optional C in C bonus"),
        ),
    ),
    Mechanism(
        "independent-command",
        "a unit not commanded tests alone",
        rules.COMMAND_MARCH,
        independent_command,
        (
            _p("training", str, "average", "training", ("well", "average", "poor")),
            _p("post", str, "march2008", "which post", ("march2008", "january2008")),
        ),
    ),
    Mechanism(
        "gun-facing",
        "optional d6 for a gun to turn to face",
        rules.FAQ1,
        gun_facing,
        (
            _p(
                "gun",
                str,
                "medium_gun",
                "gun type",
                (
                    "light_gun",
                    "medium_gun",
                    "heavy_gun",
                    "galloper_gun",
                    "grasshopper_gun",
                    "howitzer",
                ),
            ),
        ),
    ),
    Mechanism(
        "demolition",
        "demolition charges against a work",
        rules.DEMOLITION,
        demolition,
        (
            _p("charges", int, 1, "charges laid (1-6)"),
            _p("points", int, 6, "the work's defence points"),
        ),
    ),
    Mechanism(
        "demolition-blast",
        "a unit within a demolition's blast: 2d6 as if fired at",
        rules.DEMOLITION,
        demolition_blast,
        (
            _p("troop", str, "line", *_TROOP),
            _p("strength", int, 5, "the unit's strength points"),
        ),
    ),
    Mechanism(
        "bombard",
        "guns firing ball at a work",
        rules.FORT_VALUES,
        bombard,
        (_p("modifier", int, 0, "firing factors other than cover"),),
    ),
    Mechanism(
        "highland-charge",
        "the '45 Highland charge test",
        rules.FORTY_FIVE,
        highland_charge,
        (_p("in_musket_range", bool, True, "within musket range"),),
    ),
    Mechanism(
        "highland-charge-distance",
        "the '45 Highland charge move",
        rules.FORTY_FIVE,
        highland_charge_distance,
        (_p("formation", str, "line", "formation", _FORM),),
    ),
    Mechanism("pre-battle", "the '45 British line pre-battle rolls", rules.FORTY_FIVE, pre_battle),
    Mechanism(
        "continental-week",
        "Continental or loyalist weekly attrition and recruitment",
        rules.CAMPAIGN_CONTINENTAL,
        continental_week,
        (
            _p("points", int, 100, "campaign points"),
            _p("four_loses", bool, False, "a 4 loses 5 points (the text omits 4)"),
        ),
    ),
    Mechanism(
        "militia-week",
        "a militia unit's week",
        rules.CAMPAIGN_MILITIA,
        militia_week,
        (_p("points", int, 100, "campaign points"),),
    ),
    Mechanism(
        "militia-return",
        "absent militia returning",
        rules.CAMPAIGN_MILITIA,
        militia_return,
        (_p("absent", int, 2, "absent militia units"),),
    ),
    Mechanism(
        "european-replacements",
        "replacements by sea for one nationality",
        rules.CAMPAIGN_EUROPEAN,
        european_replacements,
    ),
    Mechanism(
        "forced-march",
        "permanent losses on a forced march",
        rules.CAMPAIGN_FORCED,
        forced_march,
        (
            _p("extra_percent", int, 50, "percent beyond a normal day's march (0-100)"),
            _p("militia", bool, False, "militia +1"),
            _p("bad_weather", bool, False, "adverse weather +1"),
        ),
    ),
)
