"""A ruleset as data: its name, title, period, dice, phases and random mechanisms."""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import math
import numbers
import sys
import typing
from collections.abc import Callable, Hashable, Iterator, Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal, TypeVar

import attrs

from smoothbore.core.errors import IllegalActionError, InvalidValueError
from smoothbore.core.protocols import Phase, Turn

__all__ = [
    "BATTLE_READER",
    "Help",
    "Mechanism",
    "PackagedBattle",
    "Parameter",
    "Ruleset",
    "Validated",
    "find_mechanism",
    "parameters_of",
    "spell",
    "validated",
]

F = TypeVar("F", bound=Callable[..., Any])

_KINDS = (int, bool, str, float)


def spell(value: object) -> str:
    """A choice as the command line writes it: lower case, words joined by dashes
    (``very-light-artillery``); any other spelling with spaces or underscores is accepted.
    An enum is written by its value when that is text, else by its name (``significant``
    rather than ``2``)."""
    if isinstance(value, enum.Enum):
        value = value.value if isinstance(value.value, str) else value.name
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).strip().lower().replace("_", "-").replace(" ", "-")


@attrs.frozen
class Help:
    """What ``Annotated`` adds to a mechanism parameter: its help text and, for numbers,
    the lowest and highest values the rule takes."""

    text: str
    low: float | None = None
    high: float | None = None


@attrs.frozen
class Parameter:
    """One parameter of a mechanism, as the command line and notebooks see it: a name, a
    kind (int, bool, str, float or an Enum), a default, help, choices and a range."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind not in _KINDS and not (
            isinstance(self.kind, type) and issubclass(self.kind, enum.Enum)
        ):
            raise InvalidValueError("Parameter.kind", self.kind, "int, bool, str, float or Enum")

    @property
    def type_name(self) -> str:
        """The kind as a user reads it: int, bool, str, float or "choice"."""
        return "choice" if self.choices else self.kind.__name__

    def show(self, value: Any) -> str:
        """A value as the command line writes it."""
        if self.choices or isinstance(value, enum.Enum | bool):
            return spell(value)
        return str(value)

    def allowed(self) -> str:
        """What this parameter accepts, in words."""
        if self.choices:
            return "one of " + ", ".join(spell(c) for c in self.choices)
        if self.kind is bool:
            return "yes or no (true/false, 1/0)"
        words = {int: "an integer", float: "a finite number", str: "text"}[self.kind]
        if self.low is not None and self.high is not None:
            return f"{words} from {_num(self.low)} to {_num(self.high)}"
        if self.low is not None:
            return f"{words} of at least {_num(self.low)}"
        if self.high is not None:
            return f"{words} of at most {_num(self.high)}"
        return words

    def parse(self, text: str) -> Any:
        """Read a value given as text (``"3"``, ``"yes"``, ``"light-infantry"``), checking
        kind, choices and range; the error names the parameter as the user typed it."""
        value: Any
        if self.choices:
            wanted = spell(text)
            for choice in self.choices:
                names = {spell(choice)}
                if isinstance(choice, enum.Enum):
                    names.update((spell(choice.name), spell(str(choice.value))))
                if wanted in names:
                    return choice
            raise InvalidValueError(self.name, text, self.allowed())
        if self.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "y", "on"):
                return True
            if lowered in ("0", "false", "no", "n", "off"):
                return False
            raise InvalidValueError(self.name, text, self.allowed())
        if self.kind is int:
            try:
                value = int(text)
            except ValueError:
                raise InvalidValueError(self.name, text, self.allowed()) from None
        elif self.kind is float:
            try:
                value = float(text)
            except ValueError:
                raise InvalidValueError(self.name, text, self.allowed()) from None
            if not math.isfinite(value):
                raise InvalidValueError(self.name, text, self.allowed())
        else:
            return text
        return self.validate(value)

    def accept(self, value: Any) -> Any:
        """A value given from Python, checked exactly as the command line checks text: a
        choice is one of the choices, an enum member spelled as one of them
        (``UnitType.CAVALRY`` for the choice ``"cavalry"``) or its command-line spelling
        (``"morale"`` for ``TestKind.MORALE``), and comes back as the choice itself; a
        number is of the parameter's kind (a bool is not a number, an int is a float) and
        within its range; text is parsed as the command line parses it. Anything else raises
        InvalidValueError naming the parameter, the value and what is allowed."""
        if isinstance(value, str) and (self.choices or self.kind is not str):
            return self.parse(value)
        if self.choices:
            for choice in self.choices:
                if value is choice or (type(value) is type(choice) and value == choice):
                    return choice
            if isinstance(value, enum.Enum):
                spelled = {spell(value), spell(value.name)}
                for choice in self.choices:
                    if spell(choice) in spelled:
                        return choice
            raise InvalidValueError(self.name, value, self.allowed())
        if self.kind is bool:
            if not isinstance(value, bool):
                raise InvalidValueError(self.name, value, self.allowed())
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise InvalidValueError(self.name, value, self.allowed())
            return self.validate(int(value))
        if self.kind is float:
            if (isinstance(value, bool) or not isinstance(value, numbers.Real)
                    or not math.isfinite(value)):
                raise InvalidValueError(self.name, value, self.allowed())
            return self.validate(float(value))
        if not isinstance(value, str):
            raise InvalidValueError(self.name, value, self.allowed())
        return value

    def validate(self, value: Any) -> Any:
        """``value`` if it is within the parameter's range."""
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise InvalidValueError(self.name, value, self.allowed())
        return value


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _parameter(name: str, hint: Any, default: Any) -> Parameter:
    help_text, low, high = "", None, None
    if typing.get_origin(hint) is Annotated:
        hint, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, Help):
                help_text, low, high = extra.text, extra.low, extra.high
            elif isinstance(extra, str):
                help_text = extra
    choices: tuple[Any, ...] = ()
    kind = hint
    if typing.get_origin(hint) is Literal:
        choices = typing.get_args(hint)
        kind = type(choices[0])
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        choices = tuple(hint)
    if not help_text:
        raise InvalidValueError(
            f"parameter {name}", hint, "Annotated[kind, 'help'] or Annotated[kind, Help(...)]"
        )
    return Parameter(name, kind, default, help_text, choices, low, high)


