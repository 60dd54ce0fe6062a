"""The embedded battles: a brigade a side, from the order of battle where history gives it,
each with a scenario that ends it (A20, A21), each played on a table with the terrain that
matters to the rules (woods, linear obstacles, a river with its crossing, a road, a hill)
and the two sides deployed out of musket range, facing each other (A30). Each is also
available without its table (``<name>-no-table``), the players measuring. Every battle is
a module-level function, so that a ruleset pickles by name."""


from __future__ import annotations

from collections.abc import Callable

from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Table

from .placing import footprint
from .state import State, new_battle
from .units import (
    CONFEDERATE,
    UNION,
    Commander,
    Experience,
    Formation,
    Rank,
    Unit,
    UnitType,
    Weapon,
)

EXAMPLE_TURNS = 6
EXAMPLE_SCENARIO = Scenario("Brawner's Farm, 28 August 1862", turn_limit=EXAMPLE_TURNS)

INFANTRY = UnitType.INFANTRY


def example_battle(seed: int = 0) -> State:
    """Brawner's Farm (``brawners_farm``) on its table."""
    return brawners_farm(seed)


def brawners_farm(seed: int = 0, *, on_table: bool = True) -> State:
    """Gibbon's brigade against the Stonewall Brigade at Brawner's Farm (28 August 1862), six
    turns at most (A20, A21). The order of battle is the historical one: Gibbon's four
    regiments, large (6 bases) and new to battle but for the 2nd Wisconsin, which had fought
    at First Bull Run (veteran), with Battery B, 4th US (regulars, 12lb Napoleons); Baylor's
    five Virginia regiments, worn down to small regiments (4 bases) of veterans, the 4th and
    27th still with smoothbore muskets, and Wooding's Danville Artillery, an independent
    battery with rifled guns. King's division commander and Jackson are the army
    commanders. The table (A30): 72" x 48", Gibbon's line at the near edge and Baylor's on
    the ridge at the far one, 31" apart; Brawner's orchard (light woods) on the Union left,
    the farm's fences across the middle, Brawner's woods behind the Confederate left, and a
    river with a ford on the right flank."""
    units = (
        Unit("u2wi", "2nd Wisconsin", UNION, INFANTRY, Experience.VETERAN, bases=6,
             brigade="gibbon"),
        Unit("u6wi", "6th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("u7wi", "7th Wisconsin", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("u19in", "19th Indiana", UNION, INFANTRY, Experience.REGULAR, bases=6,
             brigade="gibbon"),
        Unit("ub4us", "Battery B, 4th US", UNION, UnitType.ARTILLERY, Experience.VETERAN,
             Weapon.SMOOTHBORE_CANNON, brigade="gibbon", formation=Formation.UNLIMBERED),
        Unit("c2va", "2nd Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("c4va", "4th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN,
             Weapon.SMOOTHBORE_MUSKET, bases=4, brigade="stonewall"),
        Unit("c5va", "5th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("c27va", "27th Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN,
             Weapon.SMOOTHBORE_MUSKET, bases=4, brigade="stonewall"),
        Unit("c33va", "33rd Virginia", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=4,
             brigade="stonewall"),
        Unit("cwood", "Wooding's Danville Artillery", CONFEDERATE, UnitType.ARTILLERY,
             Experience.REGULAR, Weapon.RIFLED_CANNON, formation=Formation.UNLIMBERED),
    )
    commanders = (
        Commander("gibbon", "Brig. Gen. John Gibbon", UNION, Rank.BRIGADE, "gibbon",
                  with_unit="u6wi"),
        Commander("king", "Brig. Gen. Rufus King", UNION, Rank.ARMY),
        Commander("baylor", "Col. William Baylor", CONFEDERATE, Rank.BRIGADE, "stonewall",
                  with_unit="c2va", experience=Experience.VETERAN),
        Commander("jackson", "Maj. Gen. Thomas J. Jackson", CONFEDERATE, Rank.ARMY),
    )
    table = None
    if on_table:
        table = _table(units, BRAWNERS_FEATURES, {
            "u2wi": (12, 8, 0), "u6wi": (23, 8, 0), "u7wi": (34, 8, 0), "u19in": (45, 8, 0),
            "ub4us": (56, 6, 0), "c2va": (14, 40, 180), "c4va": (24, 40, 180),
            "c5va": (34, 40, 180), "c27va": (44, 40, 180), "c33va": (54, 40, 180),
            "cwood": (62, 43, 180)}, {UNION: Edge.NEAR, CONFEDERATE: Edge.FAR},
            (CommanderMark("king", 34.0, 2.0, side=UNION, label="King"),
             CommanderMark("jackson", 34.0, 46.0, side=CONFEDERATE, label="Jackson")))
    return new_battle(units, commanders, seed=seed, scenario=EXAMPLE_SCENARIO, table=table)


