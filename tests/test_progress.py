"""Progress by default (issue 31): ``simulate`` shows a ``tqdm.auto`` bar (a widget in a
notebook, stderr on a terminal) once its work has taken a second; the results are the same
with or without it."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from smoothbore.core.errors import InvalidValueError
from smoothbore.simulation import simulate

TOY = "tests.toy_ruleset:RULESET"


class Recorder:
    made: ClassVar[list[Recorder]] = []

    def __init__(self, **options: Any) -> None:
        self.options, self.n, self.closed = options, 0, False
        Recorder.made.append(self)

    def update(self, count: int) -> None:
        self.n += count

    def close(self) -> None:
        self.closed = True


def test_simulate_shows_a_tqdm_auto_bar_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import tqdm.auto

    Recorder.made.clear()
    monkeypatch.setattr(tqdm.auto, "tqdm", Recorder)
    shown = simulate(TOY, runs=12, seed=3, batch_size=5)
    (bar,) = Recorder.made
    assert bar.options["total"] == 12 and bar.options["delay"] == 1.0  # after a second
    assert bar.options["disable"] is None  # none when stderr is not a terminal
    assert bar.n == 12 and bar.closed
    Recorder.made.clear()
    assert simulate(TOY, runs=12, seed=3, batch_size=5, progress=None) == shown
    assert Recorder.made == []


def test_progress_must_be_auto_none_or_a_function() -> None:
    with pytest.raises(InvalidValueError, match="progress='bar' is invalid: allowed is 'auto'"):
        simulate(TOY, runs=2, progress="bar")
