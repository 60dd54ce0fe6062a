"""The library's exception hierarchy: every error smoothbore raises derives from SmoothboreError."""

from __future__ import annotations

__all__ = [
    "EnumerationLimitError",
    "IllegalActionError",
    "InvalidValueError",
    "LoadError",
    "ReplayMismatchError",
    "SmoothboreError",
    "UnknownRulesetError",
]


class SmoothboreError(Exception):
    """Base of every error raised by smoothbore."""


class InvalidValueError(SmoothboreError, ValueError):
    """A value outside what the rules allow: names the field, the value and what is allowed."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field}={value!r} is invalid: allowed is {allowed}")

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
