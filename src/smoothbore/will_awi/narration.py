"""How the referee says things: distances, angles, lists of names, points and fire scores, as
the events of a battle read them."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction


def inches(distance: float | Fraction) -> str:
    """A distance as a referee says it: 12", 10.5"."""
    return f"{float(distance):.1f}".removesuffix(".0") + '"'


def degrees(angle: float) -> str:
    """An angle as a referee says it: 90°, 22.5°."""
    return f"{float(angle):.1f}".removesuffix(".0") + "°"


def place(x: float, y: float, facing: float) -> str:
    """A place on the table as the referee says it: "(12.0, 18.5), facing 090°" (the facing a
    three-figure compass bearing, 000° up the table)."""
    return f"({x:.1f}, {y:.1f}), facing {round(facing) % 360:03d}°"


def listed(names: list[str] | tuple[str, ...]) -> str:
    """Names in a sentence: "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def points(count: int, what: str = "point") -> str:
    """A count of points in a sentence: "1 point", "3 points"."""
    return f"{count} {what}{'' if count == 1 else 's'}"


def score_text(score: int, hit: bool) -> str:
    """What a fire score does to the target's strength, in a referee's words."""
    return f"scoring {score}: {'1 strength point lost' if hit else 'no loss'}"


def stopper(by: str, names: Mapping[str, str]) -> str:
    """What stopped a move short, as the referee names it (``by``: "table edge" or a unit's
    id, named from ``names``)."""
    return names.get(by, "the table edge" if by == "table edge" else by)


def short_of(distance: float | Fraction, went: float, by: str,
             names: Mapping[str, str]) -> tuple[str, str]:
    """How far a move of ``distance`` went, as the referee says it, and what stopped it
    short (``by``: "" when nothing did): ('3"', "") or ('1.5" of its 3"', ": X stops it")."""
    if not by:
        return inches(distance), ""
    return f"{inches(went)} of its {inches(distance)}", f": {stopper(by, names)} stops it"
