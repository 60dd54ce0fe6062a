"""Will's AWI rules (American War of Independence and French & Indian War), with the Ireland
1798 and Battles of the '45 variants, command and control, and the draft campaign rules.

Texts: will-awi-2008.txt (the fuller copy) and will-awi-2007.txt (FAQs, variants, campaign)."""

from __future__ import annotations

from smoothbore.core import Ruleset

from .actions import Action
from .mechanisms import MECHANISMS
from .options import DEFAULT_OPTIONS, FORTY_FIVE, IRELAND_1798, Options
from .phases import PHASES
from .scenarios import SCENARIOS, example_battle
from .state import Extra, State, new_battle
from .turn import TURN
from .units import (
    Commander,
    Formation,
    Nationality,
    Rank,
    Status,
    Training,
    TroopType,
    Unit,
)

RULESET = Ruleset(
    name="will_awi",
    title="Will's AWI rules",
    period="American War of Independence, French and Indian War (variants: Ireland 1798, the '45)",
    edition="blog posts of 2007 and 2008, with FAQs, command & control ideas and draft campaign",
    aliases=("will-awi", "willawi", "will"),
    dice=("d6", "2d6"),
    phases=PHASES,
    mechanisms=MECHANISMS,
    turn=TURN,
    example=example_battle,
    scenarios=SCENARIOS,
    source="will-awi-2008.txt, will-awi-2007.txt",
    colours={"British": "#c0282d", "American": "#2f5aa8", "Government": "#c0282d",
             "Jacobite": "#34508f", "Crown": "#c0282d", "United Irish": "#2e8540"},
)

__all__ = [
    "DEFAULT_OPTIONS",
    "FORTY_FIVE",
    "IRELAND_1798",
    "RULESET",
    "TURN",
    "Action",
    "Commander",
    "Extra",
    "Formation",
    "Nationality",
    "Options",
    "Rank",
    "State",
    "Status",
    "Training",
    "TroopType",
    "Unit",
    "example_battle",
    "new_battle",
]
