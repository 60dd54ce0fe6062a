"""The worked example's rules, in the order a rule book would give them (see the package's
docstring for the rules in words)."""

from __future__ import annotations

from typing import Annotated, Any

import attrs

from smoothbore.core import (
    D6,
    ActionRule,
    BattleState,
    Dice,
    DiceState,
    Done,
    Engine,
    Help,
    IllegalActionError,
    Log,
    Mechanism,
    Outcome,
    Phase,
    PhaseEnd,
    Roll,
    Ruleset,
    Scenario,
    Staged,
    ThresholdCheck,
    TotalCheck,
    at_least,
    phase_scoped,
    revised,
)
from smoothbore.core.ruleset import validated
from smoothbore.table import Feature, Footprint, Table, distance

RULE_SEQUENCE = "Example 1 (sequence)"
RULE_FIRE = "Example 2 (fire)"
RULE_CHARGE = "Example 3 (charge)"
RULE_VICTORY = "Example 4 (victory)"
RED, BLUE = "red", "blue"
FIRE, CHARGE = "fire", "charge"
STRENGTH = 3
FIRE_RANGE = 12.0
CLOSE_RANGE = 6.0
CHARGE_REACH = 6.0
LAST_TURN = 8


# --- units, state and actions ---------------------------------------------------------------
@attrs.frozen
class Battalion:
    """A battalion: its strength points (0: destroyed)."""

    id: str
    name: str
    side: str
    strength: int = attrs.field(default=STRENGTH, validator=at_least(0))


@attrs.frozen
class Colonel:
    """A commander (the example's rules give them nothing to do)."""

    id: str
    name: str
    side: str


@attrs.frozen
class Extra:
    """The side acting, who has fired this phase, whether a charge was made, the table."""

    active: str = RED
    fired: frozenset[str] = phase_scoped(factory=frozenset)
    charged: bool = phase_scoped(False)
    table: Table | None = None


@attrs.frozen
class Options:
    """The example has no options."""


State = BattleState[Battalion, Colonel, Extra, Options]


@attrs.frozen
class Fire:
    """A battalion fires at an enemy battalion (Example 2)."""

    firer: str
    target: str


@attrs.frozen
class Charge:
    """A battalion charges an enemy battalion (Example 3)."""

    charger: str
    target: str


@attrs.frozen
class EndPhase:
    """The side acting is done with this phase (the engine applies it: ``PHASE_ENDS``)."""


@attrs.frozen
class Volley:
    """The ruling of a fire check: the range measured on the table and the score needed."""

    distance: float
    need: int


@attrs.frozen
class Reach:
    """The ruling of a charge check: the distance to the target measured on the table."""

    distance: float


# --- Example 3: the charge, as a staged rule --------------------------------------------------
@attrs.frozen
class ChargeEnd:
    """How a charge ended: who won (``charger``, ``defender`` or ``neither``), what each
    side lost, and why."""

    winner: str
    charger_loss: int
    defender_loss: int
    why: str

    def __str__(self) -> str:
        return f"{self.why}: the {self.winner} wins" if self.winner != "neither" else self.why


REPULSED = ChargeEnd("defender", 1, 0, "stopped by the closing volley")


def _begin(charger: int, defender: int) -> tuple[tuple[int, int], str]:
    return (charger, defender), "closing volley"


def _closing_volley(context: tuple[int, int], value: str, *, dice: Dice) -> Roll[Any]:
    return Roll(ThresholdCheck((D6,), 5), "the defender's closing volley", RULE_CHARGE,
                lambda hit: Done(REPULSED) if hit else "melee")


def _charger_melee(context: tuple[int, int], value: str, *, dice: Dice) -> Roll[Any]:
    charger, _ = context
    return Roll(TotalCheck.of(1, D6, charger + 1), "the charger's melee (d6 + strength + 1)",
                RULE_CHARGE)


def _defender_melee(context: tuple[int, int], charger_total: int, *, dice: Dice) -> Roll[Any]:
    _, defender = context
    return Roll(TotalCheck.of(1, D6, defender), "the defender's melee (d6 + strength)",
                RULE_CHARGE, lambda total: (charger_total, total))


def _decide(context: tuple[int, int], totals: tuple[int, int]) -> ChargeEnd:
    charger, defender = totals
    if charger > defender:
        return ChargeEnd("charger", 0, 1, "the charge went home")
    if defender > charger:
        return ChargeEnd("defender", 1, 0, "the charge was thrown back")
    return ChargeEnd("neither", 1, 1, "a bloody draw")


