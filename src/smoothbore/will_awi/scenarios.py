"""The embedded battles: small actions, each made from a seed and with a turn limit, that
between them bring every part of the rules into play (command and control, works and
demolitions, the '45 and Ireland 1798 variants, second cavalry charges and evasion)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from smoothbore.core import Scenario
from smoothbore.table import CommanderMark, Edge, Feature, Table

from .fortifications import Defence, Demolition, Work
from .options import FORTY_FIVE, IRELAND_1798, Options
from .positions import BASE, Place, deploy
from .state import State, new_battle
from .units import Commander, Nationality, Rank, TroopType, Unit

BRITISH, AMERICAN = Nationality.BRITISH, Nationality.AMERICAN

WIDTH, DEPTH = 48.0, 36.0
"""The embedded battles' table: 4' x 3'."""
NEAR_LINE, FAR_LINE = 8.0, 28.0
"""Where the two sides' lines stand: 20" apart centre to centre, about 18" between their
fronts, beyond musket and rifle range (they must move before they shoot; guns may open at
medium or long range)."""


def _lines(units: tuple[Unit, ...], near: str, *, gap: float = 8.0) -> dict[str, Place]:
    """Each side's units abreast across the middle of the table, ``gap`` apart: ``near``
    at the near line facing up the table, the other at the far line facing down it."""
    places: dict[str, Place] = {}
    for is_near, y, facing in ((True, NEAR_LINE, 0.0), (False, FAR_LINE, 180.0)):
        own = [u for u in units if (u.side == near) is is_near]
        start = WIDTH / 2 - gap * (len(own) - 1) / 2
        for i, unit in enumerate(own):
            places[unit.id] = (start + gap * i, y, facing)
    return places


BEHIND = 4.0
"""How far behind the middle of his side's line a general riding alone starts (and 2"
apart when several do)."""


def _marks(generals: tuple[Commander, ...], near: str) -> tuple[CommanderMark, ...]:
    """Each general on the table: with the unit he starts with, or alone behind the middle
    of his side's line."""
    marks: list[CommanderMark] = []
    alone: dict[str, int] = {}
    for g in generals:
        if g.attached_to:
            marks.append(CommanderMark(g.id, attached_to=g.attached_to, side=g.side,
                                       label=g.name))
            continue
        n = alone[g.side] = alone.get(g.side, -1) + 1
        y = NEAR_LINE - BEHIND if g.side == near else FAR_LINE + BEHIND
        marks.append(CommanderMark(g.id, WIDTH / 2 + 2.0 * n, y, side=g.side, label=g.name))
    return tuple(marks)


def _table(units: tuple[Unit, ...], generals: tuple[Commander, ...], near: str, far: str,
           features: tuple[Feature, ...], behind: Mapping[str, str] | None = None,
           forward: Mapping[str, Place] | None = None) -> Table:
    """The battle's table: the units in their lines (those of ``forward`` at their own
    places instead), and each unit of ``behind`` (a wagon, by id) close behind the unit it
    follows (its value: 0.5" between them)."""
    behind = behind or {}
    places = {**_lines(tuple(u for u in units if u.id not in behind), near), **(forward or {})}
    for follower, leader in behind.items():
        x, y, facing = places[leader]
        back = BASE / 2 + 0.5 + BASE  # the leader's half depth, the gap, a wagon's half
        places[follower] = (x, y - back if facing == 0.0 else y + back, facing)
    return deploy(units, places, width=WIDTH, depth=DEPTH, features=features,
                  home_edges={near: Edge.NEAR, far: Edge.FAR}).with_commanders(
                      *_marks(generals, near))


@attrs.frozen
class WithoutTable:
    """The same battle measured by the players (no table: ``on_table=False``). A module-level
    callable, not a closure, so that the ruleset pickles by name (issue 27)."""

    battle: Callable[..., State]

    def __call__(self, seed: int = 0) -> State:
        return self.battle(seed, on_table=False)


def without_table(battle: Callable[..., State]) -> Callable[[int], State]:
    """The same battle measured by the players (a ``WithoutTable``)."""
    return WithoutTable(battle)


