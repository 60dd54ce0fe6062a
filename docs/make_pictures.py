"""Draw the pictures the docs show: for each rule book the battle map of its default
battle at its end (seed 1, random legal actions), as docs/images/map-<book>.svg.

Run from the repository's root after a change to the maps or the books:
``python docs/make_pictures.py``. The pictures are committed, so the docs build draws
nothing."""

from __future__ import annotations

from pathlib import Path

from smoothbore.battle import play, random_policy
from smoothbore.rulesets import get_ruleset
from smoothbore.views.maps import turn_map, turns_of

BOOKS = ("bloodybacks93", "will_awi", "mckie_acw", "boltaction_acw")
SEED = 1
HERE = Path(__file__).resolve().parent / "images"


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for book in BOOKS:
        ruleset = get_ruleset(book)
        assert ruleset.turn is not None and ruleset.example is not None
        played = play(ruleset.turn, ruleset.example(SEED), random_policy(SEED))
        last = turns_of(played, ruleset.turn)[-1]
        svg = turn_map(last, ruleset, outcome=played.outcome)
        path = HERE / f"map-{book}.svg"
        path.write_text(svg + "\n", encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
