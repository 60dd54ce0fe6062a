"""The layers of DESIGN.md as an import contract (issue 29, item 3).

Every module under ``src/smoothbore`` is read as source (its AST, not imported), and every
import it makes counts: at the top, inside functions, under ``TYPE_CHECKING``, relative, and
``importlib.import_module("...")`` / ``__import__("...")`` with a written name. Imports point
downwards only:

    cli > views > players > battle, simulation, testing > scenario > rulesets
        > the rule books > table > core

``core`` imports nothing of smoothbore above it and never Shapely; ``table`` imports only
``core``; a rule book imports only ``core`` and ``table``, never another book, and never
Shapely (the table is its only geometry). Two allow-lists record today's exceptions; each
fails when an entry no longer holds, so they can only shrink.

An AST walk rather than import-linter: it needs no extra dependency, runs in the plain
suite, reads function-level and ``import_module`` imports, and can fail on an allow-list
entry that has become false, which is how "can only shrink" is enforced.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

BOOKS = frozenset({
    "smoothbore.bloodybacks93", "smoothbore.boltaction_acw", "smoothbore.mckie_acw",
    "smoothbore.will_awi", "smoothbore.example",
})

RANK: dict[str, int] = {
    "smoothbore.core": 0,
    "smoothbore.table": 1,
    **dict.fromkeys(BOOKS, 2),
    "smoothbore.rulesets": 3,
    "smoothbore.scenario": 4,
    "smoothbore.battle": 5,
    "smoothbore.simulation": 5,
    "smoothbore.testing": 5,
    "smoothbore.players": 6,
    "smoothbore.views": 7,
    "smoothbore.cli": 8,
    "smoothbore.__main__": 8,
    "smoothbore": 5,  # the package's names, loaded lazily from core, battle and simulation
}
"""Each part's layer: a module may import its own part and parts of a lower layer only
(the rule books, on one layer, never each other)."""

UPWARD_ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""Imports against the layers that exist today, each to be removed (never added to). Empty
since issue 29: the books describe their embedded battles as data (``core.PackagedBattle``)
and battle finds its words and HTML by reference (``LATE_BOUND``)."""

LATE_BOUND = frozenset({
    # the reader of a book's embedded battle files (``core.PackagedBattle``)
    ("smoothbore.core.ruleset", "smoothbore.scenario.document:packaged"),
    # a step's and a played battle's words and HTML (``Step.narrate``, ``_repr_html_``)
    ("smoothbore.battle", "smoothbore.views"),
})
"""The modules of a higher layer that a lower one names by reference (a written
``module`` or ``module:name`` imported when first used, as the registry names rule books),
never importing them: the declared hooks of the layers. Any other such name in the source
fails ``test_names_of_higher_layers_are_only_the_declared_hooks``; a listed one that is no
longer named fails too, so the list only shrinks."""

NOT_MODULES = frozenset({
    # the entry-point group third-party rule books register under (the same words as the
    # module that lists the built-in books, but a group's name, not an import)
    ("smoothbore.core.registry", "smoothbore.rulesets"),
})
"""Strings that read as a module of a higher layer but name something else."""

SHAPELY_ALLOWED = frozenset({
})
"""The book modules that import Shapely today (issue 29 asks for none)."""


_PARTS = frozenset({*(part.rpartition(".")[2] for part in RANK if "." in part), "example"})
"""The parts of the package, as ``from smoothbore import <part>`` would name one."""


def module_name(path: Path) -> str:
    parts = path.with_suffix("").relative_to(SRC).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module name ``path`` imports, wherever in the file and however written."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            # ``from smoothbore import views`` imports the module smoothbore.views
            found.update(f"{module}.{alias.name}" for alias in node.names
                         if module == "smoothbore" and alias.name in _PARTS)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and _called(node.func) in ("import_module", "__import__")):
            found.add(node.args[0].value)
    return found


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def part_of(module: str) -> str | None:
    """The layer part of a smoothbore module (None: not smoothbore's)."""
    parts = module.split(".")
    if parts[0] != "smoothbore":
        return None
    return ".".join(parts[:2]) if len(parts) > 1 else "smoothbore"


