"""McKie ACW: Edward W. McKie's American Civil War rules (brigade units, a d10 and an
average die, effort points, the casualty table), with the tables missing from the text
rebuilt as replaceable data (``tables.with_table``).

Text: mckie-acw.txt."""

from __future__ import annotations

from smoothbore.core import Ruleset

from .actions import Action
from .mechanisms import MECHANISMS
from .options import DEFAULT_OPTIONS, Options, PlusOrMinus
from .phases import PHASES
from .scenarios import SCENARIOS, example_battle
from .state import Extra, State, new_battle
from .tables import DEFAULT_TABLES, TABLE_FILES, Tables, load_tables, with_table
from .turn import TURN
from .units import Arm, Commander, Formation, Ground, OrderKind, Quality, Rank, Status, Unit, Weapon

RULESET = Ruleset(
    name="mckie_acw",
    title="Edward W. McKie's ACW rules",
    period="American Civil War (corps and armies, brigade units)",
    edition="as published in the Zouave; missing tables reconstructed as data",
    aliases=("mckie-acw", "mckie"),
    dice=("d10", "dAv", "d100 (the d10 twice)"),
    phases=PHASES,
    mechanisms=MECHANISMS,
    turn=TURN,
    example=example_battle,
    scenarios=SCENARIOS,
    source="mckie-acw.txt",
    colours={"Union": "#2b4c9b", "Confederate": "#8a8d91"},
)

__all__ = [
    "DEFAULT_OPTIONS",
    "DEFAULT_TABLES",
    "RULESET",
    "TABLE_FILES",
    "TURN",
    "Action",
    "Arm",
    "Commander",
    "Extra",
    "Formation",
    "Ground",
    "Options",
    "OrderKind",
    "PlusOrMinus",
    "Quality",
    "Rank",
    "State",
    "Status",
    "Tables",
    "Unit",
    "Weapon",
    "example_battle",
    "load_tables",
    "new_battle",
    "with_table",
]
