"""The generic battle state: sides, units and commanders by id, turn and phase, the
ruleset's own state and options, the scenario's conditions, and the dice state that makes
every step replayable."""

from __future__ import annotations

import enum
import functools
import json
import math
import re
import types
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, Self, TypeVar

import attrs

from smoothbore.core.chance import SamplingDice
from smoothbore.core.derived import Memo, derived_field
from smoothbore.core.errors import InvalidValueError, LoadError
from smoothbore.core.validate import REFERS_TO, check_range, in_range

__all__ = [
    "MAX_COUNTER",
    "MAX_DEPTH",
    "MAX_JSON_CHARS",
    "MAX_SEED",
    "MAX_TURN",
    "SCHEMA_VERSION",
    "BattleState",
    "DiceState",
    "Scenario",
    "commanders_by_id",
    "read_json",
    "refuse_surrogates",
    "revised",
    "structure",
    "units_by_id",
    "unstructure",
]

U = TypeVar("U")
C = TypeVar("C")
X = TypeVar("X")
O = TypeVar("O")  # noqa: E741
T = TypeVar("T")

SCHEMA_VERSION = 1
"""The version of the saved-state format ``to_json`` writes and ``from_json`` reads (the
``schema_version`` key of the document)."""
MAX_JSON_CHARS = 8_000_000
"""The longest text the loaders read (about a thousand times an embedded battle's state)."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects the loaders read (a state nests about 6 deep)."""
MAX_TURN = 10_000
"""The highest turn (and scenario turn limit) a state may stand at: a battle of the books
plays some 6 to 20 turns, a game day 30 at most; past this a turn number is a corrupt file
(``turn=10**20`` once loaded and played on; issue 28)."""
MAX_SEED = 2**128 - 1
"""The largest dice seed: 128 bits, as much as a seed carries (``numpy``'s SeedSequence
draws 128 bits of entropy)."""
MAX_COUNTER = 10**12
"""The most steps a battle's dice may have rolled (a battle takes some thousands)."""


