"""The actions a player takes in a Bloodybacks turn, as frozen values. Without a table they
carry what the players measure at the table (range, cover, contact face, terrain moved
through, whether a unit is inside its commander's radius); ``legal_actions`` offers them with
the plain facts (in the open, in radius, at the middle of the first range band). On a table
(``state.extra.table``) shots carry no measured facts and moves name their destination: the
table measures the rest (``situations``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Union

import attrs

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import MAX_INCHES, finite, in_range, maybe, one_of, text

from . import activation as act
from . import command, movement, shooting
from .charges import ChargeFacts
from .units import FLAG, MAX_DENSITY, MIN_DENSITY, Formation

_ID = text()
_MAYBE_ID = maybe(text())
_DISTANCE = finite(0, MAX_INCHES)


def _kind(cls: type) -> Any:
    """attrs validator: a value of class ``cls`` (the facts an action carries)."""

    def validate(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, cls):
            raise InvalidValueError(
                f"{type(instance).__name__}.{attribute.name}", value, f"a {cls.__name__}")

    return validate


_MOVE_FACTS = _kind(movement.MoveFacts)
_SHOT_FACTS = _kind(shooting.ShotFacts)


def lead_first(ids: Iterable[str]) -> tuple[str, ...]:
    """Unit ids with the first kept first and the others in sorted order: only the first of
    the chargers (whose impetus is rolled) and of the targets (whose DRPs count) matters, so
    one charge has one spelling (Multiple unit melee; B13)."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise InvalidValueError("unit ids", ids, "a tuple of unit ids, not one string")
    items = tuple(ids)
    if any(not isinstance(i, str) or not i for i in items):
        raise InvalidValueError("unit ids", items, "a tuple of unit ids (non-empty text)")
    return items[:1] + tuple(sorted(items[1:]))


@attrs.frozen(cache_hash=True)
class DetermineActivity:
    """Roll every commander's activity level at the start of the turn."""


@attrs.frozen(cache_hash=True)
class DrawCard:
    """Draw the next card of the activation deck."""


@attrs.frozen(cache_hash=True)
class Activate:
    """Roll a unit's activation hand under a commander activated by the card (None: a unit
    whose commander was killed, on its side's ace). ``outside_radius`` is measured."""

    unit_id: str = attrs.field(validator=_ID)
    commander_id: str | None = attrs.field(validator=_MAYBE_ID)
    outside_radius: bool = attrs.field(default=False, validator=FLAG)
    in_woods: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen(cache_hash=True)
class RoutTest:
    """A routing unit tests morale instead of activating; under a commander of another
    brigade it costs him a command point, used within his radius (``outside_radius`` is
    measured)."""

    unit_id: str = attrs.field(validator=_ID)
    commander_id: str | None = attrs.field(validator=_MAYBE_ID)
    in_woods: bool = attrs.field(default=False, validator=FLAG)
    outside_radius: bool = attrs.field(default=False, validator=FLAG)


def _finite_numbers(value: Any, size: int) -> bool:
    """Whether ``value`` is a tuple of ``size`` finite numbers (booleans are not numbers)."""
    if not isinstance(value, tuple) or len(value) != size:
        return False
    for v in value:
        kind = type(v)
        if kind is not float and kind is not int and (
                isinstance(v, bool) or not isinstance(v, int | float)):
            return False
        if not math.isfinite(v):
            return False
    return True


