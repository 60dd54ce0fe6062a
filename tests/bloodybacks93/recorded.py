"""Battles of ``simulate bloodybacks93 --seed 1`` kept as records (``recorded_runs.json``),
for the tests that need a battle that came to pass in random play (issue 27: the riflemen of
run 722 routing off the far edge; runs losing units every way).

Random play chooses among the candidates of a step (``Engine.choose_legal``), so a change
that makes the candidates cheaper, and leaves the legal sets as they were, plays another
battle from the same seed (issue 28). The runs are kept as their actions instead, with the
digest of every state they gave, and replayed: a change in play fails the replay.

Made with the code of commit d79a8b9 (the runs of ``play_run("bloodybacks93", index,
seed=1)``), by ``python -m tests.bloodybacks93.recorded`` run on
that code. Re-digested (the same actions, the same events) when the book moved to the table
seam (issue 29): ``keep_in_step`` keeps a commander's old point in his mark when he joins a
unit (a point the table ignores while he is with it), where the book's own keeper set it to
0, 0."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import attrs

from smoothbore.battle import BattleRecord, Played
from smoothbore.bloodybacks93 import TURN

RUNS = Path(__file__).with_name("recorded_runs.json")
INDEXES = (722, 0, 10, 13, 5, 36, 37, 68, 69, 87, 99)


@functools.cache
def _records() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RUNS.read_text(encoding="utf-8"))
    return data


def recorded_run(index: int, steps: int | None = None) -> Played[Any, Any]:
    """Run ``index`` of ``simulate bloodybacks93 --seed 1`` (its battle ``default``), replayed
    from its record (its first ``steps`` steps, or all): every step's state checked against
    the digest recorded."""
    record = BattleRecord.from_json(json.dumps(_records()[str(index)]), TURN)
    if steps is not None:
        assert record.digests is not None
        record = attrs.evolve(record, actions=record.actions[:steps],
                              digests=record.digests[:steps])
    return record.replay(TURN)


def main() -> None:  # pragma: no cover - run by hand on the code the runs were made with
    from smoothbore.simulation import play_run

    runs = {}
    for index in INDEXES:
        played = play_run("bloodybacks93", index, seed=1)
        text = BattleRecord.of("bloodybacks93", played, with_events=False).to_json()
        runs[str(index)] = json.loads(text)
    RUNS.write_text(json.dumps(runs, sort_keys=True, separators=(",", ":")) + "\n",
                    encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
