"""Every citation of Bolt Action ACW the package makes: the sections of the text
(boltaction-acw.txt) as rules, events, modifiers and errors name them, and the entries of
docs/interpretations/boltaction_acw.md where the text is silent."""

from __future__ import annotations

TEXT = "Bolt Action ACW"
INTERPRETATIONS = "docs/interpretations/boltaction_acw.md"

# The turn
RULE_TURN = f"{TEXT}, The Turn"
RULE_BAG = f"{TEXT}, The Turn (1: draw an order dice)"
RULE_ROUT_TESTS = f"{TEXT}, The Turn (2: test for all routing units in the brigade)"
RULE_ONE_ORDER = f"{TEXT}, The Turn (3: units can only be given 1 order)"
RULE_REACTIONS = f"{TEXT}, The Turn (4: opposing forces act during an opponent's turn)"
RULE_NEXT_DIE = f"{TEXT}, The Turn (5: draw a new dice until all units have moved)"

# Orders
RULE_ORDERS = f"{TEXT}, Orders"
RULE_FIRE = f"{TEXT}, Orders (1: fire without moving)"
RULE_ADVANCE = f"{TEXT}, Orders (2: fire and advance)"
RULE_RUN = f"{TEXT}, Orders (3: run / charge)"
RULE_FORMATION = f"{TEXT}, Orders (4: change formation)"
RULE_RALLY = f"{TEXT}, Orders (5: rally)"
RULE_DOWN = f"{TEXT}, Orders (6: down)"
RULE_ORDER_TESTS = f"{TEXT}, Order tests"
RULE_MORALE_RATINGS = f"{TEXT}, Morale ratings"
RULE_MORALE_MODIFIERS = f"{TEXT}, Morale modifiers"

# Units and movement
RULE_UNIT_SIZES = f"{TEXT}, Unit Sizes"
RULE_MOVEMENT = f"{TEXT}, Movement"
RULE_TERRAIN = f"{TEXT}, Terrain Movement Modifiers"
RULE_INTERPENETRATION = f"{TEXT}, Interpolation of units"

# Shooting
RULE_SHOOTING = f"{TEXT}, Shooting"
RULE_RANGES = f"{TEXT}, Ranges"
RULE_TO_HIT = f"{TEXT}, Ranges (to hit modifiers)"
RULE_PINS = f"{TEXT}, Ranges (a hit gives a pin)"
RULE_ENFILADE = f"{TEXT}, Enfilading Fire"
RULE_TO_WOUND = f"{TEXT}, Enfilading Fire (to wound)"
RULE_EXCEPTIONAL = f"{TEXT}, Enfilading Fire (exceptional damage)"
RULE_CASUALTIES = f"{TEXT}, Enfilading Fire (removing bases)"
RULE_CANNON = f"{TEXT}, Ranges (12lb cannon damage)"

# Morale
RULE_MORALE = f"{TEXT}, Morale Test"
RULE_ROUT = f"{TEXT}, Morale Test (routing)"
RULE_RALLY_ROUT = f"{TEXT}, Morale Test (routing units at the start of the next turn)"

# Melee
RULE_MELEE = f"{TEXT}, Melee"
RULE_CHARGE = f"{TEXT}, Melee (charging)"
RULE_CHARGED = f"{TEXT}, Melee (the charged unit's order test and point blank fire)"
RULE_RETREAT = f"{TEXT}, Melee (a charged unit failing its order test retreats)"
RULE_COUNTER = f"{TEXT}, Melee (cavalry counter charge)"
RULE_COMBAT = f"{TEXT}, Melee (combat)"
RULE_MELEE_RESULT = f"{TEXT}, Melee (the winner and morale tests)"
RULE_COLUMN_MELEE = f"{TEXT}, Melee (units in column attack with 1 base)"
RULE_CAVALRY = f"{TEXT}, Melee (cavalry)"
RULE_SKIRMISHERS = f"{TEXT}, Melee (skirmishers)"

# Brigade and army strength
RULE_STRENGTH = f"{TEXT}, Brigade and army strength"
RULE_INEFFECTIVE = f"{TEXT}, Brigade and army strength (combat ineffective brigades)"
RULE_ARMY = f"{TEXT}, Brigade and army strength (an army that has lost half its brigades)"

# Where the text is silent (the library's documented decisions)
RULE_VICTORY = f"{TEXT} sets no victory conditions: the defaults of {INTERPRETATIONS}, A20"
RULE_OBJECTIVE = (f"{TEXT} sets no victory conditions: the scenario's objective "
                  f"({INTERPRETATIONS}, A21)")
RULE_LAST_TURN = f"{TEXT} sets no turn limit: a battle's last turn ({INTERPRETATIONS}, A37)"
RULE_COMMANDERS = f"{RULE_MORALE_MODIFIERS} (commanders in range: {INTERPRETATIONS}, A14)"

# Playing on a table (docs/interpretations/boltaction_acw.md, A22 to A30)
RULE_TABLE = f"{TEXT} on a table: the table measures this ({INTERPRETATIONS}, A23)"
RULE_SIGHT = f"{RULE_SHOOTING} (a line of sight: {INTERPRETATIONS}, A24)"
RULE_MOVE_CLEAR = f"{RULE_MOVEMENT} (a move ends clear of units: {INTERPRETATIONS}, A26)"
RULE_RIVERS = f"{TEXT}, Terrain Movement Modifiers (major rivers only at crossing points)"
