"""The actions of the Turn, phase by phase (Rules - Move Sequence A-K). Without a table,
actions carry the facts a player measures; on a table (``Extra.table``) they leave them at
their defaults and the table measures them (``situations``)."""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from smoothbore.core import InvalidValueError
from smoothbore.core.validate import MAX_INCHES, each, finite, maybe, one_of, text

from .charges import ChargeFacts
from .command import OrderFacts
from .firing import FireFacts
from .movement import Crossing, MovePlan, Terrain
from .units import FLAG

_ID = text()
_DISTANCE = finite(0, MAX_INCHES)


def _named(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not value:
        raise InvalidValueError(attribute.name, value, "a work id")


def _distinct_ids(
    instance: object, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]
) -> None:
    if len(set(value)) != len(value) or "" in value:
        raise InvalidValueError(attribute.name, value, "distinct unit ids")


def _enemy_at(instance: object, attribute: attrs.Attribute[object], value: object) -> None:
    """One (unit id, distance) pair."""
    if not (isinstance(value, tuple) and len(value) == 2):
        raise InvalidValueError(attribute.name, value, "(unit id, inches) pairs")
    _ID(instance, attribute, value[0])
    _DISTANCE(instance, attribute, value[1])


def _is(kind: type, *, optional: bool = False) -> Any:
    def validate(instance: object, attribute: attrs.Attribute[object], value: object) -> None:
        if not (isinstance(value, kind) or (optional and value is None)):
            allowed = f"a {kind.__name__}" + (" or None (on a table)" if optional else "")
            raise InvalidValueError(attribute.name, value, allowed)

    return validate


