"""A battle's map as a wargamer reads it: ``battle_map(state)`` draws the state's table
(``smoothbore.table.draw``) with what only the battle knows: each side in its book's colour
(``Ruleset.colours``), the title block (battle, date, turn, phase, outcome when over), every
unit's status in the book's own terms under its name with a key, commanders with their
command radius where the book has one, this turn's moves (from the state the turn began in)
and shots and charges (from the steps' events), and the units gone from the table with why.
Presentation only: nothing here changes a result."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from smoothbore.core.errors import InvalidValueError
from smoothbore.core.ruleset import Ruleset
from smoothbore.table import Table, draw, table_of

__all__ = [
    "STATUS_KEY",
    "TurnView",
    "battle_map",
    "command_radii",
    "played_view",
    "status_marks",
    "turn_map",
    "turns_of",
]

STATUS_KEY: Mapping[str, str] = {
    "D": "disruption points (Bloodybacks)",
    "SL": "stamina lost (Bloodybacks)",
    "SP": "strength points left of those it began with (Will's)",
    "fig": "figures left of those it began with (McKie)",
    "E": "effort points (McKie)",
    "P": "pin markers (Bolt Action)",
    "cas": "casualties on its bases (Bolt Action)",
    "bases": "bases left (Bolt Action)",
}
"""The short marks drawn under a unit's name, and what each counts, in the book's terms.
Status words (shaken, routing, disordered, down...) are written out in full."""

_STEADY = {"steady", "active", "good order", "formed", "ok", "normal", ""}


def _word(value: object) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value).replace("_", " ")
    return str(value)


def status_marks(unit: object) -> tuple[tuple[str, ...], str]:
    """What to write under a unit's name, in its book's terms, and the cue to draw on it
    (``"routing"``, ``"shaken"`` or ``""``). Read from the unit's own fields: disruption,
    stamina losses, strength points, figures, effort, pins, casualties and bases, its status
    word and its flags (routing, down, must retire)."""
    get = getattr
    marks: list[str] = []
    disruption = get(unit, "disruption", 0)
    if isinstance(disruption, int) and disruption > 0:
        marks.append(f"D{disruption}")
    stamina = get(unit, "stamina_losses", 0)
    if isinstance(stamina, int) and stamina > 0:
        marks.append(f"SL{stamina}")
    strength, initial = get(unit, "strength", None), get(unit, "initial_strength", None)
    if isinstance(strength, int) and isinstance(initial, int) and strength < initial:
        marks.append(f"{strength}/{initial} SP")
    figures, start = get(unit, "figures", None), get(unit, "initial_figures", None)
    if isinstance(figures, int) and isinstance(start, int) and figures < start:
        marks.append(f"{figures}/{start} fig")
    effort = get(unit, "effort", 0)
    if isinstance(effort, int) and effort > 0:
        marks.append(f"E{effort}")
    pins = get(unit, "pins", 0)
    if isinstance(pins, int) and pins > 0:
        marks.append(f"P{pins}")
    casualties = get(unit, "casualties", 0)
    if isinstance(casualties, int) and casualties > 0:
        marks.append(f"cas {casualties}")
    cue = ""
    status = _word(get(unit, "status", "")).lower()
    if status not in _STEADY:
        marks.append(status)
        cue = "routing" if "rout" in status or "broken" in status else "shaken"
    if get(unit, "routing", False) is True:
        marks.append("routing")
        cue = "routing"
    for flag, word in (("down", "down"), ("must_retire", "must retire"),
                       ("immobilised", "immobilised"), ("resting", "resting")):
        if get(unit, flag, False) is True:
            marks.append(word)
    if isinstance(disruption, int) and disruption > 0 and not cue:
        cue = "shaken"
    return tuple(marks), cue


def _radius_bloodybacks(commander: object) -> float | None:
    from smoothbore.bloodybacks93.command import command_radius

    if getattr(commander, "removed", False):
        return None
    return float(command_radius(commander))  # type: ignore[arg-type]


def _radius_boltaction(commander: object) -> float | None:
    rank = _word(getattr(commander, "rank", ""))
    return 12.0 if rank == "army commander" else 6.0


_RADII: Mapping[str, Callable[[object], float | None]] = {
    "bloodybacks93": _radius_bloodybacks,  # Bloodybacks 9.3, Command Radius (24", 12" attached)
    "boltaction_acw": _radius_boltaction,  # Bolt Action ACW, Morale modifiers (6" and 12")
}
"""The books whose commanders have a command radius, and how far it reaches (in the table's
measure): Bloodybacks' Command Radius (24", 12" when attached) and Bolt Action's commanders
in range for tests (brigade 6", army 12"; docs/interpretations/boltaction_acw.md, A14).
Will's and McKie's commanders carry orders by couriers and have none."""


def command_radii(state: object, ruleset: str) -> dict[str, float]:
    """Each commander's command radius by id, where the book has one."""
    radius = _RADII.get(ruleset)
    if radius is None:
        return {}
    found: dict[str, float] = {}
    for commander in getattr(state, "commanders", ()):
        reach = radius(commander)
        if reach is not None:
            found[str(commander.id)] = reach
    return found


