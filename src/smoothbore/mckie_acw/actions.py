"""The actions of a battle period, step by step. Without a table, actions carry the facts a
player measures (ranges, distances, ground); on a table (``Extra.table``) they leave those at
their defaults, the table measures them, and moves name a destination (``Move.to``)."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from smoothbore.core import InvalidValueError, at_least, check_range, in_range

from .fields import check_fields
from .firing import FireFacts
from .melee import Attack
from .morale import Circumstance
from .movement import Manoeuvre
from .units import Formation, Ground, OrderKind


@attrs.frozen
class EndPhase:
    """The acting side has finished this step (the other side acts next, or the next step
    begins)."""


@attrs.frozen
class RollInitiative:
    """Initiative: both commanders-in-chief roll (a step of the sequence, no side's choice)."""


@attrs.frozen
class ChooseFirst:
    """Initiative: the winner moves his army first (``first``) or second."""

    first: bool

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class ChangeOrders:
    """Deployment and general orders: ``issuer``, a higher-ranking general in the direct line
    of command, gives ``commander`` a new written order, meeting him (both with the same unit)
    or by ``courier``."""

    issuer: str
    commander: str
    order: OrderKind
    courier: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Activate:
    """Activation: the superior's d10 plus the commander's activation rating over 10."""

    commander: str

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class CompulsoryMove:
    """Step 1: a routing unit routs (``off_table``: it leaves the table), a retreating unit
    retreats, an exhausted unit retires to a safe place to rest."""

    unit: str
    off_table: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class DeclareCharge:
    """Step 2: a unit charges an enemy ``distance`` mm away (within its move), or counter
    charges a charging enemy (``counter``), into its front, flank or rear (``attack``, as
    measured); it tests morale at once."""

    unit: str
    target: str
    distance: int = attrs.field(default=60, validator=in_range(0, 1000))
    counter: bool = False
    attack: Attack = Attack.FRONT

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class Move:
    """Step 3: a unit moves ``distance`` mm (None: as far as it may; ``advancing`` towards the
    enemy, or not), with at
    most one manoeuvre (a new ``formation`` for a formation change), or a ``double`` move, and
    ends on ``ends_in`` ground (``dense_woods``: it moves through dense woods). On a table the
    move names its destination instead, ``to`` = (x, y, facing) in mm and degrees, and the
    table measures the distance, the ground and whether it advances; ``at`` (optional) names
    where the unit stands when the move is ordered, and the move is refused once it stands
    elsewhere (an order written for another position)."""

    unit: str
    distance: int | None = None
    advancing: bool = False
    double: bool = False
    manoeuvre: Manoeuvre = Manoeuvre.NONE
    formation: Formation | None = None
    ends_in: Ground = Ground.OPEN
    dense_woods: bool = False
    to: tuple[float, float, float] | None = None
    at: tuple[float, float, float] | None = None

    def __attrs_post_init__(self) -> None:
        d = self.distance  # None, or 0 to 2000 mm (checked inline: made by the dozen)
        if d is not None and not (type(d) is int and 0 <= d <= 2000):
            check_range("Move.distance", d, 0, 2000)
        for name, where in (("to", self.to), ("at", self.at)):
            if where is not None and not _is_point(where):
                raise InvalidValueError(f"Move.{name}", where, "(x, y, facing): three finite "
                                        "numbers, in mm and degrees")
        check_fields(self, _MOVE_INLINE)  # every other field of its type (issue 28)


_MOVE_INLINE = ("to", "at")
"""The fields of a ``Move`` checked inline (``_is_point``: as strict as ``check_fields``,
and made by the dozen on a table)."""


def _is_point(where: object) -> bool:
    """Whether ``where`` is (x, y, facing): a tuple of three finite numbers, each an int or a
    float (not a bool, nor a subclass: what ``check_fields`` allows a float field, checked
    inline as the moves offered on a table are made by the dozen)."""
    if type(where) is not tuple or len(where) != 3:
        return False
    for v in where:
        kind = type(v)
        if kind is float:
            if v - v != 0.0:  # inf - inf and nan are nan
                return False
        elif kind is not int:
            return False
    return True


@attrs.frozen
class Dig:
    """Step 3: the unit digs (its figures do no other task this period); four periods make a
    trench that counts as cover from firing."""

    unit: str

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Resupply:
    """Step 3: the unit draws rounds from its corps' ammunition train (it does not move)."""

    unit: str

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class AttachHelpers:
    """Step 3: ``figures`` foot or cavalry figures of ``unit`` join a gun model's crew as
    helpers (at most 3 helpers a gun model)."""

    battery: str
    unit: str
    figures: int = attrs.field(default=1, validator=in_range(1, 3))

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class MoveGeneral:
    """Step 3: a mounted general rides up to 600 mm and joins a unit (``attach_to``; "" to
    ride alone)."""

    commander: str
    attach_to: str = ""
    distance: int = attrs.field(default=0, validator=in_range(0, 5000))

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class Fire:
    """Step 4: a unit fires at an enemy unit. ``beyond_priority``: the player says the
    enemies of higher target priority are out of range or sight."""

    firer: str
    target: str
    facts: FireFacts = attrs.field(factory=FireFacts)
    beyond_priority: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class PickOffGeneral:
    """Step 4 (optional snipers): a sniper picks an enemy general as his target ``range`` mm
    away; the general runs the risk to generals."""

    firer: str
    general: str
    range: int = attrs.field(default=100, validator=in_range(0, 2000))

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen(cache_hash=True)
class TestMorale:
    """Steps 5, 6 and 8: a unit tests morale in a circumstance. ``routing_past``: friendly
    units in sight routing past within 200 mm (the player counts them); ``subtract_quality``
    and ``subtract_cover``: the "+ or -" factors subtracted (option ``choose``)."""

    __test__ = False  # not a pytest test class

    unit: str
    circumstance: Circumstance
    routing_past: int = attrs.field(default=0, validator=at_least(0))
    subtract_quality: bool = False
    subtract_cover: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class Melee:
    """Step 7: fight the melee between ``attacker`` and ``defender`` with the figures in
    contact and overlapping (0: all entitled to fight)."""

    attacker: str
    defender: str
    attacker_figures: int = attrs.field(default=0, validator=at_least(0))
    defender_figures: int = attrs.field(default=0, validator=at_least(0))

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


@attrs.frozen
class FollowUp:
    """Step 7: the winner of a melee follows the pushed-back loser (the melee continues next
    period) or does not (contact is broken)."""

    unit: str
    follow: bool

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


Action: TypeAlias = (
    EndPhase | RollInitiative | ChooseFirst | ChangeOrders | Activate | CompulsoryMove
    | DeclareCharge | Move | Dig | Resupply | AttachHelpers | MoveGeneral | Fire
    | PickOffGeneral | TestMorale | Melee | FollowUp
)
"""Every action of a McKie ACW battle."""