def _place(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """None, or (x, y, facing): a destination on the table."""
    if value is None:
        return
    if not (isinstance(value, tuple) and len(value) == 3):
        raise InvalidValueError(attribute.name, value, "None or (x, y, facing): inches, degrees")
    for item in value:
        finite(-1e6, 1e6)(instance, attribute, item)



NO_PLAN = MovePlan()
"""No plan: a move on a table, measured by the table (one value, shared: it is frozen)."""

@attrs.frozen
class Entering:
    """What a player sees when a unit enters or occupies a building (Rules - Terrain:
    Buildings): which building (a work id) and the units already in it."""

    building: str = attrs.field(validator=_named)
    occupants: tuple[str, ...] = attrs.field(default=(), validator=_distinct_ids)


def _enters_with_crossing(
    instance: Move | MoveAway, attribute: attrs.Attribute[Entering | None], value: Entering | None
) -> None:
    """A move into a building pays the "Entering buildings" cost: its plan has that crossing."""
    if value is not None and Crossing.ENTER_BUILDING not in instance.plan.crossings:
        raise InvalidValueError("enters", value, "a plan with Crossing.ENTER_BUILDING")


@attrs.frozen
class EndPhase:
    """Finish the current phase (K: end the move, the other side moves next)."""


@attrs.frozen
class EndBattle:
    """K: the moving player breaks off the battle at the end of his move, where the scenario
    lets players end it (``Scenario.players_may_end``); losses decide the result (W47)."""


@attrs.frozen
class TestMorale:
    """A: test a shaken or routing unit; ``in_open`` for the optional militia rule."""

    __test__ = False  # not a pytest test class

    unit: str = attrs.field(validator=_ID)
    in_open: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class CompulsoryMove:
    """B: a rout move, or the retirement after a shaken test, each the whole distance the rules
    give (nothing for the player to pick but the facts he sees).

    A rout goes at rout speed (Rules - Charging: Rout); ``leaves_table``: it goes off the
    friendly table edge; ``blocked`` and ``enemy_within_6``: a routing unit that cannot move
    with an enemy within 6" tests surrender. A retirement is a full move, less 3" (foot), 6"
    (mounted) or 1" (guns) when it keeps its facing (Movement note (d)); ``about_face``: it
    turns to retire and goes the whole move. ``terrain``: the ground it crosses (its speed
    there); ``enters``: the building it ends in (a rout may end in cover)."""

    unit: str = attrs.field(validator=_ID)
    about_face: bool = attrs.field(default=False, validator=FLAG)
    ends_farther: bool = attrs.field(default=True, validator=FLAG)
    blocked: bool = attrs.field(default=False, validator=FLAG)
    enemy_within_6: bool = attrs.field(default=False, validator=FLAG)
    leaves_table: bool = attrs.field(default=False, validator=FLAG)
    terrain: tuple[Terrain, ...] = attrs.field(
        default=(Terrain.OPEN,), validator=each(one_of(*Terrain), tuple)
    )
    enters: Entering | None = attrs.field(default=None, validator=_is(Entering, optional=True))

    def __attrs_post_init__(self) -> None:
        if self.blocked and (self.enters is not None or self.leaves_table):
            raise InvalidValueError(
                "enters", self.enters, "None (and leaves_table False) for a unit that cannot move"
            )
        if self.leaves_table and self.enters is not None:
            raise InvalidValueError("enters", self.enters, "None for a unit leaving the table")


@attrs.frozen
class Move:
    """C: a unit's move (an empty plan: it stands); ``enters``: the building it enters. On a
    table the move names its destination instead: ``to`` (x, y, facing) of the unit's
    centre (None: it stands), and the table measures the plan."""

    unit: str = attrs.field(validator=_ID)
    plan: MovePlan = attrs.field(default=NO_PLAN, validator=_is(MovePlan))
    enters: Entering | None = attrs.field(default=None, validator=_enters_with_crossing)
    to: tuple[float, float, float] | None = attrs.field(default=None, validator=_place)


@attrs.frozen
class ChangeFormation:
    """C: line to column or back; ``base_distance``: the furthest a base moves."""

    unit: str = attrs.field(validator=_ID)
    base_distance: float = attrs.field(default=0.0, validator=_DISTANCE)


@attrs.frozen
class Limber:
    """C: limber a deployed gun (a whole move stationary)."""

    unit: str = attrs.field(validator=_ID)


@attrs.frozen
class Deploy:
    """C: deploy a limbered gun (a whole move stationary)."""

    unit: str = attrs.field(validator=_ID)


@attrs.frozen
class Order:
    """C (command and control on): a commander's order roll for a unit, or one roll for a group
    of his units moving together (``with_units``: the others; the group move's -1 applies)."""

    general: str = attrs.field(validator=_ID)
    unit: str = attrs.field(validator=_ID)
    facts: OrderFacts = attrs.field(factory=OrderFacts, validator=_is(OrderFacts))
    with_units: tuple[str, ...] = attrs.field(default=(), validator=each(_ID, tuple))


@attrs.frozen
class IndependentTest:
    """C (command and control on): a unit not commanded tests alone."""

    unit: str = attrs.field(validator=_ID)


@attrs.frozen
class HighlandChargeMove:
    """C ('45): a unit in a Highland charge moves its distance plus 1d6 at the nearest enemy."""

    unit: str = attrs.field(validator=_ID)


@attrs.frozen
class MoveGeneral:
    """C: a general (or courier) moves up to 21" (half with a light wound) and may join a
    unit (``attach_to``, "" to ride alone)."""

    general: str = attrs.field(validator=_ID)
    inches: float = attrs.field(default=0.0, validator=_DISTANCE)
    attach_to: str = attrs.field(default="", validator=text(empty=True))


@attrs.frozen
class Engineer:
    """C: a close order unit with a wagon's tools builds (every other move) or dismantles a
    work (Field Engineering)."""

    unit: str = attrs.field(validator=_ID)
    work: str = attrs.field(validator=_ID)
    build: bool = attrs.field(default=False, validator=FLAG)
    has_tools: bool = attrs.field(default=True, validator=FLAG)


@attrs.frozen
class LayCharge:
    """C: a unit spends its move laying a demolition charge at a work (the first, or one more
    of its demolition there, up to a wagon's 6)."""

    unit: str = attrs.field(validator=_ID)
    work: str = attrs.field(validator=_ID)


@attrs.frozen
class MoveAway:
    """C: the layers move away once every charge is laid; the charge goes off in phase E. On
    a table the move names its destination (``to``, as for ``Move``; None: it stays) and the
    table measures the plan."""

    unit: str = attrs.field(validator=_ID)
    plan: MovePlan = attrs.field(default=NO_PLAN, validator=_is(MovePlan))
    enters: Entering | None = attrs.field(default=None, validator=_enters_with_crossing)
    to: tuple[float, float, float] | None = attrs.field(default=None, validator=_place)


@attrs.frozen
class ChangeFacing:
    """D: the firing player turns a unit; ``enemies_in_front`` (id, distance) measured from its
    current front."""

    unit: str = attrs.field(validator=_ID)
    degrees: float = attrs.field(validator=finite(-360, 360))
    enemies_in_front: tuple[tuple[str, float], ...] = attrs.field(
        default=(), validator=each(_enemy_at, tuple)
    )
    blocked: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class Fire:
    """E: fire at an enemy (``work``: the building or work the target holds; ``chain_within_18``:
    the units within 18" of a general who might fall). A unit in a building whose two bases
    fire different ways fires each base alone, as a unit in column (``FireFacts.split_fire``).

    H of a second cavalry charge: the target fires at the charging cavalry only if it could not
    have fired in the firing phase; ``could_not_have_fired`` is that fact as the player
    measured it (no enemy in its range and arc then). On a table ``facts`` and ``work`` are
    left out (None, ""): the table measures them."""

    firer: str = attrs.field(validator=_ID)
    target: str = attrs.field(validator=_ID)
    facts: FireFacts | None = attrs.field(default=None, validator=_is(FireFacts, optional=True))
    work: str = attrs.field(default="", validator=text(empty=True))
    chain_within_18: frozenset[str] = attrs.field(default=frozenset(), validator=each(_ID))
    could_not_have_fired: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class Bombard:
    """E: guns fire ball at an empty work (``facts`` as for fire; cover is ignored). On a
    table ``facts`` is left out (None): the table measures them."""

    firer: str = attrs.field(validator=_ID)
    work: str = attrs.field(validator=_ID)
    facts: FireFacts | None = attrs.field(default=None, validator=_is(FireFacts, optional=True))


@attrs.frozen
class Detonate:
    """E: the demolition whose layers moved away this move goes off. ``within``: the ids of
    the units the player measured within the blast radius."""

    work: str = attrs.field(validator=_ID)
    within: frozenset[str] = attrs.field(default=frozenset(), validator=each(_ID))


@attrs.frozen
class SpreadHighlandCharge:
    """E ('45): an unshaken highland unit of the moving side within 12" of a Highland charge
    tests to join it."""

    unit: str = attrs.field(validator=_ID)
    in_musket_range: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class DeclareCharge:
    """F (and again after K for a second cavalry charge): declare a charge. On a table the
    measured facts (``distance``, ``in_front``, ``facts``, ``over_obstacle``, ``uphill``)
    stay at their defaults: the table measures them."""

    charger: str = attrs.field(validator=_ID)
    target: str = attrs.field(validator=_ID)
    distance: float | None = attrs.field(default=None, validator=maybe(_DISTANCE))
    in_front: bool = attrs.field(default=True, validator=FLAG)
    facts: ChargeFacts = attrs.field(factory=ChargeFacts, validator=_is(ChargeFacts))
    over_obstacle: bool = attrs.field(default=False, validator=FLAG)
    uphill: bool = attrs.field(default=False, validator=FLAG)


@attrs.frozen
class TestCharged:
    """G: test a charged unit (in the moving player's order)."""

    __test__ = False  # not a pytest test class

    target: str = attrs.field(validator=_ID)


@attrs.frozen
class CounterCharge:
    """H: a unit that scored below zero counter-charges (or not)."""

    target: str = attrs.field(validator=_ID)
    charge: bool = attrs.field(default=True, validator=FLAG)


@attrs.frozen
class Evade:
    """H (option): an open order or cavalry unit that did not rout evades the charge."""

    target: str = attrs.field(validator=_ID)


@attrs.frozen
class Contact:
    """I: a charger whose target routed or evaded: is the target still within charge reach?
    Out of reach, the charger moves to the target's place: ``enters`` when that place is a
    building."""

    charger: str = attrs.field(validator=_ID)
    in_reach: bool = attrs.field(default=False, validator=FLAG)
    enters: Entering | None = attrs.field(default=None, validator=_is(Entering, optional=True))

    def __attrs_post_init__(self) -> None:
        if self.in_reach and self.enters is not None:
            raise InvalidValueError("enters", self.enters, "None when the target is in reach")


@attrs.frozen
class ResolveMelee:
    """J: fight the melee around a charged unit. ``fronts``: the units engaged to the enemy's
    front (empty: all of them); ``also_defending``: a second unit of the charged side in contact
    with a lone attacker (one attacker against two defenders)."""

    target: str = attrs.field(validator=_ID)
    fronts: frozenset[str] = attrs.field(default=frozenset(), validator=each(_ID))
    chain_within_18: frozenset[str] = attrs.field(default=frozenset(), validator=each(_ID))
    also_defending: tuple[str, ...] = attrs.field(default=(), validator=each(_ID, tuple))


@attrs.frozen
class SecondCharges:
    """K: start the second cavalry charges (F to J again, successful cavalry only)."""


Action: TypeAlias = (
    EndPhase
    | EndBattle
    | TestMorale
    | CompulsoryMove
    | Move
    | ChangeFormation
    | Limber
    | Deploy
    | Order
    | IndependentTest
    | HighlandChargeMove
    | MoveGeneral
    | Engineer
    | LayCharge
    | MoveAway
    | ChangeFacing
    | Fire
    | Bombard
    | Detonate
    | SpreadHighlandCharge
    | DeclareCharge
    | TestCharged
    | CounterCharge
    | Evade
    | Contact
    | ResolveMelee
    | SecondCharges
)