def parameters_of(function: Callable[..., Any]) -> tuple[Parameter, ...]:
    """The parameters of a mechanism function, read from its keyword-only signature
    (``Annotated[int, Help("...", low=0, high=6)]``; choices from an Enum or a ``Literal``):
    the one definition that the command line parses text with and that ``validated`` checks
    Python calls with. ``dice`` is not a parameter."""
    function = inspect.unwrap(function)
    hints = typing.get_type_hints(function, include_extras=True)
    parameters = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "dice":
            continue
        if parameter.kind is not inspect.Parameter.KEYWORD_ONLY or (
            parameter.default is inspect.Parameter.empty
        ):
            raise InvalidValueError(
                f"{function.__name__} parameter", parameter.name,
                "keyword-only with a default",
            )
        parameters.append(_parameter(parameter.name, hints[parameter.name], parameter.default))
    return tuple(parameters)


_MEMO = 256
"""Argument sets a validated function remembers as checked (exact odds call it once per
chance branch with the same arguments)."""


def validated(function: F) -> F:
    """``function`` (a mechanism: ``dice`` and keyword-only parameters declared with
    ``Annotated``) checking every argument of every call against its ``Parameter``, exactly
    as the command line checks text (``Parameter.accept``): a plain call from Python, a call
    through ``odds`` and the command line all validate alike. A bad value, an unknown
    keyword or a positional argument raises InvalidValueError naming the parameter, the
    value and what is allowed; a choice may be given as its enum member or its command-line
    spelling. The parameters are read from the signature at the first call (the names its
    annotations use may be defined after it), once. The result pickles: by name when it is
    the module's own (a decorated function), else as ``validated`` of the function."""
    if isinstance(function, Validated):
        return function
    return Validated(function)  # type: ignore[return-value]


