"""Hypothesis strategies shared by the core tests."""

from __future__ import annotations

from hypothesis import strategies as st

from smoothbore.core import AVERAGE_DIE, D3, D6, D10, D12, Die, PoolCheck, TotalCheck

dice = st.sampled_from([D3, D6, D10, D12, AVERAGE_DIE, Die((0, 1, 2, 3), "d4-1")]) | st.lists(
    st.integers(-3, 9), min_size=1, max_size=7
).map(lambda faces: Die(tuple(faces), ""))

faces_sets = st.frozensets(st.integers(0, 13), max_size=3)


@st.composite
def pools(draw: st.DrawFn) -> PoolCheck:
    """Any pool of up to 8 dice with any need (in range or not) and naturals."""
    auto_pass = draw(faces_sets)
    auto_fail = draw(faces_sets) - auto_pass
    return PoolCheck(
        draw(st.integers(0, 8)),
        draw(st.integers(-3, 16)),
        draw(dice),
        draw(st.booleans()),
        auto_pass,
        auto_fail,
        draw(st.booleans()),
    )


@st.composite
def totals(draw: st.DrawFn) -> TotalCheck:
    """A total of up to four dice plus a modifier."""
    return TotalCheck(tuple(draw(st.lists(dice, min_size=1, max_size=4))), draw(st.integers(-5, 5)))
