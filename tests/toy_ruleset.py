"""A toy ruleset on the core engine, for the tests of the layer above the rulesets (playing,
replaying, simulating, the command line, the conformance checks), so they need no rule book.

Two sides of two companies (3 strength points each). A side's turn has a fire phase, in
which each of its companies may fire once at an enemy company (a d6 of ``hit_on`` or more
takes a strength point; at 0 the company is destroyed), then a rally phase, in which one
damaged company may try to rally (a 6 gives a point back) before the side hands over. The
battle ends when a side has no company left or when the scenario's last turn has been
played; the score of a side is the strength points the enemy has lost.

Importable as ``tests.toy_ruleset:RULESET``, so worker processes can load it by reference.
``broken(kind)`` gives variants that break one rule of the engine contract, to show that
the conformance checks catch them.
"""

from __future__ import annotations

import itertools
from typing import Annotated

import attrs

from smoothbore.core import (
    D6,
    ActionRule,
    BattleState,
    Dice,
    DiceState,
    Engine,
    Help,
    IllegalActionError,
    Log,
    Mechanism,
    Outcome,
    Phase,
    Ruleset,
    Scenario,
    ThresholdCheck,
    at_least,
    begin_turn,
    enter_phase,
    phase_scoped,
)
from smoothbore.core.ruleset import validated
from smoothbore.table import Feature, Footprint, Table

RULE = "Toy rules"
RULE_FIRE = "Toy rules 2 (fire)"
RULE_RALLY = "Toy rules 3 (rally)"
RULE_END = "Toy rules 4 (end of the battle)"
RED, BLUE = "red", "blue"
SIDES = (RED, BLUE)
FIRE, RALLY = "fire", "rally"
STRENGTH = 3


@attrs.frozen
class Company:
    """A company: strength points left (0: destroyed)."""

    id: str
    name: str
    side: str
    strength: int = attrs.field(default=STRENGTH, validator=at_least(0))


@attrs.frozen
class Captain:
    id: str
    name: str
    side: str


@attrs.frozen
class Extra:
    """Whose turn it is, and who has fired or rallied in the current phase."""

    active: str = RED
    fired: frozenset[str] = phase_scoped(factory=frozenset)
    rallied: bool = phase_scoped(False)
    table: Table | None = None


@attrs.frozen
class Options:
    hit_on: int = 4


Toy = BattleState[Company, Captain, Extra, Options]


@attrs.frozen
class Fire:
    firer: str
    target: str


@attrs.frozen
class Rally:
    company: str


@attrs.frozen
class EndPhase:
    """The active side has done what it wanted in this phase."""


PHASES = (
    Phase(FIRE, RULE_FIRE, "each company of the side may fire once"),
    Phase(RALLY, RULE_RALLY, "one damaged company may try to rally"),
)


@validated
def fire_roll(*, dice: Dice, hit_on: Annotated[int, Help("the d6 score that hits", low=1,
                                                         high=7)] = 4) -> bool:
    """Whether a company's fire takes a strength point."""
    return dice.roll(ThresholdCheck((D6,), hit_on), reason="fire", rule=RULE_FIRE)


def candidates_fire(state: Toy) -> list[Fire]:
    return [Fire(f.id, t.id) for f in state.units_of(state.extra.active)
            for t in state.units if t.side != f.side]


def check_fire(state: Toy, action: Fire) -> None:
    firer, target = state.unit(action.firer), state.unit(action.target)
    if firer.side != state.extra.active or target.side == firer.side:
        raise IllegalActionError(action, "a company of the active side fires at an enemy",
                                 RULE_FIRE)
    if firer.id in state.extra.fired:
        raise IllegalActionError(action, f"{firer.name} has fired this phase", RULE_FIRE)
    if firer.strength == 0 or target.strength == 0:
        raise IllegalActionError(action, "destroyed companies neither fire nor are fired at",
                                 RULE_FIRE)


def apply_fire(state: Toy, action: Fire, log: Log) -> Toy:
    target = state.unit(action.target)
    hit = fire_roll(dice=log.dice, hit_on=state.options.hit_on)
    log.add("fire", f"{action.firer} {'hits' if hit else 'misses'} {target.name}", RULE_FIRE,
            action.firer)
    extra = attrs.evolve(state.extra, fired=state.extra.fired | {action.firer})
    after = attrs.evolve(target, strength=target.strength - hit)
    return attrs.evolve(state.with_units(after), extra=extra)


