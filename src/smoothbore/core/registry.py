"""The ruleset registry: one explicit, immutable registry, extended by the entry-point group
``smoothbore.rulesets`` for third-party rulesets."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points

import attrs

from smoothbore.core.errors import InvalidValueError, SmoothboreError, UnknownRulesetError
from smoothbore.core.ruleset import Ruleset

__all__ = ["ENTRY_POINT_GROUP", "Registry", "load_reference", "normalise"]

ENTRY_POINT_GROUP = "smoothbore.rulesets"
"""Third-party packages register a ruleset under this entry-point group; the entry point names
a ``Ruleset`` or a function of no arguments that returns one."""

Loader = Callable[[], Ruleset]


def normalise(name: str) -> str:
    """Ruleset names compare case-blind, with ``-`` and ``_`` alike."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidValueError("ruleset", name, "a ruleset name (non-empty text)")
    return name.strip().lower().replace("-", "_")


def load_reference(reference: str) -> Ruleset:
    """Load ``"package.module:ATTRIBUTE"``, a Ruleset or a function returning one."""
    if not isinstance(reference, str) or not reference.partition(":")[0].strip():
        raise InvalidValueError("ruleset", reference, "a name or package.module:ATTRIBUTE")
    module_name, _, attribute = reference.partition(":")
    try:
        value: object = importlib.import_module(module_name)
        for part in (attribute or "RULESET").split("."):
            value = getattr(value, part)
    except SmoothboreError:
        raise
    except Exception as error:  # an import that fails, for any reason, is a bad reference
        raise InvalidValueError(
            "ruleset", reference, f"an importable package.module:ATTRIBUTE ({error!r})"
        ) from None
    return _as_ruleset(value, reference)


def _as_ruleset(value: object, where: str) -> Ruleset:
    if callable(value) and not isinstance(value, Ruleset):
        try:
            value = value()
        except SmoothboreError:
            raise
        except Exception as error:
            raise InvalidValueError(
                "ruleset entry point", where, f"a function that returns a Ruleset ({error!r})"
            ) from None
    if not isinstance(value, Ruleset):
        raise InvalidValueError(
            "ruleset entry point", where, "a Ruleset or a function returning one"
        )
    return value


@attrs.frozen
class _EntryPointLoader:
    """Loads an installed entry point's ruleset (a module-level callable, not a closure, so
    that a registry pickles)."""

    entry_point: EntryPoint

    def __call__(self) -> Ruleset:
        point = self.entry_point
        return _as_ruleset(point.load(), f"{point.name} = {point.value}")


@attrs.frozen
class _Given:
    """A ruleset given as itself (``Registry.with_ruleset``), as a loader that pickles."""

    ruleset: Ruleset

    def __call__(self) -> Ruleset:
        return self.ruleset


def _entry_point_loader(entry_point: EntryPoint) -> Loader:
    return _EntryPointLoader(entry_point)


@attrs.frozen
class Registry:
    """Rulesets by name, loaded on first use. Adding one gives a new registry."""

    loaders: tuple[tuple[str, Loader], ...] = ()

    def with_ruleset(self, ruleset: Ruleset) -> Registry:
        """This registry with ``ruleset`` added (replacing one of the same name)."""
        return self.with_loader(ruleset.name, _Given(ruleset))

    def with_loader(self, name: str, loader: Loader) -> Registry:
        """This registry with a lazily loaded ruleset added (replacing one of the same name)."""
        key = normalise(name)
        kept = tuple((n, f) for n, f in self.loaders if n != key)
        return Registry((*kept, (key, loader)))

    def with_references(self, references: Iterable[tuple[str, str]]) -> Registry:
        """This registry with (name, ``"module:ATTRIBUTE"``) pairs added."""
        registry = self
        for name, reference in references:
            registry = registry.with_loader(name, functools.partial(load_reference, reference))
        return registry

    def with_entry_points(self, group: str = ENTRY_POINT_GROUP) -> Registry:
        """This registry with every ruleset installed under the entry-point group. Built-in
        names are kept: an entry point cannot shadow them."""
        registry = self
        known = set(self.names())
        for entry_point in entry_points(group=group):
            if normalise(entry_point.name) not in known:
                registry = registry.with_loader(entry_point.name, _entry_point_loader(entry_point))
        return registry

    def names(self) -> tuple[str, ...]:
        """The registered names, in registration order."""
        return tuple(name for name, _ in self.loaders)

    def get(self, name: str) -> Ruleset:
        """The ruleset of this name or alias; an unknown name lists the available ones and
        the one it most likely meant (``bolt``: did you mean ``boltaction``?)."""
        key = normalise(name)
        for registered, loader in self.loaders:
            if registered == key:
                return loader()
        rulesets = self.all()
        for ruleset in rulesets:
            if key in (normalise(alias) for alias in ruleset.aliases):
                return ruleset
        listed = tuple(
            f"{r.name} (also {', '.join(r.aliases)})" if r.aliases else r.name for r in rulesets)
        raise UnknownRulesetError(name, listed or self.names())  # with "did you mean"

    def all(self) -> tuple[Ruleset, ...]:
        """Every registered ruleset, loaded."""
        rulesets = []
        for name, loader in self.loaders:
            try:
                rulesets.append(loader())
            except SmoothboreError:
                raise
            except Exception as error:
                raise InvalidValueError(
                    "ruleset", name, f"an importable ruleset (loading failed: {error!r})"
                ) from error
        return tuple(rulesets)
