"""smoothbore.core: what every ruleset shares.

Dice and checks with exact distributions, the ``Dice`` through which rules roll (sampling for
play, enumerating for ``odds``), modifiers that explain themselves, events, the protocols of
units, commanders and turns, the generic battle state, rulesets as data and their registry,
and the library's errors.
"""

from smoothbore.core.catalogue import DICE_MECHANISMS
from smoothbore.core.chance import (
    DEFAULT_MAX_BRANCHES,
    DEFAULT_MAX_DEPTH,
    Dice,
    Estimate,
    RollRecord,
    SamplingDice,
    make_rng,
    monte_carlo,
    odds,
)
from smoothbore.core.checks import (
    Band,
    Check,
    DrawCheck,
    FacesCheck,
    OpposedCheck,
    PoolCheck,
    TableCheck,
    ThresholdCheck,
    TotalCheck,
)
from smoothbore.core.dice import AVERAGE_DIE, D3, D6, D10, D12, Die, die, parse_dice
from smoothbore.core.distribution import Distribution
from smoothbore.core.engine import (
    ActionRule,
    Engine,
    Log,
    Outcome,
    begin_turn,
    enter_phase,
    phase_scoped,
    turn_scoped,
)
from smoothbore.core.enums import NamedEnum
from smoothbore.core.errors import (
    EnumerationLimitError,
    IllegalActionError,
    InvalidValueError,
    LoadError,
    ReplayMismatchError,
    SmoothboreError,
    UnknownRulesetError,
)
from smoothbore.core.events import Event, narrate
from smoothbore.core.modifiers import Modified, Modifier
from smoothbore.core.protocols import Commander, Phase, Turn, Unit
from smoothbore.core.registry import ENTRY_POINT_GROUP, Registry
from smoothbore.core.ruleset import Help, Mechanism, Parameter, Ruleset, spell
from smoothbore.core.stages import (
    DEFAULT_MAX_STEP_BRANCHES,
    Again,
    Done,
    Staged,
    StagedCheck,
    odds_of_step,
)
from smoothbore.core.state import BattleState, DiceState, Scenario
from smoothbore.core.validate import (
    at_least,
    check_choice,
    check_number,
    check_range,
    check_text,
    each,
    finite,
    in_range,
    maybe,
    one_of,
    refers_to,
    text,
)

__all__ = [
    "AVERAGE_DIE",
    "D3",
    "D6",
    "D10",
    "D12",
    "DEFAULT_MAX_BRANCHES",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_STEP_BRANCHES",
    "DICE_MECHANISMS",
    "ENTRY_POINT_GROUP",
    "ActionRule",
    "Again",
    "Band",
    "BattleState",
    "Check",
    "Commander",
    "Dice",
    "DiceState",
    "Die",
    "Distribution",
    "Done",
    "DrawCheck",
    "Engine",
    "EnumerationLimitError",
    "Estimate",
    "Event",
    "FacesCheck",
    "Help",
    "IllegalActionError",
    "InvalidValueError",
    "LoadError",
    "Log",
    "Mechanism",
    "Modified",
    "Modifier",
    "NamedEnum",
    "OpposedCheck",
    "Outcome",
    "Parameter",
    "Phase",
    "PoolCheck",
    "Registry",
    "ReplayMismatchError",
    "RollRecord",
    "Ruleset",
    "SamplingDice",
    "Scenario",
    "SmoothboreError",
    "Staged",
    "StagedCheck",
    "TableCheck",
    "ThresholdCheck",
    "TotalCheck",
    "Turn",
    "Unit",
    "UnknownRulesetError",
    "at_least",
    "begin_turn",
    "check_choice",
    "check_number",
    "check_range",
    "check_text",
    "die",
    "each",
    "enter_phase",
    "finite",
    "in_range",
    "make_rng",
    "maybe",
    "monte_carlo",
    "narrate",
    "odds",
    "odds_of_step",
    "one_of",
    "parse_dice",
    "phase_scoped",
    "refers_to",
    "spell",
    "text",
    "turn_scoped",
]