BRAWNERS_FEATURES = (
    Feature.rectangle("orchard", "light woods", 12.0, 20.0, 10.0, 6.0,
                      label="Brawner's orchard"),
    Feature("farm-fence", "fence", line=((26.0, 24.0), (56.0, 24.0)),
            label="Brawner's farm fence"),
    Feature.rectangle("brawners-woods", "light woods", 8.0, 42.0, 10.0, 8.0,
                      label="Brawner's woods"),
    Feature.rectangle("ridge", "gentle hill", 36.0, 42.0, 44.0, 8.0, label="the ridge"),
    Feature("river", "river", line=((68.0, 0.0), (68.0, 48.0)), width=2.0),
    Feature("ford", "ford", line=((66.0, 24.0), (70.0, 24.0)), width=3.0),
)


def _table(units: tuple[Unit, ...], features: tuple[Feature, ...],
           places: dict[str, tuple[float, float, float]], homes: dict[str, Edge],
           riding: tuple[CommanderMark, ...] = ()) -> Table:
    """A 72" x 48" table with the units at their places (centre x, y and facing) and the
    commanders with no unit where they stand (``riding``; the others are put with their
    units, A14)."""
    feet = tuple(footprint(u, *places[u.id]) for u in units)
    return Table(72.0, 48.0, features=features, footprints=feet, commanders=riding,
                 home_edges=homes)


MCPHERSONS_RIDGE = Scenario("McPherson's Ridge, 1 July 1863", turn_limit=EXAMPLE_TURNS)


def mcphersons_ridge(seed: int = 0, *, on_table: bool = True) -> State:
    """Gamble's cavalry brigade against Archer's brigade on the morning of Gettysburg
    (1 July 1863), six turns at most (A21): Gamble's troopers fight dismounted in skirmish
    order with their breech-loading carbines (rifled carbines), one regiment held mounted in
    reserve, with Calef's battery (Battery A, 2nd US, 3-inch rifles); Archer's four
    veteran regiments in line, the 5th Alabama Battalion out as skirmishers, and Marye's
    Fredericksburg Artillery as an independent battery. Buford and Heth are the army
    commanders. The table (A30): 72" x 48", Gamble's troopers on McPherson's Ridge at the far
    edge, the Confederates at the near edge beyond Willoughby Run (a stream, bridged by the
    Chambersburg Pike), McPherson's (Herbst) woods on the Union left. The ridge is the
    objective (A21): the side holding it after the last turn wins."""
    cavalry, dismounted = UnitType.CAVALRY, Formation.SKIRMISH
    units = (
        Unit("u8il", "8th Illinois Cavalry", UNION, cavalry, Experience.VETERAN,
             Weapon.RIFLED_CARBINE, brigade="gamble", mounted=False, formation=dismounted),
        Unit("u8ny", "8th New York Cavalry", UNION, cavalry, Experience.VETERAN,
             Weapon.RIFLED_CARBINE, brigade="gamble", mounted=False, formation=dismounted),
        Unit("u12il", "12th Illinois and 3rd Indiana Cavalry", UNION, cavalry,
             Experience.VETERAN, Weapon.RIFLED_CARBINE, brigade="gamble"),
        Unit("ucalef", "Calef's Battery A, 2nd US", UNION, UnitType.ARTILLERY,
             Experience.VETERAN, Weapon.RIFLED_CANNON, brigade="gamble",
             formation=Formation.UNLIMBERED),
        Unit("c1tn", "1st Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c7tn", "7th Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c14tn", "14th Tennessee", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c13al", "13th Alabama", CONFEDERATE, INFANTRY, Experience.VETERAN, bases=5,
             brigade="archer"),
        Unit("c5al", "5th Alabama Battalion", CONFEDERATE, UnitType.SKIRMISHERS,
             Experience.VETERAN, bases=5, brigade="archer"),
        Unit("cmarye", "Marye's Fredericksburg Artillery", CONFEDERATE, UnitType.ARTILLERY,
             Experience.REGULAR, Weapon.RIFLED_CANNON, formation=Formation.UNLIMBERED),
    )
    commanders = (
        Commander("gamble", "Col. William Gamble", UNION, Rank.BRIGADE, "gamble",
                  with_unit="u8il", experience=Experience.VETERAN),
        Commander("buford", "Brig. Gen. John Buford", UNION, Rank.ARMY, with_unit="u8ny"),
        Commander("archer", "Brig. Gen. James J. Archer", CONFEDERATE, Rank.BRIGADE,
                  "archer", with_unit="c1tn", experience=Experience.VETERAN),
        Commander("heth", "Maj. Gen. Henry Heth", CONFEDERATE, Rank.ARMY),
    )
    table = None
    if on_table:
        table = _table(units, MCPHERSONS_FEATURES, {
            "u8il": (18, 36, 180), "u8ny": (40, 36, 180), "u12il": (54, 40, 180),
            "ucalef": (29, 38, 180), "c1tn": (14, 6, 0), "c7tn": (26, 6, 0),
            "c14tn": (46, 6, 0), "c13al": (58, 6, 0), "c5al": (36, 10, 0),
            "cmarye": (36, 3, 0)}, {UNION: Edge.FAR, CONFEDERATE: Edge.NEAR},
            (CommanderMark("heth", 20.0, 1.5, side=CONFEDERATE, label="Heth"),))
    return new_battle(units, commanders, seed=seed, scenario=MCPHERSONS_RIDGE, table=table,
                      objective=None if table is None else "mcphersons-ridge")


