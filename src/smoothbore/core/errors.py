"""The library's exception hierarchy: every error smoothbore raises derives from SmoothboreError."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

__all__ = [
    "EnumerationLimitError",
    "IllegalActionError",
    "InvalidValueError",
    "LoadError",
    "ReplayMismatchError",
    "SmoothboreError",
    "UnknownRulesetError",
    "suggest",
]


def _spelled(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def suggest(word: object, known: Iterable[str]) -> str | None:
    """The known name a mistyped one most likely meant (case-blind, ``-``, ``_`` and spaces
    alike): the closest spelling (``cowpen`` -> ``cowpens``), else the one name it begins
    (``bolt`` -> ``boltaction``, the shortest when the others begin with it), else the one
    name it is a word of (``woods`` -> ``woods-or-soft-cover``); None when ``word`` is not
    text, is itself known, or nothing (or more than one name) fits."""
    if not isinstance(word, str) or not _spelled(word):
        return None
    typed = _spelled(word)
    names = list(dict.fromkeys(name for name in known if isinstance(name, str)))
    spelled = {name: _spelled(name) for name in names}
    if typed in spelled.values():
        return None
    by_spelling = {s: n for n, s in reversed(spelled.items())}
    close = difflib.get_close_matches(typed, list(by_spelling), n=1, cutoff=0.6)
    if close:
        return by_spelling[close[0]]
    begun = [n for n in names if spelled[n].startswith(typed)]
    if begun:
        shortest = min(begun, key=len)
        if all(spelled[n].startswith(spelled[shortest]) for n in begun):
            return shortest
        return None
    parts = [n for n in names if typed in spelled[n].split("-")]
    return parts[0] if len(parts) == 1 else None


_ONE_OF = "one of "


def _listed(allowed: str) -> tuple[str, ...]:
    """The names an ``allowed`` of the form "one of a, b (also c), d" lists (quotes off:
    "one of 'line', 'column'")."""
    if not allowed.startswith(_ONE_OF):
        return ()
    words = (word.strip("'\"") for word in re.split(r"[,()\s]+", allowed[len(_ONE_OF):]))
    return tuple(word for word in words if word and word not in ("also", "or", "and"))


class SmoothboreError(Exception):
    """Base of every error raised by smoothbore."""


class InvalidValueError(SmoothboreError, ValueError):
    """A value outside what the rules allow: names the field, the value and what is allowed.
    A name refused where ``allowed`` lists the names ("one of a, b, c") is answered with
    the one it most likely meant (``suggestion``, added to the message as "did you mean
    ...?"), worked out only when the message is read."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field}={value!r} is invalid: allowed is {allowed}")

    @property
    def suggestion(self) -> str | None:
        """The allowed name closest to a mistyped one (``suggest``), None if none is."""
        allowed = self.allowed if isinstance(self.allowed, str) else ""
        if "did you mean" in allowed:  # said already (a scenario file's own hint)
            return None
        return suggest(self.value, _listed(allowed))

    def __str__(self) -> str:
        text = super().__str__()
        guess = self.suggestion
        return text if guess is None else f"{text}; did you mean {guess!r}?"

    def __reduce__(self) -> tuple[type, tuple[str, object, str]]:
        return (type(self), (self.field, self.value, self.allowed))


_SHOWN = 80


class LoadError(InvalidValueError):
    """Text or data that a loader (a saved state, a battle record) cannot read: ``field`` is
    the path of the value in the document (``$.units[2].quality``), ``value`` the value found
    there (long values are cut short in the message) and ``allowed`` what may stand there."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        super().__init__(field, value, allowed)
        shown = repr(value)
        if len(shown) > _SHOWN:
            shown = shown[: _SHOWN - 1] + "…"
        self.args = (f"{field}={shown} is invalid: allowed is {allowed}",)


class ReplayMismatchError(SmoothboreError):
    """A replayed step whose events differ from those the record expects: names the step
    (counted from 1), its turn and phase, and the first event that differs."""

    def __init__(self, step: int, where: str, expected: object, found: object) -> None:
        self.step = step
        self.where = where
        self.expected = expected
        self.found = found
        super().__init__(
            f"replay differs at step {step} ({where}): the record expects {expected!r}, "
            f"the replay gives {found!r}"
        )

    def __reduce__(self) -> tuple[type, tuple[int, str, object, object]]:
        return (type(self), (self.step, self.where, self.expected, self.found))


class UnknownRulesetError(InvalidValueError, LookupError):
    """A ruleset name (or alias) that no registry knows; lists the available ones."""

    def __init__(self, name: str, available: tuple[str, ...]) -> None:
        self.available = available
        super().__init__("ruleset", name, "one of " + ", ".join(available) if available else
                         "none: no ruleset is registered")

    @property
    def suggestion(self) -> str | None:
        """The ruleset a mistyped name most likely meant, by its name even when the name
        typed was closest to one of its aliases (``bolt`` -> ``boltaction_acw``)."""
        spellings: dict[str, str] = {}
        for entry in self.available:
            name, _, aliases = entry.partition(" (also ")
            spellings[name] = name
            spellings.update((alias, name) for alias in aliases.rstrip(")").split(", ") if alias)
        guess = suggest(self.value, spellings)
        return None if guess is None else spellings[guess]

    def __reduce__(self) -> tuple[type, tuple[str, tuple[str, ...]]]:  # type: ignore[override]
        return (type(self), (str(self.value), self.available))


class IllegalActionError(SmoothboreError):
    """An action the rules forbid in the current state; names the rule that forbids it."""

    def __init__(self, action: object, why: str, rule: str) -> None:
        self.action = action
        self.why = why
        self.rule = rule
        super().__init__(action, why, rule)

    def __str__(self) -> str:
        # written only when read: legal_actions raises and catches many of these
        if self.action is None:  # no action to name: the rule's words say what was refused
            return f"{self.why} ({self.rule})"
        if isinstance(self.action, str):  # what was asked, in words (a mechanism's call)
            return f"{self.action}: {self.why} ({self.rule})"
        return f"illegal action {self.action!r}: {self.why} ({self.rule})"

    def __reduce__(self) -> tuple[type, tuple[object, str, str]]:
        return (type(self), (self.action, self.why, self.rule))


class EnumerationLimitError(SmoothboreError):
    """Exact work past its limit, refused before it is done when it can be estimated:
    ``limit`` and ``what`` it counts, the ``estimate`` of what was needed (None when not
    estimated) and the ``setting`` that raises the limit."""

    def __init__(
        self, limit: int, what: str = "chance branches", estimate: int | None = None,
        setting: str = "max_branches",
    ) -> None:
        self.limit = limit
        self.what = what
        self.estimate = estimate
        self.setting = setting
        if estimate is None:
            message = (f"exact enumeration stopped after {limit:,} {what}; raise {setting} "
                       "or compose smaller exact steps with Distribution.then")
        else:
            message = (f"exact enumeration refused: about {estimate:,} {what} needed, above "
                       f"the limit of {limit:,}; raise {setting}, ask a smaller question, or "
                       "sample it (monte_carlo)")
        super().__init__(message)

    def __reduce__(self) -> tuple[type, tuple[int, str, int | None, str]]:
        return (type(self), (self.limit, self.what, self.estimate, self.setting))