def _point(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and not _finite_numbers(value, 2):
        raise InvalidValueError(
            attribute.name, value, "None, or (x, y): where the commander rides to, in inches")


def _destination(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and not _finite_numbers(value, 3):
        raise InvalidValueError(
            attribute.name, value, "None, or (x, y, facing): where the unit's centre ends, in "
            "inches, and the compass facing it ends with, in degrees")


@attrs.frozen(cache_hash=True)
class Move:
    """Spend an action moving; ``through`` names a friendly unit the move passes through
    (interpenetration, or else a passage of lines). On a table the move names its
    destination, ``to`` = (x, y, facing), and the table measures its facts (which stay at
    their defaults). The moves offered also name where the unit stands, ``at`` (x, y,
    facing), and are accepted only from there and only as offered; a move without ``at``
    goes to any destination the rules allow."""

    unit_id: str = attrs.field(validator=_ID)
    facts: movement.MoveFacts = attrs.field(factory=movement.MoveFacts, validator=_MOVE_FACTS)
    through: str | None = attrs.field(default=None, validator=_MAYBE_ID)
    to: tuple[float, float, float] | None = attrs.field(default=None, validator=_destination)
    at: tuple[float, float, float] | None = attrs.field(default=None, validator=_destination)


@attrs.frozen(cache_hash=True)
class Manoeuvre:
    """Spend an action to about face, change formation (to ``formation``, or to ``density``
    by closing up or separating the bases), or limber/unlimber."""

    unit_id: str = attrs.field(validator=_ID)
    kind: act.ActionKind = attrs.field(validator=one_of(*act.ActionKind))
    formation: Formation | None = attrs.field(default=None, validator=maybe(one_of(*Formation)))
    density: int | None = attrs.field(
        default=None, validator=maybe(in_range(MIN_DENSITY, MAX_DENSITY))
    )


@attrs.frozen(cache_hash=True)
class Shoot:
    """Shoot at one target (extra orders are part of the facts); ``split_target_id`` and
    ``split_facts`` give a second target for split fire (each facts' ``size`` the part of the
    unit shooting at it)."""

    unit_id: str = attrs.field(validator=_ID)
    target_id: str = attrs.field(validator=_ID)
    facts: shooting.ShotFacts = attrs.field(factory=shooting.ShotFacts, validator=_SHOT_FACTS)
    split_target_id: str | None = attrs.field(default=None, validator=_MAYBE_ID)
    split_facts: shooting.ShotFacts | None = attrs.field(default=None,
                                                         validator=maybe(_SHOT_FACTS))


@attrs.frozen(cache_hash=True)
class Charge:
    """Charge one or more enemy units with one or more units activated together. The first
    charger's impetus is rolled, and the first target's DRPs count (the others are kept in
    sorted order). ``evade`` is the target's choice (None: evade only when compulsory);
    ``charger_spare_move`` is what the chargers could move beyond the evaders' position;
    ``defer`` leaves the melee to the end of the turn; ``pursue`` follows routed defenders if
    the chargers succeed (a deferred melee's pursuit is chosen when it is resolved). With
    ``distance`` (inches to the target, measured) each charger makes its move action over
    ``ground`` and only those that reach it make contact (cavalry pick any of their
    distances); the spare move then decides whether evaders are caught."""

    unit_ids: tuple[str, ...] = attrs.field(converter=lead_first)
    target_ids: tuple[str, ...] = attrs.field(converter=lead_first)
    facts: ChargeFacts = attrs.field(factory=ChargeFacts, validator=_kind(ChargeFacts))
    evade: bool | None = attrs.field(default=None, validator=maybe(FLAG))
    target_in_open: bool = attrs.field(default=True, validator=FLAG)
    hard_cover: bool = attrs.field(default=False, validator=FLAG)
    charger_spare_move: float = attrs.field(default=0.0, validator=_DISTANCE)
    defer: bool = attrs.field(default=False, validator=FLAG)
    pursue: bool = attrs.field(default=False, validator=FLAG)
    distance: float | None = attrs.field(default=None, validator=maybe(_DISTANCE))
    ground: movement.MoveFacts = attrs.field(factory=movement.MoveFacts, validator=_MOVE_FACTS)


@attrs.frozen(cache_hash=True)
class Rally:
    """Spend an action to remove one DRP."""

    unit_id: str = attrs.field(validator=_ID)


@attrs.frozen(cache_hash=True)
class SpendCommandPoint:
    """Spend a command point: an extra action for a unit (``unit_id``), or move the commander
    12" (``attach_to`` a unit id, or None to stand unattached). On a table an unattached
    commander rides ``to`` a point (x, y) within 12" (None: he stays where he stands, leaving
    the unit he was with), and one attaching reaches a unit within 12"."""

    commander_id: str = attrs.field(validator=_ID)
    use: command.CommandPointUse = attrs.field(validator=one_of(*command.CommandPointUse))
    unit_id: str | None = attrs.field(default=None, validator=_MAYBE_ID)
    attach_to: str | None = attrs.field(default=None, validator=_MAYBE_ID)
    outside_radius: bool = attrs.field(default=False, validator=FLAG)
    to: tuple[float, float] | None = attrs.field(default=None, validator=_point)


@attrs.frozen(cache_hash=True)
class EndActivation:
    """Finish with the current card."""


@attrs.frozen(cache_hash=True)
class ResolveDeferred:
    """Resolve the first deferred melee (``reverse`` when the tables have turned and the
    defenders counter-charge); ``pursue``: the side that charges follows routed enemies if it
    succeeds."""

    reverse: bool = attrs.field(default=False, validator=FLAG)
    pursue: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen(cache_hash=True)
class EndTurn:
    """Start the next turn."""


@attrs.frozen(cache_hash=True)
class EndBattle:
    """End the battle: when a side has broken, after the scenario's last turn, or after a
    turn where the scenario lets the players end it; roll the fate of every removed
    commander."""


Action = Union[  # noqa: UP007
    DetermineActivity,
    DrawCard,
    Activate,
    RoutTest,
    Move,
    Manoeuvre,
    Shoot,
    Charge,
    Rally,
    SpendCommandPoint,
    EndActivation,
    ResolveDeferred,
    EndTurn,
    EndBattle,
]
