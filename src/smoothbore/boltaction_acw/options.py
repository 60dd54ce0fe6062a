"""Options where players read Bolt Action ACW differently (docs/interpretations/
boltaction_acw.md). Every default is the reading a Bolt Action player expects where the text is
silent, or the text's plainest reading where it speaks. A battle's options are
``state.options``."""

from __future__ import annotations

import attrs

from smoothbore.core import NamedEnum


class BeyondSix(NamedEnum):
    """What a to-hit need above 6 does (A1)."""

    SECOND_ROLL = "second roll"
    """Bolt Action's rule: roll a 6, then 4+ for 7, 5+ for 8, 6 for 9; 10+ cannot hit."""
    NATURAL_SIX = "natural six"
    """Any 6 hits."""
    NO_HIT = "no hit"
    """A need above 6 cannot be met."""


class WoundBy(NamedEnum):
    """Whose experience sets the score to wound (A2)."""

    TARGET = "target"
    SHOOTER = "shooter"


class CannonDamage(NamedEnum):
    """What a 12lb cannon's "damage = 1D6 (2D6 at point blank)" counts (A4)."""

    HITS = "hits"
    """Each hit becomes 1D6 (2D6) hits, each rolled to wound."""
    CASUALTIES = "casualties"
    """Each hit causes 1D6 (2D6) casualties, with no roll to wound."""


@attrs.frozen(cache_hash=True)
class Options:
    """Switches for the points the text leaves open.

    - ``beyond_six``: to-hit needs above 6 (A1).
    - ``wound_by``: the target's experience (default) or the shooter's sets the to-wound
      score (A2).
    - ``cannon_damage``: cannon damage as hits to wound (default) or casualties (A4).
    - ``doubles``: a natural 2 always passes and a natural 12 always fails an order or morale
      test, as in Bolt Action (A5).
    - ``morale_commanders_stack``: in morale tests the colonel's +1 and a commander's +2 add
      up, as the morale test lists them (default); off, only one commander bonus counts, as
      in order tests (A13).
    - ``routing_counts_as_lost``: a routing unit counts as lost for the brigade's 50% (A18).
    - ``melee_pin_first``: defenders take the pin for the chargers' casualties before they
      strike back (-1 to hit); by default after, at the end of the round (A35).
    """

    beyond_six: BeyondSix = BeyondSix.SECOND_ROLL
    wound_by: WoundBy = WoundBy.TARGET
    cannon_damage: CannonDamage = CannonDamage.HITS
    doubles: bool = True
    morale_commanders_stack: bool = True
    routing_counts_as_lost: bool = True
    melee_pin_first: bool = False


DEFAULT_OPTIONS = Options()
