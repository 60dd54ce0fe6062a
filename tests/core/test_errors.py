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


# --- issue 31: did-you-mean in Python, as on the command line ------------------------------------
def test_a_refused_name_from_python_says_what_was_meant() -> None:
    """Issue 31: ``get_ruleset('bolt')``, ``.battle('cowpen')`` and a mistyped mechanism,
    parameter or choice were refused from Python without a suggestion."""
    import pytest

    from smoothbore.core import odds
    from smoothbore.rulesets import get_ruleset

    cases = [
        (lambda: get_ruleset("bolt"), "boltaction_acw"),
        (lambda: get_ruleset("wil-awi"), "will_awi"),
        (lambda: get_ruleset("will_awi").battle("cowpen"), "cowpens"),
        (lambda: get_ruleset("will_awi").mechanism("fier"), "fire"),
        (lambda: get_ruleset("will_awi").mechanism("fire").parameter("covr"), "cover"),
        (lambda: odds(get_ruleset("will_awi").mechanism("fire").function, cover="woods"),
         "woods-or-soft-cover"),
        (lambda: get_ruleset("will_awi").mechanism("fire").arguments({"cover": "woods"}),
         "woods-or-soft-cover"),
    ]
    for call, meant in cases:
        with pytest.raises(InvalidValueError) as caught:
            call()
        assert str(caught.value).endswith(f"; did you mean {meant!r}?")
        assert caught.value.suggestion == meant
        back = pickle.loads(pickle.dumps(caught.value))
        assert str(back) == str(caught.value)  # the suggestion survives a process pool


def test_a_value_the_rules_refuse_in_a_mechanism_is_said_by_the_call_not_none() -> None:
    """Issue 31: ``odds`` of Will's fire at range 8 said "illegal action None: ..."."""
    import pytest

    from smoothbore.core import odds
    from smoothbore.rulesets import get_ruleset

    fire = get_ruleset("will_awi").mechanism("fire")
    with pytest.raises(IllegalActionError) as caught:
        odds(fire.function, range=8)
    assert str(caught.value) == (
        "fire range=8: 8.0\" is beyond the range of muskets "
        "(Will's AWI (will-awi-2008.txt), Rules - Firing: Ranges)")
    assert str(IllegalActionError(None, "no table", "Toy 1")) == "no table (Toy 1)"


def test_a_value_far_from_every_name_gets_no_suggestion() -> None:
    error = InvalidValueError("cover", "xyz", "one of open, woods-or-soft-cover")
    assert error.suggestion is None and "did you mean" not in str(error)
    assert InvalidValueError("range", "8", "an integer from 0 to 6").suggestion is None


def test_a_refused_value_in_a_saved_state_is_answered_with_the_value_meant() -> None:
    """The loader lists enum values quoted ("one of 'line', 'column'"): the suggestion is
    the value, not its quotes."""
    from smoothbore.core.errors import LoadError

    error = LoadError("$.units[0].formation", "lien", "one of 'line', 'column', 'skirmish'")
    assert error.suggestion == "line"
    assert str(error).endswith("; did you mean 'line'?")


def test_a_hint_given_already_is_not_given_twice() -> None:
    error = InvalidValueError("kind", "wods", "one of woods, river (did you mean 'woods'?)")
    assert error.suggestion is None and str(error).count("did you mean") == 1
