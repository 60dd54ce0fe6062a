"""smoothbore.table: tabletop geometry for every rule book.

Units stand on the table as footprints (bases in a formation, a position and a facing),
terrain as shapes with a kind, all in one measure (inches, or millimetres for McKie). From
positions the table derives the facts the rules take: ranges between nearest points, arcs of
fire, line of sight and whole-base visibility, the length of a line of fire in woods, cover;
charge reach, contact and the face struck, overlaps; routes through terrain and their cost
under each rule book's rates, the furthest a unit goes with its allowance, wheels, turns and
routs. It draws itself as SVG. Geometry is Shapely 2's (vectorised, with spatial trees).

Imports only ``smoothbore.core``; rule books read their facts from it."""

from smoothbore.table.contact import (
    ChargeReach,
    charge_reach,
    charges,
    contact_position,
    face_from,
    in_contact,
    overlap,
    touching_faces,
)
from smoothbore.table.cover import OBSTACLES, WORKS, Cover, cover_of, covers
from smoothbore.table.deployment import Deployed, check_deployed
from smoothbore.table.footprints import CommanderMark, Face, Footprint, Formation, Point
from smoothbore.table.measure import Measure, convert
from smoothbore.table.paths import (
    Combine,
    CrossingCost,
    Destination,
    ImpassableError,
    Leg,
    Passage,
    PassageKind,
    RateTable,
    Rout,
    Route,
    Turn,
    Wheel,
    furthest,
    percent,
    reachable,
    retire,
    rout,
    rout_options,
    route,
    sweep,
    turn,
    wheel,
)
from smoothbore.table.sight import (
    DEFAULT_SIGHT,
    Sighting,
    SightLine,
    SightRules,
    angle_off_front,
    arc_polygon,
    distance,
    enemy_pairs,
    line_of_fire,
    point_distance,
    sight_lines,
    sighting,
    sightings,
    visible_enemies,
)
from smoothbore.table.svg import draw, write_svg
from smoothbore.table.tabletop import Edge, Table, table_of
from smoothbore.table.terrain import LINEAR_KINDS, Feature, TerrainKind, terrain_kind
from smoothbore.table.traces import MoveTrace, ShotTrace, Trace

__all__ = [
    "DEFAULT_SIGHT",
    "LINEAR_KINDS",
    "OBSTACLES",
    "WORKS",
    "ChargeReach",
    "Combine",
    "CommanderMark",
    "Cover",
    "CrossingCost",
    "Deployed",
    "Destination",
    "Edge",
    "Face",
    "Feature",
    "Footprint",
    "Formation",
    "ImpassableError",
    "Leg",
    "Measure",
    "MoveTrace",
    "Passage",
    "PassageKind",
    "Point",
    "RateTable",
    "Rout",
    "Route",
    "ShotTrace",
    "SightLine",
    "SightRules",
    "Sighting",
    "Table",
    "TerrainKind",
    "Trace",
    "Turn",
    "Wheel",
    "angle_off_front",
    "arc_polygon",
    "charge_reach",
    "charges",
    "check_deployed",
    "contact_position",
    "convert",
    "cover_of",
    "covers",
    "distance",
    "draw",
    "enemy_pairs",
    "face_from",
    "furthest",
    "in_contact",
    "line_of_fire",
    "overlap",
    "percent",
    "point_distance",
    "reachable",
    "retire",
    "rout",
    "rout_options",
    "route",
    "sight_lines",
    "sighting",
    "sightings",
    "sweep",
    "table_of",
    "terrain_kind",
    "touching_faces",
    "turn",
    "visible_enemies",
    "wheel",
    "write_svg",
]
