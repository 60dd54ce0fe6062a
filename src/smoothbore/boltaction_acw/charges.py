"""Charges (Melee): who may charge whom, the chargers' order test, the charged unit's
order test with its point blank fire, counter charge or retreat, the chargers' morale test,
and skirmishers who cannot fight."""

from __future__ import annotations

import attrs

from smoothbore.core import Dice, NamedEnum
from smoothbore.core.validate import MAX_INCHES, in_range

from .morale import NO_COMMAND, Command, morale_test, order_test
from .movement import charge_reach, rate
from .options import DEFAULT_OPTIONS, Options
from .rules import RULE_CHARGED, RULE_RETREAT
from .shooting import CLOSE_RANGE, ShotFacts, ShotResult, shoot, shots
from .units import FLAG, Formation, Unit, UnitType, add_pins, remove_pins

COUNTER_CHARGE_BEYOND = 12
"""Cavalry counter charge cavalry that start their charge more than 12" away (Melee)."""


@attrs.frozen(cache_hash=True)
class ChargeFacts:
    """What the players measure for a charge: the distance to the target, whether it is
    met from its flank or rear, whether it defends a linear obstacle, whether it is to the
    charger's direct front (Melee)."""

    distance: int = attrs.field(default=6, validator=in_range(0, int(MAX_INCHES)))
    flank: bool = attrs.field(default=False, validator=FLAG)
    rear: bool = attrs.field(default=False, validator=FLAG)
    obstacle: bool = attrs.field(default=False, validator=FLAG)
    in_front: bool = attrs.field(default=True, validator=FLAG)


class Response(NamedEnum):
    """What a charged unit does once it has passed its order test (Melee): fire at point
    blank, hold its fire, or (cavalry against cavalry from beyond 12") counter charge.
    Skirmishers EVADE: they retreat a full move without a test."""

    FIRE = "fire at point blank"
    HOLD = "hold fire"
    COUNTER_CHARGE = "counter charge"
    EVADE = "evade"


def charge_problem(charger: Unit, target: Unit, facts: ChargeFacts) -> str:
    """Why ``charger`` may not charge ``target`` ("" if it may) (Melee): only formed
    infantry and cavalry charge (skirmishers cannot fight; guns and wagons do not, A12), an
    enemy to its direct front, within a run's reach; cavalry never charge a defended obstacle
    nor unpinned infantry in line from the front."""
    if charger.skirmishing or charger.kind not in (UnitType.INFANTRY, UnitType.CAVALRY):
        return f"{charger.name} cannot charge ({charger.kind}, {charger.formation})"
    if not facts.in_front:
        return "only an enemy to the charger's direct front can be charged"
    if facts.distance > charge_reach(charger):
        return f"{facts.distance}\" is beyond the charge reach of {charge_reach(charger)}\""
    if facts.flank and facts.rear:
        return "a charge meets the flank or the rear, not both"
    if charger.kind is UnitType.CAVALRY:
        if facts.obstacle:
            return "cavalry cannot charge defended obstacles"
        frontal = not (facts.flank or facts.rear)
        if (frontal and target.kind is UnitType.INFANTRY and target.formation is Formation.LINE
                and target.pins == 0):
            return "cavalry cannot charge unpinned infantry in line from the front"
    return ""


def responses(charger: Unit, target: Unit, facts: ChargeFacts, *,
              in_arc: bool = True) -> tuple[Response, ...]:
    """The charged unit's choices (Melee): skirmishers evade; cavalry may counter charge
    cavalry charging from beyond 12"; a unit with shots may fire at a charger in its 45°
    front arc (``in_arc``: Shooting); any may hold."""
    if target.skirmishing or target.kind is UnitType.SKIRMISHERS:
        return (Response.EVADE,)
    out = [Response.HOLD]
    if shots(target) and in_arc:
        out.insert(0, Response.FIRE)
    if (target.kind is UnitType.CAVALRY and target.mounted and charger.kind is UnitType.CAVALRY
            and facts.distance > COUNTER_CHARGE_BEYOND):
        out.append(Response.COUNTER_CHARGE)
    return tuple(out)


