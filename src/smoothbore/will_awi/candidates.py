"""The actions worth trying in each phase, with default table facts, from which
``WillTurn.legal_actions`` keeps the legal ones."""

from __future__ import annotations

from smoothbore.core import IllegalActionError

from .actions import (
    Bombard,
    ChangeFacing,
    CompulsoryMove,
    Contact,
    CounterCharge,
    DeclareCharge,
    Detonate,
    EndPhase,
    Engineer,
    Evade,
    Fire,
    HighlandChargeMove,
    IndependentTest,
    LayCharge,
    Move,
    MoveAway,
    MoveGeneral,
    Order,
    ResolveMelee,
    SecondCharges,
    TestCharged,
    TestMorale,
    WillAction,
)
from .firing import RANGES, FireFacts
from .movement import move_distance
from .turn_state import A, B, C, D, E, F, G, H, I, J, K, WillState, firing_side, pending_melees
from .units import WillUnit


def default_range(firer: WillUnit) -> float:
    """The firer's longest short range, the range the candidates fire at."""
    weapon = firer.fires_with
    if weapon is None:
        return 0.0
    return float(RANGES[weapon][0])


def candidates(state: WillState) -> tuple[WillAction, ...]:
    """Actions worth trying now, with default table facts."""
    moving = state.units_of(state.extra.moving)
    firing = state.units_of(firing_side(state))
    out: list[WillAction] = [EndPhase()]
    p = state.phase
    if p == A:
        out += [TestMorale(u.id) for u in moving]
    elif p == B:
        for u in moving:
            inches = 0.0
            if u.on_table and not u.immobilised:
                try:
                    inches = float(move_distance(u, options=state.extra.options))
                except IllegalActionError:
                    inches = 0.0
            out.append(CompulsoryMove(u.id, inches))
    elif p == C:
        out += [Move(u.id) for u in moving]
        out += [HighlandChargeMove(u.id) for u in moving if u.highland_charge]
        out += [IndependentTest(u.id) for u in moving]
        out += [
            MoveGeneral(g.id, 0.0, u.id)
            for g in state.commanders
            if g.side == state.extra.moving
            for u in moving
        ]
        for w in state.extra.works:
            for u in moving:
                out += [Engineer(u.id, w.id, build) for build in (False, True)]
                out += [LayCharge(u.id, w.id, 1)]
        out += [MoveAway(d.unit) for d in state.extra.demolitions]
        for g in state.commanders:
            if g.side != state.extra.moving:
                continue
            out += [Order(g.id, u.id) for u in moving]
            own = [u.id for u in moving if u.commander == g.id]
            if len(own) > 1:
                out.append(Order(g.id, own[0], with_units=tuple(own[1:])))
    elif p == D:
        out += [ChangeFacing(u.id, 0.0) for u in firing]
    elif p == E:
        out += [Detonate(d.work) for d in state.extra.demolitions]
        out += [
            Bombard(f.id, w.id, FireFacts(default_range(f) + 1))
            for f in firing
            for w in state.extra.works
        ]
        out += [Fire(f.id, t.id, FireFacts(default_range(f))) for f in firing for t in moving]
    elif p == F:
        out += [DeclareCharge(c.id, t.id, 0.0) for c in moving for t in firing]
        if state.extra.second_round:
            # The target of a second cavalry charge that could not have fired in E fires now.
            out += [
                Fire(
                    c.target,
                    c.charger,
                    FireFacts(default_range(state.unit(c.target))),
                    could_not_have_fired=unable,
                )
                for c in state.extra.charges
                for unable in (False, True)
            ]
    elif p == G:
        out += [TestCharged(c.target) for c in state.extra.charges]
    elif p == H:
        for t in state.extra.tests:
            out += [CounterCharge(t.target, True), CounterCharge(t.target, False), Evade(t.target)]
    elif p == I:
        out += [Contact(c.charger, False) for c in state.extra.charges]
    elif p == J:
        out += [ResolveMelee(t) for t in pending_melees(state)]
    elif p == K:
        out.append(SecondCharges())
    unique: list[WillAction] = []
    for a in out:
        if a not in unique:
            unique.append(a)
    return tuple(unique)
