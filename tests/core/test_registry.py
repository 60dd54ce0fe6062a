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


# --- suggestions, loaders that fail, entry points that would shadow a built-in ----------------
def test_a_near_miss_is_suggested_and_a_far_one_is_not() -> None:
    from smoothbore.core.errors import suggest

    known = ["bloodybacks93", "will_awi"]
    assert suggest("Bloodyback93", known) == "bloodybacks93"
    assert suggest("wil-awi", known) == "will_awi"
    assert suggest("will-awi", known) is None  # the same name spelled otherwise
    assert suggest("napoleon", known) is None
    assert suggest(93, known) is None
    error = InvalidValueError("ruleset", "wil_awi", "one of bloodybacks93, will_awi")
    assert str(error).endswith("; did you mean 'will_awi'?")
    assert (error.field, error.value) == ("ruleset", "wil_awi")
    same = InvalidValueError("ruleset", "WILL-AWI", "one of bloodybacks93, will_awi")
    assert "did you mean" not in str(same)


def test_an_unknown_name_close_to_an_alias_suggests_the_ruleset() -> None:
    registry = Registry().with_ruleset(TOY)
    with pytest.raises(UnknownRulesetError) as caught:
        registry.get("toy-rulez")
    assert str(caught.value).endswith("did you mean 'toy'?")
    assert "toy (also toy-rules, TR)" in str(caught.value)


def _library_error() -> Ruleset:
    raise InvalidValueError("ruleset option", "x", "something the toy accepts")


def _not_a_ruleset() -> object:
    return 42


def test_a_loader_that_fails_is_reported_under_its_registered_name() -> None:
    def broken() -> Ruleset:
        raise RuntimeError("disk on fire")

    registry = Registry().with_ruleset(TOY).with_loader("Broken", broken)
    with pytest.raises(InvalidValueError) as caught:
        registry.all()
    assert (caught.value.field, caught.value.value) == ("ruleset", "broken")
    assert "loading failed: RuntimeError('disk on fire')" in caught.value.allowed
    assert registry.get("toy") is TOY  # the others still load by name


@pytest.mark.parametrize(
    ("reference", "field", "allowed"),
    [
        ("tests.core.test_registry:_library_error", "ruleset option", "something the toy"),
        ("tests.core.test_registry:_not_a_ruleset", "ruleset entry point",
         "a Ruleset or a function returning one"),
    ],
)
def test_references_that_give_no_ruleset(reference: str, field: str, allowed: str) -> None:
    """A library error raised while loading passes through unchanged; a function that gives
    something other than a Ruleset is refused, naming the reference."""
    with pytest.raises(InvalidValueError) as caught:
        load_reference(reference)
    assert caught.value.field == field
    assert caught.value.allowed.startswith(allowed)


def test_an_entry_point_cannot_shadow_a_registered_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import EntryPoint

    from smoothbore.core import registry as registry_module

    points = (
        EntryPoint("TOY", "tests.core.test_registry:_not_a_ruleset", ENTRY_POINT_GROUP),
        EntryPoint("extra", "tests.core.test_registry:TOY", ENTRY_POINT_GROUP),
    )
    monkeypatch.setattr(registry_module, "entry_points", lambda group: points)
    registry = Registry().with_ruleset(TOY).with_entry_points()
    assert registry.names() == ("toy", "extra")
    assert registry.get("toy") is TOY and registry.get("extra") is TOY


def test_a_registry_pickles_with_its_rulesets_and_references() -> None:
    """Issue 28 (worker processes get what they run by pickling): ``with_ruleset`` kept a
    closure, which pickle cannot find by name."""
    import pickle

    from smoothbore.core.registry import Registry
    from tests import toy_ruleset as toy

    registry = Registry().with_ruleset(toy.RULESET).with_references(
        [("will_awi", "smoothbore.will_awi:RULESET")])
    again = pickle.loads(pickle.dumps(registry))
    assert again.names() == ("toy", "will_awi")
    assert again.get("will_awi").name == "will_awi" and again.get("toy").name == "toy"
