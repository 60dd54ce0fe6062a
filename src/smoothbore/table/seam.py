"""The table seam (issue 29, item 1): what a rule book tells the table about itself, the one
function that keeps the table in step with the units, and the one store that carries answers
from table to table.

Today each book built this glue its own way: Bloodybacks wraps every handler (``turn.py``
``on_table``), Will's AWI too (``_kept_in_step``), McKie keeps the table in ``positions.synced``
through ``Engine.after``, Bolt Action only inside its own ``with_units``; answers are carried
between tables by a process-wide store per ground (``bloodybacks93/ground_memo.py``), by
dictionaries kept in ``Table.derived`` and copied forward (``boltaction_acw/carry.py``,
``mckie_acw/positions.kept`` over an ``lru_cache``) and by some 124 ``lru_cache``s. This module
is what they move to.

1. ``TableRules``: a book describes itself as data and small callables, each module-level so
   the rules pickle with the engine: its measure, sight rules and arc, the ``Shape`` of a
   unit's footprint from its formation and bases, where a unit ``Anchor``s when it reforms,
   whether a unit ``stands`` on the table, which unit a commander is with and whether he is
   still in the battle, and a unit's movement rates. ``rules.footprint(unit, x, y, facing)``
   lays a unit down; ``rules.sightings(state, pairs)`` asks the table with the book's sight
   rules and each firer's arc.

2. ``keep_in_step(rules, before, state)``: the state with its table in step with its units,
   whatever the step's handler did: the footprints of units that no longer stand taken off
   (their commanders left riding where the unit stood), every other footprint re-laid where
   the unit's shape changed (about its anchor, shifted back onto the table where it
   overhangs an edge), the commanders' marks riding with the unit each is with (alone where
   the unit he was with stood, when he left it; off the table when he is out of the battle).
   The very same state when nothing changed, so what was derived from its table survives.
   ``KeptInStep(rules)`` is the same as the engine's ``after(before, new)`` hook.

   How a book plugs it in (``smoothbore.core.engine``: ``Engine.after`` and ``Engine.stands``
   run after every handler, through ``Kept``, whatever the handler called)::

       RULES = TableRules(name="mckie_acw", measure=Measure.MM, shape=unit_shape,
                          stands=on_table, commander_with=with_unit, ...)
       TURN = Engine(..., stands=RULES.stands, after=KeptInStep(RULES))

   and deletes its own wrappers (``on_table``, ``_kept_in_step``, ``synced``, the keeping in
   ``with_units``). ``Engine.stands`` then takes the lost units off (``lost_leave_table``)
   even when a book's ``after`` is not given; ``keep_in_step`` does it too, so a book whose
   engine has only ``after`` is kept whole.

3. ``AnswerStore`` (``Table.store(name)``): one bounded, named store of answers with hit and
   miss counts, carried from a table to every table made from it (``placed``, ``removed``,
   ``with_commanders``, ``with_traces``): it belongs to a battle's line of tables, not to the
   process, so two battles never share one and it goes when the battle goes. An answer is
   kept under a key made of everything it reads (the footprints it looked at, which carry
   their ids, places and facings, and the question's own arguments), so a later table where
   those are the same finds it and a table where any differs does not: what the store
   answers is what working it out again would give. Entries are written once and never
   changed; the store keeps at most ``most`` answers, forgetting the oldest ``chunk`` at a
   time. ``Table.stores()`` reports each store's size, hits and misses.

   How a book moves to it: ``ground_memo(table)`` becomes ``table.store("bloodybacks93:
   ground")``; the dictionaries ``carry.py`` and ``positions.kept`` copy forward become
   ``table.store("boltaction_acw: moves").ask(key, work)`` with the key naming what the
   answer reads; an ``lru_cache`` over table values becomes a store (the ones over small
   immutable values, such as a unit's shape, may stay: they hold no table).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from smoothbore.core import InvalidValueError

from .footprints import CommanderMark, Footprint, Formation
from .measure import Measure
from .paths import RateTable
from .sight import DEFAULT_SIGHT, Sighting, SightRules, sightings
from .store import AnswerStore, StoreCounts
from .tabletop import Table, table_of

__all__ = [
    "Anchor",
    "AnswerStore",
    "KeptInStep",
    "Shape",
    "StoreCounts",
    "TableRules",
    "keep_in_step",
]

@attrs.frozen
class Shape:
    """What a unit's footprint is made of, whatever its place: ``bases`` of ``frontage`` x
    ``depth`` laid out in ``formation`` with ``spacing`` between them (the ``Footprint``
    fields of the same names)."""

    bases: int
    frontage: float
    depth: float
    formation: Formation = Formation.LINE
    spacing: float | None = None

    def matches(self, footprint: Footprint) -> bool:
        """Whether ``footprint`` is laid out in this shape."""
        return (footprint.formation is self.formation and footprint.bases == self.bases
                and footprint.frontage == self.frontage and footprint.depth == self.depth
                and footprint.spacing == self.spacing)

    def laid(self, footprint: Footprint) -> Footprint:
        """``footprint`` in this shape, about the same centre and facing."""
        return attrs.evolve(footprint, bases=self.bases, frontage=self.frontage,
                            depth=self.depth, formation=self.formation, spacing=self.spacing)


class Anchor(enum.Enum):
    """The point of a unit that stays where it was when the unit reforms: its ``CENTRE``,
    the middle of its front edge (``FRONT``: a line forming column on its front) or of its
    rear edge (``REAR``)."""

    CENTRE = "centre"
    FRONT = "front"
    REAR = "rear"

    def relaid(self, old: Footprint, shape: Shape) -> Footprint:
        """The unit of footprint ``old`` reformed into ``shape``, this anchor kept."""
        new = shape.laid(old)
        if self is Anchor.CENTRE:
            return new
        sign = 1.0 if self is Anchor.FRONT else -1.0
        ox, oy = old.to_table(0.0, sign * old.length / 2)
        nx, ny = new.to_table(0.0, sign * new.length / 2)
        return new.moved_to(new.x + ox - nx, new.y + oy - ny)


def _always(_: Any) -> bool:
    return True


def _alone(_: Any) -> str | None:
    return None


def _measure(value: Any) -> Measure:
    return Measure.of(value)


def _half_angle(value: Any) -> float | Callable[[Any], float]:
    if callable(value):
        return value  # type: ignore[no-any-return]
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 180:
        raise InvalidValueError("TableRules.half_angle", value,
                                "degrees from 0 to 180, or a function of a unit")
    return float(value)


def _callable(field: str) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(_: Any, __: attrs.Attribute[Any], value: Any) -> None:
        if not callable(value):
            raise InvalidValueError(f"TableRules.{field}", value, "a function")
    return check


@attrs.frozen
class TableRules:
    """A rule book as the table sees it (see the module's docstring).

    ``name``: the book's; ``measure``: its unit of length; ``sight``: what blocks sight;
    ``half_angle``: the arc either side of straight ahead (degrees, or a function of the
    unit: skirmishers all round); ``shape(unit)``: the ``Shape`` of its footprint from its
    formation and bases; ``anchor``: where it stays when it reforms; ``stands(unit)``:
    whether it has a footprint on the table (false once destroyed, routed off, gone home);
    ``commander_with(commander)``: the id of the unit he is with (None: riding alone);
    ``commander_stands(commander)``: whether he is still in the battle (his mark is on the
    table); ``rates(unit)``: its movement through terrain (None: the book's own moves);
    ``fit_on``: a re-laid footprint overhanging an edge is shifted back onto the table;
    ``shape_reads_state``: ``shape`` is called as ``shape(unit, state)`` (a book whose base
    sizes are options of the battle); ``relaid(state, unit_ids)``: called after keeping in
    step with the ids of the units whose footprints were re-laid, in the units' order (only
    when there are some), returning the state (a book that puts a re-laid unit on the ground
    its new footprint stands on)."""

    name: str
    shape: Callable[..., Shape] = attrs.field(validator=_callable("shape"))
    stands: Callable[[Any], bool] = attrs.field(default=_always,
                                                validator=_callable("stands"))
    measure: Measure = attrs.field(default=Measure.INCHES, converter=_measure)
    sight: SightRules = DEFAULT_SIGHT
    half_angle: float | Callable[[Any], float] = attrs.field(default=45.0,
                                                             converter=_half_angle)
    anchor: Anchor = Anchor.CENTRE
    commander_with: Callable[[Any], str | None] = attrs.field(
        default=_alone, validator=_callable("commander_with"))
    commander_stands: Callable[[Any], bool] = attrs.field(
        default=_always, validator=_callable("commander_stands"))
    rates: Callable[[Any], RateTable] | None = None
    fit_on: bool = True
    shape_reads_state: bool = False
    relaid: Callable[[Any, tuple[str, ...]], Any] | None = None

    def shape_of(self, unit: Any, state: Any = None) -> Shape:
        """The ``Shape`` of the unit's footprint (``shape(unit)``, or ``shape(unit, state)``
        when the shape reads the state)."""
        if self.shape_reads_state:
            return self.shape(unit, state)
        return self.shape(unit)

    def arc(self, unit: Any) -> float:
        """The unit's half-angle of fire, degrees."""
        half = self.half_angle
        return half(unit) if callable(half) else half

    def sightings(self, state: Any, pairs: Sequence[tuple[str, str]] | None = None
                  ) -> tuple[Sighting, ...]:
        """``smoothbore.table.sightings`` on the state's table with this book's sight rules
        and each firer's arc (``arc`` of the unit of that id in ``state.units``)."""
        table = table_of(state)
        if table is None:
            raise InvalidValueError("state", "a battle without a table", "a battle on a table")
        half: float | dict[str, float]
        if callable(self.half_angle):
            firers = {a for a, _ in pairs} if pairs is not None else set(table.units)
            half = {u.id: self.arc(u) for u in state.units if u.id in firers}
        else:
            half = self.half_angle
        return sightings(table, pairs, half_angle=half, rules=self.sight)

    def footprint(self, unit: Any, x: float, y: float, facing: float, *, side: str = "",
                  label: str = "", state: Any = None) -> Footprint:
        """The unit's footprint centred on (x, y), facing ``facing`` (``state``: the battle,
        for a shape that reads it)."""
        s = self.shape_of(unit, state)
        return Footprint(unit.id, x, y, facing, s.bases, s.frontage, s.depth, s.formation,
                         s.spacing, side or getattr(unit, "side", ""), label)


