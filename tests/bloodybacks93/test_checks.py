"""The private FastPool (Bloodybacks 9.3 d12 hands, tests, shooting and melee rolls):
the same exact distribution as the core pool, and a draw that is exact face by face."""

from __future__ import annotations

import pytest

from smoothbore.bloodybacks93._checks import FastPool
from smoothbore.core import D12, PoolCheck, SamplingDice

from .oracle import pool


@pytest.mark.parametrize(("count", "need", "naturals"), [(3, 6, True), (2, 13, True),
                                                         (3, 0, False), (0, 5, True)])
def test_draw_over_every_pick_is_the_product_of_faces(count: int, need: int,
                                                      naturals: bool) -> None:
    """Morale: three d12 (and any pool): drawing with every value of the single pick gives
    each combination of faces once, so the draw is exact."""
    natural = {"auto_pass": frozenset({1}), "auto_fail": frozenset({12})} if naturals else {}
    check = FastPool(count, need, D12, **natural)  # type: ignore[arg-type]
    counts: dict[int, int] = {}
    seen = set()
    for value in range(12**count):
        successes, faces = check.draw(lambda n, v=value: v % n if n == 12**count else 0)
        counts[successes] = counts.get(successes, 0) + 1
        seen.add(faces)
    assert len(seen) == 12**count
    expected = pool(count, need, naturals)
    assert {k: v / 12**count for k, v in counts.items()} == {k: float(p) for k, p in
                                                              expected.items()}
    core = PoolCheck(count, need, D12, **natural)  # type: ignore[arg-type]
    assert check.distribution() == core.distribution()
    assert check.describe() == core.describe()


def test_large_pools_pick_die_by_die() -> None:
    """Shooting: pools too big for one pick roll each die."""
    check = FastPool(10, 6, D12)
    dice = SamplingDice(4)
    successes = dice.roll(check, reason="test", rule="Bloodybacks 9.3, Shooting")
    assert len(dice.records[0].faces) == 10
    assert successes == sum(1 for f in dice.records[0].faces if f <= 6)


@pytest.mark.parametrize("count", [4, 5, 7, 8])
def test_chunked_draws_read_the_digits(count: int) -> None:
    """Resolve melee; Determine impetus: larger pools read their faces as the digits of one
    pick, chunk by chunk, exactly as die-by-die digits would give them."""
    check = FastPool(count, 5, D12, auto_pass=frozenset({1}), auto_fail=frozenset({12}))
    for value in (0, 1, 11, 12, 1727, 1728, 12**count - 1, 12**count // 3):
        successes, faces = check.draw(lambda n, v=value: v)
        digits = [(value // 12**i) % 12 for i in range(count)]
        assert faces == tuple(d + 1 for d in digits)
        assert successes == sum(1 for f in faces if f != 12 and (f <= 5 or f == 1))
