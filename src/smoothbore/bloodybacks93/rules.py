"""Every citation of Bloodybacks 9.3 the package makes: the text's sections as the rules,
events, modifiers and errors name them (text: bloodybacks-9.3.txt), and the entries of
docs/interpretations/bloodybacks93.md where the text is silent."""

from __future__ import annotations

TEXT = "Bloodybacks 9.3"
INTERPRETATIONS = "docs/interpretations/bloodybacks93.md"

# Concepts and definitions
RULE_QUALITY = f"{TEXT}, Concepts and definitions: Quality"
RULE_DENSITY = f"{TEXT}, Concepts and definitions: Density"
RULE_SIZE = f"{TEXT}, Concepts and definitions: Unit size"
RULE_DRP = f"{TEXT}, Concepts and definitions: Disruption points"
RULE_STAMINA = f"{TEXT}, Concepts and definitions: Unit stamina"
RULE_ACTIVITY_RATING = f"{TEXT}, Concepts and definitions: Activity Rating"
RULE_DECK = f"{TEXT}, Concepts and definitions: Activation deck"

# Sequence of play, commanders and activation
RULE_SEQUENCE = f"{TEXT}, Sequence of Play"
RULE_ACTIVITY = f"{TEXT}, Determine commander activation level"
RULE_ACTIVATING = f"{TEXT}, Activating Commanders"
RULE_RADIUS = f"{TEXT}, Command Radius"
RULE_ACTIVATION = f"{TEXT}, Activating Units"
RULE_TARIFF = f"{TEXT}, Activating Units: Action tariff"
RULE_CP_TARIFF = f"{TEXT}, Activating Units: Command point tariff"

# Morale and rally
RULE_MORALE = f"{TEXT}, Morale"
RULE_MORALE_TESTS = f"{RULE_MORALE}: MORALE TESTS"
RULE_COHESION_TESTS = f"{RULE_MORALE}: COHESION TESTS"
RULE_MORALE_MODIFIERS = f"{TEXT}, Morale: Modifiers to the to succeed number"
RULE_ROLL = f"{RULE_MORALE}: roll three d12"
RULE_RESULTS = f"{TEXT}, Morale: results table"
RULE_ROUTING = f"{TEXT}, Morale: routing units re-test"
RULE_MOVES = f"{TEXT}, Morale: Push Back move and Rout move"
RULE_RALLY = f"{TEXT}, Rally"

# Movement
RULE_MOVEMENT = f"{TEXT}, Movement"
RULE_RETROGRADE = f"{TEXT}, Movement: Retrograde movement"
RULE_INTERPENETRATION = f"{TEXT}, Movement: Interpenetration"
RULE_PASSAGE = f"{TEXT}, Movement: Passage of lines"

# Shooting
RULE_SHOOTING = f"{TEXT}, Shooting"
RULE_MUSKETRY = f"{TEXT}, Shooting: Musketry"
RULE_ARTILLERY = f"{TEXT}, Shooting: Artillery"
RULE_SHOOTING_MODIFIERS = f"{TEXT}, Shooting: Modifiers"
RULE_HITS = f"{TEXT}, Shooting: hits"
RULE_SPLIT = f"{TEXT}, Shooting: split fire"
RULE_VISIBILITY = f"{TEXT}, Visibility"

# Charges and melee
RULE_CHARGES = f"{TEXT}, Charges and melee"
RULE_MULTIPLE = f"{TEXT}, Charges and melee: Multiple unit melee"
RULE_EVADE = f"{TEXT}, Charges and melee: Evade"
RULE_IMPETUS = f"{TEXT}, Charges and melee: Determine impetus"
RULE_COLD_STEEL = f"{TEXT}, Charges and melee: Determine impetus (cold steel ability)"
RULE_STAND = f"{TEXT}, Charges and melee: Check to stand"
RULE_MELEE = f"{TEXT}, Charges and melee: Resolve melee"
RULE_EXPERIMENT = f"{TEXT}, Charges and melee: Resolve melee (experiment)"
RULE_AFTER = f"{TEXT}, Charges and melee: Resolve melee (cohesion tests)"
RULE_PURSUIT = f"{TEXT}, Charges and melee: Pursuit"

# Risk to commanders
RULE_RISK = f"{TEXT}, Risk to commanders"
RULE_FATE = f"{TEXT}, Risk to commanders: end of battle"

# Where the text is silent (the library's documented decisions)
RULE_VICTORY = (
    f"{TEXT} sets no victory conditions: the default ones of {INTERPRETATIONS}, B48"
)
RULE_CHARGING_ROUTERS = f"{RULE_CHARGES} (charging a routing unit: {INTERPRETATIONS}, B49)"
RULE_DEFERRED = f"{RULE_SEQUENCE} (deferred melees: {INTERPRETATIONS}, B32)"
