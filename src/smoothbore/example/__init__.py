"""smoothbore's worked example rule book: a skirmish of line battalions on a table.

Small enough to read in one sitting, complete enough to pass ``smoothbore.testing.
check_ruleset``; ``docs/writing-a-ruleset.md`` walks through it. Written on engine contract
v2: checks return their rulings (the facts measured on the table) and handlers take them;
the guard on who acts is declared once on the engine; phases declare when they end and what
follows; a staged rule (the charge) gives the exact odds of a step.

The rules (each section named in every roll and event):

- Example 1 (sequence): the sides take turns; in its turn a side fires, then charges.
- Example 2 (fire): each battalion of the side acting may fire once at an enemy battalion
  whose nearest point is within 12" on the table: a d6 of 4 or more hits within 6", of 5
  or more beyond; each hit takes a strength point. A battalion at 0 is destroyed and leaves
  the table.
- Example 3 (charge): one battalion of the side acting may charge an enemy within 6"; the
  defender fires a closing volley (a 5 or 6 stops the charge, the charger losing a point);
  otherwise each rolls a d6 plus its strength, the charger 1 more for its impetus; the
  higher wins and the loser loses a point (equal: both do).
- Example 4 (victory): the battle ends when a side has no battalion left, or after turn 8;
  the side that took more strength points wins.

Not in the default registry (``smoothbore rulesets`` lists rule books only): found by name,
``get_ruleset("example")``, as ``smoothbore.example:RULESET`` from the command line, and in
the conformance suite.
"""

from smoothbore.example.rules import (
    RULESET,
    TURN,
    Battalion,
    Charge,
    ChargeEnd,
    EndPhase,
    Fire,
    charge,
    charge_odds,
    new_battle,
)

__all__ = [
    "RULESET",
    "TURN",
    "Battalion",
    "Charge",
    "ChargeEnd",
    "EndPhase",
    "Fire",
    "charge",
    "charge_odds",
    "new_battle",
]