def candidates_rally(state: Toy) -> list[Rally]:
    return [Rally(c.id) for c in state.units_of(state.extra.active)]


def check_rally(state: Toy, action: Rally) -> None:
    company = state.unit(action.company)
    if company.side != state.extra.active or state.extra.rallied:
        raise IllegalActionError(action, "one company of the active side rallies a phase",
                                 RULE_RALLY)
    if not 0 < company.strength < STRENGTH:
        raise IllegalActionError(action, f"{company.name} has nothing to rally", RULE_RALLY)


def apply_rally(state: Toy, action: Rally, log: Log) -> Toy:
    company = state.unit(action.company)
    back = log.dice.roll(ThresholdCheck((D6,), 6), reason="rally", rule=RULE_RALLY)
    log.add("rally", f"{company.name} {'rallies' if back else 'does not rally'}", RULE_RALLY,
            company.id)
    extra = attrs.evolve(state.extra, rallied=True)
    return attrs.evolve(state.with_units(attrs.evolve(company, strength=company.strength + back)),
                        extra=extra)


def candidates_end(state: Toy) -> list[EndPhase]:
    return [EndPhase()]


def check_end(state: Toy, action: EndPhase) -> None:
    return None


def apply_end(state: Toy, action: EndPhase, log: Log) -> Toy:
    if state.phase == FIRE:
        return enter_phase(state, RALLY)
    if state.extra.active == RED:
        handed = enter_phase(state, FIRE)
        return attrs.evolve(handed, extra=attrs.evolve(handed.extra, active=BLUE))
    log.add("turn", f"turn {state.turn + 1} begins", RULE)
    new = begin_turn(state, FIRE)
    return attrs.evolve(new, extra=attrs.evolve(new.extra, active=RED))


def stands(company: Company) -> bool:
    """A destroyed company leaves the table (Toy rules 2)."""
    return company.strength > 0


def who_acts(state: Toy) -> str:
    return state.extra.active


def _standing(state: Toy, side: str) -> bool:
    return any(c.strength for c in state.units_of(side))


def is_over(state: Toy) -> bool:
    limit = state.scenario.turn_limit
    return (limit is not None and state.turn > limit) or not all(
        _standing(state, side) for side in state.sides)


def losses(state: Toy) -> tuple[tuple[str, int], ...]:
    """The strength points each side has lost."""
    return tuple((side, sum(STRENGTH - c.strength for c in state.units_of(side)))
                 for side in state.sides)