# --- reading JSON -------------------------------------------------------------------------
def _refuse_constant(name: str) -> Any:
    raise LoadError("json", name, "finite numbers only (NaN and Infinity are not JSON)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise LoadError("json", text, "a finite number (this one overflows a float)")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise LoadError("json", key, "each key once in an object")
        out[key] = value
    return out


def read_json(text: object, what: str = "json") -> Any:
    """Parse JSON text strictly: a str (or UTF-8 bytes) of at most ``MAX_JSON_CHARS``
    characters, nesting at most ``MAX_DEPTH`` deep, with no NaN or Infinity, no key
    repeated in an object and no lone surrogate in any string or key (refused with its path,
    ``$.units[0].name``). Every failure is a ``LoadError`` naming ``what`` or the place."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise LoadError(what, f"byte {error.start}", "UTF-8 encoded JSON text") from None
    if not isinstance(text, str):
        raise LoadError(what, type(text).__name__, "JSON text (a str)")
    if len(text) > MAX_JSON_CHARS:
        raise LoadError(what, f"{len(text):,} characters", f"at most {MAX_JSON_CHARS:,}")
    try:
        data = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            object_pairs_hook=_no_duplicates,
        )
    except LoadError as error:
        raise LoadError(what, error.value, error.allowed) from None
    except json.JSONDecodeError as error:
        raise LoadError(
            what, f"line {error.lineno} column {error.colno}", f"valid JSON ({error.msg})"
        ) from None
    except RecursionError:
        raise LoadError(what, "nesting", f"at most {MAX_DEPTH} levels of arrays and objects"
                        ) from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise LoadError(what, "number", f"numbers Python reads ({error})") from None
    _check_depth(data, what)
    refuse_surrogates(data, "$")
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")


def refuse_surrogates(data: Any, path: str) -> None:
    """Refuse text that is not Unicode: a lone surrogate (``"\\ud800"`` in JSON) loads as a
    str that cannot be written (``to_json``, UTF-8) or narrated later (issue 28). The path
    of the first such string, or of the object whose key holds it, is named."""
    if isinstance(data, str):
        if not data.isascii() and _SURROGATE.search(data):
            raise LoadError(path, data.encode("utf-8", "backslashreplace").decode("ascii"),
                            "Unicode text (no lone surrogate)")
    elif isinstance(data, dict):
        for key, value in data.items():
            refuse_surrogates(key, f"{path} (a key)")
            refuse_surrogates(value, f"{path}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            refuse_surrogates(value, f"{path}[{i}]")


def _check_depth(data: Any, what: str) -> None:
    level: list[Any] = [data]
    for _ in range(MAX_DEPTH):
        level = [
            child
            for node in level
            if isinstance(node, dict | list)
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
        if not level:
            return
    raise LoadError(what, "nesting", f"at most {MAX_DEPTH} levels of arrays and objects")


# --- strict structuring ---------------------------------------------------------------------
# Written here rather than through cattrs (a dependency dropped in issue 31): cattrs coerces
# by default ("3" -> 3, True -> 1, 3 -> "3", "ab" -> {"a", "b"}), so every scalar, enum,
# frozenset and union needs a strict hook, and its errors come as exception groups with the
# path in notes, which would have to be walked back into LoadError(path, value, allowed); a
# prototype of the happy path alone took ~45 lines of hooks before that translation, the
# references and the messages for unknown and missing fields, for ~130 lines here.
Reference = tuple[str, tuple[str, ...], bool, str]
"""A name found while loading: (path, groups it may name, blank allowed, the name)."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "an object"}.get(type(value), type(value).__name__)


def _expect(ok: bool, path: str, value: Any, allowed: str) -> None:
    if not ok:
        raise LoadError(path, value if not isinstance(value, list | dict) else _kind(value),
                        allowed)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def structure(data: Any, hint: Any, path: str = "$",
              references: list[Reference] | None = None) -> Any:
    """Build a value of type ``hint`` from JSON data without coercing anything: a string
    stays a string (never a number or a set of letters), an int is never a float's integer
    part nor a bool, an enum is one of its values, tuples and frozensets come from arrays
    (a frozenset's items once each), attrs classes from objects with no unknown key, every
    class's own validators run. Errors are ``LoadError`` with the value's path. Fields
    declared with ``refers_to`` are collected in ``references``."""
    refs: list[Reference] = [] if references is None else references
    return _structure(data, hint, path, refs)


def _structure(data: Any, hint: Any, path: str, refs: list[Reference]) -> Any:
    if hint is Any:
        return data
    origin = typing.get_origin(hint)
    if origin is typing.Union or isinstance(hint, types.UnionType):
        return _union(data, typing.get_args(hint), path, refs)
    if hint is type(None) or hint is None:
        _expect(data is None, path, data, "null")
        return None
    if hint is bool:
        _expect(isinstance(data, bool), path, data, "true or false")
        return data
    if hint is int:
        _expect(isinstance(data, int) and not isinstance(data, bool), path, data,
                "an integer (no quotes, no decimals)")
        return data
    if hint is float:
        _expect(isinstance(data, int | float) and not isinstance(data, bool), path, data,
                "a finite number")
        return float(data)
    if hint is str:
        _expect(isinstance(data, str), path, data, "a string")
        return data
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        for member in hint:
            if type(member.value) is type(data) and member.value == data:
                return member
        raise LoadError(path, data if not isinstance(data, list | dict) else _kind(data),
                        "one of " + ", ".join(repr(m.value) for m in hint))
    if origin is tuple:
        return _tuple(data, typing.get_args(hint), path, refs)
    if origin is frozenset:
        (item,) = typing.get_args(hint)
        _expect(isinstance(data, list), path, data, "an array (of distinct items)")
        items = [_structure(v, item, f"{path}[{i}]", refs) for i, v in enumerate(data)]
        result = frozenset(items)
        if len(result) != len(items):
            seen = Counter(items)
            raise LoadError(path, sorted((str(v) for v, n in seen.items() if n > 1)),
                            "each item of a set once")
        return result
    if isinstance(hint, type) and attrs.has(hint):
        return _attrs(data, hint, path, refs)
    raise LoadError(path, str(hint), "a type the loader reads (a bug in the ruleset's classes)")


def _union(data: Any, options: tuple[Any, ...], path: str, refs: list[Reference]) -> Any:
    if data is None and type(None) in options:
        return None
    real = [o for o in options if o is not type(None)]
    if len(real) == 1:
        return _structure(data, real[0], path, refs)
    errors = []
    for option in real:
        try:
            return _structure(data, option, path, refs)
        except LoadError as error:
            errors.append(error.allowed)
    raise LoadError(path, data if not isinstance(data, list | dict) else _kind(data),
                    " or ".join(errors))


def _tuple(data: Any, args: tuple[Any, ...], path: str, refs: list[Reference]) -> tuple[Any, ...]:
    _expect(isinstance(data, list), path, data, "an array")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_structure(v, args[0], f"{path}[{i}]", refs) for i, v in enumerate(data))
    if len(data) != len(args):
        raise LoadError(path, f"{len(data)} items", f"an array of exactly {len(args)} items")
    return tuple(_structure(v, a, f"{path}[{i}]", refs)
                 for i, (v, a) in enumerate(zip(data, args, strict=True)))


