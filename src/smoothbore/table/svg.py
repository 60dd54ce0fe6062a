"""The table drawn as SVG, as a wargamer reads a battle map: a title block, the table with a
light grid and a scale bar in its own measure, terrain in recognisable fills and named on
the map, each side's units in its colour with their names placed clear of every unit and of
each other and their status under the name, commanders with their command radius, this
turn's moves as arrows and shots and charges as lines, and a margin with the legend, the
key to the status marks and the units no longer on the table with why. Plain
``xml.etree``; no drawing library. ``Table._repr_svg_`` shows it in notebooks;
``write_svg`` writes a file; ``smoothbore.views.maps.battle_map`` draws a battle's state with its
book's colours and terms.

The drawing is in the table's own measure (the table spans ``0 0 width depth`` of the view
box, y flipped so the near edge is at the bottom; the title block, scale bar and margin lie
outside it); ``scale`` sets the pixels per unit of measure (default: the whole picture
``WIDTH`` pixels wide, a notebook cell). Every element has a class (``terrain
dense-woods``, ``unit side-0``, ``move``, ``shot hit``, ``charge``) and the features, units
and commanders carry ids (``terrain-<id>``, ``unit-<id>``, ``commander-<id>``; the raw id in
``data-id``). Each placed label carries its box (``data-box``: x y width height, in the view
box's coordinates) so that a program can check what it covers."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from smoothbore.core.errors import InvalidValueError
from smoothbore.core.validate import check_number

from .footprints import Footprint
from .measure import Measure
from .sight import arc_polygon, line_of_fire
from .tabletop import Table
from .traces import MoveTrace, ShotTrace

__all__ = ["PALETTE", "STYLE", "WIDTH", "draw", "write_svg"]

WIDTH = 960
"""The default width of the whole picture in pixels: a notebook cell."""

PALETTE = ("#3a5ea8", "#b0343a", "#6a6a6a", "#c8a030", "#2e8540", "#7b4fa0")
"""Side colours by order of appearance, for sides the caller gives no colour."""

_GRID = {Measure.INCHES: 6.0, Measure.MILLIMETRES: 100.0, Measure.CENTIMETRES: 10.0}
"""The grid's spacing in each measure (6 inches, 10 cm)."""

_UNIT_WORD = {Measure.INCHES: "inches", Measure.MILLIMETRES: "mm",
              Measure.CENTIMETRES: "cm"}

_CHAR = 0.6
"""A character's width in ems, a little wider than sans-serif's average, so that an
estimated label box holds its text."""

STYLE = """
svg.smoothbore-table { background: #fff; }
text { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; dominant-baseline: central; }
.table { fill: #eef0dc; stroke: #555; }
.grid { stroke: #c9ccb4; fill: none; }
.heading { font-weight: bold; fill: #111; }
.subheading { fill: #333; }
.outcome { font-weight: bold; fill: #7a1010; }
.terrain { stroke: none; }
.terrain.gentle-hill { fill: #dccb94; stroke: #a8925a; }
.terrain.steep-hill { fill: #bfa06a; stroke: #7d6437; }
.terrain.impassable-ground { fill: #777; }
.terrain.river { fill: #7aa7d8; stroke: #4f7fb5; }
.terrain.stream { fill: none; stroke: #5d93cf; }
.terrain.ford { fill: #b7d2ec; stroke: #4f7fb5; stroke-dasharray: 0.5 0.3; }
.terrain.road { fill: #d8c7a0; stroke: #a99268; }
.terrain.bridge { fill: #8b6b47; stroke: #4d3a24; }
.terrain.fence { fill: none; stroke: #7a5a35; }
.terrain.wall { fill: none; stroke: #666; }
.terrain.building { fill: #b05a45; stroke: #333; }
.terrain.fieldwork { fill: #8c7b5a; stroke: #5a4a2a; }
.terrain-label { font-style: italic; fill: #2f3a22; paint-order: stroke;
  stroke: #f4f5ea; stroke-linejoin: round; }
.unit .base { stroke: #111; }
.unit .front { stroke: #fff; }
.unit .facing { fill: #fff; }
.unit.shaken .base { stroke: #e08a00; }
.unit.routing .rout { stroke: none; }
.label, .commander-label { fill: #111; paint-order: stroke; stroke: #fff;
  stroke-linejoin: round; }
.label .status { fill: #a00000; font-weight: bold; }
.tag { fill: #fff; font-weight: bold; paint-order: stroke; stroke: #111;
  stroke-linejoin: round; }
.leader { stroke: #555; fill: none; }
.commander { stroke: #111; }
.commander-label { font-style: italic; }
.radius { fill-opacity: 0.05; stroke-opacity: 0.8; stroke-dasharray: 1 0.6; }
.arc { fill: #ffff99; fill-opacity: 0.25; stroke: #cc9; }
.move { fill: none; stroke: #222; stroke-dasharray: 0.6 0.3; }
.shot { stroke: #c00; }
.shot.miss { stroke-dasharray: 0.3 0.3; stroke: #888; }
.charge { stroke: #111; }
.scale-bar .dark { fill: #333; }
.scale-bar .light { fill: #fff; stroke: #333; }
.panel-title { font-weight: bold; fill: #111; }
.panel text { fill: #111; }
""".strip()

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")

_P = "__sbp__"
"""Stands for the drawing's own prefix in the ids of its patterns, markers and clip, until
the drawing is done: then it becomes ``sb<digest>-``, the digest of the drawing, so that
maps shown together in one page (a notebook, a slider over turns, some hidden) never take
each other's patterns."""