MODULES = {module_name(path): path for path in sorted((SRC / "smoothbore").rglob("*.py"))}
IMPORTS = {name: imports_of(path) for name, path in MODULES.items()}


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The reader itself: top-level, function-level, relative, TYPE_CHECKING and
    import_module imports are all seen (else the contract below could not fail)."""
    package = tmp_path / "smoothbore" / "core"
    package.mkdir(parents=True)
    source = package / "thing.py"
    source.write_text(
        "import numpy\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from smoothbore.views import say\n"
        "def f():\n    from ..table import tabletop\n    import shapely.geometry\n"
        "    return importlib.import_module('smoothbore.battle')\n", "utf-8")
    global SRC
    kept, SRC = SRC, tmp_path
    try:
        assert module_name(source) == "smoothbore.core.thing"
        assert imports_of(source) >= {"numpy", "smoothbore.views", "smoothbore.table",
                                      "shapely.geometry", "smoothbore.battle"}
    finally:
        SRC = kept


def test_every_module_belongs_to_a_layer() -> None:
    """A new part of the package must be given its place in the layers first."""
    unplaced = sorted(name for name in MODULES if part_of(name) not in RANK)
    assert unplaced == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_downwards(name: str) -> None:
    here = part_of(name)
    assert here is not None
    wrong = set()
    for imported in IMPORTS[name]:
        there = part_of(imported)
        if there is None or there == here or (here, there) in UPWARD_ALLOWED:
            continue
        if there not in RANK:
            wrong.add(imported)  # a module that does not exist, or has no layer yet
        elif RANK[there] > RANK[here] or (RANK[there] == RANK[here] and here in BOOKS):
            wrong.add(imported)
    assert sorted(wrong) == [], f"{name} imports above its layer"


def test_core_and_table_layers_in_words() -> None:
    """DESIGN.md, as the issue words it: core imports neither views, simulation, battle nor
    table; the table imports only core."""
    for name, imported in IMPORTS.items():
        parts = {part_of(m) for m in imported} - {None}
        if part_of(name) == "smoothbore.core":
            assert parts <= {"smoothbore.core"}, name
        if part_of(name) == "smoothbore.table":
            assert parts <= {"smoothbore.core", "smoothbore.table"}, name


def _shapely(name: str) -> bool:
    return any(m.split(".")[0] == "shapely" for m in IMPORTS[name])


def test_no_shapely_outside_the_table_but_the_listed_book_modules() -> None:
    users = {name for name in MODULES if _shapely(name)}
    outside = {name for name in users if part_of(name) != "smoothbore.table"}
    assert sorted(outside - SHAPELY_ALLOWED) == []
    assert not any(part_of(name) == "smoothbore.core" for name in users)


@pytest.mark.parametrize("name", sorted(SHAPELY_ALLOWED))
def test_the_shapely_allow_list_only_shrinks(name: str) -> None:
    """A listed module that no longer imports Shapely (or no longer exists) must leave the
    list, so that it can never grow back unseen."""
    assert name in MODULES and _shapely(name), (
        f"{name} no longer imports Shapely: delete it from SHAPELY_ALLOWED in tests/test_layers.py")


@pytest.mark.parametrize("pair", sorted(UPWARD_ALLOWED))
def test_the_upward_allow_list_only_shrinks(pair: tuple[str, str]) -> None:
    here, there = pair
    assert any(part_of(module) == there
               for name, imported in IMPORTS.items() if part_of(name) == here
               for module in imported), (
        f"{here} no longer imports {there}: delete the pair from UPWARD_ALLOWED")


def test_importing_core_loads_neither_the_table_nor_shapely() -> None:
    """``import smoothbore.core`` (and the top package) stays light: checked in a fresh
    interpreter, by the modules it loaded (no clock)."""
    import subprocess
    import sys

    code = ("import sys, smoothbore.core, smoothbore; "
            "from smoothbore.core import odds, Distribution, Engine, BattleState; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('shapely', 'smoothbore')"
            " and not m.startswith('smoothbore.core') and m != 'smoothbore'))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120).stdout.strip()
    assert loaded == "[]"


_REFERENCE = re.compile(r"smoothbore(\.[A-Za-z_]\w*)+(:[A-Za-z_][\w.]*)?")


def references_of(path: Path) -> set[str]:
    """Every string constant of ``path`` that is a smoothbore module name or
    ``module:name`` reference, whole."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and _REFERENCE.fullmatch(node.value)}


REFERENCES = {name: references_of(path) for name, path in MODULES.items()}


def _upward(here: str, module: str) -> bool:
    there = part_of(module)
    if there is None or there == here or there not in RANK:
        return False
    return RANK[there] > RANK[here] or (RANK[there] == RANK[here] and here in BOOKS)


def test_names_of_higher_layers_are_only_the_declared_hooks() -> None:
    """A module may name a higher layer's module in a string only as a declared hook
    (``LATE_BOUND``): a lazy reference is still a dependency, so it is listed, not hidden."""
    named = {(name, reference) for name, found in REFERENCES.items() for reference in found
             if _upward(str(part_of(name)), reference.partition(":")[0])}
    assert sorted(named - LATE_BOUND - NOT_MODULES) == []


@pytest.mark.parametrize("pair", sorted(LATE_BOUND))
def test_the_late_bound_list_only_shrinks(pair: tuple[str, str]) -> None:
    here, reference = pair
    assert reference in REFERENCES.get(here, set()), (
        f"{here} no longer names {reference}: delete it from LATE_BOUND")
    module, _, name = reference.partition(":")
    assert (SRC / module.replace(".", "/")).with_suffix(".py").exists() or (
        SRC / module.replace(".", "/") / "__init__.py").exists()
    if name:
        source = (SRC / module.replace(".", "/")).with_suffix(".py").read_text("utf-8")
        assert f"def {name}(" in source, f"{reference} names nothing"


def test_importing_battle_loads_neither_the_views_nor_the_table() -> None:
    """``import smoothbore.battle`` (play, replay, records) loads no view, no table and no
    Shapely: the views are found by reference when a step is narrated or shown."""
    import subprocess
    import sys

    code = ("import sys, smoothbore.battle; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'shapely' "
            "or m.startswith(('smoothbore.views', 'smoothbore.table'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120).stdout.strip()
    assert loaded == "[]"