def _attrs(data: Any, cls: type, path: str, refs: list[Reference]) -> Any:
    _expect(isinstance(data, dict), path, data, f"an object (a {cls.__name__})")
    fields = {f.name: f for f in attrs.fields(cls) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise LoadError(f"{path}.{unknown[0]}", "(an unknown field)",
                        f"the fields of {cls.__name__}: " + ", ".join(fields))
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for name, field in fields.items():
        where = f"{path}.{name}"
        if name not in data:
            if field.default is attrs.NOTHING:
                raise LoadError(where, "(missing)", f"a value: {cls.__name__} needs {name}")
            continue
        value = _structure(data[name], hints[name], where, refs)
        declared = field.metadata.get(REFERS_TO)
        if declared is not None:
            _collect(value, where, declared, refs)
        kwargs[field.alias or name] = value
    try:
        return cls(**kwargs)
    except LoadError:
        raise
    except InvalidValueError as error:
        name = error.field.rsplit(".", 1)[-1]
        where = f"{path}.{name}" if name in fields else f"{path} ({error.field})"
        raise LoadError(where, error.value, error.allowed) from None
    except Exception as error:  # a class's own checks failing in an unforeseen way
        raise LoadError(path, _kind(data), f"a valid {cls.__name__} ({error!r})") from None


def _collect(value: Any, path: str, declared: tuple[tuple[str, ...], bool],
             refs: list[Reference]) -> None:
    groups, blank = declared
    if value is None:
        return
    if isinstance(value, str):
        if not (blank and value == ""):
            refs.append((path, groups, blank, value))
        return
    for i, item in enumerate(sorted(value) if isinstance(value, frozenset) else value):
        _collect(item, f"{path}[{i}]", declared, refs)


# --- canonical JSON -----------------------------------------------------------------------
_EXACT = 2.0**53
"""Below this every whole number is a float exactly, so writing it as an integer loses
nothing and reads back as the same float."""


def unstructure(value: Any) -> Any:
    """JSON-ready data for a value of attrs classes, enums, tuples, frozensets and
    scalars: objects with every field, enums as their values, frozensets as sorted arrays, so
    the same value always writes the same text. A whole-number float within 2**53 is written
    as an integer (``16.0`` as ``16``, ``-0.0`` as ``0``), so a value given as ``16`` and the
    same value loaded back as ``16.0`` write the same text (the loader reads an integer where
    a float is wanted, never the other way round). A NaN or infinite number is refused."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidValueError("value", value, "a finite number (JSON has no NaN)")
        if value.is_integer() and -_EXACT < value < _EXACT:
            return int(value)
        return value
    if isinstance(value, enum.Enum):
        return unstructure(value.value)
    if attrs.has(type(value)):
        return {f.name: unstructure(getattr(value, f.name))
                for f in attrs.fields(type(value)) if f.init}
    if isinstance(value, frozenset | set):
        items = [unstructure(v) for v in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, tuple | list):
        return [unstructure(v) for v in value]
    raise InvalidValueError("value", type(value).__name__,
                            "attrs classes, enums, tuples, frozensets, str, int, float, bool")


def _sequence(value: Any) -> tuple[Any, ...]:
    if not isinstance(value, tuple | list):
        raise InvalidValueError("BattleState", type(value).__name__, "a tuple (or a list)")
    return tuple(value)


def _sides(instance: Any, attribute: attrs.Attribute[Any] | None, value: tuple[Any, ...]
           ) -> None:
    if (not value or any(not isinstance(s, str) or not s for s in value)
            or len(set(value)) != len(value)):
        raise InvalidValueError("BattleState.sides", value, "distinct non-empty side names")


@attrs.frozen
class DiceState:
    """Where the battle's dice stand: a seed and how many steps have rolled. Each step rolls
    from a generator seeded by both, so replaying a step gives the same faces."""

    seed: int = attrs.field(validator=in_range(0, MAX_SEED))
    counter: int = attrs.field(default=0, validator=in_range(0, MAX_COUNTER))

    def dice(self) -> SamplingDice:
        """The sampling dice for the current step (made lazily: a step that rolls nothing
        pays nothing for them)."""
        return SamplingDice.keyed(self.seed, self.counter)

    def advanced(self) -> DiceState:
        """The dice state for the next step (made without attrs' ``__init__``: only the
        counter changes, and it is checked here; every step makes one)."""
        counter = self.counter + 1
        if counter > MAX_COUNTER:
            check_range("DiceState.counter", counter, 0, MAX_COUNTER)
        new = _new_object(DiceState)
        _set_seed(new, self.seed)
        _set_counter(new, counter)
        return new


def _ids_unique(instance: Any, attribute: attrs.Attribute[Any], value: tuple[Any, ...]) -> None:
    for item in value:
        item_id = getattr(item, "id", None)
        if not isinstance(item_id, str) or not item_id:
            raise InvalidValueError(f"{type(item).__name__}.id", item_id, "a non-empty string")
    counts = Counter(getattr(item, "id", None) for item in value)
    if len(counts) != len(value):
        duplicates = sorted((i for i, n in counts.items() if n > 1), key=str)
        raise InvalidValueError(f"BattleState.{attribute.name}", duplicates, "unique ids")


def _turn_limit(instance: Any, attribute: attrs.Attribute[Any], value: int | None) -> None:
    if value is not None:
        in_range(1, MAX_TURN)(instance, attribute, value)


@attrs.frozen
class Scenario:
    """What a scenario sets beside the units: its name, the last turn it plays (None: no
    limit), and whether a player may end the battle before that. A ruleset's default victory
    conditions apply unless the turn engine is given the scenario's own
    (``Engine.with_outcome``)."""

    name: str = ""
    turn_limit: int | None = attrs.field(default=None, validator=_turn_limit)
    players_may_end: bool = False


@attrs.frozen
class BattleState(Generic[U, C, X, O]):
    """A battle at one moment. ``extra`` holds what only one ruleset tracks (its deck, whose
    move it is, activity levels); ``options`` the ruleset's options in play; ``scenario`` the
    scenario's conditions; ``dice`` makes ``step`` pure and replayable."""

    ruleset: str
    sides: tuple[str, ...] = attrs.field(converter=_sequence, validator=_sides)
    units: tuple[U, ...] = attrs.field(converter=_sequence, validator=_ids_unique)
    commanders: tuple[C, ...] = attrs.field(converter=_sequence, validator=_ids_unique)
    extra: X
    options: O
    dice: DiceState
    turn: int = attrs.field(default=1, validator=in_range(1, MAX_TURN))
    phase: str = ""
    scenario: Scenario = Scenario()
    _derived: Memo = derived_field()

    def __attrs_post_init__(self) -> None:
        for group in ("units", "commanders"):
            for item in getattr(self, group):
                side = getattr(item, "side", None)
                if side not in self.sides:
                    raise InvalidValueError(
                        f"{type(item).__name__}.side", side, "one of " + ", ".join(self.sides)
                    )

    def unit(self, unit_id: str) -> U:
        """The unit with this id, looked up in an index made once for this state (every
        check of a step's candidates asks); an unknown id names the ids there are."""
        memo = self._derived  # ``self.derived(units_by_id)``, written out
        index: Mapping[str, U]
        try:
            index = memo[units_by_id]
        except KeyError:
            index = memo[units_by_id] = units_by_id(self)
        try:
            found = index.get(unit_id)
        except TypeError:  # an id that cannot be one (a list): named below
            found = None
        if found is None:
            raise InvalidValueError("unit", unit_id, _ids("units", self.units))
        return found

    def commander(self, commander_id: str) -> C:
        """The commander with this id (indexed as ``unit``)."""
        try:
            found = self.derived(commanders_by_id).get(commander_id)
        except TypeError:
            found = None
        if found is None:
            raise InvalidValueError("commander", commander_id,
                                    _ids("commanders", self.commanders))
        return found

    def with_units(self, *units: U) -> BattleState[U, C, X, O]:
        """This state with the given units replacing those of the same id."""
        return self._with_army("units", units, "unit")

    def with_commanders(self, *commanders: C) -> BattleState[U, C, X, O]:
        """This state with the given commanders replacing those of the same id."""
        return self._with_army("commanders", commanders, "commander")

    def _with_army(self, group: str, new: tuple[Any, ...], what: str) -> BattleState[U, C, X, O]:
        # Replacing by id keeps the ids as they were, so only the new items' sides need a
        # look: the rest of the army was checked when this state was made.
        replaced = _replace(getattr(self, group), new, what)
        for item in new:
            side = getattr(item, "side", None)
            if side not in self.sides:
                raise InvalidValueError(
                    f"{type(item).__name__}.side", side, "one of " + ", ".join(self.sides)
                )
        copy: BattleState[U, C, X, O] = _copy_with(self, {group: replaced})
        return copy

    def replace(self, **changes: Any) -> BattleState[U, C, X, O]:
        """This state with some of ``extra``, ``options``, ``dice``, ``phase``, ``turn`` or
        ``scenario`` replaced. Those values are validated on their own, and the sides, units
        and commanders do not change, so this skips checking them again (``attrs.evolve``
        would, at a cost that grows with the army)."""
        unknown = set(changes) - _UNCHECKED
        if unknown:
            raise InvalidValueError(
                "BattleState.replace", sorted(unknown), "some of " + ", ".join(sorted(_UNCHECKED))
            )
        if "turn" in changes:
            check_range("BattleState.turn", changes["turn"], 1, MAX_TURN)
        new: BattleState[U, C, X, O] = _copy_with(self, changes)
        return new

    def with_dice(self, dice: DiceState) -> BattleState[U, C, X, O]:
        """This state with the dice state of the next step (``replace(dice=...)`` without
        its checks: a ``DiceState`` was checked when made; every step makes one). What was
        derived from this state goes with it: no derived answer reads the dice."""
        if type(dice) is not DiceState:
            raise InvalidValueError("BattleState.dice", dice, "a DiceState")
        new: BattleState[U, C, X, O] = _copy_dice(self, dice)
        return new

    def with_extra(self, **changes: Any) -> BattleState[U, C, X, O]:
        """This state with some fields of ``extra`` changed (``evolved``: the extra's own
        validators run; the rest of the state is not checked again)."""
        return self.replace(extra=evolved(self.extra, changes))

    def derived(self, query: Callable[[Self], T]) -> T:
        """``query(self)``, worked out once for this state. A state never changes, so neither
        does what follows from it: the checks of every candidate action of a step ask the
        same questions (who may fire, which tests are due) and share one answer. ``query``
        must be a pure function of the state (a module-level function, so its answers are
        shared by identity). It never reads ``dice``: ``Engine.step`` carries the next dice
        state onto a state that may already hold answers."""
        memo = self._derived  # ``derive``, written out: the checks of every step ask here
        try:
            answer: T = memo[query]
        except KeyError:
            answer = memo[query] = query(self)
        return answer

    def __getstate__(self) -> dict[str, Any]:
        # pickled without what was derived from it: that is worked out again on demand
        return {name: getattr(self, name) for name in _FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _FIELDS:
            object.__setattr__(self, name, state[name])
        object.__setattr__(self, "_derived", {})

    def units_of(self, side: str) -> tuple[U, ...]:
        """The units of one side."""
        return tuple(u for u in self.units if getattr(u, "side", None) == side)

    def __repr__(self) -> str:
        sides = ", ".join(f"{side} {len(self.units_of(side))}" for side in self.sides)
        return (f"<BattleState {self.ruleset}: turn {self.turn}, {self.phase or 'no phase'}; "
                f"units {sides}; {len(self.commanders)} commanders>")

    def _repr_html_(self) -> str:
        """A notebook view: a table of the units under the turn and phase."""
        from smoothbore.core.present import units_html

        return units_html(self)

    def to_json(self) -> str:
        """The state as canonical JSON text: keys sorted, sets sorted, no NaN, and the
        ``schema_version`` that ``from_json`` checks. The same state always writes the same
        text, whatever the process's hash seed."""
        data = unstructure(self)
        data["schema_version"] = SCHEMA_VERSION
        return json.dumps(data, sort_keys=True, allow_nan=False, ensure_ascii=False)

    @classmethod
    def from_json(
        cls,
        text: str,
        unit_type: type[U],
        commander_type: type[C],
        extra_type: type[X],
        options_type: type[O],
        *,
        ruleset: str | None = None,
        phases: Iterable[str] | None = None,
    ) -> BattleState[U, C, X, O]:
        """Read a state written by ``to_json``, given the ruleset's classes (and, to check
        them too, its name and phase names). Strict: nothing is coerced, an unknown field is
        refused, the schema version must be one this library reads, every id a field
        declares with ``refers_to`` must exist, and text is bounded in size and nesting.
        Every failure is a ``LoadError`` giving the path of the field, its value and what
        is allowed; nothing else escapes."""
        data = read_json(text, "state")
        return cls.from_data(data, unit_type, commander_type, extra_type, options_type,
                             ruleset=ruleset, phases=phases)

    @classmethod
    def from_data(
        cls,
        data: Any,
        unit_type: type[U],
        commander_type: type[C],
        extra_type: type[X],
        options_type: type[O],
        *,
        ruleset: str | None = None,
        phases: Iterable[str] | None = None,
        path: str = "$",
    ) -> BattleState[U, C, X, O]:
        """``from_json`` on data already parsed (``read_json``), such as a state inside a
        battle record; ``path`` is where the data stands in its document."""
        _expect(isinstance(data, dict), path, data, "an object: a state written by to_json")
        version = data.get("schema_version", "(missing)")
        if type(version) is not int or version != SCHEMA_VERSION:
            raise LoadError(f"{path}.schema_version", version,
                            f"{SCHEMA_VERSION} (the saved-state format this library reads)")
        body = {k: v for k, v in data.items() if k != "schema_version"}
        hints: dict[str, Any] = {
            "ruleset": str, "sides": tuple[str, ...],
            "units": tuple[unit_type, ...],  # type: ignore[valid-type]
            "commanders": tuple[commander_type, ...],  # type: ignore[valid-type]
            "extra": extra_type,
            "options": options_type, "dice": DiceState, "turn": int, "phase": str,
            "scenario": Scenario,
        }
        unknown = sorted(set(body) - set(hints))
        if unknown:
            raise LoadError(f"{path}.{unknown[0]}", "(an unknown field)",
                            "the fields of a state: schema_version, " + ", ".join(hints))
        refs: list[Reference] = []
        kwargs: dict[str, Any] = {}
        for name, hint in hints.items():
            if name not in body:
                if name in ("turn", "phase", "scenario"):
                    continue
                raise LoadError(f"{path}.{name}", "(missing)", f"a value: a state needs {name}")
            kwargs[name] = _structure(body[name], hint, f"{path}.{name}", refs)
        if ruleset is not None and kwargs["ruleset"] != ruleset:
            raise LoadError(f"{path}.ruleset", kwargs["ruleset"],
                            f"{ruleset!r}: a state of this ruleset")
        if phases is not None:
            names = tuple(phases)
            if kwargs.get("phase", "") not in names:
                raise LoadError(f"{path}.phase", kwargs.get("phase", ""),
                                "one of " + ", ".join(map(repr, names)))
        _check_army(kwargs, path)
        try:
            state: BattleState[U, C, X, O] = cls(**kwargs)
        except InvalidValueError as error:
            name = error.field.removeprefix("BattleState.")
            where = f"{path}.{name}" if name in hints else f"{path} ({error.field})"
            raise LoadError(where, error.value, error.allowed) from None
        state._check(refs)
        # the ruleset's whole-battle check (what its new_battle and steps rely on), if its
        # extra class has one: ``check_battle(state, path)`` raising LoadError by path
        check_battle = getattr(extra_type, "check_battle", None)
        if check_battle is not None:
            check_battle(state, path)
        return state

    def check_references(self) -> None:
        """Raise InvalidValueError if a field declared with ``refers_to`` (anywhere in the
        units, commanders, extra or options) names a unit, commander or side that does not
        exist. ``from_json`` does this on every load."""
        refs: list[Reference] = []
        for name in ("units", "commanders", "extra", "options"):
            _gather(getattr(self, name), f"$.{name}", refs)
        self._check(refs)

    def _check(self, refs: list[Reference]) -> None:
        known: dict[str, set[Any]] = {
            "units": {getattr(u, "id", None) for u in self.units},
            "commanders": {getattr(c, "id", None) for c in self.commanders},
            "sides": set(self.sides),
        }
        for path, groups, blank, name in refs:
            if not any(name in known[g] for g in groups):
                allowed = " or ".join(f"the id of one of the {g}" if g != "sides" else "a side"
                                      for g in groups)
                names = sorted(str(n) for g in groups for n in known[g])
                more = ", or '' for none" if blank else ""
                raise LoadError(path, name, f"{allowed} ({', '.join(names) or 'none'}){more}")


def _check_army(fields: dict[str, Any], path: str) -> None:
    """The sides, then each unit's and commander's id and side, by path."""
    sides = fields["sides"]
    try:
        _sides(None, None, sides)
    except InvalidValueError as error:
        raise LoadError(f"{path}.sides", sides, error.allowed) from None
    for group in ("units", "commanders"):
        seen: set[str] = set()
        for i, item in enumerate(fields[group]):
            item_id, side = getattr(item, "id", None), getattr(item, "side", None)
            if not isinstance(item_id, str) or not item_id or item_id in seen:
                raise LoadError(f"{path}.{group}[{i}].id", item_id,
                                f"a non-empty id that no other of the {group} has")
            seen.add(item_id)
            if side not in sides:
                raise LoadError(f"{path}.{group}[{i}].side", side,
                                "one of the sides " + ", ".join(map(repr, sides)))


def _gather(value: Any, path: str, refs: list[Reference]) -> None:
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            where = f"{path}.{field.name}"
            declared = field.metadata.get(REFERS_TO)
            if declared is not None:
                _collect(item, where, declared, refs)
            else:
                _gather(item, where, refs)
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            _gather(item, f"{path}[{i}]", refs)


def units_by_id(state: BattleState[U, Any, Any, Any]) -> Mapping[str, U]:
    """A state's units by id (``state.derived(units_by_id)``: made once a state)."""
    found: dict[str, U] = {str(getattr(unit, "id", "")): unit for unit in state.units}
    return types.MappingProxyType(found)


def commanders_by_id(state: BattleState[Any, C, Any, Any]) -> Mapping[str, C]:
    """A state's commanders by id (made once a state)."""
    found: dict[str, C] = {str(getattr(c, "id", "")): c for c in state.commanders}
    return types.MappingProxyType(found)


_FIELDS = tuple(field.name for field in attrs.fields(BattleState) if field.init)
_UNCHECKED = frozenset({"extra", "options", "dice", "phase", "turn", "scenario"})


def _copier(kind: type, names: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """A function ``copy(value, changes)`` that fills a new ``kind`` slot by slot, with
    ``changes`` where given. Written out field by field (as attrs writes its own methods),
    it costs half of a loop over the fields: it runs two or three times a battle step."""
    lines = ["def copy(self, changes, _new=object.__new__):", "    new = _new(type(self))"]
    lines += [
        f"    _set_{name}(new, changes[{name!r}] if {name!r} in changes else self.{name})"
        for name in names
    ]
    derived = [f.name for f in attrs.fields(kind) if not f.init]
    lines += [f"    _set_{name}(new, {{}})" for name in derived]  # a new state derives afresh
    lines.append("    return new")
    scope: dict[str, Any] = {}
    scope.update({f"_set_{name}": kind.__dict__[name].__set__ for name in (*names, *derived)})
    exec("\n".join(lines), scope)  # the text is built from the class's field names only
    copy: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return copy


_copy_with = _copier(BattleState, _FIELDS)


def _one_field_copier(kind: type, names: tuple[str, ...], changed: str
                      ) -> Callable[[Any, Any], Any]:
    """A function ``copy(value, new_value)``: a new ``kind`` with field ``changed`` set to
    ``new_value`` and the others as they were (the copy ``Engine.step`` makes every step).
    What was derived from ``value`` is handed on with it, the very memo: the field changed is
    one no derived query reads (``BattleState.derived``: never the dice), so every answer
    already worked out, or worked out later on either copy, is the same for both."""
    lines = ["def copy(self, value, _new=object.__new__):", "    new = _new(type(self))"]
    lines += [f"    _set_{name}(new, value)" if name == changed
              else f"    _set_{name}(new, self.{name})" for name in names]
    derived = [f.name for f in attrs.fields(kind) if not f.init]
    lines += [f"    _set_{name}(new, self.{name})" for name in derived]  # handed on
    lines.append("    return new")
    scope: dict[str, Any] = {f"_set_{name}": kind.__dict__[name].__set__
                             for name in (*names, *derived)}
    exec("\n".join(lines), scope)  # built from the class's field names only
    copy: Callable[[Any, Any], Any] = scope["copy"]
    return copy


_copy_dice = _one_field_copier(BattleState, _FIELDS, "dice")
_new_object = object.__new__
_set_seed = DiceState.__dict__["seed"].__set__
_set_counter = DiceState.__dict__["counter"].__set__


def evolved(value: T, changes: dict[str, Any]) -> T:
    """``attrs.evolve(value, **changes)``: a copy of a frozen attrs value with some fields
    changed. A ruleset's ``Extra`` changes several times a step; where its class has no
    validators, converters or post-init to run, the copy is filled slot by slot, at a third
    of the cost."""
    kind: type = type(value)
    plain = _plain_copier(kind)
    if plain is None:
        return attrs.evolve(value, **changes)  # type: ignore[misc]
    copy, names = plain
    for name in changes:
        if name not in names:
            raise InvalidValueError(f"{kind.__name__} field", name, "one of " + ", ".join(names))
    new: T = copy(value, changes)
    return new


def revised(value: T, **changes: Any) -> T:
    """``attrs.evolve(value, **changes)`` that checks only what changed: a copy of a frozen
    attrs value filled slot by slot, each changed field converted and validated with its own
    converter and validator (run on the new value, so a validator that reads another field
    sees the new one), an unknown field refused by name. The rest was checked when ``value``
    was made and does not change, so it is not checked again (``attrs.evolve`` checks every
    field, at several times the cost for a unit changed on every step). A class with a
    post-init, or fields that are not set from ``__init__``, is copied by ``attrs.evolve``."""
    kind: type = type(value)
    plan = _revision_plan(kind)
    if plan is None:
        return attrs.evolve(value, **changes)  # type: ignore[misc]
    copy, fields, hashed = plan
    for name in changes:
        if name not in fields:
            raise InvalidValueError(f"{kind.__name__} field", name,
                                    "one of " + ", ".join(fields))
    converted = {}
    for name, given in changes.items():
        field = fields[name]
        converted[name] = field.converter(given) if callable(field.converter) else given
    new: T = copy(value, converted)
    if hashed:
        object.__setattr__(new, "_attrs_cached_hash", None)  # worked out again when asked
    for name, field in fields.items():  # in the class's order, as attrs checks
        if name in converted and field.validator is not None:
            field.validator(new, field, converted[name])
    return new


@functools.cache
def _revision_plan(kind: type) -> tuple[Callable[[Any, dict[str, Any]], Any],
                                        dict[str, attrs.Attribute[Any]], bool] | None:
    """How ``revised`` copies a class: its slot-by-slot copier and its fields by name (None
    for a class it leaves to ``attrs.evolve``). Made once per class, as attrs makes a
    class's methods once."""
    if not attrs.has(kind) or "__slots__" not in kind.__dict__ or hasattr(
        kind, "__attrs_post_init__"
    ):
        return None
    fields = attrs.fields(kind)
    if any(not f.init or f.alias != f.name for f in fields):
        return None
    names = tuple(f.name for f in fields)
    hashed = "_attrs_cached_hash" in getattr(kind, "__slots__", ())
    return _copier(kind, names), {f.name: f for f in fields}, hashed


@functools.cache
def _plain_copier(
    kind: type,
) -> tuple[Callable[[Any, dict[str, Any]], Any], tuple[str, ...]] | None:
    """The slot-by-slot copier of a frozen attrs class with slots and nothing to run on
    construction (None for any other class: ``attrs.evolve`` copies it)."""
    if not attrs.has(kind) or "__slots__" not in kind.__dict__ or hasattr(
        kind, "__attrs_post_init__"
    ):
        return None
    fields = attrs.fields(kind)
    if any(f.validator is not None or f.converter is not None or not f.init or f.alias != f.name
           for f in fields):
        return None
    names = tuple(f.name for f in fields)
    return _copier(kind, names), names


def _ids(what: str, items: tuple[Any, ...]) -> str:
    known = ", ".join(str(getattr(i, "id", "?")) for i in items)
    return f"the id of one of the {what}: {known}" if known else f"nothing: there are no {what}"


def _replace(current: tuple[Any, ...], new: tuple[Any, ...], what: str) -> tuple[Any, ...]:
    replacements = {getattr(item, "id", None): item for item in new}
    known = {getattr(item, "id", None) for item in current}
    for item_id in replacements:
        if item_id not in known:
            raise InvalidValueError(what, item_id, _ids(what + "s", current))
    return tuple(replacements.get(getattr(item, "id", None), item) for item in current)