_PATTERNS = {"light woods": "trees-light", "dense woods": "trees-dense",
             "rough ground": "rough", "swamp": "swamp"}


def _scoped(style: str) -> str:
    """The style's rules applied to this drawing's elements only (``svg.smoothbore-table``),
    not to the rest of a page the SVG sits in."""
    out = []
    for line in style.splitlines():
        head, brace, rest = line.partition("{")
        if brace and head.strip() and not head.startswith(" "):
            selectors = ", ".join(
                sel.strip() if sel.strip().startswith("svg.smoothbore-table")
                else f"svg.smoothbore-table {sel.strip()}" for sel in head.split(","))
            out.append(f"{selectors} {{{rest}")
        else:
            out.append(line)
    return "\n".join(out)


def _slug(text: str) -> str:
    return _SAFE.sub("-", text.lower()).strip("-") or "x"


class _Ids:
    """XML ids from the library's ids: unsafe characters replaced, clashes numbered."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, prefix: str, raw: str) -> str:
        base = f"{prefix}-{_SAFE.sub('_', raw)}"
        name, n = base, 2
        while name in self.used:
            name, n = f"{base}-{n}", n + 1
        self.used.add(name)
        return name


class _Page:
    """The drawing's sizes, in the table's measure: the font, the margins, the panel."""

    def __init__(self, table: Table) -> None:
        w, d = table.width, table.depth
        self.panel = max(0.3 * w, 0.45 * d)
        # a 72-column picture up to the tables of the books (6 feet), a fixed size beyond,
        # the picture growing wider instead (see draw's pixels)
        self.font = min((w + self.panel) / 72, table.measure.from_inches(1.4))
        self.pad = self.font
        self.line = table.measure.from_inches(0.08) * max(1.0, w / table.measure.from_inches(48))
        self.small = self.font * 0.85
        self.grid = _GRID[table.measure]
        while w / self.grid > 16:
            self.grid *= 2


def draw(table: Table, *, scale: float | None = None,
         markers: Mapping[str, Iterable[str]] | None = None,
         arcs: Mapping[str, float] | None = None, title: str = "",
         colours: Mapping[str, str] | None = None, heading: Sequence[str] = (),
         key: Sequence[tuple[str, str]] = (), cues: Mapping[str, str] | None = None,
         gone: Sequence[tuple[str, str, str]] = (), radii: Mapping[str, float] | None = None,
         moves: Sequence[tuple[str, Sequence[tuple[float, float]]]] | None = None,
         lines: Sequence[tuple[str, str, str]] = ()) -> str:
    """The table as an SVG document.

    ``markers``: status words to show under a unit's name, by unit id (disrupted 2, pins
    1...); ``cues``: ``"shaken"`` (an orange outline) or ``"routing"`` (hatched) drawn on a
    unit, by id; ``key``: (mark, meaning) pairs for the margin's key; ``colours``: a CSS
    colour by side name (any case; others from ``PALETTE``); ``heading``: the title block's
    lines (battle, date, turn and phase, outcome), ``title`` the first line when no heading
    is given; ``gone``: (side, name, why) of units no longer on the table; ``radii``: a
    commander's command radius by commander id, in the table's measure; ``moves``: (unit id,
    path) arrows to draw (default: the table's move traces); ``lines``: (``"shot"`` or
    ``"charge"``, from unit id, to unit id), drawn with the table's shot traces; ``arcs``:
    units whose arc of fire to draw, with its half-angle; ``scale``: pixels per unit of
    measure (default: the whole picture ``WIDTH`` pixels wide)."""
    if not isinstance(table, Table):
        raise InvalidValueError("table", type(table).__name__,
                                "a Table (table_of(state) is None for a battle with no table)")
    page = _Page(table)
    w, d = table.width, table.depth
    lines_of_heading = tuple(heading) or (title or (
        f"{w:g} x {d:g} {table.measure.value} table, {len(table.footprints)} units"),)
    top = page.pad + len(lines_of_heading) * page.font * 1.45
    bottom = page.font * 3.2
    left = -page.pad
    view_w = w + page.panel + 2 * page.pad
    side_colour = _side_colours(table, colours or {}, gone)
    ids = _Ids()
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "class": "smoothbore-table",
        "stroke-width": _f(page.line), "font-size": _f(page.font)})
    ET.SubElement(root, "title").text = " - ".join(lines_of_heading)
    defs = ET.SubElement(root, "defs")
    ET.SubElement(defs, "style").text = _scoped(STYLE)
    _patterns(defs, table, page)
    clip = ET.SubElement(defs, "clipPath", {"id": f"{_P}on-table"})
    ET.SubElement(clip, "rect", {"x": "0", "y": "0", "width": _f(w), "height": _f(d)})
    _heading(root, lines_of_heading, page, top)
    ET.SubElement(root, "rect", {"id": "table", "class": "table", "x": "0", "y": "0",
                                 "width": _f(w), "height": _f(d)})
    _grid(root, table, page)
    _terrain(root, table, ids, page)
    _arcs(root, table, arcs or {})
    _radii(root, table, radii or {}, side_colour)
    _traces(root, table, page, moves, lines)
    room = _Room(_obstacles(table, page))
    room.tag_group = ET.Element("g", {"id": "tags"})
    _units(root, table, ids, markers or {}, cues or {}, side_colour, page, room)
    _commanders(root, table, ids, side_colour, page, room)
    _terrain_labels(root, table, page, room)
    root.append(room.tag_group)
    _scale_bar(root, table, page)
    panel_bottom = _panel(root, table, page, side_colour, key, gone, radii or {}, lines,
                          moves, room.tags)
    height = max(d + bottom, panel_bottom + page.pad) + top
    # WIDTH pixels, or wider when the font stopped growing with the table: text of the
    # same size in pixels
    wide = WIDTH * max(1.0, (w + page.panel) / 72 / page.font)
    px = (wide / view_w) if scale is None else check_number("scale", scale, 0.001)
    root.set("width", _f(view_w * px))
    root.set("height", _f(height * px))
    root.set("viewBox", f"{_f(left)} {_f(-top)} {_f(view_w)} {_f(height)}")
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    return text.replace(_P, f"sb{digest}-")


def write_svg(table: Table, path: str | Path, **options: object) -> Path:
    """Write the drawing of ``table`` to ``path`` (options as for ``draw``); returns the
    path."""
    target = Path(path)
    target.write_text(draw(table, **options) + "\n", encoding="utf-8")  # type: ignore[arg-type]
    return target


def _f(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _xy(table: Table, x: float, y: float) -> tuple[str, str]:
    return _f(x), _f(table.depth - y)


def _path_data(table: Table, geometry: BaseGeometry) -> str:
    parts: list[str] = []
    polygons = getattr(geometry, "geoms", [geometry])
    for polygon in polygons:
        if not isinstance(polygon, Polygon):
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)[:-1]
            points = " L ".join(" ".join(_xy(table, x, y)) for x, y in coords)
            parts.append(f"M {points} Z")
    return " ".join(parts)


def _points(table: Table, coords: Iterable[tuple[float, float]]) -> str:
    return " ".join(",".join(_xy(table, x, y)) for x, y in coords)


def _side_colours(table: Table, colours: Mapping[str, str],
                  gone: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """Each side on the table (or gone from it) with its colour, in order of appearance."""
    given = {k.lower(): v for k, v in colours.items()}
    sides: dict[str, str] = {}
    names = [f.side for f in table.footprints] + [m.side for m in table.commanders] + [
        g[0] for g in gone]
    spare = iter(c for c in PALETTE if c not in given.values())
    for side in names:
        if side and side not in sides:
            sides[side] = given.get(side.lower()) or next(spare, "#888")
    return sides


def _patterns(defs: ET.Element, table: Table, page: _Page) -> None:
    """Tree, marsh, rough-ground and rout hatching fills, sized in the table's measure."""
    inch = table.measure.from_inches(1.0)

    def pattern(name: str, size: float, fill: str) -> ET.Element:
        element = ET.SubElement(defs, "pattern", {
            "id": f"{_P}{name}", "patternUnits": "userSpaceOnUse", "width": _f(size),
            "height": _f(size)})
        ET.SubElement(element, "rect", {"width": _f(size), "height": _f(size), "fill": fill})
        return element

    light = pattern("trees-light", 2.4 * inch, "#cfe3bd")
    for cx, cy in ((0.6, 0.6), (1.8, 1.8)):
        ET.SubElement(light, "circle", {"cx": _f(cx * inch), "cy": _f(cy * inch),
                                        "r": _f(0.42 * inch), "fill": "#8fbf78"})
    dense = pattern("trees-dense", 1.6 * inch, "#7faa6a")
    for cx, cy in ((0.4, 0.4), (1.2, 1.2)):
        ET.SubElement(dense, "circle", {"cx": _f(cx * inch), "cy": _f(cy * inch),
                                        "r": _f(0.38 * inch), "fill": "#4d7d3e"})
    swamp = pattern("swamp", 1.6 * inch, "#b9cfc0")
    for x, y in ((0.2, 0.4), (0.9, 1.2)):
        ET.SubElement(swamp, "line", {"x1": _f(x * inch), "y1": _f(y * inch),
                                      "x2": _f((x + 0.55) * inch), "y2": _f(y * inch),
                                      "stroke": "#4f7f6a", "stroke-width": _f(0.09 * inch)})
    rough = pattern("rough", 1.0 * inch, "#e2d4a8")
    for cx, cy in ((0.2, 0.3), (0.7, 0.75)):
        ET.SubElement(rough, "circle", {"cx": _f(cx * inch), "cy": _f(cy * inch),
                                        "r": _f(0.09 * inch), "fill": "#8b7a4a"})
    hatch = ET.SubElement(defs, "pattern", {
        "id": f"{_P}routing", "patternUnits": "userSpaceOnUse", "width": _f(0.5 * inch),
        "height": _f(0.5 * inch), "patternTransform": "rotate(45)"})
    ET.SubElement(hatch, "rect", {"width": _f(0.22 * inch), "height": _f(0.5 * inch),
                                  "fill": "#ffffff", "fill-opacity": "0.75"})
    for name, colour in (("arrow", "#222"), ("arrow-shot", "#c00"), ("arrow-charge", "#111")):
        marker = ET.SubElement(defs, "marker", {
            "id": f"{_P}{name}", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
            "markerWidth": "5", "markerHeight": "5", "orient": "auto-start-reverse"})
        ET.SubElement(marker, "path", {"d": "M 0 0 L 10 5 L 0 10 z", "fill": colour})


