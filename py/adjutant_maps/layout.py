"""A variant's map as geometry: province shapes in SVG units, their borders, anchor points, and the
check of the drawing against the rules graph."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from . import data, geography, topology

MIN_BORDER = 2.5  # SVG units (10 km on the standard board): a border any shorter is not a visible one
SIMPLIFY = 2.0  # coverage simplification tolerance, SVG units
SMALL_ROOM = 12.0  # a label with less free space than this around its point is set smaller
NAME_ROOM = 20.0  # a sea's full name is written under its abbreviation only where there is this much room


class MapCheckError(ValueError):
    """The drawing and the variant's adjacencies disagree; the message names every pair."""


@dataclass
class MapGeometry:
    variant: Any
    geo: dict[str, Any]
    proj: geography.Projection
    width: int
    height: int
    shapes: dict[str, BaseGeometry]
    decor_land: BaseGeometry
    decor_water: BaseGeometry
    borders: dict[tuple[str, str], float]
    anchors: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    coast_lines: dict[str, BaseGeometry] = field(default_factory=dict)
    strip: float = 0.0  # height of the band below the board that holds the off-board boxes
    link_lines: dict[tuple[str, str], BaseGeometry] = field(default_factory=dict)  # canal and box symbols
    label_room: dict[str, float] = field(default_factory=dict)  # free space around each label point
    small_labels: set[str] = field(default_factory=set)  # provinces whose abbreviation is set smaller
    sea_names: set[str] = field(default_factory=set)  # seas whose full name is written under the abbreviation
    outside_labels: set[str] = field(default_factory=set)  # provinces too small for their name: it is beside them
    # the other variants drawn on this board (Cluster and Coast-Running on standard's): the placement
    # keeps room for the marks their pages draw too
    shared_with: list[Any] = field(default_factory=list)
    # for each name beside its province, the leader line from the name to the province
    leaders: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=dict)

    @property
    def svg_height(self) -> float:
        return self.height + self.strip


def _polys(spec: list[dict[str, Any]], proj: geography.Projection) -> list[np.ndarray]:
    out = []
    for item in spec:
        pts = np.array(item["lonlat"], dtype=float)
        u, v = proj.forward(pts[:, 0], pts[:, 1])
        out.append(np.column_stack([u, v]))
    return out


def compute(variant_id: str) -> MapGeometry:
    v = data.variant(variant_id)
    g = data.geo(variant_id)
    proj, width, height = geography.make_projection(g["projection"])
    land = geography.land_mask(proj, width, height)
    for poly in _polys(g.get("land", []), proj):
        geography.paint(land, poly, True)
    for poly in _polys(g.get("water", []), proj):
        geography.paint(land, poly, False)

    drawn = [p for p in v.provinces.values() if not p.offboard]
    index = {p.id: i for i, p in enumerate(drawn)}
    seeds: list[geography.Seed] = []
    bad: list[str] = []
    for p in drawn:
        pts = g["seeds"].get(p.id)
        if not pts:
            raise data.GeoError(f"geo file for {variant_id}: no seed for province {p.id!r} ({p.name})")
        for lon, lat in pts:
            u, vv = proj.point((lon, lat))
            if not (0 <= u < width and 0 <= vv < height):
                bad.append(f"seed {lon},{lat} of {p.id!r} is off the map")
                continue
            r, c = int(vv), int(u)
            if bool(land[r, c]) != (p.type != "sea"):
                medium = "land" if land[r, c] else "water"
                bad.append(f"seed {lon},{lat} of {p.id!r} ({p.type}) falls on {medium}")
                continue
            seeds.append(geography.Seed(index[p.id], u, vv, p.type != "sea"))
    for lon, lat in g.get("neutral", []):
        u, vv = proj.point((lon, lat))
        if not (0 <= u < width and 0 <= vv < height):
            bad.append(f"neutral seed {lon},{lat} is off the map")
            continue
        on_land = bool(land[int(vv), int(u)])
        seeds.append(geography.Seed(geography.DECOR_LAND if on_land else geography.DECOR_WATER, u, vv, on_land))
    if bad:
        raise data.GeoError(f"geo file for {variant_id}: " + "; ".join(bad))

    labels = geography.label_pixels(land, seeds, int(g.get("min_island", 30)), int(g.get("min_lake", 200)))
    faces, face_labels = topology.faces_from_labels(labels)
    faces = topology.simplify(faces, float(g.get("simplify", SIMPLIFY)))
    merged = topology.merge_by_label(faces, face_labels)
    shapes = {drawn[i].id: geom for i, geom in merged.items() if i >= 0}
    borders_idx = topology.shared_borders({i: s for i, s in merged.items() if i >= 0})
    borders = {}
    for (i, j), length in borders_idx.items():
        a, b = sorted((drawn[i].id, drawn[j].id))
        borders[(a, b)] = length
    empty = shapely.GeometryCollection()
    mg = MapGeometry(
        variant=v, geo=g, proj=proj, width=width, height=height, shapes=shapes,
        decor_land=merged.get(geography.DECOR_LAND, empty), decor_water=merged.get(geography.DECOR_WATER, empty),
        borders=borders,
    )
    return mg


