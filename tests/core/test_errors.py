"""The library's errors: what they say, that they name the rule or field, and that they pickle
(process pools send them back from workers)."""

from __future__ import annotations

import pickle

from smoothbore.core import IllegalActionError, InvalidValueError, SmoothboreError


def test_an_illegal_action_names_the_action_why_and_the_rule() -> None:
    error = IllegalActionError(("Fire", "b1"), "b1 has fired this phase", "Toy 4.1")
    assert str(error) == "illegal action ('Fire', 'b1'): b1 has fired this phase (Toy 4.1)"
    assert isinstance(error, SmoothboreError)
    back = pickle.loads(pickle.dumps(error))
    assert (back.action, back.why, back.rule, str(back)) == (
        error.action, error.why, error.rule, str(error)
    )


def test_an_invalid_value_names_the_field_the_value_and_what_is_allowed() -> None:
    error = InvalidValueError("range", -3, "0 or more inches")
    assert str(error) == "range=-3 is invalid: allowed is 0 or more inches"
    assert isinstance(error, ValueError)
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
