"""The phases of a move, A to K (Rules - Move Sequence), as data.

Alternate movement: one side moves (A-C, F-K) while the other fires (D-E) and reacts to the
charges (H). A turn is both sides' moves, the first side's then the other's (W47)."""

from __future__ import annotations

from smoothbore.core import Phase

from . import rules

A, B, C, D, E, F, G, H, I, J, K = "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"  # noqa: E741

ORDER = (A, B, C, D, E, F, G, H, I, J, K)
"""The phase names in their order."""

PHASES: tuple[Phase, ...] = (
    Phase(A, rules.SEQUENCE, "test the morale of the moving player's shaken and routing units",
          "morale"),
    Phase(B, rules.SEQUENCE, "move every unit that must rout or retire",
          "compulsory moves"),
    Phase(C, rules.SEQUENCE, 'move all other units, not within 1" of an enemy',
          "movement"),
    Phase(D, rules.SEQUENCE, "the firing player may change facing (not within charge reach)",
          "facing"),
    Phase(E, rules.SEQUENCE, "the firing player fires, with the morale effect of fire",
          "firing"),
    Phase(F, rules.SEQUENCE, "the moving player's unshaken units declare charges",
          "charges declared"),
    Phase(G, rules.SEQUENCE, "test the morale of each charged unit",
          "charged units test"),
    Phase(H, rules.SEQUENCE, "counter-charge, evade or rout the charged units",
          "charge responses"),
    Phase(I, rules.SEQUENCE, "move chargers into contact, or to the routed unit's place",
          "contact"),
    Phase(J, rules.SEQUENCE, "resolve melees and rout or fall back the losers",
          "melee"),
    Phase(K, rules.SEQUENCE, "cavalry that charged successfully may charge a second time",
          "second charges"),
)

MOVING_PHASES = frozenset((A, B, C, F, G, I, J, K))
"""The phases whose decisions are the moving player's (G: he chooses the order of the
tests; I and J: contact and melees)."""

FIRING_PHASES = frozenset((D, E, H))
"""The phases whose decisions are the firing player's: facing, fire, and the charged units'
reactions (counter-charge, evade, a second charge's target firing)."""