MCPHERSONS_FEATURES = (
    Feature("willoughby-run", "stream", line=((0.0, 15.0), (36.0, 16.0), (72.0, 17.0)),
            label="Willoughby Run"),
    Feature("pike", "road", line=((33.0, 0.0), (33.0, 48.0)), width=2.0, label="Chambersburg Pike"),
    Feature("pike-bridge", "bridge", line=((33.0, 13.0), (33.0, 19.0)), width=3.0),
    Feature.rectangle("herbst-woods", "light woods", 12.0, 30.0, 14.0, 10.0,
                      label="McPherson's woods"),
    Feature.rectangle("mcphersons-ridge", "gentle hill", 36.0, 40.0, 72.0, 12.0,
                      label="McPherson's Ridge"),
    Feature("mcpherson-fence", "fence", line=((40.0, 28.0), (66.0, 28.0)),
            label="McPherson's fence"),
)


def brawners_farm_no_table(seed: int = 0) -> State:
    """Brawner's Farm, the players measuring (no table)."""
    return brawners_farm(seed, on_table=False)


def mcphersons_ridge_no_table(seed: int = 0) -> State:
    """McPherson's Ridge, the players measuring (no table)."""
    return mcphersons_ridge(seed, on_table=False)


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("mcphersons-ridge", mcphersons_ridge),
    ("default-no-table", brawners_farm_no_table),
    ("mcphersons-ridge-no-table", mcphersons_ridge_no_table),
)
"""The embedded battles besides ``example_battle`` (Brawner's Farm)."""


# --- scenario words: what smoothbore.scenario needs of this book ------------------------------
from collections.abc import Mapping as _Mapping  # noqa: E402
from typing import Any as _Any  # noqa: E402

from smoothbore.table import Footprint as _Footprint  # noqa: E402

from .options import Options as _Options  # noqa: E402

UNIT = Unit
COMMANDER = Commander
OPTIONS = _Options
VICTORY: _Mapping[str, tuple[_Any, str]] = {
    "objective": (str, "the id of the table's feature the side holding it wins by (A21)"),
}
"""The book's own victory setting: an objective on the table (A21)."""


def place(unit: Unit, x: float, y: float, facing: float) -> _Footprint:
    """Where a file places a unit: its centre and facing (``placing.footprint``)."""
    return footprint(unit, x, y, facing)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander rides with (his mark follows it), or None."""
    return commander.with_unit


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: _Options, scenario: Scenario, table: Table | None,
          setup: _Mapping[str, _Any]) -> State:
    """The battle a file describes (``new_battle``); its sides are the book's own."""
    from smoothbore.core.errors import InvalidValueError

    from .units import SIDES
    if tuple(sides) != SIDES:
        raise InvalidValueError("side", tuple(sides), "the sides " + " and ".join(SIDES)
                                + ", in that order")
    objective = setup.get("objective") if table is not None else None
    if table is not None:  # those riding with a unit are put with it by new_battle (A14)
        import attrs

        table = attrs.evolve(table, commanders=tuple(
            m for m in table.commanders if m.attached_to is None))
    return new_battle(units, commanders, seed=seed, options=options, scenario=scenario,
                      table=table, objective=objective)


def setup_of(state: State) -> dict[str, _Any]:
    """The objective, where the battle has one."""
    return {"objective": state.extra.objective} if state.extra.objective else {}
