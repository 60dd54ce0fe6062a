"""Options where players read the text differently (docs/interpretations/mckie_acw.md), and
the tables in play. A battle's options live on ``state.options``."""

from __future__ import annotations

import attrs

from smoothbore.core import NamedEnum

from .tables import DEFAULT_TABLES, Tables


class PlusOrMinus(NamedEnum):
    """Morale: Tactical factors lists "veteran + or - 2", "experienced + or - 1" and "behind or
    in cover + or - 1" (M7): ``add`` always adds them; ``choose`` lets the testing player add
    or subtract each (the morale test action then says which)."""

    ADD = "add"
    CHOOSE = "choose"


@attrs.frozen(cache_hash=True)
class Options:
    """Options; each default is the text's plainest reading. ``tables``: the missing tables
    in play (the reconstructions, or the player's own copies from ``with_table``)."""

    tables: Tables = DEFAULT_TABLES
    snipers: bool = False
    plus_or_minus: PlusOrMinus = PlusOrMinus.ADD
    courier_next_period: bool = True


DEFAULT_OPTIONS = Options()