def keep_in_step(rules: TableRules, before: Any, state: Any) -> Any:
    """``state`` with its table in step with its units and commanders (see the module's
    docstring); ``before``: the state the step began from (None: compare nothing, look at
    every unit). ``state`` needs ``units`` and ``commanders`` (each with an ``id``),
    ``extra.table`` and ``with_extra(table=...)``: a core ``BattleState``."""
    table = table_of(state)
    if table is None:
        return state
    if (before is not None and getattr(before, "units", None) is state.units
            and getattr(before, "commanders", None) is state.commanders
            and table_of(before) is table):
        return state  # the very units, commanders and table the step began with
    on = table.units
    old_units = _by_id(getattr(before, "units", ())) if before is not None else {}
    old_table = table_of(before) if before is not None else None
    old_on = old_table.units if old_table is not None else {}
    gone: list[str] = []
    relaid: list[Footprint] = []
    for unit in state.units:
        fp = on.get(unit.id)
        if fp is None:
            continue
        if not rules.stands(unit):
            gone.append(unit.id)
            continue
        if _same(old_units.get(unit.id), unit) and _same(old_on.get(unit.id), fp):
            continue  # the very unit on the very footprint the step began with
        shape = rules.shape_of(unit, state)
        if shape.matches(fp):
            continue
        new = rules.anchor.relaid(fp, shape)
        relaid.append(_fitted(table, new) if rules.fit_on else new)
    kept = table.removed(*gone) if gone else table
    kept = kept.placed(*relaid) if relaid else kept
    kept = _marks(rules, state, table, kept)
    if kept is table:
        return state
    state = state.with_extra(table=kept)
    if relaid and rules.relaid is not None:
        state = rules.relaid(state, tuple(fp.unit_id for fp in relaid))
    return state


