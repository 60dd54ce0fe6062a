"""The embedded battles, each made from a seed, with a turn (period) limit: a division or two
a side with their corps and army commanders, ammunition trains and written orders, deployed
on a table with terrain (millimetres); each is also kept without its table
(``<name>-no-table``), the facts then given by the players."""

from __future__ import annotations

from collections.abc import Callable

from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Table

from .options import Options, PlusOrMinus
from .positions import footprint
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


TABLE_WIDTH, TABLE_DEPTH = 1200, 800
"""The table: 1,200 x 800 mm (6,000 x 4,000 yards at 20 mm to 100 yards)."""

TERRAIN = (
    Feature.rectangle("viniard-woods", "dense woods", 180, 380, 200, 160,
                      label="Viniard's woods"),
    Feature("chickamauga-creek", "river", line=((640, 800), (1200, 240)), width=30,
            label="Chickamauga Creek"),
    Feature.rectangle("reeds-ford", "ford", 920, 520, 50, 70, facing=45, label="a ford"),
    Feature("alexanders-bridge", "bridge", line=((1075, 315), (1125, 365)), width=30,
            label="Alexander's bridge"),
    Feature("kelly-fence", "fence", line=((280, 460), (580, 460)), label="Kelly's fence"),
    Feature.rectangle("snodgrass-hill", "gentle hill", 500, 690, 240, 110,
                      label="Snodgrass Hill"),
    Feature.rectangle("brotherton-farm", "building", 820, 400, 40, 30,
                      label="Brotherton farm"),
)
"""The field: Viniard's dense woods on the Confederate left, Chickamauga Creek (a river)
across the Union right with a ford and a bridge, Kelly's fence before the Union centre,
Snodgrass Hill behind it under the Union guns, the Brotherton farm between the lines."""

POSITIONS = {
    "law": (350, 280, 0), "robertson": (500, 290, 0), "benning": (650, 280, 0),
    "csa-guns": (500, 130, 0),
    "scribner": (350, 480, 180), "starkweather": (500, 480, 180), "king": (650, 480, 180),
    "usa-guns": (500, 700, 180), "wilder": (1050, 650, 180), "berdan": (420, 560, 180),
}
"""Each unit's centre and facing (mm, degrees): the lines 176 mm apart, so that the nearest
enemy stands 188 mm from a brigade's centre, beyond the rifle's 100 mm, and every gun's
target beyond its reach (the Napoleons' 320 mm, the Rodmans' 370): both sides must move before
they fire."""


GENERALS_ALONE = {"bragg": (500, 40), "rosecrans": (500, 770)}
"""Where the commanders-in-chief ride alone, behind their lines (mm)."""


def field(units: tuple[Unit, ...], commanders: tuple[Commander, ...] = ()) -> Table:
    """The Chickamauga table with ``units`` deployed (Confederates from the near edge,
    Federals from the far one) and the ``commanders`` on it: with the unit each is with, or
    alone behind the lines (``GENERALS_ALONE``)."""
    marks = tuple(
        CommanderMark(c.id, attached_to=c.attached_to, side=c.side, label=c.name)
        if c.attached_to else
        CommanderMark(c.id, *GENERALS_ALONE[c.id], side=c.side, label=c.name)
        for c in commanders)
    return Table(TABLE_WIDTH, TABLE_DEPTH, "mm", TERRAIN,
                 tuple(footprint(u, *POSITIONS[u.id]) for u in units), marks,
                 home_edges={CSA: Edge.NEAR, USA: Edge.FAR})


def example_battle(seed: int = 0, *, table: bool = True) -> State:
    """Chickamauga in miniature: Longstreet's corps sends Hood's division (three brigades and a
    battalion of Napoleons) against Thomas's corps, holding with Baird's division (three
    brigades and a battery of 3-inch rifles) and Wilder's mounted brigade with Spencer
    repeaters; Bragg (3/5, the text's own rating) against Rosecrans; six periods, on the
    table (``field``) unless ``table`` is False."""
    units, commanders = _armies()
    return new_battle((CSA, USA), units, commanders, seed=seed,
                      scenario=Scenario("Chickamauga: Thomas holds", turn_limit=6),
                      table=field(units, commanders) if table else None)