def _heading(root: ET.Element, heading: Sequence[str], page: _Page, top: float) -> None:
    group = ET.SubElement(root, "g", {"id": "heading"})
    y = -top + page.pad * 0.6 + page.font * 0.7
    for i, line in enumerate(heading):
        cls = "heading" if i == 0 else ("outcome" if line.startswith(("Over:", "Outcome"))
                                        else "subheading")
        size = page.font * (1.3 if i == 0 else 1.0)
        text = ET.SubElement(group, "text", {"class": cls, "x": "0", "y": _f(y),
                                             "font-size": _f(size)})
        text.text = line
        y += page.font * 1.45


def _grid(root: ET.Element, table: Table, page: _Page) -> None:
    group = ET.SubElement(root, "g", {"id": "grid", "class": "grid",
                                      "stroke-width": _f(page.line * 0.5)})
    step = page.grid
    x = step
    while x < table.width - 1e-9:
        ET.SubElement(group, "line", {"x1": _f(x), "y1": "0", "x2": _f(x),
                                      "y2": _f(table.depth)})
        x += step
    y = step
    while y < table.depth - 1e-9:
        ET.SubElement(group, "line", {"x1": "0", "y1": _f(table.depth - y),
                                      "x2": _f(table.width), "y2": _f(table.depth - y)})
        y += step


