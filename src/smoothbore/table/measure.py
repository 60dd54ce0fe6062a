"""Units of measure at the table: inches for most rule books, millimetres for McKie's, and the
conversions between them. A ``Table`` carries one ``Measure``; every length it holds and
every answer it gives is in that measure."""

from __future__ import annotations

import math

from smoothbore.core import InvalidValueError, NamedEnum
from smoothbore.core.validate import check_number

__all__ = ["Measure", "convert"]


class Measure(NamedEnum):
    """A unit of length on the table, printed as the texts write it."""

    INCHES = "inches"
    MILLIMETRES = "mm"
    CENTIMETRES = "cm"

    @property
    def millimetres(self) -> float:
        """Millimetres in one unit of this measure (an inch is 25.4 mm exactly)."""
        return _MM[self]

    def to(self, other: Measure, value: float) -> float:
        """``value`` in this measure, expressed in ``other``."""
        return convert(value, self, other)

    def from_inches(self, inches: float) -> float:
        """A length given in inches, expressed in this measure."""
        return convert(inches, Measure.INCHES, self)

    def in_inches(self, value: float) -> float:
        """A length in this measure, expressed in inches."""
        return convert(value, self, Measure.INCHES)

    def show(self, value: float) -> str:
        """A length as a player writes it: 6" or 20 mm (at most two decimals)."""
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return f'{text}"' if self is Measure.INCHES else f"{text} {self.value}"

    @classmethod
    def of(cls, name: object) -> Measure:
        """The measure named ``name`` (a Measure, or its text: "inches", "in", '"', "mm",
        "millimetres", "cm", "centimetres")."""
        if isinstance(name, Measure):
            return name
        found = _NAMES.get(name.strip().lower()) if isinstance(name, str) else None
        if found is None:
            raise InvalidValueError("measure", name, "one of " + ", ".join(sorted(_NAMES)))
        return found


_MM = {Measure.INCHES: 25.4, Measure.MILLIMETRES: 1.0, Measure.CENTIMETRES: 10.0}
_NAMES = {
    "inches": Measure.INCHES, "inch": Measure.INCHES, "in": Measure.INCHES, '"': Measure.INCHES,
    "mm": Measure.MILLIMETRES, "millimetres": Measure.MILLIMETRES,
    "millimeters": Measure.MILLIMETRES, "cm": Measure.CENTIMETRES,
    "centimetres": Measure.CENTIMETRES, "centimeters": Measure.CENTIMETRES,
}


def convert(value: float, source: Measure, target: Measure) -> float:
    """``value`` in ``source`` expressed in ``target`` (a finite number; lengths in the same
    measure come back unchanged)."""
    if type(value) not in (int, float) or not math.isfinite(value):
        check_number("length", value)
    if source is target:
        return value
    return value * _MM[source] / _MM[target]