def sharpshooters_battle(seed: int = 0, *, table: bool = True) -> State:
    """The same field with the optional snipers: two figures of Berdan's Sharpshooters,
    detached from an Army of the Potomac of some 800 figures (so 4 allowed), and the
    "+ or -" morale factors at each player's choice; six periods."""
    units, commanders = _armies()
    berdan = Unit("berdan", "Berdan's Sharpshooters", USA, FOOT, Weapon.SNIPER_RIFLE,
                  Quality.VETERAN, 2, formation=Formation.SKIRMISH, commander="baird")
    options = Options(snipers=True, plus_or_minus=PlusOrMinus.CHOOSE)
    every = (*units, berdan)
    return new_battle((CSA, USA), every, commanders, seed=seed, options=options,
                      army_figures=(600, 800),
                      scenario=Scenario("Chickamauga, with sharpshooters", turn_limit=6),
                      table=field(every, commanders) if table else None)


def example_no_table(seed: int = 0) -> State:
    """``example_battle`` without its table: the players measure."""
    return example_battle(seed, table=False)


def sharpshooters_no_table(seed: int = 0) -> State:
    """``sharpshooters_battle`` without its table: the players measure."""
    return sharpshooters_battle(seed, table=False)


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("sharpshooters", sharpshooters_battle),
    ("default-no-table", example_no_table),
    ("sharpshooters-no-table", sharpshooters_no_table),
)
"""The embedded battles beside the default ``example_battle``."""


# --- scenario words: what smoothbore.scenario needs of this book ------------------------------
from collections.abc import Mapping as _Mapping  # noqa: E402
from typing import Any as _Any  # noqa: E402

from smoothbore.core.errors import InvalidValueError as _Invalid  # noqa: E402
from smoothbore.table import Footprint as _Footprint  # noqa: E402

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options


def _read_order(word: _Any) -> Order:
    """A written order: its kind (``"attack"``) or a table ``{ kind, issued_by, started }``."""
    kinds = ", ".join(k.value for k in OrderKind)
    if isinstance(word, str):
        word = {"kind": word}
    if not isinstance(word, dict) or set(word) - {"kind", "issued_by", "started"}:
        raise _Invalid("order", word, f"an order's kind ({kinds}) or a table "
                       "{ kind, issued_by, started }")
    try:
        kind = OrderKind(str(word.get("kind", "hold")).replace("-", " "))
    except ValueError:
        raise _Invalid("order.kind", word.get("kind"), "one of " + kinds) from None
    by, started = word.get("issued_by", ""), word.get("started", False)
    if not isinstance(by, str) or not isinstance(started, bool):
        raise _Invalid("order", word, "issued_by in quotes, started true or false")
    return Order(kind, by, started)


def _write_order(order: Order) -> _Any:
    out: dict[str, _Any] = {"kind": order.kind.value}
    if order.issued_by:
        out["issued_by"] = order.issued_by
    if order.started:
        out["started"] = True
    return out if len(out) > 1 else order.kind.value


def _read_tables(word: _Any) -> _Any:
    if word == "default":
        return DEFAULT_TABLES
    raise _Invalid("tables", word, '"default" (the reconstructed tables; a player\'s own '
                   "copies are given in Python, Options.with_table)")


def _write_tables(tables: _Any) -> _Any:
    if tables != DEFAULT_TABLES:
        raise _Invalid("tables", "(a player's own tables)",
                       "the default tables: a file cannot hold a player's copies")
    return "default"


COMMANDER_CODECS = {"order": (_read_order, _write_order)}
OPTIONS_CODECS = {"tables": (_read_tables, _write_tables)}
SETUP: _Mapping[str, tuple[_Any, str]] = {
    "army_figures": (tuple[int, int], "the figures of each whole army, where the battle "
                     "fields part of it (the 1-in-200 sniper limit)"),
    "reserve_rounds": (int, "the rounds per figure in each corps' ammunition train, 0 to 6"),
}
"""The book's own settings of a battle's start (``new_battle``)."""


def place(unit: Unit, x: float, y: float, facing: float) -> _Footprint:
    """Where a file places a unit: its centre and facing, mm (``positions.footprint``)."""
    return footprint(unit, x, y, facing)


def riding_with(commander: Commander) -> str | None:
    """The unit a commander is with (his mark follows it), or None."""
    return commander.attached_to or None


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: _Mapping[str, _Any]) -> State:
    """The battle a file describes (``new_battle``)."""
    if len(sides) != 2:
        raise _Invalid("side", tuple(sides), "two sides")
    return new_battle((sides[0], sides[1]), units, commanders, seed=seed, options=options,
                      reserve_rounds=setup.get("reserve_rounds", 6),
                      army_figures=setup.get("army_figures"), scenario=scenario, table=table)


def setup_of(state: State) -> dict[str, _Any]:
    """Nothing the state keeps beside its units (army figures are the file's own)."""
    return {}