def _terrain(root: ET.Element, table: Table, ids: _Ids, page: _Page) -> None:
    group = ET.SubElement(root, "g", {"id": "terrain"})
    order = sorted(table.features, key=lambda f: _LAYER.get(f.kind.value, 5))
    for feature in order:
        cls = f"terrain {_slug(feature.kind.value)}"
        attrs = {"id": ids("terrain", feature.feature_id), "class": cls,
                 "data-id": feature.feature_id}
        area = feature.area
        if isinstance(area, LineString):
            attrs["points"] = _points(table, ((x, y) for x, y, *_ in area.coords))
            wide = {"stream": 3.5, "wall": 3.0, "fence": 2.2}.get(feature.kind.value, 2.0)
            attrs["stroke-width"] = _f(page.line * wide)
            if feature.kind.value == "fence":
                attrs["stroke-dasharray"] = f"{_f(page.line * 5)} {_f(page.line * 2.5)}"
            element = ET.SubElement(group, "polyline", attrs)
        else:
            attrs["d"] = _path_data(table, area)
            if feature.kind.value in _PATTERNS:
                attrs["fill"] = f"url(#{_P}{_PATTERNS[feature.kind.value]})"
            element = ET.SubElement(group, "path", attrs)
        extra = f", {feature.strength} strength points" if feature.strength is not None else ""
        level = f", level {feature.level}" if feature.kind.is_hill else ""
        ET.SubElement(element, "title").text = f"{_name(feature)} ({feature.kind.value}" \
                                               f"{level}{extra})"


def _name(feature: object) -> str:
    label = str(getattr(feature, "label", "") or "")
    kind = getattr(feature, "kind")  # noqa: B009 (a Feature)
    return label or str(kind.value)


_LAYER = {"gentle hill": 0, "steep hill": 1, "river": 2, "ford": 3, "road": 3, "bridge": 4}


def _arcs(root: ET.Element, table: Table, arcs: Mapping[str, float]) -> None:
    if not arcs:
        return
    group = ET.SubElement(root, "g", {"id": "arcs"})
    for unit_id, half in arcs.items():
        shape = shapely.intersection(arc_polygon(table, unit_id, half), table.rectangle)
        ET.SubElement(group, "path", {"class": "arc", "data-id": unit_id,
                                      "d": _path_data(table, shape)})


def _radii(root: ET.Element, table: Table, radii: Mapping[str, float],
           side_colour: Mapping[str, str]) -> None:
    if not radii:
        return
    group = ET.SubElement(root, "g", {"id": "command-radii", "clip-path": f"url(#{_P}on-table)"})
    marks = {m.commander_id: m for m in table.commanders}
    for commander_id, radius in radii.items():
        if commander_id not in marks:
            continue
        mark = marks[commander_id]
        x, y = _xy(table, *table.commander_point(commander_id))
        colour = side_colour.get(mark.side, "#555")
        circle = ET.SubElement(group, "circle", {
            "class": "radius", "data-id": commander_id, "cx": x, "cy": y,
            "r": _f(radius), "fill": colour, "stroke": colour})
        ET.SubElement(circle, "title").text = (
            f"{mark.label or commander_id}: command radius {radius:g} "
            f"{_UNIT_WORD[table.measure]}")


def _obstacles(table: Table, page: _Page) -> list[Polygon]:
    """What a label must not cover: every unit's footprint (a little grown) and every
    commander's mark."""
    shapes: list[Polygon] = [Polygon(f.corners).buffer(page.font * 0.15, join_style="mitre")
                             for f in table.footprints]
    radius = page.font * 0.55
    shapes.extend(Point(table.commander_point(m.commander_id)).buffer(radius)
                  for m in table.commanders)
    return shapes


class _Room:
    """Where labels may go: the obstacles (units and commanders' marks, in an STRtree made
    once) and the labels placed so far (their boxes as an array), asked how much each of
    many boxes would cover of them, all at once."""

    def __init__(self, obstacles: Sequence[Polygon]) -> None:
        self.obstacles = np.array(obstacles, dtype=object)
        self.tree = shapely.STRtree(self.obstacles) if len(self.obstacles) else None
        self.boxes = np.zeros((0, 4))
        self.tags: list[tuple[str, str, str]] = []
        self.tag_group: ET.Element | None = None

    def tag(self, table: Table, page: _Page, at: tuple[float, float], side: str, text: str,
            raw_id: str) -> None:
        """Name something by a number drawn on it, its words in the margin, for want of
        room for a label beside it."""
        assert self.tag_group is not None
        number = str(len(self.tags) + 1)
        self.tags.append((number, side, text))
        x, y = _xy(table, *at)
        tag = ET.SubElement(self.tag_group, "text", {
            "class": "tag", "data-id": raw_id, "x": x, "y": y, "text-anchor": "middle",
            "font-size": _f(page.small * 0.9), "stroke-width": _f(page.small * 0.25)})
        tag.text = number

    def add(self, label: Polygon) -> None:
        self.boxes = np.vstack([self.boxes, np.asarray(label.bounds)[None, :]])

    def covered(self, bounds: np.ndarray) -> np.ndarray:
        """For each box (rows of minx, miny, maxx, maxy), the area of obstacles and placed
        labels it would cover."""
        total = np.zeros(len(bounds))
        if self.tree is not None:
            boxes = shapely.box(bounds[:, 0], bounds[:, 1], bounds[:, 2], bounds[:, 3])
            which, hit = self.tree.query(boxes, predicate="intersects")
            if len(which):
                areas = shapely.area(shapely.intersection(boxes[which], self.obstacles[hit]))
                total += np.bincount(which, weights=areas, minlength=len(bounds))
        if len(self.boxes):
            placed = self.boxes
            w = (np.minimum(bounds[:, None, 2], placed[None, :, 2])
                 - np.maximum(bounds[:, None, 0], placed[None, :, 0]))
            h = (np.minimum(bounds[:, None, 3], placed[None, :, 3])
                 - np.maximum(bounds[:, None, 1], placed[None, :, 1]))
            total += (np.clip(w, 0, None) * np.clip(h, 0, None)).sum(axis=1)
        return total