charge: Staged[ChargeEnd] = Staged(
    "charge", RULE_CHARGE, _begin, (_closing_volley, _charger_melee, _defender_melee),
    _decide, "A charge: the closing volley, then the melee (Example 3).")


@validated
def charge_odds(*, dice: Dice,
                charger: Annotated[int, Help("the charger's strength points", low=1,
                                             high=STRENGTH)] = STRENGTH,
                defender: Annotated[int, Help("the defender's strength points", low=1,
                                              high=STRENGTH)] = STRENGTH) -> ChargeEnd:
    """How a charge ends, from the two battalions' strength points."""
    return charge(charger, defender, dice=dice)


# --- Example 2: fire --------------------------------------------------------------------------
def _table(state: State) -> Table:
    table = state.extra.table
    if table is None:
        raise IllegalActionError(None, "the example is played on a table", RULE_SEQUENCE)
    return table


def candidates_fire(state: State) -> list[Fire]:
    return [Fire(f.id, t.id) for f in state.units if f.side == state.extra.active
            and f.strength for t in state.units if t.side != f.side and t.strength]


def check_fire(state: State, action: Fire) -> Volley:
    """Legal, and its ruling: the range and the score needed. (Who fires is the engine's
    guard: a battalion of the side acting, standing.)"""
    target = state.unit(action.target)
    if action.firer in state.extra.fired:
        raise IllegalActionError(action, f"{state.unit(action.firer).name} has fired",
                                 RULE_FIRE)
    if target.side == state.extra.active or not target.strength:
        raise IllegalActionError(action, "fire at a standing enemy battalion", RULE_FIRE)
    reach = distance(_table(state), action.firer, action.target)
    if reach > FIRE_RANGE:
        raise IllegalActionError(action, f"{target.name} is {reach:.1f}\" away, beyond "
                                 f"{FIRE_RANGE:g}\"", RULE_FIRE)
    return Volley(reach, 4 if reach <= CLOSE_RANGE else 5)


def apply_fire(state: State, action: Fire, log: Log, volley: Volley) -> State:
    target = state.unit(action.target)
    hit = log.dice.roll(ThresholdCheck((D6,), volley.need), reason=f"volley at {target.name}",
                        rule=RULE_FIRE)
    log.add("fire", f"{state.unit(action.firer).name} {'hits' if hit else 'misses'} "
            f"{target.name} at {volley.distance:.1f}\"", RULE_FIRE, action.firer,
            {"distance": volley.distance, "need": volley.need, "hit": bool(hit)})
    hurt = revised(target, strength=target.strength - int(hit))
    return state.with_units(hurt).with_extra(fired=state.extra.fired | {action.firer})


# --- Example 3: charge ------------------------------------------------------------------------
def candidates_charge(state: State) -> list[Charge]:
    if state.extra.charged:
        return []
    return [Charge(f.id, t.id) for f in state.units if f.side == state.extra.active
            and f.strength for t in state.units if t.side != f.side and t.strength]


def check_charge(state: State, action: Charge) -> Reach:
    target = state.unit(action.target)
    if state.extra.charged:
        raise IllegalActionError(action, "one charge a turn", RULE_CHARGE)
    if target.side == state.extra.active or not target.strength:
        raise IllegalActionError(action, "charge a standing enemy battalion", RULE_CHARGE)
    reach = distance(_table(state), action.charger, action.target)
    if reach > CHARGE_REACH:
        raise IllegalActionError(action, f"{target.name} is {reach:.1f}\" away, beyond "
                                 f"{CHARGE_REACH:g}\"", RULE_CHARGE)
    return Reach(reach)


def apply_charge(state: State, action: Charge, log: Log, reach: Reach) -> State:
    charger, target = state.unit(action.charger), state.unit(action.target)
    end = charge(charger.strength, target.strength, dice=log.dice)
    log.add("charge", f"{charger.name} charges {target.name} from {reach.distance:.1f}\": "
            f"{end}", RULE_CHARGE, charger.id,
            {"winner": end.winner, "charger_loss": end.charger_loss,
             "defender_loss": end.defender_loss})
    units = (revised(charger, strength=charger.strength - end.charger_loss),
             revised(target, strength=target.strength - end.defender_loss))
    return state.with_units(*units).with_extra(charged=True)


# --- Example 1: the sequence, as data -----------------------------------------------------------
def hand_over(state: State, log: Log) -> State:
    """At the end of a side's turn the other side acts."""
    other = BLUE if state.extra.active == RED else RED
    log.add("sequence", f"{other} acts", RULE_SEQUENCE)
    return state.with_extra(active=other)


