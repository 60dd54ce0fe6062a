"""Dice: a die is a tuple of equally likely faces (faces may repeat, as on the average die)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import InvalidValueError

__all__ = [
    "AVERAGE_DIE",
    "D3",
    "D6",
    "D10",
    "D12",
    "MAX_DICE",
    "MAX_MODIFIER",
    "MAX_SIDES",
    "Die",
    "die",
    "parse_dice",
]


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



MAX_SIDES = 1000
"""The most faces an ordinary die may have (``d1000``): more is not a die a table rolls, and
exact odds over it would be slow to no purpose."""
MAX_DICE = 100
"""The most dice one expression may roll (``100d6``)."""
MAX_MODIFIER = 10_000
"""The largest number an expression may add or subtract."""


def die(sides: int) -> Die:
    """The ordinary die numbered 1 to ``sides`` (at most ``MAX_SIDES``)."""
    if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= MAX_SIDES:
        raise InvalidValueError("sides", sides, f"an integer from 1 to {MAX_SIDES}")
    return Die(tuple(range(1, sides + 1)), f"d{sides}")


D3 = die(3)
D6 = die(6)
D10 = die(10)
D12 = die(12)
AVERAGE_DIE = Die((2, 3, 3, 4, 4, 5), "dAv")

_EXPRESSION = re.compile(r"[0-9]*d(?:av|[0-9]+)|[0-9]+")
_TERM = re.compile(r"([0-9]*)d(av|[0-9]+)")
_DIGITS = 6  # no count, sides or modifier within the bounds has more digits
_FORM = "an expression such as 2d6+1, d12, 2dAv or d10-2"


def parse_dice(text: str) -> tuple[tuple[Die, ...], int]:
    """Read a dice expression such as ``2d6``, ``3d12+1``, ``dAv`` or ``d10-2`` into
    (dice, modifier). Only well-formed expressions: terms (``NdS``, ``NdAv`` or a whole
    number, ASCII digits) joined by single ``+`` or ``-``, dice never subtracted, at least one
    die, counts from 1, at most ``MAX_DICE`` dice of at most ``MAX_SIDES`` sides, and a
    modifier of at most ``MAX_MODIFIER``."""
    if not isinstance(text, str):
        raise InvalidValueError("dice", text, _FORM)
    if re.search(r"[0-9A-Za-z] +[0-9A-Za-z]", text):  # spaces only around + and -
        raise InvalidValueError("dice", text, _FORM)
    cleaned = text.replace(" ", "").lower()
    if not cleaned or len(cleaned) > 200:
        raise InvalidValueError("dice", text, _FORM)
    terms = re.split(r"([+-])", cleaned)
    # terms alternate: term, sign, term, ... so a doubled or trailing sign leaves an empty term
    dice: list[Die] = []
    modifier = 0
    for index in range(0, len(terms), 2):
        term = terms[index]
        sign = terms[index - 1] if index else "+"
        if not _EXPRESSION.fullmatch(term):
            raise InvalidValueError("dice", text, _FORM)
        match = _TERM.fullmatch(term)
        if match:
            if sign == "-":
                raise InvalidValueError("dice", text, "dice added, not subtracted")
            count_text, sides_text = match.groups()
            if len(count_text) > _DIGITS or len(sides_text) > _DIGITS:
                raise InvalidValueError(
                    "dice", text, f"at most {MAX_DICE} dice of at most {MAX_SIDES} sides")
            count = int(count_text or 1)
            if count < 1:
                raise InvalidValueError("dice", text, "a count of 1 or more before each d")
            if len(dice) + count > MAX_DICE:
                raise InvalidValueError("dice", text, f"at most {MAX_DICE} dice in all")
            if sides_text == "av":
                kind = AVERAGE_DIE
            else:
                sides = int(sides_text)
                if not 1 <= sides <= MAX_SIDES:
                    raise InvalidValueError("dice", text, f"dice of 1 to {MAX_SIDES} sides")
                kind = die(sides)
            dice.extend([kind] * count)
        else:
            if len(term) > _DIGITS:
                raise InvalidValueError("dice", text, f"a modifier of at most {MAX_MODIFIER}")
            modifier += -int(term) if sign == "-" else int(term)
    if not dice:
        raise InvalidValueError("dice", text, "at least one die, such as d6")
    if abs(modifier) > MAX_MODIFIER:
        raise InvalidValueError("dice", text, f"a modifier of at most {MAX_MODIFIER}")
    return tuple(dice), modifier