def _text_box(cx: float, cy: float, width: float, height: float) -> Polygon:
    return box(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)


def _place(table: Table, around: BaseGeometry, width: float, height: float, page: _Page,
           room: _Room) -> tuple[Polygon, bool]:
    """A label box of ``width`` x ``height`` near ``around`` (table coordinates) that covers
    no obstacle and no label already placed and lies on the table, the nearest found (the
    candidates ring it, nearer first); if none does, the one covering least. Returns the box
    and whether it is clear."""
    minx, miny, maxx, maxy = around.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    gap = page.font * 0.35
    centres: list[tuple[float, float]] = []
    for step in (0.0, 1.0, 2.0, 3.5, 5.0, 7.0, 10.0):
        off = gap + step * height
        centres.extend((
            (cx, maxy + off + height / 2), (cx, miny - off - height / 2),
            (maxx + off + width / 2, cy), (minx - off - width / 2, cy),
            (maxx + off + width / 2, maxy + off), (minx - off - width / 2, maxy + off),
            (maxx + off + width / 2, miny - off), (minx - off - width / 2, miny - off)))
    xy = np.asarray(centres)
    bounds = np.column_stack([xy[:, 0] - width / 2, xy[:, 1] - height / 2,
                              xy[:, 0] + width / 2, xy[:, 1] + height / 2])
    inside_w = np.clip(np.minimum(bounds[:, 2], table.width) - np.maximum(bounds[:, 0], 0),
                       0, None)
    inside_h = np.clip(np.minimum(bounds[:, 3], table.depth) - np.maximum(bounds[:, 1], 0),
                       0, None)
    cost = room.covered(bounds) + (width * height - inside_w * inside_h) * 4
    clear = np.flatnonzero(cost <= 1e-12)
    index = int(clear[0]) if len(clear) else int(np.argmin(cost))
    return box(*bounds[index]), bool(len(clear))


def _label_size(page: _Page, lines: Sequence[str], size: float) -> tuple[float, float]:
    width = max(len(line) for line in lines) * _CHAR * size + size * 0.4
    return width, len(lines) * size * 1.25


def _write_label(parent: ET.Element, table: Table, label: Polygon, lines: Sequence[str],
                 size: float, cls: str, status: str = "") -> ET.Element:
    minx, miny, maxx, maxy = label.bounds
    x = (minx + maxx) / 2
    top = table.depth - maxy
    text = ET.SubElement(parent, "text", {
        "class": cls, "x": _f(x), "y": _f(top + size * 0.625), "text-anchor": "middle",
        "font-size": _f(size), "stroke-width": _f(size * 0.22),
        "data-box": f"{_f(minx)} {_f(top)} {_f(maxx - minx)} {_f(maxy - miny)}"})
    text.text = lines[0]
    for line in lines[1:]:
        span = ET.SubElement(text, "tspan", {"x": _f(x), "dy": _f(size * 1.25)})
        span.text = line
        if status and line == status:
            span.set("class", "status")
    return text


def _leader(parent: ET.Element, table: Table, label: Polygon, target: Polygon,
            page: _Page) -> None:
    """A thin line from a label to what it names, when it stands away from it."""
    if label.distance(target) < page.font * 0.9:
        return
    a, b = shapely.ops.nearest_points(label, target)
    x1, y1 = _xy(table, a.x, a.y)
    x2, y2 = _xy(table, b.x, b.y)
    ET.SubElement(parent, "line", {"class": "leader", "x1": x1, "y1": y1, "x2": x2,
                                   "y2": y2, "stroke-width": _f(page.line * 0.5)})


