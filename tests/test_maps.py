"""The battle map a wargamer reads (issue 31): sides in their book's colours with a legend,
a title block, status in the book's terms with a key, labels clear of every unit and of
each other, terrain named on the map, command radii, this turn's moves, shots and charges,
the units gone with why; and the picture as Chromium draws it is not blank. Structure, not
pixels, except the one rendering test."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest
from shapely.geometry import Polygon, box

from smoothbore.battle import Played, play, random_policy
from smoothbore.rulesets import get_ruleset
from smoothbore.table import table_of
from smoothbore.views.maps import battle_map, status_marks, turns_of

NS = {"svg": "http://www.w3.org/2000/svg"}
BOOKS = ("bloodybacks93", "will_awi", "mckie_acw", "boltaction_acw")


@cache
def played(book: str, seed: int = 1) -> Played[Any, Any]:
    ruleset = get_ruleset(book)
    assert ruleset.turn is not None and ruleset.example is not None
    return play(ruleset.turn, ruleset.example(seed), random_policy(seed))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def label_boxes(root: ET.Element, depth: float) -> list[tuple[str, Polygon]]:
    """Every placed label's box, in the table's coordinates (y up)."""
    found = []
    for group in ("unit-labels", "commander-labels", "terrain-labels"):
        for text in root.findall(f"svg:g[@id='{group}']/svg:text", NS):
            x, y, w, h = map(float, text.get("data-box", "").split())
            found.append((f"{group}:{text.get('data-id')}",
                          box(x, depth - y - h, x + w, depth - y)))
    return found


def words(element: ET.Element) -> str:
    """A text element's words, its wrapped lines (tspans) joined by spaces."""
    return " ".join(part.strip() for part in element.itertext() if part.strip())


def unit_label(root: ET.Element, unit_id: str) -> ET.Element:
    label = root.find(f"svg:g[@id='unit-labels']/svg:text[@data-id='{unit_id}']", NS)
    assert label is not None
    return label


def test_sides_in_their_books_colours_with_a_legend() -> None:
    """Issue 31: colours went by side order (the British blue, the Continentals red, in
    McKie the Confederates blue). Now each side in the colour its book declares."""
    for book, side, colour in (("will_awi", "British", "#c0282d"),
                               ("will_awi", "American", "#2f5aa8"),
                               ("mckie_acw", "Confederate", "#8a8d91"),
                               ("mckie_acw", "Union", "#2b4c9b"),
                               ("boltaction_acw", "union", "#2b4c9b"),
                               ("bloodybacks93", "british", "#c0282d")):
        start = played(book).start
        root = parse(battle_map(start))
        bases = root.findall(f"svg:g[@id='units']/svg:g[@data-side='{side}']"
                             "/svg:polygon[@class='base']", NS)
        assert bases and {b.get("fill") for b in bases} == {colour}, (book, side)
        swatch = root.find(f"svg:g[@id='panel']/svg:rect[@data-side='{side}']", NS)
        assert swatch is not None and swatch.get("fill") == colour
        texts = [words(t) for t in root.findall("svg:g[@id='panel']/svg:text", NS)]
        units = sum(1 for u in start.units if u.side == side)
        assert f"{side[:1].upper()}{side[1:]} ({units} on the table)" in texts


def test_title_block_names_the_battle_turn_phase_and_outcome() -> None:
    will = played("will_awi")
    start = parse(battle_map(will.start))
    lines = [t.text for t in start.findall("svg:g[@id='heading']/svg:text", NS)]
    assert lines == ["Hobkirk's Hill (Will's AWI rules)",
                     f"Turn 1 of 6, phase {will.start.phase}: morale"]
    end = parse(battle_map(will.end))
    lines = [t.text for t in end.findall("svg:g[@id='heading']/svg:text", NS)]
    assert lines[1] == "After turn 6, the last"
    assert will.outcome is not None and will.outcome.winner == "American"
    assert lines[2] == "Over: American wins: the scenario's 6 turns are played"


