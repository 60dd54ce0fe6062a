"""Views: the structure of the HTML notebooks show (captions, parameters, bars, folded
tails, collapsible steps, unit tables), short reprs, percentages that never hide a real
outcome, grouping and headlines, side-by-side comparisons, CSV, DataFrames and plots."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import pytest

from smoothbore import get_ruleset, odds, play, random_policy
from smoothbore.core.catalogue import DICE_MECHANISMS
from smoothbore.core.chance import monte_carlo
from smoothbore.core.distribution import Distribution
from smoothbore.core.events import Event
from smoothbore.core.ruleset import find_mechanism
from smoothbore.simulation import wilson
from smoothbore.views import (
    compare,
    distribution_html,
    distribution_table,
    estimate_html,
    first_clause,
    headline,
    percent,
    standard_deviation,
    summary,
    to_csv,
    to_pandas,
    unit_html,
)


class Tree(HTMLParser):
    """Every element with its attributes and text, checking that tags nest and close."""

    VOID = frozenset({"br", "img", "hr", "meta", "input"})

    def __init__(self, text: str) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.open: list[list[str]] = []
        self.feed(text)
        self.close()
        assert not self.stack, f"unclosed {self.stack}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        self.stack.append(tag)
        texts: list[str] = []
        self.elements.append((tag, dict(attrs), texts))
        self.open.append(texts)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()
        self.open.pop()

    def handle_data(self, data: str) -> None:
        for texts in self.open:
            texts.append(data)

    def all(self, tag: str) -> list[str]:
        return ["".join(t) for name, _, t in self.elements if name == tag]

    def count(self, tag: str) -> int:
        return len(self.all(tag))


def _pool(**given: str) -> Distribution[Any]:
    pool = find_mechanism(DICE_MECHANISMS, "pool", "dice")
    return odds(pool.function, **pool.arguments(given))


def _charge() -> Distribution[Any]:
    return odds(get_ruleset("bloodybacks93").mechanism("charge").function)


def test_percent_never_shows_a_real_outcome_as_zero() -> None:
    assert percent(Fraction(1, 10**9)) == "<0.01%"
    assert percent(Fraction(10**9 - 1, 10**9)) == ">99.99%"
    assert percent(0) == "0%" and percent(1) == "100%"
    assert percent(Fraction(1, 3)) == "33.33%"
    # a 2000-dice pool: the extreme outcomes are real, and shown so
    table = distribution_table(_pool(count="60"))
    assert "<0.01%" in table and " 0.00%" not in table


def test_headline_summary_and_statistics() -> None:
    pool = _pool()
    # six dice passing on 7 of 12: binomial(6, 7/12)
    assert pool.mean() == Fraction(7, 2)
    assert standard_deviation(pool) == pytest.approx((6 * 7 / 12 * 5 / 12) ** 0.5)
    assert headline(pool) == "mean 3.50, standard deviation 1.21"
    threshold = find_mechanism(DICE_MECHANISMS, "threshold", "dice")
    reach = odds(threshold.function, **threshold.arguments({}))
    assert headline(reach) == "yes 58.33%"  # 2d6 >= 7: 21/36
    charge = _charge()
    grouped = summary(charge)
    assert len(grouped) == 3 and grouped.denominator == charge.denominator
    assert grouped.probability("chargers won the melee") == charge.probability(
        lambda v: str(v).startswith("chargers won the melee"))
    weights = [w for _, w in grouped.items()]
    assert weights == sorted(weights, reverse=True)  # likeliest first
    assert first_clause("a; b; c") == "a" and first_clause(3) == 3
    by_winner = charge.map(lambda v: v.winner.startswith("chargers"))
    assert headline(by_winner) == f"yes {percent(by_winner.probability(True))}"


def test_distribution_html_has_caption_parameters_bars_and_a_folded_tail() -> None:
    pool = _pool(count="40")  # 41 outcomes
    tree = Tree(distribution_html(pool, caption="forty d12", parameters={"count": 40}))
    captions = tree.all("caption")
    assert captions == ["forty d12: mean 23.33, standard deviation 3.12"]
    assert "count=40" in tree.all("p")[0]
    assert tree.count("details") == 1
    assert tree.all("summary") == ["11 more outcomes"]
    rows = tree.all("tr")
    assert len(rows) == 1 + 41  # header, then every outcome: 30 shown, 11 folded
    bars = [a for name, a, _ in tree.elements if name == "span" and a.get("class") == "bar"]
    assert len(bars) == 41
    assert tree.all("th")[:5] == ["outcome", "P(=)", "exact", "P(≥)", "P(≤)"]
    small = Tree(distribution_html(_pool()))
    assert small.count("details") == 0 and len(small.all("tr")) == 8


def test_comparison_side_by_side() -> None:
    charge = get_ruleset("bloodybacks93").mechanism("charge")
    columns = {f"quality {q}": odds(charge.function, **charge.arguments(
        {"defender_quality": str(q)})).map(lambda v: v.winner) for q in (2, 3, 4)}
    table = compare(columns)
    rows = table.rows()
    assert [label for label, _ in table.columns] == ["quality 2", "quality 3", "quality 4"]
    for column, (_, dist) in enumerate(table.columns):
        assert sum(ps[column] for _, ps in rows) == 1
        assert all(ps[column] == dist.probability(o) for o, ps in rows)
    text = table.table().splitlines()
    assert text[0].split()[:3] == ["outcome", "quality", "2"]
    assert len({len(line) for line in text}) == 1
    tree = Tree(table._repr_html_())
    assert tree.all("th") == ["outcome", "quality 2", "quality 3", "quality 4"]
    assert len(tree.all("tr")) == 1 + len(rows)
    parsed = list(csv.reader(io.StringIO(table.to_csv())))
    assert parsed[0] == ["outcome", "quality 2", "quality 3", "quality 4"]
    assert [float(x) for x in parsed[1][1:]] == [float(p) for p in rows[0][1]]


def test_csv_and_pandas() -> None:
    pool = _pool()
    rows = list(csv.DictReader(io.StringIO(to_csv(pool))))
    assert [int(r["outcome"]) for r in rows] == list(range(7))
    assert Fraction(rows[6]["fraction"]) == Fraction(7, 12) ** 6
    assert float(rows[0]["at_least"]) == 1.0
    pandas = pytest.importorskip("pandas")
    frame = to_pandas(pool)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["weight"]) == [w for _, w in pool.items()]
    assert frame["probability"].sum() == pytest.approx(1.0)


def test_plot_draws_one_bar_per_outcome() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from smoothbore.views import plot

    pool = _pool()
    ax = plot(pool, title="six d12")
    heights = [patch.get_height() for patch in ax.patches]
    assert heights == pytest.approx([w / pool.denominator for _, w in pool.items()])
    assert ax.get_title() == "six d12"
    grouped = plot(_charge(), key=first_clause)
    assert len(grouped.patches) == 3
    matplotlib.pyplot.close("all")


def test_estimate_html_shows_intervals() -> None:
    total = find_mechanism(DICE_MECHANISMS, "total", "dice")
    estimate = monte_carlo(total.function, samples=500, rng=1, **total.arguments({}))
    tree = Tree(estimate_html(estimate))
    assert tree.all("caption") == ["500 samples"]
    rows = tree.all("tr")[1:]
    assert len(rows) == len(estimate.counts) == 11
    outcome, count = max(estimate.counts, key=lambda pair: pair[1])
    low, high = wilson(count, 500)
    first = tree.all("td")[:4]
    assert first[0] == str(outcome) and first[1] == str(count)
    assert first[3] == f"{percent(low)} to {percent(high)}"


def test_battle_views_and_short_reprs() -> None:
    ruleset = get_ruleset("will_awi")
    assert ruleset.turn is not None and ruleset.example is not None
    state = ruleset.example(3)
    played = play(ruleset.turn, state, random_policy(3))
    assert repr(state) == ("<BattleState will_awi: turn 1, A; units British 2, American 3; "
                           "2 commanders>")
    assert played.outcome is not None and played.outcome.winner is not None
    turns = "1 turn" if played.turns == 1 else f"{played.turns} turns"
    assert repr(played) == (f"<Played will_awi: {len(played.steps)} actions, {turns}, "
                            f"{played.outcome.winner} wins>")
    assert len(repr(played.steps[0])) < 120
    event = next(e for s in played.steps for e in s.events if e.rolls)
    assert repr(event).startswith(f"<Event {event.kind}: {event.text}")
    table = Tree(state._repr_html_())
    assert table.all("th")[:3] == ["side", "id", "name"]
    assert len(table.all("tr")) == 1 + len(state.units)
    assert [u.name in table.all("td") for u in state.units] == [True] * len(state.units)
    view = Tree(played._repr_html_())
    assert view.count("details") >= 1 + sum(1 for s in played.steps if s.events)
    assert str(played.outcome) in view.all("b")[0]
    assert f"{len(played.steps)} steps, narrated" in view.all("summary")
    summaries = view.all("summary")
    turns = played.steps[-1].turn - played.steps[0].turn + 1  # a slider pane a turn first
    assert [s.split(":")[0] for s in summaries[:turns]] == [
        f"turn {n}" for n in range(played.steps[0].turn, played.steps[-1].turn + 1)]
    steps = summaries[turns + 1:]
    assert steps[0].startswith("turn 1, ")
    unit = Tree(unit_html(state.units[0]))
    assert unit.all("caption") == [state.units[0].name]
    event_view = Tree(event._repr_html_())
    assert event_view.all("b") == [event.text] and event_view.count("li") == len(event.rolls)


def test_event_repr_is_one_line() -> None:
    event = Event("fire", "b1 hits", "Rule 4")
    assert repr(event) == "<Event fire: b1 hits [Rule 4]>"


def test_distribution_methods_summarise_compare_export_and_show() -> None:
    charge = _charge()
    winners = charge.by(lambda end: end.winner)
    assert winners == charge.map(lambda end: end.winner) and len(winners) == 3
    assert charge.headline() == headline(charge)
    def side(end: Any) -> str:
        return "the chargers win" if end.winner.startswith(("chargers", "defenders did not")) else (
            "the defenders win")

    won = charge.probability(lambda end: side(end) == "the chargers win")
    assert won > Fraction(1, 2)  # so the likeliest group, which the headline names
    assert charge.headline(side) == f"the chargers win {percent(won)}"
    assert charge.summary() == summary(charge)
    pool = _pool()
    assert pool.std() == pytest.approx(standard_deviation(pool))
    assert pool.to_csv() == to_csv(pool)
    side = Distribution.compare({"six": pool, "seven": _pool(count="7")})
    assert [label for label, _ in side.columns] == ["six", "seven"]
    # a long distribution's repr stays short; its table drops long fractions unasked
    assert len(repr(charge)) < 1200 and "... 9 more" in repr(charge)
    assert "/" not in charge.table() and "/" in charge.table(exact=True)
    assert "1/6" in Distribution.from_weights({"rout": 1, "stand": 5}).table()
    assert "<0.01%" in _pool(count="60").table()
    view = Tree(pool.view("six d12", {"count": 6, "need": 7})._repr_html_())
    assert view.all("caption") == ["six d12: mean 3.50, standard deviation 1.21"]
    assert view.all("p") == ["count=6, need=7"]
    plain = Tree(pool._repr_html_())
    assert plain.all("caption") == ["mean 3.50, standard deviation 1.21"]


def test_estimate_repr_and_interval() -> None:
    total = find_mechanism(DICE_MECHANISMS, "total", "dice")
    estimate = monte_carlo(total.function, samples=400, rng=2, **total.arguments({}))
    assert repr(estimate) == f"<Estimate: 400 samples, {len(estimate.counts)} outcomes seen>"
    assert estimate.interval(7) == wilson(estimate.count(7), 400)
    assert Tree(estimate._repr_html_()).all("caption") == ["400 samples"]


def test_the_ipython_extension_shows_units_and_commanders_as_tables() -> None:
    from smoothbore.views import load_ipython_extension

    registered: dict[type, Any] = {}

    class Formatter:
        def for_type(self, kind: type, function: Any) -> None:
            registered[kind] = function

    class Display:
        def __init__(self) -> None:
            self.formatters = {"text/html": Formatter()}

    class Shell:
        def __init__(self) -> None:
            self.display_formatter = Display()

    load_ipython_extension(Shell())
    for name in ("bloodybacks93", "will_awi", "boltaction_acw", "mckie_acw"):
        turn = get_ruleset(name).turn
        assert turn is not None
        unit_type, commander_type = turn.types[:2]  # type: ignore[attr-defined]
        assert registered[unit_type] is unit_html and registered[commander_type] is unit_html
    example = get_ruleset("will_awi").example
    assert example is not None
    state = example(1)
    commander = Tree(unit_html(state.commanders[0]))
    assert commander.all("caption") == [state.commanders[0].name]
    assert len(commander.all("tr")) == len(type(state.commanders[0]).__attrs_attrs__)


def test_a_battle_played_on_a_table_shows_the_table_it_ended_on() -> None:
    from tests import toy_ruleset as toy

    played = play(toy.TURN, toy.field_battle(2), random_policy(2))
    view = Tree(played._repr_html_())
    units = [a for tag, a, _ in view.elements if tag == "g" and (a.get("class") or "")
             .startswith("unit ")]
    assert len(units) == len(played.end.units) == 4
    plain = Tree(play(toy.TURN, toy.example_battle(2), random_policy(2))._repr_html_())
    assert plain.count("svg") == 0
