"""Show that a change leaves what ``legal_actions`` lists unchanged, run on demand:

    PYTHONPATH=<src> python benchmarks/legal_digest.py RULESET SEEDS [BATTLE ...]

For each embedded table battle (or the BATTLEs named) and seeds 0..SEEDS-1, one line: the
battle, the seed, the number of steps and a digest of the set of legal actions at every step
(sorted by repr) and of every step's narration. The battle is played by a listing policy that
picks by position in the sorted list, so the same legal sets give the same battle. Run it
against two source trees (``PYTHONPATH``) and ``diff`` the outputs: no difference, the same
legal sets and the same play. A speed change that makes candidates cheaper and leaves the
judging to the checks must leave these digests as they were.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from typing import Any

from smoothbore.battle import play
from smoothbore.simulation import resolve_ruleset


def digest(turn: Any, start: Any, seed: int, max_steps: int = 400) -> tuple[int, str]:
    """The number of steps and the digest of one battle played by the listing policy."""
    hashed = hashlib.sha256()
    count = 0

    def policy(state: Any, actions: Sequence[Any]) -> Any:
        nonlocal count
        ordered = sorted(actions, key=repr)
        hashed.update("\n".join(map(repr, ordered)).encode())
        count += 1
        return ordered[(seed * 7919 + count * 31) % len(ordered)]

    played = play(turn, start, policy, max_steps=max_steps)
    for step in played.steps:
        hashed.update("|".join(event.narrate() for event in step.events).encode())
    return len(played.steps), hashed.hexdigest()[:16]


def main(argv: Sequence[str]) -> None:
    name, seeds, only = argv[0], int(argv[1]), set(argv[2:])
    ruleset = resolve_ruleset(name)
    for battle, make in ruleset.battles():
        if battle.endswith("no-table") or (only and battle not in only):
            continue
        for seed in range(seeds):
            steps, code = digest(ruleset.turn, make(seed), seed)
            print(battle, seed, steps, code, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