def check(mg: MapGeometry) -> list[str]:
    """Every disagreement between the drawn borders and the variant's adjacencies, as sentences."""
    v = mg.variant
    expected: dict[tuple[str, str], str] = {}
    exempt: dict[tuple[str, str], str] = {}
    linked = {pid for link in data.links(v) for pid in link.pair}
    for p in v.provinces.values():
        if p.type == "impassable" and p.id not in linked:
            # an impassable province the data gives no edge at all (Cline's Sardinia): nothing to check
            for q in v.provinces:
                exempt[tuple(sorted((p.id, q)))] = "impassable"
    for link in data.links(v):
        if link.kind in data.SPECIAL_KINDS:
            exempt[link.pair] = link.kind
        else:
            expected.setdefault(link.pair, link.who)
    # pairs the geo file declares to meet only at a corner (the head of a gulf): a touch shorter than
    # MIN_BORDER is allowed for them, and for no other pair
    corners = {tuple(sorted(c["pair"])) for c in mg.geo.get("corners", [])}
    problems = []
    names = {p.id: p.name for p in v.provinces.values()}

    def who(a: str, b: str) -> str:
        return f"{names[a]} ({a}) and {names[b]} ({b})"

    for pair in sorted(set(expected) | set(mg.borders)):
        if pair in exempt:
            continue
        length = mg.borders.get(pair, 0.0)
        if pair in expected and pair[0] in mg.shapes and pair[1] in mg.shapes:
            if length < MIN_BORDER:
                what = "do not share a border" if length == 0 else f"share only {length:.1f} units of border"
                problems.append(f"{who(*pair)} are adjacent ({expected[pair]}) but {what} in the drawing")
        elif pair not in expected and not (pair in corners and length < MIN_BORDER):
            problems.append(f"{who(*pair)} share {length:.1f} units of border in the drawing but are not adjacent")
    for p in v.provinces.values():
        if p.offboard:
            for link in data.links(v):
                if p.id in link.pair and link.kind != "box":
                    problems.append(f"{who(*link.pair)}: {p.id} is drawn off the board, so the edge must be 'box'")
        elif p.id not in mg.shapes:
            problems.append(f"{names[p.id]} ({p.id}) has no shape in the drawing")
    return problems


def coast_shore(mg: MapGeometry, pid: str, loc: str) -> BaseGeometry | None:
    """The shoreline a coast's fleets sail from: where the province meets the seas the coast reaches."""
    v = mg.variant
    seas = {link.b if link.a == loc else link.a for link in data.links(v) if loc in (link.a, link.b)}
    shape = mg.shapes[pid]
    parts = [shapely.intersection(shape.boundary, mg.shapes[s].boundary) for s in sorted(seas) if s in mg.shapes]
    lines = [q for part in parts for q in shapely.get_parts(part) if q.geom_type == "LineString" and not q.is_empty]
    return shapely.line_merge(shapely.MultiLineString(lines)) if lines else None


def coast_point(mg: MapGeometry, pid: str, loc: str) -> tuple[float, float]:
    """A unit point for a coast the geo file gives none: inland of the middle of its shoreline."""
    shore = coast_shore(mg, pid, loc)
    if shore is None:
        raise data.GeoError(f"geo file for {mg.variant.id}: no point for coast {loc} under 'coasts'")
    mid = shore.interpolate(0.5, normalized=True)
    label = mg.anchors[pid]["label"]
    dx, dy = label[0] - mid.x, label[1] - mid.y
    d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    step = min(8.0, d / 2)
    return (round(mid.x + dx / d * step, 1), round(mid.y + dy / d * step, 1))


def _largest_polygon(geom: BaseGeometry) -> BaseGeometry | None:
    polys = [q for q in shapely.get_parts(geom) if q.geom_type == "Polygon" and not q.is_empty]
    return max(polys, key=lambda q: q.area) if polys else None


def coast_lines(mg: MapGeometry) -> None:
    """The stretch of shoreline that belongs to each named coast (the seas its fleet edges reach,
    split between coasts by nearness to their unit points where one sea touches two coasts)."""
    v = mg.variant
    for p in v.provinces.values():
        if not p.coasts or p.id not in mg.shapes:
            continue
        locs = [f"{p.id}/{c}" for c in p.coasts]
        pts = shapely.MultiPoint([mg.anchors[loc]["unit"] for loc in locs])
        cells = shapely.get_parts(shapely.voronoi_polygons(pts, extend_to=shapely.box(-1e4, -1e4, 1e4, 1e4)))
        boundary = mg.shapes[p.id].boundary
        for loc in locs:
            seas = {link.b if link.a == loc else link.a for link in data.links(v) if loc in (link.a, link.b)}
            pieces = [
                shapely.intersection(boundary, mg.shapes[s].boundary)
                for s in sorted(seas) if s in mg.shapes and v.provinces[s].type == "sea"
            ]
            segs = [
                q for piece in pieces for q in shapely.get_parts(piece)
                if q.geom_type == "LineString" and not q.is_empty
            ]
            line = shapely.line_merge(shapely.MultiLineString(segs)) if segs else shapely.LineString()
            anchor = shapely.Point(mg.anchors[loc]["unit"])
            cell = next(c for c in cells if c.contains(anchor))
            mg.coast_lines[loc] = shapely.line_merge(shapely.intersection(line, cell)) if not line.is_empty else line