def outcome(state: Toy) -> Outcome:
    lost = dict(losses(state))
    scores = ((RED, lost[BLUE]), (BLUE, lost[RED]))
    for side, enemy in ((RED, BLUE), (BLUE, RED)):
        if not _standing(state, enemy):
            return Outcome(side, scores, f"every {enemy} company is destroyed", RULE_END)
    best = max(value for _, value in scores)
    leaders = [side for side, value in scores if value == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return Outcome(winner, scores, "the last turn was played: losses decide", RULE_END)


ACTIONS = (
    ActionRule(Fire, (FIRE,), candidates_fire, check_fire, apply_fire),
    ActionRule(Rally, (RALLY,), candidates_rally, check_rally, apply_rally),
    ActionRule(EndPhase, (FIRE, RALLY), candidates_end, check_end, apply_end),
)
TURN: Engine[Toy, Fire | Rally | EndPhase] = Engine(
    "toy", PHASES, ACTIONS, who_acts, is_over, outcome, (Company, Captain, Extra, Options), RULE,
    stands=stands,
)


def new_battle(seed: int, turn_limit: int | None = 3, hit_on: int = 4, name: str = "skirmish"
               ) -> Toy:
    """Two companies a side, red to act first."""
    return BattleState(
        "toy", SIDES,
        (Company("r1", "Red Foot", RED), Company("r2", "Red Guards", RED),
         Company("b1", "Blue Foot", BLUE), Company("b2", "Blue Rifles", BLUE)),
        (Captain("rc", "Red Captain", RED), Captain("bc", "Blue Captain", BLUE)),
        Extra(), Options(hit_on), DiceState(seed), 1, FIRE, Scenario(name, turn_limit),
    )


def field_battle(seed: int) -> Toy:
    """The default battle on a 24 x 12 inch table with a wood: the companies stand in line
    facing each other (the toy rules measure nothing; the table is drawn)."""
    line = {"bases": 2, "frontage": 2.0, "depth": 1.0}
    table = Table(24, 12, features=(Feature("w", "light woods", outline=(
        (10, 4), (14, 4), (14, 8), (10, 8))),), footprints=(
        Footprint("r1", 6, 2, 0.0, side=RED, **line), Footprint("r2", 18, 2, 0.0, side=RED, **line),
        Footprint("b1", 6, 10, 180.0, side=BLUE, **line),
        Footprint("b2", 18, 10, 180.0, side=BLUE, **line)))
    start = new_battle(seed, name="field")
    return start.with_extra(table=table)


def example_battle(seed: int) -> Toy:
    """The default battle: three turns."""
    return new_battle(seed)


def long_battle(seed: int) -> Toy:
    """Six turns of poorer shooting."""
    return new_battle(seed, 6, 5, "long")


RULESET = Ruleset(
    name="toy", title="Toy Skirmish", period="none", edition="1", aliases=("skirmish",),
    dice=("d6",), phases=PHASES, mechanisms=(Mechanism.of(fire_roll, RULE_FIRE),), turn=TURN,
    example=example_battle, scenarios=(("long", long_battle), ("field", field_battle)),
)


# --- variants that break the engine contract, for the conformance checks' own tests ---
def _candidates_fire_incomplete(state: Toy) -> list[Fire]:
    """Leaves out companies down to one point, though ``check_fire`` accepts them."""
    return [a for a in candidates_fire(state) if state.unit(a.firer).strength != 1]


def _apply_fire_refusing(state: Toy, action: Fire, log: Log) -> Toy:
    """A handler that refuses a listed action (legality outside the check)."""
    if state.unit(action.target).strength == 1:
        raise IllegalActionError(action, "the last point cannot be taken", RULE_FIRE)
    return apply_fire(state, action, log)


_COUNTER = itertools.count()


def _apply_end_impure(state: Toy, action: EndPhase, log: Log) -> Toy:
    """A handler whose result depends on how often it has run (hidden state); it changes a
    flag the fire phase does not read, so play goes on as before."""
    new = apply_end(state, action, log)
    if new.phase != FIRE:
        return new
    return attrs.evolve(new, extra=attrs.evolve(new.extra, rallied=next(_COUNTER) % 2 == 0))


def _never_over(state: Toy) -> bool:
    return False


def _apply_rally_lifting(state: Toy, action: Rally, log: Log) -> Toy:
    """A handler that lifts the rallying company's footprint off the table, though it still
    stands."""
    new = apply_rally(state, action, log)
    table = new.extra.table
    if table is None or action.company not in table.units:
        return new
    return new.with_extra(table=table.removed(action.company))


def broken(kind: str) -> Ruleset:
    """The toy ruleset with one defect: ``incomplete`` candidates, a handler that
    ``refuses`` a listed action, an ``impure`` step, a battle that ``never-ends``, an
    action type that is ``never-offered``, a turn that does not say which units stand on its
    table (``no-stands``: destroyed companies' footprints stay), or a handler ``lifting`` the
    footprint of a company that still stands."""
    actions = list(ACTIONS)
    turn = TURN
    if kind == "incomplete":
        actions[0] = attrs.evolve(actions[0], candidates=_candidates_fire_incomplete)
    elif kind == "refuses":
        actions[0] = attrs.evolve(actions[0], handler=_apply_fire_refusing)
    elif kind == "impure":
        actions[2] = attrs.evolve(actions[2], handler=_apply_end_impure)
    elif kind == "never-offered":
        actions[1] = attrs.evolve(actions[1], candidates=lambda state: ())
    elif kind == "never-ends":
        turn = turn.with_outcome(over=_never_over)
    elif kind == "no-stands":
        turn = attrs.evolve(turn, stands=None)
    elif kind == "lifting":
        actions[1] = attrs.evolve(actions[1], handler=_apply_rally_lifting)
    else:
        raise ValueError(kind)
    turn = attrs.evolve(turn, actions=tuple(actions))
    return attrs.evolve(RULESET, turn=turn)
