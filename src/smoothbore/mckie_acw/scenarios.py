"""The embedded battles, each made from a seed, with a turn (period) limit: a division or two
a side with their corps and army commanders, ammunition trains and written orders."""

from __future__ import annotations

from collections.abc import Callable

from smoothbore.core import Scenario

from .options import Options, PlusOrMinus
from .state import State, new_battle
from .tables import DEFAULT_TABLES
from .units import (
    Arm,
    Commander,
    Formation,
    Order,
    OrderKind,
    Quality,
    Rank,
    Unit,
    Weapon,
)

CSA, USA = "Confederate", "Union"
FOOT, CAV, ART = Arm.FOOT, Arm.CAVALRY, Arm.ARTILLERY


def _general(cid: str, name: str, side: str, rank: Rank, superior: str = "",
             attached_to: str = "", order: OrderKind = OrderKind.HOLD) -> Commander:
    rating = DEFAULT_TABLES.rating(name)
    return Commander(cid, name, side, rank, rating.initiative, rating.activation, superior,
                     attached_to, Order(order, superior))


def _armies() -> tuple[tuple[Unit, ...], tuple[Commander, ...]]:
    units = (
        Unit("law", "Law's brigade", CSA, FOOT, Weapon.MUZZLE_LOADING_RIFLE, Quality.VETERAN,
             16, commander="hood"),
        Unit("robertson", "Robertson's Texas brigade", CSA, FOOT, Weapon.MUZZLE_LOADING_RIFLE,
             Quality.VETERAN, 14, formation=Formation.COLUMN, commander="hood"),
        Unit("benning", "Benning's brigade", CSA, FOOT, Weapon.SMOOTHBORE_MUSKET,
             Quality.EXPERIENCED, 16, commander="hood"),
        Unit("csa-guns", "Hood's artillery battalion", CSA, ART, Weapon.SMOOTHBORE_12LB,
             Quality.EXPERIENCED, 4, commander="hood"),
        Unit("scribner", "Scribner's brigade", USA, FOOT, Weapon.MUZZLE_LOADING_RIFLE,
             Quality.EXPERIENCED, 16, commander="baird"),
        Unit("starkweather", "Starkweather's brigade", USA, FOOT, Weapon.MUZZLE_LOADING_RIFLE,
             Quality.RAW, 16, commander="baird"),
        Unit("king", "King's regulars", USA, FOOT, Weapon.MUZZLE_LOADING_RIFLE,
             Quality.VETERAN, 12, commander="baird"),
        Unit("usa-guns", "Baird's artillery", USA, ART, Weapon.RODMAN_3IN, Quality.EXPERIENCED,
             4, commander="baird"),
        Unit("wilder", "Wilder's Lightning Brigade", USA, CAV, Weapon.REPEATING_RIFLE,
             Quality.VETERAN, 12, mounted=True, formation=Formation.COLUMN,
             commander="thomas"),
    )
    commanders = (
        _general("bragg", "Bragg", CSA, Rank.CINC),
        _general("longstreet", "Longstreet", CSA, Rank.CORPS, "bragg", "law", OrderKind.ATTACK),
        _general("hood", "Hood", CSA, Rank.DIVISION, "longstreet", "robertson",
                 OrderKind.ATTACK),
        _general("rosecrans", "Rosecrans", USA, Rank.CINC),
        _general("thomas", "Thomas", USA, Rank.CORPS, "rosecrans", "king", OrderKind.HOLD),
        _general("baird", "Baird", USA, Rank.DIVISION, "thomas", "scribner", OrderKind.HOLD),
    )
    return units, commanders


def example_battle(seed: int = 0) -> State:
    """Chickamauga in miniature: Longstreet's corps sends Hood's division (three brigades and a
    battalion of Napoleons) against Thomas's corps, holding with Baird's division (three
    brigades and a battery of 3-inch rifles) and Wilder's mounted brigade with Spencer
    repeaters; Bragg (3/5, the text's own rating) against Rosecrans; six periods."""
    units, commanders = _armies()
    return new_battle((CSA, USA), units, commanders, seed=seed,
                      scenario=Scenario("Chickamauga: Thomas holds", turn_limit=6))


def sharpshooters_battle(seed: int = 0) -> State:
    """The same field with the optional snipers: two figures of Berdan's Sharpshooters,
    detached from an Army of the Potomac of some 800 figures (so 4 allowed), and the
    "+ or -" morale factors at each player's choice; six periods."""
    units, commanders = _armies()
    berdan = Unit("berdan", "Berdan's Sharpshooters", USA, FOOT, Weapon.SNIPER_RIFLE,
                  Quality.VETERAN, 2, formation=Formation.SKIRMISH, commander="baird")
    options = Options(snipers=True, plus_or_minus=PlusOrMinus.CHOOSE)
    return new_battle((CSA, USA), (*units, berdan), commanders, seed=seed, options=options,
                      army_figures=(600, 800),
                      scenario=Scenario("Chickamauga, with sharpshooters", turn_limit=6))


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("sharpshooters", sharpshooters_battle),
)
"""The embedded battles beside the default ``example_battle``."""
