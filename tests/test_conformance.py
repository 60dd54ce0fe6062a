"""The conformance suite (``smoothbore.testing``) over every registered ruleset, the worked
example and every embedded battle: a thin caller, one test per check and ruleset, so that
``-k <book>`` runs one book's. What each check does is said in ``smoothbore.testing``; the
checks are plain functions raising AssertionError, so ``test_the_checks_catch_...`` shows on
broken toy rulesets (tests/toy_ruleset.py) that each of them fails when it should.
"""

from __future__ import annotations

import types
from typing import Any

import attrs
import pytest

from smoothbore import available_rulesets
from smoothbore.core import Mechanism, Ruleset
from smoothbore.rulesets import get_ruleset
from smoothbore.table import Footprint, Table
from smoothbore.testing import (
    BATTLES,
    MAX_STEPS,
    TABLE_ROUNDS,
    Sample,
    check_action_types_offered,
    check_battles_end,
    check_deep,
    check_mechanism,
    check_metadata,
    check_outcomes,
    check_pickles,
    check_process_pool,
    check_ruleset,
    check_starts,
    check_table,
    play_battles,
)
from tests import toy_ruleset


def _registered() -> tuple[tuple[Ruleset, ...], str]:
    try:
        return (*available_rulesets(), get_ruleset("example")), ""
    except Exception as error:
        return (), repr(error)


RULESETS, LOAD_ERROR = _registered()
SETTINGS = (BATTLES, MAX_STEPS, TABLE_ROUNDS)
"""The suite's settings (``smoothbore.testing``), also read by other test modules."""
MECHANISMS = [(r, m) for r in RULESETS for m in r.mechanisms]
PLAYABLE = [r for r in RULESETS if r.turn is not None]


def _id(item: object) -> str:
    if isinstance(item, Ruleset | Mechanism):
        return item.name
    return str(item)


def test_every_registered_ruleset_loads() -> None:
    assert not LOAD_ERROR, f"a registered ruleset does not load: {LOAD_ERROR}"
    assert RULESETS


@pytest.mark.parametrize("ruleset", RULESETS, ids=_id)
def test_metadata(ruleset: Ruleset) -> None:
    check_metadata(ruleset)


@pytest.mark.parametrize(("ruleset", "mechanism"), MECHANISMS, ids=_id)
def test_mechanism_defaults_give_an_exact_distribution(
    ruleset: Ruleset, mechanism: Mechanism
) -> None:
    check_mechanism(mechanism)


@pytest.mark.parametrize("ruleset", RULESETS, ids=_id)
def test_every_ruleset_pickles_also_when_evolved(ruleset: Ruleset) -> None:
    check_pickles(ruleset)


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
def test_an_evolved_ruleset_runs_through_a_process_pool(ruleset: Ruleset) -> None:
    check_process_pool(ruleset)


_PLAYED: dict[str, tuple[Sample, ...]] = {}
"""The battles of each ruleset, played once for the tests below (a test module's own cache:
the library keeps nothing between calls)."""


def _battles_of(ruleset: Ruleset) -> tuple[Sample, ...]:
    if ruleset.name not in _PLAYED:
        _PLAYED[ruleset.name] = play_battles(ruleset, BATTLES)
    return _PLAYED[ruleset.name]


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
def test_every_embedded_battle_starts_playable(ruleset: Ruleset) -> None:
    check_starts(ruleset)


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
def test_random_battles_end_with_an_outcome(ruleset: Ruleset) -> None:
    samples = _battles_of(ruleset)
    assert {s.battle for s in samples} == {name for name, _ in ruleset.battles()}
    check_battles_end(samples)
    check_outcomes(ruleset.turn, samples)


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
def test_every_action_type_is_offered(ruleset: Ruleset) -> None:
    check_action_types_offered(ruleset.turn, _battles_of(ruleset))


@pytest.mark.parametrize("ruleset", PLAYABLE, ids=_id)
def test_steps_are_legal_pure_serialisable_and_replay(ruleset: Ruleset) -> None:
    check_deep(ruleset.turn, _battles_of(ruleset))


def test_the_worked_example_passes_check_ruleset_whole() -> None:
    """``smoothbore.testing.check_ruleset``, as a third party calls it, on the example."""
    done = check_ruleset(get_ruleset("example"), battles=40)
    assert (done.ruleset, done.mechanisms, done.battles, done.deep) == ("example", 1, 40, 4)