def _ruleset_of(state: object, ruleset: Ruleset | str | None) -> Ruleset | None:
    if isinstance(ruleset, Ruleset):
        return ruleset
    from smoothbore.rulesets import get_ruleset

    name = ruleset if ruleset is not None else getattr(state, "ruleset", None)
    if not isinstance(name, str) or not name:
        return None
    try:
        return get_ruleset(name)
    except Exception:  # a ruleset not installed: the map without its colours
        return None


def _heading(state: Any, book: Ruleset | None, outcome: object, battle: str,
             when: str = "") -> list[str]:
    scenario = getattr(state, "scenario", None)
    name = battle or str(getattr(scenario, "name", "") or "")
    title = f"{name} ({book.title})" if book is not None and name else (
        name or (book.title if book is not None else "the table"))
    lines = [title]
    date = getattr(scenario, "date", "")
    if date:
        lines.append(str(date))
    turn = getattr(state, "turn", None)
    limit = getattr(scenario, "turn_limit", None)
    phase = getattr(state, "phase", "")
    if when:
        lines.append(when)
    elif turn is not None:
        from smoothbore.views import phase_title

        of = f" of {limit}" if limit else ""
        where = f"Turn {turn}{of}"
        after = bool(limit and isinstance(turn, int) and turn > limit)
        if after:
            where = f"After turn {limit}, the last"
        if phase and not after and outcome is None:
            shown = phase_title(str(phase), getattr(book, "turn", None))
            where += f", phase {shown}"
        lines.append(where)
    if outcome is not None:
        winner = getattr(outcome, "winner", None)
        reason = str(getattr(outcome, "reason", ""))
        head = f"{_capital(str(winner))} wins" if winner else "a draw"
        short = reason.split(";")[0].split(" (")[0]
        lines.append(f"Over: {head}: {short}" if short else f"Over: {head}")
    return lines


def _capital(side: str) -> str:
    return side[:1].upper() + side[1:]


def _names(state: object) -> dict[str, str]:
    named: dict[str, str] = {}
    for group in ("units", "commanders"):
        for item in getattr(state, group, ()):
            named[str(item.id)] = str(getattr(item, "name", "") or item.id)
    return named


def _gone(state: Any, table: Table, steps: Sequence[Any]) -> list[tuple[str, str, str]]:
    """Units of the battle not on the table, each with why: its status or the last event
    that concerned it."""
    last: dict[str, str] = {}
    for step in steps:
        for event in getattr(step, "events", ()):
            subject = getattr(event, "subject", "")
            if subject:
                last[str(subject)] = f"{event.text} [{event.rule}]"
    gone = []
    on_table = set(table.units)
    for unit in getattr(state, "units", ()):
        if unit.id in on_table:
            continue
        marks, _ = status_marks(unit)
        if getattr(unit, "destroyed", False) is True:
            why = "destroyed"
        elif marks:
            why = ", ".join(marks)
        else:
            why = "left the table"
        said = last.get(str(unit.id))
        if said:
            why += f"; last: {said}"
        gone.append((str(unit.side), str(getattr(unit, "name", unit.id)), why))
    return gone


