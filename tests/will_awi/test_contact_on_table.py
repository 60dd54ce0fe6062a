"""Units in contact must fight (Rules - Melee: "All units that have enemy units to the front of
any of their bases must engage in melee"; Battles of the '45: a Highland charge "must move its
full distance towards the nearest enemy unit"; W25): on a table the moving player may not
end F while a unit touching an enemy directly to its front, or a unit in a Highland charge
able to charge the nearest enemy, has not declared that charge."""

from __future__ import annotations

import attrs
import pytest

from smoothbore.core import IllegalActionError
from smoothbore.will_awi import rules
from smoothbore.will_awi.actions import DeclareCharge, EndPhase
from smoothbore.will_awi.options import FORTY_FIVE, Options
from smoothbore.will_awi.positions import BASE, Place, deploy
from smoothbore.will_awi.state import State, new_battle
from smoothbore.will_awi.steps_charges import compulsory_charges
from smoothbore.will_awi.turn import TURN
from smoothbore.will_awi.units import Commander, Nationality, Status, TroopType, Unit

from .test_situations import UNITS
from .turn_helpers import to_phase

CLANS = Unit("r7", "Camerons", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
CHARGING = attrs.evolve(CLANS, highland_charge=True)
HALF = BASE / 2
TOUCHING = 20 - BASE
"""Where a unit's centre stands when its front touches the front of the Continentals (one
base deep, centre at y 20, facing it)."""


def in_f(places: dict[str, Place], *changed: Unit) -> State:
    """Red's phase F on a 48" x 36" table ('45 variant), only the units placed; the
    ``changed`` units replace theirs on reaching F (a Highland charge has made its move in
    C, a shaken unit has tested in A)."""
    units = tuple({**UNITS, CLANS.id: CLANS}[k] for k in places)
    table = deploy(units, places, width=48, depth=36)
    s = new_battle(("red", "blue"), units, (Commander("rg", "Webster", "red"),), table=table,
                   options=Options(variant=FORTY_FIVE))
    return to_phase(s, "F").with_units(*changed)


def _must_charge(s: State, charge: DeclareCharge, text: str, rule: str) -> None:
    """F cannot end (not offered, refused naming the rule) until ``charge`` is declared."""
    assert compulsory_charges(s) == (charge,)
    assert EndPhase() not in TURN.legal_actions(s)
    with pytest.raises(IllegalActionError, match=text) as refused:
        TURN.step(s, EndPhase())
    assert refused.value.rule == rule
    after, _ = TURN.step(s, charge)
    assert compulsory_charges(after) == ()
    assert EndPhase() in TURN.legal_actions(after)


def test_a_unit_touching_an_enemy_to_its_front_must_charge_it() -> None:
    """The foot's front touches the Continentals' front: its charge (already in contact) is
    compulsory. 2" apart it is the player's choice; shaken, the foot may not charge, and is
    not made to."""
    s = in_f({"r1": (20, TOUCHING, 0), "b1": (20, 20, 180)})
    _must_charge(s, DeclareCharge("r1", "b1"), "must be declared: Foot on Continentals",
                 rules.MELEE)
    _, events = TURN.step(s, DeclareCharge("r1", "b1"))
    assert "already in contact" in events[-1].text
    apart = in_f({"r1": (20, TOUCHING - 2.0, 0), "b1": (20, 20, 180)})
    assert DeclareCharge("r1", "b1") in TURN.legal_actions(apart)
    assert compulsory_charges(apart) == () and EndPhase() in TURN.legal_actions(apart)
    shaken = attrs.evolve(UNITS["r1"], status=Status.SHAKEN)
    held = in_f({"r1": (20, TOUCHING, 0), "b1": (20, 20, 180)}, shaken)
    assert compulsory_charges(held) == () and EndPhase() in TURN.legal_actions(held)


def test_a_unit_touching_an_enemy_beside_it_is_not_made_to_charge() -> None:
    """The Continentals' front touches the foot's right flank, ending 0.2" short of the
    foot's front edge: they are not to its front, so it cannot charge them and F may
    end."""
    s = in_f({"r1": (20, 10, 0), "b1": (20 + BASE + HALF, 10 - HALF - 0.2, 270)})
    assert compulsory_charges(s) == () and EndPhase() in TURN.legal_actions(s)


def test_a_highland_charge_must_charge_the_nearest_enemy() -> None:
    """The Camerons in a Highland charge, 2" from the Continentals straight ahead (within
    the foot's 3" reach) and 2.5" from the militia: the charge on the Continentals, the
    nearest, is compulsory; the militia is not. 4" off (out of reach) nothing is."""
    s = in_f({"r7": (20, TOUCHING - 2.0, 0), "b1": (20, 20, 180),
              "b2": (20 + BASE + 2.5 + HALF, TOUCHING - 2.0, 270)}, CHARGING)
    _must_charge(s, DeclareCharge("r7", "b1"), "must be declared: Camerons on Continentals",
                 rules.FORTY_FIVE)
    far = in_f({"r7": (20, TOUCHING - 4.0, 0), "b1": (20, 20, 180)}, CHARGING)
    assert compulsory_charges(far) == () and EndPhase() in TURN.legal_actions(far)