@pytest.mark.parametrize("book", BOOKS)
def test_no_label_covers_a_unit_or_another_label(book: str) -> None:
    """Issue 31: labels overlapped units and each other. Every unit's, commander's and
    terrain feature's name is placed clear of every footprint and of every other label, at
    the start and at the end of a battle."""
    for state in (played(book).start, played(book).end):
        table = table_of(state)
        assert table is not None
        root = parse(battle_map(state))
        boxes = label_boxes(root, table.depth)
        named = {name.split(":", 1)[1] for name, _ in boxes}
        assert set(table.units) | {m.commander_id for m in table.commanders} | {
            f.feature_id for f in table.features} <= named
        for name, label in boxes:
            for footprint in table.footprints:
                assert label.intersection(Polygon(footprint.corners)).area == 0, (
                    name, footprint.unit_id)
        for i, (name, label) in enumerate(boxes):
            for other, second in boxes[i + 1:]:
                assert label.intersection(second).area == pytest.approx(0, abs=1e-9), (
                    name, other)


def test_terrain_named_on_the_map() -> None:
    """Issue 31: terrain names were hover tooltips only, lost in a PNG or print."""
    state = played("mckie_acw").start
    root = parse(battle_map(state))
    texts = {t.get("data-id"): t.text
             for t in root.findall("svg:g[@id='terrain-labels']/svg:text", NS)}
    assert texts["chickamauga-creek"] == "Chickamauga Creek"
    assert texts["snodgrass-hill"] == "Snodgrass Hill"
    assert texts["kelly-fence"] == "Kelly's fence"
    # each kind in the key, with its fill
    keyed = [words(t) for t in root.findall(
        "svg:g[@id='panel']/svg:text[@class='key-terrain']", NS)]
    assert sorted(keyed) == sorted({f.kind.value for f in table_of(state).features})  # type: ignore[union-attr]


def test_status_in_the_books_terms_with_a_key() -> None:
    """Issue 31: shaken, routing, pinned, disrupted and strength were never drawn."""
    will = played("will_awi").start
    shaken = type(will.units[0].status)("shaken")
    hurt = attrs.evolve(will.units[0], strength=3, status=shaken)
    state = attrs.evolve(will, units=(hurt, *will.units[1:]))
    assert status_marks(hurt) == (("3/5 SP", "shaken"), "shaken")
    root = parse(battle_map(state))
    status = unit_label(root, hurt.id).find("svg:tspan", NS)
    assert status is not None and status.text == "3/5 SP, shaken"
    unit = root.find(f"svg:g[@id='units']/svg:g[@data-id='{hurt.id}']", NS)
    assert unit is not None and "shaken" in classes(unit)
    key = {t.text for t in root.findall("svg:g[@id='panel']/svg:text[@class='status-code']",
                                        NS)}
    assert key == {"SP", "□"}

    bolt = played("boltaction_acw").start
    pinned = attrs.evolve(bolt.units[0], pins=3, routing=True)
    state = attrs.evolve(bolt, units=(pinned, *bolt.units[1:]))
    root = parse(battle_map(state))
    assert unit_label(root, pinned.id)[0].text == "P3, routing"
    unit = root.find(f"svg:g[@id='units']/svg:g[@data-id='{pinned.id}']", NS)
    assert unit is not None and "routing" in classes(unit)
    assert unit.find("svg:polygon[@class='rout']", NS) is not None  # hatched

    bb = played("bloodybacks93").start
    disrupted = attrs.evolve(bb.units[0], disruption=2, stamina_losses=1)
    assert status_marks(disrupted) == (("D2", "SL1"), "shaken")


def test_commanders_with_their_command_radius_where_the_book_has_one() -> None:
    """Bloodybacks' Command Radius: 24", 12" for a commander attached to a unit."""
    start = played("bloodybacks93").start
    root = parse(battle_map(start))
    radii = {c.get("data-id"): c.get("r")
             for c in root.findall("svg:g[@id='command-radii']/svg:circle", NS)}
    assert radii == {"cb": "24", "ca": "12"}  # Webster alone, Stevens with the 1st Maryland
    # Will's commanders have none
    assert parse(battle_map(played("will_awi").start)).find(
        "svg:g[@id='command-radii']", NS) is None