def _lines(state: object, table: Table, steps: Sequence[Any]) -> list[tuple[str, str, str]]:
    """Shots and charges of the steps given, from their events: an event whose ``target``
    fact names a unit, its subject the firer or charger."""
    by_name = {name: uid for uid, name in _names(state).items()}
    found: list[tuple[str, str, str]] = []
    for step in steps:
        for event in getattr(step, "events", ()):
            target = event.fact("target") if hasattr(event, "fact") else None
            subject = str(getattr(event, "subject", ""))
            if not isinstance(target, str) or not subject:
                continue
            target_id = target if target in table.units else by_name.get(target)
            if target_id is None or subject not in table.units:
                continue
            kind = "charge" if "charge" in str(event.kind) or "melee" in str(event.kind) \
                else "shot"
            found.append((kind, subject, target_id))
    return found


def _moves(before: object, table: Table) -> list[tuple[str, tuple[tuple[float, float], ...]]]:
    """Each unit's way from where it stood in ``before`` to where it stands now."""
    then = table_of(before)
    if then is None:
        return []
    moves: list[tuple[str, tuple[tuple[float, float], ...]]] = []
    for footprint in table.footprints:
        old = then.units.get(footprint.unit_id)
        if old is None:
            continue
        a, b = old.centre, footprint.centre
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1e-6 * max(table.width, 1.0):
            moves.append((footprint.unit_id, (a, b)))
    return moves


def battle_map(state: Any, *, ruleset: Ruleset | str | None = None,
               steps: Iterable[Any] = (), before: object = None, outcome: object = None,
               battle: str = "", scale: float | None = None,
               arcs: Mapping[str, float] | None = None, when: str = "") -> str:
    """The battle map of ``state`` as SVG. ``ruleset``: its book (default: the state's, by
    name); ``steps``: this turn's steps, whose shots and charges are drawn and whose events
    say why a unit left; ``before``: the state the turn began in, whose positions give the
    move arrows (default: the table's own last moves); ``outcome``: how the battle ended
    (default: asked of the book's turn when the battle is over); ``battle``: the title
    (default: the scenario's name); ``when``: the title block's line for the moment drawn
    (default: the state's turn and phase)."""
    table = table_of(state)
    if table is None:
        raise InvalidValueError("state", type(state).__name__,
                                "a battle played on a table (this one has no table to draw)")
    book = _ruleset_of(state, ruleset)
    turn = getattr(book, "turn", None)
    if outcome is None and turn is not None:
        try:
            outcome = turn.outcome(state) if turn.is_over(state) else None
        except Exception:  # a state the book cannot judge: no outcome line
            outcome = None
    steps = tuple(steps)
    markers: dict[str, tuple[str, ...]] = {}
    cues: dict[str, str] = {}
    used: set[str] = set()
    for unit in getattr(state, "units", ()):
        marks, cue = status_marks(unit)
        if marks:
            markers[str(unit.id)] = marks
            for mark in marks:
                used.update(code for code in STATUS_KEY if _uses(mark, code))
        if cue:
            cues[str(unit.id)] = cue
    key = [(code, meaning) for code, meaning in STATUS_KEY.items() if code in used]
    if any(c == "routing" for c in cues.values()):
        key.append(("▨", "hatched: routing"))
    if any(c == "shaken" for c in cues.values()):
        key.append(("□", "orange outline: shaken, disordered or disrupted"))
    name = getattr(book, "name", "") or str(getattr(state, "ruleset", ""))
    moves = _moves(before, table) if before is not None else None
    return draw(table, scale=scale, arcs=arcs, markers=markers, cues=cues, key=key,
                colours=getattr(book, "colours", {}),
                heading=_heading(state, book, outcome, battle, when),
                gone=_gone(state, table, steps), radii=command_radii(state, name),
                moves=moves, lines=_lines(state, table, steps))


def _uses(mark: str, code: str) -> bool:
    """Whether a status mark is written with ``code`` (``D2`` with ``D``, ``3/5 SP`` with
    ``SP``)."""
    if " " in mark:
        return code in mark.split()
    return mark.startswith(code) and mark[len(code):].isdigit()