def example_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Hobkirk's Hill in miniature: a British foot regiment and dragoons under a capable
    general against Continentals, militia and a light gun under a brigadier, at the start of
    the British move; six turns."""
    units = (
        Unit("r1", "23rd Foot", "British", TroopType.LINE, BRITISH, commander="rg"),
        Unit("r2", "17th Light Dragoons", "British", TroopType.LIGHT_CAVALRY, BRITISH,
             commander="rg"),
        Unit("b1", "1st Maryland", "American", TroopType.LINE, commander="bg"),
        Unit("b2", "North Carolina Militia", "American", TroopType.MILITIA, commander="bg"),
        Unit("b3", "Continental Artillery", "American", TroopType.LIGHT_GUN, commander="bg"),
    )
    generals = (
        Commander("rg", "Lord Rawdon", "British", rating=8),
        Commander("bg", "Greene", "American", Rank.BRIGADIER, attached_to="b1"),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature.rectangle("hobkirks-hill", "gentle hill", 24, 31, 40, 8,
                              label="Hobkirk's Hill"),
            Feature.rectangle("pine-woods", "dense woods", 5, 18, 8, 10, label="pine woods"),
            Feature("pine-tree-creek", "river", line=((16, 19), (48, 19)), width=1.5,
                    label="Pine Tree Creek"),
            Feature("creek-ford", "ford", line=((30, 19), (34, 19)), width=2.0, label="ford"),
        )
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        scenario=Scenario("Hobkirk's Hill", turn_limit=6),
        table=_table(units, generals, "British", "American", ground()) if on_table else None,
    )


def command_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Guilford Courthouse in miniature, played with command and control (the March 2008
    post): Webster's brigade (under Cornwallis, who may order it too) against Stevens's
    militia line with Continentals and riflemen, whose units test alone when their brigadier
    fails; six turns."""
    units = (
        Unit("r1", "23rd Foot", "British", TroopType.LINE, BRITISH, commander="rb"),
        Unit("r2", "33rd Foot", "British", TroopType.LINE, BRITISH, commander="rb"),
        Unit("r3", "Guards Light Infantry", "British", TroopType.LIGHT_INFANTRY, BRITISH,
             commander="rb"),
        Unit("b1", "North Carolina Militia", "American", TroopType.MILITIA, commander="bb"),
        Unit("b2", "Virginia Militia", "American", TroopType.MILITIA, militia_morale=2,
             commander="bb"),
        Unit("b3", "1st Maryland", "American", TroopType.LINE, commander="bb"),
        Unit("b4", "Virginia Riflemen", "American", TroopType.RIFLEMEN, commander="bb"),
    )
    generals = (
        Commander("rc", "Cornwallis", "British", Rank.SENIOR, rating=9, attached_to="r1"),
        Commander("rb", "Webster", "British", rating=8, superior="rc"),
        Commander("bb", "Stevens", "American", rating=6),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature("rail-fence", "fence", line=((6, 26.4), (42, 26.4)), label="rail fence"),
            Feature.rectangle("left-woods", "light woods", 5, 18, 8, 12, label="woods"),
            Feature.rectangle("right-woods", "light woods", 43, 18, 8, 12, label="woods"),
            Feature("little-horsepen", "stream", line=((0, 14), (48, 15)), label="Little Horsepen"),
        )
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        options=Options(command_control=True),
        scenario=Scenario("Guilford Courthouse, with command and control", turn_limit=6),
        table=_table(units, generals, "British", "American", ground()) if on_table else None,
    )


LAYERS_AT_WORK: Place = (12.0, 24.5 - 0.5 - BASE / 2, 0.0)
"""Where the Delaware Regiment stands at Germantown, having laid its charge: its front edge
0.5" short of the fieldwork's line (y 24.5), within the 1" at which a unit works at a work on
a table (``situations.AT_WORK``, W49), its right flank 0.2" short of the line's west end."""

WAGON_AT_WORK: Place = (12.0 - BASE - 0.5 - BASE / 2, 24.5 - 0.5 - BASE, 0.0)
"""Where the Delaware's tool wagon stands: 0.5" off its left flank, its front level with the
regiment's (within the 1" of W35), leaving the way back clear for the move away."""


