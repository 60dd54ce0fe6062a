"""Modifiers explain totals line by line; events narrate with their rolls and rules."""

import attrs
import pytest

from smoothbore.core import Event, InvalidValueError, Modified, Modifier, RollRecord, narrate


def test_modified_totals_and_explains() -> None:
    need = Modified(4, "unit quality", "rule A").plus(
        Modifier("commander quality", 3, "rule B"),
        Modifier("in cover", 0, "rule C"),
        Modifier("disrupted", -1, "rule D"),
    )
    assert need.total == 6
    assert [m.label for m in need.modifiers] == ["commander quality", "disrupted"]
    lines = need.explain().splitlines()
    assert lines[0].split() == ["4", "unit", "quality", "(rule", "A)"]
    assert "+3  commander quality  (rule B)" in lines[1]
    assert lines[-1].split() == ["6", "total"]
    assert str(need) == "6 (4 unit quality +3 commander quality -1 disrupted)"


def test_plus_never_mutates() -> None:
    base = Modified(2, "base", "r")
    more = base.plus(Modifier("x", 1, "r"))
    assert base.total == 2 and more.total == 3
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        base.base = 5  # type: ignore[misc]


def test_modifier_value_must_be_int() -> None:
    with pytest.raises(InvalidValueError, match="Modifier.value"):
        Modifier("x", 1.5, "r")  # type: ignore[arg-type]


def test_event_narration() -> None:
    roll = RollRecord("3d12 at or under 8", (2, 9, 12), 1, "morale test", "Morale")
    event = Event("morale", "1st Foot holds", "Bloodybacks 9.3, Morale", "foot1", (roll,))
    text = narrate([event, Event("note", "turn ends", "Sequence of Play")])
    assert text.splitlines() == [
        "1st Foot holds [Bloodybacks 9.3, Morale]",
        "  morale test: 3d12 at or under 8 -> [2, 9, 12] = 1 (Morale)",
        "turn ends [Sequence of Play]",
    ]


def test_event_narrates_its_rolls_and_counts_them_in_its_repr() -> None:
    """One roll reads "1 roll", two "2 rolls", none says nothing; several events narrate one
    paragraph each, in order."""
    morale = RollRecord("3d12 at or under 8", (2, 9, 12), 1, "morale test", "Morale")
    rally = RollRecord("d6 at least 4", (5,), True, "rally", "Rally")
    one = Event("morale", "The 5th waver", "Morale", "5th", (morale,))
    two = Event("rally", "They rally", "Rally", "5th", (morale, rally))
    none = Event("note", "Dusk", "Turn end")
    assert repr(one) == "<Event morale: The 5th waver [Morale], 1 roll>"
    assert repr(two) == "<Event rally: They rally [Rally], 2 rolls>"
    assert repr(none) == "<Event note: Dusk [Turn end]>"
    assert two.narrate().splitlines() == [
        "They rally [Rally]",
        "  morale test: 3d12 at or under 8 -> [2, 9, 12] = 1 (Morale)",
        "  rally: d6 at least 4 -> [5] = True (Rally)",
    ]
    assert narrate([none, one]).splitlines()[0] == "Dusk [Turn end]"
    assert narrate([none, one]).splitlines()[1] == "The 5th waver [Morale]"
    assert "The 5th waver" in one._repr_html_() and "Morale" in one._repr_html_()


def test_an_event_carries_its_outcome_as_structured_facts() -> None:
    from smoothbore.core import Log, SamplingDice

    log = Log(SamplingDice(1))
    event = log.add("morale", "The 5th carries on.", "Morale 2", "5th",
                    facts={"test": "morale", "result": "carry-on", "score": 7})
    assert event.facts == (("test", "morale"), ("result", "carry-on"), ("score", 7))
    assert event.fact("result") == "carry-on"
    assert event.fact("missing") is None
    assert Event("k", "t", "r").facts == ()
    with pytest.raises(InvalidValueError, match="Event.facts"):
        Event("k", "t", "r", facts={"bad": [1]})  # type: ignore[dict-item]
