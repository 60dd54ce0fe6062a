"""The books' embedded battles as data (issue 29, item 3): ``core.PackagedBattle`` names a
book and a file, and ``smoothbore.scenario`` reads it when the battle is made, so no book
imports the scenario package and the loader is written once."""

from __future__ import annotations

import pickle

import pytest

from smoothbore.core import BATTLE_READER, InvalidValueError, PackagedBattle
from smoothbore.rulesets import available_rulesets
from smoothbore.scenario.document import packaged


def test_every_embedded_battle_of_the_books_is_a_packaged_battle() -> None:
    for ruleset in available_rulesets():
        for name, make in ruleset.battles():
            assert isinstance(make, PackagedBattle), (ruleset.name, name)
            assert make.book == ruleset.name
            assert make.on_table is not name.endswith("-no-table")


def test_a_packaged_battle_is_its_file_started_as_the_reader_starts_it() -> None:
    battle = PackagedBattle("bloodybacks93", "webster-stevens")
    scenario = packaged("bloodybacks93", "webster-stevens")
    assert battle(11) == scenario.start(11)
    assert battle(11, on_table=False) == scenario.start(11, on_table=False)
    assert PackagedBattle("bloodybacks93", "webster-stevens", on_table=False)(11) == (
        scenario.start(11, on_table=False))
    assert getattr(battle(11).extra, "table", None) is not None
    assert getattr(battle(11, on_table=False).extra, "table", None) is None


@pytest.mark.parametrize("word", ["on_table", "table"])
def test_either_word_plays_the_battle_without_its_table(word: str) -> None:
    """``on_table`` as three books named it, ``table`` as McKie's did."""
    battle = PackagedBattle("mckie_acw", "chickamauga")
    assert getattr(battle(0, **{word: False}).extra, "table", "missing") is None


def test_a_packaged_battle_pickles_as_data() -> None:
    battle = PackagedBattle("will_awi", "cowpens", on_table=False)
    assert pickle.loads(pickle.dumps(battle)) == battle
    assert BATTLE_READER == "smoothbore.scenario.document:packaged"


def test_an_unknown_file_is_refused_when_the_battle_is_made() -> None:
    with pytest.raises(InvalidValueError) as refused:
        PackagedBattle("bloodybacks93", "no-such-battle")(0)
    assert refused.value.field == "bloodybacks93 battle file"
    assert refused.value.value == "no-such-battle"
    assert "camden, webster-stevens" in refused.value.allowed