@attrs.frozen
class KeptInStep:
    """``keep_in_step`` with these ``rules``, as the engine's ``after(before, new)`` hook (a
    module-level class, so the engine pickles)."""

    rules: TableRules

    def __call__(self, before: Any, state: Any) -> Any:
        return keep_in_step(self.rules, before, state)


def _same(a: object, b: object) -> bool:
    return a is b


def _by_id(items: Any) -> dict[str, Any]:
    return {item.id: item for item in items}


def _fitted(table: Table, fp: Footprint) -> Footprint:
    """The footprint shifted back onto the table where it overhangs an edge."""
    x0, y0, x1, y1 = fp.bounds
    dx = max(0.0, -x0) - max(0.0, x1 - table.width)
    dy = max(0.0, -y0) - max(0.0, y1 - table.depth)
    return fp.moved_to(fp.x + dx, fp.y + dy) if dx or dy else fp


def _marks(rules: TableRules, state: Any, table: Table, kept: Table) -> Table:
    """``kept`` with the commanders' marks in step: off the table when the commander is out
    of the battle, with the unit he is with when it is on the table, alone where he was
    (``table``'s point for him: the centre of the unit he left) otherwise."""
    if not kept.commanders:
        return kept
    by_id = _by_id(getattr(state, "commanders", ()))
    marks: list[CommanderMark] = []
    changed = False
    for mark in kept.commanders:
        commander = by_id.get(mark.commander_id)
        if commander is None:  # a mark the book does not know: left as it is
            marks.append(mark)
            continue
        if not rules.commander_stands(commander):
            changed = True
            continue
        with_unit = rules.commander_with(commander)
        if with_unit is not None and with_unit not in kept.units:
            with_unit = None
        if with_unit != mark.attached_to:
            changed = True
            if with_unit is not None:
                mark = attrs.evolve(mark, attached_to=with_unit)
            else:  # he left the unit: alone where it stands
                x, y = kept.commander_point(mark.commander_id)
                mark = attrs.evolve(mark, attached_to=None, x=x, y=y)
        marks.append(mark)
    if not changed:
        return kept
    if len(marks) == len(kept.commanders):
        return kept.with_commanders(*marks)
    return kept.with_only_commanders(*marks)
