"""Dice: a die is a tuple of equally likely faces (faces may repeat, as on the average die)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import InvalidValueError

__all__ = ["AVERAGE_DIE", "D3", "D6", "D10", "D12", "Die", "die", "parse_dice"]


def _faces(value: Iterable[int]) -> tuple[int, ...]:
    faces = tuple(value)
    if not faces or any(isinstance(f, bool) or not isinstance(f, int) for f in faces):
        raise InvalidValueError("Die.faces", faces, "a non-empty tuple of integers")
    return faces


@attrs.frozen(cache_hash=True)
class Die:
    """One die: its faces, each equally likely, and the name players use for it."""

    faces: tuple[int, ...] = attrs.field(converter=_faces)
    name: str = ""

    numbered: bool = attrs.field(init=False, eq=False, repr=False)
    """Whether the faces are low, low+1, ..., high once each, so counts are arithmetic."""

    def __attrs_post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", f"d[{','.join(map(str, self.faces))}]")
        low = min(self.faces)
        object.__setattr__(self, "numbered", self.faces == tuple(range(low, low + len(self.faces))))

    @classmethod
    def of(cls, *faces: int, name: str = "") -> Die:
        """A die with any faces: ``Die.of(2, 3, 3, 4, 4, 5, name="dAv")``."""
        return cls(faces, name)

    @property
    def sides(self) -> int:
        """How many faces the die has."""
        return len(self.faces)

    @property
    def low(self) -> int:
        """The lowest face."""
        return min(self.faces)

    @property
    def high(self) -> int:
        """The highest face."""
        return max(self.faces)

    def distribution(self) -> Distribution[int]:
        """The exact distribution of one roll."""
        return Distribution.uniform(self.faces)

    def rerolling(self, faces: Iterable[int]) -> Die:
        """This die with the given faces rolled again once (the second roll stands).

        The result is a die whose faces list every (first, second) pair, so its weights stay
        exact: a d6 rerolling 1s has 36 faces, a 1 on one of them."""
        again = frozenset(faces)
        expanded = tuple(
            second if first in again else first for first in self.faces for second in self.faces
        )
        label = ",".join(map(str, sorted(again)))
        return Die(expanded, f"{self.name} rerolling {label}")

    def __str__(self) -> str:
        return self.name



def die(sides: int) -> Die:
    """The ordinary die numbered 1 to ``sides``."""
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise InvalidValueError("sides", sides, "a positive integer")
    return Die(tuple(range(1, sides + 1)), f"d{sides}")


D3 = die(3)
D6 = die(6)
D10 = die(10)
D12 = die(12)
AVERAGE_DIE = Die((2, 3, 3, 4, 4, 5), "dAv")

_TERM = re.compile(r"^(\d*)d(av|\d+)$")


def parse_dice(text: str) -> tuple[tuple[Die, ...], int]:
    """Read a dice expression such as ``2d6``, ``3d12+1``, ``dAv`` or ``d10-2`` into
    (dice, modifier)."""
    cleaned = text.replace(" ", "").lower()
    if not cleaned:
        raise InvalidValueError("dice", text, "an expression such as 2d6+1, d12 or 2dAv")
    dice: list[Die] = []
    modifier = 0
    for sign, term in re.findall(r"([+-]?)([^+-]+)", cleaned):
        match = _TERM.match(term)
        if match:
            if sign == "-":
                raise InvalidValueError("dice", text, "dice added, not subtracted")
            count = int(match.group(1) or 1)
            kind = AVERAGE_DIE if match.group(2) == "av" else die(int(match.group(2)))
            dice.extend([kind] * count)
        elif term.isdigit():
            modifier += -int(term) if sign == "-" else int(term)
        else:
            raise InvalidValueError("dice", text, "an expression such as 2d6+1, d12 or 2dAv")
    if not dice:
        raise InvalidValueError("dice", text, "at least one die, such as d6")
    return tuple(dice), modifier
