"""Morale (McKie ACW, Morale): when a unit tests, one average die plus every tactical
factor, read on the (reconstructed) morale results table."""

from __future__ import annotations

import attrs

from smoothbore.core import AVERAGE_DIE, Dice, Modified, Modifier, NamedEnum, TotalCheck, at_least

from . import rules
from .fields import check_fields
from .tables import DEFAULT_TABLES, MoraleResult, Tables
from .units import Quality


class Circumstance(NamedEnum):
    """Morale: when to test. The text's list starts at 2: the first (charging or counter
    charging) is restored from Battle period step 2 (M6)."""

    CHARGING = "charging"
    RECEIVING = "receiving-a-charge"
    CHARGER_FIRED_ON = "charger-20-percent-lost"
    AFTER_MELEE = "after-melee"
    FRIEND_ROUTED = "friend-routed-past"
    RALLY = "rally"
    LOSSES = "10-percent-lost"


@attrs.frozen
class MoraleFacts:
    """Everything the tactical factors read: the unit's quality and state, and what happened
    to it this period. ``tenths_lost``: whole tenths of its original strength lost;
    ``routing_past``: friendly units in sight routing past within 200 mm; ``subtract_quality``
    and ``subtract_cover``: the player's choice where the option lets him subtract the
    "+ or -" factors."""

    quality: Quality = Quality.EXPERIENCED
    in_cover: bool = False
    advancing: bool = False
    general: bool = False
    won_melee: bool = False
    lost_melee: bool = False
    under_artillery: bool = False
    tenths_lost: int = attrs.field(default=0, validator=at_least(0))
    routing_past: int = attrs.field(default=0, validator=at_least(0))
    tired: bool = False
    exhausted: bool = False
    flank: bool = False
    rear: bool = False
    retreating: bool = False
    routing: bool = False
    subtract_quality: bool = False
    subtract_cover: bool = False

    def __attrs_post_init__(self) -> None:
        check_fields(self)  # every field of its type (issue 28)


def morale_modifier(facts: MoraleFacts) -> Modified:
    """The tactical factors added to the average die (Morale: Tactical factors; "if under
    artillery fire this period: 1" is read as -1, M8)."""
    r = rules.MORALE_FACTORS
    sign_q = -1 if facts.subtract_quality else 1
    sign_c = -1 if facts.subtract_cover else 1
    quality = facts.quality
    mods = [
        Modifier("veteran unit", sign_q * 2, r) if quality is Quality.VETERAN else None,
        Modifier("experienced unit", sign_q * 1, r) if quality is Quality.EXPERIENCED else None,
        Modifier("behind or in cover", sign_c, r) if facts.in_cover else None,
        Modifier("advancing", 1, r) if facts.advancing else None,
        Modifier("general in line of command with unit", 1, r) if facts.general else None,
        Modifier("won present period of melee", 1, r) if facts.won_melee else None,
        Modifier("under artillery fire this period", -1, r) if facts.under_artillery else None,
        Modifier(f"{facts.tenths_lost}0% of original strength lost", -facts.tenths_lost, r)
        if facts.tenths_lost else None,
        Modifier(f"{facts.routing_past} friendly unit(s) routing past", -facts.routing_past, r)
        if facts.routing_past else None,
        Modifier("tired", -1, r) if facts.tired else None,
        Modifier("attacked or fired on from the flank", -1, r) if facts.flank else None,
        Modifier("lost present period of melee", -2, r) if facts.lost_melee else None,
        Modifier("attacked or fired on from the rear", -2, r) if facts.rear else None,
        Modifier("retreating", -2, r) if facts.retreating else None,
        Modifier("routing", -3, r) if facts.routing else None,
        Modifier("exhausted", -3, r) if facts.exhausted else None,
    ]
    return Modified(0, "average die", rules.MORALE_PROCEDURE).plus(
        *(m for m in mods if m is not None)
    )


def test_morale(
    facts: MoraleFacts, *, dice: Dice, tables: Tables = DEFAULT_TABLES,
    reason: str = "morale test",
) -> MoraleResult:
    """Morale: Test procedure: one average die plus the tactical factors, read on the morale
    results table."""
    modifier = morale_modifier(facts).total
    total = dice.roll(TotalCheck((AVERAGE_DIE,), modifier), reason=reason,
                      rule=rules.MORALE_PROCEDURE)
    return tables.morale_result(total)


test_morale.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