PHASES = (
    Phase(FIRE, RULE_FIRE, "each battalion of the side acting may fire once"),
    Phase(CHARGE, RULE_CHARGE, "one battalion of the side acting may charge"),
)
PHASE_ENDS = (
    PhaseEnd(FIRE, CHARGE, RULE_SEQUENCE),
    PhaseEnd(CHARGE, FIRE, RULE_SEQUENCE, new_turn=True, then=hand_over),
)


# --- Example 4: victory; the engine ----------------------------------------------------------
def stands(battalion: Battalion) -> bool:
    """A destroyed battalion leaves the table."""
    return battalion.strength > 0


def actor(action: Any) -> str | None:
    """The battalion that acts: it must be of the side acting and stand (the engine's
    guard)."""
    return getattr(action, "firer", None) or getattr(action, "charger", None)


def who_acts(state: State) -> str:
    return state.extra.active


def _left(state: State, side: str) -> int:
    return sum(b.strength for b in state.units if b.side == side)


def is_over(state: State) -> bool:
    limit = state.scenario.turn_limit
    return (limit is not None and state.turn > limit) or not all(
        _left(state, side) for side in state.sides)


def losses(state: State) -> tuple[tuple[str, int], ...]:
    """The strength points each side has lost."""
    return tuple((side, sum(STRENGTH - b.strength for b in state.units if b.side == side))
                 for side in state.sides)


def outcome(state: State) -> Outcome:
    lost = dict(losses(state))
    scores = ((RED, lost[BLUE]), (BLUE, lost[RED]))
    for side, enemy in ((RED, BLUE), (BLUE, RED)):
        if not _left(state, enemy):
            return Outcome(side, scores, f"every {enemy} battalion is destroyed", RULE_VICTORY)
    best = max(value for _, value in scores)
    leaders = [side for side, value in scores if value == best]
    return Outcome(leaders[0] if len(leaders) == 1 else None, scores,
                   "the last turn was played: strength points taken decide", RULE_VICTORY)


TURN: Engine[State, Fire | Charge | EndPhase] = Engine(
    name="example",
    phases=PHASES,
    actions=(
        ActionRule(Fire, (FIRE,), candidates_fire, check_fire, apply_fire, ruled=True),
        ActionRule(Charge, (CHARGE,), candidates_charge, check_charge, apply_charge,
                   ruled=True),
    ),
    who_acts=who_acts,
    over=is_over,
    result=outcome,
    types=(Battalion, Colonel, Extra, Options),
    rule=RULE_SEQUENCE,
    stands=stands,
    actor=actor,
    actor_rule=RULE_SEQUENCE,
    phase_ends=PHASE_ENDS,
    end_action=EndPhase,
)


# --- the embedded battle ------------------------------------------------------------------------
def new_battle(seed: int) -> State:
    """Three battalions a side in line, 6" apart centre to centre across a 36" x 24" table
    with a wood; red acts first."""
    prints = [Footprint(f"{side[0]}{i}", 8.0 + 10 * i, y, facing, bases=4, frontage=1.0,
                        depth=1.0, side=side)
              for side, y, facing in ((RED, 9.0, 0.0), (BLUE, 15.0, 180.0)) for i in range(3)]
    table = Table(36, 24, features=(Feature("wood", "light woods", outline=(
        (1, 10), (5, 10), (5, 14), (1, 14))),), footprints=tuple(prints))
    names = ("1st Foot", "2nd Foot", "3rd Foot")
    battalions = tuple(Battalion(f"{s[0]}{i}", f"{s.title()} {names[i]}", s)
                       for s in (RED, BLUE) for i in range(3))
    return BattleState(
        "example", (RED, BLUE), battalions,
        (Colonel("rc", "Red Colonel", RED), Colonel("bc", "Blue Colonel", BLUE)),
        Extra(table=table), Options(), DiceState(seed), 1, FIRE,
        Scenario("skirmish", LAST_TURN))


RULESET = Ruleset(
    name="example", title="smoothbore's worked example", period="horse and musket",
    edition="1", aliases=(), dice=("d6",), phases=PHASES,
    mechanisms=(Mechanism.of(charge_odds, RULE_CHARGE, name="charge"),), turn=TURN,
    example=new_battle,
    source="docs/writing-a-ruleset.md", colours={RED: "#b22222", BLUE: "#1f4e9c"},
)
