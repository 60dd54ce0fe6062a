"""Turn drivers: playing to the end, stopping early, replaying, policies, the unit table (on
the toy ruleset of tests/toy_ruleset.py)."""

from __future__ import annotations

import enum
import pickle

import attrs
import pytest

from smoothbore.battle import (
    BattleRecord,
    Played,
    RandomPolicy,
    Stop,
    brief,
    play,
    random_policy,
    replay,
    unit_table,
)
from smoothbore.core import IllegalActionError, InvalidValueError, ReplayMismatchError
from tests import toy_ruleset as toy

TURN = toy.TURN


def test_play_goes_to_the_end_by_the_rules_and_gives_the_outcome() -> None:
    played = play(TURN, toy.example_battle(4), random_policy(9))
    assert played.stop is Stop.OVER and played.finished
    assert TURN.is_over(played.end)
    assert played.outcome == TURN.outcome(played.end)
    # every step was taken in a state that was not over: the rules ended it, not a choice
    states = [played.start]
    for step in played.steps:
        assert not TURN.is_over(states[-1])
        states.append(TURN.step(states[-1], step.action)[0])
    assert states[-1] == played.end
    # this battle goes to the toy's last turn (3): it ends as turn 4 begins
    assert played.end.turn == 4 and played.outcome.reason.startswith("the last turn was played")
    assert played.turns == played.steps[-1].turn == 3
    assert played.actions() == tuple(step.action for step in played.steps)


def test_same_seed_same_battle_and_replay_gives_it_back() -> None:
    first = play(TURN, toy.example_battle(4), random_policy(9))
    again = play(TURN, toy.example_battle(4), random_policy(9))
    assert first == again
    replayed = replay(TURN, first.start, first.actions())
    assert replayed == first
    assert replayed.stop is Stop.OVER
    part = replay(TURN, first.start, first.actions()[:5])
    assert part.stop is Stop.REPLAYED and part.outcome is None
    assert part.steps == first.steps[:5]
    assert first.narrate().splitlines()[0].startswith("[turn 1, fire] ")


def test_play_stops_when_asked_at_the_step_limit_or_with_nothing_legal() -> None:
    start = toy.long_battle(1)
    done = play(TURN, start, random_policy(1), until=lambda s: s.turn >= 2)
    assert (done.stop, done.outcome, done.finished) == (Stop.UNTIL, None, False)
    assert done.end.turn == 2 and all(step.turn == 1 for step in done.steps)
    short = play(TURN, start, random_policy(1), max_steps=3)
    assert (short.stop, len(short.steps), short.outcome) == (Stop.MAX_STEPS, 3, None)
    assert play(TURN, start, random_policy(1), max_steps=0).end == start
    stuck = play(attrs.evolve(TURN, actions=()), start, random_policy(1))
    assert (stuck.stop, stuck.steps, stuck.turns) == (Stop.NO_ACTION, (), 0)
    with pytest.raises(InvalidValueError, match="max_steps"):
        play(TURN, start, random_policy(1), max_steps=-1)


def test_play_of_a_battle_already_over_takes_no_step() -> None:
    over = attrs.evolve(toy.example_battle(1), turn=4)
    played = play(TURN, over, random_policy(1))
    assert (played.steps, played.stop, played.outcome) == ((), Stop.OVER, TURN.outcome(over))
    # a draw: nobody has lost anything
    assert played.outcome is not None and played.outcome.winner is None


def test_replay_says_which_step_failed() -> None:
    # step 3 (actions[2]): a blue company firing in red's fire phase of turn 1
    bad = [toy.Fire("r1", "b1"), toy.Fire("r2", "b1"), toy.Fire("b1", "r1"), toy.EndPhase()]
    start = toy.example_battle(2)
    with pytest.raises(IllegalActionError, match=r"at step 3 \(turn 1, fire\): a company of "
                       "the active side fires at an enemy") as caught:
        replay(TURN, start, bad)
    assert caught.value.rule == toy.RULE_FIRE
    assert caught.value.action == toy.Fire("b1", "r1")
    with pytest.raises(InvalidValueError, match=r"step 1 \(turn 1, fire\): action="):
        replay(TURN, start, ["charge!"])


def test_random_policy_picks_uniformly_pickles_and_refuses_nothing_to_choose() -> None:
    policy = RandomPolicy(5)
    copy = pickle.loads(pickle.dumps(policy))
    actions = tuple(range(4))
    assert [policy(None, actions) for _ in range(20)] == [copy(None, actions) for _ in range(20)]
    counts = [0] * 4
    choose = random_policy(3)
    for _ in range(4_000):
        counts[choose(None, actions)] += 1
    # uniform: each of 4 choices 1000 times, binomial sd ~27; 5 sd either side
    assert all(865 < n < 1135 for n in counts)
    with pytest.raises(InvalidValueError, match="actions"):
        policy(None, ())


