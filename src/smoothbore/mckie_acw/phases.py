"""The battle period as data (McKie ACW, Battle period steps 1-8, with Generalship: New battle
period adding initiative and activation before them, M2)."""

from __future__ import annotations

from smoothbore.core import Phase

from . import rules

INITIATIVE = "initiative"
ACTIVATION = "activation"
COMPULSORY = "1-compulsory"
CHARGES = "2-charges"
MOVEMENT = "3-movement"
FIRING = "4-firing"
CHARGER_TESTS = "5-charger-tests"
RECEIVE_TESTS = "6-receive-tests"
MELEE = "7-melee"
MORALE = "8-morale"

ORDER = (INITIATIVE, ACTIVATION, COMPULSORY, CHARGES, MOVEMENT, FIRING, CHARGER_TESTS,
         RECEIVE_TESTS, MELEE, MORALE)
"""The phase names in their order."""

PHASES: tuple[Phase, ...] = (
    Phase(INITIATIVE, rules.INITIATIVE,
          "the commanders-in-chief roll for the initiative; the winner moves first or second"),
    Phase(ACTIVATION, rules.ACTIVATION,
          "superiors change orders and try once to activate corps, then divisional commanders"),
    Phase(COMPULSORY, rules.BATTLE_PERIOD,
          "make all compulsory routs, retreats and the retirements of exhausted units"),
    Phase(CHARGES, rules.BATTLE_PERIOD,
          "declare charges and counter charges and test the morale of every charging unit"),
    Phase(MOVEMENT, rules.BATTLE_PERIOD,
          "move all units as desired (manoeuvres, digging, ammunition, helpers, generals)"),
    Phase(FIRING, rules.BATTLE_PERIOD,
          "perform all firing; extra figures are diced once every source is added"),
    Phase(CHARGER_TESTS, rules.BATTLE_PERIOD,
          "test charging units that have suffered 20% casualties from firing"),
    Phase(RECEIVE_TESTS, rules.BATTLE_PERIOD, "test all units standing to receive a charge"),
    Phase(MELEE, rules.BATTLE_PERIOD, "fight all melees, losers then winners testing morale"),
    Phase(MORALE, rules.BATTLE_PERIOD,
          "perform all other morale tests (10% lost, friends routing past, rallies)"),
)

NEXT = dict(zip(ORDER, (*ORDER[1:], INITIATIVE), strict=True))
"""The phase after each (after step 8 the next period begins)."""