def _units(root: ET.Element, table: Table, ids: _Ids, markers: Mapping[str, Iterable[str]],
           cues: Mapping[str, str], side_colour: Mapping[str, str], page: _Page,
           room: _Room) -> None:
    group = ET.SubElement(root, "g", {"id": "units"})
    sides = {side: i for i, side in enumerate(side_colour)}
    labels = ET.SubElement(root, "g", {"id": "unit-labels"})
    for footprint in table.footprints:
        side = sides.get(footprint.side)
        cue = cues.get(footprint.unit_id, "")
        cls = "unit" + (f" side-{side}" if side is not None else " no-side") + (
            f" {_slug(cue)}" if cue else "")
        unit = ET.SubElement(group, "g", {
            "id": ids("unit", footprint.unit_id), "class": cls, "data-id": footprint.unit_id,
            "data-side": footprint.side})
        colour = side_colour.get(footprint.side, "#999")
        ET.SubElement(unit, "title").text = _describe(footprint)
        for corners in footprint.base_corners:
            ET.SubElement(unit, "polygon", {"class": "base", "fill": colour,
                                            "points": _points(table, map(tuple, corners))})
        if cue == "routing":
            ET.SubElement(unit, "polygon", {"class": "rout", "fill": f"url(#{_P}routing)",
                                            "points": _points(table, footprint.corners)})
        fl, fr = footprint.corners[0], footprint.corners[1]
        (x1, y1), (x2, y2) = _xy(table, *fl), _xy(table, *fr)
        ET.SubElement(unit, "line", {"class": "front", "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                                     "stroke-width": _f(page.line * 1.5)})
        size = min(footprint.width, footprint.length) * 0.45
        tip = footprint.to_table(0.0, footprint.length / 2)
        left = footprint.to_table(-size / 2, footprint.length / 2 - size * 0.8)
        right = footprint.to_table(size / 2, footprint.length / 2 - size * 0.8)
        ET.SubElement(unit, "polygon", {"class": "facing",
                                        "points": _points(table, [tip, left, right])})
        name = footprint.label or footprint.unit_id
        status = ", ".join(str(m) for m in markers.get(footprint.unit_id, ()))
        text_lines = [name, status] if status else [name]
        width, height = _label_size(page, text_lines, page.small)
        shape = Polygon(footprint.corners)
        label, clear = _place(table, shape, width, height, page, room)
        if not clear:  # no room beside it: a number on the unit, its name in the margin
            room.tag(table, page, (footprint.x, footprint.y), footprint.side,
                     name + (f": {status}" if status else ""), footprint.unit_id)
            continue
        room.add(label)
        text = _write_label(labels, table, label, text_lines, page.small, "label", status)
        text.set("data-id", footprint.unit_id)
        if status:  # the old marker's class, on the status line
            text[0].set("class", "status marker")
        _leader(labels, table, label, shape, page)


def _describe(footprint: Footprint) -> str:
    return (f"{footprint.label or footprint.unit_id}: {footprint.bases} bases in "
            f"{footprint.formation.value}, facing {footprint.facing:g} degrees"
            + (f" ({footprint.side})" if footprint.side else ""))


def _commanders(root: ET.Element, table: Table, ids: _Ids, side_colour: Mapping[str, str],
                page: _Page, room: _Room) -> None:
    group = ET.SubElement(root, "g", {"id": "commanders"})
    labels = ET.SubElement(root, "g", {"id": "commander-labels"})
    radius = page.font * 0.45
    for mark in table.commanders:
        px, py = table.commander_point(mark.commander_id)
        x, y = _xy(table, px, py)
        cls = "commander " + ("attached" if mark.attached_to else "alone")
        colour = side_colour.get(mark.side, "#f4d03f")
        circle = ET.SubElement(group, "circle", {
            "id": ids("commander", mark.commander_id), "class": cls,
            "data-id": mark.commander_id, "cx": x, "cy": y, "r": _f(radius),
            "fill": "#f4d03f", "stroke": colour, "stroke-width": _f(radius * 0.45)})
        with_unit = f", with {mark.attached_to}" if mark.attached_to else ""
        ET.SubElement(circle, "title").text = f"{mark.label or mark.commander_id}{with_unit}"
        name = mark.label or mark.commander_id
        size = page.small * 0.95
        width, height = _label_size(page, [name], size)
        spot = Point(px, py).buffer(radius)
        label, clear = _place(table, spot, width, height, page, room)
        if not clear:
            room.tag(table, page, (px, py), mark.side, name, mark.commander_id)
            continue
        room.add(label)
        text = _write_label(labels, table, label, [name], size, "commander-label")
        text.set("data-id", mark.commander_id)
        _leader(labels, table, label, spot, page)


def _terrain_labels(root: ET.Element, table: Table, page: _Page, room: _Room) -> None:
    group = ET.SubElement(root, "g", {"id": "terrain-labels"})
    size = page.small
    inside = box(0, 0, table.width, table.depth)
    for feature in table.features:
        name = _name(feature)
        width, height = _label_size(page, [name], size)
        area = feature.area
        spots: list[tuple[float, float]] = []
        if isinstance(area, LineString):
            for t in (0.5, 0.35, 0.65, 0.2, 0.8):
                point = area.interpolate(t, normalized=True)
                spots.extend(((point.x, point.y + height * 0.8),
                              (point.x, point.y - height * 0.8)))
        else:
            point = area.representative_point()
            spots.append((point.x, point.y))
            minx, miny, maxx, maxy = area.bounds
            for fy in (0.5, 0.25, 0.75, 0.1, 0.9):
                for fx in (0.5, 0.25, 0.75, 0.1, 0.9):
                    spots.append((minx + fx * (maxx - minx), miny + fy * (maxy - miny)))
        chosen: Polygon | None = None
        fallback: Polygon | None = None
        for x, y in spots:
            label = _text_box(x, y, width, height)
            if not isinstance(area, LineString) and not area.contains(Point(x, y)):
                continue
            if fallback is None:
                fallback = label
            if not inside.contains(label):
                continue
            if room.covered(np.asarray([label.bounds]))[0] > 0:
                continue
            chosen = label
            break
        if chosen is None:  # nowhere clear inside it: beside it, clear of the rest
            around = area if not isinstance(area, LineString) else area.buffer(height / 2)
            chosen, clear = _place(table, around, width, height, page, room)
            if not clear:
                point = area.representative_point()
                room.tag(table, page, (point.x, point.y), "", name, feature.feature_id)
                continue
        label = chosen
        room.add(label)
        text = _write_label(group, table, label, [name], size, "terrain-label")
        text.set("data-id", feature.feature_id)


def _traces(root: ET.Element, table: Table, page: _Page,
            moves: Sequence[tuple[str, Sequence[tuple[float, float]]]] | None,
            lines: Sequence[tuple[str, str, str]]) -> None:
    group = ET.SubElement(root, "g", {"id": "traces"})
    if moves is None:
        moves = [(t.unit_id, t.path) for t in table.traces if isinstance(t, MoveTrace)]
    dash = f"{_f(page.line * 4)} {_f(page.line * 2)}"
    for unit_id, path in moves:
        path = _short_of(table, unit_id, path)
        if len(path) < 2:
            continue
        ET.SubElement(group, "polyline", {
            "class": "move", "data-id": unit_id, "marker-end": f"url(#{_P}arrow)",
            "points": _points(table, path), "stroke-width": _f(page.line * 1.3),
            "stroke-dasharray": dash})
    drawn: set[tuple[str, str, str]] = set()
    shots = [("shot", t.firer, t.target, t.hit) for t in table.traces
             if isinstance(t, ShotTrace)]
    for kind, firer, target in lines:
        shots.append((kind, firer, target, None))
    for kind, firer, target, hit in shots:
        if firer not in table.units or target not in table.units:
            continue  # a unit no longer on the table
        if (kind, firer, target) in drawn:
            continue
        drawn.add((kind, firer, target))
        line = line_of_fire(table, firer, target)
        (a, b), (c, e) = np.asarray(line.coords)
        x1, y1 = _xy(table, a, b)
        x2, y2 = _xy(table, c, e)
        outcome = "" if hit is None else (" hit" if hit else " miss")
        wide = 2.4 if kind == "charge" else 1.2
        ET.SubElement(group, "line", {
            "class": kind + outcome, "data-firer": firer, "data-target": target,
            "marker-end": f"url(#{_P}arrow-{'charge' if kind == 'charge' else 'shot'})",
            "stroke-width": _f(page.line * wide),
            "x1": x1, "y1": y1, "x2": x2, "y2": y2})


def _short_of(table: Table, unit_id: str, path: Sequence[tuple[float, float]]
              ) -> tuple[tuple[float, float], ...]:
    """A move's path stopped where it reaches the unit's footprint, so that its arrowhead
    shows rather than hiding under the unit."""
    points = tuple((float(x), float(y)) for x, y in path)
    footprint = table.units.get(unit_id)
    if footprint is None or len(points) < 2:
        return points
    shape = Polygon(footprint.corners)
    way = LineString(points)
    outside = way.difference(shape)
    if outside.is_empty:
        return ()
    pieces = getattr(outside, "geoms", [outside])
    first = pieces[0]
    if not isinstance(first, LineString) or first.length < 1e-9:
        return ()
    return tuple((float(x), float(y)) for x, y, *_ in first.coords)


def _scale_bar(root: ET.Element, table: Table, page: _Page) -> None:
    group = ET.SubElement(root, "g", {"id": "scale-bar", "class": "scale-bar"})
    step = page.grid
    y = table.depth + page.font * 1.0
    height = page.font * 0.45
    for i in range(2):
        ET.SubElement(group, "rect", {"class": "dark" if i == 0 else "light",
                                      "x": _f(i * step), "y": _f(y), "width": _f(step),
                                      "height": _f(height), "stroke-width": _f(page.line * 0.5)})
    word = _UNIT_WORD[table.measure]
    for i in range(3):
        label = ET.SubElement(group, "text", {
            "x": _f(i * step), "y": _f(y + height + page.small * 0.8),
            "text-anchor": "middle", "font-size": _f(page.small)})
        label.text = f"{i * step:g}"
    note = ET.SubElement(group, "text", {
        "x": _f(2 * step + page.font), "y": _f(y + height / 2), "font-size": _f(page.small)})
    note.text = f"{word}; grid squares of {step:g} {word}; table {table.width:g} x " \
                f"{table.depth:g}"


def _panel(root: ET.Element, table: Table, page: _Page, side_colour: Mapping[str, str],
           key: Sequence[tuple[str, str]], gone: Sequence[tuple[str, str, str]],
           radii: Mapping[str, float], lines: Sequence[tuple[str, str, str]],
           moves: Sequence[tuple[str, Sequence[tuple[float, float]]]] | None,
           tags: Sequence[tuple[str, str, str]] = ()) -> float:
    """The margin: the sides, the map's key, the status marks and the units gone; returns
    where it ends (y, in the view box)."""
    x0 = table.width + page.pad * 1.5
    size = page.small
    width_chars = max(12, int((page.panel - page.pad * 1.5) / (_CHAR * size)))
    group = ET.SubElement(root, "g", {"id": "panel", "class": "panel",
                                      "font-size": _f(size)})
    y = size * 0.6
    sw = size * 1.6

    def title(text: str) -> None:
        nonlocal y
        element = ET.SubElement(group, "text", {"class": "panel-title", "x": _f(x0),
                                                "y": _f(y), "font-size": _f(page.font)})
        element.text = text
        y += page.font * 1.35

    def row(text: str, cls: str = "") -> ET.Element:
        nonlocal y
        element = ET.SubElement(group, "text", {"x": _f(x0 + sw + size * 0.5), "y": _f(y)})
        if cls:
            element.set("class", cls)
        wrapped = _wrap(text, width_chars - 3)
        element.text = wrapped[0]
        for more in wrapped[1:]:
            span = ET.SubElement(element, "tspan", {"x": _f(x0 + sw + size * 0.5),
                                                    "dy": _f(size * 1.2)})
            span.text = more
        y += size * 1.2 * len(wrapped) + size * 0.35
        return element

    def swatch_at() -> float:
        return y

    if side_colour:
        title("Sides")
        for side, colour in side_colour.items():
            at = swatch_at()
            ET.SubElement(group, "rect", {
                "class": "swatch side", "data-side": side, "x": _f(x0),
                "y": _f(at - size * 0.45), "width": _f(sw), "height": _f(size * 0.9),
                "fill": colour, "stroke": "#111", "stroke-width": _f(page.line * 0.5)})
            on_table = sum(1 for f in table.footprints if f.side == side)
            row(f"{side[:1].upper()}{side[1:]} ({on_table} on the table)", "legend-side")
        y += size * 0.5
    title("Key")
    entries: list[tuple[str, str]] = [("front", "unit: white edge is its front")]
    if table.commanders:
        entries.append(("commander", "commander (ring in his side's colour)"))
    if radii:
        entries.append(("radius", "command radius"))
    has_moves = bool(moves) if moves is not None else any(
        isinstance(t, MoveTrace) for t in table.traces)
    if has_moves:
        entries.append(("move", "move this turn"))
    if any(isinstance(t, ShotTrace) for t in table.traces) or any(
            k == "shot" for k, *_ in lines):
        entries.append(("shot", "shot (dashed grey: missed)"))
    if any(k == "charge" for k, *_ in lines):
        entries.append(("charge", "charge"))
    for kind, meaning in entries:
        at = swatch_at()
        _swatch(group, kind, x0, at, sw, size, page)
        row(meaning, f"key-{kind}")
    kinds = sorted({f.kind.value for f in table.features}, key=lambda k: _LAYER.get(k, 5))
    for kind in kinds:
        at = swatch_at()
        cls = f"terrain {_slug(kind)}"
        if kind in ("stream", "fence", "wall"):
            ET.SubElement(group, "line", {
                "class": cls, "x1": _f(x0), "y1": _f(at), "x2": _f(x0 + sw), "y2": _f(at),
                "stroke-width": _f(page.line * 2.5)})
        else:
            swatch = ET.SubElement(group, "rect", {
                "class": cls, "x": _f(x0), "y": _f(at - size * 0.45), "width": _f(sw),
                "height": _f(size * 0.9), "stroke-width": _f(page.line * 0.5)})
            if kind in _PATTERNS:
                swatch.set("fill", f"url(#{_P}{_PATTERNS[kind]})")
        row(kind, "key-terrain")
    if key:
        y += size * 0.5
        title("Status under a unit's name")
        for mark, meaning in key:
            at = swatch_at()
            code = ET.SubElement(group, "text", {"class": "status-code", "x": _f(x0),
                                                 "y": _f(at), "fill": "#a00000",
                                                 "font-weight": "bold"})
            code.text = mark
            row(meaning, "key-status")
    if tags:
        y += size * 0.5
        title("Units by number")
        for number, side, text in tags:
            at = swatch_at()
            code = ET.SubElement(group, "text", {"class": "tag-key", "x": _f(x0 + sw / 2),
                                                 "y": _f(at), "text-anchor": "middle",
                                                 "fill": side_colour.get(side, "#111"),
                                                 "font-weight": "bold"})
            code.text = number
            row(text, "tagged")
    if gone:
        y += size * 0.5
        title("Off the table")
        for side, name, why in gone:
            at = swatch_at()
            ET.SubElement(group, "rect", {
                "class": "swatch gone", "x": _f(x0), "y": _f(at - size * 0.45),
                "width": _f(sw), "height": _f(size * 0.9),
                "fill": side_colour.get(side, "#999"), "stroke": "#111",
                "stroke-width": _f(page.line * 0.5)})
            row(f"{name}: {why}", "gone")
    return y


def _swatch(group: ET.Element, kind: str, x: float, y: float, width: float, size: float,
            page: _Page) -> None:
    if kind == "front":
        ET.SubElement(group, "rect", {"x": _f(x), "y": _f(y - size * 0.4), "width": _f(width),
                                      "height": _f(size * 0.8), "fill": "#888",
                                      "stroke": "#111", "stroke-width": _f(page.line * 0.5)})
        ET.SubElement(group, "line", {"x1": _f(x), "y1": _f(y - size * 0.4),
                                      "x2": _f(x + width), "y2": _f(y - size * 0.4),
                                      "stroke": "#fff", "stroke-width": _f(page.line * 1.5)})
    elif kind == "commander":
        ET.SubElement(group, "circle", {"cx": _f(x + width / 2), "cy": _f(y),
                                        "r": _f(size * 0.4), "fill": "#f4d03f",
                                        "stroke": "#333", "stroke-width": _f(size * 0.15)})
    elif kind == "radius":
        ET.SubElement(group, "circle", {"class": "radius", "cx": _f(x + width / 2),
                                        "cy": _f(y), "r": _f(size * 0.45), "fill": "#555",
                                        "stroke": "#555", "stroke-width": _f(page.line * 0.6)})
    else:
        cls = {"move": "move", "shot": "shot", "charge": "charge"}[kind]
        marker = {"move": "arrow", "shot": "arrow-shot", "charge": "arrow-charge"}[kind]
        ET.SubElement(group, "line", {
            "class": cls, "x1": _f(x), "y1": _f(y), "x2": _f(x + width), "y2": _f(y),
            "marker-end": f"url(#{_P}{marker})",
            "stroke-width": _f(page.line * (2.4 if kind == "charge" else 1.3))})


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return lines
