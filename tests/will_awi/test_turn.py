"""Rules - Move Sequence: the Turn as a whole on the core engine (protocol, one rule per action
type and phase, legality in one place, purity, replay, play-through)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smoothbore.core import BattleState, Engine, IllegalActionError, Turn
from smoothbore.will_awi import RULESET
from smoothbore.will_awi.actions import EndPhase, Fire, Move
from smoothbore.will_awi.firing import FireFacts
from smoothbore.will_awi.options import FORTY_FIVE, IRELAND_1798, CommandPost, Options
from smoothbore.will_awi.phases import ORDER
from smoothbore.will_awi.turn import ACTIONS, TURN, sampled
from smoothbore.will_awi.units import Nationality, TroopType, Unit

from .turn_helpers import battle, to_phase


def test_turn_protocol_and_phases() -> None:
    """The ruleset's Turn is the core engine with the eleven phases A-K as data."""
    assert isinstance(TURN, Turn) and isinstance(TURN, Engine)
    assert [p.name for p in RULESET.phases] == list("ABCDEFGHIJK")
    assert RULESET.turn is TURN


def test_every_phase_can_end_and_every_rule_has_its_phase() -> None:
    """Move Sequence: each phase has its EndPhase rule; every action type belongs to the
    phases of the text (fire in E, and in H for a second charge's target)."""
    for phase in ORDER:
        assert any(r.kind is EndPhase and phase in r.phases for r in ACTIONS), phase
    fire_phases = {p for r in ACTIONS if r.kind is Fire for p in r.phases}
    assert fire_phases == {"E", "H"}


def test_wrong_phase_is_illegal() -> None:
    """Firing belongs to E, charges to F: anything else raises, naming the rule."""
    s = battle()
    with pytest.raises(IllegalActionError, match="Move Sequence"):
        TURN.step(s, Fire("b1", "r1", FireFacts(5)))
    s = to_phase(s, "E")
    with pytest.raises(IllegalActionError):
        TURN.step(s, Fire("r1", "b1", FireFacts(5)))  # the moving side does not fire


def test_step_is_pure_and_replayable() -> None:
    """Same state and action, same result; the state is never changed."""
    s = to_phase(battle(), "E")
    before = s.to_json()
    a = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    b = TURN.step(s, Fire("b1", "r1", FireFacts(4)))
    assert a == b and s.to_json() == before
    assert a[0].dice.counter == s.dice.counter + 1


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([name for name, _ in RULESET.battles()]), st.integers(0, 10_000))
def test_legal_actions_are_exactly_what_step_accepts(name: str, seed: int) -> None:
    """One source of legality: in random play of every embedded battle, each action listed is
    accepted by step, and every action listed earlier in the battle that is not listed now is
    refused (no trial steps: the candidates are complete over the choices). On a table,
    destinations and facing changes are a continuous choice of which the candidates offer a
    sample (``turn.sampled``): one offered earlier may still be open, so those are left out of
    the second half."""
    rng = random.Random(seed)
    s = RULESET.battle(name)(seed)
    seen: dict[object, None] = {}
    while not TURN.is_over(s):
        actions = TURN.legal_actions(s)
        assert actions and len(set(actions)) == len(actions)
        listed = set(actions)
        for earlier in seen:
            if earlier not in listed and not sampled(s, earlier):  # type: ignore[arg-type]
                with pytest.raises(IllegalActionError):
                    TURN.step(s, earlier)  # type: ignore[arg-type]
        for action in rng.sample(actions, min(3, len(actions))):
            TURN.step(s, action)
        seen.update(dict.fromkeys(actions))
        s, _ = TURN.step(s, rng.choice(actions))


