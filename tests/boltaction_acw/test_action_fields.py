"""Issue 28, action and fact fields: every field of a Bolt Action ACW action, of the facts it
carries and of the values a step stores (a pending charge, a melee going on) is checked where
it is made, as the loader checks it: a bad value raises InvalidValueError naming the field,
so ``step`` never raises a raw exception nor stores a value ``to_json`` then refuses."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.boltaction_acw import TURN, actions
from smoothbore.boltaction_acw.charges import ChargeFacts, Response
from smoothbore.boltaction_acw.melee import MeleeFacts
from smoothbore.boltaction_acw.shooting import Cover, Firing, ShotFacts
from smoothbore.boltaction_acw.state import Engaged, PendingCharge
from smoothbore.boltaction_acw.units import UNION, Commander, Formation, Unit
from smoothbore.core import InvalidValueError

from .battle import sample_battle

# (the class, good arguments, the field, a bad value of its kind)
CASES: list[tuple[type, dict[str, Any], str, Any]] = [
    (ChargeFacts, {}, "distance", 10**18),
    (ChargeFacts, {}, "distance", 6.5),
    (ChargeFacts, {}, "flank", "no"),
    (ChargeFacts, {}, "rear", 1),
    (ChargeFacts, {}, "obstacle", None),
    (ChargeFacts, {}, "in_front", "yes"),
    (ShotFacts, {}, "cover", "hard"),
    (ShotFacts, {}, "enfilade", "no"),
    (ShotFacts, {}, "in_arc", 0),
    (Firing, {}, "moving", "no"),
    (MeleeFacts, {}, "flank", "no"),
    (MeleeFacts, {}, "obstacle", 1),
    (actions.Advance, {"unit_id": "u"}, "near_holders", "no"),
    (actions.Advance, {"unit_id": "u"}, "terrain", "woods"),
    (actions.Advance, {"unit_id": "u"}, "mount", "dismount"),
    (actions.Advance, {"unit_id": "u"}, "facts", (12, "none")),
    (actions.Advance, {"unit_id": "u"}, "move", 6.0),
    (actions.Advance, {"unit_id": "u"}, "through", 5),
    (actions.Run, {"unit_id": "u"}, "terrain", None),
    (actions.Charge, {"unit_id": "u", "target_id": "t"}, "facts", {"distance": 6}),
    (actions.Charge, {"unit_id": "u"}, "target_id", None),
    (actions.Fire, {"unit_id": "u"}, "target_id", ""),
    (actions.ChangeFormation, {"unit_id": "u"}, "formation", "line"),
    (actions.Respond, {"unit_id": "u"}, "response", "fire"),
    (actions.Respond, {"unit_id": "u", "response": Response.FIRE}, "behind", 3),
    (actions.RideTo, {"commander_id": "c", "y": 5.0}, "x", math.nan),
    (actions.RideTo, {"commander_id": "c", "x": 5.0}, "y", math.inf),
    (actions.RideTo, {"commander_id": "c", "x": 5.0}, "y", 1e300),
    (actions.RideTo, {"commander_id": "c", "x": 5.0}, "y", "3"),
    (actions.Activate, {}, "group", 7),
    (actions.MoveCommander, {"commander_id": "c"}, "unit_id", None),
    (actions.FightOn, {"charger_id": "a"}, "defender_id", ""),
    (PendingCharge, {"charger_id": "a", "target_id": "b"}, "facts", "6"),
    (Engaged, {"charger_id": "a", "defender_id": "b"}, "facts", None),
    (Unit, {"id": "u", "name": "U", "side": UNION}, "routing", "no"),
    (Unit, {"id": "u", "name": "U", "side": UNION}, "colonel", 1),
    (Unit, {"name": "U", "side": UNION}, "id", ""),
    (Commander, {"id": "c", "name": "C", "side": UNION, "brigade": "b"}, "with_unit", 3),
]


@pytest.mark.parametrize(("kind", "good", "field", "bad"), CASES,
                         ids=[f"{c[0].__name__}.{c[2]}={c[3]!r}" for c in CASES])
def test_a_bad_field_is_refused_where_it_is_made(kind: type, good: dict[str, Any],
                                                 field: str, bad: Any) -> None:
    """Until issue 28 these were accepted (booleans as text, NaN points, a fact that was
    not one) and failed inside ``step`` with a raw exception or in ``to_json``."""
    with pytest.raises(InvalidValueError) as refused:
        kind(**good, **{field: bad})
    assert refused.value.field.endswith(field)


BAD = st.sampled_from(["no", 1, 0, None, math.nan, -math.inf, 1e300, 10**18, "", (), 2.5])
ACTIONS = [actions.Advance, actions.Run, actions.Charge, actions.Fire, actions.Respond,
           actions.RideTo, actions.RoutMove, actions.ChangeFormation]


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(ACTIONS), bad=BAD, which=st.integers(0, 20))
def test_a_step_never_stores_a_bad_value(kind: type, bad: Any, which: int) -> None:
    """Each field of each action given a bad value of any kind: refused where it is made
    with InvalidValueError, or a legal action that steps to a state ``to_json`` writes and
    the loader reads back; the state stepped from is unchanged either way."""
    import attrs

    fields = attrs.fields(kind)
    field = fields[which % len(fields)]
    base: dict[str, Any] = {
        "unit_id": "u2wi", "target_id": "cwood", "commander_id": "gibbon", "x": 5.0,
        "y": 5.0, "response": Response.FIRE, "formation": Formation.COLUMN,
    }
    given_args = {f.name: base[f.name] for f in fields if f.name in base}
    given_args[field.name] = bad
    state = sample_battle(0)
    before = state.to_json()
    try:
        action = kind(**given_args)
    except InvalidValueError as error:
        assert field.name in error.field
        return
    if TURN.is_legal(state, action):
        new, _ = TURN.step(state, action)
        assert TURN.load(new.to_json()) == new
    assert state.to_json() == before


def test_cover_is_one_of_its_choices() -> None:
    """Ranges (to hit modifiers): cover is none, soft or hard, as the enum gives it."""
    assert ShotFacts(cover=Cover.HARD).cover is Cover.HARD