def test_this_turns_moves_as_arrows_and_shots_as_lines() -> None:
    game = played("bloodybacks93")
    ruleset = get_ruleset("bloodybacks93")
    turns = turns_of(game, ruleset.turn)
    assert [t.turn for t in turns] == sorted({s.turn for s in game.steps})
    assert turns[-1].after == game.end and turns[0].before == game.start
    for turn in turns:
        root = parse(battle_map(turn.after, steps=turn.steps, before=turn.before))
        table, then = table_of(turn.after), table_of(turn.before)
        assert table is not None and then is not None
        moved = {u for u in table.units if then.units[u].centre != table.units[u].centre}
        arrows = root.findall("svg:g[@id='traces']/svg:polyline[@class='move']", NS)
        assert {a.get("data-id") for a in arrows} == moved
        shots = {(e.subject, e.fact("target")) for s in turn.steps for e in s.events
                 if e.kind == "shooting"}
        names = {u.name: u.id for u in turn.after.units}
        drawn = {(line.get("data-firer"), line.get("data-target"))
                 for line in root.findall("svg:g[@id='traces']/svg:line", NS)
                 if "shot" in classes(line)}
        assert {(firer, names.get(str(target), target)) for firer, target in shots} <= drawn
    assert any(turn_moved(t) for t in turns)  # the test saw moves
    assert any(e.kind == "shooting" for s in game.steps for e in s.events)  # and shots


def turn_moved(turn: Any) -> bool:
    table, then = table_of(turn.after), table_of(turn.before)
    assert table is not None and then is not None
    return any(then.units[u].centre != table.units[u].centre for u in table.units)


def test_units_gone_from_the_table_listed_with_why() -> None:
    """Issue 31: units that left the table vanished without a word."""
    start = played("bloodybacks93").start
    gone = attrs.evolve(start.units[1], destroyed=True)
    table = table_of(start)
    assert table is not None
    extra = attrs.evolve(start.extra, table=table.removed(gone.id))
    state = attrs.evolve(start, units=(start.units[0], gone, *start.units[2:]), extra=extra)
    root = parse(battle_map(state))
    rows = [words(t) for t in root.findall("svg:g[@id='panel']/svg:text[@class='gone']", NS)]
    assert rows == ["Hessian Grenadiers: destroyed"]
    assert root.find(f"svg:g[@id='units']/svg:g[@data-id='{gone.id}']", NS) is None


def test_a_battle_with_no_table_is_refused_by_name() -> None:
    from smoothbore.core.errors import InvalidValueError

    state = get_ruleset("will_awi").battle("default-no-table")(1)
    with pytest.raises(InvalidValueError, match="state=.*no table to draw"):
        battle_map(state)


def _png_colours(path: Path) -> int:
    image = pytest.importorskip("PIL.Image")
    with image.open(path) as picture:
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
    return len(colours or ())


@pytest.mark.parametrize("book", BOOKS)
def test_chromium_draws_the_map(book: str, tmp_path: Path) -> None:
    """The map as a browser draws it (headless Chromium): not blank, and the sides'
    colours on it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if chromium is None:
        pytest.skip("no Chromium installed to render the SVG (apt-get install chromium)")
    svg, png = tmp_path / "map.svg", tmp_path / "map.png"
    svg.write_text(battle_map(played(book).end), encoding="utf-8")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={png}", "--window-size=1000,800", svg.as_uri()],
                   capture_output=True, timeout=120, check=False)
    assert png.exists(), "Chromium wrote no screenshot"
    assert _png_colours(png) > 50  # a blank page has one colour
    image = pytest.importorskip("PIL.Image")
    with image.open(png) as picture:
        pixels = {rgb for _, rgb in picture.convert("RGB").getcolors(maxcolors=1 << 20) or ()}
    ruleset = get_ruleset(book)
    for colour in {c for side, c in ruleset.colours.items()
                   if side in {s.lower() for s in played(book).start.sides}}:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in pixels, colour


def test_a_played_battle_steps_through_its_turns_with_a_slider() -> None:
    """Issue 31: a notebook showed only the end. ``Played._repr_html_`` now holds a slider
    over the turns, each turn's map and report, the last turn shown first."""
    from smoothbore.views.maps import played_view

    game = played("will_awi")
    text = game._repr_html_()
    assert played_view(game, summary=False) in text
    turns = sorted({s.turn for s in game.steps})
    assert f"<input type='range' class='sb-slider' min='0' max='{len(turns) - 1}'" in text
    panes = text.split("<div class='sb-turn'")[1:]
    assert [int(p.split("data-turn='")[1].split("'")[0]) for p in panes] == turns
    hidden = [p.split(">", 1)[0].endswith("style='display:none'") for p in panes]
    assert hidden == [True] * (len(turns) - 1) + [False]
    assert all(p.count("<svg") == 1 for p in panes)
    assert "End of turn 1 of 6" in panes[0] and "Over: American wins" in panes[-1]
    assert "nothing done" in panes[0] and "end phase" not in text.split("<ol>")[0]