class Validated:
    """A mechanism function that validates its arguments (made by ``validated``)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        functools.update_wrapper(self, function)
        self.function = function
        self._parameters: dict[str, Parameter] = {}
        self._seen: dict[tuple[Any, ...], dict[str, Any]] = {}

    def parameters(self) -> dict[str, Parameter]:
        """The parameters by name (read from the signature once)."""
        if not self._parameters:
            self._parameters.update((p.name, p) for p in parameters_of(self.function))
        return self._parameters

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = self.__name__  # type: ignore[attr-defined]
        if args:
            raise InvalidValueError(f"{name} arguments", args,
                                    "keyword arguments only (dice=..., name=value)")
        if "dice" not in kwargs:
            raise InvalidValueError(f"{name} dice", "(missing)",
                                    "dice=... (sampling dice, or odds' enumerating dice)")
        dice = kwargs.pop("dice")
        seen = self._seen
        try:
            key: tuple[Any, ...] | None = tuple((k, type(v), v) for k, v in kwargs.items())
            values = seen.get(key)  # type: ignore[arg-type]
        except TypeError:  # an unhashable value: checked below, and refused there
            key, values = None, None
        if values is None:
            by_name = self.parameters()
            values = {}
            for given, value in kwargs.items():
                parameter = by_name.get(given)
                if parameter is None:
                    raise InvalidValueError(f"{name} parameter", given,
                                            "one of " + (", ".join(by_name) or "none"))
                values[given] = parameter.accept(value)
            if key is not None:
                if len(seen) >= _MEMO:
                    seen.clear()
                seen[key] = values
        try:
            return self.function(dice=dice, **values)
        except IllegalActionError as error:
            if error.action is not None:
                raise
            # a mechanism has no action: the call, in words, is what the rules refuse
            by_name = self.parameters()
            asked = " ".join([name.strip("_").replace("_", "-"), *(
                f"{k}={by_name[k].show(v)}" for k, v in values.items())])
            raise IllegalActionError(asked, error.why, error.rule) from None

    def __reduce__(self) -> Any:
        module = sys.modules.get(getattr(self, "__module__", ""))
        qualname = getattr(self, "__qualname__", "")
        if module is not None and "." not in qualname and getattr(module, qualname, None) is self:
            return qualname  # the module's own name for it: pickled by reference
        return (validated, (self.function,))

    def __repr__(self) -> str:
        return f"<validated {getattr(self, '__qualname__', self.function)!r}>"


def is_validated(function: Callable[..., Any]) -> bool:
    """Whether ``function`` checks its arguments (``validated``)."""
    return isinstance(function, Validated)


@attrs.frozen
class Mechanism:
    """One random mechanism of a ruleset: ``function(dice=..., **parameters)`` returns a
    short, hashable result, so ``odds`` gives its exact distribution."""

    name: str
    summary: str
    rule: str
    function: Callable[..., Hashable] = attrs.field(eq=False)
    parameters: tuple[Parameter, ...] = ()

    @classmethod
    def of(
        cls, function: Callable[..., Hashable], rule: str, *, name: str = "", summary: str = ""
    ) -> Mechanism:
        """A mechanism declared once, beside its rule: the parameters are read from the
        function's keyword-only signature (``Annotated[int, Help("...", low=0)]``; choices
        from an Enum or a ``Literal``), the summary from its docstring's first line and the
        name from the function's, with dashes. The mechanism calls the function
        ``validated``, so that its arguments are checked however it is called."""
        parameters = parameters_of(function)
        doc = (inspect.getdoc(function) or "").strip()
        return cls(
            name or function.__name__.strip("_").replace("_", "-"),
            summary or doc.split("\n\n")[0].replace("\n", " ").rstrip("."),
            rule,
            validated(function),
            parameters,
        )

    def parameter(self, name: str) -> Parameter:
        """The parameter with this name (``-`` and ``_`` alike)."""
        wanted = name.replace("-", "_")
        for parameter in self.parameters:
            if parameter.name == wanted:
                return parameter
        names = ", ".join(p.name for p in self.parameters)
        raise InvalidValueError(f"{self.name} parameter", name,
                                "one of " + names if names else "none: it takes no parameters")

    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default."""
        return {p.name: p.default for p in self.parameters}

    def arguments(self, given: Mapping[str, str]) -> dict[str, Any]:
        """Defaults overridden by values given as text."""
        values = self.defaults()
        for name, text in given.items():
            parameter = self.parameter(name)
            values[parameter.name] = parameter.parse(text)
        return values

    def signature(self) -> str:
        """``name key=default ...`` as the command line takes it."""
        return " ".join(
            [self.name, *(f"{p.name}={p.show(p.default)}" for p in self.parameters)]
        )


def _colours(value: Mapping[str, str]) -> Mapping[str, str]:
    """Side names lower-cased, read-only."""
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()):
        raise InvalidValueError("colours", value, "a mapping of side name to CSS colour")
    return _ReadOnly({k.lower(): v for k, v in value.items()})


