"""Enumerations read as the rule books' words."""

from __future__ import annotations

from smoothbore.core import NamedEnum


class Cover(NamedEnum):
    OPEN = "open"
    WOODS = "woods or soft cover"
    SIEGE = 3


def test_a_named_enum_prints_as_its_value() -> None:
    assert str(Cover.WOODS) == "woods or soft cover"
    assert f"the target is in {Cover.OPEN}" == "the target is in open"
    assert str(Cover.SIEGE) == "3"
    assert repr(Cover.OPEN) == "<Cover.OPEN: 'open'>"


def test_members_hash_by_identity_and_stay_usable_as_keys() -> None:
    assert hash(Cover.WOODS) == object.__hash__(Cover.WOODS)
    assert {Cover.OPEN: 1, Cover.WOODS: 2}[Cover.WOODS] == 2
    assert Cover("open") is Cover.OPEN
    assert len({Cover.OPEN, Cover.OPEN, Cover.SIEGE}) == 2