@pytest.mark.parametrize("post", list(CommandPost))
@settings(max_examples=4, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_with_command_and_control(post: CommandPost, seed: int) -> None:
    """With command and control on (either post) whole turns play from legal_actions, and a
    unit only ever moves in C after an order or a passed independent test."""
    rng = random.Random(seed)
    s = battle(seed, Options(command_control=True, command_post=post))
    for _ in range(400):
        if s.turn > 2 or TURN.is_over(s):
            break
        actions = TURN.legal_actions(s)
        action = rng.choice(actions)
        if isinstance(action, Move) and s.phase == "C":
            assert action.unit in s.extra.ordered
        s, _ = TURN.step(s, action)
    assert s.turn > 2 or TURN.is_over(s)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_from_legal_actions(seed: int) -> None:
    """Whole turns can be played from legal_actions alone; every action listed is legal."""
    rng = random.Random(seed)
    s = battle(seed)
    for _ in range(400):
        if s.turn > 2 or TURN.is_over(s):
            break
        actions = TURN.legal_actions(s)
        assert actions
        s, _ = TURN.step(s, rng.choice(actions))
    assert s.turn > 2 or TURN.is_over(s)
    for u in s.units:
        assert 0 <= u.strength <= 6


def test_ruleset_page_examples_run() -> None:
    """docs/rulesets/will_awi.md: the examples of playing a move (with and without command and
    control) and a battle to its end run as written."""
    import pathlib
    import re

    page = pathlib.Path(__file__).parents[2] / "docs" / "rulesets" / "will_awi.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    assert len(blocks) >= 3
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(block, namespace)
    state = namespace["state"]
    assert isinstance(state, BattleState) and state.phase == "C"
    assert state.extra.ordered or state.extra.failed
    assert TURN.is_over(namespace["played"].end)  # type: ignore[attr-defined]


VARIANT_OPTIONS = {
    "forty-five": Options(variant=FORTY_FIVE),
    "ireland": Options(variant=IRELAND_1798),
    "every-option": Options(
        evade=True,
        gun_facing_roll=True,
        road_bonus=True,
        militia_rout_in_open=True,
        shaken_quality_modifiers=True,
        shaken_recovers_on_carry_on=False,
    ),
}


@pytest.mark.parametrize("which", sorted(VARIANT_OPTIONS))
@settings(max_examples=3, deadline=None)
@given(st.integers(0, 1000))
def test_play_through_variants_and_options(which: str, seed: int) -> None:
    """The variants and the options play whole turns from legal_actions too; highlanders and
    pikemen take part; strength stays 0-6 and the state replays exactly."""
    rng = random.Random(seed)
    extra = {
        "forty-five": {
            "r1": Unit("r1", "Clan", "red", TroopType.HIGHLANDERS, Nationality.JACOBITE)
        },
        "ireland": {"b2": Unit("b2", "Pikes", "blue", TroopType.PIKEMEN)},
        "every-option": {},
    }[which]
    s = battle(seed, VARIANT_OPTIONS[which], **extra)
    for _ in range(400):
        if s.turn > 2 or TURN.is_over(s):
            break
        action = rng.choice(TURN.legal_actions(s))
        a, events = TURN.step(s, action)
        assert (a, events) == TURN.step(s, action)
        s = a
    assert s.turn > 2 or TURN.is_over(s)
    assert all(0 <= u.strength <= 6 for u in s.units)


def test_the_ruleset_pickles_also_after_evolve() -> None:
    """Issue 27 (Rules - Move Sequence run on a process pool): every step's handler and every
    embedded battle is a module-level callable, so pickle finds it by name, also when the
    ruleset is changed by evolve; the copy plays the same step."""
    import pickle

    import attrs

    changed = attrs.evolve(RULESET, title="Will's AWI, house copy")
    for ruleset in (RULESET, changed):
        copy = pickle.loads(pickle.dumps(ruleset))
        assert copy.title == ruleset.title
        for name, build in copy.battles():
            assert build(1) == dict(ruleset.battles())[name](1)
        state = battle(1)
        assert copy.turn.step(state, EndPhase())[0] == TURN.step(state, EndPhase())[0]


@pytest.mark.parametrize("name", [n for n, _ in RULESET.battles() if not n.endswith("no-table")])
def test_after_every_step_the_footprints_are_the_standing_units(name: str) -> None:
    """Issue 27 (DESIGN: lost units leave the table): random play of every embedded battle on
    a table; after every step the table holds a footprint for exactly the units on it
    (standing, shaken or routing), whatever path took a unit off (eliminated, surrendered,
    routed or evaded off the table)."""
    rng = random.Random(1)
    state = dict(RULESET.battles())[name](1)
    steps = 0
    while not TURN.is_over(state) and steps < 800:
        state, _ = TURN.step(state, rng.choice(TURN.legal_actions(state)))
        steps += 1
        table = state.extra.table
        assert table is not None
        assert set(table.units) == {u.id for u in state.units if u.on_table}, (name, steps)
