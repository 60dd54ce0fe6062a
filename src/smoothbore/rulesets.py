"""The built-in rulesets and the default registry (built-ins plus installed entry points)."""

from __future__ import annotations

from smoothbore.core.errors import UnknownRulesetError
from smoothbore.core.registry import Registry, load_reference, normalise
from smoothbore.core.ruleset import Ruleset

__all__ = [
    "BUILTIN_RULESETS",
    "EXAMPLE_RULESETS",
    "available_rulesets",
    "default_registry",
    "get_ruleset",
]

BUILTIN_RULESETS: tuple[tuple[str, str], ...] = (
    ("bloodybacks93", "smoothbore.bloodybacks93:RULESET"),
    ("will_awi", "smoothbore.will_awi:RULESET"),
    ("mckie_acw", "smoothbore.mckie_acw:RULESET"),
    ("boltaction_acw", "smoothbore.boltaction_acw:RULESET"),
)
"""(name, ``"module:ATTRIBUTE"``) of every ruleset shipped with smoothbore."""

EXAMPLE_RULESETS: tuple[tuple[str, str], ...] = (("example", "smoothbore.example:RULESET"),)
"""Rulesets shipped as examples for the writers of rule books (``docs/writing-a-ruleset.md``):
``get_ruleset`` finds them by name, but they are not rule books, so the default registry
(what ``available_rulesets`` and ``smoothbore rulesets`` list) leaves them out."""


def default_registry() -> Registry:
    """The built-in rulesets, then every ruleset installed under the entry-point group."""
    return Registry().with_references(BUILTIN_RULESETS).with_entry_points()


def get_ruleset(name: str, registry: Registry | None = None) -> Ruleset:
    """The ruleset of this name or alias, from ``registry`` or the default one (which also
    finds the examples, ``EXAMPLE_RULESETS``, by their names)."""
    try:
        return (registry or default_registry()).get(name)
    except UnknownRulesetError:
        if registry is None and isinstance(name, str):
            for known, reference in EXAMPLE_RULESETS:
                if normalise(name) == known:
                    return load_reference(reference)
        raise


def available_rulesets(registry: Registry | None = None) -> tuple[Ruleset, ...]:
    """Every ruleset of ``registry`` or the default one."""
    return (registry or default_registry()).all()
