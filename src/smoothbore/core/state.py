"""The generic battle state: sides, units and commanders by id, turn and phase, the
ruleset's own state and options, the scenario's conditions, and the dice state that makes
every step replayable."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Generic, TypeVar

import attrs
import cattrs
from cattrs.preconf.json import make_converter

from smoothbore.core.chance import SamplingDice
from smoothbore.core.errors import InvalidValueError
from smoothbore.core.validate import at_least, check_range

__all__ = ["BattleState", "DiceState", "Scenario", "converter"]

U = TypeVar("U")
C = TypeVar("C")
X = TypeVar("X")
O = TypeVar("O")  # noqa: E741

converter = make_converter()
"""The converter that turns states (attrs classes, enums, tuples, frozensets) into JSON-ready
data and back."""


@attrs.frozen
class DiceState:
    """Where the battle's dice stand: a seed and how many steps have rolled. Each step rolls
    from a generator seeded by both, so replaying a step gives the same faces."""

    seed: int = attrs.field(validator=at_least(0))
    counter: int = attrs.field(default=0, validator=at_least(0))

    def dice(self) -> SamplingDice:
        """The sampling dice for the current step (made lazily: a step that rolls nothing
        pays nothing for them)."""
        return SamplingDice.keyed(self.seed, self.counter)

    def advanced(self) -> DiceState:
        """The dice state for the next step."""
        return DiceState(self.seed, self.counter + 1)


def _ids_unique(instance: Any, attribute: attrs.Attribute[Any], value: tuple[Any, ...]) -> None:
    counts = Counter(getattr(item, "id", None) for item in value)
    if len(counts) != len(value):
        duplicates = sorted((i for i, n in counts.items() if n > 1), key=str)
        raise InvalidValueError(f"BattleState.{attribute.name}", duplicates, "unique ids")


def _turn_limit(instance: Any, attribute: attrs.Attribute[Any], value: int | None) -> None:
    if value is not None:
        at_least(1)(instance, attribute, value)


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
    sides: tuple[str, ...]
    units: tuple[U, ...] = attrs.field(validator=_ids_unique)
    commanders: tuple[C, ...] = attrs.field(validator=_ids_unique)
    extra: X
    options: O
    dice: DiceState
    turn: int = attrs.field(default=1, validator=at_least(1))
    phase: str = ""
    scenario: Scenario = Scenario()

    def __attrs_post_init__(self) -> None:
        for group in ("units", "commanders"):
            for item in getattr(self, group):
                side = getattr(item, "side", None)
                if side not in self.sides:
                    raise InvalidValueError(
                        f"{type(item).__name__}.side", side, "one of " + ", ".join(self.sides)
                    )

    def unit(self, unit_id: str) -> U:
        """The unit with this id."""
        for unit in self.units:
            if getattr(unit, "id", None) == unit_id:
                return unit
        raise InvalidValueError("unit", unit_id, _ids("units", self.units))

    def commander(self, commander_id: str) -> C:
        """The commander with this id."""
        for commander in self.commanders:
            if getattr(commander, "id", None) == commander_id:
                return commander
        raise InvalidValueError("commander", commander_id, _ids("commanders", self.commanders))

    def with_units(self, *units: U) -> BattleState[U, C, X, O]:
        """This state with the given units replacing those of the same id."""
        return attrs.evolve(self, units=_replace(self.units, units, "unit"))

    def with_commanders(self, *commanders: C) -> BattleState[U, C, X, O]:
        """This state with the given commanders replacing those of the same id."""
        return attrs.evolve(self, commanders=_replace(self.commanders, commanders, "commander"))

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
            check_range("BattleState.turn", changes["turn"], 1)
        new: BattleState[U, C, X, O] = object.__new__(type(self))
        for name in _FIELDS:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    def with_extra(self, **changes: Any) -> BattleState[U, C, X, O]:
        """This state with some fields of ``extra`` changed (``attrs.evolve`` on the extra, so
        its own validators run; the rest of the state is not checked again)."""
        return self.replace(extra=attrs.evolve(self.extra, **changes))  # type: ignore[misc]

    def units_of(self, side: str) -> tuple[U, ...]:
        """The units of one side."""
        return tuple(u for u in self.units if getattr(u, "side", None) == side)

    def to_json(self) -> str:
        """The state as JSON text."""
        return json.dumps(converter.unstructure(self), sort_keys=True)

    @classmethod
    def from_json(
        cls,
        text: str,
        unit_type: type[U],
        commander_type: type[C],
        extra_type: type[X],
        options_type: type[O],
    ) -> BattleState[U, C, X, O]:
        """Read a state written by ``to_json``, given the ruleset's classes."""
        try:
            data = json.loads(text)
            return converter.structure(
                data,
                BattleState[
                    unit_type, commander_type, extra_type, options_type  # type: ignore[valid-type]
                ],
            )
        except InvalidValueError:
            raise
        except (ValueError, TypeError, KeyError, cattrs.BaseValidationError) as error:
            raise InvalidValueError("json", text[:80], f"a saved BattleState ({error})") from error


_FIELDS = tuple(field.name for field in attrs.fields(BattleState))
_UNCHECKED = frozenset({"extra", "options", "dice", "phase", "turn", "scenario"})


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