STRIP = 64.0  # height of the off-board band, SVG units
BOX = (190.0, 40.0)  # size of an off-board box


def offboard_boxes(mg: MapGeometry) -> None:
    """Give each off-board province (Cline's Antarctic Sea) a box in a band below the board, and the
    path of each of its links: from the box to where the linked sea meets the board's lower edge."""
    v = mg.variant
    boxes = [p for p in v.provinces.values() if p.offboard]
    if not boxes:
        return
    mg.strip = STRIP
    edge = shapely.LineString([(0, mg.height - 0.5), (mg.width, mg.height - 0.5)])
    for n, p in enumerate(sorted(boxes, key=lambda q: q.id)):
        targets = {}
        for link in data.links(v):
            if p.id in link.pair and link.kind == "box":
                other = link.pair[0] if link.pair[1] == p.id else link.pair[1]
                if other in mg.shapes:
                    targets[other] = _bottom_point(mg, other, edge)
        xs = [t[0] for t in targets.values()] or [mg.width / 2]
        cx = (min(xs) + max(xs)) / 2 + n * (BOX[0] + 20)
        cy = mg.height + STRIP / 2
        w, h = BOX
        box = shapely.box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        mg.shapes[p.id] = box
        for other, (tx, ty) in sorted(targets.items()):
            side = cx - w / 2 if tx < cx else cx + w / 2
            mg.link_lines[tuple(sorted((p.id, other)))] = shapely.LineString(
                [(side, cy), (tx, cy), (tx, ty)]
            )


def _bottom_point(mg: MapGeometry, pid: str, edge: BaseGeometry) -> tuple[float, float]:
    """A point a little inside a sea, above the middle of its longest stretch of the board's lower
    edge (or the point of the sea nearest that edge)."""
    shape = mg.shapes[pid]
    along = [q for q in shapely.get_parts(shapely.intersection(shape.buffer(0.6), edge)) if q.length > 0]
    if along:
        seg = max(along, key=lambda q: q.length)
        x = seg.interpolate(0.5, normalized=True).x
    else:
        x = shapely.shortest_line(shape, edge).coords[0][0]
    return (round(x, 1), round(mg.height - 22.0, 1))


CANAL_SYMBOL = 16.0  # length of a canal symbol across a shared border, SVG units


def canal_lines(mg: MapGeometry) -> None:
    """A symbol for each canal edge: the canal the geo file draws (``canals``: Suez, the Volga) that
    passes both provinces, else a short stroke across their shared border, else the shortest line
    between them."""
    v = mg.variant
    drawn = []
    for item in mg.geo.get("canals", []):
        pts = np.array(item["lonlat"], dtype=float)
        u, vv = mg.proj.forward(pts[:, 0], pts[:, 1])
        drawn.append(shapely.LineString(np.column_stack([u, vv])))
    for link in data.links(v):
        if link.kind != "canal":
            continue
        a, b = link.pair
        if a not in mg.shapes or b not in mg.shapes or link.pair in mg.link_lines:
            continue
        # the whole canal serves each edge whose provinces it passes (a canal drawn along a border may
        # lie a pixel or two outside one of them)
        parts = [
            line for line in drawn
            if shapely.distance(line, mg.shapes[a]) < 4.0 and shapely.distance(line, mg.shapes[b]) < 4.0
        ]
        if parts:
            mg.link_lines[link.pair] = shapely.union_all(parts)
            continue
        border = shapely.intersection(mg.shapes[a].boundary, mg.shapes[b].boundary)
        segs = [q for q in shapely.get_parts(shapely.line_merge(border)) if q.geom_type == "LineString"]
        if segs:
            seg = max(segs, key=lambda q: q.length)
            mid = seg.interpolate(0.5, normalized=True)
            p1 = seg.interpolate(max(seg.project(mid) - 2.0, 0.0))
            p2 = seg.interpolate(min(seg.project(mid) + 2.0, seg.length))
            dx, dy = p2.x - p1.x, p2.y - p1.y
            d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
            nx, ny = -dy / d * CANAL_SYMBOL / 2, dx / d * CANAL_SYMBOL / 2
            mg.link_lines[link.pair] = shapely.LineString([(mid.x - nx, mid.y - ny), (mid.x + nx, mid.y + ny)])
        else:
            mg.link_lines[link.pair] = shapely.shortest_line(mg.shapes[a], mg.shapes[b])