def caught(charger: Unit, skirmishers: Unit, facts: ChargeFacts) -> bool:
    """Whether retreating skirmishers are caught by formed infantry or cavalry: the
    charger's reach left after the distance covers their full move (A12)."""
    return charge_reach(charger) - facts.distance >= rate(skirmishers)


class Reaction(NamedEnum):
    """How the charge stands after the charged unit's reaction."""

    EVADED = "the skirmishers retreat a full move"
    CAUGHT = "the skirmishers are caught and destroyed"
    RETREATED = "the charged unit retreats a full move"
    STOPPED = "the charged unit stops with its back to the enemy"
    HALTED = "the chargers halt"
    ROUTED = "the chargers rout"
    CHARGE_HOME = "the chargers charge home"
    COUNTER_CHARGED = "the cavalry meet in a counter charge"


@attrs.frozen
class ChargeOutcome:
    """The charged unit's reaction and what came of it: the point blank fire (if any) and
    the units after it."""

    reaction: Reaction
    fire: ShotResult | None
    charger: Unit
    target: Unit
    behind: Unit | None = None

    def __str__(self) -> str:
        return str(self.reaction) + (f" (point blank fire: {self.fire})" if self.fire else "")


def receive(
    charger: Unit,
    target: Unit,
    facts: ChargeFacts,
    response: Response,
    behind: Unit | None = None,
    *,
    dice: Dice,
    options: Options = DEFAULT_OPTIONS,
    commands: tuple[Command, Command, Command] = (NO_COMMAND, NO_COMMAND, NO_COMMAND),
    routing_friends: int = 0,
) -> ChargeOutcome:
    """The charged unit's reaction (Melee). Skirmishers retreat a full move, destroyed if
    caught. Others take an order test: failed, they retreat a full move, and through a
    friendly unit ``behind`` only by passing an interpolation test (passed, an order test:
    they remove a pin; failed: they stop with their back to the enemy and both units take a
    pin). Passed, they remove a pin (Order tests) and fire at point blank
    (the chargers then take a morale test and halt if they fail), hold, or counter charge.
    ``commands``: the charger's, the target's and the unit behind's."""
    if response is Response.EVADE:
        if caught(charger, target, facts):
            return ChargeOutcome(Reaction.CAUGHT, None, charger, attrs.evolve(target, bases=0,
                                                                                casualties=0))
        return ChargeOutcome(Reaction.EVADED, None, charger, target)
    if not order_test(target, commands[1], dice=dice, options=options,
                      reason=f"{target.name} is charged: order test"):
        if behind is None:
            return ChargeOutcome(Reaction.RETREATED, None, charger, target)
        if order_test(target, commands[1], dice=dice, options=options,
                      reason=f"{target.name} retreats through {behind.name}"):
            # the interpolation test is an order test: passed, it removes a pin
            return ChargeOutcome(Reaction.RETREATED, None, charger, remove_pins(target, 1),
                                 behind)
        return ChargeOutcome(Reaction.STOPPED, None, charger, add_pins(target, 1),
                             add_pins(behind, 1))
    target = remove_pins(target, 1)
    if response is Response.COUNTER_CHARGE:
        return ChargeOutcome(Reaction.COUNTER_CHARGED, None, charger, target)
    if response is Response.HOLD:
        return ChargeOutcome(Reaction.CHARGE_HOME, None, charger, target)
    point_blank = ShotFacts(min(facts.distance, CLOSE_RANGE))
    fire, hit = shoot(target, charger, point_blank, dice=dice, options=options,
                      command=commands[0], routing_friends=routing_friends)
    if hit.destroyed:
        return ChargeOutcome(Reaction.ROUTED, fire, hit, target)
    if hit.routing:
        return ChargeOutcome(Reaction.ROUTED, fire, hit, target)
    if morale_test(hit, commands[0], routing_friends, dice=dice, options=options,
                   reason=f"{hit.name} received fire while charging: morale test"):
        return ChargeOutcome(Reaction.CHARGE_HOME, fire, hit, target)
    return ChargeOutcome(Reaction.HALTED, fire, hit, target)


CHARGE_RULES = (RULE_CHARGED, RULE_RETREAT)