def works_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Germantown in miniature: around the Chew House (a large stone building) and a timber
    fieldwork, the 40th Foot, light infantry and guns face Sullivan's brigade, which carries
    tools and has already laid a demolition charge against the fieldwork; six turns. (Who is
    in a building is a fact each action states, W46: the battle does not place units.) On a
    table the Delaware Regiment, which laid the charge, stands at the fieldwork
    (``LAYERS_AT_WORK``); the brigade's tools and charges are in its wagon, beside the
    Delaware (``WAGON_AT_WORK``, W35)."""
    units = (
        Unit("b1", "Delaware Regiment", "American", TroopType.LINE, commander="bw"),
        Unit("b5", "Sullivan's tool wagon", "American", TroopType.WAGON, commander="bw"),
        Unit("b2", "3rd Virginia", "American", TroopType.LINE, commander="bw"),
        Unit("b3", "Knox's Artillery", "American", TroopType.MEDIUM_GUN, commander="bw"),
        Unit("b4", "Pennsylvania Militia", "American", TroopType.MILITIA, commander="bw"),
        Unit("r1", "40th Foot", "British", TroopType.LINE, BRITISH, commander="rm"),
        Unit("r2", "2nd Light Infantry", "British", TroopType.LIGHT_INFANTRY, BRITISH,
             commander="rm"),
        Unit("r3", "Royal Artillery", "British", TroopType.LIGHT_GUN, BRITISH, commander="rm"),
    )
    generals = (
        Commander("bw", "Sullivan", "American", rating=7),
        Commander("rm", "Musgrave", "British", rating=8, attached_to="r1"),
    )
    works = (
        Defence.new(Work.LARGE_STONE_BUILDING, "chew"),
        Defence.new(Work.TIMBER_FIELDWORK, "fieldwork"),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature.rectangle("chew", "building", 36, 22, 100 / 25.4, 100 / 25.4, strength=12,
                              label="Chew House"),
            Feature("fieldwork", "fieldwork", line=((14, 24.5), (24, 24.5)), strength=4,
                    label="timber fieldwork"),
            Feature("garden-wall", "wall", line=((31, 19), (41, 19)), label="garden wall"),
            Feature.rectangle("orchard", "light woods", 8, 16, 8, 8, label="orchard"),
        )
    return new_battle(
        ("American", "British"), units, generals, seed=seed, works=works,
        demolitions=(Demolition("fieldwork", "b1", 1),),
        scenario=Scenario("Germantown: the Chew House", turn_limit=6),
        table=_table(units, generals, "American", "British", ground(),
                     forward={"b1": LAYERS_AT_WORK, "b5": WAGON_AT_WORK})
        if on_table else None,
    )


def forty_five_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Prestonpans in miniature (Battles of the '45): three clan regiments, one already in a
    Highland charge, against two British line battalions, slow dragoons and a gun; five
    turns."""
    units = (
        Unit("j1", "Camerons", "Jacobite", TroopType.HIGHLANDERS, Nationality.JACOBITE,
             highland_charge=True, commander="jg"),
        Unit("j2", "Appin Stewarts", "Jacobite", TroopType.HIGHLANDERS, Nationality.JACOBITE,
             commander="jg"),
        Unit("j3", "MacDonalds of Keppoch", "Jacobite", TroopType.HIGHLANDERS,
             Nationality.JACOBITE, commander="jg"),
        Unit("h1", "Lee's Foot", "Government", TroopType.LINE, BRITISH, morale_bonus=1,
             commander="hg"),
        Unit("h2", "Murray's Foot", "Government", TroopType.LINE, BRITISH, fire_bonus=1,
             commander="hg"),
        Unit("h3", "Gardiner's Dragoons", "Government", TroopType.LIGHT_CAVALRY, BRITISH,
             commander="hg"),
        Unit("h4", "Royal Artillery", "Government", TroopType.LIGHT_GUN, BRITISH,
             commander="hg"),
    )
    generals = (
        Commander("jg", "Lord George Murray", "Jacobite", Rank.SENIOR, attached_to="j1"),
        Commander("hg", "Sir John Cope", "Government", rating=6),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature.rectangle("tranent-meadows", "swamp", 6, 18, 10, 8, label="Tranent meadows"),
            Feature("bankton-wall", "wall", line=((38, 14), (48, 14)), label="Bankton park wall"),
            Feature("coal-waggonway", "road", line=((0, 4), (48, 4)), width=1.0,
                    label="waggonway"),
        )
    return new_battle(
        ("Jacobite", "Government"), units, generals, seed=seed,
        options=Options(variant=FORTY_FIVE),
        scenario=Scenario("Prestonpans (the '45)", turn_limit=5),
        table=_table(units, generals, "Jacobite", "Government", ground()) if on_table else None,
    )


