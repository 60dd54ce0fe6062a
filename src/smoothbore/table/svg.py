"""The table drawn as SVG: terrain, units (bases, front edge, facing, label and status
markers), commanders, arcs, and the last moves and shots. Plain ``xml.etree``; no drawing
library. ``Table._repr_svg_`` shows it in notebooks; ``write_svg`` writes a file.

The drawing is in the table's own measure (its ``viewBox`` is the table, y flipped so the
near edge is at the bottom); ``scale`` sets the pixels per unit of measure. Every element
has a class (``terrain dense-woods``, ``unit side-0``, ``move``, ``shot hit``) and the
features, units and commanders carry ids (``terrain-<id>``, ``unit-<id>``,
``commander-<id>``; the raw id in ``data-id``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from smoothbore.core.errors import InvalidValueError
from smoothbore.core.validate import check_number

from .footprints import Footprint
from .measure import Measure
from .sight import arc_polygon, line_of_fire
from .tabletop import Table
from .traces import MoveTrace, ShotTrace

__all__ = ["STYLE", "draw", "write_svg"]

_PIXELS = {Measure.INCHES: 10.0, Measure.MILLIMETRES: 10.0 / 25.4,
           Measure.CENTIMETRES: 100.0 / 25.4}

STYLE = """
.table { fill: #e8ecd6; stroke: #555; }
.terrain { stroke: none; }
.terrain.light-woods { fill: #b5d3a0; }
.terrain.dense-woods { fill: #6f9c5d; }
.terrain.rough-ground { fill: #d8c89a; }
.terrain.swamp { fill: #9fb8a8; }
.terrain.gentle-hill { fill: #cdbf8f; fill-opacity: 0.7; }
.terrain.steep-hill { fill: #a8926a; fill-opacity: 0.8; }
.terrain.impassable-ground { fill: #777; }
.terrain.river { fill: #7aa7d8; }
.terrain.stream { fill: none; stroke: #7aa7d8; }
.terrain.ford { fill: #a9c7e6; }
.terrain.road { fill: #c9b58f; }
.terrain.bridge { fill: #8b6b47; }
.terrain.fence { fill: none; stroke: #8b6b47; stroke-dasharray: 0.4 0.2; }
.terrain.wall { fill: none; stroke: #666; }
.terrain.building { fill: #b05a45; stroke: #333; }
.terrain.fieldwork { fill: #8c7b5a; stroke: #5a4a2a; }
.unit .base { stroke: #222; }
.unit.side-0 .base { fill: #3a5ea8; }
.unit.side-1 .base { fill: #b0343a; }
.unit.side-2 .base { fill: #6a6a6a; }
.unit.side-3 .base { fill: #c8a030; }
.unit .front { stroke: #fff; }
.unit .facing { fill: #fff; }
.unit text, .commander-label { font-family: sans-serif; fill: #111; }
.unit .marker { fill: #a00; font-weight: bold; }
.commander { fill: #f4d03f; stroke: #222; }
.arc { fill: #ffff99; fill-opacity: 0.25; stroke: #cc9; }
.move { fill: none; stroke: #222; stroke-dasharray: 0.6 0.3; }
.shot { stroke: #c00; }
.shot.miss { stroke-dasharray: 0.3 0.3; stroke: #888; }
""".strip()

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


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


def draw(table: Table, *, scale: float | None = None,
         markers: Mapping[str, Iterable[str]] | None = None,
         arcs: Mapping[str, float] | None = None, title: str = "") -> str:
    """The table as an SVG document. ``markers``: status words to show on units, by unit id
    (disrupted, shaken, pinned...); ``arcs``: units whose arc of fire to draw, with its
    half-angle; ``scale``: pixels per unit of measure (default 10 px to the inch)."""
    if not isinstance(table, Table):
        raise InvalidValueError("table", type(table).__name__,
                                "a Table (table_of(state) is None for a battle with no table)")
    px = _PIXELS[table.measure] if scale is None else check_number("scale", scale, 0.001)
    w, d = table.width, table.depth
    line = table.measure.from_inches(0.08)
    text_size = table.measure.from_inches(0.9)
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "class": "smoothbore-table",
        "width": _f(w * px), "height": _f(d * px), "viewBox": f"0 0 {_f(w)} {_f(d)}",
        "stroke-width": _f(line), "font-size": _f(text_size)})
    ET.SubElement(root, "title").text = title or (
        f"{w:g} x {d:g} {table.measure.value} table, {len(table.footprints)} units")
    defs = ET.SubElement(root, "defs")
    ET.SubElement(defs, "style").text = STYLE
    marker = ET.SubElement(defs, "marker", {
        "id": "arrow", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
        "markerWidth": "6", "markerHeight": "6", "orient": "auto-start-reverse"})
    ET.SubElement(marker, "path", {"d": "M 0 0 L 10 5 L 0 10 z"})
    ET.SubElement(root, "rect", {"id": "table", "class": "table", "x": "0", "y": "0",
                                 "width": _f(w), "height": _f(d)})
    ids = _Ids()
    _terrain(root, table, ids)
    _arcs(root, table, arcs or {})
    _units(root, table, ids, markers or {}, text_size)
    _commanders(root, table, ids, text_size)
    _traces(root, table)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode")


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


def _terrain(root: ET.Element, table: Table, ids: _Ids) -> None:
    group = ET.SubElement(root, "g", {"id": "terrain"})
    order = sorted(table.features, key=lambda f: _LAYER.get(f.kind.value, 5))
    for feature in order:
        cls = f"terrain {_slug(feature.kind.value)}"
        attrs = {"id": ids("terrain", feature.feature_id), "class": cls,
                 "data-id": feature.feature_id}
        area = feature.area
        if isinstance(area, LineString):
            attrs["points"] = _points(table, ((x, y) for x, y, *_ in area.coords))
            element = ET.SubElement(group, "polyline", attrs)
        else:
            attrs["d"] = _path_data(table, area)
            element = ET.SubElement(group, "path", attrs)
        label = feature.label or feature.feature_id
        extra = f", {feature.strength} strength points" if feature.strength is not None else ""
        level = f", level {feature.level}" if feature.kind.is_hill else ""
        ET.SubElement(element, "title").text = f"{label} ({feature.kind.value}{level}{extra})"


_LAYER = {"gentle hill": 0, "steep hill": 1, "river": 2, "ford": 3, "road": 3, "bridge": 4}


def _arcs(root: ET.Element, table: Table, arcs: Mapping[str, float]) -> None:
    if not arcs:
        return

    group = ET.SubElement(root, "g", {"id": "arcs"})
    for unit_id, half in arcs.items():
        shape = shapely.intersection(arc_polygon(table, unit_id, half), table.rectangle)
        ET.SubElement(group, "path", {"class": "arc", "data-id": unit_id,
                                      "d": _path_data(table, shape)})


def _units(root: ET.Element, table: Table, ids: _Ids,
           markers: Mapping[str, Iterable[str]], text_size: float) -> None:
    group = ET.SubElement(root, "g", {"id": "units"})
    sides: dict[str, int] = {}
    for footprint in table.footprints:
        if footprint.side and footprint.side not in sides:
            sides[footprint.side] = len(sides)
    for footprint in table.footprints:
        side = sides.get(footprint.side)
        cls = "unit" + (f" side-{side}" if side is not None else " no-side")
        unit = ET.SubElement(group, "g", {
            "id": ids("unit", footprint.unit_id), "class": cls, "data-id": footprint.unit_id,
            "data-side": footprint.side})
        ET.SubElement(unit, "title").text = _describe(footprint)
        for corners in footprint.base_corners:
            ET.SubElement(unit, "polygon", {"class": "base",
                                            "points": _points(table, map(tuple, corners))})
        fl, fr = footprint.corners[0], footprint.corners[1]
        (x1, y1), (x2, y2) = _xy(table, *fl), _xy(table, *fr)
        ET.SubElement(unit, "line", {"class": "front", "x1": x1, "y1": y1, "x2": x2, "y2": y2})
        size = min(footprint.width, footprint.length) * 0.35
        tip = footprint.to_table(0.0, footprint.length / 2)
        left = footprint.to_table(-size / 2, footprint.length / 2 - size * 0.8)
        right = footprint.to_table(size / 2, footprint.length / 2 - size * 0.8)
        ET.SubElement(unit, "polygon", {"class": "facing",
                                        "points": _points(table, [tip, left, right])})
        x, y = _xy(table, footprint.x, footprint.y)
        label = ET.SubElement(unit, "text", {"class": "label", "x": x, "y": y,
                                             "text-anchor": "middle"})
        label.text = footprint.label or footprint.unit_id
        status = tuple(markers.get(footprint.unit_id, ()))
        if status:
            below = _f(table.depth - footprint.y + text_size)
            mark = ET.SubElement(unit, "text", {"class": "marker", "x": x, "y": below,
                                                "text-anchor": "middle"})
            mark.text = ", ".join(status)


def _describe(footprint: Footprint) -> str:
    return (f"{footprint.label or footprint.unit_id}: {footprint.bases} bases in "
            f"{footprint.formation.value}, facing {footprint.facing:g} degrees"
            + (f" ({footprint.side})" if footprint.side else ""))


def _commanders(root: ET.Element, table: Table, ids: _Ids, text_size: float) -> None:
    group = ET.SubElement(root, "g", {"id": "commanders"})
    radius = table.measure.from_inches(0.4)
    for mark in table.commanders:
        x, y = _xy(table, *table.commander_point(mark.commander_id))
        cls = "commander " + ("attached" if mark.attached_to else "alone")
        circle = ET.SubElement(group, "circle", {
            "id": ids("commander", mark.commander_id), "class": cls,
            "data-id": mark.commander_id, "cx": x, "cy": y, "r": _f(radius)})
        with_unit = f", with {mark.attached_to}" if mark.attached_to else ""
        ET.SubElement(circle, "title").text = f"{mark.label or mark.commander_id}{with_unit}"


def _traces(root: ET.Element, table: Table) -> None:
    group = ET.SubElement(root, "g", {"id": "traces"})
    for trace in table.traces:
        if isinstance(trace, MoveTrace):
            ET.SubElement(group, "polyline", {
                "class": "move", "data-id": trace.unit_id, "marker-end": "url(#arrow)",
                "points": _points(table, trace.path)})
        elif isinstance(trace, ShotTrace):
            if trace.firer not in table.units or trace.target not in table.units:
                continue  # a unit no longer on the table
            line = line_of_fire(table, trace.firer, trace.target)
            (a, b), (c, e) = np.asarray(line.coords)
            x1, y1 = _xy(table, a, b)
            x2, y2 = _xy(table, c, e)
            outcome = "" if trace.hit is None else (" hit" if trace.hit else " miss")
            ET.SubElement(group, "line", {
                "class": "shot" + outcome, "data-firer": trace.firer,
                "data-target": trace.target, "marker-end": "url(#arrow)",
                "x1": x1, "y1": y1, "x2": x2, "y2": y2})