def test_unit_table_shows_what_changed() -> None:
    start = toy.example_battle(1)
    end = start.with_units(attrs.evolve(start.unit("b2"), strength=1))
    assert unit_table(end, start).splitlines() == [
        "side  id  name         strength",
        "red   r1  Red Foot     3",
        "red   r2  Red Guards   3",
        "blue  b1  Blue Foot    3",
        "blue  b2  Blue Rifles  3→1",
    ]
    assert unit_table(start, start).splitlines()[-1] == "(no unit has changed)"
    # without a start: the fields that differ from their defaults
    assert unit_table(end).splitlines()[4] == "blue  b2  Blue Rifles  1"


def test_played_of_a_finished_battle_knows_its_length() -> None:
    played: Played[toy.Toy, object] = play(TURN, toy.example_battle(7), random_policy(7))
    assert played.turns == len({step.turn for step in played.steps})


def test_brief_shows_only_what_differs_from_the_defaults() -> None:
    class Cover(enum.Enum):
        OPEN = "open"
        WOODS = "woods"

    @attrs.frozen
    class Facts:
        range: float
        cover: Cover = Cover.OPEN
        marks: tuple[str, ...] = attrs.field(factory=tuple)

    @attrs.frozen
    class Fire:
        firer: str
        facts: Facts

    assert brief(Fire("b2", Facts(6.0))) == "Fire(firer='b2', facts=Facts(range=6.0))"
    assert brief(Fire("b2", Facts(6.0, Cover.WOODS, ("x",)))) == (
        "Fire(firer='b2', facts=Facts(range=6.0, cover=woods, marks=('x',)))"
    )


def test_a_record_round_trips_and_replays_with_its_events() -> None:
    played = play(TURN, toy.example_battle(6), random_policy(6))
    record = BattleRecord.of("toy", played, turn=TURN)
    text = record.to_json()
    assert BattleRecord.from_json(text, TURN) == record
    assert BattleRecord.from_json(text, TURN).replay(TURN) == played
    assert BattleRecord.of("toy", played, with_events=False, turn=TURN).events is None
    assert record.events is not None
    assert [len(e) for e in record.events] == [len(s.events) for s in played.steps]


def test_replay_names_the_first_step_whose_events_differ() -> None:
    played = play(TURN, toy.example_battle(6), random_policy(6))
    record = BattleRecord.of("toy", played, turn=TURN)
    assert record.events is not None
    index = next(i for i, events in enumerate(record.events) if events)
    events = list(record.events)
    events[index] = (events[index][0] + " (altered)", *events[index][1:])
    with pytest.raises(ReplayMismatchError) as caught:
        replay(TURN, record.start, record.actions, events)
    assert caught.value.step == index + 1
    assert caught.value.expected == events[index][0]
    assert caught.value.found == record.events[index][0]
    events[index] = (*record.events[index], "one more")
    with pytest.raises(ReplayMismatchError, match=rf"at step {index + 1} .*events"):
        replay(TURN, record.start, record.actions, events)


@attrs.frozen
class _Listing:
    """The toy's turn without ``choose_legal``: a policy must have every action listed."""

    turn: object

    def __getattr__(self, name: str) -> object:
        if name == "choose_legal":
            raise AttributeError(name)
        return getattr(self.turn, name)


def test_random_play_chooses_lazily_with_the_same_odds_as_a_pick_from_the_list() -> None:
    # a policy that can choose is asked for the action; a plain policy gets the listed ones
    start = toy.example_battle(4)
    lazy = play(TURN, start, random_policy(9))
    assert replay(TURN, start, lazy.actions()) == lazy
    listed: list[tuple[object, ...]] = []

    def first(state: object, actions: tuple[object, ...]) -> object:
        listed.append(actions)
        return actions[0]

    plain = play(TURN, start, first)
    assert plain.actions() == tuple(actions[0] for actions in listed)
    assert plain.stop is Stop.OVER
    # a turn that cannot choose lazily: RandomPolicy picks from legal_actions, as __call__ does
    policy, twin = RandomPolicy(7), RandomPolicy(7)
    assert policy.choose_action(_Listing(TURN), start) == twin(start, TURN.legal_actions(start))
    assert policy.choose_action(_Listing(TURN), attrs.evolve(start, turn=4)) is None  # over
    # the lazy choice is one of the legal actions, each about equally often
    counts = dict.fromkeys(TURN.legal_actions(start), 0)
    chooser = RandomPolicy(3)
    for _ in range(3_000):
        counts[chooser.choose_action(TURN, start)] += 1  # type: ignore[index]
    # 5 legal actions, 600 each, binomial sd ~22: 5 sd either side
    assert len(counts) == 5 and all(490 < n < 710 for n in counts.values())
