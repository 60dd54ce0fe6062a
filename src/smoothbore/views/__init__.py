"""How results look to a wargamer: values and actions in words, percentages that never hide
a real outcome, text tables with aligned columns, and the HTML (and SVG) views notebooks
show. Presentation only: nothing here changes a result."""

from __future__ import annotations

import enum
import html
import re
from typing import Any

import attrs

from smoothbore.core.errors import SmoothboreError
from smoothbore.core.present import (
    FOLD_AFTER,
    Comparison,
    DistributionView,
    compare,
    distribution_html,
    distribution_table,
    estimate_html,
    event_html,
    first_clause,
    headline,
    percent,
    plot,
    roll_words,
    say,
    standard_deviation,
    summary,
    to_csv,
    to_pandas,
    unit_html,
    units_html,
)
from smoothbore.core.present import speaks as _speaks
from smoothbore.core.ruleset import spell
from smoothbore.table import draw, table_of

__all__ = [
    "FOLD_AFTER",
    "Comparison",
    "DistributionView",
    "action_words",
    "compare",
    "distribution_html",
    "distribution_table",
    "estimate_html",
    "event_html",
    "first_clause",
    "headline",
    "percent",
    "phase_title",
    "plot",
    "roll_words",
    "say",
    "standard_deviation",
    "summary",
    "to_csv",
    "to_pandas",
    "unit_html",
    "units_html",
]


# words ------------------------------------------------------------------------------------


