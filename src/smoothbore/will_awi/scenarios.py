"""The embedded battles: small actions, each made from a seed and with a turn limit, that
between them bring every part of the rules into play (command and control, works and
demolitions, the '45 and Ireland 1798 variants, second cavalry charges and evasion)."""

from __future__ import annotations

from collections.abc import Callable

from smoothbore.core import Scenario

from .fortifications import Defence, Demolition, Work
from .options import FORTY_FIVE, IRELAND_1798, Options
from .state import State, new_battle
from .units import Commander, Nationality, Rank, TroopType, Unit

BRITISH, AMERICAN = Nationality.BRITISH, Nationality.AMERICAN


def example_battle(seed: int = 0) -> State:
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
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        scenario=Scenario("Hobkirk's Hill", turn_limit=6),
    )


def command_battle(seed: int = 0) -> State:
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
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        options=Options(command_control=True),
        scenario=Scenario("Guilford Courthouse, with command and control", turn_limit=6),
    )


def works_battle(seed: int = 0) -> State:
    """Germantown in miniature: around the Chew House (a large stone building) and a timber
    fieldwork, the 40th Foot, light infantry and guns face Sullivan's brigade, which carries
    tools and has already laid a demolition charge against the fieldwork; six turns. (Who is
    in a building is a fact each action states, W46: the battle does not place units.)"""
    units = (
        Unit("b1", "Delaware Regiment", "American", TroopType.LINE, commander="bw"),
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
    return new_battle(
        ("American", "British"), units, generals, seed=seed, works=works,
        demolitions=(Demolition("fieldwork", "b1", 1),),
        scenario=Scenario("Germantown: the Chew House", turn_limit=6),
    )


def forty_five_battle(seed: int = 0) -> State:
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
    return new_battle(
        ("Jacobite", "Government"), units, generals, seed=seed,
        options=Options(variant=FORTY_FIVE),
        scenario=Scenario("Prestonpans (the '45)", turn_limit=5),
    )


def cavalry_battle(seed: int = 0) -> State:
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
    return new_battle(
        ("British", "American"), units, generals, seed=seed,
        options=Options(evade=True),
        scenario=Scenario("Cowpens", turn_limit=6, players_may_end=True),
    )


def ireland_battle(seed: int = 0) -> State:
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
    return new_battle(
        ("Crown", "United Irish"), units, generals, seed=seed,
        options=Options(variant=IRELAND_1798),
        scenario=Scenario("Vinegar Hill (Ireland 1798)", turn_limit=5),
    )


SCENARIOS: tuple[tuple[str, Callable[[int], State]], ...] = (
    ("command-and-control", command_battle),
    ("germantown", works_battle),
    ("prestonpans", forty_five_battle),
    ("cowpens", cavalry_battle),
    ("vinegar-hill", ireland_battle),
)
"""The embedded battles beside the default ``example_battle``, by name."""
