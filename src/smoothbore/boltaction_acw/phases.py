"""The phases of a Bolt Action ACW turn, as data (The Turn)."""

from __future__ import annotations

from smoothbore.core import Phase

from .rules import RULE_BAG, RULE_ONE_ORDER, RULE_REACTIONS, RULE_TURN, RULE_VICTORY

MELEE = "melee"
DRAW = "draw"
CHOOSE = "choose"
ORDERS = "orders"
REACTION = "reaction"
ENDED = "ended"

PHASES: tuple[Phase, ...] = (
    Phase(MELEE, RULE_TURN,
          "melees that continue from the last turn are fought before the first die is drawn"),
    Phase(DRAW, RULE_BAG,
          "draw an order die from the bag; once it is empty the turn ends"),
    Phase(CHOOSE, RULE_BAG,
          "the side of the drawn die's colour picks one of its brigades or independent units"),
    Phase(ORDERS, RULE_ONE_ORDER,
          "the army test, routing units test, then each unit of the brigade takes one order"),
    Phase(REACTION, RULE_REACTIONS,
          "the charged unit reacts in its opponent's turn: fire, hold, counter charge, evade"),
    Phase(ENDED, RULE_VICTORY, "the battle is over"),
)
