"""Registry: explicit registration, aliases, unknown names, entry-point discovery."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from smoothbore import get_ruleset
from smoothbore.core import (
    ENTRY_POINT_GROUP,
    InvalidValueError,
    Mechanism,
    Parameter,
    Phase,
    Registry,
    Ruleset,
    UnknownRulesetError,
)
from smoothbore.core.catalogue import pool
from smoothbore.core.registry import load_reference
from smoothbore.rulesets import BUILTIN_RULESETS, default_registry

TOY = Ruleset(
    name="toy",
    title="Toy Rules",
    period="none",
    edition="1",
    aliases=("toy-rules", "TR"),
    dice=("d12",),
    phases=(Phase("act", "Toy 1", "everybody acts"),),
    mechanisms=(Mechanism("pool", "a pool", "Toy 2", pool, (Parameter("need", int, 7, "need"),)),),
)


def test_explicit_registry_and_aliases() -> None:
    registry = Registry().with_ruleset(TOY)
    assert registry.names() == ("toy",)
    assert registry.get("TOY") is TOY
    assert registry.get("toy_rules") is TOY
    assert registry.get("tr") is TOY
    assert TOY.mechanism("POOL").parameter("need").parse("5") == 5


def test_unknown_name_lists_the_available_ones() -> None:
    registry = Registry().with_ruleset(TOY)
    with pytest.raises(UnknownRulesetError, match="allowed is one of toy") as caught:
        registry.get("napoleon")
    assert isinstance(caught.value, LookupError)
    with pytest.raises(UnknownRulesetError, match="napoleon"):
        get_ruleset("napoleon")


def test_every_builtin_loads() -> None:
    registry = default_registry()
    for name, _ in BUILTIN_RULESETS:
        ruleset = registry.get(name)
        assert ruleset.name == name
        assert ruleset.mechanisms


def test_parameter_parsing_errors() -> None:
    flag = Parameter("over", bool, False, "flag")
    assert flag.parse("yes") is True
    with pytest.raises(InvalidValueError, match="over='maybe'"):
        flag.parse("maybe")
    with pytest.raises(InvalidValueError, match="int, bool, str, float or Enum"):
        Parameter("x", list, [], "no lists")
    with pytest.raises(InvalidValueError, match="one of a, b"):
        Parameter("c", str, "a", "choice", ("a", "b")).parse("z")
    distance = Parameter("distance", float, 0.0, "inches", low=0, high=24)
    assert distance.parse("6.5") == 6.5
    for bad in ("nan", "inf", "-1", "24.5", "far"):
        with pytest.raises(InvalidValueError, match=f"distance='?{bad}'?.*from 0 to 24"):
            distance.parse(bad)


def test_toy_ruleset_installed_through_entry_point_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "toy_smoothbore_rules.py").write_text(textwrap.dedent("""
        from smoothbore.core import Phase, Ruleset
        RULESET = Ruleset(
            name="toyrules", title="Toy", period="none", edition="1",
            aliases=("toy-alias",), dice=("d6",),
            phases=(Phase("only", "Toy 1", "one phase"),), mechanisms=(),
        )
    """))
    info = tmp_path / "toy_smoothbore_rules-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-smoothbore-rules\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\ntoyrules = toy_smoothbore_rules:RULESET\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = default_registry()
    assert "toyrules" in registry.names()
    assert registry.get("toy-alias").title == "Toy"
    assert get_ruleset("toyrules").name == "toyrules"


@pytest.mark.parametrize("name", [None, "", "   ", 7])
def test_a_name_that_is_not_text_is_refused(name: object) -> None:
    registry = Registry().with_ruleset(TOY)
    with pytest.raises(InvalidValueError, match=r"ruleset=.* a ruleset name"):
        registry.get(name)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match=r"ruleset="):
        registry.with_loader(name, lambda: TOY)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("reference", "message"),
    [("no_such_module_x:RULESET", "ModuleNotFoundError"), ("json:nothing", "AttributeError"),
     (":RULESET", "a name or package.module"), ("json:dumps", "a function that returns")],
)
def test_bad_references_are_library_errors(reference: str, message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        load_reference(reference)
