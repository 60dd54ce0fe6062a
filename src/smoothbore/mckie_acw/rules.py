"""Rule citations: every Modifier, RollRecord and Event names the section of the text
(mckie-acw.txt) it comes from; reconstructions name their table too."""

from __future__ import annotations

TEXT = "mckie-acw.txt"


def cite(section: str) -> str:
    """A rule reference such as "McKie ACW (mckie-acw.txt), Morale: Tactical factors"."""
    return f"McKie ACW ({TEXT}), {section}"


EQUIPMENT = cite("Equipment")
SCALES = cite("Scales")
BASE_SIZES = cite("Base sizes (reconstructed table, data/bases.toml)")
CATEGORIES = cite("Troop categories")
FORMATION = cite("Formation and strength of units")
ARTILLERY_CREW = cite("Formation and strength of units: artillery crews")
VISIBILITY = cite("Visibility")
AMMUNITION = cite("Ammunition")
ORDERS = cite("Deployment and general orders")
BATTLE_PERIOD = cite("Battle period")
NEW_PERIOD = cite("Generalship: New battle period")
EFFORT = cite("Effort points")
MORALE_WHEN = cite("Morale: when to test")
MORALE_PROCEDURE = cite("Morale: Test procedure")
MORALE_FACTORS = cite("Morale: Tactical factors")
MORALE_TABLE = cite("Morale: results table (reconstructed, data/morale.toml)")
PRISONERS = cite("Prisoners")
MOVEMENT = cite("Movement (rates reconstructed, data/movement.toml)")
MANOEUVRES = cite("Movement: Maneuvers, etc.")
DENSE_WOODS = cite("Movement: dense woods")
DIGGING = cite("Movement: digging trenches")
WEAPONS = cite("Small arms and artillery fire: weapons (factors reconstructed, data/weapons.toml)")
FIRING_RESTRICTIONS = cite("Small arms and artillery fire: Restrictions on firing")
TARGET_PRIORITIES = cite("Small arms and artillery fire: Target priorities")
FIRING_PROCEDURE = cite("Small arms and artillery fire: Firing procedure")
FIRING_FACTORS = cite("Small arms and artillery fire: Tactical factors")
CASUALTY_TABLE = cite("Explanation of casualty table (table reconstructed, data/casualties.csv)")
COUNTER_BATTERY = cite(
    "Small arms and artillery fire: Counter battery fire (table reconstructed, "
    "data/counter_battery.toml)"
)
MELEE = cite("Melee")
MELEE_FACTORS = cite("Melee: procedure 2-3 (factors reconstructed, data/melee.toml)")
MELEE_RESULTS = cite("Melee: Results of melees")
MELEE_EXHAUSTED = cite("Melee: Results of melees, exhausted units")
RISK_TO_GENERALS = cite("Risk to generals")
BATTLE_LOSSES = cite("Battle losses")
SNIPERS = cite("Optional rules: Sharpshooters, snipers, etc.")
GUNBOATS = cite("Optional rules: Gunboats, etc.")
GENERALSHIP = cite("Generalship")
INITIATIVE = cite("Generalship: Initiative")
ACTIVATION = cite("Generalship: Activation")
RATINGS = cite("Generalship: Generals' initiative and activation ratings (data/generals.toml)")
VICTORY = "McKie ACW (docs/interpretations/mckie_acw.md), M1: default end of the battle"
"""The text defines no victory: the library's documented default, which a scenario may replace."""
