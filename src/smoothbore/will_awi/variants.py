"""The variants' own mechanisms. Ireland 1798 (pikes) lives as narrow overrides in the
charged-unit test and the melee table (see ``options.IRELAND_1798``); Battles of the '45
adds the hordes' Highland charge and the British line's pre-battle rolls here."""

from __future__ import annotations

import attrs

from smoothbore.core import D6, Dice, IllegalActionError, ThresholdCheck, TotalCheck, revised

from . import rules
from .movement import move_distance
from .options import DEFAULT_OPTIONS, Options
from .units import Nationality, TroopType, Unit


def highland_charge_need(in_musket_range: bool) -> int:
    """1d6 for a Highland charge: 6 out of musket range, 5 or 6 within it."""
    return 5 if in_musket_range else 6


def test_highland_charge(unit: Unit, in_musket_range: bool, *, dice: Dice) -> bool:
    """An unshaken highland unit that received fire (or is within 12" of highlanders already
    charging) tests: True when it launches a Highland charge."""
    if unit.troop is not TroopType.HIGHLANDERS:
        raise IllegalActionError(
            unit.id, "only highlanders make a Highland charge", rules.FORTY_FIVE
        )
    if not unit.on_table or unit.shaken or unit.routing or unit.highland_charge:
        return unit.highland_charge
    return dice.roll(
        ThresholdCheck((D6,), highland_charge_need(in_musket_range)),
        reason=f"{unit.name} tests for a Highland charge",
        rule=rules.FORTY_FIVE,
    )


def highland_charge_move(unit: Unit, *, dice: Dice, options: Options = DEFAULT_OPTIONS) -> int:
    """A Highland charge moves the close order distance plus 1d6 inches, all of it towards the
    nearest enemy."""
    extra = dice.roll(
        TotalCheck.of(1, D6), reason=f"{unit.name} Highland charge distance", rule=rules.FORTY_FIVE
    )
    return move_distance(unit, options=options) + extra


def end_highland_charge(unit: Unit, lost_strength: bool, adverse_test: bool) -> Unit:
    """A Highland charge goes on until the unit suffers losses or an adverse morale test."""
    if unit.highland_charge and (lost_strength or adverse_test or not unit.on_table):
        return revised(unit, highland_charge=False)
    return unit


@attrs.frozen(order=True)
class PreBattle:
    """The '45 pre-battle roll of a British line unit: morale and firing +1 on 4-6 each."""

    morale: int
    firing: int

    def __str__(self) -> str:
        return f"morale +{self.morale}, firing +{self.firing}"


def roll_pre_battle(unit: Unit | None = None, *, dice: Dice) -> PreBattle:
    """Roll 1d6 for morale and 1d6 for firing: 1-3 unchanged, 4-6 +1."""
    if unit is not None and not (
        unit.nationality is Nationality.BRITISH and unit.troop is TroopType.LINE
    ):
        raise IllegalActionError(unit.id, "only British line infantry roll", rules.FORTY_FIVE)
    name = unit.name if unit is not None else "British line"
    morale = dice.roll(
        ThresholdCheck((D6,), 4), reason=f"{name} pre-battle morale", rule=rules.FORTY_FIVE
    )
    firing = dice.roll(
        ThresholdCheck((D6,), 4), reason=f"{name} pre-battle firing", rule=rules.FORTY_FIVE
    )
    return PreBattle(int(morale), int(firing))


def apply_pre_battle(unit: Unit, roll: PreBattle) -> Unit:
    return revised(unit, morale_bonus=roll.morale, fire_bonus=roll.firing)
