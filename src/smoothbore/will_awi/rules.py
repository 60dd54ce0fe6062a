"""Rule citations: every Modifier, RollRecord and Event names the text and section it comes from."""

from __future__ import annotations

TEXT_2008 = "will-awi-2008.txt"
TEXT_2007 = "will-awi-2007.txt"


def cite(section: str, text: str = TEXT_2008) -> str:
    """A rule reference such as "Will's AWI (will-awi-2008.txt), Rules - Firing: Firing factors"."""
    return f"Will's AWI ({text}), {section}"


INTRO_STRENGTH = cite("Rules - Introduction: Strength Points")
INTRO_UNITS = cite("Rules - Introduction: Units and bases")
INTRO_GENERALS = cite("Rules - Introduction: Generals")
INTRO_FORMATIONS = cite("Rules - Introduction: Formations")
SEQUENCE = cite("Rules - Move Sequence")
SEQUENCE_NOTE_A = cite("Rules - Move Sequence: Notes (a)")
MORALE_BASIC = cite("Rules - Morale")
MORALE_SHAKEN = cite("Rules - Morale: Testing shaken units")
MORALE_ROUTING = cite("Rules - Morale: Testing routing units")
MOVEMENT = cite("Rules - Movement")
MOVEMENT_WHEELED = cite("Rules - Movement: Wheeled Equipment")
MOVEMENT_TERRAIN = cite("Rules - Movement: Effects of terrain")
FACING = cite("Rules - Movement: Changing Facing")
ROAD_BONUS = cite("Rules - Movement: Road Bonus (optional)")
SECOND_CHARGE = cite("Rules - Movement: Second Cavalry Charges")
FIRING = cite("Rules - Firing")
FIRING_RANGES = cite("Rules - Firing: Ranges")
FIRING_FACTORS = cite("Rules - Firing: Firing factors")
FIRING_NOTES = cite("Rules - Firing: Notes")
FIRE_MORALE = cite("Rules - Firing: Morale effect of fire")
FIRE_GENERALS = cite("Rules - Firing: Risk to Generals")
CHARGING = cite("Rules - Charging")
CHARGED_TEST = cite("Rules - Charging: Testing charged units")
ROUT = cite("Rules - Charging: Rout")
SURRENDER = cite("Rules - Charging: Surrender")
MELEE = cite("Rules - Melee")
MELEE_GENERALS = cite("Rules - Melee: Risk to Generals")
TERRAIN = cite("Rules - Terrain")
WOODS = cite("Rules - Terrain: Woods and Forests")
BUILDINGS = cite("Rules - Terrain: Buildings")
FORT_VALUES = cite("Rules - Fortifications and Fieldworks: Defence Values")
FIELD_ENGINEERING = cite("Rules - Fortifications and Fieldworks: Field Engineering")
DEMOLITION = cite("Rules - Fortifications and Fieldworks: Demolition")
COMMAND_MARCH = cite("Command & Control - Ideas (2), 23 March 2008")
COMMAND_JANUARY = cite("Command and Control - ideas (1), 26 January 2008")
IRELAND = cite("Ireland 1798", TEXT_2007)
FORTY_FIVE = cite("Battles of the 45", TEXT_2007)
FAQ1 = cite("FAQs (1)", TEXT_2007)
FAQ2 = cite("FAQs (2)", TEXT_2007)
FAQ3 = cite("FAQs (3)", TEXT_2007)
FAQ4 = cite("FAQs (4)", TEXT_2007)
FAQ5 = cite("FAQs (5)", TEXT_2007)
VICTORY = "Will's AWI (docs/interpretations/will_awi.md), W47: default victory conditions"
"""The texts define no victory: the library's documented default, which a scenario may replace."""
CAMPAIGN = cite("AWI Campaign Rules (Draft)", TEXT_2007)
CAMPAIGN_CASUALTIES = cite("AWI Campaign Rules (Draft): Battle casualties", TEXT_2007)
CAMPAIGN_CONTINENTAL = cite(
    "AWI Campaign Rules (Draft): American Continental Line and Loyalist attrition and recruitment",
    TEXT_2007,
)
CAMPAIGN_MILITIA = cite(
    "AWI Campaign Rules (Draft): American Militia attrition and recruitment", TEXT_2007
)
CAMPAIGN_EUROPEAN = cite("AWI Campaign Rules (Draft): European Replacements", TEXT_2007)
CAMPAIGN_OVERSTRENGTH = cite("AWI Campaign Rules (Draft): Overstrength units", TEXT_2007)
CAMPAIGN_POOL = cite("AWI Campaign Rules (Draft): Replacement Pool", TEXT_2007)
CAMPAIGN_FORCED = cite("AWI Campaign Rules (Draft): Forced Marches", TEXT_2007)
