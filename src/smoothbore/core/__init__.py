"""smoothbore.core: what every ruleset shares.

Dice and checks with exact distributions, the ``Dice`` through which rules roll (sampling for
play, enumerating for ``odds``), modifiers that explain themselves, events, the protocols of
units, commanders and turns, the generic battle state, rulesets as data and their registry,
and the library's errors.

Every name below loads its module on first use (PEP 562): ``import smoothbore.core``
costs almost nothing, and a name costs only its own module and what that imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
        Deferred,
        Engine,
        Log,
        Outcome,
        PhaseEnd,
        Rulings,
        begin_turn,
        enter_phase,
        phase_scoped,
        turn_scoped,
    )
    from smoothbore.core.enums import NamedEnum, Result
    from smoothbore.core.errors import (
        EnumerationLimitError,
        IllegalActionError,
        InvalidValueError,
        LoadError,
        ReplayMismatchError,
        SmoothboreError,
        UnknownRulesetError,
    )
    from smoothbore.core.events import Event, Fact, narrate
    from smoothbore.core.modifiers import Modified, Modifier
    from smoothbore.core.protocols import Commander, Phase, Turn, Unit
    from smoothbore.core.registry import ENTRY_POINT_GROUP, Registry
    from smoothbore.core.ruleset import (
        BATTLE_READER,
        Help,
        Mechanism,
        PackagedBattle,
        Parameter,
        Ruleset,
        spell,
    )
    from smoothbore.core.stages import (
        DEFAULT_MAX_STEP_BRANCHES,
        Again,
        Done,
        Roll,
        Staged,
        StagedCheck,
        closing,
        odds_of_step,
    )
    from smoothbore.core.state import BattleState, DiceState, Scenario, revised
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
    "BATTLE_READER",
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
    "Deferred",
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
    "Fact",
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
    "PackagedBattle",
    "Parameter",
    "Phase",
    "PhaseEnd",
    "PoolCheck",
    "Registry",
    "ReplayMismatchError",
    "Result",
    "Roll",
    "RollRecord",
    "Ruleset",
    "Rulings",
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
    "closing",
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
    "revised",
    "spell",
    "text",
    "turn_scoped",
]

_WHERE: dict[str, str] = {
    "DICE_MECHANISMS": "smoothbore.core.catalogue",
    "DEFAULT_MAX_BRANCHES": "smoothbore.core.chance",
    "DEFAULT_MAX_DEPTH": "smoothbore.core.chance",
    "Dice": "smoothbore.core.chance",
    "Estimate": "smoothbore.core.chance",
    "RollRecord": "smoothbore.core.chance",
    "SamplingDice": "smoothbore.core.chance",
    "make_rng": "smoothbore.core.chance",
    "monte_carlo": "smoothbore.core.chance",
    "odds": "smoothbore.core.chance",
    "Band": "smoothbore.core.checks",
    "Check": "smoothbore.core.checks",
    "DrawCheck": "smoothbore.core.checks",
    "FacesCheck": "smoothbore.core.checks",
    "OpposedCheck": "smoothbore.core.checks",
    "PoolCheck": "smoothbore.core.checks",
    "TableCheck": "smoothbore.core.checks",
    "ThresholdCheck": "smoothbore.core.checks",
    "TotalCheck": "smoothbore.core.checks",
    "AVERAGE_DIE": "smoothbore.core.dice",
    "D3": "smoothbore.core.dice",
    "D6": "smoothbore.core.dice",
    "D10": "smoothbore.core.dice",
    "D12": "smoothbore.core.dice",
    "Die": "smoothbore.core.dice",
    "die": "smoothbore.core.dice",
    "parse_dice": "smoothbore.core.dice",
    "Distribution": "smoothbore.core.distribution",
    "ActionRule": "smoothbore.core.engine",
    "Deferred": "smoothbore.core.engine",
    "Engine": "smoothbore.core.engine",
    "Log": "smoothbore.core.engine",
    "Outcome": "smoothbore.core.engine",
    "PhaseEnd": "smoothbore.core.engine",
    "Rulings": "smoothbore.core.engine",
    "begin_turn": "smoothbore.core.engine",
    "enter_phase": "smoothbore.core.engine",
    "phase_scoped": "smoothbore.core.engine",
    "turn_scoped": "smoothbore.core.engine",
    "NamedEnum": "smoothbore.core.enums",
    "Result": "smoothbore.core.enums",
    "EnumerationLimitError": "smoothbore.core.errors",
    "IllegalActionError": "smoothbore.core.errors",
    "InvalidValueError": "smoothbore.core.errors",
    "LoadError": "smoothbore.core.errors",
    "ReplayMismatchError": "smoothbore.core.errors",
    "SmoothboreError": "smoothbore.core.errors",
    "UnknownRulesetError": "smoothbore.core.errors",
    "Event": "smoothbore.core.events",
    "Fact": "smoothbore.core.events",
    "narrate": "smoothbore.core.events",
    "Modified": "smoothbore.core.modifiers",
    "Modifier": "smoothbore.core.modifiers",
    "Commander": "smoothbore.core.protocols",
    "Phase": "smoothbore.core.protocols",
    "Turn": "smoothbore.core.protocols",
    "Unit": "smoothbore.core.protocols",
    "ENTRY_POINT_GROUP": "smoothbore.core.registry",
    "Registry": "smoothbore.core.registry",
    "Help": "smoothbore.core.ruleset",
    "Mechanism": "smoothbore.core.ruleset",
    "Parameter": "smoothbore.core.ruleset",
    "Ruleset": "smoothbore.core.ruleset",
    "PackagedBattle": "smoothbore.core.ruleset",
    "BATTLE_READER": "smoothbore.core.ruleset",
    "spell": "smoothbore.core.ruleset",
    "DEFAULT_MAX_STEP_BRANCHES": "smoothbore.core.stages",
    "Again": "smoothbore.core.stages",
    "Done": "smoothbore.core.stages",
    "Roll": "smoothbore.core.stages",
    "Staged": "smoothbore.core.stages",
    "StagedCheck": "smoothbore.core.stages",
    "closing": "smoothbore.core.stages",
    "odds_of_step": "smoothbore.core.stages",
    "BattleState": "smoothbore.core.state",
    "DiceState": "smoothbore.core.state",
    "Scenario": "smoothbore.core.state",
    "revised": "smoothbore.core.state",
    "at_least": "smoothbore.core.validate",
    "check_choice": "smoothbore.core.validate",
    "check_number": "smoothbore.core.validate",
    "check_range": "smoothbore.core.validate",
    "check_text": "smoothbore.core.validate",
    "each": "smoothbore.core.validate",
    "finite": "smoothbore.core.validate",
    "in_range": "smoothbore.core.validate",
    "maybe": "smoothbore.core.validate",
    "one_of": "smoothbore.core.validate",
    "refers_to": "smoothbore.core.validate",
    "text": "smoothbore.core.validate",
}
"""The module each public name comes from."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its module when first asked for (and then kept as an
    attribute of this package, as a plain import would)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'smoothbore.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
