"""Options where players read Bloodybacks 9.3 differently.

Every default is the text's plainest reading, except ``artillery_may_charge`` (the reading a
referee takes, B47); docs/interpretations/bloodybacks93.md says why. A battle's options are
``state.options``.
"""

from __future__ import annotations

import attrs

from smoothbore.core.validate import at_least

from .units import FLAG


@attrs.frozen(cache_hash=True)
class Options:
    """Switches for the points the text leaves open.

    - ``activity_table_quirk``: give 2 CP for "AR4, roll 5" as the printed activity table does
      (the rule and the Stevens example give 1).
    - ``activation_naturals``: let 1s always succeed and 12s always fail in the activation hand
      too (the text states it only for tests, shooting and melee).
    - ``extra_die_per_action_point``: an extra shooting die for every extra action point spent
      shooting, instead of one per extra shooting order.
    - ``cavalry_experiment``: the author's playtest rule, melee involving cavalry rolls 2 dice
      fewer.
    - ``impetus_penalty_after_melee``: apply "-1 per attacker impetus point above own quality"
      also to the defender's cohesion tests after the melee, not only to the check to stand.
    - ``men_per_figure``: figure scale; artillery nominal sizes are given for 1:10.
    - ``artillery_may_charge``: unlimbered artillery may charge like any unit whose move
      reaches the enemy (the text forbids it nowhere). Off by default: the reading a referee
      takes (B47). Limbered guns never charge.
    """

    activity_table_quirk: bool = attrs.field(default=False, validator=FLAG)
    activation_naturals: bool = attrs.field(default=False, validator=FLAG)
    extra_die_per_action_point: bool = attrs.field(default=False, validator=FLAG)
    cavalry_experiment: bool = attrs.field(default=False, validator=FLAG)
    impetus_penalty_after_melee: bool = attrs.field(default=False, validator=FLAG)
    men_per_figure: int = attrs.field(default=10, validator=at_least(1))
    artillery_may_charge: bool = attrs.field(default=False, validator=FLAG)


DEFAULT_OPTIONS = Options()
