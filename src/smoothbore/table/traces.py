"""What happened last on the table, kept to be drawn: moves and shots."""

from __future__ import annotations

from typing import Any

import attrs

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import maybe, one_of, text

from .footprints import MAX_COORDINATE, Point

__all__ = ["MoveTrace", "ShotTrace", "Trace"]


def _path(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = isinstance(value, tuple) and len(value) >= 2 and all(
        isinstance(p, tuple) and len(p) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool)
                and -MAX_COORDINATE <= c <= MAX_COORDINATE for c in p)  # NaN fails too
        for p in value)
    if not ok:
        raise InvalidValueError(
            f"{type(instance).__name__}.{attribute.name}", value,
            "a tuple of at least two (x, y) points, each coordinate within "
            f"±{MAX_COORDINATE:,.0f} (MAX_COORDINATE)")


@attrs.frozen
class MoveTrace:
    """A unit's last move: the points its centre passed, first to last."""

    unit_id: str = attrs.field(validator=text())
    path: tuple[Point, ...] = attrs.field(validator=_path)

    def scaled(self, factor: float) -> MoveTrace:
        """The trace with its points multiplied by ``factor``."""
        return MoveTrace(self.unit_id, tuple((x * factor, y * factor) for x, y in self.path))


@attrs.frozen
class ShotTrace:
    """A unit's last shot at a target; ``hit``: whether it hit (None: not told)."""

    firer: str = attrs.field(validator=text())
    target: str = attrs.field(validator=text())
    hit: bool | None = attrs.field(default=None, validator=maybe(one_of(True, False)))

    def scaled(self, factor: float) -> ShotTrace:
        """A shot has no lengths: the same trace."""
        return self


Trace = MoveTrace | ShotTrace
