"""Battles of the '45 (hordes, the Highland charge, pre-battle rolls) and Ireland 1798."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smoothbore.core import IllegalActionError, SamplingDice, odds
from smoothbore.will_awi.morale import basic_morale
from smoothbore.will_awi.options import VARIANTS, variant_named
from smoothbore.will_awi.units import Nationality, Status, TroopType, Unit
from smoothbore.will_awi.variants import (
    PreBattle,
    apply_pre_battle,
    end_highland_charge,
    highland_charge_move,
    roll_pre_battle,
)
from smoothbore.will_awi.variants import test_highland_charge as roll_highland


def clan(**kw: object) -> Unit:
    return Unit("c", "Clan", "j", TroopType.HIGHLANDERS, Nationality.JACOBITE, **kw)  # type: ignore[arg-type]


def test_hordes_morale_as_grenadiers() -> None:
    """Highlanders: morale +2."""
    assert basic_morale(clan()).total == 7


@pytest.mark.parametrize(("in_range", "p"), [(False, Fraction(1, 6)), (True, Fraction(2, 6))])
def test_highland_charge_test(in_range: bool, p: Fraction) -> None:
    """A 6 out of musket range, 5-6 within it, launches a Highland charge."""
    assert odds(roll_highland, clan(), in_range).probability(True) == p


def test_highland_charge_rules() -> None:
    """Shaken highlanders do not test; the charge ends on losses or an adverse test; it moves
    the close order distance plus 1d6."""
    assert odds(roll_highland, clan(status=Status.SHAKEN), True).probability(True) == 0
    charging = clan(highland_charge=True)
    assert end_highland_charge(charging, True, False).highland_charge is False
    assert end_highland_charge(charging, False, True).highland_charge is False
    assert end_highland_charge(charging, False, False).highland_charge is True
    d = odds(highland_charge_move, clan())
    assert d.outcomes == (7, 8, 9, 10, 11, 12)
    with pytest.raises(IllegalActionError):
        roll_highland(Unit("l", "L", "x", TroopType.LINE), True, dice=SamplingDice(1))


def test_pre_battle_rolls() -> None:
    """British line: morale and firing each +1 on 4-6."""
    d = odds(roll_pre_battle)
    for m in (0, 1):
        for f in (0, 1):
            assert d.probability(PreBattle(m, f)) == Fraction(1, 4)
    line = Unit("b", "B", "x", TroopType.LINE, Nationality.BRITISH)
    boosted = apply_pre_battle(line, PreBattle(1, 1))
    assert basic_morale(boosted).total == 7 and boosted.fire_bonus == 1
    with pytest.raises(IllegalActionError):
        roll_pre_battle(Unit("m", "M", "x", TroopType.MILITIA), dice=SamplingDice(1))


def test_variants_as_data() -> None:
    """Variants are data: each has a name; unknown names are refused."""
    assert [v.name for v in VARIANTS] == ["base", "ireland1798", "fortyfive"]
    assert variant_named("ireland1798").pikes
    with pytest.raises(ValueError):
        variant_named("zulu")
