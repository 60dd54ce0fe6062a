"""The built-in rulesets and the default registry (built-ins plus installed entry points)."""

from __future__ import annotations

from smoothbore.core.registry import Registry
from smoothbore.core.ruleset import Ruleset

__all__ = ["BUILTIN_RULESETS", "available_rulesets", "default_registry", "get_ruleset"]

BUILTIN_RULESETS: tuple[tuple[str, str], ...] = (
    ("bloodybacks93", "smoothbore.bloodybacks93:RULESET"),
    ("will_awi", "smoothbore.will_awi:RULESET"),
    ("mckie_acw", "smoothbore.mckie_acw:RULESET"),
    ("boltaction_acw", "smoothbore.boltaction_acw:RULESET"),
)
"""(name, ``"module:ATTRIBUTE"``) of every ruleset shipped with smoothbore."""


def default_registry() -> Registry:
    """The built-in rulesets, then every ruleset installed under the entry-point group."""
    return Registry().with_references(BUILTIN_RULESETS).with_entry_points()


def get_ruleset(name: str, registry: Registry | None = None) -> Ruleset:
    """The ruleset of this name or alias, from ``registry`` or the default one."""
    return (registry or default_registry()).get(name)


def available_rulesets(registry: Registry | None = None) -> tuple[Ruleset, ...]:
    """Every ruleset of ``registry`` or the default one."""
    return (registry or default_registry()).all()