def test_check_ruleset_refuses_bad_settings() -> None:
    from smoothbore.core import InvalidValueError

    with pytest.raises(InvalidValueError, match="battles"):
        check_ruleset(toy_ruleset.RULESET, battles=0)
    with pytest.raises(InvalidValueError, match="ruleset"):
        check_ruleset("toy")  # type: ignore[arg-type]


# --- the checks themselves, on the toy ruleset ----------------------------------------------
TOY_BATTLES = 40


def _all_checks(ruleset: Ruleset) -> None:
    check_ruleset(ruleset, battles=TOY_BATTLES, max_steps=300, deep_every=1,
                  deep_steps=1_000, process_pool=False)


def test_the_checks_pass_on_the_toy_ruleset() -> None:
    _all_checks(toy_ruleset.RULESET)


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("incomplete", "which legal_actions omits"),
        ("refuses", "step refuses listed Fire"),
        ("impure", "step does not repeat"),
        ("never-ends", "did not end: the step limit was reached after 300 actions"),
        ("never-offered", "never offered in 40 battles: Rally"),
        ("no-stands", "does not say which units stand on it"),
        ("lifting", r"field seed \d+, step \d+ .*standing units without a footprint: \['[rb]\d'\]"),
    ],
)
def test_the_checks_catch_a_broken_ruleset(kind: str, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        _all_checks(toy_ruleset.broken(kind))


def test_the_table_check_catches_units_standing_on_each_other() -> None:
    # 4" x 1" units: touching is allowed; one stepping 0.5" onto another shares 2 sq in
    def units(*places: tuple[str, float, float]) -> Any:
        return types.SimpleNamespace(extra=types.SimpleNamespace(table=Table(
            60, 40, footprints=tuple(Footprint(u, x, y, 0, 2, 2, 1, side="red")
                                     for u, x, y in places))))

    check_table(units(("A", 10, 10), ("B", 20, 10), ("C", 20, 11)), "touching",
                needs_stands=False)
    with pytest.raises(AssertionError, match="step 3: B and C overlap by 2"):
        check_table(units(("A", 10, 10), ("B", 20, 10), ("C", 20, 10.5)), "step 3",
                    needs_stands=False)
    check_table(types.SimpleNamespace(extra=None), "no table")


def test_the_table_check_catches_a_footprint_on_the_wrong_side() -> None:
    """Issue 29: each footprint is on its unit's side."""
    start = toy_ruleset.field_battle(0)
    table = start.extra.table
    assert table is not None
    wrong = start.with_extra(table=table.placed(attrs.evolve(table.footprint("r1"),
                                                             side="blue")))
    check_table(start, "start", toy_ruleset.stands)
    with pytest.raises(AssertionError, match="the footprint of r1 is on side 'blue', its "
                                             "unit on 'red'"):
        check_table(wrong, "r1 turned coat", toy_ruleset.stands)


def test_the_table_check_catches_the_footprint_of_a_lost_unit() -> None:
    """DESIGN.md, The table seam: "lost units leave it". A destroyed toy company whose
    footprint stays (a book's path that forgot its table keeping) fails the check."""
    start = toy_ruleset.field_battle(0)
    lost = start.with_units(attrs.evolve(start.unit("b1"), strength=0))
    check_table(start, "start", toy_ruleset.stands)
    with pytest.raises(AssertionError, match=r"no longer stand: \['b1'\]"):
        check_table(lost, "b1 destroyed", toy_ruleset.stands)
    kept, _ = toy_ruleset.TURN.step(lost, toy_ruleset.EndPhase())
    check_table(kept, "after the next step", toy_ruleset.stands)  # the engine took it off


def test_the_pickle_check_catches_a_closure() -> None:
    check_pickles(toy_ruleset.RULESET)
    with pytest.raises(AssertionError, match="toy does not pickle"):
        check_pickles(toy_ruleset.broken("never-offered"))  # its candidates are a lambda


def test_parameters_read_from_the_signature_have_help() -> None:
    (mechanism,) = toy_ruleset.RULESET.mechanisms
    (parameter,) = mechanism.parameters
    assert (parameter.name, parameter.help, parameter.low, parameter.high) == (
        "hit_on", "the d6 score that hits", 1, 7)