class _ReadOnly(Mapping[str, str]):
    """A read-only mapping that pickles (a ``MappingProxyType`` does not, and a Ruleset
    goes to ``simulate``'s worker processes by pickle)."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, str]) -> None:
        self._data = MappingProxyType(dict(data))

    def __getitem__(self, key: str) -> str:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(dict(self._data))

    def __reduce__(self) -> tuple[type, tuple[dict[str, str]]]:
        return (type(self), (dict(self._data),))


BATTLE_READER = "smoothbore.scenario.document:packaged"
"""The function that reads a book's embedded battle file, ``read(book, file)`` giving a
scenario whose ``start(seed, on_table=...)`` is the battle at its start, named by reference
(``module:function``), as the registry names rule books, and imported only when a battle is
first made: the scenario reader sits above the books and core (DESIGN.md's layers), so
neither imports it (``tests/test_layers.py``, ``LATE_BOUND``)."""


@attrs.frozen
class PackagedBattle:
    """An embedded battle described as data: the file ``battles/<file>.toml`` inside the
    package of the rule book ``book``, started from a seed on its table or (``on_table``
    False) measured by the players. A book lists its battles as these values (its
    ``example`` and ``scenarios``); ``smoothbore.scenario`` reads the file when the battle
    is made (``BATTLE_READER``), so the book never imports the reader and the loader is
    written once. A module-level value: the ruleset pickles by name."""

    book: str
    file: str
    on_table: bool = True

    def __call__(self, seed: int = 0, *, on_table: bool | None = None,
                 table: bool | None = None) -> Any:
        """The battle at its start, its dice from ``seed``; ``on_table`` (or ``table``, as
        McKie's battles name it) False: the same battle measured by the players."""
        played = self.on_table if on_table is None else on_table
        if table is not None:
            played = table
        module, _, name = BATTLE_READER.partition(":")
        read = getattr(importlib.import_module(module), name)
        return read(self.book, self.file).start(seed, on_table=played)


@attrs.frozen
class Ruleset:
    """What the library knows of one rule book."""

    name: str
    title: str
    period: str
    edition: str
    aliases: tuple[str, ...]
    dice: tuple[str, ...]
    phases: tuple[Phase, ...]
    mechanisms: tuple[Mechanism, ...]
    turn: Turn[Any, Any] | None = attrs.field(default=None, eq=False)
    source: str = ""
    example: Callable[[int], Any] | None = attrs.field(default=None, eq=False)
    """An embedded battle, made from a seed: the command line's default, and the state the
    conformance suite plays."""
    scenarios: tuple[tuple[str, Callable[[int], Any]], ...] = attrs.field(default=(), eq=False)
    """Further embedded battles by name (a variant, an option in play), each made from a
    seed; the conformance suite plays them all."""
    colours: Mapping[str, str] = attrs.field(factory=dict, converter=_colours, eq=False)
    """Each side's colour on the battle map, by side name (any case): a CSS colour. A side
    not named here is drawn in a neutral colour."""

    def battles(self) -> tuple[tuple[str, Callable[[int], Any]], ...]:
        """Every embedded battle by name, the default ``example`` first."""
        first = (("default", self.example),) if self.example is not None else ()
        return (*first, *self.scenarios)

    def battle(self, name: str = "default") -> Callable[[int], Any]:
        """The embedded battle of this name (``-`` and ``_`` alike)."""
        wanted = spell(name)
        for known, make in self.battles():
            if spell(known) == wanted:
                return make
        names = ", ".join(n for n, _ in self.battles()) or "none"
        raise InvalidValueError(f"{self.name} battle", name, "one of " + names)

    def mechanism(self, name: str) -> Mechanism:
        """The mechanism with this name (``-`` and ``_`` are the same)."""
        return find_mechanism(self.mechanisms, name, self.name)


def find_mechanism(mechanisms: tuple[Mechanism, ...], name: str, owner: str) -> Mechanism:
    """The mechanism called ``name`` (case-blind, ``-`` and ``_`` alike); an unknown name
    lists the available ones."""
    wanted = name.replace("_", "-").lower()
    for mechanism in mechanisms:
        if mechanism.name.replace("_", "-").lower() == wanted:
            return mechanism
    names = ", ".join(m.name for m in mechanisms) or "none"
    raise InvalidValueError(f"{owner} mechanism", name, "one of " + names)
