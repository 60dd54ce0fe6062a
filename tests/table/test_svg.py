"""The table drawn as SVG: structure (elements, ids, classes), not pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from smoothbore.core import InvalidValueError
from smoothbore.table import (
    CommanderMark,
    Feature,
    Footprint,
    Formation,
    MoveTrace,
    ShotTrace,
    Table,
    draw,
    write_svg,
)
from smoothbore.table.svg import WIDTH

NS = {"svg": "http://www.w3.org/2000/svg"}


def battle() -> Table:
    features = (
        Feature.rectangle("wood 1", "dense woods", 30, 20, 10, 6),
        Feature.rectangle("hill", "gentle hill", 10, 30, 8, 6),
        Feature("fence", "fence", line=((0, 12), (20, 12))),
        Feature("river", "river", line=((40, 0), (40, 40)), width=4),
        Feature.rectangle("farm", "building", 50, 10, 2, 4, strength=8),
    )
    units = (
        Footprint("1st Foot", 10, 5, 0, 4, 2, 1, side="British", label="1st"),
        Footprint("Rangers", 20, 5, 0, 3, 2, 1, Formation.SKIRMISH, side="British"),
        Footprint("Militia", 10, 35, 180, 2, 2, 1, side="American"),
    )
    return Table(60, 40, features=features, footprints=units,
                 commanders=(CommanderMark("Howe", attached_to="1st Foot"),
                             CommanderMark("Greene", 5, 38, side="American")),
                 traces=(MoveTrace("1st Foot", ((10, 2), (10, 5))),
                         ShotTrace("1st Foot", "Militia", hit=True),
                         ShotTrace("Rangers", "Militia", hit=False),
                         ShotTrace("Gone", "Militia")))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def test_the_table_and_its_size() -> None:
    root = parse(draw(battle()))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # the whole picture 960 px wide, a notebook cell; the table spans 0 0 60 40 of the view
    # box, the title block above it (negative y), the margin to its right
    assert root.get("width") == str(WIDTH)
    x, y, width, height = map(float, root.get("viewBox", "").split())
    assert x < 0 and y < 0 and width > 60 + 0.25 * 60 and height > 40
    table = root.find("svg:rect[@id='table']", NS)
    assert table is not None
    assert (table.get("x"), table.get("y"), table.get("width"), table.get("height")) == (
        "0", "0", "60", "40")
    assert float(root.get("height", "0")) == pytest.approx(height * WIDTH / width, abs=0.01)


def test_terrain_one_element_each_with_its_kind() -> None:
    root = parse(draw(battle()))
    terrain = root.find("svg:g[@id='terrain']", NS)
    assert terrain is not None and len(terrain) == 5
    kinds = {e.get("data-id"): classes(e) for e in terrain}
    assert kinds["wood 1"] == {"terrain", "dense-woods"}
    assert kinds["fence"] == {"terrain", "fence"}
    # ids are XML-safe; the raw id is kept
    assert terrain.find("*[@data-id='wood 1']").get("id") == "terrain-wood_1"  # type: ignore[union-attr]
    assert terrain.find("svg:polyline", NS).get("data-id") == "fence"  # type: ignore[union-attr]
    # the hill is drawn first, under the rest
    assert terrain[0].get("data-id") == "hill"
    title = terrain.find("*[@data-id='farm']/svg:title", NS)
    assert title is not None and "8 strength points" in (title.text or "")


def test_units_with_bases_front_facing_and_markers() -> None:
    root = parse(draw(battle(), markers={"Militia": ["shaken", "2 DRP"]}))
    units = root.find("svg:g[@id='units']", NS)
    assert units is not None and len(units) == 3
    first = units[0]
    assert first.get("id") == "unit-1st_Foot" and classes(first) == {"unit", "side-0"}
    assert len(first.findall("svg:polygon[@class='base']", NS)) == 4
    assert len(first.findall("svg:line[@class='front']", NS)) == 1
    assert len(first.findall("svg:polygon[@class='facing']", NS)) == 1
    assert label_of(root, "1st Foot").text == "1st"
    assert len(units[1].findall("svg:polygon[@class='base']", NS)) == 3
    militia = units[2]
    assert classes(militia) == {"unit", "side-1"}
    status = label_of(root, "Militia").find("svg:tspan", NS)
    assert status is not None and classes(status) == {"status", "marker"}
    assert status.text == "shaken, 2 DRP"
    assert label_of(root, "1st Foot").find("svg:tspan", NS) is None


def label_of(root: ET.Element, unit_id: str) -> ET.Element:
    label = root.find(f"svg:g[@id='unit-labels']/svg:text[@data-id='{unit_id}']", NS)
    assert label is not None
    return label


def test_a_units_front_is_drawn_where_it_faces() -> None:
    root = parse(draw(battle()))
    front = root.find("svg:g[@id='units']/svg:g[@data-id='Militia']/svg:line", NS)
    assert front is not None
    # Militia faces down the table: its front edge is y = 34.5, drawn at 40 - 34.5 = 5.5
    assert (front.get("y1"), front.get("y2")) == ("5.5", "5.5")


def test_commanders_and_traces() -> None:
    root = parse(draw(battle()))
    marks = root.findall("svg:g[@id='commanders']/svg:circle", NS)
    assert [m.get("id") for m in marks] == ["commander-Howe", "commander-Greene"]
    assert classes(marks[0]) == {"commander", "attached"}
    assert (marks[0].get("cx"), marks[0].get("cy")) == ("10", "35")  # with the 1st Foot
    traces = root.find("svg:g[@id='traces']", NS)
    assert traces is not None
    assert len(traces.findall("svg:polyline[@class='move']", NS)) == 1
    shots = traces.findall("svg:line", NS)
    assert [classes(s) for s in shots] == [{"shot", "hit"}, {"shot", "miss"}]  # "Gone" left out


def test_arcs_on_request() -> None:
    root = parse(draw(battle(), arcs={"1st Foot": 45.0}))
    arcs = root.findall("svg:g[@id='arcs']/svg:path", NS)
    assert len(arcs) == 1 and arcs[0].get("data-id") == "1st Foot"
    assert root.find("svg:g[@id='arcs']", NS) is not None
    assert parse(draw(battle())).find("svg:g[@id='arcs']", NS) is None


def test_clashing_ids_stay_unique() -> None:
    units = (Footprint("a b", 10, 10, side="x"), Footprint("a_b", 20, 10, side="x"))
    root = parse(draw(Table(40, 40, footprints=units)))
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    assert "unit-a_b" in ids and "unit-a_b-2" in ids


def test_millimetres_and_scale() -> None:
    metric = battle().in_measure("mm")
    root = parse(draw(metric))
    table = root.find("svg:rect[@id='table']", NS)
    assert table is not None and (table.get("width"), table.get("height")) == ("1524", "1016")
    assert root.get("width") == str(WIDTH)  # the same picture, in millimetres
    # the grid: 100 mm squares (15 lines across, 10 down); in inches 6" squares (9 and 6)
    assert len(root.findall("svg:g[@id='grid']/svg:line", NS)) == 15 + 10
    assert len(parse(draw(battle())).findall("svg:g[@id='grid']/svg:line", NS)) == 9 + 6
    view_width = float(parse(draw(battle())).get("viewBox", "").split()[2])
    assert float(parse(draw(battle(), scale=5)).get("width", "")) == pytest.approx(
        view_width * 5, abs=0.01)
    with pytest.raises(InvalidValueError):
        draw(battle(), scale=0)


def test_notebooks_and_files(tmp_path: Path) -> None:
    table = battle()
    assert table._repr_svg_() == draw(table)
    path = write_svg(table, tmp_path / "table.svg", markers={"Militia": ["routing"]})
    text = path.read_text(encoding="utf-8")
    assert label_of(parse(text), "Militia")[0].text == "routing"


def test_a_crowded_table_names_units_by_number_rather_than_cover_them() -> None:
    """Where there is no room beside a unit for its name, a number goes on the unit and the
    name in the margin: no label ever covers a unit (issue 31)."""
    from shapely.geometry import Polygon as Shape
    from shapely.geometry import box as rect

    units = tuple(Footprint(f"u{i}", 1.2 + (i % 10) * 2.15, 1 + (i // 10) * 2, 0, 2, 1, 1,
                            side="British" if i % 2 else "American", label=f"Regiment {i}")
                  for i in range(50))
    table = Table(22, 10, footprints=units)
    root = parse(draw(table))
    tags = root.findall("svg:g[@id='tags']/svg:text", NS)
    labels = root.findall("svg:g[@id='unit-labels']/svg:text", NS)
    assert tags and len(tags) + len(labels) == 50
    for text in labels:
        x, y, w, h = map(float, text.get("data-box", "").split())
        label = rect(x, table.depth - y - h, x + w, table.depth - y)
        assert all(label.intersection(Shape(f.corners)).area == 0 for f in units)
    listed = [" ".join(t.itertext()).split() for t in root.findall(
        "svg:g[@id='panel']/svg:text[@class='tagged']", NS)]
    assert [int(t.text or 0) for t in tags] == list(range(1, len(tags) + 1))
    names = {f.unit_id: f.label for f in units}
    assert [" ".join(words) for words in listed] == [names[t.get("data-id")] for t in tags]
