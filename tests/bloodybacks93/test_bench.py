"""The Bloodybacks benchmark's charge step (``benchmarks/bench_bloodybacks93.py``, issue 27):
a seed whose battle offers no charge is passed over, not a crash."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from smoothbore.bloodybacks93.actions import Charge

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_bloodybacks93.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bloodybacks93", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_step_odds_passes_over_a_seed_that_offers_no_charge() -> None:
    """Charges and melee: the benchmark times the exact odds of a charge offered in play;
    seed 0's battle ends without one (it used to raise ``InvalidValueError: actions=()``),
    seed 3's offers one, and a range of seeds offering none is skipped (None)."""
    bench = _bench()
    assert bench.charge_offered(0) is None
    seed, state, charge = bench.first_charge(range(4))
    assert seed == 3 and isinstance(charge, Charge) and charge in bench.TURN.legal_actions(state)
    assert bench.step_odds(cold=False, seeds=range(3)) is None
    timed = bench.step_odds(cold=False, seeds=range(4))
    assert timed is not None and timed[1] > 1 and "(seed 3)" in timed[2]
