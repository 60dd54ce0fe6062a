"""Writes the hostile catalogue (``hostile/*.toml``) from ``valid.toml``, each file spoiling
it in one way, with a header saying what the refusal must name: ``# field:`` (a part of the
field as written), ``# allowed:`` (a part of what is allowed) and ``# line:`` (the line the
fault is on; - when the file has none). Run it again after changing ``valid.toml``:
``python tests/scenario/make_hostile.py``."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
BASE = (HERE / "valid.toml").read_text("utf-8").split("\n", 1)[1]  # without its comment


def sub(old: str, new: str, count: int = 1) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, count)


def second_side_removed() -> str:
    head, _, _ = BASE.partition('[[side]]\nname = "american"')
    return head


BOWTIE = 'outline = [[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [0.0, 10.0]]'
B1 = 'id = "b1"\nname = "33rd Foot"\nquality = 4'

# name: (text, needle whose line the fault is on or None, field part, allowed part)
CASES: dict[str, tuple[str, str | None, str, str]] = {
    "unknown-top-key": (sub('date = "1780"', 'tittle = "1780"'), "tittle", "tittle",
                        "did you mean 'title'"),
    "unknown-unit-key": (sub(B1, B1.replace("quality", "qualty")), "qualty",
                         'unit["b1"].qualty', "did you mean 'quality'"),
    "misspelt-troops": (sub('troops = "continental"', 'troops = "continentl"'), "continentl",
                        'unit["a1"].troops', "did you mean 'continental'"),
    "misspelt-formation": (sub(B1, B1 + '\nformation = "colum"'), "colum",
                           'unit["b1"].formation', "did you mean 'column'"),
    "misspelt-terrain-kind": (sub('kind = "dense woods"', 'kind = "dense wods"'), "dense wods",
                              'terrain["wood"].kind', "did you mean 'dense woods'"),
    "misspelt-home-edge": (sub('home = "far edge"', 'home = "far egde"'), "far egde",
                           'side["american"].home', "did you mean 'far edge'"),
    "misspelt-book": (sub('book = "bloodybacks93"', 'book = "bloodybaks93"'), "bloodybaks93",
                      "book", "did you mean 'bloodybacks93'"),
    "misspelt-option": (BASE + '\n', None, "", ""),  # replaced below
    "wrong-type-quality": (sub(B1, B1.replace("= 4", '= "four"')), '"four"',
                           'unit["b1"].quality', "a whole number"),
    "quality-out-of-range": (sub(B1, B1.replace("= 4", "= 9")),
                             "quality = 9", 'unit["b1"].quality', "1"),
    "bool-given-as-number": (sub(B1, B1 + "\nbayonets = 1"), "bayonets", 'unit["b1"].bayonets',
                             "true or false"),
    "enormous-integer": (sub(B1, B1 + "\ndensity = 99999999999999999999999"), "density",
                         'unit["b1"].density', "whole number"),
    "nan-coordinate": (sub("at = [18.0, 8.0]", "at = [nan, 8.0]"), "nan", 'unit["b1"].at',
                       "finite"),
    "infinite-coordinate": (sub("at = [18.0, 8.0]", "at = [inf, 8.0]"), "inf",
                            'unit["b1"].at', "finite"),
    "enormous-coordinate": (sub("at = [18.0, 8.0]", "at = [1e300, 8.0]"), "1e300",
                            'unit["b1"].at', "within"),
    "coordinate-as-text": (sub("at = [18.0, 8.0]", 'at = "here"'), '"here"', 'unit["b1"].at',
                           "[x, y]"),
    "three-coordinates": (sub("at = [18.0, 8.0]", "at = [18.0, 8.0, 1.0]"), "1.0]",
                          'unit["b1"].at', "[x, y]"),
    "facing-out-of-range": (sub("facing = 0.0", "facing = 720.0"), "720.0",
                            'unit["b1"].facing', "degrees"),
    "facing-nan": (sub("facing = 0.0", "facing = nan"), "facing = nan", 'unit["b1"].facing',
                   "finite"),
    "unit-off-the-table": (sub("at = [18.0, 8.0]", "at = [47.5, 8.0]"),
                           '[[side.unit]]\nid = "b1"',
                           'unit["b1"]', "on the 48 x 36 inches table"),
    "units-on-each-other": (sub("at = [32.0, 8.0]", "at = [18.5, 8.0]"),
                            '[[side.unit]]\nid = "b2"', 'unit["b2"]', "clear of 'b1'"),
    "unit-in-impassable-ground": (sub('[[table.terrain]]\nid = "wood"',
                                      '[[table.terrain]]\nid = "cliff"\nkind = "impassable '
                                      'ground"\nrectangle = [18.0, 8.0, 6.0, 4.0]\n\n'
                                      '[[table.terrain]]\nid = "wood"'), '[[side.unit]]\nid = "b1"',
                                  'unit["b1"]', "impassable ground"),
    "self-intersecting-terrain": (sub("rectangle = [10.0, 18.0, 8.0, 6.0]", BOWTIE), "outline",
                                  'terrain["wood"].outline', "no crossing sides"),
    "terrain-two-shapes": (sub("rectangle = [10.0, 18.0, 8.0, 6.0]",
                               "rectangle = [10.0, 18.0, 8.0, 6.0]\nline = [[0.0, 0.0], "
                               "[1.0, 1.0]]"), '[[table.terrain]]\nid = "wood"', 'terrain["wood"]',
                           "exactly one of outline, line, rectangle"),
    "terrain-no-shape": (sub("rectangle = [10.0, 18.0, 8.0, 6.0]\n", ""),
                         '[[table.terrain]]\nid = "wood"', 'terrain["wood"]', "exactly one of"),
    "terrain-line-for-an-area": (sub("rectangle = [10.0, 18.0, 8.0, 6.0]",
                                     "line = [[0.0, 0.0], [5.0, 5.0]]"), "line = [[0.0",
                                 'terrain["wood"]', "give its outline"),
    "terrain-two-points-outline": (sub("rectangle = [10.0, 18.0, 8.0, 6.0]",
                                       "outline = [[0.0, 0.0], [5.0, 5.0]]"), "outline",
                                   'terrain["wood"].outline', "3 or more"),
    "terrain-same-id-twice": (sub('id = "mill-stream"', 'id = "wood"'), None,
                              'terrain["wood"].id', "no other feature"),
    "terrain-unknown-key": (sub('kind = "stream"', 'kind = "stream"\ndepth = 3.0'),
                            "depth = 3.0", 'terrain["mill-stream"].depth', "one of"),
    "unit-on-two-sides": (sub('id = "a2"', 'id = "b1"'), 'id = "b1"\nname = "Virginia',
                          'unit["b1"].id', "already on 'british'"),
    "same-side-twice": (sub('name = "american"', 'name = "british"'), None, "name",
                        "no other side"),
    "sides-not-the-books": (sub('name = "american"', 'name = "french"'), None, "", "american"),
    "unknown-book": (sub('book = "bloodybacks93"', 'book = "chess"'), "chess", "book",
                     "bloodybacks93, boltaction_acw"),
    "missing-book": (sub('book = "bloodybacks93"\n', ""), None, "book", "one of"),
    "missing-title": (sub('title = "Two brigades at the mill"\n', ""), None, "title",
                      "title"),
    "missing-side": (second_side_removed(), None, "side", "two sides"),
    "three-sides": (BASE + '\n[[side]]\nname = "french"\n', None, "side", "two sides"),
    "empty-file": ("", None, "book", "a scenario"),
    "only-comments": ("# nothing here\n", None, "book", "a scenario"),
    "not-toml": (sub('title = "Two brigades at the mill"', "title = "), "title = ", "(TOML)",
                 "TOML"),
    "key-twice": (sub('date = "1780"', 'date = "1780"\ndate = "1781"'), 'date = "1781"',
                  "(TOML)", "TOML"),
    "table-width-zero": (sub("width = 48.0", "width = 0.0"), "width = 0.0", "table.width",
                         "from 1"),
    "table-depth-negative": (sub("depth = 36.0", "depth = -36.0"), "depth = -36.0",
                             "table.depth", "from 1"),
    "unknown-measure": (sub('measure = "inches"', 'measure = "furlongs"'), "furlongs",
                        "table.measure", "inches"),
    "commander-rides-with-no-unit": (sub('attached_to = "a1"', 'attached_to = "zz"'),
                                     '[[side.commander]]\nid = "ca"', 'commander["ca"]', ""),
    "turn-limit-zero": (sub("turn_limit = 4", "turn_limit = 0"), "turn_limit",
                        "victory.turn_limit", "from 1"),
    "turn-limit-text": (sub("turn_limit = 4", 'turn_limit = "four"'), "turn_limit",
                        "victory.turn_limit", "whole number"),
    "unknown-victory-key": (sub("turn_limit = 4", "turn_limit = 4\nbrake_point = 50"),
                            "brake_point", "victory.brake_point",
                            "did you mean 'break_point'"),
    "break-point-over-100": (sub("turn_limit = 4", "turn_limit = 4\nbreak_point = 150"),
                             "break_point", "victory.break_point", "from 1 to 100"),
    "sources-not-a-list": (sub('sources = ["invented for the tests"]', 'sources = "a book"'),
                           "sources", "sources", "a list"),
    "unit-without-id": (sub('id = "b2"\n', ""), '[[side.unit]]\nname = "23rd Foot"',
                        'unit["23rd Foot"].id', "needs its id"),
    "side-not-a-section": ('book = "bloodybacks93"\ntitle = "x"\nside = 3\n', "side = 3",
                           "side", "[[side]] sections"),
    "deep-nesting": ("book = \"bloodybacks93\"\nx = " + "[" * 200 + "]" * 200 + "\n", None,
                     "(the file)", "nesting"),
    "many-faults-at-once": (sub(B1, B1.replace("= 4", '= "four"')).replace(
        'troops = "continental"', 'troops = "continentl"').replace("width = 48.0",
                                                                  "width = 0.0"),
        '"four"', 'unit["b1"].quality', "whole number"),
}
CASES["misspelt-option"] = (sub("[victory]", "[options]\ncavalry_experimant = true\n\n"
                                 "[victory]"), "cavalry_experimant",
                            "options.cavalry_experimant", "did you mean 'cavalry_experiment'")


def main() -> None:
    out = HERE / "hostile"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.toml"):
        old.unlink()
    for name, (text, needle, field, allowed) in CASES.items():
        head = f"# field: {field}\n# allowed: {allowed}\n# line: LINE\n"
        body = head + text
        line = "-"
        if needle is not None:
            at = body.index(needle, len(head))
            line = str(body.count("\n", 0, at) + 1)
        (out / f"{name}.toml").write_text(re.sub("LINE", line, body, count=1), "utf-8")
    print(len(CASES), "files")


if __name__ == "__main__":
    main()
