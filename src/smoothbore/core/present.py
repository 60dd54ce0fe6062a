"""How core's own values look: words, percentages, text tables, notebook HTML, CSV, pandas
and plots of distributions, estimates, events and battle states.

They live in core so that a core value shows itself without core importing anything above it
(``smoothbore.views`` re-exports them beside the narration of actions and the battle map). Only
the standard library and attrs are imported here; pandas and matplotlib only when asked for.
"""

from __future__ import annotations

import csv
import enum
import html
import io
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from smoothbore.core.distribution import Distribution
from smoothbore.core.errors import InvalidValueError

if TYPE_CHECKING:
    from smoothbore.core.chance import Estimate, RollRecord
    from smoothbore.core.events import Event

__all__ = [
    "FOLD_AFTER",
    "Comparison",
    "DistributionView",
    "compare",
    "distribution_html",
    "distribution_table",
    "estimate_html",
    "event_html",
    "first_clause",
    "headline",
    "percent",
    "plot",
    "roll_words",
    "say",
    "speaks",
    "standard_deviation",
    "summary",
    "to_csv",
    "to_pandas",
    "unit_html",
    "units_html",
    "wilson",
]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(count: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``count / total`` (95% by default): unlike
    the normal approximation it stays within [0, 1] and is not empty at 0 or ``total``."""
    if total < 1 or not 0 <= count <= total:
        raise InvalidValueError("count/total", f"{count}/{total}",
                                "0 <= count <= total and total >= 1")
    p = count / total
    z2 = z * z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = z / (1 + z2 / total) * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    return max(0.0, centre - half), min(1.0, centre + half)


FOLD_AFTER = 30
"""Rows an HTML view shows before folding the rest under "more"."""


def say(value: object) -> str:
    """A value in words, never as Python writes it: ``(5,)`` is ``5``, a card is ``black 1``,
    an enum member its spelling, True ``yes``, an attrs value its fields' values."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        inner = value.value
        return inner.replace("_", " ") if isinstance(inner, str) else say(inner)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    if isinstance(value, tuple | list | frozenset | set):
        items = sorted(value, key=str) if isinstance(value, frozenset | set) else value
        return ", ".join(say(v) for v in items) if items else "none"
    if attrs.has(type(value)) and not speaks(value):
        return " ".join(say(getattr(value, f.name))
                        for f in attrs.fields(type(value)))  # type: ignore[arg-type]
    return str(value)


def speaks(value: object) -> bool:
    """Whether a value's class writes itself in words (defines its own ``__str__``)."""
    return "__str__" in {name for klass in type(value).__mro__[:-1] for name in vars(klass)}


def roll_words(roll: RollRecord, *, rules: bool = False) -> str:
    """A roll in words: ``activity of Colonel Webster: 1dAv, each read -> 5``."""
    faces = ", ".join(map(str, roll.faces))
    shown = say(roll.outcome)
    same = shown == faces or shown == faces.replace(", ", " ")
    text = f"{roll.reason}: {roll.check} -> " + (f"[{faces}]" if same else f"[{faces}] = {shown}")
    return text + (f" ({roll.rule})" if rules else "")


def percent(probability: Fraction | float, places: int = 2) -> str:
    """A probability as a percentage that never shows a real outcome as 0: below
    ``0.01%`` it reads ``<0.01%`` (and a near-certainty ``>99.99%``)."""
    p = float(probability)
    if probability == 0:
        return "0%"
    if probability == 1:
        return "100%"
    smallest = 10.0 ** -(places + 2)
    if p < smallest:
        return f"<{smallest:.{places}%}"
    if p > 1 - smallest:
        return f">{1 - smallest:.{places}%}"
    return f"{p:.{places}%}"


def _number(outcome: object) -> float | None:
    if isinstance(outcome, bool | int | float | Fraction):
        return float(outcome)
    return None


def _numeric(distribution: Distribution[Any]) -> bool:
    return all(_number(o) is not None for o in distribution.outcomes)


def standard_deviation(distribution: Distribution[Any]) -> float:
    """The standard deviation of a numeric result (bools count as 0/1)."""
    mean = distribution.mean()
    variance = sum(
        (Fraction(o) - mean) ** 2 * w for o, w in distribution.items()
    ) / distribution.denominator
    return math.sqrt(variance)


def first_clause(outcome: object) -> object:
    """The first part of a composite result (``"chargers won the melee; ..."`` reads
    ``"chargers won the melee"``): how a summary groups the outcomes of a long rule."""
    text = say(outcome)
    if "; " in text:
        return text.split("; ", 1)[0]
    return outcome


def _grouping(distribution: Distribution[Any]) -> Callable[[Any], Any] | None:
    """The grouping a summary uses by default: by first clause for composite results."""
    if not _numeric(distribution) and any("; " in say(o) for o in distribution.outcomes):
        return first_clause
    return None


def headline(distribution: Distribution[Any], key: Callable[[Any], Any] | None = None) -> str:
    """One line saying what matters most: for numbers the mean and standard deviation, for
    a yes/no the chance of yes, else the likeliest outcome (``likeliest: X (p%)``; with a
    ``key``, the likeliest group as ``X p%``: ``the chargers win 65.00%``)."""
    outcomes = distribution.outcomes
    if set(outcomes) <= {True, False} and all(isinstance(o, bool) for o in outcomes):
        return f"yes {percent(distribution.probability(True))}"
    if _numeric(distribution):
        return (f"mean {float(distribution.mean()):.2f}, standard deviation "
                f"{standard_deviation(distribution):.2f}")
    grouped = distribution.map(key or _grouping(distribution) or (lambda o: o))
    best, weight = max(grouped.items(), key=lambda pair: pair[1])
    chance = percent(Fraction(weight, grouped.denominator))
    return f"{say(best)} {chance}" if key is not None else f"likeliest: {say(best)} ({chance})"


def summary(distribution: Distribution[Any], key: Callable[[Any], Any] | None = None
            ) -> Distribution[Any]:
    """The outcomes grouped by ``key`` (by default: composite results by their first
    clause, others as they are), likeliest first where they do not compare."""
    grouping = key or _grouping(distribution)
    if grouping is None:
        return distribution
    grouped = distribution.map(grouping)
    if _numeric(grouped):
        return grouped
    ordered = tuple(sorted(grouped.items(), key=lambda pair: -pair[1]))
    return Distribution(ordered, grouped.denominator)


def _align(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if r else c.ljust(w)
                 for c, w, r in zip(row, widths, right, strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _bar(p: float, width: int = 20) -> str:
    filled = p * width
    whole = int(filled)
    return "█" * whole + ("▌" if filled - whole >= 0.5 else "")


def _trimmed(distribution: Distribution[Any], limit: int
             ) -> tuple[tuple[tuple[Any, int], ...], int, int]:
    """The rows worth showing when there are more than ``limit``: numeric results lose
    their far tails (each under 0.05%), others keep the likeliest; with the number of
    rows left out and their weight."""
    items = distribution.items()
    if len(items) <= limit:
        return items, 0, 0
    if _numeric(distribution):
        cut = distribution.denominator // 2000
        low, high, tail = 0, len(items), 0
        while low < high and tail + items[low][1] <= cut:
            tail += items[low][1]
            low += 1
        tail_high = 0
        while high > low and tail_high + items[high - 1][1] <= cut:
            tail_high += items[high - 1][1]
            high -= 1
        kept = items[low:high]
        return kept, len(items) - len(kept), tail + tail_high
    kept = tuple(sorted(items, key=lambda pair: -pair[1])[:limit])
    return kept, len(items) - len(kept), distribution.denominator - sum(w for _, w in kept)


def distribution_table(distribution: Distribution[Any], *, exact: bool = False,
                       limit: int | None = None, bars: bool = True) -> str:
    """A text table with aligned columns: outcome, P(=) (with exact fractions when
    ``exact``), for numbers P(>=) and P(<=), and a bar. With ``limit``, long tables keep
    the rows that matter and say what they leave out."""
    numeric = _numeric(distribution) and not all(
        isinstance(o, bool) for o in distribution.outcomes)
    items, left_out, left_weight = (
        _trimmed(distribution, limit) if limit is not None else (distribution.items(), 0, 0))
    at_least = dict(distribution.at_least_table()) if numeric else {}
    at_most = dict(distribution.at_most_table()) if numeric else {}
    head = ["outcome", "P(=)"] + (["exact"] if exact else []) + (
        ["P(>=)", "P(<=)"] if numeric else [])
    rows: list[list[str]] = [head]
    for outcome, weight in items:
        p = Fraction(weight, distribution.denominator)
        row = [say(outcome), percent(p)] + ([str(p)] if exact else [])
        if numeric:
            row += [percent(at_least[outcome]), percent(at_most[outcome])]
        rows.append(row + ([_bar(float(p))] if bars else []))
    if bars:
        head.append("")
    right = [False, True] + ([True] if exact else []) + ([True, True] if numeric else []) + (
        [False] if bars else [])
    text = _align(rows, right)
    if left_out:
        text += (f"\n… {left_out} more outcomes, together "
                 f"{percent(Fraction(left_weight, distribution.denominator))}")
    return text


@attrs.frozen
class Comparison:
    """Several distributions side by side, one column each (say, a charge against each
    defender quality): ``table()``, ``_repr_html_``, ``to_pandas()``, ``to_csv()``."""

    columns: tuple[tuple[str, Distribution[Any]], ...]

    def outcomes(self) -> tuple[Any, ...]:
        """Every outcome of any column, in order where they compare."""
        seen: dict[Any, None] = {}
        for _, dist in self.columns:
            seen.update(dict.fromkeys(dist.outcomes))
        try:
            return tuple(sorted(seen))
        except TypeError:
            return tuple(seen)

    def rows(self) -> tuple[tuple[Any, tuple[Fraction, ...]], ...]:
        """Each outcome with its exact probability in every column."""
        return tuple((o, tuple(d.probability(o) for _, d in self.columns))
                     for o in self.outcomes())

    def table(self) -> str:
        """An aligned text table: outcomes down, columns across."""
        head = ["outcome", *(label for label, _ in self.columns)]
        body = [[say(o), *(percent(p) for p in ps)] for o, ps in self.rows()]
        if all(_numeric(d) and not all(isinstance(o, bool) for o in d.outcomes)
               for _, d in self.columns):
            body.append(["mean", *(f"{float(d.mean()):.2f}" for _, d in self.columns)])
        return _align([head, *body], [False] + [True] * len(self.columns))

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"<Comparison of {', '.join(label for label, _ in self.columns)}>"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(label)}</th>" for label, _ in self.columns)
        body = "".join(
            f"<tr><td>{html.escape(say(o))}</td>"
            + "".join(f"<td>{_cell_bar(float(p))}{percent(p)}</td>" for p in ps) + "</tr>"
            for o, ps in self.rows())
        return ("<table class='smoothbore-comparison'><thead><tr><th>outcome</th>"
                f"{head}</tr></thead><tbody>{body}</tbody></table>")

    def to_pandas(self) -> Any:
        """A DataFrame: an ``outcome`` index and one column of probabilities each."""
        pandas = _import("pandas", "pandas")
        frame = pandas.DataFrame(
            {label: [float(d.probability(o)) for o in self.outcomes()]
             for label, d in self.columns},
            index=pandas.Index(list(self.outcomes()), name="outcome"))
        return frame

    def to_csv(self) -> str:
        """CSV text: outcome, then each column's probability."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["outcome", *(label for label, _ in self.columns)])
        for o, ps in self.rows():
            writer.writerow([say(o), *(float(p) for p in ps)])
        return out.getvalue()


def compare(columns: Mapping[str, Distribution[Any]] | Iterable[tuple[str, Distribution[Any]]]
            ) -> Comparison:
    """Distributions side by side, labelled: ``compare({"q3": d3, "q4": d4})``."""
    pairs = tuple(columns.items()) if isinstance(columns, Mapping) else tuple(columns)
    return Comparison(tuple((str(label), dist) for label, dist in pairs))


def _import(module: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
            raise InvalidValueError(
            module, "(not installed)", f"install it: pip install 'smoothbore[{extra}]'"
        ) from None


def to_pandas(distribution: Distribution[Any]) -> Any:
    """A pandas DataFrame: one row per outcome with its weight, exact fraction (text),
    probability and, for numbers, the chances of at least and at most it."""
    pandas = _import("pandas", "notebooks")
    return pandas.DataFrame(_records(distribution))


def _records(distribution: Distribution[Any]) -> list[dict[str, Any]]:
    numeric = _numeric(distribution)
    at_least = dict(distribution.at_least_table()) if numeric else {}
    at_most = dict(distribution.at_most_table()) if numeric else {}
    records = []
    for outcome, weight in distribution.items():
        p = Fraction(weight, distribution.denominator)
        record: dict[str, Any] = {
            "outcome": outcome if isinstance(outcome, int | float | str) else say(outcome),
            "weight": weight, "fraction": str(p), "probability": float(p)}
        if numeric:
            record["at_least"] = float(at_least[outcome])
            record["at_most"] = float(at_most[outcome])
        records.append(record)
    return records


def to_csv(distribution: Distribution[Any], path: str | None = None) -> str:
    """CSV text (also written to ``path`` when given): outcome, weight, fraction,
    probability and, for numbers, at_least and at_most."""
    records = _records(distribution)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    text = out.getvalue()
    if path is not None:
        with open(path, "w", encoding="utf-8", newline="") as file:
            file.write(text)
    return text


def plot(distribution: Distribution[Any], ax: Any = None, *, title: str | None = None,
         key: Callable[[Any], Hashable] | None = None) -> Any:
    """A bar chart of the distribution (grouped by ``key``) through matplotlib (the
    ``plot`` extra); returns the Axes."""
    pyplot = _import("matplotlib.pyplot", "plot")
    shown = distribution.map(key) if key is not None else distribution
    if ax is None:
        _, ax = pyplot.subplots(figsize=(7, 3.5))
    labels = [say(o) for o in shown.outcomes]
    values = [w / shown.denominator for _, w in shown.items()]
    if _numeric(shown):
        ax.bar([_number(o) for o in shown.outcomes], values)
    else:
        ax.barh(labels[::-1], values[::-1])
    ax.set_xlabel("probability" if not _numeric(shown) else "outcome")
    if _numeric(shown):
        ax.set_ylabel("probability")
    if title:
        ax.set_title(title)
    return ax


_STYLE = ("<style>.smoothbore td,.smoothbore th{text-align:left;padding:1px 8px}"
          ".smoothbore .bar{display:inline-block;height:0.8em;background:#4a7ab5;"
          "margin-right:6px;vertical-align:middle}</style>")


def _cell_bar(p: float) -> str:
    return f"<span class='bar' style='width:{max(p * 120, 0.5):.1f}px'></span>"


def distribution_html(distribution: Distribution[Any], *, caption: str = "",
                      parameters: Mapping[str, Any] | None = None,
                      fold_after: int = FOLD_AFTER) -> str:
    """The notebook view of a distribution: a caption with the headline, the parameters, a
    row per outcome with P(=), the exact fraction and a bar, cumulative columns for numbers,
    and every row past ``fold_after`` folded under "more"."""
    numeric = _numeric(distribution) and not all(
        isinstance(o, bool) for o in distribution.outcomes)
    at_least = dict(distribution.at_least_table()) if numeric else {}
    at_most = dict(distribution.at_most_table()) if numeric else {}

    def row(outcome: Any, weight: int) -> str:
        p = Fraction(weight, distribution.denominator)
        cumulative = (f"<td>{percent(at_least[outcome])}</td><td>{percent(at_most[outcome])}</td>"
                      if numeric else "")
        fraction = str(p) if len(str(p)) <= 24 else f"{float(p):.6g}"
        return (f"<tr><td>{html.escape(say(outcome))}</td><td>{_cell_bar(float(p))}"
                f"{percent(p)}</td><td>{html.escape(fraction)}</td>{cumulative}</tr>")

    head = ("<tr><th>outcome</th><th>P(=)</th><th>exact</th>"
            + ("<th>P(&ge;)</th><th>P(&le;)</th>" if numeric else "") + "</tr>")
    items = distribution.items()
    shown = "".join(row(o, w) for o, w in items[:fold_after])
    title = html.escape(caption) + (": " if caption else "") + html.escape(headline(distribution))
    table = (f"<table><caption>{title}</caption><thead>{head}</thead>"
             f"<tbody>{shown}</tbody></table>")
    folded = ""
    if len(items) > fold_after:
        rest = "".join(row(o, w) for o, w in items[fold_after:])
        folded = (f"<details><summary>{len(items) - fold_after} more outcomes</summary>"
                  f"<table><tbody>{rest}</tbody></table></details>")
    given = ""
    if parameters:
        given = "<p class='parameters'>" + ", ".join(
            f"{html.escape(str(k))}={html.escape(say(v))}" for k, v in parameters.items()
        ) + "</p>"
    return f"<div class='smoothbore'>{_STYLE}{given}{table}{folded}</div>"


@attrs.frozen
class DistributionView:
    """A distribution with a caption and the parameters it came from, for notebooks
    (``Distribution.view``): its HTML view carries both."""

    distribution: Distribution[Any]
    caption: str = ""
    parameters: dict[str, Any] = attrs.field(factory=dict)

    def _repr_html_(self) -> str:
        return distribution_html(self.distribution, caption=self.caption,
                                 parameters=self.parameters)

    def __str__(self) -> str:
        given = " ".join(f"{k}={say(v)}" for k, v in self.parameters.items())
        head = " ".join(part for part in (self.caption, given) if part)
        return (head + "\n" if head else "") + headline(self.distribution) + "\n\n" + (
            distribution_table(self.distribution, limit=FOLD_AFTER))

    def __repr__(self) -> str:
        return f"<{self.caption or 'Distribution'}: {headline(self.distribution)}>"


def estimate_html(estimate: Estimate[Any]) -> str:
    """The notebook view of a Monte Carlo estimate: each outcome's count, frequency and
    95% interval (Wilson), with a bar."""
    rows = []
    ordered = sorted(estimate.counts, key=lambda pair: -pair[1])
    for outcome, count in ordered[:FOLD_AFTER]:
        low, high = wilson(count, estimate.samples)
        p = count / estimate.samples
        rows.append(f"<tr><td>{html.escape(say(outcome))}</td><td>{count:,}</td>"
                    f"<td>{_cell_bar(p)}{percent(p)}</td>"
                    f"<td>{percent(low)} to {percent(high)}</td></tr>")
    more = (f"<p>{len(ordered) - FOLD_AFTER} rarer outcomes not shown</p>"
            if len(ordered) > FOLD_AFTER else "")
    return (f"<div class='smoothbore'>{_STYLE}<table><caption>{estimate.samples:,} samples"
            "</caption><thead><tr><th>outcome</th><th>count</th><th>frequency</th>"
            "<th>95% interval</th></tr></thead><tbody>" + "".join(rows)
            + f"</tbody></table>{more}</div>")


def _cell(value: object) -> str:
    return html.escape(say(value))


def unit_html(unit: object) -> str:
    """A unit or commander as a two-column table of its fields."""
    if not attrs.has(type(unit)):
        return f"<pre>{html.escape(repr(unit))}</pre>"
    rows = "".join(f"<tr><th>{html.escape(f.name)}</th><td>{_cell(getattr(unit, f.name))}</td></tr>"
                   for f in attrs.fields(type(unit)))  # type: ignore[arg-type]
    title = html.escape(str(getattr(unit, "name", type(unit).__name__)))
    return f"<table class='smoothbore-unit'><caption>{title}</caption>{rows}</table>"


def units_html(state: Any) -> str:
    """A battle state as a table of its units (side, id, name and their fields), under a
    caption with the ruleset, turn and phase."""
    units = tuple(getattr(state, "units", ()))
    names: list[str] = []
    for unit in units:
        if attrs.has(type(unit)):
            for f in attrs.fields(type(unit)):
                if f.name not in names and f.name not in ("side", "id", "name"):
                    names.append(f.name)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in ("side", "id", "name", *names))
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(getattr(u, n, ''))}</td>"
                         for n in ("side", "id", "name", *names)) + "</tr>" for u in units)
    caption = (f"{html.escape(str(getattr(state, 'ruleset', '')))}: turn "
               f"{getattr(state, 'turn', '')}, {html.escape(str(getattr(state, 'phase', '')))}"
               f" — {len(units)} units")
    return (f"<div class='smoothbore'>{_STYLE}<table><caption>{caption}</caption><thead><tr>"
            f"{head}</tr></thead><tbody>{body}</tbody></table></div>")


def event_html(event: Event) -> str:
    """An event: its sentence, its rule, and its rolls in words."""
    rolls = "".join(f"<li>{html.escape(roll_words(r))}</li>" for r in event.rolls)
    return (f"<div class='smoothbore-event'><b>{html.escape(event.text)}</b> "
            f"<small>[{html.escape(event.rule)}]</small>"
            + (f"<ul>{rolls}</ul>" if rolls else "") + "</div>")