def _words(name: str) -> str:
    """``DeclareCharge`` or ``declare_charge`` as ``declare charge``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return spaced.lower().strip()


def _name_of(state: object, value: object) -> str | None:
    """The name of the unit or commander with id ``value`` in ``state``, if any."""
    if not isinstance(value, str) or state is None:
        return None
    for group in ("units", "commanders"):
        for item in getattr(state, group, ()):
            if getattr(item, "id", None) == value:
                name = getattr(item, "name", None)
                return str(name) if name else None
    return None


def _names_of(state: object, value: object) -> str | None:
    """The name of the unit or commander ``value`` is the id of, or the names of several
    ("33rd Foot and Hessian Grenadiers"), if every id names one."""
    if isinstance(value, tuple) and value:
        names = [_name_of(state, v) for v in value]
        if all(names):
            shown = [str(n) for n in names]
            return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
        return None
    return _name_of(state, value)


def _field_words(state: object, value: object) -> str:
    named = _name_of(state, value)
    if named is not None:
        return named
    if isinstance(value, tuple) and value and all(_name_of(state, v) for v in value):
        return ", ".join(str(_name_of(state, v)) for v in value)
    return say(value)


def _default(field: Any, owner: object) -> object:
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory(owner) if default.takes_self else default.factory()
    return default


def _label(name: str) -> str:
    for suffix in ("_id", "_ids"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return _words(name)


def _fields(state: object, value: object, subject: str | None = None) -> list[str]:
    """The fields of an action that differ from their defaults, in words (nested values
    flattened), leaving out the field named ``subject``."""
    shown = []
    for field in attrs.fields(type(value)):  # type: ignore[arg-type]
        if field.name == subject:
            continue
        current = getattr(value, field.name)
        if current == _default(field, value) or current is None:
            continue
        label = _label(field.name)
        if isinstance(current, bool):
            shown.append(label if current else f"not {label}")
        elif field.name in _PLACES and _is_place(current):
            x, y, facing = current
            shown.append(f"{label} ({x:g}, {y:g}) facing {facing:g}°")
        elif attrs.has(type(current)) and not _speaks(current):
            shown.extend(_fields(state, current))
        else:
            shown.append(f"{label} {_field_words(state, current)}")
    return shown


_PLACES = frozenset({"to", "at"})
"""Fields that name a place on the table as (x, y, facing)."""


def _is_place(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 3
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))


def action_words(action: object, state: object = None, turn: object = None) -> str:
    """An action in words, led by the unit or commander that acts, named as in ``state``:
    ``17th Light Dragoons: declare charge, target North Carolina Militia, distance 6``.
    A turn with a ``describe(state, action)`` method speaks for its own actions."""
    describe = getattr(turn, "describe", None)
    if callable(describe):
        text = describe(state, action)
        if isinstance(text, str) and text:
            return text
    if isinstance(action, enum.Enum):
        return spell(action)
    if not attrs.has(type(action)):
        return say(action)
    verb = _words(type(action).__name__)
    subject = None
    for field in attrs.fields(type(action)):  # type: ignore[arg-type]
        name = _names_of(state, getattr(action, field.name))
        if name is not None:
            subject = field.name
            verb = f"{name}: {verb}"
            break
    shown = _fields(state, action, subject)
    return f"{verb}, {', '.join(shown)}" if shown else verb


def phase_title(phase: str, turn: object = None) -> str:
    """A phase as the rule book names it: a bare letter or number is followed by its title
    (``C: movement``), or failing one by what the phase does."""
    for known in getattr(turn, "phases", ()):
        if getattr(known, "name", None) == phase:
            title = str(getattr(known, "title", ""))
            if title:
                return f"{phase}: {title}"
            summary = str(getattr(known, "summary", ""))
            if len(phase) <= 2 and summary:
                short = re.split(r"[,;:(]| - ", summary, maxsplit=1)[0].strip()
                words = short.split()
                short = " ".join(words[:6]) + ("…" if len(words) > 6 else "")
                return f"{phase}: {short}"
    return phase


# HTML of battles (the HTML of core's values is in smoothbore.core.present) ----------------


def step_html(step: Any, state: object = None, turn: object = None) -> str:
    """One step as a collapsible item: the action as its summary, the events inside."""
    head = html.escape(f"turn {step.turn}, {phase_title(step.phase, turn)}: "
                       f"{action_words(step.action, state, turn)}")
    events = "".join(f"<li>{event_html(e)}</li>" for e in step.events)
    if not events:
        return f"<div class='smoothbore-step'>{head}</div>"
    return f"<details class='smoothbore-step'><summary>{head}</summary><ul>{events}</ul></details>"


def played_html(played: Any, turn: object = None) -> str:
    """A played battle: its ending first, then for a battle played on a table its map turn
    by turn under a slider (``views.maps.played_view``), then each step as a collapsible
    item (folded under "more" after the first few hundred)."""
    steps = played.steps
    shown = "".join(f"<li>{step_html(s, played.start, turn)}</li>" for s in steps[:300])
    more = f"<p>… {len(steps) - 300} more steps</p>" if len(steps) > 300 else ""
    lines = played.summary().splitlines()
    summary_html = (f"<p><b>{html.escape(lines[0])}</b></p><ul>"
                    + "".join(f"<li>{html.escape(line.strip())}</li>" for line in lines[1:])
                    + "</ul>")
    table = table_of(played.end)
    drawing = ""
    if table is not None:  # the battle map, turn by turn, with a slider (issue 31)
        from smoothbore.views.maps import played_view

        try:
            drawing = played_view(played, summary=False)
        except SmoothboreError:  # a ruleset not installed: the table it ended on
            drawing = f"<div class='smoothbore-table'>{draw(table)}</div>"
    return (f"<div class='smoothbore smoothbore-played'>{summary_html}{drawing}"
            f"<details><summary>{len(steps)} steps, narrated</summary><ol>{shown}</ol>{more}"
            "</details></div>")


# IPython ----------------------------------------------------------------------------------


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext smoothbore.views``: HTML views in notebooks for the units and commanders
    of every installed rule book (their classes belong to the rule books, so the views are
    registered here) and for Monte Carlo estimates."""
    from smoothbore.core.chance import Estimate
    from smoothbore.rulesets import available_rulesets

    formatter = ipython.display_formatter.formatters["text/html"]
    for ruleset in available_rulesets():
        types = getattr(ruleset.turn, "types", ())
        for kind in types[:2]:
            if getattr(kind, "_repr_html_", None) is None:
                formatter.for_type(kind, unit_html)
    if getattr(Estimate, "_repr_html_", None) is None:
        formatter.for_type(Estimate, estimate_html)