@attrs.frozen
class TurnView:
    """One turn of a played battle: its number, the state it began in, its steps and the
    state it ended in."""

    turn: int
    before: Any
    steps: tuple[Any, ...]
    after: Any


def turns_of(played: Any, turn: Any) -> tuple[TurnView, ...]:
    """The turns of a played battle, each with the states it began and ended in, by
    stepping its actions again from its start (``turn``: the book's turn)."""
    views: list[TurnView] = []
    state = played.start
    begun, steps = state, list[Any]()
    current: int | None = None
    for step in played.steps:
        if current is not None and step.turn != current:
            views.append(TurnView(current, begun, tuple(steps), state))
            begun, steps = state, []
        current = step.turn
        state, _ = turn.step(state, step.action)
        steps.append(step)
    if current is not None:
        views.append(TurnView(current, begun, tuple(steps), state))
    return tuple(views)


def turn_map(view: TurnView, ruleset: Ruleset | str | None = None, *,
             outcome: object = None) -> str:
    """The battle map at the end of one turn: its moves, shots and charges drawn, titled
    "End of turn N of L" (``outcome``: the battle's, for its last turn)."""
    limit = getattr(getattr(view.after, "scenario", None), "turn_limit", None)
    of = f" of {limit}" if limit else ""
    return battle_map(view.after, ruleset=ruleset, steps=view.steps, before=view.before,
                      outcome=outcome, when=f"End of turn {view.turn}{of}")


MAX_SLIDER_TURNS = 60
"""The most turns a ``played_view`` holds (each a map): a longer battle shows its last."""


def played_view(played: Any, ruleset: Ruleset | str | None = None, *,
                summary: bool = True) -> str:
    """A played battle to step through in a notebook (or any HTML page): a slider over its
    turns showing each turn's map and report, the last turn first. Plain HTML with one
    inline handler, no library: it works in JupyterLab, in the classic notebook and in the
    static docs. ``summary``: open with how the battle ended."""
    import html as html_module

    from smoothbore.views.narration import report

    book = _ruleset_of(played.start, ruleset)
    turn = getattr(book, "turn", None)
    if turn is None or table_of(played.start) is None:
        raise InvalidValueError("played", type(played).__name__,
                                "a battle played on a table, by an installed ruleset")
    views = turns_of(played, turn)[-MAX_SLIDER_TURNS:]
    if not views:
        return "<div class='smoothbore smoothbore-played'><p>no steps played</p></div>"
    panes = []
    for i, view in enumerate(views):
        last = i == len(views) - 1
        svg = turn_map(view, book, outcome=played.outcome if last else None)
        told = "\n".join(report(view.steps, view.before, turn))
        hidden = "" if last else " style='display:none'"
        panes.append(
            f"<div class='sb-turn' data-turn='{view.turn}'{hidden}>"
            f"<div class='smoothbore-map' style='max-width:100%;overflow-x:auto'>{svg}</div>"
            f"<details><summary>turn {view.turn}: {len(view.steps)} actions, narrated"
            f"</summary><pre style='white-space:pre-wrap'>{html_module.escape(told)}</pre>"
            "</details></div>")
    numbers = [v.turn for v in views]
    handler = ("var r=this.closest('.smoothbore-played');"
               "r.querySelectorAll('.sb-turn').forEach(function(d,i){"
               "d.style.display=(i==this.value)?'':'none';},this);"
               "r.querySelector('.sb-label').textContent="
               "'turn '+r.querySelectorAll('.sb-turn')[this.value].dataset.turn;")
    slider = (f"<label>Turn <input type='range' class='sb-slider' min='0' "
              f"max='{len(views) - 1}' value='{len(views) - 1}' step='1' "
              f"oninput=\"{handler}\" style='width:60%;vertical-align:middle'></label> "
              f"<span class='sb-label'>turn {numbers[-1]}</span>")
    head = (f"<p><b>{html_module.escape(played.summary().splitlines()[0])}</b></p>"
            if summary else "")
    return (f"<div class='smoothbore smoothbore-played'>{head}{slider}"
            f"{''.join(panes)}</div>")