def cavalry_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Cowpens in miniature, with evasion allowed: Tarleton's dragoons and light infantry
    against Washington's dragoons, riflemen and Continentals; either commander may break off
    from the second turn; six turns."""
    units = (
        Unit("r1", "British Legion Dragoons", "British", TroopType.LIGHT_CAVALRY,
             Nationality.LOYALIST, commander="rt"),
        Unit("r2", "17th Light Dragoons", "British", TroopType.LIGHT_CAVALRY, BRITISH,
             commander="rt"),
        Unit("r3", "71st Highlanders (light companies)", "British", TroopType.LIGHT_INFANTRY,
             BRITISH, commander="rt"),
        Unit("r4", "7th Foot", "British", TroopType.LINE, BRITISH, commander="rt"),
        Unit("b1", "Washington's Dragoons", "American", TroopType.LIGHT_CAVALRY,
             commander="bm"),
        Unit("b2", "Virginia Riflemen", "American", TroopType.RIFLEMEN, commander="bm"),
        Unit("b3", "Maryland Continentals", "American", TroopType.LINE, commander="bm"),
        Unit("b4", "Carolina Militia", "American", TroopType.MILITIA, commander="bm"),
    )
    generals = (
        Commander("rt", "Tarleton", "British", rating=8, attached_to="r1"),
        Commander("bm", "Morgan", "American", rating=9),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature.rectangle("first-rise", "gentle hill", 24, 30, 30, 6, label="first rise"),
            Feature.rectangle("left-trees", "light woods", 4, 20, 7, 10, label="open woods"),
            Feature.rectangle("cane-brake", "rough ground", 44, 16, 7, 8, label="cane brake"),
            Feature("green-river-road", "road", line=((24, 0), (24, 36)), width=1.0,
                    label="Green River road"),
        )
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        options=Options(evade=True),
        scenario=Scenario("Cowpens", turn_limit=6, players_may_end=True),
        table=_table(units, generals, "British", "American", ground()) if on_table else None,
    )


def ireland_battle(seed: int = 0, *, on_table: bool = True) -> State:
    """Vinegar Hill in miniature (Ireland 1798): rebel pikemen and musketeers against
    Crown line, yeomanry cavalry and guns; five turns."""
    units = (
        Unit("c1", "Crown line", "Crown", TroopType.LINE, BRITISH, commander="cg"),
        Unit("c2", "Yeomanry cavalry", "Crown", TroopType.LIGHT_CAVALRY, BRITISH,
             commander="cg"),
        Unit("c3", "Royal Irish Artillery", "Crown", TroopType.MEDIUM_GUN, BRITISH,
             commander="cg"),
        Unit("i1", "Wexford pikemen", "United Irish", TroopType.PIKEMEN, Nationality.IRISH,
             commander="ig"),
        Unit("i2", "Shelmalier pikemen", "United Irish", TroopType.PIKEMEN,
             Nationality.IRISH, commander="ig"),
        Unit("i3", "Rebel musketeers", "United Irish", TroopType.MILITIA,
             Nationality.IRISH, commander="ig"),
    )
    generals = (
        Commander("cg", "Lake", "Crown", rating=8),
        Commander("ig", "Father Murphy", "United Irish", rating=7, attached_to="i1"),
    )
    def ground() -> tuple[Feature, ...]:  # built only for a table
        return (
            Feature.rectangle("vinegar-hill", "steep hill", 24, 31, 30, 8, label="Vinegar Hill"),
            Feature("stream", "stream", line=((0, 17), (48, 18)), label="stream"),
            Feature("ford", "ford", line=((22, 17.4), (26, 17.6)), width=2.0, label="ford"),
            Feature.rectangle("enniscorthy", "building", 42, 10, 100 / 25.4, 50 / 25.4,
                              label="Enniscorthy"),
        )
    return new_battle(
        ("Crown", "United Irish"), units, generals, seed=seed,
        options=Options(variant=IRELAND_1798),
        scenario=Scenario("Vinegar Hill (Ireland 1798)", turn_limit=5),
        table=_table(units, generals, "Crown", "United Irish", ground()) if on_table else None,
    )


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("command-and-control", command_battle),
    ("germantown", works_battle),
    ("prestonpans", forty_five_battle),
    ("cowpens", cavalry_battle),
    ("vinegar-hill", ireland_battle),
    ("default-no-table", without_table(example_battle)),
    ("command-and-control-no-table", without_table(command_battle)),
    ("germantown-no-table", without_table(works_battle)),
    ("prestonpans-no-table", without_table(forty_five_battle)),
    ("cowpens-no-table", without_table(cavalry_battle)),
    ("vinegar-hill-no-table", without_table(ireland_battle)),
)
"""The embedded battles beside the default ``example_battle``, by name: each on its table,
and the same battle measured by the players (``<name>-no-table``)."""


# --- scenario words: what smoothbore.scenario needs of this book ------------------------------
from typing import Any as _Any  # noqa: E402

from smoothbore.core.errors import InvalidValueError as _Invalid  # noqa: E402
from smoothbore.table import Footprint as _Footprint  # noqa: E402

from .options import Variant as _Variant  # noqa: E402
from .options import variant_named as _variant_named  # noqa: E402
from .positions import footprint as _footprint  # noqa: E402

UNIT = Unit
COMMANDER = Commander
OPTIONS = Options


def _read_variant(word: _Any) -> _Variant:
    """A variant by its name: base, ireland1798 or fortyfive."""
    if not isinstance(word, str):
        raise _Invalid("variant", word, "base, ireland1798 or fortyfive")
    return _variant_named(word)


OPTIONS_CODECS = {"variant": (_read_variant, lambda v: v.name)}
SETUP: Mapping[str, tuple[_Any, str]] = {
    "works": (tuple[Defence, ...], "the works on the table at the start (W46-W49): "
              "{ work, points, id }"),
    "demolitions": (tuple[Demolition, ...], "charges already laid against a work (W49): "
                    "{ work, unit, charges }"),
}
"""The book's own settings of a battle's start: works and demolitions under way."""


def place(unit: Unit, x: float, y: float, facing: float) -> _Footprint:
    """Where a file places a unit: its centre and facing (``positions.footprint``)."""
    return _footprint(unit, x, y, facing)


def riding_with(commander: Commander) -> str | None:
    """The unit a general is with (his mark follows it), or None."""
    return commander.attached_to or None


def start(sides: tuple[str, ...], units: tuple[Unit, ...], commanders: tuple[Commander, ...],
          *, seed: int, options: Options, scenario: Scenario, table: Table | None,
          setup: Mapping[str, _Any]) -> State:
    """The battle a file describes (``new_battle``), the first side moving first."""
    if len(sides) != 2:
        raise _Invalid("side", tuple(sides), "two sides")
    return new_battle((sides[0], sides[1]), units, commanders, seed=seed, options=options,
                      works=setup.get("works", ()), demolitions=setup.get("demolitions", ()),
                      scenario=scenario, table=table)


def setup_of(state: State) -> dict[str, _Any]:
    """The works and the demolitions under way, where there are any."""
    out: dict[str, _Any] = {}
    if state.extra.works:
        out["works"] = state.extra.works
    if state.extra.demolitions:
        out["demolitions"] = state.extra.demolitions
    return out
