"""Embedded battles: a small action from the text's own commanders, for demonstrations and
for the conformance suite, with a scenario that ends it; played on a table (``default``) or
with the caller's facts (``default-no-table``)."""

from __future__ import annotations

from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Footprint, Table

from .state import State, new_battle
from .units import AMERICAN, BRITISH, Commander, Formation, Troops, Unit, UnitType, Weapon

EXAMPLE_TURNS = 6
"""The embedded action lasts at most six turns (an hour to three of the text's time)."""

EXAMPLE_SCENARIO = Scenario("Webster against Stevens", turn_limit=EXAMPLE_TURNS)


def example_battle_no_table(seed: int = 0) -> State:
    """Colonel Webster's British brigade (line, Hessian grenadiers, guns) against Colonel
    Stevens's Continentals and riflemen, at the start of turn 1 (the commanders of the text's
    examples, Bloodybacks 9.3, Determine commander activation level). The 1st Maryland are
    Continentals of quality 3 and the riflemen carry no bayonets, so neither has the cold
    steel ability; the battle ends when a side breaks or after six turns (B48). The players
give the measured facts of each action (no table)."""
    units = (
        Unit("b1", "33rd Foot", BRITISH, quality=4, density=5, size=20, brigade="1",
             troops=Troops.REGULAR),
        Unit("b2", "Hessian Grenadiers", BRITISH, quality=4, density=8, size=18, brigade="1",
             troops=Troops.REGULAR),
        Unit("b3", "Royal Artillery", BRITISH, kind=UnitType.FIELD_ARTILLERY, density=3, size=4,
             brigade="1", formation=Formation.UNLIMBERED, weapon=Weapon.CANNON),
        Unit("a1", "1st Maryland", AMERICAN, quality=3, density=6, size=20, brigade="x",
             troops=Troops.CONTINENTAL),
        Unit("a2", "Virginia Riflemen", AMERICAN, quality=3, density=3, size=10, brigade="x",
             weapon=Weapon.RIFLE, troops=Troops.CONTINENTAL, bayonets=False),
    )
    commanders = (
        Commander("cb", "Colonel Webster", BRITISH, command_quality=4, activity_rating=4,
                  brigade="1"),
        Commander("ca", "Colonel Stevens", AMERICAN, command_quality=3, activity_rating=2,
                  brigade="x", attached_to="a1"),
    )
    return new_battle(units, commanders, seed=seed, scenario=EXAMPLE_SCENARIO)


TABLE_WIDTH = 72.0
TABLE_DEPTH = 48.0
"""A 6' x 4' table, in inches."""


def example_ground() -> tuple[Feature, ...]:
    """The ground of the embedded action: a stream across the middle of the table with a ford,
    heavier woods on the British left, light woods where the riflemen stand, a fence before
    the Marylanders, a gentle rise for the British guns and a farmhouse (Movement; Visibility).
    """
    return (
        Feature("stream", "stream", line=((0.0, 21.0), (72.0, 21.0)), label="Mill Creek"),
        Feature("ford", "ford", line=((36.0, 19.5), (36.0, 22.5)), width=4.0,
                label="the ford"),
        Feature.rectangle("big-wood", "dense woods", 12.0, 25.0, 10.0, 6.0, label="Big Wood"),
        Feature.rectangle("light-wood", "light woods", 57.0, 33.0, 14.0, 6.0,
                          label="the orchard"),
        Feature("fence", "fence", line=((28.0, 30.8), (44.0, 30.8)), label="rail fence"),
        Feature.rectangle("rise", "gentle hill", 36.0, 10.0, 14.0, 6.0, label="the rise"),
        Feature.rectangle("farm", "building", 66.0, 17.0, 3.0, 3.0, label="farmhouse"),
    )


def example_table() -> Table:
    """The embedded action's table: the British facing up the table, the Americans some 19"
    away facing them across the creek (beyond musket range: they must move before muskets
    shoot; the guns and the rifles reach further), Colonel Webster behind his line."""
    positions = {
        "b1": (22.0, 12.0, 0.0), "b2": (50.0, 12.0, 0.0), "b3": (36.0, 10.0, 0.0),
        "a1": (36.0, 32.0, 180.0), "a2": (57.0, 33.0, 180.0),
    }
    sides = {"b": "british", "a": "american"}
    footprints = tuple(Footprint(uid, x, y, facing, side=sides[uid[0]])
                       for uid, (x, y, facing) in positions.items())
    return Table(
        TABLE_WIDTH, TABLE_DEPTH, features=example_ground(), footprints=footprints,
        commanders=(CommanderMark("cb", 36.0, 5.0, side="british", label="Colonel Webster"),),
        home_edges={"british": Edge.NEAR, "american": Edge.FAR},
    )


def example_battle(seed: int = 0) -> State:
    """The embedded action (``example_battle_no_table``) on a table (``example_table``): moves
    name destinations, and ranges, cover, woods and sight are measured."""
    plain = example_battle_no_table(seed)
    return new_battle(plain.units, plain.commanders, seed=seed, scenario=plain.scenario,
                      table=example_table())


SCENARIOS = (("default-no-table", example_battle_no_table),)
"""The embedded battles besides the default (the same action on a table)."""


# --- scenario words: what smoothbore.scenario needs of this book ------------------------------
from collections.abc import Mapping as _Mapping  # noqa: E402
from typing import Any as _Any  # noqa: E402

from .options import Options as _Options  # noqa: E402

UNIT = Unit
COMMANDER = Commander
OPTIONS = _Options


def place(unit: Unit, x: float, y: float, facing: float) -> Footprint:
    """Where a file places a unit: its centre and facing (the battle lays its bases)."""
    return Footprint(unit.id, x, y, facing, side=unit.side)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander rides with (his mark follows it), or None."""
    return commander.attached_to


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: _Options, scenario: Scenario, table: Table | None,
          setup: _Mapping[str, _Any]) -> State:
    """The battle a file describes (``new_battle``); its sides are the book's own."""
    from smoothbore.core.errors import InvalidValueError

    from .units import SIDES
    if tuple(sides) != SIDES:
        raise InvalidValueError("side", tuple(sides), "the sides " + " and ".join(SIDES)
                                + ", in that order")
    return new_battle(units, commanders, seed=seed, options=options, scenario=scenario,
                      table=table)


def setup_of(state: State) -> dict[str, _Any]:
    """Nothing beside the units, commanders, options and table sets a battle up."""
    return {}
