"""The actions of a Bolt Action ACW turn, as frozen values. Without a table they carry what
the players measure (range, cover, enfilade, arcs, terrain crossed, the charge's distance
and angle); ``legal_actions`` offers them with plain facts. On a table they carry none of
it (the table measures: ``situations``), and moves say where they go (``Move``)."""

from __future__ import annotations

from typing import Union

import attrs

from smoothbore.core import NamedEnum
from smoothbore.core.validate import MAX_INCHES, finite, maybe, one_of, text

from .charges import ChargeFacts, Response
from .movement import Terrain
from .shooting import ShotFacts
from .units import FLAG, Formation, of_kind


class Mount(NamedEnum):
    """A cavalry unit's fire and advance: mount or dismount as part of it (Orders, 2)."""

    NONE = "none"
    DISMOUNT = "dismount"
    REMOUNT = "remount"


@attrs.frozen(cache_hash=True)
class Move:
    """Where a move goes on a table, as a player lays the tape from the unit: ``distance``
    inches towards ``heading`` degrees off its facing (0 straight ahead, 90 to its right,
    180 straight back), then ``turn`` degrees clockwise to face (A28)."""

    distance: float = attrs.field(validator=finite(0, 1000))
    heading: float = attrs.field(default=0.0, validator=finite(-180, 180))
    turn: float = attrs.field(default=0.0, validator=finite(-180, 180))

    def __str__(self) -> str:
        way = "ahead" if self.heading == 0 else f"at {self.heading:g}°"
        return f"{self.distance:g} in. {way}" + (f", turning {self.turn:g}°" if self.turn
                                                  else "")


@attrs.frozen(cache_hash=True)
class DrawDie:
    """Draw an order die from the bag (The Turn, 1)."""


@attrs.frozen(cache_hash=True)
class EndTurn:
    """The bag is empty: end the turn (The Turn, 5)."""


@attrs.frozen(cache_hash=True)
class Activate:
    """Give the drawn die to a brigade (``brigade:<name>``) or an independent unit."""

    group: str = attrs.field(validator=text())


@attrs.frozen(cache_hash=True)
class ArmyTest:
    """The brigade's order test when its army has lost half its brigades (Brigade and army
    strength)."""


@attrs.frozen(cache_hash=True)
class RallyFromRout:
    """A routing unit of the brigade tests to stop routing (The Turn, 2; Morale Test)."""

    unit_id: str = attrs.field(validator=text())


@attrs.frozen(cache_hash=True)
class Fire:
    """Order 1: fire without moving (or a halted charger's fire)."""

    unit_id: str = attrs.field(validator=text())
    target_id: str = attrs.field(validator=text())
    facts: ShotFacts = attrs.field(default=ShotFacts(), validator=of_kind(ShotFacts))


@attrs.frozen(cache_hash=True)
class Advance:
    """Order 2: fire and advance: move at the rate over ``terrain`` (through a stationary
    friendly unit ``through``), firing at ``target_id`` on the move; cavalry may mount or
    dismount (``near_holders``: the remounting unit is within 6" of its horse holders). On a
    table the ``move`` says where it goes; the unit fires first, from where it stands, then
    advances (A28)."""

    unit_id: str = attrs.field(validator=text())
    terrain: Terrain = attrs.field(default=Terrain.OPEN, validator=one_of(*Terrain))
    through: str | None = attrs.field(default=None, validator=maybe(text()))
    target_id: str | None = attrs.field(default=None, validator=maybe(text()))
    facts: ShotFacts = attrs.field(default=ShotFacts(), validator=of_kind(ShotFacts))
    mount: Mount = attrs.field(default=Mount.NONE, validator=one_of(*Mount))
    near_holders: bool = attrs.field(default=True, validator=FLAG)
    move: Move | None = attrs.field(default=None, validator=maybe(of_kind(Move)))


@attrs.frozen(cache_hash=True)
class Run:
    """Order 3: run at double speed over ``terrain`` (on a table: the ``move`` it makes)."""

    unit_id: str = attrs.field(validator=text())
    terrain: Terrain = attrs.field(default=Terrain.OPEN, validator=one_of(*Terrain))
    move: Move | None = attrs.field(default=None, validator=maybe(of_kind(Move)))


@attrs.frozen(cache_hash=True)
class Charge:
    """Order 3: charge an enemy to the unit's direct front (or a second cavalry charge)."""

    unit_id: str = attrs.field(validator=text())
    target_id: str = attrs.field(validator=text())
    facts: ChargeFacts = attrs.field(default=ChargeFacts(), validator=of_kind(ChargeFacts))


@attrs.frozen(cache_hash=True)
class ChangeFormation:
    """Order 4: line to column or column to line; limber or unlimber."""

    unit_id: str = attrs.field(validator=text())
    formation: Formation = attrs.field(validator=one_of(*Formation))


@attrs.frozen(cache_hash=True)
class Rally:
    """Order 5: no move or fire, lose D6 pins."""

    unit_id: str = attrs.field(validator=text())


@attrs.frozen(cache_hash=True)
class Down:
    """Order 6: no move or fire, -1 to be hit."""

    unit_id: str = attrs.field(validator=text())


@attrs.frozen(cache_hash=True)
class MoveCommander:
    """A commander moves up to 24" to be with a unit (A14)."""

    commander_id: str = attrs.field(validator=text())
    unit_id: str = attrs.field(validator=text())


@attrs.frozen(cache_hash=True)
class EndActivation:
    """The brigade has completed its actions: draw the next die (The Turn, 5)."""


@attrs.frozen(cache_hash=True)
class Respond:
    """The charged unit ``unit_id``'s reaction; ``behind`` is a friendly unit in the way of
    its retreat if it fails its order test (Melee)."""

    unit_id: str = attrs.field(validator=text())
    response: Response = attrs.field(validator=one_of(*Response))
    behind: str | None = attrs.field(default=None, validator=maybe(text()))


@attrs.frozen(cache_hash=True)
class RoutMove:
    """A routing unit retreats at run speed away from the enemy, through ``through`` (a
    friendly unit, which takes a pin) or through none (Morale Test)."""

    unit_id: str = attrs.field(validator=text())
    through: str | None = attrs.field(default=None, validator=maybe(text()))


@attrs.frozen(cache_hash=True)
class RideTo:
    """On a table, a commander rides up to 24" straight to the point (``x``, ``y``), with
    no unit (A14)."""

    commander_id: str = attrs.field(validator=text())
    x: float = attrs.field(validator=finite(0, MAX_INCHES))
    y: float = attrs.field(validator=finite(0, MAX_INCHES))


@attrs.frozen(cache_hash=True)
class FightOn:
    """Fight a melee that continues from the last turn (Melee)."""

    charger_id: str = attrs.field(validator=text())
    defender_id: str = attrs.field(validator=text())


Action = Union[  # noqa: UP007 (a runtime alias)
    DrawDie, EndTurn, Activate, ArmyTest, RallyFromRout, Fire, Advance, Run, Charge,
    ChangeFormation, Rally, Down, MoveCommander, RideTo, EndActivation, Respond, RoutMove,
    FightOn,
]
